/**
 * Parsing query messages without stalling the event loop. A short message
 * is parsed inline (microseconds); a long one goes to a small pool of worker
 * threads (server/parseWorker.ts), which also hold it to the tree limits, so
 * the main thread only ever receives a tree of bounded size. A parse that is
 * cancelled or times out ends its worker (terminated, replaced on demand).
 *
 * A message is in one of two grammars: PostgreSQL's, or lakegate's own for
 * access control (GRANT / REVOKE / DENY / SHOW GRANTS / CHECK ACCESS / SET TAG
 * …, policy/admin), which libpg-query does not know. `grammarOf` decides
 * which, here and only here; the session then asks the router (router.ts)
 * what to do with each statement, never the text.
 */
import { Worker } from 'node:worker_threads';
import { PgError, SqlState, statementTooLong } from '../protocol/errors.js';
import { isAdminText, parseAdmin } from '../policy/admin/parse.js';
import type { AdminStatement } from '../policy/admin/statement.js';
import { SqlError } from '../sql/errors.js';
import type { TreeLimits } from '../sql/limits.js';
import { cachedParse, parseStatements, rememberParse, type ParsedStatement } from '../sql/parse.js';
import type { ParseAnswer, ParseJob } from './parseWorker.js';

/**
 * Messages up to this many characters are parsed on the event loop (tens of
 * microseconds); longer ones in a worker. Not more: a short text can still be
 * a deep tree (900 terms of 1+1+… are 1.8 kB and cost milliseconds to parse).
 */
export const INLINE_PARSE_CHARS = 1024;

export interface ParserOptions {
  limits: TreeLimits;
  /** Longest query message accepted, in UTF-8 bytes (54000 beyond). */
  maxStatementBytes: number;
  /** Messages up to this many characters are parsed on the calling thread. */
  inlineChars: number;
  /** Worker threads for longer messages. */
  workers: number;
}

/** Longest access-control message: they are short, and are parsed on the event loop. */
const MAX_ACCESS_CONTROL_CHARS = 16_384;

/** A statement of lakegate's access-control grammar, parsed (policy/admin/parse.ts). */
export interface AccessControlStatement {
  text: string;
  accessControl: AdminStatement;
}

/** One statement of a message, in either grammar. */
export type MessageStatement = ParsedStatement | AccessControlStatement;

export const isAccessControl = (stmt: MessageStatement): stmt is AccessControlStatement => 'accessControl' in stmt;

/**
 * The grammar a message is written in, from its first words (leading white
 * space and comments skipped): lakegate's access-control statements, or
 * PostgreSQL's. The one place a message's text is classified before parsing.
 */
export function grammarOf(text: string): 'accessControl' | 'postgres' {
  return isAdminText(text) ? 'accessControl' : 'postgres';
}

/**
 * An access-control message as its one statement; null where it is
 * PostgreSQL's after all (GRANT role TO user, GRANT on a sequence …: the
 * router refuses those as before).
 */
function parseAccessControl(text: string): AccessControlStatement | null {
  if (text.length > MAX_ACCESS_CONTROL_CHARS) {
    throw new PgError(SqlState.programLimitExceeded, `access-control statement is too long (at most ${MAX_ACCESS_CONTROL_CHARS} characters)`);
  }
  const statement = parseAdmin(text);
  return statement ? { text, accessControl: statement } : null;
}

interface Job {
  id: number;
  text: string;
  resolve(statements: ParsedStatement[]): void;
  reject(e: unknown): void;
  signal?: AbortSignal;
  onAbort?: () => void;
  worker?: PoolWorker;
  settled?: boolean;
}

interface PoolWorker {
  thread: Worker;
  ready: boolean;
  job: Job | null;
}

// Under the TypeScript sources (tests) the worker is loaded through tsx; the build runs its .js.
const fromSources = import.meta.url.endsWith('.ts');
const workerUrl = new URL(fromSources ? './parseWorker.ts' : './parseWorker.js', import.meta.url);

function spawn(): Worker {
  if (!fromSources) return new Worker(workerUrl);
  const boot = `import('tsx/esm/api').then((m) => { m.register(); return import(${JSON.stringify(workerUrl.href)}); })`;
  return new Worker(boot, { eval: true });
}

export class StatementParser {
  private readonly workers = new Set<PoolWorker>();
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly opts: ParserOptions) {}

  /**
   * The statements of one query message; rejects with a SqlError (or a
   * PgError for a message over a bound), or with the signal's reason when aborted.
   */
  parse(text: string, signal?: AbortSignal): Promise<MessageStatement[]> {
    if (grammarOf(text) === 'accessControl') {
      // Before the byte bound, as access-control messages have their own, smaller one.
      try {
        const statement = parseAccessControl(text);
        if (statement) return Promise.resolve([statement]);
      } catch (e) {
        return Promise.reject(e);
      }
    }
    return this.parsePostgres(text, signal);
  }

  /** A message in PostgreSQL's grammar: inline when short, else in a worker. */
  private parsePostgres(text: string, signal?: AbortSignal): Promise<ParsedStatement[]> {
    // At most 3 bytes per UTF-16 unit: most messages are decided without counting.
    if (text.length * 3 > this.opts.maxStatementBytes) {
      const bytes = Buffer.byteLength(text, 'utf8');
      if (bytes > this.opts.maxStatementBytes) return Promise.reject(statementTooLong(bytes, this.opts.maxStatementBytes));
    }
    if (text.length <= this.opts.inlineChars) {
      try {
        return Promise.resolve(parseStatements(text, this.opts.limits));
      } catch (e) {
        return Promise.reject(e);
      }
    }
    const seen = cachedParse(text, this.opts.limits);
    if (seen) return Promise.resolve(seen);
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<ParsedStatement[]>((resolve, reject) => {
      const remember = (statements: ParsedStatement[]) => {
        rememberParse(text, this.opts.limits, statements);
        resolve(statements);
      };
      const job: Job = { id: this.nextId++, text, resolve: remember, reject, signal };
      if (signal) {
        job.onAbort = () => this.abort(job);
        signal.addEventListener('abort', job.onAbort, { once: true });
      }
      this.queue.push(job);
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) this.settle(job, new Error('parser closed'));
    await Promise.all([...this.workers].map((w) => w.thread.terminate()));
    this.workers.clear();
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      let worker = [...this.workers].find((w) => w.ready && w.job === null);
      if (!worker) {
        if (this.workers.size >= this.opts.workers || this.closed) return;
        this.start();
        return; // it takes the next job once it says it is ready
      }
      const job = this.queue.shift()!;
      worker.job = job;
      job.worker = worker;
      const message: ParseJob = { id: job.id, text: job.text, limits: this.opts.limits };
      worker.thread.postMessage(message);
    }
  }

  private start(): void {
    const worker: PoolWorker = { thread: spawn(), ready: false, job: null };
    worker.thread.unref();
    this.workers.add(worker);
    worker.thread.on('message', (m: ParseAnswer | 'ready') => {
      if (m === 'ready') {
        worker.ready = true;
        this.dispatch();
        return;
      }
      const job = worker.job;
      worker.job = null;
      if (job && job.id === m.id) {
        if ('error' in m) {
          const { code, message, position, hint, internal } = m.error;
          this.settle(job, new SqlError(code, message, position, { hint, internal }));
        } else this.settle(job, null, m.statements);
      }
      this.dispatch();
    });
    const gone = (e: unknown) => {
      if (!this.workers.delete(worker)) return;
      if (worker.job) this.settle(worker.job, e instanceof Error ? e : new Error('parse worker stopped'));
      worker.job = null;
      this.dispatch();
    };
    worker.thread.on('error', gone);
    worker.thread.on('exit', () => gone(new Error('parse worker exited')));
  }

  /** A cancelled or timed-out parse: dequeue it, or end the worker running it. */
  private abort(job: Job): void {
    const queued = this.queue.indexOf(job);
    if (queued >= 0) this.queue.splice(queued, 1);
    const worker = job.worker;
    if (worker && worker.job === job) {
      worker.job = null;
      this.workers.delete(worker);
      void worker.thread.terminate();
      this.dispatch();
    }
    this.settle(job, job.signal!.reason);
  }

  private settle(job: Job, error: unknown, statements?: ParsedStatement[]): void {
    if (job.settled) return;
    job.settled = true;
    if (job.onAbort) job.signal!.removeEventListener('abort', job.onAbort);
    job.onAbort = undefined;
    if (statements) job.resolve(statements);
    else job.reject(error);
  }
}
