#!/usr/bin/env bash
# Starts PostgreSQL and Redis when they are installed but not running, and makes sure the
# test database exists. Installing them is .ci/run's job; this script never installs anything.
set -u
if command -v pg_isready >/dev/null 2>&1 && ! pg_isready -q -h 127.0.0.1 -p 5432; then
  if ls /etc/postgresql >/dev/null 2>&1; then
    for v in $(ls /etc/postgresql); do
      pg_ctlcluster --skip-systemctl-redirect "$v" main start 2>/dev/null || true
    done
    for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
  fi
fi
if pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
  if ! psql -h 127.0.0.1 -U postgres -lqt 2>/dev/null | cut -d'|' -f1 | grep -qw test; then
    psql -h 127.0.0.1 -U postgres -c 'CREATE DATABASE test' >/dev/null 2>&1 || true
  fi
fi
if command -v redis-server >/dev/null 2>&1 && ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  mkdir -p /var/lib/redis /var/log/redis 2>/dev/null || true
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log >/dev/null 2>&1 || true
  for _ in $(seq 1 20); do redis-cli ping >/dev/null 2>&1 && break; sleep 0.5; done
fi
pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null && echo "PostgreSQL: up" || echo "PostgreSQL: not available"
redis-cli -h 127.0.0.1 ping >/dev/null 2>&1 && echo "Redis: up" || echo "Redis: not available"
exit 0
