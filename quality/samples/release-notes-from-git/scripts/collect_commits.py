#!/usr/bin/env python3
"""Group commits in a git range by Conventional Commit type.

Usage:
    collect_commits.py [FROM_REF] [TO_REF]

FROM_REF defaults to the most recent tag reachable from TO_REF^ (so it also
works when TO_REF itself is the release tag). TO_REF defaults to HEAD.
If the repository has no tags, the whole history up to TO_REF is used.

Read-only: runs only `git describe` and `git log`.
"""
import re
import subprocess
import sys
from collections import OrderedDict

TYPES = OrderedDict([
    ("feat", "Features"),
    ("fix", "Fixes"),
    ("perf", "Performance"),
    ("docs", "Documentation"),
    ("refactor", "Refactoring"),
    ("build", "Build"),
    ("ci", "CI"),
    ("test", "Tests"),
    ("chore", "Chores"),
    ("style", "Style"),
    ("revert", "Reverts"),
])
SUBJECT_RE = re.compile(r"^(?P<type>[a-z]+)(?:\((?P<scope>[^)]*)\))?(?P<bang>!)?:\s*(?P<desc>.+)$")
FIELD, RECORD = "\x1f", "\x1e"


def git(*args):
    return subprocess.run(["git", *args], check=True, capture_output=True, text=True).stdout


def previous_tag(ref):
    try:
        return git("describe", "--tags", "--abbrev=0", f"{ref}^").strip()
    except subprocess.CalledProcessError:
        return None


def main(argv):
    to_ref = argv[2] if len(argv) > 2 else "HEAD"
    from_ref = argv[1] if len(argv) > 1 else previous_tag(to_ref)
    rev_range = f"{from_ref}..{to_ref}" if from_ref else to_ref

    log = git("log", "--no-merges", f"--format=%h{FIELD}%s{FIELD}%an{FIELD}%b{RECORD}", rev_range)

    groups = OrderedDict((title, []) for title in TYPES.values())
    groups["Other"] = []
    breaking = []

    for record in filter(None, (r.strip("\n") for r in log.split(RECORD))):
        sha, subject, author, body = (record.split(FIELD) + ["", "", ""])[:4]
        m = SUBJECT_RE.match(subject)
        line = f"{sha} {subject} ({author})"
        if m and m.group("type") in TYPES:
            groups[TYPES[m.group("type")]].append(line)
        else:
            groups["Other"].append(line)
        if (m and m.group("bang")) or re.search(r"^BREAKING[ -]CHANGE:", body, re.M):
            breaking.append(line)

    print(f"# Range: {rev_range}" + ("" if from_ref else "  (no earlier tag found: whole history)"))
    if breaking:
        print("\n## BREAKING")
        print("\n".join(f"- {l}" for l in breaking))
    for title, lines in groups.items():
        if lines:
            print(f"\n## {title} ({len(lines)})")
            print("\n".join(f"- {l}" for l in lines))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except subprocess.CalledProcessError as e:
        sys.stderr.write(e.stderr or str(e))
        sys.exit(e.returncode or 1)
