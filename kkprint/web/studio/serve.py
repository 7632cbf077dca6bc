"""``kkprint studio DECK``: the deck studio on this machine (127.0.0.1 only), opened in the
user's browser unless asked not to."""

from __future__ import annotations

import os
import socket
import sys
from pathlib import Path

from kkprint.base.i18n import tr
from kkprint.base.pathnames import shown
from kkprint.web.app import port_refused

HOST = "127.0.0.1"


def listening_socket(port: int) -> socket.socket:
    """The studio's socket, bound before anything starts: a port another program holds is said
    in one line, and a browser opened at once finds the studio there (its connection waits in
    the queue until the server takes it)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((HOST, port))
        sock.listen(128)
    except OSError as err:
        sock.close()
        raise port_refused(port, err, "studio") from None
    return sock


def open_in_browser(address: str) -> bool:
    """Open ``address`` in the user's browser; False where there is none to open (no desktop:
    a text browser would take over the terminal the studio reports to)."""
    import webbrowser

    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return False
    try:
        return webbrowser.open(address)
    except webbrowser.Error:
        return False


def serve(deck: Path, *, port: int, open_browser: bool, lang: str, allow_outside: bool = False) -> None:
    import uvicorn

    from kkprint.web.serving import run_until_stopped
    from kkprint.web.studio.app import create_app
    from kkprint.web.studio.state import Studio

    sock = listening_socket(port)
    address = f"http://{HOST}:{port}/"
    say = sys.stderr.write
    say(tr("Deck studio: {address}", lang, address=address) + "\n")
    say(tr("watching {folder} (Ctrl-C to stop)", lang, folder=shown(deck.resolve().parent)) + "\n")
    if open_browser and not open_in_browser(address):
        say(tr("No browser could be opened here; open the address above in one.", lang) + "\n")
    app = create_app(Studio(deck, allow_outside=allow_outside))
    config = uvicorn.Config(
        app, log_level="warning", access_log=False, server_header=False, timeout_graceful_shutdown=2
    )
    run_until_stopped(config, tr("deck studio stopped", lang), sockets=[sock])
