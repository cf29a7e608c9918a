/**
 * `lakegate serve --config FILE` from dist/ with the demo's data, users and
 * policies plus test overrides (limits, memory, timeouts), as its own process:
 * the hostile-input suites need a gateway whose event loop, thread pool,
 * memory and signals are not the test runner's. Exposes the process id for
 * /proc measurements (RSS, CPU time) and signals.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { demoConfig } from '../../server/demo.js';
import { freePort, LAKEGATE_BIN, REPO_ROOT } from './lakegate.js';

export interface ServedGateway {
  host: string;
  port: number;
  pid: number;
  dir: string;
  /** Everything the process wrote so far (stdout + stderr: the pino log). */
  output(): string;
  alive(): boolean;
  /** Resolves with the exit code or signal once the process has ended. */
  exited(): Promise<string>;
  signal(sig: NodeJS.Signals): void;
  /** Resident memory of the gateway and its engine processes, in bytes (/proc/PID/status VmRSS). */
  rssBytes(): number;
  /** User + system CPU time the gateway and its engine processes have used, in ms (/proc/PID/stat; exited engines included). */
  cpuMs(): number;
  /** The engine processes (children of the gateway) now running. */
  enginePids(): number[];
  /** Resident memory of the gateway process alone, and of each engine process, in bytes. */
  rssByProcess(): { gateway: number; engines: number[] };
  stop(): Promise<void>;
}

const CLOCK_TICK_MS = 10; // USER_HZ is 100 on Linux

/** /proc/PID/stat's fields after the command name (which may hold spaces): [0] is the state, [1] the parent pid, [11] utime … */
function statFields(pid: number): string[] | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

function rssOf(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** Every live process below `root` (the engine processes of a gateway). */
export function descendants(root: number): number[] {
  const parent = new Map<number, number>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const f = statFields(Number(name));
    if (f && f[0] !== 'Z') parent.set(Number(name), Number(f[1]));
  }
  const out: number[] = [];
  const walk = (pid: number) => {
    for (const [child, p] of parent) if (p === pid) {
      out.push(child);
      walk(child);
    }
  };
  walk(root);
  return out;
}

/**
 * `entry`: `cjs` starts the package's launcher (bin/lakegate.cjs, as `npx lakegate serve`
 * does), `js` the built module itself (`node dist/bin/lakegate.js`, as the container does).
 */
export async function startServe(overrides: Record<string, unknown> = {}, opts: { dir?: string; timeoutMs?: number; entry?: 'cjs' | 'js' } = {}): Promise<ServedGateway> {
  if (!fs.existsSync(LAKEGATE_BIN)) throw new Error(`${LAKEGATE_BIN} is missing: build lakegate first (npm run build)`);
  const dir = opts.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'lakegate-serve-'));
  const port = await freePort();
  const base = await demoConfig({ host: '127.0.0.1', port, dataDir: path.join(dir, 'data') });
  const configFile = path.join(dir, 'config.json');
  // The per-statement log is off unless a suite asks for it (`ops`): the flood suites' output is kept in memory.
  fs.writeFileSync(configFile, JSON.stringify({ ...base, ops: { ...base.ops, statementLog: false }, port, ...overrides }));
  const entry = opts.entry === 'js' ? path.join(REPO_ROOT, 'dist', 'bin', 'lakegate.js') : path.join(REPO_ROOT, 'bin', 'lakegate.cjs');
  const child: ChildProcess = spawn(process.execPath, [entry, 'serve', '--config', configFile], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_OPTIONS: '', LAKEGATE_LOG_LEVEL: 'info' },
  });
  const reap = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  process.once('exit', reap);
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString('utf8')));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString('utf8')));
  const exited = new Promise<string>((resolve) =>
    child.once('exit', (code, sig) => {
      process.removeListener('exit', reap);
      resolve(sig ?? String(code));
    }),
  );
  const ready = `listening on 127.0.0.1:${port}`;
  const deadline = Date.now() + (opts.timeoutMs ?? 60000);
  while (!out.includes(ready)) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`lakegate serve exited before it was ready:\n${out}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`lakegate serve did not print "${ready}":\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const alive = () => child.exitCode === null && child.signalCode === null;
  return {
    host: '127.0.0.1',
    port,
    pid: child.pid!,
    dir,
    output: () => out,
    alive,
    exited: () => exited,
    signal: (sig) => child.kill(sig),
    rssBytes: () => [child.pid!, ...descendants(child.pid!)].reduce((sum, pid) => sum + rssOf(pid), 0),
    cpuMs: () => {
      // The gateway's own time and its exited children's (cutime, cstime), then each live engine's.
      const own = statFields(child.pid!);
      const base = own ? Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]) : 0;
      return (base + descendants(child.pid!).reduce((sum, pid) => {
        const f = statFields(pid);
        return sum + (f ? Number(f[11]) + Number(f[12]) : 0);
      }, 0)) * CLOCK_TICK_MS;
    },
    enginePids: () => descendants(child.pid!),
    rssByProcess: () => ({ gateway: rssOf(child.pid!), engines: descendants(child.pid!).map(rssOf) }),
    stop: async () => {
      if (alive()) {
        child.kill('SIGKILL');
        await exited;
      }
      if (!opts.dir) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
