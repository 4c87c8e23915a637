#!/usr/bin/env bash
# Restore a pg_dump custom/directory-format backup into a NEW scratch database
# and print basic validation figures.
#
# Usage:
#   PGHOST=localhost PGPORT=55432 PGUSER=postgres \
#     ./verify_pg_restore.sh <dump-file-or-dir> <scratch-db-name> [table-with-created_at ...]
#
# Safety:
#   - refuses to run if PGHOST looks like production
#   - refuses to use a database that already exists
#   - never drops anything; cleanup is left to the operator
set -euo pipefail

if [[ $# -lt 2 ]]; then
  echo "usage: $0 <dump> <scratch-db-name> [table ...]" >&2
  exit 2
fi

dump=$1
db=$2
shift 2
tables=("$@")

host=${PGHOST:-localhost}
case "$host" in
  *prod*|*primary*|*master*)
    echo "refusing: PGHOST=$host looks like a production server" >&2
    exit 1
    ;;
esac

if [[ ! "$db" =~ ^restore_check_[A-Za-z0-9_]+$ ]]; then
  echo "refusing: scratch database name must start with restore_check_" >&2
  exit 1
fi

if psql -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '$db'" | grep -q 1; then
  echo "refusing: database $db already exists on $host; pick a new name" >&2
  exit 1
fi

echo "== TOC check"
toc_entries=$(pg_restore --list "$dump" | grep -c -v -e '^;' -e '^$')
echo "TOC entries: $toc_entries"

echo "== Restoring into $db on $host:${PGPORT:-5432}"
createdb "$db"
start=$(date +%s)
pg_restore --exit-on-error --no-owner --no-privileges \
  --jobs="${JOBS:-4}" --dbname="$db" "$dump"
elapsed=$(( $(date +%s) - start ))
echo "Restore time: ${elapsed}s"

echo "== Structure"
psql -d "$db" -tAc "
  SELECT table_schema, count(*)
  FROM information_schema.tables
  WHERE table_schema NOT IN ('pg_catalog', 'information_schema')
  GROUP BY 1 ORDER BY 1;"

echo "== Largest tables (exact row counts)"
psql -d "$db" -tA -F $'\t' -c "
  SELECT schemaname || '.' || relname
  FROM pg_stat_user_tables
  ORDER BY pg_total_relation_size(relid) DESC
  LIMIT 5;" |
while read -r t; do
  n=$(psql -d "$db" -tAc "SELECT count(*) FROM $t")
  printf '%-40s %s\n' "$t" "$n"
done

if [[ ${#tables[@]} -gt 0 ]]; then
  echo "== Recency"
  for t in "${tables[@]}"; do
    newest=$(psql -d "$db" -tAc "SELECT max(created_at) FROM $t")
    printf '%-40s newest created_at: %s\n' "$t" "$newest"
  done
fi

echo
echo "Done. Scratch database $db left in place for inspection."
echo "Remove it when finished:  dropdb $db"
