#!/usr/bin/env python3
"""Replace {{key}} placeholders in a .docx template, keeping formatting.

Usage:
    python fill_placeholders.py template.docx values.json out.docx

values.json is a flat object: {"client_name": "Acme Ltd", "date": "3 May 2024"}

Word often splits "{{client_name}}" across several runs (spell-check marks,
revision history, autocorrect). A naive run-by-run replace then misses it.
This script:
  1. replaces inside a single run when the placeholder is wholly in one run
     (formatting of that run is kept exactly);
  2. otherwise joins the paragraph's runs into the first run and replaces
     there. Mixed formatting inside *that paragraph* is lost, so it prints a
     warning naming the paragraph, and you should check it.

It refuses to overwrite the template, and if any placeholder would be left
unfilled (a key missing from values.json) it writes nothing and exits 1, so a
half-filled contract or letter never goes out silently.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from docx import Document

PLACEHOLDER = re.compile(r"\{\{\s*([\w.-]+)\s*\}\}")


def replace_in_paragraph(paragraph, values: dict, warnings: list[str]) -> None:
    if "{{" not in paragraph.text:
        return

    def sub(text: str) -> str:
        return PLACEHOLDER.sub(
            lambda m: str(values[m.group(1)]) if m.group(1) in values else m.group(0),
            text,
        )

    # Pass 1: placeholders that sit entirely inside one run.
    for run in paragraph.runs:
        if "{{" in run.text:
            run.text = sub(run.text)

    # Pass 2: anything still matching was split across runs.
    remaining = [m.group(1) for m in PLACEHOLDER.finditer(paragraph.text)]
    if any(key in values for key in remaining):
        runs = paragraph.runs
        if not runs:  # text lives in a hyperlink or content control
            warnings.append(f"could not fill (not in a plain run): {paragraph.text[:60]!r}")
            return
        full = sub("".join(r.text for r in runs))
        runs[0].text = full
        for r in runs[1:]:
            r.text = ""
        warnings.append(f"merged runs to fill split placeholder: {full[:60]!r}")


def walk(container, values: dict, warnings: list[str]) -> None:
    for p in container.paragraphs:
        replace_in_paragraph(p, values, warnings)
    for table in container.tables:
        for row in table.rows:
            for cell in row.cells:
                walk(cell, values, warnings)


def containers(doc):
    """The body plus every header and footer of every section."""
    yield doc
    for section in doc.sections:
        for part in (section.header, section.footer,
                     section.first_page_header, section.first_page_footer,
                     section.even_page_header, section.even_page_footer):
            # A linked part has no definition of its own; touching its
            # paragraphs would *add* an empty header to the document.
            if not part.is_linked_to_previous:
                yield part


def collect(container, found: set) -> None:
    for p in container.paragraphs:
        found.update(PLACEHOLDER.findall(p.text))
    for table in container.tables:
        for row in table.rows:
            for cell in row.cells:
                collect(cell, found)


def main(argv: list[str]) -> int:
    if len(argv) != 4:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    template, values_path, out = (Path(a) for a in argv[1:])
    if out.resolve() == template.resolve():
        print("error: refusing to overwrite the template; choose another output path",
              file=sys.stderr)
        return 2

    values = json.loads(values_path.read_text(encoding="utf-8"))
    doc = Document(str(template))
    warnings: list[str] = []

    for container in containers(doc):
        walk(container, values, warnings)

    for w in warnings:
        print(f"warning: {w}", file=sys.stderr)

    left = set()
    for container in containers(doc):
        collect(container, left)
    if left:
        print("error: no value for: " + ", ".join(sorted(left))
              + " (nothing written)", file=sys.stderr)
        return 1

    doc.save(str(out))
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
