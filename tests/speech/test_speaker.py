"""The Pi's own speaker [issue 31 item 4]: install.sh turns `serve --speaker` on
where `aplay -l` lists an output that is not HDMI (a Pi with no TV is not
silent), and a failing `aplay` is one line in the hub's log and in
`werewolf doctor`, never a silent failure. `aplay` here is a fake on PATH."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from slowness import wait_s

from companion.cli import main
from companion.speech import speaker
from companion.speech.speaker import find as aplay

ROOT = Path(__file__).resolve().parents[2]
NO_DEVICE = "aplay: main:831: audio open error: No such file or directory"
PI4_CARDS = """**** List of PLAYBACK Hardware Devices ****
card 0: Headphones [bcm2835 Headphones], device 0: bcm2835 Headphones [bcm2835 Headphones]
  Subdevices: 8/8
card 1: vc4hdmi0 [vc4-hdmi-0], device 0: MAI PCM i2s-hifi-0 [MAI PCM i2s-hifi-0]
"""
PI5_CARDS = """**** List of PLAYBACK Hardware Devices ****
card 0: vc4hdmi0 [vc4-hdmi-0], device 0: MAI PCM i2s-hifi-0 [MAI PCM i2s-hifi-0]
card 1: vc4hdmi1 [vc4-hdmi-1], device 0: MAI PCM i2s-hifi-0 [MAI PCM i2s-hifi-0]
"""


def fake_aplay(folder: Path, *, cards: str = "", fails: bool = False) -> Path:
    """An `aplay` that lists `cards` for -l and plays (reads stdin), or fails
    as ALSA does with no device: one message on stderr, exit 1."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "cards.txt").write_text(cards, encoding="utf-8")
    play = f'echo "{NO_DEVICE}" >&2; exit 1' if fails else "cat > /dev/null; exit 0"
    script = folder / "aplay"
    script.write_text(f'#!/bin/sh\nif [ "$1" = "-l" ]; then cat "{folder}/cards.txt"; exit 0; fi\n'
                      f"{play}\n", encoding="utf-8")
    script.chmod(0o755)
    return folder


@pytest.fixture
def path_with(monkeypatch):
    def put(folder: Path) -> None:
        monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")
    return put


def unit(folder: Path, *flags: str) -> str:
    env = {**os.environ, "PATH": f"{folder}{os.pathsep}{os.environ['PATH']}"}
    env.pop("SUDO_USER", None)
    done = subprocess.run(["sh", str(ROOT / "hardware/install.sh"), "--print-unit", *flags],
                          capture_output=True, text=True, env=env, timeout=wait_s(30), check=True)
    return next(line for line in done.stdout.splitlines() if line.startswith("ExecStart="))


def test_install_turns_the_speaker_on_where_an_output_is_not_hdmi(tmp_path) -> None:
    """A Pi 4's headphone jack (or a USB speaker) is an output: --speaker. A
    Pi 5 with HDMI only speaks through the TV's table screen: no --speaker.
    --speaker / --no-speaker decide instead (install.sh run again)."""
    pi4 = fake_aplay(tmp_path / "pi4", cards=PI4_CARDS)
    pi5 = fake_aplay(tmp_path / "pi5", cards=PI5_CARDS)
    assert unit(pi4).endswith(" --speaker")
    assert "--speaker" not in unit(pi5)
    assert unit(pi5, "--speaker").endswith(" --speaker")
    assert "--speaker" not in unit(pi4, "--no-speaker")
    assert f"--pinmap {ROOT}/hardware/pinmap.toml" in unit(pi4)


def test_a_failing_aplay_is_one_line_in_the_log_and_kept_for_doctor(tmp_path, path_with) -> None:
    path_with(fake_aplay(tmp_path / "bin", fails=True))
    record = tmp_path / "data" / "speech" / speaker.FAILURE_FILE
    logged: list[str] = []
    play = aplay(record)
    assert isinstance(play, speaker.Aplay)
    play.log = logged.append
    wav = speaker.silence()
    for _ in range(3):  # a game's lines: each fails, the log says it once
        play(wav)
    assert play.failures == 3
    assert logged == [f"werewolf serve: speaker: aplay exited 1: {NO_DEVICE} "
                      "(the table screen still speaks)"]
    assert record.read_text(encoding="utf-8").strip().endswith(f"aplay exited 1: {NO_DEVICE}")
    lines = speaker.doctor_lines(record.parent)
    assert lines == [f"FAIL  speaker: aplay exited 1: {NO_DEVICE} (serve --speaker is silent; "
                     "the table screen still speaks)",
                     f"FAIL  speaker: the hub's last aplay failure: {record.read_text().strip()}"]


def test_a_line_played_after_a_failure_clears_it(tmp_path, path_with) -> None:
    record = tmp_path / "speech" / speaker.FAILURE_FILE
    path_with(fake_aplay(tmp_path / "bad", fails=True))
    play = speaker.find(record)
    assert play is not None
    logged: list[str] = []
    play.log = logged.append
    play(speaker.silence())
    assert record.exists()
    play.binary = str(fake_aplay(tmp_path / "good") / "aplay")  # the speaker plugged back in
    play(speaker.silence())
    assert not record.exists() and play.last is None
    play.binary = str(tmp_path / "bad" / "aplay")
    play(speaker.silence())
    assert len(logged) == 2  # failing again is news again


def test_doctor_prints_the_speaker_line(tmp_path, path_with, capsys) -> None:
    path_with(fake_aplay(tmp_path / "bin", fails=True))
    main(["doctor", "--data", str(tmp_path / "data")])
    out = capsys.readouterr().out
    assert f"FAIL  speaker: aplay exited 1: {NO_DEVICE}" in out
    path_with(fake_aplay(tmp_path / "ok"))
    main(["doctor", "--data", str(tmp_path / "data")])
    assert "ok    speaker: aplay plays on ALSA's default output" in capsys.readouterr().out
