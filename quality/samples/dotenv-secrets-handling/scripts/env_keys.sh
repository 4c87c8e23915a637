#!/usr/bin/env bash
# List the variable names in a dotenv file and whether each has a value,
# without ever printing the values themselves.
# Usage: env_keys.sh [path/to/.env]
set -euo pipefail

file="${1:-.env}"
if [[ ! -f "$file" ]]; then
  echo "no such file: $file" >&2
  exit 1
fi

while IFS= read -r line || [[ -n "$line" ]]; do
  # skip blanks and comments
  [[ "$line" =~ ^[[:space:]]*(#|$) ]] && continue
  line="${line#export }"
  name="${line%%=*}"
  if [[ "$line" != *=* ]]; then
    printf '%-32s %s\n' "$name" "NO '=' (malformed)"
    continue
  fi
  value="${line#*=}"
  # strip one layer of surrounding quotes for the length count
  value="${value%\"}"; value="${value#\"}"
  value="${value%\'}"; value="${value#\'}"
  if [[ -z "$value" ]]; then
    printf '%-32s %s\n' "$name" "EMPTY"
  else
    printf '%-32s set (%d chars)\n' "$name" "${#value}"
  fi
done < "$file"
