#!/usr/bin/env bash
# lakegate statement floor (issue 24): `select 1` through pgbench, 1 client, against lakegate's
# demo, PostgreSQL 15 direct and PgBouncer -> PostgreSQL, side by side in ONE run; then lakegate
# again under V8's CPU profiler (gateway, its worker threads and its engine children) and the
# profile summarized per phase. Measures only: see bench/README.md, "Statement floor (issue 24)".
#
#   bash bench/floor.sh                 # 15 s per pgbench point, build dist/ first
#   bash bench/floor.sh --seconds 5     # shorter
#   bash bench/floor.sh --no-build      # use dist/ as it is
#   bash bench/floor.sh --keep          # keep the temp dir (pgbench logs, .cpuprofile files)
#
# Everything listens on 127.0.0.1; every wait is bounded; servers and the temp dir are removed on
# exit, also on failure or Ctrl-C. Output: bench/out/floor-<stamp>/{report.md,profile.md,*.cpuprofile}.
set -Eeuo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
SECONDS_PER=15
BUILD=1
KEEP=0
PROFILE=1
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) SECONDS_PER="$2"; shift ;;
    --no-build) BUILD=0 ;;
    --no-profile) PROFILE=0 ;;
    --keep) KEEP=1 ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) echo "unknown option: $1" >&2; exit 2 ;;
  esac
  shift
done

log() { printf '[floor %s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
die() { log "FAILED: $*"; exit 1; }

START_EPOCH=$(date +%s)
STAMP=$(date -u +%Y%m%dT%H%M%SZ)
OUTDIR="$HERE/out/floor-$STAMP"
mkdir -p "$OUTDIR"
TMP="$(mktemp -d /tmp/lakegate-floor.XXXXXX)"
chmod 755 "$TMP"
PGBIN=""
PGDATA="$TMP/pgdata"
PG_STARTED=0
PGB_PID=""
LG_PID=""
AS_PG=()

stop_pid() { # pid: TERM, wait up to 10 s, then KILL
  local pid="$1" i
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 0
  kill "$pid" 2>/dev/null || true
  for i in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true
}

cleanup() {
  local rc=$?
  set +e
  trap - EXIT INT TERM
  stop_pid "$LG_PID"
  stop_pid "$PGB_PID"
  if [ "$PG_STARTED" = 1 ]; then "${AS_PG[@]}" "$PGBIN/pg_ctl" -D "$PGDATA" -m immediate -w -t 30 stop >/dev/null 2>&1; fi
  for f in "$TMP"/*.log; do [ -f "$f" ] && cp "$f" "$OUTDIR/" 2>/dev/null; done
  if [ "$KEEP" = 1 ]; then log "kept $TMP"; else rm -rf "$TMP"; fi
  log "elapsed $(( $(date +%s) - START_EPOCH )) s; results in ${OUTDIR#$ROOT/}"
  exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

free_port() { node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
wait_port() { # host port seconds
  local i
  for i in $(seq 1 $(( $3 * 10 ))); do (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null && return 0; sleep 0.1; done
  return 1
}

# ---------------------------------------------------------------- tools
cd "$ROOT"
for b in "$(pg_config --bindir 2>/dev/null || true)" $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -rV); do
  if [ -n "$b" ] && [ -x "$b/initdb" ] && [ -x "$b/pg_ctl" ] && [ -x "$b/postgres" ]; then PGBIN="$b"; break; fi
done
[ -n "$PGBIN" ] || die "no PostgreSQL server binaries: apt-get install postgresql"
PGBENCH="$PGBIN/pgbench"; [ -x "$PGBENCH" ] || PGBENCH="$(command -v pgbench || true)"
[ -n "$PGBENCH" ] || die "pgbench not found"
command -v psql >/dev/null || die "psql not found"
PGBOUNCER="$(command -v pgbouncer || echo /usr/sbin/pgbouncer)"
[ -x "$PGBOUNCER" ] || die "pgbouncer not found: apt-get install pgbouncer"
if [ "$(id -u)" = 0 ]; then AS_PG=(runuser -u postgres --); else AS_PG=(env); fi
TSX=(node --import tsx)

if [ "$BUILD" = 1 ]; then
  log "building dist/ (tsc)"
  npx tsc -p tsconfig.json >"$TMP/tsc.log" 2>&1 || die "tsc: $(head -3 "$TMP/tsc.log")"
fi
[ -f dist/bin/lakegate.js ] || die "dist/bin/lakegate.js missing (build first)"

# ---------------------------------------------------------------- PostgreSQL (as bench/run.sh)
PG_PORT=$(free_port)
mkdir -p "$PGDATA" "$TMP/pgsock"
echo postgres > "$TMP/pgpw"
touch "$TMP/postgres.log"
[ "$(id -u)" = 0 ] && chown -R postgres:postgres "$PGDATA" "$TMP/pgsock" "$TMP/pgpw" "$TMP/postgres.log"
LC_ALL=C "${AS_PG[@]}" "$PGBIN/initdb" -D "$PGDATA" -U postgres --pwfile="$TMP/pgpw" -A scram-sha-256 \
  -E UTF8 --locale=C --no-sync >"$TMP/initdb.log" 2>&1 || die "initdb: $(tail -5 "$TMP/initdb.log")"
cat >> "$PGDATA/postgresql.conf" <<EOF
listen_addresses = '127.0.0.1'
port = $PG_PORT
unix_socket_directories = '$TMP/pgsock'
fsync = off
synchronous_commit = off
full_page_writes = off
password_encryption = 'scram-sha-256'
EOF
printf 'local all all scram-sha-256\nhost all all 127.0.0.1/32 scram-sha-256\n' > "$PGDATA/pg_hba.conf"
"${AS_PG[@]}" "$PGBIN/pg_ctl" -D "$PGDATA" -l "$TMP/postgres.log" -w -t 60 start >/dev/null || die "pg_ctl start: $(tail -5 "$TMP/postgres.log")"
PG_STARTED=1
PGPASSWORD=postgres psql -X -q -h 127.0.0.1 -p "$PG_PORT" -U postgres -d postgres -v ON_ERROR_STOP=1 \
  -c "CREATE ROLE alice LOGIN PASSWORD 'alice'" -c "CREATE DATABASE demo OWNER alice" >/dev/null
export PGUSER=alice PGPASSWORD=alice PGDATABASE=demo PGHOST=127.0.0.1 PGSSLMODE=disable

# ---------------------------------------------------------------- PgBouncer
# Session pooling: PgBouncer before 1.21 cannot keep protocol-level prepared statements in
# transaction pooling, and with one client the per-statement path is the same in both modes.
PGB_PORT=$(free_port)
mkdir -p "$TMP/pgbouncer"
echo '"alice" "alice"' > "$TMP/pgbouncer/userlist.txt"
cat > "$TMP/pgbouncer/pgbouncer.ini" <<EOF
[databases]
demo = host=127.0.0.1 port=$PG_PORT dbname=demo
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $PGB_PORT
unix_socket_dir =
auth_type = scram-sha-256
auth_file = $TMP/pgbouncer/userlist.txt
pool_mode = session
default_pool_size = 4
logfile = $TMP/pgbouncer.log
pidfile = $TMP/pgbouncer/pgbouncer.pid
ignore_startup_parameters = extra_float_digits
EOF
touch "$TMP/pgbouncer.log"
[ "$(id -u)" = 0 ] && chown -R postgres:postgres "$TMP/pgbouncer" "$TMP/pgbouncer.log"
"${AS_PG[@]}" "$PGBOUNCER" "$TMP/pgbouncer/pgbouncer.ini" >"$TMP/pgbouncer.stdout.log" 2>&1 &
PGB_PID=$!
wait_port 127.0.0.1 "$PGB_PORT" 20 || die "pgbouncer did not listen: $(tail -5 "$TMP/pgbouncer.log")"

# ---------------------------------------------------------------- lakegate (demo, from dist/)
LG_PORT=$(free_port)
start_lakegate() { # logfile [extra node args…]; sets LG_PID
  local logf="$1"; shift
  node "$@" dist/bin/lakegate.js demo --port "$LG_PORT" --host 127.0.0.1 --data-dir "$TMP/demo" --ops-port off >"$logf" 2>&1 &
  LG_PID=$!
  wait_port 127.0.0.1 "$LG_PORT" 60 || die "lakegate did not listen: $(tail -5 "$logf")"
  psql -X -q -At -h 127.0.0.1 -p "$LG_PORT" -c 'select 1' >/dev/null || die "lakegate: select 1 failed"
}
start_lakegate "$TMP/lakegate.log"

log "PostgreSQL $("$PGBIN/postgres" --version | awk '{print $3}') :$PG_PORT, $("$PGBOUNCER" --version | head -1) :$PGB_PORT (session pooling), lakegate $(git rev-parse --short HEAD) :$LG_PORT; $SECONDS_PER s per point"

echo 'select 1;' > "$TMP/select1.sql"
RES="$TMP/results.tsv"
: > "$RES"
# pgbench one point: target port mode -> a line "target mode tps p50us p99us count" in $RES
point() {
  local target="$1" port="$2" mode="$3" pre="$TMP/log-$1-$3" out
  rm -f "$pre".*
  out=$(timeout $(( SECONDS_PER + 60 )) "$PGBENCH" -n -M "$mode" -c 1 -T "$SECONDS_PER" -f "$TMP/select1.sql" \
    -h 127.0.0.1 -p "$port" --log --log-prefix="$pre" 2>&1) || die "pgbench $target $mode: $(echo "$out" | tail -3)"
  local tps; tps=$(echo "$out" | awk '/^tps = /{print $3; exit}')
  # per-transaction log: client_id transaction_no time_us script_no epoch epoch_us
  cat "$pre".* | awk '{print $3}' | sort -n > "$pre.sorted"
  local n; n=$(wc -l < "$pre.sorted")
  local p50 p99 avg slow
  avg=$(echo "$out" | awk '/^latency average = /{print $4*1000; exit}')
  slow=$(awk -v n="$n" '$1>1000{c++} END{printf "%.1f", 100*c/n}' "$pre.sorted")
  p50=$(awk -v n="$n" 'NR==int((n*50+99)/100){print; exit}' "$pre.sorted")
  p99=$(awk -v n="$n" 'NR==int((n*99+99)/100){print; exit}' "$pre.sorted")
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$target" "$mode" "$tps" "$p50" "$p99" "$n" "$avg" "$slow" >> "$RES"
  log "$target $mode: tps $tps, p50 ${p50} us, p99 ${p99} us, mean ${avg} us, ${slow}% over 1 ms ($n statements)"
}
# lakegate's own statement log: durationMs of the statements logged between two line numbers
lg_durations() { # logfile fromLine -> "p50 p99" in ms
  tail -n +"$(( $2 + 1 ))" "$1" | grep -o '"event":"statement".*"durationMs":[0-9.]*' | grep -o '"durationMs":[0-9.]*' \
    | cut -d: -f2 | sort -n | awk '{a[NR]=$1} END{if(NR==0){print "- -"; exit}; print a[int((NR*50+99)/100)], a[int((NR*99+99)/100)]}'
}

for mode in prepared simple; do
  point postgres "$PG_PORT" "$mode"
  point pgbouncer "$PGB_PORT" "$mode"
  from=$(wc -l < "$TMP/lakegate.log")
  point lakegate "$LG_PORT" "$mode"
  echo "$mode $(lg_durations "$TMP/lakegate.log" "$from")" >> "$TMP/lg-internal.txt"
done
stop_pid "$LG_PID"; LG_PID=""

# ---------------------------------------------------------------- lakegate under the profiler
if [ "$PROFILE" = 1 ]; then
  for mode in prepared simple; do
    PROF="$OUTDIR/profile-$mode"
    mkdir -p "$PROF"
    # Gateway and engine children profiled through the preload (NODE_OPTIONS reaches the children:
    # fork passes the environment on). SIGUSR2 by pid starts the profiles after a warm-up and
    # stops and writes them after the measured run, so start-up is not in them.
    LG_FLOOR_PROF_DIR="$PROF" NODE_OPTIONS="--require $HERE/floor/prof.cjs" start_lakegate "$TMP/lakegate-prof-$mode.log"
    timeout 30 "$PGBENCH" -n -M "$mode" -c 1 -T 2 -f "$TMP/select1.sql" -h 127.0.0.1 -p "$LG_PORT" >/dev/null 2>&1 || die "warm-up pgbench failed"
    PIDS="$LG_PID $(pgrep -P "$LG_PID" | tr '\n' ' ')"
    for p in $PIDS; do kill -USR2 "$p"; done
    point "lakegate-profiled" "$LG_PORT" "$mode"
    for p in $PIDS; do kill -USR2 "$p" 2>/dev/null || true; done
    for _ in $(seq 1 50); do [ "$(ls "$PROF"/*.cpuprofile 2>/dev/null | wc -l)" -ge "$(echo $PIDS | wc -w)" ] && break; sleep 0.2; done
    n=$(awk -v m="$mode" '$1=="lakegate-profiled" && $2==m {print $6}' "$RES")
    stop_pid "$LG_PID"; LG_PID=""
    { echo "### lakegate profiled, $mode, $n statements"; echo; "${TSX[@]}" "$HERE/floor/profile.ts" --dir "$PROF" --statements "$n" --top 20; } >> "$OUTDIR/profile.md"
  done
fi

# ---------------------------------------------------------------- report
{
  echo "## select 1, pgbench -c 1 -T $SECONDS_PER ($(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), lakegate $(git rev-parse --short HEAD), Node $(node --version))"
  echo
  echo "| mode | target | tps | p50 µs | p99 µs | mean µs | > 1 ms | statements | p50 ÷ PgBouncer | p99 ÷ PgBouncer | tps ÷ PgBouncer |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|"
  awk -F'\t' '{k=$2; if($1=="pgbouncer"){bp[k]=$4; bq[k]=$5; bt[k]=$3}; line[NR]=$0} END{
    for(i=1;i<=NR;i++){split(line[i],f,"\t");
      printf "| %s | %s | %.0f | %d | %d | %.0f | %s%% | %d | %.2f | %.2f | %.2f |\n", f[2], f[1], f[3], f[4], f[5], f[7], f[8], f[6], f[4]/bp[f[2]], f[5]/bq[f[2]], f[3]/bt[f[2]]}}' "$RES"
  echo
  echo "lakegate's own statement log (durationMs, the gateway's time per statement, same runs): "
  while read -r m a b; do echo "- $m: p50 $a ms, p99 $b ms"; done < "$TMP/lg-internal.txt"
} > "$OUTDIR/report.md"
cat "$OUTDIR/report.md"
[ -f "$OUTDIR/profile.md" ] && log "profile summary: ${OUTDIR#$ROOT/}/profile.md"
exit 0
