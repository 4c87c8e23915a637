#!/usr/bin/env python3
"""Summarise SQS messages saved from `aws sqs receive-message` (offline, read-only).

Usage:
    summarize_dlq.py [--show-body] FILE [FILE ...]

Each FILE is the JSON printed by `aws sqs receive-message ... --attribute-names All`.
Empty files (the CLI prints nothing when the queue returned no messages) are skipped.

Messages are de-duplicated by MessageId and grouped by the *shape* of their body:
the sorted top-level keys of a JSON object, with SNS envelopes unwrapped. For each
group the script prints the count, first and last SentTimestamp, and the highest
ApproximateReceiveCount. Bodies are only printed with --show-body, truncated to
200 characters, because they often contain customer data.
"""
import argparse
import json
import sys
from collections import defaultdict
from datetime import datetime, timezone

PREVIEW_CHARS = 200


def load_messages(path):
    with open(path, encoding="utf-8") as fh:
        text = fh.read().strip()
    if not text:
        return []
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SystemExit(f"{path}: not valid JSON ({exc})")
    if not isinstance(data, dict):
        raise SystemExit(f"{path}: expected a JSON object with a 'Messages' list")
    return data.get("Messages", [])


def shape(body):
    try:
        parsed = json.loads(body)
    except (json.JSONDecodeError, TypeError):
        return "<non-json body>"
    if isinstance(parsed, dict):
        if parsed.get("Type") == "Notification" and "Message" in parsed:
            return "sns:" + shape(parsed["Message"])
        return "{" + ",".join(sorted(parsed.keys())) + "}"
    return f"<json {type(parsed).__name__}>"


def fmt_ts(millis):
    if millis is None:
        return "-"
    dt = datetime.fromtimestamp(int(millis) / 1000, tz=timezone.utc)
    return dt.strftime("%Y-%m-%d %H:%M:%S")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", help="saved receive-message JSON files")
    parser.add_argument("--show-body", action="store_true",
                        help=f"print one truncated body ({PREVIEW_CHARS} chars) per group")
    args = parser.parse_args(argv)

    seen = {}
    for path in args.files:
        for msg in load_messages(path):
            seen.setdefault(msg.get("MessageId"), msg)

    groups = defaultdict(list)
    for msg in seen.values():
        groups[shape(msg.get("Body", ""))].append(msg)

    print(f"{len(seen)} unique messages in {len(args.files)} file(s)\n")
    if not seen:
        return 0

    print(f"{'count':>5}  {'first_sent (UTC)':<19}  {'last_sent (UTC)':<19}  {'max_recv':>8}  shape")
    for key, msgs in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        sent = sorted(int(m.get("Attributes", {}).get("SentTimestamp", 0)) for m in msgs)
        recv = max(int(m.get("Attributes", {}).get("ApproximateReceiveCount", 0)) for m in msgs)
        print(f"{len(msgs):>5}  {fmt_ts(sent[0]):<19}  {fmt_ts(sent[-1]):<19}  {recv:>8}  {key}")
        print(f"       example MessageId: {msgs[0].get('MessageId')}")
        if args.show_body:
            body = msgs[0].get("Body", "")
            suffix = "..." if len(body) > PREVIEW_CHARS else ""
            print(f"       body: {body[:PREVIEW_CHARS]}{suffix}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
