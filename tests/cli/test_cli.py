"""The `werewolf` command line: `werewolf roles` and `werewolf replay`.

Sources: RULES.md §3 (role distribution), docs/rules.md §4, docs/replay.md
(input, output, errors, the complete example), and the task's issue list
("[issue 2] bad input": exit status 2, one JSON error object, no traceback).
Exit statuses and standard input go through a real process
(`sys.executable -m companion.cli`); the rest calls `companion.cli.main`.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from helpers import DOC_EXAMPLE
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from slowness import wait_s

from companion.cli import main
from companion.engine import SetupError, new_game
from companion.replay import run_replay

with warnings.catch_warnings():
    # hypothesis imports this module (libcst, mypy_extensions) only to report a
    # failure; under the project's filterwarnings=error its DeprecationWarning
    # would hide the failure behind an INTERNALERROR, so import it quietly now.
    warnings.simplefilter("ignore")
    try:
        import hypothesis.extra._patching  # noqa: F401
    except ImportError:
        pass

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted((Path(__file__).parents[1] / "scenarios").glob("*.json"))


def cli(*args: str, stdin: str | bytes | None = None) -> subprocess.CompletedProcess:
    """Run `werewolf ARGS` in a fresh process; stdout/stderr as text."""
    data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
    proc = subprocess.run([sys.executable, "-m", "companion.cli", *args], input=data,
                          capture_output=True, cwd=ROOT, timeout=wait_s(120))
    proc.stdout = proc.stdout.decode("utf-8", errors="replace")
    proc.stderr = proc.stderr.decode("utf-8", errors="replace")
    return proc


def run_main(capsys, *args: str) -> tuple[int, str, str]:
    """`companion.cli.main(ARGS)` in this process: (status, stdout, stderr)."""
    try:
        status = main(list(args))
    except SystemExit as stop:  # argparse refuses its arguments with SystemExit(2)
        status = stop.code
    out = capsys.readouterr()
    return status, out.out, out.err


def one_object(stdout: str) -> dict:
    """docs/replay.md: the command writes a single JSON object."""
    obj = json.loads(stdout)
    assert isinstance(obj, dict)
    return obj


# --- werewolf roles ---------------------------------------------------------------

#: RULES.md §3 / docs/rules.md §4, Millers Hollow and BGA (8–18 players).
MH_TABLE = {n: {"werewolf": 2 if n <= 11 else 3 if n <= 17 else 4, "seer": 1}
            for n in range(8, 19)}
for _n, _d in MH_TABLE.items():
    _d["villager"] = _n - _d["werewolf"] - 1

#: RULES.md §3 / docs/rules.md §4, jp-standard (7–15 players) [004].
JP_COLUMNS = ("werewolf", "seer", "medium", "knight", "madman", "freemason", "fox", "villager")
JP_ROWS = {
    7: (1, 1, 0, 0, 1, 0, 0, 4), 8: (2, 1, 1, 0, 1, 0, 0, 3), 9: (2, 1, 1, 1, 1, 0, 0, 3),
    10: (2, 1, 1, 1, 1, 0, 0, 4), 11: (2, 1, 1, 1, 1, 0, 0, 5), 12: (2, 1, 1, 1, 1, 2, 0, 4),
    13: (2, 1, 1, 1, 1, 2, 0, 5), 14: (2, 1, 1, 1, 1, 2, 1, 5), 15: (2, 1, 1, 1, 1, 2, 1, 6),
}
JP_TABLE = {n: {r: c for r, c in zip(JP_COLUMNS, row) if c} for n, row in JP_ROWS.items()}


@pytest.mark.parametrize("ruleset", ["millers-hollow", "bga"])
@pytest.mark.parametrize("players", range(8, 19))
def test_roles_millers_hollow_table(capsys, ruleset, players):
    """RULES.md §3 Millers Hollow [003]: wolves 2 (8–11), 3 (12–17), 4 (18);
    one seer; the rest villagers — for every count from 8 to 18."""
    status, out, err = run_main(capsys, "roles", "--ruleset", ruleset, "--players", str(players))
    assert status == 0, err
    deal = json.loads(out)
    assert deal == MH_TABLE[players]
    assert sum(deal.values()) == players


@pytest.mark.parametrize("players", range(7, 16))
def test_roles_jp_standard_table(capsys, players):
    """RULES.md §3 jp-standard [004]: the table row for every count from 7 to 15."""
    status, out, err = run_main(capsys, "roles", "--ruleset", "jp-standard",
                                "--players", str(players))
    assert status == 0, err
    deal = json.loads(out)
    assert deal == JP_TABLE[players]
    assert sum(deal.values()) == players


def test_roles_exact_json_for_millers_hollow_12():
    """RULES.md §3: 12 players → 3 werewolves, 1 seer, 8 villagers (exact JSON)."""
    proc = cli("roles", "--ruleset", "millers-hollow", "--players", "12")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {"werewolf": 3, "seer": 1, "villager": 8}
    assert proc.stdout.strip().count("\n") == 0  # one JSON object, one line
    assert proc.stderr == ""


@pytest.mark.parametrize("ruleset,players", [
    ("millers-hollow", 7), ("millers-hollow", 19), ("bga", 7), ("bga", 19),
    ("jp-standard", 6), ("jp-standard", 16), ("millers-hollow", 0), ("bga", -3),
])
def test_roles_player_count_outside_the_table_exits_2(ruleset, players):
    """RULES.md §3 (MH/BGA 8–18, jp 7–15), [issue 2]: a count outside the table
    exits 2 with a clear message on stderr and no traceback."""
    proc = cli("roles", "--ruleset", ruleset, "--players", str(players))
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert proc.stdout.strip() == ""
    low, high = (7, 15) if ruleset == "jp-standard" else (8, 18)
    message = proc.stderr.strip()
    assert message and len(message.splitlines()) == 1, message
    assert str(players) in message and str(low) in message and str(high) in message, message


@pytest.mark.parametrize("ruleset,players", [
    ("millers-hollow", 8), ("millers-hollow", 18), ("bga", 8), ("bga", 18),
    ("jp-standard", 7), ("jp-standard", 15),
])
def test_roles_boundaries_are_accepted(ruleset, players):
    """RULES.md §3: the first and last rows of each table are valid (exit 0)."""
    proc = cli("roles", "--ruleset", ruleset, "--players", str(players))
    assert proc.returncode == 0, proc.stderr
    deal = json.loads(proc.stdout)
    table = JP_TABLE if ruleset == "jp-standard" else MH_TABLE
    assert deal == table[players]


@pytest.mark.parametrize("ruleset", ["millers-hollow", "bga"])
def test_roles_added_roles_replace_villagers(capsys, ruleset):
    """RULES.md §3: each special role added replaces one villager [000][003]."""
    status, out, err = run_main(capsys, "roles", "--ruleset", ruleset, "--players", "10",
                                "--add", "witch", "--add", "hunter")
    assert status == 0, err
    assert json.loads(out) == {"werewolf": 2, "seer": 1, "villager": 5, "witch": 1, "hunter": 1}


@pytest.mark.parametrize("players", [8, 12, 18])
def test_roles_thief_brings_two_extra_cards(capsys, players):
    """RULES.md §3: with the thief, two extra villager cards: players + 2
    cards are dealt, two lie in the centre [000][003]."""
    status, out, err = run_main(capsys, "roles", "--ruleset", "millers-hollow",
                                "--players", str(players), "--add", "thief")
    assert status == 0, err
    deal = json.loads(out)
    base = MH_TABLE[players]
    assert sum(deal.values()) == players + 2
    assert deal == {**base, "villager": base["villager"] + 1, "thief": 1}


def test_roles_thief_with_other_roles(capsys):
    """RULES.md §3: thief + witch at 9 players: 11 cards, villagers 6 + 2 − 2."""
    status, out, _ = run_main(capsys, "roles", "--ruleset", "bga", "--players", "9",
                              "--add", "thief", "--add", "witch")
    assert status == 0
    assert json.loads(out) == {"werewolf": 2, "seer": 1, "villager": 6, "thief": 1, "witch": 1}


@pytest.mark.parametrize("args", [
    ["--ruleset", "jp-standard", "--players", "9", "--add", "witch"],  # not a jp role
    ["--ruleset", "millers-hollow", "--players", "9", "--add", "madman"],  # not an MH role
    ["--ruleset", "jp-standard", "--players", "9", "--add", "pyromaniac"],  # not a jp role
    ["--ruleset", "millers-hollow", "--players", "8", "--add", "witch", "--add", "hunter",
     "--add", "cupid", "--add", "elder", "--add", "defender", "--add", "piper"],  # 5 villagers
])
def test_roles_impossible_additions_exit_2(args):
    """RULES.md §2 (roles allowed per ruleset), §3 (an added role replaces a
    villager), [issue 2]:
    exit 2, a message on stderr, no traceback."""
    proc = cli("roles", *args)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert proc.stderr.strip()


@pytest.mark.parametrize("args", [
    ["--ruleset", "millers-hollow", "--players", "twelve"],
    ["--ruleset", "nope", "--players", "12"],
    ["--ruleset", "bga", "--players", "12", "--add", "seeer"],
    ["--players", "12"],
])
def test_roles_bad_arguments_exit_2(args):
    """[issue 2] bad input: malformed arguments exit 2 without a traceback."""
    proc = cli("roles", *args)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert proc.stderr.strip()


@pytest.mark.parametrize("ruleset,players,add,limit", [
    ("millers-hollow", 10, ["witch", "witch"], "at most 1 witch card(s)"),
    ("millers-hollow", 10, ["seer"], "at most 1 seer card(s)"),
    ("bga", 12, ["thief", "thief"], "at most 1 thief card(s)"),
    ("jp-standard", 12, ["freemason"], "at most 2 freemason card(s)"),  # the table has 2
    ("jp-standard", 9, ["knight"], "at most 1 knight card(s)"),  # the table has 1
])
def test_roles_refuses_a_second_copy_of_a_single_card(ruleset, players, add, limit):
    """RULES.md §3 (the tables drive random deals and the GM's suggestions) and
    docs/replay.md (card limits: one of each role but villager and werewolf,
    two freemasons): `werewolf roles` never suggests a deal the engine refuses,
    so a second witch, seer, thief or knight, or a third freemason, is exit 2
    with the limit on stderr and nothing on stdout."""
    args = ["roles", "--ruleset", ruleset, "--players", str(players)]
    for role in add:
        args += ["--add", role]
    proc = cli(*args)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr == f"werewolf roles: a game has {limit}\n"


@pytest.mark.parametrize("ruleset,players,add", [
    ("millers-hollow", 8, ["thief", "witch", "hunter", "cupid", "elder", "piper", "defender"]),
    ("bga", 18, ["thief", "white-werewolf", "little-girl", "scapegoat", "village-idiot"]),
])
def test_roles_suggestion_can_be_dealt(ruleset, players, add):
    """RULES.md §3 (the tables drive random deals and the GM's suggestions):
    many single cards at once, each within its limit, are suggested (exit 0)
    and what `werewolf roles` prints is a deal the engine accepts."""
    args = ["roles", "--ruleset", ruleset, "--players", str(players)]
    for role in add:
        args += ["--add", role]
    proc = cli(*args)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    deal = json.loads(proc.stdout)
    assert all(deal[role] == 1 for role in add)
    cards = [r for r, c in sorted(deal.items()) for _ in range(c)]
    cards.remove("thief")  # players + 2 cards: the thief's two lie in the centre
    center, cards = cards[:2], ["thief"] + cards[2:]
    assert len(cards) == players
    try:
        new_game(ruleset, [f"P{i}" for i in range(players)], cards, None, center)
    except SetupError as err:
        pytest.fail(f"`werewolf roles` suggested {deal}, which the engine refuses: {err}")


def test_console_script_is_installed():
    """pyproject.toml [project.scripts]: the `werewolf` command runs the CLI
    (installed beside this interpreter, as `pip install` puts it)."""
    exe = shutil.which("werewolf", path=str(Path(sys.executable).parent))
    assert exe is not None, "pip install did not put the werewolf command beside python"
    proc = subprocess.run([exe, "roles", "--ruleset", "bga", "--players", "8"],
                          capture_output=True, text=True, timeout=wait_s(120))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {"werewolf": 2, "seer": 1, "villager": 5}


# --- werewolf replay: success -------------------------------------------------------

DOC_DEATHS = [
    {"player": "Fay", "cause": "werewolves", "time": "night 1"},
    {"player": "Eve", "cause": "execution", "time": "day 1"},
    {"player": "Ann", "cause": "hunter", "time": "day 1"},
    {"player": "Bob", "cause": "poison", "time": "night 2"},
]
OUTPUT_FIELDS = {"winner", "winners", "deaths", "alive", "sheriff", "step", "events"}


def doc(**changes) -> dict:
    out = copy.deepcopy(DOC_EXAMPLE)
    out.update(changes)
    return out


def test_replay_file_docs_example(tmp_path):
    """docs/replay.md "A complete example": exit 0 and the documented output."""
    path = tmp_path / "game.json"
    path.write_text(json.dumps(DOC_EXAMPLE), encoding="utf-8")
    proc = cli("replay", str(path))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    out = one_object(proc.stdout)
    assert OUTPUT_FIELDS <= set(out)
    assert "error" not in out
    assert out["winner"] == "village"
    assert out["winners"] == ["Cid", "Dan", "Eve", "Fay"]
    assert out["deaths"] == DOC_DEATHS
    assert out["alive"] == ["Cid", "Dan"]
    assert out["sheriff"] is None
    assert isinstance(out["step"], str) and isinstance(out["events"], list)


def test_replay_stdin_docs_example():
    """docs/replay.md: `werewolf replay -` reads the script from standard input."""
    proc = cli("replay", "-", stdin=json.dumps(DOC_EXAMPLE))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    out = one_object(proc.stdout)
    assert out["winner"] == "village" and out["deaths"] == DOC_DEATHS


def test_replay_stdin_with_blank_lines_and_a_game_in_progress():
    """docs/replay.md: blank lines are fine; an unfinished game has winner null,
    winners [] and exit 0."""
    text = json.dumps(doc(actions=DOC_EXAMPLE["actions"][:4]), indent=2).replace(
        "\n", "\n\n")
    proc = cli("replay", "-", stdin=text)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = one_object(proc.stdout)
    assert out["winner"] is None and out["winners"] == []
    assert out["deaths"] == DOC_DEATHS[:1]
    assert out["alive"] == ["Ann", "Bob", "Cid", "Dan", "Eve"]


def _scenario_game(path: Path) -> dict:
    case = json.loads(path.read_text(encoding="utf-8"))
    return case.get("game", case)


@pytest.mark.parametrize("name", ["mh-hunter-and-heartbreak", "mh-village-win-with-sheriff"])
def test_replay_scenario_file_and_stdin(tmp_path, name):
    """docs/replay.md (FILE and -): a scenario from tests/scenarios/ replays
    with exit 0 and its expected result, from a file and from stdin alike."""
    case = json.loads((Path(__file__).parents[1] / "scenarios" / f"{name}.json").read_text("utf-8"))
    path = tmp_path / "game.json"
    path.write_text(json.dumps(case["game"]), encoding="utf-8")
    by_file = cli("replay", str(path))
    by_stdin = cli("replay", "-", stdin=path.read_text(encoding="utf-8"))
    for proc in (by_file, by_stdin):
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert "Traceback" not in proc.stderr
        out = one_object(proc.stdout)
        expect = case["expect"]
        for key in ("winner", "winners", "alive", "sheriff"):
            if key in expect:
                assert out[key] == expect[key], key
        got = sorted((d["player"], d["cause"], d["time"]) for d in out["deaths"])
        assert got == sorted(tuple(d) for d in expect["deaths"])
    assert json.loads(by_file.stdout) == json.loads(by_stdin.stdout)


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_replay_every_scenario_gives_its_expected_result(capsys, tmp_path, path):
    """docs/replay.md (output, "Errors") and tests/scenarios/ (each case's
    `expect`): `werewolf replay FILE` on every scenario prints the result the
    scenario expects — exit 0, or exit 2 with `error.index` equal to its
    `error_index` — checked against the file, not against the library the
    command calls."""
    case = json.loads(path.read_text(encoding="utf-8"))
    expect = case["expect"]
    file = tmp_path / "game.json"
    file.write_text(json.dumps(case["game"], ensure_ascii=False), encoding="utf-8")
    status, out, err = run_main(capsys, "replay", str(file))
    got = one_object(out)
    if "error_index" in expect:
        assert status == 2, out
        assert got["error"]["index"] == expect["error_index"], got["error"]
    else:
        assert status == 0, got.get("error")
        assert "error" not in got
    assert err == ""
    for key in ("winner", "winners", "alive", "sheriff"):
        if key in expect:
            assert got[key] == expect[key], key
    if "deaths" in expect:
        deaths = sorted((d["player"], d["cause"], d["time"]) for d in got["deaths"])
        assert deaths == sorted(tuple(d) for d in expect["deaths"])


# --- werewolf replay: errors (docs/replay.md "Errors", [issue 2]) ---------------------

def assert_error(proc: subprocess.CompletedProcess, index: int | None) -> dict:
    """Exit 2, one JSON object with error.index and a one-line error.message,
    no traceback."""
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    out = one_object(proc.stdout)
    error = out["error"]
    assert set(error) == {"index", "message"}
    assert error["index"] == index, error
    assert isinstance(error["message"], str) and error["message"].strip()
    assert "\n" not in error["message"]
    return out


@pytest.mark.parametrize("text", [
    '{"ruleset": "millers-hollow",',  # truncated
    '{"ruleset": "bga", "players": [],}',  # trailing comma
    "",  # empty input
    "not json at all",
    "{'ruleset': 'bga'}",  # single quotes
])
def test_replay_malformed_json_stdin(text):
    """docs/replay.md errors: malformed JSON → exit 2, index null."""
    assert_error(cli("replay", "-", stdin=text), None)


def test_replay_deeply_nested_json():
    """docs/replay.md errors: malformed JSON (here an unclosed, deeply nested
    array) → exit 2 with index null, not a crash."""
    assert_error(cli("replay", "-", stdin="[" * 100_000), None)


def test_replay_file_that_is_not_utf8(tmp_path):
    """docs/replay.md errors: a file that is not even text (invalid UTF-8) is
    malformed input → exit 2 with index null, not a crash."""
    path = tmp_path / "game.json"
    path.write_bytes(b"\xff\xfe{\x00}")
    assert_error(cli("replay", str(path)), None)


def test_replay_missing_file(tmp_path):
    """docs/replay.md errors ("if anything is wrong ... status 2"): an
    unreadable file exits 2 with index null."""
    assert_error(cli("replay", str(tmp_path / "nope.json")), None)


@pytest.mark.parametrize("value", ["[]", '"a game"', "42", "null", "true"])
def test_replay_input_not_an_object(value):
    """docs/replay.md errors: the input is not an object → exit 2, index null."""
    assert_error(cli("replay", "-", stdin=value), None)


SETUP_ERRORS = {
    "unknown ruleset": doc(ruleset="werewolves-of-nowhere"),
    "unknown role": doc(deal={**DOC_EXAMPLE["deal"], "Fay": "seeer"}),
    "role not in the ruleset": doc(deal={**DOC_EXAMPLE["deal"], "Fay": "madman"}),
    "The Village role outside its ruleset": doc(ruleset="jp-standard", deal={
        "Ann": "werewolf", "Bob": "werewolf", "Cid": "seer", "Dan": "villager",
        "Eve": "villager", "Fay": "pyromaniac"}),
    "unknown option": doc(options={"sherif": False}),
    "bad option value": doc(options={"tie": "coin-flip"}),
    "option of the wrong type": doc(options={"sheriff": "no"}),
    "duplicate names": doc(players=["Ann", "Bob", "Cid", "Dan", "Eve", "Ann"]),
    "deal misses a player": doc(deal={k: v for k, v in DOC_EXAMPLE["deal"].items()
                                      if k != "Fay"}),
    "deal names a stranger": doc(deal={**DOC_EXAMPLE["deal"], "Zed": "villager"}),
    "deal renames a player": doc(deal={**{k: v for k, v in DOC_EXAMPLE["deal"].items()
                                          if k != "Fay"}, "Fae": "villager"}),
    "three players": doc(players=["Ann", "Bob", "Cid"],
                         deal={"Ann": "werewolf", "Bob": "seer", "Cid": "villager"}),
    "25 players": doc(players=[f"P{i}" for i in range(25)],
                      deal={f"P{i}": "werewolf" if i < 3 else "villager" for i in range(25)}),
    "thief without centre": doc(deal={**DOC_EXAMPLE["deal"], "Fay": "thief"}),
    "centre without thief": doc(center=["villager", "villager"]),
    "no deal, count off the table": {k: v for k, v in DOC_EXAMPLE.items() if k != "deal"},
    "professions for some players only": doc(professions={"Ann": "farmer"}),
    "unknown profession": doc(professions={p: "drifter" if p != "Ann" else "farmar"
                                           for p in DOC_EXAMPLE["players"]}),
    "two lords": doc(professions={p: "lord" if p in ("Ann", "Bob") else "drifter"
                                  for p in DOC_EXAMPLE["players"]}),
    "professions not an object": doc(professions=["farmer"]),
    "players not a list": doc(players="Ann Bob Cid Dan Eve Fay"),
    "seed not an integer": doc(seed="seven"),
    "actions not a list": doc(actions={"actor": "Cid"}),
}


@pytest.mark.parametrize("case", SETUP_ERRORS, ids=list(SETUP_ERRORS))
def test_replay_setup_errors(case):
    """docs/replay.md errors table: setup problems → exit 2, index null."""
    out = assert_error(cli("replay", "-", stdin=json.dumps(SETUP_ERRORS[case])), None)
    assert set(out) == {"error"}  # no game was created: only the error field


def _actions(*extra: dict, keep: int = 0) -> dict:
    return doc(actions=DOC_EXAMPLE["actions"][:keep] + list(extra))


ACTION_ERRORS = {
    # name: (script, failing index)
    "unknown action id": (_actions({"actor": "Cid", "do": "peek", "target": "Ann"}), 0),
    "unknown target name": (_actions({"actor": "Cid", "do": "inspect", "target": "Zed"}), 0),
    "unknown actor name": (_actions({"actor": "Zed", "do": "inspect", "target": "Ann"}), 0),
    "missing target": (_actions({"actor": "Cid", "do": "inspect"}), 0),
    "unknown action field": (_actions({"actor": "Cid", "do": "inspect", "target": "Ann",
                                       "colour": "red"}), 0),
    "out of turn (wolf in the seer's step)": (
        _actions({"actor": "Ann", "do": "attack", "target": "Fay"}), 0),
    "out of turn (vote at night)": (_actions({"actor": "Eve", "do": "vote", "target": "Ann"},
                                             keep=1), 1),
    "out of turn (villager acts)": (_actions({"actor": "Fay", "do": "inspect",
                                              "target": "Ann"}), 0),
    "wolf attacks a wolf": (_actions({"actor": "Ann", "do": "attack", "target": "Bob"},
                                     keep=1), 1),
    "target dead (poison Fay)": (doc(actions=DOC_EXAMPLE["actions"][:12] + [
        {"actor": "Dan", "do": "potion", "heal": True, "poison": "Fay"}]), 12),
    "target dead (vote for Fay)": (_actions({"actor": "Ann", "do": "vote", "target": "Fay"},
                                            keep=4), 4),
    "dead voter": (_actions({"actor": "Fay", "do": "vote", "target": "Ann"}, keep=4), 4),
    "self-vote with self_vote=false": (
        doc(options={"sheriff": False, "self_vote": False}, actions=DOC_EXAMPLE["actions"][:4] + [
            {"actor": "Ann", "do": "vote", "target": "Ann"}]), 4),
    "timeout with an actor": (_actions({"actor": "Cid", "do": "timeout"}), 0),
    "action not an object": (_actions("inspect Ann"), 0),
    "action after the end": (doc(actions=DOC_EXAMPLE["actions"] + [
        {"actor": "Cid", "do": "vote", "target": "Dan"}]), 13),
    "Village action": (_actions({"actor": "Cid", "do": "confess", "target": "Ann"}), 0),
}


@pytest.mark.parametrize("case", ACTION_ERRORS, ids=list(ACTION_ERRORS))
def test_replay_action_errors(case):
    """docs/replay.md errors table: a bad or illegal action K → exit 2 with
    index K, and the rest of the object shows the state just before it."""
    script, index = ACTION_ERRORS[case]
    out = assert_error(cli("replay", "-", stdin=json.dumps(script)), index)
    assert OUTPUT_FIELDS <= set(out)
    before, status = run_replay({**script, "actions": script["actions"][:index]})
    assert status == 0
    for key in ("winner", "winners", "deaths", "alive", "sheriff", "step", "events"):
        assert out[key] == json.loads(json.dumps(before[key])), key


def test_replay_documented_error_example():
    """docs/replay.md: with "poison": "Fay" the replay stops at action 12 with
    the documented state (Bob's pick made, the witch's step open)."""
    script = doc(actions=DOC_EXAMPLE["actions"][:12] + [
        {"actor": "Dan", "do": "potion", "heal": True, "poison": "Fay"}])
    out = assert_error(cli("replay", "-", stdin=json.dumps(script)), 12)
    assert out["winner"] is None and out["winners"] == []
    assert out["deaths"] == DOC_DEATHS[:3]
    assert out["alive"] == ["Bob", "Cid", "Dan"]
    assert out["sheriff"] is None
    assert "witch" in out["step"]


@pytest.mark.parametrize("raw", [
    {"actor": "Cid", "do": ["inspect"], "target": "Ann"},
    {"actor": "Cid", "do": {"inspect": "Ann"}},
    {"actor": "Cid", "do": None, "target": "Ann"},
    {"actor": "Cid", "do": 3, "target": "Ann"},
], ids=["list", "object", "null", "number"])
def test_replay_malformed_action_id(raw):
    """docs/replay.md errors: an unknown action id or malformed field in
    action K → exit 2 with index K, not a crash."""
    assert_error(cli("replay", "-", stdin=json.dumps(_actions(raw))), 0)


def test_replay_malformed_card_index():
    """docs/replay.md (thief `card`: 0 or 1; malformed fields → index K):
    a fractional card index must not crash the replay."""
    script = doc(players=["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus"],
                 deal={**DOC_EXAMPLE["deal"], "Gus": "thief"},
                 center=["villager", "werewolf"],
                 actions=[{"actor": "Gus", "do": "swap", "card": 1.5}])
    assert_error(cli("replay", "-", stdin=json.dumps(script)), 0)


def test_replay_float_card_index_is_refused():
    """docs/replay.md (thief `card`: `0` or `1`; malformed fields → index K):
    `"card": 0.0` is not the integer 0 — like 1.5 above and `true` it is
    refused as malformed (exit 2, index 0, "'card' must be 0 or 1"), never a
    crash and never read as a card."""
    script = doc(players=["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus"],
                 deal={**DOC_EXAMPLE["deal"], "Gus": "thief"},
                 center=["villager", "werewolf"],
                 actions=[{"actor": "Gus", "do": "swap", "card": 0.0}])
    out = assert_error(cli("replay", "-", stdin=json.dumps(script)), 0)
    assert out["error"]["message"] == "'card' must be 0 or 1"
    assert out["step"] == "night 1 thief"


def test_replay_in_process_stdin(capsys, monkeypatch):
    """docs/replay.md: `main(["replay", "-"])` reads stdin and returns the
    exit status (0) after printing one object."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(DOC_EXAMPLE)))
    status, out, _ = run_main(capsys, "replay", "-")
    assert status == 0
    assert one_object(out)["winners"] == ["Cid", "Dan", "Eve", "Fay"]


def test_replay_piper_charms_the_last_player_with_targets():
    """docs/replay.md actions table (piper `charm`: `targets`, "one if only one
    can still be charmed"), RULES.md §5 piper / §7.3: the one-player charm is
    accepted and, with everyone else charmed at dawn, the piper wins."""
    script = doc(
        deal={"Ann": "werewolf", "Bob": "werewolf", "Cid": "villager", "Dan": "piper",
              "Eve": "villager", "Fay": "villager"},
        actions=[
            {"actor": "Ann", "do": "attack", "target": "Fay"},
            {"actor": "Bob", "do": "attack", "target": "Fay"},
            {"actor": "Dan", "do": "charm", "targets": ["Ann", "Bob"]},
            {"actor": "Ann", "do": "vote", "target": "Cid"},
            {"actor": "Bob", "do": "vote", "target": "Cid"},
            {"actor": "Cid", "do": "vote", "target": "Ann"},
            {"actor": "Dan", "do": "vote", "target": "Cid"},
            {"actor": "Eve", "do": "vote", "target": "Cid"},
            {"actor": "Ann", "do": "pass"},
            {"actor": "Bob", "do": "pass"},
            {"actor": "Dan", "do": "charm", "targets": ["Eve"]},
        ])
    proc = cli("replay", "-", stdin=json.dumps(script))
    assert "Traceback" not in proc.stderr
    out = one_object(proc.stdout)
    assert proc.returncode == 0, out.get("error")
    assert out["winner"] == "piper" and out["winners"] == ["Dan"]
    assert out["alive"] == ["Ann", "Bob", "Dan", "Eve"]


# --- any input: exit 0 or 2, one JSON object, never a crash ([issue 2]) -------------

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 30) | st.floats(allow_nan=False)
    | st.sampled_from(["", "Ann", "Zed", "werewolf", "thief", "vote", "pass", "bga", "role"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["actor", "do", "target", "targets", "a", "x"]), inner, max_size=3),
    max_leaves=6)
GAME_KEYS = ["ruleset", "options", "players", "deal", "center", "professions", "seed",
             "actions", "note", "extra"]
ACTION_KEYS = ["actor", "do", "target", "targets", "heal", "poison", "card", "mode",
               "outcome", "power", "building", "extra"]


@st.composite
def mangled_scripts(draw) -> str:
    """The docs example with a few fields (of the game or of one action)
    replaced by arbitrary JSON values, or removed."""
    script = copy.deepcopy(DOC_EXAMPLE)
    for _ in range(draw(st.integers(1, 3))):
        actions = script.get("actions")
        if draw(st.booleans()) or not (isinstance(actions, list) and actions
                                       and all(isinstance(a, dict) for a in actions)):
            key = draw(st.sampled_from(GAME_KEYS))
            target = script
        else:
            target = script["actions"][draw(st.integers(0, len(script["actions"]) - 1))]
            key = draw(st.sampled_from(ACTION_KEYS))
        if draw(st.integers(0, 4)) == 0:
            target.pop(key, None)
        else:
            target[key] = draw(JSON_VALUES)
    return json.dumps(script)


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(text=mangled_scripts())
def test_replay_any_mangled_script_is_answered(text):
    """docs/replay.md (output; errors: status 2 with {"error": {"index",
    "message"}}), [issue 2]: whatever the script, `werewolf replay -` prints
    one JSON object and exits 0 or 2 — never an uncaught exception."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        old, sys.stdin = sys.stdin, io.StringIO(text)
        try:
            status = main(["replay", "-"])
        finally:
            sys.stdin = old
    obj = one_object(out.getvalue())
    assert status in (0, 2)
    if status == 2:
        error = obj["error"]
        assert set(error) == {"index", "message"} and error["message"]
        actions = json.loads(text).get("actions")
        count = len(actions) if isinstance(actions, list) else 0
        assert error["index"] is None or (isinstance(error["index"], int)
                                          and 0 <= error["index"] < count), error
    else:
        assert "error" not in obj
        assert OUTPUT_FIELDS <= set(obj)


def test_roles_lists_the_professions_too(capsys):
    """RULES.md §8 Decision: `--professions` adds the tokens the `professions`
    option deals: one of each of the nine buildings and drifters for the rest
    (12 players: three drifters); fewer than nine players: a subset of the nine."""
    status, out, err = run_main(capsys, "roles", "--ruleset", "millers-hollow", "--players",
                                "12", "--add", "pyromaniac", "--professions")
    assert status == 0 and err == ""
    got = json.loads(out)
    assert got["roles"] == {"werewolf": 3, "seer": 1, "villager": 7, "pyromaniac": 1}
    assert got["professions"] == {"drifter": 3, **{p: 1 for p in (
        "steward", "farmer", "schoolteacher", "baker", "tavern-keeper", "confessor", "barber",
        "lord", "bonesetter")}}
    status, out, _ = run_main(capsys, "roles", "--ruleset", "bga", "--players", "8",
                              "--professions", "--seed", "3")
    small = json.loads(out)["professions"]
    assert sum(small.values()) == 8 and "drifter" not in small and set(small.values()) == {1}
