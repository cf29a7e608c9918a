/**
 * A read query through the engine: planned once (Parse), described from
 * DuckDB's prepared-statement metadata without running anything, bound to
 * parameters (Bind), and streamed chunk by chunk (Execute) with row limits.
 */
import { DuckDBTypeId } from '@duckdb/node-api';
import type { DuckDBDecimalType, DuckDBListType, DuckDBType } from '@duckdb/node-api';
import type { BackendActivity } from '../pgcatalog/pgCatalogTables.js';
import * as be from '../protocol/backend.js';
import { PgError, SqlState } from '../protocol/errors.js';
import type { BindRequest, Output } from '../protocol/handler.js';
import type { MessageWriter } from '../protocol/writer.js';
import { PG_MAX_TARGET_ENTRIES, tooManyColumns } from '../sql/limits.js';
import { untypableParams } from '../sql/anyParams.js';
import type { ParsedStatement } from '../sql/parse.js';
import { resultTypeOids, type ResultTypes } from '../sql/resultTypes.js';
import type { PresentedAs } from '../sql/pgTypes.js';
import type { PgNode } from '../sql/walk.js';
import { walk } from '../sql/walk.js';
import type { FormatContext, PgField } from './rows/api.js';
import { pgFieldFor, pgTypeOf } from './rows/describe.js';
import { anyArrayParams, anyLeftType, declaredParamTypes, type DeclaredParam } from './rows/declaredParams.js';
import { decodeParam, duckTypeForOid } from './rows/params.js';
import { dataRowText, textField } from './textResult.js';
import type { EngineConnection, EnginePrepared, EngineResult } from './engine/connection.js';
import { wireParams } from './engine/connection.js';
import type { Batch, Encoding } from './engine/messages.js';
import type { WireParam } from './engine/wire.js';
import type { TempTable } from '../sql/write/plan.js';

export interface PlanContext {
  database: string;
  user: string;
  /** Ranger roles and groups of the session's identity: the data gate decides with them. */
  roles: readonly string[];
  groups: readonly string[];
  /** The session's bearer token for the catalog (Keycloak logins); undefined for local users. */
  accessToken?: () => string;
  /** Renew the token once after the catalog answered 401; false when it cannot be renewed. */
  renewToken?: () => Promise<boolean>;
  /** Aborted by cancel or statement_timeout while the statement is being planned. */
  signal?: () => AbortSignal | undefined;
  searchPath: string[];
  settings(name: string): string | undefined;
  backendPid: number;
  /** The sessions pg_stat_activity shows this session (its own user's), as they are now. */
  activity?: () => BackendActivity[];
  /** The client's address and application_name, for the audit trail. */
  clientAddress?: string;
  clientType?: string;
  /** The session's temporary tables (pg_temp: looked up first, shown in its catalog only). */
  tempTables?: () => readonly TempTable[];
}

export interface QueryPlan {
  /** DuckDB SQL, produced from the checked and rewritten tree only. */
  sql: string;
  explain: boolean;
  /**
   * False once what the plan folded in has changed (policy version, the
   * table's catalog entry past its TTL): the statement is planned again
   * before its next Bind, never run on a stale plan.
   */
  valid(): boolean;
  /**
   * Prepares a connection before the plan's SQL is prepared on it (the
   * user's own catalog emulation tables); runs on every connection used.
   */
  setup?(conn: EngineConnection): Promise<void>;
  /** PostgreSQL types of result columns DuckDB has no type for (sql/resultTypes.ts): name, oid, regtype … */
  resultTypes?: ResultTypes;
  /** The result has zero columns (`select`, `select from t`): the one constant the SQL selects is not sent (sql/query.ts). */
  zeroColumns?: true;
  /** Records one execution in the audit trail (called at every Bind: a prepared statement run ten times is audited ten times). */
  audit?(): void;
}

/** sql/ + catalog/ + policy/ behind one call: check, resolve, gate, rewrite, print. */
export interface QueryPlanner {
  plan(stmt: ParsedStatement, ctx: PlanContext): Promise<QueryPlan>;
}


/** PostgreSQL type names for casting parameters the engine cannot type on its own. */
const PARAM_CAST: Record<number, string> = {
  16: 'bool',
  17: 'bytea',
  20: 'int8',
  21: 'int2',
  23: 'int4',
  25: 'text',
  114: 'json',
  700: 'float4',
  701: 'float8',
  1043: 'varchar',
  1082: 'date',
  1083: 'time',
  1114: 'timestamp',
  1184: 'timestamptz',
  1186: 'interval',
  1700: 'numeric',
  2950: 'uuid',
};
/** Array parameters (psycopg 3 binds a Python list as one): cast to the element type's array. */
const PARAM_ARRAY_CAST: Record<number, string> = {
  1000: 'bool', 1005: 'int2', 1007: 'int4', 1009: 'text', 1015: 'varchar', 1016: 'int8', 1021: 'float4',
  1022: 'float8', 1182: 'date', 1115: 'timestamp', 1185: 'timestamptz', 1231: 'numeric', 2951: 'uuid',
};
const castFor = (oid: number): ParamCast | undefined =>
  PARAM_CAST[oid] ? { type: PARAM_CAST[oid]! } : PARAM_ARRAY_CAST[oid] ? { type: PARAM_ARRAY_CAST[oid]!, array: true } : undefined;
const TEXT_OID = 25;
const NUMERIC_OID = 1700;
const NUMERIC_ARRAY_OID = 1231;
/** DuckDB's widest decimal: an unconstrained numeric parameter gets this precision and its value's own scale. */
const NUMERIC_PRECISION = 38;

interface ParamCast {
  type: string;
  typmods?: number[];
  array?: boolean;
}

function castParams(node: PgNode, casts: Map<number, ParamCast>): PgNode {
  const copy = structuredClone(node);
  walk(copy, (v) => {
    if (v.kind !== 'ParamRef') return;
    const cast = casts.get(v.fields['number'] as number);
    if (!cast) return;
    const paramRef = { ParamRef: { ...v.fields } };
    const typeName: Record<string, unknown> = {
      names: [{ String: { sval: 'pg_catalog' } }, { String: { sval: cast.type } }],
      typemod: -1,
    };
    // Shaped as libpg-query prints it (a zero ival is an empty object), so the planner's re-parse check matches.
    if (cast.array) typeName['arrayBounds'] = [{ Integer: { ival: -1 } }];
    if (cast.typmods) typeName['typmods'] = cast.typmods.map((m) => ({ A_Const: { ival: m === 0 ? {} : { ival: m } } }));
    for (const k of Object.keys(v.node)) delete v.node[k];
    (v.node as Record<string, unknown>)['TypeCast'] = { arg: paramRef, typeName };
    return false;
  });
  return copy;
}

/**
 * Parameters cast to unconstrained numeric (`$1::numeric`). PostgreSQL keeps
 * the scale each value comes with; DuckDB's decimals have a fixed scale, so
 * these parameters get a statement shape per scale at Bind.
 */
function numericCastParams(node: PgNode): Set<number> {
  const out = new Set<number>();
  walk(node, (v) => {
    if (v.kind !== 'TypeCast') return;
    const arg = v.fields['arg'] as PgNode | undefined;
    const tn = v.fields['typeName'] as { names?: PgNode[]; typmods?: unknown[]; arrayBounds?: unknown[] } | undefined;
    const name = tn?.names?.[tn.names.length - 1]?.['String']?.['sval'];
    if (arg?.['ParamRef'] && (name === 'numeric' || name === 'decimal') && !tn?.typmods?.length && !tn?.arrayBounds) {
      out.add(arg['ParamRef']['number'] as number);
    }
  });
  return out;
}

/** One planned and prepared form of the statement, with the types the engine gave it. */
interface Shape {
  sql: string;
  names: string[];
  types: DuckDBType[];
  /** what the planner says each column holds where DuckDB has no such type (sql/resultTypes.ts) */
  presented: (PresentedAs | undefined)[];
  paramTypes: DuckDBType[];
  preparedOn: WeakMap<EngineConnection, EnginePrepared>;
}

export class QueryStatement {
  /** Parameter types as ParameterDescription reports them. */
  paramOids: number[] = [];
  private explain = false;
  private base: Shape | null = null;
  /** Scale-specific shapes for numeric parameters, by their scales. */
  private readonly byScales = new Map<string, Shape>();
  /** The plan behind `base`, kept to see when it goes stale. */
  private basePlan: QueryPlan | null = null;
  private numericParams = new Set<number>();
  private casts = new Map<number, ParamCast>();
  /** The types the statement's own casts give its parameters (`$1::varchar`). */
  private declared = new Map<number, DeclaredParam>();
  private checkpoint: () => void = () => undefined;

  constructor(
    private readonly stmt: ParsedStatement,
    private readonly clientOids: number[],
    private readonly planner: QueryPlanner,
    private readonly ctx: PlanContext,
  ) {}

  /**
   * Plan and prepare, learning parameter and column types; nothing runs.
   * `checkpoint` throws once the statement was stopped (timeout, cancel):
   * called between planning and preparing, so a stopped statement goes no further.
   */
  async describe(conn: EngineConnection, checkpoint: () => void = () => undefined): Promise<void> {
    if (this.base && this.basePlan?.valid() !== false) return;
    this.forgetShapes();
    this.checkpoint = checkpoint;
    this.numericParams = numericCastParams(this.stmt.node);
    for (const n of this.numericParams) this.casts.set(n, { type: 'numeric', typmods: [NUMERIC_PRECISION, 0] });
    let { plan, prepared } = await this.planAndPrepare(conn, this.casts);
    const untyped = new Map(this.casts);
    // three walks of the tree, only for a statement with parameters
    const some = prepared.parameterCount > 0;
    const untypable = some ? untypableParams(this.stmt.node) : new Map<number, never>();
    const anyArrays = some ? anyArrayParams(this.stmt.node) : new Set<number>();
    const declared = (this.declared = some ? declaredParamTypes(this.stmt.node) : new Map<number, DeclaredParam>());
    for (let i = 1; i <= prepared.parameterCount; i++) {
      // A parameter the engine typed keeps that type: a client-declared one is
      // decoded as declared and the engine casts it on binding. (Wrapping it in
      // another cast can make DuckDB lose the parameter's type.)
      const clientOid = this.clientOids[i - 1] ?? 0;
      const why = clientOid === 0 ? untypable.get(i) : undefined;
      if (why) {
        // PostgreSQL gives an "any" or polymorphic argument no type to infer from
        prepared.destroy();
        if (why === 'polymorphic') throw new PgError(SqlState.datatypeMismatch, 'could not determine polymorphic type because input has type unknown');
        throw new PgError(SqlState.indeterminateDatatype, `could not determine data type of parameter $${i}`);
      }
      if (prepared.parameterTypeId(i) !== 0) continue;
      // typed by its own cast in the statement (shapeOf takes that type): no second cast
      if (clientOid === 0 && declared.get(i)?.duck) continue;
      if (clientOid === NUMERIC_OID || clientOid === NUMERIC_ARRAY_OID) {
        // a client's numeric keeps its scale (psycopg 3 binds Decimal so): one shape per scale, as for $1::numeric;
        // a numeric[] (a list of Decimal) likewise, at the largest scale of its elements
        this.numericParams.add(i);
        untyped.set(i, { type: 'numeric', typmods: [NUMERIC_PRECISION, 0], array: clientOid === NUMERIC_ARRAY_OID });
      } else if (clientOid === 0 && anyArrays.has(i)) {
        // `x = ANY($1)` with an unspecified $1 (psycopg 3's list of str): PostgreSQL reads an array of x's type;
        // text[] first, retyped below when the engine names x's type
        untyped.set(i, { type: PARAM_CAST[TEXT_OID]!, array: true });
      } else untyped.set(i, castFor(clientOid) ?? { type: PARAM_CAST[TEXT_OID]! });
    }
    if (untyped.size > this.casts.size) {
      // The engine could not type these parameters (PostgreSQL would have, or
      // the client said): cast them as PostgreSQL does for 'unknown'.
      prepared.destroy();
      this.casts = untyped;
      ({ plan, prepared } = await this.prepareRetyping(conn, anyArrays));
    }
    this.explain = plan.explain;
    this.basePlan = plan;
    this.base = this.shapeOf(plan, prepared, conn);
    this.paramOids = this.base.paramTypes.map((t, i) =>
      this.numericParams.has(i + 1) ? (this.casts.get(i + 1)?.array ? NUMERIC_ARRAY_OID : NUMERIC_OID) : this.clientOids[i] || this.declared.get(i + 1)?.oid || pgTypeOf(t).oid,
    );
  }

  /** Planned and prepared, with a plan that is still valid (binding will not plan again). */
  isDescribed(): boolean {
    return this.base !== null && this.basePlan?.valid() !== false && this.numericParams.size === 0;
  }

  /** A stale plan's prepared forms must not run again: drop them all. */
  private forgetShapes(): void {
    this.base = null;
    this.basePlan = null;
    this.byScales.clear();
    this.casts = new Map();
  }

  /**
   * Prepare with `this.casts`. Where an ANY/ALL array parameter cast to text[] meets a left
   * operand of another type, the engine names that type: the parameter it belongs to (the
   * first, in order, whose retyping gets past that comparison) is cast to that type's array,
   * and the statement prepared again. Bounded: each parameter is retyped at most once.
   */
  private async prepareRetyping(conn: EngineConnection, anyArrays: Set<number>) {
    const pending = [...anyArrays].filter((n) => this.casts.get(n)?.type === PARAM_CAST[TEXT_OID] && this.casts.get(n)?.array);
    let last: unknown;
    try {
      return await this.planAndPrepare(conn, this.casts);
    } catch (err) {
      last = err;
    }
    for (;;) {
      const left = anyLeftType(last);
      if (!left || pending.length === 0) throw last;
      let moved = false;
      for (const n of pending) {
        const before = this.casts.get(n)!;
        this.casts.set(n, { ...left, array: true });
        try {
          return await this.planAndPrepare(conn, this.casts);
        } catch (err) {
          if (anyLeftType(err)) {
            // past this comparison, stopped at another one: n was it
            pending.splice(pending.indexOf(n), 1);
            last = err;
            moved = true;
            break;
          }
          this.casts.set(n, before);
        }
      }
      if (!moved) throw last;
    }
  }

  private async planAndPrepare(conn: EngineConnection, casts: Map<number, ParamCast>) {
    const node = casts.size > 0 ? castParams(this.stmt.node, casts) : this.stmt.node;
    const plan = await this.planner.plan(casts.size > 0 ? { ...this.stmt, node } : this.stmt, this.ctx);
    this.checkpoint();
    await plan.setup?.(conn);
    return { plan, prepared: await conn.prepare(plan.sql) };
  }

  private shapeOf(plan: QueryPlan, prepared: EnginePrepared, conn: EngineConnection): Shape {
    const paramTypes: DuckDBType[] = [];
    for (let i = 1; i <= prepared.parameterCount; i++) {
      if (prepared.parameterTypeId(i) === 0) {
        // the statement's own cast types it, as in PostgreSQL (DuckDB binds again with the value's type)
        // (or, where the statement does not use it, as the client declared it)
        const t = this.declared.get(i)?.duck ?? duckTypeForOid(this.clientOids[i - 1] ?? 0);
        if (!t) throw new PgError(SqlState.indeterminateDatatype, `could not determine data type of parameter $${i}`);
        paramTypes.push(t);
        continue;
      }
      paramTypes.push(prepared.parameterType(i));
    }
    // PostgreSQL's limit, checked again now that `*` is expanded (RowDescription counts columns in an int16).
    if (prepared.columnCount > PG_MAX_TARGET_ENTRIES) {
      prepared.destroy();
      throw tooManyColumns();
    }
    const names: string[] = [];
    const types: DuckDBType[] = [];
    for (let c = 0; c < (plan.zeroColumns ? 0 : prepared.columnCount); c++) {
      names.push(prepared.columnName(c));
      if (prepared.columnTypeId(c) === DuckDBTypeId.INVALID) {
        // some engine functions (len over a parameter, say) type their result only once the value is bound
        prepared.destroy();
        throw PgError.featureNotSupported(`the type of result column "${names[c]}" depends on a parameter value: lakegate cannot describe it before Bind`);
      }
      types.push(prepared.columnType(c));
    }
    const preparedOn = new WeakMap<EngineConnection, EnginePrepared>();
    preparedOn.set(conn, prepared);
    return { sql: plan.sql, names, types, presented: resultTypeOids(plan.resultTypes, names), paramTypes, preparedOn };
  }

  /** RowDescription for the given result formats; null when the statement returns no rows. */
  fields(formats: number[], shape: Shape | null = this.base): PgField[] | null {
    if (this.explain) return [textField('QUERY PLAN')];
    if (!shape) return null;
    return shape.names.map((name, c) => pgFieldFor(name, shape.types[c]!, formatOf(formats, c), shape.presented[c]));
  }

  /** `maxRowBytes`: the largest DataRow the portal may build (53200 beyond, as PostgreSQL's string buffers). */
  async bind(conn: EngineConnection, req: BindRequest, fmt: FormatContext, maxRowBytes: number, checkpoint?: () => void): Promise<Portal> {
    await this.describe(conn, checkpoint);
    const values = req.params.map((raw, i) => {
      const format = (req.paramFormats.length === 1 ? req.paramFormats[0] : req.paramFormats[i]) ?? 0;
      if (format !== 0 && format !== 1) throw PgError.protocol(`unsupported format code: ${format}`);
      // A numeric parameter is decoded at its own scale (no target type), then bound to the shape for that scale.
      const target = this.numericParams.has(i + 1) ? null : this.base!.paramTypes[i] ?? null;
      return decodeParam(i, this.paramOids[i]!, format, raw, target, fmt);
    });
    const shape = await this.shapeFor(conn, values);
    let prepared = shape.preparedOn.get(conn);
    if (!prepared) {
      await this.basePlan?.setup?.(conn);
      prepared = await conn.prepare(shape.sql);
      shape.preparedOn.set(conn, prepared);
    }
    const encoderFor: EncoderFactory = (formats) => ({
      fields: this.fields(formats, shape)!,
      encoding: this.explain ? null : encodingFor(shape, formats, fmt, maxRowBytes),
    });
    const { fields, encoding } = encoderFor(req.resultFormats);
    const portal = new Portal(conn, prepared, wireParams(values), fields, encoding, encoderFor, shape.sql);
    this.basePlan?.audit?.();
    return portal;
  }

  private async shapeFor(conn: EngineConnection, values: BoundValue[]): Promise<Shape> {
    if (this.numericParams.size === 0) return this.base!;
    const scales = [...this.numericParams].map((n) => {
      const t = values[n - 1]?.type;
      const d = t?.typeId === DuckDBTypeId.LIST ? (t as DuckDBListType).valueType : t;
      return d && d.typeId === DuckDBTypeId.DECIMAL ? (d as DuckDBDecimalType).scale : 0;
    });
    if (scales.every((sc) => sc === 0)) return this.base!;
    const key = scales.join(',');
    let shape = this.byScales.get(key);
    if (!shape) {
      const casts = new Map(this.casts);
      [...this.numericParams].forEach((n, k) =>
        casts.set(n, { type: 'numeric', typmods: [NUMERIC_PRECISION, scales[k]!], array: this.casts.get(n)?.array }),
      );
      const { plan, prepared } = await this.planAndPrepare(conn, casts);
      shape = this.shapeOf(plan, prepared, conn);
      // Bounded: a client sending ever new scales cannot grow this without limit.
      if (this.byScales.size >= 16) this.byScales.clear();
      this.byScales.set(key, shape);
    }
    return shape;
  }
}

function formatOf(formats: number[], column: number): 0 | 1 {
  const f = formats.length === 0 ? 0 : formats.length === 1 ? formats[0]! : formats[column] ?? 0;
  return f === 1 ? 1 : 0;
}

type BoundValue = ReturnType<typeof decodeParam>;

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

function encodingFor(shape: Shape, formats: number[], ctx: FormatContext, maxRowBytes: number): Encoding {
  const f = formats.map((x) => (x === 1 ? 1 : 0) as 0 | 1);
  if (f.length > 1 && f.length !== shape.types.length) {
    // PostgreSQL reports this as an ERROR (08P01), not FATAL: the session survives.
    throw new PgError(SqlState.protocolViolation, `bind message has ${f.length} result formats but query has ${shape.types.length} columns`);
  }
  return { columns: shape.types.length, formats: f, ctx, maxRowBytes, presented: shape.presented };
}

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
