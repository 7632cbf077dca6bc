"""Peak memory of ``kkprint export`` and ``kkprint preview``: whole processes as a user runs them,
each beside its floor (a Python process that only imports what the command imports: the memory
no command can go below).

    .venv/bin/python benchmarks/export_memory.py            # 1,000 cards at 300 dpi, 60 at 1,200, a 2 m sheet at 300 dpi
    .venv/bin/python benchmarks/export_memory.py --quick    # 200 cards at 300 dpi, 20 at 1,200, a 1 m sheet

The target: ``export --png`` of a 1,000-card deck at 300 dpi under 400 MB, and memory that does
not grow with the number of cards or the dpi (the 1,200 dpi run needs what one card needs).
Peak memory is the process's maximum resident set (``ru_maxrss`` from ``wait4``), seconds the wall
time; a measurement, never an assertion of the test suite.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from decks import write_deck  # noqa: E402 - benchmarks/ is not a package

ROOT = Path(__file__).resolve().parent.parent
FLOOR = "import kkprint.cli.app, kkprint.deck.export, kkprint.engine.preview, pypdfium2, png, PIL.Image"

SHEET_DECK = """\
name: sheet
card: {{w: {side}, h: {side}}}  # a card can be 400 mm; the sheet it is printed on, any size
sheet: {{paper: {{w: {paper}, h: {paper}}}}}
layout:
  ring: {{type: shape, shape: circle, x: 10, y: 10, w: {inner}, h: {inner}, stroke: "#2f5fa8", stroke_width: 4}}
  name: {{type: text, x: 20, y: 20, w: 300, h: 60, text: "${{name}}", size: 60}}
cards: [{{name: A sheet as large as a table}}]
"""


def peak(command: list[str]) -> tuple[float, float]:
    """(peak MB, seconds) of one process."""
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(command)} failed: {process.stderr.read().decode() if process.stderr else ''}")
    return usage.ru_maxrss / 1024, seconds


def deck_of(folder: Path, count: int) -> Path:
    folder.mkdir(parents=True)
    return write_deck(folder, count)


def kkprint(*args: str) -> list[str]:
    return [sys.executable, "-m", "kkprint", *args]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller runs, for a first look")
    args = parser.parse_args()
    cards, large_cards, sheet_mm = (200, 20, 1000) if args.quick else (1000, 60, 2000)
    floor_mb, _ = peak([sys.executable, "-c", FLOOR])
    print(f"floor (imports only): {floor_mb:.0f} MB\n")
    print(f"{'what':<44} {'peak MB':>8} {'over floor':>10} {'seconds':>8}")
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        runs = []
        for count, dpi in ((cards // 10, 300), (cards, 300), (large_cards, 1200)):
            deck = deck_of(folder / f"d{count}-{dpi}", count)
            runs.append(
                (
                    f"export --png, {count:,} cards at {dpi} dpi",
                    kkprint(
                        "export", str(deck), "--png", "--dpi", str(dpi), "--out", str(folder / f"png{count}-{dpi}")
                    ),
                )
            )
        runs.append(
            (
                f"export --tts, {cards:,} cards at 300 dpi",
                kkprint(
                    "export",
                    str(deck_of(folder / "tts", cards)),
                    "--tts",
                    "--dpi",
                    "300",
                    "--out",
                    str(folder / "tts-out"),
                ),
            )
        )
        sheet = folder / "sheet" / "sheet.yaml"
        sheet.parent.mkdir()
        sheet.write_text(SHEET_DECK.format(side=390, paper=sheet_mm, inner=330), encoding="utf-8")
        runs.append(
            (
                f"preview, a {sheet_mm // 1000} m sheet at 300 dpi",
                kkprint("preview", str(sheet), "--dpi", "300", "--out", str(folder / "preview")),
            )
        )
        for what, command in runs:
            mb, seconds = peak(command)
            print(f"{what:<44} {mb:>8.0f} {mb - floor_mb:>10.0f} {seconds:>8.1f}", flush=True)


if __name__ == "__main__":
    main()
