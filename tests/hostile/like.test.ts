/**
 * LIKE and ILIKE now run as native LIKE or as RE2 expressions (sql/like.ts):
 * they must still match exactly what PostgreSQL matches. Every case is run
 * on the real PostgreSQL the test starts and on lakegate, with the pattern as
 * a literal (translated at plan time), as a parameter and as a column (both
 * translated by the engine), and the booleans compared.
 */
import pg from 'pg';
import { startPair, type Pair } from './support.js';

let pair: Pair;
let theirs: pg.Client;
let ours: pg.Client;

beforeAll(async () => {
  pair = await startPair();
  ({ theirs, ours } = pair);
}, 120000);

afterAll(async () => {
  await pair?.stop();
});

const TEXTS = ['', 'a', 'abc', 'ABC', 'a_c', 'a%c', 'a\\c', 'a.c', 'a(c)', 'x[y]z', 'line1\nline2', 'pg_catalog', 'pgxcatalog', 'äöü', 'ÄÖÜ', '€uro', '𝄞', 'a+b*c?', '^$|{}', "it's"];
const PATTERNS = [
  '', '%', '_', 'a%', '%c', '%b%', 'a_c', 'a\\_c', 'a\\%c', 'a\\\\c', 'a.c', 'a(c)', 'x[y]z', '%[%', 'line1_line2', 'line1%',
  'pg\\_%', 'ABC', 'abc', '___', '__', '%_%', 'ä%', '_uro', '_', '%+%', '^%', '%$%|%', "it''s", 'a%%c', '%\\\\%',
];
const ESCAPES = [null, '!', ''] as const;

interface Case {
  text: string;
  pattern: string;
  escape: string | null;
}

const cases: Case[] = [];
for (const text of TEXTS) for (const pattern of PATTERNS) for (const escape of ESCAPES) cases.push({ text, pattern: pattern.replace(/''/g, "'"), escape });

const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;
const esc = (e: string | null) => (e === null ? '' : ` escape ${lit(e)}`);

/**
 * ILIKE folds case by Unicode rules, as PostgreSQL does in a UTF-8 locale; the
 * reference cluster runs in the C locale (ASCII folding only), so PostgreSQL is
 * asked under its C.utf8 collation for the same answer (README: deliberate choices).
 */
const collate = (op: string, reference: boolean) => (reference && op.includes('ilike') ? ' collate "C.utf8"' : '');

/** One statement per operator for all cases at once: a row of booleans per case. */
function batch(op: string, form: 'literal' | 'column', cs: Case[], reference: boolean): string {
  const co = collate(op, reference);
  if (form === 'literal') {
    return `select ${cs.map((c, i) => `${lit(c.text)}${co} ${op} ${lit(c.pattern)}${esc(c.escape)} as m${i}`).join(', ')}`;
  }
  const rows = cs.map((c) => `(${lit(c.text)}, ${lit(c.pattern)})`).join(', ');
  const e = cs[0]!.escape;
  return `select t${co} ${op} p${esc(e)} as m from (values ${rows}) v(t, p)`;
}

describe.each(['like', 'not like', 'ilike', 'not ilike'])('%s matches as in PostgreSQL', (op) => {
  test('patterns as literals (translated when planned)', async () => {
    for (let i = 0; i < cases.length; i += 200) {
      const chunk = cases.slice(i, i + 200);
      const [a, b] = await Promise.all([theirs.query(batch(op, 'literal', chunk, true)), ours.query(batch(op, 'literal', chunk, false))]);
      expect(b.rows).toEqual(a.rows);
    }
  });

  test('patterns from a column (translated by the engine)', async () => {
    for (const escape of ESCAPES) {
      const chunk = cases.filter((c) => c.escape === escape);
      const [a, b] = await Promise.all([theirs.query(batch(op, 'column', chunk, true)), ours.query(batch(op, 'column', chunk, false))]);
      expect(b.rows).toEqual(a.rows);
    }
  });

  test('patterns as parameters', async () => {
    const sample = cases.filter((_, i) => i % 7 === 0 && cases[i]!.escape === null);
    for (const c of sample) {
      const sql = (reference: boolean) => `select $1::text${collate(op, reference)} ${op} $2::text as m`;
      const [a, b] = await Promise.all([theirs.query(sql(true), [c.text, c.pattern]), ours.query(sql(false), [c.text, c.pattern])]);
      expect({ ...c, m: b.rows[0].m }).toEqual({ ...c, m: a.rows[0].m });
    }
  });
});

test('NULL on either side gives NULL, as in PostgreSQL', async () => {
  const sql = "select null::text like 'a' as a, 'a' like null::text as b, 'a' ilike null::text as c, null::text not like '%' as d";
  const [a, b] = await Promise.all([theirs.query(sql), ours.query(sql)]);
  expect(b.rows).toEqual(a.rows);
  const p = await ours.query('select $1::text like $2::text as m', ['a', null]);
  expect(p.rows).toEqual([{ m: null }]);
});

test('LIKE ANY / ALL over an array of patterns, as in PostgreSQL', async () => {
  const sql =
    "select 'abc' like any (array['x%', 'a%']) as a, 'abc' like all (array['a%', '%c']) as b, 'abc' like all (array['a%', 'x%']) as c, 'abc' ilike any ('{X%,A_C}') as d";
  const [a, b] = await Promise.all([theirs.query(sql), ours.query(sql)]);
  expect(b.rows).toEqual(a.rows);
});
