#!/usr/bin/env bash
# Starts or stops a private, throwaway PostgreSQL cluster for tests and benchmarks.
#   scripts/throwaway-postgres.sh start DIR PORT   → prints the DATABASE_URL
#   scripts/throwaway-postgres.sh stop DIR
#   scripts/throwaway-postgres.sh halt DIR          → stops the server, keeps its data
#   scripts/throwaway-postgres.sh resume DIR PORT   → starts a halted cluster again
# As root, the cluster runs as the `postgres` user (PostgreSQL refuses to run as root).
set -euo pipefail

command=${1:?start|stop}
dir=${2:?data directory}
bin=${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}
[ -x "$bin/pg_ctl" ] || { echo "PostgreSQL server binaries not found (set PG_BIN)" >&2; exit 1; }

as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

serve() {
  as_owner "$bin/pg_ctl" -D "$dir" -w -l "$dir/log" \
    -o "-p $1 -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start >/dev/null
}

case "$command" in
  start)
    port=${3:?port}
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres:postgres "$dir"
    as_owner "$bin/initdb" -D "$dir" -A trust -U postgres >/dev/null
    serve "$port"
    echo "postgresql://postgres@127.0.0.1:$port/postgres"
    ;;
  halt)
    as_owner "$bin/pg_ctl" -D "$dir" -m fast -w stop >/dev/null
    ;;
  resume)
    serve "${3:?port}"
    ;;
  stop)
    as_owner "$bin/pg_ctl" -D "$dir" -m fast stop >/dev/null 2>&1 || true
    rm -rf "$dir"
    ;;
  *) echo "usage: $0 start DIR PORT | stop DIR | halt DIR | resume DIR PORT" >&2; exit 2 ;;
esac
