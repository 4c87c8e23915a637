#!/usr/bin/env bash
# Run a command from cron with locking, a timeout and logging.
#
# Usage: cron-wrapper.sh NAME TIMEOUT_SECONDS COMMAND [ARGS...]
#   NAME             short job name; used for the lock file, log file and syslog tag
#   TIMEOUT_SECONDS  kill the job (SIGTERM, then SIGKILL 30s later) after this long
#
# Exit codes: the job's own exit code; 75 if a previous run still holds the lock;
#             124 if the job timed out (from timeout(1)).
set -uo pipefail

if [ "$#" -lt 3 ]; then
  echo "usage: $0 NAME TIMEOUT_SECONDS COMMAND [ARGS...]" >&2
  exit 64
fi

name=$1; timeout_s=$2; shift 2

case "$name" in
  *[!A-Za-z0-9_-]*|"") echo "invalid job name: $name" >&2; exit 64 ;;
esac

lock_dir=${CRON_LOCK_DIR:-/tmp}
log_dir=${CRON_LOG_DIR:-$HOME/.local/state/cron-jobs}
mkdir -p "$log_dir"
log_file="$log_dir/$name.log"
tag="cron-job-$name"

exec 9>"$lock_dir/cron-$name.lock"
if ! flock -n 9; then
  logger -t "$tag" "skipped: previous run still in progress"
  exit 75
fi

start=$(date +%s)
logger -t "$tag" "started: $*"
{
  echo "=== $(date -Is) start: $*"
} >>"$log_file"

timeout --kill-after=30 "$timeout_s" "$@" >>"$log_file" 2>&1 9>&-
rc=$?

elapsed=$(( $(date +%s) - start ))
echo "=== $(date -Is) exit=$rc elapsed=${elapsed}s" >>"$log_file"
if [ "$rc" -eq 0 ]; then
  logger -t "$tag" "finished ok in ${elapsed}s"
else
  logger -p user.err -t "$tag" "FAILED exit=$rc after ${elapsed}s (log: $log_file)"
fi
exit "$rc"
