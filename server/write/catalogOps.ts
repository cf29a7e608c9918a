/**
 * What a session does through the Iceberg catalog itself, as its user, for
 * the writes DuckDB cannot make (schemas, views, renames, drops with purge,
 * comments), with the catalog's refusals in PostgreSQL's words. In a block
 * each step leaves its inverse in the undo log (undo.ts); a table dropped in a
 * block is renamed aside and purged at COMMIT.
 */
import type { DuckDBType } from '@duckdb/node-api';
import { CatalogError, type Caller, type JsonObject, type LoadedView, type Namespace, type ViewDefinition, type WritableCatalog } from '../../catalog/iceberg/api.js';
import { commentOn, COMMENT_PROPERTY } from '../../catalog/iceberg/comments.js';
import type { CatalogService } from '../../catalog/userCatalog.js';
import { PgError, SqlState } from '../../protocol/errors.js';
import type { CatalogOp, WriteTarget } from '../../sql/write/plan.js';
import type { EngineConnection } from '../engine/connection.js';
import { icebergSchema } from './icebergSchema.js';
import { schemaBack, type UndoStep } from './undo.js';

export interface CatalogOpHost {
  catalog: WritableCatalog;
  /** The catalog's name (the PostgreSQL database): what a refused CREATE SCHEMA names. */
  catalogName: string;
  caller: Caller;
  /** Every user's catalog answers: forgotten for what changed. */
  service: CatalogService;
  conn: EngineConnection;
  /** In a block: where each step's inverse goes (null outside a block). */
  undo: UndoStep[] | null;
  /** Tables a DROP in the block renamed aside, purged at COMMIT. */
  purgeAtCommit: { namespace: Namespace; name: string }[];
  /** After a temporary table changed. */
  refreshTemps(): Promise<void>;
}

const display = (t: WriteTarget) => (t.kind === 'temp' ? t.name : [...t.namespace, t.name].join('.'));

/**
 * A catalog error of a catalog call the session made, in PostgreSQL's words;
 * `denied`: how PostgreSQL words the refusal of this statement (a non-owner's
 * DROP or ALTER, a CREATE where the schema allows none).
 */
function catalogFailure(e: unknown, what: { kind: 'table' | 'view' | 'schema'; name: string; denied?: string }): unknown {
  if (!(e instanceof CatalogError)) return e;
  switch (e.kind) {
    case 'forbidden':
      return new PgError(SqlState.insufficientPrivilege, what.denied ?? `permission denied for ${what.kind} ${what.name}`);
    case 'not-found':
      return what.kind === 'schema'
        ? new PgError(SqlState.invalidSchemaName, `schema "${what.name}" does not exist`)
        : new PgError(SqlState.undefinedTable, `relation "${what.name}" does not exist`);
    case 'conflict':
      if (e.type === 'CommitFailedException') {
        return new PgError(SqlState.serializationFailure, 'could not serialize access due to concurrent update', { hint: 'Run the transaction again.' });
      }
      if (e.type === 'NamespaceNotEmptyException') {
        return new PgError(SqlState.dependentObjectsStillExist, `cannot drop schema ${what.name} because other objects depend on it`, {
          hint: 'Use DROP ... CASCADE to drop the dependent objects too.',
        });
      }
      return what.kind === 'schema'
        ? new PgError(SqlState.duplicateSchema, `schema "${what.name}" already exists`)
        : new PgError(SqlState.duplicateTable, `relation "${what.name}" already exists`);
    default:
      return e;
  }
}


export async function runCatalogOp(op: CatalogOp, h: CatalogOpHost): Promise<void> {
const { caller, catalog, service, conn } = h;
  switch (op.op) {
    case 'nothing':
      return;
    case 'create-schema': {
      try {
        await catalog.createNamespace(caller, op.namespace);
      } catch (e) {
        if (op.ifNotExists && e instanceof CatalogError && e.kind === 'conflict') return;
        throw catalogFailure(e, { kind: 'schema', name: op.namespace.join('.'), denied: `permission denied for database ${h.catalogName}` });
      }
      service.changed(op.namespace);
      h.undo?.push({ kind: 'drop-namespace', namespace: op.namespace });
      return;
    }
    case 'drop-schema': {
      if (op.cascade) {
        for (const v of await catalog.listViews(caller, op.namespace).catch(() => [] as string[])) {
          await catalog.dropView(caller, op.namespace, v).catch((e: unknown) => {
            throw catalogFailure(e, { kind: 'view', name: v, denied: `must be owner of view ${v}` });
          });
        }
        for (const t of await catalog.listTables(caller, op.namespace).catch(() => [] as string[])) {
          await catalog.dropTable(caller, op.namespace, t, { purge: true }).catch((e: unknown) => {
            throw catalogFailure(e, { kind: 'table', name: t, denied: `must be owner of table ${t}` });
          });
        }
      }
      try {
        await catalog.dropNamespace(caller, op.namespace);
      } catch (e) {
        if (op.ifExists && e instanceof CatalogError && e.kind === 'not-found') return;
        throw catalogFailure(e, { kind: 'schema', name: op.namespace.join('.'), denied: `must be owner of schema ${op.namespace.join('.')}` });
      }
      service.changed(op.namespace);
      return;
    }
    case 'create-view': {
      const probe = await conn.prepare(op.probeSql);
      let columns: { name: string; type: DuckDBType }[];
      try {
        if (probe.columnCount !== op.columnNames.length) throw new PgError(SqlState.syntaxError, 'CREATE VIEW specifies too many column names');
        columns = op.columnNames.map((name, c) => ({ name, type: probe.columnType(c) }));
      } finally {
        probe.destroy();
      }
      const view: ViewDefinition = { schema: icebergSchema(columns), sql: op.viewSql, defaultNamespace: op.defaultNamespace };
      let previous: LoadedView | null = null;
      if (op.orReplace) previous = await catalog.loadView(caller, op.namespace, op.name).catch(() => null);
      try {
        if (previous) await catalog.replaceView(caller, op.namespace, op.name, view);
        else await catalog.createView(caller, op.namespace, op.name, view);
      } catch (e) {
        throw catalogFailure(e, { kind: 'view', name: op.name, denied: previous ? `must be owner of view ${op.name}` : `permission denied for schema ${op.namespace.join('.')}` });
      }
      service.changed(op.namespace, op.name);
      if (h.undo) {
        h.undo.push(previous ? { kind: 'replace-view', namespace: op.namespace, name: op.name, view: viewDefinitionOf(previous) } : { kind: 'drop-view', namespace: op.namespace, name: op.name });
      }
      return;
    }
    case 'drop':
      for (const t of op.targets) {
        if (t.kind === 'temp') {
          await conn.run(`DROP TABLE ${t.engineName}`);
          await h.refreshTemps();
          continue;
        }
        try {
          if (op.what === 'view') {
            const saved = h.undo ? await catalog.loadView(caller, t.namespace, t.name) : null;
            await catalog.dropView(caller, t.namespace, t.name);
            if (saved) h.undo?.push({ kind: 'create-view', namespace: t.namespace, name: t.name, view: viewDefinitionOf(saved) });
          } else if (h.undo) {
            // out of the way now, purged at COMMIT, renamed back by ROLLBACK
            const aside = { namespace: t.namespace, name: `${t.name.slice(0, 40)}__lg_dropped_${Date.now().toString(36)}` };
            await catalog.renameTable(caller, t, aside);
            h.undo.push({ kind: 'rename', what: 'table', from: t, to: aside });
            h.purgeAtCommit.push(aside);
          } else {
            await catalog.dropTable(caller, t.namespace, t.name, { purge: true });
          }
        } catch (e) {
          throw catalogFailure(e, { kind: op.what, name: t.name, denied: `must be owner of ${op.what} ${t.name}` });
        }
        service.changed(t.namespace, t.name);
      }
      return;
    case 'rename': {
      const to = { namespace: op.to.namespace, name: op.to.name };
      try {
        if (op.what === 'view') await catalog.renameView(caller, op.from, to);
        else await catalog.renameTable(caller, op.from, to);
      } catch (e) {
        throw catalogFailure(e, { kind: op.what, name: op.to.name, denied: `must be owner of ${op.what} ${op.from.name}` });
      }
      service.changed(op.from.namespace, op.from.name);
      service.changed(to.namespace, to.name);
      h.undo?.push({ kind: 'rename', what: op.what, from: op.from, to });
      return;
    }
    case 'comment':
      await comment(op, h);
      return;
  }
}

async function comment(op: Extract<CatalogOp, { op: 'comment' }>, h: CatalogOpHost): Promise<void> {
const { caller, catalog, service } = h;
  const t = op.target;
  if (op.what === 'view' || (op.what === 'column' && (await catalog.loadView(caller, t.namespace, t.name).then(() => true, () => false)))) {
    const loaded = await catalog.loadView(caller, t.namespace, t.name).catch((e: unknown) => {
      throw catalogFailure(e, { kind: 'view', name: t.name });
    });
    const before = viewDefinitionOf(loaded);
    const next: ViewDefinition = op.what === 'view' ? { ...before, properties: withComment(before.properties ?? {}, op.text) } : { ...before, schema: schemaWithDoc(before.schema, op.column!, op.text, display(t)) };
    await catalog.replaceView(caller, t.namespace, t.name, next).catch((e: unknown) => {
      throw catalogFailure(e, { kind: 'view', name: t.name, denied: `must be owner of ${op.what === 'column' ? 'relation' : 'view'} ${t.name}` });
    });
    service.changed(t.namespace, t.name);
    h.undo?.push({ kind: 'replace-view', namespace: t.namespace, name: t.name, view: before });
    return;
  }
  const loaded = await catalog.loadTable(caller, t.namespace, t.name).catch((e: unknown) => {
    throw catalogFailure(e, { kind: 'table', name: t.name });
  });
  const raw = loaded.raw!;
  let committed;
  try {
    committed = await commentOn(catalog, caller, t.namespace, t.name, op.what === 'column' ? { column: op.column! } : {}, op.text);
  } catch (e) {
    throw catalogFailure(e, { kind: 'table', name: t.name, denied: `must be owner of ${op.what === 'column' ? 'relation' : 'table'} ${t.name}` });
  }
  service.changed(t.namespace, t.name);
  if (h.undo) {
    if (op.what === 'column') h.undo.push(schemaBack(t, raw, committed.metadata));
    else {
      const old = (raw['properties'] as Record<string, string> | undefined)?.[COMMENT_PROPERTY];
      h.undo.push({
        kind: 'commit',
        namespace: t.namespace,
        name: t.name,
        what: 'the comment',
        commit: {
          requirements: [{ type: 'assert-table-uuid', uuid: raw['table-uuid'] }],
          updates: [old === undefined ? { action: 'remove-properties', removals: [COMMENT_PROPERTY] } : { action: 'set-properties', updates: { [COMMENT_PROPERTY]: old } }],
        },
      });
    }
  }
}

function withComment(properties: Record<string, string>, text: string | null): Record<string, string> {
  const out = { ...properties };
  if (text === null || text === '') delete out[COMMENT_PROPERTY];
  else out[COMMENT_PROPERTY] = text;
  return out;
}

function schemaWithDoc(schema: JsonObject, column: string, text: string | null, where: string): JsonObject {
  const fields = (schema['fields'] as JsonObject[] | undefined) ?? [];
  if (!fields.some((f) => f['name'] === column)) throw new PgError(SqlState.undefinedColumn, `column "${column}" of relation "${where}" does not exist`);
  return {
    ...schema,
    fields: fields.map((f) => {
      if (f['name'] !== column) return f;
      const { doc: _old, ...rest } = f;
      return text === null || text === '' ? rest : { ...rest, doc: text };
    }),
  };
}

/** A view's current version as a definition to write again (ROLLBACK, COMMENT). */
export function viewDefinitionOf(loaded: LoadedView): ViewDefinition {
  const meta = loaded.metadata;
  const version = meta.versions.find((v) => v['version-id'] === meta['current-version-id'])!;
  const raw = loaded.raw;
  const rawSchemas = (raw?.['schemas'] as JsonObject[] | undefined) ?? [];
  const schema = rawSchemas.find((s) => s['schema-id'] === version['schema-id']) ?? { type: 'struct', 'schema-id': 0, fields: [] };
  const sql = version.representations.find((r) => r.type === 'sql' && (r.dialect ?? '').toLowerCase() === 'postgresql') ?? version.representations[0]!;
  return {
    schema,
    sql: sql.sql ?? '',
    defaultNamespace: version['default-namespace'],
    properties: { ...((raw?.['properties'] as Record<string, string> | undefined) ?? {}) },
  };
}
