/** The TPC-H data-gate report (markdown) from results.json. usage: tsx bench/tpch/report.ts --in results.json */
import { readFileSync } from 'node:fs';
import { arg, median } from '../lib/util.js';
import type { HashFigures } from './hash.js';

interface Timing {
  target: string;
  nr: number;
  ms: number[];
  error?: string;
}
const r = JSON.parse(readFileSync(arg('in'), 'utf8')) as {
  sf: number;
  reps: number;
  pgReps: number;
  pgVersion: string;
  pgSettings: Record<string, string>;
  timings: Timing[];
  mismatches: { target: string; nr: number; detail: string }[];
  fencedQueries: number[];
  planning: Record<'warmPolicies' | 'warmOpen' | 'coldPolicies' | 'coldOpen', { perQuery: { nr: number; p50us: number }[]; p50us: number; p99us: number }>;
  hash: HashFigures;
  load: { phase: string; min: number; median: number; max: number }[];
};
const PG_BEST = 'postgres-best';
const TARGETS = ['duckdb', 'duckdb-policies', 'lakegate-open', 'lakegate-policies', 'lakegate-policies-fenced', 'lakegate-policies-materialized', 'postgres', 'postgres-nojit'];
const present = TARGETS.filter((t) => r.timings.some((x) => x.target === t));
const nrs = [...new Set(r.timings.map((t) => t.nr))].sort((a, b) => a - b);

/** Median ms of a target on a query; null when it did not finish. */
function ms(target: string, nr: number): number | null {
  if (target === PG_BEST) return ms(pgBest, nr);
  const t = r.timings.find((x) => x.target === target && x.nr === nr);
  return t && !t.error && t.ms.length > 0 ? median(t.ms) : null;
}
/** PostgreSQL's reference: JIT on or off, whichever gives the smaller total over the queries both finished (as a DBA would set it). */
const pgBest = (() => {
  let on = 0;
  let off = 0;
  for (const nr of nrs) {
    const a = ms('postgres', nr);
    const b = ms('postgres-nojit', nr);
    if (a === null || b === null) continue;
    on += a;
    off += b;
  }
  return off < on ? 'postgres-nojit' : 'postgres';
})();
const fmt = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));

/** Ratio of totals a ÷ b over the queries both finished, with how many that is. */
function ratio(a: string, b: string): { value: number; n: number } {
  let sa = 0;
  let sb = 0;
  let n = 0;
  for (const nr of nrs) {
    const x = ms(a, nr);
    const y = ms(b, nr);
    if (x === null || y === null) continue;
    sa += x;
    sb += y;
    n++;
  }
  return { value: sa / sb, n };
}
const show = (a: string, b: string, digits = 3) => {
  const q = ratio(a, b);
  return `${q.value.toFixed(digits)}${q.n < nrs.length ? ` (${q.n} of ${nrs.length} queries)` : ''}`;
};

const lines: string[] = [];
lines.push(
  `TPC-H SF${r.sf}, ${r.reps} timed runs per query and target after one warm-up run each, in rounds (one run on every target, then the next round; median per query; totals are sums of medians). ` +
    `PostgreSQL ${r.pgVersion || 'not run'}: ${r.pgReps} run(s) per query after a warm-up, JIT on (as shipped) and off; postgres-best is the setting with the smaller total.`,
  '',
);
const hasPg = present.includes('postgres');
const cols = [...present, ...(hasPg ? [PG_BEST] : [])];
lines.push(`| Q | ${cols.join(' | ')} | policies ÷ duckdb | policies ÷ duckdb-policies |${hasPg ? ' postgres-best ÷ policies |' : ''}`);
lines.push(`|---:|${cols.map(() => '---:').join('|')}|---:|---:|${hasPg ? '---:|' : ''}`);
const totals = new Map<string, number>();
for (const nr of nrs) {
  const row = cols.map((t) => {
    const x = ms(t, nr);
    if (x === null) return /timeout/i.test(r.timings.find((y) => y.target === t && y.nr === nr)?.error ?? '') ? 'timeout' : 'error';
    totals.set(t, (totals.get(t) ?? 0) + x);
    return fmt(x);
  });
  const lg = ms('lakegate-policies', nr);
  const q = (a: number | null, b: number | null, d = 2) => (a !== null && b !== null ? (a / b).toFixed(d) : '');
  const mark = r.fencedQueries.includes(nr) ? ' (fenced)' : '';
  lines.push(`| ${nr}${mark} | ${row.join(' | ')} | ${q(lg, ms('duckdb', nr))} | ${q(lg, ms('duckdb-policies', nr))} |${hasPg ? ` ${q(ms(PG_BEST, nr), lg, 1)} |` : ''}`);
}
lines.push(`| **total ms** | ${cols.map((t) => `**${fmt(totals.get(t) ?? NaN)}**`).join(' | ')} | **${show('lakegate-policies', 'duckdb')}** | **${show('lakegate-policies', 'duckdb-policies')}** |${hasPg ? ` **${show(PG_BEST, 'lakegate-policies', 1)}** |` : ''}`);
lines.push('');
lines.push('| ratio of totals (over the queries both finished) | value | target |', '|---|---:|---|');
const row = (label: string, a: string, b: string, target = '', digits = 3) => {
  if (present.includes(a) || a === PG_BEST) lines.push(`| ${label} | ${show(a, b, digits)} | ${target} |`);
};
row('lakegate, no policies ÷ DuckDB direct (the gateway alone)', 'lakegate-open', 'duckdb');
row('DuckDB direct with the policies as views ÷ DuckDB direct (what the filters and masks cost the engine)', 'duckdb-policies', 'duckdb');
row('**lakegate, filters + masks ÷ DuckDB direct**', 'lakegate-policies', 'duckdb', '≤ 1.15');
row('lakegate, filters + masks ÷ DuckDB direct with the same policies (the gateway with policies)', 'lakegate-policies', 'duckdb-policies');
row('lakegate, every filtered table fenced ÷ DuckDB direct (before leakproof pushdown)', 'lakegate-policies-fenced', 'duckdb');
row('lakegate, materialized fence ÷ DuckDB direct', 'lakegate-policies-materialized', 'duckdb');
if (hasPg) {
  row(`**PostgreSQL (${pgBest === 'postgres' ? 'JIT on' : 'JIT off'}, the faster setting) ÷ lakegate, filters + masks**`, PG_BEST, 'lakegate-policies', '≥ 10', 1);
  row('PostgreSQL, JIT on ÷ lakegate, filters + masks', 'postgres', 'lakegate-policies', '', 1);
  row('PostgreSQL, JIT off ÷ lakegate, filters + masks', 'postgres-nojit', 'lakegate-policies', '', 1);
  row('PostgreSQL (the faster setting) ÷ lakegate, no policies', PG_BEST, 'lakegate-open', '', 1);
  row('PostgreSQL (the faster setting) ÷ DuckDB direct', PG_BEST, 'duckdb', '', 1);
}
lines.push('');
lines.push(`Queries that keep a fence under the default settings (a predicate that is not leakproof reads a filtered table): ${r.fencedQueries.length ? r.fencedQueries.map((n) => `Q${n}`).join(', ') : 'none'}.`);
if (hasPg) lines.push(`PostgreSQL settings: ${Object.entries(r.pgSettings).map(([k, v]) => `${k} ${v}`).join(', ')}.`);
lines.push('');
lines.push(`Results compared with DuckDB direct (masked columns expected as HMAC / Hive mask of DuckDB's values): **${r.mismatches.length} mismatches**.`);
for (const m of r.mismatches) lines.push(`- ${m.target} Q${m.nr}: ${m.detail.slice(0, 300)}`);
lines.push('');
lines.push('| planning: parse + authorize + resolve + rewrite + print | p50 µs | p99 µs | target |', '|---|---:|---:|---|');
lines.push(`| warm (the statement seen before: parse and plan caches), filters + masks | ${r.planning.warmPolicies.p50us.toFixed(1)} | ${r.planning.warmPolicies.p99us.toFixed(1)} | p50 ≤ 100 |`);
lines.push(`| warm, select only | ${r.planning.warmOpen.p50us.toFixed(1)} | ${r.planning.warmOpen.p99us.toFixed(1)} | |`);
lines.push(`| cold (every phase from the text), filters + masks | ${r.planning.coldPolicies.p50us.toFixed(0)} | ${r.planning.coldPolicies.p99us.toFixed(0)} | |`);
lines.push(`| cold, select only | ${r.planning.coldOpen.p50us.toFixed(0)} | ${r.planning.coldOpen.p99us.toFixed(0)} | |`);
lines.push('');
lines.push(`Cold p50 µs per query with filters + masks: ${r.planning.coldPolicies.perQuery.map((q) => `Q${q.nr} ${q.p50us.toFixed(0)}`).join(', ')}.`);
lines.push('');
const h = r.hash;
lines.push(
  `MASK_HASH (HMAC-SHA256 SQL macro), ${h.rows} rows in-process, median of ${h.runs} interleaved runs, \`max(v)\` over the same rows subtracted: ` +
    `**${(h.macroRowsPerSec / 1e6).toFixed(2)} M rows/s** (target ≥ 1.5 M); DuckDB's sha256 of the value alone (one block; no HMAC in SQL can beat it): ` +
    `${(h.sha256RowsPerSec / 1e6).toFixed(2)} M rows/s; Node's crypto.createHmac one row at a time: ${(h.jsRowsPerSec / 1e6).toFixed(2)} M rows/s.`,
);
lines.push('');
lines.push(`Load average (1 min) by phase, min / median / max: ${r.load.map((p) => `${p.phase} ${p.min.toFixed(1)} / ${p.median.toFixed(1)} / ${p.max.toFixed(1)}`).join('; ')}.`);
console.log(lines.join('\n'));
