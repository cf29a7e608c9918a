/**
 * Column references that name a column of an enclosing query (a correlated
 * subquery's `o.o_orderkey`, a LATERAL subquery's outer column).
 *
 * DuckDB cannot type such a reference while it chooses a typed macro's
 * overload inside the subquery: it reports every overload as matching
 * ("Macro … has multiple overloads that match the supplied arguments"). The
 * planner's typed wrappers (sql/numericTypes.ts typedDispatchSafe) therefore
 * leave them out, as they do subqueries and parameters.
 *
 * Marked per parse-tree object (copies are not marked: the planner checks a
 * user expression before it copies one into a probe). A qualified reference
 * is outer when its qualifier is no FROM item of its own SELECT; an
 * unqualified one when no FROM item of its SELECT has that column (only
 * decided where every FROM item's columns are known: tables, derived tables
 * and VALUES with their column names).
 */
import type { RelationCatalog } from './catalogView.js';
import { names, nodeKind, walk, type Fields, type PgNode } from './walk.js';

const OUTER = new WeakSet<object>();

/** Whether this ColumnRef's fields were found to name an enclosing query's column. */
export const isOuterReference = (columnRef: object): boolean => OUTER.has(columnRef);

interface Scope {
  aliases: Set<string>;
  /** every column a FROM item provides; undefined when some item's columns are unknown */
  columns: Set<string> | undefined;
}

/** Marks the outer column references of every nested SELECT under root. */
export function markOuterReferences(root: unknown, catalog: RelationCatalog): void {
  walk(root, ({ kind, fields, path }) => {
    if (kind !== 'SelectStmt' || !path.some((p) => p.kind === 'SelectStmt')) return;
    if (fields['op'] && fields['op'] !== 'SETOP_NONE') return;
    const scope = scopeOf((fields['fromClause'] ?? []) as unknown[], catalog);
    for (const key of ['targetList', 'whereClause', 'groupClause', 'havingClause', 'sortClause', 'windowClause', 'distinctClause', 'fromClause']) {
      walk(fields[key], (v) => {
        if (v.kind === 'SelectStmt') return false;
        if (v.kind === 'ColumnRef' && outer(v.fields, scope, fields)) OUTER.add(v.fields);
        return undefined;
      });
    }
  });
}

function outer(ref: Fields, scope: Scope, select: Fields): boolean {
  const parts = ((ref['fields'] ?? []) as unknown[]).map((f) => (f as Fields)['String']?.['sval'] as string | undefined);
  if (parts.some((p) => p === undefined)) return false; // a star
  if (parts.length >= 2) return !scope.aliases.has(parts[parts.length - 2]!);
  const name = parts[0]!;
  if (!scope.columns || scope.columns.has(name)) return false;
  // an output column's name (ORDER BY / GROUP BY total)
  return !((select['targetList'] ?? []) as Fields[]).some((t) => t['ResTarget']?.['name'] === name);
}

function scopeOf(items: unknown[], catalog: RelationCatalog): Scope {
  const scope: Scope = { aliases: new Set(), columns: new Set() };
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
      case 'RangeVar': {
        const table = f['schemaname'] ? catalog.getTable(String(f['schemaname']), String(f['relname'])) : undefined;
        add(aliasName ?? String(f['relname']), colnames ?? table?.columns.map((c) => c.name));
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
