"""What each card does beyond the common rules: one section per role.

The common rules (choices, night, votes, deaths, wins, acting: see rules.py)
call these hooks at fixed points of the game and know no role by name; a role
that bends a rule does it here, under its own name, and nowhere else. A card
with no entry plays by the common rules (villager, madman, freemason: what
they know is data in roles.py).

Hooks, all optional (`Power`):

- `night(state, seat)`: the holder's choices in his card's own night step
  (empty: the step is skipped).
- `pack(state, seat)`: choices of a card that acts in the wolves' step
  without being a wolf.
- `called(state, seat)`: private notes the holder is shown as his step opens.
- `skips(state, seat)`: True: his step is not called tonight.
- `acts(state, action, event)`: fills in the act event before it is applied
  (a result, a chance draw).
- `acted(state, action)`: events that follow his act event.
- `timeout(state, seat)`: his step timed out; `default(state)` says what that
  does, for `pending` ("nothing" when the card has no `default`).
- `nightfall(state, seat)`: at the start of every night, for the living holder.
- `spared(state, seat)`: True: the wolves' attack does not kill him.
- `dawn(state, dead)`: at dawn, before the deaths: events of its own, and the
  deaths it causes appended to `dead` (seat, cause).
- `dies(state, seat, cause)`: his death's own events, and the prompts it opens.
- `along(state, seat, cause)`: who dies the same moment as he does, as
  (seat, cause) (kernel.kill: the elder's revealed idiot).
- `executed(state, seat)`: True: the execution does not kill him.
- `tie(state)`: a tied execution vote; (seat, cause): the one it executes
  instead, which settles the vote (None: it does not).
- `wins(state, seat, mixed)`: True: the living holder has won alone (`mixed`:
  the lovers of a mixed pair, or None).
- `unprotectable`: the defender's protection does not cover him.
- `steals`: while he lives, whichever of the village and the wolves wins, he
  wins instead; he counts as neither side's number.
- `lone`: a wolf card with whom the pack cannot win.

Each hook is looked up once, at import, into the tables at the bottom (hook
name -> [(role, function)] in night order), so the common rules pay one dict
lookup or a short loop per point, not a test per role.

A hook gets what it needs as arguments (the state, the seat, the action) and
writes its events with the kernel's primitives (`emit`, `rng`, ...); it never
calls back into the common rules: where a card changes what happens next, its
hook returns it (the scapegoat's `tie` names whom to execute) and the common
rules carry it out. So this module imports the kernel, never the rules.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..options import IDIOT_DIES_WITH_ELDER, SEER_SEES, WITCH_SELF_HEAL, WITCH_SINGLE_POTION
from .actions import SPY_MODES, Action, Choice
from .kernel import ALONG, emit, holder, living_wolves, powered, rng
from .roles import ROLES
from .state import State

PASS = Choice("pass")
SPY_ODDS = {"discreet": (0.2, 0.2), "bold": (0.4, 0.4)}  # (learns a wolf, caught) [000]


@dataclass(frozen=True)
class Power:
    night: Callable[[State, int], list[Choice]] | None = None
    pack: Callable[[State, int], list[Choice]] | None = None
    called: Callable[[State, int], None] | None = None
    skips: Callable[[State, int], bool] | None = None
    acts: Callable[[State, Action, dict], None] | None = None
    acted: Callable[[State, Action], None] | None = None
    timeout: Callable[[State, int], None] | None = None
    default: Callable[[State], str] | None = None
    nightfall: Callable[[State, int], None] | None = None
    spared: Callable[[State, int], bool] | None = None
    dawn: Callable[[State, list[tuple[int, str]]], None] | None = None
    dies: Callable[[State, int, str], list[str]] | None = None
    along: Callable[[State, int, str], list[tuple[int, str]]] | None = None
    executed: Callable[[State, int], bool] | None = None
    tie: Callable[[State], tuple[int, str] | None] | None = None
    wins: Callable[[State, int, tuple[int, int] | None], bool] | None = None
    unprotectable: bool = False
    steals: bool = False
    lone: bool = False


def _or_pass(choices: list[Choice]) -> list[Choice]:
    """A night power may always be declined: the choices and a pass, or nothing."""
    return [*choices, PASS] if choices else []


def _others(state: State, seat: int) -> tuple[int, ...]:
    """The living players but `seat` (living), in seat order."""
    up = state.up
    k = up.index(seat)
    return up[:k] + up[k + 1:]


# --- the wolves' attack: what the cards make of it -----------------------------

def shown_victim(state: State) -> int | None:
    """The victim the witch is shown: none when the defender held [002] (not
    for an `unprotectable` card: the little girl)."""
    v = state.attack
    if v is None or (v == state.protected and state.roles[v] not in UNPROTECTABLE):
        return None
    return v


def attack_kills(state: State, seat: int) -> bool:
    """The wolves' attack tonight lands on `seat` and kills him: not protected,
    not healed, not spared by his card (the fox [004], the elder's spare life [003])."""
    if seat != shown_victim(state) or state.healed:
        return False
    spared = SPARED.get(state.roles[seat])
    return spared is None or not spared(state, seat)


def dies_tonight(state: State, seat: int | None) -> bool:
    return seat is not None and (seat == state.poisoned or attack_kills(state, seat))


# --- thief [000][002][003] ------------------------------------------------------

def _thief_night(state: State, seat: int) -> list[Choice]:
    # two wolf cards in the centre: he must take one [003]
    both_wolves = all(ROLES[c].wolf for c in state.center)
    return [Choice("swap", cards=(0, 1))] + ([] if both_wolves else [PASS])


def _thief_called(state: State, seat: int) -> None:
    emit(state, {"e": "centre", "seat": seat, "cards": list(state.center)})


def _thief_acted(state: State, a: Action) -> None:
    if a.do == "pass":  # keeps his card: a villager from now on
        emit(state, {"e": "card", "seat": a.actor, "role": "villager"})


def _thief_default(state: State) -> str:
    """Keeps his card as a villager, or takes centre card 0 when both are wolves."""
    return "swap-0" if all(ROLES[c].wolf for c in state.center) else "villager"


def _thief_timeout(state: State, seat: int) -> None:
    if _thief_default(state) == "swap-0":
        emit(state, {"e": "act", "do": "swap", "actor": seat, "card": 0, "default": True})
    else:
        emit(state, {"e": "card", "seat": seat, "role": "villager"})


# --- cupid ----------------------------------------------------------------------

def _cupid_night(state: State, seat: int) -> list[Choice]:
    return _or_pass([Choice("link", state.up, (2, 2))])


# --- defender [002][003] --------------------------------------------------------

def _defender_night(state: State, seat: int) -> list[Choice]:
    # never the same player two nights running
    return _or_pass([Choice("protect", tuple(i for i in state.up if i != state.last_protected),
                            (1, 1))])


# --- seer -----------------------------------------------------------------------

def _seer_night(state: State, seat: int) -> list[Choice]:
    return _or_pass([Choice.one_of("inspect", _others(state, seat))])


def _seer_acts(state: State, a: Action, event: dict) -> None:
    if a.do == "inspect":
        assert a.target is not None  # Choice.allows: an inspection names a seat
        card = state.roles[a.target]
        event["result"] = card if SEER_SEES.of(state.opts) == "role" else ROLES[card].reads


# --- knight [004] ---------------------------------------------------------------

def _knight_night(state: State, seat: int) -> list[Choice]:
    return _or_pass([Choice.one_of("guard", _others(state, seat))])


# --- medium [004] ---------------------------------------------------------------

def _medium_nightfall(state: State, seat: int) -> None:
    """Told the card of the player executed the day before, as the night begins."""
    if state.executed is not None:
        card = state.roles[state.executed]
        emit(state, {"e": "medium", "seat": seat, "target": state.executed,
                        "result": ROLES[card].reads})


# --- little girl [000][002][003] ------------------------------------------------

def _girl_pack(state: State, seat: int) -> list[Choice]:
    """She may spy once in the wolves' step (or pass)."""
    if state.spied or not powered(state, seat):
        return []
    return [Choice("spy", modes=SPY_MODES), PASS]


def _girl_acts(state: State, a: Action, event: dict) -> None:
    if a.do != "spy":
        return
    outcome = a.outcome
    gen = None
    if outcome is None:  # not forced by a script: drawn [000]
        assert a.mode is not None  # check_shape: spying has a mode
        gen = rng(state)
        wolf_p, caught_p = SPY_ODDS[a.mode]
        x = gen.random()
        outcome = "wolf" if x < wolf_p else "caught" if x < wolf_p + caught_p else "nothing"
        event["draw"] = True
    event["outcome"] = outcome
    if outcome == "wolf":
        event["wolf"] = (gen or rng(state)).choice(living_wolves(state))
        event["draw"] = True


# --- white werewolf [000] -------------------------------------------------------

def _white_night(state: State, seat: int) -> list[Choice]:
    prey = tuple(i for i in _others(state, seat) if state.roles[i] == "werewolf")
    return _or_pass([Choice("devour", prey, (1, 1))] if prey else [])


def _white_wins(state: State, seat: int, mixed: tuple[int, int] | None) -> bool:
    return state.up == (seat,)  # the last one alive (RULES.md §7)


def _white_dawn(state: State, dead: list[tuple[int, str]]) -> None:
    if state.devoured is not None:
        dead.append((state.devoured, "white-werewolf"))


# --- witch [002][003] -----------------------------------------------------------

def _witch_night(state: State, seat: int) -> list[Choice]:
    victim = shown_victim(state)
    heal = state.potions["heal"] and victim is not None and (
        victim != seat or WITCH_SELF_HEAL.of(state.opts))
    poison = state.up if state.potions["poison"] else ()  # herself too [003]
    if not (heal or poison):
        return []
    info: dict = {"victim": victim}
    if WITCH_SINGLE_POTION.of(state.opts):
        info["one_potion"] = True  # one potion a game: heal or poison [003] (RULES.md §5)
    return _or_pass([Choice("potion", poison, (0, 1), heal=heal, info=info)])


def _witch_called(state: State, seat: int) -> None:
    emit(state, {"e": "shown", "seat": seat, "victim": shown_victim(state)})


def _witch_dawn(state: State, dead: list[tuple[int, str]]) -> None:
    if state.poisoned is not None:
        dead.append((state.poisoned, "poison"))


# --- piper [002][003] -----------------------------------------------------------

def _piper_night(state: State, seat: int) -> list[Choice]:
    free = tuple(i for i in _others(state, seat) if i not in state.charmed)
    if not free:
        return []
    k = min(2, len(free))
    return _or_pass([Choice("charm", free, (k, k))])


def _piper_wins(state: State, seat: int, mixed: tuple[int, int] | None) -> bool:
    """Every other living player is charmed (not while he is one of a mixed pair)."""
    return not (mixed and seat in mixed) and all(
        i in state.charmed for i in state.up if i != seat)


def _piper_skips(state: State, seat: int) -> bool:
    """[002]: not called on a night the wolves or the witch kill him."""
    return dies_tonight(state, seat)


# --- pyromaniac [000] ----------------------------------------------------------

def _owners(state: State, seat: int) -> tuple[int, ...]:
    """The living others who own a building: not drifters [000] (without
    professions everyone owns a plain house, RULES.md §8 Decision)."""
    prof = state.prof
    return tuple(i for i in _others(state, seat) if prof[i] != "drifter")


def _pyro_night(state: State, seat: int) -> list[Choice]:
    if state.burned:  # once per game (RULES.md §8 Decision)
        return []
    owners = _owners(state, seat)
    return _or_pass([Choice("burn", owners, (1, 1))] if owners else [])


def _pyro_dawn(state: State, dead: list[tuple[int, str]]) -> None:
    """The building burns at dawn, its owner becomes a drifter; if the wolves
    attacked him tonight he survives and the wolf seated nearest him (living
    seats; equally near: the one to his left) dies instead [000]."""
    seat = state.burning
    if seat is None:
        return
    emit(state, {"e": "burned", "seat": seat})
    if state.attack != seat:
        return
    if (seat, "werewolves") in dead:
        dead.remove((seat, "werewolves"))
    wolf = nearest_wolf(state, seat)
    if wolf is not None:
        dead.append((wolf, "fire"))


def nearest_wolf(state: State, seat: int) -> int | None:
    """The living wolf seated nearest `seat`, counting living seats only; at
    equal distance the one to his left (clockwise) (RULES.md §8 Decision)."""
    up = state.up
    k = up.index(seat)
    n = len(up)
    for d in range(1, n // 2 + 1):
        for j in (up[(k + d) % n], up[(k - d) % n]):  # left first
            if ROLES[state.roles[j]].wolf:
                return j
    return None


# --- rumormonger [000] ----------------------------------------------------------

def _rumor_night(state: State, seat: int) -> list[Choice]:
    """Every night an accusation on a building owner's building: two votes
    against him in the next day's first execution vote (votes._tally)."""
    owners = _owners(state, seat)
    return _or_pass([Choice("post", owners, (1, 1))] if owners else [])


# --- elder [003] ----------------------------------------------------------------

def _elder_spared(state: State, seat: int) -> bool:
    return seat not in state.wounded  # his spare life


def _elder_dawn(state: State, dead: list[tuple[int, str]]) -> None:
    victim = shown_victim(state)
    if victim is not None and state.roles[victim] == "elder" and victim not in state.wounded:
        emit(state, {"e": "wounded", "seat": victim})  # healed or not


def _elder_dies(state: State, seat: int, cause: str) -> list[str]:
    # killed by the village: every village power is lost; in death order, so a
    # hunter who died before him still shoots
    if cause in ("poison", "hunter", "execution") and not state.powers_lost:
        emit(state, {"e": "powers-lost", "seat": seat})
    return []


def _elder_along(state: State, seat: int, cause: str) -> list[tuple[int, str]]:
    """Option `idiot_dies_with_elder` [003 變體規則]: poison, the hunter's shot or
    an execution kills the elder: an already revealed village idiot dies with
    him, at once (cause `elder`)."""
    if not IDIOT_DIES_WITH_ELDER.of(state.opts) or cause not in (
            "poison", "hunter", "execution"):
        return []
    return [(i, "elder") for i in sorted(state.revealed) if state.alive[i]]


# --- hunter ---------------------------------------------------------------------

def _hunter_dies(state: State, seat: int, cause: str) -> list[str]:
    return ["hunter"] if powered(state, seat) else []  # he shoots as he dies


# --- scapegoat [002][003] -------------------------------------------------------

def _scapegoat_tie(state: State) -> tuple[int, str] | None:
    """A tie executes him, whatever the tie policy."""
    seat = holder(state, "scapegoat")
    if seat is None or not powered(state, seat):
        return None
    return seat, "scapegoat"


def _scapegoat_dies(state: State, seat: int, cause: str) -> list[str]:
    return ["allow"] if cause == "scapegoat" else []  # he names tomorrow's voters


# --- village idiot [002][003] ---------------------------------------------------

def _idiot_executed(state: State, seat: int) -> bool:
    """Voted out the first time: shown, and he lives on without a vote."""
    if seat in state.revealed or not powered(state, seat):
        return False
    emit(state, {"e": "revealed", "seat": seat})
    return True


# --- fox [004] ------------------------------------------------------------------

def _fox_spared(state: State, seat: int) -> bool:
    return True  # the wolves cannot kill him


def _fox_dawn(state: State, dead: list[tuple[int, str]]) -> None:
    if state.inspected is not None and state.roles[state.inspected] == "fox":
        dead.append((state.inspected, "seer"))  # 呪殺: the seer's inspection kills him



POWERS: dict[str, Power] = {
    "thief": Power(night=_thief_night, called=_thief_called, acted=_thief_acted,
                   timeout=_thief_timeout, default=_thief_default),
    "cupid": Power(night=_cupid_night),
    "defender": Power(night=_defender_night),
    "seer": Power(night=_seer_night, acts=_seer_acts),
    "knight": Power(night=_knight_night),
    "medium": Power(nightfall=_medium_nightfall),
    "little-girl": Power(pack=_girl_pack, acts=_girl_acts, unprotectable=True),
    "white-werewolf": Power(night=_white_night, dawn=_white_dawn, wins=_white_wins, lone=True),
    "witch": Power(night=_witch_night, called=_witch_called, dawn=_witch_dawn),
    "piper": Power(night=_piper_night, skips=_piper_skips, wins=_piper_wins),
    "elder": Power(spared=_elder_spared, dawn=_elder_dawn, dies=_elder_dies,
                   along=_elder_along),
    "hunter": Power(dies=_hunter_dies),
    "scapegoat": Power(tie=_scapegoat_tie, dies=_scapegoat_dies),
    "village-idiot": Power(executed=_idiot_executed),
    "fox": Power(spared=_fox_spared, dawn=_fox_dawn, steals=True),
    "pyromaniac": Power(night=_pyro_night, dawn=_pyro_dawn),
    "rumormonger": Power(night=_rumor_night),
}


def _table(hook: str) -> dict[str, Callable]:
    """role -> its `hook`, for the roles that have one, in night order (then the rest)."""
    rows = sorted(POWERS, key=lambda role: ROLES[role].night or 1000)
    return {role: getattr(POWERS[role], hook) for role in rows
            if getattr(POWERS[role], hook) is not None}


NIGHT = _table("night")
PACK = _table("pack")
CALLED = _table("called")
SKIPS = _table("skips")
ACTS = _table("acts")
ACTED = _table("acted")
TIMEOUT = _table("timeout")
DEFAULT = _table("default")
NIGHTFALL = _table("nightfall")
SPARED = _table("spared")
DAWN = _table("dawn")
DIES = _table("dies")
EXECUTED = _table("executed")
TIE = _table("tie")
ALONG.update(_table("along"))  # read by kernel.kill
#: solo wins, in the order RULES.md §7 checks them: the piper, then the white werewolf
WINS = {role: _table("wins")[role] for role in ("piper", "white-werewolf")}
assert set(WINS) == set(_table("wins"))  # a new solo win needs its place in that order
UNPROTECTABLE = frozenset(role for role, p in POWERS.items() if p.unprotectable)
STEALS = frozenset(role for role, p in POWERS.items() if p.steals)
LONE = frozenset(role for role, p in POWERS.items() if p.lone)
