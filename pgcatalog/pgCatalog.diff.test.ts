/**
 * Differential test: the captured psql 15 and pgJDBC 42.5.5 catalog queries
 * run on a real PostgreSQL holding the same table and, through planQuery, on
 * DuckDB with the emulation. The meaningful columns must agree. PostgreSQL
 * is required: without its binaries startPostgres() rejects and this fails.
 */
import pg from 'pg';
import { INFORMATION_SCHEMA_RELATIONS, PG_CATALOG_RELATIONS } from '../sql/emulation.js';
import { ALLOWED_FUNCTION_NAMES } from '../sql/functions.js';
import { DBT, PGJDBC, PGJDBC_SQL_KEYWORDS, PSQL, PSQL_MORE } from './fixtures/clientQueries.js';
import { PG_KEYWORDS, PG_PROC_ROWS, PG_PROC_TYPES } from './pgBuiltins.js';
import { PG_KEYWORDS_QUERY, PG_PROC_QUERY, PG_PROC_TYPES_QUERY, procTypeOids } from './pgProc.js';
import { startEngineBesidePostgres, type DemoEngine, type EngineBesidePostgres } from '../tests/support/demoEngine.js';

type Rows = { columns: string[]; rows: (string | null)[][] };

let pair: EngineBesidePostgres;
let client: pg.Client;
let engine: DemoEngine;

const norm = (v: unknown): string | null =>
  v === null || v === undefined ? null : typeof v === 'object' ? JSON.stringify(v) : String(v);

async function onPostgres(sql: string, searchPath: string[]): Promise<Rows> {
  await client.query(`SET search_path = ${searchPath.map((s) => (s === '$user' ? '"$user"' : s)).join(', ')}`);
  const r = await client.query({ text: sql, rowMode: 'array' });
  return { columns: r.fields.map((f) => f.name), rows: (r.rows as unknown[][]).map((row) => row.map(norm)) };
}

/** Both sides, projected to the columns that mean the same thing on both (owner names and OIDs differ by design). */
async function both(sql: string, searchPath: string[], cols?: number[]): Promise<[Rows, Rows]> {
  const [a, b] = [await onPostgres(sql, searchPath), await engine.query(sql, searchPath)];
  const pick = (r: Rows): Rows =>
    cols ? { columns: cols.map((i) => r.columns[i]!), rows: r.rows.map((row) => cols.map((i) => row[i] ?? null)) } : r;
  return [pick(a), pick(b)];
}

beforeAll(async () => {
  pair = await startEngineBesidePostgres();
  ({ client, engine } = pair);
}, 120000);

afterAll(async () => {
  await pair?.stop();
});

describe('psql 15 meta-commands agree with PostgreSQL', () => {
  it.each([
    ['\\dt', ['sales']],
    ['\\dt', ['$user', 'public']],
    ['\\dt sales.*', ['$user', 'public']],
  ] as const)('%s (search_path %j): schema, name, type', async (cmd, path) => {
    const [want, got] = await both(PSQL[cmd]![0]!, [...path], [0, 1, 2]);
    expect(got).toEqual(want);
  });

  it('\\dn: schema names', async () => {
    const [want, got] = await both(PSQL['\\dn']![0]!, ['public'], [0]);
    expect(got).toEqual(want);
  });

  it('\\l: the database row (name, encoding, collation, locale provider)', async () => {
    const [want, got] = await both(PSQL['\\l']![0]!, ['public'], [0, 2, 3, 4, 5, 6]);
    expect(got.columns).toEqual(want.columns);
    expect(got.rows).toEqual(want.rows.filter((r) => r[0] === 'demo'));
  });

  it.each([
    ['\\d sales.orders', ['$user', 'public']],
    ['\\d orders', ['sales']],
  ] as const)('%s: every query psql sends', async (cmd, path) => {
    const [lookup, ...rest] = PSQL[cmd]!;
    const pgLookup = await onPostgres(lookup!, [...path]);
    const ours = await engine.query(lookup!, [...path]);
    expect(ours.columns).toEqual(pgLookup.columns);
    expect(ours.rows.map((r) => r.slice(1))).toEqual(pgLookup.rows.map((r) => r.slice(1)));
    expect(ours.rows).toHaveLength(1);
    for (const q of rest) {
      const want = await onPostgres(q.replaceAll('{{OID}}', pgLookup.rows[0]![0]!), [...path]);
      const got = await engine.query(q.replaceAll('{{OID}}', ours.rows[0]![0]!), [...path]);
      expect({ q, columns: got.columns }).toEqual({ q, columns: want.columns });
      expect({ q, rows: got.rows }).toEqual({ q, rows: want.rows });
    }
  });
});

describe('pgJDBC 42.5.5 DatabaseMetaData agrees with PostgreSQL', () => {
  it.each(['getSchemas', 'getTables', 'getColumns', 'getPrimaryKeys', 'getImportedKeys', 'getIndexInfo', 'maxIndexKeys'])(
    '%s',
    async (name) => {
      const [want, got] = await both(PGJDBC[name]!, ['public']);
      expect(got.columns).toEqual(want.columns);
      expect(got.rows).toEqual(want.rows);
    },
  );
});

describe('emulated relations have PostgreSQL’s columns, in order', () => {
  /** lakegate advertises PostgreSQL 16; the reference server may be 15, which lacks these. */
  const PG16_ONLY = new Set([
    'pg_database.daticurules', 'pg_collation.collicurules',
    'pg_auth_members.oid', 'pg_auth_members.inherit_option', 'pg_auth_members.set_option',
  ]);
  const relations = [
    ...Object.keys(PG_CATALOG_RELATIONS).map((n) => ['pg_catalog', n] as const),
    ...Object.keys(INFORMATION_SCHEMA_RELATIONS).map((n) => ['information_schema', n] as const),
  ];
  it.each(relations)('%s.%s', async (schema, name) => {
    const want = (await onPostgres(`SELECT * FROM ${schema}.${name} LIMIT 0`, ['public'])).columns;
    const got = (await engine.query(`SELECT * FROM ${schema}.${name} LIMIT 0`)).columns;
    expect(got.filter((c) => !(PG16_ONLY.has(`${name}.${c}`) && !want.includes(c)))).toEqual(want);
  });
});

describe('dbt-postgres introspection agrees with PostgreSQL', () => {
  it.each(Object.keys(DBT))('%s', async (name) => {
    const [want, got] = await both(DBT[name]!, ['sales']);
    if (name === 'listSchemas') {
      // unordered in both; PostgreSQL also has pg_toast, which the emulation does not invent
      expect([...got.rows].sort()).toEqual([...want.rows].filter((r) => r[0] !== 'pg_toast').sort());
      return;
    }
    expect(got).toEqual(want);
  });
});

describe('information_schema and pg_tables agree with PostgreSQL', () => {
  it.each([
    `select column_name, data_type, character_maximum_length, numeric_precision, numeric_scale, is_nullable, ordinal_position
       from information_schema.columns where table_schema = 'sales' and table_name = 'orders' order by ordinal_position`,
    `select table_catalog, table_schema, table_name, table_type from information_schema.tables where table_schema = 'sales'`,
    `select catalog_name, schema_name from information_schema.schemata where schema_name in ('sales', 'public') order by 2`,
    `select schemaname, tablename from pg_catalog.pg_tables where schemaname = 'sales'`,
    `select distinct nspname from pg_namespace where nspname = 'sales'`,
    `select typname, typinput, typoutput, typreceive, typsend, typlen, typtype, typcategory, typelem, typarray, typdelim,
            typbyval, typalign, typstorage, typcollation, typbasetype, typtypmod, typndims, typnotnull, typispreferred, typrelid
       from pg_type where oid in (16, 17, 19, 20, 21, 23, 25, 26, 114, 700, 701, 1007, 1009, 1043, 1082, 1083, 1114, 1184, 1186, 1266, 1562, 1700, 2950) order by oid`,
    `select relname, relkind, relam, relpersistence, relnatts, relchecks, relhasindex, relhasrules, relhastriggers,
            relhassubclass, relrowsecurity, relforcerowsecurity, relispopulated, relreplident, relispartition,
            reltablespace, reloftype, relpages, reltuples, relallvisible, relacl, reloptions, relpartbound,
            relowner = (select datdba from pg_database where datname = current_database()) as owned_by_db_owner
       from pg_class where oid = 'sales.orders'::regclass`,
    `select n.nspname, n.nspacl, c.relnamespace = n.oid from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relname = 'orders'`,
    `select attname, atttypid, attlen, attnum, atttypmod, attbyval, attalign, attstorage, attnotnull, attcollation, attndims
       from pg_attribute where attrelid = 'sales.orders'::regclass and attnum > 0 order by attnum`,
    `select typinput = 'pg_catalog.array_in'::regproc as is_array, typname from pg_type where typname in ('_int4', 'int4') order by 1, 2`,
    // pgcli's function completion: an oidvector and an oid[] as regtype[], regtype compared as OIDs, pseudo-types by name
    `select proname, proargtypes::regtype[]::text[], coalesce(proallargtypes::regtype[], proargtypes::regtype[])::text[]
       from pg_proc where proname in ('split_part', 'now', 'jsonb_each', 'array_length', 'concat') order by 1, 2`,
    `select count(*) > 0, count(*) = count(*) filter (where p.prorettype::regtype != 'trigger'::regtype),
            count(*) filter (where p.prorettype::regtype = 'timestamp with time zone'::regtype), count(*) filter (where 'text'::regtype = p.prorettype::regtype) from pg_proc p where proname in ('split_part', 'now')`,
    `select format_type(2277, null), format_type(2276, null), format_type(5077, null)`,
  ])('%s', async (sql) => {
    const [want, got] = await both(sql, ['public']);
    expect(got).toEqual(want);
  });
});

describe('pg_proc and the keywords are PostgreSQL\'s own', () => {
  it('PG_PROC_ROWS equals what PostgreSQL answers for the allowlisted names', async () => {
    const r = await client.query({ text: PG_PROC_QUERY, values: [[...ALLOWED_FUNCTION_NAMES].sort()], rowMode: 'array' });
    expect(JSON.parse(JSON.stringify(PG_PROC_ROWS))).toEqual(r.rows);
  });

  it('PG_PROC_TYPES names every type the rows name, as format_type does', async () => {
    const oids = procTypeOids(PG_PROC_ROWS);
    const r = await client.query({ text: PG_PROC_TYPES_QUERY, values: [oids], rowMode: 'array' });
    expect(r.rows.length).toBe(oids.length);
    expect(JSON.parse(JSON.stringify(PG_PROC_TYPES))).toEqual(r.rows);
  });

  it('PG_KEYWORDS equals pg_get_keywords()', async () => {
    const r = await client.query({ text: PG_KEYWORDS_QUERY, rowMode: 'array' });
    expect(JSON.parse(JSON.stringify(PG_KEYWORDS))).toEqual(r.rows);
  });

  it('pgJDBC\'s getSQLKeywords query answers the same list', async () => {
    const [want, got] = await both(PGJDBC_SQL_KEYWORDS, ['public']);
    expect(got.rows[0]![0]).not.toBeNull();
    expect(got).toEqual(want);
  });

  it('to_regtype: names, aliases and arrays as PostgreSQL resolves them, NULL for an unknown type', async () => {
    const sql = "SELECT to_regtype('int4')::oid::int8, to_regtype('integer')::oid::int8, to_regtype('pg_catalog.text')::oid::int8, to_regtype('character varying')::oid::int8, to_regtype('int8[]')::oid::int8, to_regtype('numeric')::oid::int8, to_regtype('nosuchtype')::oid::int8";
    const [want, got] = await both(sql, ['public']);
    expect(got.rows).toEqual(want.rows);
  });
});

describe('psql 15 meta-commands of issue 10 agree with PostgreSQL', () => {
  it('\\df lower: schema, name, result, arguments, type of every overload', async () => {
    const [want, got] = await both(PSQL_MORE['\\df lower']!, ['public']);
    expect(got.rows.length).toBe(3);
    expect(got).toEqual(want);
  });

  it('\\df+ upper: everything but the owner', async () => {
    const [want, got] = await both(PSQL_MORE['\\df+ upper']!, ['public'], [0, 1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12]);
    expect(got).toEqual(want);
  });

  it.each(['\\du', '\\l+', '\\dp sales.*', '\\dconfig'])('%s: the columns psql reads', async (cmd) => {
    const [want, got] = await both(PSQL_MORE[cmd]!, ['public']);
    expect(got.columns).toEqual(want.columns);
  });

  it('\\l+: the demo row but its size (object storage: not known here)', async () => {
    const [want, got] = await both(PSQL_MORE['\\l+']!, ['public'], [0, 2, 3, 4, 5, 6, 7, 9]);
    expect(got.rows).toEqual(want.rows.filter((r) => r[0] === 'demo'));
  });

  it('\\dp sales.*: the table, its type and no column privileges or policies', async () => {
    const [want, got] = await both(PSQL_MORE['\\dp sales.*']!, ['public'], [0, 1, 2, 4, 5]);
    expect(got).toEqual(want);
  });
});
