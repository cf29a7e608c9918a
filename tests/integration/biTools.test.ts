/**
 * Issue 22, BI tools' privilege questions: has_table_privilege / has_column_privilege /
 * has_any_column_privilege in their argument forms (a constant name, an OID, a name built by an
 * expression from pg_class / information_schema, with and without the user), asked of `lakegate demo`
 * as alice (who may read sales.orders and write nothing) and of a real PostgreSQL 15 where alice
 * holds SELECT on the same table and nothing else (tests/support/realPostgres.ts). The answers are
 * PostgreSQL's: SELECT true, INSERT / UPDATE / DELETE / TRUNCATE false on a table she may only read.
 * dave, who may not load the table, is told it does not exist, as for a missing one. bob, who may write
 * analytics under the demo's data-gate policies, is answered from them as PostgreSQL answers a role
 * holding the same grants (schema, table, column privileges, the privilege views, relacl, errors).
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import pg from 'pg';
import { startCatalogPair, type CatalogPair } from '../support/catalogPair.js';
import { connect } from '../support/clients.js';

let pair: CatalogPair;
let ours: pg.Client;
let theirs: pg.Client;

beforeAll(async () => {
  pair = await startCatalogPair();
  ({ ours, theirs } = pair);
}, 120000);

afterAll(async () => {
  await pair?.stop();
});

const rows = async (c: pg.Client, sql: string) => (await c.query({ text: sql, rowMode: 'array' })).rows;

describe('has_*_privilege answers as PostgreSQL 15 for a user who may only read the table', () => {
  test.each([
    // the write privileges of a table alice may only read (lakegate answered t before)
    "select has_table_privilege(current_user, 'sales.orders', 'delete'), has_table_privilege('sales.orders', 'insert'), has_table_privilege('sales.orders', 'UPDATE'), has_table_privilege('sales.orders', 'truncate')",
    "select has_any_column_privilege('sales.orders', 'update'), has_any_column_privilege(current_user, 'sales.orders', 'select'), has_column_privilege('sales.orders', 'id', 'insert'), has_column_privilege(current_user, 'sales.orders', 'id', 'select')",
    // a list of privileges holds if one of them does
    "select has_table_privilege('sales.orders', 'select, insert'), has_table_privilege('sales.orders', 'insert, delete')",
    // the relation as an expression: a name built from the catalog (NULL before), and an OID
    `select c.relname, has_table_privilege(current_user, concat(quote_ident(n.nspname), '.', quote_ident(c.relname)), 'SELECT'),
            has_table_privilege(current_user, '"' || n.nspname || '"."' || c.relname || '"', 'select'),
            has_table_privilege(c.oid, 'select'), has_table_privilege(current_user, c.oid, 'delete')
       from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'sales'`,
    `select table_name, has_table_privilege(current_user, table_schema || '.' || table_name, 'select'),
            has_table_privilege(current_user, table_schema || '.' || table_name, 'update')
       from information_schema.tables where table_schema = 'sales'`,
  ])('%s', async (sql) => {
    const want = await rows(theirs, sql);
    expect(want.length).toBeGreaterThan(0);
    expect(await rows(ours, sql)).toEqual(want);
  });

  test('a name built at run time of a table the user may not load is missing (dave); alice the control', async () => {
    const sql = "select has_table_privilege(current_user, 'sales' || '.' || 'orders', 'select')";
    expect(await rows(ours, sql)).toEqual([[true]]);
    const dave = await connect(pair.t, { user: 'dave', password: 'dave' });
    try {
      await expect(dave.query(sql)).rejects.toMatchObject({ code: '42P01', message: 'relation "sales.orders" does not exist' });
    } finally {
      await dave.end();
    }
  });
});

describe('has_*_privilege and the privilege views for a writer (bob), from the gates, as PostgreSQL 15 answers', () => {
  // bob (engineer) may create, write, alter and drop in analytics and only read sales (demo/ranger policy 5); on
  // PostgreSQL he holds exactly those grants on the same tables
  let bob: pg.Client;
  let bobThere: pg.Client;

  beforeAll(async () => {
    bob = await connect(pair.t, { user: 'bob', password: 'bob' });
    await bob.query('create table analytics.bi_t (id integer, v text)');
    const admin = new pg.Client({ host: pair.ref.host, port: pair.ref.port, user: 'postgres', database: 'demo' });
    await admin.connect();
    for (const sql of [
      'CREATE ROLE bob LOGIN', 'CREATE SCHEMA analytics', 'CREATE TABLE analytics.bi_t (id integer, v text)',
      'GRANT USAGE, CREATE ON SCHEMA analytics TO bob', 'GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE ON analytics.bi_t TO bob',
      'GRANT USAGE ON SCHEMA sales TO bob', 'GRANT SELECT ON sales.orders TO bob',
    ]) await admin.query(sql);
    await admin.end();
    bobThere = new pg.Client({ host: pair.ref.host, port: pair.ref.port, user: 'bob', database: 'demo' });
    await bobThere.connect();
  }, 60000);

  afterAll(async () => {
    await bob?.end();
    await bobThere?.end();
  });

  const PRIVS = ['select', 'insert', 'update', 'delete', 'truncate', 'references', 'trigger', 'select with grant option', 'INSERT, delete'];

  test.each([
    `select ${PRIVS.map((p) => `has_table_privilege('analytics.bi_t', '${p}')`).join(', ')}`,
    `select ${PRIVS.map((p) => `has_table_privilege(current_user, 'sales.orders', '${p}')`).join(', ')}`,
    `select has_column_privilege('analytics.bi_t', 'v', 'update'), has_column_privilege('analytics.bi_t', 'id', 'references'),
            has_any_column_privilege('analytics.bi_t', 'insert'), has_any_column_privilege('sales.orders', 'update'),
            has_column_privilege(current_user, 'sales.orders', 'amount', 'select')`,
    `select has_schema_privilege('analytics', 'create'), has_schema_privilege('analytics', 'usage'), has_schema_privilege('sales', 'create'),
            has_schema_privilege('sales', 'usage'), has_schema_privilege('pg_catalog', 'usage'), has_schema_privilege(current_user, 'analytics', 'CREATE'),
            has_database_privilege(current_database(), 'connect'), has_database_privilege(current_database(), 'temp'),
            has_database_privilege(current_database(), 'create')`,
    // as Metabase and Superset ask, one row per relation of a schema
    `select c.relname, has_table_privilege(c.oid, 'insert'), has_table_privilege(current_user, c.oid, 'update'),
            has_any_column_privilege(c.oid, 'update'), has_schema_privilege(n.oid, 'create')
       from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname in ('sales', 'analytics') and c.relkind = 'r' order by 1`,
    `select table_schema, table_name, privilege_type, is_grantable from information_schema.table_privileges
      where grantee = current_user and table_schema in ('sales', 'analytics') order by 1, 2, 3`,
    `select table_schema, table_name, column_name, privilege_type from information_schema.column_privileges
      where grantee = current_user and table_schema in ('sales', 'analytics') order by 1, 2, 3, 4`,
    // the session user's entry of each relation's ACL, without its grantor (PostgreSQL's owner is another role)
    `select c.relname, split_part(a, '/', 1) from pg_class c join pg_namespace n on n.oid = c.relnamespace, unnest(c.relacl::text[]) a
      where n.nspname in ('sales', 'analytics') and a like current_user || '=%' order by 1`,
  ])('%s', async (sql) => {
    const want = await rows(bobThere, sql);
    expect(want.length).toBeGreaterThan(0);
    expect(await rows(bob, sql)).toEqual(want);
  });

  test.each([
    "select has_table_privilege('analytics.bi_t', 'selekt')",
    "select has_column_privilege('analytics.bi_t', 'v', 'delete')",
    "select has_column_privilege('analytics.bi_t', 'nope', 'select')",
    "select has_schema_privilege('nope', 'usage')",
    "select has_table_privilege('mallory', 'analytics.bi_t', 'select')",
  ])('%s: PostgreSQL\'s SQLSTATE and message', async (sql) => {
    const fail = (c: pg.Client) => c.query(sql).then(() => null, (e: { code: string; message: string }) => ({ code: e.code, message: e.message }));
    const want = await fail(bobThere);
    expect(want).not.toBeNull();
    expect(await fail(bob)).toEqual(want);
  });
});

describe('database "postgres" (DBeaver\'s and pgAdmin\'s default) with node-postgres', () => {
  test('logs in to the default database, whose tables it reads as alice', async () => {
    const c = await connect(pair.t, { database: 'postgres' });
    try {
      expect((await c.query('select current_database() as db, count(*)::int as n from sales.orders')).rows).toEqual([{ db: 'demo', n: 2 }]);
    } finally {
      await c.end();
    }
  });
});

describe('pgcli', () => {
  // pgspecial's \df (dbcli/pgspecial, pgspecial/dbcommands.py list_functions, server_version >= 110000), as pgcli
  // sends it for `\df split_part`: 'pg_catalog.trigger'::pg_catalog.regtype was `type "trigger" does not exist`
  const DF = `
            SELECT  n.nspname as "Schema",
                    p.proname as "Name",
                    pg_catalog.pg_get_function_result(p.oid)
                      as "Result data type",
                    pg_catalog.pg_get_function_arguments(p.oid)
                      as "Argument data types",
                     CASE
                        WHEN p.prokind = 'a' THEN 'agg'
                        WHEN p.prokind = 'w' THEN 'window'
                        WHEN p.prorettype = 'pg_catalog.trigger'::pg_catalog.regtype
                            THEN 'trigger'
                        ELSE 'normal'
                    END as "Type" 
            FROM    pg_catalog.pg_proc p
                    LEFT JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
                            
            WHERE   pg_catalog.pg_function_is_visible(p.oid)  AND p.proname ~ $1  ORDER BY 1, 2, 4`;

  test('\\df split_part answers as PostgreSQL 15', async () => {
    const run = async (c: pg.Client) => (await c.query({ text: DF, values: ['^(split_part)$'], rowMode: 'array' })).rows;
    const want = await run(theirs);
    expect(want).toEqual([['pg_catalog', 'split_part', 'text', 'text, text, integer', 'normal']]);
    expect(await run(ours)).toEqual(want);
  });

  test('the pseudo-types by name, as regtype prints them', async () => {
    const sql = "select 'trigger'::regtype::text, 'pg_catalog.void'::pg_catalog.regtype::text, 'trigger'::regtype::oid::int8 as t";
    expect(await rows(ours, sql)).toEqual(await rows(theirs, sql));
  });
});

describe('pgcli\'s completion queries (dbcli/pgcli, pgcli/pgexecute.py, server_version >= 110000)', () => {
  // pgcli sends these on connect to fill its completer; `%s` is the relkind list it mogrifies in. Each must answer,
  // and answer PostgreSQL's rows for what both catalogs hold (the user's schema; PostgreSQL's own catalog is larger).
  const RELKINDS = "ARRAY['r','p','f']";
  const SEARCH_PATH = 'SELECT * FROM unnest(current_schemas(true))';
  const SCHEMATA = 'SELECT  nspname FROM    pg_catalog.pg_namespace ORDER BY 1 ';
  const TABLES = `SELECT  n.nspname schema_name, c.relname table_name FROM    pg_catalog.pg_class c LEFT JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE   c.relkind = ANY(${RELKINDS}) ORDER BY 1,2;`;
  const COLUMNS = `
                SELECT  nsp.nspname schema_name,
                        cls.relname table_name,
                        att.attname column_name,
                        att.atttypid::regtype::text type_name,
                        att.atthasdef AS has_default,
                        pg_catalog.pg_get_expr(def.adbin, def.adrelid, true) as default
                FROM    pg_catalog.pg_attribute att
                        INNER JOIN pg_catalog.pg_class cls
                            ON att.attrelid = cls.oid
                        INNER JOIN pg_catalog.pg_namespace nsp
                            ON cls.relnamespace = nsp.oid
                        LEFT OUTER JOIN pg_attrdef def
                            ON def.adrelid = att.attrelid
                            AND def.adnum = att.attnum
                WHERE   cls.relkind = ANY(${RELKINDS})
                        AND NOT att.attisdropped
                        AND att.attnum  > 0
                ORDER BY 1, 2, att.attnum`;
  const DATATYPES = `
                    SELECT n.nspname schema_name,
                           t.typname type_name
                    FROM   pg_catalog.pg_type t
                           INNER JOIN pg_catalog.pg_namespace n
                              ON n.oid = t.typnamespace
                    WHERE ( t.typrelid = 0  -- non-composite types
                            OR (  -- composite type, but not a table
                                  SELECT c.relkind = 'c'
                                  FROM pg_catalog.pg_class c
                                  WHERE c.oid = t.typrelid
                                )
                          )
                          AND NOT EXISTS( -- ignore array types
                                SELECT  1
                                FROM    pg_catalog.pg_type el
                                WHERE   el.oid = t.typelem AND el.typarray = t.oid
                              )
                          AND n.nspname <> 'pg_catalog'
                          AND n.nspname <> 'information_schema'
                    ORDER BY 1, 2;`;
  const FOREIGN_KEYS = `
                SELECT s_p.nspname AS parentschema,
                       t_p.relname AS parenttable,
                       unnest((
                        select
                            array_agg(attname ORDER BY i)
                        from
                            (select unnest(confkey) as attnum, generate_subscripts(confkey, 1) as i) x
                            JOIN pg_catalog.pg_attribute c USING(attnum)
                            WHERE c.attrelid = fk.confrelid
                        )) AS parentcolumn,
                       s_c.nspname AS childschema,
                       t_c.relname AS childtable,
                       unnest((
                        select
                            array_agg(attname ORDER BY i)
                        from
                            (select unnest(conkey) as attnum, generate_subscripts(conkey, 1) as i) x
                            JOIN pg_catalog.pg_attribute c USING(attnum)
                            WHERE c.attrelid = fk.conrelid
                        )) AS childcolumn
                FROM pg_catalog.pg_constraint fk
                JOIN pg_catalog.pg_class      t_p ON t_p.oid = fk.confrelid
                JOIN pg_catalog.pg_namespace  s_p ON s_p.oid = t_p.relnamespace
                JOIN pg_catalog.pg_class      t_c ON t_c.oid = fk.conrelid
                JOIN pg_catalog.pg_namespace  s_c ON s_c.oid = t_c.relnamespace
                WHERE fk.contype = 'f';
                `;
  const DATABASES = 'SELECT d.datname FROM pg_catalog.pg_database d ORDER BY 1';
  const FUNCTIONS = `
                SELECT n.nspname schema_name,
                        p.proname func_name,
                        p.proargnames,
                        COALESCE(proallargtypes::regtype[], proargtypes::regtype[])::text[],
                        p.proargmodes,
                        prorettype::regtype::text return_type,
                        p.prokind = 'a' is_aggregate,
                        p.prokind = 'w' is_window,
                        p.proretset is_set_returning,
                        d.deptype = 'e' is_extension,
                        pg_get_expr(proargdefaults, 0) AS arg_defaults
                FROM pg_catalog.pg_proc p
                        INNER JOIN pg_catalog.pg_namespace n
                            ON n.oid = p.pronamespace
                LEFT JOIN pg_depend d ON d.objid = p.oid and d.deptype = 'e'
                WHERE p.prorettype::regtype != 'trigger'::regtype
                ORDER BY 1, 2
                `;
  const userRows = (rs: unknown[][]) => rs.filter((r) => r[0] === 'sales');

  test.each([
    ['search path', SEARCH_PATH, (rs: unknown[][]) => rs],
    ['schemata', SCHEMATA, (rs: unknown[][]) => rs.filter((r) => r[0] === 'sales' || r[0] === 'public' || r[0] === 'pg_catalog' || r[0] === 'information_schema')],
    ['tables', TABLES, userRows],
    ['columns', COLUMNS, userRows],
    ['datatypes', DATATYPES, (rs: unknown[][]) => rs],
    ['foreign keys', FOREIGN_KEYS, (rs: unknown[][]) => rs],
  ])('%s: the same columns and types, and PostgreSQL\'s rows for the user\'s schema', async (_name, sql, mine) => {
    const want = await theirs.query({ text: sql, rowMode: 'array' });
    const got = await ours.query({ text: sql, rowMode: 'array' });
    expect(got.fields.map((f) => [f.name, f.dataTypeID])).toEqual(want.fields.map((f) => [f.name, f.dataTypeID]));
    expect(mine(got.rows)).toEqual(mine(want.rows));
  });

  test('functions (proargtypes::regtype[] was `type "regtype" does not exist`): PostgreSQL\'s rows for every function lakegate lists', async () => {
    const want = await theirs.query({ text: FUNCTIONS, rowMode: 'array' });
    const got = await ours.query({ text: FUNCTIONS, rowMode: 'array' });
    expect(got.fields.map((f) => [f.name, f.dataTypeID])).toEqual(want.fields.map((f) => [f.name, f.dataTypeID]));
    const listed = new Set(got.rows.map((r) => `${r[0]}.${r[1]}`));
    expect(listed.size).toBeGreaterThan(100);
    const sorted = (rs: unknown[][]) => rs.map((r) => JSON.stringify(r)).sort();
    expect(sorted(got.rows)).toEqual(sorted(want.rows.filter((r) => listed.has(`${r[0]}.${r[1]}`))));
  });

  test('databases: the one database lakegate serves (deliberate difference: one database per process)', async () => {
    const want = await theirs.query({ text: DATABASES, rowMode: 'array' });
    const got = await ours.query({ text: DATABASES, rowMode: 'array' });
    expect(got.fields.map((f) => [f.name, f.dataTypeID])).toEqual(want.fields.map((f) => [f.name, f.dataTypeID]));
    expect(got.rows).toEqual([['demo']]);
    expect(want.rows).toContainEqual(['demo']);
  });
});

describe('information_schema constraint views BI tools read', () => {
  test.each([
    "select constraint_name, table_schema, table_name, constraint_type from information_schema.table_constraints where table_schema = 'sales'",
    "select * from information_schema.key_column_usage where table_schema = 'sales'",
    "select * from information_schema.referential_constraints where constraint_schema = 'sales'",
  ])('%s: the same (no keys; no NOT NULL columns in the table)', async (sql) => {
    const want = await theirs.query({ text: sql, rowMode: 'array' });
    const got = await ours.query({ text: sql, rowMode: 'array' });
    expect(got.fields.map((f) => [f.name, f.dataTypeID])).toEqual(want.fields.map((f) => [f.name, f.dataTypeID]));
    expect(got.rows).toEqual(want.rows);
  });
});

describe('table statistics views (DBeaver\'s and pgAdmin\'s table properties)', () => {
  // PostgreSQL's values for a table nobody has scanned or written since it was created; the counters that move when
  // alice reads the table (seq_scan, seq_tup_read, heap_blks_*) are compared by type only, and toast_* are left out:
  // PostgreSQL gives a table with text columns a TOAST table, an Iceberg table has none (NULL in lakegate).
  test.each([
    ['pg_stat_user_tables', 'schemaname, relname, idx_scan, idx_tup_fetch, n_tup_ins, n_tup_upd, n_tup_del, n_tup_hot_upd, n_live_tup, n_dead_tup, n_mod_since_analyze, n_ins_since_vacuum, last_vacuum, last_autovacuum, last_analyze, last_autoanalyze, vacuum_count, autovacuum_count, analyze_count, autoanalyze_count'],
    ['pg_stat_all_tables', "schemaname, relname, idx_scan, n_live_tup, last_analyze, analyze_count"],
    ['pg_statio_user_tables', 'schemaname, relname, idx_blks_read, idx_blks_hit'],
    ['pg_statio_all_tables', 'schemaname, relname, idx_blks_read, idx_blks_hit'],
  ])('%s: PostgreSQL 15\'s columns and wire types; one row per table the user may load', async (view, cols) => {
    const shape = `select * from pg_catalog.${view} limit 0`;
    const want = await theirs.query({ text: shape, rowMode: 'array' });
    const got = await ours.query({ text: shape, rowMode: 'array' });
    expect(got.fields.map((f) => [f.name, f.dataTypeID])).toEqual(want.fields.map((f) => [f.name, f.dataTypeID]));
    const sql = `select ${cols} from ${view} where schemaname = 'sales' order by relname`;
    const wantRows = await rows(theirs, sql);
    expect(wantRows.length).toBe(1);
    expect(await rows(ours, sql)).toEqual(wantRows);
    // the relid is the table's pg_class oid, as has_table_privilege and \d find it
    const joined = `select s.relname from ${view} s join pg_class c on c.oid = s.relid where s.schemaname = 'sales'`;
    expect(await rows(ours, joined)).toEqual([['orders']]);
  });

  test('the user tables are exactly those pg_class shows the user: none for dave, who may not load sales.orders', async () => {
    const sql = "select (select count(*) from pg_stat_user_tables where schemaname = 'sales')::int, (select count(*) from pg_statio_user_tables where schemaname = 'sales')::int";
    expect(await rows(ours, sql)).toEqual([[1, 1]]);
    const dave = await connect(pair.t, { user: 'dave', password: 'dave' });
    try {
      expect((await dave.query({ text: sql, rowMode: 'array' })).rows).toEqual([[0, 0]]);
      const all = await dave.query({ text: 'select count(*)::int from pg_stat_user_tables', rowMode: 'array' });
      const cls = await dave.query({ text: "select count(*)::int from pg_class c join pg_namespace n on n.oid = c.relnamespace where c.relkind = 'r' and n.nspname not in ('pg_catalog', 'information_schema')", rowMode: 'array' });
      expect(all.rows).toEqual(cls.rows);
    } finally {
      await dave.end();
    }
  });
});

describe('information_schema privilege and routine views', () => {
  const shape = async (c: pg.Client, view: string) =>
    (await c.query({ text: `select * from information_schema.${view} limit 0`, rowMode: 'array' })).fields.map((f) => [f.name, f.dataTypeID]);

  test.each(['table_privileges', 'column_privileges', 'routines', 'parameters'])('%s: PostgreSQL 15\'s columns and wire types', async (view) => {
    expect(await shape(ours, view)).toEqual(await shape(theirs, view));
  });

  test.each([
    "select grantee, table_catalog, table_schema, table_name, privilege_type, is_grantable, with_hierarchy from information_schema.table_privileges where table_schema = 'sales'",
    "select grantee, table_catalog, table_schema, table_name, column_name, privilege_type, is_grantable from information_schema.column_privileges where table_schema = 'sales' order by column_name",
    // the grantor is the table's owner, as pg_tables names it
    "select count(*) from information_schema.table_privileges p join pg_tables t on t.schemaname = p.table_schema and t.tablename = p.table_name and t.tableowner = p.grantor where p.table_schema = 'sales'",
    "select count(*) from information_schema.column_privileges p join pg_tables t on t.schemaname = p.table_schema and t.tablename = p.table_name and t.tableowner = p.grantor where p.table_schema = 'sales'",
  ])('%s: SELECT and nothing else, as PostgreSQL 15 shows alice', async (sql) => {
    const want = await rows(theirs, sql);
    expect(want.length).toBeGreaterThan(0);
    expect(await rows(ours, sql)).toEqual(want);
  });

  test.each([
    "select * from information_schema.routines where routine_schema = 'sales'",
    "select * from information_schema.parameters where specific_schema = 'sales'",
  ])('%s: no user-defined routines, as in PostgreSQL', async (sql) => {
    expect(await rows(ours, sql)).toEqual(await rows(theirs, sql));
  });

  test('routines: the allowlisted built-ins as PostgreSQL 15 lists them (functions, aggregates, set-returning, arrays)', async () => {
    const sql = `select * from information_schema.routines
      where routine_schema = 'pg_catalog' and routine_name in ('split_part', 'upper', 'now', 'abs', 'avg', 'array_agg', 'generate_series', 'string_to_array', 'unnest', 'lag', 'json_agg', 'count')
      order by specific_name`;
    const want = await rows(theirs, sql);
    expect(want.length).toBeGreaterThan(10);
    expect(await rows(ours, sql)).toEqual(want);
  });

  test('parameters: the allowlisted built-ins\' arguments as PostgreSQL 15 lists them (IN, OUT, named, pseudo-types)', async () => {
    const sql = `select p.* from information_schema.parameters p join information_schema.routines r using (specific_name)
      where r.routine_schema = 'pg_catalog' and r.routine_name in ('split_part', 'generate_series', 'json_each', 'array_agg', 'lag', 'now', 'string_to_array')
      order by p.specific_name, p.ordinal_position`;
    const want = await rows(theirs, sql);
    expect(want.length).toBeGreaterThan(10);
    expect(await rows(ours, sql)).toEqual(want);
  });

  test('routines: a function lakegate refuses is not listed (PostgreSQL lists it)', async () => {
    const sql = "select count(*)::int from information_schema.routines where routine_name = 'pg_notify'";
    expect((await rows(theirs, sql))[0]![0]).toBeGreaterThan(0);
    expect(await rows(ours, sql)).toEqual([[0]]);
    // the control: a function it allows is there
    expect(await rows(ours, "select count(*)::int from information_schema.routines where routine_name = 'split_part'")).toEqual([[1]]);
  });

  test('dave, who may not load sales.orders, is granted nothing on it; alice the control', async () => {
    const sql = "select (select count(*) from information_schema.table_privileges where table_schema = 'sales')::int, (select count(*) from information_schema.column_privileges where table_schema = 'sales')::int";
    expect(await rows(ours, sql)).toEqual([[1, 4]]);
    const dave = await connect(pair.t, { user: 'dave', password: 'dave' });
    try {
      expect((await dave.query({ text: sql, rowMode: 'array' })).rows).toEqual([[0, 0]]);
    } finally {
      await dave.end();
    }
  });
});
