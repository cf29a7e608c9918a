#!/usr/bin/env bash
# Virtualenvs with what the Python-side tests use.
# .venv/:
#  - psycopg2, psycopg 3 and pytest (tests/integration/psycopg2.test.ts, psycopg3.test.ts, psycopgSession.test.ts);
#  - SQLAlchemy 2 and pandas (tests/integration/sqlalchemy.test.ts);
#  - pyiceberg 0.12 with SQLite and pyarrow (tests/fixtures/iceberg: writes and scans the
#    Iceberg test tables);
#  - DuckDB 1.5.5 with its signed iceberg / avro / httpfs extensions from their PyPI wheels
#    (a test-only privileged DuckDB that reads the test tables the way lakegate's does);
#  - check-jsonschema, which ships the compose-spec JSON schema (tests/compose);
#  - DuckDB's tpch extension (bench/tpch.sh generates its data with it; CI's smoke run).
# .venv-dbt/ (its own: dbt-core pins many shared libraries):
#  - dbt-core 1.11 and dbt-postgres 1.11 (tests/integration/dbt.test.ts).
set -euo pipefail
cd "$(dirname "$0")/.."
PKGS=(
  psycopg2-binary 'psycopg[binary]>=3.2,<4' pytest
  'sqlalchemy>=2,<3' 'pandas>=2'
  'pyiceberg[sql-sqlite,pyarrow]==0.12.0'
  duckdb==1.5.5 duckdb-extension-iceberg==1.5.5 duckdb-extension-avro==1.5.5 duckdb-extension-httpfs==1.5.5 duckdb-extension-tpch==1.5.5
  check-jsonschema==0.39.0
)
CHECK='import psycopg2, psycopg, pytest, pyiceberg, pyarrow, sqlalchemy, pandas, duckdb, duckdb_extension_iceberg, duckdb_extension_avro, duckdb_extension_httpfs, duckdb_extension_tpch, check_jsonschema
assert pyiceberg.__version__ == "0.12.0", pyiceberg.__version__
assert duckdb.__version__ == "1.5.5", duckdb.__version__
assert sqlalchemy.__version__.startswith("2."), sqlalchemy.__version__'
DBT_PKGS=('dbt-core>=1.11,<1.12' 'dbt-postgres>=1.11,<1.12')
DBT_CHECK='import importlib.metadata as m
v = m.version("dbt-core"); assert v.startswith("1.11."), v
import dbt.adapters.postgres'

if ! { [ -x .venv/bin/python ] && .venv/bin/python -c "$CHECK" 2>/dev/null; }; then
  [ -x .venv/bin/python ] || python3 -m venv .venv
  .venv/bin/python -m pip install -q --disable-pip-version-check "${PKGS[@]}"
  .venv/bin/python -c "$CHECK"
fi
if ! { [ -x .venv-dbt/bin/python ] && .venv-dbt/bin/python -c "$DBT_CHECK" 2>/dev/null; }; then
  [ -x .venv-dbt/bin/python ] || python3 -m venv .venv-dbt
  .venv-dbt/bin/python -m pip install -q --disable-pip-version-check "${DBT_PKGS[@]}"
  .venv-dbt/bin/python -c "$DBT_CHECK"
fi
