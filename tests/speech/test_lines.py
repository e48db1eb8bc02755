"""What is spoken [issue 20]: the GM's line for each call and every public
announcement, from the public view alone, and inside the call windows."""

from __future__ import annotations

import pytest

from companion.engine import RULESETS, resolve_options
from companion.engine.roles import NIGHT_STEPS
from companion.speech import Cache, call_lines, clips, spoken
from companion.words import gm_line, public_line

from .conftest import LANGS, need_engine


def test_a_call_is_the_gm_tablets_line() -> None:
    """The wake line, then at the call's end its sleep line and follow-ups
    (RULES.md §9, [002]): exactly what the GM's tablet shows for that call."""
    view = {"pace": {"mode": "calls", "call": "cupid", "night": 1, "cursor": 1},
            "players": [{"name": "Ann", "role": "cupid", "alive": True}],
            "ruleset": "millers-hollow", "options": {}}
    opening, closing = call_lines("cupid", 1, "millers-hollow", {}, "en", False)
    assert "\n".join(opening + closing) == gm_line(view, "en", [])
    # the GM's tablet notes a call nobody can answer (a secret of its view): never spoken
    view["players"] = [{"name": "Ann", "role": "cupid", "alive": False}]
    assert "nobody may answer" in gm_line(view, "en", [])
    assert not any("nobody may answer" in s for s in opening + closing)
    assert closing[1:] == ["Lovers, wake up and recognise each other.",
                           "The lovers go back to sleep."]
    first, _ = call_lines("thief", 1, "millers-hollow", {}, "en", True)
    assert first[0].startswith("Night falls")


def _night(call: str | None, night: int = 1, game: int = 1) -> dict:
    return {"phase": "night", "game": game, "ruleset": "millers-hollow", "options": {},
            "pace": {"mode": "calls", "call": call, "night": night}, "line": "ignored"}


def test_the_night_is_spoken_call_by_call() -> None:
    """Night falls, each wake line; the previous call's sleep line as the next opens."""
    said = spoken({"phase": "day", "game": 1, "line": "x", "pace": {"mode": "verdict"}},
                  _night("seer"), "en")
    assert said[0].startswith("Night falls") and said[1].startswith("Seer, wake up")
    said = spoken(_night("seer"), _night("wolves"), "en")
    assert said == ["The seer goes back to sleep.",
                    "Werewolves, wake up, recognise each other and choose a new victim."]
    assert spoken(_night("wolves"), _night("wolves"), "en") == []  # nothing new, nothing said
    dawn = spoken(_night("witch"), _night(None), "en")
    assert dawn == ["The witch goes back to sleep.", "Dawn is coming."]


def test_the_day_speaks_the_table_screens_new_sentences() -> None:
    """By day, the table screen's line (its parts, from the public view
    [issue 45]) less the sentences its last line already showed."""
    dawn = {"kind": "dawn", "n": 1, "deaths": [], "time": "day 1"}
    death = {"kind": "death", "name": "Ann", "cause": "execution", "time": "day 1"}
    day = {"phase": "day", "game": 1, "n": 1, "ruleset": "millers-hollow", "options": {},
           "step": "day 1 execution", "announcements": [dawn, death],
           "players": [{"name": "Ann", "alive": False}, {"name": "Bob", "alive": True}]}
    before = {**day, "pace": {"mode": "prompt"}}
    before["line"] = public_line(before, "en")
    after = {**day, "pace": {"mode": "last-words", "seat": 0}}
    after["line"] = public_line(after, "en")
    assert spoken(before, after, "en") == ["Ann, your last words."]
    assert spoken(None, before, "en") == [
        "Morning has come. Villagers, wake up and open your eyes.",
        "Last night, there was no werewolf attack.",
        "By the vote, Ann is executed. Ann leaves the game and may not take part in the "
        "discussion any more.",
        "The execution is about to take place."]
    assert spoken(None, {"phase": "lobby", "line": "Waiting."}, "en") == []


def test_names_are_cut_out_of_sentences() -> None:
    assert clips("By the vote, Ann is executed.", ["Ann", "Anna", "Bob"]) == [
        "By the vote, ", "Ann", " is executed."]
    assert clips("Anna and Ann", ["Ann", "Anna"]) == ["Anna", " and ", "Ann"]
    # a name and its さん are one piece [issue 29]; a name is not cut out of a word
    assert clips("あかりさんが処刑されました。", ["あかり"]) == ["あかりさん", "が処刑されました。"]
    assert clips("Everyone, Eve.", ["Eve"]) == ["Everyone, ", "Eve"]
    assert clips("。", []) == []


def _window(options: dict, call: str) -> float:
    """The call's exact window (RULES.md §4: `pack_s` for the werewolves,
    `night_s` for a role's call)."""
    if call == "wolves" and options.get("pack_s"):
        return float(options["pack_s"])
    return float(options["night_s"])


@pytest.mark.parametrize("lang", LANGS)
def test_speech_fits_inside_the_call_windows(lang: str, speech_cache: Cache) -> None:
    """[issue 20] "speech fits inside pacing's exact windows": what is said as
    a call opens (the previous call's sleep line and follow-ups, night falls,
    the wake line) lasts less than the call's window, in every ruleset, with
    the preset's timings and with 20 s a role, 40 s the pack (issue 16's
    defaults for a real table)."""
    need_engine(lang)
    for ruleset in RULESETS:
        presets = resolve_options(ruleset, {})
        for options in (presets, {**presets, "night_s": 20, "pack_s": 40}):
            for night in (1, 2):
                prev = None
                for i, call in enumerate(NIGHT_STEPS):
                    said = call_lines(call, night, ruleset, options, lang, i == 0)[0]
                    if prev is not None:
                        said = call_lines(prev, night, ruleset, options, lang, False)[1] + said
                    seconds = sum(speech_cache.seconds(lang, s) for s in said)
                    assert seconds < _window(options, call), (ruleset, call, seconds)
                    prev = call
