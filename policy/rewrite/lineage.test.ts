/**
 * Tags follow the data: the tags each column of a written table takes on,
 * by the rule sql/write/sources.ts states (references through derived
 * tables, CTEs, views and set operations; expressions and aggregates take
 * every column they read; WHERE and JOIN conditions add nothing), and the
 * whole loop on DuckDB: an unmasked administrator copies ssn into a new
 * table, the copy carries PII, and the tag mask applies to the copy for an
 * analyst — who would read it raw if tags did not follow (the control).
 */
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { duckSql } from '../../tests/support/demoEngine.js';
import { loadDuckDbCatalog, type Catalog } from '../../catalog/catalog.js';
import type { TableAsWrite, EngineWrite } from '../../sql/write/plan.js';
import { demoDuckDb, gateRows, installGateMacros } from '../../tests/support/dataGate.js';
import { P, rangerRoles, servicePolicies } from '../../tests/support/rangerPolicies.js';
import { planWriteAs, runWrite, tempTableOf, withTags, withViews, writeRefusal, type WriteSetup } from '../../tests/support/writePlanning.js';
import { PolicyEngine } from '../ranger/engine.js';
import { parseRangerRoles, parseServicePolicies } from '../ranger/model.js';
import { RoleStore } from '../ranger/roles.js';

let instance: DuckDBInstance;
let conn: DuckDBConnection;
let base: Catalog;
let catalog: Catalog;

const ROLES = { analyst: ['alice', 'carol'], sqe_admin: ['carol'] };
const engine = new PolicyEngine(
  parseServicePolicies(
    servicePolicies(
      'lakehouse',
      [
        P.allow('analysts read', '*', '*', '*', { roles: ['analyst'] }),
        P.allow('admins write', '*', '*', '*', { roles: ['sqe_admin'] }, { accesses: ['select', 'update', 'create', 'drop', 'alter'] }),
        P.mask('admins see ssn', 'sales', 'orders', 'ssn', [[{ roles: ['sqe_admin'] }, 'MASK_NONE']], { priority: 1 }),
      ],
      [P.tagMask('PII masked', 'PII', [[{ roles: ['sqe_admin'] }, 'MASK_NONE'], [{ roles: ['analyst'] }, 'MASK']])],
    ),
    'test',
  ),
  { roles: new RoleStore(parseRangerRoles(rangerRoles('lakehouse', ROLES), 'test')) },
);
const setup = (over: Partial<WriteSetup> = {}): WriteSetup => ({ engine, ...over });

const TAGS = { 'sales.orders': { ssn: ['PII'], region: ['GEO'] }, 'sales.people': { email: ['CONTACT', 'PII'] }, 'sales.target': { a: ['KEY'] } };

beforeAll(async () => {
  ({ instance, conn } = await demoDuckDb());
  await conn.run('CREATE TABLE demo.sales.orders (id INTEGER, ssn VARCHAR, amount DECIMAL(10,2), region VARCHAR)');
  await conn.run(`INSERT INTO demo.sales.orders VALUES (1, '111-11-1111', 100.00, 'EU'), (2, '222-22-2222', 250.50, 'US')`);
  await conn.run('CREATE TABLE demo.sales.people (id INTEGER, email VARCHAR, name VARCHAR)');
  await conn.run('CREATE TABLE demo.sales.target (a INTEGER, b VARCHAR, c VARCHAR)');
  await installGateMacros(conn, 'lineage-test-mask-key');
  base = await loadDuckDbCatalog(duckSql(conn), 'demo');
  catalog = withTags(withViews(base, [{ schema: 'sales', name: 'ssn_view', sql: 'select id as k, ssn as secret from sales.orders', columns: ['k', 'secret'] }]), TAGS);
});

afterAll(() => {
  conn.closeSync();
  instance.closeSync();
});

const ctasTags = (query: string): Record<string, string[]> | undefined => {
  const plan = planWriteAs(catalog, `create table sales.out as ${query}`, 'carol', setup()) as TableAsWrite;
  return plan.columnTags ? { ...plan.columnTags } : undefined;
};

describe('the lineage rule', () => {
  it.each([
    ['select id, ssn from sales.orders', { ssn: ['PII'] }],
    ['select * from sales.orders', { ssn: ['PII'], region: ['GEO'] }],
    ["select id, upper(ssn) || '-' || region as x from sales.orders", { x: ['GEO', 'PII'] }],
    ['select count(ssn) as n, max(region) as r, count(*) as c from sales.orders', { n: ['PII'], r: ['GEO'] }],
    ["select id from sales.orders where ssn like '1%' and region = 'EU'", undefined],
    ['select o.id, p.name from sales.orders o join sales.people p on p.email = o.ssn', undefined],
    ['select s from (select ssn as s, id from sales.orders) d', { s: ['PII'] }],
    ['with c as (select ssn as s from sales.orders) select s as t from c', { t: ['PII'] }],
    ['select secret from sales.ssn_view', { secret: ['PII'] }],
    ['select id as v from sales.orders union all select ssn from sales.orders', { v: ['PII'] }],
    ['select x.email, o.id from sales.people x cross join sales.orders o', { email: ['CONTACT', 'PII'] }],
    ['select id, row_number() over (order by ssn) as r from sales.orders', { r: ['PII'] }],
    ['select id, (select max(ssn) from sales.orders i where i.id = o.id) as m from sales.orders o', { m: ['PII'] }],
    ["select id, exists (select 1 from sales.people p where p.email = 'a') as e from sales.orders", { e: ['CONTACT', 'PII'] }],
    ['select case when ssn is null then 0 else 1 end as flag from sales.orders', { flag: ['PII'] }],
  ])('%s', (query, expected) => {
    expect(ctasTags(query)).toEqual(expected);
  });

  it('INSERT tags each written column with what is written into it, by position', () => {
    const plan = planWriteAs(catalog, 'insert into sales.target (c, a) select ssn, id from sales.orders', 'carol', setup()) as EngineWrite;
    expect({ ...plan.columnTags }).toEqual({ c: ['PII'] });
    const all = planWriteAs(catalog, 'insert into sales.target select id, region, ssn from sales.orders', 'carol', setup()) as EngineWrite;
    expect({ ...all.columnTags }).toEqual({ b: ['GEO'], c: ['PII'] });
    expect(planWriteAs(catalog, "insert into sales.target values (1, 'x', 'y')", 'carol', setup())).not.toHaveProperty('columnTags');
  });

  it('UPDATE and MERGE tag the columns they set with what the new values read', () => {
    const update = planWriteAs(catalog, 'update sales.target t set b = o.ssn from sales.orders o where o.id = t.a and o.region = \'EU\'', 'carol', setup()) as EngineWrite;
    expect({ ...update.columnTags }).toEqual({ b: ['PII'] });
    const merge = planWriteAs(
      catalog,
      'merge into sales.target t using sales.orders o on o.id = t.a when matched then update set c = o.region when not matched then insert (a, b) values (o.id, o.ssn)',
      'carol',
      setup(),
    ) as EngineWrite;
    expect({ ...merge.columnTags }).toEqual({ c: ['GEO'], b: ['PII'] });
  });

  it("a value computed from the target's own tagged column carries its tags (UPDATE, MERGE); the statement's WITH list is followed", () => {
    const update = planWriteAs(catalog, "update sales.target set b = a::text || '!'", 'carol', setup()) as EngineWrite;
    expect({ ...update.columnTags }).toEqual({ b: ['KEY'] });
    const merge = planWriteAs(catalog, 'merge into sales.target t using sales.people p on p.id = t.a when matched then update set c = t.a::text || p.name', 'carol', setup()) as EngineWrite;
    expect({ ...merge.columnTags }).toEqual({ c: ['KEY'] });
    const withInsert = planWriteAs(catalog, 'with x as (select ssn as s from sales.orders) insert into sales.target (c) select s from x', 'carol', setup()) as EngineWrite;
    expect({ ...withInsert.columnTags }).toEqual({ c: ['PII'] });
    const withUpdate = planWriteAs(catalog, 'with x as (select id, region from sales.orders) update sales.target t set b = x.region from x where x.id = t.a', 'carol', setup()) as EngineWrite;
    expect({ ...withUpdate.columnTags }).toEqual({ b: ['GEO'] });
  });

  it("through a temporary table: its columns carry what the session recorded when it filled them", async () => {
    const temp = planWriteAs(catalog, 'create temporary table scratch as select id, ssn from sales.orders', 'carol', setup()) as TableAsWrite;
    expect({ ...temp.columnTags }).toEqual({ ssn: ['PII'] });
    await runWrite(conn, temp);
    const scratch = await tempTableOf(conn, 'scratch', { ...temp.columnTags });
    const insert = planWriteAs(catalog, 'insert into sales.target (a, c) select * from scratch', 'carol', setup({ temp: [scratch] })) as EngineWrite;
    expect(insert.sql).toContain('FROM ( SELECT id AS id, ssn AS ssn FROM temp.main.scratch ) AS scratch');
    expect({ ...insert.columnTags }).toEqual({ c: ['PII'] });
  });

  it('a RENAME COLUMN moves the column\'s tags to its new name', () => {
    const plan = planWriteAs(catalog, 'alter table sales.orders rename column ssn to tax_id', 'carol', setup()) as EngineWrite;
    expect({ ...plan.columnTags }).toEqual({ tax_id: ['PII'] });
  });

  it('tags that cannot be read refuse the write (42501); readable ones (the control) plan', () => {
    const unreadable = withTags(base, { 'sales.orders': null });
    const e = writeRefusal(unreadable, 'create table sales.out as select ssn from sales.orders', 'carol', setup());
    expect([e.code, e.message]).toEqual(['42501', 'permission denied: the column tags of relation "sales.orders" cannot be read']);
    expect(() => planWriteAs(catalog, 'create table sales.out as select ssn from sales.orders', 'carol', setup())).not.toThrow();
  });
});

describe('the loop: a copy of a tagged column is masked by the tag policy', () => {
  it("carol (unmasked) copies ssn; alice reads the copy masked by PII's mask; without the tags the copy would be raw", async () => {
    const plan = planWriteAs(catalog, 'create table sales.ssn_copy as select id, ssn from sales.orders', 'carol', setup()) as TableAsWrite;
    await runWrite(conn, plan);
    // carol wrote the values as stored: she is unmasked
    expect((await conn.runAndReadAll('SELECT ssn FROM demo.sales.ssn_copy ORDER BY id')).getRows()).toEqual([['111-11-1111'], ['222-22-2222']]);
    const written = await loadDuckDbCatalog(duckSql(conn), 'demo');
    // the session sets the plan's tags as the new table's sqe.column-tags
    const tagged = withTags(written, { 'sales.ssn_copy': { ...plan.columnTags } });
    expect(await gateRows(conn, tagged, 'SELECT ssn FROM sales.ssn_copy ORDER BY id', 'alice', { engine })).toEqual([['nnn-nn-nnnn'], ['nnn-nn-nnnn']]);
    expect(await gateRows(conn, written, 'SELECT ssn FROM sales.ssn_copy ORDER BY id', 'alice', { engine })).toEqual([['111-11-1111'], ['222-22-2222']]);
  });
});
