/**
 * The query pipeline for read statements: authorize → name output columns →
 * resolve relations → dialect → deparse. Nothing reaches DuckDB that did not
 * pass every step; there is no fallback that sends the user's text on.
 */
import { authorize } from './authorize.js';
import type { RelationCatalog } from './catalogView.js';
import { nameTargets } from './colnames.js';
import { toDuckDbSql } from './deparse.js';
import { applyDialect, type ProbeMiss } from './dialect/dialect.js';
import { rewriteWithTies } from './withTies.js';
import { EMULATION_DB } from './emulation.js';
import { notSupported, pos, SqlError } from './errors.js';
import { bindOutputColumnRefs } from './outputRefs.js';
import type { ParsedStatement } from './parse.js';
import { resolveRelations, type TableReference } from './resolve.js';
import { checkColumnReferences } from './columnRefs.js';
import { jsonbByValue, resultTypes, tableScans, type ResultTypes } from './resultTypes.js';
import { settingsRelation } from './settings.js';
import { checkSetReturningPlacement } from './setReturning.js';
import type { TempScope } from './tempTables.js';
import { cloneTree, nodeKind, replaceNode, walk, type PgNode } from './walk.js';

export interface QueryContext {
  /** the PostgreSQL database name, which is also the DuckDB catalog holding the data */
  database: string;
  searchPath: string[];
  user: string;
  settings: (name: string) => string | undefined;
  backendPid: number;
  catalog: RelationCatalog;
  /** Told of each name probe that answered NULL (to_regclass), for the audit trail. */
  probeMissed?: (miss: ProbeMiss) => void;
  /** The session's temporary tables (found before any schema, as PostgreSQL's pg_temp). */
  temp?: TempScope;
}

/**
 * A read statement translated: the DuckDB SQL and what the server needs to
 * know about it. (The server's QueryPlan, server/queryPlan.ts, is what it runs.)
 */
export interface TranslatedQuery {
  sql: string;
  kind: 'select' | 'explain';
  /** user tables read, already rewritten to qualified DuckDB references */
  tables: TableReference[];
  /** PostgreSQL types of result columns DuckDB has no type for (name, oid, regtype …) */
  resultTypes?: ResultTypes;
  /** reads pg_stat_activity, whose rows must be filled before each run */
  readsActivity?: true;
  /**
   * `select` / `select from t` with no target list: PostgreSQL answers rows of
   * zero columns; DuckDB cannot, so the plan selects one constant (through
   * the data gate like any query: row filters decide the row count) and the
   * server drops that column from RowDescription and every DataRow.
   */
  zeroColumns?: true;
}

/** A SELECT without a target list (not VALUES, not a set operation). */
const noTargets = (select: Record<string, unknown> | undefined): boolean =>
  select !== undefined && select['op'] === 'SETOP_NONE' && !select['valuesLists'] && !(select['targetList'] as unknown[] | undefined)?.length;

const constantTarget = (): PgNode[] => [{ ResTarget: { name: 'lg_zero_columns', val: { A_Const: { ival: { ival: 1 } } } } }];

/**
 * Target lists PostgreSQL lets be empty: the statement's own (true: the
 * result has zero columns) and an EXISTS / IN subquery's, which DuckDB
 * needs a column in and whose columns nothing reads.
 */
function fillEmptyTargets(query: PgNode): boolean {
  walk(query, ({ kind, fields }) => {
    if (kind !== 'SubLink' || fields['subLinkType'] !== 'EXISTS_SUBLINK') return;
    const sub = (fields['subselect'] as PgNode | undefined)?.['SelectStmt'];
    if (noTargets(sub)) sub!['targetList'] = constantTarget();
  });
  const top = query['SelectStmt'];
  if (!noTargets(top)) return false;
  // ORDER BY 1 would sort by the constant put in its place; PostgreSQL has no column 1 to sort by
  for (const by of (top!['sortClause'] ?? []) as PgNode[]) {
    const node = by['SortBy']?.['node'] as PgNode | undefined;
    const position = node?.['A_Const']?.['ival'];
    if (position !== undefined) {
      throw new SqlError('42P10', `ORDER BY position ${Number(position['ival'] ?? 0)} is not in select list`, pos(node!['A_Const']!['location']));
    }
  }
  top!['targetList'] = constantTarget();
  return true;
}

function innerQuery(node: PgNode): { kind: TranslatedQuery['kind']; query: PgNode } {
  const kind = nodeKind(node);
  if (kind === 'SelectStmt') return { kind: 'select', query: node };
  if (kind === 'ExplainStmt') {
    const inner = node['ExplainStmt']!['query'] as PgNode;
    if (nodeKind(inner) === 'SelectStmt') return { kind: 'explain', query: inner };
    throw notSupported(`EXPLAIN of ${nodeKind(inner) ?? 'this statement'}`);
  }
  throw notSupported(`${kind ?? 'this'} statement as a query`);
}

/** DuckDB's plan has no costs and one level of detail: COSTS and VERBOSE, once authorized, do not reach it. */
function dropExplainDetail(tree: PgNode): void {
  const explain = tree['ExplainStmt']!;
  const options = (explain['options'] ?? []) as { DefElem?: { defname?: string } }[];
  const kept = options.filter((o) => !['costs', 'verbose'].includes(String(o.DefElem?.defname).toLowerCase()));
  if (kept.length) explain['options'] = kept;
  else delete explain['options'];
}

export interface PlanOptions {
  /**
   * Called with the resolved user-table references after the dialect pass,
   * just before deparse: the place for the policy rewrite to replace each
   * `node` with its filtered, masked derived table. Nodes it inserts are
   * trusted (not authorized again), already in DuckDB's dialect (the policy
   * layer puts its own expressions through applyDialect with `ctx`), and must
   * reference tables fully qualified. `tree` is the whole statement as it
   * stands (the policy layer reads how the statement uses each reference).
   */
  rewriteTables?: (tables: TableReference[], ctx: QueryContext, tree: PgNode) => void;
}

/**
 * Plan one read statement. Throws SqlError (0A000, 42883, 42P01, 42704 …)
 * for anything it does not accept.
 */
export function planQuery(stmt: ParsedStatement | PgNode, ctx: QueryContext, options: PlanOptions = {}): TranslatedQuery {
  const original = 'node' in stmt && 'kind' in stmt && 'text' in stmt ? (stmt as ParsedStatement).node : (stmt as PgNode);
  // Plans mutate the tree; the caller's parse result stays intact for logging and re-planning.
  const tree = cloneTree(original);
  const { kind } = innerQuery(tree);
  // Before the allowlist: PostgreSQL refuses the placement of a set-returning function it knows before anything lakegate
  // admits it in (jsonb_array_elements only in FROM), and the check reads the tree only.
  checkSetReturningPlacement(tree);
  authorize(tree, (schema) => ctx.catalog.listSchemas().includes(schema));
  if (kind === 'explain') dropExplainDetail(tree);
  nameTargets(tree);
  const tables = resolveRelations(tree, ctx);
  checkColumnReferences(tree, tables);
  const scans = tableScans(tables);
  const types = kind === 'select' ? resultTypes(tree, scans) : undefined;
  if (kind === 'select') jsonbByValue(tree, scans);
  if (kind === 'select') rewriteWithTies(tree);
  const zeroColumns = fillEmptyTargets(innerQuery(tree).query) && kind === 'select';
  applyDialect(tree, ctx, tables);
  bindOutputColumnRefs(tree);
  // pg_settings holds session values, so it is built per statement from ctx.settings.
  let readsActivity = false;
  walk(tree, ({ kind: k, node, fields }) => {
    if (k !== 'RangeVar' || fields['catalogname'] !== EMULATION_DB) return;
    if (fields['relname'] === 'pg_stat_activity') readsActivity = true;
    if (fields['relname'] === 'pg_settings') {
      replaceNode(node, settingsRelation(ctx.settings, fields['alias']));
      return false;
    }
  });
  options.rewriteTables?.(tables, ctx, tree);
  return {
    sql: toDuckDbSql(tree),
    kind,
    tables,
    ...(types ? { resultTypes: types } : {}),
    ...(readsActivity ? { readsActivity: true as const } : {}),
    ...(zeroColumns ? { zeroColumns } : {}),
  };
}
