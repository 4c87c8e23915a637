#!/usr/bin/env bash
# prune-snapshots.sh - delete old ZFS snapshots of ONE dataset, by prefix.
#
#   prune-snapshots.sh [--keep N] [--protect NAME]... [--apply --confirm DATASET] DATASET PREFIX
#
# Default is a dry run: every candidate is passed to `zfs destroy -nv`, which
# prints what would go and how much space it would reclaim, and nothing is
# destroyed. With --apply, --confirm must repeat the dataset name exactly.
#
# Guarantees:
#   * only snapshots directly on DATASET (never children: no -r, no -R)
#   * only snapshots whose name after '@' starts with PREFIX
#   * the newest N matching snapshots are kept (default 7, minimum 1)
#   * snapshots with user holds are skipped
#   * names given with --protect are skipped (e.g. the last snapshot that
#     the backup target also has, so incremental send keeps working)
#   * every destroy argument is checked to contain '@' before it runs

set -euo pipefail

keep=7
apply=0
confirm=""
protect=()

usage() { sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
die() { echo "error: $*" >&2; exit 2; }

while [[ $# -gt 0 ]]; do
  case "$1" in
    --keep)    keep="${2:?}"; shift 2 ;;
    --protect) protect+=("${2:?}"); shift 2 ;;
    --apply)   apply=1; shift ;;
    --confirm) confirm="${2:?}"; shift 2 ;;
    -h|--help) usage ;;
    --) shift; break ;;
    -*) die "unknown option $1" ;;
    *) break ;;
  esac
done

[[ $# -eq 2 ]] || usage
dataset="$1"
prefix="$2"

[[ -n "$dataset" && "$dataset" != *@* && "$dataset" != */ ]] \
  || die "DATASET must be a filesystem or volume name without '@'"
[[ -n "$prefix" ]] || die "PREFIX must not be empty (it would match every snapshot)"
[[ "$keep" =~ ^[0-9]+$ && "$keep" -ge 1 ]] || die "--keep must be a whole number >= 1"
command -v zfs >/dev/null || die "zfs not found"
zfs list -H -o name "$dataset" >/dev/null 2>&1 || die "no such dataset: $dataset"

if [[ $apply -eq 1 && "$confirm" != "$dataset" ]]; then
  die "--apply needs --confirm $dataset (typed exactly)"
fi

# Oldest first. -d 1 limits the listing to this dataset's own snapshots.
mapfile -t matching < <(
  zfs list -H -p -t snapshot -o name -s creation -d 1 "$dataset" |
    awk -v pfx="$dataset@$prefix" 'index($0, pfx) == 1'
)

total=${#matching[@]}
if (( total <= keep )); then
  echo "$total snapshot(s) match '$dataset@$prefix*'; keeping all (--keep $keep)."
  exit 0
fi

candidates=("${matching[@]:0:total-keep}")
echo "$total match, keeping newest $keep, considering ${#candidates[@]} for removal."
[[ $apply -eq 1 ]] && echo "MODE: APPLY" || echo "MODE: dry run (nothing will be destroyed)"
echo

destroyed=0 skipped=0
for snap in "${candidates[@]}"; do
  [[ "$snap" == "$dataset@"* ]] || die "refusing unexpected name: $snap"

  for p in "${protect[@]+"${protect[@]}"}"; do
    if [[ "$snap" == "$p" || "${snap#*@}" == "$p" ]]; then
      echo "skip (protected): $snap"; skipped=$((skipped + 1)); continue 2
    fi
  done

  if [[ -n "$(zfs holds -H "$snap" 2>/dev/null)" ]]; then
    echo "skip (held):      $snap"; skipped=$((skipped + 1)); continue
  fi

  if [[ $apply -eq 1 ]]; then
    zfs destroy -v "$snap"
    destroyed=$((destroyed + 1))
  else
    zfs destroy -nv "$snap"
  fi
done

echo
if [[ $apply -eq 1 ]]; then
  echo "Destroyed $destroyed, skipped $skipped."
else
  echo "Dry run complete; skipped $skipped. Re-run with --apply --confirm $dataset to destroy."
fi
