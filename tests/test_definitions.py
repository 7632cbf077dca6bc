"""Game definitions are checked by pydantic the first time kkprint meets a file's bytes and read
back from the user's cache folder afterwards: a scorer then never imports pydantic, while a
changed file, a damaged cache entry or a cache that cannot be written changes nothing a user
sees but the time it takes. Whole processes, as a user runs them, each with its own cache."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, assert_clean_error, errors, imported

from kkprint.base.definitions import load_definition
from kkprint.base.errors import InputError
from kkprint.base.paths import cache_folder
from kkprint.games.kardinal.model import DEFAULT_PATH, KardinalGame

TALLY = ROOT / "examples" / "kardinal-tally.yaml"


def scorer(cache: Path, *args: str, lang: str = "en") -> subprocess.CompletedProcess:
    """``kkprint scorer kardinal TALLY --json ARGS`` with import times on stderr."""
    return subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "kkprint", "scorer", "kardinal", str(TALLY), "--json", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "KKPRINT_CACHE_DIR": str(cache), "KKPRINT_LANG": lang},
    )


def test_second_run_reads_the_checked_definition_back_without_pydantic(tmp_path):
    first, second = scorer(tmp_path), scorer(tmp_path)
    assert first.returncode == second.returncode == 0, first.stderr[-500:]
    assert "pydantic" in imported(first)  # checked: nothing was kept yet
    assert "pydantic" not in imported(second)
    assert "kkprint.base.models" not in imported(second)
    assert first.stdout == second.stdout
    entries = list((tmp_path / "definitions").iterdir())
    assert [entry.suffix for entry in entries] == [".pickle"]  # one entry, no temporary left behind


def test_a_changed_definition_is_checked_again(tmp_path):
    """A mistake made after the file was kept is found; its correction is kept in its place."""
    game = tmp_path / "game.yaml"
    good = DEFAULT_PATH.read_text(encoding="utf-8")
    game.write_text(good, encoding="utf-8")
    cache = tmp_path / "cache"
    assert scorer(cache, "--deck", str(game)).returncode == 0
    assert "pydantic" not in imported(scorer(cache, "--deck", str(game)))

    marker = "    colour: "
    line = good.splitlines().index(next(row for row in good.splitlines() if row.startswith(marker))) + 1
    game.write_text(good.replace(marker, "    colur: ", 1), encoding="utf-8")
    for lang, hint in (("en", "did you mean 'colour'"), ("ja", "colour")):
        result = errors(scorer(cache, "--deck", str(game), lang=lang))
        assert_clean_error(result, str(game), str(line), "colur", hint)

    game.write_text(good, encoding="utf-8")
    assert scorer(cache, "--deck", str(game)).returncode == 0


@pytest.mark.parametrize(
    "damage",
    [b"", b"not a pickle", b"\x80\x05garbage", None],
    ids=["empty", "text", "truncated", "a folder"],
)
def test_a_damaged_cache_entry_is_checked_again_and_replaced(tmp_path, damage):
    assert scorer(tmp_path).returncode == 0
    (entry,) = (tmp_path / "definitions").iterdir()
    entry.unlink()
    if damage is None:
        entry.mkdir()
    else:
        entry.write_bytes(damage)
    result = scorer(tmp_path)
    assert result.returncode == 0, result.stderr[-500:]
    assert "pydantic" in imported(result)
    if damage is not None:  # replaced by a good entry: the next run reads it
        assert "pydantic" not in imported(scorer(tmp_path))


def test_a_cache_that_cannot_be_written_changes_nothing_but_the_time(tmp_path):
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder", encoding="utf-8")
    result = scorer(blocked / "cache")
    assert result.returncode == 0, result.stderr[-500:]
    assert not [line for line in errors(result).stderr.splitlines() if line.strip()]
    assert blocked.read_text(encoding="utf-8") == "not a folder"

    if os.geteuid() != 0:  # (root writes into a read-only folder all the same)
        readonly = tmp_path / "readonly"
        readonly.mkdir()
        readonly.chmod(0o500)
        try:
            assert scorer(readonly).returncode == 0
            assert list(readonly.iterdir()) == []
        finally:
            readonly.chmod(0o700)


def test_the_cache_is_in_the_users_cache_folder(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "KKPRINT_CACHE_DIR"}
    env["XDG_CACHE_HOME"] = str(tmp_path)
    result = subprocess.run(
        [sys.executable, "-m", "kkprint", "scorer", "kardinal", str(TALLY), "--json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
    )
    assert result.returncode == 0, result.stderr[-500:]
    kept = sorted(path.name.split("-")[0] for path in (tmp_path / "kkprint" / "definitions").iterdir())
    # the game's definition, and (the scorer speaks Japanese here) the Japanese catalogue
    assert kept == ["kkprint.base.definitions.Catalogue", "kkprint.games.kardinal.model.KardinalGame"]


# --- what pydantic finds in a definition, said as for any other file ---------------------------

LAND = "  - id: x\n    names: {ja: 甲, en: X}\n    colour: '#123456'\n    mark: circle\n    cards: [[crown]]\n"


@pytest.mark.parametrize(
    ("change", "said", "below"),
    [
        (("    colour: '#123456'\n", "    colour: '#123456'\n    color: red\n"), "unknown key 'color'", 3),
        (("    names: {ja: 甲, en: X}\n", ""), "missing 'names'", 0),
        (("    names: {ja: 甲, en: X}\n", "    names: [甲, X]\n"), "must be a mapping", 1),
        (("'#123456'", "blue"), "must look like #2b5fab", 0),
        (("mark: circle", "mark: circel"), "must be one of", 3),
    ],
    ids=["unknown key", "missing key", "not a mapping", "own check", "choice"],
)
def test_a_definitions_mistake_is_one_line_naming_file_and_line(tmp_path, english, change, said, below):
    """``below``: the line of the mistake, counted from the land's first line."""
    text = DEFAULT_PATH.read_text(encoding="utf-8")
    start = text.index("\n", text.index("\nlands:") + 1) + 1  # the first land
    game = tmp_path / "game.yaml"
    game.write_text(text[:start] + LAND.replace(*change) + text[start:], encoding="utf-8")
    line = text[:start].count("\n") + 1 + below
    with pytest.raises(InputError) as found:
        load_definition(KardinalGame, game)
    message = str(found.value)
    assert said in message and str(game) in message and f"line {line}, lands[0]" in message, message
    assert not (cache_folder() / "definitions").exists()  # nothing kept of a file with a mistake
