#!/usr/bin/env bash
# Read-only RabbitMQ snapshot: per-queue depths and consumers, plus active alarms.
# Usage: queue_snapshot.sh [vhost]        (default vhost: /)
# Output: rmq-snapshots/<UTC timestamp>.tsv, and the 15 deepest queues on stdout.
# Run on a broker node (needs rabbitmqctl and rabbitmq-diagnostics on PATH).
set -euo pipefail

vhost="${1:-/}"
outdir="rmq-snapshots"
ts="$(date -u +%Y%m%dT%H%M%SZ)"
out="$outdir/$ts.tsv"

mkdir -p "$outdir"

{
  printf '# snapshot %s vhost=%s\n' "$ts" "$vhost"
  printf 'name\ttype\tmessages_ready\tmessages_unacknowledged\tconsumers\n'
  rabbitmqctl -q list_queues -p "$vhost" --no-table-headers \
    name type messages_ready messages_unacknowledged consumers
} > "$out"

echo "Saved $out"
echo
echo "Deepest queues (ready + unacked):"
grep -v '^#' "$out" | tail -n +2 \
  | awk -F'\t' '{ printf "%d\t%s\t%s\t%s\t%s\n", $3 + $4, $1, $3, $4, $5 }' \
  | sort -rn | head -15 \
  | awk -F'\t' 'BEGIN { printf "%-40s %12s %12s %9s\n", "queue", "ready", "unacked", "consumers" }
                { printf "%-40s %12s %12s %9s\n", $2, $3, $4, $5 }'

echo
echo "Alarms:"
rabbitmq-diagnostics -q alarms || echo "(could not read alarms)"
