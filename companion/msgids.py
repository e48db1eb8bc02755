"""The markers of a msgid [issue 15, issue 45]: `N_("msgid")` and
`P_("context", "msgid")` return their arguments and extraction knows them
(tools/i18n.py, babel.cfg, companion.words.catalogs.KEYWORDS_EXTRA), so a
name written with them reaches the catalogs, to be translated later by
companion.words. Here, below everything, so the options' declaration
(companion.options) can write its words as msgids too."""

from __future__ import annotations

#: a name: a msgid, or (context, msgid)
Msg = str | tuple[str, str]


def N_(msgid: str) -> str:
    """A msgid for extraction, translated later (babel's default keyword)."""
    return msgid


def P_(context: str, msgid: str) -> tuple[str, str]:
    """A msgid with its context, for extraction (catalogs.KEYWORDS_EXTRA)."""
    return (context, msgid)
