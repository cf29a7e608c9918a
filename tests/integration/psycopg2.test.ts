/**
 * psycopg2: runs tests/integration/python/test_psycopg2.py with pytest (from the
 * .venv that scripts/setup-python.sh makes, or LAKEGATE_PYTHON) against a lakegate
 * demo, and turns each pytest case of its JUnit report into a Jest test. A case that
 * did not run, or was skipped, is a failure.
 */
import path from 'node:path';
import { REPO_ROOT } from '../support/lakegate.js';
import { pytestSuite } from '../support/pytest.js';

const PY_FILE = path.join(REPO_ROOT, 'tests', 'integration', 'python', 'test_psycopg2.py');

const ROUND_TRIP_IDS = [
  'int2',
  'int4',
  'int8',
  'float8',
  'float8 tiny',
  'numeric',
  'bool',
  'text',
  'text quotes backslash',
  'varchar',
  'date',
  'timestamp',
  'uuid',
  'null',
];

/** Every pytest case in test_psycopg2.py, as JUnit names them. */
const CASES = [
  'test_login_and_parameter_status',
  'test_wrong_password',
  'test_unknown_database',
  'test_fetch_orders_decoded',
  'test_lists_and_tuples_interpolated',
  'test_search_path_option_unqualified_table',
  'test_set_search_path_then_unqualified',
  ...ROUND_TRIP_IDS.map((id) => `test_types_round_trip[${id}]`),
  'test_bytea_round_trip',
  'test_timestamptz_round_trip',
  'test_many_types_one_row',
  'test_error_rollback_recover',
  'test_explicit_transaction_statuses',
  'test_autocommit',
  'test_syntax_error_position',
  'test_refused_statement',
  'test_several_statements_last_result',
  'test_dbt_query_comment',
  'test_cancel',
];

pytestSuite('psycopg2 (pytest test_psycopg2.py)', PY_FILE, CASES);
