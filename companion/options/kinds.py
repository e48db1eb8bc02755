"""What an option is [issue 45]: its name, the values it takes, its value in
each preset, what a stored game without it means, the games it concerns,
its words (msgids) and its line in the manual. The rows are in
`declared.py`; everything else reads them.

Three kinds: a flag (`true`/`false`), a number of seconds (an int ≥ 0), a
choice among named values, each with its words and its meaning."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Generic, TypeVar, cast

from ..msgids import Msg

T = TypeVar("T", bool, int, str)

#: the presets, in the manual's order (engine.rulesets.RULESETS holds the same)
PRESETS = ("millers-hollow", "bga", "jp-standard")

#: "no legacy value": a stored game without the option takes its preset's
_NONE = object()


@dataclass(frozen=True)
class Choice:
    """One value of a choice: its id, its words in the lobby, its meaning
    in the manual (RULES.md §3)."""

    id: str
    label: Msg
    doc: str


@dataclass(frozen=True)
class Concerns:
    """Which games an option is about [issue 28]: the cards it concerns (it
    applies when the ruleset deals one of them), the night it needs
    ("calls": one call after another, not jp-standard's one window, RULES.md
    §5), the expansion it belongs to, or the preset option it needs on (the
    sheriff's election). Empty: every game."""

    roles: frozenset[str] = frozenset()
    night: str = ""
    expansion: str = ""
    option: str = ""


@dataclass(frozen=True)
class Option(Generic[T]):
    """One option. `kind` is "flag", "seconds" or "choice"; `doc` is the
    manual's meaning (a choice's is per value, in `choices`); `section` the
    manual's heading it belongs to (an anchor of docs/rules.md) and `seed`
    the rule sources' line it comes from."""

    name: str
    kind: str
    defaults: Mapping[str, T]
    label: Msg
    help: Msg
    section: str
    seed: str
    doc: str = ""
    choices: tuple[Choice, ...] = ()
    concerns: Concerns = Concerns()
    legacy: object = field(default=_NONE, repr=False)

    @property
    def values(self) -> tuple | None:
        """The values it may take (None: any number of seconds ≥ 0)."""
        if self.kind == "flag":
            return (True, False)
        if self.kind == "choice":
            return tuple(c.id for c in self.choices)
        return None

    @property
    def has_legacy(self) -> bool:
        """Whether it was added after games were stored (LEGACY_OPTIONS)."""
        return self.legacy is not _NONE

    @cached_property
    def absent(self) -> T:
        """What the engine reads where a game's options lack it: its legacy
        value, else off (false, 0 s, its first value)."""
        if self.has_legacy:
            return cast(T, self.legacy)
        return cast(T, {"flag": False, "seconds": 0}.get(self.kind, self.choices[0].id
                                                         if self.choices else ""))

    def problem(self, value: object) -> str | None:
        """Why `value` is no value of this option (None: it is one)."""
        if self.kind == "seconds":
            if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
                return None
            return f"option {self.name!r} takes a number of seconds ≥ 0, not {value!r}"
        allowed = self.values or ()
        if value in allowed and type(value) is type(allowed[0]):
            return None
        return f"option {self.name!r} takes one of {list(allowed)}, not {value!r}"

    def of(self, opts: Mapping[str, object]) -> T:
        """This option's value in a game's `opts` (`absent` if missing)."""
        value = opts.get(self.name, _NONE)
        return self.absent if value is _NONE else cast(T, value)


def flag(name: str, defaults: Mapping[str, bool], label: Msg, help: Msg, doc: str, *,
         section: str, seed: str, concerns: Concerns = Concerns(),
         legacy: object = _NONE) -> Option[bool]:
    """A `true` / `false` option."""
    return Option(name, "flag", defaults, label, help, section, seed, doc,
                  concerns=concerns, legacy=legacy)


def seconds(name: str, defaults: Mapping[str, int], label: Msg, help: Msg, doc: str, *,
            section: str, seed: str, concerns: Concerns = Concerns(),
            legacy: object = _NONE) -> Option[int]:
    """A number of seconds (an int ≥ 0)."""
    return Option(name, "seconds", defaults, label, help, section, seed, doc,
                  concerns=concerns, legacy=legacy)


def choice(name: str, defaults: Mapping[str, str], label: Msg, help: Msg,
           choices: tuple[Choice, ...], *, section: str, seed: str,
           concerns: Concerns = Concerns(), legacy: object = _NONE) -> Option[str]:
    """One of `choices`."""
    return Option(name, "choice", defaults, label, help, section, seed, choices=choices,
                  concerns=concerns, legacy=legacy)


def every(value: T) -> dict[str, T]:
    """The same value in every preset."""
    return dict.fromkeys(PRESETS, value)


def presets(millers_hollow: T, bga: T, jp_standard: T) -> dict[str, T]:
    """A value per preset, in PRESETS' order."""
    return dict(zip(PRESETS, (millers_hollow, bga, jp_standard), strict=True))
