import {
  EMULATED_ARRAY_COLUMNS,
  EMULATED_FUNCTIONS,
  EMULATED_TABLE_FUNCTIONS,
  EMULATION_DB,
  INFORMATION_SCHEMA_RELATIONS,
  INTERNAL_MACROS,
  PG_CATALOG_RELATIONS,
} from '../sql/emulation.js';
import { DUCKDB_BUILTINS, RENAMED_FUNCTIONS, SYNTAX_ONLY_FUNCTIONS } from '../sql/functions.js';
import { CATALOG_COLUMN_TYPES } from '../sql/catalogColumnTypes.js';
import { EMPTY_TABLES } from './pgCatalogTables.js';
import { regprocOid } from '../sql/pgTypes.js';
import { PGJDBC, PSQL } from './fixtures/clientQueries.js';
import { startDemoEngine, type DemoEngine } from '../tests/support/demoEngine.js';

let engine: DemoEngine;

beforeAll(async () => {
  engine = await startDemoEngine();
});

describe('installPgCatalog', () => {
  it('creates every relation the planner maps to', async () => {
    for (const name of Object.keys(PG_CATALOG_RELATIONS)) {
      const r = await engine.query(`SELECT count(*) FROM pg_catalog.${name}`);
      expect(r.rows).toHaveLength(1);
    }
    for (const name of Object.keys(INFORMATION_SCHEMA_RELATIONS)) {
      const r = await engine.query(`SELECT count(*) FROM information_schema.${name}`);
      expect(r.rows).toHaveLength(1);
    }
  });

  it('names in its regproc columns only functions whose OID the wire knows (regproc binary is the OID)', async () => {
    const unknown: string[] = [];
    for (const [relation, columns] of Object.entries(CATALOG_COLUMN_TYPES)) {
      for (const [column, oid] of Object.entries(columns)) {
        if (oid !== 24) continue;
        const r = await engine.query(`SELECT DISTINCT ${column} FROM ${relation}`);
        // an object kind lakegate has none of (pg_operator, pg_amproc …) names no function at all
        if (EMPTY_TABLES.some((t) => `pg_catalog.${t.name}` === relation)) continue;
        expect(r.rows.length).toBeGreaterThan(0);
        for (const row of r.rows) if (row[0] !== null && regprocOid(String(row[0])) === undefined) unknown.push(`${relation}.${column}: ${row[0]}`);
      }
    }
    expect(unknown).toEqual([]);
  });

  it('creates every function the planner redirects to', async () => {
    const r = await engine.conn.runAndReadAll(
      `SELECT DISTINCT function_name FROM duckdb_functions() WHERE database_name = '${EMULATION_DB}'`,
    );
    const have = new Set(r.getRowsJson().map((row) => String(row[0])));
    const missing = [...Object.keys(EMULATED_FUNCTIONS), ...EMULATED_TABLE_FUNCTIONS, ...Object.values(INTERNAL_MACROS)].filter(
      (f) => !have.has(f),
    );
    expect(missing).toEqual([]);
  });

  it('every built-in on the allowlist exists in DuckDB under the name the planner uses', async () => {
    const r = await engine.conn.runAndReadAll('SELECT DISTINCT function_name FROM duckdb_functions()');
    const have = new Set(r.getRowsJson().map((row) => String(row[0])));
    const missing = DUCKDB_BUILTINS.map((f) => RENAMED_FUNCTIONS[f] ?? f).filter((f) => !SYNTAX_ONLY_FUNCTIONS.has(f) && !have.has(f));
    expect(missing).toEqual([]);
    const syntax = await engine.query(
      "SELECT every(true), btrim('xax', 'x'), extract(year from date '2024-03-01'), percentile_disc(0.5) within group (order by 1), cardinality(ARRAY[1, 2, 3])",
    );
    expect(syntax.rows).toEqual([['true', 'a', '2024', '1', '3']]);
  });

  it('lists the table with stable OIDs, PostgreSQL types and attnum from 1', async () => {
    const r = await engine.query(
      `SELECT c.oid, a.attnum, a.attname, a.atttypid, a.atttypmod, format_type(a.atttypid, a.atttypmod)
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_attribute a ON a.attrelid = c.oid
        WHERE n.nspname = 'sales' AND c.relname = 'orders' ORDER BY a.attnum`,
    );
    expect(r.rows.map((x) => x.slice(1))).toEqual([
      ['1', 'id', '23', '-1', 'integer'],
      ['2', 'ssn', '25', '-1', 'text'],
      ['3', 'amount', '1700', String(((10 << 16) | 2) + 4), 'numeric(10,2)'],
      ['4', 'region', '25', '-1', 'text'],
    ]);
    // derived from names, so a second engine (another process) agrees
    const again = await startDemoEngine();
    const r2 = await again.query(`SELECT oid FROM pg_class WHERE relname = 'orders'`);
    expect(r2.rows[0]![0]).toBe(r.rows[0]![0]);
    expect(Number(r.rows[0]![0])).toBeGreaterThanOrEqual(16384);
  });

  it('format_type takes PostgreSQL OIDs (DuckDB’s own takes its internal ids)', async () => {
    const r = await engine.query(
      `SELECT format_type(23, -1), format_type(701, NULL), format_type(1043, 14), format_type(1007, -1), format_type(1700, -1), format_type(NULL, -1)`,
    );
    expect(r.rows[0]).toEqual(['integer', 'double precision', 'character varying(10)', 'integer[]', 'numeric', null]);
  });

  it('pg_table_is_visible follows the session search_path', async () => {
    const q = `SELECT pg_table_is_visible(oid) FROM pg_class WHERE relname = 'orders'`;
    expect((await engine.query(q, ['sales'])).rows).toEqual([['true']]);
    expect((await engine.query(q, ['public'])).rows).toEqual([['false']]);
    expect((await engine.query(`SELECT pg_table_is_visible('pg_class'::regclass)`, ['public'])).rows).toEqual([['true']]);
  });

  it('regclass: literal to OID, OID back to the name (qualified when not visible)', async () => {
    const lit = await engine.query(`SELECT 'sales.orders'::regclass = oid FROM pg_class WHERE relname = 'orders'`);
    expect(lit.rows).toEqual([['true']]);
    const q = `SELECT oid::regclass::text, 'pg_class'::regclass::text FROM pg_class WHERE relname = 'orders'`;
    expect((await engine.query(q, ['public'])).rows).toEqual([['sales.orders', 'pg_class']]);
    expect((await engine.query(q, ['sales'])).rows[0]![0]).toBe('orders');
  });

  it('regex operators match anywhere, as in PostgreSQL (DuckDB’s ~ is a full match)', async () => {
    const r = await engine.query(`SELECT 'pg_toast_temp' ~ '^pg_toast', 'abc' ~ 'b', 'ABC' ~* 'b', 'abc' !~ 'b', 'x' !~* 'X'`);
    expect(r.rows).toEqual([['true', 'true', 'true', 'false', 'false']]);
  });

  it('LIKE escapes with a backslash by default, as in PostgreSQL', async () => {
    const r = await engine.query(
      `SELECT 'pg_catalog' LIKE 'pg\\_%', 'pgxcatalog' LIKE 'pg\\_%', 'a%' LIKE 'a!%' ESCAPE '!', 'PG_X' ILIKE 'pg\\_%',
              'pg_catalog' NOT LIKE 'pg\\_%', 'x' ~~ 'x', 'a\\b' LIKE 'a\\b' ESCAPE ''`,
    );
    expect(r.rows).toEqual([['true', 'false', 'true', 'true', 'false', 'true', 'true']]);
  });

  it('the planner knows every array column of the emulation', async () => {
    const r = await engine.conn.runAndReadAll(
      `SELECT DISTINCT column_name FROM duckdb_columns() WHERE database_name = '${EMULATION_DB}' AND data_type LIKE '%[]'`,
    );
    expect(r.getRowsJson().map((row) => String(row[0])).sort()).toEqual([...EMULATED_ARRAY_COLUMNS].sort());
  });

  it('a {…} string compared with a user column stays a string', async () => {
    const r = await engine.query(`SELECT count(*) FROM sales.orders WHERE region = '{"a": 1}' OR region <> '{EU}'`);
    expect(r.rows).toEqual([['2']]);
  });

  it('string array literals work with ANY, ALL and =', async () => {
    const r = await engine.query(
      `SELECT 'b' = ANY('{a,b}'), 'c' <> ALL('{a,b}'::text[]), relname, relacl = '{}' IS NULL FROM pg_class WHERE relname = ANY('{orders,nope}')`,
    );
    expect(r.rows).toEqual([['true', 'true', 'orders', 'true']]);
  });

  it('current_schemas, current_setting and version() come from the session', async () => {
    const r = await engine.query(
      `SELECT (current_schemas(true))[1], array_upper(current_schemas(false), 1), current_setting('server_version'), version() LIKE 'PostgreSQL 16.4 %'`,
      ['sales', 'nosuch', 'public'],
    );
    expect(r.rows).toEqual([['pg_catalog', '2', '16.4 (lakegate)', 'true']]);
  });

  it('pg_settings carries the values clients read', async () => {
    const r = await engine.query(
      `SELECT name, setting FROM pg_settings WHERE name IN ('standard_conforming_strings', 'max_index_keys', 'server_version', 'search_path') ORDER BY name`,
      ['sales'],
    );
    expect(r.rows).toEqual([
      ['max_index_keys', '32'],
      ['search_path', 'sales'],
      ['server_version', '16.4 (lakegate)'],
      ['standard_conforming_strings', 'on'],
    ]);
  });

  it('a CTE named like the table does not shadow sales.orders (reads the real rows)', async () => {
    const r = await engine.query(`WITH orders AS (SELECT 99 AS id) SELECT id FROM sales.orders ORDER BY id`);
    expect(r.rows).toEqual([['1'], ['2']]);
    const cte = await engine.query(`WITH orders AS (SELECT 99 AS id) SELECT id FROM orders`, ['sales']);
    expect(cte.rows).toEqual([['99']]);
  });

  it('scalar generate_series returns rows and a table alias names its column', async () => {
    expect((await engine.query('SELECT generate_series(1, 3)')).rows).toEqual([['1'], ['2'], ['3']]);
    const r = await engine.query(`SELECT string_agg(CAST(s AS text), ',') FROM pg_catalog.generate_series(1, 3) s`);
    expect(r.rows).toEqual([['1,2,3']]);
  });

  it('schema-qualified column references bind to the rewritten table', async () => {
    const r = await engine.query('SELECT sales.orders.id, demo.sales.orders.region FROM demo.sales.orders ORDER BY 1');
    expect(r.rows).toEqual([['1', 'EU'], ['2', 'US']]);
  });

  it('VALUES columns are column1, column2 … as in PostgreSQL', async () => {
    const r = await engine.query("VALUES (1, 'a'), (2, 'b') ORDER BY 1");
    expect(r).toEqual({ columns: ['column1', 'column2'], rows: [['1', 'a'], ['2', 'b']] });
  });

  it('bytea literals are read in PostgreSQL\'s hex and escape formats', async () => {
    const r = await engine.query("SELECT octet_length('\\x0aff'::bytea), octet_length('a\\000b\\\\'::bytea), '\\x0aff'::bytea = '\\012\\377'::bytea");
    expect(r.rows).toEqual([['2', '4', 'true']]);
  });

  it('division and modulo by zero raise, as PostgreSQL does, instead of giving NULL', async () => {
    // PostgreSQL's answers: numeric division to 16 decimals, integer division truncates
    expect((await engine.query('SELECT 7.0 / 2, 7 % 2, 7 / 2, -7 / 2')).rows).toEqual([['3.5000000000000000', '1', '3', '-3']]);
    await expect(engine.query('SELECT 1 / 0')).rejects.toThrow(/division by zero/);
    await expect(engine.query('SELECT id % 0 FROM sales.orders')).rejects.toThrow(/division by zero/);
  });

  it('numeric casts of literals keep their digits; length of bytea counts bytes', async () => {
    const r = await engine.query("SELECT '12345.678'::numeric, 0.5::numeric, length('\\x0001ff'::bytea), length('abc')");
    expect(r.rows).toEqual([['12345.678', '0.5', '3', '3']]);
  });

  it('output column names follow PostgreSQL', async () => {
    const r = await engine.query(`SELECT pg_catalog.format_type(23, -1), 1 + 1, count(*), current_user FROM pg_class`);
    expect(r.columns).toEqual(['format_type', '?column?', 'count', 'current_user']);
  });

  it.each(Object.entries(PSQL).flatMap(([cmd, qs]) => qs.map((q, i) => [`${cmd} #${i + 1}`, q] as const)))(
    'psql %s plans and runs',
    async (_name, q) => {
      const oid = (await engine.query(`SELECT oid FROM pg_class WHERE relname = 'orders'`)).rows[0]![0]!;
      await expect(engine.query(q.replaceAll('{{OID}}', oid), ['sales'])).resolves.toBeDefined();
    },
  );

  it.each(Object.entries(PGJDBC))('pgJDBC %s plans and runs', async (_name, q) => {
    await expect(engine.query(q, ['sales'])).resolves.toBeDefined();
  });
});
