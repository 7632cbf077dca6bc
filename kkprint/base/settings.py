"""The user's defaults: language and paper, found in this order — the command's flag,
``KKPRINT_LANG`` / ``KKPRINT_PAPER``, the config file in the user's config folder
(``kkprint config set lang en``), then the system locale (``ja*`` → Japanese, anything else →
English; US and Canadian locales → Letter, the rest → A4)."""

from __future__ import annotations

import math
import os
import stat
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal, overload

from kkprint.base.choices import LANGS, PaperName
from kkprint.base.errors import InputError, OsReason, did_you_mean, suggest
from kkprint.base.i18n import N_, Msg, locale_name
from kkprint.base.paths import cache_folder, config_path

PAPERS = tuple(paper.value for paper in PaperName)
LETTER_REGIONS = ("US", "CA", "PR", "MX", "PH")
KEYS = {"lang": LANGS, "paper": PAPERS}


def _config(*, to_write: bool = False) -> dict:
    """The config file's usable settings; read once per version of the file (a command asks
    several times). A file that cannot be read, or a setting that cannot be used, is said once
    in one line and left out: a broken default must not stop a command that can do without it
    (``court eligible 6 6 6`` needs no paper). ``to_write`` (``config set``, which writes the
    settings back beside its own): a setting that cannot be used is still left out, but a file
    that cannot be read as a whole (a YAML mistake, a folder) is refused, not written over, as
    what else it holds would be lost."""
    path = config_path()
    try:
        info = path.stat()
    except FileNotFoundError:
        return {}
    except OSError as err:  # (a link that loops, a folder kkprint may not enter)
        problem = InputError(Msg("cannot read the config file: {reason}", reason=OsReason(err)), source=str(path))
        if to_write:
            raise problem from None
        _warn(((_WHOLE_FILE, problem),))
        return {}
    if not stat.S_ISREG(info.st_mode) and to_write:
        raise InputError(Msg("the config file is not a regular file; remove it and set again"), source=str(path))
    # (a folder, a FIFO or a link to /dev/zero is refused by the reader, at once, and said as a
    # YAML mistake is: the file is ignored, and the user is told why)
    usable, problems = _read_config(path, info.st_mtime_ns, info.st_size)
    for warning, problem in problems:
        if to_write and warning == _WHOLE_FILE:
            raise InputError(
                Msg("{problem}; mend the config file or remove it, and set again", problem=problem.message),
                source=problem.source,
                place=problem.place,
            )
    _warn(problems)
    return dict(usable)


_WHOLE_FILE = N_("kkprint: warning: {message}; the config file is ignored")
_ONE_SETTING = N_("kkprint: warning: {message}; this setting is ignored")


@lru_cache(maxsize=4)
def _read_config(path: Path, mtime_ns: int, size: int) -> tuple[dict, tuple[tuple[str, InputError], ...]]:
    """(the usable settings, what is wrong with the rest: each as a warning and its problem)."""
    from kkprint.base.yamlio import load_yaml_file

    source = str(path)
    try:
        data = load_yaml_file(path)
    except InputError as err:
        return {}, ((_WHOLE_FILE, err),)
    if not isinstance(data, dict):
        return {}, ((_WHOLE_FILE, InputError(Msg("the config file is a mapping like `lang: en`"), source=source)),)
    usable: dict[str, str] = {}
    problems: list[InputError] = []
    for key, value in data.items():
        place = Msg("line {line}", line=data.line_of(key)) if hasattr(data, "line_of") else None
        if key not in KEYS:
            problems.append(
                InputError(
                    Msg("unknown setting '{key}'{hint}", key=key, hint=suggest(str(key), KEYS)),
                    source=source,
                    place=place,
                )
            )
        elif str(value).lower() not in KEYS[key]:
            problems.append(
                InputError(
                    Msg(
                        "{key} must be one of {names}, not '{value}'",
                        key=key,
                        names=", ".join(KEYS[key]),
                        value=str(value)[:40],
                    ),
                    source=source,
                    place=place,
                )
            )
        else:
            usable[key] = str(value).lower()
    return usable, tuple((_ONE_SETTING, problem) for problem in problems)


# Problems of the config file wait here until the command's language is known, and each is said once.
_pending: list[tuple[str, InputError]] = []
_said: set[str] = set()
_decided: list[str] = []  # the command's language, once language() has chosen it
_line_language: list[str] = []  # a --lang given to a group (kkprint --lang ja scorer …), for the command


def language_on_the_line(lang: str | None) -> None:
    """Remember a ``--lang`` typed before the command's name (None: none was), so that the
    command's own language, when it is not given, is that one."""
    _line_language[:] = [lang] if lang else []


def to_be_written() -> None:
    """The command writes the config file (``config set``): one it cannot read as a whole is
    refused by the command itself, in one line, not also said to be ignored before it."""
    _refused_not_ignored[:] = [True]


_refused_not_ignored: list[bool] = []


def _warn(problems: tuple[tuple[str, InputError], ...]) -> None:
    for warning, problem in problems:
        key = problem.render("en")
        if warning == _WHOLE_FILE and _refused_not_ignored:
            continue
        if key not in _said:
            _said.add(key)
            _pending.append((warning, problem))
    if not _decided:
        return
    from kkprint.base.i18n import tr

    lang = _decided[0]
    while _pending:
        warning, problem = _pending.pop(0)
        sys.stderr.write(tr(warning, lang, message=problem.render(lang)) + "\n")


def _from_env(name: str, choices: tuple[str, ...]) -> str | None:
    value = os.environ.get(name, "").strip().lower()
    if not value:
        return None
    if value not in choices:
        raise InputError(
            Msg(
                "must be one of {names}, not '{value}'{hint}",
                names=", ".join(choices),
                value=value,
                hint=did_you_mean(value, choices),
            ),
            source=name,
        )
    return value


LAST_EPOCH = 253402214400  # 9999-12-31, the last day a PDF's date can name


def build_epoch() -> int | None:
    """``SOURCE_DATE_EPOCH`` (reproducible builds: the date in a PDF, and ``${today}``), a whole
    number of seconds since 1970; None when it is not set. Anything else is refused here, by
    name: ReportLab would stop at it with its own error."""
    value = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if not value:
        return None
    if not (value.isascii() and value.isdigit()) or int(value) > LAST_EPOCH:
        raise InputError(
            Msg(
                "must be a whole number of seconds since 1970 (at most {limit}), not '{value}'",
                limit=LAST_EPOCH,
                value=value[:40],
            ),
            source="SOURCE_DATE_EPOCH",
        )
    return int(value)


def language(flag=None) -> str:
    """The language of everything a person reads: the command's own ``--lang``, else one given
    before the command's name (``kkprint --lang ja scorer court …``), else the defaults."""
    if flag is None and _line_language:
        flag = _line_language[0]
    if flag is not None:
        chosen = getattr(flag, "value", flag)
    else:
        below = _config().get("lang") or ("ja" if locale_name().lower().startswith("ja") else "en")
        try:
            chosen = _from_env("KKPRINT_LANG", LANGS) or below
        except InputError:  # a KKPRINT_LANG that is no language: said in the language the defaults below it give
            from kkprint.base import i18n

            i18n.use(below)
            raise
    _decided[:] = [chosen]
    _warn(())  # what the config file got wrong, now in the command's language
    return chosen


@overload
def paper(flag: Any = None, *, fall_back: Literal[True] = True) -> str: ...
@overload
def paper(flag: Any = None, *, fall_back: bool) -> str | None: ...
def paper(flag=None, *, fall_back: bool = True) -> str | None:
    """The paper size; ``fall_back=False`` gives None when only the locale would say (a deck then
    keeps its own paper)."""
    if flag is not None:
        return getattr(flag, "value", flag)
    chosen = _from_env("KKPRINT_PAPER", PAPERS) or _config().get("paper")
    if chosen or not fall_back:
        return chosen
    region = locale_name().split(".")[0].replace("-", "_").split("_")[-1].upper()
    return "letter" if region in LETTER_REGIONS else "a4"


def set_value(key: str, value: str) -> Path:
    from kkprint.base.outputs import atomic_file

    key, value = key.strip().lower(), value.strip().lower()
    if key == "offset":
        return _set_offset(value)
    if key not in KEYS:
        raise InputError(
            Msg("unknown setting '{key}'{hint}", key=key, hint=suggest(key, [*KEYS, "offset"])), source="config set"
        )
    if value not in KEYS[key]:
        raise InputError(
            Msg(
                "{key} must be one of {names}, not '{value}'{hint}",
                key=key,
                names=", ".join(KEYS[key]),
                value=value,
                hint=did_you_mean(value, KEYS[key]),
            ),
            source="config set",
        )
    settings = _config(to_write=True)
    settings[key] = value
    path = config_path()
    import yaml  # (only a command that writes the file needs PyYAML: see yamlio._line_loader)

    with atomic_file(path) as temp:
        Path(temp).write_text(yaml.safe_dump(settings, allow_unicode=True), encoding="utf-8")
    return path


# What a minus may look like when a number is copied from the calibration sheet (a true minus
# sign, U+2212) or typed with a Japanese input method (full-width forms, which NFKC makes ASCII).
_MINUSES = str.maketrans({"\u2212": "-", "\u2012": "-", "\u2013": "-", "\u30fc": "-", "\uff70": "-"})


def typed_number(text: str) -> float:
    """A number as a person types or copies it: ``−0.4``, ``－０．４`` and ``-0.4`` alike.
    ValueError when it is none."""
    import unicodedata

    written = unicodedata.normalize("NFKC", text).translate(_MINUSES).strip()
    number = float(written) if "_" not in written else math.nan  # (Python reads 1_0 as 10; a person does not)
    if not math.isfinite(number):
        raise ValueError(text)
    return number


def typed_list(text: str) -> list[str]:
    """``0.8,-0.4`` split as a person means it, whether typed with ASCII, full-width (，) or
    Japanese (、) commas, or spaces."""
    import unicodedata

    return unicodedata.normalize("NFKC", text).replace("、", ",").replace(",", " ").split()


def _set_offset(value: str) -> Path:
    """The printer's back-side shift in mm, "X,Y" (what ``kkprint calibrate --save X --save Y`` keeps)."""
    from kkprint.base.printer import PrinterProfile, load_profile, save_profile

    parts = typed_list(value)
    try:
        x, y = (typed_number(part) for part in parts)
    except ValueError:
        raise InputError(Msg("the offset is two numbers in mm, x and y, e.g. 0.8,-0.4"), source="config set") from None
    if not (abs(x) <= 20 and abs(y) <= 20):
        raise InputError(Msg("an offset beyond ±20 mm is not a printer's misregistration"), source="config set")
    return save_profile(PrinterProfile((x, y), load_profile().scale))


def show(lang: str | None = None) -> str:
    from kkprint.base.i18n import tr
    from kkprint.base.printer import load_profile, profile_path

    _config()  # a file that cannot be used is said even where a flag or the environment decides every setting
    lines = [tr("config file: {path}", lang, path=config_path())]
    for key, value, source in (
        ("lang", language(), _source("KKPRINT_LANG", "lang")),
        ("paper", paper(), _source("KKPRINT_PAPER", "paper")),
    ):
        lines.append(f"{key}: {value}  ({tr(source, lang)})")
    x, y = load_profile().offset_mm
    where = str(profile_path()) if profile_path().exists() else tr("not set", lang)  # (its own file, not config.yaml)
    lines.append(f"offset: {x:g},{y:g} mm  ({where})")
    lines.append(
        tr("cache folder: {path} (checked game definitions and decks; safe to delete)", lang, path=cache_folder())
    )
    return "\n".join(lines)


def _source(env: str, key: str) -> str:
    if key == "lang" and _line_language:  # (every --lang, the command's or its group's, is noted there)
        return "--lang"
    if os.environ.get(env):
        return env
    if key in _config():
        return N_("config file")
    return N_("locale")
