/**
 * A server process for tests: spawned in its own process group with its output in a
 * log file, ready when a probe says so, stopped by signalling the whole group (a
 * wrapper script and the JVM or daemon it starts go together). A test run that dies
 * before stop() leaves nothing behind: the group is killed on process exit.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';

export interface ServiceProcessOptions {
  /** For messages: "Iceberg REST server", "SeaweedFS". */
  name: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Output of the process (appended). */
  logFile: string;
  /** Resolves true once the service answers; errors count as "not yet". */
  ready: () => Promise<boolean>;
  timeoutMs: number;
}

export interface ServiceProcess {
  pid: number;
  logFile: string;
  /** Milliseconds from spawn to ready. */
  startupMs: number;
  /** SIGTERM to the group, SIGKILL after `graceMs` (default 10 s); resolves once the group is gone. */
  stop(graceMs?: number): Promise<void>;
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function tailOf(file: string, lines = 40): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/** Spawns the process and waits until it is ready; on exit or timeout it is killed and the promise rejects with its log. */
export async function startServiceProcess(o: ServiceProcessOptions): Promise<ServiceProcess> {
  const fd = openSync(o.logFile, 'a');
  let child: ChildProcess;
  try {
    child = spawn(o.command, o.args, { cwd: o.cwd, env: o.env ?? process.env, detached: true, stdio: ['ignore', fd, fd] });
  } finally {
    closeSync(fd);
  }
  const t0 = Date.now();
  let exitInfo: string | undefined;
  const exited = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exitInfo = `exited with ${code ?? signal}`;
      resolve();
    });
    child.once('error', (err) => {
      exitInfo = `could not be spawned: ${err.message}`;
      resolve();
    });
  });
  const pgid = child.pid;
  const killSync = (): void => {
    if (pgid !== undefined && groupAlive(pgid)) {
      try {
        process.kill(-pgid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  };
  process.on('exit', killSync);

  const stop = async (graceMs = 10_000): Promise<void> => {
    process.off('exit', killSync);
    if (pgid === undefined) return;
    if (groupAlive(pgid)) {
      try {
        process.kill(-pgid, 'SIGTERM');
      } catch {
        // gone meanwhile
      }
    }
    const deadline = Date.now() + graceMs;
    while (groupAlive(pgid) && Date.now() < deadline) await sleep(50);
    if (groupAlive(pgid)) {
      killSync();
      while (groupAlive(pgid)) await sleep(50);
    }
    await exited;
  };

  for (;;) {
    if (exitInfo) break;
    if (await o.ready().catch(() => false)) {
      return { pid: pgid!, logFile: o.logFile, startupMs: Date.now() - t0, stop };
    }
    if (Date.now() - t0 > o.timeoutMs) break;
    await sleep(200);
  }
  const why = exitInfo ? `${o.name} ${exitInfo}` : `${o.name} was not ready within ${o.timeoutMs} ms`;
  await stop(2_000);
  throw new Error(`${why} (log ${o.logFile}):\n${tailOf(o.logFile)}`);
}

/** GET url → true on the wanted status (the body is drained). */
export async function answers(url: string, status = 200, init: RequestInit = {}): Promise<boolean> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(3_000) });
  await res.arrayBuffer();
  return res.status === status;
}
