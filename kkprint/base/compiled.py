"""What every process would compile again from the same text, compiled once per installation.

Three kinds of code depend only on their text and on the Python running them:

- dataclasses writes every method it makes (``__init__``, ``__eq__``, ``__hash__`` …) as Python
  source and compiles it with ``exec``: ~0.5 M instructions a method, about forty of them in a
  game's build (kkprint.base.records makes each on first use);
- expressions made as text: ``namedtuple`` writes each tuple class's ``__new__`` as a lambda
  (``eval``), ``typing`` compiles every forward reference (an annotation as text: all of
  kkprint's), ``inspect`` evaluates the annotations Typer asks it for — ~180 of them in a
  game's build (8 M instructions), more in ``--help`` (23 M, a sixteenth of it);
- ``re`` turns every regular expression a module makes as it loads (Typer's, PyYAML's,
  ReportLab's, the HTML parser's, kkprint's own) into the program its matcher runs, with a
  parser and a code generator written in Python: ~90 of them in a game's build, ~115 M
  instructions (PyYAML's check for unprintable characters alone is half of it).

:func:`keep_compiled_code` gives dataclasses an ``exec``, namedtuple and inspect an ``eval``,
typing a ``compile``, and ``re`` a compiler, that look in the cache folder first (marshal data,
one file a kind for this Python, trusted as Python trusts its ``__pycache__``) and keep what
they compiled anew when the process ends. Each is what Python's own would make: a method's or
an expression's code has the same file name and no ``__future__`` flags (dataclasses,
collections, typing and inspect have none); a pattern's program is what
``re._compiler.compile`` hands to ``_sre.compile``.
"""

from __future__ import annotations

import atexit
import builtins
import collections
import dataclasses
import importlib.util
import inspect  # (loaded by dataclasses already)
import marshal
import re
import sys
import typing
import zlib
from array import array
from collections.abc import Callable, Hashable
from pathlib import Path
from types import CodeType

MOST = 4096  # entries a file keeps: kkprint needs a few hundred; pydantic's checks add their own
LARGEST = 16 * 1024 * 1024  # bytes of a file worth reading (a full one is a few MB)


class _KeptCode:
    """One kind of compiled code by the text it was compiled from: read from its file in the
    cache folder, and what this process compiled anew kept back there as it ends.

    With ``second_sighting``, a text is kept the second time a process compiles it; the first
    time only its checksum is noted. ReportLab writes one pattern from a set of names, in the
    order of each process's string hashes: its text is new in every process, and keeping each
    would write the file every time and fill it. A process that noted no more than one new text
    and compiled nothing to keep writes nothing.

    The file carries a checksum of what it holds: a file damaged on disk is compiled again (a
    damaged program could crash ``_sre`` or match otherwise), not believed."""

    NOTES = 512  # checksums a file remembers, the latest

    def __init__(self, name: str, fits: Callable[[object, object], bool], *, second_sighting: bool = False) -> None:
        self.name = name
        self.fits = fits  # (whether an entry read back is one this module wrote)
        self.second_sighting = second_sighting
        self.known: dict = {}
        self.noted: set[int] = set()  # checksums of texts compiled once, by an earlier process
        self.noting: dict[int, None] = {}  # ... and by this one, in order
        self.used: set = set()  # the texts this process asked for
        self.added: list = []  # ... and of those, the ones it compiled and keeps
        self.path: Path | None = None

    def found(self, text: Hashable):
        """What ``text`` was compiled to before, or None."""
        made = self.known.get(text)
        if made is not None:
            self.used.add(text)
        return made

    def compiled(self, text: Hashable, made: object) -> None:
        """``text`` was compiled to ``made`` now: kept (or, the first time, noted)."""
        self.used.add(text)
        if self.second_sighting:
            checksum = zlib.crc32(repr(text).encode("utf-8", "surrogatepass"))
            if checksum not in self.noted:
                self.noting[checksum] = None
                return
        self.known[text] = made
        self.added.append(text)

    def made(self, text: Hashable, compile_it: Callable[[], object]):
        """What ``text`` compiles to: read back, or compiled now."""
        made = self.found(text)
        if made is None:
            made = compile_it()
            self.compiled(text, made)
        return made

    def forget(self, text: Hashable) -> None:
        """An entry that would not serve: compiled again, and kept again."""
        self.known.pop(text, None)

    def file(self, folder: Path) -> Path:
        """One file per Python release (code from another is not code for this one: a bug-fix
        release may compile a pattern otherwise) and optimisation level (``python -O`` compiles
        without asserts)."""
        tag = f"{sys.implementation.cache_tag}-{sys.hexversion:x}-{importlib.util.MAGIC_NUMBER.hex()}"
        return folder / f"{self.name}-{tag}-O{sys.flags.optimize}.marshal"

    def load(self, folder: Path) -> None:
        self.path = self.file(folder)
        kept, noted = self.read(self.path)
        self.known.update(kept)
        self.noted.update(noted)
        atexit.register(self.keep)

    def read(self, path: Path) -> tuple[dict, tuple[int, ...]]:
        """The entries kept in ``path`` and the checksums noted there; none when there is no file,
        or it is not one this module wrote (unreadable, cut short, damaged, too large)."""
        try:
            with path.open("rb") as file:
                data = file.read(LARGEST + 1)
            body = memoryview(data)[4:]  # (after the checksum, not copied)
            if len(data) > LARGEST or len(data) < 4 or zlib.crc32(body) != int.from_bytes(data[:4], "little"):
                return {}, ()
            found = marshal.loads(body)
        except Exception:  # (an OSError, or what marshal raises: compiled again)
            return {}, ()
        if not (type(found) is tuple and len(found) == 2 and type(found[0]) is dict and type(found[1]) is tuple):
            return {}, ()
        kept, noted = found
        return (
            {text: made for text, made in kept.items() if self.fits(text, made)},
            tuple(checksum for checksum in noted if type(checksum) is int),
        )

    def keep(self) -> None:
        """Add what this process compiled to the file, whole or not at all (another process may
        have added its own meanwhile: they are kept too). A full file keeps only what this
        process used, so code of what changed since does not pile up. A folder that cannot be
        written is no error, only a slower next run."""
        if self.path is None or not (self.added or len(self.noting) > 1):
            return
        from kkprint.base.outputs import keep_in_cache  # (only a process that compiled needs it)

        theirs, noted = self.read(self.path)
        kept = {**theirs, **self.known}
        if len(kept) > MOST:
            kept = {text: kept[text] for text in self.used if text in kept}
        notes = tuple(dict.fromkeys([*noted, *self.noting]))[-self.NOTES :]
        data = marshal.dumps((kept, notes))
        keep_in_cache(self.path, zlib.crc32(data).to_bytes(4, "little") + data)


def _is_code(source: object, code: object) -> bool:
    return type(source) is str and type(code) is CodeType


def _is_program(pattern: object, program: object) -> bool:
    """A pattern's key (its text and flags) and the arguments ``_sre.compile`` takes after the
    text: flags, code, groups, group index, index group."""
    return (
        type(pattern) is tuple
        and len(pattern) == 2
        and type(pattern[0]) in (str, bytes)
        and type(pattern[1]) is int
        and type(program) is tuple
        and len(program) == 5
        and type(program[0]) is int
        and type(program[1]) is bytes
        and type(program[2]) is int
        and type(program[3]) is dict
        and type(program[4]) is tuple
    )


METHODS = _KeptCode("dataclass-methods", _is_code)


def _exec(source, globals=None, locals=None, /):  # noqa: A002 - exec's own parameter names
    """``exec`` as dataclasses calls it (a source, its globals, a namespace to fill)."""
    if type(source) is str:
        text = source
        source = METHODS.made(text, lambda: compile(text, "<string>", "exec", dont_inherit=True))
    builtins.exec(source, globals, locals)


EXPRESSIONS = _KeptCode("expressions", _is_code)


def _expression(text: str) -> CodeType:
    """What ``compile(text, "<string>", "eval")`` makes, from a module without ``__future__``
    imports; its errors are compile's own (and nothing is kept of them)."""
    return EXPRESSIONS.made(text, lambda: compile(text, "<string>", "eval", dont_inherit=True))


def _eval(source, globals=None, locals=None, /):  # noqa: A002 - eval's own parameter names
    """``eval`` as namedtuple and inspect call it (a text, the globals to evaluate it in)."""
    if type(source) is str and globals is not None:
        # (eval strips the spaces and tabs before an expression; compile would refuse them)
        return builtins.eval(_expression(source.lstrip(" \t")), globals, locals)
    if globals is None:  # (the caller's, as eval's own takes them)
        caller = sys._getframe(1)
        globals, locals = caller.f_globals, caller.f_locals if locals is None else locals
    return builtins.eval(source, globals, locals)


def _compile(source, filename, mode, flags=0, dont_inherit=False, optimize=-1, **more):
    """``compile`` as typing calls it for a forward reference (a text as an expression). Its
    caller is typing, which has no ``__future__`` flags to pass on: none are taken from here."""
    if type(source) is str and filename == "<string>" and mode == "eval" and not (flags or more) and optimize == -1:
        return _expression(source)
    return builtins.compile(source, filename, mode, flags, True, optimize, **more)


# re's own compiler, and the steps it takes, as Python 3.11 to 3.13 write them (another Python
# keeps its own: the compiler is not replaced)
_compiler = getattr(re, "_compiler", None)
_parser = getattr(re, "_parser", None)
_sre = getattr(_compiler, "_sre", None)
_OWN_COMPILE = getattr(_compiler, "compile", None)
_REPLACEABLE = (
    sys.version_info[:2] in ((3, 11), (3, 12), (3, 13)) and hasattr(_compiler, "_code") and array("I").itemsize == 4
)


# (the matcher's own version in the name too: its programs change with it)
PATTERNS = _KeptCode(f"regex-programs-{getattr(_sre, 'MAGIC', 0)}", _is_program, second_sighting=True)


def _program(tree, flags: int) -> tuple:
    """What ``re._compiler.compile`` hands ``_sre.compile`` after the pattern's text, for the
    pattern ``_parser.parse`` read as ``tree``."""
    assert _compiler is not None  # (only called where _REPLACEABLE)
    code = _compiler._code(tree, flags)
    groupindex = dict(tree.state.groupdict)
    indexgroup: list[str | None] = [None] * tree.state.groups
    for name, index in groupindex.items():
        indexgroup[index] = name
    # (kept as the matcher's 32-bit words: marshal reads bytes at once, a list int by int)
    return (flags | tree.state.flags, array("I", code).tobytes(), tree.state.groups - 1, groupindex, tuple(indexgroup))


def _compile_pattern(pattern, flags=0):
    """``re._compiler.compile`` as ``re`` calls it for a new pattern, its program read back when
    this installation compiled the same text with the same flags before. Anything else (a parsed
    pattern, a ``str`` subclass, ``re.DEBUG``, which prints) goes to re's own. The parser is
    called from here, as deep as re's own compiler calls it: its warnings name the module that
    compiles the pattern."""
    if type(pattern) not in (str, bytes) or type(flags) is not int or flags & re.DEBUG:
        return _OWN_COMPILE(pattern, flags)  # type: ignore[misc]  # (set wherever this is installed)
    key = (pattern, flags)
    program = PATTERNS.found(key)
    if program is not None:
        try:
            return _matcher(pattern, program)
        except Exception:  # (an entry this Python's _sre refuses: compiled again)
            PATTERNS.forget(key)
    tree = _parser.parse(pattern, flags)  # type: ignore[union-attr]
    program = _program(tree, flags)
    PATTERNS.compiled(key, program)
    return _matcher(pattern, program)


def _matcher(pattern: str | bytes, program: tuple) -> re.Pattern:
    flags, code, groups, groupindex, indexgroup = program
    return _sre.compile(pattern, flags, array("I", code).tolist(), groups, groupindex, indexgroup)  # type: ignore[union-attr]


def keep_compiled_code(folder: Path) -> None:
    """From now on, dataclasses' methods, expressions made as text and re's patterns are compiled
    once per installation (``folder``: the cache folder); what this process compiles anew is kept
    when it ends. (A forked worker ends without it: what it alone compiled is kept by the next
    process that compiles it itself.)"""
    METHODS.load(folder)
    dataclasses.exec = _exec  # type: ignore[attr-defined]  # (a name dataclasses looks up as it runs)
    EXPRESSIONS.load(folder)
    collections.eval = inspect.eval = _eval  # type: ignore[attr-defined]  # (a name each looks up as it runs)
    typing.compile = _compile  # type: ignore[attr-defined]
    if _REPLACEABLE:
        PATTERNS.load(folder)
        _compiler.compile = _compile_pattern  # type: ignore[union-attr]  # (re looks it up as it compiles)
