"""A user's install: a wheel in a fresh environment, run from an unrelated folder, finds its game
definitions and examples — `kkprint new tally` writes, for every game, a file its scorer accepts."""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from conftest import ROOT

GAMES = ("kardinal", "webofpower", "webofpower-board", "court", "culdcept")
UNTRACKED = (".git", ".venv", "build", "output", "__pycache__", "*.egg-info", ".pytest_cache", ".hypothesis")


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    pytest.importorskip("wheel", reason="the 'wheel' package builds the wheel this test installs")
    work = tmp_path_factory.mktemp("install")
    source = work / "source"  # (setuptools builds where it is given: not in the checkout)
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(*UNTRACKED))
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "-q",
            "--no-deps",
            "--no-build-isolation",
            "-w",
            str(work / "dist"),
            str(source),
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    [wheel] = (work / "dist").glob("kkprint-*.whl")
    env = work / "env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env)], check=True, timeout=120)
    python = env / "bin" / "python"
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    # the dependencies come from this test run's environment; kkprint itself only from the wheel
    Path(purelib, "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps", str(wheel)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    return env / "bin" / "kkprint"


@pytest.mark.parametrize("game", GAMES)
def test_new_tally_from_a_wheel_is_accepted_by_its_scorer(english, installed, tmp_path, game):
    folder = tmp_path / "anywhere"
    folder.mkdir()
    written = subprocess.run(
        [str(installed), "new", "tally", game, "--dir", "tallies"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert written.returncode == 0, written.stderr
    tally = folder / written.stdout.strip()
    scored = subprocess.run(
        [str(installed), "scorer", game, str(tally), "--json"], cwd=folder, capture_output=True, text=True, timeout=120
    )
    assert scored.returncode == 0, scored.stderr
    assert '"winners"' in scored.stdout
    again = subprocess.run(
        [str(installed), "new", "tally", game, "--dir", "tallies"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert again.returncode == 2 and "already exists" in again.stderr  # never overwrites a filled-in tally


def _run(installed: Path, *args: str, cwd: Path, lang: str = "en") -> subprocess.CompletedProcess:
    import os

    env = {**os.environ, "KKPRINT_LANG": lang}
    return subprocess.run([str(installed), *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def test_the_wheel_holds_every_example_deck_file_and_the_guides(installed):
    """Every file under examples/decks/ and the guide in both languages travel with the wheel, so
    a folder added to the examples without its line in pyproject.toml fails here."""
    import zipfile

    [wheel] = (installed.parent.parent.parent / "dist").glob("kkprint-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    wanted = [path for path in (ROOT / "examples").rglob("*") if path.is_file()]
    wanted += [ROOT / "docs" / "custom-decks.md", ROOT / "docs" / "custom-decks.ja.md", ROOT / "docs" / "studio.png"]
    missing = [
        str(path.relative_to(ROOT))
        for path in wanted
        if not any(name.endswith("/share/kkprint/" + str(path.relative_to(ROOT))) for name in names)
    ]
    assert missing == []


@pytest.mark.parametrize(("lang", "guide"), [("en", "custom-decks.md"), ("ja", "custom-decks.ja.md")])
def test_a_pip_user_finds_the_guide_in_their_language(installed, tmp_path, lang, guide):
    shown = _run(installed, "docs", cwd=tmp_path, lang=lang)
    assert shown.returncode == 0, shown.stderr
    path = Path(shown.stdout.strip())
    assert path.name == guide and path.is_file()
    assert ROOT not in path.parents  # the installed copy, not the source tree's
    assert path.read_text(encoding="utf-8") == (ROOT / "docs" / guide).read_text(encoding="utf-8")


def test_a_pip_user_copies_and_builds_every_example_deck(installed, tmp_path):
    listed = _run(installed, "new", "deck", "--list", cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    names = [line.split()[0] for line in listed.stdout.splitlines()]
    assert sorted(names) == sorted(path.name for path in (ROOT / "examples" / "decks").iterdir() if path.is_dir())
    for name in names:
        copied = _run(installed, "new", "deck", "--example", name, cwd=tmp_path)
        assert copied.returncode == 0, copied.stderr
        deck = tmp_path / copied.stdout.strip()
        assert deck == tmp_path / name / f"{name}.yaml"
        built = _run(installed, "build", str(deck.relative_to(tmp_path)), cwd=tmp_path)
        assert built.returncode == 0, (name, built.stderr)
        pdfs = [Path(line) for line in built.stdout.split() if line.endswith(".pdf")]
        assert pdfs and all((tmp_path / pdf).stat().st_size > 1000 for pdf in pdfs), (name, built.stdout)
    again = _run(installed, "new", "deck", "--example", names[0], cwd=tmp_path)
    assert again.returncode == 2 and "already exists" in again.stderr  # an edited copy is never overwritten


def test_a_pip_users_starter_deck_builds_and_points_only_to_what_they_have(installed, tmp_path):
    for lang in ("en", "ja"):
        folder = tmp_path / lang
        folder.mkdir()
        written = _run(installed, "new", "deck", "mydeck", cwd=folder, lang=lang)
        assert written.returncode == 0, written.stderr
        deck = (folder / "mydeck.yaml").read_text(encoding="utf-8")
        assert "docs/" not in deck and "templates/" not in deck  # a pip install has neither folder
        assert "kkprint docs" in deck and "--list" in deck
        built = _run(installed, "build", "mydeck.yaml", cwd=folder, lang=lang)
        assert built.returncode == 0, built.stderr
