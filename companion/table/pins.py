"""A seat's PIN, in a narrated game [issue 40].

A seat's link shows its card, and in a narrated game nobody may be trusted
with it — the host neither. When a phone is lost the table votes to reissue
its seat (lost_phone.py), and the new link stands on the TV where anyone can
scan or photograph it. So every phone of a narrated game chooses its seat's
PIN before its card is shown (the same screen on every phone), and a
reissued link opens only with that PIN, on its player's new phone.

    table.pins.set_pin(seat, {"pin": "1234"})   # once, from the seat's phone
    table.pins.locked(seat)                     # a PIN and no phone: the link asks it
    table.pins.unlock(token, {"pin": "1234"}, device)   # the new phone holds the seat

The PIN's digest is kept in the store (durable before it is answered); five
wrong PINs and the link opens no more (`seats.MAX_TRIES`): the table votes
again.
"""

from __future__ import annotations

from typing import Any

from .errors import BadInput, Denied, NotNow


class Pins:
    """The seats' PINs of the table's game (under the table's lock)."""

    def __init__(self, table: Any) -> None:  # the Table (table.py holds this object)
        self.table = table

    def locked(self, seat: int) -> bool:
        """Seat `seat` has a PIN and no phone (its link was reissued): only
        its PIN opens it, on its player's new phone."""
        with self.table.lock:
            return self.table.seating.locked(seat)

    def set_pin(self, seat: int, raw: object) -> Any:
        """The seat's player chooses its PIN on his first phone, once (a PIN
        is never changed: a phone picked up from the table cannot). Answers
        the seat's view."""
        pin = parse_pin(raw)
        table = self.table
        with table.lock:
            table._need_game()
            if not table.setup.get("narrated"):
                raise NotNow("only a narrated game asks for a PIN")
            if table.seating.pins[seat] is not None:
                raise Denied("this seat's PIN is set: it is never changed")
            table.seating.set_pin(seat, pin)
            table._publish()
            return table.seat_view(seat)

    def unlock(self, token: str, raw: object, device: str) -> int:
        """A locked seat opened with its PIN by `device` (the player's new
        phone): it holds the seat now. Denied for a wrong PIN, and for any
        after `seats.MAX_TRIES` wrong ones (the table votes again)."""
        pin = parse_pin(raw)
        table = self.table
        with table.lock:
            seat = table.seat_of(token)
            if not table.seating.locked(seat):
                raise NotNow("this seat is not locked: open its link")
            right = table.seating.try_pin(seat, pin)
            if right is None:
                raise Denied("too many wrong PINs: this code opens no more — ask the table "
                             "to vote on the lost phone again")
            if not right:
                raise Denied("wrong PIN")
            table.seating.claim(seat, device)
            table._publish()
            return seat


def parse_pin(raw: object) -> str:
    """A PIN is 4 to 8 digits (JSON `{"pin": "1234"}`)."""
    pin = raw.get("pin") if isinstance(raw, dict) and set(raw) == {"pin"} else None
    if not isinstance(pin, str) or not pin.isascii() or not pin.isdigit() \
            or not 4 <= len(pin) <= 8:
        raise BadInput('send {"pin": "1234"}: 4 to 8 digits')
    return pin
