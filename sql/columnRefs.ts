/**
 * A column reference no relation in scope has, answered as PostgreSQL's
 * errorMissingColumn answers it: 42703 with the reference's position and,
 * where a column of the relations in scope is near enough, its
 * "Perhaps you meant" hint (parse_relation.c's fuzzy match: Levenshtein
 * distance at most 3 and at most half the name, a qualifier's own distance
 * added, two best matches named, more than two none).
 *
 * Checked only where every FROM item of the SELECT, and of every SELECT it is
 * nested in, is a user table (its columns all known: those the user may load,
 * as pg_attribute shows them; a column the data gate denies still has its
 * name, read as NULL). Views, subqueries, functions, CTEs and catalog
 * relations leave the statement to the engine, as before.
 */
import { SqlError } from './errors.js';
import type { TableReference } from './resolve.js';
import { names, nodeKind, walk, type Fields, type PgNode } from './walk.js';

interface ScopeEntry {
  alias: string;
  columns: readonly string[];
}

/** parse_relation.c MAX_FUZZY_DISTANCE */
const MAX_FUZZY_DISTANCE = 3;

function levenshtein(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
}

/** The hint PostgreSQL gives for `alias.column` / `column` missing from `scopes` (innermost first), if any. */
export function missingColumnHint(scopes: readonly (readonly ScopeEntry[])[], column: string, alias?: string): string | undefined {
  let distance = MAX_FUZZY_DISTANCE + 1;
  let first: string | undefined;
  let second: string | undefined;
  for (const scope of scopes) {
    for (const entry of scope) {
      const penalty = alias === undefined ? 0 : levenshtein(alias, entry.alias);
      if (penalty > distance) continue;
      for (const actual of entry.columns) {
        const d = levenshtein(actual, column);
        if (d > Math.floor(column.length / 2)) continue;
        const total = d + penalty;
        const named = `${entry.alias}.${actual}`;
        if (total < distance) {
          distance = total;
          first = named;
          second = undefined;
        } else if (total === distance) {
          // a third at the same distance: that distance is too low a bar, and only a nearer match is named
          if (second !== undefined) first = second = undefined;
          else if (first !== undefined) second = named;
        }
      }
    }
  }
  if (first === undefined) return undefined;
  return second === undefined
    ? `Perhaps you meant to reference the column "${first}".`
    : `Perhaps you meant to reference the column "${first}" or the column "${second}".`;
}

/** The FROM list's relations when each is a user table (a join's sides included), else undefined. */
function fromScope(from: unknown, byNode: Map<object, TableReference>): ScopeEntry[] | undefined {
  const entries: ScopeEntry[] = [];
  const visit = (item: unknown): boolean => {
    const node = item as Fields;
    const join = node['JoinExpr'] as Fields | undefined;
    if (join) return !join['alias'] && visit(join['larg']) && visit(join['rarg']);
    const ref = byNode.get(node);
    if (!ref) return false;
    const scan = (node['RangeVar'] ?? node['RangeFunction']) as Fields | undefined;
    const renamed = names((scan?.['alias'] as Fields | undefined)?.['colnames']);
    const columns = ref.table.columns.map((c, i) => renamed[i] ?? c.name);
    entries.push({ alias: ref.alias, columns });
    return true;
  };
  for (const item of (from as unknown[] | undefined) ?? []) if (!visit(item)) return undefined;
  return entries;
}

/**
 * Throws PostgreSQL's 42703 for the first column reference no user table in its scope has (see above).
 * `tables`: resolveRelations' answer for `root` (each node now the table's scan, in place).
 */
export function checkColumnReferences(root: PgNode, tables: readonly TableReference[]): void {
  if (tables.length === 0) return;
  const byNode = new Map<object, TableReference>(tables.map((t) => [t.node, t]));
  const visitSelect = (select: Fields, outer: ScopeEntry[][] | undefined): void => {
    if (select['op'] && select['op'] !== 'SETOP_NONE') {
      for (const arm of [select['larg'], select['rarg']]) if (arm) visitSelect(arm as Fields, outer);
      return;
    }
    // a CTE is a scope of its own, outside this SELECT's (left to the engine)
    walk(select['withClause'], ({ kind, fields }) => {
      if (kind !== 'SelectStmt') return;
      visitSelect(fields, undefined);
      return false;
    });
    // no FROM: nothing in scope of its own (`SELECT x` is 42703 there too)
    const own = outer ? (select['fromClause'] ? fromScope(select['fromClause'], byNode) : []) : undefined;
    const scopes = own && outer ? [own, ...outer] : undefined;
    for (const key of ['targetList', 'whereClause', 'havingClause', 'fromClause']) {
      walk(select[key], ({ kind, fields }) => {
        if (kind === 'SelectStmt') {
          // a subquery sees this SELECT's relations; one in FROM is left to the engine (LATERAL would see them)
          visitSelect(fields, key === 'fromClause' ? undefined : scopes);
          return false;
        }
        if (kind !== 'ColumnRef' || !scopes) return;
        checkReference(fields, scopes);
      });
    }
  };
  const kind = nodeKind(root);
  if (kind === 'SelectStmt') visitSelect(root['SelectStmt']!, []);
  else {
    walk(root, ({ kind: k, fields }) => {
      if (k !== 'SelectStmt') return;
      visitSelect(fields, []);
      return false;
    });
  }
}

/** PostgreSQL's system columns: every table of its has them, so no hint is PostgreSQL's; the engine answers for them. */
const SYSTEM_COLUMNS: ReadonlySet<string> = new Set(['ctid', 'xmin', 'xmax', 'cmin', 'cmax', 'tableoid']);

function checkReference(ref: Fields, scopes: ScopeEntry[][]): void {
  const parts = ref['fields'] as PgNode[];
  if (parts.some((p) => nodeKind(p) !== 'String')) return;
  const written = names(parts);
  if (SYSTEM_COLUMNS.has(written[written.length - 1]!)) return;
  const position = typeof ref['location'] === 'number' ? ref['location'] + 1 : undefined;
  if (written.length === 1) {
    const column = written[0]!;
    for (const scope of scopes) for (const e of scope) if (e.alias === column || e.columns.includes(column)) return;
    throw new SqlError('42703', `column "${column}" does not exist`, position, { hint: missingColumnHint(scopes, column) });
  }
  if (written.length === 2) {
    const [alias, column] = written as [string, string];
    for (const scope of scopes) {
      const entry = scope.find((e) => e.alias === alias);
      if (!entry) continue;
      if (entry.columns.includes(column)) return;
      throw new SqlError('42703', `column ${alias}.${column} does not exist`, position, { hint: missingColumnHint(scopes, column, alias) });
    }
  }
}
