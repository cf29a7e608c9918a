/**
 * psycopg2 and psycopg 3 on session-level statements: named / server-side cursors
 * (itersize, WITH HOLD, binary, parameters), COPY TO STDOUT through copy_expert and
 * psycopg 3's copy (text and binary), masks and row filters in both, and the
 * transaction isolation level each library sets, and session functions with bound
 * parameters (set_config, pg_sleep, pg_cancel_backend). Runs
 * tests/integration/python/test_session_statements.py against a lakegate demo; each
 * pytest case becomes a Jest test, and a case that did not run is a failure.
 */
import path from 'node:path';
import { REPO_ROOT } from '../support/lakegate.js';
import { pytestSuite } from '../support/pytest.js';

const PY_FILE = path.join(REPO_ROOT, 'tests', 'integration', 'python', 'test_session_statements.py');

const CASES = [
  'test_psycopg2_named_cursor_itersize',
  'test_psycopg2_named_cursor_fetchmany_and_masks',
  'test_psycopg2_named_cursor_withhold_in_autocommit',
  'test_psycopg2_declare_outside_block_is_25P01',
  'test_psycopg2_copy_expert_csv_masked',
  'test_psycopg2_copy_table_text_row_filter',
  'test_psycopg2_copy_from_refused',
  'test_psycopg2_serializable_session',
  'test_psycopg3_server_cursor_with_parameters',
  'test_psycopg3_binary_server_cursor_masked',
  'test_psycopg3_withhold_cursor_autocommit',
  'test_psycopg3_copy_binary_and_text',
  'test_psycopg3_copy_binary_masked',
  'test_psycopg3_isolation_level',
  'test_psycopg3_session_functions_with_parameters',
];

pytestSuite('psycopg2 and psycopg 3 (pytest test_session_statements.py)', PY_FILE, CASES);
