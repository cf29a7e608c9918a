/**
 * Run one query on an in-memory DuckDB and put its first chunk through the
 * row encoder: the DuckDB half of the differential tests against PostgreSQL.
 */
import { DuckDBInstance, type DuckDBConnection, type DuckDBResult, type DuckDBType, type DuckDBValue } from '@duckdb/node-api';
import { MessageWriter } from '../../protocol/writer.js';
import { createRowEncoder } from '../../server/rows/encoder.js';
import { parseDataRow } from './pgRaw.js';
import type { PresentedAs } from '../../sql/pgTypes.js';

export interface EncodedResult {
  types: DuckDBType[];
  /** One entry per row: the DataRow's field values as sent. */
  rows: (Buffer | null)[][];
}

export async function openDuck(): Promise<DuckDBConnection> {
  const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
  return instance.connect();
}

/** `presented`: the PostgreSQL type the planner would say the one column holds (sql/resultTypes.ts). */
export async function encodeQuery(conn: DuckDBConnection, sql: string, format: 0 | 1, timeZone = 'UTC', presented?: PresentedAs): Promise<EncodedResult> {
  return encodeResult(await conn.run(sql), format, timeZone, [presented]);
}

/** Prepare `sql`, bind each parameter as given (1-based in order), run, encode. */
export async function encodePrepared(
  conn: DuckDBConnection,
  sql: string,
  binds: { value: DuckDBValue; type: DuckDBType }[],
  format: 0 | 1,
  timeZone = 'UTC',
): Promise<EncodedResult> {
  const prepared = await conn.prepare(sql);
  binds.forEach((b, i) => prepared.bindValue(i + 1, b.value, b.type));
  return encodeResult(await prepared.run(), format, timeZone);
}

async function encodeResult(result: DuckDBResult, format: 0 | 1, timeZone: string, presented: (PresentedAs | undefined)[] = []): Promise<EncodedResult> {
  const types = result.columnTypes();
  const encoder = createRowEncoder(types, [format], { timeZone }, undefined, presented);
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
