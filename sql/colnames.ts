/**
 * Output column names as PostgreSQL chooses them (FigureColname in
 * parse_target.c). DuckDB names an unaliased expression by its text
 * (`lakegate_pg.pgc.format_type(…)`), which clients would see after our
 * rewrites; so every unaliased target gets PostgreSQL's name as an explicit
 * alias before anything is rewritten.
 */
import { names, nodeKind, strNode, walk, type Fields } from './walk.js';
import { ownTable } from './ownNames.js';

const SVF_NAMES: Record<string, string> = ownTable({
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
});

/**
 * PostgreSQL's name for an expression and how strongly it holds (2: a real
 * name, 1: a fallback such as `case` or a type name, 0: none → ?column?).
 */
export function figureColname(node: unknown): [string | undefined, number] {
  const kind = nodeKind(node);
  if (!kind) return [undefined, 0];
  const f = (node as Record<string, Fields>)[kind]!;
  switch (kind) {
    case 'ColumnRef': {
      const fields = f['fields'] as unknown[];
      const last = fields[fields.length - 1];
      return nodeKind(last) === 'String' ? [names([last])[0], 2] : [undefined, 0];
    }
    case 'A_Indirection': {
      const ind = f['indirection'] as unknown[];
      for (let i = ind.length - 1; i >= 0; i--) {
        if (nodeKind(ind[i]) === 'String') return [names([ind[i]])[0], 2];
        if (nodeKind(ind[i]) === 'A_Star') return [undefined, 0];
      }
      return figureColname(f['arg']);
    }
    case 'FuncCall': {
      const n = names(f['funcname']);
      return [n[n.length - 1], 2];
    }
    case 'A_Expr':
      return f['kind'] === 'AEXPR_NULLIF' ? ['nullif', 2] : [undefined, 0];
    case 'TypeCast': {
      const inner = figureColname(f['arg']);
      if (inner[1] > 1) return inner;
      const t = names(f['typeName']?.names);
      return t.length ? [t[t.length - 1], 1] : inner;
    }
    case 'CollateClause':
      return figureColname(f['arg']);
    case 'SubLink':
      if (f['subLinkType'] === 'EXISTS_SUBLINK') return ['exists', 2];
      if (f['subLinkType'] === 'ARRAY_SUBLINK') return ['array', 2];
      if (f['subLinkType'] === 'EXPR_SUBLINK') {
        const first = f['subselect']?.SelectStmt?.targetList?.[0]?.ResTarget;
        if (first?.name) return [first.name, 2];
        return figureColname(first?.val);
      }
      return [undefined, 0];
    case 'CaseExpr': {
      // named after the ELSE result when that has a name: psql's `CASE … ELSE c.reloftype::regtype::text END` is "reloftype"
      const inner = figureColname(f['defresult']);
      return inner[1] > 1 ? inner : ['case', 1];
    }
    case 'A_ArrayExpr':
      return ['array', 2];
    case 'RowExpr':
      return ['row', 2];
    case 'CoalesceExpr':
      return ['coalesce', 2];
    case 'MinMaxExpr':
      return [f['op'] === 'IS_GREATEST' ? 'greatest' : 'least', 2];
    case 'SQLValueFunction':
      return [SVF_NAMES[String(f['op'])], 2];
    case 'GroupingFunc':
      return ['grouping', 2];
    default:
      return [undefined, 0];
  }
}

/**
 * PostgreSQL names VALUES columns column1, column2…; DuckDB says col0, col1.
 * The VALUES list moves into a derived table whose alias names them.
 */
function nameValues(fields: Fields, moved: WeakSet<object>): void {
  const lists = fields['valuesLists'] as Fields[] | undefined;
  if (!lists?.length || moved.has(fields)) return;
  const width = ((lists[0]!['List']?.items ?? []) as unknown[]).length;
  const inner: Fields = { valuesLists: lists, limitOption: 'LIMIT_OPTION_DEFAULT', op: 'SETOP_NONE' };
  moved.add(inner);
  delete fields['valuesLists'];
  fields['targetList'] = [{ ResTarget: { val: { ColumnRef: { fields: [{ A_Star: {} }] } } } }];
  fields['fromClause'] = [
    {
      RangeSubselect: {
        subquery: { SelectStmt: inner },
        alias: { aliasname: '*VALUES*', colnames: Array.from({ length: width }, (_, i) => strNode(`column${i + 1}`)) },
      },
    },
  ];
}

/** Give every unaliased, non-star target its PostgreSQL name (`?column?` where PG says so). */
export function nameTargets(root: unknown): void {
  const moved = new WeakSet<object>();
  walk(root, ({ kind, fields }) => {
    if (kind !== 'SelectStmt') return;
    nameValues(fields, moved);
    for (const t of (fields['targetList'] ?? []) as Fields[]) {
      const rt = t['ResTarget'];
      if (!rt || rt['name'] !== undefined) continue;
      const val = rt['val'];
      const vk = nodeKind(val);
      // Plain column references keep DuckDB's naming, which already matches, and `t.*` must stay a star.
      if (vk === 'ColumnRef') continue;
      rt['name'] = figureColname(val)[0] ?? '?column?';
    }
  });
}
