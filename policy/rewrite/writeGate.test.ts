/**
 * The data gate for writes, through the write planner onto a real DuckDB (its
 * `demo` database stands for the session's attached catalog): what a write
 * reads is gated as a query is (a filtered writer copies only the rows it
 * sees, a masked one writes masked values — MASK_HASH checked against Node's
 * HMAC); a DML target the writer sees filtered, masked or restricted is
 * refused (42501), never run against stored rows; Ranger's hive access types
 * decide each statement; no policy set refuses everything. Every refusal has
 * its control: the same statement by a user the policies allow.
 */
import { createHmac } from 'node:crypto';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { duckSql } from '../../tests/support/demoEngine.js';
import { loadDuckDbCatalog, type Catalog } from '../../catalog/catalog.js';
import { demoDuckDb, installGateMacros } from '../../tests/support/dataGate.js';
import { P, rangerRoles, servicePolicies } from '../../tests/support/rangerPolicies.js';
import { planWriteAs, runWrite, writeRefusal, type WriteSetup } from '../../tests/support/writePlanning.js';
import { PolicyEngine } from '../ranger/engine.js';
import { parseRangerRoles, parseServicePolicies } from '../ranger/model.js';
import { RoleStore } from '../ranger/roles.js';

const KEY = 'write-gate-mask-key-0001';
const hmac = (v: string) => createHmac('sha256', KEY).update(v, 'utf8').digest('hex');

let instance: DuckDBInstance;
let conn: DuckDBConnection;
let catalog: Catalog;

const ROLES = { analyst: ['alice', 'bob', 'carol', 'erin'], engineer: ['bob', 'carol', 'erin'], sqe_admin: ['carol'] };
const WRITE = ['select', 'update', 'create', 'drop', 'alter'];

function policies(extra: Record<string, unknown>[] = []) {
  return servicePolicies('lakehouse', [
    P.allow('analysts read sales', 'sales', '*', '*', { roles: ['analyst'] }),
    P.allow('engineers write sales', 'sales', '*', '*', { roles: ['engineer'] }, { accesses: WRITE }),
    P.mask('ssn by role', 'sales', 'orders', 'ssn', [
      [{ roles: ['sqe_admin'] }, 'MASK_NONE'],
      [{ roles: ['engineer'] }, 'MASK_HASH'],
      [{ roles: ['analyst'] }, 'MASK_SHOW_LAST_4'],
    ]),
    P.mask('amount by role', 'sales', 'orders', 'amount', [
      [{ roles: ['sqe_admin'] }, 'MASK_NONE'],
      [{ roles: ['engineer'] }, 'MASK_NULL'],
    ]),
    P.filter('erin EU only', 'sales', 'orders', [[{ users: ['erin'] }, "region = 'EU'"]]),
    ...extra,
  ]);
}

const engineOf = (doc: Record<string, unknown>) =>
  new PolicyEngine(parseServicePolicies(doc, 'test'), { roles: new RoleStore(parseRangerRoles(rangerRoles('lakehouse', ROLES), 'test')) });
const demo = (): WriteSetup => ({ engine: engineOf(policies()) });

const rows = async (sql: string) =>
  (await conn.runAndReadAll(sql)).getRows().map((r) => r.map((v) => (v === null ? null : typeof v === 'object' || typeof v === 'bigint' ? String(v) : v)));

/** A fresh copy of the orders' shape (id, ssn, amount, region) in sales, empty or with the orders' rows. */
async function freshTable(name: string, filled = false): Promise<void> {
  await conn.run(`CREATE OR REPLACE TABLE demo.sales.${name} (id INTEGER, ssn VARCHAR, amount DECIMAL(10,2), region VARCHAR)`);
  if (filled) await conn.run(`INSERT INTO demo.sales.${name} SELECT * FROM demo.sales.orders`);
  catalog = await loadDuckDbCatalog(duckSql(conn), 'demo');
}

beforeAll(async () => {
  ({ instance, conn } = await demoDuckDb());
  await conn.run('CREATE TABLE demo.sales.orders (id INTEGER, ssn VARCHAR, amount DECIMAL(10,2), region VARCHAR)');
  await conn.run(`INSERT INTO demo.sales.orders VALUES (1, '111-11-1111', 100.00, 'EU'), (2, '222-22-2222', 250.50, 'US'), (3, 'abc', 75.25, 'APAC')`);
  await installGateMacros(conn, KEY);
  catalog = await loadDuckDbCatalog(duckSql(conn), 'demo');
});

afterAll(() => {
  conn.closeSync();
  instance.closeSync();
});

describe('what a write reads is gated as a query is', () => {
  it('a filtered writer copies only the rows it sees (INSERT … SELECT); carol (no filter) copies every row', async () => {
    await freshTable('copy_erin');
    expect(await runWrite(conn, planWriteAs(catalog, 'insert into sales.copy_erin (id, region) select id, region from sales.orders', 'erin', demo()))).toBe(1);
    expect(await rows('SELECT id, region FROM demo.sales.copy_erin ORDER BY id')).toEqual([[1, 'EU']]);
    await freshTable('copy_carol');
    expect(await runWrite(conn, planWriteAs(catalog, 'insert into sales.copy_carol (id, region) select id, region from sales.orders', 'carol', demo()))).toBe(3);
  });

  it('a masked writer writes masked values (CREATE TABLE AS): the HMAC of ssn, no amount; carol writes them as stored', async () => {
    const bob = planWriteAs(catalog, 'create table sales.bob_orders as select * from sales.orders', 'bob', demo());
    expect(bob.kind).toBe('table-as');
    await runWrite(conn, bob);
    expect(await rows('SELECT id, ssn, amount, region FROM demo.sales.bob_orders ORDER BY id')).toEqual([
      [1, hmac('111-11-1111'), null, 'EU'],
      [2, hmac('222-22-2222'), null, 'US'],
      [3, hmac('abc'), null, 'APAC'],
    ]);
    await runWrite(conn, planWriteAs(catalog, 'create table sales.carol_orders as select * from sales.orders', 'carol', demo()));
    expect(await rows('SELECT ssn, amount FROM demo.sales.carol_orders WHERE id = 1')).toEqual([['111-11-1111', '100.00']]);
  });

  it("a subquery in an UPDATE's WHERE and a MERGE source read through the filter", async () => {
    await freshTable('marks', true);
    const update = "update sales.marks set region = 'seen' where id in (select id from sales.orders)";
    expect(await runWrite(conn, planWriteAs(catalog, update, 'erin', demo()))).toBe(1);
    expect(await runWrite(conn, planWriteAs(catalog, update, 'carol', demo()))).toBe(3);
    await freshTable('merged');
    const merge = 'merge into sales.merged as d using sales.orders as s on d.id = s.id when not matched then insert (id, region) values (s.id, s.region)';
    expect(await runWrite(conn, planWriteAs(catalog, merge, 'erin', demo()))).toBe(1);
    expect(await rows('SELECT id FROM demo.sales.merged')).toEqual([[1]]);
  });
});

describe('a DML target must be seen as stored', () => {
  it.each([
    ["update sales.orders set region = region where ssn = '111-11-1111'", 'bob'],
    ['delete from sales.orders where amount > 100', 'bob'],
    ["merge into sales.orders as d using (select 1 as id) as s on d.id = s.id when matched then update set region = 'x'", 'bob'],
    ['truncate sales.orders', 'bob'],
    ["update sales.orders set region = 'x'", 'erin'],
    ['delete from sales.orders', 'erin'],
  ])('%s by %s: 42501 saying why, never run', (sql, user) => {
    const e = writeRefusal(catalog, sql, user, demo());
    expect([e.code, e.message]).toEqual(['42501', 'permission denied for table orders']);
    expect(e.detail).toMatch(/^the row filter or column masks that apply to you would not apply to the rows this statement changes \((a row filter applies to you on this table|column masks apply to you on "ssn", "amount")\)$/);
  });

  it('carol (MASK_NONE, no filter) is the control: her UPDATE and DELETE run on the stored rows', async () => {
    await freshTable('orders_backup', true);
    expect(await runWrite(conn, planWriteAs(catalog, "update sales.orders set region = region where ssn = '111-11-1111'", 'carol', demo()))).toBe(1);
    expect(await runWrite(conn, planWriteAs(catalog, 'delete from sales.orders where amount > 1000', 'carol', demo()))).toBe(0);
  });

  it('a column the writer may not read also refuses the write (its control: the same write without the deny)', () => {
    const s = { engine: engineOf(policies([P.deny('no ssn for erin', 'sales', 'marks', 'ssn', { users: ['erin'] })])) };
    const e = writeRefusal(catalog, "update sales.marks set region = 'x'", 'erin', s);
    expect([e.code, e.detail]).toEqual(['42501', 'the row filter or column masks that apply to you would not apply to the rows this statement changes (you may not read "ssn")']);
    expect(planWriteAs(catalog, "update sales.marks set region = 'x'", 'erin', demo()).kind).toBe('engine');
  });

  it('INSERT does not read its target: a masked writer may append (bob into orders)', () => {
    expect(planWriteAs(catalog, "insert into sales.orders values (9, 'x', 1, 'EU')", 'bob', demo()).kind).toBe('engine');
  });
});

describe("Ranger's hive access types decide each statement", () => {
  const readOnly = { engine: engineOf(policies()) };
  it.each([
    ["insert into sales.marks values (1, 'a', 1, 'EU')", 'permission denied for table marks'],
    ["update sales.marks set region = 'x'", 'permission denied for table marks'],
    ['delete from sales.marks', 'permission denied for table marks'],
    ['truncate sales.marks', 'permission denied for table marks'],
    ['merge into sales.marks as d using sales.orders s on d.id = s.id when matched then delete', 'permission denied for table marks'],
    ['create table sales.n (id int)', 'permission denied for schema sales'],
    ['create table sales.n as select 1 as id', 'permission denied for schema sales'],
    ['create view sales.nv as select 1 as id', 'permission denied for schema sales'],
    ['drop table sales.marks', 'must be owner of table marks'],
    ['alter table sales.marks add column z int', 'must be owner of table marks'],
    ['alter table sales.marks rename to marks2', 'must be owner of table marks'],
    ["comment on table sales.marks is 'x'", 'must be owner of table marks'],
    ['drop schema sales cascade', 'must be owner of schema sales'],
  ])('%s: alice (analyst, select only) is refused; bob (engineer) is allowed', (sql, words) => {
    const e = writeRefusal(catalog, sql, 'alice', readOnly);
    expect([e.code, e.message]).toEqual(['42501', words]);
    expect(() => planWriteAs(catalog, sql, 'bob', readOnly)).not.toThrow();
  });

  it('CREATE SCHEMA needs create on the database it makes', () => {
    const schemas = { engine: engineOf(policies([P.allow('engineers make s2', 's2', '*', '*', { roles: ['engineer'] }, { accesses: ['create'] })])) };
    expect(writeRefusal(catalog, 'create schema s2', 'alice', schemas)).toMatchObject({ code: '42501', message: 'permission denied for database demo' });
    expect(planWriteAs(catalog, 'create schema s2', 'bob', schemas)).toMatchObject({ kind: 'catalog', tag: 'CREATE SCHEMA', op: { op: 'create-schema', namespace: ['s2'] } });
    expect(writeRefusal(catalog, 'create schema s3', 'bob', schemas).code).toBe('42501');
  });

  it('the access type must be the one the statement needs: update alone creates nothing, drops nothing', () => {
    const updateOnly = { engine: engineOf(servicePolicies('lakehouse', [P.allow('dave updates', 'sales', '*', '*', { users: ['dave'] }, { accesses: ['select', 'update'] })])) };
    expect(() => planWriteAs(catalog, "insert into sales.marks values (1, 'a', 1, 'EU')", 'dave', updateOnly)).not.toThrow();
    expect(writeRefusal(catalog, 'create table sales.n (id int)', 'dave', updateOnly).code).toBe('42501');
    expect(writeRefusal(catalog, 'drop table sales.marks', 'dave', updateOnly).code).toBe('42501');
    expect(writeRefusal(catalog, 'alter table sales.marks add column z int', 'dave', updateOnly).code).toBe('42501');
  });

  it('a table the user may not read is missing for a write too (42P01); with select it is the access type that refuses', () => {
    const e = writeRefusal(catalog, "insert into sales.orders values (9, 'x', 1, 'EU')", 'dave', demo());
    expect([e.code, e.message]).toEqual(['42P01', 'relation "sales.orders" does not exist']);
    expect(writeRefusal(catalog, "insert into sales.orders values (9, 'x', 1, 'EU')", 'alice', demo()).code).toBe('42501');
  });

  it('no usable policy set: every write is refused (existing tables missing, creations denied)', () => {
    const none = { engine: null };
    expect(writeRefusal(catalog, "insert into sales.orders values (9, 'x', 1, 'EU')", 'carol', none).code).toBe('42P01');
    expect(writeRefusal(catalog, 'create table sales.n (id int)', 'carol', none)).toMatchObject({ code: '42501', message: 'permission denied for schema sales' });
    expect(writeRefusal(catalog, 'create schema s2', 'carol', none).code).toBe('42501');
    // the control: the same creations with the policies in force
    expect(() => planWriteAs(catalog, 'create table sales.n (id int)', 'carol', demo())).not.toThrow();
  });

  it('temporary tables need no policy: they hold only what the session read through the gate', async () => {
    const none = { engine: null };
    const plan = planWriteAs(catalog, 'create temporary table scratch (id int, v text)', 'dave', none);
    expect(plan).toMatchObject({ kind: 'engine', tag: 'CREATE TABLE', sql: 'CREATE TEMP TABLE temp.main."scratch" ("id" INTEGER, "v" VARCHAR)' });
  });
});
