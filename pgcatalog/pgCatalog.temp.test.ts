/**
 * A session's temporary tables, read and listed as PostgreSQL 15 shows them
 * to their session (and to no other): found before any schema by an
 * unqualified name (shadowing sales.orders), by `pg_temp.t`, after the
 * schemas search_path puts before `pg_temp`, never inside a catalog view's
 * body; listed in pg_class (relpersistence t), pg_namespace (pg_temp_N),
 * pg_tables and information_schema.columns (dbt reads it unqualified, by
 * table_name only). A second connection filled for another session lists
 * none of them (the control).
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { parseStatements } from '../sql/parse.js';
import { planQuery, type QueryContext } from '../sql/query.js';
import type { TempScope } from '../sql/tempTables.js';
import { SqlError } from '../sql/errors.js';
import { startDemoEngine, type DemoEngine } from '../tests/support/demoEngine.js';
import { withViews } from '../tests/support/writePlanning.js';
import { installUserCatalog } from './pgCatalog.js';

let engine: DemoEngine;
let other: DuckDBConnection;

const temp: TempScope = {
  schema: 'pg_temp_4242',
  tables: [
    { name: 'orders', columns: [{ name: 'id', duckType: 'INTEGER', nullable: true }, { name: 'note', duckType: 'VARCHAR', nullable: true }] },
    { name: 'scratch', columns: [{ name: 'id', duckType: 'INTEGER', nullable: true }, { name: 'amount', duckType: 'DECIMAL(10,2)', nullable: false }] },
  ],
};

beforeAll(async () => {
  engine = await startDemoEngine();
  await engine.conn.run("CREATE TEMP TABLE orders AS SELECT 9 AS id, 'temporary' AS note");
  await engine.conn.run('CREATE TEMP TABLE scratch (id INTEGER, amount DECIMAL(10,2) NOT NULL)');
  await engine.conn.run('INSERT INTO scratch VALUES (1, 2.50)');
  await installUserCatalog(engine.conn, engine.catalog, {}, { user: 'alice', roles: [], groups: [] }, undefined, temp);
  other = await engine.instance.connect();
  await installUserCatalog(other, engine.catalog, {}, { user: 'bob', roles: [], groups: [] });
});

afterAll(() => other?.closeSync());

/** `t` null: a session without temporary tables. */
const ctx = (searchPath: string[], t: TempScope | null = temp): QueryContext => ({ ...engine.ctx(searchPath), ...(t ? { temp: t } : {}) });

async function rows(conn: DuckDBConnection, sql: string, searchPath = ['sales', 'public'], t: TempScope | null = temp): Promise<(string | null)[][]> {
  const plan = planQuery(parseStatements(sql)[0]!, ctx(searchPath, t));
  const r = await conn.runAndReadAll(plan.sql);
  return r.getRowsJson().map((row) => row.map((v) => (v === null ? null : String(v))));
}

describe('name resolution', () => {
  it('an unqualified name finds the temporary table first; sales.orders (qualified) is still the table', async () => {
    expect(await rows(engine.conn, 'select id, note from orders')).toEqual([['9', 'temporary']]);
    expect(await rows(engine.conn, 'select id from sales.orders order by id')).toEqual([['1'], ['2']]);
    // the control: the same session without temporary tables reads the table
    expect(await rows(engine.conn, 'select id from orders order by id', ['sales', 'public'], null)).toEqual([['1'], ['2']]);
  });

  it('pg_temp.t and pg_temp_N.t name it; search_path may place pg_temp after a schema', async () => {
    expect(await rows(engine.conn, 'select amount from pg_temp.scratch')).toEqual([['2.50']]);
    expect(await rows(engine.conn, 'select amount from pg_temp_4242.scratch')).toEqual([['2.50']]);
    expect(await rows(engine.conn, 'select id from orders order by id', ['sales', 'pg_temp'])).toEqual([['1'], ['2']]);
    const e = (() => {
      try {
        planQuery(parseStatements('select * from pg_temp.nope')[0]!, ctx(['sales']));
      } catch (x) {
        return x as SqlError;
      }
      throw new Error('planned');
    })();
    expect([e.code, e.message]).toEqual(['42P01', 'relation "pg_temp.nope" does not exist']);
  });

  it("a catalog view's body never sees the reader's temporary tables (its `orders` is sales.orders)", async () => {
    const withView = withViews(engine.catalog, [{ schema: 'sales', name: 'v', sql: 'select id from orders', columns: ['id'] }]);
    const plan = planQuery(parseStatements('select id from sales.v order by id')[0]!, { ...ctx(['sales']), catalog: withView });
    expect((await engine.conn.runAndReadAll(plan.sql)).getRowsJson()).toEqual([[1], [2]]);
  });

  it("the engine's own columns stay out of reach (rowid), as for every table", () => {
    expect(planQuery(parseStatements('select id from scratch')[0]!, ctx(['sales'])).sql).toBe(
      'SELECT id FROM ( SELECT id AS id, amount AS amount FROM temp.main.scratch ) AS scratch(id, amount)',
    );
  });
});

describe('the catalog emulation', () => {
  it('pg_class and pg_namespace list them in pg_temp_N with relpersistence t', async () => {
    expect(await rows(engine.conn, "select c.relname, c.relpersistence, n.nspname from pg_class c join pg_namespace n on n.oid = c.relnamespace where c.relname in ('orders', 'scratch') order by n.nspname, c.relname")).toEqual([
      ['orders', 't', 'pg_temp_4242'],
      ['scratch', 't', 'pg_temp_4242'],
      ['orders', 'p', 'sales'],
    ]);
  });

  it("information_schema.columns read as dbt reads a temporary table's columns (unqualified, by table_name)", async () => {
    expect(
      await rows(engine.conn, "select column_name, data_type, is_nullable, numeric_precision, numeric_scale, table_schema from INFORMATION_SCHEMA.columns where table_name = 'scratch' order by ordinal_position"),
    ).toEqual([
      ['id', 'integer', 'YES', '32', '0', 'pg_temp_4242'],
      ['amount', 'numeric', 'NO', '10', '2', 'pg_temp_4242'],
    ]);
    expect(await rows(engine.conn, "select schemaname from pg_tables where tablename = 'scratch'")).toEqual([['pg_temp_4242']]);
  });

  it('another session lists none of them (its connection was filled for it)', async () => {
    expect(await rows(other, "select count(*) from information_schema.columns where table_name = 'scratch'", ['sales'], null)).toEqual([['0']]);
    expect(await rows(other, "select count(*) from pg_namespace where nspname like 'pg_temp%'", ['sales'], null)).toEqual([['0']]);
  });

  it('refilled when the temporary tables change (a dropped one leaves the listing)', async () => {
    const fewer: TempScope = { ...temp, tables: temp.tables.filter((t) => t.name !== 'scratch') };
    await installUserCatalog(engine.conn, engine.catalog, {}, { user: 'alice', roles: [], groups: [] }, undefined, fewer);
    expect(await rows(engine.conn, "select count(*) from information_schema.columns where table_name = 'scratch'", ['sales'], fewer)).toEqual([['0']]);
    await installUserCatalog(engine.conn, engine.catalog, {}, { user: 'alice', roles: [], groups: [] }, undefined, temp);
  });
});
