import { commitOperations, polarisPath, PolarisPathError, updateTableOperations } from './authorization.js';

describe('operations', () => {
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

describe('securables', () => {
  test('a namespace needs a level', () => {
    expect(polarisPath.namespaceOrCatalog('POLARIS', 'c', [])).toEqual({ leafType: 'CATALOG', names: ['POLARIS', 'c'] });
    expect(() => polarisPath.namespace('POLARIS', 'c', [])).toThrow(PolarisPathError);
  });
});
