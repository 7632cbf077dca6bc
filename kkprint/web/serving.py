"""A page's server run until it is stopped: the score pad's and the deck studio's alike."""

from __future__ import annotations

import signal
import sys


def run_until_stopped(config, stopped: str, **run) -> None:
    """Serve ``config`` (a ``uvicorn.Config``) until a signal stops it, then say ``stopped``. A
    Ctrl-C ends the process with 130, also where SIGINT was ignored at start (a script's
    background job): uvicorn stops on it all the same, and its raising the signal again after a
    graceful shutdown then does nothing, so the process would have ended with 0, as if nobody
    had stopped it."""
    import gc

    import uvicorn

    class Server(uvicorn.Server):
        """uvicorn's server, noting the signals that stopped it (uvicorn's own list is private)."""

        def __init__(self, config) -> None:
            super().__init__(config)
            self.stopped_by: list[int] = []

        def handle_exit(self, sig: int, frame) -> None:
            self.stopped_by.append(sig)
            super().handle_exit(sig, frame)

    server = Server(config)
    gc.freeze()  # what the imports made lives as long as the server: no collection walks it again
    try:
        server.run(**run)  # (after a graceful shutdown uvicorn raises the signal that asked for it again)
        interrupted = signal.SIGINT in server.stopped_by
    except KeyboardInterrupt:
        interrupted = True
    sys.stderr.write(stopped + "\n")
    if interrupted:
        raise SystemExit(130)
