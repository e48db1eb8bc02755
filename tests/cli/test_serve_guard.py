"""`werewolf serve` on a bad day [issue 17]: `--new-gm-token` makes a new
token (every paired tablet and pairing link ends); a damaged game file is
one line saying where it went; the game file and the token are 0600."""

from __future__ import annotations

import json
import os
import stat
import urllib.error
import urllib.request

from slowness import wait_s

from .test_serve import _lines_until, _serve, _stop


def test_new_gm_token_replaces_the_kept_one_and_unpairs_every_tablet(tmp_path):
    proc, port = _serve(tmp_path)
    try:
        _lines_until(proc, "Game master:")
    finally:
        _stop(proc)
    old = (tmp_path / "gm-token").read_text().strip()
    (tmp_path / "gm-sessions").write_text(json.dumps({"token": "x", "sessions": ["y"]}))
    proc, port = _serve(tmp_path, "--new-gm-token")
    try:
        line = _lines_until(proc, "Game master:")[-1]
        new = (tmp_path / "gm-token").read_text().strip()
        assert new != old and line.endswith(f"/gm?token={new}")
        assert stat.S_IMODE((tmp_path / "gm-token").stat().st_mode) == 0o600
        request = urllib.request.Request(f"http://127.0.0.1:{port}/api/gm",
                                         headers={"Authorization": f"Bearer {old}"})
        try:
            urllib.request.urlopen(request, timeout=wait_s(5))
            raise AssertionError("the old token still opened the GM API")
        except urllib.error.HTTPError as err:
            assert err.code == 403
    finally:
        _stop(proc)


def test_a_damaged_game_file_is_one_line_saying_where_it_went(tmp_path):
    (tmp_path / "games.sqlite3").write_bytes(os.urandom(16_384))
    proc, _ = _serve(tmp_path)
    try:
        lines = _lines_until(proc, "Game master:")
    finally:
        _stop(proc)
    said = [line for line in lines if "was damaged" in line]
    assert len(said) == 1 and "moved to" in said[0]
    aside = said[0].split("moved to ")[1].split(";")[0]
    assert os.path.exists(aside)
    assert stat.S_IMODE((tmp_path / "games.sqlite3").stat().st_mode) == 0o600


def test_a_full_card_at_start_is_one_line_and_exit_2(tmp_path):
    """Resuming a game writes (the boot count): on a full filesystem (a tmpfs
    the test mounts, as root; skipped otherwise) serve says so and stops."""
    import subprocess

    import pytest

    from companion.store import Store

    where = tmp_path / "sd"
    where.mkdir()
    mounted = os.geteuid() == 0 and subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(where)],
        capture_output=True, check=False).returncode == 0
    if not mounted:
        pytest.skip("cannot mount a small tmpfs here (not root)")
    try:
        store = Store(where / "games.sqlite3")
        store.create_game({"ruleset": "bga", "players": []}, [{"a": 0}], ["t"], {})
        store.close()
        (where / "gm-token").write_text("t\n")
        try:  # the card fills up
            with (where / "photo.jpg").open("wb", buffering=0) as f:
                while True:
                    f.write(os.urandom(4096))
        except OSError:
            pass
        proc, _ = _serve(where)
        out = proc.communicate(timeout=wait_s(30))[0]
        assert proc.returncode == 2, out
        assert "the Pi's storage is full: free space, then retry" in out
        assert "Traceback" not in out
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def test_a_read_only_card_at_start_is_one_line_and_exit_2_and_moves_nothing(tmp_path):
    """[issue 41 item 3] On a file system remounted read-only (a tmpfs the
    test mounts, as root; skipped otherwise), the hub tried to move a healthy
    game file aside as damaged (SQLite cannot open a WAL file there), then
    died with a traceback (exit 1). Now: one line naming the read-only card,
    exit 2, nothing moved; the same file, writable again, is whole."""
    import sqlite3
    import subprocess

    import pytest

    from companion.store import Store

    where = tmp_path / "sd"
    where.mkdir()
    mounted = os.geteuid() == 0 and subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(where)],
        capture_output=True, check=False).returncode == 0
    if not mounted:
        pytest.skip("cannot mount a tmpfs here (not root)")
    try:
        store = Store(where / "games.sqlite3")
        game = store.create_game({"ruleset": "bga", "players": []}, [{"a": 0}], ["t"], {})
        store.append(game, 1, [{"a": 1}], {})
        store.close()  # a clean stop: no WAL, no shared memory left
        (where / "gm-token").write_text("t\n")
        before = sorted(p.name for p in where.iterdir())
        assert subprocess.run(["mount", "-o", "remount,ro", str(where)],
                              capture_output=True, check=False).returncode == 0
        proc, _ = _serve(where)
        out = proc.communicate(timeout=wait_s(30))[0]
        assert proc.returncode == 2, out
        assert "Traceback" not in out and len(out.strip().splitlines()) == 1, out
        assert "read-only" in out and "make it writable again" in out, out
        assert sorted(p.name for p in where.iterdir()) == before  # nothing moved aside
        subprocess.run(["mount", "-o", "remount,rw", str(where)], check=True)
        db = sqlite3.connect(where / "games.sqlite3")
        assert db.execute("PRAGMA quick_check").fetchone()[0] == "ok"
        assert db.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 2
        db.close()
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def test_a_second_hub_on_the_same_folder_is_one_line_and_exit_2(tmp_path):
    """[issue 41] "a second hub on the same folder": it used to open the game
    file, reconcile it with the journal the first hub was writing, take a
    snapshot and empty that journal under it, and serve the same game from a
    second memory. Now the folder is locked while a hub has it: the second
    says which process holds it, exits 2 and touches nothing; the first goes
    on (its next action is kept)."""
    import subprocess
    import sys

    from .test_serve import ROOT

    proc, port = _serve(tmp_path, "--gm-token", "t")
    try:
        _lines_until(proc, "Game master:")
        journal = (tmp_path / "games.sqlite3.journal").read_bytes()
        second = subprocess.run(
            [sys.executable, "-c", "import sys; from companion.cli import main; sys.exit(main())",
             "serve", "--host", "127.0.0.1", "--port", "0", "--data", str(tmp_path)],
            capture_output=True, text=True, timeout=wait_s(60), cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert second.returncode == 2, second.stdout + second.stderr
        assert second.stderr.strip() == (
            f"werewolf serve: another werewolf hub (process {proc.pid}) is using {tmp_path}: "
            "one hub per data folder; stop the other one first")
        assert (tmp_path / "games.sqlite3.journal").read_bytes() == journal  # untouched
        season = subprocess.run(  # a command that only reads: beside the hub, as it is
            [sys.executable, "-c", "import sys; from companion.cli import main; sys.exit(main())",
             "season", "--data", str(tmp_path)], capture_output=True, text=True, timeout=wait_s(60),
            cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert season.returncode == 0 and json.loads(season.stdout)["games"] == 0, season.stderr
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/games", data=json.dumps(
                {"ruleset": "millers-hollow", "players": [f"P{i}" for i in range(8)]}).encode(),
            headers={"Authorization": "Bearer t", "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=wait_s(10)) as answer:
            assert answer.status == 201
    finally:
        _stop(proc)
