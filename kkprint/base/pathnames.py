"""Paths as a person reads them: one way in every command's output and every message. Apart
from :mod:`kkprint.base.paths` (which refuses paths with an InputError) so that errors can
show their files without an import circle."""

from __future__ import annotations

import os
import re
from pathlib import Path


def shown(path: Path | str) -> str:
    """A path as kkprint prints it, in every command and every message: relative to the current
    folder when it lies inside it, else absolute (``../x`` is printed ``/home/…/x``)."""
    text = os.fspath(path)
    try:
        absolute = os.path.abspath(text)
        here = os.getcwd()
    except (OSError, ValueError):  # the current folder was removed, or a NUL in the name: as given
        return text
    if absolute == here:
        return "."
    if absolute.startswith(here.rstrip(os.sep) + os.sep):
        return os.path.relpath(absolute, here)
    return absolute


_FILE_NAME = re.compile(r"[^\s<>]+\.[A-Za-z0-9]{1,5}")


def looks_like_path(text: str) -> bool:
    """A message's source that names a file (``decks/a.yaml``, ``tally.yaml``), not an option,
    a command or ``<stdin>``."""
    return not text.startswith(("-", "<")) and (os.sep in text or bool(_FILE_NAME.fullmatch(text)))
