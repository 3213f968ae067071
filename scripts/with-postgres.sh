#!/usr/bin/env bash
# Runs a command beside a private PostgreSQL server: a fresh cluster in a
# temporary folder on a free loopback port, stopped again however the command
# ends. The command sees MD_TEST_POSTGRES_URL (a maintenance database URL).
# MD_PG_SETTINGS adds server settings ("-c shared_buffers=1GB"), for a run
# that sizes PostgreSQL as a server would be (docs/performance.md).
set -euo pipefail

PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -x "$PGBIN/initdb" ] || { echo "with-postgres: PostgreSQL server binaries not found (run scripts/setup.sh)" >&2; exit 1; }

workdir=$(mktemp -d /tmp/meterdesk-pg.XXXXXX)
chmod 755 "$workdir"
as_pg=()
if [ "$(id -u)" -eq 0 ]; then
  chown postgres:postgres "$workdir"
  as_pg=(runuser -u postgres --)
fi

stop() {
  "${as_pg[@]}" "$PGBIN/pg_ctl" -D "$workdir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$workdir"
}
trap stop EXIT

"${as_pg[@]}" "$PGBIN/initdb" -D "$workdir/data" -U postgres --auth=trust -E UTF8 --no-locale >"$workdir/initdb.log" 2>&1 \
  || { cat "$workdir/initdb.log" >&2; exit 1; }

started=""
for _ in 1 2 3 4 5 6 7 8; do
  port=$(( 20000 + RANDOM % 30000 ))
  if "${as_pg[@]}" "$PGBIN/pg_ctl" -D "$workdir/data" -l "$workdir/server.log" -w -t 30 \
       -o "-c listen_addresses=127.0.0.1 -p $port -k $workdir -c fsync=off -c max_connections=200 ${MD_PG_SETTINGS:-}" start >/dev/null 2>&1; then
    started=$port
    break
  fi
done
[ -n "$started" ] || { echo "with-postgres: could not start PostgreSQL" >&2; cat "$workdir/server.log" >&2; exit 1; }

export MD_TEST_POSTGRES_URL="postgresql://postgres@127.0.0.1:$started/postgres"
echo "with-postgres: PostgreSQL on 127.0.0.1:$started"
set +e
"$@"
status=$?
set -e
exit $status
