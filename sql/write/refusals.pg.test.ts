/**
 * The write planner's refusals and NOTICEs against a real PostgreSQL 15: the
 * same statement on the same relations (analytics.t, the views analytics.v
 * with GROUP BY and analytics.sv over t), sent to PostgreSQL as the same
 * role, must fail with PostgreSQL's SQLSTATE and message (and its DETAIL and
 * HINT where lakegate says PostgreSQL's), or skip with its NOTICE. `owner`
 * owns the relations in PostgreSQL and holds every hive access type in
 * lakegate; `reader` may only read — its refusals are PostgreSQL's wording of
 * a missing privilege, and the same statements by `owner` are their control.
 */
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import pg from 'pg';
import { duckSql } from '../../tests/support/demoEngine.js';
import { loadDuckDbCatalog, type Catalog } from '../../catalog/catalog.js';
import { PolicyEngine } from '../../policy/ranger/engine.js';
import { parseRangerRoles, parseServicePolicies } from '../../policy/ranger/model.js';
import { RoleStore } from '../../policy/ranger/roles.js';
import { demoDuckDb } from '../../tests/support/dataGate.js';
import { P, rangerRoles, servicePolicies } from '../../tests/support/rangerPolicies.js';
import { startPostgres, type RealPostgres } from '../../tests/support/realPostgres.js';
import { planWriteAs, withViews, writeRefusal } from '../../tests/support/writePlanning.js';
import { noticeCode } from './notices.js';

let server: RealPostgres;
const clients: Record<string, pg.Client> = {};
let instance: DuckDBInstance;
let duck: DuckDBConnection;
let catalog: Catalog;

const ALL = ['select', 'update', 'create', 'drop', 'alter'];
const engine = new PolicyEngine(
  parseServicePolicies(
    servicePolicies('lakehouse', [
      P.allow('owner does everything', '*', '*', '*', { users: ['owner'] }, { accesses: ALL }),
      P.allow('reader reads analytics', 'analytics', '*', '*', { users: ['reader'] }),
    ]),
    'test',
  ),
  { roles: new RoleStore(parseRangerRoles(rangerRoles('lakehouse', {}), 'test')) },
);

beforeAll(async () => {
  server = await startPostgres();
  const admin = new pg.Client({ host: server.host, port: server.port, user: 'postgres', database: 'postgres' });
  await admin.connect();
  await admin.query('create database demo');
  await admin.end();
  const setup = new pg.Client({ host: server.host, port: server.port, user: 'postgres', database: 'demo' });
  await setup.connect();
  for (const sql of [
    'create role owner login',
    'create role reader login',
    'grant create on database demo to owner',
    'create schema analytics authorization owner',
    'set role owner',
    'create table analytics.t (id int, v text)',
    'create view analytics.v as select id, count(*) as c from analytics.t group by id',
    'create view analytics.sv as select id, v from analytics.t',
    'grant usage on schema analytics to reader',
    'grant select on all tables in schema analytics to reader',
  ]) {
    await setup.query(sql);
  }
  await setup.end();
  for (const user of ['owner', 'reader']) {
    clients[user] = new pg.Client({ host: server.host, port: server.port, user, database: 'demo' });
    await clients[user]!.connect();
    await clients[user]!.query('set search_path = analytics, public');
  }
  ({ instance, conn: duck } = await demoDuckDb());
  await duck.run('CREATE SCHEMA demo.analytics');
  await duck.run('CREATE TABLE demo.analytics.t (id INTEGER, v VARCHAR)');
  catalog = withViews(await loadDuckDbCatalog(duckSql(duck), 'demo'), [
    { schema: 'analytics', name: 'v', sql: 'select id, count(*) as c from analytics.t group by id', columns: ['id', 'c'] },
    { schema: 'analytics', name: 'sv', sql: 'select id, v from analytics.t', columns: ['id', 'v'] },
  ]);
}, 120_000);

afterAll(async () => {
  for (const c of Object.values(clients)) await c.end().catch(() => undefined);
  await server?.stop();
  duck?.closeSync();
  instance?.closeSync();
});

interface Answer {
  code: string;
  message: string;
  detail?: string;
  hint?: string;
}

/** PostgreSQL's error for the statement, inside a transaction rolled back (nothing it might do stays). */
async function postgres(user: string, sql: string, searchPath = 'analytics, public'): Promise<Answer> {
  const c = clients[user]!;
  await c.query('begin');
  try {
    await c.query(`set local search_path = ${searchPath}`);
    await c.query(sql);
  } catch (e) {
    const err = e as pg.DatabaseError;
    return { code: err.code!, message: err.message, ...(err.detail ? { detail: err.detail } : {}), ...(err.hint ? { hint: err.hint } : {}) };
  } finally {
    await c.query('rollback');
  }
  throw new Error(`PostgreSQL ran ${sql} as ${user}`);
}

function lakegate(user: string, sql: string, searchPath = ['analytics', 'public']): Answer {
  const e = writeRefusal(catalog, sql, user, { engine, searchPath });
  return { code: e.code, message: e.message, ...(e.detail ? { detail: e.detail } : {}), ...(e.hint ? { hint: e.hint } : {}) };
}

/** Code and message as PostgreSQL's. */
const sameError = async (user: string, sql: string) => {
  const theirs = await postgres(user, sql);
  expect(lakegate(user, sql)).toMatchObject({ code: theirs.code, message: theirs.message });
};

/** Code, message, DETAIL and HINT as PostgreSQL's. */
const sameWords = async (user: string, sql: string) => {
  const theirs = await postgres(user, sql);
  const ours = lakegate(user, sql);
  expect([ours.code, ours.message, ours.detail, ours.hint]).toEqual([theirs.code, theirs.message, theirs.detail, theirs.hint]);
};

describe("statements PostgreSQL refuses, refused in PostgreSQL's words", () => {
  test.each([
    'insert into analytics.t values (1, \'a\', 3)',
    "insert into analytics.t (id) values (1, 'a')",
    'insert into analytics.t (id, v) values (1)',
    'insert into analytics.t (nope) values (1)',
    'insert into analytics.t (id, id) values (1, 2)',
    "insert into analytics.t values (1, 'a') on conflict (id) do nothing",
    'insert into other.analytics.t values (1)',
    'update analytics.t set nope = 1',
    'update analytics.t set id = 1, id = 2',
    'insert into analytics.v values (1, 2)',
    'update analytics.v set id = 1',
    'delete from analytics.v',
    'create table analytics.t (id int)',
    'create table other.analytics.z (id int)',
    'create temporary table analytics.tt (id int)',
    'create table analytics.c4 (x, y) as select 1 as a',
    'create table analytics.c5 as select 1 as a, 2 as a',
    'create view analytics.t as select 1',
    'create view analytics.v2 (a, b, c) as select 1, 2',
    'create or replace view analytics.sv as select id from analytics.t',
    'create or replace view analytics.t as select 1',
    'drop table analytics.nope',
    'drop table analytics.t, analytics.nope',
    'drop view analytics.nope',
    'drop schema nope',
    'drop schema pg_catalog',
    'create schema analytics',
    'alter table analytics.nope rename to x',
    'alter table analytics.t rename to sv',
    'alter view analytics.t rename to t9',
    'alter table analytics.t add column v text',
    'alter table analytics.t drop column nope',
    'alter table analytics.t rename column nope to x',
    'alter table analytics.t rename column id to v',
    'alter table analytics.t alter column nope type bigint',
    "comment on table analytics.nope is 'x'",
    "comment on column analytics.t.nope is 'x'",
    "comment on view analytics.t is 'x'",
    "comment on table analytics.sv is 'x'",
    'truncate analytics.sv',
  ])('%s', async (sql) => {
    await sameError('owner', sql);
  });

  test.each([
    'drop table analytics.sv',
    'drop view analytics.t',
    'merge into analytics.v as d using analytics.t s on d.id = s.id when matched then delete',
    'insert into information_schema.tables values (1)',
    'delete from information_schema.columns',
    'create schema pg_foo',
    'create or replace view analytics.sv as select id as x, v from analytics.t',
  ])('%s (DETAIL and HINT too)', async (sql) => {
    await sameWords('owner', sql);
  });

  test('drop schema of a schema with tables and views: 2BP01 naming each, with the hint', async () => {
    const theirs = await postgres('owner', 'drop schema analytics');
    const ours = lakegate('owner', 'drop schema analytics');
    expect([ours.code, ours.message, ours.hint]).toEqual([theirs.code, theirs.message, theirs.hint]);
    expect(ours.detail!.split('\n').sort()).toEqual(theirs.detail!.split('\n').sort());
  });

  test('no schema to create in: 3F000', async () => {
    const theirs = await postgres('owner', 'create table z (id int)', 'nope');
    expect(lakegate('owner', 'create table z (id int)', ['nope'])).toMatchObject({ code: theirs.code, message: theirs.message });
  });

  test('writes to the system catalogs', async () => {
    await sameError('owner', 'insert into pg_catalog.pg_class (oid) values (1)');
    await sameError('owner', 'update pg_catalog.pg_class set relname = relname');
    await sameError('owner', 'truncate pg_catalog.pg_class');
    await sameError('owner', 'create table pg_catalog.x (id int)');
    await sameError('owner', 'create table information_schema.x (id int)');
    await sameError('owner', 'drop table pg_catalog.pg_class');
    await sameError('owner', 'alter table pg_catalog.pg_class rename to x');
  });
});

describe("a user without the privilege: PostgreSQL's words for it (owner, who has it, is the control)", () => {
  test.each([
    ["insert into analytics.t values (1, 'a')", 'permission denied for table t'],
    ["update analytics.t set v = 'b'", 'permission denied for table t'],
    ['delete from analytics.t', 'permission denied for table t'],
    ['truncate analytics.t', 'permission denied for table t'],
    ['drop table analytics.t', 'must be owner of table t'],
    ['alter table analytics.t add column z int', 'must be owner of table t'],
    ['alter table analytics.t rename to t2', 'must be owner of table t'],
    ["comment on table analytics.t is 'x'", 'must be owner of table t'],
    ['create table analytics.n (id int)', 'permission denied for schema analytics'],
    ['create view analytics.nv as select 1', 'permission denied for schema analytics'],
    ['drop schema analytics', 'must be owner of schema analytics'],
    ['create schema s2', 'permission denied for database demo'],
  ])('%s', async (sql, words) => {
    const theirs = await postgres('reader', sql);
    expect([theirs.code, theirs.message]).toEqual(['42501', words]);
    expect(lakegate('reader', sql)).toMatchObject({ code: '42501', message: words });
    // the control: the same statement planned for a user the policies allow
    expect(() => planWriteAs(catalog, sql.replace('drop schema analytics', 'drop schema analytics cascade'), 'owner', { engine, searchPath: ['analytics', 'public'] })).not.toThrow();
  });
});

describe("IF [NOT] EXISTS skips with PostgreSQL's NOTICE and its SQLSTATE", () => {
  test.each([
    'create table if not exists analytics.t (id int)',
    'create table if not exists analytics.t as select 1',
    'create schema if not exists analytics',
    'drop table if exists analytics.nope',
    'drop table if exists analytics.nope, analytics.nope2',
    'drop view if exists analytics.nope',
    'drop schema if exists nope',
    'alter table if exists analytics.nope rename to x',
    'alter table if exists analytics.nope add column z int',
    'alter table analytics.t add column if not exists v text',
    'alter table analytics.t drop column if exists nope',
  ])('%s', async (sql) => {
    const c = clients['owner']!;
    const notices: { code: string; message: string }[] = [];
    const listen = (n: { code?: string; message?: string }) => notices.push({ code: n.code!, message: n.message! });
    c.on('notice', listen);
    try {
      await c.query('begin');
      await c.query(sql);
      await c.query('rollback');
    } finally {
      c.off('notice', listen);
    }
    const plan = planWriteAs(catalog, sql, 'owner', { engine, searchPath: ['analytics', 'public'] });
    expect(plan.kind).toBe('catalog');
    const ours = plan.kind === 'catalog' ? (plan.notices ?? [plan.notice!]) : [];
    expect(ours.map((message) => ({ code: noticeCode(message), message }))).toEqual(notices);
    expect(plan.kind === 'catalog' && plan.op.op).toBe('nothing');
  });
});
