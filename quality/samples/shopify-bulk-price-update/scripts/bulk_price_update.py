#!/usr/bin/env python3
"""Bulk-update Shopify variant prices from a CSV, dry run by default.

CSV columns (header required):
    variant_id,price[,compare_at_price]

variant_id may be numeric (44123456789) or a GID
(gid://shopify/ProductVariant/44123456789). An empty compare_at_price leaves
the current value alone; the word "none" clears it.

Environment:
    SHOPIFY_STORE        e.g. acme-outdoor or acme-outdoor.myshopify.com
    SHOPIFY_ADMIN_TOKEN  Admin API access token with write_products

Without --apply the script only reads from the store and prints the diff.
With --apply it asks for the store's myshopify domain to be typed, writes a
backup CSV of the current values (same format as the input, so it can be fed
back in to roll back), and only then writes to the store.
"""

import argparse
import csv
import datetime as dt
import json
import os
import sys
import time
import urllib.error
import urllib.request
from collections import defaultdict
from decimal import Decimal, InvalidOperation

API_VERSION = "2024-10"
BATCH = 50
LARGE_CHANGE = Decimal("0.5")  # 50 % up or down
CLEAR = "none"

LOOKUP = """
query($ids: [ID!]!) {
  nodes(ids: $ids) {
    ... on ProductVariant {
      id sku title price compareAtPrice
      product { id title }
    }
  }
}"""

SHOP = "{ shop { name myshopifyDomain } }"

UPDATE = """
mutation($productId: ID!, $variants: [ProductVariantsBulkInput!]!) {
  productVariantsBulkUpdate(productId: $productId, variants: $variants) {
    productVariants { id price compareAtPrice }
    userErrors { field message }
  }
}"""


def die(msg, code=2):
    print(f"error: {msg}", file=sys.stderr)
    sys.exit(code)


class Client:
    def __init__(self, store, token, version):
        host = store if store.endswith(".myshopify.com") else f"{store}.myshopify.com"
        self.domain = host
        self.url = f"https://{host}/admin/api/{version}/graphql.json"
        self.token = token

    def call(self, query, variables=None):
        body = json.dumps({"query": query, "variables": variables or {}}).encode()
        for attempt in range(5):
            req = urllib.request.Request(
                self.url,
                data=body,
                headers={
                    "Content-Type": "application/json",
                    "X-Shopify-Access-Token": self.token,
                },
            )
            try:
                with urllib.request.urlopen(req, timeout=30) as resp:
                    payload = json.load(resp)
            except urllib.error.HTTPError as e:
                if e.code in (429, 502, 503) and attempt < 4:
                    time.sleep(2 ** attempt)
                    continue
                die(f"HTTP {e.code} from {self.domain}: {e.read()[:300]!r}")
            errors = payload.get("errors")
            if errors:
                throttled = any(
                    (err.get("extensions") or {}).get("code") == "THROTTLED"
                    for err in errors
                )
                if throttled and attempt < 4:
                    time.sleep(2 ** attempt)
                    continue
                die(f"GraphQL errors: {json.dumps(errors)[:500]}")
            self._pace(payload)
            return payload["data"]
        die("gave up after repeated throttling")

    @staticmethod
    def _pace(payload):
        status = (payload.get("extensions") or {}).get("cost", {}).get("throttleStatus")
        if status and status.get("currentlyAvailable", 1000) < 200:
            rate = status.get("restoreRate") or 50
            time.sleep(200 / rate)


def gid(raw):
    raw = raw.strip()
    if raw.startswith("gid://shopify/ProductVariant/"):
        return raw
    if raw.isdigit():
        return f"gid://shopify/ProductVariant/{raw}"
    die(f"not a variant id: {raw!r}")


def money(raw, field, line):
    try:
        value = Decimal(raw.strip())
    except InvalidOperation:
        die(f"line {line}: {field} {raw!r} is not a number")
    if value < 0:
        die(f"line {line}: {field} is negative")
    return value.quantize(Decimal("0.01"))


def read_changes(path):
    changes = {}
    with open(path, newline="", encoding="utf-8-sig") as fh:
        reader = csv.DictReader(fh)
        missing = {"variant_id", "price"} - set(reader.fieldnames or [])
        if missing:
            die(f"{path} is missing column(s): {', '.join(sorted(missing))}")
        for line, row in enumerate(reader, start=2):
            vid = gid(row["variant_id"])
            if vid in changes:
                die(f"line {line}: variant {vid} appears twice")
            cap_raw = (row.get("compare_at_price") or "").strip()
            if not cap_raw:
                cap = None  # leave unchanged
            elif cap_raw.lower() == "none":
                cap = CLEAR
            else:
                cap = money(cap_raw, "compare_at_price", line)
            changes[vid] = {"price": money(row["price"], "price", line), "compare_at": cap}
    if not changes:
        die(f"{path} has no rows")
    return changes


def fetch_current(client, ids):
    current = {}
    for i in range(0, len(ids), BATCH):
        for node in client.call(LOOKUP, {"ids": ids[i:i + BATCH]})["nodes"]:
            if node and node.get("id"):
                current[node["id"]] = node
    return current


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv", help="input CSV of new prices")
    ap.add_argument("--apply", action="store_true", help="write changes (default is a dry run)")
    ap.add_argument("--confirm-store", help="myshopify domain, for non-interactive confirmation")
    ap.add_argument("--allow-large-changes", action="store_true",
                    help="permit price changes of more than 50%% or to 0.00")
    ap.add_argument("--backup-dir", default=".", help="where to write the rollback CSV")
    ap.add_argument("--api-version", default=API_VERSION)
    args = ap.parse_args()

    store = os.environ.get("SHOPIFY_STORE")
    token = os.environ.get("SHOPIFY_ADMIN_TOKEN")
    if not store or not token:
        die("set SHOPIFY_STORE and SHOPIFY_ADMIN_TOKEN")

    client = Client(store, token, args.api_version)
    shop = client.call(SHOP)["shop"]
    print(f"Store: {shop['name']} ({shop['myshopifyDomain']})")

    changes = read_changes(args.csv)
    current = fetch_current(client, list(changes))

    unknown = [v for v in changes if v not in current]
    if unknown:
        die(f"{len(unknown)} variant(s) not found in this store, e.g. {unknown[:3]}. "
            "Wrong store or stale export?")

    plan, risky = [], []
    for vid, new in changes.items():
        node = current[vid]
        old_price = Decimal(node["price"])
        old_cap = Decimal(node["compareAtPrice"]) if node["compareAtPrice"] else None
        if new["compare_at"] is None:
            new_cap = old_cap
        elif new["compare_at"] == CLEAR:
            new_cap = None
        else:
            new_cap = new["compare_at"]
        if new["price"] == old_price and new_cap == old_cap:
            continue
        plan.append((vid, node, old_price, new["price"], old_cap, new_cap))
        if new["price"] == 0 or (old_price and abs(new["price"] - old_price) / old_price > LARGE_CHANGE):
            risky.append(vid)

    print(f"{len(changes)} rows, {len(plan)} change(s), {len(changes) - len(plan)} already at target\n")
    for vid, node, op, np_, oc, nc in plan:
        flag = "  !!" if vid in risky else ""
        cap = f"  compare_at {oc} -> {nc}" if oc != nc else ""
        label = f"{node['product']['title']} / {node['title']}"
        print(f"{label[:48]:48}  {node.get('sku') or '-':14} {op:>10} -> {np_:<10}{cap}{flag}")

    if risky and not args.allow_large_changes:
        die(f"{len(risky)} change(s) marked !! move price by >50% or to zero; "
            "re-check the CSV or pass --allow-large-changes", code=3)

    if not args.apply:
        print("\nDry run only. Nothing was written. Re-run with --apply to make these changes.")
        return
    if not plan:
        print("\nNothing to do.")
        return

    expected = shop["myshopifyDomain"]
    typed = args.confirm_store
    if typed is None:
        if not sys.stdin.isatty():
            die("not a terminal; pass --confirm-store <domain> after the owner has confirmed")
        typed = input(f"Type {expected} to write {len(plan)} price change(s): ").strip()
    if typed != expected:
        die("confirmation did not match; nothing written", code=1)

    stamp = dt.datetime.now(dt.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    backup = os.path.join(args.backup_dir, f"price-backup-{shop['myshopifyDomain']}-{stamp}.csv")
    with open(backup, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["variant_id", "price", "compare_at_price"])
        for vid, node, op, _, oc, _ in plan:
            w.writerow([vid, op, oc if oc is not None else CLEAR])
    print(f"Rollback file written: {backup}")

    by_product = defaultdict(list)
    for vid, node, _, np_, oc, nc in plan:
        item = {"id": vid, "price": str(np_)}
        if nc != oc:
            item["compareAtPrice"] = str(nc) if nc is not None else None
        by_product[node["product"]["id"]].append(item)

    done = 0
    for product_id, variants in by_product.items():
        result = client.call(UPDATE, {"productId": product_id, "variants": variants})
        errors = result["productVariantsBulkUpdate"]["userErrors"]
        if errors:
            print(f"Stopped at {product_id}: {errors}", file=sys.stderr)
            print(f"{done} variant(s) updated before the error. "
                  f"Roll back with: {sys.argv[0]} {backup} --apply", file=sys.stderr)
            sys.exit(1)
        done += len(variants)
        print(f"updated {done}/{len(plan)}")

    print(f"Done. {done} variant(s) updated. Rollback file: {backup}")


if __name__ == "__main__":
    main()
