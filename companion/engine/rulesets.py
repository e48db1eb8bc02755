"""Ruleset presets, their options and recommended deals (RULES.md §2–§3)."""

from __future__ import annotations

from ..options import BY_NAME, OPTIONS, Concerns
from . import event_cards
from .errors import SetupError
from .roles import ROLES

_BASE_MH = frozenset({
    "werewolf", "villager", "seer", "witch", "hunter", "cupid", "little-girl", "thief",
    # New Moon [002][003], white werewolf [000], The Village night roles [000]
    "defender", "village-idiot", "elder", "scapegoat", "piper", "white-werewolf",
    "pyromaniac", "rumormonger",
})

#: Every option a preset sets, with the values it may take (None: any int ≥ 0),
#: from the declaration (companion/options/declared.py [issue 45]).
OPTION_VALUES: dict[str, tuple | None] = {o.name: o.values for o in OPTIONS}
#: What an option missing from a stored game (a log, a saved game) means:
#: today's behaviour before the option existed, whatever its preset says now
#: (bga's `announce_potions` and jp-standard's `ready_ends_night` are on in
#: their presets, for new games only): each row's `legacy`. `migrate_options`
#: fills them in.
LEGACY_OPTIONS: dict[str, object] = {o.name: o.legacy for o in OPTIONS if o.has_legacy}
#: Options that take a list, each with its check (SetupError), set by no
#: preset: absent, an option is empty (today's behaviour, older logs alike).
#: `events`: New Moon's event cards (RULES.md §10, event_cards.py), in the
#: rulesets whose expansions include "new-moon".
LIST_OPTIONS = {"events": event_cards.check}


def _preset(name: str) -> dict:
    """Every option's value in preset `name` (the rows' `defaults`)."""
    return {o.name: o.defaults[name] for o in OPTIONS}


RULESETS: dict[str, dict] = {
    "millers-hollow": {"roles": _BASE_MH, "players": (8, 18), "options": _preset("millers-hollow"),
                       "expansions": frozenset({"village", "new-moon"})},
    "bga": {
        "roles": _BASE_MH, "players": (8, 18),
        # tie, vote_timeout, announce_potions [000 l.49]: each row's bga value
        "options": _preset("bga"),
        # The Village [000] (RULES.md §8), New Moon's event cards [003] (§10)
        "expansions": frozenset({"village", "new-moon"}),
    },
    "jp-standard": {
        "roles": frozenset({"villager", "werewolf", "seer", "madman", "medium", "knight",
                            "freemason", "fox"}),
        "players": (7, 15),
        # [004]; ready_ends_night [004 l.86-87] (RULES.md §4): each row's value
        "options": _preset("jp-standard"),
        # one window in which every night role acts at once [004] (RULES.md §4)
        "night": "together",
    },
}

MIN_PLAYERS, MAX_PLAYERS = 4, 24

#: Which games an option is about [issue 28], as data (each row's `concerns`,
#: companion/options/kinds.py): the cards it concerns, the night it needs,
#: the expansion it belongs to, or the preset option it needs on. An option
#: concerning nothing applies to every ruleset. Only what the lobby offers
#: follows it (`lobby_options`): a game may still set any option of
#: OPTION_VALUES (`resolve_options`).
OPTION_CONCERNS: dict[str, Concerns] = {o.name: o.concerns for o in OPTIONS
                                        if o.concerns != Concerns()}


def option_applies(name: str, option: str) -> bool:
    """Whether `option` has anything to do with a game of ruleset `name`
    (OPTION_CONCERNS): a ruleset without a witch has no self-heal to allow,
    jp-standard's one window no werewolves' call to time."""
    preset = ruleset(name)
    concerns = OPTION_CONCERNS.get(option, Concerns())
    if concerns.roles and not concerns.roles & preset["roles"]:
        return False
    if concerns.night and preset.get("night", "calls") != concerns.night:
        return False
    if concerns.option and not preset["options"].get(concerns.option):
        return False
    return not concerns.expansion or concerns.expansion in preset.get("expansions", ())


def lobby_options(name: str) -> dict:
    """The preset's options that apply to its games (`option_applies`), with
    their preset values: what the GM's lobby offers."""
    return {k: v for k, v in ruleset(name)["options"].items() if option_applies(name, k)}


def together(name: str) -> bool:
    """The ruleset plays its night as one window, every night role at once
    ([004] "時間は5分間です", RULES.md §4), not as calls one after another."""
    return RULESETS[name].get("night") == "together"


def migrate_options(name: str, opts: dict) -> dict:
    """A game's options as stored, read as they were meant: an option added
    since takes today's behaviour (LEGACY_OPTIONS, not its preset value:
    an old bga game announces no potions [issue 34]); stored before `night_s`
    became an exact window (no `pack_s` among them), the other new options
    take their preset value and the old `night_s` is read as it was meant
    (`_old_night_s`)."""
    if not all(k in opts for k in LEGACY_OPTIONS):
        opts = {**LEGACY_OPTIONS, **opts}
    if "pack_s" in opts or name not in RULESETS:
        return opts
    preset = RULESETS[name]["options"]
    out = {**{k: v for k, v in preset.items() if k not in opts}, **opts}
    if isinstance(opts.get("night_s"), int):
        out.update(_old_night_s(name, opts["night_s"]))
    return out


def migrate_overrides(name: str, overrides: dict) -> dict:
    """A saved setup's option overrides from before `pack_s` (a `night_s`
    without it; setups saved since carry both): `night_s` read as it was
    meant (`_old_night_s`)."""
    old = overrides.get("night_s")
    if "pack_s" in overrides or not isinstance(old, int) or name not in RULESETS:
        return overrides
    return {**overrides, **_old_night_s(name, old)}


def _old_night_s(name: str, old: int) -> dict:
    """The old `night_s` was the longest a live call might last: the new
    windows take it as their ceiling (0, no limit: the preset's). In
    jp-standard it was each of its steps' limit; it is now its one window."""
    preset = RULESETS[name]["options"]
    if together(name):
        return {"night_s": old or preset["night_s"], "pack_s": old or preset["pack_s"]}
    return {key: min(old, preset[key]) if old else preset[key] for key in ("night_s", "pack_s")}

# jp-standard [004]: werewolf, seer, medium, knight, madman, freemason, fox, villager
_JP_TABLE = {
    7: (1, 1, 0, 0, 1, 0, 0, 4), 8: (2, 1, 1, 0, 1, 0, 0, 3), 9: (2, 1, 1, 1, 1, 0, 0, 3),
    10: (2, 1, 1, 1, 1, 0, 0, 4), 11: (2, 1, 1, 1, 1, 0, 0, 5), 12: (2, 1, 1, 1, 1, 2, 0, 4),
    13: (2, 1, 1, 1, 1, 2, 0, 5), 14: (2, 1, 1, 1, 1, 2, 1, 5), 15: (2, 1, 1, 1, 1, 2, 1, 6),
}
_JP_COLUMNS = ("werewolf", "seer", "medium", "knight", "madman", "freemason", "fox", "villager")


def ruleset(name: str) -> dict:
    try:
        return RULESETS[name]
    except KeyError:
        raise SetupError(f"unknown ruleset {name!r} (known: {', '.join(RULESETS)})") from None


def resolve_options(name: str, overrides: dict | None) -> dict:
    """The preset's options with the game's overrides, each checked."""
    opts = dict(ruleset(name)["options"])
    for key, value in (overrides or {}).items():
        if key in LIST_OPTIONS:
            if "new-moon" not in ruleset(name).get("expansions", ()):
                if value:
                    raise SetupError(f"option {key!r}: {name} plays no event cards")
                continue
            opts[key] = list(LIST_OPTIONS[key](value))
            continue
        if key not in BY_NAME:
            raise SetupError(f"unknown option {key!r} (known: {', '.join(BY_NAME)})")
        problem = BY_NAME[key].problem(value)  # the row's values (companion/options)
        if problem:
            raise SetupError(problem)
        opts[key] = value
    return opts


def ruleset_roles(name: str) -> frozenset[str]:
    """The cards `name` plays with (SetupError for an unknown ruleset)."""
    return ruleset(name)["roles"]


def check_role(ruleset_name: str, role: str) -> None:
    if role not in ROLES:
        raise SetupError(f"unknown role {role!r}")
    if role not in ruleset(ruleset_name)["roles"]:
        raise SetupError(f"role {role!r} is not part of the {ruleset_name} ruleset")


def check_copies(counts: dict[str, int]) -> None:
    """At most one card of each special role, two freemasons (Role.copies)."""
    for role, count in counts.items():
        limit = ROLES[role].copies
        if limit and count > limit:
            raise SetupError(f"a game has at most {limit} {role} card(s)")


def recommended_deal(name: str, players: int,
                     add: list[str] | tuple[str, ...] = ()) -> dict[str, int]:
    """The recommended cards for `players` players (RULES.md §3).

    Each added special role replaces one villager; the thief also brings two
    extra villager cards, so `players + 2` cards are dealt and two lie in the centre.
    """
    low, high = ruleset(name)["players"]
    if not low <= players <= high:
        raise SetupError(f"{name} recommends deals for {low}–{high} players, not {players}")
    if name == "jp-standard":
        deal = {r: c for r, c in zip(_JP_COLUMNS, _JP_TABLE[players]) if c}
    else:
        wolves = 2 if players <= 11 else 3 if players <= 17 else 4
        deal = {"werewolf": wolves, "seer": 1, "villager": players - wolves - 1}
    for role in add:
        check_role(name, role)
        if role == "thief":
            deal["villager"] = deal.get("villager", 0) + 2
        if deal.get("villager", 0) < 1:
            raise SetupError(f"no villager card left to replace with {role!r}")
        deal["villager"] -= 1
        deal[role] = deal.get(role, 0) + 1
    check_copies(deal)
    return {r: c for r, c in deal.items() if c}
