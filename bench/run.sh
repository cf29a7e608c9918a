#!/usr/bin/env bash
# lakegate side-by-side benchmark: lakegate vs PostgreSQL (direct and behind PgBouncer)
# in ONE run, reporting absolute figures and ratios. Not a test: see bench/README.md.
#
#   bash bench/run.sh            # full run: 1M and 10M rows, 20 s per latency point
#   bash bench/run.sh --quick    # smoke run: 100k rows, 3 s per latency point
#   bash bench/run.sh --quick --check   # CI: exit non-zero when a target stops answering or a result differs
#
# Options: --quick, --check, --no-lakegate (PostgreSQL half only), --rows N[,N…], --latency-seconds S,
#          --reps N, --keep (keep the temp dir),
#          --worktree (measure the working tree instead of a clean export of the last commit),
#          --no-build (with --worktree: use its dist/ as it is)
# Everything listens on 127.0.0.1 only; every loop is bounded; servers and temp dirs
# are removed on exit, also on failure or Ctrl-C.
set -Eeuo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"

ROWS="1000000,10000000"
LAT_SECONDS=20
REPS=3
QUICK=0
BUILD=1
LAKEGATE=1
KEEP=0
WORKTREE=0
CHECK=()
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) QUICK=1; ROWS="100000"; LAT_SECONDS=3 ;;
    --check) CHECK=(--check) ;;
    --no-build) BUILD=0 ;;
    --no-lakegate) LAKEGATE=0 ;;
    --rows) ROWS="$2"; shift ;;
    --latency-seconds) LAT_SECONDS="$2"; shift ;;
    --reps) REPS="$2"; shift ;;
    --keep) KEEP=1 ;;
    --worktree) WORKTREE=1 ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) echo "unknown option: $1" >&2; exit 2 ;;
  esac
  shift
done

log() { printf '[bench %s] %s\n' "$(date -u +%H:%M:%S)" "$*"; }
die() { log "FAILED: $*"; exit 1; }

START_EPOCH=$(date +%s)
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
STAMP=$(date -u +%Y%m%dT%H%M%SZ)
OUTDIR="$HERE/out/$STAMP"
mkdir -p "$OUTDIR"
RESULTS="$OUTDIR/results.jsonl"
: > "$RESULTS"

# ---------------------------------------------------------------- cleanup (trap)
TMP="$(mktemp -d /tmp/lakegate-bench.XXXXXX)"
chmod 755 "$TMP"
PGBIN=""
PGDATA="$TMP/pgdata"
PG_STARTED=0
PGB_PID=""
LG_PID=""
AS_PG=()   # prefix that runs a command as the postgres user when we are root

CHILD=""  # the step running now (bash runs traps only between commands, so steps run in the background)
step() {
  "$@" &
  CHILD=$!
  wait "$CHILD"
  local rc=$?
  CHILD=""
  return $rc
}

cleanup() {
  local rc=$?
  set +e
  trap - EXIT INT TERM
  if [ -n "$CHILD" ] && kill -0 "$CHILD" 2>/dev/null; then
    pkill -TERM -P "$CHILD" 2>/dev/null  # its children (psql, pgbench) by parent pid
    kill "$CHILD" 2>/dev/null
    wait "$CHILD" 2>/dev/null
  fi
  # lakegate is measure.ts's child; should that script have died, end it by its recorded pid.
  if [ -f "$TMP/lakegate.log.pid" ]; then
    LG_PID=$(cat "$TMP/lakegate.log.pid")
    grep -q "lakegate.js" "/proc/$LG_PID/cmdline" 2>/dev/null || LG_PID=""
  fi
  if [ -n "$LG_PID" ] && kill -0 "$LG_PID" 2>/dev/null; then
    kill "$LG_PID" 2>/dev/null
    for _ in $(seq 1 50); do kill -0 "$LG_PID" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$LG_PID" 2>/dev/null
  fi
  if [ -n "$PGB_PID" ] && kill -0 "$PGB_PID" 2>/dev/null; then
    kill "$PGB_PID" 2>/dev/null
    for _ in $(seq 1 50); do kill -0 "$PGB_PID" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$PGB_PID" 2>/dev/null
  fi
  if [ "$PG_STARTED" = 1 ]; then
    "${AS_PG[@]}" "$PGBIN/pg_ctl" -D "$PGDATA" -m immediate -w -t 30 stop >/dev/null 2>&1
  fi
  # Keep the server logs next to the results: they explain a failure.
  for f in "$TMP"/*.log; do [ -f "$f" ] && cp "$f" "$OUTDIR/" 2>/dev/null; done
  if [ "$KEEP" = 1 ]; then log "kept $TMP"; else rm -rf "$TMP"; fi
  log "elapsed $(( $(date +%s) - START_EPOCH )) s; results in ${OUTDIR#$ROOT/}"
  exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

free_port() {
  node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}

wait_port() { # host port seconds
  local i
  for i in $(seq 1 $(( $3 * 10 ))); do
    (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null && return 0
    sleep 0.1
  done
  return 1
}

# ---------------------------------------------------------------- tools
cd "$ROOT"
for b in "$(pg_config --bindir 2>/dev/null || true)" $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -rV); do
  if [ -n "$b" ] && [ -x "$b/initdb" ] && [ -x "$b/pg_ctl" ] && [ -x "$b/postgres" ]; then PGBIN="$b"; break; fi
done
[ -n "$PGBIN" ] || die "no PostgreSQL server binaries (pg_config --bindir, /usr/lib/postgresql/*/bin): apt-get install postgresql"
PGBENCH="$PGBIN/pgbench"; [ -x "$PGBENCH" ] || PGBENCH="$(command -v pgbench || true)"
[ -n "$PGBENCH" ] || die "pgbench not found"
command -v psql >/dev/null || die "psql not found: apt-get install postgresql-client"
if ! command -v pgbouncer >/dev/null 2>&1 && [ ! -x /usr/sbin/pgbouncer ]; then
  log "installing pgbouncer (Debian package)"
  if [ "$(id -u)" = 0 ]; then
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pgbouncer) >"$TMP/apt.log" 2>&1 \
      || die "apt-get install pgbouncer failed: $(tail -3 "$TMP/apt.log")"
  else
    die "pgbouncer missing and not root: apt-get install pgbouncer"
  fi
fi
PGBOUNCER="$(command -v pgbouncer || echo /usr/sbin/pgbouncer)"
[ -d node_modules/pg ] && [ -d node_modules/@duckdb/node-api ] && [ -d node_modules/tsx ] || die "run npm ci first"
TSX=(node --import tsx)

if [ "$(id -u)" = 0 ]; then
  id postgres >/dev/null 2>&1 || die "no postgres user (Debian's postgresql package creates it)"
  AS_PG=(runuser -u postgres --)
else
  AS_PG=(env)
fi

log "PostgreSQL $("$PGBIN/postgres" --version | awk '{print $3}'), $("$PGBOUNCER" --version | head -1), $(psql --version | awk '{print $1,$3}')"
log "sizes: $ROWS rows; latency: ${LAT_SECONDS} s per point; stream reps: $REPS; tmp: $TMP"

# ---------------------------------------------------------------- PostgreSQL
PGPORT_BENCH=$(free_port)
mkdir -p "$PGDATA" "$TMP/pgsock"
PWFILE="$TMP/pgpw"; echo "postgres" > "$PWFILE"
[ "$(id -u)" = 0 ] && chown -R postgres:postgres "$PGDATA" "$TMP/pgsock" "$PWFILE"
touch "$TMP/postgres.log"; [ "$(id -u)" = 0 ] && chown postgres:postgres "$TMP/postgres.log"
log "initdb"
LC_ALL=C "${AS_PG[@]}" "$PGBIN/initdb" -D "$PGDATA" -U postgres --pwfile="$PWFILE" -A scram-sha-256 \
  -E UTF8 --locale=C --no-sync >"$TMP/initdb.log" 2>&1 || die "initdb: $(tail -5 "$TMP/initdb.log")"
cat >> "$PGDATA/postgresql.conf" <<EOF
# lakegate bench: throwaway cluster on loopback
listen_addresses = '127.0.0.1'
port = $PGPORT_BENCH
unix_socket_directories = '$TMP/pgsock'
max_connections = 100
fsync = off
synchronous_commit = off
full_page_writes = off
password_encryption = 'scram-sha-256'
timezone = 'UTC'
datestyle = 'ISO, MDY'
EOF
cat > "$PGDATA/pg_hba.conf" <<EOF
local all all scram-sha-256
host  all all 127.0.0.1/32 scram-sha-256
EOF
"${AS_PG[@]}" "$PGBIN/pg_ctl" -D "$PGDATA" -l "$TMP/postgres.log" -w -t 60 start >/dev/null \
  || die "pg_ctl start: $(tail -5 "$TMP/postgres.log")"
PG_STARTED=1
PG_POSTMASTER_PID=$(head -1 "$PGDATA/postmaster.pid")
log "PostgreSQL on 127.0.0.1:$PGPORT_BENCH (postmaster pid $PG_POSTMASTER_PID)"

# Same credentials everywhere: alice/alice, database demo (as in lakegate's demo).
PGPASSWORD=postgres psql -X -q -h 127.0.0.1 -p "$PGPORT_BENCH" -U postgres -d postgres -v ON_ERROR_STOP=1 \
  -c "CREATE ROLE alice LOGIN PASSWORD 'alice'" -c "CREATE DATABASE demo OWNER alice" >/dev/null
export PGUSER=alice PGPASSWORD=alice PGDATABASE=demo PGHOST=127.0.0.1 PGSSLMODE=disable PGAPPNAME=lakegate-bench
log "loading PostgreSQL"
step "${TSX[@]}" "$HERE/load-postgres.ts" --port "$PGPORT_BENCH" --rows "$ROWS" --out "$RESULTS"

# ---------------------------------------------------------------- PgBouncer
PGB_PORT=$(free_port)
mkdir -p "$TMP/pgbouncer"
cat > "$TMP/pgbouncer/userlist.txt" <<EOF
"alice" "alice"
EOF
cat > "$TMP/pgbouncer/pgbouncer.ini" <<EOF
[databases]
demo = host=127.0.0.1 port=$PGPORT_BENCH dbname=demo

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $PGB_PORT
unix_socket_dir =
auth_type = scram-sha-256
auth_file = $TMP/pgbouncer/userlist.txt
pool_mode = transaction
max_client_conn = 100
default_pool_size = 20
logfile = $TMP/pgbouncer.log
pidfile = $TMP/pgbouncer/pgbouncer.pid
ignore_startup_parameters = extra_float_digits
EOF
# Named (protocol-level) prepared statements work in transaction pooling from PgBouncer 1.21 on.
PGB_VERSION=$("$PGBOUNCER" --version | head -1 | awk '{print $2}')
PGB_PREPARED=0
if printf '1.21.0\n%s\n' "$PGB_VERSION" | sort -V -C 2>/dev/null; then PGB_PREPARED=1; fi
if [ "$PGB_PREPARED" = 1 ]; then echo "max_prepared_statements = 100" >> "$TMP/pgbouncer/pgbouncer.ini"; fi
touch "$TMP/pgbouncer.log"
[ "$(id -u)" = 0 ] && chown -R postgres:postgres "$TMP/pgbouncer" "$TMP/pgbouncer.log"
"${AS_PG[@]}" "$PGBOUNCER" "$TMP/pgbouncer/pgbouncer.ini" >"$TMP/pgbouncer.stdout.log" 2>&1 &
PGB_PID=$!
wait_port 127.0.0.1 "$PGB_PORT" 20 || die "pgbouncer did not listen: $(tail -5 "$TMP/pgbouncer.log")"
log "PgBouncer $PGB_VERSION on 127.0.0.1:$PGB_PORT (transaction pooling, prepared statements: $([ $PGB_PREPARED = 1 ] && echo protocol-level || echo 'not supported'))"

# ---------------------------------------------------------------- lakegate
LG_PORT=""
# lakegate is measured as committed (HEAD exported to the temp dir and built there), so
# edits in progress in a shared working tree neither break nor flatter the run.
LGSRC="$ROOT"
LG_COMMIT="$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?') + working tree"
if [ "$LAKEGATE" = 1 ]; then
  if [ "$WORKTREE" = 0 ]; then
    LGSRC="$TMP/src"
    mkdir -p "$LGSRC"
    LG_COMMIT=$(git -C "$ROOT" rev-parse --short HEAD)
    git -C "$ROOT" archive "$LG_COMMIT" | tar -x -C "$LGSRC"
    ln -s "$ROOT/node_modules" "$LGSRC/node_modules"
    BUILD=1
  fi
  if [ "$BUILD" = 1 ]; then
    log "building lakegate $LG_COMMIT (tsc)"
    step bash -c 'cd "$1" && exec npx tsc -p tsconfig.json' _ "$LGSRC" >"$TMP/tsc.log" 2>&1 || log "tsc reported errors (emitting anyway): $(head -3 "$TMP/tsc.log")"
  fi
  if [ ! -f "$LGSRC/dist/bin/lakegate.js" ]; then
    log "dist/bin/lakegate.js missing: lakegate is not measured"
    echo '{"kind":"note","text":"lakegate not measured: dist/bin/lakegate.js missing"}' >> "$RESULTS"
    LAKEGATE=0
  fi
fi
LGDIR="$TMP/lakegate"
mkdir -p "$LGDIR"
log "writing the Iceberg table into $LGDIR (lakegate demo's warehouse) and measuring DuckDB direct (iceberg_scan)"
step "${TSX[@]}" "$HERE/load-duckdb.ts" --data-dir "$LGDIR" --rows "$ROWS" --reps "$REPS" \
  --latency-seconds "$(( LAT_SECONDS < 5 ? LAT_SECONDS : 5 ))" --out "$RESULTS"
step "${TSX[@]}" "$HERE/check-data.ts" --out "$RESULTS" --rows "$ROWS" || die "PostgreSQL and DuckDB hold different data"

LG_SPEC=""
if [ "$LAKEGATE" = 1 ]; then
  LG_PORT=$(free_port)
  LG_SPEC="$LG_PORT|$LGDIR|$TMP/lakegate.log|$LGSRC"   # measure.ts starts, watches and stops lakegate
fi

# ---------------------------------------------------------------- measure
TARGETS="postgres=$PGPORT_BENCH:postmaster:$PG_POSTMASTER_PID,pgbouncer=$PGB_PORT:none:0"
step "${TSX[@]}" "$HERE/measure.ts" --targets "$TARGETS" --lakegate "$LG_SPEC" --rows "$ROWS" --reps "$REPS" \
  --latency-seconds "$LAT_SECONDS" --pgbench "$PGBENCH" --pgbouncer-prepared "$PGB_PREPARED" \
  --work "$TMP" --out "$RESULTS"

# ---------------------------------------------------------------- report
{
  echo "{\"kind\":\"machine\",\"nproc\":$(nproc),\"memMiB\":$(free -m | awk '/^Mem:/{print $2}'),\"cpu\":\"$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//; s/"//g')\",\"postgres\":\"$("$PGBIN/postgres" --version | awk '{print $3}')\",\"pgbouncer\":\"$PGB_VERSION\",\"node\":\"$(node --version)\",\"commit\":\"$LG_COMMIT\",\"loadStart\":\"$LOAD_START\",\"loadEnd\":\"$(cut -d' ' -f1-3 /proc/loadavg)\",\"quick\":$QUICK,\"elapsedSec\":$(( $(date +%s) - START_EPOCH ))}"
} >> "$RESULTS"
RC=0
"${TSX[@]}" "$HERE/report.ts" --in "$RESULTS" ${CHECK[@]+"${CHECK[@]}"} > "$OUTDIR/report.md" || RC=$?
cat "$OUTDIR/report.md"
exit $RC
