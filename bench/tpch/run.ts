/**
 * TPC-H through the data gate, side by side (see bench/README.md "Data gate"):
 * the 22 queries on DuckDB in-process with no policies, through lakegate with
 * no policies (`open`), through lakegate with row filters on orders and
 * lineitem and two masks on customer (`case` fence, and `materialized`), and
 * on PostgreSQL 15 holding the same data; every result compared with DuckDB's.
 * Then the planning overhead (parse + authorize + rewrite + print) and
 * MASK_HASH throughput, in-process.
 *
 * usage: tsx bench/tpch/run.ts --data DIR --bin dist/bin/lakegate.js --work TMP --out OUTDIR
 *          [--reps 3] [--pg-reps 1] [--pg-timeout-s 60] [--no-postgres] [--hash-rows 5000000]
 */
import { createHmac } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import pg from 'pg';
import pino from 'pino';
import { compileSnapshot } from '../../policy/ranger/compile.js';
import { parseServicePolicies } from '../../policy/ranger/model.js';
import { installMaskMacros } from '../../policy/rewrite/macros.js';
import { parseConfig } from '../../server/config.js';
import { createPlanner } from '../../server/planner.js';
import { EMULATION_DB } from '../../sql/emulation.js';
import { loadParser, parseStatements, parseStatementsUncached } from '../../sql/parse.js';
import { startPostgres } from '../../tests/support/realPostgres.js';
import { arg, median, percentile } from '../lib/util.js';
import { difference, loadPostgres, masked, MASK_KEY, policySet, startLakegate, USER, type Lakegate } from './setup.js';

const data = arg('data');
const bin = arg('bin');
const work = arg('work');
const out = arg('out');
const reps = Number(arg('reps', '3'));
const pgReps = Number(arg('pg-reps', '1'));
const pgTimeoutS = Number(arg('pg-timeout-s', '60'));
const withPostgres = !process.argv.includes('--no-postgres');
const hashRows = Number(arg('hash-rows', '5000000'));
const db = join(data, 'tpch.duckdb');
const { queries, sf } = JSON.parse(readFileSync(join(data, 'queries.json'), 'utf8')) as { sf: number; queries: { nr: number; sql: string }[] };

const log = (s: string) => process.stderr.write(`[tpch ${new Date().toISOString().slice(11, 19)}] ${s}\n`);
type Rows = (string | null)[][];
interface Timing {
  target: string;
  nr: number;
  ms: number[];
  error?: string;
}
const timings: Timing[] = [];
const results = new Map<string, { columns: string[]; rows: Rows }>();
const mismatches: { target: string; nr: number; detail: string }[] = [];

// ------------------------------------------------------------------ targets

interface Target {
  name: string;
  query(sql: string): Promise<{ columns: string[]; rows: Rows }>;
}

async function duckdbDirect(): Promise<{ target: Target; close(): void }> {
  const instance = await DuckDBInstance.create(':memory:');
  const conn: DuckDBConnection = await instance.connect();
  await conn.run(`ATTACH '${db}' AS tpch_db (READ_ONLY)`);
  await conn.run('USE tpch_db.tpch');
  return {
    target: {
      name: 'duckdb',
      async query(sql) {
        const r = await conn.runAndReadAll(sql);
        return { columns: r.columnNames(), rows: r.getRows().map((row) => row.map((v) => (v === null ? null : String(v)))) };
      },
    },
    close: () => {
      conn.closeSync();
      instance.closeSync();
    },
  };
}

async function pgTarget(name: string, cfg: pg.ClientConfig): Promise<{ target: Target; close(): Promise<void> }> {
  const client = new pg.Client(cfg);
  client.on('error', () => {});
  await client.connect();
  const raw = { getTypeParser: () => (v: string) => v } as unknown as pg.CustomTypesConfig;
  return {
    target: {
      name,
      async query(sql) {
        const r = await client.query({ text: sql, rowMode: 'array', types: raw });
        return { columns: r.fields.map((f) => f.name), rows: r.rows as Rows };
      },
    },
    close: () => client.end(),
  };
}

async function measure(t: Target, nr: number, sql: string, n: number, expectedFrom: string | null): Promise<void> {
  const ms: number[] = [];
  try {
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      const r = await t.query(sql);
      ms.push(performance.now() - t0);
      if (i === 0) {
        results.set(`${t.name}:${nr}`, r);
        const ref = expectedFrom ? results.get(`${expectedFrom}:${nr}`) : undefined;
        if (ref) {
          const expected = t.name.startsWith('lakegate-policies') ? masked(ref.columns, ref.rows) : ref.rows;
          const d = difference(expected, r.rows);
          if (d) mismatches.push({ target: t.name, nr, detail: d });
        }
      }
    }
    timings.push({ target: t.name, nr, ms });
  } catch (e) {
    timings.push({ target: t.name, nr, ms, error: (e as Error).message });
    log(`${t.name} Q${nr}: ${(e as Error).message}`);
  }
}

// ------------------------------------------------------------------ 1. DuckDB direct and lakegate, interleaved

await loadParser();
const lakegates: Lakegate[] = [];
const clients: { target: Target; close(): Promise<void> }[] = [];
try {
  log('starting lakegate: open, policies (case fence), policies (materialized fence)');
  lakegates.push(await startLakegate(bin, work, 'open', db, 'open', 'case'));
  lakegates.push(await startLakegate(bin, work, 'policies-case', db, 'policies', 'case'));
  lakegates.push(await startLakegate(bin, work, 'policies-materialized', db, 'policies', 'materialized'));
  for (const lg of lakegates) {
    clients.push(
      await pgTarget(`lakegate-${lg.name}`, { host: '127.0.0.1', port: lg.port, user: USER, password: USER, database: 'tpch', options: '-c search_path=tpch', query_timeout: 600000 }),
    );
  }
  const direct = await duckdbDirect();
  const targets = [direct.target, ...clients.map((c) => c.target)];
  log(`warm-up: every query once on each of ${targets.map((t) => t.name).join(', ')}`);
  for (const { nr, sql } of queries) for (const t of targets) await measure(t, nr, sql, 1, t === direct.target ? null : 'duckdb');
  timings.length = 0;
  log(`measuring: ${reps} runs per query and target, interleaved query by query`);
  for (const { nr, sql } of queries) {
    for (const t of targets) await measure(t, nr, sql, reps, null);
  }
  direct.close();
} finally {
  for (const c of clients) await c.close().catch(() => {});
  for (const lg of lakegates) await lg.stop();
}

// ------------------------------------------------------------------ 2. PostgreSQL

let pgVersion = '';
if (withPostgres) {
  log('starting PostgreSQL and loading the same data');
  const server = await startPostgres({ settings: ["shared_buffers = '2GB'", "work_mem = '256MB'", "effective_cache_size = '8GB'", 'max_parallel_workers_per_gather = 2', 'jit = off'] });
  try {
    await loadPostgres(server, join(data, 'csv'), log);
    const c = await pgTarget('postgres', { host: server.host, port: server.port, user: 'postgres', database: 'tpch', query_timeout: (pgTimeoutS + 30) * 1000 });
    try {
      pgVersion = String((await c.target.query('SHOW server_version')).rows[0]![0]);
      await c.target.query(`SET statement_timeout = '${pgTimeoutS}s'`);
      log(`PostgreSQL ${pgVersion}: warm-up then ${pgReps} run(s) per query (statement_timeout ${pgTimeoutS} s)`);
      for (const { nr, sql } of queries) {
        await measure(c.target, nr, sql, 1, 'duckdb');
        const first = timings.pop()!;
        if (first.error) {
          timings.push(first);
          continue;
        }
        await measure(c.target, nr, sql, pgReps, null);
      }
    } finally {
      await c.close();
    }
  } finally {
    await server.stop();
  }
}

// ------------------------------------------------------------------ 3. planning overhead, in-process

interface Planning {
  perQuery: { nr: number; p50us: number }[];
  p50us: number;
  p99us: number;
}

/** parse + plan of each query, warm (caches on, after the first time) or cold (every time from the text). */
async function planningTimes(kind: 'policies' | 'open', cached: boolean): Promise<Planning> {
  const instance = await DuckDBInstance.create(':memory:');
  const admin = await instance.connect();
  await admin.run(`ATTACH '${db}' AS tpch (READ_ONLY)`);
  const engine = compileSnapshot({ policies: parseServicePolicies(policySet(kind), 'bench'), roles: { rangerRoles: [] }, tags: null, userStore: null, versions: { policyVersion: 1, roleVersion: 1, tagVersion: null, userStoreVersion: null } });
  const config = parseConfig({ databases: { tpch: db }, usersFile: 'unused', dataGate: { maskKey: MASK_KEY } });
  const planner = await createPlanner(admin, config, { policies: { current: () => engine }, log: pino({ level: 'silent' }), planCacheSize: cached ? 1000 : 0 });
  const parse = cached ? parseStatements : parseStatementsUncached;
  const ctx = { database: 'tpch', user: USER, roles: [], groups: [], searchPath: ['tpch'], settings: () => undefined, backendPid: 1 };
  const all: number[] = [];
  const perQuery: { nr: number; p50us: number }[] = [];
  const n = cached ? 2000 : 200;
  for (const { nr, sql } of queries) {
    for (let i = 0; i < 50; i++) await planner.plan(parse(sql)[0]!, ctx);
    const samples: number[] = [];
    for (let i = 0; i < n; i++) {
      const t0 = process.hrtime.bigint();
      await planner.plan(parse(sql)[0]!, ctx);
      samples.push(Number(process.hrtime.bigint() - t0) / 1000);
    }
    samples.sort((a, b) => a - b);
    perQuery.push({ nr, p50us: percentile(samples, 50) });
    all.push(...samples);
  }
  all.sort((a, b) => a - b);
  admin.closeSync();
  instance.closeSync();
  return { perQuery, p50us: percentile(all, 50), p99us: percentile(all, 99) };
}
log('planning overhead: 22 queries, parse + plan, warm (statement seen before) and cold (every time from the text), with and without the policies');
const planning = {
  warmPolicies: await planningTimes('policies', true),
  warmOpen: await planningTimes('open', true),
  coldPolicies: await planningTimes('policies', false),
  coldOpen: await planningTimes('open', false),
};

// ------------------------------------------------------------------ 4. MASK_HASH throughput

async function maskHash(): Promise<Record<string, number>> {
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  await conn.run(`ATTACH ':memory:' AS ${EMULATION_DB}`);
  await installMaskMacros((s) => conn.run(s), MASK_KEY);
  const source = `(SELECT CAST(i AS VARCHAR) || '-' || CAST(i * 7 AS VARCHAR) || '-ssn' AS v FROM range(${hashRows}) r(i))`;
  // correctness first: the macro against Node's crypto
  const sample = (await conn.runAndReadAll(`SELECT v, ${EMULATION_DB}.lgp.mask_hash(v) FROM ${source} s LIMIT 1000`)).getRows();
  for (const [v, h] of sample) {
    if (createHmac('sha256', MASK_KEY).update(String(v)).digest('hex') !== h) throw new Error(`MASK_HASH of ${String(v)} differs from Node's HMAC`);
  }
  const time = async (sql: string) => {
    const t: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      await conn.runAndReadAll(sql);
      t.push(performance.now() - t0);
    }
    return median(t);
  };
  const base = await time(`SELECT max(v) FROM ${source} s`);
  const hashed = await time(`SELECT max(${EMULATION_DB}.lgp.mask_hash(v)) FROM ${source} s`);
  conn.closeSync();
  instance.closeSync();
  const n = 1_000_000;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) createHmac('sha256', MASK_KEY).update(`${i}-${i * 7}-ssn`).digest('hex');
  const jsMs = performance.now() - t0;
  return { rows: hashRows, baseMs: base, hashedMs: hashed, rowsPerSec: hashRows / (hashed / 1000), hashOnlyRowsPerSec: hashRows / ((hashed - base) / 1000), jsRowsPerSec: n / (jsMs / 1000) };
}
log(`MASK_HASH: ${hashRows} rows in-process, checked against Node's crypto`);
const hash = await maskHash();

writeFileSync(join(out, 'results.json'), JSON.stringify({ sf, reps, pgReps, pgVersion, timings, mismatches, planning, hash }, null, 1));
log(`done: ${mismatches.length} result mismatches`);
