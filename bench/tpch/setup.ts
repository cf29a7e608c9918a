/**
 * What the TPC-H bench runs against: the policy sets, the lakegate processes
 * (one per variant, `lakegate serve`), PostgreSQL loaded with the same CSVs,
 * and how results are compared.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeVerifier } from '../../protocol/scram.js';
import { run } from '../../tests/support/clients.js';
import { freePort } from '../../tests/support/lakegate.js';
import { P, servicePolicies } from '../../tests/support/rangerPolicies.js';
import type { RealPostgres } from '../../tests/support/realPostgres.js';

export const USER = 'bench';
export const MASK_KEY = 'tpch-bench-mask-key-000';
/** Masked customer columns, and how each is expected to look (Hive's mask on ASCII text; HMAC from Node's crypto). */
export const MASKED: Record<string, (v: string) => string> = {
  c_address: (v) => createHmac('sha256', MASK_KEY).update(v, 'utf8').digest('hex'),
  c_comment: (v) => v.replace(/[A-Z]/g, 'X').replace(/[a-z]/g, 'x').replace(/[0-9]/g, 'n'),
};

/**
 * `policies`: row filters on orders and lineitem (a date window that keeps every
 * generated row, so results stay comparable) and two masks on customer;
 * `open`: select on everything, nothing else (the gateway's own cost).
 */
export function policySet(kind: 'policies' | 'open'): Record<string, unknown> {
  const who = { users: [USER] };
  const all = [P.allow('bench reads tpch', 'tpch', '*', '*', who)];
  if (kind === 'open') return servicePolicies('tpch', all);
  return servicePolicies('tpch', [
    ...all,
    P.filter('orders window', 'tpch', 'orders', [[who, "o_orderdate >= DATE '1992-01-01' AND o_orderdate < DATE '2000-01-01'"]]),
    P.filter('lineitem window', 'tpch', 'lineitem', [[who, "l_shipdate >= DATE '1992-01-01' AND l_shipdate < DATE '2000-01-01'"]]),
    P.mask('customer address', 'tpch', 'customer', 'c_address', [[who, 'MASK_HASH']]),
    P.mask('customer comment', 'tpch', 'customer', 'c_comment', [[who, 'MASK']]),
  ]);
}

export interface Lakegate {
  name: string;
  port: number;
  stop(): Promise<void>;
}

/** The data-gate settings of one lakegate variant. */
export interface GateVariant {
  fence: 'case' | 'materialized';
  /** false: every filtered table fenced, whatever the query (default true) */
  leakproofPushdown?: boolean;
}

/** Start `lakegate serve` for one variant; resolves once it listens. */
export async function startLakegate(bin: string, work: string, name: string, db: string, kind: 'policies' | 'open', gate: GateVariant): Promise<Lakegate> {
  const dir = join(work, name);
  mkdirSync(join(dir, 'ranger'), { recursive: true });
  writeFileSync(join(dir, 'ranger', 'tpch.json'), JSON.stringify(policySet(kind)));
  writeFileSync(join(dir, 'users.json'), JSON.stringify({ users: [{ name: USER, scram: makeVerifier(USER) }] }));
  const port = await freePort();
  const config = {
    host: '127.0.0.1',
    port,
    databases: { tpch: db },
    usersFile: join(dir, 'users.json'),
    ranger: { source: { kind: 'local', path: join(dir, 'ranger'), serviceName: 'tpch' }, refreshMs: 600000, maxStalenessMs: 3600000 },
    dataGate: { maskKey: MASK_KEY, ...gate },
    maxConnections: 10,
  };
  writeFileSync(join(dir, 'config.json'), JSON.stringify(config));
  const child: ChildProcess = spawn(process.execPath, [bin, 'serve', '--config', join(dir, 'config.json')], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LAKEGATE_LOG_LEVEL: 'warn', NODE_OPTIONS: '' },
  });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`lakegate ${name} did not start:\n${out}`)), 120000);
    const on = (d: Buffer) => {
      out += d.toString();
      if (out.includes(`listening on 127.0.0.1:${port}`)) {
        clearTimeout(t);
        resolve();
      }
    };
    child.stdout!.on('data', on);
    child.stderr!.on('data', on);
    child.once('exit', (code) => {
      clearTimeout(t);
      reject(new Error(`lakegate ${name} exited (${code}):\n${out}`));
    });
  });
  return {
    name,
    port,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

const PG_DDL = `
CREATE TABLE nation (n_nationkey integer PRIMARY KEY, n_name text, n_regionkey integer, n_comment text);
CREATE TABLE region (r_regionkey integer PRIMARY KEY, r_name text, r_comment text);
CREATE TABLE part (p_partkey bigint PRIMARY KEY, p_name text, p_mfgr text, p_brand text, p_type text, p_size integer, p_container text, p_retailprice decimal(15,2), p_comment text);
CREATE TABLE supplier (s_suppkey bigint PRIMARY KEY, s_name text, s_address text, s_nationkey integer, s_phone text, s_acctbal decimal(15,2), s_comment text);
CREATE TABLE partsupp (ps_partkey bigint, ps_suppkey bigint, ps_availqty bigint, ps_supplycost decimal(15,2), ps_comment text, PRIMARY KEY (ps_partkey, ps_suppkey));
CREATE TABLE customer (c_custkey bigint PRIMARY KEY, c_name text, c_address text, c_nationkey integer, c_phone text, c_acctbal decimal(15,2), c_mktsegment text, c_comment text);
CREATE TABLE orders (o_orderkey bigint PRIMARY KEY, o_custkey bigint, o_orderstatus text, o_totalprice decimal(15,2), o_orderdate date, o_orderpriority text, o_clerk text, o_shippriority integer, o_comment text);
CREATE TABLE lineitem (l_orderkey bigint, l_partkey bigint, l_suppkey bigint, l_linenumber bigint, l_quantity decimal(15,2), l_extendedprice decimal(15,2), l_discount decimal(15,2), l_tax decimal(15,2), l_returnflag text, l_linestatus text, l_shipdate date, l_commitdate date, l_receiptdate date, l_shipinstruct text, l_shipmode text, l_comment text, PRIMARY KEY (l_orderkey, l_linenumber));
`;

/** The usual secondary indexes of a PostgreSQL TPC-H setup (foreign keys), built after the load. */
const PG_INDEXES = [
  'CREATE INDEX ON lineitem (l_partkey, l_suppkey)',
  'CREATE INDEX ON lineitem (l_suppkey)',
  'CREATE INDEX ON orders (o_custkey)',
  'CREATE INDEX ON customer (c_nationkey)',
  'CREATE INDEX ON supplier (s_nationkey)',
  'CREATE INDEX ON partsupp (ps_suppkey)',
];

/** Load the generated CSVs into PostgreSQL (database tpch), as the postgres superuser over loopback. */
export async function loadPostgres(pg: RealPostgres, csvDir: string, log: (s: string) => void): Promise<void> {
  const psql = (args: string[], timeoutMs = 1800000) =>
    run('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-h', pg.host, '-p', String(pg.port), '-U', 'postgres', ...args], { timeoutMs, env: { ...process.env, PGSSLMODE: 'disable' } });
  const ok = async (what: string, p: Promise<{ code: number | null; stderr: string }>) => {
    const r = await p;
    if (r.code !== 0) throw new Error(`${what}: ${r.stderr}`);
  };
  await ok('create database', psql(['-d', 'postgres', '-c', 'CREATE DATABASE tpch']));
  await ok('ddl', psql(['-d', 'tpch', '-c', PG_DDL]));
  for (const f of readdirSync(csvDir).filter((x) => x.endsWith('.csv'))) {
    const table = f.replace(/\.csv$/, '');
    const t0 = performance.now();
    await ok(`copy ${table}`, psql(['-d', 'tpch', '-c', `\\copy ${table} FROM '${join(csvDir, f)}' WITH (FORMAT csv)`]));
    log(`postgres: ${table} loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  for (const ix of PG_INDEXES) await ok(ix, psql(['-d', 'tpch', '-c', ix]));
  await ok('analyze', psql(['-d', 'tpch', '-c', 'VACUUM ANALYZE']));
}

// ------------------------------------------------------------------ comparing results

const NUMBER = /^-?\d+(\.\d+)?(e[-+]?\d+)?$/i;

function sameCell(a: string | null, b: string | null): boolean {
  if (a === b) return true;
  if (a === null || b === null) return false;
  if (NUMBER.test(a) && NUMBER.test(b)) {
    const x = Number(a);
    const y = Number(b);
    // averages come as double from DuckDB and as numeric from PostgreSQL: equal to the cent, or to 1e-9 relative
    return Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(x), Math.abs(y)) || Math.round(x * 100) === Math.round(y * 100);
  }
  return false;
}

/** Rows equal in order (the queries order their output), cell by cell; the first difference, or null. */
export function difference(expected: (string | null)[][], got: (string | null)[][]): string | null {
  if (expected.length !== got.length) return `${got.length} rows, expected ${expected.length}`;
  for (let i = 0; i < expected.length; i++) {
    const e = expected[i]!;
    const g = got[i]!;
    if (e.length !== g.length || e.some((v, j) => !sameCell(v, g[j]!))) return `row ${i + 1}: ${JSON.stringify(g)}, expected ${JSON.stringify(e)}`;
  }
  return null;
}

/** The reference rows as the masked user must see them: masked columns transformed by name. */
export function masked(columns: string[], rows: (string | null)[][]): (string | null)[][] {
  const fns = columns.map((c) => MASKED[c]);
  if (fns.every((f) => !f)) return rows;
  return rows.map((r) => r.map((v, i) => (v !== null && fns[i] ? fns[i]!(v) : v)));
}
