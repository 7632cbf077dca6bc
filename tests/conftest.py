import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LOCAL = "http://127.0.0.1"  # the score pad's own address, as its pages are opened on this machine
JSON_BODY = {"content-type": "application/json"}  # what the pad's pages send with every change


@pytest.fixture
def store(tmp_path):
    """A score pad's saved games, in a fresh database."""
    from kkprint.web.pad.store import Store

    return Store(tmp_path / "pad.sqlite3")


@pytest.fixture
def client(store):
    """The score pad over ``store``, as its pages call it; a server error is an answer to check."""
    from starlette.testclient import TestClient

    from kkprint.web.pad.app import create_app

    return TestClient(create_app(store), base_url=LOCAL, headers=JSON_BODY, raise_server_exceptions=False)


def run_cli(*args: str, input: str | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """Run ``python -m kkprint`` as a user would, capturing both streams."""
    return subprocess.run(
        [sys.executable, "-m", "kkprint", *args],
        capture_output=True,
        text=True,
        input=input,
        cwd=cwd or ROOT,
        timeout=120,
    )


def run_main(args: list[str], capsys, monkeypatch, lang: str = "en", stdin: str = "") -> tuple[int, str, str]:
    """The command line in this process, as ``kkprint ARGS`` in ``lang``: (exit code, stdout,
    stderr). Fast enough to run a whole corpus; a whole process is for what needs one."""
    import io

    from kkprint.base import i18n
    from kkprint.cli.app import main

    language = i18n.current()  # restored after: a run leaves no language behind for the next test
    monkeypatch.setenv("KKPRINT_LANG", lang)
    monkeypatch.setattr(sys, "argv", ["kkprint", *args])
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = 0
    try:
        main()
    except SystemExit as exit_:
        code = exit_.code or 0
    finally:
        i18n.use(language)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(autouse=True)
def stable_defaults(monkeypatch, tmp_path_factory):
    """Every test starts from the same defaults (Japanese, A4) whatever the machine's locale, and
    never reads or writes the developer's own config, data or cache folder; tests of the defaults change these."""
    monkeypatch.setenv("KKPRINT_LANG", "ja")
    monkeypatch.setenv("KKPRINT_PAPER", "a4")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("config")))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data")))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
    monkeypatch.delenv("KKPRINT_CACHE_DIR", raising=False)
    monkeypatch.delenv("KKPRINT_DATA_DIR", raising=False)


@pytest.fixture
def cli():
    return run_cli


@pytest.fixture
def english(monkeypatch):
    """For tests that check the English wording of messages (their Japanese is checked by
    test_messages)."""
    monkeypatch.setenv("KKPRINT_LANG", "en")


@pytest.fixture(scope="session")
def kardinal_game():
    from kkprint.games.kardinal.model import load_game

    return load_game()


def assert_clean_error(result: subprocess.CompletedProcess, *fragments: str) -> None:
    """Exit 2, one line on stderr that says what is wrong, nothing on stdout, no traceback."""
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    for fragment in fragments:
        assert as_shown(fragment) in lines[0], (fragment, lines[0])


def imported(result: subprocess.CompletedProcess) -> set[str]:
    """The modules a run under ``python -X importtime`` imported."""
    return {line.rsplit("|", 1)[1].strip() for line in result.stderr.splitlines() if line.startswith("import time:")}


def errors(result: subprocess.CompletedProcess) -> subprocess.CompletedProcess:
    """A run under ``-X importtime`` with the import times taken out of its stderr (what the user sees)."""
    lines = [line for line in result.stderr.splitlines() if not line.startswith("import time:")]
    return subprocess.CompletedProcess(result.args, result.returncode, result.stdout, "\n".join(lines))


def as_shown(fragment: str, cwd: Path = ROOT) -> str:
    """A path as the command line prints it when run in ``cwd`` (the tests' usual folder):
    relative to it when inside it (kkprint.base.pathnames.shown)."""
    prefix = str(cwd) + "/"
    return fragment[len(prefix) :] if fragment.startswith(prefix) else fragment


def assert_deck_refused(result: subprocess.CompletedProcess, *fragments: str) -> list[str]:
    """A deck build its preflight refused: exit 2, nothing on stdout, no traceback; its problems
    one line each (collected over the whole deck), the first holding ``fragments``, and — when
    there are several — a last line counting them and saying nothing was written. Returns the
    problem lines."""
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr and result.stdout == ""
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    if len(lines) > 1:
        assert re.fullmatch(r"kkprint: \d+ errors?(, \d+ warnings?)?: nothing was written for .+", lines[-1]), lines
        lines = lines[:-1]
    assert all(line.startswith("kkprint: error: ") for line in lines), lines
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    return lines


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_score_pad(data_dir: Path, port: int, *args: str, lang: str = "en", **popen) -> subprocess.Popen:
    """`kkprint serve` as a user starts it, on its own data folder; returns once it accepts
    connections (its stderr stays open for the test to read). ``popen``: more of Popen's
    arguments (``preexec_fn`` to start it as a script's background job)."""
    import os
    import socket
    import time

    env = {**os.environ, "KKPRINT_DATA_DIR": str(data_dir), "KKPRINT_LANG": lang}
    server = subprocess.Popen(
        [sys.executable, "-m", "kkprint", "serve", "--port", str(port), *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        **popen,
    )
    deadline = time.time() + 20
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return server
        except OSError:
            if server.poll() is not None:
                raise RuntimeError("the score pad did not start: " + server.stderr.read()) from None
            time.sleep(0.1)
    server.kill()
    raise RuntimeError("the score pad did not start within 20 s")


class RecordingCanvas:
    """A real canvas (writing to memory) that reads its own operators back to see where text
    lands: each run's (x, baseline, text, size) — a run being what one text-showing call drew
    (drawString, or one line of a text object), its characters decoded through the font's
    subsets as a PDF reader would."""

    _OPERATOR = re.compile(rb"\((?:[^\\()]|\\.)*\)|[^\s()]+", re.S)

    def __init__(self):
        import io

        from reportlab.pdfgen.canvas import Canvas

        self.canvas = Canvas(io.BytesIO(), invariant=1)

    def __getattr__(self, name):
        return getattr(self.canvas, name)

    @property
    def strings(self) -> list[tuple[float, float, str, float]]:
        from reportlab.pdfbase.pdfmetrics import getFont

        document = self.canvas._doc
        fonts = {internal.lstrip("/"): name for name, internal in document.fontMapping.items()}
        found: list[tuple[float, float, str, float]] = []
        for entry in self.canvas._code:
            operands: list[bytes] = []
            origin, size, subsets, run = (0.0, 0.0), 0.0, None, None
            for token in self._OPERATOR.findall(entry.encode("latin-1")):
                if token == b"Tm":
                    origin = (float(operands[-2]), float(operands[-1]))
                elif token == b"Tf":
                    family, _, subset = operands[-2].decode()[1:].partition("+")
                    size = float(operands[-1])
                    subsets = getFont(fonts[family]).state[document].subsets[int(subset)]
                elif token == b"Tj":
                    decoded = "".join(chr(subsets[code]) for code in _pdf_string(operands[-1]))
                    run = (origin, run[1] + decoded if run else decoded, size)
                elif token in (b"T*", b"ET") and run is not None:
                    found.append((*run[0], run[1], run[2]))
                    run = None
                if token[:1].isalpha() or token == b"T*":
                    operands = []
                else:
                    operands.append(token)
        return found


def _pdf_string(token: bytes) -> bytes:
    """The bytes of a PDF literal string ``(…)``: its backslash escapes undone."""
    inner, out, index = token[1:-1], bytearray(), 0
    while index < len(inner):
        if inner[index : index + 1] == b"\\":
            octal = re.match(rb"[0-7]{1,3}", inner[index + 1 : index + 4])
            if octal:
                out.append(int(octal.group(), 8))
                index += 1 + len(octal.group())
                continue
            out += {b"n": b"\n", b"r": b"\r", b"t": b"\t"}.get(
                inner[index + 1 : index + 2], inner[index + 1 : index + 2]
            )
            index += 2
            continue
        out += inner[index : index + 1]
        index += 1
    return bytes(out)


def running(pid: int) -> bool:
    """Alive and not merely waiting to be reaped (a zombie has ended), by Linux's /proc."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"
