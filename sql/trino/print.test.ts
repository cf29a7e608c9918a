/**
 * The Trino printer's contract (sql/trino/print.ts): for each construct of its subset, the PostgreSQL text
 * parsed with lakegate's parser and the Trino text it prints; for constructs outside it, the 0A000 refusal
 * naming the construct; the data gate's masks and filters as the gate builds them; the fidelity corpus
 * and TPC-H walked (every query prints or is refused with 0A000, counted); the registry's Trino slots held
 * to the printer's documented list.
 *
 * No Trino runs here: the Trino text is asserted, not its answers. That the answers are PostgreSQL's is
 * the differential suite's to prove (issue 23: the same statements on both engines, on a real cluster).
 */
import { createHmac } from 'node:crypto';
import { compileTable, fromItem } from '../../policy/rewrite/apply.js';
import type { ColumnDecision, MaskDecision, TableDecision } from '../../policy/rewrite/decide.js';
import type { ExpressionScope } from '../../policy/rewrite/expressions.js';
import { MACROS, MASK_SCHEMA } from '../../policy/rewrite/macros.js';
import { CORPUS } from '../../tests/fidelity/corpus.js';
import { fidelityTables } from '../../tests/fidelity/data.js';
import { TPCH_QUERIES } from '../../tests/fidelity/tpch.js';
import type { CatalogTable } from '../catalogView.js';
import { FUNCTION_REGISTRY } from '../dialect/registry.js';
import type { ValueClass } from '../dialect/rule.js';
import { SqlError } from '../errors.js';
import { loadParser, parseStatements } from '../parse.js';
import type { PgNode } from '../walk.js';
import { MASK_MACRO_SCHEMA, MASK_MACROS } from './masks.js';
import { printTrino, TRINO_REGISTRY_FUNCTIONS, type TrinoPrintOptions } from './print.js';

beforeAll(async () => {
  await loadParser();
});

/** The test schema's columns by name: a integer, b text, d date, ts timestamp, tz timestamptz, x numeric, f double, bin bytea, flag boolean. */
const CLASSES: Readonly<Record<string, ValueClass>> = {
  a: 'integer', b: 'text', d: 'date', ts: 'timestamp', tz: 'timestamptz', x: 'decimal', f: 'double', bin: 'binary', flag: 'boolean',
};

const OPTIONS: TrinoPrintOptions = {
  relation: (r) => (r.schema !== undefined ? ['lake', r.schema, r.name] : undefined),
  columnClass: (parts) => (Object.hasOwn(CLASSES, parts[parts.length - 1]!) ? CLASSES[parts[parts.length - 1]!] : undefined),
  maskKey: 'k',
};

/** A copy: the parser's results are shared (its cache), and some tests change the tree. */
const tree = (sql: string): PgNode => structuredClone(parseStatements(sql)[0]!.node);
const print = (sql: string, opts: TrinoPrintOptions = OPTIONS): string => printTrino(tree(sql), opts);

function refusal(f: () => unknown): SqlError {
  try {
    f();
  } catch (e) {
    if (e instanceof SqlError) return e;
    throw e;
  }
  throw new Error('printed, not refused');
}

const T = '"lake"."s"."t"';
const U = '"lake"."s"."u"';

describe('SELECT, FROM, clauses', () => {
  it.each([
    ['select a, b from s.t', `SELECT "a", "b" FROM ${T}`],
    ['select * from s.t', `SELECT * FROM ${T}`],
    ['select t.* from s.t as t', `SELECT "t".* FROM ${T} AS "t"`],
    ['select distinct a from s.t', `SELECT DISTINCT "a" FROM ${T}`],
    ['select a as "total" from s.t', `SELECT "a" AS "total" FROM ${T}`],
    ['select a from s.t where a = 1 and (b <> \'x\' or not flag)', `SELECT "a" FROM ${T} WHERE (("a" = 1) AND (("b" <> 'x') OR (NOT "flag")))`],
    ['select a, count(*) from s.t group by a having count(*) > 1', `SELECT "a", count(*) FROM ${T} GROUP BY "a" HAVING (count(*) > 1)`],
    // PostgreSQL's NULLs sort as the largest value; Trino's default is NULLS LAST both ways: always written out
    [
      'select a from s.t order by a, b desc, d asc nulls first, ts desc nulls last',
      `SELECT "a" FROM ${T} ORDER BY "a" ASC NULLS LAST, "b" DESC NULLS FIRST, "d" ASC NULLS FIRST, "ts" DESC NULLS LAST`,
    ],
    // Trino writes OFFSET before LIMIT
    ['select a from s.t limit 10 offset 5', `SELECT "a" FROM ${T} OFFSET 5 LIMIT 10`],
    ['select a from s.t limit all', `SELECT "a" FROM ${T}`],
  ])('%s', (sql, expected) => {
    expect(print(sql)).toBe(expected);
  });
});

describe('joins, derived tables, CTEs, set operations, subqueries', () => {
  it.each([
    ['select a from s.t t1 join s.u t2 on t1.a = t2.a', `SELECT "a" FROM (${T} AS "t1" JOIN ${U} AS "t2" ON ("t1"."a" = "t2"."a"))`],
    ['select a from s.t left join s.u using (a)', `SELECT "a" FROM (${T} LEFT JOIN ${U} USING ("a"))`],
    ['select a from s.t right outer join s.u using (a, b)', `SELECT "a" FROM (${T} RIGHT JOIN ${U} USING ("a", "b"))`],
    ['select a from s.t full join s.u on true', `SELECT "a" FROM (${T} FULL JOIN ${U} ON TRUE)`],
    ['select a from s.t cross join s.u', `SELECT "a" FROM (${T} CROSS JOIN ${U})`],
    ['select a from s.t, s.u', `SELECT "a" FROM ${T}, ${U}`],
    ['select q.a from (select a from s.t) as q', `SELECT "q"."a" FROM (SELECT "a" FROM ${T}) AS "q"`],
    ['select q.c from (select a from s.t) as q(c)', `SELECT "q"."c" FROM (SELECT "a" FROM ${T}) AS "q"("c")`],
    [
      'with w as (select a from s.t), v as (select a from w) select a from v',
      `WITH "w" AS (SELECT "a" FROM ${T}), "v" AS (SELECT "a" FROM "w") SELECT "a" FROM "v"`,
    ],
    ['with w(c) as (select a from s.t) select c from w', `WITH "w"("c") AS (SELECT "a" FROM ${T}) SELECT "c" FROM "w"`],
    ['select a from s.t union select a from s.u', `(SELECT "a" FROM ${T}) UNION (SELECT "a" FROM ${U})`],
    ['select a from s.t union all select a from s.u order by 1 limit 3', `(SELECT "a" FROM ${T}) UNION ALL (SELECT "a" FROM ${U}) ORDER BY 1 ASC NULLS LAST LIMIT 3`],
    ['select a from s.t intersect all select a from s.u', `(SELECT "a" FROM ${T}) INTERSECT ALL (SELECT "a" FROM ${U})`],
    ['select a from s.t except select a from s.u', `(SELECT "a" FROM ${T}) EXCEPT (SELECT "a" FROM ${U})`],
    // PostgreSQL's INTERSECT binds tighter than UNION: the tree's shape, parenthesized
    [
      'select a from s.t union select a from s.u intersect select a from s.t',
      `(SELECT "a" FROM ${T}) UNION ((SELECT "a" FROM ${U}) INTERSECT (SELECT "a" FROM ${T}))`,
    ],
    ['select (select max(a) from s.u), a from s.t', `SELECT (SELECT max("a") FROM ${U}), "a" FROM ${T}`],
    ['select a from s.t where exists (select 1 from s.u where u.a = t.a)', `SELECT "a" FROM ${T} WHERE (EXISTS (SELECT 1 FROM ${U} WHERE ("u"."a" = "t"."a")))`],
    ['select a from s.t where a in (select a from s.u)', `SELECT "a" FROM ${T} WHERE ("a" IN (SELECT "a" FROM ${U}))`],
    ['select a from s.t where a not in (select a from s.u)', `SELECT "a" FROM ${T} WHERE (NOT ("a" IN (SELECT "a" FROM ${U})))`],
    ['select a from s.t where a < any (select a from s.u)', `SELECT "a" FROM ${T} WHERE ("a" < ANY (SELECT "a" FROM ${U}))`],
    ['select a from s.t where a >= all (select a from s.u)', `SELECT "a" FROM ${T} WHERE ("a" >= ALL (SELECT "a" FROM ${U}))`],
  ])('%s', (sql, expected) => {
    expect(print(sql)).toBe(expected);
  });
});

describe('expressions', () => {
  it.each([
    [
      "select case when a > 0 then 'p' when a < 0 then 'n' else 'z' end from s.t",
      `SELECT (CASE WHEN ("a" > 0) THEN 'p' WHEN ("a" < 0) THEN 'n' ELSE 'z' END) FROM ${T}`,
    ],
    ["select case a when 1 then 'one' end from s.t", `SELECT (CASE "a" WHEN 1 THEN 'one' END) FROM ${T}`],
    ["select coalesce(b, 'none'), nullif(a, 0) from s.t", `SELECT coalesce("b", 'none'), nullif("a", 0) FROM ${T}`],
    ['select a from s.t where a between 1 and 10 and a not between 3 and 4', `SELECT "a" FROM ${T} WHERE (("a" BETWEEN 1 AND 10) AND ("a" NOT BETWEEN 3 AND 4))`],
    ["select a from s.t where a in (1, 2, 3) and b not in ('x', 'y')", `SELECT "a" FROM ${T} WHERE (("a" IN (1, 2, 3)) AND ("b" NOT IN ('x', 'y')))`],
    ['select a from s.t where b is null and d is not null', `SELECT "a" FROM ${T} WHERE (("b" IS NULL) AND ("d" IS NOT NULL))`],
    [
      'select a from s.t where a is distinct from 1 and b is not distinct from null',
      `SELECT "a" FROM ${T} WHERE (("a" IS DISTINCT FROM 1) AND ("b" IS NOT DISTINCT FROM NULL))`,
    ],
    // Trino has no IS TRUE: the same three-valued test as IS [NOT] DISTINCT FROM
    [
      'select a from s.t where flag is true and flag is not false and flag is unknown',
      `SELECT "a" FROM ${T} WHERE (("flag" IS NOT DISTINCT FROM TRUE) AND ("flag" IS DISTINCT FROM FALSE) AND ("flag" IS NULL))`,
    ],
    // integers truncate on both, doubles divide alike; decimal quotients are refused (below)
    [
      'select a + 1, a - 1, a * 2, a / 2, a % 3, -a, x + a, x * x, f / 2, a / 0.5::float8 from s.t',
      `SELECT ("a" + 1), ("a" - 1), ("a" * 2), ("a" / 2), ("a" % 3), (-"a"), ("x" + "a"), ("x" * "x"), ("f" / 2), ("a" / CAST(0.5 AS double)) FROM ${T}`,
    ],
    ['select -(-7), - -a, 1 - -2 from s.t', `SELECT 7, (-(-"a")), (1 - -2) FROM ${T}`],
    ["select a + '1', '2.5' * x from s.t", `SELECT ("a" + CAST('1' AS bigint)), (DECIMAL '2.5' * "x") FROM ${T}`],
    ["select b from s.t where b like 'a%' and b not like '_b'", `SELECT "b" FROM ${T} WHERE (("b" LIKE 'a%') AND ("b" NOT LIKE '_b'))`],
    // PostgreSQL's default LIKE escape is the backslash; Trino has none unless told
    ["select b from s.t where b like 'a\\%%'", `SELECT "b" FROM ${T} WHERE ("b" LIKE 'a\\%%' ESCAPE '\\')`],
    ["select b from s.t where b like 'a!%%' escape '!'", `SELECT "b" FROM ${T} WHERE ("b" LIKE 'a!%%' ESCAPE '!')`],
    ["select b from s.t where b like 'a\\%' escape ''", `SELECT "b" FROM ${T} WHERE ("b" LIKE 'a\\%')`],
    // a string literal beside a typed value is read as that type (Trino would compare a varchar)
    [
      "select d from s.t where d > '2024-01-01' and ts <= '2024-01-01 00:00:00' and a = '5' and x between '1.5' and '2'",
      `SELECT "d" FROM ${T} WHERE (("d" > DATE '2024-01-01') AND ("ts" <= TIMESTAMP '2024-01-01 00:00:00') AND ("a" = CAST('5' AS bigint)) AND ("x" BETWEEN DECIMAL '1.5' AND DECIMAL '2'))`,
    ],
  ])('%s', (sql, expected) => {
    expect(print(sql)).toBe(expected);
  });
});

describe('literals and casts', () => {
  it.each([
    // a bigint when it fits, numeric beyond; an exponent is a numeric of its written scale in PostgreSQL, a double in Trino
    [
      "select 1, -7, 2.5, 12345678901, 123456789012345678901234, 1e3, 1.5e-3, true, false, null, 'it''s'",
      "SELECT 1, -7, 2.5, 12345678901, DECIMAL '123456789012345678901234', DECIMAL '1000', 0.0015, TRUE, FALSE, NULL, 'it''s'",
    ],
    [
      "select date '2024-01-31', timestamp '2024-01-31 10:00:00', interval '3' month, interval '2 days'",
      "SELECT DATE '2024-01-31', CAST(TIMESTAMP '2024-01-31 10:00:00' AS timestamp(6)), INTERVAL '3' MONTH, INTERVAL '2' DAY",
    ],
    [
      "select '42'::int, '1.50'::numeric, '1.5'::float8, 'yes'::boolean, 'x'::text, '2024-02-29'::date, '2024-02-29 12:30:00'::timestamp, '2024-02-29 12:30:00+02'::timestamptz, '\\xdeadbeef'::bytea, 'abc'::bytea, null::integer",
      "SELECT CAST('42' AS integer), DECIMAL '1.50', CAST('1.5' AS double), TRUE, 'x', DATE '2024-02-29', CAST(TIMESTAMP '2024-02-29 12:30:00' AS timestamp(6)), CAST(TIMESTAMP '2024-02-29 12:30:00 +02:00' AS timestamp(6) with time zone), X'deadbeef', to_utf8('abc'), CAST(NULL AS integer)",
    ],
    // the seconds written out where PostgreSQL reads them as zero
    [
      "select '2024-01-31 10:00'::timestamp, '2024-01-31'::timestamp, '2024-01-31 10:00-05:30'::timestamptz",
      "SELECT CAST(TIMESTAMP '2024-01-31 10:00:00' AS timestamp(6)), CAST(TIMESTAMP '2024-01-31 00:00:00' AS timestamp(6)), CAST(TIMESTAMP '2024-01-31 10:00:00 -05:30' AS timestamp(6) with time zone)",
    ],
    // PostgreSQL's timestamps are microseconds: timestamp(6), never Trino's bare (millisecond) timestamp
    [
      'select cast(a as bigint), a::smallint, a::double precision, a::real, x::numeric(10,2), a::text, b::varchar, a::boolean, b::date, b::timestamp, x::integer, d::text, ts::date, tz::timestamptz, bin::bytea from s.t',
      `SELECT CAST("a" AS bigint), CAST("a" AS smallint), CAST("a" AS double), CAST("a" AS real), CAST("x" AS decimal(10,2)), CAST("a" AS varchar), CAST("b" AS varchar), CAST("a" AS boolean), CAST("b" AS date), CAST("b" AS timestamp(6)), CAST("x" AS integer), CAST("d" AS varchar), CAST("ts" AS date), CAST("tz" AS timestamp(6) with time zone), CAST("bin" AS varbinary) FROM ${T}`,
    ],
    // date ± interval is a timestamp in PostgreSQL, a date in Trino
    [
      "select d + interval '1' day, ts - interval '2' hour, interval '1' year + d from s.t",
      `SELECT (CAST("d" AS timestamp(6)) + INTERVAL '1' DAY), ("ts" - INTERVAL '2' HOUR), (INTERVAL '1' YEAR + CAST("d" AS timestamp(6))) FROM ${T}`,
    ],
  ])('%s', (sql, expected) => {
    expect(print(sql)).toBe(expected);
  });
});

describe('window functions and aggregates', () => {
  it.each([
    [
      'select row_number() over (partition by b order by a desc), rank() over (order by a), dense_rank() over () from s.t',
      `SELECT row_number() OVER (PARTITION BY "b" ORDER BY "a" DESC NULLS FIRST), rank() OVER (ORDER BY "a" ASC NULLS LAST), dense_rank() OVER () FROM ${T}`,
    ],
    [
      'select sum(a) over (order by a rows between unbounded preceding and current row), avg(f) over (partition by b rows 2 preceding), max(a) over (range between unbounded preceding and unbounded following) from s.t',
      `SELECT sum("a") OVER (ORDER BY "a" ASC NULLS LAST ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW), avg("f") OVER (PARTITION BY "b" ROWS 2 PRECEDING), max("a") OVER (RANGE BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) FROM ${T}`,
    ],
    [
      'select lag(a) over (order by a), lead(a, 2, 0) over (order by a), first_value(a) over (order by a), last_value(a) over (order by a) from s.t',
      `SELECT lag("a") OVER (ORDER BY "a" ASC NULLS LAST), lead("a", 2, 0) OVER (ORDER BY "a" ASC NULLS LAST), first_value("a") OVER (ORDER BY "a" ASC NULLS LAST), last_value("a") OVER (ORDER BY "a" ASC NULLS LAST) FROM ${T}`,
    ],
    [
      'select count(*), count(a), count(distinct a), sum(a), min(b), max(d), avg(f), sum(x) filter (where a > 0) from s.t',
      `SELECT count(*), count("a"), count(DISTINCT "a"), sum("a"), min("b"), max("d"), avg("f"), sum("x") FILTER (WHERE ("a" > 0)) FROM ${T}`,
    ],
  ])('%s', (sql, expected) => {
    expect(print(sql)).toBe(expected);
  });
});

describe('functions', () => {
  it.each([
    // PostgreSQL's trims remove spaces; Trino's one-argument trims remove all whitespace
    [
      "select lower(b), upper(b), length(b), substr(b, 2), substr(b, 2, 3), substring(b from 1 for 2), trim(b), trim(both 'x' from b), ltrim(b), rtrim(b, 'y') from s.t",
      `SELECT lower("b"), upper("b"), length("b"), substr("b", 2), substr("b", 2, 3), substr("b", 1, 2), trim("b", ' '), trim("b", 'x'), ltrim("b", ' '), rtrim("b", 'y') FROM ${T}`,
    ],
    // Trino casts nothing to varchar implicitly; PostgreSQL's concat skips NULLs
    [
      "select b || 'x', 'x' || a, b || d, concat(b, a, x), concat(b), bin || bin from s.t",
      `SELECT ("b" || 'x'), ('x' || CAST("a" AS varchar)), ("b" || CAST("d" AS varchar)), concat(coalesce("b", ''), coalesce(CAST("a" AS varchar), ''), coalesce(CAST("x" AS varchar), '')), coalesce("b", ''), ("bin" || "bin") FROM ${T}`,
    ],
    ['select abs(a), round(x), round(x, 2), floor(x), ceil(f), ceiling(x) from s.t', `SELECT abs("a"), round("x"), round("x", 2), floor("x"), ceil("f"), ceiling("x") FROM ${T}`],
    // PostgreSQL's dow counts Sunday 0, Trino's Sunday 7
    [
      "select date_trunc('month', ts), extract(year from d), extract(dow from ts), extract(isodow from d), extract(doy from d) from s.t",
      `SELECT date_trunc('month', "ts"), EXTRACT(YEAR FROM "d"), (EXTRACT(DOW FROM "ts") % 7), EXTRACT(DOW FROM "d"), EXTRACT(DOY FROM "d") FROM ${T}`,
    ],
    [
      'select now(), current_date, current_timestamp, current_timestamp(3), localtimestamp from s.t',
      `SELECT current_timestamp(6), current_date, current_timestamp(6), current_timestamp(3), localtimestamp(6) FROM ${T}`,
    ],
    // the 'g' form only (Trino replaces every match); \n references become $n, a literal $ is escaped
    [
      "select regexp_replace(b, 'a+', 'x', 'g'), regexp_replace(b, '([a-z]+)-([0-9]+)', '\\2 \\1 $', 'g'), regexp_replace(b, '[^a-c]{2,3}|z+', '\\\\', 'g') from s.t",
      `SELECT regexp_replace("b", 'a+', 'x'), regexp_replace("b", '([a-z]+)-([0-9]+)', '$2 $1 \\$'), regexp_replace("b", '[^a-c]{2,3}|z+', '\\\\') FROM ${T}`,
    ],
    // an unknown literal is bytea input: its UTF-8 bytes
    ["select sha256(bin), sha256('abc') from s.t", `SELECT sha256("bin"), sha256(to_utf8('abc')) FROM ${T}`],
  ])('%s', (sql, expected) => {
    expect(print(sql)).toBe(expected);
  });
});

describe("classes through derived tables and CTEs: a column's class is its query's", () => {
  it('an integer column of a derived table divides as an integer', () => {
    expect(print('select q.c / 2, c % 2 from (select a as c from s.t) as q')).toBe(`SELECT ("q"."c" / 2), ("c" % 2) FROM (SELECT "a" AS "c" FROM ${T}) AS "q"`);
  });

  it("a CTE's renamed columns, and a set operation's where both sides agree", () => {
    expect(print('with w(k) as (select a from s.t union select a from s.u) select k / 2 from w')).toContain('SELECT ("k" / 2) FROM "w"');
    expect(refusal(() => print('with w(k) as (select a from s.t union select x from s.u) select k / 2 from w')).message).toContain('division of a value of unknown type by integer');
  });

  it('a numeric column of a CTE does not divide; a boolean one has no min', () => {
    expect(refusal(() => print('with w as (select x from s.t) select w.x / 2 from w')).message).toContain('division of decimal by integer');
    expect(refusal(() => print('select min(q.flag) from (select flag from s.t) as q')).message).toContain('min of a boolean');
    expect(refusal(() => print('select max(z) from s.t')).message).toContain('max of a value whose type the printer cannot see');
  });
});

describe('refused with 0A000, naming the construct', () => {
  it.each([
    ['with recursive r(n) as (select 1 union all select n + 1 from r where n < 3) select n from r', 'a recursive CTE'],
    ['with m as materialized (select a from s.t) select a from m', 'MATERIALIZED'],
    ['select x.y from s.t, lateral (select t.a as y) as x', 'LATERAL'],
    ['select generate_series(1, 3)', 'the function generate_series'],
    ['select unnest(array[1, 2])', 'the function unnest'],
    ['select jsonb_array_elements(b::jsonb) from s.t', 'the function jsonb_array_elements'],
    ['select * from generate_series(1, 3)', 'a function in FROM'],
    ['select no_such_function(a) from s.t', 'the function no_such_function'],
    ['select array[1, 2]', 'an array'],
    ['select b::jsonb from s.t', 'the type jsonb'],
    ["select b::jsonb -> 'k' from s.t", 'the operator ->'],
    ["select b ->> 'k' from s.t", 'the operator ->>'],
    ['select a, count(*) from s.t group by grouping sets ((a), ())', 'GROUPING SETS'],
    ['select a, count(*) from s.t group by rollup (a)', 'ROLLUP'],
    ['select a, count(*) from s.t group by cube (a)', 'CUBE'],
    ["select b from s.t where b ilike 'a%'", 'ILIKE'],
    ["select b from s.t where b similar to 'a%'", 'SIMILAR TO'],
    ["select b from s.t where b ~ 'a'", 'the operator ~'],
    ['select distinct on (a) a, b from s.t', 'DISTINCT ON'],
    ['select a from s.t order by a fetch first 1 rows with ties', 'WITH TIES'],
    ['select rank() over w from s.t window w as (order by a)', 'a WINDOW clause'],
    ['select sum(a) over (order by a groups between 1 preceding and current row) from s.t', 'a GROUPS frame'],
    ['select sum(a) over (order by a rows between 1 preceding and current row exclude current row) from s.t', 'EXCLUDE'],
    ['select string_agg(b, \',\' order by b) from s.t', 'an aggregate with ORDER BY'],
    ['select percentile_cont(0.5) within group (order by a) from s.t', 'WITHIN GROUP'],
    ['select greatest(a, 1) from s.t', 'GREATEST'],
    ['select row(a, b) from s.t', 'a row constructor'],
    ['select a from s.t where a = $1', 'a parameter'],
    ['values (1)', 'VALUES'],
    ['select a from only s.t', 'ONLY'],
    ['select a from s.t tablesample system (10)', 'TABLESAMPLE'],
    ['select a from s.t for update', 'FOR UPDATE'],
    ['select b collate "C" from s.t', 'COLLATE'],
    ['select a::numeric from s.t', 'numeric without a precision'],
    ['select b::char(3) from s.t', 'the type bpchar'],
    ["select b::varchar(3) from s.t", 'the type varchar(3)'],
    ['select a::int[] from s.t', 'an array'],
    ['select b::regclass from s.t', 'the type regclass'],
    // type-dependent meanings the printer cannot prove
    ['select x / 3 from s.t', 'division of decimal by integer'],
    ['select a / b from s.t', 'division of integer by text'],
    ['select avg(a) from s.t', 'avg of a value that is not double precision'],
    ['select max(flag) from s.t', 'max of a boolean'],
    ['select round(f) from s.t', 'round of a value that is not numeric'],
    ['select f::integer from s.t', 'a cast to integer of a double value'],
    ['select f::text, ts::text from s.t', 'a cast to varchar of a double value'],
    ["select 'a' || flag from s.t", '|| of a boolean value'],
    ["select 'a' || f from s.t", '|| of a double value'],
    ["select concat('a', ts) from s.t", 'concat of a timestamp value'],
    ['select d - d from s.t', 'date - date arithmetic'],
    ['select d + 1 from s.t', 'date + integer arithmetic'],
    ["select tz + interval '1' day from s.t", 'interval arithmetic on a timestamptz'],
    ["select date_trunc('month', d) from s.t", 'date_trunc of a value that is not a timestamp'],
    ["select extract(epoch from ts) from s.t", 'EXTRACT(epoch)'],
    ['select extract(year from tz) from s.t', 'EXTRACT from a value that is not a date or a timestamp'],
    ['select substr(b, 0, 2) from s.t', 'substr with a start'],
    ['select substr(b, a) from s.t', 'substr with a start'],
    ["select substring(b from 'a.c') from s.t", 'substr with a start'],
    ["select regexp_replace(b, 'a', 'x') from s.t", "regexp_replace without the flag 'g'"],
    ["select regexp_replace(b, 'a', 'x', 'gi') from s.t", "regexp_replace without the flag 'g'"],
    ["select regexp_replace(b, '^a.', 'x', 'g') from s.t", "the regular expression '^a.'"],
    // where the engines put the replacement of an empty match may differ
    ["select regexp_replace(b, 'y*', 'x', 'g') from s.t", "the regular expression 'y*'"],
    ["select regexp_replace(b, '(a|b?)c{0,2}', 'x', 'g') from s.t", "the regular expression '(a|b?)c{0,2}'"],
    ['select null + null', '+ of two untyped literals'],
    ['select 1 from s.t as n, s.u as n', 'the table name "n" twice in one FROM'],
    // PostgreSQL: division by zero; Trino: Infinity
    ['select f / a, a / f, f / 0 from s.t', 'division of a double precision value by a value that is not a non-zero constant'],
    ['select f::real * 2 from s.t', '* of a real and integer'],
    ['select avg(f::real) from s.t', 'avg of a value that is not double precision'],
    ["select regexp_replace(b, 'a', '\\&', 'g') from s.t", 'the replacement escape \\&'],
    ['select regexp_replace(b, b, \'x\', \'g\') from s.t', 'not a constant'],
    ["select b from s.t where b like 'a\\b'", "a LIKE pattern escaping 'b'"],
    ['select b from s.t where b like b', 'a LIKE pattern that is not a constant'],
    ["select '2024-1-1'::date", "the date literal '2024-1-1'"],
    ["select 'today'::date", "the date literal 'today'"],
    ["select '0000-01-01'::date", "the date literal '0000-01-01'"],
    ["select '2024-01-01 00:00'::timestamptz", "the timestamptz literal"],
    ["select interval '1 day 2 hours'", 'the interval literal'],
    ["select interval '1' day to hour", 'an interval with more than one field'],
    ["select 'NaN'::float8", "the double literal 'NaN'"],
    ['select a from s.t limit a', 'LIMIT that is not a constant'],
    ['select "A" from s.t', 'the mixed-case identifier "A"'],
    ['select a from s.v', 'the relation s.v'],
    ['select a from pg_class', 'the relation pg_class'],
    ['select current_user', 'CURRENT_USER'],
    ['select a + 1 as k, count(*) from s.t group by k', 'GROUP BY the output column "k"'],
    ['select count(*) from s.t as t(a) natural join s.u', 'NATURAL JOIN'],
    ['select a from s.t join s.u as j using (a) as x', 'a JOIN USING alias'],
    ['select lower(b) over () from s.t', 'lower as an aggregate or window function'],
    ['select row_number() from s.t', 'row_number without OVER'],
    ['select (b).x from s.t', 'a subscript or field selection'],
    ['insert into s.t values (1)', 'InsertStmt statement'],
  ])('%s → %s', (sql, construct) => {
    const opts: TrinoPrintOptions = { ...OPTIONS, relation: (r) => (r.schema === 's' && r.name !== 'v' ? ['lake', 's', r.name] : undefined) };
    const e = refusal(() => print(sql, opts));
    expect(e.code).toBe('0A000');
    expect(e.message).toContain(construct);
    expect(e.message).toMatch(/ is not supported on the Trino engine$/);
  });

  it("a relation of the pg_catalog emulation stays in lakegate", () => {
    const rv = { SelectStmt: { targetList: [{ ResTarget: { val: { A_Const: { ival: { ival: 1 } } } } }], fromClause: [{ RangeVar: { catalogname: 'lakegate_pg', schemaname: 'pgc', relname: 'pg_class', inh: true, relpersistence: 'p' } }], limitOption: 'LIMIT_OPTION_DEFAULT', op: 'SETOP_NONE' } };
    expect(refusal(() => printTrino(rv, OPTIONS)).message).toContain("the pg_catalog emulation's relation pg_class");
  });

  it('MASK_HASH without a mask key is refused, not printed without its key', () => {
    const call = { FuncCall: { funcname: [{ String: { sval: 'lakegate_pg' } }, { String: { sval: 'lgp' } }, { String: { sval: 'mask_hash' } }], args: [{ ColumnRef: { fields: [{ String: { sval: 'b' } }] } }], funcformat: 'COERCE_EXPLICIT_CALL' } };
    const stmt = { SelectStmt: { targetList: [{ ResTarget: { val: call } }], limitOption: 'LIMIT_OPTION_DEFAULT', op: 'SETOP_NONE' } };
    expect(refusal(() => printTrino(stmt, { ...OPTIONS, maskKey: undefined })).message).toContain('MASK_HASH without a mask key');
  });
});

describe('totality: nothing unknown is printed', () => {
  /** Every node object of the tree (wrapped or inline), each with its own fields. */
  function objects(n: unknown, out: Record<string, unknown>[] = []): Record<string, unknown>[] {
    if (Array.isArray(n)) for (const x of n) objects(x, out);
    else if (n !== null && typeof n === 'object') {
      out.push(n as Record<string, unknown>);
      for (const v of Object.values(n)) objects(v, out);
    }
    return out;
  }

  /** Between them, every node kind and field the printer prints. */
  const STATEMENTS = [
    "with w as (select a, b from s.t where a between 1 and 2) select distinct w.a, count(*) filter (where b like 'x%') over (partition by a order by b rows 1 preceding), case when a is null then 0 else a end from w left join s.u using (a) where exists (select 1) and a in (1, 2) group by w.a, b having count(*) > 0 order by 1 desc limit 3 offset 1",
    "with w(c) as (select a from s.t) (select c from w union all select a from s.u as u2(a) order by 1) intersect select (select max(a) from s.u) from s.t t1 cross join s.u full join (select 1 as a) as q(a) on t1.a = q.a",
    "select case a when 1 then 'one' end, coalesce(b, 'n'), nullif(a, 0), a is distinct from 1, a is not distinct from 2, flag is not true, b not like 'a!%' escape '!', b like 'a\\%', a not between 1 and 2, a not in (3), a < all (select 1), a in (select 2), not flag, -a, a % 2 from s.t where d > '2024-01-01' and a = '5'",
    "select cast(a as bigint), x::numeric(10,2), ts::timestamp(3), '2024-01-01'::date, date '2024-01-02', interval '2' day, interval '3 months', d + interval '1' day, '1.5'::numeric, 12345678901, 1e3, true, null, 'it''s', current_timestamp(3), now(), current_date from s.t",
    "select lower(b), substr(b, 2, 3), trim(both 'x' from b), concat(b, a), b || a, round(x, 2), date_trunc('day', ts), extract(dow from d), regexp_replace(b, 'a+', '\\1', 'g'), sha256(bin), lead(a, 1, 0) over (order by a desc nulls last range between unbounded preceding and current row), sum(distinct a), avg(f) over (rows between 1 preceding and 1 following) from s.t",
  ];

  it.each(STATEMENTS)('the statement the test mutates prints: %s', (sql) => {
    expect(() => print(sql)).not.toThrow();
  });

  it.each(STATEMENTS)('an unknown field on any node of it is a refusal: %s', (sql) => {
    const count = objects(tree(sql)).length;
    const printed: string[] = [];
    for (let i = 0; i < count; i++) {
      const t = tree(sql);
      const target = objects(t)[i]!;
      const keys = Object.keys(target).join(',');
      // a field wrapper ({ SelectStmt: … }), a node's fields or a value holder: a key the printer never met
      target['lg_unknown_field'] = { A_Const: { ival: { ival: 1 } } };
      try {
        printTrino(t, OPTIONS);
        printed.push(`${i}: ${keys}`);
      } catch (e) {
        expect((e as SqlError).code).toBe('0A000');
      }
    }
    expect(printed).toEqual([]);
  });

  it('an unknown node kind in an expression is a refusal naming it', () => {
    const t = tree('select a from s.t');
    t['SelectStmt']!['targetList'][0]['ResTarget']['val'] = { XmlExpr: { op: 'IS_XMLELEMENT' } };
    expect(refusal(() => printTrino(t, OPTIONS)).message).toBe('XmlExpr is not supported on the Trino engine');
  });

  it('a minus before a negative number is not a comment', () => {
    const t = tree('select -a');
    t['SelectStmt']!['targetList'][0]['ResTarget']['val']['A_Expr']['rexpr'] = { A_Const: { ival: { ival: -7 } } };
    expect(printTrino(t, OPTIONS)).toBe('SELECT (- -7)');
  });

  it('an enum value it has not met is a refusal', () => {
    const t = tree('select a from s.t t1 join s.u t2 on true');
    t['SelectStmt']!['fromClause'][0]['JoinExpr']['jointype'] = 'JOIN_SEMI';
    expect(refusal(() => printTrino(t, OPTIONS)).message).toContain('the join type JOIN_SEMI');
  });
});

describe('the data gate: every mask and row-filter shape it emits', () => {
  const KEY = 'unit-test-mask-key-0123456789';

  const scope = (columns: [string, string][]): ExpressionScope => ({
    columns: new Map(columns),
    source: 'lg_src',
    user: 'alice',
    roles: new Set(['analyst']),
    dialect: { database: 'demo', searchPath: ['public'], user: 'alice', catalog: { listSchemas: () => [], getTable: () => undefined }, settings: () => undefined, backendPid: 1 },
    mask: { hashAvailable: true },
  });

  const COLUMNS: [string, string][] = [['v', 'VARCHAR'], ['n', 'INTEGER'], ['big', 'BIGINT'], ['d', 'DATE'], ['region', 'VARCHAR'], ['amount', 'DECIMAL(10,2)']];
  const DUCK_CLASSES: Record<string, ValueClass> = { VARCHAR: 'text', INTEGER: 'integer', BIGINT: 'integer', DATE: 'date', 'DECIMAL(10,2)': 'decimal' };

  const table: CatalogTable = {
    schema: 'sales',
    name: 'orders',
    columns: COLUMNS.map(([name, duckType]) => ({ name, duckType, nullable: true })),
    resource: { database: 'sales', table: 'orders' },
    scan: () => ({ RangeVar: { catalogname: 'lake', schemaname: 'sales', relname: 'orders', inh: true, relpersistence: 'p' } }),
  };

  const policy = { id: 7, name: 'p' };
  /** Ranger's Hive service definition's transformers, by mask type. */
  const TRANSFORMERS: Record<string, string | null> = {
    MASK: 'mask({col})',
    MASK_SHOW_LAST_4: "mask_show_last_n({col}, 4, 'x', 'x', 'x', -1, '1')",
    MASK_SHOW_FIRST_4: "mask_show_first_n({col}, 4, 'x', 'x', 'x', -1, '1')",
    MASK_HASH: 'mask_hash({col})',
    MASK_DATE_SHOW_YEAR: "mask({col}, 'x', 'x', 'x', -1, '1', 1, 0, -1)",
    MASK_NULL: null,
    CUSTOM: null,
  };

  function decision(masks: Record<string, { type: string; valueExpr?: string }>, rowFilters: string[]): Extract<TableDecision, { visible: true }> {
    const columns: ColumnDecision[] = COLUMNS.map(([name, duckType]) => {
      const m = masks[name];
      const mask: MaskDecision | null = m ? { type: m.type, transformer: TRANSFORMERS[m.type] ?? null, valueExpr: m.valueExpr ?? null, policy, audited: false } : null;
      return { name, policyName: name, duckType, readable: true, denyPolicy: null, mask };
    });
    return {
      visible: true,
      resource: table.resource,
      accessPolicy: policy,
      access: { policyId: 7, policyVersion: null } as never,
      rowFilters: rowFilters.map((expr) => ({ expr, policy, audited: false })),
      noRows: null,
      columns,
      admin: false,
    } as Extract<TableDecision, { visible: true }>;
  }

  /** The user's `select * from sales.orders` with the gate's derived table in the reference's place. */
  function gated(masks: Record<string, { type: string; valueExpr?: string }>, rowFilters: string[], fenced = true): string {
    const compiled = compileTable(table, decision(masks, rowFilters), scope(COLUMNS), 'case');
    const item = fromItem(compiled, { aliasname: 'orders' }, fenced);
    const stmt = { SelectStmt: { targetList: [{ ResTarget: { val: { ColumnRef: { fields: [{ A_Star: {} }] } } } }], fromClause: [item], limitOption: 'LIMIT_OPTION_DEFAULT', op: 'SETOP_NONE' } };
    return printTrino(stmt, {
      relation: (r) => (r.catalog === 'lake' ? ['iceberg', r.schema!, r.name] : undefined),
      // the scan's columns, typed from the catalog as the backend will hand them over
      columnClass: (parts) => DUCK_CLASSES[COLUMNS.find(([name]) => name === parts[parts.length - 1])?.[1] ?? ''],
      maskKey: KEY,
    });
  }

  it('no policy: the catalog columns, by name, from the scan', () => {
    expect(gated({}, [])).toBe(
      'SELECT * FROM (SELECT "lg_src"."v" AS "v", "lg_src"."n" AS "n", "lg_src"."big" AS "big", "lg_src"."d" AS "d", "lg_src"."region" AS "region", "lg_src"."amount" AS "amount" FROM "iceberg"."sales"."orders" AS "lg_src") AS "orders"',
    );
  });

  it('a row filter, fenced by CASE and unfenced', () => {
    const fenced = gated({}, ["region = 'EU'"]);
    expect(fenced).toContain('SELECT ("lg_src"."region" = \'EU\') AS "lg_row_ok", "lg_src"."v" AS "v"');
    expect(fenced).toContain('(CASE WHEN "lg_src"."lg_row_ok" THEN "lg_src"."v" END) AS "v"');
    expect(fenced).toContain('WHERE "lg_src"."lg_row_ok") AS "orders"');
    expect(gated({}, ["region in ('EU', 'US') and current_user = 'alice'"], false)).toContain(
      `WHERE (("lg_src"."region" IN ('EU', 'US')) AND ('alice' = 'alice'))) AS "orders"`,
    );
  });

  it('MASK_HASH: HMAC-SHA256 hex under the configured key', () => {
    expect(gated({ v: { type: 'MASK_HASH' } }, [])).toContain(`CAST(lower(to_hex(hmac_sha256(to_utf8("lg_src"."v"), to_utf8('${KEY}')))) AS varchar) AS "v"`);
  });

  it('MASK_NULL: a NULL of the column type', () => {
    expect(gated({ n: { type: 'MASK_NULL' }, d: { type: 'MASK_NULL' } }, [])).toContain('CAST(NULL AS integer) AS "n", "lg_src"."big" AS "big", CAST(NULL AS date) AS "d"');
  });

  it('MASK, MASK_SHOW_LAST_4, MASK_SHOW_FIRST_4 of a string: the ASCII translate and the Unicode-class passes', () => {
    const mask = gated({ v: { type: 'MASK' } }, []);
    expect(mask).toContain(
      `CAST((CASE WHEN (length(to_utf8("lg_src"."v")) = length("lg_src"."v")) THEN translate("lg_src"."v", 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', 'XXXXXXXXXXXXXXXXXXXXXXXXXXxxxxxxxxxxxxxxxxxxxxxxxxxxnnnnnnnnnn') ELSE regexp_replace(regexp_replace(regexp_replace("lg_src"."v", '[^\\P{Lu}\\x{10000}-\\x{10FFFF}]', 'X'), '[^\\P{Ll}\\x{10000}-\\x{10FFFF}]', 'x'), '[^\\P{Nd}\\x{10000}-\\x{10FFFF}]', 'n') END) AS varchar) AS "v"`,
    );
    const last = gated({ v: { type: 'MASK_SHOW_LAST_4' } }, []);
    expect(last).toContain('(CASE WHEN (length("lg_src"."v") <= 4) THEN "lg_src"."v" ELSE');
    // PostgreSQL's right(v, 4), in Trino's substr
    expect(last).toContain('|| substr("lg_src"."v", IF(4 >= 0, greatest(length("lg_src"."v") - 4 + 1, 1), 1 - 4))) END)');
    const first = gated({ v: { type: 'MASK_SHOW_FIRST_4' } }, []);
    expect(first).toContain('ELSE (substr("lg_src"."v", 1, IF(4 >= 0, 4, greatest(length("lg_src"."v") + 4, 0))) ||');
  });

  it('MASK and the show-4 masks of integers: digits over |v|, the sign kept, wrapped to the type', () => {
    const absDigits = 'CAST(abs(CAST("lg_src"."n" AS decimal(38,0))) AS varchar)';
    expect(gated({ n: { type: 'MASK' } }, [])).toContain(
      `CAST((((((CASE WHEN "lg_src"."n" < 0 THEN -(CAST(lpad('', length(${absDigits}), '1') AS decimal(38,0))) ELSE CAST(lpad('', length(${absDigits}), '1') AS decimal(38,0)) END) + DECIMAL '2147483648') % DECIMAL '4294967296') + DECIMAL '4294967296') % DECIMAL '4294967296' - DECIMAL '2147483648') AS integer) AS "n"`,
    );
    const big = 'CAST(abs(CAST("lg_src"."big" AS decimal(38,0))) AS varchar)';
    expect(gated({ big: { type: 'MASK_SHOW_LAST_4' } }, [])).toContain(
      `IF(length(${big}) <= 4, ${big}, concat(lpad('', length(${big}) - 4, '1'), substr(${big}, length(${big}) - 4 + 1)))`,
    );
    expect(gated({ big: { type: 'MASK_SHOW_FIRST_4' } }, [])).toContain(`concat(substr(${big}, 1, 4), lpad('', length(${big}) - 4, '1'))`);
    expect(gated({ big: { type: 'MASK_SHOW_FIRST_4' } }, [])).toContain("DECIMAL '18446744073709551616'");
  });

  it('MASK_DATE_SHOW_YEAR: the year kept, month and day 1', () => {
    expect(gated({ d: { type: 'MASK_DATE_SHOW_YEAR' } }, [])).toContain(
      `CAST((CASE WHEN "lg_src"."d" IS NULL THEN NULL ELSE CAST(format('%04d-%02d-%02d', year("lg_src"."d"), 1, 1) AS date) END) AS date) AS "d"`,
    );
  });

  it('CUSTOM: an expression the DuckDB dialect leaves as written prints; one it rewrote into its macros is refused', () => {
    expect(gated({ region: { type: 'CUSTOM', valueExpr: "upper({col})" } }, [])).toContain('CAST(upper("lg_src"."region") AS varchar) AS "region"');
    // the gate hands its expressions over in DuckDB's dialect: concat became the emulation's macro
    const e = refusal(() => gated({ region: { type: 'CUSTOM', valueExpr: "concat('x', {col})" } }, []));
    expect([e.code, e.message]).toEqual(['0A000', 'the function lakegate_pg.pgc.lg_text_arg is not supported on the Trino engine']);
  });

  it("the MATERIALIZED fence is refused: on Trino the gate's CASE fence is the form", () => {
    const compiled = compileTable(table, decision({}, ["region = 'EU'"]), scope(COLUMNS), 'materialized');
    const stmt = { SelectStmt: { targetList: [{ ResTarget: { val: { ColumnRef: { fields: [{ A_Star: {} }] } } } }], fromClause: [fromItem(compiled, { aliasname: 'orders' }, true)], limitOption: 'LIMIT_OPTION_DEFAULT', op: 'SETOP_NONE' } };
    const e = refusal(() => printTrino(stmt, { relation: () => ['iceberg', 'sales', 'orders'] }));
    expect([e.code, e.message]).toEqual(['0A000', 'a MATERIALIZED or NOT MATERIALIZED CTE is not supported on the Trino engine']);
  });

  it('the printer names the macros the gate installs', () => {
    expect(MASK_MACRO_SCHEMA).toBe(MASK_SCHEMA);
    expect(Object.keys(MASK_MACROS).sort()).toEqual(Object.values(MACROS).sort());
  });

  it("MASK_HASH's rendering of a fixed value under a fixed key, beside the HMAC Node computes", () => {
    // The value proof needs Trino (the Trino suite runs this text and compares it with HMAC below);
    // reference/trino.md records that Trino 476's lower(to_hex(hmac_sha256(to_utf8(v), to_utf8(key)))) equals it.
    const stmt = { SelectStmt: { targetList: [{ ResTarget: { name: 'h', val: { FuncCall: { funcname: [{ String: { sval: 'lakegate_pg' } }, { String: { sval: 'lgp' } }, { String: { sval: 'mask_hash' } }], args: [{ A_Const: { sval: { sval: '123-45-6789' } } }], funcformat: 'COERCE_EXPLICIT_CALL' } } } }], limitOption: 'LIMIT_OPTION_DEFAULT', op: 'SETOP_NONE' } };
    expect(printTrino(stmt, { maskKey: "it's a key" })).toBe(`SELECT lower(to_hex(hmac_sha256(to_utf8('123-45-6789'), to_utf8('it''s a key')))) AS "h"`);
    expect(createHmac('sha256', "it's a key").update('123-45-6789', 'utf8').digest('hex')).toBe(HMAC_OF_FIXED_VALUE);
  });
});

/** HMAC-SHA256('123-45-6789') under the key "it's a key", hex: what the Trino suite expects the text above to answer. */
const HMAC_OF_FIXED_VALUE = createHmac('sha256', "it's a key").update('123-45-6789', 'utf8').digest('hex');

describe('the registry', () => {
  it("the filled engines.trino slots are exactly the printer's documented functions", () => {
    const filled = [...FUNCTION_REGISTRY.values()].filter((e) => e.engines.trino !== undefined).map((e) => e.name).sort();
    expect(filled).toEqual([...TRINO_REGISTRY_FUNCTIONS].sort());
  });
});

describe('the fidelity corpus and TPC-H: every query prints or is refused with 0A000', () => {
  const classOf = (pg: string): ValueClass | undefined => {
    if (/^(integer|bigint|smallint)$/.test(pg)) return 'integer';
    if (pg.startsWith('numeric')) return 'decimal';
    const simple: Record<string, ValueClass> = { 'double precision': 'double', text: 'text', boolean: 'boolean', date: 'date', timestamp: 'timestamp', timestamptz: 'timestamptz' };
    return Object.hasOwn(simple, pg) ? simple[pg] : undefined;
  };
  // the corpus's columns have unique names: the catalog's types, as the backend will hand them to the printer
  const columns = new Map(fidelityTables().flatMap((t) => t.columns.map((c) => [c.name, classOf(c.pg)] as const)));
  const opts: TrinoPrintOptions = {
    relation: (r) => (r.schema !== undefined ? ['iceberg', r.schema, r.name] : undefined),
    columnClass: (parts) => columns.get(parts[parts.length - 1]!),
  };

  function walkQueries(sqls: readonly string[]): { printed: number; refused: number; unparsed: number } {
    let [printed, refused, unparsed] = [0, 0, 0];
    for (const sql of sqls) {
      let stmts;
      try {
        stmts = parseStatements(sql);
      } catch (e) {
        // the corpus holds statements PostgreSQL refuses too: they never reach a printer
        expect((e as SqlError).code).toBe('42601');
        unparsed++;
        continue;
      }
      try {
        const text = printTrino(stmts[0]!.node, opts);
        expect(typeof text).toBe('string');
        printed++;
      } catch (e) {
        if (!(e instanceof SqlError) || e.code !== '0A000') throw new Error(`${sql}: ${String(e)}`);
        refused++;
      }
    }
    return { printed, refused, unparsed };
  }

  it("TPC-H's 22 queries: 17 print; Q1 and Q22 (avg of numerics), Q8, Q14, Q17 (numeric division) are refused", () => {
    expect(TPCH_QUERIES).toHaveLength(22);
    expect(walkQueries(TPCH_QUERIES)).toEqual({ printed: 17, refused: 5, unparsed: 0 });
  });

  it('the fidelity corpus, counted', () => {
    const counts = walkQueries(CORPUS.map((e) => e.sql));
    expect(counts.printed + counts.refused + counts.unparsed).toBe(CORPUS.length);
    expect(counts).toEqual({ printed: 489, refused: 968, unparsed: 2 });
  });
});
