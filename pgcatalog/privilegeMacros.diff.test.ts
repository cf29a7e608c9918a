/**
 * Differential test of the privilege functions and views: the emulation, filled with the ACLs the gates
 * decide (a table's privileges, and SELECT on the readable columns of a table some of whose columns
 * are restricted), answers as a real PostgreSQL 15 where alice holds the same grants — column grants
 * for the partly readable table, as PostgreSQL has them. Which ACLs the gates decide is proven in
 * policy/rewrite/privileges.test.ts; this proves what the catalog makes of them.
 */
import pg from 'pg';
import { startEngineBesidePostgres, type DemoEngine, type EngineBesidePostgres } from '../tests/support/demoEngine.js';
import { installUserCatalog, type TableVisibility } from './pgCatalog.js';
import type { RelationAcl } from './pgCatalogTables.js';

let pair: EngineBesidePostgres;
let client: pg.Client;
let engine: DemoEngine;

const norm = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

/** alice's catalog as the gates would leave it: `acl` on sales.orders. */
async function grant(acl: RelationAcl): Promise<void> {
  const visibility: TableVisibility = { keys: [acl], visible: () => true, privileges: () => acl, schemaCreate: () => false };
  await installUserCatalog(engine.conn, engine.catalog, {}, { user: 'alice', roles: [], groups: [] }, visibility);
}

async function both(sql: string): Promise<[unknown, unknown]> {
  const want = (await client.query({ text: sql, rowMode: 'array' })).rows.map((r: unknown[]) => r.map(norm));
  const got = (await engine.query(sql, ['public'])).rows;
  return [want, got];
}

async function bothError(sql: string): Promise<[unknown, unknown]> {
  const want = await client.query(sql).then(() => 'no error', (e: { code: string; message: string }) => ({ code: e.code, message: e.message }));
  const got = await engine.query(sql, ['public']).then(() => 'no error', (e: Error) => e.message);
  return [want, got];
}

const QUERIES = [
  `select has_table_privilege('alice', 'sales.orders', 'select'), has_table_privilege('alice', 'sales.orders', 'insert'),
          has_table_privilege('alice', 'sales.orders', 'update, delete'), has_table_privilege('alice', 'sales.orders', 'SELECT WITH GRANT OPTION'),
          has_any_column_privilege('alice', 'sales.orders', 'select'), has_any_column_privilege('alice', 'sales.orders', 'update')`,
  `select attname, has_column_privilege('alice', 'sales.orders', attname, 'select'), has_column_privilege('alice', 'sales.orders', attname, 'insert'),
          has_column_privilege('alice', 'sales.orders', attname, 'update'), has_column_privilege('alice', 'sales.orders', attname, 'references')
     from pg_attribute where attrelid = 'sales.orders'::regclass and attnum > 0 order by attnum`,
  `select table_name, column_name, privilege_type, is_grantable from information_schema.column_privileges
     where grantee = 'alice' and table_schema = 'sales' order by 1, 2, 3`,
  `select table_name, privilege_type, is_grantable from information_schema.table_privileges
     where grantee = 'alice' and table_schema = 'sales' order by 1, 2`,
  `select attname, attacl is null, split_part(attacl[1]::text, '/', 1) from pg_attribute
     where attrelid = 'sales.orders'::regclass and attnum > 0 order by attnum`,
  `select has_schema_privilege('alice', 'sales', 'usage'), has_schema_privilege('alice', 'sales', 'create'),
          has_schema_privilege('alice', 'pg_catalog', 'USAGE'), has_schema_privilege('alice', 'information_schema', 'create')`,
  `select has_table_privilege('alice', 'pg_catalog.pg_class', 'select'), has_table_privilege('alice', 'pg_catalog.pg_class', 'insert'),
          has_column_privilege('alice', 'pg_catalog.pg_class', 'relname', 'select')`,
];

const ERRORS = [
  "select has_table_privilege('alice', 'sales.orders', 'selekt')",
  "select has_table_privilege('alice', 'sales.orders', 'select, foo')",
  "select has_column_privilege('alice', 'sales.orders', 'id', 'delete')",
  "select has_column_privilege('alice', 'sales.orders', 'nope', 'select')",
  "select has_schema_privilege('alice', 'nope', 'usage')",
  "select has_schema_privilege('alice', 'sales', 'select')",
  "select has_table_privilege('mallory', 'sales.orders', 'select')",
];

beforeAll(async () => {
  pair = await startEngineBesidePostgres(['alice']);
  ({ client, engine } = pair);
  await client.query('GRANT USAGE ON SCHEMA sales TO alice');
}, 120000);

afterAll(async () => {
  await pair?.stop();
});

describe.each([
  ['SELECT on the table (every column readable)', 'GRANT SELECT ON sales.orders TO alice', { table: 'r', columns: null }],
  ['SELECT, INSERT, UPDATE, DELETE, TRUNCATE (a writer who sees the table as stored)', 'GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE ON sales.orders TO alice', { table: 'arwdD', columns: null }],
  ['SELECT on two columns only (the others restricted)', 'GRANT SELECT (id, region) ON sales.orders TO alice', { table: '', columns: new Set(['id', 'region']) }],
  ['INSERT on the table and SELECT on two columns (a writer with restricted columns)', 'GRANT INSERT ON sales.orders TO alice; GRANT SELECT (id, region) ON sales.orders TO alice', { table: 'a', columns: new Set(['id', 'region']) }],
] as const)('%s', (_name, grants, acl) => {
  beforeAll(async () => {
    await client.query('REVOKE ALL ON sales.orders FROM alice');
    await client.query('REVOKE ALL (id, ssn, amount, region) ON sales.orders FROM alice');
    for (const g of grants.split('; ')) await client.query(g);
    await grant(acl);
  });

  it.each(QUERIES)('%s', async (sql) => {
    const [want, got] = await both(sql);
    // a table-level grant list is empty where only column grants exist; every other answer has rows
    if (!sql.includes('table_privileges')) expect((want as unknown[]).length).toBeGreaterThan(0);
    expect(got).toEqual(want);
  });

  it.each(ERRORS)('%s: PostgreSQL\'s error', async (sql) => {
    const [want, got] = await bothError(sql);
    expect(want).not.toBe('no error');
    expect(got).toContain((want as { message: string }).message);
  });
});
