#!/usr/bin/env python3
"""Prune old images from one ECR repository.

Dry run by default. An image is deleted only if it is older than
--older-than-days, not among the newest --keep-latest images, carries no tag
matching --protect-tag-regex, and its digest is not listed in --in-use-file.
Untagged images are skipped unless --include-untagged is given.

Requires boto3 and AWS credentials for the account that owns the repository.
"""
from __future__ import annotations

import argparse
import re
import sys
from datetime import datetime, timedelta, timezone

import boto3

BATCH_LIMIT = 100  # BatchDeleteImage accepts at most 100 image IDs per call


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--repository", required=True)
    p.add_argument("--region")
    p.add_argument("--keep-latest", type=int, default=30,
                   help="always keep this many most recently pushed images (default 30)")
    p.add_argument("--older-than-days", type=int, default=60,
                   help="only delete images pushed more than this many days ago (default 60)")
    p.add_argument("--protect-tag-regex", default=r"^(latest|stable|v\d+\.\d+\.\d+)$",
                   help="images with any tag matching this are never deleted")
    p.add_argument("--in-use-file", required=True,
                   help="file of sha256:... digests currently deployed, one per line")
    p.add_argument("--include-untagged", action="store_true",
                   help="also consider untagged images (unsafe with multi-arch pushes)")
    p.add_argument("--execute", action="store_true",
                   help="actually delete; without this the script only reports")
    p.add_argument("--yes", action="store_true",
                   help="skip the interactive confirmation when --execute is given")
    return p.parse_args()


def load_in_use(path: str) -> set[str]:
    digests = set()
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if not line.startswith("sha256:"):
                sys.exit(f"in-use file has a line that isn't a digest: {line!r}")
            digests.add(line)
    return digests


def list_images(ecr, repository: str) -> list[dict]:
    images = []
    paginator = ecr.get_paginator("describe_images")
    for page in paginator.paginate(repositoryName=repository):
        images.extend(page["imageDetails"])
    images.sort(key=lambda i: i["imagePushedAt"], reverse=True)
    return images


def select_candidates(images, args, in_use, protect) -> list[dict]:
    cutoff = datetime.now(timezone.utc) - timedelta(days=args.older_than_days)
    candidates = []
    for rank, img in enumerate(images):
        tags = img.get("imageTags", [])
        if rank < args.keep_latest:
            continue
        if img["imagePushedAt"] >= cutoff:
            continue
        if img["imageDigest"] in in_use:
            continue
        if any(protect.search(t) for t in tags):
            continue
        if not tags and not args.include_untagged:
            continue
        candidates.append(img)
    return candidates


def describe(img: dict) -> str:
    tags = ",".join(img.get("imageTags", [])) or "<untagged>"
    size_mb = img.get("imageSizeInBytes", 0) / 1_048_576
    pushed = img["imagePushedAt"].strftime("%Y-%m-%d")
    return f"{pushed}  {size_mb:8.1f} MB  {img['imageDigest'][:19]}…  {tags}"


def report(candidates: list[dict], total_images: int) -> None:
    for img in candidates:
        print("  " + describe(img))
    size_gb = sum(i.get("imageSizeInBytes", 0) for i in candidates) / 1_073_741_824
    print(f"\n{len(candidates)} of {total_images} images selected, {size_gb:.2f} GB")


def main() -> int:
    args = parse_args()
    protect = re.compile(args.protect_tag_regex)
    in_use = load_in_use(args.in_use_file)
    if not in_use:
        print("warning: in-use file is empty; is nothing deployed from this repository?",
              file=sys.stderr)

    ecr = boto3.client("ecr", region_name=args.region)
    images = list_images(ecr, args.repository)
    candidates = select_candidates(images, args, in_use, protect)

    mode = "EXECUTE" if args.execute else "DRY RUN"
    print(f"[{mode}] repository {args.repository}: candidates for deletion\n")
    report(candidates, len(images))

    if not args.execute:
        print("\nDry run only. Re-run with --execute to delete.")
        return 0
    if not candidates:
        return 0
    if not args.yes:
        answer = input(f"\nDelete these {len(candidates)} images? Type 'delete' to confirm: ")
        if answer.strip() != "delete":
            print("Aborted.")
            return 1

    failures = 0
    for start in range(0, len(candidates), BATCH_LIMIT):
        batch = candidates[start:start + BATCH_LIMIT]
        resp = ecr.batch_delete_image(
            repositoryName=args.repository,
            imageIds=[{"imageDigest": i["imageDigest"]} for i in batch],
        )
        for f in resp.get("failures", []):
            failures += 1
            print(f"  failed: {f.get('imageId')} {f.get('failureCode')} {f.get('failureReason')}",
                  file=sys.stderr)
        print(f"batch {start // BATCH_LIMIT + 1}: {len(resp.get('imageIds', []))} image IDs deleted")

    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
