#!/usr/bin/env bash
# Starts PostgreSQL and MariaDB on this machine if they are down, and makes sure the 'test'
# databases exist. Used by .ci/run; safe to run when both are up.
set -uo pipefail

wait_for() { # name, command
  for _ in $(seq 1 60); do eval "$2" >/dev/null 2>&1 && return 0; sleep 1; done
  echo "start-databases: $1 did not come up within 60 s" >&2; return 1
}

if ! pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; then
  echo "start-databases: starting PostgreSQL" >&2
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | sort -V | tail -1)" main start || true
  wait_for PostgreSQL "pg_isready -h 127.0.0.1 -p 5432 -q" || exit 1
fi
psql -h 127.0.0.1 -U postgres -d postgres -Atqc "SELECT 1 FROM pg_database WHERE datname = 'test'" | grep -q 1 \
  || psql -h 127.0.0.1 -U postgres -d postgres -qc "CREATE DATABASE test" || exit 1

MARIADB_ADMIN=$(command -v mariadb-admin || command -v mysqladmin)
MARIADB_CLIENT=$(command -v mariadb || command -v mysql)
if ! "$MARIADB_ADMIN" -h 127.0.0.1 -P 3306 -uroot ping >/dev/null 2>&1; then
  echo "start-databases: starting MariaDB" >&2
  start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd || true
  wait_for MariaDB "$MARIADB_ADMIN -h 127.0.0.1 -P 3306 -uroot ping" || exit 1
fi
"$MARIADB_CLIENT" -h 127.0.0.1 -P 3306 -uroot -e "CREATE DATABASE IF NOT EXISTS test" || exit 1
echo "start-databases: PostgreSQL and MariaDB are up" >&2
