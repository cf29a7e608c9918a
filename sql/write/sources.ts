/**
 * Column lineage of a resolved query: for each output column, its name and
 * the stored columns its value is computed from. policy/rewrite/lineage.ts
 * turns these into the tags the column carries (tags follow the data).
 *
 * The rule, on the tree after name resolution (views expanded, CTEs and
 * derived tables followed, the session's temporary tables by their own
 * lineage):
 *  - a column reference is computed from the column it names, through
 *    derived tables, CTEs, views and set operations (a UNION column from the
 *    columns at that position in every arm);
 *  - an expression, a function call, a cast, an aggregate or a window
 *    function (with its PARTITION BY and ORDER BY) is computed from every
 *    column it reads;
 *  - a subquery inside an expression is computed from every column it reads,
 *    its conditions included (its value depends on them);
 *  - WHERE, JOIN … ON / USING, GROUP BY, HAVING, ORDER BY and LIMIT of the
 *    query itself add nothing to its output columns;
 *  - where the analysis cannot tell which column a name means (an ambiguous
 *    or unknown name, a table function), it takes every column that could be
 *    meant: more sources, never fewer.
 *
 * `expandStars` writes the top-level `*` and `t.*` targets out as column
 * references, so the order and names of the output are decided here, not
 * left to the engine.
 */
import type { CatalogTable } from '../catalogView.js';
import { EMULATION_DB } from '../emulation.js';
import { SqlError } from '../errors.js';
import type { TableReference } from '../resolve.js';
import { tempScanOf } from '../tempTables.js';
import { names, nodeKind, strNode, type Fields, type PgNode } from '../walk.js';
import type { TempTable } from './plan.js';

/** A stored column an output is computed from. */
export type SourceColumn = { kind: 'table'; table: CatalogTable; column: string } | { kind: 'temp'; table: TempTable; column: string };

/** The stars expandStars wrote out: by arm of a set operation (`''`, `l`, `r`, `lr` …), by target index, the column references. */
export type WrittenStars = Map<string, Map<number, Fields[]>>;

export interface OutputColumn {
  name: string;
  sources: SourceColumn[];
}

interface Column {
  name: string;
  sources: SourceColumn[];
  /** how a star writes it out: the qualifier, or none for a USING column merged from both sides */
  qualifier: string | null;
}

interface Item {
  alias: string | null;
  /** null: the columns are not known here (a table function, the catalog emulation) */
  columns: Column[] | null;
  /** every column this item may carry */
  all: SourceColumn[];
}

interface Scope {
  items: Item[];
  /** the FROM clause as a star expands it (USING columns once, first) */
  starColumns: Column[] | null;
  parent: Scope | null;
}

const lower = (s: string): string => s.toLowerCase();

function dedupe(sources: SourceColumn[]): SourceColumn[] {
  const seen = new Set<string>();
  const out: SourceColumn[] = [];
  for (const s of sources) {
    const key = `${s.kind}\u0000${s.kind === 'table' ? `${s.table.schema}\u0000${s.table.name}` : s.table.name}\u0000${s.column}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(s);
  }
  return out;
}

export class ColumnSources {
  private readonly byNode = new Map<object, TableReference>();
  private readonly ctes = new Map<string, Column[] | null>();

  constructor(tables: readonly TableReference[]) {
    for (const t of tables) this.byNode.set(t.node, t);
  }

  /** A statement-level WITH list (an INSERT's, an UPDATE's): its CTEs in scope for what follows. */
  withClause(withClause: Fields | undefined): this {
    if (withClause) this.withCtes({ withClause });
    return this;
  }

  /** The outputs of a SELECT (its own WITH list included); names as the query gives them. */
  outputs(select: Fields): OutputColumn[] {
    return this.block(select, null).map((c) => ({ name: c.name, sources: dedupe(c.sources) }));
  }

  /** Every stored column a SELECT reads anywhere (its outputs and its conditions). */
  reads(select: Fields, parent: Scope | null): SourceColumn[] {
    const out: SourceColumn[] = [];
    const cols = this.block(select, parent, out);
    for (const c of cols) out.push(...c.sources);
    return dedupe(out);
  }

  /**
   * Write the top-level `*` / `t.*` targets of `select` out as column
   * references (both arms of a set operation), or refuse where the columns
   * are not known here.
   */
  expandStars(select: Fields, written?: WrittenStars, at = ''): void {
    // a set operation's WITH list is its own, over both arms
    this.withCtes(select);
    if (select['op'] && select['op'] !== 'SETOP_NONE') {
      this.expandStars(select['larg'] as Fields, written, `${at}l`);
      this.expandStars(select['rarg'] as Fields, written, `${at}r`);
      return;
    }
    const targets = (select['targetList'] ?? []) as Fields[];
    if (!targets.some((t) => starOf(t) !== undefined)) return;
    const scope = this.scopeOf(select, null);
    const out: Fields[] = [];
    targets.forEach((t, index) => {
      const star = starOf(t);
      if (star === undefined) {
        out.push(t);
        return;
      }
      const columns = star === null ? scope.starColumns : scope.items.find((i) => i.alias !== null && lower(i.alias) === lower(star))?.columns ?? null;
      if (!columns) throw new SqlError('0A000', `${star === null ? '*' : `${star}.*`} over a relation whose columns lakegate cannot list is not supported here`, undefined, { hint: 'Name the columns.' });
      const refs = columns.map((c) => {
        const qualifier = star ?? c.qualifier;
        return { ResTarget: { name: c.name, val: { ColumnRef: { fields: qualifier === null ? [strNode(c.name)] : [strNode(qualifier), strNode(c.name)] } } } };
      });
      out.push(...refs);
      if (written) {
        if (!written.has(at)) written.set(at, new Map());
        written.get(at)!.set(index, structuredClone(refs));
      }
    });
    select['targetList'] = out;
  }

  // ---------------------------------------------------------------- blocks

  private withCtes(select: Fields): void {
    const withClause = select['withClause'] as Fields | undefined;
    for (const c of (withClause?.['ctes'] ?? []) as Fields[]) {
      const cte = c['CommonTableExpr'] as Fields;
      const name = lower(String(cte['ctename']));
      const body = (cte['ctequery'] as Fields | undefined)?.['SelectStmt'] as Fields | undefined;
      if (!body) {
        this.ctes.set(name, null);
        continue;
      }
      if (withClause?.['recursive']) {
        // it reads itself: every output may hold anything the body reads
        this.ctes.set(name, null);
        const all = this.reads(body, null);
        const cols = this.block(body, null).map((col) => ({ ...col, sources: all }));
        this.ctes.set(name, renamed(cols, cte['aliascolnames']));
      } else {
        this.ctes.set(name, renamed(this.block(body, null), cte['aliascolnames']));
      }
    }
  }

  /** A SELECT's output columns; `reads` (when given) collects what its conditions read. */
  private block(select: Fields, parent: Scope | null, reads?: SourceColumn[]): Column[] {
    this.withCtes(select);
    if (select['op'] && select['op'] !== 'SETOP_NONE') {
      const l = this.block(select['larg'] as Fields, parent, reads);
      const r = this.block(select['rarg'] as Fields, parent, reads);
      if (l.length !== r.length) {
        const all = [...l, ...r].flatMap((c) => c.sources);
        return l.map((c) => ({ ...c, sources: all }));
      }
      return l.map((c, i) => ({ name: c.name, qualifier: null, sources: [...c.sources, ...r[i]!.sources] }));
    }
    const scope = this.scopeOf(select, parent, reads);
    if (select['valuesLists']) {
      const rows = (select['valuesLists'] as Fields[]).map((l) => ((l['List']?.['items'] ?? []) as unknown[]).map((x) => this.expr(x, scope)));
      const width = Math.max(0, ...rows.map((r) => r.length));
      return Array.from({ length: width }, (_, i) => ({ name: `column${i + 1}`, qualifier: null, sources: rows.flatMap((r) => r[i] ?? []) }));
    }
    if (reads) {
      for (const key of ['whereClause', 'havingClause', 'groupClause', 'sortClause', 'distinctClause', 'windowClause', 'limitCount', 'limitOffset']) {
        reads.push(...this.expr(select[key], scope));
      }
    }
    const out: Column[] = [];
    for (const t of (select['targetList'] ?? []) as Fields[]) {
      const rt = t['ResTarget'] as Fields | undefined;
      if (!rt) continue;
      const star = starOf(t);
      if (star !== undefined) {
        const item = star === null ? null : scope.items.find((i) => i.alias !== null && lower(i.alias) === lower(star));
        const columns = star === null ? scope.starColumns : item?.columns ?? null;
        if (columns) out.push(...columns);
        else {
          // unknown columns: one stand-in that holds everything the star may carry
          const all = star === null ? scope.items.flatMap((i) => i.all) : item?.all ?? scope.items.flatMap((i) => i.all);
          out.push({ name: '*', qualifier: null, sources: all });
        }
        continue;
      }
      const ref = rt['val']?.['ColumnRef'] as Fields | undefined;
      const name = (rt['name'] as string | undefined) ?? (ref ? names(ref['fields']).pop() : undefined) ?? '?column?';
      out.push({ name, qualifier: null, sources: this.expr(rt['val'], scope) });
    }
    return out;
  }

  // ---------------------------------------------------------------- FROM

  private scopeOf(select: Fields, parent: Scope | null, reads?: SourceColumn[]): Scope {
    const scope: Scope = { items: [], starColumns: [], parent };
    for (const node of (select['fromClause'] ?? []) as PgNode[]) {
      const { items, star } = this.fromItem(node, scope, reads);
      scope.items.push(...items);
      if (star === null || scope.starColumns === null) scope.starColumns = null;
      else scope.starColumns.push(...star);
    }
    return scope;
  }

  /** The items a FROM entry puts in scope, and the columns a star over it gives (null: unknown). */
  private fromItem(node: PgNode, scope: Scope, reads?: SourceColumn[]): { items: Item[]; star: Column[] | null } {
    const kind = nodeKind(node);
    const f = kind ? node[kind]! : {};
    const aliasName = f['alias']?.['aliasname'] as string | undefined;
    const colnames = f['alias']?.['colnames'] as unknown[] | undefined;
    const one = (alias: string | null, columns: Column[] | null, all: SourceColumn[]) => {
      const named = columns && alias !== null ? columns.map((c) => ({ ...c, qualifier: alias })) : columns;
      return { items: [{ alias, columns: named, all }], star: named };
    };
    const table = this.byNode.get(node);
    if (table) {
      const cols = table.table.columns.map((c) => ({ name: c.name, qualifier: null, sources: [{ kind: 'table', table: table.table, column: c.name } as SourceColumn] }));
      const columns = renamed(cols, colnames);
      return one(aliasName ?? table.alias, columns, columns?.flatMap((c) => c.sources) ?? []);
    }
    switch (kind) {
      case 'RangeVar': {
        const temp = tempScanOf(f);
        if (temp) {
          const cols = temp.columns.map((c) => ({ name: c.name, qualifier: null, sources: [{ kind: 'temp', table: temp, column: c.name } as SourceColumn] }));
          return one(aliasName ?? String(f['relname']), cols, cols.flatMap((c) => c.sources));
        }
        const alias = aliasName ?? String(f['relname']);
        if (f['schemaname'] === undefined && f['catalogname'] === undefined && this.ctes.has(lower(String(f['relname'])))) {
          const cte = this.ctes.get(lower(String(f['relname'])))!;
          const columns = renamed(cte, colnames);
          return one(alias, columns, cte?.flatMap((c) => c.sources) ?? []);
        }
        // the catalog emulation holds no stored user data; anything else was resolved into a scan before now
        if (f['catalogname'] === EMULATION_DB) return one(alias, null, []);
        throw new Error(`lineage met an unresolved relation ${String(f['relname'])}`);
      }
      case 'RangeSubselect': {
        const body = (f['subquery'] as Fields | undefined)?.['SelectStmt'] as Fields | undefined;
        const cols = body ? this.block(body, scope, reads) : null;
        const columns = renamed(cols, colnames);
        return one(aliasName ?? null, columns, cols?.flatMap((c) => c.sources) ?? []);
      }
      case 'RangeFunction': {
        // a table function's columns come from its arguments (which may read the items before it)
        const all = this.expr(f['functions'], scope);
        return one(aliasName ?? null, null, all);
      }
      case 'JoinExpr':
        return this.join(f, scope, reads);
      default:
        // a FROM item this analysis does not know could carry anything: fail closed rather than tag nothing
        throw new Error(`lineage met a FROM item of kind ${kind ?? '?'}`);
    }
  }

  private join(f: Fields, scope: Scope, reads?: SourceColumn[]): { items: Item[]; star: Column[] | null } {
    const l = this.fromItem(f['larg'] as PgNode, scope, reads);
    const r = this.fromItem(f['rarg'] as PgNode, scope, reads);
    const items = [...l.items, ...r.items];
    if (reads) reads.push(...this.expr(f['quals'], { items, starColumns: null, parent: scope }));
    let using = names(f['usingClause']);
    if (f['isNatural']) {
      if (!l.star || !r.star) return { items: [...items, ...this.joinAlias(f, null, items)], star: null };
      const right = new Set(r.star.map((c) => lower(c.name)));
      using = l.star.map((c) => c.name).filter((n) => right.has(lower(n)));
    }
    if (using.length === 0 || !l.star || !r.star) {
      const star = l.star && r.star ? [...l.star, ...r.star] : null;
      return { items: [...items, ...this.joinAlias(f, star, items)], star };
    }
    // USING / NATURAL: each named column once, first, from both sides; then the rest of each side
    const named = new Set(using.map(lower));
    const pick = (cols: Column[], n: string) => cols.filter((c) => lower(c.name) === lower(n)).flatMap((c) => c.sources);
    const merged: Column[] = using.map((n) => ({ name: n, qualifier: null, sources: [...pick(l.star!, n), ...pick(r.star!, n)] }));
    const star = [...merged, ...l.star.filter((c) => !named.has(lower(c.name))), ...r.star.filter((c) => !named.has(lower(c.name)))];
    // the merged column is also what an unqualified name means: an item of its own, found first
    return { items: [{ alias: null, columns: merged, all: merged.flatMap((c) => c.sources) }, ...items, ...this.joinAlias(f, star, items)], star };
  }

  private joinAlias(f: Fields, star: Column[] | null, items: Item[]): Item[] {
    const alias = f['alias']?.['aliasname'] as string | undefined;
    if (alias === undefined) return [];
    return [{ alias, columns: star ? renamed(star, f['alias']?.['colnames']) : null, all: items.flatMap((i) => i.all) }];
  }

  // ---------------------------------------------------------------- expressions

  /** Every stored column an expression reads (subqueries: everything they read). */
  private expr(x: unknown, scope: Scope): SourceColumn[] {
    const out: SourceColumn[] = [];
    const visit = (v: unknown): void => {
      if (Array.isArray(v)) return v.forEach(visit);
      if (typeof v !== 'object' || v === null) return;
      const kind = nodeKind(v);
      if (kind === 'ColumnRef') {
        out.push(...this.columnRef((v as PgNode)['ColumnRef']!, scope));
        return;
      }
      if (kind === 'SubLink') {
        const sub = (v as PgNode)['SubLink']!;
        visit(sub['testexpr']);
        const body = (sub['subselect'] as Fields | undefined)?.['SelectStmt'] as Fields | undefined;
        if (body) out.push(...this.reads(body, scope));
        return;
      }
      if (kind === 'SelectStmt') {
        out.push(...this.reads((v as PgNode)['SelectStmt']!, scope));
        return;
      }
      for (const value of Object.values(kind ? (v as PgNode)[kind]! : (v as Fields))) visit(value);
    };
    visit(x);
    return out;
  }

  /** What a column reference may stand for, innermost scope first; every candidate where it is not clear. */
  private columnRef(ref: Fields, scope: Scope): SourceColumn[] {
    const parts = (ref['fields'] ?? []) as unknown[];
    const strings = names(parts);
    const starred = nodeKind(parts[parts.length - 1]) === 'A_Star';
    for (let s: Scope | null = scope; s; s = s.parent) {
      if (starred && parts.length === 1) return s.items.flatMap((i) => i.all);
      // qualified: `alias.col`, `alias.*`, or a struct field `alias.col.field`
      if (parts.length >= 2) {
        const item = s.items.find((i) => i.alias !== null && lower(i.alias) === lower(strings[0]!));
        if (item) {
          if (starred || !item.columns) return item.all;
          const col = item.columns.find((c) => lower(c.name) === lower(strings[1]!));
          return col ? col.sources : item.all;
        }
      }
      // unqualified (or `col.field` of a struct column)
      const name = lower(strings[0]!);
      const hits = s.items.flatMap((i) => (i.columns ? i.columns.filter((c) => lower(c.name) === name) : []));
      if (hits.length > 0) {
        // a USING column stands first (its own item); otherwise every column of that name
        const mergedItem = s.items.find((i) => i.alias === null && i.columns?.some((c) => lower(c.name) === name && c.qualifier === null));
        const merged = mergedItem?.columns?.find((c) => lower(c.name) === name);
        return merged ? merged.sources : hits.flatMap((c) => c.sources);
      }
      // an item whose columns are not known may have it
      const unknown = s.items.filter((i) => !i.columns);
      if (unknown.length > 0) return unknown.flatMap((i) => i.all);
    }
    // an output column's name (ORDER BY), or a name the engine will refuse: nothing stored
    return [];
  }
}

/** `*` → null, `t.*` → 't', anything else → undefined. */
function starOf(target: Fields): string | null | undefined {
  const ref = target['ResTarget']?.['val']?.['ColumnRef'] as Fields | undefined;
  const fields = (ref?.['fields'] ?? []) as unknown[];
  if (!ref || nodeKind(fields[fields.length - 1]) !== 'A_Star') return undefined;
  if (fields.length === 1) return null;
  if (fields.length === 2) return names(fields.slice(0, 1))[0]!;
  return undefined;
}

/** Columns under an alias's column list (`AS x(a, b)`): the first ones renamed, the rest as they are. */
function renamed(columns: Column[] | null, colnames: unknown): Column[] | null {
  const list = names(colnames);
  if (!columns || list.length === 0) return columns;
  return columns.map((c, i) => ({ ...c, name: list[i] ?? c.name }));
}
