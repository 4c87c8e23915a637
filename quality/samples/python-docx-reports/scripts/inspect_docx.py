#!/usr/bin/env python3
"""Print the structure of a .docx in reading order, for checking your output.

Usage:
    python inspect_docx.py report.docx            # outline of body content
    python inspect_docx.py report.docx --styles   # list paragraph/table styles
    python inspect_docx.py report.docx --strict   # exit 1 if {{placeholders}} remain

`Document.paragraphs` skips everything inside tables and does not say where
the tables sit, so this walks the body XML in order instead.
"""

from __future__ import annotations

import re
import sys

from docx import Document
from docx.enum.style import WD_STYLE_TYPE
from docx.oxml.ns import qn
from docx.table import Table
from docx.text.paragraph import Paragraph

PLACEHOLDER = re.compile(r"\{\{\s*[\w.-]+\s*\}\}")


def iter_block_items(doc):
    body = doc.element.body
    for child in body.iterchildren():
        if child.tag == qn("w:p"):
            yield Paragraph(child, doc)
        elif child.tag == qn("w:tbl"):
            yield Table(child, doc)


def short(text: str, width: int = 70) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def all_text(doc):
    """Yield every paragraph's text: body, tables (nested), headers, footers."""

    def from_container(container):
        for p in container.paragraphs:
            yield p.text
        for t in container.tables:
            for row in t.rows:
                for cell in row.cells:
                    yield from from_container(cell)

    yield from from_container(doc)
    for section in doc.sections:
        for part in (section.header, section.footer):
            if not part.is_linked_to_previous:
                yield from from_container(part)


def outline(doc) -> None:
    for item in iter_block_items(doc):
        if isinstance(item, Paragraph):
            style = item.style.name if item.style is not None else "?"
            has_image = bool(item._p.xpath(".//w:drawing"))
            if not item.text.strip() and not has_image:
                continue
            label = "[image]" if has_image and not item.text.strip() else short(item.text)
            if style.startswith("Heading") or style in ("Title", "Subtitle"):
                print(f"{style:>12} | {label}")
            else:
                print(f"{'':>12} | ({style}) {label}")
        else:
            rows, cols = len(item.rows), len(item.columns)
            first = " | ".join(short(c.text, 15) for c in item.rows[0].cells) if rows else ""
            print(f"{'TABLE':>12} | {rows}x{cols} [{first}]")

    for i, section in enumerate(doc.sections):
        orient = "landscape" if section.page_width > section.page_height else "portrait"
        header = "-"
        if not section.header.is_linked_to_previous:
            header = short(" ".join(p.text for p in section.header.paragraphs)) or "-"
        print(f"section {i}: {orient}, header: {header}")


def list_styles(doc) -> None:
    for kind, label in ((WD_STYLE_TYPE.PARAGRAPH, "paragraph"), (WD_STYLE_TYPE.TABLE, "table")):
        names = sorted(s.name for s in doc.styles if s.type == kind)
        print(f"{label} styles ({len(names)}):")
        for name in names:
            print(f"  {name}")


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    doc = Document(argv[1])
    flags = set(argv[2:])

    if "--styles" in flags:
        list_styles(doc)
        return 0

    outline(doc)
    leftovers = sorted({m for text in all_text(doc) for m in PLACEHOLDER.findall(text)})
    if leftovers:
        print("unfilled placeholders: " + ", ".join(leftovers))
        if "--strict" in flags:
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
