"""``scorer GAME``, ``new tally``, ``court eligible`` and ``culdcept battle``: scoring at a terminal."""

from __future__ import annotations

import os
from pathlib import Path

import typer

from kkprint.base import settings
from kkprint.base.choices import CheckAgainst, PaperName
from kkprint.base.errors import InputError, OsReason
from kkprint.base.i18n import Msg, tr
from kkprint.base.outputs import check_destination
from kkprint.base.pathnames import shown
from kkprint.cli.common import AsJson, LangOption, emit, language, read_input
from kkprint.cli.terminal import echo_paths, note

# What a tally our card list refuses is told here: how to check it against the sources alone.
CHECK_THE_SOURCES = Msg(" (cards of another edition? check with --check sources)")

KARDINAL_FORMAT = """\b
Tally format (YAML or JSON; `kkprint new tally kardinal` writes one):
  players:
    - name: Aki
      lands:                  # English, Japanese or German names
        France: {cards: 5, arms: 4}
        Denmark: {cards: 2, arms: {cross: 1, fan: 1}}
      ships: 7
      carriages: 3
      minus_two: 1"""

WEBOFPOWER_FORMAT = """\b
State format (`kkprint new tally webofpower` writes one):
  phase: final                # interim | final
  players: [Aki, Ben, Chie]
  monasteries:                # the map's rows, top to bottom
    - "11..22......"
    - "............"
    - "............"
    - "............"
  cardinals: {A: [1, 0, 0]}
  interim: [12, 7, 5]"""

WEBOFPOWER_BOARD_FORMAT = """\b
Tally format (`kkprint new tally webofpower-board` writes one):
  phase: final
  players: [Aki, Ben, Chie]
  regions:
    Aragon: {monasteries: [3, 1, 0], cardinals: [2, 0, 0]}
    Burgund: {monasteries: [2, 2, 1], cardinals: [1, 1, 0]}
  alliances: [[Aragon, Burgund]]
  roads: [5, [3], 0]          # a run, or a list of separate runs
  interim: [12, 9, 11]"""

COURT_FORMAT = """\b
Results format (`kkprint new tally court` writes one):
  players:                    # in rolling order
    - {name: Aki, dice: [6, 6, 6, 2, 5]}
    - {name: Ben, dice: [5, 5, 5, 5, 1]}
  queen: Ben"""

CULDCEPT_FORMAT = """\b
State format (`kkprint new tally culdcept` writes one):
  players: [Aki, Ben]
  squares:                    # the 13 squares in circle order
    - {card: "7", owner: Aki}
    - {cards: ["5", "6"], owner: Ben}
    - {}"""


def new_tally(
    game: str = typer.Argument(..., help="kardinal, webofpower, webofpower-board, court or culdcept."),
    folder: Path = typer.Option(Path("."), "--dir", help="Folder to write it in."),
    lang: LangOption = None,
) -> None:
    """Write a commented tally (or state) file that the game's scorer accepts; fill in your game."""
    from kkprint.base.outputs import write_new
    from kkprint.base.paths import EXAMPLES_DIR
    from kkprint.scoring.scorers import scorer

    example = scorer(game, source="new tally").example
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise InputError(Msg("cannot create the folder: {reason}", reason=OsReason(err)), source=str(folder)) from None
    path = folder / example
    commented = EXAMPLES_DIR / language(lang) / example  # the same file, commented in the user's language
    write_new(path, (commented if commented.is_file() else EXAMPLES_DIR / example).read_text(encoding="utf-8"))
    echo_paths([path])


def score_file(game: str, path: Path, as_json: bool, lang, rules=None) -> None:
    """Read a tally or a state, score it, print the JSON object or the text for people."""
    from kkprint.scoring.scorers import scorer

    lang = language(lang)
    rules = rules or scorer(game).load()
    data, source = read_input(path)
    result = rules.score(data, source)
    emit(rules.as_json(result, lang), rules.as_text(result, lang), as_json)


def scorer_kardinal(
    tally: Path | None = typer.Argument(
        None, help="Tally file (YAML or JSON; - for stdin). Omit to be asked land by land."
    ),
    as_json: AsJson = False,
    sheet: Path | None = typer.Option(None, "--sheet", help="Also write the filled scoring chart to this PDF."),
    lang: LangOption = None,
    paper: PaperName | None = typer.Option(
        None,
        "--paper",
        case_sensitive=False,
        help="Paper of the sheet (default: KKPRINT_PAPER, the config file, the locale).",
    ),
    deck: Path | None = typer.Option(
        None,
        "--deck",
        help="Another K&K definition (e.g. a corrected copy of data/kardinal/game.yaml); its cards set the limits.",
    ),
    check: CheckAgainst = typer.Option(
        CheckAgainst.CARDS,
        "--check",
        case_sensitive=False,
        help="What a tally is checked against: cards "
        "(our card list: which arms and roads are on which card) or sources (only what "
        "the rules say: cards per land, at most 2 arms and 1 road a card) for another "
        "edition's cards.",
    ),
    save: Path | None = typer.Option(
        None,
        "--save",
        help="At the prompt: keep what is typed in this tally file, after every answer (also on Ctrl-C).",
    ),
    resume: Path | None = typer.Option(None, "--resume", help="At the prompt: go on from a tally saved with --save."),
) -> None:
    """Kardinal & König final scores, laid out like the scoring chart."""
    from kkprint.games.kardinal.model import DEFAULT_PATH, load_game
    from kkprint.scoring.scorers import scorer

    lang_code = language(lang)
    game = load_game(deck or DEFAULT_PATH)
    rules = scorer("kardinal").load(deck, check.value, CHECK_THE_SOURCES)
    if sheet is not None:  # refuse a bad destination before anything is asked or printed
        sheet = pdf_named(sheet)
        check_destination(sheet, b"%PDF")
    if tally is not None and (save or resume):
        raise InputError(
            Msg("--save and --resume are for the prompt; leave out the tally file"), source="scorer kardinal"
        )
    data: object
    if tally is None:
        from kkprint.cli.prompt import prompt_kardinal

        data, source = prompt_kardinal(game, rules, lang_code, save=save, resume=resume, read=read_input), "<prompt>"
    else:
        data, source = read_input(tally)
    result = rules.score(data, source)
    emit(rules.as_json(result, lang_code), rules.as_text(result, lang_code), as_json)
    if sheet is not None:
        from kkprint.games.kardinal import chart  # the PDF engine loads only for a sheet

        written = chart.write_sheet(sheet, game, result, lang_code, settings.paper(paper))
        note(tr("wrote {path}", path=shown(written)))


def pdf_named(path: Path) -> Path:
    """``--sheet chart`` writes ``chart.pdf``, as every PDF kkprint writes ends in .pdf; a name
    ending in another kind (``chart.png``) is refused rather than written as a PDF. A name that
    exists (``/dev/null``, an old chart) is left as it is, for the destination check to judge."""
    if path.suffix.lower() == ".pdf" or os.path.lexists(path):  # what exists is checked as it is named
        return path
    if path.suffix and not path.suffix[1:].isdigit():  # (a version number is no kind of file: chart-1.2)
        raise InputError(Msg("writes a PDF: give a name ending in .pdf"), source=str(path))
    return path.with_name(path.name + ".pdf")


def scorer_webofpower(
    state: Path = typer.Argument(..., help="Marked trump map state (YAML or JSON; - for stdin)."),
    as_json: AsJson = False,
    lang: LangOption = None,
) -> None:
    """Web of Power on the trump map: interim or final scoring of a marked map."""
    score_file("webofpower", state, as_json, lang)


def scorer_webofpower_board(
    tally: Path = typer.Argument(..., help="Per-region tally of the board game (YAML or JSON; - for stdin)."),
    as_json: AsJson = False,
    lang: LangOption = None,
) -> None:
    """Web of Power board game: interim or final scoring from per-region tallies."""
    score_file("webofpower-board", tally, as_json, lang)


def _dice_words(words: list[str]) -> list[str]:
    """The dice as typed: ``6 6 6 2 5`` or, run together, ``66625`` (every digit one die)."""
    import unicodedata

    dice: list[str] = []
    for word in words:
        plain = unicodedata.normalize("NFKC", word).strip()
        dice.extend(plain if len(plain) > 1 and plain.isdigit() and set(plain) <= set("123456") else [word])
    return dice


def court_eligible(
    dice: list[str] = typer.Argument(..., help="The dice result, e.g. 6 6 6 2 5 (or 66625)."),
    as_json: AsJson = False,
    lang: LangOption = None,
) -> None:
    """Which characters a dice result may take, and why the others may not."""
    from kkprint.games.court import report, service
    from kkprint.games.court.model import load_court

    lang_code = language(lang)
    game = load_court()
    result = service.eligible(game, service.parse_dice(_dice_words(dice), Msg("dice"), Msg("arguments")))
    emit(report.eligibility_json(result, lang_code), report.eligibility_text(game, result, lang_code), as_json)


def scorer_court(
    results: Path = typer.Argument(..., help="Final-round results (YAML or JSON; - for stdin)."),
    as_json: AsJson = False,
    lang: LangOption = None,
) -> None:
    """To Court the King, final round: who takes the King."""
    score_file("court", results, as_json, lang)


def scorer_culdcept(
    state: Path = typer.Argument(..., help="The 13 squares at the end of the game (YAML or JSON; - for stdin)."),
    as_json: AsJson = False,
    lang: LangOption = None,
) -> None:
    """Culdcept-style game: squares per player, and the winner or a draw."""
    score_file("culdcept", state, as_json, lang)


def culdcept_battle(
    on_square: str = typer.Argument(..., help="The card(s) on the square: K, 7, or a support like 5+6."),
    offered: str = typer.Argument(..., help="The card(s) offered: A, Q, or a support like A+10."),
    own: bool = typer.Option(False, "--own", help="The square is the mover's own (swapping is always allowed)."),
    as_json: AsJson = False,
    lang: LangOption = None,
) -> None:
    """Does the offered card or support take the square, and why."""
    from kkprint.games.culdcept.rules import RuleError, battle, play

    lang_code = language(lang)
    try:
        defender, attacker = play(on_square), play(offered)
    except RuleError as err:
        raise InputError(err.args[0], source=Msg("arguments")) from None
    result = battle(defender, attacker, own)
    reason = result.reason.render(lang_code)
    data = {"on_square": str(defender), "offered": str(attacker), "taken": result.taken, "reason": reason}
    verdict = tr("taken: {reason}", reason=reason) if result.taken else tr("not taken: {reason}", reason=reason)
    emit(data, verdict, as_json)
