#!/usr/bin/env bash
# What the tests need from Debian, installed only if missing (as root):
# Chromium for the browser tests (Playwright drives it; it downloads no
# browser), a CJK font, and the narration's speech engines [issue 20]:
# espeak-ng, Open JTalk with its dictionary and its voice. The voice is in
# Debian's contrib section, which this enables if no voice is found.
set -euo pipefail
need=()
command -v chromium >/dev/null || need+=(chromium)
[ -e /usr/share/fonts/opentype/unifont ] || [ -e /usr/share/fonts/truetype/unifont ] || need+=(fonts-unifont)
command -v espeak-ng >/dev/null || need+=(espeak-ng)
command -v open_jtalk >/dev/null || need+=(open-jtalk open-jtalk-mecab-naist-jdic)
voice=yes
ls /usr/share/hts-voice/*/*.htsvoice >/dev/null 2>&1 || { voice=no; need+=(hts-voice-nitech-jp-atr503-m001); }
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$voice" = no ] && ! apt-cache policy hts-voice-nitech-jp-atr503-m001 2>/dev/null | grep -q 'Candidate: [0-9]'; then
    . /etc/os-release
    printf 'Types: deb\nURIs: http://deb.debian.org/debian\nSuites: %s\nComponents: contrib\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
        "$VERSION_CODENAME" > /etc/apt/sources.list.d/werewolf-contrib.sources
fi
apt-get update -q
DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need[@]}"
