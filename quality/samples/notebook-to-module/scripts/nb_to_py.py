#!/usr/bin/env python3
"""Extract code cells from a Jupyter notebook into a percent-format .py draft.

- Keeps cell order as stored in the file and labels each cell with its
  index and last execution count.
- Comments out IPython line magics (%), shell escapes (!) and whole
  cell-magic cells (%%bash, %%sql, ...) so the draft imports cleanly.
- Warns when execution counts show the cells were run out of order.
- Refuses to overwrite an existing output file unless --force is given.

Standard library only. Usage:
    python nb_to_py.py notebook.ipynb [-o draft.py] [--force]
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def cell_source(cell: dict) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def neutralize(line: str) -> str:
    stripped = line.lstrip()
    if stripped.startswith(("%", "!")):
        return f"# [magic] {line}"
    return line


def convert(nb: dict) -> tuple[str, list[str]]:
    out = ["# %% [markdown]", "# Draft extracted from notebook. Review before use.", ""]
    warnings: list[str] = []
    last_count = 0
    for i, cell in enumerate(nb.get("cells", [])):
        if cell.get("cell_type") != "code":
            continue
        src = cell_source(cell)
        if not src.strip():
            continue
        count = cell.get("execution_count")
        if count is None:
            warnings.append(f"cell {i}: never executed in the saved notebook")
        elif count < last_count:
            warnings.append(
                f"cell {i}: execution_count {count} after {last_count} (ran out of order)"
            )
        if count is not None:
            last_count = max(last_count, count)
        out.append(f"# %% cell {i} (execution_count={count})")
        if src.lstrip().startswith("%%"):
            # Cell magic (%%bash, %%sql, ...): the whole body isn't Python.
            warnings.append(f"cell {i}: cell magic, body commented out")
            out.extend(f"# [magic] {line}" for line in src.splitlines())
        else:
            out.extend(neutralize(line) for line in src.splitlines())
        out.append("")
    return "\n".join(out) + "\n", warnings


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("notebook", type=Path)
    ap.add_argument("-o", "--output", type=Path, help="write here instead of stdout")
    ap.add_argument("--force", action="store_true", help="overwrite --output if it exists")
    args = ap.parse_args()

    nb = json.loads(args.notebook.read_text(encoding="utf-8"))
    text, warnings = convert(nb)

    if args.output:
        if args.output.exists() and not args.force:
            print(f"{args.output} exists; pass --force to overwrite", file=sys.stderr)
            return 1
        args.output.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)

    for w in warnings:
        print(f"warning: {w}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
