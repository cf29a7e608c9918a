/**
 * Which table references of a statement need the row-filter fence
 * (apply.ts): the ones whose stored rows could reach a predicate that is not
 * leakproof (leakproof.ts) in a place the optimizer may move below the
 * filter. DuckDB pushes WHERE, JOIN ON / USING and HAVING conjuncts down into
 * scans, through projections (substituting a derived table's or CTE's
 * expressions), through GROUP BY keys and window partitions, into
 * subqueries, and infers new conjuncts from equalities; so every such
 * conjunct at every level is judged, and a column of a derived table counts
 * with the expression that defines it. Values computed by aggregates and
 * window functions are barriers: they are produced from rows that passed the
 * filters. Select lists, ORDER BY and LIMIT are evaluated after the filters
 * and are judged only through the predicates that read them.
 *
 * Name resolution here is deliberately wider than the engine's: an
 * unqualified name may stand for a column of any FROM item in scope that
 * could have it (and of the scopes outside, for correlation), for an output
 * alias of the same SELECT (DuckDB binds those in WHERE, GROUP BY and
 * HAVING), and a name found nowhere stands for every reference of the
 * statement. A conjunct that is not leakproof fences every reference it may
 * read. Wider resolution only fences more.
 */
import { EMULATION_DB, INTERNAL_MACROS, PGC_SCHEMA } from '../../sql/emulation.js';
import { wrappedLiteral, wrapperValueArgs } from '../../sql/dialect/numeric.js';
import { TEMP_CATALOG } from '../../sql/tempTables.js';
import { AGGREGATE_FUNCTIONS, names, nodeKind, type Fields, type PgNode } from '../../sql/walk.js';
import { flowsComparable, isLeakproof, sameType, type Flow, type ValueType } from './leakproof.js';

/** How the derived table shows a column when it is not fenced. */
export type Exposure = 'raw' | 'masked' | 'constant';
export interface ColumnInfo {
  type: ValueType;
  exposure: Exposure;
}

type Item<R> =
  | { kind: 'table'; alias: string; ref: R; columns: ReadonlyMap<string, ColumnInfo> }
  | { kind: 'derived'; alias: string | null; source: Derived<R> }
  | { kind: 'join'; alias: string; members: Item<R>[] };

interface Output<R> {
  name: string | null;
  flow: Flow<R>;
}

/** A subquery, CTE or set operation as a source of columns. */
interface Derived<R> {
  /** null: the columns are not known here */
  outputs: Output<R>[] | null;
  /** everything it may carry */
  all: Flow<R>;
}

interface Scope<R> {
  items: Item<R>[];
  parent: Scope<R> | null;
  depth: number;
  /** the SELECT's outputs, for names DuckDB binds to output aliases */
  targets: Output<R>[];
}

const lower = (s: unknown): string => String(s).toLowerCase();


/**
 * sum(), avg(), stddev and variance reach the analysis as the emulation's
 * typed macros (sql/dialect.ts: PostgreSQL's result types); they aggregate
 * like the builtins, with PostgreSQL's result types (stddev and variance: no
 * type known here, so nothing built on them counts as safe).
 */
const TYPED_AGGREGATES: ReadonlyMap<string, string> = new Map([
  [INTERNAL_MACROS.sum, 'pg_sum'],
  [INTERNAL_MACROS.avg, 'pg_avg'],
  [INTERNAL_MACROS.varSamp, 'var_samp'],
  [INTERNAL_MACROS.varPop, 'var_pop'],
  [INTERNAL_MACROS.stddevSamp, 'stddev_samp'],
  [INTERNAL_MACROS.stddevPop, 'stddev_pop'],
]);

/** min / max's argument wrapped with a probe that refuses a boolean while binding (sql/dialect.ts): the argument itself flows. */
const MIN_MAX_WRAPPERS: ReadonlySet<string> = new Set(['lg_min_nb', 'lg_max_nb']);

const isAggregateWrapper = (fc: Fields): boolean => {
  const parts = names(fc['funcname']);
  return parts.length === 3 && parts[0] === EMULATION_DB && (parts[2] === INTERNAL_MACROS.sumAs || parts[2] === INTERNAL_MACROS.avgAs || parts[2] === INTERNAL_MACROS.statsAs);
};

/** The aggregate a call is, by the name the analysis knows it by; undefined for any other call. */
function aggregateName(fc: Fields): string | undefined {
  const parts = names(fc['funcname']);
  if (parts.length === 3 && parts[0] === EMULATION_DB && parts[1] === PGC_SCHEMA) return TYPED_AGGREGATES.get(parts[2]!);
  const name = parts[parts.length - 1] ?? '';
  return AGGREGATE_FUNCTIONS.has(name) ? name : undefined;
}

export class FenceAnalysis<R> {
  /** References a predicate that is not leakproof may read: these keep the fence. */
  readonly fenced = new Set<R>();
  private readonly seen = new Set<R>();
  /** column references bound to a FROM item of their own SELECT */
  private readonly local = new WeakSet<object>();
  private readonly ctes = new Map<string, Derived<R>>();
  private readonly memo = new WeakMap<object, Flow<R>>();
  /** open subqueries: the scope depth they stand in, and the outer references they read (correlation) */
  private readonly frames: { depth: number; refs: Set<R> }[] = [];
  private readonly none: Flow<R> = { refs: new Set(), type: null, safe: true };
  private readonly everything: Flow<R>;

  constructor(
    private readonly refOf: (fromItem: PgNode) => R | undefined,
    private readonly columnsOf: (ref: R) => ReadonlyMap<string, ColumnInfo>,
    all: Iterable<R>,
  ) {
    this.everything = { refs: new Set(all), type: null, safe: false };
  }

  /** Analyse a statement: SELECT (or EXPLAIN of one). A reference the analysis did not meet keeps its fence. */
  run(root: PgNode): void {
    const kind = nodeKind(root);
    if (kind === 'ExplainStmt') return this.run(root['ExplainStmt']!['query'] as PgNode);
    if (kind === 'SelectStmt') this.block(root['SelectStmt']!, null);
    for (const r of this.everything.refs) if (!this.seen.has(r)) this.fenced.add(r);
  }

  private union(flows: Flow<R>[]): Flow<R> {
    if (flows.length === 1) return flows[0]!;
    const refs = new Set<R>();
    for (const f of flows) for (const r of f.refs) refs.add(r);
    const first = flows[0]?.type ?? null;
    return { refs, type: flows.length > 0 && flows.every((f) => sameType(f.type, first)) ? first : null, safe: flows.every((f) => f.safe) };
  }

  private opaque(flows: Flow<R>[]): Flow<R> {
    return { ...this.union(flows), type: null, safe: false };
  }

  // ---------------------------------------------------------------- query blocks

  private block(sel: Fields, parent: Scope<R> | null): Derived<R> {
    for (const c of ((sel['withClause']?.['ctes'] ?? []) as Fields[])) {
      const cte = c['CommonTableExpr'] as Fields;
      const body = (cte['ctequery'] as Fields | undefined)?.['SelectStmt'] as Fields | undefined;
      // A recursive CTE reads itself before it is known: until then it stands for everything.
      const d = body ? this.block(body, parent) : { outputs: null, all: this.everything };
      this.ctes.set(lower(cte['ctename']), renamed(d, cte['aliascolnames']));
    }
    if (sel['op'] && sel['op'] !== 'SETOP_NONE') {
      const l = this.block(sel['larg'] as Fields, parent);
      const r = this.block(sel['rarg'] as Fields, parent);
      const scope: Scope<R> = { items: [], parent, depth: (parent?.depth ?? 0) + 1, targets: [] };
      this.sideEffects([sel['sortClause'], sel['limitCount'], sel['limitOffset']], scope);
      return this.setOperation(l, r);
    }
    const scope: Scope<R> = { items: [], parent, depth: (parent?.depth ?? 0) + 1, targets: [] };
    if (sel['valuesLists']) {
      const rows = (sel['valuesLists'] as Fields[]).map((l) => ((l['List']?.['items'] ?? []) as PgNode[]).map((x) => this.flow(x, scope)));
      const width = Math.max(0, ...rows.map((r) => r.length));
      const outputs = Array.from({ length: width }, (_, i) => ({ name: `column${i + 1}`, flow: this.union(rows.map((r) => r[i] ?? this.none)) }));
      return { outputs, all: this.opaque(outputs.map((o) => o.flow)) };
    }
    const joins: Fields[] = [];
    for (const item of (sel['fromClause'] ?? []) as PgNode[]) scope.items.push(...this.fromItem(item, scope, joins));
    scope.targets = this.targets(sel, scope);
    this.predicate(sel['whereClause'], scope);
    this.predicate(sel['havingClause'], scope);
    for (const j of joins) this.join(j, scope);
    this.sideEffects([sel['groupClause'], sel['sortClause'], sel['distinctClause'], sel['windowClause'], sel['limitCount'], sel['limitOffset']], scope);
    const known = scope.targets.every((t) => t.name !== '*');
    const outputs = known ? scope.targets : null;
    return { outputs, all: this.opaque([...scope.targets.map((t) => t.flow), ...(known ? [] : scope.items.map((i) => this.itemAll(i)))]) };
  }

  private setOperation(l: Derived<R>, r: Derived<R>): Derived<R> {
    const all = this.opaque([l.all, r.all]);
    if (!l.outputs || !r.outputs || l.outputs.length !== r.outputs.length) return { outputs: null, all };
    return { outputs: l.outputs.map((o, i) => ({ name: o.name, flow: this.union([o.flow, r.outputs![i]!.flow]) })), all };
  }

  /** The select list: one output per target; a star expands to the FROM items' columns (name '*' when unknown). */
  private targets(sel: Fields, scope: Scope<R>): Output<R>[] {
    const out: Output<R>[] = [];
    for (const t of (sel['targetList'] ?? []) as Fields[]) {
      const rt = t['ResTarget'] as Fields;
      const ref = rt['val']?.['ColumnRef'] as Fields | undefined;
      const fields = (ref?.['fields'] ?? []) as unknown[];
      if (ref && nodeKind(fields[fields.length - 1]) === 'A_Star') {
        const alias = fields.length === 2 ? lower(names(fields.slice(0, 1))[0]) : null;
        const items = scope.items.filter((i) => i.kind !== 'join' && (alias === null || i.alias === alias));
        for (const item of items) out.push(...this.columnsOfItem(item));
        if (items.length === 0) out.push({ name: '*', flow: this.everything });
        continue;
      }
      const val = rt['val'] as PgNode;
      const flow = this.flow(val, scope);
      const name = rt['name'] !== undefined ? lower(rt['name']) : ref && nodeKind(fields[fields.length - 1]) === 'String' ? lower(names(fields).pop()) : null;
      out.push({ name, flow });
    }
    return out;
  }

  private columnsOfItem(item: Item<R>): Output<R>[] {
    if (item.kind === 'table') return [...item.columns.entries()].map(([name, c]) => ({ name, flow: this.columnFlow(item.ref, c) }));
    if (item.kind === 'derived') return item.source.outputs ?? [{ name: '*', flow: item.source.all }];
    return [];
  }

  private itemAll(item: Item<R>): Flow<R> {
    if (item.kind === 'table') return { refs: new Set([item.ref]), type: null, safe: false };
    if (item.kind === 'derived') return item.source.all;
    return this.opaque(item.members.map((m) => this.itemAll(m)));
  }

  private columnFlow(ref: R, c: ColumnInfo): Flow<R> {
    if (c.exposure === 'constant') return { refs: new Set(), type: c.type, safe: true };
    // A masked column is its mask expression: evaluated with the predicate, it could fail on a hidden row.
    return { refs: new Set([ref]), type: c.type, safe: c.exposure === 'raw' };
  }

  private fromItem(node: PgNode, scope: Scope<R>, joins: Fields[]): Item<R>[] {
    const kind = nodeKind(node);
    const f = kind ? node[kind]! : {};
    const aliasOf = (fallback: string | null) => (f['alias']?.['aliasname'] !== undefined ? lower(f['alias']['aliasname']) : fallback);
    // A table reference is whatever FROM item holds its scan (a RangeVar, or iceberg_scan under the user's alias).
    const ref = this.refOf(node);
    if (ref !== undefined) {
      this.seen.add(ref);
      return [{ kind: 'table', alias: aliasOf(lower(f['relname'] ?? ''))!, ref, columns: this.columnsOf(ref) }];
    }
    switch (kind) {
      case 'RangeVar': {
        const cte = f['schemaname'] === undefined && f['catalogname'] === undefined ? this.ctes.get(lower(f['relname'])) : undefined;
        // Catalog emulation and the session's temporary tables (what it already read through the gate) carry no
        // stored row a filter hides; anything else unknown may carry every reference.
        const carriesNone = f['catalogname'] === EMULATION_DB || f['catalogname'] === TEMP_CATALOG;
        const source = cte ? renamed(cte, f['alias']?.['colnames']) : { outputs: null, all: carriesNone ? this.none : this.everything };
        return [{ kind: 'derived', alias: aliasOf(lower(f['relname'])), source }];
      }
      case 'RangeSubselect': {
        const body = (f['subquery'] as Fields | undefined)?.['SelectStmt'] as Fields | undefined;
        const d = body ? this.block(body, scope) : { outputs: null, all: this.everything };
        return [{ kind: 'derived', alias: aliasOf(null), source: renamed(d, f['alias']?.['colnames']) }];
      }
      case 'RangeFunction': {
        // Its arguments may read the FROM items before it (functions in FROM are lateral).
        const flows = ((f['functions'] ?? []) as Fields[]).flatMap((l) => ((l['List']?.['items'] ?? []) as PgNode[]).slice(0, 1).map((fn) => this.flow(fn, scope)));
        return [{ kind: 'derived', alias: aliasOf(null), source: { outputs: null, all: this.opaque(flows) } }];
      }
      case 'JoinExpr': {
        const l = this.fromItem(f['larg'] as PgNode, scope, joins);
        const r = this.fromItem(f['rarg'] as PgNode, scope, joins);
        joins.push({ ...f, leftItems: l, rightItems: r });
        const joined: Item<R>[] = [...l, ...r];
        const alias = aliasOf(null);
        if (alias !== null) joined.push({ kind: 'join', alias, members: [...l, ...r] });
        return joined;
      }
      default:
        return [{ kind: 'derived', alias: aliasOf(null), source: { outputs: null, all: this.everything } }];
    }
  }

  /** JOIN … ON is a predicate; USING and NATURAL compare same-named columns of both sides. */
  private join(j: Fields, scope: Scope<R>): void {
    this.predicate(j['quals'], scope);
    const left = j['leftItems'] as Item<R>[];
    const right = j['rightItems'] as Item<R>[];
    let using = names(j['usingClause']).map(lower);
    if (j['isNatural']) {
      const cols = (items: Item<R>[]) => items.flatMap((i) => this.columnsOfItem(i)).map((o) => o.name);
      const l = cols(left);
      const r = new Set(cols(right));
      if (l.includes('*') || r.has('*')) {
        this.fence([...left, ...right].map((i) => this.itemAll(i)));
        return;
      }
      using = l.filter((n): n is string => n !== null && r.has(n));
    }
    for (const name of using) {
      const l = this.lookupIn(left, name);
      const r = this.lookupIn(right, name);
      const ok = flowsComparable(l, r);
      if (!ok) this.fence([l, r]);
    }
  }

  private lookupIn(items: Item<R>[], name: string): Flow<R> {
    const found = items.flatMap((i) => this.candidates(i, name).flows);
    return found.length > 0 ? this.union(found) : this.everything;
  }

  // ---------------------------------------------------------------- predicates

  /** Judge each conjunct; one that is not leakproof fences every reference it may read. */
  private predicate(expr: unknown, scope: Scope<R>): void {
    if (!expr) return;
    const f = (expr as Fields)['BoolExpr'];
    if (f && f['boolop'] === 'AND_EXPR') {
      for (const a of (f['args'] ?? []) as unknown[]) this.predicate(a, scope);
      return;
    }
    const flow = this.flow(expr as PgNode, scope);
    const ok = isLeakproof(expr, (n) => this.flow(n, scope), (sublink) => this.subqueryOutput(sublink, scope));
    if (ok) return;
    this.fence([flow]);
    // Bound to no column of this SELECT (a constant, an outer column, an uncorrelated subquery), it may be
    // placed in any scan of it, after leakproof conjuncts there: failing only when a row reaches it, it
    // would tell that some hidden row passed them. Every reference this SELECT reads keeps the fence.
    if (!this.readsLocalColumn(expr)) this.fence(scope.items.map((i) => this.itemAll(i)));
  }

  /** Some column reference of the expression (outside subqueries) is bound to a FROM item of its own SELECT. */
  private readsLocalColumn(expr: unknown): boolean {
    let found = false;
    const visit = (v: unknown): void => {
      if (found || typeof v !== 'object' || v === null) return;
      if (Array.isArray(v)) return v.forEach(visit);
      const f = v as Fields;
      if (f['ColumnRef'] && this.local.has(f['ColumnRef'])) found = true;
      if (f['SubLink']) return visit(f['SubLink']['testexpr']);
      for (const x of Object.values(f)) visit(x);
    };
    visit(expr);
    return found;
  }

  private fence(flows: Flow<R>[]): void {
    for (const f of flows) for (const r of f.refs) this.fenced.add(r);
  }

  /** Expressions outside the predicates: only the subqueries inside them are judged. */
  private sideEffects(exprs: unknown[], scope: Scope<R>): void {
    for (const e of exprs) this.children(e, scope);
  }

  private subqueryOutput(sublink: Fields, scope: Scope<R>): Flow<R> | null {
    this.flow({ SubLink: sublink }, scope);
    const out = this.memo.get(sublink['subselect'] as object);
    return out ?? null;
  }

  // ---------------------------------------------------------------- values

  /** What flows into a value (memoised per node). */
  flow(n: PgNode, scope: Scope<R>): Flow<R> {
    const kind = nodeKind(n);
    if (!kind) return this.none;
    const f = n[kind]!;
    const hit = this.memo.get(f);
    if (hit) return hit;
    const out = this.compute(kind, f, scope);
    this.memo.set(f, out);
    return out;
  }

  private compute(kind: string, f: Fields, scope: Scope<R>): Flow<R> {
    switch (kind) {
      case 'ColumnRef':
        return this.resolve(f, scope);
      case 'A_Const':
      case 'ParamRef':
      case 'String':
      case 'Integer':
      case 'Float':
      case 'Boolean':
        return this.none;
      case 'FuncCall': {
        const args = ((f['args'] ?? []) as PgNode[]).map((a) => this.flow(a, scope));
        this.sideEffects([f['agg_filter'], f['agg_order'], f['over']], scope);
        if (f['over']) return { refs: new Set(), type: null, safe: false };
        // a typed wrapper's probes are never evaluated (sql/numericTypes.ts): only its values flow
        const values = wrapperValueArgs(f);
        if (values && names(f['funcname']).pop() === INTERNAL_MACROS.subtract) {
          const minus = { kind: 'AEXPR_OP', name: [{ String: { sval: '-' } }], lexpr: values[0], rexpr: values[1] };
          return this.doubleArithmetic(minus, scope) ?? this.opaque(values.map((a) => this.flow(a, scope)));
        }
        if (values && MIN_MAX_WRAPPERS.has(names(f['funcname']).pop() ?? '')) return this.flow(values[0]!, scope);
        if (values) return this.opaque(values.map((a) => this.flow(a, scope)));
        const name = aggregateName(f);
        if (name) return aggregate(name, f, args);
        return this.opaque(args);
      }
      case 'A_Expr':
        return this.doubleArithmetic(f, scope) ?? this.opaque(this.children(f, scope));
      case 'SubLink':
        return this.sublink(f, scope);
      default:
        return this.opaque(this.children(f, scope));
    }
  }

  /**
   * DOUBLE arithmetic cannot fail (it overflows to infinity): `0.2 * avg(x)`
   * is a DOUBLE that is safe to evaluate. Integer and decimal arithmetic can.
   */
  private doubleArithmetic(f: Fields, scope: Scope<R>): Flow<R> | null {
    const op = names(f['name']).pop() ?? '';
    if (String(f['kind']) !== 'AEXPR_OP' || !f['lexpr'] || !['+', '-', '*'].includes(op)) return null;
    const flows: Flow<R>[] = [];
    for (const side of [f['lexpr'], f['rexpr']] as PgNode[]) {
      const c = side['A_Const'] ?? wrappedLiteral(side);
      if (c && (c['ival'] !== undefined || c['fval'] !== undefined)) continue;
      const flow = this.flow(side, scope);
      if (!flow.safe || flow.type?.t !== 'float') return null;
      flows.push(flow);
    }
    return flows.length > 0 ? { ...this.union(flows), type: { t: 'float' }, safe: true } : null;
  }

  /** Flows of every node below (a SubLink's subquery is analysed as a query block). */
  private children(value: unknown, scope: Scope<R>): Flow<R>[] {
    const out: Flow<R>[] = [];
    const visit = (v: unknown): void => {
      if (Array.isArray(v)) return v.forEach(visit);
      if (typeof v !== 'object' || v === null) return;
      if (nodeKind(v)) {
        out.push(this.flow(v as PgNode, scope));
        return;
      }
      for (const x of Object.values(v as Fields)) visit(x);
    };
    if (nodeKind(value)) {
      const kind = nodeKind(value)!;
      visit(Object.values((value as PgNode)[kind]!));
    } else visit(value);
    return out;
  }

  private sublink(f: Fields, scope: Scope<R>): Flow<R> {
    const test = f['testexpr'] ? [this.flow(f['testexpr'] as PgNode, scope)] : [];
    const body = (f['subselect'] as Fields | undefined)?.['SelectStmt'] as Fields | undefined;
    const frame = { depth: scope.depth, refs: new Set<R>() };
    this.frames.push(frame);
    let d: Derived<R>;
    try {
      d = body ? this.block(body, scope) : { outputs: null, all: this.everything };
    } finally {
      this.frames.pop();
    }
    const correlated: Flow<R> = { refs: frame.refs, type: null, safe: true };
    const first = d.outputs?.length === 1 ? d.outputs[0]!.flow : null;
    // the subquery's one output, with the outer references that choose its rows
    const output = first ? { ...this.union([first, correlated]), type: first.type, safe: first.safe } : this.opaque([d.all, correlated]);
    this.memo.set(f['subselect'] as object, output);
    const type = String(f['subLinkType']);
    if (type === 'EXISTS_SUBLINK') return { refs: frame.refs, type: { t: 'bool' }, safe: true };
    if (type === 'EXPR_SUBLINK' && first && body && atMostOneRow(body)) return output;
    return this.opaque([...test, output]);
  }

  // ---------------------------------------------------------------- names

  /** A column reference: every column it may stand for, from the innermost scope outwards. */
  private resolve(f: Fields, scope: Scope<R>): Flow<R> {
    const parts = f['fields'] as unknown[];
    if (parts.some((p) => nodeKind(p) !== 'String')) return this.everything;
    const p = names(parts).map(lower);
    const found: Flow<R>[] = [];
    for (let s: Scope<R> | null = scope; s; s = s.parent) {
      let definite = false;
      if (p.length === 1) {
        for (const item of s.items) {
          if (item.kind === 'join') continue;
          const c = this.candidates(item, p[0]!);
          found.push(...c.flows);
          definite ||= c.definite;
        }
        // DuckDB binds a name no FROM item has to an output alias of the same SELECT.
        if (!definite && s === scope) found.push(...s.targets.filter((t) => t.name === p[0]).map((t) => t.flow));
      } else {
        const items = s.items.filter((i) => i.alias === p[0]);
        for (const item of items) {
          const c = item.kind === 'join' ? { flows: item.members.flatMap((m) => this.candidates(m, p[1]!).flows), definite: true } : this.candidates(item, p[1]!);
          // three parts: a field of a struct column; its type is not the column's
          found.push(...(p.length === 2 ? c.flows : c.flows.map((x) => this.opaque([x]))));
          if (c.flows.length === 0) found.push(this.itemAll(item));
        }
        definite = items.length > 0;
      }
      if (found.length > 0) this.correlate(s, found);
      if (definite && s === scope) this.local.add(f);
      if (definite) return this.union(found);
    }
    // a struct field of a column (`col.field`), or a name this analysis does not know: everything
    if (p.length >= 2 && found.length === 0) {
      const column = { fields: parts.slice(0, 1) };
      const base = this.resolve(column, scope);
      if (this.local.has(column)) this.local.add(f);
      if (base !== this.everything) return this.opaque([base]);
    }
    return found.length > 0 ? this.opaque(found) : this.everything;
  }

  private candidates(item: Item<R>, name: string): { flows: Flow<R>[]; definite: boolean } {
    if (item.kind === 'table') {
      const c = item.columns.get(name);
      return c ? { flows: [this.columnFlow(item.ref, c)], definite: true } : { flows: [], definite: false };
    }
    if (item.kind === 'derived') {
      if (!item.source.outputs) return { flows: [item.source.all], definite: false };
      const hits = item.source.outputs.filter((o) => o.name === name || o.name === '*');
      return { flows: hits.map((o) => o.flow), definite: hits.some((o) => o.name === name) };
    }
    return { flows: [], definite: false };
  }

  /** A column bound outside an open subquery is part of that subquery's correlation. */
  private correlate(bound: Scope<R>, flows: Flow<R>[]): void {
    for (const frame of this.frames) {
      if (bound.depth <= frame.depth) for (const f of flows) for (const r of f.refs) frame.refs.add(r);
    }
  }
}

function renamed<R>(d: Derived<R>, colnames: unknown): Derived<R> {
  const list = names(colnames).map(lower);
  if (list.length === 0) return d;
  if (!d.outputs || d.outputs.some((o) => o.name === '*')) return { outputs: null, all: d.all };
  return { outputs: d.outputs.map((o, i) => ({ name: list[i] ?? o.name, flow: o.flow })), all: d.all };
}

/** A SELECT that aggregates without GROUP BY and returns one row at most (no set operation, no set-returning call). */
function atMostOneRow(sel: Fields): boolean {
  if ((sel['op'] && sel['op'] !== 'SETOP_NONE') || sel['groupClause'] || sel['valuesLists']) return false;
  const targets = (sel['targetList'] ?? []) as Fields[];
  if (targets.length !== 1) return false;
  let aggregated = false;
  let other = false;
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(visit);
    if (typeof v !== 'object' || v === null) return;
    const fc = (v as Fields)['FuncCall'];
    if (fc) {
      // sum/avg with DISTINCT, FILTER or OVER, stddev/variance with DISTINCT or OVER, typed (sql/numericTypes.ts): what they wrap decides
      if (isAggregateWrapper(fc)) return visit(wrapperValueArgs(fc));
      if (fc['over'] || !aggregateName(fc)) other = true;
      else aggregated = true;
      return;
    }
    if ((v as Fields)['SubLink'] || (v as Fields)['ColumnRef']) {
      other ||= Boolean((v as Fields)['SubLink']);
      return;
    }
    for (const x of Object.values(v as Fields)) visit(x);
  };
  visit(targets[0]);
  return aggregated && !other;
}

/** An aggregate's result: computed from rows that passed the filters, so no stored row flows out of it. */
function aggregate<R>(name: string, f: Fields, args: Flow<R>[]): Flow<R> {
  const arg = args.length === 1 ? args[0]! : null;
  let type: ValueType | null = null;
  if (name === 'count') type = { t: 'int', digits: 19 };
  else if (arg && arg.safe && arg.type && !f['agg_distinct'] && !f['agg_filter'] && !f['agg_order']) {
    const t = arg.type;
    if (name === 'min' || name === 'max') type = t;
    else if (name === 'sum' && t.t === 'int') type = { t: 'int', digits: 39 };
    else if (name === 'sum' && t.t === 'decimal' && t.width <= 18) type = { t: 'decimal', width: 38, scale: t.scale };
    else if (name === 'avg' && (t.t === 'int' || t.t === 'decimal' || t.t === 'float')) type = { t: 'float' };
    // PostgreSQL's: sum(int2/int4) bigint, sum(int8) numeric(38,0); avg(integer or numeric) numeric at 16 decimals (sql/dialect/numericMacros.ts)
    else if (name === 'pg_sum' && t.t === 'int') type = t.digits <= 10 ? { t: 'int', digits: 19 } : { t: 'decimal', width: 38, scale: 0 };
    else if (name === 'pg_sum' && t.t === 'decimal' && t.width <= 18) type = { t: 'decimal', width: 38, scale: t.scale };
    else if (name === 'pg_sum' && t.t === 'float') type = { t: 'float' };
    else if (name === 'pg_avg' && (t.t === 'int' || t.t === 'decimal')) type = { t: 'decimal', width: 38, scale: 16 };
    else if (name === 'pg_avg' && t.t === 'float') type = { t: 'float' };
  }
  // Evaluating it can fail only where its arguments can; those are judged by the predicates that read them.
  return { refs: new Set(), type, safe: type !== null };
}
