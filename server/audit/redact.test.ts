import { loadRedactor, MAX_REQUEST_DATA_CHARS, redact, UNREADABLE } from './redact.js';

beforeAll(async () => {
  await loadRedactor();
});

test.each([
  ["select * from t where ssn = '111-11-1111' and amount > 100.5 and id = 7", 'select * from t where ssn = $1 and amount > $2 and id = $3'],
  ["select $1, 'x' from t where a = $2", 'select $1, $3 from t where a = $2'],
  ["select -5, 1e3, .5, x'ff', b'101', E'it\\'s', U&'d\\0061t', $$dollar$$, $q$quoted$q$", 'select -$1, $2, $3, $4, $5, $6, $7, $8, $9'],
  ["select interval '90' day, date '2020-01-01', 'a'::text", 'select interval $1 day, date $2, $3::text'],
  ["CREATE ROLE bob PASSWORD 'hunter2'", 'CREATE ROLE bob PASSWORD $1'],
  ["select 1 -- password hunter2\n, 2 /* key 'k' */ from t", 'select $1 , $2 from t'],
  ['select/*x*/a from"T"', 'select a from"T"'],
  ['GRANT SELECT ON sales.orders TO USER dave', 'GRANT SELECT ON sales.orders TO USER dave'],
  ["SET TAG 'PII' ON COLUMN sales.orders.ssn", 'SET TAG $1 ON COLUMN sales.orders.ssn'],
  ["select 'it''s'", 'select $1'],
])('%s', (sql, expected) => {
  expect(redact(sql)).toBe(expected);
});

test('a statement the scanner cannot read is not recorded', () => {
  expect(redact("select 'unterminated secret")).toBe(UNREADABLE);
  expect(redact('select /* unterminated secret')).toBe(UNREADABLE);
});

test('long statements are cut at Ranger’s bound, and a literal across the scan prefix is still replaced', () => {
  const secret = 'S3CRET-VALUE';
  const head = 'select ' + 'a, '.repeat(5450); // 16,357 chars: the literal below straddles the 16 KiB prefix
  expect(head.length).toBeLessThan(16 * 1024);
  const sql = `${head}'${'x'.repeat(100)}${secret}' from t`;
  const out = redact(sql);
  expect(out.length).toBeLessThanOrEqual(MAX_REQUEST_DATA_CHARS);
  expect(out).not.toContain(secret);
  expect(out.startsWith('select a, a, ')).toBe(true);
  // and a short statement whose secret comes after many tokens: nothing of it survives
  const many = `select ${Array.from({ length: 400 }, (_, i) => `'${secret}${i}'`).join(', ')}`;
  const cut = redact(many);
  expect(cut).not.toContain(secret);
  expect(cut.length).toBeLessThanOrEqual(MAX_REQUEST_DATA_CHARS);
});
