/**
 * COMMENT ON TABLE | VIEW | COLUMN … IS 'text' | NULL: kept in the Iceberg
 * catalog (the session writes it). Ranger's `alter` on the relation decides
 * (the Hive plugin's ALTERTABLE_PROPERTIES), refused as PostgreSQL refuses a
 * non-owner.
 */
import { SqlError, notSupported } from '../errors.js';
import type { ParsedStatement } from '../parse.js';
import { names, type Fields } from '../walk.js';
import { alteredRelation } from './alter.js';
import type { WriteContext } from './context.js';
import { nameFromList } from './drop.js';
import type { CatalogWrite } from './plan.js';

export function planComment(stmt: ParsedStatement, ctx: WriteContext): CatalogWrite {
  const c = stmt.node['CommentStmt']!;
  const objtype = String(c['objtype']);
  const parts = names((c['object'] as Fields | undefined)?.['List']?.['items']);
  const text = typeof c['comment'] === 'string' && c['comment'] !== '' ? String(c['comment']) : null;
  if (objtype === 'OBJECT_TABLE' || objtype === 'OBJECT_VIEW') {
    const written = nameFromList(parts);
    const t = alteredRelation({ ...(written.catalog ? { catalogname: written.catalog } : {}), ...(written.schema ? { schemaname: written.schema } : {}), relname: written.name }, false, ctx)!;
    const isView = t.relation.kind === 'view';
    if (isView !== (objtype === 'OBJECT_VIEW')) throw new SqlError('42809', `"${t.name}" is not a ${objtype === 'OBJECT_VIEW' ? 'view' : 'table'}`);
    if (t.target.kind === 'temp') throw notSupported('COMMENT ON a temporary table');
    return { kind: 'catalog', tag: 'COMMENT', op: { op: 'comment', what: isView ? 'view' : 'table', target: t.target, text } };
  }
  if (objtype === 'OBJECT_COLUMN') {
    if (parts.length < 2) throw new SqlError('42601', `column name must be qualified`);
    const relationParts = parts.slice(0, -1);
    const column = parts[parts.length - 1]!;
    const written = nameFromList(relationParts);
    const t = alteredRelation({ ...(written.catalog ? { catalogname: written.catalog } : {}), ...(written.schema ? { schemaname: written.schema } : {}), relname: written.name }, false, ctx)!;
    if (t.target.kind === 'temp') throw notSupported('COMMENT ON a column of a temporary table');
    if (!t.columns.some((x) => x.name === column)) throw new SqlError('42703', `column "${column}" of relation "${relationParts.join('.')}" does not exist`);
    return { kind: 'catalog', tag: 'COMMENT', op: { op: 'comment', what: 'column', target: t.target, column, text } };
  }
  throw notSupported(`COMMENT ON ${objtype.replace(/^OBJECT_/, '').replace(/_/g, ' ')}`);
}
