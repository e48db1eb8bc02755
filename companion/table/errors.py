"""The table's refusals, each with the HTTP status the hub answers it with.

The hub's error handler turns any `TableError` into `{"error": message}`, so a
refusal is raised where the rule is, with its words, and never needs a route
to translate it."""

from __future__ import annotations


class TableError(Exception):
    """Any refusal of the table (HTTP 409 unless a subclass says otherwise)."""

    status = 409


class Stale(TableError):
    """The sender's view is older than the current step (HTTP 409)."""


class Denied(TableError):
    """Not this sender's to do (HTTP 403)."""

    status = 403


class NotFound(TableError):
    """No such game, seat or link (HTTP 404)."""

    status = 404


class BadInput(TableError):
    """Malformed or impossible input (HTTP 400)."""

    status = 400


class NotNow(TableError):
    """Legal in form but not now: out of turn, held by pacing (HTTP 409)."""


class TooManyStreams(TableError):
    """Anonymous streams are full (HTTP 429): the table's own stay served [issue 17]."""

    status = 429
