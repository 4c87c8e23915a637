#!/usr/bin/env python3
"""Summarise DMARC aggregate (rua) reports by sending source.

Reads .xml, .xml.gz / .gz and .zip report files (or folders containing them) and prints one row
per (source IP, header_from domain) with message counts and the DMARC pass rate.

Reports arrive from the internet and must be treated as untrusted input:
  * XML is parsed with defusedxml when it is installed (pip install defusedxml); otherwise the
    standard library parser is used and a warning is printed.
  * Decompressed files larger than --max-bytes are skipped.

Examples:
  python3 dmarc_summary.py reports/ --domain example.com
  python3 dmarc_summary.py reports/ --domain example.com --rdns --failing-only
  python3 dmarc_summary.py reports/ --tsv > summary.tsv
"""

from __future__ import annotations

import argparse
import gzip
import socket
import sys
import zipfile
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

try:
    from defusedxml import ElementTree as ET  # type: ignore[import-not-found]

    SAFE_PARSER = True
except ImportError:  # pragma: no cover - depends on environment
    from xml.etree import ElementTree as ET  # noqa: N817

    SAFE_PARSER = False

DEFAULT_MAX_BYTES = 50 * 1024 * 1024


@dataclass
class SourceStats:
    messages: int = 0
    dmarc_pass: int = 0
    dkim_domains: set[str] = field(default_factory=set)
    spf_domains: set[str] = field(default_factory=set)
    reporters: set[str] = field(default_factory=set)


def warn(msg: str) -> None:
    print(f"warning: {msg}", file=sys.stderr)


def strip_namespaces(root) -> None:
    """Drop XML namespaces so DMARCbis-style reports parse like RFC 7489 ones."""
    for el in root.iter():
        if isinstance(el.tag, str) and "}" in el.tag:
            el.tag = el.tag.split("}", 1)[1]


def read_limited(fh, limit: int, name: str) -> bytes | None:
    data = fh.read(limit + 1)
    if len(data) > limit:
        warn(f"{name}: larger than {limit} bytes after decompression, skipped")
        return None
    return data


def iter_report_blobs(path: Path, limit: int) -> Iterator[tuple[str, bytes]]:
    name = path.name.lower()
    try:
        if name.endswith(".zip"):
            with zipfile.ZipFile(path) as zf:
                for info in zf.infolist():
                    if info.is_dir() or not info.filename.lower().endswith(".xml"):
                        continue
                    if info.file_size > limit:
                        warn(f"{path}:{info.filename}: declared size too large, skipped")
                        continue
                    with zf.open(info) as fh:
                        data = read_limited(fh, limit, f"{path}:{info.filename}")
                    if data is not None:
                        yield f"{path}:{info.filename}", data
        elif name.endswith(".gz"):
            with gzip.open(path, "rb") as fh:
                data = read_limited(fh, limit, str(path))
            if data is not None:
                yield str(path), data
        elif name.endswith(".xml"):
            with path.open("rb") as fh:
                data = read_limited(fh, limit, str(path))
            if data is not None:
                yield str(path), data
    except (OSError, zipfile.BadZipFile, EOFError) as exc:
        warn(f"{path}: could not read ({exc})")


def iter_paths(inputs: list[str]) -> Iterator[Path]:
    for raw in inputs:
        p = Path(raw)
        if p.is_dir():
            yield from sorted(q for q in p.rglob("*") if q.is_file())
        elif p.is_file():
            yield p
        else:
            warn(f"{raw}: not found")


def text(el, path: str, default: str = "") -> str:
    found = el.find(path)
    if found is None or found.text is None:
        return default
    return found.text.strip()


def domain_matches(header_from: str, wanted: str | None) -> bool:
    if not wanted:
        return True
    header_from, wanted = header_from.lower(), wanted.lower()
    return header_from == wanted or header_from.endswith("." + wanted)


def parse_report(name: str, data: bytes, stats: dict, wanted: str | None) -> int:
    try:
        root = ET.fromstring(data)
    except Exception as exc:  # defusedxml raises its own exception types too
        warn(f"{name}: not a parseable report ({type(exc).__name__}: {exc})")
        return 0
    strip_namespaces(root)
    reporter = text(root, "report_metadata/org_name", "?")
    records = 0
    for rec in root.iter("record"):
        ip = text(rec, "row/source_ip", "?")
        header_from = text(rec, "identifiers/header_from", "?").lower()
        if not domain_matches(header_from, wanted):
            continue
        try:
            count = int(text(rec, "row/count", "0"))
        except ValueError:
            warn(f"{name}: bad count for {ip}, record skipped")
            continue
        dkim = text(rec, "row/policy_evaluated/dkim").lower()
        spf = text(rec, "row/policy_evaluated/spf").lower()
        s = stats[(ip, header_from)]
        s.messages += count
        if dkim == "pass" or spf == "pass":
            s.dmarc_pass += count
        for d in rec.findall("auth_results/dkim"):
            dom = text(d, "domain")
            if dom:
                s.dkim_domains.add(dom.lower())
        for d in rec.findall("auth_results/spf"):
            dom = text(d, "domain")
            if dom:
                s.spf_domains.add(dom.lower())
        s.reporters.add(reporter)
        records += 1
    return records


def reverse_dns(ip: str, cache: dict[str, str]) -> str:
    if ip not in cache:
        try:
            cache[ip] = socket.gethostbyaddr(ip)[0]
        except (OSError, UnicodeError):
            cache[ip] = "-"
    return cache[ip]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("inputs", nargs="+", help="report files or folders")
    ap.add_argument("--domain", help="only rows whose header_from is this domain or a subdomain")
    ap.add_argument("--failing-only", action="store_true", help="only sources below 100%% DMARC pass")
    ap.add_argument("--rdns", action="store_true", help="add reverse DNS names (slow; does network lookups)")
    ap.add_argument("--tsv", action="store_true", help="tab-separated output instead of aligned columns")
    ap.add_argument("--max-bytes", type=int, default=DEFAULT_MAX_BYTES,
                    help="skip reports larger than this after decompression (default 50 MiB)")
    args = ap.parse_args()

    if not SAFE_PARSER:
        warn("defusedxml not installed; using the standard library XML parser. "
             "Install defusedxml before parsing reports from unknown senders.")

    stats: dict[tuple[str, str], SourceStats] = defaultdict(SourceStats)
    files = records = 0
    for path in iter_paths(args.inputs):
        for name, data in iter_report_blobs(path, args.max_bytes):
            files += 1
            records += parse_report(name, data, stats, args.domain)

    if not stats:
        warn(f"no matching records found ({files} report files read)")
        return 1

    header = ["source_ip"] + (["rdns"] if args.rdns else []) + [
        "header_from", "messages", "dmarc_pass", "reporters", "dkim_domains", "spf_domains"]
    rows = []
    cache: dict[str, str] = {}
    for (ip, hfrom), s in sorted(stats.items(), key=lambda kv: -kv[1].messages):
        rate = 100.0 * s.dmarc_pass / s.messages if s.messages else 0.0
        if args.failing_only and s.messages and s.dmarc_pass == s.messages:
            continue
        row = [ip] + ([reverse_dns(ip, cache)] if args.rdns else []) + [
            hfrom, str(s.messages), f"{rate:.1f}%", str(len(s.reporters)),
            ",".join(sorted(s.dkim_domains)) or "-", ",".join(sorted(s.spf_domains)) or "-"]
        rows.append(row)

    if args.tsv:
        print("\t".join(header))
        for row in rows:
            print("\t".join(row))
    else:
        widths = [max(len(r[i]) for r in [header] + rows) for i in range(len(header))]
        for r in [header] + rows:
            print("  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip())

    total = sum(s.messages for s in stats.values())
    passed = sum(s.dmarc_pass for s in stats.values())
    print(f"\n{files} report files, {records} records, {total} messages, "
          f"{100.0 * passed / total if total else 0:.1f}% DMARC pass overall", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
