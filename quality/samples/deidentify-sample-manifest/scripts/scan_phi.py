#!/usr/bin/env python3
"""Scan sample manifests (CSV/TSV/XLSX) for likely identifiers before sharing.

Usage:
    scan_phi.py FILE [FILE ...] [--id-regex REGEX ...] [--max-examples N]

Looks for:
  * suspicious column headers (name, dob, mrn, address, phone, email, ...)
  * values that look like emails, phone numbers, US SSNs, full dates,
    ZIP codes (in zip/postal columns), ages of 90 or more (in age columns)
  * site-specific identifiers given with --id-regex (e.g. 'MRN\\d{7}')
  * spreadsheet formula-injection prefixes (= + - @) in text cells
  * XLSX only: hidden sheets, hidden rows/columns, cell comments

Findings are printed with masked examples so the report itself does not
repeat the identifiers. This is a screening aid, not proof of de-identification:
a clean scan still needs the manual review in SKILL.md.

Exit status: 0 nothing found, 1 findings, 2 usage/read error.
"""

import argparse
import csv
import os
import re
import sys
from collections import defaultdict

HEADER_HINTS = [
    "name", "first", "last", "surname", "initials", "dob", "birth", "mrn", "medical record",
    "ssn", "social", "nhs", "address", "street", "city", "zip", "postal", "postcode",
    "phone", "mobile", "fax", "email", "e-mail", "patient", "guardian", "contact",
    "account", "insurance", "licen", "ip_addr", "ip address", "url", "photo", "device serial",
]
# Header words that contain a hint as a substring but are usually harmless.
HEADER_ALLOW = {"sample_name", "filename", "file_name", "run_name", "library_name", "plate_name",
                "project_name", "instrument_name", "study_name", "name_of_assay"}

PATTERNS = {
    "email": re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}"),
    "ssn": re.compile(r"\b\d{3}-\d{2}-\d{4}\b"),
    "phone": re.compile(r"(?:\+\d{1,3}[\s.-]?)?\(?\d{2,4}\)?[\s.-]\d{3,4}[\s.-]\d{3,4}\b"),
    "full_date": re.compile(
        r"\b(?:\d{4}-\d{1,2}-\d{1,2}|\d{1,2}/\d{1,2}/\d{2,4}|\d{1,2}\.\d{1,2}\.\d{2,4}"
        r"|\d{1,2}[- ](?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*[- ]\d{2,4})\b",
        re.IGNORECASE),
}
ZIP_RE = re.compile(r"^\d{5}(?:-\d{4})?$")
NUMBER_RE = re.compile(r"^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$")
FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")


def mask(value):
    value = str(value)
    if len(value) <= 2:
        return "*" * len(value)
    keep = max(1, len(value) // 5)
    return value[:keep] + "*" * (len(value) - 2 * keep) + value[-keep:]


class Report:
    def __init__(self, max_examples):
        self.max_examples = max_examples
        self.hits = defaultdict(list)   # (file, sheet, column, kind) -> [location, ...]
        self.examples = {}
        self.notes = []

    def add(self, file, sheet, column, kind, location, value=None):
        key = (file, sheet, column, kind)
        self.hits[key].append(location)
        if value is not None and key not in self.examples:
            self.examples[key] = mask(value)

    def note(self, file, text):
        self.notes.append((file, text))

    def print(self):
        if not self.hits and not self.notes:
            print("No findings. (Still do the manual review: this scan cannot see free-text context.)")
            return 0
        for file, text in self.notes:
            print(f"[{file}] {text}")
        for (file, sheet, column, kind), locs in sorted(self.hits.items(), key=lambda kv: kv[0]):
            where = f"{file}" + (f" / sheet '{sheet}'" if sheet else "")
            shown = ", ".join(locs[: self.max_examples]) + (" ..." if len(locs) > self.max_examples else "")
            example = self.examples.get((file, sheet, column, kind))
            ex = f" e.g. {example}" if example else ""
            print(f"[{where}] column '{column}': {kind} x{len(locs)} at {shown}{ex}")
        return 1


def header_is_suspicious(header):
    h = (header or "").strip().lower()
    if h in HEADER_ALLOW:
        return False
    return any(hint in h for hint in HEADER_HINTS)


def scan_table(report, file, sheet, headers, rows, id_regexes):
    """rows: iterable of (row_number, [values]) in the same order as headers."""
    for col, header in enumerate(headers):
        if header_is_suspicious(header):
            report.add(file, sheet, header or f"col{col + 1}", "suspicious header", "header")
    lower_headers = [(h or "").lower() for h in headers]
    for rownum, values in rows:
        for col, value in enumerate(values):
            if value is None:
                continue
            text = str(value).strip()
            if not text:
                continue
            header = headers[col] if col < len(headers) and headers[col] else f"col{col + 1}"
            hl = lower_headers[col] if col < len(lower_headers) else ""
            loc = f"row {rownum}"
            raw = str(value)
            if raw.startswith(FORMULA_PREFIXES) and not NUMBER_RE.match(text):
                report.add(file, sheet, header, "formula-injection prefix", loc, raw)
            for kind, pattern in PATTERNS.items():
                if pattern.search(text):
                    report.add(file, sheet, header, kind, loc, text)
            if ("zip" in hl or "postal" in hl or "postcode" in hl) and ZIP_RE.match(text):
                report.add(file, sheet, header, "zip code", loc, text)
            if "age" in hl.split("_") or hl in ("age", "age_years", "age (years)"):
                if NUMBER_RE.match(text) and float(text) >= 90:
                    report.add(file, sheet, header, "age >= 90", loc, text)
            for rx in id_regexes:
                if rx.search(text):
                    report.add(file, sheet, header, f"matches --id-regex {rx.pattern}", loc, text)


def scan_delimited(report, path, id_regexes):
    delimiter = "\t" if path.lower().endswith((".tsv", ".tab", ".txt")) else ","
    with open(path, newline="", encoding="utf-8-sig", errors="replace") as fh:
        reader = csv.reader(fh, delimiter=delimiter)
        try:
            headers = next(reader)
        except StopIteration:
            report.note(path, "empty file")
            return
        rows = ((i, row) for i, row in enumerate(reader, 2))
        scan_table(report, path, None, headers, rows, id_regexes)


def scan_xlsx(report, path, id_regexes):
    try:
        import openpyxl
    except ImportError:
        report.note(path, "openpyxl not installed: cannot scan .xlsx (pip install openpyxl), "
                          "or export every sheet to CSV, including hidden ones")
        return
    wb = openpyxl.load_workbook(path, data_only=False)
    for ws in wb.worksheets:
        if ws.sheet_state != "visible":
            report.note(path, f"sheet '{ws.title}' is {ws.sheet_state}: it will be shared too")
        hidden_cols = [k for k, d in ws.column_dimensions.items() if d.hidden]
        if hidden_cols:
            report.note(path, f"sheet '{ws.title}' has hidden column(s): {', '.join(sorted(hidden_cols))}")
        hidden_rows = [k for k, d in ws.row_dimensions.items() if d.hidden]
        if hidden_rows:
            report.note(path, f"sheet '{ws.title}' has {len(hidden_rows)} hidden row(s), "
                              f"first: {sorted(hidden_rows)[:5]}")
        comments = sum(1 for row in ws.iter_rows() for c in row if c.comment is not None)
        if comments:
            report.note(path, f"sheet '{ws.title}' has {comments} cell comment(s): review or remove")
        rows_iter = ws.iter_rows(values_only=True)
        try:
            headers = [("" if h is None else str(h)) for h in next(rows_iter)]
        except StopIteration:
            continue
        rows = ((i, list(r)) for i, r in enumerate(rows_iter, 2))
        scan_table(report, path, ws.title, headers, rows, id_regexes)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+")
    ap.add_argument("--id-regex", action="append", default=[],
                    help="extra identifier pattern, e.g. 'MRN\\d{7}' (repeatable)")
    ap.add_argument("--max-examples", type=int, default=3, help="locations listed per finding")
    args = ap.parse_args(argv)

    try:
        id_regexes = [re.compile(p) for p in args.id_regex]
    except re.error as exc:
        print(f"error: bad --id-regex: {exc}", file=sys.stderr)
        return 2

    report = Report(args.max_examples)
    for path in args.files:
        if not os.path.isfile(path):
            print(f"error: {path} not found", file=sys.stderr)
            return 2
        lower = path.lower()
        try:
            if lower.endswith((".xlsx", ".xlsm")):
                scan_xlsx(report, path, id_regexes)
            elif lower.endswith(".xls"):
                report.note(path, "legacy .xls not supported: re-save as .xlsx and scan again")
            else:
                scan_delimited(report, path, id_regexes)
        except Exception as exc:  # report and keep scanning the other files
            report.note(path, f"could not be read ({exc.__class__.__name__}: {exc}); treat as NOT scanned")
    return report.print()


if __name__ == "__main__":
    sys.exit(main())
