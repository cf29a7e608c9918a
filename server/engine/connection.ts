/**
 * A DuckDB connection in an engine process, as sessions use it: statements
 * run, prepared, executed and fetched by request, with the same calls the
 * gateway made on an in-process DuckDB connection. Every call fails with
 * EngineLostError once the process is gone.
 */
import type { DuckDBType } from '@duckdb/node-api';
import { DuckDBTypeId } from '@duckdb/node-api';
import type { DecodedParam } from '../rows/api.js';
import type { Batch, Encoding, PreparedInfo } from './messages.js';
import type { EngineProcess } from './process.js';
import { typeFromWire, typeToWire, valueToWire, type WireParam, type WireType } from './wire.js';

/** Why the gateway stops a statement from outside the session (the memory watchdog). */
export type EngineStop = 'memory';

export const wireParams = (values: readonly DecodedParam[]): WireParam[] =>
  values.map((v) => ({ value: valueToWire(v.value), type: typeToWire(v.type) }));

export class EngineConnection {
  private closed = false;
  /** Set while a statement works on this connection: how to stop it with a reason of the gateway's. */
  stopper: ((reason: EngineStop) => void) | null = null;

  constructor(
    readonly engine: EngineProcess,
    private readonly handle: number,
    private readonly onClose: (c: EngineConnection) => void = () => undefined,
  ) {}

  /** The engine process behind it is gone: the connection's state (prepared statements, temp tables, results) went with it. */
  get lost(): boolean {
    return this.engine.lost !== null;
  }

  /** Run statements for their effect; the number of rows a DML statement changed. */
  async run(sql: string, params?: WireParam[]): Promise<number | null> {
    const { changed } = await this.engine.call({ op: 'run', conn: this.handle, sql, ...(params ? { params } : {}) });
    return changed;
  }

  /** A small result as row objects with JavaScript values (catalog reads, counts). */
  rows(sql: string, params?: (string | number | boolean | null)[]): Promise<Record<string, unknown>[]> {
    return this.engine.call({ op: 'rows', conn: this.handle, sql, ...(params ? { params } : {}) });
  }

  async prepare(sql: string): Promise<EnginePrepared> {
    const info = await this.engine.call({ op: 'prepare', conn: this.handle, sql });
    return new EnginePrepared(this, info);
  }

  /** Start a result from a prepared statement, or from SQL text; optionally with its first batch. */
  async execute(
    source: { stmt: EnginePrepared } | { sql: string },
    params: WireParam[],
    encoding: Encoding | null,
    first?: { maxRows: number; skip: boolean },
  ): Promise<{ result: EngineResult; batch: Batch | null }> {
    const { result, batch } = await this.engine.call({
      op: 'execute',
      conn: this.handle,
      ...('stmt' in source ? { stmt: source.stmt.id } : { sql: source.sql }),
      params,
      encoding,
      ...(first ? { first } : {}),
    });
    return { result: new EngineResult(this, result, batch?.done ?? false), batch };
  }

  /** Stop what runs on this connection now (statement_timeout, cancel); answered by the running request failing. */
  interrupt(): void {
    if (!this.lost && !this.closed) this.engine.tell({ op: 'interrupt', conn: this.handle });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (!this.lost) this.engine.tell({ op: 'disconnect', conn: this.handle });
    this.onClose(this);
  }
}

/** A statement prepared in the engine: what DuckDB made of its parameters and columns. */
export class EnginePrepared {
  readonly id: number;
  private readonly params: (DuckDBType | null)[];
  private readonly columns: { name: string; type: DuckDBType | null }[];
  private destroyed = false;

  constructor(
    readonly conn: EngineConnection,
    info: PreparedInfo,
  ) {
    this.id = info.stmt;
    this.params = info.params.map((t: WireType | null) => (t ? typeFromWire(t) : null));
    this.columns = info.columns.map((c) => ({ name: c.name, type: c.type ? typeFromWire(c.type) : null }));
  }

  get parameterCount(): number {
    return this.params.length - 1;
  }

  /** 0 where the engine could not type the parameter (DuckDB's INVALID). */
  parameterTypeId(i: number): number {
    return this.params[i]?.typeId ?? DuckDBTypeId.INVALID;
  }

  parameterType(i: number): DuckDBType {
    return this.params[i]!;
  }

  get columnCount(): number {
    return this.columns.length;
  }

  columnName(c: number): string {
    return this.columns[c]!.name;
  }

  columnTypeId(c: number): number {
    return this.columns[c]!.type?.typeId ?? DuckDBTypeId.INVALID;
  }

  columnType(c: number): DuckDBType {
    return this.columns[c]!.type!;
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    if (!this.conn.lost) this.conn.engine.tell({ op: 'destroy', stmt: this.id });
  }
}

/** Rows of a running statement, fetched in batches of encoded DataRows. */
export class EngineResult {
  constructor(
    private readonly conn: EngineConnection,
    private readonly id: number,
    /** The engine process let the result go already (it was exhausted). */
    private done: boolean,
  ) {}

  async fetch(maxRows: number, skip: boolean): Promise<Batch> {
    if (this.done) return { data: null, rows: 0, done: true };
    try {
      const batch = await this.conn.engine.call({ op: 'fetch', result: this.id, maxRows, skip });
      if (batch.done) this.done = true;
      return batch;
    } catch (e) {
      // a failed fetch closes the result in the engine
      this.done = true;
      throw e;
    }
  }

  async reformat(encoding: Encoding): Promise<void> {
    if (!this.done) await this.conn.engine.call({ op: 'reformat', result: this.id, encoding });
  }

  /** Every row as text (EXPLAIN's key and plan); the result is closed after. */
  readAll(): Promise<string[][]> {
    this.done = true;
    return this.conn.engine.call({ op: 'readAll', result: this.id });
  }

  close(): void {
    if (this.done) return;
    this.done = true;
    if (!this.conn.lost) this.conn.engine.tell({ op: 'close', result: this.id });
  }
}
