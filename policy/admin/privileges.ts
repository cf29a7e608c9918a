/**
 * SQL privileges → Ranger access types on the `polaris` service, per resource
 * level (sqe's grant profile; reference/polaris-iceberg-keycloak.md §7.1).
 * Every privilege binds to exactly one level; the levels above it get the
 * traversal types Polaris checks on the way down (LIST_NAMESPACES on the
 * catalog, LOAD_NAMESPACE_METADATA on the namespace), written as USAGE so a
 * REVOKE of the table privilege leaves the shared traversal alone.
 *
 * Types are always written explicitly: Ranger 2.8.0's polaris def has no
 * impliedGrants, 2.9.0's has them, so nothing may rest on implication.
 */
export type Level = 'catalog' | 'namespace' | 'table';
export type Privilege = 'SELECT' | 'INSERT' | 'DROP' | 'USAGE' | 'CREATE' | 'CREATE_SCHEMA' | 'ALL';
/** What the grant names: a table and a view land in the same `table` slot with different types. */
export type TargetKind = 'table' | 'view';

const TABLE_DATA_WRITE = [
  'table-data-write', 'table-list', 'table-data-read', 'table-properties-read', 'table-properties-set', 'table-properties-remove',
  'table-uuid-assign', 'table-format-version-upgrade', 'table-schema-add', 'table-schema-set-current', 'table-sort-order-add',
  'table-sort-order-set-default', 'table-snapshot-add', 'table-snapshots-remove', 'table-snapshot-ref-set', 'table-snapshot-ref-remove',
  'table-location-set', 'table-statistics-set', 'table-statistics-remove', 'table-partition-spec-add', 'table-partition-specs-remove',
  'table-structure-manage',
];

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

/** The level each privilege binds to. */
export const PRIVILEGE_LEVEL: Readonly<Record<Privilege, Level>> = {
  SELECT: 'table',
  INSERT: 'table',
  DROP: 'table',
  USAGE: 'namespace', // ON DATABASE: catalog (see ownTypes)
  CREATE: 'namespace', // CREATE TABLE ON SCHEMA
  CREATE_SCHEMA: 'catalog', // CREATE SCHEMA ON DATABASE
  ALL: 'catalog',
};

/** How the statement spells a privilege, for messages and labels. */
export const PRIVILEGE_TEXT: Readonly<Record<Privilege, string>> = {
  SELECT: 'SELECT',
  INSERT: 'INSERT',
  DROP: 'DROP',
  USAGE: 'USAGE',
  CREATE: 'CREATE TABLE',
  CREATE_SCHEMA: 'CREATE SCHEMA',
  ALL: 'ALL PRIVILEGES',
};

/** The privilege's own access types at its level; null when it does not apply there. */
export function ownTypes(p: Privilege, level: Level, kind: TargetKind = 'table'): readonly string[] | null {
  switch (p) {
    case 'SELECT':
      if (level !== 'table') return null;
      return kind === 'view' ? ['view-properties-read', 'view-list'] : ['table-data-read', 'table-list', 'table-properties-read'];
    case 'INSERT':
      if (level !== 'table' || kind === 'view') return null;
      return TABLE_DATA_WRITE.filter((t) => !['table-location-set', 'table-uuid-assign', 'table-format-version-upgrade'].includes(t));
    case 'DROP':
      if (level !== 'table') return null;
      return kind === 'view' ? ['view-drop'] : ['table-drop'];
    case 'USAGE':
      if (level === 'catalog') return TRAVERSAL.catalog;
      if (level === 'namespace') return ['namespace-list', 'namespace-properties-read', 'table-list', 'view-list'];
      return null;
    case 'CREATE':
      return level === 'namespace' ? ['namespace-list', 'namespace-properties-read', 'table-create', 'table-list'] : null;
    case 'CREATE_SCHEMA':
      return level === 'catalog' ? ['namespace-list', 'namespace-create'] : null;
    case 'ALL':
      return level === 'catalog' ? CATALOG_CONTENT_MANAGE : null;
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

/** Access types keyed by name, for privilege lookups from a Ranger access type (CHECK ACCESS, SHOW GRANTS). */
export const LEVEL_NAME: Readonly<Record<Level, string>> = { catalog: 'catalog', namespace: 'namespace (schema)', table: 'table' };
