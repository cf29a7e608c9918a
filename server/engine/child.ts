/**
 * An engine process: one DuckDB instance, hardened before it answers any
 * request, driven by the gateway over the IPC channel (messages.ts). It
 * holds the connections, prepared statements and open results the gateway's
 * sessions use, and encodes result rows as PostgreSQL DataRows itself, so
 * only finished bytes cross the pipe.
 *
 * Why a process of its own: a DuckDB failure can abort the whole process it
 * runs in (an exception thrown while another unwinds calls std::terminate;
 * docs/duckdb-oom-abort.md). Here that costs the statements this process was
 * running; the gateway, its listener and every other engine go on.
 */
import { DuckDBInstance, type DuckDBConnection, type DuckDBDataChunk, type DuckDBPreparedStatement, type DuckDBResult } from '@duckdb/node-api';
import { MessageWriter } from '../../protocol/writer.js';
import { createRowEncoder } from '../rows/encoder.js';
import type { RowEncoder } from '../rows/api.js';
import { BATCH_BYTES, type Answer, type Batch, type Encoding, type EngineStart, type PreparedInfo, type Request } from './messages.js';
import { quoteIdent, quoteLiteral } from './quote.js';
import { errorToWire, typeFromWire, typeToWire, valueFromWire, type WireParam } from './wire.js';

/** Settings no statement may change: nothing is fetched or loaded behind the gateway's back. */
const INSTANCE_CONFIG: Record<string, string> = {
  autoinstall_known_extensions: 'false',
  autoload_known_extensions: 'false',
  allow_community_extensions: 'false',
  allow_unsigned_extensions: 'false',
  // No secret is ever read from (or written to) ~/.duckdb/stored_secrets.
  allow_persistent_secrets: 'false',
};


let instance: DuckDBInstance | null = null;
/** The privileged connection, kept only until the lock-down. */
let admin: DuckDBConnection | null = null;
let nextHandle = 1;
const connections = new Map<number, DuckDBConnection>();
const statements = new Map<number, DuckDBPreparedStatement>();
const results = new Map<number, OpenResult>();

/** Rows of one running statement, read chunk by chunk and encoded batch by batch. */
class OpenResult {
  private pending: DuckDBDataChunk | null = null;
  private pendingRow = 0;
  private prefetched: Promise<DuckDBDataChunk | null> | null = null;
  private exhausted = false;
  private closed = false;
  /** The next batch, being encoded ahead of its fetch. */
  private ahead: Promise<Batch> | null = null;
  private readonly out = new MessageWriter(64 * 1024);

  constructor(
    private readonly result: DuckDBResult,
    private encoder: RowEncoder | null,
    /** A statement prepared for this result alone (executed by SQL text): destroyed with it. */
    private readonly own: DuckDBPreparedStatement | null,
  ) {}

  reformat(encoding: Encoding): void {
    if (this.ahead) throw new Error('a result read ahead cannot change its formats');
    this.encoder = encoderFor(this.result, encoding);
  }

  /**
   * Up to maxRows rows (0: no limit) or about BATCH_BYTES of them, whichever
   * comes first. A portal that asks for all rows goes on asking for all rows
   * until they are done (server/portal.ts Portal.stream), so for it the next
   * batch is encoded while this one travels to the client.
   */
  async fetch(maxRows: number, skip: boolean): Promise<Batch> {
    let batch: Batch;
    if (this.ahead) {
      if (maxRows !== 0 || skip) throw new Error('a result read ahead was asked for a limited batch');
      batch = await this.ahead;
      this.ahead = null;
    } else batch = await this.produce(maxRows, skip);
    if (!batch.done && maxRows === 0 && !skip && !this.closed) {
      this.ahead = this.produce(0, false);
      this.ahead.catch(() => undefined); // its error surfaces at the next fetch
    }
    return batch;
  }

  private async produce(maxRows: number, skip: boolean): Promise<Batch> {
    const limit = maxRows > 0 ? maxRows : Infinity;
    let rows = 0;
    while (rows < limit && this.out.length < BATCH_BYTES) {
      if (!this.pending) {
        if (this.exhausted) break;
        const chunk = await (this.prefetched ?? this.result.fetchChunk());
        this.prefetched = null;
        if (!chunk || chunk.rowCount === 0) {
          this.exhausted = true;
          break;
        }
        this.pending = chunk;
        this.pendingRow = 0;
        // DuckDB produces the next chunk on its own thread while this one is encoded.
        this.prefetched = this.result.fetchChunk();
        this.prefetched.catch(() => undefined); // its error surfaces when awaited
      }
      const chunk = this.pending;
      const take = Math.min(chunk.rowCount - this.pendingRow, limit - rows);
      let next: number;
      if (skip) next = this.pendingRow + take;
      else {
        if (!this.encoder) throw new Error('EXPLAIN output cannot be fetched as rows');
        next = this.encoder.encodeChunk(chunk, this.out, this.pendingRow, this.pendingRow + take, BATCH_BYTES);
      }
      rows += next - this.pendingRow;
      this.pendingRow = next;
      if (this.pendingRow >= chunk.rowCount) this.pending = null;
    }
    const data = this.out.length > 0 ? this.out.take() : null;
    return { data, rows, done: this.exhausted && !this.pending };
  }

  async readAll(): Promise<string[][]> {
    const rows = await this.result.getRowsJS();
    return rows.map((r) => r.map((v) => (v === null || v === undefined ? '' : String(v))));
  }

  close(): void {
    this.closed = true;
    this.pending = null;
    this.prefetched = null;
    // A batch still being encoded ends at its next await; the statement goes with it.
    if (this.ahead) void this.ahead.finally(() => this.own?.destroySync()).catch(() => undefined);
    else this.own?.destroySync();
  }
}

function encoderFor(result: DuckDBResult, encoding: Encoding): RowEncoder {
  const types = Array.from({ length: Math.min(encoding.columns, result.columnCount) }, (_, c) => result.columnType(c));
  return createRowEncoder(types, encoding.formats, encoding.ctx, encoding.maxRowBytes, encoding.presented);
}

function bindParams(p: DuckDBPreparedStatement, params: WireParam[]): void {
  p.clearBindings();
  params.forEach((param, i) => {
    const value = valueFromWire(param.value);
    if (value === null) p.bindNull(i + 1);
    else p.bindValue(i + 1, value, typeFromWire(param.type));
  });
}

const conn = (id: number): DuckDBConnection => {
  const c = connections.get(id);
  if (!c) throw new Error(`engine connection ${id} is closed`);
  return c;
};

async function start(s: EngineStart): Promise<{ pid: number }> {
  instance = await DuckDBInstance.create(':memory:', { ...s.config, ...INSTANCE_CONFIG });
  admin = await instance.connect();
  for (const name of s.extensions) await admin.run(`LOAD ${quoteIdent(name)}`);
  for (const [name, file] of Object.entries(s.databases)) await admin.run(`ATTACH ${quoteLiteral(file)} AS ${quoteIdent(name)} (READ_ONLY)`);
  // PostgreSQL semantics the engine must share: integer / integer is an
  // integer, and session time zones are applied by the gateway, so the
  // engine computes in UTC. integer_division is a parser option: it must be
  // set before the bootstrap creates the macros, or their `/` stays DuckDB's
  // float division (lg_div, which every user `/` becomes, was made so).
  await admin.run('SET GLOBAL integer_division = true');
  await admin.run("SET GLOBAL TimeZone = 'UTC'");
  for (const sql of s.bootstrap) await admin.run(sql);
  if (s.allowedDirectories) await lock(s.allowedDirectories);
  return { pid: process.pid };
}

/** The lock-down: from here on no statement may touch files, the network or the configuration, whoever sends it. */
async function lock(allowedDirectories: string[]): Promise<void> {
  if (!admin) throw new Error('the engine is locked already');
  const allowed = allowedDirectories.map((d) => quoteLiteral(d.endsWith('/') ? d : `${d}/`));
  if (allowed.length > 0) await admin.run(`SET GLOBAL allowed_directories = [${allowed.join(', ')}]`);
  await admin.run('SET GLOBAL enable_external_access = false');
  await admin.run('SET GLOBAL lock_configuration = true');
  admin.closeSync();
  admin = null;
}

async function prepare(connId: number, sql: string): Promise<PreparedInfo> {
  const p = await conn(connId).prepare(sql);
  const stmt = nextHandle++;
  statements.set(stmt, p);
  const params: PreparedInfo['params'] = [null];
  for (let i = 1; i <= p.parameterCount; i++) params.push(p.parameterTypeId(i) === 0 ? null : typeToWire(p.parameterType(i)));
  const columns: PreparedInfo['columns'] = [];
  for (let c = 0; c < p.columnCount; c++) {
    columns.push({ name: p.columnName(c), type: p.columnTypeId(c) === 0 ? null : typeToWire(p.columnType(c)) });
  }
  return { stmt, params, columns };
}

async function execute(r: Extract<Request, { op: 'execute' }>): Promise<{ result: number; batch: Batch | null }> {
  let own: DuckDBPreparedStatement | null = null;
  let p: DuckDBPreparedStatement;
  if (r.stmt !== undefined) {
    const found = statements.get(r.stmt);
    if (!found) throw new Error(`prepared statement ${r.stmt} is gone`);
    p = found;
  } else {
    p = own = await conn(r.conn).prepare(r.sql!);
  }
  let open: OpenResult;
  try {
    bindParams(p, r.params);
    const result = r.encoding ? await p.stream() : await p.run();
    open = new OpenResult(result, r.encoding ? encoderFor(result, r.encoding) : null, own);
  } catch (e) {
    own?.destroySync();
    throw e;
  }
  const id = nextHandle++;
  results.set(id, open);
  if (!r.first) return { result: id, batch: null };
  const batch = await fetch(id, r.first.maxRows, r.first.skip);
  return { result: id, batch };
}

async function fetch(id: number, maxRows: number, skip: boolean): Promise<Batch> {
  const open = results.get(id);
  if (!open) throw new Error(`result ${id} is closed`);
  try {
    const batch = await open.fetch(maxRows, skip);
    if (batch.done) closeResult(id);
    return batch;
  } catch (e) {
    closeResult(id);
    throw e;
  }
}

function closeResult(id: number): void {
  results.get(id)?.close();
  results.delete(id);
}

async function handle(r: Request): Promise<unknown> {
  switch (r.op) {
    case 'start':
      return start(r.start);
    case 'lock':
      return lock(r.allowedDirectories).then(() => null);
    case 'connect': {
      if (!instance) throw new Error('the engine has not started');
      const c = await instance.connect();
      const id = nextHandle++;
      connections.set(id, c);
      return { conn: id };
    }
    case 'disconnect':
      connections.get(r.conn)?.closeSync();
      connections.delete(r.conn);
      return null;
    case 'interrupt':
      connections.get(r.conn)?.interrupt();
      return null;
    case 'run': {
      const c = conn(r.conn);
      if (!r.params || r.params.length === 0) {
        const result = await c.run(r.sql);
        return { changed: result.rowsChanged };
      }
      const p = await c.prepare(r.sql);
      try {
        bindParams(p, r.params);
        const result = await p.run();
        return { changed: result.rowsChanged };
      } finally {
        p.destroySync();
      }
    }
    case 'rows': {
      const reader = await conn(r.conn).runAndReadAll(r.sql, r.params ?? []);
      return reader.getRowObjectsJS();
    }
    case 'prepare':
      return prepare(r.conn, r.sql);
    case 'destroy':
      statements.get(r.stmt)?.destroySync();
      statements.delete(r.stmt);
      return null;
    case 'execute':
      return execute(r);
    case 'fetch':
      return fetch(r.result, r.maxRows, r.skip);
    case 'reformat': {
      const open = results.get(r.result);
      if (!open) throw new Error(`result ${r.result} is closed`);
      open.reformat(r.encoding);
      return null;
    }
    case 'readAll': {
      const open = results.get(r.result);
      if (!open) throw new Error(`result ${r.result} is closed`);
      try {
        return await open.readAll();
      } finally {
        closeResult(r.result);
      }
    }
    case 'close':
      closeResult(r.result);
      return null;
  }
}

function answer(a: Answer): void {
  process.send?.(a);
}

process.on('message', (m: { id: number } & Request) => {
  handle(m).then(
    (value) => answer({ id: m.id, ok: true, value }),
    (e: unknown) => answer({ id: m.id, ok: false, error: errorToWire(e) }),
  );
});
// The gateway is gone (it exited, or was killed): nothing here may outlive it.
process.on('disconnect', () => process.exit(0));
