#!/usr/bin/env python3
"""Monthly logo churn, MRR churn and cohort retention from a subscriptions table.

Input CSV columns (one row per subscription or per customer):
    customer_id, start_date, end_date, mrr
end_date is empty for active customers. Dates are parsed with pandas.to_datetime.

usage:
    python churn_metrics.py subscriptions.csv --as-of 2024-06-30 [--out-dir out/]

Writes monthly_churn.csv and cohort_retention.csv to --out-dir (default: current
directory) and prints a summary. Does not modify the input.
"""
from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd


def load(path: str, as_of: pd.Timestamp) -> pd.DataFrame:
    df = pd.read_csv(path)
    missing = {"customer_id", "start_date", "end_date", "mrr"} - set(df.columns)
    if missing:
        raise SystemExit(f"missing columns: {sorted(missing)}")
    df["start_date"] = pd.to_datetime(df["start_date"])
    df["end_date"] = pd.to_datetime(df["end_date"])
    # Anything ending after the as-of date has not churned yet as far as we know.
    df.loc[df["end_date"] > as_of, "end_date"] = pd.NaT
    df = df[df["start_date"] <= as_of]
    bad = df["end_date"].notna() & (df["end_date"] < df["start_date"])
    if bad.any():
        raise SystemExit(f"{int(bad.sum())} rows end before they start; fix the data first")
    return df


def monthly_churn(df: pd.DataFrame, as_of: pd.Timestamp) -> pd.DataFrame:
    """Churn rate per full calendar month: churned during month / active at month start."""
    first = df["start_date"].min().to_period("M").to_timestamp()
    last_full = (as_of + pd.Timedelta(days=1)).to_period("M").to_timestamp() - pd.offsets.MonthBegin(1)
    rows = []
    for m_start in pd.date_range(first, last_full, freq="MS"):
        m_end = m_start + pd.offsets.MonthBegin(1)
        active_at_start = (df["start_date"] < m_start) & (
            df["end_date"].isna() | (df["end_date"] >= m_start)
        )
        churned = active_at_start & df["end_date"].notna() & (df["end_date"] < m_end)
        start_n = int(active_at_start.sum())
        start_mrr = float(df.loc[active_at_start, "mrr"].sum())
        rows.append(
            {
                "month": m_start.strftime("%Y-%m"),
                "customers_at_start": start_n,
                "churned_customers": int(churned.sum()),
                "logo_churn_rate": churned.sum() / start_n if start_n else float("nan"),
                "mrr_at_start": start_mrr,
                "churned_mrr": float(df.loc[churned, "mrr"].sum()),
                "gross_mrr_churn_rate": (
                    df.loc[churned, "mrr"].sum() / start_mrr if start_mrr else float("nan")
                ),
            }
        )
    return pd.DataFrame(rows)


def cohort_retention(df: pd.DataFrame, as_of: pd.Timestamp) -> pd.DataFrame:
    """Share of each start-month cohort still active k months after the cohort month began.

    Cells that lie after the as-of date are left empty (right-censored), not zero.
    """
    df = df.assign(cohort=df["start_date"].dt.to_period("M"))
    as_of_p = as_of.to_period("M")
    out = {}
    for cohort, g in df.groupby("cohort"):
        max_k = (as_of_p - cohort).n
        row = {}
        for k in range(max_k + 1):
            checkpoint = (cohort + k).to_timestamp()
            if k == 0:
                row[k] = 1.0
                continue
            alive = g["end_date"].isna() | (g["end_date"] >= checkpoint)
            row[k] = alive.mean()
        out[str(cohort)] = row
    table = pd.DataFrame.from_dict(out, orient="index").sort_index()
    table.index.name = "cohort"
    table.columns = [f"m{k}" for k in table.columns]
    table.insert(0, "size", df.groupby(df["cohort"].astype(str)).size())
    return table


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv")
    ap.add_argument("--as-of", required=True, help="last date the data is complete for (YYYY-MM-DD)")
    ap.add_argument("--out-dir", default=".")
    args = ap.parse_args()

    as_of = pd.Timestamp(args.as_of)
    df = load(args.csv, as_of)
    out = Path(args.out_dir)
    out.mkdir(parents=True, exist_ok=True)

    mc = monthly_churn(df, as_of)
    cr = cohort_retention(df, as_of)
    mc.to_csv(out / "monthly_churn.csv", index=False)
    cr.to_csv(out / "cohort_retention.csv")

    pd.set_option("display.width", 160)
    print(mc.tail(12).to_string(index=False, float_format=lambda x: f"{x:,.3f}"))
    print()
    print(cr.tail(12).iloc[:, :14].to_string(float_format=lambda x: f"{x:.2f}", na_rep=""))
    print(f"\nwrote {out / 'monthly_churn.csv'} and {out / 'cohort_retention.csv'}")


if __name__ == "__main__":
    main()
