#!/usr/bin/env bash
# Issue 19's write speed (bench/README.md, "Writes"): CREATE TABLE AS of lineitem rows through lakegate, DuckDB
# in-process writing the same Iceberg table, and PostgreSQL 15; one-row INSERT latency through psql; a first-run dbt run.
#   nice -n 10 bash bench/writes.sh [--rows 10000000] [--reps 3] [--inserts 200] [--no-dbt]
# Measures the working tree (builds dist/ with tsc first). Output: bench/out/writes-<UTC>/ (report.md, results.json,
# lakegate.log). The generated data lives in a temp dir, removed on exit.
set -euo pipefail
cd "$(dirname "$0")/.."
PASS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --rows|--reps|--inserts) PASS+=("$1" "$2"); shift 2 ;;
    --no-dbt) PASS+=("$1"); shift ;;
    -h|--help) sed -n '2,7p' "$0"; exit 0 ;;
    *) echo "writes.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[ -d node_modules/tsx ] && [ -d node_modules/pg ] || { echo "writes.sh: run npm ci first" >&2; exit 1; }
command -v psql >/dev/null || { echo "writes.sh: psql not found (apt-get install postgresql-client)" >&2; exit 1; }
log() { printf '[writes %s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
log "building lakegate (tsc)"
npx tsc -p tsconfig.json
npx tsc -p bench/tsconfig.json   # the bench itself, type-checked
OUT=bench/out/writes-$(date -u +%Y%m%dT%H%M%SZ)
WORK=$(mktemp -d /tmp/lakegate-writes.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$OUT"
START=$(date +%s)
UPTIME_START=$(uptime)
# Bounded: the whole run at most 40 minutes (a full run takes 7–10 on 2 shared cores).
timeout --signal=TERM 2400 node_modules/.bin/tsx bench/writes.ts --bin dist/bin/lakegate.js --work "$WORK" --out "$OUT" ${PASS[@]+"${PASS[@]}"}
{
  node_modules/.bin/tsx bench/writesReport.ts --in "$OUT/results.json"
  echo
  echo "Machine: $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')), $(free -g | awk '/^Mem:/{print $2}') GiB; node $(node --version); lakegate $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . ':!bench' || echo ' + working tree'); nice $(nice); uptime at the start:$UPTIME_START; at the end: $(uptime); $(( $(date +%s) - START )) s."
} | tee "$OUT/report.md"
