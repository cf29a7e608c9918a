/**
 * Polaris's side of authorization: which operations a catalog call is checked
 * as (IcebergCatalogHandler: a commit becomes fine-grained operations), on
 * which securables (a resolved Polaris path), for which principal. What an
 * operation needs of the policies is the authorizer's business: Polaris's
 * Ranger authorizer is policy/polaris/rangerAuthorizer.ts, handed to the
 * embedded catalog through catalog/catalogGate.ts CatalogAuthorizer.
 */

/**
 * Iceberg table-update kinds → the fine-grained operation Polaris checks
 * (ENABLE_FINE_GRAINED_UPDATE_TABLE_PRIVILEGES, on by default).
 */
export const UPDATE_KIND_OPERATION: Readonly<Record<string, string>> = Object.freeze({
  'assign-uuid': 'ASSIGN_TABLE_UUID',
  'upgrade-format-version': 'UPGRADE_TABLE_FORMAT_VERSION',
  'add-schema': 'ADD_TABLE_SCHEMA',
  'set-current-schema': 'SET_TABLE_CURRENT_SCHEMA',
  'add-spec': 'ADD_TABLE_PARTITION_SPEC',
  'add-sort-order': 'ADD_TABLE_SORT_ORDER',
  'set-default-sort-order': 'SET_TABLE_DEFAULT_SORT_ORDER',
  'add-snapshot': 'ADD_TABLE_SNAPSHOT',
  'set-snapshot-ref': 'SET_TABLE_SNAPSHOT_REF',
  'remove-snapshots': 'REMOVE_TABLE_SNAPSHOTS',
  'remove-snapshot-ref': 'REMOVE_TABLE_SNAPSHOT_REF',
  'set-location': 'SET_TABLE_LOCATION',
  'set-properties': 'SET_TABLE_PROPERTIES',
  'remove-properties': 'REMOVE_TABLE_PROPERTIES',
  'set-statistics': 'SET_TABLE_STATISTICS',
  'remove-statistics': 'REMOVE_TABLE_STATISTICS',
  'remove-partition-specs': 'REMOVE_TABLE_PARTITION_SPECS',
});

/**
 * The operations one commit's updates are checked as, in Polaris's enum order
 * (an EnumSet: the first refused one is the one a 403 names). Each update kind
 * adds its fine-grained operation; a kind without one (set-default-spec,
 * remove-schemas, the encryption keys …) adds UPDATE_TABLE
 * (table-properties-write) beside them, and an empty list is UPDATE_TABLE
 * alone (IcebergCatalogHandler.getUpdateTableAuthorizableOperations).
 */
export function updateTableOperations(updateKinds: readonly string[]): string[] {
  const ops = new Set(updateKinds.map((k) => (Object.hasOwn(UPDATE_KIND_OPERATION, k) ? UPDATE_KIND_OPERATION[k]! : 'UPDATE_TABLE')));
  if (ops.size === 0) ops.add('UPDATE_TABLE');
  return [...ops].sort((a, b) => ENUM_ORDER.indexOf(a) - ENUM_ORDER.indexOf(b));
}

/** PolarisAuthorizableOperation's declaration order for the operations a table commit is checked as. */
const ENUM_ORDER = ['UPDATE_TABLE', ...Object.values(UPDATE_KIND_OPERATION)];

/**
 * What a table commit is authorized as: a commit that creates the table (an
 * `assert-create` requirement, the end of a staged create) is
 * UPDATE_TABLE_FOR_STAGED_CREATE on the namespace (table-create), any other
 * commit the fine-grained operations on the table.
 */
export function commitOperations(requirementTypes: readonly string[], updateKinds: readonly string[]): { level: 'namespace' | 'table'; operations: string[] } {
  if (requirementTypes.includes('assert-create')) return { level: 'namespace', operations: ['UPDATE_TABLE_FOR_STAGED_CREATE'] };
  return { level: 'table', operations: updateTableOperations(updateKinds) };
}

// ---------------------------------------------------------------- securables

/** Polaris entity types that can end a resolved path. */
export type PolarisEntityType =
  | 'ROOT'
  | 'PRINCIPAL'
  | 'PRINCIPAL_ROLE'
  | 'CATALOG'
  | 'CATALOG_ROLE'
  | 'NAMESPACE'
  | 'TABLE_LIKE'
  | 'TASK'
  | 'FILE'
  | 'POLICY';

/** A resolved Polaris path: the realm id, then the name of every entity below the root. */
export interface PolarisPath {
  leafType: PolarisEntityType;
  names: readonly string[];
}

/** Paths for the securables Polaris authorizes; a namespace is its list of levels. */
export const polarisPath = {
  root: (realm: string): PolarisPath => ({ leafType: 'ROOT', names: [realm] }),
  principal: (realm: string, principal: string): PolarisPath => ({ leafType: 'PRINCIPAL', names: [realm, principal] }),
  catalog: (realm: string, catalog: string): PolarisPath => ({ leafType: 'CATALOG', names: [realm, catalog] }),
  namespace: (realm: string, catalog: string, namespace: readonly string[]): PolarisPath => ({
    leafType: 'NAMESPACE',
    names: [realm, catalog, ...nonEmpty(namespace)],
  }),
  /** LIST_NAMESPACES / CREATE_NAMESPACE / rename destinations: the parent namespace, or the catalog at top level. */
  namespaceOrCatalog: (realm: string, catalog: string, namespace: readonly string[]): PolarisPath =>
    namespace.length === 0 ? polarisPath.catalog(realm, catalog) : polarisPath.namespace(realm, catalog, namespace),
  /** A table or a view. */
  tableLike: (realm: string, catalog: string, namespace: readonly string[], name: string): PolarisPath => ({
    leafType: 'TABLE_LIKE',
    names: [realm, catalog, ...nonEmpty(namespace), name],
  }),
  policy: (realm: string, catalog: string, namespace: readonly string[], name: string): PolarisPath => ({
    leafType: 'POLICY',
    names: [realm, catalog, ...nonEmpty(namespace), name],
  }),
};

/** A path Polaris could not resolve (Polaris fails such a request instead of refusing it). */
export class PolarisPathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PolarisPathError';
  }
}

function nonEmpty(namespace: readonly string[]): readonly string[] {
  if (namespace.length === 0) throw new PolarisPathError('a namespace needs at least one level');
  return namespace;
}

// ---------------------------------------------------------------- requests

export interface PolarisPrincipal {
  name: string;
  /** Activated principal roles, sent to Ranger as the user's roles (none: Ranger's role store decides). */
  roles?: readonly string[];
}

/** One operation on its securables, for one principal: what an authorizer decides. */
export interface PolarisAuthzRequest {
  principal: PolarisPrincipal;
  operation: string;
  targets: readonly PolarisPath[];
  secondaries?: readonly PolarisPath[];
}
