#!/usr/bin/env python3
"""Generate a modular type scale as CSS custom properties, optionally fluid with clamp().

Each step n has size base * ratio**n. For a fluid scale, a small-screen scale (base-min,
ratio-min) and a large-screen scale (base-max, ratio-max) are interpolated linearly between
two viewport widths.

Examples:
  # fixed scale, 16px base, major third
  python3 type_scale.py --base-min 16 --ratio-min major-third

  # fluid scale from 360px to 1280px viewports
  python3 type_scale.py --base-min 16 --base-max 18 --ratio-min minor-third --ratio-max perfect-fourth

  # inspect the numbers instead of CSS
  python3 type_scale.py --base-min 16 --base-max 18 --ratio-min 1.2 --ratio-max 1.25 --format table
"""

from __future__ import annotations

import argparse
import json
import sys

NAMED_RATIOS = {
    "minor-second": 16 / 15,
    "major-second": 9 / 8,
    "minor-third": 6 / 5,
    "major-third": 5 / 4,
    "perfect-fourth": 4 / 3,
    "augmented-fourth": 2 ** 0.5,
    "perfect-fifth": 3 / 2,
    "golden": (1 + 5 ** 0.5) / 2,
}

# Fluid sizes whose max is at most 2.5x their min stay resizable to 200% under browser zoom
# (WCAG 1.4.4); beyond that, zooming may not enlarge text enough.
MAX_FLUID_RANGE = 2.5
SMALLEST_COMFORTABLE_PX = 12


def parse_ratio(value: str) -> float:
    key = value.strip().lower()
    if key in NAMED_RATIOS:
        return NAMED_RATIOS[key]
    try:
        ratio = float(key)
    except ValueError:
        names = ", ".join(NAMED_RATIOS)
        raise argparse.ArgumentTypeError(f"unknown ratio {value!r}; use a number or one of: {names}")
    if ratio <= 1:
        raise argparse.ArgumentTypeError("ratio must be greater than 1")
    return ratio


def fmt(x: float, places: int = 4) -> str:
    text = f"{x:.{places}f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def build_scale(args: argparse.Namespace) -> list[dict]:
    base_max = args.base_max if args.base_max is not None else args.base_min
    ratio_max = args.ratio_max if args.ratio_max is not None else args.ratio_min
    steps = []
    for n in range(-args.steps_down, args.steps_up + 1):
        small = args.base_min * args.ratio_min ** n
        large = base_max * ratio_max ** n
        step = {"step": n, "min_px": small, "max_px": large}
        if abs(large - small) < 0.01:
            step["css"] = f"{fmt(small / args.root_px)}rem"
        else:
            slope = (large - small) / (args.vw_max - args.vw_min)  # px per px of viewport
            intercept = small - slope * args.vw_min  # px
            lo, hi = sorted((small, large))
            sign = "-" if slope < 0 else "+"
            step["css"] = (
                f"clamp({fmt(lo / args.root_px)}rem, "
                f"{fmt(intercept / args.root_px)}rem {sign} {fmt(abs(slope) * 100)}vw, "
                f"{fmt(hi / args.root_px)}rem)"
            )
        steps.append(step)
    return steps


def warnings_for(steps: list[dict]) -> list[str]:
    out = []
    for s in steps:
        lo, hi = sorted((s["min_px"], s["max_px"]))
        if lo < SMALLEST_COMFORTABLE_PX:
            out.append(f"step {s['step']}: {lo:.1f}px is very small for body or UI text")
        if lo > 0 and hi / lo > MAX_FLUID_RANGE:
            out.append(f"step {s['step']}: max/min = {hi / lo:.2f} (> {MAX_FLUID_RANGE}); "
                       "text may not reach 200% under browser zoom")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base-min", type=float, required=True, help="step 0 size in px at the small viewport")
    ap.add_argument("--base-max", type=float, help="step 0 size in px at the large viewport (default: same)")
    ap.add_argument("--ratio-min", type=parse_ratio, required=True, help="ratio at the small viewport")
    ap.add_argument("--ratio-max", type=parse_ratio, help="ratio at the large viewport (default: same)")
    ap.add_argument("--steps-up", type=int, default=5, help="steps above the base (default 5)")
    ap.add_argument("--steps-down", type=int, default=2, help="steps below the base (default 2)")
    ap.add_argument("--vw-min", type=float, default=360, help="small viewport width in px (default 360)")
    ap.add_argument("--vw-max", type=float, default=1280, help="large viewport width in px (default 1280)")
    ap.add_argument("--root-px", type=float, default=16, help="px per rem (default 16; leave it unless html font-size is changed)")
    ap.add_argument("--prefix", default="--step", help="custom property prefix (default --step)")
    ap.add_argument("--format", choices=["css", "table", "json"], default="css")
    args = ap.parse_args()

    if args.base_min <= 0 or (args.base_max is not None and args.base_max <= 0):
        ap.error("base sizes must be positive")
    if args.vw_max <= args.vw_min:
        ap.error("--vw-max must be larger than --vw-min")
    if args.steps_up < 0 or args.steps_down < 0:
        ap.error("step counts cannot be negative")

    steps = build_scale(args)

    if args.format == "json":
        print(json.dumps(steps, indent=2))
    elif args.format == "table":
        print(f"{'step':>5}  {'@' + fmt(args.vw_min) + 'px':>10}  {'@' + fmt(args.vw_max) + 'px':>10}")
        for s in reversed(steps):
            print(f"{s['step']:>5}  {s['min_px']:>8.2f}px  {s['max_px']:>8.2f}px")
    else:
        fluid = any(abs(s["max_px"] - s["min_px"]) >= 0.01 for s in steps)
        desc = f"fluid {fmt(args.vw_min)}px-{fmt(args.vw_max)}px" if fluid else "fixed"
        print(f"/* Type scale ({desc}); generated by type_scale.py */")
        print(":root {")
        for s in reversed(steps):
            print(f"  {args.prefix}-{s['step']}: {s['css']};")
        print("}")

    for w in warnings_for(steps):
        print(f"warning: {w}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
