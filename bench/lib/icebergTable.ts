/**
 * The benchmark table as an Iceberg table in the demo's warehouse
 * (DIR/warehouse/bench/t_<rows>, registered in DIR/catalog.db), so
 * `lakegate demo --data-dir DIR` serves it: DuckDB writes the Parquet data
 * with field ids from the same formulas as dataset.ts, lakegate's writer adds
 * the manifests and metadata (as for the demo table).
 */
import { join } from 'node:path';
import { rmSync } from 'node:fs';
import type { DuckDBConnection } from '@duckdb/node-api';
import { SqlCatalogFile } from '../../catalog/iceberg/sqlCatalog.js';
import { writeTable } from '../../catalog/iceberg/writer.js';
import { seedDemo } from '../../server/demo.js';
import { duckdbCreateSql, SCHEMA } from './dataset.js';

export async function createIcebergBenchTable(conn: DuckDBConnection, dataDir: string, rows: number): Promise<string> {
  const { warehouse, sqliteFile } = await seedDemo(dataDir);
  const name = `t_${rows}`;
  const location = join(warehouse, SCHEMA, name);
  rmSync(location, { recursive: true, force: true });
  // dataset.ts's CREATE TABLE … AS SELECT, as the query that feeds the data file
  const select = duckdbCreateSql(rows).replace(/^CREATE TABLE \S+ AS\s*/, '');
  const metadata = await writeTable(conn, {
    location,
    fields: [
      { id: 1, name: 'id', type: 'int', required: false },
      { id: 2, name: 'big', type: 'long', required: false },
      { id: 3, name: 'name', type: 'string', required: false },
      { id: 4, name: 'amount', type: 'decimal(12,2)', required: false },
      { id: 5, name: 'd', type: 'date', required: false },
      { id: 6, name: 'ts', type: 'timestamp', required: false },
      { id: 7, name: 'flag', type: 'boolean', required: false },
    ],
    rows: select,
  });
  const catalog = new SqlCatalogFile(sqliteFile, 'demo', { create: true });
  try {
    catalog.createNamespace([SCHEMA]);
    catalog.register([SCHEMA], name, metadata);
  } finally {
    catalog.close();
  }
  return metadata;
}
