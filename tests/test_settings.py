"""Defaults come from the flag, then KKPRINT_LANG / KKPRINT_PAPER, then the config file, then the
locale — and a Letter user gets no A3 file they cannot print."""

from __future__ import annotations

import os

import pytest
from conftest import assert_clean_error


@pytest.fixture
def no_defaults(monkeypatch):
    monkeypatch.delenv("KKPRINT_LANG")
    monkeypatch.delenv("KKPRINT_PAPER")
    for name in ("LC_ALL", "LC_MESSAGES", "LC_PAPER", "LANG"):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def test_a_us_locale_builds_english_letter_and_no_a3(no_defaults, cli, tmp_path):
    no_defaults.setenv("LANG", "en_US.UTF-8")
    result = cli("build", "all", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    names = [p.name for p in tmp_path.glob("*.pdf")]
    assert names and all(name.endswith("-en-letter.pdf") for name in names), names
    assert not any("a3" in name for name in names)


def test_a_japanese_locale_gives_japanese_a4(no_defaults, cli, tmp_path):
    no_defaults.setenv("LANG", "ja_JP.UTF-8")
    assert cli("build", "kardinal", "--out", str(tmp_path)).returncode == 0
    assert (tmp_path / "kardinal-chart-ja-a4.pdf").exists()


def test_environment_then_config_then_locale_and_the_flag_over_all(no_defaults, cli, tmp_path):
    no_defaults.setenv("LANG", "en_US.UTF-8")
    assert cli("config", "set", "lang", "ja").returncode == 0
    assert cli("config", "set", "paper", "A4").returncode == 0
    shown = cli("config", "show").stdout
    assert "lang: ja  (設定ファイル)" in shown and "paper: a4  (設定ファイル)" in shown  # shown in the language set
    assert cli("build", "kardinal", "--out", str(tmp_path / "config")).returncode == 0
    assert (tmp_path / "config" / "kardinal-chart-ja-a4.pdf").exists()  # the config beats the locale
    no_defaults.setenv("KKPRINT_LANG", "en")
    assert cli("build", "kardinal", "--out", str(tmp_path / "env")).returncode == 0
    assert (tmp_path / "env" / "kardinal-chart-en-a4.pdf").exists()  # the environment beats the config
    assert (
        cli("build", "kardinal", "--lang", "ja", "--paper", "letter", "--out", str(tmp_path / "flag")).returncode == 0
    )
    assert (tmp_path / "flag" / "kardinal-chart-ja-letter.pdf").exists()  # the flag beats everything
    assert_clean_error(cli("config", "set", "langauge", "en"), "did you mean 'lang'")
    assert_clean_error(cli("config", "set", "paper", "legal"), "a4, letter, a3")
    no_defaults.setenv("KKPRINT_LANG", "fr")
    refused = cli("court", "eligible", "6", "6", "6")
    assert_clean_error(refused, "KKPRINT_LANG")
    assert "エラー" in refused.stderr  # (said in the config's language, the next default down)


def test_config_set_keeps_the_printer_offset(cli, english):
    from kkprint.base.printer import load_profile, profile_path

    assert cli("config", "set", "offset", "0.8,-0.4").returncode == 0
    assert load_profile().offset_mm == (0.8, -0.4)
    shown = cli("config", "show").stdout
    assert f"offset: 0.8,-0.4 mm  ({profile_path()})" in shown  # (where it is kept: printer.yaml, not config.yaml)
    assert f"cache folder: {os.environ['XDG_CACHE_HOME']}/kkprint " in shown  # (the test's own, from conftest)
    refused = cli("config", "set", "offset", "30,0")
    assert refused.returncode == 2 and "±20 mm" in refused.stderr
    assert cli("config", "set", "offset", "left").returncode == 2
    assert load_profile().offset_mm == (0.8, -0.4)  # nothing changed by the refused values


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_config_set_refuses_a_file_it_cannot_read_instead_of_writing_over_it(cli, monkeypatch, lang):
    """A YAML mistake in one line would have cost the file's other settings (and ``lang: ja`` is
    the one a Japanese user needs): the file is named with its line and left as it was. A
    setting it cannot use is dropped, with a warning, as every command leaves it out."""
    from kkprint.base.paths import config_path

    monkeypatch.setenv("KKPRINT_LANG", lang)
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    broken = "# my defaults\nlang: ja\npaper: [a4\n"
    path.write_text(broken, encoding="utf-8")
    assert_clean_error(cli("config", "set", "paper", "letter"), str(path), "4")
    assert path.read_text(encoding="utf-8") == broken
    path.unlink()
    path.mkdir()
    assert_clean_error(cli("config", "set", "paper", "letter"), str(path))
    path.rmdir()
    path.write_text("lang: ja\npapr: letter\n", encoding="utf-8")
    mended = cli("config", "set", "paper", "letter")
    assert mended.returncode == 0 and "papr" in mended.stderr
    assert path.read_text(encoding="utf-8") == "lang: ja\npaper: letter\n"


@pytest.mark.parametrize("locale", ["en_GB.UTF-8", "ja_JP.UTF-8"])
def test_config_set_on_a_file_it_cannot_read_says_so_once(no_defaults, cli, locale):
    """Without KKPRINT_LANG the language is looked for in the config file, and a broken one was
    first said to be ignored and then refused by ``config set``: two lines for one mistake. The
    refusal is the one line; every other command still says the file is ignored."""
    from kkprint.base.paths import config_path

    no_defaults.setenv("LANG", locale)
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("paper: [a4\n", encoding="utf-8")
    for line in (["config", "set", "paper", "letter"], ["--lang", "ja", "config", "set", "lang", "en"]):
        refused = cli(*line)
        assert_clean_error(refused, str(path))
        assert ("set again" in refused.stderr) or ("設定し直して" in refused.stderr)
    shown = cli("config", "show")
    assert shown.returncode == 0 and ("is ignored" in shown.stderr or "使いません" in shown.stderr), shown.stderr


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("kind", ["folder", "fifo", "link to /dev/zero"])
def test_config_show_says_why_a_config_file_it_cannot_read_is_ignored(cli, kind, lang):
    """config show said nothing of a config.yaml that was a folder, a FIFO or a link to
    /dev/zero, and showed the settings as if there were none: it warns, as of a YAML mistake,
    at once (a FIFO with no writer is not waited for), and shows what holds without the file."""
    from kkprint.base.paths import config_path

    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == "folder":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero")
    result = cli("config", "show", "--lang", lang)
    assert result.returncode == 0 and "Traceback" not in result.stderr
    assert "paper: a4  (KKPRINT_PAPER)" in result.stdout  # (conftest's; the file could not have changed it)
    reason = {
        ("folder", "en"): "is a folder, not a file; the config file is ignored",
        ("folder", "ja"): "ファイルではなくフォルダーです。設定ファイルは使いません",
    }.get(
        (kind, lang),
        "is not a regular file (a device, pipe or socket); the config file is ignored"
        if lang == "en"
        else "通常のファイルではありません（デバイス、パイプ、ソケット）。設定ファイルは使いません",
    )
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and str(path) in lines[0] and lines[0].endswith(reason), result.stderr
