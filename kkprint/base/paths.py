"""Where things live: the shipped game definitions, the user's config, data and cache folders,
and output names that stay inside their folder."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

from kkprint.base.errors import InputError
from kkprint.base.i18n import Msg

PROJECT_ROOT = Path(__file__).resolve().parents[2]
# A source checkout (or editable install) keeps data/ beside the package; a plain install puts
# it under <prefix>/share/kkprint. KKPRINT_DATA points elsewhere on purpose (a corrected copy).
_SHARED = Path(sys.prefix) / "share" / "kkprint"
_ROOT = PROJECT_ROOT if (PROJECT_ROOT / "data" / "kardinal").is_dir() else _SHARED
DATA_DIR = Path(os.environ.get("KKPRINT_DATA", _ROOT / "data"))
TEMPLATES_DIR = _ROOT / "templates"
SHEETS_DIR = TEMPLATES_DIR / "sheets"
EXAMPLES_DIR = _ROOT / "examples"
DOCS_DIR = _ROOT / "docs"  # the deck guide, in each language

_UNSAFE = re.compile(r"[^\w.\-]+", re.UNICODE)


def safe_file_name(name: str) -> str:
    """Turn a name from a (possibly hostile) definition into one plain file name.

    Separators, ``..`` and leading dots are removed so the result can only ever name a file
    directly inside the output folder.
    """
    cleaned = _UNSAFE.sub("-", name.replace("/", "-").replace("\\", "-")).strip("-.")
    cleaned = re.sub(r"\.{2,}", ".", cleaned)
    if not cleaned:
        raise InputError(Msg("output name '{name}' has no usable characters", name=name))
    return cleaned[:120]


def output_path(out_dir: Path, name: str) -> Path:
    """The path for an output file called ``name`` (sanitised) inside ``out_dir``."""
    path = (out_dir / safe_file_name(name)).resolve()
    if path.parent != out_dir.resolve():
        raise InputError(Msg("output name '{name}' would leave the output folder", name=name))
    return path


def config_path() -> Path:
    from platformdirs import user_config_path

    return user_config_path("kkprint", appauthor=False) / "config.yaml"


def data_folder() -> Path:
    """Where saved games live: ``KKPRINT_DATA_DIR``, else the user's data folder."""
    chosen = os.environ.get("KKPRINT_DATA_DIR")
    if chosen:
        return Path(chosen)
    from platformdirs import user_data_path

    return user_data_path("kkprint", appauthor=False)


def cache_folder() -> Path:
    """Where kkprint keeps what it can always make again (checked game definitions and decks):
    ``KKPRINT_CACHE_DIR``, else the user's cache folder."""
    chosen = os.environ.get("KKPRINT_CACHE_DIR")
    if chosen:
        return Path(chosen)
    from platformdirs import user_cache_path

    return user_cache_path("kkprint", appauthor=False)
