"""The words' voice [issue 45]: a player's name as the game master says
it, a list of names, a duration, and `Speaker`, one language's and one
game's voice, shared by what each log entry says (companion/words/entries.py,
the story) and what the table is told (companion/words/announce.py).
"""

from __future__ import annotations

from typing import Any

from .catalogs import catalog_for
from .names import _translated, role_name, step_name


def person(T: Any, name: str) -> str:
    """A player's name as the GM says it (ja: "○○さん", [004])."""
    return str(T.pgettext("person", "{name}")).format(name=name)


def join_names(T: Any, names: list[str]) -> str:
    people = [person(T, n) for n in names]
    if len(people) < 2:
        return "".join(people)
    return str(T.pgettext("list", ", ")).join(people[:-1]) + T.pgettext("list", " and ") \
        + people[-1]


def minutes(T: Any, seconds: int) -> str:
    if seconds and seconds % 60 == 0:
        return str(T.gettext("{minutes} minutes")).format(minutes=seconds // 60)
    return str(T.gettext("{seconds} seconds")).format(seconds=seconds)


class Speaker:
    """The words' voice for one language and one game's names: a player by
    seat, a list of them, a card, a building, the separators."""

    def __init__(self, lang: str, names: list[str], ruleset: str | None = None) -> None:
        self.lang, self.names, self.ruleset = lang, names, ruleset
        self.T: Any = catalog_for(lang)

    def _(self, msgid: str, **fields: object) -> str:
        return str(self.T.gettext(msgid)).format(**fields)

    def who(self, seat: object) -> str:
        if isinstance(seat, int) and 0 <= seat < len(self.names):
            return person(self.T, self.names[seat])
        return person(self.T, "?")

    def all(self, seats: list) -> str:
        return join_names(self.T, [self.names[s] if 0 <= s < len(self.names) else "?"
                                   for s in seats])

    def role(self, role: object) -> str:
        return role_name(str(role), self.lang)

    def roles(self, roles: list) -> str:
        return self.comma().join(self.role(r) for r in roles)

    def prof(self, prof: object) -> str:
        return _translated("professions", self.lang).get(str(prof), str(prof))

    def building(self, building: str) -> str:
        return _translated("buildings", self.lang).get(building, building)

    def sep(self) -> str:
        return "" if self.lang in ("ja", "zh_Hant") else " "

    def sentences(self, parts: list[str]) -> str:
        """Sentences side by side, the empty ones left out."""
        return self.sep().join(p for p in parts if p)

    def comma(self) -> str:
        return str(self.T.pgettext("list", ", "))

    def read(self, result: object) -> str:
        """A seer's or medium's answer: a card, or wolf/human (seer_sees=team)."""
        if result == "wolf":
            return self._("a werewolf")
        if result == "human":
            return self._("human")
        return self.role(result)

    def title(self, ch: dict) -> str:
        """A chapter's title: the cards, a night, a day, the end."""
        _, kind, n = self._, ch["kind"], ch["n"]
        if kind == "cast":
            return _("The cards")
        if kind == "night":
            return _("Night {n}", n=n)
        if kind == "day":
            return _("Day {n}", n=n)
        return _("The end")

    def called(self, steps: list[str]) -> str:
        steps_said = self.comma().join(step_name(s, self.lang) for s in steps)
        return self._("Called: {steps}.", steps=steps_said)
