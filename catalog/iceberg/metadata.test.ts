/**
 * Table metadata as the gateway reads it: the snapshot a reference reads
 * (current, by id, by ref, as of a time), DuckDB types of Iceberg types, and
 * column tags by field id (a rename keeps them; what cannot be read is null).
 */
import { chooseSnapshot, columnsDecidedByCurrent, columnsOf, columnTagsByFieldId, columnTagsFor, duckType, pgTypesByFieldId, schemaById, TableMetadataSchema } from './metadata.js';

const meta = (over: Record<string, unknown> = {}) =>
  TableMetadataSchema.parse({
    'format-version': 2,
    location: '/wh/t',
    'current-schema-id': 1,
    schemas: [
      { 'schema-id': 0, fields: [{ id: 1, name: 'id', type: 'long', required: true }, { id: 2, name: 'name', type: 'string', required: false }] },
      { 'schema-id': 1, fields: [{ id: 1, name: 'id', type: 'long', required: true }, { id: 2, name: 'label', type: 'string', required: false }] },
    ],
    'current-snapshot-id': 20n,
    snapshots: [
      { 'snapshot-id': 10n, 'timestamp-ms': 1000, 'schema-id': 0 },
      { 'snapshot-id': 20n, 'timestamp-ms': 2000, 'schema-id': 1 },
    ],
    'snapshot-log': [
      { 'snapshot-id': 10n, 'timestamp-ms': 1000 },
      { 'snapshot-id': 20n, 'timestamp-ms': 2000 },
    ],
    refs: { main: { 'snapshot-id': 20n, type: 'branch' }, v1: { 'snapshot-id': 10n, type: 'tag' } },
    properties: { 'sqe.column-tags': '{"name": ["PII"], "id": ["KEY"]}' },
    ...over,
  });

describe('chooseSnapshot', () => {
  it('current with the current schema; time travel with the snapshot schema', () => {
    expect(chooseSnapshot(meta(), { kind: 'current' })).toMatchObject({ snapshotId: 20n, schema: { 'schema-id': 1 } });
    expect(chooseSnapshot(meta(), { kind: 'id', id: 10n })).toMatchObject({ snapshotId: 10n, schema: { 'schema-id': 0 } });
    expect(chooseSnapshot(meta(), { kind: 'ref', name: 'v1' })).toMatchObject({ snapshotId: 10n });
    expect(chooseSnapshot(meta(), { kind: 'time', epochMs: 1999 })).toMatchObject({ snapshotId: 10n });
    expect(chooseSnapshot(meta(), { kind: 'time', epochMs: 2000 })).toMatchObject({ snapshotId: 20n });
  });
  it('an empty table, and selectors that name nothing', () => {
    expect(chooseSnapshot(meta({ 'current-snapshot-id': -1, snapshots: [], refs: {}, 'snapshot-log': [] }), { kind: 'current' }).snapshotId).toBeNull();
    expect(() => chooseSnapshot(meta(), { kind: 'id', id: 30n })).toThrow('snapshot 30 does not exist');
    expect(() => chooseSnapshot(meta(), { kind: 'ref', name: 'nope' })).toThrow('branch or tag "nope" does not exist');
    expect(() => chooseSnapshot(meta(), { kind: 'time', epochMs: 999 })).toThrow(/no snapshot at or before/);
  });
});

describe('duckType', () => {
  // checked against DuckDB's iceberg_scan of a pyiceberg table with these types (column types of the result)
  it('primitive and nested types as DuckDB names them', () => {
    expect(['boolean', 'int', 'long', 'float', 'double', 'date', 'time', 'timestamp', 'timestamptz', 'string', 'uuid', 'binary', 'fixed[16]', 'decimal(38, 9)'].map((t) => duckType(t))).toEqual([
      'BOOLEAN', 'INTEGER', 'BIGINT', 'FLOAT', 'DOUBLE', 'DATE', 'TIME', 'TIMESTAMP', 'TIMESTAMP WITH TIME ZONE', 'VARCHAR', 'UUID', 'BLOB', 'BLOB', 'DECIMAL(38,9)',
    ]);
    expect(duckType({ type: 'list', 'element-id': 3, element: 'int', 'element-required': false })).toBe('INTEGER[]');
    expect(duckType({ type: 'map', 'key-id': 4, key: 'string', 'value-id': 5, value: 'long', 'value-required': false })).toBe('MAP(VARCHAR, BIGINT)');
    expect(duckType({ type: 'struct', fields: [{ id: 6, name: 'Zip Code', type: 'string', required: false }, { id: 7, name: 'n', type: 'int', required: true }] })).toBe('STRUCT("Zip Code" VARCHAR, "n" INTEGER)');
    expect(() => duckType('geometry')).toThrow('unsupported Iceberg type geometry');
  });
});

describe('column tags', () => {
  it('follow the field id through a rename', () => {
    const m = meta();
    const current = chooseSnapshot(m, { kind: 'current' }).schema;
    expect(columnTagsFor(m, current)).toEqual({ id: ['KEY'], label: ['PII'] });
    const old = chooseSnapshot(m, { kind: 'id', id: 10n }).schema;
    expect(columnTagsFor(m, old)).toEqual({ id: ['KEY'], name: ['PII'] });
  });
  it('absent → undefined; unreadable (not JSON, wrong shape, a name no schema had) → null', () => {
    const current = chooseSnapshot(meta(), { kind: 'current' }).schema;
    expect(columnTagsFor(meta({ properties: {} }), current)).toBeUndefined();
    for (const bad of ['{', '{"name": "PII"}', '["name"]', '{"ghost": ["PII"]}']) {
      expect([bad, columnTagsFor(meta({ properties: { 'sqe.column-tags': bad } }), current)]).toEqual([bad, null]);
    }
  });
});

describe('kept PostgreSQL types (lakegate.pg-types)', () => {
  it('a string column written as jsonb reads as JSON presented as jsonb, by field id through a rename, in every snapshot', () => {
    const m = meta({ properties: { 'lakegate.pg-types': '{"name": "jsonb"}' } });
    const types = pgTypesByFieldId(m);
    expect(types).toEqual(new Map([[2, 'jsonb']]));
    const current = chooseSnapshot(m, { kind: 'current' }).schema;
    expect(columnsOf(current, types)[1]).toMatchObject({ name: 'label', duckType: 'JSON', pgType: 'jsonb' });
    const old = chooseSnapshot(m, { kind: 'id', id: 10n }).schema;
    expect(columnsDecidedByCurrent(old, current, types)[1]).toMatchObject({ name: 'name', duckType: 'JSON', pgType: 'jsonb', policyName: 'label' });
    expect(columnsOf(current)[1]).toEqual({ name: 'label', duckType: 'VARCHAR', nullable: true, fieldId: 2 });
  });
  it('only a type, never a policy input: what cannot be read leaves the column as it is stored', () => {
    const current = chooseSnapshot(meta(), { kind: 'current' }).schema;
    for (const bad of ['{', '["label"]', '{"label": "xml"}', '{"ghost": "json"}', '{"id": "jsonb"}']) {
      const types = pgTypesByFieldId(meta({ properties: { 'lakegate.pg-types': bad } }));
      expect([bad, columnsOf(current, types).map((c) => c.duckType)]).toEqual([bad, ['BIGINT', 'VARCHAR']]);
    }
  });
});

describe('names that are Object.prototype members', () => {
  const names = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'];

  it('a ref of such a name is an unknown ref (control: a ref that exists)', () => {
    expect(chooseSnapshot(meta(), { kind: 'ref', name: 'main' }).snapshotId).toBe(20n);
    for (const name of names) {
      expect(() => chooseSnapshot(meta(), { kind: 'ref', name })).toThrow(`branch or tag "${name}" does not exist`);
    }
  });

  it('a table with no main ref does not find one on the prototype', () => {
    const m = meta({ 'current-snapshot-id': undefined, refs: {} });
    expect(chooseSnapshot(m, { kind: 'current' }).snapshotId).toBeNull();
  });

  it('an Iceberg type of such a name is unsupported', () => {
    for (const name of names) expect(() => duckType(name)).toThrow(`unsupported Iceberg type ${name}`);
  });

  it('columns of such names keep their own tags, no other column gets any', () => {
    const m = meta({
      schemas: [{ 'schema-id': 1, fields: [{ id: 1, name: 'constructor', type: 'string', required: false }, { id: 2, name: '__proto__', type: 'string', required: false }, { id: 3, name: 'plain', type: 'string', required: false }] }],
      properties: { 'sqe.column-tags': '{"constructor": ["PII"], "__proto__": ["SSN"]}' },
    });
    expect(columnTagsByFieldId(m)).toEqual(new Map([[1, ['PII']], [2, ['SSN']]]));
    const tags = columnTagsFor(m, schemaById(m, undefined))!;
    expect(Object.entries(tags)).toEqual([['constructor', ['PII']], ['__proto__', ['SSN']]]);
    expect(Object.hasOwn(tags, 'plain')).toBe(false);
  });
});

describe('columnsDecidedByCurrent', () => {
  it('an older schema’s columns are decided by the current name of their field id; a dropped field by none', () => {
    const old = { type: 'struct' as const, 'schema-id': 0, fields: [
      { id: 1, name: 'id', type: 'long', required: true },
      { id: 2, name: 'ssn', type: 'string', required: false },
      { id: 3, name: 'nick', type: 'string', required: false },
    ] };
    const current = { type: 'struct' as const, 'schema-id': 1, fields: [
      { id: 1, name: 'id', type: 'long', required: true },
      { id: 2, name: 'tax_id', type: 'string', required: false },
      { id: 4, name: 'ssn', type: 'string', required: false },
    ] };
    expect(columnsDecidedByCurrent(old, current)).toEqual([
      { name: 'id', duckType: 'BIGINT', nullable: false, fieldId: 1 },
      { name: 'ssn', duckType: 'VARCHAR', nullable: true, fieldId: 2, policyName: 'tax_id' },
      { name: 'nick', duckType: 'VARCHAR', nullable: true, fieldId: 3, policyName: null },
    ]);
  });
});
