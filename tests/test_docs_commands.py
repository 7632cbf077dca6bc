"""The user's documents keep their word: every shell command in both READMEs and both deck guides
runs, in order, from an empty temporary folder, and ends as the document says; and each Japanese
document is the English one's twin (the same headings, one to one and in order, and the same
commands).

How a document tells this test what to expect: a fenced ``sh`` block runs as it is and every
command in it must exit 0, unless the line just before its fence is an HTML comment
``<!-- doc-test: MARK -->`` (invisible on GitHub):

- ``setup`` — set-up commands (a virtual environment, ``pipx install``): not run here, since the
  test already runs inside such an install; the README's first block must still be exactly what
  CI (``.ci/run``) runs.
- ``server`` — the block holds a command that keeps running (``serve``, ``studio``, ``watch``):
  it is started (on a free port), must say it is ready (its address, or the PDF it built), and
  then stops on Ctrl-C. Its other commands run as usual.
- ``prompt`` — commands that ask at the prompt: they get three player names and then the end of
  input, as a player who stops there would, and must end with the prompt's clean exit code 2.
- ``fails`` — commands shown failing on purpose: exit code 2, one line on stderr.

The commands run with the editable install's ``kkprint`` (the one on this test's PATH);
tests/test_install.py proves the wheel a ``pip``/``pipx`` user gets holds the same guide and
examples.
"""

from __future__ import annotations

import os
import re
import selectors
import shlex
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from conftest import ROOT

DOCS = {
    "README.md": "en",
    "README.ja.md": "ja",
    "docs/custom-decks.md": "en",
    "docs/custom-decks.ja.md": "ja",
}
TWINS = [
    ("README.md", "README.ja.md"),
    ("docs/custom-decks.md", "docs/custom-decks.ja.md"),
    ("CONTRIBUTING.md", "CONTRIBUTING.ja.md"),  # twins too, though their commands are not run here
]
MARKS = {"setup", "server", "prompt", "fails"}
LONG_RUNNING = {"serve", "studio", "watch"}
KKPRINT = Path(sys.executable).parent / "kkprint"
PROMPT_ANSWERS = "Aki\nBen\nChie\n\n"
_MARK = re.compile(r"<!--\s*doc-test:\s*(\S+)\s*-->")


@dataclass
class Block:
    line: int  # where its fence opens, for messages
    mark: str | None
    commands: list[list[str]] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)  # as written, comments and all


def read_doc(name: str) -> tuple[list[tuple[int, str]], list[Block]]:
    """The document's headings (level, text) outside code, and its ``sh`` blocks with their marks."""
    headings: list[tuple[int, str]] = []
    blocks: list[Block] = []
    fence: str | None = None
    previous = ""
    for number, line in enumerate((ROOT / name).read_text(encoding="utf-8").splitlines(), 1):
        stripped = line.strip()
        if fence is None and stripped.startswith("```"):
            fence = stripped[3:].strip()
            if fence == "sh":
                marked = _MARK.fullmatch(previous)
                blocks.append(Block(number, marked.group(1) if marked else None))
        elif fence is not None and stripped == "```":
            fence = None
        elif fence == "sh":
            words = shlex.split(line, comments=True)
            if words:
                blocks[-1].commands.append(words)
                blocks[-1].lines.append(line.split(" #")[0].strip())
        elif fence is None and re.match(r"#{1,6} ", line):
            hashes, text = line.split(" ", 1)
            headings.append((len(hashes), text))
        if stripped:
            previous = stripped
    assert fence is None, f"{name}: a code fence is never closed"
    return headings, blocks


@pytest.mark.parametrize(("english", "japanese"), TWINS, ids=[pair[1] for pair in TWINS])
def test_the_japanese_document_is_the_english_ones_twin(english, japanese):
    english_headings, english_blocks = read_doc(english)
    japanese_headings, japanese_blocks = read_doc(japanese)
    assert [level for level, _ in japanese_headings] == [level for level, _ in english_headings], (
        "the headings must map one to one, in order",
        list(zip(english_headings, japanese_headings)),
    )
    # a translated heading: no section left in English (numbers and commands may stay)
    for (_, english_text), (_, japanese_text) in zip(english_headings, japanese_headings):
        assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", japanese_text), (english_text, japanese_text)
    assert [(block.mark, block.commands) for block in japanese_blocks] == [
        (block.mark, block.commands) for block in english_blocks
    ]


def test_ci_runs_the_readmes_own_set_up_and_test_commands():
    _, blocks = read_doc("README.md")
    first = blocks[0]
    assert first.mark == "setup"
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").replace(" -q ", " ")  # CI only runs pip quietly
    for written in first.lines:
        assert written in ci.splitlines(), (written, "is the README's command, but .ci/run does not run it")


def test_every_block_is_marked_for_what_it_does():
    """A command that keeps running must be marked ``server`` (or this test would hang on it), and
    every command outside set-up blocks is a ``kkprint`` command a user types as written."""
    for name in DOCS:
        for block in read_doc(name)[1]:
            assert block.mark is None or block.mark in MARKS, (name, block.line, block.mark)
            if block.mark == "setup":
                continue
            assert block.commands, (name, block.line, "an empty sh block")
            long_running = [words for words in block.commands if words[1:2] and words[1] in LONG_RUNNING]
            assert bool(long_running) == (block.mark == "server"), (name, block.line, block.mark)
            for words in block.commands:
                assert words[0] == "kkprint", (name, block.line, words)


def _anchors(name: str) -> set[str]:
    """The anchors a page has on GitHub: each heading's slug, and every ``<a id>``."""
    text = (ROOT / name).read_text(encoding="utf-8")
    slugs = {re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-") for _, heading in read_doc(name)[0]}
    return slugs | set(re.findall(r'<a id="([^"]+)"></a>', text))


@pytest.mark.parametrize("name", [*DOCS, "CONTRIBUTING.md", "CONTRIBUTING.ja.md"])
def test_every_link_of_the_document_leads_somewhere(name):
    """Relative links name files that exist (and travel with them), and every #anchor is on its page."""
    text = re.sub(r"```.*?```", "", (ROOT / name).read_text(encoding="utf-8"), flags=re.S)
    links = re.findall(r"\]\(([^)\s]+)\)", text)
    assert links
    for link in links:
        if re.match(r"[a-z]+://", link):
            continue
        target, _, anchor = link.partition("#")
        page = (ROOT / name).parent / target if target else ROOT / name
        assert page.exists(), (name, link)
        if anchor:
            assert anchor in _anchors(str(page.resolve().relative_to(ROOT))), (name, link)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _environment(home: Path, lang: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("KKPRINT_")}
    env.update(
        KKPRINT_LANG=lang,
        KKPRINT_PAPER="a4",
        KKPRINT_DATA_DIR=str(home / "data"),
        XDG_CONFIG_HOME=str(home / "config"),
        XDG_DATA_HOME=str(home / "share"),
        BROWSER="true",  # the studio "opens" the page with /bin/true instead of a real browser
        PATH=f"{KKPRINT.parent}{os.pathsep}{os.environ.get('PATH', '')}",
        COLUMNS="120",
    )
    return env


def _run(words: list[str], folder: Path, env: dict[str, str], stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(KKPRINT), *words[1:]], cwd=folder, env=env, input=stdin, capture_output=True, text=True, timeout=600
    )


def _serve(words: list[str], folder: Path, env: dict[str, str]) -> tuple[int, str]:
    """Start a command that keeps running, read until it says it is ready, stop it with Ctrl-C.
    (The deadline only keeps a broken server from hanging the suite; nothing is timed.)"""
    args = [str(KKPRINT), *words[1:]]
    if words[1] in ("serve", "studio") and "--port" not in words:
        args += ["--port", str(_free_port())]
    ready = "http://" if words[1] in ("serve", "studio") else ".pdf"
    process = subprocess.Popen(
        args, cwd=folder, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    said: list[str] = []
    assert process.stdout is not None
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ)
        deadline = time.monotonic() + 300
        while not any(ready in line for line in said) and time.monotonic() < deadline:
            if selector.select(timeout=5):
                line = process.stdout.readline()
                if not line:
                    break  # it ended by itself: the assertions below say so
                said.append(line)
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
    try:
        rest, _ = process.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        process.kill()
        rest, _ = process.communicate()
    output = "".join(said) + (rest or "")
    assert any(ready in line for line in said), (words, "never said it was ready", output)
    return process.returncode, output


@pytest.mark.parametrize("name", list(DOCS))
def test_every_command_of_the_document_runs_as_it_says(name, tmp_path):
    lang = DOCS[name]
    folder = tmp_path / "anywhere"
    folder.mkdir()
    env = _environment(tmp_path, lang)
    ran = 0
    for block in read_doc(name)[1]:
        if block.mark == "setup":
            continue
        for words in block.commands:
            where = f"{name}, block at line {block.line}: {shlex.join(words)}"
            if block.mark == "server" and words[1] in LONG_RUNNING:
                code, output = _serve(words, folder, env)
                assert code in (0, 130), (where, code, output)
                assert "Traceback" not in output, (where, output)
            elif block.mark == "prompt":
                done = _run(words, folder, env, PROMPT_ANSWERS)
                assert done.returncode == 2, (where, done.returncode, done.stderr)
                # the questions go to stderr too; the last line says, in one line, why it stopped
                assert "Traceback" not in done.stderr, (where, done.stderr)
                assert done.stderr.strip().splitlines()[-1].count("kkprint:") == 1, (where, done.stderr)
                if "--save" in words:  # what was answered is kept, for --resume to go on with
                    saved = folder / words[words.index("--save") + 1]
                    assert "Aki" in saved.read_text(encoding="utf-8"), where
            elif block.mark == "fails":
                done = _run(words, folder, env)
                assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1, (where, done.stderr)
            else:
                done = _run(words, folder, env)
                assert done.returncode == 0, (where, done.returncode, done.stderr[-2000:])
                assert "Traceback" not in done.stderr, (where, done.stderr)
            ran += 1
    assert ran >= 10, (name, "has fewer commands than a user's route needs", ran)


def test_every_dependency_says_why_it_is_there():
    """CONTRIBUTING.md's "Dependencies and why" names every package pyproject.toml asks for."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = [*project["dependencies"], *(dep for extra in project["optional-dependencies"].values() for dep in extra)]
    names = {re.split(r"[<>=!~\[; ]", dep, maxsplit=1)[0].lower() for dep in wanted}
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    section = text[text.index("## Dependencies and why") :].lower()
    assert [name for name in sorted(names) if name not in section] == []
