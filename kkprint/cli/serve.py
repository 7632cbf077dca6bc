"""``serve`` and ``studio``: the score pad and the deck studio in a browser.

The command line does not know the web pages (:mod:`kkprint.web`, the other door): the
process's entry, :mod:`kkprint.__main__`, hands it the servers it may start, as Click's context
object. So neither door imports the other, and each can be read without the other.
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from pathlib import Path

import typer

from kkprint.base.errors import InputError
from kkprint.base.i18n import Msg
from kkprint.base.records import record
from kkprint.cli.common import LangOption, language


@record
class Servers:
    """The web pages the command line may start, each called with its options."""

    score_pad: Callable[..., None] | None = None
    studio: Callable[..., None] | None = None


def serve(
    context: typer.Context,
    port: int = typer.Option(8765, "--port", min=1, max=65535, help="Port to listen on."),
    lan: bool = typer.Option(
        False,
        "--lan",
        help="Listen on the local network too, and show its address as a QR code "
        "(the list of games needs the key in that address).",
    ),
    lang: LangOption = None,
) -> None:
    """The score pad in a browser: a page for every game, on every phone at the table."""
    start = servers_of(context).score_pad
    if start is None:
        raise InputError(Msg("this kkprint was started without its web pages"), source="serve")
    gc.enable()  # runs for hours; see kkprint.__main__
    start(port=port, lan=lan, lang=language(lang))


def studio(
    context: typer.Context,
    deck: Path = typer.Argument(..., help="The deck file to show."),
    port: int = typer.Option(8766, "--port", min=1, max=65535, help="Port to listen on (on this machine only)."),
    no_open: bool = typer.Option(False, "--no-open", help="Only print the address; do not open a browser."),
    lang: LangOption = None,
    allow_outside: bool = typer.Option(False, "--allow-outside", help="Allow files outside the deck's folder."),
) -> None:
    """The deck studio: every card of a deck in a browser, drawn again within a second of each save."""
    start = servers_of(context).studio
    if start is None:
        raise InputError(Msg("this kkprint was started without its web pages"), source="studio")
    shown = language(lang)
    from kkprint.base.yamlio import read_bytes

    read_bytes(deck)  # a deck that cannot be read at all is said now: missing, a folder, a device
    gc.enable()  # runs for hours; see kkprint.__main__
    start(deck=deck, port=port, open_browser=not no_open, lang=shown, allow_outside=allow_outside)


def servers_of(context: typer.Context) -> Servers:
    return context.obj if isinstance(context.obj, Servers) else Servers()
