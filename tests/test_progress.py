"""Progress on long work: a bar in a pseudo-terminal (pexpect), in the user's language, gone
when the work is done; nothing of it in a pipe or with ``-q``; ``-v`` says what was done and how
long it took. ``KKPRINT_PROGRESS_AFTER=0`` draws every bar at once, so that what is checked does
not depend on how fast this machine builds."""

import os
import subprocess
import sys

import pytest

pexpect = pytest.importorskip("pexpect", reason="pexpect drives the pseudo-terminal")

CARDS = 300


@pytest.fixture
def deck(tmp_path):
    rows = ["name,cost"] + [f"Card {number},{number % 9}" for number in range(CARDS)]
    (tmp_path / "many.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    (tmp_path / "many.yaml").write_text(
        "name: many\ncard: {size: poker}\ndata: many.csv\n"
        "layout:\n  t: {type: text, x: 5, y: 5, w: 50, h: 20, text: '${name} ${cost}'}\n",
        encoding="utf-8",
    )
    return tmp_path


def environment(lang: str) -> dict[str, str]:
    return {**os.environ, "KKPRINT_LANG": lang, "TERM": "xterm", "KKPRINT_PROGRESS_AFTER": "0"}


def at_a_terminal(folder, lang: str, *args: str) -> tuple[int, str]:
    """``kkprint ARGS`` in a pseudo-terminal: its exit code and everything it showed there."""
    child = pexpect.spawn(
        sys.executable,
        ["-m", "kkprint", *args],
        cwd=str(folder),
        env=environment(lang),
        encoding="utf-8",
        timeout=120,
        dimensions=(30, 120),
    )
    child.expect(pexpect.EOF)
    child.close()
    return child.exitstatus, child.before


def in_a_pipe(folder, lang: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "kkprint", *args],
        cwd=folder,
        env=environment(lang),
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    "lang,drawing,writing",
    [("ja", "カードを描いています", "画像を書き出しています"), ("en", "drawing cards", "writing pictures")],
)
def test_a_bar_at_a_terminal_in_the_users_language(deck, lang, drawing, writing):
    code, shown = at_a_terminal(deck, lang, "build", "many.yaml", "--out", "out")
    assert code == 0, shown
    assert drawing in shown and f"/{CARDS}" in shown and "━" in shown, shown[-500:]
    assert shown.rstrip().endswith("out/many-a4.pdf")  # the bar is gone; the file written is the last word
    code, shown = at_a_terminal(deck, lang, "export", "many.yaml", "--out", "pics", "--only", "1-40")
    assert code == 0, shown
    assert writing in shown and "/40" in shown, shown[-500:]  # one picture per card: the deck has no back
    assert "pics/001-Card-0.png" in shown and "pics/040-Card-39.png" in shown


def test_quiet_shows_nothing_at_a_terminal_and_writes_all_the_same(deck):
    code, shown = at_a_terminal(deck, "ja", "build", "many.yaml", "--out", "out", "-q")
    assert code == 0 and shown.strip() == "", shown
    assert (deck / "out" / "many-a4.pdf").stat().st_size > 0


def test_a_pipe_gets_the_files_written_and_no_bar(deck):
    result = in_a_pipe(deck, "ja", "build", "many.yaml", "--out", "out")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "out/many-a4.pdf\n" and result.stderr == ""


def test_verbose_says_what_was_built_and_how_long_it_took(deck):
    result = in_a_pipe(deck, "en", "build", "many.yaml", "--out", "out", "-v")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "out/many-a4.pdf\n"
    [line] = result.stderr.splitlines()
    assert line.startswith("kkprint: built many.yaml in ") and line.endswith(" s"), line
    result = in_a_pipe(deck, "ja", "build", "many.yaml", "--out", "out", "-v")
    assert "many.yaml を作りました" in result.stderr, result.stderr
    quiet = in_a_pipe(deck, "en", "build", "many.yaml", "--out", "out", "-v", "-q")
    assert quiet.returncode == 0 and quiet.stdout == "" and quiet.stderr == ""  # -q wins


def test_several_targets_are_counted_as_they_are_built(tmp_path):
    code, shown = at_a_terminal(tmp_path, "ja", "build", "court", "culdcept", "--out", "out")
    assert code == 0, shown
    assert "作っています" in shown and "/2" in shown, shown[-500:]
    written = [line for line in shown.splitlines() if line.strip().endswith(".pdf")]
    assert written and all(line.strip().startswith("out/") for line in written)


def test_quiet_keeps_only_what_went_wrong(deck, capsys, monkeypatch):
    """-q on any command: no list of files, no summary; a finding or an error still shows."""
    from conftest import run_main

    monkeypatch.chdir(deck)
    assert run_main(["new", "deck", "fresh", "--dir", "fresh", "-q"], capsys, monkeypatch) == (0, "", "")
    assert run_main(["check", "fresh/fresh.yaml", "-q"], capsys, monkeypatch) == (0, "", "")
    code, out, err = run_main(["check", "fresh/fresh.yaml"], capsys, monkeypatch, "en")
    assert code == 0 and out.startswith("fresh/fresh.yaml: ") and "checked" in out
    code, out, err = run_main(["build", "nothere.yaml", "-q"], capsys, monkeypatch, "en")
    assert code == 2 and out == "" and "nothere.yaml" in err


def test_verbose_names_every_target_even_those_a_forked_worker_built(tmp_path):
    """``build all`` shares its games out to a worker process on every other core: a worker's
    own lines are not the terminal's, so the parent says how long each of them took."""
    result = subprocess.run(
        [sys.executable, "-m", "kkprint", "build", "court", "culdcept", "webofpower", "--out", "out", "-v"],
        cwd=tmp_path,
        env={**environment("en"), "KKPRINT_JOBS": "2"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    built = sorted(line.split()[2] for line in result.stderr.splitlines() if line.startswith("kkprint: built "))
    assert built == ["court", "culdcept", "webofpower"], result.stderr
