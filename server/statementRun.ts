/**
 * One statement in progress, from its first message to its completion:
 * statement_timeout, CancelRequest, a client that hangs up and server
 * shutdown all stop it the same way, in whatever phase it is — parsing in a
 * worker (its signal aborts), planning (checked between steps), preparing or
 * executing in DuckDB (the connection is interrupted) — and the reason, not
 * whatever the interrupted step threw, decides the error the client sees.
 */
import { PgError, SqlState } from '../protocol/errors.js';
import type { EngineConnection } from './engine/connection.js';
import type { StatementSlots } from './statementSlots.js';

/** `memory`: the engine's memory watchdog stopped the user's statements (server/engine/pool.ts). */
export type StopReason = 'cancel' | 'timeout' | 'disconnect' | 'shutdown' | 'memory';

export class StatementRun {
  reason: StopReason | null = null;
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | null;
  /** The engine connection working for this statement right now. */
  private engine: EngineConnection | null = null;
  /** Engine steps in progress, and the user's statement slot they share (held only while one runs). */
  private steps = 0;
  private slot: Promise<void> | null = null;
  private releaseSlot: (() => void) | null = null;

  /** `slots`: the user's running-statement limit; a step waits for a slot, and a stop ends the wait. */
  constructor(
    timeoutMs: number,
    private readonly slots: StatementSlots | null = null,
  ) {
    this.timer = timeoutMs > 0 ? setTimeout(() => this.stop('timeout'), timeoutMs) : null;
    this.timer?.unref();
  }

  /** PostgreSQL's answer for each way a statement is stopped. */
  static errorFor(reason: StopReason): PgError {
    switch (reason) {
      case 'timeout':
        return new PgError(SqlState.queryCanceled, 'canceling statement due to statement timeout');
      case 'cancel':
        return new PgError(SqlState.queryCanceled, 'canceling statement due to user request');
      case 'disconnect':
        return new PgError(SqlState.connectionFailure, 'connection to client lost', { severity: 'FATAL' });
      case 'shutdown':
        return new PgError(SqlState.adminShutdown, 'terminating connection due to administrator command', { severity: 'FATAL' });
      case 'memory':
        return new PgError(SqlState.outOfMemory, 'out of memory', {
          detail: "The statements of this user held more memory than the gateway allows one user (engine.userMemoryLimit), or all users together held more than engine.memoryLimit.",
          hint: 'Narrow the query, or run fewer large statements at once.',
        });
    }
  }

  /** Aborted when the statement is stopped (for work off the event loop). */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  stop(reason: StopReason): void {
    if (this.reason) return;
    this.reason = reason;
    this.end();
    this.controller.abort(StatementRun.errorFor(reason));
    this.engine?.interrupt();
  }

  /** Throws the stop's error once the statement was stopped. */
  check(): void {
    if (this.reason) throw StatementRun.errorFor(this.reason);
  }

  /** Run a step that can be stopped through `signal`, and check afterwards. */
  async step<T>(work: () => Promise<T>): Promise<T> {
    this.check();
    const result = await work();
    this.check();
    return result;
  }

  /**
   * Run a step on an engine connection, which a stop interrupts. Checked
   * afterwards too: an interrupted stream can end without an error, and a
   * cut-short result must never be reported complete.
   */
  async inEngine<T>(conn: EngineConnection, work: () => Promise<T>): Promise<T> {
    this.check();
    await this.enterEngine();
    const previous = conn.stopper;
    const previousEngine = this.engine;
    try {
      this.check();
      this.engine = conn;
      conn.stopper = (reason) => this.stop(reason);
      const result = await work();
      this.check();
      return result;
    } finally {
      this.engine = previousEngine;
      conn.stopper = previous;
      this.leaveEngine();
    }
  }

  /** Takes the user's statement slot for the first step in progress; a step inside another shares it. */
  private async enterEngine(): Promise<void> {
    this.steps++;
    if (!this.slots) return;
    this.slot ??= this.slots.acquire(this.signal).then((release) => {
      this.releaseSlot = release;
    });
    try {
      await this.slot;
    } catch (e) {
      this.leaveEngine();
      throw e;
    }
  }

  private leaveEngine(): void {
    if (--this.steps > 0) return;
    this.slot = null;
    const release = this.releaseSlot;
    this.releaseSlot = null;
    release?.();
  }

  /** The statement is over: its timer stops. */
  end(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
