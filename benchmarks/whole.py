"""Performance as a user meets it: whole processes, each paired with the floor in the same run.

    .venv/bin/python benchmarks/whole.py            # a few minutes
    .venv/bin/python benchmarks/whole.py --quick    # fewer pairs and smaller decks
    .venv/bin/python benchmarks/whole.py --instructions   # the plain-card figures in instructions (valgrind)

Reports, as ratios of medians of interleaved pairs (CPU seconds of the child process, so a busy
moment on the machine hits both sides alike):

- a 1,000-card deck: `kkprint build deck.yaml` vs. the floor, a plain ReportLab script drawing the
  same cards, run as its own process (target ≤ 2×);
- the marginal cost of a card: (10,000 cards − 2,000 cards) / 8,000 for both (target ≤ 1.5×);
- PDF bytes and peak memory per card against the floor's (target ≤ 1×);
- scorer commands and `--help` (target ≤ 0.25 s wall each);
- `kkprint build all`, warm, wall time with one process and with every core;
- protograf on the same 1,000 cards, when it is installed (target: kkprint ≥ 20× faster).

In-process figures (imports excluded) are in benchmarks/run.py, labelled as such.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from run import card_rows, floor, write_deck  # noqa: E402 - the same deck and floor as run.py

PROTOGRAF_SCRIPT = """\
from protograf import *
Create(filename={out!r}, margin=0.5)
Data(filename={data!r})
Deck(cards={count}, width=6.3, height=8.8, rounding=0.3)
Card("*", rectangle(x=0.2, y=0.2, width=5.9, height=8.4), text(text=T("{{{{ NAME }}}}"), x=3.15, y=7.5, font_size=14),
     text(text=T("{{{{ TEXT }}}}"), x=0.5, y=3.5, width=5.3, font_size=10, wrap=True))
Save()
"""


SIMPLE_DECK = """\
name: simple-{count}
card: {{size: poker}}
layout:
  frame: {{type: shape, shape: roundrect, x: 2, y: 2, w: 59, h: 84, stroke: "#333333", stroke_width: 1}}
  title: {{type: text, x: 4, y: 4, w: 55, h: 10, field: name, size: 12}}
back:
  fill:  {{type: shape, shape: rect, x: 0, y: 0, w: 63, h: 88, fill: "#cc2222"}}
data: cards.csv
"""


def simple_floor(count: int, out: Path) -> None:
    """The plainest fair rival: frame, one line of text, a red back, cut marks — straight ReportLab."""
    from reportlab.lib.units import mm
    from reportlab.pdfgen.canvas import Canvas

    from kkprint.engine.fonts import prepare_fonts

    fonts = prepare_fonts([f"Card {i + 1}" for i in range(count)])
    c = Canvas(str(out), pagesize=(210 * mm, 297 * mm), invariant=1, pageCompression=1)
    w, h = 63 * mm, 88 * mm
    ox, oy = (210 * mm - 3 * w) / 2, (297 * mm - 3 * h) / 2
    for start in range(0, count, 9):
        chunk = range(start, min(count, start + 9))
        for side in ("front", "back"):
            for k in range(4):
                c.line(ox + k * w, 3 * mm, ox + k * w, oy - mm)
                c.line(ox + k * w, oy + 3 * h + mm, ox + k * w, 294 * mm)
            for i, n in enumerate(chunk):
                col = i % 3 if side == "front" else 2 - i % 3
                x, y = ox + col * w, oy + (2 - i // 3) * h
                if side == "front":
                    c.roundRect(x + 2 * mm, y + 2 * mm, w - 4 * mm, h - 4 * mm, 2 * mm)
                    c.setFont(fonts.regular, 12)
                    c.drawString(x + 4 * mm, y + h - 10 * mm, f"Card {n + 1}")
                else:
                    c.setFillColorRGB(0.8, 0.13, 0.13)
                    c.rect(x, y, w, h, stroke=0, fill=1)
                    c.setFillGray(0)
            c.showPage()
    c.save()


def simple_commands(folder: Path, count: int) -> tuple[list[str], list[str]]:
    """The plain deck of ``count`` cards written into ``folder``; the kkprint and floor commands."""
    import csv

    with open(folder / "cards.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["name"])
        writer.writerows([f"Card {i + 1}"] for i in range(count))
    deck = folder / "simple.yaml"
    deck.write_text(SIMPLE_DECK.format(count=count), encoding="utf-8")
    kk = [sys.executable, "-m", "kkprint", "build", str(deck), "--out", str(folder / "out")]
    fl = [sys.executable, str(Path(__file__)), "--simple-floor", str(count), str(folder / "floor.pdf")]
    return kk, fl


def simple_pair(folder: Path, count: int, pairs: int) -> dict:
    kk, fl = simple_commands(folder, count)
    child(kk), child(fl)
    runs = {"kkprint": [], "floor": []}
    for _ in range(pairs):
        runs["kkprint"].append(child(kk))
        runs["floor"].append(child(fl))
    return {"kkprint": median(runs["kkprint"], "cpu"), "floor": median(runs["floor"], "cpu")}


def child(command: list[str], cwd: Path | None = None) -> dict:
    """Run one process; its wall time, CPU time (user + system) and peak memory."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    result = subprocess.run(command, cwd=cwd or ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed: {result.stderr.strip()[-300:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall": wall, "cpu": cpu, "peak_mb": after.ru_maxrss / 1024}


def peak_of(command: list[str]) -> float:
    """Peak memory of one process alone (ru_maxrss of children is a maximum over all of them)."""
    code = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, capture_output=True); "
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    result = subprocess.run([sys.executable, "-c", code, *command], capture_output=True, text=True, cwd=ROOT, check=True)
    return int(result.stdout.strip()) / 1024


def median(pairs: list[dict], key: str) -> float:
    return statistics.median(p[key] for p in pairs)


def deck_pair(folder: Path, count: int, pairs: int) -> dict:
    deck = write_deck(folder, count)
    kk = [sys.executable, "-m", "kkprint", "build", str(deck), "--out", str(folder / "out")]
    fl = [sys.executable, str(Path(__file__)), "--floor", str(count), str(folder / "floor.pdf")]
    child(kk), child(fl)  # warm caches (fonts, the OS's file cache) before measuring
    runs = {"kkprint": [], "floor": []}
    for _ in range(pairs):
        runs["kkprint"].append(child(kk))
        runs["floor"].append(child(fl))
    pdf = next((folder / "out").glob("*.pdf"))
    return {"kkprint": median(runs["kkprint"], "cpu"), "floor": median(runs["floor"], "cpu"),
            "kkprint_wall": median(runs["kkprint"], "wall"), "floor_wall": median(runs["floor"], "wall"),
            "kkprint_bytes": pdf.stat().st_size, "floor_bytes": (folder / "floor.pdf").stat().st_size,
            "kkprint_peak": peak_of(kk), "floor_peak": peak_of(fl)}


def command_times(pairs: int) -> dict[str, float]:
    examples = ROOT / "examples"
    commands = {
        "--help": ["--help"],
        "scorer kardinal --json": ["scorer", "kardinal", str(examples / "kardinal-tally.yaml"), "--json"],
        "scorer webofpower --json": ["scorer", "webofpower", str(examples / "webofpower-state.yaml"), "--json"],
        "scorer webofpower-board --json": ["scorer", "webofpower-board", str(examples / "webofpower-board-tally.yaml"), "--json"],
        "scorer court --json": ["scorer", "court", str(examples / "court-final.yaml"), "--json"],
        "scorer culdcept --json": ["scorer", "culdcept", str(examples / "culdcept-state.yaml"), "--json"],
    }
    return {name: statistics.median(child([sys.executable, "-m", "kkprint", *args])["wall"] for _ in range(pairs))
            for name, args in commands.items()}


def build_all(pairs: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as temp:
        command = [sys.executable, "-m", "kkprint", "build", "all", "--out", temp]
        child(command)
        times = {}
        for jobs in ("1", str(min(4, os.cpu_count() or 1))):
            env_command = ["env", f"KKPRINT_JOBS={jobs}", *command]
            times[jobs] = statistics.median(child(env_command)["wall"] for _ in range(pairs))
    return times


def protograf(folder: Path, count: int) -> float | None:
    """protograf 0.5 on the same names and texts (a frame and two texts a card); its own Python
    may be named with PROTOGRAF_PYTHON, since it pulls in dependencies of its own."""
    import csv

    python = os.environ.get("PROTOGRAF_PYTHON", sys.executable)
    if subprocess.run([python, "-c", "import protograf"], capture_output=True).returncode != 0:
        return None
    with open(folder / "pg.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["NAME", "TEXT"])
        writer.writerows([name, text] for name, text, _, _ in card_rows(count))
    script = folder / "protograf_deck.py"
    script.write_text(PROTOGRAF_SCRIPT.format(out=str(folder / "pg.pdf"), data=str(folder / "pg.csv"), count=count),
                      encoding="utf-8")
    return child([python, str(script)], cwd=folder)["cpu"]


def instructions(command: list[str]) -> int:
    """Instructions the whole process executes, counted by callgrind: repeatable to the last few
    thousandths, unlike seconds on a shared machine."""
    result = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command],
                            cwd=ROOT, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed under valgrind: {result.stderr.strip()[-300:]}")
    return int(result.stderr.rsplit("Collected :", 1)[1].split()[0])


def instruction_report() -> None:
    """The plain-card targets in instructions: 1,000 cards, and the marginal card from 1,000 to 3,000."""
    if not shutil.which("valgrind"):
        raise SystemExit("--instructions needs valgrind (apt-get install valgrind)")
    counts = {}
    with tempfile.TemporaryDirectory() as temp:
        for count in (1000, 3000):
            folder = Path(temp) / str(count)
            folder.mkdir()
            kk, fl = simple_commands(folder, count)
            counts[count] = (instructions(kk), instructions(fl))
    (kk1, fl1), (kk3, fl3) = counts[1000], counts[3000]
    print("whole processes, instructions counted by callgrind (one run each: the count repeats)\n")
    print(f"1,000 plain cards: kkprint {kk1 / 1e9:.3f} G, floor {fl1 / 1e9:.3f} G -> {kk1 / fl1:.2f}x (target <= 2x)")
    print(f"   marginal plain card (3,000 - 1,000): kkprint {(kk3 - kk1) / 2000 / 1e6:.3f} M, floor "
          f"{(fl3 - fl1) / 2000 / 1e6:.3f} M -> {(kk3 - kk1) / (fl3 - fl1):.2f}x (target <= 1.5x)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions with valgrind (callgrind) instead of timing: slower, but the same "
                             "count on every run, whatever else the machine is doing")
    parser.add_argument("--floor", nargs=2, help=argparse.SUPPRESS)
    parser.add_argument("--simple-floor", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.floor:
        floor(int(args.floor[0]), Path(args.floor[1]))
        return
    if args.simple_floor:
        simple_floor(int(args.simple_floor[0]), Path(args.simple_floor[1]))
        return
    # an installed kkprint has its bytecode compiled (pip does it); give the source tree the same
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "kkprint"), str(ROOT / "benchmarks")],
                   check=True, capture_output=True)
    if args.instructions:
        instruction_report()
        return
    pairs = 3 if args.quick else 7
    big = 5000 if args.quick else 10000
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        for name in ("1000", "2000", "big", "simple", "simple-big"):
            (folder / name).mkdir()
        simple = simple_pair(folder / "simple", 1000, pairs)
        simple_big = simple_pair(folder / "simple-big", big, 3)
        thousand = deck_pair(folder / "1000", 1000, pairs)
        small = deck_pair(folder / "2000", 2000, max(3, pairs // 2))
        large = deck_pair(folder / "big", big, 3)
        graf = protograf(folder, 1000)
    marginal_kk = (large["kkprint"] - small["kkprint"]) / (big - 2000)
    marginal_fl = (large["floor"] - small["floor"]) / (big - 2000)
    print(f"whole processes, CPU seconds, medians of {pairs} interleaved pairs (this machine: {os.cpu_count()} cores)\n")
    print(f"1,000 plain cards (frame, one line, red back, cut marks): kkprint {simple['kkprint']:.2f} s, "
          f"floor {simple['floor']:.2f} s -> {simple['kkprint'] / simple['floor']:.2f}x (target <= 2x)")
    plain_kk = (simple_big["kkprint"] - simple["kkprint"]) / (big - 1000)
    plain_fl = (simple_big["floor"] - simple["floor"]) / (big - 1000)
    print(f"   marginal cost of a plain card: kkprint {1000 * plain_kk:.3f} ms, floor {1000 * plain_fl:.3f} ms -> "
          f"{plain_kk / plain_fl:.2f}x (target <= 1.5x)")
    print(f"1,000 cards with wrapped text and two dice: kkprint {thousand['kkprint']:.2f} s, floor {thousand['floor']:.2f} s -> "
          f"{thousand['kkprint'] / thousand['floor']:.2f}x (target <= 2x)")
    print(f"   wall: kkprint {thousand['kkprint_wall']:.2f} s, floor {thousand['floor_wall']:.2f} s")
    print(f"marginal cost of a card ({big:,} vs 2,000): kkprint {1000 * marginal_kk:.3f} ms, floor {1000 * marginal_fl:.3f} ms"
          f" -> {marginal_kk / marginal_fl:.2f}x (target <= 1.5x)")
    print(f"PDF bytes per card at {big:,}: kkprint {large['kkprint_bytes'] / big:.0f}, floor {large['floor_bytes'] / big:.0f}"
          f" -> {large['kkprint_bytes'] / large['floor_bytes']:.2f}x (target <= 1x)")
    print(f"peak memory at {big:,}: kkprint {large['kkprint_peak']:.0f} MB, floor {large['floor_peak']:.0f} MB"
          f" -> {large['kkprint_peak'] / large['floor_peak']:.2f}x (target <= 1x)")
    if graf is None:
        print("protograf: not installed (pip install protograf, or name its Python in PROTOGRAF_PYTHON)")
    else:
        print(f"protograf, 1,000 cards: {graf:.2f} s -> kkprint is {graf / thousand['kkprint']:.1f}x faster (target >= 20x)")
    print()
    for name, seconds in command_times(pairs).items():
        print(f"{name:<32} {seconds:.2f} s wall (target <= 0.25 s)")
    times = build_all(pairs)
    print("\nkkprint build all, warm: " + ", ".join(f"{seconds:.2f} s wall with {jobs} process{'es' if jobs != '1' else ''}"
                                                  for jobs, seconds in times.items()))
    print(json.dumps({"deck_1000": thousand, "marginal_ms": [1000 * marginal_kk, 1000 * marginal_fl]}), file=sys.stderr)


if __name__ == "__main__":
    main()
