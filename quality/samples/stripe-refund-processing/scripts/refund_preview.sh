#!/usr/bin/env bash
# Read-only preview of how much of a Stripe payment can still be refunded.
#
#   usage: refund_preview.sh pi_123            # PaymentIntent
#          refund_preview.sh ch_123            # Charge
#
# Needs STRIPE_API_KEY in the environment, curl and jq. Makes GET requests only;
# it never creates, updates or cancels anything. The key is passed to curl on
# stdin so it does not appear in the process list.
set -euo pipefail

id="${1:-}"
if [[ -z "$id" || ! "$id" =~ ^(pi|ch)_[A-Za-z0-9]+$ ]]; then
  echo "usage: $0 <pi_... | ch_...>" >&2
  exit 2
fi
if [[ -z "${STRIPE_API_KEY:-}" ]]; then
  echo "STRIPE_API_KEY is not set; export it in your shell first." >&2
  exit 2
fi
for bin in curl jq; do
  command -v "$bin" >/dev/null || { echo "$bin is required" >&2; exit 2; }
done

case "$STRIPE_API_KEY" in
  sk_live_*|rk_live_*) mode="LIVE" ;;
  sk_test_*|rk_test_*) mode="test" ;;
  *) mode="unknown" ;;
esac

api_get() {
  # $1 = path, rest = extra curl args (query params with -d)
  local path="$1"; shift
  local body status
  body=$(printf 'user = "%s:"\n' "$STRIPE_API_KEY" \
    | curl -sS -G -K - -w '\n%{http_code}' "https://api.stripe.com${path}" "$@")
  status="${body##*$'\n'}"
  body="${body%$'\n'*}"
  if [[ "$status" != 2* ]]; then
    echo "Stripe API error (HTTP $status) for $path:" >&2
    jq -r '.error.message // .' <<<"$body" >&2
    exit 1
  fi
  printf '%s' "$body"
}

if [[ "$id" == pi_* ]]; then
  pi=$(api_get "/v1/payment_intents/$id" -d 'expand[]=latest_charge' -d 'expand[]=customer')
  charge=$(jq '.latest_charge' <<<"$pi")
  pi_status=$(jq -r '.status' <<<"$pi")
  customer=$(jq -r 'if (.customer|type)=="object" then "\(.customer.id) \(.customer.name // "") <\(.customer.email // "no email")>" else "none" end' <<<"$pi")
  refunds=$(api_get /v1/refunds -d payment_intent="$id" -d limit=100)
else
  charge=$(api_get "/v1/charges/$id")
  pi_status="(charge only)"
  customer=$(jq -r '.customer // "none"' <<<"$charge")
  refunds=$(api_get /v1/refunds -d charge="$id" -d limit=100)
fi

if [[ "$charge" == "null" ]]; then
  echo "Mode: $mode"
  echo "Payment $id has no charge yet (status: $pi_status). Nothing to refund."
  exit 0
fi

jq -r --arg mode "$mode" --arg pi_status "$pi_status" --arg customer "$customer" '
  def zero_decimal: ["bif","clp","djf","gnf","jpy","kmf","krw","mga","pyg","rwf","ugx","vnd","vuv","xaf","xof","xpf"];
  def fmt($minor; $cur):
    if (zero_decimal | index($cur)) then "\($minor) \($cur | ascii_upcase)"
    else "\($minor / 100 | floor).\($minor % 100 | tostring | if length == 1 then "0" + . else . end) \($cur | ascii_upcase)" end;
  . as $c
  | ($c.amount_captured // $c.amount) as $captured
  | ($captured - $c.amount_refunded) as $remaining
  | [
      "Mode:                 \($mode)",
      "Charge:               \($c.id) (\($c.status)), created \($c.created | todate)",
      "PaymentIntent status: \($pi_status)",
      "Customer:             \($customer)",
      "Amount captured:      \(fmt($captured; $c.currency)) (minor units: \($captured))",
      "Already refunded:     \(fmt($c.amount_refunded; $c.currency)) (minor units: \($c.amount_refunded))",
      "Refundable now:       \(fmt($remaining; $c.currency)) (minor units: \($remaining))",
      "Disputed:             \($c.disputed)"
    ] | .[]
' <<<"$charge"

count=$(jq '.data | length' <<<"$refunds")
echo "Existing refunds:     $count"
if (( count > 0 )); then
  jq -r '.data[] | "  \(.id)  \(.status)  \(.amount) \(.currency)  \(.reason // "-")  \(.created | todate)"' <<<"$refunds"
fi

if [[ "$(jq -r '.disputed' <<<"$charge")" == "true" ]]; then
  echo "WARNING: this charge is disputed. Do not refund; handle the dispute in the Dashboard." >&2
fi
