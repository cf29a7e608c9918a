/**
 * Summarize V8 .cpuprofile files (bench/floor.sh): top frames by self and by
 * inclusive time, and each sample's share per phase of a statement.
 *
 *   node --import tsx bench/floor/profile.ts --dir DIR [--statements N] [--top 15]
 *
 * A sample is put in a phase by the deepest frame on its stack that is lakegate's
 * own code (dist/{server,protocol,sql,policy,pgcatalog,catalog,bin}/…), @duckdb/node-api
 * or Node's child_process IPC, by that file; a sample with no lakegate frame is idle, GC, "(program)" (V8/native work
 * outside JS, e.g. libuv, syscalls) or Node internals. So a pino write is counted
 * in "statement log/metrics" and libpg-query's WASM in "parse".
 * With --statements N (statements run while the profile was taken), the phase
 * table also gives µs per statement.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { arg } from '../lib/util.js';

interface CallFrame { functionName: string; url: string; lineNumber: number }
interface Node { id: number; callFrame: CallFrame; children?: number[] }
interface Profile { nodes: Node[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number }

const PHASES: [string, RegExp][] = [
  ['DuckDB prepare/execute/fetch (@duckdb/node-api and its native binding)', /node_modules\/@duckdb\//],
  ['IPC serialization/channel (node:internal/child_process)', /^node:internal\/child_process/],
  ['engine child: request handling (server/engine/child.js)', /\/server\/engine\/child\.js/],
  ['socket writes to the client (node:net write path, protocol/writer, backend)', /^\u0000net-write$|\/protocol\/(writer|backend)\.js/],
  ['protocol decode (framing, frontend messages, session state machine)', /\/protocol\/(framing|frontend|connection|handler|scram)\.js|\/server\/(listener|session|gateway)\.js/],
  ['parse (statementParser, sql/parse, libpg-query, parse cache)', /\/server\/(statementParser|parseWorker)\.js|\/sql\/parse\.js/],
  ['data gate (policies, Ranger, rewrite, authorize)', /\/policy\/|\/server\/policies\.js|\/sql\/(authorize|explainPolicy)\.js/],
  ['planning (planner, queryPlan, sql resolve/deparse, pg_catalog)', /\/server\/(planner|queryPlan|queryStatement|sessionFunctions|settings|catalog)\.js|\/sql\/|\/pgcatalog\/|\/catalog\//],
  ['routing / statement run (router, portals, slots, transaction)', /\/server\/(router|portal|portals|statementRun|statementSlots|transaction|sqlCursors|scrollCursor|heavyLane|activity|commands|errors)\.js/],
  ['engine IPC (server/engine/*: process, pool, connection, wire)', /\/server\/engine\//],
  ['row encoding (server/rows, protocol/types, textResult)', /\/server\/rows\/|\/protocol\/types\/|\/server\/textResult\.js/],
  ['statement log / metrics / audit (server/ops, server/audit)', /\/server\/(ops|audit)\//],
  ['other lakegate code', /\/dist\//],
];

function phaseOf(f: CallFrame): string | null {
  const url = f.url;
  if ((url === 'node:net' && /^Socket\._write/.test(f.functionName)) || (url === 'node:internal/stream_base_commons' && f.functionName === 'writeGeneric')) return PHASES.find(([, re]) => re.test('\u0000net-write'))![0];
  if (!url.includes('/dist/') && !url.includes('node_modules/@duckdb/') && !url.startsWith('node:internal/child_process')) return null;
  for (const [name, re] of PHASES) if (re.test(url)) return name;
  return null;
}

function short(f: CallFrame): string {
  const url = f.url.replace(/^file:\/\//, '');
  const at = url.includes('/dist/') ? url.slice(url.indexOf('/dist/') + 6)
    : url.includes('node_modules/') ? url.slice(url.lastIndexOf('node_modules/') + 13)
    : url;
  return `${f.functionName || '(anonymous)'}${at ? ` ${at}:${f.lineNumber + 1}` : ' (native)'}`;
}

function summarize(file: string, statements: number, top: number): string {
  const p = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map<number, Node>();
  const parent = new Map<number, number>();
  for (const n of p.nodes) {
    byId.set(n.id, n);
    for (const c of n.children ?? []) parent.set(c, n.id);
  }
  // Time per sample: timeDeltas[i+1] is the time until the next sample (the last one gets the mean).
  const total = (p.endTime - p.startTime) / 1000; // ms
  const self = new Map<number, number>();
  for (let i = 0; i < p.samples.length; i++) {
    const dt = (i + 1 < p.timeDeltas.length ? p.timeDeltas[i + 1] : total * 1000 / p.samples.length) / 1000;
    self.set(p.samples[i], (self.get(p.samples[i]) ?? 0) + dt);
  }
  const selfByKey = new Map<string, number>();
  const inclByKey = new Map<string, number>();
  const phase = new Map<string, number>();
  const phaseIncl = new Map<string, number>();
  let busy = 0;
  for (const [id, ms] of self) {
    const leaf = byId.get(id)!;
    const leafName = leaf.callFrame.functionName;
    const idle = leafName === '(idle)';
    if (!idle) busy += ms;
    selfByKey.set(short(leaf.callFrame), (selfByKey.get(short(leaf.callFrame)) ?? 0) + ms);
    const seen = new Set<string>();
    let ph: string | null = null;
    const phasesOnStack = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const n = byId.get(cur)!;
      const k = short(n.callFrame);
      if (!seen.has(k) && n.callFrame.functionName !== '(root)') {
        seen.add(k);
        inclByKey.set(k, (inclByKey.get(k) ?? 0) + ms);
      }
      const here = phaseOf(n.callFrame);
      if (here !== null) phasesOnStack.add(here);
      if (ph === null) ph = here;
    }
    for (const q of phasesOnStack) phaseIncl.set(q, (phaseIncl.get(q) ?? 0) + ms);
    if (ph === null) {
      ph = idle ? '(idle)' : leafName === '(garbage collector)' ? '(garbage collector)'
        : leafName === '(program)' ? '(program): native/V8 outside JS, libuv, syscalls'
        : 'Node internals with no lakegate frame (net, IPC, timers)';
    }
    phase.set(ph, (phase.get(ph) ?? 0) + ms);
  }
  const pct = (ms: number) => `${((100 * ms) / busy).toFixed(1)}%`;
  const perStmt = (ms: number) => (statements > 0 ? ` | ${((ms * 1000) / statements).toFixed(1)}` : '');
  const out: string[] = [];
  if (busy < 5) return `#### ${file.split('/').pop()}: ${total.toFixed(0)} ms profiled, ${busy.toFixed(1)} ms busy: idle (an engine process no statement used)\n`;
  out.push(`#### ${file.split('/').pop()}: ${total.toFixed(0)} ms profiled, ${busy.toFixed(0)} ms busy (not idle)${statements > 0 ? `, ${statements} statements` : ''}`);
  out.push('');
  out.push(`| phase | self ms (deepest lakegate frame) | self share of busy${statements > 0 ? ' | self µs/statement' : ''} | inclusive share (phase anywhere on the stack) |`);
  out.push(`|---|---|---|${statements > 0 ? '---|' : ''}---|`);
  for (const [name, ms] of [...phase].filter(([n]) => n !== '(idle)').sort((a, b) => b[1] - a[1])) {
    const incl = phaseIncl.get(name);
    out.push(`| ${name} | ${ms.toFixed(0)} | ${pct(ms)}${perStmt(ms)} | ${incl === undefined ? '' : pct(incl)} |`);
  }
  out.push('');
  const opsFile = file.replace(/\.cpuprofile$/, '.ops.json');
  if (existsSync(opsFile) && statements > 0) {
    const ops = JSON.parse(readFileSync(opsFile, 'utf8')) as Record<string, number>;
    const all = Object.values(ops).reduce((a, b) => a + b, 0);
    out.push(`${file.includes('/engine-') ? 'Engine requests (IPC round trips)' : 'Socket calls'} while profiled: ${(all / statements).toFixed(2)} per statement — ${Object.entries(ops).map(([k, v]) => `${k} ${(v / statements).toFixed(2)}`).join(', ')}`);
    out.push('');
  }
  out.push(`Top ${top} frames by self time (share of busy):`);
  out.push('');
  for (const [k, ms] of [...selfByKey].filter(([k]) => !k.startsWith('(idle)')).sort((a, b) => b[1] - a[1]).slice(0, top)) {
    out.push(`- ${pct(ms)} ${k}`);
  }
  out.push('');
  out.push(`Top ${top} lakegate frames by inclusive time (share of busy):`);
  out.push('');
  for (const [k, ms] of [...inclByKey].filter(([k]) => /^\S+ (server|protocol|sql|policy|pgcatalog|catalog|bin)\//.test(k)).sort((a, b) => b[1] - a[1]).slice(0, top)) {
    out.push(`- ${pct(ms)} ${k}`);
  }
  out.push('');
  return out.join('\n');
}

const dir = arg('dir');
const statements = Number(arg('statements', '0'));
const top = Number(arg('top', '15'));
const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')).sort();
if (files.length === 0) {
  console.log(`no .cpuprofile in ${dir}`);
  process.exit(1);
}
for (const f of files) console.log(summarize(join(dir, f), statements, top));
