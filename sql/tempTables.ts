/**
 * The session's temporary tables as name resolution sees them. PostgreSQL
 * looks in the session's own temporary schema (pg_temp_N) before any other
 * for an unqualified relation name, unless search_path lists `pg_temp`
 * later; `pg_temp.t` names one explicitly. They live in the session's engine
 * connection (`temp.main."t"`), hold only what the session already read
 * through the data gate, and have no policies of their own.
 */
import type { TempTable } from './write/plan.js';
import { strNode, type Fields, type PgNode } from './walk.js';

/** DuckDB's catalog of a connection's temporary tables. */
export const TEMP_CATALOG = 'temp';
const TEMP_SCHEMA = 'main';

/** What resolution knows of the session's temporary tables. */
export interface TempScope {
  /** The session's temporary schema as the catalog shows it (`pg_temp_<pid>`). */
  schema: string;
  tables: readonly TempTable[];
}

/** PostgreSQL's names for the session's temporary schema: `pg_temp`, and its own `pg_temp_N`. */
export const isTempSchema = (schema: string, scope: TempScope | undefined): boolean =>
  schema === 'pg_temp' || (scope !== undefined && schema === scope.schema);

export function findTemp(scope: TempScope | undefined, name: string): TempTable | undefined {
  return scope?.tables.find((t) => t.name === name);
}

/**
 * The schemas searched for an unqualified name, pg_temp where PostgreSQL puts
 * it: first, unless search_path names it (then there).
 */
export function withTempFirst(path: readonly string[]): string[] {
  return path.includes('pg_temp') ? [...path] : ['pg_temp', ...path];
}

/** Scans of temporary tables this process built, with the table they read (sql/outerRefs.ts types outer references by them). */
const SCANS = new WeakMap<object, TempTable>();

/** The table a FROM item's RangeVar fields read, when it is a temporary table's scan built here. */
export const tempScanOf = (rangeVar: object): TempTable | undefined => SCANS.get(rangeVar);

/** The engine's name of a temporary table, as a RangeVar (no alias). */
export function tempRangeVar(name: string): Fields {
  return { catalogname: TEMP_CATALOG, schemaname: TEMP_SCHEMA, relname: name, inh: true, relpersistence: 'p' };
}

/**
 * The FROM item reading a temporary table: its columns by name under the
 * user's alias (DuckDB's rowid stays out of reach, as for every table).
 */
export function tempItem(table: TempTable, alias: Fields): PgNode {
  const scan = tempRangeVar(table.name);
  SCANS.set(scan, table);
  const targetList = table.columns.map((c) => ({
    ResTarget: { name: c.name, val: { ColumnRef: { fields: [strNode(c.name)] } } },
  }));
  const a: Fields = { ...alias };
  if (!a['colnames']) a['colnames'] = table.columns.map((c) => strNode(c.name));
  return {
    RangeSubselect: {
      subquery: { SelectStmt: { targetList, fromClause: [{ RangeVar: scan }], limitOption: 'LIMIT_OPTION_DEFAULT', op: 'SETOP_NONE' } },
      alias: a,
    },
  };
}
