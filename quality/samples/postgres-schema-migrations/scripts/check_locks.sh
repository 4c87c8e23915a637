#!/usr/bin/env bash
# Prints queries that have waited on a lock for more than one second, every two seconds.
# Usage: scripts/check_locks.sh [DATABASE_URL]
set -euo pipefail

url="${1:-${DATABASE_URL:?set DATABASE_URL or pass a connection string}}"

while true; do
  psql "$url" --no-psqlrc --quiet --tuples-only --command "
    SELECT now()::time(0), pid, wait_event_type, left(query, 120),
           now() - query_start AS waiting
    FROM pg_stat_activity
    WHERE wait_event_type = 'Lock'
      AND now() - query_start > interval '1 second'
    ORDER BY query_start;"
  sleep 2
done
