"""The story of a game in words [issue 35]: `engine.story`'s chapters, each
entry one sentence in the game's language with the players' names.

    told = story_text(engine_story, "ja")   # {"over", "chapters": [{"title", "lines"}]}
    print(story_plain(told))                # the same as text (werewolf story)

Every sentence is a gettext message (extracted into the catalogs like
every other word; a sentence the announcements also say is one msgid), so
the table screen, the phones, the GM's history, the narration and
`werewolf story` say the same sentences.
What each kind of entry says is companion/words/entries.py's table.
Each line keeps the seats it names (`engine.story.seats_of`), for a phone
to mark its own part.
"""

from __future__ import annotations

from ..engine import State
from ..engine.story import seats_of, story
from .catalogs import catalog_for
from .entries import Speaker, said, tally_said


def story_text(story: dict, lang: str) -> dict:
    """`story` (engine.story) told in `lang`: each chapter's title and its
    lines, each {"text", "seats", "kind"}; entries that say nothing alone
    (the elder's wound, told by "spared") are left out."""
    teller = Speaker(lang, list(story.get("players") or []))
    chapters = []
    for ch in story.get("chapters") or []:
        lines: list[dict] = []
        called = ch.get("called")
        if called:
            lines.append({"kind": "called", "seats": [], "text": teller.called(called)})
        for entry in ch["entries"]:
            text = said(teller, entry)
            if text:
                line = {"kind": entry["kind"], "seats": seats_of(entry), "text": text}
                if entry["kind"] == "tally":  # the voice says the counts, not every ballot
                    line["said"] = tally_said(teller, entry)
                lines.append(line)
        chapters.append({"kind": ch["kind"], "n": ch["n"], "time": ch["time"],
                         "title": teller.title(ch), "lines": lines})
    return {"over": bool(story.get("over")), "language": lang, "chapters": chapters}


def told(state: State, lang: str, game: int | None) -> dict:
    """A state's story as data and in words [issue 35]: {"game", "over",
    "players", "ruleset", "chapters" (engine.story's entries), "told"
    (`story_text`: each chapter's title and lines in `lang`)}. Whoever asks
    has been let read it (engine.story.readable)."""
    data = story(state)
    return {"game": game, **data, "told": {**story_text(data, lang), "words": story_words(lang)}}


def story_words(lang: str) -> dict[str, str]:
    """The pages' own words around the story (its heading, the ghost's
    reminder, the buttons), in `lang`."""
    _ = catalog_for(lang).gettext
    return {
        "heading": str(_("The story of the game")),
        "ghost": str(_("You are dead: you see every card as the game goes on. Say nothing, "
                       "show nothing, until the game is over.")),
        "next": str(_("Next page of the story")),
        "open": str(_("The story")),
        # a ghost's story is closed until he opens it, and closes itself:
        # a glance at his phone from the next seat shows no card [issue 35]
        "ghost_open": str(_("Read the story so far (keep your screen to yourself)")),
    }


def season_words(lang: str) -> dict[str, str]:
    """The GM's history's words for a season [issue 35], in `lang`."""
    _ = catalog_for(lang).gettext
    return {
        "title": str(_("The season")),
        "from": str(_("From")), "to": str(_("To")),
        "csv": str(_("Export as CSV")),
        "record": str(_("The table's record: {games} games.")),
    }


def story_plain(told: dict) -> str:
    """A told story as plain text: each chapter's title, then its lines."""
    out = []
    for ch in told["chapters"]:
        out.append(ch["title"])
        out.extend(f"  {line['text']}" for line in ch["lines"])
        out.append("")
    return "\n".join(out).rstrip() + "\n"
