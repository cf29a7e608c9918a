/**
 * The Iceberg catalog as the gateway asks it, always as one user: Polaris
 * over Iceberg REST with the user's bearer token (rest.ts), or the embedded
 * SQL-catalog warehouse with Polaris's authorization decided locally
 * (embedded.ts). Both answer the same way: the entity, or a CatalogError
 * whose status is the HTTP status Polaris would send.
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

export interface LoadedTable {
  metadataLocation: string;
  metadata: TableMetadata;
  credentials: StorageCredential[];
}

export interface LoadedView {
  metadata: ViewMetadata;
}

export type CatalogErrorKind = 'unauthorized' | 'forbidden' | 'not-found' | 'unavailable' | 'bad-response';

export class CatalogError extends Error {
  constructor(
    readonly kind: CatalogErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'CatalogError';
  }
}

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
