/**
 * Where audit events go. Writing an event never waits: the line sink hands it
 * to pino's asynchronous destination (bounded: beyond `maxBufferBytes` lines
 * are dropped and counted), the HTTP sink puts it in a bounded queue that one
 * background request at a time drains in batches. A slow or dead destination
 * costs dropped events, counted and logged, never a slower query.
 */
import pino, { type Logger } from 'pino';
import type { AuthzAuditEvent } from './event.js';

export interface AuditSink {
  write(e: AuthzAuditEvent): void;
  /** Events this sink had to drop so far. */
  readonly dropped: number;
  close(): Promise<void>;
}

/** Logs dropped events at most once per interval, with the running total. */
class DropReporter {
  private lastLog = 0;
  constructor(
    private readonly log: Logger,
    private readonly sink: string,
    private readonly everyMs = 10_000,
  ) {}

  report(total: number, why: string): void {
    const now = Date.now();
    if (now - this.lastLog < this.everyMs) return;
    this.lastLog = now;
    this.log.warn({ event: 'audit-dropped', sink: this.sink, dropped: total, why }, 'audit events dropped');
  }
}

/** JSON lines through pino's asynchronous destination (sonic-boom), to stdout or a file; each line is one event and nothing else. */
export class LineSink implements AuditSink {
  private readonly dest: pino.DestinationStream & {
    end?(): void;
    flush?(cb?: (e?: Error) => void): void;
    on?(ev: string, fn: () => void): void;
    once?(ev: string, fn: () => void): void;
  };
  private readonly isStdout: boolean;
  private drops = 0;
  private readonly reporter: DropReporter;

  constructor(target: { file: string } | { fd: 1 }, log: Logger, maxBufferBytes = 16 * 1024 * 1024) {
    this.isStdout = !('file' in target);
    const where = 'file' in target ? { dest: target.file, mkdir: true } : { dest: 1 };
    this.dest = pino.destination({ ...where, sync: false, maxLength: maxBufferBytes }) as LineSink['dest'];
    this.reporter = new DropReporter(log, 'file' in target ? 'file' : 'stdout');
    this.dest.on?.('drop', () => {
      this.drops++;
      this.reporter.report(this.drops, 'the destination is not keeping up');
    });
  }

  get dropped(): number {
    return this.drops;
  }

  write(e: AuthzAuditEvent): void {
    this.dest.write(`${JSON.stringify(e)}\n`);
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      if (this.isStdout) {
        // stdout stays open for whoever else writes there; only what is buffered is written out.
        this.dest.flush?.(() => resolve());
        return;
      }
      this.dest.once?.('close', () => resolve());
      this.dest.end?.();
    });
  }}

export interface HttpSinkOptions {
  url: string;
  batchSize: number;
  flushMs: number;
  maxQueue: number;
  headers?: Record<string, string>;
  /** A request that takes longer is abandoned (its batch is queued again while there is room). */
  timeoutMs: number;
}

/**
 * Batches POSTed as a JSON array of events. At most one request is in
 * flight; a failed batch goes back to the front of the queue if there is
 * room, else it is dropped (counted).
 */
export class HttpBatchSink implements AuditSink {
  private queue: AuthzAuditEvent[] = [];
  private inFlight: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private drops = 0;
  private closed = false;
  private backoffMs = 0;
  /** Batches the sink accepted (2xx), for tests and metrics. */
  sent = 0;
  private readonly reporter: DropReporter;

  constructor(
    private readonly opts: HttpSinkOptions,
    private readonly log: Logger,
  ) {
    this.reporter = new DropReporter(log, 'http');
  }

  get dropped(): number {
    return this.drops;
  }

  get queued(): number {
    return this.queue.length;
  }

  write(e: AuthzAuditEvent): void {
    if (this.closed) return;
    if (this.queue.length >= this.opts.maxQueue) {
      this.drop(1, 'the queue is full');
      return;
    }
    this.queue.push(e);
    if (this.queue.length >= this.opts.batchSize) this.kick();
    else this.arm();
  }

  private drop(n: number, why: string): void {
    this.drops += n;
    this.reporter.report(this.drops, why);
  }

  private arm(): void {
    if (this.timer || this.inFlight) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.kick();
    }, this.backoffMs || this.opts.flushMs);
    this.timer.unref();
  }

  private kick(): void {
    if (this.inFlight || this.queue.length === 0) return;
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const batch = this.queue.splice(0, this.opts.batchSize);
    this.inFlight = this.post(batch).then((ok) => {
      this.inFlight = null;
      if (this.closed) return;
      // After a failure the next attempt waits (flushMs, doubling up to a minute): a failing sink is not hammered.
      this.backoffMs = ok ? 0 : Math.min(60_000, Math.max(this.opts.flushMs, this.backoffMs * 2));
      if (ok && this.queue.length >= this.opts.batchSize) this.kick();
      else if (this.queue.length > 0) this.arm();
    });
  }

  private async post(batch: AuthzAuditEvent[]): Promise<boolean> {
    try {
      const res = await fetch(this.opts.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(this.opts.headers ?? {}) },
        body: JSON.stringify(batch),
        signal: AbortSignal.timeout(this.opts.timeoutMs),
      });
      await res.body?.cancel().catch(() => undefined);
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      this.sent++;
      return true;
    } catch (e) {
      const room = this.opts.maxQueue - this.queue.length;
      const keep = this.closed ? 0 : Math.max(0, Math.min(room, batch.length));
      if (keep > 0) this.queue.unshift(...batch.slice(0, keep));
      if (batch.length > keep) this.drop(batch.length - keep, `the sink failed: ${(e as Error).message}`);
      else this.log.debug({ event: 'audit-sink-retry', err: (e as Error).message }, 'audit batch queued again');
      return false;
    }
  }

  /** One last attempt for what is queued, bounded by the request timeout. */
  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.inFlight;
    this.closed = true;
    const rest = this.queue;
    this.queue = [];
    for (let i = 0; i < rest.length; i += this.opts.batchSize) {
      if (!(await this.post(rest.slice(i, i + this.opts.batchSize)))) {
        this.drop(rest.length - i - Math.min(this.opts.batchSize, rest.length - i), 'the sink failed at shutdown');
        break;
      }
    }
  }
}
