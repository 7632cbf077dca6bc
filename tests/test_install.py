"""A user's install: a wheel in a fresh environment, run from an unrelated folder, finds its game
definitions and examples — `kkprint new tally` writes, for every game, a file its scorer accepts."""

from __future__ import annotations

import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from conftest import ROOT

GAMES = ("kardinal", "webofpower", "webofpower-board", "court", "culdcept")


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    pytest.importorskip("wheel", reason="the 'wheel' package builds the wheel this test installs")
    work = tmp_path_factory.mktemp("install")
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
            str(ROOT),
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
