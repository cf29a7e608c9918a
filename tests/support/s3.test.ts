/**
 * SeaweedFS as the tests' S3 store is real enough for the lakehouse: Iceberg's REST server
 * keeps its warehouse there (S3FileIO), pyiceberg writes data files (pyarrow's S3
 * filesystem), DuckDB's httpfs reads them back with iceberg_scan; the store checks
 * signatures, and a restart on the same directory keeps the objects.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startIcebergRest, type IcebergRest } from './icebergRest.js';
import { duckScan, referenceScan, writeTestTables, type CatalogRef, type TablesManifest } from './icebergTables.js';
import { startS3, type S3Server } from './s3.js';

let dir: string;
let s3: S3Server;
let rest: IcebergRest;
let manifest: TablesManifest;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lakegate-s3-test-'));
  s3 = await startS3({ dir: join(dir, 's3'), buckets: ['warehouse'] });
  rest = await startIcebergRest({ warehouse: 's3://warehouse/lake', s3, catalogFile: join(dir, 'catalog.db') });
  manifest = await writeTestTables({ kind: 'rest', uri: rest.url, s3 }, { only: ['lake.deletes', 'lake.orders_part'] });
}, 400_000);

afterAll(async () => {
  await rest?.stop();
  await s3?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('SeaweedFS S3 store', () => {
  test('tables live on s3://; DuckDB httpfs reads what pyiceberg wrote, deletes applied as Iceberg Java applies them', async () => {
    const ref: CatalogRef = { kind: 'rest', uri: rest.url, s3 };
    const orders = manifest.tables['lake.orders_part']!;
    expect(orders.metadataLocation).toMatch(/^s3:\/\/warehouse\/lake\/lake\/orders_part\/metadata\/.*\.metadata\.json$/);
    const py = await referenceScan(ref, 'lake.orders_part');
    const duck = await duckScan(orders.metadataLocation, { s3 });
    expect(duck.rows).toEqual(py.rows);
    expect(duck.rows).toHaveLength(12);

    const deletes = manifest.tables['lake.deletes']!;
    const java = await referenceScan(ref, 'lake.deletes', { reader: 'java' });
    expect((await duckScan(deletes.metadataLocation, { s3 })).rows).toEqual(java.rows);
    expect(java.rows.map((r) => r[0])).toEqual([1, 10, 4, 6, 7, 9]);
  });

  test('the store checks signatures: other keys are refused (control: the right keys read)', async () => {
    const m = manifest.tables['lake.orders_part']!.metadataLocation;
    await expect(duckScan(m, { s3: { ...s3, secretAccessKey: `${s3.secretAccessKey}x` } })).rejects.toThrow(/403|Forbidden|Access ?Denied|SignatureDoesNotMatch/i);
    await expect(duckScan(m, { s3: { ...s3, accessKeyId: 'AKIAUNKNOWN0000000' } })).rejects.toThrow(/403|Forbidden|Access ?Denied|InvalidAccessKeyId/i);
    expect((await duckScan(m, { s3 })).rows).toHaveLength(12);
  });

  test('a restart on the same directory keeps the objects', async () => {
    await rest.stop();
    await s3.stop();
    s3 = await startS3({ dir: join(dir, 's3'), accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey });
    rest = await startIcebergRest({ warehouse: 's3://warehouse/lake', s3, catalogFile: join(dir, 'catalog.db') });
    const scan = await referenceScan({ kind: 'rest', uri: rest.url, s3 }, 'lake.orders_part');
    expect(scan.rows).toHaveLength(12);
  }, 180_000);
});
