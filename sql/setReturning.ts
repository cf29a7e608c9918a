/**
 * Where PostgreSQL refuses a set-returning function call (its parse analysis:
 * check_srf_call_placement, and the aggregate, window, CASE and COALESCE
 * checks), refused here first with PostgreSQL's code, words, position and
 * hint. Without this, DuckDB fails on the planned SQL and the user gets an
 * internal error.
 *
 * A call's own clause decides first (WHERE, JOIN conditions, HAVING, LIMIT,
 * OFFSET, VALUES, FILTER, a FROM function's arguments); where the clause
 * allows it (the select list, GROUP BY, ORDER BY, DISTINCT ON, window
 * PARTITION / ORDER), the innermost aggregate, window function, CASE or
 * COALESCE around it refuses it.
 */
import { SqlError, pos } from './errors.js';
import { AGGREGATE_FUNCTIONS, inTableFunctionPosition, names, walk, type Fields, type PathStep } from './walk.js';

/**
 * The set-returning functions user SQL may call: those of PostgreSQL 15's
 * pg_proc rows lakegate admits with proretset (pgcatalog/pgBuiltins.ts;
 * pgcatalog/pgProc.test.ts checks this list against them).
 */
export const SET_RETURNING_FUNCTIONS: ReadonlySet<string> = new Set([
  '_pg_expandarray', 'generate_series', 'generate_subscripts', 'json_array_elements', 'json_array_elements_text',
  'json_each', 'json_each_text', 'json_object_keys', 'jsonb_array_elements', 'jsonb_array_elements_text', 'jsonb_each',
  'jsonb_each_text', 'pg_get_keywords', 'regexp_matches', 'regexp_split_to_table', 'string_to_table', 'unnest',
]);

const LATERAL_HINT = 'You might be able to move the set-returning function into a LATERAL FROM item.';

/** Aggregates PostgreSQL knows by name beyond walk.ts's list (which DuckDB's also fill). */
const MORE_AGGREGATES: ReadonlySet<string> = new Set(['json_object_agg', 'jsonb_object_agg', 'regr_avgx', 'regr_avgy', 'regr_r2', 'regr_sxx', 'regr_sxy', 'regr_syy']);

function isSetReturning(f: Fields): boolean {
  const parts = names(f['funcname']);
  if (parts.length === 0 || parts.length > 2 || (parts.length === 2 && !['pg_catalog', 'information_schema'].includes(parts[0]!))) return false;
  return SET_RETURNING_FUNCTIONS.has(parts[parts.length - 1]!);
}

function isAggregateCall(f: Fields): boolean {
  if (f['agg_star'] || f['agg_distinct'] || f['agg_within_group'] || f['agg_filter'] || f['agg_order']) return true;
  const name = names(f['funcname']).pop() ?? '';
  return AGGREGATE_FUNCTIONS.has(name) || MORE_AGGREGATES.has(name);
}

/** The clause a step leads into, where PostgreSQL refuses a set-returning call in it. */
function refusingClause(step: PathStep, outer: PathStep | undefined): string | null {
  if (step.kind === 'UpdateStmt' || step.kind === 'DeleteStmt' || step.kind === 'InsertStmt') {
    if (step.key === 'whereClause') return 'WHERE';
    if (step.key === 'returningClause' || step.key === 'returningList') return 'RETURNING';
    return step.kind === 'UpdateStmt' && step.key === 'targetList' ? 'UPDATE' : null;
  }
  if (step.kind === 'MergeStmt') return step.key === 'joinCondition' ? 'JOIN conditions' : null;
  if (step.kind === 'MergeWhenClause') {
    if (step.key === 'condition') return 'MERGE WHEN conditions';
    return step.key === 'targetList' ? 'UPDATE' : null;
  }
  if (step.kind === 'SelectStmt') {
    switch (step.key) {
      case 'whereClause':
        return 'WHERE';
      case 'havingClause':
        return 'HAVING';
      case 'limitCount':
        return 'LIMIT';
      case 'limitOffset':
        return 'OFFSET';
      case 'valuesLists':
        // An INSERT's one VALUES row may hold one (each value makes a row); more rows may not.
        return outer?.kind === 'InsertStmt' && outer.key === 'selectStmt' && (step.holder['valuesLists'] as unknown[]).length === 1 ? null : 'VALUES';
      default:
        return null;
    }
  }
  if (step.kind === 'JoinExpr' && step.key === 'quals') return 'JOIN conditions';
  if (step.kind === 'FuncCall' && step.key === 'agg_filter') return 'FILTER';
  return null;
}

const STATEMENTS: ReadonlySet<string> = new Set(['SelectStmt', 'UpdateStmt', 'DeleteStmt', 'InsertStmt', 'MergeStmt', 'MergeWhenClause', 'RangeFunction']);

/** The step that ends the search for a call's clause: its statement or MERGE action, join, FILTER or FROM function. */
function isClauseBoundary(step: PathStep): boolean {
  return STATEMENTS.has(step.kind ?? '') || (step.kind === 'JoinExpr' && step.key === 'quals') || (step.kind === 'FuncCall' && step.key === 'agg_filter');
}

/** PostgreSQL's refusal of one set-returning call at `path`, or null where it is allowed. */
function refusal(call: Fields, path: readonly PathStep[]): SqlError | null {
  const at = pos(call['location']);
  let boundary = -1;
  for (let i = path.length - 1; i >= 0; i--) {
    if (isClauseBoundary(path[i]!)) {
      boundary = i;
      break;
    }
  }
  const clauseStep = boundary >= 0 ? path[boundary]! : undefined;
  if (clauseStep?.kind === 'RangeFunction') {
    if (inTableFunctionPosition(path)) return null;
    return new SqlError('0A000', 'set-returning functions must appear at top level of FROM', at);
  }
  if (clauseStep?.kind === 'MergeWhenClause' && clauseStep.key === 'values') {
    // PostgreSQL's own words here come from its executor, not its parser.
    return new SqlError('0A000', 'set-valued function called in context that cannot accept a set', at);
  }
  const clause = clauseStep ? refusingClause(clauseStep, path[boundary - 1]) : null;
  if (clause) return new SqlError('0A000', `set-returning functions are not allowed in ${clause}`, at);
  // Allowed by its clause: the innermost aggregate, window function, CASE or COALESCE around it refuses it.
  for (let i = path.length - 1; i > boundary; i--) {
    const step = path[i]!;
    if (step.kind === 'CaseExpr') return new SqlError('0A000', 'set-returning functions are not allowed in CASE', at, { hint: LATERAL_HINT });
    if (step.kind === 'CoalesceExpr') return new SqlError('0A000', 'set-returning functions are not allowed in COALESCE', at, { hint: LATERAL_HINT });
    if (step.kind === 'FuncCall' && (step.key === 'args' || step.key === 'agg_order')) {
      if (step.holder['over']) return new SqlError('0A000', 'window function calls cannot contain set-returning function calls', at, { hint: LATERAL_HINT });
      if (isAggregateCall(step.holder)) return new SqlError('0A000', 'aggregate function calls cannot contain set-returning function calls', at, { hint: LATERAL_HINT });
    }
  }
  return null;
}

/** The order PostgreSQL analyses a SELECT's clauses in: its first refusal is the one it reports. */
const CLAUSE_ORDER: Readonly<Record<string, number>> = {
  withClause: 0, fromClause: 1, targetList: 2, whereClause: 3, havingClause: 4, sortClause: 5, groupClause: 6,
  distinctClause: 7, limitOffset: 8, limitCount: 9, windowClause: 10, valuesLists: 2,
};

/** Where a call sits, as the clause ranks of each SELECT on its path from the root: compared in order, the smaller first. */
function analysisOrder(path: readonly PathStep[], location: number): number[] {
  const out: number[] = [];
  for (const step of path) if (step.kind === 'SelectStmt') out.push(CLAUSE_ORDER[step.key] ?? 11);
  out.push(location);
  return out;
}

function before(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! < b[i]!;
  return a.length < b.length;
}

/** Throws PostgreSQL's error for the first set-returning call (in PostgreSQL's analysis order) where it refuses one. */
export function checkSetReturningPlacement(root: unknown): void {
  let first: { error: SqlError; order: number[] } | null = null;
  walk(root, (v) => {
    if (v.kind !== 'FuncCall' || !isSetReturning(v.fields)) return;
    const error = refusal(v.fields, v.path);
    if (!error) return;
    const order = analysisOrder(v.path, typeof v.fields['location'] === 'number' ? v.fields['location'] : 0);
    if (!first || before(order, first.order)) first = { error, order };
  });
  if (first) throw (first as { error: SqlError }).error;
}
