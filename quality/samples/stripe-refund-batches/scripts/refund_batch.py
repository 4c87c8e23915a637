#!/usr/bin/env python3
"""Validate and (optionally) execute a batch of Stripe refunds from a CSV.

Default is a read-only dry run. --execute creates refunds; with a live key
it also requires --live and an interactive confirmation.

CSV columns: payment_intent, amount (minor units, blank = all refundable),
currency, reason (duplicate | fraudulent | requested_by_customer | blank), note

Reads the API key from STRIPE_API_KEY.
"""
from __future__ import annotations

import argparse
import csv
import os
import sys
from collections import defaultdict
from dataclasses import dataclass, field

import stripe

VALID_REASONS = {"", "duplicate", "fraudulent", "requested_by_customer"}
# Newer stripe-python exports errors at top level; older versions only in stripe.error.
StripeError = getattr(stripe, "StripeError", None) or stripe.error.StripeError


@dataclass
class Row:
    line: int
    payment_intent: str
    amount: int | None
    currency: str
    reason: str
    note: str
    refund_amount: int = 0
    skip: str = ""
    result: dict = field(default_factory=dict)


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("csv_file")
    p.add_argument("--batch-id", required=True,
                   help="stable ID for this batch; part of every idempotency key")
    p.add_argument("--execute", action="store_true", help="create refunds (default: dry run)")
    p.add_argument("--live", action="store_true", help="required with --execute for live keys")
    p.add_argument("--results", help="write per-row results to this CSV")
    return p.parse_args()


def key_mode(key: str) -> str:
    if key.startswith(("sk_live_", "rk_live_")):
        return "live"
    if key.startswith(("sk_test_", "rk_test_")):
        return "test"
    sys.exit("STRIPE_API_KEY doesn't look like a Stripe secret or restricted key")


def load_rows(path: str) -> list[Row]:
    rows, seen = [], set()
    with open(path, newline="", encoding="utf-8") as fh:
        reader = csv.DictReader(fh)
        missing = {"payment_intent", "amount", "currency"} - set(reader.fieldnames or [])
        if missing:
            sys.exit(f"CSV is missing columns: {', '.join(sorted(missing))}")
        for n, rec in enumerate(reader, start=2):
            pi = (rec.get("payment_intent") or "").strip()
            raw_amount = (rec.get("amount") or "").strip()
            row = Row(
                line=n,
                payment_intent=pi,
                amount=None,
                currency=(rec.get("currency") or "").strip().lower(),
                reason=(rec.get("reason") or "").strip(),
                note=(rec.get("note") or "").strip(),
            )
            if not pi.startswith("pi_"):
                row.skip = "not a PaymentIntent ID"
            elif pi in seen:
                row.skip = "duplicate row for this payment"
            elif row.reason not in VALID_REASONS:
                row.skip = f"invalid reason {row.reason!r}"
            elif raw_amount:
                if not raw_amount.isdigit() or int(raw_amount) <= 0:
                    row.skip = f"invalid amount {raw_amount!r}"
                else:
                    row.amount = int(raw_amount)
            seen.add(pi)
            rows.append(row)
    return rows


def validate(row: Row, batch_id: str) -> None:
    """Fill in refund_amount or skip, using live data from Stripe (read-only)."""
    if row.skip:
        return
    try:
        pi = stripe.PaymentIntent.retrieve(row.payment_intent, expand=["latest_charge"])
        earlier = stripe.Refund.list(payment_intent=row.payment_intent, limit=100)
    except StripeError as exc:
        row.skip = f"lookup failed: {exc.user_message or exc}"
        return
    for refund in earlier.auto_paging_iter():
        if (refund.metadata or {}).get("batch_id") == batch_id and refund.status != "failed" \
                and refund.status != "canceled":
            row.skip = f"already refunded in this batch ({refund.id}, {refund.status})"
            return
    charge = pi.latest_charge
    if pi.status != "succeeded" or charge is None:
        row.skip = f"payment status is {pi.status}"
        return
    if row.currency != pi.currency:
        row.skip = f"currency is {pi.currency}, CSV says {row.currency or 'nothing'}"
        return
    if charge.disputed:
        row.skip = "charge is disputed"
        return
    refundable = charge.amount - charge.amount_refunded
    if refundable <= 0:
        row.skip = "already fully refunded"
        return
    if row.amount is not None and row.amount > refundable:
        row.skip = f"amount {row.amount} exceeds refundable {refundable}"
        return
    row.refund_amount = row.amount if row.amount is not None else refundable


def print_plan(rows: list[Row]) -> dict[str, int]:
    totals: dict[str, int] = defaultdict(int)
    print(f"{'line':>4}  {'payment_intent':<30} {'amount':>10} cur  note")
    for r in rows:
        if r.skip:
            continue
        totals[r.currency] += r.refund_amount
        print(f"{r.line:>4}  {r.payment_intent:<30} {r.refund_amount:>10} {r.currency}  {r.note}")
    skipped = [r for r in rows if r.skip]
    if skipped:
        print("\nSkipped:")
        for r in skipped:
            print(f"{r.line:>4}  {r.payment_intent or '<blank>':<30} {r.skip}")
    print("\nTotals (minor units):")
    for cur, total in sorted(totals.items()):
        print(f"  {cur}: {total}")
    return totals


def execute(row: Row, batch_id: str) -> None:
    key = f"{batch_id}:{row.payment_intent}:{row.refund_amount}"
    params = {"payment_intent": row.payment_intent, "amount": row.refund_amount,
              "metadata": {"batch_id": batch_id, "note": row.note[:500]}}
    if row.reason:
        params["reason"] = row.reason
    try:
        refund = stripe.Refund.create(idempotency_key=key, **params)
        row.result = {"refund_id": refund.id, "status": refund.status, "error": ""}
    except StripeError as exc:
        row.result = {"refund_id": "", "status": "error", "error": str(exc.user_message or exc)}


def write_results(path: str, rows: list[Row]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["line", "payment_intent", "amount", "currency", "refund_id", "status", "detail"])
        for r in rows:
            if r.skip:
                w.writerow([r.line, r.payment_intent, "", r.currency, "", "skipped", r.skip])
            else:
                w.writerow([r.line, r.payment_intent, r.refund_amount, r.currency,
                            r.result.get("refund_id", ""), r.result.get("status", "not run"),
                            r.result.get("error", "")])


def main() -> int:
    args = parse_args()
    api_key = os.environ.get("STRIPE_API_KEY", "")
    if not api_key:
        sys.exit("STRIPE_API_KEY is not set")
    mode = key_mode(api_key)
    stripe.api_key = api_key

    rows = load_rows(args.csv_file)
    for r in rows:
        validate(r, args.batch_id)

    print(f"Batch {args.batch_id} | {mode} mode | {'EXECUTE' if args.execute else 'DRY RUN'}\n")
    print_plan(rows)
    to_run = [r for r in rows if not r.skip]

    if not args.execute:
        print("\nDry run: no refunds created.")
        if args.results:
            write_results(args.results, rows)
        return 0

    if mode == "live" and not args.live:
        sys.exit("\nThis is a live key. Add --live to confirm you mean to move real money.")
    if not to_run:
        print("\nNothing to refund.")
        return 0

    expected = f"refund {len(to_run)}"
    answer = input(f"\nType '{expected}' to create {len(to_run)} {mode}-mode refunds: ")
    if answer.strip() != expected:
        print("Aborted; nothing was refunded.")
        return 1

    for r in to_run:
        execute(r, args.batch_id)
        print(f"{r.line:>4}  {r.payment_intent}  {r.result['status']}  "
              f"{r.result['refund_id'] or r.result['error']}")

    if args.results:
        write_results(args.results, rows)
        print(f"\nResults written to {args.results}")
    bad = [r for r in to_run if r.result.get("status") in {"error", "failed", "requires_action"}]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
