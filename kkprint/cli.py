"""The ``kkprint`` command line: parses arguments and hands them to the library. Nothing else."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import List, Optional

import typer

from kkprint.build import BuildOptions, build_targets, resolve, targets
from kkprint.engine.geometry import DuplexMode
from kkprint.errors import InputError

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="Print-and-play PDFs for board games, and scorers for the games you played.")
scorer_app = typer.Typer(no_args_is_help=True, help="Score a finished game from a tally.")
app.add_typer(scorer_app, name="scorer")


@app.command()
def build(
    target: Optional[List[str]] = typer.Argument(None, help="Game ids (see `kkprint list`) or `all` (default)."),
    lang: str = typer.Option("ja", "--lang", help="Language of printed labels: ja or en."),
    paper: str = typer.Option("a4", "--paper", help="Paper size: a4 or letter."),
    out: Path = typer.Option(Path("output"), "--out", help="Folder the PDFs are written to."),
    duplex: DuplexMode = typer.Option(DuplexMode.LONG_EDGE, "--duplex", help="How backs are printed."),
    offset_x: float = typer.Option(0.0, "--back-offset-x", help="Printer profile: shift backs right by this many mm."),
    offset_y: float = typer.Option(0.0, "--back-offset-y", help="Printer profile: shift backs up by this many mm."),
) -> None:
    """Build PDFs for games (all by default) into the output folder; prints each file written."""
    options = BuildOptions(lang=lang, paper_name=paper.lower(), out_dir=out, duplex=duplex,
                           back_offset_mm=(offset_x, offset_y))
    for path in build_targets(resolve(target or ["all"]), options):
        typer.echo(str(path))


@app.command("list")
def list_targets() -> None:
    """Every buildable definition and what it produces."""
    for target in targets().values():
        typer.echo(f"{target.id:<18} {target.summary}")
        for product in target.products:
            typer.echo(f"{'':<18}   {product}-LANG-PAPER.pdf")


def main() -> None:
    """Run the app; bad input ends with one line on stderr and exit code 2, never a traceback."""
    try:
        app(standalone_mode=False)
    except InputError as err:
        typer.echo(f"kkprint: error: {err}", err=True)
        sys.exit(2)
    except typer.Abort:
        typer.echo("kkprint: aborted", err=True)
        sys.exit(1)
    except SystemExit:
        raise
    except Exception as err:  # noqa: BLE001 - last line of defence; the message is still one line
        import click

        if isinstance(err, click.exceptions.ClickException):
            err.show()
            sys.exit(err.exit_code)
        if os.environ.get("KKPRINT_DEBUG"):
            raise
        typer.echo(f"kkprint: internal error: {type(err).__name__}: {err} (set KKPRINT_DEBUG=1 for details)", err=True)
        sys.exit(1)
