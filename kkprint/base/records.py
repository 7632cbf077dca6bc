"""Records: the immutable values kkprint passes around (a card's size, a font's faces, a score's
line), frozen for the type checker and not at run time.

A frozen dataclass compiles two more methods when its module loads (``__setattr__`` and
``__delattr__``, each refusing a change): on Python 3.11 that is ~1.9 M instructions a class, a
twentieth of a small build's start-up for some forty classes. mypy refuses an assignment to a
record's field all the same (``dataclass_transform(frozen_default=True)``), and CI runs mypy; a
record keeps a frozen dataclass's ``==``, hash, order and ``repr``, so it can be a dict key or be
sorted as before. (A game's definitions go further: :class:`kkprint.base.definitions.Definition`.)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar, dataclass_transform, overload

Value = TypeVar("Value")


@overload
def record(cls: type[Value], /) -> type[Value]: ...


@overload
def record(*, order: bool = False) -> Callable[[type[Value]], type[Value]]: ...


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def record(
    cls: type[Value] | None = None, /, *, order: bool = False
) -> type[Value] | Callable[[type[Value]], type[Value]]:
    """A dataclass with a frozen dataclass's ``==`` and hash (``order`` as for ``dataclass``)."""

    def make(cls: type[Value]) -> type[Value]:
        hashed = cls.__dict__.get("__hash__") is None  # (a class with its own hash keeps it)
        return dataclass(cls, order=order, unsafe_hash=hashed)

    return make if cls is None else make(cls)
