#!/usr/bin/env bash
# Fetch the pgJDBC driver jar into .tools/pgjdbc/ (used by tests/integration/jdbc.test.ts).
set -euo pipefail
cd "$(dirname "$0")/.."
VERSION=${PGJDBC_VERSION:-42.7.4}
DEST=.tools/pgjdbc
if [ -f "$DEST/postgresql-$VERSION.jar" ]; then exit 0; fi
command -v mvn >/dev/null || { echo "fetch-pgjdbc: mvn not found (apt-get install maven)" >&2; exit 1; }
mkdir -p "$DEST"
mvn -q -B dependency:copy -Dartifact="org.postgresql:postgresql:$VERSION" -DoutputDirectory="$DEST" >&2
test -f "$DEST/postgresql-$VERSION.jar" || { echo "fetch-pgjdbc: postgresql-$VERSION.jar missing after mvn" >&2; exit 1; }
