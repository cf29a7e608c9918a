/**
 * The relation an INSERT, UPDATE, DELETE, MERGE or TRUNCATE writes: resolved
 * as the user (42P01 as for a missing one when the user may not load or read
 * it), refused in PostgreSQL's words where it is a view or a system catalog,
 * checked against Ranger's `update`, and — for the statements whose engine
 * reads the target as stored (every one but INSERT) — seen by the user as
 * stored (no row filter, no mask), or refused (42501).
 */
import type { CatalogColumn, CatalogTable } from '../catalogView.js';
import { SqlError, pos } from '../errors.js';
import type { Fields } from '../walk.js';
import type { WriteContext } from './context.js';
import { resolveWriteRelation, writtenName, type WrittenName } from './names.js';
import type { TempTable, WriteTarget } from './plan.js';
import type { TableReference } from '../resolve.js';
import { tempItem } from '../tempTables.js';
import type { PgNode } from '../walk.js';

export type DmlVerb = 'INSERT' | 'UPDATE' | 'DELETE' | 'MERGE' | 'TRUNCATE';

export interface DmlTarget {
  target: WriteTarget;
  written: WrittenName;
  /** the target's columns, in order */
  columns: readonly Pick<CatalogColumn, 'name' | 'duckType' | 'nullable' | 'pgType'>[];
  /** the Iceberg table (undefined for a temporary one) */
  table?: CatalogTable;
  /** the temporary table (undefined for an Iceberg one) */
  temp?: TempTable;
  /** the name a denial or a missing column names it by (PostgreSQL: the relation's own name) */
  name: string;
}

const AUTO_UPDATABLE_HINT: Record<DmlVerb, string> = {
  INSERT: 'To enable inserting into the view, provide an INSTEAD OF INSERT trigger or an unconditional ON INSERT DO INSTEAD rule.',
  UPDATE: 'To enable updating the view, provide an INSTEAD OF UPDATE trigger or an unconditional ON UPDATE DO INSTEAD rule.',
  DELETE: 'To enable deleting from the view, provide an INSTEAD OF DELETE trigger or an unconditional ON DELETE DO INSTEAD rule.',
  MERGE: '',
  TRUNCATE: '',
};

const VIEW_VERB: Record<DmlVerb, string> = { INSERT: 'insert into', UPDATE: 'update', DELETE: 'delete from', MERGE: '', TRUNCATE: '' };

/** PostgreSQL's refusal of a write to a view (55000 for INSERT/UPDATE/DELETE, 0A000 for MERGE, 42809 for TRUNCATE). */
function viewRefusal(verb: DmlVerb, name: string, detail: string, hint: string | undefined, location: unknown): SqlError {
  if (verb === 'TRUNCATE') return new SqlError('42809', `"${name}" is not a table`, pos(location));
  if (verb === 'MERGE') return new SqlError('0A000', `cannot execute MERGE on relation "${name}"`, pos(location), { detail: 'This operation is not supported for views.' });
  return new SqlError('55000', `cannot ${VIEW_VERB[verb]} view "${name}"`, pos(location), { detail, ...(hint ? { hint } : {}) });
}

/** `permission denied for table t`, as PostgreSQL words a refused INSERT/UPDATE/DELETE/TRUNCATE/MERGE. */
export const tableDenied = (name: string): SqlError => new SqlError('42501', `permission denied for table ${name}`);

export function dmlTarget(rangeVar: Fields, verb: DmlVerb, ctx: WriteContext): DmlTarget {
  const written = writtenName(rangeVar);
  const r = resolveWriteRelation(written, ctx);
  switch (r.kind) {
    case 'system':
      if (r.relkind === 'v') {
        throw viewRefusal(verb, r.name, 'Views that do not select from a single table or view are not automatically updatable.', AUTO_UPDATABLE_HINT[verb], written.location);
      }
      throw verb === 'TRUNCATE' ? new SqlError('42501', `permission denied: "${r.name}" is a system catalog`) : tableDenied(r.name);
    case 'view':
      throw viewRefusal(verb, r.view.name, 'Views in the Iceberg catalog are not automatically updatable through lakegate.', "Write to the view's base table instead.", written.location);
    case 'temp':
      // the session's own: no policy applies, nothing in it the session did not already see
      return { target: r.target, written, columns: r.table.columns, temp: r.table, name: r.table.name };
    case 'table': {
      const table = r.table;
      ctx.policy.require([{ access: 'update', resource: { database: table.resource.database, table: table.resource.table }, denial: tableDenied(table.name) }]);
      if (verb !== 'INSERT') ctx.policy.requireStored(table);
      return { target: r.target, written, columns: table.columns, table, name: table.name };
    }
  }
}

/** A column the statement names that the target does not have (42703, PostgreSQL's words). */
export const noSuchColumn = (column: string, relation: string, location?: unknown): SqlError =>
  new SqlError('42703', `column "${column}" of relation "${relation}" does not exist`, pos(location));

/** The target's column of that name (PostgreSQL matches the name exactly, as the parser folded it). */
export function targetColumn(t: DmlTarget, name: string, location?: unknown): string {
  const c = t.columns.find((x) => x.name === name);
  if (!c) throw noSuchColumn(name, t.name, location);
  return c.name;
}

/**
 * The target as a FROM item for the lineage of the values an UPDATE or MERGE
 * writes (never planned: the engine reads the target itself): a value
 * computed from the target's own columns carries their tags.
 */
export function targetLineageItem(t: DmlTarget, alias: string): { node: PgNode; tables: TableReference[] } {
  if (t.temp) return { node: tempItem(t.temp, { aliasname: alias }), tables: [] };
  const node: PgNode = { RangeVar: { relname: t.name, inh: true, relpersistence: 'p', alias: { aliasname: alias } } };
  return { node, tables: t.table ? [{ schema: t.table.schema, name: t.table.name, alias, table: t.table, node }] : [] };
}
