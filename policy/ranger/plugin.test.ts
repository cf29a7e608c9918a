import { PolicyEngine } from './engine.js';
import { GdsPolicyEngine } from './gds/engine.js';
import { parseServiceGdsInfo } from './gds/model.js';
import { parseServicePolicies } from './model.js';
import { RangerPlugin } from './plugin.js';

const serviceDef = {
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
  dataMaskDef: { maskTypes: [{ name: 'MASK_HASH', transformer: 'mask_hash({col})' }], resources: [{ name: 'database' }, { name: 'table' }, { name: 'column' }] },
  rowFilterDef: { resources: [{ name: 'database' }, { name: 'table' }] },
};

const policies = parseServicePolicies(
  {
    serviceName: 'dev_hive',
    serviceDef,
    policies: [
      // bob may not read db.t at all; carol reads db.shared through a policy.
      { id: 1, name: 'deny bob', resources: { database: { values: ['db'] }, table: { values: ['t'] }, column: { values: ['*'] } }, denyPolicyItems: [{ accesses: [{ type: 'select' }], users: ['bob'] }] },
      { id: 2, name: 'carol', resources: { database: { values: ['db'] }, table: { values: ['shared'] }, column: { values: ['*'] } }, policyItems: [{ accesses: [{ type: 'select' }], users: ['carol'] }] },
    ],
  },
  'test',
);

const gdsInfo = parseServiceGdsInfo(
  {
    datasets: [
      {
        id: 1,
        name: 'ds',
        policies: [{ id: 41, version: 3, name: 'p', resources: { 'dataset-id': { values: ['1'] } }, policyItems: [{ accesses: [{ type: '_READ' }], users: ['alice', 'bob'] }] }],
      },
    ],
    dataShares: [{ id: 5, name: 'share', defaultAccessTypes: ['_READ'] }],
    dshids: [{ dataShareId: 5, datasetId: 1, status: 'ACTIVE' }],
    resources: [
      { id: 50, dataShareId: 5, resource: { database: { values: ['db'] }, table: { values: ['t'] } }, subResourceType: 'column', subResource: { values: ['*'] }, subResourceMasks: [{ values: ['ssn'], maskInfo: { dataMaskType: 'MASK_HASH' } }], rowFilter: { filterExpr: "region = 'EU'" } },
      { id: 51, dataShareId: 5, resource: { database: { values: ['db'] }, table: { values: ['partial'] } }, subResourceType: 'column', subResource: { values: ['a'] }, rowFilter: { filterExpr: 'x > 0' } },
    ],
  },
  'test',
);

const engine = new PolicyEngine(policies);
const plugin = new RangerPlugin(engine, { gds: new GdsPolicyEngine(gdsInfo, policies.serviceDef, { roles: engine.roleStore }), policies });
const req = (user: string, resource: Record<string, string>, accessType = 'select') => ({ user, userGroups: new Set<string>(), accessType, resource });

describe('RangerPlugin (policy engine + GDS)', () => {
  test('GDS allows where no policy decided, reporting the dataset policy', () => {
    const r = plugin.isAccessAllowed(req('alice', { database: 'db', table: 't' }));
    expect(r).toMatchObject({ isAllowed: true, isAccessDetermined: true, policyId: 41, policyVersion: 3, isAudited: true, isAuditedDetermined: true, datasets: ['ds'] });
  });

  test('a deny policy is not overridden by a GDS allow', () => {
    const r = plugin.isAccessAllowed(req('bob', { database: 'db', table: 't', column: 'c' }));
    expect(r).toMatchObject({ isAllowed: false, policyId: 1 });
  });

  test('without GDS coverage the engine answer stands', () => {
    expect(plugin.isAccessAllowed(req('alice', { database: 'other', table: 't' }))).toMatchObject({ isAllowed: false, policyId: -1, datasets: null });
    expect(new RangerPlugin(engine).isAccessAllowed(req('alice', { database: 'db', table: 't' })).isAllowed).toBe(false);
  });

  test('GDS masks and row filters, with the dataset policy as their source', () => {
    expect(plugin.evalDataMask(req('alice', { database: 'db', table: 't', column: 'ssn' }))).toMatchObject({ maskType: 'MASK_HASH', transformer: 'mask_hash({col})', policyId: 41, policyVersion: 3 });
    expect(plugin.evalDataMask(req('alice', { database: 'db', table: 't', column: 'name' })).maskType).toBeNull();
    expect(plugin.evalRowFilter(req('alice', { database: 'db', table: 't' }))).toMatchObject({ filterExpr: "region = 'EU'", policyId: 41 });
  });

  test('a table shared with only some columns: not accessible as a whole, but its rows are filtered', () => {
    expect(plugin.isAccessAllowed(req('alice', { database: 'db', table: 'partial' }))).toMatchObject({ isAllowed: false, policyId: -1 });
    expect(plugin.evalRowFilter(req('alice', { database: 'db', table: 'partial' })).filterExpr).toBe('x > 0');
  });

  test('ACLs: GDS entries merged over the policies, a policy deny kept', () => {
    const acls = plugin.getResourceACLs(req('', { database: 'db', table: 't' }, '_any'));
    expect(acls.userACLs.get('alice')?.get('select')).toMatchObject({ result: 1, isFinal: true, policyId: 41 });
    expect(acls.userACLs.get('bob')?.get('select')).toMatchObject({ result: -1, policyId: 1 });
    expect([...acls.datasets]).toEqual(['ds']);
  });
});
