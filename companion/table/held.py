"""A `Table` method or property that is one of the objects it holds (its
`showing`, its `taps`): one line in the table's class, typed as that object's
method, so every caller keeps asking the table [issue 45].

    class Table:
        public = held("showing", Showing.public)      # table.public() is table.showing.public()
        ended = held_value("showing", Showing.ended)  # table.ended is table.showing.ended
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar, cast

P = ParamSpec("P")
R = TypeVar("R")
H = TypeVar("H")


class held(Generic[H, P, R]):
    """The holder's method `method` of its object `attr`."""

    def __init__(self, attr: str, method: Callable[Concatenate[H, P], R]) -> None:
        self.attr, self.name = attr, method.__name__

    def __get__(self, holder: Any, owner: object = None) -> Callable[P, R]:
        return cast("Callable[P, R]", getattr(getattr(holder, self.attr), self.name))


class held_value(Generic[H, R]):
    """The holder's property `prop` of its object `attr`."""

    def __init__(self, attr: str, prop: Callable[[H], R]) -> None:
        fget = cast(property, prop).fget
        assert fget is not None
        self.attr, self.name = attr, fget.__name__

    def __get__(self, holder: Any, owner: object = None) -> R:
        return cast(R, getattr(getattr(holder, self.attr), self.name))
