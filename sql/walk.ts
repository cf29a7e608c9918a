/**
 * A generic walker over libpg-query's plain JSON. A node is wrapped as
 * `{ Kind: fields }`; some fields (TypeName, Alias, the value of A_Const…) are
 * inline objects without a wrapper. The walker reports every wrapped node
 * with the chain of ancestors, so callers can decide scope (CTEs) from the path.
 */
// The parse tree is untyped JSON at this level; callers narrow by kind.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Fields = Record<string, any>;
export type PgNode = Record<string, Fields>;

export interface PathStep {
  /** the wrapped node or inline object holding `key` */
  holder: Fields;
  /** kind of the wrapped node this step belongs to (undefined for inline objects) */
  kind: string | undefined;
  key: string;
  index?: number;
}

export interface Visit {
  kind: string;
  /** the wrapper `{ Kind: fields }`; replace it in place with replaceNode */
  node: PgNode;
  fields: Fields;
  path: readonly PathStep[];
}

const isObject = (x: unknown): x is Fields => typeof x === 'object' && x !== null && !Array.isArray(x);

/** Kind of a wrapped node: exactly one key, starting upper-case, holding an object. */
export function nodeKind(x: unknown): string | undefined {
  if (!isObject(x)) return undefined;
  // Runs for every object of every walk: no key array, no regular expression.
  let k: string | undefined;
  for (const key in x) {
    if (k !== undefined) return undefined;
    k = key;
  }
  if (k === undefined) return undefined;
  const c = k.charCodeAt(0);
  return c >= 65 && c <= 90 && isObject(x[k]) ? k : undefined;
}

/**
 * Typed fields stored without a wrapper: `SelectStmt.larg` is a SelectStmt,
 * `FuncCall.over` a WindowDef… They are reported under these kinds so that
 * checks keyed on kind (authorization, CTE scope) see them. null marks plain
 * value holders (A_Const's ival/sval…) that are not nodes at all.
 */
const INLINE_KINDS: Readonly<Record<string, string | null>> = {
  'SelectStmt.larg': 'SelectStmt',
  'SelectStmt.rarg': 'SelectStmt',
  'SelectStmt.withClause': 'WithClause',
  'SelectStmt.intoClause': 'IntoClause',
  'IntoClause.rel': 'RangeVar',
  'FuncCall.over': 'WindowDef',
  // write statements (sql/write/): the relation written and the statement's own WITH list
  'InsertStmt.relation': 'RangeVar',
  'UpdateStmt.relation': 'RangeVar',
  'DeleteStmt.relation': 'RangeVar',
  'MergeStmt.relation': 'RangeVar',
  'InsertStmt.withClause': 'WithClause',
  'UpdateStmt.withClause': 'WithClause',
  'DeleteStmt.withClause': 'WithClause',
  'MergeStmt.withClause': 'WithClause',
  'TypeCast.typeName': 'TypeName',
  '*.alias': 'Alias',
  '*.join_using_alias': 'Alias',
  'A_Const.ival': null,
  'A_Const.sval': null,
  'A_Const.fval': null,
  'A_Const.boolval': null,
  'A_Const.bsval': null,
};

/** INLINE_KINDS as lookups that build no strings: holder kind → key → kind, and `*.key` → kind. */
const INLINE_BY_HOLDER = new Map<string, Map<string, string | null>>();
const INLINE_ANY_HOLDER = new Map<string, string | null>();
for (const [k, v] of Object.entries(INLINE_KINDS)) {
  const [holder, key] = k.split('.') as [string, string];
  if (holder === '*') INLINE_ANY_HOLDER.set(key, v);
  else {
    if (!INLINE_BY_HOLDER.has(holder)) INLINE_BY_HOLDER.set(holder, new Map());
    INLINE_BY_HOLDER.get(holder)!.set(key, v);
  }
}

/** Kind reported for an unwrapped object the walker has no type for; authorization refuses it. */
export const unknownInline = (holderKind: string | undefined, key: string | undefined): string =>
  `unknown field ${holderKind ?? '?'}.${key ?? '?'}`;

/**
 * Depth-first, parents before children. Returning false from the visitor
 * skips that node's children (e.g. after replacing it with trusted SQL).
 * Inline typed fields are reported with a detached wrapper: they cannot be
 * replaced through `node`, only edited through `fields`.
 */
export function walk(root: unknown, visitor: (v: Visit) => void | false): void {
  const path: PathStep[] = [];
  const visitValue = (value: unknown, holderKind: string | undefined, key: string | undefined): void => {
    if (Array.isArray(value)) {
      const last = path[path.length - 1];
      for (let i = 0; i < value.length; i++) {
        const item = value[i];
        if (typeof item !== 'object' || item === null) continue;
        if (last) last.index = i;
        visitValue(item, holderKind, key);
      }
      // Reset, not deleted: deleting a property would send every path step to slow dictionary mode.
      if (last) last.index = undefined;
      return;
    }
    if (!isObject(value)) return;
    const kind = nodeKind(value);
    if (kind) {
      const fields = value[kind]!;
      if (visitor({ kind, node: value as PgNode, fields, path }) === false) return;
      // Untouched (the usual case): straight on to the children.
      if (value[kind] === fields) {
        visitFields(fields, kind);
        return;
      }
      // The visitor may have replaced the node in place: visit what is there now.
      let current = kind;
      for (let guard = 0; guard < 8; guard++) {
        const k2 = nodeKind(value);
        if (!k2) return;
        if (k2 === current && value[k2] === fields) break;
        current = k2;
        if (visitor({ kind: k2, node: value as PgNode, fields: value[k2]!, path }) === false) return;
        if (nodeKind(value) === k2) break;
      }
      const k3 = nodeKind(value);
      if (k3) visitFields(value[k3]!, k3);
      return;
    }
    const exact = INLINE_BY_HOLDER.get(holderKind ?? '')?.get(key ?? '');
    const typed = exact !== undefined ? exact : INLINE_ANY_HOLDER.get(key ?? '');
    if (typed === null) return visitFields(value, undefined);
    if (typed === undefined && Object.keys(value).length === 0) return;
    const inlineKind = typed ?? unknownInline(holderKind, key);
    if (visitor({ kind: inlineKind, node: { [inlineKind]: value }, fields: value, path }) === false) return;
    visitFields(value, inlineKind);
  };
  const visitFields = (holder: Fields, kind: string | undefined): void => {
    for (const key in holder) {
      const v = holder[key];
      if (typeof v !== 'object' || v === null) continue;
      path.push({ holder, kind, key, index: undefined });
      visitValue(v, kind, key);
      path.pop();
    }
  };
  visitValue(root, undefined, undefined);
}

/**
 * True when the node at the end of `path` is the function of a FROM-clause
 * function call: RangeFunction.functions holds [FuncCall, column definitions] lists.
 */
export function inTableFunctionPosition(path: readonly PathStep[]): boolean {
  const parent = path[path.length - 1];
  const grand = path[path.length - 2];
  return parent?.kind === 'List' && parent.key === 'items' && parent.index === 0 &&
    grand?.kind === 'RangeFunction' && grand.key === 'functions';
}

/** Replace a wrapped node in place (parents hold references to the wrapper object). */
export function replaceNode(target: PgNode, replacement: PgNode): void {
  for (const k of Object.keys(target)) delete target[k];
  Object.assign(target, replacement);
}

/** `String` nodes hold identifiers and operator names. */
export const str = (n: unknown): string | undefined => {
  if (!isObject(n)) return undefined;
  const s = (n as Fields)['String'];
  return isObject(s) && typeof s['sval'] === 'string' ? (s['sval'] as string) : undefined;
};

export const names = (list: unknown): string[] =>
  Array.isArray(list) ? list.map((n) => str(n) ?? '') : [];

export const strNode = (sval: string): PgNode => ({ String: { sval } });

/** An expression's shape without its text positions: the same expression written twice has the same key. */
export const expressionKey = (n: unknown): string => JSON.stringify(n, (k, v) => (k === 'location' ? undefined : v));

/** PostgreSQL's and DuckDB's aggregate functions by name (a call of one aggregates unless it has OVER). */
export const AGGREGATE_FUNCTIONS: ReadonlySet<string> = new Set([
  'count', 'sum', 'avg', 'min', 'max', 'bool_and', 'bool_or', 'every', 'string_agg', 'array_agg', 'stddev', 'stddev_pop',
  'stddev_samp', 'variance', 'var_pop', 'var_samp', 'bit_and', 'bit_or', 'json_agg', 'jsonb_agg', 'percentile_cont',
  'percentile_disc', 'mode', 'corr', 'covar_pop', 'covar_samp', 'regr_slope', 'regr_intercept', 'regr_count', 'median',
  'first', 'last', 'any_value', 'arg_min', 'arg_max', 'list', 'histogram', 'approx_count_distinct', 'bit_xor',
]);
export const strConst = (sval: string | null): PgNode =>
  sval === null ? { A_Const: { isnull: true } } : { A_Const: { sval: { sval } } };
export const intConst = (ival: number): PgNode =>
  ival === 0 ? { A_Const: { ival: {} } } : { A_Const: { ival: { ival } } };
export const boolConst = (b: boolean): PgNode => ({ A_Const: { boolval: b ? { boolval: true } : {} } });

/** The text of a string constant ('…'), else undefined: the one reader of constant arguments the dialect's rewrites share. */
export function constText(n: unknown): string | undefined {
  const c = (n as Fields | undefined)?.['A_Const'];
  return c?.sval ? String(c.sval.sval ?? '') : undefined;
}

/**
 * A deep copy of a parse tree (plain JSON: objects, arrays, strings, numbers,
 * booleans). Faster than structuredClone on these trees; recursion is bounded
 * by sql/limits.ts's depth limit.
 */
export function cloneTree<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const out = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = cloneTree(value[i]);
    return out as T;
  }
  const out: Fields = {};
  for (const k in value as Fields) out[k] = cloneTree((value as Fields)[k]);
  return out as T;
}

/**
 * FuncCalls the planner built for DuckDB's own function of that name (sql/like.ts's
 * boolean regexp_matches, say): later passes must not take them for the user's call
 * of PostgreSQL's function of the same name.
 */
export const ENGINE_CALLS: WeakSet<object> = new WeakSet();

/**
 * Whether an expression holds a subquery. A user expression that holds one must never
 * be copied: the data gate rewrites the table references resolution found, and a
 * copy's references would not be among them (they would read the stored rows).
 */
export function containsSubquery(node: unknown): boolean {
  let found = false;
  walk(node, (v) => {
    if (v.kind === 'SubLink' || v.kind === 'RangeSubselect' || v.kind === 'RangeVar') found = true;
    return found ? false : undefined;
  });
  return found;
}
