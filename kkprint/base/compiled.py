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
import os
import sys
import tempfile
from pathlib import Path
from types import CodeType

MOST = 4096  # sources kept: kkprint's classes need a few hundred; pydantic's checks add their own

_known: dict[str, CodeType] = {}
_added: list[str] = []


def _exec(source, globals=None, locals=None, /):  # noqa: A002 - exec's own parameter names
    """``exec`` as dataclasses calls it (a source, its globals, a namespace to fill)."""
    if type(source) is str:
        code = _known.get(source)
        if code is None:
            code = _known[source] = compile(source, "<string>", "exec", dont_inherit=True)
            _added.append(source)
        source = code
    builtins.exec(source, globals, locals)


def _file(folder: Path) -> Path:
    tag = importlib.util.MAGIC_NUMBER.hex()  # (code from another Python is not code for this one)
    return folder / f"dataclass-methods-{sys.implementation.cache_tag}-{tag}.marshal"


def keep_compiled_methods(folder: Path) -> None:
    """From now on, dataclasses compiles each method's source once per installation (``folder``:
    the cache folder); what this process compiles anew is kept when it ends."""
    path = _file(folder)
    try:
        kept = marshal.loads(path.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):  # none yet, unreadable, cut short: compiled again
        kept = {}
    if isinstance(kept, dict):
        _known.update((source, code) for source, code in kept.items() if type(code) is CodeType)
    dataclasses.exec = _exec  # type: ignore[attr-defined]  # (a name dataclasses looks up as it runs)
    atexit.register(_keep, path)


def _keep(path: Path) -> None:
    """Write every method compiled so far, whole or not at all, if this process compiled any;
    a folder that cannot be written is no error, only a slower next run."""
    if not _added or len(_known) > MOST:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=".tmp")
    except OSError:
        return
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(marshal.dumps(dict(_known)))
        os.replace(temporary, path)
    except BaseException as error:  # (Ctrl-C too: nothing half-written is left)
        Path(temporary).unlink(missing_ok=True)
        if not isinstance(error, OSError):
            raise
