#!/usr/bin/env python3
"""Build a .docx report from a JSON spec using python-docx.

Usage:
    python build_report.py spec.json out.docx

Spec format (all keys except "blocks" are optional):

    {
      "template": "brand-template.docx",
      "title": "Quarterly Operations Review",
      "subtitle": "Q3 2024",
      "header_text": "Internal - do not distribute",
      "landscape": false,
      "blocks": [
        {"type": "heading", "text": "Summary", "level": 1},
        {"type": "paragraph", "text": "Plain text paragraph."},
        {"type": "paragraph", "runs": [
            {"text": "Revenue grew "},
            {"text": "12%", "bold": true},
            {"text": " quarter over quarter."}
        ]},
        {"type": "bullets", "items": ["first", "second"]},
        {"type": "numbered", "items": ["step one", "step two"]},
        {"type": "table", "columns": ["Region", "Revenue"],
         "rows": [["EMEA", "1.2M"], ["APAC", "0.9M"]],
         "style": "Table Grid", "header_fill": "D9E2F3",
         "align_right": [1]},
        {"type": "image", "path": "chart.png", "width_in": 6.0,
         "caption": "Figure 1. Revenue by region"},
        {"type": "page_break"}
      ]
    }

The script checks that every style it needs exists in the template *before*
writing anything, so a typo fails fast instead of producing a half-built file.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from docx import Document
from docx.enum.section import WD_ORIENT
from docx.enum.table import WD_TABLE_ALIGNMENT
from docx.enum.text import WD_ALIGN_PARAGRAPH
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from docx.shared import Inches

BLOCK_STYLES = {
    "bullets": "List Bullet",
    "numbered": "List Number",
    "caption": "Caption",
}


def fail(msg: str) -> None:
    print(f"error: {msg}", file=sys.stderr)
    sys.exit(2)


def style_names(doc) -> set[str]:
    return {s.name for s in doc.styles}


def required_styles(spec: dict) -> set[str]:
    needed = set()
    if spec.get("title"):
        needed.add("Title")
    if spec.get("subtitle"):
        needed.add("Subtitle")
    for block in spec["blocks"]:
        kind = block.get("type")
        if kind == "heading":
            needed.add(f"Heading {block.get('level', 1)}")
        elif kind == "paragraph" and block.get("style"):
            needed.add(block["style"])
        elif kind in ("bullets", "numbered"):
            needed.add(BLOCK_STYLES[kind])
        elif kind == "table":
            needed.add(block.get("style", "Table Grid"))
        elif kind == "image" and block.get("caption"):
            needed.add(BLOCK_STYLES["caption"])
    return needed


def shade_cell(cell, hex_fill: str) -> None:
    """Set a solid background colour on a table cell (no high-level API)."""
    tc_pr = cell._tc.get_or_add_tcPr()
    shd = OxmlElement("w:shd")
    shd.set(qn("w:val"), "clear")
    shd.set(qn("w:color"), "auto")
    shd.set(qn("w:fill"), hex_fill)
    tc_pr.append(shd)


def repeat_as_header(row) -> None:
    """Mark a row to repeat at the top of each page the table spans."""
    tr_pr = row._tr.get_or_add_trPr()
    el = OxmlElement("w:tblHeader")
    el.set(qn("w:val"), "true")
    tr_pr.append(el)


def add_runs(paragraph, runs: list[dict]) -> None:
    for r in runs:
        run = paragraph.add_run(r["text"])
        run.bold = r.get("bold")
        run.italic = r.get("italic")
        run.underline = r.get("underline")


def add_table(doc, block: dict) -> None:
    columns = block["columns"]
    rows = block.get("rows", [])
    for i, row in enumerate(rows):
        if len(row) != len(columns):
            fail(f"table row {i} has {len(row)} cells, expected {len(columns)}")

    table = doc.add_table(rows=1, cols=len(columns))
    table.style = block.get("style", "Table Grid")
    table.alignment = WD_TABLE_ALIGNMENT.CENTER
    right_cols = set(block.get("align_right", []))

    header = table.rows[0]
    repeat_as_header(header)
    for idx, name in enumerate(columns):
        cell = header.cells[idx]
        cell.text = ""
        cell.paragraphs[0].add_run(str(name)).bold = True
        if block.get("header_fill"):
            shade_cell(cell, block["header_fill"])

    for row in rows:
        cells = table.add_row().cells
        for idx, value in enumerate(row):
            cells[idx].text = "" if value is None else str(value)
            if idx in right_cols:
                cells[idx].paragraphs[0].alignment = WD_ALIGN_PARAGRAPH.RIGHT


def build(spec: dict, out_path: Path) -> None:
    if "blocks" not in spec or not isinstance(spec["blocks"], list):
        fail('spec needs a "blocks" list')

    template = spec.get("template")
    if template and not Path(template).is_file():
        fail(f"template not found: {template}")
    doc = Document(template) if template else Document()

    missing = required_styles(spec) - style_names(doc)
    if missing:
        fail(
            "styles not defined in the template: "
            + ", ".join(sorted(missing))
            + " (add them in Word, or pick names from inspect_docx.py --styles)"
        )

    for block in spec["blocks"]:
        if block.get("type") == "image" and not Path(block["path"]).is_file():
            fail(f"image not found: {block['path']}")

    section = doc.sections[0]
    if spec.get("landscape"):
        section.orientation = WD_ORIENT.LANDSCAPE
        # Orientation alone does not rotate the page; swap the dimensions too.
        if section.page_width < section.page_height:
            section.page_width, section.page_height = (
                section.page_height,
                section.page_width,
            )
    if spec.get("header_text"):
        section.header.paragraphs[0].text = spec["header_text"]

    if spec.get("title"):
        doc.add_paragraph(spec["title"], style="Title")
    if spec.get("subtitle"):
        doc.add_paragraph(spec["subtitle"], style="Subtitle")

    for n, block in enumerate(spec["blocks"]):
        kind = block.get("type")
        if kind == "heading":
            doc.add_heading(block["text"], level=block.get("level", 1))
        elif kind == "paragraph":
            p = doc.add_paragraph(style=block.get("style"))
            if "runs" in block:
                add_runs(p, block["runs"])
            else:
                p.add_run(block.get("text", ""))
        elif kind in ("bullets", "numbered"):
            for item in block["items"]:
                doc.add_paragraph(str(item), style=BLOCK_STYLES[kind])
        elif kind == "table":
            add_table(doc, block)
        elif kind == "image":
            doc.add_picture(block["path"], width=Inches(block.get("width_in", 6.0)))
            doc.paragraphs[-1].alignment = WD_ALIGN_PARAGRAPH.CENTER
            if block.get("caption"):
                doc.add_paragraph(block["caption"], style=BLOCK_STYLES["caption"])
        elif kind == "page_break":
            doc.add_page_break()
        else:
            fail(f"block {n}: unknown type {kind!r}")

    out_path.parent.mkdir(parents=True, exist_ok=True)
    doc.save(str(out_path))
    print(f"wrote {out_path}")


def main(argv: list[str]) -> None:
    if len(argv) != 3:
        print(__doc__.split("Spec format")[0].strip(), file=sys.stderr)
        sys.exit(2)
    spec_path, out_path = Path(argv[1]), Path(argv[2])
    if out_path.suffix.lower() != ".docx":
        fail("output must end in .docx")
    with spec_path.open(encoding="utf-8") as fh:
        spec = json.load(fh)
    build(spec, out_path)


if __name__ == "__main__":
    main(sys.argv)
