"""One exception type for everything a user can fix, so the CLI can print it as one line."""

from __future__ import annotations

import difflib
import errno
import re
from typing import Any

from kkprint.base.i18n import N_, Msg, Said, current, text, tr
from kkprint.base.pathnames import looks_like_path, shown


class InputError(Exception):
    """Bad input or usage: the CLI prints ``source: place: message`` and exits with code 2.

    ``source`` is the file (or ``<stdin>``, or an argument name); ``place`` is where inside it —
    a YAML line, a player and land, a row and column. Both are optional because some problems
    (an unknown target name) have no file.
    """

    def __init__(
        self,
        message: str | Said,
        *,
        source: str | Msg | None = None,
        place: str | Msg | None = None,
        path: tuple | None = None,
        also: tuple[InputError, ...] = (),
    ):
        super().__init__(message)
        self.message = message
        self.source = source
        self.place = place
        self.path = path  # where in the tally's data, for a score-pad page to mark the field
        self.also = also  # the other mistakes found with this one (each told in a line of its own)

    @classmethod
    def together(cls, errors: list[InputError]) -> InputError:
        """Several mistakes found at once (a deck's regions, each checked): the first, carrying
        the others, so one run tells them all instead of one a run."""
        first, *others = [each for error in errors for each in error.each()]  # (one found with its own: all)
        return InputError(first.message, source=first.source, place=first.place, path=first.path, also=tuple(others))

    def each(self) -> list[InputError]:
        """This mistake and those found with it, each to be told in a line of its own."""
        return [self, *self.also]

    def __reduce__(self):  # keeps source and place when a worker process sends it back
        return (_rebuild, (self.message, self.source, self.place, self.path, self.also))

    def located(self, *, source: str | None = None, place: str | Msg | None = None) -> InputError:
        """Fill in whatever location the raiser did not know, keeping what it did."""
        return InputError(
            self.message, source=self.source or source, place=self.place or place, path=self.path, also=self.also
        )

    def render(self, lang: str | None = None, *, with_source: bool = True) -> str:
        """One line in ``lang``: ``source: place: message``."""
        source = self.source
        if isinstance(source, str) and source in _STAND_INS:
            source = Msg(_STAND_INS[source])
        elif isinstance(source, str) and source:
            source = shown(source) if looks_like_path(source) else source
        located = (source, self.place) if with_source else (self.place,)
        parts = [_short(text(p, lang)) for p in located if p]
        return visible(" ".join(": ".join(parts + [text(self.message, lang)]).split()))  # always one line

    def __str__(self) -> str:
        return self.render()


# Sources that are not files, said in the reader's language.
_STAND_INS = {"<stdin>": N_("standard input"), "<prompt>": N_("your answers")}


class LimitReached(InputError):
    """A bound on a whole document's work was reached: the build stops where it is. A deck's
    preflight notes one card's error and draws on; this one it lets through, or the bound would
    be spent again on every card left."""

    def located(self, *, source: str | None = None, place: str | Msg | None = None) -> InputError:
        return LimitReached(self.message, source=self.source or source, place=self.place or place, path=self.path)


# Control characters, and the marks that turn text right to left: echoed as they are, a value
# from a file name or KKPRINT_PAPER could recolour the terminal or disguise the line it is in.
_HIDDEN = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def visible(text: str) -> str:
    """``text`` with every control character written as an escape (``\\x1b``), as Python would."""
    return _HIDDEN.sub(lambda match: repr(match.group())[1:-1], text)


def _short(text: str, limit: int = 160) -> str:
    """A very long path or place, shortened in the middle so the message stays one readable line."""
    return text if len(text) <= limit else f"{text[: limit // 2 - 1]}…{text[-(limit // 2) :]}"


def _rebuild(message, source, place, path, also=()) -> InputError:
    return InputError(message, source=source, place=place, path=path, also=also)


def close_to(name: str, known) -> bool:
    """Whether ``name`` is close enough to one of ``known`` for a "did you mean"."""
    return bool(difflib.get_close_matches(name, sorted(set(known)), n=1, cutoff=0.6))


def did_you_mean(value: Any, known) -> Msg | str:
    """Only the "did you mean" of :func:`suggest`, for a message that lists the choices itself."""
    close = difflib.get_close_matches(str(value), sorted(set(known)), n=1, cutoff=0.6)
    return Msg("; did you mean '{name}'?", name=close[0]) if close else ""


def suggest(name: str, known) -> Msg | str:
    """ "; did you mean 'x'?" for the closest known name, or the list of known names."""
    known = sorted(set(known))
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
    if close:
        return Msg("; did you mean '{name}'?", name=close[0])
    if not known:
        return ""
    listed = ", ".join(known[:12]) + (" …" if len(known) > 12 else "")
    return Msg("; known: {names}", names=listed)


# What the operating system says of a file it refused, in the catalogue's words (its own
# strerror is English whatever the user's language).
_OS_REASONS = {
    "ENOENT": N_("no such file or folder"),
    "ENOTDIR": N_("a part of the path is a file, not a folder"),
    "EISDIR": N_("is a folder"),
    "EEXIST": N_("a file of that name is already there"),
    "EACCES": N_("permission denied"),
    "EPERM": N_("not permitted"),
    "EROFS": N_("the disk is read-only"),
    "ENOSPC": N_("the disk is full"),
    "EDQUOT": N_("the disk quota is used up"),
    "ENAMETOOLONG": N_("the name is too long"),
    "ELOOP": N_("too many links (a link loop?)"),
    "EMFILE": N_("too many files are open"),
    "ENFILE": N_("too many files are open"),
    "EBUSY": N_("the file is in use"),
    "ETXTBSY": N_("the file is in use"),
    "EIO": N_("the disk could not be read or written (an input/output error)"),
    "EXDEV": N_("it lies on another disk"),
    "ENXIO": N_("no such device"),
    "ENODEV": N_("no such device"),
    "EINVAL": N_("the name or the request is not valid here"),
    "EFBIG": N_("the file is too large"),
    "ENOTEMPTY": N_("the folder is not empty"),
    "EAGAIN": N_("the file is busy; try again"),
    "EADDRINUSE": N_("another program is using it"),
}


class OsReason:
    """Why the operating system refused (``Not a directory`` …) in the reader's language; a
    reason we have no words for is said by its number in any language but English."""

    __slots__ = ("number", "english")

    def __init__(self, err: OSError):
        self.number = err.errno
        self.english = err.strerror or str(err)

    def render(self, lang: str | None = None) -> str:
        name = errno.errorcode.get(self.number or -1, "")
        if name in _OS_REASONS:
            return tr(_OS_REASONS[name], lang)
        if (lang or current()) == "en":
            return self.english
        return tr("the system refused it (error {number})", lang, number=self.number)

    def __str__(self) -> str:
        return self.render()
