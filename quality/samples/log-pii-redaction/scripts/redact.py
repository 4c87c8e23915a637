#!/usr/bin/env python3
"""Redact PII and secrets from log files. Writes to stdout; never modifies input.

Usage:
    redact.py [--hash] [--stats] [FILE ...]      (reads stdin if no FILE)

--hash   replace values with [KIND:hmac8] using REDACT_SALT from the environment,
         so equal values stay equal across lines
--stats  print counts per kind to stderr and no log content
"""
import argparse
import hashlib
import hmac
import os
import re
import signal
import sys
from collections import Counter


def luhn_ok(digits: str) -> bool:
    total, alt = 0, False
    for ch in reversed(digits):
        d = int(ch)
        if alt:
            d *= 2
            if d > 9:
                d -= 9
        total += d
        alt = not alt
    return total % 10 == 0


# Order matters: more specific patterns first.
PATTERNS = [
    ("JWT", re.compile(r"\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\b"), None),
    ("TOKEN", re.compile(r"(?i)(\b(?:bearer|basic)\s+)([A-Za-z0-9._~+/=-]{8,})"), 2),
    ("REDACTED", re.compile(
        r"(?i)(\b(?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key)\b\"?\s*[:=]\s*\"?)([^\s\"',;&]+)"), 2),
    ("AWS_KEY_ID", re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"), None),
    ("EMAIL", re.compile(r"\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}\b"), None),
    ("CARD", re.compile(r"\b(?:\d[ -]?){12,18}\d\b"), None),
    ("SSN", re.compile(r"\b(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}\b"), None),
    ("PHONE", re.compile(r"(?<![\w+])\+\d{1,3}[ .-]?(?:\(\d{1,4}\)[ .-]?)?\d{1,4}(?:[ .-]?\d{2,4}){2,4}\b"), None),
    ("IPV4", re.compile(r"\b(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)\b"), None),
    ("IPV6", re.compile(
        r"(?<![\w:])(?:[0-9A-Fa-f]{1,4}:){7}[0-9A-Fa-f]{1,4}(?![\w:])"
        r"|(?<![\w:])(?:[0-9A-Fa-f]{1,4}:){1,6}(?::[0-9A-Fa-f]{1,4}){1,6}(?![\w:])"
        r"|(?<![\w:])(?:[0-9A-Fa-f]{1,4}:){1,7}:(?![\w:])"
        r"|(?<![\w:])::(?:[0-9A-Fa-f]{1,4}:){0,6}[0-9A-Fa-f]{1,4}(?![\w:])"), None),
]


class Redactor:
    def __init__(self, use_hash: bool):
        self.counts = Counter()
        self.key = None
        if use_hash:
            salt = os.environ.get("REDACT_SALT")
            if not salt:
                sys.exit("--hash needs REDACT_SALT set, e.g. REDACT_SALT=$(openssl rand -hex 16)")
            self.key = salt.encode()

    def label(self, kind: str, value: str) -> str:
        if self.key is None:
            return f"[{kind}]"
        digest = hmac.new(self.key, value.encode(), hashlib.sha256).hexdigest()[:8]
        return f"[{kind}:{digest}]"

    def line(self, text: str) -> str:
        for kind, rx, group in PATTERNS:
            def repl(m, kind=kind, group=group):
                value = m.group(group) if group else m.group(0)
                if kind == "CARD":
                    digits = re.sub(r"\D", "", value)
                    if not (13 <= len(digits) <= 19 and luhn_ok(digits)):
                        return m.group(0)
                self.counts[kind] += 1
                if group:
                    return m.group(1) + self.label(kind, value)
                return self.label(kind, value)
            text = rx.sub(repl, text)
        return text


def main():
    if hasattr(signal, "SIGPIPE"):  # behave like a normal CLI under `| head`
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*")
    ap.add_argument("--hash", action="store_true")
    ap.add_argument("--stats", action="store_true")
    args = ap.parse_args()

    r = Redactor(args.hash)
    streams = [open(f, encoding="utf-8", errors="replace") for f in args.files] or [sys.stdin]
    out = sys.stdout
    for s in streams:
        with s:
            for raw in s:
                red = r.line(raw)
                if not args.stats:
                    out.write(red)
    if args.stats:
        for kind, n in sorted(r.counts.items()):
            print(f"{kind}\t{n}", file=sys.stderr)


if __name__ == "__main__":
    main()
