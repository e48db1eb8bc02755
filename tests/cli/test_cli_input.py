"""Input problems found by trying the CLI as a new user would ([issue 9]).

Source for every test here: the task's issue 9, "Input problems found by
trying the CLI as a new user would", with the project's bad-input rule from
[issue 2] (one clear line, exit status 2, no traceback) and docs/replay.md
("Errors": a setup problem is an error object with index null).

Each test runs the command in a fresh process (`python -m companion.cli`), as
a user's shell would, except the hub test, which posts to Flask's test client.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import DOC_EXAMPLE
from slowness import wait_s

from companion.engine import EngineError
from companion.replay import setup_game

ROOT = Path(__file__).resolve().parents[2]

#: docs/replay.md "A complete example" (six players, a fixed deal), its first night.
GAME = {**DOC_EXAMPLE, "actions": DOC_EXAMPLE["actions"][:4]}


def cli(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    """`werewolf ARGS` in a fresh process; stdout and stderr as text."""
    proc = subprocess.run([sys.executable, "-m", "companion.cli", *args], input=stdin,
                          capture_output=True, cwd=ROOT, timeout=wait_s(120))
    proc.stdout = proc.stdout.decode("utf-8")
    proc.stderr = proc.stderr.decode("utf-8")
    return proc


def with_names(*first: str) -> dict:
    """GAME with its first names replaced (the deal follows the names)."""
    names = [*first, *GAME["players"][len(first):]]
    cards = list(GAME["deal"].values())
    return {**GAME, "players": names, "deal": dict(zip(names, cards)), "actions": []}


def setup_error(proc: subprocess.CompletedProcess) -> str:
    """Exit 2, no traceback, stdout exactly one line holding one JSON error
    object (index null: docs/replay.md, a setup problem); its message."""
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.stdout.endswith("\n") and proc.stdout.count("\n") == 1, proc.stdout
    out = json.loads(proc.stdout)
    assert set(out) == {"error"} and out["error"]["index"] is None, out
    message = out["error"]["message"]
    assert "\n" not in message
    return message


# --- `werewolf replay … | head` ---------------------------------------------------

@pytest.mark.parametrize("args", [["replay", "-"], ["roles", "--ruleset", "bga",
                                                    "--players", "8"]])
def test_output_into_a_closed_pipe_ends_quietly_with_status_141(args):
    """[issue 9] input problems: `werewolf replay … | head` ended in a
    BrokenPipeError traceback; it should end quietly. The reader here is gone
    before the command writes a byte (as after `head` has read its lines): no
    output on stderr, and exit status 141 (128 + SIGPIPE), the status a shell
    reports for a Unix tool such as `yes | head` — not 0, the output was cut."""
    proc = subprocess.Popen([sys.executable, "-m", "companion.cli", *args],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=ROOT)
    assert proc.stdout is not None
    proc.stdout.close()  # nobody reads standard output any more
    _, err = proc.communicate(json.dumps(GAME).encode("utf-8"), timeout=wait_s(120))
    assert err.decode("utf-8", "replace") == ""
    assert proc.returncode == 141


# --- a UTF-8 byte order mark ------------------------------------------------------

def test_replay_reads_a_file_that_starts_with_a_byte_order_mark(tmp_path):
    """[issue 9] input problems: a file starting with a UTF-8 BOM, as some
    editors save it, was refused; it is read like the same file without it."""
    text = json.dumps(GAME, ensure_ascii=False).encode("utf-8")
    plain, marked = tmp_path / "plain.json", tmp_path / "bom.json"
    plain.write_bytes(text)
    marked.write_bytes(b"\xef\xbb\xbf" + text)
    want = cli("replay", str(plain))
    assert want.returncode == 0, want.stdout
    for proc in (cli("replay", str(marked)), cli("replay", "-", stdin=b"\xef\xbb\xbf" + text)):
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert proc.stderr == ""
        assert json.loads(proc.stdout) == json.loads(want.stdout)


# --- player names -----------------------------------------------------------------

@pytest.mark.parametrize("names,message", [
    (["Zo\u00eb", "Zoe\u0308"],  # ë precomposed, then e + combining diaeresis
     "names 1 and 2 in 'players' are the same name 'Zo\u00eb' written with different "
     "Unicode characters"),
    (["Ann", "Bob", "Zoe\u0308", "Zo\u00eb"],
     "names 3 and 4 in 'players' are the same name 'Zo\u00eb' written with different "
     "Unicode characters"),
    (["\u200b"], "name 1 in 'players' ('\\u200b') has nothing visible in it"),
    (["Ann", "\u200b\u2060\ufeff"],
     "name 2 in 'players' ('\\u200b\\u2060\\ufeff') has nothing visible in it"),
    (["\u3164"], "name 1 in 'players' ('\u3164') has nothing visible in it"),
    (["Ann\nBob"],
     "name 1 in 'players' ('Ann\\nBob') holds a line break or another control character"),
    (["Ann", "Bob\t"],
     "name 2 in 'players' ('Bob\\t') holds a line break or another control character"),
    (["Ann\u2028"],
     "name 1 in 'players' ('Ann\\u2028') holds a line break or another control character"),
    (["\ud800"], "name 1 in 'players' ('\\ud800') is not valid Unicode text (a lone surrogate)"),
    # [issue 45] a script's names refuse what the table's do (engine/characters.py):
    # an emoji joined by a ZWJ too, as the lobby refuses it
    (["Ann", "A\u200bnn"], "name 2 in 'players' ('A\\u200bnn') holds an invisible or "
     "direction-changing character (U+200B ZERO WIDTH SPACE): type it again without it"),
    (["\u202eevil"], "name 1 in 'players' ('\\u202eevil') holds an invisible or "
     "direction-changing character (U+202E RIGHT-TO-LEFT OVERRIDE): type it again without it"),
    (["\U0001f469\u200d\U0001f680"], "name 1 in 'players' ('\U0001f469\\u200d\U0001f680') "
     "holds an invisible or direction-changing character (U+200D ZERO WIDTH JOINER): type it "
     "again without it"),
], ids=["nfc-pair", "nfc-pair-later", "zero-width-space", "only-format-characters",
        "hangul-filler", "newline", "tab", "line-separator", "lone-surrogate",
        "invisible-inside", "direction-override", "emoji-zwj"])
def test_replay_refuses_a_bad_player_name_in_one_line(names, message):
    """[issue 9] input problems: names equal after Unicode NFC normalisation
    counted as two players, and names made only of invisible characters
    (U+200B) or holding a newline were accepted. Each is one clear line, exit
    2, no traceback, and no game (docs/replay.md: a setup error has index
    null and nothing else)."""
    text = json.dumps(with_names(*names))  # ASCII escapes: the lone surrogate survives
    assert setup_error(cli("replay", "-", stdin=text.encode("utf-8"))) == message


@pytest.mark.parametrize("names", [
    ["Zoe\u0308"],                 # decomposed, once: not a duplicate
    ["Zo\u00eb", "Zoe"],           # NFC-different names stay two players
    ["Mary Ann", "\u5c71\u7530"],  # an inner space; a Japanese name
    ["\U0001f469\U0001f680", "A\u0301"],  # emoji; a combining accent
])
def test_replay_still_accepts_good_names(names):
    """[issue 9]: the name checks refuse only what the issue names — unusual
    but visible, distinct one-line names still play (exit 0, names kept as
    written)."""
    game = with_names(*names)
    proc = cli("replay", "-", stdin=json.dumps(game, ensure_ascii=False).encode("utf-8"))
    assert proc.returncode == 0, proc.stdout
    assert json.loads(proc.stdout)["players"] == game["players"]


def test_identical_names_keep_the_engines_message():
    """docs/replay.md "Errors" (duplicate names, index null): the plain
    duplicate is still answered by the engine's own message."""
    assert setup_error(cli("replay", "-", stdin=json.dumps(with_names("Ann", "Ann")).encode())) \
        == "duplicate player names: Ann"


def test_hub_answers_400_for_a_bad_name_and_creates_no_game(tmp_path):
    """[issue 9] + the hub's POST /api/games (it deals through the replay
    setup, so the same checks apply): a name made of U+200B is a 400 with the
    same one-line message, and no game is stored. setup_game raises an
    EngineError (what the hub turns into 400)."""
    from companion.hub import create_app
    from companion.store import Store
    from companion.table import Table

    with pytest.raises(EngineError):
        setup_game(with_names("Ann\nBob"))
    table = Table(Store(tmp_path / "games.sqlite3"), clock=lambda: 1_000_000.0,
                  rng=random.Random(7))
    client = create_app(table, "gm", {"TESTING": True, "HEARTBEAT_S": 0.05}).test_client()
    gm = {"Authorization": "Bearer gm"}
    setup = with_names("\u200b")
    del setup["actions"]
    r = client.post("/api/games", json=setup, headers=gm)
    assert r.status_code == 400, r.json
    assert r.json == {"error": "name 1 in 'players' ('\\u200b') has nothing visible in it"}
    assert client.get("/api/games", headers=gm).json == {"games": []}


# --- `werewolf roles --add villager` ------------------------------------------------

@pytest.mark.parametrize("add", [["villager"], ["witch", "villager"]])
def test_roles_refuses_add_villager(add):
    """[issue 9] input problems: `--add villager` was silently ignored (an added
    role replaces a villager card, so a villager changed nothing). It is
    refused: exit 2, one line on stderr saying why, nothing on stdout."""
    args = ["roles", "--ruleset", "millers-hollow", "--players", "10"]
    for role in add:
        args += ["--add", role]
    proc = cli(*args)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr == ("werewolf roles: --add villager changes nothing: each added role "
                           "takes the place of a villager card; add a special role, or raise "
                           "--players\n")


# --- a seed of 5000 digits ----------------------------------------------------------

def test_replay_a_5000_digit_seed_is_one_line_for_the_user():
    """[issue 9] input problems: a 5000-digit seed's message told the user to
    call a Python function (sys.set_int_max_str_digits). Now: exit 2, the
    documented error object on stdout and the same line on stderr (docs/replay.md:
    malformed input is also written to standard error), in the user's terms."""
    limit = sys.get_int_max_str_digits()
    text = json.dumps({**GAME, "seed": 1}).replace('"seed": 1', '"seed": ' + "7" * 5000)
    proc = cli("replay", "-", stdin=text.encode("utf-8"))
    want = f"a number in the input has 5000 digits; a number (the seed too) may have at " \
           f"most {limit} digits"
    assert setup_error(proc) == want
    assert proc.stderr == f"werewolf: {want}\n"
    assert "set_int_max_str_digits" not in proc.stdout + proc.stderr


def test_replay_a_seed_at_the_digit_limit_still_plays():
    """docs/replay.md (`seed`: an integer): the longest seed Python reads is
    still a seed — the limit above refuses only what cannot be read."""
    limit = sys.get_int_max_str_digits()
    text = json.dumps({**GAME, "seed": 1}).replace('"seed": 1', '"seed": ' + "7" * limit)
    proc = cli("replay", "-", stdin=text.encode("utf-8"))
    assert proc.returncode == 0, proc.stdout[:300]


def test_replay_a_lone_surrogate_in_an_echoed_field_is_still_one_json_line():
    """[issue 2] bad input (no traceback), found with the names above: a JSON
    escape such as "\\ud800" is no valid Unicode text; a message that echoes it
    (an unknown field's name) is printed with ASCII escapes instead of
    crashing the UTF-8 output."""
    proc = cli("replay", "-", stdin=b'{"\\ud800": 1, "ruleset": "bga", "players": ["A"]}')
    assert setup_error(proc) == "unknown field(s): \ud800"
    assert proc.stdout.isascii()
