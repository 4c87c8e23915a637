#!/usr/bin/env python3
"""Fixed-horizon A/B test calculations from summary counts. Standard library only.

Subcommands
-----------
  srm         sample ratio mismatch check (chi-square goodness of fit)
  proportion  conversion-type metric: two-sample z-test, CIs for the
              absolute difference and the relative lift
  mean        continuous metric from per-arm n / mean / sd (normal approx.)
  mde         minimum detectable effect for a given sample size
  size        sample size per arm for a given minimum detectable effect

Examples
--------
  python ab_readout.py srm --counts 50312 49688
  python ab_readout.py srm --counts 33500 33200 33300 --weights 1 1 1
  python ab_readout.py proportion --control 50312 2516 --treatment 49688 2662
  python ab_readout.py mean --control 50312 41.20 88.5 --treatment 49688 42.05 90.1
  python ab_readout.py mde --n-per-arm 50000 --baseline 0.05
  python ab_readout.py size --baseline 0.05 --mde-rel 0.05

All tests are two-sided and assume the analysis unit equals the randomization
unit (e.g. both are users). Ratio metrics such as revenue per *session* in a
user-randomized test need the delta method or a user-level bootstrap instead;
see the SKILL.md.

Add --json to any subcommand for machine-readable output.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from statistics import NormalDist

N = NormalDist()
SRM_ALPHA = 0.001  # industry-standard threshold: SRM checks run on every test


def z_crit(alpha: float) -> float:
    return N.inv_cdf(1 - alpha / 2)


def two_sided_p(z: float) -> float:
    return 2 * (1 - N.cdf(abs(z)))


def chi2_sf(x: float, df: int) -> float:
    """Survival function of chi-square for integer df (exact recursion)."""
    if x <= 0:
        return 1.0
    if df % 2 == 1:
        q, k = math.erfc(math.sqrt(x / 2)), 1
    else:
        q, k = math.exp(-x / 2), 2
    while k < df:
        # Q(k+2) = Q(k) + (x/2)^(k/2) e^(-x/2) / Gamma(k/2 + 1)
        q += math.exp((k / 2) * math.log(x / 2) - x / 2 - math.lgamma(k / 2 + 1))
        k += 2
    return min(max(q, 0.0), 1.0)


def fmt_pct(x: float, digits: int = 2) -> str:
    return f"{x * 100:+.{digits}f}%"


def srm(counts: list[int], weights: list[float] | None) -> dict:
    if len(counts) < 2:
        raise SystemExit("need at least two arms")
    weights = weights or [1.0] * len(counts)
    if len(weights) != len(counts):
        raise SystemExit("--weights must have one value per arm")
    total, wsum = sum(counts), sum(weights)
    expected = [total * w / wsum for w in weights]
    stat = sum((o - e) ** 2 / e for o, e in zip(counts, expected))
    p = chi2_sf(stat, len(counts) - 1)
    return {
        "counts": counts,
        "expected": [round(e, 1) for e in expected],
        "observed_share": [round(c / total, 5) for c in counts],
        "chi2": round(stat, 4),
        "df": len(counts) - 1,
        "p_value": p,
        "srm_detected": p < SRM_ALPHA,
        "threshold": SRM_ALPHA,
    }


def proportion(control: tuple[int, int], treatment: tuple[int, int], alpha: float) -> dict:
    n_c, x_c = control
    n_t, x_t = treatment
    for n, x in (control, treatment):
        if n <= 0 or not 0 <= x <= n:
            raise SystemExit("need 0 <= conversions <= users, users > 0")
    p_c, p_t = x_c / n_c, x_t / n_t
    diff = p_t - p_c

    pooled = (x_c + x_t) / (n_c + n_t)
    se_pooled = math.sqrt(pooled * (1 - pooled) * (1 / n_c + 1 / n_t))
    z = diff / se_pooled if se_pooled > 0 else 0.0

    se_unpooled = math.sqrt(p_c * (1 - p_c) / n_c + p_t * (1 - p_t) / n_t)
    zc = z_crit(alpha)
    out = {
        "control_rate": p_c,
        "treatment_rate": p_t,
        "abs_diff": diff,
        "abs_ci": [diff - zc * se_unpooled, diff + zc * se_unpooled],
        "z": z,
        "p_value": two_sided_p(z),
        "alpha": alpha,
        "significant": two_sided_p(z) < alpha,
    }
    if x_c > 0 and x_t > 0:
        log_ratio = math.log(p_t / p_c)
        se_log = math.sqrt((1 - p_t) / x_t + (1 - p_c) / x_c)
        out["rel_lift"] = p_t / p_c - 1
        out["rel_ci"] = [math.exp(log_ratio - zc * se_log) - 1,
                         math.exp(log_ratio + zc * se_log) - 1]
    small = min(x_c, x_t, n_c - x_c, n_t - x_t)
    if small < 10:
        out["warning"] = ("fewer than 10 successes or failures in an arm: normal "
                          "approximation unreliable, use an exact test")
    return out


def mean_metric(control: tuple[float, float, float], treatment: tuple[float, float, float],
                alpha: float) -> dict:
    n_c, m_c, s_c = control
    n_t, m_t, s_t = treatment
    if min(n_c, n_t) < 2 or min(s_c, s_t) < 0:
        raise SystemExit("need n >= 2 and sd >= 0 in each arm")
    diff = m_t - m_c
    se = math.sqrt(s_c ** 2 / n_c + s_t ** 2 / n_t)
    z = diff / se if se > 0 else 0.0
    zc = z_crit(alpha)
    out = {
        "control_mean": m_c,
        "treatment_mean": m_t,
        "abs_diff": diff,
        "abs_ci": [diff - zc * se, diff + zc * se],
        "z": z,
        "p_value": two_sided_p(z),
        "alpha": alpha,
        "significant": two_sided_p(z) < alpha,
    }
    if m_c > 0 and m_t > 0:
        log_ratio = math.log(m_t / m_c)
        se_log = math.sqrt(s_t ** 2 / (n_t * m_t ** 2) + s_c ** 2 / (n_c * m_c ** 2))
        out["rel_lift"] = m_t / m_c - 1
        out["rel_ci"] = [math.exp(log_ratio - zc * se_log) - 1,
                         math.exp(log_ratio + zc * se_log) - 1]
    if min(n_c, n_t) < 100:
        out["warning"] = ("n < 100 in an arm: use Welch's t-test "
                          "(scipy.stats.ttest_ind_from_stats, equal_var=False)")
    return out


def mde(n_per_arm: int, baseline: float, alpha: float, power: float) -> dict:
    k = z_crit(alpha) + N.inv_cdf(power)
    abs_mde = k * math.sqrt(2 * baseline * (1 - baseline) / n_per_arm)
    return {"n_per_arm": n_per_arm, "baseline": baseline, "alpha": alpha, "power": power,
            "mde_abs": abs_mde, "mde_rel": abs_mde / baseline}


def size(baseline: float, mde_rel: float, alpha: float, power: float) -> dict:
    delta = baseline * mde_rel
    k = z_crit(alpha) + N.inv_cdf(power)
    n = math.ceil(k ** 2 * 2 * baseline * (1 - baseline) / delta ** 2)
    return {"baseline": baseline, "mde_rel": mde_rel, "mde_abs": delta, "alpha": alpha,
            "power": power, "n_per_arm": n, "n_total": 2 * n}


def print_human(kind: str, r: dict) -> None:
    if kind == "srm":
        print(f"observed: {r['counts']}  expected: {r['expected']}")
        print(f"shares:   {r['observed_share']}")
        print(f"chi2 = {r['chi2']} (df={r['df']}), p = {r['p_value']:.3g}")
        if r["srm_detected"]:
            print(f"SRM DETECTED (p < {r['threshold']}). Do not interpret metric results; "
                  "find the cause first.")
        else:
            print(f"no SRM at p < {r['threshold']}")
        return
    if kind in ("proportion", "mean"):
        label = "rate" if kind == "proportion" else "mean"
        c, t = r[f"control_{label}"], r[f"treatment_{label}"]
        conf = f"{(1 - r['alpha']) * 100:.0f}% CI"
        if kind == "proportion":
            print(f"control {c:.4%}  treatment {t:.4%}")
            lo, hi = r["abs_ci"]
            print(f"absolute diff {r['abs_diff'] * 100:+.3f} pts  "
                  f"{conf} [{lo * 100:+.3f}, {hi * 100:+.3f}] pts")
        else:
            print(f"control {c:.4f}  treatment {t:.4f}")
            lo, hi = r["abs_ci"]
            print(f"absolute diff {r['abs_diff']:+.4f}  {conf} [{lo:+.4f}, {hi:+.4f}]")
        if "rel_lift" in r:
            lo, hi = r["rel_ci"]
            print(f"relative lift {fmt_pct(r['rel_lift'])}  {conf} [{fmt_pct(lo)}, {fmt_pct(hi)}]")
        print(f"z = {r['z']:.3f}, p = {r['p_value']:.4g}  "
              f"({'significant' if r['significant'] else 'not significant'} at alpha={r['alpha']})")
        if "warning" in r:
            print(f"WARNING: {r['warning']}")
        return
    if kind == "mde":
        print(f"with {r['n_per_arm']:,} per arm, baseline {r['baseline']:.2%}, "
              f"alpha {r['alpha']}, power {r['power']:.0%}:")
        print(f"MDE = {r['mde_abs'] * 100:.3f} pts absolute = {r['mde_rel']:.2%} relative")
        return
    if kind == "size":
        print(f"baseline {r['baseline']:.2%}, MDE {r['mde_rel']:.2%} relative "
              f"({r['mde_abs'] * 100:.3f} pts), alpha {r['alpha']}, power {r['power']:.0%}:")
        print(f"n per arm = {r['n_per_arm']:,}  (total {r['n_total']:,})")


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("Examples")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)

    s = sub.add_parser("srm")
    s.add_argument("--counts", type=int, nargs="+", required=True)
    s.add_argument("--weights", type=float, nargs="+")

    p = sub.add_parser("proportion")
    p.add_argument("--control", type=int, nargs=2, metavar=("USERS", "CONVERSIONS"), required=True)
    p.add_argument("--treatment", type=int, nargs=2, metavar=("USERS", "CONVERSIONS"), required=True)
    p.add_argument("--alpha", type=float, default=0.05)

    m = sub.add_parser("mean")
    m.add_argument("--control", type=float, nargs=3, metavar=("N", "MEAN", "SD"), required=True)
    m.add_argument("--treatment", type=float, nargs=3, metavar=("N", "MEAN", "SD"), required=True)
    m.add_argument("--alpha", type=float, default=0.05)

    d = sub.add_parser("mde")
    d.add_argument("--n-per-arm", type=int, required=True)
    d.add_argument("--baseline", type=float, required=True)
    d.add_argument("--alpha", type=float, default=0.05)
    d.add_argument("--power", type=float, default=0.8)

    z = sub.add_parser("size")
    z.add_argument("--baseline", type=float, required=True)
    z.add_argument("--mde-rel", type=float, required=True)
    z.add_argument("--alpha", type=float, default=0.05)
    z.add_argument("--power", type=float, default=0.8)

    for parser in (s, p, m, d, z):
        parser.add_argument("--json", action="store_true")

    a = ap.parse_args(argv)
    if a.cmd == "srm":
        r = srm(a.counts, a.weights)
    elif a.cmd == "proportion":
        r = proportion(tuple(a.control), tuple(a.treatment), a.alpha)
    elif a.cmd == "mean":
        r = mean_metric(tuple(a.control), tuple(a.treatment), a.alpha)
    elif a.cmd == "mde":
        r = mde(a.n_per_arm, a.baseline, a.alpha, a.power)
    else:
        r = size(a.baseline, a.mde_rel, a.alpha, a.power)

    if a.json:
        print(json.dumps(r, indent=2))
    else:
        print_human(a.cmd, r)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
