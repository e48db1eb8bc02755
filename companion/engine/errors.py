"""Typed errors raised where input enters the engine."""


class EngineError(ValueError):
    """Base of every error the engine reports to a user; the message is one line."""


class SetupError(EngineError):
    """The game cannot be created as asked (ruleset, options, players, deal)."""


class IllegalAction(EngineError):
    """The action is malformed or not legal now; the state is unchanged."""


class StaleAction(IllegalAction):
    """The action was chosen on a state the game has since moved past
    (`act(..., expect=N)` with N != state.acts); the state is unchanged."""
