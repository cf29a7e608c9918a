/** Ranger's grant merge and the labelled, non-cascading revoke, on plain policy JSON. */
import { DATA_GATE_TYPES, planDataGate } from './dataGateWrites.js';
import { applyGrant, applyRevoke, findPolicy, holdsAt, type Json } from './merge.js';
import { parseGrantorLabel, planGrant, planRevoke, resolveTarget, type PlanContext } from './plan.js';
import { showGrants } from './showGrants.js';
import type { Privilege } from './privileges.js';
import type { Grantee } from './statement.js';

const ctx: PlanContext = { catalog: 'lake', realm: '*', defaultSchema: 'sales' };
const dave: Grantee = { type: 'USER', name: 'dave' };
const table = resolveTarget({ kind: 'table', parts: ['sales', 'orders'] }, ctx);
let n = 0;
const grant = (all: Json[], p: Privilege, g: Grantee = dave, deny = false) => {
  for (const write of planGrant(p, table, ctx, deny)) applyGrant(all, { write, grantee: g, effect: deny ? 'deny' : 'allow', delegateAdmin: false, grantor: 'carol' }, 1000, () => `g${++n}`);
};
const itemTypes = (p: Json | undefined, who: string, list = 'policyItems') =>
  ((p?.[list] as { users: string[]; roles: string[]; accesses: { type: string }[] }[]) ?? [])
    .filter((i) => i.users.includes(who) || i.roles.includes(who))
    .flatMap((i) => i.accesses.map((a) => a.type))
    .sort();
const tableRes = { root: '*', catalog: 'lake', namespace: 'sales', table: 'orders' };

describe('grant merge', () => {
  it('one policy per resource signature; a second grant merges into the grantee\'s own item', () => {
    const all: Json[] = [];
    grant(all, 'SELECT');
    grant(all, 'SELECT');
    grant(all, 'DROP');
    expect(all).toHaveLength(3);
    // DROP: what DROP_TABLE_WITH_PURGE checks (table-drop, table-data-write)
    expect(itemTypes(findPolicy(all, tableRes), 'dave')).toEqual(['table-data-read', 'table-data-write', 'table-drop', 'table-list', 'table-properties-read']);
    expect((findPolicy(all, tableRes)!['policyItems'] as unknown[]).length).toBe(1);
  });
  it('an existing policy on the same resource (written by hand) gets a new item, its own items untouched', () => {
    const existing = { id: 7, name: 'by hand', policyType: 0, resources: { root: { values: ['*'] }, catalog: { values: ['lake'] }, namespace: { values: ['sales'] }, table: { values: ['orders'] } }, policyItems: [{ accesses: [{ type: 'table-list', isAllowed: true }], users: ['erin'], roles: [], groups: [] }] };
    const all: Json[] = [existing];
    grant(all, 'SELECT');
    expect(all.filter((p) => p['id'] === 7)).toHaveLength(1);
    expect(itemTypes(existing, 'erin')).toEqual(['table-list']);
    expect(itemTypes(existing, 'dave')).toEqual(['table-data-read', 'table-list', 'table-properties-read']);
  });
});

describe('labelled revoke', () => {
  it('REVOKE INSERT keeps what SELECT still needs; REVOKE SELECT then empties the policy', () => {
    const all: Json[] = [];
    grant(all, 'SELECT');
    grant(all, 'INSERT');
    let r = applyRevoke(all, planRevoke('INSERT', table, ctx), dave, 2000);
    expect(r.heldBack.sort()).toEqual(['table-data-read', 'table-list', 'table-properties-read']);
    expect(r.removed).toHaveLength(16);
    expect(itemTypes(findPolicy(all, tableRes), 'dave')).toEqual(['table-data-read', 'table-list', 'table-properties-read']);
    r = applyRevoke(all, planRevoke('SELECT', table, ctx), dave, 3000);
    expect(r.empty).toBe(true);
    expect(r.unlabelled).toBe(false);
  });
  it('another grantee\'s labels hold nothing back for dave', () => {
    const all: Json[] = [];
    grant(all, 'SELECT');
    grant(all, 'INSERT', { type: 'USER', name: 'erin' });
    applyRevoke(all, planRevoke('SELECT', table, ctx), dave, 2000);
    expect(itemTypes(findPolicy(all, tableRes), 'dave')).toEqual([]);
    expect(itemTypes(findPolicy(all, tableRes), 'erin')).toHaveLength(19);
  });
  it('an unlabelled grant falls back to removing the named types, and says so', () => {
    const existing = { id: 7, policyType: 0, resources: { root: { values: ['*'] }, catalog: { values: ['lake'] }, namespace: { values: ['sales'] }, table: { values: ['orders'] } }, policyItems: [{ accesses: ['table-list', 'table-data-read', 'table-drop'].map((type) => ({ type, isAllowed: true })), users: ['dave', 'erin'], roles: [], groups: [] }] };
    const all: Json[] = [existing];
    const r = applyRevoke(all, planRevoke('SELECT', table, ctx), dave, 2000);
    expect(r.unlabelled).toBe(true);
    // the shared item keeps erin whole; dave keeps only what SELECT did not name
    expect(itemTypes(existing, 'erin')).toEqual(['table-data-read', 'table-drop', 'table-list']);
    expect(itemTypes(existing, 'dave').filter((t) => t !== 'table-data-read' && t !== 'table-list')).toEqual(['table-drop']);
    expect((existing.policyItems as { users: string[] }[]).find((i) => i.users.includes('dave') && i.users.length === 1)!).toBeDefined();
  });
  it('REVOKE removes a deny too', () => {
    const all: Json[] = [];
    grant(all, 'SELECT', dave, true);
    expect(itemTypes(findPolicy(all, tableRes), 'dave', 'denyPolicyItems')).toEqual(['table-data-read', 'table-list', 'table-properties-read']);
    expect(all).toHaveLength(1); // a deny writes its own level only
    const r = applyRevoke(all, planRevoke('SELECT', table, ctx), dave, 2000);
    expect(r.empty).toBe(true);
  });
});

describe('plan', () => {
  it('a nested namespace is laid out as Polaris sends it (the last slot absorbs the rest)', () => {
    const t = { level: 'table' as const, kind: 'table' as const, namespace: ['a', 'b'], table: 't' };
    const w = planGrant('SELECT', t, ctx, false);
    expect(w.map((x) => x.resource)).toEqual([
      { root: '*', catalog: 'lake' },
      { root: '*', catalog: 'lake', namespace: 'a/b' },
      { root: '*', catalog: 'lake', namespace: 'a', table: 'b/t' },
    ]);
  });
  it('views use the view-* types in the table slot, traversal adds view-list', () => {
    const v = resolveTarget({ kind: 'view', parts: ['sales', 'v'] }, ctx);
    const w = planGrant('SELECT', v, ctx, false);
    expect(w.map((x) => [...x.types])).toEqual([['namespace-list'], ['namespace-list', 'namespace-properties-read', 'view-list'], ['view-properties-read', 'view-list']]);
  });
  it('ALL binds to the catalog: one policy of explicit types', () => {
    const c = resolveTarget({ kind: 'database', parts: ['lake'] }, ctx);
    const w = planGrant('ALL', c, ctx, false);
    expect(w).toHaveLength(1);
    expect(w[0]!.types).toContain('catalog-content-manage');
    expect(w[0]!.types).toContain('table-data-read');
  });
});

describe('write privileges: REVOKE keeps what a remaining privilege needs', () => {
  const tableTypes = (all: Json[], list = 'policyItems') => itemTypes(findPolicy(all, tableRes), 'dave', list);
  it('UPDATE writes what INSERT writes, under its own label: REVOKE INSERT leaves UPDATE whole', () => {
    const all: Json[] = [];
    grant(all, 'INSERT');
    const insert = tableTypes(all);
    grant(all, 'UPDATE');
    expect(tableTypes(all)).toEqual(insert);
    const r = applyRevoke(all, planRevoke('INSERT', table, ctx), dave, 2000);
    expect(r.removed).toEqual([]);
    expect(tableTypes(all)).toEqual(insert);
    expect(findPolicy(all, tableRes)!['policyLabels']).toEqual(['chm-grantor:USER:dave:carol', 'chm:USER:dave:UPDATE']);
    expect(applyRevoke(all, planRevoke('UPDATE', table, ctx), dave, 3000).empty).toBe(true);
  });
  it('REVOKE ALTER keeps the commit types INSERT shares and takes the three INSERT leaves out (location, uuid, format version)', () => {
    const all: Json[] = [];
    grant(all, 'INSERT');
    grant(all, 'ALTER');
    const r = applyRevoke(all, planRevoke('ALTER', table, ctx), dave, 2000);
    expect(r.removed.sort()).toEqual(['table-format-version-upgrade', 'table-location-set', 'table-uuid-assign']);
    expect(r.heldBack).toContain('table-schema-add');
    expect(tableTypes(all)).toHaveLength(19);
  });
  it('REVOKE DROP keeps the table-data-write INSERT needs; the drop itself goes', () => {
    const all: Json[] = [];
    grant(all, 'INSERT');
    grant(all, 'DROP');
    const r = applyRevoke(all, planRevoke('DROP', table, ctx), dave, 2000);
    expect(r.removed).toEqual(['table-drop']);
    expect(r.heldBack).toEqual(['table-data-write']);
  });
});

describe('DENY INSERT', () => {
  const tableTypes = (all: Json[], list = 'policyItems') => itemTypes(findPolicy(all, tableRes), 'dave', list);
  it('denies the writes and leaves the reading a SELECT grant gives', () => {
    const all: Json[] = [];
    grant(all, 'SELECT');
    grant(all, 'INSERT', dave, true);
    expect(tableTypes(all)).toEqual(['table-data-read', 'table-list', 'table-properties-read']);
    const denied = tableTypes(all, 'denyPolicyItems');
    expect(denied).toContain('table-snapshot-add');
    expect(denied).toContain('table-data-write');
    expect(denied).toContain('table-properties-write');
    expect(denied.filter((t) => ['table-data-read', 'table-list', 'table-properties-read'].includes(t))).toEqual([]);
    expect(findPolicy(all, tableRes)!['policyLabels']).toEqual(['chm:USER:dave:SELECT', 'chm-grantor:USER:dave:carol', 'chm:USER:dave:DENY_INSERT']);
  });
  it('REVOKE INSERT takes the deny away; a DENY SELECT of the same grantee keeps its own deny', () => {
    const all: Json[] = [];
    grant(all, 'INSERT', dave, true);
    grant(all, 'SELECT', dave, true);
    applyRevoke(all, planRevoke('INSERT', table, ctx), dave, 2000);
    expect(tableTypes(all, 'denyPolicyItems')).toEqual(['table-data-read', 'table-list', 'table-properties-read']);
  });
  it('a DENY INSERT written with the grant\'s types (labelled) is cleared whole; an unlabelled deny keeps its reading denied', () => {
    const denyItem = (labels: string[]) => ({
      id: 9,
      policyType: 0,
      resources: { root: { values: ['*'] }, catalog: { values: ['lake'] }, namespace: { values: ['sales'] }, table: { values: ['orders'] } },
      denyPolicyItems: [{ accesses: planRevoke('INSERT', table, ctx).types.map((type) => ({ type, isAllowed: true })), users: ['dave'], roles: [], groups: [] }],
      policyLabels: labels,
    });
    const labelled: Json[] = [denyItem(['chm:USER:dave:DENY_INSERT'])];
    expect(applyRevoke(labelled, planRevoke('INSERT', table, ctx), dave, 2000).empty).toBe(true);
    const unlabelled: Json[] = [denyItem([])];
    applyRevoke(unlabelled, planRevoke('INSERT', table, ctx), dave, 2000);
    expect(itemTypes(unlabelled[0], 'dave', 'denyPolicyItems')).toEqual(['table-data-read', 'table-list', 'table-properties-read']);
  });
});

describe('the data gate\'s policies (projectWrites): the same labels and merge, Hive\'s access types', () => {
  const hive = planDataGate('INSERT', table)!;
  const hiveRes = { database: 'sales', table: 'orders', column: '*' };
  const grantHive = (all: Json[], p: Privilege) => applyGrant(all, { write: planDataGate(p, table)!, grantee: dave, effect: 'allow', delegateAdmin: false, grantor: 'carol' }, 1000, () => `h${++n}`);
  it('INSERT and UPDATE both hold update: REVOKE INSERT keeps it, REVOKE UPDATE empties the policy', () => {
    const all: Json[] = [];
    grantHive(all, 'INSERT');
    grantHive(all, 'UPDATE');
    grantHive(all, 'ALTER');
    expect(all).toHaveLength(1);
    expect(itemTypes(findPolicy(all, hiveRes), 'dave')).toEqual(['alter', 'update']);
    expect(applyRevoke(all, hive, dave, 2000, DATA_GATE_TYPES).removed).toEqual([]);
    expect(applyRevoke(all, planDataGate('UPDATE', table)!, dave, 2000, DATA_GATE_TYPES).removed).toEqual(['update']);
    expect(itemTypes(findPolicy(all, hiveRes), 'dave')).toEqual(['alter']);
  });
});

describe("grantor labels: sqe's chm-grantor:<KIND>:<grantee>:<grantor>, and lakegate's earlier chm-grantor:<grantor>", () => {
  const erin: Grantee = { type: 'USER', name: 'erin' };
  const analysts: Grantee = { type: 'ROLE', name: 'analyst' };
  /** A policy as sqe writes it: two grantees on one table, each with its grantor. */
  const sqeShared = (): Json => ({
    id: 9,
    name: 'sqe-grant-lake-sales-orders',
    policyType: 0,
    resources: { root: { values: ['*'] }, catalog: { values: ['lake'] }, namespace: { values: ['sales'] }, table: { values: ['orders'] } },
    policyItems: [
      { accesses: ['table-data-read', 'table-list', 'table-properties-read'].map((type) => ({ type, isAllowed: true })), users: [], roles: ['analyst'], groups: [] },
      { accesses: ['table-data-read', 'table-list', 'table-properties-read'].map((type) => ({ type, isAllowed: true })), users: ['erin'], roles: [], groups: [] },
    ],
    policyLabels: ['chm:ROLE:analyst:SELECT', 'chm-grantor:ROLE:analyst:carol', 'chm:USER:erin:SELECT', 'chm-grantor:USER:erin:bob'],
  });

  it('a grant writes the grantee kind and name with the grantor; a group as the role of its name', () => {
    const all: Json[] = [];
    grant(all, 'SELECT');
    grant(all, 'SELECT', { type: 'GROUP', name: 'ws-sales' });
    expect(findPolicy(all, tableRes)!['policyLabels']).toEqual(['chm:USER:dave:SELECT', 'chm-grantor:USER:dave:carol', 'chm:GROUP:ws-sales:SELECT', 'chm-grantor:ROLE:ws-sales:carol']);
  });

  it("REVOKE from one grantee of sqe's shared policy takes its types and its grantor, and leaves the other's", () => {
    const all = [sqeShared()];
    const r = applyRevoke(all, planRevoke('SELECT', table, ctx), erin, 2000);
    expect([r.removed.sort(), r.unlabelled, r.empty]).toEqual([['table-data-read', 'table-list', 'table-properties-read'], false, false]);
    expect(itemTypes(all[0], 'analyst')).toEqual(['table-data-read', 'table-list', 'table-properties-read']);
    expect(itemTypes(all[0], 'erin')).toEqual([]);
    expect(all[0]!['policyLabels']).toEqual(['chm:ROLE:analyst:SELECT', 'chm-grantor:ROLE:analyst:carol']);
    expect(applyRevoke(all, planRevoke('SELECT', table, ctx), analysts, 3000).empty).toBe(true);
  });

  it("a grantee's grantor stays while it holds something there; an earlier label naming no grantee stays", () => {
    const all: Json[] = [];
    grant(all, 'SELECT');
    grant(all, 'INSERT');
    const p = findPolicy(all, tableRes)!;
    p['policyLabels'] = [...(p['policyLabels'] as string[]), 'chm-grantor:carol'];
    applyRevoke(all, planRevoke('INSERT', table, ctx), dave, 2000);
    expect(p['policyLabels']).toEqual(['chm:USER:dave:SELECT', 'chm-grantor:USER:dave:carol', 'chm-grantor:carol']);
  });

  it('parses both forms; a grantee name may hold ":"', () => {
    expect(parseGrantorLabel('chm-grantor:ROLE:analyst:carol')).toEqual({ grantee: { field: 'roles', name: 'analyst' }, grantor: 'carol' });
    expect(parseGrantorLabel('chm-grantor:USER:a:b:erin')).toEqual({ grantee: { field: 'users', name: 'a:b' }, grantor: 'erin' });
    expect(parseGrantorLabel('chm-grantor:GROUP:ws:carol')).toEqual({ grantee: { field: 'roles', name: 'ws' }, grantor: 'carol' });
    expect(parseGrantorLabel('chm-grantor:carol')).toEqual({ grantee: null, grantor: 'carol' });
    expect(parseGrantorLabel('chm:ROLE:analyst:SELECT')).toBeNull();
    expect(parseGrantorLabel('chm-grantor:')).toBeNull();
  });

  it("SHOW GRANTS: each grantee's row names its own grantors, and every grantor an earlier label names", () => {
    const p = sqeShared();
    p['policyLabels'] = [...(p['policyLabels'] as string[]), 'chm-grantor:frank'];
    const rows = showGrants([p], {}).rows!.filter((r) => r[0] === 'table-data-read').map((r) => [r[2], r[3], r[5]]);
    expect(rows).toEqual([
      ['ROLE', 'analyst', 'carol,frank'],
      ['USER', 'erin', 'bob,frank'],
    ]);
  });
});

describe('holdsAt: a level the grantee holds at exactly this resource', () => {
  const catalogRes = { root: '*', catalog: 'lake' };
  const policy = (resources: Record<string, string[]>, item: Json, extra: Json = {}): Json => ({
    policyType: 0,
    resources: Object.fromEntries(Object.entries(resources).map(([k, v]) => [k, { values: v }])),
    policyItems: [item],
    ...extra,
  });
  const item = (who: Json, types = ['namespace-list']): Json => ({ accesses: types.map((type) => ({ type, isAllowed: true })), users: [], roles: [], groups: [], ...who });
  it('the exact resource and the grantee named: held; a wildcard, a role of the user, a condition, a disabled policy or a deny: not', () => {
    expect(holdsAt([policy({ root: ['*'], catalog: ['lake'] }, item({ users: ['dave', 'erin'] }))], catalogRes, dave, ['namespace-list'])).toBe(true);
    expect(holdsAt([policy({ root: ['*'], catalog: ['*'] }, item({ users: ['dave'] }))], catalogRes, dave, ['namespace-list'])).toBe(false);
    expect(holdsAt([policy({ root: ['*'], catalog: ['lake'] }, item({ roles: ['dave'] }))], catalogRes, dave, ['namespace-list'])).toBe(false);
    expect(holdsAt([policy({ root: ['*'], catalog: ['lake'] }, item({ users: ['dave'], conditions: [{ type: 'ip-range', values: ['10.*'] }] }))], catalogRes, dave, ['namespace-list'])).toBe(false);
    expect(holdsAt([policy({ root: ['*'], catalog: ['lake'] }, item({ users: ['dave'] }), { isEnabled: false })], catalogRes, dave, ['namespace-list'])).toBe(false);
    expect(holdsAt([policy({ root: ['*'], catalog: ['lake'] }, item({ users: ['dave'] }), { denyPolicyItems: [item({ users: ['dave'] })] })], catalogRes, dave, ['namespace-list'])).toBe(false);
    expect(holdsAt([policy({ root: ['*'], catalog: ['lake'] }, item({ users: ['dave'] }))], catalogRes, dave, ['namespace-list', 'namespace-create'])).toBe(false);
  });
});
