"""The ``kkprint`` command line: parses arguments and hands them to the library. Nothing else."""

from __future__ import annotations

import copy
import gc
import json
import math
import os
import signal
import sys
from pathlib import Path
from typing import Annotated, List, Optional

import typer

from kkprint import settings
from kkprint.choices import CheckAgainst, CutMarks, DuplexMode, Lang, PaperName
from kkprint.errors import InputError
from kkprint.i18n import Msg, tr
from kkprint.outputs import check_destination
from kkprint.yamlio import MAX_INPUT_BYTES, load_yaml_file, parse_yaml

AsJson = Annotated[bool, typer.Option("--json", help="Print one JSON object on stdout instead of text.")]

LangOption = Annotated[Optional[Lang], typer.Option(
    "--lang", case_sensitive=False, help="Language of everything shown: ja or en (default: KKPRINT_LANG, the config file, the locale).")]

HELP = {"help_option_names": ["-h", "--help"]}


def _sub_app(help_text: str) -> typer.Typer:
    return typer.Typer(no_args_is_help=True, help=help_text, context_settings=HELP, rich_markup_mode=None)


app = typer.Typer(no_args_is_help=True, pretty_exceptions_enable=False, context_settings=HELP, rich_markup_mode=None,
                  help="Print-and-play PDFs for board games, and scorers for the games you played.")
scorer_app = _sub_app("Score a finished game from a tally.")
app.add_typer(scorer_app, name="scorer")
new_app = _sub_app("Start something new from a working example.")
app.add_typer(new_app, name="new")
court_app = _sub_app("To Court the King helpers.")
app.add_typer(court_app, name="court")
culdcept_app = _sub_app("Culdcept-style game helpers.")
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
    show_version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Print the version and exit."),
) -> None:
    """Print-and-play PDFs for board games, and scorers for the games you played."""


@app.command()
def build(
    target: Optional[List[str]] = typer.Argument(None, help="Game ids (see `kkprint list`), `all` (default) or deck files."),
    lang: Optional[Lang] = typer.Option(None, "--lang", case_sensitive=False, help="Language of printed labels: ja or en (default: KKPRINT_LANG, the config file, the locale)."),
    paper: Optional[PaperName] = typer.Option(None, "--paper", case_sensitive=False, help="Paper size (default: KKPRINT_PAPER, the config file, a deck's own, the locale)."),
    out: Path = typer.Option(Path("output"), "--out", help="Folder the PDFs are written to."),
    duplex: Optional[DuplexMode] = typer.Option(None, "--duplex", case_sensitive=False, help="How backs are printed (default long-edge)."),
    offset_x: Optional[float] = typer.Option(None, "--back-offset-x", help="Shift backs right by this many mm."),
    offset_y: Optional[float] = typer.Option(None, "--back-offset-y", help="Shift backs up by this many mm."),
    players: Optional[int] = typer.Option(None, "--players", help="Print only what an N-player game uses (court)."),
    print_shop: bool = typer.Option(False, "--print-shop", help="One card a page for a print shop: bleed, TrimBox and "
                                                                "BleedBox, crop marks, CMYK (decks and the games' cards)."),
    only: Optional[str] = typer.Option(None, "--only", help="Decks: only these cards (names or numbers, e.g. 1-3,Knight)."),
    allow_outside: bool = typer.Option(False, "--allow-outside", help="Decks: allow files outside the deck's folder "
                                                                      "(data, fonts, icons, pictures)."),
    gap: Optional[float] = typer.Option(None, "--gap", min=0, max=30, help="Games: mm of space between cards."),
    cut_marks: Optional[CutMarks] = typer.Option(None, "--cut-marks", case_sensitive=False, help="Cut marks in the margins, or none."),
    greyscale: bool = typer.Option(False, "--greyscale", help="Every colour and picture in grey: an ink-saving "
                                                              "proof (files end in -grey)."),
    guides: bool = typer.Option(False, "--guides", help="Draw trim (red), bleed (blue) and safe-zone (green) lines."),
) -> None:
    """Build PDFs for games (all by default) or deck files into the output folder; prints each file written."""
    from kkprint.build import BuildOptions, build_targets, resolve

    offset = None if offset_x is None and offset_y is None else (offset_x or 0.0, offset_y or 0.0)
    if offset is not None and not all(math.isfinite(v) and abs(v) <= 20 for v in offset):
        raise InputError(Msg('a back offset is a few millimetres, between -20 and 20'), source="--back-offset-x/-y")
    options = BuildOptions(lang=settings.language(lang), paper_name=settings.paper(paper, fall_back=False), out_dir=out, duplex=duplex,
                           back_offset_mm=offset, players=players, print_shop=print_shop, only=only,
                           allow_outside=allow_outside, gap_mm=gap, cut_marks=cut_marks, greyscale=greyscale,
                           guides=guides, jobs=_jobs())
    for path in build_targets(resolve(target or ["all"]), options):
        typer.echo(str(path))


def _jobs() -> int:
    """Processes for a build: KKPRINT_JOBS, else the machine's cores (at most 4)."""
    value = os.environ.get("KKPRINT_JOBS", "")
    if value.strip().isdigit() and int(value) >= 1:
        return min(int(value), 16)
    return max(1, min(4, os.cpu_count() or 1))


@new_app.command("deck")
def new_deck(
    name: str = typer.Argument(..., help="Name of the deck; NAME.yaml and NAME.csv are written."),
    folder: Path = typer.Option(Path("."), "--dir", help="Folder to write them in."),
) -> None:
    """Write a small, commented starter deck (YAML + CSV) that builds at once."""
    from kkprint.deck.starter import write_starter

    for path in write_starter(name, folder):
        typer.echo(str(path))


@new_app.command("tally")
def new_tally(
    game: str = typer.Argument(..., help="kardinal, webofpower, webofpower-board, court or culdcept."),
    folder: Path = typer.Option(Path("."), "--dir", help="Folder to write it in."),
) -> None:
    """Write a commented tally (or state) file that the game's scorer accepts; fill in your game."""
    from kkprint.outputs import write_new
    from kkprint.paths import EXAMPLES_DIR
    from kkprint.scorers import scorer

    example = scorer(game, source="new tally").example
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise InputError(Msg("cannot create the folder: {reason}", reason=err.strerror), source=str(folder)) from None
    path = folder / example
    write_new(path, (EXAMPLES_DIR / example).read_text(encoding="utf-8"))
    typer.echo(str(path))


@app.command()
def schema() -> None:
    """Print the JSON Schema of the deck file format (for editors that complete and check YAML)."""
    from kkprint.deck.model import DeckFile

    typer.echo(json.dumps(DeckFile.model_json_schema(), indent=2, ensure_ascii=False))


@app.command()
def calibrate(
    paper: Optional[PaperName] = typer.Option(None, "--paper", case_sensitive=False, help="Paper size: a4 or letter (default: KKPRINT_PAPER, the config file, the locale)."),
    out: Path = typer.Option(Path("output"), "--out", help="Folder the sheet is written to."),
    duplex: DuplexMode = typer.Option(DuplexMode.LONG_EDGE, "--duplex", case_sensitive=False, help="long-edge or short-edge."),
    save: Optional[List[float]] = typer.Option(None, "--save", help="Save the offset you read: --save X --save Y."),
    lang: Optional[Lang] = typer.Option(None, "--lang", case_sensitive=False, help="Language: ja or en (default: KKPRINT_LANG, the config file, the locale)."),
) -> None:
    """Print a duplex alignment sheet; read your printer's back-side offset off it and --save it."""
    from kkprint.calibrate import save_offset, write_sheet

    if save:
        typer.echo(str(save_offset(save)))
        return
    typer.echo(str(write_sheet(out, settings.paper(paper), duplex, settings.language(lang))))


@app.command()
def preview(
    target: List[str] = typer.Argument(..., help="Game ids or deck files, as for `build`."),
    out: Path = typer.Option(Path("output/preview"), "--out", help="Folder for the PNG files."),
    dpi: int = typer.Option(80, "--dpi", min=20, max=300, help="Resolution of the pictures."),
    lang: Optional[Lang] = typer.Option(None, "--lang", case_sensitive=False, help="Language of printed labels: ja or en (default: KKPRINT_LANG, the config file, the locale)."),
    only: Optional[str] = typer.Option(None, "--only", help="Decks: only these cards."),
    cards: bool = typer.Option(False, "--cards", help="Decks: one picture per card (front, then back) instead of sheets."),
    guides: bool = typer.Option(False, "--guides", help="Draw trim, bleed and safe-zone lines."),
    greyscale: bool = typer.Option(False, "--greyscale", help="Show the ink-saving grey version."),
) -> None:
    """Write PNG pictures of every page (no PDF viewer needed)."""
    from kkprint.build import BuildOptions, resolve
    from kkprint.preview import preview_targets

    chosen = resolve(target)
    if cards and any(not t.id.endswith((".yaml", ".yml")) for t in chosen):
        raise InputError(Msg('--cards pictures single cards of deck files; games preview as sheets'), source="--cards")
    options = BuildOptions(lang=settings.language(lang), only=only, card_pages=cards, guides=guides, greyscale=greyscale)
    for path in preview_targets(chosen, options, out, dpi):
        typer.echo(str(path))


@app.command()
def export(
    deck: Path = typer.Argument(..., help="The deck file."),
    png: bool = typer.Option(False, "--png", help="One PNG per card, front and back (the default when nothing else is asked)."),
    tts: bool = typer.Option(False, "--tts", help="Tabletop Simulator deck sheets (at most 10×7 cards, 4096 px) and the back."),
    showcase: Optional[str] = typer.Option(None, "--showcase", help="A fanned hand of these cards (names or numbers, "
                                                                     "e.g. 1,3,Knight) as one picture."),
    name: Optional[str] = typer.Option(None, "--name", help="File names from card fields, e.g. '${id}-${name}'; "
                                                             "${n} is the card's number (default: ${n}-${name})."),
    dpi: int = typer.Option(300, "--dpi", min=36, max=1200, help="Resolution of the pictures."),
    bleed: bool = typer.Option(False, "--bleed", help="Include the print-shop bleed around each card."),
    out: Path = typer.Option(Path("output/export"), "--out", help="Folder for the pictures."),
    lang: Optional[Lang] = typer.Option(None, "--lang", case_sensitive=False, help="Language of printed labels: ja or en (default: KKPRINT_LANG, the config file, the locale)."),
    only: Optional[str] = typer.Option(None, "--only", help="Only these cards (names or numbers)."),
    allow_outside: bool = typer.Option(False, "--allow-outside", help="Allow files outside the deck's folder."),
) -> None:
    """Pictures of a deck's cards: PNGs for print-on-demand, Tabletop Simulator sheets, a showcase."""
    from kkprint.deck.export import ExportOptions, export_deck

    options = ExportOptions(out_dir=out, dpi=dpi, name=name, png=png or not (tts or showcase is not None), tts=tts,
                            showcase=showcase, bleed=bleed, lang=settings.language(lang), allow_outside=allow_outside, only=only)
    for path in export_deck(deck, options):
        typer.echo(str(path))


@app.command()
def watch(
    deck: Path = typer.Argument(..., help="The deck file to rebuild whenever it, its data or its art changes."),
    out: Path = typer.Option(Path("output"), "--out", help="Folder the PDF is written to."),
    previews: bool = typer.Option(True, "--previews/--no-previews", help="Also write PNG previews to OUT/preview."),
    lang: Optional[Lang] = typer.Option(None, "--lang", case_sensitive=False, help="Language of printed labels: ja or en (default: KKPRINT_LANG, the config file, the locale)."),
    guides: bool = typer.Option(False, "--guides", help="Draw trim, bleed and safe-zone lines."),
    allow_outside: bool = typer.Option(False, "--allow-outside", help="Allow files outside the deck's folder."),
) -> None:
    """Rebuild a deck's PDF and previews within a second of every save; errors are shown and watching goes on."""
    from kkprint.build import BuildOptions
    from kkprint.deck.watch import watch_deck

    options = BuildOptions(lang=settings.language(lang), out_dir=out, guides=guides, allow_outside=allow_outside)
    gc.enable()  # runs for hours; see kkprint.__main__
    watch_deck(deck, options, out / "preview" if previews else None)


config_app = _sub_app("Your defaults: language and paper.")
app.add_typer(config_app, name="config")


@app.command()
def serve(
    port: int = typer.Option(8765, "--port", min=1, max=65535, help="Port to listen on."),
    lan: bool = typer.Option(False, "--lan", help="Listen on the local network too, and show its address as a QR code "
                                                  "(the list of games needs the key in that address)."),
    lang: LangOption = None,
) -> None:
    """The score pad in a browser: a page for every game, on every phone at the table."""
    from kkprint.pad.serve import serve as run

    gc.enable()  # runs for hours; see kkprint.__main__
    run(port, lan, _language(lang))


@config_app.command("set")
def config_set(
    key: str = typer.Argument(..., help="lang, paper or offset."),
    value: str = typer.Argument(..., help="lang: ja or en; paper: a4, letter or a3; offset: the printer's back-side shift in mm, x,y (e.g. 0.8,-0.4)."),
) -> None:
    """Save a default in your config folder (a flag or KKPRINT_LANG/KKPRINT_PAPER still wins)."""
    typer.echo(str(settings.set_value(key, value)))


@config_app.command("show")
def config_show() -> None:
    """The defaults in force, and where each comes from."""
    typer.echo(settings.show(_language(None)))


@app.command("list")
def list_targets() -> None:
    """Every buildable definition and what it produces."""
    from kkprint.build import targets

    for target in targets().values():
        typer.echo(f"{target.id:<18} {tr(target.summary) if isinstance(target.summary, str) else target.summary}")
        for product in target.products:
            typer.echo(f"{'':<18}   {product if product.endswith('.pdf') else product + '-LANG-PAPER.pdf'}")


def _read_input(path: Path) -> tuple[object, str]:
    """A tally/state file, or standard input for ``-``; parsed as YAML (which reads JSON too)."""
    if str(path) == "-":
        stream = getattr(sys.stdin, "buffer", None)  # a test's StringIO has no bytes underneath
        data = stream.read(MAX_INPUT_BYTES + 1) if stream else sys.stdin.read(MAX_INPUT_BYTES + 1).encode("utf-8")
        if len(data) > MAX_INPUT_BYTES:
            raise InputError(Msg('is larger than {MAX_INPUT_BYTES:,} bytes; input is limited to that', MAX_INPUT_BYTES=MAX_INPUT_BYTES), source="<stdin>")
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as err:
            raise InputError(Msg('is not UTF-8 text (byte {start})', start=err.start), source="<stdin>") from None
        if not text.strip():
            raise InputError(Msg('is empty'), source="<stdin>")
        return parse_yaml(text, "<stdin>"), "<stdin>"
    return load_yaml_file(path), str(path)


def _language(flag) -> str:
    """The command's language, used from here on for every message, error lines included."""
    from kkprint import i18n

    lang = settings.language(flag)
    i18n.use(lang)
    return lang


def _emit(data: dict, shown, as_json: bool) -> None:
    """The JSON object, or what a person reads: a rich table at a terminal, plain text elsewhere."""
    if as_json:
        typer.echo(json.dumps(data, ensure_ascii=False, indent=2))
    elif isinstance(shown, str):
        typer.echo(shown)
    else:
        shown.print()


def _score_file(game: str, path: Path, as_json: bool, lang, rules=None) -> None:
    """Read a tally or a state, score it, print the JSON object or the text for people."""
    from kkprint.scorers import scorer

    lang = _language(lang)
    rules = rules or scorer(game).load()
    data, source = _read_input(path)
    result = rules.score(data, source)
    _emit(rules.as_json(result, lang), rules.as_text(result, lang), as_json)


@scorer_app.command("kardinal", epilog="""\b
Tally format (YAML or JSON; `kkprint new tally kardinal` writes one):
  players:
    - name: Aki
      lands:                  # English, Japanese or German names
        France: {cards: 5, arms: 4}
        Denmark: {cards: 2, arms: {cross: 1, fan: 1}}
      ships: 7
      carriages: 3
      minus_two: 1""")
def scorer_kardinal(
    tally: Optional[Path] = typer.Argument(None, help="Tally file (YAML or JSON; - for stdin). Omit to be asked land by land."),
    as_json: AsJson = False,
    sheet: Optional[Path] = typer.Option(None, "--sheet", help="Also write the filled 決算チャート to this PDF."),
    lang: LangOption = None,
    paper: Optional[PaperName] = typer.Option(None, "--paper", case_sensitive=False, help="Paper of the sheet (default: KKPRINT_PAPER, the config file, the locale)."),
    deck: Optional[Path] = typer.Option(None, "--deck", help="Another K&K definition (e.g. a corrected copy of "
                                                              "data/kardinal/game.yaml); its cards set the limits."),
    check: CheckAgainst = typer.Option(CheckAgainst.CARDS, "--check", case_sensitive=False, help="What a tally is checked against: cards "
                                       "(our card list: which arms and roads are on which card) or sources (only what "
                                       "the rules say: cards per land, at most 2 arms and 1 road a card) for another "
                                       "edition's cards."),
    save: Optional[Path] = typer.Option(None, "--save", help="At the prompt: keep what is typed in this tally file, "
                                                             "after every answer (also on Ctrl-C)."),
    resume: Optional[Path] = typer.Option(None, "--resume", help="At the prompt: go on from a tally saved with --save."),
) -> None:
    """Kardinal & König final scores, laid out like the 決算チャート."""
    from kkprint.games.kardinal import service
    from kkprint.games.kardinal.model import DEFAULT_PATH, load_game
    from kkprint.scorers import scorer

    lang = _language(lang)
    game = load_game(deck or DEFAULT_PATH)
    rules = scorer("kardinal").load(deck, check.value)
    if sheet is not None:  # refuse a bad destination before anything is asked or printed
        check_destination(sheet, b"%PDF")
    if tally is not None and (save or resume):
        raise InputError(Msg("--save and --resume are for the prompt; leave out the tally file"), source="scorer kardinal")
    if tally is None:
        from kkprint.terminal import prompt_kardinal

        data, source = prompt_kardinal(game, rules, lang, save=save, resume=resume, read=_read_input), "<prompt>"
    else:
        data, source = _read_input(tally)
    result = rules.score(data, source)
    _emit(rules.as_json(result, lang), rules.as_text(result, lang), as_json)
    if sheet is not None:
        written = service.write_sheet(sheet, game, result, lang, settings.paper(paper))
        typer.echo(tr("wrote {path}", path=written), err=True)


@scorer_app.command("webofpower", epilog="""\b
State format (`kkprint new tally webofpower` writes one):
  phase: final                # interim | final
  players: [Aki, Ben, Chie]
  monasteries: ["11..22......", "............", "............", "............"]
  cardinals: {A: [1, 0, 0]}
  interim: [12, 7, 5]""")
def scorer_webofpower(
    state: Path = typer.Argument(..., help="Marked trump map state (YAML or JSON; - for stdin)."),
    as_json: AsJson = False,
    lang: LangOption = None,
) -> None:
    """Web of Power on the trump map: interim or final scoring of a marked map."""
    _score_file("webofpower", state, as_json, lang)


@scorer_app.command("webofpower-board", epilog="""\b
Tally format (`kkprint new tally webofpower-board` writes one):
  phase: final
  players: [Aki, Ben, Chie]
  regions:
    Aragon: {monasteries: [3, 1, 0], cardinals: [2, 0, 0]}
    Burgund: {monasteries: [2, 2, 1], cardinals: [1, 1, 0]}
  alliances: [[Aragon, Burgund]]
  roads: [5, [3], 0]          # a run, or a list of separate runs
  interim: [12, 9, 11]""")
def scorer_webofpower_board(
    tally: Path = typer.Argument(..., help="Per-region tally of the board game (YAML or JSON; - for stdin)."),
    as_json: AsJson = False,
    lang: LangOption = None,
) -> None:
    """Web of Power board game: interim or final scoring from per-region tallies."""
    _score_file("webofpower-board", tally, as_json, lang)


@court_app.command("eligible")
def court_eligible(
    dice: List[str] = typer.Argument(..., help="The dice result, e.g. 6 6 6 2 5."),
    as_json: AsJson = False,
    lang: LangOption = None,
) -> None:
    """Which characters a dice result may take, and why the others may not."""
    from kkprint.games.court import report, service
    from kkprint.games.court.model import load_court

    lang = _language(lang)
    game = load_court()
    result = service.eligible(game, service.parse_dice(list(dice), Msg("dice"), Msg("arguments")))
    _emit(report.eligibility_json(result, lang), report.eligibility_text(game, result, lang), as_json)


@scorer_app.command("court", epilog="""\b
Results format (`kkprint new tally court` writes one):
  players:                    # in rolling order
    - {name: Aki, dice: [6, 6, 6, 2, 5]}
    - {name: Ben, dice: [5, 5, 5, 5, 1]}
  queen: Ben""")
def scorer_court(
    results: Path = typer.Argument(..., help="Final-round results (YAML or JSON; - for stdin)."),
    as_json: AsJson = False,
    lang: LangOption = None,
) -> None:
    """To Court the King, final round: who takes the King."""
    _score_file("court", results, as_json, lang)


@scorer_app.command("culdcept", epilog="""\b
State format (`kkprint new tally culdcept` writes one):
  players: [Aki, Ben]
  squares:                    # the 13 squares in circle order
    - {card: "7", owner: Aki}
    - {cards: ["5", "6"], owner: Ben}
    - {}""")
def scorer_culdcept(
    state: Path = typer.Argument(..., help="The 13 squares at the end of the game (YAML or JSON; - for stdin)."),
    as_json: AsJson = False,
    lang: LangOption = None,
) -> None:
    """Culdcept-style game: squares per player, and the winner or a draw."""
    _score_file("culdcept", state, as_json, lang)


@culdcept_app.command("battle")
def culdcept_battle(
    on_square: str = typer.Argument(..., help="The card(s) on the square: K, 7, or a support like 5+6."),
    offered: str = typer.Argument(..., help="The card(s) offered: A, Q, or a support like A+10."),
    own: bool = typer.Option(False, "--own", help="The square is the mover's own (swapping is always allowed)."),
    as_json: AsJson = False,
    lang: LangOption = None,
) -> None:
    """Does the offered card or support take the square, and why."""
    from kkprint.games.culdcept.rules import RuleError, battle, play

    lang = _language(lang)
    try:
        defender, attacker = play(on_square), play(offered)
    except RuleError as err:
        raise InputError(err.args[0], source=Msg("arguments")) from None
    result = battle(defender, attacker, own)
    reason = result.reason.render(lang)
    data = {"on_square": str(defender), "offered": str(attacker), "taken": result.taken, "reason": reason}
    verdict = tr("taken: {reason}", reason=reason) if result.taken else tr("not taken: {reason}", reason=reason)
    _emit(data, verdict, as_json)


def _lang_in(args: list[str]) -> str | None:
    """``--lang X`` as typed anywhere on the line, known before Click parses it (for help and
    usage errors); anything odd is left for Click to refuse."""
    for index, arg in enumerate(args):
        value = arg.split("=", 1)[1] if arg.startswith("--lang=") else (
            args[index + 1] if arg == "--lang" and index + 1 < len(args) else None)
        if value and value.lower() in ("ja", "en"):
            return value.lower()
    return None


def _click_command(args: list[str]):
    """The Click command tree to run ``args`` with. Typer makes every command (its signature, its
    type hints, its parameters) before it runs one; when the line starts with a command's name,
    only that command is made (~5 ms of every run). Help, ``--version`` and a mistyped name,
    which list or suggest commands, get them all."""
    name = args[0] if args and not args[0].startswith("-") else None
    commands = [info for info in app.registered_commands
                if (info.name or typer.main.get_command_name(info.callback.__name__)) == name]
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


def main() -> None:
    """Run the app; bad input ends with one line on stderr and exit code 2, never a traceback.
    Ctrl-C ends with 130, SIGTERM/SIGHUP with 128 + the signal, each after removing what a build
    had half-written. (``kkprint.__main__`` runs it as a process of its own.)"""
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), _terminate)
    try:
        _language(_lang_in(sys.argv[1:]))  # usage errors and help speak the user's language too
        from kkprint import usage

        usage.install()
        command = _click_command(sys.argv[1:])
        usage.translate_help(command)
        code = command.main(standalone_mode=False, prog_name="kkprint")
        if code == 130:  # typer turns Ctrl-C into this exit code when it is not exiting itself
            raise KeyboardInterrupt
        if isinstance(code, int) and code:
            sys.exit(code)
    except Terminated as err:
        typer.echo(tr("kkprint: terminated; nothing half-written was kept"), err=True)
        sys.exit(128 + err.signum)
    except InputError as err:
        typer.echo(tr("kkprint: error: {message}", message=err), err=True)
        sys.exit(2)
    except typer.Abort:
        typer.echo(tr("kkprint: aborted"), err=True)
        sys.exit(1)
    except KeyboardInterrupt:
        typer.echo("\n" + tr("kkprint: interrupted; nothing half-written was kept"), err=True)
        sys.exit(130)
    except SystemExit:
        raise
    except OSError as err:  # an output folder that cannot be written, a full disk: say which file
        where = f"{err.filename}: " if err.filename else ""
        typer.echo(" ".join(tr("kkprint: error: {message}", message=f"{where}{err.strerror or err}").split()), err=True)
        sys.exit(2)
    except typer.TyperException as err:  # usage errors: one line naming the option, exit code 2
        if type(err).__name__ == "NoArgsIsHelpError" or not hasattr(err, "format_message"):
            err.show()  # a bare command: its help is the most useful answer
        else:
            context = getattr(err, "ctx", None)
            command = context.command_path if context is not None else "kkprint"  # never the mistyped word
            from kkprint.usage import usage_error

            message = usage_error(" ".join(err.format_message().replace("Value error, ", "").split()))
            typer.echo(tr("kkprint: error: {message} (see '{command} --help')", message=message, command=command), err=True)
        sys.exit(getattr(err, "exit_code", 2))
    except Exception as err:  # noqa: BLE001 - last line of defence; the message is still one line
        if os.environ.get("KKPRINT_DEBUG"):
            raise
        detail = " ".join(str(err).split())[:300]
        typer.echo(tr("kkprint: internal error: {kind}: {detail} (set KKPRINT_DEBUG=1 for details)",
                      kind=type(err).__name__, detail=detail), err=True)
        sys.exit(1)
