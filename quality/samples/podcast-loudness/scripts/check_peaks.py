#!/usr/bin/env python3
"""Exit 1 when any true peak of the file is above -1 dBTP, printing where."""
import re
import subprocess
import sys

LIMIT = -1.0


def main(path: str) -> int:
    out = subprocess.run(
        ["ffmpeg", "-hide_banner", "-nostats", "-i", path, "-af", "ebur128=peak=true:framelog=verbose", "-f", "null", "-"],
        capture_output=True, text=True, check=True,
    ).stderr
    over = []
    for line in out.splitlines():
        m = re.search(r"t:\s*([\d.]+).*FTPK:\s*(-?[\d.]+)\s+(-?[\d.]+)", line)
        if m and max(float(m.group(2)), float(m.group(3))) > LIMIT:
            over.append(float(m.group(1)))
    for t in over[:20]:
        print(f"true peak above {LIMIT} dBTP at {int(t // 60)}:{t % 60:05.2f}")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
