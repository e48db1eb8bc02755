"""The pure rules engine: no Flask, no I/O, no clock, no global RNG.

    state = new_game("millers-hollow", names, deal, options, seed=7)
    legal_actions(state, seat)        # [Choice, ...] for that seat, now
    events = act(state, Action(seat, "vote", target=3))
    view_for(state, seat) / view_for(state, None) / public_view(state)
    pending(state)                    # the current step for machines: kind, timer, timeout
    discussion_order(state)           # discussion_turns' speakers, in order [issue 34]
    night_ready(state, ready_seats)   # ready_ends_night: the window may end now [issue 34]
    announcements(state)              # what the table has been told, in order
    act(state, action, expect=view["seq"])   # StaleAction if the game moved on
    state = undo(state)               # rebuild from the log without the last action
    state = rebuild(state.log)        # the same state, from its events
"""

from .actions import Action, Choice
from .announced import announcements, shared_announcements
from .errors import EngineError, IllegalAction, SetupError, StaleAction
from .kernel import attack_tonight, today, tonight
from .roles import ROLES, Role
from .rules import (
    PUBLIC_CAUSES,
    act,
    fresh_memo,
    legal_actions,
    mixed_lovers,
    new_game,
    step_label,
    undo,
    waiting_for,
)
from .rulesets import (
    OPTION_VALUES,
    RULESETS,
    migrate_overrides,
    recommended_deal,
    resolve_options,
)
from .state import State, apply, rebuild
from .steps import discussion_order, night_calls, night_ready, pending, ready_window
from .views import (
    public_view,
    seat_actions,
    shared_public_view,
    view_for,
)
from .wins import side_of

__all__ = [
    "Action", "Choice", "EngineError", "IllegalAction", "SetupError", "ROLES", "Role",
    "act", "legal_actions", "new_game", "step_label", "undo", "waiting_for", "OPTION_VALUES",
    "RULESETS", "recommended_deal", "resolve_options", "State", "apply", "rebuild",
    "public_view", "shared_public_view", "view_for", "StaleAction", "night_calls", "pending",
    "announcements", "shared_announcements", "seat_actions",
    "PUBLIC_CAUSES", "fresh_memo", "mixed_lovers", "migrate_overrides",
    "attack_tonight", "today", "tonight",
    "discussion_order", "night_ready", "ready_window",  # [issue 34]
    "side_of",  # [issue 44]
]
