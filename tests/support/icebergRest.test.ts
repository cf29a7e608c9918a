/**
 * The real Iceberg REST server and the test tables: pyiceberg writes them through the
 * server (and through a SqlCatalog on a local warehouse), Iceberg's Java library adds
 * merge-on-read deletes, and the reference scans agree with rows computed here from
 * what the writer was told to write.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startIcebergRest, type IcebergRest } from './icebergRest.js';
import { referenceScan, writeTestTables, type CatalogRef, type TablesManifest } from './icebergTables.js';

const ids = (rows: unknown[][]): number[] => rows.map((r) => r[0] as number).sort((a, b) => a - b);
const range = (a: number, b: number): number[] => Array.from({ length: b - a + 1 }, (_, i) => a + i);

let dir: string;
let rest: IcebergRest;
let restRef: CatalogRef;
let manifest: TablesManifest;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lakegate-rest-test-'));
  rest = await startIcebergRest({ warehouseDir: join(dir, 'wh'), catalogFile: join(dir, 'catalog.db') });
  restRef = { kind: 'rest', uri: rest.url };
  manifest = await writeTestTables(restRef);
}, 400_000);

afterAll(async () => {
  await rest?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function getJson(path: string): Promise<{ status: number; body: any }> {
  const res = await fetch(rest.url + path);
  return { status: res.status, body: await res.json() };
}

describe('Iceberg REST server (RESTCatalogServer, a real Java process)', () => {
  test('serves the tables pyiceberg wrote: namespaces one level at a time, load table → the metadata the writer saw', async () => {
    expect((await getJson('/v1/namespaces')).body.namespaces).toEqual([['lake']]);
    expect((await getJson('/v1/namespaces?parent=lake')).body.namespaces).toEqual([['lake', 'emea']]);
    const tables = (await getJson('/v1/namespaces/lake/tables')).body.identifiers.map((i: { name: string }) => i.name).sort();
    expect(tables).toEqual(['customers', 'deletes', 'evolved', 'history', 'orders_part']);
    const load = await getJson('/v1/namespaces/lake/tables/orders_part');
    expect(load.status).toBe(200);
    expect(load.body['metadata-location']).toBe(manifest.tables['lake.orders_part']!.metadataLocation);
    expect(load.body.metadata['partition-specs'][0].fields[0]).toMatchObject({ name: 'region', transform: 'identity', 'source-id': 2 });
    const localPath = fileURLToPath(new URL(manifest.tables['lake.orders_part']!.metadataLocation, 'file://'));
    expect(existsSync(localPath)).toBe(true);
    const view = await getJson('/v1/namespaces/lake/views/big_orders');
    expect(view.body.metadata.versions[0].representations[0].sql).toBe(manifest.views['lake.big_orders']!.sql);
    expect((await getJson('/v1/namespaces/nope')).status).toBe(404);
  });

  test('history: every snapshot scans to the rows written up to it', async () => {
    const snaps = manifest.tables['lake.history']!.snapshots;
    expect(snaps.map((s) => s.operation)).toEqual(['append', 'append', 'overwrite', 'append']);
    const times = snaps.map((s) => s.timestampMs);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(times.every((t) => Number.isSafeInteger(t) && Math.abs(t - Date.now()) < 3_600_000)).toBe(true);
    const expected = [range(1, 3), range(1, 5), range(2, 5), range(2, 6)];
    for (const [i, s] of snaps.entries()) {
      const scan = await referenceScan(restRef, 'lake.history', { snapshotId: s.snapshotId });
      expect(scan.snapshotId).toBe(s.snapshotId);
      expect(ids(scan.rows)).toEqual(expected[i]);
    }
  });

  test('deletes: positional deletes read alike by pyiceberg and Iceberg Java; the equality delete by Java', async () => {
    const [, , pos, eq] = manifest.tables['lake.deletes']!.snapshots;
    expect(pos!.deleteFiles).toHaveLength(2); // ids 2, 3 in the first data file, 8 in the second
    const py = await referenceScan(restRef, 'lake.deletes', { snapshotId: pos!.snapshotId });
    const java = await referenceScan(restRef, 'lake.deletes', { snapshotId: pos!.snapshotId, reader: 'java' });
    expect(ids(py.rows)).toEqual([1, 4, 5, 6, 7, 9, 10]);
    expect(java.rows).toEqual(py.rows);
    await expect(referenceScan(restRef, 'lake.deletes', { snapshotId: eq!.snapshotId })).rejects.toThrow(/equality deletes/);
    expect(ids((await referenceScan(restRef, 'lake.deletes', { reader: 'java' })).rows)).toEqual([1, 4, 6, 7, 9, 10]);
  });

  test('evolved: the rename and the added column read by field id; the old snapshot keeps its schema', async () => {
    const t = manifest.tables['lake.evolved']!;
    expect(t.fields.map((f) => [f.id, f.name])).toEqual([
      [1, 'id'],
      [2, 'label'],
      [3, 'score'],
      [4, 'discount'],
    ]);
    expect(JSON.parse(t.properties['sqe.column-tags']!)).toEqual({ name: ['PII'] });
    const now = await referenceScan(restRef, 'lake.evolved');
    expect(now.rows).toEqual([
      [1, 'name 1', 10, null],
      [2, 'name 2', 20, null],
      [3, 'name 3', 30, null],
      [4, 'label 4', 40, 1.0],
      [5, 'label 5', 50, 1.25],
    ]);
    const before = await referenceScan(restRef, 'lake.evolved', { snapshotId: t.snapshots[0]!.snapshotId });
    expect(before.columns.map((c) => c.name)).toEqual(['id', 'name', 'score']);
  });

  test('a restart on the same catalog file and warehouse finds the tables', async () => {
    await rest.stop();
    rest = await startIcebergRest({ warehouseDir: join(dir, 'wh'), catalogFile: join(dir, 'catalog.db') });
    restRef = { kind: 'rest', uri: rest.url };
    const load = await getJson('/v1/namespaces/lake%2Eemea%2Enordics/tables/orders');
    expect(load.body['metadata-location']).toBe(manifest.tables['lake.emea.nordics.orders']!.metadataLocation);
    expect((await referenceScan(restRef, 'lake.emea.nordics.orders')).rows).toEqual([
      [1, 'se'],
      [2, 'no'],
      [3, 'fi'],
    ]);
  }, 120_000);
});

describe('SqlCatalog warehouse (pyiceberg and Iceberg JdbcCatalog share it)', () => {
  test('the same tables on a local warehouse; Java reads the catalog pyiceberg wrote', async () => {
    const wh = join(dir, 'sql-wh');
    const ref: CatalogRef = { kind: 'sql', warehouseDir: wh };
    const m = await writeTestTables(ref);
    expect(Object.keys(m.tables).sort()).toEqual(Object.keys(manifest.tables).sort());
    expect(m.views).toEqual({});
    expect(m.tables['lake.customers']!.metadataLocation.startsWith(`file://${wh}/lake/customers/metadata/`)).toBe(true);
    expect(m.tables['lake.customers']!.metadataLocation.endsWith('.metadata.json')).toBe(true);
    const eq = m.tables['lake.deletes']!.snapshots[3]!;
    expect(ids((await referenceScan(ref, 'lake.deletes', { snapshotId: eq.snapshotId, reader: 'java' })).rows)).toEqual([1, 4, 6, 7, 9, 10]);
    const parts = await referenceScan(ref, 'lake.orders_part');
    expect(parts.rows).toHaveLength(12);
    expect(parts.rows.find((r) => r[0] === 7)).toEqual([7, 'amer', '9.07', '2024-03-04', 'c2']);
  });
});
