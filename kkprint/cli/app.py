"""The ``kkprint`` command line: every command in one table, the entry ``main`` and what it does
with errors and signals. Each command lives with its kind (``build``, ``decks``, ``scorers``,
``config``, ``serve`` — the score pad and the deck studio) and only parses what it is given and hands it on."""

from __future__ import annotations

import copy
import io
import os
import signal
import sys
from collections.abc import Callable
from typing import Any, cast

import typer

from kkprint.base import settings
from kkprint.base.errors import InputError, OsReason
from kkprint.base.i18n import tr, typed_language
from kkprint.cli import build, config, decks, guides, scorers, serve
from kkprint.cli.common import HELP, language, sub_app
from kkprint.cli.serve import Servers

app = typer.Typer(
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    context_settings=HELP,
    rich_markup_mode=None,
    help="Print-and-play PDFs for board games, and scorers for the games you played.",
)
scorer_app = sub_app("Score a finished game from a tally.")
app.add_typer(scorer_app, name="scorer")
new_app = sub_app("Start something new from a working example.")
app.add_typer(new_app, name="new")
court_app = sub_app("To Court the King helpers.")
app.add_typer(court_app, name="court")
culdcept_app = sub_app("Culdcept-style game helpers.")
app.add_typer(culdcept_app, name="culdcept")


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            typer.echo(f"kkprint {version('kkprint')}")
        except PackageNotFoundError:
            typer.echo("kkprint (not installed)")
        raise typer.Exit()


@app.callback()
def _main(
    show_version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """Print-and-play PDFs for board games, and scorers for the games you played."""


# Every command, in the order `kkprint --help` lists them.
app.command()(build.build)
new_app.command("deck")(decks.new_deck)
new_app.command("tally")(scorers.new_tally)
app.command()(decks.schema)
app.command()(guides.docs)
app.command()(build.calibrate)
app.command()(build.preview)
app.command()(decks.export)
app.command()(decks.check)
app.command()(decks.watch)
config_app = sub_app("Your defaults: language and paper.")
app.add_typer(config_app, name="config")
app.command()(serve.serve)
app.command()(serve.studio)
config_app.command("set")(config.config_set)
config_app.command("show")(config.config_show)
app.command("list")(build.list_targets)
scorer_app.command("kardinal", epilog=scorers.KARDINAL_FORMAT)(scorers.scorer_kardinal)
scorer_app.command("webofpower", epilog=scorers.WEBOFPOWER_FORMAT)(scorers.scorer_webofpower)
scorer_app.command("webofpower-board", epilog=scorers.WEBOFPOWER_BOARD_FORMAT)(scorers.scorer_webofpower_board)
court_app.command("eligible")(scorers.court_eligible)
scorer_app.command("court", epilog=scorers.COURT_FORMAT)(scorers.scorer_court)
scorer_app.command("culdcept", epilog=scorers.CULDCEPT_FORMAT)(scorers.scorer_culdcept)
culdcept_app.command("battle")(scorers.culdcept_battle)


def _click_command(args: list[str]):
    """The Click command tree to run ``args`` with. Typer makes every command (its signature, its
    type hints, its parameters) before it runs one; when the line starts with a command's name,
    only that command is made (~5 ms of every run). Help, ``--version`` and a mistyped name,
    which list or suggest commands, get them all."""
    name = args[0].lower() if args and not args[0].startswith("-") else None  # (names in any case)
    commands = [
        info
        for info in app.registered_commands
        # (every command here is registered with its function; Typer needs one to make a command)
        if (info.name or typer.main.get_command_name(cast(Callable[..., Any], info.callback).__name__)) == name
    ]
    groups = [info for info in app.registered_groups if info.name == name]
    if not commands and not groups:
        return typer.main.get_command(app)
    only_this = copy.copy(app)
    only_this.registered_commands, only_this.registered_groups = commands, groups
    return typer.main.get_command(only_this)


class Terminated(BaseException):
    """SIGTERM or SIGHUP: unwinds like Ctrl-C, so every half-written file is removed on the way."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


def _terminate(signum, frame) -> None:
    raise Terminated(signum)


class OutputClosed(Exception):
    """Standard output was closed before the command began (``kkprint list >&-``)."""


class _ClosedOutput(io.TextIOBase):
    """Stands for standard output when the shell closed it: Python leaves ``sys.stdout`` None and
    the first line printed would fail deep inside whatever printed it. Commands that print
    nothing there (``serve``, ``watch``) still run; the first that does is told why it cannot."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise OutputClosed

    def isatty(self) -> bool:
        return False


def _standard_streams() -> None:
    if sys.stdout is None:
        sys.stdout = _ClosedOutput()
    if sys.stderr is None:  # nowhere to say anything: what is said goes nowhere, the exit code stays
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - open for the process's life


def _reader_left() -> None:
    """The program reading our output closed it (``kkprint schema | head``): end as a command
    killed by SIGPIPE would (141), without a word, and with nothing left to flush at exit."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    sys.exit(128 + getattr(signal, "SIGPIPE", 13))


def _words(args: list[str]) -> list[str]:
    """The command line's words before it is parsed: the options and ``--lang``'s value left out."""
    words = []
    for index, arg in enumerate(args):
        if not arg.startswith("-") and not (index and args[index - 1] == "--lang"):
            words.append(arg)
    return words


def main(servers: Servers | None = None) -> None:
    """Run the app; bad input ends with one line on stderr and exit code 2, never a traceback.
    Ctrl-C ends with 130, SIGTERM/SIGHUP with 128 + the signal, each after removing what a build
    had half-written. ``servers`` are the web pages ``serve`` may start, handed in by the process's
    entry (:mod:`kkprint.__main__`), which knows both doors. (It runs ``main`` as a process of its own.)"""
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), _terminate)
    _standard_streams()
    try:
        if _words(sys.argv[1:])[:2] == ["config", "set"]:
            settings.to_be_written()
        language(typed_language(sys.argv[1:]))  # usage errors and help speak the user's language too
        from kkprint.cli import terminal, usage

        usage.install()
        command = _click_command(sys.argv[1:])
        terminal.add_options(command)
        usage.translate_help(command)
        terminal.start()
        code = command.main(standalone_mode=False, prog_name="kkprint", obj=servers or Servers())
        if code == 130:  # typer turns Ctrl-C into this exit code when it is not exiting itself
            raise KeyboardInterrupt
        sys.stdout.flush()  # a reader that went away is noticed here, not at the interpreter's exit
        if isinstance(code, int) and code:
            sys.exit(code)
    except BrokenPipeError:
        _reader_left()
    except OutputClosed:
        typer.echo(tr("kkprint: error: standard output is closed, so nothing could be printed"), err=True)
        sys.exit(2)
    except Terminated as err:
        typer.echo(tr("kkprint: terminated; nothing half-written was kept"), err=True)
        sys.exit(128 + err.signum)
    except InputError as err:
        for each in err.each():
            typer.echo(tr("kkprint: error: {message}", message=each), err=True)
        sys.exit(2)
    except typer.Abort:
        typer.echo(tr("kkprint: aborted"), err=True)
        sys.exit(1)
    except KeyboardInterrupt:
        typer.echo("\n" + tr("kkprint: interrupted; nothing half-written was kept"), err=True)
        sys.exit(130)
    except SystemExit as exit_:
        if exit_.code == 1 and "PacifyFlushWrapper" in type(sys.stdout).__name__:
            _reader_left()  # Click's own answer to a closed pipe: exit 1 after wrapping the streams
        raise
    except OSError as err:  # an output folder that cannot be written, a full disk: say which file
        where = str(err.filename) if err.filename else None
        typer.echo(tr("kkprint: error: {message}", message=InputError(OsReason(err), source=where)), err=True)
        sys.exit(2)
    except typer.TyperException as err:  # usage errors: one line naming the option, exit code 2
        if not hasattr(err, "format_message"):  # (Typer's base class does not declare it; its errors have it)
            err.show()  # type: ignore[attr-defined]
        else:
            context = getattr(err, "ctx", None)
            command = context.command_path if context is not None else "kkprint"  # never the mistyped word
            from kkprint.cli.usage import missing_argument, missing_command, usage_error

            # (a bare group: one line and where the help is, not the whole help on stderr; SPEC §1)
            message = (
                missing_command(err)
                or missing_argument(err)
                or usage_error(" ".join(err.format_message().replace("Value error, ", "").split()))
            )
            typer.echo(
                tr("kkprint: error: {message} (see '{command} --help')", message=message, command=command), err=True
            )
        sys.exit(getattr(err, "exit_code", 2))
    except Exception as err:  # noqa: BLE001 - last line of defence; the message is still one line
        if os.environ.get("KKPRINT_DEBUG"):
            raise
        detail = " ".join(str(err).split())[:300]
        typer.echo(
            tr(
                "kkprint: internal error: {kind}: {detail} (set KKPRINT_DEBUG=1 for details)",
                kind=type(err).__name__,
                detail=detail,
            ),
            err=True,
        )
        sys.exit(1)
