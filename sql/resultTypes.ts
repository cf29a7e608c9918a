/**
 * PostgreSQL types of result columns that DuckDB has no type for: `name`,
 * `"char"`, `oid`, `regtype` … DuckDB answers them as VARCHAR or BIGINT and
 * forgets where a value came from (a `CREATE TYPE` alias is not reported in
 * a result's column types), so the planner says it instead, from the tree
 * after relation resolution: an output column that is a plain reference to a
 * column of an emulated catalog relation (`c.relname`, `n.*`), also through a
 * derived table, a CTE or a scalar subquery, or a call or cast whose
 * PostgreSQL result type is one of these (`current_user`, `pg_typeof(x)`,
 * `x::oid`). Anything else — an expression over such a column, a union —
 * keeps the type DuckDB gives it, as PostgreSQL's `relname || ''` is text.
 *
 * server/rows/describe.ts presents a column so only where the DuckDB type
 * carries the values (VARCHAR for name, BIGINT for oid); otherwise the
 * column keeps its DuckDB type. Text is the carried value's own (an oid out
 * of an oid's range is an error, server/rows/numberCodecs.ts OidCodec).
 */
import { CATALOG_COLUMN_TYPES } from './catalogColumnTypes.js';
import { EMULATION_DB, INFO_SCHEMA, PGC_SCHEMA } from './emulation.js';
import { sizedBitProbe } from './dialect/numeric.js';
import { PRESENTED_TYPES, presentedOidOf, type PresentedAs } from './pgTypes.js';
import { AGGREGATE_FUNCTIONS, expressionKey as shape, names, nodeKind, walk, type Fields, type PgNode } from './walk.js';
import { ownRecord, ownTable } from './ownNames.js';
import type { TableReference } from './resolve.js';

/** Result column types by position: `star` stands for the columns one `*` expands to, typed by their names. */
export interface ResultTypes {
  before: (PresentedAs | undefined)[];
  star?: { columns: Readonly<Record<string, PresentedAs>> | undefined };
  after: (PresentedAs | undefined)[];
}

const NAME = 19;
const OID = 26;
const VARCHAR = 1043;
const BPCHAR = 1042;
const BIT = 1560;
const VARBIT = 1562;
const NAME_ARRAY = 1003;
const REGCLASS = 2205;
const REGTYPE = 2206;
const RECORD = 2249;
const JSONB = 3802;

/** `current_user`, `current_schema` …: all name in PostgreSQL. */
const NAME_VALUE_FUNCTIONS = new Set([
  'SVFOP_CURRENT_ROLE', 'SVFOP_CURRENT_USER', 'SVFOP_USER', 'SVFOP_SESSION_USER', 'SVFOP_CURRENT_CATALOG', 'SVFOP_CURRENT_SCHEMA',
]);

/** Functions whose PostgreSQL result type is one of the presented ones (pg_proc.prorettype). */
const FUNCTION_TYPES: Readonly<Record<string, number>> = ownTable({
  current_database: NAME,
  current_catalog: NAME,
  current_schema: NAME,
  current_user: NAME,
  session_user: NAME,
  pg_get_userbyid: NAME,
  current_schemas: NAME_ARRAY,
  pg_typeof: REGTYPE,
  to_regtype: REGTYPE, // printed by the dialect as the type's name (sql/dialect/dialect.ts printedForms)
  // jsonb, carried as DuckDB JSON and printed as jsonb_out does (server/rows JsonbCodec)
  to_jsonb: JSONB,
  jsonb_build_object: JSONB,
  jsonb_build_array: JSONB,
  jsonb_agg: JSONB,
  jsonb_object_agg: JSONB,
  jsonb_extract_path: JSONB,
  jsonb_set: JSONB,
  jsonb_insert: JSONB,
  jsonb_strip_nulls: JSONB,
});

/** Operators whose result is jsonb when their left operand is. */
const JSONB_OPERATORS: ReadonlySet<string> = new Set(['->', '#>', '-', '#-']);

const ARRAY_OF: Readonly<Record<number, number>> = { 18: 1002, 19: NAME_ARRAY, 26: 1028 };
/** unnest of such an array: its element's type (pgcli's `unnest(current_schemas(true))` is name). */
const ELEMENT_OF: Readonly<Record<number, number>> = Object.fromEntries(Object.entries(ARRAY_OF).map(([e, a]) => [a, Number(e)]));

/** A column list by name: the PostgreSQL type of each column (0: one DuckDB's own type presents). */
type Columns = Readonly<Record<string, PresentedAs>>;

/** A FROM item: its columns when it is an emulated relation or a derived table over them, else undefined. */
interface FromItem {
  alias: string;
  columns: Columns | undefined;
}

/** The CTEs in scope by (resolved, unique) name; `expanding` guards a CTE that reads itself. */
interface Scope {
  ctes: ReadonlyMap<string, Fields>;
  expanding: ReadonlySet<string>;
  /** the user tables' scans (the FROM items resolution made of them) and their columns' types */
  tables: TableScans;
}

/** A user table's scan node (the RangeVar's or RangeFunction's fields) → its columns' names and types, in order. */
export type TableScans = ReadonlyMap<object, { names: readonly string[]; types: readonly PresentedAs[] }>;

/** The scans of the resolved table references: a jsonb column is typed by its kept type (CatalogColumn.pgType). */
export function tableScans(tables: readonly TableReference[]): TableScans {
  const out = new Map<object, { names: string[]; types: PresentedAs[] }>();
  for (const t of tables) {
    const inner = (t.node as Fields)['RangeVar'] ?? (t.node as Fields)['RangeFunction'];
    if (!inner || !t.table.columns.some((c) => c.pgType === 'jsonb')) continue;
    out.set(inner, { names: t.table.columns.map((c) => c.name), types: t.table.columns.map((c) => (c.pgType === 'jsonb' ? JSONB : 0)) });
  }
  return out;
}

/** A table's columns under its alias: a column alias list renames the first columns (the scan's own list names them all). */
function scanColumns(f: Fields, scan: { names: readonly string[]; types: readonly PresentedAs[] }): Columns {
  const renamed = ((f['alias']?.colnames ?? []) as unknown[]).map((c) => names([c])[0]!);
  const columns: Record<string, PresentedAs> = ownRecord();
  scan.names.forEach((n, i) => (columns[renamed[i] ?? n] = scan.types[i]!));
  return columns;
}
const NO_TABLES: TableScans = new Map();

function withCtes(select: Fields, scope: Scope): Scope {
  const list = (select['withClause']?.ctes ?? []) as Fields[];
  if (list.length === 0) return scope;
  const ctes = new Map(scope.ctes);
  for (const c of list) if (c['CommonTableExpr']) ctes.set(String(c['CommonTableExpr'].ctename), c['CommonTableExpr']);
  return { ctes, expanding: scope.expanding, tables: scope.tables };
}

function fromItems(items: unknown[], out: FromItem[], scope: Scope): void {
  for (const item of items) {
    const kind = nodeKind(item);
    if (!kind) continue;
    const f = (item as PgNode)[kind]!;
    if (kind === 'JoinExpr') {
      // A join's alias hides its sides' names. USING and NATURAL merge the columns both sides have: such a name,
      // unqualified, is found on two items and so left untyped; every other name is still one side's own.
      if (f['alias']) out.push({ alias: '', columns: undefined });
      fromItems([f['larg'], f['rarg']], out, scope);
      continue;
    }
    const alias = String(f['alias']?.aliasname ?? f['relname'] ?? '');
    const scan = scope.tables.get(f);
    if (scan) {
      out.push({ alias, columns: scanColumns(f, scan) });
      continue;
    }
    if (kind === 'RangeFunction') {
      out.push(functionItem(f, scope));
      continue;
    }
    const values = kind === 'RangeSubselect' ? valuesColumns(f, scope) : undefined;
    if (values) out.push({ alias, columns: values });
    // a column alias list renames columns: not typed by name
    else if (f['alias']?.colnames) out.push({ alias, columns: undefined });
    else if (kind === 'RangeVar' && f['catalogname'] === EMULATION_DB) {
      const schema = f['schemaname'] === PGC_SCHEMA ? 'pg_catalog' : f['schemaname'] === INFO_SCHEMA ? 'information_schema' : undefined;
      const relation = `${schema}.${String(f['relname'])}`;
      out.push({ alias, columns: Object.hasOwn(CATALOG_COLUMN_TYPES, relation) ? CATALOG_COLUMN_TYPES[relation] : undefined });
    } else if (kind === 'RangeSubselect') out.push({ alias, columns: derivedColumns(f['subquery'], scope) });
    else if (kind === 'RangeVar' && f['schemaname'] === undefined && scope.ctes.has(String(f['relname']))) {
      // resolveRelations gave each CTE a unique name, and its references that name
      const name = String(f['relname']);
      const cte = scope.ctes.get(name)!;
      const usable = !cte['aliascolnames'] && !scope.expanding.has(name);
      out.push({ alias, columns: usable ? derivedColumns(cte['ctequery'], { ...scope, expanding: new Set([...scope.expanding, name]) }) : undefined });
    } else out.push({ alias, columns: undefined });
  }
}

/** The set-returning jsonb functions' columns (jsonb_each's value, jsonb_array_elements' value): jsonb. */
const JSONB_SET_FUNCTIONS: Readonly<Record<string, readonly string[]>> = ownTable({
  jsonb_each: ['key', 'value'],
  jsonb_array_elements: ['value'],
});

/** A function in FROM: jsonb's set-returning functions' columns (renamed by a column alias list); else unknown. */
function functionItem(f: Fields, scope: Scope): FromItem {
  const fns = (f['functions'] ?? []) as Fields[];
  const call = fns.length === 1 ? (fns[0]?.['List']?.['items']?.[0] as PgNode | undefined)?.['FuncCall'] : undefined;
  const fn = names(call?.['funcname']);
  const name = fn[fn.length - 1] ?? '';
  const alias = String(f['alias']?.aliasname ?? name);
  const builtin = fn.length <= 2 && (fn.length === 1 || fn[0] === 'pg_catalog') && !f['ordinality'];
  const args = (call?.['args'] ?? []) as unknown[];
  if (builtin && name === 'unnest' && args.length === 1) {
    // a scalar function in FROM names its column after the alias (or the alias list's first name)
    const element = unnestedType(expressionType([], args[0], scope));
    if (element === undefined) return { alias, columns: undefined };
    const renamed = ((f['alias']?.colnames ?? []) as unknown[])[0];
    const column = renamed !== undefined ? names([renamed])[0] ?? alias : alias;
    const columns: Record<string, PresentedAs> = ownRecord();
    columns[column] = element;
    return { alias, columns };
  }
  const cols = builtin ? JSONB_SET_FUNCTIONS[name] : undefined;
  if (!cols) return { alias, columns: undefined };
  const renamed = ((f['alias']?.colnames ?? []) as unknown[]).map((c) => names([c])[0]!);
  if (renamed.length > cols.length) return { alias, columns: undefined };
  const columns: Record<string, number> = ownRecord();
  cols.forEach((c, i) => (columns[renamed[i] ?? c] = c === 'value' ? JSONB : 0));
  void scope;
  return { alias, columns };
}

function unnestedType(array: PresentedAs | undefined): PresentedAs | undefined {
  return typeof array === 'number' && Object.hasOwn(ELEMENT_OF, array) ? ELEMENT_OF[array] : undefined;
}

/** (VALUES …) AS t(a, b): each column's type when every row agrees (an untyped NULL or literal goes along). */
function valuesColumns(f: Fields, scope: Scope): Columns | undefined {
  let select = (f['subquery'] as PgNode | undefined)?.['SelectStmt'];
  let colnames = (f['alias']?.colnames ?? []) as unknown[];
  // sql/colnames.ts nameValues moved the list into `SELECT * FROM (VALUES …) "*VALUES*"(column1, …)`
  const from = (select?.['fromClause'] ?? []) as Fields[];
  const moved = from.length === 1 && from[0]!['RangeSubselect']?.['alias']?.['aliasname'] === '*VALUES*' ? from[0]!['RangeSubselect'] : undefined;
  if (moved && !select?.['valuesLists']) {
    if (colnames.length === 0) colnames = (moved['alias']?.colnames ?? []) as unknown[];
    select = (moved['subquery'] as PgNode | undefined)?.['SelectStmt'];
  }
  const rows = select?.['valuesLists'] as Fields[] | undefined;
  if (!rows || colnames.length === 0) return undefined;
  const columns: Record<string, PresentedAs> = ownRecord();
  colnames.forEach((c, i) => {
    const types = rows.map((r) => expressionType([], ((r['List']?.['items'] ?? []) as unknown[])[i], scope));
    columns[names([c])[0]!] = mergedType(types) ?? 0;
  });
  return columns;
}

/** The type of a column fed by several expressions (CASE, COALESCE, UNION, VALUES): jsonb where one is and the rest say nothing. */
function mergedType(types: (PresentedAs | undefined)[]): PresentedAs | undefined {
  const known = types.filter((t) => t !== undefined);
  if (known.length === 0) return undefined;
  return known.every((t) => t === known[0]) && (known[0] === JSONB || known.length === types.length) ? known[0] : undefined;
}

/** A derived table's columns by their names, when it has no star and no two columns share a name. */
function derivedColumns(subquery: unknown, outer: Scope): Columns | undefined {
  const select = (subquery as PgNode | undefined)?.['SelectStmt'];
  if (!select || select['op'] !== 'SETOP_NONE' || select['valuesLists']) return undefined;
  const scope = withCtes(select, outer);
  const items: FromItem[] = [];
  fromItems((select['fromClause'] ?? []) as unknown[], items, scope);
  const columns: Record<string, PresentedAs> = ownRecord();
  for (const target of (select['targetList'] ?? []) as Fields[]) {
    const rt = target['ResTarget'];
    if (!rt) return undefined;
    if (isStar(rt.val)) {
      // every column the star brings, when each FROM item it covers has known columns
      const qualifier = names(rt.val['ColumnRef']['fields']).slice(0, -1);
      const covered = qualifier.length === 1 ? items.filter((i) => i.alias === qualifier[0]) : qualifier.length === 0 ? items : [];
      if (covered.length === 0 || covered.some((i) => !i.columns)) return undefined;
      for (const item of covered) {
        for (const [name, type] of Object.entries(item.columns!)) {
          if (Object.hasOwn(columns, name)) return undefined;
          columns[name] = type;
        }
      }
      continue;
    }
    // an output name, or a column reference's own name; other unnamed columns cannot be referenced by a typed name
    const ref = names(rt.val?.['ColumnRef']?.['fields']);
    const name = (rt.name as string | undefined) ?? ref[ref.length - 1];
    if (name === undefined) continue;
    if (Object.hasOwn(columns, name)) return undefined;
    columns[name] = expressionType(items, rt.val, scope) ?? 0;
  }
  return columns;
}

/** The column's PostgreSQL type when it is one DuckDB lacks (the others DuckDB's own types present). */
function presentable(columns: Columns | undefined, column: string): PresentedAs | undefined {
  // column names are the user's: only a column the item has, never an Object.prototype member
  const type = columns && Object.hasOwn(columns, column) ? columns[column] : undefined;
  return type !== undefined && PRESENTED_TYPES[presentedOidOf(type)] ? type : undefined;
}

function columnType(items: FromItem[], parts: string[]): PresentedAs | undefined {
  if (parts.length === 2) {
    const item = items.filter((i) => i.alias === parts[0]);
    return item.length === 1 ? presentable(item[0]!.columns, parts[1]!) : undefined;
  }
  if (parts.length === 1) {
    // every FROM item must be known, and exactly one must have the column
    if (items.some((i) => !i.columns)) return undefined;
    const having = items.filter((i) => Object.hasOwn(i.columns!, parts[0]!));
    return having.length === 1 ? presentable(having[0]!.columns, parts[0]!) : undefined;
  }
  return undefined;
}

function expressionType(items: FromItem[], val: unknown, scope: Scope): PresentedAs | undefined {
  const kind = nodeKind(val);
  if (!kind) return undefined;
  const f = (val as PgNode)[kind]!;
  switch (kind) {
    case 'ColumnRef':
      return columnType(items, names(f['fields']));
    case 'SQLValueFunction':
      return NAME_VALUE_FUNCTIONS.has(String(f['op'])) ? NAME : undefined;
    case 'FuncCall': {
      const fn = names(f['funcname']);
      const schema = fn.length === 2 ? fn[0] : undefined;
      if (fn.length > 2 || (schema !== undefined && schema !== 'pg_catalog') || f['agg_star'] || f['over']) return undefined;
      const name = fn[fn.length - 1]!.toLowerCase();
      const args = (f['args'] ?? []) as unknown[];
      if (name === 'array_agg' && args.length === 1) {
        const element = expressionType(items, args[0], scope);
        return typeof element === 'number' ? ARRAY_OF[element] : undefined;
      }
      if (name === 'unnest' && args.length === 1) return unnestedType(expressionType(items, args[0], scope));
      return FUNCTION_TYPES[name];
    }
    case 'SubLink': {
      // a scalar subquery answers its one column's type (DBeaver: `(select array_agg(i.inhparent) from pg_inherits i …)`)
      const sub = (f['subselect'] as PgNode | undefined)?.['SelectStmt'];
      const targets = (sub?.['targetList'] ?? []) as Fields[];
      if (f['subLinkType'] !== 'EXPR_SUBLINK' || !sub || sub['op'] !== 'SETOP_NONE' || targets.length !== 1) return undefined;
      const innerScope = withCtes(sub, scope);
      const inner: FromItem[] = [];
      fromItems((sub['fromClause'] ?? []) as unknown[], inner, innerScope);
      return expressionType(inner, targets[0]!['ResTarget']?.val, innerScope);
    }
    case 'TypeCast': {
      const target = names((f['typeName'] as Fields | undefined)?.['names']);
      const t = target[target.length - 1];
      if ((f['typeName'] as Fields)['arrayBounds']) return undefined;
      const sized = sizedType(t, f);
      if (sized !== null) return sized;
      if (t === 'jsonb') return JSONB;
      return t === 'regtype' ? REGTYPE : t === 'regclass' ? REGCLASS : t === 'name' ? NAME : t === 'oid' ? OID : undefined;
    }
    case 'A_Expr': {
      // jsonb -> key, jsonb #> path, jsonb - key, jsonb #- path, jsonb || jsonb (or an untyped literal)
      if (String(f['kind']) === 'AEXPR_NULLIF') return jsonbOnly(expressionType(items, f['lexpr'], scope));
      if (String(f['kind']) !== 'AEXPR_OP' || !f['lexpr']) return undefined;
      const op = names(f['name']).pop() ?? '';
      const left = expressionType(items, f['lexpr'], scope);
      if (JSONB_OPERATORS.has(op)) return left === JSONB ? JSONB : undefined;
      if (op !== '||') return undefined;
      const right = expressionType(items, f['rexpr'], scope);
      const literal = (n: unknown) => (n as Fields | undefined)?.['A_Const']?.['sval'] !== undefined;
      return (left === JSONB && (right === JSONB || literal(f['rexpr']))) || (right === JSONB && literal(f['lexpr'])) ? JSONB : undefined;
    }
    case 'CaseExpr': {
      const results = ((f['args'] ?? []) as Fields[]).map((w) => expressionType(items, w['CaseWhen']?.['result'], scope));
      results.push(f['defresult'] ? expressionType(items, f['defresult'], scope) : undefined);
      return jsonbOnly(mergedType(results));
    }
    case 'CoalesceExpr':
    case 'MinMaxExpr':
      return jsonbOnly(mergedType(((f['args'] ?? []) as unknown[]).map((a) => expressionType(items, a, scope))));
    case 'RowExpr':
      // printed as PostgreSQL's record text by the dialect (sql/dialect/dialect.ts printedForms) when it can be
      return RECORD;
    default:
      return undefined;
  }
}

/** The one length a cast's type name carries (`varchar(5)`), undefined without one, null for anything else. */
function castLength(typeName: Fields): number | undefined | null {
  const mods = (typeName['typmods'] ?? []) as Fields[];
  if (mods.length === 0) return undefined;
  const n = mods.length === 1 ? mods[0]!['A_Const']?.ival?.ival : undefined;
  return typeof n === 'number' && n > 0 ? n : null;
}

/**
 * varchar(n), char(n) / bpchar, bit(n) and varbit(n) casts with their typmods
 * (the dialect cuts and pads the values as PostgreSQL does, sql/dialect/dialect.ts
 * transformTypeCast); null when `t` is none of them. bit(n) of an expression
 * without a probe (a parameter, a subquery) keeps DuckDB's BIT, bit without a
 * length, as its bits are not cut to n; varbit(n) of an expression is varbit.
 */
function sizedType(t: string | undefined, cast: Fields): PresentedAs | undefined | null {
  if (t !== 'varchar' && t !== 'bpchar' && t !== 'bit' && t !== 'varbit') return null;
  const n = castLength(cast['typeName'] as Fields);
  if (n === null) return undefined;
  if (t === 'varchar') return n === undefined ? VARCHAR : { oid: VARCHAR, typmod: n + 4 };
  if (t === 'bpchar') return n === undefined ? BPCHAR : { oid: BPCHAR, typmod: n + 4 };
  const constant = nodeKind(cast['arg']) === 'A_Const';
  if (t === 'varbit') return n === undefined || !constant ? VARBIT : { oid: VARBIT, typmod: n };
  // an expression's bits are cut by a macro where it has a probe (sql/dialect/dialect.ts lg_bit_n)
  const cut = constant || sizedBitProbe(cast['arg'], (cast['typeName'] as Fields)['typmods'] ?? []) !== undefined;
  return n !== undefined && cut ? { oid: BIT, typmod: n } : undefined;
}

/** Only jsonb is carried through CASE, COALESCE and NULLIF (a name under CASE is text to DuckDB's printing too). */
const jsonbOnly = (t: PresentedAs | undefined): number | undefined => (t === JSONB ? JSONB : undefined);

const isStar = (val: unknown): boolean => {
  const ref = (val as Fields | undefined)?.['ColumnRef'];
  const fields = (ref?.['fields'] ?? []) as unknown[];
  return ref !== undefined && nodeKind(fields[fields.length - 1]) === 'A_Star';
};

/**
 * Result types of a SELECT (after resolveRelations, before the dialect pass),
 * or undefined where nothing is known (set operations, VALUES, two stars).
 */
export function resultTypes(tree: PgNode, tables: TableScans = NO_TABLES): ResultTypes | undefined {
  const select = tree['SelectStmt'];
  if (select && select['op'] !== 'SETOP_NONE') return setOperationTypes(select, tables);
  if (!select || select['op'] !== 'SETOP_NONE' || select['valuesLists']) return undefined;
  const scope = withCtes(select, { ctes: new Map(), expanding: new Set(), tables });
  const items: FromItem[] = [];
  fromItems((select['fromClause'] ?? []) as unknown[], items, scope);
  const result: ResultTypes = { before: [], after: [] };
  for (const target of (select['targetList'] ?? []) as Fields[]) {
    const val = target['ResTarget']?.val;
    if (isStar(val)) {
      if (result.star) return undefined;
      const parts = names(val['ColumnRef']['fields']).slice(0, -1);
      const item = parts.length === 1 ? items.filter((i) => i.alias === parts[0]) : items;
      result.star = { columns: item.length === 1 ? item[0]!.columns : undefined };
      continue;
    }
    (result.star ? result.after : result.before).push(expressionType(items, val, scope));
  }
  const all = [...result.before, ...result.after];
  return all.some((t) => t !== undefined) || result.star?.columns ? result : undefined;
}

/** UNION / INTERSECT / EXCEPT: a column is jsonb where an arm's is and the others' say nothing else (no stars). */
function setOperationTypes(select: Fields, tables: TableScans): ResultTypes | undefined {
  const arms = [select['larg'], select['rarg']].map((a) => (a ? resultTypes({ SelectStmt: a } as PgNode, tables) : undefined));
  const [l, r] = arms;
  const width = (t: ResultTypes | undefined) => (t && !t.star ? t.before.length : undefined);
  const n = width(l) ?? width(r);
  if (n === undefined || (l && l.star) || (r && r.star) || (l && width(l) !== n) || (r && width(r) !== n)) return undefined;
  const before = Array.from({ length: n }, (_, i) => {
    const a = l?.before[i];
    const b = r?.before[i];
    return a === JSONB || b === JSONB ? (a === b || a === undefined || b === undefined ? JSONB : undefined) : undefined;
  });
  return before.some((t) => t !== undefined) ? { before, after: [] } : undefined;
}

/** The PostgreSQL type (or undefined: DuckDB's) of each result column, given the names DuckDB reports. */
export function resultTypeOids(types: ResultTypes | undefined, columnNames: readonly string[]): (PresentedAs | undefined)[] {
  const n = columnNames.length;
  if (!types) return new Array<undefined>(n).fill(undefined);
  const { before, after, star } = types;
  const middle = n - before.length - after.length;
  if (star ? middle < 0 : middle !== 0) return new Array<undefined>(n).fill(undefined);
  const expanded = columnNames.slice(before.length, before.length + middle).map((c) => presentable(star?.columns, c));
  return [...before, ...expanded, ...after];
}

const byValue = (arg: PgNode): PgNode => ({
  FuncCall: { funcname: [EMULATION_DB, PGC_SCHEMA, 'lg_jsonb_eq'].map((s) => ({ String: { sval: s } })), args: [arg], funcformat: 'COERCE_EXPLICIT_CALL' },
});

/**
 * jsonb values compare by value in PostgreSQL (`1.0` = `1`), while inside DuckDB a
 * jsonb is its printed text. Where the query's own SELECT deduplicates jsonb
 * (an aggregate's DISTINCT argument, SELECT DISTINCT of a jsonb column), the
 * comparison is made on jsonb's equality form (sql/dialect/jsonMacros.ts
 * lg_jsonb_eq): the argument is wrapped, and SELECT DISTINCT becomes DISTINCT
 * ON the targets, the jsonb ones wrapped (the row kept prints as written).
 * GROUP BY of a jsonb is left comparing the text (README). Run before the dialect pass.
 */
export function jsonbByValue(tree: PgNode, tables: TableScans = NO_TABLES): void {
  // every SELECT of the statement, each in its own scope (a CTE of an outer one is not seen: left as it is)
  const selects: Fields[] = [];
  walk(tree, (v) => {
    if (v.kind === 'SelectStmt') selects.push(v.fields);
  });
  for (const s of selects) selectByValue(s, tables);
}

function selectByValue(select: Fields, tables: TableScans): void {
  if (select['op'] !== 'SETOP_NONE' || select['valuesLists']) return;
  const scope = withCtes(select, { ctes: new Map(), expanding: new Set(), tables });
  const items: FromItem[] = [];
  fromItems((select['fromClause'] ?? []) as unknown[], items, scope);
  const isJsonb = (n: unknown): boolean => expressionType(items, n, scope) === JSONB;
  const targets = ((select['targetList'] ?? []) as Fields[]).map((t) => t['ResTarget']?.val as PgNode | undefined);
  const visitAggregates = (root: unknown): void =>
    walk(root, ({ kind, fields }) => {
      // not into subqueries: their FROM is another scope
      if (kind === 'SubLink') return false;
      const args = fields['args'] as PgNode[] | undefined;
      if (kind === 'FuncCall' && fields['agg_distinct'] && args?.length === 1 && isJsonb(args[0])) fields['args'] = [byValue(args[0]!)];
    });
  visitAggregates(targets);
  visitAggregates(select['havingClause']);
  groupByValue(select, isJsonb);
  const distinct = select['distinctClause'] as unknown[] | undefined;
  const plain = distinct?.length === 1 && Object.keys(distinct[0] as object).length === 0;
  if (plain && targets.every((t) => t !== undefined && !isStar(t)) && targets.some((t) => isJsonb(t))) {
    select['distinctClause'] = targets.map((t) => (isJsonb(t) ? byValue(structuredClone(t!)) : structuredClone(t!)));
  }
}


const AGGREGATE_FREE_KINDS = new Set(['ColumnRef', 'TypeCast', 'A_Expr', 'FuncCall', 'A_Const']);

/**
 * GROUP BY of a jsonb expression groups by jsonb's equality form; each target or
 * ORDER BY item that is that very expression becomes any_value() of it (one of
 * the group's texts, as PostgreSQL prints one of them). Left as it is where the
 * expression is used any other way outside an aggregate (its text would no
 * longer be grouped), or with grouping sets.
 */
// the object aggregates read a jsonb value as an argument too (the leakproof analysis does not know them)
const isAggregateName = (name: string): boolean => AGGREGATE_FUNCTIONS.has(name) || name === 'json_object_agg' || name === 'jsonb_object_agg';

function groupByValue(select: Fields, isJsonb: (n: unknown) => boolean): void {
  const groups = (select['groupClause'] ?? []) as PgNode[];
  const keyed = groups.map((g) => (nodeKind(g) && AGGREGATE_FREE_KINDS.has(nodeKind(g)!) && isJsonb(g) ? shape(g) : undefined));
  if (!keyed.some((k) => k !== undefined)) return;
  const keys = new Set(keyed.filter((k): k is string => k !== undefined));
  const targets = ((select['targetList'] ?? []) as Fields[]).map((t) => t['ResTarget'] as Fields);
  const sorts = ((select['sortClause'] ?? []) as Fields[]).map((t) => t['SortBy'] as Fields);
  // every other use of a keyed expression must sit inside an aggregate call
  let misuse = false;
  const check = (n: unknown, inAggregate: boolean): void => {
    if (Array.isArray(n)) return n.forEach((x) => check(x, inAggregate));
    if (!n || typeof n !== 'object') return;
    if (!inAggregate && keys.has(shape(n))) {
      misuse = true;
      return;
    }
    const fc = (n as Fields)['FuncCall'] as Fields | undefined;
    // an aggregate or window call (its arguments may name the expression): a plain function's may not
    const aggregate = inAggregate || (fc !== undefined && (fc['agg_distinct'] || fc['agg_star'] || fc['over'] || fc['agg_filter'] || isAggregateName(names(fc['funcname']).pop() ?? '')));
    for (const v of Object.values(n as Fields)) check(v, aggregate);
  };
  const exact = (n: unknown): boolean => keys.has(shape(n));
  for (const t of targets) if (!exact(t['val'])) check(t['val'], false);
  for (const b of sorts) if (!exact(b['node'])) check(b['node'], false);
  check(select['havingClause'], false);
  if (misuse || groups.some((g) => nodeKind(g) === 'GroupingSet')) return;
  const anyValue = (n: PgNode): PgNode => ({ FuncCall: { funcname: [{ String: { sval: 'any_value' } }], args: [n], funcformat: 'COERCE_EXPLICIT_CALL' } });
  for (const t of targets) {
    if (!exact(t['val'])) continue;
    // the column keeps the name PostgreSQL gives the expression (a column's own; nameTargets named the others)
    t['name'] ??= names((t['val'] as Fields)['ColumnRef']?.['fields']).pop() ?? '?column?';
    t['val'] = anyValue(t['val'] as PgNode);
  }
  for (const b of sorts) if (exact(b['node'])) b['node'] = anyValue(b['node'] as PgNode);
  select['groupClause'] = groups.map((g, i) => (keyed[i] !== undefined ? byValue(g) : g));
}
