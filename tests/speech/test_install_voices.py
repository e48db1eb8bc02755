"""The voices' one command [issue 29 item 5]: hardware/install-voices.sh
installs espeak-ng and Open JTalk with its Japanese voice on a fresh Debian
bookworm and on Raspberry Pi OS bookworm; the voice is in contrib, which it
adds (one deb822 file) only where no source of the release has it. Tested on
copies of each system's sources (--root: no apt is run), the file checked by
apt's own parser; on this machine, its "already installed" path."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from unittest import mock

import pytest
from slowness import wait_s

from companion.speech import engines
from companion.speech.engines import VOICES_SCRIPT, find
from companion.speech.narrate import status_lines

SCRIPT = str(VOICES_SCRIPT)
CONTRIB = "etc/apt/sources.list.d/werewolf-contrib.sources"
#: a fresh Debian bookworm from its installer (the cdrom line left commented out)
DEBIAN_INSTALLER = """\
#deb cdrom:[Debian GNU/Linux 12.5.0 _Bookworm_ - NETINST]/ bookworm contrib main non-free-firmware

deb http://deb.debian.org/debian/ bookworm main non-free-firmware
deb-src http://deb.debian.org/debian/ bookworm main non-free-firmware

deb http://security.debian.org/debian-security bookworm-security main non-free-firmware
deb http://deb.debian.org/debian/ bookworm-updates main non-free-firmware
"""
#: Debian's container images (and trixie's installer): deb822, main only
DEBIAN_SOURCES = """\
Types: deb
# http://snapshot.debian.org/archive/debian/20250520T000000Z
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
"""
#: Raspberry Pi OS bookworm's own lists (pi-gen's stage0 files)
RASPI_LIST = "deb http://archive.raspberrypi.com/debian/ bookworm main\n"
RPIOS_ARM64 = """\
deb http://deb.debian.org/debian bookworm main contrib non-free non-free-firmware
deb http://deb.debian.org/debian-security/ bookworm-security main contrib non-free non-free-firmware
deb http://deb.debian.org/debian bookworm-updates main contrib non-free non-free-firmware
"""
RPIOS_ARMHF = ("deb [ arch=armhf ] http://raspbian.raspberrypi.com/raspbian/ bookworm main "
               "contrib non-free rpi\n")


def _root(tmp_path: Path, files: dict[str, str], codename: str = "bookworm") -> Path:
    root = tmp_path / "root"
    (root / "etc/apt/sources.list.d").mkdir(parents=True)
    (root / "etc/os-release").write_text(f'PRETTY_NAME="test"\nVERSION_CODENAME={codename}\n')
    for name, text in files.items():
        (root / name).write_text(text)
    return root


def _run(*args: str) -> str:
    done = subprocess.run(["sh", SCRIPT, *args], capture_output=True, text=True, timeout=wait_s(60))
    assert done.returncode == 0, done.stderr
    return done.stdout


def _apt_targets(root: Path) -> set[tuple[str, str, str]]:
    """(site, release, component) of every deb source, as apt itself parses them."""
    if shutil.which("apt-get") is None:
        pytest.skip("no apt-get here to parse the sources")
    (root / "lists/partial").mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        ["apt-get", "-o", f"Dir::Etc::sourcelist={root}/etc/apt/sources.list",
         "-o", f"Dir::Etc::sourceparts={root}/etc/apt/sources.list.d",
         "-o", f"Dir::State::Lists={root}/lists", "indextargets", "--no-release-info",
         "--format", "$(SITE) $(RELEASE) $(COMPONENT) $(TARGET_OF)"],
        capture_output=True, text=True, timeout=wait_s(60), check=True)
    return {tuple(line.split()[:3]) for line in done.stdout.splitlines()  # type: ignore[misc]
            if line.endswith(" deb")}


@pytest.mark.parametrize("system", ["debian-installer", "debian.sources"])
def test_a_fresh_debian_gets_contrib_once(tmp_path: Path, system: str) -> None:
    """[issue 29] install: a fresh Debian bookworm has main only: the script
    adds contrib for the release, from the archive that gives main (its URI,
    its Signed-By), in one deb822 file apt reads; run again, it adds nothing."""
    files = ({"etc/apt/sources.list": DEBIAN_INSTALLER} if system == "debian-installer"
             else {"etc/apt/sources.list.d/debian.sources": DEBIAN_SOURCES})
    root = _root(tmp_path, files)
    site = ("http://deb.debian.org/debian/" if system == "debian-installer"
            else "http://deb.debian.org/debian")
    assert (site.rstrip("/"), "bookworm", "contrib") not in _apt_targets(root)
    assert "writing" in _run("--root", str(root))
    written = (root / CONTRIB).read_text()
    assert f"URIs: {site}\nSuites: bookworm\nComponents: contrib\n" in written
    assert ("Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg" in written) == (
        system == "debian.sources")
    assert ("http://deb.debian.org/debian", "bookworm", "contrib") in _apt_targets(root)
    assert "nothing to add" in _run("--root", str(root))  # idempotent
    assert (root / CONTRIB).read_text() == written


@pytest.mark.parametrize("system", ["arm64", "armhf"])
def test_raspberry_pi_os_already_has_contrib(tmp_path: Path, system: str) -> None:
    """[issue 29] install: Raspberry Pi OS bookworm enables contrib (64-bit:
    Debian's archive, "main contrib non-free non-free-firmware"; 32-bit:
    Raspbian's, "main contrib non-free rpi"): nothing is added."""
    root = _root(tmp_path, {"etc/apt/sources.list": RPIOS_ARM64 if system == "arm64"
                            else RPIOS_ARMHF,
                            "etc/apt/sources.list.d/raspi.list": RASPI_LIST})
    assert "contrib is on for bookworm" in _run("--root", str(root))
    assert not (root / CONTRIB).exists()


def test_a_raspbian_without_contrib_gets_raspbians_contrib(tmp_path: Path) -> None:
    """[issue 29] install: the contrib added is the release's own archive,
    with its architectures (never Raspberry Pi's archive, which has no
    contrib); a disabled or commented-out source with contrib counts not."""
    root = _root(tmp_path, {
        "etc/apt/sources.list": "# deb http://x/raspbian/ bookworm main contrib\n"
                                "deb [ arch=armhf ] http://raspbian.raspberrypi.com/raspbian/ "
                                "bookworm main\n",
        "etc/apt/sources.list.d/raspi.list": RASPI_LIST,
        "etc/apt/sources.list.d/off.sources": "Types: deb\nURIs: http://y/debian\n"
                                              "Suites: bookworm\nComponents: contrib\n"
                                              "Enabled: no\n"})
    _run("--root", str(root))
    written = (root / CONTRIB).read_text()
    assert "URIs: http://raspbian.raspberrypi.com/raspbian/\n" in written
    assert "Architectures: armhf\n" in written and "Signed-By" not in written


def test_this_machine_has_its_voices_already() -> None:
    """[issue 29] install: on a machine with every voice (this one, after
    tools/test-deps.sh) the script says so and changes nothing, as a dry
    run and as a run."""
    installed = subprocess.run(
        ["dpkg-query", "-W", "-f=${Status}\n", "espeak-ng", "open-jtalk",
         "open-jtalk-mecab-naist-jdic", "hts-voice-nitech-jp-atr503-m001"],
        capture_output=True, text=True, check=False) if shutil.which("dpkg-query") else None
    if installed is None or installed.stdout.count("ok installed") != 4:
        pytest.skip("this machine lacks a voice: the script would install it")
    for args in (["--dry-run"], []):
        out = _run(*args)
        assert out.startswith("install-voices: already installed: espeak-ng open-jtalk"), out
        assert "apt-get" not in out


def test_doctor_names_the_voices_command() -> None:
    """[issue 29] install, [issue 42] item 4: with the voices missing,
    `werewolf doctor` says what each language lacks and names the script
    once — the command that works on a fresh Debian and on Raspberry Pi OS
    — never a long apt line three times."""
    assert VOICES_SCRIPT.exists()
    with mock.patch.object(engines.shutil, "which", lambda binary: None):
        for lang in ("ja", "en"):
            engine, why = find(lang)
            assert engine is None and "install-voices" not in why
        lines = status_lines()
    text = "\n".join(lines)
    assert text.count("install-voices.sh") == 1, text
    assert f"sudo {VOICES_SCRIPT} && werewolf narrate --data DIR" in lines[-1]
    assert "apt install" not in text
    assert all("text only" in line for line in lines if line.startswith("FAIL"))
    with mock.patch.object(engines, "VOICES_SCRIPT", Path("/nonexistent/install-voices.sh")):
        assert engines.install_command().startswith("sudo hardware/install-voices.sh")
