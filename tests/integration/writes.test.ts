/**
 * Writes through `lakegate demo` (issue 19), read back by pyiceberg as the
 * independent reference: role engineer (bob) creates and fills tables in
 * `analytics`, analysts (alice) read them and get PostgreSQL's 42501 for a
 * write, dave (no role) gets 42P01 as for a missing table. A masked writer
 * writes masked values; a block's writes are one commit per table at COMMIT
 * and nothing at ROLLBACK; concurrent appends lose nothing; temporary tables
 * belong to their session.
 */
import { createHmac } from 'node:crypto';
import type pg from 'pg';
import { connect, rawTypes, rejection } from '../support/clients.js';
import { startLakegate, type Lakegate } from '../support/lakegate.js';
import { ORDERS } from '../support/target.js';
import { tableState } from '../support/writableLake.js';
import { DEMO_MASK_KEY } from '../../server/demo.js';

let lg: Lakegate;
const clients: pg.Client[] = [];

beforeAll(async () => {
  lg = await startLakegate();
}, 300_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
  await lg?.stop();
});

async function as(user: string): Promise<pg.Client> {
  const c = await connect(lg, { user, password: user });
  clients.push(c);
  return c;
}

/** pyiceberg's view of a table of the demo's warehouse. */
const state = (table: string) => tableState(['--catalog', 'sql', '--warehouse-dir', lg.dataDir, '--catalog-name', 'demo'], table);

const text = async (c: pg.Client, sql: string) => (await c.query({ text: sql, types: rawTypes, rowMode: 'array' })).rows as (string | null)[][];

describe('the engineer writes, as the user, under both gates', () => {
  test('CREATE SCHEMA / TABLE / INSERT by bob: pyiceberg reads the schema, field ids, rows and the snapshot summary', async () => {
    const bob = await as('bob');
    expect((await bob.query('create schema if not exists analytics')).command).toBe('CREATE');
    expect((await bob.query('create table analytics.people (id integer, name text, score numeric(10,2), seen date)')).command).toBe('CREATE');
    const ins = await bob.query("insert into analytics.people (id, name, score, seen) values (1, 'Ada', 12.50, '2024-01-02'), (2, 'Alan', null, null)");
    expect([ins.command, ins.rowCount]).toEqual(['INSERT', 2]);
    expect(await text(bob, 'select id, name, score, seen from analytics.people order by id')).toEqual([
      ['1', 'Ada', '12.50', '2024-01-02'],
      ['2', 'Alan', null, null],
    ]);
    const t = await state('analytics.people');
    expect(t.fields.map((f) => [f.id, f.name, f.type])).toEqual([
      [1, 'id', 'int'],
      [2, 'name', 'string'],
      [3, 'score', 'decimal(10, 2)'],
      [4, 'seen', 'date'],
    ]);
    expect(t.rows).toEqual([
      [1, 'Ada', '12.50', '2024-01-02'],
      [2, 'Alan', null, null],
    ]);
    expect(t.snapshots.at(-1)).toMatchObject({ operation: 'append', summary: expect.objectContaining({ 'added-records': '2' }) });
  });

  test("alice (analyst) reads it and gets 42501 for INSERT; dave (no role) gets 42P01 as for a missing table", async () => {
    const alice = await as('alice');
    const dave = await as('dave');
    expect(await text(alice, 'select count(*) from analytics.people')).toEqual([['2']]);
    const denied = await rejection(alice.query("insert into analytics.people values (3, 'x', 1, null)"));
    expect([denied.code, denied.message]).toEqual(['42501', 'permission denied for table people']);
    const hidden = await rejection(dave.query("insert into analytics.people values (3, 'x', 1, null)"));
    const missing = await rejection(dave.query("insert into analytics.nope values (3, 'x', 1, null)"));
    expect([hidden.code, hidden.message]).toEqual(['42P01', 'relation "analytics.people" does not exist']);
    expect([missing.code, missing.message]).toEqual(['42P01', 'relation "analytics.nope" does not exist']);
    expect((await state('analytics.people')).rows).toHaveLength(2);
  });

  test('a masked writer writes masked values: bob\'s CTAS of sales.orders holds the HMAC of ssn and no amount', async () => {
    const bob = await as('bob');
    const r = await bob.query('create table analytics.bob_orders as select id, ssn, amount, region from sales.orders');
    expect([r.command, r.rowCount]).toEqual(['SELECT', 2]);
    const hmac = (v: string) => createHmac('sha256', DEMO_MASK_KEY).update(v, 'utf8').digest('hex');
    const t = await state('analytics.bob_orders');
    expect(t.rows).toEqual(ORDERS.map((o) => [o.id, hmac(o.ssn), null, o.region]));
    for (const o of ORDERS) expect(JSON.stringify(t.rows)).not.toContain(o.ssn);
  });

  test('a block is one commit per table at COMMIT, and nothing at ROLLBACK', async () => {
    const bob = await as('bob');
    const before = await state('analytics.people');
    await bob.query('begin');
    await bob.query("insert into analytics.people values (10, 'in block', 1, null)");
    await bob.query("insert into analytics.people values (11, 'in block', 2, null)");
    await bob.query('rollback');
    const after = await state('analytics.people');
    expect(after.currentSnapshotId).toBe(before.currentSnapshotId);
    expect(after.rows).toEqual(before.rows);
    await bob.query('begin');
    await bob.query("insert into analytics.people values (12, 'kept', 3, null)");
    await bob.query("insert into analytics.people values (13, 'kept', 4, null)");
    expect((await bob.query('commit')).command).toBe('COMMIT');
    const committed = await state('analytics.people');
    expect(committed.rows.map((row) => Number(row[0])).sort((a, b) => a - b)).toEqual([1, 2, 12, 13]);
    // the block's two inserts reached the catalog as one commit: one new metadata file
    const metadataFiles = (t: { files: string[] }) => t.files.filter((f) => f.endsWith('.metadata.json')).length;
    expect(metadataFiles(committed)).toBe(metadataFiles(before) + 1);
  });

  test("ROLLBACK takes back a block's definitions too: a created table, a rename, a comment, a view, the data committed before them", async () => {
    const bob = await as('bob');
    const before = await state('analytics.people');
    await bob.query('begin');
    await bob.query("insert into analytics.people values (20, 'before the DDL', 1, null)");
    await bob.query('create table analytics.made_in_block (id integer)');
    await bob.query('insert into analytics.made_in_block values (1)');
    await bob.query('alter table analytics.people rename to people_renamed');
    await bob.query("comment on table analytics.people_renamed is 'in a block'");
    await bob.query('create view analytics.block_view as select 1 as one');
    // inside the block the session sees its definitions
    expect(await text(bob, 'select count(*) from analytics.made_in_block')).toEqual([['1']]);
    expect((await bob.query('rollback')).command).toBe('ROLLBACK');
    for (const gone of ['analytics.made_in_block', 'analytics.people_renamed', 'analytics.block_view']) {
      expect([gone, (await rejection(bob.query(`select * from ${gone}`))).code]).toEqual([gone, '42P01']);
    }
    const after = await state('analytics.people');
    expect(after.rows).toEqual(before.rows);
    expect(after.properties['comment']).toBeUndefined();
    expect(await text(bob, "select obj_description('analytics.people'::regclass)")).toEqual([[null]]);
  });

  test('two sessions appending at once lose nothing: every acknowledged batch is read back', async () => {
    const one = await as('bob');
    const two = await as('bob');
    await one.query('create table analytics.appends (session integer, batch integer)');
    const acknowledged: string[] = [];
    const appendAll = async (c: pg.Client, session: number) => {
      for (let batch = 0; batch < 8; batch++) {
        for (;;) {
          try {
            await c.query(`insert into analytics.appends values (${session}, ${batch})`);
            acknowledged.push(`${session}:${batch}`);
            break;
          } catch (e) {
            // a concurrent commit is PostgreSQL's serialization failure: the client runs it again
            if ((e as { code?: string }).code !== '40001') throw e;
          }
        }
      }
    };
    await Promise.all([appendAll(one, 1), appendAll(two, 2)]);
    const t = await state('analytics.appends');
    expect(t.rows.map((r) => `${String(r[0])}:${String(r[1])}`).sort()).toEqual(acknowledged.sort());
    expect(acknowledged).toHaveLength(16);
  });

  test("a temporary table is the session's own: in its information_schema, not in another's, gone after it", async () => {
    const bob = await as('bob');
    const other = await as('bob');
    await bob.query('create temporary table scratch as select id, region from sales.orders');
    expect(await text(bob, "select column_name, data_type from information_schema.columns where table_name = 'scratch' order by ordinal_position")).toEqual([
      ['id', 'integer'],
      ['region', 'text'],
    ]);
    expect(await text(bob, 'select count(*) from scratch')).toEqual([['2']]);
    expect(await text(other, "select count(*) from information_schema.columns where table_name = 'scratch'")).toEqual([['0']]);
    const e = await rejection(other.query('select * from scratch'));
    expect(e.code).toBe('42P01');
  });

  test('a cursor cannot take away the connection that holds the temporary tables (0A000), a session without them can (control)', async () => {
    const bob = await as('bob');
    await bob.query('create temporary table keep as select 1 as one');
    await bob.query('begin');
    const e = await rejection(bob.query('declare c cursor for select 1'));
    expect(e.code).toBe('0A000');
    await bob.query('rollback');
    expect(await text(bob, 'select one from keep')).toEqual([['1']]);
    const plain = await as('bob');
    await plain.query('begin');
    await plain.query('declare c cursor for select 1 as one');
    expect(await text(plain, 'fetch 1 from c')).toEqual([['1']]);
    await plain.query('commit');
  });

  test('views: CREATE VIEW, read through it, rename with ALTER TABLE as dbt does, DROP VIEW', async () => {
    const bob = await as('bob');
    expect((await bob.query('create view analytics.people_v as select id, name from analytics.people where id < 10')).command).toBe('CREATE');
    expect(await text(bob, 'select id, name from analytics.people_v order by id')).toEqual([
      ['1', 'Ada'],
      ['2', 'Alan'],
    ]);
    expect((await bob.query('alter table analytics.people_v rename to people_view')).command).toBe('ALTER');
    expect(await text(bob, 'select count(*) from analytics.people_view')).toEqual([['2']]);
    expect((await bob.query('drop view if exists analytics.people_view cascade')).command).toBe('DROP');
    expect((await rejection(bob.query('select * from analytics.people_view'))).code).toBe('42P01');
  });

  test('UPDATE, DELETE, MERGE and TRUNCATE by the engineer, read back by pyiceberg', async () => {
    const bob = await as('bob');
    await bob.query('create table analytics.dml (id integer, v text)');
    await bob.query("insert into analytics.dml values (1, 'a'), (2, 'b'), (3, 'c')");
    expect((await bob.query("update analytics.dml set v = v || '!' where id >= 2")).rowCount).toBe(2);
    expect((await bob.query('delete from analytics.dml where id = 3')).rowCount).toBe(1);
    const merged = await bob.query(
      "merge into analytics.dml as d using (select 1 as id, 'A' as v union all select 4, 'd') as s on d.id = s.id when matched then update set v = s.v when not matched then insert (id, v) values (s.id, s.v)",
    );
    expect(merged.rowCount).toBe(2);
    expect((await state('analytics.dml')).rows).toEqual([
      [1, 'A'],
      [2, 'b!'],
      [4, 'd'],
    ]);
    expect((await bob.query('truncate table analytics.dml')).command).toBe('TRUNCATE');
    expect((await state('analytics.dml')).rows).toEqual([]);
  });
});
