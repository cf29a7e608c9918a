/**
 * The authorization boundary for read statements (design.md style rule 3):
 * every wrapped node of the user's tree is checked against an allowlist; a
 * node kind that is not listed is refused, so a construct added to the grammar
 * later is denied until someone decides it is safe.
 */
import { notSupported, SqlError, pos, undefinedFunction } from './errors.js';
import { ALLOWED_OPERATORS, isAllowedFunction } from './functions.js';
import { inTableFunctionPosition, names, walk, type Fields, type Visit } from './walk.js';

/** Kinds that carry no capability of their own; their children are still checked. */
const PLAIN_KINDS: ReadonlySet<string> = new Set([
  'SelectStmt', 'ResTarget', 'ColumnRef', 'String', 'Integer', 'Float', 'Boolean', 'A_Const', 'A_Star',
  'BoolExpr', 'NullTest', 'BooleanTest', 'CaseExpr', 'CaseWhen', 'CoalesceExpr', 'MinMaxExpr', 'SubLink',
  'RangeVar', 'RangeSubselect', 'JoinExpr', 'SortBy', 'WindowDef', 'WithClause', 'CommonTableExpr', 'Alias',
  'A_Indirection', 'A_Indices', 'A_ArrayExpr', 'RowExpr', 'ParamRef', 'SQLValueFunction', 'GroupingSet',
  'GroupingFunc', 'List', 'TypeName',
]);

/** Kinds checked individually below. */
const CHECKED_KINDS: ReadonlySet<string> = new Set([
  'FuncCall', 'TypeCast', 'A_Expr', 'RangeFunction', 'CollateClause', 'ExplainStmt', 'DefElem', 'BitString', 'NamedArgExpr',
]);

/** Functions whose arguments may be named (`make_interval(days => 3)`); sql/dialect/builtin.ts places them. */
const NAMED_ARGUMENT_FUNCTIONS: ReadonlySet<string> = new Set(['make_interval']);

const A_EXPR_KINDS: ReadonlySet<string> = new Set([
  'AEXPR_OP', 'AEXPR_OP_ANY', 'AEXPR_OP_ALL', 'AEXPR_DISTINCT', 'AEXPR_NOT_DISTINCT', 'AEXPR_NULLIF', 'AEXPR_IN',
  'AEXPR_LIKE', 'AEXPR_ILIKE', 'AEXPR_BETWEEN', 'AEXPR_NOT_BETWEEN', 'AEXPR_SIMILAR',
  // written out as two BETWEENs by sql/dialect/dialect.ts (DuckDB has no SYMMETRIC)
  'AEXPR_BETWEEN_SYM', 'AEXPR_NOT_BETWEEN_SYM',
]);

/** Collations that mean "the default, byte order" on DuckDB's side; sql/dialect/dialect.ts drops them. */
export const IGNORED_COLLATIONS: ReadonlySet<string> = new Set(['default', 'C', 'POSIX', 'ucs_basic']);

const display = (parts: string[]): string => parts.join('.');

/**
 * Functions the session answers itself (server/sessionFunctions.ts), only in
 * `SELECT pg_sleep(1)`-like statements: elsewhere PostgreSQL knows them, so
 * "does not exist" would be false; lakegate says what it lacks.
 */
const SESSION_FUNCTIONS: ReadonlySet<string> = new Set(['pg_sleep', 'set_config', 'txid_current', 'pg_cancel_backend', 'pg_terminate_backend']);

function checkFuncCall(v: Visit, schemaExists?: (schema: string) => boolean): void {
  const f = v.fields;
  const parts = names(f['funcname']);
  const asTable = inTableFunctionPosition(v.path);
  // `x LIKE p ESCAPE e` arrives as LIKE with pattern pg_catalog.like_escape(p, e); sql/dialect/dialect.ts unwraps it
  const parent = v.path[v.path.length - 1];
  const likeKinds = ['AEXPR_LIKE', 'AEXPR_ILIKE'];
  if (parts[parts.length - 1] === 'like_escape' && parent?.kind === 'A_Expr' && parent.key === 'rexpr' && likeKinds.includes(parent.holder['kind'])) return;
  // `x SIMILAR TO p` arrives with pattern pg_catalog.similar_to_escape(p); sql/dialect/format.ts translates both
  if (parts[parts.length - 1] === 'similar_to_escape' && parent?.kind === 'A_Expr' && parent.key === 'rexpr' && parent.holder['kind'] === 'AEXPR_SIMILAR') return;
  if (!isAllowedFunction(parts, asTable)) {
    const name = parts[parts.length - 1]!;
    if (SESSION_FUNCTIONS.has(name) && (parts.length === 1 || parts[0] === 'pg_catalog')) {
      throw notSupported(`${name}() outside a SELECT list made only of session-function calls with constant arguments`, f['location']);
    }
    // PostgreSQL looks the schema up first: nosuchschema.f(1) is 3F000, tpch.f(1) 42883
    if (parts.length === 2 && schemaExists && !['pg_catalog', 'information_schema'].includes(parts[0]!) && !schemaExists(parts[0]!)) {
      throw new SqlError('3F000', `schema "${parts[0]}" does not exist`, pos(f['location']));
    }
    throw undefinedFunction(display(parts), f['location'], (f['args'] ?? []) as unknown[]);
  }
  if (f['func_variadic']) throw notSupported('VARIADIC arguments', f['location']);
}

/** `x op ANY (SELECT …)` carries its operator on the SubLink. */
function checkOperator(parts: string[], location: unknown): void {
  const op = parts[parts.length - 1] ?? '';
  if ((parts.length === 2 && parts[0] !== 'pg_catalog') || parts.length > 2 || !ALLOWED_OPERATORS.has(op)) {
    throw new SqlError('42883', `operator does not exist: ${display(parts)}`, pos(location));
  }
}

function checkAExpr(v: Visit): void {
  const f = v.fields;
  const kind = String(f['kind']);
  if (!A_EXPR_KINDS.has(kind)) throw notSupported(`expression ${kind}`, f['location']);
  const parts = names(f['name']);
  const op = parts[parts.length - 1] ?? '';
  if (parts.length === 2 && parts[0] !== 'pg_catalog') {
    throw new SqlError('42883', `operator does not exist: ${display(parts)}`, pos(f['location']));
  }
  const likeKinds = kind === 'AEXPR_LIKE' || kind === 'AEXPR_ILIKE';
  const known = likeKinds || kind.includes('BETWEEN') || ALLOWED_OPERATORS.has(op);
  if (!known) throw new SqlError('42883', `operator does not exist: ${op}`, pos(f['location']));
}

function checkRangeFunction(f: Fields): void {
  if (f['is_rowsfrom']) throw notSupported('ROWS FROM', f['location']);
  if (f['coldeflist']) throw notSupported('column definition lists', f['location']);
  for (const item of f['functions'] ?? []) {
    // each item is a List of [FuncCall, column definitions]
    const pair = item?.List?.items ?? [];
    if (!pair[0]?.FuncCall) throw notSupported('this table function form', f['location']);
  }
}

function checkExplain(f: Fields): void {
  for (const opt of f['options'] ?? []) {
    const name = String(opt?.DefElem?.defname ?? '').toLowerCase();
    // ANALYZE runs the statement and reports its row counts: server/planner.ts refuses any EXPLAIN (42501) of a
    // query on a table with row filters or masks, so the counts are never those of a protected relation.
    if (name !== 'verbose' && name !== 'costs' && name !== 'format' && name !== 'analyze') {
      throw notSupported(`EXPLAIN option ${name.toUpperCase()}`, opt?.DefElem?.location);
    }
    const arg = opt?.DefElem?.arg;
    const value = arg?.String?.sval ?? (arg ? undefined : 'true');
    const ok = name === 'format' ? ['text', 'json'].includes(String(value).toLowerCase()) : arg === undefined || arg?.Boolean || arg?.String;
    if (!ok || (arg?.String && name !== 'format' && !['true', 'false', 'on', 'off'].includes(String(value).toLowerCase()))) {
      throw notSupported(`EXPLAIN option value for ${name.toUpperCase()}`, opt?.DefElem?.location);
    }
  }
}

function checkSelect(f: Fields): void {
  if (f['intoClause']) throw notSupported('SELECT INTO', undefined);
  if (f['lockingClause']) throw notSupported('SELECT FOR UPDATE/SHARE', undefined);
}

/** Write statements sql/write/ plans: accepted only as the statement itself, never nested (a data-modifying CTE). */
const WRITE_STATEMENTS: ReadonlySet<string> = new Set(['InsertStmt', 'UpdateStmt', 'DeleteStmt', 'MergeStmt']);

/**
 * DEFAULT as a value: in an INSERT's VALUES row, an UPDATE's SET, or a MERGE
 * action's SET or VALUES (the grammar allows it nowhere else).
 */
function defaultAllowed(path: Visit['path']): boolean {
  const parent = path[path.length - 1];
  if (parent?.kind === 'List' && parent.key === 'items') {
    const values = path[path.length - 2];
    return values?.kind === 'SelectStmt' && values.key === 'valuesLists' && path[path.length - 3]?.kind === 'InsertStmt' && path.length === 3;
  }
  if (parent?.kind === 'ResTarget' && parent.key === 'val') {
    const holder = path[path.length - 2];
    return (holder?.kind === 'UpdateStmt' && path.length === 2) || (holder?.kind === 'MergeWhenClause' && holder.key === 'targetList' && path.length === 3);
  }
  return parent?.kind === 'MergeWhenClause' && parent.key === 'values' && path.length === 2;
}

export interface AuthorizeOptions {
  /** The root is a write statement (sql/write/), its target already taken out of the tree. */
  write?: boolean;
}

/**
 * Throws a SqlError for the first construct not on the allowlist.
 * `schemaExists` (the user's catalog) words a call qualified with an unknown schema as PostgreSQL does.
 */
export function authorize(root: unknown, schemaExists?: (schema: string) => boolean, options: AuthorizeOptions = {}): void {
  walk(root, (v) => {
    const { kind, fields: f } = v;
    if (options.write) {
      if (WRITE_STATEMENTS.has(kind) && v.path.length === 0) return;
      if (kind === 'MergeWhenClause' && v.path.length === 1 && v.path[0]!.kind === 'MergeStmt') return;
      if (kind === 'SetToDefault' && defaultAllowed(v.path)) return;
    }
    if (PLAIN_KINDS.has(kind)) {
      if (kind === 'SelectStmt') checkSelect(f);
      if (kind === 'SubLink' && f['operName']) checkOperator(names(f['operName']), f['location']);
      return;
    }
    if (!CHECKED_KINDS.has(kind)) throw notSupported(construct(kind), f['location']);
    switch (kind) {
      case 'FuncCall':
        return checkFuncCall(v, schemaExists);
      case 'A_Expr':
        return checkAExpr(v);
      case 'RangeFunction':
        return checkRangeFunction(f);
      case 'ExplainStmt':
        return checkExplain(f);
      case 'CollateClause': {
        const coll = names(f['collname']);
        if (!IGNORED_COLLATIONS.has(coll[coll.length - 1] ?? '')) {
          throw notSupported(`collation "${display(coll)}"`, f['location']);
        }
        return;
      }
      case 'NamedArgExpr': {
        const parent = v.path[v.path.length - 1];
        const fn = parent?.kind === 'FuncCall' ? names(parent.holder['funcname']) : [];
        if (!NAMED_ARGUMENT_FUNCTIONS.has(fn[fn.length - 1] ?? '')) throw notSupported('named arguments', f['location']);
        return;
      }
      case 'DefElem': {
        // options belong to EXPLAIN (checked there); anywhere else they are a construct we do not know
        const parent = v.path[v.path.length - 1];
        if (parent?.kind !== 'ExplainStmt') throw notSupported('options here', f['location']);
        return;
      }
      default:
        return; // TypeCast is checked when sql/dialect/dialect.ts maps the type
    }
  });
}

/** A readable name for a refused node kind: RangeTableSample → TABLESAMPLE etc. */
function construct(kind: string): string {
  const known: Record<string, string> = {
    RangeTableSample: 'TABLESAMPLE',
    RangeTableFunc: 'XMLTABLE',
    JsonTable: 'JSON_TABLE',
    XmlExpr: 'XML expressions',
    XmlSerialize: 'XMLSERIALIZE',
    LockingClause: 'SELECT FOR UPDATE/SHARE',
    IntoClause: 'SELECT INTO',
    CurrentOfExpr: 'WHERE CURRENT OF',
    MultiAssignRef: 'multiple assignment',
  };
  return known[kind] ?? (kind.endsWith('Stmt') ? `${kind.slice(0, -4)} statements` : kind);
}
