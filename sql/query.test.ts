import type { RelationCatalog } from './catalogView.js';
import type { PgNode } from './walk.js';
import { SqlError } from './errors.js';
import { loadParser, parseStatements } from './parse.js';
import { planQuery, type QueryContext } from './query.js';
import { toDuckDbSql } from './deparse.js';

const catalog: RelationCatalog = {
  listSchemas: () => ['public', 'sales'],
  getTable: (schema, name) =>
    schema === 'sales' && name === 'orders'
      ? {
          schema,
          name,
          // the demo table's columns: a reference to one the table lacks is 42703 at planning (sql/columnRefs.ts)
          columns: [
            { name: 'id', duckType: 'INTEGER', nullable: true },
            { name: 'ssn', duckType: 'VARCHAR', nullable: true },
            { name: 'amount', duckType: 'DECIMAL(10,2)', nullable: true },
            { name: 'region', duckType: 'VARCHAR', nullable: true },
          ],
          resource: { database: schema, table: name },
          scan: () => ({ RangeVar: { catalogname: 'demo', schemaname: schema, relname: name, inh: true, relpersistence: 'p' } }),
        }
      : undefined,
};

const ctx = (over: Partial<QueryContext> = {}): QueryContext => ({
  database: 'demo',
  searchPath: ['sales', 'public'],
  user: 'alice',
  settings: (n) => ({ server_version: '16.4 (lakegate)', application_name: 'psql' })[n],
  backendPid: 777,
  catalog,
  ...over,
});

beforeAll(async () => {
  await loadParser();
});

const plan = (sql: string, c = ctx()) => planQuery(parseStatements(sql)[0]!, c);

function refusal(sql: string, c = ctx()): SqlError {
  try {
    plan(sql, c);
  } catch (e) {
    if (e instanceof SqlError) return e;
    throw e;
  }
  throw new Error(`planned: ${sql}`);
}

describe('planQuery: deny by default', () => {
  it('control: an allowed query over the same table plans', () => {
    expect(plan('SELECT id FROM sales.orders').sql).toContain('demo.sales.orders AS orders');
  });

  it.each([
    ["SELECT * FROM read_parquet('/etc/passwd')", 'read_parquet'],
    ["SELECT * FROM read_csv_auto('/data/x.csv')", 'read_csv_auto'],
    ["SELECT * FROM glob('/**')", 'glob'],
    ['SELECT * FROM duckdb_secrets()', 'duckdb_secrets'],
    ["SELECT * FROM query('SELECT 1')", 'query'],
    ["SELECT * FROM query_table('sales.orders')", 'query_table'],
    ['SELECT duckdb_functions()', 'duckdb_functions'],
    ["SELECT read_text('/etc/passwd')", 'read_text'],
    ["SELECT sales.read_parquet('x')", 'sales.read_parquet'],
    ["SELECT lakegate_pg.pgc.format_type(23, -1)", 'lakegate_pg.pgc.format_type'],
  ])('%s → 42883 naming %s', (sql, name) => {
    const e = refusal(sql);
    expect(e.code).toBe('42883');
    // PostgreSQL's wording: the argument types where literals show them (sql/errors.ts), and its hint
    expect(e.message).toMatch(new RegExp(`^function ${name.replace(/\./g, '\\.')}\\(([a-z ,]*|…)\\) does not exist$`));
    expect(e.hint).toBe('No function matches the given name and argument types. You might need to add explicit type casts.');
    expect(e.position).toBeGreaterThan(0);
  });

  it("a function qualified with a schema the user has not is 3F000, as PostgreSQL looks the schema up first", () => {
    const e = refusal("SELECT main.read_parquet('x')");
    expect([e.code, e.message]).toEqual(['3F000', 'schema "main" does not exist']);
    // control: an existing schema leaves the function unknown (42883, above with sales.read_parquet)
    expect(refusal("SELECT pg_catalog.read_parquet('x')").code).toBe('42883');
  });

  it('tells table functions from scalar ones by position', () => {
    expect(plan('SELECT * FROM pg_catalog.pg_get_keywords()').sql).toContain('lakegate_pg.pgc.pg_get_keywords()');
    expect(refusal('SELECT pg_get_keywords()').code).toBe('42883');
    expect(refusal("SELECT * FROM lower('x')").code).toBe('42883');
    expect(plan('SELECT * FROM generate_series(1, 2)').sql).toContain('FROM generate_series(1, 2)');
    // (over integers, a derived table that types each value as PostgreSQL's integer: sql/dialect/numeric.ts)
    expect(plan('SELECT s FROM generate_series(1, 2) s').sql).toMatch(/FROM generate_series\(1, 2\) AS lg_series\(v\) \) AS s\(s\)/);
    expect(plan("SELECT s FROM generate_series(now(), now(), interval '1 day') s").sql).toContain("AS s(s)");
    // a table function keeps its own column names under an alias
    expect(plan('SELECT k.word FROM pg_catalog.pg_get_keywords() k').sql).toContain('pg_get_keywords() AS k');
    expect(plan('SELECT k.word FROM pg_catalog.pg_get_keywords() k').sql).not.toContain('AS k(k)');
  });

  it('refuses node kinds not on the allowlist with 0A000', () => {
    expect(refusal('SELECT * FROM sales.orders TABLESAMPLE SYSTEM (10)')).toMatchObject({ code: '0A000', message: 'TABLESAMPLE is not supported' });
    expect(refusal('SELECT * FROM sales.orders FOR UPDATE').code).toBe('0A000');
    expect(refusal('SELECT * INTO t2 FROM sales.orders').code).toBe('0A000');
    expect(refusal("SELECT xmlelement(name a)").code).toBe('0A000');
    expect(refusal('EXPLAIN (GENERIC_PLAN) SELECT * FROM sales.orders').message).toBe('EXPLAIN option GENERIC_PLAN is not supported');
    // ANALYZE is planned (server/planner.ts refuses any EXPLAIN over filtered or masked tables); COSTS/VERBOSE are dropped
    expect(plan('EXPLAIN ANALYZE SELECT * FROM sales.orders').sql).toMatch(/^EXPLAIN \(ANALYZE\) SELECT/);
    expect(plan('EXPLAIN (COSTS OFF, VERBOSE) SELECT 1').sql).toMatch(/^EXPLAIN SELECT 1/);
    expect(refusal('INSERT INTO sales.orders VALUES (1)').code).toBe('0A000');
  });

  it('checks set-operation arms, which libpg-query stores without a node wrapper', () => {
    expect(refusal("SELECT 1 UNION SELECT * FROM read_parquet('x') ").code).toBe('42883');
    expect(refusal('SELECT 1 UNION (SELECT 1 FOR UPDATE)').code).toBe('0A000');
    const p = plan('SELECT 1 UNION ALL (WITH orders AS (SELECT 2) SELECT * FROM sales.orders)');
    expect(p.tables).toHaveLength(1);
    expect(p.sql).toContain('demo.sales.orders AS orders');
  });

  it('refuses operators outside the list and schema-qualified operators', () => {
    expect(refusal('SELECT 1 <-> 2').code).toBe('42883');
    expect(refusal('SELECT 1 OPERATOR(main.+) 2').code).toBe('42883');
    expect(refusal('SELECT 1 OPERATOR(main.=) ANY (SELECT 1)').code).toBe('42883');
    expect(refusal('SELECT 1 <-> ANY (SELECT 1)').code).toBe('42883');
    // json operators are translated one by one (sql/dialect/json.ts); in a form it does not translate they are refused
    expect(refusal(`SELECT '{}'::json @> ANY (SELECT '{}'::json)`).code).toBe('0A000');
    expect(refusal(`SELECT '{}'::json -> ANY (ARRAY['a'])`).code).toBe('0A000');
    expect(refusal(`SELECT '{"a":1}'::json -> x FROM (SELECT 'a' AS x) t`).code).toBe('0A000');
    expect(plan('SELECT 1 OPERATOR(pg_catalog.=) ANY (SELECT 1)').sql).toContain('1 = ANY (SELECT 1');
  });

  it('refuses types PostgreSQL would not know and qualified user types', () => {
    expect(refusal("SELECT 'x'::main.sometype").code).toBe('42704');
    expect(refusal("SELECT 'x'::hugeint").message).toBe('type "hugeint" does not exist');
  });

  it('refuses other databases the way PostgreSQL does', () => {
    const e = refusal('SELECT * FROM other.sales.orders');
    expect([e.code, e.message]).toEqual(['0A000', 'cross-database references are not implemented: "other.sales.orders"']);
    expect(refusal('SELECT * FROM lakegate_pg.pgc.pg_class').code).toBe('0A000');
  });

  it('reports unknown relations as 42P01 with the position', () => {
    const e = refusal('SELECT * FROM nosuch');
    expect([e.code, e.message, e.position]).toEqual(['42P01', 'relation "nosuch" does not exist', 15]);
    expect(refusal('SELECT * FROM sales.nosuch').message).toBe('relation "sales.nosuch" does not exist');
    expect(refusal('SELECT * FROM pg_catalog.nosuch').message).toBe('relation "pg_catalog.nosuch" does not exist');
    // not on the search path → not found, as in PostgreSQL
    expect(refusal('SELECT * FROM orders', ctx({ searchPath: ['public'] })).code).toBe('42P01');
  });
});

describe('planQuery: names the deparser would print raw cannot smuggle SQL', () => {
  const injected = `x AS (SELECT * FROM read_parquet('/etc/passwd')), y`;

  it('a CTE name full of SQL never reaches DuckDB: CTEs get generated names', () => {
    const p = plan(`WITH "${injected}" AS (SELECT 1 AS a) SELECT t.a FROM "${injected}" t`);
    expect(p.sql).not.toContain('read_parquet');
    expect(p.sql).toBe('WITH lg_cte_1 AS (SELECT 1 AS a) SELECT t.a FROM lg_cte_1 AS t');
    const shadow = plan('WITH t AS (SELECT 1 AS a) SELECT * FROM (WITH t AS (SELECT 2 AS b) SELECT * FROM t) s, t');
    // the inner reference is the inner CTE, the outer one the outer CTE
    const m = /^WITH (lg_cte_\d) AS \(SELECT 1 AS a\) SELECT \* FROM \( ?WITH (lg_cte_\d) AS \(SELECT 2 AS b\) SELECT \* FROM (lg_cte_\d) AS t ?\) AS s, (lg_cte_\d) AS t$/.exec(shadow.sql);
    expect(m).not.toBeNull();
    expect([m![3], m![4]]).toEqual([m![2], m![1]]);
    expect(m![1]).not.toBe(m![2]);
  });

  it('window names and join aliases are quoted too', () => {
    const w = plan(`SELECT count(*) OVER "w) FROM read_parquet('x') --" FROM sales.orders WINDOW "w) FROM read_parquet('x') --" AS ()`);
    expect(w.sql).toContain(`OVER "w) FROM read_parquet('x') --"`);
    const j = plan(`SELECT 1 FROM (sales.orders a JOIN sales.orders b USING (id)) AS "j, read_parquet('x') r"`);
    expect(j.sql).toContain(`) "j, read_parquet('x') r"`);
  });

  it('EXPLAIN options take only known values', () => {
    expect(refusal(`EXPLAIN (FORMAT "json) SELECT * FROM read_parquet('x') --") SELECT 1`).code).toBe('0A000');
    expect(refusal(`EXPLAIN (VERBOSE "on) SELECT 1; --") SELECT 1`).code).toBe('0A000');
    expect(plan('EXPLAIN (FORMAT JSON, VERBOSE) SELECT 1').kind).toBe('explain');
  });

  it('control: a deparser quirk that changes the statement is refused, not sent', () => {
    // pgsql-deparser prints (ARRAY[1,2])[1] as ARRAY[1, 2][1], which PostgreSQL reads differently; the planner
    // now writes list_value(…) there (sql/dialect/dialect.ts), so the quirk is shown on the untranslated tree
    const raw = parseStatements('SELECT (ARRAY[1,2])[1]')[0]!.node;
    expect(() => toDuckDbSql(raw)).toThrow(/cannot be translated safely/);
    expect(plan('SELECT (ARRAY[1,2])[1]').sql).toContain('(list_value(1, 2))[1]');
  });
});

describe('planQuery: name resolution', () => {
  it('a CTE never satisfies a qualified reference', () => {
    const p = plan('WITH orders AS (SELECT 1 AS id) SELECT * FROM sales.orders');
    expect(p.sql).toContain('FROM demo.sales.orders AS orders');
    expect(p.tables.map((t) => `${t.schema}.${t.name}`)).toEqual(['sales.orders']);
  });

  it('an unqualified name in CTE scope is the CTE; outside its scope it is the table', () => {
    const p = plan('WITH orders AS (SELECT 1 AS id) SELECT * FROM orders');
    expect(p.tables).toHaveLength(0);
    // the CTE is not visible inside its own (non-recursive) body
    const q = plan('WITH orders AS (SELECT * FROM orders) SELECT * FROM orders');
    expect(q.tables).toHaveLength(1);
    // a sibling CTE sees the earlier one, not a later one
    expect(plan('WITH a AS (SELECT 1 AS id), b AS (SELECT * FROM a) SELECT * FROM b').tables).toHaveLength(0);
    expect(refusal('WITH b AS (SELECT * FROM a), a AS (SELECT 1 AS id) SELECT * FROM b').code).toBe('42P01');
  });

  it('resolves three-part, two-part and search_path names and keeps the alias', () => {
    expect(plan('SELECT o.id FROM demo.sales.orders o').sql).toContain('demo.sales.orders AS o');
    expect(plan('SELECT id FROM orders').sql).toContain('demo.sales.orders AS orders');
  });

  it('walks subqueries, joins, set operations and sublinks', () => {
    const p = plan(
      `SELECT * FROM (SELECT id FROM orders) s JOIN (sales.orders a JOIN orders b USING (id)) ON true
       WHERE EXISTS (SELECT 1 FROM orders) UNION SELECT id, id, id, id FROM demo.sales.orders`,
    );
    expect(p.tables).toHaveLength(5);
  });

  it('maps pg_catalog and information_schema, unqualified pg_ names included, to the emulation', () => {
    const p = plan('SELECT relname FROM pg_class c JOIN pg_catalog.pg_namespace n ON true, information_schema.tables');
    expect(p.sql).toContain('lakegate_pg.pgc.pg_class AS c');
    expect(p.sql).toContain('lakegate_pg.pgc.pg_namespace AS n');
    expect(p.sql).toContain('lakegate_pg.infs.tables AS tables');
  });
});

describe('planQuery: policy hook', () => {
  it('hands the resolved references to rewriteTables after the dialect pass, before deparsing', () => {
    const p = planQuery(parseStatements('SELECT o.id FROM sales.orders o WHERE id > 1')[0]!, ctx(), {
      rewriteTables: (tables) => {
        for (const t of tables) {
          const derived = parseStatements(`SELECT * FROM (SELECT id FROM demo.sales.orders WHERE id < 10) AS ${t.alias}`)[0]!;
          const from = (derived.node['SelectStmt']!['fromClause'] as Record<string, unknown>[])[0]!;
          for (const k of Object.keys(t.node)) delete t.node[k];
          Object.assign(t.node, from);
        }
      },
    });
    expect(p.sql).toMatch(/FROM \( ?SELECT id FROM demo\.sales\.orders WHERE id < 10 ?\) AS o WHERE id > 1/);
  });

  it("an Iceberg table's scan keeps its columns: under the user's alias, and inside a derived table under another", () => {
    const iceberg: RelationCatalog = {
      listSchemas: () => ['sales'],
      getTable: (schema, name) =>
        schema === 'sales' && name === 'orders'
          ? {
              schema,
              name,
              columns: [{ name: 'id', duckType: 'INTEGER', nullable: true }, { name: 'region', duckType: 'VARCHAR', nullable: true }],
              resource: { database: schema, table: name },
              scan: () => (parseStatements("SELECT * FROM iceberg_scan('/wh/m.json')")[0]!.node['SelectStmt']!['fromClause'] as PgNode[])[0]!,
            }
          : undefined,
    };
    expect(plan('SELECT o.id FROM sales.orders o', ctx({ catalog: iceberg })).sql).toContain("FROM iceberg_scan('/wh/m.json') AS o(id, region)");
    const p = planQuery(parseStatements('SELECT o.id FROM sales.orders o')[0]!, ctx({ catalog: iceberg }), {
      rewriteTables: (tables) => {
        for (const t of tables) {
          // as the data gate does: the scan under an alias of its own, inside the derived table
          const scan = t.table.scan();
          scan['RangeFunction']!['alias'] = { aliasname: 'lg_src' };
          const derived = parseStatements(`SELECT * FROM (SELECT lg_src.id FROM x AS lg_src) AS ${t.alias}`)[0]!;
          const from = (derived.node['SelectStmt']!['fromClause'] as PgNode[])[0]!;
          const inner = from['RangeSubselect']!['subquery']['SelectStmt'];
          inner['fromClause'] = [scan];
          for (const k of Object.keys(t.node)) delete t.node[k];
          Object.assign(t.node, from);
        }
      },
    });
    expect(p.sql).toMatch(/FROM iceberg_scan\('\/wh\/m\.json'\) AS lg_src \) AS o$/);
  });
});

describe('planQuery: dialect', () => {
  it('folds session functions to literals from the context', () => {
    const p = plan(
      "SELECT current_user, session_user, current_role, user, current_catalog, current_database(), current_schema, version(), current_setting('application_name'), pg_backend_pid()",
    );
    expect(p.sql).toContain("'alice' AS \"current_user\"");
    expect(p.sql).toContain("'demo' AS \"current_catalog\"");
    expect(p.sql).toContain("'sales' AS \"current_schema\"");
    expect(p.sql).toContain("'PostgreSQL 16.4 (lakegate 0.1.0) on x86_64-pc-linux-gnu, 64-bit' AS version");
    expect(p.sql).not.toMatch(/node|v\d+\.\d+/);
    expect(p.sql).toContain("'psql' AS current_setting");
    expect(p.sql).toContain('777 AS pg_backend_pid');
    expect(refusal("SELECT current_setting('nope')")).toMatchObject({ code: '42704', message: 'unrecognized configuration parameter "nope"' });
    expect(plan("SELECT current_setting('nope', true)").sql).toContain('NULL');
  });

  it('current_schemas: implicit pg_catalog only when asked, existing schemas only', () => {
    expect(plan('SELECT current_schemas(true)', ctx({ searchPath: ['$user', 'sales'] })).sql).toContain("ARRAY['pg_catalog', 'sales']");
    expect(plan('SELECT current_schemas(false)', ctx({ searchPath: ['$user', 'sales'] })).sql).toContain("ARRAY['sales']");
  });

  it('strips pg_catalog from types, operators and functions; drops the default collation', () => {
    const p = plan("SELECT x::pg_catalog.text, 'a' OPERATOR(pg_catalog.~) '^a' COLLATE pg_catalog.default, pg_catalog.lower('A') FROM (SELECT 1 AS x) t");
    expect(p.sql).not.toContain('pg_catalog');
    expect(p.sql).not.toContain('COLLATE');
    expect(p.sql).toContain("regexp_matches('a', '^a')");
    expect(refusal("SELECT 'a' COLLATE \"de_DE\"").code).toBe('0A000');
  });

  it('turns PostgreSQL array literals into arrays for ANY / ALL / = and casts', () => {
    expect(plan("SELECT 'a' = ANY('{a,\"b c\",NULL}')").sql).toContain("= ANY (ARRAY['a', 'b c', NULL])");
    expect(plan("SELECT 'w' <> ALL('{x,y}'::text[])").sql).toContain("ARRAY['x', 'y']");
  });

  it('resolves reg* literals to emulation OIDs and reg* columns through output functions', () => {
    expect(plan("SELECT relname FROM pg_class WHERE oid IN ('pg_class'::regclass, 'pg_catalog.pg_namespace'::pg_catalog.regclass)").sql).toMatch(/1259.*2615/);
    // what the statement itself prints is the name, as regclass's output function writes it
    expect(plan("SELECT 'pg_class'::regclass, 'pg_catalog.pg_namespace'::pg_catalog.regclass").sql).toBe("SELECT 'pg_class' AS regclass, 'pg_namespace' AS regclass");
    // …and a regtype its name as format_type writes it; inside an expression it is the OID
    expect(plan("SELECT 'int4'::regtype, 'text[]'::regtype").sql).toBe("SELECT 'integer' AS regtype, 'text[]' AS regtype");
    expect(plan("SELECT 'int4'::regtype = 23, 'text[]'::regtype::oid").sql).toMatch(/23 = 23.*1009/);
    expect(plan("SELECT 'pg_catalog.array_in'::regproc").sql).toContain("'array_in'");
    expect(plan("SELECT 'pg_catalog'::regnamespace").sql).toContain('11');
    expect(refusal("SELECT 'nosuch'::regclass").code).toBe('42P01');
    expect(refusal("SELECT 'a.b.c.d'::regclass")).toMatchObject({ code: '42601', message: 'improper relation name (too many dotted names): a.b.c.d' });
    expect(plan('SELECT oid::regclass FROM pg_class').sql).toContain('lakegate_pg.pgc.lg_regclass(oid');
  });

  it('names output columns as PostgreSQL does before rewriting', () => {
    const p = plan("SELECT pg_catalog.format_type(23, -1), 1 + 1, (SELECT 1 AS z), count(*), 'x'::text, CASE WHEN true THEN 1 END");
    expect(p.sql).toContain('AS format_type');
    expect(p.sql).toContain('AS "?column?"');
    expect(p.sql).toContain('AS z');
    expect(p.sql).toContain('AS count');
    expect(p.sql).toContain('AS text');
    expect(p.sql).toContain('AS "case"');
  });

  it('refuses malformed bytea input as PostgreSQL does', () => {
    expect(refusal("SELECT '\\xabc'::bytea")).toMatchObject({ code: '22P02', message: 'invalid input syntax for type bytea' });
  });

  it('GROUP BY / ORDER BY a name that is both a FROM alias and an output column means the output column', () => {
    const p = plan('SELECT s.name AS s, count(*) FROM (SELECT 1 AS name) s GROUP BY s ORDER BY s');
    expect(p.sql).toMatch(/GROUP BY 1 ORDER BY 1$/);
    // a plain output alias that is no FROM alias is left to the engine, which agrees with PostgreSQL there
    expect(plan('SELECT id AS k FROM orders GROUP BY k').sql).toMatch(/GROUP BY k$/);
  });

  it('runs scalar generate_series as rows', () => {
    // the list typed as PostgreSQL types the series (integer here: sql/dialect/numericMacros.ts lg_gsl2)
    expect(plan('SELECT generate_series(1, 5)').sql).toMatch(/unnest\(\S+\.lg_gsl2\(generate_series\(1, 5\), 5, 1\)\)/);
  });

  it('plans EXPLAIN of a query', () => {
    const p = plan('EXPLAIN SELECT * FROM orders');
    expect(p.kind).toBe('explain');
    expect(p.sql).toContain('EXPLAIN');
    expect(p.sql).toContain('demo.sales.orders');
  });
});

describe('planQuery: an unknown function is reported as PostgreSQL reports it', () => {
  it.each([
    ["SELECT to_char(date '2024-01-01')", 'function to_char(date) does not exist'],
    ["SELECT nosuch(1, 'a', 2.5, true, NULL)", 'function nosuch(integer, unknown, numeric, boolean, unknown) does not exist'],
    ["SELECT nosuch('1'::int8, 'x'::text, now()::timestamptz)", 'function nosuch(bigint, text, timestamp with time zone) does not exist'],
    ['SELECT nosuch()', 'function nosuch() does not exist'],
    // a column's type is known only once bound: not guessed
    ['SELECT nosuch(id) FROM sales.orders', 'function nosuch(…) does not exist'],
  ])('%s', (sql, message) => {
    const e = refusal(sql);
    expect(e.code).toBe('42883');
    expect(e.message).toBe(message);
    expect(e.hint).toBe('No function matches the given name and argument types. You might need to add explicit type casts.');
  });
});

describe('planQuery: a user expression holding a subquery is never copied', () => {
  // the data gate rewrites the table references resolution found; a copy's references would read the stored rows
  it.each([
    "SELECT (SELECT id FROM sales.orders) LIKE ANY (ARRAY['1%', '2%'])",
    "SELECT 'x' LIKE (SELECT region FROM sales.orders)",
    "SELECT format('%5s', (SELECT region FROM sales.orders))",
    "SELECT regexp_matches((SELECT region FROM sales.orders), '(a)(b)')",
  ])('%s → 0A000', (sql) => {
    expect(refusal(sql).code).toBe('0A000');
  });

  it('control: the same forms without a subquery are planned, with one table reference each', () => {
    const p = planQuery(parseStatements("SELECT region LIKE ANY (ARRAY['1%', '2%']), format('%5s', region) FROM sales.orders")[0]!, ctx());
    expect(p.tables).toHaveLength(1);
    expect(p.sql).toContain("region LIKE '1%' OR region LIKE '2%'");
    expect(plan("SELECT (SELECT region FROM sales.orders) LIKE ANY (ARRAY['E%'])").sql).toContain('SELECT region');
  });
});

describe('planQuery: a session function outside its own kind of SELECT says what lakegate lacks', () => {
  it.each([
    ['SELECT 1, pg_sleep(0.1)', 'pg_sleep'],
    ["SELECT id, set_config('application_name', 'x', false) FROM sales.orders", 'set_config'],
    ['SELECT pg_catalog.txid_current() + 1', 'txid_current'],
  ])('%s', (sql, name) => {
    const e = refusal(sql);
    expect([e.code, e.message]).toEqual(['0A000', `${name}() outside a SELECT list made only of session-function calls with constant arguments is not supported`]);
  });
  it('control: a schema-qualified namesake elsewhere is an unknown function', () => {
    expect(refusal('SELECT sales.pg_sleep(1)').code).toBe('42883');
  });
});
