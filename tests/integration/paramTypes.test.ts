/**
 * Parameter types against the real PostgreSQL: each statement is parsed with the
 * parameter OIDs a client sends (0 = unspecified, as psycopg 3 sends a str), described
 * (ParameterDescription, RowDescription), then bound and run, on lakegate and on a
 * throwaway PostgreSQL 15 (tests/support/realPostgres.ts); the two answers must match:
 * parameter OIDs, column type OIDs, values, and the SQLSTATE where PostgreSQL refuses.
 * The statements are the shapes SQLAlchemy 2's reflection sends through psycopg 3
 * (json_build_object over bound literals, `col != $n::INTEGER`, `CAST($n AS REGCLASS)`,
 * an unused boolean argument) and the "any" / polymorphic arguments PostgreSQL cannot type.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startInProcess, type InProcessGateway } from '../support/inProcess.js';
import { startPostgres, type RealPostgres } from '../support/realPostgres.js';
import { fe, parseDataRow, parseError, parseRowDescription, RawConn } from '../support/wire.js';

let gateway: InProcessGateway;
let pg: RealPostgres;
let lg: RawConn;
let ref: RawConn;

beforeAll(async () => {
  [gateway, pg] = await Promise.all([startInProcess(() => ({})), startPostgres()]);
  lg = await RawConn.connect('127.0.0.1', gateway.server.port);
  await lg.startup('alice', 'demo', 'alice');
  ref = await RawConn.connect(pg.host, pg.port);
  await ref.startup('postgres', 'postgres', '');
  // the demo table as `lakegate demo` declares it (scripts/pg-demo.sh)
  await ref.simple('CREATE SCHEMA sales; CREATE TABLE sales.orders(id integer, ssn text, amount decimal(10,2), region text)');
}, 120000);

afterAll(async () => {
  lg?.close();
  ref?.close();
  await Promise.all([gateway?.stop(), pg?.stop()]);
});

interface Answer {
  params?: number[];
  columns?: number[];
  rows?: (string | null)[][];
  /** SQLSTATE and message */
  error?: string;
}

/** SQLSTATE and message: both must be PostgreSQL's. */
function errorText(body: Buffer): string {
  const e = parseError(body);
  return `${e.code ?? ''} ${e.message ?? ''}`;
}

/** Parse + Describe statement, then Bind (text values) + Execute, each batch under its own Sync. */
async function answer(c: RawConn, sql: string, oids: number[], values: (string | null)[]): Promise<Answer> {
  c.send(Buffer.concat([fe.parse('', sql, oids), fe.describe('S', ''), fe.sync()]));
  const described = await c.untilReady();
  const err = described.find((m) => m.type === 'E');
  if (err) return { error: errorText(err.body) };
  const pd = described.find((m) => m.type === 't')!.body;
  const params = Array.from({ length: pd.readInt16BE(0) }, (_, i) => pd.readUInt32BE(2 + 4 * i));
  const rd = described.find((m) => m.type === 'T');
  const columns = rd ? parseRowDescription(rd.body).map((f) => f.typeOid) : [];
  c.send(Buffer.concat([fe.bind('', '', values), fe.execute('', 0), fe.sync()]));
  const ran = await c.untilReady();
  const runErr = ran.find((m) => m.type === 'E');
  if (runErr) return { params, columns, error: errorText(runErr.body) };
  const rows = ran.filter((m) => m.type === 'D').map((m) => parseDataRow(m.body).map((v) => v?.toString('utf8') ?? null));
  return { params, columns, rows };
}

const UNKNOWN = 0;
const BOOL = 16;
const INT2 = 21;
const TEXT = 25;

const CASES: [string, string, number[], (string | null)[]][] = [
  // SQLAlchemy's get_columns: json_build_object over literals psycopg 3 binds as parameters
  ['json_build_object key and value parameters cast in the statement', `SELECT json_build_object($1::VARCHAR, $2::VARCHAR, $3::VARCHAR, 'b' = $4::VARCHAR)`, [UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN], ['always', 'x', 'flag', 'b']],
  ['json_build_object with a client-typed NULL value', `SELECT json_build_object($1::text, $2::int4)`, [TEXT, UNKNOWN], ['k', null]],
  ['json_build_array over a cast parameter', `SELECT json_build_array($1::int4, 'x', $2::bool)`, [UNKNOWN, UNKNOWN], ['3', 'true']],
  ['json_agg over a parameter expression', `SELECT json_agg(g || $1::text) FROM (VALUES ('a'), ('b')) AS t(g)`, [UNKNOWN], ['!']],
  ['to_json of a cast parameter', `SELECT to_json($1::text)`, [UNKNOWN], ['he said "hi"']],
  [
    "get_columns' shape: json over catalog rows, filtered by cast parameters",
    // attname::text: name columns are text (25) in lakegate, an open difference of its own (tests/fidelity/known.ts)
    `SELECT a.attname::text, CASE WHEN a.attidentity != $1::VARCHAR THEN json_build_object($2::VARCHAR, a.attidentity = $3::VARCHAR) END AS identity,
       (SELECT json_build_object($4::VARCHAR, t.typname, $5::VARCHAR, a.attnum) FROM pg_catalog.pg_type t WHERE t.oid = a.atttypid) AS type
     FROM pg_catalog.pg_class c JOIN pg_catalog.pg_attribute a ON c.oid = a.attrelid AND a.attnum > $6::SMALLINT
     JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
     WHERE c.relkind = ANY (ARRAY[$7::VARCHAR, $8::VARCHAR]) AND n.nspname = $9::VARCHAR AND c.relname IN ($10::VARCHAR) ORDER BY a.attnum`,
    Array(10).fill(UNKNOWN) as number[],
    ['', 'always', 'a', 'type', 'num', '0', 'r', 'v', 'sales', 'orders'],
  ],
  // a cast parameter compared with an oid column (bigint in the engine), sent as int2 as psycopg 3 sends 0
  ['$1::INTEGER against an oid column, client says int2', `SELECT count(*) > 0 FROM pg_catalog.pg_attribute a WHERE a.attcollation != $1::INTEGER`, [INT2], ['0']],
  ['$1::INTEGER against an oid column, unspecified', `SELECT count(*) > 0 FROM pg_catalog.pg_attribute a WHERE a.attcollation != $1::INTEGER`, [UNKNOWN], ['0']],
  // get_pk_constraint / get_foreign_keys: CAST(%s AS REGCLASS) and an unused boolean argument
  ['CAST($1 AS REGCLASS) compared with an oid', `SELECT count(*) FROM pg_catalog.pg_class c WHERE c.oid = CAST($1 AS REGCLASS)`, [UNKNOWN], ['pg_catalog.pg_constraint']],
  ['CAST($1 AS REGCLASS) of a relation that does not exist', `SELECT count(*) FROM pg_catalog.pg_class c WHERE c.oid = CAST($1 AS REGCLASS)`, [UNKNOWN], ['no_such_relation']],
  ['pg_get_constraintdef with a client-typed boolean', `SELECT pg_catalog.pg_get_constraintdef(0, $1)`, [BOOL], ['true']],
  // psycopg 3's lists: str lists unspecified (an array of the left operand's type), others typed arrays
  ['text = ANY(unspecified)', `SELECT x FROM (VALUES ('US'), ('EU')) AS t(x) WHERE x = ANY($1) ORDER BY x`, [UNKNOWN], ['{US,XX}']],
  ['int4 = ANY(unspecified)', `SELECT x FROM (VALUES (1), (2)) AS t(x) WHERE x = ANY($1)`, [UNKNOWN], ['{2,3}']],
  ['date <> ALL(unspecified)', `SELECT d FROM (VALUES (date '2024-01-02'), (date '2024-05-05')) AS t(d) WHERE d <> ALL($1)`, [UNKNOWN], ['{2024-01-02}']],
  ['numeric(10,2) = ANY(unspecified)', `SELECT a FROM (VALUES (100.00::numeric(10,2)), (250.50)) AS t(a) WHERE a = ANY($1)`, [UNKNOWN], ['{250.5,7}']],
  ['two lists: text then int4', `SELECT x FROM (VALUES ('US', 1), ('EU', 2)) AS t(x, y) WHERE x = ANY($1) AND y = ANY($2)`, [UNKNOWN, UNKNOWN], ['{US,EU}', '{1}']],
  ['text = ANY(text[])', `SELECT x FROM (VALUES ('US'), ('EU')) AS t(x) WHERE x = ANY($1) ORDER BY x`, [1009], ['{US,"a,b",NULL}']],
  ['date = ANY(date[])', `SELECT d FROM (VALUES (date '2024-01-02'), (date '2024-05-05')) AS t(d) WHERE d = ANY($1)`, [1182], ['{2024-05-05,2020-01-01}']],
  ['numeric = ANY(numeric[])', `SELECT a FROM (VALUES (100.00::numeric(10,2)), (250.50)) AS t(a) WHERE a = ANY($1)`, [1231], ['{250.500,1}']],
  ['a date[] parameter comes back date[]', `SELECT $1`, [1182], ['{2024-01-02,NULL}']],
  ['a text[] parameter comes back text[]', `SELECT $1`, [1009], ['{a,"b,c","q\\"t",NULL}']],
  // what PostgreSQL cannot type: an "any" or polymorphic argument given a bare parameter
  ['json_build_object value: bare unspecified parameter', `SELECT json_build_object('a', $1)`, [UNKNOWN], ['x']],
  ['json_build_object key: bare unspecified parameter', `SELECT json_build_object($1, 1)`, [UNKNOWN], ['x']],
  ['json_build_array: bare unspecified parameter', `SELECT json_build_array($1)`, [UNKNOWN], ['x']],
  ['json_object_agg: bare unspecified parameter', `SELECT json_object_agg('k', $1)`, [UNKNOWN], ['x']],
  ['concat: bare unspecified parameter', `SELECT concat($1)`, [UNKNOWN], ['x']],
  ['to_json: bare unspecified parameter (polymorphic)', `SELECT to_json($1)`, [UNKNOWN], ['x']],
  ['json_build_object: bare parameter the client typed', `SELECT json_build_object('a', $1)`, [TEXT], ['x']],
  ['json_build_object: parameter under coalesce is typed by it', `SELECT json_build_object('a', coalesce($1, 'z'))`, [UNKNOWN], ['x']],
];

describe('ParameterDescription, RowDescription and values vs PostgreSQL', () => {
  test.each(CASES)('%s', async (_what, sql, oids, values) => {
    const want = await answer(ref, sql, oids, values);
    const got = await answer(lg, sql, oids, values);
    expect(got).toEqual(want);
  });

  test('$1::regclass selected prints the relation\'s name as PostgreSQL does, typed regclass', async () => {
    for (const [name, printed] of [['pg_catalog.pg_constraint', 'pg_constraint'], ['pg_class', 'pg_class']]) {
      const want = await answer(ref, 'SELECT $1::regclass', [UNKNOWN], [name!]);
      expect(want).toEqual({ params: [2205], columns: [2205], rows: [[printed]] });
      expect(await answer(lg, 'SELECT $1::regclass', [UNKNOWN], [name!])).toEqual(want);
    }
    const missing = await answer(ref, 'SELECT $1::regclass', [UNKNOWN], ['no_such_relation']);
    expect(missing.error).toBe('42P01 relation "no_such_relation" does not exist');
    expect(await answer(lg, 'SELECT $1::regclass', [UNKNOWN], ['no_such_relation'])).toEqual(missing);
  });

  test('the reference itself answers as documented (a control: these shapes are typed, or refused, by PostgreSQL)', async () => {
    expect(await answer(ref, `SELECT json_build_object('a', $1)`, [UNKNOWN], ['x'])).toEqual({ error: '42P18 could not determine data type of parameter $1' });
    expect(await answer(ref, `SELECT to_json($1)`, [UNKNOWN], ['x'])).toEqual({ error: '42804 could not determine polymorphic type because input has type unknown' });
    expect(await answer(ref, `SELECT json_build_object('a', $1::VARCHAR)`, [UNKNOWN], ['x'])).toEqual({ params: [1043], columns: [114], rows: [['{"a" : "x"}']] });
  });
});
