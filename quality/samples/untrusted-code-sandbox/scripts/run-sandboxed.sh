#!/usr/bin/env bash
# run-sandboxed.sh - run a command against a COPY of a directory inside a
# locked-down, throwaway Docker container.
#
#   run-sandboxed.sh [options] SRC_DIR -- COMMAND [ARGS...]
#
# Options:
#   --image IMG           container image (default: python:3.12-slim)
#   --network             allow outbound network (default: none)
#   --timeout SECONDS     wall-clock limit (default: 300)
#   --keep                keep the scratch copy afterwards and print its path
#   --allow-secret-files  proceed even if SRC_DIR contains credential-looking files
#
# SRC_DIR is copied to a fresh scratch directory which is mounted at /src.
# The original is never mounted. The container gets no capabilities, no
# privilege escalation, a read-only root filesystem, a non-root user, CPU,
# memory and process limits, and no host environment variables. gVisor
# (runsc) is used automatically when Docker has it configured.

set -euo pipefail

image="python:3.12-slim"
network="none"
timeout_s=300
keep=0
allow_secrets=0

die() { echo "run-sandboxed: $*" >&2; exit 2; }

while [[ $# -gt 0 ]]; do
  case "$1" in
    --image) image="${2:?}"; shift 2 ;;
    --network) network="bridge"; shift ;;
    --timeout) timeout_s="${2:?}"; shift 2 ;;
    --keep) keep=1; shift ;;
    --allow-secret-files) allow_secrets=1; shift ;;
    --) die "SRC_DIR is required before --" ;;
    -*) die "unknown option: $1" ;;
    *) break ;;
  esac
done

[[ $# -ge 3 && "$2" == "--" ]] || die "usage: run-sandboxed.sh [options] SRC_DIR -- COMMAND [ARGS...]"
src="$(cd "$1" && pwd -P)" || die "not a directory: $1"
shift 2

[[ "$timeout_s" =~ ^[0-9]+$ ]] || die "--timeout must be a number of seconds"
case "$src" in
  /|/home|/root|/etc|/usr|/var) die "refusing to sandbox a system directory: $src" ;;
esac
[[ "$src" != "$(cd "$HOME" && pwd -P)" ]] || die "refusing to copy your whole home directory"
command -v docker >/dev/null || die "docker not found"

# Credential-looking files should not be handed to untrusted code, even in
# a sandbox: with --network they can be sent anywhere.
secrets="$(find "$src" -maxdepth 4 \( -name '.env' -o -name '.env.*' -o -name '*.pem' \
  -o -name 'id_rsa*' -o -name 'id_ed25519*' -o -name '.npmrc' -o -name '.pypirc' \
  -o -name 'credentials' -o -name '*.tfstate' -o -name '.netrc' \) -print 2>/dev/null | head -20)"
if [[ -n "$secrets" && $allow_secrets -eq 0 ]]; then
  echo "run-sandboxed: credential-looking files found in $src:" >&2
  printf '%s\n' "$secrets" | sed 's/^/  /' >&2
  die "remove them from the copy or pass --allow-secret-files after checking"
fi

scratch="$(mktemp -d "${TMPDIR:-/tmp}/sandbox.XXXXXXXX")"
name="sbx-$(basename "$scratch" | tr -cd 'a-zA-Z0-9')"

cleanup() {
  # Remove only the container and scratch directory this run created.
  docker rm -f "$name" >/dev/null 2>&1 || true
  if [[ $keep -eq 0 && "$scratch" == "${TMPDIR:-/tmp}"/sandbox.* && -d "$scratch" ]]; then
    rm -rf -- "$scratch"
  elif [[ $keep -eq 1 ]]; then
    echo "run-sandboxed: scratch copy kept at $scratch" >&2
  fi
}
trap cleanup EXIT

cp -a "$src/." "$scratch/"

uid="$(id -u)"; gid="$(id -g)"
if [[ "$uid" == 0 ]]; then
  uid=65534; gid=65534
  chown -R "$uid:$gid" "$scratch"
fi

runtime=()
if docker info --format '{{json .Runtimes}}' 2>/dev/null | grep -q '"runsc"'; then
  runtime=(--runtime=runsc)
fi

echo "run-sandboxed: image=$image network=$network timeout=${timeout_s}s runtime=${runtime[*]:-default}" >&2

set +e
timeout --kill-after=10 "$timeout_s" docker run --rm --name "$name" \
  "${runtime[@]+"${runtime[@]}"}" \
  --network "$network" \
  --read-only \
  --tmpfs /tmp:rw,nosuid,nodev,size=512m \
  --cap-drop ALL \
  --security-opt no-new-privileges \
  --pids-limit 256 \
  --memory 2g --memory-swap 2g \
  --cpus 2 \
  --user "$uid:$gid" \
  --env HOME=/tmp \
  --mount "type=bind,source=$scratch,target=/src" \
  --workdir /src \
  "$image" "$@"
status=$?
set -e

if [[ $status -eq 124 || $status -eq 137 ]]; then
  echo "run-sandboxed: timed out after ${timeout_s}s" >&2
fi
exit "$status"
