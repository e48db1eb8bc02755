"""What a seat may do: `Action` (one decision) and `Choice` (a family of legal actions).

`legal_actions(state, seat)` answers with Choices, not an exploded list: a
phone renders one Choice as one form ("pick 2 of these players"), a seat box
maps its button to the `vote` Choice, and a random player samples from it.
`Choice.allows(action)` is the single legality test the engine uses.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from math import comb
from random import Random
from typing import ClassVar, TypeVar

from .errors import IllegalAction

ACTION_IDS = frozenset({
    "swap", "link", "protect", "guard", "inspect", "attack", "spy", "devour", "potion",
    "charm", "burn", "post", "vote", "shoot", "appoint", "allow", "pardon", "confess",
    "shave", "silence", "restore", "assign", "name", "pass", "timeout",
})
#: Actions that name a set of players (`targets`), whatever its size.
MULTI = frozenset({"link", "charm", "allow", "silence"})
T = TypeVar("T")
SPY_MODES = ("discreet", "bold")
SPY_OUTCOMES = ("wolf", "caught", "nothing")


@dataclass(frozen=True)
class Action:
    """One decision by one seat (`actor` None only for `timeout`)."""

    actor: int | None
    do: str
    target: int | None = None
    targets: tuple[int, ...] = ()
    heal: bool = False
    poison: int | None = None
    card: int | None = None
    mode: str | None = None
    outcome: str | None = None
    power: str | None = None  # restore: the once-only power made usable again
    building: str | None = None  # assign: the ownerless building handed over

    # the dataclass's own __init__, written out: one Action is built per action
    # played, and the generated one (frozen: one object.__setattr__ per field)
    # took six times as long. A field left at its default is not stored: the
    # class attribute the dataclass keeps for each default answers for it.
    def __init__(self, actor: int | None, do: str, target: int | None = None,
                 targets: tuple[int, ...] = (), heal: bool = False, poison: int | None = None,
                 card: int | None = None, mode: str | None = None,
                 outcome: str | None = None, power: str | None = None,
                 building: str | None = None) -> None:
        d = self.__dict__
        d["actor"], d["do"], d["target"] = actor, do, target
        if targets != ():
            d["targets"] = targets
        if heal is not False:
            d["heal"] = heal
        if poison is not None:
            d["poison"] = poison
        if card is not None:
            d["card"] = card
        if mode is not None:
            d["mode"] = mode
        if outcome is not None:
            d["outcome"] = outcome
        if power is not None:
            d["power"] = power
        if building is not None:
            d["building"] = building

    @classmethod
    def of(cls, actor: int, do: str, target: int | None = None) -> Action:
        """`Action(actor, do, target)` without `__init__`'s keyword handling:
        what a random player builds for nearly every action (Choice.one_of)."""
        action = object.__new__(cls)
        d = action.__dict__
        d["actor"] = actor
        d["do"] = do
        d["target"] = target
        return action

    def to_dict(self) -> dict:
        if len(self.__dict__) == 3 and self.do not in _LISTED:  # actor, do, target: most
            if self.target is None:
                return {"actor": self.actor, "do": self.do}
            return {"actor": self.actor, "do": self.do, "target": self.target}
        out: dict = {"actor": self.actor, "do": self.do}
        if self.target is not None:
            out["target"] = self.target
        if self.do in MULTI:
            out["targets"] = list(self.targets)
        if self.do == "potion":
            out["heal"], out["poison"] = self.heal, self.poison
        if self.card is not None:
            out["card"] = self.card
        if self.mode is not None:
            out["mode"] = self.mode
        if self.outcome is not None:
            out["outcome"] = self.outcome
        if self.power is not None:
            out["power"] = self.power
        if self.building is not None:
            out["building"] = self.building
        return out

    @classmethod
    def from_dict(cls, d: object) -> Action:
        """The action a JSON object describes: the inverse of `to_dict`.

        Keys: "do" (required), "actor" (a seat; missing or None only for
        "timeout"), "target", "poison", "card" (int or None), "targets" (a list
        of seats), "heal" (bool), "mode", "outcome" (str or None). Seats are
        ints: bools and floats are refused. "power" and "building" (str or None)
        name a profession (restore, assign). Anything malformed raises
        IllegalAction (never TypeError or KeyError); whether the action is
        legal now is `act`'s question."""
        if not isinstance(d, dict):
            raise IllegalAction(f"an action is a JSON object, not {type(d).__name__}")
        unknown = sorted(str(k) for k in d if k not in _FIELDS)
        if unknown:
            raise IllegalAction(f"unknown action field(s): {', '.join(unknown)}")
        do = d.get("do")
        if not isinstance(do, str) or do not in ACTION_IDS:
            raise IllegalAction(f"unknown action {do!r}")
        actor = d.get("actor")
        if actor is None and do != "timeout":
            raise IllegalAction(f"{do!r} needs an actor")
        for key in ("actor", "target", "poison", "card"):
            value = d.get(key)
            if value is not None and type(value) is not int:
                raise IllegalAction(f"{key!r} must be a seat number (an int), not {value!r}")
        targets = d.get("targets", [])
        if not isinstance(targets, (list, tuple)) or any(type(t) is not int for t in targets):
            raise IllegalAction(f"'targets' must be a list of seat numbers, not {targets!r}")
        heal = d.get("heal", False)
        if type(heal) is not bool:
            raise IllegalAction(f"'heal' must be true or false, not {heal!r}")
        for key in ("mode", "outcome", "power", "building"):
            value = d.get(key)
            if value is not None and not isinstance(value, str):
                raise IllegalAction(f"{key!r} must be a string, not {value!r}")
        action = cls(actor, do, target=d.get("target"), targets=tuple(targets), heal=heal,
                     poison=d.get("poison"), card=d.get("card"), mode=d.get("mode"),
                     outcome=d.get("outcome"), power=d.get("power"), building=d.get("building"))
        check_shape(action)
        return action


#: Actions whose dict lists fields even at their defaults (Action.to_dict).
_LISTED = MULTI | {"potion"}
#: Actions that may come as a seat naming at most one seat (check_shape's fast path).
_ONE_SEAT = ACTION_IDS - {"spy", "timeout", "restore", "assign"}

_FIELDS = frozenset({"actor", "do", "target", "targets", "heal", "poison", "card", "mode",
                     "outcome", "power", "building"})
#: Choices that name one seat but are not only a seat (Choice.allows' fast path).
_NOT_PLAIN = MULTI | {"assign"}


@dataclass(frozen=True)
class Choice:
    """A family of legal actions of one kind for one seat.

    - `targets`/`count`: name `count[0]`..`count[1]` distinct seats among `targets`
      (in `targets` for the MULTI actions, in `target` for the others;
      for `potion` they are the poison candidates, 0 or 1 of them).
    - `heal`: the witch may heal tonight's victim (`potion` only).
    - `cards`: centre card indexes (thief); `modes`: spy modes (little girl).
    - `powers`: the powers the bonesetter may restore (`restore`);
      `buildings`: the ownerless buildings the steward may hand to one of
      `targets` (`assign`).
    """

    do: str
    targets: tuple[int, ...] = ()
    count: tuple[int, int] = (0, 0)
    heal: bool = False
    cards: tuple[int, ...] = ()
    modes: tuple[str, ...] = ()
    powers: tuple[str, ...] = ()
    buildings: tuple[str, ...] = ()
    info: Mapping[str, object] | None = field(default=None, compare=False, hash=False)
    #: names one seat among `targets` and nothing else (`count` (1, 1), not
    #: MULTI nor assign): most choices, and the fast path of `allows`, `sample`
    #: and `sample_uniform`. Set by `__init__`; not a field (derived from them).
    one: ClassVar[bool] = False

    def __init__(self, do: str, targets: tuple[int, ...] = (), count: tuple[int, int] = (0, 0),
                 heal: bool = False, cards: tuple[int, ...] = (), modes: tuple[str, ...] = (),
                 info: dict | None = None, powers: tuple[str, ...] = (),
                 buildings: tuple[str, ...] = ()) -> None:  # written out, as Action's
        d = self.__dict__  # a field left at its default is not stored (Action.__init__)
        d["do"] = do
        if info is not None:
            d["info"] = info
        if targets != ():
            d["targets"] = targets
        if count != (0, 0):
            d["count"] = count
            if count == (1, 1) and do not in _NOT_PLAIN:
                d["one"] = True
        if heal is not False:
            d["heal"] = heal
        if cards != ():
            d["cards"] = cards
        if modes != ():
            d["modes"] = modes
        if powers != ():
            d["powers"] = powers
        if buildings != ():
            d["buildings"] = buildings

    @property
    def one_potion(self) -> bool:
        """`potion` under `witch_single_potion` (RULES.md §5 witch [003]): heal
        or poison, not both (said in `info`, so the phone shows it too)."""
        return bool(self.info and self.info.get("one_potion"))

    @classmethod
    def one_of(cls, do: str, targets: tuple[int, ...]) -> Choice:
        """`Choice(do, targets, (1, 1))` for a plain `do` (not MULTI nor
        assign), without `__init__`'s argument handling: the commonest Choice
        (every voter's ballot), built about 1.5x as fast."""
        choice = object.__new__(cls)
        d = choice.__dict__
        d["do"] = do
        d["targets"] = targets
        d["count"] = (1, 1)
        d["one"] = True
        return choice

    def allows(self, a: Action) -> bool:
        if a.do != self.do:
            return False
        if self.one:  # one seat among targets: most
            return a.target in self.targets and not a.targets
        return _ALLOWS.get(self.do, Choice._allows_seats)(self, a)

    # `allows` per kind (`_ALLOWS`), once the kind matches and it is not `one`

    def _allows_assign(self, a: Action) -> bool:
        return a.target in self.targets and a.building in self.buildings and not a.targets

    def _allows_restore(self, a: Action) -> bool:
        return a.power in self.powers and a.target is None and not a.targets

    def _allows_potion(self, a: Action) -> bool:
        if a.heal and not self.heal:
            return False
        if a.heal and a.poison is not None and self.one_potion:
            return False  # `witch_single_potion`: heal or poison, not both [003]
        return a.poison is None or a.poison in self.targets

    def _allows_swap(self, a: Action) -> bool:
        return a.card in self.cards

    def _allows_spy(self, a: Action) -> bool:
        return a.mode in self.modes and (a.outcome is None or a.outcome in SPY_OUTCOMES)

    def _allows_seats(self, a: Action) -> bool:
        """Every other kind: no seat (`count` (0, 0)) or one of `targets`, or
        for the MULTI ones `count` distinct seats among them."""
        if self.do not in MULTI:
            if self.count == (0, 0):
                return a.target is None and not a.targets
            return a.target in self.targets and not a.targets
        lo, hi = self.count
        picked = a.targets
        return (lo <= len(picked) <= hi and len(set(picked)) == len(picked)
                and all(t in self.targets for t in picked))

    @property
    def size(self) -> int:
        """How many distinct actions this family holds."""
        do = self.do
        if do == "pass":
            return 1
        if do == "potion":
            if self.one_potion:  # heal, or poison one, or neither
                return len(self.targets) + 1 + (1 if self.heal else 0)
            return (2 if self.heal else 1) * (len(self.targets) + 1)
        if do == "swap":
            return len(self.cards)
        if do == "spy":
            return len(self.modes)
        if do == "assign":
            return len(self.targets) * len(self.buildings)
        if do == "restore":
            return len(self.powers)
        if do not in MULTI:
            return 1 if self.count == (0, 0) else len(self.targets)
        lo, hi = self.count
        return sum(comb(len(self.targets), k) for k in range(lo, hi + 1))

    def sample(self, actor: int, rng: Random) -> Action:
        """One of this family's actions, each equally likely."""
        do = self.do
        if self.one:  # one seat among targets: most
            targets = self.targets
            return Action.of(actor, do, targets[int(rng.random() * len(targets))])  # pick(), inline
        if do == "potion":
            if self.one_potion:  # each of the size's actions alike
                k = int(rng.random() * self.size)
                if k < len(self.targets):
                    return Action(actor, do, poison=self.targets[k])
                return Action(actor, do, heal=self.heal and k == len(self.targets) + 1)
            heal = self.heal and rng.random() < 0.5
            poison = rng.choice(self.targets + (None,)) if self.targets else None
            return Action(actor, do, heal=heal, poison=poison)
        if do == "swap":
            return Action(actor, do, card=rng.choice(self.cards))
        if do == "spy":
            return Action(actor, do, mode=rng.choice(self.modes))
        if do == "assign":
            return Action(actor, do, target=rng.choice(self.targets),
                          building=rng.choice(self.buildings))
        if do == "restore":
            return Action(actor, do, power=rng.choice(self.powers))
        if do not in MULTI:
            if self.count == (0, 0):
                return Action(actor, do)
            return Action(actor, do, target=rng.choice(self.targets))
        lo, hi = self.count
        n = len(self.targets)
        sizes = range(lo, hi + 1)
        k = rng.choices(sizes, weights=[comb(n, k) for k in sizes])[0] if lo != hi else lo
        return Action(actor, do, targets=tuple(rng.sample(self.targets, k)))

    def to_dict(self) -> dict:
        out: dict = {"do": self.do}
        if self.count != (0, 0) or self.do == "potion":
            out["targets"] = list(self.targets)
            out["count"] = list(self.count)
        if self.do in MULTI:  # answered with "targets", a list (the pages read this)
            out["multi"] = True
        if self.do == "potion":
            out["heal"] = self.heal
        if self.cards:
            out["cards"] = list(self.cards)
        if self.modes:
            out["modes"] = list(self.modes)
        if self.powers:
            out["powers"] = list(self.powers)
        if self.buildings:
            out["buildings"] = list(self.buildings)
        if self.info:
            out.update(self.info)
        return out


def pick(seq: Sequence[T], rng: Random) -> T:
    """One item of `seq`, each equally likely: `rng.choice` in one call to the
    generator instead of four Python calls (the random player's hot path)."""
    return seq[int(rng.random() * len(seq))]


def sample_uniform(choices: list[Choice], actor: int, rng: Random) -> Action:
    """One of all the actions the choices hold, each equally likely."""
    if len(choices) == 1:
        one = choices[0]
        if one.one:  # a ballot: Choice.sample's first case
            targets = one.targets
            return Action.of(actor, one.do, targets[int(rng.random() * len(targets))])
        return one.sample(actor, rng)
    # one draw among all the actions; a Choice naming one seat takes its target
    # from the same draw (uniform within the Choice, as the Choice is over all)
    sizes = [len(c.targets) if c.one else c.size for c in choices]
    k = int(rng.random() * sum(sizes))
    for choice, size in zip(choices, sizes):
        if k < size:
            break
        k -= size
    if choice.one:
        return Action.of(actor, choice.do, choice.targets[k])
    if choice.do == "pass":
        return Action.of(actor, "pass")
    return choice.sample(actor, rng)


def check_shape(a: Action) -> None:
    """Reject actions whose fields do not fit their kind, before any rule is asked."""
    if (len(a.__dict__) == 3 and type(a.actor) is int  # no other field set (Action.__init__)
            and (a.target is None or type(a.target) is int)
            and type(a.do) is str and a.do in _ONE_SEAT):
        return  # the usual shape: a seat naming at most one seat
    if not isinstance(a.do, str) or a.do not in ACTION_IDS:
        raise IllegalAction(f"unknown action {a.do!r}")
    if a.do == "timeout":
        if a.actor is not None:
            raise IllegalAction("'timeout' has no actor")
        return
    if a.actor is None:
        raise IllegalAction(f"{a.do!r} needs an actor")
    for check in _SHAPES:
        wrong = check(a)
        if wrong is not None:
            raise IllegalAction(wrong)


# check_shape's checks of the fields, in order (what is wrong, or None)

def _seats_are_ints(a: Action) -> str | None:
    # a bool or a float would pass for a seat in `in` tests: only ints are seats
    if type(a.actor) is not int or any(v is not None and type(v) is not int
                                       for v in (a.target, a.poison, a.card)):
        return f"seats and cards are ints: {a!r}"
    return None


def _targets_are_seats(a: Action) -> str | None:
    if type(a.targets) is not tuple or (a.targets and any(type(t) is not int for t in a.targets)):
        return f"targets must be a tuple of seat numbers, not {a.targets!r}"
    return None


def _spy_mode(a: Action) -> str | None:
    if a.do == "spy" and a.mode not in SPY_MODES:
        return f"spy mode must be one of {list(SPY_MODES)}, not {a.mode!r}"
    return None


def _power_with_restore(a: Action) -> str | None:
    if (a.power is not None) != (a.do == "restore") or (
            a.power is not None and type(a.power) is not str):
        return "'power' (a profession id) goes with 'restore', and only there"
    return None


def _building_with_assign(a: Action) -> str | None:
    if (a.building is not None) != (a.do == "assign") or (
            a.building is not None and type(a.building) is not str):
        return "'building' (a profession id) goes with 'assign', and only there"
    return None


def _spy_outcome(a: Action) -> str | None:
    if a.outcome is not None and a.outcome not in SPY_OUTCOMES:
        return f"spy outcome must be one of {list(SPY_OUTCOMES)}, not {a.outcome!r}"
    return None


_SHAPES: tuple[Callable[[Action], str | None], ...] = (
    _seats_are_ints, _targets_are_seats, _spy_mode, _power_with_restore, _building_with_assign,
    _spy_outcome)

#: `Choice.allows` for the kinds with fields of their own
_ALLOWS: dict[str, Callable[[Choice, Action], bool]] = {
    "assign": Choice._allows_assign, "restore": Choice._allows_restore,
    "potion": Choice._allows_potion, "swap": Choice._allows_swap, "spy": Choice._allows_spy}
