/**
 * Start `lakegate demo` on a free loopback port with a temporary data dir, for
 * integration tests. Call stop() in afterAll.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const LAKEGATE_BIN = path.join(REPO_ROOT, 'dist', 'bin', 'lakegate.js');

export interface Lakegate {
  host: string;
  port: number;
  dataDir: string;
  /** Everything the process wrote so far (stdout + stderr), for failure messages. */
  output(): string;
  /** True while the server process is running. */
  alive(): boolean;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(t);
      resolve(true);
    });
  });
}

async function startOnce(port: number, timeoutMs: number, sharedDataDir?: string): Promise<Lakegate> {
  const dataDir = sharedDataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'lakegate-it-'));
  const child = spawn(process.execPath, [LAKEGATE_BIN, 'demo', '--port', String(port), '--data-dir', dataDir, '--ops-port', '0'], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  // never outlive the test process, even when Jest is killed or exits early
  const reap = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  process.once('exit', reap);
  child.once('exit', () => process.removeListener('exit', reap));
  let out = '';
  const ready = `listening on 127.0.0.1:${port}`;
  const lg: Lakegate = {
    host: '127.0.0.1',
    port,
    dataDir,
    output: () => out,
    alive: () => child.exitCode === null && child.signalCode === null,
    async stop() {
      if (lg.alive()) {
        child.kill('SIGTERM');
        if (!(await waitForExit(child, 5000))) {
          child.kill('SIGKILL');
          await waitForExit(child, 5000);
        }
      }
      // A data dir given by the caller is the caller's to remove.
      if (!sharedDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      fail(new Error(`lakegate demo did not print "${ready}" within ${timeoutMs} ms. Output:\n${out}`));
    }, timeoutMs);
    const onData = (d: Buffer) => {
      out += d.toString('utf8');
      if (out.includes(ready)) {
        clearTimeout(timer);
        child.removeListener('exit', onExit);
        resolve();
      }
    };
    const onExit = (code: number | null, sig: string | null) => {
      fail(new Error(`lakegate demo exited (code ${code}, signal ${sig}) before it was ready. Output:\n${out}`));
    };
    const fail = (e: Error) => {
      clearTimeout(timer);
      child.removeListener('exit', onExit);
      void lg.stop().then(() => reject(e));
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (d: Buffer) => {
      out += d.toString('utf8');
    });
    child.once('exit', onExit);
  });
  return lg;
}

/** Start the demo; fails loudly if dist/ has not been built. */
export async function startLakegate(opts: { timeoutMs?: number; dataDir?: string } = {}): Promise<Lakegate> {
  if (!fs.existsSync(LAKEGATE_BIN)) {
    throw new Error(
      `${LAKEGATE_BIN} is missing: build lakegate first (\`npm ci\` runs tsc through its prepare script, or \`npm run build\`)`,
    );
  }
  let lastErr: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    try {
      return await startOnce(port, opts.timeoutMs ?? 60000, opts.dataDir);
    } catch (e) {
      lastErr = e;
      // another process may have taken the port between freePort() and listen(): retry
      if (!/EADDRINUSE/.test(String(e))) throw e;
    }
  }
  throw lastErr;
}
