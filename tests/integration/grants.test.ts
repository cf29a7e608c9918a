/**
 * Access-control statements end to end in embedded mode: a warehouse written
 * by pyiceberg's SqlCatalog, the catalog gate decided on local polaris-service
 * policy files, and GRANT / REVOKE / DENY typed by carol (sqe_admin) in one
 * session while dave's own open session sees the change at its next
 * statement. The data gate lets every user select (policies for `public`),
 * so what dave reads is the catalog gate's doing alone.
 *
 * Controls: every denial to dave is first shown as a read by carol, or by dave
 * himself before the change; every grant is first shown absent (42P01).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type pg from 'pg';
import { SqlCatalogFile } from '../../catalog/iceberg/sqlCatalog.js';
import { loadParser } from '../../sql/parse.js';
import { connect, rejection, type PgError } from '../support/clients.js';
import { embeddedConfig, failure, missingRelation, polarisAllow, textRows, writeCatalogGate, writeDataGate, writeView, writeWarehouse, type Described } from '../support/grantsLake.js';
import { startInProcess, type InProcessGateway } from '../support/inProcess.js';

let root: string;
let polarisDir: string;
let tables: Record<string, Described>;
let gw: InProcessGateway;

/** The catalog-gate policies before any GRANT: analysts read sales, engineers hr; dave nothing. */
function catalogGatePolicies() {
  const read = ['table-list', 'table-properties-read', 'table-data-read'];
  const ns = ['namespace-list', 'namespace-properties-read', 'table-list'];
  return [
    polarisAllow(1, { root: ['*'], catalog: ['lake'] }, ['namespace-list'], ['analyst']),
    polarisAllow(2, { root: ['*'], catalog: ['lake'], namespace: ['sales'] }, ns, ['analyst']),
    polarisAllow(3, { root: ['*'], catalog: ['lake'], namespace: ['sales'], table: ['*'] }, read, ['analyst']),
    // engineers also load the views of hr (hr.eu_pay)
    polarisAllow(4, { root: ['*'], catalog: ['lake'], namespace: ['hr'] }, [...ns, 'view-list'], ['engineer']),
    polarisAllow(5, { root: ['*'], catalog: ['lake'], namespace: ['hr'], table: ['*'] }, [...read, 'view-list', 'view-properties-read'], ['engineer']),
  ];
}

const gatewayConfig = (grantAuthority: 'admin-role' | 'ranger-delegate') => () => ({
  ...embeddedConfig(root, { kind: 'local', path: polarisDir, serviceName: 'polaris' }, { grantAuthority }),
  audit: { destination: 'file' as const, file: auditFile() },
});
const auditFile = () => path.join(root, 'audit', 'events.jsonl');
/** The audit trail's events so far (JSON lines; the file sink writes asynchronously). */
const auditEvents = (): Record<string, unknown>[] =>
  fs.existsSync(auditFile())
    ? fs.readFileSync(auditFile(), 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Record<string, unknown>)
    : [];

beforeAll(async () => {
  await loadParser();
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'lakegate-grants-'));
  tables = await writeWarehouse(root);
  writeView(root, 'hr', 'eu_pay', 'SELECT id, salary FROM hr.salaries', [[1, 'id', 'long'], [2, 'salary', 'long']]);
  polarisDir = writeCatalogGate(root, catalogGatePolicies());
  writeDataGate(root);
  gw = await startInProcess(gatewayConfig('admin-role'));
}, 300_000);

afterAll(async () => {
  await gw?.stop();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

const as = (user: string, g = gw) => connect({ host: '127.0.0.1', port: g.server.port }, { user, password: user, database: 'lake' });

const rows = textRows;
const scan = (t: string) => tables[t]!.scans[tables[t]!.current]!;
const ORDERS = 'SELECT id, region, amount FROM sales.orders ORDER BY id';
const missing = missingRelation;
const err = failure;
/** Every field of an ErrorResponse node-postgres keeps, the message's name replaced: "alike" means byte for byte. */
const wireFields = (e: PgError, rename?: [string, string]) => {
  const fields = ['severity', 'code', 'message', 'detail', 'hint', 'position', 'internalPosition', 'internalQuery', 'where', 'schema', 'table', 'column', 'dataType', 'constraint', 'routine'] as const;
  const out = Object.fromEntries(fields.map((f) => [f, (e as unknown as Record<string, unknown>)[f]]));
  if (rename) out['message'] = String(out['message']).replace(rename[0], rename[1]);
  return out;
};
const policiesOnDisk = () => JSON.parse(fs.readFileSync(path.join(polarisDir, 'polaris.json'), 'utf8')).policies as Record<string, unknown>[];

let carol: pg.Client;
let dave: pg.Client;
beforeAll(async () => {
  carol = await as('carol');
  dave = await as('dave');
});
afterAll(async () => {
  await carol?.end();
  await dave?.end();
});

describe('GRANT and REVOKE, seen by the grantee at the next statement', () => {
  it('control: carol reads sales.orders; dave gets 42P01 as for a missing table', async () => {
    expect(await rows(carol, ORDERS)).toEqual(scan('sales.orders'));
    expect(await err(dave.query(ORDERS))).toEqual(missing('sales.orders'));
    expect(await err(dave.query('SELECT * FROM sales.nosuch'))).toEqual(missing('sales.nosuch'));
  });

  it('GRANT SELECT ON TABLE writes the three-level plan and dave reads in his open session', async () => {
    const r = await carol.query('GRANT SELECT ON TABLE lake.sales.orders TO USER dave');
    expect(r.command).toBe('GRANT');
    expect(await rows(dave, ORDERS)).toEqual(scan('sales.orders'));
    // Three levels, outermost first. The catalog and namespace levels have policies on exactly
    // those resources already (the analysts' p1 and p2): dave's item is merged into them, as
    // Ranger's grant does; the table level gets a new policy. Each item is dave's alone, labelled.
    const mine = policiesOnDisk().filter((p) => JSON.stringify(p['policyItems']).includes('"dave"'));
    const shape = mine.map((p) => ({
      id: p['id'],
      resources: Object.fromEntries(Object.entries(p['resources'] as Record<string, { values: string[] }>).map(([k, v]) => [k, v.values])),
      types: (p['policyItems'] as { users?: string[]; accesses: { type: string }[] }[])
        .filter((i) => (i.users ?? []).includes('dave'))
        .map((i) => [i.users, i.accesses.map((a) => a.type).sort()]),
      labels: p['policyLabels'],
    }));
    expect(shape).toEqual([
      { id: 1, resources: { root: ['*'], catalog: ['lake'] }, types: [[['dave'], ['namespace-list']]], labels: ['chm:USER:dave:USAGE', 'chm-grantor:USER:dave:carol'] },
      { id: 2, resources: { root: ['*'], catalog: ['lake'], namespace: ['sales'] }, types: [[['dave'], ['namespace-list', 'namespace-properties-read']]], labels: ['chm:USER:dave:USAGE', 'chm-grantor:USER:dave:carol'] },
      { id: 6, resources: { root: ['*'], catalog: ['lake'], namespace: ['sales'], table: ['orders'] }, types: [[['dave'], ['table-data-read', 'table-list', 'table-properties-read']]], labels: ['chm:USER:dave:SELECT', 'chm-grantor:USER:dave:carol'] },
    ]);
    // the analysts' items are as they were
    expect((policiesOnDisk().find((p) => p['id'] === 2)!['policyItems'] as { roles: string[] }[])[0]!.roles).toEqual(['analyst']);
  });

  it('SHOW GRANTS TO USER and ON an object, CHECK ACCESS', async () => {
    const to = await rows(carol, 'SHOW GRANTS TO USER dave');
    expect(to.map((r) => [r['privilege'], r['resource'], r['grantee_type'], r['grantee_name'], r['effect'], r['granted_by']])).toEqual([
      ['namespace-list', 'lake', 'USER', 'dave', 'ALLOW', 'carol'],
      ['namespace-list', 'lake.sales', 'USER', 'dave', 'ALLOW', 'carol'],
      ['namespace-properties-read', 'lake.sales', 'USER', 'dave', 'ALLOW', 'carol'],
      ['table-data-read', 'lake.sales.orders', 'USER', 'dave', 'ALLOW', 'carol'],
      ['table-list', 'lake.sales.orders', 'USER', 'dave', 'ALLOW', 'carol'],
      ['table-properties-read', 'lake.sales.orders', 'USER', 'dave', 'ALLOW', 'carol'],
    ]);
    for (const r of to) expect(Math.abs(Date.parse(r['granted_at']!.replace(' ', 'T').replace(/\+00$/, 'Z')) - Date.now())).toBeLessThan(120_000);
    const on = await rows(carol, 'SHOW GRANTS ON TABLE sales.orders');
    // the analysts' wildcard policy is on lake.sales.*, not on lake.sales.orders: only dave's rows
    expect(new Set(on.map((r) => r['grantee_name']))).toEqual(new Set(['dave']));
    const onSchema = await rows(carol, 'SHOW GRANTS ON SCHEMA sales');
    expect(onSchema.filter((r) => r['grantee_name'] === 'analyst' && r['resource'] === 'lake.sales.*').map((r) => r['privilege'])).toEqual(['table-data-read', 'table-list', 'table-properties-read']);
    const fields = (await carol.query('SHOW GRANTS TO USER dave')).fields.map((f) => [f.name, f.dataTypeID]);
    expect(fields).toEqual([['privilege', 25], ['resource', 25], ['grantee_type', 25], ['grantee_name', 25], ['effect', 25], ['granted_by', 25], ['granted_at', 1184]]);
    const allowed = await rows(carol, 'CHECK ACCESS SELECT ON sales.orders FOR USER dave');
    expect(allowed).toHaveLength(1);
    expect(allowed[0]!['allowed']).toBe('t');
    expect(allowed[0]!['reason']).toMatch(/^Allowed via policy \d+$/);
    expect(await rows(carol, 'CHECK ACCESS SELECT ON hr.salaries FOR USER dave')).toEqual([{ allowed: 'f', reason: 'No matching grant for dave table-data-read on lake.hr.salaries' }]);
    expect((await rows(carol, 'CHECK ACCESS SELECT ON hr.salaries FOR USER carol'))[0]!['allowed']).toBe('t');
    // dave may check himself, not others; SHOW GRANTS only TO himself
    expect((await rows(dave, 'CHECK ACCESS SELECT ON sales.orders FOR USER dave'))[0]!['allowed']).toBe('t');
    expect((await err(dave.query('CHECK ACCESS SELECT ON sales.orders FOR USER carol'))).code).toBe('42501');
    expect((await rows(dave, 'SHOW GRANTS TO USER dave')).length).toBe(6);
    expect((await err(dave.query('SHOW GRANTS'))).code).toBe('42501');
  });

  it('revoking INSERT leaves an independent SELECT intact', async () => {
    await carol.query('GRANT INSERT ON sales.orders TO dave');
    const table = () => policiesOnDisk().find((p) => JSON.stringify(p['resources']).includes('"orders"'))!;
    const types = () => (table()['policyItems'] as { users: string[]; accesses: { type: string }[] }[]).find((i) => i.users.includes('dave'))!.accesses.map((a) => a.type).sort();
    // INSERT's 19 types less table-structure-manage, which the demo's polaris def does not define
    expect(types()).toHaveLength(18);
    expect(types()).not.toContain('table-structure-manage');
    expect(types()).toContain('table-snapshot-add');
    await carol.query('REVOKE INSERT ON TABLE sales.orders FROM USER dave');
    // INSERT carries table-data-read, table-list and table-properties-read too: SELECT's label holds them back
    expect(types()).toEqual(['table-data-read', 'table-list', 'table-properties-read']);
    expect(table()['policyLabels']).toEqual(['chm:USER:dave:SELECT', 'chm-grantor:USER:dave:carol']);
    expect(await rows(dave, ORDERS)).toEqual(scan('sales.orders'));
  });

  it('REVOKE SELECT: dave gets 42P01 again in the same session; the traversal stays until REVOKE USAGE', async () => {
    expect(await rows(dave, ORDERS)).toEqual(scan('sales.orders'));
    // a named prepared statement, planned while dave may read
    const prepared = { name: 'dave_orders', text: ORDERS };
    expect(await textRows(dave, prepared)).toEqual(scan('sales.orders'));
    const r = await carol.query('REVOKE SELECT ON sales.orders FROM dave');
    expect(r.command).toBe('REVOKE');
    expect(await err(dave.query(ORDERS))).toEqual(missing('sales.orders'));
    // its plan was made before the REVOKE: it plans again at the next Bind, and is refused
    expect(await err(textRows(dave, prepared))).toEqual(missing('sales.orders'));
    // the table policy is gone (nothing left in it); the traversal policies remain
    expect(policiesOnDisk().some((p) => JSON.stringify(p['resources']).includes('"orders"'))).toBe(false);
    expect((await rows(carol, 'SHOW GRANTS TO USER dave')).map((x) => x['resource'])).toEqual(['lake', 'lake.sales', 'lake.sales']);
    await carol.query('REVOKE USAGE ON DATABASE lake FROM USER dave');
    await carol.query('REVOKE USAGE ON SCHEMA sales FROM USER dave');
    expect(await rows(carol, 'SHOW GRANTS TO USER dave')).toEqual([]);
  });
});

describe('DENY, wildcards, groups', () => {
  it('a wildcard grant covers every table of the schema, also one created after it', async () => {
    await carol.query('GRANT SELECT ON FUTURE TABLES IN SCHEMA hr TO USER dave');
    expect(await rows(dave, 'SELECT id, salary FROM hr.salaries ORDER BY id')).toEqual(scan('hr.salaries'));
    // control: the new table does not exist yet (asked as carol, so dave's catalog cache holds no miss)
    expect(await err(carol.query('SELECT id, salary FROM hr.salaries_2027'))).toEqual(missing('hr.salaries_2027'));
    const cat = new SqlCatalogFile(path.join(root, 'catalog.db'), 'lake', { create: true });
    try {
      cat.register(['hr'], 'salaries_2027', cat.entry(['hr'], 'salaries')!.metadataLocation);
    } finally {
      cat.close();
    }
    expect(await rows(dave, 'SELECT id, salary FROM hr.salaries_2027 ORDER BY id')).toEqual(scan('hr.salaries'));
    const wild = policiesOnDisk().filter((p) => JSON.stringify(p['resources']).includes('"hr"') && (p['resources'] as Record<string, { values: string[] }>)['table']?.values[0] === '*');
    // one wildcard policy: the analysts' own (id 5) merged with dave's item
    expect(wild.map((p) => p['id'])).toEqual([5]);
    // FUTURE TABLES and ALL TABLES are the same wildcard policy
    await carol.query('REVOKE SELECT ON ALL TABLES IN SCHEMA hr FROM USER dave');
    expect(await err(dave.query('SELECT id FROM hr.salaries'))).toEqual(missing('hr.salaries'));
    // the engineers' item is untouched
    expect(await rows(carol, 'SELECT id, salary FROM hr.salaries ORDER BY id')).toEqual(scan('hr.salaries'));
  });

  it('a deny overrides an allow', async () => {
    await carol.query('GRANT SELECT ON ALL TABLES IN SCHEMA sales TO USER dave');
    expect(await rows(dave, ORDERS)).toEqual(scan('sales.orders'));
    expect(await carol.query('DENY SELECT ON TABLE sales.orders TO USER dave').then((r) => r.command)).toBe('DENY');
    expect(await err(dave.query(ORDERS))).toEqual(missing('sales.orders'));
    expect(await rows(dave, 'SELECT id, label, discount FROM sales.evolved ORDER BY id')).toEqual(scan('sales.evolved'));
    expect((await rows(carol, 'SHOW GRANTS ON sales.orders')).map((r) => [r['privilege'], r['effect']])).toEqual([
      ['table-data-read', 'DENY'],
      ['table-list', 'DENY'],
      ['table-properties-read', 'DENY'],
    ]);
    expect((await rows(carol, 'CHECK ACCESS SELECT ON sales.orders FOR USER dave'))[0]!['reason']).toMatch(/^Denied by policy \d+: dave table-data-read on lake\.sales\.orders$/);
    // DENY is for administrators only, whatever the grant authority
    const alice = await as('alice');
    expect(await err(alice.query('DENY SELECT ON TABLE sales.orders TO USER bob'))).toEqual({ code: '42501', message: 'permission denied: DENY needs the administrator role (sqe_admin)' });
    expect(await err(alice.query('GRANT SELECT ON TABLE sales.orders TO USER bob'))).toEqual({ code: '42501', message: 'permission denied: GRANT needs the administrator role (sqe_admin)' });
    await alice.end();
    // REVOKE removes the deny too (it revokes what was granted or denied)
    await carol.query('REVOKE SELECT ON TABLE sales.orders FROM USER dave');
    expect(await rows(dave, ORDERS)).toEqual(scan('sales.orders'));
    await carol.query('REVOKE SELECT ON ALL TABLES IN SCHEMA sales FROM USER dave');
    expect(await err(dave.query(ORDERS))).toEqual(missing('sales.orders'));
  });

  it('GRANTs from concurrent sessions are serialized: no item is lost', async () => {
    const carol2 = await as('carol');
    const grantees = ['bob', 'erin', 'dave', 'alice'];
    await Promise.all(grantees.map((u, i) => (i % 2 === 0 ? carol : carol2).query(`GRANT DROP ON TABLE sales.orders TO USER ${u}`)));
    const table = policiesOnDisk().find((p) => JSON.stringify(p['resources']).includes('"orders"'))!;
    expect((table['policyItems'] as { users: string[] }[]).map((i) => i.users[0]).sort()).toEqual([...grantees].sort());
    await Promise.all(grantees.map((u, i) => (i % 2 === 0 ? carol2 : carol).query(`REVOKE DROP ON TABLE sales.orders FROM USER ${u}`)));
    expect(policiesOnDisk().some((p) => JSON.stringify(p['resources']).includes('"orders"'))).toBe(false);
    // the traversal the grants wrote for the analysts (they held it through their role only) is cleared as REVOKE USAGE clears it
    for (const u of ['bob', 'erin', 'alice']) for (const s of ['SCHEMA sales', 'DATABASE lake']) await carol.query(`REVOKE USAGE ON ${s} FROM USER ${u}`);
    await carol2.end();
  });

  it('GRANT ON VIEW writes the view-* types in the table slot; the view\'s base table is still gated as dave', async () => {
    const VIEW = 'SELECT id, salary FROM hr.eu_pay ORDER BY id';
    // control: carol (engineer) reads the view; dave may not load it
    expect(await rows(carol, VIEW)).toEqual(scan('hr.salaries'));
    expect(await err(dave.query(VIEW))).toEqual(missing('hr.eu_pay'));
    await carol.query('GRANT SELECT ON VIEW hr.eu_pay TO USER dave');
    const view = policiesOnDisk().find((p) => JSON.stringify(p['resources']).includes('"eu_pay"'))!;
    expect((view['policyItems'] as { accesses: { type: string }[] }[])[0]!.accesses.map((a) => a.type)).toEqual(['view-properties-read', 'view-list']);
    expect(view['policyLabels']).toEqual(['chm:USER:dave:VIEW_SELECT', 'chm-grantor:USER:dave:carol']);
    // dave may load the view now; its base table does not exist for him (a view is not a security boundary)
    expect(await err(dave.query(VIEW))).toEqual(missing('hr.salaries'));
    await carol.query('GRANT SELECT ON TABLE hr.salaries TO USER dave');
    expect(await rows(dave, VIEW)).toEqual(scan('hr.salaries'));
    await carol.query('REVOKE SELECT ON VIEW hr.eu_pay FROM USER dave');
    expect(await err(dave.query(VIEW))).toEqual(missing('hr.eu_pay'));
    await carol.query('REVOKE SELECT ON TABLE hr.salaries FROM USER dave');
    expect(await err(dave.query('SELECT * FROM hr.salaries'))).toEqual(missing('hr.salaries'));
  });

  it('GROUP g is written to the roles field', async () => {
    await carol.query('GRANT SELECT ON TABLE sales.orders TO GROUP engineer');
    const table = policiesOnDisk().find((p) => JSON.stringify(p['resources']).includes('"orders"'))!;
    expect(table['policyItems']).toEqual([expect.objectContaining({ users: [], groups: [], roles: ['engineer'] })]);
    expect((await rows(carol, 'SHOW GRANTS ON sales.orders')).map((r) => [r['grantee_type'], r['grantee_name']])[0]).toEqual(['GROUP', 'engineer']);
    await carol.query('REVOKE SELECT ON TABLE sales.orders FROM GROUP engineer');
    expect(policiesOnDisk().some((p) => JSON.stringify(p['resources']).includes('"orders"'))).toBe(false);
  });

  it('an unknown grantee is refused with the store\'s error, and nothing is written', async () => {
    const before = fs.readFileSync(path.join(polarisDir, 'polaris.json'), 'utf8');
    expect(await err(carol.query('GRANT SELECT ON TABLE sales.orders TO USER nobody'))).toEqual({ code: '42704', message: 'user with name: nobody does not exist' });
    expect(await err(carol.query('GRANT SELECT ON TABLE sales.orders TO ROLE nosuch'))).toEqual({ code: '42704', message: 'role with name: nosuch does not exist' });
    expect(fs.readFileSync(path.join(polarisDir, 'polaris.json'), 'utf8')).toBe(before);
  });
});

describe('a GRANT names an object: a name, never a pattern, and one that exists for the grantor', () => {
  const policyFile = () => fs.readFileSync(path.join(polarisDir, 'polaris.json'), 'utf8');

  it('a quoted name holding * is refused (Ranger would read it as a wildcard): nothing written, dave still gets 42P01', async () => {
    const before = policyFile();
    const refusal = { code: '42602', message: 'invalid name "o*": a Ranger policy cannot hold * or ? in a name (Ranger reads them as wildcards)' };
    const e = await rejection(carol.query('GRANT SELECT ON sales."o*" TO dave'));
    expect({ code: e.code, message: e.message }).toEqual(refusal);
    expect((e as { hint?: string }).hint).toBe('For every table of the schema, name ALL TABLES IN SCHEMA sales.');
    expect(await err(carol.query('DENY SELECT ON TABLE sales."o*" TO USER dave'))).toEqual(refusal);
    expect(await err(carol.query('GRANT SELECT ON ALL TABLES IN SCHEMA "s*" TO USER dave'))).toEqual({
      code: '42602',
      message: 'invalid name "s*": a Ranger policy cannot hold * or ? in a name (Ranger reads them as wildcards)',
    });
    expect(policyFile()).toBe(before);
    expect(await err(dave.query(ORDERS))).toEqual(missing('sales.orders'));
    // control: the table by its name lets dave read it
    await carol.query('GRANT SELECT ON sales.orders TO dave');
    expect(await rows(dave, ORDERS)).toEqual(scan('sales.orders'));
    await carol.query('REVOKE SELECT ON sales.orders FROM dave');
    expect(await err(dave.query(ORDERS))).toEqual(missing('sales.orders'));
  });

  it('ALL TABLES IN SCHEMA still writes the wildcard', async () => {
    await carol.query('GRANT SELECT ON ALL TABLES IN SCHEMA sales TO dave');
    const wild = policiesOnDisk().filter((p) => {
      const r = p['resources'] as Record<string, { values: string[] }>;
      return r['namespace']?.values[0] === 'sales' && r['table']?.values[0] === '*' && JSON.stringify(p['policyItems']).includes('"dave"');
    });
    expect(wild).toHaveLength(1);
    expect(await rows(dave, ORDERS)).toEqual(scan('sales.orders'));
    await carol.query('REVOKE SELECT ON ALL TABLES IN SCHEMA sales FROM dave');
    expect(await err(dave.query(ORDERS))).toEqual(missing('sales.orders'));
  });

  it('a GRANT or DENY on a table or schema that does not exist is PostgreSQL\'s error, and nothing is written', async () => {
    const before = policyFile();
    // expected texts as PostgreSQL 15 words them for the same statements
    expect(await err(carol.query('GRANT SELECT ON sales.nope TO dave'))).toEqual(missing('sales.nope'));
    expect(await err(carol.query('GRANT SELECT ON lake.sales.nope TO dave'))).toEqual(missing('sales.nope'));
    expect(await err(carol.query('DENY SELECT ON TABLE sales.nope TO USER dave'))).toEqual(missing('sales.nope'));
    expect(await err(carol.query('GRANT SELECT ON nope.orders TO dave'))).toEqual({ code: '3F000', message: 'schema "nope" does not exist' });
    expect(await err(carol.query('GRANT USAGE ON SCHEMA nope TO dave'))).toEqual({ code: '3F000', message: 'schema "nope" does not exist' });
    expect(await err(carol.query('GRANT SELECT ON ALL TABLES IN SCHEMA nope TO dave'))).toEqual({ code: '3F000', message: 'schema "nope" does not exist' });
    expect(await err(carol.query('GRANT SELECT ON VIEW sales.orders TO USER dave'))).toEqual({ code: '42809', message: '"sales.orders" is not a view' });
    expect(policyFile()).toBe(before);
    // control: the same statements on objects that exist are written
    await carol.query('GRANT USAGE ON SCHEMA sales TO dave');
    expect(policyFile()).not.toBe(before);
    await carol.query('REVOKE USAGE ON SCHEMA sales FROM dave');
  });

  it('REVOKE of a missing object is PostgreSQL\'s error unless a policy is left on exactly that name (a dropped table\'s)', async () => {
    expect(await err(carol.query('REVOKE SELECT ON sales.nope FROM dave'))).toEqual(missing('sales.nope'));
    expect(await err(carol.query('REVOKE USAGE ON SCHEMA nope FROM dave'))).toEqual({ code: '3F000', message: 'schema "nope" does not exist' });
    // a table granted on, then dropped from the catalog: its policy would apply again to a table created under its name
    const catalogDb = path.join(root, 'catalog.db');
    const cat = new SqlCatalogFile(catalogDb, 'lake', { create: true });
    try {
      cat.register(['sales'], 'gone', cat.entry(['sales'], 'orders')!.metadataLocation);
    } finally {
      cat.close();
    }
    await carol.query('GRANT SELECT ON sales.gone TO dave');
    expect(await rows(dave, 'SELECT id, region, amount FROM sales.gone ORDER BY id')).toEqual(scan('sales.orders'));
    const db = new Database(catalogDb);
    try {
      db.prepare(`DELETE FROM iceberg_tables WHERE table_namespace = 'sales' AND table_name = 'gone'`).run();
    } finally {
      db.close();
    }
    const gone = () => policiesOnDisk().some((p) => JSON.stringify(p['resources']).includes('"gone"'));
    expect(gone()).toBe(true);
    expect((await carol.query('REVOKE SELECT ON sales.gone FROM dave')).command).toBe('REVOKE');
    expect(gone()).toBe(false);
    // nothing is left on that name now: the name is missing as any other
    expect(await err(carol.query('REVOKE SELECT ON sales.gone FROM dave'))).toEqual(missing('sales.gone'));
  });
});

describe('SHOW GRANTS and CHECK ACCESS name only what the asker may load', () => {
  const alicesGrants = async (asker: pg.Client) =>
    (await rows(asker, 'SHOW GRANTS TO USER alice')).map((r) => [r['privilege'], r['resource'], r['effect']].join(' '));
  // the catalog level is written too: alice holds namespace-list there only through her role (analyst)
  const traversal = ['namespace-list lake ALLOW', 'namespace-list lake.hr ALLOW', 'namespace-properties-read lake.hr ALLOW'];
  const wildcard = ['table-data-read lake.hr.* ALLOW', 'table-list lake.hr.* ALLOW', 'table-properties-read lake.hr.* ALLOW'];
  const denied = ['table-data-read lake.hr.salaries DENY', 'table-list lake.hr.salaries DENY', 'table-properties-read lake.hr.salaries DENY'];
  let alice: pg.Client;
  beforeAll(async () => {
    alice = await as('alice');
  });
  afterAll(async () => {
    await alice?.end();
  });

  it('after DENY on hr.salaries alice\'s CHECK ACCESS is 42P01 as for a missing table, her SHOW GRANTS has no hr.salaries row; carol sees both', async () => {
    expect(await alicesGrants(alice)).toEqual([]);
    try {
      await carol.query('GRANT SELECT ON ALL TABLES IN SCHEMA hr TO alice');
      // control: alice loads hr.salaries, checks it and sees her grants, the wildcard among them
      expect(await rows(alice, 'SELECT id, salary FROM hr.salaries ORDER BY id')).toEqual(scan('hr.salaries'));
      expect((await rows(alice, 'CHECK ACCESS SELECT ON hr.salaries FOR USER alice'))[0]!['allowed']).toBe('t');
      expect(await alicesGrants(alice)).toEqual([...traversal, ...wildcard]);

      await carol.query('DENY SELECT ON hr.salaries TO alice');
      expect(await err(alice.query('SELECT id, salary FROM hr.salaries'))).toEqual(missing('hr.salaries'));
      // her own CHECK ACCESS answers what a missing table gets, field for field
      const hidden = await rejection(alice.query('CHECK ACCESS SELECT ON hr.salaries FOR USER alice'));
      const absent = await rejection(alice.query('CHECK ACCESS SELECT ON hr.nope FOR USER alice'));
      expect([hidden.code, hidden.message]).toEqual(['42P01', 'relation "hr.salaries" does not exist']);
      expect(wireFields(hidden)).toEqual(wireFields(absent, ['hr.nope', 'hr.salaries']));
      // her SHOW GRANTS keeps the wildcard (it names no table) and leaves the hidden table out
      const shown = await alicesGrants(alice);
      expect(shown).toEqual([...traversal, ...wildcard]);
      expect(shown.join('\n')).not.toContain('salaries');

      // control: carol (administrator) sees the deny and the policy that decides
      expect(await alicesGrants(carol)).toEqual([...traversal, ...wildcard, ...denied]);
      expect((await rows(carol, 'CHECK ACCESS SELECT ON hr.salaries FOR USER alice'))[0]!['reason']).toMatch(/^Denied by policy \d+: alice table-data-read on lake\.hr\.salaries$/);
    } finally {
      await carol.query('REVOKE SELECT ON hr.salaries FROM alice');
      await carol.query('REVOKE SELECT ON ALL TABLES IN SCHEMA hr FROM alice');
      await carol.query('REVOKE USAGE ON SCHEMA hr FROM alice');
      await carol.query('REVOKE USAGE ON DATABASE lake FROM alice');
    }
    expect(await alicesGrants(carol)).toEqual([]);
  });
});

describe('the audit trail', () => {
  it('a GRANT is an audit event per resource written, by its grantor; a refused one is audited as denied', async () => {
    // statement texts no other test uses, so their events are told apart in the shared trail
    const byCarolText = 'grant select on table lake.sales.evolved to user dave';
    const byDaveText = 'grant select on lake.sales.evolved to user dave';
    const before = new Map(policiesOnDisk().map((p) => [p['id'], JSON.stringify(p)]));
    await carol.query(byCarolText);
    // what the GRANT wrote, read back from the policy file: the policies it created or changed
    // (a traversal level dave holds from an earlier test is not written again)
    let changed: Record<string, unknown>[] = [];
    try {
      changed = policiesOnDisk().filter((p) => before.get(p['id']) !== JSON.stringify(p));
      await expect(dave.query(byDaveText)).rejects.toThrow();
    } finally {
      await carol.query('REVOKE SELECT ON TABLE lake.sales.evolved FROM USER dave');
    }
    const levels = ['catalog', 'namespace', 'table'];
    const pathOf = (p: Record<string, unknown>) => {
      const r = p['resources'] as Record<string, { values: string[] }>;
      return levels.filter((l) => r[l]).map((l) => r[l]!.values[0]).join('/');
    };
    const typeOf = (p: Record<string, unknown>) => `@${levels.filter((l) => (p['resources'] as Record<string, unknown>)[l]).pop()}`;
    expect(changed.map(pathOf)).toContain('lake/sales/evolved');
    const of = (text: string) => auditEvents().filter((e) => e['action'] === 'GRANT' && e['reqData'] === text);
    for (let i = 0; i < 50 && (of(byCarolText).length < changed.length || of(byDaveText).length < 1); i++) await new Promise((r) => setTimeout(r, 100));
    const byCarol = of(byCarolText);
    // one event per level written, by the grantor
    expect(byCarol.map((e) => [e['reqUser'], e['result'], e['resource'], e['resType']]).sort()).toEqual(
      changed.map((p) => ['carol', 1, pathOf(p), typeOf(p)]).sort(),
    );
    expect(byCarol.every((e) => e['enforcer'] === 'lakegate')).toBe(true);
    // from where: the grantor's own session (node-postgres learned its backend id from BackendKeyData)
    const carolPid = (carol as unknown as { processID: number }).processID;
    expect(new Set(byCarol.map((e) => [e['cliIP'], e['sess']].join(' ')))).toEqual(new Set([`127.0.0.1 ${carolPid}`]));
    const ids = changed.map((p) => p['id'] as number);
    for (const e of byCarol) {
      if (ids.length === 1) expect(e['policy']).toBe(ids[0]);
      else for (const id of ids) expect(String(e['reason'])).toMatch(new RegExp(`policies .*\\b${id}\\b`));
    }
    expect(of(byDaveText).map((e) => [e['reqUser'], e['result'], e['reason']])).toEqual([
      ['dave', 0, 'permission denied: GRANT needs the administrator role (sqe_admin)'],
    ]);
  });
});

describe('refused statements', () => {
  it('the refused widening names the level it would have written', async () => {
    const e = await rejection(carol.query('GRANT ALL ON TABLE lake.sales.orders TO USER dave'));
    expect([e.code, e.message]).toEqual(['0LP01', 'ALL PRIVILEGES binds to the catalog level: ON TABLE sales.orders would be written as a policy on the whole catalog "lake"']);
    expect((e as { hint?: string }).hint).toBe('Grant ALL ON DATABASE lake for the whole catalog, or name the table privileges (SELECT, INSERT, UPDATE, DELETE, ALTER, DROP).');
    expect(await err(carol.query('GRANT USAGE ON TABLE sales.orders TO USER dave'))).toEqual({
      code: '0LP01',
      message: 'USAGE binds to the namespace (schema) level: ON TABLE sales.orders would be written on namespace "lake.sales"',
    });
    expect(await err(carol.query('GRANT SELECT ON SCHEMA sales TO USER dave'))).toEqual({ code: '0LP01', message: 'SELECT binds to the table level: ON SCHEMA sales names no table' });
    expect(await err(carol.query('GRANT SELECT ON other.sales.orders TO USER dave'))).toEqual({
      code: '0A000',
      message: 'cross-database references are not implemented: "other" is not the connected catalog "lake"',
    });
  });

  it('syntax errors are 42601 with the position of the offending word', async () => {
    const cases: [string, string, string][] = [
      ['DENY SELECT ON TABLE sales.orders TO USER', 'syntax error at end of input', '42'],
      ['SHOW GRANTS ON', 'syntax error at end of input', '15'],
      ['CHECK ACCESS SELECT ON sales.orders FOR dave', 'syntax error at or near "dave"', '41'],
      ['GRANT SELECT ON TABLE sales.orders TO USER dave WITH OPTION', 'syntax error at or near "option"', '54'],
      ['DENY FLY ON sales.orders TO dave', 'syntax error at or near "fly"', '6'],
    ];
    for (const [sql, message, position] of cases) {
      const e = await rejection(carol.query(sql));
      expect([sql, e.code, e.message, e.position]).toEqual([sql, '42601', message, position]);
    }
  });

  it('inside a transaction block a GRANT is refused (its policy could not be rolled back)', async () => {
    await carol.query('BEGIN');
    expect((await err(carol.query('GRANT SELECT ON sales.orders TO dave'))).code).toBe('25001');
    await carol.query('ROLLBACK');
    expect(await err(dave.query(ORDERS))).toEqual(missing('sales.orders'));
  });
});

describe('grant_authority = ranger-delegate', () => {
  let gw2: InProcessGateway;
  beforeAll(async () => {
    // dave holds nothing (the traversal earlier tests left is revoked)
    for (const s of ['DATABASE lake', 'SCHEMA sales', 'SCHEMA hr']) await carol.query(`REVOKE USAGE ON ${s} FROM USER dave`);
    expect(await rows(carol, 'SHOW GRANTS TO USER dave')).toEqual([]);
    // carol hands alice the grant option on the table before the delegate gateway loads the policies
    await carol.query('GRANT SELECT ON TABLE sales.orders TO USER alice WITH GRANT OPTION');
    gw2 = await startInProcess(gatewayConfig('ranger-delegate'));
  }, 120_000);
  afterAll(async () => gw2?.stop());

  it('a delegated grantor cannot write the traversal levels: the error names the level and the admin statements', async () => {
    const alice = await as('alice', gw2);
    const e = await rejection(alice.query('GRANT SELECT ON TABLE sales.orders TO USER dave'));
    expect([e.code, e.message]).toEqual(['42501', 'permission denied: alice holds no grant option on catalog "lake" for namespace-list']);
    expect((e as { hint?: string }).hint).toBe('An administrator must run: GRANT USAGE ON DATABASE lake TO USER dave; GRANT USAGE ON SCHEMA sales TO USER dave');
    const davE = await as('dave', gw2);
    expect(await err(davE.query(ORDERS))).toEqual(missing('sales.orders'));
    // the administrator writes the traversal; alice's grant then skips the levels dave holds
    const carol2 = await as('carol', gw2);
    await carol2.query('GRANT USAGE ON DATABASE lake TO USER dave');
    await carol2.query('GRANT USAGE ON SCHEMA sales TO USER dave');
    expect((await alice.query('GRANT SELECT ON TABLE sales.orders TO USER dave')).command).toBe('GRANT');
    expect(await rows(davE, ORDERS)).toEqual(scan('sales.orders'));
    const table = policiesOnDisk().find((p) => JSON.stringify(p['resources']).includes('"orders"'))!;
    expect(table['policyLabels']).toEqual(['chm:USER:alice:SELECT', 'chm-grantor:USER:alice:carol', 'chm:USER:dave:SELECT', 'chm-grantor:USER:dave:alice']);
    // a table alice may load but holds no grant option on: the refusal names the level
    expect(await err(alice.query('GRANT SELECT ON TABLE sales.evolved TO USER dave'))).toEqual({
      code: '42501',
      message: 'permission denied: alice holds no grant option on table "lake.sales.evolved" for table-data-read, table-list, table-properties-read',
    });
    // a table alice may not load (hr is the engineers'): missing for her, as in a schema that does not exist
    const hidden = await rejection(alice.query('GRANT SELECT ON TABLE hr.salaries TO USER dave'));
    const absent = await rejection(alice.query('GRANT SELECT ON TABLE nope.salaries TO USER dave'));
    expect([hidden.code, hidden.message]).toEqual(['3F000', 'schema "hr" does not exist']);
    expect(wireFields(hidden)).toEqual(wireFields(absent, ['nope', 'hr']));
    await Promise.all([alice.end(), davE.end(), carol2.end()]);
  });
});
