/**
 * DBeaver's navigator queries (pgcatalog/fixtures/clientQueries.ts DBEAVER) through node-postgres
 * over the extended protocol, as pgJDBC sends them, against lakegate and against a real PostgreSQL
 * holding the same table: every query answers, with PostgreSQL's column names, and column types
 * equal to PostgreSQL's, the catalog types DuckDB lacks included (oid, name, "char", regproc,
 * aclitem[], pg_node_tree, int2vector, oidvector …: server/rows presents them as the planner says,
 * sql/resultTypes.ts), but for PostgreSQL 16's columns. Rows are compared where they mean the
 * same on both sides (the sales table, its columns and their types).
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import pg from 'pg';
import { DBEAVER } from '../../pgcatalog/fixtures/clientQueries.js';
import { startCatalogPair, type CatalogPair } from '../support/catalogPair.js';

/**
 * lakegate advertises PostgreSQL 16; the reference server is 15: columns PostgreSQL 16 added,
 * and counts it narrowed to int2.
 */
const PG16_ONLY = new Set(['daticurules', 'collicurules']);
const PG16_INT2 = new Set(['attndims', 'attinhcount', 'coninhcount']);

function expected(fields: readonly (readonly [string, number])[]): [string, number][] {
  return fields.map(([n, oid]) => [n, PG16_INT2.has(n) ? 21 : oid]);
}

let pair: CatalogPair;
let ours: pg.Client;
let theirs: pg.Client;

beforeAll(async () => {
  pair = await startCatalogPair();
  ({ ours, theirs } = pair);
}, 120000);

afterAll(async () => {
  await pair?.stop();
});

async function nspOid(c: pg.Client, name: string): Promise<string> {
  return String((await c.query('SELECT oid FROM pg_catalog.pg_namespace WHERE nspname = $1', [name])).rows[0].oid);
}

async function shape(c: pg.Client, name: string, nsp: string) {
  const sql = DBEAVER[name]!;
  const r = await c.query({ text: sql, values: sql.includes('$1') ? [await nspOid(c, nsp)] : [], rowMode: 'array' });
  return { r, fields: r.fields.map((f) => [f.name, f.dataTypeID] as const) };
}

describe('DBeaver navigator queries answer with PostgreSQL\'s shape', () => {
  test.each(Object.keys(DBEAVER).flatMap((name) => (DBEAVER[name]!.includes('$1') ? [[name, 'sales'], [name, 'pg_catalog']] : [[name, '-']])))(
    '%s (%s)',
    async (name, nsp) => {
      const want = await shape(theirs, name, nsp);
      const got = await shape(ours, name, nsp);
      expect(got.fields.filter(([n]) => !PG16_ONLY.has(n))).toEqual(expected(want.fields));
    },
  );

  test('tables of sales: the one table, as a table', async () => {
    const rows = async (c: pg.Client) => {
      const { r } = await shape(c, 'tables', 'sales');
      const at = (col: string) => r.fields.findIndex((f) => f.name === col);
      return r.rows.map((row) => [row[at('relname')], row[at('relkind')], row[at('relnatts')]]);
    };
    expect(await rows(ours)).toEqual(await rows(theirs));
  });

  test('columns of sales: names, positions, type OIDs and typmods', async () => {
    const rows = async (c: pg.Client) => {
      const { r } = await shape(c, 'columns', 'sales');
      const at = (col: string) => r.fields.findIndex((f) => f.name === col);
      return r.rows.filter((row) => Number(row[at('attnum')]) > 0).map((row) => [row[at('attname')], String(row[at('attnum')]), String(row[at('atttypid')]), String(row[at('atttypmod')])]);
    };
    expect(await rows(ours)).toEqual(await rows(theirs));
  });
});
