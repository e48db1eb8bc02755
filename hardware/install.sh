#!/bin/sh
# From a fresh Raspberry Pi OS bookworm (64-bit or 32-bit, Lite or Desktop) to
# a running table: run from the checkout, as the user the table runs as
# (sudo is asked for the system parts). Safe to run again: every step checks
# what is already there. See docs/table/index.md, "One command".
#
#   hardware/install.sh [--seats 12|18] [--country CC] [--ssid NAME] [--psk PASS]
#                       [--hostname NAME] [--no-hotspot] [--no-system]
#                       [--speaker | --no-speaker] [--print-unit]
#
# --no-system: only the packages and the venv (no systemd unit, access point,
# hostname, raspi-config or groups): for a chroot or a container, where
# tools/pi-check.sh runs it.
# --speaker / --no-speaker: narrated games also speak on the Pi's own audio
# output (serve --speaker), or not. Without either, install.sh decides: yes
# when `aplay -l` lists an output that is not HDMI (the headphone jack of a
# Pi 3/4/400, a USB speaker, an I2S board), no when there is only HDMI (the TV
# showing the table screen speaks). Run it again with the other to change it.
# --print-unit: print the systemd unit it would install, and stop.
#
# Why apt first: the compiled parts (pillow with FreeType, lgpio, RPi.GPIO)
# come from the OS, built for the board, and the venv sees them
# (--system-site-packages): nothing compiles on a Pi Zero. pip then adds only
# pure-Python packages (pyproject's floors are what bookworm ships).
set -eu

cd "$(dirname "$0")/.."
ROOT=$(pwd)
SEATS=12
COUNTRY=""
SSID="Werewolf"
PSK=""
NAME="werewolf"
HOTSPOT=1
SYSTEM=1
SPEAKER=auto
PRINT_UNIT=0
while [ $# -gt 0 ]; do
    case "$1" in
        --seats) SEATS=$2; shift ;;
        --country) COUNTRY=$2; shift ;;
        --ssid) SSID=$2; shift ;;
        --psk) PSK=$2; shift ;;
        --hostname) NAME=$2; shift ;;
        --no-hotspot) HOTSPOT=0 ;;
        --no-system) SYSTEM=0; HOTSPOT=0 ;;
        --speaker) SPEAKER=1 ;;
        --no-speaker) SPEAKER=0 ;;
        --print-unit) PRINT_UNIT=1 ;;
        -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
        *) echo "install.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done
case "$SEATS" in
    12) PINMAP="$ROOT/hardware/pinmap.toml" ;;
    18) PINMAP="$ROOT/hardware/pinmap-18.toml" ;;
    *) echo "install.sh: --seats is 12 or 18" >&2; exit 2 ;;
esac

say() { printf '== %s\n' "$*"; }
if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
if [ "$SYSTEM" = 1 ] && [ -n "${SUDO_USER:-}" ]; then
    echo "install.sh: run it as ${SUDO_USER}, without sudo (it asks for sudo itself): the venv is ${SUDO_USER}'s" >&2
    exit 2
fi
RUN_AS=${SUDO_USER:-$(id -un)}

# --- the Pi's own speaker [issue 31] ------------------------------------------------
speaker_output() {  # an ALSA output that is not HDMI: a jack, a USB speaker, an I2S board
    command -v aplay >/dev/null 2>&1 || return 1
    aplay -l 2>/dev/null | grep '^card ' | grep -qvi 'hdmi'
}
unit_text() {  # the unit for this checkout, this user, this pin map and this speaker
    speaker=""
    if [ "$SPEAKER" = 1 ] || { [ "$SPEAKER" = auto ] && speaker_output; }; then
        speaker=" --speaker"
    fi
    sed -e "s|^User=.*|User=$RUN_AS|" -e "s|^Group=.*|Group=$(id -gn "$RUN_AS")|" \
        -e "s|/home/pi/werewolf/hardware/pinmap.toml|$PINMAP|" \
        -e "s|/home/pi/werewolf|$ROOT|g" \
        -e "s|^\(ExecStart=.*\)\$|\1$speaker|" "$ROOT/hardware/werewolf.service"
}
if [ "$PRINT_UNIT" = 1 ]; then
    unit_text
    exit 0
fi

# --- the board ----------------------------------------------------------------
MACHINE=$(uname -m)
case "$MACHINE" in
    aarch64|armv7l|armv6l) ;;
    *) say "machine $MACHINE is not a Raspberry Pi: installing anyway (the table simulates its pins)" ;;
esac
if [ -r /etc/os-release ]; then
    # read in a subshell: os-release sets NAME (and more), which would replace
    # --hostname's NAME: the Pi was renamed "Debian GNU/Linux" [issue 31]
    CODENAME=$(. /etc/os-release; echo "${VERSION_CODENAME:-}")
    case "$CODENAME" in
        bookworm|trixie) ;;
        *) say "this is $(. /etc/os-release; echo "${PRETTY_NAME:-an unknown OS}"); the command is made for bookworm" ;;
    esac
fi

# --- apt: the OS's own builds of everything compiled ---------------------------
has_candidate() {  # the package exists in this OS's archive
    apt-cache policy "$1" 2>/dev/null | grep -q 'Candidate: [0-9]'
}
installed() {
    dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'ok installed'
}
say "apt packages"
$SUDO apt-get update -q
# python3-yaml: mkdocs's PyYAML (the manual at /help), which has no armv7l wheel:
# pip would build it from its sdist on a 32-bit Pi [issue 31]
PKGS="python3 python3-venv python3-pip python3-pil python3-smbus2 python3-gpiozero
      python3-yaml fonts-unifont avahi-daemon i2c-tools git"
# gpiozero's pin libraries, first found wins: lgpio (every Pi, the Pi 5 too),
# then RPi.GPIO (rpi-lgpio, its lgpio shim, or the original). rpi-lgpio and
# rpi.gpio conflict: an installed one is kept.
PINLIBS=""
if has_candidate python3-lgpio; then PINLIBS="python3-lgpio"; fi
if installed python3-rpi-lgpio || installed python3-rpi.gpio; then :
elif has_candidate python3-rpi-lgpio; then PINLIBS="$PINLIBS python3-rpi-lgpio"
elif has_candidate python3-rpi.gpio; then PINLIBS="$PINLIBS python3-rpi.gpio"
fi
# the hotspot's shared addressing (ipv4.method shared) runs dnsmasq: dnsmasq-base is
# only a Recommends of network-manager, which --no-install-recommends leaves out
if [ "$SYSTEM" = 1 ] && [ "$HOTSPOT" = 1 ]; then PKGS="$PKGS network-manager dnsmasq-base"; fi
# the narrated mode's voices [issue 20]: espeak-ng (English; Mandarin from pinyin),
# Open JTalk with its dictionary (Japanese), aplay for --speaker; the Japanese
# voice is in contrib (on by default in Raspberry Pi OS): without it the hub
# narrates Japanese games as text only, and `werewolf doctor` says so
PKGS="$PKGS espeak-ng open-jtalk open-jtalk-mecab-naist-jdic alsa-utils"
if has_candidate hts-voice-nitech-jp-atr503-m001; then PKGS="$PKGS hts-voice-nitech-jp-atr503-m001"; fi
# shellcheck disable=SC2086  # word splitting wanted
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends $PKGS $PINLIBS
if [ -z "$PINLIBS" ]; then
    say "no pin library in this OS's archive (python3-lgpio, python3-rpi-lgpio, python3-rpi.gpio)"
fi

# --- the Python that runs, not the kernel ------------------------------------------
# A 32-bit Raspberry Pi OS on a Pi 4/400/5 runs a 64-bit kernel: `uname -m` (and
# pip's platform_machine) say aarch64 while Python is 32-bit armhf. What pip may
# ask for follows dpkg's architecture and Python's pointer size [issue 31].
DEB_ARCH=$(dpkg --print-architecture)
PY_BITS=$(python3 -c 'import struct; print(struct.calcsize("P") * 8)')
say "Python: $DEB_ARCH, $PY_BITS-bit (kernel: $MACHINE)"
PIP_MORE=""
if [ "$PY_BITS" = 32 ]; then
    # cbor2 6 (luma.core's) is built with Rust and has no 32-bit ARM wheel
    PIP_MORE="cbor2<6"
fi

# --- the venv -------------------------------------------------------------------
say "venv .venv (sees the system's pillow, lgpio, RPi.GPIO)"
# run again on an existing venv, this rewrites pyvenv.cfg: a venv made without
# --system-site-packages gains them
python3 -m venv --system-site-packages "$ROOT/.venv"
# --prefer-binary: never build a newer release from source when a wheel (or
# the system's copy) satisfies the floor
# shellcheck disable=SC2086  # PIP_MORE: zero or one requirement
"$ROOT/.venv/bin/pip" install -q --prefer-binary --disable-pip-version-check -e "$ROOT" $PIP_MORE
# httptools, the server's faster C parser: only as a wheel (64-bit Pi OS has one;
# a 32-bit Python has none, and nothing is compiled on a Pi): else uvicorn parses
# with h11, pure Python
if "$ROOT/.venv/bin/pip" install -q --only-binary=:all: --disable-pip-version-check \
        "httptools>=0.6" >/dev/null 2>&1; then
    say "httptools (the server's C parser) from a wheel"
else
    say "no httptools wheel for a $PY_BITS-bit $DEB_ARCH Python: the server parses with h11 (pure Python)"
fi
"$ROOT/.venv/bin/python" - <<'EOF'
from PIL import features
if not features.check("freetype2"):
    raise SystemExit("install.sh: pillow has no FreeType: the display cannot draw its text")
EOF

if [ "$SYSTEM" = 0 ]; then
    say "done (--no-system: no unit, access point, hostname or groups)"
    exit 0
fi

# --- the pins: I2C on, the serial console off (GPIO 14/15 are seat buttons) ---
say "I2C on, serial console off; $RUN_AS in the gpio and i2c groups"
if command -v raspi-config >/dev/null; then
    $SUDO raspi-config nonint do_i2c 0
    $SUDO raspi-config nonint do_serial_cons 1
    $SUDO raspi-config nonint do_serial_hw 1 2>/dev/null || true  # not on every release
fi
for group in gpio i2c; do
    if getent group "$group" >/dev/null && ! id -nG "$RUN_AS" | grep -qw "$group"; then
        $SUDO usermod -aG "$group" "$RUN_AS"
    fi
done

# --- the systemd unit ---------------------------------------------------------------
say "systemd unit werewolf.service ($SEATS seats: $PINMAP)"
UNIT=$(mktemp)
unit_text > "$UNIT"
if grep -q -- '--speaker' "$UNIT"; then
    say "the Pi's own speaker: on (serve --speaker; install.sh --no-speaker turns it off)"
else
    say "the Pi's own speaker: off (no audio output but HDMI; install.sh --speaker turns it on)"
fi
if ! cmp -s "$UNIT" /etc/systemd/system/werewolf.service; then
    $SUDO install -m 644 "$UNIT" /etc/systemd/system/werewolf.service
    $SUDO systemctl daemon-reload
fi
rm -f "$UNIT"
$SUDO systemctl enable -q werewolf.service
$SUDO systemctl restart werewolf.service  # the new code and map, every run

# --- a name phones can open: werewolf.local -------------------------------------------
if [ "$(hostname)" != "$NAME" ]; then
    say "hostname $NAME (werewolf.local through Avahi)"
    if command -v raspi-config >/dev/null; then
        $SUDO raspi-config nonint do_hostname "$NAME"
    else
        # /etc/hosts first: sudo resolves the machine's name, the new one too
        $SUDO sed -i "s/^127\.0\.1\.1.*/127.0.1.1\t$NAME/" /etc/hosts
        # hostnamectl asks systemd-hostnamed, which may not start (a container):
        # then the file and the running name by hand
        if ! $SUDO hostnamectl set-hostname "$NAME" 2>/dev/null; then
            echo "$NAME" | $SUDO tee /etc/hostname >/dev/null
            $SUDO hostname "$NAME"
        fi
    fi
fi
$SUDO systemctl enable -q --now avahi-daemon.service
$SUDO systemctl restart avahi-daemon.service

# --- the Wi-Fi access point (NetworkManager's hotspot) ----------------------------------
if [ "$HOTSPOT" = 1 ]; then
    if [ -n "$COUNTRY" ] && command -v raspi-config >/dev/null; then
        $SUDO raspi-config nonint do_wifi_country "$COUNTRY"
    fi
    # the profile is kept even with no Wi-Fi device yet (blocked until the country
    # is set, a USB dongle not plugged in): NetworkManager brings it up on wlan0
    # when wlan0 appears; the hub follows its address when it does [issue 31]
    WIFI=1
    if ! nmcli -t -f DEVICE,TYPE device 2>/dev/null | grep -q '^wlan0:wifi'; then
        WIFI=0
        say "no Wi-Fi device wlan0 now: the access point comes up when there is one (or join the table's network instead)"
    fi
    if ! nmcli -t general status >/dev/null 2>&1; then
        # (under qemu-user NetworkManager aborts at start: tools/pi-check.sh's booted case)
        say "NetworkManager is not running (systemctl status NetworkManager): no access point; run install.sh again once it runs"
    elif nmcli -t -f NAME con show | grep -qx werewolf-ap; then
        say "access point werewolf-ap already set up (nmcli con show werewolf-ap)"
    else
        if [ -z "$PSK" ]; then
            PSK=$(python3 -c 'import secrets; print(secrets.token_urlsafe(9))')
        fi
        say "access point: SSID $SSID, passphrase $PSK, the Pi at 192.168.4.1"
        $SUDO nmcli con add type wifi ifname wlan0 con-name werewolf-ap autoconnect yes \
            ssid "$SSID" 802-11-wireless.mode ap 802-11-wireless.band bg \
            ipv4.method shared ipv4.addresses 192.168.4.1/24 \
            wifi-sec.key-mgmt wpa-psk wifi-sec.psk "$PSK"
        if [ "$WIFI" = 1 ]; then
            $SUDO nmcli con up werewolf-ap || say "werewolf-ap did not come up: is the Wi-Fi country set? (--country CC)"
        fi
    fi
fi

say "done: the table runs (journalctl -u werewolf -f shows the GM's address)"
if ! id -nG | grep -qw gpio && getent group gpio >/dev/null; then
    say "log out and in again (or reboot) before running werewolf doctor yourself: the gpio group is new"
fi
say "check the boxes: $ROOT/.venv/bin/werewolf doctor --pinmap $PINMAP"
