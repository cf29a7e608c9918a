/**
 * One engine process as the gateway sees it: spawned with its DuckDB
 * configuration, called request by request over the IPC channel, and
 * watched. When it dies every request it had not answered fails with
 * EngineLostError, whatever the cause (an abort inside DuckDB, the memory
 * watchdog, a kill), and the gateway goes on.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import type { Answer, Answers, EngineStart, Request } from './messages.js';
import { errorFromWire } from './wire.js';

/** The engine process a statement ran on is gone: the statement's work is lost with it. */
export class EngineLostError extends Error {
  constructor(
    readonly why: string,
    /** The gateway ended it because it held more memory than allowed (not a crash). */
    readonly outOfMemory = false,
  ) {
    super(`the query engine stopped unexpectedly (${why})`);
    this.name = 'EngineLostError';
  }
}

interface Waiting {
  resolve(v: unknown): void;
  reject(e: Error): void;
}

/** The child's entry: child.js next to this module once built; the TypeScript source (through tsx) under the test runner. */
function childEntry(): { file: string; execArgv: string[] } {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith('.ts')) return { file: here.replace(/process\.ts$/, 'child.ts'), execArgv: ['--import', 'tsx'] };
  return { file: here.replace(/process\.js$/, 'child.js'), execArgv: [] };
}

let generation = 0;

export interface SpawnOptions {
  /** libuv's thread pool in the engine process: every DuckDB call holds one thread until it returns. */
  threadpoolSize: number;
  log: Logger;
}

export class EngineProcess {
  /** A number unique in this gateway, for logs and for caches kept per engine. */
  readonly id = ++generation;
  /** Set once the process is gone; every later request fails with it. */
  lost: EngineLostError | null = null;
  /** Resolves when the process has exited. */
  readonly exited: Promise<void>;
  private readonly waiting = new Map<number, Waiting>();
  private nextRequest = 1;
  private stopping = false;
  private killedForMemory = false;
  /** The last lines it wrote to stderr: what DuckDB printed before an abort. */
  private readonly stderrTail: string[] = [];

  private constructor(
    private readonly child: ChildProcess,
    private readonly log: Logger,
  ) {
    child.on('message', (a: Answer) => this.settle(a));
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) => {
      for (const line of text.split('\n')) {
        if (line.trim() === '') continue;
        this.stderrTail.push(line);
        if (this.stderrTail.length > 20) this.stderrTail.shift();
        this.log.warn({ engine: this.id, pid: child.pid, stderr: line }, 'engine process wrote to stderr');
      }
    });
    this.exited = new Promise((resolve) => {
      child.on('exit', (code, signal) => {
        const why = signal ? `signal ${signal}` : `exit code ${code}`;
        this.lost = new EngineLostError(this.stopping ? 'stopped by the gateway' : this.killedForMemory ? 'killed: its memory stayed past its bound' : why, this.killedForMemory);
        if (!this.stopping) this.log.error({ engine: this.id, pid: child.pid, code, signal, stderr: this.stderrTail }, 'engine process died');
        for (const w of this.waiting.values()) w.reject(this.lost);
        this.waiting.clear();
        resolve();
      });
    });
    // A failed spawn also ends in 'exit' (or never starts): the pending start request fails there.
    child.on('error', (e) => this.log.error({ engine: this.id, err: e }, 'engine process error'));
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Start a process and its DuckDB instance; resolves once it answers, hardened unless start.allowedDirectories is null. */
  static async spawn(start: EngineStart, opts: SpawnOptions): Promise<EngineProcess> {
    const entry = childEntry();
    const child = fork(entry.file, [], {
      execArgv: entry.execArgv,
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
      env: { ...process.env, UV_THREADPOOL_SIZE: String(opts.threadpoolSize) },
    });
    const proc = new EngineProcess(child, opts.log);
    try {
      await proc.call({ op: 'start', start });
    } catch (e) {
      proc.stop();
      throw e;
    }
    return proc;
  }

  call<K extends Request['op']>(req: Extract<Request, { op: K }>): Promise<Answers[K]> {
    if (this.lost) return Promise.reject(this.lost);
    const id = this.nextRequest++;
    return new Promise<Answers[K]>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      try {
        this.child.send({ ...req, id });
      } catch (e) {
        this.waiting.delete(id);
        reject(this.lost ?? (e as Error));
      }
    });
  }

  /** A request whose answer nobody waits for (interrupt, close): failures are of no interest. */
  tell(req: Request): void {
    this.call(req as Extract<Request, { op: typeof req.op }>).catch(() => undefined);
  }

  private settle(a: Answer): void {
    const w = this.waiting.get(a.id);
    if (!w) return;
    this.waiting.delete(a.id);
    if (a.ok) w.resolve(a.value);
    else w.reject(errorFromWire(a.error));
  }

  /** Resident memory in bytes (Linux /proc), or null when it cannot be read. */
  async rss(): Promise<number | null> {
    if (this.lost || this.child.pid === undefined) return null;
    try {
      const statm = await readFile(`/proc/${this.child.pid}/statm`, 'utf8');
      return Number(statm.split(' ')[1]) * 4096;
    } catch {
      return null;
    }
  }

  /** End the process (its statements fail with EngineLostError). */
  stop(): void {
    this.stopping = true;
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }

  /** The memory watchdog ends it: its statements fail with 53200, logged as a death, not a stop. */
  killForMemory(): void {
    this.killedForMemory = true;
    this.child.kill('SIGKILL');
  }
}
