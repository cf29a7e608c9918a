/**
 * lakegate's side of the policy-engine benchmark: loads each generated bundle with
 * parseServicePolicies + new PolicyEngine, then for access, mask and row-filter requests
 * runs a warm-up and a timed loop on one thread. Prints one JSON line per figure, and writes
 * every request's decision to `decisions-lakegate-N.txt` (compared with Ranger's by ranger.sh).
 *
 * usage: node --import tsx bench/ranger/lakegate.ts --dir DIR --policies 10,1000,10000
 *          [--warmup-ms 1000] [--measure-ms 2000] [--loads 5]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PolicyEngine } from '../../policy/ranger/engine.js';
import { parseRangerRoles, parseServicePolicies } from '../../policy/ranger/model.js';
import type { AccessRequest } from '../../policy/ranger/request.js';
import { RoleStore } from '../../policy/ranger/roles.js';
import type { BenchRequest } from './generate.js';

type Kind = BenchRequest['kind'];
const KINDS: Kind[] = ['access', 'mask', 'rowfilter'];

function arg(name: string, dflt: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1]! : dflt;
}

const dir = arg('dir', 'bench/out/ranger');
const counts = arg('policies', '10,1000,10000').split(',').map(Number);
const warmupMs = Number(arg('warmup-ms', '1000'));
const measureMs = Number(arg('measure-ms', '2000'));
const loads = Number(arg('loads', '5'));

const roles = new RoleStore(parseRangerRoles(JSON.parse(readFileSync(join(dir, 'roles.json'), 'utf8')), 'roles.json'));

/** Two configurations: as deployed (decision cache on), and every decision computed afresh. */
const VARIANTS = [
  { engine: 'lakegate', cacheSize: undefined },
  { engine: 'lakegate-uncached', cacheSize: 0 },
] as const;

function load(text: string, cacheSize: number | undefined): PolicyEngine {
  return new PolicyEngine(parseServicePolicies(JSON.parse(text), 'bench'), { roles, ...(cacheSize === undefined ? {} : { decisionCacheSize: cacheSize }) });
}

const decide: Record<Kind, (e: PolicyEngine, r: AccessRequest) => string> = {
  access: (e, r) => {
    const a = e.isAccessAllowed(r);
    return `${a.isAllowed ? 'allow' : 'deny'}:${a.policyId}`;
  },
  mask: (e, r) => {
    const m = e.evalDataMask(r);
    return `${m.maskType ?? '-'}:${m.policyId}`;
  },
  rowfilter: (e, r) => {
    const f = e.evalRowFilter(r);
    return `${f.filterExpr ?? '-'}:${f.policyId}`;
  },
};

/** The hot loops call the engine directly; `sink` keeps the results alive. */
let sink = 0;
const run: Record<Kind, (e: PolicyEngine, rs: readonly AccessRequest[]) => void> = {
  access: (e, rs) => {
    for (let i = 0; i < rs.length; i++) sink += e.isAccessAllowed(rs[i]!).policyId;
  },
  mask: (e, rs) => {
    for (let i = 0; i < rs.length; i++) sink += e.evalDataMask(rs[i]!).policyId;
  },
  rowfilter: (e, rs) => {
    for (let i = 0; i < rs.length; i++) sink += e.evalRowFilter(rs[i]!).policyId;
  },
};

const single: Record<Kind, (e: PolicyEngine, r: AccessRequest) => number> = {
  access: (e, r) => e.isAccessAllowed(r).policyId,
  mask: (e, r) => e.evalDataMask(r).policyId,
  rowfilter: (e, r) => e.evalRowFilter(r).policyId,
};

function percentile(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

let engineLabel = 'lakegate';
function emit(o: Record<string, unknown>): void {
  console.log(JSON.stringify({ engine: engineLabel, ...o }));
}

for (const variant of VARIANTS)
for (const n of counts) {
  engineLabel = variant.engine;
  const text = readFileSync(join(dir, `policies-${n}.json`), 'utf8');
  // Load + index: JSON parse, model validation, compile and index; first (cold) and median of the rest.
  const times: number[] = [];
  let engine: PolicyEngine | null = null;
  for (let i = 0; i < loads; i++) {
    const t0 = process.hrtime.bigint();
    engine = load(text, variant.cacheSize);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  const rest = times.slice(1).sort((a, b) => a - b);
  emit({ policies: n, kind: 'load', firstMs: times[0], medianMs: rest.length ? rest[Math.floor(rest.length / 2)] : times[0] });
  const e = engine!;

  const all = JSON.parse(readFileSync(join(dir, `requests-${n}.json`), 'utf8')) as BenchRequest[];
  const decisions: string[] = [];
  for (const kind of KINDS) {
    const reqs: AccessRequest[] = all
      .filter((r) => r.kind === kind)
      .map((r) => ({ resource: r.resource, accessType: r.accessType, user: r.user, userGroups: new Set(r.groups) }));
    for (const r of reqs) decisions.push(`${kind} ${decide[kind](e, r)}`);

    const loop = run[kind];
    let t0 = performance.now();
    while (performance.now() - t0 < warmupMs) loop(e, reqs);
    let done = 0;
    t0 = performance.now();
    let elapsed = 0;
    do {
      loop(e, reqs);
      done += reqs.length;
      elapsed = performance.now() - t0;
    } while (elapsed < measureMs);
    const perSec = (done / elapsed) * 1000;

    // Per-decision latency: each call timed on its own (includes the clock's own cost).
    const samples = new Float64Array(Math.max(reqs.length, Math.min(200_000, Math.round(perSec / 4))));
    const one = single[kind];
    for (let i = 0; i < samples.length; i++) {
      const r = reqs[i % reqs.length]!;
      const s = process.hrtime.bigint();
      sink += one(e, r);
      samples[i] = Number(process.hrtime.bigint() - s);
    }
    samples.sort();
    emit({ policies: n, kind, requests: reqs.length, decisions: done, perSec, p50ns: percentile(samples, 0.5), p99ns: percentile(samples, 0.99) });
  }
  writeFileSync(join(dir, `decisions-${variant.engine}-${n}.txt`), decisions.join('\n') + '\n');
}
if (sink === 0.5) console.error(sink);
