/**
 * Policy sets for the data gate's tests (unit and integration): the demo's hive
 * service definition with policies written compactly, plus a tag service.
 * Tests (unit and integration) build their Ranger policy sets with these.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

type Json = Record<string, unknown>;

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The hive service def the demo registers (demo/ranger/lakehouse.json). */
export function hiveServiceDef(): Json {
  return (JSON.parse(readFileSync(join(ROOT, 'demo', 'ranger', 'lakehouse.json'), 'utf8')) as Json)['serviceDef'] as Json;
}

/** A tag service def in Ranger's shape (component-prefixed access and mask types). */
export function tagServiceDef(): Json {
  const hive = ['select', 'update', 'create', 'drop', 'alter', 'index', 'lock', 'all'];
  return {
    name: 'tag',
    id: 100,
    resources: [{ itemId: 1, name: 'tag', level: 1, parent: '', mandatory: true, matcherOptions: { wildCard: false, ignoreCase: false } }],
    accessTypes: hive.map((a, i) => ({ itemId: i + 1, name: `hive:${a}` })),
    dataMaskDef: {
      maskTypes: ((hiveServiceDef()['dataMaskDef'] as Json)['maskTypes'] as Json[]).map((m) => ({ ...m, name: `hive:${String(m['name'])}` })),
      accessTypes: [{ name: 'hive:select' }],
      resources: [{ name: 'tag', matcherOptions: { wildCard: false } }],
    },
    rowFilterDef: { accessTypes: [{ name: 'hive:select' }], resources: [{ name: 'tag', matcherOptions: { wildCard: false } }] },
  };
}

export type Subjects = { users?: string[]; roles?: string[]; groups?: string[] };

const item = (s: Subjects, extra: Json = {}, accesses = ['select']): Json => ({
  accesses: accesses.map((type) => ({ type, isAllowed: true })),
  ...(s.users ? { users: s.users } : {}),
  ...(s.roles ? { roles: s.roles } : {}),
  ...(s.groups ? { groups: s.groups } : {}),
  ...extra,
});

const res = (database: string, table: string, column?: string): Json => ({
  database: { values: [database] },
  table: { values: [table] },
  ...(column !== undefined ? { column: { values: [column] } } : {}),
});

let nextId = 100;
const id = () => nextId++;

/** Policy builders: each returns a RangerPolicy. */
export const P = {
  /** `accesses`: the access types granted (default `select`). */
  allow: (name: string, db: string, table: string, column: string, s: Subjects, o: { delegateAdmin?: boolean; accesses?: string[] } = {}): Json => ({
    id: id(),
    name,
    isEnabled: true,
    policyType: 0,
    resources: res(db, table, column),
    policyItems: [item(s, o.delegateAdmin ? { delegateAdmin: true } : {}, o.accesses)],
  }),
  deny: (name: string, db: string, table: string, column: string, s: Subjects): Json => ({
    id: id(),
    name,
    isEnabled: true,
    policyType: 0,
    resources: res(db, table, column),
    denyPolicyItems: [item(s)],
  }),
  /** items: [subjects, maskType, valueExpr?] in policy order */
  mask: (name: string, db: string, table: string, column: string, items: [Subjects, string, string?][], o: { priority?: number } = {}): Json => ({
    id: id(),
    name,
    isEnabled: true,
    policyType: 1,
    policyPriority: o.priority ?? 0,
    resources: res(db, table, column),
    dataMaskPolicyItems: items.map(([s, type, value]) => item(s, { dataMaskInfo: { dataMaskType: type, ...(value !== undefined ? { valueExpr: value } : {}) } })),
  }),
  filter: (name: string, db: string, table: string, items: [Subjects, string][]): Json => ({
    id: id(),
    name,
    isEnabled: true,
    policyType: 2,
    resources: res(db, table),
    rowFilterPolicyItems: items.map(([s, expr]) => item(s, { rowFilterInfo: { filterExpr: expr } })),
  }),
  tagMask: (name: string, tag: string, items: [Subjects, string, string?][]): Json => ({
    id: id(),
    name,
    isEnabled: true,
    policyType: 1,
    resources: { tag: { values: [tag] } },
    dataMaskPolicyItems: items.map(([s, type, value]) =>
      item(s, { dataMaskInfo: { dataMaskType: `hive:${type}`, ...(value !== undefined ? { valueExpr: value } : {}) } }, ['hive:select']),
    ),
  }),
  tagFilter: (name: string, tag: string, items: [Subjects, string][]): Json => ({
    id: id(),
    name,
    isEnabled: true,
    policyType: 2,
    resources: { tag: { values: [tag] } },
    rowFilterPolicyItems: items.map(([s, expr]) => item(s, { rowFilterInfo: { filterExpr: expr } }, ['hive:select'])),
  }),
};

/** A ServicePolicies document for the hive service `serviceName`, with tag policies when given. */
export function servicePolicies(serviceName: string, policies: Json[], tagPolicies: Json[] = [], version = 1): Json {
  return {
    serviceName,
    serviceId: 1,
    policyVersion: version,
    serviceDef: hiveServiceDef(),
    policies,
    ...(tagPolicies.length > 0
      ? { tagPolicies: { serviceName: `${serviceName}_tag`, serviceId: 2, policyVersion: version, serviceDef: tagServiceDef(), policies: tagPolicies } }
      : {}),
    auditMode: 'audit-default',
    serviceConfig: {},
  };
}

/** RangerRoles from role → users. */
export function rangerRoles(serviceName: string, roles: Record<string, string[]>): Json {
  return {
    serviceName,
    roleVersion: 1,
    rangerRoles: Object.entries(roles).map(([name, users], i) => ({
      id: i + 1,
      name,
      isEnabled: true,
      users: users.map((u) => ({ name: u, isAdmin: false })),
      groups: [],
      roles: [],
    })),
  };
}
