"""New Moon's event cards in words [issue 33] (RULES.md §10): every card's
name and text in en, ja and zh_Hant (the seed's card in [003]'s own words),
said on the table screen's line — which the narration speaks — at the dawn
it is turned, and the GM's line says a text-only card is applied by hand."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from companion.engine import announcements, public_view
from companion.engine.event_cards import EVENTS
from companion.words import LANGUAGES, gm_line, public_line
from companion.words.announce import announcement_text

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from helpers import a, attack, game  # noqa: E402

T8 = ["werewolf", "werewolf", "seer", "villager", "villager", "villager", "villager", "villager"]
NIGHT1 = [a("Cid", "inspect", "Ann"), *attack("Hal", "Ann", "Bob")]


@pytest.mark.parametrize("card", list(EVENTS))
def test_every_card_has_its_name_and_text_in_every_language(card):
    said = {lang: announcement_text({"kind": "event", "card": card}, [], lang)
            for lang in LANGUAGES}
    assert all(said.values()) and len(set(said.values())) == 3, said
    if EVENTS[card].source == "house":  # labelled so wherever a player sees them
        assert "House event" in said["en"] and "ハウスルール" in said["ja"] \
            and "自訂事件" in said["zh_Hant"]
    if card == "wolves-ally":  # [003]'s own words
        assert "狼人的同盟者在接下來的遊戲中仍然扮演原來的角色" in said["zh_Hant"]


def _view(events: list, mode: str) -> dict:
    state = game("millers-hollow", T8, NIGHT1, options={"sheriff": False, "events": events})
    view = public_view(state)
    view["announcements"] = announcements(state)
    view["pace"] = {"mode": mode}
    return view


def test_the_card_of_the_day_is_on_the_table_line_at_dawn():
    """RULES.md §10: the card turned is shown to everyone and spoken in
    narrated mode (companion/speech/lines.py speaks the public line)."""
    for lang, words in (("en", "Event card: One voice."), ("ja", "イベントカード：保安官も一票。")):
        assert words in public_line(_view(["one-voice"], "discussion"), lang)


def test_a_text_only_card_is_shown_and_the_gm_applies_it():
    text = {"title": {"en": "Harvest fair"}, "text": {"en": "Everyone stands to vote."}}
    view = _view([text], "discussion")
    assert "Harvest fair" in public_line(view, "ja")  # its only language
    assert "The game master applies this card by hand." in gm_line(view, "en")
