#!/usr/bin/env bash
# TPC-H through the data gate (bench/README.md, "Data gate"): DuckDB direct (with and without the
# policies as views), lakegate with no policies, with row filters and masks (leakproof pushdown, and
# every filtered table fenced), PostgreSQL 15 (JIT on and off), in one run.
#   bash bench/tpch.sh [--sf 1] [--reps 3] [--pg-reps 1] [--pg-timeout-s 60] [--lg-timeout-s 120]
#                      [--no-postgres] [--materialized] [--hash-rows 5000000] [--check]
# --check (the CI smoke run): exit non-zero when a result differs or a target stops answering.
# Data: DuckDB's tpch extension from PyPI (duckdb==1.5.5, duckdb-extension-tpch==1.5.5) in
# .venv (scripts/setup-python.sh) or .tools/tpch-venv, generated once per scale factor into bench/out/tpch-data-sf<SF>/ (kept).
# Measures the working tree (builds dist/ with tsc first). Output: bench/out/tpch-<UTC>/.
set -euo pipefail
cd "$(dirname "$0")/.."
SF=1 PASS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --sf) SF=$2; shift 2 ;;
    --reps|--pg-reps|--pg-timeout-s|--lg-timeout-s|--hash-rows) PASS+=("$1" "$2"); shift 2 ;;
    --no-postgres|--materialized|--check) PASS+=("$1"); shift ;;
    -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
    *) echo "tpch.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[ -d node_modules/tsx ] && [ -d node_modules/pg ] || { echo "tpch.sh: run npm ci first" >&2; exit 1; }
command -v psql >/dev/null || { echo "tpch.sh: psql not found (apt-get install postgresql-client)" >&2; exit 1; }
log() { printf '[tpch %s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }

# The tests' .venv has both when scripts/setup-python.sh made it; else a venv of the bench's own.
VENV=.venv
"$VENV/bin/python" -c 'import duckdb, duckdb_extension_tpch' 2>/dev/null || VENV=.tools/tpch-venv
DATA=bench/out/tpch-data-sf$SF
if [ ! -f "$DATA/tpch.duckdb" ] || [ ! -f "$DATA/queries.json" ]; then
  if ! "$VENV/bin/python" -c 'import duckdb, duckdb_extension_tpch; assert duckdb.__version__ == "1.5.5"' 2>/dev/null; then
    log "installing duckdb==1.5.5 and duckdb-extension-tpch==1.5.5 into $VENV"
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install -q 'duckdb==1.5.5' 'duckdb-extension-tpch==1.5.5'
  fi
  log "generating TPC-H SF$SF into $DATA"
  "$VENV/bin/python" bench/tpch/generate.py "$DATA" "$SF"
fi
log "building lakegate (tsc)"
npx tsc -p tsconfig.json
npx tsc -p bench/tpch/tsconfig.json   # the bench itself, type-checked
OUT=bench/out/tpch-$(date -u +%Y%m%dT%H%M%SZ)
WORK=$(mktemp -d /tmp/lakegate-tpch.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$OUT"
START=$(date +%s)
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
# Bounded: every query has a timeout (lakegate --lg-timeout-s, PostgreSQL --pg-timeout-s); the whole run at most 90 minutes.
RC=0
timeout --signal=TERM 5400 node_modules/.bin/tsx bench/tpch/run.ts --data "$DATA" --bin dist/bin/lakegate.js --work "$WORK" --out "$OUT" ${PASS[@]+"${PASS[@]}"} || RC=$?
[ -f "$OUT/results.json" ] || exit $(( RC == 0 ? 1 : RC ))
{
  node_modules/.bin/tsx bench/tpch/report.ts --in "$OUT/results.json"
  echo
  echo "Machine: $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')), $(free -g | awk '/^Mem:/{print $2}') GiB; node $(node --version); lakegate $(git rev-parse --short HEAD)$(git diff --quiet || echo ' + working tree'); load average at the start $LOAD_START, at the end $(cut -d' ' -f1-3 /proc/loadavg); $(( $(date +%s) - START )) s."
} | tee "$OUT/report.md"
exit $RC
