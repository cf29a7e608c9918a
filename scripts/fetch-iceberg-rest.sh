#!/usr/bin/env bash
# Fetch the classpath of Apache Iceberg's own REST catalog server
# (org.apache.iceberg.rest.RESTCatalogServer) with Maven, from the POM in
# tests/fixtures/iceberg-rest/pom.xml, into .tools/iceberg-rest-$VERSION/lib/ (used by
# tests/support/icebergRest.ts and the Java helpers of tests/fixtures/iceberg/).
# The server runs on the default Java (>= 17).
# Idempotent and safe to run concurrently (flock); exits non-zero with a clear message
# when anything is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
VERSION=1.11.0
POM=tests/fixtures/iceberg-rest/pom.xml
DEST=.tools/iceberg-rest-$VERSION
STAMP="$DEST/.fetched"

die() {
  echo "fetch-iceberg-rest: $*" >&2
  exit 1
}

# The stamp records the POM it was fetched from: an edited POM fetches again.
want=$(sha256sum "$POM" | cut -d' ' -f1)
fresh() { [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$want" ] && [ -d "$DEST/lib" ]; }
fresh && exit 0
mkdir -p .tools
if command -v flock >/dev/null; then
  exec 9>.tools/iceberg-rest.lock
  flock -w 600 9 || die "timed out waiting for another fetch-iceberg-rest.sh (.tools/iceberg-rest.lock)"
  fresh && exit 0
fi
command -v mvn >/dev/null || die "mvn not found (apt-get install maven)"
command -v java >/dev/null || die "java not found (a JDK >= 17)"
major=$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p' | head -1)
[ "${major%%.*}" -ge 17 ] 2>/dev/null || die "java on PATH is ${major:-unknown}; the Iceberg $VERSION REST server needs Java >= 17"

tmp=$(mktemp -d .tools/iceberg-rest-fetch.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mvn -q -B -Dstyle.color=never -f "$POM" dependency:copy-dependencies -DincludeScope=runtime \
  -DoutputDirectory="$PWD/$tmp/lib" >&2 || die "mvn could not resolve the classpath in $POM"
ls "$tmp"/lib/iceberg-open-api-*-test-fixtures.jar >/dev/null 2>&1 || die "iceberg-open-api test-fixtures jar missing after mvn"
rm -rf "$DEST"
mkdir -p "$DEST"
mv "$tmp/lib" "$DEST/lib"
printf '%s\n' "$want" >"$STAMP"
echo "fetch-iceberg-rest: $(ls "$DEST/lib" | wc -l) jars in $DEST/lib" >&2
