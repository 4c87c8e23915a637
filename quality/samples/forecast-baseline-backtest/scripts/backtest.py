#!/usr/bin/env python3
"""Rolling-origin backtest of simple forecasting baselines.

Usage:
    python backtest.py data.csv --date-col date --value-col y \
        --season 7 --horizon 14 --origins 12 --step 7 [--candidate fc.csv]

The candidate CSV, if given, must have columns: origin, date, forecast
(origin = last timestamp of training data for that forecast).

Requires pandas and numpy.
"""
import argparse
import sys

import numpy as np
import pandas as pd


def load_series(path, date_col, value_col):
    df = pd.read_csv(path, parse_dates=[date_col])
    s = df.set_index(date_col)[value_col].sort_index()
    if s.index.has_duplicates:
        sys.exit(f"error: duplicate timestamps, e.g. {s.index[s.index.duplicated()][0]}")
    freq = pd.infer_freq(s.index)
    if freq is None:
        sys.exit("error: irregular timestamps; resolve gaps before backtesting")
    if s.isna().any():
        sys.exit(f"error: {int(s.isna().sum())} missing values; decide how to fill them first")
    return s.asfreq(freq)


def baselines(train, horizon, season, window):
    last = train.iloc[-1]
    k = np.arange(1, horizon + 1)
    out = {
        "naive": np.repeat(last, horizon),
        "seasonal_naive": np.resize(train.iloc[-season:].to_numpy(), horizon),
        "moving_avg": np.repeat(train.iloc[-window:].mean(), horizon),
    }
    if len(train) > 1:
        slope = (train.iloc[-1] - train.iloc[0]) / (len(train) - 1)
        out["drift"] = last + slope * k
    return out


def seasonal_scale(train, season):
    diffs = np.abs(train.to_numpy()[season:] - train.to_numpy()[:-season])
    return diffs.mean() if len(diffs) else np.nan


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("csv")
    p.add_argument("--date-col", required=True)
    p.add_argument("--value-col", required=True)
    p.add_argument("--season", type=int, required=True)
    p.add_argument("--horizon", type=int, required=True)
    p.add_argument("--origins", type=int, default=8)
    p.add_argument("--step", type=int, default=None, help="steps between origins (default: horizon)")
    p.add_argument("--window", type=int, default=None, help="moving-average window (default: season)")
    p.add_argument("--candidate", help="CSV of candidate forecasts: origin,date,forecast")
    a = p.parse_args()

    s = load_series(a.csv, a.date_col, a.value_col)
    step = a.step or a.horizon
    window = a.window or a.season
    n = len(s)
    first_origin = n - a.horizon - step * (a.origins - 1)
    if first_origin < 2 * a.season:
        sys.exit("error: not enough history for that many origins; reduce --origins or --step")

    cand = None
    if a.candidate:
        cand = pd.read_csv(a.candidate, parse_dates=["origin", "date"]).set_index(["origin", "date"])["forecast"]

    rows = []
    for i in range(a.origins):
        o = first_origin + i * step  # index of first forecast step
        train, test = s.iloc[:o], s.iloc[o:o + a.horizon]
        scale = seasonal_scale(train, a.season)
        fcs = baselines(train, a.horizon, a.season, window)
        if cand is not None:
            origin_ts = train.index[-1]
            try:
                fcs["candidate"] = cand.loc[origin_ts].reindex(test.index).to_numpy()
            except KeyError:
                sys.exit(f"error: candidate has no forecasts for origin {origin_ts.date()}")
        for method, fc in fcs.items():
            err = fc - test.to_numpy()
            for k, e in enumerate(err, start=1):
                rows.append({"origin": train.index[-1], "method": method, "h": k,
                             "err": e, "abs_err": abs(e), "scale": scale})

    r = pd.DataFrame(rows)
    if r["err"].isna().any():
        bad = r[r["err"].isna()]["method"].unique()
        sys.exit(f"error: missing forecasts for {list(bad)}; check candidate dates")
    r["scaled"] = r["abs_err"] / r["scale"]

    summary = r.groupby("method").agg(MAE=("abs_err", "mean"), MASE=("scaled", "mean"), bias=("err", "mean"))
    print(f"origins: {r['origin'].min().date()} .. {r['origin'].max().date()} ({a.origins}), horizon {a.horizon}\n")
    print(summary.sort_values("MASE").round(3).to_string())
    print("\nMASE by horizon step:")
    picks = sorted({1, max(1, a.horizon // 2), a.horizon})
    print(r[r["h"].isin(picks)].pivot_table(index="method", columns="h", values="scaled").round(3).to_string())


if __name__ == "__main__":
    main()
