"""Writing a user's files safely: whole or not at all, only over what kkprint may replace.

Every file kkprint writes goes through :func:`atomic_file`: it is written under a hidden
temporary name beside its destination and renamed into place when complete, so a killed or
failed build leaves the old file or the new one, never half of one (nor an empty folder made
for it). The destination may not be a link (kkprint never writes through one), a device, a pipe
or a folder, and an existing file is replaced only if it is the same kind of file (a PDF for a
PDF). Files get the user's umask, as any program's would. A temporary file whose process is
gone is removed by the next write beside it.
"""

from __future__ import annotations

import os
import re
import stat
import tempfile
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from kkprint.base.errors import InputError, OsReason
from kkprint.base.i18n import Msg

STALE_AFTER_S = 600  # a temporary file this old is left over even if its process id was reused
_PART = re.compile(r"^\.(?P<name>.+)-(?P<pid>\d+)-[^-]+\.part$")


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def check_destination(path: Path, magic: bytes | None) -> None:
    """Refuse a destination that is a link, not a regular file, or a file of another kind."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return
    except (OSError, ValueError) as err:
        raise InputError(
            Msg("cannot be written: {value}", value=OsReason(err))
            if isinstance(err, OSError)
            else Msg("a file name cannot contain a NUL character"),
            source=str(path).replace("\x00", "\\0"),
        ) from None
    if stat.S_ISLNK(info.st_mode):
        raise InputError(Msg("is a link; kkprint never writes through links, choose another name"), source=str(path))
    if stat.S_ISDIR(info.st_mode):
        raise InputError(Msg("is a folder; give a file name"), source=str(path))
    if not stat.S_ISREG(info.st_mode):
        raise InputError(Msg("is not a regular file (a device, pipe or socket); choose another name"), source=str(path))
    if magic is not None and info.st_size:
        try:
            with open(path, "rb") as handle:
                start = handle.read(len(magic))
        except OSError as err:
            raise InputError(Msg("cannot be replaced: {strerror}", strerror=OsReason(err)), source=str(path)) from None
        if start != magic:
            kind = " ".join(re.findall(r"[A-Za-z]+", magic.decode("ascii", "replace"))) or "kkprint"  # \x89PNG: PNG
            raise InputError(
                Msg("exists and is not a {kind} file; kkprint will not replace it, choose another name", kind=kind),
                source=str(path),
            )


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def remove_leftovers(folder: Path, names: Iterable[str]) -> None:
    """Temporary files of any of ``names`` whose writing process is gone (or that are very
    old), found in one listing of ``folder`` (a thousand pictures written into one folder list
    it once, not once each)."""
    wanted = set(names)
    now = time.time()
    try:
        with os.scandir(folder) as entries:
            candidates = [(entry.path, match) for entry in entries if (match := _PART.match(entry.name))]
    except OSError:
        return
    for leftover, match in candidates:
        if match.group("name") not in wanted:
            continue
        try:
            if not _alive(int(match.group("pid"))) or now - os.lstat(leftover).st_mtime > STALE_AFTER_S:
                os.unlink(leftover)
        except (OSError, ValueError):
            pass


@contextmanager
def atomic_file(path: Path, *, magic: bytes | None = None, tidied: bool = False) -> Iterator[str]:
    """Yield a temporary path to write; on success it replaces ``path``, on any failure (an
    error, Ctrl-C, SIGTERM) it is removed. Errors of the disk name ``path``, not the temporary.
    ``tidied``: the caller has already removed the leftovers of ``path`` (see
    :func:`remove_leftovers`)."""
    check_destination(path, magic)
    made = _make_folder(path.parent)
    if not tidied:
        remove_leftovers(path.parent, [path.name])
    try:
        try:
            handle, temp = _temporary(path)
        except FileNotFoundError:  # (another process's failed write took the folder it had just made)
            made = _make_folder(path.parent)
            handle, temp = _temporary(path)
        os.fchmod(handle, 0o666 & ~_umask())
        os.close(handle)
    except OSError as err:
        _remove_if_empty(made)
        raise InputError(Msg("cannot be written: {strerror}", strerror=OsReason(err)), source=str(path)) from None
    written = False
    try:
        yield temp
        check_destination(path, magic)  # still what it was when we started
        os.replace(temp, path)
        written = True
    except OSError as err:
        raise InputError(Msg("cannot be written: {value}", value=OsReason(err)), source=str(path)) from None
    finally:
        try:
            os.unlink(temp)
        except OSError:
            pass
        if not written:
            _remove_if_empty(made)


def _temporary(path: Path) -> tuple[int, str]:
    return tempfile.mkstemp(prefix=f".{path.name}-{os.getpid()}-", suffix=".part", dir=path.parent)


def _make_folder(folder: Path) -> list[Path]:
    """Make ``folder`` and what it lies in, one level at a time; the folders this call made,
    innermost first (a failed write takes them away again: a refused build leaves no empty
    output folder). Only a level this call created is one it made: ``new/../old`` made ``new``."""
    missing = []
    level = folder
    while not os.path.lexists(level) and level != level.parent:
        missing.append(level)
        level = level.parent
    made: list[Path] = []
    try:
        for level in reversed(missing):
            try:
                level.mkdir()
            except FileExistsError:  # (another process, or a name like "..", got there first)
                continue
            made.insert(0, level)
    except OSError as err:
        _remove_if_empty(made)  # (those made before one could not be)
        raise InputError(
            Msg("cannot create the folder: {strerror}", strerror=OsReason(err)), source=str(folder)
        ) from None
    return made


def _remove_if_empty(folders: list[Path]) -> None:
    """Remove the folders, innermost first, as long as they are empty (another file written
    into one meanwhile keeps it and those around it)."""
    for folder in folders:
        try:
            folder.rmdir()
        except OSError:
            return


def write_new(path: Path, text: str) -> None:
    """Create a file that must not exist yet (never following a link, even a dangling one)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags, 0o666)
    except FileExistsError:
        raise InputError(Msg("already exists; choose another name or move it away"), source=str(path)) from None
    except OSError as err:
        raise InputError(Msg("cannot be written: {strerror}", strerror=OsReason(err)), source=str(path)) from None
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)


def keep_in_cache(path: Path, data: bytes) -> None:
    """An entry of kkprint's own cache folder, written whole or not at all (another process may be
    reading it); a cache that cannot be written is no error, only a slower next run."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=".tmp")
    except OSError:
        return
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
        os.replace(temporary, path)
    except BaseException as error:  # (Ctrl-C too: no half-written file is left behind)
        Path(temporary).unlink(missing_ok=True)
        if not isinstance(error, OSError):
            raise
