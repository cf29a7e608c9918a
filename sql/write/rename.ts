/**
 * ALTER TABLE | VIEW [IF EXISTS] r RENAME TO n (dbt renames views with ALTER
 * TABLE, as PostgreSQL allows), and ALTER TABLE t RENAME COLUMN a TO b.
 * Ranger's `alter` on the relation decides, and `create` on the new name (a
 * rename makes a relation of that name, as CREATE does). A column's tags move
 * with it: a renamed tagged column stays tagged under its new name.
 */
import { SqlError, notSupported } from '../errors.js';
import type { ParsedStatement } from '../parse.js';
import type { Fields } from '../walk.js';
import { alteredRelation } from './alter.js';
import type { WriteContext } from './context.js';
import { quoteIdent } from './names.js';
import { doesNotExist, nothing } from './notices.js';
import type { CatalogWrite, EngineWrite } from './plan.js';

export function planRename(stmt: ParsedStatement, ctx: WriteContext): EngineWrite | CatalogWrite {
  const r = stmt.node['RenameStmt']!;
  const type = String(r['renameType']);
  if (type === 'OBJECT_COLUMN' && r['relationType'] === 'OBJECT_TABLE') return renameColumn(r, ctx);
  if (type !== 'OBJECT_TABLE' && type !== 'OBJECT_VIEW') throw notSupported(`ALTER … RENAME of ${type.replace(/^OBJECT_/, '').toLowerCase().replace(/_/g, ' ')}`);
  const tag = type === 'OBJECT_VIEW' ? 'ALTER VIEW' : 'ALTER TABLE';
  const relation = r['relation'] as Fields;
  const t = alteredRelation(relation, r['missing_ok'] === true, ctx);
  if (!t) return nothing(tag, doesNotExist('relation', String(relation['relname'])));
  if (type === 'OBJECT_VIEW' && t.relation.kind !== 'view') throw new SqlError('42809', `"${t.name}" is not a view`);
  const newName = String(r['newname']);
  if (t.relation.kind === 'temp') {
    if (ctx.temp.tables.some((x) => x.name === newName)) throw new SqlError('42P07', `relation "${newName}" already exists`);
    return { kind: 'catalog', tag, op: { op: 'rename', what: 'table', from: t.target, to: { namespace: [], name: newName } } };
  }
  const schema = t.relation.kind === 'view' ? t.relation.view.schema : t.relation.table.schema;
  if (ctx.catalog.getTable(schema, newName) || ctx.catalog.getView?.(schema, newName)) throw new SqlError('42P07', `relation "${newName}" already exists`);
  ctx.policy.require([{ access: 'create', resource: { database: schema, table: newName }, denial: new SqlError('42501', `permission denied for schema ${schema}`) }]);
  const what = t.relation.kind === 'view' ? 'view' : 'table';
  return { kind: 'catalog', tag, op: { op: 'rename', what, from: t.target, to: { namespace: t.target.namespace, name: newName } } };
}

function renameColumn(r: Fields, ctx: WriteContext): EngineWrite | CatalogWrite {
  const relation = r['relation'] as Fields;
  const t = alteredRelation(relation, r['missing_ok'] === true, ctx);
  if (!t) return nothing('ALTER TABLE', doesNotExist('relation', String(relation['relname'])));
  if (t.relation.kind === 'view') throw notSupported('renaming a column of a view in the catalog');
  const from = String(r['subname']);
  const to = String(r['newname']);
  if (!t.columns.some((c) => c.name === from)) throw new SqlError('42703', `column "${from}" does not exist`);
  if (t.columns.some((c) => c.name === to)) throw new SqlError('42701', `column "${to}" of relation "${t.name}" already exists`);
  const sql = `ALTER TABLE ${t.target.engineName} RENAME COLUMN ${quoteIdent(from)} TO ${quoteIdent(to)}`;
  // the tags the column carries, under its new name (tags are keyed by column name)
  const own = t.relation.kind === 'table' ? ctx.policy.tableTags(t.relation.table) : null;
  const tags = own ? (Object.hasOwn(own, from) ? own[from] : undefined) : t.relation.kind === 'temp' ? t.relation.table.columns.find((c) => c.name === from)?.tags : undefined;
  const columnTags = tags && tags.length > 0 ? { [to]: [...tags] } : undefined;
  return { kind: 'engine', tag: 'ALTER TABLE', sql, counts: false, target: t.target, ddl: true, ...(columnTags ? { columnTags } : {}) };
}
