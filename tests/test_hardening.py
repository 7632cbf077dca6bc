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


def test_standard_input_is_limited_and_must_be_utf8(english, cli):
    assert_clean_error(cli("scorer", "kardinal", "-", input="x" * (6 * 1024 * 1024)), "<stdin>", "larger than")
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
        (["calibrate", "--save", "nan", "--save", "0"], "beyond ±20 mm"),
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
    assert list(out.iterdir()) == []


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
