#!/usr/bin/env bash
# Print integrated loudness (LUFS), loudness range (LU) and true peak (dBTP) of one audio file.
set -euo pipefail
file="${1:?usage: measure.sh <audio file>}"
ffmpeg -hide_banner -nostats -i "$file" -filter_complex ebur128=peak=true -f null - 2>&1 \
  | awk '/Integrated loudness:/{f=1} f&&/I:/{i=$2} f&&/LRA:/{r=$2} f&&/Peak:/{p=$2} END{printf "integrated %s LUFS\nrange %s LU\ntrue peak %s dBTP\n", i, r, p}'
