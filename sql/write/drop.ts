/**
 * DROP TABLE | VIEW [IF EXISTS] a, b [CASCADE | RESTRICT]: each name resolved
 * as the user (one the user may not load or read is missing, as in a read),
 * of the kind the statement says (42809 otherwise, with PostgreSQL's hint),
 * and Ranger's `drop` on each decides. The Iceberg catalog keeps no
 * dependencies between tables and views, so CASCADE and RESTRICT change
 * nothing. DROP SCHEMA is schema.ts's.
 */
import { SqlError, notSupported } from '../errors.js';
import type { ParsedStatement } from '../parse.js';
import { names, type Fields } from '../walk.js';
import type { WriteCheck, WriteContext } from './context.js';
import { findWriteRelation } from './names.js';
import { doesNotExist } from './notices.js';
import type { CatalogWrite, WriteTarget } from './plan.js';
import { planDropSchema } from './schema.js';

/** A name list `[db.]schema.name` as a written relation name (42601 for more parts, as PostgreSQL). */
export function nameFromList(parts: string[]): { catalog?: string; schema?: string; name: string } {
  if (parts.length > 3) throw new SqlError('42601', `improper qualified name (too many dotted names): ${parts.join('.')}`);
  const name = parts[parts.length - 1]!;
  if (parts.length === 3) return { catalog: parts[0]!, schema: parts[1]!, name };
  if (parts.length === 2) return { schema: parts[0]!, name };
  return { name };
}

export function planDrop(stmt: ParsedStatement, ctx: WriteContext): CatalogWrite {
  const d = stmt.node['DropStmt']!;
  const removeType = String(d['removeType']);
  if (removeType === 'OBJECT_SCHEMA') return planDropSchema(stmt, ctx);
  if (removeType !== 'OBJECT_TABLE' && removeType !== 'OBJECT_VIEW') {
    throw notSupported(`DROP ${removeType.replace(/^OBJECT_/, '').replace(/_/g, ' ')}`);
  }
  const what = removeType === 'OBJECT_TABLE' ? 'table' : 'view';
  const tag = what === 'table' ? 'DROP TABLE' : 'DROP VIEW';
  const targets: WriteTarget[] = [];
  const checks: WriteCheck[] = [];
  const notices: string[] = [];
  for (const obj of (d['objects'] ?? []) as Fields[]) {
    const written = nameFromList(names(obj['List']?.['items']));
    const r = findWriteRelation(written, ctx);
    if (!r) {
      if (d['missing_ok']) {
        notices.push(doesNotExist(what, written.name));
        continue;
      }
      throw new SqlError('42P01', `${what} "${written.name}" does not exist`);
    }
    if (r.kind === 'system') throw new SqlError('42501', `must be owner of ${r.relkind === 'v' ? 'view' : 'table'} ${r.name}`);
    const isView = r.kind === 'view';
    if (isView !== (what === 'view')) {
      const name = r.kind === 'view' ? r.view.name : r.table.name;
      throw new SqlError('42809', `"${name}" is not a ${what}`, undefined, { hint: `Use DROP ${isView ? 'VIEW' : 'TABLE'} to remove a ${isView ? 'view' : 'table'}.` });
    }
    if (r.kind === 'table') {
      checks.push({ access: 'drop', resource: { database: r.table.resource.database, table: r.table.resource.table }, denial: new SqlError('42501', `must be owner of table ${r.table.name}`) });
    } else if (r.kind === 'view') {
      checks.push({ access: 'drop', resource: { database: r.view.schema, table: r.view.name }, denial: new SqlError('42501', `must be owner of view ${r.view.name}`) });
    }
    targets.push(r.target);
  }
  ctx.policy.require(checks);
  const cascade = d['behavior'] === 'DROP_CASCADE';
  if (targets.length === 0) return { kind: 'catalog', tag, op: { op: 'nothing' }, notice: notices[0]!, notices };
  return { kind: 'catalog', tag, op: { op: 'drop', what, targets, cascade }, ...(notices.length > 0 ? { notices } : {}) };
}
