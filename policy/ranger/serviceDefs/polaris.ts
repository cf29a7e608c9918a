/**
 * The `polaris` Ranger service definition as Ranger 2.9.0 ships it (the def Polaris's
 * Ranger authorizer is written against): the resource hierarchy root → catalog →
 * namespace → table / policy, principal under root, default matchers (wildcards on,
 * case-insensitive), and the 69 access types with their impliedGrants
 * (the copy a stub bundle is given, policy/ranger/bundle.ts). tests/fixtures/polaris/serviceDef.test.ts compares it
 * with Ranger's own def file when the conformance fixtures are present.
 *
 * Ranger 2.8.0 Admin registers an older def (102 types, no impliedGrants); policies
 * written with the full explicit access-type set behave alike under both.
 */
import { parseServiceDef, type ServiceDef } from '../model.js';

const FINE_GRAINED = [
  'table-properties-set',
  'table-properties-remove',
  'table-uuid-assign',
  'table-format-version-upgrade',
  'table-schema-add',
  'table-schema-set-current',
  'table-partition-spec-add',
  'table-partition-specs-remove',
  'table-sort-order-add',
  'table-sort-order-set-default',
  'table-snapshot-add',
  'table-snapshots-remove',
  'table-snapshot-ref-set',
  'table-snapshot-ref-remove',
  'table-location-set',
  'table-statistics-set',
  'table-statistics-remove',
];
const without = (list: string[], ...drop: string[]): string[] => list.filter((t) => !drop.includes(t));

/** Everything below a catalog that catalog-metadata-manage grants (catalog-content-manage adds the data types). */
const CATALOG_METADATA_MANAGE = [
  'catalog-list',
  'catalog-properties-read',
  'catalog-properties-write',
  'catalog-policy-attach',
  'catalog-policy-detach',
  'namespace-create',
  'namespace-drop',
  'namespace-list',
  'namespace-properties-read',
  'namespace-properties-write',
  'namespace-metadata-full',
  'namespace-policy-attach',
  'namespace-policy-detach',
  'table-create',
  'table-drop',
  'table-list',
  'table-properties-read',
  'table-properties-write',
  'table-metadata-full',
  ...FINE_GRAINED,
  'table-policy-attach',
  'table-policy-detach',
  'table-structure-manage',
  'view-create',
  'view-drop',
  'view-list',
  'view-properties-read',
  'view-properties-write',
  'view-metadata-full',
  'policy-create',
  'policy-drop',
  'policy-list',
  'policy-read',
  'policy-write',
  'policy-attach',
  'policy-detach',
];

/** [name, category, impliedGrants] in Ranger's itemId order (itemId = index + 1). */
const ACCESS_TYPES: [string, string, string[]][] = [
  [
    'service-access-manage',
    'MANAGE',
    [
      'catalog-create',
      'catalog-drop',
      'catalog-list',
      'catalog-properties-read',
      'catalog-properties-write',
      'catalog-metadata-full',
      'principal-create',
      'principal-drop',
      'principal-list',
      'principal-properties-read',
      'principal-properties-write',
      'principal-metadata-full',
      'principal-credentials-reset',
    ],
  ],
  ['catalog-create', 'CREATE', ['catalog-list']],
  ['catalog-drop', 'DELETE', []],
  ['catalog-list', 'READ', []],
  ['catalog-content-manage', 'MANAGE', ['catalog-metadata-manage', ...CATALOG_METADATA_MANAGE, 'table-data-read', 'table-data-write']],
  ['catalog-metadata-full', 'MANAGE', ['catalog-create', 'catalog-drop', 'catalog-list', 'catalog-properties-read', 'catalog-properties-write']],
  ['catalog-metadata-manage', 'MANAGE', CATALOG_METADATA_MANAGE],
  ['catalog-policy-attach', 'MANAGE', []],
  ['catalog-policy-detach', 'MANAGE', []],
  ['catalog-properties-read', 'READ', ['catalog-list']],
  ['catalog-properties-write', 'UPDATE', ['catalog-list', 'catalog-properties-read']],
  ['principal-create', 'CREATE', ['principal-list']],
  ['principal-drop', 'DELETE', []],
  ['principal-list', 'READ', []],
  ['principal-credentials-reset', 'MANAGE', []],
  ['principal-credentials-rotate', 'MANAGE', []],
  ['principal-metadata-full', 'MANAGE', ['principal-create', 'principal-drop', 'principal-list', 'principal-properties-read', 'principal-properties-write']],
  ['principal-properties-read', 'READ', ['principal-list']],
  ['principal-properties-write', 'UPDATE', ['principal-list', 'principal-properties-read']],
  ['namespace-create', 'CREATE', ['namespace-list']],
  ['namespace-drop', 'DELETE', []],
  ['namespace-list', 'READ', []],
  ['namespace-metadata-full', 'MANAGE', ['namespace-create', 'namespace-drop', 'namespace-list', 'namespace-properties-read', 'namespace-properties-write']],
  ['namespace-policy-attach', 'MANAGE', []],
  ['namespace-policy-detach', 'MANAGE', []],
  ['namespace-properties-read', 'READ', ['namespace-list']],
  ['namespace-properties-write', 'UPDATE', ['namespace-list', 'namespace-properties-read']],
  ['table-create', 'CREATE', ['table-list']],
  ['table-drop', 'DELETE', []],
  ['table-list', 'READ', []],
  ['table-data-read', 'READ', ['table-list', 'table-properties-read']],
  ['table-data-write', 'UPDATE', ['table-list', 'table-data-read', 'table-properties-read', ...FINE_GRAINED, 'table-structure-manage']],
  ['table-metadata-full', 'MANAGE', ['table-create', 'table-drop', 'table-list', 'table-properties-read', 'table-properties-write', ...FINE_GRAINED, 'table-structure-manage']],
  ['table-policy-attach', 'MANAGE', []],
  ['table-policy-detach', 'MANAGE', []],
  ['table-properties-read', 'READ', ['table-list']],
  ['table-properties-write', 'UPDATE', ['table-list', 'table-properties-read', ...FINE_GRAINED, 'table-structure-manage']],
  ...FINE_GRAINED.map((t): [string, string, string[]] => [t, 'UPDATE', []]),
  ['table-structure-manage', 'UPDATE', without(FINE_GRAINED, 'table-snapshot-add', 'table-snapshot-ref-set')],
  ['view-create', 'CREATE', ['view-list']],
  ['view-drop', 'DELETE', []],
  ['view-list', 'READ', []],
  ['view-metadata-full', 'MANAGE', ['view-create', 'view-drop', 'view-list', 'view-properties-read', 'view-properties-write']],
  ['view-properties-read', 'READ', ['view-list']],
  ['view-properties-write', 'UPDATE', ['view-list', 'view-properties-read']],
  ['policy-create', 'CREATE', ['policy-list']],
  ['policy-drop', 'DELETE', []],
  ['policy-list', 'READ', []],
  ['policy-read', 'READ', ['policy-list']],
  ['policy-write', 'UPDATE', ['policy-list', 'policy-read']],
  ['policy-attach', 'MANAGE', []],
  ['policy-detach', 'MANAGE', []],
  ['policy-metadata-full', 'MANAGE', ['policy-create', 'policy-drop', 'policy-list', 'policy-read', 'policy-write']],
];

const RESOURCES: [string, string, number][] = [
  ['root', '', 10],
  ['catalog', 'root', 20],
  ['principal', 'root', 20],
  ['namespace', 'catalog', 30],
  ['table', 'namespace', 40],
  ['policy', 'namespace', 40],
];

/** The def as Ranger Admin serves it inside ServicePolicies (plain JSON). */
export function polarisServiceDefJson(): Record<string, unknown> {
  return {
    name: 'polaris',
    displayName: 'Polaris (draft)',
    label: 'Apache Polaris',
    resources: RESOURCES.map(([name, parent, level], i) => ({
      itemId: i + 1,
      name,
      type: 'string',
      level,
      parent,
      mandatory: true,
      lookupSupported: true,
      recursiveSupported: false,
      excludesSupported: true,
      matcher: 'org.apache.ranger.plugin.resourcematcher.RangerDefaultResourceMatcher',
      matcherOptions: { wildCard: 'true', ignoreCase: 'true' },
      isValidLeaf: true,
      label: name,
    })),
    accessTypes: ACCESS_TYPES.map(([name, category, impliedGrants], i) => ({ itemId: i + 1, name, label: name, category, impliedGrants })),
  };
}

export const POLARIS_SERVICE_DEF: ServiceDef = parseServiceDef(polarisServiceDefJson(), 'polaris service def (2.9.0)');
