"""The engine API the hub drives: stale actions, `pending`, `night_calls`,
`Action.from_dict`, "seq" in views, seat checks in `view_for`, `announcements`.

Sources: the hub's issues ("[issue N]" where one is cited), RULES.md
(/work/shared/RULES.md) §1 timeouts, §4 secrecy of the call, §6 day, §9
moderator script, and docs/rules.md.
"""

from __future__ import annotations

import json
from random import Random

import pytest
from helpers import NAMES, a, game, votes

from companion.engine import (
    RULESETS,
    Action,
    IllegalAction,
    StaleAction,
    State,
    act,
    announcements,
    legal_actions,
    new_game,
    night_calls,
    pending,
    public_view,
    rebuild,
    recommended_deal,
    view_for,
    waiting_for,
)
from companion.engine.actions import sample_uniform

ROLES8 = ["werewolf", "werewolf", "seer", "villager", "villager", "villager", "villager",
          "villager"]
# Ann, Bob wolves; Cid seer; Dan hunter; Eve witch; Fay, Gus, Hal villagers
HUNT8 = ["werewolf", "werewolf", "seer", "hunter", "witch", "villager", "villager", "villager"]
NO_SHERIFF = {"sheriff": False}
EXTRAS = ("witch", "hunter", "cupid", "little-girl", "thief", "defender", "village-idiot",
          "elder", "scapegoat", "piper", "white-werewolf")
TIMEOUT = Action(None, "timeout")


def random_game(seed: int) -> tuple[State, Random]:
    """A random legal game setup: ruleset, player count, extra roles, options."""
    rng = Random(seed)
    ruleset = rng.choice(sorted(RULESETS))
    low, high = RULESETS[ruleset]["players"]
    players = rng.randint(low, high)
    add = [] if ruleset == "jp-standard" else rng.sample(EXTRAS, rng.randint(0, 4))
    cards = [r for r, c in sorted(recommended_deal(ruleset, players, add).items())
             for _ in range(c)]
    rng.shuffle(cards)
    if "thief" in cards[players:]:  # the thief is dealt, not left in the centre
        cards.remove("thief")
        cards.insert(0, "thief")
    options = {}
    for key in ("first_night_attack", "reveal_on_death", "sheriff"):
        if rng.random() < 0.3:
            options[key] = rng.random() < 0.5
    state = new_game(ruleset, NAMES[:players] + [f"P{i}" for i in range(players - len(NAMES))],
                     cards[:players], options, cards[players:], seed=rng.randrange(10**6))
    return state, rng


def random_steps(seed: int, timeouts: float = 0.05):
    """Play one random game; yield the state before each action (and at the end)."""
    state, rng = random_game(seed)
    for _ in range(3000):
        yield state
        if state.phase == "over":
            return
        if rng.random() < timeouts:
            act(state, TIMEOUT)
            continue
        seat = rng.choice(waiting_for(state))
        act(state, sample_uniform(legal_actions(state, seat), seat, rng))
    raise AssertionError("the game did not end")


def to_night(state: State, n: int) -> State:
    """Time every step out until night `n` is being played (nobody dies)."""
    while not (state.phase == "night" and state.n == n):
        act(state, TIMEOUT)
    return state


# --- 1. stale actions -----------------------------------------------------------

def test_a_stale_action_is_refused_and_changes_nothing_issue_stale_actions() -> None:
    """[issue 5] stale actions: a button pressed on a view of an earlier step must
    not land on the next one. `act(..., expect=N)` with N != state.acts raises
    StaleAction (an IllegalAction) naming both counts; the state is unchanged."""
    state = game("bga", ROLES8, [a("Cid", "inspect", "Ann")], options=NO_SHERIFF)
    assert state.acts == 1 and state.step == "wolves"
    log, acts = list(state.log), state.acts
    with pytest.raises(StaleAction, match=r"moved on.*you saw action 0.*now at 1"):
        act(state, Action(0, "attack", target=7), expect=0)
    assert issubclass(StaleAction, IllegalAction)
    assert state.log == log and state.acts == acts and state.picks == {}
    with pytest.raises(StaleAction):  # a timeout is checked too
        act(state, TIMEOUT, expect=2)
    assert state.log == log and state.step == "wolves"
    act(state, Action(0, "attack", target=7), expect=1)  # the right count is accepted
    assert state.acts == 2 and state.picks == {0: 7}
    act(state, TIMEOUT, expect=2)
    assert state.acts == 3 and state.step != "wolves"


def test_an_action_without_expect_is_not_checked_issue_stale_actions() -> None:
    """[issue 5] stale actions: `expect` is optional; None keeps the old behaviour."""
    state = game("bga", ROLES8, options=NO_SHERIFF)
    act(state, Action(2, "inspect", target=0), expect=None)
    assert state.acts == 1


# --- 2. pending and night_calls -------------------------------------------------

def test_pending_describes_a_night_step_rules_4_secrecy_of_the_call() -> None:
    """RULES.md §4 secrecy of the call, §1 timeouts ("every night action does
    nothing"): the seer's step is secret, timed by night_s, a timeout does
    nothing; its id is the index of the "step" event that opened it."""
    state = new_game("bga", NAMES[:8], ROLES8, NO_SHERIFF)
    p = pending(state)
    opened = max(i for i, e in enumerate(state.log) if e["e"] == "step")
    assert state.log[opened]["step"] == "seer"
    assert p == {
        "id": opened, "seq": 0, "step": "seer", "kind": "night", "phase": "night", "n": 1,
        "round": None, "candidates": None, "actor": None, "waiting": [2],
        "timer": "night_s", "on_timeout": "nothing",
        "calls": ["seer", "wolves"],  # the deck's cards (RULES.md §4 revised, [issue 16])
        "secret": True,
        # [issue 34]: no candidates' round, no speaking turns, no "ready" window
        "nominees": None, "defence": None, "turns": None, "ready": False,
    }
    json.dumps(p)
    act(state, Action(2, "inspect", target=0))
    w = pending(state)
    assert (w["kind"], w["step"], w["timer"], w["on_timeout"], w["secret"]) == (
        "wolves", "wolves", "pack_s", "close", True)  # [issue 16]: the pack's window
    assert w["id"] > p["id"] and w["seq"] == 1 and w["waiting"] == [0, 1]


def test_pending_vote_runoff_and_timeouts_rules_1_timeouts_rules_6_execution_vote() -> None:
    """RULES.md §1 timeouts (a missing vote follows vote_timeout), §6 execution
    vote and `runoff-once` [000]: round 1 is a "vote" on discussion_s, the runoff
    a new step ("runoff", extra_discussion_s) among the tied."""
    night = [a("Cid", "inspect", "Ann"), a("Ann", "attack", "Hal"), a("Bob", "attack", "Hal")]
    state = game("bga", ROLES8, night, options=NO_SHERIFF)
    p = pending(state)
    assert (p["kind"], p["step"], p["round"], p["candidates"], p["timer"], p["on_timeout"],
            p["calls"], p["secret"], p["phase"]) == (
        "vote", "vote", 1, None, "discussion_s", "right-neighbour", [], False, "day")
    for vote in votes("Ann>Cid", "Bob>Cid", "Cid>Ann", "Dan>Ann", "Eve>Cid", "Fay>Ann", "Gus>Gus"):
        act(state, Action(NAMES.index(vote["actor"]), "vote", target=NAMES.index(vote["target"])))
    r = pending(state)
    assert (r["kind"], r["step"], r["round"], r["candidates"], r["timer"], r["on_timeout"]) == (
        "runoff", "vote", 2, [0, 2], "extra_discussion_s", "right-neighbour")
    assert r["id"] > p["id"] and state.log[r["id"]] == {
        "e": "step", "step": "vote", "round": 2, "candidates": [0, 2], "a": state.acts}
    abstain = game("millers-hollow", ROLES8, night, options=NO_SHERIFF)
    assert pending(abstain)["on_timeout"] == "abstain"


def test_pending_election_rounds_rules_6_sheriff() -> None:
    """RULES.md §6 sheriff: the election is timed like a first vote, its re-vote
    among the tied like a runoff; a timeout follows vote_timeout for every vote
    (docs/rules.md "Timeouts": "any vote (election, execution vote, runoff)")."""
    night = [a("Cid", "inspect", "Ann"), a("Ann", "attack", "Hal"), a("Bob", "attack", "Hal")]
    state = game("bga", ROLES8, night)
    p = pending(state)
    assert (p["kind"], p["step"], p["round"], p["timer"], p["on_timeout"]) == (
        "election", "election", 1, "discussion_s", "right-neighbour")
    for seat, target in ((0, 2), (1, 2), (2, 0), (3, 0), (4, 5), (5, 6), (6, 5)):
        act(state, Action(seat, "vote", target=target))
    r = pending(state)
    assert (r["kind"], r["round"], r["candidates"], r["timer"]) == (
        "election", 2, [0, 2, 5], "extra_discussion_s")
    assert pending(game("millers-hollow", ROLES8, night))["on_timeout"] == "abstain"


def test_pending_prompts_and_the_end_rules_6_triggers() -> None:
    """RULES.md §6 (the hunter's shot, the sheriff's successor; "timeout: his left
    neighbour"), docs/rules.md "Timeouts": prompts are public, untimed by an
    option, and name their actor; the finished game points at its "over" event."""
    night = [a("Cid", "inspect", "Ann"), a("Ann", "attack", "Dan"), a("Bob", "attack", "Dan"),
             a("Eve", "potion", heal=False, poison=None)]
    state = game("millers-hollow", HUNT8, night)
    p = pending(state)
    assert (p["kind"], p["step"], p["actor"], p["waiting"], p["timer"], p["on_timeout"],
            p["secret"]) == ("prompt", "hunter", 3, [3], None, "nothing", False)
    act(state, Action(3, "shoot", target=5))
    for seat in (0, 1, 2, 4, 6, 7):  # the election: Cid
        act(state, Action(seat, "vote", target=2))
    assert state.sheriff == 2
    for seat, target in ((0, 2), (1, 2), (2, 0), (4, 2), (6, 2), (7, 2)):
        act(state, Action(seat, "vote", target=target))
    q = pending(state)
    assert (q["kind"], q["step"], q["actor"], q["on_timeout"], q["timer"]) == (
        "prompt", "appoint", 2, "left-neighbour", None)
    act(state, TIMEOUT)
    assert state.sheriff == 4  # his left neighbour (Dan is dead), as announced
    state = game("millers-hollow", HUNT8, [*night, a("Dan", "shoot", "Ann"),
                                            *votes("Bob>Cid", "Cid>Cid", "Eve>Cid", "Fay>Cid",
                                                   "Gus>Cid", "Hal>Cid"),
                                            *votes("Bob>Cid", "Cid>Bob", "Eve>Bob", "Fay>Bob",
                                                   "Gus>Bob", "Hal>Bob")])
    assert state.phase == "over"
    end = pending(state)
    assert state.log[end["id"]]["e"] == "over" and end["id"] == len(state.log) - 1
    assert (end["kind"], end["step"], end["waiting"], end["timer"], end["on_timeout"],
            end["calls"], end["secret"], end["round"]) == (
        "over", "over", [], None, None, [], False, None)


def test_pending_the_thiefs_timeout_rules_5_thief() -> None:
    """docs/rules.md "Timeouts": the thief keeps a villager card on a timeout, or
    takes centre card 0 when both centre cards are wolves [000][002][003]."""
    deal = ["thief", "werewolf", "seer", "villager", "villager", "villager", "villager",
            "villager"]
    plain = new_game("bga", NAMES[:8], deal, NO_SHERIFF, ["villager", "werewolf"])
    assert (pending(plain)["step"], pending(plain)["on_timeout"]) == ("thief", "villager")
    wolves = new_game("bga", NAMES[:8], deal, NO_SHERIFF, ["werewolf", "werewolf"])
    assert (pending(wolves)["step"], pending(wolves)["on_timeout"]) == ("thief", "swap-0")
    act(wolves, TIMEOUT)
    assert wolves.roles[0] == "werewolf"  # what on_timeout said


def test_pending_ids_are_new_per_step_and_survive_a_rebuild_issue_pending() -> None:
    """[issue pending] the hub keys its timers on the step's id: every new step
    (night step, vote round, prompt) gets a new id, the id stays while the step
    is open, and rebuild(log) gives the same id."""
    for seed in range(12):
        last: dict | None = None
        for state in random_steps(seed):
            p = pending(state)
            assert pending(rebuild(state.log)) == p
            assert state.log[p["id"]]["e"] in ("step", "over")
            assert all(e["e"] not in ("step", "over") for e in state.log[p["id"] + 1:])
            if last is not None:
                same_step = (last["step"], last["round"], last["actor"]) == (
                    p["step"], p["round"], p["actor"]) and last["n"] == p["n"]
                assert p["id"] >= last["id"]
                if p["id"] == last["id"]:
                    assert same_step
            last = p


def test_night_calls_per_ruleset_and_night_rules_4_night_order() -> None:
    """RULES.md §4 night order and secrecy of the call (revised, [issue 16]):
    with `secret_deck` every step the ruleset can have is called; thief and
    cupid on night 1 only, the white werewolf on even nights;
    first_night_attack=false drops the protectors on night 1. jp-standard's
    night is one window every night [004]."""
    secret = {**NO_SHERIFF, "secret_deck": True}
    mh = new_game("millers-hollow", NAMES[:8], ROLES8, secret)
    village = ["pyromaniac", "rumormonger"]  # after the seer, before the wolves (§4 Decision)
    assert night_calls(mh) == ["thief", "cupid", "defender", "seer", *village, "wolves",
                               "witch", "piper"]
    assert night_calls(to_night(mh, 2)) == ["defender", "seer", *village, "wolves",
                                            "white-werewolf", "witch", "piper"]
    assert night_calls(to_night(mh, 3)) == ["defender", "seer", *village, "wolves", "witch",
                                            "piper"]
    calm = new_game("bga", NAMES[:8], ROLES8, {"first_night_attack": False, "secret_deck": True})
    assert night_calls(calm) == ["thief", "cupid", "seer", *village, "wolves", "witch", "piper"]
    jp = new_game("jp-standard", NAMES[:7], ["werewolf", "seer", "madman", *["villager"] * 4])
    assert night_calls(jp) == ["actions"]
    assert night_calls(to_night(jp, 2)) == ["actions"]


def test_night_calls_are_the_decks_cards_rules_4_issue_16() -> None:
    """RULES.md §4 (revised): the night calls every card of the deck that
    acts tonight, dealt or in the centre, and no other."""
    base = new_game("millers-hollow", NAMES[:8], HUNT8, NO_SHERIFF)
    assert night_calls(base) == ["seer", "wolves", "witch"]
    thief = new_game("millers-hollow", NAMES[:8], ["thief", *HUNT8[1:]], NO_SHERIFF,
                     ["cupid", "werewolf"])
    assert night_calls(thief) == ["thief", "cupid", "seer", "wolves", "witch"]
    assert night_calls(to_night(thief, 2)) == ["seer", "wolves", "witch"]


def _deck_key(state: State) -> tuple:
    return tuple(sorted(state.deck)) if not state.opts["secret_deck"] else ()


def test_night_calls_never_depend_on_the_deal_or_the_living_rules_4_secrecy() -> None:
    """RULES.md §4 secrecy of the call: a card is called even when its holder
    is dead or it lies in the centre. Two games of the same ruleset, night,
    public options and deck (who holds which card, who is alive aside) get
    the same calls; with `secret_deck`, whatever the deck; the engine's
    current night step is always among them."""
    seen: dict[tuple, list[str]] = {}
    for seed in range(80):
        for state in random_steps(seed):
            if state.phase != "night":
                continue
            calls = night_calls(state)
            key = (state.ruleset, state.n, state.opts["first_night_attack"], _deck_key(state))
            assert seen.setdefault(key, calls) == calls, key
            if state.step in ("hunter", "appoint", "allow"):
                continue  # a dawn prompt: the night's calls are over
            assert state.step in calls, (state.step, calls)
            assert pending(state)["calls"] == calls
    # different deals really were compared: several games per (ruleset, night)
    assert len(seen) >= 6
    secret = {**NO_SHERIFF, "secret_deck": True}
    big = new_game("millers-hollow", NAMES[:12],
                   ["thief", "cupid", "defender", "seer", "werewolf", "werewolf",
                    "white-werewolf", "witch", "piper", "little-girl", "villager", "villager"],
                   secret, ["villager", "villager"])
    small = new_game("millers-hollow", NAMES[:8], ROLES8, secret)
    assert night_calls(big) == night_calls(small)
    assert night_calls(new_game("millers-hollow", NAMES[:8], ROLES8, NO_SHERIFF)) != \
        night_calls(big)


# --- 3. Action.from_dict --------------------------------------------------------

def test_action_from_dict_inverts_to_dict_for_random_games_docs_replay() -> None:
    """docs/replay.md actions: the hub receives actions as JSON; from_dict(to_dict(a))
    gives back the same action for every action a random game plays."""
    count = 0
    for seed in range(15):
        state, rng = random_game(seed)
        while state.phase != "over":
            seat = rng.choice(waiting_for(state))
            action = sample_uniform(legal_actions(state, seat), seat, rng)
            wire = json.loads(json.dumps(action.to_dict()))
            assert Action.from_dict(wire) == action
            act(state, Action.from_dict(wire))
            count += 1
    assert Action.from_dict(json.loads(json.dumps(TIMEOUT.to_dict()))) == TIMEOUT
    assert Action.from_dict({"do": "timeout"}) == TIMEOUT
    assert Action.from_dict({"actor": 3, "do": "link", "targets": [1, 2]}).targets == (1, 2)
    assert count > 500


@pytest.mark.parametrize("bad", [
    None, [], "vote", 3,
    {}, {"actor": 1}, {"actor": 1, "do": "dance"}, {"actor": 1, "do": 7},
    {"do": "vote", "target": 2}, {"actor": None, "do": "vote", "target": 2},
    {"actor": 1, "do": "timeout"},
    {"actor": True, "do": "vote", "target": 2}, {"actor": 1.0, "do": "vote", "target": 2},
    {"actor": "1", "do": "vote", "target": 2}, {"actor": 1, "do": "vote", "target": False},
    {"actor": 1, "do": "vote", "target": 2.0}, {"actor": 1, "do": "vote", "target": [2]},
    {"actor": 1, "do": "vote", "target": 2, "extra": 1},
    {"actor": 1, "do": "link", "targets": 2}, {"actor": 1, "do": "link", "targets": "23"},
    {"actor": 1, "do": "link", "targets": [2, True]}, {"actor": 1, "do": "link", "targets": {}},
    {"actor": 1, "do": "potion", "heal": 1, "poison": None},
    {"actor": 1, "do": "potion", "heal": "yes", "poison": None},
    {"actor": 1, "do": "potion", "heal": False, "poison": 2.5},
    {"actor": 1, "do": "swap", "card": "0"}, {"actor": 1, "do": "spy", "mode": 3},
    {"actor": 1, "do": "spy", "mode": "loud"}, {"actor": 1, "do": "spy", "mode": "bold",
                                                 "outcome": "maybe"},
    {1: 2, "do": "vote"},
])
def test_action_from_dict_refuses_malformed_input_docs_replay(bad: object) -> None:
    """docs/replay.md actions ("a malformed action" exits 2, never a traceback):
    from_dict raises IllegalAction, never TypeError or KeyError, for every
    malformed input: not an object, unknown keys or action, a missing actor,
    bools/floats/strings for seats, non-list targets, a non-bool heal."""
    with pytest.raises(IllegalAction):
        Action.from_dict(bad)


# --- 4, 5. views: "seq" and seat checks -----------------------------------------

def test_every_view_carries_seq_issue_stale_actions() -> None:
    """[issue 5] stale actions: each view says which action count it shows, so
    the hub can send it back as `expect`."""
    state = game("bga", ROLES8, [a("Cid", "inspect", "Ann")], options=NO_SHERIFF)
    for view in (public_view(state), view_for(state, 0), view_for(state, 5),
                 view_for(state, None)):
        assert view["seq"] == 1
    act(state, Action(0, "attack", target=7), expect=view_for(state, 0)["seq"])
    assert public_view(state)["seq"] == view_for(state, 1)["seq"] == 2


@pytest.mark.parametrize("seat", [-1, 8, 99, True, False, 1.0, "1", [1]])
def test_view_for_refuses_a_seat_that_does_not_exist_rules_1_seats(seat: object) -> None:
    """RULES.md §1 seats are indexes into the players list: view_for refuses
    anything else (-1 would read the last player's card, True seat 1's)."""
    state = new_game("bga", NAMES[:8], ROLES8, NO_SHERIFF)
    with pytest.raises(IllegalAction, match="no player at seat"):
        view_for(state, seat)  # type: ignore[arg-type]
    assert view_for(state, 7)["seat"] == 7


# --- 6. announcements -----------------------------------------------------------

def test_announcements_of_a_scripted_game_rules_6_day_rules_9_script() -> None:
    """RULES.md §6 (dawn: the night's deaths with cards when reveal_on_death, then
    triggers; hunter's shot; election; execution) and §9 (announcements follow
    [004]'s templates): the exact announcements of a short game."""
    state = game("millers-hollow", HUNT8, [
        a("Cid", "inspect", "Ann"), a("Ann", "attack", "Dan"), a("Bob", "attack", "Dan"),
        a("Eve", "potion", heal=False, poison=None), a("Dan", "shoot", "Ann"),
        *votes("Bob>Cid", "Cid>Cid", "Eve>Cid", "Fay>Cid", "Gus>Cid", "Hal>Cid"),
        *votes("Bob>Cid", "Cid>Bob", "Eve>Bob", "Fay>Bob", "Gus>Bob", "Hal>Bob")])
    assert announcements(state) == [
        {"kind": "dawn", "time": "night 1", "n": 1,
         "deaths": [{"seat": 3, "name": "Dan", "role": "hunter", "cause": None}]},
        {"kind": "death", "time": "night 1", "seat": 0, "name": "Ann",
         "role": "werewolf", "cause": "hunter"},
        {"kind": "tally", "time": "day 1", "step": "election", "round": 1,
         "votes": {"1": 2, "2": 2, "4": 2, "5": 2, "6": 2, "7": 2}, "counts": {"2": 6},
         "top": 6, "tie": None,
         "ballots": [{"voter": v, "target": 2, "weight": 1} for v in (1, 2, 4, 5, 6, 7)],
         "extra": []},
        {"kind": "sheriff", "time": "day 1", "seat": 2, "how": "elected"},
        {"kind": "tally", "time": "day 1", "step": "vote", "round": 1,
         "votes": {"1": 2, "2": 1, "4": 1, "5": 1, "6": 1, "7": 1},
         "counts": {"2": 1, "1": 6}, "top": 6, "tie": None,
         # [issue 15] the tally says how it was made: the sheriff's ballot weighs 2
         "ballots": [{"voter": 1, "target": 2, "weight": 1}, {"voter": 2, "target": 1, "weight": 2},
                     *({"voter": v, "target": 1, "weight": 1} for v in (4, 5, 6, 7))],
         "extra": []},
        {"kind": "death", "time": "day 1", "seat": 1, "name": "Bob",
         "role": "werewolf", "cause": "execution"},
        {"kind": "over", "time": "day 1", "winner": "village",
         "winners": [2, 3, 4, 5, 6, 7], "reveal": HUNT8},
    ]


def test_announcements_without_reveal_peaceful_night_no_execution_rules_9_004() -> None:
    """RULES.md §9 [004] templates: "role withheld when reveal_on_death=false",
    "no attack" (a dawn with no deaths: jp-standard has no attack on night 1);
    a vote where everyone abstains executes nobody."""
    jp = ["werewolf", "seer", "madman", "villager", "villager", "villager", "villager"]
    state = game("jp-standard", jp, [a("Bob", "inspect", "Ann"), a(None, "timeout"),
                                     a("Bob", "inspect", "Cid"), a("Ann", "attack", "Dan")])
    assert announcements(state) == [
        {"kind": "dawn", "time": "night 1", "n": 1, "deaths": []},
        {"kind": "tally", "time": "day 1", "step": "vote", "round": 1,
         "votes": {str(i): None for i in range(7)}, "counts": {}, "top": 0, "tie": None,
         "ballots": [{"voter": i, "target": None, "weight": 1} for i in range(7)], "extra": []},
        {"kind": "no-execution", "time": "day 1"},
        {"kind": "dawn", "time": "night 2", "n": 2,
         "deaths": [{"seat": 3, "name": "Dan", "role": None, "cause": None}]},
    ]


def test_announcements_of_a_revealed_idiot_rules_5_village_idiot() -> None:
    """RULES.md §5 village idiot [002][003]: voted out, he is revealed and survives;
    the table is told his card, nobody dies."""
    idiot = ["werewolf", "werewolf", "seer", "village-idiot", "villager", "villager",
             "villager", "villager"]
    state = game("bga", idiot, [a("Cid", "inspect", "Ann"), a("Ann", "attack", "Hal"),
                                a("Bob", "attack", "Hal"),
                                *votes("Ann>Dan", "Bob>Dan", "Cid>Dan", "Dan>Ann", "Eve>Dan",
                                       "Fay>Dan", "Gus>Dan")], options=NO_SHERIFF)
    kinds = [(x["kind"], x.get("seat")) for x in announcements(state)]
    assert kinds == [("dawn", None), ("tally", None), ("revealed", 3)]
    assert announcements(state)[-1] == {"kind": "revealed", "time": "day 1",
                                        "seat": 3, "name": "Dan", "role": "village-idiot"}


def test_announcements_keep_the_nights_secrets_rules_4_secrecy_of_the_call() -> None:
    """RULES.md §4 secrecy ("nothing public may reveal who acted at night") and §6
    (deaths are announced at dawn): in random games, nothing is announced during
    the night's steps; no announcement shows the card of a living, unrevealed
    player before the end; announced deaths are exactly public_view's, in its
    order; everything is JSON-ready and dated by seq."""
    for seed in range(80):
        night_start: list[dict] | None = None
        night_n = 0
        for state in random_steps(seed):
            said = announcements(state)
            assert json.loads(json.dumps(said)) == said
            in_night = state.phase == "night" and state.step not in ("hunter", "appoint", "allow")
            if in_night:
                if night_start is None or state.n != night_n:
                    # a new night (one action can end a night, hold a day nobody
                    # can vote in, and begin the next: the day's news is told)
                    night_start, night_n = said, state.n
                assert said == night_start, "an announcement during the night"
            else:
                night_start = None
            over = state.phase == "over"
            assert [x["kind"] for x in said].count("over") == (1 if over else 0)
            assert all("seq" not in x for x in said)  # an action count tells night activity
            shown = []
            for x in said:
                if x["kind"] == "dawn":
                    shown += x["deaths"]
                    assert [d["seat"] for d in x["deaths"]] == sorted(
                        d["seat"] for d in x["deaths"])
                elif x["kind"] in ("death", "revealed"):
                    shown.append(x)
            for x in shown:
                if x["role"] is not None and not over:
                    assert not state.alive[x["seat"]] or x["seat"] in state.revealed
                if "cause" in x and not state.opts["reveal_on_death"]:
                    assert x["role"] is None  # a death, its card withheld
            deaths = [(x["seat"], x["cause"]) for x in shown if "cause" in x]
            assert deaths == [(d["seat"], d["cause"]) for d in public_view(state)["deaths"]]
            dawns = [x["n"] for x in said if x["kind"] == "dawn"]
            assert dawns == list(range(1, len(dawns) + 1))
