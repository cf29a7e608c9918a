/**
 * REST mode end to end: lakegate in front of the Polaris test front
 * (tests/fixtures/polaris: Keycloak tokens verified on the realm's JWKS,
 * every operation authorized by Ranger policies on the polaris service)
 * over Apache Iceberg's own REST catalog server, with tables written by
 * pyiceberg and delete files by Iceberg's Java library
 * (tests/fixtures/iceberg), one warehouse on local disk and one on an
 * S3-compatible store (SeaweedFS) with credentials vended per table. Users log
 * in to lakegate with their Keycloak password; every catalog call carries
 * their own token.
 *
 * - Reads equal the reference scan of the same snapshot: partitioned, several
 *   snapshots (time travel), positional and equality deletes (Iceberg Java's
 *   reader), renamed and added columns, nested namespaces, an Iceberg view, S3.
 * - Denied is missing, field for field; a namespace whose metadata load is
 *   refused hides its tables; hidden tables are absent from the catalog relations.
 * - Every call carries the session's token; the token is renewed after a 401,
 *   and a principal the catalog no longer knows ends the session (FATAL 28000).
 * Controls: alice (role analyst) may read; dave has no grant; bob may load one
 * table's metadata but see no namespace.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { polarisPolicy, rangerRoles } from '../fixtures/polaris/policies.js';
import { startPolarisFront, type PolarisFront } from '../fixtures/polaris/server.js';
import { connect, rejection, type PgError } from '../support/clients.js';
import { startIcebergRest, type IcebergRest } from '../support/icebergRest.js';
import { referenceScan, writeTestTables, type CatalogRef, type ReferenceScan, type TablesManifest } from '../support/icebergTables.js';
import { startInProcess, type InProcessGateway } from '../support/inProcess.js';
import { keycloakForSuite, REALM_FIXTURE, userAccessToken, gatewayKeycloakConfig } from '../support/keycloak.js';
import { startS3, type S3Server } from '../support/s3.js';
import { demoAssetDir } from '../../server/demo.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lakegate-rest-'));
const realmFile = path.join(dir, 'realm-lakegate.json');
fs.writeFileSync(realmFile, JSON.stringify({ ...JSON.parse(fs.readFileSync(REALM_FIXTURE, 'utf8')), accessTokenLifespan: 600 }));
const kc = keycloakForSuite({ realmFile });

const READ_NS = ['namespace-list', 'namespace-properties-read', 'table-list', 'view-list'];
const READ_TABLE = ['table-list', 'table-properties-read', 'table-data-read', 'view-list', 'view-properties-read'];
const PRINCIPALS = ['alice', 'bob', 'carol', 'dave', 'erin'];

function policies(): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  let id = 1;
  for (const catalog of ['lake', 'lake_s3']) {
    for (const resource of [{ catalog }, { catalog, namespace: '*' }, { catalog, namespace: '*', table: '*' }]) {
      out.push(polarisPolicy({ id: id++, resource, users: ['carol'], accessTypes: ['catalog-content-manage'] }));
    }
    out.push(
      polarisPolicy({ id: id++, resource: { catalog }, roles: ['analyst'], users: ['bob'], accessTypes: ['namespace-list'] }),
      polarisPolicy({ id: id++, resource: { catalog, namespace: '*' }, roles: ['analyst'], accessTypes: READ_NS }),
      polarisPolicy({ id: id++, resource: { catalog, namespace: '*', table: '*' }, roles: ['analyst'], accessTypes: READ_TABLE }),
    );
  }
  // bob may load this one table, but no namespace metadata: SQE's resolution hides it from him
  out.push(polarisPolicy({ id: id++, resource: { catalog: 'lake', namespace: 'lake', table: 'customers' }, users: ['bob'], accessTypes: ['table-properties-read', 'table-data-read'] }));
  return out;
}

let s3: S3Server;
let restLocal: IcebergRest;
let restS3: IcebergRest;
let front: PolarisFront;
let manifest: TablesManifest;
let gw: InProcessGateway;
let gwS3: InProcessGateway;
const refs = new Map<string, ReferenceScan>();

const ref = (catalog: string, token: string): CatalogRef => ({ kind: 'rest', uri: front.url, warehouse: catalog, token });

/**
 * The data gate's policies (query service): select on every table of the lake
 * namespaces for the readers, no masks or filters, so reads compare with the
 * reference scans as stored.
 */
function queryPolicies(): string {
  const out = path.join(dir, 'ranger');
  if (fs.existsSync(out)) return out;
  fs.mkdirSync(out);
  const demo = path.join(demoAssetDir(), 'ranger');
  const doc = JSON.parse(fs.readFileSync(path.join(demo, 'lakehouse.json'), 'utf8'));
  doc.policies = [
    {
      id: 1,
      name: 'readers read the lake',
      isEnabled: true,
      policyType: 0,
      resources: { database: { values: ['lake', 'lake.*'] }, table: { values: ['*'] }, column: { values: ['*'] } },
      policyItems: [{ accesses: [{ type: 'select', isAllowed: true }], roles: ['analyst'], users: ['bob'] }],
    },
  ];
  fs.writeFileSync(path.join(out, 'lakehouse.json'), JSON.stringify(doc));
  fs.copyFileSync(path.join(demo, 'lakehouse_roles.json'), path.join(out, 'lakehouse_roles.json'));
  return out;
}

function gatewayConfig(catalog: string, roots: string[]) {
  return {
    ranger: { source: { kind: 'local' as const, path: queryPolicies(), serviceName: 'lakehouse' }, refreshMs: 30_000, maxStalenessMs: 300_000 },
    keycloak: gatewayKeycloakConfig(kc(), 5000),
    catalog: {
      database: catalog,
      cacheTtlMs: 1000,
      loadConcurrency: 4,
      source: { kind: 'rest' as const, uri: front.url, warehouse: catalog, timeoutMs: 5000, retries: 1, vendedCredentials: true, warehouseRoots: roots },
    },
  };
}

beforeAll(async () => {
  s3 = await startS3({ dir: path.join(dir, 's3'), buckets: ['lake'] });
  [restLocal, restS3] = await Promise.all([startIcebergRest({ warehouseDir: path.join(dir, 'wh') }), startIcebergRest({ warehouse: 's3://lake/wh', s3 })]);
  front = await startPolarisFront({
    oidc: { issuer: kc().issuer },
    catalogs: {
      lake: { backendUrl: restLocal.url, properties: { 'default-base-location': restLocal.warehouse } },
      lake_s3: { backendUrl: restS3.url, storage: s3 },
    },
    principals: PRINCIPALS,
    policies: policies(),
    roles: rangerRoles({ analyst: ['alice', 'erin'] }),
  });
  const carol = await userAccessToken(kc(), 'carol');
  [manifest] = await Promise.all([writeTestTables(ref('lake', carol)), writeTestTables(ref('lake_s3', carol), { only: ['lake.customers'] })]);
  gw = await startInProcess(() => gatewayConfig('lake', [restLocal.warehouse]));
  gwS3 = await startInProcess(() => gatewayConfig('lake_s3', ['s3://lake/wh/']));
}, 900_000);

afterAll(async () => {
  await gw?.stop();
  await gwS3?.stop();
  await front?.close();
  await Promise.all([restLocal?.stop(), restS3?.stop()]);
  await s3?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

afterEach(() => {
  front.setPolicies(policies());
  front.setPrincipals(PRINCIPALS);
});

const as = (user: string, g: InProcessGateway = gw, database = 'lake') => connect({ host: '127.0.0.1', port: g.server.port }, { user, password: user, database });

/** A reference value (scan.py's conventions) from PostgreSQL's text output of a column of this Iceberg type. */
function fromText(text: string | null, type: string): unknown {
  if (text === null) return null;
  if (['int', 'long'].includes(type)) return Number(text);
  if (['float', 'double'].includes(type)) return Number(text);
  if (type === 'boolean') return text === 't';
  if (type === 'timestamp') return text.replace(' ', 'T');
  if (type === 'timestamptz') return text.replace(' ', 'T').replace(/\+00$/, '+00:00');
  return text;
}

async function read(c: pg.Client, sql: string, columns: ReferenceScan['columns']): Promise<unknown[][]> {
  const r = await c.query({ text: sql, rowMode: 'array', types: { getTypeParser: () => (v: string) => v } as unknown as pg.CustomTypesConfig });
  const rows = (r.rows as (string | null)[][]).map((row) => row.map((v, i) => fromText(v, columns[i]!.type)));
  return rows.sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : JSON.stringify(a) > JSON.stringify(b) ? 1 : 0));
}

async function reference(table: string, opts: { snapshotId?: string; reader?: 'java' } = {}, catalog = 'lake'): Promise<ReferenceScan> {
  const key = `${catalog}|${table}|${opts.snapshotId ?? ''}|${opts.reader ?? ''}`;
  if (!refs.has(key)) refs.set(key, await referenceScan(ref(catalog, await userAccessToken(kc(), 'carol')), table, opts));
  return refs.get(key)!;
}

/** `lake.emea.orders` → `"lake.emea".orders`: the namespace path is the PostgreSQL schema. */
const pgName = (table: string, suffix = '') => {
  const parts = table.split('.');
  return `"${parts.slice(0, -1).join('.')}"."${parts[parts.length - 1]}${suffix}"`;
};
const selectAll = (r: ReferenceScan, table: string, suffix = '') => `SELECT ${r.columns.map((c) => `"${c.name}"`).join(', ')} FROM ${pgName(table, suffix)}`;

describe('reads equal the reference scan', () => {
  let alice: pg.Client;
  beforeAll(async () => {
    alice = await as('alice');
  }, 60_000);
  afterAll(async () => alice?.end());

  test.each(['lake.orders_part', 'lake.evolved', 'lake.customers', 'lake.emea.orders', 'lake.emea.nordics.orders'])('%s, current snapshot', async (table) => {
    const r = await reference(table);
    expect(await read(alice, selectAll(r, table), r.columns)).toEqual(r.rows);
  });

  test('every snapshot of lake.history, by snapshot id', async () => {
    for (const snap of manifest.tables['lake.history']!.snapshots) {
      const r = await reference('lake.history', { snapshotId: snap.snapshotId });
      expect([snap.what, await read(alice, selectAll(r, 'lake.history', `@${snap.snapshotId}`), r.columns)]).toEqual([snap.what, r.rows]);
    }
  });

  test('positional and equality deletes (Iceberg Java reader), at every snapshot', async () => {
    for (const snap of manifest.tables['lake.deletes']!.snapshots) {
      const r = await reference('lake.deletes', { snapshotId: snap.snapshotId, reader: 'java' });
      expect([snap.what, await read(alice, selectAll(r, 'lake.deletes', `@${snap.snapshotId}`), r.columns)]).toEqual([snap.what, r.rows]);
    }
    const current = await reference('lake.deletes', { reader: 'java' });
    expect(await read(alice, selectAll(current, 'lake.deletes'), current.columns)).toEqual(current.rows);
    // one JVM start per snapshot: a loaded machine needs more than the default minute
  }, 240_000);

  test('an Iceberg view: its SQL over its base table, read as the user', async () => {
    const view = manifest.views['lake.big_orders']!;
    expect(view.sql).toBe('SELECT id, region, amount FROM lake.orders_part WHERE amount > 100');
    // the view's rows, computed here from the reference scan of its base table
    const base = await reference(view.baseTables[0]!.join('.'));
    const col = (n: string) => base.columns.findIndex((c) => c.name === n);
    const expected = base.rows
      .filter((r) => r[col('amount')] !== null && Number(r[col('amount')]) > 100)
      .map((r) => [r[col('id')], r[col('region')], r[col('amount')]]);
    expect(expected.length).toBeGreaterThan(0);
    const cols = ['id', 'region', 'amount'].map((n) => base.columns[col(n)]!);
    expect(await read(alice, `SELECT id, region, amount FROM ${pgName('lake.big_orders')}`, cols)).toEqual(expected.sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1)));
    const dave = await as('dave');
    expect((await rejection(dave.query(`SELECT * FROM ${pgName('lake.big_orders')}`))).message).toBe('relation "lake.big_orders" does not exist');
    await dave.end();
  });

  test('S3: a table on the S3 store, read with the credentials the catalog vended for it', async () => {
    const r = await reference('lake.customers', {}, 'lake_s3');
    const c = await as('alice', gwS3, 'lake_s3');
    expect(await read(c, selectAll(r, 'lake.customers'), r.columns)).toEqual(r.rows);
    await c.end();
  });
});

describe('denied is missing', () => {
  const fields = (e: PgError) => ({ code: e.code, severity: e.severity, message: e.message, position: e.position });

  test('dave (no grant) gets for an existing table exactly what a missing table gets', async () => {
    const dave = await as('dave');
    const denied = fields(await rejection(dave.query('SELECT * FROM lake.orders_part')));
    const missing = fields(await rejection(dave.query('SELECT * FROM lake.orders_parx')));
    expect(denied).toEqual({ ...missing, message: 'relation "lake.orders_part" does not exist' });
    expect(missing.code).toBe('42P01');
    expect((await dave.query("SELECT count(*)::int AS n FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname LIKE 'lake%'")).rows).toEqual([{ n: 0 }]);
    await dave.end();
  });

  test('a namespace whose metadata bob may not load hides its tables, even one he may load', async () => {
    const bob = await as('bob');
    expect((await rejection(bob.query('SELECT * FROM lake.customers'))).message).toBe('relation "lake.customers" does not exist');
    expect((await bob.query("SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema LIKE 'lake%'")).rows).toEqual([{ n: 0 }]);
    await bob.end();
    // control: once the namespace may be probed, the table is there for him
    front.addPolicy(polarisPolicy({ resource: { catalog: 'lake', namespace: 'lake' }, users: ['bob'], accessTypes: ['namespace-properties-read'] }));
    await new Promise((r) => setTimeout(r, 1100)); // past lakegate's cache TTL
    const again = await as('bob');
    expect((await again.query('SELECT count(*)::int AS n FROM lake.customers')).rows[0].n).toBeGreaterThan(0);
    // he may load it by name, but not list the namespace (no table-list): the catalog relations show what the user's listing shows
    expect((await again.query("SELECT table_name FROM information_schema.tables WHERE table_schema = 'lake' ORDER BY 1")).rows).toEqual([]);
    await again.end();
  });

  test('alice sees every table she may load in pg_class and information_schema, nested namespaces included', async () => {
    const alice = await as('alice');
    const rows = (await alice.query("SELECT table_schema || '.' || table_name AS t FROM information_schema.tables WHERE table_schema LIKE 'lake%' ORDER BY 1")).rows.map((r) => r.t);
    const expected = [...Object.keys(manifest.tables), ...Object.keys(manifest.views)].sort();
    expect(rows).toEqual(expected);
    await alice.end();
  });
});

describe('the user token', () => {
  test('every catalog call carries the session user\'s own token', async () => {
    const before = front.requests.length;
    const erin = await as('erin');
    await erin.query('SELECT count(*) FROM lake.orders_part');
    const calls = front.requests.slice(before);
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((r) => r.principal === 'erin')).toBe(true);
    await erin.end();
  });

  test('a principal the catalog no longer knows: the token is renewed once, then the session ends with FATAL 28000', async () => {
    const erin = await as('erin');
    expect((await erin.query('SELECT count(*)::int AS n FROM lake.orders_part')).rows[0].n).toBeGreaterThan(0);
    front.setPrincipals(PRINCIPALS.filter((p) => p !== 'erin'));
    await new Promise((r) => setTimeout(r, 1100));
    const e = await rejection(erin.query('SELECT count(*) FROM lake.orders_part'));
    expect([e.code, e.severity, e.message]).toEqual(['28000', 'FATAL', 'terminating connection: the catalog no longer accepts the login of user "erin"']);
    // the 401 was answered to two tokens: the session's and the renewed one
    const refused = front.requests.filter((r) => r.status === 401);
    expect(refused.length).toBeGreaterThanOrEqual(2);
  });

  test('catalog down: 08006 past the TTL, rows again once it is back', async () => {
    const alice = await as('alice');
    const q = 'SELECT count(*)::int AS n FROM lake.orders_part';
    const n = (await alice.query(q)).rows[0].n;
    front.setFaults({ down: true });
    try {
      await new Promise((r) => setTimeout(r, 1100));
      const e = await rejection(alice.query(q));
      expect([e.code, e.message]).toEqual(['08006', 'the catalog is unavailable']);
    } finally {
      front.setFaults({ down: false });
    }
    expect((await alice.query(q)).rows[0].n).toBe(n);
    await alice.end();
  });
});
