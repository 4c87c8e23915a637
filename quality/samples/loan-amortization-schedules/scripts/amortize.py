#!/usr/bin/env python3
"""Fixed-rate loan amortization schedule, to the cent.

    python amortize.py --principal 250000 --rate 6.5 --years 30
    python amortize.py --principal 18000 --rate 7.9 --months 60 --extra 100 --csv out.csv
    python amortize.py --principal 250000 --rate 6.5 --years 30 --payment 1700

--rate is the nominal annual rate in percent, compounded monthly (the usual
convention for US mortgages and most consumer loans). The payment is rounded
to the cent; the last payment absorbs the rounding so the balance ends at
exactly 0.00. --extra adds a fixed extra principal payment every month.
"""
import argparse
import csv
import sys
from decimal import ROUND_HALF_UP, Decimal, getcontext

getcontext().prec = 28
CENT = Decimal("0.01")


def cents(x: Decimal) -> Decimal:
    return x.quantize(CENT, rounding=ROUND_HALF_UP)


def level_payment(principal: Decimal, monthly_rate: Decimal, n: int) -> Decimal:
    if monthly_rate == 0:
        return cents(principal / n)
    factor = (1 + monthly_rate) ** n
    return cents(principal * monthly_rate * factor / (factor - 1))


def schedule(principal, monthly_rate, payment, extra, term, max_months):
    """Yield (month, paid, interest, principal, balance) rows.

    In month `term` the remaining balance is paid off in full, so rounding the
    level payment to the cent never leaves a stray 361st payment of a few cents.
    """
    balance = principal
    month = 0
    while balance > 0:
        month += 1
        if month > max_months:
            sys.exit("payment does not cover interest; the loan never amortizes")
        interest = cents(balance * monthly_rate)
        principal_part = payment + extra - interest
        if principal_part <= 0:
            sys.exit("payment does not cover interest; the loan never amortizes")
        if principal_part >= balance or month == term:  # final payment
            principal_part = balance
        paid = interest + principal_part
        balance -= principal_part
        yield month, paid, interest, principal_part, balance


def main():
    ap = argparse.ArgumentParser(description="Fixed-rate amortization schedule")
    ap.add_argument("--principal", type=Decimal, required=True)
    ap.add_argument("--rate", type=Decimal, required=True, help="nominal annual %%")
    term = ap.add_mutually_exclusive_group(required=True)
    term.add_argument("--years", type=int)
    term.add_argument("--months", type=int)
    ap.add_argument("--payment", type=Decimal, help="override the computed payment")
    ap.add_argument("--extra", type=Decimal, default=Decimal("0"))
    ap.add_argument("--csv", help="write the full schedule to this file")
    a = ap.parse_args()

    n = a.months if a.months else a.years * 12
    if a.principal <= 0 or n <= 0 or a.rate < 0 or a.extra < 0:
        sys.exit("principal and term must be positive; rate and extra non-negative")
    r = a.rate / 100 / 12
    payment = cents(a.payment) if a.payment else level_payment(a.principal, r, n)

    rows = list(schedule(a.principal, r, payment, a.extra, n, max_months=1200))
    total_interest = sum(row[2] for row in rows)
    total_paid = sum(row[1] for row in rows)

    print(f"Scheduled payment: {payment:,.2f} per month"
          + (f" + {a.extra:,.2f} extra" if a.extra else ""))
    print(f"Payments made:     {len(rows)} (term {n})")
    print(f"Final payment:     {rows[-1][1]:,.2f}")
    if rows[-1][1] > payment + a.extra + 1:
        print("  note: the payment does not amortize the loan within the term,"
              " so the final payment is a balloon")
    print(f"Total interest:    {total_interest:,.2f}")
    print(f"Total paid:        {total_paid:,.2f}")

    if a.csv:
        with open(a.csv, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["month", "payment", "interest", "principal", "balance"])
            for row in rows:
                w.writerow([row[0]] + [f"{x:.2f}" for x in row[1:]])
        print(f"Schedule written to {a.csv}")


if __name__ == "__main__":
    main()
