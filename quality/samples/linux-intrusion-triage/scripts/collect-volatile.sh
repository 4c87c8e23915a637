#!/usr/bin/env bash
# collect-volatile.sh - read-only first-response collection on a Linux host.
#
#   sudo ./collect-volatile.sh [--allow-same-disk] [--case ID] OUTPUT_DIR
#
# Captures processes, network state, logins, persistence locations and
# recently changed files into OUTPUT_DIR/<host>-<utc time>/, logs every
# command with its start time, and writes SHA-256 hashes of everything
# collected. It does not kill processes, change configuration, install
# anything or delete anything on the host.
#
# OUTPUT_DIR should be on removable or network storage. Writing to the
# host's own root filesystem overwrites free space that may still hold
# deleted attacker files, so that needs --allow-same-disk.
#
# If you have trusted static binaries (e.g. busybox from known-good media),
# put their directory first: TRUSTED_BIN=/mnt/ir/bin ./collect-volatile.sh ...

set -uo pipefail   # no -e: one failing command must not stop the collection

allow_same_disk=0
case_id="unspecified"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --allow-same-disk) allow_same_disk=1; shift ;;
    --case) case_id="${2:?}"; shift 2 ;;
    -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "unknown option: $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
[[ $# -eq 1 ]] || { echo "usage: collect-volatile.sh [--allow-same-disk] [--case ID] OUTPUT_DIR" >&2; exit 2; }

if [[ -n "${TRUSTED_BIN:-}" ]]; then
  export PATH="$TRUSTED_BIN:$PATH"
fi

base="$1"
[[ -d "$base" ]] || { echo "OUTPUT_DIR does not exist: $base" >&2; exit 2; }

if [[ "$(stat -c %d "$base")" == "$(stat -c %d /)" && $allow_same_disk -eq 0 ]]; then
  echo "OUTPUT_DIR is on the same filesystem as / ." >&2
  echo "Mount external or network storage, or pass --allow-same-disk if there is no alternative." >&2
  exit 2
fi

if [[ $EUID -ne 0 ]]; then
  echo "warning: not root; many items (other users' processes, sockets, crontabs) will be incomplete" >&2
fi

host="$(hostname 2>/dev/null || cat /proc/sys/kernel/hostname)"
stamp="$(date -u +%Y%m%dT%H%M%SZ)"
out="$base/$host-$stamp"
mkdir -p "$out/files" || exit 2
log="$out/collection.log"

{
  echo "case: $case_id"
  echo "host: $host"
  echo "collector: ${SUDO_USER:-$(id -un)} (euid $EUID)"
  echo "start (UTC): $(date -u +%FT%TZ)"
  echo "PATH: $PATH"
} > "$log"

# run NAME COMMAND... : run a command, save stdout+stderr to NAME.txt
run() {
  local name="$1"; shift
  echo "$(date -u +%FT%TZ) $name: $*" >> "$log"
  "$@" > "$out/$name.txt" 2>&1
  echo "  exit $?" >> "$log"
}

# Most volatile first (RFC 3227 order of volatility).
run 00-date          date -u
run 01-uptime        uptime
run 02-uname         uname -a
run 10-ps-tree       ps auxwwf
run 11-ps-detail     ps -eo pid,ppid,user,lstart,etime,args --sort=start_time
run 12-proc-exe      bash -c 'ls -l /proc/[0-9]*/exe 2>/dev/null'
run 13-proc-cwd      bash -c 'ls -l /proc/[0-9]*/cwd 2>/dev/null'
run 20-sockets       ss -tanpue
run 21-listening     ss -lntupe
run 22-ip-addr       ip addr
run 23-ip-route      ip route
run 24-arp           ip neigh
run 25-lsof          lsof -nP
run 26-lsof-deleted  lsof -nP +L1
run 30-who           who -a
run 31-last          last -F -w
run 32-lastb         bash -c 'lastb -F -w 2>/dev/null | head -2000'
run 40-modules       cat /proc/modules
run 41-mounts        cat /proc/mounts
run 42-df            df -h
run 50-ld-preload    bash -c 'ls -l /etc/ld.so.preload 2>&1; cat /etc/ld.so.preload 2>&1'
run 51-cron          bash -c 'for f in /etc/crontab /etc/cron.d/* /var/spool/cron/crontabs/* /var/spool/cron/*; do [ -f "$f" ] && { echo "== $f"; ls -l "$f"; cat "$f"; }; done'
run 52-systemd-units systemctl list-unit-files --no-pager
run 53-systemd-timer systemctl list-timers --all --no-pager
run 54-unit-files    bash -c 'ls -lat /etc/systemd/system /etc/systemd/system/*.wants /usr/lib/systemd/system 2>/dev/null | head -500'
run 55-auth-keys     bash -c 'for f in /root/.ssh/authorized_keys* /home/*/.ssh/authorized_keys*; do [ -f "$f" ] && { echo "== $f"; ls -l "$f"; cat "$f"; }; done'
run 56-passwd        bash -c 'cat /etc/passwd; echo; ls -l /etc/passwd /etc/shadow /etc/sudoers /etc/sudoers.d 2>&1'
run 57-rc-files      bash -c 'ls -la /root /home/* 2>/dev/null'
run 60-firewall      bash -c 'iptables-save 2>&1; nft list ruleset 2>&1'
run 61-tmp-dirs      bash -c 'ls -laR /tmp /var/tmp /dev/shm 2>/dev/null | head -5000'
run 62-recent-bin    bash -c 'find /usr/bin /usr/sbin /bin /sbin /usr/local /etc /opt -xdev -mtime -14 -printf "%TY-%Tm-%Td %TT %u %m %p\n" 2>/dev/null | sort'
run 63-journal-auth  journalctl --since "-14 days" -o short-iso --no-pager _COMM=sshd _COMM=sudo _COMM=su

# Preserve binaries of running processes whose file has been deleted from
# disk; /proc/PID/exe still points at the in-memory copy. Reading is safe.
mkdir -p "$out/files/deleted-exe"
for exe in /proc/[0-9]*/exe; do
  target="$(readlink "$exe" 2>/dev/null)" || continue
  if [[ "$target" == *" (deleted)" ]]; then
    pid="${exe#/proc/}"; pid="${pid%/exe}"
    cp "$exe" "$out/files/deleted-exe/pid-$pid.bin" 2>>"$log" \
      && echo "$(date -u +%FT%TZ) saved deleted exe of pid $pid ($target)" >> "$log"
  fi
done

# Copies of logs (read-only on the host side).
tar -C / -czf "$out/files/var-log.tgz" var/log 2>>"$log"

echo "end (UTC): $(date -u +%FT%TZ)" >> "$log"

( cd "$out" && find . -type f ! -name SHA256SUMS -print0 | sort -z | xargs -0 sha256sum > SHA256SUMS )
echo "Collected into $out"
echo "SHA256SUMS hash (record this in the case notes): $(sha256sum "$out/SHA256SUMS" | cut -d' ' -f1)"
