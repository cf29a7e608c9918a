/**
 * The exact stddev and variance macros (sql/dialect/numericMacros.ts) against an
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
    // any scale: units of the type's own last decimal
    ['DECIMAL(10,6) with negatives', 'DECIMAL(10,6)', 6, (r) => ((Math.floor(r() * 2e8) - 1e8) / 1e6).toFixed(6)],
    ['DECIMAL(20,8) rates', 'DECIMAL(20,8)', 8, (r) => (Math.floor(r() * 1e9) / 1e8).toFixed(8)],
    // (Σx² in units of 10^-24 and 10^-38 must fit 128 bits: values below 10^5 and 10^-2 on 400 rows)
    ['DECIMAL(38,12) values to 10^5', 'DECIMAL(38,12)', 12, (r) => `${Math.floor(r() * 1e5)}.${String(Math.floor(r() * 1e12)).padStart(12, '0')}`],
    ['DECIMAL(20,19) small values', 'DECIMAL(20,19)', 19, (r) => `0.00${String(Math.floor(r() * 1e13)).padStart(13, '0')}${String(Math.floor(r() * 1e4)).padStart(4, '0')}`],
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

  test('a variance from 10^22 up, N·Σx² beyond 128 bits or Σx² beyond 128 bits are refused (22003), not rounded', async () => {
    // the variance (1.6·10^38, or 5·10^29) does not fit the result's numeric(38,16)
    await expect(actual(['9000000000000000000', '-9000000000000000000'], 'BIGINT')).rejects.toThrow(/numeric field overflow: stddev and variance are exact/);
    await expect(actual(['0', '1000000000000000'], 'BIGINT')).rejects.toThrow(/numeric field overflow: stddev and variance are exact/);
    // x² of 10^20 units does not fit 128 bits
    await expect(actual(['1000000000000000000', '0'], 'DECIMAL(38,2)')).rejects.toThrow(/Overflow/);
  });

  test('N·Σx² may pass 128 bits: only Σx² and the variance must fit', async () => {
    // 10^16 + (i % 100) on 20000 rows: Σx² is 2·10^36, N·Σx² 4·10^40
    const values = Array.from({ length: 20000 }, (_, i) => String(10n ** 16n + BigInt(i % 100)));
    const r = await conn.runAndReadAll(
      `SELECT CAST(s.lg_var_samp(x) AS VARCHAR), CAST(s.lg_stddev_pop(x) AS VARCHAR) FROM (SELECT CAST(10000000000000000 AS BIGINT) + i % 100 AS x FROM range(20000) r(i)) t`,
    );
    const v = expected(values, 0, true)!;
    const sd = expected(values, 0, false)!;
    expect(r.getRows()[0]![0]).toBe(fmt(v.v16));
    expect(rootMatches(String(r.getRows()[0]![1]), sd, fmt(sd.v16))).toBe(true);
  });

  test('a double stays DuckDB\'s own (double precision)', async () => {
    const r = await conn.runAndReadAll(`SELECT typeof(s.lg_stddev_samp(x)), s.lg_var_pop(x) FROM (VALUES (1.0::DOUBLE), (2.0::DOUBLE)) t(x)`);
    expect(r.getRows()[0]).toEqual(['DOUBLE', 0.25]);
  });
});

/** lg_stats_as as the planner writes it (sql/dialect/numeric.ts statisticWithClauses): the statistic from count, sum and Σx² with the user's clauses */
function statsAs(fn: string, x: string, clauses: { over?: string; distinct?: boolean; filter?: string }, samp: boolean, sd: boolean): string {
  const d = clauses.distinct ? 'DISTINCT ' : '';
  const f = (extra?: string) => {
    const c = [clauses.filter, extra].filter(Boolean).join(' AND ');
    return c ? ` FILTER (WHERE ${c})` : '';
  };
  const o = clauses.over ? ` OVER (${clauses.over})` : '';
  const s2 = clauses.distinct
    ? `s.lg_vadd(sum(DISTINCT s.lg_vsq(${x}))${f(`${x} >= 0`)}${o}, sum(DISTINCT s.lg_vsq(${x}))${f(`${x} < 0`)}${o})`
    : `sum(s.lg_vsq(${x}))${f()}${o}`;
  return `s.lg_stats_as(${fn}(${d}${x})${f()}${o}, count(${d}${x})${f()}${o}, sum(${d}${x})${f()}${o}, ${s2}, ${samp}, ${sd}, ${x})`;
}

describe('with OVER and DISTINCT: count, sum and Σx² written with the clauses', () => {
  const cases: [string, number, (r: () => number) => string | null][] = [
    ['INTEGER', 0, (r) => (r() < 0.15 ? null : String(Math.floor(r() * 41) - 20))],
    ['BIGINT', 0, (r) => (r() < 0.15 ? null : String(1_000_000_000_000 + Math.floor(r() * 2001) - 1000))],
    ['DECIMAL(12,3)', 3, (r) => (r() < 0.15 ? null : ((Math.floor(r() * 41) - 20) / 8).toFixed(3))],
    ['DECIMAL(20,8)', 8, (r) => (r() < 0.15 ? null : `${r() < 0.5 ? '-' : ''}0.0000${String(Math.floor(r() * 30) * 125).padStart(4, '0')}`)],
  ];
  const rows = 60;
  const table = async (type: string, gen: (r: () => number) => string | null, seed: number) => {
    const r = rng(seed);
    // g: 1 to 7 (g = 7 has one row), x with NULLs, negatives and repeats (x and −x)
    const data = Array.from({ length: rows }, (_, i) => ({ id: i + 1, g: i === rows - 1 ? 7 : 1 + (i % 6), x: gen(r) }));
    await conn.run(`CREATE OR REPLACE TEMP TABLE w AS SELECT id, g, CAST(x AS ${type}) AS x FROM (VALUES ${data
      .map((d) => `(${d.id}, ${d.g}, ${d.x === null ? 'NULL' : `'${d.x}'`})`)
      .join(', ')}) v(id, g, x)`);
    return data;
  };
  const check = (got: unknown, values: string[], scale: number, samp: boolean, sd: boolean, what: object) => {
    const e = expected(values, scale, samp);
    if (!e) return expect({ ...what, got }).toEqual({ ...what, got: null });
    if (!sd) return expect({ ...what, got: String(got) }).toEqual({ ...what, got: fmt(e.v16) });
    expect({ ...what, got: String(got), ok: rootMatches(String(got), e, fmt(e.v16)) }).toMatchObject({ ok: true });
  };

  test.each(cases)('%s over a ROWS frame by partition, a running frame with peers, and FILTER', async (type, scale, gen) => {
    const data = await table(type, gen, type.length * 31 + scale);
    const r = await conn.runAndReadAll(
      `SELECT id, CAST(${statsAs('stddev_samp', 'x', { over: 'PARTITION BY g ORDER BY id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW' }, true, true)} AS VARCHAR),
         CAST(${statsAs('var_samp', 'x', { over: 'PARTITION BY g ORDER BY id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW' }, true, false)} AS VARCHAR),
         CAST(${statsAs('var_pop', 'x', { over: 'ORDER BY g' }, false, false)} AS VARCHAR),
         CAST(${statsAs('stddev_pop', 'x', { over: 'ORDER BY g', filter: 'id % 3 <> 0' }, false, true)} AS VARCHAR),
         typeof(${statsAs('var_pop', 'x', { over: 'ORDER BY g' }, false, false)})
       FROM w ORDER BY id`,
    );
    for (const row of r.getRows()) {
      const id = Number(row[0]);
      const me = data[id - 1]!;
      const inRows = data.filter((d) => d.g === me.g && d.id <= id).slice(-3);
      const peers = data.filter((d) => d.g <= me.g);
      const vals = (ds: typeof data) => ds.map((d) => d.x).filter((x): x is string => x !== null);
      check(row[1], vals(inRows), scale, true, true, { id, frame: 'rows', sd: true });
      check(row[2], vals(inRows), scale, true, false, { id, frame: 'rows', sd: false });
      check(row[3], vals(peers), scale, false, false, { id, frame: 'range' });
      check(row[4], vals(peers.filter((d) => d.id % 3 !== 0)), scale, false, true, { id, frame: 'range, filter' });
      expect(row[5]).toBe('DECIMAL(38,16)');
    }
  });

  test.each(cases)('%s with DISTINCT (x and −x both counted), by group and with FILTER', async (type, scale, gen) => {
    const data = await table(type, gen, type.length * 17 + scale);
    const r = await conn.runAndReadAll(
      `SELECT g, CAST(${statsAs('var_samp', 'x', { distinct: true }, true, false)} AS VARCHAR),
         CAST(${statsAs('stddev_pop', 'x', { distinct: true, filter: 'id % 2 = 0' }, false, true)} AS VARCHAR)
       FROM w GROUP BY g ORDER BY g`,
    );
    const distinct = (ds: typeof data) => [...new Map(ds.filter((d) => d.x !== null).map((d) => [units(d.x!, scale), d.x!])).values()];
    for (const row of r.getRows()) {
      const g = Number(row[0]);
      const mine = data.filter((d) => d.g === g);
      check(row[1], distinct(mine), scale, true, false, { g, distinct: true });
      check(row[2], distinct(mine.filter((d) => d.id % 2 === 0)), scale, false, true, { g, distinct: true, filter: true });
    }
  });

  test('x and −x are distinct values (sum(DISTINCT x²) alone would merge them)', async () => {
    const r = await conn.runAndReadAll(`SELECT CAST(${statsAs('var_pop', 'x', { distinct: true }, false, false)} AS VARCHAR) FROM (VALUES (3), (-3), (3), (NULL)) t(x)`);
    // distinct {3, −3}: mean 0, population variance 9
    expect(r.getRows()[0]![0]).toBe('9.0000000000000000');
  });

  test('a double stays DuckDB\'s own call', async () => {
    const r = await conn.runAndReadAll(`SELECT typeof(${statsAs('stddev_samp', 'x', { over: '' }, true, true)}), ${statsAs('var_pop', 'x', { over: '' }, false, false)} FROM (VALUES (1.0::DOUBLE), (2.0::DOUBLE)) t(x)`);
    expect(r.getRows()[0]).toEqual(['DOUBLE', 0.25]);
  });
});
