/**
 * The catalog's side of an Iceberg table commit (the REST spec's
 * CommitTableRequest, as Iceberg Java's UpdateRequirement and
 * TableMetadata.Builder apply it): every requirement is checked against the
 * current metadata — a failed one is 409 CommitFailedException, another
 * writer got there first and the client may retry on fresh metadata — then
 * the updates are applied in order. An unknown requirement or action, or an
 * update that cannot apply, is 400. A commit that creates the table
 * (`assert-create`) starts from empty metadata.
 *
 * Pure: the caller reads and writes the files and passes the clock. Metadata
 * is the lossless JSON of json.ts (ids beyond 2^53 are bigint), every key kept.
 */
import { catalogErrors, type JsonObject } from './api.js';

export interface CommitContext {
  now: number;
  newUuid: () => string;
  /**
   * The one location the table may have (lakegate pins it): set-location to
   * another one is refused, and so are properties that move data or metadata
   * files elsewhere, and snapshots whose manifest list lies outside it.
   */
  pinnedLocation?: string;
}

type Json = JsonObject;

/** Format versions lakegate writes; older tables are read-only here. */
const WRITABLE_FORMATS = [2, 3];
/** Properties that would put a table's files outside its location. */
const PATH_PROPERTIES = ['write.data.path', 'write.metadata.path', 'write.object-storage.path', 'write.folder-storage.path', 'location'];
const DEFAULT_PREVIOUS_VERSIONS_MAX = 100;
/** Iceberg's PARTITION_DATA_ID_START - 1: the last partition field id of a table without any. */
const NO_PARTITION_FIELD = 999;

const bad = (message: string) => catalogErrors.badRequest(message);
const failed = (message: string) => catalogErrors.commitFailed(`Requirement failed: ${message}`);

function int(v: unknown, what: string): number {
  const n = typeof v === 'bigint' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isSafeInteger(n)) throw bad(`${what} must be an integer`);
  return n;
}

/** A 64-bit id as parsed (number or bigint), compared exactly. */
function id64(v: unknown, what: string): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return BigInt(v);
  throw bad(`${what} must be a 64-bit integer`);
}

function str(v: unknown, what: string): string {
  if (typeof v !== 'string' || v === '') throw bad(`${what} must be a non-empty string`);
  return v;
}

function obj(v: unknown, what: string): Json {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw bad(`${what} must be an object`);
  return v as Json;
}

function arr(v: unknown, what: string): unknown[] {
  if (!Array.isArray(v)) throw bad(`${what} must be an array`);
  return v;
}

function stringMap(v: unknown, what: string): Record<string, string> {
  const o = obj(v, what);
  for (const [k, x] of Object.entries(o)) if (typeof x !== 'string') throw bad(`${what}.${k} must be a string`);
  return o as Record<string, string>;
}

/** Order-insensitive for object keys, exact for numbers (bigint and number alike). */
function canonical(v: unknown): string {
  if (typeof v === 'bigint') return v.toString();
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (typeof v === 'object' && v !== null) {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Json)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

const sameLocation = (a: string, b: string) => stripScheme(a).replace(/\/+$/, '') === stripScheme(b).replace(/\/+$/, '');
const stripScheme = (l: string) => (l.startsWith('file:') ? l.replace(/^file:\/*/, '/') : l);
const under = (file: string, dir: string) => stripScheme(file).startsWith(`${stripScheme(dir).replace(/\/+$/, '')}/`);

/** The empty metadata a create commit builds on (TableMetadata.buildFromEmpty). */
function emptyMetadata(now: number): Json {
  return {
    'format-version': 2,
    'last-sequence-number': 0,
    'last-updated-ms': now,
    'last-column-id': 0,
    'current-schema-id': -1,
    schemas: [],
    'default-spec-id': -1,
    'partition-specs': [],
    'last-partition-id': NO_PARTITION_FIELD,
    'default-sort-order-id': -1,
    'sort-orders': [],
    properties: {},
    'current-snapshot-id': -1,
    refs: {},
    snapshots: [],
    statistics: [],
    'partition-statistics': [],
    'snapshot-log': [],
    'metadata-log': [],
  };
}

// ------------------------------------------------------------ requirements

function refSnapshot(meta: Json, name: string): { type: string; id: bigint } | null {
  const refs = (meta['refs'] as Record<string, Json> | undefined) ?? {};
  const ref = refs[name];
  if (ref) return { type: String(ref['type'] ?? 'branch'), id: id64(ref['snapshot-id'], 'snapshot-id') };
  // Metadata from before refs existed names main only through current-snapshot-id.
  const current = meta['current-snapshot-id'];
  if (name === 'main' && current !== undefined && current !== null && id64(current, 'current-snapshot-id') !== -1n) {
    return { type: 'branch', id: id64(current, 'current-snapshot-id') };
  }
  return null;
}

/** Checks a commit's requirements (UpdateRequirement.validate); throws 409 for the first that fails. */
export function checkRequirements(base: Json | null, requirements: readonly Json[]): void {
  for (const r of requirements) {
    const type = r['type'];
    if (type === 'assert-create') {
      if (base !== null) throw failed('table already exists');
      continue;
    }
    const expect = (field: string, metaKey: string, what: string) => {
      if (!base) throw failed('current table metadata is missing');
      const want = int(r[field], field);
      const have = int(base[metaKey], metaKey);
      if (want !== have) throw failed(`${what} changed: expected id ${want} != ${have}`);
    };
    switch (type) {
      case 'assert-table-uuid': {
        if (!base) throw failed('current table metadata is missing');
        const want = str(r['uuid'], 'uuid');
        if (String(base['table-uuid']).toLowerCase() !== want.toLowerCase()) throw failed(`UUID does not match: expected ${want} != ${String(base['table-uuid'])}`);
        break;
      }
      case 'assert-ref-snapshot-id': {
        if (!base) throw failed('current table metadata is missing');
        const name = str(r['ref'], 'ref');
        const want = r['snapshot-id'] === null || r['snapshot-id'] === undefined ? null : id64(r['snapshot-id'], 'snapshot-id');
        const ref = refSnapshot(base, name);
        if (ref) {
          if (want === null) throw failed(`${ref.type} ${name} was created concurrently`);
          if (want !== ref.id) throw failed(`${ref.type} ${name} has changed: expected id ${want} != ${ref.id}`);
        } else if (want !== null) {
          throw failed(`branch or tag ${name} is missing, expected ${want}`);
        }
        break;
      }
      case 'assert-last-assigned-field-id':
        expect('last-assigned-field-id', 'last-column-id', 'last assigned field id');
        break;
      case 'assert-current-schema-id':
        expect('current-schema-id', 'current-schema-id', 'current schema');
        break;
      case 'assert-last-assigned-partition-id':
        expect('last-assigned-partition-id', 'last-partition-id', 'last assigned partition id');
        break;
      case 'assert-default-spec-id':
        expect('default-spec-id', 'default-spec-id', 'default partition spec');
        break;
      case 'assert-default-sort-order-id':
        expect('default-sort-order-id', 'default-sort-order-id', 'default sort order');
        break;
      default:
        throw bad(`unknown commit requirement ${JSON.stringify(type)}`);
    }
  }
}

// ------------------------------------------------------------ updates

/** What one commit has added so far: `-1` in a set-* update names the last one added. */
interface Added {
  schema: number | null;
  spec: number | null;
  sortOrder: number | null;
}

function highestFieldId(type: unknown): number {
  if (typeof type !== 'object' || type === null) return 0;
  const t = type as Json;
  let max = 0;
  if (t['type'] === 'struct') for (const f of (t['fields'] as Json[]) ?? []) max = Math.max(max, int(f['id'], 'field id'), highestFieldId(f['type']));
  if (t['type'] === 'list') max = Math.max(int(t['element-id'], 'element-id'), highestFieldId(t['element']));
  if (t['type'] === 'map') max = Math.max(int(t['key-id'], 'key-id'), int(t['value-id'], 'value-id'), highestFieldId(t['key']), highestFieldId(t['value']));
  return max;
}

/** Finds an equal entry by `same`, else adds it under the next id (TableMetadata.Builder's reuse-or-create). */
function reuseOrAdd(list: Json[], idKey: string, entry: Json, same: (a: Json, b: Json) => boolean, firstId: number): number {
  const existing = list.find((e) => same(e, entry));
  if (existing) return int(existing[idKey], idKey);
  const next = list.reduce((m, e) => Math.max(m, int(e[idKey], idKey) + 1), firstId);
  list.push({ [idKey]: next, ...entry });
  return next;
}

function resolveLast(wanted: number, last: number | null, what: string): number {
  if (wanted !== -1) return wanted;
  if (last === null) throw bad(`cannot set the last added ${what}: none was added in this commit`);
  return last;
}

function requireFound(list: Json[], idKey: string, wanted: number, what: string): void {
  if (!list.some((e) => int(e[idKey], idKey) === wanted)) throw bad(`cannot set the current ${what} to unknown id ${wanted}`);
}

function snapshotsOf(meta: Json): Json[] {
  return meta['snapshots'] as Json[];
}

function applyUpdate(meta: Json, u: Json, added: Added, ctx: CommitContext, creating: boolean): void {
  const action = u['action'];
  switch (action) {
    case 'assign-uuid': {
      const uuid = str(u['uuid'], 'uuid');
      if (!creating && meta['table-uuid'] !== undefined && String(meta['table-uuid']).toLowerCase() !== uuid.toLowerCase()) {
        throw bad('cannot reassign the uuid of an existing table');
      }
      meta['table-uuid'] = uuid;
      return;
    }
    case 'upgrade-format-version': {
      const v = int(u['format-version'], 'format-version');
      const current = int(meta['format-version'], 'format-version');
      if (!WRITABLE_FORMATS.includes(v)) throw bad(`format version ${v} is not one this catalog writes (${WRITABLE_FORMATS.join(', ')})`);
      if (v < current && !creating) throw bad(`cannot downgrade format version ${current} to ${v}`);
      if (v === 3 && current < 3) meta['next-row-id'] = meta['next-row-id'] ?? 0;
      meta['format-version'] = v;
      return;
    }
    case 'add-schema': {
      const schema = obj(u['schema'], 'schema');
      if (schema['type'] !== undefined && schema['type'] !== 'struct') throw bad('a schema must be a struct');
      arr(schema['fields'], 'schema.fields');
      const body: Json = { type: 'struct', fields: schema['fields'] };
      // SchemaParser writes identifier-field-ids only when there are some.
      const identifiers = schema['identifier-field-ids'];
      if (identifiers !== undefined && arr(identifiers, 'identifier-field-ids').length > 0) body['identifier-field-ids'] = identifiers;
      // Schema.sameSchema: the same fields (ids, names, types, requiredness, docs) and identifier fields.
      const ids = (s: Json) => canonical({ fields: s['fields'], ids: [...((s['identifier-field-ids'] as unknown[]) ?? [])].map(String).sort() });
      const schemas = meta['schemas'] as Json[];
      const schemaId = reuseOrAdd(schemas, 'schema-id', body, (a, b) => ids(a) === ids(b), 0);
      const given = u['last-column-id'] === undefined ? 0 : int(u['last-column-id'], 'last-column-id');
      meta['last-column-id'] = Math.max(int(meta['last-column-id'], 'last-column-id'), given, highestFieldId(body));
      added.schema = schemaId;
      return;
    }
    case 'set-current-schema': {
      const wanted = resolveLast(int(u['schema-id'], 'schema-id'), added.schema, 'schema');
      requireFound(meta['schemas'] as Json[], 'schema-id', wanted, 'schema');
      meta['current-schema-id'] = wanted;
      return;
    }
    case 'add-spec': {
      const spec = obj(u['spec'], 'spec');
      let last = int(meta['last-partition-id'], 'last-partition-id');
      const fields = arr(spec['fields'], 'spec.fields').map((f) => {
        const field = { ...obj(f, 'partition field') };
        if (field['field-id'] === undefined) field['field-id'] = ++last;
        last = Math.max(last, int(field['field-id'], 'field-id'));
        return field;
      });
      const key = (s: Json) => canonical((s['fields'] as Json[]).map((f) => ({ s: f['source-id'], f: f['field-id'], n: f['name'], t: f['transform'] })));
      added.spec = reuseOrAdd(meta['partition-specs'] as Json[], 'spec-id', { fields }, (a, b) => key(a) === key(b), 0);
      meta['last-partition-id'] = last;
      return;
    }
    case 'set-default-spec': {
      const wanted = resolveLast(int(u['spec-id'], 'spec-id'), added.spec, 'partition spec');
      requireFound(meta['partition-specs'] as Json[], 'spec-id', wanted, 'partition spec');
      meta['default-spec-id'] = wanted;
      return;
    }
    case 'add-sort-order': {
      const order = obj(u['sort-order'], 'sort-order');
      const fields = arr(order['fields'], 'sort-order.fields');
      const orders = meta['sort-orders'] as Json[];
      if (fields.length === 0) {
        // The unsorted order is always id 0.
        if (!orders.some((o) => int(o['order-id'], 'order-id') === 0)) orders.push({ 'order-id': 0, fields: [] });
        added.sortOrder = 0;
        return;
      }
      added.sortOrder = reuseOrAdd(orders, 'order-id', { fields }, (a, b) => canonical(a['fields']) === canonical(b['fields']), 1);
      return;
    }
    case 'set-default-sort-order': {
      const wanted = resolveLast(int(u['sort-order-id'], 'sort-order-id'), added.sortOrder, 'sort order');
      requireFound(meta['sort-orders'] as Json[], 'order-id', wanted, 'sort order');
      meta['default-sort-order-id'] = wanted;
      return;
    }
    case 'add-snapshot': {
      const snap = { ...obj(u['snapshot'], 'snapshot') };
      const sid = id64(snap['snapshot-id'], 'snapshot-id');
      if (snapshotsOf(meta).some((s) => id64(s['snapshot-id'], 'snapshot-id') === sid)) throw bad(`snapshot ${sid} already exists`);
      const list = str(snap['manifest-list'], 'manifest-list');
      if (ctx.pinnedLocation !== undefined && !under(list, ctx.pinnedLocation)) throw bad(`the manifest list ${list} is outside the table's location`);
      const summary = obj(snap['summary'], 'snapshot summary');
      str(summary['operation'], 'summary.operation');
      const seq = int(snap['sequence-number'] ?? 0, 'sequence-number');
      const lastSeq = int(meta['last-sequence-number'], 'last-sequence-number');
      if (seq <= lastSeq && snap['parent-snapshot-id'] !== undefined && snap['parent-snapshot-id'] !== null) {
        throw bad(`cannot add snapshot with sequence number ${seq} older than last sequence number ${lastSeq}`);
      }
      int(snap['timestamp-ms'], 'timestamp-ms');
      if (int(meta['format-version'], 'format-version') >= 3) {
        const nextRow = int(meta['next-row-id'] ?? 0, 'next-row-id');
        const firstRow = snap['first-row-id'] === undefined ? nextRow : int(snap['first-row-id'], 'first-row-id');
        if (firstRow < nextRow) throw bad(`cannot add a snapshot whose first-row-id ${firstRow} is before next-row-id ${nextRow}`);
        snap['first-row-id'] = firstRow;
        meta['next-row-id'] = firstRow + int(snap['added-rows'] ?? 0, 'added-rows');
      }
      snapshotsOf(meta).push(snap);
      meta['last-sequence-number'] = Math.max(lastSeq, seq);
      return;
    }
    case 'set-snapshot-ref': {
      const name = str(u['ref-name'], 'ref-name');
      const type = u['type'];
      if (type !== 'branch' && type !== 'tag') throw bad('a ref is a branch or a tag');
      if (name === 'main' && type !== 'branch') throw bad('main must be a branch');
      const sid = id64(u['snapshot-id'], 'snapshot-id');
      const snap = snapshotsOf(meta).find((s) => id64(s['snapshot-id'], 'snapshot-id') === sid);
      if (!snap) throw bad(`cannot set ${name} to unknown snapshot ${sid}`);
      const ref: Json = { 'snapshot-id': snap['snapshot-id'], type };
      for (const k of ['max-ref-age-ms', 'max-snapshot-age-ms', 'min-snapshots-to-keep']) if (u[k] !== undefined && u[k] !== null) ref[k] = u[k];
      const refs = meta['refs'] as Record<string, Json>;
      if (refs[name] && canonical(refs[name]) === canonical(ref)) return;
      refs[name] = ref;
      if (name === 'main') {
        meta['current-snapshot-id'] = snap['snapshot-id'];
        (meta['snapshot-log'] as Json[]).push({ 'timestamp-ms': snap['timestamp-ms'], 'snapshot-id': snap['snapshot-id'] });
      }
      return;
    }
    case 'remove-snapshot-ref': {
      const name = str(u['ref-name'], 'ref-name');
      delete (meta['refs'] as Record<string, Json>)[name];
      if (name === 'main') meta['current-snapshot-id'] = -1;
      return;
    }
    case 'remove-snapshots': {
      const gone = new Set(arr(u['snapshot-ids'], 'snapshot-ids').map((x) => id64(x, 'snapshot id')));
      meta['snapshots'] = snapshotsOf(meta).filter((s) => !gone.has(id64(s['snapshot-id'], 'snapshot-id')));
      const refs = meta['refs'] as Record<string, Json>;
      for (const [name, ref] of Object.entries(refs)) {
        if (!gone.has(id64(ref['snapshot-id'], 'snapshot-id'))) continue;
        delete refs[name];
        if (name === 'main') meta['current-snapshot-id'] = -1;
      }
      for (const key of ['statistics', 'partition-statistics']) {
        meta[key] = ((meta[key] as Json[] | undefined) ?? []).filter((s) => !gone.has(id64(s['snapshot-id'], 'snapshot-id')));
      }
      // An entry of a removed snapshot makes the history before it untrue (TableMetadata.updateSnapshotLog).
      const log: Json[] = [];
      for (const e of meta['snapshot-log'] as Json[]) {
        if (gone.has(id64(e['snapshot-id'], 'snapshot-id'))) log.length = 0;
        else log.push(e);
      }
      meta['snapshot-log'] = log;
      return;
    }
    case 'set-location': {
      const location = str(u['location'], 'location');
      if (ctx.pinnedLocation !== undefined && !sameLocation(location, ctx.pinnedLocation)) throw bad(`the table's location is ${ctx.pinnedLocation}; it cannot be moved`);
      meta['location'] = location;
      return;
    }
    case 'set-properties': {
      const updates = stringMap(u['updates'], 'updates');
      if (ctx.pinnedLocation !== undefined) {
        for (const k of PATH_PROPERTIES) if (Object.hasOwn(updates, k) && !under(updates[k]!, ctx.pinnedLocation)) throw bad(`property ${k} must lie under the table's location`);
      }
      meta['properties'] = { ...(meta['properties'] as Record<string, string>), ...updates };
      return;
    }
    case 'remove-properties': {
      const props = { ...(meta['properties'] as Record<string, string>) };
      for (const k of arr(u['removals'], 'removals')) delete props[String(k)];
      meta['properties'] = props;
      return;
    }
    case 'set-statistics':
    case 'set-partition-statistics': {
      const key = action === 'set-statistics' ? 'statistics' : 'partition-statistics';
      const stats = obj(u[key], key);
      const sid = id64(stats['snapshot-id'], 'snapshot-id');
      meta[key] = [...((meta[key] as Json[] | undefined) ?? []).filter((s) => id64(s['snapshot-id'], 'snapshot-id') !== sid), stats];
      return;
    }
    case 'remove-statistics':
    case 'remove-partition-statistics': {
      const key = action === 'remove-statistics' ? 'statistics' : 'partition-statistics';
      const sid = id64(u['snapshot-id'], 'snapshot-id');
      meta[key] = ((meta[key] as Json[] | undefined) ?? []).filter((s) => id64(s['snapshot-id'], 'snapshot-id') !== sid);
      return;
    }
    case 'remove-partition-specs': {
      const gone = new Set(arr(u['spec-ids'], 'spec-ids').map((x) => int(x, 'spec id')));
      if (gone.has(int(meta['default-spec-id'], 'default-spec-id'))) throw bad('cannot remove the default partition spec');
      meta['partition-specs'] = (meta['partition-specs'] as Json[]).filter((s) => !gone.has(int(s['spec-id'], 'spec-id')));
      return;
    }
    case 'remove-schemas': {
      const gone = new Set(arr(u['schema-ids'], 'schema-ids').map((x) => int(x, 'schema id')));
      if (gone.has(int(meta['current-schema-id'], 'current-schema-id'))) throw bad('cannot remove the current schema');
      meta['schemas'] = (meta['schemas'] as Json[]).filter((s) => !gone.has(int(s['schema-id'], 'schema-id')));
      return;
    }
    case 'add-encryption-key': {
      const key = obj(u['encryption-key'], 'encryption-key');
      str(key['key-id'], 'key-id');
      meta['encryption-keys'] = [...((meta['encryption-keys'] as Json[] | undefined) ?? []).filter((k) => k['key-id'] !== key['key-id']), key];
      return;
    }
    case 'remove-encryption-key': {
      const keyId = str(u['key-id'], 'key-id');
      meta['encryption-keys'] = ((meta['encryption-keys'] as Json[] | undefined) ?? []).filter((k) => k['key-id'] !== keyId);
      return;
    }
    default:
      throw bad(`unknown table update action ${JSON.stringify(action)}`);
  }
}

/** Java's key order, then any other key as it came: the files read like Iceberg's own. */
const KEY_ORDER = [
  'format-version',
  'table-uuid',
  'location',
  'last-sequence-number',
  'last-updated-ms',
  'last-column-id',
  'current-schema-id',
  'schemas',
  'default-spec-id',
  'partition-specs',
  'last-partition-id',
  'default-sort-order-id',
  'sort-orders',
  'properties',
  'current-snapshot-id',
  'refs',
  'snapshots',
  'statistics',
  'partition-statistics',
  'snapshot-log',
  'metadata-log',
];

function ordered(meta: Json): Json {
  const out: Json = {};
  for (const k of KEY_ORDER) if (meta[k] !== undefined) out[k] = meta[k];
  for (const [k, v] of Object.entries(meta)) if (!(k in out) && v !== undefined) out[k] = v;
  return out;
}

/** A created table must be complete: a current schema, a default spec and sort order, a location and a uuid. */
function completeNew(meta: Json, ctx: CommitContext): void {
  if ((meta['schemas'] as Json[]).length === 0 || int(meta['current-schema-id'], 'current-schema-id') < 0) throw bad('a new table needs a current schema');
  if ((meta['partition-specs'] as Json[]).length === 0) meta['partition-specs'] = [{ 'spec-id': 0, fields: [] }];
  if (int(meta['default-spec-id'], 'default-spec-id') < 0) meta['default-spec-id'] = int((meta['partition-specs'] as Json[])[0]!['spec-id'], 'spec-id');
  if ((meta['sort-orders'] as Json[]).length === 0) meta['sort-orders'] = [{ 'order-id': 0, fields: [] }];
  if (int(meta['default-sort-order-id'], 'default-sort-order-id') < 0) meta['default-sort-order-id'] = int((meta['sort-orders'] as Json[])[0]!['order-id'], 'order-id');
  if (meta['location'] === undefined) {
    if (ctx.pinnedLocation === undefined) throw bad('a new table needs a location');
    meta['location'] = ctx.pinnedLocation;
  }
  if (meta['table-uuid'] === undefined) meta['table-uuid'] = ctx.newUuid();
}

export interface AppliedCommit {
  metadata: Json;
  /** false when the updates changed nothing (no new metadata file is needed). */
  changed: boolean;
}

/**
 * The table's metadata after a commit: requirements checked (409), updates
 * applied (400), and, for an existing table, the metadata file it replaces
 * appended to `metadata-log` (trimmed to write.metadata.previous-versions-max).
 * `base` is null when the table does not exist yet (the commit must create it).
 */
export function applyCommit(
  base: { metadata: Json; location: string } | null,
  commit: { requirements: readonly Json[]; updates: readonly Json[] },
  ctx: CommitContext,
): AppliedCommit {
  checkRequirements(base?.metadata ?? null, commit.requirements);
  if (base === null && !commit.requirements.some((r) => r['type'] === 'assert-create')) throw bad('a commit to a table that does not exist must assert-create');
  if (base !== null && !WRITABLE_FORMATS.includes(int(base.metadata['format-version'], 'format-version'))) {
    throw bad(`format version ${String(base.metadata['format-version'])} tables are read-only here: upgrade the table to version 2 first`);
  }
  const meta: Json = base ? structuredClone(base.metadata) : emptyMetadata(ctx.now);
  for (const key of ['schemas', 'partition-specs', 'sort-orders', 'snapshots', 'snapshot-log', 'metadata-log'] as const) meta[key] = meta[key] ?? [];
  meta['refs'] = meta['refs'] ?? {};
  meta['properties'] = meta['properties'] ?? {};
  const added: Added = { schema: null, spec: null, sortOrder: null };
  const before = base ? canonical(base.metadata) : null;
  for (const u of commit.updates) applyUpdate(meta, obj(u, 'update'), added, ctx, base === null);
  if (base === null) completeNew(meta, ctx);
  const changed = before === null || canonical(meta) !== before;
  if (!changed) return { metadata: base!.metadata, changed: false };
  meta['last-updated-ms'] = ctx.now;
  if (base !== null) {
    const max = Number((meta['properties'] as Record<string, string>)['write.metadata.previous-versions-max'] ?? DEFAULT_PREVIOUS_VERSIONS_MAX);
    const log = [...(meta['metadata-log'] as Json[]), { 'timestamp-ms': base.metadata['last-updated-ms'], 'metadata-file': base.location }];
    meta['metadata-log'] = Number.isSafeInteger(max) && max >= 1 ? log.slice(-max) : log;
  }
  return { metadata: ordered(meta), changed: true };
}
