import { readFileSync } from 'node:fs';
import { PolicyEngine } from '../../policy/ranger/engine.js';
import { parseServiceDef, parseServicePolicies, type ServiceDef } from '../../policy/ranger/model.js';
import {
  accessFor,
  authorizePolaris,
  commitOperations,
  OPERATION_ACCESS,
  PolarisAuthzError,
  polarisPath,
  rangerChecks,
  rangerResourceName,
  unknownAccessTypes,
  updateTableOperations,
} from './authorization.js';
import { parseResourceName, splitOnTemplate } from './resourceName.js';

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

  test('a commit maps to fine-grained operations, an unmapped kind adds UPDATE_TABLE beside them (Polaris\'s EnumSet)', () => {
    expect(updateTableOperations(['add-snapshot', 'set-snapshot-ref', 'add-snapshot'])).toEqual(['ADD_TABLE_SNAPSHOT', 'SET_TABLE_SNAPSHOT_REF']);
    expect(updateTableOperations([])).toEqual(['UPDATE_TABLE']);
    expect(updateTableOperations(['add-snapshot', 'something-new'])).toEqual(['UPDATE_TABLE', 'ADD_TABLE_SNAPSHOT']);
    // set-default-spec has no fine-grained operation in Polaris: DuckDB's partition changes need UPDATE_TABLE too.
    expect(updateTableOperations(['set-snapshot-ref', 'add-spec', 'set-default-spec'])).toEqual(['UPDATE_TABLE', 'ADD_TABLE_PARTITION_SPEC', 'SET_TABLE_SNAPSHOT_REF']);
  });

  test('a commit that ends a staged create is UPDATE_TABLE_FOR_STAGED_CREATE on the namespace', () => {
    expect(commitOperations(['assert-create'], ['assign-uuid', 'add-schema', 'set-default-spec', 'add-snapshot'])).toEqual({
      level: 'namespace',
      operations: ['UPDATE_TABLE_FOR_STAGED_CREATE'],
    });
    expect(commitOperations(['assert-table-uuid', 'assert-ref-snapshot-id'], ['add-snapshot', 'set-snapshot-ref'])).toEqual({
      level: 'table',
      operations: ['ADD_TABLE_SNAPSHOT', 'SET_TABLE_SNAPSHOT_REF'],
    });
  });
});

describe('resource names', () => {
  test('paths become the names Polaris sends', () => {
    expect(rangerResourceName(polarisPath.root('POLARIS'))).toBe('root:POLARIS');
    expect(rangerResourceName(polarisPath.tableLike('POLARIS', 'c', ['a', 'b'], 't'))).toBe('table:POLARIS/c/a/b/t');
    expect(rangerResourceName(polarisPath.namespaceOrCatalog('POLARIS', 'c', []))).toBe('catalog:POLARIS/c');
    expect(() => polarisPath.namespace('POLARIS', 'c', [])).toThrow(PolarisAuthzError);
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
