#!/usr/bin/env python3
"""Summarise a line-item budget CSV (year,category,item,amount) for cross-checking.

Read-only: prints totals per year, per category, and overall.
"""
import csv
import sys
from collections import defaultdict
from decimal import Decimal, InvalidOperation


def main(path: str) -> int:
    by_year = defaultdict(Decimal)
    by_cat = defaultdict(Decimal)
    by_year_cat = defaultdict(Decimal)
    errors = 0

    with open(path, newline="", encoding="utf-8") as fh:
        reader = csv.DictReader(fh)
        missing = {"year", "category", "item", "amount"} - set(reader.fieldnames or [])
        if missing:
            print(f"error: missing columns: {', '.join(sorted(missing))}", file=sys.stderr)
            return 2
        for lineno, row in enumerate(reader, start=2):
            raw = row["amount"].replace("$", "").replace(",", "").strip()
            try:
                amount = Decimal(raw)
            except InvalidOperation:
                print(f"line {lineno}: cannot parse amount {row['amount']!r}", file=sys.stderr)
                errors += 1
                continue
            year, cat = row["year"].strip(), row["category"].strip()
            by_year[year] += amount
            by_cat[cat] += amount
            by_year_cat[(year, cat)] += amount

    years = sorted(by_year)
    cats = sorted(by_cat)
    width = max([len(c) for c in cats] + [8])
    print(f"{'category':<{width}}  " + "  ".join(f"{'Y' + y:>12}" for y in years) + f"  {'total':>12}")
    for c in cats:
        cells = "  ".join(f"{by_year_cat[(y, c)]:>12,.2f}" for y in years)
        print(f"{c:<{width}}  {cells}  {by_cat[c]:>12,.2f}")
    print(f"{'TOTAL':<{width}}  " + "  ".join(f"{by_year[y]:>12,.2f}" for y in years)
          + f"  {sum(by_year.values()):>12,.2f}")
    return 1 if errors else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print("usage: check_totals.py budget.csv", file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
