"""The options' declaration [issue 45] (companion/options/declared.py): one
row per option, from which the engine's presets and checks come."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.engine import RULESETS, SetupError, resolve_options
from companion.engine.rulesets import LEGACY_OPTIONS, OPTION_VALUES, lobby_options
from companion.options import BY_NAME, OPTIONS, PRESETS, Option, declared

RULES = Path(__file__).resolve().parents[2] / "docs" / "rules.md"


def test_every_row_of_the_module_is_an_option_once() -> None:
    """OPTIONS holds each row written in declared.py, once, under its own
    name (the constant is the name in capitals)."""
    rows = {k: v for k, v in vars(declared).items() if isinstance(v, Option)}
    assert list(rows.values()) == list(OPTIONS)
    assert all(const == row.name.upper() for const, row in rows.items())
    assert len(BY_NAME) == len(OPTIONS)


def test_each_preset_takes_its_options_from_the_rows() -> None:
    """Every preset sets every declared option, to the row's value for it,
    and that value is one the option takes."""
    assert tuple(RULESETS) == PRESETS
    for name, preset in RULESETS.items():
        assert preset["options"] == {o.name: o.defaults[name] for o in OPTIONS}
        for option in OPTIONS:
            assert option.problem(option.defaults[name]) is None, (name, option.name)


def test_stored_games_keep_what_a_missing_option_means() -> None:
    """LEGACY_OPTIONS, what an old log or saved setup without an option
    plays with, is the rows' `legacy` and has not moved: changing it would
    change how stored games replay."""
    assert LEGACY_OPTIONS == {
        "witch_single_potion": False, "announce_potions": False,
        "election": "before-discussion", "discussion_turns": False,
        "vote_mode": "plurality", "turn_s": 45, "ready_ends_night": False,
    }


@pytest.mark.parametrize(("option", "value", "says"), [
    ("sheriff", "yes", "takes one of [True, False], not 'yes'"),
    ("sheriff", 1, "takes one of [True, False], not 1"),
    ("tie", "coin", "takes one of ['scapegoat-sheriff-none', 'runoff-once', 'none', "
                    "'runoff-random', 'runoff-draw'], not 'coin'"),
    ("turn_s", -1, "takes a number of seconds ≥ 0, not -1"),
    ("turn_s", True, "takes a number of seconds ≥ 0, not True"),
    ("vote_mode", None, "not None"),
])
def test_the_engine_refuses_a_value_outside_the_declaration(option, value, says) -> None:
    """A game's option must be one of its row's values; the error names the
    option and what it takes."""
    with pytest.raises(SetupError, match=re.escape(f"option {option!r} {says}"
                                                   if says.startswith("takes") else says)):
        resolve_options("millers-hollow", {option: value})
    assert resolve_options("millers-hollow", {option: BY_NAME[option].defaults["bga"]})


def test_an_unknown_option_is_refused_naming_the_known_ones() -> None:
    with pytest.raises(SetupError, match="unknown option 'ghost'.*ghosts"):
        resolve_options("bga", {"ghost": True})


def test_the_engine_reads_a_rows_value_and_its_absence() -> None:
    """`Option.of` reads the game's value; missing (a hand-made state, an
    old game before migration), the legacy value, else off."""
    opts = resolve_options("jp-standard", {"turn_s": 30})
    assert declared.TURN_S.of(opts) == 30 and declared.WOLF_ATTACK.of(opts) == "any-wolf"
    assert declared.TURN_S.of({}) == 45 and declared.GHOSTS.of({}) is False
    assert declared.WOLVES_WIN.of({}) == "all-dead" and declared.NIGHT_S.of({}) == 0


def test_values_are_the_rows() -> None:
    """OPTION_VALUES (the lobby's and the CLI's) is each row's values; a
    choice's ids are unique across options (the words key them alone)."""
    assert OPTION_VALUES == {o.name: o.values for o in OPTIONS}
    ids = [c.id for o in OPTIONS for c in o.choices]
    assert len(ids) == len(set(ids))


def test_each_row_names_a_section_of_the_manual() -> None:
    """A row's `section` is a heading of docs/rules.md (its anchor), and its
    seed names a source ([000]–[004]) or is "house" (the project's own)."""
    anchors = {"#" + re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-")
               for h in re.findall(r"^#+ (.*)$", RULES.read_text(encoding="utf-8"), re.M)}
    for option in OPTIONS:
        assert option.section in anchors, option.name
        assert re.match(r"\[00[0-4]", option.seed) or option.seed == "house", option.name


def test_the_lobby_offers_what_the_rows_concern() -> None:
    """`concerns` decide the lobby: no witch, no witch's options; one
    window, no werewolves' call; the ready button only there."""
    jp, mh = lobby_options("jp-standard"), lobby_options("millers-hollow")
    assert "witch_self_heal" not in jp and "pack_s" not in jp and "ready_ends_night" in jp
    assert "witch_self_heal" in mh and "pack_s" in mh and "ready_ends_night" not in mh
    assert "election" not in jp and "election" in mh  # no sheriff in jp-standard
