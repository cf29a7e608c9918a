/**
 * The exact stddev and variance macros (catalog/numericMacros.ts) against an
 * independent computation on JavaScript BigInts: the variance
 * (N·Σx² − (Σx)²) / (N·(N−1)) rounded half up at 16 decimals, as
 * PostgreSQL's numeric_stddev_internal rounds it, and the square root by
 * BigInt Newton iteration. (That the digits are PostgreSQL's is proven
 * against a real PostgreSQL by the fidelity corpus.)
 */
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { numericMacroStatements } from './numericMacros.js';

let db: DuckDBInstance;
let conn: DuckDBConnection;

beforeAll(async () => {
  db = await DuckDBInstance.create(':memory:');
  conn = await db.connect();
  // as server/engine.ts: the macros are created under integer_division
  await conn.run('SET integer_division = true');
  await conn.run('CREATE SCHEMA s');
  for (const sql of numericMacroStatements((sig) => `CREATE OR REPLACE MACRO s.${sig}`, 's')) await conn.run(sql);
});

afterAll(() => {
  conn.closeSync();
});

const TEN16 = 10n ** 16n;

function isqrt(m: bigint): bigint {
  if (m < 2n) return m;
  let x = m;
  let y = (x + 1n) / 2n;
  while (y < x) {
    x = y;
    y = (x + m / x) / 2n;
  }
  return x;
}

/** n / d rounded half up, both positive */
const roundDiv = (n: bigint, d: bigint): bigint => (2n * n + d) / (2n * d);

/** a decimal text at `scale` as an integer count of 10^-scale */
function units(text: string, scale: number): bigint {
  const [whole, frac = ''] = text.replace('-', '').split('.');
  const v = BigInt(whole! + frac.padEnd(scale, '0'));
  return text.startsWith('-') ? -v : v;
}

/** variance and stddev ·10^16, or null; `exactTo`: the decimals the macro's root is exact to */
function expected(values: string[], scale: number, sample: boolean): { v16: bigint; sd16: bigint; exactTo: number } | null {
  const xs = values.map((t) => units(t, scale));
  const n = BigInt(xs.length);
  if (n === 0n || (sample && n === 1n)) return null;
  const s1 = xs.reduce((a, b) => a + b, 0n);
  const s2 = xs.reduce((a, b) => a + b * b, 0n);
  const num = n * s2 - s1 * s1;
  const den = (sample ? n * (n - 1n) : n * n) * 10n ** BigInt(2 * scale);
  if (num <= 0n) return { v16: 0n, sd16: 0n, exactTo: 16 };
  const v16 = roundDiv(num * TEN16, den);
  // the root of the exact variance, to 16 decimals (rounded half up, from 20 digits)
  const sd20 = isqrt((num * 10n ** 40n) / den);
  const sd16 = (sd20 + 5000n) / 10000n;
  const exactTo = v16 < 4n * 10n ** 21n ? 16 : v16 < 4n * 10n ** 29n ? 12 : 8;
  return { v16, sd16, exactTo };
}

const fmt = (x16: bigint): string => {
  const t = x16.toString().padStart(17, '0');
  return `${t.slice(0, -16)}.${t.slice(-16)}`;
};

async function actual(values: string[], type: string): Promise<string[]> {
  const rows = values.length ? values.map((v) => `(CAST('${v}' AS ${type}))`).join(', ') : `(CAST(NULL AS ${type}))`;
  const r = await conn.runAndReadAll(
    `SELECT CAST(s.lg_var_samp(x) AS VARCHAR), CAST(s.lg_stddev_samp(x) AS VARCHAR), CAST(s.lg_var_pop(x) AS VARCHAR), CAST(s.lg_stddev_pop(x) AS VARCHAR), typeof(s.lg_var_samp(x))
     FROM (VALUES ${rows}) t(x)`,
  );
  return r.getRows()[0]!.map((v) => (v === null ? 'null' : String(v)));
}

/** the root as printed, against the exact one: equal to `exactTo` decimals (half up), padded with zeros */
function rootMatches(printed: string, e: { sd16: bigint; exactTo: number }, v16printed: string): boolean {
  const got = units(printed, 16);
  if (e.exactTo === 16) {
    // from 1 up the root is of the variance rounded at 16 decimals (as PostgreSQL takes it): at most a unit apart from the exact one
    return got === e.sd16 || (units(v16printed, 16) >= TEN16 && (got - e.sd16 === 1n || e.sd16 - got === 1n));
  }
  const unit = 10n ** BigInt(16 - e.exactTo);
  const diff = got - e.sd16;
  return got % unit === 0n && diff <= unit && -diff <= unit;
}

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('stddev and variance are exact', () => {
  const cases: [string, string, number, (r: () => number) => string][] = [
    ['INTEGER 1..50', 'INTEGER', 0, (r) => String(1 + Math.floor(r() * 50))],
    ['BIGINT ids around 10^12', 'BIGINT', 0, (r) => String(1_000_000_000_000 + Math.floor(r() * 1000))],
    ['BIGINT ids spread to 10^11 (variance near 10^21)', 'BIGINT', 0, (r) => String(1e12 + Math.floor(r() * 1e11))],
    ['SMALLINT with negatives', 'SMALLINT', 0, (r) => String(Math.floor(r() * 60000) - 30000)],
    ['DECIMAL(15,2) prices', 'DECIMAL(15,2)', 2, (r) => (Math.floor(r() * 10_000_000) / 100).toFixed(2)],
    ['DECIMAL(15,2) discounts below 0.1', 'DECIMAL(15,2)', 2, (r) => (Math.floor(r() * 11) / 100).toFixed(2)],
    ['DECIMAL(12,4) amounts with negatives', 'DECIMAL(12,4)', 4, (r) => ((Math.floor(r() * 2e8) - 1e8) / 10000).toFixed(4)],
  ];
  test.each(cases)('%s', async (_name, type, scale, gen) => {
    const r = rng(type.length * 7919 + scale);
    for (const size of [0, 1, 2, 3, 7, 50, 400]) {
      const values = Array.from({ length: size }, () => gen(r));
      const got = await actual(values, type);
      expect(got[4]).toBe('DECIMAL(38,16)');
      for (const [sample, vAt, sdAt] of [[true, 0, 1], [false, 2, 3]] as const) {
        const e = expected(values, scale, sample);
        if (!e) {
          expect([got[vAt], got[sdAt]]).toEqual(['null', 'null']);
          continue;
        }
        expect({ size, sample, variance: got[vAt] }).toEqual({ size, sample, variance: fmt(e.v16) });
        expect({ size, sample, stddev: got[sdAt], exact: fmt(e.sd16), ok: rootMatches(got[sdAt]!, e, got[vAt]!) }).toMatchObject({ ok: true });
      }
    }
  });

  test('equal values: 0; NULLs are skipped', async () => {
    const zero = '0.0000000000000000';
    expect(await actual(['3', '3', '3'], 'INTEGER')).toEqual([zero, zero, zero, zero, 'DECIMAL(38,16)']);
    const r = await conn.runAndReadAll(`SELECT CAST(s.lg_var_samp(x) AS VARCHAR) FROM (VALUES (1), (NULL), (3)) t(x)`);
    expect(r.getRows()[0]![0]).toBe('2.0000000000000000');
  });

  test('a numeric with more than 4 decimals and sums beyond 128 bits are refused, not rounded', async () => {
    await expect(actual(['1.123456', '2.5'], 'DECIMAL(10,6)')).rejects.toThrow(/numeric field overflow/);
    await expect(actual(['9000000000000000000', '-9000000000000000000'], 'BIGINT')).rejects.toThrow(/Overflow/);
    // a variance from 10^22 up does not fit the result's numeric(38,16)
    await expect(actual(['0', '1000000000000000'], 'BIGINT')).rejects.toThrow(/Overflow/);
    // the control: the same column type with values of at most 4 decimals
    expect((await actual(['1.1234', '2.5'], 'DECIMAL(10,6)'))[0]).toBe('0.9475137800000000');
  });

  test('a double stays DuckDB\'s own (double precision)', async () => {
    const r = await conn.runAndReadAll(`SELECT typeof(s.lg_stddev_samp(x)), s.lg_var_pop(x) FROM (VALUES (1.0::DOUBLE), (2.0::DOUBLE)) t(x)`);
    expect(r.getRows()[0]).toEqual(['DOUBLE', 0.25]);
  });
});
