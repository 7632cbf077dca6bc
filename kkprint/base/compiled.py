"""The methods dataclasses writes, compiled once per installation instead of once per process.

dataclasses writes every method it makes (``__init__``, ``__eq__``, ``__hash__`` …) as Python
source and compiles it with ``exec``: ~0.5 M instructions a method, about forty of them in a
game's build (kkprint.base.records makes each on first use). The compiled code depends only on
that source and on the Python running it, so :func:`keep_compiled_methods` gives dataclasses an
``exec`` that compiles each source once and keeps the code in the cache folder (marshal data, one
file for this Python, trusted as Python trusts its ``__pycache__``). It is the code Python's own
``exec`` would compile: the same file name and no ``__future__`` flags (dataclasses has none).
"""

from __future__ import annotations

import atexit
import builtins
import dataclasses
import importlib.util
import marshal
import sys
from pathlib import Path
from types import CodeType

from kkprint.base.outputs import keep_in_cache

MOST = 4096  # sources kept: kkprint's classes need a few hundred; pydantic's checks add their own
LARGEST = 16 * 1024 * 1024  # bytes of a file worth reading (a full one is ~4 MB)

_known: dict[str, CodeType] = {}
_used: set[str] = set()  # the sources this process asked for
_added: list[str] = []  # ... and of those, the ones it compiled


def _exec(source, globals=None, locals=None, /):  # noqa: A002 - exec's own parameter names
    """``exec`` as dataclasses calls it (a source, its globals, a namespace to fill)."""
    if type(source) is str:
        code = _known.get(source)
        if code is None:
            code = _known[source] = compile(source, "<string>", "exec", dont_inherit=True)
            _added.append(source)
        _used.add(source)
        source = code
    builtins.exec(source, globals, locals)


def _file(folder: Path) -> Path:
    """One file per Python (code from another is not code for this one) and optimisation level
    (``python -O`` compiles without asserts), as ``__pycache__`` keeps them apart."""
    tag = f"{sys.implementation.cache_tag}-{importlib.util.MAGIC_NUMBER.hex()}-O{sys.flags.optimize}"
    return folder / f"dataclass-methods-{tag}.marshal"


def keep_compiled_methods(folder: Path) -> None:
    """From now on, dataclasses compiles each method's source once per installation (``folder``:
    the cache folder); what this process compiles anew is kept when it ends. (A forked worker
    ends without it: its few methods are kept by the next build that makes them itself.)"""
    path = _file(folder)
    _known.update(_read(path))
    dataclasses.exec = _exec  # type: ignore[attr-defined]  # (a name dataclasses looks up as it runs)
    atexit.register(_keep, path)


def _read(path: Path) -> dict[str, CodeType]:
    """The code kept in ``path``; none when there is no file, or it is not one this module wrote
    (unreadable, cut short, damaged, too large)."""
    try:
        with path.open("rb") as file:
            data = file.read(LARGEST + 1)
        kept = marshal.loads(data) if len(data) <= LARGEST else None
    except Exception:  # (an OSError, or what a damaged file makes marshal raise: compiled again)
        return {}
    if not isinstance(kept, dict):
        return {}
    return {source: code for source, code in kept.items() if type(source) is str and type(code) is CodeType}


def _keep(path: Path) -> None:
    """Add what this process compiled to the file, whole or not at all (another process may have
    added its own meanwhile: they are kept too). A full file keeps only what this process used,
    so code of classes that changed since does not pile up. A folder that cannot be written is
    no error, only a slower next run."""
    if not _added:
        return
    kept = {**_read(path), **_known}
    if len(kept) > MOST:
        kept = {source: kept[source] for source in _used}
    keep_in_cache(path, marshal.dumps(kept))
