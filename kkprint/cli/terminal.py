"""The habits every command shares at a terminal: ``-q``/``--quiet``, ``-v``/``--verbose`` and
``--lang`` on every command, a progress bar for long work (only at a terminal, never in a pipe
or with ``-q``), and paths printed one way — relative to the current folder when inside it,
else absolute."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from typing import Any

import typer

from kkprint.base import progress
from kkprint.base.i18n import N_
from kkprint.base.pathnames import shown

QUIET_HELP = N_("Print only errors and warnings: no progress, no list of files written.")
VERBOSE_HELP = N_("Say what is being done and how long it takes.")
LANG_HELP = N_("Language of everything shown: ja or en (default: KKPRINT_LANG, the config file, the locale).")
SHOW_AFTER_S = 0.3  # work done sooner than this never draws a bar: nothing flickers past


def show_after() -> float:
    """Seconds of work before a bar is drawn: :data:`SHOW_AFTER_S`, or ``KKPRINT_PROGRESS_AFTER``
    (0 draws every bar at once: for a slow terminal recording, and for tests that must not
    depend on how fast the machine is)."""
    try:
        return max(0.0, float(os.environ.get("KKPRINT_PROGRESS_AFTER", SHOW_AFTER_S)))
    except ValueError:
        return SHOW_AFTER_S


def echo_paths(paths) -> None:
    """The files a command wrote, one a line on stdout (none with ``-q``)."""
    if progress.level() > progress.QUIET:
        for path in paths:
            typer.echo(shown(path))


def note(line: str, *, err: bool = True) -> None:
    """An informational line, on stderr unless ``err`` is False (none with ``-q``)."""
    if progress.level() > progress.QUIET:
        typer.echo(line, err=err)


class Bars:
    """rich's progress bars on stderr, drawn only once the work has taken ``SHOW_AFTER_S``."""

    def __init__(self) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        self.progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=Console(file=sys.stderr),
            transient=True,
        )
        self.since: float | None = None
        self.after = show_after()
        self.live = False
        self.open = 0

    def begin(self, what: str, total: int) -> object:
        if self.open == 0:
            self.since = time.monotonic()
        self.open += 1
        return self.progress.add_task(what, total=total)

    def advance(self, task: object, count: int) -> None:
        self.progress.advance(task, count)  # type: ignore[arg-type]  # the TaskID begin() returned
        if not self.live and self.since is not None and time.monotonic() - self.since >= self.after:
            self.live = True
            self.progress.start()

    def end(self, task: object) -> None:
        self.progress.remove_task(task)  # type: ignore[arg-type]  # the TaskID begin() returned
        self.open -= 1
        if self.open == 0 and self.live:
            self.progress.stop()
            self.live = False


def _quiet(value: bool) -> None:
    if value:
        progress.set_level(progress.QUIET)
        progress.install(None)


def _verbose(value: bool) -> None:
    if value and progress.level() != progress.QUIET:
        progress.set_level(progress.VERBOSE)


def _lang(value: str | None) -> None:
    if value is not None:
        from kkprint.base import settings
        from kkprint.cli.common import language

        settings.language_on_the_line(getattr(value, "value", value))  # for the command below a group
        language(value)


def start() -> None:
    """Before a command runs: bars at a terminal, nothing elsewhere."""
    from kkprint.base import settings

    settings.language_on_the_line(None)
    progress.set_level(progress.NORMAL)
    progress.install(Bars() if sys.stderr.isatty() and os.environ.get("TERM") != "dumb" else None)


def add_options(command) -> None:
    """``-q``, ``-v`` and (where a command lacks it) ``--lang`` on every command of the tree, and
    on the groups too (``kkprint -q build``); command names in any case (``scorer Kardinal``),
    as game ids are everywhere."""
    from typer.main import _get_param
    from typer.models import ParamMeta

    from kkprint.base.choices import Lang

    command.context_settings = {**command.context_settings, "token_normalize_func": str.lower}
    for sub in getattr(command, "commands", {}).values():
        add_options(sub)
    have = {opt for param in command.params for opt in param.opts}
    wanted: list[tuple[str, tuple[str, ...], Any, Any, str, Callable[[Any], None]]] = [
        ("quiet", ("-q", "--quiet"), bool, False, QUIET_HELP, _quiet),
        ("verbose", ("-v", "--verbose"), bool, False, VERBOSE_HELP, _verbose),
        ("lang", ("--lang",), Lang | None, None, LANG_HELP, _lang),
    ]
    for name, decls, kind, default, help_text, callback in wanted:
        if decls[-1] in have:
            continue
        option = typer.Option(
            default, *decls, help=help_text, callback=callback, expose_value=False, is_eager=True, case_sensitive=False
        )
        command.params.append(_get_param(ParamMeta(name=name, default=option, annotation=kind)))
