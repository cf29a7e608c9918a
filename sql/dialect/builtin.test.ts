/**
 * sql/dialect/builtin.ts as the planner applies it: what reaches DuckDB. (That
 * the answers are PostgreSQL's is proven against a real PostgreSQL by the
 * fidelity corpus, tests/fidelity/corpus.ts group `builtins`.)
 */
import type { RelationCatalog } from '../catalogView.js';
import { capturingGroups, rewriteOf } from '../regexpReplace.js';
import { SqlError } from '../errors.js';
import { loadParser, parseStatements } from '../parse.js';
import { planQuery, type QueryContext } from '../query.js';

const catalog: RelationCatalog = {
  listSchemas: () => ['sales'],
  getTable: (schema, name) =>
    schema === 'sales' && (name === 'orders' || name === 'items')
      ? {
          schema,
          name,
          columns: [{ name: 'id', duckType: 'INTEGER', nullable: true }],
          resource: { database: schema, table: name },
          scan: () => ({ RangeVar: { catalogname: 'demo', schemaname: schema, relname: name, inh: true, relpersistence: 'p' } }),
        }
      : undefined,
};

const ctx = (timezone = 'UTC'): QueryContext => ({
  database: 'demo',
  searchPath: ['sales'],
  user: 'alice',
  settings: (n) => ({ timezone })[n],
  backendPid: 1,
  catalog,
});

beforeAll(async () => {
  await loadParser();
});

const sql = (text: string, tz?: string) => planQuery(parseStatements(text)[0]!, ctx(tz)).sql;
const refusal = (text: string): SqlError => {
  try {
    sql(text);
  } catch (e) {
    if (e instanceof SqlError) return e;
    throw e;
  }
  throw new Error(`planned: ${text}`);
};

describe('built-ins DuckDB means differently never reach it by their own name', () => {
  test.each([
    ["select encode(id::text::bytea, 'hex') from orders", /lower\(hex\(/],
    ["select encode('a'::bytea, 'base64')", /lakegate_pg\.pgc\.lg_base64\(/],
    ["select decode('aGk=', 'base64')", /from_base64\(/],
    ["select decode('6869', 'hex')", /unhex\('6869'\)/],
  ])('%s', (text, expected) => {
    const out = sql(text);
    expect(out).toMatch(expected);
    // DuckDB's encode/decode convert text to and from UTF-8 bytes: a different function
    expect(out).not.toMatch(/\b(encode|decode)\(/);
  });

  test('an encoding that is not a constant is refused, an unknown one is 22023 as in PostgreSQL', () => {
    expect(refusal("select encode('a'::bytea, (select 'hex'))").code).toBe('0A000');
    expect(refusal("select encode('a'::bytea, 'rot13')").code).toBe('22023');
  });
});

describe('operators become calls', () => {
  test.each([
    ['select |/ 16', /sqrt\(/],
    ['select ||/ 27', /cbrt\(/],
    ['select @ -5', /abs\(/],
    ['select 5 # 3', /xor\(5, 3\)/],
    ['select array[1] || 2', /list_append\(/],
    ['select 0 || array[1]', /list_prepend\(/],
    ['select array[1] || array[2]', /list_concat\(/],
  ])('%s', (text, expected) => {
    expect(sql(text)).toMatch(expected);
  });

  test('jsonb || jsonb (or an untyped literal) merges; text || jsonb stays text concatenation, as in PostgreSQL', () => {
    expect(sql(`select '{"a":1}'::jsonb || '{"b":2}'::jsonb`)).toContain('lg_jsonb_concat(');
    expect(sql(`select '{"a":1}'::jsonb || '{"b":2}'`)).toContain('lg_jsonb_concat(');
    expect(sql(`select id::text || '{"b":2}'::jsonb from orders`)).not.toContain('lg_jsonb_concat(');
  });

  test("text || NULL is typed text, and plain text || text is left alone (no cost on the common path)", () => {
    expect(sql("select 'a' || null")).toMatch(/CAST\('a' \|\| NULL AS text\)|::text/);
    expect(sql("select 'a' || 'b'")).not.toMatch(/CAST|::/);
  });

  test('their other forms are refused, never passed on', () => {
    expect(refusal('select 2 @ 3').code).toBe('42883');
    expect(refusal('select 2 |/ 3').code).toBe('42883');
  });

  test("sha256 is DuckDB's hex digest read back as bytes (and the rewrite does not meet itself)", () => {
    expect(sql("select sha256('a'::bytea)")).toMatch(/unhex\(sha256\(unhex\('61'\)\)\)/);
  });

  test("an untyped literal in arithmetic takes the number's type: 'a' + 1 fails in the cast (22P02), not as ambiguous", () => {
    expect(sql("select 'a' + 1")).toMatch(/CAST\('a' AS int4\)|'a'::int4/i);
  });
});

describe('dates as timestamptz', () => {
  test("date_trunc and generate_series pass the session's time zone to the typed macros", () => {
    expect(sql("select date_trunc('week', date '2024-05-17')", 'Europe/Berlin')).toContain("lg_date_trunc('week', '2024-05-17'::date, 'Europe/Berlin'");
    expect(sql("select * from generate_series(date '2024-01-01', date '2024-01-03', interval '1 day')")).toContain('lg_date_tz(');
  });
});

describe('SQLSTATEs PostgreSQL gives', () => {
  test('sum/avg of an untyped literal: 42725', () => {
    expect(refusal("select avg('x')").code).toBe('42725');
    expect(refusal("select sum('1')").message).toBe('function sum(unknown) is not unique');
  });

  test('one name for two FROM items: 42712; two tables of the same name from different schemas are allowed', () => {
    expect(refusal('select 1 from orders a, items a').message).toBe('table name "a" specified more than once');
    expect(refusal('select 1 from orders, sales.orders').code).toBe('42712');
    expect(refusal('select 1 from orders x join items y on true, items x').code).toBe('42712');
    // controls: distinct names, and a join's alias hiding the names inside it
    expect(() => sql('select 1 from orders a, items b')).not.toThrow();
    expect(() => sql('select 1 from (orders join items using (id)) j, orders')).not.toThrow();
  });
});

describe('named arguments', () => {
  test('make_interval takes them; any other function refuses them (DuckDB would bind its own parameter names)', () => {
    expect(sql('select make_interval(days => 3, hours => 2)')).toContain('lg_make_interval(0, 0, 0, 3, 2, 0, 0)');
    expect(refusal('select make_interval(days => 1, days => 2)').code).toBe('42601');
    expect(refusal('select make_interval(nosuch => 1)').code).toBe('42883');
    expect(refusal("select lpad('a', len => 3)").code).toBe('0A000');
  });
});

describe('stddev and variance of integers and numerics are exact numerics, round(float8) rounds half to even', () => {
  test.each([
    ['select stddev(id), variance(id) from orders', /lg_stddev_samp\(id\).*lg_var_samp\(id\)/],
    ['select stddev_pop(id), var_pop(id), stddev_samp(id), var_samp(id) from orders', /lg_stddev_pop\(id\).*lg_var_pop\(id\).*lg_stddev_samp\(id\).*lg_var_samp\(id\)/],
    // an aggregate's type is not known when DuckDB picks round's overload: the probe of avg decides it
    ['select round(avg(id)) from orders', /lg_round\(lakegate_pg\.pgc\.lg_avg\(id\), lakegate_pg\.pgc\.lg_avg_p\(id\)\)/],
    // stddev / 2 of an integer divides exactly: stddev's probe has avg's type
    ['select stddev(id) / 2 from orders', /lg_divp\(lakegate_pg\.pgc\.lg_stddev_samp\(id\), (lakegate_pg\.pgc\.lg_int_lit\(lakegate_pg\.pgc\.lg_avg_p\(id\), 2\)), lakegate_pg\.pgc\.lg_avg_p\(id\), \1\)/],
  ])('%s', (text, expected) => {
    expect(sql(text)).toMatch(expected);
  });

  test('FILTER (WHERE c) becomes the argument CASE WHEN c THEN x END (the aggregates skip NULLs)', () => {
    expect(sql('select stddev(id) filter (where id > 1) from orders')).toMatch(/lg_stddev_samp\(CASE WHEN id > 1 THEN id END\)/);
  });

  test('with OVER: count, sum and Σx² over the same window (named, framed, with FILTER); the call itself for floats', () => {
    const out = sql('select stddev(id) filter (where id > 0) over w, var_pop(id) over (partition by id order by id rows between 1 preceding and current row) from orders window w as (order by id)');
    expect(out).toContain('lg_stats_as(stddev(id) FILTER (WHERE id > 0) OVER w, count(id) FILTER (WHERE id > 0) OVER w, sum(id) FILTER (WHERE id > 0) OVER w, '
      + 'sum(lakegate_pg.pgc.lg_vsq(id)) FILTER (WHERE id > 0) OVER w, true, true, id)');
    const frame = 'OVER (PARTITION BY id ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)';
    expect(out).toContain(`lg_stats_as(var_pop(id) ${frame}, count(id) ${frame}, sum(id) ${frame}, sum(lakegate_pg.pgc.lg_vsq(id)) ${frame}, false, false, id)`);
    // not wrapped twice: the sums stay DuckDB's
    expect(out).not.toMatch(/lg_sum_as/);
  });

  test('with DISTINCT: Σx² over the distinct x, the squares of x >= 0 and of x < 0 apart (x and −x are two values)', () => {
    const out = sql('select variance(distinct id) filter (where id > 1) / 2 from orders');
    expect(out).toContain('lg_stats_as(variance(DISTINCT id) FILTER (WHERE id > 1), count(DISTINCT id) FILTER (WHERE id > 1), sum(DISTINCT id) FILTER (WHERE id > 1), '
      + 'lakegate_pg.pgc.lg_vadd(sum(DISTINCT lakegate_pg.pgc.lg_vsq(id)) FILTER (WHERE id > 1 AND id >= 0), sum(DISTINCT lakegate_pg.pgc.lg_vsq(id)) FILTER (WHERE id > 1 AND id < 0)), true, false, id)');
    // divided exactly: its probe has avg's type
    expect(out).toMatch(/lg_divp\(.*, (lakegate_pg\.pgc\.lg_int_lit\(lakegate_pg\.pgc\.lg_avg_p\(id\), 2\)), lakegate_pg\.pgc\.lg_avg_p\(id\), \1\)/);
  });

  test('with a subquery in FILTER, ORDER BY inside the call, or DISTINCT and OVER together they stay DuckDB\'s (double precision) and get no probe', () => {
    const out = sql('select var_pop(id) filter (where id > (select 1)) over () / 2, stddev(id order by id) from orders');
    expect(out).toMatch(/\bvar_pop\(id\) FILTER/i);
    expect(out).not.toMatch(/lg_stddev|lg_var|lg_stats_as/);
    expect(out).not.toMatch(/lg_avg_p/);
  });
});

describe('round(x, n) and trunc(x, n) are numeric-only, as in PostgreSQL (fid-types2)', () => {
  test('a float cast is 42883 with PostgreSQL\'s words; anything else goes through the typed macro with a probe', () => {
    expect(refusal('select round(1.5::float8, 1)').message).toBe('function round(double precision, integer) does not exist');
    expect(refusal('select trunc(2::real, 1)').code).toBe('42883');
    expect(sql('select round(id, 2), trunc(id, 1) from orders')).toMatch(/lg_round_n\(id, 2, id\).*lg_trunc_n\(id, 1, id\)/);
    expect(sql('select round(avg(id), 2) from orders')).toMatch(/lg_round_n\(lakegate_pg\.pgc\.lg_avg\(id\), 2, lakegate_pg\.pgc\.lg_avg_p\(id\)\)/);
  });
  test('where lakegate computes a numeric in double precision (::numeric of a double, sqrt, stddev with DISTINCT), or of a literal, the call stays DuckDB\'s', () => {
    for (const q of ['select round(id::numeric * 2, 2) from orders', 'select round(sqrt(2.0), 2)', 'select round(stddev(distinct id), 2) from orders', "select round('1.25', 1)", 'select round(null, 1)']) {
      expect(sql(q)).not.toMatch(/lg_round_n/);
    }
  });
});

describe('NULL division operands and bit constants (fid-types2)', () => {
  test('a NULL operand of / is typed by probes: the partner\'s for a bare NULL, a typed zero for NULL::type', () => {
    expect(sql('select 1.5 / null')).toContain('lg_divp(1.5, NULL, 1.5, 1.5)');
    expect(sql('select null::int4 / 2')).toMatch(/lg_divp\(NULL::int4, 2, 0::int4, 2\)/);
    expect(() => sql('select null / null')).toThrow(expect.objectContaining({ code: '42725', message: 'operator is not unique: unknown / unknown' }));
  });
  test('a constant cast to bit(n) or varbit(n) has PostgreSQL\'s bits', () => {
    expect(sql('select 5::bit(3), (-1)::bit(40)')).toContain(`bitstring('101', 3)`);
    expect(sql('select (-1)::bit(40)')).toContain(`bitstring('${'1'.repeat(40)}', 40)`);
    expect(sql("select B'1'::bit(3), X'1F'::bit(6), '1010'::varbit(2), B'101'::varbit")).toMatch(/bitstring\('100', 3\).*bitstring\('000111', 6\).*bitstring\('10', 2\).*bitstring\('101', 3\)/);
  });
  test('an expression cast to bit(n) goes through lg_bit_n with its probe; a parameter stays DuckDB\'s cast', () => {
    expect(sql('select id::bit(8), count(*)::int::bit(4) from orders group by id')).toMatch(/lg_bit_n\(id, 8, id\).*lg_bit_n\(\(count\(\*\)\)::int4, 4, CAST\(0::int8 AS int4\)\)/);
    expect(sql('select $1::bit(3)')).not.toContain('lg_bit_n');
  });
});

describe('analyst SQL, second pass (fid-corpus2)', () => {
  test('interval literals: a sign apart from its number is joined to it, ISO 8601 is spelled out', () => {
    expect(sql("select interval '1 month - 1 day', interval '+ 1 week'")).toMatch(/'1 month -1 day'::interval.*'1 week'::interval/);
    expect(sql("select interval 'P1Y2M3DT4H5M6.5S', 'PT36H'::interval")).toMatch(/'1 years 2 months 3 days 4 hours 5 minutes 6.5 seconds'::interval.*'36 hours'::interval/);
    expect(sql("select interval 'P1.5Y'")).toContain("'P1.5Y'");
  });
  test('DESC sorts NULLs first unless told; ASC and explicit NULLS are left as written', () => {
    expect(sql('select id from orders order by id desc, id, id desc nulls last')).toMatch(/ORDER BY id DESC NULLS FIRST, id, id DESC NULLS LAST/);
    expect(sql('select rank() over (order by id desc) from orders')).toContain('ORDER BY id DESC NULLS FIRST');
  });
  test('grouping() is cast to int4; array_agg / string_agg (DISTINCT x) are ordered by x', () => {
    expect(sql('select grouping(id) from orders group by rollup (id)')).toMatch(/CAST\(GROUPING\(id\) AS int4\)/);
    expect(sql("select array_agg(distinct id), string_agg(distinct id::text, ',') from orders")).toMatch(/array_agg\(DISTINCT id ORDER BY id\).*string_agg\(DISTINCT id::text, ',' ORDER BY id::text\)/);
  });
  test('substr / substring with a start before 1 count from 1 and shorten the length', () => {
    expect(sql("select substr('hello', -1, 3), substr('hello', -2), substring('hello' from 0 for 5), substr('hello', 2, 2)")).toMatch(
      /substr\('hello', 1, 1\).*substr\('hello', 1\).*FROM 1 FOR 4.*substr\('hello', 2, 2\)/i,
    );
  });
  test('window aggregates with DISTINCT, ORDER BY or WITHIN GROUP are 0A000 as in PostgreSQL', () => {
    expect(refusal('select count(distinct id) over () from orders').code).toBe('0A000');
    expect(refusal("select string_agg(id::text, ',' order by id) over () from orders").code).toBe('0A000');
    expect(refusal('select percentile_cont(0.5) within group (order by id) over () from orders').code).toBe('0A000');
  });
  test('an array by its form cast to text goes through lg_array_text; a timestamptz literal keeps its seconds', () => {
    expect(sql('select array_agg(id)::text, array[1, 2]::varchar from orders')).toMatch(/lg_array_text\(array_agg\(id\)\).*lg_array_text/);
    expect(sql("select timestamptz '2024-03-01 00:00:01+00'")).toContain("'2024-03-01 00:00:01+00:00'");
  });
});

describe('BETWEEN SYMMETRIC (fid-corpus2)', () => {
  test('is written out as two BETWEENs, NOT as two NOT BETWEENs; a subquery among its operands is refused', () => {
    expect(sql('select id between symmetric 10 and 1 from orders')).toMatch(/id BETWEEN 10 AND 1 OR id BETWEEN 1 AND 10/);
    expect(sql('select id not between symmetric 10 and 1 from orders')).toMatch(/id NOT BETWEEN 10 AND 1 AND id NOT BETWEEN 1 AND 10/);
    expect(refusal('select 1 between symmetric (select 2) and 0').code).toBe('0A000');
  });
});

describe("a column's ::jsonb under ->> / #>>", () => {
  test('is read from the text as written (lg_jsonb_text_at), each object on the path checked for duplicate keys', () => {
    const one = sql("select id::jsonb ->> 'a' from orders");
    expect(one).toContain("lg_jsonb_text_at(id::json, '/a', len(json_keys(id::json)) = len(list_distinct(json_keys(id::json))))");
    expect(one).not.toMatch(/lg_jsonb\(/);
    const deep = sql("select id::jsonb #>> '{a,b}' from orders");
    expect(deep).toContain("'/a/b'");
    expect(deep).toContain("json_keys(id::json, '/a')");
  });
  test('anything but a column keeps jsonb\'s form first (a literal is put in it while planning, a built value by lg_jsonb)', () => {
    expect(sql(`select '{"a":1}'::jsonb ->> 'a'`)).not.toContain('lg_jsonb_text_at');
    expect(sql("select (id || '')::jsonb ->> 'a' from orders")).toMatch(/lg_jsonb_get_text\(lakegate_pg\.pgc\.lg_jsonb\(/);
    expect(sql("select id::jsonb #>> '{}' from orders")).not.toContain('lg_jsonb_text_at');
  });
});

describe('jsonb deduplicated by value (1.0 and 1 are one jsonb)', () => {
  const V = `(values ('1.0'::jsonb, 1), ('1'::jsonb, 2)) t(j, n)`;
  test('an aggregate\'s DISTINCT argument and SELECT DISTINCT compare lg_jsonb_eq forms', () => {
    expect(sql(`select count(distinct j) from ${V}`)).toMatch(/count\(DISTINCT lakegate_pg\.pgc\.lg_jsonb_eq\(j\)\)/);
    expect(sql(`select distinct j, n from ${V}`)).toMatch(/SELECT DISTINCT ON \(lakegate_pg\.pgc\.lg_jsonb_eq\(j\), n\) j, n/);
    expect(sql(`select distinct n from ${V}`)).not.toContain('DISTINCT ON');
  });
  test('GROUP BY a jsonb groups by its equality form and shows any_value of it; used another way, it is left as written', () => {
    expect(sql(`select j, count(*) from ${V} group by j order by j`)).toMatch(/any_value\(j\) AS j.*GROUP BY lakegate_pg\.pgc\.lg_jsonb_eq\(j\) ORDER BY any_value\(j\)/);
    const other = sql(`select j::text, count(*) from ${V} group by j`);
    expect(other).not.toContain('lg_jsonb_eq');
    expect(sql(`select count(*), max(n) from ${V} group by j having count(j) > 0`)).toContain('GROUP BY lakegate_pg.pgc.lg_jsonb_eq(j)');
  });
});

describe('min / max of a boolean, regexp_replace from a start, FETCH … WITH TIES (fid-misc)', () => {
  test('min and max take their argument through a probe DuckDB drops while binding', () => {
    expect(sql('select min(id > 3), max(id) from orders')).toContain('min(lakegate_pg.pgc.lg_min_nb(id > 3, id > 3))');
    expect(sql('select max(id) from orders')).toContain('max(lakegate_pg.pgc.lg_max_nb(id, id))');
    // a subquery is never copied: the call stays as it is
    expect(sql('select max((select 1)) from orders')).not.toContain('lg_max_nb');
  });
  test('regexp_replace with a start and an occurrence', () => {
    expect(sql("select regexp_replace('aaa', 'a', 'b', 2)")).toContain("lg_regexp_replace_nth('aaa', 'a', '^((?s:.*?))(a)', 'b', 2, 1)");
    expect(sql("select regexp_replace(id::text, 'a', 'b', 1, 0, 'i')")).toContain("lg_re_all(id::text, '(?i)a', '^((?s:.*?))((?i)a)', 'b', 1)");
    // every match: walked as PostgreSQL does when the pattern can match the empty string (decided by the engine)
    expect(sql("select regexp_replace('aaa', 'a', 'b', 'g')")).toContain("lg_re_all('aaa', 'a', '^((?s:.*?))(a)', 'b', 1)");
    // the first match alone, or a pattern that looks behind: RE2's own
    expect(sql("select regexp_replace('aaa', 'a*', 'b')")).toContain("regexp_replace('aaa', 'a*', 'b')");
    expect(sql("select regexp_replace('aaa', '\\ba*', 'b', 'g')")).toContain("regexp_replace('aaa', E'\\\\ba*', 'b', 'g')");
    // flags DuckDB reads itself, a pattern known at run time: as written
    expect(sql("select regexp_replace('aaa', 'a', 'b', 'gs')")).toContain("regexp_replace('aaa', 'a', 'b', 'gs')");
    expect(sql("select regexp_replace('aaa', id::text, 'b', 'g') from orders")).toContain("regexp_replace('aaa', id::text, 'b', 'g')");
    // PostgreSQL's replacement escapes as RE2's
    expect(sql("select regexp_replace('abc', '(b)', '<\\&\\1\\2\\x>')")).toContain("regexp_replace('abc', '(b)', E'<\\\\0\\\\1\\\\\\\\x>')");
    expect(refusal("select regexp_replace('abc', 'b', 'X', 0)").code).toBe('22023');
    expect(refusal("select regexp_replace('abc', 'b', 'X', 1, -1)").code).toBe('22023');
    expect(refusal("select regexp_replace('abc', '^b', 'X', 2)").code).toBe('0A000');
    expect(refusal("select regexp_replace('abc', 'b', 'X', id, 1) from orders").code).toBe('0A000');
    expect(refusal("select regexp_replace((select 'abc'), 'b', 'X', 1, 1)").code).toBe('0A000');
    // without a start a subquery source stays RE2's replace (the walk would copy it)
    expect(sql("select regexp_replace((select 'abc'), 'b', 'X', 'g')")).not.toContain('lg_re_all');
  });
  test('% and mod() carry a probe of a + b that refuses a float operand (PostgreSQL has no float modulo)', () => {
    expect(sql('select id % 3 from orders')).toContain('lg_mod_t(id, lakegate_pg.pgc.lg_int_lit(id, 3), id + lakegate_pg.pgc.lg_int_lit(id, 3))');
    expect(sql('select mod(id, 3) from orders')).toContain('lg_mod_t(id, 3, id + lakegate_pg.pgc.lg_int_lit(id, 3))');
    // an aggregate's probe stands for it
    expect(sql('select sum(id) % 3 from orders')).toContain('lg_mod_t(lakegate_pg.pgc.lg_sum(id), lakegate_pg.pgc.lg_int_lit(lakegate_pg.pgc.lg_sum_p(id), 3), lakegate_pg.pgc.lg_sum_p(id) + ');
    // a subquery is never copied: no probe, no check
    expect(sql('select id % (select 3) from orders')).toContain('lg_mod(id, (SELECT 3 AS "?column?"))');
  });
  test('PostgreSQL replacement strings as RE2 rewrite strings', () => {
    expect(rewriteOf('<\\&>', 0)).toBe('<\\0>');
    expect(rewriteOf('\\1\\2\\3', 2)).toBe('\\1\\2');
    expect(rewriteOf('\\0 \\\\ \\x \\', 0)).toBe('\\\\0 \\\\ \\\\x \\\\');
    expect(capturingGroups('(a)(?:b)(?P<n>c)[(]\\(([[:alpha:])]])')).toBe(3);
  });
  test('WITH TIES as a rank filter over the query moved whole into a derived table', () => {
    const out = sql('select id as q from orders order by q desc offset 2 fetch next 3 rows with ties');
    expect(out).toContain('rank() OVER (ORDER BY q DESC NULLS FIRST)');
    expect(out).toMatch(/WHERE lg_r\.lg_rank <= \(2 \+ 3\) AND lg_r\.lg_row > 2 ORDER BY lg_r\.q DESC NULLS FIRST$/);
    expect(refusal('select * from orders order by id fetch first 1 rows with ties').code).toBe('0A000');
    expect(refusal('select id from orders order by id + 1 fetch first 1 rows with ties').code).toBe('0A000');
    expect(refusal('select id from orders order by id fetch first (select 1) rows with ties').code).toBe('0A000');
  });
});

describe("the session's TimeZone on a timestamptz (sql/sessionZone.ts)", () => {
  const ny = 'America/New_York';
  test('under UTC nothing is written', () => {
    const out = sql("select id::date, extract(hour from id), id::text, to_char(id, 'HH24 OF') from orders where id >= '2024-01-01'", 'UTC');
    expect(out).not.toMatch(/lg_wall|lg_zone|lg_zoned/);
  });
  test('wall clock, offset and text of a timestamptz through a probe DuckDB drops while binding', () => {
    expect(sql('select id::date, id::timestamp from orders', ny)).toContain(`(lakegate_pg.pgc.lg_wall(id, '${ny}', id))::date`);
    expect(sql('select extract(hour from id), date_part(\'dow\', id) from orders', ny)).toContain(`lakegate_pg.pgc.lg_wall(id, '${ny}', id)`);
    // the epoch is the instant's own
    expect(sql('select extract(epoch from id) from orders', ny)).not.toContain('lg_wall');
    expect(sql('select extract(timezone_minute from id) from orders', ny)).toContain(`lg_zone_minute(lakegate_pg.pgc.lg_zone_offset(id, '${ny}', id))`);
    expect(sql('select id::text from orders', ny)).toContain(`lg_zoned_text(id, '${ny}', id)`);
    expect(sql('select id::timestamptz from orders', ny)).toContain(`lg_zoned(id, '${ny}', id)`);
    expect(sql("select to_char(id, 'HH24 TZH') from orders", ny)).toContain(`lg_offset_text(lakegate_pg.pgc.lg_zone_offset(id, '${ny}', id), 'TZH', false)`);
    // an aggregate's probe stands for it
    expect(sql('select max(id)::date from orders', ny)).toContain(`lg_wall(max(lakegate_pg.pgc.lg_max_nb(id, id)), '${ny}', id)`);
  });
  test('a date and time written without an offset is read in the zone, also as a comparison partner', () => {
    expect(sql("select '2024-01-01 10:00'::timestamptz", ny)).toContain(`lg_zone_read('2024-01-01 10:00', '${ny}')`);
    expect(sql("select '2024-01-01 10:00+02'::timestamptz", ny)).not.toContain('lg_zone_read');
    const where = sql("select 1 from orders where id >= '2024-01-01' and id between '2024-01-01' and '2024-02-01' and id in ('2024-03-01')", ny);
    expect(where.match(/lg_zone_lit\(id, '2024-0\d-01', 'America\/New_York'\)/g)).toHaveLength(4);
    // not a date: as written
    expect(sql("select 1 from orders where id::text = 'abc'", ny)).not.toContain('lg_zone_lit');
  });
  test("to_char's TZ (an abbreviation the engine does not know) is refused", () => {
    expect(refusal("select to_char(id, 'HH24 TZ') from orders").code).toBe('0A000');
  });
});

describe("an enclosing query's column inside a subquery is never dispatched on; its probe is a constant of its type (sql/outerRefs.ts)", () => {
  test('a correlated or LATERAL reference of a table column: the probe carries a typed constant in its place', () => {
    expect(sql('select o.id, x.d from orders o cross join lateral (select o.id * 2 as d) x')).toContain('SELECT o.id * lakegate_pg.pgc.lg_int_lit(0::int4, 2) AS d');
    const correlated = sql('select id from orders o where exists (select 1 from items i where i.id > o.id + 1 and i.id % 3 = 0)');
    expect(correlated).toContain('i.id > (o.id + lakegate_pg.pgc.lg_int_lit(0::int4, 1))');
    expect(correlated).toContain('lg_mod_t(i.id, lakegate_pg.pgc.lg_int_lit(i.id, 3)');
    // a table function's arguments in FROM read the items before it (LATERAL)
    expect(sql('select o.id, g from orders o cross join lateral generate_series(1, o.id % 3) g')).toContain('lg_mod_t(o.id, lakegate_pg.pgc.lg_int_lit(0::int4, 3), 0::int4 + ');
    // the subquery's own columns stay as they are
    expect(sql('select (select max(id) + 1 from items) from orders')).toContain('+ lakegate_pg.pgc.lg_int_lit(id, 1) AS');
  });
  test('an outer name whose type is not known here (a VALUES column) gets no probe at all', () => {
    expect(sql("select * from (values (1, 'a')) v(n, s) cross join lateral (select n * 10 as m) l")).toContain('SELECT n * 10 AS m');
  });
});
