#!/bin/sh
# A PostgreSQL cluster for ROCm Bridge on a plain Linux host (no containers). Run as root (or as OSUSER itself).
#
#   deploy/baremetal/db-init.sh DATADIR PORT OSUSER PASSWORD_FILE
#
# - initdb runs as OSUSER, never as root (PostgreSQL refuses root; `runuser` drops to it);
# - every setting is in DATADIR/conf.d/rocm-bridge.conf, included from postgresql.conf, so it survives a restart
#   by pg_ctl, systemd or a reboot (settings given as `pg_ctl -o` are lost on the next plain restart);
# - max_connections = 200: room for 6 app replicas x 31 connections (rocm_bridge/quiz/connection.py), pg_dump, an admin;
# - scram-sha-256 for every connection, listening on 127.0.0.1 only (put nginx and the replicas on this host).
# The superuser is rocm_bridge with the password in PASSWORD_FILE; the database rocm_bridge is created.
# tests/integration/test_baremetal.py runs this script.
set -eu
DATADIR=$1
PORT=$2
OSUSER=$3
PWFILE=$4
BIN=${ROCM_BRIDGE_PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}
[ -x "$BIN/initdb" ] || { echo "initdb not found (Debian: apt-get install postgresql)" >&2; exit 1; }

as_user() {
    if [ "$(id -u)" = 0 ]; then runuser -u "$OSUSER" -- "$@"; else "$@"; fi
}

if [ -e "$DATADIR/PG_VERSION" ]; then
    echo "$DATADIR already holds a cluster: not touched" >&2
    exit 1
fi
mkdir -p "$DATADIR"
[ "$(id -u)" = 0 ] && chown "$OSUSER" "$DATADIR"
chmod 700 "$DATADIR"
TMPPW=$(mktemp)
cp "$PWFILE" "$TMPPW"
[ "$(id -u)" = 0 ] && chown "$OSUSER" "$TMPPW"
chmod 600 "$TMPPW"
as_user "$BIN/initdb" -D "$DATADIR" -U rocm_bridge --pwfile="$TMPPW" --auth=scram-sha-256 --encoding=UTF8 \
    --locale=C.UTF-8 --no-instructions >/dev/null
rm -f "$TMPPW"

as_user mkdir -p "$DATADIR/conf.d"
echo "include_dir = 'conf.d'" | as_user tee -a "$DATADIR/postgresql.conf" >/dev/null
as_user tee "$DATADIR/conf.d/rocm-bridge.conf" >/dev/null <<CONF
# ROCm Bridge (deploy/baremetal/db-init.sh). Edit here, then restart: these survive every restart.
port = $PORT
listen_addresses = '127.0.0.1'
unix_socket_directories = ''
max_connections = 200
shared_buffers = 128MB
password_encryption = scram-sha-256
log_destination = 'stderr'
logging_collector = on
log_directory = 'log'
log_min_duration_statement = 2000
CONF

as_user "$BIN/pg_ctl" -D "$DATADIR" -w -t 60 start >/dev/null
PGPASSWORD=$(cat "$PWFILE") "$BIN/psql" -h 127.0.0.1 -p "$PORT" -U rocm_bridge -d postgres -q -v ON_ERROR_STOP=1 \
    -c "CREATE DATABASE rocm_bridge"
echo "PostgreSQL ready: postgresql+psycopg://rocm_bridge:<password>@127.0.0.1:$PORT/rocm_bridge (data $DATADIR, user $OSUSER)"
