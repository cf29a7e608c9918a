/**
 * Error texts (issue 11, Medium): an engine error reaches the client as
 * PostgreSQL's SQLSTATE and words for the same case — no DuckDB binder
 * wording, no internal macro names, no parse-tree paths, no cell values —
 * and the engine's own text stays in the server log under a reference the
 * user can quote. Each statement below reads only literals, so the real
 * PostgreSQL the test starts sees exactly the same data.
 */
import pg from 'pg';
import type { ServedGateway } from '../support/lakegateServe.js';
import { connected, eventually, expectClean, failure, startPair, type Pair } from './support.js';

let pair: Pair;
let g: ServedGateway;
let theirs: pg.Client;
let ours: pg.Client;

beforeAll(async () => {
  pair = await startPair();
  ({ g, theirs, ours } = pair);
}, 120000);

afterAll(async () => {
  await pair?.stop();
});

/** Statements whose error PostgreSQL and lakegate word identically. */
const SAME_TEXT = [
  'select 1/0',
  'select 7 % 0',
  'select 2147483647 + 1',
  'select 9223372036854775807 * 2',
  'select nosuch from (select 1 as a) s',
  'select a from (select 1 as a) x, (select 2 as a) y',
  "select 'a'::text / 1",
  'select lower(1, 2)',
  'select ln(0)',
  'select sqrt(-1)',
  'select (select x from (values (1), (2)) v(x))',
  "select ''::json",
  'select x.* from (select 1) s',
  'select * from generate_series(1, 10, 0)',
  'select chr(-1)',
  "select 'a' like 'x' escape 'ab'",
  // found by the fuzz: an empty name said "relation \"undefined\"" before
  "select ''::regclass",
  "select 'a.'::regclass",
  `select '""'::regclass`,
];

/** Statements where lakegate gives PostgreSQL's SQLSTATE but fewer words (no values: they may come from hidden rows). */
const SAME_CODE = [
  "select 'abc'::int",
  "select 'x'::bool",
  "select '2024-13-01'::date",
  "select 'nope'::date",
  "select 'x' ~ '('",
  'select a, count(*) from (values (1, 2)) t(a, b) group by b',
  'select 1 from (select 1) s order by 5',
  'select chr(1114112)',
];

describe('engine errors in PostgreSQL’s terms', () => {
  test.each(SAME_TEXT)('%s → PostgreSQL’s SQLSTATE and message', async (sql) => {
    const a = await failure(theirs, sql);
    const b = await failure(ours, sql);
    expect({ code: b.code, message: b.message }).toEqual({ code: a.code, message: a.message });
    expectClean(b);
  });

  test.each(SAME_CODE)('%s → PostgreSQL’s SQLSTATE, a clean text and a log reference', async (sql) => {
    const a = await failure(theirs, sql);
    const b = await failure(ours, sql);
    expect(b.code).toBe(a.code);
    expectClean(b);
    expect(b.detail).toMatch(/^Quote reference [0-9a-f]{12} to the administrator/);
  });
});

describe('what must not reach a client', () => {
  test('no cell value: a failing cast over a column does not quote the value (it did before)', async () => {
    // carol reads ssn unmasked (the demo's policies mask it for alice): the value is
    // there and readable, so a leak would show exactly this string
    const carol = await connected(g, 'carol');
    try {
      expect((await carol.query("select ssn from sales.orders where id = 1")).rows).toEqual([{ ssn: '111-11-1111' }]);
      const e = await failure(carol, 'select ssn::int from sales.orders');
      expect(e).toMatchObject({ code: '22P02', message: 'invalid input syntax for type integer' });
      expect(JSON.stringify(e)).not.toContain('111-11-1111');
      expect(JSON.stringify(e)).not.toContain('ssn');
    } finally {
      await carol.end();
    }
  });

  test('no parse-tree path: a statement the deparser cannot print faithfully is refused without /SelectStmt/… (before: the path was in the message)', async () => {
    // pgsql-deparser drops the parentheses of (coalesce(…))[i]; the re-parse check catches it
    const e = await failure(ours, 'select (coalesce(array[1,2]))[1]');
    expect(e.code).toBe('0A000');
    expect(e.message).toBe('this statement cannot be translated safely');
    expectClean(e);
    // the path is in the server log, under the reference the client got
    const ref = /reference ([0-9a-f]{12})/.exec(e.detail ?? '')![1]!;
    expect(await eventually(() => g.output().split('\n').some((l) => l.includes(ref) && l.includes('re-parsed tree differs at')), 5000)).toBe(true);
  });

  test('the engine’s own text is in the server log under the reference the client quotes', async () => {
    const e = await failure(ours, "select 'abc'::int");
    const ref = /reference ([0-9a-f]{12})/.exec(e.detail ?? '')![1]!;
    const logged = await eventually(() => g.output().split('\n').some((l) => l.includes(ref) && l.includes('Could not convert string')), 5000);
    expect(logged).toBe(true);
  });

  test('version() names PostgreSQL and lakegate, not the runtime (it named the Node version before)', async () => {
    const v = (await ours.query('select version() as v')).rows[0].v as string;
    expect(v).toMatch(/^PostgreSQL 1\d\.\d+ \(lakegate [\d.]+\) on /);
    expect(v).not.toContain(process.versions.node);
    expect(v).not.toMatch(/node/i);
  });
});
