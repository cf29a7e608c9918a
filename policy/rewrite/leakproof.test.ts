/**
 * The fence only where it is needed (fence.ts, leakproof.ts), on a real
 * DuckDB. frank reads sales.oracle through a row filter (region = 'EU') that
 * hides row 2; hank reads it without one (the control). Row 2 holds the
 * values a predicate could trip over: code 'abc' (not a number), amount
 * 1000.00 (too wide for DECIMAL(38,36)), d 300000-01-01 (beyond TIMESTAMP).
 *
 * Leakproof statements leave the fence off and give frank exactly his rows.
 * Every statement that could fail on a row keeps the fence: frank gets his
 * rows without an error, and hank, who may see row 2, gets the error row 2
 * causes — the error frank would get if the fence were not there.
 */
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { duckSql } from '../../tests/support/demoEngine.js';
import { loadDuckDbCatalog, type Catalog } from '../../catalog/catalog.js';
import { installPgCatalog } from '../../pgcatalog/pgCatalog.js';
import type { RelationCatalog } from '../../sql/catalogView.js';
import { parseStatements } from '../../sql/parse.js';
import type { PgNode } from '../../sql/walk.js';
import { demoDuckDb, installGateMacros, gateRows, planWithGate, type GateSetup } from '../../tests/support/dataGate.js';
import { P, rangerRoles, servicePolicies } from '../../tests/support/rangerPolicies.js';
import { PolicyEngine } from '../ranger/engine.js';
import { parseRangerRoles, parseServicePolicies } from '../ranger/model.js';
import { RoleStore } from '../ranger/roles.js';
import { FenceAnalysis } from './fence.js';
import { comparable, validDate, validTimestamp } from './leakproof.js';

let instance: DuckDBInstance;
let conn: DuckDBConnection;
let catalog: Catalog;

beforeAll(async () => {
  ({ instance, conn } = await demoDuckDb());
  await conn.run(
    'CREATE TABLE demo.sales.oracle (id INTEGER, code VARCHAR, amount DECIMAL(10,2), d DATE, ts TIMESTAMP, n BIGINT, f DOUBLE, flag BOOLEAN, region VARCHAR)',
  );
  await conn.run(`INSERT INTO demo.sales.oracle VALUES
    (1, '5', 5.00, DATE '2000-01-01', TIMESTAMP '2000-01-01 10:00:00', 3000000000, 1.5, true, 'EU'),
    (2, 'abc', 1000.00, DATE '300000-01-01', TIMESTAMP '2000-01-01 10:00:00', 7, 0.0, false, 'US')`);
  await conn.run('CREATE TABLE demo.sales.other (id INTEGER, n BIGINT, code VARCHAR)');
  await conn.run(`INSERT INTO demo.sales.other VALUES (1, 5, 'x'), (2, 7, 'y'), (2, 8, 'z')`);
  await installGateMacros(conn, 'leakproof-test-mask-key-01');
  catalog = await loadDuckDbCatalog(duckSql(conn), 'demo');
  await installPgCatalog(conn, { database: 'demo', catalog }); // PostgreSQL's division (an error on zero) is one of its macros
});

afterAll(() => {
  conn.closeSync();
  instance.closeSync();
});

const doc = servicePolicies('lakehouse', [
  P.allow('everyone reads sales', 'sales', '*', '*', { users: ['frank', 'hank', 'mia', 'nina'] }),
  P.filter('frank and mia see EU rows', 'sales', 'oracle', [[{ users: ['frank', 'mia'] }, "region = 'EU'"]]),
  // a mask that fails on 'abc': evaluated with a predicate below the filter, it would tell that row 2 exists
  P.mask('code as a number', 'sales', 'oracle', 'code', [[{ users: ['mia', 'nina'] }, 'CUSTOM', 'CAST(CAST({col} AS INTEGER) AS VARCHAR)']]),
]);
const setup = (extra: Partial<GateSetup> = {}): GateSetup => ({
  engine: new PolicyEngine(parseServicePolicies(doc, 'test'), { roles: new RoleStore(parseRangerRoles(rangerRoles('lakehouse', {}), 'test')) }),
  ...extra,
});

/** Whether each reference to sales.oracle got the fence, in the order they appear. */
function fences(sql: string, user = 'frank', extra: Partial<GateSetup> = {}, cat: RelationCatalog = catalog): boolean[] {
  const { statement } = planWithGate(cat, sql, user, setup(extra));
  return statement.applied.filter((a) => a.table.name === 'oracle').map((a) => a.fenced);
}

const rows = (sql: string, user: string, cat: RelationCatalog = catalog) => gateRows(conn, cat, sql, user, setup());

describe('leakproof predicates: no fence, and exactly the rows of the filter', () => {
  it.each([
    "code = '5'",
    "code <> 'x' AND code IN ('5', 'abc')",
    "code LIKE '5%' AND code NOT LIKE 'a%' AND code ILIKE '%5'",
    'code IS NOT NULL',
    'amount BETWEEN 1 AND 10',
    'amount > 0.5 AND amount < 1 + 10 AND amount BETWEEN 0.06 - 0.01 AND 100',
    "d < DATE '2001-01-01' AND d < '2001-01-01' AND d = CAST('2000-01-01' AS date)",
    "ts > DATE '1999-12-31' AND ts < '2000-01-01 12:00:00'",
    'n = 3000000000 AND n > 2',
    'f > 1 AND f > 1.25',
    // double arithmetic stays leakproof with the planner's typed literals and subtraction (sql/numericTypes.ts)
    'f * 2 > 1 AND f - f < 1 AND f - 0.5 > 0',
    'flag AND flag IS TRUE AND NOT flag = false',
    "id = 1 OR code = 'abc'",
    'id IS DISTINCT FROM 2',
    'EXISTS (SELECT 1 FROM sales.other t WHERE t.id = oracle.id)',
    'id IN (SELECT id FROM sales.other) AND n NOT IN (SELECT n FROM sales.other)',
    'amount < (SELECT avg(n) FROM sales.other)',
    'amount <= (SELECT avg(n) FROM sales.other t WHERE t.id = oracle.id)',
  ])('WHERE %s', async (predicate) => {
    const sql = `SELECT id FROM sales.oracle WHERE ${predicate} ORDER BY id`;
    expect(fences(sql)).toEqual([false]);
    expect(await rows(sql, 'frank')).toEqual([[1]]);
  });

  it('joins on compatible types, USING, derived tables and CTEs of stored columns, HAVING on aggregates', async () => {
    for (const sql of [
      "SELECT oracle.id FROM sales.oracle JOIN sales.other t ON t.id = oracle.id WHERE t.code = 'x'",
      "SELECT id FROM sales.oracle JOIN sales.other t USING (id) WHERE t.code = 'x'",
      "SELECT id FROM (SELECT id, code AS c FROM sales.oracle) s WHERE c = '5'",
      "WITH s AS (SELECT id, code FROM sales.oracle) SELECT id FROM s WHERE code = '5'",
      'SELECT id FROM sales.oracle GROUP BY id HAVING sum(amount) > 1 AND count(*) = 1',
    ]) {
      expect({ sql, fences: fences(sql) }).toEqual({ sql, fences: [false] });
      expect(await rows(sql, 'frank')).toEqual([[1]]);
    }
  });

  it('parameters take the column type at Bind, before a row is read', () => {
    expect(fences('SELECT id FROM sales.oracle WHERE id = $1 AND code = $2')).toEqual([false]);
    // a parameter declared as int4 is an int4: compared with a VARCHAR column, the column is cast
    expect(fences('SELECT id FROM sales.oracle WHERE code = $1::int4')).toEqual([true]);
  });

  it('without leakproof pushdown every filtered reference keeps the fence', () => {
    expect(fences("SELECT id FROM sales.oracle WHERE code = '5'", 'frank', { leakproofPushdown: false })).toEqual([true]);
  });

  it('a table read through a table function (as iceberg_scan reads Iceberg tables) is judged the same way', async () => {
    const base = catalog.getTable('sales', 'oracle')!;
    const node = (parseStatements("SELECT * FROM query_table('demo.sales.oracle')")[0]!.node['SelectStmt']!['fromClause'] as PgNode[])[0]!;
    const scan = () => structuredClone(node); // each use its own copy, as catalog/iceberg/tables.ts gives
    const scanned: RelationCatalog = {
      listSchemas: () => catalog.listSchemas(),
      getTable: (schema, name) => (schema === 'sales' && name === 'oracle' ? { ...base, scan } : catalog.getTable(schema, name)),
    };
    const leakproof = "SELECT o.id FROM sales.oracle o WHERE o.code = '5'";
    expect(fences(leakproof, 'frank', {}, scanned)).toEqual([false]);
    expect(await rows(leakproof, 'frank', scanned)).toEqual([[1]]);
    const failing = 'SELECT o.id FROM sales.oracle o WHERE o.code::int = 5';
    expect(fences(failing, 'frank', {}, scanned)).toEqual([true]);
    expect(await rows(failing, 'frank', scanned)).toEqual([[1]]);
    await expect(rows(failing, 'hank', scanned)).rejects.toThrow(/Could not convert string/);
  });

  it('a table without a row filter never gets a fence', () => {
    expect(fences('SELECT id FROM sales.oracle WHERE code::int = 5', 'hank')).toEqual([false]);
  });
});

describe('predicates that may fail keep the fence: frank gets his rows, the control (hank) the error of the hidden row', () => {
  it.each<[string, string, unknown[][], RegExp]>([
    ['a string column compared with a number is cast', 'SELECT id FROM sales.oracle WHERE code = 5', [[1]], /Could not convert string/],
    ['an explicit cast', 'SELECT id FROM sales.oracle WHERE code::int = 5', [[1]], /Could not convert string/],
    ['a division', 'SELECT id FROM sales.oracle WHERE 10 / (amount - 1000) < 0', [[1]], /division by zero/],
    // typed arithmetic (sql/numericTypes.ts): date - date is PostgreSQL's integer, n - 7 types its literal by n
    ['a date difference as a divisor', "SELECT id FROM sales.oracle WHERE 10 / (d - DATE '300000-01-01') <= 0", [[1]], /division by zero/],
    ['a bigint less an integer literal as a divisor', 'SELECT id FROM sales.oracle WHERE 10 / (n - 7) < 1', [[1]], /division by zero/],
    ['a DATE compared with a TIMESTAMP column casts the date', 'SELECT id FROM sales.oracle WHERE d < ts', [[1]], /can't be cast|timestamp range/],
    ['a decimal literal whose common type cannot hold every value', 'SELECT id FROM sales.oracle WHERE amount > 0.123456789012345678901234567890123456', [[1]], /out of range/],
    ['a join on a string and a number', 'SELECT oracle.id FROM sales.oracle JOIN sales.other t ON oracle.code = t.n', [[1]], /Could not convert string/],
    ['a derived table whose column is a cast', 'SELECT id FROM (SELECT id, code::int AS k FROM sales.oracle) s WHERE k = 5', [[1]], /Could not convert string/],
    ['a CTE whose column is a cast', 'WITH s AS (SELECT id, code::int AS k FROM sales.oracle) SELECT id FROM s WHERE k = 5', [[1]], /Could not convert string/],
    ['an output alias DuckDB binds in WHERE', 'SELECT id FROM (SELECT id, code::int AS k FROM sales.oracle WHERE k = 5) s', [[1]], /Could not convert string/],
    ['a correlated subquery comparing with a cast', 'SELECT id FROM sales.oracle WHERE EXISTS (SELECT 1 FROM sales.other t WHERE t.n = oracle.code::int)', [[1]], /Could not convert string/],
    ['a scalar subquery that may return two rows', 'SELECT id FROM sales.oracle WHERE id = 2 AND code = (SELECT t.code FROM sales.other t WHERE t.id = oracle.id)', [], /More than one row/],
  ])('%s', async (_why, sql, frankRows, error) => {
    expect(fences(sql)).toEqual([true]);
    expect(await rows(sql, 'frank')).toEqual(frankRows);
    await expect(rows(sql, 'hank')).rejects.toThrow(error);
  });

  it('a masked column: the mask is evaluated with the predicate (control: nina, the same mask without a filter)', async () => {
    for (const sql of ["SELECT id FROM sales.oracle WHERE code = '5'", 'SELECT id FROM sales.oracle WHERE code::int = 5']) {
      expect(fences(sql, 'mia')).toEqual([true]);
      expect(await rows(sql, 'mia')).toEqual([[1]]);
      await expect(rows(sql, 'nina')).rejects.toThrow(/Could not convert string/);
    }
    // a predicate that does not read the masked column needs no fence
    expect(fences("SELECT id, code FROM sales.oracle WHERE region = 'EU'", 'mia')).toEqual([false]);
  });

  it.each([
    ['a literal DuckDB cannot read (it fails on each row that reaches it)', "SELECT id FROM sales.oracle WHERE region = 'US' AND d = '2000-13-01'"],
    ['constant arithmetic that overflows', 'SELECT id FROM sales.oracle WHERE n = 2147483647 + 1'],
    ['decimal multiplication (DuckDB checks it for overflow)', 'SELECT id FROM sales.oracle WHERE amount * amount > 1'],
    ['numeric arithmetic on avg (numeric in PostgreSQL, a checked decimal in DuckDB)', 'SELECT id FROM sales.oracle WHERE amount < (SELECT 0.2 * avg(n) FROM sales.other t WHERE t.id = oracle.id) * 1000'],
    ['arithmetic on stddev or variance (exact numerics: checked decimals)', 'SELECT id FROM sales.oracle WHERE amount < (SELECT stddev(n) * 1000 + variance(amount) FROM sales.other t WHERE t.id = oracle.id)'],
    ['a DATE compared with a timestamp literal or date + interval', "SELECT id FROM sales.oracle WHERE d < TIMESTAMP '2001-01-01' OR d < DATE '2001-01-01' + INTERVAL '1 day'"],
    ['a function call', 'SELECT id FROM sales.oracle WHERE length(code) = 1'],
    ['CASE and COALESCE', "SELECT id FROM sales.oracle WHERE coalesce(code, 'x') = '5' AND CASE WHEN id = 1 THEN true END"],
    ['LIKE with a pattern read from the row (the engine translates it, and a trailing escape fails on that row)', "SELECT id FROM sales.oracle WHERE code LIKE region || '\\'"],
    ['IN (subquery) of another type', 'SELECT id FROM sales.oracle WHERE code IN (SELECT n FROM sales.other)'],
    ['USING on columns of other types', 'SELECT id FROM sales.oracle JOIN (SELECT id, n AS code FROM sales.other) t USING (code)'],
    ['a string literal compared with a number column', "SELECT id FROM sales.oracle WHERE n = '7'"],
    ['a window partition read from outside', 'SELECT id FROM (SELECT id, code::int AS k, row_number() OVER (PARTITION BY code::int) AS r FROM sales.oracle) s WHERE k = 5'],
  ])('%s', (_why, sql) => {
    expect(fences(sql)).toEqual([true]);
  });

  it.each([
    ['HAVING on an output alias (DuckDB reads it, PostgreSQL does not)', 'SELECT code::int AS k FROM sales.oracle GROUP BY 1 HAVING k > 0', 'k'],
    ['an unknown name', 'SELECT id FROM sales.oracle WHERE nothing_like_this = 1', 'nothing_like_this'],
  ])('%s: refused as PostgreSQL refuses it (42703) before it is planned, so no row is read to fence', (_why, sql, name) => {
    expect(() => fences(sql)).toThrow(expect.objectContaining({ code: '42703', message: `column "${name}" does not exist` }));
  });

  it('a failing conjunct bound to no column of its SELECT fences every reference of it: it could run after leakproof conjuncts on hidden rows', async () => {
    for (const sql of [
      "SELECT id FROM sales.oracle WHERE region = 'US' AND CAST('x' AS INTEGER) = 1",
      "SELECT o.id FROM sales.oracle o, sales.other t WHERE o.region = 'US' AND t.id = o.id AND (SELECT code FROM sales.other) = 'x'",
      "SELECT id FROM sales.oracle o WHERE EXISTS (SELECT 1 FROM sales.other t WHERE t.id = o.id AND o.code::int = 5)",
    ]) {
      expect({ sql, fences: fences(sql) }).toEqual({ sql, fences: [true] });
    }
    // the control: hank reaches the failing constant only because a row with region 'US' exists
    await expect(rows("SELECT id FROM sales.oracle WHERE region = 'US' AND CAST('x' AS INTEGER) = 1", 'hank')).rejects.toThrow(/Could not convert/);
    expect(await rows("SELECT id FROM sales.oracle WHERE region = 'XX' AND CAST('x' AS INTEGER) = 1", 'hank')).toEqual([]);
    expect(await rows("SELECT id FROM sales.oracle WHERE region = 'US' AND CAST('x' AS INTEGER) = 1", 'frank')).toEqual([]);
    // a failing comparison of aggregates reads no stored row and is placed after the aggregation
    expect(fences('SELECT id FROM sales.oracle GROUP BY id HAVING sum(amount) / 0 > 1')).toEqual([false]);
  });

  it('only the references a failing predicate may read keep the fence', () => {
    expect(fences('SELECT a.id FROM sales.oracle a, sales.oracle b WHERE a.id = b.id AND b.code::int = 5')).toEqual([false, true]);
    // through a subquery's correlation, the outer reference is read too
    expect(fences('SELECT a.id FROM sales.oracle a WHERE EXISTS (SELECT 1 FROM sales.oracle b WHERE b.code::int = a.id)')).toEqual([true, true]);
    // an aggregate is computed from rows that passed the filter: a failing comparison with it reads no stored row
    expect(fences('SELECT id FROM sales.oracle GROUP BY id HAVING sum(amount) / 0 > 1')).toEqual([false]);
    // …stddev and variance too, which the planner writes as the emulation's exact macros (sql/dialect.ts)
    expect(fences('SELECT id FROM sales.oracle GROUP BY id HAVING stddev(amount) / 0 > 1 OR var_pop(n) > 1 OR stddev_pop(n) > 1 OR variance(n) > 1')).toEqual([false]);
    // …and round(avg(f)), whose overload a probe of avg chooses (the probe is never evaluated)
    expect(fences('SELECT id FROM sales.oracle GROUP BY id HAVING round(avg(f)) / 0 > 1 AND round(avg(amount)) > 1')).toEqual([false]);
  });
});

describe('the pieces', () => {
  it('dates and timestamps DuckDB reads whatever the session', () => {
    expect(['2000-02-29', '0001-01-01', '9999-12-31'].every(validDate)).toBe(true);
    expect(['1900-02-29', '2000-13-01', '2000-1-1', '10000-01-01', '2000-01-01 '].some(validDate)).toBe(false);
    expect(['2000-01-01', '2000-01-01 23:59:59.123456', '2000-01-01T00:00'].every(validTimestamp)).toBe(true);
    expect(['2000-01-01 24:00', '2000-01-01 10:00+02', '2000-01-01 10:00:00.1234567'].some(validTimestamp)).toBe(false);
  });

  it('decimal comparisons: the common type must hold every value', () => {
    const dec = (width: number, scale: number) => ({ k: 'value' as const, type: { t: 'decimal' as const, width, scale }, literal: false });
    expect(comparable([dec(38, 2), { k: 'intlit', digits: 20, value: 10n ** 19n }])).toBe(true);
    expect(comparable([dec(38, 2), { k: 'declit', width: 5, scale: 3 }])).toBe(false);
    expect(comparable([dec(15, 2), { k: 'declit', width: 3, scale: 2 }, { k: 'declit', width: 30, scale: 0 }])).toBe(true);
    expect(comparable([dec(30, 2), { k: 'declit', width: 35, scale: 0 }, { k: 'declit', width: 6, scale: 5 }])).toBe(false);
    expect(comparable([{ k: 'value', type: { t: 'int', digits: 19 }, literal: false }, { k: 'declit', width: 21, scale: 20 }])).toBe(false);
  });

  it('a reference the analysis does not meet keeps its fence (a statement that is not a SELECT, a reference it cannot place)', () => {
    const a = new FenceAnalysis<string>(() => undefined, () => new Map(), ['r1', 'r2']);
    a.run(parseStatements('SHOW search_path')[0]!.node);
    expect([...a.fenced]).toEqual(['r1', 'r2']);
    const b = new FenceAnalysis<string>(() => undefined, () => new Map(), ['r1']);
    b.run(parseStatements("SELECT 1 FROM sales.oracle WHERE code = '5'")[0]!.node);
    expect([...b.fenced]).toEqual(['r1']);
  });
});
