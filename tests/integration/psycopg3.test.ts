/**
 * psycopg 3: runs tests/integration/python/test_psycopg3.py with pytest (tests/support/pytest.ts)
 * against a lakegate demo and turns each pytest case into a Jest test. A case that did not run,
 * or was skipped, fails; so does a missing .venv (scripts/setup-python.sh installs psycopg[binary]).
 */
import path from 'node:path';
import { REPO_ROOT } from '../support/lakegate.js';
import { pytestSuite } from '../support/pytest.js';

const PY_FILE = path.join(REPO_ROOT, 'tests', 'integration', 'python', 'test_psycopg3.py');

/** Every pytest case in test_psycopg3.py, in file order. */
const CASES = [
  'test_connect_info',
  'test_date_parameter',
  'test_timestamptz_parameter',
  'test_any_with_list',
  'test_list_parameter_comes_back_a_list',
  ...['test_any_with_list_of_strings', 'test_any_with_list_of_dates', 'test_any_with_list_of_decimals', 'test_typed_lists_come_back_lists'].flatMap((c) => [
    `${c}[False]`,
    `${c}[True]`,
  ]),
  'test_scrollable_server_cursor[False]',
  'test_scrollable_server_cursor[True]',
  'test_decimal_columns',
  'test_decimal_parameter_stays_decimal',
  'test_binary_cursor',
  'test_typeinfo_fetch',
  'test_to_regtype',
  'test_transaction_and_error_recovery',
  'test_denied_table_like_missing',
];

pytestSuite('psycopg 3 (pytest test_psycopg3.py)', PY_FILE, CASES);
