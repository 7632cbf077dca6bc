"""The ``kkprint`` command and ``python -m kkprint``: one process, one command.

What only a whole process may decide lives here. Importing the CLI loads Typer, pydantic and
ReportLab, tens of thousands of objects and none of them garbage, and a command then makes many
more and frees few until it ends: the cycle collector's passes find nothing, so it is off from
the first line (``serve`` and ``watch``, which run for hours, turn it back on). When the command
ends, so does the process, and the interpreter's last collection would walk every object once
more only to find it alive: they are frozen out of its sight. Measured on a 1,000-card deck: a
fifth of the whole command's CPU time. Pydantic plugins (tracing hooks found by scanning every
installed package's entry points) have no place in checking a user's file."""

import gc
import sys

# This module is where both doors meet: the command line (kkprint.cli) starts the web pages
# (kkprint.web) through the functions below, and neither imports the other.


def _score_pad(*, port: int, lan: bool, lang: str) -> None:
    from kkprint.web.pad.serve import serve

    serve(port, lan, lang)


def _studio(*, deck, port: int, open_browser: bool, lang: str, allow_outside: bool) -> None:
    from kkprint.web.studio.serve import serve

    serve(deck, port=port, open_browser=open_browser, lang=lang, allow_outside=allow_outside)


def _no_pydantic_plugins() -> None:
    """Pydantic looks for plugins whenever it builds a validator, in a module whose import
    alone loads ``importlib.metadata`` and the email package (a seventh of a scorer's start-up,
    even with ``PYDANTIC_DISABLE_PLUGINS`` set): it finds a stand-in that says there are none."""
    import types

    stand_in = types.ModuleType("pydantic.plugin._loader")
    stand_in.get_plugins = tuple  # type: ignore[attr-defined]  # (no plugins: an empty tuple)
    sys.modules.setdefault(stand_in.__name__, stand_in)


def run() -> None:
    gc.disable()
    _no_pydantic_plugins()
    try:
        try:
            from kkprint.cli.app import main
            from kkprint.cli.serve import Servers
        except KeyboardInterrupt:  # Ctrl-C while the CLI loads: nothing begun, nothing to say
            sys.exit(130)
        main(Servers(score_pad=_score_pad, studio=_studio))
    finally:
        gc.freeze()


if __name__ == "__main__":
    run()
