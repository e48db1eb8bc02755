"""The game options as data, declared once [issue 45]: `declared.OPTIONS`
(the rows, in the lobby's order), `kinds` (what a row holds). Below the
engine, which reads them (engine/rulesets.py); pure data and no I/O.

    from companion.options import BY_NAME, OPTIONS, WOLF_ATTACK
    WOLF_ATTACK.of(state.opts)   # "unanimous" or "any-wolf"
    BY_NAME["tie"].values        # its values (None: seconds ≥ 0)
"""

from __future__ import annotations

from .declared import *  # noqa: F403  (the rows, OPTIONS, BY_NAME)
from .declared import BY_NAME, OPTIONS
from .kinds import PRESETS, Choice, Concerns, Option

__all__ = ["BY_NAME", "OPTIONS", "PRESETS", "Choice", "Concerns", "Option"]
