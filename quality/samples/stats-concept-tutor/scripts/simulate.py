#!/usr/bin/env python3
"""Tiny simulations for teaching statistics concepts (standard library only).

Subcommands:
  pvalues   distribution of p-values when the null is true vs when there is an effect
  ci        how often 95% confidence intervals capture the true mean
  multiple  chance of at least one 'significant' result among k null tests

Each prints a short text summary (and a text histogram for pvalues) so it works
in any terminal. Tests use a two-sided z-test with known SD = 1 to keep the maths
visible; say so when presenting results.

Examples:
  simulate.py pvalues --effect 0   --n 20 --reps 5000
  simulate.py pvalues --effect 0.5 --n 20 --reps 5000
  simulate.py ci --n 5 --reps 10000
  simulate.py multiple --tests 20 --reps 5000
"""

import argparse
import math
import random
import statistics
import sys

Z975 = 1.959963984540054


def two_sided_p(z):
    return math.erfc(abs(z) / math.sqrt(2))


def z_test_p(rng, n, effect):
    """One-sample z-test of mean 0, data ~ Normal(effect, 1), sigma known = 1."""
    xs = [rng.gauss(effect, 1.0) for _ in range(n)]
    z = statistics.fmean(xs) / (1.0 / math.sqrt(n))
    return two_sided_p(z)


def histogram(values, bins=10, width=40):
    counts = [0] * bins
    for v in values:
        counts[min(int(v * bins), bins - 1)] += 1
    top = max(counts) or 1
    lines = []
    for i, c in enumerate(counts):
        lo, hi = i / bins, (i + 1) / bins
        bar = "#" * round(c / top * width)
        lines.append(f"  {lo:.1f}-{hi:.1f} | {bar} {c}")
    return "\n".join(lines)


def cmd_pvalues(a, rng):
    ps = [z_test_p(rng, a.n, a.effect) for _ in range(a.reps)]
    below = sum(p < 0.05 for p in ps) / len(ps)
    label = "null true (no effect)" if a.effect == 0 else f"true effect = {a.effect} SD"
    print(f"{a.reps} simulated studies, n = {a.n} each, {label}")
    print(histogram(ps))
    print(f"share with p < 0.05: {below:.3f}")
    if a.effect == 0:
        print("Under the null, p-values are spread evenly: about 5% fall below 0.05 by design.")
    else:
        print("That share is the power of this design for this effect size.")


def cmd_ci(a, rng):
    known, naive = 0, 0
    for _ in range(a.reps):
        xs = [rng.gauss(a.true_mean, 1.0) for _ in range(a.n)]
        m = statistics.fmean(xs)
        half_known = Z975 * 1.0 / math.sqrt(a.n)
        half_naive = Z975 * statistics.stdev(xs) / math.sqrt(a.n)
        known += (m - half_known) <= a.true_mean <= (m + half_known)
        naive += (m - half_naive) <= a.true_mean <= (m + half_naive)
    print(f"{a.reps} samples of n = {a.n} from Normal(mean={a.true_mean}, sd=1)")
    print(f"  mean +/- 1.96 x (true SD)/sqrt(n):   covers the true mean {known / a.reps:.3f} of the time")
    print(f"  mean +/- 1.96 x (sample SD)/sqrt(n): covers the true mean {naive / a.reps:.3f} of the time")
    print("The 95% describes the procedure over many samples, not any single interval.")
    if a.n < 30:
        print("With small n, using the sample SD with 1.96 under-covers; that's why t critical values exist.")


def cmd_multiple(a, rng):
    hits = 0
    for _ in range(a.reps):
        if any(z_test_p(rng, a.n, 0.0) < 0.05 for _ in range(a.tests)):
            hits += 1
    theory = 1 - 0.95 ** a.tests
    print(f"{a.tests} independent tests per study, every null true, {a.reps} studies")
    print(f"  share of studies with at least one p < 0.05: {hits / a.reps:.3f} (theory {theory:.3f})")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seed", type=int, default=1, help="random seed, for reproducible demos")
    sub = p.add_subparsers(dest="cmd", required=True)

    s = sub.add_parser("pvalues")
    s.add_argument("--effect", type=float, default=0.0, help="true mean in SD units (0 = null true)")
    s.add_argument("--n", type=int, default=20)
    s.add_argument("--reps", type=int, default=5000)
    s.set_defaults(func=cmd_pvalues)

    s = sub.add_parser("ci")
    s.add_argument("--n", type=int, default=10)
    s.add_argument("--true-mean", type=float, default=0.0)
    s.add_argument("--reps", type=int, default=10000)
    s.set_defaults(func=cmd_ci)

    s = sub.add_parser("multiple")
    s.add_argument("--tests", type=int, default=20)
    s.add_argument("--n", type=int, default=20)
    s.add_argument("--reps", type=int, default=5000)
    s.set_defaults(func=cmd_multiple)

    args = p.parse_args(argv)
    if getattr(args, "n", 2) < 2 or args.reps < 1:
        p.error("--n must be >= 2 and --reps >= 1")
    if getattr(args, "tests", 1) < 1:
        p.error("--tests must be >= 1")
    args.func(args, random.Random(args.seed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
