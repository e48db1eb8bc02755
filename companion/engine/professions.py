"""The Village's professions [000] (RULES.md §8): one row of data per
profession, and one section of hooks per profession that bends a rule.

Besides his card each player gets a profession token and owns its building.
A seat's current profession is `state.prof[seat]`: a profession id, `drifter`
(no building: burned, or dealt so) or `house` (a plain house, no power: every
player's building when no professions are in play, so the pyromaniac and the
rumormonger can target anyone). A building's power is usable unless
`state.spent[building]` says `used` (a once-only power) or `lost` (the tavern
keeper's); buildings are named by their profession id (each is unique but the
farms, whose power is permanent).

The common rules (see rules.py) call the hooks below only when professions are in
play (`state.village`), so a game without them does no work for them:

- `day_choices(state, seat)`: the day powers a seat may use while the day's
  powers window is open (the first execution vote, before its first ballot).
- `acts(state, action, event)` (table `ACTS`, by action id): fills in a day
  power's result before its event is applied (the confessor's card, whether
  the barber shaved a wolf).
- `acted(state, action)` (table `ACTED`): the deaths that follow a day
  power's event, as (seat, cause) (the barber's).
- `ballots(state, cached)`: the open vote's choices, amended (silenced
  voters, the tavern keeper first and never a target, the day powers).
- `voters(state, seats, vote_targets)`: who may vote in the open vote, amended
  the same way (`vote_targets(state, seat)`: choices.vote_targets, passed in).
- `closed(state, counts, tied)`: after a tally (the tavern keeper's loss).
- `election(state)`: the day and candidates of the captain's election.
- `heirs(state, seat)`: who may succeed a dying captain.
- `lord(state, seat)`: the lord who may pardon this execution, if any.
- `dawn(state)`: the baker's chance.
- `prey(state, prey)`: whom the wolves may attack.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from random import Random

from .actions import Action, Choice
from .errors import SetupError
from .kernel import emit, living_wolves, rng
from .roles import ROLES
from .state import State


@dataclass(frozen=True, slots=True)
class Profession:
    id: str
    power: str  # none | permanent | until-lost | once [000]
    building: bool  # it comes with a building (its names are the words' table)
    day: str | None = None  # the action of its day power, if it has one
    copies: int | None = 1  # tokens of it in one game (None: any number)


PROFESSIONS: dict[str, Profession] = {
    p.id: p
    for p in (
        Profession("drifter", "none", False, copies=None),
        Profession("steward", "permanent", True, day="assign"),
        Profession("farmer", "permanent", True, copies=None),
        Profession("schoolteacher", "permanent", True, day="silence"),
        Profession("baker", "permanent", True),
        Profession("tavern-keeper", "until-lost", True),
        Profession("confessor", "once", True, day="confess"),
        Profession("barber", "once", True, day="shave"),
        Profession("lord", "once", True),
        Profession("bonesetter", "once", True, day="restore"),
    )
}
#: A plain house: every player's building when no professions are in play (§8 Decision).
HOUSE = "house"
DRIFTER = "drifter"
#: The building professions dealt by the `professions` option (one of each [000]).
BUILDINGS = tuple(p for p in PROFESSIONS if p != DRIFTER)
#: The once-only powers the bonesetter may make usable again [000].
RESTORABLE = ("confessor", "barber", "lord")
BAKER_ODDS = 0.25  # [000]
#: Whom a seat may vote for in the open vote (choices.vote_targets, passed in by
#: the common rules: this module does not import them).
Targets = Callable[[State, int], tuple[int, ...]]


# --- the deal -----------------------------------------------------------------

def deal(players: int, seed: int) -> list[str]:
    """Professions dealt from the seed (RULES.md §8 Decision): one of each of
    the nine building professions, drifters for the rest; fewer players than
    buildings: a random subset of them."""
    rng = Random(f"{seed}:professions")
    tokens = list(BUILDINGS)
    rng.shuffle(tokens)
    tokens = tokens[:players] + [DRIFTER] * max(0, players - len(tokens))
    rng.shuffle(tokens)
    return tokens


def check(professions: list[str], players: int) -> None:
    """An explicit deal of professions: one known id per player, each building
    profession at most once but the farm (RULES.md §8 Decision)."""
    if len(professions) != players:
        raise SetupError(f"{len(professions)} professions for {players} players")
    for p in professions:
        if p not in PROFESSIONS:
            raise SetupError(f"unknown profession {p!r} (known: {', '.join(PROFESSIONS)})")
        limit = PROFESSIONS[p].copies
        if limit and professions.count(p) > limit:
            raise SetupError(f"a game has at most {limit} {p} token(s)")


# --- helpers --------------------------------------------------------------------

def power_state(state: State, seat: int) -> str | None:
    """usable | used | lost for a seat's building power; None: it has none."""
    prof = PROFESSIONS.get(state.prof[seat])
    if prof is None or prof.power == "none":
        return None
    return state.spent.get(prof.id, "usable")


def _usable(state: State, seat: int, profession: str) -> bool:
    return state.prof[seat] == profession and profession not in state.spent


def holders(state: State, profession: str) -> list[int]:
    """The living owners of a profession's building, in seat order."""
    prof = state.prof
    return [i for i in state.up if prof[i] == profession]


def owns_building(state: State, seat: int) -> bool:
    """Not a drifter: the schoolteacher, barber, rumormonger and pyromaniac may name him [000]."""
    return state.prof[seat] != DRIFTER


def window_open(state: State) -> bool:
    """The day powers' window: the day's first execution vote, before any
    ballot (RULES.md §8 Decision)."""
    return state.step == "vote" and state.round == 1 and not state.votes and not state.verdicts


def keeper(state: State) -> int | None:
    """The living tavern keeper who still holds her power."""
    for i in holders(state, "tavern-keeper"):
        if "tavern-keeper" not in state.spent:
            return i
    return None


# --- steward [000] --------------------------------------------------------------

def _steward_day(state: State, seat: int) -> list[Choice]:
    """Gives an ownerless building to a living drifter (permanent power)."""
    drifters = tuple(i for i in state.up if state.prof[i] == DRIFTER)
    vacant = tuple(sorted(set(state.vacant)))
    if not drifters or not vacant:
        return []
    return [Choice("assign", drifters, (1, 1), buildings=vacant)]


# --- schoolteacher [000] --------------------------------------------------------

def _teacher_day(state: State, seat: int) -> list[Choice]:
    """Up to two players who own a building (not drifters), once a day; naming
    nobody is not using it (RULES.md §8 Decision)."""
    if state.silenced is not None:
        return []
    named = tuple(i for i in state.up if i != seat and owns_building(state, i))
    return [Choice("silence", named, (1, min(2, len(named))))] if named else []


# --- confessor [000] ------------------------------------------------------------

def _confessor_day(state: State, seat: int) -> list[Choice]:
    if not _usable(state, seat, "confessor"):
        return []
    return [Choice("confess", tuple(i for i in state.up if i != seat), (1, 1))]


def _confessor_acts(state: State, a: Action, event: dict) -> None:
    assert a.target is not None  # Choice.allows: a confession names a seat
    event["result"] = state.roles[a.target]  # the card, privately


# --- barber [000] ---------------------------------------------------------------

def _barber_day(state: State, seat: int) -> list[Choice]:
    if not _usable(state, seat, "barber"):
        return []
    named = tuple(i for i in state.up if i != seat and owns_building(state, i))
    return [Choice("shave", named, (1, 1))] if named else []


def _barber_acts(state: State, a: Action, event: dict) -> None:
    assert a.target is not None  # Choice.allows: a shave names a seat
    event["wolf"] = ROLES[state.roles[a.target]].wolf


def _barber_acted(state: State, a: Action) -> list[tuple[int, str]]:
    """The shaved one dies; if he was no wolf, the barber too (cause barber for
    both); the common rules then run the deaths' triggers and open the vote
    again (acting._day_power)."""
    assert a.target is not None and a.actor is not None
    dead = [(a.target, "barber")]
    if not ROLES[state.roles[a.target]].wolf:
        dead.append((a.actor, "barber"))
    return dead


# --- bonesetter [000] -----------------------------------------------------------

def _bonesetter_day(state: State, seat: int) -> list[Choice]:
    """Makes a used once-only power (confessor, barber, lord) of a living owner
    usable again; each building is unique, so naming it names the player."""
    if not _usable(state, seat, "bonesetter"):
        return []
    used = tuple(p for p in RESTORABLE if state.spent.get(p) == "used" and holders(state, p))
    return [Choice("restore", powers=used)] if used else []


# --- the table of day powers ----------------------------------------------------

DAY: dict[str, Callable[[State, int], list[Choice]]] = {
    "steward": _steward_day, "schoolteacher": _teacher_day, "confessor": _confessor_day,
    "barber": _barber_day, "bonesetter": _bonesetter_day,
}
ACTS = {"confess": _confessor_acts, "shave": _barber_acts}
ACTED: dict[str, Callable[[State, Action], list[tuple[int, str]]]] = {"shave": _barber_acted}


def day_choices(state: State, seat: int) -> list[Choice]:
    hook = DAY.get(state.prof[seat])
    return hook(state, seat) if hook is not None else []


# --- the vote: schoolteacher, tavern keeper, day powers -------------------------

def ballots(state: State, cached: dict) -> None:
    """Amend the open vote's choices (built once per vote, choices.ballots):
    the silenced have no vote in execution votes; nobody may vote against the
    tavern keeper while she holds her power, and she votes first [000]; while
    the window is open, the day powers are offered beside the vote."""
    execution = state.step == "vote"
    silenced = state.silenced if execution and state.silenced else frozenset()
    tavern = keeper(state) if execution else None
    up = state.up
    for seat in up:
        got = cached.get(seat, [])
        if seat in silenced:
            got = []
        elif tavern is not None and got:
            targets = tuple(t for t in got[0].targets if t != tavern)
            got = [Choice("vote", targets, (1, 1))] if targets else []
        cached[seat] = got
    first = tavern if tavern is not None and tavern not in state.votes and cached[tavern] \
        else None
    window = window_open(state)
    for seat in up:
        if first is not None and seat != first:
            cached[seat] = []  # she votes first: the others wait for her ballot
        if window:
            cached[seat] = [*cached[seat], *day_choices(state, seat)]


def voters(state: State, seats: list[int], vote_targets: Targets) -> list[int]:
    """Who may vote now, amended as `ballots` amends their choices."""
    if state.step != "vote":
        return seats
    first = first_voter(state, vote_targets)
    if first is not None:
        return [first]
    silenced = state.silenced or frozenset()
    return [i for i in seats if i not in silenced and vote_targets(state, i)]


def idle(state: State, seat: int, vote_targets: Targets) -> str:
    """Why a living seat has no choice in the open execution vote, for the
    refusal's message (public facts only)."""
    if state.step != "vote" or not state.alive[seat]:
        return ""
    if seat in (state.silenced or ()):
        return ": silenced by the schoolteacher today"
    first = first_voter(state, vote_targets)
    if first is not None and first != seat:
        return f": {state.names[first]}, the tavern keeper, votes first"
    return ""


def first_voter(state: State, vote_targets: Targets) -> int | None:
    """The tavern keeper, while the vote waits for her ballot."""
    if state.step != "vote":
        return None
    tavern = keeper(state)
    if tavern is None or tavern in state.votes or tavern in (state.silenced or ()):
        return None
    return tavern if vote_targets(state, tavern) else None


def closed(state: State, counts: dict[int, int], tied: list[int]) -> None:
    """The tavern keeper loses her power when her target has the most votes,
    alone or tied (RULES.md §8 Decision)."""
    if state.step != "vote":
        return
    tavern = keeper(state)
    if tavern is not None and state.votes.get(tavern) in tied:
        emit(state, {"e": "spent", "building": "tavern-keeper", "power": "lost",
                        "seat": tavern})


def prey(state: State, seats: tuple[int, ...]) -> tuple[int, ...]:
    """The wolves cannot attack the tavern keeper while she holds her power [000]."""
    tavern = keeper(state)
    return seats if tavern is None else tuple(i for i in seats if i != tavern)


# --- farmers [000] --------------------------------------------------------------

def election(state: State) -> tuple[int, list[int]]:
    """The captain is chosen among the living farmers on day 2 (RULES.md §8 Decision)."""
    return 2, holders(state, "farmer")


def heirs(state: State, seat: int) -> list[int]:
    """A dying captain's successor is a living farmer; none left: no captain [000]."""
    return [i for i in holders(state, "farmer") if i != seat]


# --- lord [000] -----------------------------------------------------------------

def lord(state: State, condemned: int) -> int | None:
    """The living lord whose pardon is still usable (himself included as the condemned)."""
    for i in holders(state, "lord"):
        if "lord" not in state.spent:
            return i
    return None


# --- baker [000] ----------------------------------------------------------------

def dawn(state: State, dead: list[tuple[int, str]]) -> None:
    """Each night the living baker has a 25 % chance to learn one werewolf,
    rolled at dawn from the seed (RULES.md §4 Decision)."""
    dying = {s for s, _ in dead}
    for seat in holders(state, "baker"):
        if seat in dying:
            continue
        gen = rng(state)
        wolves = living_wolves(state)
        hit = gen.random() < BAKER_ODDS and bool(wolves)
        emit(state, {"e": "baker", "seat": seat, "draw": True,
                        "wolf": gen.choice(wolves) if hit else None})
