#!/usr/bin/env python3
"""Check a Python regular expression against should-match / should-not-match cases.

Usage:
    python3 regex_check.py CASES.json [--timeout SECONDS]

CASES.json format:
    {
      "pattern": "^v?(\\d+)\\.(\\d+)\\.(\\d+)$",
      "flags": ["IGNORECASE", "VERBOSE"],        # optional, names from the re module
      "mode": "fullmatch",                        # fullmatch | match | search (default: search)
      "match": ["1.2.3", "v10.0.1"],
      "no_match": ["1.2", "01.2.3.4"],
      "groups": {"v10.0.1": ["10", "0", "1"]},    # optional expected groups for a match
      "stress": [{"repeat": "1.", "times": 5000, "suffix": "x"}]   # optional
    }

Each "stress" input is built as repeat * times + suffix and run in a child
process. If it doesn't finish within --timeout seconds (default 2), the
pattern probably backtracks catastrophically on that shape of input.

Only tests Python's `re` flavor. Results don't carry over to JavaScript, PCRE,
Go (RE2) or grep without re-testing in that engine.

Exit status: 0 if every case passes, 1 if any case fails, 2 on bad input.
"""
import argparse
import json
import multiprocessing
import re
import sys

MODES = ("fullmatch", "match", "search")


def compile_pattern(spec):
    flags = 0
    for name in spec.get("flags", []):
        try:
            flags |= getattr(re, name.upper())
        except AttributeError:
            raise ValueError(f"unknown flag {name!r}") from None
    return re.compile(spec["pattern"], flags)


def run(regex, mode, text):
    return getattr(regex, mode)(text)


def _stress_worker(pattern, flags, mode, text):
    getattr(re.compile(pattern, flags), mode)(text)


def stress(regex, mode, text, timeout):
    """Return True if the match finished within `timeout` seconds, else False."""
    proc = multiprocessing.Process(
        target=_stress_worker, args=(regex.pattern, regex.flags, mode, text)
    )
    proc.start()
    proc.join(timeout)
    if proc.is_alive():
        proc.terminate()
        proc.join()
        return False
    return True


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", help="path to a JSON cases file")
    parser.add_argument("--timeout", type=float, default=2.0,
                        help="seconds allowed per stress input (default: 2)")
    args = parser.parse_args()

    try:
        with open(args.cases, encoding="utf-8") as fh:
            spec = json.load(fh)
        regex = compile_pattern(spec)
    except (OSError, json.JSONDecodeError, KeyError, ValueError, re.error) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2

    mode = spec.get("mode", "search")
    if mode not in MODES:
        print(f"error: mode must be one of {', '.join(MODES)}", file=sys.stderr)
        return 2

    failures = 0
    total = 0

    for text in spec.get("match", []):
        total += 1
        if not run(regex, mode, text):
            failures += 1
            print(f"FAIL  should match:     {text!r}")

    for text in spec.get("no_match", []):
        total += 1
        m = run(regex, mode, text)
        if m:
            failures += 1
            print(f"FAIL  should not match: {text!r} (matched {m.group(0)!r})")

    for text, expected in spec.get("groups", {}).items():
        total += 1
        m = run(regex, mode, text)
        got = list(m.groups()) if m else None
        if got != expected:
            failures += 1
            print(f"FAIL  groups for {text!r}: expected {expected}, got {got}")

    for item in spec.get("stress", []):
        total += 1
        text = item["repeat"] * int(item["times"]) + item.get("suffix", "")
        label = f"{item['repeat']!r} * {item['times']} + {item.get('suffix', '')!r}"
        if not stress(regex, mode, text, args.timeout):
            failures += 1
            print(f"FAIL  stress input {label} did not finish in {args.timeout}s "
                  "(possible catastrophic backtracking)")

    print(f"{total - failures}/{total} cases passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
