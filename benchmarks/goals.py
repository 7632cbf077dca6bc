"""Issue 33's goals, each figure beside its floor, printed as the markdown table the README shows.

Every figure is of whole processes as a user runs them, each paired with its floor and the pairs
interleaved, so a busy moment on the machine hits both sides alike: the ratio is of the medians
of CPU time (user + system, the process and the children it waited for), and beside it, in
brackets, the lowest and highest ratio of single pairs. Where valgrind is installed, goals 1–3
also have their count of instructions (callgrind, one run a side: the count repeats exactly,
whatever else the machine is doing). Used by ``benchmarks/run.py``.
"""

from __future__ import annotations

import atexit
import csv
import functools
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from decks import write_protograf_decks, write_simple_deck

ROOT = Path(__file__).resolve().parent.parent
DECKS = Path(__file__).resolve().parent / "decks.py"
EXAMPLES = ROOT / "examples"
BASE = [sys.executable, "-c", "import typer, yaml"]  # the floor of a command that reads YAML and has options
# example decks with their data in a CSV file, and what each is held to: heist is goal 2's rich
# deck (icons, markup, its own font); the others say what their content costs (vertical text with
# ruby; ~30 expressions, gradients and polygons a card)
RICH_DECKS = {"heist": "≤ 1.3×", "kanji": "(what its content costs)", "summits": "(what its content costs)"}


def kkprint(*args: str) -> list[str]:
    return [sys.executable, "-m", "kkprint", *args]


def kkprint_build(deck: Path, out: Path) -> list[str]:
    return kkprint("build", str(deck), "--out", str(out))


def compile_bytecode() -> None:
    """Write kkprint's bytecode caches first, as installing it does (pip compiles what it
    installs): where PYTHONDONTWRITEBYTECODE is set, a stale or missing cache would otherwise be
    compiled again in every measured run."""
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(ROOT / "kkprint"), str(ROOT / "benchmarks")],
        check=True,
        capture_output=True,
    )


PARENT_LIMIT_KB = 40 * 1024  # (this process with its own modules: ~15 MB)


def in_child(code: str) -> str:
    """What ``code`` prints, run by a Python of its own (see :func:`child`: work that needs
    kkprint is done outside this process)."""
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    return done.stdout.strip()


def floor_command(kind: str, *args: object) -> list[str]:
    return [sys.executable, str(DECKS), kind, *map(str, args)]


@dataclass
class Run:
    cpu: float
    wall: float
    peak_mb: float


def child(command: list[str], cwd: Path | None = None, env: dict[str, str] | None = None) -> Run:
    """Run one process: its CPU time (user + system, with the children it waited for), wall
    time, and peak memory (of its largest process).

    Linux counts in a child's peak what its parent held when it started it, so this process stays
    small: kkprint is run here, never imported (a 1,000-card PDF built in this process once made
    every later peak read 59 MB, the floor's and kkprint's alike)."""
    if resource.getrusage(resource.RUSAGE_SELF).ru_maxrss > PARENT_LIMIT_KB:
        raise SystemExit("the benchmark process has grown: peaks measured from it would be its own")
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd or ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    error = process.stderr.read().decode(errors="replace") if process.stderr else ""
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(command)} failed: {error.strip()[-400:]}")
    return Run(usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss / 1024)


@dataclass
class Paired:
    """Interleaved runs of two commands."""

    ours: list[Run]
    floor: list[Run]

    def median(self, side: str, key: str = "cpu") -> float:
        return statistics.median(getattr(run, key) for run in getattr(self, side))

    def ratio(self, key: str = "cpu") -> tuple[float, float, float]:
        """(ratio of the medians, lowest and highest ratio of one pair)."""
        each = [getattr(a, key) / getattr(b, key) for a, b in zip(self.ours, self.floor)]
        return self.median("ours", key) / self.median("floor", key), min(each), max(each)


def paired(
    ours: list[str], floor: list[str], pairs: int, cwd: Path | None = None, env: dict[str, str] | None = None
) -> Paired:
    """``pairs`` interleaved runs of both commands, after one of each to warm caches (fonts, the
    system's file cache, kkprint's checked game definitions); ``env`` is ours alone."""
    child(ours, cwd, env), child(floor, cwd)
    result = Paired([], [])
    for _ in range(pairs):
        result.ours.append(child(ours, cwd, env))
        result.floor.append(child(floor, cwd))
    return result


def instructions(command: list[str], env: dict[str, str] | None = None, cwd: Path = ROOT) -> int | None:
    """Instructions the whole process executes, counted by callgrind; None without valgrind."""
    if not shutil.which("valgrind"):
        return None
    result = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
    )
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed under valgrind: {result.stderr.strip()[-300:]}")
    return int(result.stderr.rsplit("Collected :", 1)[1].split()[0])


def times(ratio: tuple[float, float, float]) -> str:
    middle, low, high = ratio
    return f"{middle:.2f}× ({low:.2f}–{high:.2f})"


def counted(ours: int | None, floor: int | None, unit: float = 1e9, suffix: str = "G") -> str:
    if ours is None or floor is None:
        return "(no valgrind)"
    return f"{ours / floor:.2f}× ({ours / unit:.3g} {suffix} / {floor / unit:.3g} {suffix})"


class Table:
    """The markdown table, printed a row at a time as each is measured and kept whole for
    ``run.py --update``; each target says whether it is met (✔ or ✘) where the row shows it."""

    HEADER = (
        "| goal | what | kkprint | floor or peer | ratio, cpu (min–max of pairs) | ratio, instructions | target |",
        "|---|---|---|---|---|---|---|",
    )

    def __init__(self) -> None:
        self.lines = list(self.HEADER)
        print(*self.HEADER, sep="\n")

    def compared(
        self, goal: str, what: str, result: Paired, floor: str, counted: str, target: str, key: str = "cpu"
    ) -> None:
        """A row of paired runs: both medians of ``key`` (cpu or wall seconds; ``floor`` names the
        floor after its figure) and their ratio."""
        ours, theirs = seconds(result.median("ours", key)), seconds(result.median("floor", key))
        self.row(goal, what, ours, theirs + floor, times(result.ratio(key)), counted, target)

    def row(self, goal: str, what: str, ours: str, floor: str, ratio: str, counted: str, target: str) -> None:
        line = f"| {goal} | {what} | {ours} | {floor} | {ratio} | {counted} | {target}{verdict(ours, ratio, counted, target)} |"
        self.lines.append(line)
        print(line, flush=True)


def verdict(ours: str, ratio: str, counted: str, target: str) -> str:
    """ " ✔" or " ✘" for a target the row can be judged by — a bound on the cpu ratio, on the
    instruction ratio ("(instructions)"), or on megabytes — and "" for any other (a peer that
    could not be run, a row that only informs)."""
    bound = re.match(r"([≤≥<]) ([\d.]+) ?(×|MB)", target)
    if bound is None:
        return ""
    sign, limit, unit = bound.group(1), float(bound.group(2)), bound.group(3)
    judged = ours if unit == "MB" else counted if "(instructions)" in target else ratio
    value = re.match(r"([\d.,]+) ?(×|MB)", judged)
    if value is None or value.group(2) != unit or "Squib" in target:  # (a peer's figure, not ours)
        return ""
    number = float(value.group(1).replace(",", ""))
    met = number <= limit if sign == "≤" else number >= limit if sign == "≥" else number < limit
    return " ✔" if met else " ✘"


def seconds(value: float) -> str:
    return f"{value:.3f} s" if value < 10 else f"{value:.1f} s"


def plain_cards(table: Table, folder: Path, pairs: int, with_instructions: bool) -> None:
    """Goals 1, 2 (plain card) and 6: a 1,000-card deck and the marginal card, against the floor."""
    decks, floors = {}, {}
    for count in (1000, 3000):
        (folder / str(count)).mkdir()
        decks[count] = kkprint(
            "build", str(write_simple_deck(folder / str(count), count)), "--out", str(folder / str(count) / "out")
        )
        floors[count] = floor_command("simple-floor", count, folder / str(count) / "floor.pdf")
    small = paired(decks[1000], floors[1000], pairs)
    large = paired(decks[3000], floors[3000], pairs)
    counts = {n: (instructions(decks[n]), instructions(floors[n])) for n in (1000, 3000)} if with_instructions else {}
    table.compared(
        "1",
        "1,000 plain cards (frame, one line, red back, cut marks), start-up included",
        small,
        " plain ReportLab",
        counted(*counts[1000]) if counts else "",
        "≤ 1.5×",
    )
    table.compared(
        "1",
        "the same, a first build (the deck checked by pydantic, as after each edit of the deck file)",
        paired(decks[1000], floors[1000], pairs, env=first_run()),
        " plain ReportLab",
        counted(instructions(decks[1000], first_run()), counts[1000][1]) if counts else "",
        "(what an edited deck costs)",
    )
    each = [
        (b.cpu - a.cpu) / (d.cpu - c.cpu)
        for a, b, c, d in zip(small.ours, large.ours, small.floor, large.floor)
        if d.cpu > c.cpu
    ]
    ours = (large.median("ours") - small.median("ours")) / 2000
    theirs = (large.median("floor") - small.median("floor")) / 2000
    marginal = ""
    if counts:
        (k1, f1), (k3, f3) = counts[1000], counts[3000]
        marginal = counted((k3 or 0) - (k1 or 0), (f3 or 0) - (f1 or 0), 2000e6, "M a card") if k1 else ""
    table.row(
        "2",
        "the marginal plain card (3,000 − 1,000 cards)",
        f"{ours * 1000:.3f} ms",
        f"{theirs * 1000:.3f} ms",
        f"{ours / theirs:.2f}× ({min(each):.2f}–{max(each):.2f})" if each else "n/a",
        marginal,
        "≤ 0.9× (instructions)",
    )
    pdf = next((folder / "1000" / "out").glob("*.pdf"))
    floor_pdf = folder / "1000" / "floor.pdf"
    table.row(
        "6",
        "peak memory, 1,000 plain cards",
        f"{small.median('ours', 'peak_mb'):.0f} MB",
        f"{small.median('floor', 'peak_mb'):.0f} MB",
        f"{small.median('ours', 'peak_mb') / small.median('floor', 'peak_mb'):.2f}×",
        "",
        "≤ 1.3×",
    )
    table.row(
        "6",
        "PDF bytes a card, 1,000 plain cards",
        f"{pdf.stat().st_size / 1000:.0f}",
        f"{floor_pdf.stat().st_size / 1000:.0f}",
        f"{pdf.stat().st_size / floor_pdf.stat().st_size:.2f}×",
        "",
        "< 1×",
    )


def _scaled_example(name: str, folder: Path, times_over: int) -> tuple[Path, int]:
    """A copy of an example deck with its data rows repeated ``times_over`` times, and how many
    cards it prints."""
    source = EXAMPLES / "decks" / name
    copy = folder / f"{name}-{times_over}"
    shutil.copytree(source, copy)
    [data] = copy.glob("*.csv") if name != "summits" else [copy / "summits.csv"]
    with open(data, newline="", encoding="utf-8") as handle:
        header, *rows = list(csv.reader(handle))
    with open(data, "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([header, *rows * times_over])
    deck = next(copy.glob("*.yaml"))
    cards = in_child(
        "from pathlib import Path; from kkprint.deck.load import load_deck; "
        f"print(sum(card.count for card in load_deck(Path({str(deck)!r})).iter_cards()))"
    )
    return deck, int(cards)


def rich_decks(table: Table, folder: Path, pairs: int, with_instructions: bool) -> None:
    """Goal 2, rich decks: what a card of each rich example deck costs (its data repeated to about
    100 and 1,000 cards, the difference divided by the cards it adds), against a plain card of
    the same counts."""
    for name, target in RICH_DECKS.items():
        _, once = _scaled_example(name, folder, 1)
        (small, few), (large, many) = (_scaled_example(name, folder, -(-cards // once)) for cards in (100, 1000))
        plain_small, plain_large = folder / f"plain-{few}", folder / f"plain-{many}"
        for plain, count in ((plain_small, few), (plain_large, many)):
            if not plain.exists():
                plain.mkdir()
                write_simple_deck(plain, count)
        commands = {
            key: kkprint("build", str(deck), "--out", str(folder / f"out-{key}"))
            for key, deck in (
                ("rich-small", small),
                ("rich-large", large),
                ("plain-small", plain_small / "simple.yaml"),
                ("plain-large", plain_large / "simple.yaml"),
            )
        }
        low = paired(commands["rich-small"], commands["plain-small"], pairs)
        high = paired(commands["rich-large"], commands["plain-large"], pairs)
        rich = (high.median("ours") - low.median("ours")) / (many - few)
        plain = (high.median("floor") - low.median("floor")) / (many - few)
        each = [
            (b.cpu - a.cpu) / (d.cpu - c.cpu)
            for a, b, c, d in zip(low.ours, high.ours, low.floor, high.floor)
            if d.cpu > c.cpu
        ]
        count = ""
        if with_instructions:
            n = {key: instructions(command) for key, command in commands.items()}
            if None not in n.values():
                count = counted(
                    n["rich-large"] - n["rich-small"],
                    n["plain-large"] - n["plain-small"],
                    (many - few) * 1e6,
                    "M a card",
                )
        table.row(
            "2",
            f"a card of the example deck {name} ({few:,} → {many:,} cards) vs a plain card",
            f"{rich * 1000:.3f} ms",
            f"{plain * 1000:.3f} ms",
            f"{rich / plain:.2f}× ({min(each):.2f}–{max(each):.2f})" if each else "n/a",
            count,
            target,
        )


GAMES = ("kardinal", "webofpower", "court", "culdcept")
SCORES = {
    "kardinal": "kardinal-tally.yaml",
    "webofpower": "webofpower-state.yaml",
    "webofpower-board": "webofpower-board-tally.yaml",
    "court": "court-final.yaml",
    "culdcept": "culdcept-state.yaml",
}


@functools.cache
def first_run() -> dict[str, str]:
    """The environment of a first run, which checks the game's definition or the deck with
    pydantic (later runs read it back checked), as after an edit of the file: a cache folder
    of its own whose ``definitions`` is a file, so nothing checked can be kept there, but whose
    ``fonts`` are the fonts converted before (an edit does not undo them; converting them is the
    cost of the very first build after installing, ~0.45 s)."""
    from kkprint.base.paths import cache_folder

    folder = Path(tempfile.mkdtemp(prefix="kkprint-first-run-"))
    atexit.register(shutil.rmtree, folder, True)  # (the link to the fonts goes, not the fonts)
    (folder / "definitions").write_bytes(b"")
    fonts = cache_folder() / "fonts"
    fonts.mkdir(parents=True, exist_ok=True)
    (folder / "fonts").symlink_to(fonts)
    return {**os.environ, "KKPRINT_CACHE_DIR": str(folder)}


def commands(table: Table, folder: Path, pairs: int, with_instructions: bool) -> None:
    """Goal 3: `--help`, every scorer with `--json` and every game's build against `python -c
    "import typer, yaml"`, each typed as a user types it, in a folder of its own (a build writes
    to ``output/`` there: an option given, even ``--out``, costs what checking it costs)."""
    here = folder / "games"
    here.mkdir()
    base_count = instructions(BASE) if with_instructions else None
    rows: list[tuple[str, list[str], str, dict[str, str] | None]] = [("`--help`", kkprint("--help"), "≤ 1.5×", None)]
    rows += [
        (f"`scorer {game} --json`", kkprint("scorer", game, str(EXAMPLES / tally), "--json"), "≤ 1.5×", None)
        for game, tally in SCORES.items()
    ]
    rows.append(
        (
            "`scorer kardinal --json`, a first run (its definition checked by pydantic)",
            kkprint("scorer", "kardinal", str(EXAMPLES / SCORES["kardinal"]), "--json"),
            "(what a first run costs)",
            first_run(),
        )
    )
    rows += [(f"`build {game}`", kkprint("build", game), "≤ 2.5×", None) for game in GAMES]
    for what, command, target, env in rows:
        table.compared(
            "3",
            what,
            paired(command, BASE, pairs, here, env),
            " `import typer, yaml`",
            counted(instructions(command, env, here), base_count) if with_instructions else "",
            target,
        )


def export(table: Table, folder: Path, cards: int, large_dpi_cards: int, pairs: int) -> None:
    """Goal 4: ``export --png`` against the pypdfium2 floor (a script rendering the same pages of
    the same PDF to the same PNG files with pypdfium2 and Pillow, on one core), and its peak
    memory at 300 and 1,200 dpi."""
    from decks import write_deck

    deck_folder = folder / "export"
    deck_folder.mkdir()
    deck = write_deck(deck_folder, cards)
    pdf = in_child(  # (the PDF export renders: one card a page)
        "from pathlib import Path; from kkprint.cli.targets import resolve; "
        "from kkprint.engine.job import BuildOptions, build_targets; "
        f"[pdf] = build_targets(resolve([{str(deck)!r}]), "
        f"BuildOptions(out_dir=Path({str(deck_folder / 'pdf')!r}), card_pages=True)); print(pdf)"
    )
    ours = kkprint("export", str(deck), "--png", "--dpi", "300", "--out", str(folder / "png"))
    floor = floor_command("png-floor", pdf, 300, folder / "png-floor")
    result = paired(ours, floor, pairs)
    table.compared(
        "4",
        f"`export --png`, {cards:,} cards at 300 dpi (fronts and the one back), cpu",
        result,
        " pypdfium2 + Pillow",
        "",
        "≤ 1.1×",
    )
    table.compared(
        "4",
        "the same, wall time (kkprint on both cores; the floor on one)",
        result,
        "",
        "",
        "≤ 0.6× Squib's `save_png` (Squib: not installable here)",
        key="wall",
    )
    table.row(
        "4",
        f"`export --png` peak memory, {cards:,} cards at 300 dpi",
        f"{result.median('ours', 'peak_mb'):.0f} MB",
        f"{result.median('floor', 'peak_mb'):.0f} MB",
        f"{result.median('ours', 'peak_mb') / result.median('floor', 'peak_mb'):.2f}×",
        "",
        "< 400 MB",
    )
    small = write_deck(_fresh(folder / "export-small"), cards // 10)
    few = child(kkprint("export", str(small), "--png", "--dpi", "300", "--out", str(folder / "png-small")))
    table.row(
        "4",
        f"`export --png` peak memory, {cards // 10:,} cards at 300 dpi, against {cards:,} (flat in the count?)",
        f"{few.peak_mb:.0f} MB",
        f"{result.median('ours', 'peak_mb'):.0f} MB at {cards:,}",
        f"{result.median('ours', 'peak_mb') / few.peak_mb:.2f}×",
        "",
        "≤ 1.1× (flat)",
    )
    fine = write_deck(_fresh(folder / "export-fine"), large_dpi_cards)
    sharp = child(kkprint("export", str(fine), "--png", "--dpi", "1200", "--out", str(folder / "png-fine")))
    table.row(
        "4",
        f"`export --png` peak memory, {large_dpi_cards:,} cards at 1,200 dpi",
        f"{sharp.peak_mb:.0f} MB ({seconds(sharp.wall)} wall)",
        "",
        "",
        "",
        "< 400 MB",
    )


def _fresh(folder: Path) -> Path:
    folder.mkdir()
    return folder


def build_all(table: Table, folder: Path, pairs: int) -> None:
    """Goal 5: ``build all``, and ``build all`` with the example decks, on every core against one
    process (wall time), each beside the most a second core can give it (:func:`ceiling`)."""
    cores = os.cpu_count() or 1
    decks = [str(deck) for deck in sorted(EXAMPLES.glob("decks/*/*.yaml"))]
    for what, names in (("`build all`", ["all"]), (f"`build all` and the {len(decks)} example decks", ["all", *decks])):
        command = kkprint("build", *names, "--out", str(folder / "all"))
        one = ["env", "KKPRINT_JOBS=1", *command]
        every = ["env", f"KKPRINT_JOBS={cores}", *command]
        table.compared(
            "5",
            f"{what}, wall: one process / {cores} (the gain from the second core)",
            paired(one, every, pairs),
            "",
            "",
            "≥ 1.6×",
            key="wall",
        )
        before, work, after = ceiling(one, pairs)
        most = (before + work + after) / (before + work / cores + after)
        table.row(
            "5",
            f"{what}: the most {cores} cores can give (Amdahl): before the targets are shared out "
            f"{before * 1000:.0f} ms (the interpreter, imports, options), the targets {work * 1000:.0f} ms, "
            f"after {after * 1000:.0f} ms, in one process",
            "",
            "",
            f"{most:.2f}× at most",
            "",
            "(the bound on the row above)",
        )


CEILING = """
import sys, time
import importlib.abc, importlib.machinery

class Watch(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name != "kkprint.engine.job":
            return None
        sys.meta_path.remove(self)
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        loaded = spec.loader.exec_module

        def exec_module(module):
            loaded(module)
            build = module.run_targets

            def timed(*args, **kwargs):
                began = time.time()
                try:
                    return build(*args, **kwargs)
                finally:
                    sys.stderr.write(f"targets {began!r} {time.time()!r}\\n")

            module.run_targets = timed

        spec.loader.exec_module = exec_module
        return spec

sys.meta_path.insert(0, Watch())
sys.argv = ["kkprint", *sys.argv[1:]]
import kkprint.__main__
kkprint.__main__.main()
"""


def ceiling(command: list[str], runs: int) -> tuple[float, float, float]:
    """Where the wall time of ``command`` (``env KKPRINT_JOBS=1 python -m kkprint build …``) goes,
    medians of ``runs``: before the targets are shared out (start-up, imports, reading the
    options: one process does it whatever the cores), the targets themselves (what more cores
    can share), and after them (writing out the list, the end of the process). Amdahl's law
    then bounds what any number of cores can give the whole command."""
    env_part, python_part = command[: command.index(sys.executable)], command[command.index(sys.executable) :]
    args = python_part[3:]  # (after: python -m kkprint)
    parts: list[tuple[float, float, float]] = []
    for _ in range(runs + 1):
        began = time.time()
        done = subprocess.run(
            [*env_part, sys.executable, "-c", CEILING, *args], cwd=ROOT, capture_output=True, text=True, check=True
        )
        ended = time.time()
        start, end = (float(value) for value in done.stderr.rsplit("targets ", 1)[1].split()[:2])
        parts.append((start - began, end - start, ended - end))
    parts = parts[1:]  # (the first warms the caches)
    return tuple(statistics.median(part[index] for part in parts) for index in range(3))  # type: ignore[return-value]


def peers(table: Table, folder: Path, pairs: int) -> None:
    """Goal 7: protograf on the same 1,000 cards (its own Python may be named in PROTOGRAF_PYTHON)."""
    python = os.environ.get("PROTOGRAF_PYTHON", sys.executable)
    if subprocess.run([python, "-c", "import protograf"], capture_output=True).returncode != 0:
        table.row("7", "protograf, the same 1,000 cards", "", "not installed", "", "", "≥ 20× slower")
    else:
        script, deck = write_protograf_decks(folder, 1000)
        result = paired([python, str(script)], kkprint("build", str(deck), "--out", str(folder / "out")), pairs, folder)
        version = subprocess.run(
            [python, "-c", "import importlib.metadata as m; print(m.version('protograf'))"],
            capture_output=True,
            text=True,
        ).stdout.strip()
        table.row(
            "7",
            f"protograf {version}, the same 1,000 cards (frame, name, wrapped text): how many times slower",
            seconds(result.median("floor")),
            seconds(result.median("ours")) + " protograf",
            times(result.ratio()),
            "",
            "≥ 20×",
        )
    table.row("7", "Squib's vector `save_pdf`, the same cards", "", "not installable here", "", "", "≥ 10× slower")


def report(quick: bool, with_instructions: bool) -> Table:
    pairs = 3 if quick else 7
    print(
        f"Whole processes, CPU seconds (user + system), medians of {pairs} interleaved pairs (one warm-up run each "
        f"first); {os.cpu_count()} cores. Instructions: callgrind, one run a side.\n"
    )
    table = Table()
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        for part in ("plain", "rich", "commands", "export", "all", "peers"):
            (folder / part).mkdir()
        export(table, folder / "export", 200 if quick else 1000, 10 if quick else 40, 1 if quick else 3)
        plain_cards(table, folder / "plain", pairs, with_instructions)
        commands(table, folder / "commands", pairs, with_instructions)
        build_all(table, folder / "all", pairs)
        rich_decks(table, folder / "rich", max(3, pairs // 2), with_instructions)
        peers(table, folder / "peers", 3)
    return table
