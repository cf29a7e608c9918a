/**
 * The data gate through sql/'s planner onto a real DuckDB: decisions, derived
 * tables and what each user gets back, with expected rows written out here
 * (masks by Hive's rules, MASK_HASH by Node's crypto). Every denial has its
 * control (a user who may read the same thing).
 */
import { createHmac } from 'node:crypto';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import pino from 'pino';
import { duckSql } from '../../tests/support/demoEngine.js';
import { loadDuckDbCatalog, type Catalog } from '../../catalog/catalog.js';
import type { CatalogColumn } from '../../sql/catalogView.js';
import { parseStatements } from '../../sql/parse.js';
import { planQuery } from '../../sql/query.js';
import { P, rangerRoles, servicePolicies } from '../../tests/support/rangerPolicies.js';
import { PolicyEngine } from '../ranger/engine.js';
import { parseRangerRoles, parseServicePolicies } from '../ranger/model.js';
import { RoleStore } from '../ranger/roles.js';
import type { ColumnTagSource } from './columnTags.js';
import { demoDuckDb, installGateMacros, gateContext, gateRefusal, gateRows, planWithGate, type GateSetup } from '../../tests/support/dataGate.js';
import { DataGate } from './dataGate.js';

const KEY = 'gate-test-mask-key-0001';
const hmac = (v: string) => createHmac('sha256', KEY).update(v, 'utf8').digest('hex');

let instance: DuckDBInstance;
let conn: DuckDBConnection;
let catalog: Catalog;

const ROLES = { analyst: ['alice', 'bob', 'carol', 'erin', 'gina'], engineer: ['bob', 'carol'], sqe_admin: ['carol'] };

function demoPolicies(extra: Record<string, unknown>[] = [], tagPolicies: Record<string, unknown>[] = []) {
  return servicePolicies(
    'lakehouse',
    [
      P.allow('analysts read sales', 'sales', '*', '*', { roles: ['analyst'] }),
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
    ],
    tagPolicies,
  );
}

function engineOf(doc: Record<string, unknown>): PolicyEngine {
  return new PolicyEngine(parseServicePolicies(doc, 'test'), { roles: new RoleStore(parseRangerRoles(rangerRoles('lakehouse', ROLES), 'test')) });
}

beforeAll(async () => {
  ({ instance, conn } = await demoDuckDb());
  await conn.run('CREATE TABLE demo.sales.orders (id INTEGER, ssn VARCHAR, amount DECIMAL(10,2), region VARCHAR)');
  await conn.run(`INSERT INTO demo.sales.orders VALUES (1, '111-11-1111', 100.00, 'EU'), (2, '222-22-2222', 250.50, 'US'), (3, 'abc', 75.25, 'APAC')`);
  await conn.run('CREATE TABLE demo.sales.people (id INTEGER, name VARCHAR, born DATE, salary BIGINT, owner VARCHAR, tiny TINYINT, tags INTEGER[])');
  await conn.run(`INSERT INTO demo.sales.people VALUES (1, 'Alice Smith', DATE '1990-07-15', 123456789, 'alice', 123, [1]), (2, 'Bob Jones', DATE '1985-02-03', -42, 'bob', -7, [2])`);
  await conn.run('CREATE TABLE demo.sales.odd ("Weird Name" VARCHAR, "columns" VARCHAR, "MixedCase" INTEGER, "quo""te" VARCHAR)');
  await conn.run(`INSERT INTO demo.sales.odd VALUES ('Ab1', 'Cd2', 12345, 'Ef3')`);
  await conn.run('CREATE TABLE demo.sales.visits (id INTEGER, seen TIMESTAMPTZ)');
  await conn.run(`INSERT INTO demo.sales.visits VALUES (1, TIMESTAMPTZ '2023-12-31 20:00:00+00'), (2, TIMESTAMPTZ '2024-01-01 03:00:00+00'), (3, TIMESTAMPTZ '2024-01-02 00:00:00+00')`);
  await conn.run('CREATE TABLE demo.sales.secret (id INTEGER)');
  await conn.run('INSERT INTO demo.sales.secret VALUES (42)');
  await conn.run('CREATE TABLE demo.sales.docs (id INTEGER, doc VARCHAR)');
  await conn.run(`INSERT INTO demo.sales.docs VALUES (1, '{"k": "Ab1"}')`);
  await installGateMacros(conn, KEY);
  catalog = await loadDuckDbCatalog(duckSql(conn), 'demo');
  // as an Iceberg table whose lakegate.pg-types says doc is jsonb (catalog/iceberg/metadata.ts columnsOf)
  const docs = catalog.getTable('sales', 'docs')!;
  (docs.columns as CatalogColumn[])[1] = { ...docs.columns[1]!, duckType: 'JSON', pgType: 'jsonb' };
});

afterAll(() => {
  conn.closeSync();
  instance.closeSync();
});

type Setup = GateSetup;
const ctx = gateContext;
const planFor = (sql: string, user: string, s: Setup) => planWithGate(catalog, sql, user, s);
const rows = (sql: string, user: string, s: Setup) => gateRows(conn, catalog, sql, user, s);
const refusal = (sql: string, user: string, s: Setup) => gateRefusal(catalog, sql, user, s);

const demo = () => ({ engine: engineOf(demoPolicies()) });
const ORDERS = 'SELECT id, ssn, amount, region FROM sales.orders ORDER BY id';

describe('the demo policies', () => {
  it('alice (analyst): ssn shows the last four, amount as stored, every row', async () => {
    expect(await rows(ORDERS, 'alice', demo())).toEqual([
      [1, 'xxx-xx-1111', '100.00', 'EU'],
      [2, 'xxx-xx-2222', '250.50', 'US'],
      [3, 'abc', '75.25', 'APAC'],
    ]);
  });

  it('bob (engineer): ssn is the HMAC of the value, amount NULL', async () => {
    expect(await rows(ORDERS, 'bob', demo())).toEqual([
      [1, hmac('111-11-1111'), null, 'EU'],
      [2, hmac('222-22-2222'), null, 'US'],
      [3, hmac('abc'), null, 'APAC'],
    ]);
  });

  it('carol (sqe_admin): everything as stored (control for the masks)', async () => {
    expect(await rows(ORDERS, 'carol', demo())).toEqual([
      [1, '111-11-1111', '100.00', 'EU'],
      [2, '222-22-2222', '250.50', 'US'],
      [3, 'abc', '75.25', 'APAC'],
    ]);
  });

  it('erin: only EU rows, also when region is not selected', async () => {
    expect(await rows(ORDERS, 'erin', demo())).toEqual([[1, 'xxx-xx-1111', '100.00', 'EU']]);
    expect(await rows('SELECT count(*), sum(amount) FROM sales.orders', 'erin', demo())).toEqual([['1', '100.00']]);
    expect(await rows('SELECT count(*) FROM sales.orders', 'alice', demo())).toEqual([['3']]);
  });

  it('erin: `select from` (zero columns, one row a row) counts only the EU rows; alice (control) all three', async () => {
    // the planner selects one constant the server does not send (sql/query.ts zeroColumns)
    expect(planFor('select from sales.orders', 'erin', demo()).plan.zeroColumns).toBe(true);
    expect(await rows('select from sales.orders', 'erin', demo())).toEqual([[1]]);
    expect(await rows('select from sales.orders', 'alice', demo())).toEqual([[1], [1], [1]]);
    expect(await rows("select from sales.orders where region <> 'EU'", 'erin', demo())).toEqual([]);
  });

  it('erin: a LATERAL function and a LATERAL subquery read only the EU rows; alice (control) all three', async () => {
    const fn = 'SELECT o.id, g FROM sales.orders o CROSS JOIN LATERAL generate_series(1, o.id) g ORDER BY 1, 2';
    // (integer, as PostgreSQL's generate_series over integers: typed through a probe of o.id's column type)
    expect(await rows(fn, 'erin', demo())).toEqual([[1, 1]]);
    expect(await rows(fn, 'alice', demo())).toEqual([[1, 1], [2, 1], [2, 2], [3, 1], [3, 2], [3, 3]]);
    const sub = 'SELECT o.id, x.d FROM sales.orders o CROSS JOIN LATERAL (SELECT o.id * 2 AS d) x ORDER BY 1';
    expect(await rows(sub, 'erin', demo())).toEqual([[1, 2]]);
    expect(await rows(sub, 'alice', demo())).toEqual([[1, 2], [2, 4], [3, 6]]);
  });

  it("a row filter's timestamps are read in UTC whatever the session's TimeZone; the user's own literal in the session's zone", async () => {
    const since = () => ({ engine: engineOf(demoPolicies([P.filter('erin since 2024', 'sales', 'visits', [[{ users: ['erin'] }, "seen >= '2024-01-01'"]])])) });
    const q = 'SELECT id FROM sales.visits ORDER BY id';
    // 2024-01-01 00:00 UTC: rows 2 and 3, under any TimeZone (+14 would reach back to row 1, -12 drop row 2)
    for (const timezone of ['UTC', 'Pacific/Kiritimati', 'Etc/GMT+12']) {
      expect(await rows(q, 'erin', { ...since(), settings: { timezone } })).toEqual([[2], [3]]);
    }
    // alice (no filter) writes the same bound herself: read in her zone (Tokyo, +09: 2023-12-31 15:00 UTC)
    expect(await rows("SELECT id FROM sales.visits WHERE seen >= '2024-01-01' ORDER BY id", 'alice', { ...since(), settings: { timezone: 'Asia/Tokyo' } })).toEqual([[1], [2], [3]]);
    expect(await rows("SELECT id FROM sales.visits WHERE seen >= '2024-01-01' ORDER BY id", 'alice', { ...since(), settings: { timezone: 'UTC' } })).toEqual([[2], [3]]);
  });

  it('erin: FETCH … WITH TIES ranks only the EU rows (the query moves whole into a derived table over the filtered scan); alice (control) all three', async () => {
    const ties = 'SELECT id, region FROM sales.orders ORDER BY region FETCH FIRST 1 ROWS WITH TIES';
    expect(await rows(ties, 'erin', demo())).toEqual([[1, 'EU']]);
    expect(await rows(ties, 'alice', demo())).toEqual([[3, 'APAC']]);
    // a masked column as the key: ranked by its masked value
    expect(await rows('SELECT id, ssn FROM sales.orders ORDER BY ssn DESC FETCH FIRST 1 ROWS WITH TIES', 'alice', demo())).toEqual([[2, 'xxx-xx-2222']]);
    expect(await rows('SELECT id, ssn FROM sales.orders ORDER BY ssn DESC FETCH FIRST 1 ROWS WITH TIES', 'erin', demo())).toEqual([[1, 'xxx-xx-1111']]);
  });

  it('dave: the table is missing, exactly as a table that does not exist', () => {
    const denied = refusal('SELECT id FROM sales.orders', 'dave', demo());
    const missing = refusal('SELECT id FROM sales.nosuch', 'dave', demo());
    expect({ code: denied.code, message: denied.message.replace('orders', 'X'), position: denied.position }).toEqual({
      code: missing.code,
      message: missing.message.replace('nosuch', 'X'),
      position: missing.position,
    });
    expect(denied).toMatchObject({ code: '42P01', message: 'relation "sales.orders" does not exist', position: 16 });
    expect(refusal('SELECT 1 FROM orders', 'dave', demo())).toMatchObject({ code: '42P01', message: 'relation "orders" does not exist', position: 15 });
  });

  it("predicates on a masked column see the masked value: WHERE ssn = '111-11-1111' matches nothing", async () => {
    expect(await rows("SELECT id FROM sales.orders WHERE ssn = '111-11-1111'", 'alice', demo())).toEqual([]);
    expect(await rows("SELECT id FROM sales.orders WHERE ssn = 'xxx-xx-1111'", 'alice', demo())).toEqual([[1]]);
    expect(await rows("SELECT id FROM sales.orders WHERE ssn = '111-11-1111'", 'carol', demo())).toEqual([[1]]);
    expect(await rows("SELECT count(*) FROM sales.orders WHERE substr(ssn, 1, 3) = '111' OR ssn || '' = '111-11-1111'", 'alice', demo())).toEqual([['0']]);
  });

  it('keeps every column name, type and position: SELECT * and the derived table agree', async () => {
    const { plan } = planFor('SELECT * FROM sales.orders', 'bob', demo());
    const described = await conn.runAndReadAll(`DESCRIBE ${plan.sql}`);
    expect(described.getRows().map((r) => [r[0], r[1]])).toEqual([
      ['id', 'INTEGER'],
      ['ssn', 'VARCHAR'],
      ['amount', 'DECIMAL(10,2)'],
      ['region', 'VARCHAR'],
    ]);
  });
});

describe('every place a table can stand is rewritten', () => {
  // erin sees one row (id 1) with ssn xxx-xx-1111; the table holds three.
  it.each([
    ['JOIN', 'SELECT a.id FROM sales.orders a JOIN sales.orders b ON a.id = b.id', [[1]]],
    ['LEFT JOIN from VALUES', 'SELECT v.x, o.id FROM (VALUES (1), (2)) v(x) LEFT JOIN sales.orders o ON o.id = v.x ORDER BY 1', [[1, 1], [2, null]]],
    ['subquery in FROM', 'SELECT id FROM (SELECT * FROM sales.orders) s', [[1]]],
    ['CTE', 'WITH c AS (SELECT * FROM sales.orders) SELECT id FROM c', [[1]]],
    ['CTE named like the table', 'WITH orders AS (SELECT * FROM sales.orders) SELECT id FROM orders', [[1]]],
    ['UNION ALL', 'SELECT id FROM sales.orders UNION ALL SELECT id FROM sales.orders', [[1], [1]]],
    ['EXCEPT', 'SELECT x FROM (VALUES (1), (2), (3)) v(x) EXCEPT SELECT id FROM sales.orders ORDER BY 1', [[2], [3]]],
    ['LATERAL', 'SELECT v.x, l.n FROM (VALUES (1)) v(x), LATERAL (SELECT count(*) AS n FROM sales.orders o WHERE o.id >= v.x) l', [[1, '1']]],
    ['EXISTS', 'SELECT x FROM (VALUES (2)) v(x) WHERE EXISTS (SELECT 1 FROM sales.orders WHERE id = v.x)', []],
    ['IN', 'SELECT x FROM (VALUES (1), (2)) v(x) WHERE x IN (SELECT id FROM sales.orders)', [[1]]],
    ['scalar subquery', 'SELECT (SELECT max(id) FROM sales.orders)', [[1]]],
    ['scalar subquery on a masked column', "SELECT (SELECT max(ssn) FROM sales.orders)", [['xxx-xx-1111']]],
    ['unqualified via search_path', 'SELECT id FROM orders', [[1]]],
    ['catalog-qualified', 'SELECT id FROM demo.sales.orders', [[1]]],
    ['aliased with column names', 'SELECT a FROM sales.orders AS o(a, b)', [[1]]],
  ])('%s', async (_what, sql, expected) => {
    expect(await rows(sql, 'erin', demo())).toEqual(expected);
  });

  it('a CTE that shadows the table name does not hide the table from the gate, nor the table from the CTE', async () => {
    // the unqualified name is the CTE; sales.orders is the (filtered) table
    expect(await rows('WITH orders AS (SELECT 99 AS id) SELECT o.id FROM sales.orders o, orders c ORDER BY 1', 'erin', demo())).toEqual([[1]]);
    expect(await rows('WITH orders AS (SELECT 99 AS id) SELECT id FROM orders', 'erin', demo())).toEqual([[99]]);
  });

  it('control: alice (no filter) sees all three rows in the same positions', async () => {
    expect(await rows('SELECT x FROM (VALUES (1), (2)) v(x) WHERE x IN (SELECT id FROM sales.orders) ORDER BY 1', 'alice', demo())).toEqual([[1], [2]]);
  });
});

describe('access: table and columns', () => {
  const policies = (extra: Record<string, unknown>[]) => ({ engine: engineOf(demoPolicies(extra)) });

  it('a grant on some columns only makes the table visible; the other columns are NULL of their type', async () => {
    const s = policies([P.allow('frank: id and region', 'sales', 'orders', 'id', { users: ['frank'] }), P.allow('frank region', 'sales', 'orders', 'region', { users: ['frank'] })]);
    expect(await rows(ORDERS, 'frank', s)).toEqual([
      [1, null, null, 'EU'],
      [2, null, null, 'US'],
      [3, null, null, 'APAC'],
    ]);
    const { plan } = planFor('SELECT * FROM sales.orders', 'frank', s);
    expect((await conn.runAndReadAll(`DESCRIBE ${plan.sql}`)).getRows().map((r) => r[1])).toEqual(['INTEGER', 'VARCHAR', 'DECIMAL(10,2)', 'VARCHAR']);
    // control: frank has nothing on sales.people
    expect(refusal('SELECT * FROM sales.people', 'frank', s).code).toBe('42P01');
  });

  it('a column denied is NULL; the same column for another analyst is not', async () => {
    const s = policies([P.deny('no ssn for gina', 'sales', 'orders', 'ssn', { users: ['gina'] })]);
    expect(await rows('SELECT id, ssn FROM sales.orders WHERE id = 1', 'gina', s)).toEqual([[1, null]]);
    expect(await rows('SELECT id, ssn FROM sales.orders WHERE id = 1', 'alice', s)).toEqual([[1, 'xxx-xx-1111']]);
  });

  it('a table deny hides the table, also from an analyst', async () => {
    const s = policies([P.deny('no orders for gina', 'sales', 'orders', '*', { users: ['gina'] })]);
    expect(refusal('SELECT 1 FROM sales.orders', 'gina', s).code).toBe('42P01');
    expect(await rows('SELECT count(*) FROM sales.orders', 'alice', s)).toEqual([['3']]);
  });

  it('restricted columns of types the grammar cannot name keep their type (INTEGER[])', async () => {
    const s = policies([P.deny('no tags', 'sales', 'people', 'tags', { users: ['alice'] })]);
    const { plan } = planFor('SELECT tags FROM sales.people', 'alice', s);
    expect((await conn.runAndReadAll(`DESCRIBE ${plan.sql}`)).getRows()[0]![1]).toBe('INTEGER[]');
    expect(await rows('SELECT tags FROM sales.people ORDER BY id', 'alice', s)).toEqual([[null], [null]]);
  });
});

describe('mask types through policies', () => {
  const people = (items: [string, string, string?][]) => ({
    engine: engineOf(demoPolicies(items.map(([column, type, value]) => P.mask(`${column} ${type}`, 'sales', 'people', column, [[{ users: ['alice'] }, type, value]])))),
  });

  it('MASK on a string and on a BIGINT, MASK_SHOW_FIRST_4, MASK_DATE_SHOW_YEAR, MASK_SHOW_LAST_4 on a TINYINT', async () => {
    const s = people([
      ['name', 'MASK'],
      ['salary', 'MASK'],
      ['owner', 'MASK_SHOW_FIRST_4'],
      ['born', 'MASK_DATE_SHOW_YEAR'],
      ['tiny', 'MASK_SHOW_LAST_4'],
    ]);
    // Hive: mask('Alice Smith') = 'Xxxxx Xxxxx'; mask(123456789) = 111111111; mask(-42) = -11;
    // mask_show_first_n('alice', 4) = 'alicx'; dates keep the year; 123 and -7 have ≤ 4 digits
    expect(await rows('SELECT name, salary, owner, born, tiny FROM sales.people ORDER BY id', 'alice', s)).toEqual([
      ['Xxxxx Xxxxx', '111111111', 'alicx', '1990-01-01', 123],
      ['Xxx Xxxxx', '-11', 'bob', '1985-01-01', -7],
    ]);
    const { plan } = planFor('SELECT salary, born, tiny FROM sales.people', 'alice', s);
    expect((await conn.runAndReadAll(`DESCRIBE ${plan.sql}`)).getRows().map((r) => r[1])).toEqual(['BIGINT', 'DATE', 'TINYINT']);
    // control: carol reads them as stored
    expect(await rows('SELECT name, salary FROM sales.people WHERE id = 1', 'carol', s)).toEqual([['Alice Smith', '123456789']]);
  });

  it('CUSTOM with {col}, other columns and folded session functions', async () => {
    const s = people([
      ['name', 'CUSTOM', "CASE WHEN owner = current_user THEN {col} ELSE concat(left({col}, 1), '***') END"],
      ['salary', 'CUSTOM', 'CASE WHEN is_role_in_session(\'engineer\') THEN {col} ELSE 0 END'],
    ]);
    expect(await rows('SELECT name, salary FROM sales.people ORDER BY id', 'alice', s)).toEqual([
      ['Alice Smith', '0'],
      ['B***', '0'],
    ]);
  });

  it('MASK_NULL keeps the type; a mask type the service does not define (trino:MASK_NULL) restricts the column', async () => {
    const s = people([
      ['salary', 'MASK_NULL'],
      ['name', 'trino:MASK_NULL'],
      ['owner', 'NO_SUCH_MASK'],
    ]);
    const { plan, statement } = planFor('SELECT name, salary, owner FROM sales.people', 'alice', s);
    expect((await conn.runAndReadAll(`DESCRIBE ${plan.sql}`)).getRows().map((r) => r[1])).toEqual(['VARCHAR', 'BIGINT', 'VARCHAR']);
    expect(await rows('SELECT name, salary, owner FROM sales.people', 'alice', s)).toEqual([[null, null, null], [null, null, null]]);
    const states = statement.applied[0]!.compiled.columns.map((c) => [c.name, c.state]);
    expect(states).toEqual(expect.arrayContaining([['name', 'restricted'], ['salary', 'masked'], ['owner', 'restricted']]));
  });

  it('a jsonb column (an Iceberg string with its type kept) reads as JSON; masked, it is the mask\'s text as a JSON string, never a document', async () => {
    const docs = (type: string) => ({ engine: engineOf(demoPolicies([P.mask(`doc ${type}`, 'sales', 'docs', 'doc', [[{ users: ['alice'] }, type]])])) });
    const s = docs('MASK');
    // Hive's mask: upper X, lower x, digits n, the rest kept
    expect(await rows('SELECT doc FROM sales.docs', 'alice', s)).toEqual([[JSON.stringify('{"x": "Xxn"}')]]);
    expect(await rows('SELECT doc FROM sales.docs', 'carol', s)).toEqual([['{"k": "Ab1"}']]);
    for (const user of ['alice', 'carol']) {
      const { plan } = planFor('SELECT doc FROM sales.docs', user, s);
      expect([user, (await conn.runAndReadAll(`DESCRIBE ${plan.sql}`)).getRows()[0]![1]]).toEqual([user, 'JSON']);
    }
    expect(await rows('SELECT doc FROM sales.docs', 'alice', docs('MASK_NULL'))).toEqual([[null]]);
  });

  it('MASK_HASH without a configured key restricts the column (never the raw value)', async () => {
    const s = { ...demo(), hashAvailable: false };
    expect(await rows('SELECT ssn FROM sales.orders WHERE id = 1', 'bob', s)).toEqual([[null]]);
  });

  it('a CUSTOM expression that does not check restricts the column', async () => {
    const s = people([['name', 'CUSTOM', '(SELECT max(ssn) FROM sales.orders)']]);
    expect(await rows('SELECT name FROM sales.people ORDER BY id', 'alice', s)).toEqual([[null], [null]]);
  });
});

describe('odd column names are quoted, never spliced', () => {
  it('masks and filters on names with spaces, capitals, quotes and DuckDB keywords', async () => {
    const s = {
      engine: engineOf(
        demoPolicies([
          P.mask('weird', 'sales', 'odd', 'Weird Name', [[{ users: ['alice'] }, 'MASK']]),
          P.mask('kw', 'sales', 'odd', 'columns', [[{ users: ['alice'] }, 'MASK_SHOW_FIRST_4']]),
          P.mask('mixed', 'sales', 'odd', 'MixedCase', [[{ users: ['alice'] }, 'MASK']]),
          P.mask('quote', 'sales', 'odd', 'quo"te', [[{ users: ['alice'] }, 'CUSTOM', "concat({col}, '!')"]]),
          P.filter('odd rows', 'sales', 'odd', [[{ users: ['alice'] }, '"MixedCase" > 0 AND "columns" IS NOT NULL']]),
        ]),
      ),
    };
    expect(await rows('SELECT "Weird Name", "columns", "MixedCase", "quo""te" FROM sales.odd', 'alice', s)).toEqual([['Xxn', 'Cd2', 11111, 'Ef3!']]);
    expect(await rows('SELECT * FROM sales.odd', 'carol', s)).toEqual([['Ab1', 'Cd2', 12345, 'Ef3']]);
  });
});

describe('row filters', () => {
  const filtered = (expr: string) => ({ engine: engineOf(demoPolicies([P.filter('people filter', 'sales', 'people', [[{ users: ['alice'] }, expr]])])) });

  it('folds current_user and is_role_in_session for the session', async () => {
    expect(await rows('SELECT id FROM sales.people ORDER BY id', 'alice', filtered('owner = current_user'))).toEqual([[1]]);
    expect(await rows('SELECT id FROM sales.people ORDER BY id', 'alice', filtered("is_role_in_session('analyst') AND id > 1"))).toEqual([[2]]);
    expect(await rows('SELECT id FROM sales.people ORDER BY id', 'alice', filtered("is_role_in_session('engineer')"))).toEqual([]);
    // LIKE goes through the dialect (PostgreSQL's backslash escape)
    expect(await rows('SELECT id FROM sales.people ORDER BY id', 'alice', filtered("name LIKE 'Bob%'"))).toEqual([[2]]);
  });

  it.each([
    ['does not parse', "region = 'EU"],
    ['is not boolean', '1'],
    ['reads another table', 'id IN (SELECT id FROM sales.secret)'],
    ['names an unknown column', "nope = 'x'"],
    ['calls a file function', "read_text('x') = ''"],
  ])('a filter that %s shows no rows', async (_why, expr) => {
    expect(await rows('SELECT id FROM sales.people', 'alice', filtered(expr))).toEqual([]);
    // control: the same table for carol (no filter)
    expect((await rows('SELECT id FROM sales.people', 'carol', filtered(expr))).length).toBe(2);
  });
});

describe('error oracles: the row filter is a fence', () => {
  it('every column of a filtered table is NULL on rows the filter removes, even evaluated without the WHERE', async () => {
    // a predicate that is not leakproof (a function call): the reference gets the fence
    const { statement } = planFor('SELECT * FROM sales.orders WHERE length(region) > 0', 'erin', demo());
    expect(statement.applied[0]!.fenced).toBe(true);
    const sub = structuredClone(statement.applied[0]!.compiled.subquery!) as Record<string, Record<string, unknown>>;
    delete sub['SelectStmt']!['whereClause']; // as if the engine evaluated a predicate below the filter
    const { deparse } = await import('../../sql/deparse.js');
    const all = (await conn.runAndReadAll(deparse(sub))).getRows();
    expect(all).toHaveLength(3);
    expect(all.filter((r) => r.some((v) => v !== null)).map((r) => r[0])).toEqual([1]);
  });

  it('a predicate that would fail on a hidden row does not fail (control: it fails for a user who sees the row)', async () => {
    // frank has a row filter (EU) and hank none; neither has a mask on ssn. Row 3's ssn is 'abc'.
    const s = {
      engine: engineOf(
        demoPolicies([
          P.filter('eu only', 'sales', 'orders', [[{ users: ['frank'] }, "region = 'EU'"]]),
          P.allow('frank and hank', 'sales', 'orders', '*', { users: ['frank', 'hank'] }),
        ]),
      ),
    };
    const sql = "SELECT id FROM sales.orders WHERE CAST(replace(ssn, '-', '') AS INTEGER) > 0";
    await expect(rows(sql, 'hank', s)).rejects.toThrow(/Could not convert string 'abc'/);
    expect(await rows(sql, 'frank', s)).toEqual([[1]]);
  });

  it('the materialized fence gives the same rows', async () => {
    const fenced = 'SELECT id, ssn, amount, region FROM sales.orders WHERE length(region) > 0 ORDER BY id';
    expect(await rows(fenced, 'erin', { ...demo(), fence: 'materialized' })).toEqual([[1, 'xxx-xx-1111', '100.00', 'EU']]);
    expect(planFor(fenced, 'erin', { ...demo(), fence: 'materialized' }).plan.sql).toContain('AS MATERIALIZED');
    // read only through leakproof predicates, the reference needs neither fence
    expect(await rows(ORDERS, 'erin', { ...demo(), fence: 'materialized' })).toEqual([[1, 'xxx-xx-1111', '100.00', 'EU']]);
    const open = planFor(ORDERS, 'erin', { ...demo(), fence: 'materialized' });
    expect(open.plan.sql).not.toContain('MATERIALIZED');
    expect(open.statement.applied[0]!.fenced).toBe(false);
  });
});

describe('tags', () => {
  const tagSource = (tags: Record<string, Record<string, string[]>> | null): ColumnTagSource => ({
    version: 1,
    tagsFor: (r) => (tags === null ? null : tags[`${r.database}.${r.table}`]),
  });
  const tagged = (precedence: 'tag' | 'resource', tags: Record<string, Record<string, string[]>> | null = { 'sales.orders': { ssn: ['PII'], region: ['GEO'] } }) => ({
    engine: engineOf(
      demoPolicies(
        [],
        [
          P.tagMask('PII masked', 'PII', [[{ roles: ['analyst'] }, 'MASK']]),
          P.tagFilter('GEO rows', 'GEO', [[{ users: ['erin', 'alice'] }, "region <> 'US'"]]),
        ],
      ),
    ),
    maskPrecedence: precedence,
    columnTags: tagSource(tags),
  });

  it('tag mask beats the resource mask by default; resource precedence inverts it', async () => {
    // alice: resource mask MASK_SHOW_LAST_4, tag mask MASK → Hive mask() wins
    expect(await rows('SELECT ssn FROM sales.orders WHERE id = 1', 'alice', tagged('tag'))).toEqual([['nnn-nn-nnnn']]);
    expect(await rows('SELECT ssn FROM sales.orders WHERE id = 1', 'alice', tagged('resource'))).toEqual([['xxx-xx-1111']]);
    // carol: resource MASK_NONE; with tag precedence the tag mask applies to her too
    expect(await rows('SELECT ssn FROM sales.orders WHERE id = 1', 'carol', tagged('tag'))).toEqual([['nnn-nn-nnnn']]);
    expect(await rows('SELECT ssn FROM sales.orders WHERE id = 1', 'carol', tagged('resource'))).toEqual([['111-11-1111']]);
  });

  it('tag row filters AND with resource row filters, in both precedence modes', async () => {
    for (const p of ['tag', 'resource'] as const) {
      // erin: resource region = 'EU' AND tag region <> 'US' → row 1; alice: tag filter only → rows 1 and 3
      expect(await rows('SELECT id FROM sales.orders ORDER BY id', 'erin', tagged(p))).toEqual([[1]]);
      expect(await rows('SELECT id FROM sales.orders ORDER BY id', 'alice', tagged(p))).toEqual([[1], [3]]);
      expect(await rows('SELECT count(*) FROM sales.orders', 'bob', tagged(p))).toEqual([['3']]);
    }
  });

  it('tags that cannot be read show no rows; a table the tags file does not list is unaffected', async () => {
    expect(await rows('SELECT id FROM sales.orders', 'carol', tagged('tag', null))).toEqual([]);
    expect(await rows('SELECT id FROM sales.orders', 'carol', tagged('tag', {}))).toHaveLength(3);
  });

  it("a table's own column tags (catalog) come before the file", async () => {
    const own = { ...catalog.getTable('sales', 'orders')!, columnTags: { ssn: ['PII'] } };
    const cat = { listSchemas: () => catalog.listSchemas(), getTable: (s: string, n: string) => (s === 'sales' && n === 'orders' ? own : catalog.getTable(s, n)) };
    const s = tagged('tag', {});
    const gate = new DataGate({ current: () => s.engine }, { maskPrecedence: 'tag', fence: 'case', hashAvailable: true, columnTags: s.columnTags, log: pino({ level: 'silent' }) });
    const sg = gate.begin({ user: 'alice', roles: new Set(['analyst']), groups: new Set() });
    const plan = planQuery(parseStatements('SELECT ssn FROM sales.orders WHERE id = 1')[0]!, ctx('alice', sg.catalog(cat)), { rewriteTables: (t, c, tree) => sg.rewrite(t, c, tree) });
    expect((await conn.runAndReadAll(plan.sql)).getRows()).toEqual([['nnn-nn-nnnn']]);
    // null: the catalog could not read them
    const unreadable = { ...own, columnTags: null };
    const sg2 = gate.begin({ user: 'carol', roles: new Set(['analyst', 'engineer', 'sqe_admin']), groups: new Set() });
    const cat2 = { listSchemas: () => catalog.listSchemas(), getTable: () => unreadable };
    const plan2 = planQuery(parseStatements('SELECT id FROM sales.orders')[0]!, ctx('carol', sg2.catalog(cat2)), { rewriteTables: (t, c, tree) => sg2.rewrite(t, c, tree) });
    expect((await conn.runAndReadAll(plan2.sql)).getRows()).toEqual([]);
  });
});

describe('failing closed', () => {
  it('no usable policy set: every table is missing', () => {
    expect(refusal('SELECT 1 FROM sales.orders', 'carol', { engine: null })).toMatchObject({ code: '42P01', message: 'relation "sales.orders" does not exist' });
  });

  it('a table that maps to no policy resource is missing', () => {
    const odd = { ...catalog.getTable('sales', 'orders')!, resource: { database: '', table: 'orders' } };
    const s = demo();
    const gate = new DataGate({ current: () => s.engine }, { maskPrecedence: 'tag', fence: 'case', hashAvailable: true, columnTags: null, log: pino({ level: 'silent' }) });
    const sg = gate.begin({ user: 'carol', roles: new Set(['analyst']), groups: new Set() });
    expect(() => planQuery(parseStatements('SELECT 1 FROM sales.orders')[0]!, ctx('carol', sg.catalog({ listSchemas: () => ['sales'], getTable: () => odd })), { rewriteTables: (t, c, tree) => sg.rewrite(t, c, tree) })).toThrow(
      expect.objectContaining({ code: '42P01' }),
    );
  });

  it('an error inside the rewriter fails the statement with 42501, never the unrewritten text', () => {
    const e = refusal('SELECT * FROM sales.orders', 'carol', { ...demo(), beforeApply: () => { throw new TypeError('injected fault'); } });
    expect(e).toMatchObject({ code: '42501', message: 'permission denied: the data policies of relation "sales.orders" could not be applied' });
  });

  it('a plan is valid only while its policy set is in force', () => {
    let engine: PolicyEngine | null = engineOf(demoPolicies());
    const gate = new DataGate({ current: () => engine }, { maskPrecedence: 'tag', fence: 'case', hashAvailable: true, columnTags: null, log: pino({ level: 'silent' }) });
    const sg = gate.begin({ user: 'alice', roles: new Set(['analyst']), groups: new Set() });
    expect(sg.valid()).toBe(true);
    engine = engineOf(demoPolicies());
    expect(sg.valid()).toBe(false);
    engine = null;
    expect(sg.valid()).toBe(false);
  });
});
