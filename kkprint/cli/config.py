"""``config set`` and ``config show``: the user's defaults."""

from __future__ import annotations

import typer

from kkprint.base import settings
from kkprint.cli.common import language
from kkprint.cli.terminal import echo_paths


def config_set(
    key: str = typer.Argument(..., help="lang, paper or offset."),
    value: str = typer.Argument(
        ...,
        help="lang: ja or en; paper: a4, letter or a3; offset: the printer's back-side shift in mm, x,y (e.g. 0.8,-0.4).",
    ),
) -> None:
    """Save a default in your config folder (a flag or KKPRINT_LANG/KKPRINT_PAPER still wins)."""
    echo_paths([settings.set_value(key, value)])


def config_show() -> None:
    """The defaults in force, and where each comes from."""
    typer.echo(settings.show(language(None)))
