#!/usr/bin/env python3
"""Extract every table from the given pages of a PDF into CSV files plus an index.json."""
import argparse
import csv
import json
from pathlib import Path

import pdfplumber


def page_range(spec: str) -> list[int]:
    pages: list[int] = []
    for part in spec.split(","):
        if "-" in part:
            start, end = part.split("-")
            pages.extend(range(int(start), int(end) + 1))
        else:
            pages.append(int(part))
    return pages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("pdf")
    parser.add_argument("--pages", required=True, help="1-based, e.g. 4-7 or 2,5")
    parser.add_argument("--out", default="tables")
    args = parser.parse_args()

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    index = []
    with pdfplumber.open(args.pdf) as pdf:
        for number in page_range(args.pages):
            page = pdf.pages[number - 1]
            for i, table in enumerate(page.find_tables(), start=1):
                name = f"p{number}_t{i}.csv"
                with open(out / name, "w", newline="", encoding="utf-8") as f:
                    csv.writer(f).writerows(table.extract())
                index.append({"file": name, "page": number, "bbox": table.bbox})
    (out / "index.json").write_text(json.dumps(index, indent=2))
    print(f"{len(index)} table(s) written to {out}/")


if __name__ == "__main__":
    main()
