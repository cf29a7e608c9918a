/**
 * The embedded catalog: a local warehouse in the SQL-catalog layout
 * (sqlCatalog.ts), with every call authorized as Polaris authorizes it, by the
 * authorizer it is handed (catalog/catalogGate.ts: Polaris's Ranger authorizer
 * over the polaris-service policies). Like Polaris it resolves the entity before authorizing: a missing
 * one is 404 even for a user with no grants, an existing one the user may not
 * touch is 403 (the gateway shows both as "does not exist"). The check runs
 * for missing entities too, so a denial costs what a miss costs.
 *
 * It is the catalog for writes as well: it applies a commit's requirements and
 * updates itself (tableUpdates.ts), writes the new metadata file next to the
 * table's others and moves the SQL row from the metadata the commit was based
 * on (409 when another commit moved it first). New tables and views get a
 * location of their own, `<warehouse>/<namespace>/<name>-<random>`, never one
 * a renamed or dropped table had.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { readdir, rm } from 'node:fs/promises';
import { polarisGate, type CatalogAuthorizer } from '../catalogGate.js';
import { commitOperations, polarisPath, type PolarisPath } from '../polaris/authorization.js';
import {
  CatalogError,
  catalogErrors,
  type Caller,
  type CommittedTable,
  type CreatedTable,
  type CreateTableRequest,
  type IcebergCatalog,
  type IcebergCatalogWriter,
  type JsonObject,
  type LoadedTable,
  type LoadedView,
  type Namespace,
  type TableCommit,
  type TableIdent,
  type ViewDefinition,
} from './api.js';
import { TableMetadataSchema, ViewMetadataSchema } from './metadata.js';
import { createTableUpdates, newViewMetadata, replacedViewMetadata } from './newMetadata.js';
import { SqlCatalogFile } from './sqlCatalog.js';
import { filesOfTable, isUnder, localFile, nextMetadataLocation, readMetadataFile, removeFilesUnder, writeMetadataFile } from './tableFiles.js';
import { applyCommit } from './tableUpdates.js';

export interface EmbeddedCatalogOptions {
  /** the SQLite file of the SQL catalog */
  sqliteFile: string;
  /** `catalog_name` in that file; also the catalog's name in Polaris policies */
  catalogName: string;
  /** Polaris realm (the `root` resource) */
  realm: string;
  /** directories holding the tables' files */
  warehouseRoots: readonly string[];
  /** Where new tables and views go (default: the first warehouse root); it must lie in a warehouse root. */
  warehouseLocation?: string;
  /** Decides every call (Polaris's Ranger authorizer over the polaris-service policies, records what it audits). */
  authorizer: CatalogAuthorizer;
}

const sameNs = (a: Namespace, b: Namespace) => a.length === b.length && a.every((x, i) => x === b[i]);

/** `file:///x` or `/x` → a local path. */
export function localPath(location: string): string {
  const path = localFile(location);
  if (path === null) throw new CatalogError('bad-response', `the embedded catalog reads local files only, not ${location}`);
  return path;
}

/** A namespace as the SQL layout can hold it: at least one level, none empty, none containing the '.' it joins levels with. */
function checkNamespace(ns: Namespace): void {
  if (ns.length === 0 || ns.some((l) => l === '' || l.includes('.'))) throw catalogErrors.badRequest(`Invalid namespace: ${JSON.stringify(ns)}`);
}

function checkName(name: string): void {
  if (name === '' || name.includes('/')) throw catalogErrors.badRequest(`Invalid name: ${JSON.stringify(name)}`);
}

export class EmbeddedCatalog implements IcebergCatalog, IcebergCatalogWriter {
  private readonly file: SqlCatalogFile;
  private writable: SqlCatalogFile | null = null;
  readonly storageRoots: readonly string[];

  constructor(private readonly opts: EmbeddedCatalogOptions) {
    this.file = new SqlCatalogFile(opts.sqliteFile, opts.catalogName);
    this.storageRoots = opts.warehouseRoots;
  }

  close(): void {
    this.file.close();
    this.writable?.close();
  }

  /** The read-write handle, opened at the first write (a read-only deployment never opens the file for writing). */
  private writer(): SqlCatalogFile {
    return (this.writable ??= new SqlCatalogFile(this.opts.sqliteFile, this.opts.catalogName, { writable: true }));
  }

  /** Polaris's order (catalogGate.ts polarisGate): every operation decided, then 404 for a missing entity, then 403. */
  private gate(caller: Caller, operations: readonly string[], target: PolarisPath, missing: CatalogError | null, secondary?: PolarisPath): void {
    polarisGate(this.opts.authorizer, { caller, operations, target, ...(secondary ? { secondary } : {}) }, missing);
  }

  private authorize(caller: Caller, operation: string, target: PolarisPath, exists: boolean, missing: () => CatalogError): void {
    this.gate(caller, [operation], target, exists ? null : missing());
  }

  private nsExists(ns: Namespace): boolean {
    return this.file.namespaces().some((n) => sameNs(n, ns));
  }

  private path = {
    ns: (ns: Namespace) => polarisPath.namespace(this.opts.realm, this.opts.catalogName, ns),
    nsOrCatalog: (ns: Namespace) => polarisPath.namespaceOrCatalog(this.opts.realm, this.opts.catalogName, ns),
    tableLike: (ns: Namespace, name: string) => polarisPath.tableLike(this.opts.realm, this.opts.catalogName, ns, name),
  };

  async listNamespaces(caller: Caller, parent: Namespace): Promise<string[][]> {
    this.authorize(caller, 'LIST_NAMESPACES', this.path.nsOrCatalog(parent), parent.length === 0 || this.nsExists(parent), () => catalogErrors.noSuchNamespace(parent));
    return this.file
      .namespaces()
      .filter((n) => n.length === parent.length + 1 && sameNs(n.slice(0, parent.length), parent))
      .sort((a, b) => a.join('\u001f').localeCompare(b.join('\u001f')));
  }

  async loadNamespace(caller: Caller, ns: Namespace): Promise<Record<string, string>> {
    const props = this.file.namespaceProperties(ns);
    this.authorize(caller, 'LOAD_NAMESPACE_METADATA', this.path.ns(ns), props !== null, () => catalogErrors.noSuchNamespace(ns));
    return props!;
  }

  private async list(caller: Caller, ns: Namespace, kind: 'table' | 'view'): Promise<string[]> {
    const operation = kind === 'table' ? 'LIST_TABLES' : 'LIST_VIEWS';
    this.authorize(caller, operation, this.path.ns(ns), this.nsExists(ns), () => catalogErrors.noSuchNamespace(ns));
    return this.file
      .entries(ns)
      .filter((e) => e.kind === kind)
      .map((e) => e.name);
  }

  listTables(caller: Caller, ns: Namespace): Promise<string[]> {
    return this.list(caller, ns, 'table');
  }

  listViews(caller: Caller, ns: Namespace): Promise<string[]> {
    return this.list(caller, ns, 'view');
  }

  private entryFor(caller: Caller, ns: Namespace, name: string, kind: 'table' | 'view') {
    const entry = this.file.entry(ns, name);
    const found = entry !== undefined && entry.kind === kind;
    const operation = kind === 'table' ? 'LOAD_TABLE' : 'LOAD_VIEW';
    this.authorize(caller, operation, this.path.tableLike(ns, name), found, () => (kind === 'table' ? catalogErrors.noSuchTable(ns, name) : catalogErrors.noSuchView(ns, name)));
    return entry!;
  }

  async loadTable(caller: Caller, ns: Namespace, name: string): Promise<LoadedTable> {
    const entry = this.entryFor(caller, ns, name, 'table');
    const raw = await readMetadataFile(entry.metadataLocation);
    const metadata = TableMetadataSchema.safeParse(raw);
    if (!metadata.success) throw new CatalogError('bad-response', `table metadata of ${[...ns, name].join('.')} is not valid: ${metadata.error.message}`);
    return { metadataLocation: entry.metadataLocation, metadata: metadata.data, credentials: [], raw };
  }

  async loadView(caller: Caller, ns: Namespace, name: string): Promise<LoadedView> {
    const entry = this.entryFor(caller, ns, name, 'view');
    return this.viewAt(ns, name, entry.metadataLocation);
  }

  private async viewAt(ns: Namespace, name: string, metadataLocation: string): Promise<LoadedView> {
    const raw = await readMetadataFile(metadataLocation);
    const metadata = ViewMetadataSchema.safeParse(raw);
    if (!metadata.success) throw new CatalogError('bad-response', `view metadata of ${[...ns, name].join('.')} is not valid: ${metadata.error.message}`);
    return { metadata: metadata.data, raw, metadataLocation };
  }

  // ------------------------------------------------------------ writes

  async createNamespace(caller: Caller, ns: Namespace, properties: Record<string, string> = {}): Promise<Record<string, string>> {
    checkNamespace(ns);
    const parent = ns.slice(0, -1);
    this.gate(caller, ['CREATE_NAMESPACE'], this.path.nsOrCatalog(parent), parent.length > 0 && !this.nsExists(parent) ? catalogErrors.noSuchNamespace(parent) : null);
    if (Object.hasOwn(properties, 'location') && !this.inWarehouse(properties['location']!)) throw catalogErrors.badRequest('a namespace location must lie in the warehouse');
    this.writer().addNamespace(ns, properties);
    return { ...properties };
  }

  async dropNamespace(caller: Caller, ns: Namespace): Promise<void> {
    this.gate(caller, ['DROP_NAMESPACE'], this.path.ns(ns), this.nsExists(ns) ? null : catalogErrors.noSuchNamespace(ns));
    this.writer().removeNamespace(ns);
  }

  private inWarehouse(location: string): boolean {
    return this.opts.warehouseRoots.some((root) => isUnder(location, root));
  }

  /** A location no table or view has had: the namespace's (or the warehouse's) folder, the name and a random suffix. */
  private freshLocation(ns: Namespace, name: string): string {
    const nsLocation = this.file.namespaceProperties(ns)?.['location'];
    const base = nsLocation ?? [this.opts.warehouseLocation ?? this.opts.warehouseRoots[0], ...ns].join('/');
    if (base === undefined || !this.inWarehouse(`${base}/x`)) throw catalogErrors.badRequest('the embedded catalog has no warehouse location to create tables in');
    return `${base.replace(/\/+$/, '')}/${name}-${randomBytes(6).toString('hex')}`;
  }

  /** A create may use a location only in the warehouse and where no table ever committed metadata. */
  private async checkNewLocation(location: string): Promise<void> {
    if (!this.inWarehouse(location)) throw catalogErrors.badRequest(`location ${location} is outside the warehouse`);
    let names: string[] = [];
    try {
      names = await readdir(`${localFile(location)!}/metadata`);
    } catch {
      return;
    }
    if (names.some((n) => n.endsWith('.metadata.json'))) throw catalogErrors.badRequest(`location ${location} already holds a table`);
  }

  async createTable(caller: Caller, ns: Namespace, req: CreateTableRequest): Promise<CreatedTable> {
    checkName(req.name);
    const op = req.stageCreate ? 'CREATE_TABLE_STAGED' : 'CREATE_TABLE_DIRECT';
    this.gate(caller, [op], this.path.ns(ns), this.nsExists(ns) ? null : catalogErrors.noSuchNamespace(ns));
    const taken = this.file.entry(ns, req.name);
    if (taken) throw taken.kind === 'view' ? catalogErrors.viewExists(ns, req.name) : catalogErrors.tableExists(ns, req.name);
    const location = req.location ?? this.freshLocation(ns, req.name);
    await this.checkNewLocation(location);
    const now = Date.now();
    const { metadata } = applyCommit(null, { requirements: [{ type: 'assert-create' }], updates: createTableUpdates(req, location, randomUUID()) }, { now, newUuid: randomUUID });
    if (req.stageCreate) return { metadataLocation: null, metadata, credentials: [] };
    const metadataLocation = nextMetadataLocation(location, null);
    await writeMetadataFile(metadataLocation, metadata);
    try {
      this.writer().insertEntry(ns, req.name, metadataLocation, 'table');
    } catch (e) {
      await rm(localPath(metadataLocation), { force: true });
      throw e;
    }
    return { metadataLocation, metadata, credentials: [] };
  }

  async commitTable(caller: Caller, ns: Namespace, name: string, commit: TableCommit): Promise<CommittedTable> {
    return (await this.commitTables(caller, [{ namespace: ns, name, commit }]))[0]!;
  }

  /**
   * Commits to several tables at once: every commit authorized and applied
   * first, then every new metadata file written, then every row moved in one
   * SQLite transaction (all or none). A commit with `assert-create` creates its
   * table (the end of a staged create).
   */
  async commitTables(caller: Caller, changes: readonly (TableIdent & { commit: TableCommit })[]): Promise<CommittedTable[]> {
    const planned: { ident: TableIdent; from: string | null; to: string; metadata: JsonObject; changed: boolean }[] = [];
    for (const { namespace: ns, name, commit } of changes) {
      const { level, operations } = commitOperations(
        commit.requirements.map((r) => String(r['type'])),
        commit.updates.map((u) => String(u['action'])),
      );
      const entry = this.file.entry(ns, name);
      if (level === 'namespace') {
        checkName(name);
        this.gate(caller, operations, this.path.ns(ns), this.nsExists(ns) ? null : catalogErrors.noSuchNamespace(ns));
        if (entry) throw catalogErrors.commitFailed('Requirement failed: table already exists');
        const out = applyCommit(null, commit, { now: Date.now(), newUuid: randomUUID });
        const location = String(out.metadata['location']);
        await this.checkNewLocation(location);
        checkSnapshotsUnder(out.metadata, location);
        planned.push({ ident: { namespace: ns, name }, from: null, to: nextMetadataLocation(location, null), metadata: out.metadata, changed: true });
        continue;
      }
      const found = entry !== undefined && entry.kind === 'table';
      this.gate(caller, operations, this.path.tableLike(ns, name), found ? null : catalogErrors.noSuchTable(ns, name));
      const base = await readMetadataFile(entry!.metadataLocation);
      const location = String(base['location']);
      const out = applyCommit({ metadata: base, location: entry!.metadataLocation }, commit, { now: Date.now(), newUuid: randomUUID, pinnedLocation: location });
      planned.push({ ident: { namespace: ns, name }, from: entry!.metadataLocation, to: out.changed ? nextMetadataLocation(location, entry!.metadataLocation) : entry!.metadataLocation, metadata: out.metadata, changed: out.changed });
    }
    const written: string[] = [];
    try {
      for (const p of planned) {
        if (!p.changed) continue;
        await writeMetadataFile(p.to, p.metadata);
        written.push(p.to);
      }
      const file = this.writer();
      file.transaction(() => {
        for (const p of planned) {
          if (p.from === null) file.insertEntry(p.ident.namespace, p.ident.name, p.to, 'table');
          else if (p.changed) file.swapLocations([{ ns: p.ident.namespace, name: p.ident.name, kind: 'table', from: p.from, to: p.to }]);
        }
      });
    } catch (e) {
      // Nothing points at these files: the commit did not happen.
      for (const f of written) await rm(localPath(f), { force: true });
      if (e instanceof CatalogError && e.status === 409 && e.type === 'AlreadyExistsException') throw catalogErrors.commitFailed('Requirement failed: table already exists');
      throw e;
    }
    return planned.map((p) => ({ metadataLocation: p.to, metadata: p.metadata }));
  }

  async renameTable(caller: Caller, from: TableIdent, to: TableIdent): Promise<void> {
    await this.rename(caller, from, to, 'table');
  }

  async renameView(caller: Caller, from: TableIdent, to: TableIdent): Promise<void> {
    await this.rename(caller, from, to, 'view');
  }

  private async rename(caller: Caller, from: TableIdent, to: TableIdent, kind: 'table' | 'view'): Promise<void> {
    checkName(to.name);
    const source = this.file.entry(from.namespace, from.name);
    const missing =
      source === undefined || source.kind !== kind
        ? kind === 'table'
          ? catalogErrors.noSuchTable(from.namespace, from.name)
          : catalogErrors.noSuchView(from.namespace, from.name)
        : !this.nsExists(to.namespace)
          ? catalogErrors.noSuchNamespace(to.namespace)
          : null;
    this.gate(caller, [kind === 'table' ? 'RENAME_TABLE' : 'RENAME_VIEW'], this.path.tableLike(from.namespace, from.name), missing, this.path.nsOrCatalog(to.namespace));
    this.writer().renameEntry({ ns: from.namespace, name: from.name }, { ns: to.namespace, name: to.name }, kind);
  }

  async dropTable(caller: Caller, ns: Namespace, name: string, opts: { purge: boolean }): Promise<void> {
    const entry = this.file.entry(ns, name);
    const found = entry !== undefined && entry.kind === 'table';
    this.gate(caller, [opts.purge ? 'DROP_TABLE_WITH_PURGE' : 'DROP_TABLE_WITHOUT_PURGE'], this.path.tableLike(ns, name), found ? null : catalogErrors.noSuchTable(ns, name));
    const metadataLocation = this.writer().deleteEntry(ns, name, 'table');
    if (!opts.purge || metadataLocation === null) return;
    // The row is gone first: no reader is sent to files being deleted. Only files in the table's own folder go.
    const metadata = await readMetadataFile(metadataLocation);
    const location = String(metadata['location']);
    if (!this.inWarehouse(location)) return;
    const { files } = await filesOfTable(metadata, metadataLocation);
    await removeFilesUnder(files, location);
  }

  async createView(caller: Caller, ns: Namespace, name: string, view: ViewDefinition): Promise<LoadedView> {
    checkName(name);
    this.gate(caller, ['CREATE_VIEW'], this.path.ns(ns), this.nsExists(ns) ? null : catalogErrors.noSuchNamespace(ns));
    const taken = this.file.entry(ns, name);
    if (taken) throw taken.kind === 'view' ? catalogErrors.viewExists(ns, name) : catalogErrors.tableExists(ns, name);
    const location = this.freshLocation(ns, name);
    const metadata = newViewMetadata(view, { uuid: randomUUID(), location, now: Date.now() });
    const metadataLocation = nextMetadataLocation(location, null);
    await writeMetadataFile(metadataLocation, metadata);
    try {
      this.writer().insertEntry(ns, name, metadataLocation, 'view');
    } catch (e) {
      await rm(localPath(metadataLocation), { force: true });
      throw e;
    }
    return this.viewAt(ns, name, metadataLocation);
  }

  async replaceView(caller: Caller, ns: Namespace, name: string, view: ViewDefinition): Promise<LoadedView> {
    const entry = this.file.entry(ns, name);
    const found = entry !== undefined && entry.kind === 'view';
    this.gate(caller, ['REPLACE_VIEW'], this.path.tableLike(ns, name), found ? null : catalogErrors.noSuchView(ns, name));
    const base = await readMetadataFile(entry!.metadataLocation);
    const metadata = replacedViewMetadata(base, view, Date.now());
    const metadataLocation = nextMetadataLocation(String(base['location']), entry!.metadataLocation);
    await writeMetadataFile(metadataLocation, metadata);
    try {
      this.writer().swapLocations([{ ns, name, kind: 'view', from: entry!.metadataLocation, to: metadataLocation }]);
    } catch (e) {
      await rm(localPath(metadataLocation), { force: true });
      throw e;
    }
    return this.viewAt(ns, name, metadataLocation);
  }

  async dropView(caller: Caller, ns: Namespace, name: string): Promise<void> {
    const entry = this.file.entry(ns, name);
    const found = entry !== undefined && entry.kind === 'view';
    this.gate(caller, ['DROP_VIEW'], this.path.tableLike(ns, name), found ? null : catalogErrors.noSuchView(ns, name));
    this.writer().deleteEntry(ns, name, 'view');
  }
}

/** Every snapshot's manifest list must lie in the table's folder: a commit cannot point a table at another table's files. */
function checkSnapshotsUnder(metadata: JsonObject, location: string): void {
  for (const s of (metadata['snapshots'] as JsonObject[] | undefined) ?? []) {
    const list = s['manifest-list'];
    if (typeof list === 'string' && !isUnder(list, location)) throw catalogErrors.badRequest(`the manifest list ${list} is outside the table's location`);
  }
}
