/**
 * The report of bench/writes.ts: markdown tables and ratios from its results.json.
 *
 *   tsx bench/writesReport.ts --in OUTDIR/results.json
 */
import { readFileSync } from 'node:fs';
import { arg, median } from './lib/util.js';

interface Phases {
  beforeData: number;
  data: number;
  commit: number;
  afterCommit: number;
}
interface CtasRun {
  target: 'lakegate' | 'duckdb' | 'postgres';
  round: number;
  ms: number;
  cpu: Record<string, number>;
  files?: { dataFiles: number; dataBytes: number };
  phases?: Phases;
}
interface Stats {
  n: number;
  p50: number;
  p90: number;
  p99: number;
  min: number;
  max: number;
}
interface Results {
  rows: number;
  reps: number;
  threads: number;
  engineMemory: string;
  parquetInfo: { codec: string; rowGroups: number };
  icebergLoadS: number;
  postgresLoadS: number;
  pgVersion: string;
  pgSettings: Record<string, string>;
  ctasRuns: CtasRun[];
  diagnostics: Record<string, { ms: number; cpuS: number; files?: number; mb?: number }>;
  insertStats: Record<'lakegate' | 'postgres' | 'duckdb', Stats>;
  dbt: { target: string; wallS: number; modelsS: number; runs: string[] }[];
  load: { phase: string; min: number; median: number; max: number }[];
}

const r = JSON.parse(readFileSync(arg('in'), 'utf8')) as Results;
const lines: string[] = [];
const say = (s = '') => lines.push(s);
const s2 = (ms: number) => (ms / 1000).toFixed(2);
const x2 = (v: number) => `${v.toFixed(2)}×`;
const runsOf = (t: CtasRun['target']) => r.ctasRuns.filter((c) => c.target === t);
const med = (t: CtasRun['target'], f: (c: CtasRun) => number) => median(runsOf(t).map(f));
const range = (t: CtasRun['target']) => {
  const ms = runsOf(t).map((c) => c.ms);
  return `${s2(Math.min(...ms))}–${s2(Math.max(...ms))}`;
};
const cpu = (c: CtasRun) => Object.values(c.cpu).reduce((a, b) => a + b, 0);
const rowsText = r.rows.toLocaleString('en-US');

say(`### CREATE TABLE … AS SELECT * of ${rowsText} lineitem rows, ${r.reps} interleaved rounds`);
say();
say('| target | median s | min–max s | CPU s, median (all its processes) | M rows/s |');
say('|---|---:|---:|---:|---:|');
const label = { lakegate: 'lakegate (bob, node-postgres, `lakegate demo`)', duckdb: 'DuckDB in-process (iceberg extension through a loopback endpoint of the same catalog)', postgres: `PostgreSQL ${r.pgVersion}` };
for (const t of ['lakegate', 'duckdb', 'postgres'] as const) {
  const m = med(t, (c) => c.ms);
  say(`| ${label[t]} | ${s2(m)} | ${range(t)} | ${med(t, cpu).toFixed(1)} | ${(r.rows / 1e6 / (m / 1000)).toFixed(2)} |`);
}
say();
const lg = med('lakegate', (c) => c.ms);
const dd = med('duckdb', (c) => c.ms);
const pgm = med('postgres', (c) => c.ms);
const perRound = (other: CtasRun['target']) => {
  const ratios = runsOf('lakegate').map((c) => c.ms / runsOf(other).find((o) => o.round === c.round)!.ms);
  return `${x2(Math.min(...ratios))}–${x2(Math.max(...ratios))}`;
};
say('| ratio (of the medians) | value | per round | target |');
say('|---|---:|---:|---|');
say(`| **lakegate ÷ DuckDB in-process** | **${x2(lg / dd)}** | ${perRound('duckdb')} | ≤ 1.2×: ${lg / dd <= 1.2 ? 'met' : '**missed**'} |`);
say(`| **lakegate ÷ PostgreSQL 15** | **${x2(lg / pgm)}** | ${perRound('postgres')} | goal < 1: ${lg / pgm < 1 ? 'met' : '**missed**'} |`);
say(`| DuckDB in-process ÷ PostgreSQL 15 | ${x2(dd / pgm)} | | |`);
say(`| lakegate ÷ DuckDB in-process, CPU seconds | ${x2(med('lakegate', cpu) / med('duckdb', cpu))} | | |`);
say(`| lakegate ÷ PostgreSQL 15, CPU seconds | ${x2(med('lakegate', cpu) / med('postgres', cpu))} | | |`);
say();

say('Where the time goes (medians over the rounds; phases from the Iceberg files\' birth and modification times):');
say();
say('| | lakegate ms | DuckDB in-process ms |');
say('|---|---:|---:|');
const phase = (t: 'lakegate' | 'duckdb', k: keyof Phases) => med(t, (c) => c.phases?.[k] ?? NaN);
const rowsOf: [string, keyof Phases][] = [
  ['statement start → first data file (plan, type probe, CREATE through the catalog, scan start)', 'beforeData'],
  ['first → last data file written (source read + Parquet written, streamed)', 'data'],
  ['last data file → metadata committed (manifests, the catalog commit)', 'commit'],
  ['commit → statement end (the reply)', 'afterCommit'],
];
for (const [name, k] of rowsOf) say(`| ${name} | ${phase('lakegate', k).toFixed(0)} | ${phase('duckdb', k).toFixed(0)} |`);
say(`| total | ${lg.toFixed(0)} | ${dd.toFixed(0)} |`);
say(`| CPU s: lakegate's gateway process / its engine processes; this process | ${med('lakegate', (c) => c.cpu['gateway'] ?? NaN).toFixed(2)} / ${med('lakegate', (c) => c.cpu['engines'] ?? NaN).toFixed(1)} | ${med('duckdb', cpu).toFixed(1)} |`);
const files = (t: 'lakegate' | 'duckdb') => runsOf(t).find((c) => c.files)?.files;
const fl = files('lakegate');
const fd = files('duckdb');
say(`| data files, MB | ${fl?.dataFiles ?? '–'}, ${fl ? (fl.dataBytes / 1e6).toFixed(0) : '–'} | ${fd?.dataFiles ?? '–'}, ${fd ? (fd.dataBytes / 1e6).toFixed(0) : '–'} |`);
say();
say(`DuckDB's Iceberg writer wrote Parquet with ${r.parquetInfo.codec} in ${r.parquetInfo.rowGroups} row groups. Engine: ${r.threads} threads, memory_limit ${r.engineMemory} (lakegate's per-user default), for both.`);
say();
say('| the engine alone, once each after the rounds | ms | CPU s | data files, MB |');
say('|---|---:|---:|---:|');
for (const [k, v] of Object.entries(r.diagnostics)) say(`| ${k} | ${v.ms.toFixed(0)} | ${v.cpuS.toFixed(1)} | ${v.files === undefined ? '' : `${v.files}, ${v.mb!.toFixed(0)}`} |`);
say();

const i = r.insertStats;
say(`### One-row INSERT in autocommit, ${i.lakegate.n} each, interleaved statement by statement`);
say();
say('| target | p50 ms | p90 ms | p99 ms | min ms | max ms |');
say('|---|---:|---:|---:|---:|---:|');
const insertLabel = {
  lakegate: 'lakegate (psql as bob, `analytics.one_row`; psql\'s `\\timing`)',
  postgres: `PostgreSQL ${r.pgVersion} (psql; psql's \`\\timing\`)`,
  duckdb: 'DuckDB in-process through its loopback endpoint (timed around the call: no wire, no psql)',
};
for (const t of ['lakegate', 'postgres', 'duckdb'] as const) {
  const s = i[t];
  if (!s) continue;
  say(`| ${insertLabel[t]} | ${s.p50.toFixed(2)} | ${s.p90.toFixed(2)} | ${s.p99.toFixed(2)} | ${s.min.toFixed(2)} | ${s.max.toFixed(2)} |`);
}
say(`| lakegate ÷ PostgreSQL | ${x2(i.lakegate.p50 / i.postgres.p50)} | | ${x2(i.lakegate.p99 / i.postgres.p99)} | | |`);
if (i.duckdb) say(`| lakegate ÷ DuckDB in-process | ${x2(i.lakegate.p50 / i.duckdb.p50)} | | ${x2(i.lakegate.p99 / i.duckdb.p99)} | | |`);
say();

if (r.dbt.length > 0) {
  say('### dbt run, first run of tests/integration/dbt-writes (6 models), median of 3, each on a fresh server');
  say();
  say('| target | dbt run wall s | of which running the models s (run_results.json) |');
  say('|---|---:|---:|');
  for (const d of r.dbt) say(`| ${d.target} | ${d.wallS.toFixed(2)} | ${d.modelsS.toFixed(2)} |`);
  const [p, l] = [r.dbt.find((d) => d.target.startsWith('PostgreSQL')), r.dbt.find((d) => d.target.startsWith('lakegate'))];
  if (p && l) say(`| lakegate ÷ PostgreSQL | ${x2(l.wallS / p.wallS)} | ${x2(l.modelsS / p.modelsS)} |`);
  say();
}

say(`Data: Iceberg source written in ${r.icebergLoadS.toFixed(1)} s, PostgreSQL's generated and vacuumed in ${r.postgresLoadS.toFixed(1)} s; checksums (count, exact sums of every column, dates, string lengths and letters) of the source, PostgreSQL's table and each target's first copy identical. PostgreSQL settings: ${Object.entries(r.pgSettings).map(([k, v]) => `${k} ${v}`).join(', ')}.`);
say();
say('| load average (1 min) | min | median | max |');
say('|---|---:|---:|---:|');
for (const l of r.load) say(`| ${l.phase} | ${l.min.toFixed(1)} | ${l.median.toFixed(1)} | ${l.max.toFixed(1)} |`);
process.stdout.write(lines.join('\n') + '\n');
