/**
 * SET TAG / UNSET TAG in the embedded warehouse: a table commit that changes
 * the `sqe.column-tags` property, as an Iceberg catalog commits
 * `set-properties` — new metadata written next to the current one (64-bit ids
 * kept exactly), `metadata-log` extended, and the SQL catalog's row pointed at
 * it only if it still points where the commit started (else 40001, as a
 * concurrent commit gets a 409 from a REST catalog). The returned rollback
 * points the row back (the projection into Ranger's tag store failed).
 */
import { randomUUID } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { SqlError } from '../../sql/errors.js';
import { ownRecord } from '../../sql/ownNames.js';
import { localPath } from './embedded.js';
import { parseIcebergJson, stringifyIcebergJson } from './json.js';
import { COLUMN_TAGS_PROPERTY } from './metadata.js';
import { SqlCatalogFile } from './sqlCatalog.js';
import { CatalogError, type Caller, type IcebergCatalog } from './api.js';

export interface TagCommit {
  /** The table's column tags after the commit. */
  tags: Record<string, string[]>;
  rollback(): Promise<void>;
}

type Json = Record<string, unknown>;
type SchemaFields = { fields: { name: string }[] };

function currentSchema(meta: Json): SchemaFields | undefined {
  const schemas = (meta['schemas'] as ({ 'schema-id': number } & SchemaFields)[] | undefined) ?? [];
  return schemas.find((s) => s['schema-id'] === meta['current-schema-id']);
}

/**
 * The table's column tags with one tag added to or removed from a column of
 * the current schema (42703 for another column), from the property's JSON.
 */
function changedTags(
  current: SchemaFields | undefined,
  property: string | undefined,
  opts: { column: string; tag: string; add: boolean },
  display: string,
): Record<string, string[]> {
  if (!current?.fields.some((f) => f.name === opts.column)) throw new SqlError('42703', `column "${opts.column}" of relation "${display}" does not exist`);
  // Keyed by column names: without a prototype, so a column called `constructor` or `__proto__` is its own key.
  const tags = ownRecord<string[]>();
  if (property !== undefined) {
    try {
      Object.assign(tags, JSON.parse(property) as Record<string, string[]>);
    } catch {
      throw new SqlError('XX001', `the ${COLUMN_TAGS_PROPERTY} property of ${display} is not JSON: fix it before changing tags`);
    }
  }
  const had = Object.hasOwn(tags, opts.column) ? tags[opts.column]! : [];
  const next = opts.add ? [...new Set([...had, opts.tag])] : had.filter((t) => t !== opts.tag);
  if (next.length > 0) tags[opts.column] = next;
  else delete tags[opts.column];
  return tags;
}

export async function commitColumnTag(opts: {
  sqliteFile: string;
  catalogName: string;
  namespace: string[];
  table: string;
  column: string;
  tag: string;
  add: boolean;
  now?: number;
}): Promise<TagCommit> {
  const display = [...opts.namespace, opts.table].join('.');
  const file = new SqlCatalogFile(opts.sqliteFile, opts.catalogName, { create: true });
  try {
    const entry = file.entry(opts.namespace, opts.table);
    if (!entry || entry.kind !== 'table') throw new SqlError('42P01', `relation "${display}" does not exist`);
    const from = entry.metadataLocation;
    const meta = parseIcebergJson(await readFile(localPath(from), 'utf8')) as Json;
    const current = currentSchema(meta) ?? (meta['schema'] as SchemaFields | undefined);
    const props = { ...((meta['properties'] as Record<string, string> | undefined) ?? {}) };
    const tags = changedTags(current, props[COLUMN_TAGS_PROPERTY], opts, display);
    if (Object.keys(tags).length > 0) props[COLUMN_TAGS_PROPERTY] = JSON.stringify(tags);
    else delete props[COLUMN_TAGS_PROPERTY];
    const now = opts.now ?? Date.now();
    const updated: Json = {
      ...meta,
      properties: props,
      'last-updated-ms': now,
      'metadata-log': [...((meta['metadata-log'] as unknown[] | undefined) ?? []), { 'timestamp-ms': meta['last-updated-ms'], 'metadata-file': from }],
    };
    const version = Number(/^(\d+)-/.exec(basename(localPath(from)))?.[1] ?? '0') + 1;
    const to = join(dirname(localPath(from)), `${String(version).padStart(5, '0')}-${randomUUID()}.metadata.json`);
    await writeFile(to, stringifyIcebergJson(updated), { flag: 'wx' });
    const location = from.startsWith('file:') ? `file://${to}` : to;
    try {
      // Moved only from where this commit started: a concurrent commit (another process too) wins, this one is 40001.
      file.swapLocations([{ ns: opts.namespace, name: opts.table, kind: 'table', from, to: location }]);
    } catch (e) {
      if (e instanceof CatalogError && e.status === 409) throw new SqlError('40001', `could not serialize access due to concurrent update of ${display}`);
      throw e;
    }
    return {
      tags,
      rollback: async () => {
        const back = new SqlCatalogFile(opts.sqliteFile, opts.catalogName, { create: true });
        try {
          back.swapLocations([{ ns: opts.namespace, name: opts.table, kind: 'table', from: location, to: from }]);
        } catch (e) {
          // Another commit came after this one: it stays, and so does the property it was based on.
          if (!(e instanceof CatalogError && e.status === 409)) throw e;
        } finally {
          back.close();
        }
      },
    };
  } finally {
    file.close();
  }
}

/**
 * SET TAG through a REST catalog (Polaris): the table loaded and committed as
 * the session's user with their token (Polaris authorizes
 * table-properties-set / -remove and keeps its own optimistic concurrency:
 * a concurrent commit is a 409). The rollback commits the old value back.
 */
export async function commitColumnTagRest(
  client: IcebergCatalog,
  caller: Caller,
  opts: { namespace: string[]; table: string; column: string; tag: string; add: boolean },
): Promise<TagCommit> {
  const display = [...opts.namespace, opts.table].join('.');
  if (!client.updateTableProperties) throw new SqlError('0A000', 'SET TAG needs a catalog that can commit table properties');
  let loaded;
  try {
    loaded = await client.loadTable(caller, opts.namespace, opts.table);
  } catch (e) {
    if (e instanceof CatalogError && (e.kind === 'not-found' || e.kind === 'forbidden')) throw new SqlError('42P01', `relation "${display}" does not exist`);
    throw e;
  }
  const meta = loaded.metadata as unknown as Json;
  const before = ((meta['properties'] as Record<string, string> | undefined) ?? {})[COLUMN_TAGS_PROPERTY];
  const tags = changedTags(currentSchema(meta), before, opts, display);
  const after = Object.keys(tags).length > 0 ? JSON.stringify(tags) : undefined;
  const uuid = meta['table-uuid'] as string;
  const set = (v: string | undefined): { updates: Record<string, string>; removals: string[] } =>
    v === undefined ? { updates: {}, removals: [COLUMN_TAGS_PROPERTY] } : { updates: { [COLUMN_TAGS_PROPERTY]: v }, removals: [] };
  try {
    await client.updateTableProperties(caller, opts.namespace, opts.table, set(after), uuid);
  } catch (e) {
    if (e instanceof CatalogError && e.status === 409) throw new SqlError('40001', `could not serialize access due to concurrent update of ${display}`);
    if (e instanceof CatalogError && e.kind === 'forbidden') throw new SqlError('42501', `permission denied: the catalog refused the table commit of ${display} (${e.message})`);
    throw e;
  }
  return { tags, rollback: () => client.updateTableProperties!(caller, opts.namespace, opts.table, set(before), uuid) };
}
