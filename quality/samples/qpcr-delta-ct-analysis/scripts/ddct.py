#!/usr/bin/env python3
"""Relative quantification of qPCR data with the 2^-ddCt (Livak) method.

Input: a CSV with one row per well (technical replicate) and columns
    sample   biological sample ID (e.g. "ctrl_1", "treated_3")
    group    experimental group (e.g. "control", "treated")
    gene     target or reference gene name
    ct       Ct / Cq value; blank, "Undetermined" or "NA" = no amplification

Usage:
    ddct.py wells.csv --reference GAPDH --reference ACTB --control control
    ddct.py wells.csv --reference GAPDH --control control --summary

Per-sample results (CSV) go to stdout; with --summary, a per-group summary
is printed instead. Warnings (high replicate spread, late or missing Ct,
missing reference) go to stderr. Standard library only.

Assumes amplification efficiencies of target and reference genes are close
to 100% and to each other. If they aren't, use an efficiency-corrected
(Pfaffl) calculation instead.
"""
import argparse
import csv
import math
import statistics
import sys
from collections import defaultdict

NO_CT = {"", "undetermined", "na", "n/a", "nan", "no ct", "-"}


def parse_ct(raw):
    value = (raw or "").strip()
    if value.lower() in NO_CT:
        return None
    return float(value)


def warn(msg):
    print(f"WARNING: {msg}", file=sys.stderr)


def load(path):
    wells = defaultdict(list)   # (sample, gene) -> [ct or None]
    group_of = {}
    with open(path, newline="", encoding="utf-8-sig") as fh:
        reader = csv.DictReader(fh)
        missing = {"sample", "group", "gene", "ct"} - set(reader.fieldnames or [])
        if missing:
            sys.exit(f"missing column(s): {', '.join(sorted(missing))}")
        for lineno, row in enumerate(reader, start=2):
            sample, group, gene = row["sample"].strip(), row["group"].strip(), row["gene"].strip()
            if group_of.setdefault(sample, group) != group:
                sys.exit(f"line {lineno}: sample {sample!r} appears in two groups")
            try:
                wells[(sample, gene)].append(parse_ct(row["ct"]))
            except ValueError:
                sys.exit(f"line {lineno}: cannot read Ct value {row['ct']!r}")
    return wells, group_of


def replicate_means(wells, max_sd, max_ct):
    means = {}
    for (sample, gene), cts in sorted(wells.items()):
        good = [c for c in cts if c is not None]
        if len(good) < len(cts):
            warn(f"{sample}/{gene}: {len(cts) - len(good)} of {len(cts)} wells without Ct")
        if not good:
            continue
        mean = statistics.fmean(good)
        if len(good) > 1 and statistics.stdev(good) > max_sd:
            warn(f"{sample}/{gene}: technical replicate SD {statistics.stdev(good):.2f} > {max_sd}")
        if mean > max_ct:
            warn(f"{sample}/{gene}: mean Ct {mean:.2f} > {max_ct}; quantification unreliable")
        means[(sample, gene)] = mean
    return means


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv")
    ap.add_argument("--reference", action="append", required=True,
                    help="reference gene; repeat for several (their Cts are averaged)")
    ap.add_argument("--control", required=True, help="name of the calibrator group")
    ap.add_argument("--max-rep-sd", type=float, default=0.3,
                    help="warn when technical replicate SD exceeds this (default 0.3)")
    ap.add_argument("--max-ct", type=float, default=35.0,
                    help="warn when a mean Ct exceeds this (default 35)")
    ap.add_argument("--summary", action="store_true", help="print per-group summary")
    args = ap.parse_args()

    wells, group_of = load(args.csv)
    means = replicate_means(wells, args.max_rep_sd, args.max_ct)
    genes = sorted({g for (_, g) in wells})
    targets = [g for g in genes if g not in args.reference]
    for ref in args.reference:
        if ref not in genes:
            sys.exit(f"reference gene {ref!r} not in data (genes: {', '.join(genes)})")
    if args.control not in set(group_of.values()):
        sys.exit(f"control group {args.control!r} not in data")

    # dCt per sample and target
    dct = {}
    for sample in sorted(group_of):
        ref_cts = [means.get((sample, r)) for r in args.reference]
        if any(c is None for c in ref_cts):
            warn(f"{sample}: reference gene Ct missing; sample skipped")
            continue
        ref_ct = statistics.fmean(ref_cts)
        for target in targets:
            if (sample, target) in means:
                dct[(sample, target)] = (means[(sample, target)], ref_ct,
                                         means[(sample, target)] - ref_ct)

    # calibrator: mean dCt of control-group samples, per target
    calibrator = {}
    for target in targets:
        ctrl = [v[2] for (s, t), v in dct.items() if t == target and group_of[s] == args.control]
        if not ctrl:
            warn(f"{target}: no control-group samples with data; target skipped")
            continue
        calibrator[target] = statistics.fmean(ctrl)

    rows = []
    for (sample, target), (t_ct, r_ct, d) in sorted(dct.items()):
        if target not in calibrator:
            continue
        dd = d - calibrator[target]
        rows.append({"sample": sample, "group": group_of[sample], "gene": target,
                     "ct_target": t_ct, "ct_reference": r_ct, "dct": d,
                     "ddct": dd, "fold_change": 2 ** (-dd)})

    if not args.summary:
        out = csv.DictWriter(sys.stdout, fieldnames=list(rows[0]) if rows else ["sample"])
        out.writeheader()
        for r in rows:
            out.writerow({k: (f"{v:.4f}" if isinstance(v, float) else v) for k, v in r.items()})
        return

    print("gene\tgroup\tn\tmean_ddct\tsd_ddct\tfold_change\tfold_low\tfold_high")
    by = defaultdict(list)
    for r in rows:
        by[(r["gene"], r["group"])].append(r["ddct"])
    for (gene, group), vals in sorted(by.items()):
        m = statistics.fmean(vals)
        sd = statistics.stdev(vals) if len(vals) > 1 else math.nan
        low, high = (2 ** -(m + sd), 2 ** -(m - sd)) if not math.isnan(sd) else (math.nan, math.nan)
        print(f"{gene}\t{group}\t{len(vals)}\t{m:.3f}\t{sd:.3f}\t{2 ** -m:.3f}\t{low:.3f}\t{high:.3f}")
        if len(vals) < 3:
            warn(f"{gene}/{group}: only {len(vals)} biological replicate(s)")


if __name__ == "__main__":
    main()
