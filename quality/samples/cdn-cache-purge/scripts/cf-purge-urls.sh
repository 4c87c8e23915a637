#!/usr/bin/env bash
# Purge a list of URLs from Cloudflare's cache, in batches.
#
# Usage:
#   CLOUDFLARE_API_TOKEN=... cf-purge-urls.sh --zone ZONE_ID [--dry-run] [--yes] URL_FILE
#
# URL_FILE has one absolute URL per line; blank lines and lines starting
# with # are ignored. Without --yes the script shows the batches and asks
# for confirmation before sending anything.
set -euo pipefail

BATCH_SIZE="${BATCH_SIZE:-30}"   # per-request URL limit on most plans
zone=""
dry_run=0
assume_yes=0
url_file=""

usage() { sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }

while [[ $# -gt 0 ]]; do
  case "$1" in
    --zone)    zone="${2:-}"; shift 2 ;;
    --dry-run) dry_run=1; shift ;;
    --yes)     assume_yes=1; shift ;;
    -h|--help) usage ;;
    -*)        echo "unknown option: $1" >&2; usage ;;
    *)         url_file="$1"; shift ;;
  esac
done

[[ -n "$zone" && -n "$url_file" ]] || usage
[[ -r "$url_file" ]] || { echo "cannot read $url_file" >&2; exit 2; }
command -v jq >/dev/null || { echo "jq is required" >&2; exit 2; }

mapfile -t urls < <(grep -vE '^[[:space:]]*(#|$)' "$url_file" | sed 's/[[:space:]]*$//')

if [[ ${#urls[@]} -eq 0 ]]; then
  echo "no URLs in $url_file" >&2
  exit 1
fi

bad=0
for u in "${urls[@]}"; do
  if [[ ! "$u" =~ ^https?:// ]]; then
    echo "not an absolute URL: $u" >&2
    bad=1
  fi
done
[[ $bad -eq 0 ]] || exit 1

batches=$(( (${#urls[@]} + BATCH_SIZE - 1) / BATCH_SIZE ))
echo "Zone:    $zone"
echo "URLs:    ${#urls[@]} in $batches batch(es) of up to $BATCH_SIZE"
printf '  %s\n' "${urls[@]}"

if [[ $dry_run -eq 1 ]]; then
  echo "Dry run: nothing sent."
  exit 0
fi

if [[ -z "${CLOUDFLARE_API_TOKEN:-}" ]]; then
  echo "CLOUDFLARE_API_TOKEN is not set" >&2
  exit 2
fi

if [[ $assume_yes -ne 1 ]]; then
  read -r -p "Purge these ${#urls[@]} URLs from zone $zone? [y/N] " answer
  [[ "$answer" =~ ^[Yy]$ ]] || { echo "Aborted."; exit 1; }
fi

failed=0
for (( i = 0; i < ${#urls[@]}; i += BATCH_SIZE )); do
  batch=("${urls[@]:i:BATCH_SIZE}")
  body=$(printf '%s\n' "${batch[@]}" | jq -R . | jq -s '{files: .}')
  response=$(curl -sS -X POST \
    "https://api.cloudflare.com/client/v4/zones/${zone}/purge_cache" \
    -H "Authorization: Bearer ${CLOUDFLARE_API_TOKEN}" \
    -H "Content-Type: application/json" \
    --data "$body")
  if [[ "$(jq -r '.success' <<<"$response")" == "true" ]]; then
    echo "batch $(( i / BATCH_SIZE + 1 )): ok (${#batch[@]} URLs)"
  else
    echo "batch $(( i / BATCH_SIZE + 1 )): FAILED" >&2
    jq -c '.errors' <<<"$response" >&2
    failed=1
  fi
  sleep 1   # stay well under the API rate limit
done

exit "$failed"
