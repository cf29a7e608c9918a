/**
 * Long messages are parsed off the event loop and can be stopped: the pool
 * answers what the inline parser answers, an aborted parse ends its worker at
 * once (even mid-parse) and the pool carries on, and the byte bound refuses a
 * message before any parsing. Access-control messages are told apart here
 * (their first words), parsed with lakegate's grammar and routed by the router.
 */
import { loadParser, parseStatements } from '../sql/parse.js';
import { route } from './router.js';
import { grammarOf, isAccessControl, StatementParser } from './statementParser.js';

const limits = { maxNodes: 1_000_000, maxDepth: 100_000 };
let parser: StatementParser;

beforeAll(async () => {
  await loadParser();
  parser = new StatementParser({ limits, maxStatementBytes: 8 * 1024 * 1024, inlineChars: 64, workers: 2 });
});

afterAll(async () => {
  await parser.close();
});

const big = (n: number) => `select 1 where 1 in (${Array.from({ length: n }, (_, i) => i).join(',')}); select 2`;

test('a long message parsed in a worker gives the same statements as the inline parser', async () => {
  const sql = big(2000);
  expect(await parser.parse(sql)).toEqual(parseStatements(sql, limits));
});

test("a worker's errors are the parser's errors (42601 with its position, 54001 for a too-deep tree)", async () => {
  const syntax = `select 1 where 1 in (${Array.from({ length: 100 }, (_, i) => i).join(',')},)`;
  await expect(parser.parse(syntax)).rejects.toMatchObject({ code: '42601', message: 'syntax error at or near ")"' });
  const strict = new StatementParser({ limits: { maxNodes: 100, maxDepth: 100 }, maxStatementBytes: 1e6, inlineChars: 0, workers: 1 });
  try {
    await expect(strict.parse(big(200))).rejects.toMatchObject({ code: '54001' });
  } finally {
    await strict.close();
  }
});

test('an abort ends a long parse at once, with the reason; the pool keeps answering', async () => {
  // a 4.5 MB IN list keeps libpg-query busy for seconds
  const slow = big(600_000);
  const controller = new AbortController();
  const started = performance.now();
  const running = parser.parse(slow, controller.signal);
  setTimeout(() => controller.abort(new Error('stopped by the test')), 100);
  await expect(running).rejects.toThrow('stopped by the test');
  expect(performance.now() - started).toBeLessThan(2000);
  expect(await parser.parse(big(500))).toHaveLength(2);
});

test('a message over maxStatementBytes is refused with 54000 before parsing', async () => {
  const small = new StatementParser({ limits, maxStatementBytes: 1024, inlineChars: 64, workers: 1 });
  try {
    const e = await small.parse(`select '${'ä'.repeat(600)}'`).catch((x: unknown) => x);
    expect(e).toMatchObject({ code: '54000', message: 'statement is too long: 1209 bytes, at most 1024 are accepted' });
  } finally {
    await small.close();
  }
});

describe("lakegate's access-control grammar", () => {
  test.each([
    ['GRANT SELECT ON sales.orders TO dave', 'accessControl'],
    ['/* c */ DENY SELECT ON TABLE sales.orders TO USER dave', 'accessControl'],
    ['show grants', 'accessControl'],
    ['CHECK ACCESS ALTER ON sales.orders FOR USER dave', 'accessControl'],
    ['SET TAG PII ON COLUMN a.b.c', 'accessControl'],
    ['SHOW search_path', 'postgres'],
    ['SET search_path = x', 'postgres'],
    ['SELECT 1', 'postgres'],
  ])('%s is in the %s grammar', (sql, grammar) => expect(grammarOf(sql)).toBe(grammar));

  test('parsed as one access-control statement, which the router routes to policy/admin', async () => {
    const [stmt, ...rest] = await parser.parse('DENY SELECT ON TABLE sales.orders TO USER dave');
    expect(rest).toHaveLength(0);
    expect(isAccessControl(stmt!)).toBe(true);
    expect(route(stmt!)).toMatchObject({ kind: 'accessControl', statement: { kind: 'deny', grantees: [{ type: 'USER', name: 'dave' }] } });
  });

  test("a GRANT that is PostgreSQL's but not lakegate's (a role to a user) is parsed by PostgreSQL's grammar and refused", async () => {
    const [stmt] = await parser.parse('GRANT admins TO dave');
    expect(isAccessControl(stmt!)).toBe(false);
    expect(route(stmt!)).toMatchObject({ kind: 'refused', error: { code: '42501', message: 'permission denied: GRANT role is not allowed through lakegate' } });
  });

  test('an access-control message has its own bound (16384 characters), checked before the byte bound', async () => {
    const small = new StatementParser({ limits, maxStatementBytes: 1024, inlineChars: 64, workers: 1 });
    try {
      await expect(small.parse(`SHOW GRANTS${' '.repeat(2000)}ON TABLE sales.orders`)).resolves.toHaveLength(1);
      await expect(small.parse(`SHOW GRANTS${' '.repeat(17000)}ON TABLE sales.orders`)).rejects.toMatchObject({
        code: '54000',
        message: 'access-control statement is too long (at most 16384 characters)',
      });
      await expect(small.parse('GRANT SELECT ON a TO b; GRANT SELECT ON c TO d')).rejects.toMatchObject({ code: '42601' });
    } finally {
      await small.close();
    }
  });
});
