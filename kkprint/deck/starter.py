"""``kkprint new deck``: a small deck that builds at once and shows every kind of region, commented
and filled in the user's language; or a copy of one of the worked examples installed with kkprint.

The starter is written from code, its comments and card texts from the message catalogue, so a
Japanese designer reads Japanese in the file they start from. The examples are copied as they are
(they teach the deck language, whose keys are English in both languages)."""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import tempfile
from pathlib import Path

from kkprint.base.errors import InputError, OsReason, suggest
from kkprint.base.i18n import N_, Msg, tr
from kkprint.base.outputs import write_new
from kkprint.base.paths import DOCS_DIR, EXAMPLES_DIR, safe_file_name

DECK_EXAMPLES = EXAMPLES_DIR / "decks"

# Each worked example under examples/decks/, and what it shows (the guide's section 6 says more).
EXAMPLES = {
    "heist": N_("items with the deck's own font, eleven inline icons, markup, two layouts and backs per crew"),
    "resources": N_("resource cards from a spreadsheet (.xlsx), copies from its qty column"),
    "counters": N_("hexagonal counters, a symbol chosen by unit type, elite stars by condition"),
    "summits": N_("a deck that computes: outlines, sizes and colours from its data and look-up tables"),
    "lanterns": N_("one frame written once and reused on every face, backs extending fronts"),
    "kanji": N_("a kanji learning deck: vertical text and furigana from a CSV"),
}

_COMMENT_COLUMN = 29  # where the comments begin, as a person would line them up by hand


def guide_path(lang: str) -> Path:
    """The installed deck guide in ``lang`` (English when there is no translation)."""
    translated = DOCS_DIR / f"custom-decks.{lang}.md"
    return translated if translated.is_file() else DOCS_DIR / "custom-decks.md"


def _lines(rows: list[tuple[str, str]]) -> str:
    """YAML lines with their comments lined up. A row without code is a comment line of its own;
    one whose code is blank goes on the comment above it, in the comments' column."""
    out = []
    for code, comment in rows:
        if code.isspace():
            out.append(f"{'':<{_COMMENT_COLUMN - 1}} # {comment}")
        elif not code:
            out.append(f"# {comment}" if comment else "")
        elif comment:
            out.append(f"{code:<{_COMMENT_COLUMN - 1}} # {comment}")
        else:
            out.append(code)
    return "\n".join(out) + "\n"


def starter_yaml(stem: str, deck_file: str, csv_file: str) -> str:
    """The starter deck, commented in the current language."""
    wild_name = tr("Wild card")
    wild = tr("Counts as <i>any</i> die: {icon}", icon="{die:any}")
    elite = "<b>" + tr("ELITE") + "</b>"
    quoted = json.dumps(stem, ensure_ascii=False)
    return _lines(
        [
            ("", tr("{name}: a kkprint deck. Build it with:  kkprint build {file}", name=stem, file=deck_file)),
            (
                "",
                tr('Sizes and positions are millimetres from the card\'s top-left corner ("0.5in", "12pt" work too).'),
            ),
            ("", tr("`kkprint schema` prints every key this file may use; `kkprint docs` says where the guide is.")),
            ("", tr("Worked examples to copy from: kkprint new deck --list")),
            ("", ""),
            (f"name: {quoted}", tr("the PDF is called {name}-a4.pdf", name=stem)),
            ("extends: poker", tr("start from the built-in poker card and change what you need")),
            ("card:", ""),
            ("  size: poker", tr("poker, bridge, mini, tarot, square, chip-25, token-20/25/30")),
            (" ", tr("or w: 2.5in and h: 3.5in; shape: hexagon or circle for counters")),
            ("sheet:", ""),
            ("  paper: a4", tr("a4, letter or a3")),
            ("  gap_mm: 0", tr("space between cards")),
            ("print:", ""),
            ("  backs: long-edge", tr("long-edge, short-edge (duplex), fold, or none")),
            ("", ""),
            (f"data: {csv_file}", tr("one row per card: .csv (, ; or tab), .xlsx or .json")),
            ("copies_field: count", tr("the column that says how many copies (qty, copies …)")),
            ("# fonts:", tr("your own TTF/OTF files next to this one; then font: story/bold")),
            ("#   story: {regular: fonts/Story.ttf, bold: fonts/Story-Bold.ttf, italic: fonts/Story-Italic.ttf}", ""),
            ("# icons:", tr("your own SVG/PNG icons; then {coin} inside any text", coin="{coin}")),
            ("#   coin: icons/coin.svg", ""),
            ("", ""),
            ("layout:", tr("regions are drawn in this order; each overrides the template's")),
            ('  banner: {fill: "${colour}"}', tr("the template's banner, coloured by the card's colour column")),
            ("  cost:", tr("a new region: the card's cost as a die face")),
            ("    type: icon", ""),
            ("    x: 48", ""),
            ("    y: 20", ""),
            ("    w: 11", ""),
            ("    h: 11", ""),
            ("    field: cost_icon", tr("the icon's name comes from the column cost_icon")),
            ("  art:", ""),
            ("    type: shape", ""),
            ("    shape: ellipse", tr("rect, roundrect, ellipse, circle, line, polygon, hexagon, star")),
            ("    x: 12", ""),
            ("    y: 20", ""),
            ("    w: 32", ""),
            ("    h: 24", ""),
            ('    fill: {gradient: radial, from: "#fff8e8", to: "#f3e6c8"}', ""),
            ('    stroke: "#8a3b2e"', ""),
            (
                "  text:",
                tr("<b>, <i>, <span color='#c00'>, <br> and inline icons like {icon}", icon="{die:6}"),
            ),
            ("    field: text", ""),
            ("  elite:", tr("drawn only where the condition holds")),
            ("    type: text", ""),
            ("    x: 5", ""),
            ("    y: 40", ""),
            ("    w: 30", ""),
            ("    h: 6", ""),
            (f"    text: {json.dumps(elite, ensure_ascii=False)}", ""),
            ("    size: 8", ""),
            ('    colour: "#8a3b2e"', ""),
            ("    when: \"cost_icon in ['die:5', 'die:6']\"", ""),
            ("", ""),
            ("back:", tr("one back for every card; it may show the card's own fields")),
            ('  fill: {fill: "#f3e6c8", stroke: "#8a3b2e"}', ""),
            (
                '  mark: {type: text, x: 6, y: 34, w: 51, h: 20, text: "${name}", font: bold, size: 18, '
                'align: center, valign: middle, colour: "#8a3b2e"}',
                "",
            ),
            ("", ""),
            ("cards:", tr("cards can also be written here")),
            (
                f"  - {{name: {json.dumps(wild_name, ensure_ascii=False)}, "
                f'text: {json.dumps(wild, ensure_ascii=False)}, cost_icon: "die:1", colour: "#5b6f8a", count: 1}}',
                "",
            ),
        ]
    )


def starter_csv() -> str:
    """The starter's card data: three cards whose names and rules are in the current language."""
    rows = [
        ("name", "text", "cost_icon", "colour", "count"),
        (tr("Knight"), tr("<b>Duel:</b> roll {icon} or more to win.", icon="{die:5}"), "die:5", "#8a3b2e", 2),
        (tr("Healer"), tr("Turn one {one} into a {six}.", one="{die:1}", six="{die:6}"), "die:2", "#2e7d5b", 2),
        (tr("Scout"), tr("Look at the top card of any deck."), "die:1", "#8a6d2e", 3),
    ]
    stream = io.StringIO()
    csv.writer(stream, lineterminator="\n").writerows(rows)
    return stream.getvalue()


def _refuse_existing(path: Path) -> None:
    if path.exists() or path.is_symlink():
        raise InputError(Msg("already exists; choose another name or move it away"), source=str(path))


def _make_folder(folder: Path) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise InputError(Msg("cannot create the folder: {reason}", reason=OsReason(err)), source=str(folder)) from None


def write_starter(name: str, folder: Path) -> list[Path]:
    stem = safe_file_name(name)
    _make_folder(folder)
    deck, table = folder / f"{stem}.yaml", folder / f"{stem}.csv"
    for path in (deck, table):
        _refuse_existing(path)
    write_new(table, starter_csv())
    write_new(deck, starter_yaml(stem, deck.name, table.name))
    return [deck, table]


def example_names() -> list[str]:
    """The worked examples installed with kkprint, in the order the guide tells them."""
    return [name for name in EXAMPLES if (DECK_EXAMPLES / name / f"{name}.yaml").is_file()]


def write_example(name: str, folder: Path) -> Path:
    """Copy the example deck ``name`` (its YAML, data, fonts, icons and art) into ``folder/name``
    and return its deck file. The copy is made beside the target and renamed into place, so an
    interrupted copy leaves nothing half-written; an existing folder is never touched."""
    known = example_names()
    name = name.lower() if name.lower() in known else name  # (names in any case, as commands and games)
    if name not in known:
        raise InputError(Msg("no example deck '{name}'{hint}", name=name, hint=suggest(name, known)))
    _make_folder(folder)
    target = folder / name
    _refuse_existing(target)
    staging = Path(tempfile.mkdtemp(prefix=f".{name}-", dir=folder))
    try:
        # (not what building the example where it lies left beside it: its output, hidden files)
        leftovers = shutil.ignore_patterns("output", ".*", "__pycache__")
        shutil.copytree(DECK_EXAMPLES / name, staging / name, symlinks=False, ignore=leftovers)
        os.rename(staging / name, target)  # never replaces: the target did not exist a moment ago
    except OSError as err:
        raise InputError(
            Msg("cannot copy the example here: {reason}", reason=OsReason(err)), source=str(target)
        ) from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return target / f"{name}.yaml"
