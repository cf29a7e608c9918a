/**
 * The policy-engine table from a ranger.sh run: decisions/s and p50/p99 per decision for
 * lakegate and Ranger's Java engine, lakegate's ratio, load + index times, and whether both
 * engines reached the same decisions (decision and deciding policy id, request by request).
 *
 * usage: node --import tsx bench/ranger/report.ts OUTDIR
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface Row {
  engine?: string;
  kind: string;
  policies?: number;
  perSec?: number;
  p50ns?: number;
  p99ns?: number;
  firstMs?: number;
  medianMs?: number;
  [k: string]: unknown;
}

const dir = process.argv[2]!;
const rows = readFileSync(join(dir, 'results.jsonl'), 'utf8').split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Row);
const machine = rows.find((r) => r.kind === 'machine');
const get = (engine: string, n: number, kind: string) => rows.find((r) => r.engine === engine && r.policies === n && r.kind === kind);
const counts = [...new Set(rows.filter((r) => r.policies !== undefined).map((r) => r.policies!))].sort((a, b) => a - b);
const fmt = (x: number | undefined) => (x === undefined ? '—' : x >= 1e6 ? `${(x / 1e6).toFixed(2)} M` : x >= 1e3 ? `${(x / 1e3).toFixed(0)} k` : x.toFixed(0));
const us = (ns: number | undefined) => (ns === undefined ? '—' : (ns / 1000).toFixed(ns < 10000 ? 2 : 1));
const ratio = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined ? '—' : `${(a / b).toFixed(2)}×`);

const out: string[] = [];
if (machine) out.push(`machine: ${machine.nproc} cores (${machine.cpu}), node ${machine.node}, ${machine.java}, Ranger ${machine.ranger}, lakegate ${machine.commit}, load avg at start ${machine.load}`, '');
out.push('lakegate = as deployed (decision cache on; the request set repeats, as a session re-running its queries does); uncached = every decision computed afresh.', '');
out.push('| policies | request | lakegate decisions/s | p50 / p99 µs | uncached decisions/s | p50 / p99 µs | Ranger-Java decisions/s | p50 / p99 µs | lakegate ÷ Ranger | uncached ÷ Ranger |');
out.push('|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const n of counts)
  for (const kind of ['access', 'mask', 'rowfilter']) {
    const l = get('lakegate', n, kind);
    const u = get('lakegate-uncached', n, kind);
    const j = get('ranger-java', n, kind);
    out.push(
      `| ${n} | ${kind} | ${fmt(l?.perSec)} | ${us(l?.p50ns)} / ${us(l?.p99ns)} | ${fmt(u?.perSec)} | ${us(u?.p50ns)} / ${us(u?.p99ns)} | ${fmt(j?.perSec)} | ${us(j?.p50ns)} / ${us(j?.p99ns)} | ${ratio(l?.perSec, j?.perSec)} | ${ratio(u?.perSec, j?.perSec)} |`,
    );
  }
out.push('', '| policies | load + index, first (ms) | median of the rest (ms) | Ranger-Java first (ms) | median (ms) | lakegate ÷ Ranger (median) |');
out.push('|---:|---:|---:|---:|---:|---:|');
for (const n of counts) {
  const l = get('lakegate', n, 'load');
  const j = get('ranger-java', n, 'load');
  const f = (x: number | undefined) => (x === undefined ? '—' : x.toFixed(1));
  out.push(`| ${n} | ${f(l?.firstMs)} | ${f(l?.medianMs)} | ${f(j?.firstMs)} | ${f(j?.medianMs)} | ${j && l ? `${(l.medianMs! / j.medianMs!).toFixed(2)}×` : '—'} |`);
}
out.push('');
for (const n of counts) {
  const a = join(dir, `decisions-lakegate-${n}.txt`);
  const b = join(dir, `decisions-ranger-${n}.txt`);
  if (!existsSync(a) || !existsSync(b)) continue;
  const la = readFileSync(a, 'utf8').split('\n');
  const lb = readFileSync(b, 'utf8').split('\n');
  const diff = la.map((x, i) => [i, x, lb[i]] as const).filter(([, x, y]) => x !== y);
  out.push(`decisions, ${n} policies: ${la.length - 1 - diff.length} of ${la.length - 1} identical (decision and deciding policy)`);
  for (const [i, x, y] of diff.slice(0, 5)) out.push(`  request ${i}: lakegate ${x} | Ranger ${y}`);
}
console.log(out.join('\n'));
