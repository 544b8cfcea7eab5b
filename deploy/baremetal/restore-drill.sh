#!/bin/sh
# The restore drill: the newest backup in BACKUP_DIR restored into a scratch database on the same server, every
# rb_* table counted in both, the scratch database dropped. Exit 0 only when every count matches (the counts are
# of the moment of the dump: run it right after backup.sh, or expect the live side to have grown).
#   deploy/baremetal/restore-drill.sh BACKUP_DIR       (same PG* variables as backup.sh)
set -eu
DIR=$1
DUMP=$(ls -1 "$DIR"/rocm_bridge-*.dump 2>/dev/null | sort | tail -n 1)
[ -n "$DUMP" ] || { echo "no backup in $DIR" >&2; exit 1; }
LIVE=${PGDATABASE:-rocm_bridge}
SCRATCH="rb_restore_drill_$$"
psql -d postgres -q -v ON_ERROR_STOP=1 -c "CREATE DATABASE $SCRATCH"
trap 'psql -d postgres -q -c "DROP DATABASE IF EXISTS $SCRATCH WITH (FORCE)"' EXIT
pg_restore --no-owner --exit-on-error -d "$SCRATCH" "$DUMP"
TABLES=$(psql -d "$LIVE" -At -c "SELECT tablename FROM pg_tables WHERE tablename LIKE 'rb\_%' ORDER BY 1")
[ -n "$TABLES" ] || { echo "no rb_* tables in $LIVE" >&2; exit 1; }
bad=0
echo "restore drill: $DUMP"
for t in $TABLES; do
    a=$(psql -d "$LIVE" -At -c "SELECT count(*) FROM $t")
    b=$(psql -d "$SCRATCH" -At -c "SELECT count(*) FROM $t")
    [ "$a" = "$b" ] && s=ok || { s=DIFFERS; bad=1; }
    echo "  $t: live $a, restored $b: $s"
done
[ $bad = 0 ] && echo "restore drill: ok" || echo "restore drill: FAILED"
exit $bad
