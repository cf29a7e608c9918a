/**
 * Differential test: every value is produced by DuckDB and put through the
 * row encoder, and produced by a real PostgreSQL, in text and in binary; the
 * bytes must be identical. The RowDescription OID must match too (checks
 * sql/pgTypes.ts). PostgreSQL is the only source of expected bytes here.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { startReferencePair, type ReferencePair } from '../../tests/support/referencePair.js';
import type { RawPgClient } from '../../tests/support/pgRaw.js';
import { encodeQuery } from '../../tests/support/duckRows.js';
import { binaryFormatSupported, pgFieldFor } from './describe.js';
import type { PresentedAs } from '../../sql/pgTypes.js';

interface Case {
  /** DuckDB expression. */
  duck: string;
  /** PostgreSQL expression producing the same value (default: the same text). */
  pg?: string;
  zone?: string;
  /** Skip the binary comparison (DuckDB type has no binary output). */
  textOnly?: boolean;
  /** Skip the OID comparison (PostgreSQL has no equivalent type, e.g. enums). */
  anyOid?: boolean;
  /** The PostgreSQL type the planner says the column holds (sql/resultTypes.ts: catalog columns, pg_typeof). */
  presented?: PresentedAs;
}

const c = (duck: string, pg?: string, more: Partial<Case> = {}): Case => ({ duck, pg, ...more });

const CASES: Record<string, Case[]> = {
  bool: [
    c('true'), c('false'), c('NULL::boolean'),
    // DuckDB types a bare NULL as INTEGER, PostgreSQL as text: same bytes, different OID (a planner matter).
    c('NULL', 'NULL', { anyOid: true }), c('[NULL, NULL]', "'{NULL,NULL}'::text[]", { anyOid: true, textOnly: true }),
  ],
  integers: [
    c('(-128)::TINYINT', '(-128)::int2'),
    c('127::TINYINT', '127::int2'),
    c('(-32768)::SMALLINT', '(-32768)::int2'),
    c('32767::SMALLINT', '32767::int2'),
    c('255::UTINYINT', '255::int2'),
    c('65535::USMALLINT', '65535::int4'),
    c('4294967295::UINTEGER', '4294967295::int8'),
    c('(-2147483648)::INTEGER', '(-2147483648)::int4'),
    c('0::INTEGER', '0::int4'),
    c('2147483647::INTEGER', '2147483647::int4'),
    c('(-9223372036854775808)::BIGINT', '(-9223372036854775808)::int8'),
    c('9223372036854775807::BIGINT', '9223372036854775807::int8'),
    c('(-9007199254740993)::BIGINT', '(-9007199254740993)::int8'),
    c('9007199254740992::BIGINT', '9007199254740992::int8'),
    c('42::BIGINT', '42::int8'),
    c('18446744073709551615::UBIGINT', '18446744073709551615::numeric'),
    c('(-170141183460469231731687303715884105728)::HUGEINT', '(-170141183460469231731687303715884105728)::numeric'),
    c('340282366920938463463374607431768211455::UHUGEINT', '340282366920938463463374607431768211455::numeric'),
    c('0::HUGEINT', '0::numeric'),
    c("'-123456789012345678901234567890123456789012345'::BIGNUM", "'-123456789012345678901234567890123456789012345'::numeric"),
  ],
  decimals: [
    c('12.34::DECIMAL(4,2)', '12.34::numeric(4,2)'),
    c('(-0.05)::DECIMAL(4,2)', '(-0.05)::numeric(4,2)'),
    c('0::DECIMAL(4,2)', '0::numeric(4,2)'),
    c('7::DECIMAL(4,0)', '7::numeric(4,0)'),
    c('12345.6789::DECIMAL(9,4)', '12345.6789::numeric(9,4)'),
    c('(-99999.9999)::DECIMAL(9,4)', '(-99999.9999)::numeric(9,4)'),
    c('1234567.89::DECIMAL(10,2)', '1234567.89::numeric(10,2)'),
    c('(-123456789012.345678)::DECIMAL(18,6)', '(-123456789012.345678)::numeric(18,6)'),
    c('0.000001::DECIMAL(18,6)', '0.000001::numeric(18,6)'),
    c('999999999999999999::DECIMAL(18,0)', '999999999999999999::numeric(18,0)'),
    c('0.123456789012345678::DECIMAL(18,18)', '0.123456789012345678::numeric(18,18)'),
    c('10000::DECIMAL(18,2)', '10000::numeric(18,2)'),
    c('(-1234567890123456789.0123456789)::DECIMAL(38,10)', '(-1234567890123456789.0123456789)::numeric(38,10)'),
    c('99999999999999999999999999999999999999::DECIMAL(38,0)', '99999999999999999999999999999999999999::numeric(38,0)'),
    c('0.5::DECIMAL(38,20)', '0.5::numeric(38,20)'),
    c('100000000.0001::DECIMAL(20,4)', '100000000.0001::numeric(20,4)'),
  ],
  floats: [
    ...['1.5', '0.1', '-0.0', '0', "'NaN'", "'Infinity'", "'-Infinity'", '1e10', '123456', '1234567', '0.0001', '0.00001', '3.4028235e38', '1.17549435e-38', '1e-45', '16777217', '3.14159265', '1.5e10', '3e10', '7e20', '1.1e12']
      .map((v) => c(`${v}::FLOAT`, `${v}::float4`)),
    ...['0.1', '1e15', '123456789012345', '1e-5', '0.0001', '5e-324', '1.7976931348623157e308', '-0.0', "'NaN'", "'Infinity'", "'-Infinity'", '1.0/3', '100', '1e22', '-2.5e-300', '9007199254740993', '0.30000000000000004', '1e23', '9e22', '1e22', '5e23', '1.2e24', '4.35e25', '1e300']
      .map((v) => c(`(${v})::DOUBLE`, `(${v})::float8`)),
  ],
  strings: [
    c("'hello'::VARCHAR", "'hello'::text"),
    c("''::VARCHAR", "''::text"),
    c("'héllo wörld ✓ 日本 🦆'::VARCHAR", "'héllo wörld ✓ 日本 🦆'::text"),
    c(`'with "quotes" and \\ backslash'::VARCHAR`, `'with "quotes" and \\ backslash'::text`),
    c("'line' || chr(10) || 'break'", "'line' || chr(10) || 'break'"),
    c("repeat('abcdefghij', 100)", "repeat('abcdefghij', 100)"),
    c(`'{"a":[1,2,{"b":null}]}'::JSON`, `'{"a":[1,2,{"b":null}]}'::json`),
    c("from_hex('')", "'\\x'::bytea"),
    c("from_hex('00ff41deadbeef')", "'\\x00ff41deadbeef'::bytea"),
    c("from_hex(repeat('ab', 40))", `decode(repeat('ab', 40), 'hex')`),
    c("'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::UUID", "'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid"),
    c("'00000000-0000-0000-0000-000000000000'::UUID", "'00000000-0000-0000-0000-000000000000'::uuid"),
    c("'ffffffff-ffff-ffff-ffff-ffffffffffff'::UUID", "'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid"),
    c("'7fffffff-0000-8000-0000-000000000001'::UUID", "'7fffffff-0000-8000-0000-000000000001'::uuid"),
    c("'0101'::BIT", "B'0101'"), // bit without a length, as PostgreSQL types a bit literal
    c("'1'::BIT", "B'1'"),
    c("'101100111000111100001'::BIT", "B'101100111000111100001'"),
    c("'sad'::ENUM('sad', 'ok', 'happy')", "'sad'::text", { anyOid: true }),
    c("'happy'::ENUM('sad', 'ok', 'happy')", "'happy'::text", { anyOid: true }),
  ],
  dates: [
    ...['2000-01-01', '1970-01-01', '0001-01-01', '9999-12-31', '2024-02-29', '1900-03-01', '1582-10-04', '12345-06-07', 'infinity', '-infinity']
      .map((v) => c(`'${v}'::DATE`, `'${v}'::date`)),
    c("'0001-12-31 (BC)'::DATE", "'0001-12-31 BC'::date"),
    c("'0044-03-15 (BC)'::DATE", "'0044-03-15 BC'::date"),
    c("'4713-11-24 (BC)'::DATE", "'4713-11-24 BC'::date"),
  ],
  times: [
    ...['00:00:00', '23:59:59.999999', '12:34:56.5', '01:02:03.000100', '24:00:00'].map((v) => c(`'${v}'::TIME`, `'${v}'::time`)),
    ...['12:34:56+05:30', '00:00:00-03', '23:59:59.999999+14', '10:00:00+00', '08:15:00-09:30', '01:02:03.25+01:02:03'].map((v) =>
      c(`'${v}'::TIMETZ`, `'${v}'::timetz`),
    ),
  ],
  timestamps: [
    ...['2024-01-02 03:04:05', '2024-01-02 03:04:05.123', '2024-01-02 03:04:05.000001', '1970-01-01 00:00:00', '1900-01-01 00:00:00.5',
      '1600-02-29 12:00:00', '2262-04-11 23:47:16.854775', '9999-12-31 23:59:59.999999', '1969-12-31 23:59:59.999999', 'infinity', '-infinity']
      .map((v) => c(`'${v}'::TIMESTAMP`, `'${v}'::timestamp`)),
    c("'0044-03-15 (BC) 12:00:00'::TIMESTAMP", "'0044-03-15 12:00:00 BC'::timestamp"),
    c("'0001-12-31 (BC) 23:59:59.75'::TIMESTAMP", "'0001-12-31 23:59:59.75 BC'::timestamp"),
    c("'2024-01-02 03:04:05'::TIMESTAMP_S", "'2024-01-02 03:04:05'::timestamp"),
    c("'2024-01-02 03:04:05.678'::TIMESTAMP_MS", "'2024-01-02 03:04:05.678'::timestamp"),
    c("'2024-01-02 03:04:05.678912'::TIMESTAMP_NS", "'2024-01-02 03:04:05.678912'::timestamp"),
    c("'1960-01-02 03:04:05.678912'::TIMESTAMP_NS", "'1960-01-02 03:04:05.678912'::timestamp"),
  ],
  timestamptz: [
    ...[
      ['UTC', '2024-06-01 12:00:00+00'],
      ['UTC', '0044-03-15 12:00:00+00 BC'],
      ['UTC', 'infinity'],
      ['UTC', '-infinity'],
      ['Europe/Berlin', '2024-03-31 00:59:59.999999+00'],
      ['Europe/Berlin', '2024-03-31 01:00:00+00'],
      ['Europe/Berlin', '2024-10-27 00:59:59+00'],
      ['Europe/Berlin', '2024-10-27 01:00:00+00'],
      ['Europe/Berlin', '2024-07-01 00:00:00+00'],
      ['Europe/Berlin', '1850-01-01 00:00:00+00'],
      ['Europe/Berlin', '1945-05-24 02:00:00+00'],
      ['Europe/Berlin', '2300-07-01 00:00:00+00'],
      ['America/Sao_Paulo', '2018-11-04 02:59:59+00'],
      ['America/Sao_Paulo', '2018-11-04 03:00:00+00'],
      ['America/Sao_Paulo', '2019-02-17 01:59:59+00'],
      ['America/Sao_Paulo', '2019-02-17 02:00:00+00'],
      ['America/Sao_Paulo', '2024-01-15 12:00:00.5+00'],
      ['Asia/Kolkata', '2024-01-15 12:00:00+00'],
      ['europe/amsterdam', '1900-01-15 12:00:00+00'],
      ['America/St_Johns', '2024-01-15 12:00:00+00'],
      // POSIX-style settings, sign inverted as in POSIX: 'UTC+3' is three hours west.
      ['UTC+3', '2024-01-15 12:00:00+00'],
      ['<+0530>-05:30', '2024-01-15 12:00:00+00'],
      ['XST5XDT,M3.2.0,M11.1.0', '2024-07-15 12:00:00+00'],
    ].map(([zone, v]) => {
      const duck = v!.endsWith(' BC') ? `'${v!.replace(/^(\d+-\d+-\d+) (.*) BC$/, '$1 (BC) $2')}'::TIMESTAMPTZ` : `'${v}'::TIMESTAMPTZ`;
      return c(duck, `'${v}'::timestamptz`, { zone });
    }),
  ],
  intervals: [
    c("INTERVAL '1 year 2 months 3 days 04:05:06.789'", "INTERVAL '1 year 2 months 3 days 04:05:06.789'"),
    c("INTERVAL '0 seconds'", "INTERVAL '0 seconds'"),
    c("INTERVAL '1 day'", "INTERVAL '1 day'"),
    c("INTERVAL '1 month'", "INTERVAL '1 month'"),
    c("INTERVAL '100 hours'", "INTERVAL '100 hours'"),
    c("-INTERVAL '1 year 2 months'", "-INTERVAL '1 year 2 months'"),
    c("to_days(-1) + to_hours(2)", "INTERVAL '-1 days' + INTERVAL '2 hours'"),
    c("to_days(1) - to_microseconds(1500000)", "INTERVAL '1 day' - INTERVAL '1.5 seconds'"),
    c("-to_microseconds(1500000)", "-INTERVAL '1.5 seconds'"),
    c("to_months(-1) + to_days(1)", "INTERVAL '-1 month' + INTERVAL '1 day'"),
    c("to_years(-2) + to_hours(-3)", "INTERVAL '-2 years' + INTERVAL '-3 hours'"),
  ],
  arrays: [
    c('[1, 2, 3]::INTEGER[]', 'ARRAY[1,2,3]::int4[]'),
    c('[]::INTEGER[]', "'{}'::int4[]"),
    c('[1, NULL, -3]::INTEGER[]', 'ARRAY[1,NULL,-3]::int4[]'),
    c('[1, 2]::SMALLINT[]', 'ARRAY[1,2]::int2[]'),
    c('[9223372036854775807, NULL]::BIGINT[]', 'ARRAY[9223372036854775807,NULL]::int8[]'),
    c('[true, false, NULL]', 'ARRAY[true,false,NULL]'),
    c("['a b', NULL, 'x\"y', '', 'NULL', 'null', 'a,b', 'a{b}', 'back\\slash', ' lead', 'tab\tx', 'plain', 'ü']::VARCHAR[]",
      "ARRAY['a b', NULL, 'x\"y', '', 'NULL', 'null', 'a,b', 'a{b}', 'back\\slash', ' lead', 'tab\tx', 'plain', 'ü']::text[]"),
    c("[1.5::DOUBLE, 'NaN'::DOUBLE, '-Infinity'::DOUBLE, -0.0::DOUBLE]", "ARRAY[1.5, 'NaN', '-Infinity', '-0']::float8[]"),
    c("[1.5, 1e10]::FLOAT[]", "ARRAY[1.5, 1e10]::float4[]"),
    c('[1.50, -2.25, NULL]::DECIMAL(4,2)[]', 'ARRAY[1.50, -2.25, NULL]::numeric(4,2)[]'),
    c("['2024-01-01', 'infinity', NULL]::DATE[]", "ARRAY['2024-01-01', 'infinity', NULL]::date[]"),
    c("['2024-01-01 10:11:12.5', NULL]::TIMESTAMP[]", "ARRAY['2024-01-01 10:11:12.5', NULL]::timestamp[]"),
    c("['2024-01-01 10:11:12+00']::TIMESTAMPTZ[]", "ARRAY['2024-01-01 10:11:12+00']::timestamptz[]", { zone: 'Europe/Berlin' }),
    c("[from_hex('01ff'), from_hex('')]", "ARRAY['\\x01ff'::bytea, '\\x'::bytea]"),
    c("['a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11']::UUID[]", "ARRAY['a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11']::uuid[]"),
    c("['12:00:00']::TIME[]", "ARRAY['12:00:00']::time[]"),
    c("[INTERVAL '1 day']", "ARRAY[INTERVAL '1 day']"),
    c('[1, 2, 3]::INTEGER[3]', 'ARRAY[1,2,3]::int4[]'),
    c('[NULL]::INTEGER[]', 'ARRAY[NULL]::int4[]'),
  ],
  // catalog types DuckDB lacks, carried by VARCHAR / BIGINT and presented as the planner says (sql/resultTypes.ts)
  presented: [
    c("'pg_class'", "'pg_class'::name", { presented: 19 }), c("'Ünïcode name'", "'Ünïcode name'::name", { presented: 19 }),
    c("'r'", `'r'::"char"`, { presented: 18 }),
    ...['0', '26', '2200', '2147483648', '4294967295', '-1', '-2147483648'].map((v) => c(`(${v})::BIGINT`, `(${v})::oid`, { presented: 26 })),
    c('12345::BIGINT', "'12345'::xid", { presented: 28 }),
    c('[1, NULL, 4294967295]::BIGINT[]', 'ARRAY[1, NULL, 4294967295]::oid[]', { presented: 1028 }),
    c("['pg_class', 'a b', NULL]::VARCHAR[]", "ARRAY['pg_class', 'a b', NULL]::name[]", { presented: 1003 }),
    c("['r', 'v']::VARCHAR[]", `ARRAY['r', 'v']::"char"[]`, { presented: 1002 }),
    c("'BASE TABLE'", "'BASE TABLE'::varchar", { presented: 1043 }),
    // casts to varchar(n), char(n), bit(n), varbit(n): the typmod with them; char(n) carried trimmed, padded to n
    c("'hel'", "'hello'::varchar(3)", { presented: { oid: 1043, typmod: 7 } }),
    c("'ab'", "'ab'::char(4)", { presented: { oid: 1042, typmod: 8 } }), c("'é'", "'é'::char(3)", { presented: { oid: 1042, typmod: 7 } }),
    c("'abcd'", "'abcd'::character(4)", { presented: { oid: 1042, typmod: 8 } }), c("''", "''::char(2)", { presented: { oid: 1042, typmod: 6 } }),
    c("'ab '", "'ab '::bpchar", { presented: 1042 }),
    c("'101'::BIT", "B'101'::bit(3)", { presented: { oid: 1560, typmod: 3 } }), c("'10'::BIT", "B'101'::varbit(2)", { presented: { oid: 1562, typmod: 2 } }),
    c("'101'::BIT", "B'101'::varbit", { presented: 1562 }),
    ...[['integer', 'int4'], ['bigint[]', 'int8[]'], ['timestamp with time zone', 'timestamptz'], ['numeric', 'numeric'], ['text', 'text'], ['unknown', 'unknown']]
      .map(([name, typ]) => c(`'${name}'`, `'${typ}'::regtype`, { presented: 2206 })),
    ...[['int4in', "'int4in'"], ['array_in', "'array_in'"], ['bthandler', "'bthandler'"], ['-', '0']]
      .map(([text, pg]) => c(`'${text}'`, `${pg}::regproc`, { presented: 24 })),
    c("'pg_class'", "'pg_class'::regclass", { presented: 2205 }),
    c("'(1,a,,2.5)'", "row(1, 'a', null, 2.5)", { presented: 2249 }),
    // PostgreSQL has no binary output for aclitem, and the vectors are zero-based: text only
    c("['=r/postgres', 'postgres=arwdDxt/postgres']::VARCHAR[]", "ARRAY['=r/postgres', 'postgres=arwdDxt/postgres']::aclitem[]", { presented: 1034 }),
    c('[1, 3]::SMALLINT[]', "'1 3'::int2vector", { presented: 22 }),
    c('[23, 25, 4294967295]::BIGINT[]', "'23 25 4294967295'::oidvector", { presented: 30 }),
    c('[]::BIGINT[]', "''::oidvector", { presented: 30 }),
    c("'23 25'", "'23 25'::oidvector", { presented: 30 }),
    // jsonb over DuckDB's JSON (the text as written): jsonb_out's key order, spacing, escapes and numbers
    ...[
      '{"b":1, "a":2}', '{"a":1,"a":{"z":[],"y":{}}}', '{"aa":1,"b":2,"":3,"é":4,"z":5}', '[1e2, -0, 1.50, 1.5e-3, 0.1E1, -1.0e-2]',
      '["\\u00e9\\n/\\/\\u0001\\"\\\\", "\\ud83d\\ude00"]', '"x"', 'null', 'true', '[]', '{}', '  [ 1 , {"b" : null} ]  ',
    ].map((j) => c(`'${j}'::JSON`, `'${j}'::jsonb`, { presented: 3802 })),
    // not the carrying type: presented as DuckDB's own
    c('7::INTEGER', '7::int4', { presented: 26 }),
  ],
  // STRUCT / MAP / UNION / nested lists have no PostgreSQL type: they go out as json, laid out as
  // PostgreSQL's row_to_json / to_json would print the equivalent composite or array.
  json: [
    c("{'a': 1, 'b': 'x', 'c': NULL::INTEGER}", "(SELECT row_to_json(t) FROM (SELECT 1 AS a, 'x'::text AS b, NULL::int AS c) t)"),
    c("{'l': [1, 2], 's': {'x': true}}", '(SELECT row_to_json(t) FROM (SELECT ARRAY[1,2] AS l, (SELECT r FROM (SELECT true AS x) r) AS s) t)'),
    c(
      "{'d': DATE '2024-01-02', 'ts': TIMESTAMP '2024-01-02 03:04:05.5', 'inf': 'infinity'::TIMESTAMP, 'f': 1.5::DOUBLE, 'n': 'NaN'::DOUBLE, 'num': 1.50::DECIMAL(4,2), 'b': from_hex('01ff'), 'u': 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::UUID, 'iv': INTERVAL '1 day', 'tm': TIME '12:00:00', 'big': 9007199254740993::BIGINT, 'e': 1e300::DOUBLE}",
      "(SELECT row_to_json(t) FROM (SELECT DATE '2024-01-02' AS d, TIMESTAMP '2024-01-02 03:04:05.5' AS ts, 'infinity'::timestamp AS inf, 1.5::float8 AS f, 'NaN'::float8 AS n, 1.50::numeric(4,2) AS num, '\\x01ff'::bytea AS b, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid AS u, INTERVAL '1 day' AS iv, TIME '12:00:00' AS tm, 9007199254740993::int8 AS big, 1e300::float8 AS e) t)",
    ),
    c("{'tz': TIMESTAMPTZ '2024-07-01 00:00:00+00', 'w': TIMESTAMPTZ '2024-01-01 00:00:00+00'}",
      "(SELECT row_to_json(t) FROM (SELECT TIMESTAMPTZ '2024-07-01 00:00:00+00' AS tz, TIMESTAMPTZ '2024-01-01 00:00:00+00' AS w) t)", { zone: 'Europe/Berlin' }),
    c("{'tz': TIMESTAMPTZ '2024-07-01 00:00:00+00'}", "(SELECT row_to_json(t) FROM (SELECT TIMESTAMPTZ '2024-07-01 00:00:00+00' AS tz) t)"),
    c(`{'s': 'a"b\\c/' || chr(10) || chr(9) || chr(1) || 'é🦆'}`, `(SELECT row_to_json(t) FROM (SELECT 'a"b\\c/' || chr(10) || chr(9) || chr(1) || 'é🦆' AS s) t)`),
    c(`{'Mixed Case': 1, 'quote"d': 2}`, `(SELECT row_to_json(t) FROM (SELECT 1 AS "Mixed Case", 2 AS "quote""d") t)`),
    c('[[1, 2], [3, 4]]', 'to_json(ARRAY[ARRAY[1,2],ARRAY[3,4]])'),
    c("[{'a': 1}, {'a': NULL}]", 'ARRAY[(SELECT row_to_json(t) FROM (SELECT 1 AS a) t), (SELECT row_to_json(t) FROM (SELECT NULL::int AS a) t)]'),
    c("MAP {'k': 1, 'z': 2}", '(SELECT row_to_json(t) FROM (SELECT 1 AS k, 2 AS z) t)'),
    c("{'a': [TIMESTAMP '2024-01-01 00:00:00', NULL]}", "(SELECT row_to_json(t) FROM (SELECT ARRAY[TIMESTAMP '2024-01-01 00:00:00', NULL] AS a) t)"),
    c("{'bc': '0044-03-15 (BC) 12:00:00'::TIMESTAMP, 'bcd': '0044-03-15 (BC)'::DATE, 'di': 'infinity'::DATE, 'f4': 1.5e10::FLOAT, 'tz': '12:00:00+05:30'::TIMETZ}",
      "(SELECT row_to_json(t) FROM (SELECT '0044-03-15 12:00:00 BC'::timestamp AS bc, '0044-03-15 BC'::date AS bcd, 'infinity'::date AS di, 1.5e10::float4 AS f4, '12:00:00+05:30'::timetz AS tz) t)"),
    c("{'e': 'happy'::ENUM('sad', 'happy'), 'h': 170141183460469231731687303715884105727::HUGEINT, 'l': [[1, 2], [3, NULL]]}",
      "(SELECT row_to_json(t) FROM (SELECT 'happy'::text AS e, 170141183460469231731687303715884105727::numeric AS h, ARRAY[ARRAY[1,2],ARRAY[3,NULL]] AS l) t)"),
    c("[MAP {1: 'a'}, NULL]", `ARRAY['{"1":"a"}'::json, NULL]`),
    c('union_value(num := 2)::UNION(num INTEGER, str VARCHAR)', 'to_json(2)'),
    c("union_value(str := 'x')::UNION(num INTEGER, str VARCHAR)", "to_json('x'::text)"),
  ],
};

describe('row encoder against PostgreSQL 15 output', () => {
  let ref: ReferencePair;
  let pg: RawPgClient;
  let duck: DuckDBConnection;
  let zone = '';

  beforeAll(async () => {
    ref = await startReferencePair();
    ({ pg, duck } = ref);
  });
  afterAll(async () => {
    await ref?.stop();
  });

  const show = (b: Buffer | null | undefined) => (b == null ? b : { text: b.toString('utf8'), hex: b.toString('hex') });

  for (const [group, cases] of Object.entries(CASES)) {
    describe(group, () => {
      it.each(cases.map((k) => [k.duck, k] as const))('%s', async (_label, k) => {
        const z = k.zone ?? 'UTC';
        if (z !== zone) {
          await pg.query(`SET TimeZone = '${z}'`);
          zone = z;
        }
        const pgSql = `SELECT ${k.pg ?? k.duck} AS v`;
        const duckSql = `SELECT ${k.duck} AS v`;
        const pgText = await pg.query(pgSql, [], 0);
        const duckText = await encodeQuery(duck, duckSql, 0, z, k.presented);
        expect(show(duckText.rows[0]![0])).toEqual(show(pgText.rows[0]![0]));
        if (!k.anyOid) {
          const f = pgFieldFor('v', duckText.types[0]!, 0, k.presented);
          const p = pgText.fields[0]!;
          expect({ oid: f.typeOid, len: f.typeLen, mod: f.typeMod }).toEqual({ oid: p.typeOid, len: p.typeLen, mod: p.typeMod });
        }

        if (k.textOnly) return;
        if (!binaryFormatSupported(duckText.types[0]!, k.presented)) {
          // refused before any row is written, never sent as the wrong bytes
          await expect(encodeQuery(duck, duckSql, 1, z, k.presented)).rejects.toThrow(/binary output is not supported for type (regclass|record|aclitem\[\]|int2vector|oidvector)$/);
          return;
        }
        const pgBin = await pg.query(pgSql, [], 1);
        const duckBin = await encodeQuery(duck, duckSql, 1, z, k.presented);
        expect(show(duckBin.rows[0]![0])).toEqual(show(pgBin.rows[0]![0]));
      });
    });
  }

  it('an int8 no oid holds, presented as oid, is an error as in PostgreSQL, never a truncated OID', async () => {
    for (const v of ['4294967296', '(-2147483649)']) {
      const theirs = await pg.query(`SELECT ${v}::int8::oid AS v`, [], 0).then(() => null, (e: { code?: string }) => e.code);
      expect(theirs).toBe('22003');
      for (const format of [0, 1] as const) {
        await expect(encodeQuery(duck, `SELECT ${v}::BIGINT AS v`, format, 'UTC', 26)).rejects.toMatchObject({ code: '22003' });
      }
    }
  });

  it('keeps DataRow framing across many rows, NULLs and chunk boundaries', async () => {
    const sql = (ty: string) =>
      `SELECT i, CASE WHEN i % 7 = 0 THEN NULL ELSE 'v' || i END AS s, (i * 1.25)::${ty} AS d FROM generate_series(1, 5000) AS t(i) ORDER BY i`;
    const pgRows = await pg.query(sql('numeric(12,2)').replace('SELECT i,', 'SELECT i::int8,'), [], 0);
    const duckRows = await encodeQuery(duck, sql('DECIMAL(12,2)').replace('FROM generate_series(1, 5000) AS t(i)', 'FROM range(1, 5001) AS t(i)'), 0);
    expect(duckRows.rows.length).toBe(5000);
    expect(duckRows.rows.map((r) => r.map((v) => v?.toString()))).toEqual(pgRows.rows.map((r) => r.map((v) => v?.toString())));
  });
});
