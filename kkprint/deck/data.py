"""Card data from a deck's data file: CSV (``,`` ``;`` or tab), Excel ``.xlsx`` or JSON.

Every format gives the same thing — one :class:`CardData` per row, all values as text the way
they would print — so a spreadsheet saved as CSV or kept as ``.xlsx`` builds the same PDF.
Rows are yielded one at a time (CSV and xlsx are streamed), so long decks stay light.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import math
import sys
import zipfile
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

from kkprint.base.errors import InputError, suggest
from kkprint.base.i18n import Msg
from kkprint.base.yamlio import parse_json, printable_text, read_bytes, read_text

MAX_CARDS = 50_000
MAX_CELL = 10_000  # characters: far more than a card can print
MAX_DATA_BYTES = 20 * 1024 * 1024
MAX_XLSX_UNPACKED = 200 * 1024 * 1024
MAX_ROWS = MAX_CARDS + 1000  # a header, and blank rows between groups of cards
MAX_COLUMNS = 1000  # fields of a card
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


def count_of(value: Any, source: str, place: str | Msg) -> int:
    text = as_text(value).strip() if not isinstance(value, str) else value.strip()
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
    return CardData(
        fields,
        count_of(entry.get(copies_field, 1), source, Msg("{where}, {key}", where=place, key=copies_field)),
        place,
    )


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


def _table_cards(rows: Iterator[tuple[int, list]], path: Path, copies_field: str) -> Iterator[CardData]:
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
    text = read_text(path, limit=MAX_DATA_BYTES, kind="csv")
    first = text.split("\n", 1)[0]
    delimiter = max(",;\t", key=lambda d: (first.count(d), d == ","))
    if path.suffix.lower() == ".tsv":
        delimiter = "\t"
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    old_limit = csv.field_size_limit()
    csv.field_size_limit(MAX_CELL + 1)
    try:
        for row in reader:
            yield reader.line_num, row
    except csv.Error as err:
        reason = "a cell is longer than 10,000 characters" if "field larger" in str(err) else str(err)
        raise InputError(
            Msg("not a readable CSV file: {reason}", reason=reason),
            source=str(path),
            place=Msg("row {n}", n=reader.line_num),
        ) from None
    finally:
        csv.field_size_limit(old_limit)


def _xlsx_rows(path: Path, sheet: str | None) -> Iterator[tuple[int, list]]:
    """Rows of one worksheet, values as Excel last computed them (formulas are never evaluated)."""
    import warnings

    from openpyxl import load_workbook

    source = str(path)
    data = read_bytes(path, limit=MAX_DATA_BYTES, what="data files")
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
    except Exception as err:  # noqa: BLE001 - openpyxl raises many kinds for a broken workbook
        raise InputError(Msg("cannot read this workbook: {value}", value=_first_line(err)), source=source) from None
    try:
        if sheet is not None and sheet not in book.sheetnames:
            raise InputError(
                Msg("no worksheet '{sheet}'{hint}", sheet=sheet, hint=suggest(sheet, book.sheetnames)),
                source=source,
                place="data.sheet",
            )
        worksheet = book[sheet] if sheet is not None else book.worksheets[0]
        yield from _sheet_rows(worksheet, source)
    finally:
        book.close()


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
                else Msg("cannot read this workbook: {value}", value=_first_line(err)),
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


def _first_line(err: Exception) -> str:
    return str(err).splitlines()[0][:100] if str(err) else type(err).__name__


def _json_cards(path: Path, copies_field: str) -> Iterator[CardData]:
    source = str(path)
    data = parse_json(read_text(path, limit=MAX_DATA_BYTES, kind="json"), source)
    if isinstance(data, dict) and isinstance(data.get("cards"), list):
        data = data["cards"]
    if not isinstance(data, list):
        raise InputError(Msg('a JSON data file is a list of cards, or {"cards": [...]}'), source=source)
    for index, entry in enumerate(data):
        if not isinstance(entry, dict):
            raise InputError(Msg("each card is an object of fields"), source=source, place=Msg("card {n}", n=index + 1))
        yield card_from(entry, copies_field, source, Msg("{file} card {n}", file=path.name, n=index + 1))


_warned: set[tuple[str, str]] = set()


def warn_about_copies(columns: set[str], copies_field: str, source: str) -> None:
    """A column that looks like copies but is not the one in use is said once, not ignored."""
    for name in columns:
        if name.strip().lower() in COPIES_LIKE and name != copies_field and (source, name) not in _warned:
            _warned.add((source, name))
            sys.stderr.write(
                f"kkprint: warning: {source}: column {name!r} looks like a number of copies, but "
                f"copies come from {copies_field!r}; add copies_field: {name} to use it\n"
            )
