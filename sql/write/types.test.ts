/**
 * PostgreSQL's column types as an Iceberg table is created with them, and
 * the types of a query's columns (as DuckDB itself prints them) for CREATE
 * TABLE AS. Expected: Iceberg's types as the write spike measured DuckDB's
 * iceberg extension accepting them (it refuses TINYINT, SMALLINT, the
 * unsigned integers, INTERVAL, JSON, TIME WITH TIME ZONE, BIT, ENUM, fixed
 * ARRAY and TIMESTAMP_NS), every produced type checked to be one DuckDB
 * creates a column with.
 */
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { loadParser, parseStatements } from '../parse.js';
import { SqlError } from '../errors.js';
import type { Fields } from '../walk.js';
import { columnTypeFor, icebergColumnFor } from './types.js';

let instance: DuckDBInstance;
let conn: DuckDBConnection;

beforeAll(async () => {
  await loadParser();
  instance = await DuckDBInstance.create(':memory:');
  conn = await instance.connect();
});

afterAll(() => {
  conn.closeSync();
  instance.closeSync();
});

/** The TypeName of a column declared `type` in CREATE TABLE. */
function typeName(type: string): Fields {
  const stmt = parseStatements(`create table t (c ${type})`)[0]!;
  return stmt.node['CreateStmt']!['tableElts'][0]['ColumnDef']['typeName'] as Fields;
}

const refusal = (f: () => unknown): SqlError => {
  try {
    f();
  } catch (e) {
    if (e instanceof SqlError) return e;
    throw e;
  }
  throw new Error('not refused');
};

/** DuckDB's own name for a type (as duckdb_columns prints it), after creating a column with it. */
async function created(duckType: string): Promise<string> {
  await conn.run(`CREATE OR REPLACE TABLE probe (c ${duckType})`);
  const r = await conn.runAndReadAll("SELECT data_type FROM duckdb_columns() WHERE table_name = 'probe'");
  return String(r.getRows()[0]![0]);
}

describe('CREATE TABLE columns: PostgreSQL → Iceberg', () => {
  it.each([
    ['boolean', 'BOOLEAN'],
    ['smallint', 'INTEGER'],
    ['int2', 'INTEGER'],
    ['integer', 'INTEGER'],
    ['bigint', 'BIGINT'],
    ['real', 'FLOAT'],
    ['float8', 'DOUBLE'],
    ['double precision', 'DOUBLE'],
    ['float(10)', 'FLOAT'],
    ['float(40)', 'DOUBLE'],
    ['numeric(10,2)', 'DECIMAL(10,2)'],
    ['numeric(12)', 'DECIMAL(12,0)'],
    ['numeric', 'DECIMAL(38,9)'],
    ['decimal(38,38)', 'DECIMAL(38,38)'],
    ['text', 'VARCHAR'],
    ['varchar(10)', 'VARCHAR'],
    ['character varying', 'VARCHAR'],
    ['char(3)', 'VARCHAR'],
    ['name', 'VARCHAR'],
    ['bytea', 'BLOB'],
    ['date', 'DATE'],
    ['time', 'TIME'],
    ['timestamp', 'TIMESTAMP'],
    ['timestamp without time zone', 'TIMESTAMP'],
    ['timestamp(3)', 'TIMESTAMP'],
    ['timestamptz', 'TIMESTAMP WITH TIME ZONE'],
    ['uuid', 'UUID'],
    ['integer[]', 'INTEGER[]'],
    ['text[]', 'VARCHAR[]'],
  ])('%s → %s', async (pg, duck) => {
    const t = columnTypeFor('c', typeName(pg), false);
    expect(t).toEqual({ duckType: duck });
    expect(await created(t.duckType)).toBe(duck);
  });

  it('json and jsonb are strings, their type kept for reading back', () => {
    expect(columnTypeFor('doc', typeName('jsonb'), false)).toEqual({ duckType: 'VARCHAR', pgType: 'jsonb' });
    expect(columnTypeFor('doc', typeName('json'), false)).toEqual({ duckType: 'VARCHAR', pgType: 'json' });
  });

  it.each([
    ['interval', 'interval'],
    ['money', 'money'],
    ['timetz', 'time with time zone'],
    ['time with time zone', 'time with time zone'],
    ['bit(3)', 'bit(3)'],
    ['varbit', 'bit varying'],
    ['inet', 'inet'],
    ['xml', 'xml'],
    ['point', 'point'],
    ['integer[][]', 'integer[][]'],
    ['jsonb[]', 'jsonb[]'],
    ['interval[]', 'interval[]'],
    ['numeric(50,2)', 'numeric(50,2)'],
    ['myschema.mytype', 'mytype'],
  ])('%s is refused before anything is created (0A000 naming column and type)', (pg, shown) => {
    const e = refusal(() => columnTypeFor('c', typeName(pg), false));
    expect(e.code).toBe('0A000');
    expect(e.message).toBe(`column "c" has type ${shown}, which an Iceberg table cannot hold`);
  });

  it('serial needs a sequence: refused with a hint', () => {
    const e = refusal(() => columnTypeFor('id', typeName('serial'), false));
    expect([e.code, e.hint]).toEqual(['0A000', 'Declare the column integer or bigint and give its values yourself.']);
  });

  it("a temporary table keeps the engine's types (it is never written to Iceberg)", async () => {
    for (const [pg, duck] of [['smallint', 'SMALLINT'], ['interval', 'INTERVAL'], ['timetz', 'TIME WITH TIME ZONE'], ['jsonb', 'VARCHAR']] as const) {
      expect(columnTypeFor('c', typeName(pg), true).duckType).toBe(duck);
      expect(await created(duck)).toBe(duck);
    }
  });
});

describe('CREATE TABLE AS: the engine type of a query column → the Iceberg column', () => {
  it.each([
    ['1::TINYINT', 'INTEGER'],
    ['1::SMALLINT', 'INTEGER'],
    ['1::UTINYINT', 'INTEGER'],
    ['1::USMALLINT', 'INTEGER'],
    ['1::INTEGER', 'INTEGER'],
    ['1::UINTEGER', 'BIGINT'],
    ['1::BIGINT', 'BIGINT'],
    ['1::UBIGINT', 'DECIMAL(38,0)'],
    ['1::HUGEINT', 'DECIMAL(38,0)'],
    ['1.5::FLOAT', 'FLOAT'],
    ['1.5::DOUBLE', 'DOUBLE'],
    ['1.50::DECIMAL(12,2)', 'DECIMAL(12,2)'],
    ["'x'", 'VARCHAR'],
    ["'{}'::JSON", 'VARCHAR'],
    ["'\\xAA'::BLOB", 'BLOB'],
    ['DATE \'2024-01-01\'', 'DATE'],
    ["TIME '01:02:03'", 'TIME'],
    ["TIMESTAMP '2024-01-01 00:00:00'", 'TIMESTAMP'],
    ["'2024-01-01'::TIMESTAMP_NS", 'TIMESTAMP'],
    ["'2024-01-01'::TIMESTAMP_MS", 'TIMESTAMP'],
    ["TIMESTAMPTZ '2024-01-01 00:00:00+00'", 'TIMESTAMP WITH TIME ZONE'],
    ['uuid()', 'UUID'],
    ['true', 'BOOLEAN'],
    ['[1, 2]', 'INTEGER[]'],
    ['[[1]]', 'INTEGER[][]'],
    ["{'a': 1, 'b c': 'x'}", 'STRUCT("a" INTEGER, "b c" VARCHAR)'],
    ["MAP {'k': 1::SMALLINT}", 'MAP(VARCHAR, INTEGER)'],
    ["{'n': [1::TINYINT]}", 'STRUCT("n" INTEGER[])'],
  ])('%s', async (expr, iceberg) => {
    const p = await conn.prepare(`SELECT ${expr} AS c`);
    const engineType = p.columnType(0).toString();
    expect(icebergColumnFor('c', engineType)).toBe(iceberg);
    expect(await created(iceberg)).toBe(iceberg.replace(/^STRUCT\("a" INTEGER, "b c" VARCHAR\)$/, 'STRUCT(a INTEGER, "b c" VARCHAR)').replace('STRUCT("n" INTEGER[])', 'STRUCT(n INTEGER[])'));
  });

  it.each([
    ['INTERVAL 1 DAY', undefined, 'interval'],
    ['INTERVAL 1 DAY', 'interval', 'interval'],
    ["TIMETZ '01:02:03+00'", undefined, 'time with time zone'],
    ["'101'::BIT", undefined, 'bit varying'],
    ['[1, 2]::INTEGER[2]', undefined, 'integer[2]'],
    ["{'i': INTERVAL 1 DAY}", undefined, 'interval'],
  ])('%s is refused, naming the column and its type', async (expr, pgType, shown) => {
    const p = await conn.prepare(`SELECT ${expr} AS c`);
    const e = refusal(() => icebergColumnFor('total', p.columnType(0).toString(), pgType));
    expect([e.code, e.message]).toEqual(['0A000', `column "total" has type ${shown}, which an Iceberg table cannot hold`]);
  });
});
