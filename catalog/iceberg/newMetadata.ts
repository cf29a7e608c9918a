/**
 * Metadata a catalog makes itself: a table created from a CreateTableRequest
 * (as the commit of updates Iceberg's TableMetadata.newTableMetadata amounts
 * to, field ids assigned afresh as its AssignFreshIds visitor does, partition
 * and sort fields following their source columns), and Iceberg views with one
 * `postgresql` SQL representation (ViewMetadata format 1), new or replaced.
 */
import { catalogErrors, type CreateTableRequest, type JsonObject, type ViewDefinition } from './api.js';

type Json = JsonObject;

/**
 * Fresh ids for a schema: each struct's fields numbered in order before any
 * of their children, then each child type (lists: element, maps: key then
 * value). Answers the schema and the old id → new id map.
 */
export function assignFreshIds(schema: Json): { schema: Json; ids: Map<number, number> } {
  let next = 0;
  const ids = new Map<number, number>();
  const fresh = (old: unknown): number => {
    const id = ++next;
    if (typeof old === 'number') ids.set(old, id);
    return id;
  };
  const visit = (type: unknown): unknown => {
    if (typeof type !== 'object' || type === null) return type;
    const t = type as Json;
    if (t['type'] === 'struct') {
      const fields: Json[] = ((t['fields'] as Json[]) ?? []).map((f) => ({ ...f, id: fresh(f['id']) }));
      return { ...t, fields: fields.map((f) => ({ ...f, type: visit(f['type']) })) };
    }
    if (t['type'] === 'list') {
      const elementId = fresh(t['element-id']);
      return { ...t, 'element-id': elementId, element: visit(t['element']) };
    }
    if (t['type'] === 'map') {
      const keyId = fresh(t['key-id']);
      const valueId = fresh(t['value-id']);
      return { ...t, 'key-id': keyId, 'value-id': valueId, key: visit(t['key']), value: visit(t['value']) };
    }
    return t;
  };
  if (schema['type'] !== undefined && schema['type'] !== 'struct') throw catalogErrors.badRequest('a table schema must be a struct');
  if (!Array.isArray(schema['fields'])) throw catalogErrors.badRequest('a table schema needs fields');
  const out = visit({ ...schema, type: 'struct' }) as Json;
  const identifiers = schema['identifier-field-ids'];
  if (Array.isArray(identifiers)) out['identifier-field-ids'] = identifiers.map((i) => remap(ids, i, 'identifier field'));
  delete out['schema-id'];
  return { schema: out, ids };
}

function remap(ids: Map<number, number>, old: unknown, what: string): number {
  const id = typeof old === 'number' ? ids.get(old) : undefined;
  if (id === undefined) throw catalogErrors.badRequest(`${what} ${String(old)} is not a field of the schema`);
  return id;
}

/** The updates that make a new table out of a create request, at `location`. */
export function createTableUpdates(req: CreateTableRequest, location: string, uuid: string): Json[] {
  const { schema, ids } = assignFreshIds(req.schema);
  const specFields = ((req.partitionSpec?.['fields'] as Json[] | undefined) ?? []).map((f, i) => ({
    'source-id': remap(ids, f['source-id'], 'partition source'),
    'field-id': 1000 + i,
    name: f['name'],
    transform: f['transform'],
  }));
  const orderFields = ((req.writeOrder?.['fields'] as Json[] | undefined) ?? []).map((f) => ({ ...f, 'source-id': remap(ids, f['source-id'], 'sort source') }));
  const properties = { ...(req.properties ?? {}) };
  const format = properties['format-version'] === undefined ? 2 : Number(properties['format-version']);
  // format-version is metadata, not a property (TableMetadata.newTableMetadata).
  delete properties['format-version'];
  return [
    { action: 'assign-uuid', uuid },
    { action: 'upgrade-format-version', 'format-version': format },
    { action: 'add-schema', schema },
    { action: 'set-current-schema', 'schema-id': -1 },
    { action: 'add-spec', spec: { fields: specFields } },
    { action: 'set-default-spec', 'spec-id': -1 },
    { action: 'add-sort-order', 'sort-order': { fields: orderFields } },
    { action: 'set-default-sort-order', 'sort-order-id': -1 },
    { action: 'set-location', location },
    { action: 'set-properties', updates: properties },
  ];
}

// ------------------------------------------------------------ views

/** The SQL dialect lakegate writes views in (the view read path prefers it). */
export const VIEW_DIALECT = 'postgresql';
/** Iceberg's view.version.history.num-entries default. */
const VERSIONS_KEPT = 10;

function viewVersion(view: ViewDefinition, versionId: number, schemaId: number, now: number): Json {
  const v: Json = {
    'version-id': versionId,
    'timestamp-ms': now,
    'schema-id': schemaId,
    summary: { 'engine-name': 'lakegate' },
    representations: [{ type: 'sql', sql: view.sql, dialect: VIEW_DIALECT }],
    'default-namespace': [...view.defaultNamespace],
  };
  if (view.defaultCatalog !== undefined) v['default-catalog'] = view.defaultCatalog;
  return v;
}

function viewSchema(view: ViewDefinition, schemaId: number): Json {
  if (!Array.isArray(view.schema['fields'])) throw catalogErrors.badRequest('a view schema needs fields');
  return { type: 'struct', 'schema-id': schemaId, fields: view.schema['fields'] };
}

export function newViewMetadata(view: ViewDefinition, opts: { uuid: string; location: string; now: number }): Json {
  return {
    'view-uuid': opts.uuid,
    'format-version': 1,
    location: opts.location,
    properties: { ...(view.properties ?? {}) },
    schemas: [viewSchema(view, 0)],
    'current-version-id': 1,
    versions: [viewVersion(view, 1, 0, opts.now)],
    'version-log': [{ 'timestamp-ms': opts.now, 'version-id': 1 }],
  };
}

/** The view's metadata with `view` as its new current version (CREATE OR REPLACE VIEW). */
export function replacedViewMetadata(base: Json, view: ViewDefinition, now: number): Json {
  const schemas = [...((base['schemas'] as Json[]) ?? [])];
  const schemaId = schemas.reduce((m, s) => Math.max(m, Number(s['schema-id']) + 1), 0);
  schemas.push(viewSchema(view, schemaId));
  const versions = [...((base['versions'] as Json[]) ?? [])];
  const versionId = versions.reduce((m, v) => Math.max(m, Number(v['version-id']) + 1), 1);
  versions.push(viewVersion(view, versionId, schemaId, now));
  const kept = versions.slice(-VERSIONS_KEPT);
  const usedSchemas = new Set(kept.map((v) => Number(v['schema-id'])));
  return {
    ...base,
    properties: { ...((base['properties'] as Json) ?? {}), ...(view.properties ?? {}) },
    schemas: schemas.filter((s) => usedSchemas.has(Number(s['schema-id']))),
    'current-version-id': versionId,
    versions: kept,
    'version-log': [...((base['version-log'] as Json[]) ?? []), { 'timestamp-ms': now, 'version-id': versionId }],
  };
}

/** The REST catalog's CommitViewRequest that replaces a view's current version (its catalog assigns the ids). */
export function replaceViewCommit(base: Json, view: ViewDefinition, now: number): { requirements: Json[]; updates: Json[] } {
  const nextSchemaId = ((base['schemas'] as Json[]) ?? []).reduce((m, s) => Math.max(m, Number(s['schema-id']) + 1), 0);
  const updates: Json[] = [
    { action: 'add-schema', schema: viewSchema(view, nextSchemaId) },
    { action: 'add-view-version', 'view-version': viewVersion(view, -1, -1, now) },
    { action: 'set-current-view-version', 'view-version-id': -1 },
  ];
  if (view.properties && Object.keys(view.properties).length > 0) updates.push({ action: 'set-properties', updates: view.properties });
  return { requirements: [{ type: 'assert-view-uuid', uuid: base['view-uuid'] }], updates };
}
