#!/usr/bin/env python3
"""Find and (optionally) delete unattached EBS volumes and orphaned EBS snapshots.

Two subcommands, used in this order:

  plan   Read-only. Lists candidates in one region and writes a JSON plan file.
  apply  Reads a reviewed plan file. Dry run unless --execute is given.

Nothing is ever deleted that is not listed in the plan file, and every item is
re-checked against the live account immediately before it is deleted.

Examples:
  python ebs_orphans.py plan --region eu-west-1 --min-age-days 30 --out plan.json
  python ebs_orphans.py apply --plan plan.json                      # dry run
  python ebs_orphans.py apply --plan plan.json --execute --snapshot-volumes-first

Requires boto3 and credentials for the target account (AWS_PROFILE etc.).
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
from typing import Any

import boto3
from botocore.exceptions import ClientError

# Rough us-east-1 list prices in USD per GB-month, for prioritising only.
# Real bills vary by region, IOPS/throughput provisioning and snapshot deltas.
VOLUME_PRICE_GB_MONTH = {
    "gp3": 0.08, "gp2": 0.10, "io1": 0.125, "io2": 0.125,
    "st1": 0.045, "sc1": 0.015, "standard": 0.05,
}
SNAPSHOT_PRICE_GB_MONTH = 0.05  # standard tier; snapshots are incremental, so this is an upper bound

# Snapshots created and managed by these services must be removed through them,
# not behind their backs.
MANAGED_TAG_PREFIXES = ("aws:backup:", "aws:dlm:")

DEFAULT_PROTECT_TAGS = ("keep", "do-not-delete", "DoNotDelete", "retain")

PLAN_VERSION = 1


def now_utc() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)


def tags_of(resource: dict[str, Any]) -> dict[str, str]:
    return {t["Key"]: t["Value"] for t in resource.get("Tags", [])}


def protected_by_tag(tags: dict[str, str], protect_keys: set[str]) -> str | None:
    lowered = {k.lower() for k in protect_keys}
    for key in tags:
        if key.lower() in lowered:
            return f"tag {key}={tags[key]}"
    for key in tags:
        if key.startswith(MANAGED_TAG_PREFIXES):
            return f"managed by AWS service (tag {key})"
    return None


def account_id(session: boto3.session.Session) -> str:
    return session.client("sts").get_caller_identity()["Account"]


# ---------------------------------------------------------------- plan

def find_volume_candidates(ec2, min_age: dt.timedelta, protect: set[str]) -> tuple[list, list]:
    candidates, skipped = [], []
    paginator = ec2.get_paginator("describe_volumes")
    for page in paginator.paginate(Filters=[{"Name": "status", "Values": ["available"]}]):
        for vol in page["Volumes"]:
            tags = tags_of(vol)
            age = now_utc() - vol["CreateTime"]
            record = {
                "type": "volume",
                "id": vol["VolumeId"],
                "size_gb": vol["Size"],
                "volume_type": vol["VolumeType"],
                "created": vol["CreateTime"].isoformat(),
                "age_days": age.days,
                "name": tags.get("Name", ""),
                "tags": tags,
                "est_monthly_usd": round(vol["Size"] * VOLUME_PRICE_GB_MONTH.get(vol["VolumeType"], 0.10), 2),
            }
            reason = protected_by_tag(tags, protect)
            if reason:
                skipped.append({**record, "skip_reason": reason})
            elif age < min_age:
                skipped.append({**record, "skip_reason": f"younger than {min_age.days} days"})
            else:
                candidates.append(record)
    return candidates, skipped


def snapshots_used_by_amis(ec2) -> dict[str, str]:
    """Map snapshot id -> AMI id for every AMI this account owns (any state except deregistered)."""
    used: dict[str, str] = {}
    paginator = ec2.get_paginator("describe_images")
    for page in paginator.paginate(Owners=["self"]):
        for image in page["Images"]:
            for bdm in image.get("BlockDeviceMappings", []):
                snap = bdm.get("Ebs", {}).get("SnapshotId")
                if snap:
                    used[snap] = image["ImageId"]
    return used


def find_snapshot_candidates(ec2, min_age: dt.timedelta, protect: set[str],
                             include_archived: bool) -> tuple[list, list]:
    candidates, skipped = [], []
    in_use = snapshots_used_by_amis(ec2)
    existing_volumes = set()
    for page in ec2.get_paginator("describe_volumes").paginate():
        existing_volumes.update(v["VolumeId"] for v in page["Volumes"])

    paginator = ec2.get_paginator("describe_snapshots")
    for page in paginator.paginate(OwnerIds=["self"]):
        for snap in page["Snapshots"]:
            tags = tags_of(snap)
            age = now_utc() - snap["StartTime"]
            source_volume = snap.get("VolumeId", "")
            record = {
                "type": "snapshot",
                "id": snap["SnapshotId"],
                "size_gb": snap["VolumeSize"],
                "source_volume": source_volume,
                "source_volume_exists": source_volume in existing_volumes,
                "description": snap.get("Description", ""),
                "storage_tier": snap.get("StorageTier", "standard"),
                "created": snap["StartTime"].isoformat(),
                "age_days": age.days,
                "name": tags.get("Name", ""),
                "tags": tags,
                "est_monthly_usd_upper_bound": round(snap["VolumeSize"] * SNAPSHOT_PRICE_GB_MONTH, 2),
            }
            reason = protected_by_tag(tags, protect)
            if not reason and snap["SnapshotId"] in in_use:
                reason = f"used by AMI {in_use[snap['SnapshotId']]}"
            if not reason and record["source_volume_exists"]:
                reason = f"backup of existing volume {source_volume}; manage with a retention policy instead"
            if not reason and snap.get("State") != "completed":
                reason = f"state is {snap.get('State')}"
            if not reason and record["storage_tier"] == "archive" and not include_archived:
                reason = "archive tier (early deletion is billed for 90 days minimum)"
            if not reason and age < min_age:
                reason = f"younger than {min_age.days} days"
            if not reason:
                reason = shared_with_others(ec2, snap["SnapshotId"])
            if reason:
                skipped.append({**record, "skip_reason": reason})
            else:
                candidates.append(record)
    return candidates, skipped


def shared_with_others(ec2, snapshot_id: str) -> str | None:
    """Snapshots shared with other accounts (or public) may be someone else's only copy."""
    attr = ec2.describe_snapshot_attribute(SnapshotId=snapshot_id, Attribute="createVolumePermission")
    perms = attr.get("CreateVolumePermissions", [])
    if perms:
        who = ", ".join(p.get("UserId") or p.get("Group", "?") for p in perms)
        return f"shared with {who}"
    return None


def cmd_plan(args: argparse.Namespace) -> int:
    session = boto3.session.Session(region_name=args.region)
    ec2 = session.client("ec2")
    protect = set(DEFAULT_PROTECT_TAGS) | set(args.protect_tag or [])
    min_age = dt.timedelta(days=args.min_age_days)

    items, skipped = [], []
    if not args.snapshots_only:
        c, s = find_volume_candidates(ec2, min_age, protect)
        items += c
        skipped += s
    if not args.volumes_only:
        c, s = find_snapshot_candidates(ec2, min_age, protect, args.include_archived)
        items += c
        skipped += s

    plan = {
        "plan_version": PLAN_VERSION,
        "account": account_id(session),
        "region": args.region,
        "generated_at": now_utc().isoformat(),
        "min_age_days": args.min_age_days,
        "items": items,
        "skipped": skipped,
    }
    with open(args.out, "w") as fh:
        json.dump(plan, fh, indent=2, default=str)

    vols = [i for i in items if i["type"] == "volume"]
    snaps = [i for i in items if i["type"] == "snapshot"]
    print(f"Account {plan['account']}  region {args.region}")
    print(f"  volumes:   {len(vols):4d} candidates, {sum(v['size_gb'] for v in vols):7d} GB, "
          f"~${sum(v['est_monthly_usd'] for v in vols):,.2f}/month")
    print(f"  snapshots: {len(snaps):4d} candidates, {sum(s['size_gb'] for s in snaps):7d} GB, "
          f"up to ~${sum(s['est_monthly_usd_upper_bound'] for s in snaps):,.2f}/month")
    print(f"  skipped:   {len(skipped):4d} (see 'skipped' in the plan for reasons)")
    print(f"Plan written to {args.out}. Review it, remove anything that must stay, then run apply.")
    return 0


# ---------------------------------------------------------------- apply

def recheck(ec2, item: dict[str, Any], protect: set[str], ami_snapshots: dict[str, str]) -> str | None:
    """Return a reason to skip, based on the live state right now, or None if still safe."""
    try:
        if item["type"] == "volume":
            vol = ec2.describe_volumes(VolumeIds=[item["id"]])["Volumes"][0]
            if vol["State"] != "available":
                return f"state is now {vol['State']}"
            if vol.get("Attachments"):
                return "now attached"
            return protected_by_tag(tags_of(vol), protect)
        snap = ec2.describe_snapshots(SnapshotIds=[item["id"]])["Snapshots"][0]
        reason = protected_by_tag(tags_of(snap), protect)
        if reason:
            return reason
        if item["id"] in ami_snapshots:
            return f"now used by AMI {ami_snapshots[item['id']]}"
        return shared_with_others(ec2, item["id"])
    except ClientError as err:
        code = err.response["Error"]["Code"]
        if code in ("InvalidVolume.NotFound", "InvalidSnapshot.NotFound"):
            return "already gone"
        raise


def dry_run_call(fn, **kwargs) -> str:
    """Ask EC2 whether the call would be allowed, without doing it."""
    try:
        fn(DryRun=True, **kwargs)
    except ClientError as err:
        code = err.response["Error"]["Code"]
        if code == "DryRunOperation":
            return "allowed"
        return f"would fail: {code}"
    return "allowed"  # some mocks don't raise DryRunOperation


def cmd_apply(args: argparse.Namespace) -> int:
    with open(args.plan) as fh:
        plan = json.load(fh)
    if plan.get("plan_version") != PLAN_VERSION:
        print("Unrecognised plan file version; regenerate it with 'plan'.", file=sys.stderr)
        return 2

    session = boto3.session.Session(region_name=plan["region"])
    live_account = account_id(session)
    if live_account != plan["account"]:
        print(f"Credentials are for account {live_account}, plan is for {plan['account']}. Refusing.",
              file=sys.stderr)
        return 2

    generated = dt.datetime.fromisoformat(plan["generated_at"])
    if now_utc() - generated > dt.timedelta(hours=args.max_plan_age_hours):
        print(f"Plan is older than {args.max_plan_age_hours}h; regenerate and re-review it.", file=sys.stderr)
        return 2

    ec2 = session.client("ec2")
    protect = set(DEFAULT_PROTECT_TAGS) | set(args.protect_tag or [])
    mode = "EXECUTE" if args.execute else "DRY RUN"
    print(f"{mode}: {len(plan['items'])} items in account {plan['account']} / {plan['region']}")

    # Fetched fresh for this run. If an AMI is registered in the seconds between
    # this and a delete, EC2 itself refuses with InvalidSnapshot.InUse.
    ami_snapshots = snapshots_used_by_amis(ec2)

    log_path = args.log or f"ebs-cleanup-{plan['account']}-{plan['region']}-{now_utc():%Y%m%dT%H%M%SZ}.jsonl"
    deleted = failed = skipped = 0
    with open(log_path, "a") as log:
        def record(item, action, detail=""):
            log.write(json.dumps({"at": now_utc().isoformat(), "mode": mode, "type": item["type"],
                                  "id": item["id"], "action": action, "detail": detail}) + "\n")
            log.flush()
            print(f"  {item['type']:8} {item['id']:24} {action:12} {detail}")

        for item in plan["items"]:
            reason = recheck(ec2, item, protect, ami_snapshots)
            if reason:
                skipped += 1
                record(item, "skip", reason)
                continue

            if item["type"] == "volume":
                delete_fn, key = ec2.delete_volume, "VolumeId"
            else:
                delete_fn, key = ec2.delete_snapshot, "SnapshotId"

            if not args.execute:
                record(item, "would-delete", dry_run_call(delete_fn, **{key: item["id"]}))
                continue

            try:
                if item["type"] == "volume" and args.snapshot_volumes_first:
                    snap = ec2.create_snapshot(
                        VolumeId=item["id"],
                        Description=f"Final snapshot before deleting {item['id']} ({item.get('name', '')})",
                        TagSpecifications=[{"ResourceType": "snapshot", "Tags": [
                            {"Key": "ebs-cleanup:final-snapshot-of", "Value": item["id"]},
                        ]}],
                    )
                    ec2.get_waiter("snapshot_completed").wait(
                        SnapshotIds=[snap["SnapshotId"]],
                        WaiterConfig={"Delay": 15, "MaxAttempts": 240},
                    )
                    record(item, "snapshotted", snap["SnapshotId"])
                delete_fn(**{key: item["id"]})
                deleted += 1
                record(item, "deleted")
            except ClientError as err:
                code = err.response["Error"]["Code"]
                if code in ("InvalidSnapshot.InUse", "VolumeInUse", "IncorrectState"):
                    skipped += 1  # EC2's own guard caught a change since the re-check
                    record(item, "skip", f"EC2 refused: {code}")
                else:
                    failed += 1
                    record(item, "error", code)

    print(f"{mode} finished: {deleted} deleted, {skipped} skipped, {failed} errors. Log: {log_path}")
    if not args.execute:
        print("Nothing was deleted. Re-run with --execute after the plan has been approved.")
    return 1 if failed else 0


# ---------------------------------------------------------------- cli

def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("plan", help="list candidates (read-only) and write a plan file")
    p.add_argument("--region", required=True)
    p.add_argument("--min-age-days", type=int, default=30)
    p.add_argument("--out", default="ebs-cleanup-plan.json")
    p.add_argument("--protect-tag", action="append", help="extra tag key that protects a resource (repeatable)")
    p.add_argument("--include-archived", action="store_true", help="also list archive-tier snapshots")
    group = p.add_mutually_exclusive_group()
    group.add_argument("--volumes-only", action="store_true")
    group.add_argument("--snapshots-only", action="store_true")
    p.set_defaults(func=cmd_plan)

    a = sub.add_parser("apply", help="act on a reviewed plan file (dry run unless --execute)")
    a.add_argument("--plan", required=True)
    a.add_argument("--execute", action="store_true", help="actually delete; without it nothing changes")
    a.add_argument("--snapshot-volumes-first", action="store_true",
                   help="take and wait for a final snapshot of each volume before deleting it")
    a.add_argument("--protect-tag", action="append")
    a.add_argument("--max-plan-age-hours", type=float, default=24)
    a.add_argument("--log", help="JSONL log path (default: timestamped file in the current directory)")
    a.set_defaults(func=cmd_apply)

    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
