/**
 * GROUP BY / ORDER BY names that PostgreSQL reads as output columns but
 * DuckDB would read as a whole-row reference to a FROM item of that name:
 * dbt's `select referenced_schema.name as referenced_schema … group by
 * referenced_schema`. PostgreSQL takes the output column (a FROM alias is not
 * a column), so such an item becomes the output column's position.
 */
import { intConst, names, nodeKind, replaceNode, walk, type Fields, type PgNode } from './walk.js';

function fromAliases(items: unknown[], out: Set<string>): void {
  for (const item of items) {
    const kind = nodeKind(item);
    if (!kind) continue;
    const f = (item as PgNode)[kind]!;
    if (kind === 'JoinExpr') {
      fromAliases([f['larg'], f['rarg']], out);
      if (f['alias']?.aliasname) out.add(String(f['alias'].aliasname));
      continue;
    }
    const alias = f['alias']?.aliasname ?? (kind === 'RangeVar' ? f['relname'] : undefined);
    if (alias) out.add(String(alias));
  }
}

export function bindOutputColumnRefs(root: unknown): void {
  walk(root, ({ kind, fields }) => {
    if (kind !== 'SelectStmt') return;
    const targets = (fields['targetList'] ?? []) as Fields[];
    const outputNames = targets.map((t) => t['ResTarget']?.name as string | undefined);
    const aliases = new Set<string>();
    fromAliases((fields['fromClause'] ?? []) as unknown[], aliases);
    if (aliases.size === 0) return;
    const positionOf = (n: unknown): number | undefined => {
      const ref = (n as Fields | undefined)?.['ColumnRef'];
      const parts = ref ? names(ref['fields']) : [];
      if (parts.length !== 1 || !aliases.has(parts[0]!)) return undefined;
      const i = outputNames.indexOf(parts[0]);
      // two output columns of that name would be ambiguous in PostgreSQL too: leave it to the engine's error
      return i >= 0 && outputNames.lastIndexOf(parts[0]) === i ? i + 1 : undefined;
    };
    for (const g of (fields['groupClause'] ?? []) as PgNode[]) {
      const p = positionOf(g);
      if (p) replaceNode(g, intConst(p));
    }
    for (const s of (fields['sortClause'] ?? []) as Fields[]) {
      const p = positionOf(s['SortBy']?.node);
      if (p) s['SortBy'].node = intConst(p);
    }
  });
}
