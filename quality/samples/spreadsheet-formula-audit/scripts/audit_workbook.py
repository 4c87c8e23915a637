#!/usr/bin/env python3
"""Read-only structural audit of an .xlsx/.xlsm workbook's formulas.

Usage:
    python3 audit_workbook.py MODEL.xlsx [--sheet NAME ...] [--limit N]
                              [--ignore-numbers 0,1,100] [--json]

Reports, per sheet:
  * cached error values (#REF!, #DIV/0!, #N/A, ...)
  * formulas that break the pattern of their neighbours (the odd one out in a
    row or column of copied formulas)
  * hard-coded numbers sitting inside a run of formulas
  * numeric literals embedded in formulas
  * references to external workbooks
  * volatile functions (INDIRECT, OFFSET, NOW, TODAY, RAND, ...)
  * numbers stored as text
  * hidden sheets, rows and columns
and workbook-level defined names that point at #REF!.

The workbook is never modified. Requires openpyxl (pip install openpyxl).

Cached values only exist if the file was last saved by a spreadsheet
application. Files written by scripts (openpyxl, pandas) have formulas but no
cached results, so error checks are skipped for them and the report says so.
"""
import argparse
import json
import re
import sys
from collections import defaultdict

try:
    from openpyxl import load_workbook
    from openpyxl.formula import Tokenizer
    from openpyxl.formula.translate import Translator
    from openpyxl.utils import get_column_letter
except ImportError:  # pragma: no cover
    sys.exit("openpyxl is required: pip install openpyxl")

try:  # openpyxl >= 3.1
    from openpyxl.worksheet.formula import ArrayFormula
except ImportError:  # pragma: no cover
    ArrayFormula = None

ERROR_VALUES = {"#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!",
                "#N/A", "#GETTING_DATA", "#SPILL!", "#CALC!"}
VOLATILE = {"INDIRECT", "OFFSET", "NOW", "TODAY", "RAND", "RANDBETWEEN",
            "RANDARRAY", "CELL", "INFO"}
EXTERNAL_REF = re.compile(r"\[[^\]]+\]")   # [1]Sheet!A1 or '[Book.xlsx]Sheet'!A1
NUMERIC_TEXT = re.compile(r"\s*[-+]?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?%?\s*")


def formula_text(value):
    """Return the formula string for a cell value, or None if not a formula."""
    if ArrayFormula is not None and isinstance(value, ArrayFormula):
        return value.text
    if isinstance(value, str) and value.startswith("=") and len(value) > 1:
        return value
    return None


def normalise(formula):
    return re.sub(r"\s+", "", formula).upper()


def same_pattern(src_formula, src_coord, dst_formula, dst_coord):
    """True if dst_formula is src_formula copied from src_coord to dst_coord."""
    try:
        moved = Translator(src_formula, origin=src_coord).translate_formula(dst_coord)
    except Exception:  # malformed or unsupported formula: don't guess
        return True
    return normalise(moved) == normalise(dst_formula)


def tokens(formula):
    try:
        return Tokenizer(formula).items
    except Exception:
        return []


class Findings:
    def __init__(self, limit):
        self.limit = limit
        self.items = defaultdict(list)
        self.counts = defaultdict(int)

    def add(self, category, where, detail):
        self.counts[category] += 1
        if len(self.items[category]) < self.limit:
            self.items[category].append({"cell": where, "detail": detail})


def audit_sheet(ws_f, ws_v, ignore_numbers, findings):
    grid = {}          # (row, col) -> formula text
    constants = {}     # (row, col) -> numeric constant
    stats = {"formulas": 0, "formulas_without_cached_value": 0}

    for row in ws_f.iter_rows():
        for cell in row:
            f = formula_text(cell.value)
            key = (cell.row, cell.column)
            where = f"{ws_f.title}!{cell.coordinate}"
            if f is None:
                if isinstance(cell.value, (int, float)) and not isinstance(cell.value, bool):
                    constants[key] = cell.value
                elif isinstance(cell.value, str) and NUMERIC_TEXT.fullmatch(cell.value):
                    findings.add("number_stored_as_text", where, repr(cell.value))
                continue

            grid[key] = f
            stats["formulas"] += 1

            cached = ws_v.cell(row=cell.row, column=cell.column).value
            if cached is None:
                stats["formulas_without_cached_value"] += 1
            elif isinstance(cached, str) and cached in ERROR_VALUES:
                findings.add("error_value", where, f"{cached}  {f}")

            if EXTERNAL_REF.search(f):
                findings.add("external_reference", where, f)

            for tok in tokens(f):
                if tok.type == "FUNC" and tok.subtype == "OPEN":
                    name = tok.value.rstrip("(").upper().replace("_XLFN.", "")
                    if name in VOLATILE:
                        findings.add("volatile_function", where, f"{name}: {f}")
                elif tok.type == "OPERAND" and tok.subtype == "NUMBER":
                    try:
                        num = float(tok.value)
                    except ValueError:
                        continue
                    if num not in ignore_numbers:
                        findings.add("literal_in_formula", where, f"{tok.value} in {f}")

    # Odd-one-out checks along columns (vertical fill) and rows (horizontal fill).
    for (r, c), f in grid.items():
        coord = f"{get_column_letter(c)}{r}"
        for dr, dc, axis in ((1, 0, "column"), (0, 1, "row")):
            prev_key, next_key = (r - dr, c - dc), (r + dr, c + dc)
            if prev_key not in grid or next_key not in grid:
                continue
            prev_coord = f"{get_column_letter(prev_key[1])}{prev_key[0]}"
            next_coord = f"{get_column_letter(next_key[1])}{next_key[0]}"
            neighbours_agree = same_pattern(grid[prev_key], prev_coord, grid[next_key], next_coord)
            if neighbours_agree and not same_pattern(grid[prev_key], prev_coord, f, coord):
                expected = Translator(grid[prev_key], origin=prev_coord).translate_formula(coord)
                findings.add("inconsistent_formula", f"{ws_f.title}!{coord}",
                             f"{f}  (neighbours in {axis} suggest {expected})")

    for (r, c), value in constants.items():
        coord = f"{get_column_letter(c)}{r}"
        for dr, dc, axis in ((1, 0, "column"), (0, 1, "row")):
            prev_key, next_key = (r - dr, c - dc), (r + dr, c + dc)
            if prev_key in grid and next_key in grid:
                prev_coord = f"{get_column_letter(prev_key[1])}{prev_key[0]}"
                next_coord = f"{get_column_letter(next_key[1])}{next_key[0]}"
                if same_pattern(grid[prev_key], prev_coord, grid[next_key], next_coord):
                    findings.add("hardcoded_in_formula_run", f"{ws_f.title}!{coord}",
                                 f"constant {value!r} between formulas in {axis}")
                    break

    hidden_rows = [r for r, d in ws_f.row_dimensions.items() if d.hidden]
    hidden_cols = []
    for d in ws_f.column_dimensions.values():
        if d.hidden and d.min and d.max:
            hidden_cols.extend(get_column_letter(i) for i in range(d.min, d.max + 1))
    if hidden_rows:
        findings.add("hidden_rows", ws_f.title,
                     f"{len(hidden_rows)} hidden: {', '.join(map(str, hidden_rows[:20]))}")
    if hidden_cols:
        findings.add("hidden_columns", ws_f.title, ", ".join(hidden_cols[:20]))
    return stats


def defined_names(wb):
    names = getattr(wb, "defined_names", None)
    if names is None:
        return []
    if hasattr(names, "values"):          # openpyxl >= 3.1: dict-like
        return list(names.values())
    return list(getattr(names, "definedName", []))  # openpyxl 3.0


def main():
    ap = argparse.ArgumentParser(description="Read-only formula audit of an Excel workbook.")
    ap.add_argument("path")
    ap.add_argument("--sheet", action="append", help="only audit this sheet (repeatable)")
    ap.add_argument("--limit", type=int, default=25, help="max examples per category (default 25)")
    ap.add_argument("--ignore-numbers", default="0,1,100",
                    help="literals not worth flagging inside formulas (default 0,1,100)")
    ap.add_argument("--json", action="store_true", help="emit JSON instead of Markdown")
    args = ap.parse_args()

    try:
        ignore = {float(x) for x in args.ignore_numbers.split(",") if x.strip()}
    except ValueError:
        ap.error("--ignore-numbers must be a comma-separated list of numbers")

    try:
        wb_f = load_workbook(args.path, data_only=False)
        wb_v = load_workbook(args.path, data_only=True)
    except Exception as exc:
        sys.exit(f"could not open {args.path}: {exc}")

    sheets = args.sheet or wb_f.sheetnames
    missing = [s for s in sheets if s not in wb_f.sheetnames]
    if missing:
        sys.exit(f"no such sheet(s): {', '.join(missing)}; have: {', '.join(wb_f.sheetnames)}")

    findings = Findings(args.limit)
    summary = {}
    for name in sheets:
        ws_f = wb_f[name]
        if ws_f.sheet_state != "visible":
            findings.add("hidden_sheet", name, ws_f.sheet_state)
        if not hasattr(ws_f, "iter_rows"):   # chartsheets have no cells
            continue
        summary[name] = audit_sheet(ws_f, wb_v[name], ignore, findings)

    for dn in defined_names(wb_f):
        if "#REF!" in (dn.attr_text or ""):
            findings.add("broken_defined_name", dn.name, dn.attr_text)

    has_formulas = any(s["formulas"] for s in summary.values())
    no_cache = has_formulas and all(s["formulas"] == s["formulas_without_cached_value"]
                                    for s in summary.values() if s["formulas"])

    if args.json:
        json.dump({"file": args.path, "sheets": summary, "no_cached_values": no_cache,
                   "counts": findings.counts, "findings": findings.items}, sys.stdout, indent=2)
        print()
        return 0

    print(f"# Formula audit: {args.path}\n")
    print("| Sheet | Formulas | Without cached value |")
    print("|---|---:|---:|")
    for name, s in summary.items():
        print(f"| {name} | {s['formulas']} | {s['formulas_without_cached_value']} |")
    print()
    if no_cache:
        print("> No cached values found. The file was probably written by a script, so "
              "error values could not be checked. Recalculate and save it in Excel "
              "or LibreOffice, then re-run.\n")
    if not findings.counts:
        print("No findings.")
        return 0
    for category in sorted(findings.counts):
        total = findings.counts[category]
        shown = findings.items[category]
        print(f"## {category} ({total})\n")
        for item in shown:
            print(f"- `{item['cell']}`: {item['detail']}")
        if total > len(shown):
            print(f"- … {total - len(shown)} more (raise --limit to see them)")
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
