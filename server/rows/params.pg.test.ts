/**
 * Bind parameters: PostgreSQL produces each value's text and binary wire form
 * (its send format is its receive format); decodeParam turns that into a
 * DuckDB value, DuckDB returns it from `SELECT $1`, and the text that comes
 * back (through the encoder, itself checked against PostgreSQL) must be what
 * PostgreSQL prints for the same value. Bad input must fail with
 * PostgreSQL's own SQLSTATE and message, taken from PostgreSQL.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { PgError } from '../../protocol/errors.js';
import { startReferencePair, type ReferencePair } from '../../tests/support/referencePair.js';
import { PgServerError, type RawPgClient } from '../../tests/support/pgRaw.js';
import { encodePrepared } from '../../tests/support/duckRows.js';
import { decodeParam } from './params.js';

interface ValueCase {
  oid: number;
  /** PostgreSQL expression of type `oid`. */
  pg: string;
  zone?: string;
  /** DuckDB statement the parameter is bound into (default: SELECT $1 AS v). */
  duck?: string;
}

const v = (oid: number, pg: string, more: Partial<ValueCase> = {}): ValueCase => ({ oid, pg, ...more });

const VALUES: ValueCase[] = [
  v(21, '0::int2'), v(21, '(-32768)::int2'), v(21, '32767::int2'),
  v(23, '(-2147483648)::int4'), v(23, '42::int4'),
  v(20, '9223372036854775807::int8'), v(20, '(-1)::int8'),
  v(700, '1.5::float4'), v(700, "'NaN'::float4"), v(700, "'-Infinity'::float4"), v(700, '3.4028235e38::float4'),
  v(701, '0.1::float8'), v(701, "'-0'::float8"), v(701, '1e300::float8'), v(701, '5e-324::float8'),
  v(1700, '1.50::numeric'), v(1700, '(-0.000001)::numeric'), v(1700, '0::numeric'), v(1700, '0.00::numeric'),
  v(1700, '123456789012345678901234567890.123::numeric'), v(1700, "'NaN'::numeric"), v(1700, '1e20::numeric'),
  v(1700, '10000::numeric'), v(1700, '0.0001::numeric'), v(1700, '(-12345678.9)::numeric'),
  v(16, 'true'), v(16, 'false'),
  v(25, "'héllo ✓'::text"), v(25, "''::text"), v(1043, "'abc'::varchar"),
  v(17, "'\\x00ff41'::bytea"), v(17, "'\\x'::bytea"),
  v(1082, "'2024-02-29'::date"), v(1082, "'0044-03-15 BC'::date"), v(1082, "'infinity'::date"), v(1082, "'-infinity'::date"), v(1082, "'1999-12-31'::date"),
  v(1114, "'2024-01-02 03:04:05.678901'::timestamp"), v(1114, "'0044-03-15 12:00:00 BC'::timestamp"), v(1114, "'-infinity'::timestamp"),
  v(1114, "'1999-12-31 23:59:59.5'::timestamp"),
  v(1184, "'2024-03-31 01:30:00+00'::timestamptz", { zone: 'Europe/Berlin' }),
  v(1184, "'2024-06-01 12:00:00.25-03'::timestamptz", { zone: 'America/Sao_Paulo' }),
  v(1184, "'infinity'::timestamptz"),
  v(2950, "'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid"), v(2950, "'ffffffff-0000-0000-0000-000000000000'::uuid"),
  v(114, `'{"a":[1,2,{"b":null}]}'::json`),
  v(3802, `'{"a": [1, 2]}'::jsonb`),
  v(1083, "'12:34:56.789'::time"), v(1083, "'00:00:00'::time"),
  v(1186, "INTERVAL '1 year 2 months 3 days 04:05:06.789'", { duck: 'SELECT $1::INTERVAL AS v' }),
  v(1186, "INTERVAL '-1 days +02:00:00'", { duck: 'SELECT $1::INTERVAL AS v' }),
  v(1186, "INTERVAL '-1 year -2 mons +3 days -04:05:06.5'", { duck: 'SELECT $1::INTERVAL AS v' }),
  v(1186, "INTERVAL '00:00:00'", { duck: 'SELECT $1::INTERVAL AS v' }),
  v(1186, "INTERVAL '1.5 days'", { duck: 'SELECT $1::INTERVAL AS v' }),
  v(1007, 'ARRAY[1,NULL,-3]::int4[]'), v(1007, "'{}'::int4[]"), v(1005, 'ARRAY[1,2]::int2[]'), v(1016, 'ARRAY[9223372036854775807,NULL]::int8[]'),
  v(1009, `ARRAY['a b', NULL, 'x"y', '', 'NULL', 'back\\slash', ' lead ', 'ü']::text[]`), v(1015, "ARRAY['v']::varchar[]"),
  v(1231, 'ARRAY[1.50, NULL, -0.01]::numeric(10,2)[]'),
  v(1182, "ARRAY['2024-01-01', 'infinity', NULL]::date[]"), v(1000, 'ARRAY[true,false,NULL]'), v(1001, "ARRAY['\\x01ff'::bytea, '\\x'::bytea]"),
  v(1022, "ARRAY[1.5, 'NaN', '-Infinity']::float8[]"), v(1021, 'ARRAY[1.5]::float4[]'),
  v(1185, "ARRAY['2024-03-31 01:30:00+00']::timestamptz[]", { zone: 'Europe/Berlin' }), v(1115, "ARRAY['2024-01-01 10:11:12.5']::timestamp[]"),
  v(2951, "ARRAY['a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11']::uuid[]"), v(199, `ARRAY['{"a":1}']::json[]`),
];

interface UnspecifiedCase {
  /** Text the client sends with parameter OID 0. */
  text: string;
  duck: string;
  /** The same statement in PostgreSQL, with $1 typed by context as it would be there. */
  pg: string;
  zone?: string;
}

const UNSPECIFIED: UnspecifiedCase[] = [
  // pgJDBC setDate
  { text: '1995-01-01 +00', duck: 'SELECT $1::DATE AS v', pg: 'SELECT $1::date AS v' },
  // node-postgres: untyped text for an integer context
  { text: '42', duck: 'SELECT $1::INTEGER + 1 AS v', pg: 'SELECT $1::integer + 1 AS v' },
  { text: 'abc', duck: 'SELECT $1 AS v', pg: 'SELECT $1::text AS v' },
  { text: 'yes', duck: 'SELECT $1::BOOLEAN AS v', pg: 'SELECT $1::boolean AS v' },
  { text: '2024-06-01 12:00:00', duck: 'SELECT $1::TIMESTAMPTZ AS v', pg: 'SELECT $1::timestamptz AS v', zone: 'Europe/Berlin' },
  { text: '2024-03-31 02:30:00', duck: 'SELECT $1::TIMESTAMPTZ AS v', pg: 'SELECT $1::timestamptz AS v', zone: 'Europe/Berlin' },
  { text: '2024-10-27 02:30:00', duck: 'SELECT $1::TIMESTAMPTZ AS v', pg: 'SELECT $1::timestamptz AS v', zone: 'Europe/Berlin' },
  { text: '2024-06-01T12:00:00Z', duck: 'SELECT $1::TIMESTAMPTZ AS v', pg: 'SELECT $1::timestamptz AS v', zone: 'America/Sao_Paulo' },
  { text: '2024-06-01 12:00:00 Asia/Kolkata', duck: 'SELECT $1::TIMESTAMPTZ AS v', pg: 'SELECT $1::timestamptz AS v' },
  { text: '2024-06-01 12:00:00+05:30', duck: 'SELECT $1::TIMESTAMP AS v', pg: 'SELECT $1::timestamp AS v' },
  { text: ' 1.250 ', duck: 'SELECT $1::DECIMAL(10,3) AS v', pg: 'SELECT $1::numeric(10,3) AS v' },
  { text: '1e3', duck: 'SELECT $1::DOUBLE AS v', pg: 'SELECT $1::float8 AS v' },
  { text: '1.255', duck: 'SELECT $1::DECIMAL(10,2) AS v', pg: 'SELECT $1::numeric(10,2) AS v' },
  { text: '-1.255', duck: 'SELECT $1::DECIMAL(10,2) AS v', pg: 'SELECT $1::numeric(10,2) AS v' },
  { text: '2.5e-3', duck: 'SELECT $1::DECIMAL(10,4) AS v', pg: 'SELECT $1::numeric(10,4) AS v' },
  { text: ' 7 ', duck: 'SELECT $1::SMALLINT AS v', pg: 'SELECT $1::int2 AS v' },
  { text: '12:34:56.5', duck: 'SELECT $1::TIME AS v', pg: 'SELECT $1::time AS v' },
  { text: '2024-01-02 03:04:05.678+01', duck: 'SELECT $1::TIMESTAMP AS v', pg: 'SELECT $1::timestamp AS v' },
  { text: 'infinity', duck: 'SELECT $1::TIMESTAMPTZ AS v', pg: 'SELECT $1::timestamptz AS v' },
  { text: '0044-03-15 12:00:00 BC', duck: 'SELECT $1::TIMESTAMP AS v', pg: 'SELECT $1::timestamp AS v' },
  { text: '\\x0a0b', duck: 'SELECT $1::BLOB AS v', pg: 'SELECT $1::bytea AS v' },
  { text: 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11', duck: 'SELECT $1::UUID AS v', pg: 'SELECT $1::uuid AS v' },
  // node-postgres sends JS arrays as text with OID 0
  { text: '{"1","2","3"}', duck: 'SELECT 2 = ANY($1::INTEGER[]) AS v', pg: 'SELECT 2 = ANY($1::integer[]) AS v' },
  { text: '{"a b","x\\"y",NULL, "NULL"}', duck: 'SELECT $1::VARCHAR[] AS v', pg: 'SELECT $1::text[] AS v' },
  { text: '[1:2]={2024-01-01,2024-02-29}', duck: 'SELECT $1::DATE[] AS v', pg: 'SELECT $1::date[] AS v' },
  { text: '@ 90 minutes ago', duck: 'SELECT $1::INTERVAL AS v', pg: 'SELECT $1::interval AS v' },
  { text: '2 weeks 1.5 hours', duck: 'SELECT $1::INTERVAL AS v', pg: 'SELECT $1::interval AS v' },
];

/** [oid, format, bytes as text or hex] that PostgreSQL refuses. */
const BAD: [number, 0 | 1, string][] = [
  [23, 0, 'abc'], [23, 0, '3000000000'], [23, 0, ''], [21, 0, '40000'], [20, 0, '9223372036854775808'], [20, 0, '1.5'],
  [701, 0, 'x'], [701, 0, '1e400'], [700, 0, '1e40'], [1700, 0, '1.2.3'], [16, 0, 'maybe'], [2950, 0, 'not-a-uuid'],
  [1082, 0, 'garbage'], [1082, 0, '2024-13-01'], [1082, 0, '2023-02-29'], [1114, 0, '2024-01-01 25:00:00'],
  [17, 0, '\\xzz'], [17, 0, '\\x0'], [17, 0, 'a\\b'], [114, 0, '{bad'], [3802, 0, '[1,'],
  [1007, 0, '{1,2'], [1007, 0, '{1,abc}'], [1007, 0, '1,2'], [1009, 0, '{"a}'],
  [23, 1, '010203'], [20, 1, '00000001'], [21, 1, '000001'], [701, 1, '00'], [1082, 1, '0000000000'], [2950, 1, '00'], [16, 1, '0101'],
];

describe('Bind parameters against PostgreSQL', () => {
  let ref: ReferencePair;
  let pg: RawPgClient;
  let duck: DuckDBConnection;
  let zone = '';
  const setZone = async (z: string) => {
    if (z !== zone) {
      await pg.query(`SET TimeZone = '${z}'`);
      zone = z;
    }
  };

  beforeAll(async () => {
    ref = await startReferencePair();
    ({ pg, duck } = ref);
  });
  afterAll(async () => {
    await ref?.stop();
  });

  describe.each([0, 1] as const)('format %i', (format) => {
    it.each(VALUES.map((c) => [`${c.oid} ${c.pg}`, c] as const))('%s', async (_label, c) => {
      const z = c.zone ?? 'UTC';
      await setZone(z);
      const wire = (await pg.query(`SELECT ${c.pg}`, [], format)).rows[0]![0]!;
      const expected = (await pg.query(`SELECT ${c.pg}`, [], 0)).rows[0]![0]!;
      const param = decodeParam(0, c.oid, format, wire, null, { timeZone: z });
      const got = await encodePrepared(duck, c.duck ?? 'SELECT $1 AS v', [param], 0, z);
      expect(got.rows[0]![0]!.toString()).toBe(expected.toString());
    });
  });

  it.each(UNSPECIFIED.map((c) => [c.text, c] as const))('OID 0 text %s takes the type DuckDB inferred', async (_label, c) => {
    const z = c.zone ?? 'UTC';
    await setZone(z);
    const expected = (await pg.query(c.pg, [{ oid: 0, format: 0, value: Buffer.from(c.text) }], 0)).rows[0]![0]!;
    const prepared = await duck.prepare(c.duck);
    const target = prepared.parameterTypeId(1) === 0 ? null : prepared.parameterType(1);
    const param = decodeParam(0, 0, 0, Buffer.from(c.text), target, { timeZone: z });
    const got = await encodePrepared(duck, c.duck, [param], 0, z);
    expect(got.rows[0]![0]!.toString()).toBe(expected.toString());
  });

  it.each(BAD.map(([oid, format, s]) => [`${oid}/${format} ${JSON.stringify(s)}`, oid, format, s] as const))(
    'refuses %s like PostgreSQL',
    async (_label, oid, format, s) => {
      const raw = format === 1 ? Buffer.from(s, 'hex') : Buffer.from(s);
      const pgError = await pg.query('SELECT $1 AS v', [{ oid, format, value: raw }], 0).then(
        () => null,
        (e: unknown) => e,
      );
      expect(pgError).toBeInstanceOf(PgServerError);
      let ours: unknown = null;
      try {
        decodeParam(0, oid, format, raw, null);
      } catch (e) {
        ours = e;
      }
      expect(ours).toBeInstanceOf(PgError);
      const p = pgError as PgServerError;
      const o = ours as PgError;
      expect({ code: o.code, message: o.message }).toEqual({ code: p.code, message: p.message });
    },
  );

  it('passes NULL as a typed NULL', async () => {
    const param = decodeParam(0, 23, 1, null, null);
    const got = await encodePrepared(duck, 'SELECT $1 AS v', [param], 0);
    expect(got.rows[0]![0]).toBeNull();
    expect(param.type.toString()).toBe('INTEGER');
  });
});
