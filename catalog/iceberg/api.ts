/**
 * The Iceberg catalog as the gateway asks it, always as one user: Polaris
 * over Iceberg REST with the user's bearer token (rest.ts), or the embedded
 * SQL-catalog warehouse with Polaris's authorization decided locally
 * (embedded.ts). Both read and write (IcebergCatalogWriter) and answer the
 * same way: the entity, or a CatalogError whose status and type are what
 * Polaris would send.
 */
import type { TableMetadata, ViewMetadata } from './metadata.js';

export type Namespace = readonly string[];

/** Who a catalog call is made for. */
export interface Caller {
  user: string;
  /** The bearer token (REST). */
  token?: () => string;
  /** Refresh the token once after a 401; false when it cannot be renewed. */
  refresh?: () => Promise<boolean>;
  /** The session the call is made for (its client address and backend pid), for the audit trail. */
  clientAddress?: string;
  sessionId?: number;
}

/** Storage credentials for a table's files (vended by the catalog, or configured). */
export interface StorageCredential {
  /** the location prefix they are valid for */
  prefix: string;
  config: Record<string, string>;
}

/** Iceberg JSON as json.ts parses it: every key kept, integers beyond 2^53 as bigint. */
export type JsonObject = Record<string, unknown>;

export interface LoadedTable {
  metadataLocation: string;
  metadata: TableMetadata;
  credentials: StorageCredential[];
  /** The metadata exactly as the catalog holds it (every key; what a writer commits against). */
  raw?: JsonObject;
}

export interface LoadedView {
  metadata: ViewMetadata;
  raw?: JsonObject;
  metadataLocation?: string;
}

export type CatalogErrorKind =
  | 'unauthorized'
  | 'forbidden'
  | 'not-found'
  /** 409: AlreadyExists, CommitFailed, NamespaceNotEmpty (`type` says which) */
  | 'conflict'
  /** 400: a request the catalog cannot apply */
  | 'bad-request'
  /** 406: an operation the catalog does not support */
  | 'unsupported'
  | 'unavailable'
  | 'bad-response';

export class CatalogError extends Error {
  constructor(
    readonly kind: CatalogErrorKind,
    message: string,
    readonly status?: number,
    /** The Iceberg error type (`CommitFailedException`, `NoSuchTableException` …) where the catalog named one. */
    readonly type?: string,
  ) {
    super(message);
    this.name = 'CatalogError';
  }
}

/**
 * Runs a catalog call; after a 401 the caller's token is renewed once and the
 * call made again (the catalog refused the token before doing anything).
 */
export async function renewingOnce<T>(caller: Caller, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (!(e instanceof CatalogError) || e.kind !== 'unauthorized' || !caller.refresh) throw e;
    if (!(await caller.refresh())) throw e;
    return fn();
  }
}

/** The error a catalog answers a request with, as Polaris would send it (IcebergErrorResponse's status and type). */
export const catalogErrors = {
  noSuchNamespace: (ns: Namespace) => new CatalogError('not-found', `Namespace does not exist: ${ns.join('.')}`, 404, 'NoSuchNamespaceException'),
  noSuchTable: (ns: Namespace, name: string) => new CatalogError('not-found', `Table does not exist: ${[...ns, name].join('.')}`, 404, 'NoSuchTableException'),
  noSuchView: (ns: Namespace, name: string) => new CatalogError('not-found', `View does not exist: ${[...ns, name].join('.')}`, 404, 'NoSuchViewException'),
  forbidden: (user: string, operation: string) =>
    new CatalogError('forbidden', `Principal '${user}' is not authorized for op '${operation}'`, 403, 'ForbiddenException'),
  namespaceExists: (ns: Namespace) => new CatalogError('conflict', `Namespace already exists: ${ns.join('.')}`, 409, 'AlreadyExistsException'),
  namespaceNotEmpty: (ns: Namespace) => new CatalogError('conflict', `Namespace ${ns.join('.')} is not empty`, 409, 'NamespaceNotEmptyException'),
  tableExists: (ns: Namespace, name: string) => new CatalogError('conflict', `Table already exists: ${[...ns, name].join('.')}`, 409, 'AlreadyExistsException'),
  viewExists: (ns: Namespace, name: string) => new CatalogError('conflict', `View with same name already exists: ${[...ns, name].join('.')}`, 409, 'AlreadyExistsException'),
  commitFailed: (message: string) => new CatalogError('conflict', message, 409, 'CommitFailedException'),
  badRequest: (message: string) => new CatalogError('bad-request', message, 400, 'BadRequestException'),
};

export interface TableIdent {
  namespace: Namespace;
  name: string;
}

/** CreateTableRequest of the REST spec; JSON shapes as the spec writes them. */
export interface CreateTableRequest {
  name: string;
  schema: JsonObject;
  /** Absent: the catalog pins a location of its own, unique to this table. */
  location?: string;
  partitionSpec?: JsonObject;
  writeOrder?: JsonObject;
  properties?: Record<string, string>;
  /** Staged: nothing is registered until a commit with `assert-create` (a CTAS's create). */
  stageCreate?: boolean;
}

export interface CreatedTable {
  /** null for a staged create */
  metadataLocation: string | null;
  metadata: JsonObject;
  credentials: StorageCredential[];
}

/** CommitTableRequest: requirements checked against the current metadata, then updates applied. */
export interface TableCommit {
  requirements: JsonObject[];
  updates: JsonObject[];
}

export interface CommittedTable {
  metadataLocation: string;
  metadata: JsonObject;
}

/** A view as lakegate writes it: one `sql` representation in the `postgresql` dialect. */
export interface ViewDefinition {
  /** The view's columns (an Iceberg struct schema). */
  schema: JsonObject;
  sql: string;
  /** Where unqualified names in `sql` resolve. */
  defaultNamespace: Namespace;
  defaultCatalog?: string;
  properties?: Record<string, string>;
}

/**
 * Writes, always as one caller, each authorized by Polaris (or, embedded, as
 * Polaris would authorize it) and answered with Polaris's statuses: 404 for an
 * entity that does not exist (before any authorization), 403 for one the
 * caller may not change, 409 for a name taken, a non-empty namespace or a
 * failed commit requirement (a concurrent change: the caller may retry on
 * fresh metadata), 400 for a request the catalog cannot apply.
 */
export interface IcebergCatalogWriter {
  createNamespace(caller: Caller, ns: Namespace, properties?: Record<string, string>): Promise<Record<string, string>>;
  /** 409 NamespaceNotEmptyException while it holds tables, views or namespaces. */
  dropNamespace(caller: Caller, ns: Namespace): Promise<void>;
  createTable(caller: Caller, ns: Namespace, request: CreateTableRequest): Promise<CreatedTable>;
  commitTable(caller: Caller, ns: Namespace, name: string, commit: TableCommit): Promise<CommittedTable>;
  renameTable(caller: Caller, from: TableIdent, to: TableIdent): Promise<void>;
  /** `purge`: the table's files are deleted too, where the catalog owns them. */
  dropTable(caller: Caller, ns: Namespace, name: string, opts: { purge: boolean }): Promise<void>;
  createView(caller: Caller, ns: Namespace, name: string, view: ViewDefinition): Promise<LoadedView>;
  replaceView(caller: Caller, ns: Namespace, name: string, view: ViewDefinition): Promise<LoadedView>;
  renameView(caller: Caller, from: TableIdent, to: TableIdent): Promise<void>;
  dropView(caller: Caller, ns: Namespace, name: string): Promise<void>;
}

/** A catalog that is read and written (both of lakegate's catalogs). */
export type WritableCatalog = IcebergCatalog & IcebergCatalogWriter;

export interface IcebergCatalog {
  /** Namespaces one level below `parent` (the top level when empty). */
  listNamespaces(caller: Caller, parent: Namespace): Promise<string[][]>;
  /** The namespace's properties (LOAD_NAMESPACE_METADATA). */
  loadNamespace(caller: Caller, ns: Namespace): Promise<Record<string, string>>;
  listTables(caller: Caller, ns: Namespace): Promise<string[]>;
  listViews(caller: Caller, ns: Namespace): Promise<string[]>;
  loadTable(caller: Caller, ns: Namespace, name: string): Promise<LoadedTable>;
  loadView(caller: Caller, ns: Namespace, name: string): Promise<LoadedView>;
  /** A commit of table properties as the caller (REST catalogs; SET TAG). */
  updateTableProperties?(caller: Caller, ns: Namespace, name: string, change: { updates: Record<string, string>; removals: string[] }, tableUuid: string): Promise<void>;
  /** Local directories (or object-store prefixes) the engine must be allowed to read. */
  readonly storageRoots: readonly string[];
  close(): void;
}
