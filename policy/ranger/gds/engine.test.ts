import { parseServiceDef } from '../model.js';
import { GdsPolicyEngine } from './engine.js';
import { parseServiceGdsInfo } from './model.js';

const hive = parseServiceDef(
  {
    name: 'hive',
    resources: [
      { name: 'database', level: 10 },
      { name: 'table', level: 20, parent: 'database' },
      { name: 'column', level: 30, parent: 'table' },
    ],
    accessTypes: [
      { name: 'select', category: 'READ' },
      { name: 'update', category: 'UPDATE' },
    ],
    dataMaskDef: { resources: [{ name: 'database' }, { name: 'table' }, { name: 'column' }] },
    rowFilterDef: { resources: [{ name: 'database' }, { name: 'table' }] },
  },
  'test',
);

const info = parseServiceGdsInfo(
  {
    datasets: [{ id: 1, name: 'ds', policies: [{ id: 10, name: 'p', resources: { 'dataset-id': { values: ['1'] } }, policyItems: [{ accesses: [{ type: '_READ' }], users: ['alice'] }] }] }],
    dataShares: [{ id: 5, name: 'share', defaultAccessTypes: ['_READ'] }],
    dshids: [{ dataShareId: 5, datasetId: 1, status: 'ACTIVE' }],
    resources: [
      {
        id: 50,
        dataShareId: 5,
        resource: { database: { values: ['db'] }, table: { values: ['t'] } },
        subResourceType: 'column',
        subResource: { values: ['*'] },
        subResourceMasks: [{ values: ['ssn'], maskInfo: { dataMaskType: 'MASK_NULL' } }],
        rowFilter: { filterExpr: "region = 'EU'" },
      },
    ],
  },
  'test',
);

const engine = new GdsPolicyEngine(info, hive);
const req = (user: string, resource: Record<string, string>, accessType = 'select') => ({ user, userGroups: new Set<string>(), accessType, resource });

describe('GdsPolicyEngine', () => {
  test('a shared table is allowed to a dataset user, with the share row filter', () => {
    const r = engine.evaluate(req('alice', { database: 'db', table: 't' }))!;
    expect(r.isAllowed).toBe(true);
    expect(r.policyId).toBe(10);
    expect([...r.allowedByDatasets]).toEqual(['ds']);
    expect(r.rowFilters).toEqual(["region = 'EU'"]);
  });

  test('a masked column carries the share mask', () => {
    const r = engine.evaluate(req('alice', { database: 'db', table: 't', column: 'ssn' }))!;
    expect(r.maskType).toBe('MASK_NULL');
  });

  test('others see the dataset but are not allowed; unshared resources are not GDS business', () => {
    const r = engine.evaluate(req('bob', { database: 'db', table: 't' }))!;
    expect(r.isAllowed).toBe(false);
    expect([...r.datasets]).toEqual(['ds']);
    expect(engine.evaluate(req('alice', { database: 'other', table: 't' }))).toBeNull();
    expect(engine.evaluate(req('alice', { database: 'db', table: 't' }, 'update'))).toBeNull();
  });

  test('ACLs and catalogue queries', () => {
    const acls = engine.getResourceACLs(req('', { database: 'db', table: 't' }, ''));
    expect(acls.userACLs.get('alice')?.get('select')).toMatchObject({ result: 1, isFinal: true });
    expect(engine.datasetsSharedWith(['alice'])).toEqual(new Set([1]));
    expect(engine.resourceIds({ datasetIds: [1] })).toEqual([50]);
  });

  test('row filters: only on a table request, and even when only some columns are shared', () => {
    const partial = new GdsPolicyEngine(
      parseServiceGdsInfo(
        {
          datasets: [{ id: 1, name: 'ds', policies: [{ id: 10, name: 'p', resources: { 'dataset-id': { values: ['1'] } }, policyItems: [{ accesses: [{ type: '_READ' }], users: ['alice'] }] }] }],
          dataShares: [{ id: 5, name: 'share', defaultAccessTypes: ['_READ'] }],
          dshids: [{ dataShareId: 5, datasetId: 1, status: 'ACTIVE' }],
          resources: [{ id: 50, dataShareId: 5, resource: { database: { values: ['db'] }, table: { values: ['t'] } }, subResourceType: 'column', subResource: { values: ['a', 'b'] }, rowFilter: { filterExpr: 'x = 1' } }],
        },
        'test',
      ),
      hive,
    );
    const table = partial.evaluate(req('alice', { database: 'db', table: 't' }))!;
    expect(table).toMatchObject({ isAllowed: false, policyId: 10, rowFilters: ['x = 1'] });
    expect(partial.evaluate(req('alice', { database: 'db', table: 't', column: 'a' }))).toMatchObject({ isAllowed: true, rowFilters: null });
    expect(engine.evaluate(req('alice', { database: 'db' }, ''))).toMatchObject({ isAllowed: true, rowFilters: null });
  });

  test('malformed info is refused with its JSON path', () => {
    expect(() => parseServiceGdsInfo({ dshids: [{ dataShareId: 'x' }] }, 'test')).toThrow(/\$\.dshids\[0\]\.dataShareId/);
  });
});
