#!/usr/bin/env bash
# Policy-engine benchmark: lakegate's engine and Apache Ranger's Java engine side by side on
# the same generated Hive bundles and requests (see bench/README.md, "Policy engine").
#   bash bench/ranger.sh [--policies 10,1000,10000] [--warmup-ms 1000] [--measure-ms 2000]
#                        [--loads 5] [--requests 1000] [--no-java]
# Fetches ranger-plugins-common and its dependencies with Maven into .tools/ranger-java/
# (gitignored) once, compiles the harness, then runs lakegate and the reference one after the
# other, each on one thread (the JVM told it has one processor), and prints the table.
# Output: bench/out/ranger-<UTC>/ (results.jsonl, decisions-*.txt, report.md).
set -euo pipefail
cd "$(dirname "$0")/.."
POLICIES=10,1000,10000 WARMUP=1000 MEASURE=2000 LOADS=5 REQUESTS=1000 JAVA=1
while [ $# -gt 0 ]; do
  case "$1" in
    --policies) POLICIES=$2; shift 2 ;;
    --warmup-ms) WARMUP=$2; shift 2 ;;
    --measure-ms) MEASURE=$2; shift 2 ;;
    --loads) LOADS=$2; shift 2 ;;
    --requests) REQUESTS=$2; shift 2 ;;
    --no-java) JAVA=0; shift ;;
    *) echo "ranger.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[ -d node_modules/tsx ] || { echo "ranger.sh: run npm ci first" >&2; exit 1; }
OUT=bench/out/ranger-$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$OUT"

RANGER_VERSION=${RANGER_VERSION:-2.6.0}
TOOLS=.tools/ranger-java
if [ "$JAVA" = 1 ]; then
  command -v mvn >/dev/null && command -v javac >/dev/null || { echo "ranger.sh: needs mvn and a JDK (17)" >&2; exit 1; }
  if [ ! -f "$TOOLS/lib/ranger-plugins-common-$RANGER_VERSION.jar" ]; then
    echo "ranger.sh: fetching ranger-plugins-common $RANGER_VERSION with Maven into $TOOLS/lib" >&2
    rm -rf "$TOOLS/lib"; mkdir -p "$TOOLS/lib"
    mvn -q -B -f bench/ranger/java/pom.xml -Dranger.version="$RANGER_VERSION" dependency:copy-dependencies \
      -DincludeScope=runtime -DoutputDirectory="$PWD/$TOOLS/lib" >&2
  fi
  rm -rf "$TOOLS/classes"; mkdir -p "$TOOLS/classes"
  javac -nowarn -cp "$TOOLS/lib/*" -d "$TOOLS/classes" bench/ranger/java/src/RangerBench.java
fi

# Compiled with tsc as the server is (dist/), not through tsx, whose keep-names wrappers tax every closure.
npx tsc -p bench/ranger/tsconfig.json
BUILD=bench/out/ranger-build/bench/ranger
node "$BUILD/generate.js" --out "$OUT" --policies "$POLICIES" --requests "$REQUESTS"
{
  echo "{\"kind\":\"machine\",\"nproc\":$(nproc),\"cpu\":\"$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//; s/"//g')\",\"node\":\"$(node --version)\",\"java\":\"$(java -version 2>&1 | head -1 | sed 's/"//g')\",\"ranger\":\"$RANGER_VERSION\",\"commit\":\"$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- policy/ranger || echo +dirty)\",\"load\":\"$(cut -d' ' -f1-3 /proc/loadavg)\"}"
  echo "ranger.sh: lakegate" >&2
  node "$BUILD/lakegate.js" --dir "$OUT" --policies "$POLICIES" --warmup-ms "$WARMUP" --measure-ms "$MEASURE" --loads "$LOADS"
  if [ "$JAVA" = 1 ]; then
    echo "ranger.sh: ranger-java" >&2
    java -XX:ActiveProcessorCount=1 -cp "$TOOLS/lib/*:$TOOLS/classes" RangerBench "$OUT" "$POLICIES" "$WARMUP" "$MEASURE" "$LOADS" 2> >(grep -v '^SLF4J' >&2)
  fi
} > "$OUT/results.jsonl"
node "$BUILD/report.js" "$OUT" | tee "$OUT/report.md"
