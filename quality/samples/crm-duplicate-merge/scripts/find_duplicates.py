#!/usr/bin/env python3
"""Find candidate duplicate records in a CRM export (CSV).

Reads an export of accounts, contacts or leads and writes candidate duplicate
clusters for human review. It never talks to the CRM and never merges anything.

Matching rules (a record pair joins a cluster if any rule matches):
  email       same normalised email address                 confidence: high
  name+domain same normalised company name and web domain   confidence: high
  name+phone  same normalised name and phone digits         confidence: medium
  name        same normalised name only (opt-in)            confidence: low

A cluster's confidence is the highest level at which all of its records are
still connected using only rules of that confidence or better.

Free-mail domains (gmail.com etc.) are never used as a company domain.

Example:
  python3 find_duplicates.py accounts.csv --id-col Id --name-col Name \
      --website-col Website --phone-col Phone --out clusters.csv
"""

import argparse
import csv
import re
import sys
from collections import defaultdict

FREE_MAIL = {
    "gmail.com", "googlemail.com", "yahoo.com", "hotmail.com", "outlook.com",
    "live.com", "msn.com", "aol.com", "icloud.com", "me.com", "mac.com",
    "proton.me", "protonmail.com", "gmx.com", "gmx.de", "web.de", "mail.com",
    "yandex.ru", "qq.com", "163.com",
}

LEGAL_SUFFIXES = {
    "inc", "incorporated", "llc", "ltd", "limited", "corp", "corporation",
    "co", "company", "plc", "gmbh", "ag", "sa", "sas", "bv", "nv", "pty",
    "srl", "spa", "oy", "ab", "as", "kk", "lp", "llp",
}

CONFIDENCE_RANK = {"high": 3, "medium": 2, "low": 1}


def norm_email(value):
    value = (value or "").strip().lower()
    return value if re.fullmatch(r"[^@\s]+@[^@\s]+\.[^@\s]+", value) else ""


def norm_domain(value):
    value = (value or "").strip().lower()
    if not value:
        return ""
    if "@" in value:
        value = value.rsplit("@", 1)[1]
    value = re.sub(r"^[a-z][a-z0-9+.-]*://", "", value)
    value = value.split("/", 1)[0].split("?", 1)[0].split(":", 1)[0]
    if value.startswith("www."):
        value = value[4:]
    if "." not in value or value in FREE_MAIL:
        return ""
    return value


def norm_name(value):
    value = (value or "").lower().replace("&", " and ")
    value = re.sub(r"[^\w\s]", " ", value)
    words = [w for w in value.split() if w not in LEGAL_SUFFIXES]
    if words and words[0] == "the":
        words = words[1:]
    return " ".join(words)


def norm_phone(value):
    digits = re.sub(r"\D", "", value or "")
    if len(digits) < 7:
        return ""
    return digits[-10:]


class UnionFind:
    def __init__(self):
        self.parent = {}

    def find(self, item):
        self.parent.setdefault(item, item)
        root = item
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[item] != root:
            self.parent[item], item = root, self.parent[item]
        return root

    def union(self, a, b):
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[rb] = ra


def build_keys(row, args):
    name = norm_name(row.get(args.name_col, "")) if args.name_col else ""
    email = norm_email(row.get(args.email_col, "")) if args.email_col else ""
    domain = ""
    if args.website_col:
        domain = norm_domain(row.get(args.website_col, ""))
    if not domain and email:
        domain = norm_domain(email)
    phone = norm_phone(row.get(args.phone_col, "")) if args.phone_col else ""

    keys = []
    if email:
        keys.append(("email", "high", email))
    if name and domain:
        keys.append(("name+domain", "high", f"{name}|{domain}"))
    if name and phone:
        keys.append(("name+phone", "medium", f"{name}|{phone}"))
    if name and args.include_name_only:
        keys.append(("name", "low", name))
    return keys


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Find candidate duplicate CRM records in a CSV export.")
    parser.add_argument("path", help="CSV export from the CRM")
    parser.add_argument("--id-col", default="Id", help="record ID column (default Id)")
    parser.add_argument("--name-col", help="company or person name column")
    parser.add_argument("--email-col", help="email column")
    parser.add_argument("--website-col", help="website or domain column")
    parser.add_argument("--phone-col", help="phone column")
    parser.add_argument("--include-name-only", action="store_true",
                        help="also cluster on name alone (low confidence, noisy)")
    parser.add_argument("--max-cluster", type=int, default=10,
                        help="warn about clusters larger than this (default 10)")
    parser.add_argument("--out", default="duplicate_clusters.csv",
                        help="output CSV (default duplicate_clusters.csv)")
    args = parser.parse_args(argv)

    if not any([args.name_col, args.email_col, args.website_col, args.phone_col]):
        parser.error("give at least one of --name-col, --email-col, --website-col, --phone-col")

    try:
        with open(args.path, newline="", encoding="utf-8-sig") as handle:
            reader = csv.DictReader(handle)
            fields = reader.fieldnames or []
            for col in [args.id_col, args.name_col, args.email_col, args.website_col, args.phone_col]:
                if col and col not in fields:
                    print(f"error: column {col!r} not in export header", file=sys.stderr)
                    return 2
            rows = list(reader)
    except (OSError, csv.Error, UnicodeDecodeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2

    by_id = {}
    duplicate_ids = 0
    for row in rows:
        record_id = (row.get(args.id_col) or "").strip()
        if not record_id:
            continue
        if record_id in by_id:
            duplicate_ids += 1
            continue
        by_id[record_id] = row

    groups = defaultdict(list)
    for record_id, row in by_id.items():
        for rule, confidence, key in build_keys(row, args):
            groups[(rule, confidence, key)].append(record_id)

    # One union-find per confidence floor: "high" uses only high edges,
    # "medium" uses high+medium, "low" uses everything. A cluster's confidence
    # is the highest floor at which its members are still all connected.
    levels = ("high", "medium", "low")
    finders = {level: UnionFind() for level in levels}
    edges = []
    for (rule, confidence, _key), ids in groups.items():
        if len(ids) < 2:
            continue
        edges.append((rule, confidence, ids))
        for level in levels:
            if CONFIDENCE_RANK[confidence] >= CONFIDENCE_RANK[level]:
                for other in ids[1:]:
                    finders[level].union(ids[0], other)

    uf = finders["low"]
    final = defaultdict(set)
    final_rules = defaultdict(set)
    for rule, _confidence, ids in edges:
        root = uf.find(ids[0])
        final[root].update(ids)
        final_rules[root].add(rule)

    final_conf = {}
    for root, members in final.items():
        for level in levels:
            if len({finders[level].find(m) for m in members}) == 1:
                final_conf[root] = level
                break

    ordered = sorted(final.items(), key=lambda item: (-len(item[1]), sorted(item[1])[0]))
    review_cols = [c for c in [args.name_col, args.email_col, args.website_col, args.phone_col] if c]
    out_fields = ["cluster_id", "cluster_size", "confidence", "match_rules", args.id_col] + review_cols

    large = 0
    with open(args.out, "w", newline="", encoding="utf-8") as out:
        writer = csv.DictWriter(out, fieldnames=out_fields, extrasaction="ignore")
        writer.writeheader()
        for number, (root, members) in enumerate(ordered, start=1):
            if len(members) > args.max_cluster:
                large += 1
            for record_id in sorted(members):
                row = dict(by_id[record_id])
                row.update({
                    "cluster_id": f"C{number:05d}",
                    "cluster_size": len(members),
                    "confidence": final_conf[root],
                    "match_rules": ";".join(sorted(final_rules[root])),
                })
                writer.writerow(row)

    in_clusters = sum(len(m) for m in final.values())
    print(f"records read: {len(by_id)}")
    if duplicate_ids:
        print(f"warning: {duplicate_ids} rows repeated an ID already seen and were skipped")
    print(f"candidate clusters: {len(final)} covering {in_clusters} records")
    for level in ("high", "medium", "low"):
        count = sum(1 for r in final if final_conf[r] == level)
        print(f"  {level}: {count}")
    if large:
        print(f"warning: {large} clusters exceed {args.max_cluster} records; "
              "these usually mean a rule is over-matching - review before anything else")
    print(f"written: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
