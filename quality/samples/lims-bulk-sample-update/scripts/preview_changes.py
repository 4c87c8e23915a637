#!/usr/bin/env python3
"""Preview a bulk LIMS update as field-level changes, and write a rollback file.

Usage:
    preview_changes.py BEFORE_CSV UPDATES_CSV --out-dir DIR [--key sample_id]
                       [--protected field1,field2]

BEFORE_CSV   export of the current records (must contain the key and every updated field)
UPDATES_CSV  key column plus the fields to change. Blank cell = leave alone;
             the literal __CLEAR__ = set to empty.

Outputs in DIR:
    plan.csv      key, field, old_value, new_value   (only real changes)
    noop.csv      key, field, value                  (update equals current value)
    rollback.csv  same columns as UPDATES_CSV, holding the old values of changed fields

Exit status: 0 preview OK, 1 blocking problems found (nothing written except the
problem report on stderr), 2 usage/input error.
"""

import argparse
import csv
import os
import sys
from collections import Counter

CLEAR = "__CLEAR__"


def load(path, key):
    with open(path, newline="", encoding="utf-8-sig") as fh:
        reader = csv.DictReader(fh)
        if not reader.fieldnames or key not in reader.fieldnames:
            raise ValueError(f"{path}: no {key!r} column (columns: {reader.fieldnames})")
        rows = list(reader)
    return reader.fieldnames, rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("before_csv")
    ap.add_argument("updates_csv")
    ap.add_argument("--key", default="sample_id")
    ap.add_argument("--protected", default="", help="comma-separated fields that must not change")
    ap.add_argument("--out-dir", required=True)
    args = ap.parse_args(argv)

    try:
        before_fields, before_rows = load(args.before_csv, args.key)
        update_fields, update_rows = load(args.updates_csv, args.key)
    except (OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2

    problems = []
    protected = {f.strip() for f in args.protected.split(",") if f.strip()}

    before_ids = Counter(r[args.key].strip() for r in before_rows)
    dup_before = [k for k, n in before_ids.items() if n > 1]
    if dup_before:
        problems.append(f"duplicate {args.key} in export: {', '.join(sorted(dup_before)[:20])}")
    current = {r[args.key].strip(): r for r in before_rows}

    update_ids = Counter((r[args.key] or "").strip() for r in update_rows)
    dup_updates = [k for k, n in update_ids.items() if n > 1]
    if dup_updates:
        problems.append(f"duplicate {args.key} in updates: {', '.join(sorted(dup_updates)[:20])}")
    if "" in update_ids:
        problems.append(f"{update_ids['']} update row(s) with an empty {args.key}")

    change_fields = [f for f in update_fields if f != args.key]
    if not change_fields:
        problems.append("updates file has no fields to change")
    unknown_cols = [f for f in change_fields if f not in before_fields]
    if unknown_cols:
        problems.append(f"update columns not present in export: {', '.join(unknown_cols)}")

    unknown_ids = sorted(k for k in update_ids if k and k not in current)
    if unknown_ids:
        shown = ", ".join(unknown_ids[:20]) + (" ..." if len(unknown_ids) > 20 else "")
        problems.append(f"{len(unknown_ids)} {args.key}(s) not in export: {shown}")

    plan, noop, rollback = [], [], []
    protected_hits = []
    if not unknown_cols:
        for row in update_rows:
            sid = (row[args.key] or "").strip()
            if sid not in current:
                continue
            rb = {args.key: sid}
            for field in change_fields:
                raw = row.get(field)
                if raw is None or raw.strip() == "":
                    continue
                new = "" if raw.strip() == CLEAR else raw.strip()
                old = (current[sid].get(field) or "").strip()
                if new == old:
                    noop.append({args.key: sid, "field": field, "value": old})
                    continue
                if field in protected:
                    protected_hits.append(f"{sid}.{field}: {old!r} -> {new!r}")
                plan.append({args.key: sid, "field": field, "old_value": old, "new_value": new})
                rb[field] = old if old != "" else CLEAR
            if len(rb) > 1:
                rollback.append(rb)
    if protected_hits:
        problems.append(f"{len(protected_hits)} change(s) to protected fields, e.g. "
                        + "; ".join(protected_hits[:5]))

    if problems:
        print("BLOCKED - fix these before asking for approval:", file=sys.stderr)
        for p in problems:
            print(f"  - {p}", file=sys.stderr)
        return 1

    os.makedirs(args.out_dir, exist_ok=True)
    with open(os.path.join(args.out_dir, "plan.csv"), "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=[args.key, "field", "old_value", "new_value"])
        w.writeheader()
        w.writerows(plan)
    with open(os.path.join(args.out_dir, "noop.csv"), "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=[args.key, "field", "value"])
        w.writeheader()
        w.writerows(noop)
    with open(os.path.join(args.out_dir, "rollback.csv"), "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=[args.key] + change_fields, restval="")
        w.writeheader()
        w.writerows(rollback)

    records = len({p[args.key] for p in plan})
    print(f"{records} record(s) will change; {len(plan)} field change(s); {len(noop)} no-op value(s)")
    per_field = Counter(p["field"] for p in plan)
    for field, n in per_field.most_common():
        top_new = Counter(p["new_value"] for p in plan if p["field"] == field).most_common(5)
        shown = ", ".join(f"{v or '<empty>'} x{c}" for v, c in top_new)
        print(f"  {field}: {n} change(s); most common new values: {shown}")
    untouched = len(current) - records
    print(f"  records in export not changed: {untouched}")
    print(f"wrote plan.csv, noop.csv, rollback.csv to {args.out_dir}. Nothing was applied.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
