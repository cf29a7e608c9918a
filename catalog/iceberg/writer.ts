/**
 * Creates a small Iceberg v2 table from a DuckDB query: DuckDB writes the
 * Parquet data file with Iceberg field ids, lakegate writes the manifest, the
 * manifest list and the table metadata, in the directory layout pyiceberg
 * uses (`<warehouse>/<namespace>/<table>/{data,metadata}`, pyiceberg 0.12). For the demo's
 * seed only: tables lakegate serves are written by real Iceberg writers.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { manifestFile, manifestList } from './avro.js';
import { stringifyIcebergJson } from './json.js';
import type { NestedField } from './metadata.js';

export interface NewTable {
  /** the table's directory */
  location: string;
  fields: NestedField[];
  /** A query producing the rows, one column per field, in field order. */
  rows: string;
  properties?: Record<string, string>;
}

const quoteLit = (s: string) => `'${s.replace(/'/g, "''")}'`;
const quoteId = (s: string) => `"${s.replace(/"/g, '""')}"`;

/** A positive random 63-bit snapshot id, as Iceberg's writers make them. */
function newSnapshotId(): bigint {
  return randomBytes(8).readBigUInt64BE() >> 1n;
}

/** Writes the table's files and returns the metadata location (a plain path). */
export async function writeTable(conn: DuckDBConnection, t: NewTable): Promise<string> {
  const dataDir = join(t.location, 'data');
  const metaDir = join(t.location, 'metadata');
  mkdirSync(dataDir, { recursive: true });
  mkdirSync(metaDir, { recursive: true });
  const snapshotId = newSnapshotId();
  const commit = randomUUID();

  const dataFile = join(dataDir, `00000-0-${commit}.parquet`);
  const names = t.fields.map((f) => quoteId(f.name));
  const ids = t.fields.map((f) => `${quoteId(f.name)}: ${f.id}`).join(', ');
  await conn.run(
    `COPY (SELECT * FROM (${t.rows}) AS r(${names.join(', ')})) TO ${quoteLit(dataFile)} (FORMAT parquet, FIELD_IDS {${ids}})`,
  );
  const count = await conn.runAndReadAll(`SELECT count(*) FROM (${t.rows})`);
  const recordCount = BigInt(String(count.getRows()[0]![0]));

  const schema = { type: 'struct', 'schema-id': 0, fields: t.fields };
  const spec = { 'spec-id': 0, fields: [] as unknown[] };
  const manifestPath = join(metaDir, `${commit}-m0.avro`);
  writeFileSync(
    manifestPath,
    await manifestFile([{ path: dataFile, recordCount, sizeInBytes: BigInt(statSync(dataFile).size) }], {
      schemaJson: JSON.stringify(schema),
      schemaId: 0,
      specJson: JSON.stringify(spec.fields),
      specId: 0,
      snapshotId,
    }),
  );
  const listPath = join(metaDir, `snap-${snapshotId}-0-${commit}.avro`);
  writeFileSync(
    listPath,
    await manifestList(
      [{ path: manifestPath, length: BigInt(statSync(manifestPath).size), specId: 0, sequenceNumber: 1n, snapshotId, addedFiles: 1, addedRows: recordCount }],
      { snapshotId, parentSnapshotId: null, sequenceNumber: 1n },
    ),
  );

  const now = Date.now();
  const metadata = {
    'format-version': 2,
    'table-uuid': randomUUID(),
    location: t.location,
    'last-sequence-number': 1,
    'last-updated-ms': now,
    'last-column-id': Math.max(...t.fields.map((f) => f.id)),
    'current-schema-id': 0,
    schemas: [schema],
    'default-spec-id': 0,
    'partition-specs': [spec],
    'last-partition-id': 999,
    'default-sort-order-id': 0,
    'sort-orders': [{ 'order-id': 0, fields: [] }],
    properties: t.properties ?? {},
    'current-snapshot-id': snapshotId,
    refs: { main: { 'snapshot-id': snapshotId, type: 'branch' } },
    snapshots: [
      {
        'snapshot-id': snapshotId,
        'sequence-number': 1,
        'timestamp-ms': now,
        'manifest-list': listPath,
        summary: { operation: 'append', 'added-data-files': '1', 'added-records': String(recordCount), 'total-records': String(recordCount) },
        'schema-id': 0,
      },
    ],
    'snapshot-log': [{ 'snapshot-id': snapshotId, 'timestamp-ms': now }],
    'metadata-log': [],
  };
  const metadataPath = join(metaDir, `00000-${randomUUID()}.metadata.json`);
  writeFileSync(metadataPath, stringifyIcebergJson(metadata));
  return metadataPath;
}
