/**
 * Write statements through the read pipeline's allowlist and dialect: the
 * expressions of SET, WHERE, ON and VALUES mean what PostgreSQL means
 * (integer division, casts, functions — run on DuckDB, expected values
 * computed from PostgreSQL's rules), and what the allowlist refuses in a
 * query it refuses in a write; a data-modifying CTE, RETURNING and WHERE
 * CURRENT OF are refused. Each refusal's control is the same statement
 * without the refused part.
 */
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { duckSql } from '../../tests/support/demoEngine.js';
import { loadDuckDbCatalog, type Catalog } from '../../catalog/catalog.js';
import { PolicyEngine } from '../../policy/ranger/engine.js';
import { parseRangerRoles, parseServicePolicies } from '../../policy/ranger/model.js';
import { RoleStore } from '../../policy/ranger/roles.js';
import { demoDuckDb, installGateMacros } from '../../tests/support/dataGate.js';
import { P, rangerRoles, servicePolicies } from '../../tests/support/rangerPolicies.js';
import { planWriteAs, runWrite, writeRefusal } from '../../tests/support/writePlanning.js';

let instance: DuckDBInstance;
let conn: DuckDBConnection;
let catalog: Catalog;

const engine = new PolicyEngine(
  parseServicePolicies(servicePolicies('lakehouse', [P.allow('carol writes', 'sales', '*', '*', { users: ['carol'] }, { accesses: ['select', 'update', 'create', 'drop', 'alter'] })]), 'test'),
  { roles: new RoleStore(parseRangerRoles(rangerRoles('lakehouse', {}), 'test')) },
);
const plan = (sql: string) => planWriteAs(catalog, sql, 'carol', { engine });
const refusal = (sql: string) => writeRefusal(catalog, sql, 'carol', { engine });
const read = async (sql: string) => (await conn.runAndReadAll(sql)).getRows().map((r) => r.map((v) => (v === null ? null : typeof v === 'object' || typeof v === 'bigint' ? String(v) : v)));

beforeAll(async () => {
  ({ instance, conn } = await demoDuckDb());
  await conn.run('CREATE TABLE demo.sales.t (id INTEGER, n INTEGER, d DECIMAL(10,2), v VARCHAR, "at" TIMESTAMP, "by" VARCHAR)');
  await installGateMacros(conn, 'statements-test-mask-key');
  catalog = await loadDuckDbCatalog(duckSql(conn), 'demo');
});

afterAll(() => {
  conn.closeSync();
  instance.closeSync();
});

describe("PostgreSQL's meaning in VALUES, SET and WHERE", () => {
  it('integer division truncates, numeric keeps its scale, casts and operators are PostgreSQL’s; a column named as a DuckDB keyword is assigned', async () => {
    await runWrite(conn, plan("insert into sales.t (id, n, d, v, at) values (1, 7 / 2, 7.0 / 2, upper('ab') || '7', '2024-01-02 03:04:05'::timestamp + interval '1 day')"));
    expect(await read('SELECT id, n, d, v, "at" FROM demo.sales.t')).toEqual([[1, 3, '3.50', 'AB7', '2024-01-03 03:04:05']]);
    expect(await runWrite(conn, plan("update sales.t set n = -7 / 2, v = v || '!' where id = 5 / 4"))).toBe(1);
    expect(await read('SELECT n, v FROM demo.sales.t')).toEqual([[-3, 'AB7!']]);
    expect(await runWrite(conn, plan(`update sales.t set "by" = 'x', at = at where id = 1`))).toBe(1);
    expect(await runWrite(conn, plan('delete from sales.t where n % 2 = -1'))).toBe(1);
  });

  it("an array column takes PostgreSQL's array text, as interpolating clients send lists (VALUES and SET); anything else is 22P02 as in PostgreSQL", async () => {
    await conn.run('CREATE TABLE demo.sales.arrays (id INTEGER, tags VARCHAR[], ns INTEGER[])');
    catalog = await loadDuckDbCatalog(duckSql(conn), 'demo');
    expect(await runWrite(conn, plan(`insert into sales.arrays values (1, '{a,"b c",NULL}', '{1, 2}'), (2, '{}', '{}')`))).toBe(2);
    expect(await runWrite(conn, plan("update sales.arrays set tags = '{x}', ns = '{3}' where id = 2"))).toBe(1);
    // control: an ARRAY constructor is written as it is
    expect(await runWrite(conn, plan('insert into sales.arrays (id, ns) values (3, array[4, 5])'))).toBe(1);
    expect(await read('SELECT id, tags::VARCHAR, ns::VARCHAR FROM demo.sales.arrays ORDER BY id')).toEqual([
      [1, '[a, b c, NULL]', '[1, 2]'],
      [2, '[x]', '[3]'],
      [3, null, '[4, 5]'],
    ]);
    for (const bad of ["insert into sales.arrays (id, tags) values (4, '{a')", "update sales.arrays set tags = '{\"a}'", "insert into sales.arrays (id, ns) values (4, '[1, 2]')"]) {
      expect([bad, refusal(bad).code]).toEqual([bad, '22P02']);
    }
  });

  it('parameters stay parameters ($n), typed by the engine from their target', () => {
    const p = plan('insert into sales.t (id, v) values ($1, $2)');
    expect(p).toMatchObject({ kind: 'engine', sql: 'INSERT INTO demo.sales.t (id, v) VALUES ($1, $2)' });
  });
});

describe('what a query may not do, a write may not do either', () => {
  it.each([
    ["insert into sales.t (v) select pg_read_file('/etc/passwd')", '42883'],
    ["update sales.t set v = (select string_agg(x, ',') from read_csv('/etc/passwd') as r(x))", '42883'],
    ["insert into sales.t (v) select * from read_parquet('/tmp/x.parquet')", '42883'],
    ["delete from sales.t where v in (select current_setting('lakegate.secret'))", '42704'],
    ['with d as (delete from sales.t returning *) insert into sales.t select * from d', '0A000'],
    ["insert into sales.t (id) values (1) returning *", '0A000'],
    ['update sales.t set n = 1 returning n', '0A000'],
    ['delete from sales.t where current of c', '0A000'],
    ['insert into sales.t (id) select id from sales.t for update', '0A000'],
    ['insert into lakegate_pg.pgc.pg_class (oid) values (1)', '0A000'],
    ['insert into "lg_write_7".sales.t (id) values (1)', '0A000'],
  ])('%s → %s', (sql, code) => {
    expect(refusal(sql).code).toBe(code);
  });

  it('the controls plan', () => {
    expect(() => plan("insert into sales.t (v) select lower('X')")).not.toThrow();
    expect(() => plan('insert into sales.t (id) values (1)')).not.toThrow();
    expect(() => plan('update sales.t set n = 1')).not.toThrow();
    expect(() => plan('insert into sales.t (id) select id from sales.t')).not.toThrow();
  });
});
