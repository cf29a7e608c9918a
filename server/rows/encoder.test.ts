/**
 * Encoder mechanics that do not need PostgreSQL: per-column result formats,
 * partial chunks (portal suspension), buffer growth, refusals. The values
 * themselves are proven against PostgreSQL in encoder.pg.test.ts; here the
 * encoder is compared with itself under different framing.
 */
import { ANY, DuckDBInstance, type DuckDBConnection, type DuckDBDataChunk, type DuckDBType } from '@duckdb/node-api';
import { PgError } from '../../protocol/errors.js';
import { MessageWriter } from '../../protocol/writer.js';
import { parseDataRow } from '../../tests/support/pgRaw.js';
import { createRowEncoder } from './encoder.js';

function rows(bytes: Buffer): (string | null)[][] {
  const out: (string | null)[][] = [];
  for (let p = 0; p < bytes.length; ) {
    expect(bytes[p]).toBe(68);
    const len = bytes.readInt32BE(p + 1);
    out.push(parseDataRow(bytes.subarray(p + 5, p + 1 + len)).map((v) => (v === null ? null : v.toString('hex'))));
    p += 1 + len;
  }
  return out;
}

describe('createRowEncoder', () => {
  let conn: DuckDBConnection;
  let chunk: DuckDBDataChunk;
  let types: DuckDBType[];

  beforeAll(async () => {
    conn = await (await DuckDBInstance.create(':memory:')).connect();
    const r = await conn.run(
      `SELECT i::INTEGER AS a, CASE WHEN i % 3 = 0 THEN NULL ELSE repeat('x', (i % 20)::INTEGER) END AS b, (i / 7)::DECIMAL(10,2) AS c, [i, NULL] AS d FROM range(2048) t(i)`,
    );
    types = r.columnTypes();
    chunk = (await r.fetchChunk())!;
  });

  const encode = (formats: (0 | 1)[], from = 0, to = chunk.rowCount, initial = 64 * 1024): Buffer => {
    const out = new MessageWriter(initial);
    createRowEncoder(types, formats, { timeZone: 'UTC' }).encodeChunk(chunk, out, from, to);
    return out.take();
  };

  it('applies one format per column, one format to all, or text by default', () => {
    const text = rows(encode([0]));
    const binary = rows(encode([1]));
    expect(rows(encode([]))).toEqual(text);
    expect(binary).not.toEqual(text);
    const mixed = rows(encode([1, 0, 1, 0]));
    expect(mixed).toEqual(text.map((r, i) => [binary[i]![0], r[1], binary[i]![2], r[3]]));
  });

  it('encodes any row range of a chunk as the same rows', () => {
    const all = rows(encode([0]));
    expect(rows(encode([0], 100, 1337))).toEqual(all.slice(100, 1337));
    expect(rows(encode([0], 2047, 2048))).toEqual(all.slice(2047));
    expect(encode([0], 5, 5).length).toBe(0);
  });

  it('grows the buffer mid-row without corrupting earlier bytes', () => {
    expect(encode([0], 0, 2048, 8)).toEqual(encode([0]));
    expect(encode([1], 0, 2048, 8)).toEqual(encode([1]));
  });

  it('sends a type without a raw reader (VARIANT) as its text, in both formats', async () => {
    const r = await conn.run('SELECT 42::VARIANT AS v');
    const c = (await r.fetchChunk())!;
    for (const f of [0, 1] as const) {
      const out = new MessageWriter(64);
      createRowEncoder(r.columnTypes(), [f], { timeZone: 'UTC' }).encodeChunk(c, out, 0, 1);
      expect(rows(out.take())).toEqual([[Buffer.from('42').toString('hex')]]);
    }
  });

  it('refuses a result-format list that does not match the columns', () => {
    expect(() => createRowEncoder(types, [0, 1], { timeZone: 'UTC' })).toThrow(PgError);
  });

  it('refuses binary for a type it cannot send, before any row', () => {
    expect(() => createRowEncoder([ANY], [1], { timeZone: 'UTC' })).toThrow(/binary output is not supported/);
  });
});
