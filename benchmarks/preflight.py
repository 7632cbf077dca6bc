"""What the preflight costs (SPEC §4.3; target: at most 10 % of a 1,000-card build).

    .venv/bin/python benchmarks/preflight.py                  # 1,000 cards, 7 pairs
    .venv/bin/python benchmarks/preflight.py --pairs 3 --count 500
    .venv/bin/python benchmarks/preflight.py --instructions   # both counted by valgrind's callgrind

Whole processes, as a user runs them, interleaved in pairs so that a busy moment on the machine
hits both sides alike: ``kkprint build deck.yaml`` with its checks, and the very same command in
a process whose preflight is switched off (``--unchecked``: the deck's drawing is not watched,
no column is looked for). The figure is the ratio of the medians of CPU seconds (user + system).
The deck is the benchmarks' 1,000-card deck (wrapped text, a title, two dice and a back a card).
With ``--instructions`` both builds are counted by callgrind instead: the count repeats exactly,
whatever else the machine is doing.

A second figure: a 2,501-card deck of which 30 cards' texts do not fit, built once — every
error is listed by that one run (they used to cost a whole build each, found one at a time).
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from decks import write_deck  # noqa: E402 - benchmarks/ is not a package
from goals import compile_bytecode, instructions, kkprint_build, paired  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def unchecked(deck: Path, out: Path) -> list[str]:
    """The same build in a process without the preflight."""
    return [sys.executable, __file__, "--unchecked", "build", str(deck), "--out", str(out)]


def run_unchecked(args: list[str]) -> None:
    """The command line with the deck layer's preflight replaced by one that watches nothing."""
    from kkprint.__main__ import main  # (the process ends as the command's own does)
    from kkprint.deck import build

    class Unwatched:
        blanks: dict[str, str] = {}
        card = None

        def card_failed(self, card, err):
            raise err

    build.attach = lambda deck, doc, painter, size: Unwatched()  # painter.checks stays None
    sys.argv = ["kkprint", *args]
    main()


def too_long_deck(folder: Path, count: int = 2501, failing: int = 30) -> Path:
    """``count`` cards, the last ``failing`` of them with a text no font size fits."""
    rows = ["name,text"]
    for number in range(1, count + 1):
        words = "word " * (80 if number > count - failing else 6)
        rows.append(f"Card {number},{words.strip()}")
    (folder / "long.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    deck = folder / "long.yaml"
    deck.write_text(
        "name: long\ncard: {size: poker}\ndata: long.csv\nlayout:\n"
        "  title: {type: text, x: 4, y: 4, w: 55, h: 10, field: name, size: 14}\n"
        "  body:  {type: text, x: 5, y: 60, w: 53, h: 12, field: text, size: 10}\n",
        encoding="utf-8",
    )
    return deck


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--unchecked", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    parser.add_argument("--pairs", type=int, default=7)
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--instructions", action="store_true", help="count instructions with callgrind")
    args = parser.parse_args()
    if args.unchecked is not None:
        run_unchecked(args.unchecked)
        return
    compile_bytecode()
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        deck = write_deck(folder, args.count)
        checked, bare = kkprint_build(deck, folder / "checked"), unchecked(deck, folder / "bare")
        if args.instructions:
            with_checks, without = instructions(checked), instructions(bare)
            if with_checks is None or without is None:
                raise SystemExit("--instructions needs valgrind (apt-get install valgrind)")
            print(f"{args.count:,}-card deck, whole processes, instructions counted by callgrind")
            print(f"  with the preflight    {with_checks / 1e9:6.3f} G")
            print(f"  without it            {without / 1e9:6.3f} G")
            print(f"  the checks cost       {100 * (with_checks / without - 1):+6.1f} %  (target: at most +10 %)")
            return
        runs = paired(checked, bare, args.pairs)  # (each warmed first: fonts, the OS's file cache)
        same = next(folder.glob("checked/*.pdf")).read_bytes() == next(folder.glob("bare/*.pdf")).read_bytes()
        with_checks, without = runs.median("ours"), runs.median("floor")
        print(f"{args.count:,}-card deck, whole processes, median CPU of {args.pairs} interleaved pairs")
        print(f"  with the preflight    {with_checks:6.2f} s")
        print(f"  without it            {without:6.2f} s")
        print(f"  the checks cost       {100 * (with_checks / without - 1):+6.1f} %  (target: at most +10 %)")
        print(f"  the same PDF bytes:   {'yes' if same else 'NO'}")

        long = too_long_deck(folder)
        before, started = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
        result = subprocess.run([*kkprint_build(long, folder / "long"), "--lang", "en"], capture_output=True, text=True)
        wall, after = time.perf_counter() - started, resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
        lines = result.stderr.splitlines()
        listed = sum(1 for line in lines if line.startswith("kkprint: error:"))
        print(
            f"\n2,501 cards, 30 of them too long, built once: {wall:.1f} s wall, {cpu:.1f} s CPU, exit {result.returncode}"
        )
        print(
            f"  {listed} errors listed, then: {lines[-2].removeprefix('kkprint: ')} / {lines[-1].removeprefix('kkprint: ')}"
        )


if __name__ == "__main__":
    main()
