"""`werewolf serve` as a user runs it ([issue 5] Running it): a real process
on a free loopback port, read through a pipe."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from slowness import wait_s

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve(data: Path, *extra: str) -> tuple[subprocess.Popen, int]:
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-c", "import sys; from companion.cli import main; sys.exit(main())",
         "serve", "--host", "127.0.0.1", "--port", str(port), "--data", str(data), *extra],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    return proc, port


def _stop(proc: subprocess.Popen) -> None:
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=wait_s(15))
    if proc.stdout is not None:
        proc.stdout.close()


def _lines_until(proc: subprocess.Popen, needle: str, limit: float = 20.0) -> list[str]:
    lines: list[str] = []
    deadline = time.monotonic() + wait_s(limit)
    assert proc.stdout is not None
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line.rstrip("\n"))
        if needle in line:
            return lines
    raise AssertionError(f"{needle!r} not printed; got {lines}")


def test_serve_prints_the_gm_url_and_qr_at_once_and_stops_on_sigterm(tmp_path):
    """[issue 5]: on start it prints the GM's URL with its token (read from a
    pipe, so flushed at once) and a QR code; the token is kept in the data
    folder; SIGTERM stops it cleanly with status 0."""
    proc, port = _serve(tmp_path)
    try:
        lines = _lines_until(proc, "Game master:")
        token = (tmp_path / "gm-token").read_text().strip()
        assert lines[-1] == f"Game master: http://127.0.0.1:{port}/gm?token={token}"
        qr = _lines_until(proc, "▀")  # the QR code follows, in block characters
        assert qr
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/public", timeout=wait_s(5)) as r:
            assert json.loads(r.read())["phase"] == "lobby"
        assert (tmp_path / "games.sqlite3").exists()
    finally:
        proc.send_signal(signal.SIGTERM)
        status = proc.wait(timeout=wait_s(15))
        assert proc.stdout is not None
        rest = proc.stdout.read()
        proc.stdout.close()
    assert status == 0
    assert "stopped" in rest


def test_serve_keeps_its_gm_token_and_accepts_a_given_one(tmp_path):
    """[issue 5]: a random GM token kept in the data folder (the same on the
    next start); --gm-token overrides it."""
    proc, _ = _serve(tmp_path)
    try:
        first = _lines_until(proc, "Game master:")[-1]
    finally:
        _stop(proc)
    proc, _ = _serve(tmp_path, "--gm-token", "chosen-token")
    try:
        given = _lines_until(proc, "Game master:")[-1]
    finally:
        _stop(proc)
    token = (tmp_path / "gm-token").read_text().strip()
    assert first.endswith(f"token={token}") and given.endswith("token=chosen-token")
    assert len(token) >= 22  # 128 bits, base64url


def test_serve_refuses_a_port_in_use_with_a_message(tmp_path):
    """[issue 5]: a port already taken gives one clear line and exit 2, no traceback."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        out = subprocess.run(
            [sys.executable, "-c", "import sys; from companion.cli import main; sys.exit(main())",
             "serve", "--host", "127.0.0.1", "--port", str(port), "--data", str(tmp_path)],
            capture_output=True, text=True, env=env, timeout=wait_s(30))
    assert out.returncode == 2
    assert "cannot listen" in out.stderr and "Traceback" not in out.stderr


def test_serve_runs_the_simulated_table_and_says_so(tmp_path):
    """[issue 7] without a Pi, `werewolf serve` runs the seat boxes on
    gpiozero's MockFactory and the display on luma's dummy device, says so,
    and the virtual table's API answers with every box and a display frame."""
    proc, port = _serve(tmp_path, "--gm-token", "tok")
    try:
        lines = _lines_until(proc, "Virtual table")
        table_line = next(line for line in lines if line.startswith("Table: "))
        assert "12 seat boxes simulated" in table_line and "display simulated" in table_line
        req = urllib.request.Request(f"http://127.0.0.1:{port}/api/hardware",
                                     headers={"Authorization": "Bearer tok"})
        with urllib.request.urlopen(req, timeout=wait_s(10)) as r:
            hw = json.loads(r.read())
        assert [b["seat"] for b in hw["leds"]] == list(range(1, 13))
        assert hw["frames"] >= 1  # the boot frame: the GM's QR code
    finally:
        _stop(proc)


def test_serve_refuses_to_resume_a_button_game_the_pin_map_cannot_seat(tmp_path):
    """[issue 7] fewer seats than the game's players is one clear message, exit
    2: a 14-player roll-call game in progress, and the 12-seat default map."""
    from companion.store import Store
    from companion.table import Table

    names = [f"P{i}" for i in range(14)]
    table = Table(Store(tmp_path / "games.sqlite3"))
    table.create({"ruleset": "millers-hollow", "players": names, "seed": 1,
                  "buttons": "roll-call"})
    table.store.close()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-c", "import sys; from companion.cli import main; sys.exit(main())",
         "serve", "--host", "127.0.0.1", "--port", "0", "--data", str(tmp_path)],
        capture_output=True, text=True, env=env, timeout=wait_s(30))
    assert out.returncode == 2, out.stdout + out.stderr
    assert "12 seats, but the game has 14 players: seats 13-14 have no button box" in out.stderr
    assert "Traceback" not in out.stderr
