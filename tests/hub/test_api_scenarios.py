"""Every scripted game, played through the hub's HTTP API, ends where
`werewolf replay` ends ([issue 5] "Scripted-game names, action objects and
outputs are those of `werewolf replay`, so a script can be played against a
live hub").

Each game of tests/scenarios/*.json ({"game": ..., "expect": ...}) and
docs/examples/*.json is dealt with POST /api/games (its setup fields), then
each action goes to POST /api/actions as the GM. GET /api/state, minus "id" and
"pace", must equal `run_replay`'s output object; where the replay stops on an
error, the same action is refused (400 malformed, 409 not legal now) with the
same message, and the state is the one the replay reports. The fake clock never
moves, so pacing applies no timeout of its own.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.replay import run_replay

from .conftest import GM

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = sorted((ROOT / "tests" / "scenarios").glob("*.json")) + sorted(
    (ROOT / "docs" / "examples").glob("*.json"))


def _game(path: Path) -> dict:
    doc = json.loads(path.read_text(encoding="utf-8"))
    return doc["game"] if "game" in doc and "expect" in doc else doc  # type: ignore[no-any-return]


def test_there_are_scripts_to_play() -> None:
    """[issue 5] The scenarios and the docs' examples are all found."""
    assert len(SCRIPTS) >= 30
    assert any(p.parent.name == "examples" for p in SCRIPTS)


@pytest.mark.parametrize("path", SCRIPTS, ids=[f"{p.parent.name}/{p.stem}" for p in SCRIPTS])
def test_script_through_the_api_matches_the_replay(client, path: Path) -> None:
    """[issue 5] A scripted game played through POST /api/games and POST
    /api/actions gives the replay output object (GET /api/state minus id and
    pace), and fails at the same action with the same message when the replay
    fails (400 or 409, state as the replay leaves it)."""
    doc = _game(path)
    expected, status = run_replay(doc)
    setup = {k: v for k, v in doc.items() if k != "actions"}
    r = client.post("/api/games", json=setup, headers=GM)
    if status and expected["error"]["index"] is None:
        assert r.status_code == 400, r.json
        assert r.json == {"error": expected["error"]["message"]}
        return
    assert r.status_code == 201, r.json
    error = expected.pop("error", None)
    for index, action in enumerate(doc.get("actions", [])):
        r = client.post("/api/actions", json=action, headers=GM)
        if error is not None and index == error["index"]:
            assert r.status_code in (400, 409), (index, r.status_code, r.json)
            assert r.json == {"error": error["message"]}
            break
        assert r.status_code == 200, (index, action, r.json)
        assert r.json["seq"] == index + 1
    else:
        assert error is None, f"the replay failed at {error} but the hub took every action"
    got = client.get("/api/state", headers=GM).json
    assert got.pop("id") == 1 and isinstance(got.pop("pace"), dict)
    assert got == expected
