#!/usr/bin/env python3
"""Verify files under a directory against an md5sum-format manifest.

Usage:
    verify_manifest.py MANIFEST --root DIR [--algorithm md5|sha256] [--quiet]

The manifest is the output of `md5sum` (or `sha256sum`) run from inside the
source directory, i.e. lines of the form "<hex digest>  ./relative/path".

Reports files that are missing at the destination, files whose digest differs,
and files present at the destination but absent from the manifest.
Exit status: 0 all entries match, 1 problems found, 2 usage/manifest error.
"""

import argparse
import hashlib
import os
import sys

CHUNK = 8 * 1024 * 1024


def unescape(name):
    """Undo GNU coreutils escaping for names containing backslash or newline."""
    out = []
    i = 0
    while i < len(name):
        ch = name[i]
        if ch == "\\" and i + 1 < len(name):
            nxt = name[i + 1]
            if nxt == "n":
                out.append("\n")
                i += 2
                continue
            if nxt == "\\":
                out.append("\\")
                i += 2
                continue
        out.append(ch)
        i += 1
    return "".join(out)


def parse_manifest(path):
    entries = {}
    with open(path, "r", encoding="utf-8", errors="surrogateescape") as fh:
        for lineno, raw in enumerate(fh, 1):
            line = raw.rstrip("\n")
            if not line.strip():
                continue
            escaped = line.startswith("\\")
            if escaped:
                line = line[1:]
            digest, sep, name = line.partition(" ")
            if not sep or len(name) < 2 or name[0] not in (" ", "*"):
                raise ValueError(f"{path}:{lineno}: not an md5sum/sha256sum line: {raw!r}")
            name = name[1:]
            if escaped:
                name = unescape(name)
            rel = os.path.normpath(name)
            if rel.startswith("..") or os.path.isabs(rel):
                raise ValueError(f"{path}:{lineno}: path escapes the root: {name!r}")
            if rel in entries:
                raise ValueError(f"{path}:{lineno}: duplicate entry for {rel!r}")
            entries[rel] = digest.lower()
    return entries


def file_digest(path, algorithm):
    h = hashlib.new(algorithm)
    with open(path, "rb") as fh:
        while True:
            block = fh.read(CHUNK)
            if not block:
                break
            h.update(block)
    return h.hexdigest()


def walk_files(root):
    found = set()
    for dirpath, _dirnames, filenames in os.walk(root):
        for fn in filenames:
            full = os.path.join(dirpath, fn)
            found.add(os.path.normpath(os.path.relpath(full, root)))
    return found


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("manifest")
    ap.add_argument("--root", required=True, help="directory the manifest paths are relative to")
    ap.add_argument("--algorithm", default="md5", choices=["md5", "sha256"])
    ap.add_argument("--quiet", action="store_true", help="print only problems and the summary")
    args = ap.parse_args(argv)

    if not os.path.isdir(args.root):
        print(f"error: root {args.root!r} is not a directory", file=sys.stderr)
        return 2
    try:
        entries = parse_manifest(args.manifest)
    except (OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if not entries:
        print("error: manifest is empty", file=sys.stderr)
        return 2

    missing, mismatched, ok = [], [], 0
    for rel, expected in sorted(entries.items()):
        full = os.path.join(args.root, rel)
        if not os.path.isfile(full):
            missing.append(rel)
            print(f"MISSING   {rel}")
            continue
        try:
            actual = file_digest(full, args.algorithm)
        except OSError as exc:
            missing.append(rel)
            print(f"UNREADABLE {rel}: {exc}")
            continue
        if actual != expected:
            mismatched.append(rel)
            print(f"MISMATCH  {rel} expected={expected} actual={actual}")
        else:
            ok += 1
            if not args.quiet:
                print(f"OK        {rel}")

    extra = sorted(walk_files(args.root) - set(entries))
    for rel in extra:
        print(f"EXTRA     {rel}")

    print(
        f"\nSUMMARY manifest={len(entries)} ok={ok} missing={len(missing)} "
        f"mismatched={len(mismatched)} extra={len(extra)}"
    )
    if missing or mismatched:
        print("RESULT: FAIL - do not delete the source copy", file=sys.stderr)
        return 1
    if extra:
        print("RESULT: PASS with extra files at destination (review them)")
    else:
        print("RESULT: PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
