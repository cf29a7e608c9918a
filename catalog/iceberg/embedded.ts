/**
 * The embedded catalog: a local warehouse in the SQL-catalog layout
 * (sqlCatalog.ts), with every call authorized as Polaris's Ranger authorizer
 * would (catalog/polaris/authorization.ts) against the polaris-service
 * policies. Like Polaris it resolves the entity before authorizing: a missing
 * one is 404 even for a user with no grants, an existing one the user may not
 * touch is 403 (the gateway shows both as "does not exist"). The check runs
 * for missing entities too, so a denial costs what a miss costs.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { PolicyEngine } from '../../policy/ranger/engine.js';
import { authorizePolaris, polarisPath, type PolarisDecision, type PolarisPath } from '../polaris/authorization.js';
import { CatalogError, type Caller, type IcebergCatalog, type LoadedTable, type LoadedView, type Namespace } from './api.js';
import { parseIcebergJson } from './json.js';
import { TableMetadataSchema, ViewMetadataSchema } from './metadata.js';
import { SqlCatalogFile } from './sqlCatalog.js';

export interface EmbeddedCatalogOptions {
  /** the SQLite file of the SQL catalog */
  sqliteFile: string;
  /** `catalog_name` in that file; also the catalog's name in Polaris policies */
  catalogName: string;
  /** Polaris realm (the `root` resource) */
  realm: string;
  /** directories holding the tables' files */
  warehouseRoots: readonly string[];
  /** The polaris-service policy engine; null (not loaded, or stale) denies everything. */
  policies: () => PolicyEngine | null;
  /** Told every decision on an entity that exists (what Polaris's own authorizer would audit). */
  onDecision?: (d: { engine: PolicyEngine; caller: Caller; operation: string; decision: PolarisDecision }) => void;
}

const sameNs = (a: Namespace, b: Namespace) => a.length === b.length && a.every((x, i) => x === b[i]);

/** `file:///x` or `/x` → a local path. */
export function localPath(location: string): string {
  if (location.startsWith('file:')) return fileURLToPath(location.startsWith('file:///') ? location : location.replace(/^file:\/*/, 'file:///'));
  if (location.startsWith('/')) return location;
  throw new CatalogError('bad-response', `the embedded catalog reads local files only, not ${location}`);
}

export class EmbeddedCatalog implements IcebergCatalog {
  private readonly file: SqlCatalogFile;
  readonly storageRoots: readonly string[];

  constructor(private readonly opts: EmbeddedCatalogOptions) {
    this.file = new SqlCatalogFile(opts.sqliteFile, opts.catalogName);
    this.storageRoots = opts.warehouseRoots;
  }

  close(): void {
    this.file.close();
  }

  private authorize(caller: Caller, operation: string, target: PolarisPath, exists: boolean, what: string): void {
    const engine = this.opts.policies();
    const decision = engine !== null ? authorizePolaris(engine, { principal: { name: caller.user }, operation, targets: [target] }) : null;
    const allowed = decision?.allowed === true;
    if (exists && engine && decision) this.opts.onDecision?.({ engine, caller, operation, decision });
    if (!exists) throw new CatalogError('not-found', `${what} does not exist`, 404);
    if (!allowed) throw new CatalogError('forbidden', `Principal '${caller.user}' is not authorized for op '${operation}'`, 403);
  }

  private nsExists(ns: Namespace): boolean {
    return this.file.namespaces().some((n) => sameNs(n, ns));
  }

  async listNamespaces(caller: Caller, parent: Namespace): Promise<string[][]> {
    const { realm, catalogName } = this.opts;
    const target = polarisPath.namespaceOrCatalog(realm, catalogName, parent);
    this.authorize(caller, 'LIST_NAMESPACES', target, parent.length === 0 || this.nsExists(parent), `Namespace ${parent.join('.')}`);
    return this.file
      .namespaces()
      .filter((n) => n.length === parent.length + 1 && sameNs(n.slice(0, parent.length), parent))
      .sort((a, b) => a.join('\u001f').localeCompare(b.join('\u001f')));
  }

  async loadNamespace(caller: Caller, ns: Namespace): Promise<Record<string, string>> {
    const props = this.file.namespaceProperties(ns);
    this.authorize(caller, 'LOAD_NAMESPACE_METADATA', polarisPath.namespace(this.opts.realm, this.opts.catalogName, ns), props !== null, `Namespace ${ns.join('.')}`);
    return props!;
  }

  private async list(caller: Caller, ns: Namespace, kind: 'table' | 'view'): Promise<string[]> {
    const operation = kind === 'table' ? 'LIST_TABLES' : 'LIST_VIEWS';
    this.authorize(caller, operation, polarisPath.namespace(this.opts.realm, this.opts.catalogName, ns), this.nsExists(ns), `Namespace ${ns.join('.')}`);
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
    this.authorize(caller, operation, polarisPath.tableLike(this.opts.realm, this.opts.catalogName, ns, name), found, `${kind === 'table' ? 'Table' : 'View'} ${[...ns, name].join('.')}`);
    return entry!;
  }

  async loadTable(caller: Caller, ns: Namespace, name: string): Promise<LoadedTable> {
    const entry = this.entryFor(caller, ns, name, 'table');
    const metadata = TableMetadataSchema.safeParse(await readJson(entry.metadataLocation));
    if (!metadata.success) throw new CatalogError('bad-response', `table metadata of ${[...ns, name].join('.')} is not valid: ${metadata.error.message}`);
    return { metadataLocation: entry.metadataLocation, metadata: metadata.data, credentials: [] };
  }

  async loadView(caller: Caller, ns: Namespace, name: string): Promise<LoadedView> {
    const entry = this.entryFor(caller, ns, name, 'view');
    const metadata = ViewMetadataSchema.safeParse(await readJson(entry.metadataLocation));
    if (!metadata.success) throw new CatalogError('bad-response', `view metadata of ${[...ns, name].join('.')} is not valid: ${metadata.error.message}`);
    return { metadata: metadata.data };
  }
}

async function readJson(location: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(localPath(location), 'utf8');
  } catch (e) {
    throw new CatalogError('unavailable', `cannot read ${location}: ${(e as Error).message}`);
  }
  try {
    return parseIcebergJson(text);
  } catch (e) {
    throw new CatalogError('bad-response', `${location} is not JSON: ${(e as Error).message}`);
  }
}
