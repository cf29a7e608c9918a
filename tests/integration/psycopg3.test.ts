/**
 * psycopg 3: runs tests/integration/python/test_psycopg3.py with pytest (tests/support/pytest.ts)
 * against a lakegate demo and turns each pytest case into a Jest test. A case that did not run,
 * or was skipped, fails; so does a missing .venv (scripts/setup-python.sh installs psycopg[binary]).
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { REPO_ROOT } from '../support/lakegate.js';
import { runPytest, type PytestRun } from '../support/pytest.js';
import { startTarget, type Target } from '../support/target.js';

const PY_FILE = path.join(REPO_ROOT, 'tests', 'integration', 'python', 'test_psycopg3.py');

/** Every pytest case in test_psycopg3.py, in file order. */
const CASES = [
  'test_connect_info',
  'test_date_parameter',
  'test_timestamptz_parameter',
  'test_any_with_list',
  'test_list_parameter_comes_back_a_list',
  'test_decimal_columns',
  'test_decimal_parameter_stays_decimal',
  'test_binary_cursor',
  'test_typeinfo_fetch',
  'test_to_regtype',
  'test_transaction_and_error_recovery',
  'test_denied_table_like_missing',
];

let t: Target;
let py: PytestRun;

beforeAll(async () => {
  t = await startTarget();
  py = await runPytest(PY_FILE, t);
}, 400000);

afterAll(async () => {
  await t?.stop();
});

describe('psycopg 3 (pytest test_psycopg3.py)', () => {
  test('pytest ran every case', () => {
    const r = py.result;
    expect(r.code === 0 || r.code === 1 ? '' : `exit ${r.code}${r.timedOut ? ' (timed out)' : ''}\n${r.stdout}\n${r.stderr}`).toBe('');
    expect(py.order).toEqual(CASES);
  });

  test.each(CASES)('%s', (name) => {
    expect(py.outcome.get(name) ?? 'NOT RUN').toBe('PASS');
  });
});
