#!/usr/bin/env bash
# Drop, recreate, migrate and seed the LOCAL development database.
# Refuses to run against anything that doesn't look like a local dev/test DB.
#
# Usage: reset-dev-db.sh [--dry-run] [--yes]
# Env:   DATABASE_URL (or read from ./.env), MIGRATE_CMD, SEED_CMD
set -euo pipefail

dry_run=0
assume_yes=0
for arg in "$@"; do
  case "$arg" in
    --dry-run) dry_run=1 ;;
    --yes)     assume_yes=1 ;;
    *) echo "usage: $0 [--dry-run] [--yes]" >&2; exit 2 ;;
  esac
done

die() { echo "refusing: $*" >&2; exit 1; }

if [[ -z "${DATABASE_URL:-}" && -f .env ]]; then
  DATABASE_URL=$(grep -E '^DATABASE_URL=' .env | tail -1 | cut -d= -f2- | tr -d '"'"'")
fi
[[ -n "${DATABASE_URL:-}" ]] || die "DATABASE_URL is not set and not found in .env"
export DATABASE_URL   # so the migrate/seed commands see the same database

for var in APP_ENV RAILS_ENV NODE_ENV; do
  val="${!var:-}"
  case "${val,,}" in
    prod|production|staging) die "$var=$val" ;;
  esac
done

# postgres://user:pass@host:port/dbname?params
url="${DATABASE_URL%%\?*}"
query=""
[[ "$DATABASE_URL" == *\?* ]] && query="${DATABASE_URL#*\?}"
[[ "$url" =~ ^postgres(ql)?:// ]] || die "DATABASE_URL is not a postgres:// URL"
rest="${url#*://}"
[[ "$rest" == */* ]] || die "no database name in DATABASE_URL"
authority="${rest%/*}"
dbname="${rest##*/}"
[[ -n "$dbname" ]] || die "no database name in DATABASE_URL"
hostport="${authority##*@}"
if [[ "$hostport" == \[* ]]; then          # [::1]:5432
  host="${hostport%%]*}"; host="${host#[}"
else
  host="${hostport%%:*}"
fi

# host=/hostaddr= in the query string override the URL host.
IFS='&' read -r -a params <<<"$query"
for kv in "${params[@]}"; do
  case "$kv" in
    host=*|hostaddr=*) host="${kv#*=}" ;;
  esac
done
# With no host at all, libpq falls back to PGHOST.
if [[ -z "$host" && -n "${PGHOST:-}" ]]; then
  host="$PGHOST"
fi

case "$host" in
  ""|/*|%2F*|%2f*) ;;                  # Unix socket (default or explicit directory)
  localhost|127.0.0.1|::1|db) ;;
  *) die "host '$host' is not local" ;;
esac

[[ "$dbname" =~ _(dev|development|test)$ ]] \
  || die "database '$dbname' doesn't end in _dev, _development or _test"

# Same connection, but to the maintenance database, for dropdb/createdb.
admin_url="${url%/*}/postgres${query:+?$query}"
migrate_cmd="${MIGRATE_CMD:-make migrate}"
seed_cmd="${SEED_CMD:-make seed}"

echo "Database: $dbname on ${host:-local socket}"
echo "Will run: dropdb, createdb, '$migrate_cmd', '$seed_cmd'"

if [[ $dry_run -eq 1 ]]; then
  echo "Dry run: nothing changed."
  exit 0
fi

if [[ $assume_yes -ne 1 ]]; then
  read -r -p "Drop and recreate '$dbname'? All data in it will be lost. [y/N] " answer
  [[ "$answer" =~ ^[Yy]$ ]] || { echo "Aborted."; exit 1; }
fi

server_version_num=$(psql "$admin_url" -Atc 'SHOW server_version_num')
force_flag=()
if (( server_version_num >= 130000 )); then
  force_flag=(--force)
fi

dropdb --if-exists "${force_flag[@]}" --maintenance-db="$admin_url" "$dbname"
createdb --maintenance-db="$admin_url" "$dbname"
echo "Recreated $dbname."

echo "Running: $migrate_cmd"
bash -c "$migrate_cmd"
echo "Running: $seed_cmd"
bash -c "$seed_cmd"

echo "Done."
