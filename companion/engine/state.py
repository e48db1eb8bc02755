"""Game state and the fold that rebuilds it from the event log.

Events are plain JSON-ready dicts with a kind under "e". `apply(state, event)`
is the only code that changes a State; the rules module decides which events
happen and applies each one as it emits it, so replaying the log with
`rebuild(log)` reproduces the state exactly (chance outcomes are in the log).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..options import WITCH_SINGLE_POTION
from . import event_cards
from .roles import ROLES
from .rulesets import migrate_options

#: jp-standard's one night step, in which every night role acts at once (RULES.md §4)
TOGETHER = "actions"
#: `State.verdicts` once a vote with no ballots ended the day's voting (RULES.md §6)
DAY_VOTED = 1_000


@dataclass(slots=True)
class State:
    ruleset: str = ""
    opts: dict = field(default_factory=dict)
    names: tuple[str, ...] = ()
    dealt: tuple[str, ...] = ()  # the cards as dealt, by seat
    roles: list[str] = field(default_factory=list)  # current cards (the thief may swap)
    center: list[str] = field(default_factory=list)
    deck: tuple[str, ...] = ()  # every card of the game, dealt and centre: public (§4)
    seed: int = 0
    alive: list[bool] = field(default_factory=list)
    up: tuple[int, ...] = ()  # the living seats, in seat order (kept with `alive`)
    phase: str = "setup"  # night | day | over
    n: int = 0  # night/day number
    now: str = "setup 0"  # "night 2": phase and n, as `time()` says them
    step: str = ""  # a night step (roles.NIGHT_STEPS), a vote or a prompt (kernel)
    actor: int | None = None  # the one seat a prompt step waits for
    acts: int = 0  # actions applied so far (events carry the number in "a")
    draws: int = 0  # chance draws so far (seeds the next one)
    # the night being played
    picks: dict[int, int | None] = field(default_factory=dict)  # wolves' picks, in order
    done: set[int] = field(default_factory=set)  # who has acted in the TOGETHER step
    spied: bool = False
    caught: bool = False
    protected: int | None = None
    last_protected: int | None = None
    inspected: int | None = None
    devoured: int | None = None
    poisoned: int | None = None
    healed: bool = False
    attack: int | None = None  # the wolves' victim once their step closed
    # lasting facts
    potions: dict[str, bool] = field(default_factory=lambda: {"heal": True, "poison": True})
    lovers: tuple[int, int] | None = None
    charmed: set[int] = field(default_factory=set)
    wounded: set[int] = field(default_factory=set)  # elders who used their spare life
    revealed: set[int] = field(default_factory=set)  # village idiots shown, no vote
    powers_lost: bool = False
    sheriff: int | None = None
    elected: bool = False  # the day-1 election has been held
    # voting
    votes: dict[int, int | None] = field(default_factory=dict)
    candidates: tuple[int, ...] | None = None  # runoff: only these may be named
    # vote_mode=candidates (RULES.md §6): the day's candidates, named by the first
    # round; they may not vote in the rounds that follow it (None: not now)
    nominees: tuple[int, ...] | None = None
    round: int = 1
    ties: list[tuple] = field(default_factory=list)  # this day's tied breakdowns
    allowed: frozenset[int] | None = None  # the scapegoat's voters for today
    allowed_next: frozenset[int] | None = None
    executed: int | None = None  # executed on the last day (for the medium)
    # The Village (RULES.md §8, professions.py)
    village: bool = False  # professions are in play
    prof: list[str] = field(default_factory=list)  # each seat's profession now (or house)
    dealt_prof: tuple[str, ...] = ()  # the professions as dealt, by seat
    vacant: list[str] = field(default_factory=list)  # ownerless buildings (owner dead)
    spent: dict[str, str] = field(default_factory=dict)  # building -> used | lost
    burned: list[tuple[int, str]] = field(default_factory=list)  # (owner, building), in order
    burning: int | None = None  # tonight's fire
    poster: int | None = None  # the accused of the last night's poster
    silenced: frozenset[int] | None = None  # today's silenced voters (None: not used today)
    condemned: int | None = None  # the one the lord may pardon
    # New Moon's event cards (RULES.md §10, event_cards.py, new_moon.py)
    cards: tuple[str, ...] = ()  # the face-down deck, top first (from the seed)
    turned: int = 0  # cards turned so far
    card: str | None = None  # the last card turned
    card_day: int = 0  # the day it was turned
    verdicts: int = 0  # execution votes decided today (two-executions; DAY_VOTED: no more)
    ally: int | None = None  # the wolves' ally
    # deaths and their triggers (RULES.md §6)
    deaths: list[tuple[int, str, str]] = field(default_factory=list)
    queue: list[int] = field(default_factory=list)
    prompts: list[tuple[str, int]] = field(default_factory=list)
    then: str = ""  # where the game goes once the queue is empty: day | night
    winner: str | None = None
    winners: tuple[int, ...] = ()
    notes: list[list[dict]] = field(default_factory=list)  # private results per seat
    log: list[dict] = field(default_factory=list)
    # answers of legal_actions for the state at log length `memo_at` (a pure cache)
    memo: dict = field(default_factory=dict, repr=False, compare=False)
    memo_at: int = -1
    # pure caches that outlive one event (every memo* field is a cache, never state):
    # answers that stay true while the open step only gathers ballots or the
    # pack's picks (cleared by every other event, see `apply`), and the seats
    # holding each card (cleared when a card changes hands)
    memo_step: dict = field(default_factory=dict, repr=False, compare=False)
    memo_cards: dict = field(default_factory=dict, repr=False, compare=False)
    # the night order and powers.py's hook tables less the cards no seat holds
    # (kernel.in_play), the seats of each side's cards (wins._sides); cleared
    # with memo_cards
    memo_play: dict = field(default_factory=dict, repr=False, compare=False)
    # the public view's parts (views._public_view) and, for it, (events read,
    # index of the last "tally" among them)
    memo_views: dict = field(default_factory=dict, repr=False, compare=False)
    memo_tally: tuple[int, int | None] = field(default=(0, None), repr=False, compare=False)
    # views.shared_announcements: (events read, the announcements they made)
    memo_ann: tuple[int, list | None] = field(default=(0, None), repr=False, compare=False)

    @property
    def size(self) -> int:
        return len(self.names)

    def time(self) -> str:
        return self.now


# --- the fold -----------------------------------------------------------------

def _setup(s: State, e: dict) -> None:
    # a game stored before night_s became an exact window reads it as it was meant
    s.ruleset, s.opts, s.seed = e["ruleset"], migrate_options(e["ruleset"], dict(e["options"])), \
        e["seed"]
    s.names, s.dealt = tuple(e["players"]), tuple(e["deal"])
    s.deck = s.dealt + tuple(e["center"])
    s.roles, s.center = list(e["deal"]), list(e["center"])
    s.alive = [True] * len(s.names)
    s.up = tuple(range(len(s.names)))
    s.notes = [[] for _ in s.names]
    profs = e.get("professions")  # absent from games without professions
    s.village = profs is not None
    s.prof = list(profs) if profs is not None else ["house"] * len(s.names)
    s.dealt_prof = tuple(s.prof)
    s.cards = event_cards.deck(s.opts, s.seed)  # empty without events: older logs unchanged


def _night(s: State, e: dict) -> None:
    s.phase, s.n = "night", e["n"]
    s.now = f"night {s.n}"
    s.picks, s.done = {}, set()
    s.spied = s.caught = s.healed = False
    s.last_protected, s.protected = s.protected, None
    s.inspected = s.devoured = s.poisoned = s.attack = None
    s.burning = s.poster = None


def _day(s: State, e: dict) -> None:
    s.phase, s.n = "day", e["n"]
    s.now = f"day {s.n}"
    s.ties = []
    s.allowed, s.allowed_next = s.allowed_next, None
    s.executed = None
    s.silenced = None
    s.verdicts = 0


def _step(s: State, e: dict) -> None:
    s.step, s.actor = e["step"], e.get("actor")
    if "condemned" in e:  # the lord's pardon
        s.condemned = e["condemned"]
    if "round" in e:  # a vote opens
        s.votes = {}
        s.round = e["round"]
        c = e.get("candidates")
        s.candidates = tuple(c) if c is not None else None
        c = e.get("nominees")  # absent from every other vote: older logs alike
        s.nominees = tuple(c) if c is not None else None


def _act(s: State, e: dict) -> None:
    do, seat = e["do"], e.get("actor")
    if do == "vote" and seat is not None:  # a ballot: the commonest event by far
        s.votes[seat] = e.get("target")
        return
    if s.step in ("hunter", "appoint", "allow") and s.prompts:
        s.prompts.pop(0)
    if seat is None:
        return  # a timeout: the defaults it applies are events of their own
    if s.step == TOGETHER:
        s.done.add(seat)  # his own part of the night is done (a wolf's: his pick)
    if do == "vote":
        s.votes[seat] = e.get("target")
    elif do == "attack":
        s.picks[seat] = e["target"]
    elif do == "pass" and s.step in ("wolves", TOGETHER):
        if ROLES[s.roles[seat]].wolf:
            s.picks[seat] = None  # a wolf's pick of nobody
        elif s.step == "wolves":
            s.spied = True  # the one who may spy in the pack's step declined
    elif do == "spy":
        s.spied = True
        s.caught = e["outcome"] == "caught"
        _note(s, seat, e)
    elif do == "inspect":
        s.inspected = e["target"]
        _note(s, seat, e)
    elif do in ("protect", "guard"):
        s.protected = e["target"]
    elif do == "devour":
        s.devoured = e["target"]
    elif do == "potion":
        if e["heal"]:
            s.healed, s.potions["heal"] = True, False
        if e["poison"] is not None:
            s.poisoned, s.potions["poison"] = e["poison"], False
        if WITCH_SINGLE_POTION.of(s.opts) and (e["heal"] or e["poison"] is not None):
            s.potions = {"heal": False, "poison": False}  # one potion a game [003]
    elif do == "charm":
        s.charmed.update(e["targets"])
    elif do == "link":
        a, b = e["targets"]
        s.lovers = (a, b)
        _note(s, a, {"e": "lover", "partner": b})
        _note(s, b, {"e": "lover", "partner": a})
    elif do == "swap":
        s.roles[seat], s.center[e["card"]] = s.center[e["card"]], s.roles[seat]
        s.memo_cards.clear()
        s.memo_play.clear()
    elif do in VILLAGE_ACTS:
        VILLAGE_ACTS[do](s, seat, e)


# --- The Village's acts (RULES.md §8) ---

def _burn(s: State, seat: int, e: dict) -> None:
    s.burning = e["target"]


def _post(s: State, seat: int, e: dict) -> None:
    s.poster = e["target"]


def _confess(s: State, seat: int, e: dict) -> None:
    s.spent["confessor"] = "used"
    _note(s, seat, e)


def _shave(s: State, seat: int, e: dict) -> None:
    if not e["wolf"]:  # on a wolf his power stays usable [000]
        s.spent["barber"] = "used"


def _pardon(s: State, seat: int, e: dict) -> None:
    s.spent["lord"] = "used"


def _silence(s: State, seat: int, e: dict) -> None:
    s.silenced = frozenset((seat, *e["targets"]))  # she loses her own vote too [000]


def _restore(s: State, seat: int, e: dict) -> None:
    s.spent.pop(e["power"], None)
    s.spent["bonesetter"] = "used"


def _assign(s: State, seat: int, e: dict) -> None:
    building = e["building"]
    s.vacant.remove(building)
    s.prof[e["target"]] = building
    s.spent.pop(building, None)  # its used power is usable again [000]


VILLAGE_ACTS = {"burn": _burn, "post": _post, "confess": _confess, "shave": _shave,
                "pardon": _pardon, "silence": _silence, "restore": _restore, "assign": _assign}


def _card(s: State, e: dict) -> None:
    s.roles[e["seat"]] = e["role"]
    s.memo_cards.clear()
    s.memo_play.clear()


def _attack(s: State, e: dict) -> None:
    s.attack = e["target"]


def _died(s: State, e: dict) -> None:
    seat = e["seat"]
    s.alive[seat] = False
    if seat in s.up:
        k = s.up.index(seat)
        s.up = s.up[:k] + s.up[k + 1:]
    s.deaths.append((seat, e["cause"], e["time"]))
    s.queue.append(seat)
    if e["cause"] == "execution":
        s.executed = seat
    if s.village and s.prof[seat] not in ("drifter", "house"):
        s.vacant.append(s.prof[seat])  # his building has no owner now


def _resolve(s: State, e: dict) -> None:
    s.then = e["then"]
    if e["then"] == "night" and s.phase == "day":  # an execution vote decided
        # a vote with no ballots ends the day's voting (RULES.md §6 Decision)
        s.verdicts = DAY_VOTED if e.get("ends_day") else s.verdicts + 1
        s.ties = []  # a second vote's ties are its own (two-executions, RULES.md §10)


def _triggers(s: State, e: dict) -> None:
    s.queue.pop(0)
    if e["prompts"] or s.prompts:
        s.prompts = [(kind, seat) for kind, seat in e["prompts"]]


def _wounded(s: State, e: dict) -> None:
    s.wounded.add(e["seat"])


def _powers_lost(s: State, e: dict) -> None:
    s.powers_lost = True


def _revealed(s: State, e: dict) -> None:
    s.revealed.add(e["seat"])


def _sheriff(s: State, e: dict) -> None:
    s.sheriff = e["seat"]
    if e.get("how") in ("elected", "drawn", "none"):
        s.elected = True


def _tally(s: State, e: dict) -> None:
    if e.get("tie") and e["step"] == "vote":
        s.ties.append((tuple(e["tie"]), e["top"]))


def _allowed(s: State, e: dict) -> None:
    voters = e["voters"]
    s.allowed_next = None if voters is None else frozenset(voters)


def _burned(s: State, e: dict) -> None:
    seat = e["seat"]
    s.burned.append((seat, s.prof[seat]))
    s.prof[seat] = "drifter"  # the building is gone [000]


def _spent(s: State, e: dict) -> None:
    s.spent[e["building"]] = e["power"]


def _private(s: State, e: dict) -> None:
    _note(s, e["seat"], e)


def _event(s: State, e: dict) -> None:
    s.turned += 1
    s.card, s.card_day = e["card"], e["n"]


def _ally(s: State, e: dict) -> None:
    if e["seat"] is not None:  # None: a wolf or a solo card named, nothing happens
        s.ally = e["seat"]
        _note(s, e["seat"], e)


def _over(s: State, e: dict) -> None:
    s.phase, s.step, s.actor = "over", "over", None
    s.now = f"over {s.n}"
    s.winner, s.winners = e["winner"], tuple(e["winners"])


def _note(s: State, seat: int, e: dict) -> None:
    s.notes[seat].append({**e, "time": s.now})


APPLY = {
    "setup": _setup, "night": _night, "day": _day, "step": _step, "act": _act,
    "card": _card, "attack": _attack, "died": _died, "resolve": _resolve,
    "triggers": _triggers, "wounded": _wounded, "powers-lost": _powers_lost,
    "revealed": _revealed, "sheriff": _sheriff, "tally": _tally, "allowed": _allowed,
    "drawn": lambda s, e: None, "skip": lambda s, e: s.prompts.pop(0),
    "shown": _private, "medium": _private, "centre": _private, "over": _over,
    "burned": _burned, "spent": _spent, "baker": _private,
    "event": _event, "ally": _ally,
}


#: "act" events after which `State.memo_step` still holds: a ballot or a pick
#: changes who has still to act, never what anyone may choose.
STEP_KEEPS = frozenset({"vote", "attack", "spy", "pass", "timeout"})


def apply(state: State, event: dict) -> State:
    """Fold one event into the state (in place) and return it."""
    kind = event["e"]
    APPLY[kind](state, event)
    if kind != "act" or event["do"] not in STEP_KEEPS:
        state.memo_step.clear()
    state.acts = event.get("a", state.acts)
    if "draw" in event:
        state.draws += 1
    return state


def rebuild(log: list[dict]) -> State:
    """The state reached by folding `log` from an empty game."""
    state = State()
    for event in log:
        apply(state, event)
    state.log = list(log)
    return state
