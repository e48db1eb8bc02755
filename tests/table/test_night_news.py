"""What a phone learns at night, and when [issue 28]: private news (a result,
the lovers, the charmed, a new card, the pack) waits for the end of the call
that caused it, so no phone changes while its neighbour may still be
choosing; and nothing is accepted before the game master's "start".

DESIGN.md: a seat's view has three faces — its data (`view_for`), its timing
(pacing: call boundaries only) and its look. These tests hold the timing.
"""

from __future__ import annotations

import random

import pytest
from hub.conftest import FakeClock
from hub.test_api import call

from companion.engine import legal_actions, pending
from companion.engine.actions import sample_uniform
from companion.table import NotNow, Table

#: what may change on a phone within one night call: its own choices, a
#: wolf's view of the pack's picks (the pack must agree, RULES.md §5), and
#: the message's version and clock
LIVE_KEYS = {"actions", "pack_picks", "seq", "now"}


def replay_doc(table: Table, action) -> dict:  # type: ignore[no-untyped-def]
    """An engine action as a phone sends it (names, no actor)."""
    names = table.state.names
    doc = action.to_dict()
    doc.pop("actor", None)
    for key in ("target", "poison"):
        if isinstance(doc.get(key), int):
            doc[key] = names[doc[key]]
    if "targets" in doc:
        doc["targets"] = [names[s] for s in doc["targets"]]
    return doc


def random_moment(table: Table, clock: FakeClock, rng: random.Random) -> bool | None:
    """One moment of a table played at random: a phone that may act does,
    70 % of the time (True: it landed; False: pacing held it back — a
    lock-in pick, a ballot held back); else the clock moves on and the table
    ticks (None)."""
    actors = [s for s in range(table.state.size) if table.seat_view(s)["actions"]]
    if actors and rng.random() < 0.7:
        seat = rng.choice(actors)
        choices = legal_actions(table.state, seat)
        if choices:
            try:
                table.act_seat(seat, replay_doc(table, sample_uniform(choices, seat, rng)))
                return True
            except NotNow:
                return False
    clock.advance(rng.choice([0.3, 1.0, 4.0, 9.0]))
    table.tick()
    return None


def still(view: dict) -> dict:
    return {k: v for k, v in view.items() if k not in LIVE_KEYS}


def play_watching(table: Table, clock: FakeClock, seed: int, nights: int = 3) -> dict:
    """Play the table's game with random phone actions and random waits, up
    to night `nights`; after every input, each seat's view is compared with
    the one it had earlier in the same call. Answers what was seen."""
    rng = random.Random(seed)
    size = table.state.size
    seen: dict[tuple, dict] = {}  # (seat, night, call) -> the view's still part
    counted = {"calls": 0, "results": 0, "acted": 0}
    for _ in range(3000):
        pace = table.pace
        if table.state.phase == "over" or (pace.mode == "calls" and pace.night > nights):
            break
        if pace.mode == "calls":
            call = pace.calls[pace.cursor] if pace.cursor < len(pace.calls) else None
            for seat in range(size):
                view = table.seat_view(seat)
                key = (seat, pace.night, call)
                if key not in seen:
                    seen[key] = still(view)
                    counted["calls"] += seat == 0
                    counted["results"] += len(view["results"])
                else:
                    assert still(view) == seen[key], (
                        f"seat {seat} ({table.state.roles[seat]}) changed during the "
                        f"{call} call of night {pace.night}")
        if random_moment(table, clock, rng):
            counted["acted"] += 1
    return counted


def _setup(ruleset: str, roles: list[str], center: list[str] | None = None,
           **options: object) -> dict:
    players = [f"P{i}" for i in range(len(roles))]
    doc: dict = {"ruleset": ruleset, "players": players, "deal": dict(zip(players, roles)),
                 "seed": 5, "options": {"night_s": 6, "pack_s": 9, **options}}
    if center:
        doc["center"] = center
    return doc


GAMES = {
    "millers-hollow": _setup("millers-hollow", [
        "thief", "cupid", "seer", "witch", "werewolf", "werewolf", "little-girl", "defender",
        "piper", "white-werewolf", "hunter", "elder", "villager", "scapegoat"],
        center=["villager", "villager"], sheriff=False, discussion_s=5),
    "bga-village": _setup("bga", [
        "seer", "werewolf", "werewolf", "witch", "pyromaniac", "rumormonger", "villager",
        "villager", "hunter", "cupid"], sheriff=False, discussion_s=5, professions=True),
    "jp-standard": _setup("jp-standard", [
        "seer", "werewolf", "werewolf", "madman", "medium", "knight", "villager", "villager",
        "fox"], night_s=12, discussion_s=5),
}


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_no_phone_changes_within_a_night_call(table, clock, name, seed):
    """[issue 28] "Private news waits for the call's end" (RULES.md §4: nothing
    public may reveal who acted at night; DESIGN.md: a seat's timing is call
    boundaries only): in random games played through the phones, each seat's
    view — results, what it knows, its card, the table — stays the same from
    the start of a night call to its end; only its choices and (a wolf's)
    the pack's picks move within a call."""
    table.create(GAMES[name])
    counted = play_watching(table, clock, seed)
    assert counted["calls"] >= 3 and counted["acted"] >= 5, counted


def test_the_lovers_learn_it_when_cupids_call_ends(table, clock):
    """RULES.md §4 night 1: cupid, then the lovers wake and see each other;
    [issue 28]: the lovers' phones learn it when cupid's call ends, not the
    moment he links them (a phone lighting up mid-call names a lover)."""
    table.create(_setup("millers-hollow", ["cupid", "seer", "werewolf", "werewolf",
                                            "villager", "villager", "villager", "witch"]))
    call(table, clock, "cupid")
    table.act_seat(0, {"do": "link", "targets": ["P4", "P5"]})
    assert table.seat_view(4)["results"] == [] and "lover" not in table.seat_view(4)["knows"]
    while table.pace.calls[table.pace.cursor] == "cupid":
        clock.advance(0.5)
        table.tick()
    assert table.seat_view(4)["knows"]["lover"] == [5]
    assert table.seat_view(5)["results"][-1]["kind"] == "lover"


def test_the_charmed_learn_it_when_the_pipers_call_ends(table, clock):
    """RULES.md §4: the piper charms, then the charmed wake; [issue 28]: a
    charmed player's phone changes at the end of the piper's call."""
    table.create(_setup("millers-hollow", ["piper", "seer", "werewolf", "werewolf",
                                            "villager", "villager", "villager", "witch"]))
    call(table, clock, "piper")
    table.act_seat(0, {"do": "charm", "targets": ["P4", "P5"]})
    assert "charmed" not in table.seat_view(4)["knows"]
    while table.pace.mode == "calls" and table.pace.cursor < len(table.pace.calls):
        clock.advance(0.5)
        table.tick()
    assert table.seat_view(4)["knows"]["charmed"] == [4, 5]


def test_the_thief_holds_his_new_card_when_his_call_ends(table, clock):
    """RULES.md §5 thief: he plays the new role from that night on; [issue 28]:
    his phone (and a wolf card's pack) shows it when his call ends."""
    setup = _setup("millers-hollow", ["thief", "seer", "werewolf", "werewolf", "villager",
                                      "villager", "villager", "witch"],
                   center=["werewolf", "villager"])
    table.create(setup)
    call(table, clock, "thief")
    assert table.seat_view(0)["results"][-1] == {"kind": "centre", "time": "night 1",
                                                  "cards": ["werewolf", "villager"]}
    table.act_seat(0, {"do": "swap", "card": 0})
    view = table.seat_view(0)
    assert view["role"] == "thief" and "pack" not in view["knows"]
    while table.pace.calls[table.pace.cursor] == "thief":
        clock.advance(0.5)
        table.tick()
    view = table.seat_view(0)
    assert view["role"] == "werewolf" and view["knows"]["pack"] == [0, 2, 3]


# --- the deal: nothing before "start" ----------------------------------------------


def held(table: Table, **more: object) -> None:
    table.create({**_setup("millers-hollow", [
        "thief", "seer", "werewolf", "werewolf", "villager", "villager", "villager", "witch"],
        center=["werewolf", "villager"]), "wait_for_start": True, **more})


def test_a_game_dealt_to_wait_accepts_nothing_before_start(table, clock):
    """[issue 28] "Nothing is accepted before Start": a game dealt with
    `wait_for_start` refuses every action with 409 (a phone's — the thief's
    pass, the issue's case —, the GM's, the seat boxes'), changes nothing and
    calls nothing, however long the deal takes."""
    held(table)
    log = list(table.state.log)
    clock.advance(600)
    table.tick()
    assert table.pace.mode == "deal" and table.public()["pace"]["mode"] == "deal"
    for attempt in (lambda: table.act_seat(0, {"do": "pass"}),
                    lambda: table.act_seat(0, {"do": "swap", "card": 0}),
                    lambda: table.act_gm({"actor": "P0", "do": "pass"}),
                    lambda: table.act_gm({"do": "timeout"})):
        with pytest.raises(NotNow, match="not started"):
            attempt()
    assert table.act_presses([(4, clock.t)]) != ["recorded"]
    assert table.state.log == log and pending(table.state)["step"] == "thief"
    # no phone is shown the night yet: not the thief's centre cards either
    assert table.seat_view(0)["results"] == [] and table.seat_view(0)["actions"] == []
    assert table.seat_view(0)["step"] == "deal"


def test_start_calls_night_one_with_its_whole_windows(table, clock):
    """[issue 28]: the GM's "start" ends the deal: the first call opens then,
    with its whole window, and the thief is shown his cards at his call."""
    held(table)
    clock.advance(120)
    table.tick()
    table.timer("start")
    assert table.pace.mode == "calls" and table.pace.calls[table.pace.cursor] == "thief"
    assert table.pace.deadline == pytest.approx(clock.t + 6)
    assert table.seat_view(0)["results"][-1]["kind"] == "centre"
    table.act_seat(0, {"do": "swap", "card": 1})
    with pytest.raises(NotNow, match="already started"):
        table.timer("start")


def test_the_deal_survives_a_restart_and_next_does_not_start_it(table, clock, db_path):
    """[issue 28]: a restart in the deal keeps it waiting (the pace is stored);
    the GM's Next (skip) and +30 s do not start it: only "start" (or "resume",
    as scripts that paused and resumed did) does."""
    from companion.store import Store

    held(table)
    table.timer("skip")
    table.timer("extend", 30)
    assert table.pace.mode == "deal"
    table.store.close()
    again = Table(Store(db_path), clock=clock, rng=random.Random(1))
    again.resume()
    assert again.pace.mode == "deal"
    again.timer("resume")
    assert again.pace.mode == "calls"


def test_a_wolfs_card_says_there_is_no_attack_on_jp_standards_first_night(table, clock):
    """[issue 28] item 2, RULES.md §4 jp-standard: "on night 1 wolves only
    meet" [004]; a wolf's phone had only the decoy, with nothing saying
    there was no attack that night. His view says so (`no_attack`), for his
    held card only: nobody else's view has it, and night 2's has picks."""
    table.create(_setup("jp-standard", ["seer", "werewolf", "werewolf", "madman", "medium",
                                        "knight", "villager", "villager", "villager"]))
    assert [s for s in range(9) if table.seat_view(s).get("no_attack")] == [1, 2]
    assert "pack_picks" not in table.seat_view(1)
    while table.pace.mode == "calls" and table.pace.night == 1:
        clock.advance(5)
        table.tick()
    for _ in range(400):
        if table.pace.mode == "calls" and table.pace.night == 2:
            break
        clock.advance(5)
        table.tick()
    assert table.pace.night == 2 and not table.seat_view(1).get("no_attack")
    assert table.seat_view(1)["pack_picks"] == {}
