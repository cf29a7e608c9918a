/**
 * Writes in REST mode: a locked-down DuckDB 1.5.5 attached to lakegate's
 * loopback catalog endpoint, which calls the Polaris test front (over Apache
 * Iceberg's REST server, local disk) with the session user's Keycloak token;
 * the front authorizes every call with the polaris-service policies as Polaris
 * would. What DuckDB wrote is read back through the front by pyiceberg and by
 * Iceberg's Java reader. No token ever reaches DuckDB: its ATTACH has none.
 *
 * Controls: carol (catalog-content-manage) and bob (table-data-write) write;
 * alice may load but not write (403 from Polaris); dave may load nothing and
 * is told the table does not exist, as for a missing one.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import type { Caller } from '../../catalog/iceberg/api.js';
import { RestCatalog } from '../../catalog/iceberg/rest.js';
import { catalogView } from '../../catalog/iceberg/tables.js';
import { LoopbackCatalog, type OpenedSession } from '../../catalog/loopback/server.js';
import type { LoopbackEvent } from '../../catalog/loopback/session.js';
import { loadParser } from '../../sql/parse.js';
import { polarisPolicy, rangerRoles } from '../fixtures/polaris/policies.js';
import { referenceScan } from '../support/icebergTables.js';
import { keycloakForSuite, REALM_FIXTURE, userAccessToken } from '../support/keycloak.js';
import { lakehouseForSuite } from '../support/lakehouse.js';
import { attachLoopback, failureOf, lockedDuckDb, tableState } from '../support/writableLake.js';

const dir = mkdtempSync(join(tmpdir(), 'lakegate-catalog-writes-'));
// Tokens must outlive the suite's writes (the fixture's 20 s is for refresh tests).
const realmFile = join(dir, 'realm-lakegate.json');
writeFileSync(realmFile, JSON.stringify({ ...JSON.parse(readFileSync(REALM_FIXTURE, 'utf8')), accessTokenLifespan: 900 }));
const kc = keycloakForSuite({ realmFile });

const READ_NS = ['namespace-list', 'namespace-properties-read', 'table-list', 'view-list'];
const READ_TABLE = ['table-list', 'table-properties-read', 'table-data-read', 'view-list', 'view-properties-read'];
const policies = () => [
  polarisPolicy({ resource: { catalog: 'lake' }, users: ['carol'], accessTypes: ['catalog-content-manage'] }),
  polarisPolicy({ resource: { catalog: 'lake', namespace: '*' }, users: ['carol'], accessTypes: ['catalog-content-manage'] }),
  polarisPolicy({ resource: { catalog: 'lake', namespace: '*', table: '*' }, users: ['carol'], accessTypes: ['catalog-content-manage'] }),
  polarisPolicy({ resource: { catalog: 'lake' }, users: ['alice', 'bob', 'dave'], accessTypes: ['namespace-list'] }),
  polarisPolicy({ resource: { catalog: 'lake', namespace: '*' }, users: ['alice', 'bob', 'dave'], accessTypes: READ_NS }),
  polarisPolicy({ resource: { catalog: 'lake', namespace: '*', table: '*' }, users: ['alice', 'bob'], accessTypes: READ_TABLE }),
  polarisPolicy({ resource: { catalog: 'lake', namespace: '*', table: '*' }, users: ['bob'], accessTypes: ['table-data-write'] }),
];
const lh = lakehouseForSuite(() => ({
  oidc: { issuer: kc().issuer },
  principals: ['alice', 'bob', 'carol', 'dave'],
  policies: policies(),
  roles: rangerRoles({}),
  only: ['lake.customers'],
}));

const tokens: Record<string, string> = {};
let catalog: RestCatalog;
let endpoint: LoopbackCatalog;
let duck: DuckDBInstance;
let attached = 0;
const conns: DuckDBConnection[] = [];

beforeAll(async () => {
  await loadParser();
  for (const u of ['alice', 'bob', 'carol', 'dave']) tokens[u] = await userAccessToken(kc(), u);
  catalog = new RestCatalog({ uri: lh().front.url, warehouse: 'lake', timeoutMs: 30_000, retries: 2, vendedCredentials: false, storageRoots: [lh().rest.warehouse] });
  endpoint = await LoopbackCatalog.start({ catalog });
  duck = await lockedDuckDb([lh().rest.warehouse]);
}, 300_000);

afterAll(async () => {
  for (const c of conns) c.closeSync();
  await endpoint?.close();
  duck?.closeSync();
  rmSync(dir, { recursive: true, force: true });
});

const caller = (user: string): Caller => ({ user, token: () => tokens[user]! });

/** A session as `user` and a connection attached to it; `lake.` in the SQL names this session's catalog. */
async function sessionFor(user: string): Promise<{ conn: DuckDBConnection; session: OpenedSession }> {
  const session = endpoint.open(caller(user));
  const raw = await duck.connect();
  conns.push(raw);
  const as = `lake_${++attached}`;
  await attachLoopback(raw, session.url, as);
  const rewrite = (sql: string) => sql.replace(/\blake\./g, `${as}.`);
  return { session, conn: { run: (sql: string) => raw.run(rewrite(sql)), runAndReadAll: (sql: string) => raw.runAndReadAll(rewrite(sql)) } as unknown as DuckDBConnection };
}

/** pyiceberg through the front, as carol. */
const viaFront = () => ['--catalog', 'rest', '--uri', lh().front.url, '--warehouse', 'lake', '--token', tokens['carol']!];

describe('DuckDB through the loopback endpoint to Polaris, as the session user', () => {
  let carol: { conn: DuckDBConnection; session: OpenedSession };
  beforeAll(async () => {
    carol = await sessionFor('carol');
    lh().front.resetCounts();
    await carol.conn.run('CREATE SCHEMA lake.writes');
  });

  test('CREATE, INSERT, UPDATE, DELETE, ADD COLUMN and a CREATE + INSERT … SELECT: pyiceberg and Iceberg Java read it back through Polaris', async () => {
    const { conn, session } = carol;
    await conn.run('CREATE TABLE lake.writes.orders (id BIGINT, region VARCHAR)');
    await conn.run("INSERT INTO lake.writes.orders VALUES (1, 'EU'), (2, 'US'), (3, 'EU')");
    await conn.run("UPDATE lake.writes.orders SET region = 'APAC' WHERE id = 2");
    await conn.run('DELETE FROM lake.writes.orders WHERE id = 3');
    await conn.run('ALTER TABLE lake.writes.orders ADD COLUMN amount INTEGER');
    await conn.run("INSERT INTO lake.writes.orders VALUES (4, 'EU', 40)");
    await conn.run('BEGIN');
    await conn.run('CREATE TABLE lake.writes.totals (region VARCHAR, n BIGINT)');
    await conn.run('INSERT INTO lake.writes.totals SELECT region, count(*) FROM lake.writes.orders GROUP BY region');
    await conn.run('COMMIT');
    const events = session.takeEvents();

    const orders = await tableState(viaFront(), 'writes.orders');
    expect(orders.rows).toEqual([
      [1, 'EU', null],
      [2, 'APAC', null],
      [4, 'EU', 40],
    ]);
    expect(orders.fields.map((f) => [f.id, f.name, f.type])).toEqual([
      [1, 'id', 'long'],
      [2, 'region', 'string'],
      [3, 'amount', 'int'],
    ]);
    expect(orders.snapshots.map((s) => s.operation)).toEqual(['append', 'overwrite', 'delete', 'append']);
    const reported = events
      .filter((e): e is Extract<LoopbackEvent, { kind: 'table-committed' }> => e.kind === 'table-committed' && e.table.name === 'orders')
      .flatMap((e) => e.snapshots.map((s) => String(s.snapshotId)));
    expect(reported).toEqual(orders.snapshots.map((s) => s.snapshotId));
    const java = await referenceScan(lh().asUser('lake', tokens['carol']!), 'writes.orders', { reader: 'java' });
    expect(java.rows).toEqual(orders.rows);
    expect(java.snapshotId).toBe(orders.currentSnapshotId);
    const totals = await tableState(viaFront(), 'writes.totals');
    expect(totals.rows).toEqual([
      ['APAC', 1],
      ['EU', 2],
    ]);
    // Every table got a folder of its own in the REST server's warehouse.
    expect(orders.location).toMatch(new RegExp(`^${lh().rest.warehouse}/writes/orders-[0-9a-f]{12}$`));
  });

  test('every catalog call of the session was made with carol\'s token (Polaris saw carol), none without', () => {
    const calls = lh().front.requests;
    expect(calls.length).toBeGreaterThan(10);
    expect(new Set(calls.map((r) => r.principal))).toEqual(new Set(['carol']));
    // The commit that ended the staged create was authorized as Polaris does it.
    expect(calls.some((r) => r.operations.includes('UPDATE_TABLE_FOR_STAGED_CREATE') && r.status === 200)).toBe(true);
    expect(calls.some((r) => r.operations.includes('ADD_TABLE_SNAPSHOT') && r.status === 200)).toBe(true);
  });

  test('a view made through the API reads back through the view path', async () => {
    await catalog.createView(caller('carol'), ['writes'], 'eu_orders', {
      schema: { type: 'struct', fields: [{ id: 1, name: 'id', type: 'long', required: false }] },
      sql: "select id from orders where region = 'EU'",
      defaultNamespace: ['writes'],
    });
    const v = catalogView(['writes'], 'eu_orders', await catalog.loadView(caller('alice'), ['writes'], 'eu_orders'));
    expect(v.columns.map((c) => c.name)).toEqual(['id']);
    expect(v.defaultSchema).toBe('writes');
    const replaced = await catalog.replaceView(caller('carol'), ['writes'], 'eu_orders', {
      schema: { type: 'struct', fields: [{ id: 1, name: 'id', type: 'long', required: false }, { id: 2, name: 'region', type: 'string', required: false }] },
      sql: "select id, region from orders where region = 'EU'",
      defaultNamespace: ['writes'],
    });
    expect(catalogView(['writes'], 'eu_orders', replaced).columns.map((c) => c.name)).toEqual(['id', 'region']);
    await expect(catalog.replaceView(caller('bob'), ['writes'], 'eu_orders', { schema: { type: 'struct', fields: [] }, sql: 'select 1', defaultNamespace: ['writes'] })).rejects.toMatchObject({ status: 403 });
  });
});

describe('the catalog gate is Polaris\'s', () => {
  test('bob appends (control); alice is refused by Polaris (403); dave is told the table does not exist, as for a missing one', async () => {
    const bob = await sessionFor('bob');
    expect(await failureOf(bob.conn, "INSERT INTO lake.writes.orders VALUES (5, 'US', 50)")).toBe('no error');
    const alice = await sessionFor('alice');
    const refused = await failureOf(alice.conn, "INSERT INTO lake.writes.orders VALUES (6, 'US', 60)");
    expect(refused).toMatch(/403|Forbidden/);
    expect(alice.session.takeEvents().find((e) => e.kind === 'commit-failed')).toMatchObject({
      status: 403,
      type: 'ForbiddenException',
      message: expect.stringContaining("Principal 'alice' is not authorized for op 'ADD_TABLE_SNAPSHOT'"),
    });
    const dave = await sessionFor('dave');
    const firstLine = (m: string) => m.split('\n')[0]!;
    const denied = firstLine(await failureOf(dave.conn, "INSERT INTO lake.writes.orders VALUES (7, 'US', 70)"));
    const missing = firstLine(await failureOf(dave.conn, "INSERT INTO lake.writes.nosuch VALUES (7, 'US', 70)"));
    expect(denied).toBe('Catalog Error: Table with name orders does not exist!');
    expect(denied.replace('orders', 'X')).toBe(missing.replace('nosuch', 'X'));
    const state = await tableState(viaFront(), 'writes.orders');
    expect(state.rows.map((r) => r[0])).toEqual([1, 2, 4, 5]);
  });

  test('two sessions appending at once through Polaris lose nothing; a lost race is a 409 retried', async () => {
    const setup = await sessionFor('carol');
    await setup.conn.run('CREATE TABLE lake.writes.appends (writer VARCHAR, batch INTEGER)');
    const writers = await Promise.all([sessionFor('bob'), sessionFor('bob')]);
    const acknowledged: string[] = [];
    let conflicts = 0;
    await Promise.all(
      writers.map(async ({ conn, session }, w) => {
        for (let batch = 0; batch < 5; batch++) {
          for (let attempt = 0; ; attempt++) {
            const failure = await failureOf(conn, `INSERT INTO lake.writes.appends VALUES ('w${w}', ${batch})`);
            if (failure === 'no error') break;
            expect(session.takeEvents().find((e) => e.kind === 'commit-failed')).toMatchObject({ conflict: true, status: 409 });
            conflicts++;
            if (attempt > 30) throw new Error('no progress');
          }
          acknowledged.push(`w${w}/${batch}`);
        }
      }),
    );
    const state = await tableState(viaFront(), 'writes.appends');
    expect(state.rows.map(([w, b]) => `${String(w)}/${String(b)}`).sort()).toEqual(acknowledged.sort());
    process.stdout.write(`REST concurrent appends: ${acknowledged.length} acknowledged, ${conflicts} conflicts retried\n`);
  });
});
