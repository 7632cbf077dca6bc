"""Reading a deck: ``extends`` resolution (templates, layouts, faces extending a front, regions
extending a region), card data, look-up tables, limits, every expression checked before a card is
drawn, and every file reference kept inside the deck's folder (links resolved)."""

from __future__ import annotations

import pickle
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

from kkprint.base.definitions import remembered
from kkprint.base.errors import InputError, suggest
from kkprint.base.i18n import N_, Msg
from kkprint.base.paths import TEMPLATES_DIR
from kkprint.base.records import record
from kkprint.base.yamlio import LineDict, load_yaml_file, read_bytes, yaml_from_bytes
from kkprint.deck import data as card_data
from kkprint.deck.data import CardData, LookupTable
from kkprint.deck.expr import compile_condition, compile_template, parse_ranges, today_text
from kkprint.deck.model import (
    STRING_KEYS,
    CardValue,
    DataSpec,
    DeckFile,
    FixedOrField,
    IconRegion,
    Layout,
    Region,
    TextRegion,
    mentions_expression,
    to_mm,
)
from kkprint.engine.icons import has_icon, icon_names
from kkprint.engine.typesetting import parse_font

MAX_CARDS = card_data.MAX_CARDS
MAX_EXTENDS = 8

__all__ = ["CardData", "Deck", "load_deck", "layout_deck", "merge", "resolve_deck_data", "resolve_extends", "select"]


@record
class Deck:
    """A loaded deck. Cards from a data file are read again each time they are walked, so a deck
    of ten thousand cards is never held in memory all at once."""

    spec: DeckFile
    inline: tuple[CardData, ...]
    data_path: Path | None
    folder: Path
    source: str
    allow_outside: bool = False
    # set by --only: each card kept, with its data row (card.row) and its first copy's printed
    # number in the whole deck (card.number), as :meth:`numbered` gives them
    chosen: tuple[tuple[int, int, CardData], ...] | None = None
    whole_total: int | None = None  # with --only: the cards the whole deck prints (card.total)
    lines: dict = field(default_factory=dict, compare=False, hash=False)  # region key -> YAML line
    written_in: dict = field(default_factory=dict, compare=False, hash=False)  # region key -> the section it is in
    # a template's region (written in no line of the file) -> (the section whose extends brings it, that line)
    from_template: dict = field(default_factory=dict, compare=False, hash=False)
    tables: dict[str, LookupTable] = field(default_factory=dict, compare=False, hash=False)
    columns: frozenset[str] = frozenset()  # every field some card has (a deck's fields: included)

    def iter_cards(self) -> Iterator[CardData]:
        """The cards this build prints: those --only keeps, else every card."""
        if self.chosen is not None:
            yield from (card for _, _, card in self.chosen)
            return
        yield from self.whole_deck()

    def whole_deck(self) -> Iterator[CardData]:
        """Every card the deck defines, whichever cards --only keeps (a kept card's back may be
        another card's front)."""
        yield from self.inline
        if self.data_path is not None:
            spec = self.spec.data_file
            yield from card_data.cards_of(self.data_path, spec.sheet if spec else None, self.spec.copies_field)

    def numbered(self) -> Iterator[tuple[int, int, CardData]]:
        """Every distinct card with its data row (``card.row``: 1 for the first card the deck
        defines) and the printed number of its first copy (``card.number``: counted from 1 over
        every copy of every card, as the studio and ``check`` name it; a card of no copies has
        the number the next card's first copy has), both the same whichever cards --only keeps."""
        if self.chosen is not None:
            yield from self.chosen
            return
        number = 1
        for row, card in enumerate(self.iter_cards(), start=1):
            yield row, number, card
            number += card.count

    @property
    def cards(self) -> list[CardData]:
        """All distinct cards as a list (for --only and inspection; builds walk iter_cards)."""
        return list(self.iter_cards())

    @property
    def total(self) -> int:
        """The cards this build prints (those --only keeps)."""
        return sum(card.count for card in self.iter_cards())

    @property
    def card_total(self) -> int:
        """``card.total``: the cards the whole deck prints, whichever cards --only keeps (a card
        reprinted alone still says 7/54)."""
        return self.total if self.whole_total is None else self.whole_total

    def deck_names(self) -> dict[str, str]:
        """``deck.name``, ``deck.version`` and ``today``, as every card of this build reads them."""
        return {"deck.name": self.spec.name, "deck.version": self.spec.version_text, "today": today_text()}

    def resolve(self, name: str, what: str, place: str | Msg) -> Path:
        """A file the deck names, which must stay inside the deck's folder unless allowed."""
        return confined(self.folder, name, what, self.source, place, self.allow_outside)

    def written_at(self, section: tuple, name: str) -> tuple[tuple, int | None]:
        """Where a region of ``section`` is written, as one place for every face that has it:
        the section and line the file writes it at (a face inheriting it from another layout
        names that one), or, for a template's region, where the file's ``extends`` brings it in."""
        key = (*section, name)
        if key not in self.lines and key in self.from_template:
            return self.from_template[key]
        written = self.written_in.get(key, section)
        return written, self.lines.get((*written, name))

    def region_place(self, section: tuple, name: str, line: int | None = None) -> Msg:
        line = line or self.lines.get((*section, name))
        return Msg("region '{name}' (line {line})", name=name, line=line) if line else Msg("region '{name}'", name=name)


class CardRef(NamedTuple):
    """The card being drawn, as findings name it (a named tuple: one is made for every card)."""

    number: int  # the printed number of the copy being drawn (the first, when its copies are alike)
    name: str | None
    origin: str | Msg
    first: int | None = None  # its first copy's number, when a later copy is drawn: one card to the findings

    @property
    def identity(self) -> int:
        return self.first or self.number


def card_place(card: CardData, number: int) -> Msg:
    """A card as an error names it: its printed number, its name, and where it is defined."""
    return card_named(number, card.fields.get("name"), card.origin)


def card_named(number: int, name: str | None, origin: str | Msg) -> Msg:
    """:func:`card_place` of a card known by its number, name and origin (the preflight's findings)."""
    if name:
        return Msg("card {number} '{name}' ({origin})", number=number, name=name[:40], origin=origin)
    return Msg("card {number} ({origin})", number=number, origin=origin)


def confined(folder: Path, name: str, what: str, source: str, place: str | Msg, allow_outside: bool = False) -> Path:
    """``name`` relative to ``folder``, links resolved; outside the folder (unless allowed),
    missing, or not a regular file is an error naming the deck and the place. ``what`` is the
    kind of file in the catalogue's English (``N_("font")``), said in the reader's language."""
    if "\x00" in name:
        raise InputError(Msg("{what} name contains a NUL character", what=Msg(what)), source=source, place=place)
    shown = name if len(name) <= 80 else name[:77] + "…"
    try:
        path = (folder / name).resolve()
        inside = path.is_relative_to(folder.resolve())
        regular = path.is_file()
    except (OSError, RuntimeError, ValueError):
        raise InputError(
            Msg("{what} '{shown}' cannot be resolved (a link loop or a bad name)", what=Msg(what), shown=shown),
            source=source,
            place=place,
        ) from None
    if not allow_outside and not inside:
        raise InputError(
            Msg(
                "{what} '{shown}' is outside the deck's folder (use --allow-outside to permit)",
                what=Msg(what),
                shown=shown,
            ),
            source=source,
            place=place,
        )
    if not regular:
        if path.exists():
            problem = Msg("{what} '{shown}' is not a regular file", what=Msg(what), shown=shown)
        else:
            problem = Msg("{what} '{shown}' not found", what=Msg(what), shown=shown)
        raise InputError(problem, source=source, place=place)
    return path


# What a region shows: fixed content, or a card's field. A region that says one of them says
# what it shows, so what it extends showed otherwise is dropped (a title given ``text:`` over a
# template's ``field: name`` printed the field, and said nothing).
CONTENT_KEYS = (*(kind.fixed_key for kind in FixedOrField.__subclasses__()), "field")  # text, icon, src


def merge(base: Any, override: Any) -> Any:
    """Field-by-field override: mappings merge recursively, anything else replaces; ``null``
    in the override removes the key (so a child can drop a region its template has). A region's
    content (:data:`CONTENT_KEYS`) is replaced as a whole."""
    if isinstance(base, dict) and isinstance(override, dict):
        merged = dict(base)
        if "type" in base and any(key in override for key in CONTENT_KEYS):
            for key in CONTENT_KEYS:
                merged.pop(key, None)
        for key, value in override.items():
            if value is None:
                merged.pop(key, None)
            else:
                merged[key] = merge(base.get(key), value)
        return merged
    return override


def _template_path(name: str, folder: Path, source: str, allow_outside: bool, place: str = "extends") -> Path:
    if "/" not in name and "\\" not in name and not name.endswith((".yaml", ".yml")):
        if (folder / f"{name}.yaml").exists():
            return confined(folder, f"{name}.yaml", N_("template"), source, place, allow_outside)
        if (TEMPLATES_DIR / f"{name}.yaml").is_file():
            return TEMPLATES_DIR / f"{name}.yaml"
        known = [p.stem for p in TEMPLATES_DIR.glob("*.yaml")]
        raise InputError(
            Msg("unknown template '{name}'{hint}", name=name, hint=suggest(name, known)), source=source, place=place
        )
    return confined(folder, name, N_("template"), source, place, allow_outside)


def resolve_extends(data: Any, path: Path, allow_outside: bool = False, depth: int = 0, seen: tuple = ()) -> dict:
    """The deck's data with every ``extends`` applied, the furthest ancestor first."""
    source = str(path)
    if not isinstance(data, dict):
        raise InputError(Msg("a deck file is a mapping of keys (name, card, layout, cards …)"), source=source)
    parent = data.get("extends")
    if parent is None:
        return dict(data)
    if not isinstance(parent, str):
        raise InputError(Msg("extends names one template"), source=source, place="extends")
    if depth >= MAX_EXTENDS:
        raise InputError(
            Msg("extends is nested more than {MAX_EXTENDS} deep", MAX_EXTENDS=MAX_EXTENDS),
            source=source,
            place="extends",
        )
    parent_path = _template_path(parent, path.parent, source, allow_outside)
    if parent_path.resolve() in seen:
        raise InputError(Msg("extends loops back to {name}", name=parent_path.name), source=source, place="extends")
    parent_data = resolve_extends(
        load_yaml_file(parent_path), parent_path, allow_outside, depth + 1, seen + (path.resolve(),)
    )
    child = {k: v for k, v in data.items() if k != "extends"}
    return merge(parent_data, child)


def _resolve_layouts(data: dict, path: Path, allow_outside: bool) -> dict:
    """``layouts`` entries with their ``extends`` chains merged, so each is a whole layout.

    A layout extends another of this deck's layouts or a template's ``layout`` (poker, a file).
    """
    layouts = data.get("layouts")
    if not isinstance(layouts, dict):
        return data
    source = str(path)
    done: dict[str, dict] = {}

    def regions_of(name: str, chain: tuple[str, ...]) -> dict:
        if name in done:
            return done[name]
        place = f"layouts.{chain[-1] if chain else name}.extends"
        if name in chain:
            raise InputError(
                Msg("layout '{name}' extends itself through {names}", name=name, names=" → ".join(chain)),
                source=source,
                place=place,
            )
        if len(chain) > MAX_EXTENDS:
            raise InputError(
                Msg("layouts extend each other more than {MAX_EXTENDS} deep", MAX_EXTENDS=MAX_EXTENDS),
                source=source,
                place=place,
            )
        entry = layouts.get(name)
        if entry is None:  # a template
            template = resolve_extends(
                load_yaml_file(_template_path(name, path.parent, source, allow_outside, place)), path, allow_outside
            )
            return template.get("layout") or {}
        if not isinstance(entry, dict):
            raise InputError(
                Msg("a layout is a mapping with regions (and extends)"), source=source, place=f"layouts.{name}"
            )
        parent = entry.get("extends")
        own = entry.get("regions") or {}
        if parent is None:
            merged = own
        elif not isinstance(parent, str):
            raise InputError(
                Msg("extends names one layout or template"), source=source, place=f"layouts.{name}.extends"
            )
        else:
            merged = merge(regions_of(parent, chain + (name,)), own)
        done[name] = merged
        return merged

    resolved = {}
    for name, entry in layouts.items():
        extras = {k: v for k, v in entry.items() if k not in ("extends", "regions")} if isinstance(entry, dict) else {}
        resolved[name] = {"regions": regions_of(name, ()), **extras}
    return {**data, "layouts": resolved}


def _regions_and_parent(entry: Any) -> tuple[Any, Any]:
    """A face's regions and the front it extends: ``{extends: item, regions: {...}}`` or, as a
    layout or back is usually written, ``{extends: item, title: {...}, ...}``."""
    if not isinstance(entry, dict):
        return entry, None
    regions = entry.get("regions")
    if (
        isinstance(regions, dict)
        and set(entry) <= {"extends", "regions"}
        and all(isinstance(region, dict) or region is None for region in regions.values())
    ):
        return regions, entry.get("extends")
    return entry, entry.get("extends")  # (the caller drops the extends key; its lines stay)


def _resolve_faces(data: dict, path: Path, allow_outside: bool) -> dict:
    """``layout``, ``back`` and every ``backs`` entry with their ``extends`` applied (a front
    layout: one of ``layouts``, ``layout``, or a template's), then every region's ``extends``."""
    source = str(path)
    resolved = dict(data)
    found = data.get("layouts")
    layouts: dict = found if isinstance(found, dict) else {}

    def front(name: str, place: str, chain: tuple[str, ...]) -> dict:
        if name in layouts and isinstance(layouts[name], dict):
            return layouts[name].get("regions") or {}
        if name == "layout":
            if "layout" in chain:
                raise InputError(Msg("layout extends itself"), source=source, place=place)
            return face("layout", data.get("layout"), chain + ("layout",)) or {}
        template = resolve_extends(
            load_yaml_file(_template_path(name, path.parent, source, allow_outside, place)), path, allow_outside
        )
        return template.get("layout") or {}

    def face(place: str, entry: Any, chain: tuple[str, ...] = ()) -> Any:
        regions, parent = _regions_and_parent(entry)
        if parent is None:
            return regions
        regions = {key: value for key, value in regions.items() if key != "extends"}
        if not isinstance(parent, str):
            raise InputError(Msg("extends names one layout or template"), source=source, place=f"{place}.extends")
        return merge(front(parent, f"{place}.extends", chain), regions)

    for key in ("layout", "back"):
        if isinstance(data.get(key), dict):
            resolved[key] = face(key, data[key], (key,) if key == "layout" else ())
    if isinstance(data.get("backs"), dict):
        resolved["backs"] = {name: face(f"backs.{name}", entry) for name, entry in data["backs"].items()}
    for key in ("layout", "back"):
        if isinstance(resolved.get(key), dict):
            resolved[key] = _resolve_regions(resolved[key], source, key)
    for group in ("backs",):
        if isinstance(resolved.get(group), dict):
            resolved[group] = {
                name: _resolve_regions(regions, source, f"{group}.{name}") if isinstance(regions, dict) else regions
                for name, regions in resolved[group].items()
            }
    if layouts:
        resolved["layouts"] = {
            name: (
                {**entry, "regions": _resolve_regions(entry["regions"], source, f"layouts.{name}.regions")}
                if isinstance(entry, dict) and isinstance(entry.get("regions"), dict)
                else entry
            )
            for name, entry in resolved["layouts"].items()
        }
    return resolved


def _resolve_regions(regions: dict, source: str, section: str) -> dict:
    """Each region that ``extends`` another of its layout: the other's keys, overridden by its
    own, and shifted by its ``dx``/``dy`` on top of any shift the other has."""
    done: dict[str, Any] = {}

    def resolve(name: str, chain: tuple[str, ...]) -> Any:
        if name in done:
            return done[name]
        entry = regions[name]
        parent = entry.get("extends") if isinstance(entry, dict) else None
        if parent is None:
            done[name] = entry
            return entry
        place = f"{section}.{name}.extends"
        if not isinstance(parent, str) or parent not in regions or not isinstance(regions[parent], dict):
            others = [other for other in regions if other != name]
            raise InputError(
                Msg("extends names another region of this layout{hint}", hint=suggest(str(parent), others)),
                source=source,
                place=place,
            )
        if parent == name or parent in chain:
            raise InputError(
                Msg(
                    "region '{name}' extends itself through {names}",
                    name=name,
                    names=" → ".join((*chain, name, parent)),
                ),
                source=source,
                place=place,
            )
        if len(chain) >= MAX_EXTENDS:
            raise InputError(
                Msg("regions extend each other more than {MAX_EXTENDS} deep", MAX_EXTENDS=MAX_EXTENDS),
                source=source,
                place=place,
            )
        base = resolve(parent, chain + (name,))
        own = {key: value for key, value in entry.items() if key != "extends"}
        merged = merge(base, own)
        for shift in ("dx", "dy"):
            if shift in base and shift in own:
                merged[shift] = _added(base[shift], own[shift], source, f"{section}.{name}.{shift}")
        done[name] = merged
        return merged

    return {name: resolve(name, ()) for name in regions}


def _added(first: Any, second: Any, source: str, place: str) -> Any:
    """Two shifts as one: in mm, or as one expression when either is one."""

    def term(value: Any) -> str:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return repr(float(value))
        if isinstance(value, str) and not mentions_expression(value):
            try:
                return repr(to_mm(value))
            except ValueError:
                pass
        whole = compile_template(value).whole if isinstance(value, str) else None
        if whole is None or whole.spec:
            raise InputError(
                Msg("this shift adds to the extended region's, so it must be a length or one ${…} giving mm"),
                source=source,
                place=place,
            )
        return f"({whole.source})"

    first_term, second_term = term(first), term(second)
    if not (mentions_expression(first) or mentions_expression(second)):
        return float(first_term) + float(second_term)
    return "${" + first_term + " + " + second_term + "}"


def _region_lines(raw: Any, spec: DeckFile | None = None) -> tuple[dict, dict, dict]:
    """Where each region is written in the user's file, for error messages: its line, and the
    section it is written in — a region a face inherits from another of the file's layouts
    (``extends: item``) is written where that one is. And, apart (a template's region is written
    in none of the file's lines), where the file brings in each region of a template (``extends:
    poker``, or the whole file's ``extends``; ``spec``, the deck checked, has its regions): the
    section whose ``extends`` names the template and that line, the same for every layout that
    extends that section."""
    lines: dict = {}
    written_in: dict = {}
    brought: dict = {}
    if not isinstance(raw, LineDict):
        return lines, written_in, brought
    found = raw.get("layouts")
    layouts: dict = found if isinstance(found, dict) else {}
    parents: dict[tuple, tuple] = {}
    templates: dict[tuple, int | None] = {}  # a section that extends a template: the line naming it

    def take(section: tuple, regions: Any, parent: Any, entry: Any) -> None:
        if isinstance(regions, LineDict):
            for name in regions:
                lines[(*section, name)] = regions.line_of(name)
                written_in[(*section, name)] = section
        if isinstance(parent, str) and parent in layouts:
            parents[section] = ("layouts", parent)
        elif parent == "layout" and section[0] in ("back", "backs"):  # (a layout's "layout" is a template)
            parents[section] = ("layout",)
        elif isinstance(parent, str) and isinstance(entry, LineDict):
            templates[section] = entry.line_of("extends") if "extends" in entry else entry.line

    def face(section: tuple, entry: Any) -> None:
        take(section, *_regions_and_parent(entry), entry)

    face(("layout",), raw.get("layout"))
    face(("back",), raw.get("back"))
    for name, entry in layouts.items():
        take(("layouts", name), entry.get("regions") if isinstance(entry, dict) else None, _parent_of(entry), entry)
    if isinstance(raw.get("backs"), dict):
        for name, entry in raw["backs"].items():
            face(("backs", name), entry)
    for section in parents:
        ancestor, seen = parents.get(section), {section}
        while ancestor is not None and ancestor not in seen:  # (a loop is refused elsewhere, with its own error)
            seen.add(ancestor)
            for key, line in list(lines.items()):
                if key[:-1] == ancestor and (*section, key[-1]) not in lines:
                    lines[(*section, key[-1])], written_in[(*section, key[-1])] = line, written_in[key]
            ancestor = parents.get(ancestor)
    whole = isinstance(raw.get("extends"), str)  # the whole file extends a template
    for section, layout in faces_of(spec) if spec is not None else ():
        naming: tuple | None = section  # the first section up its chain of extends that names a template
        passed: set[tuple] = set()
        while naming is not None and naming not in templates and naming not in passed:
            passed.add(naming)
            naming = parents.get(naming)
        for name in layout:
            if (*section, name) in lines:
                continue  # (written in the file)
            if naming in templates:
                brought[(*section, name)] = (naming, templates[naming])
            elif whole:
                brought[(*section, name)] = (section, raw.line_of("extends"))
    return lines, written_in, brought


def _parent_of(entry: Any) -> Any:
    return entry.get("extends") if isinstance(entry, dict) else None


def faces_of(spec: DeckFile) -> Iterator[tuple[tuple, Layout]]:
    """Every layout of a deck with its section key: fronts, layouts, the back and named backs."""
    if spec.layout is not None:
        yield ("layout",), spec.layout
    for name, entry in spec.layouts.items():
        yield ("layouts", name), entry.regions
    if spec.back is not None:
        yield ("back",), spec.back
    for name, layout in spec.backs.items():
        yield ("backs", name), layout


def _check_regions(deck: Deck) -> None:
    """What can be checked before any card is drawn: every expression (its syntax, its parts,
    the tables it names), conditions, ranges, font and icon names."""
    spec = deck.spec
    found: dict[tuple, InputError] = {}  # (a region a layout inherits is told where it is written, once)
    for section, layout in faces_of(spec):
        for name, region in layout.items():
            written, line = deck.written_at(section, name)
            place = Msg("{where}, {region}", where=".".join(written), region=deck.region_place(written, name, line))
            try:
                _check_expressions(deck, region)
                if region.cards is not None:
                    parse_ranges(region.cards)
                if isinstance(region, TextRegion) and "${" not in region.font:
                    family, _, _ = parse_font(region.font)
                    if family is not None and family not in spec.fonts:
                        raise InputError(
                            Msg(
                                "unknown font family '{family}'{hint}",
                                family=family,
                                hint=suggest(family, spec.fonts) if spec.fonts else Msg(" (add it under fonts:)"),
                            )
                        )
                if isinstance(region, IconRegion) and region.icon and "${" not in region.icon:
                    if region.icon not in spec.icons and not has_icon(region.icon):
                        raise InputError(
                            Msg(
                                "unknown icon '{icon}'{hint}",
                                icon=region.icon,
                                hint=suggest(region.icon, [*spec.icons, *icon_names()]),
                            )
                        )
            except InputError as err:
                found.setdefault((written, name, str(err.message)), err.located(source=deck.source, place=place))
    if found:  # (every region's first mistake, so a deck with three typos is not mended one run at a time)
        raise InputError.together(list(found.values()))


def expressions_of(region: Region) -> Iterator[tuple[str, str]]:
    """(key, text) of every value of a region holding ``${…}``: text keys, a gradient's colours,
    and the dynamic keys as written (inside points and dashes too)."""
    for key in STRING_KEYS:
        value = getattr(region, key, None)
        if isinstance(value, str) and "${" in value:
            yield key, value
        elif value is not None and not isinstance(value, str):  # a gradient
            for end in (value.from_, value.to):
                if "${" in end:
                    yield key, end
    for key in region.dynamic:
        stack = [region.written(key)]
        while stack:
            value = stack.pop()
            if isinstance(value, str) and "${" in value:
                yield key, value
            elif isinstance(value, dict):
                stack.extend(value.values())
            elif isinstance(value, list):
                stack.extend(value)


def _check_expressions(deck: Deck, region: Region) -> None:
    key = "when"
    try:
        checks = [("when", compile_condition(region.when))] if region.when is not None else []
        for key, text in expressions_of(region):
            for part in compile_template(text).parts:
                if part.source not in deck.columns:
                    checks.append((key, part.compiled()))
                    part.check_format()
        for checked, expression in checks:
            key = checked
            for table in expression.tables:
                if table not in deck.tables:
                    raise InputError(Msg("no table '{name}'{hint}", name=table, hint=suggest(table, deck.tables)))
    except InputError as err:
        raise InputError(Msg("{key}: {problem}", key=key, problem=err.message)) from None


def resolve_deck_data(raw: Any, path: Path, allow_outside: bool = False) -> dict:
    """A deck file's data with every ``extends`` applied: templates, layouts, faces, regions."""
    data = _resolve_layouts(resolve_extends(raw, path, allow_outside), path, allow_outside)
    return _resolve_faces(data, path, allow_outside)


def _tables(spec: DeckFile, folder: Path, source: str, allow_outside: bool) -> dict[str, LookupTable]:
    tables = {}
    for name, entry in spec.tables.items():
        if isinstance(entry, dict):
            tables[name] = card_data.inline_table(name, entry, source)
            continue
        file = entry if isinstance(entry, DataSpec) else DataSpec(file=entry)
        path = confined(folder, file.file, N_("table"), source, f"tables.{name}", allow_outside)
        tables[name] = card_data.read_table(path, name, file.sheet)
    return tables


def load_deck(path: Path, *, allow_outside: bool = False) -> Deck:
    source = str(path)
    raw = load_yaml_file(path)
    data = resolve_deck_data(raw, path, allow_outside)
    spec = _checked(data, path, lines=raw)
    raw_cards = raw.get("cards") if isinstance(raw, dict) else None
    cards = []
    for index, entry in enumerate(spec.cards):
        line = None
        if isinstance(raw_cards, list) and index < len(raw_cards) and isinstance(raw_cards[index], LineDict):
            line = raw_cards[index].line
        place = Msg("{place} (line {line})", place=f"cards[{index}]", line=line) if line else f"cards[{index}]"
        cards.append(card_data.card_from(entry, spec.copies_field, source, place))
    data_spec = spec.data_file
    data_path = None
    if data_spec is not None:
        data_path = confined(path.parent, data_spec.file, N_("data file"), source, "data", allow_outside)
    tables = _tables(spec, path.parent, source, allow_outside)
    lines, written_in, brought = _region_lines(raw, spec)
    deck = Deck(
        spec,
        tuple(cards),
        data_path,
        path.parent,
        source,
        allow_outside,
        lines=lines,
        written_in=written_in,
        from_template=brought,
        tables=tables,
    )
    columns: set[str] = set(spec.fields)
    total = 0
    for card in deck.iter_cards():  # one pass that checks every row and the total
        total += card.count
        columns.update(card.fields)
        if total > MAX_CARDS:
            break
    if total > MAX_CARDS:
        raise InputError(
            Msg("the deck asks for more than {MAX_CARDS:,} cards, the most that are printed", MAX_CARDS=MAX_CARDS),
            source=source,
        )
    deck = replace(deck, columns=frozenset(columns))
    _check_regions(deck)
    if total == 0:
        raise InputError(Msg("the deck has no cards (add cards: or data:)"), source=source)
    return deck


@lru_cache(maxsize=16)
def _layout(path: Path) -> DeckFile:
    """A game's own layout file, checked. One that extends nothing is made of its bytes alone, so
    it is read back from the cache by them: a warm build parses no layout (~3 ms a file)."""
    data = read_bytes(path)

    def resolved() -> Any:
        return resolve_deck_data(yaml_from_bytes(data, str(path)), path)

    # A template is read only through an ``extends`` key; one written with an escape
    # (``"ext\\x65nds"``) has a backslash. A file with either may be made of other files too:
    # it is told apart by what they all come to.
    if b"extends" in data or b"\\" in data:
        return _checked(resolved(), path)
    return _remembered(path, data, resolved)


def _checked(data: Any, path: Path, lines: Any = None) -> DeckFile:
    """The deck's data (its templates applied) checked, or read back from the cache when this
    kkprint checked the very same data for this file before: an unchanged deck (its card data
    may change) is built without importing pydantic. ``lines``: as :func:`~kkprint.base.models.validate`."""
    key = pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL)  # (types kept: 1, 1.0 and true differ)
    return _remembered(path, key, lambda: data, lines)


def _remembered(path: Path, key: bytes, data: Callable[[], Any], lines: Any = None) -> DeckFile:
    """The deck file ``data()`` comes to, checked by pydantic the first time this kkprint meets
    ``key`` (what the data is made of, as bytes) for ``path``, read back from the cache after."""

    def check() -> DeckFile:
        from kkprint.base.models import validate

        return validate(DeckFile, data(), str(path), lines)

    return remembered(DeckFile, path, key, check)


def layout_deck(path: Path, fields: Mapping[str, CardValue], cards: list[tuple[dict[str, str], int, str]]) -> Deck:
    """A deck from a layout file and card data made by code (a game's own cards): ``cards`` are
    (fields, count, origin) triples, ``fields`` the deck-wide fields."""
    spec = replace(_layout(path), fields=dict(fields))
    columns = frozenset(fields).union(*(f for f, _, _ in cards))
    return Deck(
        spec,
        tuple(CardData(f, count, origin) for f, count, origin in cards),
        None,
        path.parent,
        str(path),
        columns=columns,
    )


def select(deck: Deck, only: str | None) -> Deck:
    """Keep the cards picked by ``--only``: names (the ``name`` field) and numbers or ranges of
    printed cards, comma-separated (``1-3,Knight``). A number is a card's place in the printed
    deck, every copy counted (as the studio, ``check`` and ``card.number`` count): a card is kept
    when any of its copies is in a range asked for. The cards kept keep their numbers and rows."""
    if only is None:
        return deck
    parts = [p.strip() for p in only.split(",") if p.strip()]
    if not parts:
        raise InputError(Msg("--only names no card; give names or numbers like 1-3,Knight"), source="--only")
    listed = list(deck.numbered())
    cards = [card for _, _, card in listed]
    firsts = [number for _, number, _ in listed]
    total = sum(card.count for card in cards)
    picked_indexes: dict[int, None] = {}  # indexes into cards, in the order asked, each once
    for part in parts:
        first, dash, last = part.partition("-")
        if first.isascii() and first.isdigit() and (not dash or (last.isascii() and last.isdigit())):
            start, stop = int(first), int(last or first)
            if not 1 <= start <= stop <= total:
                raise InputError(Msg("{part}: the deck has cards 1–{count}", part=part, count=total), source="--only")
            picked: Iterable[int] = holding(firsts, cards, start, stop)
        else:
            picked = [index for index, c in enumerate(cards) if c.fields.get("name") == part]
            if not picked:
                names = [c.fields.get("name", "") for c in cards if c.fields.get("name")]
                raise InputError(
                    Msg("no card is named '{part}'{hint}", part=part, hint=suggest(part, names)), source="--only"
                )
        picked_indexes.update(dict.fromkeys(picked))
    return replace(deck, chosen=tuple(listed[index] for index in picked_indexes), whole_total=total)


def holding(firsts: list[int], cards: list[CardData], start: int, stop: int) -> list[int]:
    """The cards (indexes) with a printed copy numbered ``start`` to ``stop``: ``firsts`` holds
    each card's first number, in order (a card of no copies holds none)."""
    index = max(0, bisect_right(firsts, start) - 1)
    found = []
    while index < len(cards) and firsts[index] <= stop:
        if firsts[index] + cards[index].count > start and cards[index].count:
            found.append(index)
        index += 1
    return found
