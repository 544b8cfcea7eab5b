#!/bin/sh
# One backup of the ROCm Bridge database (pg_dump, custom format), keeping the newest KEEP (default 14).
#   deploy/baremetal/backup.sh BACKUP_DIR         (systemd: rocm-bridge-backup.timer runs it daily)
# Connection from the libpq variables: PGHOST, PGPORT, PGUSER, PGDATABASE and PGPASSFILE (a ~/.pgpass line
# host:port:db:user:password, mode 600), e.g. in /etc/rocm-bridge/backup.env.
set -eu
DIR=$1
KEEP=${KEEP:-14}
mkdir -p "$DIR"
OUT="$DIR/rocm_bridge-$(date -u +%Y%m%dT%H%M%SZ).dump"
pg_dump --format=custom --no-owner --file="$OUT.part" "${PGDATABASE:-rocm_bridge}"
mv "$OUT.part" "$OUT"
ls -1 "$DIR"/rocm_bridge-*.dump | sort | head -n -"$KEEP" | xargs -r rm -f
echo "backup: $OUT ($(wc -c <"$OUT") bytes)"
