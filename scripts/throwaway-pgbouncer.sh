#!/usr/bin/env bash
# Starts or stops a private, throwaway PgBouncer in front of a PostgreSQL, for tests and benchmarks.
#   scripts/throwaway-pgbouncer.sh start DIR PORT POSTGRES_URL [transaction|session]
#       → prints the DATABASE_URL through the pooler (any database name of that server)
#   scripts/throwaway-pgbouncer.sh stop DIR
# Debian's PgBouncer (1.18) has no max_prepared_statements: in transaction mode Nerve needs
# DATABASE_PREPARED_STATEMENTS=off. As root, PgBouncer runs as the `postgres` user (it refuses root).
set -euo pipefail

command=${1:?start|stop}
dir=${2:?directory}
bin=${PGBOUNCER:-$(command -v pgbouncer || echo /usr/sbin/pgbouncer)}

case "$command" in
  start)
    port=${3:?port}
    backend=${4:?PostgreSQL URL}
    mode=${5:-transaction}
    [ -x "$bin" ] || { echo "pgbouncer not found (apt-get install pgbouncer, or set PGBOUNCER)" >&2; exit 1; }
    # postgresql://user@host:port/db → host and port of the server
    hostport=${backend#*://}
    hostport=${hostport#*@}
    hostport=${hostport%%/*}
    host=${hostport%%:*}
    backend_port=${hostport##*:}
    [ "$backend_port" != "$hostport" ] || backend_port=5432
    mkdir -p "$dir"
    cat >"$dir/pgbouncer.ini" <<EOF
[databases]
* = host=$host port=$backend_port

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $port
unix_socket_dir =
auth_type = trust
auth_file = $dir/userlist.txt
pool_mode = $mode
max_client_conn = 1000
default_pool_size = 20
server_reset_query = DISCARD ALL
ignore_startup_parameters = extra_float_digits
logfile = $dir/pgbouncer.log
pidfile = $dir/pgbouncer.pid
EOF
    echo '"postgres" ""' >"$dir/userlist.txt"
    if [ "$(id -u)" = 0 ]; then
      chmod 755 "$dir"
      chown -R postgres:postgres "$dir"
      runuser -u postgres -- "$bin" -d -q "$dir/pgbouncer.ini"
    else
      "$bin" -d -q "$dir/pgbouncer.ini"
    fi
    # Up once it accepts connections.
    for _ in $(seq 1 100); do
      if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
        echo "postgresql://postgres@127.0.0.1:$port/${backend##*/}"
        exit 0
      fi
      sleep 0.1
    done
    echo "pgbouncer did not start: $(tail -n 5 "$dir/pgbouncer.log" 2>/dev/null)" >&2
    exit 1
    ;;
  stop)
    if [ -f "$dir/pgbouncer.pid" ]; then
      pid=$(cat "$dir/pgbouncer.pid")
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -9 "$pid" 2>/dev/null || true
    fi
    rm -rf "$dir"
    ;;
  *) echo "usage: $0 start DIR PORT POSTGRES_URL [transaction|session] | stop DIR" >&2; exit 2 ;;
esac
