/**
 * What a ROLLBACK must take back. Inside a block, what DuckDB cannot do in its
 * own transaction (creates, renames, comments, views, a DDL's schema change)
 * is committed to the catalog as the statement runs, and the data written
 * before it is committed first; each such step leaves its inverse here, and a
 * ROLLBACK applies them newest first. Drops are not done until COMMIT (a
 * dropped table is renamed out of the way and purged then), so nothing here
 * needs to bring data back from nowhere.
 */
import type { Caller, JsonObject, Namespace, TableCommit, ViewDefinition, WritableCatalog } from '../../catalog/iceberg/api.js';

export type UndoStep =
  | { kind: 'drop-table'; namespace: Namespace; name: string }
  | { kind: 'drop-view'; namespace: Namespace; name: string }
  | { kind: 'replace-view'; namespace: Namespace; name: string; view: ViewDefinition }
  | { kind: 'create-view'; namespace: Namespace; name: string; view: ViewDefinition }
  | { kind: 'rename'; what: 'table' | 'view'; from: { namespace: Namespace; name: string }; to: { namespace: Namespace; name: string } }
  | { kind: 'drop-namespace'; namespace: Namespace }
  /** A table's metadata commit to take back (a snapshot, a schema change, a property), guarded by what it committed. */
  | { kind: 'commit'; namespace: Namespace; name: string; commit: TableCommit; what: string };

const dotted = (ns: Namespace, name?: string) => [...ns, ...(name === undefined ? [] : [name])].join('.');

/** Applies one inverse step as the session's user; returns a warning to show when it could not be applied. */
export async function undoStep(catalog: WritableCatalog, caller: Caller, step: UndoStep): Promise<string | null> {
  try {
    switch (step.kind) {
      case 'drop-table':
        await catalog.dropTable(caller, step.namespace, step.name, { purge: true });
        return null;
      case 'drop-view':
        await catalog.dropView(caller, step.namespace, step.name);
        return null;
      case 'replace-view':
        await catalog.replaceView(caller, step.namespace, step.name, step.view);
        return null;
      case 'create-view':
        await catalog.createView(caller, step.namespace, step.name, step.view);
        return null;
      case 'rename':
        if (step.what === 'table') await catalog.renameTable(caller, step.to, step.from);
        else await catalog.renameView(caller, step.to, step.from);
        return null;
      case 'drop-namespace':
        await catalog.dropNamespace(caller, step.namespace);
        return null;
      case 'commit':
        await catalog.commitTable(caller, step.namespace, step.name, step.commit);
        return null;
    }
  } catch (e) {
    const target = step.kind === 'rename' ? dotted(step.to.namespace, step.to.name) : step.kind === 'drop-namespace' ? dotted(step.namespace) : dotted(step.namespace, step.name);
    const what = step.kind === 'commit' ? step.what : step.kind;
    return `could not take back ${what} of ${target}: ${(e as Error).message}`;
  }
}

/** The inverse of a schema change: the table's current schema set back to the one before (guarded by the new one). */
export function schemaBack(t: { namespace: Namespace; name: string }, before: JsonObject, after?: JsonObject): UndoStep {
  const guard = after ? [{ type: 'assert-current-schema-id', 'current-schema-id': after['current-schema-id'] }] : [];
  return {
    kind: 'commit',
    namespace: t.namespace,
    name: t.name,
    what: 'the schema change',
    commit: {
      requirements: [{ type: 'assert-table-uuid', uuid: before['table-uuid'] }, ...guard],
      updates: [{ action: 'set-current-schema', 'schema-id': before['current-schema-id'] }],
    },
  };
}
