"""Records: the immutable values kkprint passes around (a card's size, a font's faces, a score's
line), frozen for the type checker and not at run time.

A frozen dataclass compiles two more methods when its module loads (``__setattr__`` and
``__delattr__``, each refusing a change): on Python 3.11 that is ~1.9 M instructions a class, a
twentieth of a small build's start-up for some forty classes. mypy refuses an assignment to a
record's field all the same (``dataclass_transform(frozen_default=True)``), and CI runs mypy; a
record keeps a frozen dataclass's ``==``, hash, order and ``repr``, so it can be a dict key or be
sorted as before. (A game's definitions go further: :class:`kkprint.base.definitions.Definition`.)

Further, a record's methods are made the first time each is used (:func:`methods_on_first_use`):
dataclasses compiles every method of every class as its module loads, though a build uses the
``==`` of a few and the ``__init__`` of not all (pydantic and pickle make instances without it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, TypeVar, dataclass_transform, overload

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
        return methods_on_first_use(cls, order=order, unsafe_hash=hashed)

    return make if cls is None else make(cls)


@dataclass_transform(field_specifiers=(field,))
def mutable(cls: type[Value], /) -> type[Value]:
    """A plain (mutable) dataclass, for working state — pages being filled, a build's outcome —
    with its methods made on first use as a record's are (and, as dataclasses has it, no hash)."""
    return methods_on_first_use(cls)


_ORDER = ("__lt__", "__le__", "__gt__", "__ge__")
_OFF = {"init": False, "repr": False, "eq": False}
# What dataclasses is asked for to make each method (with _OFF, the others off).
_METHODS: dict[str, dict[str, bool]] = {
    "__init__": {"init": True},
    "__repr__": {"repr": True},
    "__eq__": {"eq": True},
    "__hash__": {"eq": True, "unsafe_hash": True},
    **{name: {"eq": True, "order": True} for name in _ORDER},
}


def methods_on_first_use(
    cls: type[Value], *, init: bool = True, repr: bool = True, eq: bool = True, order: bool = False, **options: Any
) -> type[Value]:
    """``dataclass(cls, ...)`` whose ``__init__``, ``__repr__``, ``==``, hash and order are each
    made (by dataclasses itself) when first looked up: its fields are the class's now, as
    ``dataclasses.fields`` and pydantic read them. Compiling a method is ~0.8 M instructions on
    Python 3.11, and a game's build loads some seventy classes. A method the class writes itself
    is kept, as dataclasses keeps it, and what dataclasses refuses (a required field after one
    with a default, order beside a class's own ``<``) is refused as the class is made. A class
    without a docstring is documented by its name rather than by the signature dataclasses
    would compute (with ``inspect``, ~0.6 M a class)."""
    hashed = options.pop("unsafe_hash", False)
    wanted = {"__init__": init, "__repr__": repr, "__eq__": eq, "__hash__": hashed}
    wanted |= dict.fromkeys(_ORDER, order)
    if not cls.__dict__.get("__doc__"):
        cls.__doc__ = f"{cls.__name__}(...)"
    if eq and not hashed and cls.__dict__.get("__hash__") is None:
        cls.__hash__ = None  # type: ignore[assignment]  # (compared by value and changeable: no hash, as dataclasses says)
    if options.get("slots"):
        raise TypeError("methods_on_first_use cannot make a class with slots (dataclasses makes a new class)")
    dataclass(cls, **_OFF, **options)
    # What dataclasses refuses as it makes the methods, refused now, as the class is made.
    if init:
        _refuse_required_after_default(cls)
    for name in _ORDER if order else ():
        if name in cls.__dict__:
            raise TypeError(
                f"Cannot overwrite attribute {name} in class {cls.__name__}. Consider using functools.total_ordering"
            )
    for name, made in wanted.items():
        its_own = cls.__dict__.get(name) is not None  # (``__hash__ = None``: Python's mark of none of its own)
        if made and not its_own:
            setattr(cls, name, _OnFirstUse(cls, name, options))
    return cls


def field_values(value: Any) -> dict[str, Any]:
    """A dataclass instance's fields by name: the first level of what ``asdict`` gives, without
    the deep copy it makes of everything below."""
    return {each.name: getattr(value, each.name) for each in fields(value)}


def _refuse_required_after_default(cls: type) -> None:
    """A field without a default after one with a default (both given in order): the
    ``__init__`` dataclasses would make is no valid function."""
    defaulted = None
    for each in fields(cls):  # (a dataclass by now)
        if not each.init or each.kw_only:
            continue
        if each.default is not MISSING or each.default_factory is not MISSING:
            defaulted = each.name
        elif defaulted is not None:
            raise TypeError(f"non-default argument {each.name!r} follows default argument {defaulted!r}")


class _OnFirstUse:
    """One of a dataclass's methods, made and put in its place the first time it is looked up
    (on the class or an instance; Python looks ``==`` and hash up this way too)."""

    def __init__(self, owner: type, name: str, options: dict[str, Any]) -> None:
        self.owner, self.name, self.options = owner, name, options

    def __get__(self, instance: object, kind: type | None = None) -> Any:
        owner = self.owner
        # A class of the same fields (the ones dataclasses keeps on the owner), not a subclass (it
        # would find this very object), made a dataclass with this method alone.
        fields = type(
            "Fields", (), {key: getattr(owner, key) for key in ("__dataclass_fields__", "__dataclass_params__")}
        )
        body = {"__doc__": owner.__doc__, "__module__": owner.__module__}
        if hasattr(owner, "__post_init__"):
            body["__post_init__"] = owner.__post_init__
        made: type = dataclass(type(owner.__name__, (fields,), body), **{**_OFF, **self.options, **_METHODS[self.name]})
        method = made.__dict__[self.name]
        method.__qualname__ = f"{owner.__qualname__}.{self.name}"
        setattr(owner, self.name, method)
        return method.__get__(instance, kind)
