/**
 * What the session asks of the planner and what it gets back: one
 * statement's context (who, where, with which settings) and the plan it runs.
 * The planner itself is server/planner.ts; the statement that holds a plan,
 * server/queryStatement.ts.
 */
import type { BackendActivity } from '../pgcatalog/pgCatalogTables.js';
import type { ParsedStatement } from '../sql/parse.js';
import type { ResultTypes } from '../sql/resultTypes.js';
import type { TempTable } from '../sql/write/plan.js';
import type { EngineConnection } from './engine/connection.js';

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
