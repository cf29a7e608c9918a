/**
 * TPC-H through the data gate, side by side (see bench/README.md "Data gate"):
 * the 22 queries on DuckDB in-process with no policies (`duckdb`), on DuckDB
 * in-process with the same policies written as views (`duckdb-policies`: the
 * engine's own cost of the filters and masks), through lakegate with no
 * policies (`lakegate-open`), with row filters on orders and lineitem and two
 * masks on customer (`lakegate-policies`: the fence only where a predicate is
 * not leakproof, the default; `lakegate-policies-fenced`: every filtered
 * table fenced; `lakegate-policies-materialized` with --materialized), and on
 * PostgreSQL 15 holding the same data; every result compared with DuckDB's.
 * Then the planning overhead (parse + authorize + rewrite + print) and
 * MASK_HASH throughput, in-process. The load average is sampled throughout.
 *
 * Timed runs go round by round (one run per target, then the next round), query by query.
 *
 * usage: tsx bench/tpch/run.ts --data DIR --bin dist/bin/lakegate.js --work TMP --out OUTDIR
 *          [--reps 3] [--pg-reps 1] [--pg-timeout-s 60] [--lg-timeout-s 120] [--no-postgres]
 *          [--materialized] [--hash-rows 5000000]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import pg from 'pg';
import pino from 'pino';
import { duckSql } from '../../tests/support/demoEngine.js';
import { compileSnapshot } from '../../policy/ranger/compile.js';
import { parseServicePolicies } from '../../policy/ranger/model.js';
import { parseConfig } from '../../server/config.js';
import { createPlanner } from '../../server/planner.js';
import type { QueryPlanner } from '../../server/queryPlan.js';
import { loadParser, parseStatements, parseStatementsUncached } from '../../sql/parse.js';
import { startPostgres } from '../../tests/support/realPostgres.js';
import { LoadSampler } from '../lib/loadSampler.js';
import { arg, percentile } from '../lib/util.js';
import { maskHashThroughput } from './hash.js';
import { difference, loadPostgres, masked, MASK_KEY, policySet, startLakegate, USER, type Lakegate } from './setup.js';

const data = arg('data');
const bin = arg('bin');
const work = arg('work');
const out = arg('out');
const reps = Number(arg('reps', '3'));
const pgReps = Number(arg('pg-reps', '1'));
const pgTimeoutS = Number(arg('pg-timeout-s', '60'));
const lgTimeoutS = Number(arg('lg-timeout-s', '120'));
const withPostgres = !process.argv.includes('--no-postgres');
const withMaterialized = process.argv.includes('--materialized');
/** A smoke run (CI): exit 3 when a result differs or a target stops answering; timings are not judged. */
const check = process.argv.includes('--check');
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

const load = new LoadSampler();
const enter = (name: string) => load.enter(name);

// ------------------------------------------------------------------ targets

interface Target {
  name: string;
  query(sql: string): Promise<{ columns: string[]; rows: Rows }>;
}

const readAll = async (conn: DuckDBConnection, sql: string) => {
  const r = await conn.runAndReadAll(sql);
  return { columns: r.columnNames(), rows: r.getRows().map((row) => row.map((v) => (v === null ? null : String(v)))) };
};

const policyEngine = (kind: 'policies' | 'open') =>
  compileSnapshot({ policies: parseServicePolicies(policySet(kind), 'bench'), roles: { rangerRoles: [] }, tags: null, userStore: null, versions: { policyVersion: 1, roleVersion: 1, tagVersion: null, userStoreVersion: null } });
const planContext = { database: 'tpch', user: USER, roles: [], groups: [], searchPath: ['tpch'], settings: () => undefined, backendPid: 1 };

/** lakegate's planner in-process on an instance with the data attached as `tpch` (what `lakegate serve` builds). */
async function inProcessPlanner(admin: DuckDBConnection, kind: 'policies' | 'open', planCacheSize: number): Promise<QueryPlanner> {
  const config = parseConfig({ databases: { tpch: db }, usersFile: 'unused', dataGate: { maskKey: MASK_KEY } });
  const engine = policyEngine(kind); // one policy set for the planner's life: its plans stay valid
  return createPlanner(duckSql(admin), config, { policies: { current: () => engine }, log: pino({ level: 'silent' }), planCacheSize });
}

async function duckdbDirect(): Promise<{ target: Target; close(): void }> {
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  await conn.run(`ATTACH '${db}' AS tpch_db (READ_ONLY)`);
  await conn.run('USE tpch_db.tpch');
  return { target: { name: 'duckdb', query: (sql) => readAll(conn, sql) }, close: () => (conn.closeSync(), instance.closeSync()) };
}

/**
 * DuckDB in-process with the bench policies written by hand as views: each
 * table is the derived table lakegate builds for it (planned in-process, so
 * the same filter and mask expressions and macros). What the filters and
 * masks cost the engine itself, without the gateway. Also tells which
 * queries keep a fence under the default settings.
 */
async function duckdbPolicies(): Promise<{ target: Target; fenced: number[]; close(): void }> {
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  await conn.run(`ATTACH '${db}' AS tpch (READ_ONLY)`);
  const planner = await inProcessPlanner(conn, 'policies', 0);
  const tables = (await readAll(conn, "SELECT table_name FROM duckdb_tables() WHERE database_name = 'tpch' AND schema_name = 'tpch'")).rows.map((r) => r[0]!);
  for (const t of tables) {
    const plan = await planner.plan(parseStatements(`SELECT * FROM tpch.${t}`)[0]!, planContext);
    await conn.run(`CREATE VIEW memory.main.${t} AS ${plan.sql}`);
  }
  await conn.run('USE memory.main');
  const fenced: number[] = [];
  for (const { nr, sql } of queries) if ((await planner.plan(parseStatements(sql)[0]!, planContext)).sql.includes('lg_row_ok')) fenced.push(nr);
  return { target: { name: 'duckdb-policies', query: (sql) => readAll(conn, sql) }, fenced, close: () => (conn.closeSync(), instance.closeSync()) };
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

const sawPolicies = (name: string) => name === 'duckdb-policies' || name.startsWith('lakegate-policies');

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
          const expected = sawPolicies(t.name) ? masked(ref.columns, ref.rows) : ref.rows;
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

/** `reps` rounds, each running the query once on every target in turn (load bursts spread over all of them). */
async function measureRounds(targets: Target[], nr: number, sql: string, rounds: number): Promise<void> {
  const ms = new Map<Target, number[]>(targets.map((t) => [t, []]));
  const failed = new Map<Target, string>();
  for (let i = 0; i < rounds; i++) {
    for (const t of targets) {
      if (failed.has(t)) continue;
      const t0 = performance.now();
      try {
        await t.query(sql);
        ms.get(t)!.push(performance.now() - t0);
      } catch (e) {
        failed.set(t, (e as Error).message);
        log(`${t.name} Q${nr}: ${(e as Error).message}`);
      }
    }
  }
  for (const t of targets) timings.push({ target: t.name, nr, ms: ms.get(t)!, ...(failed.has(t) ? { error: failed.get(t)! } : {}) });
}

// ------------------------------------------------------------------ 1. DuckDB direct and lakegate, interleaved

await loadParser();
const lakegates: Lakegate[] = [];
const clients: { target: Target; close(): Promise<void> }[] = [];
let fencedQueries: number[] = [];
try {
  enter('engines');
  log('starting lakegate: open, policies (leakproof pushdown), policies (every filtered table fenced)' + (withMaterialized ? ', policies (materialized fence)' : ''));
  lakegates.push(await startLakegate(bin, work, 'open', db, 'open', { fence: 'case' }));
  lakegates.push(await startLakegate(bin, work, 'policies', db, 'policies', { fence: 'case' }));
  lakegates.push(await startLakegate(bin, work, 'policies-fenced', db, 'policies', { fence: 'case', leakproofPushdown: false }));
  if (withMaterialized) lakegates.push(await startLakegate(bin, work, 'policies-materialized', db, 'policies', { fence: 'materialized', leakproofPushdown: false }));
  for (const lg of lakegates) {
    clients.push(
      await pgTarget(`lakegate-${lg.name}`, {
        host: '127.0.0.1', port: lg.port, user: USER, password: USER, database: 'tpch',
        options: '-c search_path=tpch', query_timeout: lgTimeoutS * 1000,
      }),
    );
  }
  const direct = await duckdbDirect();
  const withPolicies = await duckdbPolicies();
  fencedQueries = withPolicies.fenced;
  const targets = [direct.target, withPolicies.target, ...clients.map((c) => c.target)];
  enter('warm-up');
  log(`warm-up: every query once on each of ${targets.map((t) => t.name).join(', ')}`);
  for (const { nr, sql } of queries) for (const t of targets) await measure(t, nr, sql, 1, t === direct.target ? null : 'duckdb');
  timings.length = 0;
  enter('measured');
  log(`measuring: ${reps} rounds per query, each running it once on every target`);
  for (const { nr, sql } of queries) await measureRounds(targets, nr, sql, reps);
  direct.close();
  withPolicies.close();
} finally {
  for (const c of clients) await c.close().catch(() => {});
  for (const lg of lakegates) await lg.stop();
}

// ------------------------------------------------------------------ 2. PostgreSQL

let pgVersion = '';
let pgSettings: Record<string, string> = {};
if (withPostgres) {
  enter('postgres load');
  log('starting PostgreSQL and loading the same data');
  // A reasonably sized server for 24 GiB and 2 cores; everything else (JIT, parallel workers, planner costs) as PostgreSQL ships it.
  const server = await startPostgres({ settings: ["shared_buffers = '4GB'", "work_mem = '256MB'", "effective_cache_size = '12GB'", "max_wal_size = '4GB'"] });
  try {
    await loadPostgres(server, join(data, 'csv'), log);
    const c = await pgTarget('postgres', { host: server.host, port: server.port, user: 'postgres', database: 'tpch', query_timeout: (pgTimeoutS + 30) * 1000 });
    try {
      pgVersion = String((await c.target.query('SHOW server_version')).rows[0]![0]);
      const shown = await c.target.query(
        "SELECT name, current_setting(name) FROM pg_settings WHERE name IN ('shared_buffers', 'work_mem', 'effective_cache_size', 'max_parallel_workers_per_gather', 'max_parallel_workers', 'jit', 'random_page_cost', 'default_statistics_target') ORDER BY name",
      );
      pgSettings = Object.fromEntries(shown.rows.map((r) => [r[0]!, r[1]!]));
      await c.target.query(`SET statement_timeout = '${pgTimeoutS}s'`);
      // JIT is on as PostgreSQL ships it; it helps long scans and costs compile time on short queries: both are measured.
      for (const [name, jit] of [['postgres', 'on'], ['postgres-nojit', 'off']] as const) {
        enter(name);
        await c.target.query(`SET jit = ${jit}`);
        log(`PostgreSQL ${pgVersion}, jit ${jit}: warm-up then ${pgReps} run(s) per query (statement_timeout ${pgTimeoutS} s)`);
        const target = { ...c.target, name };
        for (const { nr, sql } of queries) {
          await measure(target, nr, sql, 1, 'duckdb');
          const first = timings.pop()!;
          if (first.error) {
            timings.push(first);
            continue;
          }
          await measure(target, nr, sql, pgReps, null);
        }
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
  const planner = await inProcessPlanner(admin, kind, cached ? 1000 : 0);
  const parse = cached ? parseStatements : parseStatementsUncached;
  const all: number[] = [];
  const perQuery: { nr: number; p50us: number }[] = [];
  const n = cached ? 2000 : 200;
  for (const { nr, sql } of queries) {
    for (let i = 0; i < 50; i++) await planner.plan(parse(sql)[0]!, planContext);
    const samples: number[] = [];
    for (let i = 0; i < n; i++) {
      const t0 = process.hrtime.bigint();
      await planner.plan(parse(sql)[0]!, planContext);
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
enter('planning');
log('planning overhead: 22 queries, parse + plan, warm (statement seen before) and cold (every time from the text), with and without the policies');
const planning = {
  warmPolicies: await planningTimes('policies', true),
  warmOpen: await planningTimes('open', true),
  coldPolicies: await planningTimes('policies', false),
  coldOpen: await planningTimes('open', false),
};

// ------------------------------------------------------------------ 4. MASK_HASH throughput

enter('mask_hash');
log(`MASK_HASH: ${hashRows} rows in-process, checked against Node's crypto`);
const hash = await maskHashThroughput(hashRows);

const loadSummary = load.stop();
writeFileSync(join(out, 'results.json'), JSON.stringify({ sf, reps, pgReps, pgVersion, pgSettings, timings, mismatches, fencedQueries, planning, hash, load: loadSummary }, null, 1));
log(`done: ${mismatches.length} result mismatches`);
if (check) {
  const failed = timings.filter((t) => t.error);
  for (const t of failed) log(`check: ${t.target} Q${t.nr} failed: ${t.error}`);
  if (mismatches.length > 0 || failed.length > 0) {
    log(`check FAILED: ${mismatches.length} mismatches, ${failed.length} failed queries`);
    process.exitCode = 3;
  }
}
