/**
 * One session's view of the catalog through the loopback endpoint: every
 * request made to the real catalog as the session's caller (Polaris with the
 * caller's token, or the embedded catalog deciding with the caller's
 * identity), after the session's own gate (`authorize`) has had its say.
 *
 * What it adds to plain forwarding, each for a failure seen with DuckDB's
 * iceberg extension (reference: iceberg-writes.md §3):
 *  - a create gets a location no other table had (the catalog pins it) and its
 *    `metadata` and `data` folders exist before DuckDB writes into them;
 *  - a multi-table commit becomes one commit per table (a concurrent change is
 *    a 409, never a lost append); the endpoint does not advertise it, so DuckDB
 *    commits table by table itself;
 *  - a commit the catalog refused leaves no files behind: the manifest list,
 *    manifests and data files its snapshots added (under the table's location
 *    only), or the whole folder of a create that never committed;
 *  - a commit whose outcome is unknown (catalog unreachable) is decided by
 *    reloading the table: committed when main is at the new snapshot.
 * The session records what happened (tables created, committed with their
 * snapshot summaries, dropped, renamed; commits refused) for the SQL side.
 */
import { mkdir, readdir, rm } from 'node:fs/promises';
import {
  CatalogError,
  catalogErrors,
  renewingOnce,
  type Caller,
  type CommittedTable,
  type CreatedTable,
  type JsonObject,
  type Namespace,
  type TableCommit,
  type TableIdent,
  type WritableCatalog,
} from '../iceberg/api.js';
import { hiddenByCatalog } from '../catalogGate.js';
import { filesWrittenBy, localFile, removeFilesUnder } from '../iceberg/tableFiles.js';
import { commitOperations } from '../polaris/authorization.js';
import { ENDPOINTS, type Route } from './routes.js';

/**
 * Iceberg's default data file size. DuckDB's writer rotates files at 8 MiB
 * when a table does not say: for wide rows one row group per file, ~60 % more
 * CPU for a large CTAS than one file (bench/README.md, Writes). A table
 * created through the endpoint says, unless its creator already did.
 */
export const TARGET_FILE_SIZE_PROPERTY = 'write.target-file-size-bytes';
const DEFAULT_TARGET_FILE_SIZE = String(512 * 2 ** 20);

/** A request as the session's gate sees it: the Polaris operation(s) it is, and what it names. */
export interface LoopbackOperation {
  /** The Polaris operation (the first of `operations` for a commit checked as several). */
  operation: string;
  operations: readonly string[];
  kind: 'catalog' | 'namespace' | 'table' | 'view';
  namespace: Namespace;
  name?: string;
  /** A rename's destination. */
  destination?: TableIdent;
}

/** `hide`: answered as if the entity did not exist (404); `forbid`: 403. */
export type LoopbackDecision = 'allow' | 'forbid' | 'hide';

export interface SnapshotSummary {
  snapshotId: bigint;
  parentSnapshotId: bigint | null;
  /** append, overwrite, delete, replace */
  operation: string;
  addedRecords: bigint;
  deletedRecords: bigint;
  addedPositionDeletes: bigint;
  totalRecords: bigint | null;
  /** The summary as the writer sent it. */
  summary: Record<string, string>;
}

export type LoopbackEvent =
  | { kind: 'namespace-created' | 'namespace-dropped'; namespace: Namespace }
  | { kind: 'table-staged'; table: TableIdent; location: string }
  | { kind: 'table-committed'; table: TableIdent; created: boolean; metadataLocation: string; snapshots: SnapshotSummary[]; schemaChanged: boolean }
  | { kind: 'commit-failed'; table: TableIdent; status: number | undefined; type: string | undefined; message: string; conflict: boolean; removedFiles: number }
  | { kind: 'create-failed'; table: TableIdent; status: number | undefined; type: string | undefined; message: string }
  | { kind: 'table-dropped'; table: TableIdent; purge: boolean }
  | { kind: 'renamed'; what: 'table' | 'view'; from: TableIdent; to: TableIdent }
  | { kind: 'view-dropped'; view: TableIdent };

export interface LoopbackSessionOptions {
  /** The session's own gate, asked before the catalog is. */
  authorize?: (op: LoopbackOperation) => LoopbackDecision | Promise<LoopbackDecision>;
  /** Told every event as it happens. */
  onEvent?: (e: LoopbackEvent) => void;
  /** Told every table commit that the catalog accepted (a shorthand for the `table-committed` event). */
  onCommit?: (table: TableIdent, committed: { metadataLocation: string; snapshots: SnapshotSummary[]; created: boolean }) => void;
}

/** A catalog the endpoint can commit several tables to atomically (the embedded one). */
type AtomicCatalog = WritableCatalog & { commitTables?: (caller: Caller, changes: readonly (TableIdent & { commit: TableCommit })[]) => Promise<CommittedTable[]> };

export interface Answer {
  status: number;
  body?: unknown;
}

const MAX_EVENTS = 10_000;
const key = (t: TableIdent) => [...t.namespace, t.name].join('\x1f');
const dotted = (t: TableIdent) => [...t.namespace, t.name].join('.');

function big(v: unknown): bigint | null {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return BigInt(v);
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return BigInt(v);
  return null;
}

/** The snapshots a commit adds, with the row counts of their summaries. */
export function snapshotSummaries(updates: readonly JsonObject[]): SnapshotSummary[] {
  const out: SnapshotSummary[] = [];
  for (const u of updates) {
    if (u['action'] !== 'add-snapshot') continue;
    const snap = u['snapshot'] as JsonObject;
    const summary = Object.fromEntries(Object.entries((snap['summary'] as JsonObject | undefined) ?? {}).map(([k, v]) => [k, String(v)]));
    out.push({
      snapshotId: big(snap['snapshot-id'])!,
      parentSnapshotId: big(snap['parent-snapshot-id']),
      operation: summary['operation'] ?? '',
      addedRecords: big(summary['added-records']) ?? 0n,
      deletedRecords: big(summary['deleted-records']) ?? 0n,
      addedPositionDeletes: big(summary['added-position-deletes']) ?? 0n,
      totalRecords: big(summary['total-records']),
      summary,
    });
  }
  return out;
}

/** Only storage settings reach the engine (never a catalog token a server might put in a table's config). */
const STORAGE_KEY = /^(s3\.|client\.region$|gcs\.|adls\.)/;
const storageOnly = (config: Record<string, string>) => Object.fromEntries(Object.entries(config).filter(([k]) => STORAGE_KEY.test(k)));

export class LoopbackSession {
  private readonly events: LoopbackEvent[] = [];
  /** Table locations seen in this session (for the clean-up of a refused commit). */
  private readonly locations = new Map<string, string>();
  /** Staged creates not yet committed: their folders go if the session ends without the commit. */
  private readonly staged = new Map<string, string>();

  constructor(
    private readonly catalog: AtomicCatalog,
    private readonly caller: Caller,
    private readonly opts: LoopbackSessionOptions,
  ) {}

  /** Every event so far, and forgets them. */
  takeEvents(): LoopbackEvent[] {
    return this.events.splice(0);
  }

  private emit(e: LoopbackEvent): void {
    this.events.push(e);
    if (this.events.length > MAX_EVENTS) this.events.shift();
    this.opts.onEvent?.(e);
    if (e.kind === 'table-committed') this.opts.onCommit?.(e.table, { metadataLocation: e.metadataLocation, snapshots: e.snapshots, created: e.created });
  }

  private async gate(op: Omit<LoopbackOperation, 'operations'> & { operations?: readonly string[] }): Promise<void> {
    if (!this.opts.authorize) return;
    const full: LoopbackOperation = { ...op, operations: op.operations ?? [op.operation] };
    const decision = await this.opts.authorize(full);
    if (decision === 'allow') return;
    if (decision === 'forbid') throw catalogErrors.forbidden(this.caller.user, full.operation);
    if (op.kind === 'table' && op.name !== undefined) throw catalogErrors.noSuchTable(op.namespace, op.name);
    if (op.kind === 'view' && op.name !== undefined) throw catalogErrors.noSuchView(op.namespace, op.name);
    throw catalogErrors.noSuchNamespace(op.namespace);
  }

  /** The session's folders of creates that never committed go (a rolled-back CREATE TABLE AS). */
  async close(): Promise<void> {
    for (const location of this.staged.values()) await removeUncommittedFolder(location);
    this.staged.clear();
  }

  /**
   * A read renews the caller's token once after a 401, as the read path does
   * (the catalog's writes do it themselves), and what the caller may not load
   * is answered exactly as what does not exist: DuckDB would otherwise repeat
   * the catalog's 403 and tell a denied table from a missing one.
   */
  private async read<T>(fn: () => Promise<T>, missing: () => CatalogError): Promise<T> {
    try {
      return await renewingOnce(this.caller, fn);
    } catch (e) {
      if (hiddenByCatalog(e)) throw missing();
      throw e;
    }
  }

  /** A change refused (403) on a table the caller cannot even load is answered as for a missing table (404). */
  private async hidingUnloadable<T>(table: TableIdent, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      if (!(e instanceof CatalogError) || e.kind !== 'forbidden') throw e;
      try {
        await this.catalog.loadTable(this.caller, table.namespace, table.name);
      } catch (load) {
        if (load instanceof CatalogError && (load.kind === 'forbidden' || load.kind === 'not-found')) throw catalogErrors.noSuchTable(table.namespace, table.name);
      }
      throw e;
    }
  }

  async handle(r: Route): Promise<Answer> {
    const c = this.catalog;
    const caller = this.caller;
    switch (r.kind) {
      case 'config':
        return { status: 200, body: { defaults: {}, overrides: { 'namespace-separator': '%1F' }, endpoints: ENDPOINTS } };
      case 'metrics':
        return { status: 204 };
      case 'list-namespaces': {
        await this.gate({ operation: 'LIST_NAMESPACES', kind: r.parent.length === 0 ? 'catalog' : 'namespace', namespace: r.parent });
        return { status: 200, body: { namespaces: await this.read(() => c.listNamespaces(caller, r.parent), () => catalogErrors.noSuchNamespace(r.parent)) } };
      }
      case 'create-namespace': {
        await this.gate({ operation: 'CREATE_NAMESPACE', kind: 'namespace', namespace: r.namespace });
        const properties = await c.createNamespace(caller, r.namespace, r.properties);
        this.emit({ kind: 'namespace-created', namespace: r.namespace });
        return { status: 200, body: { namespace: r.namespace, properties } };
      }
      case 'load-namespace': {
        await this.gate({ operation: 'LOAD_NAMESPACE_METADATA', kind: 'namespace', namespace: r.namespace });
        const properties = await this.read(() => c.loadNamespace(caller, r.namespace), () => catalogErrors.noSuchNamespace(r.namespace));
        return r.head ? { status: 204 } : { status: 200, body: { namespace: r.namespace, properties } };
      }
      case 'drop-namespace': {
        await this.gate({ operation: 'DROP_NAMESPACE', kind: 'namespace', namespace: r.namespace });
        await c.dropNamespace(caller, r.namespace);
        this.emit({ kind: 'namespace-dropped', namespace: r.namespace });
        return { status: 204 };
      }
      case 'list': {
        await this.gate({ operation: r.what === 'tables' ? 'LIST_TABLES' : 'LIST_VIEWS', kind: 'namespace', namespace: r.namespace });
        const names = await this.read(
          () => (r.what === 'tables' ? c.listTables(caller, r.namespace) : c.listViews(caller, r.namespace)),
          () => catalogErrors.noSuchNamespace(r.namespace),
        );
        return { status: 200, body: { identifiers: names.map((name) => ({ namespace: r.namespace, name })) } };
      }
      case 'create-table':
        return this.createTable(r.namespace, r.body);
      case 'load-table': {
        await this.gate({ operation: 'LOAD_TABLE', kind: 'table', namespace: r.table.namespace, name: r.table.name });
        const t = await this.read(
          () => c.loadTable(caller, r.table.namespace, r.table.name),
          () => catalogErrors.noSuchTable(r.table.namespace, r.table.name),
        );
        this.locations.set(key(r.table), t.metadata.location);
        if (r.head) return { status: 204 };
        if (!t.raw) throw new CatalogError('bad-response', 'the catalog did not return the table metadata as it holds it');
        return { status: 200, body: loadTableResult(t.metadataLocation, t.raw, t.credentials) };
      }
      case 'commit-table': {
        const committed = await this.commit(r.table, { requirements: r.requirements, updates: r.updates });
        return { status: 200, body: { 'metadata-location': committed.metadataLocation, metadata: committed.metadata } };
      }
      case 'commit-transaction':
        return this.commitTransaction(r.changes);
      case 'drop-table': {
        const operation = r.purge ? 'DROP_TABLE_WITH_PURGE' : 'DROP_TABLE_WITHOUT_PURGE';
        await this.gate({ operation, kind: 'table', namespace: r.table.namespace, name: r.table.name });
        await this.hidingUnloadable(r.table, () => c.dropTable(caller, r.table.namespace, r.table.name, { purge: r.purge }));
        this.locations.delete(key(r.table));
        this.emit({ kind: 'table-dropped', table: r.table, purge: r.purge });
        return { status: 204 };
      }
      case 'rename': {
        const operation = r.what === 'table' ? 'RENAME_TABLE' : 'RENAME_VIEW';
        await this.gate({ operation, kind: r.what, namespace: r.from.namespace, name: r.from.name, destination: r.to });
        if (r.what === 'table') await this.hidingUnloadable(r.from, () => c.renameTable(caller, r.from, r.to));
        else await c.renameView(caller, r.from, r.to);
        this.emit({ kind: 'renamed', what: r.what, from: r.from, to: r.to });
        return { status: 204 };
      }
      case 'load-view': {
        await this.gate({ operation: 'LOAD_VIEW', kind: 'view', namespace: r.view.namespace, name: r.view.name });
        const v = await this.read(
          () => c.loadView(caller, r.view.namespace, r.view.name),
          () => catalogErrors.noSuchView(r.view.namespace, r.view.name),
        );
        if (r.head) return { status: 204 };
        if (!v.raw) throw new CatalogError('bad-response', 'the catalog did not return the view metadata as it holds it');
        return { status: 200, body: { 'metadata-location': v.metadataLocation, metadata: v.raw, config: {} } };
      }
      case 'drop-view': {
        await this.gate({ operation: 'DROP_VIEW', kind: 'view', namespace: r.view.namespace, name: r.view.name });
        await c.dropView(caller, r.view.namespace, r.view.name);
        this.emit({ kind: 'view-dropped', view: r.view });
        return { status: 204 };
      }
    }
  }

  private async createTable(namespace: Namespace, body: Extract<Route, { kind: 'create-table' }>['body']): Promise<Answer> {
    const stage = body['stage-create'] === true;
    const table = { namespace, name: body.name };
    await this.gate({ operation: stage ? 'CREATE_TABLE_STAGED' : 'CREATE_TABLE_DIRECT', kind: 'table', namespace, name: body.name });
    // The location is the catalog's to pin (unique to this table): a client's is not taken.
    let created: CreatedTable;
    try {
      created = await this.catalog.createTable(this.caller, namespace, {
        name: body.name,
        schema: body.schema,
        ...(body['partition-spec'] ? { partitionSpec: body['partition-spec'] } : {}),
        ...(body['write-order'] ? { writeOrder: body['write-order'] } : {}),
        properties: { [TARGET_FILE_SIZE_PROPERTY]: DEFAULT_TARGET_FILE_SIZE, ...body.properties },
        stageCreate: stage,
      });
    } catch (e) {
      // DuckDB reports a refused create in its own words: the SQL side answers from this event
      if (e instanceof CatalogError) this.emit({ kind: 'create-failed', table, status: e.status, type: e.type, message: e.message });
      throw e;
    }
    const location = String(created.metadata['location']);
    this.locations.set(key(table), location);
    // DuckDB writes data and manifests before the create commits (CREATE TABLE AS): the folders must exist.
    const local = localFile(location);
    if (local !== null) {
      await mkdir(`${local}/metadata`, { recursive: true });
      await mkdir(`${local}/data`, { recursive: true });
    }
    if (stage) {
      // A create of the same name staged before and never committed was rolled back: its folder goes now.
      const earlier = this.staged.get(key(table));
      if (earlier !== undefined && earlier !== location) await removeUncommittedFolder(earlier);
      this.staged.set(key(table), location);
      this.emit({ kind: 'table-staged', table, location });
    } else {
      this.emit({ kind: 'table-committed', table, created: true, metadataLocation: created.metadataLocation!, snapshots: [], schemaChanged: false });
    }
    return { status: 200, body: loadTableResult(created.metadataLocation, created.metadata, created.credentials) };
  }

  private async commit(table: TableIdent, commit: TableCommit): Promise<CommittedTable> {
    const { level, operations } = commitOperations(
      commit.requirements.map((r) => String(r['type'])),
      commit.updates.map((u) => String(u['action'])),
    );
    await this.gate({ operation: operations[0]!, operations, kind: level === 'namespace' ? 'namespace' : 'table', namespace: table.namespace, name: table.name });
    let committed: CommittedTable;
    try {
      const send = () => this.catalog.commitTable(this.caller, table.namespace, table.name, commit);
      // A create's refusal is about the namespace (table-create): nothing to hide.
      committed = await (level === 'namespace' ? send() : this.hidingUnloadable(table, send));
    } catch (e) {
      committed = await this.afterFailedCommit(table, commit, e);
    }
    this.committed(table, commit, committed);
    return committed;
  }

  private committed(table: TableIdent, commit: TableCommit, committed: CommittedTable): void {
    const created = this.staged.delete(key(table));
    this.locations.set(key(table), String(committed.metadata['location']));
    this.emit({
      kind: 'table-committed',
      table,
      created,
      metadataLocation: committed.metadataLocation,
      snapshots: snapshotSummaries(commit.updates),
      schemaChanged: commit.updates.some((u) => u['action'] === 'set-current-schema') && !created,
    });
  }

  /**
   * A refused commit (4xx) did not happen: its files go and the error is
   * answered. An unknown outcome (the catalog unreachable, 5xx) is decided by
   * reloading the table; still unknown, nothing is deleted.
   */
  private async afterFailedCommit(table: TableIdent, commit: TableCommit, e: unknown): Promise<CommittedTable> {
    if (!(e instanceof CatalogError)) throw e;
    const definite = e.status !== undefined && e.status >= 400 && e.status < 500 && e.status !== 401 && e.status !== 419;
    if (!definite) {
      const landed = await this.landed(table, commit);
      if (landed === 'unknown') throw e;
      if (landed !== 'no') return landed;
    }
    let removed = 0;
    const creating = commit.requirements.some((r) => r['type'] === 'assert-create');
    const location = this.staged.get(key(table)) ?? this.locations.get(key(table));
    if (location !== undefined && localFile(location) !== null) {
      if (creating && this.staged.has(key(table))) {
        removed = await removeUncommittedFolder(location);
      } else {
        for (const u of commit.updates) {
          if (u['action'] !== 'add-snapshot') continue;
          removed += await removeFilesUnder(await filesWrittenBy(u['snapshot'] as JsonObject), location);
        }
      }
    }
    this.emit({ kind: 'commit-failed', table, status: e.status, type: e.type, message: e.message, conflict: e.status === 409, removedFiles: removed });
    throw e;
  }

  /** After an unknown outcome: did main move to the commit's snapshot? */
  private async landed(table: TableIdent, commit: TableCommit): Promise<CommittedTable | 'no' | 'unknown'> {
    const target = [...commit.updates].reverse().find((u) => u['action'] === 'set-snapshot-ref' && u['ref-name'] === 'main');
    if (!target) return 'unknown';
    try {
      const t = await this.catalog.loadTable(this.caller, table.namespace, table.name);
      const main = t.metadata.refs['main']?.['snapshot-id'] ?? t.metadata['current-snapshot-id'];
      if (main === big(target['snapshot-id']) && t.raw) return { metadataLocation: t.metadataLocation, metadata: t.raw };
      return 'no';
    } catch {
      return 'unknown';
    }
  }

  /**
   * A multi-table commit: atomic where the catalog can do it (embedded),
   * else one commit per table in order; a failure after some tables
   * committed is 500 (their state is known to the catalog, not to the client,
   * which must not clean up).
   */
  private async commitTransaction(changes: { table: TableIdent; requirements: JsonObject[]; updates: JsonObject[] }[]): Promise<Answer> {
    const atomic = this.catalog.commitTables;
    if (atomic && changes.every((ch) => !ch.requirements.some((r) => r['type'] === 'assert-create'))) {
      for (const ch of changes) {
        const { operations } = commitOperations(ch.requirements.map((r) => String(r['type'])), ch.updates.map((u) => String(u['action'])));
        await this.gate({ operation: operations[0]!, operations, kind: 'table', namespace: ch.table.namespace, name: ch.table.name });
      }
      const commits = changes.map((ch) => ({ ...ch.table, commit: { requirements: ch.requirements, updates: ch.updates } }));
      let results: CommittedTable[];
      try {
        results = await atomic.call(this.catalog, this.caller, commits);
      } catch (e) {
        for (const ch of changes) await this.afterFailedCommit(ch.table, ch, e).catch(() => undefined);
        throw e;
      }
      changes.forEach((ch, i) => this.committed(ch.table, ch, results[i]!));
      return { status: 204 };
    }
    let done = 0;
    for (const ch of changes) {
      try {
        await this.commit(ch.table, { requirements: ch.requirements, updates: ch.updates });
        done++;
      } catch (e) {
        if (done === 0) throw e;
        throw new CatalogError('unavailable', `${done} of ${changes.length} tables were committed before ${dotted(ch.table)} failed: ${(e as Error).message}`, 500, 'CommitStateUnknownException');
      }
    }
    return { status: 204 };
  }
}

function loadTableResult(metadataLocation: string | null, metadata: JsonObject, credentials: readonly { prefix: string; config: Record<string, string> }[]): JsonObject {
  const out: JsonObject = {};
  if (metadataLocation !== null) out['metadata-location'] = metadataLocation;
  out['metadata'] = metadata;
  out['config'] = {};
  const creds = credentials.map((c) => ({ prefix: c.prefix, config: storageOnly(c.config) })).filter((c) => Object.keys(c.config).length > 0);
  if (creds.length > 0) out['storage-credentials'] = creds;
  return out;
}

/** Removes a create's folder, unless some table's metadata was committed there after all. Answers the files removed. */
async function removeUncommittedFolder(location: string): Promise<number> {
  const dir = localFile(location);
  if (dir === null) return 0;
  let meta: string[] = [];
  try {
    meta = await readdir(`${dir}/metadata`);
  } catch {
    // no metadata folder: nothing committed
  }
  if (meta.some((n) => n.endsWith('.metadata.json'))) return 0;
  const files = await listFiles(dir);
  await rm(dir, { recursive: true, force: true });
  return files;
}

async function listFiles(dir: string): Promise<number> {
  let n = 0;
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) n += e.isDirectory() ? await listFiles(`${dir}/${e.name}`) : 1;
  return n;
}
