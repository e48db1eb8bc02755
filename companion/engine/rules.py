"""The rules' public face: which actions are legal now, and what an action
sets off, gathered from the modules that hold them.

`act(state, action)` checks the action against `legal_actions`, then emits
events; each event is applied as it is emitted (`state.apply`) and appended to
the log, so the logic always reads an up-to-date state and a rebuild from the
log needs no rules at all. Nothing here does I/O or reads a clock; chance
comes from `kernel.rng`, seeded by the game's seed and the draw count.

Where each part lives (imports run down this list, never up):

- game.py: creating a game (`new_game`), `undo`;
- acting.py: `act` — checking an action, its events, timeouts;
- flow.py: how the game moves on between inputs (`go`);
- deaths.py: the queue of the dead and their triggers (RULES.md §6);
- votes.py: the election, the execution vote, its tally, the execution;
- night.py: the night's steps, the wolves' attack, dawn;
- wins.py: the win check (RULES.md §7);
- choices.py: `legal_actions`, `waiting_for`, a vote's ballots;
- powers.py, professions.py: the cards' and the professions' hooks;
- kernel.py: the primitives they all use (emit, rng, kill, holder, ...).
"""

from __future__ import annotations

from .acting import act, play
from .choices import legal_actions, waiting_for
from .game import new_game, undo
from .kernel import (
    PROMPTS,
    PUBLIC_CAUSES,
    VOTES,
    fresh_memo,
    holder,
    left_of,
    living,
    lover_of,
    mixed_lovers,
    right_of,
    step_label,
)

__all__ = [
    "PROMPTS", "PUBLIC_CAUSES", "VOTES", "act", "fresh_memo", "holder", "legal_actions",
    "left_of", "living", "lover_of", "mixed_lovers", "new_game", "play", "right_of",
    "step_label", "undo", "waiting_for",
]
