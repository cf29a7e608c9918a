/**
 * The metadata tables' names, their bounds as text (Iceberg's single-value
 * serialization, encoded here with Node's Buffer), and what a hiding leaves of
 * the rows: nested fields follow their column, a field no longer in the table
 * is hidden, a row filter hides counts and statistics.
 */
import { SqlError } from '../../sql/errors.js';
import { loadParser } from '../../sql/parse.js';
import type { LoadedTable } from './api.js';
import { TableMetadataSchema } from './metadata.js';
import { toDuckDbSql } from '../../sql/deparse.js';
import { boundText, MAX_METADATA_ROWS, metadataCatalogTable, metadataRows, readMetadataSource, splitMetadataName, type MetadataSource } from './metadataTables.js';

const raw = {
  'format-version': 2,
  location: '/wh/t',
  'current-schema-id': 0,
  schemas: [
    {
      'schema-id': 0,
      fields: [
        { id: 1, name: 'id', type: 'long', required: true },
        { id: 2, name: 'region', type: 'string', required: false },
        { id: 3, name: 'address', type: { type: 'struct', fields: [{ id: 5, name: 'city', type: 'string', required: false }] }, required: false },
      ],
    },
  ],
  'current-snapshot-id': 20,
  snapshots: [
    { 'snapshot-id': 10, 'timestamp-ms': 1000, 'manifest-list': '/wh/t/m10.avro', summary: { operation: 'append', 'added-records': '2', 'changed-partition-count': '1', 'partitions.region=EU': 'added-records=1' } },
    { 'snapshot-id': 20, 'parent-snapshot-id': 10, 'timestamp-ms': 2000, 'manifest-list': '/wh/t/m20.avro', summary: { operation: 'overwrite', 'total-records': '3' } },
  ],
  'snapshot-log': [
    { 'snapshot-id': 10, 'timestamp-ms': 1000 },
    { 'snapshot-id': 20, 'timestamp-ms': 2000 },
  ],
  refs: { main: { 'snapshot-id': 20, type: 'branch' }, v1: { 'snapshot-id': 10, type: 'tag', 'max-ref-age-ms': 86400000 } },
  'partition-specs': [
    { 'spec-id': 0, fields: [{ 'source-id': 2, 'field-id': 1000, name: 'region', transform: 'identity' }] },
    { 'spec-id': 1, fields: [] },
  ],
};
const loaded: LoadedTable = { metadataLocation: '/wh/t/m.json', metadata: TableMetadataSchema.parse(raw), credentials: [], raw };

const le64 = (n: bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigInt64LE(n);
  return b;
};
const file = {
  content: 0,
  file_path: '/wh/t/data/a.parquet',
  file_format: 'PARQUET',
  spec_id: 0,
  partition: { region: 'EU' },
  record_count: 2n,
  file_size_in_bytes: 900n,
  value_counts: [
    { key: 1, value: 2n },
    { key: 2, value: 2n },
    { key: 5, value: 2n },
    { key: 9, value: 2n },
  ],
  lower_bounds: [
    { key: 1, value: le64(7n) },
    { key: 2, value: Buffer.from('EU') },
    { key: 5, value: Buffer.from('Oslo') },
    { key: 9, value: Buffer.from('gone') },
  ],
  split_offsets: [4n],
};
let parsed: MetadataSource;
beforeAll(async () => {
  await loadParser();
  // the metadata JSON as lakegate reads it (no manifest is read for $snapshots)
  const r = await readMetadataSource('snapshots', loaded, 's.t$snapshots');
  if (r instanceof SqlError) throw r;
  parsed = r;
});
const source = (): MetadataSource => ({ ...parsed, files: [file] });

const all = { visibleColumns: new Set(['id', 'region', 'address']), rowFiltered: false };

describe('splitMetadataName', () => {
  it('splits the six known suffixes only', () => {
    expect(splitMetadataName('orders$files')).toEqual({ base: 'orders', kind: 'files' });
    expect(splitMetadataName('a$b$snapshots')).toEqual({ base: 'a$b', kind: 'snapshots' });
    for (const n of ['orders$bogus', '$files', 'orders', 'orders$Files', 'orders$files@1', 'orders$__proto__']) expect(splitMetadataName(n)).toBeNull();
  });
});

describe('boundText', () => {
  it('reads Iceberg single values by type', () => {
    const i32 = Buffer.alloc(4);
    i32.writeInt32LE(-42);
    expect(boundText('int', i32)).toBe('-42');
    expect(boundText('long', le64(-9007199254740993n))).toBe('-9007199254740993');
    expect(boundText('string', Buffer.from('Zürich'))).toBe('Zürich');
    const days = Buffer.alloc(4);
    days.writeInt32LE(Date.UTC(2024, 1, 29) / 86_400_000);
    expect(boundText('date', days)).toBe('2024-02-29');
    expect(boundText('decimal(9,2)', Buffer.from([0xff, 0x85]))).toBe('-1.23'); // -123 big-endian two's complement
    expect(boundText('timestamp', le64(BigInt(Date.UTC(2024, 0, 2, 3, 4, 5)) * 1000n + 6n))).toBe('2024-01-02 03:04:05.000006');
    expect(boundText('boolean', Buffer.from([1]))).toBe('true');
    expect(boundText('long', Buffer.from([1, 2]))).toBe('0102'); // too short: bytes
    expect(boundText(undefined, Buffer.from([0xab]))).toBe('ab');
  });
});

describe('metadataRows', () => {
  const files = (h: typeof all) => metadataRows('files', loaded, source(), h)[0]!;

  it('shows everything to a reader who sees every column as stored', () => {
    const r = files(all);
    expect(r[4]).toEqual({ json: { region: 'EU' } });
    // field 9 is no longer in the table: hidden for everyone
    expect(r[11]).toEqual({ json: { '1': '7', '2': 'EU', '5': 'Oslo', '9': null } });
  });

  it('hides a column’s entries, its nested fields’ too, and partition values from its source', () => {
    const r = files({ visibleColumns: new Set(['id']), rowFiltered: false });
    expect(r[4]).toEqual({ json: { region: null } });
    expect(r[8]).toEqual({ json: { '1': 2n, '2': null, '5': null, '9': null } });
    expect(r[11]).toEqual({ json: { '1': '7', '2': null, '5': null, '9': null } });
    expect(r[5]).toBe(2n);
    // writers put partition values in the path (data/region=EU/…)
    expect(r[1]).toBeNull();
    expect(files({ visibleColumns: new Set(['id', 'region']), rowFiltered: false })[1]).toBe('/wh/t/data/a.parquet');
  });

  it('hides every count, size and statistic under a row filter', () => {
    const r = files({ ...all, rowFiltered: true });
    expect([r[1], r[4], r[5], r[6], r[7], r[8], r[9], r[10], r[11], r[12], r[14]]).toEqual(Array(11).fill(null));
    expect(r[2]).toBe('PARQUET');
    // an unpartitioned file's path holds no value: it stays
    const unpartitioned = metadataRows('files', loaded, { ...parsed, files: [{ ...file, spec_id: 1, partition: {} }] }, { ...all, rowFiltered: true })[0]!;
    expect(unpartitioned[1]).toBe('/wh/t/data/a.parquet');
    expect(unpartitioned[5]).toBeNull();
  });

  it('$snapshots: summary without operation; per-partition entries only when nothing is hidden; none under a row filter', () => {
    const snaps = (h: typeof all) => metadataRows('snapshots', loaded, source(), h);
    expect(snaps(all).map((r) => r.slice(1, 4))).toEqual([
      [10n, null, 'append'],
      [20n, 10n, 'overwrite'],
    ]);
    expect(snaps(all)[0]![5]).toEqual({ json: { 'added-records': '2', 'changed-partition-count': '1', 'partitions.region=EU': 'added-records=1' } });
    expect(snaps({ visibleColumns: new Set(['id', 'address']), rowFiltered: false })[0]![5]).toEqual({ json: { 'added-records': '2' } });
    expect(snaps({ ...all, rowFiltered: true }).map((r) => r[5])).toEqual([null, null]);
  });

  it('$history, $refs and $partitions', () => {
    expect(metadataRows('history', loaded, source(), all).map((r) => r.slice(1))).toEqual([
      [10n, null, true],
      [20n, 10n, true],
    ]);
    expect(metadataRows('refs', loaded, source(), all)).toEqual([
      ['main', 'BRANCH', 20n, null, null, null],
      ['v1', 'TAG', 10n, 86400000n, null, null],
    ]);
    expect(metadataRows('partitions', loaded, source(), all)).toEqual([[{ json: { region: 'EU' } }, 2n, 1n, 900n]]);
    expect(metadataRows('partitions', loaded, source(), { ...all, rowFiltered: true })).toEqual([[{ json: null }, null, 1n, null]]);
  });

  it('bounded: 2,000 rows plan into DuckDB SQL, one more is 54000', () => {
    const base = { schema: 's', name: 't', columns: [], resource: { database: 's', table: 't' }, scan: () => ({}) };
    const table = (n: number) => metadataCatalogTable(['s'], 'files', base, loaded, { ...parsed, files: Array.from({ length: n }, () => file) });
    expect(toDuckDbSql(table(MAX_METADATA_ROWS).metadataOf!.rows(all))).toContain('/wh/t/data/a.parquet');
    expect(() => table(MAX_METADATA_ROWS + 1).metadataOf!.rows(all)).toThrow(expect.objectContaining({ code: '54000' }));
  });

  it('a metadata table whose metadata could not be read throws when its rows are built, not before', () => {
    const t = metadataCatalogTable(['s'], 'files', { schema: 's', name: 't', columns: [], resource: { database: 's', table: 't' }, scan: () => ({}) }, loaded, new SqlError('58030', 'could not read'));
    expect(t.name).toBe('t$files');
    expect(t.resource).toEqual({ database: 's', table: 't' });
    expect(() => t.metadataOf!.rows(all)).toThrow('could not read');
  });
});
