"""kkprint's performance against its floors: plain ReportLab scripts drawing the same cards.

    .venv/bin/python benchmarks/run.py                     # everything, about ten minutes
    .venv/bin/python benchmarks/run.py --quick             # fewer pairs, smaller decks, no valgrind
    .venv/bin/python benchmarks/run.py --update README.md  # and write the goals' table into the README
    .venv/bin/python benchmarks/run.py --no-instructions   # seconds only (valgrind is the slow part)
    PROTOGRAF_PYTHON=/path/to/venv/bin/python .venv/bin/python benchmarks/run.py   # protograf beside

First the goals (``benchmarks/goals.py``): whole processes as a user runs them, each paired
with its floor, printed as a markdown table, with instruction counts (callgrind) beside the CPU
ratios of goals 1–3 where valgrind is installed. Then, labelled as such, in-process figures with
imports left out: what the build itself costs, card by card. Timing lives here, never in the
test suite.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import goals  # noqa: E402
from decks import floor, write_deck  # noqa: E402 - benchmarks/ is not a package

ROOT = Path(__file__).resolve().parent.parent


def one(kind: str, count: int) -> dict:
    """Run one measurement in this process and report it."""
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        if kind == "deck":
            from kkprint.cli.targets import resolve
            from kkprint.engine.job import BuildOptions, build_targets

            targets = resolve([str(write_deck(folder, count))])  # (imports the deck's modules)
            started = time.perf_counter()
            paths = build_targets(targets, BuildOptions(out_dir=folder / "out"))
        else:
            from reportlab.pdfgen import canvas  # noqa: F401 - imports left out here too

            from kkprint.engine import fonts  # noqa: F401

            paths = [folder / "floor.pdf"]
            started = time.perf_counter()
            floor(count, paths[0])
        seconds = time.perf_counter() - started
        size = sum(p.stat().st_size for p in paths)
    return {"seconds": seconds, "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, "bytes": size}


def measure(kind: str, count: int = 0, repeat: int = 1) -> dict:
    best = None
    for _ in range(repeat):
        result = subprocess.run(
            [sys.executable, __file__, "--one", kind, str(count)],
            capture_output=True,
            text=True,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            check=True,
        )
        data = json.loads(result.stdout.strip().splitlines()[-1])
        if best is None or data["seconds"] < best["seconds"]:
            best = data
    return best


def in_process_report(quick: bool) -> None:
    """The build alone, imports and start-up left out (each measurement in a fresh process so
    its peak memory is its own)."""
    sizes = (100, 1000, 2000) if quick else (100, 1000, 10000)
    print("\nIN-PROCESS (imports and start-up left out; best of 3, wall)\n")
    decks = {n: measure("deck", n, repeat=3 if n <= 1000 else 1) for n in sizes}
    print(f"{'cards':>7} {'ms/card':>8} {'peak MB':>8} {'bytes/card':>11}")
    for n, d in decks.items():
        print(f"{n:>7} {1000 * d['seconds'] / n:>8.3f} {d['peak_mb']:>8.0f} {d['bytes'] / n:>11.0f}")
    base = measure("floor", 1000, repeat=3)
    print(
        f"floor, 1,000 cards: {base['seconds']:.2f} s, {base['bytes'] / 1000:.0f} bytes/card; kkprint "
        f"{decks[1000]['seconds']:.2f} s -> {decks[1000]['seconds'] / base['seconds']:.2f}x"
    )
    small, large = decks[sizes[0]], decks[sizes[-1]]
    print(
        f"peak memory {sizes[-1]:,} / {sizes[0]} cards: {large['peak_mb'] / small['peak_mb']:.2f}x; bytes per card "
        f"{sizes[-1]:,} / {sizes[0]} cards: {(large['bytes'] / sizes[-1]) / (small['bytes'] / sizes[0]):.2f}x"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--one", nargs=2, metavar=("KIND", "COUNT"), help=argparse.SUPPRESS)
    parser.add_argument("--quick", action="store_true", help="fewer pairs and smaller decks, for a first look")
    parser.add_argument(
        "--no-instructions",
        action="store_true",
        help="leave out the instruction counts (valgrind's callgrind: the same count on every run, "
        "whatever else the machine is doing, but most of the run's time)",
    )
    parser.add_argument(
        "--update",
        type=Path,
        metavar="FILE",
        help="write the goals' table into FILE (the README) between its benchmark markers",
    )
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one(args.one[0], int(args.one[1]))))
        return
    goals.compile_bytecode()
    table = goals.report(args.quick, with_instructions=not (args.quick or args.no_instructions))
    if args.update:
        update(args.update, table.lines, quick=args.quick)
    in_process_report(args.quick)


START, END = "<!-- benchmarks/run.py: start -->", "<!-- benchmarks/run.py: end -->"


def update(path: Path, lines: list[str], quick: bool) -> None:
    """Put the table between the file's markers, with when and how it was measured; the rest of
    the file is left as it is."""
    text = path.read_text(encoding="utf-8")
    if START not in text or END not in text:
        raise SystemExit(f"{path}: no {START} … {END} block to write the table into")
    how = (
        f"Measured {time.strftime('%Y-%m-%d')} by `benchmarks/run.py{' --quick' if quick else ''}` on "
        f"{os.cpu_count()} cores: whole processes, CPU seconds medians of interleaved pairs with the floor "
        "(min–max of single pairs in brackets), instructions by callgrind (one run a side)."
    )
    before, rest = text.split(START, 1)
    after = rest.split(END, 1)[1]
    path.write_text(f"{before}{START}\n{how}\n\n" + "\n".join(lines) + f"\n{END}{after}", encoding="utf-8")


if __name__ == "__main__":
    main()
