"""``kkprint serve``: the score pad on this machine (127.0.0.1), or with ``--lan`` on the table's
Wi-Fi, its address shown as a QR code in the terminal for the phones to scan."""

from __future__ import annotations

import os
import socket
import sys
from pathlib import Path

from kkprint.base.errors import InputError
from kkprint.base.i18n import Msg, tr
from kkprint.base.pathnames import shown
from kkprint.base.paths import data_folder


def lan_address() -> str:
    """This machine's address on the local network (no packet is sent to find it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            return probe.getsockname()[0]
        except OSError:
            return "127.0.0.1"


def _key(folder: Path) -> str:
    """The --lan key, kept between runs so the phones' addresses survive a restart."""
    import secrets

    path = folder / "scorepad-key"
    if path.is_file():
        key = path.read_text(encoding="ascii").strip()
        if len(key) >= 20:
            return key
    key = secrets.token_urlsafe(16)
    folder.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as stream:
        stream.write(key)
    return key


def open_store(path: Path):
    """The saved games, or one line saying the file is not ours to read."""
    import sqlite3

    from kkprint.web.pad.store import Store

    try:
        return Store(path)
    except (sqlite3.OperationalError, PermissionError) as err:  # a folder or file this user cannot write
        if (
            isinstance(err, PermissionError)
            or not os.access(path.parent, os.W_OK)
            or "readonly" in str(err).replace(" ", "")
        ):
            raise InputError(
                Msg(
                    "cannot save games here: the folder or the file is read-only; set KKPRINT_DATA_DIR to a folder you can write"
                ),
                source=str(path),
            ) from None
        raise InputError(Msg("cannot open the saved games: {value}", value=str(err)[:100]), source=str(path)) from None
    except sqlite3.DatabaseError:
        raise InputError(Msg("is not a saved-games database; move it away to start afresh"), source=str(path)) from None


def _check_port(host: str, port: int) -> None:
    """A port another program holds is said in one line before anything starts."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as err:
            from kkprint.web.app import port_refused

            raise port_refused(port, err, "serve") from None


def serve(port: int, lan: bool, lang: str) -> None:
    import uvicorn

    from kkprint.web.pad.app import create_app
    from kkprint.web.security import LOCAL_HOSTS
    from kkprint.web.serving import run_until_stopped

    host = "0.0.0.0" if lan else "127.0.0.1"
    _check_port(host, port)
    folder = data_folder()
    store = open_store(folder / "scorepad.sqlite3")
    key = _key(folder) if lan else None
    shown_host = lan_address() if lan else "127.0.0.1"
    reached = f"http://{shown_host}:{port}"  # the QR code's address, and each game's on its page
    app = create_app(
        store,
        lan=lan,
        key=key,
        hosts=(*LOCAL_HOSTS, shown_host, socket.gethostname()) if lan else LOCAL_HOSTS,
        address=reached,
    )
    address = f"{reached}/" + (f"?key={key}" if lan else "")
    say = sys.stderr.write
    say(tr("Score pad: {address}", lang, address=address) + "\n")
    say(tr("Saved games: {path}", lang, path=shown(store.path)) + "\n")
    if lan:
        import segno

        say(tr("Scan with a phone on the same Wi-Fi:", lang) + "\n")
        segno.make(address, error="m").terminal(out=sys.stderr, compact=True)
    say(tr("Ctrl-C stops it; every change is already saved.", lang) + "\n")

    config = uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False, server_header=False)
    run_until_stopped(config, tr("score pad stopped; every change is saved", lang))
