"""``kkprint docs``: where the deck guide installed with kkprint is, in the user's language, so a
``pip``/``pipx`` user (who has no source tree) can open it: ``less "$(kkprint docs)"``."""

from __future__ import annotations

import typer

from kkprint.base.errors import InputError
from kkprint.base.i18n import Msg
from kkprint.cli.common import LangOption, language


def docs(lang: LangOption = None) -> None:
    """Print the path of the deck guide (Markdown) installed with kkprint."""
    from kkprint.deck.starter import guide_path

    guide = guide_path(language(lang))
    if not guide.is_file():
        raise InputError(Msg("the guide is not installed here; read it at docs/custom-decks.md in kkprint's source"))
    typer.echo(str(guide))
