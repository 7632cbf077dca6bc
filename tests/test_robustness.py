"""Hostile and broken input: every command answers exit 2 and one line, never a traceback,
never runs code, never writes outside the output folder, never leaves a half-written PDF."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import ROOT, as_shown, run_main, running
from pypdf import PdfReader

CORPUS = Path(__file__).parent / "corpus"
COMMANDS = {
    "kardinal": ["scorer", "kardinal"],
    "webofpower": ["scorer", "webofpower"],
    "webofpower-board": ["scorer", "webofpower-board"],
    "court": ["scorer", "court"],
    "culdcept": ["scorer", "culdcept"],
    "deck": ["build"],
}


def run(args, capsys, monkeypatch, stdin=""):
    """The CLI in this process (fast enough to run the whole corpus), in English: the corpus names
    the English words it expects; the Japanese of every message is checked by test_messages."""
    return run_main(args, capsys, monkeypatch, "en", stdin)


def assert_one_line_error(code, out, err, *fragments):
    assert code == 2, (code, out, err)
    assert "Traceback" not in err and out == ""
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])


def corpus_cases():
    for folder in sorted(CORPUS.iterdir()):
        for path in sorted(folder.glob("*.yaml")):
            yield pytest.param(folder.name, path, id=f"{folder.name}/{path.stem}")


@pytest.mark.parametrize("command,path", list(corpus_cases()))
def test_corpus(command, path, capsys, monkeypatch, tmp_path):
    expected = path.read_text(encoding="utf-8").splitlines()[0].removeprefix("# expect:").strip()
    args = [*COMMANDS[command], str(path)] + (["--out", str(tmp_path)] if command == "deck" else [])
    code, out, err = run(args, capsys, monkeypatch)
    assert_one_line_error(code, out, err, as_shown(str(path.parent)), expected)  # the deck, or a file beside it
    assert not list(tmp_path.iterdir())


GENERATED = {
    "empty": (b"", "is empty"),
    "only-comment": (b"# nothing\n", "is empty"),
    "binary": (bytes(range(256)) * 4, "binary"),
    "latin1": ("players: [Jos\xe9]".encode("latin-1"), "not UTF-8"),
    "control": (b"players: [A\x1b[31m, B, C]\n", "U+001B is not allowed"),
    "number": (b"42\n", "must be a mapping"),
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("case", sorted(GENERATED))
def test_generated_garbage(command, case, capsys, monkeypatch, tmp_path):
    content, expected = GENERATED[case]
    if command == "deck" and case == "number":
        expected = "a deck file is a mapping"
    path = tmp_path / f"{case}.yaml"
    path.write_bytes(content)
    out_dir = tmp_path / "out"
    args = [*COMMANDS[command], str(path)] + (["--out", str(out_dir)] if command == "deck" else [])
    code, out, err = run(args, capsys, monkeypatch)
    assert_one_line_error(code, out, err, expected)
    assert not out_dir.exists()


def test_fifty_megabytes_is_refused_without_reading_it(capsys, monkeypatch, tmp_path):
    path = tmp_path / "huge.yaml"
    with open(path, "wb") as handle:
        handle.truncate(50 * 1024 * 1024)
    code, out, err = run(["scorer", "kardinal", str(path)], capsys, monkeypatch)
    assert_one_line_error(code, out, err, "52,428,800 bytes")


def test_full_width_digits_are_accepted_everywhere(capsys, monkeypatch, tmp_path):
    tally = tmp_path / "t.yaml"
    tally.write_text(
        "players:\n  - {name: A, lands: {France: {cards: '５', arms: '３'}}, ships: '０'}\n"
        "  - {name: B}\n  - {name: C}\n",
        encoding="utf-8",
    )
    code, out, err = run(["scorer", "kardinal", str(tally), "--json"], capsys, monkeypatch)
    assert code == 0, err
    code, out, err = run(["court", "eligible", "６", "６", "３", "--json"], capsys, monkeypatch)
    assert code == 0 and '"dice": [\n    6,\n    6,\n    3\n  ]' in out


def test_usage_errors_are_one_line_too(capsys, monkeypatch):
    code, out, err = run(["scorer", "kardinal", "a.yaml", "--nonsense"], capsys, monkeypatch)
    assert code == 2 and "Traceback" not in err and "nonsense" in err


def test_deck_output_name_cannot_escape(capsys, monkeypatch, tmp_path):
    deck = tmp_path / "decks" / "evil.yaml"
    deck.parent.mkdir()
    deck.write_text("extends: poker\nname: ../../../escaped\ncards: [{name: A, text: b}]\n", encoding="utf-8")
    out_dir = tmp_path / "out"
    code, out, err = run(["build", str(deck), "--out", str(out_dir)], capsys, monkeypatch)
    assert code == 0, err
    written = Path(out.strip())
    assert written.parent == out_dir.resolve() and written.exists()
    assert not list(tmp_path.glob("escaped*")) and not list(tmp_path.parent.glob("escaped*"))


def test_outside_files_need_the_flag(capsys, monkeypatch, tmp_path):
    (tmp_path / "shared.csv").write_text("name,text\nA,b\n", encoding="utf-8")
    deck = tmp_path / "decks" / "d.yaml"
    deck.parent.mkdir()
    deck.write_text("extends: poker\nname: d\ncsv: ../shared.csv\n", encoding="utf-8")
    code, out, err = run(["build", str(deck), "--out", str(tmp_path / "o")], capsys, monkeypatch)
    assert_one_line_error(code, out, err, "outside the deck's folder")
    code, out, err = run(["build", str(deck), "--out", str(tmp_path / "o"), "--allow-outside"], capsys, monkeypatch)
    assert code == 0, err


def test_killed_build_leaves_old_or_new_pdf_never_a_broken_one(tmp_path):
    out = tmp_path / "out"
    first = subprocess.run(
        [sys.executable, "-m", "kkprint", "build", "kardinal", "--out", str(out)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert first.returncode == 0, first.stderr
    old = {p.name: p.read_bytes() for p in out.glob("*.pdf")}
    for delay in (0.3, 0.6, 0.9, 1.2):
        process = subprocess.Popen(
            [sys.executable, "-m", "kkprint", "build", "kardinal", "--lang", "en", "--out", str(out)],
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(delay)
        process.send_signal(signal.SIGKILL)
        process.wait()
        for path in out.glob("*.pdf"):
            data = path.read_bytes()
            assert data.rstrip().endswith(b"%%EOF"), path.name
            if path.name in old:
                assert data == old[path.name]
            PdfReader(path)  # parses
    # what a kill leaves is removed by the next build as soon as the killed process is gone
    subprocess.run(
        [sys.executable, "-m", "kkprint", "build", "kardinal", "--lang", "en", "--out", str(out)],
        capture_output=True,
        cwd=ROOT,
        timeout=120,
        check=True,
    )
    assert not list(out.glob(".*.part"))


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux's /proc)."""
    found = []
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            fields = dict(line.split(":\t", 1) for line in status.read_text().splitlines() if ":\t" in line)
        except OSError:  # (gone while we looked)
            continue
        if fields.get("PPid", "").strip() == str(pid):
            found.append(int(status.parent.name))
    return found


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux's /proc to see the workers")
@pytest.mark.parametrize("target", ["all", "kardinal"], ids=["build workers", "font workers (a first build)"])
def test_a_killed_build_takes_its_workers_with_it(tmp_path, target):
    """`kill -9` of a build that started workers (one a target, or one a font face to subset on
    a first build): the workers end too, instead of waiting forever."""
    process = subprocess.Popen(
        [sys.executable, "-m", "kkprint", "build", target, "--lang", "en", "--out", str(tmp_path / "out")],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "KKPRINT_JOBS": "2"},
    )
    deadline = time.monotonic() + 60
    workers: list[int] = []
    while not workers and process.poll() is None and time.monotonic() < deadline:
        workers = _children(process.pid)
        time.sleep(0.01)
    assert workers, "the build never forked a worker"
    process.send_signal(signal.SIGKILL)
    process.wait()
    deadline = time.monotonic() + 10
    while any(running(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = [pid for pid in workers if running(pid)]
    for pid in left:  # (do not leave them to the next test)
        os.kill(pid, signal.SIGKILL)
    assert not left, "workers outlived the killed build"
