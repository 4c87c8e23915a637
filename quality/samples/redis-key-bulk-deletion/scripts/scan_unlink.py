#!/usr/bin/env python3
"""Delete Redis keys matching a pattern using SCAN + UNLINK in batches.

Safe for key names containing any bytes. Requires redis-py (pip install redis).

Examples:
    scan_unlink.py --url redis://localhost:6379/0 --pattern 'cache:*' --dry-run
    scan_unlink.py --url redis://localhost:6379/0 --pattern 'cache:*' --batch 500
    scan_unlink.py --url redis://node1:7000 --pattern 'sess:*' --cluster
"""
import argparse
import sys
import time

import redis
from redis.cluster import RedisCluster


def batches(iterable, size):
    batch = []
    for item in iterable:
        batch.append(item)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--url", required=True, help="redis://host:port/db")
    p.add_argument("--pattern", required=True, help="glob pattern, e.g. 'cache:*'")
    p.add_argument("--batch", type=int, default=500)
    p.add_argument("--scan-count", type=int, default=1000, help="COUNT hint for SCAN")
    p.add_argument("--sleep", type=float, default=0.0, help="seconds to pause between batches")
    p.add_argument("--cluster", action="store_true", help="connect as a Redis Cluster client")
    p.add_argument("--dry-run", action="store_true", help="count and sample, delete nothing")
    args = p.parse_args()

    if args.pattern in ("*", ""):
        print("refusing to delete every key; use a narrower pattern", file=sys.stderr)
        return 2

    if args.cluster:
        client = RedisCluster.from_url(args.url)
    else:
        client = redis.Redis.from_url(args.url)

    keys = client.scan_iter(match=args.pattern, count=args.scan_count)

    if args.dry_run:
        total = 0
        for key in keys:
            if total < 20:
                print(key)
            total += 1
        print(f"{total} keys match {args.pattern!r} (dry run, nothing deleted)")
        return 0

    deleted = 0
    for batch in batches(keys, args.batch):
        if args.cluster:
            # keys in one batch may hash to different slots; unlink individually
            pipe = client.pipeline()
            for key in batch:
                pipe.unlink(key)
            deleted += sum(pipe.execute())
        else:
            deleted += client.unlink(*batch)
        print(f"deleted {deleted} so far", file=sys.stderr)
        if args.sleep:
            time.sleep(args.sleep)

    print(f"deleted {deleted} keys matching {args.pattern!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
