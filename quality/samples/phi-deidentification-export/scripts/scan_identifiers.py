#!/usr/bin/env python3
"""Scan a CSV extract for likely HIPAA Safe Harbor identifiers.

The scanner reports column names and match counts only. It never prints cell
values, so its output is safe to paste into a ticket or chat.

Usage:
    python3 scan_identifiers.py extract.csv
    python3 scan_identifiers.py extract.csv --max-rows 200000 --json report.json

Exit codes: 0 = nothing flagged, 1 = findings, 2 = usage or read error.

This is a safety net, not a proof of de-identification. A clean scan does not
mean the file meets Safe Harbor; the checklist in the skill still applies.
"""

import argparse
import csv
import json
import re
import sys

# Column-name hints. Matched against the lower-cased header with
# non-alphanumerics turned into underscores.
NAME_HINTS = {
    "name": r"(^|_)(first|last|middle|full|patient|pt|given|family|sur)?_?name($|_)",
    "ssn": r"(^|_)(ssn|social_security|sin)($|_)",
    "mrn_or_account": r"(^|_)(mrn|medical_record|record_number|account|acct|member_id|subscriber_id|policy_number|beneficiary)($|_)",
    "contact": r"(^|_)(phone|mobile|cell|fax|email|e_mail)($|_)",
    "address": r"(^|_)(address|addr|street|city|county|zip|zipcode|postal|postcode)($|_)",
    "date": r"(^|_)(dob|birth|birthdate|date|dt|admit|admission|discharge|death|dod|service_date)($|_)",
    "device_or_vehicle": r"(^|_)(serial|device_id|udi|vin|plate|license|licence)($|_)",
    "network": r"(^|_)(ip|ip_address|url|website|mac_address)($|_)",
    "free_text": r"(^|_)(note|notes|comment|comments|narrative|free_text|text|memo)($|_)",
}

VALUE_PATTERNS = {
    "ssn_like": re.compile(r"\b\d{3}-\d{2}-\d{4}\b"),
    "email": re.compile(r"\b[\w.+-]+@[\w-]+\.[\w.-]+\b"),
    "phone_like": re.compile(r"(?<!\d)\(?\d{3}\)?[-.\s]\d{3}[-.\s]\d{4}(?!\d)"),
    "full_date": re.compile(
        r"\b(\d{4}-\d{1,2}-\d{1,2}|\d{1,2}/\d{1,2}/\d{2,4}|\d{1,2}-[A-Za-z]{3}-\d{2,4})\b"
    ),
    "ipv4": re.compile(r"\b(?:\d{1,3}\.){3}\d{1,3}\b"),
    "url": re.compile(r"\bhttps?://\S+|\bwww\.\S+", re.IGNORECASE),
}

ZIP5 = re.compile(r"^\d{5}(-\d{4})?$")
ZIP3 = re.compile(r"^\d{3}$")

# Three-digit ZIP prefixes with populations of 20,000 or fewer, per HHS
# de-identification guidance (2000 Census). Check current guidance before
# relying on this list.
RESTRICTED_ZIP3 = {
    "036", "059", "063", "102", "203", "556", "692", "790", "821",
    "823", "830", "831", "878", "879", "884", "890", "893",
}


def normalise_header(header):
    return re.sub(r"[^a-z0-9]+", "_", header.strip().lower()).strip("_")


def header_findings(headers):
    findings = {}
    for header in headers:
        norm = normalise_header(header)
        hits = [label for label, pattern in NAME_HINTS.items() if re.search(pattern, norm)]
        if hits:
            findings[header] = hits
    return findings


def is_age_column(header):
    return re.search(r"(^|_)age($|_|_years|_yrs)", normalise_header(header)) is not None


def is_zip_column(header):
    return re.search(r"(^|_)(zip|zipcode|zip3|postal|postcode)($|_)", normalise_header(header)) is not None


def scan(path, max_rows, delimiter):
    with open(path, newline="", encoding="utf-8-sig") as handle:
        reader = csv.reader(handle, delimiter=delimiter)
        try:
            headers = next(reader)
        except StopIteration:
            raise ValueError("file is empty")

        counts = {header: {} for header in headers}
        rows_scanned = 0
        truncated = False
        for row in reader:
            if rows_scanned >= max_rows:
                truncated = True
                break
            rows_scanned += 1
            for header, cell in zip(headers, row):
                cell = cell.strip()
                if not cell:
                    continue
                col = counts[header]
                for label, pattern in VALUE_PATTERNS.items():
                    if pattern.search(cell):
                        col[label] = col.get(label, 0) + 1
                if is_zip_column(header):
                    if ZIP5.match(cell):
                        col["zip5"] = col.get("zip5", 0) + 1
                    elif ZIP3.match(cell) and cell in RESTRICTED_ZIP3:
                        col["restricted_zip3"] = col.get("restricted_zip3", 0) + 1
                if is_age_column(header):
                    try:
                        if float(cell) > 89:
                            col["age_over_89"] = col.get("age_over_89", 0) + 1
                    except ValueError:
                        pass

    value_findings = {h: c for h, c in counts.items() if c}
    return {
        "file": path,
        "rows_scanned": rows_scanned,
        "row_limit_reached": truncated,
        "columns": len(headers),
        "suspicious_headers": header_findings(headers),
        "value_matches": value_findings,
    }


def print_report(report):
    print(f"File: {report['file']}")
    print(f"Rows scanned: {report['rows_scanned']}"
          + (" (row limit reached; rest of file not scanned)" if report["row_limit_reached"] else ""))
    print(f"Columns: {report['columns']}")
    print()
    if report["suspicious_headers"]:
        print("Suspicious column names:")
        for header, labels in report["suspicious_headers"].items():
            print(f"  {header!r}: {', '.join(labels)}")
    else:
        print("Suspicious column names: none")
    print()
    if report["value_matches"]:
        print("Cells matching identifier patterns (counts only, no values shown):")
        for header, labels in report["value_matches"].items():
            detail = ", ".join(f"{label}={count}" for label, count in sorted(labels.items()))
            print(f"  {header!r}: {detail}")
    else:
        print("Cells matching identifier patterns: none")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", help="CSV file to scan")
    parser.add_argument("--max-rows", type=int, default=100000,
                        help="stop after this many data rows (default 100000)")
    parser.add_argument("--delimiter", default=",", help="field delimiter (default ',')")
    parser.add_argument("--json", metavar="PATH", help="also write the report as JSON to PATH")
    args = parser.parse_args(argv)

    if args.max_rows < 1:
        parser.error("--max-rows must be at least 1")

    try:
        report = scan(args.path, args.max_rows, args.delimiter)
    except (OSError, ValueError, csv.Error, UnicodeDecodeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2

    print_report(report)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(report, out, indent=2)

    flagged = bool(report["suspicious_headers"] or report["value_matches"])
    return 1 if flagged else 0


if __name__ == "__main__":
    sys.exit(main())
