"""``new deck``, ``schema``, ``export`` and ``watch``: a designer's own decks."""

from __future__ import annotations

import gc
import json
from pathlib import Path
from typing import Any

import typer

from kkprint.base import settings
from kkprint.base.choices import Lang
from kkprint.base.errors import InputError
from kkprint.base.i18n import Msg, tr
from kkprint.base.pathnames import shown
from kkprint.cli.common import LangOption, language
from kkprint.cli.terminal import echo_paths, note


def new_deck(
    name: str | None = typer.Argument(
        None, help="Name of the deck; NAME.yaml and NAME.csv are written. Leave it out with --example."
    ),
    folder: Path = typer.Option(Path("."), "--dir", help="Folder to write them in."),
    example: str | None = typer.Option(
        None, "--example", help="Copy a worked example deck (its folder, data and art) instead; see --list."
    ),
    list_examples: bool = typer.Option(False, "--list", help="List the worked example decks and exit."),
    lang: LangOption = None,
) -> None:
    """Write a small, commented starter deck (YAML + CSV) that builds at once, or copy an example."""
    from kkprint.deck import starter

    language(lang)
    if list_examples:
        for known in starter.example_names():
            typer.echo(f"{known:<10} {tr(starter.EXAMPLES[known])}")
        return
    if example is not None:
        if name is not None:
            raise InputError(Msg("give a deck name or --example, not both: an example keeps its own name"))
        echo_paths([starter.write_example(example, folder)])
        return
    if name is None:
        raise InputError(Msg("name the deck (kkprint new deck NAME), or copy an example with --example NAME"))
    echo_paths(starter.write_starter(name, folder))


def schema(lang: LangOption = None) -> None:
    """Print the JSON Schema of the deck file format (for editors that complete and check YAML)."""
    from kkprint.deck.model import deck_schema

    said = described(deck_schema(), language(lang))
    typer.echo(json.dumps(said, indent=2, ensure_ascii=False))


def descriptions(schema) -> list[str]:
    """Every ``description`` in a JSON Schema: what an editor shows beside a key (for the catalogue)."""
    found: list[str] = []
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key == "description" and isinstance(value, str):
                found.append(value)
            else:
                found += descriptions(value)
    elif isinstance(schema, list):
        for value in schema:
            found += descriptions(value)
    return found


_VALUES = ("default", "examples", "const", "enum")  # a deck's own values, not schema words: kept as they are
_NAMED = ("properties", "$defs", "definitions")  # mappings whose keys are names, each naming a schema


def described(schema, lang: str):
    """The schema with its descriptions in ``lang``: a Japanese designer's editor explains each
    key in Japanese. Titles are pydantic's spelling of the key's own name ("Width Mm"): outside
    English they are left out, so an editor shows the key and its Japanese description."""
    if isinstance(schema, list):
        return [described(value, lang) for value in schema]
    if not isinstance(schema, dict):
        return schema
    said: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "title" and isinstance(value, str) and lang != "en":
            continue
        if key == "description" and isinstance(value, str) and value:
            said[key] = tr(value, lang)
        elif key in _NAMED and isinstance(value, dict):
            said[key] = {name: described(each, lang) for name, each in value.items()}
        elif key in _VALUES:
            said[key] = value
        else:
            said[key] = described(value, lang)
    return said


def export(
    deck: Path = typer.Argument(..., help="The deck file."),
    png: bool = typer.Option(
        False, "--png", help="One PNG per card, front and back (the default when nothing else is asked)."
    ),
    tts: bool = typer.Option(
        False, "--tts", help="Tabletop Simulator deck sheets (at most 10×7 cards, 4096 px) and the back."
    ),
    showcase: str | None = typer.Option(
        None,
        "--showcase",
        help="A fanned hand of these cards (names, or card numbers as printed, every copy counted: e.g. 1,3,Knight) "
        "as one picture.",
    ),
    name: str | None = typer.Option(
        None,
        "--name",
        help="File names from card fields, e.g. '${id}-${name}'; ${n} is the card's number as printed, its first "
        "copy's (default: ${n}-${name}).",
    ),
    dpi: int = typer.Option(300, "--dpi", min=36, max=1200, help="Resolution of the pictures."),
    bleed: bool = typer.Option(False, "--bleed", help="Include the print-shop bleed around each card."),
    out: Path = typer.Option(Path("output/export"), "--out", help="Folder for the pictures."),
    lang: Lang | None = typer.Option(
        None,
        "--lang",
        case_sensitive=False,
        help="Language of printed labels: ja or en (default: KKPRINT_LANG, the config file, the locale).",
    ),
    only: str | None = typer.Option(
        None,
        "--only",
        help="Only these cards: names, or card numbers as printed, every copy counted (e.g. 1-3,Knight).",
    ),
    allow_outside: bool = typer.Option(False, "--allow-outside", help="Allow files outside the deck's folder."),
) -> None:
    """Pictures of a deck's cards: PNGs for print-on-demand, Tabletop Simulator sheets, a showcase."""
    from kkprint.deck.export import ExportOptions, export_deck

    options = ExportOptions(
        out_dir=out,
        dpi=dpi,
        name=name,
        png=png or not (tts or showcase is not None),
        tts=tts,
        showcase=showcase,
        bleed=bleed,
        lang=settings.language(lang),
        allow_outside=allow_outside,
        only=only,
    )
    echo_paths(export_deck(deck, options))


def watch(
    deck: Path = typer.Argument(..., help="The deck file to rebuild whenever it, its data or its art changes."),
    out: Path = typer.Option(Path("output"), "--out", help="Folder the PDF is written to."),
    previews: bool = typer.Option(True, "--previews/--no-previews", help="Also write PNG previews to OUT/preview."),
    lang: Lang | None = typer.Option(
        None,
        "--lang",
        case_sensitive=False,
        help="Language of printed labels: ja or en (default: KKPRINT_LANG, the config file, the locale).",
    ),
    guides: bool = typer.Option(False, "--guides", help="Draw trim, bleed and safe-zone lines."),
    allow_outside: bool = typer.Option(False, "--allow-outside", help="Allow files outside the deck's folder."),
) -> None:
    """Rebuild a deck's PDF and previews within a second of every save; errors are shown and watching goes on."""
    from kkprint.deck.watch import watch_deck
    from kkprint.engine.job import BuildOptions

    options = BuildOptions(lang=settings.language(lang), out_dir=out, guides=guides, allow_outside=allow_outside)
    gc.enable()  # runs for hours; see kkprint.__main__
    watch_deck(deck, options, out / "preview" if previews else None)


def check(
    deck: Path = typer.Argument(..., help="The deck file to check."),
    as_json: bool = typer.Option(
        False, "--json", help="Print every finding as one JSON list on stdout: `{card, region, kind, message, …}`."
    ),
    strict: bool = typer.Option(False, "--strict", help="Warnings count as errors: exit code 2 if there is any."),
    print_shop: bool = typer.Option(
        False, "--print-shop", help="Check as for a print shop: pictures at 300 dpi, text 3 mm inside the trim."
    ),
    only: str | None = typer.Option(
        None,
        "--only",
        help="Only these cards: names, or card numbers as printed, every copy counted (e.g. 1-3,Knight).",
    ),
    lang: LangOption = None,
    allow_outside: bool = typer.Option(False, "--allow-outside", help="Allow files outside the deck's folder."),
) -> None:
    """Preflight a deck without writing anything: small text, blurry pictures, text off the card, missing columns."""
    from kkprint.cli.build import finding_lines
    from kkprint.deck.build import check_deck
    from kkprint.deck.load import load_deck, select
    from kkprint.deck.preflight import LISTED, counted
    from kkprint.engine.job import BuildOptions

    lang_code = language(lang)
    loaded = select(load_deck(deck, allow_outside=allow_outside), only)
    options = BuildOptions(lang=lang_code, print_shop=print_shop, allow_outside=allow_outside, strict=strict)
    findings = check_deck(loaded, options)
    failed = any(finding.error or strict for finding in findings)
    if as_json:
        typer.echo(json.dumps([finding.as_json(lang_code) for finding in findings], ensure_ascii=False, indent=2))
    else:
        for line in finding_lines(findings, strict):
            typer.echo(line)
        if len(findings) > LISTED:
            typer.echo(tr("(kkprint check --json lists every one)"))
        cards = sum(card.count for card in loaded.iter_cards())
        checked = Msg("{count} card checked", count=cards) if cards == 1 else Msg("{count} cards checked", count=cards)
        summary = tr("{deck}: {cards}, {count}", deck=shown(deck), cards=checked, count=counted(findings, strict))
        note(summary, err=False)  # (-q: the findings alone)
    if failed:
        typer.echo(
            tr(
                "kkprint: error: {deck}: {count}; it would not print", deck=shown(deck), count=counted(findings, strict)
            ),
            err=True,
        )
        raise typer.Exit(2)
