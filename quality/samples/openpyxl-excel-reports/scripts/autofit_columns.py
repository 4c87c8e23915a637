#!/usr/bin/env python3
"""Approximate Excel's "AutoFit column width" for openpyxl worksheets.

Excel computes widths from rendered glyphs; openpyxl has no renderer, so this
estimates from the longest displayed value in each column. Good enough for
reports; not pixel-perfect for proportional fonts.

Use as a library:

    from autofit_columns import autofit
    autofit(ws)                      # before wb.save(...)

or as a CLI on an existing file (writes a copy, never the input):

    python autofit_columns.py report.xlsx                 # -> report_autofit.xlsx
    python autofit_columns.py report.xlsx -o out.xlsx --sheet Sales --max-width 60
"""

from __future__ import annotations

import argparse
import sys
from datetime import date, datetime, time
from pathlib import Path

from openpyxl import load_workbook
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet


def display_length(value, number_format: str = "General") -> int:
    """Rough number of characters Excel would show for a cell value."""
    if value is None:
        return 0
    if isinstance(value, datetime):
        return 16 if (value.hour or value.minute) else 10
    if isinstance(value, (date, time)):
        return 10
    if isinstance(value, bool):
        return 5
    if isinstance(value, (int, float)):
        text = f"{value:,.2f}" if ("0.00" in number_format or isinstance(value, float)) else f"{value:,}"
        if "%" in number_format:
            text = f"{value * 100:.1f}%"
        return len(text)
    text = str(value)
    if text.startswith("="):
        return 10  # formula: result unknown, assume a typical number
    # multi-line cells: the widest line counts
    return max(len(line) for line in text.splitlines()) if text else 0


def autofit(ws: Worksheet, min_width: float = 6, max_width: float = 50, padding: float = 2) -> None:
    """Set each used column's width from its longest value."""
    widths: dict[int, int] = {}
    for row in ws.iter_rows():
        for cell in row:
            if cell.value is None or type(cell).__name__ == "MergedCell":
                continue
            length = display_length(cell.value, cell.number_format)
            if cell.font is not None and cell.font.b:
                length = int(length * 1.1) + 1  # bold text is wider
            widths[cell.column] = max(widths.get(cell.column, 0), length)
    for col, length in widths.items():
        width = min(max(length + padding, min_width), max_width)
        ws.column_dimensions[get_column_letter(col)].width = width


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Autofit column widths in an .xlsx file (writes a copy).")
    ap.add_argument("path", type=Path, help="input .xlsx (not modified)")
    ap.add_argument("-o", "--output", type=Path, help="output path (default: <name>_autofit.xlsx)")
    ap.add_argument("--sheet", action="append", help="sheet to process; repeatable (default: all)")
    ap.add_argument("--max-width", type=float, default=50)
    ap.add_argument("--force", action="store_true", help="overwrite the output file if it exists")
    args = ap.parse_args(argv)

    if args.path.suffix.lower() not in {".xlsx", ".xlsm"}:
        print("only .xlsx/.xlsm files are supported", file=sys.stderr)
        return 2
    out = args.output or args.path.with_name(f"{args.path.stem}_autofit{args.path.suffix}")
    if out.resolve() == args.path.resolve():
        print("refusing to overwrite the input file; choose another --output", file=sys.stderr)
        return 2
    if out.exists() and not args.force:
        print(f"{out} exists; pass --force to overwrite", file=sys.stderr)
        return 1

    keep_vba = args.path.suffix.lower() == ".xlsm"
    wb = load_workbook(args.path, keep_vba=keep_vba)
    names = args.sheet or wb.sheetnames
    missing = [n for n in names if n not in wb.sheetnames]
    if missing:
        print(f"no such sheet(s): {', '.join(missing)}; available: {', '.join(wb.sheetnames)}",
              file=sys.stderr)
        return 2
    for name in names:
        autofit(wb[name], max_width=args.max_width)
    wb.save(out)
    print(f"wrote {out} ({len(names)} sheet(s)). Check charts/images survived: openpyxl may drop them.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
