import type { RelationCatalog } from './catalogView.js';
import { loadParser, parseStatements } from './parse.js';
import { planQuery, type QueryContext } from './query.js';
import { resultTypeOids } from './resultTypes.js';

const catalog: RelationCatalog = {
  listSchemas: () => ['public', 'sales'],
  getTable: (schema, name) =>
    schema === 'sales' && name === 'orders'
      ? {
          schema,
          name,
          columns: [
            { name: 'relname', duckType: 'VARCHAR', nullable: true },
            { name: 'oid', duckType: 'BIGINT', nullable: true },
            // read by the cast tests below (a column the table lacks is 42703 at planning, sql/columnRefs.ts)
            { name: 'x', duckType: 'VARCHAR', nullable: true },
          ],
          resource: { database: schema, table: name },
          scan: () => ({ RangeVar: { catalogname: 'demo', schemaname: schema, relname: name, inh: true, relpersistence: 'p' } }),
        }
      : schema === 'sales' && name === 'docs'
        ? {
            schema,
            name,
            columns: [
              { name: 'id', duckType: 'INTEGER', nullable: true },
              { name: 'j', duckType: 'JSON', nullable: true, pgType: 'json' as const },
              { name: 'b', duckType: 'JSON', nullable: true, pgType: 'jsonb' as const },
            ],
            resource: { database: schema, table: name },
            scan: () => parseStatements(`SELECT * FROM iceberg_scan('/wh/docs/metadata/1.metadata.json')`)[0]!.node['SelectStmt']!['fromClause'][0],
          }
        : undefined,
};

const ctx: QueryContext = {
  database: 'demo',
  searchPath: ['sales', 'public'],
  user: 'alice',
  settings: () => undefined,
  backendPid: 1,
  catalog,
};

beforeAll(async () => {
  await loadParser();
});

/** The presented OIDs for a statement, given the column names DuckDB would report. */
const oids = (sql: string, names: string[]) => resultTypeOids(planQuery(parseStatements(sql)[0]!, ctx).resultTypes, names);

describe('result columns of types DuckDB lacks', () => {
  it('types a catalog column by the relation it comes from, qualified or not', () => {
    expect(oids('select c.relname, c.relkind, c.oid, c.relnatts from pg_catalog.pg_class c', ['relname', 'relkind', 'oid', 'relnatts'])).toEqual([
      19, 18, 26, undefined,
    ]);
    expect(oids('select relname, nspname from pg_class join pg_namespace n on n.oid = relnamespace', ['relname', 'nspname'])).toEqual([19, 19]);
    // information_schema's sql_identifier is a domain over name: PostgreSQL sends name
    expect(oids('select table_name from information_schema.tables', ['table_name'])).toEqual([19]);
  });

  it('expands a star by the names of the columns it stands for', () => {
    expect(oids('select n.oid, n.*, 1 as x from pg_catalog.pg_namespace n', ['oid', 'oid', 'nspname', 'nspowner', 'nspacl', 'x'])).toEqual([
      26, 26, 19, 26, 1034, undefined,
    ]);
    // two stars: the split between them is unknown, nothing is typed
    expect(oids('select a.*, c.* from pg_attribute a, pg_class c', ['attname', 'relname'])).toEqual([undefined, undefined]);
  });

  it('reads through a derived table by the names of its columns', () => {
    expect(oids('select s.relname, x from (select c.relname, 1 as x from pg_class c) s', ['relname', 'x'])).toEqual([19, undefined]);
    expect(oids('select * from (select n.nspname, n.oid, n.nspname || \'\' as t from pg_namespace n) s', ['nspname', 'oid', 't'])).toEqual([19, 26, undefined]);
    // pgJDBC's getColumns shape: a star over a derived table over catalog joins
    expect(oids('select * from (select n.nspname, c.relname, a.attname, a.atttypid from pg_namespace n join pg_class c on c.relnamespace = n.oid join pg_attribute a on a.attrelid = c.oid) c where true', ['nspname', 'relname', 'attname', 'atttypid'])).toEqual([19, 19, 19, 26]);
    // a star inside the derived table brings the columns of what it covers, when they are known
    expect(oids('select s.relname from (select * from pg_class) s', ['relname'])).toEqual([19]);
    expect(oids('select s.relname from (select * from pg_class c, orders o) s', ['relname'])).toEqual([undefined]);
  });

  it('reads through a CTE as through a derived table, but not a recursive one or one with column names', () => {
    expect(oids('with s as (select relname, relkind from pg_class) select relname, s.relkind from s', ['relname', 'relkind'])).toEqual([19, 18]);
    expect(oids('with a as (select oid from pg_class), b as (select * from a) select a.oid from a', ['oid'])).toEqual([26]);
    expect(oids('with s (r) as (select relname from pg_class) select r from s', ['r'])).toEqual([undefined]);
    expect(oids('with recursive t as (select oid from pg_class union all select oid from t) select oid from t', ['oid'])).toEqual([undefined]);
    // a CTE shadowing a catalog name is the CTE
    expect(oids('with pg_class as (select 1 as relname) select relname from pg_class', ['relname'])).toEqual([undefined]);
  });

  it('leaves expressions, ambiguous names, renamed columns and user tables to the engine', () => {
    expect(oids("select relname || '', upper(relname) from pg_class", ['a', 'b'])).toEqual([undefined, undefined]);
    // oid is a column of both: PostgreSQL would refuse it, so nothing is guessed
    expect(oids('select relname from pg_class, (select 1 as relname) s', ['relname'])).toEqual([undefined]);
    expect(oids('select s.n from (select relname as n from pg_class) s (n)', ['n'])).toEqual([undefined]);
    // a user table whose columns share the catalog's names is not a catalog relation
    expect(oids('select relname, oid from sales.orders', ['relname', 'oid'])).toEqual([undefined, undefined]);
    expect(oids('select o.relname, c.relname from sales.orders o join pg_class c on true', ['relname', 'relname'])).toEqual([undefined, 19]);
    expect(oids('select (select array_agg(i.inhparent) from pg_inherits i where i.inhrelid = c.oid) p, (select max(relname) from pg_class) m from pg_class c', ['p', 'm'])).toEqual([1028, undefined]);
    expect(oids('select relname from pg_class union all select relname from pg_class', ['relname'])).toEqual([undefined]);
  });

  it('types unnest of a name[] as name, in the select list and in FROM (pgcli\'s search path query)', () => {
    expect(oids('select unnest(current_schemas(true)) s, unnest(array_agg(relname)) r, unnest(array[relname]) a from pg_class', ['s', 'r', 'a'])).toEqual([19, 19, undefined]);
    expect(oids('select * from unnest(current_schemas(true))', ['unnest'])).toEqual([19]);
    expect(oids('select * from unnest(current_schemas(true)) p', ['p'])).toEqual([19]);
    expect(oids('select x from unnest(current_schemas(true)) p(x)', ['x'])).toEqual([19]);
    expect(oids("select * from unnest(array['a'])", ['unnest'])).toEqual([undefined]);
  });

  it('types a name one side of a USING or NATURAL join has, not the merged ones (pgcli\'s foreign keys query)', () => {
    expect(oids('select attname, attnum from (select 1 as attnum) x join pg_attribute c using (attnum)', ['attname', 'attnum'])).toEqual([19, undefined]);
    expect(oids('select attname from (select 1 as attnum) x natural join pg_attribute c', ['attname'])).toEqual([19]);
    expect(oids('select unnest((select array_agg(attname) from (select 1 as attnum) x join pg_attribute c using (attnum))) a', ['a'])).toEqual([19]);
  });

  it('types the calls whose PostgreSQL result is name or regtype', () => {
    expect(oids('select current_user, session_user, current_database(), current_schema, pg_typeof(1), row(1), now()', ['a', 'b', 'c', 'd', 'e', 'f', 'g'])).toEqual([
      19, 19, 19, 19, 2206, 2249, undefined,
    ]);
    expect(oids("select 'int4'::regtype, 'sales.orders'::regclass, 1::oid, to_regtype('int4'), a.atttypid::regtype from pg_attribute a", ['a', 'b', 'c', 'd', 'e'])).toEqual([
      2206, 2205, 26, 2206, 2206,
    ]);
    expect(oids("select 'a'::varchar, cast(1 as character varying), 'a'::text", ['a', 'b', 'c'])).toEqual([1043, 1043, undefined]);
  });

  it('types casts to varchar(n), char(n), bit(n) and varbit(n) with PostgreSQL typmods, through derived tables', () => {
    expect(oids("select 'a'::varchar(3), cast(1 as character(2)), 'a'::char, 'a'::bpchar, x::varchar(9)::text from orders", ['a', 'b', 'c', 'd', 'e'])).toEqual([
      { oid: 1043, typmod: 7 }, { oid: 1042, typmod: 6 }, { oid: 1042, typmod: 5 }, 1042, undefined,
    ]);
    // a constant's bits are cut to n by the dialect, an expression's by a macro its probe picks; a parameter's are not
    expect(oids("select 1::bit, B'1'::bit(3), x::bit(3), $1::bit(3), B'1'::varbit, B'1'::varbit(2), x::varbit(2) from orders", ['a', 'b', 'c', 'd', 'e', 'f', 'g'])).toEqual([
      { oid: 1560, typmod: 1 }, { oid: 1560, typmod: 3 }, { oid: 1560, typmod: 3 }, undefined, 1562, { oid: 1562, typmod: 2 }, 1562,
    ]);
    expect(oids("with c as (select 'a'::char(3) as v) select v, w from c, (select 'b'::varchar(2) as w) d", ['v', 'w'])).toEqual([
      { oid: 1042, typmod: 7 }, { oid: 1043, typmod: 6 },
    ]);
  });

  it('a constant regtype prints the name format_type gives it', () => {
    expect(planQuery(parseStatements("select 'int4'::regtype, 'int8[]'::regtype")[0]!, ctx).sql).toContain("'integer'");
    expect(planQuery(parseStatements("select 'int8[]'::regtype")[0]!, ctx).sql).toContain("'bigint[]'");
    // to_regtype answers a regtype: printed through the emulation's regtype output function
    expect(planQuery(parseStatements("select to_regtype('int4')")[0]!, ctx).sql).toMatch(/regtype_out\(lakegate_pg\.pgc\.to_regtype\('int4'\)\)/);
  });
});

describe('jsonb result columns (carried as DuckDB JSON, printed as jsonb_out by server/rows)', () => {
  it('types casts, jsonb functions and the jsonb operators of a jsonb operand as jsonb (3802)', () => {
    expect(oids(`select '{}'::jsonb, to_jsonb(1), jsonb_build_object('a', 1), jsonb_set('{}', '{a}', '1'), jsonb_strip_nulls('{}')`, ['a', 'b', 'c', 'd', 'e']))
      .toEqual([3802, 3802, 3802, 3802, 3802]);
    expect(oids(`select '{}'::jsonb -> 'a', '{}'::jsonb #> '{a}', '{}'::jsonb - 'a', '{}'::jsonb #- '{a}', '{}'::jsonb || '{}'`, ['a', 'b', 'c', 'd', 'e']))
      .toEqual([3802, 3802, 3802, 3802, 3802]);
  });
  it('keeps json, text and other operators as DuckDB types them', () => {
    expect(oids(`select '{}'::json -> 'a', '{}'::jsonb ->> 'a', to_json(1), relname || '{}' from orders`, ['a', 'b', 'c', 'd'])).toEqual([undefined, undefined, undefined, undefined]);
    expect(oids(`select 2 - 1, '{}'::jsonb = '{}'::jsonb`, ['a', 'b'])).toEqual([undefined, undefined]);
  });
  it('follows a jsonb column through a derived table and a CTE', () => {
    expect(oids(`with t as (select '{}'::jsonb as j) select j, j -> 'a' from t`, ['j', 'a'])).toEqual([3802, 3802]);
    expect(oids(`select x.j from (select jsonb_agg(1) as j) x`, ['j'])).toEqual([3802]);
  });
  // PostgreSQL 15 types each of these jsonb (3802): the corpus (tests/fidelity) checks them against it too
  it('types CASE, COALESCE, NULLIF, UNION, VALUES and jsonb_each / jsonb_array_elements of jsonb as jsonb', () => {
    expect(oids(`select case when true then '{}'::jsonb end, coalesce(null, '{}'::jsonb), nullif('[1]'::jsonb, '[2]'::jsonb)`, ['a', 'b', 'c']))
      .toEqual([3802, 3802, 3802]);
    expect(oids(`select '{}'::jsonb as j, 1 as n union all select '[]'::jsonb, 2`, ['j', 'n'])).toEqual([3802, undefined]);
    expect(oids(`select distinct j from (values ('{}'::jsonb), ('[]'::jsonb)) t(j)`, ['j'])).toEqual([3802]);
    expect(oids(`select * from jsonb_each('{}')`, ['key', 'value'])).toEqual([undefined, 3802]);
    expect(oids(`select e.v from jsonb_array_elements('[]') e(v)`, ['v'])).toEqual([3802]);
  });
  it('keeps CASE of text or json and a UNION of json with jsonb arms as DuckDB types them', () => {
    expect(oids(`select case when true then 'a' end, coalesce('{}'::json, null)`, ['a', 'b'])).toEqual([undefined, undefined]);
    expect(oids(`select * from json_each('{}')`, ['key', 'value'])).toEqual([undefined, undefined]);
    expect(oids(`select relname from orders union select relname from orders`, ['relname'])).toEqual([undefined]);
  });
  it("types a table's jsonb column (its kept type) as jsonb: by name, qualified, under a star, renamed by an alias list, and what jsonb operators make of it", () => {
    expect(oids(`select * from docs`, ['id', 'j', 'b'])).toEqual([undefined, undefined, 3802]);
    expect(oids(`select d.b, b -> 'a' as x, j from docs d`, ['b', 'x', 'j'])).toEqual([3802, 3802, undefined]);
    expect(oids(`select y from docs as d(x, z, y)`, ['y'])).toEqual([3802]);
    expect(oids(`select b from (select * from docs) s`, ['b'])).toEqual([3802]);
  });
});
