"""Performance as a user meets it: whole processes, each paired with its floor in the same run.
Used by ``benchmarks/run.py``, which prints these figures first.

Ratios are of medians of interleaved pairs of CPU seconds (user + system of the child process),
so a busy moment on the machine hits both sides alike:

- a 1,000-card deck: ``kkprint build deck.yaml`` vs. the floor run as its own process (≤ 2×);
- the marginal cost of a card (≤ 1.5×), PDF bytes and peak memory per card (≤ 1×);
- scorer commands and ``--help`` (≤ 0.25 s wall each); ``kkprint build all``, warm, with one
  process and with every core;
- protograf on the same 1,000 cards when it is installed (kkprint ≥ 20× faster).

With ``--instructions`` the plain-card figures are counted by valgrind's callgrind instead: the
count repeats exactly, whatever else the machine is doing.
"""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from decks import write_deck, write_protograf_decks, write_simple_deck

ROOT = Path(__file__).resolve().parent.parent
DECKS = Path(__file__).resolve().parent / "decks.py"


def kkprint_build(deck: Path, out: Path) -> list[str]:
    return [sys.executable, "-m", "kkprint", "build", str(deck), "--out", str(out)]


def floor_command(kind: str, count: int, out: Path) -> list[str]:
    return [sys.executable, str(DECKS), kind, str(count), str(out)]


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
    return {"wall": wall, "cpu": cpu}


def peak_of(command: list[str]) -> float:
    """Peak memory of one process alone (ru_maxrss of children is a maximum over all of them)."""
    code = (
        "import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, capture_output=True); "
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, *command], capture_output=True, text=True, cwd=ROOT, check=True
    )
    return int(result.stdout.strip()) / 1024


def paired(kk: list[str], fl: list[str], pairs: int) -> dict:
    """Medians of ``pairs`` interleaved runs of both commands, after one run of each to warm
    caches (fonts, the OS's file cache)."""
    child(kk), child(fl)
    runs = {"kkprint": [], "floor": []}
    for _ in range(pairs):
        runs["kkprint"].append(child(kk))
        runs["floor"].append(child(fl))
    return {
        f"{side}_{key}": statistics.median(run[key] for run in runs[side]) for side in runs for key in ("cpu", "wall")
    }


def plain_pair(folder: Path, count: int, pairs: int) -> dict:
    deck = write_simple_deck(folder, count)
    return paired(
        kkprint_build(deck, folder / "out"), floor_command("simple-floor", count, folder / "floor.pdf"), pairs
    )


def wrapped_pair(folder: Path, count: int, pairs: int, sizes: bool = False) -> dict:
    deck = write_deck(folder, count)
    kk, fl = kkprint_build(deck, folder / "out"), floor_command("floor", count, folder / "floor.pdf")
    result = paired(kk, fl, pairs)
    if sizes:
        pdf = next((folder / "out").glob("*.pdf"))
        result.update(
            kkprint_bytes=pdf.stat().st_size,
            floor_bytes=(folder / "floor.pdf").stat().st_size,
            kkprint_peak=peak_of(kk),
            floor_peak=peak_of(fl),
        )
    return result


def protograf(folder: Path, count: int, pairs: int) -> dict | None:
    """protograf on the same names and texts as kkprint's same-as-protograf deck (a frame and two
    texts a card). It is the ``bench`` extra; its own Python may be named in PROTOGRAF_PYTHON."""
    python = os.environ.get("PROTOGRAF_PYTHON", sys.executable)
    if subprocess.run([python, "-c", "import protograf"], capture_output=True).returncode != 0:
        return None
    script, deck = write_protograf_decks(folder, count)
    graf, kk = [python, str(script)], kkprint_build(deck, folder / "out")
    child(kk)
    runs = {"protograf": [], "kkprint": []}
    for _ in range(pairs):  # protograf takes seconds a run: fewer pairs, interleaved all the same
        runs["protograf"].append(child(graf, cwd=folder)["cpu"])
        runs["kkprint"].append(child(kk)["cpu"])
    return {side: statistics.median(times) for side, times in runs.items()}


def command_times(pairs: int) -> dict[str, float]:
    examples = ROOT / "examples"
    commands = {
        "--help": ["--help"],
        "scorer kardinal --json": ["scorer", "kardinal", str(examples / "kardinal-tally.yaml"), "--json"],
        "scorer webofpower --json": ["scorer", "webofpower", str(examples / "webofpower-state.yaml"), "--json"],
        "scorer webofpower-board --json": [
            "scorer",
            "webofpower-board",
            str(examples / "webofpower-board-tally.yaml"),
            "--json",
        ],
        "scorer court --json": ["scorer", "court", str(examples / "court-final.yaml"), "--json"],
        "scorer culdcept --json": ["scorer", "culdcept", str(examples / "culdcept-state.yaml"), "--json"],
    }
    return {
        name: statistics.median(child([sys.executable, "-m", "kkprint", *args])["wall"] for _ in range(pairs))
        for name, args in commands.items()
    }


def build_all(pairs: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as temp:
        command = [sys.executable, "-m", "kkprint", "build", "all", "--out", temp]
        child(command)
        times = {}
        for jobs in ("1", str(min(4, os.cpu_count() or 1))):
            times[jobs] = statistics.median(
                child(["env", f"KKPRINT_JOBS={jobs}", *command])["wall"] for _ in range(pairs)
            )
    return times


def ratio_line(what: str, kk: float, fl: float, unit: str, target: str, scale: float = 1.0) -> str:
    return f"{what}: kkprint {kk * scale:.3f} {unit}, floor {fl * scale:.3f} {unit} -> {kk / fl:.2f}x (target {target})"


def compile_bytecode() -> None:
    """Write kkprint's bytecode caches first, as installing it does: where PYTHONDONTWRITEBYTECODE
    is set, a stale or missing cache would otherwise be compiled again in every measured run."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "kkprint")], check=True)


def report(quick: bool = False) -> None:
    """Every whole-process figure of the targets, printed as it is measured."""
    compile_bytecode()
    pairs = 3 if quick else 7
    big = 5000 if quick else 10000
    print(f"WHOLE PROCESSES (CPU seconds, medians of {pairs} interleaved pairs; {os.cpu_count()} cores)\n")
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        for name in ("plain", "plain-big", "wrapped", "wrapped-small", "wrapped-big", "protograf"):
            (folder / name).mkdir()
        plain = plain_pair(folder / "plain", 1000, pairs)
        plain_big = plain_pair(folder / "plain-big", big, 3)
        print(
            ratio_line(
                "1,000 plain cards (frame, one line, red back, cut marks)",
                plain["kkprint_cpu"],
                plain["floor_cpu"],
                "s",
                "<= 2x",
            )
        )
        print(
            "   "
            + ratio_line(
                f"marginal plain card ({big:,} - 1,000)",
                (plain_big["kkprint_cpu"] - plain["kkprint_cpu"]) / (big - 1000),
                (plain_big["floor_cpu"] - plain["floor_cpu"]) / (big - 1000),
                "ms",
                "<= 1.5x",
                1000,
            )
        )
        wrapped = wrapped_pair(folder / "wrapped", 1000, pairs)
        small = wrapped_pair(folder / "wrapped-small", 2000, max(3, pairs // 2))
        large = wrapped_pair(folder / "wrapped-big", big, 3, sizes=True)
        print(
            ratio_line(
                "1,000 cards with wrapped text and two dice", wrapped["kkprint_cpu"], wrapped["floor_cpu"], "s", "<= 2x"
            )
        )
        print(
            "   "
            + ratio_line(
                f"marginal such card ({big:,} - 2,000)",
                (large["kkprint_cpu"] - small["kkprint_cpu"]) / (big - 2000),
                (large["floor_cpu"] - small["floor_cpu"]) / (big - 2000),
                "ms",
                "<= 1.5x",
                1000,
            )
        )
        print(
            f"PDF bytes per card at {big:,}: kkprint {large['kkprint_bytes'] / big:.0f}, floor "
            f"{large['floor_bytes'] / big:.0f} -> {large['kkprint_bytes'] / large['floor_bytes']:.2f}x (target <= 1x)"
        )
        print(
            f"peak memory at {big:,}: kkprint {large['kkprint_peak']:.0f} MB, floor {large['floor_peak']:.0f} MB"
            f" -> {large['kkprint_peak'] / large['floor_peak']:.2f}x (target <= 1x)"
        )
        graf = protograf(folder / "protograf", 1000, 3)
    if graf is None:
        print("protograf: not installed (pip install -e '.[bench]', or name its Python in PROTOGRAF_PYTHON)")
    else:
        print(
            f"protograf, the same 1,000 cards (frame, name, wrapped text): {graf['protograf']:.2f} s vs kkprint "
            f"{graf['kkprint']:.2f} s -> kkprint is {graf['protograf'] / graf['kkprint']:.1f}x faster (target >= 20x)"
        )
    print()
    for name, seconds in command_times(pairs).items():
        print(f"{name:<32} {seconds:.2f} s wall (target <= 0.25 s)")
    times = build_all(pairs)
    print(
        "kkprint build all, warm: "
        + ", ".join(
            f"{seconds:.2f} s wall with {jobs} process{'es' if jobs != '1' else ''}" for jobs, seconds in times.items()
        )
    )


def instructions(command: list[str]) -> int:
    """Instructions the whole process executes, counted by callgrind."""
    result = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed under valgrind: {result.stderr.strip()[-300:]}")
    return int(result.stderr.rsplit("Collected :", 1)[1].split()[0])


def instruction_report() -> None:
    """The plain-card targets in instructions: 1,000 cards, and the marginal card from 1,000 to 3,000."""
    if not shutil.which("valgrind"):
        raise SystemExit("--instructions needs valgrind (apt-get install valgrind)")
    compile_bytecode()
    counts = {}
    with tempfile.TemporaryDirectory() as temp:
        for count in (1000, 3000):
            folder = Path(temp) / str(count)
            folder.mkdir()
            deck = write_simple_deck(folder, count)
            counts[count] = (
                instructions(kkprint_build(deck, folder / "out")),
                instructions(floor_command("simple-floor", count, folder / "floor.pdf")),
            )
    (kk1, fl1), (kk3, fl3) = counts[1000], counts[3000]
    print("WHOLE PROCESSES, instructions counted by callgrind (one run each: the count repeats)\n")
    print(f"1,000 plain cards: kkprint {kk1 / 1e9:.3f} G, floor {fl1 / 1e9:.3f} G -> {kk1 / fl1:.2f}x (target <= 2x)")
    print(
        f"   marginal plain card (3,000 - 1,000): kkprint {(kk3 - kk1) / 2000 / 1e6:.3f} M, floor "
        f"{(fl3 - fl1) / 2000 / 1e6:.3f} M -> {(kk3 - kk1) / (fl3 - fl1):.2f}x (target <= 1.5x)"
    )
