/**
 * A bound query's portal (Execute): the rows it has left to give, streamed
 * from the engine batch by batch with back-pressure and row limits. Its
 * statement is server/queryStatement.ts; the session's table of portals,
 * server/portals.ts.
 */
import * as be from '../protocol/backend.js';
import { PgError, SqlState } from '../protocol/errors.js';
import type { Output } from '../protocol/handler.js';
import type { MessageWriter } from '../protocol/writer.js';
import type { PgField } from './rows/api.js';
import { dataRowText } from './textResult.js';
import type { EngineConnection, EnginePrepared, EngineResult } from './engine/connection.js';
import type { Batch, Encoding } from './engine/messages.js';
import type { WireParam } from './engine/wire.js';

/**
 * Where a portal's DataRows go when they are not sent as they are: COPY
 * turns each one into a CopyData message. The portal puts each batch into
 * `scratch` and calls `drain`.
 */
export interface RowSink {
  readonly scratch: MessageWriter;
  drain(out: MessageWriter): void;
}

/** How a portal's rows are encoded in the given result formats (a cursor's FETCH picks its own); null encoding for EXPLAIN. */
export type EncoderFactory = (formats: number[]) => { fields: PgField[]; encoding: Encoding | null };

/**
 * A bound query: the rows it has left to give, on the connection it runs on.
 * The engine process encodes them; the portal moves the batches to the
 * client with back-pressure.
 */
export class Portal {
  /** Set once the portal was suspended and keeps its connection for itself. */
  ownsConnection = false;
  private result: EngineResult | null = null;
  private exhausted = false;

  constructor(
    readonly conn: EngineConnection,
    private readonly prepared: EnginePrepared,
    /** The parameter values, as the engine binds them (a SCROLL cursor binds them to its spool too). */
    readonly params: WireParam[],
    public fields: PgField[],
    private encoding: Encoding | null,
    private readonly encoderFor?: EncoderFactory,
    /** The statement's engine SQL (a SCROLL cursor spools its result with it: server/scrollCursor.ts). */
    readonly sql = '',
  ) {}

  /** How rows are encoded in the current result formats (null for EXPLAIN). */
  currentEncoding(): Encoding | null {
    return this.encoding;
  }

  /** The RowDescription fields in the given result formats. */
  fieldsFor(formats: number[]): PgField[] {
    return this.encoderFor ? this.encoderFor(formats).fields : this.fields;
  }

  /** Encode the rows still to come in other result formats (FETCH through the extended protocol). */
  async reformat(formats: number[]): Promise<void> {
    if (!this.encoderFor) return;
    ({ fields: this.fields, encoding: this.encoding } = this.encoderFor(formats));
    if (this.result && this.encoding) await this.result.reformat(this.encoding);
  }

  /** Write up to maxRows rows (0 = all); returns true when the result is exhausted. */
  async run(maxRows: number, out: Output): Promise<boolean> {
    if (!this.encoding) return this.runExplain(out);
    const { sent, done } = await this.stream(maxRows, out);
    // PostgreSQL suspends even when the limit lands exactly on the last row.
    if (done) be.commandComplete(out.writer, `SELECT ${sent}`);
    else be.portalSuspended(out.writer);
    return done;
  }

  /**
   * Write (or, with `skip`, only count) up to maxRows DataRows (0 = all),
   * batch by batch, flushing with back-pressure; no completion message.
   * `done`: the result has no more rows.
   */
  async stream(maxRows: number, out: Output, opts: { skip?: boolean; sink?: RowSink } = {}): Promise<{ sent: number; done: boolean }> {
    if (this.exhausted) return { sent: 0, done: true };
    if (!this.encoding && !opts.skip) throw new PgError(SqlState.featureNotSupported, 'EXPLAIN output cannot be fetched this way');
    const limit = maxRows > 0 ? maxRows : Infinity;
    const skip = opts.skip ?? false;
    let sent = 0;
    for (;;) {
      if (sent >= limit) return { sent, done: false };
      const want = limit === Infinity ? 0 : limit - sent;
      const batch = await this.next(want, skip);
      if (batch.data) {
        if (opts.sink) {
          opts.sink.scratch.bytes(batch.data);
          opts.sink.drain(out.writer);
        } else out.writer.bytes(batch.data);
      }
      sent += batch.rows;
      if (batch.done) {
        this.exhausted = true;
        return { sent, done: true };
      }
      await out.maybeFlush();
    }
  }

  /** The next batch: the first one starts the statement in the same round trip. */
  private async next(maxRows: number, skip: boolean): Promise<Batch> {
    if (this.result) return this.result.fetch(maxRows, skip);
    const { result, batch } = await this.conn.execute({ stmt: this.prepared }, this.params, this.encoding, { maxRows, skip });
    this.result = result;
    return batch!;
  }

  /** DuckDB's EXPLAIN gives (key, plan text); PostgreSQL gives one text line per row. */
  private async runExplain(out: Output): Promise<boolean> {
    const { result } = await this.conn.execute({ stmt: this.prepared }, this.params, null);
    this.result = result;
    for (const row of await result.readAll()) {
      for (const line of String(row[1] ?? '').split('\n')) {
        if (line.trim() !== '') dataRowText(out.writer, [line]);
      }
    }
    be.commandComplete(out.writer, 'EXPLAIN');
    return true;
  }

  close(): void {
    this.result?.close();
    this.result = null;
  }
}
