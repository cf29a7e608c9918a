import { readFileSync } from 'node:fs';
import { polarisPath } from '../../catalog/polaris/authorization.js';
import { PolicyEngine } from '../ranger/engine.js';
import { parseServiceDef, parseServicePolicies, type ServiceDef } from '../ranger/model.js';
import { parseResourceName, splitOnTemplate } from '../ranger/resourceName.js';
import {
  accessFor,
  authorizePolaris,
  OPERATION_ACCESS,
  PolarisAuthzError,
  RangerPolarisAuthorizer,
  rangerChecks,
  rangerResourceName,
  unknownAccessTypes,
} from './rangerAuthorizer.js';

/** The polaris def's resource hierarchy, as in Ranger 2.9.0 (access types trimmed to what the tests use). */
const def: ServiceDef = parseServiceDef(
  {
    name: 'polaris',
    resources: [
      { name: 'root', level: 10, matcherOptions: { wildCard: 'true', ignoreCase: 'true' } },
      { name: 'catalog', parent: 'root', level: 20, matcherOptions: { wildCard: 'true', ignoreCase: 'true' } },
      { name: 'principal', parent: 'root', level: 20, matcherOptions: { wildCard: 'true', ignoreCase: 'true' } },
      { name: 'namespace', parent: 'catalog', level: 30, matcherOptions: { wildCard: 'true', ignoreCase: 'true' } },
      { name: 'table', parent: 'namespace', level: 40, matcherOptions: { wildCard: 'true', ignoreCase: 'true' } },
      { name: 'policy', parent: 'namespace', level: 40, matcherOptions: { wildCard: 'true', ignoreCase: 'true' } },
    ],
    accessTypes: ['table-properties-read', 'table-list', 'table-create', 'table-drop', 'namespace-list'].map((name, i) => ({ itemId: i + 1, name })),
  },
  'test',
);

describe('operation table', () => {
  test('LOAD_TABLE reads table properties on the table; unmapped operations are refused', () => {
    expect(accessFor('LOAD_TABLE')).toEqual({ target: { accessTypes: ['table-properties-read'], level: 'table' } });
    expect(accessFor('RENAME_TABLE')?.secondary).toEqual({ accessTypes: ['table-list', 'table-create'], level: 'namespace-or-catalog' });
    expect(accessFor('CREATE_PRINCIPAL_ROLE')).toBeNull();
    expect(accessFor('toString')).toBeNull();
  });

  test('every access type exists by name in the 2.9.0 polaris def', () => {
    const path = new URL('../../../shared/ranger-conformance/ranger-servicedef-polaris.json', import.meta.url);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      return; // fixtures absent: the conformance test reports that
    }
    expect(unknownAccessTypes(parseServiceDef(JSON.parse(text), 'polaris def'))).toEqual([]);
    expect(Object.keys(OPERATION_ACCESS).length).toBeGreaterThan(80);
  });
});

describe('resource names', () => {
  test('paths become the names Polaris sends', () => {
    expect(rangerResourceName(polarisPath.root('POLARIS'))).toBe('root:POLARIS');
    expect(rangerResourceName(polarisPath.tableLike('POLARIS', 'c', ['a', 'b'], 't'))).toBe('table:POLARIS/c/a/b/t');
    expect(rangerResourceName(polarisPath.namespaceOrCatalog('POLARIS', 'c', []))).toBe('catalog:POLARIS/c');
  });

  test('the last element absorbs extra levels (the nested-namespace quirk); backslash escapes', () => {
    expect(parseResourceName(def, 'namespace:R/c/a/b').resource).toEqual({ root: 'R', catalog: 'c', namespace: 'a/b' });
    expect(parseResourceName(def, 'table:R/c/a/b/t').resource).toEqual({ root: 'R', catalog: 'c', namespace: 'a', table: 'b/t' });
    expect(splitOnTemplate('x\\/y/z', ['a', 'b'])).toEqual(['x/y', 'z']);
    expect(() => parseResourceName(def, 'catalog:R')).toThrow(/does not fill/);
    expect(() => parseResourceName(def, 'PRINCIPAL_ROLE:R/r')).toThrow(/not in service def/);
  });
});

describe('authorizePolaris', () => {
  const engine = new PolicyEngine(
    parseServicePolicies(
      {
        serviceName: 'dev_polaris',
        serviceDef: def,
        policies: [
          {
            id: 1,
            name: 'ns',
            resources: { root: { values: ['POLARIS'] }, catalog: { values: ['c'] }, namespace: { values: ['ns'] } },
            policyItems: [{ accesses: [{ type: 'table-list', isAllowed: true }, { type: 'table-create', isAllowed: true }], users: ['alice'] }],
          },
          {
            id: 2,
            name: 'tables',
            resources: { root: { values: ['POLARIS'] }, catalog: { values: ['c'] }, namespace: { values: ['ns'] }, table: { values: ['*'] } },
            policyItems: [{ accesses: [{ type: 'table-properties-read', isAllowed: true }, { type: 'table-drop', isAllowed: true }], users: ['alice'] }],
          },
        ],
      },
      'test',
    ),
  );
  const t = polarisPath.tableLike('POLARIS', 'c', ['ns'], 't1');
  const ns = polarisPath.namespace('POLARIS', 'c', ['ns']);

  test('allowed only when every target and secondary check is', () => {
    expect(authorizePolaris(engine, { principal: { name: 'alice' }, operation: 'LOAD_TABLE', targets: [t] }).allowed).toBe(true);
    expect(authorizePolaris(engine, { principal: { name: 'bob' }, operation: 'LOAD_TABLE', targets: [t] })).toMatchObject({
      allowed: false,
      reason: "Principal 'bob' is not authorized for op 'LOAD_TABLE'",
    });
    const rename = authorizePolaris(engine, { principal: { name: 'alice' }, operation: 'RENAME_TABLE', targets: [t], secondaries: [ns] });
    expect(rename.allowed).toBe(true);
    expect(rename.checks.map((c) => `${c.resourceName} ${c.accessType}`)).toEqual([
      'table:POLARIS/c/ns/t1 table-drop',
      'namespace:POLARIS/c/ns table-list',
      'namespace:POLARIS/c/ns table-create',
    ]);
    // The destination is checked too: another namespace has no grant.
    const other = polarisPath.namespace('POLARIS', 'c', ['other']);
    expect(authorizePolaris(engine, { principal: { name: 'alice' }, operation: 'RENAME_TABLE', targets: [t], secondaries: [other] }).allowed).toBe(false);
  });

  test('unmapped operations are refused without checks; a missing target is an error', () => {
    expect(authorizePolaris(engine, { principal: { name: 'alice' }, operation: 'CREATE_CATALOG_ROLE', targets: [] })).toMatchObject({ allowed: false, checks: [] });
    expect(() => rangerChecks(def, { principal: { name: 'alice' }, operation: 'LOAD_TABLE', targets: [] })).toThrow(PolarisAuthzError);
    expect(() => rangerChecks(def, { principal: { name: 'alice' }, operation: 'RENAME_TABLE', targets: [t] })).toThrow(/secondary/);
  });
});

describe('RangerPolarisAuthorizer', () => {
  const engine = new PolicyEngine(
    parseServicePolicies(
      {
        serviceName: 'dev_polaris',
        serviceDef: def,
        policies: [
          {
            id: 1,
            name: 'tables',
            resources: { root: { values: ['POLARIS'] }, catalog: { values: ['c'] }, namespace: { values: ['ns'] }, table: { values: ['*'] } },
            policyItems: [{ accesses: [{ type: 'table-properties-read', isAllowed: true }], users: ['alice'] }],
          },
        ],
      },
      'test',
    ),
  );
  const target = polarisPath.tableLike('POLARIS', 'c', ['ns'], 't1');

  test('every operation is decided; the first refused is named; only an existing entity is recorded', () => {
    const told: string[] = [];
    const authorizer = new RangerPolarisAuthorizer<{ user: string }>(() => engine, (d) => told.push(`${d.operation} ${d.decision.allowed}`));
    expect(authorizer.firstRefused({ caller: { user: 'alice' }, operations: ['LOAD_TABLE'], target, recorded: true })).toBeNull();
    expect(authorizer.firstRefused({ caller: { user: 'alice' }, operations: ['LOAD_TABLE', 'DROP_TABLE_WITHOUT_PURGE', 'UPDATE_TABLE'], target, recorded: true })).toBe(
      'DROP_TABLE_WITHOUT_PURGE',
    );
    expect(told).toEqual(['LOAD_TABLE true', 'LOAD_TABLE true', 'DROP_TABLE_WITHOUT_PURGE false', 'UPDATE_TABLE false']);
    told.length = 0;
    expect(authorizer.firstRefused({ caller: { user: 'bob' }, operations: ['LOAD_TABLE'], target, recorded: false })).toBe('LOAD_TABLE');
    expect(told).toEqual([]);
  });

  test('no policies in force refuse the first operation, and nothing is recorded', () => {
    const told: string[] = [];
    const authorizer = new RangerPolarisAuthorizer<{ user: string }>(() => null, (d) => told.push(d.operation));
    expect(authorizer.firstRefused({ caller: { user: 'alice' }, operations: ['LOAD_TABLE', 'UPDATE_TABLE'], target, recorded: true })).toBe('LOAD_TABLE');
    expect(told).toEqual([]);
  });
});
