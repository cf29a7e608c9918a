/** The TPC-H data-gate report (markdown) from results.json. usage: tsx bench/tpch/report.ts --in results.json */
import { readFileSync } from 'node:fs';
import { arg, median } from '../lib/util.js';

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
  timings: Timing[];
  mismatches: { target: string; nr: number; detail: string }[];
  planning: Record<'warmPolicies' | 'warmOpen' | 'coldPolicies' | 'coldOpen', { perQuery: { nr: number; p50us: number }[]; p50us: number; p99us: number }>;
  hash: Record<string, number>;
};
const TARGETS = ['duckdb', 'lakegate-open', 'lakegate-policies-case', 'lakegate-policies-materialized', 'postgres'];
const present = TARGETS.filter((t) => r.timings.some((x) => x.target === t));
const nrs = [...new Set(r.timings.map((t) => t.nr))].sort((a, b) => a - b);
const cell = (target: string, nr: number): { ms: number; lowerBound: boolean } | null => {
  const t = r.timings.find((x) => x.target === target && x.nr === nr);
  if (!t) return null;
  if (t.error) return { ms: /timeout|cancel/i.test(t.error) ? NaN : NaN, lowerBound: true };
  return { ms: median(t.ms), lowerBound: false };
};
const fmt = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1));
const lines: string[] = [];
lines.push(`TPC-H SF${r.sf}, ${r.reps} timed runs per query (median), PostgreSQL ${r.pgVersion || 'not run'} ${r.pgReps} run(s) after a warm-up.`, '');
lines.push(`| Q | ${present.join(' | ')} | policies-case ÷ duckdb | postgres ÷ policies-case |`);
lines.push(`|---:|${present.map(() => '---:').join('|')}|---:|---:|`);
const totals = new Map<string, number>();
const failed = new Map<string, number>();
for (const nr of nrs) {
  const row = present.map((t) => {
    const c = cell(t, nr);
    if (!c || Number.isNaN(c.ms)) {
      failed.set(t, (failed.get(t) ?? 0) + 1);
      const err = r.timings.find((x) => x.target === t && x.nr === nr)?.error ?? 'not run';
      return /statement timeout/i.test(err) ? 'timeout' : 'error';
    }
    totals.set(t, (totals.get(t) ?? 0) + c.ms);
    return fmt(c.ms);
  });
  const d = cell('duckdb', nr);
  const lg = cell('lakegate-policies-case', nr);
  const p = cell('postgres', nr);
  const ratio = d && lg && !Number.isNaN(lg.ms) ? (lg.ms / d.ms).toFixed(2) : '';
  const pgRatio = p && lg && !Number.isNaN(p.ms) ? (p.ms / lg.ms).toFixed(1) : '';
  lines.push(`| ${nr} | ${row.join(' | ')} | ${ratio} | ${pgRatio} |`);
}
const total = (t: string) => totals.get(t) ?? NaN;
lines.push(`| **total ms** | ${present.map((t) => `**${fmt(total(t))}**${failed.get(t) ? ` (${failed.get(t)} not counted)` : ''}`).join(' | ')} | **${(total('lakegate-policies-case') / total('duckdb')).toFixed(3)}** | **${(total('postgres') / total('lakegate-policies-case')).toFixed(1)}** |`);
lines.push('');
lines.push('| ratio of totals | value | target |', '|---|---:|---|');
lines.push(`| lakegate, no policies ÷ DuckDB direct | ${(total('lakegate-open') / total('duckdb')).toFixed(3)} | |`);
lines.push(`| lakegate, filters + masks (case fence) ÷ DuckDB direct | ${(total('lakegate-policies-case') / total('duckdb')).toFixed(3)} | ≤ 1.15 |`);
if (present.includes('lakegate-policies-materialized')) lines.push(`| lakegate, filters + masks (materialized fence) ÷ DuckDB direct | ${(total('lakegate-policies-materialized') / total('duckdb')).toFixed(3)} | |`);
if (present.includes('postgres')) lines.push(`| PostgreSQL ÷ lakegate (case fence)${failed.get('postgres') ? ' (queries PostgreSQL did not finish are left out of both totals\' PostgreSQL side)' : ''} | ${(total('postgres') / total('lakegate-policies-case')).toFixed(1)} | ≥ 10 |`);
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
lines.push(`MASK_HASH (HMAC-SHA256 SQL macro), ${h['rows']} rows in-process: ${(h['rowsPerSec']! / 1e6).toFixed(2)} M rows/s end to end (generation + hash + max), ${(h['hashOnlyRowsPerSec']! / 1e6).toFixed(2)} M rows/s for the hash alone (target ≥ 1.5 M); Node's crypto.createHmac one row at a time: ${(h['jsRowsPerSec']! / 1e6).toFixed(2)} M rows/s.`);
console.log(lines.join('\n'));
