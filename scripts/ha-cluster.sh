#!/usr/bin/env bash
# A PostgreSQL high-availability cluster on loopback, from Debian's packages (patroni,
# etcd-server, haproxy, postgresql-15): one etcd, two Patroni nodes (a primary and a synchronous
# standby) and HAProxy giving Nerve one writable endpoint (it routes to the node whose Patroni
# answers 200 on /primary). For `npm run test:ha` and for trying the procedure of docs/DEPLOY.md.
#
#   scripts/ha-cluster.sh start DIR   → prints the DATABASE_URL of the writable endpoint
#   scripts/ha-cluster.sh stop DIR    → stops everything it started and removes DIR
#   scripts/ha-cluster.sh status DIR  → each node's role as Patroni reports it
#
# Ports: HA_BASE_PORT (41100) + 0 HAProxy's endpoint, +1 its stats page, +79/+80 etcd,
# +8/+9 Patroni's REST API, +11/+12 PostgreSQL. As root, Patroni and PostgreSQL run as `postgres`.
set -euo pipefail

command=${1:?start|stop|status}
dir=${2:?directory}
base=${HA_BASE_PORT:-41100}
pg_bin=${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}
endpoint=$base
etcd_client=$((base + 79))
etcd_peer=$((base + 80))
nodes=(node1 node2)
rest_port() { echo $((base + 8 + $1)); }
pg_port() { echo $((base + 11 + $1)); }

as_postgres() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

wait_for() { # wait_for SECONDS DESCRIPTION COMMAND...
  local deadline=$((SECONDS + $1)) what=$2
  shift 2
  until "$@" >/dev/null 2>&1; do
    if [ "$SECONDS" -ge "$deadline" ]; then
      echo "timed out waiting for $what" >&2
      return 1
    fi
    sleep 0.2
  done
}

stop_pid() { # stop_pid PIDFILE: TERM, then KILL after 10 s
  [ -f "$1" ] || return 0
  local pid
  pid=$(cat "$1")
  kill "$pid" 2>/dev/null || return 0
  for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.2; done
  kill -9 "$pid" 2>/dev/null || true
}

patroni_config() { # patroni_config INDEX
  local name=${nodes[$1]}
  cat <<EOF
scope: nerve-ha
name: $name
log:
  level: WARNING
restapi:
  listen: 127.0.0.1:$(rest_port "$1")
  connect_address: 127.0.0.1:$(rest_port "$1")
etcd:
  host: 127.0.0.1:$etcd_client
bootstrap:
  dcs:
    ttl: 10
    loop_wait: 1
    retry_timeout: 4
    maximum_lag_on_failover: 1048576
    # A primary whose PostgreSQL crashed is not restarted in place: the standby takes over at once.
    master_start_timeout: 0
    # Commits wait for the standby: an acknowledged roll is on both nodes.
    synchronous_mode: true
    postgresql:
      use_pg_rewind: true
      remove_data_directory_on_rewind_failure: true
      parameters:
        wal_log_hints: 'on'
        max_connections: 200
        max_wal_senders: 5
        max_replication_slots: 5
        wal_keep_size: 256MB
  initdb:
    - encoding: UTF8
    - auth: trust
  pg_hba:
    - local all all trust
    - host all all 127.0.0.1/32 trust
    - host replication all 127.0.0.1/32 trust
postgresql:
  listen: 127.0.0.1:$(pg_port "$1")
  connect_address: 127.0.0.1:$(pg_port "$1")
  data_dir: $dir/$name/data
  bin_dir: $pg_bin
  pgpass: $dir/$name/pgpass
  authentication:
    superuser: { username: postgres, password: postgres }
    replication: { username: postgres, password: postgres }
    rewind: { username: postgres, password: postgres }
  parameters:
    unix_socket_directories: $dir/$name
EOF
}

haproxy_config() {
  cat <<EOF
global
  maxconn 2000
  pidfile $dir/haproxy.pid
defaults
  mode tcp
  timeout connect 2s
  timeout client 30m
  timeout server 30m
  timeout check 1s
listen stats
  mode http
  bind 127.0.0.1:$((base + 1))
  stats enable
  stats uri /
listen nerve_primary
  bind 127.0.0.1:$endpoint
  option httpchk GET /primary
  http-check expect status 200
  # A node that stops being the primary loses its connections at once, so no client keeps
  # writing to a demoted node.
  default-server inter 500ms fall 2 rise 1 on-marked-down shutdown-sessions
  server node1 127.0.0.1:$(pg_port 0) check port $(rest_port 0)
  server node2 127.0.0.1:$(pg_port 1) check port $(rest_port 1)
EOF
}

case "$command" in
  start)
    for tool in etcd patroni haproxy; do
      command -v "$tool" >/dev/null || { echo "$tool not found: apt-get install etcd-server patroni haproxy" >&2; exit 1; }
    done
    [ -x "$pg_bin/pg_ctl" ] || { echo "PostgreSQL server binaries not found (set PG_BIN)" >&2; exit 1; }
    mkdir -p "$dir"
    chmod 755 "$dir"

    # etcd 3.4 with its v2 API, which Debian's Patroni (python3-etcd) speaks.
    mkdir -p "$dir/etcd"
    setsid etcd --name nerve-ha --data-dir "$dir/etcd/data" --enable-v2=true \
      --listen-client-urls "http://127.0.0.1:$etcd_client" --advertise-client-urls "http://127.0.0.1:$etcd_client" \
      --listen-peer-urls "http://127.0.0.1:$etcd_peer" --initial-advertise-peer-urls "http://127.0.0.1:$etcd_peer" \
      --initial-cluster "nerve-ha=http://127.0.0.1:$etcd_peer" >"$dir/etcd/log" 2>&1 &
    echo $! >"$dir/etcd.pid"
    wait_for 30 etcd curl -sf "http://127.0.0.1:$etcd_client/version"

    for i in 0 1; do
      name=${nodes[$i]}
      mkdir -p "$dir/$name"
      patroni_config "$i" >"$dir/$name/patroni.yml"
      [ "$(id -u)" = 0 ] && chown -R postgres:postgres "$dir/$name"
      # The pid file names Patroni itself, not runuser.
      setsid runuser -u postgres -- sh -c "echo \$\$ > '$dir/$name/patroni.pid'; exec patroni '$dir/$name/patroni.yml'" \
        >"$dir/$name/log" 2>&1 &
      if [ "$i" = 0 ]; then
        wait_for 90 "node1 to become the primary" curl -sf "http://127.0.0.1:$(rest_port 0)/primary"
      fi
    done
    wait_for 120 "node2 to become the synchronous standby" curl -sf "http://127.0.0.1:$(rest_port 1)/sync"

    haproxy_config >"$dir/haproxy.cfg"
    haproxy -D -f "$dir/haproxy.cfg" >"$dir/haproxy.log" 2>&1
    wait_for 30 "HAProxy to route to the primary" "$pg_bin/pg_isready" -q -h 127.0.0.1 -p "$endpoint"
    echo "postgresql://postgres@127.0.0.1:$endpoint/postgres"
    ;;
  status)
    for i in 0 1; do
      printf '%s: ' "${nodes[$i]}"
      curl -s "http://127.0.0.1:$(rest_port "$i")/patroni" || printf 'no answer'
      echo
    done
    ;;
  stop)
    stop_pid "$dir/haproxy.pid"
    for i in 0 1; do stop_pid "$dir/${nodes[$i]}/patroni.pid"; done
    # A PostgreSQL that outlived its Patroni (killed with -9) is stopped by its own pid file.
    for i in 0 1; do
      data="$dir/${nodes[$i]}/data"
      if [ -f "$data/postmaster.pid" ]; then
        pid=$(head -n 1 "$data/postmaster.pid")
        kill -QUIT "$pid" 2>/dev/null || true
      fi
    done
    stop_pid "$dir/etcd.pid"
    rm -rf "$dir"
    ;;
  *) echo "usage: $0 start DIR | stop DIR | status DIR" >&2; exit 2 ;;
esac
