/**
 * CREATE [OR REPLACE] VIEW v [(columns)] AS <query>: stored in the Iceberg
 * catalog with the query in PostgreSQL's SQL (the `postgresql`
 * representation), bound as PostgreSQL binds a view when it is created: every
 * relation qualified with the schema it resolved to (dbt's `"demo".` database
 * part dropped), every `*` written out as the columns it stands for then.
 * The query is planned as the creating user reads it (gated), only so the
 * session can learn the view's column types from the engine; a view stores
 * no data and is no security boundary: whoever reads it is gated on its base
 * tables. Ranger's `create` on the schema and the view decides (and `alter`
 * when OR REPLACE replaces one).
 */
import { deparse } from '../deparse.js';
import { SqlError, notSupported, pos } from '../errors.js';
import type { ParsedStatement } from '../parse.js';
import { ctesInScope, resolveRelation, type ResolveContext } from '../resolve.js';
import { cloneTree, names, walk, type Fields, type PgNode } from '../walk.js';
import type { WriteCheck, WriteContext } from './context.js';
import { columnNamesOf, planQueryForWrite } from './createTableAs.js';
import { createChecks } from './createTable.js';
import { newRelation, writtenName } from './names.js';
import type { CatalogWrite } from './plan.js';
import type { WrittenStars } from './sources.js';

/**
 * The view's query as stored: relation names qualified as they resolve now
 * (the database part dropped), stars replaced by `expanded` (the column
 * references the planner wrote them out as, in order).
 */
function storedQuery(query: PgNode, expanded: WrittenStars, ctx: ResolveContext): string {
  const tree = cloneTree(query);
  walk(tree, ({ kind, fields, path }) => {
    if (kind !== 'RangeVar') return;
    const name = String(fields['relname']);
    const schema = fields['schemaname'] as string | undefined;
    const catalog = fields['catalogname'] as string | undefined;
    if (schema === undefined && catalog === undefined && ctesInScope(path).has(name)) return;
    const r = resolveRelation({ catalog, schema, name }, ctx, fields['location']);
    if (r.kind === 'temp') {
      throw new SqlError('0A000', `a view over the temporary table "${name}" cannot be stored in the catalog`, pos(fields['location']), {
        hint: 'Create the view over permanent tables, or create a temporary table instead.',
      });
    }
    delete fields['catalogname'];
    fields['schemaname'] = r.kind === 'table' ? r.table.schema : r.kind === 'view' ? r.view.schema : r.schema;
  });
  spliceStars(tree['SelectStmt']!, expanded, '');
  return deparse(tree);
}

/** The user's targets with each `*` replaced by the column references the planner wrote it out as. */
function spliceStars(select: Fields, written: WrittenStars, at: string): void {
  if (select['op'] && select['op'] !== 'SETOP_NONE') {
    spliceStars(select['larg'] as Fields, written, `${at}l`);
    spliceStars(select['rarg'] as Fields, written, `${at}r`);
    return;
  }
  const stars = written.get(at);
  if (!stars) return;
  select['targetList'] = ((select['targetList'] ?? []) as Fields[]).flatMap((t, i) => stars.get(i) ?? [t]);
}

export function planCreateView(stmt: ParsedStatement, ctx: WriteContext): CatalogWrite {
  const v = stmt.node['ViewStmt']!;
  const relation = v['view'] as Fields;
  if (relation['relpersistence'] === 't') throw new SqlError('0A000', 'temporary views are not supported', pos(relation['location']));
  if (v['options']) throw notSupported('view options (WITH …)');
  if (v['withCheckOption'] && v['withCheckOption'] !== 'NO_CHECK_OPTION') throw notSupported('WITH CHECK OPTION (a view in the catalog is not updatable)');
  const rel = newRelation(writtenName(relation), false, ctx);
  if (rel.kind !== 'iceberg') throw new SqlError('0A000', 'temporary views are not supported', pos(relation['location']));
  const existingTable = ctx.catalog.getTable(rel.schema, rel.name);
  const existingView = ctx.catalog.getView?.(rel.schema, rel.name);
  const checks: WriteCheck[] = createChecks(rel);
  if (v['replace'] && existingView) {
    checks.push({ access: 'alter', resource: { database: rel.schema, table: rel.name }, denial: new SqlError('42501', `must be owner of view ${rel.name}`) });
  }
  ctx.policy.require(checks);
  if (existingTable) {
    if (v['replace']) throw new SqlError('42809', `"${rel.name}" is not a view`, pos(relation['location']));
    throw new SqlError('42P07', `relation "${rel.name}" already exists`, pos(relation['location']));
  }
  if (existingView && !v['replace']) throw new SqlError('42P07', `relation "${rel.name}" already exists`, pos(relation['location']));
  const query = v['query'] as PgNode;
  const stars: WrittenStars = new Map();
  const planned = planQueryForWrite(query, ctx, stars);
  const columnNames = columnNamesOf(planned.outputs, names(v['aliases']), 'CREATE VIEW specifies more column names than columns');
  if (existingView) {
    existingView.columns.forEach((old, i) => {
      const now = columnNames[i];
      if (now === undefined) throw new SqlError('42P16', 'cannot drop columns from view');
      if (now !== old.name) {
        throw new SqlError('42P16', `cannot change name of view column "${old.name}" to "${now}"`, undefined, {
          hint: 'Use ALTER VIEW ... RENAME COLUMN ... to change name of view column instead.',
        });
      }
    });
  }
  return {
    kind: 'catalog',
    tag: 'CREATE VIEW',
    op: {
      op: 'create-view',
      namespace: ctx.namespaceOf(rel.schema) ?? [rel.schema],
      name: rel.name,
      orReplace: v['replace'] === true,
      viewSql: storedQuery(query, stars, ctx),
      defaultNamespace: ctx.namespaceOf(rel.schema) ?? [rel.schema],
      probeSql: planned.sql,
      columnNames,
      pgTypes: planned.pgTypes,
    },
  };
}
