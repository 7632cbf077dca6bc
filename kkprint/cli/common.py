"""What the commands share: the options every command takes the same way, the command's
language, reading a tally (or standard input) and showing an answer."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from kkprint.base import settings
from kkprint.base.choices import Lang
from kkprint.base.errors import InputError
from kkprint.base.i18n import Msg
from kkprint.base.yamlio import MAX_INPUT_BYTES, load_yaml_file, parse_yaml

AsJson = Annotated[bool, typer.Option("--json", help="Print one JSON object on stdout instead of text.")]

LangOption = Annotated[
    Lang | None,
    typer.Option(
        "--lang",
        case_sensitive=False,
        help="Language of everything shown: ja or en (default: KKPRINT_LANG, the config file, the locale).",
    ),
]

HELP = {"help_option_names": ["-h", "--help"]}


def sub_app(help_text: str) -> typer.Typer:
    return typer.Typer(no_args_is_help=True, help=help_text, context_settings=HELP, rich_markup_mode=None)


def read_input(path: Path) -> tuple[object, str]:
    """A tally/state file, or standard input for ``-``; parsed as YAML (which reads JSON too)."""
    if str(path) == "-":
        stream = getattr(sys.stdin, "buffer", None)  # a test's StringIO has no bytes underneath
        data = stream.read(MAX_INPUT_BYTES + 1) if stream else sys.stdin.read(MAX_INPUT_BYTES + 1).encode("utf-8")
        if len(data) > MAX_INPUT_BYTES:
            raise InputError(
                Msg(
                    "is larger than {MAX_INPUT_BYTES:,} bytes; input is limited to that",
                    MAX_INPUT_BYTES=MAX_INPUT_BYTES,
                ),
                source="<stdin>",
            )
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as err:
            raise InputError(Msg("is not UTF-8 text (byte {start})", start=err.start), source="<stdin>") from None
        if not text.strip():
            raise InputError(Msg("is empty"), source="<stdin>")
        return parse_yaml(text, "<stdin>"), "<stdin>"
    return load_yaml_file(path), str(path)


def language(flag) -> str:
    """The command's language, used from here on for every message, error lines included."""
    from kkprint.base import i18n

    lang = settings.language(flag)
    i18n.use(lang)
    return lang


def emit(data: dict, shown, as_json: bool) -> None:
    """The JSON object, or what a person reads: a rich table at a terminal, plain text elsewhere."""
    if as_json:
        typer.echo(json.dumps(data, ensure_ascii=False, indent=2))
    elif isinstance(shown, str):
        typer.echo(shown)
    else:
        shown.print()


def jobs() -> int:
    """Processes for a build: KKPRINT_JOBS, else the machine's cores (at most 4)."""
    value = os.environ.get("KKPRINT_JOBS", "")
    if value.strip().isdigit() and len(value.strip()) <= 3 and int(value) >= 1:
        return min(int(value), 16)
    return max(1, min(4, os.cpu_count() or 1))
