#!/usr/bin/env bash
# List every key in an authorized_keys file with its line number and
# fingerprint, so removals can be made by line after a human has reviewed them.
#
# Usage: audit_keys.sh [AUTHORIZED_KEYS_FILE]
#        (default: ~/.ssh/authorized_keys)
#
# Output (tab-separated):
#   LINE  BITS  FINGERPRINT  TYPE  OPTIONS  DUP  COMMENT
# OPTIONS is "yes" when the line starts with options such as from=, command=,
# restrict. DUP names the first line that carries the same key, if any.
# This script only reads; it never modifies the file.
set -euo pipefail

file="${1:-$HOME/.ssh/authorized_keys}"

if [[ ! -r "$file" ]]; then
  echo "cannot read $file" >&2
  exit 1
fi

tmp="$(mktemp)"
trap 'rm -f "$tmp"' EXIT

declare -A seen=()
lineno=0
printf 'LINE\tBITS\tFINGERPRINT\tTYPE\tOPTIONS\tDUP\tCOMMENT\n'

while IFS= read -r line || [[ -n "$line" ]]; do
  lineno=$((lineno + 1))
  # Skip blank lines and comments.
  [[ -z "${line//[[:space:]]/}" ]] && continue
  [[ "$line" =~ ^[[:space:]]*# ]] && continue

  printf '%s\n' "$line" > "$tmp"
  if ! out="$(ssh-keygen -lf "$tmp" 2>/dev/null)"; then
    printf '%s\t-\t-\tUNPARSEABLE\t-\t-\t-\n' "$lineno"
    continue
  fi

  # ssh-keygen prints: BITS FINGERPRINT COMMENT... (TYPE)
  bits="${out%% *}"
  rest="${out#* }"
  fpr="${rest%% *}"
  rest="${rest#* }"
  ktype="${rest##*(}"
  ktype="${ktype%)}"
  comment="${rest% (*}"
  [[ "$comment" == "$rest" ]] && comment=""

  if [[ "$line" =~ ^[[:space:]]*(ssh-|ecdsa-|sk-) ]]; then
    opts="no"
  else
    opts="yes"
  fi

  dup="-"
  if [[ -n "${seen[$fpr]:-}" ]]; then
    dup="${seen[$fpr]}"
  else
    seen[$fpr]="$lineno"
  fi

  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
    "$lineno" "$bits" "$fpr" "$ktype" "$opts" "$dup" "$comment"
done < "$file"
