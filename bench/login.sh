#!/usr/bin/env bash
# Login benchmark: a PostgreSQL login through lakegate with a Keycloak password against a raw
# password-grant request to the same Keycloak, sequential and 50 concurrent, plus the local
# users file as the non-Keycloak baseline (see bench/README.md, "Login").
#   bash bench/login.sh [--n 200] [--rounds 5] [--concurrency 50] [--warmup 50]
#                       [--cpu-prof] [--worktree [--no-build]] [--keep]
# By default the last commit is exported to a temp dir and built there (tsc), so edits in
# progress neither break nor flatter the run; --worktree measures this tree (built unless
# --no-build). Keycloak comes from scripts/fetch-keycloak.sh (run on first use).
# Output: bench/out/login-<UTC>/ (report.md, results.json, samples.json, gateway and
# Keycloak logs, with --cpu-prof the gateways' CPU profiles).
set -Eeuo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
cd "$ROOT"

WORKTREE=0 BUILD=1 KEEP=0 PASS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --worktree) WORKTREE=1 ;;
    --no-build) BUILD=0 ;;
    --keep) KEEP=1 ;;
    --cpu-prof) PASS+=(--cpu-prof) ;;
    --n|--rounds|--concurrency|--warmup|--block) PASS+=("$1" "$2"); shift ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    *) echo "login.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
[ -d node_modules/tsx ] && [ -d node_modules/pg ] || { echo "login.sh: run npm ci first" >&2; exit 1; }
log() { printf '[login %s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }

OUT="$HERE/out/login-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$OUT"
TMP="$(mktemp -d /tmp/lakegate-login.XXXXXX)"
CHILD=""
cleanup() {
  local rc=$?
  set +e
  trap - EXIT INT TERM
  # run.ts stops Keycloak and the gateways itself on exit, failure, SIGINT and SIGTERM.
  if [ -n "$CHILD" ] && kill -0 "$CHILD" 2>/dev/null; then
    kill -TERM "$CHILD" 2>/dev/null
    wait "$CHILD" 2>/dev/null
  fi
  if [ "$KEEP" = 1 ]; then log "kept $TMP"; else rm -rf "$TMP"; fi
  log "results in ${OUT#$ROOT/}"
  exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

GW="$ROOT"
COMMIT="$(git rev-parse --short HEAD) + working tree"
if [ "$WORKTREE" = 0 ]; then
  GW="$TMP/src"
  COMMIT="$(git rev-parse --short HEAD)"
  mkdir -p "$GW"
  git archive "$COMMIT" | tar -x -C "$GW"
  ln -s "$ROOT/node_modules" "$GW/node_modules"
  BUILD=1
fi
if [ "$BUILD" = 1 ]; then
  log "building lakegate $COMMIT (tsc)"
  (cd "$GW" && npx tsc -p tsconfig.json) >"$OUT/tsc.log" 2>&1 || log "tsc reported errors (emitting anyway): $(head -3 "$OUT/tsc.log")"
fi
[ -f "$GW/dist/bin/lakegate.js" ] || { log "no $GW/dist/bin/lakegate.js"; exit 1; }

"$ROOT/node_modules/.bin/tsx" bench/login/run.ts --gateway-root "$GW" --out "$OUT" --commit "$COMMIT" ${PASS[@]+"${PASS[@]}"} >"$OUT/report.md" &
CHILD=$!
wait "$CHILD"
CHILD=""
cat "$OUT/report.md"
