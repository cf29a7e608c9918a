/**
 * Turning a (rewritten) parse tree back into SQL text for DuckDB, and proving
 * the text means that tree. pgsql-deparser prints some names raw (CTE and
 * window names, join aliases, EXPLAIN options), so a name such as
 * `x AS (SELECT …), y` would become SQL the authorizer never saw. Such names
 * are quoted here, and the printed text is parsed again and compared with
 * the tree: any difference refuses the statement.
 */
import { parseSync } from 'libpg-query';
import { deparseSync } from 'pgsql-deparser';
import { MACRO_ARG_COPIES, MACRO_ARG_COPIES_OF } from './emulation.js';
import { SqlError } from './errors.js';
import { checkConstantNesting, expandedSize } from './limits.js';
import { nodeKind, walk, type Fields, type PgNode } from './walk.js';

export function deparse(node: PgNode): string {
  // pgsql-deparser's types are the @pgsql/types Node union; our tree is the same JSON.
  return deparseSync(node as Parameters<typeof deparseSync>[0], { pretty: false });
}

/**
 * Words DuckDB reserves (or reserves as type/function names) that PostgreSQL
 * does not, from duckdb_keywords() of DuckDB 1.5 against PostgreSQL 18's
 * keyword list. The deparser prints them bare, which DuckDB would refuse or
 * read as syntax (`a anti JOIN b`).
 */
const DUCKDB_ONLY_KEYWORDS: ReadonlySet<string> = new Set([
  'anti', 'asof', 'at', 'by', 'columns', 'describe', 'generated', 'glob', 'grouping_id', 'lambda', 'map', 'pivot',
  'pivot_longer', 'pivot_wider', 'positional', 'qualify', 'semi', 'show', 'struct', 'summarize', 'try_cast',
  'unpack', 'unpivot',
]);

/**
 * Make the deparser quote identifiers that are keywords only to DuckDB. It
 * quotes anything not lower-case, and DuckDB binds quoted identifiers
 * case-insensitively, so such a name is written upper-case; an unaliased
 * output column keeps its lower-case name through an explicit alias.
 */
function protectDuckDbKeywords(root: PgNode): void {
  const guard = (n: unknown): void => {
    const s = (n as Fields | undefined)?.['String'];
    if (s && DUCKDB_ONLY_KEYWORDS.has(s['sval'])) s['sval'] = String(s['sval']).toUpperCase();
  };
  const guardField = (f: Fields, key: string): void => {
    if (typeof f[key] === 'string' && DUCKDB_ONLY_KEYWORDS.has(f[key])) f[key] = String(f[key]).toUpperCase();
  };
  walk(root, ({ kind, fields, path }) => {
    switch (kind) {
      case 'ResTarget': {
        // a column a write assigns (INSERT's list, UPDATE's and MERGE's SET): a name, bound case-insensitively
        const holder = path[path.length - 1];
        if ((holder?.kind === 'InsertStmt' && holder.key === 'cols') || (holder?.kind === 'UpdateStmt' && holder.key === 'targetList') || (holder?.kind === 'MergeWhenClause' && holder.key === 'targetList')) {
          guardField(fields, 'name');
          return;
        }
        const ref = fields['val']?.['ColumnRef'];
        const last = ref?.fields?.[ref.fields.length - 1];
        const name = nodeKind(last) === 'String' ? String(last['String']['sval']) : undefined;
        if (fields['name'] === undefined && name !== undefined && DUCKDB_ONLY_KEYWORDS.has(name)) fields['name'] = name;
        return;
      }
      case 'ColumnRef':
        (fields['fields'] ?? []).forEach(guard);
        return;
      case 'A_Indirection':
        (fields['indirection'] ?? []).forEach(guard);
        return;
      case 'RangeVar':
        for (const k of ['catalogname', 'schemaname', 'relname']) guardField(fields, k);
        return;
      case 'Alias':
        guardField(fields, 'aliasname');
        (fields['colnames'] ?? []).forEach(guard);
        return;
      case 'CommonTableExpr':
        guardField(fields, 'ctename');
        (fields['aliascolnames'] ?? []).forEach(guard);
        return;
      case 'WindowDef':
        guardField(fields, 'name');
        guardField(fields, 'refname');
        return;
      default:
        return;
    }
  });
}

/** A name the deparser may print as is: lower-case letters, digits, underscores. */
const PLAIN = /^[a-z_][a-z0-9_]*$/;
const quoteIdent = (name: string): string => (PLAIN.test(name) ? name : `"${name.replace(/"/g, '""')}"`);

/** One name changed for printing, to be put back afterwards. */
type Undo = [holder: Fields, key: string, original: unknown];

/** Quote, for printing only, the names the deparser writes without quoting; returns how to undo it. */
function quoteRawNames(root: PgNode): Undo[] {
  const undo: Undo[] = [];
  const quote = (holder: Fields, key: string): void => {
    const name = holder[key];
    if (typeof name !== 'string') return;
    const quoted = quoteIdent(name);
    if (quoted === name) return;
    undo.push([holder, key, name]);
    holder[key] = quoted;
  };
  walk(root, ({ kind, fields, path }) => {
    const parent = path[path.length - 1];
    if (kind === 'CommonTableExpr') quote(fields, 'ctename');
    if (kind === 'WindowDef') {
      quote(fields, 'name');
      quote(fields, 'refname');
    }
    if (kind === 'Alias' && parent?.kind === 'JoinExpr') quote(fields, 'aliasname');
  });
  return undo;
}

const LOCATION_KEYS = new Set(['location', 'stmt_location', 'stmt_len', 'list_start', 'list_end', 'rexpr_list_start', 'rexpr_list_end']);

/** A type's name as printing preserves it: pg_catalog on built-in type names is dropped. */
function typeNames(v: unknown): unknown[] | undefined {
  if (!Array.isArray(v)) return undefined;
  return v.length > 0 && (v[0] as Fields | undefined)?.['String']?.sval === 'pg_catalog' ? v.slice(1) : v;
}

/**
 * The first path where the re-parsed tree differs from the authorized one,
 * ignoring what printing cannot preserve (source locations, pg_catalog on
 * built-in type names). It runs on every statement, so it allocates nothing
 * unless it finds a difference; recursion is bounded by sql/limits.ts's depth.
 */
/** Marks the `names` list of an inline typeName, the one list compared without pg_catalog. */
const TYPE_NAMES = '\u0000typeNames';

function firstDifference(a: unknown, b: unknown, key?: string): string | undefined {
  if (typeof a !== typeof b || Array.isArray(a) !== Array.isArray(b)) return '';
  if (typeof a !== 'object' || a === null || b === null) return a === b ? undefined : '';
  if (Array.isArray(a)) {
    const aa = key === TYPE_NAMES ? typeNames(a)! : a;
    const bb = key === TYPE_NAMES ? typeNames(b)! : (b as unknown[]);
    if (aa.length !== bb.length) return '/length';
    for (let i = 0; i < aa.length; i++) {
      const d = firstDifference(aa[i], bb[i]);
      if (d !== undefined) return `/${i}${d}`;
    }
    return undefined;
  }
  const ao = a as Fields;
  const bo = b as Fields;
  let counted = 0;
  for (const k in ao) {
    if (LOCATION_KEYS.has(k) || ao[k] === undefined) continue;
    counted++;
    if (bo[k] === undefined) return `/${k}`;
    // names inside a TypeName: compared without a leading pg_catalog
    const d = firstDifference(ao[k], bo[k], k === 'names' && key === 'typeName' ? TYPE_NAMES : k);
    if (d !== undefined) return `/${k}${d}`;
  }
  for (const k in bo) if (!LOCATION_KEYS.has(k) && bo[k] !== undefined) counted--;
  return counted === 0 ? undefined : '/(keys)';
}

/** Nodes DuckDB's binder may see once macros are expanded (sql/limits.ts). */
export const MAX_EXPANDED_NODES = 250_000;
/** Deepest constant subexpression DuckDB is handed to fold (sql/limits.ts checkConstantNesting). */
export const MAX_CONSTANT_NESTING = 32;

/** The final step of planning: DuckDB SQL text for a tree that passed every check, verified by re-parsing. */
export function toDuckDbSql(root: PgNode): string {
  if (expandedSize(root, MACRO_ARG_COPIES, MAX_EXPANDED_NODES, MACRO_ARG_COPIES_OF) > MAX_EXPANDED_NODES) {
    throw new SqlError('54001', 'statement is too complex: its expansion exceeds the engine\'s limit', undefined, {
      hint: 'Nest fewer function calls and divisions inside one another.',
    });
  }
  checkConstantNesting(root, MAX_CONSTANT_NESTING);
  protectDuckDbKeywords(root);
  const undo = quoteRawNames(root);
  let sql: string;
  try {
    sql = deparse(root);
  } finally {
    for (let i = undo.length - 1; i >= 0; i--) {
      const [holder, key, original] = undo[i]!;
      holder[key] = original;
    }
  }
  let reparsed: { stmts?: { stmt?: unknown }[] };
  try {
    reparsed = parseSync(sql) as typeof reparsed;
  } catch {
    reparsed = {};
  }
  const stmts = reparsed.stmts ?? [];
  const diff = stmts.length === 1 ? firstDifference(stmts[0]!.stmt, root) : '(statement count)';
  if (diff !== undefined) {
    // Never hand DuckDB text whose meaning differs from what was authorized; where it differs is for the log only.
    throw new SqlError('0A000', 'this statement cannot be translated safely', undefined, { internal: `re-parsed tree differs at ${diff || '(root)'}` });
  }
  return sql;
}
