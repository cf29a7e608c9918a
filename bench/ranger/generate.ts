/**
 * Realistic Hive-service bundles for the policy-engine benchmark, written once to JSON so
 * lakegate and Ranger's Java engine load the same files.
 *
 * For each policy count N: `policies-N.json` (Ranger's ServicePolicies: the service def from
 * the conformance fixtures, Ranger's three default "all - …" policies and N-3 generated ones)
 * and `requests-N.json` (access, mask and row-filter requests, hits and misses, built from
 * that bundle). `roles.json` (RangerRoles) is shared. Everything comes from a seeded PRNG, so
 * a run is reproducible.
 *
 * Generated policies: ~88 % access, ~7 % data-mask, ~5 % row-filter. Access resources:
 * 62 % exact database and table (column `*`), 10 % exact with a few named columns, 15 %
 * `stem_*` tables in one database, 1 % database wildcards (`sales_*`, `sales_db1*`), 5 %
 * database-wide (`*` table), 4 % excluded sensitive columns, 3 % UDF prefixes. Items name
 * groups, some users and roles; ~10 % carry deny items (a third of those with deny
 * exceptions), ~5 % allow exceptions, ~1 % are override-priority.
 *
 * usage: node --import tsx bench/ranger/generate.ts --out DIR --policies 10,1000,10000 [--requests 1000]
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mulberry32 } from '../../tests/support/random.js';

const SERVICE_DEF = process.env.RANGER_HIVE_SERVICEDEF ?? '/work/shared/ranger-conformance/service-defs/ranger-servicedef-hive.json';

export const DOMAINS = ['sales', 'hr', 'fin', 'ops', 'mkt', 'eng', 'risk', 'cust'];
const TABLE_STEMS = ['orders', 'customers', 'invoices', 'events', 'payments', 'accounts', 'shipments', 'claims'];
export const COLUMNS = ['id', 'name', 'email', 'ssn', 'phone', 'amount', 'region', 'created_at', 'card_number', 'notes'];
const SENSITIVE = ['ssn', 'email', 'phone', 'card_number'];
const TABLES_PER_DB = 40;
const USERS = 500;
const GROUPS = 100;
const ROLES = 30;
const MASK_TYPES = ['MASK', 'MASK_SHOW_LAST_4', 'MASK_HASH', 'MASK_NULL'];

const prng = mulberry32;

const user = (i: number) => `u${String(i).padStart(4, '0')}`;
const group = (i: number) => `grp_${String(i).padStart(3, '0')}`;
const role = (i: number) => `role_${String(i).padStart(2, '0')}`;
/** A user's groups, as the directory would report them. */
export function groupsOf(i: number): string[] {
  const g = [group(i % GROUPS), group((i * 7 + 3) % GROUPS)];
  if (i % 3 === 0) g.push(group((i * 13 + 5) % GROUPS));
  return [...new Set(g)];
}
const usersInGroup = (g: number): number[] => {
  const out: number[] = [];
  for (let i = 0; i < USERS; i++) if (groupsOf(i).includes(group(g))) out.push(i);
  return out;
};

export function rangerRoles(): unknown {
  const rangerRoles = [];
  for (let j = 0; j < ROLES; j++) {
    rangerRoles.push({
      id: j + 1,
      name: role(j),
      isEnabled: true,
      users: [{ name: user(j * 11), isAdmin: false }],
      groups: [j, j + 30, j + 60].map((g) => ({ name: group(g), isAdmin: false })),
      roles: [],
    });
  }
  return { serviceName: 'hivedev', roleVersion: 1, rangerRoles };
}

interface Res {
  values: string[];
  isExcludes: boolean;
  isRecursive: boolean;
}
const res = (values: string[], isExcludes = false, isRecursive = false): Res => ({ values, isExcludes, isRecursive });
type Resources = Record<string, Res>;

interface Item {
  accesses: { type: string; isAllowed: boolean }[];
  users: string[];
  groups: string[];
  roles: string[];
  conditions: never[];
  delegateAdmin: boolean;
}

/** What the request generator needs to know about a policy. */
interface Shape {
  kind: 'access' | 'mask' | 'rowfilter';
  resources: Resources;
  /** Groups named by its (first) allow / mask / filter item. */
  groups: number[];
}

export function generate(n: number, seed = 42): { bundle: unknown; shapes: Shape[]; nDb: number } {
  const rnd = prng(seed + n);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const serviceDef = JSON.parse(readFileSync(SERVICE_DEF, 'utf8')) as Record<string, unknown>;
  const nDb = Math.max(3, Math.ceil(n / 25));
  const dbName = (i: number) => `${DOMAINS[i % DOMAINS.length]}_db${i}`;
  const tableName = (t: number) => `${TABLE_STEMS[t % TABLE_STEMS.length]}_${t}`;

  const item = (accesses: string[], groups: number[], extra: { users?: string[]; roles?: string[] } = {}): Item => ({
    accesses: accesses.map((type) => ({ type, isAllowed: true })),
    users: extra.users ?? [],
    groups: groups.map(group),
    roles: extra.roles ?? [],
    conditions: [],
    delegateAdmin: false,
  });
  const someGroups = () => [...new Set(Array.from({ length: int(1, 3) }, () => int(0, GROUPS - 1)))];
  const accessSet = () => {
    const r = rnd();
    if (r < 0.55) return ['select'];
    if (r < 0.8) return ['select', 'update'];
    if (r < 0.92) return ['select', 'update', 'create', 'drop', 'alter'];
    return ['all'];
  };

  let id = 0;
  const policies: Record<string, unknown>[] = [];
  const shapes: Shape[] = [];
  const base = (name: string, policyType: number, resources: Resources) => ({
    id: ++id,
    guid: `bench-${n}-${id}`,
    isEnabled: true,
    isAuditEnabled: true,
    version: 1,
    service: 'hivedev',
    serviceType: 'hive',
    name,
    policyType,
    policyPriority: 0,
    description: '',
    resources,
    additionalResources: [],
    conditions: [],
    policyItems: [] as Item[],
    denyPolicyItems: [] as Item[],
    allowExceptions: [] as Item[],
    denyExceptions: [] as Item[],
    dataMaskPolicyItems: [] as unknown[],
    rowFilterPolicyItems: [] as unknown[],
    validitySchedules: [],
    isDenyAllElse: false,
    policyLabels: [],
  });

  // Ranger's default policies of a new Hive service.
  const everything = ['select', 'update', 'create', 'drop', 'alter', 'index', 'lock', 'read', 'write', 'refresh', 'all'];
  const defaults: [string, Resources][] = [
    ['all - database, table, column', { database: res(['*']), table: res(['*']), column: res(['*']) }],
    ['all - database, udf', { database: res(['*']), udf: res(['*']) }],
    ['all - url', { url: res(['*'], false, true) }],
  ];
  for (const [name, resources] of defaults) {
    const p = base(name, 0, resources);
    p.policyItems.push({ ...item(everything, []), users: ['hive', 'admin'], delegateAdmin: true });
    policies.push(p);
  }

  const rest = Math.max(0, n - defaults.length);
  const nMask = Math.max(1, Math.round(rest * 0.07));
  const nFilter = Math.max(1, Math.round(rest * 0.05));
  const nAccess = Math.max(0, rest - nMask - nFilter);

  for (let k = 0; k < nAccess; k++) {
    const d = int(0, nDb - 1);
    const t = int(0, TABLES_PER_DB - 1);
    const r = rnd();
    let resources: Resources;
    if (r < 0.62) resources = { database: res([dbName(d)]), table: res([tableName(t)]), column: res(['*']) };
    else if (r < 0.72) {
      const cols = [...new Set(Array.from({ length: int(2, 4) }, () => pick(COLUMNS)))];
      resources = { database: res([dbName(d)]), table: res([tableName(t)]), column: res(cols) };
    } else if (r < 0.87) resources = { database: res([dbName(d)]), table: res([`${pick(TABLE_STEMS)}_*`]), column: res(['*']) };
    else if (r < 0.88) {
      // Team-wide database wildcards: `sales_*` or `sales_db1*`.
      const prefix = rnd() < 0.2 ? `${pick(DOMAINS)}_*` : `${pick(DOMAINS)}_db${int(0, 9)}*`;
      resources = { database: res([prefix]), table: res(['*']), column: res(['*']) };
    } else if (r < 0.93) resources = { database: res([dbName(d)]), table: res(['*']), column: res(['*']) };
    else if (r < 0.97) resources = { database: res([dbName(d)]), table: res([tableName(t)]), column: res(['ssn', 'card_number'], true) };
    else resources = { database: res([dbName(d)]), udf: res([`fn_${pick(TABLE_STEMS)}*`]) };
    const p = base(`access-${k}`, 0, resources);
    if (rnd() < 0.01) p.policyPriority = 1;
    const groups = someGroups();
    p.policyItems.push(item(accessSet(), groups, rnd() < 0.3 ? { users: [user(int(0, USERS - 1))] } : {}));
    if (rnd() < 0.4) p.policyItems.push(item(accessSet(), someGroups(), rnd() < 0.5 ? { roles: [role(int(0, ROLES - 1))] } : {}));
    if (rnd() < 0.1) {
      p.denyPolicyItems.push(item(pick([['select'], ['update', 'drop'], ['all']]), [int(0, GROUPS - 1)]));
      if (rnd() < 0.33) p.denyExceptions.push(item(['select'], [], { users: [user(int(0, USERS - 1))] }));
    }
    if (rnd() < 0.05) p.allowExceptions.push(item(['update', 'drop'], [], { users: [user(usersInGroup(groups[0]!)[0] ?? 0)] }));
    policies.push(p);
    shapes.push({ kind: 'access', resources, groups });
  }

  for (let k = 0; k < nMask; k++) {
    const resources = { database: res([dbName(int(0, nDb - 1))]), table: res([tableName(int(0, TABLES_PER_DB - 1))]), column: res([pick(SENSITIVE)]) };
    const p = base(`mask-${k}`, 1, resources);
    const exempt = someGroups();
    const masked = someGroups();
    const mi = (groups: number[], type: string) => ({ ...item(['select'], groups), dataMaskInfo: { dataMaskType: type } });
    if (rnd() < 0.5) p.dataMaskPolicyItems.push(mi(exempt, 'MASK_NONE'));
    p.dataMaskPolicyItems.push(mi(masked, pick(MASK_TYPES)));
    policies.push(p);
    shapes.push({ kind: 'mask', resources, groups: masked });
  }

  for (let k = 0; k < nFilter; k++) {
    const resources = { database: res([dbName(int(0, nDb - 1))]), table: res([tableName(int(0, TABLES_PER_DB - 1))]) };
    const p = base(`rowfilter-${k}`, 2, resources);
    const groups = someGroups();
    p.rowFilterPolicyItems.push({ ...item(['select'], groups), rowFilterInfo: { filterExpr: `region = '${pick(['EU', 'US', 'APAC'])}'` } });
    if (rnd() < 0.5) p.rowFilterPolicyItems.push({ ...item(['select'], someGroups()), rowFilterInfo: { filterExpr: `created_at > current_date - ${int(7, 90)}` } });
    policies.push(p);
    shapes.push({ kind: 'rowfilter', resources, groups });
  }

  const bundle = {
    serviceName: 'hivedev',
    serviceId: 1,
    policyVersion: n,
    auditMode: 'audit-default',
    serviceConfig: {},
    serviceDef,
    policies,
    policyDeltas: null,
    securityZones: {},
  };
  return { bundle, shapes, nDb };
}

export interface BenchRequest {
  kind: 'access' | 'mask' | 'rowfilter';
  resource: Record<string, string>;
  accessType: string;
  user: string;
  groups: string[];
}

/** `count` requests of each kind: ~65 % aimed at a generated policy, the rest at anything. */
export function requests(n: number, shapes: readonly Shape[], nDb: number, count: number, seed = 7): BenchRequest[] {
  const rnd = prng(seed * 1000003 + n);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const dbName = (i: number) => `${DOMAINS[i % DOMAINS.length]}_db${i}`;
  const tableName = (t: number) => `${TABLE_STEMS[t % TABLE_STEMS.length]}_${t}`;
  /** A concrete name a policy value matches (`stem_*` → `stem_<n>`, `*` → anything). */
  const concrete = (v: string, any: () => string) => (v === '*' ? any() : v.endsWith('*') ? v.slice(0, -1) + String(int(0, 99)) : v);
  const who = (groups: number[]): { user: string; groups: string[] } => {
    let u = int(0, USERS - 1);
    if (groups.length > 0 && rnd() < 0.6) u = pick(usersInGroup(pick(groups))) ?? u;
    if (rnd() < 0.02) return { user: 'hive', groups: ['hadoop'] };
    return { user: user(u), groups: groupsOf(u) };
  };
  const randomTable = () => ({ database: rnd() < 0.9 ? dbName(int(0, nDb - 1)) : `scratch_${int(0, 99)}`, table: rnd() < 0.8 ? tableName(int(0, TABLES_PER_DB - 1)) : `tmp_${int(0, 999)}` });
  const ofKind = (k: Shape['kind']) => shapes.filter((s) => s.kind === k);
  const out: BenchRequest[] = [];

  const access = ofKind('access');
  for (let i = 0; i < count; i++) {
    const s = access.length > 0 && rnd() < 0.65 ? pick(access) : null;
    let database: string;
    let table: string | undefined;
    let column: string | undefined;
    if (s) {
      database = concrete(s.resources.database?.values[0] ?? '*', () => dbName(int(0, nDb - 1)));
      if (s.resources.udf) {
        out.push({ kind: 'access', resource: { database, udf: concrete(s.resources.udf.values[0]!, () => 'fn_x') }, accessType: 'select', ...who(s.groups) });
        continue;
      }
      table = concrete(s.resources.table!.values[0]!, () => tableName(int(0, TABLES_PER_DB - 1)));
      const cols = s.resources.column!;
      column = cols.isExcludes ? pick(COLUMNS.filter((c) => !cols.values.includes(c))) : concrete(pick(cols.values), () => pick(COLUMNS));
    } else ({ database, table } = randomTable());
    const r = rnd();
    const subject = who(s?.groups ?? []);
    if (r < 0.7) out.push({ kind: 'access', resource: { database, table: table!, column: column ?? pick(COLUMNS) }, accessType: 'select', ...subject });
    else if (r < 0.95) out.push({ kind: 'access', resource: { database, table: table! }, accessType: pick(['update', 'update', 'create', 'drop', 'alter']), ...subject });
    else out.push({ kind: 'access', resource: { database }, accessType: '_any', ...subject });
  }

  const mask = ofKind('mask');
  for (let i = 0; i < count; i++) {
    const s = rnd() < 0.65 ? pick(mask) : null;
    const resource = s
      ? { database: s.resources.database!.values[0]!, table: s.resources.table!.values[0]!, column: s.resources.column!.values[0]! }
      : { ...randomTable(), column: pick(COLUMNS) };
    out.push({ kind: 'mask', resource, accessType: 'select', ...who(s?.groups ?? []) });
  }

  const filter = ofKind('rowfilter');
  for (let i = 0; i < count; i++) {
    const s = rnd() < 0.65 ? pick(filter) : null;
    const resource = s ? { database: s.resources.database!.values[0]!, table: s.resources.table!.values[0]! } : randomTable();
    out.push({ kind: 'rowfilter', resource, accessType: 'select', ...who(s?.groups ?? []) });
  }
  return out;
}

function arg(name: string, dflt?: string): string {
  const i = process.argv.indexOf(`--${name}`);
  if (i >= 0 && process.argv[i + 1] !== undefined) return process.argv[i + 1]!;
  if (dflt === undefined) throw new Error(`missing --${name}`);
  return dflt;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  const out = arg('out');
  const counts = arg('policies', '10,1000,10000').split(',').map(Number);
  const count = Number(arg('requests', '1000'));
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'roles.json'), JSON.stringify(rangerRoles()));
  for (const n of counts) {
    const { bundle, shapes, nDb } = generate(n);
    writeFileSync(join(out, `policies-${n}.json`), JSON.stringify(bundle));
    writeFileSync(join(out, `requests-${n}.json`), JSON.stringify(requests(n, shapes, nDb, count)));
    console.error(`generate: ${n} policies (${shapes.filter((s) => s.kind === 'access').length + 3} access, ${shapes.filter((s) => s.kind === 'mask').length} mask, ${shapes.filter((s) => s.kind === 'rowfilter').length} row-filter), ${3 * count} requests → ${out}`);
  }
}
