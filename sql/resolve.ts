/**
 * Name resolution of every RangeVar (threats.md §2.2): CTEs by scope, then
 * `db.schema.table`, `schema.table`, or the search_path with pg_catalog
 * implicitly first, as PostgreSQL does. A user table becomes its trusted
 * scan (a qualified DuckDB reference, or iceberg_scan of its snapshot) under
 * the user's alias; a view becomes its own query, checked and resolved as the
 * same user; emulated catalog relations are pointed at the emulation database.
 */
import { authorize } from './authorize.js';
import type { CatalogTable, CatalogView, RelationCatalog } from './catalogView.js';
import { nameTargets } from './colnames.js';
import {
  EMULATION_DB,
  INFO_SCHEMA,
  INFORMATION_SCHEMA_RELATIONS,
  PG_CATALOG_RELATIONS,
  PGC_SCHEMA,
} from './emulation.js';
import { SqlError, pos, undefinedTable } from './errors.js';
import { findTemp, isTempSchema, tempItem, withTempFirst, type TempScope } from './tempTables.js';
import type { TempTable } from './write/plan.js';
import { intConst, names, replaceNode, strNode, walk, type Fields, type PathStep, type PgNode } from './walk.js';

export interface ResolveContext {
  database: string;
  searchPath: string[];
  user: string;
  catalog: RelationCatalog;
  /** The session's temporary tables, looked up before any schema (none: the session has none). */
  temp?: TempScope;
}

export type Resolved =
  | { kind: 'table'; table: CatalogTable }
  | { kind: 'view'; view: CatalogView }
  /** one of the session's temporary tables; `schema` is its temporary schema (pg_temp_N) */
  | { kind: 'temp'; table: TempTable; schema: string }
  | { kind: 'emulated'; schema: 'pg_catalog' | 'information_schema'; name: string };

/** A user table the query reads: the policy layer rewrites `node` (the FROM item holding `table.scan()`) in place. */
export interface TableReference {
  schema: string;
  name: string;
  /** the alias the rest of the query uses for it */
  alias: string;
  table: CatalogTable;
  node: PgNode;
}

/** The search path as PostgreSQL applies it: pg_catalog first unless listed, `$user` expanded. */
export function effectiveSearchPath(ctx: Pick<ResolveContext, 'searchPath' | 'user'>): string[] {
  const expanded = ctx.searchPath.map((s) => (s === '$user' ? ctx.user : s));
  return expanded.includes('pg_catalog') ? expanded : ['pg_catalog', ...expanded];
}

function lookupIn(schema: string, name: string, ctx: ResolveContext): Resolved | undefined {
  if (schema === 'pg_catalog') {
    return Object.hasOwn(PG_CATALOG_RELATIONS, name) ? { kind: 'emulated', schema, name } : undefined;
  }
  if (schema === 'information_schema') {
    return Object.hasOwn(INFORMATION_SCHEMA_RELATIONS, name) ? { kind: 'emulated', schema, name } : undefined;
  }
  const table = ctx.catalog.getTable(schema, name);
  if (table) return { kind: 'table', table };
  const view = ctx.catalog.getView?.(schema, name);
  return view ? { kind: 'view', view } : undefined;
}

function tempIn(name: string, ctx: ResolveContext): Resolved | undefined {
  const table = findTemp(ctx.temp, name);
  return table && ctx.temp ? { kind: 'temp', table, schema: ctx.temp.schema } : undefined;
}

/** Resolve a possibly qualified relation name, or throw as PostgreSQL would. */
export function resolveRelation(
  parts: { catalog?: string; schema?: string; name: string },
  ctx: ResolveContext,
  location?: unknown,
): Resolved {
  if (parts.catalog !== undefined && parts.catalog !== ctx.database) {
    const full = [parts.catalog, parts.schema, parts.name].join('.');
    throw new SqlError('0A000', `cross-database references are not implemented: "${full}"`, pos(location));
  }
  if (parts.schema !== undefined) {
    const found = isTempSchema(parts.schema, ctx.temp) ? tempIn(parts.name, ctx) : lookupIn(parts.schema, parts.name, ctx);
    if (!found) throw undefinedTable(`${parts.schema}.${parts.name}`, location);
    return found;
  }
  for (const schema of withTempFirst(effectiveSearchPath(ctx))) {
    const found = schema === 'pg_temp' ? tempIn(parts.name, ctx) : lookupIn(schema, parts.name, ctx);
    if (found) return found;
  }
  throw undefinedTable(parts.name, location);
}

/** Statements besides SELECT whose WITH list scopes their parts (the write statements of sql/write/). */
const WITH_HOLDERS: ReadonlySet<string> = new Set(['InsertStmt', 'UpdateStmt', 'DeleteStmt', 'MergeStmt']);

/** CTEs visible at this point of the tree, by name, judged from the ancestors (inner WITH lists shadow outer ones). */
export function ctesInScope(path: readonly PathStep[]): Map<string, Fields> {
  const visible = new Map<string, Fields>();
  path.forEach((step, i) => {
    if (step.kind !== 'SelectStmt' && !WITH_HOLDERS.has(step.kind ?? '')) return;
    const withClause = step.holder['withClause'] as Fields | undefined;
    if (!withClause) return;
    const ctes = ((withClause['ctes'] ?? []) as Fields[]).map((c) => c['CommonTableExpr'] as Fields);
    // Inside the WITH list: a CTE sees the ones before it, and itself only when RECURSIVE.
    const upTo = step.key !== 'withClause' || withClause['recursive'] ? ctes.length : (path[i + 1]?.index ?? 0);
    ctes.slice(0, upTo).forEach((c) => visible.set(String(c['ctename']), c));
  });
  return visible;
}

/**
 * CTEs are renamed to generated names (lg_cte_1 …), references included.
 * DuckDB then never sees a user-chosen CTE name: if its scoping rules ever
 * disagreed with PostgreSQL's, a reference would fail to bind instead of
 * reaching a table or a file of that name.
 */
class CteNames {
  private readonly names = new Map<Fields, string>();
  nameOf(cte: Fields): string {
    let n = this.names.get(cte);
    if (!n) {
      n = `lg_cte_${this.names.size + 1}`;
      this.names.set(cte, n);
    }
    return n;
  }
  renameAll(root: unknown): void {
    walk(root, ({ kind, fields }) => {
      if (kind === 'CommonTableExpr') fields['ctename'] = this.nameOf(fields);
    });
  }
}

/** Views being expanded, innermost last: a view that reaches itself is refused, not expanded forever. */
const MAX_VIEW_DEPTH = 16;

/**
 * The FROM item that reads a table: its trusted scan under the user's alias.
 * A table function (iceberg_scan) is given the table's column names, which
 * pins them (and keeps the dialect pass from naming a one-column function's
 * output after the alias).
 */
function tableItem(table: CatalogTable, alias: Fields, location: unknown): PgNode {
  const scan = table.scan();
  const inner = scan['RangeVar'] ?? scan['RangeFunction'];
  if (!inner) throw new SqlError('XX000', `table ${table.schema}.${table.name} has no readable scan`);
  const a: Fields = { ...alias };
  if (scan['RangeFunction'] && !a['colnames'] && table.columns.length > 0) a['colnames'] = table.columns.map((c) => strNode(c.name));
  inner['alias'] = a;
  if (scan['RangeVar']) inner['location'] = location;
  return scan;
}

/**
 * A view reference becomes its query as a derived table, resolved on its own
 * (the outer query's CTEs are not in its scope; its unqualified names are
 * looked up in its default namespace) as the same user, after the same
 * allowlist as the user's SQL.
 */
function viewItem(view: CatalogView, alias: Fields, ctx: ResolveContext, state: ResolveState): PgNode {
  const key = `${view.schema}.${view.name}`;
  if (state.views.includes(key) || state.views.length >= MAX_VIEW_DEPTH) {
    throw new SqlError('42P17', `infinite recursion detected in view "${key}"`);
  }
  const body = structuredClone(view.query);
  authorize(body);
  nameTargets(body);
  state.views.push(key);
  try {
    // a view stored in the catalog never sees a reader's temporary tables
    resolveInto(body, { ...ctx, searchPath: [view.defaultSchema], temp: undefined }, state);
  } finally {
    state.views.pop();
  }
  const a: Fields = { ...alias };
  if (!a['colnames']) a['colnames'] = view.columns.map((c) => strNode(c.name));
  return { RangeSubselect: { subquery: body, alias: a } };
}

interface ResolveState {
  tables: TableReference[];
  cteNames: CteNames;
  views: string[];
}

/**
 * Rewrites every RangeVar in place; returns the user tables read, those
 * read through views included. Column references qualified with a schema
 * (`sales.orders.id`) are shortened to the alias, which is all DuckDB knows
 * the rewritten reference by.
 */
export function resolveRelations(root: unknown, ctx: ResolveContext): TableReference[] {
  const state: ResolveState = { tables: [], cteNames: new CteNames(), views: [] };
  resolveInto(root, ctx, state);
  state.cteNames.renameAll(root);
  return state.tables;
}

function resolveInto(root: unknown, ctx: ResolveContext, state: ResolveState): void {
  /** written qualifier (`sales.orders`, `demo.sales.orders`) → alias; only for references the user did not alias */
  const qualified = new Map<string, string>();
  const { tables, cteNames } = state;
  walk(root, ({ kind, node, fields: f, path }) => {
    if (kind !== 'RangeVar') return;
    // Rewrite the fields object itself: a RangeVar stored inline has no wrapper to swap.
    const rewrite = (fields: Fields): void => {
      for (const k of Object.keys(f)) delete f[k];
      Object.assign(f, fields);
    };
    const name = String(f['relname']);
    const schema = f['schemaname'] as string | undefined;
    const catalog = f['catalogname'] as string | undefined;
    // Only an unqualified name can mean a CTE: `WITH orders AS (…) SELECT * FROM sales.orders` reads the table.
    const cte = schema === undefined && catalog === undefined ? ctesInScope(path).get(name) : undefined;
    if (cte) {
      rewrite({ relname: cteNames.nameOf(cte), inh: true, relpersistence: 'p', alias: f['alias'] ?? { aliasname: name }, location: f['location'] });
      return false;
    }
    const resolved = resolveRelation({ catalog, schema, name }, ctx, f['location']);
    const alias = (f['alias'] as Fields | undefined) ?? { aliasname: name };
    const location = f['location'];
    if (!f['alias'] && schema !== undefined) {
      qualified.set(`${schema}.${name}`, name);
      if (catalog !== undefined) qualified.set(`${catalog}.${schema}.${name}`, name);
    }
    if (resolved.kind === 'emulated') {
      rewrite({
        catalogname: EMULATION_DB,
        schemaname: resolved.schema === 'pg_catalog' ? PGC_SCHEMA : INFO_SCHEMA,
        relname: resolved.name,
        inh: true,
        relpersistence: 'p',
        alias,
        location,
      });
      return false;
    }
    if (resolved.kind === 'view') {
      replaceNode(node, viewItem(resolved.view, alias, ctx, state));
      return false;
    }
    if (resolved.kind === 'temp') {
      // No policy applies: the table holds only what this session already read through the data gate.
      replaceNode(node, tempItem(resolved.table, alias));
      return false;
    }
    replaceNode(node, tableItem(resolved.table, alias, location));
    tables.push({
      schema: resolved.table.schema,
      name: resolved.table.name,
      alias: String(alias['aliasname']),
      table: resolved.table,
      node,
    });
    return false;
  });
  if (qualified.size > 0) shortenQualifiedColumns(root, qualified);
  catalogTableOids(root);
}

/**
 * `l.tableoid` of an emulated pg_catalog relation: its PostgreSQL OID (the emulation's tables have no system
 * columns; psql's \dL and \dd join pg_description on it). Each SELECT's own FROM names its aliases.
 */
function catalogTableOids(root: unknown): void {
  walk(root, ({ kind, fields: select }) => {
    if (kind !== 'SelectStmt') return;
    const aliases = new Map<string, number>();
    walk(select['fromClause'], ({ kind: k, fields: f }) => {
      if (k === 'RangeSubselect' || k === 'SelectStmt' || k === 'SubLink') return false;
      if (k !== 'RangeVar' || f['catalogname'] !== EMULATION_DB || f['schemaname'] !== PGC_SCHEMA) return;
      const oid = PG_CATALOG_RELATIONS[String(f['relname'])]?.oid;
      if (oid !== undefined) aliases.set(String((f['alias'] as Fields | undefined)?.['aliasname'] ?? f['relname']), oid);
      return false;
    });
    if (aliases.size === 0) return;
    const replace = (tree: unknown): void =>
      walk(tree, ({ kind: k, node, fields: f }) => {
        if (k === 'SelectStmt' || k === 'RangeSubselect') return false;
        if (k !== 'ColumnRef') return;
        const parts = names(f['fields']);
        const oid = parts.length === 2 && parts[1] === 'tableoid' ? aliases.get(parts[0]!) : undefined;
        if (oid !== undefined) replaceNode(node, intConst(oid));
      });
    for (const key of ['targetList', 'whereClause', 'fromClause', 'groupClause', 'havingClause', 'sortClause']) replace(select[key]);
  });
}

function shortenQualifiedColumns(root: unknown, qualified: Map<string, string>): void {
  walk(root, ({ kind, fields }) => {
    if (kind !== 'ColumnRef') return;
    const parts = fields['fields'] as PgNode[];
    if (parts.length < 3) return;
    const prefix = names(parts.slice(0, -1));
    const alias = qualified.get(prefix.join('.'));
    if (alias !== undefined) fields['fields'] = [strNode(alias), parts[parts.length - 1]!];
  });
}
