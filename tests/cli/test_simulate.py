"""`werewolf simulate` [issue 8]: K random games of a deal, each side's share of
the wins with a 95 % interval, the mean number of days and games/s as one JSON
object on stdout, a progress bar on stderr."""

from __future__ import annotations

import json

import pytest

from companion.cli import main
from companion.engine import new_game
from companion.simulate import deal_game, run, sides, wilson


def simulate(capsys, *args: str) -> tuple[int, dict | None, str]:
    status = main(["simulate", *args])
    out, err = capsys.readouterr()
    lines = out.strip().splitlines()
    return status, (json.loads(lines[-1]) if lines else None), err


def test_prints_one_json_object_last_with_the_issue_s_fields(capsys) -> None:
    """[issue 8]: {"games", "wins": {side: share}, "ci95": {side: [low, high]},
    "mean_days", "games_per_s"}; sides as in the replay output's winner, draws
    included; the progress bar goes to stderr, never stdout."""
    status, figures, err = simulate(capsys, "--ruleset", "jp-standard", "--players", "9",
                                    "--games", "40")
    assert status == 0 and figures is not None
    assert {"games", "wins", "ci95", "mean_days", "games_per_s"} <= set(figures)
    assert figures["games"] == 40 and figures["unfinished"] == 0
    # a jp 9-player deal: the village, the wolves (the madman is theirs), or a draw
    assert list(figures["wins"]) == ["village", "werewolves", "draw"]
    assert list(figures["ci95"]) == list(figures["wins"])
    assert sum(figures["wins"].values()) == pytest.approx(1, abs=1e-3)
    for side, share in figures["wins"].items():
        low, high = figures["ci95"][side]
        assert 0 <= low <= share <= high <= 1
        assert round(share * 40) == pytest.approx(share * 40, abs=0.01)  # a count of games
    assert figures["mean_days"] >= 1 and figures["games_per_s"] > 0
    # the bar, completed: tqdm's [issue 32], in ASCII when stderr is no terminal
    assert "100%|" + "#" * 10 in err and "40/40" in err and "games/s" in err


def test_the_same_seed_plays_the_same_games(capsys) -> None:
    args = ("--ruleset", "millers-hollow", "--players", "10", "--add", "witch", "--games", "25")
    _, first, _ = simulate(capsys, *args)
    _, again, _ = simulate(capsys, *args)
    _, other, _ = simulate(capsys, *args, "--seed", "1")
    assert first and again and other
    for figures in (first, again, other):
        del figures["games_per_s"]
    assert first == again
    assert other != first


def test_every_side_the_deal_can_produce_is_counted() -> None:
    """Lovers with a cupid, the piper and the white werewolf with their cards,
    the fox in jp-standard's 14-player deal (RULES.md §7)."""
    figures = run("millers-hollow", 12, ["cupid", "piper", "white-werewolf"], games=30)
    assert list(figures["wins"]) == ["village", "werewolves", "lovers", "piper",
                                     "white-werewolf", "draw"]
    assert sides({"werewolf": 2, "fox": 1, "villager": 3}) == ["village", "werewolves", "fox",
                                                               "draw"]


def test_the_village_can_be_simulated() -> None:
    """RULES.md §8: with `professions`, each game deals them from its seed (the
    `professions` option); the pyromaniac and the rumormonger play; every game
    ends or is counted unfinished."""
    figures = run("millers-hollow", 12, ["pyromaniac", "rumormonger", "witch"], games=30,
                  professions=True)
    assert figures["games"] == 30 and figures["unfinished"] == 0
    assert sum(figures["wins"].values()) == pytest.approx(1, abs=1e-3)


def test_a_thief_deal_puts_two_cards_in_the_centre_or_none() -> None:
    """The thief brings two extra cards (RULES.md §3): dealt shuffled, the last
    two lie in the centre; if the thief card is one of them nobody is the thief
    and the centre is unused (the engine accepts centre cards only with a thief)."""
    cards = ["thief", "werewolf", "werewolf", "seer"] + ["villager"] * 8
    seen = set()
    for seed in range(60):
        deal, center, _ = deal_game("millers-hollow", cards, seed)
        assert len(deal) == 10
        seen.add("thief" in deal)
        assert len(center) == (2 if "thief" in deal else 0)
        new_game("millers-hollow", [f"P{i}" for i in range(10)], deal, center=center, seed=seed)
    assert seen == {True, False}


def test_wilson_interval() -> None:
    low, high = wilson(0, 50)
    assert low == pytest.approx(0, abs=1e-12) and 0.05 < high < 0.08  # none in 50: up to ~7 %
    low, high = wilson(25, 50)
    assert low == pytest.approx(1 - high) and low < 0.5 < high
    assert wilson(0, 0) == (0.0, 1.0)


@pytest.mark.parametrize("args, message", [
    (("--ruleset", "jp-standard", "--players", "30"), "7–15 players"),
    (("--ruleset", "jp-standard", "--players", "9", "--add", "witch"), "not part of"),
    (("--ruleset", "bga", "--players", "9", "--add", "villager"), "changes nothing"),
    (("--ruleset", "bga", "--players", "9", "--games", "0"), "at least 1"),
])
def test_a_bad_deal_is_one_line_and_exit_2(capsys, args, message) -> None:
    status, figures, err = simulate(capsys, *args)
    assert status == 2 and figures is None
    assert err.startswith("werewolf simulate: ") and message in err


def test_help_says_random_play_is_no_verdict_on_balance(capsys) -> None:
    """[issue 8]: "Random play says little about balance between good players;
    say so in its help text"."""
    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "Random play says little about balance between good players" in text


def test_simulate_and_roles_take_event_cards(capsys) -> None:
    """[issue 33] RULES.md §10: `simulate --events ID…` plays every game with
    New Moon's event cards (the `events` option, shuffled with each game's
    seed) and says so in its JSON; `roles --events` prints the cards in the
    order --seed turns them; jp-standard plays none (exit 2, one line)."""
    ids = ["wolves-ally", "quiet-night", "two-executions", "one-voice", "open-ballots",
           "no-discussion"]
    status, figures, _ = simulate(capsys, "--ruleset", "millers-hollow", "--players", "12",
                                  "--games", "30", "--events", *ids)
    assert status == 0 and figures is not None
    assert figures["events"] == ids and figures["unfinished"] == 0
    assert sum(figures["wins"].values()) == pytest.approx(1, abs=1e-3)
    assert main(["roles", "--ruleset", "bga", "--players", "8", "--seed", "4", "--events",
                 *ids]) == 0
    out = json.loads(capsys.readouterr().out)
    assert sorted(out["events"]) == sorted(ids) and out["roles"]["werewolf"] == 2
    assert main(["roles", "--ruleset", "jp-standard", "--players", "9", "--events",
                 "quiet-night"]) == 2
    assert "plays no event cards" in capsys.readouterr().err


def test_simulate_and_roles_take_the_seed_options(capsys) -> None:
    """[issue 34] `simulate --option K=V` plays every game with the options
    (random play through the candidates' two rounds, one potion, the turns)
    and says so in its JSON; `roles --options` shows the options a game of
    the ruleset plays with, the lobby's (bga: the potions announced [000];
    jp-standard: ready_ends_night [004], no witch's options); a bad value:
    exit 2 with the engine's message."""
    status, figures, _ = simulate(
        capsys, "--ruleset", "millers-hollow", "--players", "10", "--add", "witch",
        "--games", "40", "--option", "vote_mode=candidates", "--option",
        "witch_single_potion=true", "--option", "election=after-discussion")
    assert status == 0 and figures is not None and figures["unfinished"] == 0
    assert figures["options"] == {"vote_mode": "candidates", "witch_single_potion": True,
                                  "election": "after-discussion"}
    assert sum(figures["wins"].values()) == pytest.approx(1, abs=1e-3)
    assert main(["roles", "--ruleset", "bga", "--players", "8", "--options"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["options"]["announce_potions"] is True and "ready_ends_night" not in out["options"]
    assert main(["roles", "--ruleset", "jp-standard", "--players", "9", "--option",
                 "vote_mode=candidates"]) == 0
    opts = json.loads(capsys.readouterr().out)["options"]
    assert opts["vote_mode"] == "candidates" and opts["ready_ends_night"] is True
    assert "witch_single_potion" not in opts
    assert main(["roles", "--ruleset", "bga", "--players", "8", "--option",
                 "vote_mode=secret"]) == 2
    assert "vote_mode" in capsys.readouterr().err
