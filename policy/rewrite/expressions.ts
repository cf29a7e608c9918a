/**
 * Row-filter and mask expressions from policies, parsed with libpg-query and
 * checked like user SQL, then stricter (threats.md §2.4, §2.6): one scalar
 * expression over the table's own columns and allowlisted scalar functions —
 * no subqueries, other relations, aggregates, windows, parameters or session
 * settings. A filter must be boolean by its shape (a comparison, a boolean
 * test, AND/OR/NOT of such). `current_user`, `session_user`, `current_role`
 * and `is_role_in_session('r')` are folded to literals for the session; in a
 * mask, `{col}` stands for the masked column and Hive's mask functions are
 * built by masks.ts. Anything else throws PolicyExpressionError: the caller
 * filters out every row (filter) or restricts the column (mask).
 *
 * The result is in DuckDB's dialect (sql/dialect.ts applied) with every
 * column qualified by the scan alias.
 */
import { parseSync } from 'libpg-query';
import { authorize } from '../../sql/authorize.js';
import { applyDialect, type DialectContext } from '../../sql/dialect/dialect.js';
import { SCALAR_BUILTINS } from '../../sql/functions.js';
import { boolConst, names, nodeKind, replaceNode, strNode, walk, type Fields, type PgNode } from '../../sql/walk.js';
import { constArg, hiveMask, HIVE_MASK_FUNCTIONS, MaskBuildError, valueKind, type HiveCall, type MaskEnv } from './masks.js';

export class PolicyExpressionError extends Error {
  override readonly name = 'PolicyExpressionError';
}

/** Stands for `{col}` while the expression is parsed and checked. */
const COLUMN_PLACEHOLDER = 'lg__masked_column__';
const MARKER_PREFIX = 'lg__built_';

const SESSION_FUNCTIONS = new Set(['current_user', 'session_user', 'current_role']);
/** `x LIKE p ESCAPE e` arrives as a like_escape call (sql/authorize.ts checks where). */
const SYNTAX_FUNCTIONS = new Set(['like_escape']);
/** Set-returning or non-deterministic per session in ways a policy must not depend on. */
const NOT_IN_POLICIES = new Set(['unnest', 'generate_series']);

/** SQLValueFunction ops a policy may use: the user (folded) and the clock. */
const ALLOWED_SVF = new Set([
  'SVFOP_CURRENT_USER', 'SVFOP_USER', 'SVFOP_SESSION_USER', 'SVFOP_CURRENT_ROLE', 'SVFOP_CURRENT_DATE', 'SVFOP_CURRENT_TIME',
  'SVFOP_CURRENT_TIME_N', 'SVFOP_CURRENT_TIMESTAMP', 'SVFOP_CURRENT_TIMESTAMP_N', 'SVFOP_LOCALTIME', 'SVFOP_LOCALTIME_N',
  'SVFOP_LOCALTIMESTAMP', 'SVFOP_LOCALTIMESTAMP_N',
]);

const REFUSED_KINDS = new Set([
  'SubLink', 'SelectStmt', 'RangeVar', 'RangeSubselect', 'RangeFunction', 'JoinExpr', 'ParamRef', 'A_Star', 'WindowDef',
  'GroupingFunc', 'GroupingSet', 'SortBy', 'WithClause', 'CommonTableExpr',
]);

export interface ExpressionScope {
  /** the table's columns as policies name them (today's names): name → DuckDB type */
  columns: ReadonlyMap<string, string>;
  /** alias of the scan the expression is evaluated over */
  source: string;
  /** the scan's name for a column where it differs from the policies' (an older snapshot read by field id) */
  sourceNames?: ReadonlyMap<string, string>;
  user: string;
  roles: ReadonlySet<string>;
  dialect: DialectContext;
  mask: MaskEnv;
}

const fail = (msg: string): never => {
  throw new PolicyExpressionError(msg);
};

function parseExpression(text: string): Fields {
  let result: { stmts?: { stmt?: PgNode }[] };
  try {
    // Parenthesised, so that the text can only close what it opened; anything around it fails the shape check below.
    result = parseSync(`SELECT (${text})`) as typeof result;
  } catch (e) {
    return fail(`does not parse: ${(e as Error).message}`);
  }
  const stmts = result.stmts ?? [];
  const select = stmts.length === 1 ? stmts[0]!.stmt?.['SelectStmt'] : undefined;
  if (!select) return fail('is not one expression');
  const keys = Object.keys(select).filter((k) => !['targetList', 'limitOption', 'op'].includes(k));
  const targets = (select['targetList'] ?? []) as Fields[];
  if (keys.length > 0 || targets.length !== 1 || targets[0]!['ResTarget']?.name !== undefined) return fail('is not one expression');
  return select;
}

const isColumnRef = (n: unknown): n is { ColumnRef: Fields } => nodeKind(n) === 'ColumnRef';

function columnName(n: unknown): string | undefined {
  if (!isColumnRef(n)) return undefined;
  const parts = n.ColumnRef['fields'] as unknown[];
  return parts.length === 1 && nodeKind(parts[0]) === 'String' ? String((parts[0] as Fields)['String'].sval) : undefined;
}

/** Hive mask calls → built expressions behind markers; is_role_in_session → a boolean literal. */
function expandSpecialCalls(expr: unknown, scope: ExpressionScope, maskedColumn: string | undefined, built: Map<string, PgNode>): void {
  walk(expr, ({ kind, node, fields }) => {
    if (kind !== 'FuncCall') return;
    const parts = names(fields['funcname']);
    const name = parts.length === 1 ? parts[0]! : '';
    const args = (fields['args'] ?? []) as unknown[];
    if (name === 'is_role_in_session') {
      const role = args.length === 1 ? (args[0] as Fields)?.['A_Const']?.sval?.sval : undefined;
      if (typeof role !== 'string') fail('is_role_in_session needs one constant role name');
      replaceNode(node, boolConst(scope.roles.has(role as string)));
      return false;
    }
    if (!HIVE_MASK_FUNCTIONS.has(name) || maskedColumn === undefined) return;
    if (fields['agg_star'] || fields['agg_distinct'] || fields['over'] || fields['func_variadic']) fail(`${name} is called oddly`);
    const col = columnName(args[0]);
    const target = col === COLUMN_PLACEHOLDER ? maskedColumn : col;
    if (target === undefined || !scope.columns.has(target)) fail(`${name} must mask a column of the table`);
    try {
      const hive: HiveCall = {
        name: name as HiveCall['name'],
        value: qualified(scope.source, sourceColumn(scope, target!)),
        kind: valueKind(scope.columns.get(target!)!),
        args: args.slice(1).map(constArg),
      };
      const marker = `${MARKER_PREFIX}${built.size}__`;
      built.set(marker, hiveMask(hive, scope.mask));
      replaceNode(node, { ColumnRef: { fields: [strNode(marker)] } });
    } catch (e) {
      if (e instanceof MaskBuildError) fail(e.message);
      throw e;
    }
    return false;
  });
}

function checkStructure(expr: unknown, scope: ExpressionScope, maskedColumn: string | undefined, built: Map<string, PgNode>): void {
  walk(expr, ({ kind, fields }) => {
    if (REFUSED_KINDS.has(kind)) fail(`may not use ${kind}`);
    switch (kind) {
      case 'FuncCall': {
        const parts = names(fields['funcname']);
        const name = parts[parts.length - 1] ?? '';
        if (parts.length > 2 || (parts.length === 2 && parts[0] !== 'pg_catalog')) fail(`may not call ${parts.join('.')}`);
        const allowed = (SCALAR_BUILTINS.has(name) && !NOT_IN_POLICIES.has(name)) || SESSION_FUNCTIONS.has(name) || SYNTAX_FUNCTIONS.has(name);
        if (!allowed) fail(`may not call ${name}`);
        if (fields['agg_star'] || fields['agg_distinct'] || fields['agg_filter'] || fields['agg_order'] || fields['over'] || fields['agg_within_group']) {
          fail(`may not aggregate`);
        }
        return;
      }
      case 'SQLValueFunction':
        if (!ALLOWED_SVF.has(String(fields['op']))) fail(`may not use ${String(fields['op'])}`);
        return;
      case 'TypeCast': {
        const t = names(fields['typeName']?.['names']);
        if (/^reg/.test(t[t.length - 1] ?? '')) fail('may not cast to catalog types');
        return;
      }
      case 'ColumnRef': {
        const col = columnName({ ColumnRef: fields });
        const known = col !== undefined && (scope.columns.has(col) || built.has(col) || (col === COLUMN_PLACEHOLDER && maskedColumn !== undefined));
        if (!known) fail(`may only refer to the table's own columns`);
        return;
      }
      default:
        return;
    }
  });
}

const COMPARISON_OPS = new Set(['=', '<>', '!=', '<', '>', '<=', '>=', '~', '!~', '~*', '!~*', '~~', '!~~', '~~*', '!~~*']);
const BOOLEAN_FUNCTIONS = new Set(['starts_with', 'isfinite']);

/** True when the expression is boolean by its shape; a filter that is not is refused (`1` is no filter). */
function isBooleanShaped(n: unknown, scope: ExpressionScope): boolean {
  const kind = nodeKind(n);
  const f = kind ? (n as PgNode)[kind]! : {};
  switch (kind) {
    case 'BoolExpr':
      return ((f['args'] ?? []) as unknown[]).every((a) => isBooleanShaped(a, scope));
    case 'NullTest':
    case 'BooleanTest':
      return true;
    case 'A_Const':
      return f['boolval'] !== undefined || f['isnull'] === true;
    case 'A_Expr': {
      const k = String(f['kind']);
      if (k === 'AEXPR_OP') return COMPARISON_OPS.has(names(f['name']).pop() ?? '');
      return k !== 'AEXPR_NULLIF';
    }
    case 'TypeCast': {
      const t = names(f['typeName']?.['names']).pop();
      return (t === 'bool' || t === 'boolean') && !f['typeName']?.['arrayBounds'];
    }
    case 'FuncCall':
      return BOOLEAN_FUNCTIONS.has(names(f['funcname']).pop() ?? '');
    case 'ColumnRef': {
      const col = columnName(n);
      return col !== undefined && scope.columns.get(col)?.toUpperCase() === 'BOOLEAN';
    }
    default:
      return false;
  }
}

/** The scan's column for a column the policy names. */
function sourceColumn(scope: ExpressionScope, column: string): string {
  return scope.sourceNames?.get(column) ?? column;
}

export function qualified(source: string, column: string): PgNode {
  return { ColumnRef: { fields: [strNode(source), strNode(column)] } };
}

/**
 * Compile a policy expression for one table. `maskedColumn` set: a mask
 * (`{col}` allowed, Hive mask functions built); unset: a row filter.
 */
export function compilePolicyExpression(text: string, scope: ExpressionScope, maskedColumn?: string): PgNode {
  if (text.includes(COLUMN_PLACEHOLDER) || text.includes(MARKER_PREFIX)) fail('uses a reserved name');
  const source = maskedColumn !== undefined ? text.split('{col}').join(COLUMN_PLACEHOLDER) : text;
  const select = parseExpression(source);
  const target = (select['targetList'] as Fields[])[0]!['ResTarget'] as Fields;
  const built = new Map<string, PgNode>();
  expandSpecialCalls(select, scope, maskedColumn, built);
  checkStructure(select, scope, maskedColumn, built);
  if (maskedColumn === undefined && !isBooleanShaped(target['val'], scope)) fail('is not a boolean condition');
  try {
    authorize({ SelectStmt: select });
    applyDialect({ SelectStmt: select }, scope.dialect);
  } catch (e) {
    fail((e as Error).message);
  }
  // Only the table's columns remain; each is qualified by the scan alias, markers become their built masks.
  walk(select, ({ kind, node }) => {
    if (kind !== 'ColumnRef') return;
    const col = columnName(node)!;
    if (built.has(col)) replaceNode(node, built.get(col)!);
    else replaceNode(node, qualified(scope.source, sourceColumn(scope, col === COLUMN_PLACEHOLDER ? maskedColumn! : col)));
    return false;
  });
  return target['val'] as PgNode;
}
