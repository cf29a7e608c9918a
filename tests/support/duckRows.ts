/**
 * Run one query on an in-memory DuckDB and put its first chunk through the
 * row encoder: the DuckDB half of the differential tests against PostgreSQL.
 */
import { DuckDBInstance, type DuckDBConnection, type DuckDBType } from '@duckdb/node-api';
import { MessageWriter } from '../../protocol/writer.js';
import { createRowEncoder } from '../../server/rows/encoder.js';
import { parseDataRow } from './pgRaw.js';

export interface EncodedResult {
  types: DuckDBType[];
  /** One entry per row: the DataRow's field values as sent. */
  rows: (Buffer | null)[][];
}

export async function openDuck(): Promise<DuckDBConnection> {
  const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
  return instance.connect();
}

export async function encodeQuery(conn: DuckDBConnection, sql: string, format: 0 | 1, timeZone = 'UTC'): Promise<EncodedResult> {
  const result = await conn.run(sql);
  const types = result.columnTypes();
  const encoder = createRowEncoder(types, [format], { timeZone });
  const out = new MessageWriter(256);
  const rows: (Buffer | null)[][] = [];
  for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
    encoder.encodeChunk(chunk, out, 0, chunk.rowCount);
  }
  const bytes = out.take();
  for (let p = 0; p < bytes.length; ) {
    if (bytes[p] !== 68) throw new Error(`expected a DataRow at ${p}, got ${bytes[p]}`);
    const len = bytes.readInt32BE(p + 1);
    rows.push(parseDataRow(bytes.subarray(p + 5, p + 1 + len)));
    p += 1 + len;
  }
  return { types, rows };
}
