"""The promise for strangers' files and odd surroundings: exit 2 and one line, nothing read or
written outside where it belongs, nothing half-written, files with the user's umask, signals that
clean up — and a fuzzer over whole deck files, their file references and their numbers."""

from __future__ import annotations

import gc
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import ROOT, assert_clean_error
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

TALLY = ROOT / "examples" / "kardinal-tally.yaml"
SMALL_DECK = "name: d\ncard: {size: mini}\nlayout: {t: {type: text, x: 1, y: 1, w: 30, h: 9, text: '${name}'}}\ncards: [{name: A}]\n"


@pytest.mark.parametrize("make", ["device", "link", "dangling", "other-file", "folder"])
def test_sheet_is_written_only_over_a_pdf(tmp_path, cli, make):
    target = tmp_path / "sheet.pdf"
    if make == "device":
        target = Path("/dev/null")
    elif make == "link":
        (tmp_path / "real.pdf").write_bytes(b"%PDF-1.4 mine")
        target.symlink_to(tmp_path / "real.pdf")
    elif make == "dangling":
        target.symlink_to(tmp_path / "nowhere.pdf")
    elif make == "other-file":
        target.write_text("my thesis", encoding="utf-8")
    else:
        target.mkdir()
    before = target.lstat()
    result = cli("scorer", "kardinal", str(TALLY), "--sheet", str(target))
    assert_clean_error(result, str(target))
    assert result.stdout == ""  # refused before anything was printed
    assert stat.S_IFMT(target.lstat().st_mode) == stat.S_IFMT(before.st_mode)
    assert not (tmp_path / "nowhere.pdf").exists()
    if make == "other-file":
        assert target.read_text(encoding="utf-8") == "my thesis"
    if make == "link":
        assert (tmp_path / "real.pdf").read_bytes() == b"%PDF-1.4 mine"


def test_an_existing_pdf_is_replaced_and_files_follow_the_umask(tmp_path):
    sheet = tmp_path / "sheet.pdf"
    deck = tmp_path / "d.yaml"
    deck.write_text(SMALL_DECK, encoding="utf-8")
    for mask, mode in ((0o022, 0o644), (0o077, 0o600), (0o002, 0o664)):
        out = tmp_path / f"out{mask:o}"
        for args in (
            ["scorer", "kardinal", str(TALLY), "--sheet", str(sheet)],
            ["build", str(deck), "--out", str(out)],
        ):
            result = subprocess.run(
                [sys.executable, "-m", "kkprint", *args],
                capture_output=True,
                text=True,
                cwd=ROOT,
                timeout=120,
                preexec_fn=lambda mask=mask: os.umask(mask),
            )
            assert result.returncode == 0, result.stderr
        assert stat.S_IMODE(sheet.stat().st_mode) == mode  # replaced each time, with this umask
        [pdf] = out.glob("*.pdf")
        assert stat.S_IMODE(pdf.stat().st_mode) == mode


def test_new_deck_and_preview_never_write_through_links(english, tmp_path, cli):
    (tmp_path / "x.yaml").symlink_to(tmp_path / "elsewhere.yaml")
    assert_clean_error(cli("new", "deck", "x", "--dir", str(tmp_path)), "already exists")
    assert not (tmp_path / "elsewhere.yaml").exists() and not (tmp_path / "x.csv").exists()
    deck = tmp_path / "d.yaml"
    deck.write_text(SMALL_DECK, encoding="utf-8")
    out = tmp_path / "pv"
    out.mkdir()
    (out / "d-a4-001.png").symlink_to(tmp_path / "victim.png")
    assert_clean_error(cli("preview", str(deck), "--out", str(out)), "is a link")
    assert not (tmp_path / "victim.png").exists()


@pytest.mark.parametrize("name", ["/dev/zero", "/dev/urandom", "fifo"])
def test_special_files_are_refused_at_once(english, tmp_path, name):
    if name == "fifo":
        os.mkfifo(tmp_path / "fifo")
        name = str(tmp_path / "fifo")
    for args in (["scorer", "kardinal", name], ["build", name.replace("fifo", "fifo.yaml")]):
        if args[0] == "build" and name.startswith("/dev"):
            continue
        if args[0] == "build":
            os.mkfifo(args[1])
        started = time.monotonic()
        result = subprocess.run(
            [sys.executable, "-m", "kkprint", *args], capture_output=True, text=True, cwd=ROOT, timeout=60
        )
        assert time.monotonic() - started < 30
        assert_clean_error(result, "not a regular file")


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_picture_export_will_not_replace_is_named_by_its_kind_not_its_signature(tmp_path, lang):
    """The refusal showed the PNG signature's bytes: "is not a \ufffdPNG file"."""
    deck = tmp_path / "d.yaml"
    deck.write_text(SMALL_DECK, encoding="utf-8")
    (tmp_path / "pics").mkdir()
    (tmp_path / "pics" / "001-A.png").write_text("my notes", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "kkprint", "export", "d.yaml", "--png", "--out", "pics", "--lang", lang],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    said = {"en": "exists and is not a PNG file;", "ja": "すでにあり、PNGファイルではありません。"}[lang]
    assert_clean_error(result, f"pics/001-A.png: {said}")
    assert (tmp_path / "pics" / "001-A.png").read_text(encoding="utf-8") == "my notes"
    assert sorted(path.name for path in (tmp_path / "pics").iterdir()) == ["001-A.png"]


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_watch_says_of_a_deck_that_is_no_file_what_build_says(tmp_path, lang):
    """watch said "no such deck file" of a FIFO and a folder that were there."""
    os.mkfifo(tmp_path / "fifo.yaml")
    (tmp_path / "folder.yaml").mkdir()
    for name, words in (
        ("fifo.yaml", {"en": "is not a regular file", "ja": "通常のファイルではありません"}),
        ("folder.yaml", {"en": "is a folder, not a file", "ja": "ファイルではなくフォルダーです"}),
        ("missing.yaml", {"en": "no such file", "ja": "ファイルがありません"}),
    ):
        said = []
        for command in ("build", "watch"):
            result = subprocess.run(
                [sys.executable, "-m", "kkprint", command, name, "--lang", lang],
                capture_output=True,
                text=True,
                cwd=tmp_path,
                timeout=60,
            )
            assert_clean_error(result, f"{name}: {words[lang]}")
            said.append(result.stderr)
        assert said[0] == said[1]


def test_standard_input_is_limited_and_must_be_utf8(english, cli):
    assert_clean_error(cli("scorer", "kardinal", "-", input="x" * (6 * 1024 * 1024)), "standard input", "larger than")
    result = subprocess.run(
        [sys.executable, "-m", "kkprint", "scorer", "kardinal", "-"],
        input=b"players: [\xff]\n",
        capture_output=True,
        cwd=ROOT,
        timeout=60,
    )
    assert result.returncode == 2 and b"not UTF-8" in result.stderr and b"Traceback" not in result.stderr


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["build", "X.yaml", "--back-offset-x", "nan"], "between -20 and 20"),
        (["build", "X.yaml", "--back-offset-y", "1e6"], "between -20 and 20"),
        (["build", "X.yaml", "--back-offset-x", "inf"], "between -20 and 20"),
        (["calibrate", "--save", "nan", "--save", "0"], "two numbers in mm"),
        (["calibrate", "--save", "1_0", "--save", "0"], "two numbers in mm"),
        (["calibrate", "--save", "21", "--save", "0"], "beyond ±20 mm"),
        (["build", "X.yaml", "--only", ",,,"], "names no card"),
        (["build", "X.yaml", "--only", "²"], "no card is named '²'"),
        (["preview", "X.yaml", "--only", ",,,", "--out", "P"], "names no card"),
        (["scorer", "kardinal", "a\x00b.yaml"], "NUL"),
    ],
)
def test_impossible_numbers_and_names(english, tmp_path, cli, args, fragment):
    deck = tmp_path / "X.yaml"
    deck.write_text(SMALL_DECK, encoding="utf-8")
    args = [str(deck) if a == "X.yaml" else (str(tmp_path / "P") if a == "P" else a) for a in args]
    try:
        result = cli(*args, "--out", str(tmp_path / "out")) if args[0] == "build" else cli(*args)
    except ValueError:  # the OS itself cannot pass a NUL in an argument; the library check is below
        from kkprint.base.errors import InputError
        from kkprint.base.yamlio import read_text

        with pytest.raises(InputError, match="NUL"):
            read_text(Path("a\x00b.yaml"))
        return
    assert_clean_error(result, fragment)
    assert not (tmp_path / "out").exists()


def test_a_long_path_is_shortened_in_the_message(cli):
    result = cli("scorer", "kardinal", "a" * 5000)
    assert_clean_error(result)
    assert len(result.stderr) < 400


def test_a_saved_profile_that_is_not_finite_is_named(tmp_path, cli):
    config = tmp_path / "config" / "kkprint"
    config.mkdir(parents=True)
    (config / "printer.yaml").write_text("offset_mm: [.nan, 0]\n", encoding="utf-8")
    deck = tmp_path / "d.yaml"
    deck.write_text(SMALL_DECK, encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "kkprint", "build", str(deck), "--out", str(tmp_path / "o")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        env={**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "config")},
    )
    assert_clean_error(result, "printer.yaml")


@pytest.mark.parametrize("sig, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGHUP, 129)])
def test_signals_end_the_build_cleanly(english, tmp_path, sig, code):
    (tmp_path / "c.csv").write_text("name,count\nA,30000\n", encoding="utf-8")
    (tmp_path / "d.yaml").write_text(
        "name: big\ncard: {size: poker}\ndata: c.csv\nlayout:\n"
        "  t: {type: text, x: 2, y: 2, w: 50, h: 10, text: '${name}'}\n",
        encoding="utf-8",
    )
    out = tmp_path / "out"
    process = subprocess.Popen(
        [sys.executable, "-m", "kkprint", "build", str(tmp_path / "d.yaml"), "--out", str(out)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    while not list(out.glob(".*.part")) and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.05)
    assert process.poll() is None, "the build ended before it could be interrupted"
    process.send_signal(sig)
    _, err = process.communicate(timeout=60)
    assert process.returncode == code, err
    assert "nothing half-written was kept" in err and "Traceback" not in err
    assert not out.exists()  # (nor the folder made for it)


def test_ctrl_c_while_the_cli_loads_ends_with_130_and_no_traceback(monkeypatch):
    """Ctrl-C in the tenth of a second the CLI takes to load (a slow machine: longer)."""
    from kkprint.__main__ import run

    class Loading:  # kkprint.cli.app as it is while Ctrl-C arrives
        @property
        def main(self):
            raise KeyboardInterrupt

    monkeypatch.setitem(sys.modules, "kkprint.cli.app", Loading())
    try:
        with pytest.raises(SystemExit) as ended:
            run()
    finally:  # run() prepares a process that ends with the command; this one goes on
        gc.unfreeze()
        gc.enable()
    assert ended.value.code == 130


# --- a fuzzer over whole deck files: structure, numbers and file references ----------------------

SANE = st.floats(0.5, 60)
ODD = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(-(10**12), 10**12),
    st.sampled_from(["2.5in", "12pt", "-3mm", "1e400", "nan", "1/2", "", "0"]),
)
NUMBERS = st.one_of(SANE, SANE, SANE, ODD)  # mostly sane, so fuzzing reaches drawing, not only validation
REFERENCES = st.sampled_from(
    [
        "art.svg",
        "../secret.svg",
        "/etc/passwd",
        "link.svg",
        "loop.svg",
        "missing.png",
        "fifo.csv",
        "cards.csv",
        "sub/../art.svg",
        "art.svg\x00",
        "${name}.svg",
        "C:\\x.png",
        "https://example.invalid/x.png",
        "a" * 300,
    ]
)


def mostly(good, odd):
    return st.one_of(good, good, good, odd)


REGION = st.fixed_dictionaries(
    {
        "type": mostly(st.sampled_from(["text", "shape"]), st.sampled_from(["icon", "image", "video"])),
        "x": NUMBERS,
        "y": NUMBERS,
        "w": NUMBERS,
        "h": NUMBERS,
        "text": mostly(st.sampled_from(["${name}", "<b>a</b> {die:1}", "Plain"]), st.text(max_size=30)),
    },
    optional={
        "src": REFERENCES,
        "icon": st.sampled_from(["die:1", "x", "${name}", "coin"]),
        "rotation": NUMBERS,
        "opacity": mostly(st.floats(0, 1), ODD),
        "when": mostly(st.sampled_from(["name == 'A'", "qty > 1", "name in ['A', 'B']"]), st.text(max_size=20)),
        "cards": mostly(st.sampled_from(["1", "1-3,5"]), st.text(max_size=8)),
        "shape": mostly(st.sampled_from(["star", "polygon", "line", "hexagon"]), st.just("blob")),
        "sides": mostly(st.integers(3, 12), ODD),
        "points": st.lists(st.lists(NUMBERS, min_size=2, max_size=3), max_size=4),
        "font": mostly(st.sampled_from(["bold", "italic", "f", "f/bold"]), st.text(max_size=10)),
        "dash": st.one_of(NUMBERS, st.lists(NUMBERS, max_size=3)),
    },
)
DECK = st.fixed_dictionaries(
    {
        "name": st.text(min_size=1, max_size=20),
        "card": mostly(
            st.just({"size": "mini"}),
            st.fixed_dictionaries(
                {},
                optional={
                    "size": st.sampled_from(["poker", "mini", "huge"]),
                    "w": NUMBERS,
                    "h": NUMBERS,
                    "shape": st.sampled_from(["hexagon", "circle", "blob"]),
                },
            ),
        ),
        "layout": st.dictionaries(st.sampled_from(["a", "b", "c"]), REGION, max_size=3),
        "cards": mostly(
            st.just([{"name": "A", "qty": 2}]),
            st.lists(
                st.dictionaries(
                    st.sampled_from(["name", "count", "qty"]), st.one_of(NUMBERS, st.text(max_size=10)), max_size=3
                ),
                max_size=3,
            ),
        ),
    },
    optional={
        "data": REFERENCES,
        "fonts": st.dictionaries(st.just("f"), st.fixed_dictionaries({"regular": REFERENCES})),
        "icons": st.dictionaries(st.sampled_from(["coin", "x"]), REFERENCES, max_size=2),
        "print": st.fixed_dictionaries({}, optional={"offset_mm": st.lists(NUMBERS, max_size=3)}),
        "copies_field": st.sampled_from(["qty", "count", ""]),
    },
)


BUILT: list[str] = []


@pytest.fixture(scope="module")
def fuzz_folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("fuzz")
    (root / "secret.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"><text>SECRET</text></svg>'
    )
    deck = root / "deck"
    (deck / "sub").mkdir(parents=True)
    (deck / "art.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"><rect width="9" height="9"/></svg>'
    )
    (deck / "link.svg").symlink_to(root / "secret.svg")
    (deck / "loop.svg").symlink_to(deck / "loop.svg")
    os.mkfifo(deck / "fifo.csv")
    (deck / "cards.csv").write_text("name,qty\nA,2\n", encoding="utf-8")
    return deck


@settings(
    max_examples=int(os.environ.get("KKPRINT_FUZZ_EXAMPLES", "150")),
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(deck=DECK)
def test_fuzzed_decks_build_or_fail_cleanly(fuzz_folder, deck):
    """Any deck either builds or is refused with an InputError: never another exception, never a
    file read from outside its folder, never a PDF written when it is refused."""
    import yaml

    from kkprint.base.errors import InputError
    from kkprint.cli.targets import resolve
    from kkprint.engine.job import BuildOptions, build_targets

    path = fuzz_folder / "fuzz.yaml"
    try:
        path.write_text(yaml.safe_dump(deck, allow_unicode=True), encoding="utf-8")
    except (UnicodeEncodeError, yaml.YAMLError):
        return
    out = fuzz_folder.parent / "out"
    for old in out.glob("*") if out.exists() else []:
        old.unlink()
    try:
        written = build_targets(resolve([str(path)]), BuildOptions(out_dir=out))
        BUILT.append(path.name)
    except InputError as err:
        message = str(err)
        assert "\n" not in message and "SECRET" not in message
        assert not out.exists() or not [p for p in out.iterdir() if p.suffix == ".pdf"]
        return
    for pdf in written:
        data = pdf.read_bytes()
        assert data.startswith(b"%PDF") and b"SECRET" not in data and b"nan" not in data.split(b"stream")[0]


def test_the_fuzzer_reaches_drawing():
    """Run after the fuzzer: some of its decks must have built, or it only ever tested validation."""
    if not BUILT:
        pytest.skip("runs after test_fuzzed_decks_build_or_fail_cleanly in the same session")
    assert len(BUILT) >= 1


def test_a_picture_claiming_a_hundred_megapixels_is_refused_unread(english, tmp_path, cli):
    import io
    import struct
    import zlib

    from PIL import Image

    buffer = io.BytesIO()
    Image.new("L", (1, 1)).save(buffer, "PNG")
    data = bytearray(buffer.getvalue())
    ihdr = data.index(b"IHDR")
    data[ihdr + 4 : ihdr + 12] = struct.pack(">II", 10_000, 10_000)
    data[ihdr + 17 : ihdr + 21] = struct.pack(">I", zlib.crc32(bytes(data[ihdr : ihdr + 17])))
    (tmp_path / "bomb.png").write_bytes(bytes(data))
    deck = tmp_path / "d.yaml"
    deck.write_text(
        "name: d\ncard: {size: mini}\nlayout: {p: {type: image, x: 1, y: 1, w: 9, h: 9, src: bomb.png}}\n"
        "cards: [{name: A}]\n",
        encoding="utf-8",
    )
    assert_clean_error(cli("build", str(deck), "--out", str(tmp_path / "out")), "megapixels", "region 'p'")


@pytest.mark.parametrize("name", ["yes", "123", "null", "1e3", "デッキ"])
def test_new_deck_names_that_yaml_would_misread_still_build(tmp_path, cli, name):
    result = cli("new", "deck", name, "--dir", str(tmp_path))
    assert result.returncode == 0, result.stderr
    built = cli("build", str(tmp_path / f"{name}.yaml"), "--out", str(tmp_path / "out"))
    assert built.returncode == 0, built.stderr


# --- third round (issue 31): SVG files and fonts, one picture budget, limits of the readers ----

import hostile  # noqa: E402 - tests/ is on the path (conftest); kept beside the tests that use it

LIMIT = 1 << 30  # bytes of address space for commands run under a memory limit


def limited(*args: str, cwd: Path = ROOT, env: dict | None = None, limit: int = LIMIT):
    """``python -m kkprint ARGS`` as a process limited to ``limit`` bytes of memory, in English."""
    import resource

    def cap():
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    return subprocess.run(
        [sys.executable, "-m", "kkprint", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=300,
        preexec_fn=cap,
        env={**os.environ, "KKPRINT_LANG": "en", **(env or {})},
    )


def pdf_fonts(pdf: Path) -> list[tuple[str, bool]]:
    """(name, embedded) of every font a PDF uses, forms inside forms included."""
    from pypdf import PdfReader

    found, seen = [], set()
    stack = [page["/Resources"] for page in PdfReader(pdf).pages]
    while stack:
        resources = stack.pop().get_object()
        for font in (resources.get("/Font") or {}).values():
            font = font.get_object()
            descriptors = [font.get("/FontDescriptor")] + [
                d.get_object().get("/FontDescriptor") for d in font.get("/DescendantFonts") or []
            ]
            embedded = any(
                d is not None and any(key in d.get_object() for key in ("/FontFile", "/FontFile2", "/FontFile3"))
                for d in descriptors
            )
            found.append((str(font.get("/BaseFont")), embedded))
        for xobject in (resources.get("/XObject") or {}).values():
            xobject = xobject.get_object()
            if "/Resources" in xobject and id(xobject) not in seen:
                seen.add(id(xobject))
                stack.append(xobject["/Resources"])
    return found


def picture_deck(folder: Path, svg: str, *, fonts: str = "", icon: bool = False) -> Path:
    """A deck of one mini card showing ``svg`` (the file's text) as art, or as an icon in a line."""
    (folder / "art.svg").write_text(svg, encoding="utf-8")
    region = (
        "t: {type: text, x: 1, y: 1, w: 40, h: 20, size: 40, text: 'A {art}'}"
        if icon
        else "p: {type: image, x: 1, y: 1, w: 40, h: 40, src: art.svg}"
    )
    deck = folder / "d.yaml"
    deck.write_text(
        f"name: d\ncard: {{w: 42, h: 42}}\n{fonts}{'icons: {art: art.svg}' if icon else ''}\n"
        f"layout: {{{region}}}\ncards: [{{name: A}}]\n",
        encoding="utf-8",
    )
    return deck


@pytest.mark.parametrize("where", ["relative", "absolute", "as-icon"])
def test_a_font_family_in_svg_art_opens_no_file(english, tmp_path, cli, where):
    """svglib opened <family>.ttf from wherever the SVG said and embedded it: a deck could print a
    font from anywhere on the machine. The font here names itself LeakedSecret."""
    secret = tmp_path / "secret"
    secret.mkdir()
    hostile.font(secret / "leak.ttf", "LeakedSecret")
    folder = tmp_path / "deck"
    folder.mkdir()
    family = "../secret/leak" if where == "relative" else str(secret / "leak")
    svg = f'<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><text y="30" font-family="{family}" font-size="30">AB</text></svg>'
    deck = picture_deck(folder, svg, icon=where == "as-icon")
    result = cli("build", str(deck), "--out", str(tmp_path / "out"), cwd=folder)  # (svglib looked beside the cwd)
    assert result.returncode == 0, result.stderr
    [pdf] = (tmp_path / "out").glob("*.pdf")
    assert b"LeakedSecret" not in pdf.read_bytes()
    fonts = pdf_fonts(pdf)
    assert fonts and all(embedded for _, embedded in fonts), fonts
    assert not any("Helvetica" in name or "Leaked" in name for name, _ in fonts)


def _ink(png: Path, box: tuple[int, int, int, int]) -> float:
    """The share of dark pixels in ``box`` of a picture."""
    from PIL import Image

    with Image.open(png) as image:
        pixels = image.convert("L").crop(box).tobytes()
    return sum(1 for value in pixels if value < 128) / len(pixels)


def test_text_in_svg_art_is_drawn_in_the_decks_font_as_outlines(english, tmp_path, cli):
    """The deck's family by its fonts: name (its X a box filling the em), else the bundled font;
    either way outlines: no font is added to the PDF for the art, nothing is left unembedded."""
    hostile.font(tmp_path / "blocky.ttf", "Blocky", box_x=True)
    inks = {}
    for family in ("blocky", "sans-serif"):
        folder = tmp_path / family
        folder.mkdir()
        (folder / "blocky.ttf").write_bytes((tmp_path / "blocky.ttf").read_bytes())
        svg = (
            '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">'
            f'<text x="0" y="80" font-family="{family}" font-size="100">X</text></svg>'
        )
        deck = picture_deck(folder, svg, fonts="fonts: {blocky: {regular: blocky.ttf}}\n")
        result = cli("build", str(deck), "--out", str(folder / "out"))
        assert result.returncode == 0, result.stderr
        [pdf] = (folder / "out").glob("*.pdf")
        fonts = pdf_fonts(pdf)
        assert all(embedded for _, embedded in fonts) and not any("Blocky" in name for name, _ in fonts), fonts
        result = cli("export", str(deck), "--dpi", "72", "--out", str(folder / "png"))
        assert result.returncode == 0, result.stderr
        inks[family] = _ink(folder / "png" / "001-A.png", (20, 20, 100, 100))  # inside the art's 40 mm square
    assert inks["blocky"] > 0.6 > 0.4 > inks["sans-serif"] > 0.05, inks  # a box, and a real X


def test_a_picture_budget_holds_for_everything_an_svg_holds(english, tmp_path, cli):
    """Three real pictures of 15 megapixels, each within the limit, are over it together."""
    from PIL import Image

    for name in ("a", "b", "c"):
        Image.new("L", (5000, 3000), 200).save(tmp_path / f"{name}.png")
    images = "".join(f'<image href="{n}.png" width="10" height="10"/>' for n in "abc")
    deck = picture_deck(tmp_path, f'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">{images}</svg>')
    result = limited("build", str(deck), "--out", str(tmp_path / "out"))
    assert_clean_error(result, "art.svg: the pictures in it come to more than 40 megapixels", "region 'p'")
    assert not list(tmp_path.glob("out/*"))


def test_a_damaged_font_is_named_with_the_character_it_cannot_draw(english, tmp_path, cli):
    hostile.font(tmp_path / "f.ttf", "Broken", broken="missing")
    deck = tmp_path / "d.yaml"
    deck.write_text(
        "name: d\ncard: {size: mini}\nfonts: {b: {regular: f.ttf}}\n"
        "layout: {t: {type: text, font: b, x: 1, y: 1, w: 30, h: 9, text: '${name}'}}\ncards: [{name: AB}]\n",
        encoding="utf-8",
    )
    result = cli("build", str(deck), "--out", str(tmp_path / "out"))
    assert_clean_error(result, "fonts.b.regular", "font 'f.ttf' is damaged: its glyph for 'B' (U+0042) cannot be read")
    assert not list(tmp_path.glob("out/*"))


@pytest.mark.parametrize(
    "change, fragment",
    [
        ({"dimension": "A1:XFD1048576"}, "declares 1,048,576 rows × 16,384 columns"),
        ({"far_cell": True}, "row 9: this row has cells beyond column 1,000"),
        ({"number": "9" * 5000}, "row 2: a number in this row has more than 4,300 digits"),
    ],
)
def test_a_workbook_is_refused_from_what_it_declares(english, tmp_path, change, fragment):
    """1.6 kB declaring 16,384 × 1,048,576 cells cost a minute before it was refused: now at once
    (and a process limited to 1 GiB could not have padded a million rows)."""
    hostile.workbook(tmp_path / "cards.xlsx", **change)
    deck = tmp_path / "d.yaml"
    deck.write_text(
        "name: d\ncard: {size: mini}\ndata: cards.xlsx\nlayout: {t: {type: text, x: 1, y: 1, w: 30, h: 9, text: '${name}'}}\n",
        encoding="utf-8",
    )
    assert_clean_error(limited("build", str(deck), "--out", str(tmp_path / "out")), "cards.xlsx", fragment)


def test_a_picture_inside_a_workbook_is_never_decoded(tmp_path):
    """Cells are read, pictures are not: one claiming 400 megapixels costs nothing."""
    hostile.workbook(tmp_path / "cards.xlsx", picture=(20000, 20000))
    deck = tmp_path / "d.yaml"
    deck.write_text(
        "name: d\ncard: {size: mini}\ndata: cards.xlsx\nlayout: {t: {type: text, x: 1, y: 1, w: 30, h: 9, text: '${name}'}}\n",
        encoding="utf-8",
    )
    result = limited("build", str(deck), "--out", str(tmp_path / "out"), limit=LIMIT // 2)
    assert result.returncode == 0, result.stderr


def test_a_broken_config_file_is_said_once_and_commands_still_run(tmp_path):
    """A config.yaml kkprint cannot use stopped every command, even court eligible 6 6 6."""
    config = tmp_path / "config" / "kkprint"
    config.mkdir(parents=True)
    env = {"XDG_CONFIG_HOME": str(tmp_path / "config"), "KKPRINT_LANG": ""}
    env = {k: v for k, v in {**os.environ, **env}.items() if k not in ("KKPRINT_LANG", "KKPRINT_PAPER")}

    def run(*args):
        return subprocess.run(
            [sys.executable, "-m", "kkprint", *args], capture_output=True, text=True, cwd=ROOT, timeout=60, env=env
        )

    (config / "config.yaml").write_text("lang: en\npaper: " + "9" * 5000 + "\n", encoding="utf-8")
    result = run("court", "eligible", "6", "6", "6", "--json")
    assert result.returncode == 0 and json_of(result.stdout)["eligible"][:2] == ["Fool", "Charlatan"]
    assert result.stderr.count("\n") == 1 and "config.yaml: line 2: a number of 5,000 digits" in result.stderr
    assert "the config file is ignored" in result.stderr and "Traceback" not in result.stderr
    (config / "config.yaml").write_text("lang: ja\npaper: a5\n", encoding="utf-8")
    result = run("court", "eligible", "6", "6", "6")
    assert result.returncode == 0 and "取れる" in result.stdout  # lang: ja still holds
    assert result.stderr.count("\n") == 1 and "paper は a4, letter, a3 のどれかです" in result.stderr
    assert "この設定は使いません" in result.stderr and "ignored" not in result.stderr
    assert run("config", "set", "paper", "letter").returncode == 0
    assert run("court", "eligible", "6", "6", "6").stderr == ""  # mended


def json_of(text: str):
    import json

    return json.loads(text)


def test_control_characters_of_a_setting_are_shown_as_escapes(cli):
    env = {**os.environ, "KKPRINT_PAPER": "\x1b[31mred\x1b[0m", "KKPRINT_LANG": "en"}
    result = subprocess.run(
        [sys.executable, "-m", "kkprint", "build", "kardinal", "--out", "/nonexistent"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        env=env,
    )
    assert_clean_error(result, "KKPRINT_PAPER", "'\\x1b[31mred\\x1b[0m'")
    assert "\x1b" not in result.stderr


def test_a_closed_standard_output_is_one_line_and_a_reader_that_leaves_is_quiet(english):
    closed = subprocess.run(
        [sys.executable, "-m", "kkprint", "court", "eligible", "6", "6", "6"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        timeout=60,
        preexec_fn=lambda: os.close(1),
    )
    assert (
        closed.returncode == 2
        and closed.stderr == "kkprint: error: standard output is closed, so nothing could be printed\n"
    )
    process = subprocess.Popen(
        [sys.executable, "-m", "kkprint", "schema"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT
    )
    process.stdout.close()  # like `kkprint schema | head -0`
    assert process.wait(timeout=60) == 141 and process.stderr.read() == b""


def test_a_read_only_data_folder_is_said_to_be_one(english, tmp_path):
    import shutil

    if os.geteuid() != 0 or shutil.which("chattr") is None:
        pytest.skip("needs root and chattr to make a folder even root cannot write (root ignores permissions)")
    folder = tmp_path / "data"
    folder.mkdir()
    if subprocess.run(["chattr", "+i", str(folder)], capture_output=True).returncode != 0:
        pytest.skip("this file system has no immutable flag (chattr +i)")
    try:
        from conftest import free_port

        result = subprocess.run(
            [sys.executable, "-m", "kkprint", "serve", "--port", str(free_port())],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=60,
            env={**os.environ, "KKPRINT_DATA_DIR": str(folder), "KKPRINT_LANG": "en"},
        )
    finally:
        subprocess.run(["chattr", "-i", str(folder)], check=True)
    assert_clean_error(result, "scorepad.sqlite3", "the folder or the file is read-only")
    assert "not a saved-games database" not in result.stderr


# --- fitting, bounded ----------------------------------------------------------------------------


def test_a_text_built_to_be_hard_to_fit_is_cheap(english):
    """Ten thousand letters without a space, from 200 pt down to 0.1 pt, laid out at every size
    on the way (three times, breaking words at the last): 30 s a card. Sizes its width cannot fit
    are passed over: the characters laid into lines are counted, not timed."""
    from kkprint.engine import text
    from kkprint.engine.fonts import prepare_fonts

    fonts = prepare_fonts(["x"])
    before = text._work_done[0]
    fitted = text.fit_text("x" * 9000 + "!", fonts.regular, text.TextBox(0, 0, 167, 238), 200, 0.1)
    assert fitted.size < 3 and sum(len(a.text) for line in fitted.lines for a in line) == 9001
    assert text._work_done[0] - before < 100_000  # naively: 9,001 characters at 800 sizes, three times


def test_fitting_beyond_its_bound_names_the_card_and_region(english, tmp_path, monkeypatch):
    from kkprint.base.errors import InputError
    from kkprint.cli.targets import resolve
    from kkprint.engine import text
    from kkprint.engine.job import BuildOptions, build_targets

    deck = tmp_path / "d.yaml"
    words = " ".join(f"w{i}" for i in range(300))
    deck.write_text(
        "name: d\ncard: {size: poker}\nlayout:\n  body: {type: text, x: 2, y: 2, w: 30, h: 20, size: 20, min_size: 1, text: '${text}'}\n"
        f"cards: [{{name: A, text: short}}, {{name: B, text: '{words}'}}]\n",
        encoding="utf-8",
    )
    monkeypatch.setattr(text, "MAX_FIT_WORK", 1_000)  # the text has 1,400 characters: one try
    with pytest.raises(InputError) as refused:
        build_targets(resolve([str(deck)]), BuildOptions(out_dir=tmp_path / "out"))
    assert "cards[1]" in str(refused.value) and "region 'body'" in str(refused.value)
    assert "takes too long to fit its box" in str(refused.value)
    monkeypatch.setattr(text, "MAX_FIT_WORK", 10**9)
    monkeypatch.setattr(text, "MAX_DOCUMENT_FIT_WORK", 1_000)
    deck.write_text(deck.read_text().replace(words, words.replace("w", "v")), encoding="utf-8")  # (not fitted before)
    with pytest.raises(InputError) as refused:
        build_targets(resolve([str(deck)]), BuildOptions(out_dir=tmp_path / "out2"))
    assert "cards[1]" in str(refused.value) and "fitting this document's texts is taking too long" in str(refused.value)
    assert not list(tmp_path.glob("out*/*"))  # (no PDF, nor a part of one)


def test_the_documents_fitting_bound_ends_the_preflight_too(english, tmp_path, monkeypatch):
    """The preflight notes a card's error and draws on; the bound on a whole document's fitting
    it lets through at the card that reached it, or the bound would be spent on every card left."""
    from kkprint.base.errors import LimitReached
    from kkprint.deck.build import check_deck
    from kkprint.deck.load import load_deck
    from kkprint.engine import text

    cards = ", ".join(f"{{name: C{n}, text: '{' '.join(f'u{n}x{i}' for i in range(300))}'}}" for n in range(6))
    deck = tmp_path / "d.yaml"
    deck.write_text(
        "name: d\ncard: {size: poker}\nlayout:\n  body: {type: text, x: 2, y: 2, w: 30, h: 20, size: 20,"
        f" min_size: 1, text: '${{text}}'}}\ncards: [{cards}]\n",
        encoding="utf-8",
    )
    monkeypatch.setattr(text, "MAX_DOCUMENT_FIT_WORK", 1_000)  # each card's text is 2,000 characters
    before = text._work_done[0]
    with pytest.raises(LimitReached) as refused:
        check_deck(load_deck(deck))
    assert "card 1 'C0' (cards[0]" in str(refused.value) and "region 'body'" in str(refused.value)
    assert text._work_done[0] - before < 2 * 100_000  # one card's fitting, not six


# --- pictures of cards and pages: memory of one -------------------------------------------------


def _peak_mb(*args: str) -> float:
    process = subprocess.Popen(
        [sys.executable, "-m", "kkprint", *args], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    _, status, usage = os.wait4(process.pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, process.stderr.read()
    return usage.ru_maxrss / 1024


def test_export_keeps_one_card_in_memory_whatever_the_count(tmp_path):
    """At 600 dpi a poker card is 9 MB of pixels: 24 cards kept would add 200 MB."""
    peaks = {}
    for count in (2, 24):
        deck = tmp_path / f"d{count}.yaml"
        deck.write_text(
            f"name: d{count}\ncard: {{size: poker}}\nlayout:\n  t: {{type: text, x: 2, y: 2, w: 50, h: 9, text: '${{name}}'}}\n"
            "back:\n  b: {type: shape, shape: rect, x: 0, y: 0, w: 63, h: 88, fill: '#224488'}\n"
            f"cards: [{', '.join(f'{{name: C{i}}}' for i in range(count))}]\n",
            encoding="utf-8",
        )
        peaks[count] = _peak_mb("export", str(deck), "--png", "--dpi", "600", "--out", str(tmp_path / f"png{count}"))
        assert len(list((tmp_path / f"png{count}").glob("*.png"))) == count + 1  # fronts, one back
    assert peaks[24] < peaks[2] + 60, peaks


def test_a_page_larger_than_a_band_is_written_row_by_row_as_it_would_be_whole(tmp_path, monkeypatch):
    import pypdfium2 as pdfium
    from PIL import Image, ImageChops

    from kkprint.engine import preview

    deck = tmp_path / "d.yaml"
    deck.write_text(SMALL_DECK.replace("card: {size: mini}", "card: {size: poker}"), encoding="utf-8")
    [pdf] = subprocess_build(deck, tmp_path / "out")
    document = pdfium.PdfDocument(str(pdf))
    try:
        page = document[0]
        whole = page.render(scale=2).to_pil().convert("RGB")
        monkeypatch.setattr(preview, "BAND_PIXELS", 40_000)  # a few dozen rows a band
        preview.write_png(page, 2, tmp_path / "banded.png")
    finally:
        document.close()
    with Image.open(tmp_path / "banded.png") as banded:
        assert banded.size == whole.size
        difference = ImageChops.difference(banded.convert("RGB"), whole)
        assert max(high for _, high in difference.getextrema()) <= 1  # antialiasing at band edges, at most
        assert whole.getbbox() is not None and banded.convert("L").getextrema()[0] < 100  # the page has ink


def subprocess_build(deck: Path, out: Path) -> list[Path]:
    result = subprocess.run(
        [sys.executable, "-m", "kkprint", "build", str(deck), "--out", str(out)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return [Path(line) for line in result.stdout.split()]


# --- the whole corpus, each case a process under a memory limit ---------------------------------

from test_robustness import COMMANDS, CORPUS  # noqa: E402 - the corpus and the command of each folder

RUN_ALL = """
import contextlib, io, json, sys
from kkprint.cli.app import main
for args in json.loads(sys.stdin.read()):
    out, err, code = io.StringIO(), io.StringIO(), 0
    sys.argv = ["kkprint", *args]
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main()
        except SystemExit as ended:
            code = ended.code if isinstance(ended.code, int) else (0 if ended.code is None else 1)
    print(json.dumps({"args": args, "code": code, "err": err.getvalue()}), flush=True)
"""


def generated_cases(folder: Path) -> list[list[str]]:
    """What is too large to keep as a file: 100,000-deep YAML and JSON, integers of 5,000 digits
    (bare and quoted), a workbook declaring a million rows, for a deck and every tally."""
    cases = []
    deep, digits = "[" * 100_000 + "]" * 100_000, "9" * 5000
    for game, command in COMMANDS.items():
        for name, text in (
            ("deep", f"players: {deep}\n"),
            ("digits", f"players: [{digits}]\n"),
            (
                "quoted",
                f"players:\n  - {{name: A, ships: '{digits}', dice: ['{digits}', 1, 1]}}\n  - {{name: B}}\n  - {{name: C}}\n",
            ),
        ):
            path = folder / f"{game}-{name}.yaml"
            path.write_text(text, encoding="utf-8")
            cases.append([*command, str(path)] + (["--out", str(folder / "out")] if game == "deck" else []))
    (folder / "deep.json").write_text(deep, encoding="utf-8")
    hostile.workbook(folder / "wide.xlsx", dimension="A1:XFD1048576")
    for data in ("deep.json", "wide.xlsx"):
        deck = folder / f"deck-{data}.yaml"
        deck.write_text(f"name: d\ncard: {{size: mini}}\ndata: {data}\n", encoding="utf-8")
        cases.append(["build", str(deck), "--out", str(folder / "out")])
    cases.append(["court", "eligible", "6", "6", digits])
    return cases


def test_the_whole_corpus_under_a_memory_limit(tmp_path):
    """Every case of tests/corpus/ and every generated one, run by the CLI in a process limited to
    1 GiB: no internal error, no traceback, no exit but 0, 2, 130 or 143 (and no crash: a segfault
    would end the process before the last case reports)."""
    import json
    import resource

    cases = [
        [*COMMANDS[folder.name], str(path)] + (["--out", str(tmp_path / "out")] if folder.name == "deck" else [])
        for folder in sorted(p for p in CORPUS.iterdir() if p.is_dir())
        for path in sorted(folder.glob("*.yaml"))
    ] + generated_cases(tmp_path)

    def cap():
        resource.setrlimit(resource.RLIMIT_AS, (LIMIT, LIMIT))

    finished = subprocess.run(
        [sys.executable, "-c", RUN_ALL],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
        preexec_fn=cap,
        env={**os.environ, "KKPRINT_LANG": "en"},
    )
    reports = [json.loads(line) for line in finished.stdout.splitlines()]
    assert finished.returncode == 0 and len(reports) == len(cases), (finished.returncode, finished.stderr[-2000:])
    for report in reports:
        assert report["code"] in (0, 2, 130, 143), report
        assert "internal error" not in report["err"] and "Traceback" not in report["err"], report
        if report["code"] == 2:
            assert len(report["err"].strip().splitlines()) == 1, report
