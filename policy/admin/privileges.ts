/**
 * SQL privileges → Ranger access types on the `polaris` service, per resource
 * level (sqe's grant profile, reference/polaris-iceberg-keycloak.md §7.1, and
 * the operations Polaris checks, §1.5). A privilege binds to one level per
 * kind of object (DROP: the table, or the schema itself; USAGE: the schema, or
 * the catalog); the levels above it get the traversal types Polaris checks on
 * the way down (LIST_NAMESPACES on the catalog, LOAD_NAMESPACE_METADATA on the
 * namespace), written as USAGE so a REVOKE of the privilege leaves the shared
 * traversal alone.
 *
 * Types are always written explicitly: Ranger 2.8.0's polaris def has no
 * impliedGrants, 2.9.0's has them, so nothing may rest on implication.
 */
export type Level = 'catalog' | 'namespace' | 'table';
export type Privilege =
  | 'SELECT'
  | 'INSERT'
  | 'UPDATE'
  | 'DELETE'
  | 'TRUNCATE'
  | 'ALTER'
  | 'DROP'
  | 'USAGE'
  | 'CREATE'
  | 'CREATE_VIEW'
  | 'CREATE_SCHEMA'
  | 'ALL';
/** What the grant names: a table and a view land in the same `table` slot with different types. */
export type TargetKind = 'table' | 'view';

/** Every privilege a label may name (parseLabel's vocabulary). */
export const PRIVILEGES: readonly Privilege[] = ['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'ALTER', 'DROP', 'USAGE', 'CREATE', 'CREATE_VIEW', 'CREATE_SCHEMA', 'ALL'];

const READ_TABLE = ['table-data-read', 'table-list', 'table-properties-read'];

const TABLE_DATA_WRITE = [
  'table-data-write', 'table-list', 'table-data-read', 'table-properties-read', 'table-properties-set', 'table-properties-remove',
  'table-uuid-assign', 'table-format-version-upgrade', 'table-schema-add', 'table-schema-set-current', 'table-sort-order-add',
  'table-sort-order-set-default', 'table-snapshot-add', 'table-snapshots-remove', 'table-snapshot-ref-set', 'table-snapshot-ref-remove',
  'table-location-set', 'table-statistics-set', 'table-statistics-remove', 'table-partition-spec-add', 'table-partition-specs-remove',
  'table-structure-manage',
];

/**
 * INSERT (and UPDATE, DELETE, TRUNCATE: Polaris knows no finer write than a
 * commit) is table-data-write's closure less the three types that would let an
 * append-only writer repoint the table (sqe's profile: 19 types).
 */
const WRITE_DATA = TABLE_DATA_WRITE.filter((t) => !['table-location-set', 'table-uuid-assign', 'table-format-version-upgrade'].includes(t));

/** ALTER: table-structure-manage and what it implies — every commit kind but adding a snapshot and moving a ref (16 types). */
const ALTER_TABLE = [
  'table-structure-manage', 'table-format-version-upgrade', 'table-location-set', 'table-partition-spec-add', 'table-partition-specs-remove',
  'table-properties-remove', 'table-properties-set', 'table-schema-add', 'table-schema-set-current', 'table-snapshot-ref-remove',
  'table-snapshots-remove', 'table-sort-order-add', 'table-sort-order-set-default', 'table-statistics-remove', 'table-statistics-set',
  'table-uuid-assign',
];

/**
 * The coarse types a commit can also pass on: UPDATE_TABLE (fine-grained
 * update privileges turned off, or an update kind Polaris does not map),
 * COMMIT_TRANSACTION and REGISTER_TABLE_OVERWRITE. A DENY of a write denies
 * them too, so no commit gets past it whatever else the grantee holds.
 */
const COMMIT_COARSE = ['table-properties-write', 'table-metadata-full'];

/** catalog-content-manage and everything it implies in Ranger 2.9.0's polaris def. */
const CATALOG_CONTENT_MANAGE = [
  'catalog-content-manage', 'catalog-metadata-manage', 'catalog-list', 'catalog-properties-read', 'catalog-properties-write',
  'catalog-policy-attach', 'catalog-policy-detach', 'namespace-create', 'namespace-drop', 'namespace-list', 'namespace-properties-read',
  'namespace-properties-write', 'namespace-metadata-full', 'namespace-policy-attach', 'namespace-policy-detach', 'table-create',
  'table-drop', 'table-properties-write', 'table-metadata-full', ...TABLE_DATA_WRITE, 'table-policy-attach', 'table-policy-detach',
  'view-create', 'view-drop', 'view-list', 'view-properties-read', 'view-properties-write', 'view-metadata-full', 'policy-create',
  'policy-drop', 'policy-list', 'policy-read', 'policy-write', 'policy-attach', 'policy-detach',
];

export const TRAVERSAL: Readonly<Record<'catalog' | 'namespace', readonly string[]>> = {
  catalog: ['namespace-list'],
  namespace: ['namespace-list', 'namespace-properties-read'],
};

/** The level a privilege binds to when the object does not say otherwise (the level a refusal names). */
export const PRIVILEGE_LEVEL: Readonly<Record<Privilege, Level>> = {
  SELECT: 'table',
  INSERT: 'table',
  UPDATE: 'table',
  DELETE: 'table',
  TRUNCATE: 'table',
  ALTER: 'table',
  DROP: 'table', // ON SCHEMA: the namespace (DROP_NAMESPACE)
  USAGE: 'namespace', // ON DATABASE: catalog
  CREATE: 'namespace', // CREATE TABLE ON SCHEMA
  CREATE_VIEW: 'namespace',
  CREATE_SCHEMA: 'catalog', // CREATE SCHEMA ON DATABASE
  ALL: 'catalog',
};

/** How the statement spells a privilege, for messages and labels. */
export const PRIVILEGE_TEXT: Readonly<Record<Privilege, string>> = {
  SELECT: 'SELECT',
  INSERT: 'INSERT',
  UPDATE: 'UPDATE',
  DELETE: 'DELETE',
  TRUNCATE: 'TRUNCATE',
  ALTER: 'ALTER',
  DROP: 'DROP',
  USAGE: 'USAGE',
  CREATE: 'CREATE TABLE',
  CREATE_VIEW: 'CREATE VIEW',
  CREATE_SCHEMA: 'CREATE SCHEMA',
  ALL: 'ALL PRIVILEGES',
};

const WRITES_DATA = new Set<Privilege>(['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE']);

/** The privilege's own access types at its level; null when it does not apply there. */
export function ownTypes(p: Privilege, level: Level, kind: TargetKind = 'table'): readonly string[] | null {
  switch (p) {
    case 'SELECT':
      if (level !== 'table') return null;
      return kind === 'view' ? ['view-properties-read', 'view-list'] : READ_TABLE;
    case 'INSERT':
    case 'UPDATE':
    case 'DELETE':
    case 'TRUNCATE':
      return level === 'table' && kind === 'table' ? WRITE_DATA : null;
    case 'ALTER':
      if (level !== 'table') return null;
      // REPLACE_VIEW: a view's new version (CREATE OR REPLACE VIEW, a comment)
      return kind === 'view' ? ['view-properties-write'] : ALTER_TABLE;
    case 'DROP':
      // the schema itself (DROP_NAMESPACE); seeing it is what dropping it needs first
      if (level === 'namespace') return ['namespace-list', 'namespace-properties-read', 'namespace-drop'];
      if (level !== 'table') return null;
      // DROP_TABLE_WITH_PURGE checks table-data-write as well: lakegate's DROP TABLE purges
      return kind === 'view' ? ['view-drop'] : ['table-drop', 'table-data-write'];
    case 'USAGE':
      if (level === 'catalog') return TRAVERSAL.catalog;
      if (level === 'namespace') return ['namespace-list', 'namespace-properties-read', 'table-list', 'view-list'];
      return null;
    case 'CREATE':
      return level === 'namespace' ? ['namespace-list', 'namespace-properties-read', 'table-create', 'table-list'] : null;
    case 'CREATE_VIEW':
      return level === 'namespace' ? ['namespace-list', 'namespace-properties-read', 'view-create', 'view-list'] : null;
    case 'CREATE_SCHEMA':
      return level === 'catalog' ? ['namespace-list', 'namespace-create'] : null;
    case 'ALL':
      return level === 'catalog' ? CATALOG_CONTENT_MANAGE : null;
  }
}

/**
 * What a DENY of the privilege writes as deny items: the types that make it
 * what it is, never the reading and traversal a grant of it carries along
 * (DENY INSERT must not take away SELECT). A deny of a write also denies the
 * coarse types a commit can pass on instead (COMMIT_COARSE), and DROP denies
 * the drop itself, not the table-data-write a purge also checks.
 */
export function denyTypes(p: Privilege, level: Level, kind: TargetKind = 'table'): readonly string[] | null {
  const own = ownTypes(p, level, kind);
  if (own === null) return null;
  if (WRITES_DATA.has(p)) return [...own.filter((t) => !READ_TABLE.includes(t)), ...COMMIT_COARSE];
  switch (p) {
    case 'ALTER':
      return kind === 'view' ? own : [...own, ...COMMIT_COARSE];
    case 'DROP':
      return level === 'namespace' ? ['namespace-drop'] : kind === 'view' ? ['view-drop'] : ['table-drop'];
    case 'CREATE':
      return ['table-create'];
    case 'CREATE_VIEW':
      return ['view-create'];
    case 'CREATE_SCHEMA':
      return ['namespace-create'];
    default:
      return own;
  }
}

/** The traversal types a grant at `level` needs at each level above it. */
export function traversalAbove(level: Level, kind: TargetKind): { level: 'catalog' | 'namespace'; types: readonly string[] }[] {
  if (level === 'catalog') return [];
  if (level === 'namespace') return [{ level: 'catalog', types: TRAVERSAL.catalog }];
  return [
    { level: 'catalog', types: TRAVERSAL.catalog },
    { level: 'namespace', types: kind === 'view' ? [...TRAVERSAL.namespace, 'view-list'] : TRAVERSAL.namespace },
  ];
}

/**
 * The data gate's side of a write privilege: the access types of the query
 * service (Hive service type) a write is decided on. Reading (SELECT), USAGE
 * and ALL are not written there: null.
 */
export function dataGateTypes(p: Privilege): readonly string[] | null {
  if (WRITES_DATA.has(p)) return ['update'];
  switch (p) {
    case 'ALTER':
      return ['alter'];
    case 'DROP':
      return ['drop'];
    case 'CREATE':
    case 'CREATE_VIEW':
    case 'CREATE_SCHEMA':
      return ['create'];
    default:
      return null;
  }
}

/** A privilege that changes what the catalog holds (the ones the data gate also decides). */
export const isWritePrivilege = (p: Privilege): boolean => dataGateTypes(p) !== null;

/** Access types keyed by name, for privilege lookups from a Ranger access type (CHECK ACCESS, SHOW GRANTS). */
export const LEVEL_NAME: Readonly<Record<Level, string>> = { catalog: 'catalog', namespace: 'namespace (schema)', table: 'table' };
