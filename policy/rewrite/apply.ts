/**
 * Apply a decision: the derived table that replaces one base-table reference
 * (design.md §4, threats.md §2.2, §2.5):
 *
 *   (SELECT CASE WHEN <filters> THEN <masked col> END AS col, …   -- every column, same name, type, order
 *      FROM <table.scan()> AS lg_src
 *     WHERE <filters>) AS <the user's alias>
 *
 * Every reference gets one, also when no policy applies: only the catalog's
 * columns leave it (the scan has names of its own, e.g. iceberg_scan's
 * `filename`). Filters see the stored values, masks replace the columns, the
 * user's own predicates, joins and aggregates see only what the derived table
 * exposes.
 * DuckDB has no security barrier and may evaluate a user's predicate below
 * the WHERE; the CASE makes every column NULL on a row the filters remove, so
 * a predicate evaluated early (`1/(amount-100)`, a failing cast) never sees a
 * removed row's value. The filters are computed once per row, as a column of
 * an inner SELECT (see fencedByCase). The `materialized` fence instead
 * computes the filtered, masked rows in a MATERIALIZED CTE first (measured in
 * bench/).
 *
 * The fence also keeps DuckDB from pushing the user's own predicates into the
 * scan. A reference whose statement reads it only through leakproof
 * predicates (fence.ts, leakproof.ts) gets the `unfenced` form instead: the
 * same columns, filters and masks, without the CASE — such predicates cannot
 * fail on a removed row, so evaluating them early tells nothing.
 *
 * A restricted column (access denied, or a mask that cannot be built) is a
 * NULL of the column's type. Nodes are built to libpg-query's own shapes, so
 * the planner's re-parse check holds for them.
 */
import { parseSync } from 'libpg-query';
import type { CatalogTable } from '../../sql/catalogView.js';
import { nodeKind, type Fields, type PgNode } from '../../sql/walk.js';
import type { ColumnDecision, MaskDecision, TableDecision } from './decide.js';
import { compilePolicyExpression, PolicyExpressionError, qualified, type ExpressionScope } from './expressions.js';

export type FenceMode = 'case' | 'materialized';

/** Alias of the scan inside the derived table. */
export const SOURCE_ALIAS = 'lg_src';
const FENCED_CTE = 'lg_fenced';

type Visible = Extract<TableDecision, { visible: true }>;

/** What became of one column, for EXPLAIN (POLICY) and the audit. */
export interface ColumnOutcome {
  name: string;
  /** readable as stored, masked, or restricted (a typed NULL) */
  state: 'raw' | 'masked' | 'restricted';
  /** why a column is restricted, or why a readable column became restricted (a mask that cannot be built) */
  reason?: string;
}

export interface CompiledTable {
  /**
   * The derived table's SELECT. Also when no policy changes anything: the
   * scan is never the user's FROM item, because it has names the table does
   * not (DuckDB's virtual columns `filename`, `file_row_number`, a table's
   * `rowid`); only the catalog's columns leave the derived table.
   */
  subquery: PgNode;
  /** When `subquery` is a fence: the filtered, masked SELECT without it, for references read only through leakproof predicates. */
  unfenced: PgNode | null;
  columns: ColumnOutcome[];
  /** Row filters that failed to compile (every row is filtered out then). */
  filterErrors: string[];
  /** Something in it must not be shown (filter text, mask key): EXPLAIN is refused. */
  hasPolicyExpressions: boolean;
}

const typeNames = new Map<string, Fields | null>();

/** The TypeName node for a DuckDB type, as libpg-query parses it; null when PostgreSQL's grammar cannot write it (STRUCT, MAP …). */
export function typeNameOf(duckType: string): Fields | null {
  if (typeNames.has(duckType)) return typeNames.get(duckType)!;
  let out: Fields | null = null;
  try {
    const parsed = parseSync(`SELECT NULL::${duckType}`) as { stmts?: { stmt?: PgNode }[] };
    const stmts = parsed.stmts ?? [];
    const sel = stmts.length === 1 ? stmts[0]!.stmt?.['SelectStmt'] : undefined;
    const targets = (sel?.['targetList'] ?? []) as Fields[];
    const cast = targets.length === 1 && Object.keys(sel!).length === 3 ? targets[0]!['ResTarget']?.val?.['TypeCast'] : undefined;
    if (cast && cast.arg?.A_Const?.isnull === true) out = stripLocations(cast.typeName) as Fields;
  } catch {
    out = null;
  }
  if (typeNames.size > 1000) typeNames.clear();
  typeNames.set(duckType, out);
  return out;
}

function stripLocations(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stripLocations);
  if (typeof v !== 'object' || v === null) return v;
  const out: Fields = {};
  for (const [k, x] of Object.entries(v)) if (k !== 'location') out[k] = stripLocations(x);
  return out;
}

const nullConst = (): PgNode => ({ A_Const: { isnull: true } });
const caseWhen = (cond: PgNode, result: PgNode): PgNode => ({ CaseExpr: { args: [{ CaseWhen: { expr: cond, result } }] } });
const falseConst = (): PgNode => ({ A_Const: { boolval: {} } });

/** NULL of the column's type; for types the grammar cannot name, a CASE that is never true (the engine types it). */
function typedNull(c: { name: string; duckType: string }): PgNode {
  const t = typeNameOf(c.duckType);
  if (t) return { TypeCast: { arg: nullConst(), typeName: structuredClone(t) } };
  return caseWhen(falseConst(), qualified(SOURCE_ALIAS, c.name));
}

function castTo(expr: PgNode, duckType: string): PgNode {
  const t = typeNameOf(duckType);
  if (!t) throw new PolicyExpressionError(`a mask cannot be typed as ${duckType}`);
  return { TypeCast: { arg: expr, typeName: structuredClone(t) } };
}

const NO_MASK = new Set(['MASK_NONE']);

/** The masked value of a column, or null when it stays as stored; throws when the mask cannot be built. */
function maskExpression(c: ColumnDecision, mask: MaskDecision, scope: ExpressionScope): PgNode | null {
  if (NO_MASK.has(mask.type)) return null;
  if (mask.type === 'MASK_NULL') return typedNull(c);
  let text: string | null;
  if (mask.type === 'CUSTOM') {
    if ((mask.valueExpr ?? '').trim() === '') throw new PolicyExpressionError('a CUSTOM mask needs an expression');
    text = mask.valueExpr!;
  }
  else if (mask.transformer) text = mask.transformer;
  else throw new PolicyExpressionError(`mask type ${mask.type} is not defined by the service`);
  const value = compilePolicyExpression(text, scope, c.policyName ?? c.name);
  // A json / jsonb column's mask is its text as a JSON string (a hash or a redaction is no JSON document).
  if (c.pgType) return { FuncCall: { funcname: [{ String: { sval: 'to_json' } }], args: [castTo(value, 'VARCHAR')], funcformat: 'COERCE_EXPLICIT_CALL' } };
  return castTo(value, c.duckType);
}

/** The column as stored: a json / jsonb column's text read as DuckDB's JSON, which the planner presents as json or jsonb. */
const storedValue = (c: ColumnDecision): PgNode => (c.pgType ? castTo(qualified(SOURCE_ALIAS, c.name), 'JSON') : qualified(SOURCE_ALIAS, c.name));

function and(filters: PgNode[]): PgNode {
  return filters.length === 1 ? filters[0]! : { BoolExpr: { boolop: 'AND_EXPR', args: filters } };
}

/** The scan with the inner alias. */
function aliasedScan(table: CatalogTable, alias: Fields): PgNode {
  const scan = table.scan();
  const kind = nodeKind(scan);
  if (kind !== 'RangeVar' && kind !== 'RangeFunction') throw new Error(`a table scan must be a RangeVar or a RangeFunction, not ${kind}`);
  scan[kind]!['alias'] = alias;
  return scan;
}

const resTarget = (name: string, val: PgNode): PgNode => ({ ResTarget: { name, val } });

function select(fields: Fields): PgNode {
  return { SelectStmt: { ...fields, limitOption: 'LIMIT_OPTION_DEFAULT', op: 'SETOP_NONE' } };
}

/** Compile a visible table's decision into its derived table. */
export function compileTable(table: CatalogTable, d: Visible, scope: ExpressionScope, fence: FenceMode): CompiledTable {
  const filterErrors: string[] = [];
  const filters: PgNode[] = [];
  for (const f of d.rowFilters) {
    try {
      filters.push(compilePolicyExpression(f.expr, scope));
    } catch (e) {
      if (!(e instanceof PolicyExpressionError)) throw e;
      filterErrors.push(`row filter of policy ${f.policy.id} ${e.message}`);
    }
  }
  const noRows = d.noRows !== null || filterErrors.length > 0;

  const columns: ColumnOutcome[] = [];
  const values: PgNode[] = [];
  let hasPolicyExpressions = filters.length > 0 || filterErrors.length > 0;
  for (const c of d.columns) {
    if (!c.readable || noRows) {
      columns.push({ name: c.name, state: 'restricted', reason: c.readable ? (d.noRows ?? 'no row may be shown') : (c.restriction ?? 'select on the column is not allowed') });
      values.push(typedNull(c));
      continue;
    }
    let masked: PgNode | null = null;
    if (c.mask) {
      try {
        masked = maskExpression(c, c.mask, scope);
      } catch (e) {
        if (!(e instanceof PolicyExpressionError)) throw e;
        columns.push({ name: c.name, state: 'restricted', reason: `the ${c.mask.type} mask cannot be built: ${e.message}` });
        values.push(typedNull(c));
        continue;
      }
    }
    if (masked) {
      hasPolicyExpressions = true;
      columns.push({ name: c.name, state: 'masked' });
      values.push(masked);
    } else {
      columns.push({ name: c.name, state: 'raw' });
      values.push(storedValue(c));
    }
  }
  const condition = noRows ? falseConst() : filters.length > 0 ? and(filters) : null;
  const scan = () => aliasedScan(table, { aliasname: SOURCE_ALIAS });
  const targetList = d.columns.map((c, i) => resTarget(c.name, values[i]!));
  const inner = select({ targetList, fromClause: [scan()], ...(condition ? { whereClause: condition } : {}) });
  // No filter, or no row at all (every column a constant): nothing to fence.
  if (condition === null || noRows) return { subquery: inner, unfenced: null, columns, filterErrors, hasPolicyExpressions };
  const unfenced = structuredClone(inner);
  if (fence === 'case') {
    return { subquery: fencedByCase(d, values, columns, condition, scan()), unfenced, columns, filterErrors, hasPolicyExpressions };
  }
  const outer = select({
    targetList: [{ ResTarget: { val: { ColumnRef: { fields: [{ A_Star: {} }] } } } }],
    fromClause: [{ RangeVar: { relname: FENCED_CTE, inh: true, relpersistence: 'p' } }],
    withClause: { ctes: [{ CommonTableExpr: { ctename: FENCED_CTE, ctematerialized: 'CTEMaterializeAlways', ctequery: inner } }] },
  });
  return { subquery: outer, unfenced, columns, filterErrors, hasPolicyExpressions };
}

/**
 * The CASE fence with the filters evaluated once per row: an inner SELECT
 * computes them as a column next to the stored columns (under the scan's
 * alias, so masks and filters keep their references), the outer one keeps
 * the rows where they hold and exposes each column as CASE WHEN <ok> THEN
 * <value> END.
 */
function fencedByCase(d: Visible, values: PgNode[], columns: ColumnOutcome[], condition: PgNode, scan: PgNode): PgNode {
  const names = new Set(d.columns.map((c) => c.name));
  let ok = 'lg_row_ok';
  while (names.has(ok)) ok = `${ok}_`;
  const okRef = () => qualified(SOURCE_ALIAS, ok);
  const inner = select({
    targetList: [resTarget(ok, condition), ...d.columns.map((c) => resTarget(c.name, qualified(SOURCE_ALIAS, c.name)))],
    fromClause: [scan],
  });
  const targetList = d.columns.map((c, i) => resTarget(c.name, columns[i]!.state === 'restricted' ? values[i]! : caseWhen(okRef(), values[i]!)));
  return select({
    targetList,
    fromClause: [{ RangeSubselect: { subquery: inner, alias: { aliasname: SOURCE_ALIAS } } }],
    whereClause: okRef(),
  });
}

/**
 * The FROM item that replaces the user's reference: the derived table (fenced
 * unless `fenced` is false and there is an unfenced form) under the user's alias.
 */
export function fromItem(compiled: CompiledTable, alias: Fields, fenced: boolean): PgNode {
  const subquery = !fenced && compiled.unfenced ? compiled.unfenced : compiled.subquery;
  return { RangeSubselect: { subquery: structuredClone(subquery), alias: structuredClone(alias) } };
}

