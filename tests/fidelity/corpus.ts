/**
 * The fidelity corpus: analyst and tool SQL that must answer as PostgreSQL
 * does over the same data (tests/fidelity/data.ts). Tables are qualified
 * (`tpch.lineitem`) so neither side depends on its search_path. Queries whose
 * answer changes from run to run (now(), random()) compare types and row
 * counts only; everything else compares every value.
 */
import { TPCH_QUERIES } from './tpch.js';

export interface CorpusEntry {
  group: string;
  sql: string;
  /** 'types': column types and row count only (the value depends on the moment it runs) */
  compare?: 'types';
  /** rows compared in order (otherwise as a multiset: ties under ORDER BY may come in either order) */
  ordered?: boolean;
}

const e = (group: string, sqls: string[], extra: Partial<CorpusEntry> = {}): CorpusEntry[] => sqls.map((sql) => ({ group, sql, ...extra }));

// ---------------------------------------------------------------- arithmetic
const OPERANDS = ['7', '-7', '2', '7::bigint', '7::smallint', '2.5', '7.25::numeric(6,2)', '2::float8', "'1.125'::numeric"];
const arithmetic: string[] = [];
for (const op of ['+', '-', '*', '/', '%'])
  for (const a of OPERANDS.slice(0, 6))
    for (const b of ['2', '3', '-2', '2.50', '4::bigint', '0.5::float8']) {
      if (op === '%' && (a.includes('float') || b.includes('float'))) continue;
      arithmetic.push(`select ${a} ${op} ${b}`);
    }
const moreArithmetic = [
  'select 1/3, 7/2, -7/2', 'select 1/0', 'select 1.0/0', 'select 7 % 0', 'select 2^10', 'select 2.0^0.5', 'select |/ 16', 'select @ -5',
  'select 5 & 3, 5 | 3, 5 # 3, ~5, 1 << 4, 16 >> 2', 'select 10::numeric / 4', 'select 10.00 / 3', 'select 1::numeric / 3', 'select 2::numeric / 3 * 3',
  'select 100.50 * 3', 'select 0.1 + 0.2', 'select 0.1::float8 + 0.2::float8', 'select 1e3', 'select 1.5e-3', 'select 123456789012345678901234567890 + 1',
  'select 2147483647 + 1', 'select 9223372036854775807 + 1', 'select (-2147483648)::int4 / -1', 'select round(2.5), round(3.5), round(-2.5)', 'select round(2.5::float8), round(3.5::float8)',
  'select round(123.456, 2), round(123.456, -1), round(123.456::numeric, 0)', 'select trunc(123.456, 1), trunc(-1.9)', 'select ceil(1.2), floor(-1.2), ceil(1.2::float8)',
  'select abs(-3), abs(-3.5), abs(-3::bigint)', 'select sqrt(2), sqrt(16::numeric)', 'select power(2, 10), power(2.0, 3)', 'select exp(1), ln(10)', 'select log(100), log10(1000)',
  'select mod(7, 3), mod(-7, 3), mod(7.5, 2)', 'select sign(-4), sign(0.0), sign(3::float8)', 'select pi()', 'select degrees(pi()), radians(180)', 'select greatest(1, 2.5, 3), least(4, 2, 8)',
  'select gcd(12, 18), lcm(4, 6)', 'select factorial(5)', 'select div(7, 2), div(-7, 2)', 'select width_bucket(5.35, 0.024, 10.06, 5)', 'select 7::numeric(10,3)', 'select 1.005::numeric(10,2)',
  'select 12345.678::numeric', "select '3.14159'::numeric(5,2)", 'select 3.7::int, (-3.5)::int, 2.5::int', "select '42'::int + 1", 'select 42::text || 1', "select 1.5::real * 2",
  'select 1::numeric + 1::float8', 'select 10 / 4.0', 'select 10 / 4::float8', 'select cast(7 as numeric) / cast(2 as numeric)', 'select (1 + 2) * 3 - 4 / 2',
];

// ---------------------------------------------------------------- strings
const strings = [
  "select 'abc' || 'def'", "select 'abc' || null", "select concat('a', null, 'b', 1)", "select concat_ws('-', 'a', null, 'b')", "select length('hello'), char_length('héllo'), octet_length('héllo')",
  "select upper('abc'), lower('ABC')", "select initcap('hello wORLD foo-bar')", "select substring('hello world' from 7), substring('hello world' from 1 for 5)", "select substr('hello', 2, 3)",
  "select left('hello', 2), right('hello', 2), left('hello', -1)", "select lpad('7', 3, '0'), rpad('ab', 5, '*'), lpad('hello', 3)", "select ltrim('  x  '), rtrim('  x  '), btrim('xxhixx', 'x')",
  "select trim(both 'x' from 'xxhixx'), trim(leading from '  a'), trim(trailing 'b' from 'abb')", "select replace('hello world', 'o', '0')", "select reverse('abc'), repeat('ab', 3)",
  "select position('lo' in 'hello'), strpos('hello', 'l')", "select split_part('a,b,c', ',', 2), split_part('a,b,c', ',', 5)", "select split_part('a,b,c', ',', -1)", "select starts_with('hello', 'he')",
  "select md5('abc')", "select ascii('A'), chr(66)", "select translate('12345', '143', 'ax')", "select to_hex(255), to_hex(-1)", "select regexp_replace('a1b22c333', '[0-9]+', '#')",
  "select regexp_replace('a1b22c333', '[0-9]+', '#', 'g')", "select regexp_matches('foo123bar45', '[0-9]+')", "select regexp_matches('foo123bar45', '[0-9]+', 'g')", "select regexp_split_to_array('a b  c', '\\s+')",
  "select string_to_array('a,b,c', ',')", "select array_to_string(array['a','b',null], ',', '*')", "select format('%s is %s years', 'Ann', 42)", "select format('%I.%L', 'my table', 'it''s')",
  "select format('%5s|%-5s|', 'ab', 'cd')", "select quote_ident('my col'), quote_literal('it''s')", "select 'abc' like 'a%', 'abc' ilike 'A%', 'abc' not like '%z'", "select 'a_c' like 'a\\_c', 'abc' like 'a\\_c'",
  "select 'abc' similar to 'a(b|c)c', 'abc' similar to '%b%'", "select 'foo' ~ 'o+', 'FOO' ~* 'o+', 'foo' !~ 'x'", "select 'x' = 'x ', 'x'::char(3) = 'x'", "select 'abc' < 'abd', 'B' < 'a'",
  "select 'hello'::varchar(3)", "select 'hello'::char(7) || '|'", "select length('x  '::char(5))", "select string_agg(x, ',' order by x) from (values ('b'), ('a'), ('c')) t(x)",
  "select encode('hello'::bytea, 'hex'), encode('hello'::bytea, 'base64')", "select decode('68656c6c6f', 'hex')", "select 'a' || 1 || true", "select upper(null), length(null)",
  "select overlay('Txxxxas' placing 'hom' from 2 for 4)", "select E'a\\tb', 'a\\tb'", "select $$dollar 'quoted'$$", "select U&'\\0041'",
];

// ---------------------------------------------------------------- dates and times
const dates = [
  "select date '2024-02-29' + 1", "select date '2024-03-01' - date '2024-02-01'", "select date '2024-01-31' + interval '1 month'", "select timestamp '2024-01-01 10:00' + interval '90 minutes'",
  "select date_trunc('month', timestamp '2024-05-17 13:45:12')", "select date_trunc('week', date '2024-05-17')", "select date_trunc('quarter', timestamp '2024-05-17 13:45')",
  "select extract(year from date '2024-05-17'), extract(dow from date '2024-05-17'), extract(doy from date '2024-05-17')", "select extract(epoch from timestamp '2024-01-01 00:00:00')",
  "select extract(epoch from interval '1 day 2 hours')", "select date_part('hour', timestamp '2024-01-01 13:14:15')", "select extract(isodow from date '2024-05-19'), extract(week from date '2024-01-01')",
  "select age(timestamp '2024-05-17', timestamp '2020-01-01')", "select interval '1 day' * 3, interval '1 hour' / 2", "select interval '25 hours', justify_hours(interval '25 hours')",
  "select '2024-01-01 10:00+02'::timestamptz", "select '2024-01-01'::date, '2024-01-01 10:00'::timestamp", "select '10:30'::time, '10:30:15.5'::time", "select timestamp '2024-01-01 10:00:00.123456'",
  "select make_date(2024, 2, 29), make_time(1, 2, 3.5)", "select make_timestamp(2024, 1, 2, 3, 4, 5.5)", "select to_char(date '2024-05-17', 'YYYY-MM-DD')", "select to_char(timestamp '2024-05-17 13:45:12', 'DD Mon YYYY HH24:MI:SS')",
  "select to_char(1234.5, '9999.99')", "select to_char(1234567.891, 'FM9,999,999.00')", "select to_char(0.5, '0.00')",
  "select to_char(-1234.5, '9999.99'), to_char(5, '9999'), to_char(0.5, '9.99'), to_char(12345, '999')", "select to_char(1234.5, 'FM9999.99'), to_char(-0.5, 'FM0.00'), to_char(1234567.891, '9,999,999.00')", "select to_char(date '2024-05-17', 'Day, DD Month YYYY')", "select to_char(timestamp '2024-05-17 13:45:12', 'YYYY\"Q\"Q')",
  "select to_date('2024-05-17', 'YYYY-MM-DD')", "select to_date('17/05/2024', 'DD/MM/YYYY')", "select to_timestamp('2024-05-17 13:45', 'YYYY-MM-DD HH24:MI')", "select to_timestamp(0)", "select to_timestamp(1700000000.5)",
  "select to_number('12,345.67', '99,999.99')", "select to_number('-42', '999')", "select current_date", "select current_time", "select current_timestamp", "select localtimestamp", "select localtime",
  "select now()", "select clock_timestamp()", "select transaction_timestamp()", "select statement_timestamp()", "select current_date - 1", "select now() - interval '1 day' < now()", "select current_timestamp(0)",
  "select date '2024-01-01' < timestamp '2024-01-01 00:00:01'", "select timestamp '2024-01-01' at time zone 'UTC'", "select timestamptz '2024-01-01 12:00+00' at time zone 'America/New_York'",
  "select '2024-01-01'::date::timestamp", "select '2024-01-01 12:34'::timestamp::date", "select interval '1 year 2 months 3 days'", "select interval '-1 day'", "select date '2024-05-17' - 30",
  "select extract(month from interval '14 months')", "select '1 day'::interval = '24 hours'::interval", "select isfinite(date '2024-01-01')", "select date 'infinity'", "select generate_series(date '2024-01-01', date '2024-01-05', interval '2 days')", "select current_date - date '2000-01-01'",
];

// ---------------------------------------------------------------- casts, types, misc expressions
const casts = [
  "select 1::bit", "select B'101' & B'110'", "select 'true'::boolean, 'f'::bool, 't'::bool and null", "select 1::boolean", "select true::int", "select 5::text, 5.5::text, true::text",
  "select '00000000-0000-0000-0000-000000000001'::uuid", "select gen_random_uuid() is not null", "select '{1,2,3}'::int[]", "select array[1,2,3]", "select (array[1,2])[1]", "select (array[10,20,30])[2:3]",
  "select array_length(array[1,2,3], 1), cardinality(array[1,2])", "select array[1,2] || 3, array[1,2] || array[3,4]", "select 2 = any(array[1,2,3]), 5 = all(array[5,5])", "select array_agg(x order by x) from (values (3),(1),(2)) t(x)",
  "select unnest(array[1,2,3])", "select * from unnest(array['a','b']) as u(v)", "select array_upper(array[1,2,3], 1), array_lower(array[1,2,3], 1)", "select array_position(array['a','b'], 'b')", "select array_remove(array[1,2,1], 1)",
  "select array_cat(array[1], array[2])", "select array_append(array[1], 2), array_prepend(0, array[1])", "select row(1,'a')", "select row(1, 'a', null, 2.5)", "select (1, 'x') = (1, 'x')",
  "select 'sales.orders'::regclass", "select 'sales.orders'::regclass::text", "select 'int4'::regtype", "select pg_typeof(1), pg_typeof(1.5), pg_typeof('a'::text), pg_typeof(now())", "select pg_typeof(1::bigint + 1), pg_typeof(sum(1))",
  "select pg_typeof(avg(1)), pg_typeof(1/2), pg_typeof(1.0/2)", "select null::int is null, null is distinct from 1, 1 is not distinct from 1", "select coalesce(null, null, 3), nullif(1, 1), nullif(1, 2)",
  "select case when 1 > 2 then 'a' when 2 > 1 then 'b' else 'c' end", "select case 2 when 1 then 'one' when 2 then 'two' end", "select 1 between 0 and 2, 5 not between 1 and 3", "select 1 in (1,2), 3 not in (1, 2)",
  "select true and null, false and null, true or null, not null::bool", "select 'abc'::bytea", "select '\\x41'::bytea", "select 1 where false", "select", "select 1 as a, 2 as a",
  "select cast('12' as integer), cast(12.7 as integer), cast('2024-02-30' as date)", "select 'abc'::int", "select 40000::smallint", "select 'x'::unknown_type", "select 12::money",
  "select md5(null), coalesce(null::text, 'd')", "select greatest('a', 'b'), least(date '2024-01-01', date '2023-01-01')", "select 1::oid", "select 3 > 2 is true", "select num_nulls(1, null, null), num_nonnulls(1, null)",
];

// ---------------------------------------------------------------- JSON
const J = `'{"a": 1, "b": {"c": [1, 2, {"d": "x"}]}, "e": null, "f": "str"}'`;
const json = [
  `select ${J}::json -> 'a'`, `select ${J}::json ->> 'f'`, `select ${J}::jsonb -> 'b' -> 'c' -> 2`, `select ${J}::jsonb #> '{b,c,2,d}'`, `select ${J}::jsonb #>> '{b,c,0}'`,
  `select ${J}::jsonb @> '{"a": 1}'`, `select ${J}::jsonb ? 'a', ${J}::jsonb ? 'z'`, `select ${J}::jsonb ?| array['z', 'f'], ${J}::jsonb ?& array['a', 'z']`, `select '[1, 2, 3]'::json -> 1, '[1,2,3]'::json ->> -1`,
  `select json_build_object('a', 1, 'b', 'x', 'c', null)`, `select jsonb_build_object('a', 1, 'b', true)`, `select json_build_array(1, 'a', null)`, `select to_json('a'::text), to_jsonb(1.5)`, `select to_json(array[1,2])`,
  `select json_agg(x) from (values (1), (2)) t(x)`, `select jsonb_agg(x order by x desc) from (values (1), (2)) t(x)`, `select json_object_agg(k, v) from (values ('a', 1), ('b', 2)) t(k, v)`,
  `select * from json_each('{"a": 1, "b": "x"}')`, `select * from json_each_text('{"a": 1, "b": "x"}')`, `select * from json_array_elements('[1, "a", {"b": 2}]')`, `select * from json_array_elements_text('[1, "a", null]')`,
  `select jsonb_typeof('1'), jsonb_typeof('"a"'), jsonb_typeof('{}'), jsonb_typeof('[]'), jsonb_typeof('null')`, `select json_typeof('true')`, `select row_to_json(row(1, 'a'))`, `select to_json(o_totalprice), to_jsonb(o_totalprice), json_build_object('p', o_totalprice, 'k', o_orderkey, 'c', 1.50) from tpch.orders order by o_orderkey limit 3`, `select json_agg(o_totalprice order by o_orderkey) from tpch.orders where o_orderkey < 5`, `select json_build_object('x', json_build_object('y', json_build_object('z', o_totalprice)), 'a', json_build_array(1, null, 'a'), 'c', '{"a":  1}'::json, 'r', row_to_json(row(1, 2))) from tpch.orders order by o_orderkey limit 2`, `select json_agg(json_build_object('k', o_orderkey) order by o_orderkey), json_object_agg(o_orderkey, json_build_array(o_orderstatus)) from tpch.orders where o_orderkey < 5`, `select to_json(row(1.5, null, true)), to_json(row('x', 2))`,
  `select row_to_json(t) from (select 1 as a, 'x' as b) t`, `select json_array_length('[1,2,3]')`, `select jsonb_array_length('[]')`, `select '{"a":1}'::jsonb || '{"b":2}'::jsonb`,
  `select '{"a":1, "b":2}'::jsonb - 'a'`, `select jsonb_pretty('{"a":1}')`, `select json_object_keys('{"a":1,"b":2}')`, `select jsonb_set('{"a":1}', '{a}', '2')`, `select '{"a": [1,2]}'::jsonb -> 'a' ->> 0`,
  `select '{"b":1, "a":2}'::jsonb`, `select '{"b":1, "a":2}'::json`, `select '[1, 2]'::jsonb = '[1,2]'::jsonb`,
  `select '{"a":1,"b":[1.0,"x"]}'::jsonb = '{"b":[1,"x"], "a":1.00}'::jsonb, '{"a":1}'::jsonb <> '{"a":2}'::jsonb`,
  `select '{"aa":1, "b":[1e2, -0, 1.50, 1.5e-3, 0.1E1], "b": {"zz": {}, "a": []}, "":0, "é":2}'::jsonb, '"x"'::jsonb, 'null'::jsonb, '[]'::jsonb`,
  `select '["\\u00e9\\n/\\/\\u0001\\"\\\\", "\\ud83d\\ude00"]'::jsonb, '-0.00'::jsonb, '[0.1e1, 12E-1, 0e5, -1.0e-2]'::jsonb`,
  `select jsonb_build_array(1, 'a', null), jsonb_object_agg(k, v) from (values ('b', 1), ('a', 2)) t(k, v)`,
  `select jsonb_extract_path('{"a":{"b":"c"}}', 'a'), '{"a":[1,{"c":1,"b":2}]}'::jsonb #> '{a,1}'`,
  `with t as (select '{"b":1,"a":{"y":1,"x":2}}'::jsonb as j) select j, j -> 'a' from t`,
  `select x::jsonb from (values ('{"b":1,"a":2}'), (null)) t(x)`,
  `select '{"a":1, "b":2}'::jsonb - 'a', '["a","b", 1, "a"]'::jsonb - 'a', '{"a":1, "b":2}'::jsonb - 'z', '{"a":1,"a":2}'::jsonb - 'b'`,
  `select '["a","b"]'::jsonb - 1, '["a","b"]'::jsonb - -1, '["a","b"]'::jsonb - 5, '[]'::jsonb - 0`,
  `select '{"a":1, "b":2, "c":3}'::jsonb - '{a,c}'::text[], '["a","b"]'::jsonb - array['b']`,
  `select '{"a":1}'::jsonb - 0`, `select '1'::jsonb - 'a'`,
  `select jsonb_set('{"a":1}', '{b}', '[2]'), jsonb_set('{"a":1}', '{b}', '2', false), jsonb_set('{"a":{"b":[1,2]}}', '{a,b,-1}', '"x"')`,
  `select jsonb_set('[1,2]', '{5}', '3'), jsonb_set('[1,2]', '{-5}', '3'), jsonb_set('[1,2]', '{0}', 'null'), jsonb_set('{"a":1}', '{x,y}', '2'), jsonb_set('{"a":1}', '{a}', null)`,
  `select jsonb_set('1', '{a}', '2')`, `select jsonb_set('[1]', '{a}', '2')`, `select '1'::jsonb #- '{a}'`, `select jsonb_insert('{"a":1}', '{a}', '2')`,
  `select '{"a":{"b":1, "c":2}}'::jsonb #- '{a,b}', '[1,[2,3]]'::jsonb #- '{1,0}', '{"a":1}'::jsonb #- '{x,y}', '{"a":1}'::jsonb #- '{}', '[1,2]'::jsonb #- '{-1}'`,
  `select jsonb_insert('[1,2]', '{1}', '3'), jsonb_insert('[1,2]', '{1}', '3', true), jsonb_insert('{"a":[1,2]}', '{a,0}', '"x"'), jsonb_insert('{"a":1}', '{b}', '2'), jsonb_insert('[1,2]', '{9}', '3')`,
  `select jsonb_strip_nulls('{"x":1,"a":null,"b":null}'), jsonb_strip_nulls('[null, {"a":null,"s":"q\\":null,"}]'), jsonb_strip_nulls('null'), jsonb_strip_nulls('{"a":{"b":null},"c":[{"d":null,"e":[]}]}'), jsonb_strip_nulls('{"a" : null }')`,
  `select jsonb_set('{"a":{"x":1},"a":{"y":2}}', '{a,z}', '3'), '{"a":1}'::jsonb ? 'a', '{"a":1}'::jsonb ?| array['a','z'], '["a"]'::jsonb ?& array['a'], '"a"'::jsonb ? 'a'`,
  `select '{"a":1,"a":2}'::jsonb = '{"a":2}', '{"a":1}'::jsonb in ('{"a": 1}', '{"a": 2}'), '[1]'::jsonb is distinct from '[1 ]'::jsonb`,
  `select '{"a":1}'::jsonb not in ('{"a": 3}'::jsonb), null::jsonb = '1'::jsonb, '{"a":{"x":1},"a":{"y":2}}'::jsonb = '{"a":{"y":2}}'::jsonb`,
  `select '"\\u0041"'::jsonb = '"A"'::jsonb, '1e2'::jsonb = '100'::jsonb, '[1,2]'::jsonb = '[2,1]'::jsonb, '{}'::jsonb = '[]'::jsonb`, `select jsonb_strip_nulls('{"a": null, "b": 1}')`, `select jsonb_extract_path_text('{"a":{"b":"c"}}', 'a', 'b')`,
  `select json_extract_path('{"a":{"b":"c"}}', 'a')`,
];

// ---------------------------------------------------------------- tables: aggregates per column type
const COLS: [string, string][] = [
  ['tpch.lineitem', 'l_quantity'], ['tpch.lineitem', 'l_extendedprice'], ['tpch.lineitem', 'l_discount'], ['tpch.orders', 'o_totalprice'], ['tpch.partsupp', 'ps_availqty'],
  ['tpch.part', 'p_size'], ['tpch.events', 'id'], ['tpch.events', 'score'], ['tpch.events', 'amount'], ['tpch.customer', 'c_acctbal'], ['tpch.lineitem', 'l_linenumber'],
];
const aggregates: string[] = [];
for (const [t, col] of COLS) {
  for (const agg of ['count', 'sum', 'avg', 'min', 'max']) aggregates.push(`select ${agg}(${col}) from ${t}`);
  aggregates.push(`select stddev(${col}), variance(${col}) from ${t}`);
  aggregates.push(`select ${col} * 2, ${col} + 1, ${col} - ${col} from ${t} order by 1 limit 3`);
  aggregates.push(`select ${col} / 3 from ${t} order by ${col} limit 3`);
  aggregates.push(`select round(avg(${col}), 2), sum(${col}) / count(*) from ${t}`);
  aggregates.push(`select ${col}::numeric from ${t} order by 1 limit 2`);
}
aggregates.push(
  'select count(*), count(distinct l_orderkey), sum(distinct l_linenumber) from tpch.lineitem', 'select sum(l_quantity) filter (where l_returnflag = \'R\') from tpch.lineitem',
  'select bool_and(ok), bool_or(ok), every(ok) from tpch.events', 'select percentile_cont(0.5) within group (order by score) from tpch.events', 'select percentile_disc(0.5) within group (order by l_quantity) from tpch.lineitem',
  'select mode() within group (order by l_shipmode) from tpch.lineitem', 'select string_agg(r_name, \', \' order by r_name) from tpch.region', 'select array_agg(n_name order by n_nationkey) from tpch.nation where n_regionkey = 1',
  'select corr(l_quantity, l_extendedprice) is not null, covar_pop(ps_availqty, ps_supplycost) is not null from tpch.lineitem, tpch.partsupp where ps_partkey = l_partkey',
  'select avg(score), sum(score), min(ts), max(ts_tz), min(day) from tpch.events', 'select count(*) from tpch.events where kind is null', 'select sum(p_size) over () from tpch.part limit 1',
);

// ---------------------------------------------------------------- tables: analyst queries
const analyst = [
  'select * from sales.orders', 'select id, amount, region from sales.orders where amount > 150', 'select region, sum(amount), avg(amount), count(*) from sales.orders group by region',
  'select sum(amount) / count(*) from sales.orders', 'select amount * 1.1, amount / 3, amount::int from sales.orders', 'select avg(amount)::numeric(10,2) from sales.orders',
  'select r_name, count(*) from tpch.region join tpch.nation on n_regionkey = r_regionkey group by r_name', 'select n_name from tpch.nation where n_name like \'%AN%\' order by n_name',
  'select n_name from tpch.nation where n_name ilike \'%an\'', 'select n_name from tpch.nation where n_name similar to \'(A|B)%\'', 'select n_name, length(n_name) from tpch.nation where n_name ~ \'^[A-C]\'',
  'select c_mktsegment, count(*), sum(c_acctbal), avg(c_acctbal), min(c_acctbal), max(c_acctbal) from tpch.customer group by 1', 'select c_mktsegment, count(*) from tpch.customer group by 1 having count(*) > 5',
  'select o_orderpriority, count(*) from tpch.orders group by rollup (o_orderpriority)', 'select o_orderstatus, o_orderpriority, count(*) from tpch.orders group by grouping sets ((o_orderstatus), (o_orderpriority), ())',
  'select o_orderstatus, count(*) from tpch.orders group by cube (o_orderstatus)', 'select date_trunc(\'year\', o_orderdate), count(*), sum(o_totalprice) from tpch.orders group by 1',
  'select extract(year from o_orderdate) as y, count(*) from tpch.orders group by y', 'select to_char(o_orderdate, \'YYYY-MM\'), count(*) from tpch.orders group by 1',
  'select o_orderkey, o_totalprice, rank() over (order by o_totalprice desc) from tpch.orders order by 3 limit 5',
  'select o_custkey, o_orderkey, row_number() over (partition by o_custkey order by o_orderdate, o_orderkey) from tpch.orders where o_custkey < 4',
  'select o_custkey, sum(o_totalprice) over (partition by o_custkey) from tpch.orders where o_custkey < 4', 'select o_orderkey, lag(o_totalprice) over (order by o_orderkey), lead(o_orderkey, 2) over (order by o_orderkey) from tpch.orders where o_orderkey < 6',
  'select o_orderkey, sum(o_totalprice) over (order by o_orderkey rows between 1 preceding and current row) from tpch.orders where o_orderkey < 6',
  'select o_orderkey, avg(o_totalprice) over (order by o_orderkey) from tpch.orders where o_orderkey < 6', 'select o_orderkey, ntile(3) over (order by o_orderkey), percent_rank() over (order by o_orderkey), cume_dist() over (order by o_orderkey) from tpch.orders where o_orderkey < 7',
  'select o_orderkey, first_value(o_orderkey) over w, last_value(o_orderkey) over w from tpch.orders where o_orderkey < 5 window w as (order by o_orderkey rows between unbounded preceding and unbounded following)',
  'select o_orderkey, dense_rank() over (order by o_orderpriority) from tpch.orders where o_orderkey < 9', 'select count(*) over (), o_orderkey from tpch.orders where o_orderkey < 3',
  'with t as (select o_custkey, sum(o_totalprice) s from tpch.orders group by 1) select count(*), max(s) from t', 'with recursive r(n) as (select 1 union all select n + 1 from r where n < 5) select sum(n) from r',
  'select c_name from tpch.customer where c_custkey in (select o_custkey from tpch.orders where o_totalprice > 200000)', 'select c_name from tpch.customer c where exists (select 1 from tpch.orders o where o.o_custkey = c.c_custkey and o_orderstatus = \'F\')',
  'select c_name from tpch.customer c where not exists (select 1 from tpch.orders o where o.o_custkey = c.c_custkey)', 'select (select max(o_totalprice) from tpch.orders), (select count(*) from tpch.lineitem)',
  'select c.c_custkey, count(o.o_orderkey) from tpch.customer c left join tpch.orders o on o.o_custkey = c.c_custkey group by 1', 'select count(*) from tpch.nation cross join tpch.region',
  'select n_name, r_name from tpch.nation natural join (select r_regionkey as n_regionkey, r_name from tpch.region) r where n_nationkey < 5', 'select count(*) from tpch.nation full join tpch.region on n_regionkey = r_regionkey',
  'select n_name from tpch.nation union select r_name from tpch.region', 'select n_regionkey from tpch.nation union all select r_regionkey from tpch.region', 'select n_regionkey from tpch.nation intersect select r_regionkey from tpch.region',
  'select n_regionkey from tpch.nation except select 0', 'select distinct l_shipmode from tpch.lineitem', 'select distinct on (l_shipmode) l_shipmode, l_orderkey from tpch.lineitem order by l_shipmode, l_orderkey',
  'select l_orderkey, l_linenumber from tpch.lineitem order by l_orderkey desc, l_linenumber limit 5 offset 2', 'select * from tpch.region order by r_regionkey fetch first 2 rows only',
  'select case when o_totalprice > 100000 then \'big\' else \'small\' end, count(*) from tpch.orders group by 1', 'select coalesce(kind, \'(none)\'), count(*) from tpch.events group by 1',
  'select kind, score from tpch.events order by score nulls first, id limit 3', 'select kind, score from tpch.events order by score desc nulls last, id limit 3', 'select id, ts, ts_tz, day from tpch.events order by id limit 3',
  'select id, ts::date, ts_tz::date, extract(hour from ts) from tpch.events order by id limit 3', 'select date_trunc(\'day\', ts), count(*) from tpch.events group by 1 order by 1 limit 3',
  'select id, payload::json ->> \'user\' from tpch.events order by id limit 4', 'select payload::jsonb -> \'tags\' -> 0 from tpch.events order by id limit 3', 'select count(*) from tpch.events where payload::jsonb @> \'{"n": 3}\'',
  'select (payload::jsonb - \'tags\') #- \'{nested,ok}\', jsonb_set(payload::jsonb, \'{nested,ok}\', \'[1]\') from tpch.events order by id limit 4',
  'select count(*), count(*) filter (where payload::jsonb -> \'nested\' = \'{ "ok":true }\') from tpch.events where payload::jsonb -> \'tags\' -> 0 in (\'"red"\', \'"blue"\')',
  'select payload::json #>> \'{nested,ok}\' from tpch.events where id = 1000000000000', 'select id, ok, not ok from tpch.events order by id limit 4', 'select id, amount, round(amount, 1), amount::int from tpch.events order by id limit 4',
  'select sum(amount), avg(amount) from tpch.events', 'select id % 7, count(*) from tpch.events group by 1', 'select id / 1000, id::text from tpch.events order by id limit 2',
  'select score, round(score::numeric, 2), score::int, floor(score) from tpch.events where score is not null order by id limit 4', 'select l_extendedprice * (1 - l_discount) from tpch.lineitem order by 1 limit 5',
  'select sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) from tpch.lineitem', 'select l_orderkey, sum(l_quantity) from tpch.lineitem group by 1 having sum(l_quantity) > 200 order by 1',
  'select p_brand, p_type, p_size, count(distinct ps_suppkey) from tpch.part join tpch.partsupp on ps_partkey = p_partkey group by 1, 2, 3 order by 4 desc, 1, 2, 3 limit 5',
  'select l_shipdate - l_commitdate, l_receiptdate - l_shipdate from tpch.lineitem order by l_orderkey, l_linenumber limit 3', 'select count(*) from tpch.lineitem where l_shipdate between date \'1994-01-01\' and date \'1994-12-31\'',
  'select count(*) from tpch.lineitem where l_shipdate >= \'1994-01-01\' and l_shipdate < date \'1994-01-01\' + interval \'1 year\'', 'select max(l_shipdate) - min(l_shipdate) from tpch.lineitem',
  'select o_orderdate + 30 from tpch.orders order by o_orderkey limit 2', 'select s_name, s_acctbal from tpch.supplier where s_comment like \'%Customer%Complaints%\'', 'select substring(c_phone from 1 for 2) as cc, count(*) from tpch.customer group by 1',
  'select upper(left(p_name, 3)), initcap(p_name) from tpch.part order by p_partkey limit 3', 'select split_part(p_type, \' \', 2), count(*) from tpch.part group by 1', 'select format(\'%s-%s\', p_partkey, p_brand) from tpch.part order by p_partkey limit 2',
  'select p_partkey::text || \':\' || p_name from tpch.part order by p_partkey limit 2', 'select count(*) filter (where p_size > 25), count(*) filter (where p_size <= 25) from tpch.part', 'select * from tpch.nation where n_nationkey = 7',
  'select n_name from tpch.nation where n_regionkey = any(array[1, 3]) order by 1', 'select count(*) from tpch.part where p_container in (\'SM CASE\', \'SM BOX\') and p_size between 1 and 5',
  'select o_orderkey from tpch.orders where o_comment not like \'%special%requests%\' and o_orderkey < 10', 'select l_returnflag, l_linestatus, count(*) from tpch.lineitem group by 1, 2',
  'select o.o_orderkey, c.c_name from tpch.orders o join tpch.customer c using (o_custkey) limit 1', 'select sales.orders.id from sales.orders', 'select t.* from (values (1, \'a\'), (2, \'b\')) t(x, y)',
  'select x from generate_series(1, 5) x', 'select * from generate_series(1, 10, 3)', 'select sum(x) from generate_series(1, 100) as g(x)', 'select generate_series(1, 3)',
  'select lateral_q.s from tpch.region r, lateral (select count(*) s from tpch.nation n where n.n_regionkey = r.r_regionkey) lateral_q',
];

// ---------------------------------------------------------------- result types of aggregates, windows, series and literals
const numericTypes = [
  'select l_returnflag, sum(l_extendedprice) / sum(l_quantity) from tpch.lineitem group by 1 order by 1',
  'select sum(p_size) / count(*), count(*) / 3, max(p_size) / min(p_size), sum(p_size)::numeric / count(*) > 1 from tpch.part',
  'select o_custkey from tpch.orders group by 1 having sum(o_totalprice) / count(*) > 100000 order by 1',
  'select round(sum(l_quantity) filter (where l_discount > 0.05) / count(*), 4), round(avg(distinct l_quantity), 4), round(avg(l_quantity) filter (where l_tax > 0), 4) from tpch.lineitem',
  'select sum(distinct p_size), sum(p_size) filter (where p_size > 10), sum(distinct ps_availqty::bigint) from tpch.part join tpch.partsupp on ps_partkey = p_partkey',
  'select o_custkey, o_orderkey, sum(o_totalprice) over (partition by o_custkey), round(avg(o_totalprice) over (partition by o_custkey), 2), sum(o_shippriority) over () from tpch.orders where o_custkey < 4',
  'select o_orderkey, round(o_totalprice / sum(o_totalprice) over (), 6) from tpch.orders where o_orderkey < 5',
  'select o_orderdate - 30, o_orderdate - interval \'1 day\', max(o_orderdate) over () - o_orderdate from tpch.orders order by o_orderkey limit 2',
  'select l_receiptdate - date \'1992-01-01\', date \'1999-01-01\' - l_shipdate from tpch.lineitem order by l_orderkey, l_linenumber limit 2',
  'select max(ts) - min(ts), max(day) - min(day) from tpch.events',
  'select g, g * 2, g / 2 from generate_series(1, 4) g', 'select count(*), sum(g) from tpch.region r, generate_series(1, r.r_regionkey) g',
  'select * from generate_series(1::bigint, 3::bigint)', 'select x from generate_series(1, 7, 3) as t(x)', 'select generate_series(1::bigint, 2)',
  'select p_size::smallint + 1, p_size::smallint * 2, 2 - p_size::smallint, p_size::smallint / 3 from tpch.part order by p_partkey limit 2',
  'select gcd(p_size, 12), lcm(p_size::bigint, 4) from tpch.part order by p_partkey limit 3',
  'select score * 2, score::real * 2, 1.5 * score::real from tpch.events where score is not null order by id limit 2',
  'select l_extendedprice - l_discount, l_extendedprice * (1 - l_discount) - l_tax from tpch.lineitem order by l_orderkey, l_linenumber limit 2',
  'select sign(l_quantity - 25), sign(l_linenumber - 3), sign(l_extendedprice::float8 - 30000) from tpch.lineitem order by l_orderkey, l_linenumber limit 3',
  'select div(l_extendedprice, l_quantity), div(l_linenumber, 2), div(-l_extendedprice, 7) from tpch.lineitem order by l_orderkey, l_linenumber limit 3',
  'select round(score::numeric, 3), round(score::numeric, 0), round(id::numeric, 2), round(amount::numeric, 1) from tpch.events where score is not null order by id limit 4',
  'select 2.5e2 * l_quantity, l_quantity / 1e-1, -1.25E+1 from tpch.lineitem order by l_orderkey, l_linenumber limit 2',
  'select round((sum(l_extendedprice) / sum(l_quantity)) / (sum(l_tax) / sum(l_quantity)), 6), round(avg(l_quantity) / 3, 10), round(sum(l_quantity) / sum(l_tax) / count(*), 10) from tpch.lineitem',
];

// ---------------------------------------------------------------- errors PostgreSQL reports
const errors = [
  'select * from tpch.no_such_table', 'select no_such_column from tpch.region', 'select no_such_function(1)', "select to_char(date '2024-01-01')", 'select sum(r_name) from tpch.region',
  'select r_name from tpch.region group by r_regionkey having r_comment is null', 'select 1 +', "select 'a' + 1", "select date '2024-13-01'", 'select 1::int / 0', 'select null::int / 0, null::int % 0', 'select null::numeric / 0, 1.5 / null::int', "select sum(o_totalprice) / count(*), sum(o_totalprice) / 0, sum(o_custkey) / count(*), avg(o_totalprice) / 0 from tpch.orders where o_orderstatus = 'none'", 'select n_name, count(*) from tpch.nation',
  "select avg('x')", 'select * from tpch.region, tpch.region', "select '12x'::bigint", 'select array[1,2][5]', 'select nosuchschema.f(1)', 'select ambiguous from (select 1 as ambiguous) a, (select 2 as ambiguous) b',
];

// ---------------------------------------------------------------- built-ins DuckDB spells differently (sql/builtinDialect.ts)
const builtins = [
  "select array_to_string(array[1, null, 3], '-', 'NULL'), array_to_string(array['a', null], ',', null)", 'select array_position(array[1, null, 3], null), array_position(array[5, 6], 7)',
  "select array_remove(array['a', null, 'b'], null), array_remove(array[1, 2], 3)", 'select array_cat(null, array[1]), array_append(null::int[], 1), array_prepend(1, null::int[])',
  'select array[1] || array[2] || 3 || array[4, 5], 0 || array[1, 2]', 'select array_agg(r_regionkey order by r_regionkey) || 99 from tpch.region',
  "select string_to_array('a,b', ',') || 'c'::text", "select 'a' || 1 || null, null || 'b'", "select encode('\\x00ff7f5c'::bytea, 'escape'), encode('héllo'::bytea, 'escape')",
  "select encode(repeat('abcdefghij', 10)::bytea, 'base64')", "select decode(E'aGVs\\nbG8=', 'base64'), encode(decode('deadBEEF', 'hex'), 'base64')",
  "select encode(p_name::bytea, 'hex') from tpch.part order by p_partkey limit 2", "select encode('x'::bytea, 'nosuch')",
  "select date_trunc('month', o_orderdate), date_trunc('quarter', o_orderdate) from tpch.orders order by o_orderkey limit 2",
  "select date_trunc('day', ts), date_trunc('hour', ts) from tpch.events order by id limit 2", "select * from generate_series(date '2024-01-30', date '2024-03-01', interval '1 month') as g(d)",
  "select count(*) from generate_series(date '2024-01-01', date '2024-12-31', interval '1 week')", "select generate_series(timestamp '2024-01-01', timestamp '2024-01-02', interval '12 hours')",
  "select justify_days(interval '35 days'), justify_interval(interval '1 mon -1 hour')",
  "select justify_hours(interval '-1 day 25 hours'), justify_interval(interval '-1 mon 35 days -3 hours'), justify_days(interval '1 mon -35 days')",
  'select width_bucket(5.35::float8, 0.024, 10.06, 5), width_bucket(-1, 0, 10, 3), width_bucket(10, 0, 10, 2), width_bucket(10, 10, 0, 5)',
  'select width_bucket(l_quantity, 0, 50, 5), count(*) from tpch.lineitem group by 1', 'select width_bucket(5, 0, 10, 0)',
  'select to_hex(255::bigint), to_hex(-1::bigint), to_hex(2147483647), to_hex(p_size) from tpch.part order by p_partkey limit 1',
  'select round(-2.5::float8), round(0.5::float8), round(1.5::float8), round(2.5), round(-0.5)', 'select round(score) from tpch.events where score is not null order by id limit 3',
  "select octet_length(r_name), octet_length('€'), octet_length('abc'::bytea) from tpch.region order by r_regionkey limit 1",
  "select overlay('abcdef' placing 'XY' from 3), overlay('abcdef' placing '' from 2 for 2)", 'select |/ 2.25, ||/ 27, @ -2.5, @ 3::bigint, 6 # 3::bigint',
  "select '1' + 1, 2 * '3', '1.5' + 1.5, 10 - '4'", "select 'x'::varchar(3) || '|', 'hello'::char(3) || '|', 'ab'::char(4) || '|', length('ab '::varchar(5))",
  `select ('{"a":1, "c": {"x": 1}}'::jsonb || '{"b":2, "c": null}'::jsonb) ->> 'c', ('{"a":1}'::jsonb || '{"a":2}'::jsonb) ->> 'a', ('{"a":1}'::jsonb || '{"b":2}'::jsonb) ->> 'b'`,
  `select jsonb_array_length('[1, [2]]'::jsonb || '[[3]]'::jsonb), ('[1]'::jsonb || '{"a":1}'::jsonb) -> 1 ->> 'a', jsonb_typeof('1'::jsonb || '2'::jsonb)`,
  "select B'101' | B'011', X'1F' & B'10101010'", 
  "select num_nulls(r_comment, null), num_nonnulls(r_name, r_regionkey, null) from tpch.region order by r_regionkey limit 2",
  `select json_extract_path_text('{"a":{"b":"c", "d": [1, 2]}}', 'a', 'd', '1'), json_extract_path('{"a":{"b":"c"}}', 'a', 'b'), jsonb_extract_path_text('{"a":1}', 'z')`,
  `select json_object_keys('{"b": 1, "a": {"c": 2}}')`, `select k, count(*) from (select json_object_keys(payload::json) k from tpch.events where payload like '{%') t group by k`,
  "select substring('abc123' from '[0-9]+'), substring('foobar' from 'o(.)b'), substring('abc' from 'z'), substring(c_phone from '^[0-9]+') from tpch.customer order by c_custkey limit 2",
  "select regexp_count('abcabc', 'b'), regexp_like('abc', 'B', 'i'), regexp_like('abc', 'B'), regexp_substr('abc123def', '[0-9]+'), regexp_substr('abc', '[0-9]')",
  "select array_replace(array[1,2,1], 1, 9), array_replace(array['a', null], null, 'z'), trim_array(array[1,2,3], 1), trim_array(array[1], 1)", 'select trim_array(array[1,2], 3)',
  "select sha256('abc'::bytea), sha256(r_name::bytea) from tpch.region order by r_regionkey limit 1",
  "select extract(epoch from date '2024-01-01'), extract(epoch from timestamp '2024-01-01 00:00:01.5'), extract(epoch from o_orderdate) from tpch.orders order by o_orderkey limit 1",
  "select array[1,2] @> array[1], array[1] <@ array[1,2], array[1,2] && array[2,3], array[1,null] @> array[null]::int[], array[1] && array[3]",
  "select n_name from tpch.nation where array[n_regionkey] <@ array[1, 2] and array[n_nationkey, 99] && array[3, 7, 99] order by 1",
  "select date_bin('15 minutes', timestamp '2024-01-01 10:17', timestamp '2000-01-01'), date_bin(interval '1 day', timestamp '2024-01-01 10:17', timestamp '2000-01-01 06:00')",
  "select date_bin('1 hour', ts, timestamp '2000-01-01'), count(*) from tpch.events group by 1 order by 1 limit 3",
  'select make_interval(days => 3, hours => 2), make_interval(1, 2, 1, 3), make_interval(secs => 1.5), make_interval(hours => 25), make_interval()',
  "select o_orderdate + make_interval(days => o_orderkey::int) from tpch.orders order by o_orderkey limit 2", 'select make_interval(days => 1, days => 2)',
  "select string_to_table('a,b,c', ','), regexp_split_to_table('x y', ' ')", "select date_trunc('day', timestamptz '2024-05-17 22:00+00', 'Asia/Tokyo')",
  'select array_to_json(array[1,2]), array_length(array[]::int[], 1), array_length(array[1,2], 1), cardinality(array[]::int[])',
  "select concat('a', 1, true, null, 2.5), concat_ws('-', false, 'x'), concat(ok, '|') from tpch.events order by id limit 3", "select 'abc' ^@ 'a', 'abc' ^@ 'b'",
  'select isodd',
  'select tpch.f(1)', "select sum('1')", 'select o.o_orderkey from tpch.orders o join tpch.customer c using (c_custkey)', 'select 1 from tpch.nation n, tpch.region n',
];

// ---------------------------------------------------------------- EXPLAIN
const explain = [
  { group: 'explain', sql: 'explain select * from tpch.region', compare: 'types' as const },
  { group: 'explain', sql: 'explain analyze select count(*) from tpch.region', compare: 'types' as const },
  { group: 'explain', sql: 'explain (costs off) select * from tpch.nation where n_nationkey = 1', compare: 'types' as const },
];

// ---------------------------------------------------------------- catalog queries of tools, scoped to the corpus schema
const catalog = [
  "select table_name from information_schema.tables where table_schema = 'tpch' order by 1",
  "select column_name, data_type, ordinal_position from information_schema.columns where table_schema = 'tpch' and table_name = 'lineitem' order by ordinal_position",
  "select column_name, data_type, numeric_precision, numeric_scale from information_schema.columns where table_schema = 'tpch' and table_name = 'events' order by ordinal_position",
  "select schema_name from information_schema.schemata where schema_name in ('tpch', 'sales') order by 1",
  "select c.relname, c.relkind from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace where n.nspname = 'tpch' order by 1",
  "select a.attname, pg_catalog.format_type(a.atttypid, a.atttypmod), a.attnotnull, a.attnum from pg_catalog.pg_attribute a join pg_catalog.pg_class c on c.oid = a.attrelid join pg_catalog.pg_namespace n on n.oid = c.relnamespace where n.nspname = 'tpch' and c.relname = 'orders' and a.attnum > 0 and not a.attisdropped order by a.attnum",
  "select nspname from pg_catalog.pg_namespace where nspname in ('tpch', 'sales', 'pg_catalog', 'information_schema') order by 1",
  "select tablename from pg_catalog.pg_tables where schemaname = 'tpch' order by 1",
  'select current_database(), current_schema()', "select current_setting('datestyle'), current_setting('TimeZone')", 'select version() like \'PostgreSQL%\'',
  "select pg_catalog.pg_table_is_visible('tpch.region'::regclass)", "select 'tpch.region'::regclass::oid > 0", "select typname from pg_catalog.pg_type where oid = 23",
  "select t.typname, t.oid from pg_catalog.pg_type t where t.typname in ('int4', 'text', 'numeric', 'bool', 'date', 'timestamptz', 'json', 'float8', 'int8') order by 1",
  "select pg_catalog.format_type(1700, 655366), pg_catalog.format_type(23, -1), pg_catalog.format_type(1043, 14)", 'show search_path', 'show datestyle', 'show client_encoding', 'show transaction_read_only',
  "select count(*) from information_schema.columns where table_schema = 'tpch'", "select relname from pg_catalog.pg_class where relname = 'region' and relkind = 'r'",
  // catalog types DuckDB lacks (name, "char", oid, oid[], varchar domains) keep PostgreSQL's OIDs; an expression over them does not
  "select t.oid, t.typname, t.typtype, t.typelem, t.typarray, t.typcategory from pg_catalog.pg_type t where t.typname in ('int4', 'text') order by 1",
  "select c.relkind, c.relpersistence, c.relname || '' as s, upper(c.relname) from pg_catalog.pg_class c where c.relname = 'region'",
  "select n.nspname, n.oid = c.relnamespace from pg_catalog.pg_namespace n join pg_catalog.pg_class c on c.relnamespace = n.oid where c.relname = 'region'",
  "select table_schema, table_name, table_type from information_schema.tables where table_name = 'region'",
  "select (select array_agg(t.oid order by t.oid) from pg_catalog.pg_type t where t.typname in ('int4', 'int8')), (select array_agg(t.typname order by t.typname) from pg_catalog.pg_type t where t.typname in ('int4', 'int8'))",
  "select d.* from pg_catalog.pg_description d where false",
  "select * from (select n.nspname, c.relname, c.relkind, c.relnatts from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace) s where s.nspname = 'tpch' and s.relname = 'region'",
  "with t as (select table_schema, table_name from information_schema.tables where table_schema = 'tpch') select t.table_name, count(*) over () from t order by 1 limit 3",
  "select 'int8[]'::regtype, 'timestamptz'::regtype",
  "select to_regtype('int4'), to_regtype('nosuch'), to_regtype('varchar'), to_regtype('pg_catalog.text')",
  "select 'hello'::varchar, cast(42 as character varying), 'x'::varchar || 'y'",
  "select a.attname, a.atttypid::regtype from pg_catalog.pg_attribute a join pg_catalog.pg_class c on c.oid = a.attrelid join pg_catalog.pg_namespace n on n.oid = c.relnamespace where n.nspname = 'tpch' and c.relname = 'region' and a.attnum > 0 order by a.attnum",
  "select c.oid::regclass from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace where n.nspname = 'tpch' and c.relname = 'region'",
  "select x::regclass from (values ('tpch.region'), ('TPCH.REGION'), ('\"tpch\".\"region\"'), (null)) t(x)", "select x::regclass from (values ('tpch.region'), ('tpch.nosuch')) t(x)",
  "select c.relname::regclass from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace where n.nspname = 'tpch' and c.relname = 'region'",
];

// stddev and variance: exact numerics of integers and numerics (small and large values, NULLs, one row, no rows, overflow)
const statistics: string[] = [
  'select stddev_samp(x), stddev_pop(x), var_samp(x), var_pop(x) from (values (1), (2), (4), (7), (null)) t(x)',
  'select stddev(x), variance(x), stddev_pop(x), var_pop(x) from (values (1.25), (2.50), (3.75), (null)) t(x)',
  'select stddev(x), variance(x), stddev_pop(x), var_pop(x) from (values (5)) t(x)',
  'select stddev(x), variance(x), stddev_pop(x), var_pop(x) from (values (5), (null)) t(x) where x is null',
  'select stddev(x), variance(x) from (values (1)) t(x) where false',
  'select stddev(x), variance(x) from (values (3), (3), (3)) t(x)',
  'select stddev(x), variance(x) from (values (1000000000001::bigint), (1000000000002), (1000000000004)) t(x)',
  'select stddev(x), variance(x) from (values (1000000000000::bigint), (1000000000123), (1000000000999)) t(x)',
  'select stddev(x), variance(x) from (values (12345678.91::numeric(15,2)), (12345678.92), (12345678.95)) t(x)',
  'select stddev(x::int2), variance(x::int2), stddev_pop(x::int8) from (values (10), (20), (25)) t(x)',
  'select var_samp(x), stddev_samp(x) from (values (9000000000000000000::bigint), (-9000000000000000000)) t(x)',
  'select variance(x) from (values (1.123456), (2.5)) t(x)',
  'select stddev(x), variance(x) from (values (0.5::float8), (1.5::float8), (4::float8)) t(x)',
  'select l_linenumber, stddev(l_quantity), variance(l_quantity), var_pop(l_linenumber) from tpch.lineitem group by 1 order by 1',
  'select stddev(l_quantity) filter (where l_linenumber = 1), var_pop(l_quantity) filter (where l_linenumber > 9) from tpch.lineitem',
  'select stddev(r_name) from tpch.region', 'select variance(true)',
  'select variance(distinct l_quantity) from tpch.lineitem', 'select stddev(p_size) over () from tpch.part limit 1',
  'select stddev(p_size) / 2, variance(p_size) + 1 from tpch.part',
  'select round(avg(x)), round(avg(y)) from (values (2.5::float8, 0.5::float8)) t(x, y)',
  'select round(avg(x)), round(sum(x)) from (values (2.5), (2.5)) t(x)',
];

// types (fid-types2): varchar(n), char(n) (padded on output), bit(n) and varbit casts keep PostgreSQL's OIDs and typmods
const sizedTypes: string[] = [
  "select 'ab'::char(4), 'hello'::varchar(3), 1::bit, B'101'::bit(3), 'ab '::bpchar, 'é'::char(3), cast('a' as character(3))",
  "select 5::bit(3), (-1)::bit(4), 5::bit(40), '1'::bit(3), B'1010'::bit(3), X'1F'::bit(6), B'101'::varbit, B'101'::varbit(2)",
  "select x, y, z from (select 'a'::char(3) x, 'b'::varchar(9) y, B'1'::bit(2) z) t",
  "with c as (select 'ab'::char(5) as v) select v, v || '|', length(v) from c",
  'select r_name::char(8), r_name::varchar(3) from tpch.region', 'select null::char(3), null::varchar(2), null::bit(2)',
  "select x::bit(3), x::bit(40) from (values (5), (-1), (300)) t(x)", "select x::bit(3), x::bit(6) from (values (B'10101'), (B'1')) t(x)",
  'select id::bit(70), (id % 7)::int::bit(4), count(*) over ()::int::bit(3) from tpch.events order by id limit 3',
  // a NULL division operand takes its partner's type; round / trunc to n places are numeric-only (42883 of a float)
  'select 1.5 / null, null / 2.0, 7 / null, null::int / 2, null::float8 / 2, null / amount from tpch.events order by id limit 1',
  'select round(1.5::float8, 1)', 'select trunc(1.5::real, 1)', 'select trunc(score, 1) from tpch.events', 'select round(score, 1) from tpch.events where false',
  'select round(amount, 1), trunc(amount, 2), round(avg(amount), 3) from tpch.events group by amount order by amount limit 3',
  // zero columns: one row a row (through the data gate), and EXISTS of a target-less subquery
  'select from tpch.region', 'select from tpch.region where r_regionkey > 2', 'select where false', 'select from tpch.nation group by n_regionkey',
  'select exists(select from tpch.region where r_regionkey = 3), exists(select where false)',
];

// analyst SQL, second pass (fid-corpus2): what analysts, BI tools (Metabase, Superset, Tableau, Looker) and dbt models send
const analyst2: string[] = [
  // window frames, offsets with defaults, value functions, named windows
  'select o_orderkey, sum(o_totalprice) over (order by o_orderkey rows between 2 preceding and 1 following) from tpch.orders where o_orderkey < 10',
  "select o_orderkey, lag(o_totalprice, 1, 0) over (order by o_orderkey), lead(o_orderstatus, 2, 'none') over (order by o_orderkey) from tpch.orders where o_orderkey < 8",
  'select o_custkey, o_orderkey, first_value(o_totalprice) over (partition by o_custkey order by o_orderdate, o_orderkey), last_value(o_totalprice) over (partition by o_custkey order by o_orderdate, o_orderkey) from tpch.orders where o_custkey < 5',
  'select o_custkey, o_orderkey, nth_value(o_orderkey, 2) over (partition by o_custkey order by o_orderkey rows between unbounded preceding and unbounded following) from tpch.orders where o_custkey < 6',
  'select l_orderkey, l_linenumber, percent_rank() over (partition by l_returnflag order by l_quantity), cume_dist() over (partition by l_returnflag order by l_quantity) from tpch.lineitem where l_orderkey < 8',
  'select l_orderkey, l_linenumber, sum(l_quantity) over w, count(*) over w, max(l_quantity) over w, min(l_linenumber) over w from tpch.lineitem where l_orderkey < 5 window w as (partition by l_orderkey)',
  'select p_partkey, p_size, sum(p_size) over (order by p_size range between 5 preceding and 5 following) from tpch.part',
  "select o_orderkey, o_orderdate, count(*) over (order by o_orderdate range between interval '90 days' preceding and current row) from tpch.orders where o_orderkey < 20",
  'select p_partkey, p_size, sum(p_size) over (order by p_size groups between 1 preceding and current row) from tpch.part where p_partkey < 15',
  'select p_partkey, sum(p_size) over (order by p_partkey rows between 1 preceding and 1 following exclude current row) from tpch.part where p_partkey < 8',
  'select o_custkey, o_orderkey, ntile(2) over (partition by o_custkey order by o_orderkey) from tpch.orders where o_custkey < 5',
  'select o_orderstatus, sum(o_totalprice), sum(sum(o_totalprice)) over (), round(100.0 * sum(o_totalprice) / sum(sum(o_totalprice)) over (), 2) from tpch.orders group by 1',
  "select date_trunc('month', o_orderdate) m, sum(o_totalprice), sum(sum(o_totalprice)) over (order by date_trunc('month', o_orderdate)) from tpch.orders where o_orderdate < '1993-01-01' group by 1",
  'select * from (select c_mktsegment, c_name, c_acctbal, rank() over (partition by c_mktsegment order by c_acctbal desc) r from tpch.customer) t where r <= 2',
  'select o_custkey, o_orderkey, o_orderdate - lag(o_orderdate) over (partition by o_custkey order by o_orderdate, o_orderkey) from tpch.orders where o_custkey < 5',
  'select o_orderkey, row_number() over (order by o_orderstatus, o_orderkey), rank() over w, dense_rank() over w from tpch.orders where o_orderkey < 12 window w as (order by o_orderstatus)',
  'select count(distinct o_custkey) over () from tpch.orders',
  'select o_orderkey, avg(o_totalprice) over (order by o_orderkey rows 2 preceding)::numeric(15,2) from tpch.orders where o_orderkey < 8',
  // grouping sets with grouping()
  'select l_returnflag, l_linestatus, grouping(l_returnflag, l_linestatus), count(*), sum(l_quantity) from tpch.lineitem group by rollup (l_returnflag, l_linestatus)',
  'select l_returnflag, l_shipmode, grouping(l_returnflag), grouping(l_shipmode), count(*) from tpch.lineitem group by cube (l_returnflag, l_shipmode)',
  "select coalesce(o_orderstatus, 'ALL'), sum(o_totalprice) from tpch.orders group by grouping sets ((o_orderstatus), ())",
  'select extract(year from o_orderdate) y, extract(quarter from o_orderdate) q, count(*) from tpch.orders group by rollup (1, 2)',
  "select case when grouping(c_mktsegment) = 1 then 'Total' else c_mktsegment end, count(*), sum(c_acctbal) from tpch.customer group by rollup (c_mktsegment)",
  // FILTER, DISTINCT ON, distinct counts over several columns
  "select l_shipmode, count(*) filter (where l_returnflag = 'R'), sum(l_extendedprice) filter (where l_discount > 0.05), max(l_quantity) filter (where l_tax = 0) from tpch.lineitem group by 1",
  'select distinct on (o_custkey) o_custkey, o_orderkey, o_totalprice from tpch.orders order by o_custkey, o_totalprice desc',
  'select count(distinct (l_orderkey, l_suppkey)), count(distinct l_returnflag || l_linestatus), count(distinct l_shipmode) from tpch.lineitem',
  'select count(*) filter (where ok), count(*) filter (where not ok), count(ok), count(*) from tpch.events',
  'select max(p_size) filter (where p_size > 100), count(*) filter (where p_size > 100), sum(p_size) filter (where false) from tpch.part',
  // LATERAL
  'select c_custkey, t.o_orderkey, t.o_totalprice from tpch.customer c cross join lateral (select o_orderkey, o_totalprice from tpch.orders o where o.o_custkey = c.c_custkey order by o_totalprice desc limit 2) t where c_custkey < 6',
  'select c_custkey, t.n from tpch.customer c left join lateral (select count(*) n from tpch.orders o where o.o_custkey = c.c_custkey and o_orderstatus = \'F\') t on true where c_custkey < 8',
  // generate_series over dates and timestamps
  "select d::date, count(o_orderkey) from generate_series(date '1992-01-01', date '1992-03-01', interval '1 week') d left join tpch.orders on o_orderdate >= d and o_orderdate < d + interval '1 week' group by 1 order by 1",
  "select * from generate_series(timestamptz '2024-01-01 00:00+00', timestamptz '2024-01-01 06:00+00', interval '2 hours')",
  "select generate_series(date '2024-01-31', date '2024-05-31', '1 month')", 'select * from generate_series(10, 1, -3)',
  "select g::date, extract(isodow from g) from generate_series(timestamp '2024-02-26', timestamp '2024-03-03', interval '1 day') g",
  // extract, date_part, date_trunc on each field
  'select extract(month from o_orderdate), extract(quarter from o_orderdate), extract(dow from o_orderdate), extract(isoyear from o_orderdate), extract(week from o_orderdate), extract(day from o_orderdate) from tpch.orders order by o_orderkey limit 3',
  'select extract(hour from ts), extract(minute from ts), extract(second from ts), extract(milliseconds from ts), extract(epoch from ts) from tpch.events order by id limit 3',
  "select date_part('year', o_orderdate), date_part('doy', o_orderdate), date_part('epoch', o_orderdate), date_part('month', o_orderdate) from tpch.orders order by o_orderkey limit 3",
  "select extract(century from date '2024-05-17'), extract(decade from date '2024-05-17'), extract(millennium from date '2024-05-17'), extract(julian from date '2024-05-17'), extract(microseconds from timestamp '2024-05-17 10:11:12.5')",
  "select date_trunc('week', ts), date_trunc('minute', ts), date_trunc('year', ts), date_trunc('second', ts) from tpch.events order by id limit 2",
  "select date_trunc('month', ts_tz), date_trunc('day', ts_tz), extract(hour from ts_tz) from tpch.events order by id limit 2",
  "select date_trunc('decade', date '2024-05-17'), date_trunc('century', timestamp '2024-05-17'), date_trunc('millennium', timestamp '2024-05-17')",
  "select extract(timezone from ts_tz), extract(epoch from ts_tz) from tpch.events order by id limit 2",
  // age, interval arithmetic, justify
  "select age(date '2024-05-17', date '2020-02-29'), age(timestamp '2024-01-31', timestamp '2024-03-01'), age(timestamp '2024-03-01 10:00', timestamp '2023-12-31 23:00')",
  "select o_orderkey, age(date '1999-01-01', o_orderdate), extract(year from age(date '1999-01-01', o_orderdate)) from tpch.orders order by o_orderkey limit 3",
  "select interval '1 day 3 hours' + interval '45 minutes', interval '2 hours' * 1.5, interval '1 month' - interval '1 day', -interval '3 days'",
  "select extract(day from interval '40 days 5 hours'), extract(hour from interval '40 days 5 hours'), date_part('month', interval '14 months'), extract(epoch from interval '1 month')",
  "select justify_interval(interval '40 days 30 hours'), justify_days(interval '-40 days'), justify_hours(interval '50 hours 30 minutes')",
  'select max(l_receiptdate - l_shipdate), min(l_receiptdate - l_shipdate), round(avg(l_receiptdate - l_shipdate), 2) from tpch.lineitem',
  'select id, ts - lag(ts) over (order by ts) from tpch.events order by ts limit 4',
  "select max(ts) - min(ts), (max(ts) - min(ts)) / 2, date_trunc('day', max(ts) - min(ts)) from tpch.events",
  "select timestamp '2024-03-10 12:00' - timestamp '2024-01-01 08:30:15', date '2024-05-17' + time '10:30', date '2024-05-17' - interval '1 month 1 day'",
  "select interval '1 week', interval '1.5 hours', interval 'P1Y2M3DT4H5M6S', interval '90 days'::text, interval '36 hours' > interval '1 day'",
  "select (date_trunc('month', o_orderdate) + interval '1 month - 1 day')::date from tpch.orders order by o_orderkey limit 3",
  "select date '2024-01-31' + interval '1 month' * 2, date '2024-03-31' - interval '1 month', timestamp '2024-02-29' + interval '1 year'",
  // to_char of dates, timestamps and numbers
  "select to_char(o_orderdate, 'Mon DD, YYYY'), to_char(o_orderdate, 'YYYY\"-Q\"Q'), to_char(o_orderdate, 'IYYY-IW'), to_char(o_orderdate, 'Dy') from tpch.orders order by o_orderkey limit 3",
  "select to_char(ts, 'YYYY-MM-DD HH24:MI:SS'), to_char(ts, 'HH12:MI AM'), to_char(ts, 'MONTH DD'), to_char(ts, 'FMMonth FMDD') from tpch.events order by id limit 3",
  "select to_char(o_totalprice, 'FM999,999,990.00'), to_char(o_totalprice, '999,999.99'), to_char(o_totalprice, 'FM9999999') from tpch.orders order by o_orderkey limit 3",
  "select to_char(ts_tz, 'YYYY-MM-DD HH24:MI:SS'), to_char(ts_tz, 'YYYY-MM-DD\"T\"HH24:MI:SSOF') from tpch.events order by id limit 2",
  "select to_char(date '2024-05-17', 'WW'), to_char(date '2024-05-17', 'J'), to_char(date '2024-05-17', 'DDD'), to_char(date '2024-05-17', 'yy-mm-dd'), to_char(timestamp '2024-05-17 13:45:12.345', 'HH24:MI:SS.MS')",
  "select to_char(l_discount * 100, 'FM990.0') || '%', to_char(l_quantity, '00000') from tpch.lineitem order by l_orderkey, l_linenumber limit 3",
  // make_date, make_timestamp
  'select make_date(extract(year from o_orderdate)::int, 1, 1), make_date(2024, o_orderkey::int, 1) from tpch.orders order by o_orderkey limit 2',
  "select make_timestamp(2024, 2, 29, 23, 59, 59.999), make_timestamptz(2024, 1, 1, 12, 0, 0, 'UTC')", 'select make_date(2023, 2, 29)',
  // strings
  "select left(c_name, 8), right(c_phone, 4), lpad(c_custkey::text, 5, '0'), rpad(c_mktsegment, 12, '.') from tpch.customer order by c_custkey limit 3",
  "select position('#' in s_name), strpos(s_phone, '-'), substring(s_name from position('#' in s_name) + 1)::int from tpch.supplier order by s_suppkey limit 3",
  "select substring(p_type from '^[A-Z]+'), substring(p_name from '(\\w+)$'), (regexp_match(p_name, '^(\\w+) (\\w+)'))[2] from tpch.part order by p_partkey limit 3",
  "select regexp_replace(c_phone, '-', '', 'g'), regexp_replace(c_name, '#0+', ' #'), regexp_replace(c_mktsegment, '^(.)(.*)$', '\\2\\1') from tpch.customer order by c_custkey limit 3",
  "select regexp_replace('Hello World', 'o', '0', 'gi'), regexp_replace('ABC abc', 'b', 'x', 'i'), regexp_replace(c_name, '[aeiou]', '', 'g') from tpch.customer order by c_custkey limit 2", "select regexp_replace('aaa', 'a', 'b', 2)",
  "select translate(c_phone, '-', ''), reverse(c_name), repeat('*', c_nationkey % 5), length(repeat('ab', 0)) from tpch.customer order by c_custkey limit 3",
  "select md5(c_name), encode(c_name::bytea, 'base64'), md5(c_custkey::text) from tpch.customer order by c_custkey limit 2",
  "select n_regionkey, string_agg(n_name, ', ' order by n_name desc) from tpch.nation group by n_regionkey order by n_regionkey",
  "select n_regionkey, string_agg(distinct substring(n_name, 1, 1), '' order by substring(n_name, 1, 1)) from tpch.nation group by 1",
  "select ascii(n_name), chr(ascii(n_name) + 1), length(n_name) - length(replace(n_name, 'A', '')) from tpch.nation order by n_nationkey limit 3",
  "select split_part(c_phone, '-', 1)::int as cc, count(*) from tpch.customer group by 1 order by 1",
  "select initcap(kind), upper(substr(kind, 1, 1)) || lower(substr(kind, 2)), concat(kind, ' (', id, ')'), left(kind, -2) from tpch.events order by id limit 6",
  "select c_name from tpch.customer where c_name ilike '%00000001_' order by 1", "select n_name from tpch.nation where n_name !~* '^[a-m]' order by 1",
  // arrays: array_agg with ORDER BY, DISTINCT and FILTER, unnest with ordinality
  'select array_agg(distinct l_shipmode order by l_shipmode) from tpch.lineitem',
  "select l_orderkey, array_agg(l_linenumber order by l_linenumber desc) filter (where l_returnflag = 'R') from tpch.lineitem where l_orderkey < 6 group by 1",
  "select * from unnest(array['a','b','c']) with ordinality as t(v, i)",
  "select r_name, w, i from tpch.region, unnest(string_to_array(r_comment, ' ')) with ordinality as t(w, i) where r_regionkey = 0",
  "select unnest(array[1,2]), unnest(array['a','b','c'])",
  'select o_custkey, cardinality(array_agg(o_orderkey)), (array_agg(o_orderkey order by o_orderkey))[1] from tpch.orders where o_custkey < 5 group by 1',
  // ordered-set aggregates, bool aggregates
  'select percentile_cont(array[0.25, 0.5, 0.75]) within group (order by l_quantity) from tpch.lineitem',
  'select l_shipmode, percentile_cont(0.5) within group (order by l_extendedprice), percentile_disc(0.9) within group (order by l_quantity) from tpch.lineitem group by 1',
  'select mode() within group (order by o_orderpriority), mode() within group (order by o_custkey) from tpch.orders',
  'select percentile_disc(0.5) within group (order by o_orderdate), percentile_cont(0.5) within group (order by p_size) from tpch.orders, tpch.part where p_partkey = o_orderkey',
  "select l_linestatus, bool_and(l_shipdate < l_commitdate), bool_or(l_returnflag = 'R'), every(l_quantity > 0) from tpch.lineitem group by l_linestatus",
  // NULLIF, COALESCE, GREATEST of mixed types, CASE returning mixed numeric types
  "select nullif(c_mktsegment, 'BUILDING'), coalesce(nullif(c_mktsegment, 'BUILDING'), 'other') from tpch.customer order by c_custkey limit 4",
  'select coalesce(score, amount, 0), coalesce(amount, 0), coalesce(score, 0) from tpch.events order by id limit 8',
  "select greatest(score, 50), least(amount, 100), greatest(o_orderdate, date '1995-01-01') from tpch.events, tpch.orders where o_orderkey = 1 order by id limit 4",
  'select case when p_size > 25 then p_retailprice else 0 end, case when p_size > 25 then 1 else 2.5 end from tpch.part order by p_partkey limit 4',
  'select case when ok then 1 when ok is null then null else 0.5 end, case when ok then score else id end from tpch.events order by id limit 6',
  // set operations with ORDER BY / LIMIT / OFFSET, FETCH FIRST WITH TIES
  'select n_name from tpch.nation where n_regionkey = 1 union select r_name from tpch.region order by 1 limit 4 offset 1',
  'select n_regionkey from tpch.nation intersect all select n_regionkey from tpch.nation where n_nationkey < 10 order by 1',
  'select n_regionkey from tpch.nation except all select r_regionkey from tpch.region order by 1',
  '(select o_orderkey from tpch.orders order by o_totalprice desc limit 3) union all (select o_orderkey from tpch.orders order by o_totalprice limit 3)',
  'select l_orderkey, l_quantity from tpch.lineitem order by l_quantity desc fetch first 5 rows with ties',
  'select o_orderkey from tpch.orders order by o_orderkey offset 5 rows fetch next 3 rows only',
  // recursive CTEs
  "with recursive d(day) as (select date '2024-01-01' union all select day + 1 from d where day < date '2024-01-10') select day, extract(dow from day) from d",
  'with recursive t(n, fact) as (select 1, 1::bigint union all select n + 1, fact * (n + 1) from t where n < 20) select n, fact from t order by n desc limit 3',
  'with recursive t(n) as (select 1 union all select n * 10 from t where n < 10000000000) select count(*) from t',
  // correlated subqueries, IN / NOT IN with NULLs, ANY / ALL of arrays
  'select c_name, (select max(o_totalprice) from tpch.orders o where o.o_custkey = c.c_custkey) from tpch.customer c order by c_custkey limit 5',
  'select o_orderkey from tpch.orders o where o_totalprice > (select avg(o_totalprice) from tpch.orders o2 where o2.o_custkey = o.o_custkey) and o_custkey < 5 order by 1',
  "select count(*) from tpch.events where kind not in ('click', null)", 'select 1 in (null, 1), 2 in (null, 1), 2 not in (null, 1), null in (1, 2)',
  'select count(*) from tpch.customer where c_custkey not in (select o_custkey from tpch.orders)',
  'select count(*) from tpch.customer where c_custkey not in (select case when o_orderkey = 1 then null else o_custkey end from tpch.orders)',
  "select p_partkey from tpch.part where p_size > all(array[10, 20, 30]) and p_container like any (array['SM%', 'LG%', 'MED%']) order by 1",
  "select count(*) from tpch.part where p_size = any('{1,2,3,4,5}'::int[]) or p_size <> all(array[p_size])",
  // date / timestamp comparisons with literals, timestamptz output
  "select count(*) from tpch.orders where o_orderdate > '1995-03-15'", "select count(*) from tpch.orders where o_orderdate between '1993-01-01' and '1993-06-30'",
  "select count(*) from tpch.events where ts >= '2024-02-01' and ts < '2024-02-01'::date + 7", "select count(*) from tpch.events where ts_tz > '2024-02-15 00:00:00+00' and day <> '2024-01-15'",
  "select ts_tz, ts_tz::date, ts_tz::timestamp, ts::timestamptz from tpch.events order by id limit 2",
  "select ts_tz at time zone 'America/New_York', ts at time zone 'UTC', ts::time, ts_tz::time from tpch.events order by id limit 2",
  'select to_timestamp(extract(epoch from ts)), to_timestamp(extract(epoch from ts))::timestamp = ts from tpch.events order by id limit 2',
  "select date_trunc('week', day)::date, count(*) from tpch.events group by 1 order by 1",
  // numeric formatting: round of avg, ::numeric(p,s) of a ratio, float of numeric
  "select round(100.0 * count(*) filter (where l_returnflag = 'R') / count(*), 1), (100.0 * sum(l_discount) / sum(l_quantity))::numeric(8,4) from tpch.lineitem",
  'select kind, round(avg(score)::numeric, 2), round(sum(amount), 2), round(avg(amount), 2) from tpch.events group by 1',
  'select (o_totalprice / 1000)::int, o_totalprice::bigint, o_totalprice::float8, o_totalprice::real from tpch.orders order by o_orderkey limit 3',
  'select floor(o_totalprice / 50000) * 50000 as bucket, count(*) from tpch.orders group by 1 order by 1',
  'select round(o_totalprice, -3), trunc(o_totalprice, -2), ceil(o_totalprice / 1000), round(-o_totalprice / 7, 3) from tpch.orders order by o_orderkey limit 3',
  "select o_orderstatus, round(count(*) * 100.0 / sum(count(*)) over (), 2) from tpch.orders group by 1",
  // integer overflow and division by zero in expressions and aggregates
  'select sum(ps_availqty * 1000000) from tpch.partsupp', 'select 2147483647 + p_size from tpch.part', 'select sum(id * id) from tpch.events', 'select (p_size * 1000)::smallint from tpch.part',
  'select sum(l_quantity) / sum(l_discount - l_discount) from tpch.lineitem', 'select count(*) / (count(*) - count(*)) from tpch.region', 'select avg(p_size / (p_size - p_size)) from tpch.part',
  'select l_orderkey, round(sum(l_extendedprice) / nullif(sum(l_discount), 0), 2) from tpch.lineitem where l_orderkey < 6 group by 1', 'select sum(p_size::bigint * 100000000000000000) from tpch.part',
  // Metabase, Superset, Tableau, Looker and dbt spellings
  'SELECT "tpch"."orders"."o_orderstatus" AS "o_orderstatus", count(*) AS "count" FROM "tpch"."orders" GROUP BY "tpch"."orders"."o_orderstatus" ORDER BY "tpch"."orders"."o_orderstatus" ASC',
  "SELECT CAST(date_trunc('month', \"tpch\".\"orders\".\"o_orderdate\") AS date) AS \"o_orderdate\", count(*) AS \"count\" FROM \"tpch\".\"orders\" GROUP BY CAST(date_trunc('month', \"tpch\".\"orders\".\"o_orderdate\") AS date) ORDER BY CAST(date_trunc('month', \"tpch\".\"orders\".\"o_orderdate\") AS date) ASC LIMIT 5",
  "SELECT CAST((date_trunc('week', (\"tpch\".\"orders\".\"o_orderdate\" + INTERVAL '1 day')) + INTERVAL '-1 day') AS date) AS \"o_orderdate\", count(*) AS \"count\" FROM \"tpch\".\"orders\" GROUP BY 1 ORDER BY 1 ASC LIMIT 4",
  "SELECT DATE_TRUNC('day', ts) AS __timestamp, COUNT(*) AS count FROM tpch.events WHERE ts >= TO_TIMESTAMP('2024-01-01 00:00:00.000000', 'YYYY-MM-DD HH24:MI:SS.US') AND ts < TO_TIMESTAMP('2024-02-01 00:00:00.000000', 'YYYY-MM-DD HH24:MI:SS.US') GROUP BY DATE_TRUNC('day', ts) ORDER BY count DESC, 1 LIMIT 5",
  'SELECT CAST(EXTRACT(YEAR FROM "orders"."o_orderdate") AS INTEGER) AS "yr:o_orderdate:ok", SUM("orders"."o_totalprice") AS "sum:o_totalprice:ok" FROM "tpch"."orders" "orders" GROUP BY 1',
  'SELECT CAST(TRUNC(EXTRACT(QUARTER FROM "orders"."o_orderdate")) AS INTEGER) AS "qr:o_orderdate:ok", COUNT(DISTINCT "orders"."o_custkey") AS "ctd:o_custkey:ok" FROM "tpch"."orders" "orders" GROUP BY 1',
  "SELECT TO_CHAR(DATE_TRUNC('month', orders.o_orderdate), 'YYYY-MM') AS \"orders.created_month\", COALESCE(SUM(orders.o_totalprice), 0) AS \"orders.total\" FROM tpch.orders AS orders GROUP BY DATE_TRUNC('month', orders.o_orderdate) ORDER BY 1 DESC LIMIT 5",
  'select * from (select o_custkey, o_orderkey, o_orderdate, row_number() over (partition by o_custkey order by o_orderdate desc, o_orderkey) as rn from tpch.orders) t where rn = 1 and o_custkey < 8',
  "select ((o_orderdate)::date - (date '1992-01-01')::date), ((date_part('year', o_orderdate) - date_part('year', date '1992-01-01')) * 12 + date_part('month', o_orderdate) - date_part('month', date '1992-01-01')) from tpch.orders order by o_orderkey limit 3",
  "select md5(cast(coalesce(cast(o_orderkey as varchar), '_dbt_utils_surrogate_key_null_') || '-' || coalesce(cast(o_custkey as varchar), '_dbt_utils_surrogate_key_null_') as varchar)) from tpch.orders order by o_orderkey limit 2",
  "select o_orderdate + ((interval '1 month') * (3)), cast(o_orderdate as timestamp), cast(o_totalprice as numeric(28,6)) from tpch.orders order by o_orderkey limit 2",
  "select kind, count(*) from tpch.events group by kind order by count(*) desc, kind nulls first",
  "select count(*) from tpch.orders where o_orderdate >= date_trunc('year', date '1995-06-01') and o_orderdate < date_trunc('year', date '1995-06-01') + interval '1 year'",
  "select extract(days from (date_trunc('month', day) + interval '1 month') - date_trunc('month', day)) from tpch.events order by id limit 3",
  "select '2024-02-30'::date", "select to_date('2024-13-01', 'YYYY-MM-DD')", "select to_date('May 2024', 'YYYY-MM')",
  // the probes behind the fixes above: coalesce of aggregates, window aggregates PostgreSQL refuses, more templates
  'select o_orderstatus, round(sum(o_totalprice) / coalesce(max(o_totalprice), 1), 4), round(avg(o_totalprice) / nullif(min(o_totalprice), 0), 3) from tpch.orders group by 1',
  "select string_agg(o_orderstatus, ',' order by o_orderkey) over () from tpch.orders", 'select percentile_cont(0.5) within group (order by o_totalprice) over () from tpch.orders',
  "select to_char(o_orderdate, 'ID W') , to_char(o_orderdate, 'FMIW'), to_char(o_orderdate, 'dd.mm.yyyy') from tpch.orders order by o_orderkey limit 3",
  "select interval '+ 1 week', interval '1 day -  3 hours', interval 'P2W', interval 'PT1.5S', date '2024-01-31' + interval '1 month - 1 day'",
  "select date_trunc('century', o_orderdate), date_trunc('millennium', ts_tz) from tpch.orders, tpch.events where o_orderkey = 1 order by id limit 2",
  "select round(avg(score::real)::numeric, 2), round(max(score)::numeric, 1), round(avg(score) over ()::numeric, 3) from tpch.events group by score order by 1 nulls first limit 3",
  // NULL ordering, DISTINCT aggregates, substr with a start before 1, numeric templates with a percent sign
  "select id, score from tpch.events order by score desc limit 4",
  "select array_agg(distinct kind), string_agg(distinct kind, ',') from tpch.events",
  "select substr('hello', -1, 3), substr('hello', 0, 2), substring('hello' from -1 for 3), substring('hello', 0)",
  "select min(ok) from tpch.events",
  "select sum(ok::int), avg(ok::int), count(*) filter (where ok is not true) from tpch.events",
  "select avg(p_size)::int, sum(p_size)::int, count(*)::int, avg(p_retailprice)::bigint, avg(p_size)::numeric(10,2) from tpch.part",
  "select 'infinity'::date, '-infinity'::timestamp, date 'infinity' > current_date",
  "select cast('2024-01-01' as timestamp with time zone), timestamp with time zone '2024-06-01 12:00+02', (timestamp '2024-01-01 12:00' at time zone 'UTC') at time zone 'Europe/Paris'",
  "select date_trunc('quarter', ts)::date, date_trunc('week', ts) + interval '6 days', extract(epoch from (max(ts) - min(ts))) / 60 from tpch.events group by 1, 2 order by 1, 2 limit 3",
  "select n_name from tpch.nation where n_name ilike any (array['%an', 'b%']) order by 1",
  "select 5 between symmetric 10 and 1, ok is unknown, ok is not true from tpch.events order by id limit 3",
  "select length(null::text), left('abc', 0), repeat('x', -1), position('z' in 'abc'), split_part('a,b', ',', 3) = ''",
  "select extract(dow from ts) in (0, 6) as weekend, count(*) from tpch.events group by 1 order by 1",
  "select cast(count(*) as float) / sum(p_size), count(*)::float / 3, 100.0 * count(*) / 7 from tpch.part",
  "select 1/3::float, 10::float / 4, 2::real / 3",
  "select id, kind, lead(kind) over (partition by kind order by id) from tpch.events order by id limit 6",
  "select o_orderkey from tpch.orders order by o_orderkey limit all offset 117",
  "select * from (values (1, 'a', 1.5), (2, null, 2)) v(a, b, c) order by a",
  "select array_length(string_to_array(r_comment, ' '), 1), array_to_string(array_agg(r_name order by r_name), ';') from tpch.region group by r_comment order by 1, 2",
  "select count(distinct o_custkey) filter (where o_orderstatus = 'F'), count(distinct o_orderstatus) from tpch.orders",
  "select to_char(1234567.891, '999G999G999D99'), to_char(-0.5, '990.00'), to_char(1234, 'FM9G999'), to_char(0.05, 'FM0.0%')",
  "select ts::date = date '2024-01-31', ts_tz::date, ts_tz > ts from tpch.events order by id limit 2",
  "select date_part('week', o_orderdate), date_part('dow', o_orderdate), date_part('quarter', o_orderdate) from tpch.orders order by o_orderkey limit 2",
  "select extract(month from age(date '2024-05-17', date '2023-01-31')), extract(year from age(timestamp '2024-05-17', timestamp '1990-06-01'))",
  "select initcap(c_mktsegment), lower(c_name) from tpch.customer order by c_custkey limit 2",
  "select trunc(o_totalprice), trunc(o_totalprice / 3, 2), floor(-o_totalprice / 1000), ceil(o_totalprice) from tpch.orders order by o_orderkey limit 2",
  "select round(l_extendedprice * (1 - l_discount), 2), round(l_quantity / 7, 3), round(l_tax * 100) from tpch.lineitem order by l_orderkey, l_linenumber limit 3",
  "select sum(l_quantity)::int, max(l_quantity)::int, min(l_quantity)::text from tpch.lineitem",
  "select to_char(avg(l_extendedprice), 'FM999999.00'), to_char(sum(l_quantity), '999999') from tpch.lineitem",
  "select substr('hello', -1, 3), substr('hello', 0, 2), substring('hello' from -1 for 3), substring('hello', 0), substr('hello', -5, 3), substr('hello', -1), substring('hello' from 2), substring('abc123' from '[0-9]+')",
  "select array_agg(distinct kind), string_agg(distinct kind, ','), array_agg(distinct o) from tpch.events, (values (2), (1)) t(o)",
  "select to_char(0.05, 'FM0.0%'), to_char(12.345, '990.00%'), to_char(l_discount * 100, 'FM990%') from tpch.lineitem order by l_orderkey, l_linenumber limit 2",
  "select id, rank() over (order by score desc), first_value(id) over (order by score desc) from tpch.events order by id limit 5",
  "select array_agg(score order by score desc) from tpch.events where id < 1000000000300",
  // text of dates, numbers, floats and arrays, casts of floats to integers, percent of total, durations
  "select o_orderdate::text, o_totalprice::text, l_discount::text, concat(o_orderdate, ' ', o_orderkey) from tpch.orders join tpch.lineitem on l_orderkey = o_orderkey order by o_orderkey, l_linenumber limit 2",
  "select ts::text, ts_tz::text, score::text, ok::text, amount::text, (ts - timestamp '2024-01-01')::text from tpch.events order by id limit 3",
  "select 'Q' || extract(quarter from o_orderdate), extract(year from o_orderdate)::text, cast(extract(year from o_orderdate) as varchar), date_part('year', o_orderdate)::int from tpch.orders order by o_orderkey limit 2",
  "select to_char(o_orderdate, 'YYYY') || '-' || lpad(extract(month from o_orderdate)::text, 2, '0'), (o_orderdate - interval '1 month')::date, o_orderdate + 1, o_orderdate - 1 from tpch.orders order by o_orderkey limit 2",
  "select 1e10::float8, 1e-5::float8, 0.1::float4, 1/3::float4, 1e16::float8, 123456789.123::float8, (2^60)::float8",
  "select 2.5::float8::int, 3.5::float8::int, (-2.5)::float8::int, 2.5::float8::bigint, 0.5::float4::smallint",
  "select amount::int, amount::bigint, score::int, score::bigint, p_retailprice::int from tpch.events, tpch.part where p_partkey < 3 order by id, p_partkey limit 6",
  "select time '10:00' + interval '3 hours', extract(hour from time '10:30'), date '2024-01-01' + time '10:00', timestamp '2024-01-01' + interval '1 day' * 3",
  "select power(p_size, 2), p_size ^ 2, sqrt(p_size), ln(p_size), log(p_size), exp(1), cbrt(27) from tpch.part order by p_partkey limit 2",
  "select round(p_retailprice / p_size), ceil(score), floor(amount), abs(amount), sign(amount), -amount, p_size % 2 = 0 from tpch.part, tpch.events where p_partkey = 1 order by id limit 3",
  "select array_agg(r_regionkey)::text, array[1,2]::text, (array_agg(r_name order by r_name desc))[1:2], string_agg(r_regionkey::text, ', ' order by r_regionkey) from tpch.region",
  "select row_number() over (order by o_orderkey) - 1, ntile(4) over (partition by o_orderstatus order by o_orderkey), lag(o_orderkey, 1) over w from tpch.orders where o_orderkey < 10 window w as (partition by o_orderstatus order by o_orderkey) order by o_orderkey",
  "select count(*) filter (where ok) * 1.0 / count(*), count(*) > 0 as has_rows from tpch.events",
  "select coalesce(sum(o_totalprice) filter (where false), 0), coalesce(max(o_totalprice), 0) from tpch.orders",
  "select x, count(*) from (select unnest(array_agg(n_regionkey)) x from tpch.nation) t group by 1 order by 1",
  "select n_name, case when n_nationkey in (select s_nationkey from tpch.supplier) then 'has supplier' else 'none' end from tpch.nation order by 1 limit 5",
  "select cast(r_name as varchar(3)), cast(r_name as char(10)), r_name::varchar(10) || '|' from tpch.region order by r_regionkey limit 2",
  "select date '2024-01-01' + interval '1 day', '2024-01-01'::date + '1 day'::interval, interval '1 hour' * 2.5, interval '1 day' / 3",
  "select now()::date - date '2024-01-01' > 0, current_date - o_orderdate > 0 from tpch.orders limit 1",
  "select extract(dow from o_orderdate) as dow, to_char(o_orderdate, 'Day') as dayname, count(*) from tpch.orders group by 1, 2 order by 1",
  "select to_char(o_orderdate, 'Month YYYY'), to_char(o_orderdate, 'FMMonth YYYY'), to_char(o_orderdate, 'Mon-YY') from tpch.orders order by o_orderkey limit 2",
  "select s_name, s_acctbal, ntile(3) over (order by s_acctbal desc) from tpch.supplier order by s_acctbal desc",
  "select c_mktsegment, sum(c_acctbal) filter (where c_acctbal > 0), count(*) filter (where c_acctbal < 0), avg(c_acctbal)::numeric(12,2) from tpch.customer group by 1 order by 1",
  "select o_orderpriority, count(*), round(100.0 * count(*) / (select count(*) from tpch.orders), 1), count(*) / (select count(*) from tpch.orders where o_orderkey < 5) from tpch.orders group by 1 order by 1",
  "select avg(ts - timestamp '2024-01-01'), sum(ts - timestamp '2024-01-01'), max(ts) filter (where ok) from tpch.events",
  "select sum(p_size) / (select count(*) from tpch.region), p_size / (select count(*) from tpch.region) from tpch.part group by p_size order by 2 limit 2",
  "select array_agg(r_regionkey)::text, array[1,2]::text, array['a b', '', 'NULL', null, 'x\"y', 'c,d', 'e\\f', 'ok']::text, cast(array_agg(r_name order by r_name) as varchar), array[true, false]::text from tpch.region",
  "select array[date '2024-01-01']::text, array[timestamp '2024-01-01 10:00']::text, array[0.1::float8, 1e20]::text, '{}'::int[]::text, (null::int[])::text",
  "select o_custkey, array_agg(o_orderkey order by o_orderkey)::text from tpch.orders where o_custkey < 4 group by 1 order by 1",
  "select array[1.5, 2.25]::text",
  // window frames over partitions, value windows with defaults, string and template functions, timestamptz literals with seconds
  "select o_custkey, o_orderdate, sum(o_totalprice) over (partition by o_custkey order by o_orderdate rows unbounded preceding) from tpch.orders where o_custkey < 4 order by 1, 2",
  "select o_orderkey, avg(o_totalprice) over (order by o_orderkey rows between 2 preceding and current row)::numeric(12,2), count(*) over (order by o_orderkey range unbounded preceding) from tpch.orders where o_orderkey < 6 order by 1",
  "select o_orderdate, sum(o_totalprice) over (order by o_orderdate range between interval '1 month' preceding and interval '1 month' following) from tpch.orders where o_orderkey < 10 order by 1",
  "select l_orderkey, l_linenumber, last_value(l_quantity) over (partition by l_orderkey order by l_linenumber range between current row and unbounded following) from tpch.lineitem where l_orderkey < 4 order by 1, 2",
  "select l_orderkey, sum(l_quantity) over (partition by l_orderkey order by l_linenumber rows between current row and 1 following exclude ties) from tpch.lineitem where l_orderkey < 4 order by 1, l_linenumber",
  "select c_name, c_acctbal, c_acctbal - avg(c_acctbal) over (partition by c_mktsegment) > 0, max(c_acctbal) over (partition by c_mktsegment) = c_acctbal from tpch.customer order by c_custkey limit 5",
  "select percent_rank() over (order by p_retailprice), cume_dist() over (partition by p_mfgr order by p_size), p_partkey from tpch.part order by p_partkey limit 5",
  "select p_mfgr, p_partkey, nth_value(p_partkey, 3) over (partition by p_mfgr order by p_partkey) from tpch.part order by 1, 2 limit 8",
  "select lead(o_orderdate, 1, date '2099-01-01') over (order by o_orderkey), lag(o_orderkey, 3, -1) over (order by o_orderkey) from tpch.orders where o_orderkey < 5 order by o_orderkey",
  "select o_orderkey, o_totalprice, o_totalprice / lag(o_totalprice) over (order by o_orderkey) - 1 from tpch.orders where o_orderkey < 4 order by 1",
  "select trim(both ' ' from '  x  '), ltrim('xxabc', 'x'), rtrim('abcyy', 'y'), btrim('  a  '), lpad('abc', 6, 'xy'), rpad('abc', 2), concat_ws(', ', r_name, null, r_regionkey) from tpch.region order by r_regionkey limit 2",
  "select replace(p_name, ' ', '_'), upper(substring(p_name for 1)) || substring(p_name from 2), length(p_name), char_length(p_type), octet_length(p_name) from tpch.part order by p_partkey limit 3",
  "select strpos(c_phone, '-'), position('-' in c_phone), split_part(c_phone, '-', 2)::int + 1, reverse(split_part(reverse(c_name), '#', 1)) from tpch.customer order by c_custkey limit 3",
  "select regexp_replace(c_phone, '(\\d+)-(\\d+)-(\\d+)-(\\d+)', '(\\1) \\2-\\3-\\4'), regexp_split_to_array(c_phone, '-'), (regexp_split_to_array(c_phone, '-'))[1] from tpch.customer order by c_custkey limit 2",
  "select starts_with(p_name, 'a'), p_name like 'a%', left(p_name, 1) = 'a', p_name ~ '^a', p_name similar to 'a%' from tpch.part order by p_partkey limit 4",
  "select format('%s has %s parts', p_mfgr, count(*)), format('%-10s|', p_mfgr), format('%L', p_mfgr) from tpch.part group by p_mfgr order by 1",
  "select to_char(p_retailprice, 'L999.99'), to_char(p_retailprice, 'S9999.99') from tpch.part order by p_partkey limit 1",
  "select to_char(-p_retailprice, '9999.99'), to_char(p_retailprice, '9999'), to_char(p_retailprice, 'FM9999.9'), to_char(p_size, '000') from tpch.part order by p_partkey limit 2",
  "select date_part('hour', ts), date_part('minute', ts_tz), extract(second from ts_tz), extract(epoch from day), date_part('isodow', day) from tpch.events order by id limit 2",
  "select count(*) from tpch.events where ts between '2024-01-01' and '2024-01-31 23:59:59' and ts_tz < timestamptz '2024-03-01 00:00:00+00'",
  "select count(*) from tpch.events where day in ('2024-01-15', '2024-02-01') or day = current_date",
  "select o_orderdate from tpch.orders where o_orderdate = (select max(o_orderdate) from tpch.orders)",
  "select o_custkey, count(*) from tpch.orders group by o_custkey having count(*) = (select max(c) from (select count(*) c from tpch.orders group by o_custkey) t) order by 1",
  "select t.y, t.c, lag(t.c) over (order by t.y), t.c - lag(t.c) over (order by t.y) from (select extract(year from o_orderdate) y, count(*) c from tpch.orders group by 1) t order by 1",
  "select extract(year from o_orderdate) y, sum(o_totalprice) / sum(sum(o_totalprice)) over () from tpch.orders group by 1 order by 1 limit 2",
  "select timestamptz '2024-03-01 00:00:00+00', '2024-03-01 10:00:00.5+02'::timestamptz, timestamptz '2024-01-01 9:05:01-08', timestamptz '2024-01-01 10:00:00+05:30'",
  // timestamptz arithmetic, calendars from generate_series, date filters, joins and rollups, date_trunc of an aggregate
  "select date_trunc('hour', ts_tz), date_trunc('minute', ts_tz) + interval '30 seconds', ts_tz + interval '1 day', ts_tz - interval '1 month' from tpch.events order by id limit 2",
  "select ts_tz - ts_tz, ts_tz::date - day, age(ts_tz, timestamptz '2024-01-01 00:00+00'), age(ts) is not null from tpch.events order by id limit 2",
  "select extract(epoch from ts_tz - timestamptz '2024-01-01 00:00+00') / 86400 > 0, (ts_tz - timestamptz '2024-01-01 00:00+00') > interval '30 days' from tpch.events order by id limit 2",
  "select to_char(ts_tz, 'YYYY-MM-DD HH24:MI'), to_char(ts_tz, 'Dy DD Mon'), date_part('epoch', ts_tz)::bigint from tpch.events order by id limit 2",
  "select generate_series(date_trunc('month', min(o_orderdate)), date_trunc('month', min(o_orderdate)) + interval '2 months', interval '1 month') from tpch.orders",
  "select m::date, count(o_orderkey) from generate_series(timestamp '1992-01-01', timestamp '1992-06-01', interval '1 month') m left join tpch.orders o on date_trunc('month', o.o_orderdate) = m group by 1 order by 1",
  "select d, extract(dow from d), to_char(d, 'Dy') from generate_series(date '2024-03-01', date '2024-03-07', interval '1 day') d order by 1",
  "select make_interval(days => o_orderkey::int) + o_orderdate, o_orderdate + o_orderkey::int from tpch.orders order by o_orderkey limit 2",
  "select date_bin('1 day', ts, timestamp '2024-01-01'), date_bin('6 hours', ts, timestamp '2024-01-01') from tpch.events order by id limit 2",
  "select ts::date, count(*) filter (where ok), count(*) filter (where not ok or ok is null) from tpch.events group by 1 order by 1 limit 4",
  "select count(*) from tpch.orders where extract(year from o_orderdate) = 1995 and extract(month from o_orderdate) between 1 and 3",
  "select count(*) from tpch.orders where date_part('year', o_orderdate) = 1995 and to_char(o_orderdate, 'Q') = '1'",
  "select count(*) from tpch.orders where o_orderdate >= date '1995-01-01' and o_orderdate < date '1995-01-01' + interval '3 months'",
  "select count(*) from tpch.lineitem where l_shipdate > l_commitdate and l_receiptdate - l_shipdate > 10",
  "select o_orderdate, o_orderdate::timestamptz, o_orderdate::timestamp + interval '12 hours' from tpch.orders order by o_orderkey limit 2",
  "select justify_interval(max(ts) - min(ts)), max(ts) - min(ts) > interval '80 days' from tpch.events",
  "select extract(week from day), extract(isoyear from day), date_trunc('week', day), to_char(day, 'IYYY-\"W\"IW') from tpch.events order by id limit 3",
  "select c_custkey, coalesce(o.n, 0) from tpch.customer c left join (select o_custkey, count(*) n from tpch.orders group by 1) o on o.o_custkey = c.c_custkey order by 1 limit 5",
  "select r_name, n_name, count(c_custkey) from tpch.region join tpch.nation on n_regionkey = r_regionkey left join tpch.customer on c_nationkey = n_nationkey group by rollup (r_name, n_name) order by 1 nulls last, 2 nulls last limit 8",
  "select s.s_name, p.p_name, ps.ps_supplycost from tpch.partsupp ps join tpch.supplier s on s.s_suppkey = ps.ps_suppkey join tpch.part p on p.p_partkey = ps.ps_partkey where ps.ps_supplycost = (select min(ps_supplycost) from tpch.partsupp where ps_partkey = p.p_partkey) order by 3 limit 3",
  "select sum(l_extendedprice * (1 - l_discount))::numeric(18,2), sum(l_extendedprice * (1 - l_discount)::numeric(10,2)), round(sum(l_extendedprice * l_discount), 2) from tpch.lineitem",
  "select l_shipmode, sum(case when l_returnflag = 'R' then 1 else 0 end), sum(case when l_returnflag = 'R' then l_quantity end), avg(case when l_linestatus = 'F' then 1.0 else 0 end)::numeric(6,4) from tpch.lineitem group by 1 order by 1",
  "select date_trunc('month', min(o_orderdate)), date_trunc('year', max(ts)), date_trunc('day', max(ts_tz)), date_trunc('week', first_value(day) over (order by id)), date_trunc('century', max(o_orderdate)) from tpch.orders, tpch.events group by id, day order by id limit 2",
  "select o_custkey, date_trunc('month', max(o_orderdate))::date from tpch.orders group by 1 order by 1 limit 3",
];
// the same, compared row by row in order (PostgreSQL sorts NULLs first under DESC)
const analyst2Ordered: string[] = [
  'select kind, count(*) from tpch.events group by kind order by kind desc',
  'select id, score from tpch.events order by score desc, id limit 6',
  "select kind, id from tpch.events order by kind desc, id desc limit 8",
];
// the same, whose answer depends on the moment it runs
const analyst2Now: string[] = [
  "select count(*) from tpch.orders where o_orderdate > current_date - interval '40 years'",
  "select date_trunc('day', now()) - interval '7 days', current_date - 7, age(current_date)",
  "select extract(year from age(now(), ts)) from tpch.events order by id limit 2",
  "select now() at time zone 'UTC', current_timestamp::date, localtimestamp(0)",
];

export const CORPUS: readonly CorpusEntry[] = [
  ...TPCH_QUERIES.map((sql) => ({ group: 'tpch', sql })),
  ...e('arithmetic', [...arithmetic, ...moreArithmetic]),
  ...e('strings', strings),
  ...e('dates', dates.filter((s) => !/now\(\)|clock_timestamp|current_|localtime|transaction_timestamp|statement_timestamp/.test(s))),
  ...e('dates-now', dates.filter((s) => /now\(\)|clock_timestamp|current_|localtime|transaction_timestamp|statement_timestamp/.test(s)), { compare: 'types' }),
  ...e('casts', casts.filter((s) => !s.includes('gen_random_uuid'))),
  ...e('casts', casts.filter((s) => s.includes('gen_random_uuid'))),
  ...e('json', json),
  ...e('aggregates', aggregates),
  ...e('aggregates', statistics),
  ...e('analyst', analyst),
  ...e('numeric types', numericTypes),
  ...e('errors', errors),
  ...e('builtins', builtins),
  ...explain,
  ...e('catalog', catalog),
  // the two servers are logged into as different users (postgres, carol): only the types compare
  { group: 'catalog', sql: 'select current_user, session_user', compare: 'types' as const },
  ...e('types', sizedTypes),
  ...e('analyst2', analyst2),
  ...e('analyst2', analyst2Ordered, { ordered: true }),
  ...e('analyst2-now', analyst2Now, { compare: 'types' }),
];
