#!/usr/bin/env bash
# A virtualenv in .venv/ with what the Python-side tests use:
#  - psycopg2, psycopg 3 and pytest (tests/integration/psycopg2.test.ts, psycopgSession.test.ts);
#  - pyiceberg 0.12 with SQLite and pyarrow (tests/fixtures/iceberg: writes and scans the
#    Iceberg test tables);
#  - DuckDB 1.5.5 with its signed iceberg / avro / httpfs extensions from their PyPI wheels
#    (a test-only privileged DuckDB that reads the test tables the way lakegate's does);
#  - check-jsonschema, which ships the compose-spec JSON schema (tests/compose).
set -euo pipefail
cd "$(dirname "$0")/.."
PKGS=(
  psycopg2-binary pytest 'psycopg[binary]==3.3.9'
  'pyiceberg[sql-sqlite,pyarrow]==0.12.0'
  duckdb==1.5.5 duckdb-extension-iceberg==1.5.5 duckdb-extension-avro==1.5.5 duckdb-extension-httpfs==1.5.5
  check-jsonschema==0.39.0
)
CHECK='import psycopg, psycopg2, pytest, pyiceberg, pyarrow, sqlalchemy, duckdb, duckdb_extension_iceberg, duckdb_extension_avro, duckdb_extension_httpfs, check_jsonschema
assert pyiceberg.__version__ == "0.12.0", pyiceberg.__version__
assert duckdb.__version__ == "1.5.5", duckdb.__version__'
if [ -x .venv/bin/python ] && .venv/bin/python -c "$CHECK" 2>/dev/null; then exit 0; fi
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check "${PKGS[@]}"
.venv/bin/python -c "$CHECK"
