/**
 * The contract between the engine (DuckDB results) and the wire (PostgreSQL
 * RowDescription / DataRow / Bind parameters). Implemented in server/rows/.
 */
import type { DuckDBDataChunk, DuckDBType, DuckDBValue } from '@duckdb/node-api';
import type { MessageWriter } from '../../protocol/writer.js';

/** One RowDescription field, as PostgreSQL describes it. */
export interface PgField {
  name: string;
  /** pg_type OID (reference/pg-clients.md §6). */
  typeOid: number;
  /** pg_type.typlen: 4 for int4, -1 for varlena, 64 for name ... */
  typeLen: number;
  /** atttypmod: -1, or ((p << 16) | s) + 4 for numeric(p,s), len + 4 for varchar(n). */
  typeMod: number;
  /** 0 = text, 1 = binary. */
  format: 0 | 1;
  tableOid: number;
  columnAttr: number;
}

/** What a session contributes to value formatting. */
export interface FormatContext {
  /** IANA zone name or a fixed offset PostgreSQL accepts ('UTC', 'Europe/Berlin', 'Etc/GMT-2' ...). */
  timeZone: string;
}

export interface RowEncoder {
  /**
   * Append one complete DataRow message per row of rows [from, to) of the
   * chunk; stop early once the writer holds `pauseAtBytes` (so that large
   * rows are flushed before more are encoded). Returns the next row to encode.
   */
  encodeChunk(chunk: DuckDBDataChunk, out: MessageWriter, from: number, to: number, pauseAtBytes?: number): number;
}

/**
 * One decoded Bind parameter (server/rows/params.ts decodeParam(index, oid,
 * format, raw, target, ctx?), index 0-based): bind it with
 * `prepared.bindValue(index + 1, value, type)`; a null value binds a typed NULL.
 */
export interface DecodedParam {
  value: DuckDBValue;
  type: DuckDBType;
}
