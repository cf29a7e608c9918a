/**
 * Writes in REST mode, end to end (issue 19): lakegate with Keycloak logins in
 * front of the Polaris test front over Apache Iceberg's REST server. Every
 * write statement goes through lakegate's session: the data gate (a local
 * query-service policy file: update / create / drop / alter on schema work)
 * and then Polaris, which authorizes each catalog call made with the session
 * user's own token (the front verifies it on Keycloak's keys and records the
 * principal and the Polaris operations of every request). What lakegate wrote
 * is read back around the front, straight from the REST server, by pyiceberg
 * (schema, field ids, snapshot summaries, rows) and by Iceberg's Java reader
 * (rows with the positional deletes applied).
 *
 * Users: carol manages the catalog (creates the schema); bob may create and
 * write in namespace work (Polaris) and update / create / drop / alter there
 * (data gate); alice may load every table and passes the data gate's update
 * check, but Polaris gives her no write privilege; dave may list namespaces
 * but load no table.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { polarisPolicy, rangerRoles } from '../fixtures/polaris/policies.js';
import { connect, rawTypes, rejection } from '../support/clients.js';
import { referenceScan } from '../support/icebergTables.js';
import { startInProcess, type InProcessGateway } from '../support/inProcess.js';
import { gatewayKeycloakConfig, keycloakForSuite, REALM_FIXTURE } from '../support/keycloak.js';
import { lakehouseForSuite } from '../support/lakehouse.js';
import { P, servicePolicies } from '../support/rangerPolicies.js';
import { tableState, type TableState } from '../support/writableLake.js';
import { demoAssetDir } from '../../server/demo.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lakegate-writes-rest-'));
// lakegate logs in with the password and renews the token itself; the reference readers go around the front
const realmFile = path.join(dir, 'realm-lakegate.json');
fs.writeFileSync(realmFile, JSON.stringify({ ...JSON.parse(fs.readFileSync(REALM_FIXTURE, 'utf8')), accessTokenLifespan: 900 }));
const kc = keycloakForSuite({ realmFile });

const READ_NS = ['namespace-list', 'namespace-properties-read', 'table-list', 'view-list'];
const READ_TABLE = ['table-list', 'table-properties-read', 'table-data-read', 'view-list', 'view-properties-read'];
/** What the demo gives engineers on the tables and views of analytics (demo/polaris policy 5). */
const WRITE_TABLE = [
  'table-data-write', 'table-properties-set', 'table-properties-remove', 'table-schema-add', 'table-schema-set-current',
  'table-sort-order-add', 'table-sort-order-set-default', 'table-snapshot-add', 'table-snapshots-remove', 'table-snapshot-ref-set',
  'table-snapshot-ref-remove', 'table-statistics-set', 'table-statistics-remove', 'table-partition-spec-add', 'table-partition-specs-remove',
  'table-location-set', 'table-uuid-assign', 'table-format-version-upgrade', 'table-properties-write', 'table-drop', 'view-drop', 'view-properties-write',
];
const PRINCIPALS = ['alice', 'bob', 'carol', 'dave'];
/** Each test's bound: Keycloak, two Java servers and the Python and Java readers share 2 cores with other suites. */
const SLOW = 300_000;

function catalogGate(): Record<string, unknown>[] {
  const catalog = 'lake';
  return [
    polarisPolicy({ resource: { catalog }, users: ['carol'], accessTypes: ['catalog-content-manage'] }),
    polarisPolicy({ resource: { catalog, namespace: '*' }, users: ['carol'], accessTypes: ['catalog-content-manage'] }),
    polarisPolicy({ resource: { catalog, namespace: '*', table: '*' }, users: ['carol'], accessTypes: ['catalog-content-manage'] }),
    polarisPolicy({ resource: { catalog }, users: ['alice', 'bob', 'dave'], accessTypes: ['namespace-list'] }),
    polarisPolicy({ resource: { catalog, namespace: '*' }, users: ['alice', 'bob', 'dave'], accessTypes: READ_NS }),
    polarisPolicy({ resource: { catalog, namespace: '*', table: '*' }, users: ['alice', 'bob'], accessTypes: READ_TABLE }),
    polarisPolicy({ resource: { catalog, namespace: 'work' }, users: ['bob'], accessTypes: ['table-create', 'view-create'] }),
    polarisPolicy({ resource: { catalog, namespace: 'work', table: '*' }, users: ['bob'], accessTypes: WRITE_TABLE }),
  ];
}

/**
 * The data gate: everyone selects (who may load a table is Polaris's decision);
 * bob and alice may write in work, carol everywhere. alice's writes therefore
 * pass the data gate and are Polaris's to refuse.
 */
function dataGate(): string {
  const out = path.join(dir, 'ranger');
  fs.mkdirSync(out, { recursive: true });
  const writes = ['update', 'create', 'drop', 'alter'];
  const doc = servicePolicies('lakehouse', [
    P.allow('everyone selects', '*', '*', '*', { groups: ['public'] }),
    P.allow('bob and alice write in work', 'work', '*', '*', { users: ['bob', 'alice'] }, { accesses: writes }),
    P.allow('carol writes everywhere', '*', '*', '*', { users: ['carol'] }, { accesses: writes }),
  ]);
  fs.writeFileSync(path.join(out, 'lakehouse.json'), JSON.stringify(doc));
  fs.copyFileSync(path.join(demoAssetDir(), 'ranger', 'lakehouse_roles.json'), path.join(out, 'lakehouse_roles.json'));
  return out;
}

const lh = lakehouseForSuite(() => ({ oidc: { issuer: kc().issuer }, principals: PRINCIPALS, policies: catalogGate(), roles: rangerRoles({}), only: ['lake.customers'] }));
let gw: InProcessGateway;
const clients: pg.Client[] = [];

beforeAll(async () => {
  gw = await startInProcess(() => ({
    ranger: { source: { kind: 'local' as const, path: dataGate(), serviceName: 'lakehouse' }, refreshMs: 30_000, maxStalenessMs: 300_000 },
    keycloak: gatewayKeycloakConfig(kc(), 5000),
    catalog: {
      database: 'lake',
      cacheTtlMs: 30_000,
      loadConcurrency: 4,
      source: { kind: 'rest' as const, uri: lh().front.url, warehouse: 'lake', timeoutMs: 30_000, retries: 1, vendedCredentials: true, warehouseRoots: [lh().rest.warehouse] },
    },
  }));
}, 600_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
  await gw?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function as(user: string): Promise<pg.Client> {
  const c = await connect({ host: '127.0.0.1', port: gw.server.port }, { user, password: user, database: 'lake', query_timeout: 120_000 });
  clients.push(c);
  return c;
}

const text = async (c: pg.Client, sql: string) => (await c.query({ text: sql, types: rawTypes, rowMode: 'array' })).rows as (string | null)[][];
const tag = (r: pg.QueryResult) => [r.command, r.rowCount];

/** pyiceberg reading the table straight from the REST server (around the front: no grant decides the reference). */
const state = (table: string): Promise<TableState> => tableState(['--catalog', 'rest', '--uri', lh().rest.url], table);

/** The front's request log from `from` on: who asked, for what, and what Polaris answered. */
const requestsSince = (from: number) => lh().front.requests.slice(from);

/** Runs `work` and returns the catalog requests it caused. */
async function requestsOf(work: () => Promise<void>) {
  const from = lh().front.requests.length;
  await work();
  return requestsSince(from);
}

/** Polaris's view of a statement's requests: every operation it authorized, with who and how it ended (ok: 2xx). */
const operations = (requests: ReturnType<typeof requestsSince>) =>
  requests.flatMap((r) => r.operations.map((op) => `${r.principal}:${op}:${r.status >= 200 && r.status < 300 ? 'ok' : r.status}`));
/** A name looked up before it is created (LOAD_TABLE / LOAD_VIEW answered 404) is the only failure a writer's statement may cause. */
const failedBeyondLookups = (requests: ReturnType<typeof requestsSince>) =>
  requests.filter((r) => r.status >= 400 && !(r.status === 404 && r.method === 'GET' && r.operations.every((op) => op.startsWith('LOAD_'))));

describe('the writer, as himself, through Polaris', () => {
  test('carol creates the schema (CREATE_NAMESPACE as carol)', async () => {
    const carol = await as('carol');
    const calls = await requestsOf(async () => {
      expect(tag(await carol.query('create schema work'))).toEqual(['CREATE', null]);
    });
    expect(operations(calls)).toContain('carol:CREATE_NAMESPACE:ok');
    expect(new Set(calls.map((r) => r.principal))).toEqual(new Set(['carol']));
  }, SLOW);

  test("CREATE TABLE, INSERT, UPDATE, DELETE by bob: every catalog call with bob's token; pyiceberg reads schema, field ids, summaries and rows; Iceberg Java applies the positional deletes", async () => {
    const bob = await as('bob');
    const calls = await requestsOf(async () => {
      expect(tag(await bob.query('create table work.orders (id integer, region text, amount numeric(10,2), placed date)'))).toEqual(['CREATE', null]);
      expect(tag(await bob.query("insert into work.orders values (1, 'EU', 10.50, '2024-01-01'), (2, 'US', 20.00, '2024-01-02'), (3, 'EU', null, null)"))).toEqual(['INSERT', 3]);
      expect(tag(await bob.query("update work.orders set region = 'APAC', amount = amount * 2 where id = 2"))).toEqual(['UPDATE', 1]);
      expect(tag(await bob.query('delete from work.orders where id = 3'))).toEqual(['DELETE', 1]);
    });
    // every request the front saw carried a token, and the token was bob's
    expect(calls.length).toBeGreaterThan(5);
    expect(calls.filter((r) => r.principal !== 'bob')).toEqual([]);
    expect(failedBeyondLookups(calls)).toEqual([]);
    const ops = operations(calls);
    for (const op of ['UPDATE_TABLE_FOR_STAGED_CREATE', 'ADD_TABLE_SNAPSHOT', 'SET_TABLE_SNAPSHOT_REF']) expect(ops).toContain(`bob:${op}:ok`);
    expect(ops.some((o) => /^bob:CREATE_TABLE_(STAGED|DIRECT):ok$/.test(o))).toBe(true);

    const expected = [
      [1, 'EU', '10.50', '2024-01-01'],
      [2, 'APAC', '40.00', '2024-01-02'],
    ];
    const t = await state('work.orders');
    expect(t.fields.map((f) => [f.id, f.name, f.type])).toEqual([
      [1, 'id', 'int'],
      [2, 'region', 'string'],
      [3, 'amount', 'decimal(10, 2)'],
      [4, 'placed', 'date'],
    ]);
    expect(t.rows).toEqual(expected);
    expect(t.snapshots.map((s) => s.operation)).toEqual(['append', 'overwrite', 'delete']);
    expect(t.snapshots[0]!.summary).toMatchObject({ 'added-records': '3', 'added-data-files': '1' });
    // the UPDATE and the DELETE wrote positional delete files, no rewrite of the data file
    for (const s of t.snapshots.slice(1)) expect(Number(s.summary['added-position-deletes'])).toBe(1);
    expect(Number(t.snapshots[2]!.summary['total-records']) - Number(t.snapshots[2]!.summary['total-position-deletes'])).toBe(2);
    const java = await referenceScan(lh().direct('lake'), 'work.orders', { reader: 'java' });
    expect(java.snapshotId).toBe(t.currentSnapshotId);
    expect(java.columns).toEqual(t.fields.map((f) => ({ id: f.id, name: f.name, type: f.type })));
    expect(java.rows).toEqual(expected);
    // and lakegate reads back what both readers read
    expect(await text(bob, 'select id, region, amount, placed from work.orders order by id')).toEqual(expected.map((r) => r.map((v) => String(v))));
  }, SLOW);

  test('MERGE, CREATE TABLE AS, a view, renames and DROP: each as bob', async () => {
    const bob = await as('bob');
    const calls = await requestsOf(async () => {
      const merged = await bob.query(
        "merge into work.orders as o using (select 1 as id, 'EU' as region union all select 4, 'US') as s on o.id = s.id " +
          "when matched then update set amount = 11.00 when not matched then insert (id, region) values (s.id, s.region)",
      );
      expect(tag(merged)).toEqual(['MERGE', 2]);
      expect(tag(await bob.query('create table work.by_region as select region, count(*) as n from work.orders group by region'))).toEqual(['SELECT', 3]);
      expect(tag(await bob.query("create view work.eu_orders as select id, amount from work.orders where region = 'EU'"))).toEqual(['CREATE', null]);
      expect(await text(bob, 'select id, amount from work.eu_orders order by id')).toEqual([['1', '11.00']]);
      expect(tag(await bob.query('alter table work.by_region rename to regions'))).toEqual(['ALTER', null]);
      expect(tag(await bob.query('alter view work.eu_orders rename to eu'))).toEqual(['ALTER', null]);
      expect(await text(bob, 'select id from work.eu')).toEqual([['1']]);
    });
    expect(calls.filter((r) => r.principal !== 'bob')).toEqual([]);
    expect(failedBeyondLookups(calls)).toEqual([]);
    const ops = operations(calls);
    for (const op of ['ADD_TABLE_SNAPSHOT', 'UPDATE_TABLE_FOR_STAGED_CREATE', 'CREATE_VIEW', 'RENAME_TABLE', 'RENAME_VIEW']) expect(ops).toContain(`bob:${op}:ok`);

    const orders = await state('work.orders');
    expect(orders.rows).toEqual([
      [1, 'EU', '11.00', '2024-01-01'],
      [2, 'APAC', '40.00', '2024-01-02'],
      [4, 'US', null, null],
    ]);
    // the MERGE's snapshots: the matched row's old version deleted by position, the new one and the inserted row appended
    const merge = orders.snapshots.slice(3);
    const sum = (k: string) => merge.reduce((n, snap) => n + Number(snap.summary[k] ?? 0), 0);
    expect([sum('added-records'), sum('added-position-deletes')]).toEqual([2, 1]);
    expect((await referenceScan(lh().direct('lake'), 'work.orders', { reader: 'java' })).rows).toEqual(orders.rows);
    const regions = await state('work.regions');
    expect(regions.fields.map((f) => [f.id, f.name, f.type])).toEqual([
      [1, 'region', 'string'],
      [2, 'n', 'long'],
    ]);
    expect(regions.rows).toEqual([
      ['APAC', 1],
      ['EU', 1],
      ['US', 1],
    ]);
    await expect(state('work.by_region')).rejects.toThrow(/NoSuchTable|does not exist/);
    const localPath = (f: string) => f.replace(/^file:/, '');
    expect(regions.files.length).toBeGreaterThan(2);
    expect(regions.files.filter((f) => !fs.existsSync(localPath(f)))).toEqual([]);

    const drops = await requestsOf(async () => {
      expect(tag(await bob.query('drop view work.eu'))).toEqual(['DROP', null]);
      expect(tag(await bob.query('drop table work.regions'))).toEqual(['DROP', null]);
    });
    expect(operations(drops)).toEqual(expect.arrayContaining(['bob:DROP_VIEW:ok', 'bob:DROP_TABLE_WITH_PURGE:ok']));
    expect(drops.filter((r) => r.principal !== 'bob')).toEqual([]);
    await expect(state('work.regions')).rejects.toThrow(/NoSuchTable|does not exist/);
    expect((await rejection(bob.query('select * from work.regions'))).message).toBe('relation "work.regions" does not exist');
    // the purge took every file the table had (the REST server leaves the empty folders)
    expect(regions.files.filter((f) => fs.existsSync(localPath(f)))).toEqual([]);
  }, SLOW);
});

describe("Polaris's refusals reach the client in PostgreSQL's words", () => {
  test('alice may read but Polaris gives her no write: 42501 for INSERT, UPDATE and DELETE, nothing committed (control: bob above)', async () => {
    const alice = await as('alice');
    const before = await state('work.orders');
    expect(await text(alice, 'select count(*) from work.orders')).toEqual([[String(before.rows.length)]]);
    for (const sql of ["insert into work.orders values (9, 'EU', 1, null)", "update work.orders set region = 'X' where id = 1", 'delete from work.orders where id = 1']) {
      const calls = await requestsOf(async () => {
        const e = await rejection(alice.query(sql));
        expect([e.code, e.message]).toEqual(['42501', 'permission denied for table orders']);
      });
      // the data gate let it through: Polaris refused alice's commit, made with her token
      expect(calls.filter((r) => r.principal !== 'alice')).toEqual([]);
      expect(operations(calls)).toContain('alice:ADD_TABLE_SNAPSHOT:403');
    }
    const after = await state('work.orders');
    expect(after.currentSnapshotId).toBe(before.currentSnapshotId);
    expect(after.rows).toEqual(before.rows);
    expect(after.metadataLocation).toBe(before.metadataLocation);
  }, SLOW);

  test("alice's definitions are refused by Polaris in PostgreSQL's words (a non-owner's, or the schema's), and nothing changes", async () => {
    const bob = await as('bob');
    // control: bob may make the view alice is then refused
    expect(tag(await bob.query("create view work.orders_v as select id, region from work.orders"))).toEqual(['CREATE', null]);
    const alice = await as('alice');
    const before = await state('work.orders');
    const refusals: [string, string][] = [
      ['create table work.alices (id integer)', 'permission denied for schema work'],
      ['create table work.alices as select 1 as x', 'permission denied for schema work'],
      ['create view work.alices_v as select 1 as x', 'permission denied for schema work'],
      ['drop table work.orders', 'must be owner of table orders'],
      ['alter table work.orders add column x integer', 'must be owner of table orders'],
      ['alter table work.orders rename to orders2', 'must be owner of table orders'],
      ['alter table work.orders rename column region to area', 'must be owner of table orders'],
      ["comment on table work.orders is 'mine'", 'must be owner of table orders'],
      ["comment on column work.orders.id is 'mine'", 'must be owner of relation orders'],
      ['truncate work.orders', 'permission denied for table orders'],
      ['merge into work.orders as o using (select 1 as id) as s on o.id = s.id when matched then delete', 'permission denied for table orders'],
      ['drop view work.orders_v', 'must be owner of view orders_v'],
      ['alter view work.orders_v rename to alices_v', 'must be owner of view orders_v'],
    ];
    const answers: [string, string | undefined, string][] = [];
    const calls = await requestsOf(async () => {
      for (const [sql] of refusals) {
        const e = await rejection(alice.query(sql));
        answers.push([sql, e.code, e.message]);
      }
    });
    expect(answers).toEqual(refusals.map(([sql, message]) => [sql, '42501', message]));
    // each was Polaris's refusal of alice's own request (the data gate let her through)
    expect(calls.filter((r) => r.principal !== 'alice')).toEqual([]);
    expect(calls.filter((r) => r.status === 403).length).toBeGreaterThanOrEqual(refusals.length);
    const after = await state('work.orders');
    expect(after.metadataLocation).toBe(before.metadataLocation);
    expect(after.fields).toEqual(before.fields);
    for (const gone of ['work.alices', 'work.orders2']) await expect(state(gone)).rejects.toThrow(/NoSuchTable|does not exist/);
    expect(await text(alice, 'select count(*) from work.orders_v')).toEqual([[String(before.rows.length)]]);
    expect((await rejection(alice.query('select * from work.alices_v'))).code).toBe('42P01');
  }, SLOW);

  test('dave, who may load no table, is told it does not exist, as for a missing one', async () => {
    const dave = await as('dave');
    for (const verb of ["insert into work.%s values (9, 'EU', 1, null)", "update work.%s set region = 'X'", 'delete from work.%s', 'truncate work.%s']) {
      const hidden = await rejection(dave.query(verb.replace('%s', 'orders')));
      const missing = await rejection(dave.query(verb.replace('%s', 'nosuch')));
      expect([hidden.code, hidden.message]).toEqual(['42P01', 'relation "work.orders" does not exist']);
      expect([missing.code, missing.message]).toEqual(['42P01', 'relation "work.nosuch" does not exist']);
    }
  }, SLOW);
});

describe('concurrent writers', () => {
  test('two sessions inserting at once lose nothing: a lost race is 40001, run again by the client', async () => {
    const [one, two] = [await as('bob'), await as('bob')];
    await one.query('create table work.appends (session integer, batch integer)');
    const acknowledged: string[] = [];
    let conflicts = 0;
    const appendAll = async (c: pg.Client, session: number) => {
      for (let batch = 0; batch < 6; batch++) {
        for (let attempt = 0; ; attempt++) {
          try {
            await c.query(`insert into work.appends values (${session}, ${batch})`);
            acknowledged.push(`${session}:${batch}`);
            break;
          } catch (e) {
            if ((e as { code?: string }).code !== '40001' || attempt > 30) throw e;
            conflicts++;
          }
        }
      }
    };
    await Promise.all([appendAll(one!, 1), appendAll(two!, 2)]);
    const t = await state('work.appends');
    expect(acknowledged).toHaveLength(12);
    expect(t.rows.map((r) => `${String(r[0])}:${String(r[1])}`).sort()).toEqual(acknowledged.sort());
    expect(t.snapshots).toHaveLength(12);
    process.stdout.write(`writesRest: 12 inserts from two sessions, ${conflicts} lost races retried\n`);
  }, SLOW);
});
