/**
 * Long messages are parsed off the event loop and can be stopped: the pool
 * answers what the inline parser answers, an aborted parse ends its worker at
 * once (even mid-parse) and the pool carries on, and the byte bound refuses a
 * message before any parsing.
 */
import { loadParser, parseStatements } from '../sql/parse.js';
import { StatementParser } from './statementParser.js';

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
