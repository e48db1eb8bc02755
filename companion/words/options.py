"""The game options' words for the GM's lobby: each option's label and help,
and the values an option may take, translated from the msgids of the
options' declaration (companion/options/declared.py [issue 45]).

    option_label("sheriff", "ja")          # 保安官
    option_value("tie", "runoff-once", "en")
    option_words("ja")                     # {name: [label, help]}, the lobby's order
"""

from __future__ import annotations

from functools import cache

from ..options import OPTIONS
from .names import P_, Msg, translate

LABELS: dict[str, Msg] = {o.name: o.label for o in OPTIONS}
HELPS: dict[str, Msg] = {o.name: o.help for o in OPTIONS}
#: the values an option may take (booleans as "true"/"false"; a choice's
#: ids are unique across options)
VALUES: dict[str, Msg] = {
    "true": P_("option value", "Yes"), "false": P_("option value", "No"),
    **{c.id: c.label for o in OPTIONS for c in o.choices},
}

TABLES: dict[str, dict[str, Msg]] = {"labels": LABELS, "helps": HELPS, "values": VALUES}


@cache
def _translated(table: str, lang: str) -> dict[str, str]:
    return {key: translate(msg, lang) for key, msg in TABLES[table].items()}


def option_labels(lang: str) -> dict[str, str]:
    return _translated("labels", lang)


def option_label(name: str, lang: str) -> str:
    return option_labels(lang).get(name, name)


def option_helps(lang: str) -> dict[str, str]:
    return _translated("helps", lang)


def option_help(name: str, lang: str) -> str:
    return option_helps(lang).get(name, "")


def option_value_labels(lang: str) -> dict[str, str]:
    return _translated("values", lang)


def option_value(name: str, value: object, lang: str) -> str:
    """The label of an option's value (`name` kept for the callers: the
    values' ids are unique across options)."""
    key = str(value).lower() if isinstance(value, bool) else str(value)
    return option_value_labels(lang).get(key, key)


def option_words(lang: str) -> dict[str, list[str]]:
    """Every option's `[label, help]` in `lang`, in the lobby's order (the
    declaration's): what gm.html's `#words` JSON gives the lobby."""
    labels, helps = option_labels(lang), option_helps(lang)
    return {o.name: [labels[o.name], helps[o.name]] for o in OPTIONS}
