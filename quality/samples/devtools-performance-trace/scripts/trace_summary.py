#!/usr/bin/env python3
"""Summarise a Chrome DevTools performance trace (Trace Event Format JSON).

usage: trace_summary.py TRACE.json [--threshold-ms 50] [--top 15] [--pid PID]

Prints long tasks on the renderer main thread with their heaviest child events,
LCP candidates, layout shifts, and slow interactions. Read-only.
"""
import argparse
import gzip
import json
from collections import defaultdict

TASK_NAMES = {"RunTask", "ThreadControllerImpl::RunTask"}


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as fh:
        data = json.load(fh)
    return data["traceEvents"] if isinstance(data, dict) else data


def main_threads(events):
    """(pid, tid) pairs named CrRendererMain."""
    return {(e["pid"], e["tid"]) for e in events
            if e.get("ph") == "M" and e.get("name") == "thread_name"
            and e.get("args", {}).get("name") == "CrRendererMain"}


def label(e):
    d = e.get("args", {}).get("data", {}) or {}
    extra = d.get("functionName") or d.get("type") or ""
    url = d.get("url") or ""
    if url:
        url = url.rsplit("/", 1)[-1][:60]
    return " ".join(x for x in (e["name"], extra, url) if x)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("trace")
    ap.add_argument("--threshold-ms", type=float, default=50.0)
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("--pid", type=int, help="renderer process to analyse (default: busiest)")
    args = ap.parse_args()

    events = load(args.trace)
    mains = main_threads(events)
    if not mains:
        raise SystemExit("no CrRendererMain thread found; is this a Performance panel trace?")

    busy = defaultdict(float)
    for e in events:
        if e.get("ph") == "X" and e.get("name") in TASK_NAMES and (e["pid"], e["tid"]) in mains:
            busy[(e["pid"], e["tid"])] += e.get("dur", 0)
    if args.pid is not None:
        candidates = [m for m in mains if m[0] == args.pid]
        if not candidates:
            raise SystemExit(f"pid {args.pid} has no CrRendererMain thread; choices: {sorted(p for p, _ in mains)}")
        main = candidates[0]
    else:
        main = max(mains, key=lambda m: busy.get(m, 0))
    pid, tid = main

    nav = [e["ts"] for e in events if e.get("name") == "navigationStart" and e.get("pid") == pid]
    thread_x = sorted((e for e in events if e.get("ph") == "X" and e.get("pid") == pid and e.get("tid") == tid),
                      key=lambda e: e["ts"])
    origin = min(nav) if nav else (thread_x[0]["ts"] if thread_x else 0)
    ms = lambda us: us / 1000.0  # noqa: E731

    print(f"renderer pid {pid}, main tid {tid}; times relative to "
          f"{'navigationStart' if nav else 'first main-thread event'}")
    if len(mains) > 1:
        print(f"(other renderer main threads: {sorted(m for m in mains if m != main)}; use --pid to switch)")

    tasks = [e for e in thread_x if e["name"] in TASK_NAMES]
    long_tasks = [t for t in tasks if ms(t.get("dur", 0)) > args.threshold_ms]
    blocking = sum(ms(t["dur"]) - 50 for t in long_tasks if ms(t["dur"]) > 50)
    print(f"\n{len(tasks)} tasks, {len(long_tasks)} over {args.threshold_ms:g} ms; "
          f"blocking time (sum of time over 50 ms, whole trace) {blocking:.0f} ms")

    for t in sorted(long_tasks, key=lambda t: -t["dur"])[: args.top]:
        start, end = t["ts"], t["ts"] + t["dur"]
        by_label = defaultdict(float)
        for e in thread_x:
            if e["ts"] < start:
                continue
            if e["ts"] >= end:
                break
            if e is not t and e["name"] not in TASK_NAMES:
                by_label[label(e)] += e.get("dur", 0)
        top = sorted(by_label.items(), key=lambda kv: -kv[1])[:3]
        parts = "; ".join(f"{name} {ms(d):.0f}ms" for name, d in top)
        print(f"  at {ms(start - origin):8.0f} ms  {ms(t['dur']):6.0f} ms  | {parts}")
    print("  (child times are inclusive and nested events overlap, so they can sum to more than the task)")

    lcp = [e for e in events if e.get("name") == "largestContentfulPaint::Candidate" and e.get("pid") == pid]
    if lcp:
        print("\nLCP candidates:")
        for e in lcp:
            d = e.get("args", {}).get("data", {})
            print(f"  at {ms(e['ts'] - origin):8.0f} ms  type={d.get('type')} size={d.get('size')} nodeId={d.get('nodeId')}")

    shifts = [e for e in events if e.get("name") == "LayoutShift" and e.get("pid") == pid]
    if shifts:
        counted = [e for e in shifts if not e.get("args", {}).get("data", {}).get("had_recent_input")]
        total = sum(e["args"]["data"].get("weighted_score_delta", e["args"]["data"].get("score", 0)) for e in counted)
        print(f"\nlayout shifts: {len(shifts)} ({len(counted)} without recent input), summed score {total:.3f}")

    inter = [e for e in events if e.get("name") == "EventTiming" and e.get("ph") == "b"
             and (e.get("args", {}).get("data", {}) or {}).get("interactionId")]
    slow = [e for e in inter if e["args"]["data"].get("duration", 0) >= 200]
    if inter:
        print(f"\ninteraction events: {len(inter)}; >= 200 ms: {len(slow)}")
        for e in sorted(slow, key=lambda e: -e["args"]["data"]["duration"])[:10]:
            d = e["args"]["data"]
            print(f"  at {ms(e['ts'] - origin):8.0f} ms  {d.get('type')} {d['duration']} ms")


if __name__ == "__main__":
    main()
