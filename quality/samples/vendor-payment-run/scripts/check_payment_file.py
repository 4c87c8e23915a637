#!/usr/bin/env python3
"""Sanity-check a vendor payment run before it goes to an approver.

Usage:
    python check_payment_file.py run.csv [--vendors vendor_master.csv] [--history paid.csv]

run.csv columns (header row required):
    vendor_id, vendor_name, invoice_number, invoice_date, due_date, amount, currency, iban
vendor_master.csv columns:
    vendor_id, iban
paid.csv (previous payments) columns:
    vendor_id, invoice_number, amount, currency, paid_date

Exit status: 0 if no blocking issues, 1 if any, 2 on bad input.
This script only reads files. It never contacts a bank or changes anything.
"""
import argparse
import csv
import re
import sys
from collections import defaultdict
from decimal import Decimal, InvalidOperation

REQUIRED = ["vendor_id", "vendor_name", "invoice_number", "amount", "currency", "iban"]


def norm_invoice(num: str) -> str:
    """'INV-001043', 'inv 1043' and '1043' all normalise to '1043'."""
    digits = re.sub(r"\D", "", num or "")
    return digits.lstrip("0") or (num or "").strip().upper()


def norm_iban(iban: str) -> str:
    return re.sub(r"\s+", "", iban or "").upper()


def iban_ok(iban: str) -> bool:
    iban = norm_iban(iban)
    if not re.fullmatch(r"[A-Z]{2}\d{2}[A-Z0-9]{10,30}", iban):
        return False
    rearranged = iban[4:] + iban[:4]
    numeric = "".join(str(int(c, 36)) for c in rearranged)
    return int(numeric) % 97 == 1


def read_csv(path, required):
    try:
        with open(path, newline="", encoding="utf-8-sig") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        print(f"error: cannot read {path}: {e}", file=sys.stderr)
        sys.exit(2)
    if rows:
        missing = [c for c in required if c not in rows[0]]
        if missing:
            print(f"error: {path} is missing columns: {', '.join(missing)}", file=sys.stderr)
            sys.exit(2)
    return rows


def parse_amount(raw):
    try:
        return Decimal(str(raw).replace(",", "").strip())
    except InvalidOperation:
        return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run")
    ap.add_argument("--vendors", help="vendor master CSV (vendor_id, iban)")
    ap.add_argument("--history", help="previous payments CSV")
    args = ap.parse_args()

    rows = read_csv(args.run, REQUIRED)
    blocking, warnings = [], []

    master = {}
    if args.vendors:
        for v in read_csv(args.vendors, ["vendor_id", "iban"]):
            master[v["vendor_id"].strip()] = norm_iban(v["iban"])

    paid = set()
    if args.history:
        for p in read_csv(args.history, ["vendor_id", "invoice_number", "amount"]):
            paid.add((p["vendor_id"].strip(), norm_invoice(p["invoice_number"])))

    totals = defaultdict(lambda: [0, Decimal("0")])
    seen_invoice = {}
    seen_amount = defaultdict(list)

    for i, r in enumerate(rows, start=2):  # line 1 is the header
        where = f"line {i} ({r['vendor_name']} {r['invoice_number']})"
        vid = r["vendor_id"].strip()
        amt = parse_amount(r["amount"])
        cur = r["currency"].strip().upper()
        iban = norm_iban(r["iban"])

        if amt is None:
            blocking.append(f"{where}: amount '{r['amount']}' is not a number")
            continue
        if amt <= 0:
            blocking.append(f"{where}: non-positive amount {amt}; net credit notes instead")
        if not iban_ok(iban):
            blocking.append(f"{where}: IBAN '{r['iban']}' fails format or checksum")
        if master:
            if vid not in master:
                warnings.append(f"{where}: vendor {vid} not in vendor master (first payment?)")
            elif master[vid] != iban:
                blocking.append(f"{where}: IBAN differs from vendor master; verify by phone before paying")

        key = (vid, norm_invoice(r["invoice_number"]))
        if key in seen_invoice:
            blocking.append(f"{where}: same vendor and invoice number as line {seen_invoice[key]}")
        else:
            seen_invoice[key] = i
        if key in paid:
            blocking.append(f"{where}: invoice already appears in payment history")

        for other in seen_amount[(vid, amt, cur)]:
            warnings.append(f"{where}: same vendor and amount as line {other}; check it is not a duplicate")
        seen_amount[(vid, amt, cur)].append(i)

        totals[cur][0] += 1
        totals[cur][1] += amt

    if len(totals) > 1:
        warnings.append(f"batch mixes currencies ({', '.join(sorted(totals))}); split by currency")

    print(f"Checked {len(rows)} payment lines from {args.run}\n")
    print("Totals:")
    for cur, (n, total) in sorted(totals.items()):
        print(f"  {cur}: {n} payments, {total:,.2f}")
    for title, items in (("BLOCKING", blocking), ("Warnings", warnings)):
        print(f"\n{title} ({len(items)}):")
        for item in items:
            print(f"  - {item}")
    return 1 if blocking else 0


if __name__ == "__main__":
    sys.exit(main())
