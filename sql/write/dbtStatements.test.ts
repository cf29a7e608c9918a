/**
 * Every kind of write dbt-postgres 1.11 sends (the checklist in
 * tests/integration/dbt-writes/STATEMENTS.md, i19-dbt-project), in dbt's own
 * words — three-part names, `::date` / `::timestamp` literals, unknown-typed
 * literals into bigint / numeric / timestamp columns, dollar-quoted comments,
 * the temporary tables of incremental models and snapshots, MERGE with
 * unqualified INSERT values, UPDATE … FROM naming its target by the three-part
 * name — planned as bob (an engineer: ssn hashed, amount hidden) and, where
 * the plan is engine SQL, run on DuckDB standing for the attached catalog;
 * the rows read back are written out here from the statements' own values.
 */
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { duckSql } from '../../tests/support/demoEngine.js';
import { loadDuckDbCatalog, type Catalog } from '../../catalog/catalog.js';
import { PolicyEngine } from '../../policy/ranger/engine.js';
import { parseRangerRoles, parseServicePolicies } from '../../policy/ranger/model.js';
import { RoleStore } from '../../policy/ranger/roles.js';
import { demoDuckDb, installGateMacros } from '../../tests/support/dataGate.js';
import { P, rangerRoles, servicePolicies } from '../../tests/support/rangerPolicies.js';
import { planWriteAs, runWrite, tempTableOf, withViews } from '../../tests/support/writePlanning.js';
import type { TempTable } from './plan.js';
import type { WriteStatementPlan } from './statement.js';

let instance: DuckDBInstance;
let conn: DuckDBConnection;
let catalog: Catalog;
const temps: TempTable[] = [];
const views: { schema: string; name: string; sql: string; columns: string[] }[] = [];

const engine = new PolicyEngine(
  parseServicePolicies(
    servicePolicies('lakehouse', [
      P.allow('everyone reads sales', 'sales', '*', '*', { groups: ['public'] }),
      P.allow('engineers build analytics', 'analytics', '*', '*', { roles: ['engineer'] }, { accesses: ['select', 'update', 'create', 'drop', 'alter'] }),
      P.allow('engineers make schemas', 'staging', '*', '*', { roles: ['engineer'] }, { accesses: ['create'] }),
      P.mask('ssn', 'sales', 'orders', 'ssn', [[{ roles: ['engineer'] }, 'MASK_HASH']]),
      P.mask('amount', 'sales', 'orders', 'amount', [[{ roles: ['engineer'] }, 'MASK_NULL']]),
    ]),
    'test',
  ),
  { roles: new RoleStore(parseRangerRoles(rangerRoles('lakehouse', { engineer: ['bob'] }), 'test')) },
);

const COMMENT = '/* {"app": "dbt", "dbt_version": "1.11.16", "profile_name": "lakegate_dbt_writes", "target_name": "dev", "node_id": "model.x.y"} */\n';

async function refresh(): Promise<void> {
  catalog = withViews(await loadDuckDbCatalog(duckSql(conn), 'demo'), views);
}

/** Plan as bob (the session's temporary tables as they are now). */
const plan = (sql: string): WriteStatementPlan => planWriteAs(catalog, COMMENT + sql, 'bob', { engine, temp: [...temps], searchPath: ['"$user"', 'public'] });

/** Plan and carry out as the session would (engine and CREATE TABLE AS plans on DuckDB); the catalog is read again after. */
async function run(sql: string): Promise<{ plan: WriteStatementPlan; rows: number | null }> {
  const p = plan(sql);
  const rows = await runWrite(conn, p);
  if (p.kind === 'table-as' && p.target.kind === 'temp') temps.push(await tempTableOf(conn, p.target.name, { ...p.columnTags }));
  await refresh();
  return { plan: p, rows };
}

const read = async (sql: string) =>
  (await conn.runAndReadAll(sql)).getRows().map((r) => r.map((v) => (v === null ? null : typeof v === 'object' || typeof v === 'bigint' ? String(v) : v)));

beforeAll(async () => {
  ({ instance, conn } = await demoDuckDb());
  await conn.run('CREATE SCHEMA demo.analytics');
  await conn.run('CREATE TABLE demo.sales.orders (id INTEGER, ssn VARCHAR, amount DECIMAL(10,2), region VARCHAR)');
  await conn.run(`INSERT INTO demo.sales.orders VALUES (1, '111-11-1111', 100.00, 'EU'), (2, '222-22-2222', 250.50, 'US')`);
  await installGateMacros(conn, 'dbt-statements-mask-key');
  await refresh();
});

afterAll(() => {
  conn.closeSync();
  instance.closeSync();
});

describe('seeds', () => {
  test('create schema if not exists: a NOTICE for the existing schema, a create for a new one', () => {
    expect(plan('create schema if not exists "analytics"')).toMatchObject({ kind: 'catalog', tag: 'CREATE SCHEMA', op: { op: 'nothing' }, notice: 'schema "analytics" already exists, skipping' });
    expect(plan('create schema if not exists "staging"')).toMatchObject({ kind: 'catalog', op: { op: 'create-schema', namespace: ['staging'], ifNotExists: true } });
  });

  test('create table with inferred types, insert with typed literals, doubled quotes, NULLs', async () => {
    const created = await run(
      'create table "demo"."analytics"."customers" ("customer_id" integer,"name" text,"email" text,"signup_date" date,"tier" text,"is_active" boolean,"credit_limit" float8,"updated_at" timestamp without time zone,"first_run" integer,"last_run" integer)',
    );
    expect(created.plan).toMatchObject({ kind: 'engine', tag: 'CREATE TABLE', ddl: true });
    const insert =
      'insert into "demo"."analytics"."customers" ("customer_id", "name", "email", "signup_date", "tier", "is_active", "credit_limit", "updated_at", "first_run", "last_run") values\n' +
      "(1,'Ada Lovelace','ada@example.com','2023-01-15'::date,'gold',true,5000.00,'2024-01-01T09:00:00'::timestamp,1,2)," +
      "(6,'Donald Knuth',NULL,'2023-06-30'::date,'bronze',true,NULL,'2024-01-06T16:20:00'::timestamp,1,1)," +
      "(7,'Edsger O''Brien, Jr.','e@example.com','2023-07-01'::date,'silver',false,250.5,'2024-01-07T08:00:00'::timestamp,1,2)";
    expect((await run(insert)).rows).toBe(3);
    expect(await read('SELECT customer_id, name, email, signup_date, is_active, credit_limit, updated_at FROM demo.analytics.customers ORDER BY 1')).toEqual([
      [1, 'Ada Lovelace', 'ada@example.com', '2023-01-15', true, 5000, '2024-01-01 09:00:00'],
      [6, 'Donald Knuth', null, '2023-06-30', true, null, '2024-01-06 16:20:00'],
      [7, "Edsger O'Brien, Jr.", 'e@example.com', '2023-07-01', false, 250.5, '2024-01-07 08:00:00'],
    ]);
  });

  test('column_types seeds: unknown-typed literals into bigint, numeric and timestamp columns', async () => {
    await run('create table "demo"."analytics"."order_lines" ("order_id" bigint,"line_no" integer,"customer_id" integer,"sku" text,"quantity" integer,"unit_price" numeric(10,2),"order_date" date,"shipped_at" timestamp without time zone,"is_gift" boolean,"load_batch" integer)');
    const values =
      "('1001',1,1,'00042',2,'19.99','2024-01-10'::date,'2024-01-11 08:00:00',false,1)," +
      "('1002',1,6,'00043',1,'5.00','2024-01-12'::date,NULL,true,1)," +
      "('1003',1,1,'00044',3,'10.00','2024-01-13'::date,'2024-01-14 09:30:00',false,2)";
    expect((await run(`insert into "demo"."analytics"."order_lines" ("order_id", "line_no", "customer_id", "sku", "quantity", "unit_price", "order_date", "shipped_at", "is_gift", "load_batch") values\n${values}`)).rows).toBe(3);
    expect(await read('SELECT order_id, sku, unit_price, shipped_at FROM demo.analytics.order_lines ORDER BY 1')).toEqual([
      ['1001', '00042', '19.99', '2024-01-11 08:00:00'],
      ['1002', '00043', '5.00', null],
      ['1003', '00044', '10.00', '2024-01-14 09:30:00'],
    ]);
  });

  test('second load: truncate table, then the same insert', async () => {
    const t = await run('truncate table "demo"."analytics"."customers"');
    expect(t.plan).toMatchObject({ kind: 'engine', tag: 'TRUNCATE TABLE', counts: false, sql: 'TRUNCATE TABLE "demo"."analytics"."customers"' });
    expect(await read('SELECT count(*) FROM demo.analytics.customers')).toEqual([['0']]);
    await run(
      'insert into "demo"."analytics"."customers" ("customer_id", "name", "email", "signup_date", "tier", "is_active", "credit_limit", "updated_at", "first_run", "last_run") values\n' +
        "(1,'Ada Lovelace','ada@example.com','2023-01-15'::date,'gold',true,5000.00,'2024-01-01T09:00:00'::timestamp,1,2)," +
        "(6,'Donald Knuth',NULL,'2023-06-30'::date,'bronze',true,NULL,'2024-01-06T16:20:00'::timestamp,1,1)",
    );
    expect(await read('SELECT count(*) FROM demo.analytics.customers')).toEqual([['2']]);
  });
});

describe('views and tables', () => {
  test('create view: stored without the database part, qualified as it resolved; renamed with ALTER TABLE; commented', () => {
    const v = plan('create view "demo"."analytics"."stg_customers__dbt_tmp" as (\nselect customer_id, name, email, tier, updated_at from "demo"."analytics"."customers"\n);');
    expect(v).toMatchObject({
      kind: 'catalog',
      tag: 'CREATE VIEW',
      op: {
        op: 'create-view',
        namespace: ['analytics'],
        name: 'stg_customers__dbt_tmp',
        viewSql: 'SELECT customer_id, name, email, tier, updated_at FROM analytics.customers',
        defaultNamespace: ['analytics'],
        columnNames: ['customer_id', 'name', 'email', 'tier', 'updated_at'],
      },
    });
    // the session creates it: from here on the catalog has it
    views.push({ schema: 'analytics', name: 'stg_customers__dbt_tmp', sql: 'select customer_id, name, email, tier, updated_at from analytics.customers', columns: ['customer_id', 'name', 'email', 'tier', 'updated_at'] });
    return refresh().then(() => {
      expect(plan('alter table "demo"."analytics"."stg_customers__dbt_tmp" rename to "stg_customers"')).toMatchObject({
        kind: 'catalog',
        tag: 'ALTER TABLE',
        op: { op: 'rename', what: 'view', from: { kind: 'iceberg', namespace: ['analytics'], name: 'stg_customers__dbt_tmp' }, to: { namespace: ['analytics'], name: 'stg_customers' } },
      });
      expect(plan('comment on view "demo"."analytics"."stg_customers__dbt_tmp" is $dbt_comment_literal_block$Customers.$dbt_comment_literal_block$;')).toMatchObject({
        op: { op: 'comment', what: 'view', text: 'Customers.' },
      });
      expect(plan('comment on column "demo"."analytics"."stg_customers__dbt_tmp".tier is $dbt_comment_literal_block$The tier.$dbt_comment_literal_block$;')).toMatchObject({
        op: { op: 'comment', what: 'column', column: 'tier', text: 'The tier.' },
      });
      views.splice(0, 1, { ...views[0]!, name: 'stg_customers' });
      return refresh();
    });
  });

  test("a view over sales.orders: the creator's probe reads it gated (its body stays the user's SQL)", () => {
    const v = plan(
      'create view "demo"."analytics"."orders_by_region__dbt_tmp" as (\nselect o.region, count(o.id) as order_count, min(o.id) as first_order_id\nfrom "demo"."sales"."orders" as o\ngroup by o.region\n);',
    );
    if (v.kind !== 'catalog' || v.op.op !== 'create-view') throw new Error('not a view');
    expect(v.op.viewSql).toBe('SELECT o.region, count(o.id) AS order_count, min(o.id) AS first_order_id FROM sales.orders AS o GROUP BY o.region');
    expect(v.op.probeSql).toContain('mask_hash');
  });

  test('table model: CREATE TABLE AS over a view and a CTE, rename, comments, drop of the backup', async () => {
    const ctas = await run(
      'create  table "demo"."analytics"."dim_customers__dbt_tmp" as (\n' +
        'with lines as (select customer_id, order_id, quantity * unit_price as line_amount from "demo"."analytics"."order_lines" where load_batch <= 1)\n' +
        'select c.customer_id, c.name, cast(coalesce(sum(l.line_amount), 0) as numeric(12,2)) as total_amount, count(l.order_id) as order_count\n' +
        'from "demo"."analytics"."stg_customers" as c left join lines as l on l.customer_id = c.customer_id group by c.customer_id, c.name\n);',
    );
    expect(ctas.plan).toMatchObject({ kind: 'table-as', tag: 'SELECT', withData: true, columnNames: ['customer_id', 'name', 'total_amount', 'order_count'] });
    expect(ctas.rows).toBe(2);
    // customer 1: 2 × 19.99 (batch 1); customer 6: 1 × 5.00
    expect(await read('SELECT customer_id, total_amount, order_count FROM demo.analytics.dim_customers__dbt_tmp ORDER BY 1')).toEqual([
      [1, '39.98', '1'],
      [6, '5.00', '1'],
    ]);
    expect(plan('alter table "demo"."analytics"."dim_customers__dbt_tmp" rename to "dim_customers"')).toMatchObject({ op: { op: 'rename', what: 'table' } });
    expect(plan('comment on table "demo"."analytics"."dim_customers__dbt_tmp" is $dbt_comment_literal_block$One row per customer.$dbt_comment_literal_block$;')).toMatchObject({
      op: { op: 'comment', what: 'table', text: 'One row per customer.' },
    });
    expect(plan('drop table if exists "demo"."analytics"."dim_customers__dbt_backup" cascade')).toMatchObject({
      op: { op: 'nothing' },
      notice: 'table "dim_customers__dbt_backup" does not exist, skipping',
    });
    expect(plan('drop view if exists "demo"."analytics"."stg_customers" cascade')).toMatchObject({
      op: { op: 'drop', what: 'view', targets: [{ name: 'stg_customers' }], cascade: true },
    });
  });
});

describe('incremental models', () => {
  test('first run: a plain CREATE TABLE AS', async () => {
    await run(
      'create  table "demo"."analytics"."customer_daily_sales" as (\n' +
        'select l.customer_id, l.order_date, count(*) as line_count, sum(l.quantity) as units, sum(l.quantity * l.unit_price) as amount, bool_or(l.is_gift) as has_gift, 1 as computed_in_run\n' +
        'from "demo"."analytics"."order_lines" as l where l.load_batch <= 1 group by l.customer_id, l.order_date\n);',
    );
    expect(await read('SELECT customer_id, order_date, units, amount, has_gift FROM demo.analytics.customer_daily_sales ORDER BY 1, 2')).toEqual([
      [1, '2024-01-10', '2', '39.98', false],
      [6, '2024-01-12', '1', '5.00', true],
    ]);
  });

  test('delete+insert: the temporary table, a row-value IN, then the insert — one message', async () => {
    const tmp = 'customer_daily_sales__dbt_tmp132212280633';
    const created = await run(
      `create temporary table "${tmp}" as (\n` +
        'select l.customer_id, l.order_date, count(*) as line_count, sum(l.quantity) as units, sum(l.quantity * l.unit_price) as amount, bool_or(l.is_gift) as has_gift, 2 as computed_in_run\n' +
        'from "demo"."analytics"."order_lines" as l where l.load_batch <= 2 and l.order_date >= (select max(order_date) from "demo"."analytics"."customer_daily_sales") group by l.customer_id, l.order_date\n);',
    );
    expect(created.plan).toMatchObject({ kind: 'table-as', target: { kind: 'temp', engineName: `temp.main."${tmp}"` } });
    const del = await run(
      `delete from "demo"."analytics"."customer_daily_sales" as DBT_INTERNAL_DEST\n    where (customer_id, order_date) in (\n        select distinct customer_id, order_date\n        from "${tmp}" as DBT_INTERNAL_SOURCE\n    );`,
    );
    expect(del).toMatchObject({ plan: { kind: 'engine', tag: 'DELETE' }, rows: 1 });
    const ins = await run(
      `insert into "demo"."analytics"."customer_daily_sales" ("customer_id", "order_date", "line_count", "units", "amount", "has_gift", "computed_in_run")\n(\n    select "customer_id", "order_date", "line_count", "units", "amount", "has_gift", "computed_in_run"\n    from "${tmp}"\n)`,
    );
    expect(ins.rows).toBe(2);
    expect(await read('SELECT customer_id, order_date, amount, computed_in_run FROM demo.analytics.customer_daily_sales ORDER BY 1, 2')).toEqual([
      [1, '2024-01-10', '39.98', 1],
      [1, '2024-01-13', '30.00', 2],
      [6, '2024-01-12', '5.00', 2],
    ]);
  });

  test('merge with append_new_columns: ADD COLUMN, then MERGE setting the key and inserting unqualified source columns', async () => {
    await run('create  table "demo"."analytics"."customer_revenue" as (\nselect customer_id, sum(quantity * unit_price) as revenue, 1 as computed_in_run from "demo"."analytics"."order_lines" where load_batch <= 1 group by customer_id\n);');
    const tmp = 'customer_revenue__dbt_tmp132212280634';
    await run(`create temporary table "${tmp}" as (\nselect customer_id, sum(quantity * unit_price) as revenue, 2 as computed_in_run, count(*) as order_count from "demo"."analytics"."order_lines" group by customer_id\n);`);
    const add = await run('alter table "demo"."analytics"."customer_revenue"\n           add column "order_count" bigint');
    expect(add.plan).toMatchObject({ kind: 'engine', tag: 'ALTER TABLE', ddl: true, sql: 'ALTER TABLE "demo"."analytics"."customer_revenue" ADD COLUMN "order_count" BIGINT' });
    const merge = await run(
      '-- back compat for old kwarg name\n' +
        `merge into "demo"."analytics"."customer_revenue" as DBT_INTERNAL_DEST\n    using "${tmp}" as DBT_INTERNAL_SOURCE\n    on ((DBT_INTERNAL_SOURCE.customer_id = DBT_INTERNAL_DEST.customer_id))\n` +
        'when matched then update set\n    "customer_id" = DBT_INTERNAL_SOURCE."customer_id","revenue" = DBT_INTERNAL_SOURCE."revenue","computed_in_run" = DBT_INTERNAL_SOURCE."computed_in_run","order_count" = DBT_INTERNAL_SOURCE."order_count"\n' +
        'when not matched then insert\n    ("customer_id", "revenue", "computed_in_run", "order_count")\nvalues\n    ("customer_id", "revenue", "computed_in_run", "order_count")',
    );
    expect(merge).toMatchObject({ plan: { kind: 'engine', tag: 'MERGE', counts: true }, rows: 2 });
    expect(await read('SELECT customer_id, revenue, computed_in_run, order_count FROM demo.analytics.customer_revenue ORDER BY 1')).toEqual([
      [1, '69.98', 2, '2'],
      [6, '5.00', 2, '1'],
    ]);
  });
});

describe('snapshots', () => {
  test('first run: md5 over casts and now()::timestamp without time zone; later: UPDATE … FROM naming the target by its three-part name, then INSERT … SELECT', async () => {
    const first = await run(
      'create  table "demo"."analytics"."customers_snapshot_ts" as (\n' +
        "select *, md5(coalesce(cast(customer_id as varchar ), '') || '|' || coalesce(cast(updated_at as varchar ), '')) as dbt_scd_id, updated_at as dbt_updated_at, updated_at as dbt_valid_from, coalesce(nullif(updated_at, updated_at), null) as dbt_valid_to, now()::timestamp without time zone as dbt_snapshot_time\n" +
        'from ( select customer_id, tier, updated_at from "demo"."analytics"."customers" ) sbq\n);',
    );
    expect(first.plan).toMatchObject({ kind: 'table-as', columnNames: ['customer_id', 'tier', 'updated_at', 'dbt_scd_id', 'dbt_updated_at', 'dbt_valid_from', 'dbt_valid_to', 'dbt_snapshot_time'] });
    const tmp = 'customers_snapshot_ts__dbt_tmp132212280635';
    await run(
      `create temporary table "${tmp}" as (\n` +
        "select 'update' as dbt_change_type, s.customer_id, s.tier, s.updated_at, s.dbt_scd_id, TIMESTAMP '2024-02-01 00:00:00' as dbt_valid_to from \"demo\".\"analytics\".\"customers_snapshot_ts\" s where s.customer_id = 1\n" +
        "union all select 'insert', 9, 'gold', TIMESTAMP '2024-02-01 00:00:00', md5('9'), null\n);",
    );
    const update = await run(
      'update "demo"."analytics"."customers_snapshot_ts"\nset dbt_valid_to = DBT_INTERNAL_SOURCE.dbt_valid_to\n' +
        `from "${tmp}" as DBT_INTERNAL_SOURCE\n` +
        'where DBT_INTERNAL_SOURCE.dbt_scd_id::text = "demo"."analytics"."customers_snapshot_ts".dbt_scd_id::text\n' +
        "  and DBT_INTERNAL_SOURCE.dbt_change_type::text in ('update'::text, 'delete'::text)\n" +
        '    and "demo"."analytics"."customers_snapshot_ts".dbt_valid_to is null;',
    );
    expect(update).toMatchObject({ plan: { kind: 'engine', tag: 'UPDATE' }, rows: 1 });
    const insert = await run(
      'insert into "demo"."analytics"."customers_snapshot_ts" ("customer_id", "tier", "updated_at", "dbt_updated_at", "dbt_valid_from", "dbt_valid_to", "dbt_scd_id")\n' +
        'select DBT_INTERNAL_SOURCE."customer_id",DBT_INTERNAL_SOURCE."tier",DBT_INTERNAL_SOURCE."updated_at",DBT_INTERNAL_SOURCE."updated_at",DBT_INTERNAL_SOURCE."updated_at",DBT_INTERNAL_SOURCE."dbt_valid_to",DBT_INTERNAL_SOURCE."dbt_scd_id"\n' +
        `from "${tmp}" as DBT_INTERNAL_SOURCE\nwhere DBT_INTERNAL_SOURCE.dbt_change_type::text = 'insert'::text;`,
    );
    expect(insert.rows).toBe(1);
    expect(await read('SELECT customer_id, dbt_valid_to FROM demo.analytics.customers_snapshot_ts ORDER BY 1')).toEqual([
      [1, '2024-02-01 00:00:00'],
      [6, null],
      [9, null],
    ]);
  });

  test("the second run's staging query: CTEs over a view, `source_data.*` over a join, a UNION ALL of CTEs under the statement's WITH", async () => {
    const tmp = 'customers_snapshot_ts__dbt_tmp132212280636';
    const staged = await run(
      `create temporary table "${tmp}" as (\n` +
        '    with snapshot_query as ( select * from "demo"."analytics"."stg_customers" ),\n' +
        '    snapshotted_data as ( select *, customer_id as dbt_unique_key from "demo"."analytics"."customers_snapshot_ts" where dbt_valid_to is null ),\n' +
        "    insertions_source_data as ( select *, customer_id as dbt_unique_key, updated_at as dbt_updated_at, updated_at as dbt_valid_from, coalesce(nullif(updated_at, updated_at), null) as dbt_valid_to, md5(coalesce(cast(customer_id as varchar ), '') || '|' || coalesce(cast(updated_at as varchar ), '')) as dbt_scd_id from snapshot_query ),\n" +
        '    updates_source_data as ( select *, customer_id as dbt_unique_key, updated_at as dbt_updated_at, updated_at as dbt_valid_from, updated_at as dbt_valid_to from snapshot_query ),\n' +
        "    insertions as ( select 'insert' as dbt_change_type, source_data.* from insertions_source_data as source_data left outer join snapshotted_data on snapshotted_data.dbt_unique_key = source_data.dbt_unique_key where snapshotted_data.dbt_unique_key is null or ( snapshotted_data.dbt_unique_key is not null and ( (snapshotted_data.dbt_valid_from < source_data.updated_at) ) ) ),\n" +
        "    updates as ( select 'update' as dbt_change_type, source_data.*, snapshotted_data.dbt_scd_id from updates_source_data as source_data join snapshotted_data on snapshotted_data.dbt_unique_key = source_data.dbt_unique_key where ( (snapshotted_data.dbt_valid_from < source_data.updated_at) ) )\n" +
        '    select * from insertions\n    union all\n    select * from updates\n);',
    );
    expect(staged.plan).toMatchObject({
      kind: 'table-as',
      columnNames: ['dbt_change_type', 'customer_id', 'name', 'email', 'tier', 'updated_at', 'dbt_unique_key', 'dbt_updated_at', 'dbt_valid_from', 'dbt_valid_to', 'dbt_scd_id'],
    });
    // customer 1 has no open version (closed above): an insertion; customer 6's open version is as new as the source: nothing
    expect(await read(`SELECT dbt_change_type, customer_id, dbt_unique_key FROM temp.main."${tmp}"`)).toEqual([['insert', 1, 1]]);
  });

  test('the temporary tables are found unqualified, before any schema, and written by their engine names', () => {
    expect(temps.map((t) => t.name)).toEqual([
      'customer_daily_sales__dbt_tmp132212280633',
      'customer_revenue__dbt_tmp132212280634',
      'customers_snapshot_ts__dbt_tmp132212280635',
      'customers_snapshot_ts__dbt_tmp132212280636',
    ]);
    expect(plan('drop table "customer_revenue__dbt_tmp132212280634"')).toMatchObject({ op: { op: 'drop', targets: [{ kind: 'temp', engineName: 'temp.main."customer_revenue__dbt_tmp132212280634"' }] } });
  });
});
