#!/usr/bin/env bash
# A virtualenv in .venv/ with psycopg2 and pytest (used by tests/integration/psycopg2.test.ts).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -x .venv/bin/python ] && .venv/bin/python -c 'import psycopg2, pytest' 2>/dev/null; then exit 0; fi
python3 -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check psycopg2-binary pytest
.venv/bin/python -c 'import psycopg2, pytest' 
