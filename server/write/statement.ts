/**
 * A write statement through the session (issue 19): refused in a read-only
 * transaction as PostgreSQL refuses it, planned as the user under the
 * statement's timeout, its parameters decoded with the types the engine gives
 * them, then carried out by the session's writes (sessionWrites.ts) on the
 * session's engine connection.
 */
import type { DuckDBType } from '@duckdb/node-api';
import * as be from '../../protocol/backend.js';
import { PgError, SqlState } from '../../protocol/errors.js';
import type { BindRequest, Output } from '../../protocol/handler.js';
import type { ParsedStatement } from '../../sql/parse.js';
import type { WritePlan, WriteSession } from '../../sql/write/plan.js';
import { noticeCode } from '../../sql/write/notices.js';
import type { EngineConnection } from '../engine/connection.js';
import { wireParams } from '../engine/connection.js';
import type { WireParam } from '../engine/wire.js';
import type { PlanContext, QueryPlanner } from '../queryPlan.js';
import { pgTypeOf } from '../rows/describe.js';
import { decodeParam, duckTypeForOid } from '../rows/params.js';
import { commandName } from '../router.js';
import type { StatementRun } from '../statementRun.js';
import type { SessionWrites } from './sessionWrites.js';

/** The planner's write half (server/planner.ts). */
export interface WritePlanner {
  planWrite(stmt: ParsedStatement, ctx: PlanContext & WriteSession): Promise<WritePlan>;
}

/** What a write needs of the session. */
export interface WriteHost {
  planner: QueryPlanner & Partial<WritePlanner>;
  writes(): SessionWrites;
  connection(): Promise<EngineConnection>;
  statement(): StatementRun;
  planContext(): PlanContext;
  /** In a block: an explicit one, or the implicit one of a multi-statement message. */
  inBlock(): boolean;
  readOnly(): boolean;
  timeZone(): string;
}

/** The engine SQL whose parameters a plan binds (a catalog write binds none). */
function parameterized(plan: WritePlan): string | null {
  if (plan.kind === 'engine') return plan.sql;
  if (plan.kind === 'table-as') return plan.querySql;
  return null;
}

/** Plan a write as the session's user, under the statement's timeout. */
export async function plan(host: WriteHost, stmt: ParsedStatement): Promise<WritePlan> {
  const planWrite = host.planner.planWrite?.bind(host.planner);
  if (!planWrite) throw new PgError(SqlState.insufficientPrivilege, `permission denied: ${commandName(stmt.kind)} is not allowed through lakegate`);
  const writes = host.writes();
  const run = host.statement();
  return run.step(() => planWrite(stmt, { ...host.planContext(), writeAlias: writes.writeAlias, tempTables: () => writes.tempTables() }));
}

/** The engine's types for the statement's parameters (1-based; undefined where it cannot say). */
async function engineParamTypes(conn: EngineConnection, sql: string): Promise<(DuckDBType | undefined)[]> {
  const p = await conn.prepare(sql);
  try {
    return Array.from({ length: p.parameterCount + 1 }, (_, i) => (i > 0 && p.parameterTypeId(i) !== 0 ? p.parameterType(i) : undefined));
  } finally {
    p.destroy();
  }
}

/**
 * ParameterDescription of a write (Parse): the client's types, and where it
 * left one unspecified, the engine's for the planned statement (text where
 * the engine cannot say either).
 */
export async function describeWrite(host: WriteHost, stmt: ParsedStatement, clientOids: number[], count: number): Promise<number[]> {
  if (count === 0) return [];
  if (clientOids.length >= count && clientOids.every((o) => o !== 0)) return clientOids.slice(0, count);
  host.statement();
  const conn = await host.connection();
  const p = await plan(host, stmt);
  const sql = parameterized(p);
  const types = sql ? await host.statement().inEngine(conn, () => engineParamTypes(conn, sql)) : [];
  return Array.from({ length: count }, (_, i) => clientOids[i] || (types[i + 1] ? pgTypeOf(types[i + 1]!).oid : 25));
}

/** Run a write to its completion message. `paramOids` as ParameterDescription said (Parse), `bind` its values. */
export async function runWrite(host: WriteHost, stmt: ParsedStatement, out: Output, bind?: BindRequest, paramOids: number[] = []): Promise<void> {
  if (host.readOnly()) {
    throw new PgError(SqlState.readOnlySqlTransaction, `cannot execute ${commandName(stmt.kind)} in a read-only transaction`);
  }
  const writes = host.writes();
  const run = host.statement();
  const conn = await host.connection();
  const p = await plan(host, stmt);
  if (host.inBlock() && !writes.inBlock) writes.beginBlock();
  const params = await run.inEngine(conn, () => bound(conn, p, bind, paramOids, host.timeZone()));
  const outcome = await run.inEngine(conn, () => writes.run(p, conn, params));
  for (const message of outcome.notices) be.noticeResponse(out.writer, { severity: 'NOTICE', code: noticeCode(message), message });
  be.commandComplete(out.writer, outcome.tag);
}


async function bound(conn: EngineConnection, p: WritePlan, bind: BindRequest | undefined, paramOids: number[], timeZone: string): Promise<WireParam[]> {
  if (!bind || bind.params.length === 0) return [];
  const sql = parameterized(p);
  if (!sql) throw PgError.featureNotSupported('parameters are not supported in this statement by lakegate');
  const types = await engineParamTypes(conn, sql);
  const values = bind.params.map((raw, i) => {
    const format = ((bind.paramFormats.length === 1 ? bind.paramFormats[0] : bind.paramFormats[i]) ?? 0) as 0 | 1;
    if (format !== 0 && format !== 1) throw PgError.protocol(`unsupported format code: ${String(format)}`);
    const oid = paramOids[i] ?? 0;
    const target = types[i + 1] ?? duckTypeForOid(oid) ?? null;
    return decodeParam(i, oid, format, raw, target, { timeZone });
  });
  return wireParams(values);
}
