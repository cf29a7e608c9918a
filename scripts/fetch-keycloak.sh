#!/usr/bin/env bash
# Fetch the Keycloak server distribution (org.keycloak:keycloak-quarkus-dist, a zip) with
# Maven and unpack it once into .tools/keycloak-$VERSION/ (used by tests/support/keycloak.ts).
# Keycloak 26 needs Java >= 21: find one and write its home to .tools/keycloak-java-home.
# Then run `kc.sh build --db=dev-file` once, so that every test server starts with
# `start --optimized`: no re-augmentation at start (~35 s saved), and nothing written into
# the shared lib/ while several servers run from it.
# Idempotent and safe to run concurrently (flock); exits non-zero with a clear message
# when anything is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
VERSION=${KEYCLOAK_VERSION:-26.7.3}
DEST=.tools/keycloak-$VERSION
JAVA_HOME_FILE=.tools/keycloak-java-home

die() {
  echo "fetch-keycloak: $*" >&2
  exit 1
}

# --- a Java >= 21 -----------------------------------------------------------------
# Major version of the java at $1/bin/java, or nothing.
java_major() {
  local out v
  [ -x "$1/bin/java" ] || return 0
  out=$("$1/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p' | head -1)
  v=${out%%.*}
  [[ "$v" =~ ^[0-9]+$ ]] && echo "$v"
  return 0
}
java_home=""
candidates=()
[ -n "${KEYCLOAK_JAVA_HOME:-}" ] && candidates+=("$KEYCLOAK_JAVA_HOME")
[ -n "${JAVA_HOME:-}" ] && candidates+=("$JAVA_HOME")
for d in /usr/lib/jvm/*; do [ -d "$d" ] && candidates+=("$d"); done
best=0
for d in "${candidates[@]}"; do
  m=$(java_major "$d")
  [ -n "$m" ] && [ "$m" -ge 21 ] || {
    if [ "$d" = "${KEYCLOAK_JAVA_HOME:-}" ]; then die "KEYCLOAK_JAVA_HOME=$d is not a Java >= 21 (major: ${m:-none})"; fi
    continue
  }
  # An explicit KEYCLOAK_JAVA_HOME or JAVA_HOME wins; among /usr/lib/jvm take the newest.
  if [ "$d" = "${KEYCLOAK_JAVA_HOME:-}" ] || [ "$d" = "${JAVA_HOME:-}" ]; then java_home=$d; break; fi
  if [ "$m" -gt "$best" ]; then best=$m; java_home=$d; fi
done
[ -n "$java_home" ] || die "no Java >= 21 found (Keycloak $VERSION needs it; looked at \$KEYCLOAK_JAVA_HOME, \$JAVA_HOME and /usr/lib/jvm/*). Install a JDK 21+ (e.g. Temurin 21/25) or set KEYCLOAK_JAVA_HOME."
java_home=$(cd "$java_home" && pwd -P)
mkdir -p .tools
printf '%s\n' "$java_home" >"$JAVA_HOME_FILE"

# --- the distribution --------------------------------------------------------------
if [ -x "$DEST/bin/kc.sh" ] && [ -f "$DEST/.fetched" ]; then exit 0; fi
if command -v flock >/dev/null; then
  exec 9>.tools/keycloak.lock
  flock -w 600 9 || die "timed out waiting for another fetch-keycloak.sh (.tools/keycloak.lock)"
  if [ -x "$DEST/bin/kc.sh" ] && [ -f "$DEST/.fetched" ]; then exit 0; fi
fi
command -v mvn >/dev/null || die "mvn not found (apt-get install maven)"
zip_dir=.tools/keycloak-zip
mkdir -p "$zip_dir"
zip="$zip_dir/keycloak-quarkus-dist-$VERSION.zip"
if [ ! -s "$zip" ]; then
  mvn -q -B -Dstyle.color=never dependency:copy -Dartifact="org.keycloak:keycloak-quarkus-dist:$VERSION:zip" \
    -DoutputDirectory="$zip_dir" -Dmdep.overWriteIfNewer=true >&2 ||
    die "mvn could not fetch org.keycloak:keycloak-quarkus-dist:$VERSION:zip"
  [ -s "$zip" ] || die "$zip missing after mvn"
fi

tmp=$(mktemp -d .tools/keycloak-unpack.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
if command -v unzip >/dev/null; then
  unzip -q "$zip" -d "$tmp" || die "unzip $zip failed"
elif command -v python3 >/dev/null; then
  python3 -m zipfile -e "$zip" "$tmp" || die "python3 -m zipfile -e $zip failed"
else
  die "neither unzip nor python3 found to unpack $zip"
fi
top=$(find "$tmp" -mindepth 1 -maxdepth 1 -type d | head -1)
[ -n "$top" ] && [ -f "$top/bin/kc.sh" ] || die "$zip does not contain */bin/kc.sh"
chmod +x "$top"/bin/*.sh
# Build-time options for the test servers (tests/support/keycloak.ts passes the rest at start).
JAVA_HOME=$java_home "$top/bin/kc.sh" build --db=dev-file >"$tmp/build.log" 2>&1 || {
  tail -40 "$tmp/build.log" >&2
  die "kc.sh build failed (Java at $java_home)"
}
rm -rf "$DEST"
mv "$top" "$DEST"
touch "$DEST/.fetched"
rm -rf "$zip_dir" # Maven's local repository keeps the zip
echo "fetch-keycloak: Keycloak $VERSION in $DEST, Java at $java_home" >&2
