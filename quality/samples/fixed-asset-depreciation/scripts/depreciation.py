#!/usr/bin/env python3
"""Book depreciation schedules: straight-line, declining balance, sum-of-years'-digits.

Examples:
    depreciation.py --cost 48000 --salvage 3000 --life 5 --method sl
    depreciation.py --cost 48000 --salvage 3000 --life 5 --method ddb \
        --in-service 2024-04 --fy-end-month 12
    depreciation.py --cost 48000 --salvage 3000 --life 5 --method db150 \
        --convention half-year --csv

Methods
    sl      straight-line
    ddb     double-declining balance (200%), switching to straight-line when
            that gives the larger charge
    db150   150% declining balance, same switch
    syd     sum-of-the-years'-digits

Partial first years
    Depreciation is computed per *asset year* (12 months from the in-service
    date) and allocated to fiscal years by time. With --convention full-month
    (default) the asset counts the whole month it was placed in service; with
    half-year, it gets half a year in the first fiscal year regardless of date.

This is for financial-statement (book) depreciation. It does not compute US
tax MACRS, which uses IRS percentage tables (Publication 946).
"""
import argparse
import csv
import sys
from decimal import Decimal, ROUND_HALF_UP

CENT = Decimal("0.01")


def money(x):
    return Decimal(x).quantize(CENT, rounding=ROUND_HALF_UP)


def asset_year_amounts(cost, salvage, life, method):
    """Unrounded depreciation for each full asset year 1..life."""
    base = cost - salvage
    amounts = []
    if method == "sl":
        amounts = [base / life] * life
    elif method == "syd":
        total = Decimal(life * (life + 1)) / 2
        amounts = [base * Decimal(life - k) / total for k in range(life)]
    elif method in ("ddb", "db150"):
        factor = Decimal(2) if method == "ddb" else Decimal("1.5")
        rate = factor / life
        book = cost
        for k in range(life):
            remaining = life - k
            declining = book * rate
            straight = (book - salvage) / remaining
            charge = max(declining, straight)
            charge = min(charge, book - salvage)   # never below salvage
            amounts.append(charge)
            book -= charge
    else:
        raise ValueError(method)
    return amounts


def fiscal_schedule(amounts, first_fraction):
    """Spread asset-year amounts over fiscal years.

    first_fraction is the share of a year the asset is in service during its
    first fiscal year (1 = full year). Fiscal year i receives
    first_fraction * A[i] + (1 - first_fraction) * A[i-1].
    """
    f = first_fraction
    if f == 1:
        return list(amounts)
    out = []
    n = len(amounts)
    for i in range(n + 1):
        current = amounts[i] * f if i < n else Decimal(0)
        previous = amounts[i - 1] * (1 - f) if i > 0 else Decimal(0)
        out.append(current + previous)
    return out


def first_year_fraction(in_service, fy_end_month, convention):
    if convention == "half-year":
        return Decimal("0.5")
    if in_service is None:
        return Decimal(1)
    year, month = (int(p) for p in in_service.split("-"))
    if not 1 <= month <= 12:
        raise ValueError("in-service month must be 1-12")
    # months from the in-service month through the fiscal year-end, inclusive
    months = (fy_end_month - month) % 12 + 1
    return Decimal(months) / 12


def fiscal_year_label(in_service, fy_end_month, index):
    if in_service is None:
        return f"Year {index + 1}"
    year, month = (int(p) for p in in_service.split("-"))
    first_fy_end_year = year if month <= fy_end_month else year + 1
    return f"FY ending {first_fy_end_year + index}-{fy_end_month:02d}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cost", required=True, type=Decimal, help="capitalized cost")
    ap.add_argument("--salvage", default=Decimal(0), type=Decimal, help="residual/salvage value")
    ap.add_argument("--life", required=True, type=int, help="useful life in years")
    ap.add_argument("--method", required=True, choices=["sl", "ddb", "db150", "syd"])
    ap.add_argument("--in-service", help="YYYY-MM the asset was placed in service")
    ap.add_argument("--fy-end-month", type=int, default=12, help="fiscal year-end month (default 12)")
    ap.add_argument("--convention", choices=["full-month", "half-year"], default="full-month")
    ap.add_argument("--csv", action="store_true", help="CSV output")
    args = ap.parse_args()

    if args.life < 1:
        sys.exit("life must be at least 1 year")
    if not (0 <= args.salvage < args.cost):
        sys.exit("salvage must be >= 0 and less than cost")
    if not 1 <= args.fy_end_month <= 12:
        sys.exit("fy-end-month must be 1-12")
    if args.convention == "half-year" and args.in_service is None:
        sys.exit("half-year convention needs --in-service for fiscal-year labels")

    amounts = asset_year_amounts(args.cost, args.salvage, args.life, args.method)
    fraction = first_year_fraction(args.in_service, args.fy_end_month, args.convention)
    periods = fiscal_schedule(amounts, fraction)

    # Round each period to cents; the last period absorbs rounding so the
    # asset ends exactly at salvage value.
    depreciable = args.cost - args.salvage
    rounded = [money(p) for p in periods[:-1]]
    rounded.append(money(depreciable) - sum(rounded))

    rows = []
    accumulated = Decimal(0)
    for i, charge in enumerate(rounded):
        accumulated += charge
        rows.append((fiscal_year_label(args.in_service, args.fy_end_month, i),
                     charge, accumulated, args.cost - accumulated))

    if args.csv:
        w = csv.writer(sys.stdout)
        w.writerow(["period", "depreciation", "accumulated", "book_value_end"])
        for label, c, a, b in rows:
            w.writerow([label, f"{c:.2f}", f"{a:.2f}", f"{b:.2f}"])
        return

    print(f"Cost {args.cost:,.2f}  salvage {args.salvage:,.2f}  life {args.life} y  "
          f"method {args.method}  first-year fraction {fraction:.4f}")
    print(f"{'Period':<20}{'Depreciation':>15}{'Accumulated':>15}{'Book value':>15}")
    for label, c, a, b in rows:
        print(f"{label:<20}{c:>15,.2f}{a:>15,.2f}{b:>15,.2f}")


if __name__ == "__main__":
    main()
