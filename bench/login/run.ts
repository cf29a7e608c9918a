/**
 * Login benchmark (bench/README.md, "Login"): the latency of a PostgreSQL login through
 * lakegate with a Keycloak password against a raw password-grant request to the same
 * Keycloak, sequential and 50 at a time, plus a login against the local users file on
 * the same build for the part that has nothing to do with Keycloak.
 *
 *   npx tsx bench/login/run.ts --gateway-root DIR --out DIR [--n 200] [--rounds 5]
 *        [--concurrency 50] [--warmup 50] [--block 1] [--cpu-prof]
 *
 * One Keycloak (tests/support/keycloak.ts, realm fixture realm-lakegate.json) and two
 * lakegate processes built from DIR (`node DIR/bin/lakegate.js serve --config FILE`, each
 * its own process, never this event loop): one with the `keycloak` section, one with the
 * demo users file and `localAuth: "password"`. The three targets are measured interleaved,
 * block by block and round by round, so load from other work on the machine hits them alike.
 * Everything is stopped on exit, failure, SIGINT or SIGTERM.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync, writeFileSync, copyFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { startKeycloak, KEYCLOAK_VERSION, REALM_FIXTURE, type KeycloakServer } from '../../tests/support/keycloak.js';
import { arg, percentile } from '../lib/util.js';

const GATEWAY_ROOT = resolve(arg('gateway-root'));
const OUT = resolve(arg('out'));
const N = Number(arg('n', '200'));
const ROUNDS = Number(arg('rounds', '5'));
const CONC = Number(arg('concurrency', '50'));
const WARMUP = Number(arg('warmup', '50'));
const BLOCK = Number(arg('block', '1'));
const CPU_PROF = process.argv.includes('--cpu-prof');
const COMMIT = arg('commit', '?');
const SEQ_USER = 'alice'; // in the realm fixture and in demo/users.json, password = name
const LOCAL_USERS = ['alice', 'bob', 'carol', 'dave', 'erin'];

mkdirSync(OUT, { recursive: true });
const say = (msg: string): void => {
  process.stderr.write(`[login ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);
};
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

// ------------------------------------------------------------------ cleanup
let kc: KeycloakServer | undefined;
const gateways: Gateway[] = [];
let cleaning: Promise<void> | undefined;
function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    await Promise.all(gateways.map((g) => g.stop()));
    if (kc) {
      try {
        copyFileSync(kc.logFile, join(OUT, 'keycloak.log'));
      } catch {
        // no log
      }
      await kc.dispose();
    }
  })();
  return cleaning;
}
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.once(sig, () => {
    say(`${sig}: stopping Keycloak and the gateways`);
    void cleanup().finally(() => process.exit(sig === 'SIGINT' ? 130 : 143));
  });
}

// ------------------------------------------------------------------ gateway process
interface Gateway {
  name: string;
  port: number;
  pid: number;
  stop(): Promise<void>;
}

async function startGateway(name: string, config: unknown): Promise<Gateway> {
  const configFile = join(OUT, `${name}.config.json`);
  writeFileSync(configFile, JSON.stringify(config, null, 2));
  const nodeArgs = CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${join(OUT, `${name}.cpuprofile`)}`] : [];
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, join(GATEWAY_ROOT, 'bin', 'lakegate.js'), 'serve', '--config', configFile], {
    cwd: GATEWAY_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LAKEGATE_LOG_LEVEL: process.env['LAKEGATE_LOG_LEVEL'] ?? 'info' },
  });
  const log = createWriteStream(join(OUT, `${name}.log`));
  child.stderr!.pipe(log);
  let exited: string | undefined;
  const gone = new Promise<void>((r) =>
    child.once('exit', (code, signal) => {
      exited = `exited with ${code ?? signal}`;
      r();
    }),
  );
  const port = await new Promise<number>((res, rej) => {
    let buf = '';
    const timer = setTimeout(() => rej(new Error(`${name}: no "listening" line within 60 s (see ${name}.log)`)), 60_000);
    child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      log.write(d);
      const m = /listening on [^\s:]+:(\d+)/.exec(buf);
      if (m) {
        clearTimeout(timer);
        res(Number(m[1]));
      }
    });
    void gone.then(() => {
      clearTimeout(timer);
      rej(new Error(`${name} ${exited} before listening (see ${name}.log)`));
    });
  });
  const g: Gateway = {
    name,
    port,
    pid: child.pid!,
    async stop() {
      if (exited) return;
      child.kill('SIGTERM'); // the CLI closes the server and exits 0 (the CPU profile is written then)
      const t = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await gone;
      clearTimeout(t);
    },
  };
  gateways.push(g);
  return g;
}

// ------------------------------------------------------------------ the three logins
type Login = (user: string) => Promise<void>;

function rawGrant(server: KeycloakServer): Login {
  return async (user) => {
    const res = await fetch(server.tokenEndpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'password',
        client_id: server.clientId,
        client_secret: server.clientSecret,
        username: user,
        password: user,
        scope: 'openid',
      }).toString(),
      signal: AbortSignal.timeout(30_000),
    });
    const body = (await res.json()) as { access_token?: string; error?: string };
    if (res.status !== 200 || !body.access_token) throw new Error(`raw grant for ${user}: ${res.status} ${body.error ?? ''}`);
  };
}

interface Target {
  key: 'raw' | 'keycloak' | 'local';
  label: string;
  login: Login;
  /** After the timed part (pg: end()). */
  settle: Login;
  /** The gateway process, whose CPU time is counted per phase. */
  pid?: number;
}

/** utime + stime of a process, ms (clock ticks of 10 ms). */
function cpuMs(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return NaN;
  }
}

/** Login latency = connect() until ReadyForQuery; end() follows outside the timed part. */
function timedPg(port: number): { login: Login; settle: Login } {
  const open = new Map<string, pg.Client[]>();
  return {
    login: async (user) => {
      const c = new pg.Client({ host: '127.0.0.1', port, user, password: user, database: 'demo', ssl: false, connectionTimeoutMillis: 30_000 });
      await c.connect();
      const list = open.get(user) ?? [];
      list.push(c);
      open.set(user, list);
    },
    settle: async (user) => {
      const c = open.get(user)?.shift();
      await c?.end();
    },
  };
}

async function timeOne(t: Target, user: string): Promise<number> {
  const t0 = performance.now();
  await t.login(user);
  const ms = performance.now() - t0;
  await t.settle(user);
  return ms;
}

/** `count` logins one after the other. */
async function sequential(t: Target, user: string, count: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i++) out.push(await timeOne(t, user));
  return out;
}

/** One round: `users.length` logins started together; per-login latency and wall time. */
async function round(t: Target, users: string[]): Promise<{ lat: number[]; wall: number }> {
  const t0 = performance.now();
  const lat = await Promise.all(
    users.map(async (u) => {
      const s = performance.now();
      await t.login(u);
      return performance.now() - s;
    }),
  );
  const wall = performance.now() - t0;
  await Promise.all(users.map((u) => t.settle(u)));
  return { lat, wall };
}

// ------------------------------------------------------------------ statistics
interface Stats {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  mean: number;
  min: number;
  max: number;
}
function stats(xs: number[]): Stats {
  const s = Float64Array.from(xs).sort();
  return {
    n: s.length,
    p50: percentile(s, 50),
    p95: percentile(s, 95),
    p99: percentile(s, 99),
    mean: xs.reduce((a, b) => a + b, 0) / xs.length,
    min: s[0] ?? NaN,
    max: s[s.length - 1] ?? NaN,
  };
}

// ------------------------------------------------------------------ main
async function createUsers(server: KeycloakServer, count: number): Promise<string[]> {
  const names = Array.from({ length: count }, (_, i) => `bench-${String(i).padStart(3, '0')}`);
  let token = await server.adminToken();
  let tokenAt = Date.now();
  for (const name of names) {
    if (Date.now() - tokenAt > 30_000) {
      token = await server.adminToken();
      tokenAt = Date.now();
    }
    const res = await fetch(`${server.url}/admin/realms/lakegate/users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        username: name,
        enabled: true,
        email: `${name}@lakegate.test`,
        emailVerified: true,
        firstName: 'Bench',
        lastName: name,
        groups: ['/data-team'],
        credentials: [{ type: 'password', value: name, temporary: false }],
        requiredActions: [],
      }),
      signal: AbortSignal.timeout(30_000),
    });
    if (res.status !== 201) throw new Error(`creating Keycloak user ${name}: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
  }
  return names;
}

async function main(): Promise<void> {
  const machine = {
    nproc: cpus().length,
    cpu: cpus()[0]?.model ?? '?',
    node: process.version,
    keycloak: KEYCLOAK_VERSION,
    commit: COMMIT,
    loadStart: loadavg().map((x) => x.toFixed(2)).join(' '),
    startedAt: new Date().toISOString(),
  };
  say(`starting Keycloak ${KEYCLOAK_VERSION} (realm ${REALM_FIXTURE.split('/').slice(-1)[0]})`);
  kc = await startKeycloak();
  say(`Keycloak up in ${kc.startupMs} ms at ${kc.url}`);
  const users = await createUsers(kc, CONC);
  say(`created ${users.length} Keycloak users via the admin REST API`);

  // The demo's Iceberg warehouse, seeded by the build under test.
  const demo = (await import(join(GATEWAY_ROOT, 'dist', 'server', 'demo.js'))) as { seedDemo(dir: string): Promise<{ warehouse: string; sqliteFile: string }> };
  const seeded = await demo.seedDemo(join(OUT, 'data'));
  const common = {
    host: '127.0.0.1',
    port: 0,
    catalog: {
      database: 'demo',
      source: {
        kind: 'embedded',
        sqliteFile: seeded.sqliteFile,
        warehouse: [seeded.warehouse],
        policies: { source: { kind: 'local', path: join(GATEWAY_ROOT, 'demo', 'polaris'), serviceName: 'polaris' } },
      },
    },
    ranger: { source: { kind: 'local', path: join(GATEWAY_ROOT, 'demo', 'ranger'), serviceName: 'lakehouse' } },
    throttle: { maxFailuresPerUserAddress: 1_000_000, maxFailuresPerAddress: 1_000_000, windowMs: 60_000, failureDelayMs: 0, maxTrackedKeys: 100_000 },
  };
  const gwKc = await startGateway('gateway-keycloak', {
    ...common,
    keycloak: {
      issuer: kc.issuer,
      clientId: kc.clientId,
      clientSecret: kc.clientSecret,
      scope: 'openid',
      usernameClaim: 'preferred_username',
      tokenRoles: false,
      groupsClaim: 'groups',
      timeoutMs: 30_000,
    },
  });
  const gwLocal = await startGateway('gateway-local', {
    ...common,
    usersFile: join(GATEWAY_ROOT, 'demo', 'users.json'),
    localAuth: 'password',
  });
  say(`gateways: keycloak on ${gwKc.port} (pid ${gwKc.pid}), local users on ${gwLocal.port} (pid ${gwLocal.pid})`);

  const none: Login = async () => undefined;
  const kcPg = timedPg(gwKc.port);
  const localPg = timedPg(gwLocal.port);
  const targets: Target[] = [
    { key: 'raw', label: 'Keycloak token endpoint, raw (fetch)', login: rawGrant(kc), settle: none },
    { key: 'keycloak', label: 'lakegate, Keycloak password (node-postgres)', ...kcPg, pid: gwKc.pid },
    { key: 'local', label: 'lakegate, local users file (node-postgres)', ...localPg, pid: gwLocal.pid },
  ];
  const concUsers = (t: Target): string[] =>
    t.key === 'local' ? Array.from({ length: CONC }, (_, i) => LOCAL_USERS[i % LOCAL_USERS.length]!) : users;

  say(`warm-up: ${WARMUP} sequential logins and one round of ${CONC} per target`);
  for (const t of targets) await sequential(t, SEQ_USER, WARMUP);
  for (const t of targets) await round(t, concUsers(t));
  for (const t of targets) for (const u of users.slice(0, 5)) if (t.key !== 'local') await timeOne(t, u);

  const seq: Record<string, number[]> = { raw: [], keycloak: [], local: [] };
  const cpu: Record<string, { seq: number; conc: number }> = { raw: { seq: 0, conc: 0 }, keycloak: { seq: 0, conc: 0 }, local: { seq: 0, conc: 0 } };
  say(`sequential: ${N} per target, interleaved ${BLOCK === 1 ? 'login by login' : `in blocks of ${BLOCK}`}`);
  for (let b = 0; seq['raw']!.length < N; b++) {
    const count = Math.min(BLOCK, N - seq['raw']!.length);
    // Rotate the order block by block so no target always follows another.
    const order = targets.map((_, i) => targets[(i + b) % targets.length]!);
    for (const t of order) {
      const c0 = cpuMs(t.pid);
      seq[t.key]!.push(...(await sequential(t, SEQ_USER, count)));
      cpu[t.key]!.seq += cpuMs(t.pid) - c0;
    }
  }

  const conc: Record<string, { lat: number[]; walls: number[] }> = { raw: { lat: [], walls: [] }, keycloak: { lat: [], walls: [] }, local: { lat: [], walls: [] } };
  say(`concurrent: ${ROUNDS} rounds of ${CONC} per target, interleaved`);
  for (let r = 0; r < ROUNDS; r++) {
    const order = targets.map((_, i) => targets[(i + r) % targets.length]!);
    for (const t of order) {
      await sleep(300);
      const c0 = cpuMs(t.pid);
      const { lat, wall } = await round(t, concUsers(t));
      cpu[t.key]!.conc += cpuMs(t.pid) - c0;
      conc[t.key]!.lat.push(...lat);
      conc[t.key]!.walls.push(wall);
    }
  }

  const gwRss = { keycloak: procRssMb(gwKc.pid), local: procRssMb(gwLocal.pid) };
  const result = {
    machine: { ...machine, loadEnd: loadavg().map((x) => x.toFixed(2)).join(' '), finishedAt: new Date().toISOString() },
    /** Sample i of every target ran in the same block (with --block 1: back to back), so kc[i] − raw[i] pairs them. */
    pairedSequential: pairedStats(seq['keycloak']!, seq['raw']!),
    pairedLocalVsRaw: pairedStats(seq['local']!, seq['raw']!),
    params: { n: N, rounds: ROUNDS, concurrency: CONC, warmup: WARMUP, block: BLOCK, seqUser: SEQ_USER, concUsers: { keycloak: CONC, local: LOCAL_USERS.length } },
    labels: Object.fromEntries(targets.map((t) => [t.key, t.label])),
    sequential: Object.fromEntries(Object.entries(seq).map(([k, v]) => [k, stats(v)])),
    concurrent: Object.fromEntries(Object.entries(conc).map(([k, v]) => [k, { ...stats(v.lat), walls: v.walls.map((w) => Math.round(w * 10) / 10) }])),
    gatewayRssMb: gwRss,
    /** Gateway CPU (user + system) per login, ms, including the session's end. */
    gatewayCpuMsPerLogin: {
      keycloak: { sequential: cpu['keycloak']!.seq / N, concurrent: cpu['keycloak']!.conc / (ROUNDS * CONC) },
      local: { sequential: cpu['local']!.seq / N, concurrent: cpu['local']!.conc / (ROUNDS * CONC) },
    },
    cpuProfile: CPU_PROF,
  };
  writeFileSync(join(OUT, 'results.json'), JSON.stringify(result, null, 2));
  writeFileSync(join(OUT, 'samples.json'), JSON.stringify({ sequential: seq, concurrent: conc }));
  await cleanup();
  process.stdout.write(report(result));
}

function pairedStats(a: number[], b: number[]): { p25: number; p50: number; p75: number; mean: number } {
  const d = Float64Array.from(a.map((x, i) => x - b[i]!)).sort();
  return { p25: percentile(d, 25), p50: percentile(d, 50), p75: percentile(d, 75), mean: d.reduce((x, y) => x + y, 0) / d.length };
}

function procRssMb(pid: number): number {
  try {
    const m = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : NaN;
  } catch {
    return NaN;
  }
}

type Result = {
  machine: Record<string, unknown>;
  params: { n: number; rounds: number; concurrency: number; warmup: number };
  sequential: Record<string, Stats>;
  concurrent: Record<string, Stats & { walls: number[] }>;
  gatewayCpuMsPerLogin: Record<string, { sequential: number; concurrent: number }>;
  gatewayRssMb: Record<string, number>;
  pairedSequential: { p25: number; p50: number; p75: number; mean: number };
};

function report(r: Result): string {
  const f = (x: number): string => x.toFixed(1);
  const lines: string[] = [];
  const row = (cells: (string | number)[]): void => void lines.push(`| ${cells.join(' | ')} |`);
  lines.push(`Machine: ${r.machine['nproc']} × ${r.machine['cpu']}, Node ${r.machine['node']}, Keycloak ${r.machine['keycloak']}, lakegate ${r.machine['commit']}`);
  lines.push(`Load average ${r.machine['loadStart']} at the start, ${r.machine['loadEnd']} at the end; ${r.machine['startedAt']} – ${r.machine['finishedAt']}`);
  lines.push('');
  row(['mode', 'login', 'n', 'p50 ms', 'p95 ms', 'p99 ms', 'round wall ms (median, max)']);
  row(['---', '---', '---', '---', '---', '---', '---']);
  const names: Record<string, string> = { raw: 'Keycloak token request, raw', keycloak: 'lakegate → Keycloak', local: 'lakegate, local users file' };
  for (const [mode, data] of [
    ['sequential', r.sequential],
    [`${r.params.concurrency} concurrent`, r.concurrent],
  ] as const) {
    for (const k of ['raw', 'keycloak', 'local']) {
      const s = data[k]!;
      const walls = 'walls' in s ? [...(s as { walls: number[] }).walls].sort((a, b) => a - b) : [];
      const wall = walls.length ? `${f(walls[walls.length >> 1]!)}, ${f(walls[walls.length - 1]!)}` : '';
      row([mode, names[k]!, s.n, f(s.p50), f(s.p95), f(s.p99), wall]);
    }
    const raw = data['raw']!;
    const lg = data['keycloak']!;
    row([mode, '**overhead** lakegate − raw', '', f(lg.p50 - raw.p50), f(lg.p95 - raw.p95), f(lg.p99 - raw.p99), '']);
    row([mode, 'ratio lakegate / raw', '', (lg.p50 / raw.p50).toFixed(2), (lg.p95 / raw.p95).toFixed(2), (lg.p99 / raw.p99).toFixed(2), '']);
  }
  lines.push('');
  const ps = r.pairedSequential;
  lines.push(
    `Sequential, paired login by login (lakegate → Keycloak minus the raw request next to it): median ${f(ps.p50)} ms, ` +
      `quartiles ${f(ps.p25)} / ${f(ps.p75)} ms, mean ${f(ps.mean)} ms.`,
  );
  const c = r.gatewayCpuMsPerLogin;
  lines.push(
    `Gateway CPU per login (user + system, session end included): Keycloak gateway ${c['keycloak']!.sequential.toFixed(2)} ms sequential, ` +
      `${c['keycloak']!.concurrent.toFixed(2)} ms concurrent; local-users gateway ${c['local']!.sequential.toFixed(2)} ms, ${c['local']!.concurrent.toFixed(2)} ms. ` +
      `Peak RSS: ${r.gatewayRssMb['keycloak']} MiB and ${r.gatewayRssMb['local']} MiB.`,
  );
  return lines.join('\n') + '\n';
}

main().then(
  () => process.exit(0),
  async (e: unknown) => {
    say(`FAILED: ${(e as Error).stack ?? String(e)}`);
    await cleanup().catch(() => undefined);
    process.exit(1);
  },
);
