/**
 * Access-control statements against the Ranger Admin test server
 * (tests/fixtures/rangerAdmin): the embedded catalog's gate reads the polaris
 * service's policies from Ranger Admin's download endpoint, and GRANT writes
 * them through Ranger Admin's public policy API (admin-role) or its grant /
 * revoke endpoints with the session user as grantor (ranger-delegate). A
 * warehouse written by pyiceberg's SqlCatalog; dave's open session sees each
 * change at its next statement.
 *
 * Controls: dave's 42P01 before each grant and carol's read of the same table.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { polarisPolicy } from '../fixtures/polaris/policies.js';
import { polarisServiceDefJson } from '../fixtures/polaris/serviceDef.js';
import { startRangerAdmin, type RangerAdminServer } from '../fixtures/rangerAdmin/server.js';
import { loadParser } from '../../sql/parse.js';
import { connect, rejection } from '../support/clients.js';
import { embeddedConfig, failure, missingRelation, textRows, writeDataGate, writeWarehouse, type Described } from '../support/grantsLake.js';
import { startInProcess, type InProcessGateway } from '../support/inProcess.js';

const ADMIN = { username: 'lakegate', password: 'lakegate-admin-secret' };
let root: string;
let tables: Record<string, Described>;
let ranger: RangerAdminServer;
const gateways: InProcessGateway[] = [];

const ROLES = [
  { name: 'analyst', users: ['alice', 'bob', 'carol', 'erin'].map((name) => ({ name, isAdmin: false })) },
  { name: 'engineer', users: [{ name: 'bob', isAdmin: false }, { name: 'carol', isAdmin: false }] },
  { name: 'sqe_admin', users: [{ name: 'carol', isAdmin: false }] },
];

async function gateway(grantAuthority: 'admin-role' | 'ranger-delegate'): Promise<InProcessGateway> {
  const source = { kind: 'admin' as const, url: ranger.url, serviceName: 'polaris', username: ADMIN.username, password: ADMIN.password, timeoutMs: 5000, retries: 0, tagService: false };
  const g = await startInProcess(() => embeddedConfig(root, source, { grantAuthority }));
  gateways.push(g);
  return g;
}

beforeAll(async () => {
  await loadParser();
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'lakegate-grants-ranger-'));
  tables = await writeWarehouse(root);
  writeDataGate(root);
  const ns = ['namespace-list', 'namespace-properties-read', 'table-list'];
  const read = ['table-list', 'table-properties-read', 'table-data-read'];
  ranger = await startRangerAdmin({
    users: { [ADMIN.username]: { password: ADMIN.password, admin: true } },
    serviceName: 'polaris',
    serviceType: 'polaris',
    serviceDef: polarisServiceDefJson(),
    policies: [
      polarisPolicy({ id: 1, resource: { catalog: 'lake' }, roles: ['analyst', 'engineer'], accessTypes: ['namespace-list'] }),
      polarisPolicy({ id: 2, resource: { catalog: 'lake', namespace: 'sales' }, roles: ['analyst'], accessTypes: ns }),
      polarisPolicy({ id: 3, resource: { catalog: 'lake', namespace: 'sales', table: '*' }, roles: ['analyst'], accessTypes: read }),
      polarisPolicy({ id: 4, resource: { catalog: 'lake', namespace: 'hr' }, roles: ['engineer'], accessTypes: ns }),
      polarisPolicy({ id: 5, resource: { catalog: 'lake', namespace: 'hr', table: '*' }, roles: ['engineer'], accessTypes: read }),
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

const as = (g: InProcessGateway, user: string) => connect({ host: '127.0.0.1', port: g.server.port }, { user, password: user, database: 'lake' });
const rows = textRows;
const scan = (t: string) => tables[t]!.scans[tables[t]!.current]!;
const ORDERS = 'SELECT id, region, amount FROM sales.orders ORDER BY id';
const err = failure;
const missing = missingRelation('sales.orders');
const onOrders = () => ranger.store.listPolicies().find((p) => JSON.stringify(p['resources']).includes('"orders"'));

describe('admin-role: the public policy API', () => {
  let gw: InProcessGateway;
  let carol: pg.Client;
  let dave: pg.Client;
  beforeAll(async () => {
    gw = await gateway('admin-role');
    carol = await as(gw, 'carol');
    dave = await as(gw, 'dave');
  });
  afterAll(async () => {
    await carol?.end();
    await dave?.end();
  });

  it('GRANT: merged into Ranger\'s policies by resource signature; dave reads at his next statement', async () => {
    expect(await rows(carol, ORDERS)).toEqual(scan('sales.orders'));
    expect(await err(dave.query(ORDERS))).toEqual(missing);
    const version = ranger.store.policyVersion;
    await carol.query('GRANT SELECT ON TABLE sales.orders TO USER dave');
    expect(await rows(dave, ORDERS)).toEqual(scan('sales.orders'));
    // p1 and p2 got dave's item (PUT), the table policy is new (POST), all through the public API with the XSRF header
    const writes = ranger.requests.filter((r) => r.method !== 'GET' && r.path.startsWith('/service/public/v2/api/policy'));
    expect(writes.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual(['POST /service/public/v2/api/policy 200', 'PUT /service/public/v2/api/policy/1 200', 'PUT /service/public/v2/api/policy/2 200']);
    expect(ranger.store.policyVersion).toBe(version + 3);
    const t = onOrders()!;
    expect(t['policyLabels']).toEqual(['chm:USER:dave:SELECT', 'chm-grantor:USER:dave:carol']);
    expect(t['createdBy']).toBe(ADMIN.username);
    expect((ranger.store.getPolicy(2)!['policyItems'] as { roles: string[]; users: string[] }[]).map((i) => [i.roles, i.users])).toEqual([[['analyst'], []], [[], ['dave']]]);
  });

  it('SHOW GRANTS reads Ranger\'s policies; CHECK ACCESS decides on them', async () => {
    expect((await rows(carol, 'SHOW GRANTS ON TABLE sales.orders')).map((r) => [r['privilege'], r['grantee_name'], r['effect'], r['granted_by']])).toEqual([
      ['table-data-read', 'dave', 'ALLOW', 'carol'],
      ['table-list', 'dave', 'ALLOW', 'carol'],
      ['table-properties-read', 'dave', 'ALLOW', 'carol'],
    ]);
    expect((await rows(carol, 'CHECK ACCESS SELECT ON sales.orders FOR USER dave'))[0]!['allowed']).toBe('t');
    expect(await rows(carol, 'CHECK ACCESS DROP ON sales.orders FOR USER dave')).toEqual([{ allowed: 'f', reason: 'No matching grant for dave table-drop on lake.sales.orders' }]);
  });

  it('revoking INSERT leaves SELECT; REVOKE SELECT: 42P01 again', async () => {
    await carol.query('GRANT INSERT ON TABLE sales.orders TO USER dave');
    await carol.query('REVOKE INSERT ON TABLE sales.orders FROM USER dave');
    expect((onOrders()!['policyItems'] as { accesses: { type: string }[] }[])[0]!.accesses.map((a) => a.type).sort()).toEqual(['table-data-read', 'table-list', 'table-properties-read']);
    expect(await rows(dave, ORDERS)).toEqual(scan('sales.orders'));
    await carol.query('REVOKE SELECT ON TABLE sales.orders FROM USER dave');
    expect(onOrders()).toBeUndefined(); // emptied: DELETE
    expect(await err(dave.query(ORDERS))).toEqual(missing);
  });

  it('a deny overrides the analysts\' allow', async () => {
    const erin = await as(gw, 'erin');
    expect((await rows(erin, ORDERS)).length).toBe(scan('sales.orders').length);
    await carol.query('DENY SELECT ON TABLE sales.orders TO USER erin');
    expect(await err(erin.query(ORDERS))).toEqual(missing);
    await carol.query('REVOKE SELECT ON TABLE sales.orders FROM USER erin');
    expect((await rows(erin, ORDERS)).length).toBe(scan('sales.orders').length);
    await erin.end();
  });

  it('an unknown grantee: Ranger refuses and its text is passed on', async () => {
    const version = ranger.store.policyVersion;
    expect(await err(carol.query('GRANT SELECT ON TABLE sales.orders TO USER nobody'))).toEqual({ code: '42704', message: 'user with name: nobody does not exist' });
    expect(await err(carol.query('GRANT SELECT ON TABLE sales.orders TO GROUP nosuch'))).toEqual({ code: '42704', message: 'role with name: nosuch does not exist' });
    expect(ranger.store.policyVersion).toBe(version);
  });
});

describe('ranger-delegate: Ranger\'s grant endpoint decides', () => {
  it('WITH GRANT OPTION → delegateAdmin; the delegated grantor writes through /grant as herself', async () => {
    const admin = await gateway('admin-role');
    const carol = await as(admin, 'carol');
    // dave holds nothing: the traversal the first tests left is revoked (REVOKE USAGE clears it)
    await carol.query('REVOKE USAGE ON DATABASE lake FROM USER dave');
    await carol.query('REVOKE USAGE ON SCHEMA sales FROM USER dave');
    expect(await rows(carol, 'SHOW GRANTS TO USER dave')).toEqual([]);
    await carol.query('GRANT SELECT ON TABLE sales.orders TO USER alice WITH GRANT OPTION');
    const item = (onOrders()!['policyItems'] as { users: string[]; delegateAdmin: boolean }[]).find((i) => i.users.includes('alice'))!;
    expect(item.delegateAdmin).toBe(true);
    const gw = await gateway('ranger-delegate');
    const alice = await as(gw, 'alice');
    const dave = await as(gw, 'dave');
    const e = await rejection(alice.query('GRANT SELECT ON TABLE sales.orders TO USER dave'));
    expect([e.code, e.message]).toEqual(['42501', 'permission denied: alice holds no grant option on catalog "lake" for namespace-list']);
    expect((e as { hint?: string }).hint).toBe('An administrator must run: GRANT USAGE ON DATABASE lake TO USER dave; GRANT USAGE ON SCHEMA sales TO USER dave');
    // the administrator (on this gateway, so its caches are flushed) writes the traversal through the public API
    const carolHere = await as(gw, 'carol');
    await carolHere.query('GRANT USAGE ON DATABASE lake TO USER dave');
    await carolHere.query('GRANT USAGE ON SCHEMA sales TO USER dave');
    await carolHere.end();
    expect(await err(dave.query(ORDERS))).toEqual(missing);
    const before = ranger.requestsTo('/service/plugins/secure/services/grant/').length;
    expect((await alice.query('GRANT SELECT ON TABLE sales.orders TO USER dave')).command).toBe('GRANT');
    const grants = ranger.requestsTo('/service/plugins/secure/services/grant/').slice(before);
    expect(grants.map((g) => [g.user, g.status])).toEqual([[ADMIN.username, 200]]);
    expect(await rows(dave, ORDERS)).toEqual(scan('sales.orders'));
    await Promise.all([alice.end(), dave.end(), carol.end()]);
  });
});
