import pytest
from conftest import ROOT

from kkprint.base.errors import InputError
from kkprint.engine.fonts import ensure_drawable, prepare_fonts


def test_prepared_characters_draw_and_others_are_refused():
    fonts = prepare_fonts(["王と枢機卿"])
    ensure_drawable("王と枢機卿 ABC", fonts.regular)
    with pytest.raises(InputError, match=r"U\+9F8D"):
        ensure_drawable("龍", fonts.regular)


def test_a_character_the_font_lacks_is_an_error():
    with pytest.raises(InputError, match="cannot draw"):
        prepare_fonts(["smile \U0001f600"])


def test_same_text_reuses_the_same_fonts():
    assert prepare_fonts(["決算"]) == prepare_fonts(["決算"])


def test_font_conversion_does_not_depend_on_the_clock():
    import time

    from kkprint.engine.fonts import _make_subset

    first = _make_subset("regular", "ABC決算")
    time.sleep(1.1)  # fontTools stamps the time into 'head' unless told not to
    assert _make_subset("regular", "ABC決算") == first


def test_cold_and_warm_font_cache_give_the_same_fonts(tmp_path, monkeypatch):
    from kkprint.engine import fonts

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    cold = fonts._subsets("XYZ競")
    assert list((tmp_path / "kkprint" / "fonts").glob("*.ttf"))
    assert fonts._subsets("XYZ競") == cold


def _game_data() -> list:
    from kkprint.games.court.model import load_court
    from kkprint.games.culdcept.model import load_culdcept
    from kkprint.games.kardinal.model import load_game
    from kkprint.games.webofpower.model import load_board, load_map

    return [load_court(), load_culdcept(), load_game(), load_map(), load_board()]


def test_a_definition_is_read_for_its_strings_as_asdict_gives_it():
    """A build's characters are collected from the definitions themselves, without ``asdict``'s
    copy: the same strings, so the same font subset and the same PDF bytes."""
    from dataclasses import asdict, replace

    from kkprint.deck.build import deck_texts, spec_texts
    from kkprint.deck.load import load_deck
    from kkprint.engine.fonts import collect_strings
    from kkprint.games.kit import _words_in, load_rules

    for data in _game_data():
        walked = collect_strings(data, set())
        assert walked == collect_strings(asdict(data), set())
        assert len(walked) > 20
    for game in ("court", "culdcept", "kardinal", "webofpower"):
        rules = load_rules(game)
        for lang in ("ja", "en"):
            assert _words_in(rules, lang) == _words_in(asdict(rules), lang) != set()
    decks = sorted((ROOT / "examples" / "decks").glob("*/*.yaml"))
    assert len(decks) >= 5
    for path in decks:
        deck = load_deck(path)
        walked = spec_texts(deck.spec)
        assert walked == collect_strings(asdict(replace(deck.spec, cards=[])), set()), path
        assert walked <= deck_texts(deck) and len(walked) > 10, path


def _pdf_of(font_name: str, text: str) -> bytes:
    """A one-line PDF in ``font_name``, compressed as kkprint's are, with no date or id of its own."""
    import io

    from reportlab.pdfgen.canvas import Canvas

    out = io.BytesIO()
    canvas = Canvas(out, pageCompression=1, invariant=1)
    canvas.setFont(font_name, 12)
    canvas.drawString(20, 20, text)
    canvas.showPage()
    canvas.save()
    return out.getvalue()


def test_a_subsets_program_is_kept_and_gives_the_bytes_reportlab_gives(tmp_path, monkeypatch):
    """The program of a subset is made once and kept, compressed; a PDF gets the same bytes from
    it as from ReportLab's own subsetting, cold or warm, and a damaged or cut-short file is made
    again (and rewritten whole) instead of believed."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFontFace

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    text = "Kept programs 決算 ★"
    fonts = prepare_fonts([text])
    face = pdfmetrics.getFont(fonts.regular).face
    kept_way = face.addSubsetObjects
    del face.addSubsetObjects  # (ReportLab's own way, for the bytes to compare with)
    try:
        reportlabs = _pdf_of(fonts.regular, text)
    finally:
        face.addSubsetObjects = kept_way
    assert _pdf_of(fonts.regular, text) == reportlabs
    (program,) = (tmp_path / "kkprint" / "fonts").glob("*.program")
    whole = program.read_bytes()

    def refused(self, subset):
        raise AssertionError("the kept program should have been used")

    with monkeypatch.context() as served:
        served.setattr(TTFontFace, "makeSubset", refused)
        assert _pdf_of(fonts.regular, text) == reportlabs
    for damaged in (whole[:-1] + bytes([whole[-1] ^ 1]), whole[: len(whole) // 2], b""):
        program.write_bytes(damaged)
        assert _pdf_of(fonts.regular, text) == reportlabs
        assert program.read_bytes() == whole


def test_kept_programs_are_bounded_the_oldest_going_first(tmp_path, monkeypatch):
    """Every change to a deck's text makes subsets of its own: past PROGRAMS_KEPT the oldest
    kept programs are removed, and those kept are still served."""
    import os

    from kkprint.engine import fonts

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(fonts, "PROGRAMS_KEPT", 2)
    registered = prepare_fonts(["決算競王"]).regular  # (ASCII is one subset ReportLab always has)
    folder = tmp_path / "kkprint" / "fonts"
    made = []
    for number, text in enumerate("決算競王", start=1):
        _pdf_of(registered, text)
        (new,) = {path.name for path in folder.glob("*.program")} - set(made)
        made.append(new)
        os.utime(folder / new, ns=(number, number))  # (made in one tick of a coarse clock: told apart)
    assert sorted(path.name for path in folder.glob("*.program")) == sorted(made[-2:])
    _pdf_of(registered, "王")  # (the newest, served: nothing made, nothing removed)
    assert sorted(path.name for path in folder.glob("*.program")) == sorted(made[-2:])


def test_converted_fonts_and_programs_are_kept_where_the_cache_folder_is_moved(tmp_path, monkeypatch):
    """KKPRINT_CACHE_DIR moves the whole cache folder, the fonts' part of it too."""
    monkeypatch.setenv("KKPRINT_CACHE_DIR", str(tmp_path / "moved"))
    registered = prepare_fonts(["移動先"]).regular
    _pdf_of(registered, "移動先")
    assert list((tmp_path / "moved" / "fonts").glob("*.ttf")) and list((tmp_path / "moved" / "fonts").glob("*.program"))


def test_threads_embedding_one_face_each_get_their_own_subsets_program(tmp_path, monkeypatch):
    """The studio builds in threads, and every build of the process shares a registered face:
    PDFs made side by side are the PDFs made one at a time."""
    from concurrent.futures import ThreadPoolExecutor

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    texts = [chr(0x4E00 + number * 7) + chr(0x4E01 + number * 11) for number in range(24)]
    registered = prepare_fonts(texts).regular
    alone = [_pdf_of(registered, text) for text in texts]
    for path in (tmp_path / "kkprint" / "fonts").glob("*.program"):
        path.unlink()  # (made side by side too)
    with ThreadPoolExecutor(4) as pool:
        assert list(pool.map(lambda text: _pdf_of(registered, text), texts * 3)) == alone * 3


VERA = ROOT / "examples" / "decks" / "heist" / "fonts" / "Vera.ttf"  # fsType 4: preview & print, embeddable


def _with_fs_type(folder, fs_type: int):
    """The deck's font folder with Vera.ttf saved with another OS/2 fsType (its licence's word on
    embedding), as fontTools writes it."""
    from fontTools.ttLib import TTFont

    fonts = folder / "fonts"
    fonts.mkdir(exist_ok=True)
    font = TTFont(VERA)
    font["OS/2"].fsType = fs_type
    font.save(fonts / "Locked.ttf")
    return fonts / "Locked.ttf"


FONT_DECK = """\
name: locked
card: {size: mini}
fonts:
  locked: {regular: fonts/Locked.ttf}
layout:
  t: {type: text, x: 2, y: 2, w: 40, h: 9, font: locked, text: "${name}"}
cards: [{name: Vault}]
"""


@pytest.mark.parametrize(
    ("fs_type", "lang", "said"),
    [
        (
            2,
            "en",
            "locked.yaml: fonts.locked.regular: font 'fonts/Locked.ttf' may not be embedded: its licence forbids "
            "it (restricted licence, OS/2 fsType 2)",
        ),
        (
            2,
            "ja",
            "locked.yaml: fonts.locked.regular: フォント「fonts/Locked.ttf」は埋め込めません：ライセンスが禁じています（埋め込み禁止、",
        ),
        (
            0x0200,
            "en",
            "font 'fonts/Locked.ttf' may not be embedded: its licence forbids it (bitmap embedding only, OS/2 fsType 512)",
        ),
        (0x0202, "en", "its licence forbids it (restricted licence, OS/2 fsType 514)"),
        (0x0104, "en", "its licence forbids it (no subsetting, OS/2 fsType 260)"),
    ],
)
def test_a_font_whose_licence_forbids_embedding_is_refused_naming_its_file(cli, tmp_path, fs_type, lang, said):
    """A restricted-licence font (OS/2 fsType 2) was embedded without a word: every PDF embeds its
    fonts, so a designer would ship a font its licence forbids them to. Refused in one line, with
    the file, nothing written."""
    _with_fs_type(tmp_path, fs_type)
    deck = tmp_path / "locked.yaml"
    deck.write_text(FONT_DECK, encoding="utf-8")
    for command in ("build", "check"):
        result = cli(
            *([command, str(deck), "--lang", lang] + (["--out", str(tmp_path / "out")] if command == "build" else []))
        )
        assert result.returncode == 2 and result.stdout == "" and not (tmp_path / "out").exists(), result.stderr
        [line] = result.stderr.splitlines()
        assert said in line and "Traceback" not in result.stderr, line


@pytest.mark.parametrize("fs_type", [0, 4, 8, 0x0006])
def test_a_font_whose_licence_allows_embedding_is_embedded(tmp_path, fs_type):
    """Installable (0), preview & print (4), editable (8), and restricted with a looser bit beside
    it (the looser counts): built, the font embedded."""
    from pypdf import PdfReader

    from kkprint.cli.targets import resolve
    from kkprint.engine.job import BuildOptions, build_targets

    _with_fs_type(tmp_path, fs_type)
    deck = tmp_path / "locked.yaml"
    deck.write_text(FONT_DECK, encoding="utf-8")
    [pdf] = build_targets(resolve([str(deck)]), BuildOptions(out_dir=tmp_path / "out"))
    page = PdfReader(pdf).pages[0]
    assert "Vault" in page.extract_text()
    fonts = [font.get_object() for font in page["/Resources"]["/Font"].values()]
    vera = [font for font in fonts if "BitstreamVeraSans" in str(font["/BaseFont"])]
    assert vera and all("/FontFile2" in font["/FontDescriptor"] for font in vera), fonts  # (embedded)
