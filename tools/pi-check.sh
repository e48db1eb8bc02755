#!/bin/bash
# The Pi install, checked on Pi userlands [issues 19, 31]: Debian bookworm arm64
# and armhf (the closest this machine gets to Raspberry Pi OS bookworm 64-bit
# and 32-bit) under qemu-user, one case after the other:
#
#   arm64           Pi OS 64-bit (Pi 3/4/400/5, Zero 2 W)
#   armhf           Pi OS 32-bit on a 32-bit kernel (Zero 2 W, Pi 3): uname -m armv7l
#   armhf-kernel64  Pi OS 32-bit on a 64-bit kernel (Pi 4/400/5's default): an armhf
#                   userland whose `uname -m` and Python's platform.machine() say
#                   aarch64. qemu-arm cannot report aarch64 (QEMU_UNAME sets only the
#                   release; the machine follows the emulated CPU, armv7l), so this
#                   case puts a `uname` shim first on PATH and a sitecustomize.py on
#                   PYTHONPATH that makes os.uname() say aarch64 (what platform,
#                   sysconfig and pip's markers read): a SHIM, not a 64-bit kernel.
#   boot            the arm64 userland BOOTED with systemd (systemd-nspawn --boot
#                   under qemu-user): hardware/install.sh WITHOUT --no-system, run as
#                   the user pi through sudo; then a reboot under qemu-system-aarch64
#                   (Debian's arm64 kernel, a Cortex-A72, a virtio network card on
#                   qemu's own NAT): tools/pi-vm-probe.sh checks that the unit
#                   started at boot as pi with its groups, NetworkManager runs and
#                   took the card, install.sh run again makes the hotspot profile,
#                   Avahi answers for the hostname, and the hub follows an address
#                   that appears after it started; pi-check opens the hub from
#                   outside the machine. The VM also carries the armhf userland: the
#                   probe chroots into it under the arm64 kernel (Pi OS 32-bit on a
#                   64-bit kernel, for real) and runs install.sh --no-system, serve
#                   and doctor there. (Without qemu-system-aarch64 the reboot is
#                   a second nspawn boot, where NetworkManager aborts and Avahi
#                   cannot join mDNS: qemu-user's netlink and multicast.)
#
# In each userland case: hardware/install.sh --no-system (apt, the venv, pip:
# timed, and which packages pip built from source), `werewolf serve` (time until
# it answers), `werewolf doctor`, a focused subset of the tests (emulation is
# 10-20 times slower: engine without its Hypothesis properties, store, table,
# firmware on arm64 and armhf; firmware and store on armhf-kernel64, whose
# difference is the install), and `werewolf bench engine|hub --quick`.
#
# After each case one line of JSON goes to stdout: every case so far, e.g.
#   {"arm64": {"installed": true, "install_s": ..., "compiled": [], "serve_ok": true,
#              "tests": {"passed": n, "failed": 0, ...}, ...}, "armhf": {...}}
# A run cut short (Ctrl-C, SIGTERM, an error) still prints one: the case it was in
# has "cut_short": true and "stage" (what it was doing) with what it had measured.
#
#   sudo tools/pi-check.sh [--arch arm64|armhf|armhf-kernel64|boot]... [--cache DIR] [--keep]
#
# Needs root (mmdebstrap or debootstrap, chroot, binfmt_misc, mounts) and
#   apt-get install -y qemu-user-static binfmt-support mmdebstrap systemd-container \
#       qemu-system-arm
# (debootstrap instead of mmdebstrap works, slower). The pristine userlands stay
# in the cache folder (default /var/cache/werewolf-pi, or $WEREWOLF_PI_CACHE),
# with apt's and pip's downloads: a second run only pays for the install and the
# tests. Every case installs on a fresh overlay of the pristine userland. Not part
# of .ci/run: it takes tens of minutes. Timings: hardware/README.md.
set -euo pipefail

ROOT=${PI_CHECK_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
# bash reads a script while it runs it: run a copy, so that editing the checkout
# during a long run cannot change the run
if [ -z "${PI_CHECK_COPY:-}" ]; then
    copy=$(mktemp /tmp/pi-check.XXXXXX.sh); cp "$0" "$copy"
    PI_CHECK_COPY=$copy PI_CHECK_ROOT=$ROOT exec bash "$copy" "$@"
fi
CACHE=${WEREWOLF_PI_CACHE:-/var/cache/werewolf-pi}
CASES=()
KEEP=0
while [ $# -gt 0 ]; do
    case "$1" in
        --arch) CASES+=("$2"); shift ;;
        --cache) CACHE=$2; shift ;;
        --keep) KEEP=1 ;;
        -h|--help) sed -n '2,56p' "$0"; exit 0 ;;
        *) echo "pi-check: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
[ ${#CASES[@]} -gt 0 ] || CASES=(arm64 armhf armhf-kernel64 boot)
for c in "${CASES[@]}"; do
    case "$c" in arm64|armhf|armhf-kernel64|boot) ;;
        *) echo "pi-check: --arch is arm64, armhf, armhf-kernel64 or boot, not $c" >&2; exit 2 ;;
    esac
done
[ "$(id -u)" = 0 ] || { echo "pi-check: run as root (debootstrap, chroot)" >&2; exit 2; }
for tool in update-binfmts qemu-aarch64-static qemu-arm-static; do
    command -v "$tool" >/dev/null || {
        echo "pi-check: $tool missing: apt-get install -y qemu-user-static binfmt-support mmdebstrap" >&2
        exit 2; }
done
command -v mmdebstrap >/dev/null || command -v debootstrap >/dev/null || {
    echo "pi-check: mmdebstrap (or debootstrap) missing: apt-get install -y mmdebstrap" >&2; exit 2; }

RUN=$CACHE/run-$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$RUN"
log() { printf '%s pi-check: %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
now() { date +%s.%N; }
since() { python3 -c "print(round($(now) - $1, 1))"; }

# --- what each case measured: one "key<TAB>json" line a fact, so a cut-short run
# still has everything measured so far ------------------------------------------------
CURRENT=""
REPORTED=()
fact() { printf '%s\t%s\n' "$2" "$3" >> "$RUN/$1.facts"; }
stage() { STAGE=$2; fact "$1" stage "\"$2\""; log "$1: $2"; }
report() {  # every case so far, as one line of JSON on stdout
    python3 - "$RUN" "$@" <<'EOF'
import json, os, sys
run, cases = sys.argv[1], sys.argv[2:]
out = {}
for case in cases:
    path = f"{run}/{case}.facts"
    if not os.path.exists(path):
        continue
    facts = {}
    for line in open(path):
        key, _, value = line.rstrip("\n").partition("\t")
        try:
            facts[key] = json.loads(value)
        except ValueError:
            facts[key] = value
    out[case] = facts
print(json.dumps(out), flush=True)
EOF
}
MOUNTS=()
unmount_all() {
    local i
    for ((i=${#MOUNTS[@]}-1; i>=0; i--)); do umount -l "${MOUNTS[$i]}" 2>/dev/null || true; done
    MOUNTS=()
}
BOOT_PID=""
BINFMT_C=0
finish() {  # on any exit: stop what runs, unmount, print what was measured
    local code=$?
    trap - EXIT INT TERM
    if [ -n "$BOOT_PID" ]; then boot_down; fi
    if [ -n "${VM_PID:-}" ]; then kill "$VM_PID" 2>/dev/null || true; fi
    unmount_all
    [ "$BINFMT_C" = 0 ] || binfmt_credentials off
    if [ -n "$CURRENT" ]; then
        fact "$CURRENT" cut_short true
        log "$CURRENT: cut short while: ${STAGE:-?} (logs in $RUN)"
        report "${REPORTED[@]}" "$CURRENT"
    fi
    rm -f "$PI_CHECK_COPY"
    exit "$code"
}
trap finish EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

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

# The booted case runs sudo, a setuid program: under binfmt_misc it takes root only
# when the handler has the C (credentials) flag, which Debian's qemu-user-static
# leaves off. On for the booted case, back off when it ends.
binfmt_credentials() {
    local f=/proc/sys/fs/binfmt_misc/qemu-aarch64 magic mask interp flags
    interp=$(awk '/^interpreter/{print $2}' "$f")
    magic=$(awk '/^magic/{print $2}' "$f" | sed 's/../\\x&/g')
    mask=$(awk '/^mask/{print $2}' "$f" | sed 's/../\\x&/g')
    if [ "$1" = on ]; then
        # already on (another pi-check's booted case, or the owner's choice): leave it so
        if grep -q '^flags: .*C' "$f"; then return 0; fi
        flags=OCPF; BINFMT_C=1
    else
        [ "$BINFMT_C" = 1 ] || return 0  # not ours to turn off
        flags=PF; BINFMT_C=0
    fi
    echo -1 > "$f"
    printf ':qemu-aarch64:M:0:%s:%s:%s:%s\n' "$magic" "$mask" "$interp" "$flags" \
        > /proc/sys/fs/binfmt_misc/register
}

debian_arch() { case "$1" in armhf*) echo armhf ;; *) echo arm64 ;; esac; }

userland() {  # the pristine bookworm userland of an architecture, made once
    local arch=$1 base=$CACHE/bookworm-$1 t0
    if [ ! -e "$base/.debootstrapped" ]; then
        CURRENT=userland-$arch; stage "$CURRENT" "bootstrap (once; kept in $base)"
        rm -rf "$base"
        t0=$(now)
        if command -v mmdebstrap >/dev/null; then
            mmdebstrap --mode=root --arch="$arch" --variant=minbase \
                --include=ca-certificates bookworm "$base" "$(mirror)" \
                > "$RUN/$arch-bootstrap.log" 2>&1
        else
            debootstrap --arch="$arch" --variant=minbase --include=ca-certificates \
                bookworm "$base" "$(mirror)" > "$RUN/$arch-bootstrap.log" 2>&1
        fi
        touch "$base/.debootstrapped"
        fact "$CURRENT" bootstrap_s "$(since "$t0")"
        fact "$CURRENT" tool "\"$(command -v mmdebstrap >/dev/null && echo mmdebstrap || echo debootstrap)\""
        fact "$CURRENT" stage '"done"'
        CURRENT=""
        REPORTED+=("userland-$arch")
        report "${REPORTED[@]}"
    fi
}

# --- one case's fresh overlay of its userland -------------------------------------
overlay() {
    local case=$1 arch base work root
    arch=$(debian_arch "$case"); base=$CACHE/bookworm-$arch; work=$RUN/$case; root=$work/root
    mkdir -p "$work/upper" "$work/work" "$root" "$CACHE/apt-$arch" "$CACHE/pip-$arch"
    mount -t overlay overlay -o "lowerdir=$base,upperdir=$work/upper,workdir=$work/work" "$root"
    MOUNTS+=("$root")
    mkdir -p "$root/var/cache/apt/archives" "$root/root/.cache/pip" "$root/home/pi/.cache/pip"
    mount --bind "$CACHE/apt-$arch" "$root/var/cache/apt/archives"
    MOUNTS+=("$root/var/cache/apt/archives")
    mount --bind "$CACHE/pip-$arch" "$root/root/.cache/pip"; MOUNTS+=("$root/root/.cache/pip")
    cp /etc/resolv.conf "$root/etc/resolv.conf"
    # this machine's CA bundle: pip in the userland trusts what the host trusts
    cp /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/host-ca.crt"
    # keep the downloaded .debs for the next run
    echo 'Binary::apt::APT::Keep-Downloaded-Packages "true";' > "$root/etc/apt/apt.conf.d/01keep"
    # the checkout as it is now (committed or not), without venvs and caches
    mkdir -p "$root/home/pi/werewolf"
    (cd "$ROOT" && git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf -) \
        | tar -xf - -C "$root/home/pi/werewolf"
    ROOTDIR=$root
}
chroot_mounts() {
    local root=$1
    mount -t proc proc "$root/proc"; MOUNTS+=("$root/proc")
    mount --rbind /sys "$root/sys"; MOUNTS+=("$root/sys")
    mount --rbind /dev "$root/dev"; MOUNTS+=("$root/dev")
}

# --- a userland case: install --no-system, serve, doctor, tests, bench ------------------
check_userland() {
    local case=$1 arch root logs=$RUN/$1 env_extra="" t0 installed=false
    arch=$(debian_arch "$case")
    CURRENT=$case; stage "$case" "overlay"
    overlay "$case"; root=$ROOTDIR; chroot_mounts "$root"
    fact "$case" emulated '"qemu-user"'
    if [ "$case" = armhf-kernel64 ]; then
        # a 32-bit userland told it runs on a 64-bit kernel (see the header: a shim)
        mkdir -p "$root/opt/kernel64"
        printf '%s\n' '#!/bin/sh' \
            '# pi-check armhf-kernel64: uname as a 64-bit kernel answers a 32-bit process' \
            '/usr/bin/uname "$@" | sed "s/armv7l/aarch64/g"' > "$root/usr/local/bin/uname"
        chmod 755 "$root/usr/local/bin/uname"
        cat > "$root/opt/kernel64/sitecustomize.py" <<'EOF'
# pi-check armhf-kernel64: os.uname() as a 64-bit kernel answers a 32-bit process
# (platform.machine(), sysconfig.get_platform() and pip's markers read it)
import os

_uname = os.uname


def _kernel64():
    u = _uname()
    return os.uname_result((u.sysname, u.nodename, u.release, u.version, "aarch64"))


os.uname = _kernel64
EOF
        env_extra="PYTHONPATH=/opt/kernel64"
    fi
    in_root() { chroot "$root" /usr/bin/env -i HOME=/root \
                    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
                    LANG=C.UTF-8 PIP_CERT=/etc/ssl/host-ca.crt SSL_CERT_FILE=/etc/ssl/host-ca.crt \
                    $env_extra /bin/sh -c "cd /home/pi/werewolf && $1"; }
    local cached=false
    [ -z "$(ls -A "$CACHE/pip-$arch")$(ls "$CACHE/apt-$arch" | grep '\.deb$' || true)" ] \
        || cached=true
    fact "$case" downloads_cached "$cached"
    fact "$case" machine "\"$(in_root "uname -m")\""
    fact "$case" dpkg_arch "\"$(in_root "dpkg --print-architecture")\""

    stage "$case" "hardware/install.sh --no-system"
    touch "$logs-started"
    t0=$(now)
    if in_root "hardware/install.sh --no-system" > "$logs-install.log" 2>&1; then installed=true; fi
    fact "$case" install_s "$(since "$t0")"
    fact "$case" installed "$installed"
    # what pip built from source: the wheels it made this run, kept in its cache
    # what pip built from source: pip's cache keeps the wheels it BUILT under wheels/
    # (downloads go to http/): one built now, or built by an earlier run and installed
    # again from the cache, is a package this userland cannot get as a wheel
    fact "$case" compiled "$( { find "$CACHE/pip-$arch" -path '*/wheels/*' -name '*.whl' -printf '%f\n'
        echo ---; find "$root/home/pi/werewolf/.venv/lib" -maxdepth 3 -name '*.dist-info' \
            -printf '%f\n' 2>/dev/null; } | python3 -c 'import json, re, sys
built, _, installed = sys.stdin.read().partition("---")
key = lambda name: re.sub(r"[-_.]+", "_", name).lower()
have = {key(d.split("-")[0]) for d in installed.split()}
print(json.dumps(sorted({w.split("-")[0] for w in built.split() if key(w.split("-")[0]) in have})))')"
    fact "$case" python_machine "\"$(in_root ".venv/bin/python -c 'import platform; print(platform.machine())'" 2>/dev/null || echo none)\""
    fact "$case" python_bits "$(in_root "python3 -c 'import struct; print(struct.calcsize(\"P\") * 8)'")"
    [ "$installed" = true ] || { log "$case: install failed (see $logs-install.log)"; return 0; }
    fact "$case" packages "$(in_root ".venv/bin/python tools/pi-packages.py httptools cbor2 lgpio \
        gpiozero pillow uvicorn" 2>/dev/null || echo null)"
    fact "$case" pin_libraries "$(in_root ".venv/bin/python -c \"import json, importlib.util as u
print(json.dumps([m for m in ('lgpio', 'RPi') if u.find_spec(m)]))\"" 2>/dev/null || echo null)"

    stage "$case" "werewolf serve, doctor"
    fact "$case" serve "$(in_root ".venv/bin/python tools/pi-serve-probe.py" 2> "$logs-serve.log" \
        || echo '{"serve_ok": false, "startup_s": null}')"
    if in_root ".venv/bin/werewolf doctor" > "$logs-doctor.log" 2>&1; then
        fact "$case" doctor_ok true; else fact "$case" doctor_ok false; fi

    # in this order, within a budget (emulated, the whole subset would take an hour
    # a case): the engine (fast), then the pins, the store, the table
    # (tests/firmware/test_ports.py is mypy --strict over the firmware's seams: a static
    # check, the same on any machine, and the Pi's Pillow 9.4 has no type information)
    local subset="tests/engine --ignore=tests/engine/test_properties.py tests/firmware"
    subset="$subset --ignore=tests/firmware/test_ports.py tests/store tests/table"
    local budget=900
    if [ "$case" = armhf-kernel64 ]; then
        # the armhf userland again: what differs is the install (what pip chose), so
        # the parts that touch the platform: the pins, the display, the store
        subset="tests/firmware --ignore=tests/firmware/test_ports.py tests/store"; budget=600
    fi
    stage "$case" "tests: $subset"
    t0=$(now)
    in_root ".venv/bin/pip install --prefer-binary pytest hypothesis" > "$logs-pip-test.log" 2>&1 || true
    # Emulation is 10-20 times slower: no Hypothesis deadline, the CI's fixed examples
    printf '%s\n' 'from hypothesis import settings' \
        'settings.register_profile("emulated", derandomize=True, deadline=None, max_examples=20)' \
        'settings.load_profile("emulated")' > "$root/root/pi_emulated.py"
    local pp="/root"; [ -z "$env_extra" ] || pp="/root:/opt/kernel64"
    in_root "PYTHONPATH=$pp timeout $budget .venv/bin/python -m pytest -q -p pi_emulated \
             -p no:cacheprovider -o addopts= $subset" > "$logs-tests.log" 2>&1 || true
    fact "$case" tests_s "$(since "$t0")"
    fact "$case" tests_budget_s "$budget"
    fact "$case" tests "$(python3 - "$logs-tests.log" <<'EOF'
import json, re, sys
text = open(sys.argv[1], errors="replace").read().splitlines()
last = [l for l in text if re.search(r"\d+ (passed|failed)", l)]
if last:
    line = last[-1]
    count = lambda word: sum(int(n) for n in re.findall(rf"(\d+) {word}", line))
    print(json.dumps({"passed": count("passed"), "failed": count("failed") + count("error"),
                      "skipped": count("skipped"), "finished": True}))
else:  # cut short by the timeout: count the progress dots
    dots = "".join(l.split(" [")[0] for l in text if re.match(r"^[.FEsx]+\s+\[\s*\d+%\]", l))
    print(json.dumps({"passed": dots.count("."), "failed": dots.count("F") + dots.count("E"),
                      "skipped": dots.count("s"), "finished": False}))
EOF
)"
    stage "$case" "bench engine --quick, bench hub --quick (emulated)"
    local b
    b=$(in_root "timeout 600 .venv/bin/werewolf bench engine --quick" 2> "$logs-bench.log" | tail -n1 || true)
    fact "$case" bench_engine_quick "${b:-null}"
    b=$(in_root "timeout 600 .venv/bin/werewolf bench hub --quick" 2>> "$logs-bench.log" | tail -n1 || true)
    fact "$case" bench_hub_quick "${b:-null}"
    if [ -z "$b" ]; then  # why, in one line: the last line the bench wrote to stderr
        fact "$case" bench_hub_error "$(tail -n1 "$logs-bench.log" | python3 -c 'import json, sys
print(json.dumps(sys.stdin.read().strip()))')"
    fi
    stage "$case" done
}

# --- the booted case ------------------------------------------------------------------
check_boot() {
    local case=boot root logs=$RUN/boot t0 leader
    command -v systemd-nspawn >/dev/null || {
        fact boot error '"systemd-nspawn missing: apt-get install -y systemd-container"'; return 0; }
    CURRENT=boot; stage boot "overlay"
    overlay boot; root=$ROOTDIR
    binfmt_credentials on
    fact boot emulated '"qemu-user, systemd-nspawn --boot (install: this machine'"'"'s network; after the reboot: --private-network)"'
    stage boot "what Pi OS Lite has before install.sh: systemd, sudo, the user pi (sudo without a password), the gpio group"
    t0=$(now)
    chroot_mounts "$root"
    # the reboot runs a real kernel under qemu-system-aarch64 when this machine has it
    # (NetworkManager and Avahi need one: under qemu-user they cannot start or join
    # mDNS); Debian's arm64 kernel and its initramfs go in first
    local kernel=""
    if command -v qemu-system-aarch64 >/dev/null; then kernel=linux-image-arm64; fi
    chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
        DEBIAN_FRONTEND=noninteractive KERNEL="$kernel" /bin/sh -ec '
        apt-get update -q
        if [ -n "$KERNEL" ]; then
            # an initramfs for qemu'"'"'s virt machine only (virtio disk, ext4): the
            # default, MODULES=most, takes minutes to gather under qemu-user
            mkdir -p /etc/initramfs-tools/conf.d /etc/initramfs-tools/hooks
            echo MODULES=list > /etc/initramfs-tools/conf.d/pi-check
            printf "%s\n" "#!/bin/sh" "[ \"\$1\" = prereqs ] && exit 0" \
                ". /usr/share/initramfs-tools/hook-functions" \
                "for m in virtio_pci virtio_blk ext4; do force_load \$m; done" \
                > /etc/initramfs-tools/hooks/pi-check
            chmod 755 /etc/initramfs-tools/hooks/pi-check
        fi
        apt-get install -y -q --no-install-recommends systemd systemd-sysv dbus sudo iproute2 \
            libnss-mdns avahi-utils procps $KERNEL
        getent group gpio >/dev/null || groupadd -r gpio   # raspberrypi-sys-mods makes it on Pi OS
        id pi >/dev/null 2>&1 || useradd -m -s /bin/bash -G sudo,audio,video,plugdev,users pi
        echo "pi ALL=(ALL) NOPASSWD: ALL" > /etc/sudoers.d/010_pi-nopasswd
        echo raspberrypi > /etc/hostname
        printf "127.0.0.1\tlocalhost\n127.0.1.1\traspberrypi\n" > /etc/hosts
        : > /etc/machine-id
        # the check boots first on this machine'"'"'s own network (apt and pip need it):
        # NetworkManager must leave its interfaces and its resolv.conf alone
        mkdir -p /etc/NetworkManager/conf.d
        printf "[main]\ndns=none\n[keyfile]\nunmanaged-devices=*,except:interface-name:wlan0\n" \
            > /etc/NetworkManager/conf.d/90-pi-check.conf
        chown -R pi:pi /home/pi' > "$logs-prepare.log" 2>&1
    unmount_all_but_overlay "$root"
    fact boot prepare_s "$(since "$t0")"
    mkdir -p "$root/home/pi/.cache/pip" "$CACHE/pip-boot"
    mount --bind "$CACHE/pip-boot" "$root/home/pi/.cache/pip"; MOUNTS+=("$root/home/pi/.cache/pip")
    chown -R "$(stat -c %u "$root/home/pi"):$(stat -c %g "$root/home/pi")" "$CACHE/pip-boot" \
        "$root/home/pi/.cache"

    # boot 1 on this machine's network (apt, pip), NetworkManager kept off its interfaces
    # a Raspberry Pi 4 by its cpuinfo's Model line (what serve's find_board reads):
    # the unit then opens real pins as on a Pi, and the container has no gpiochip
    # (nspawn binds into /proc from inside the container: the file lives there)
    mkdir -p "$root/opt/pi-check"
    { cat /proc/cpuinfo; printf 'Model\t\t: Raspberry Pi 4 Model B Rev 1.4 (pi-check)\n'; } \
        > "$root/opt/pi-check/cpuinfo"
    boot_up 1
    stage boot "hardware/install.sh as pi (sudo for the system parts), WITHOUT --no-system"
    t0=$(now)
    touch "$logs-started"
    if in_boot pi "cd ~/werewolf && PIP_CERT=/etc/ssl/host-ca.crt SSL_CERT_FILE=/etc/ssl/host-ca.crt hardware/install.sh" \
            > "$logs-install.log" 2>&1; then fact boot installed true; else fact boot installed false; fi
    fact boot install_s "$(since "$t0")"
    fact boot compiled "$(find "$CACHE/pip-boot" -path '*/wheels/*' -name '*.whl' \
        -newer "$logs-started" -printf '%f\n' | python3 -c 'import json, sys
print(json.dumps(sorted({w.split("-")[0] for w in sys.stdin.read().split()})))')"
    # no pins in a container: the unit's own failure line, as pi (not root)
    for i in $(seq 1 60); do
        in_boot root "journalctl -u werewolf -b -o cat | grep -q '^werewolf serve:'" && break
        sleep 2
    done
    fact boot unit_without_pins "$(in_boot root "systemctl show werewolf -p User -p ActiveState \
        -p Result -p ExecMainStatus | paste -sd' '; journalctl -u werewolf -b -o cat \
        | grep '^werewolf serve:' | tail -n1" \
        2>&1 | python3 -c 'import json, sys; print(json.dumps(sys.stdin.read().strip().splitlines()))')"
    if [ ! -e "$root/etc/systemd/system/werewolf.service" ]; then
        log "boot: install.sh installed no unit (see $logs-install.log)"
        stage boot "install failed"; boot_down; binfmt_credentials off; return 0
    fi
    # the check's one change to the unit: --simulate (no gpiochip here), then a reboot
    mkdir -p "$root/etc/systemd/system/werewolf.service.d"
    local exec
    exec=$(grep '^ExecStart=' "$root/etc/systemd/system/werewolf.service")
    printf '[Service]\nExecStart=\n%s --simulate\n' "$exec" \
        > "$root/etc/systemd/system/werewolf.service.d/pi-check.conf"
    if [ -n "$kernel" ]; then
        boot_down; check_boot_vm "$root"; binfmt_credentials off; return 0
    fi
    stage boot "reboot (its own network from now on: only lo)"
    boot_down; boot_up 2 --private-network
    stage boot "after the reboot: the unit, its user and groups, Avahi, NetworkManager"
    local i state=""
    for i in $(seq 1 90); do
        state=$(in_boot root "systemctl is-active werewolf" 2>/dev/null || true)
        [ "$state" = active ] && break; sleep 2
    done
    fact boot unit_at_boot "\"$state\""
    fact boot unit_enabled "\"$(in_boot root "systemctl is-enabled werewolf" 2>&1)\""
    fact boot unit_process "$(in_boot root 'pid=$(systemctl show werewolf -p MainPID --value)
        ps -o user=,group=,supgrp= -p "$pid"' 2>&1 | python3 -c 'import json, sys
f = sys.stdin.read().split(); print(json.dumps({"user": f[0] if f else None, "group": f[1] if len(f) > 1 else None, "groups": f[2].split(",") if len(f) > 2 else []}))')"
    fact boot hostname "\"$(in_boot root hostname 2>&1)\""
    fact boot dnsmasq_base "$(in_boot root 'dpkg-query -W -f="\${Status}" dnsmasq-base' 2>/dev/null \
        | grep -q 'ok installed' && echo true || echo false)"
    # (under qemu-user NetworkManager 1.42 aborts in its netlink code, nm-linux-platform.c)
    fact boot networkmanager "$(in_boot root "systemctl is-active NetworkManager; journalctl -u NetworkManager -b -o cat \
        | grep -E 'ERROR|uncaught|Failed with' | sort -u" 2>&1 \
        | python3 -c 'import json, sys; print(json.dumps(sys.stdin.read().strip().splitlines()))')"
    fact boot hotspot_profile "$(in_boot root 'nmcli -t -f connection.id,802-11-wireless.mode,ipv4.method,ipv4.addresses con show werewolf-ap' 2>&1 \
        | python3 -c 'import json, sys; print(json.dumps(sys.stdin.read().strip()))')"
    fact boot wifi_device "$(in_boot root "nmcli -t -f DEVICE,TYPE device | grep -q ':wifi$'" \
        && echo true || echo '"none: no Wi-Fi device in a container; the profile activates on a Pi"')"
    stage boot "the hotspot's address appears after the hub started: does the hub follow?"
    # a veth stands in for wlan0 (a container has no Wi-Fi; this kernel has no dummy)
    in_boot root 'ip link add pi0 type veth peer name pi1; ip link set pi1 up
        ip link set pi0 multicast on up; ip addr add 192.168.4.1/24 dev pi0' || true
    t0=$(now)
    local follows=false
    for i in $(seq 1 30); do
        if in_boot root "journalctl -u werewolf -b -o cat | grep -q 'http://192.168.4.1:'" 2>/dev/null; then
            follows=true; break; fi
        sleep 1
    done
    fact boot address_follows "$follows"
    fact boot address_follows_s "$(since "$t0")"
    fact boot answers_on_address "$(in_boot root "python3 -c \"import urllib.request as u
print(u.urlopen('http://192.168.4.1:8000/', timeout=20).status == 200)\"" 2>/dev/null \
        | tr 'TF' 'tf' || echo false)"
    fact boot avahi "$(in_boot root 'timeout 20 avahi-resolve -4 -n "$(hostname).local"' 2>&1 \
        | python3 -c 'import json, sys; print(json.dumps(sys.stdin.read().strip()))')"
    # (under qemu-user avahi cannot join the mDNS group, IP_ADD_MEMBERSHIP: its log says
    # which name and address it holds, which only the network would answer)
    fact boot avahi_daemon "$(in_boot root "systemctl is-active avahi-daemon; journalctl -u avahi-daemon -b -o cat \
        | grep -E 'Host name is|record for 192|IP_ADD_MEMBERSHIP' | sort -u" 2>&1 \
        | python3 -c 'import json, sys; print(json.dumps(sys.stdin.read().strip().splitlines()))')"
    fact boot journal "$(in_boot root "journalctl -u werewolf -b -o cat | grep -v '[█▀▄]' | tail -n 8" 2>&1 \
        | python3 -c 'import json, sys; print(json.dumps(sys.stdin.read().strip().splitlines()))')"
    stage boot done
    boot_down
    binfmt_credentials off
}
# The reboot under qemu-system-aarch64: the disk is the booted userland as install.sh
# left it (made into an ext4 image), the kernel Debian's, a Cortex-A72 (a Pi 4's CPU),
# a virtio network card on qemu's own network (DHCP, NAT), the hub's port forwarded
# to this machine. tools/pi-vm-probe.sh runs at boot and says what it finds on the
# serial console; this reads it, and opens the hub from outside the machine.
VM_PID=""
vm_facts() {  # the probe's facts so far (PICHECK<TAB>key<TAB>json), into the boot case's
    grep -ao $'PICHECK\t.*' "$1" 2>/dev/null | tr -d '\r' | cut -f2- > "$RUN/boot-vm.facts" || true
    python3 - "$RUN/boot-vm.facts" "$RUN/boot.facts" <<'EOF'
import sys
seen = open(sys.argv[1], errors="replace").read().splitlines()
have = open(sys.argv[2]).read().splitlines()
with open(sys.argv[2], "a") as f:
    for line in seen:
        if line not in have and "\t" in line:
            f.write(line + "\n")
EOF
}
check_boot_vm() {
    local root=$1 img=$RUN/boot/pi.img console=$RUN/boot-vm-console.log t0 kernel initrd port m keep=()
    stage boot "the disk for qemu-system-aarch64 (mkfs.ext4 -d)"
    fact boot emulated '"install: qemu-user, systemd-nspawn --boot (this machine'"'"'s network); the reboot: qemu-system-aarch64, its own kernel and network card"'
    rm -f "$root/etc/NetworkManager/conf.d/90-pi-check.conf"  # Pi OS's defaults again
    install -m 755 "$ROOT/tools/pi-vm-probe.sh" "$root/opt/pi-check/probe.sh"
    printf '%s\n' '[Unit]' 'Description=pi-check: what the booted Pi has (tools/pi-vm-probe.sh)' \
        'After=werewolf.service NetworkManager.service avahi-daemon.service' \
        '[Service]' 'Type=oneshot' 'ExecStart=/opt/pi-check/probe.sh' \
        > "$root/etc/systemd/system/pi-check-probe.service"
    ln -sf ../pi-check-probe.service "$root/etc/systemd/system/multi-user.target.wants/"
    # and Pi OS 32-bit under this 64-bit kernel, for real (the probe chroots into it)
    if [ -e "$CACHE/bookworm-armhf/.debootstrapped" ]; then
        mkdir -p "$root/srv/armhf"
        cp -a "$CACHE/bookworm-armhf/." "$root/srv/armhf/"
        mkdir -p "$root/srv/armhf/home/pi/werewolf"
        tar -C "$root/home/pi/werewolf" --exclude=./.venv -cf - . \
            | tar -C "$root/srv/armhf/home/pi/werewolf" -xf -
        cp /etc/ssl/certs/ca-certificates.crt "$root/srv/armhf/etc/ssl/host-ca.crt"
    fi
    for m in "${MOUNTS[@]}"; do  # the caches stay on this machine, out of the disk
        if [ "$m" = "$root" ]; then keep+=("$m"); else umount -l "$m" 2>/dev/null || true; fi
    done
    MOUNTS=("${keep[@]}")
    kernel=$(find "$root/boot" -name 'vmlinuz-*' | sort -V | tail -n1)
    initrd=$(find "$root/boot" -name 'initrd.img-*' | sort -V | tail -n1)
    [ -n "$kernel" ] && [ -n "$initrd" ] || { fact boot vm_error '"no kernel or initrd in /boot"'; return 0; }
    cp "$kernel" "$RUN/boot/vmlinuz"; cp "$initrd" "$RUN/boot/initrd.img"
    t0=$(now)
    mkfs.ext4 -q -F -d "$root" -L pi-root "$img" 6G
    fact boot vm_disk_s "$(since "$t0")"
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    stage boot "reboot under qemu-system-aarch64 (a real kernel, a network card): the unit, NetworkManager, install.sh again, Avahi"
    t0=$(now)
    timeout 2400 qemu-system-aarch64 -M virt -cpu cortex-a72 -smp 2 -m 2048 -no-reboot \
        -display none -monitor none -serial "file:$console" \
        -kernel "$RUN/boot/vmlinuz" -initrd "$RUN/boot/initrd.img" \
        -append "root=/dev/vda rw console=ttyAMA0 net.ifnames=0" \
        -drive "if=none,file=$img,format=raw,id=disk" -device virtio-blk-pci,drive=disk \
        -netdev "user,id=net,hostfwd=tcp:127.0.0.1:$port-:8000" -device virtio-net-pci,netdev=net \
        > "$RUN/boot-vm-qemu.log" 2>&1 &
    VM_PID=$!
    local ready=false
    while kill -0 "$VM_PID" 2>/dev/null; do
        if grep -aq $'PICHECK\tready' "$console" 2>/dev/null; then ready=true; break; fi
        sleep 2
    done
    fact boot vm_boot_s "$(since "$t0")"
    if [ "$ready" = true ]; then
        # the hub, from outside the machine: through qemu's network card and NAT
        fact boot answers_from_outside "$(python3 - "$port" <<'EOF'
import json, sys, time, urllib.request
url, said = f"http://127.0.0.1:{sys.argv[1]}/", None
for _ in range(30):
    try:
        with urllib.request.urlopen(url, timeout=30) as reply:
            said = reply.status == 200
            break
    except OSError as e:
        said = f"{type(e).__name__}: {e}"
        time.sleep(2)
print(json.dumps(said))
EOF
)"
    fi
    while kill -0 "$VM_PID" 2>/dev/null; do vm_facts "$console"; sleep 5; done
    wait "$VM_PID" 2>/dev/null || true
    VM_PID=""
    vm_facts "$console"
    fact boot vm_s "$(since "$t0")"
    grep -aq $'PICHECK\tdone' "$console" || log "boot: the probe did not finish (see $console)"
    stage boot done
}
unmount_all_but_overlay() {  # nspawn mounts its own /proc, /sys, /dev
    local root=$1 keep=() m
    for m in "${MOUNTS[@]}"; do
        case "$m" in "$root/proc"|"$root/sys"|"$root/dev") umount -l "$m" ;; *) keep+=("$m") ;; esac
    done
    MOUNTS=("${keep[@]}")
}
boot_up() {
    local root=$RUN/boot/root i
    log "boot: systemd-nspawn --boot ($1)"
    # no systemd on this host to register with (a container): --register=no --keep-unit
    # shellcheck disable=SC2086  # $2: --private-network or nothing
    systemd-nspawn -D "$root" --boot ${2:-} --register=no --keep-unit \
        --bind-ro=/opt/pi-check/cpuinfo:/proc/cpuinfo \
        --machine=raspberrypi > "$RUN/boot-console-$1.log" 2>&1 &
    BOOT_PID=$!
    local t0 state; t0=$(now)
    for i in $(seq 1 300); do
        # the container's init: nspawn's child
        LEADER=$(ps -eo pid=,ppid= | awk -v p="$BOOT_PID" '$2 == p {print $1}' | head -n1)
        if [ -n "$LEADER" ]; then
            state=$(in_boot root "systemctl is-system-running --wait" 2>/dev/null || true)
            case "$state" in running|degraded|maintenance) break ;; esac
        fi
        kill -0 "$BOOT_PID" 2>/dev/null || { log "boot: nspawn ended (see $RUN/boot-console-$1.log)"; return 1; }
        sleep 1
    done
    fact boot "failed_units_$1" "$(in_boot root 'systemctl --failed --no-legend --plain | cut -d" " -f1' 2>/dev/null \
        | python3 -c 'import json, sys; print(json.dumps(sys.stdin.read().split()))')"
    fact boot "boot${1}_s" "$(since "$t0")"
    fact boot "system_state_$1" "\"$(in_boot root 'systemctl is-system-running' 2>&1 | head -n1)\""
}
boot_down() {
    in_boot root "systemctl poweroff" >/dev/null 2>&1 || true
    local i
    for i in $(seq 1 120); do kill -0 "$BOOT_PID" 2>/dev/null || break; sleep 1; done
    # nspawn passes SIGTERM to the container's systemd, which ignores it
    kill -KILL "$BOOT_PID" 2>/dev/null || true
    wait "$BOOT_PID" 2>/dev/null || true
    BOOT_PID=""
}
in_boot() {  # in_boot USER COMMAND: a login shell in the booted container
    local user=$1; shift
    nsenter -t "$LEADER" -m -u -i -n -p -C -- /usr/bin/env -i \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 TERM=dumb \
        /usr/sbin/runuser -l "$user" -c "$*"
}

binfmt
# the pristine userlands first (cached after the first run)
for c in "${CASES[@]}"; do userland "$(debian_arch "$c")"; done
for c in "${CASES[@]}"; do
    t_case=$(now)
    if [ "$c" = boot ]; then check_boot; else check_userland "$c"; fi
    fact "$c" case_s "$(since "$t_case")"
    unmount_all
    if [ "$KEEP" = 0 ]; then rm -rf "${RUN:?}/$c"; fi
    CURRENT=""
    REPORTED+=("$c")
    report "${REPORTED[@]}"
done
log "logs in $RUN"
