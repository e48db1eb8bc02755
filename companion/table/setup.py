"""One parse of a game's setup: the POST /api/games body, a saved setup and a
new game's record all go through `parse_setup`, so they accept and refuse
the same things with the same words.

A setup is the replay format's setup fields (docs/replay.md) plus the hub's
own: `language` (the pages' language), `buttons` (how votes are cast),
`narrated` (the hub narrates and nobody runs the game, companion/speech/narration.py),
`wait_for_start` (the game waits for the game master's "start": every phone
opens its card first, and nothing is accepted before [issue 28]) and
`cards` (the whole box as role counts: the hub deals it from the seed,
contract C2) instead of `deal`/`center`, and `readings` (how the narrator
says a name, {name: reading}, optional [issue 42]).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..engine import EngineError, State
from ..engine.dealing import deal_cards
from ..replay import check_names, setup_game
from ..words import LANGUAGES
from .errors import BadInput
from .player_names import clean_name, clean_names, clean_readings

#: how a game's votes are cast [issue 7]: on the phones, or with the seat boxes'
#: buttons by roll-call (a press in a candidate's window) or lock-in (a pick
#: on the phone, locked by a press)
BUTTONS = ("phones", "roll-call", "lock-in")
#: the replay format's setup fields (the engine's)
ENGINE_FIELDS = ("ruleset", "options", "players", "deal", "center", "professions", "seed")
SETUP_FIELDS = (*ENGINE_FIELDS, "cards", "language", "buttons", "narrated", "wait_for_start",
                "readings")


@dataclass(frozen=True)
class GameSetup:
    """A parsed setup: what the store keeps, and the game it deals."""

    record: dict  # the setup's fields as given, with the seed the hub drew
    state: State  # the new game at its first step
    language: str
    buttons: str
    wait_for_start: bool = False


def parse_setup(doc: object, draw_seed: Callable[[], int] | None = None,
                seat_check: Callable[[int], None] | None = None) -> GameSetup:
    """Check a setup and deal its game; BadInput (one clear message) if the
    hub or the engine would refuse it. `draw_seed` gives the seed a `cards`
    setup without one is shuffled from (a new game); without it (a saved
    setup, only checked) such a setup is dealt from seed 0 and its record
    keeps no seed, so every game made from it draws its own. `seat_check`
    raises ValueError when the seat boxes cannot seat a button-voting game."""
    if not isinstance(doc, dict):
        raise BadInput("a game is a JSON object of the replay format's setup fields")
    language, buttons, wait = _hub_fields(doc)
    doc = _with_readings(_named(doc), language)
    record = {k: doc[k] for k in SETUP_FIELDS if k in doc}
    engine_doc = {k: v for k, v in doc.items() if k in ENGINE_FIELDS}
    if "cards" in doc:
        _deal(doc, record, engine_doc, draw_seed)
    try:
        state = setup_game(engine_doc)
    except EngineError as err:
        raise BadInput(str(err)) from None
    if buttons != "phones" and seat_check is not None:
        try:
            seat_check(state.size)
        except ValueError as err:
            raise BadInput(f"{err}; or vote on the phones") from None
    return GameSetup(record=record, state=state, language=language, buttons=buttons,
                     wait_for_start=wait)


def _hub_fields(doc: dict) -> tuple[str, str, bool]:
    """The hub's own fields checked (no unknown field, the language, the
    buttons, `narrated`, `wait_for_start`): the language, the buttons and
    whether night 1 waits for the start."""
    unknown = sorted(set(doc) - set(SETUP_FIELDS))
    if unknown:
        hint = " (a new game takes no actions: send them to /api/actions)" \
            if "actions" in unknown else ""
        raise BadInput(f"unknown setup field(s): {', '.join(unknown)}{hint}")
    language = doc.get("language", "en")
    if language not in LANGUAGES:
        raise BadInput(f"'language' is one of {', '.join(LANGUAGES)}, not {language!r}")
    buttons = doc.get("buttons", "phones")
    if buttons not in BUTTONS:
        raise BadInput(f"'buttons' is one of {', '.join(BUTTONS)}, not {buttons!r}")
    if type(doc.get("narrated", False)) is not bool:  # [issue 20]: the hub narrates
        raise BadInput("'narrated' is true (the hub narrates, everyone plays) or false")
    wait = doc.get("wait_for_start", False)
    if type(wait) is not bool:
        raise BadInput("'wait_for_start' is true (night 1 waits for the game master's start) "
                       "or false")
    return str(language), str(buttons), wait


def _with_readings(doc: dict, language: str) -> dict:
    """[issue 42]: `readings` cleaned, and kept only when it says something."""
    if "readings" not in doc:
        return doc
    given = doc.get("players")
    named = [p for p in given if isinstance(p, str)] if isinstance(given, list) else []
    readings = clean_readings(doc["readings"], named, language)
    doc = {k: v for k, v in doc.items() if k != "readings"}
    if readings:
        doc["readings"] = readings
    return doc


def _deal(doc: dict, record: dict, engine_doc: dict,
          draw_seed: Callable[[], int] | None) -> None:
    """A `cards` setup: the seed drawn (a new game without one), and the box
    dealt from it into the engine's `deal` and `center`."""
    if "deal" in doc or "center" in doc:
        raise BadInput("send either 'cards' (the hub deals) or 'deal' and 'center', not both")
    if "seed" not in doc and draw_seed is not None:
        record["seed"] = engine_doc["seed"] = draw_seed()
    players = doc.get("players")
    if not (isinstance(players, list) and all(isinstance(p, str) for p in players)
            and len(set(players)) == len(players)):
        return  # the engine's own message
    try:
        deal, center = deal_cards(doc["cards"], len(players), engine_doc.get("seed", 0))
    except EngineError as err:
        raise BadInput(str(err)) from None
    engine_doc["deal"] = dict(zip(players, deal, strict=True))
    if center:
        engine_doc["center"] = center


def _named(doc: dict) -> dict:
    """The setup with every player's name cleaned (player_names.py), in
    `players` and wherever a name is a key (`deal`, `professions`), so the
    table, the log and every page hold one form of each [issue 17]."""
    players = doc.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        return doc  # the engine's own message
    try:  # what `werewolf replay` refuses, with its words [issue 9]
        check_names(players)
    except EngineError as err:
        raise BadInput(str(err)) from None
    out = {**doc, "players": clean_names(players)}
    for key in ("deal", "professions"):
        table = doc.get(key)
        if isinstance(table, dict) and all(isinstance(k, str) for k in table):
            out[key] = {clean_name(k): v for k, v in table.items()}
    return out


def cards_of(state: State) -> dict[str, int]:
    """The box a game was dealt from: its players' cards and the centre's, as
    counts (what "same again" sends back as `cards`)."""
    setup = state.log[0] if state.log and state.log[0]["e"] == "setup" else {}
    counts: dict[str, int] = {}
    for role in [*setup.get("deal", []), *setup.get("center", [])]:
        counts[role] = counts.get(role, 0) + 1
    return dict(sorted(counts.items()))
