"""Every scripted case in tests/scenarios/ ({"game": ..., "expect": ...}).

The first five are copied from the project's shared examples; the rest are
our own, one or more per role and rule. Each `expect` names only what it checks
(`announced`: public announcements that must be among those the script's log
makes, matched on the keys given; `not_announced`: keys none may carry).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from companion.engine import announcements, rebuild
from companion.replay import run_replay

CASES = sorted((Path(__file__).parents[1] / "scenarios").glob("*.json"))


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_scenario(path: Path) -> None:
    case = json.loads(path.read_text(encoding="utf-8"))
    out, status = run_replay(case["game"])
    expect = case["expect"]
    if "error_index" in expect:
        assert status == 2 and out["error"]["index"] == expect["error_index"], out.get("error")
    else:
        assert status == 0, out.get("error")
    if "winner" in expect:
        assert out["winner"] == expect["winner"]
    if "winners" in expect:
        assert out["winners"] == expect["winners"]
    if "deaths" in expect:
        got = Counter((d["player"], d["cause"], d["time"]) for d in out["deaths"])
        assert got == Counter(tuple(d) for d in expect["deaths"])
    if "alive" in expect:
        assert out["alive"] == expect["alive"]
    if "sheriff" in expect:
        assert out["sheriff"] == expect["sheriff"]
    if "announced" in expect:  # public announcements, each matched on the keys given
        told = announcements(rebuild(out["events"]))
        for want in expect["announced"]:
            assert any(all(a.get(k) == v for k, v in want.items()) for a in told), (want, told)
    if "not_announced" in expect:  # keys no announcement may carry
        told = announcements(rebuild(out["events"]))
        assert not any(k in a for a in told for k in expect["not_announced"]), told


def test_there_are_scenarios() -> None:
    assert len(CASES) >= 5
