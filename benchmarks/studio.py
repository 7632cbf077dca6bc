"""The deck studio on a 500-card deck: from saving one changed row to its new picture on the page.

    .venv/bin/python benchmarks/studio.py             # 500 cards, 15 saves
    .venv/bin/python benchmarks/studio.py 1000 30     # other sizes

A real ``kkprint studio`` process serves a deck of distinct cards (benchmarks/decks.py). This
script is the page: it listens to the studio's Server-Sent Events as the browser does and
fetches a picture when its address changes. Each save rewrites the CSV with one row's name
changed (as an editor saves); the time runs from just before the write to the new picture's
last byte — the watcher noticing the save, reading the deck again, working out which cards
changed, drawing that one, the event, and the picture's download. The first figure is the
studio drawing every card once after it starts (what a designer waits for in the morning).
"""

from __future__ import annotations

import http.client
import json
import os
import queue
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from decks import write_deck  # noqa: E402 - benchmarks/ is not a package

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def listen(port: int, events: queue.Queue) -> None:
    """The page's side: every ``deck`` event, parsed, with the time it arrived."""
    connection = http.client.HTTPConnection("127.0.0.1", port)
    connection.request("GET", "/api/events")
    answer = connection.getresponse()
    event = None
    while True:
        line = answer.readline()
        if not line:
            return
        line = line.decode("utf-8").rstrip("\r\n")
        if line.startswith("event:"):
            event = line[6:].strip()
        elif line.startswith("data:") and event == "deck":
            events.put((time.perf_counter(), json.loads(line[5:])))


def fetch(port: int, url: str) -> bytes:
    connection = http.client.HTTPConnection("127.0.0.1", port)
    connection.request("GET", url)
    body = connection.getresponse().read()
    connection.close()
    return body


def main(count: int = 500, saves: int = 15) -> None:
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        deck = write_deck(folder, count)
        port = free_port()
        started = time.perf_counter()
        studio = subprocess.Popen(
            [sys.executable, "-m", "kkprint", "studio", str(deck), "--no-open", "--port", str(port)],
            cwd=ROOT,
            env={**os.environ, "KKPRINT_LANG": "en"},
            stderr=subprocess.DEVNULL,
        )
        try:
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                    break
                except OSError:
                    time.sleep(0.05)
            events: queue.Queue = queue.Queue()
            threading.Thread(target=listen, args=(port, events), daemon=True).start()
            while True:
                _, state = events.get(timeout=300)
                if not state["busy"] and state["cards"] and all(card["front"] for card in state["cards"]):
                    break
            first = time.perf_counter() - started
            print(f"{count} cards: every card drawn {first:.2f} s after the studio started ({state['drawn']} faces)")
            csv_path = folder / "cards.csv"
            rows = csv_path.read_text(encoding="utf-8").splitlines()
            for label, word in (
                ("a changed row", lambda save: f"v{save}"),
                ("a row with a kanji the deck did not have (its font is subset anew)", lambda save: chr(0x6F22 + save)),
            ):
                times, redrawn = [], []
                for save in range(saves):
                    row = 1 + (save * 37) % count  # a different row each time, all over the deck
                    name, rest = rows[row].split(",", 1)
                    rows[row] = f"{name} {word(save)},{rest}"
                    old = state["cards"][row - 1]["front"]
                    drawn_before = state["drawn"]
                    time.sleep(0.3)  # the page at rest, as between two saves of a designer
                    saved = time.perf_counter()
                    csv_path.write_text("\n".join(rows) + "\n", encoding="utf-8")
                    while True:
                        _, state = events.get(timeout=60)
                        new = state["cards"][row - 1]["front"]
                        if new != old and not state["busy"]:
                            break
                    fetch(port, new)
                    times.append(time.perf_counter() - saved)
                    redrawn.append(state["drawn"] - drawn_before)
                print(
                    f"save → new picture on the page, {label}, {saves} saves: median "
                    f"{statistics.median(times) * 1000:.0f} ms, min {min(times) * 1000:.0f} ms, "
                    f"max {max(times) * 1000:.0f} ms; faces drawn per save: {sorted(set(redrawn))}"
                )
        finally:
            studio.terminate()
            studio.wait(timeout=30)


if __name__ == "__main__":
    main(*(int(arg) for arg in sys.argv[1:3]))
