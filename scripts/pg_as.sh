# shellcheck shell=bash
# Sourced by scripts/db_fence, scripts/db_restore and scripts/db_failover: how PostgreSQL's own
# programs (pg_ctl, postgres, pgbackrest on the data folder) are run. pg_ctl and postgres refuse
# to run as root ("cannot be run as root"), and a `|| true` after them once hid that: a fencing
# run as root did nothing. So, from the PostgreSQL OS user (--os-user, PG_OS_USER, default
# postgres):
#   as root            -> runuser -u <user> --
#   as that user       -> directly
#   as anyone else     -> sudo -n -u <user> --   (fails at once when sudo does not allow it)
# PG_AS, when it is set (even to ""), is taken as given: e.g. PG_AS="sudo -u postgres --".
# pg_as_resolve prints the prefix; pg_as_check refuses an empty prefix as root.

pg_as_resolve() {
  local user=$1
  if [ -n "${PG_AS+set}" ]; then
    printf '%s' "$PG_AS"
  elif [ "$(id -u)" = 0 ]; then
    printf 'runuser -u %s --' "$user"
  elif [ "$(id -un)" = "$user" ]; then
    printf ''
  else
    printf 'sudo -n -u %s --' "$user"
  fi
}

pg_as_check() {
  if [ -z "$1" ] && [ "$(id -u)" = 0 ]; then
    echo "PG_AS is empty and this runs as root: PostgreSQL's programs refuse to run as root." >&2
    echo "Unset PG_AS (it then runs them as --os-user, default postgres) or name a user." >&2
    exit 2
  fi
}
