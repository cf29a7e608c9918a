#!/usr/bin/env bash
# Start a real PostgreSQL (Debian's) on loopback holding the same users and data as
# `lakegate demo`, so every integration assertion can be proven against PostgreSQL.
#   scripts/pg-demo.sh start PORT DIR   -> initdb + start, prints "ready on 127.0.0.1:PORT"
#   scripts/pg-demo.sh stop DIR
# Then run the integration suites against it:
#   LAKEGATE_TEST_HOST=127.0.0.1 LAKEGATE_TEST_PORT=PORT LAKEGATE_TEST_KIND=postgres npm test -- tests/integration
set -euo pipefail

cmd=${1:?usage: pg-demo.sh start PORT DIR | stop DIR}

find_bin() {
  local name=$1 d
  if command -v "$name" >/dev/null 2>&1; then command -v "$name"; return; fi
  for d in /usr/lib/postgresql/*/bin; do
    if [ -x "$d/$name" ]; then echo "$d/$name"; return; fi
  done
  echo "pg-demo: $name not found (install Debian's postgresql)" >&2
  exit 1
}

as_pg() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "$cmd" in
  start)
    port=${2:?port}; dir=${3:?dir}
    INITDB=$(find_bin initdb); PG_CTL=$(find_bin pg_ctl); PSQL=$(command -v psql)
    mkdir -p "$dir"
    if [ "$(id -u)" = 0 ]; then chown postgres "$dir"; chmod 700 "$dir"; fi
    as_pg "$INITDB" -D "$dir/data" -U postgres --auth-local=trust --auth-host=scram-sha-256 \
      -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 1; }
    as_pg "$PG_CTL" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-p $port -c listen_addresses=127.0.0.1 -c unix_socket_directories=$dir -c fsync=off -c timezone=UTC" start >/dev/null \
      || { cat "$dir/server.log" >&2; exit 1; }
    as_pg "$PSQL" -X -q -v ON_ERROR_STOP=1 -h "$dir" -p "$port" -U postgres -d postgres <<'SQL' >/dev/null
CREATE ROLE alice LOGIN PASSWORD 'alice';
CREATE ROLE bob LOGIN PASSWORD 'bob';
CREATE ROLE carol LOGIN PASSWORD 'carol';
CREATE ROLE dave LOGIN PASSWORD 'dave';
CREATE ROLE erin LOGIN PASSWORD 'erin';
CREATE DATABASE demo;
\connect demo
CREATE SCHEMA sales;
-- Strings are presented as text: Iceberg/DuckDB strings have no length, and text is PostgreSQL's type for that.
CREATE TABLE sales.orders(id integer, ssn text, amount decimal(10,2), region text);
INSERT INTO sales.orders VALUES (1, '111-11-1111', 100.00, 'EU'), (2, '222-22-2222', 250.50, 'US');
-- As in the demo's catalog gate (demo/polaris/): analysts may read sales, dave nothing.
CREATE ROLE analyst;
GRANT analyst TO alice, bob, carol, erin;
GRANT USAGE ON SCHEMA sales TO analyst;
GRANT SELECT ON ALL TABLES IN SCHEMA sales TO analyst;
SQL
    echo "ready on 127.0.0.1:$port"
    ;;
  stop)
    dir=${2:?dir}
    PG_CTL=$(find_bin pg_ctl)
    as_pg "$PG_CTL" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    rm -rf "$dir"
    ;;
  *) echo "usage: pg-demo.sh start PORT DIR | stop DIR" >&2; exit 2 ;;
esac
