/**
 * Output column names as PostgreSQL chooses them (FigureColname in
 * parse_target.c). DuckDB names an unaliased expression by its text
 * (`lakegate_pg.pgc.format_type(…)`), which clients would see after our
 * rewrites; so every unaliased target gets PostgreSQL's name as an explicit
 * alias before anything is rewritten.
 */
import { names, nodeKind, walk, type Fields } from './walk.js';

const SVF_NAMES: Record<string, string> = {
  SVFOP_CURRENT_DATE: 'current_date',
  SVFOP_CURRENT_TIME: 'current_time',
  SVFOP_CURRENT_TIME_N: 'current_time',
  SVFOP_CURRENT_TIMESTAMP: 'current_timestamp',
  SVFOP_CURRENT_TIMESTAMP_N: 'current_timestamp',
  SVFOP_LOCALTIME: 'localtime',
  SVFOP_LOCALTIME_N: 'localtime',
  SVFOP_LOCALTIMESTAMP: 'localtimestamp',
  SVFOP_LOCALTIMESTAMP_N: 'localtimestamp',
  SVFOP_CURRENT_ROLE: 'current_role',
  SVFOP_CURRENT_USER: 'current_user',
  SVFOP_USER: 'current_user',
  SVFOP_SESSION_USER: 'session_user',
  SVFOP_CURRENT_CATALOG: 'current_catalog',
  SVFOP_CURRENT_SCHEMA: 'current_schema',
};

/** PostgreSQL's name for an expression, or undefined where it would say ?column?. */
export function figureColname(node: unknown): string | undefined {
  const kind = nodeKind(node);
  if (!kind) return undefined;
  const f = (node as Record<string, Fields>)[kind]!;
  switch (kind) {
    case 'ColumnRef': {
      const fields = f['fields'] as unknown[];
      const last = fields[fields.length - 1];
      return nodeKind(last) === 'String' ? names([last])[0] : undefined;
    }
    case 'A_Indirection': {
      const ind = f['indirection'] as unknown[];
      for (let i = ind.length - 1; i >= 0; i--) {
        if (nodeKind(ind[i]) === 'String') return names([ind[i]])[0];
        if (nodeKind(ind[i]) === 'A_Star') return undefined;
      }
      return figureColname(f['arg']);
    }
    case 'FuncCall': {
      const n = names(f['funcname']);
      return n[n.length - 1];
    }
    case 'A_Expr':
      return f['kind'] === 'AEXPR_NULLIF' ? 'nullif' : undefined;
    case 'TypeCast': {
      const inner = figureColname(f['arg']);
      if (inner) return inner;
      const t = names(f['typeName']?.names);
      const tn = t[t.length - 1];
      return tn ? typeDisplayName(tn) : undefined;
    }
    case 'CollateClause':
      return figureColname(f['arg']);
    case 'SubLink':
      if (f['subLinkType'] === 'EXISTS_SUBLINK') return 'exists';
      if (f['subLinkType'] === 'ARRAY_SUBLINK') return 'array';
      if (f['subLinkType'] === 'EXPR_SUBLINK') {
        const sel = f['subselect']?.SelectStmt;
        const first = sel?.targetList?.[0]?.ResTarget;
        return first?.name ?? figureColname(first?.val);
      }
      return undefined;
    case 'CaseExpr':
      return 'case';
    case 'A_ArrayExpr':
      return 'array';
    case 'RowExpr':
      return 'row';
    case 'CoalesceExpr':
      return 'coalesce';
    case 'MinMaxExpr':
      return f['op'] === 'IS_GREATEST' ? 'greatest' : 'least';
    case 'SQLValueFunction':
      return SVF_NAMES[String(f['op'])];
    case 'GroupingFunc':
      return 'grouping';
    default:
      return undefined;
  }
}

/** A cast to a built-in type is named by the type as PostgreSQL spells it (`'1'::int4` → int4). */
function typeDisplayName(typname: string): string {
  return typname;
}

/** Give every unaliased, non-star target its PostgreSQL name (`?column?` where PG says so). */
export function nameTargets(root: unknown): void {
  walk(root, ({ kind, fields }) => {
    if (kind !== 'SelectStmt') return;
    for (const t of (fields['targetList'] ?? []) as Fields[]) {
      const rt = t['ResTarget'];
      if (!rt || rt['name'] !== undefined) continue;
      const val = rt['val'];
      const vk = nodeKind(val);
      // Plain column references keep DuckDB's naming, which already matches, and `t.*` must stay a star.
      if (vk === 'ColumnRef') continue;
      rt['name'] = figureColname(val) ?? '?column?';
    }
  });
}
