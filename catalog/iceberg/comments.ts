/**
 * COMMENT ON as table commits (DuckDB's extension refuses COMMENT ON): a
 * table's comment is its `comment` property, Iceberg's own key for it; a
 * column's is its schema field's `doc`, changed in a new schema made current
 * (add-schema + set-current-schema), so the field ids stay. NULL or '' removes
 * the comment, as in PostgreSQL. Each commit requires the table and schema it
 * was made from: a concurrent change makes it a 409.
 */
import { SqlError } from '../../sql/errors.js';
import type { Caller, CommittedTable, JsonObject, Namespace, TableCommit, WritableCatalog } from './api.js';

export const COMMENT_PROPERTY = 'comment';

export function tableCommentCommit(metadata: JsonObject, comment: string | null): TableCommit {
  const requirements = [{ type: 'assert-table-uuid', uuid: metadata['table-uuid'] }];
  if (comment === null || comment === '') return { requirements, updates: [{ action: 'remove-properties', removals: [COMMENT_PROPERTY] }] };
  return { requirements, updates: [{ action: 'set-properties', updates: { [COMMENT_PROPERTY]: comment } }] };
}

/** 42703 when the current schema has no such column. */
export function columnCommentCommit(metadata: JsonObject, display: string, column: string, comment: string | null): TableCommit {
  const currentId = metadata['current-schema-id'];
  const schema = ((metadata['schemas'] as JsonObject[] | undefined) ?? []).find((s) => s['schema-id'] === currentId);
  const fields = (schema?.['fields'] as JsonObject[] | undefined) ?? [];
  if (!fields.some((f) => f['name'] === column)) throw new SqlError('42703', `column "${column}" of relation "${display}" does not exist`);
  const changed = fields.map((f) => {
    if (f['name'] !== column) return f;
    const { doc: _old, ...rest } = f;
    return comment === null || comment === '' ? rest : { ...rest, doc: comment };
  });
  const next: JsonObject = { type: 'struct', 'schema-id': -1, fields: changed };
  if (schema?.['identifier-field-ids'] !== undefined) next['identifier-field-ids'] = schema['identifier-field-ids'];
  return {
    requirements: [
      { type: 'assert-table-uuid', uuid: metadata['table-uuid'] },
      { type: 'assert-current-schema-id', 'current-schema-id': currentId },
    ],
    updates: [
      { action: 'add-schema', schema: next, 'last-column-id': metadata['last-column-id'] },
      { action: 'set-current-schema', 'schema-id': -1 },
    ],
  };
}

/** COMMENT ON TABLE / COLUMN, committed as the caller on the table as loaded now. */
export async function commentOn(
  catalog: WritableCatalog,
  caller: Caller,
  ns: Namespace,
  table: string,
  target: { column?: string },
  comment: string | null,
): Promise<CommittedTable> {
  const loaded = await catalog.loadTable(caller, ns, table);
  if (!loaded.raw) throw new Error('the catalog did not return the table metadata as it holds it');
  const display = [...ns, table].join('.');
  const commit = target.column === undefined ? tableCommentCommit(loaded.raw, comment) : columnCommentCommit(loaded.raw, display, target.column, comment);
  return catalog.commitTable(caller, ns, table, commit);
}
