#!/bin/sh
# Applies the migrations the way every release must: each statement waits at most
# MIGRATE_LOCK_TIMEOUT (5s) for a table's lock, so a migration never queues the web's queries
# on that table behind it for long (OPERATIONS.md, "Migrations and locks"); a migration that
# gave up is tried again, up to MIGRATE_TRIES (5) times, MIGRATE_RETRY_SECONDS (10) apart.
# Used by compose's `migrate` service and by a release (README.md, "Releasing a new version").
# PGOPTIONS reaches PostgreSQL directly; behind PgBouncer run it against PostgreSQL itself, or
# `ALTER ROLE <migrating role> SET lock_timeout = '5s'`.
set -u
PYTHON="${PYTHON:-python}"
tries="${MIGRATE_TRIES:-5}"
export PGOPTIONS="${PGOPTIONS:-} -c lock_timeout=${MIGRATE_LOCK_TIMEOUT:-5s}"
n=1
while :; do
  "$PYTHON" manage.py migrate --noinput && exit 0
  if [ "$n" -ge "$tries" ]; then
    echo "migrate: gave up after $n tries" >&2
    exit 1
  fi
  echo "migrate: try $n failed (a lock held too long?); again in ${MIGRATE_RETRY_SECONDS:-10} s" >&2
  n=$((n + 1))
  sleep "${MIGRATE_RETRY_SECONDS:-10}"
done
