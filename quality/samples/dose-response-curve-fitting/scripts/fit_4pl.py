#!/usr/bin/env python3
"""Fit 4-parameter logistic curves on log10 concentration.

    y = Bottom + (Top - Bottom) / (1 + 10**((logEC50 - x) * Hill)),  x = log10(conc)

Usage:
    python fit_4pl.py data.csv --conc conc_uM --resp pct_activity
        [--group compound] [--fix-bottom 0] [--fix-top 100] [--plot out.png]

Rows with concentration <= 0 (vehicle controls) are excluded from the fit and
reported. Every remaining row is used as a data point (fit replicates, not means).
"""
import argparse
import sys

import numpy as np
import pandas as pd
from scipy import stats
from scipy.optimize import curve_fit


def four_pl(x, bottom, top, log_ec50, hill):
    return bottom + (top - bottom) / (1.0 + 10.0 ** ((log_ec50 - x) * hill))


def fit_group(x, y, fix_bottom=None, fix_top=None):
    names = ["bottom", "top", "log_ec50", "hill"]
    fixed = {"bottom": fix_bottom, "top": fix_top}
    free = [n for n in names if fixed.get(n) is None]

    # Direction from the mean response at the lowest vs highest concentration.
    lo, hi = y[x == x.min()].mean(), y[x == x.max()].mean()
    rising = hi >= lo
    guess = {
        "bottom": min(lo, hi),
        "top": max(lo, hi),
        "log_ec50": float(np.median(np.unique(x))),
        "hill": 1.0 if rising else -1.0,
    }

    def model(xv, *p):
        vals = dict(zip(free, p))
        vals.update({k: v for k, v in fixed.items() if v is not None})
        return four_pl(xv, vals["bottom"], vals["top"], vals["log_ec50"], vals["hill"])

    p0 = [guess[n] for n in free]
    # Keep logEC50 within 3 log units of the tested range so the optimiser can't run off.
    lower = [-np.inf if n != "log_ec50" else x.min() - 3 for n in free]
    upper = [np.inf if n != "log_ec50" else x.max() + 3 for n in free]
    popt, pcov = curve_fit(model, x, y, p0=p0, bounds=(lower, upper), maxfev=20000)

    params = dict(zip(free, popt))
    params.update({k: v for k, v in fixed.items() if v is not None})
    se = dict(zip(free, np.sqrt(np.diag(pcov))))

    resid = y - model(x, *popt)
    ss_res = float(np.sum(resid ** 2))
    ss_tot = float(np.sum((y - y.mean()) ** 2))
    dof = len(y) - len(free)
    return params, se, dof, ss_res, ss_tot, model, popt


def warnings_for(params, se, dof, x, y):
    w = []
    lec = params["log_ec50"]
    if lec < x.min() or lec > x.max():
        w.append("EC50 outside tested range - report as a bound, not a value")
    if dof < 1:
        w.append("no residual degrees of freedom - cannot estimate CI")
    elif "log_ec50" in se and np.isfinite(se["log_ec50"]):
        half = stats.t.ppf(0.975, dof) * se["log_ec50"]
        if 2 * half > 1.0:
            w.append(f"wide CI ({2 * half:.2f} log units)")
    else:
        w.append("standard error not estimable - fit is poorly determined")
    h = abs(params["hill"])
    if h > 3 or h < 0.5:
        w.append(f"unusual Hill slope {params['hill']:.2f}")
    span = abs(params["top"] - params["bottom"])
    for name in ("top", "bottom"):
        near = np.abs(y - params[name]) < 0.1 * span if span else np.zeros_like(y, bool)
        n_conc = len(np.unique(x[near]))
        if n_conc < 2:
            w.append(f"{name} plateau defined by {n_conc} concentration(s)")
    return w


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv")
    ap.add_argument("--conc", required=True)
    ap.add_argument("--resp", required=True)
    ap.add_argument("--group")
    ap.add_argument("--fix-bottom", type=float)
    ap.add_argument("--fix-top", type=float)
    ap.add_argument("--plot")
    a = ap.parse_args()

    df = pd.read_csv(a.csv)
    for col in [a.conc, a.resp] + ([a.group] if a.group else []):
        if col not in df.columns:
            sys.exit(f"error: column {col!r} not found; have {list(df.columns)}")
    df = df.dropna(subset=[a.conc, a.resp])
    controls = df[df[a.conc] <= 0]
    if len(controls):
        print(f"excluded {len(controls)} row(s) with concentration <= 0 (controls)\n")
    df = df[df[a.conc] > 0]

    groups = df.groupby(a.group) if a.group else [("all", df)]
    results = []
    for name, g in groups:
        x = np.log10(g[a.conc].to_numpy(float))
        y = g[a.resp].to_numpy(float)
        n_free = 4 - (a.fix_bottom is not None) - (a.fix_top is not None)
        if len(np.unique(x)) < n_free + 1:
            print(f"[{name}] skipped: {len(np.unique(x))} concentrations is too few for {n_free} free parameters")
            continue
        try:
            params, se, dof, ss_res, ss_tot, model, popt = fit_group(x, y, a.fix_bottom, a.fix_top)
        except (RuntimeError, ValueError) as e:
            print(f"[{name}] fit failed: {e}")
            continue
        lec = params["log_ec50"]
        if dof >= 1 and np.isfinite(se.get("log_ec50", np.nan)):
            half = stats.t.ppf(0.975, dof) * se["log_ec50"]
            ci = (10 ** (lec - half), 10 ** (lec + half))
        else:
            ci = (np.nan, np.nan)
        r2 = 1 - ss_res / ss_tot if ss_tot > 0 else np.nan
        warns = warnings_for(params, se, dof, x, y)
        results.append((name, g, model, popt))
        fixed = [k for k in ("bottom", "top") if getattr(a, "fix_" + k) is not None]
        print(f"[{name}]  n={len(y)} points, {len(np.unique(x))} concentrations"
              + (f", fixed: {', '.join(fixed)}" if fixed else ""))
        print(f"  EC50   = {10 ** lec:.4g} {a.conc}  (95% CI {ci[0]:.4g} - {ci[1]:.4g})")
        print(f"  logEC50= {lec:.3f}   Hill = {params['hill']:.2f}")
        print(f"  Bottom = {params['bottom']:.3g}   Top = {params['top']:.3g}   R2 = {r2:.3f}")
        for w in warns:
            print(f"  WARNING: {w}")
        print()

    if a.plot and results:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(6, 4))
        for name, g, model, popt in results:
            pts = ax.scatter(g[a.conc], g[a.resp], s=14, label=str(name))
            xs = np.linspace(np.log10(g[a.conc].min()), np.log10(g[a.conc].max()), 200)
            ax.plot(10 ** xs, model(xs, *popt), color=pts.get_facecolor()[0])
        ax.set_xscale("log")
        ax.set_xlabel(a.conc)
        ax.set_ylabel(a.resp)
        ax.legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(a.plot, dpi=150)
        print(f"plot written to {a.plot}")


if __name__ == "__main__":
    main()
