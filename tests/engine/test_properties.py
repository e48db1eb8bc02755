"""Property tests: random legal games for every ruleset, player count, extra
roles and option overrides, checked against invariants drawn from the rules.

Sources are cited per test: RULES.md (/work/shared/RULES.md), docs/rules.md
and docs/replay.md. Each game is driven step by step here (a seat from
`waiting_for`, a Choice from `legal_actions`, an action from `Choice.sample`),
with an occasional `timeout`, so every random decision comes from one seed
that hypothesis prints on failure.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import warnings
from dataclasses import dataclass, field
from random import Random

import pytest
from hypothesis import HealthCheck, Phase, event, given, note, settings
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from companion.engine import (
    OPTION_VALUES,
    ROLES,
    Action,
    IllegalAction,
    State,
    act,
    announcements,
    legal_actions,
    new_game,
    public_view,
    rebuild,
    recommended_deal,
    undo,
    view_for,
    waiting_for,
)

with warnings.catch_warnings():
    # hypothesis imports this module (libcst, mypy_extensions) only to report a
    # failure; under the project's filterwarnings=error its DeprecationWarning
    # would hide the failure behind an INTERNALERROR, so import it quietly now.
    warnings.simplefilter("ignore")
    try:
        import hypothesis.extra._patching  # noqa: F401
    except ImportError:
        pass

RULESETS = ("millers-hollow", "bga", "jp-standard")
PLAYERS = {"millers-hollow": (8, 18), "bga": (8, 18), "jp-standard": (7, 15)}
EVERY_COUNT = [(r, n) for r in RULESETS for n in range(PLAYERS[r][0], PLAYERS[r][1] + 1)]
#: The special roles a Millers Hollow / BGA table may add (RULES.md §2, §3).
EXTRAS = ("witch", "hunter", "cupid", "little-girl", "thief", "defender", "village-idiot",
          "elder", "scapegoat", "piper", "white-werewolf", "pyromaniac", "rumormonger")
OUTCOMES = {"village", "werewolves", "lovers", "piper", "white-werewolf", "fox", "draw"}
PROMPTS = ("hunter", "appoint", "allow", "pardon")
#: "act" events a dead player may send: the hunter's shot, the dying sheriff's
#: successor, the scapegoat's voters (RULES.md §6, docs/rules.md §7.2).
DEAD_MAY = {"shoot", "appoint", "allow"}
#: Deaths announced with their cause (docs/rules.md §9).
PUBLIC_CAUSES = {"execution", "hunter", "scapegoat", "barber"}
MAX_ACTIONS = 3000
#: Keys that only the game master's view may carry (docs/rules.md §9).
GM_ONLY_KEYS = {"lovers", "charmed", "center", "night", "votes", "waiting", "powers_lost",
                "actions_applied"}

#: No shrinking: a game is fixed by its seed, so a shrunk example is just
#: another game, and shrinking a failure would take minutes. The failing
#: Setup (with its seed) is printed as it was drawn.
SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow],
                phases=[Phase.explicit, Phase.reuse, Phase.generate])


# --- building random games ------------------------------------------------------

@dataclass
class Setup:
    ruleset: str
    players: list[str]
    deal: list[str] | None
    options: dict
    center: list[str]
    seed: int
    add: list[str] = field(default_factory=list)
    timeout_p: float = 0.03  # how often the open step times out instead
    eager: bool = False  # prefer acting to passing (more charms, potions, shots)

    def new(self) -> State:
        return new_game(self.ruleset, self.players, self.deal, self.options, self.center,
                        self.seed)


OPTION_OVERRIDES = st.fixed_dictionaries({}, optional={
    key: st.sampled_from(values) for key, values in OPTION_VALUES.items() if values is not None
})


@st.composite
def setups(draw, ruleset: str, players: int | None = None) -> Setup:
    """A recommended deal (RULES.md §3) with random extra roles, dealt at random;
    with the thief, players + 2 cards and two in the centre."""
    low, high = PLAYERS[ruleset]
    n = players if players is not None else draw(st.integers(low, high))
    add: list[str] = []
    if ruleset != "jp-standard":
        villagers = recommended_deal(ruleset, n)["villager"]
        add = draw(st.lists(st.sampled_from(EXTRAS), unique=True,
                            max_size=min(villagers, len(EXTRAS))))
    options = draw(OPTION_OVERRIDES)
    seed = draw(st.integers(0, 2**31 - 1))
    counts = recommended_deal(ruleset, n, add)
    deck = [r for r, c in sorted(counts.items()) for _ in range(c)]
    center: list[str] = []
    if "thief" in deck:
        assert len(deck) == n + 2  # RULES.md §3: players + 2 cards with the thief
        deck.remove("thief")
        deck = list(draw(st.permutations(deck)))
        center, deck = deck[:2], deck[2:]
        deck.insert(draw(st.integers(0, n - 1)), "thief")
        deal: list[str] | None = deck
    elif not add and draw(st.booleans()):
        deal = None  # the engine's own random deal from the seed
    else:
        deal = list(draw(st.permutations(deck)))
    players = [f"P{i}" for i in range(n)]
    timeout_p = draw(st.sampled_from((0.0, 0.03, 0.03, 0.2)))
    eager = draw(st.booleans())
    return Setup(ruleset, players, deal, options, center, seed, add, timeout_p, eager)


def any_setup() -> st.SearchStrategy[Setup]:
    return st.sampled_from(RULESETS).flatmap(setups)


#: The clock: a step still open after this many actions in a row times out
#: (RULES.md §1 Timeouts; the wolves may keep disagreeing until the timer).
STEP_CLOCK = 60


def _open_for(state: State) -> int:
    """How many actions the open step has taken so far."""
    k = 0
    for e in reversed(state.log):
        if e["e"] in ("step", "night", "day"):
            break
        k += e["e"] == "act"
    return k


def next_action(state: State, rng: Random, timeout_p: float = 0.03,
                eager: bool = False) -> Action:
    """One random legal action (or, sometimes, a timeout of the open step)."""
    seats = waiting_for(state)
    assert seats, f"stuck: nobody to act at {state.step!r} ({state.time()})"
    if rng.random() < timeout_p or _open_for(state) >= STEP_CLOCK:
        return Action(None, "timeout")
    seat = rng.choice(seats)
    choices = legal_actions(state, seat)
    assert choices, f"seat {seat} is waited for but has no legal action at {state.step!r}"
    acting = [c for c in choices if c.do != "pass"]
    choice = rng.choice(acting if eager and acting and rng.random() < 0.9 else choices)
    action = choice.sample(seat, rng)
    assert choice.allows(action)
    return action


def play(setup: Setup, each=None) -> State:
    """Play the game to its end; call `each(state, action)` before every action."""
    try:
        note(f"setup: {setup!r}")
    except InvalidArgument:  # outside hypothesis (the volume test): the seed is in its id
        pass
    state = setup.new()
    rng = Random(setup.seed)
    for _ in range(MAX_ACTIONS):
        if state.phase == "over":
            return state
        action = next_action(state, rng, setup.timeout_p, setup.eager)
        if each is not None:
            each(state, action)
        act(state, action)
    raise AssertionError(f"no end after {MAX_ACTIONS} actions ({state.time()} {state.step})")


# --- invariants -----------------------------------------------------------------

def is_wolf(role: str) -> bool:
    return role in ("werewolf", "white-werewolf")


def facts(state: State) -> dict:
    """Every field of the state except pure caches (memo...)."""
    return {f.name: getattr(state, f.name) for f in dataclasses.fields(state)
            if not f.name.startswith("memo")}


def mixed(state: State) -> bool:
    """RULES.md §5 cupid: one lover a wolf (or the piper) and the other not."""
    a, b = (state.roles[i] for i in state.lovers)
    return is_wolf(a) != is_wolf(b) or (a == "piper") != (b == "piper")


def check_outcome(state: State) -> None:
    """RULES.md §7: a finished game names one outcome; winners are players
    (in seat order, docs/replay.md), none for a draw."""
    assert state.phase == "over"
    assert state.winner in OUTCOMES, state.winner
    winners = list(state.winners)
    assert all(isinstance(w, int) and 0 <= w < state.size for w in winners), winners
    assert winners == sorted(set(winners)), winners
    if state.winner == "draw":
        assert winners == []
    overs = [e for e in state.log if e["e"] == "over"]
    assert len(overs) == 1 and state.log[-1]["e"] == "over"
    up = [i for i in range(state.size) if state.alive[i]]
    roles = state.roles
    if state.winner == "lovers":
        assert state.lovers and sorted(up) == sorted(state.lovers)
        assert winners == sorted(state.lovers)
    elif state.winner == "white-werewolf":
        assert len(up) == 1 and roles[up[0]] == "white-werewolf"
    elif state.winner == "village":
        assert not any(is_wolf(roles[i]) for i in up)
        assert not any(roles[i] == "fox" for i in up)  # [004]: the fox wins instead
        assert all(ROLES[roles[w]].team == "village" for w in winners)
    elif state.winner == "werewolves":
        assert any(is_wolf(roles[i]) for i in up)
        assert not any(roles[i] == "fox" for i in up)
        assert all(roles[w] in ("werewolf", "madman") for w in winners)
    elif state.winner == "piper":
        piper = [i for i in up if roles[i] == "piper"]
        assert piper and all(i in state.charmed for i in up if i != piper[0])
    elif state.winner == "fox":
        assert any(roles[i] == "fox" for i in up)


def check_dead_never_act(state: State) -> None:
    """RULES.md §1/§6: only the living act, except the dead hunter's shot, the
    dying sheriff's successor and the scapegoat's voters."""
    alive = [True] * state.size
    step, prompted = None, None
    for e in state.log:
        if e["e"] == "step":
            step, prompted = e["step"], e.get("actor")
        elif e["e"] == "died":
            assert alive[e["seat"]], f"seat {e['seat']} died twice"
            alive[e["seat"]] = False
        elif e["e"] == "act" and e.get("actor") is not None:
            if alive[e["actor"]]:
                continue
            # a dead player acts only at his own death prompt: shoot/appoint/allow, or
            # the hunter's pass
            assert step in PROMPTS and e["actor"] == prompted, (step, e)
            assert e["do"] in DEAD_MAY or (step == "hunter" and e["do"] == "pass"), (step, e)
    assert alive == state.alive


def check_potions(state: State) -> None:
    """RULES.md §5 witch: one healing potion, one poison, each once per game."""
    heals = [e for e in state.log if e["e"] == "act" and e["do"] == "potion" and e["heal"]]
    poisons = [e for e in state.log if e["e"] == "act" and e["do"] == "potion"
               and e["poison"] is not None]
    assert len(heals) <= 1 and len(poisons) <= 1, (heals, poisons)
    if state.opts.get("witch_single_potion"):  # one potion for the game [003] (§5 witch)
        assert len(heals) + len(poisons) <= 1, (heals, poisons)
        assert state.potions == {"heal": not (heals or poisons),
                                 "poison": not (heals or poisons)}
        return
    assert state.potions == {"heal": not heals, "poison": not poisons}


def check_rebuild(state: State) -> None:
    """docs/replay.md / engine: rebuild(log) reproduces the same game."""
    again = rebuild(state.log)
    assert again.roles == state.roles
    assert again.alive == state.alive
    assert again.winner == state.winner and again.winners == state.winners
    assert again.deaths == state.deaths
    assert again.sheriff == state.sheriff and again.step == state.step
    assert facts(again) == facts(state)  # "reproduces the state exactly" (state.py)
    # the hub stores the log as JSON (SQLite) and rebuilds from it after a power cut
    stored = json.loads(json.dumps(state.log))
    assert facts(rebuild(stored)) == facts(state)


def check_no_premature_end(state: State) -> None:
    """RULES.md §7: the win is checked after every batch of deaths, so while
    the game waits on an ordinary step (not a death prompt) nobody has won."""
    if state.phase == "over" or state.step in PROMPTS or state.step == "thief":
        return  # (at the thief's step the wolves' cards may still lie in the centre)
    up = [i for i in range(state.size) if state.alive[i]]
    roles = state.roles
    assert len(up) >= 2, f"{len(up)} alive but the game goes on"
    assert any(is_wolf(roles[i]) for i in up), "no wolf alive but the game goes on (§7.5)"
    assert not all(roles[i] == "werewolf" for i in up), "only wolves alive (§7.6)"
    if state.lovers and sorted(up) == sorted(state.lovers):
        a, b = (roles[i] for i in state.lovers)
        assert not (is_wolf(a) != is_wolf(b) or (a == "piper") != (b == "piper")), \
            "mixed lovers alone alive (§7.2)"
    if state.phase == "day":  # the night's charms were counted at dawn (§5 piper)
        # a piper in mixed lovers has the lovers' goal (§5 cupid [002])
        piper = [i for i in up if roles[i] == "piper" and not (
            state.lovers and i in state.lovers and mixed(state))]
        assert not (piper and all(i in state.charmed for i in up if i != piper[0])), \
            "every living player charmed (§7.3)"


def check_public_view(state: State) -> None:
    """RULES.md §4 secrecy, docs/rules.md §9: the table never sees a living,
    unrevealed card before the end, nor which night step is open, nor the
    cause of a night death."""
    pv = public_view(state)
    over = state.phase == "over"
    assert not GM_ONLY_KEYS & set(pv), sorted(GM_ONLY_KEYS & set(pv))
    for p in pv["players"]:
        j = p["seat"]
        if p["role"] is not None:
            assert p["role"] == state.roles[j]
            assert over or j in state.revealed or (
                not state.alive[j] and state.opts["reveal_on_death"]), (j, p)
    if state.phase == "night" and state.step not in PROMPTS:
        assert pv["step"] == f"night {state.n}", pv["step"]
    # the same deaths, causes only where public; a night's hidden-cause deaths
    # in seat order, so their order does not tell how they died
    want = sorted((seat, time, cause if cause in PUBLIC_CAUSES else None)
                  for seat, cause, time in state.deaths)
    assert sorted((d["seat"], d["time"], d["cause"]) for d in pv["deaths"]) == want
    assert [d["time"] for d in pv["deaths"]] == [t for _, _, t in state.deaths]
    run: list[int] = []
    run_time = None
    for d in pv["deaths"] + [{"time": None, "cause": "end", "seat": -1}]:
        if d["time"] == run_time and d["cause"] is None:
            run.append(d["seat"])
            continue
        assert run == sorted(run), pv["deaths"]
        hidden_night = d["time"] and d["time"].startswith("night") and d["cause"] is None
        run, run_time = ([d["seat"]], d["time"]) if hidden_night else ([], None)


def _learned_by_seat(state: State) -> tuple[dict[int, dict[int, set]], dict[int, dict[int, set]]]:
    """One pass over the log: per seat, the cards its seer's inspections
    showed, and (RULES.md §8) the cards the confessor was shown and the
    wolves the baker found."""
    inspected: dict[int, dict[int, set]] = {}
    village: dict[int, dict[int, set]] = {}
    for e in state.log:
        if e["e"] == "act" and e["do"] == "inspect":
            inspected.setdefault(e["actor"], {}).setdefault(e["target"], set()).add(e["result"])
        elif e["e"] == "act" and e["do"] == "confess":
            village.setdefault(e["actor"], {}).setdefault(e["target"], set()).add(e["result"])
        elif e["e"] == "baker" and e["wolf"] is not None:
            village.setdefault(e["seat"], {}).setdefault(e["wolf"], set()).add("werewolf")
    return inspected, village


def check_player_views(state: State) -> None:
    """RULES.md §4/§5, docs/rules.md §9: a player learns another's card only
    where a rule grants it; group lists only to their members."""
    over = state.phase == "over"
    roles = state.roles
    seer_role = state.opts["seer_sees"] == "role"
    lovers = set(state.lovers or ())
    inspected, village = _learned_by_seat(state)
    for seat in range(state.size):
        v = view_for(state, seat)
        assert v["role"] == roles[seat]
        assert not GM_ONLY_KEYS & set(v), (seat, sorted(GM_ONLY_KEYS & set(v)))
        if roles[seat] != "witch":
            assert "potions" not in v
        seen = {j: set(c) for j, c in inspected.get(seat, {}).items()} if seer_role else {}
        for j, cards in village.get(seat, {}).items():
            seen.setdefault(j, set()).update(cards)
        for p in v["players"]:
            j = p["seat"]
            if j == seat:
                assert p["role"] == roles[seat]
                continue
            if p["role"] is None:
                continue
            granted = set()
            if over or (not state.alive[j] and state.opts["reveal_on_death"]) \
                    or (j in state.revealed and roles[j] == "village-idiot"):
                granted.add(roles[j])
            if is_wolf(roles[seat]) and is_wolf(roles[j]):
                granted.add("werewolf")  # the white werewolf passes for one [000]
            if roles[seat] == roles[j] == "freemason":
                granted.add("freemason")
            granted |= seen.get(j, set())
            assert p["role"] in granted, (
                f"seat {seat} ({roles[seat]}) sees seat {j} as {p['role']!r}; granted {granted}")
        knows = v.get("knows", {})
        assert set(knows) <= {"pack", "freemasons", "lover", "charmed"}, knows
        if "pack" in knows:
            assert is_wolf(roles[seat])
            assert set(knows["pack"]) == {i for i, r in enumerate(roles) if is_wolf(r)}
        if "freemasons" in knows:
            assert roles[seat] == "freemason"
        if "lover" in knows:
            assert seat in lovers and knows["lover"] == [next(iter(lovers - {seat}))]
        if "charmed" in knows:
            assert seat in state.charmed or roles[seat] == "piper"
        for r in v["results"]:
            kind = r["kind"]
            if kind == "inspect":
                assert r["target"] in inspected.get(seat, {})
            elif kind == "lover":
                assert seat in lovers
            elif kind == "victim":
                assert roles[seat] == "witch"
            elif kind == "centre":
                assert state.dealt[seat] == "thief"
            elif kind == "medium":
                assert roles[seat] == "medium"
            elif kind == "spy":
                assert roles[seat] == "little-girl"
            elif kind == "confess":
                assert r["target"] in village.get(seat, {})
            elif kind == "baker":
                assert "baker" in (state.dealt_prof[seat], state.prof[seat])
        # RULES.md §8: his own profession only; no standing building in public
        if state.village:
            assert v["profession"]["id"] == state.prof[seat]
        assert set(v.get("village", {})) <= {"professions", "burned", "poster", "silenced"}
        # a dead player, or one not called, sees only "night N" at night (§4)
        if state.phase == "night" and state.step not in PROMPTS and not v["actions"]:
            assert v["step"] == f"night {state.n}"
    gm = view_for(state, None)
    assert [p["role"] for p in gm["players"]] == roles
    # the hub sends views as JSON: every view must survive a round trip
    for seat in (None, *range(state.size)):
        v = view_for(state, seat)
        assert json.loads(json.dumps(v)) == v


def check_prompts_after_dawn(state: State) -> None:
    """RULES.md §1/§6: deaths are announced at dawn, then their triggers run —
    so a night death prompt only opens after that night's resolution."""
    if state.phase == "night" and state.step in PROMPTS:
        night = max(i for i, e in enumerate(state.log) if e["e"] == "night")
        assert any(e["e"] == "resolve" for e in state.log[night:])

NIGHT_ORDER = ("thief", "cupid", "defender", "seer", "pyromaniac", "rumormonger", "knight",
               "wolves", "white-werewolf", "witch", "piper")
#: docs/replay.md's causes; `elder`: a revealed idiot dying with the elder
#: (option idiot_dies_with_elder, RULES.md §5 elder [003]), a trigger of
#: either phase like a heartbreak.
CAUSES = {"werewolves", "poison", "hunter", "execution", "heartbreak", "scapegoat",
          "white-werewolf", "seer", "barber", "fire", "elder"}
NIGHT_CAUSES = {"werewolves", "poison", "white-werewolf", "seer", "fire"}
DAY_CAUSES = {"execution", "scapegoat", "barber"}


def _check_night_calls(state: State, n: int, steps: list[str]) -> None:
    """RULES.md §4: the night's steps come in order; thief and cupid on night 1
    only; the white werewolf on even nights; no attack (so no wolves' step and
    no protector) on night 1 without first_night_attack. jp-standard's night
    is one step, every night role at once ([issue 16]; its acts are checked
    by `audit_log`)."""
    if state.ruleset == "jp-standard":
        assert steps in ([], ["actions"]), (n, steps)
        return
    idx = [NIGHT_ORDER.index(s) for s in steps]
    assert idx == sorted(set(idx)), f"night {n} steps out of order: {steps}"
    if n != 1:
        assert not {"thief", "cupid"} & set(steps), (n, steps)
    if n % 2:
        assert "white-werewolf" not in steps, (n, steps)
    if n == 1 and not state.opts["first_night_attack"]:
        assert not {"wolves", "defender", "knight"} & set(steps), (n, steps)


def audit_log(state: State) -> None:
    """Rules checked against the event log of a finished game:
    RULES.md §4 (night order), §5 (seer's answer, defender, knight, piper,
    wolves' victim, heartbreak), §6 (death dates, the vote: lovers, self-vote,
    runoff candidates, revealed idiot, the sheriff's double vote, who is
    executed), docs/replay.md (death causes)."""
    roles, opts, size = state.roles, state.opts, state.size
    alive = [True] * size
    phase, n = "", 0
    steps: list[str] = []
    protected = last_protected = None
    sheriff = None
    lovers: tuple[int, int] | None = None
    charmed: set[int] = set()
    revealed: set[int] = set()
    step, candidates = "", None
    nominees: list[int] | None = None  # vote_mode=candidates (RULES.md §6)
    expect_execution: int | None = None  # after an untied execution vote
    for e in state.log:
        kind = e["e"]
        if expect_execution is not None and kind in ("died", "revealed", "night", "over"):
            assert (kind == "died" and e["seat"] == expect_execution
                    and e["cause"] == "execution") or (
                kind == "revealed" and e["seat"] == expect_execution), (expect_execution, e)
            expect_execution = None
        if kind == "night":
            if phase == "night":
                raise AssertionError("two nights in a row")
            phase, n, steps = "night", e["n"], []
            last_protected, protected = protected, None
        elif kind == "day":
            _check_night_calls(state, n, steps)
            assert e["n"] == n, "day N follows night N (§1)"
            phase = "day"
        elif kind == "step":
            step = e["step"]
            if "round" in e:
                candidates = e.get("candidates")
                nominees = e.get("nominees")
                assert nominees is None or (e["round"] >= 2 and opts["vote_mode"] ==
                                            "candidates"), e
            if phase == "night" and step not in PROMPTS:
                steps.append(step)
        elif kind == "act":
            do, actor = e["do"], e.get("actor")
            named = [e[k] for k in ("target", "poison") if e.get(k) is not None]
            named += list(e.get("targets", []))
            assert all(alive[t] for t in named), f"{do} names a dead player: {e}"
            if phase == "night" and n == 1 and not opts["first_night_attack"]:
                assert do not in ("attack", "guard", "protect"), f"night 1 has no attack: {e}"
            if do == "inspect":
                t = e["target"]
                want = roles[t] if opts["seer_sees"] == "role" else (
                    "wolf" if is_wolf(roles[t]) else "human")
                assert e["result"] == want and t != actor, (e, roles[t])
            elif do == "protect":
                protected = e["target"]
                assert protected != last_protected, "defender: same player twice in a row"
            elif do == "guard":
                protected = e["target"]
                assert protected != actor, "knight guards himself"
            elif do == "charm":
                # §5 piper: two living players not yet charmed, never himself; one
                # when only one can still be charmed
                names = list(e.get("targets") or []) + (
                    [e["target"]] if e.get("target") is not None else [])
                free = [i for i in range(size) if alive[i] and i != actor and i not in charmed]
                assert len(set(names)) == len(names) == min(2, len(free)), (e, free)
                assert set(names) <= set(free), (e, free)
                charmed |= set(names)
            elif do == "link":
                lovers = tuple(e["targets"])
            elif do == "pardon":  # RULES.md §8 lord: the execution is cancelled
                expect_execution = None
            elif do == "vote" and e.get("target") is not None:
                t = e["target"]
                assert actor not in revealed, "a revealed idiot votes (§6)"
                if candidates is not None:
                    assert t in candidates, ("runoff vote outside the tied", e)
                if nominees is not None and step == "vote":  # RULES.md §6 [003] variant
                    assert actor not in nominees, ("a candidate votes after round 1", e)
                if step == "vote":
                    assert not (lovers and {actor, t} == set(lovers)), "votes for his lover"
                    assert opts["self_vote"] or t != actor, "self-vote with self_vote=false"
        elif kind == "attack":
            t = e["target"]
            if t is not None:
                assert alive[t] and not is_wolf(roles[t]), ("wolves attack a wolf", e)
                assert not e["caught"] or roles[t] == "little-girl"
        elif kind == "died":
            seat, cause = e["seat"], e["cause"]
            assert cause in CAUSES, cause
            assert e["time"] == f"{phase} {n}", (e, phase, n)
            assert phase == "night" or cause not in NIGHT_CAUSES, e
            assert phase == "day" or cause not in DAY_CAUSES, e
            if cause == "heartbreak":
                assert lovers and seat in lovers
                partner = lovers[0] if seat == lovers[1] else lovers[1]
                assert not alive[partner], "heartbreak before the partner died"
            if cause == "scapegoat":
                assert roles[seat] == "scapegoat"
            if cause == "white-werewolf":
                assert roles[seat] == "werewolf"
            if cause == "seer":
                assert roles[seat] == "fox"
            if cause == "werewolves":
                assert roles[seat] not in ("fox",) and not is_wolf(roles[seat]), e
            alive[seat] = False
        elif kind == "revealed":
            assert roles[e["seat"]] == "village-idiot" and alive[e["seat"]]
            revealed.add(e["seat"])
        elif kind == "sheriff":
            sheriff = e["seat"]
            assert sheriff is None or alive[sheriff], e
            assert opts["sheriff"], "a sheriff without the sheriff option"
        elif kind == "tally":
            counts: dict[str, int] = {}
            for voter, target in e["votes"].items():
                if target is None:
                    continue
                w = 2 if e["step"] == "vote" and int(voter) == sheriff else 1
                counts[str(target)] = counts.get(str(target), 0) + w
            if e.get("poster") is not None:  # RULES.md §8 rumormonger: two more votes
                assert e["step"] == "vote" and e["round"] == 1 and counts, e
                counts[str(e["poster"])] = counts.get(str(e["poster"]), 0) + 2
            assert counts == e["counts"], ("tally (§6: sheriff counts two)", e, sheriff)
            top = max(counts.values(), default=0)
            assert e["top"] == top
            if e.get("nominees") is not None:
                # RULES.md §6 vote_mode=candidates: the first round names the two
                # most voted (more if tied for second), each with a ballot; no tie
                assert (e["step"], e["round"], opts["vote_mode"]) == ("vote", 1, "candidates")
                assert "tie" not in e, e
                balloted = {t for t in e["votes"].values() if t is not None}
                ranked = sorted((c for t, c in counts.items() if int(t) in balloted),
                                reverse=True)
                bar = ranked[min(1, len(ranked) - 1)]
                assert e["nominees"] == sorted(int(t) for t, c in counts.items()
                                               if int(t) in balloted and c >= bar), e
                continue
            assert not (e["step"] == "vote" and e["round"] == 1 and top and nominees is None
                        and opts.get("vote_mode") == "candidates"), ("no candidates", e)
            tied = sorted(int(t) for t, c in counts.items() if c == top) if top else []
            assert e.get("tie") == (tied if len(tied) > 1 else None), e
            if e["step"] == "vote" and len(tied) == 1:
                expect_execution = tied[0]
    assert alive == state.alive
    assert charmed == state.charmed, ("charmed players (§5 piper)", charmed, state.charmed)


def audit_village(state: State) -> None:
    """RULES.md §8, The Village, checked against the event log: drifters are
    never named by the pyromaniac, rumormonger, barber or schoolteacher; the
    pyromaniac burns once; a once-only power is used again only after the
    bonesetter or the steward gave it back; the tavern keeper holding her power
    is never attacked nor voted against; the silenced do not vote; day powers
    come before the first ballot of the day's first execution vote; a `fire`
    death is a wolf's."""
    setup = state.log[0]
    prof = list(setup.get("professions") or ["house"] * state.size)
    alive = [True] * state.size
    spent: dict[str, str] = {}
    silenced: set[int] = set()
    burns = 0
    step, rnd, ballots = "", 0, 0

    def keeper() -> int | None:
        return next((i for i, p in enumerate(prof) if p == "tavern-keeper" and alive[i]
                     and "tavern-keeper" not in spent), None)

    for e in state.log:
        kind = e["e"]
        if kind == "day":
            silenced = set()
        elif kind == "step":
            step = e["step"]
            if "round" in e:
                rnd, ballots = e["round"], 0
        elif kind == "died":
            alive[e["seat"]] = False
            if e["cause"] == "fire":
                assert is_wolf(state.roles[e["seat"]]), e
        elif kind == "burned":
            prof[e["seat"]] = "drifter"
        elif kind == "spent":
            spent[e["building"]] = e["power"]
        elif kind == "attack" and e["target"] is not None:
            assert e["target"] != keeper() or e["caught"], ("the tavern keeper attacked", e)
        elif kind == "act":
            do, actor = e["do"], e.get("actor")
            named = [e["target"]] if e.get("target") is not None else list(e.get("targets", []))
            if do in ("burn", "post", "shave", "silence"):
                assert all(prof[t] != "drifter" for t in named), ("a drifter named", e)
            if do in ("confess", "shave", "silence", "restore", "assign"):
                assert step == "vote" and rnd == 1 and ballots == 0, ("outside the window", e)
            if do == "vote" and actor is not None:
                if step == "vote":
                    ballots += 1
                    assert actor not in silenced, ("a silenced voter votes", e)
                    if e.get("target") is not None:
                        assert e["target"] != keeper(), ("a vote against the tavern keeper", e)
            elif do == "burn":
                burns += 1
                assert burns == 1, "the pyromaniac burns twice"
            elif do in ("confess", "pardon", "restore") or (do == "shave" and not e["wolf"]):
                building = {"confess": "confessor", "pardon": "lord", "restore": "bonesetter",
                            "shave": "barber"}[do]
                assert building not in spent, ("a once-only power used twice", e)
                spent[building] = "used"
                if do == "restore":
                    assert spent.pop(e["power"]) == "used", e
            elif do == "shave":
                assert "barber" not in spent, e
            elif do == "silence":
                silenced = {actor, *e["targets"]}
            elif do == "assign":
                assert prof[e["target"]] == "drifter", e
                prof[e["target"]] = e["building"]
                spent.pop(e["building"], None)
    assert prof == state.prof and spent == state.spent


# --- the properties -------------------------------------------------------------

@pytest.mark.parametrize("ruleset,players", EVERY_COUNT)
@settings(max_examples=12, **SETTINGS)
@given(data=st.data())
def test_random_games_end_with_a_valid_outcome(ruleset, players, data):
    """RULES.md §7 (outcomes, winners; the win is checked after every batch of
    deaths), §1/§6 (only the living act, save the death prompts), §5 witch
    (each potion once), §4–§6 (the event log audit), state.py (rebuild
    reproduces the game): for every ruleset and every recommended player count
    (RULES.md §3), with random extra roles, deals and option overrides.
    """
    setup = data.draw(setups(ruleset, players))
    state = play(setup, each=lambda s, a: check_no_premature_end(s))
    event(f"winner: {state.winner}")
    event(f"actions: {'<100' if state.acts < 100 else '<300' if state.acts < 300 else '300+'}")
    check_outcome(state)
    check_dead_never_act(state)
    check_potions(state)
    check_rebuild(state)
    audit_log(state)
    audit_village(state)


@settings(max_examples=120, **SETTINGS)
@given(setup=any_setup())
def test_views_never_leak_cards(setup):
    """RULES.md §4 (secrecy of the call), docs/rules.md §9 (public information)
    and views.py: player, table and GM views, checked before every action and
    at the end."""
    def each(state, action):
        check_public_view(state)
        check_player_views(state)
        check_prompts_after_dawn(state)

    state = play(setup, each)
    check_public_view(state)
    check_player_views(state)


def check_tallies(state: State) -> None:
    """CONTRACTS C1: each "tally" event says how its counts were made."""
    sheriff = None
    logged = []
    for e in state.log:
        if e["e"] == "sheriff":
            sheriff = e["seat"]
        if e["e"] != "tally":
            continue
        logged.append(e)
        ballots, extra = e["ballots"], e["extra"]
        # one ballot per voter, in seat order, as "votes" has them
        assert [b["voter"] for b in ballots] == sorted(int(k) for k in e["votes"])
        for b in ballots:
            assert b["target"] == e["votes"][str(b["voter"])]
            # RULES.md §6: the sheriff's vote counts two in execution votes, one in the election
            double = e["step"] == "vote" and b["voter"] == sheriff
            assert b["weight"] == (2 if double else 1), (e, sheriff)
        # RULES.md §8: the rumormonger's two votes, in the day's first execution vote only
        assert all(x == {"source": "poster", "target": e.get("poster"), "votes": 2}
                   for x in extra) and len(extra) <= 1
        assert bool(extra) == ("poster" in e)
        if extra:
            assert e["step"] == "vote" and e["round"] == 1
        for seat in range(state.size):  # counts == ballots' weights + extra votes
            weights = sum(b["weight"] for b in ballots if b["target"] == seat)
            more = sum(x["votes"] for x in extra if x["target"] == seat)
            assert e["counts"].get(str(seat), 0) == weights + more, (seat, e)
        assert set(e["counts"]) <= {str(i) for i in range(state.size)}
    said = [x for x in announcements(state) if x["kind"] == "tally"]
    assert [(x["ballots"], x["extra"]) for x in said] == [
        (e["ballots"], e["extra"]) for e in logged]
    if logged:
        last = public_view(state)["last_tally"]
        assert (last["ballots"], last["extra"]) == (logged[-1]["ballots"], logged[-1]["extra"])
    # a log of before issue 15 (no ballots/extra): the views derive the same fields
    old = copy.deepcopy(state.log)
    for e in old:
        if e["e"] == "tally":
            del e["ballots"], e["extra"]
    before = rebuild(old)
    assert announcements(before) == announcements(state)
    assert public_view(before).get("last_tally") == public_view(state).get("last_tally")


@settings(max_examples=120, **SETTINGS)
@given(setup=any_setup())
def test_every_tally_says_how_its_counts_were_made(setup):
    """[issue 15] CONTRACTS C1, RULES.md §6 (the sheriff's double vote
    [000][003]) and §8 (the rumormonger's two votes [000]): in random games of
    every ruleset, each tally's ballots (one per voter, seat order, weight) and
    extra votes add up to its counts, seat by seat; the announcements and the
    view carry them; an old log without them gives the same views."""
    check_tallies(play(setup))


@settings(max_examples=80, **SETTINGS)
@given(setup=any_setup())
def test_undo_then_redo_gives_the_same_log(setup):
    """engine API (undo): undo restores the state before the last action, and
    re-applying that action reproduces the same events."""
    fresh = setup.new()
    with pytest.raises(IllegalAction):
        undo(fresh)  # nothing to undo yet
    note(f"setup: {setup!r}")
    state, rng = fresh, Random(setup.seed)
    for _ in range(MAX_ACTIONS):
        if state.phase == "over":
            break
        action = next_action(state, rng, setup.timeout_p, setup.eager)
        before = copy.deepcopy(state)
        act(state, action)
        back = undo(state)
        assert back.log == before.log, action
        assert facts(back) == facts(before), action
        act(back, action)
        assert back.log == state.log, action
        assert facts(back) == facts(state), action
    assert state.phase == "over"


def _illegal_attempts(state: State, rng: Random) -> list[tuple[str, Action]]:
    """Actions that are not legal now (docs/replay.md errors table)."""
    out: list[tuple[str, Action]] = []
    n = state.size
    dead = [i for i in range(n) if not state.alive[i]]
    up = [i for i in range(n) if state.alive[i]]
    if state.step in ("vote", "election") and dead and up:
        out.append(("dead player's vote", Action(rng.choice(dead), "vote", target=rng.choice(up))))
    idle = [i for i in range(n) if not legal_actions(state, i)]
    if idle:
        seat = rng.choice(idle)
        out.append(("out of turn", Action(seat, rng.choice(["vote", "attack", "inspect"]),
                                          target=rng.choice(range(n)))))
    out.append(("no such seat", Action(n + 3, "vote", target=0)))
    out.append(("unknown action", Action(0, "fly", target=0)))
    out.append(("timeout with an actor", Action(0, "timeout")))
    for seat in waiting_for(state):
        for choice in legal_actions(state, seat):
            if choice.count == (1, 1):
                outside = [t for t in range(-1, n + 1) if t not in choice.targets]
                if outside:
                    out.append((f"{choice.do} target not offered",
                                Action(seat, choice.do, target=rng.choice(outside))))
                out.append((f"{choice.do} missing target", Action(seat, choice.do)))
            elif choice.count[1] >= 2:
                t = choice.targets[0]
                out.append((f"{choice.do} same target twice",
                            Action(seat, choice.do, targets=(t,) * choice.count[1])))
            if choice.do == "potion" and not choice.heal:
                out.append(("heal not offered", Action(seat, "potion", heal=True)))
            if choice.do == "potion":
                bad = [t for t in range(n) if t not in choice.targets]
                if bad:
                    out.append(("poison not offered",
                                Action(seat, "potion", poison=rng.choice(bad))))
    return out


@settings(max_examples=100, **SETTINGS)
@given(setup=any_setup())
def test_illegal_actions_are_refused_and_change_nothing(setup):
    """engine API (act raises IllegalAction, leaving the state unchanged);
    docs/replay.md errors (a dead or absent target, the wrong step, an actor
    who cannot act): checked at every step, and once the game is over."""
    rng = Random(setup.seed ^ 0x5EED)

    def each(state, action):
        attempts = _illegal_attempts(state, rng)
        snapshot = copy.deepcopy(state) if rng.random() < 0.2 else None
        size = len(state.log)
        for why, bad in attempts:
            with pytest.raises(IllegalAction):
                act(state, bad)
                note(f"accepted ({why}): {bad}")
            assert len(state.log) == size, why
        if snapshot is not None:
            assert facts(state) == facts(snapshot)

    state = play(setup, each)
    size = len(state.log)
    for bad in (Action(None, "timeout"), Action(0, "vote", target=1), Action(0, "pass")):
        with pytest.raises(IllegalAction):
            act(state, bad)
    assert len(state.log) == size


@settings(max_examples=150, **SETTINGS)
@given(setup=any_setup())
def test_waiting_seats_are_alive_and_have_choices(setup):
    """RULES.md §1 (a step whose actor is dead or has no legal move is skipped;
    docs/rules.md §7.3/§7.4 only living players vote): every seat the engine
    waits for may act, and only a death prompt waits for a dead seat."""
    def each(state, action):
        seats = waiting_for(state)
        assert len(seats) == len(set(seats))
        for seat in seats:
            assert legal_actions(state, seat)
            if state.step not in PROMPTS:
                assert state.alive[seat], (seat, state.step)
        for seat in range(state.size):
            if not state.alive[seat] and state.step not in PROMPTS:
                assert legal_actions(state, seat) == []
        if state.step in PROMPTS:
            assert seats == [state.actor]

    play(setup, each)


# --- volume: thousands of games -------------------------------------------------

GAMES_PER_COUNT = 100


def _random_setup(ruleset: str, n: int, seed: int) -> Setup:
    """A plain-random counterpart of `setups` (no hypothesis), for volume."""
    rng = Random(seed)
    add: list[str] = []
    if ruleset != "jp-standard":
        villagers = recommended_deal(ruleset, n)["villager"]
        add = rng.sample(EXTRAS, rng.randint(0, min(villagers, len(EXTRAS))))
    counts = recommended_deal(ruleset, n, add)
    deck = [r for r, c in sorted(counts.items()) for _ in range(c)]
    rng.shuffle(deck)
    center: list[str] = []
    if "thief" in deck:
        deck.remove("thief")
        center, deck = deck[:2], deck[2:]
        deck.insert(rng.randrange(n), "thief")
    options = {k: rng.choice(v) for k, v in OPTION_VALUES.items()
               if v is not None and rng.random() < 0.5}
    return Setup(ruleset, [f"P{i}" for i in range(n)], deck, options, center, seed, add,
                 timeout_p=0.0)


@pytest.mark.parametrize("ruleset,players", EVERY_COUNT)
def test_thousands_of_random_games_end_well(ruleset, players):
    """[issue 2] property: 100 random games per ruleset and player count (3,100
    in all), each step a random waiting seat picking one of its legal Choices
    at random, then an action within it (`next_action`: not uniform over all
    its actions; a seer with 7 players to inspect passes half the time, not 1
    in 8; only the step clock times out endless wolf disagreements): each ends with
    a valid outcome (RULES.md §7) within MAX_ACTIONS, the dead never act
    (§1/§6), each potion is used at most once (§5 witch), and The Village's
    rules hold where professions were dealt (§8, `audit_village`)."""
    outcomes = set()
    for k in range(GAMES_PER_COUNT):
        setup = _random_setup(ruleset, players, seed=players * 1000 + k)
        state = play(setup)
        check_outcome(state)
        check_dead_never_act(state)
        check_potions(state)
        audit_village(state)
        outcomes.add(state.winner)
    assert len(outcomes) >= 2, outcomes  # both sides win some of 100 games
