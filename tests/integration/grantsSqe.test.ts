/**
 * GRANT, REVOKE and SHOW GRANTS on policies sqe writes too (issue 20 items 4
 * and 5), against the Ranger Admin test server the grants suites use: the
 * embedded catalog's gate reads the polaris service's policies from its
 * download endpoint, GRANT writes them through the public policy API
 * (admin-role) or the grant endpoint (ranger-delegate).
 *
 * - Grantor labels as sqe writes them (`chm-grantor:<KIND>:<grantee>:<grantor>`)
 *   next to lakegate's earlier `chm-grantor:<grantor>`: SHOW GRANTS names each
 *   grantee's own grantor, REVOKE from one grantee of a shared policy leaves the
 *   other's access (each user's query is the proof, not only the JSON).
 * - An administrator's GRANT writes the whole plan (catalog, namespace, table)
 *   even where the grantee reaches those levels through another policy (here
 *   wildcards naming dave), so the grant survives that policy's removal. Control:
 *   the same GRANT by a delegated grantor skips what the grantee holds, as
 *   ranger-delegate always has.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { polarisPolicy } from '../fixtures/polaris/policies.js';
import { polarisServiceDefJson } from '../fixtures/polaris/serviceDef.js';
import { startRangerAdmin, type RangerAdminServer } from '../fixtures/rangerAdmin/server.js';
import { loadParser } from '../../sql/parse.js';
import { connect } from '../support/clients.js';
import { embeddedConfig, failure, missingRelation, textRows, writeDataGate, writeWarehouse, type Described } from '../support/grantsLake.js';
import { startInProcess, type InProcessGateway } from '../support/inProcess.js';

const ADMIN = { username: 'lakegate', password: 'lakegate-admin-secret' };
const NS = ['namespace-list', 'namespace-properties-read'];
const READ = ['table-data-read', 'table-list', 'table-properties-read'];
let root: string;
let tables: Record<string, Described>;
let ranger: RangerAdminServer;
const gateways: InProcessGateway[] = [];

const ROLES = [
  { name: 'analyst', users: ['alice', 'bob', 'carol', 'erin'].map((name) => ({ name, isAdmin: false })) },
  { name: 'engineer', users: [{ name: 'bob', isAdmin: false }, { name: 'carol', isAdmin: false }] },
  { name: 'sqe_admin', users: [{ name: 'carol', isAdmin: false }] },
];

const item = (users: string[], types: string[]) => ({ accesses: types.map((type) => ({ type, isAllowed: true })), users, roles: [], groups: [], delegateAdmin: false });

/** hr.salaries as sqe leaves it after carol's GRANT to alice and bob's to erin, with a grant lakegate wrote to dave before labels named grantees. */
const SALARIES_ID = 8;
const SALARIES_LABELS = ['chm:USER:alice:SELECT', 'chm-grantor:USER:alice:carol', 'chm:USER:erin:SELECT', 'chm-grantor:USER:erin:bob', 'chm:USER:dave:SELECT', 'chm-grantor:carol'];

beforeAll(async () => {
  await loadParser();
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'lakegate-grants-sqe-'));
  tables = await writeWarehouse(root);
  writeDataGate(root);
  const hrNamespace = polarisPolicy({ id: 4, resource: { catalog: 'lake', namespace: 'hr' }, roles: ['engineer'], accessTypes: [...NS, 'table-list'] });
  // sqe's traversal for alice and erin (sqe labels the deepest level only)
  hrNamespace['policyItems'] = [...(hrNamespace['policyItems'] as unknown[]), item(['alice', 'erin'], NS)];
  const salaries = polarisPolicy({ id: SALARIES_ID, resource: { catalog: 'lake', namespace: 'hr', table: 'salaries' }, users: ['alice'], accessTypes: READ });
  salaries['policyItems'] = [...(salaries['policyItems'] as unknown[]), item(['erin'], READ), item(['dave'], READ)];
  salaries['policyLabels'] = SALARIES_LABELS;
  ranger = await startRangerAdmin({
    users: { [ADMIN.username]: { password: ADMIN.password, admin: true } },
    serviceName: 'polaris',
    serviceType: 'polaris',
    serviceDef: polarisServiceDefJson(),
    policies: [
      polarisPolicy({ id: 1, resource: { catalog: 'lake' }, roles: ['analyst', 'engineer'], accessTypes: ['namespace-list'] }),
      polarisPolicy({ id: 2, resource: { catalog: 'lake', namespace: 'sales' }, roles: ['analyst'], accessTypes: [...NS, 'table-list'] }),
      polarisPolicy({ id: 3, resource: { catalog: 'lake', namespace: 'sales', table: '*' }, roles: ['analyst'], accessTypes: READ }),
      hrNamespace,
      polarisPolicy({ id: 5, resource: { catalog: 'lake', namespace: 'hr', table: '*' }, roles: ['engineer'], accessTypes: READ }),
      // dave's discovery through policies no GRANT of his wrote: wildcards
      polarisPolicy({ id: 6, resource: { catalog: '*' }, users: ['dave'], accessTypes: ['namespace-list'] }),
      polarisPolicy({ id: 7, resource: { catalog: 'lake', namespace: '*' }, users: ['dave'], accessTypes: NS }),
      salaries,
    ].map((p) => ({ ...p, service: 'polaris' })),
    roles: ROLES,
    userStore: ['alice', 'bob', 'carol', 'dave', 'erin', ADMIN.username],
  });
}, 300_000);

afterAll(async () => {
  for (const g of gateways) await g.stop().catch(() => undefined);
  await ranger?.close();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

async function gateway(grantAuthority: 'admin-role' | 'ranger-delegate'): Promise<InProcessGateway> {
  const source = { kind: 'admin' as const, url: ranger.url, serviceName: 'polaris', username: ADMIN.username, password: ADMIN.password, timeoutMs: 5000, retries: 0, tagService: false };
  const g = await startInProcess(() => embeddedConfig(root, source, { grantAuthority }));
  gateways.push(g);
  return g;
}

const as = (g: InProcessGateway, user: string) => connect({ host: '127.0.0.1', port: g.server.port }, { user, password: user, database: 'lake' });
const rows = textRows;
const scan = (t: string) => tables[t]!.scans[tables[t]!.current]!;
const SALARIES = 'SELECT id, salary FROM hr.salaries ORDER BY id';
const ORDERS = 'SELECT id, region, amount FROM sales.orders ORDER BY id';
const EVOLVED = 'SELECT * FROM sales.evolved ORDER BY id';
const policy = (id: number) => ranger.store.getPolicy(id)!;
const usersOf = (p: Record<string, unknown>) => (p['policyItems'] as { users: string[]; roles: string[]; accesses: { type: string }[] }[]).map((i) => [[...i.users, ...i.roles].join(), i.accesses.map((a) => a.type).sort().join()]);
const grantedBy = async (c: pg.Client, sql: string) => (await rows(c, sql)).map((r) => [r['privilege'], r['grantee_type'], r['grantee_name'], r['granted_by']]);

let admin: InProcessGateway;
let carol: pg.Client;
beforeAll(async () => {
  admin = await gateway('admin-role');
  carol = await as(admin, 'carol');
}, 120_000);
afterAll(async () => carol?.end());

describe("grantor labels: a policy sqe wrote, shared by grantees, next to lakegate's earlier label", () => {
  let alice: pg.Client;
  let erin: pg.Client;
  let dave: pg.Client;
  let bob: pg.Client;
  beforeAll(async () => {
    [alice, erin, dave, bob] = await Promise.all(['alice', 'erin', 'dave', 'bob'].map((u) => as(admin, u)));
  });
  afterAll(async () => Promise.all([alice, erin, dave, bob].map((c) => c?.end())));

  it('each grantee reads through its own item; bob through the engineers\' wildcard (control)', async () => {
    for (const c of [alice, erin, dave, bob]) expect(await rows(c, SALARIES)).toEqual(scan('hr.salaries'));
  });

  it("SHOW GRANTS names each grantee's own grantor (an earlier label naming none is every grantee's)", async () => {
    const expected = [
      ...READ.map((t) => [t, 'USER', 'alice', 'carol']),
      ...READ.map((t) => [t, 'USER', 'dave', 'carol']),
      ...READ.map((t) => [t, 'USER', 'erin', 'bob,carol']),
    ];
    expect(await grantedBy(carol, 'SHOW GRANTS ON TABLE hr.salaries')).toEqual(expected);
    expect(await grantedBy(erin, 'SHOW GRANTS TO USER erin')).toEqual([...NS.map((t) => [t, 'USER', 'erin', null]), ...READ.map((t) => [t, 'USER', 'erin', 'bob,carol'])]);
  });

  it("REVOKE from erin takes her item and her grantor: erin's next statement gets 42P01, alice and dave still read", async () => {
    await carol.query('REVOKE SELECT ON TABLE hr.salaries FROM USER erin');
    expect(await failure(erin.query(SALARIES))).toEqual(missingRelation('hr.salaries'));
    expect(await rows(alice, SALARIES)).toEqual(scan('hr.salaries'));
    expect(await rows(dave, SALARIES)).toEqual(scan('hr.salaries'));
    expect(usersOf(policy(SALARIES_ID))).toEqual([['alice', READ.join()], ['dave', READ.join()]]);
    expect(policy(SALARIES_ID)['policyLabels']).toEqual(SALARIES_LABELS.filter((l) => !l.includes(':erin:')));
  });

  it("REVOKE from dave (lakegate's earlier label): his item and label go, alice still reads; the unattributed grantor stays", async () => {
    await carol.query('REVOKE SELECT ON TABLE hr.salaries FROM USER dave');
    expect(await failure(dave.query(SALARIES))).toEqual(missingRelation('hr.salaries'));
    expect(await rows(alice, SALARIES)).toEqual(scan('hr.salaries'));
    expect(await rows(bob, SALARIES)).toEqual(scan('hr.salaries'));
    expect(policy(SALARIES_ID)['policyLabels']).toEqual(['chm:USER:alice:SELECT', 'chm-grantor:USER:alice:carol', 'chm-grantor:carol']);
  });

  it("a GRANT writes sqe's label: erin reads again, and SHOW GRANTS names carol as her grantor", async () => {
    await carol.query('GRANT SELECT ON TABLE hr.salaries TO USER erin');
    expect(await rows(erin, SALARIES)).toEqual(scan('hr.salaries'));
    expect(policy(SALARIES_ID)['policyLabels']).toEqual(['chm:USER:alice:SELECT', 'chm-grantor:USER:alice:carol', 'chm-grantor:carol', 'chm:USER:erin:SELECT', 'chm-grantor:USER:erin:carol']);
    expect((await grantedBy(carol, 'SHOW GRANTS ON TABLE hr.salaries')).filter((r) => r[0] === 'table-data-read')).toEqual([
      ['table-data-read', 'USER', 'alice', 'carol'],
      ['table-data-read', 'USER', 'erin', 'carol'],
    ]);
  });
});

describe("an administrator's GRANT writes the whole plan; a delegated grantor's skips what the grantee holds", () => {
  it('control: the same GRANT by a delegated grantor writes the table level only (dave reaches the others through wildcards)', async () => {
    await carol.query('GRANT SELECT ON TABLE sales.evolved TO USER alice WITH GRANT OPTION');
    // the grant option is on the table alone: alice's traversal items (she held it through her role only) carry none
    const alices = (p: Record<string, unknown>) => (p['policyItems'] as { users: string[]; delegateAdmin: boolean }[]).filter((i) => i.users.includes('alice')).map((i) => i.delegateAdmin);
    expect([alices(policy(1)), alices(policy(2))]).toEqual([[false], [false]]);
    expect(alices(ranger.store.listPolicies().find((p) => JSON.stringify(p['resources']).includes('"evolved"'))!)).toEqual([true]);
    const delegate = await gateway('ranger-delegate');
    const [alice, dave] = await Promise.all([as(delegate, 'alice'), as(delegate, 'dave')]);
    try {
      expect(await failure(dave.query(EVOLVED))).toEqual(missingRelation('sales.evolved'));
      const before = ranger.requestsTo('/service/plugins/secure/services/grant/').length;
      expect((await alice.query('GRANT SELECT ON TABLE sales.evolved TO USER dave')).command).toBe('GRANT');
      // one call: the table's; a call on the catalog or the namespace would be refused (alice holds no grant option there)
      expect(ranger.requestsTo('/service/plugins/secure/services/grant/').slice(before).map((r) => r.status)).toEqual([200]);
      expect((await rows(dave, EVOLVED)).length).toBe(scan('sales.evolved').length);
      for (const id of [1, 2]) expect(JSON.stringify(policy(id)['policyItems'])).not.toContain('"dave"');
    } finally {
      await Promise.all([alice.end(), dave.end()]);
    }
  });

  it("carol's GRANT writes catalog, namespace and table policies for dave; his read survives the wildcards' removal", async () => {
    const dave = await as(admin, 'dave');
    try {
      expect(await failure(dave.query(ORDERS))).toEqual(missingRelation('sales.orders'));
      const before = ranger.requests.length;
      await carol.query('GRANT SELECT ON TABLE sales.orders TO USER dave');
      const writes = ranger.requests.slice(before).filter((r) => r.method !== 'GET' && r.path.startsWith('/service/public/v2/api/policy'));
      expect(writes.map((r) => `${r.method} ${r.path} ${r.status}`).sort()).toEqual(['POST /service/public/v2/api/policy 200', 'PUT /service/public/v2/api/policy/1 200', 'PUT /service/public/v2/api/policy/2 200']);
      expect(usersOf(policy(1))).toContainEqual(['dave', 'namespace-list']);
      expect(usersOf(policy(2))).toContainEqual(['dave', NS.join()]);
      expect(await rows(dave, ORDERS)).toEqual(scan('sales.orders'));
      // the other policies go; a statement that changes nothing makes the gateway read Ranger Admin again
      ranger.store.deletePolicy(6);
      ranger.store.deletePolicy(7);
      await carol.query('REVOKE SELECT ON TABLE sales.orders FROM USER bob');
      expect(await rows(dave, ORDERS)).toEqual(scan('sales.orders'));
    } finally {
      await dave.end();
    }
  });
});
