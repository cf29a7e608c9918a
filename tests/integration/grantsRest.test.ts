/**
 * GRANT in REST mode: lakegate with Keycloak logins in front of the Polaris
 * test front over Iceberg's REST server (tables written by pyiceberg), the
 * polaris service's policies held by the Ranger Admin test server. GRANT
 * writes Ranger Admin (public policy API); the Polaris front takes Ranger's
 * policies on every change (Polaris's Ranger plugin polling with no delay),
 * and decides dave's table loads with them — lakegate enforces nothing on
 * this path; it only flushes its catalog cache so dave's next statement asks
 * Polaris again.
 *
 * Controls: carol reads the table; dave's 42P01 before the grant and after the revoke.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { polarisPolicy, rangerRoles } from '../fixtures/polaris/policies.js';
import { polarisServiceDefJson } from '../fixtures/polaris/serviceDef.js';
import { startRangerAdmin, type RangerAdminServer } from '../fixtures/rangerAdmin/server.js';
import { connect, rejection } from '../support/clients.js';
import { referenceScan, type ReferenceScan } from '../support/icebergTables.js';
import { startInProcess, type InProcessGateway } from '../support/inProcess.js';
import { keycloakForSuite, gatewayKeycloakConfig } from '../support/keycloak.js';
import { lakehouseForSuite } from '../support/lakehouse.js';
import { PII_HIDDEN_TAG_POLICIES, textRows, writeDataGate } from '../support/grantsLake.js';

const kc = keycloakForSuite();
const PRINCIPALS = ['alice', 'bob', 'carol', 'dave', 'erin'];
const ROLES = { analyst: ['alice', 'erin'], sqe_admin: ['carol'] };
const INITIAL = [
  polarisPolicy({ id: 1, resource: { catalog: 'lake' }, users: ['carol'], accessTypes: ['catalog-content-manage', 'namespace-list'] }),
  polarisPolicy({ id: 2, resource: { catalog: 'lake', namespace: '*' }, users: ['carol'], accessTypes: ['namespace-list', 'namespace-properties-read', 'table-list'] }),
  polarisPolicy({ id: 3, resource: { catalog: 'lake', namespace: '*', table: '*' }, users: ['carol'], accessTypes: ['table-list', 'table-properties-read', 'table-data-read', 'table-properties-set', 'table-properties-remove'] }),
].map((p) => ({ ...p, service: 'polaris' }));
const lh = lakehouseForSuite(() => ({ oidc: { issuer: kc().issuer }, principals: PRINCIPALS, policies: INITIAL, roles: rangerRoles(ROLES), only: ['lake.customers'] }));
const ADMIN = { username: 'lakegate', password: 'lakegate-admin-secret' };
let ranger: RangerAdminServer;
let gw: InProcessGateway;
let dir: string;
let reference: ReferenceScan;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lakegate-grants-rest-'));
  ranger = await startRangerAdmin({
    users: { [ADMIN.username]: { password: ADMIN.password, admin: true } },
    serviceName: 'polaris',
    serviceType: 'polaris',
    serviceDef: polarisServiceDefJson(),
    policies: INITIAL,
    roles: Object.entries(ROLES).map(([name, users]) => ({ name, users: users.map((u) => ({ name: u, isAdmin: false })) })),
    userStore: [...PRINCIPALS, ADMIN.username],
  });
  const roles = rangerRoles(ROLES);
  ranger.store.onPoliciesChanged = () => lh().front.setPolicies(ranger.store.listPolicies(), roles);
  reference = await referenceScan(lh().direct('lake'), 'lake.customers');
  gw = await startInProcess(() => ({
    ranger: { source: { kind: 'local' as const, path: writeDataGate(dir, PII_HIDDEN_TAG_POLICIES), serviceName: 'lakehouse' }, refreshMs: 30_000, maxStalenessMs: 300_000 },
    keycloak: gatewayKeycloakConfig(kc(), 5000),
    catalog: {
      database: 'lake',
      cacheTtlMs: 30_000,
      loadConcurrency: 4,
      source: { kind: 'rest' as const, uri: lh().front.url, warehouse: 'lake', timeoutMs: 5000, retries: 1, vendedCredentials: true, warehouseRoots: [lh().rest.warehouse] },
    },
    accessControl: {
      grantAuthority: 'admin-role' as const,
      adminRoles: ['sqe_admin'],
      realm: '*',
      projectTags: false,
      ranger: { url: ranger.url, serviceName: 'polaris', username: ADMIN.username, password: ADMIN.password, timeoutMs: 5000, refreshMs: 30_000 },
    },
  }));
}, 600_000);

afterAll(async () => {
  await gw?.stop();
  await ranger?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const as = (user: string) => connect({ host: '127.0.0.1', port: gw.server.port }, { user, password: user, database: 'lake' });
async function read(c: pg.Client): Promise<number> {
  const r = await c.query({ text: 'SELECT * FROM lake.customers', rowMode: 'array' });
  return r.rows.length;
}

describe('GRANT / REVOKE through Ranger Admin, enforced by Polaris', () => {
  it('carol grants, dave reads at his next statement; revoke, and dave gets 42P01 again', async () => {
    const carol = await as('carol');
    const dave = await as('dave');
    expect(reference.rows.length).toBeGreaterThan(0);
    expect(await read(carol)).toBe(reference.rows.length);
    const denied = await rejection(dave.query('SELECT * FROM lake.customers'));
    expect([denied.code, denied.message]).toEqual(['42P01', 'relation "lake.customers" does not exist']);
    await carol.query('GRANT SELECT ON TABLE lake.customers TO USER dave');
    // Polaris decides with Ranger's new policies: the front saw dave's own loads
    expect(await read(dave)).toBe(reference.rows.length);
    // the table load as dave, allowed by Polaris
    expect(lh().front.requests.filter((r) => r.principal === 'dave' && r.path.endsWith('/tables/customers')).map((r) => r.status)).toContain(200);
    expect((await carol.query('SHOW GRANTS TO USER dave')).rows.map((r: Record<string, string>) => r['resource'])).toEqual(['lake', 'lake.lake', 'lake.lake', 'lake.lake.customers', 'lake.lake.customers', 'lake.lake.customers']);
    await carol.query('REVOKE SELECT ON TABLE lake.customers FROM USER dave');
    const again = await rejection(dave.query('SELECT * FROM lake.customers'));
    expect([again.code, again.message]).toEqual(['42P01', 'relation "lake.customers" does not exist']);
    await Promise.all([carol.end(), dave.end()]);
  });

  it('SET TAG commits the column tag to Polaris as carol (her token); dave sees the column masked at once; UNSET TAG', async () => {
    const carol = await as('carol');
    const dave = await as('dave');
    await carol.query('GRANT SELECT ON TABLE lake.customers TO USER dave');
    const NAMES = 'SELECT id, name FROM lake.customers ORDER BY id';
    const names = (await textRows(carol, NAMES)).map((r) => r['name']);
    // control: name is not tagged yet (email and ssn are, by the table's own property)
    expect(await textRows(dave, NAMES)).toEqual(names.map((name, i) => ({ id: String(i + 1), name })));
    expect(names.every((n) => n !== null && n.startsWith('Customer '))).toBe(true);
    const commits = () => lh().front.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/tables/customers'));
    const before = commits().length;
    await carol.query('SET TAG PII ON COLUMN lake.lake.customers.name');
    expect(commits().slice(before).map((r) => [r.principal, r.operations, r.status])).toEqual([['carol', ['SET_TABLE_PROPERTIES'], 200]]);
    expect(await textRows(dave, NAMES)).toEqual(names.map((_n, i) => ({ id: String(i + 1), name: null })));
    expect((await textRows(carol, NAMES)).map((r) => r['name'])).toEqual(names);
    // dave may not tag (administrators only), and Polaris would refuse his commit anyway
    expect((await rejection(dave.query('SET TAG PII ON COLUMN lake.lake.customers.id'))).code).toBe('42501');
    await carol.query('UNSET TAG PII ON COLUMN lake.lake.customers.name');
    expect((await textRows(dave, NAMES)).map((r) => r['name'])).toEqual(names);
    await carol.query('REVOKE SELECT ON TABLE lake.customers FROM USER dave');
    await Promise.all([carol.end(), dave.end()]);
  });
});
