#!/usr/bin/env python3
"""Build a reviewable shell plan that removes S3 delete markers (offline; changes nothing).

Usage:
    aws s3api list-object-versions --bucket BUCKET --prefix PREFIX --output json > versions.json
    plan_undelete.py --bucket BUCKET versions.json [--since TS] [--until TS] > undelete-plan.sh

For every key whose *current* version is a delete marker, the plan removes the delete
markers created inside the time window (--since/--until, ISO 8601, UTC if no offset),
which makes the newest real version current again. Keys whose markers fall outside the
window, or that have no real version to come back to, are reported on stderr and left out.

Safety: every --version-id written to the plan is checked against the DeleteMarkers list.
If any ID also appears in the Versions list, the script refuses to write a plan, because
deleting a real version ID is a permanent delete.
"""
import argparse
import json
import shlex
import sys
from collections import defaultdict
from datetime import datetime, timezone


def parse_ts(value):
    text = value.strip()
    if text.endswith("Z"):
        text = text[:-1] + "+00:00"
    dt = datetime.fromisoformat(text)
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=timezone.utc)
    return dt


def comment_safe(value):
    """Render untrusted text for a '#' comment: no newlines or control characters."""
    return json.dumps(str(value), ensure_ascii=True)[1:-1]


def load(path):
    with open(path, encoding="utf-8") as fh:
        data = json.load(fh)
    return data.get("Versions") or [], data.get("DeleteMarkers") or []


def build_plan(versions, markers, since=None, until=None):
    by_key = defaultdict(list)
    for v in versions:
        by_key[v["Key"]].append(("version", parse_ts(v["LastModified"]), v))
    for m in markers:
        by_key[m["Key"]].append(("marker", parse_ts(m["LastModified"]), m))

    actions, skipped = [], []
    for key, entries in sorted(by_key.items()):
        entries.sort(key=lambda e: e[1], reverse=True)  # newest first
        if entries[0][0] != "marker":
            continue  # object currently exists; nothing to do

        # Delete markers stacked on top of the newest real version.
        stacked = []
        restore = None
        for kind, ts, item in entries:
            if kind == "marker":
                stacked.append((ts, item))
            else:
                restore = item
                break

        if restore is None:
            skipped.append((key, "no earlier real version to restore"))
            continue

        in_window = [
            item for ts, item in stacked
            if (since is None or ts >= since) and (until is None or ts <= until)
        ]
        if not in_window:
            skipped.append((key, "delete marker(s) outside the time window"))
            continue
        if len(in_window) < len(stacked):
            # Older markers outside the window stay: the key was already deleted before.
            skipped.append((key, "was already deleted before the window; would stay deleted"))
            continue

        actions.append((key, in_window, restore))
    return actions, skipped


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("versions_json", help="output of aws s3api list-object-versions")
    p.add_argument("--bucket", required=True)
    p.add_argument("--since", help="only markers created at/after this time (ISO 8601)")
    p.add_argument("--until", help="only markers created at/before this time (ISO 8601)")
    args = p.parse_args(argv)

    since = parse_ts(args.since) if args.since else None
    until = parse_ts(args.until) if args.until else None
    versions, markers = load(args.versions_json)
    actions, skipped = build_plan(versions, markers, since, until)

    real_ids = {(v["Key"], v["VersionId"]) for v in versions}
    marker_ids = {(m["Key"], m["VersionId"]) for m in markers}
    for key, ms, _ in actions:
        for m in ms:
            pair = (key, m["VersionId"])
            if pair not in marker_ids or pair in real_ids:
                sys.exit(f"refusing: {pair} is not exclusively a delete marker")

    q = shlex.quote
    out = sys.stdout
    out.write("#!/usr/bin/env bash\n")
    out.write(f"# Undelete plan for s3://{args.bucket}, generated "
              f"{datetime.now(timezone.utc):%Y-%m-%dT%H:%M:%SZ}\n")
    out.write(f"# window: since={args.since or '-'} until={args.until or '-'}\n")
    out.write("# Each command deletes a DELETE MARKER (not data). Review before running.\n")
    out.write("set -euo pipefail\n\n")
    for key, ms, restore in actions:
        out.write(f"# {comment_safe(key)}: restores version "
                  f"{comment_safe(restore['VersionId'])} "
                  f"({comment_safe(restore.get('Size', '?'))} bytes, "
                  f"{comment_safe(restore['LastModified'])}, "
                  f"{comment_safe(restore.get('StorageClass', '?'))})\n")
        for m in ms:
            out.write(f"aws s3api delete-object --bucket {q(args.bucket)} "
                      f"--key {q(key)} --version-id {q(m['VersionId'])}\n")
    marker_count = sum(len(ms) for _, ms, _ in actions)

    print(f"keys to restore: {len(actions)} (delete markers to remove: {marker_count})",
          file=sys.stderr)
    print(f"keys skipped: {len(skipped)}", file=sys.stderr)
    for key, reason in skipped[:20]:
        print(f"  skip {comment_safe(key)}: {reason}", file=sys.stderr)
    if len(skipped) > 20:
        print(f"  ... and {len(skipped) - 20} more", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
