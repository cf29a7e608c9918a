/**
 * The names a statement needs from the catalog, collected the way resolution
 * will look them up: CTE references are not catalog names, reg* literals and
 * the table argument of to_regclass / has_*_privilege are, and any catalog
 * relation or emulated function needs the user's whole listing.
 */
import { candidateSchemas, catalogNeeds } from './needs.js';
import { loadParser, parseStatements } from './parse.js';

beforeAll(async () => {
  await loadParser();
});

const needs = (sql: string) => catalogNeeds(parseStatements(sql)[0]!.node);

describe('catalogNeeds', () => {
  it('collects relation names as written, not CTEs in scope', () => {
    expect(needs('WITH orders AS (SELECT 1) SELECT * FROM orders, sales.orders, demo.sales.items').relations).toEqual([
      { schema: 'sales', name: 'orders' },
      { catalog: 'demo', schema: 'sales', name: 'items' },
    ]);
    // a CTE is only in scope below its WITH: the outer reference is a table
    expect(needs('SELECT * FROM (WITH t AS (SELECT 1) SELECT * FROM t) x, t').relations).toEqual([{ name: 't' }]);
  });

  it('collects reg* literals and relation arguments; the listing only for the catalog emulation', () => {
    const n = needs("SELECT 'sales.orders'::regclass, to_regclass('x'), has_table_privilege('u', 's.t', 'select'), has_column_privilege('s.c', 'id', 'select')");
    expect(n.relations).toEqual([{ schema: 'sales', name: 'orders' }, { name: 'x' }, { schema: 's', name: 't' }, { schema: 's', name: 'c' }]);
    expect(n.listing).toBe(true); // has_*_privilege read pg_class
    expect(needs('SELECT * FROM sales.orders').listing).toBe(false);
    for (const sql of ['SELECT * FROM pg_class', 'SELECT * FROM information_schema.tables', 'SELECT oid::regclass FROM x', 'SELECT pg_table_is_visible(1)']) {
      expect([sql, needs(sql).listing]).toEqual([sql, true]);
    }
  });
});

describe('candidateSchemas', () => {
  const ctx = { searchPath: ['$user', 'sales', 'public'], user: 'alice' };
  it('follows the search path with pg_catalog first, $user expanded', () => {
    expect(candidateSchemas({ name: 'orders' }, ctx)).toEqual(['alice', 'sales', 'public']);
    expect(candidateSchemas({ schema: 'hr', name: 'x' }, ctx)).toEqual(['hr']);
  });
  it('an emulated name is found in pg_catalog first: no catalog lookup', () => {
    expect(candidateSchemas({ name: 'pg_class' }, ctx)).toEqual([]);
    expect(candidateSchemas({ schema: 'pg_catalog', name: 'nosuch' }, ctx)).toEqual([]);
    expect(candidateSchemas({ name: 'pg_class' }, { searchPath: ['sales', 'pg_catalog'], user: 'a' })).toEqual(['sales']);
  });
});
