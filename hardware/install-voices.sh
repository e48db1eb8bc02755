#!/bin/sh
# The narration's voices [issue 20, issue 29 item 5], from apt, on Debian
# bookworm or Raspberry Pi OS bookworm (64-bit or 32-bit): espeak-ng (English;
# Mandarin from pinyin), Open JTalk with its dictionary and the Japanese voice
# hts-voice-nitech-jp-atr503-m001 (`werewolf serve --speaker` also wants
# alsa-utils: hardware/install.sh installs it).
#
#   sudo hardware/install-voices.sh [--dry-run]
#   hardware/install-voices.sh --root DIR     # only the sources under DIR (tests)
#
# The voice is in Debian's *contrib* section. Raspberry Pi OS enables contrib
# (arm64: deb.debian.org "main contrib non-free non-free-firmware"; armhf:
# raspbian.raspberrypi.com "main contrib non-free rpi"); a fresh Debian has
# "main" only. Only when the voice has no install candidate and no source of
# this release has contrib, this adds one: /etc/apt/sources.list.d/
# werewolf-contrib.sources (deb822), the release's own archive (its URI, its
# architectures and its Signed-By, from the source that gives "main") with
# Components: contrib. Safe to run again: what is installed is not installed
# again, the file is written once. --dry-run says what it would do; --root DIR
# reads and writes DIR/etc/apt and DIR/etc/os-release and runs no apt (contrib
# then counts as the voice's candidate).
set -eu

ROOT=""
DRY=0
while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) DRY=1 ;;
        --root) ROOT=$2; shift ;;
        -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
        *) echo "install-voices.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done
VOICE=hts-voice-nitech-jp-atr503-m001
PKGS="espeak-ng open-jtalk open-jtalk-mecab-naist-jdic $VOICE"
APT="$ROOT/etc/apt"
FILE="$APT/sources.list.d/werewolf-contrib.sources"
say() { printf 'install-voices: %s\n' "$*"; }
if [ "$(id -u)" = 0 ] || [ -n "$ROOT" ] || [ "$DRY" = 1 ]; then SUDO=""; else SUDO="sudo"; fi

CODENAME=""
if [ -r "$ROOT/etc/os-release" ]; then
    CODENAME=$(. "$ROOT/etc/os-release"; printf '%s' "${VERSION_CODENAME:-}")
fi
[ -n "$CODENAME" ] || { echo "install-voices.sh: no VERSION_CODENAME in $ROOT/etc/os-release" >&2; exit 2; }

installed() {
    dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'ok installed'
}
has_candidate() {
    apt-cache policy "$1" 2>/dev/null | grep -q 'Candidate: [0-9]'
}

# The release's sources, one line each, enabled deb sources only (deb822
# stanzas and one-line lists alike): "uri<TAB>suites<TAB>components<TAB>arch<TAB>signed-by"
sources() {
    for f in "$APT"/sources.list.d/*.sources; do
        [ -r "$f" ] || continue
        awk -v OFS='\t' '
            function flush() {
                if (types ~ /(^| )deb( |$)/ && enabled != "no" && uris != "")
                    print uris, suites, comps, arch, signed
                types = ""; uris = ""; suites = ""; comps = ""; arch = ""; signed = ""; enabled = ""
            }
            /^[ \t]*#/ { next }
            /^[ \t]*$/ { flush(); next }
            /^[ \t]/ { next }  # a continuation line (an embedded key)
            {
                key = tolower($1); sub(/:$/, "", key)
                value = $0; sub(/^[^:]*:[ \t]*/, "", value)
                if (key == "types") types = value
                else if (key == "uris") { split(value, u, /[ \t]+/); uris = u[1] }
                else if (key == "suites") suites = value
                else if (key == "components") comps = value
                else if (key == "architectures") arch = value
                else if (key == "signed-by") signed = value
                else if (key == "enabled") enabled = tolower(value)
            }
            END { flush() }' "$f"
    done
    for f in "$APT/sources.list" "$APT"/sources.list.d/*.list; do
        [ -r "$f" ] || continue
        awk -v OFS='\t' '
            $1 != "deb" { next }
            {
                arch = ""; signed = ""; i = 2
                if ($2 ~ /^\[/) {  # options: [ arch=armhf signed-by=/path ]
                    opts = ""
                    for (; i <= NF; i++) { opts = opts " " $i; if ($i ~ /\]$/) { i++; break } }
                    gsub(/[\[\]]/, "", opts)
                    n = split(opts, o, /[ \t]+/)
                    for (k = 1; k <= n; k++) {
                        if (o[k] ~ /^arch=/) { arch = substr(o[k], 6); gsub(/,/, " ", arch) }
                        if (o[k] ~ /^signed-by=/) signed = substr(o[k], 11)
                    }
                }
                uri = $i; suite = $(i + 1); comps = ""
                for (k = i + 2; k <= NF; k++) comps = comps (comps == "" ? "" : " ") $k
                print uri, suite, comps, arch, signed
            }' "$f"
    done
}

# contrib, for this release, in some source already
contrib_on() {
    sources | awk -F '\t' -v c="$CODENAME" '
        (" " $2 " ") ~ (" " c " ") && (" " $3 " ") ~ / contrib / { found = 1 }
        END { exit !found }'
}

# the source that gives this release's main (not Raspberry Pi's own archive,
# which has no contrib): "uri<TAB>arch<TAB>signed-by"
main_source() {
    sources | awk -F '\t' -v OFS='\t' -v c="$CODENAME" '
        (" " $2 " ") ~ (" " c " ") && (" " $3 " ") ~ / main / && $1 !~ /archive\.raspberrypi\.(com|org)/ {
            print $1, $4, $5; exit
        }'
}

contrib_file() {
    found=$(main_source)
    uri=$(printf '%s' "$found" | cut -f1)
    arch=$(printf '%s' "$found" | cut -f2)
    signed=$(printf '%s' "$found" | cut -f3)
    if [ -z "$uri" ]; then  # no main source found: Debian's archive
        uri=http://deb.debian.org/debian
        if [ -e "$ROOT/usr/share/keyrings/debian-archive-keyring.gpg" ]; then
            signed=/usr/share/keyrings/debian-archive-keyring.gpg
        fi
    fi
    printf '# Debian contrib, for the Japanese voice %s (hardware/install-voices.sh)\n' "$VOICE"
    printf 'Types: deb\nURIs: %s\nSuites: %s\nComponents: contrib\n' "$uri" "$CODENAME"
    if [ -n "$arch" ]; then printf 'Architectures: %s\n' "$arch"; fi
    if [ -n "$signed" ]; then printf 'Signed-By: %s\n' "$signed"; fi
}

add_contrib() {
    if [ -e "$FILE" ]; then
        say "$FILE is there already"
        return 0
    fi
    if [ "$DRY" = 1 ]; then
        say "would write $FILE:"
        contrib_file | sed 's/^/    /'
        return 0
    fi
    say "contrib is off: writing $FILE"
    contrib_file | $SUDO tee "$FILE" >/dev/null
}

if [ -n "$ROOT" ]; then  # the sources only, no apt
    if contrib_on; then
        say "contrib is on for $CODENAME: nothing to add"
    else
        add_contrib
    fi
    exit 0
fi

missing=""
for p in $PKGS; do
    installed "$p" || missing="$missing $p"
done
if [ -z "$missing" ]; then
    say "already installed:$(printf ' %s' $PKGS)"
    exit 0
fi
say "to install:$missing"
if [ "$DRY" = 1 ]; then
    if has_candidate "$VOICE" || contrib_on; then
        say "would run: apt-get update && apt-get install$missing"
    else
        add_contrib
        say "would run: apt-get update && apt-get install$missing"
    fi
    exit 0
fi
$SUDO apt-get update -q
if ! has_candidate "$VOICE"; then
    if contrib_on; then
        echo "install-voices.sh: contrib is on for $CODENAME, yet $VOICE has no candidate (apt-cache policy $VOICE)" >&2
        exit 1
    fi
    add_contrib
    $SUDO apt-get update -q
fi
# shellcheck disable=SC2086  # word splitting wanted
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends $missing
say "installed:$missing"
