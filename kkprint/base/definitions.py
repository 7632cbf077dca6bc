"""The shipped game definitions (``data/GAME/*.yaml``) as frozen dataclasses, checked by pydantic
only when a file's bytes are new to this installation (and, through :func:`remembered`, a deck's
data, ``kkprint.deck.model``, and gettext's parse of a message catalogue, ``kkprint.base.i18n``).

Why not pydantic models: a scorer runs for a tenth of a second, and importing pydantic and
building a game's validators was half of it. The definitions are plain dataclasses instead;
pydantic checks them all the same (:func:`kkprint.base.models.validate`: its finding becomes one
line naming the file and its line), and the checked result is kept in the user's cache folder
with the bytes it was made of and the code that made it. A later run with the same bytes and the
same kkprint reads that back and never imports pydantic; changed bytes, a changed kkprint or an
unreadable entry is checked again. An entry is a pickle that kkprint itself wrote
into the user's own folder, trusted as Python trusts its ``__pycache__``; a definition file,
whoever wrote it, is read as YAML and checked before its first use, and an entry holds only what
pydantic accepted.
"""

from __future__ import annotations

import os
import pickle
import sys
import tempfile
import zlib
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any, ClassVar, TypeVar, dataclass_transform

from kkprint.base.paths import cache_folder
from kkprint.base.records import methods_on_first_use

Definition_ = TypeVar("Definition_", bound="Definition")
Checked = TypeVar("Checked")


@dataclass_transform(frozen_default=True, kw_only_default=True, eq_default=False)
class Definition:
    """Base of a definition's classes, each a dataclass by inheriting from it; unknown keys are
    typos, so they are errors.

    Frozen for the type checker (mypy refuses an assignment to a field: one definition, or one
    checked deck, is shared by everything that reads it), not at run time, where it would cost
    two more compiled methods a class; and without the ``==`` and ``repr`` nothing uses, as
    every method a dataclass makes is compiled when its module loads (on Python 3.11 each class
    costs ~1 M instructions a method; a deck build loads 22 of them)."""

    __pydantic_config__: ClassVar[dict[str, Any]] = {"extra": "forbid"}

    def __init_subclass__(cls, **options: Any) -> None:
        super().__init_subclass__(**options)
        methods_on_first_use(cls, kw_only=True, eq=False, repr=False)


class Names(Definition):
    """A printed word in every language kkprint prints; German where the original had it."""

    ja: str
    en: str
    de: str | None = None

    def __call__(self, lang: str) -> str:
        return getattr(self, lang, None) or self.en

    def render(self, lang: str | None = None) -> str:
        """As a value in a message: the word in the message's language."""
        from kkprint.base.i18n import current

        return self(lang or current())


def load_definition(kind: type[Definition_], path: Path) -> Definition_:
    """The definition in ``path``, checked as ``kind``: from the cache when this kkprint checked
    the same bytes before, else read, checked and kept for next time."""
    from kkprint.base.yamlio import read_bytes

    data = read_bytes(path)

    def check() -> Definition_:
        from kkprint.base.models import validate
        from kkprint.base.yamlio import yaml_from_bytes

        return validate(kind, yaml_from_bytes(data, str(path)), str(path))

    return remembered(kind, path, data, check)


def remembered(kind: type[Checked], path: Path, key: bytes, check: Callable[[], Checked]) -> Checked:
    """``check()``'s ``kind`` made of ``path``, from the cache when this kkprint made it of the
    same ``key`` (everything the check reads, as bytes) before; else checked and kept."""
    made_by, entry = _checker(), _entry(kind, path)
    found = _read(entry, made_by, key)
    if isinstance(found, kind):
        return found
    checked = check()
    _keep(entry, (made_by, key, checked))
    return checked


def _checker() -> str:
    """The code a checked result depends on: Python and every module of kkprint, by size and
    time (the checks, the YAML reader, the sizes a check compares with)."""
    return "\n".join([sys.version, _stamps(Path(__file__).parent.parent)])


@lru_cache(maxsize=1)
def _stamps(package: Path) -> str:
    """Each module's name, time and size, read once a process (a build reads several files)."""
    walked = []
    for folder, folders, files in os.walk(package):
        folders[:] = [name for name in folders if name != "__pycache__"]  # (compiled: never a .py, and half the files)
        walked.append((folder, files))
    stamps = []
    for folder, files in sorted(walked):
        for name in sorted(files):
            if name.endswith(".py"):
                stat = os.stat(os.path.join(folder, name))
                stamps.append(f"{folder}/{name}:{stat.st_mtime_ns}:{stat.st_size}")
    return "\n".join(stamps)


def _entry(kind: type, path: Path) -> Path:
    """One cache entry per definition file and kind: a new version replaces the old one (the
    name only spreads the entries; what an entry holds is compared whole)."""
    name = f"{kind.__module__}.{kind.__qualname__}-{zlib.crc32(str(path.resolve()).encode()):08x}"
    return cache_folder() / "definitions" / f"{name}.pickle"


def _read(entry: Path, made_by: str, data: bytes) -> object:
    """What the entry holds, if this kkprint made it from these very bytes."""
    try:
        with entry.open("rb") as file:
            kept_by, kept_data, value = pickle.load(file)
    except Exception:  # missing, unreadable, truncated, from another version: check the file again
        return None
    return value if (kept_by, kept_data) == (made_by, data) else None


def _keep(entry: Path, value: object) -> None:
    """Written whole or not at all (another process may be reading it); a cache that cannot be
    written is no error, only a slower next run."""
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=entry.parent, prefix=".", suffix=".tmp")
    except OSError:
        return
    try:
        with os.fdopen(handle, "wb") as file:
            pickle.dump(value, file, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(temporary, entry)
    except BaseException as error:  # (Ctrl-C too: no half-written file is left behind)
        Path(temporary).unlink(missing_ok=True)
        if not isinstance(error, OSError):
            raise
