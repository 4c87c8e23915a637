#!/usr/bin/env python3
"""Per-sample QC summary for a single-cell AnnData file.

Reads an .h5ad file, computes scanpy QC metrics if they are missing, flags
outlier cells with median-absolute-deviation (MAD) rules *per sample*, and
prints one summary row per sample. Optionally writes the per-cell flags to a
CSV so they can be joined back onto the object.

The input file is never modified.

Examples
--------
    python qc_summary.py merged.h5ad --sample-key sample --species human
    python qc_summary.py merged.h5ad --mt-ceiling 15 --out qc_flags.csv
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pandas as pd

PREFIXES = {
    "human": {"mt": ("MT-",), "ribo": ("RPS", "RPL"), "hb": r"^HB[ABDEGMQZ]\d?$"},
    "mouse": {"mt": ("mt-",), "ribo": ("Rps", "Rpl"), "hb": r"^Hb[ab]-"},
}

REQUIRED_OBS = [
    "log1p_total_counts",
    "log1p_n_genes_by_counts",
    "pct_counts_in_top_20_genes",
    "pct_counts_mt",
    "total_counts",
    "n_genes_by_counts",
]


def mad_outlier(values: pd.Series, nmads: float) -> pd.Series:
    """True where a value is more than `nmads` MADs from the median."""
    v = values.to_numpy(dtype=float)
    med = np.median(v)
    mad = np.median(np.abs(v - med))  # unscaled MAD, same as scipy's default
    if mad == 0:
        # Degenerate distribution: nothing can be called an outlier by MAD.
        return pd.Series(False, index=values.index)
    return pd.Series((v < med - nmads * mad) | (v > med + nmads * mad), index=values.index)


def flag_cells(obs: pd.DataFrame, sample_key: str, nmads: float, mt_nmads: float,
               mt_ceiling: float) -> pd.DataFrame:
    """Return a frame with boolean `outlier` and `mt_outlier` columns per cell."""
    parts = []
    groups = obs.groupby(sample_key, observed=True) if sample_key else [("all", obs)]
    for _, df in groups:
        flags = pd.DataFrame(index=df.index)
        flags["outlier"] = (
            mad_outlier(df["log1p_total_counts"], nmads)
            | mad_outlier(df["log1p_n_genes_by_counts"], nmads)
            | mad_outlier(df["pct_counts_in_top_20_genes"], nmads)
        )
        flags["mt_outlier"] = mad_outlier(df["pct_counts_mt"], mt_nmads) | (
            df["pct_counts_mt"] > mt_ceiling
        )
        parts.append(flags)
    return pd.concat(parts).loc[obs.index]


def summarize(obs: pd.DataFrame, flags: pd.DataFrame, sample_key: str) -> pd.DataFrame:
    data = obs.join(flags)
    key = data[sample_key] if sample_key else pd.Series("all", index=data.index)
    grouped = data.groupby(key, observed=True)
    summary = pd.DataFrame({
        "cells": grouped.size(),
        "median_counts": grouped["total_counts"].median().round(0),
        "median_genes": grouped["n_genes_by_counts"].median().round(0),
        "median_pct_mt": grouped["pct_counts_mt"].median().round(2),
        "count_outliers": grouped["outlier"].sum(),
        "mt_outliers": grouped["mt_outlier"].sum(),
    })
    removed = (data["outlier"] | data["mt_outlier"]).groupby(key, observed=True).sum()
    summary["would_keep"] = summary["cells"] - removed
    summary["pct_removed"] = (100 * removed / summary["cells"]).round(1)
    return summary


def ensure_metrics(adata, species: str) -> None:
    """Compute QC metrics in memory if the file does not already have them."""
    missing = [c for c in REQUIRED_OBS if c not in adata.obs.columns]
    if not missing:
        return
    try:
        import scanpy as sc
    except ImportError:
        sys.exit(f"QC columns missing ({', '.join(missing)}) and scanpy is not installed.")
    p = PREFIXES[species]
    names = adata.var_names.to_series()
    adata.var["mt"] = names.str.startswith(p["mt"]).to_numpy()
    adata.var["ribo"] = names.str.startswith(p["ribo"]).to_numpy()
    adata.var["hb"] = names.str.match(p["hb"]).to_numpy()
    if adata.var["mt"].sum() == 0:
        print("warning: no mitochondrial genes matched; check species and var_names",
              file=sys.stderr)
    sc.pp.calculate_qc_metrics(adata, qc_vars=["mt", "ribo", "hb"], percent_top=[20],
                               log1p=True, inplace=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("h5ad", type=Path, help="input .h5ad file (read only)")
    ap.add_argument("--sample-key", default="sample",
                    help="obs column with sample labels; '' to treat all cells as one sample")
    ap.add_argument("--species", choices=sorted(PREFIXES), default="human")
    ap.add_argument("--nmads", type=float, default=5.0, help="MADs for count metrics (default 5)")
    ap.add_argument("--mt-nmads", type=float, default=3.0, help="MADs for pct_counts_mt (default 3)")
    ap.add_argument("--mt-ceiling", type=float, default=8.0,
                    help="hard upper limit on pct_counts_mt (default 8)")
    ap.add_argument("--out", type=Path, help="write per-cell flags to this CSV")
    ap.add_argument("--force", action="store_true", help="overwrite --out if it exists")
    args = ap.parse_args(argv)

    import anndata as ad

    adata = ad.read_h5ad(args.h5ad)
    if args.sample_key and args.sample_key not in adata.obs.columns:
        print(f"obs has no column {args.sample_key!r}; columns are: {list(adata.obs.columns)}",
              file=sys.stderr)
        return 2

    ensure_metrics(adata, args.species)
    flags = flag_cells(adata.obs, args.sample_key, args.nmads, args.mt_nmads, args.mt_ceiling)
    summary = summarize(adata.obs, flags, args.sample_key)

    with pd.option_context("display.width", 120, "display.max_columns", 20):
        print(summary.to_string())
    total_removed = int((flags["outlier"] | flags["mt_outlier"]).sum())
    print(f"\n{total_removed} of {adata.n_obs} cells would be removed "
          f"({args.nmads} MADs counts, {args.mt_nmads} MADs or >{args.mt_ceiling}% mt). "
          "Nothing has been filtered.")

    if args.out:
        if args.out.exists() and not args.force:
            print(f"{args.out} exists; pass --force to overwrite", file=sys.stderr)
            return 1
        args.out.parent.mkdir(parents=True, exist_ok=True)
        flags.to_csv(args.out, index_label="barcode")
        print(f"per-cell flags written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
