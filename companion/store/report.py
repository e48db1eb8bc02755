"""What the store says of itself [issue 30, issue 41]: the findings each
start keeps beside the game file (`notices`), and `werewolf doctor`'s read
of the three copies as they are now (`storage_report`: read only, a running
hub is not disturbed)."""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path

from .journal import read_journal, read_snapshot


def _keep_notice(path: Path, notice: str) -> None:
    """Add a start's findings to the notices file (best effort: the terminal
    and the GM's tablet have them anyway)."""
    stamp = time.strftime("%Y-%m-%d %H:%M:%S")
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        with os.fdopen(fd, "a", encoding="utf-8") as f:
            f.writelines(f"{stamp} {line}\n" for line in notice.splitlines())
    except OSError:
        pass


def storage_report(db_path: Path) -> tuple[bool, list[str]]:
    """For `werewolf doctor` [issue 30 item 1]: the game file's own check
    (read only: a running hub is not disturbed), its second copy, and every
    finding a start kept (`notices`). (sound, lines)."""
    if not db_path.exists():
        return True, [f"storage: no game file yet ({db_path})"]
    try:
        db = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
        try:
            check = db.execute("PRAGMA quick_check").fetchone()[0]
            games = db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        finally:
            db.close()
    except sqlite3.Error as err:
        check, games = str(err), 0
    sound = check == "ok"
    lines = [f"storage: {db_path}: " + (f"sound, {games} game(s)" if sound
                                       else f"DAMAGED ({check}): the hub moves it aside and "
                                            "recovers it at its next start")]
    # the other two copies, as they are now [issue 41]: damage is named before
    # the next start has to
    journal = read_journal(db_path.with_name(db_path.name + ".journal"))
    if journal.present:
        bad = journal.damaged_lines + (journal.header is None)
        start = journal.start if journal.start is not None else "?"
        lines.append(f"storage: journal: changes after {start} up to {journal.last}"
                     + (f"; DAMAGED: {bad} line(s) fail their check (the next start names "
                        "what they cost)" if bad else ", every line whole"))
        sound = sound and not bad
    else:
        lines.append("storage: journal: none yet")
    snap, problem = read_snapshot(db_path.with_name(db_path.name + ".snapshot"))
    lines.append("storage: snapshot: " + (
        f"whole (its checksum matches), up to change {snap.change}" if snap is not None else
        f"DAMAGED ({problem}): the next start takes a new one" if problem else "none yet"))
    sound = sound and problem is None
    found = notices(db_path)
    if found:
        sound = False
        lines.append("storage: what hub starts found (newest last):")
        lines += [f"  {line}" for line in found]
    return sound, lines


def notices(db_path: Path, last: int = 20) -> list[str]:
    """The last findings kept beside the game file (dated lines), oldest first."""
    try:
        text = db_path.with_name(db_path.name + ".notices").read_text(encoding="utf-8")
    except OSError:
        return []
    return text.splitlines()[-last:]
