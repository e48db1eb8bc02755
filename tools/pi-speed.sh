#!/bin/bash
# Run a command at a Pi's speed, near enough [issue 42]: under a CPU quota,
# the command and every process it starts (the hub's threads, Open JTalk)
# sharing PERCENT of one core.
#
#   sudo tools/pi-speed.sh PERCENT -- COMMAND [ARGS...]
#   sudo tools/pi-speed.sh 46 -- .venv/bin/werewolf bench narration --lang ja
#
# How PERCENT is found (docs/performance/narration.md): a Pi's speed is this
# machine's `werewolf bench engine --quick` games/s against the figure
# measured for a Pi under qemu (hardware/README.md: 445.6-475.4 games/s, the
# three userlands), times the cores the command can keep busy at once (the
# hub's Python and one engine: 2):
#
#   PERCENT = 100 x 2 x (Pi games/s) / (this machine's games/s)
#
# The quota is systemd's CPUQuota where systemd runs (systemd-run --scope),
# else a cgroup of the machine's own (cgroup v2's cpu.max, or v1's
# cpu.cfs_quota_us), removed at the end. Root: a cgroup is the kernel's.
set -euo pipefail

usage() { echo "usage: sudo $0 PERCENT -- COMMAND [ARGS...]" >&2; exit 2; }
[[ $# -ge 3 && "$2" == "--" && "$1" =~ ^[0-9]+$ && "$1" -gt 0 ]] || usage
percent=$1
shift 2

if command -v systemd-run >/dev/null && systemctl is-system-running >/dev/null 2>&1; then
  echo "pi-speed: systemd-run --scope -p CPUQuota=${percent}%" >&2
  exec systemd-run --quiet --scope -p "CPUQuota=${percent}%" -- "$@"
fi

period=100000
quota=$((period * percent / 100))
group="werewolf-pi-speed-$$"
if [[ -f /sys/fs/cgroup/cgroup.controllers ]]; then  # cgroup v2
  dir="/sys/fs/cgroup/$group"
  mkdir "$dir"
  echo "$quota $period" > "$dir/cpu.max"
else  # cgroup v1: the cpu controller's own hierarchy
  dir="/sys/fs/cgroup/cpu/$group"
  mkdir "$dir"
  echo "$period" > "$dir/cpu.cfs_period_us"
  echo "$quota" > "$dir/cpu.cfs_quota_us"
fi
cleanup() {
  # the command's processes are gone: the group can go (a straggler: moved out first)
  if [[ -f "$dir/cgroup.procs" ]]; then
    while read -r pid; do echo "$pid" > "$(dirname "$dir")/cgroup.procs" 2>/dev/null || true
    done < "$dir/cgroup.procs"
  fi
  rmdir "$dir" 2>/dev/null || true
}
trap cleanup EXIT
echo "pi-speed: $dir: ${quota} us of CPU every ${period} us (${percent}% of one core)" >&2
status=0
bash -c 'echo $$ > "$1/cgroup.procs" && shift && exec "$@"' pi-speed "$dir" "$@" || status=$?
exit "$status"
