/**
 * Hostile sessions beside normal ones (bench/README.md, "Hostile sessions"):
 * M normal sessions run short queries for S seconds, first alone, then beside
 * N hostile sessions (tests/support/hostileFlood.mjs, in their own process),
 * then alone again; the normal sessions' latency under attack is reported as
 * a ratio to the runs without. The same is done against a throwaway
 * PostgreSQL as the reference (a process per connection).
 *
 *   npx tsx bench/hostile.ts [--normal 4] [--hostile 1,4] [--seconds 10]
 *
 * Needs dist/ built (npm run build) and PostgreSQL's server binaries.
 * Writes bench/out/hostile-<UTC>/report.md and results.json.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { REPO_ROOT } from '../tests/support/lakegate.js';
import { startServe } from '../tests/support/lakegateServe.js';
import { startPostgres } from '../tests/support/realPostgres.js';

const { values } = parseArgs({
  options: {
    normal: { type: 'string', default: '4' },
    hostile: { type: 'string', default: '1,4' },
    seconds: { type: 'string', default: '10' },
  },
});
const NORMAL = Number(values.normal);
const HOSTILE = values.hostile!.split(',').map(Number);
const SECONDS = Number(values.seconds);

interface Target {
  name: string;
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
  /** CPU time the server has used so far, ms (lakegate: its process; PostgreSQL: not measured). */
  cpuMs?: () => number;
}

/** The normal workload: a round trip, and a small query that reads and aggregates. */
const NORMAL_QUERIES = ['select 1', 'select count(*), sum(i) from generate_series(1, 1000) as s(i)'];

interface Phase {
  target: string;
  phase: string;
  hostileSessions: number;
  queries: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  hostileStatements?: number;
  hostileErrors?: Record<string, number>;
  serverCpuMs?: number;
}

const q = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};

async function normalLoad(t: Target, seconds: number): Promise<number[]> {
  const clients = await Promise.all(
    Array.from({ length: NORMAL }, async () => {
      const c = new pg.Client({ host: t.host, port: t.port, user: t.user, password: t.password, database: t.database });
      await c.connect();
      return c;
    }),
  );
  const latencies: number[] = [];
  const until = Date.now() + seconds * 1000;
  await Promise.all(
    clients.map(async (c, k) => {
      for (let i = k; Date.now() < until; i++) {
        const start = performance.now();
        await c.query(NORMAL_QUERIES[i % NORMAL_QUERIES.length]!);
        latencies.push(performance.now() - start);
        await new Promise((r) => setTimeout(r, 10));
      }
    }),
  );
  await Promise.all(clients.map((c) => c.end()));
  return latencies;
}

function flood(t: Target, sessions: number, seconds: number): Promise<{ statements: number; errors: Record<string, number>; bad: string[] }> {
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'tests', 'support', 'hostileFlood.mjs'), t.host, String(t.port), String(seconds), String(sessions)], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, FLOOD_USER: t.user, FLOOD_PASSWORD: t.password, FLOOD_DATABASE: t.database },
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
  return new Promise((resolve, reject) =>
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`hostileFlood exited with ${code}: ${out}`)))),
  );
}

async function measure(t: Target): Promise<Phase[]> {
  const phases: Phase[] = [];
  const record = (phase: string, hostileSessions: number, lat: number[], extra: Partial<Phase> = {}) => {
    const p: Phase = { target: t.name, phase, hostileSessions, queries: lat.length, p50: q(lat, 50), p95: q(lat, 95), p99: q(lat, 99), max: Math.max(...lat), ...extra };
    phases.push(p);
    console.log(JSON.stringify(p));
  };
  record('alone', 0, await normalLoad(t, SECONDS));
  for (const n of HOSTILE) {
    const cpu0 = t.cpuMs?.();
    const attack = flood(t, n, SECONDS + 2);
    await new Promise((r) => setTimeout(r, 1000));
    const lat = await normalLoad(t, SECONDS);
    const report = await attack;
    if (report.bad.length) throw new Error(`hostile sessions broke: ${report.bad.join('; ')}`);
    record(`beside ${n} hostile`, n, lat, {
      hostileStatements: report.statements,
      hostileErrors: report.errors,
      serverCpuMs: cpu0 === undefined ? undefined : t.cpuMs!() - cpu0,
    });
  }
  record('alone again', 0, await normalLoad(t, SECONDS));
  return phases;
}

const out = path.join(REPO_ROOT, 'bench', 'out', `hostile-${new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, 'Z')}`);
fs.mkdirSync(out, { recursive: true });
const gateway = await startServe({});
const postgres = await startPostgres({ hostAuth: { method: 'scram-sha-256', password: 'bench' } });
const results: Phase[] = [];
try {
  results.push(
    ...(await measure({ name: 'lakegate', host: gateway.host, port: gateway.port, user: 'alice', password: 'alice', database: 'demo', cpuMs: gateway.cpuMs })),
  );
  results.push(...(await measure({ name: 'PostgreSQL', host: postgres.host, port: postgres.port, user: 'postgres', password: 'bench', database: 'postgres' })));
} finally {
  await gateway.stop();
  await postgres.stop();
}

const fmt = (x: number) => x.toFixed(1);
const lines = [
  `# Hostile sessions beside normal ones — ${new Date().toISOString()}`,
  '',
  `${NORMAL} normal sessions (${NORMAL_QUERIES.map((s) => `\`${s}\``).join(', ')}, alternating, 10 ms apart) for ${SECONDS} s per phase;`,
  'hostile sessions loop over tests/support/hostileFlood.mjs from their own process. Ratios are against the mean of the two "alone" phases of the same target (before and after), which also shows how much the machine itself drifted.',
  '',
  '| target | phase | normal queries | p50 ms | p95 ms | p99 ms | max ms | p50 ratio | p99 ratio | hostile statements | hostile errors |',
  '|---|---|---|---|---|---|---|---|---|---|---|',
];
for (const r of results) {
  const alone = results.filter((b) => b.target === r.target && b.hostileSessions === 0);
  const base = { p50: alone.reduce((a, b) => a + b.p50, 0) / alone.length, p99: alone.reduce((a, b) => a + b.p99, 0) / alone.length };
  lines.push(
    `| ${r.target} | ${r.phase} | ${r.queries} | ${fmt(r.p50)} | ${fmt(r.p95)} | ${fmt(r.p99)} | ${fmt(r.max)} | ${(r.p50 / base.p50).toFixed(2)} | ${(r.p99 / base.p99).toFixed(2)} | ${r.hostileStatements ?? ''} | ${r.hostileErrors ? Object.entries(r.hostileErrors).map(([k, v]) => `${k}×${v}`).join(' ') : ''} |`,
  );
}
const report = lines.join('\n');
fs.writeFileSync(path.join(out, 'report.md'), `${report}\n`);
fs.writeFileSync(path.join(out, 'results.json'), JSON.stringify(results, null, 2));
console.log(`\n${report}\n\nwritten to ${path.relative(REPO_ROOT, out)}`);
