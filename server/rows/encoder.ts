/**
 * DataRow encoding of DuckDB result chunks: one codec per column, rows
 * written straight into the MessageWriter's buffer ('D', int32 length,
 * int16 column count, then per column an int32 length or -1 and the bytes).
 */
import type { DuckDBDataChunk, DuckDBType } from '@duckdb/node-api';
import { PgError, SqlState } from '../../protocol/errors.js';
import type { MessageWriter } from '../../protocol/writer.js';
import type { FormatContext, RowEncoder } from './api.js';
import type { Codec } from './codec.js';
import { codecFor } from './codecs.js';
import { PRESENTED_TYPES, type PresentedAs } from '../../sql/pgTypes.js';
import { binaryFormatSupported, presentedOid } from './describe.js';
import { columnVector } from './rawVector.js';

/** Big-endian int32 without Buffer's range checks (lengths are known non-negative). */
function putInt32(buf: Uint8Array, at: number, v: number): void {
  buf[at] = v >>> 24;
  buf[at + 1] = (v >>> 16) & 0xff;
  buf[at + 2] = (v >>> 8) & 0xff;
  buf[at + 3] = v & 0xff;
}

/**
 * `formats` follows Bind's result-format rule: empty = all text, one entry =
 * that format for every column, else one per column. `maxRowBytes`: the
 * largest DataRow (53200 beyond, before the memory is taken; PostgreSQL's own
 * bound is 1 GB less one byte).
 */
export function createRowEncoder(
  types: DuckDBType[],
  formats: (0 | 1)[],
  ctx: FormatContext,
  maxRowBytes = 0x3fffffff,
  presented: readonly (PresentedAs | undefined)[] = [],
): RowEncoder {
  if (formats.length > 1 && formats.length !== types.length) {
    // PostgreSQL reports this as an ERROR (08P01), not FATAL: the session survives.
    throw new PgError(SqlState.protocolViolation, `bind message has ${formats.length} result formats but query has ${types.length} columns`);
  }
  const binary = types.map((_t, c) => (formats.length === 0 ? 0 : formats.length === 1 ? formats[0]! : formats[c]!) === 1);
  types.forEach((t, c) => {
    if (binary[c] && !binaryFormatSupported(t, presented[c])) {
      const shown = presentedOid(t, presented[c]);
      const what = shown !== undefined ? PRESENTED_TYPES[shown]!.name : t.toString();
      throw new PgError(SqlState.featureNotSupported, `binary output is not supported for type ${what}`);
    }
  });
  const codecs: Codec[] = types.map((t, c) => codecFor(t, ctx, presented[c]));
  const n = codecs.length;

  return {
    encodeChunk(chunk: DuckDBDataChunk, out: MessageWriter, from: number, to: number, pauseAtBytes = Infinity): number {
      const count = chunk.rowCount;
      for (let c = 0; c < n; c++) codecs[c]!.load(columnVector(chunk, c), count);
      try {
        return encodeRows(out, from, to, pauseAtBytes);
      } catch (e) {
        // A row that would pass the bound is dropped whole; the rows before it stay.
        out.abandonBound();
        throw e;
      }
    },
  };

  /** Rows [from, to) as DataRows, each bounded to maxRowBytes; stops early once the writer holds pauseAtBytes. */
  function encodeRows(out: MessageWriter, from: number, to: number, pauseAtBytes: number): number {
    for (let row = from; row < to; row++) {
      out.startBound(maxRowBytes);
      out.ensure(7 + 4 * n);
      const start = out.pos;
      let buf = out.buf;
      buf[start] = 68; // 'D'
      buf[start + 5] = n >> 8;
      buf[start + 6] = n & 0xff;
      out.pos = start + 7;
      const byte = row >> 3;
      const bit = 1 << (row & 7);
      for (let c = 0; c < n; c++) {
        const codec = codecs[c]!;
        if (out.pos + 4 > out.buf.length) out.ensure(4);
        const lenAt = out.pos;
        // Validity read inline: a megamorphic valid() call per value is measurable here.
        const v = codec.validity;
        if (v !== null && (v[byte]! & bit) === 0) {
          buf = out.buf;
          buf[lenAt] = buf[lenAt + 1] = buf[lenAt + 2] = buf[lenAt + 3] = 0xff;
          out.pos = lenAt + 4;
          continue;
        }
        out.pos = lenAt + 4;
        if (binary[c]) codec.binary(out, row);
        else codec.text(out, row);
        putInt32(out.buf, lenAt, out.pos - lenAt - 4);
      }
      putInt32(out.buf, start + 1, out.pos - start - 1);
      out.endBound();
      if (out.pos >= pauseAtBytes) return row + 1;
    }
    return to;
  }
}
