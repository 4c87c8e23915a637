#!/usr/bin/env python3
"""Build a dunning send list from an AR aging / open-invoice CSV export.

Writes, into --out-dir:
  send_list.csv  one row per (customer, currency) that should get a reminder
  excluded.csv   every open invoice that was left out, with the reason

The script never sends anything. See SKILL.md for the approval process.

Example:
  build_send_list.py aging.csv --as-of 2024-06-20 --exclude dnc.csv \
      --unapplied unapplied.csv --min-amount 25 --out-dir dunning_2024-06-20
"""

import argparse
import csv
import datetime as dt
import os
import re
import sys
from collections import defaultdict
from decimal import Decimal, InvalidOperation

REQUIRED = ["customer_id", "customer_name", "contact_email", "invoice_number",
            "due_date", "open_amount", "currency"]
TRUTHY = {"y", "yes", "true", "1", "x"}
EMAIL_RE = re.compile(r"^[^@\s,;]+@[^@\s,;]+\.[^@\s,;]+$")
TIERS = [(1, 15, "friendly"), (16, 45, "firm"), (46, None, "final")]


def parse_amount(text):
    cleaned = (text or "").strip().replace(",", "").replace(" ", "")
    if cleaned.startswith("(") and cleaned.endswith(")"):  # accounting negative
        cleaned = "-" + cleaned[1:-1]
    return Decimal(cleaned)


def tier_for(days):
    for low, high, name in TIERS:
        if days >= low and (high is None or days <= high):
            return name
    return None


def read_id_file(path):
    """Return {customer_id: reason} from a CSV with customer_id[,reason]."""
    result = {}
    if not path:
        return result
    with open(path, newline="", encoding="utf-8-sig") as fh:
        reader = csv.DictReader(fh)
        fields = {f.lower().strip(): f for f in (reader.fieldnames or [])}
        if "customer_id" not in fields:
            sys.exit(f"error: {path} needs a customer_id column")
        for row in reader:
            cid = (row[fields["customer_id"]] or "").strip()
            if cid:
                reason = (row.get(fields.get("reason", ""), "") or "").strip()
                result[cid] = reason
    return result


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("aging_csv")
    ap.add_argument("--as-of", required=True, help="date the aging is measured against (YYYY-MM-DD)")
    ap.add_argument("--exclude", help="CSV of customer_id,reason not to contact this cycle")
    ap.add_argument("--unapplied", help="CSV of customer_id with cash received but not yet applied")
    ap.add_argument("--min-amount", type=Decimal, default=Decimal("0"),
                    help="skip customer/currency groups whose net overdue total is below this")
    ap.add_argument("--out-dir", required=True)
    args = ap.parse_args(argv)

    as_of = dt.date.fromisoformat(args.as_of)
    do_not_contact = read_id_file(args.exclude)
    unapplied = read_id_file(args.unapplied)

    excluded = []
    groups = defaultdict(list)        # (customer_id, currency) -> overdue invoice dicts
    credits = defaultdict(Decimal)    # (customer_id, currency) -> sum of negative amounts
    meta = {}                         # customer_id -> (name, email)
    disputed = set()                  # customers with at least one disputed invoice

    with open(args.aging_csv, newline="", encoding="utf-8-sig") as fh:
        reader = csv.DictReader(fh)
        colmap = {f.lower().strip(): f for f in (reader.fieldnames or [])}
        missing = [c for c in REQUIRED if c not in colmap]
        if missing:
            sys.exit(f"error: aging CSV is missing columns: {', '.join(missing)}")

        def get(row, name):
            key = colmap.get(name)
            return (row.get(key) or "").strip() if key else ""

        for lineno, row in enumerate(reader, 2):
            cid = get(row, "customer_id")
            inv = get(row, "invoice_number")
            cur = get(row, "currency").upper()
            base = {"customer_id": cid, "customer_name": get(row, "customer_name"),
                    "invoice_number": inv, "currency": cur, "open_amount": get(row, "open_amount")}
            try:
                amount = parse_amount(get(row, "open_amount"))
                due = dt.date.fromisoformat(get(row, "due_date"))
            except (InvalidOperation, ValueError):
                excluded.append({**base, "reason": "unparseable amount or due_date",
                                 "detail": f"line {lineno}"})
                continue
            meta.setdefault(cid, (get(row, "customer_name"), get(row, "contact_email")))

            if amount < 0:
                credits[(cid, cur)] += amount
                excluded.append({**base, "reason": "credit memo",
                                 "detail": "netted against this customer's overdue invoices"})
                continue
            if amount == 0:
                continue
            days = (as_of - due).days
            if days < 1:
                continue  # not overdue; not an exclusion, just not in scope
            if cid in do_not_contact:
                excluded.append({**base, "reason": "do-not-contact",
                                 "detail": do_not_contact[cid] or "no reason given"})
            elif get(row, "dispute").lower() in TRUTHY:
                excluded.append({**base, "reason": "invoice disputed"})
                disputed.add(cid)
            elif get(row, "payment_plan").lower() in TRUTHY:
                excluded.append({**base, "reason": "on payment plan"})
            elif cid in unapplied:
                excluded.append({**base, "reason": "customer has unapplied cash"})
            else:
                groups[(cid, cur)].append({"invoice_number": inv, "due_date": due.isoformat(),
                                           "days": days, "amount": amount})

    send_rows = []
    for (cid, cur), invoices in sorted(groups.items()):
        name, email = meta[cid]
        gross = sum((i["amount"] for i in invoices), Decimal("0"))
        net = gross + credits.get((cid, cur), Decimal("0"))
        base = {"customer_id": cid, "customer_name": name, "currency": cur,
                "invoice_number": ";".join(i["invoice_number"] for i in invoices),
                "open_amount": str(net)}
        if net <= 0:
            excluded.append({**base, "reason": "net credit balance after credit memos"})
            continue
        if net < args.min_amount:
            excluded.append({**base, "reason": "below minimum amount",
                             "detail": f"minimum {args.min_amount}"})
            continue
        if not EMAIL_RE.match(email or ""):
            excluded.append({**base, "reason": "missing or invalid contact_email",
                             "detail": repr(email)})
            continue
        oldest = max(i["days"] for i in invoices)
        send_rows.append({
            "customer_id": cid, "customer_name": name, "contact_email": email,
            "currency": cur, "n_invoices": len(invoices), "gross_overdue": str(gross),
            "credits_applied": str(credits.get((cid, cur), Decimal("0"))),
            "total_open": str(net), "oldest_days_overdue": oldest, "tier": tier_for(oldest),
            "requires_named_approval": "yes" if tier_for(oldest) == "final" else "no",
            "has_disputed_invoices": "yes" if cid in disputed else "no",
            "invoices": ";".join(f"{i['invoice_number']}|{i['due_date']}|{i['amount']}"
                                 for i in sorted(invoices, key=lambda i: i["due_date"])),
        })

    os.makedirs(args.out_dir, exist_ok=True)
    send_path = os.path.join(args.out_dir, "send_list.csv")
    excl_path = os.path.join(args.out_dir, "excluded.csv")
    send_fields = ["customer_id", "customer_name", "contact_email", "currency", "n_invoices",
                   "gross_overdue", "credits_applied", "total_open", "oldest_days_overdue",
                   "tier", "requires_named_approval", "has_disputed_invoices", "invoices"]
    with open(send_path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=send_fields)
        writer.writeheader()
        writer.writerows(send_rows)
    with open(excl_path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=["customer_id", "customer_name", "invoice_number",
                                                "currency", "open_amount", "reason", "detail"],
                                restval="")
        writer.writeheader()
        writer.writerows(excluded)

    print(f"as of {as_of}: {len(send_rows)} reminder(s) to prepare, {len(excluded)} excluded row(s)")
    by_tier = defaultdict(lambda: defaultdict(Decimal))
    counts = defaultdict(int)
    for r in send_rows:
        by_tier[r["tier"]][r["currency"]] += Decimal(r["total_open"])
        counts[r["tier"]] += 1
    for _low, _high, name in TIERS:
        if counts[name]:
            totals = "; ".join(f"{cur} {amt:,.2f}" for cur, amt in sorted(by_tier[name].items()))
            print(f"  {name:<9} {counts[name]:>4} customer(s)  {totals}")
    reasons = defaultdict(int)
    for e in excluded:
        reasons[e["reason"]] += 1
    for reason, n in sorted(reasons.items(), key=lambda kv: -kv[1]):
        print(f"  excluded: {n:>4} x {reason}")
    print(f"wrote {send_path}\nwrote {excl_path}\nNothing has been sent.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
