#!/usr/bin/env python3
"""Two-pass ffmpeg loudnorm: measure, then apply one linear gain with the measured values."""
import argparse
import json
import os
import pathlib
import re
import subprocess
import sys


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("source")
    parser.add_argument("output")
    parser.add_argument("--target", type=float, default=-16.0)
    args = parser.parse_args()
    if pathlib.Path(args.source).resolve() == pathlib.Path(args.output).resolve():
        print("refusing to overwrite the source file", file=sys.stderr)
        return 2
    spec = f"loudnorm=I={args.target}:TP=-1.0:LRA=11"
    first = subprocess.run(
        ["ffmpeg", "-hide_banner", "-i", args.source, "-af", spec + ":print_format=json", "-f", "null", "-"],
        capture_output=True, text=True, check=True,
    )
    measured = json.loads(re.search(r"\{[^{}]*\}\s*$", first.stderr).group(0))
    scratch = pathlib.Path(os.environ.get("TMPDIR", "/tmp")) / f"loudnorm-{pathlib.Path(args.source).stem}.json"
    scratch.write_text(json.dumps(measured, indent=2))
    second = (
        f"{spec}:measured_I={measured['input_i']}:measured_TP={measured['input_tp']}"
        f":measured_LRA={measured['input_lra']}:measured_thresh={measured['input_thresh']}"
        f":offset={measured['target_offset']}:linear=true"
    )
    subprocess.run(["ffmpeg", "-hide_banner", "-y", "-i", args.source, "-af", second, "-ar", "48000", args.output], check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
