#!/bin/bash
# The Pi install, checked on Pi userlands [issue 19]: Debian bookworm arm64 and
# armhf (the closest this machine gets to Raspberry Pi OS bookworm 64-bit and
# 32-bit) under qemu-user. In each: hardware/install.sh --no-system (apt, the
# venv, pip: timed, and which packages pip built from source), `werewolf serve`
# (time until it answers), `werewolf doctor`, the engine's, table's and
# firmware's tests, and `werewolf bench engine|hub --quick` (emulated: slower
# than a Pi, and not in the same way). The last line printed is one JSON object:
#   {"arm64": {"installed": true, "install_s": ..., "compiled": [...],
#              "serve_ok": true, "startup_s": ..., "tests": {"passed": n, "failed": n},
#              ...}, "armhf": {...}}
#
#   sudo tools/pi-check.sh [--arch arm64|armhf] [--cache DIR] [--keep]
#
# Needs root (debootstrap, chroot, binfmt_misc) and the packages
# qemu-user-static binfmt-support debootstrap. The userlands stay in the cache
# folder (default /var/cache/werewolf-pi, or $WEREWOLF_PI_CACHE), with apt's
# and pip's downloads: a second run only pays for the install and the tests.
# Every run installs on a fresh overlay of the pristine userland. Not part of
# .ci/run: it takes tens of minutes.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${WEREWOLF_PI_CACHE:-/var/cache/werewolf-pi}
ARCHES=()
KEEP=0
while [ $# -gt 0 ]; do
    case "$1" in
        --arch) ARCHES+=("$2"); shift ;;
        --cache) CACHE=$2; shift ;;
        --keep) KEEP=1 ;;
        -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
        *) echo "pi-check: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
[ ${#ARCHES[@]} -gt 0 ] || ARCHES=(arm64 armhf)
[ "$(id -u)" = 0 ] || { echo "pi-check: run as root (debootstrap, chroot)" >&2; exit 2; }
for tool in debootstrap update-binfmts qemu-aarch64-static qemu-arm-static; do
    command -v "$tool" >/dev/null || {
        echo "pi-check: $tool missing: apt-get install -y qemu-user-static binfmt-support debootstrap" >&2
        exit 2; }
done

RUN=$CACHE/run-$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$RUN"
log() { printf '%s pi-check: %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }

# the mirror apt already uses on this machine (a Debian archive, not security)
mirror() {
    local uri
    uri=$(grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}' \
          | grep -v security | head -n1 || true)
    [ -n "$uri" ] || uri=$(grep -hs '^deb ' /etc/apt/sources.list | awk '{print $2}' \
          | grep -v security | head -n1 || true)
    [ -n "$uri" ] || { echo "pi-check: no Debian mirror in /etc/apt/sources.list*" >&2; exit 2; }
    echo "$uri"
}

binfmt() {
    [ -e /proc/sys/fs/binfmt_misc/status ] ||
        mount binfmt_misc -t binfmt_misc /proc/sys/fs/binfmt_misc
    update-binfmts --enable >/dev/null 2>&1 || true
    for name in qemu-aarch64 qemu-arm; do
        grep -qs enabled "/proc/sys/fs/binfmt_misc/$name" ||
            { echo "pi-check: binfmt_misc has no $name handler" >&2; exit 2; }
    done
}

userland() {  # the pristine bookworm userland of an architecture, made once
    local arch=$1 base=$CACHE/bookworm-$1
    if [ ! -e "$base/.debootstrapped" ]; then
        log "$arch: debootstrap (once; kept in $base)"
        rm -rf "$base"
        debootstrap --arch="$arch" --variant=minbase --include=ca-certificates \
            bookworm "$base" "$(mirror)" > "$RUN/$arch-debootstrap.log" 2>&1
        touch "$base/.debootstrapped"
    fi
}

# --- one userland ---------------------------------------------------------------------
MOUNTS=()
cleanup() {
    local i
    for ((i=${#MOUNTS[@]}-1; i>=0; i--)); do umount -l "${MOUNTS[$i]}" 2>/dev/null || true; done
}
trap cleanup EXIT

check_arch() {
    local arch=$1 base=$CACHE/bookworm-$1 work=$RUN/$1 out=$RUN/$1.json
    local root=$work/root logs=$RUN/$1
    mkdir -p "$work/upper" "$work/work" "$root" "$CACHE/apt-$arch" "$CACHE/pip-$arch"
    mount -t overlay overlay -o "lowerdir=$base,upperdir=$work/upper,workdir=$work/work" "$root"
    MOUNTS+=("$root")
    mount -t proc proc "$root/proc"; MOUNTS+=("$root/proc")
    mount --rbind /sys "$root/sys"; MOUNTS+=("$root/sys")
    mount --rbind /dev "$root/dev"; MOUNTS+=("$root/dev")
    mkdir -p "$root/var/cache/apt/archives" "$root/root/.cache/pip"
    mount --bind "$CACHE/apt-$arch" "$root/var/cache/apt/archives"
    MOUNTS+=("$root/var/cache/apt/archives")
    mount --bind "$CACHE/pip-$arch" "$root/root/.cache/pip"; MOUNTS+=("$root/root/.cache/pip")
    cp /etc/resolv.conf "$root/etc/resolv.conf"
    # this machine's CA bundle: pip in the userland trusts what the host trusts
    cp /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/host-ca.crt"
    # keep the downloaded .debs for the next run
    echo 'Binary::apt::APT::Keep-Downloaded-Packages "true";' > "$root/etc/apt/apt.conf.d/01keep"
    local cached=false
    # apt's and pip's downloads from an earlier run: install_s is then mostly unpacking
    [ -z "$(ls -A "$CACHE/pip-$arch")$(ls "$CACHE/apt-$arch" | grep '\.deb$' || true)" ] \
        || cached=true
    # the checkout as it is now (committed or not), without venvs and caches
    mkdir -p "$root/home/pi/werewolf"
    (cd "$ROOT" && git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf -) \
        | tar -xf - -C "$root/home/pi/werewolf"
    in_root() { chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin \
                    LANG=C.UTF-8 PIP_CERT=/etc/ssl/host-ca.crt SSL_CERT_FILE=/etc/ssl/host-ca.crt \
                    /bin/sh -c "cd /home/pi/werewolf && $1"; }

    log "$arch: hardware/install.sh --no-system"
    local t0 t1 installed=false
    touch "$logs-started"
    t0=$(date +%s.%N)
    if in_root "hardware/install.sh --no-system" > "$logs-install.log" 2>&1; then installed=true; fi
    t1=$(date +%s.%N)
    local install_s
    install_s=$(python3 -c "print(round($t1 - $t0, 1))")
    local compiled
    # what pip built from source: the wheels it made this run, kept in its cache
    compiled=$(find "$CACHE/pip-$arch" -path '*/wheels/*' -name '*.whl' -newer "$logs-started" \
               -printf '%f\n' | python3 -c 'import json, sys
print(json.dumps(sorted({w.split("-")[0] for w in sys.stdin.read().split()})))')
    local pinlib machine
    machine=$(in_root "uname -m")
    log "$arch: installed=$installed in ${install_s}s, compiled $compiled"

    local serve='{"serve_ok": false, "startup_s": null}' doctor_ok=false
    local tests='{"passed": 0, "failed": 0}' bench_engine=null bench_hub=null
    pinlib=null
    if [ "$installed" = true ]; then
        log "$arch: werewolf serve, doctor"
        serve=$(in_root ".venv/bin/python tools/pi-serve-probe.py" 2> "$logs-serve.log" \
                || echo '{"serve_ok": false, "startup_s": null}')
        if in_root ".venv/bin/werewolf doctor" > "$logs-doctor.log" 2>&1; then doctor_ok=true; fi
        pinlib=$(in_root ".venv/bin/python -c \"import json, importlib.util as u; print(json.dumps(
            [m for m in ('lgpio', 'RPi') if u.find_spec(m)]))\"" 2>/dev/null || echo null)
        log "$arch: tests (engine, table, store, words, hub, firmware, serve)"
        in_root ".venv/bin/pip install --prefer-binary pytest hypothesis" > "$logs-pip-test.log" 2>&1 || true
        # emulation is 5-20 times slower: no Hypothesis deadline, the CI's fixed examples
        printf '%s\n' 'from hypothesis import settings' \
            'settings.register_profile("emulated", derandomize=True, deadline=None)' \
            'settings.load_profile("emulated")' > "$root/root/pi_emulated.py"
        in_root "PYTHONPATH=/root .venv/bin/python -m pytest -q -p pi_emulated \
                 -p no:cacheprovider tests/engine tests/table tests/store tests/words tests/hub tests/firmware tests/cli/test_serve.py" \
                 > "$logs-tests.log" 2>&1 || true
        tests=$(python3 - "$logs-tests.log" <<'EOF'
import json, re, sys
last = [l for l in open(sys.argv[1], errors="replace") if re.search(r"\d+ (passed|failed)", l)]
line = last[-1] if last else ""
count = lambda word: sum(int(n) for n in re.findall(rf"(\d+) {word}", line))
print(json.dumps({"passed": count("passed"), "failed": count("failed") + count("error"),
                  "skipped": count("skipped")}))
EOF
)
        log "$arch: bench engine --quick, bench hub --quick (emulated)"
        bench_engine=$(in_root ".venv/bin/werewolf bench engine --quick" 2> "$logs-bench.log" \
                       | tail -n1 || true)
        bench_hub=$(in_root ".venv/bin/werewolf bench hub --quick" 2>> "$logs-bench.log" \
                    | tail -n1 || true)
        [ -n "$bench_engine" ] || bench_engine=null
        [ -n "$bench_hub" ] || bench_hub=null
    fi
    python3 - > "$out" <<EOF
import json
serve = json.loads('''$serve''')
print(json.dumps({"installed": $( [ $installed = true ] && echo True || echo False ),
    "install_s": $install_s, "compiled": $compiled,
    "serve_ok": serve["serve_ok"], "startup_s": serve["startup_s"],
    "tests": json.loads('''$tests'''),
    "doctor_ok": $( [ $doctor_ok = true ] && echo True || echo False ),
    "pin_libraries": json.loads('''$pinlib'''), "machine": "$machine",
    "downloads_cached": $( [ $cached = true ] && echo True || echo False ),
    "emulated": "qemu-user",
    "bench_engine_quick": json.loads('''$bench_engine'''),
    "bench_hub_quick": json.loads('''$bench_hub''')}))
EOF
    log "$arch: $(cat "$out")"
}

binfmt
for arch in "${ARCHES[@]}"; do userland "$arch"; done
# the userlands side by side (each its own mounts, cleaned up when it ends)
for arch in "${ARCHES[@]}"; do
    ( trap cleanup EXIT
      check_arch "$arch" || { log "$arch: the check itself failed (see $RUN/$arch-*.log)"
          echo '{"installed": false, "error": "pi-check failed"}' > "$RUN/$arch.json"; }
      cleanup; MOUNTS=()
      if [ "$KEEP" = 0 ]; then rm -rf "${RUN:?}/$arch"; fi ) &
done
wait
log "logs in $RUN"
python3 - "$RUN" "${ARCHES[@]}" <<'EOF'
import json, sys
run, arches = sys.argv[1], sys.argv[2:]
print(json.dumps({a: json.load(open(f"{run}/{a}.json")) for a in arches}))
EOF
