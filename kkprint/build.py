"""Build options shared by every target, and the registry of what ``kkprint build`` can make."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from kkprint.engine.document import ENGINE_TEXTS
from kkprint.engine.fonts import FontSet, prepare_fonts
from kkprint.engine.geometry import PAPERS, DuplexMode, Paper
from kkprint.errors import InputError

LANGS = ("ja", "en")


@dataclass(frozen=True)
class BuildOptions:
    lang: str = "ja"
    paper_name: str = "a4"
    out_dir: Path = Path("output")
    duplex: DuplexMode = DuplexMode.LONG_EDGE
    back_offset_mm: tuple[float, float] = (0.0, 0.0)
    players: int | None = None

    @property
    def paper(self) -> Paper:
        return PAPERS[self.paper_name]

    def file_name(self, stem: str) -> str:
        """Output names carry language and paper so different builds never overwrite each other."""
        return f"{stem}-{self.lang}-{self.paper_name}.pdf"

    def path(self, stem: str) -> Path:
        return self.out_dir / self.file_name(stem)


@dataclass(frozen=True)
class Target:
    """Something ``kkprint build`` can make: what it prints, what text it needs, how to build it."""

    id: str
    summary: str
    products: tuple[str, ...]
    texts: Callable[[BuildOptions], Iterable[str]]
    build: Callable[[BuildOptions, FontSet], list[Path]]


_TARGETS: dict[str, Target] = {}


def register(target: Target) -> Target:
    _TARGETS[target.id] = target
    return target


def targets() -> dict[str, Target]:
    # Importing the game packages registers their targets; done here so the registry has one door.
    from kkprint.games.kardinal import components as _kardinal  # noqa: F401
    from kkprint.games.webofpower import components as _webofpower  # noqa: F401
    from kkprint.games.court import components as _court  # noqa: F401
    from kkprint.games.culdcept import components as _culdcept  # noqa: F401

    return dict(_TARGETS)


def resolve(names: Iterable[str]) -> list[Target]:
    known = targets()
    chosen: list[Target] = []
    for name in names or ["all"]:
        if name == "all":
            chosen.extend(t for t in known.values() if t not in chosen)
        elif name in known:
            if known[name] not in chosen:
                chosen.append(known[name])
        else:
            raise InputError(f"unknown target {name!r}; known: all, {', '.join(known)}", source="build")
    return chosen


def build_targets(chosen: list[Target], options: BuildOptions) -> list[Path]:
    """Build every chosen target with one font preparation for the whole run."""
    if options.lang not in LANGS:
        raise InputError(f"unknown language {options.lang!r}; use ja or en", source="--lang")
    if options.paper_name not in PAPERS:
        raise InputError(f"unknown paper {options.paper_name!r}; use {' or '.join(PAPERS)}", source="--paper")
    texts: list[str] = list(ENGINE_TEXTS)
    for target in chosen:
        texts.extend(target.texts(options))
    fonts = prepare_fonts(texts)
    written: list[Path] = []
    for target in chosen:
        written.extend(target.build(options, fonts))
    return written
