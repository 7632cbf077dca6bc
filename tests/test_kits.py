"""Each game a complete print-and-play kit (issue 30): the start file's cover names exactly the files
the build wrote and says how to print each; the rules are on paper, readable at the table; backs
that carry content survive every duplex mode and land behind their fronts; --print-shop covers every
card. All read back from the PDFs: words and sizes with pdfplumber, placements with pypdf."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pdfplumber
import pytest
from conftest import run_cli
from pypdf import PdfReader
from pypdf.generic import ContentStream
from reportlab.lib.units import mm

from kkprint.cli.targets import resolve
from kkprint.engine.geometry import DuplexMode
from kkprint.engine.job import BuildOptions, build_targets
from kkprint.games import BUILD_TARGETS
from kkprint.games.kit import load_rules

COVER_TITLE = {"ja": "印刷して遊ぶキット", "en": "print-and-play kit"}


def by_target(written: list[Path]) -> dict[str, list[Path]]:
    """The files of a multi-target build, grouped by the start file that opens each target's."""
    groups: dict[str, list[Path]] = {}
    current = None
    for path in written:
        match = re.match(r"(.+)-start-", path.name)
        if match:
            current = match.group(1)
            groups[current] = []
        assert current is not None, f"{path.name} comes before any start file"
        groups[current].append(path)
    return groups


def page_text(pdf: Path, index: int) -> str:
    with pdfplumber.open(pdf) as document:
        return document.pages[index].extract_text() or ""


def cover_table(start: Path, lang: str) -> list[list[str]]:
    """The cover's table of files as printed, a cell's lines apart (header row first)."""
    header, after = {"en": ("File", "Print every page"), "ja": ("ファイル", "どのページも")}[lang]
    with pdfplumber.open(start) as document:
        page = document.pages[0]
        top = page.search(header)[0]["top"] - 3
        bottom = page.search(after)[0]["top"] - 1
        return page.crop((0, top, page.width, bottom)).extract_table()  # (the picture's lines aside)


def cover_rows(start: Path, lang: str) -> dict[str, tuple[str, str, str]]:
    """The cover's table of files, read back cell by cell: file name -> (pages, contents, how)."""
    table = cover_table(start, lang)
    joiner = " " if lang == "en" else ""

    def cell(text: str) -> str:  # words break at spaces (a name too long for any column, after a hyphen)
        return re.sub(r"-\n", "-", text).replace("\n", joiner)

    return {cell(row[0]): (cell(row[1]), cell(row[2]), cell(row[3])) for row in table[1:]}


@pytest.fixture(scope="module", params=[("ja", "a4"), ("en", "a4"), ("ja", "letter"), ("en", "letter")])
def full_build(request, tmp_path_factory) -> tuple[str, str, list[Path]]:
    lang, paper = request.param
    out = tmp_path_factory.mktemp(f"kit-{lang}-{paper}")
    return lang, paper, build_targets(resolve(["all"]), BuildOptions(out_dir=out, lang=lang, paper_name=paper))


def test_every_game_opens_with_a_cover_naming_exactly_the_files_built(full_build):
    lang, paper, written = full_build
    groups = by_target(written)
    assert sorted(groups) == sorted(BUILD_TARGETS)  # every game has its start file, listed first
    for game, files in groups.items():
        start = files[0]
        assert start.name == f"{game}-start-{lang}-{paper}.pdf"
        cover = page_text(start, 0)
        assert COVER_TITLE[lang] in cover and load_rules(game).game(lang) in cover
        named = set(cover_rows(start, lang))
        assert named == {path.name for path in files}, (game, named)
        assert all(path.exists() for path in files)


def test_the_cover_counts_each_files_pages_and_where_the_rules_are(full_build):
    lang, _paper, written = full_build
    for files in by_target(written).values():
        start = files[0]
        rows = cover_rows(start, lang)
        for path in files:
            pages = len(PdfReader(path).pages)
            expected = "1" if pages == 1 else f"1{'〜' if lang == 'ja' else '–'}{pages}"
            assert rows[path.name][0] == expected, (path.name, rows[path.name])
        rules_first = next(
            index
            for index in range(1, len(PdfReader(start).pages))
            if _rules_title(start, lang) in page_text(start, index)
        )
        assert rules_first == 1  # the rules follow the cover at once


def _rules_title(start: Path, lang: str) -> str:
    game = start.name.split("-start-")[0]
    return load_rules(game).rules[0].heading(lang)  # the first heading of the rules


def test_the_rules_are_in_the_builds_language_and_at_least_8_pt(full_build):
    lang, _paper, written = full_build
    for game, files in by_target(written).items():
        rules = load_rules(game)
        headings = [block.heading(lang) for block in rules.rules if block.heading]
        with pdfplumber.open(files[0]) as document:
            rule_pages = document.pages[1:]
            text = "".join(page.extract_text() or "" for page in rule_pages)
            for heading in headings:  # (a long heading may take two lines)
                assert re.sub(r"\s+", "", heading) in re.sub(r"\s+", "", text), (game, heading)
            small = {
                (char["text"], round(char["size"], 1))
                for page in rule_pages
                for char in page.chars
                if char["text"].strip() and char["size"] < 7.95 and char["top"] < page.height - 9 * mm
            }
            assert not small, (game, small)  # (the 'print at actual size' note at the very foot aside)
        if lang == "en":  # no Japanese in English, on the cover either
            assert not re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", text + page_text(files[0], 0)), game
        else:
            assert re.search(r"[\u3040-\u30ff]", text)


def test_japanese_rules_keep_kinsoku_breaking_between_characters(full_build):
    """Running Japanese breaks between any two characters (phrase breaks left ragged columns), yet
    no line of a column starts with a closing mark (one after an icon is not a line start)."""
    lang, _paper, written = full_build
    if lang != "ja":
        pytest.skip("the Japanese build's rules: English breaks at spaces")
    for files in by_target(written).values():
        with pdfplumber.open(files[0]) as document:
            for page in document.pages[1:]:
                middle, top, foot = page.width / 2, 34 * mm, page.height - 14 * mm  # (title band, footer aside)
                for column in (page.crop((0, top, middle, foot)), page.crop((middle, top, page.width, foot))):
                    lines = column.extract_text_lines()
                    if not lines:
                        continue
                    left = min(line["x0"] for line in lines)
                    starts = [line["text"] for line in lines if line["x0"] < left + 1]
                    assert not [text for text in starts if text[0] in "、。，．）」』】"], files[0].name


def test_the_cover_lists_are_set_at_8_pt_or_more(full_build):
    _lang, _paper, written = full_build
    for files in by_target(written).values():
        with pdfplumber.open(files[0]) as document:
            cover = document.pages[0]
            names = [word for word in cover.extract_words(extra_attrs=["size"]) if ".pdf" in word["text"]]
            assert names and all(word["size"] >= 7.95 for word in names)


# --- how each file is printed, in this build's mode --------------------------------------------------


@pytest.mark.parametrize(
    "duplex, words",
    [
        (None, "flip on the long edge"),
        (DuplexMode.SHORT_EDGE, "flip on the short edge"),
        (DuplexMode.FOLD, "fold each sheet along the dashed line"),
        (DuplexMode.NONE, "every second page holds the backs"),
    ],
)
def test_the_cover_says_how_this_build_prints_the_cards(tmp_path, duplex, words):
    written = build_targets(resolve(["court"]), BuildOptions(out_dir=tmp_path, lang="en", duplex=duplex))
    rows = cover_rows(written[0], "en")
    assert set(rows) == {path.name for path in written}
    assert all(words in rows[path.name][2] for path in written[1:])


def test_a_greyscale_build_says_so_and_names_its_grey_files(tmp_path):
    written = build_targets(resolve(["kardinal"]), BuildOptions(out_dir=tmp_path, lang="en", greyscale=True))
    assert all(path.name.endswith("-grey.pdf") for path in written)
    cover = page_text(written[0], 0).replace("\n", " ")
    assert "in shades of grey" in cover and set(cover_rows(written[0], "en")) == {path.name for path in written}


def test_print_shop_pages_for_every_card_and_a_word_for_every_sheet(tmp_path):
    result = run_cli("build", "all", "--print-shop", "--lang", "en", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    written = [Path(line) for line in result.stdout.splitlines()]
    cards = [p for p in written if "printshop" in p.name]
    stems = {p.name.split("-printshop")[0] for p in cards}
    assert stems == {
        "court-characters",
        "court-summary",
        "kardinal-land-cards",
        "kardinal-player-aid",
        "kardinal-rights-tokens",
        "kardinal-law-chips",
        "webofpower-rules",
        "culdcept-reference",
    }
    for pdf in cards:
        for page in PdfReader(pdf).pages:
            trim, bleed = page.trimbox, page.bleedbox
            assert float(bleed.width) - float(trim.width) == pytest.approx(6 * mm, abs=0.01), pdf.name
    sheets = [p for p in written if "printshop" not in p.name and "-start-" not in p.name]
    groups = by_target(written)
    for game, files in groups.items():
        cover = page_text(files[0], 0).replace("\n", " ")
        for sheet in (s for s in sheets if s in files):
            assert sheet.name in cover.split("print shop only the cards")[1], (game, sheet.name)
    notes = [line for line in result.stderr.splitlines() if line.startswith("kkprint: note:")]
    assert all(any(sheet.name in note for note in notes) for sheet in sheets)


def test_quiet_keeps_the_kits_notes_to_itself(cli, tmp_path):
    """-q shows only errors and warnings (its help says so): a kit's note, such as a one-sided
    build's "its backs print as sheets of their own", is neither."""
    told = cli("build", "court", "--duplex", "none", "--lang", "en", "--out", str(tmp_path / "told"))
    assert told.returncode == 0 and "kkprint: note:" in told.stderr, told.stderr
    quiet = cli("build", "court", "--duplex", "none", "--lang", "en", "-q", "--out", str(tmp_path / "quiet"))
    assert quiet.returncode == 0 and quiet.stderr == "" and quiet.stdout == "", quiet.stderr


# --- content backs in every duplex mode, behind their fronts -------------------------------------------


def placed_forms(reader: PdfReader, page_number: int, width: float, height: float) -> list[tuple[float, ...]]:
    """Every form of ``width × height`` points placed on a page: (left, bottom, right, top, angle°)."""
    page = reader.pages[page_number]
    xobjects = page["/Resources"].get("/XObject") or {}
    stack, ctm, found = [], [1.0, 0.0, 0.0, 1.0, 0.0, 0.0], []
    for operands, operator in ContentStream(page.get_contents(), reader).operations:
        if operator == b"q":
            stack.append(ctm)
        elif operator == b"Q":
            ctm = stack.pop()
        elif operator == b"cm":
            a, b, c, d, e, f = (float(v) for v in operands)
            A, B, C, D, E, F = ctm
            ctm = [a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F]
        elif operator == b"Do" and operands[0] in xobjects:
            box = [float(v) for v in xobjects[operands[0]].get_object()["/BBox"]]
            if abs(box[2] - box[0] - width) < 0.5 and abs(box[3] - box[1] - height) < 0.5:
                a, b, c, d, e, f = ctm
                corners = [
                    (a * x + c * y + e, b * x + d * y + f)
                    for x, y in ((0, 0), (width, 0), (0, height), (width, height))
                ]
                xs, ys = [p[0] for p in corners], [p[1] for p in corners]
                angle = round(math.degrees(math.atan2(b, a))) % 360
                found.append((min(xs), min(ys), max(xs), max(ys), angle))
    return found


POKER = (63 * mm, 88 * mm)


def test_court_without_duplex_prints_all_60_content_backs_as_sheets_of_their_own(tmp_path):
    written = build_targets(resolve(["court"]), BuildOptions(out_dir=tmp_path, lang="en", duplex=DuplexMode.NONE))
    characters = next(p for p in written if p.name.startswith("court-characters"))
    reader = PdfReader(characters)
    assert len(reader.pages) == 14  # 7 sheets of fronts, each followed by its backs
    backs = [reader.pages[i].extract_text() for i in range(1, 14, 2)]
    tier_backs = sum(text.count("To Court the King") for text in backs)  # each tier back carries the title
    charlatans = sum(len(re.findall(r"\bCharlatan\b", text)) for text in backs)  # the Fools' backs
    assert (tier_backs, charlatans) == (55, 5)  # all 60 cards' backs
    width = float(reader.pages[0].mediabox.width)
    for number in range(0, 14, 2):  # glued behind, the sheet turned over its long edge
        fronts = {(round(width - f[2], 1), round(f[1], 1)) for f in placed_forms(reader, number, *POKER)}
        behind = {(round(b[0], 1), round(b[1], 1)) for b in placed_forms(reader, number + 1, *POKER)}
        assert fronts == behind and fronts
    assert "glue" in reader.pages[1].extract_text()
    lands = next(
        p
        for p in build_targets(resolve(["kardinal"]), BuildOptions(out_dir=tmp_path, duplex=DuplexMode.NONE))
        if "land-cards" in p.name
    )
    assert len(PdfReader(lands).pages) == 7  # a back without content (the land cards') is left out


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_court_folds_on_a4_and_letter_with_every_back_across_the_fold(tmp_path, paper):
    result = run_cli("build", "court", "--lang", "ja", "--paper", paper, "--duplex", "fold", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    summary = next(Path(line) for line in result.stdout.splitlines() if "court-summary" in line)
    reader = PdfReader(summary)
    width = float(reader.pages[0].mediabox.width)
    placed = placed_forms(reader, 0, 95 * mm, 130 * mm)
    fronts = [p for p in placed if p[2] <= width / 2]
    backs = [p for p in placed if p[0] >= width / 2]
    assert len(fronts) == len(backs) == 2  # two 95 × 130 mm cards on each half
    for front in fronts:
        assert any(abs(width - front[2] - back[0]) < 0.01 and abs(front[1] - back[1]) < 0.01 for back in backs)
        assert front[0] >= 5 * mm  # nothing within 5 mm of the paper's edge


def test_every_game_builds_with_fold_and_lists_every_file(tmp_path):
    result = run_cli("build", "all", "--duplex", "fold", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    listed = {Path(line).name for line in result.stdout.splitlines()}
    assert listed == {p.name for p in tmp_path.glob("*.pdf")} and len(listed) == 20


@pytest.mark.parametrize("duplex, turned", [(DuplexMode.LONG_EDGE, 0), (DuplexMode.SHORT_EDGE, 180)])
def test_backs_read_upright_when_a_card_is_turned_over_like_a_page(tmp_path, duplex, turned):
    """Portrait cards turn over about their long side: on a long-edge sheet that is how the sheet
    turns, so backs stand as their fronts; on a short-edge sheet it is not, so they stand turned."""
    written = build_targets(resolve(["court"]), BuildOptions(out_dir=tmp_path, lang="en", duplex=duplex))
    reader = PdfReader(next(p for p in written if p.name.startswith("court-characters")))
    assert {p[4] for p in placed_forms(reader, 0, *POKER)} == {0}
    backs = placed_forms(reader, 1, *POKER)
    assert len(backs) == 9 and {p[4] for p in backs} == {turned}


def test_a_broken_rules_file_is_one_line_naming_its_place_and_nothing_is_written(tmp_path):
    import os
    import shutil
    import subprocess
    import sys

    from conftest import ROOT, assert_clean_error

    data = tmp_path / "data"
    shutil.copytree(ROOT / "data", data)
    rules = data / "court" / "rules.yaml"
    text = rules.read_text(encoding="utf-8")
    first = "  - heading: {ja: ゲームの目的, en: The aim}\n"
    line = text.splitlines().index(first.rstrip("\n")) + 1
    rules.write_text(text.replace(first, first + "    text: {ja: 二つ目, en: a second kind}\n", 1), encoding="utf-8")
    out = tmp_path / "out"
    result = subprocess.run(
        [sys.executable, "-m", "kkprint", "build", "court", "--lang", "en", "--out", str(out)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "KKPRINT_DATA": str(data), "KKPRINT_LANG": "en"},
    )
    assert_clean_error(result, str(rules), f"line {line}", "heading + text")
    assert not out.exists() or not list(out.glob("*.pdf"))


def test_japanese_paragraph_lines_run_to_the_column_edge():
    """Between any two characters a line can always be filled: every line but a paragraph's last
    ends within two characters of the column's edge (phrase breaks left lines a third short)."""
    from kkprint.engine.booklet import BookletStyle, _Setter
    from kkprint.engine.fonts import prepare_fonts
    from kkprint.engine.text import line_width

    rules = load_rules("kardinal")
    text = next(block.text("ja") for block in rules.rules if block.text and len(block.text("ja")) > 80)
    setter = _Setter(prepare_fonts([text]), BookletStyle(), 200 * mm)
    width, size = 60 * mm, 9.0
    lines = setter.lines(text, width, size)
    assert len(lines) >= 3
    for line in lines[:-1]:
        assert line_width(line, size) > width - 2 * size, "".join(atom.text for atom in line)
    assert "".join(atom.text for line in lines for atom in line) == text.replace(" ", "")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_sections_laid_out_apart_and_joined_are_laid_out_as_one_booklet(lang):
    """A start file joins its cover to the rules as each was laid out (the rules once, however
    often the cover is): every row lands where laying out the whole booklet puts it."""
    from kkprint.engine.booklet import Booklet, BookletStyle, Paragraph, Section
    from kkprint.engine.fonts import prepare_fonts
    from kkprint.games.kit import rules_section

    rules = rules_section("court", lang)
    front = Section("Cover", [Paragraph("A long cover. " * 700), Paragraph("Second paragraph " * 60)])
    fonts = prepare_fonts([rules.title, *(str(block) for block in rules.blocks), "A long cover. Second paragraph"])
    size, style = (210 * mm, 297 * mm), BookletStyle(accent="#7a1f2b", footer="Court")
    whole = Booklet([front, rules], fonts, size, style)
    joined = Booklet([front], fonts, size, style).then(Booklet([rules], fonts, size, style))
    assert joined.pages == whole.pages >= 3 and joined.section_pages() == whole.section_pages()

    def where(booklet):
        return [
            (page.section, [(x, y, width, row.height) for x, y, width, row in page.placed]) for page in booklet._pages
        ]

    assert where(joined) == where(whole)


# --- what the last sweep found: words true in every mode, rules on their page, names whole ------------


def test_every_start_file_is_the_cover_and_one_page_of_rules(full_build):
    """The rules fit their page (set tighter, never under 8 pt: the test above) rather than spill a
    few lines onto a page of their own; K&K's spilt 6-17 lines onto a third page, Court's on Letter 2."""
    lang, paper, written = full_build
    for game, files in by_target(written).items():
        assert len(PdfReader(files[0]).pages) == 2, (game, lang, paper)


def test_a_booklet_is_set_tighter_only_to_save_a_page():
    from kkprint.engine.booklet import Booklet, BookletStyle, Paragraph, Section, fitted
    from kkprint.engine.fonts import prepare_fonts

    text = "Take land cards from the left or right end of a row and lay them face up before you. "
    fonts = prepare_fonts([text])
    size, style = (210 * mm, 297 * mm), BookletStyle()

    def section(paragraphs: int) -> list[Section]:
        return [Section("Rules", [Paragraph(text * 6)] * paragraphs)]

    spilling = next(n for n in range(10, 60) if Booklet(section(n), fonts, size, style).pages == 2)
    tight = fitted(section(spilling), fonts, size, style)
    assert tight.pages == 1 and tight.style != style and tight.style.size >= style.small
    assert fitted(section(10), fonts, size, style).style == style  # (one page as it is)
    long = fitted(section(spilling * 3 // 2), fonts, size, style)  # half a page more: set as it is
    assert long.style == style and long.pages == 2


def test_a_short_worked_example_is_never_split_across_columns():
    """Court's 'Example: using characters' on Letter stood as its title and first line at a
    column's foot, the rest at the next column's top with no title: a short example moves whole."""
    from kkprint.engine.booklet import Booklet, BookletStyle, Example, Paragraph, Section
    from kkprint.engine.fonts import prepare_fonts

    text = "Take land cards from the left or right end of a row and lay them face up before you. "
    fonts = prepare_fonts([text, "Example"])
    style = BookletStyle()
    for filler in range(1, 40):  # the example met at every height of a column's foot
        blocks = [Paragraph(text * 2)] * filler + [Example(text * 3, "Example"), Paragraph(text)]
        booklet = Booklet([Section("Rules", blocks)], fonts, (210 * mm, 297 * mm), style)
        tinted = {
            (number, x)
            for number, page in enumerate(booklet._pages)
            for x, _top, _width, row in page.placed
            if row.background is not None
        }
        assert len(tinted) == 1, (filler, tinted)


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("duplex", [None, DuplexMode.SHORT_EDGE, DuplexMode.FOLD, DuplexMode.NONE])
def test_the_cover_says_a_file_holds_backs_only_when_it_does(tmp_path, lang, duplex):
    """With --duplex none the land cards' backs (no game content) are left out: the cover said "56 land
    cards and their backs" all the same. A file's contents do not claim backs its printing leaves out,
    and how it prints says so."""
    from kkprint.base.i18n import tr
    from kkprint.engine.cover import HOW, Printing

    written = build_targets(resolve(["kardinal"]), BuildOptions(out_dir=tmp_path, lang=lang, duplex=duplex))
    rows = cover_rows(written[0], lang)
    lands = next(path for path in written if "land-cards" in path.name)
    _pages, contents, how = rows[lands.name]
    assert not re.search(r"back|裏", contents), contents
    left_out = tr(HOW[Printing.BACKS_LEFT_OUT], lang).replace(" ", "")
    if duplex is DuplexMode.NONE:
        assert left_out in how.replace(" ", "") and len(PdfReader(lands).pages) == 7  # 56 fronts, 9 a sheet
    else:
        assert left_out not in how.replace(" ", "") and len(PdfReader(lands).pages) > 7
    content_backs = tr(HOW[Printing.BACK_SHEETS], lang).replace(" ", "")[:12]
    for name, (_pages, contents, how) in rows.items():  # what names a back prints it
        if duplex is DuplexMode.NONE and re.search(r"\bbacks?\b|裏", contents):
            assert how.replace(" ", "").startswith(content_backs), (name, contents, how)


def _whole_names(start: Path, lang: str) -> None:
    for row in cover_table(start, lang)[1:]:
        assert "\n" not in row[0] and row[0].endswith(".pdf"), row[0]  # the name on one line
        assert "\n" not in row[1], row[1]  # and its pages


def test_a_file_name_stands_whole_in_the_covers_table(full_build):
    lang, _paper, written = full_build  # (webofpower-board-worksheet-ja-a4.pdf broke after 'ja-')
    for files in by_target(written).values():
        _whole_names(files[0], lang)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_longest_file_names_stand_whole_and_the_cover_keeps_its_page(tmp_path, lang):
    """webofpower-board-reference-ja-letter-short-edge-grey.pdf, kardinal-rights-tokens-printshop-ja-letter-grey.pdf:
    the longest names a build writes."""
    options = BuildOptions(
        out_dir=tmp_path,
        lang=lang,
        paper_name="letter",
        duplex=DuplexMode.SHORT_EDGE,
        greyscale=True,
        print_shop=True,
    )
    written = build_targets(resolve(["kardinal", "webofpower-board"]), options)
    assert max(len(path.name) for path in written) >= 55
    # a print shop's files are one card a page: no duplex mode in their names, as none is used
    shop = [path.name for path in written if "-printshop-" in path.name]
    assert shop and all(name.endswith(f"-printshop-{lang}-letter-grey.pdf") for name in shop), shop
    for files in by_target(written).values():
        _whole_names(files[0], lang)
        assert len(PdfReader(files[0]).pages) == 2
