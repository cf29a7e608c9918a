/**
 * The commit applier against Iceberg's own catalog: fixtures/javaRestCommits.json
 * holds the commits DuckDB 1.5.5 sent to Apache Iceberg's REST server 1.11.0
 * (a staged create, an INSERT, a DELETE, ADD and DROP COLUMN) and the metadata
 * that server committed for each. Each step applied to the previous step's
 * metadata must give the server's metadata (the clock is the server's). Then
 * the requirements Java's UpdateRequirement checks, with its messages, and the
 * updates DuckDB's extension never sends.
 */
import { readFileSync } from 'node:fs';
import { CatalogError, type JsonObject } from './api.js';
import { parseIcebergJson } from './json.js';
import { applyCommit, checkRequirements, type CommitContext } from './tableUpdates.js';

interface Step {
  step: string;
  base: { 'metadata-location': string; metadata: JsonObject } | null;
  commit: { requirements: JsonObject[]; updates: JsonObject[] };
  after: { 'metadata-location': string; metadata: JsonObject };
}
const fixture = parseIcebergJson(readFileSync(new URL('./fixtures/javaRestCommits.json', import.meta.url), 'utf8')) as { steps: Step[] };

const ctx = (now: number, extra: Partial<CommitContext> = {}): CommitContext => ({ now, newUuid: () => 'fresh-uuid', ...extra });

/** Key order is cosmetic: compare as sorted JSON, numbers exactly. */
function sorted(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sorted);
  if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted((v as JsonObject)[k])]));
  return typeof v === 'bigint' ? `big:${v}` : v;
}

function refusal(f: () => unknown): { status: number | undefined; type: string | undefined; message: string } {
  try {
    f();
  } catch (e) {
    if (e instanceof CatalogError) return { status: e.status, type: e.type, message: e.message };
    throw e;
  }
  throw new Error('no error');
}

describe('DuckDB commits, as Iceberg Java applies them', () => {
  test.each(fixture.steps.map((s) => [s.step, s] as const))('%s', (_name, step) => {
    const base = step.base ? { metadata: step.base.metadata, location: step.base['metadata-location'] } : null;
    const now = Number(step.after.metadata['last-updated-ms']);
    const out = applyCommit(base, step.commit, ctx(now));
    expect(out.changed).toBe(true);
    expect(sorted(out.metadata)).toEqual(sorted(step.after.metadata));
  });

  test('64-bit snapshot ids stay exact (bigint in, bigint out)', () => {
    const insert = fixture.steps[1]!;
    const out = applyCommit({ metadata: insert.base!.metadata, location: insert.base!['metadata-location'] }, insert.commit, ctx(1));
    const id = (insert.commit.updates[0]!['snapshot'] as JsonObject)['snapshot-id'];
    expect(typeof id).toBe('bigint');
    expect(out.metadata['current-snapshot-id']).toBe(id);
    expect((out.metadata['refs'] as Record<string, JsonObject>)['main']!['snapshot-id']).toBe(id);
  });

  test('the pinned location: the create keeps it, a manifest list elsewhere or a data path elsewhere is 400', () => {
    const create = fixture.steps[0]!;
    expect(applyCommit(null, create.commit, ctx(1, { pinnedLocation: '/warehouse/s/t' })).metadata['location']).toBe('/warehouse/s/t');
    expect(refusal(() => applyCommit(null, create.commit, ctx(1, { pinnedLocation: '/warehouse/s/t-2' })))).toMatchObject({ status: 400 });
    const insert = fixture.steps[1]!;
    const base = { metadata: insert.base!.metadata, location: insert.base!['metadata-location'] };
    expect(refusal(() => applyCommit(base, insert.commit, ctx(1, { pinnedLocation: '/warehouse/s/other' })))).toMatchObject({ status: 400 });
    const elsewhere = { requirements: [], updates: [{ action: 'set-properties', updates: { 'write.data.path': '/warehouse/s/victim/data' } }] };
    expect(refusal(() => applyCommit(base, elsewhere, ctx(1, { pinnedLocation: '/warehouse/s/t' })))).toMatchObject({ status: 400 });
    const inside = { requirements: [], updates: [{ action: 'set-properties', updates: { 'write.data.path': '/warehouse/s/t/data2' } }] };
    expect((applyCommit(base, inside, ctx(1, { pinnedLocation: 'file:///warehouse/s/t' })).metadata['properties'] as JsonObject)['write.data.path']).toBe('/warehouse/s/t/data2');
  });
});

describe('requirements (UpdateRequirement, Java\'s messages)', () => {
  const meta = fixture.steps[2]!.after.metadata;
  const main = (meta['refs'] as Record<string, JsonObject>)['main']!['snapshot-id'] as bigint;

  test('each kind passes when it holds and is 409 CommitFailedException when it does not', () => {
    checkRequirements(meta, [
      { type: 'assert-table-uuid', uuid: String(meta['table-uuid']).toUpperCase() },
      { type: 'assert-ref-snapshot-id', ref: 'main', 'snapshot-id': main },
      { type: 'assert-ref-snapshot-id', ref: 'audit', 'snapshot-id': null },
      { type: 'assert-current-schema-id', 'current-schema-id': 0 },
      { type: 'assert-last-assigned-field-id', 'last-assigned-field-id': 2 },
      { type: 'assert-last-assigned-partition-id', 'last-assigned-partition-id': 999 },
      { type: 'assert-default-spec-id', 'default-spec-id': 0 },
      { type: 'assert-default-sort-order-id', 'default-sort-order-id': 0 },
    ]);
    const cases: [JsonObject, string][] = [
      [{ type: 'assert-create' }, 'Requirement failed: table already exists'],
      [{ type: 'assert-table-uuid', uuid: 'other' }, `Requirement failed: UUID does not match: expected other != ${String(meta['table-uuid'])}`],
      [{ type: 'assert-ref-snapshot-id', ref: 'main', 'snapshot-id': 1 }, `Requirement failed: branch main has changed: expected id 1 != ${main}`],
      [{ type: 'assert-ref-snapshot-id', ref: 'main', 'snapshot-id': null }, 'Requirement failed: branch main was created concurrently'],
      [{ type: 'assert-ref-snapshot-id', ref: 'audit', 'snapshot-id': 5 }, 'Requirement failed: branch or tag audit is missing, expected 5'],
      [{ type: 'assert-current-schema-id', 'current-schema-id': 3 }, 'Requirement failed: current schema changed: expected id 3 != 0'],
      [{ type: 'assert-last-assigned-field-id', 'last-assigned-field-id': 9 }, 'Requirement failed: last assigned field id changed: expected id 9 != 2'],
      [{ type: 'assert-default-spec-id', 'default-spec-id': 1 }, 'Requirement failed: default partition spec changed: expected id 1 != 0'],
    ];
    for (const [r, message] of cases) expect(refusal(() => checkRequirements(meta, [r]))).toEqual({ status: 409, type: 'CommitFailedException', message });
  });

  test('an unknown requirement is 400, not a silent pass', () => {
    expect(refusal(() => checkRequirements(meta, [{ type: 'assert-everything-fine' }]))).toMatchObject({ status: 400 });
  });

  test('the append that lost a race: its base snapshot is no longer main', () => {
    const insert = fixture.steps[1]!;
    const lost = applyCommit.bind(null, { metadata: meta, location: 'x' }, insert.commit, ctx(1));
    expect(refusal(lost)).toMatchObject({ status: 409, message: expect.stringMatching(/^Requirement failed: branch main was created concurrently/) });
  });
});

describe('updates DuckDB does not send', () => {
  const base = () => ({ metadata: structuredClone(fixture.steps[2]!.after.metadata), location: '/warehouse/s/t/metadata/00002.metadata.json' });
  const apply = (updates: JsonObject[]) => applyCommit(base(), { requirements: [], updates }, ctx(42)).metadata;

  test('an unknown action, a downgrade, removing what is current, a ref to no snapshot: 400', () => {
    for (const u of [
      { action: 'set-everything' },
      { action: 'upgrade-format-version', 'format-version': 1 },
      { action: 'remove-schemas', 'schema-ids': [0] },
      { action: 'remove-partition-specs', 'spec-ids': [0] },
      { action: 'set-snapshot-ref', 'ref-name': 'main', type: 'branch', 'snapshot-id': 12 },
      { action: 'set-current-schema', 'schema-id': -1 },
      { action: 'assign-uuid', uuid: 'another' },
    ]) {
      expect(refusal(() => apply([u]))).toMatchObject({ status: 400, type: 'BadRequestException' });
    }
  });

  test('add-spec then set-default-spec -1; a sort order; properties set and removed; a tag; statistics', () => {
    const snapshots = base().metadata['snapshots'] as JsonObject[];
    const first = snapshots[0]!['snapshot-id'];
    const m = apply([
      { action: 'add-spec', spec: { fields: [{ 'source-id': 1, name: 'id_bucket', transform: 'bucket[4]' }] } },
      { action: 'set-default-spec', 'spec-id': -1 },
      { action: 'add-sort-order', 'sort-order': { 'order-id': 5, fields: [{ 'source-id': 1, transform: 'identity', direction: 'asc', 'null-order': 'nulls-first' }] } },
      { action: 'set-default-sort-order', 'sort-order-id': -1 },
      { action: 'set-properties', updates: { comment: 'orders', a: 'b' } },
      { action: 'remove-properties', removals: ['a', 'not-there'] },
      { action: 'set-snapshot-ref', 'ref-name': 'v1', type: 'tag', 'snapshot-id': first },
      { action: 'set-statistics', statistics: { 'snapshot-id': first, 'statistics-path': '/warehouse/s/t/metadata/s.puffin', 'file-size-in-bytes': 1, 'file-footer-size-in-bytes': 1, 'blob-metadata': [] } },
    ]);
    expect(m['partition-specs']).toEqual([
      { 'spec-id': 0, fields: [] },
      { 'spec-id': 1, fields: [{ 'source-id': 1, name: 'id_bucket', transform: 'bucket[4]', 'field-id': 1000 }] },
    ]);
    expect([m['default-spec-id'], m['last-partition-id'], m['default-sort-order-id']]).toEqual([1, 1000, 1]);
    expect((m['properties'] as JsonObject)['comment']).toBe('orders');
    expect((m['properties'] as JsonObject)['a']).toBeUndefined();
    expect((m['refs'] as JsonObject)['v1']).toEqual({ 'snapshot-id': first, type: 'tag' });
    expect(m['statistics']).toHaveLength(1);
    expect(m['last-updated-ms']).toBe(42);
    expect((m['metadata-log'] as JsonObject[]).at(-1)).toEqual({ 'timestamp-ms': base().metadata['last-updated-ms'], 'metadata-file': base().location });
  });

  test('remove-snapshots drops their refs, statistics and the history before them', () => {
    const snapshots = base().metadata['snapshots'] as JsonObject[];
    const [first, second] = snapshots.map((s) => s['snapshot-id']);
    const m = apply([
      { action: 'set-snapshot-ref', 'ref-name': 'old', type: 'tag', 'snapshot-id': first },
      { action: 'remove-snapshots', 'snapshot-ids': [first] },
    ]);
    expect((m['snapshots'] as JsonObject[]).map((s) => s['snapshot-id'])).toEqual([second]);
    expect((m['refs'] as JsonObject)['old']).toBeUndefined();
    expect((m['snapshot-log'] as JsonObject[]).map((e) => e['snapshot-id'])).toEqual([second]);
  });

  test('metadata-log is trimmed to write.metadata.previous-versions-max; an empty commit changes nothing', () => {
    const m = apply([{ action: 'set-properties', updates: { 'write.metadata.previous-versions-max': '2' } }]);
    expect((m['metadata-log'] as JsonObject[]).map((e) => e['metadata-file'])).toEqual([
      (base().metadata['metadata-log'] as JsonObject[]).at(-1)!['metadata-file'],
      base().location,
    ]);
    expect(applyCommit(base(), { requirements: [], updates: [] }, ctx(1)).changed).toBe(false);
  });

  test('a commit to a table that does not exist must assert-create; a new table gets a default spec, order and uuid', () => {
    expect(refusal(() => applyCommit(null, { requirements: [], updates: [] }, ctx(1)))).toMatchObject({ status: 400 });
    const m = applyCommit(
      null,
      {
        requirements: [{ type: 'assert-create' }],
        updates: [
          { action: 'add-schema', schema: { type: 'struct', 'schema-id': 7, fields: [{ id: 1, name: 'a', type: 'long', required: true }] } },
          { action: 'set-current-schema', 'schema-id': -1 },
        ],
      },
      ctx(5, { pinnedLocation: '/w/t-1' }),
    ).metadata;
    expect(m).toMatchObject({
      'format-version': 2,
      'table-uuid': 'fresh-uuid',
      location: '/w/t-1',
      'current-schema-id': 0,
      'last-column-id': 1,
      'default-spec-id': 0,
      'partition-specs': [{ 'spec-id': 0, fields: [] }],
      'default-sort-order-id': 0,
      'metadata-log': [],
    });
  });
});
