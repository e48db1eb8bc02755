"""Group commit: actions that arrive together share one commit.

Each request joins the queue, then takes the table's lock; whoever gets the
lock first takes every queued action and runs them, so while one commit
waits for the disk the next ones gather, and are committed (one fsync) and
published together. Each request is answered once its own action is
committed (or refused): durability is unchanged.

While more actions are queued behind a commit, its publish waits for theirs:
the streams of a table that votes at once get one message for the whole
burst, not one per commit, and each phone is answered with its own view as
soon as its action is committed (`Table.act_seat`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass


@dataclass
class Ticket:
    """One queued action and, once run, its outcome."""

    seat: int
    raw: object
    done: bool = False
    error: BaseException | None = None


class Queue:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._tickets: list[Ticket] = []

    def join(self, seat: int, raw: object) -> Ticket:
        ticket = Ticket(seat, raw)
        with self._lock:
            self._tickets.append(ticket)
        return ticket

    def waiting(self) -> bool:
        """Is an action queued (its request is on its way to the lock)?"""
        with self._lock:
            return bool(self._tickets)

    def take(self) -> list[Ticket]:
        """Every ticket queued so far (the caller holds the table's lock)."""
        with self._lock:
            batch, self._tickets = self._tickets, []
        return batch


def run(batch: list[Ticket], act: Callable[[Ticket], None], commit: Callable[[], None]) -> None:
    """Apply every ticket's action in order, each seeing the ones before it
    as if they came one by one (`act` raises a refusal: that ticket's own
    answer), then commit those that landed together (`commit`); a commit
    that fails (not durable) fails every ticket of the batch."""
    moved = False
    for ticket in batch:
        try:
            act(ticket)
            moved = True
        except Exception as err:  # this phone's refusal (or a bug): its own answer
            ticket.error = err
        ticket.done = True
    if not moved:
        return
    try:
        commit()
    except Exception as err:  # not durable: every action of the batch failed
        for ticket in batch:
            ticket.error = ticket.error or err
