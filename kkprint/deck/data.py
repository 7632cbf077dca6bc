"""Card data from a deck's data file: CSV (``,`` ``;`` or tab), Excel ``.xlsx`` or JSON.

Every format gives the same thing — one :class:`CardData` per row, all values as text the way
they would print — so a spreadsheet saved as CSV or kept as ``.xlsx`` builds the same PDF.
Rows are yielded one at a time (CSV and xlsx are streamed), so long decks stay light.
"""

from __future__ import annotations

import datetime as dt
import io
import math
import re
import sys
from collections.abc import Iterable, Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

from kkprint.base.errors import InputError, suggest
from kkprint.base.i18n import N_, Msg
from kkprint.base.yamlio import parse_json, printable_text, read_bytes, read_text
from kkprint.deck.expr import as_printed, field_value

MAX_CARDS = 50_000
MAX_CELL = 10_000  # characters: far more than a card can print
MAX_DATA_BYTES = 20 * 1024 * 1024
MAX_XLSX_UNPACKED = 200 * 1024 * 1024
MAX_ROWS = MAX_CARDS + 1000  # a header, and blank rows between groups of cards
MAX_COLUMNS = 1000  # fields of a card
# names a column of copies goes by: one of them that is not the deck's copies_field is said (deck.preflight)
COPIES_LIKE = ("count", "qty", "quantity", "copies", "number", "amount", "枚数", "数")


class CardData(NamedTuple):
    """One distinct card: its fields, how many copies, and where it was defined."""

    fields: dict[str, str]
    count: int  # type: ignore[assignment]  # the field shadows tuple.count(); nothing counts a card's parts
    origin: str | Msg


def as_text(value: Any) -> str:
    """A cell as it prints: 3.0 → "3", True → "true", a date → 2026-11-22."""
    if isinstance(value, str):
        return value
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(Msg("not a finite number"))
        return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)
    if isinstance(value, (dt.datetime, dt.date)):
        return value.date().isoformat() if isinstance(value, dt.datetime) and not value.time() else value.isoformat()
    if isinstance(value, (dict, list)):
        raise ValueError(Msg("a cell holds one value, not a list or mapping"))
    return str(value)


_WHOLE_WITH_POINT = re.compile(r"([-+]?[0-9]+)\.0*")  # 3.0 or 3. : a whole number as a spreadsheet may write it


def count_of(value: Any, source: str, place: str | Msg) -> int:
    """A card's copies: a whole number, however its file writes it — ``3`` or ``3.0`` alike (an
    .xlsx cell, a JSON or YAML number and a CSV's text all give 3); ``3.5`` is refused."""
    text = as_text(value).strip() if not isinstance(value, str) else value.strip()
    whole = _WHOLE_WITH_POINT.fullmatch(text)
    if whole:
        text = whole.group(1)
    if text.isascii() and text.isdigit() and len(text) > 12:  # (int() itself refuses past 4,300 digits)
        raise InputError(
            Msg(
                "{value} copies is more than the {MAX_CARDS:,} cards a deck may have",
                value=text[:12] + "…",
                MAX_CARDS=MAX_CARDS,
            ),
            source=source,
            place=place,
        )
    try:
        number = int(text or "1")
    except ValueError:
        raise InputError(
            Msg("copies must be a whole number, not '{value}'", value=text[:40]), source=source, place=place
        ) from None
    if number < 0:
        raise InputError(Msg("copies cannot be negative ({number})", number=number), source=source, place=place)
    if number > MAX_CARDS:
        raise InputError(
            Msg(
                "{number:,} copies is more than the {MAX_CARDS:,} cards a deck may have",
                number=number,
                MAX_CARDS=MAX_CARDS,
            ),
            source=source,
            place=place,
        )
    return number


def card_from(entry: dict, copies_field: str, source: str, place: str | Msg) -> CardData:
    fields: dict[str, str] = {}
    for key, value in entry.items():
        key = str(key).strip()
        if not key or key == copies_field:
            continue
        try:
            text = as_text(value)
        except ValueError as err:
            raise InputError(Msg("field '{key}': {err}", key=key, err=err), source=source, place=place) from None
        if not printable_text(text) or not printable_text(key):
            raise InputError(
                Msg(
                    "field '{key}' holds half of a character (a lone surrogate)",
                    key=key.encode("utf-8", "backslashreplace").decode("utf-8"),
                ),
                source=source,
                place=place,
            )
        if len(text) > MAX_CELL:
            raise InputError(
                Msg(
                    "field '{key}' is {count:,} characters; at most {MAX_CELL:,}",
                    key=key,
                    count=len(text),
                    MAX_CELL=MAX_CELL,
                ),
                source=source,
                place=place,
            )
        fields[key] = text.strip()
    copies = entry.get(copies_field, 1)
    if type(copies) is not int or not 0 <= copies <= MAX_CARDS:  # (a whole number in range, as the default 1, is one)
        copies = count_of(copies, source, Msg("{where}, {key}", where=place, key=copies_field))
    return CardData(fields, copies, place)


def cards_of(path: Path, sheet: str | None, copies_field: str) -> tuple[CardData, ...]:
    """The file's cards, read once per build however often the deck is walked (checking,
    collecting characters, drawing); read again when the file changes (``kkprint watch``)."""
    try:
        info = path.stat()
    except OSError:
        return tuple(read_cards(path, sheet, copies_field))  # read_cards says what is wrong
    return _cached(path, sheet, copies_field, info.st_mtime_ns, info.st_size)


@lru_cache(maxsize=4)
def _cached(path: Path, sheet: str | None, copies_field: str, mtime: int, size: int) -> tuple[CardData, ...]:
    return tuple(read_cards(path, sheet, copies_field))


def read_cards(path: Path, sheet: str | None, copies_field: str) -> Iterator[CardData]:
    suffix = path.suffix.lower()
    if suffix == ".xlsx":
        rows = _xlsx_rows(path, sheet)
    elif suffix == ".json":
        yield from _json_cards(path, copies_field)
        return
    elif suffix in (".csv", ".tsv", ".txt"):
        rows = _csv_rows(path)
    else:
        raise InputError(Msg("data files are .csv, .tsv, .xlsx or .json"), source=str(path))
    yield from _table_cards(rows, path, copies_field)


def _table_cards(rows: Iterable[tuple[int, list]], path: Path, copies_field: str) -> Iterator[CardData]:
    source = str(path)
    header: list[str] | None = None
    for number, row in rows:
        cells = [as_text(c).strip() for c in row]
        if header is None:
            if not any(cells):
                continue
            header = cells
            while header and not header[-1]:
                header.pop()
            seen = set()
            for name in header:
                if name in seen and name:
                    raise InputError(
                        Msg("column '{name}' appears twice in the header", name=name),
                        source=source,
                        place=Msg("row {n}", n=number),
                    )
                seen.add(name)
            continue
        if not any(cells):
            continue
        if any(cells[len(header) :]):
            raise InputError(
                Msg("this row has more cells than the header"), source=source, place=Msg("row {n}", n=number)
            )
        entry = dict(zip(header, cells + [""] * (len(header) - len(cells))))
        entry.pop("", None)
        yield card_from(entry, copies_field, source, Msg("{file} row {n}", file=path.name, n=number))
    if header is None:
        raise InputError(Msg("the data file has no header row"), source=source)


def _csv_rows(path: Path) -> Iterator[tuple[int, list]]:
    """The rows of a CSV file, read strictly: a quote that is never closed is an error naming the
    row it opens in, not the rest of the file swallowed into one cell. Line ends may be Unix,
    Windows or old Mac (CR only, as Excel for Mac still writes)."""
    text = read_text(path, limit=MAX_DATA_BYTES, kind="csv").replace("\r\n", "\n").replace("\r", "\n")
    first = text.split("\n", 1)[0]
    delimiter = max(",;\t", key=lambda d: (first.count(d), d == ","))
    if path.suffix.lower() == ".tsv":
        delimiter = "\t"
    import csv  # (a deck's CSV needs it; a game's build reads none)

    reader = csv.reader(io.StringIO(text), delimiter=delimiter, strict=True)
    old_limit = csv.field_size_limit()
    csv.field_size_limit(MAX_CELL + 1)
    row_starts = 1  # the line the row being read begins on (a quoted cell may span lines)
    try:
        for row in reader:
            yield reader.line_num, row
            row_starts = reader.line_num + 1
    except csv.Error as err:
        raise InputError(_csv_problem(str(err)), source=str(path), place=Msg("row {n}", n=row_starts)) from None
    finally:
        csv.field_size_limit(old_limit)


def _csv_problem(reason: str) -> Msg:
    """The csv module's complaint in the reader's words, for the ones a spreadsheet can cause."""
    if "unexpected end of data" in reason:
        return Msg('a quote (") opened in this row is never closed; close it, or write "" for a quote inside a cell')
    if "expected after" in reason:
        return Msg('a cell goes on after its closing quote ("); write "" for a quote inside a quoted cell')
    if "field larger" in reason:
        return Msg("a cell is longer than {MAX_CELL:,} characters", MAX_CELL=MAX_CELL)
    return Msg("not a readable CSV file: {reason}", reason=reason)


class SheetRows(list):
    """A worksheet's rows as :func:`_sheet_rows` reads them, kept in the cache folder: a workbook
    read again unchanged costs neither openpyxl nor its parse (~0.1 s a build)."""


def _xlsx_rows(path: Path, sheet: str | None) -> Iterable[tuple[int, list]]:
    """Rows of one worksheet, values as Excel last computed them (formulas are never evaluated);
    from the cache when this kkprint has read these very bytes before."""
    import hashlib

    from kkprint.base.definitions import package_identity, remembered

    data = read_bytes(path, limit=MAX_DATA_BYTES, what=N_("data files"))
    reader = package_identity("openpyxl", "_constants.py")  # (another release may read a workbook otherwise)
    key = hashlib.sha256(data).digest() + repr((sheet, reader)).encode()
    return remembered(SheetRows, path, key, lambda: SheetRows(_read_xlsx(data, sheet, str(path))), repr(sheet))


# What openpyxl says of a broken workbook ("There is no item named '[Content_Types].xml' in the
# archive", "unclosed token: line 1, column 286" of a part inside it) is English and names no
# place the user can find; a spreadsheet program that saves the workbook again mends it.
_DAMAGED = Msg("is damaged or is not an .xlsx workbook; open it in a spreadsheet program and save it again as .xlsx")


def _read_xlsx(data: bytes, sheet: str | None, source: str) -> Iterator[tuple[int, list]]:
    """The worksheet's rows read by openpyxl, once the workbook is known to unpack within bounds."""
    import warnings
    import zipfile

    from openpyxl import load_workbook

    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
    except zipfile.BadZipFile:
        raise InputError(Msg("is not an .xlsx workbook (not a zip archive)"), source=source) from None
    if unpacked > MAX_XLSX_UNPACKED:
        raise InputError(
            Msg(
                "unpacks to {unpacked:,} bytes; workbooks are limited to {MAX_XLSX_UNPACKED:,}",
                unpacked=unpacked,
                MAX_XLSX_UNPACKED=MAX_XLSX_UNPACKED,
            ),
            source=source,
        )
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
            written = load_workbook(io.BytesIO(data), read_only=True)  # (the formulas, to tell them from empty cells)
    except Exception:  # noqa: BLE001 - openpyxl raises many kinds for a broken workbook, none in the user's words
        raise InputError(_DAMAGED, source=source) from None
    try:
        if sheet is not None and sheet not in book.sheetnames:
            raise InputError(
                Msg("no worksheet '{sheet}'{hint}", sheet=sheet, hint=suggest(sheet, book.sheetnames)),
                source=source,
                place="data.sheet",
            )
        worksheet = book[sheet] if sheet is not None else book.worksheets[0]
        formulas = written[sheet] if sheet is not None else written.worksheets[0]
        for (number, row), (_, as_written) in zip(_sheet_rows(worksheet, source), _sheet_rows(formulas, source)):
            _no_formula_without_its_value(row, as_written, number, source)
            yield number, row
    finally:
        book.close()
        written.close()


def _no_formula_without_its_value(row: list, as_written: list, number: int, source: str) -> None:
    """A formula's value is what the spreadsheet program saved with it: kkprint never computes
    one. A workbook written by a script (openpyxl, pandas) has formulas with no saved value, which
    read as empty cells — a card printed without its cost, 1 copy for ``=2*3`` — so it is refused."""
    from openpyxl.utils import get_column_letter

    for index, (value, formula) in enumerate(zip(row, as_written)):
        if value is None and isinstance(formula, str) and formula.startswith("="):
            raise InputError(
                Msg(
                    "cell {cell} holds a formula with no saved value (kkprint does not compute formulas): "
                    "open the workbook in a spreadsheet program and save it, or write the value itself",
                    cell=f"{get_column_letter(index + 1)}{number}",
                ),
                source=source,
            )


def _read_json(path: Path) -> Any:
    """A JSON data or table file, within the data files' size limit and JSON's limits
    (:func:`kkprint.base.yamlio.parse_json`: no 1e400, NaN, duplicate keys or lone surrogates)."""
    return parse_json(read_text(path, limit=MAX_DATA_BYTES, kind="json"), str(path))


def _sheet_rows(worksheet, source: str) -> Iterator[tuple[int, list]]:
    """The worksheet's rows as they are stored, each as wide as its last cell.

    The size a worksheet declares is not trusted: openpyxl would pad every row to the declared
    width and add empty rows up to the declared height, and 1.6 kB declaring 16,384 × 1,048,576
    cells would cost a minute before anything could say so. A declaration beyond the limits is
    refused at once; a row that really reaches further is refused where it is."""
    declared_rows, declared_columns = worksheet.max_row or 0, worksheet.max_column or 0
    if declared_rows > MAX_ROWS or declared_columns > MAX_COLUMNS:
        raise InputError(
            Msg(
                "declares {rows:,} rows × {columns:,} columns; data sheets are limited to {max_rows:,} × {max_columns:,}",
                rows=declared_rows,
                columns=declared_columns,
                max_rows=MAX_ROWS,
                max_columns=MAX_COLUMNS,
            ),
            source=source,
        )
    worksheet.reset_dimensions()
    number = 0
    rows = worksheet.iter_rows(values_only=True)
    while True:
        try:
            row = next(rows, None)
        except InputError:
            raise
        except Exception as err:  # noqa: BLE001 - openpyxl raises many kinds for a broken sheet
            too_long = isinstance(err, ValueError) and "integer string conversion" in str(err)
            raise InputError(
                Msg("a number in this row has more than {limit:,} digits", limit=sys.get_int_max_str_digits())
                if too_long
                else _DAMAGED,
                source=source,
                place=Msg("row {n}", n=number + 1),
            ) from None
        if row is None:
            return
        number += 1
        if number > MAX_ROWS:
            raise InputError(Msg("has more than {MAX_CARDS:,} rows", MAX_CARDS=MAX_CARDS), source=source)
        if len(row) > MAX_COLUMNS:
            raise InputError(
                Msg("this row has cells beyond column {limit:,}", limit=MAX_COLUMNS),
                source=source,
                place=Msg("row {n}", n=number),
            )
        yield number, list(row)


def _json_cards(path: Path, copies_field: str) -> Iterator[CardData]:
    source = str(path)
    data = _read_json(path)
    if isinstance(data, dict) and isinstance(data.get("cards"), list):
        data = data["cards"]
    if not isinstance(data, list):
        raise InputError(Msg('a JSON data file is a list of cards, or {"cards": [...]}'), source=source)
    for index, entry in enumerate(data):
        if not isinstance(entry, dict):
            raise InputError(
                Msg("each card is an object of fields"), source=source, place=Msg("entry {n}", n=index + 1)
            )
        # (its place in the file's list, as a CSV's row is: not a card number, which counts copies)
        yield card_from(entry, copies_field, source, Msg("{file} entry {n}", file=path.name, n=index + 1))


# --- look-up tables (``tables:``) -------------------------------------------------------------


class LookupTable:
    """A named table for ``lookup(TABLE, KEY, COLUMN)``: rows by their key (the first column),
    each a value per column. Values read as card fields do: numbers where they look like one.

    A key is found as written, or as the same number (``lookup('tier', 7)`` finds the row
    ``07`` or ``7.0``), because a spreadsheet does not say which it meant.
    """

    def __init__(self, name: str, columns: tuple[str, ...], rows: dict[str, tuple[str, ...]]):
        self.name, self.columns, self.rows = name, columns, rows
        self._numbers = {str(field_value(key)): key for key in rows if not isinstance(field_value(key), str)}

    def value(self, key: Any, column: Any = None, *default: Any) -> Any:
        text = as_printed(key)
        row = self.rows.get(text)
        if row is None:
            number = field_value(text)
            row = None if isinstance(number, str) else self.rows.get(self._numbers.get(str(number), ""))
        if row is None:
            if default:
                return default[0]
            raise InputError(
                Msg(
                    "table '{table}' has no key '{key}'{hint}",
                    table=self.name,
                    key=text[:40],
                    hint=suggest(text, list(self.rows)[:2000]),
                )
            )
        if column is None:
            index = 0
        else:
            name = as_printed(column)
            if name not in self.columns:
                raise InputError(
                    Msg(
                        "table '{table}' has no column '{column}'{hint}",
                        table=self.name,
                        column=name[:40],
                        hint=suggest(name, self.columns),
                    )
                )
            index = self.columns.index(name)
        return field_value(row[index]) if index < len(row) else ""


def inline_table(name: str, entries: dict[str, Any], source: str) -> LookupTable:
    """``tables: {tint: {attack: "#c03030"}}`` (one value a key) or ``{forest: {colour: …, move: 2}}``."""
    columns: list[str] = []
    for value in entries.values():
        if isinstance(value, dict):
            columns.extend(str(c) for c in value if str(c) not in columns)
    place = f"tables.{name}"
    rows = {}
    for key, value in entries.items():
        try:
            if isinstance(value, dict):
                rows[key] = tuple(as_text(value.get(column)) for column in columns)
            else:
                rows[key] = (as_text(value),)
        except ValueError as err:
            raise InputError(Msg("key '{key}': {err}", key=key, err=err.args[0]), source=source, place=place) from None
    return LookupTable(name, tuple(columns) or ("value",), rows)


def read_table(path: Path, name: str, sheet: str | None = None) -> LookupTable:
    """A table file: CSV or xlsx (a header row; the first column is the key), or JSON (an object
    of keys, or a list of objects whose first field is the key)."""
    try:
        info = path.stat()
    except OSError:
        return _read_table(path, name, sheet)  # (which says what is wrong)
    return _cached_table(path, name, sheet, info.st_mtime_ns, info.st_size)


@lru_cache(maxsize=16)
def _cached_table(path: Path, name: str, sheet: str | None, mtime: int, size: int) -> LookupTable:
    return _read_table(path, name, sheet)


def _read_table(path: Path, name: str, sheet: str | None) -> LookupTable:
    source = str(path)
    suffix = path.suffix.lower()
    if suffix == ".json":
        return _json_table(path, name)
    if suffix == ".xlsx":
        rows = _xlsx_rows(path, sheet)
    elif suffix in (".csv", ".tsv", ".txt"):
        rows = _csv_rows(path)
    else:
        raise InputError(Msg("tables are .csv, .tsv, .xlsx or .json files"), source=source)
    header: list[str] | None = None
    table: dict[str, tuple[str, ...]] = {}
    for number, row in rows:
        cells = [as_text(cell).strip() for cell in row]
        if header is None:
            if any(cells):
                header = cells
                while header and not header[-1]:
                    header.pop()
            continue
        if not cells or not cells[0]:
            continue
        _add_row(table, cells[0], tuple(cells[1 : len(header)]), source, Msg("row {n}", n=number))
    if header is None or len(header) < 2:
        raise InputError(Msg("a table needs a header row with a key column and at least one more"), source=source)
    return LookupTable(name, tuple(header[1:]), table)


def _add_row(table: dict, key: str, values: tuple[str, ...], source: str, place: str | Msg) -> None:
    if key in table:
        raise InputError(Msg("key '{key}' appears twice in the table", key=key[:40]), source=source, place=place)
    if len(table) >= MAX_CARDS:
        raise InputError(Msg("has more than {MAX_CARDS:,} rows", MAX_CARDS=MAX_CARDS), source=source)
    if any(len(value) > MAX_CELL for value in values):
        raise InputError(
            Msg("a cell is longer than {MAX_CELL:,} characters", MAX_CELL=MAX_CELL), source=source, place=place
        )
    table[key] = values


def _json_table(path: Path, name: str) -> LookupTable:
    source = str(path)
    data = _read_json(path)
    if isinstance(data, dict):
        try:
            inline = {as_text(key): value for key, value in data.items()}
            return inline_table(name, inline, source)
        except ValueError as err:
            raise InputError(err.args[0], source=source) from None
    if not isinstance(data, list) or not all(isinstance(entry, dict) and entry for entry in data):
        raise InputError(
            Msg('a JSON table is an object {"key": value, …} or a list of objects whose first field is the key'),
            source=source,
        )
    columns: list[str] = []
    for entry in data:
        columns.extend(str(c) for c in entry if str(c) not in columns)
    table: dict[str, tuple[str, ...]] = {}
    for index, entry in enumerate(data, start=1):
        place = Msg("row {n}", n=index)
        try:
            cells = [as_text(entry.get(column)).strip() for column in columns]
        except ValueError as err:
            raise InputError(err.args[0], source=source, place=place) from None
        if cells[0]:
            _add_row(table, cells[0], tuple(cells[1:]), source, place)
    return LookupTable(name, tuple(columns[1:]) or ("value",), table)
