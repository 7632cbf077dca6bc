"""One message catalogue for every word a person reads.

English is written in the source; the Japanese lives in ``kkprint/locale/ja/LC_MESSAGES/
kkprint.po`` (compiled to the ``.mo`` beside it by ``python scripts/messages.py``). Code that
does not know the reader's language yet — a scorer explaining a point, a tally check refusing a
number — builds a :class:`Msg`, which is turned into words only when it is shown: at the
terminal in the command's language, on a score-pad page in the browser's.
"""

from __future__ import annotations

import contextvars
import gettext
import locale
import os
from collections.abc import Callable
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any, Protocol

LOCALE_DIR = Path(__file__).parents[1] / "locale"
DOMAIN = "kkprint"

_language: contextvars.ContextVar[str] = contextvars.ContextVar("kkprint_language", default="en")


def typed_language(args: list[str]) -> str | None:
    """``--lang X`` as typed anywhere on the command line, known before the command line is
    parsed (for help and usage errors); anything odd is left for the parser to refuse."""
    for index, arg in enumerate(args):
        value = (
            arg.split("=", 1)[1]
            if arg.startswith("--lang=")
            else (args[index + 1] if arg == "--lang" and index + 1 < len(args) else None)
        )
        if value and value.lower() in ("ja", "en"):
            return value.lower()
    return None


def locale_name() -> str:
    """The locale the environment asks for (``ja_JP.UTF-8``), "" for none."""
    for name in ("LC_ALL", "LC_MESSAGES", "LC_PAPER", "LANG"):
        value = os.environ.get(name)
        if value:
            return value
    try:
        return locale.getlocale()[0] or ""
    except ValueError:
        return ""


def parsed_catalogue(lang: str) -> gettext.NullTranslations:
    """gettext's own reading of ``lang``'s compiled catalogue."""
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang])


# How a language's catalogue is loaded. This module stands below everything else in kkprint, so
# it cannot keep gettext's parse in the cache folder itself: a kkprint process loads catalogues
# with kkprint.base.definitions.kept_catalogue, which does (kkprint.__main__ says so).
_load_catalogue: Callable[[str], gettext.NullTranslations] = parsed_catalogue


def load_catalogues_with(load: Callable[[str], gettext.NullTranslations]) -> None:
    """Load every catalogue not loaded yet with ``load`` (given ``lang``)."""
    global _load_catalogue
    _load_catalogue = load


@cache
def _catalogue(lang: str) -> gettext.NullTranslations:
    if lang == "en":
        return gettext.NullTranslations()
    return _load_catalogue(lang)


def N_(msgid: str) -> str:  # noqa: N802 - the name gettext tools look for
    """Marks a message for the catalogue where it is defined; it is translated where shown."""
    return msgid


def current() -> str:
    """The language messages are shown in when nobody names one."""
    return _language.get()


def use(lang: str) -> contextvars.Token:
    """Show messages in ``lang`` from now on, in this thread or task."""
    return _language.set(lang)


@contextmanager
def using(lang: str):
    """Show messages in ``lang`` within the block (one request of the score pad)."""
    token = _language.set(lang)
    try:
        yield
    finally:
        _language.reset(token)


def gettext_in(lang: str, msgid: str) -> str:
    return _catalogue(lang).gettext(msgid)


def tr(msgid: str, lang: str | None = None, /, **values: Any) -> str:
    """``msgid`` in ``lang`` (or the current language), with ``{names}`` filled in."""
    lang = lang or current()
    text = _catalogue(lang).gettext(msgid)
    if not values:
        return text
    return text.format(**{key: _shown(value, lang) for key, value in values.items()})


def ntr(singular: str, plural: str, number: int, lang: str | None = None, /, **values: Any) -> str:
    """:func:`tr` of a message whose words depend on ``number`` ("1 die", "3 dice"); the
    catalogue holds each language's forms (Japanese has one)."""
    lang = lang or current()
    text = _catalogue(lang).ngettext(singular, plural, number)
    return text.format(**{key: _shown(value, lang) for key, value in values.items()})


def _shown(value: Any, lang: str) -> Any:
    if hasattr(value, "render"):  # a message, or a printed word that exists in every language
        return value.render(lang)
    return value


class Msg:
    """A message kept as its English ``msgid`` and values until someone reads it. Values may be
    messages themselves (the ``what`` of "{what} must be a whole number")."""

    __slots__ = ("msgid", "values")

    def __init__(self, msgid: str, /, **values: Any):
        self.msgid = msgid
        self.values = values

    def render(self, lang: str | None = None) -> str:
        return tr(self.msgid, lang, **self.values)

    def __str__(self) -> str:
        return self.render()

    def __repr__(self) -> str:
        return f"Msg({self.msgid!r}, {self.values!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Msg) and (self.msgid, self.values) == (other.msgid, other.values)

    def __hash__(self) -> int:
        return hash(self.msgid)


class Counted(Msg):
    """A :class:`Msg` whose words depend on a number: ``Counted("{count} die", "{count} dice",
    count, count=count)``."""

    __slots__ = ("plural", "number")

    def __init__(self, singular: str, plural: str, number: int, /, **values: Any):
        super().__init__(singular, **values)
        self.plural = plural
        self.number = number

    def render(self, lang: str | None = None) -> str:
        return ntr(self.msgid, self.plural, self.number, lang, **self.values)

    def __repr__(self) -> str:
        return f"Counted({self.msgid!r}, {self.plural!r}, {self.number!r}, {self.values!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Counted) and (self.msgid, self.number, self.values) == (
            other.msgid,
            other.number,
            other.values,
        )

    __hash__ = Msg.__hash__


class Said(Protocol):
    """Anything said in the reader's language (a :class:`Msg`, a library's English with our
    fallback, an OS reason): what an error's message may be."""

    def render(self, lang: str | None = None) -> str: ...


def text(value: str | Said, lang: str | None = None) -> str:
    """A plain string as it is, a message in ``lang``."""
    return value if isinstance(value, str) else value.render(lang)


class Joined:
    """Several messages shown as one, separated the way the language separates clauses."""

    __slots__ = ("parts",)

    def __init__(self, parts):
        self.parts = list(parts)

    def render(self, lang: str | None = None) -> str:
        return tr("; ", lang).join(text(part, lang) for part in self.parts)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Joined) and self.parts == other.parts

    # Defining __eq__ without __hash__ leaves __hash__ None: a Joined is unhashable, like the
    # list it holds (an explicit ``__hash__ = None`` says the same but mypy cannot type it).


class Detail:
    """A library's own description of a problem (libyaml's, Python's parser's): in the
    catalogue's words when it is one we know; otherwise the library's English, or in another
    language just "a syntax error" — the place beside it still says where."""

    __slots__ = ("problem", "known")

    def __init__(self, problem: str, known):
        self.problem = " ".join(str(problem).split())
        self.known = known

    def render(self, lang: str | None = None) -> str:
        if self.problem in self.known:
            return tr(self.problem, lang)
        return self.problem if (lang or current()) == "en" else tr("a syntax error", lang)


class OneOf:
    """Names to choose from, as a sentence lists them: ``'a4', 'letter' or 'a3'`` in English,
    ``「a4」、「letter」、「a3」`` in Japanese."""

    __slots__ = ("names",)

    def __init__(self, names):
        self.names = [str(name) for name in names]

    def render(self, lang: str | None = None) -> str:
        quoted = [tr("'{name}'", lang, name=name) for name in self.names]
        if len(quoted) < 2:
            return "".join(quoted)
        return tr("{names} or {last}", lang, names=tr(", ", lang).join(quoted[:-1]), last=quoted[-1])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, OneOf) and self.names == other.names

    def __hash__(self) -> int:
        return hash(tuple(self.names))


class Listed:
    """Words listed as the reader's language lists them (``cross, fan, star`` in English,
    ``十字、扇、星`` in Japanese); each item a string or anything with ``render(lang)``."""

    __slots__ = ("items",)

    def __init__(self, items):
        self.items = list(items)

    def render(self, lang: str | None = None) -> str:
        lang = lang or current()
        return tr(", ", lang).join(item if isinstance(item, str) else item.render(lang) for item in self.items)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Listed) and self.items == other.items

    def __hash__(self) -> int:
        return hash(len(self.items))


class InEnglish:
    """A library's own English sentence (pydantic's, the operating system's) where we have no
    words of our own for it: as it is in English, ``otherwise`` in any other language."""

    __slots__ = ("english", "otherwise")

    def __init__(self, english: str, otherwise: Msg):
        self.english = " ".join(str(english).split())
        self.otherwise = otherwise

    def render(self, lang: str | None = None) -> str:
        return self.english if (lang or current()) == "en" else self.otherwise.render(lang)

    def __str__(self) -> str:
        return self.render()
