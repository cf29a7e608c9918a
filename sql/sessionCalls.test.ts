/** Which SELECTs the session answers itself: only calls to its functions, with constant arguments. */
import { loadParser, parseOne } from './parse.js';
import { sessionCalls } from './sessionCalls.js';

beforeAll(() => loadParser());

const calls = (sql: string, pid?: number) => sessionCalls(parseOne(sql)!.node['SelectStmt']!, pid);

test('calls with constants, parameters and pg_backend_pid() are read with their columns', () => {
  expect(calls("SELECT pg_sleep(0.5), set_config('search_path', $1, false) AS sp")).toEqual([
    { fn: 'pg_sleep', column: 'pg_sleep', args: ['0.5'] },
    { fn: 'set_config', column: 'sp', args: ['search_path', { param: 1 }, 'false'] },
  ]);
  expect(calls('SELECT pg_catalog.pg_cancel_backend(pg_backend_pid())', 42)).toEqual([{ fn: 'pg_cancel_backend', column: 'pg_cancel_backend', args: ['42'] }]);
  expect(calls('SELECT txid_current()')).toEqual([{ fn: 'txid_current', column: 'txid_current', args: [] }]);
});

test.each([
  'SELECT pg_sleep(1) FROM t',
  'SELECT pg_sleep(1), 1',
  'SELECT pg_sleep(x)',
  'SELECT other.pg_sleep(1)',
  'SELECT pg_sleep(1) UNION SELECT pg_sleep(2)',
  'SELECT now()',
  // names of Object.prototype are not session functions
  'SELECT valueOf()',
  'SELECT constructor()',
])('%s is not answered by the session', (sql) => expect(calls(sql)).toBeNull());
