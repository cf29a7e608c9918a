/**
 * pgJDBC: compiles tests/integration/java/JdbcChecks.java with javac against the driver
 * jar (scripts/fetch-pgjdbc.sh puts it in .tools/pgjdbc/), runs it against a lakegate
 * demo, and turns each "PASS name" / "FAIL name: reason" line into a Jest test. A check
 * that never reports is a failure.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startTarget, type Target } from '../support/target.js';
import type { RunResult } from '../support/clients.js';
import { compileJava, runJava } from '../support/java.js';

/** Every check JdbcChecks prints, in order. */
const CHECKS = [
  'connect',
  'wrong_password_28P01',
  'unknown_database_3D000',
  'getters_text',
  'timestamptz_in_jvm_zone',
  'demo_orders',
  ...Array.from({ length: 10 }, (_, i) => `prepared_run_${i + 1}`),
  'prepared_demo_where',
  'fetch_size_cursor',
  'fetch_size_two_cursors_interleaved',
  'metadata_getTables',
  'metadata_getColumns',
  'metadata_getSchemas',
  'metadata_getSQLKeywords',
  'metadata_getFunctions',
  'metadata_getFunctionColumns',
  'metadata_getProcedures',
  'metadata_getTablePrivileges',
  'error_then_recovery',
  'error_in_transaction_then_rollback',
  'refused_statement',
  'multiple_statements_one_execute',
  'transaction_commit_rollback',
  'cancel_57014',
  'query_timeout_57014',
];

let t: Target;
let result: RunResult;
const outcome = new Map<string, string>();
const order: string[] = [];

beforeAll(async () => {
  await compileJava('JdbcChecks');
  t = await startTarget();
  result = await runJava('JdbcChecks', [t.host, String(t.port)]);
  for (const line of result.stdout.split('\n')) {
    const m = /^(PASS|FAIL) ([A-Za-z0-9_]+)(?:: (.*))?$/.exec(line);
    if (m) {
      outcome.set(m[2]!, m[1] === 'PASS' ? 'PASS' : `FAIL: ${m[3] ?? ''}`);
      order.push(m[2]!);
    }
  }
}, 400000);

afterAll(async () => {
  await t?.stop();
});

describe('pgJDBC (JdbcChecks.java)', () => {
  test('the harness ran to the end', () => {
    const detail = `exit ${result.code}${result.timedOut ? ' (timed out)' : ''}\nstdout:\n${result.stdout}\nstderr:\n${result.stderr.slice(-4000)}`;
    expect({ done: result.stdout.includes('\nDONE'), code: result.code, detail: result.code === 0 ? '' : detail }).toEqual({
      done: true,
      code: 0,
      detail: '',
    });
  });

  test('it reported exactly the expected checks', () => {
    expect(order).toEqual(CHECKS);
  });

  test.each(CHECKS)('%s', (name) => {
    expect(outcome.get(name) ?? 'NOT RUN').toBe('PASS');
  });
});
