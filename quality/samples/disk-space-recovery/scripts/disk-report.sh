#!/usr/bin/env bash
# Read-only disk usage report for one filesystem. Changes nothing.
# Usage: sudo bash disk-report.sh [MOUNTPOINT]   (default: /)
set -uo pipefail

target="${1:-/}"
big_file_size="${BIG_FILE_SIZE:-+500M}"

if [[ ! -d "$target" ]]; then
  echo "error: $target is not a directory" >&2
  exit 2
fi

section() { printf '\n=== %s ===\n' "$1"; }

section "Block usage"
df -h "$target"

section "Inode usage"
df -i "$target"

section "Largest directories on this filesystem (depth 2)"
du -xh --max-depth=2 "$target" 2>/dev/null | sort -rh | head -25

section "Files larger than ${big_file_size#+} on this filesystem"
find "$target" -xdev -type f -size "$big_file_size" -printf '%s\t%TY-%Tm-%Td\t%p\n' 2>/dev/null \
  | sort -rn | head -20 \
  | awk -F'\t' '{ printf "%8.1f MB  %s  %s\n", $1/1048576, $2, $3 }'

section "journald"
if command -v journalctl >/dev/null 2>&1; then
  journalctl --disk-usage 2>/dev/null || echo "(could not read journal usage)"
else
  echo "(journalctl not present)"
fi

section "Deleted files still held open (>100 MB)"
if command -v lsof >/dev/null 2>&1; then
  lsof -nP +L1 2>/dev/null | awk 'NR==1 || $7 > 100000000' || true
else
  echo "(lsof not installed; try: find /proc/*/fd -lname '*(deleted)' 2>/dev/null)"
fi

section "Package caches"
for d in /var/cache/apt/archives /var/cache/dnf /var/cache/yum; do
  [[ -d "$d" ]] && du -sh "$d" 2>/dev/null
done

echo
echo "Report complete. Nothing was modified."
