"""``build``, ``preview``, ``list`` and ``calibrate``: what the games and decks print."""

from __future__ import annotations

import math
from pathlib import Path

import typer

from kkprint.base import settings
from kkprint.base.choices import CutMarks, DuplexMode, Lang, PaperName, TwoSided
from kkprint.base.errors import InputError
from kkprint.base.i18n import Msg, tr
from kkprint.cli.common import jobs
from kkprint.cli.terminal import echo_paths


def build(
    target: list[str] | None = typer.Argument(
        None, help="Game ids (see `kkprint list`), `all` (default) or deck files."
    ),
    lang: Lang | None = typer.Option(
        None,
        "--lang",
        case_sensitive=False,
        help="Language of printed labels: ja or en (default: KKPRINT_LANG, the config file, the locale).",
    ),
    paper: PaperName | None = typer.Option(
        None,
        "--paper",
        case_sensitive=False,
        help="Paper size (default: KKPRINT_PAPER, the config file, a deck's own, the locale).",
    ),
    out: Path = typer.Option(Path("output"), "--out", help="Folder the PDFs are written to."),
    duplex: DuplexMode | None = typer.Option(
        None, "--duplex", case_sensitive=False, help="How backs are printed (default long-edge)."
    ),
    offset_x: float | None = typer.Option(None, "--back-offset-x", help="Shift backs right by this many mm."),
    offset_y: float | None = typer.Option(None, "--back-offset-y", help="Shift backs up by this many mm."),
    players: int | None = typer.Option(None, "--players", help="Print only what an N-player game uses (court)."),
    print_shop: bool = typer.Option(
        False,
        "--print-shop",
        help="One card a page for a print shop: bleed, TrimBox and "
        "BleedBox, crop marks, CMYK (decks and the games' cards).",
    ),
    only: str | None = typer.Option(
        None,
        "--only",
        help="Decks: only these cards: names, or card numbers as printed, every copy counted (e.g. 1-3,Knight).",
    ),
    allow_outside: bool = typer.Option(
        False, "--allow-outside", help="Decks: allow files outside the deck's folder (data, fonts, icons, pictures)."
    ),
    gap: float | None = typer.Option(None, "--gap", min=0, max=30, help="Games: mm of space between cards."),
    cut_marks: CutMarks | None = typer.Option(
        None, "--cut-marks", case_sensitive=False, help="Cut marks in the margins, or none."
    ),
    greyscale: bool = typer.Option(
        False, "--greyscale", help="Every colour and picture in grey: an ink-saving proof (files end in -grey)."
    ),
    guides: bool = typer.Option(False, "--guides", help="Draw trim (red), bleed (blue) and safe-zone (green) lines."),
    strict: bool = typer.Option(
        False, "--strict", help="A preflight warning (small text, a blurry picture…) fails the build: nothing written."
    ),
) -> None:
    """Build PDFs for games (all by default) or deck files into the output folder; prints each file written."""
    from kkprint.cli.targets import resolve
    from kkprint.engine.job import BuildOptions, run_targets

    offset = None if offset_x is None and offset_y is None else (offset_x or 0.0, offset_y or 0.0)
    if offset is not None and not all(math.isfinite(v) and abs(v) <= 20 for v in offset):
        raise InputError(Msg("a back offset is a few millimetres, between -20 and 20"), source="--back-offset-x/-y")
    options = BuildOptions(
        lang=settings.language(lang),
        paper_name=settings.paper(paper, fall_back=False),
        out_dir=out,
        duplex=duplex,
        back_offset_mm=offset,
        players=players,
        print_shop=print_shop,
        only=only,
        allow_outside=allow_outside,
        gap_mm=gap,
        cut_marks=cut_marks,
        greyscale=greyscale,
        guides=guides,
        jobs=jobs(),
        strict=strict,
    )
    outcomes = run_targets(resolve(target or ["all"]), options)
    # every file written, those of a target that failed half-way too
    echo_paths(path for outcome in outcomes for path in outcome.paths)
    if report(outcomes):
        raise typer.Exit(2)


def report(outcomes) -> bool:
    """What the build noticed and what failed, on stderr: each deck's problems (at most
    ``LISTED``, then how many more), a summary line, and which targets were not built. True when
    one failed."""
    from kkprint.deck.preflight import PreflightError, counted

    noticed = [note for outcome in outcomes for note in outcome.notes]
    failed = [outcome for outcome in outcomes if outcome.error is not None]
    if noticed:  # (only warnings: with --strict they would have failed their target)
        say(finding_lines(noticed, strict=False))
    for outcome in failed:
        error = outcome.error
        if isinstance(error, PreflightError):
            say(finding_lines(error.findings, error.strict))
            if len(error.findings) > 1:
                say(
                    [
                        tr(
                            "kkprint: {count}: nothing was written for {target}",
                            count=counted(error.findings, error.strict),
                            target=outcome.target,
                        )
                    ]
                )
        else:
            say([tr("kkprint: error: {message}", message=each) for each in error.each()])
    if noticed:
        say([tr("kkprint: {count}", count=counted(noticed))])
    if failed and len(outcomes) > 1:
        names = ", ".join(outcome.target for outcome in failed)
        say([tr("kkprint: not built: {names}; the files listed were written", names=names)])
    return bool(failed)


def finding_lines(findings, strict: bool) -> list[str]:
    """One line a finding, errors first (with ``--strict`` every warning is one); after
    ``LISTED`` (20) lines, how many more there are."""
    from kkprint.deck.preflight import LISTED as limit

    ordered = sorted(findings, key=lambda finding: not (finding.error or strict))
    lines = [
        tr("kkprint: error: {message}", message=finding.render())
        if finding.error or strict
        else tr("kkprint: warning: {message}", message=finding.render())
        for finding in ordered[:limit]
    ]
    if len(ordered) > limit:
        lines.append(tr("kkprint: … and {count} more", count=len(ordered) - limit))
    return lines


def say(lines: list[str]) -> None:
    for line in lines:
        typer.echo(line, err=True)


def preview(
    target: list[str] = typer.Argument(..., help="Game ids or deck files, as for `build`."),
    out: Path = typer.Option(Path("output/preview"), "--out", help="Folder for the PNG files."),
    dpi: int = typer.Option(80, "--dpi", min=20, max=300, help="Resolution of the pictures."),
    lang: Lang | None = typer.Option(
        None,
        "--lang",
        case_sensitive=False,
        help="Language of printed labels: ja or en (default: KKPRINT_LANG, the config file, the locale).",
    ),
    only: str | None = typer.Option(
        None, "--only", help="Decks: only these cards (names, or card numbers as printed: as for build)."
    ),
    cards: bool = typer.Option(
        False, "--cards", help="Decks: one picture per card (front, then back) instead of sheets."
    ),
    guides: bool = typer.Option(False, "--guides", help="Draw trim, bleed and safe-zone lines."),
    greyscale: bool = typer.Option(False, "--greyscale", help="Show the ink-saving grey version."),
    allow_outside: bool = typer.Option(
        False, "--allow-outside", help="Decks: allow files outside the deck's folder (data, fonts, icons, pictures)."
    ),
) -> None:
    """Write PNG pictures of every page (no PDF viewer needed)."""
    from kkprint.cli.targets import resolve
    from kkprint.engine.job import BuildOptions
    from kkprint.engine.preview import preview_targets

    chosen = resolve(target, command="preview")
    if cards and any(not t.id.endswith((".yaml", ".yml")) for t in chosen):
        raise InputError(Msg("--cards pictures single cards of deck files; games preview as sheets"), source="--cards")
    options = BuildOptions(
        lang=settings.language(lang),
        only=only,
        card_pages=cards,
        guides=guides,
        greyscale=greyscale,
        allow_outside=allow_outside,
    )
    echo_paths(preview_targets(chosen, options, out, dpi))


def list_targets() -> None:
    """Every buildable definition and what it produces."""
    from kkprint.games import targets

    for target in targets().values():
        typer.echo(f"{target.id:<18} {tr(target.summary) if isinstance(target.summary, str) else target.summary}")
        for product in target.products:
            typer.echo(f"{'':<18}   {product if product.endswith('.pdf') else product + '-LANG-PAPER.pdf'}")


def calibrate(
    paper: PaperName | None = typer.Option(
        None,
        "--paper",
        case_sensitive=False,
        help="Paper size: a4, letter or a3 (default: KKPRINT_PAPER, the config file, the locale).",
    ),
    out: Path = typer.Option(Path("output"), "--out", help="Folder the sheet is written to."),
    duplex: TwoSided = typer.Option(
        TwoSided.LONG_EDGE, "--duplex", case_sensitive=False, help="long-edge or short-edge."
    ),
    save: list[str] | None = typer.Option(
        None, "--save", metavar="MM", help="Save the offset you read: --save X --save Y."
    ),
    lang: Lang | None = typer.Option(
        None,
        "--lang",
        case_sensitive=False,
        help="Language: ja or en (default: KKPRINT_LANG, the config file, the locale).",
    ),
) -> None:
    """Print a duplex alignment sheet; read your printer's back-side offset off it and --save it."""
    from kkprint.engine.calibrate import save_offset, write_sheet

    if save:
        try:
            offset = [settings.typed_number(part) for value in save for part in settings.typed_list(value)]
        except ValueError:
            raise InputError(
                Msg("the offset is two numbers in mm, x and y: --save 0.8 --save -0.4"), source="--save"
            ) from None
        echo_paths([save_offset(offset)])
        return
    echo_paths([write_sheet(out, settings.paper(paper), DuplexMode(duplex.value), settings.language(lang))])
