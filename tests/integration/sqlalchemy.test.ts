/**
 * SQLAlchemy 2 (psycopg 3 and psycopg2) and pandas: runs tests/integration/python/test_sqlalchemy.py
 * with pytest (tests/support/pytest.ts) against a lakegate demo and turns each pytest case into a
 * Jest test. A case that did not run, or was skipped, fails; so does a missing .venv
 * (scripts/setup-python.sh installs SQLAlchemy, pandas and both drivers).
 */
import path from 'node:path';
import { REPO_ROOT } from '../support/lakegate.js';
import { pytestSuite } from '../support/pytest.js';

const PY_FILE = path.join(REPO_ROOT, 'tests', 'integration', 'python', 'test_sqlalchemy.py');

/** Every pytest case in test_sqlalchemy.py, in file order, each with both drivers. */
const CASES = [
  'test_connect',
  'test_inspect_names',
  'test_inspect_hides_what_the_user_may_not_load',
  'test_inspect_get_columns',
  'test_autoload_table',
  'test_pandas_read_sql_table',
  'test_pandas_read_sql_query',
].flatMap((c) => [`${c}[psycopg]`, `${c}[psycopg2]`]);

pytestSuite('SQLAlchemy and pandas (pytest test_sqlalchemy.py)', PY_FILE, CASES);
