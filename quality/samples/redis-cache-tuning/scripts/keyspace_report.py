#!/usr/bin/env python3
"""Sample keys with SCAN and print memory used per key prefix."""
import collections
import sys

import redis

LIMIT = 10_000


def main() -> None:
    r = redis.Redis.from_url(sys.argv[1] if len(sys.argv) > 1 else "redis://localhost:6379")
    sizes = collections.Counter()
    counts = collections.Counter()
    for n, key in enumerate(r.scan_iter(count=500)):
        if n >= LIMIT:
            break
        prefix = key.decode(errors="replace").split(":", 1)[0]
        sizes[prefix] += r.memory_usage(key, samples=0) or 0
        counts[prefix] += 1
    for prefix, size in sizes.most_common(20):
        print(f"{prefix:30} {counts[prefix]:8} keys {size / 1024:12.1f} KiB")


if __name__ == "__main__":
    main()
