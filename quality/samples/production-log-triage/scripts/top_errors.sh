#!/usr/bin/env bash
# The most frequent error signatures of a deployment: type and message, ids and numbers normalised.
# Usage: top_errors.sh <namespace> <deployment> [window, default 2h]
set -euo pipefail

namespace="${1:?usage: top_errors.sh <namespace> <deployment> [window]}"
deployment="${2:?usage: top_errors.sh <namespace> <deployment> [window]}"
window="${3:-2h}"

kubectl -n "$namespace" logs "deploy/$deployment" --since="$window" --all-containers \
  | jq -rR 'fromjson? | select(.level == "error") | "\(.error.type // "unknown")\t\(.msg)"' \
  | sed -E 's/[0-9a-f]{8}-[0-9a-f-]{27}/<uuid>/g; s/[0-9]+/<n>/g' \
  | sort | uniq -c | sort -rn | head -20
