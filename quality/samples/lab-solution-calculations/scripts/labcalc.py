#!/usr/bin/env python3
"""Small bench calculator that shows its working.

Subcommands:
  mass      grams of solute for a molar solution
  dilute    C1V1 = C2V2 (solve for V1)
  serial    serial dilution series with per-tube volumes
  rcf       rpm -> x g        rpm   x g -> rpm
  dna-nm    ng/uL of dsDNA -> nM
  stock     molarity of a concentrated % w/w reagent (e.g. 37% HCl)

Examples:
  labcalc.py mass --molar 0.5 --volume-ml 250 --mw 58.44
  labcalc.py dilute --c1 10 --c2 0.5 --v2 50
  labcalc.py serial --start 1000 --factor 10 --steps 6 --tube-volume 100
  labcalc.py rcf --rpm 13000 --radius-cm 8.4
  labcalc.py rpm --rcf 16000 --radius-cm 8.4
  labcalc.py dna-nm --ng-per-ul 12.5 --bp 450
  labcalc.py stock --percent 37 --density 1.19 --mw 36.46
"""

import argparse
import math
import sys

RCF_CONST = 1.118e-5  # RCF = 1.118e-5 * r(cm) * rpm^2


def positive(text):
    value = float(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be > 0, got {text}")
    return value


def fmt(x, unit=""):
    if x == 0:
        s = "0"
    elif abs(x) >= 1000:
        s = f"{x:,.0f}"
    elif abs(x) < 0.01:
        s = f"{x:.3e}"
    else:
        s = f"{x:.4g}"
    return f"{s} {unit}".rstrip()


def cmd_mass(a):
    grams = a.molar * (a.volume_ml / 1000.0) * a.mw
    print(f"mass = M x V x MW = {fmt(a.molar, 'mol/L')} x {fmt(a.volume_ml / 1000, 'L')} x {fmt(a.mw, 'g/mol')}")
    print(f"     = {fmt(grams, 'g')}  ({fmt(grams * 1000, 'mg')})")
    print("Check the MW matches the form on the bottle (hydrate vs anhydrous).")


def cmd_dilute(a):
    if a.c2 >= a.c1:
        sys.exit("error: final concentration must be lower than the stock concentration")
    v1 = a.c2 * a.v2 / a.c1
    print(f"V1 = C2 x V2 / C1 = {fmt(a.c2)} x {fmt(a.v2)} / {fmt(a.c1)} = {fmt(v1)}")
    print(f"Take {fmt(v1)} of stock + {fmt(a.v2 - v1)} of diluent = {fmt(a.v2)} total")
    print(f"(dilution factor 1:{fmt(a.c1 / a.c2)}; volumes are in whatever unit you gave V2 in,"
          " and C1/C2 must share a unit)")
    if v1 < 1:
        print("Note: V1 < 1 in these units. If that's < 1 uL, pipetting error will be large;"
              " consider an intermediate dilution.")


def cmd_serial(a):
    if a.factor <= 1:
        sys.exit("error: --factor must be > 1 (e.g. 10 for 1:10)")
    transfer = a.tube_volume / (a.factor - 1)
    print(f"Each tube holds {fmt(a.tube_volume)} diluent; transfer {fmt(transfer)} into it "
          f"(1:{fmt(a.factor)} per step), mix, then carry {fmt(transfer)} to the next tube.")
    print(f"{'tube':>4}  {'concentration':>14}  {'cumulative dilution':>20}")
    conc = a.start
    for i in range(1, a.steps + 1):
        conc /= a.factor
        print(f"{i:>4}  {fmt(conc):>14}  {'1:' + fmt(a.factor ** i):>20}")
    print(f"Final volume per tube: {fmt(a.tube_volume)} (last tube: {fmt(a.tube_volume + transfer)}"
          " unless you discard the extra).")


def cmd_rcf(a):
    rcf = RCF_CONST * a.radius_cm * a.rpm ** 2
    print(f"RCF = 1.118e-5 x r x rpm^2 = 1.118e-5 x {fmt(a.radius_cm, 'cm')} x {fmt(a.rpm)}^2 = {fmt(rcf, 'x g')}")


def cmd_rpm(a):
    rpm = math.sqrt(a.rcf / (RCF_CONST * a.radius_cm))
    print(f"rpm = sqrt(RCF / (1.118e-5 x r)) = sqrt({fmt(a.rcf)} / (1.118e-5 x {fmt(a.radius_cm, 'cm')}))"
          f" = {fmt(rpm, 'rpm')}")
    print("Check the rotor's maximum rated speed before using this.")


def cmd_dna_nm(a):
    nm = a.ng_per_ul * 1e6 / (a.mw_per_bp * a.bp)
    print(f"nM = (ng/uL x 10^6) / ({fmt(a.mw_per_bp, 'g/mol per bp')} x {fmt(a.bp, 'bp')})"
          f" = {fmt(a.ng_per_ul)} x 10^6 / {fmt(a.mw_per_bp * a.bp)} = {fmt(nm, 'nM')}")


def cmd_stock(a):
    molar = a.percent / 100.0 * a.density * 1000.0 / a.mw
    print(f"M = (%/100 x density(g/mL) x 1000) / MW = ({fmt(a.percent)}/100 x {fmt(a.density)} x 1000)"
          f" / {fmt(a.mw)} = {fmt(molar, 'mol/L')}")
    print("Take % and density from the bottle or the lot's CoA; they vary between suppliers.")


def build_parser():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)

    s = sub.add_parser("mass", help="grams for a molar solution")
    s.add_argument("--molar", type=positive, required=True, help="target concentration, mol/L")
    s.add_argument("--volume-ml", type=positive, required=True)
    s.add_argument("--mw", type=positive, required=True, help="g/mol of the form you will weigh")
    s.set_defaults(func=cmd_mass)

    s = sub.add_parser("dilute", help="C1V1 = C2V2")
    s.add_argument("--c1", type=positive, required=True, help="stock concentration")
    s.add_argument("--c2", type=positive, required=True, help="final concentration (same unit as c1)")
    s.add_argument("--v2", type=positive, required=True, help="final volume")
    s.set_defaults(func=cmd_dilute)

    s = sub.add_parser("serial", help="serial dilution series")
    s.add_argument("--start", type=positive, required=True, help="stock concentration")
    s.add_argument("--factor", type=positive, required=True, help="dilution per step, e.g. 10")
    s.add_argument("--steps", type=int, required=True)
    s.add_argument("--tube-volume", type=positive, required=True, help="diluent pre-loaded per tube")
    s.set_defaults(func=cmd_serial)

    s = sub.add_parser("rcf", help="rpm to x g")
    s.add_argument("--rpm", type=positive, required=True)
    s.add_argument("--radius-cm", type=positive, required=True, help="rotor radius (max) in cm")
    s.set_defaults(func=cmd_rcf)

    s = sub.add_parser("rpm", help="x g to rpm")
    s.add_argument("--rcf", type=positive, required=True)
    s.add_argument("--radius-cm", type=positive, required=True)
    s.set_defaults(func=cmd_rpm)

    s = sub.add_parser("dna-nm", help="dsDNA ng/uL to nM")
    s.add_argument("--ng-per-ul", type=positive, required=True)
    s.add_argument("--bp", type=positive, required=True, help="mean fragment length in bp")
    s.add_argument("--mw-per-bp", type=positive, default=660.0,
                   help="g/mol per base pair (default 660; some kits use 650)")
    s.set_defaults(func=cmd_dna_nm)

    s = sub.add_parser("stock", help="molarity of a % w/w concentrated reagent")
    s.add_argument("--percent", type=positive, required=True, help="% w/w, e.g. 37")
    s.add_argument("--density", type=positive, required=True, help="g/mL")
    s.add_argument("--mw", type=positive, required=True)
    s.set_defaults(func=cmd_stock)
    return p


def main(argv=None):
    args = build_parser().parse_args(argv)
    if getattr(args, "steps", 1) < 1:
        sys.exit("error: --steps must be >= 1")
    args.func(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
