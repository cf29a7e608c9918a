/**
 * Hostile sessions beside normal ones (bench/README.md, "Hostile sessions"):
 * M normal sessions (alice) run `select 1` and a small query on the Iceberg
 * table, and a login every 200 ms, for the whole run; meanwhile each attack
 * runs in turn from a process of its own — the statements of issue 11
 * (tests/support/hostileFlood.mjs) and the attacks of issue 18
 * (bench/lib/attack.ts) — with quiet phases first and last. Each phase reports
 * the normal sessions' latency and errors, the attack's outcome and the
 * server's memory. The same is done against a throwaway PostgreSQL (a process
 * per connection, the same rows in sales.orders, the same users) as the
 * reference.
 *
 *   npx tsx bench/hostile.ts [--normal 4] [--hostile 1,4] [--seconds 10]
 *     [--attacks flood,oom,repeat,crossjoin,idle,lockout,missing] [--missing-names 100000]
 *     [--targets lakegate,postgres]
 *   npx tsx bench/hostile.ts --render bench/out/hostile-<UTC>   # its report again, from results.json
 *
 * Needs dist/ built (npm run build) and PostgreSQL's server binaries.
 * Writes bench/out/hostile-<UTC>/report.md and results.json.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { REPO_ROOT } from '../tests/support/lakegate.js';
import { descendants, startServe } from '../tests/support/lakegateServe.js';
import { startPostgres } from '../tests/support/realPostgres.js';
import type { AttackName, AttackReport, AttackSpec, Login } from './lib/attack.js';
import { procStatusKb } from './lib/util.js';

const { values } = parseArgs({
  options: {
    normal: { type: 'string', default: '4' },
    hostile: { type: 'string', default: '1,4' },
    seconds: { type: 'string', default: '10' },
    attacks: { type: 'string', default: 'flood,oom,repeat,crossjoin,idle,lockout,missing' },
    'missing-names': { type: 'string', default: '100000' },
    targets: { type: 'string', default: 'lakegate,postgres' },
    render: { type: 'string' },
  },
});
const NORMAL = Number(values.normal);
const HOSTILE = values.hostile!.split(',').map(Number);
const SECONDS = Number(values.seconds);
const ATTACKS = values.attacks!.split(',');
const MISSING_NAMES = Number(values['missing-names']);
const TARGETS = values.targets!.split(',');

/** The normal workload: a round trip, a small read of the Iceberg table, and logins. */
const SELECT_1 = 'select 1';
const TABLE_QUERY = 'select count(*), sum(amount) from sales.orders';
const LOGIN_EVERY_MS = 200;
type Kind = 'select 1' | 'table' | 'login';

interface Target {
  name: 'lakegate' | 'PostgreSQL';
  host: string;
  port: number;
  database: string;
  normal: Login;
  attacker: Login;
  victim: Login;
  /** The server's root process (lakegate's gateway, PostgreSQL's postmaster); its descendants are the engines / backends. */
  rootPid: number;
  /** lakegate's log so far. */
  output?: () => string;
  /** CPU time the server's processes have used, ms (lakegate only). */
  cpuMs?: () => number;
}

interface Sample {
  kind: Kind;
  ms: number;
  code?: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const codeOf = (e: unknown): string => (e as { code?: string }).code ?? 'no SQLSTATE';

/** The normal users' sessions, kept for the whole run; a lost session is made again (each failed attempt a login error). */
class NormalLoad {
  private samples: Sample[] = [];
  private running = true;
  private readonly loops: Promise<void>[] = [];

  constructor(private readonly t: Target) {}

  private async open(): Promise<pg.Client> {
    const c = new pg.Client({ host: this.t.host, port: this.t.port, database: this.t.database, user: this.t.normal.user, password: this.t.normal.password });
    c.on('error', () => undefined);
    await c.connect();
    return c;
  }

  private async login(): Promise<pg.Client | null> {
    const start = performance.now();
    try {
      const c = await this.open();
      this.samples.push({ kind: 'login', ms: performance.now() - start });
      return c;
    } catch (e) {
      this.samples.push({ kind: 'login', ms: performance.now() - start, code: codeOf(e) });
      return null;
    }
  }

  async start(sessions: number): Promise<void> {
    const clients = await Promise.all(Array.from({ length: sessions }, () => this.open()));
    clients.forEach((first, k) => this.loops.push(this.session(first, k)));
    this.loops.push(this.logins());
  }

  private async session(first: pg.Client, k: number): Promise<void> {
    let c: pg.Client | null = first;
    for (let i = k; this.running; i++) {
      if (!c) {
        c = await this.login();
        if (!c) {
          await sleep(200);
          continue;
        }
      }
      const kind: Kind = i % 2 ? 'table' : 'select 1';
      const start = performance.now();
      try {
        await c.query(kind === 'table' ? TABLE_QUERY : SELECT_1);
        this.samples.push({ kind, ms: performance.now() - start });
      } catch (e) {
        const code = codeOf(e);
        this.samples.push({ kind, ms: performance.now() - start, code });
        if (code === 'no SQLSTATE' || code.startsWith('57P') || code.startsWith('08')) {
          await c.end().catch(() => undefined);
          c = null;
        }
      }
      await sleep(10);
    }
    await c?.end().catch(() => undefined);
  }

  private async logins(): Promise<void> {
    while (this.running) {
      const c = await this.login();
      await c?.end().catch(() => undefined);
      await sleep(LOGIN_EVERY_MS);
    }
  }

  /** The samples since the last take. */
  take(): Sample[] {
    const s = this.samples;
    this.samples = [];
    return s;
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }
}

/** Resident memory of a process tree (/proc VmRSS), summed; the tree is re-read once a second. */
class MemorySampler {
  private pids: number[] = [];
  private scannedAt = 0;
  private timer: NodeJS.Timeout | null = null;
  peakTotal = 0;
  peakRoot = 0;

  constructor(private readonly root: number) {}

  sample(): { total: number; root: number } {
    if (Date.now() - this.scannedAt > 1000) {
      this.pids = [this.root, ...descendants(this.root)];
      this.scannedAt = Date.now();
    }
    let total = 0;
    for (const pid of this.pids) {
      const kb = procStatusKb(pid, 'VmRSS');
      if (Number.isFinite(kb)) total += kb * 1024;
    }
    const root = procStatusKb(this.root, 'VmRSS') * 1024;
    this.peakTotal = Math.max(this.peakTotal, total);
    this.peakRoot = Math.max(this.peakRoot, root);
    return { total, root };
  }

  /** Sample every `ms` from now on, the peaks counted afresh. */
  restart(ms: number): void {
    this.stop();
    this.peakTotal = 0;
    this.peakRoot = 0;
    this.sample();
    this.timer = setInterval(() => this.sample(), ms);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

interface Stats {
  n: number;
  p50: number;
  p99: number;
  max: number;
  errors: Record<string, number>;
}

interface EngineEvents {
  /** Engine processes that died (an abort, a signal). */
  died: number;
  /** Engine processes the memory watchdog killed. */
  killed: number;
  /** Times the watchdog stopped an engine's statements. */
  stopped: number;
  /** Engine processes assigned to the attacker (the first, and one after each death). */
  attackerEngines: number;
}

interface PhaseResult {
  target: string;
  phase: string;
  attack: string | null;
  select1: Stats;
  table: Stats;
  login: Stats;
  /** select 1 and the table query together. */
  queries: Stats;
  report?: AttackReport | FloodReport;
  memory: { peakTotalMb: number; peakRootMb: number; beforeRootMb: number; afterRootMb: number; beforeTotalMb: number; afterTotalMb: number };
  engine?: EngineEvents;
  serverCpuMs?: number;
}

interface FloodReport {
  statements: number;
  errors: Record<string, number>;
  bad: string[];
}

const MB = 2 ** 20;
const q = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};

function stats(samples: Sample[]): Stats {
  const ok = samples.filter((s) => !s.code).map((s) => s.ms);
  const errors: Record<string, number> = {};
  for (const s of samples) if (s.code) errors[s.code] = (errors[s.code] ?? 0) + 1;
  return { n: samples.length, p50: q(ok, 50), p99: q(ok, 99), max: ok.length ? Math.max(...ok) : NaN, errors };
}

function engineEvents(log: string, attacker: string): EngineEvents {
  const lines = log.split('\n');
  const has = (text: string) => lines.filter((l) => l.includes(text)).length;
  return {
    died: has('"msg":"engine process died"'),
    killed: has('engine process killed'),
    stopped: has('statements stopped: engine memory past its bound'),
    attackerEngines: lines.filter((l) => l.includes('"event":"engine-assigned"') && l.includes(`"user":"${attacker}"`)).length,
  };
}

/** A child process running one attack; `onStarted` once it says the attack is under way. */
function runAttack(t: Target, attack: AttackName, onStarted: () => void): Promise<AttackReport> {
  const spec: AttackSpec = { attack, host: t.host, port: t.port, database: t.database, attacker: t.attacker, victim: t.victim, seconds: SECONDS, missingNames: MISSING_NAMES };
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'bench', 'lib', 'attack.ts'), JSON.stringify(spec)], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString('utf8');
    if (out.includes('{"started":true}\n')) {
      out = out.replace('{"started":true}\n', '');
      onStarted();
    }
  });
  return new Promise((resolve, reject) =>
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as AttackReport) : reject(new Error(`attack ${attack} exited with ${code}: ${out}`)))),
  );
}

function runFlood(t: Target, sessions: number, onStarted: () => void): Promise<FloodReport> {
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'tests', 'support', 'hostileFlood.mjs'), t.host, String(t.port), String(SECONDS + 1), String(sessions)], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, FLOOD_USER: t.attacker.user, FLOOD_PASSWORD: t.attacker.password, FLOOD_DATABASE: t.database },
  });
  // the flood is under way after its logins
  setTimeout(onStarted, 1000);
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
  return new Promise((resolve, reject) =>
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as FloodReport) : reject(new Error(`hostileFlood exited with ${code}: ${out}`)))),
  );
}

/** The memory attacks are sampled every 100 ms, the others every 500 ms. */
const SAMPLE_MS: Record<string, number> = { oom: 100, repeat: 100, missing: 500 };

async function phase(
  t: Target,
  load: NormalLoad,
  mem: MemorySampler,
  name: string,
  attack: string | null,
  run: (onStarted: () => void) => Promise<AttackReport | FloodReport | undefined>,
): Promise<PhaseResult> {
  let before = mem.sample();
  let logFrom = t.output?.().length ?? 0;
  let cpuFrom = t.cpuMs?.();
  const onStarted = () => {
    load.take();
    mem.restart(SAMPLE_MS[attack ?? ''] ?? 500);
    before = mem.sample();
    logFrom = t.output?.().length ?? 0;
    cpuFrom = t.cpuMs?.();
  };
  const report = await run(onStarted);
  const samples = load.take();
  const after = mem.sample();
  mem.stop();
  const result: PhaseResult = {
    target: t.name,
    phase: name,
    attack,
    select1: stats(samples.filter((s) => s.kind === 'select 1')),
    table: stats(samples.filter((s) => s.kind === 'table')),
    login: stats(samples.filter((s) => s.kind === 'login')),
    queries: stats(samples.filter((s) => s.kind !== 'login')),
    ...(report ? { report } : {}),
    memory: {
      peakTotalMb: mem.peakTotal / MB,
      peakRootMb: mem.peakRoot / MB,
      beforeRootMb: before.root / MB,
      afterRootMb: after.root / MB,
      beforeTotalMb: before.total / MB,
      afterTotalMb: after.total / MB,
    },
    ...(t.output ? { engine: engineEvents(t.output().slice(logFrom), t.attacker.user) } : {}),
    ...(t.cpuMs && cpuFrom !== undefined ? { serverCpuMs: t.cpuMs() - cpuFrom } : {}),
  };
  console.log(JSON.stringify(result));
  return result;
}

const quiet = () => async (onStarted: () => void) => {
  onStarted();
  await sleep(SECONDS * 1000);
  return undefined;
};

async function measure(t: Target): Promise<PhaseResult[]> {
  const load = new NormalLoad(t);
  const mem = new MemorySampler(t.rootPid);
  await load.start(NORMAL);
  // warm-up: first connections, caches, the normal user's engine
  await sleep(2000);
  load.take();
  const phases: PhaseResult[] = [];
  try {
    phases.push(await phase(t, load, mem, 'quiet', null, quiet()));
    if (ATTACKS.includes('flood')) {
      for (const n of HOSTILE) {
        const r = await phase(t, load, mem, `beside ${n} flooding session${n > 1 ? 's' : ''} (issue 11)`, 'flood', (started) => runFlood(t, n, started));
        if ((r.report as FloodReport).bad.length) throw new Error(`hostile sessions broke: ${(r.report as FloodReport).bad.join('; ')}`);
        phases.push(r);
      }
    }
    const named: [AttackName, string][] = [
      ['oom', 'the OOM query (string_agg of 20 M × 1,000 bytes)'],
      ['repeat', "four 1 GB strings (repeat('x', 999999999))"],
      ['crossjoin', 'four long cross joins of one user'],
      ['idle', 'dave opens 200 idle sessions'],
      ['lockout', '12 wrong passwords for erin, then erin from another address'],
      ['missing', `${MISSING_NAMES.toLocaleString('en-US')} distinct missing names`],
    ];
    for (const [attack, label] of named) {
      if (ATTACKS.includes(attack)) phases.push(await phase(t, load, mem, label, attack, (started) => runAttack(t, attack, started)));
    }
    phases.push(await phase(t, load, mem, 'quiet again', null, quiet()));
  } finally {
    await load.stop();
  }
  return phases;
}

/** The demo's users and rows, in a throwaway PostgreSQL that accepts SCRAM logins from every loopback address (lockout needs two). */
async function startReference() {
  const hbaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lakegate-bench-hba-'));
  fs.chmodSync(hbaDir, 0o755);
  const hbaFile = path.join(hbaDir, 'pg_hba.conf');
  fs.writeFileSync(hbaFile, 'local all all trust\nhost all all 127.0.0.0/8 scram-sha-256\n', { mode: 0o644 });
  // PostgreSQL's shipped defaults where the test helper lowers them
  const reference = await startPostgres({
    hostAuth: { method: 'scram-sha-256', password: 'bench' },
    settings: [`hba_file = '${hbaFile}'`, 'max_connections = 100', "shared_buffers = '128MB'"],
  });
  const admin = new pg.Client({ host: reference.host, port: reference.port, user: 'postgres', password: 'bench', database: 'postgres' });
  await admin.connect();
  const backend = (await admin.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
  const stat = fs.readFileSync(`/proc/${backend}/stat`, 'utf8');
  const postmaster = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  for (const user of ['alice', 'dave', 'erin']) await admin.query(`create role ${user} login password '${user}'`);
  await admin.query(`create schema sales;
    create table sales.orders (id integer, ssn varchar, amount decimal(10,2), region varchar);
    insert into sales.orders values (1, '111-11-1111', 100.00, 'EU'), (2, '222-22-2222', 250.50, 'US');
    grant usage on schema sales to alice, dave, erin;
    grant select on sales.orders to alice, erin`);
  await admin.end();
  return {
    reference,
    postmaster,
    stop: async () => {
      await reference.stop();
      fs.rmSync(hbaDir, { recursive: true, force: true });
    },
  };
}

interface RunMeta {
  startedAt: string;
  normalSessions: number;
  seconds: number;
  missingNames: number;
  /** os.loadavg() at the start and the end of the run. */
  load: { start: number[]; end: number[] };
}

const ms = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '–');
const mb = (x: number) => `${Math.round(x)}`;
const ratio = (a: number, b: number) => (Number.isFinite(a / b) ? `${(a / b).toFixed(2)}×` : '–');
const codes = (m: Record<string, number> | undefined) =>
  m && Object.keys(m).length ? Object.entries(m).map(([k, v]) => `${k} ×${v}`).join(', ') : '';

function outcome(r: PhaseResult): string {
  const rep = r.report;
  const e = r.engine;
  const engine = e ? `; engine processes: ${e.died} died, ${e.killed} killed by the watchdog, statements stopped by it ${e.stopped}×, an engine assigned to dave ${e.attackerEngines}×` : '';
  const peak = `peak RSS ${mb(r.memory.peakTotalMb)} MB${r.target === 'lakegate' ? ' (gateway + engines)' : ' (postmaster + backends)'}`;
  if (!rep) return peak;
  if (r.attack === 'flood') {
    const f = rep as FloodReport;
    return `${f.statements} statements (${codes(f.errors)})`;
  }
  const a = rep as AttackReport;
  const sent = `${a.statements} sent in ${a.seconds.toFixed(1)} s: ${codes(a.outcomes)}${a.reconnects ? `, ${a.reconnects} reconnects` : ''}`;
  switch (a.attack) {
    case 'oom':
    case 'repeat':
      return `${sent}; ${peak}${engine}`;
    case 'crossjoin':
      return `${sent}${engine}`;
    case 'idle':
      return `dave holds ${a.held} of 200 (${codes(a.outcomes)})`;
    case 'lockout': {
      const wrong = a.attackerAnswersMs ?? [];
      const victim = a.victimLoginsMs ?? [];
      return `12 wrong passwords at once from 127.0.0.2 answered in ${ms(Math.min(...wrong))}–${ms(Math.max(...wrong))} ms (${codes(a.outcomes)}); then erin from 127.0.0.3 every 200 ms: ${codes(a.victimOutcomes)}, p50 ${ms(q(victim, 50))} ms, p99 ${ms(q(victim, 99))} ms; erin's right password from 127.0.0.2 afterwards: ${a.victimFromAttackerAddress}`;
    }
    case 'missing': {
      const m = r.memory;
      return r.target === 'lakegate'
        ? `${sent}; gateway RSS ${mb(m.beforeRootMb)} MB before, ${mb(m.peakRootMb)} MB at the peak, ${mb(m.afterRootMb)} MB after`
        : `${sent}; postmaster + backends RSS ${mb(m.beforeTotalMb)} MB before, ${mb(m.peakTotalMb)} MB at the peak, ${mb(m.afterTotalMb)} MB after (the attacker's backends end with the attack)`;
    }
  }
}

function render(meta: RunMeta, results: PhaseResult[]): string {
  const baseline = (target: string) => {
    const quietPhases = results.filter((r) => r.target === target && r.attack === null);
    const mean = (f: (r: PhaseResult) => number) => quietPhases.reduce((a, r) => a + f(r), 0) / quietPhases.length;
    return { p50: mean((r) => r.queries.p50), p99: mean((r) => r.queries.p99) };
  };
  const load = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(' ');
  const lines = [
    `# Hostile sessions beside normal ones — ${meta.startedAt}`,
    '',
    `${meta.normalSessions} normal sessions of alice (\`${SELECT_1}\` and \`${TABLE_QUERY}\`, alternating, 10 ms apart) and a login of alice every ${LOGIN_EVERY_MS} ms, through the whole run; each attack from a process of its own, ${meta.seconds} s where it is not bounded by its own work. Ratios are against the mean of the two quiet phases of the same target, and lakegate's against PostgreSQL's in the same phase. Load average ${load(meta.load.start)} at the start, ${load(meta.load.end)} at the end (2 shared cores).`,
    '',
    '| target | phase | `select 1` p50 / p99 ms | table query p50 / p99 ms | login p50 / p99 ms | normal errors (queries; logins) | queries p50 / p99 ÷ quiet | lakegate ÷ PostgreSQL p50 / p99 |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const r of results) {
    const base = baseline(r.target);
    const pgPhase = results.find((p) => p.target === 'PostgreSQL' && p.phase === r.phase);
    const vsPg = r.target === 'lakegate' && pgPhase ? `${ratio(r.queries.p50, pgPhase.queries.p50)} / ${ratio(r.queries.p99, pgPhase.queries.p99)}` : '';
    lines.push(
      `| ${r.target} | ${r.phase} | ${ms(r.select1.p50)} / ${ms(r.select1.p99)} | ${ms(r.table.p50)} / ${ms(r.table.p99)} | ${ms(r.login.p50)} / ${ms(r.login.p99)} | ${codes(r.queries.errors) || '0'}; ${codes(r.login.errors) || '0'} | ${ratio(r.queries.p50, base.p50)} / ${ratio(r.queries.p99, base.p99)} | ${vsPg} |`,
    );
  }
  lines.push('', '| target | phase | what the attack got |', '|---|---|---|');
  for (const r of results) lines.push(`| ${r.target} | ${r.phase} | ${outcome(r)} |`);
  return lines.join('\n');
}

function write(dir: string, meta: RunMeta, phases: PhaseResult[]): void {
  const report = render(meta, phases);
  fs.writeFileSync(path.join(dir, 'report.md'), `${report}\n`);
  fs.writeFileSync(path.join(dir, 'results.json'), JSON.stringify({ meta, phases }, null, 2));
  console.log(`\n${report}\n\nwritten to ${path.relative(REPO_ROOT, dir)}`);
}

if (values.render) {
  // the report of an earlier run again, from its results.json
  const { meta, phases } = JSON.parse(fs.readFileSync(path.join(values.render, 'results.json'), 'utf8')) as { meta: RunMeta; phases: PhaseResult[] };
  write(values.render, meta, phases);
} else {
  const users = { normal: { user: 'alice', password: 'alice' }, attacker: { user: 'dave', password: 'dave' }, victim: { user: 'erin', password: 'erin' } };
  const out = path.join(REPO_ROOT, 'bench', 'out', `hostile-${new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, 'Z')}`);
  fs.mkdirSync(out, { recursive: true });
  const meta: RunMeta = { startedAt: new Date().toISOString(), normalSessions: NORMAL, seconds: SECONDS, missingNames: MISSING_NAMES, load: { start: os.loadavg(), end: [] } };
  const results: PhaseResult[] = [];
  if (TARGETS.includes('lakegate')) {
    // as the container starts it (node dist/bin/lakegate.js), engines bounded as in the issue (4 GiB, half of it per user)
    const gateway = await startServe({ engine: { memoryLimit: '4GiB' } }, { entry: 'js' });
    try {
      results.push(
        ...(await measure({ name: 'lakegate', host: gateway.host, port: gateway.port, database: 'demo', ...users, rootPid: gateway.pid, output: gateway.output, cpuMs: gateway.cpuMs })),
      );
    } finally {
      await gateway.stop();
    }
  }
  if (TARGETS.includes('postgres')) {
    const ref = await startReference();
    try {
      results.push(...(await measure({ name: 'PostgreSQL', host: ref.reference.host, port: ref.reference.port, database: 'postgres', ...users, rootPid: ref.postmaster })));
    } finally {
      await ref.stop();
    }
  }
  meta.load.end = os.loadavg();
  write(out, meta, results);
}
