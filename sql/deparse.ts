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
import { SqlError } from './errors.js';
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
  walk(root, ({ kind, fields }) => {
    switch (kind) {
      case 'ResTarget': {
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

/** Quote, in the copy to be printed, the names the deparser writes without quoting. */
function quoteRawNames(root: PgNode): void {
  walk(root, ({ kind, fields, path }) => {
    const parent = path[path.length - 1];
    if (kind === 'CommonTableExpr' && typeof fields['ctename'] === 'string') fields['ctename'] = quoteIdent(fields['ctename']);
    if (kind === 'WindowDef') {
      for (const k of ['name', 'refname']) if (typeof fields[k] === 'string') fields[k] = quoteIdent(fields[k]);
    }
    if (kind === 'Alias' && parent?.kind === 'JoinExpr' && typeof fields['aliasname'] === 'string') {
      fields['aliasname'] = quoteIdent(fields['aliasname']);
    }
  });
}

const LOCATION_KEYS = new Set(['location', 'stmt_location', 'stmt_len', 'list_start', 'list_end', 'rexpr_list_start', 'rexpr_list_end']);

/** The tree without what printing cannot preserve: source locations, and pg_catalog on built-in type names. */
function normalized(value: unknown, key?: string): unknown {
  if (Array.isArray(value)) return value.map((v) => normalized(v));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Fields)) {
    if (LOCATION_KEYS.has(k)) continue;
    if (k === 'names' && key === 'typeName' && Array.isArray(v)) {
      const parts = (v as Fields[]).map((n) => n?.['String']?.sval);
      out[k] = parts[0] === 'pg_catalog' ? parts.slice(1) : parts;
      continue;
    }
    out[k] = normalized(v, k);
  }
  return out;
}

function firstDifference(a: unknown, b: unknown, path = ''): string | undefined {
  if (typeof a !== typeof b || Array.isArray(a) !== Array.isArray(b)) return path || '(root)';
  if (typeof a !== 'object' || a === null || b === null) return a === b ? undefined : path || '(root)';
  const keys = new Set([...Object.keys(a as Fields), ...Object.keys(b as Fields)]);
  for (const k of keys) {
    const d = firstDifference((a as Fields)[k], (b as Fields)[k], `${path}/${k}`);
    if (d) return d;
  }
  return undefined;
}

/** The final step of planning: DuckDB SQL text for a tree that passed every check, verified by re-parsing. */
export function toDuckDbSql(root: PgNode): string {
  protectDuckDbKeywords(root);
  const printed = structuredClone(root);
  quoteRawNames(printed);
  const sql = deparse(printed);
  let reparsed: { stmts?: { stmt?: unknown }[] };
  try {
    reparsed = parseSync(sql) as typeof reparsed;
  } catch {
    reparsed = {};
  }
  const stmts = reparsed.stmts ?? [];
  const diff = stmts.length === 1 ? firstDifference(normalized(stmts[0]!.stmt), normalized(root)) : '(statement count)';
  if (diff) {
    // Never hand DuckDB text whose meaning differs from what was authorized.
    throw new SqlError('0A000', `this statement cannot be translated safely (at ${diff})`);
  }
  return sql;
}
