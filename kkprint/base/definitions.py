"""The shipped game definitions (``data/GAME/*.yaml``) as frozen dataclasses, checked by pydantic
only when a file's bytes are new to this installation (and, through :func:`remembered`, a deck's
data, ``kkprint.deck.model``, and gettext's parse of a message catalogue, :func:`kept_catalogue`).

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

import gettext
import io
import os
import pickle
import sys
import zlib
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any, ClassVar, TypeVar, dataclass_transform

from kkprint.base import i18n
from kkprint.base.outputs import keep_in_cache
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


def remembered(kind: type[Checked], path: Path, key: bytes, check: Callable[[], Checked], part: str = "") -> Checked:
    """``check()``'s ``kind`` made of ``path`` (its ``part``: a workbook's sheet), from the cache
    when this kkprint made it of the same ``key`` (everything the check reads, as bytes) before;
    else checked and kept."""
    found = recalled(kind, path, key, part)
    if found is not None:
        return found
    checked = check()
    keep(kind, path, key, checked, part)
    return checked


def recalled(kind: type[Checked], path: Path, key: bytes, part: str = "") -> Checked | None:
    """The ``kind`` kept for ``path`` (and ``part``) under ``key`` by this kkprint; None if none."""
    found = _read(_entry(kind, path, part), _checker(), key)
    return found if isinstance(found, kind) else None


def keep(kind: type[Checked], path: Path, key: bytes, value: Checked, part: str = "") -> None:
    """Keep ``value`` for ``path`` (and ``part``) under ``key``, in place of what was kept before."""
    _keep(_entry(kind, path, part), (_checker(), key, value))


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


@lru_cache(maxsize=8)
def package_identity(package: str, file: str = "__init__.py") -> str:
    """Which release of ``package`` is installed, told by the bytes of its ``file`` that names the
    version (found, not imported: importing it may cost more than what it keys; a release's size
    and time may not tell it); "unknown" when that file cannot be read."""
    import hashlib
    from importlib.util import find_spec

    spec = find_spec(package)
    folders = spec.submodule_search_locations if spec is not None else None
    try:
        with open(os.path.join(next(iter(folders)), file) if folders else "", "rb") as named:
            return hashlib.sha256(named.read()).hexdigest()[:16]
    except OSError:
        return "unknown"


def _entry(kind: type, path: Path, part: str = "") -> Path:
    """One cache entry per definition file (and part) and kind: a new version replaces the old
    one (the name only spreads the entries; what an entry holds is compared whole)."""
    where = f"{path.resolve()}#{part}" if part else str(path.resolve())
    name = f"{kind.__module__}.{kind.__qualname__}-{zlib.crc32(where.encode()):08x}"
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
    keep_in_cache(entry, pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))


# --- the message catalogues, kept as gettext parsed them ----------------------------------------


class Catalogue:
    """A language's messages as gettext parsed them from the compiled ``.mo``, kept in the cache
    folder as a definition is. gettext decodes all of its ~1,200 messages every time a process
    loads it (~20 M instructions) and every build loads the Japanese catalogue (the words the
    engine prints are prepared in both languages); the kept catalogue is read back in ~8 M."""

    def __init__(self, messages: dict, info: dict, charset: str | None) -> None:
        self.messages, self.info, self.charset = messages, info, charset

    @classmethod
    def parsed(cls, data: bytes) -> Catalogue:
        translations = gettext.GNUTranslations(io.BytesIO(data))
        messages = translations._catalog  # type: ignore[attr-defined]  # (gettext's own parse, kept whole)
        return cls(messages, translations.info(), translations.charset())

    @property
    def plural(self) -> str:
        """The rule for plural forms, read from the header as gettext reads it ("" for none)."""
        forms = self.info.get("plural-forms", "")
        return forms.split(";")[1].split("plural=")[1] if forms else ""


class _KeptTranslations(gettext.GNUTranslations):
    """gettext's translations over a kept :class:`Catalogue`: its lookups, without its parse."""

    def __init__(self, catalogue: Catalogue) -> None:
        super().__init__()  # (no file: nothing to parse)
        self._catalog, self._info, self._charset = catalogue.messages, catalogue.info, catalogue.charset
        self._plural_rule = catalogue.plural

    def plural(self, n: int) -> int:
        """gettext's rule for which plural form a number takes, made from the header on first use."""
        rule: Callable[[int], int] = gettext.c2py(self._plural_rule) if self._plural_rule else _english_plural
        self.plural = rule  # type: ignore[method-assign,assignment]  # (an attribute of gettext's, as it sets it)
        return rule(n)


def _english_plural(n: int) -> int:
    return int(n != 1)


def kept_catalogue(lang: str) -> gettext.NullTranslations:
    """``lang``'s catalogue: gettext's parse of it, from the cache folder when this kkprint
    parsed the same ``.mo`` before."""
    found = gettext.find(i18n.DOMAIN, i18n.LOCALE_DIR, languages=[lang])
    if found is None:
        return i18n.parsed_catalogue(lang)  # (which says what is missing)
    data = Path(found).read_bytes()
    return _KeptTranslations(remembered(Catalogue, Path(found), data, lambda: Catalogue.parsed(data)))
