/**
 * Set-returning calls where PostgreSQL refuses them: the code, words, position
 * and hint PostgreSQL 15 answers (taken from PostgreSQL 15.18 for each text
 * below, over `create table t (id int, ssn text, j jsonb, a int[])`), and the
 * places it allows them (control: the same call where PostgreSQL plans it).
 */
import { beforeAll, describe, expect, it } from '@jest/globals';
import type { RelationCatalog } from './catalogView.js';
import { SqlError } from './errors.js';
import { loadParser, parseStatements } from './parse.js';
import { planQuery, type QueryContext } from './query.js';
import { checkSetReturningPlacement } from './setReturning.js';

beforeAll(async () => {
  await loadParser();
});

function refusal(sql: string): SqlError | null {
  try {
    checkSetReturningPlacement(parseStatements(sql)[0]!.node);
    return null;
  } catch (e) {
    if (e instanceof SqlError) return e;
    throw e;
  }
}

const HINT = 'You might be able to move the set-returning function into a LATERAL FROM item.';

/** [query, message, position, hint] as PostgreSQL 15 answers them (all 0A000). */
const REFUSED: [string, string, number, string | null][] = [
  ["select id from t where regexp_matches(ssn, '^[0-9]') is not null", 'set-returning functions are not allowed in WHERE', 24, null],
  ['select id from t where generate_series(1,2) = 1', 'set-returning functions are not allowed in WHERE', 24, null],
  ['select * from t a join t b on generate_series(1,2) = a.id', 'set-returning functions are not allowed in JOIN conditions', 31, null],
  ['select * from t a join t b on a.id = b.id and unnest(a.a) > 0', 'set-returning functions are not allowed in JOIN conditions', 47, null],
  ['select * from t a left join lateral (select 1) s on unnest(a.a) > 0', 'set-returning functions are not allowed in JOIN conditions', 53, null],
  ['select sum(generate_series(1,3)) from t', 'aggregate function calls cannot contain set-returning function calls', 12, HINT],
  ['select count(unnest(a)) from t', 'aggregate function calls cannot contain set-returning function calls', 14, HINT],
  ["select string_agg(regexp_split_to_table(ssn, '-'), ',') from t", 'aggregate function calls cannot contain set-returning function calls', 19, HINT],
  ['select array_agg(x order by generate_series(1,2)) from (values (1)) v(x)', 'aggregate function calls cannot contain set-returning function calls', 29, HINT],
  ['select case when id > 0 then generate_series(1,3) end from t', 'set-returning functions are not allowed in CASE', 30, HINT],
  ['select coalesce(unnest(a), 0) from t', 'set-returning functions are not allowed in COALESCE', 17, HINT],
  ['select lag(unnest(a)) over () from t', 'window function calls cannot contain set-returning function calls', 12, HINT],
  ['select id from t limit generate_series(1,2)', 'set-returning functions are not allowed in LIMIT', 24, null],
  ['select id from t offset generate_series(1,2)', 'set-returning functions are not allowed in OFFSET', 25, null],
  ['select id from t fetch first generate_series(1,2) rows only', 'set-returning functions are not allowed in LIMIT', 30, null],
  ['values (generate_series(1,2))', 'set-returning functions are not allowed in VALUES', 9, null],
  ['select id from t having unnest(a) > 0', 'set-returning functions are not allowed in HAVING', 25, null],
  ['select id from t group by id having generate_series(1,2) > 0', 'set-returning functions are not allowed in HAVING', 37, null],
  ['select count(*) filter (where unnest(a) > 0) from t', 'set-returning functions are not allowed in FILTER', 31, null],
  ['select id from t where jsonb_array_elements(j) is not null', 'set-returning functions are not allowed in WHERE', 24, null],
  ["select id from t where string_to_table(ssn, '-') = '1'", 'set-returning functions are not allowed in WHERE', 24, null],
  ['select * from generate_series(1, generate_series(1,2))', 'set-returning functions must appear at top level of FROM', 34, null],
  ['select id from t where case when true then unnest(a) end > 0', 'set-returning functions are not allowed in WHERE', 44, null],
  ['select * from t a join t b using (id) where unnest(a.a) > 0', 'set-returning functions are not allowed in WHERE', 45, null],
  ['select (select 1) from t where id between generate_series(1,2) and 3', 'set-returning functions are not allowed in WHERE', 43, null],
  ['select id from t where not (unnest(a) > 0)', 'set-returning functions are not allowed in WHERE', 29, null],
  ['select id from t where unnest(a) is null', 'set-returning functions are not allowed in WHERE', 24, null],
  // write statements
  ['update t set id = 1 where unnest(a) > 0', 'set-returning functions are not allowed in WHERE', 27, null],
  ['update t set id = generate_series(1,2)', 'set-returning functions are not allowed in UPDATE', 19, null],
  ['update t set id = 1 from t t2 where generate_series(1,2) = t2.id', 'set-returning functions are not allowed in WHERE', 37, null],
  ['delete from t where generate_series(1,2) = id', 'set-returning functions are not allowed in WHERE', 21, null],
  ['delete from t using t t2 where t2.id = t.id and unnest(t2.a) = 1', 'set-returning functions are not allowed in WHERE', 49, null],
  ['insert into t (id) values (generate_series(1,2)), (3)', 'set-returning functions are not allowed in VALUES', 28, null],
  ['insert into t (id) select id from t where unnest(a) > 0', 'set-returning functions are not allowed in WHERE', 43, null],
  ['merge into t using t s on s.id = t.id and unnest(s.a) > 0 when matched then do nothing', 'set-returning functions are not allowed in JOIN conditions', 43, null],
  ['merge into t using t s on s.id = t.id when matched and generate_series(1,2) > 0 then do nothing', 'set-returning functions are not allowed in MERGE WHEN conditions', 56, null],
  ['merge into t using t s on s.id = t.id when matched then update set id = generate_series(1,2)', 'set-returning functions are not allowed in UPDATE', 73, null],
  ['merge into t using t s on s.id = t.id when not matched then insert (id) values (generate_series(1,2))', 'set-valued function called in context that cannot accept a set', 81, null],
  ['create table t2 as select id from t where unnest(a) > 0', 'set-returning functions are not allowed in WHERE', 43, null],
  ['update t set id = 1 returning generate_series(1,2)', 'set-returning functions are not allowed in RETURNING', 31, null],
];

/** PostgreSQL 15 plans these. */
const ALLOWED = [
  'select generate_series(1,3) from t group by generate_series(1,3)',
  'select count(*) from t group by unnest(a)',
  'select row_number() over (partition by unnest(a)) from t',
  'select sum(id) over (order by generate_series(1,2)) from t',
  'select id from t order by generate_series(1,2)',
  'select * from t where id in (select generate_series(1,2))',
  'select id from t where exists (select unnest(a))',
  'select greatest(unnest(a), 1) from t',
  'select nullif(unnest(a), 1) from t',
  "select id, json_object_keys('{}') from t where id = any(array[1])",
  'select sum(id) from t group by rollup(generate_series(1,2))',
  'select generate_series(1,2) + generate_series(1,3)',
  'select abs(generate_series(-1,1))',
  'select id from t where id = (select generate_series(1,1))',
  'select distinct on (generate_series(1,2)) id from t',
  'select * from generate_series(1, 3)',
  'select * from t, unnest(t.a) u',
  "select * from t cross join lateral regexp_matches(t.ssn, '[0-9]') m",
  'insert into t (id) values (generate_series(1,2))',
  'insert into t (id) select generate_series(1,2)',
];

describe('set-returning calls PostgreSQL refuses', () => {
  it.each(REFUSED)('%s', (sql, message, position, hint) => {
    const e = refusal(sql);
    expect(e).toMatchObject({ code: '0A000', message, position });
    expect(e?.hint ?? null).toBe(hint);
  });
});

describe('control: the same calls where PostgreSQL allows them', () => {
  it.each(ALLOWED)('%s', (sql) => {
    expect(refusal(sql)).toBeNull();
  });
});

describe('through the planner', () => {
  const catalog: RelationCatalog = {
    listSchemas: () => ['sales'],
    getTable: (schema, name) =>
      schema === 'sales' && name === 'orders'
        ? {
            schema,
            name,
            columns: [
              { name: 'id', duckType: 'INTEGER', nullable: true },
              { name: 'ssn', duckType: 'VARCHAR', nullable: true },
            ],
            resource: { database: schema, table: name },
            scan: () => ({ RangeVar: { catalogname: 'demo', schemaname: schema, relname: name, inh: true, relpersistence: 'p' } }),
          }
        : undefined,
  };
  const ctx: QueryContext = { database: 'demo', searchPath: ['sales'], user: 'alice', settings: () => undefined, backendPid: 1, catalog };

  it("the issue's query is PostgreSQL's 0A000, not an internal error; control: the same call in the select list plans", () => {
    const sql = "select id from sales.orders where regexp_matches(ssn, '^[0-9]') is not null";
    expect(() => planQuery(parseStatements(sql)[0]!, ctx)).toThrow(expect.objectContaining({ code: '0A000', message: 'set-returning functions are not allowed in WHERE', position: 35 }));
    expect(planQuery(parseStatements("select id, regexp_matches(ssn, '^[0-9]') from sales.orders")[0]!, ctx).sql).toContain('orders');
  });
});
