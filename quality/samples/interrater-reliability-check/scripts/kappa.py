#!/usr/bin/env python3
"""Cohen's kappa (unweighted, linear or quadratic weighted) for two coders.

Input: a CSV with one row per item and one column per coder.
Rows where either coder's value is blank are skipped and counted.

Examples:
  python3 kappa.py codes.csv --a coder_1 --b coder_2
  python3 kappa.py severity.csv --a r1 --b r2 --weights quadratic --order none,mild,moderate,severe
  python3 kappa.py codes.csv --a coder_1 --b coder_2 --bootstrap 2000 --seed 7
"""

import argparse
import csv
import random
import sys
from collections import Counter


def kappa(pairs, categories, weights):
    """Return (observed agreement, kappa). pairs: list of (a, b)."""
    n = len(pairs)
    k = len(categories)
    index = {c: i for i, c in enumerate(categories)}

    def disagreement(i, j):
        if weights == "none":
            return 0.0 if i == j else 1.0
        scale = (k - 1) or 1
        d = abs(i - j) / scale
        return d if weights == "linear" else d * d

    observed = Counter((index[a], index[b]) for a, b in pairs)
    margin_a = Counter(index[a] for a, _ in pairs)
    margin_b = Counter(index[b] for _, b in pairs)

    obs_dis = sum(disagreement(i, j) * c for (i, j), c in observed.items()) / n
    exp_dis = sum(
        disagreement(i, j) * margin_a[i] * margin_b[j]
        for i in range(k) for j in range(k)
    ) / (n * n)
    agreement = sum(c for (i, j), c in observed.items() if i == j) / n
    if exp_dis == 0:
        return agreement, float("nan")  # both coders used a single category
    return agreement, 1.0 - obs_dis / exp_dis


def main(argv=None):
    parser = argparse.ArgumentParser(description="Cohen's kappa for two coders.")
    parser.add_argument("path")
    parser.add_argument("--a", required=True, help="column with coder A's codes")
    parser.add_argument("--b", required=True, help="column with coder B's codes")
    parser.add_argument("--weights", choices=["none", "linear", "quadratic"], default="none")
    parser.add_argument("--order", help="comma-separated category order (required for weighted kappa)")
    parser.add_argument("--bootstrap", type=int, default=0, help="bootstrap resamples for a 95%% CI")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    if args.weights != "none" and not args.order:
        parser.error("weighted kappa needs --order so distances between categories are defined")

    try:
        with open(args.path, newline="", encoding="utf-8-sig") as handle:
            reader = csv.DictReader(handle)
            missing = [c for c in (args.a, args.b) if c not in (reader.fieldnames or [])]
            if missing:
                print(f"error: column(s) not found: {', '.join(missing)}", file=sys.stderr)
                return 2
            rows = list(reader)
    except (OSError, csv.Error, UnicodeDecodeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2

    pairs, skipped = [], 0
    for row in rows:
        a, b = (row[args.a] or "").strip(), (row[args.b] or "").strip()
        if not a or not b:
            skipped += 1
            continue
        pairs.append((a, b))
    if not pairs:
        print("error: no items coded by both coders", file=sys.stderr)
        return 2

    seen = sorted({v for pair in pairs for v in pair})
    if args.order:
        categories = [c.strip() for c in args.order.split(",") if c.strip()]
        unknown = sorted(set(seen) - set(categories))
        if unknown:
            print(f"error: codes not in --order: {', '.join(unknown)}", file=sys.stderr)
            return 2
    else:
        categories = seen

    agreement, value = kappa(pairs, categories, args.weights)
    label = "Cohen's kappa" if args.weights == "none" else f"Weighted kappa ({args.weights})"
    print(f"items coded by both: {len(pairs)} (skipped {skipped} with a blank code)")
    print(f"categories: {', '.join(categories)}")
    print(f"percent agreement: {agreement:.1%}")
    print(f"{label}: {value:.3f}")

    if args.bootstrap > 0:
        rng = random.Random(args.seed)
        stats = []
        for _ in range(args.bootstrap):
            sample = [pairs[rng.randrange(len(pairs))] for _ in pairs]
            _, k_value = kappa(sample, categories, args.weights)
            if k_value == k_value:  # drop NaN resamples
                stats.append(k_value)
        if len(stats) < 0.9 * args.bootstrap:
            print("bootstrap: too many degenerate resamples for a stable interval")
        else:
            stats.sort()
            lo = stats[int(0.025 * (len(stats) - 1))]
            hi = stats[int(0.975 * (len(stats) - 1))]
            print(f"95% bootstrap CI ({len(stats)} resamples, seed {args.seed}): [{lo:.3f}, {hi:.3f}]")

    # Disagreement table: the useful part for codebook revision.
    confusions = Counter((a, b) for a, b in pairs if a != b)
    if confusions:
        print("most frequent disagreements (A -> B):")
        for (a, b), count in confusions.most_common(5):
            print(f"  {a} -> {b}: {count}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
