"""Scripted games (docs/replay.md): names at the edge, seats inside the engine.

`run_replay(doc)` takes the parsed JSON document and returns `(result, status)`;
it does no I/O, so the CLI, the hub and the tests share it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

from .engine import (
    Action,
    EngineError,
    IllegalAction,
    SetupError,
    State,
    act,
    characters,
    new_game,
    step_label,
)
from .engine.actions import ACTION_IDS

GAME_FIELDS = frozenset({"ruleset", "options", "players", "deal", "center", "professions",
                         "seed", "actions", "note"})
ACTION_FIELDS = frozenset({"actor", "do", "target", "targets", "heal", "poison", "card", "mode",
                           "outcome", "power", "building"})


def check_names(players: list[str]) -> None:
    """[issue 9] input problems: every name is one line of visible text, and no
    two names are the same text written with different Unicode code points
    (equal after NFC normalisation). Identical names are left to the engine's
    own duplicate check. Raises SetupError naming the first bad name.

    A script's names are names like any other: they refuse what the table
    refuses in a player's name, by the one rule (engine/characters.py) —
    an invisible or direction-changing character inside a visible name
    ("A\\u200bnn", "\\u202eevil") and a pile of combining marks too
    [issue 45]."""
    seen: dict[str, int] = {}
    for number, name in enumerate(players, 1):
        where = f"name {number} in 'players' ({name!r})"
        if any(unicodedata.category(c) in ("Cc", "Zl", "Zp") for c in name):
            raise SetupError(f"{where} holds a line break or another control character")
        if any(unicodedata.category(c) == "Cs" for c in name):
            raise SetupError(f"{where} is not valid Unicode text (a lone surrogate)")
        if characters.blank(name):
            raise SetupError(f"{where} has nothing visible in it")
        said = characters.refusal(name)
        if said is not None:
            raise SetupError(f"{where} {said}")
        piled = characters.stacked(name)
        if piled is not None:
            raise SetupError(f"{where} has {piled[1]} combining marks on one letter (its "
                             f"character {piled[0] + 1}): at most {characters.MAX_MARKS}")
        key = unicodedata.normalize("NFC", name)
        first = seen.setdefault(key, number)
        if first != number and players[first - 1] != name:
            raise SetupError(f"names {first} and {number} in 'players' are the same name "
                             f"{key!r} written with different Unicode characters")


def _per_player(mapping: dict, players: list[str], item: str, whole: str,
                bad_id: str) -> list[str]:
    """`mapping` (player -> id: the deal, the professions) as a list in seat
    order; every player listed, no one else, every value a string."""
    missing = [p for p in players if p not in mapping]
    extra = [p for p in mapping if p not in players]
    if missing or extra:
        parts = ([f"no {item} for {', '.join(missing)}"] if missing else []) + (
            [f"{', '.join(map(str, extra))} not among the players"] if extra else [])
        raise SetupError(f"{whole} not match the players: {'; '.join(parts)}")
    ids = [mapping[p] for p in players]
    if not all(isinstance(i, str) for i in ids):
        raise SetupError(bad_id)
    return ids


def setup_game(doc: object) -> State:
    """A new game from the setup part of a scripted game (everything but `actions`)."""
    if not isinstance(doc, dict):
        raise SetupError("a scripted game is a JSON object")
    unknown = sorted(set(doc) - GAME_FIELDS)
    if unknown:
        raise SetupError(f"unknown field(s): {', '.join(unknown)}")
    players = doc.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise SetupError("'players' must be a list of names")
    check_names(players)
    if "ruleset" not in doc or not isinstance(doc["ruleset"], str):
        raise SetupError("'ruleset' must name a ruleset")
    options = doc.get("options", {})
    if not isinstance(options, dict):
        raise SetupError("'options' must be an object")
    professions = doc.get("professions", {})
    if not isinstance(professions, dict):
        raise SetupError("'professions' must map each player to a profession id")
    tokens = None
    if professions:  # The Village (RULES.md §8): every player listed
        tokens = _per_player(professions, players, "profession", "the professions do",
                             "every profession in 'professions' must be a profession id")
    deal = doc.get("deal")
    cards = None
    if deal is not None:
        if not isinstance(deal, dict):
            raise SetupError("'deal' must map each player to a role id")
        cards = _per_player(deal, players, "card", "the deal does",
                            "every card in 'deal' must be a role id")
    center = doc.get("center", [])
    if not isinstance(center, list) or not all(isinstance(c, str) for c in center):
        raise SetupError("'center' must be a list of role ids")
    return new_game(doc["ruleset"], players, cards, options, center, doc.get("seed", 0),
                    professions=tokens)


def parse_action(state: State, raw: object) -> Action:
    """An engine Action from one scripted action (names turned into seats)."""
    if not isinstance(raw, dict):
        raise IllegalAction("an action is a JSON object")
    unknown = sorted(set(raw) - ACTION_FIELDS)
    if unknown:
        raise IllegalAction(f"unknown action field(s): {', '.join(unknown)}")
    do = raw.get("do")
    if not isinstance(do, str) or do not in ACTION_IDS:
        raise IllegalAction(f"unknown action {do!r}")
    seats = {name: i for i, name in enumerate(state.names)}
    no_actor = do == "timeout" and raw.get("actor") is None
    actor = None if no_actor else _seat(seats, raw.get("actor"), "actor")
    fields: dict = {key: read(seats, raw[key]) for key, read in _READERS if key in raw}
    return Action(actor, do, **fields)


def _seat(seats: dict[str, int], name: object, what: str) -> int:
    if not isinstance(name, str) or name not in seats:
        raise IllegalAction(f"{what}: unknown player {name!r}")
    return seats[name]


def _targets(seats: dict[str, int], value: object) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise IllegalAction("'targets' must be a list of players")
    return tuple(_seat(seats, t, "targets") for t in value)


def _heal(seats: dict[str, int], value: object) -> bool:
    if not isinstance(value, bool):
        raise IllegalAction("'heal' must be true or false")
    return value


def _card(seats: dict[str, int], value: object) -> int:
    if type(value) is not int or value not in (0, 1):
        raise IllegalAction("'card' must be 0 or 1")
    return value


def _text(key: str) -> Callable[[dict[str, int], object], str]:
    def read(seats: dict[str, int], value: object) -> str:
        if not isinstance(value, str):
            raise IllegalAction(f"'{key}' must be a string")
        return value
    return read


#: each field of a scripted action (but `actor` and `do`), read in this order
#: (the first wrong one is the one named): its value as the Action holds it
_READERS: tuple[tuple[str, Callable[[dict[str, int], object], object]], ...] = (
    ("target", lambda seats, value: _seat(seats, value, "target")),
    ("targets", _targets),
    ("heal", _heal),
    ("poison", lambda seats, value: None if value is None else _seat(seats, value, "poison")),
    ("card", _card),
    *((key, _text(key)) for key in ("mode", "outcome", "power", "building")),
)


def result_of(state: State) -> dict:
    names = state.names
    return {
        "winner": state.winner,
        "winners": [names[i] for i in state.winners],
        "deaths": [{"player": names[s], "cause": c, "time": t} for s, c, t in state.deaths],
        "alive": [n for i, n in enumerate(names) if state.alive[i]],
        "sheriff": names[state.sheriff] if state.sheriff is not None else None,
        "step": step_label(state),
        "players": list(names),
        "events": state.log,
    }


def run_replay(doc: object) -> tuple[dict, int]:
    """Play a scripted game; return (output object, exit status)."""
    try:
        state = setup_game(doc)
    except EngineError as err:
        return {"error": {"index": None, "message": str(err)}}, 2
    assert isinstance(doc, dict)  # setup_game accepted it
    actions = doc.get("actions", [])
    if not isinstance(actions, list):
        return {"error": {"index": None, "message": "'actions' must be a list"}}, 2
    for index, raw in enumerate(actions):
        try:
            act(state, parse_action(state, raw))
        except EngineError as err:
            out = result_of(state)
            out["error"] = {"index": index, "message": str(err)}
            return out, 2
    return result_of(state), 0
