/**
 * Column references that name a column of an enclosing query (a correlated
 * subquery's `o.o_orderkey`, a LATERAL subquery's outer column), and the
 * columns a table function in FROM reads from the items before it.
 *
 * DuckDB cannot type such a reference while it chooses a typed macro's
 * overload inside the subquery: with several typed overloads it reports them
 * all as matching ("Macro … has multiple overloads that match the supplied
 * arguments"), with one it takes it whatever the type. The planner's typed
 * wrappers (sql/dialect/numeric.ts typedDispatchSafe) therefore never dispatch
 * on them, as on subqueries and parameters.
 *
 * Marked per parse-tree object (copies are not marked: the planner checks a
 * user expression before it copies one into a probe). Where the column is a
 * table's, its type is known here: a probe then carries a constant of that
 * type in its place (typedCopy), so the overload is still chosen by type; the
 * reference itself is never dispatched on. A qualified reference
 * is outer when its qualifier is no FROM item of its own SELECT; an
 * unqualified one when no FROM item of its SELECT has that column (only
 * decided where every FROM item's columns are known: tables, derived tables
 * and VALUES with their column names).
 */
import type { CatalogTable, RelationCatalog } from './catalogView.js';
import type { TableReference } from './resolve.js';
import { TEMP_CATALOG, tempScanOf } from './tempTables.js';
import { intConst, names, nodeKind, strConst, strNode, walk, type Fields, type PgNode } from './walk.js';
import { ownTable } from './ownNames.js';

const OUTER = new WeakSet<object>();
/** an outer reference's column type (DuckDB's name), where its FROM item is a table */
const OUTER_TYPES = new WeakMap<object, string>();
/** the typed constants typedCopy writes (the dialect leaves them as they are) */
const PLACEHOLDER_CASTS = new WeakSet<object>();

/** Whether this ColumnRef's fields were found to name an enclosing query's column. */
export const isOuterReference = (columnRef: object): boolean => OUTER.has(columnRef);

interface Scope {
  aliases: Set<string>;
  /** every column a FROM item provides; undefined when some item's columns are unknown */
  columns: Set<string> | undefined;
  /** a table's columns and their DuckDB types, by the table's alias */
  tables: Map<string, Map<string, string>>;
}

/** Marks the outer column references of every nested SELECT under root. */
export function markOuterReferences(root: unknown, catalog: RelationCatalog, tables: readonly TableReference[] = []): void {
  // the FROM items resolution made of tables (a RangeVar, or a table function such as iceberg_scan)
  const scanned = new Map<object, CatalogTable>();
  for (const t of tables) {
    const inner = (t.node as Fields)['RangeVar'] ?? (t.node as Fields)['RangeFunction'];
    if (inner) scanned.set(inner, t.table);
  }
  const tableOf = (item: Fields): Pick<CatalogTable, 'columns'> | undefined =>
    scanned.get(item) ??
    tempScanOf(item) ??
    (item['catalogname'] !== TEMP_CATALOG && item['schemaname'] && item['relname'] ? catalog.getTable(String(item['schemaname']), String(item['relname'])) : undefined);
  walk(root, ({ kind, fields, path }) => {
    if (kind !== 'RangeFunction' && kind !== 'SelectStmt') return;
    // the FROM items of each enclosing SELECT, nearest first: where an outer reference's type is found (computed
    // only once a reference is found)
    let scopes: Scope[] | undefined;
    const enclosing = (): Scope[] =>
      (scopes ??= path.filter((p) => p.kind === 'SelectStmt').reverse().map((p) => scopeOf((p.holder['fromClause'] ?? []) as unknown[], tableOf)));
    // a table function's arguments in FROM read the FROM items before it (LATERAL, written or implicit): bound the
    // same way as an enclosing query's columns (a table's own scan reads none)
    if (kind === 'RangeFunction') {
      if (scanned.has(fields)) return;
      walk(fields['functions'], (v) => {
        if (v.kind === 'SelectStmt') return false;
        if (v.kind === 'ColumnRef') mark(v.fields, enclosing());
        return undefined;
      });
      return;
    }
    if (!path.some((p) => p.kind === 'SelectStmt')) return;
    if (fields['op'] && fields['op'] !== 'SETOP_NONE') return;
    const scope = scopeOf((fields['fromClause'] ?? []) as unknown[], tableOf);
    for (const key of ['targetList', 'whereClause', 'groupClause', 'havingClause', 'sortClause', 'windowClause', 'distinctClause', 'fromClause']) {
      walk(fields[key], (v) => {
        if (v.kind === 'SelectStmt') return false;
        if (v.kind === 'ColumnRef' && outer(v.fields, scope, fields)) mark(v.fields, enclosing());
        return undefined;
      });
    }
  });
}

function refParts(ref: Fields): (string | undefined)[] {
  return ((ref['fields'] ?? []) as unknown[]).map((f) => (f as Fields)['String']?.['sval'] as string | undefined);
}

/** Marks an outer reference, with its type where one of the enclosing scopes has it as a table's column. */
function mark(ref: Fields, scopes: Scope[]): void {
  OUTER.add(ref);
  const parts = refParts(ref);
  if (parts.some((p) => p === undefined)) return;
  const column = parts[parts.length - 1]!;
  const qualifier = parts.length >= 2 ? parts[parts.length - 2]! : undefined;
  for (const scope of scopes) {
    const tables = qualifier ? [scope.tables.get(qualifier)] : [...scope.tables.values()];
    const type = tables.map((t) => t?.get(column)).find((t) => t !== undefined);
    if (type) {
      OUTER_TYPES.set(ref, type);
      return;
    }
    // the qualifier or the name is this scope's, not a table's: unknown
    if (qualifier ? scope.aliases.has(qualifier) : !scope.columns || scope.columns.has(column)) return;
  }
}

function outer(ref: Fields, scope: Scope, select: Fields): boolean {
  const parts = refParts(ref);
  if (parts.some((p) => p === undefined)) return false; // a star
  if (parts.length >= 2) return !scope.aliases.has(parts[parts.length - 2]!);
  const name = parts[0]!;
  if (!scope.columns || scope.columns.has(name)) return false;
  // an output column's name (ORDER BY / GROUP BY total)
  return !((select['targetList'] ?? []) as Fields[]).some((t) => t['ResTarget']?.['name'] === name);
}

function scopeOf(items: unknown[], tableOf: (item: Fields) => Pick<CatalogTable, 'columns'> | undefined): Scope {
  const scope: Scope = { aliases: new Set(), columns: new Set(), tables: new Map() };
  const add = (alias: string | undefined, cols: readonly string[] | undefined) => {
    if (alias) scope.aliases.add(alias);
    if (!cols) scope.columns = undefined;
    else for (const c of cols) scope.columns?.add(c);
  };
  const visit = (item: unknown): void => {
    const kind = nodeKind(item);
    if (!kind) return;
    const f = (item as PgNode)[kind]!;
    const alias = f['alias'] as Fields | undefined;
    const aliasName = alias?.['aliasname'] as string | undefined;
    const colnames = alias?.['colnames'] ? names(alias['colnames']) : undefined;
    switch (kind) {
      case 'JoinExpr':
        visit(f['larg']);
        visit(f['rarg']);
        if (aliasName) scope.aliases.add(aliasName);
        return;
      case 'RangeVar':
      case 'RangeFunction': {
        const table = tableOf(f);
        const name = aliasName ?? (kind === 'RangeVar' ? String(f['relname']) : undefined);
        add(name, colnames ?? table?.columns.map((c) => c.name));
        // a table's columns under their own names (a table function's alias lists them in order)
        if (table && name && (!colnames || colnames.join('\0') === table.columns.map((c) => c.name).join('\0'))) {
          scope.tables.set(name, new Map(table.columns.map((c) => [c.name, c.duckType])));
        }
        return;
      }
      case 'RangeSubselect':
        add(aliasName, colnames ?? outputNames(f['subquery']));
        return;
      default:
        add(aliasName, colnames);
    }
  };
  items.forEach(visit);
  return scope;
}

/** A subquery's output column names, or undefined when one is not known here (a star, an expression). */
function outputNames(subquery: unknown): string[] | undefined {
  const select = (subquery as Fields | undefined)?.['SelectStmt'] as Fields | undefined;
  if (!select || select['valuesLists']) return undefined;
  if (select['op'] && select['op'] !== 'SETOP_NONE') return outputNames({ SelectStmt: select['larg'] });
  const targets = (select['targetList'] ?? []) as Fields[];
  const out: string[] = [];
  for (const t of targets) {
    const r = t['ResTarget'] as Fields | undefined;
    const name = r?.['name'] as string | undefined;
    const ref = r?.['val']?.['ColumnRef'] as Fields | undefined;
    if (ref && ((ref['fields'] ?? []) as Fields[]).some((f) => f['A_Star'])) return undefined;
    const col = ref ? names(ref['fields']) : [];
    const n = name ?? col[col.length - 1];
    if (!n) return undefined;
    out.push(n);
  }
  return out;
}

/**
 * DuckDB column types a probe can stand for, with PostgreSQL's name (which
 * the deparser prints) and a constant of the type. A constant, not NULL:
 * DuckDB folds NULL arithmetic in a probe (`pa * 0 + pb * 0`) to an untyped
 * NULL, which no longer chooses an overload.
 */
const PLACEHOLDERS: Readonly<Record<string, readonly [string, string | number]>> = ownTable({
  SMALLINT: ['int2', 0],
  INTEGER: ['int4', 0],
  BIGINT: ['int8', 0],
  HUGEINT: ['hugeint', 0],
  FLOAT: ['float4', 0],
  DOUBLE: ['float8', 0],
  BOOLEAN: ['bool', 'f'],
  VARCHAR: ['text', ''],
  DATE: ['date', '2000-01-01'],
  TIME: ['time', '00:00:00'],
  TIMESTAMP: ['timestamp', '2000-01-01 00:00:00'],
  'TIMESTAMP WITH TIME ZONE': ['timestamptz', '2000-01-01 00:00:00+00'],
  UUID: ['uuid', '00000000-0000-0000-0000-000000000000'],
});

function placeholder(duckType: string): PgNode | undefined {
  const decimal = /^DECIMAL\((\d+),\s*(\d+)\)$/i.exec(duckType.trim());
  const known = decimal ? (['numeric', 0] as const) : PLACEHOLDERS[duckType.trim().toUpperCase()];
  if (!known) return undefined;
  const typmods = decimal ? [intConst(Number(decimal[1])), intConst(Number(decimal[2]))] : undefined;
  const value = typeof known[1] === 'number' ? intConst(known[1]) : strConst(known[1]);
  const cast: Fields = { arg: value, typeName: { names: [strNode(known[0])], ...(typmods ? { typmods } : {}), typemod: -1 } };
  PLACEHOLDER_CASTS.add(cast);
  return { TypeCast: cast };
}

/** Whether this TypeCast is the constant a probe carries for an outer reference (left as it is). */
export const isProbePlaceholder = (typeCast: object): boolean => PLACEHOLDER_CASTS.has(typeCast);

/**
 * A copy of x for a probe, each outer reference replaced by a constant of its
 * column's type; undefined when one has no known type.
 */
export function typedCopy(x: unknown): PgNode | undefined {
  let ok = true;
  const copy = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(copy);
    if (typeof v !== 'object' || v === null) return v;
    const ref = (v as Fields)['ColumnRef'] as Fields | undefined;
    if (ref && OUTER.has(ref)) {
      const type = OUTER_TYPES.get(ref);
      const n = type ? placeholder(type) : undefined;
      if (!n) ok = false;
      return n ?? v;
    }
    const out: Fields = {};
    for (const [k, val] of Object.entries(v as Fields)) out[k] = copy(val);
    return out;
  };
  const c = copy(x) as PgNode;
  return ok ? c : undefined;
}

/** Whether x holds an outer reference. */
export function hasOuterReference(x: unknown): boolean {
  let found = false;
  walk(x, (v) => {
    if (v.kind === 'ColumnRef' && OUTER.has(v.fields)) found = true;
    return found ? false : undefined;
  });
  return found;
}
