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
  /** Resident memory of the gateway process, in bytes (/proc/PID/status VmRSS). */
  rssBytes(): number;
  /** User + system CPU time the process has used, in ms (/proc/PID/stat). */
  cpuMs(): number;
  stop(): Promise<void>;
}

const CLOCK_TICK_MS = 10; // USER_HZ is 100 on Linux

export async function startServe(overrides: Record<string, unknown> = {}, opts: { dir?: string; timeoutMs?: number } = {}): Promise<ServedGateway> {
  if (!fs.existsSync(LAKEGATE_BIN)) throw new Error(`${LAKEGATE_BIN} is missing: build lakegate first (npm run build)`);
  const dir = opts.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'lakegate-serve-'));
  const port = await freePort();
  const base = await demoConfig({ host: '127.0.0.1', port, dataDir: path.join(dir, 'data') });
  const configFile = path.join(dir, 'config.json');
  fs.writeFileSync(configFile, JSON.stringify({ ...base, port, ...overrides }));
  // Through the package's launcher, as `npx lakegate serve` runs: it sizes libuv's thread pool.
  const child: ChildProcess = spawn(process.execPath, [path.join(REPO_ROOT, 'bin', 'lakegate.cjs'), 'serve', '--config', configFile], {
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
    rssBytes: () => {
      const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
    },
    cpuMs: () => {
      // Fields after the command name (which may hold spaces): utime is the 14th field, stime the 15th.
      const stat = fs.readFileSync(`/proc/${child.pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return (Number(fields[11]) + Number(fields[12])) * CLOCK_TICK_MS;
    },
    stop: async () => {
      if (alive()) {
        child.kill('SIGKILL');
        await exited;
      }
      if (!opts.dir) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
