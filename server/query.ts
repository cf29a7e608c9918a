/**
 * A read query through the engine: planned once (Parse), described from
 * DuckDB's prepared-statement metadata without running anything, bound to
 * parameters (Bind), and streamed chunk by chunk (Execute) with row limits.
 */
import type {
  DuckDBConnection,
  DuckDBDataChunk,
  DuckDBPreparedStatement,
  DuckDBResult,
  DuckDBType,
  DuckDBValue,
} from '@duckdb/node-api';
import * as be from '../protocol/backend.js';
import { PgError, SqlState } from '../protocol/errors.js';
import type { BindRequest, Output } from '../protocol/handler.js';
import type { ParsedStatement } from '../sql/parse.js';
import type { PgNode } from '../sql/walk.js';
import { walk } from '../sql/walk.js';
import type { FormatContext, PgField, RowEncoder } from './rows/api.js';
import { pgFieldFor, pgTypeOf } from './rows/describe.js';
import { createRowEncoder } from './rows/encoder.js';
import { decodeParam } from './rows/params.js';
import { dataRowText, textField } from './textResult.js';

export interface PlanContext {
  database: string;
  user: string;
  searchPath: string[];
  settings(name: string): string | undefined;
  backendPid: number;
}

export interface QueryPlan {
  /** DuckDB SQL, produced from the checked and rewritten tree only. */
  sql: string;
  explain: boolean;
}

/** sql/ + catalog/ behind one call: check, resolve, rewrite, print. */
export interface QueryPlanner {
  plan(stmt: ParsedStatement, ctx: PlanContext): QueryPlan;
}

/** Hand buffered rows to the socket once this much is waiting. */
const FLUSH_BYTES = 256 * 1024;

/** PostgreSQL type names for casting parameters the engine cannot type on its own. */
const PARAM_CAST: Record<number, [string, number[]?]> = {
  16: ['bool'],
  17: ['bytea'],
  20: ['int8'],
  21: ['int2'],
  23: ['int4'],
  25: ['text'],
  114: ['json'],
  700: ['float4'],
  701: ['float8'],
  1043: ['varchar'],
  1082: ['date'],
  1083: ['time'],
  1114: ['timestamp'],
  1184: ['timestamptz'],
  1186: ['interval'],
  // Unconstrained numeric has no DuckDB twin; 38 digits with 10 decimals keeps money exact.
  1700: ['numeric', [38, 10]],
  2950: ['uuid'],
};
const TEXT_OID = 25;

function castParams(node: PgNode, oids: Map<number, number>): PgNode {
  const copy = structuredClone(node);
  walk(copy, (v) => {
    if (v.kind !== 'ParamRef') return;
    const number = v.fields['number'] as number;
    const oid = oids.get(number);
    if (oid === undefined) return;
    const [name, mods] = PARAM_CAST[oid] ?? PARAM_CAST[TEXT_OID]!;
    const paramRef = { ParamRef: { ...v.fields } };
    const typeName: Record<string, unknown> = {
      names: [{ String: { sval: 'pg_catalog' } }, { String: { sval: name } }],
      typemod: -1,
    };
    if (mods) typeName['typmods'] = mods.map((m) => ({ A_Const: { ival: { ival: m } } }));
    for (const k of Object.keys(v.node)) delete v.node[k];
    (v.node as Record<string, unknown>)['TypeCast'] = { arg: paramRef, typeName };
    return false;
  });
  return copy;
}

export class QueryStatement {
  /** Parameter types as ParameterDescription reports them. */
  paramOids: number[] = [];
  private sql = '';
  private explain = false;
  private names: string[] = [];
  private types: DuckDBType[] = [];
  private paramTypes: (DuckDBType | null)[] = [];
  private readonly preparedOn = new WeakMap<DuckDBConnection, DuckDBPreparedStatement>();
  private described = false;

  constructor(
    private readonly stmt: ParsedStatement,
    private readonly clientOids: number[],
    private readonly planner: QueryPlanner,
    private readonly ctx: PlanContext,
  ) {}

  /** Plan and prepare, learning parameter and column types; nothing runs. */
  async describe(conn: DuckDBConnection): Promise<void> {
    if (this.described) return;
    let plan = this.planner.plan(this.stmt, this.ctx);
    let prepared = await this.prepareSql(conn, plan.sql);
    const count = prepared.parameterCount;
    const untyped = new Map<number, number>();
    for (let i = 1; i <= count; i++) {
      // A parameter the engine typed keeps that type: a client-declared one is
      // decoded as declared and the engine casts it on binding. (Wrapping it in
      // another cast can make DuckDB lose the parameter's type.)
      const clientOid = this.clientOids[i - 1] ?? 0;
      if (prepared.parameterTypeId(i) === 0) untyped.set(i, clientOid !== 0 ? clientOid : TEXT_OID);
    }
    if (untyped.size > 0) {
      // The engine could not type these parameters (PostgreSQL would have, or
      // the client said): cast them as PostgreSQL does for 'unknown'.
      prepared.destroySync();
      const node = castParams(this.stmt.node, untyped);
      plan = this.planner.plan({ ...this.stmt, node }, this.ctx);
      prepared = await this.prepareSql(conn, plan.sql);
    }
    this.sql = plan.sql;
    this.explain = plan.explain;
    this.paramTypes = [];
    this.paramOids = [];
    for (let i = 1; i <= prepared.parameterCount; i++) {
      if (prepared.parameterTypeId(i) === 0) {
        throw new PgError(SqlState.indeterminateDatatype, `could not determine data type of parameter $${i}`);
      }
      const t = prepared.parameterType(i);
      this.paramTypes.push(t);
      this.paramOids.push(this.clientOids[i - 1] || pgTypeOf(t).oid);
    }
    this.names = [];
    this.types = [];
    for (let c = 0; c < prepared.columnCount; c++) {
      this.names.push(prepared.columnName(c));
      this.types.push(prepared.columnType(c));
    }
    this.preparedOn.set(conn, prepared);
    this.described = true;
  }

  private async prepareSql(conn: DuckDBConnection, sql: string): Promise<DuckDBPreparedStatement> {
    return conn.prepare(sql);
  }

  /** RowDescription for the given result formats; null when the statement returns no rows. */
  fields(formats: number[]): PgField[] | null {
    if (this.explain) return [textField('QUERY PLAN')];
    return this.names.map((name, c) => pgFieldFor(name, this.types[c]!, formatOf(formats, c)));
  }

  async bind(conn: DuckDBConnection, req: BindRequest, fmt: FormatContext): Promise<Portal> {
    await this.describe(conn);
    let prepared = this.preparedOn.get(conn);
    if (!prepared) {
      prepared = await this.prepareSql(conn, this.sql);
      this.preparedOn.set(conn, prepared);
    }
    const values = req.params.map((raw, i) => {
      const format = (req.paramFormats.length === 1 ? req.paramFormats[0] : req.paramFormats[i]) ?? 0;
      if (format !== 0 && format !== 1) throw PgError.protocol(`unsupported format code: ${format}`);
      return decodeParam(i, this.paramOids[i]!, format, raw, this.paramTypes[i] ?? null, fmt);
    });
    const fields = this.fields(req.resultFormats)!;
    const encoder = this.explain ? null : createRowEncoder(this.types, req.resultFormats.map((f) => f as 0 | 1), fmt);
    return new Portal(conn, prepared, values, fields, encoder);
  }
}

function formatOf(formats: number[], column: number): 0 | 1 {
  const f = formats.length === 0 ? 0 : formats.length === 1 ? formats[0]! : formats[column] ?? 0;
  return f === 1 ? 1 : 0;
}

type BoundValue = ReturnType<typeof decodeParam>;

/** A bound query: the rows it has left to give, on the connection it runs on. */
export class Portal {
  /** Set once the portal was suspended and keeps its connection for itself. */
  ownsConnection = false;
  private result: DuckDBResult | null = null;
  private pending: DuckDBDataChunk | null = null;
  private pendingRow = 0;

  constructor(
    readonly conn: DuckDBConnection,
    private readonly prepared: DuckDBPreparedStatement,
    private readonly values: BoundValue[],
    readonly fields: PgField[],
    private readonly encoder: RowEncoder | null,
  ) {}

  /** Write up to maxRows rows (0 = all); returns true when the result is exhausted. */
  async run(maxRows: number, out: Output): Promise<boolean> {
    if (!this.result) {
      this.prepared.clearBindings();
      this.values.forEach((v, i) => {
        if (v.value === null) this.prepared.bindNull(i + 1);
        else this.prepared.bindValue(i + 1, v.value as DuckDBValue, v.type);
      });
      this.result = await this.prepared.stream();
    }
    if (!this.encoder) return this.runExplain(out);
    const limit = maxRows > 0 ? maxRows : Infinity;
    let sent = 0;
    for (;;) {
      if (!this.pending) {
        const chunk = await this.result.fetchChunk();
        if (!chunk || chunk.rowCount === 0) {
          be.commandComplete(out.writer, `SELECT ${sent}`);
          return true;
        }
        this.pending = chunk;
        this.pendingRow = 0;
      }
      const chunk = this.pending;
      const take = Math.min(chunk.rowCount - this.pendingRow, limit - sent);
      this.encoder.encodeChunk(chunk, out.writer, this.pendingRow, this.pendingRow + take);
      this.pendingRow += take;
      sent += take;
      if (this.pendingRow >= chunk.rowCount) this.pending = null;
      if (out.writer.length >= FLUSH_BYTES) await out.flush();
      if (sent >= limit) {
        // PostgreSQL suspends even when the limit lands exactly on the last row.
        be.portalSuspended(out.writer);
        return false;
      }
    }
  }

  /** DuckDB's EXPLAIN gives (key, plan text); PostgreSQL gives one text line per row. */
  private async runExplain(out: Output): Promise<boolean> {
    const rows = await this.result!.getRows();
    for (const row of rows) {
      for (const line of String(row[1] ?? '').split('\n')) {
        if (line.trim() !== '') dataRowText(out.writer, [line]);
      }
    }
    be.commandComplete(out.writer, 'EXPLAIN');
    return true;
  }

  close(): void {
    this.result = null;
    this.pending = null;
  }
}
