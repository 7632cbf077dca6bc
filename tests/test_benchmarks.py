"""The benchmarks are not run by the tests (timing lives in benchmarks/, never in tests), but
each must still load: a helper module renamed once left three of them importing one that was gone."""

import importlib
import sys

import pytest
from conftest import ROOT

BENCHMARKS = ROOT / "benchmarks"


@pytest.mark.parametrize("name", sorted(path.stem for path in BENCHMARKS.glob("*.py")))
def test_every_benchmark_loads_with_what_it_imports(name, monkeypatch):
    monkeypatch.syspath_prepend(str(BENCHMARKS))  # (as `python benchmarks/NAME.py` puts its folder first)
    for loaded in [module for module in sys.modules if module in {"goals", "decks", "whole", name}]:
        monkeypatch.delitem(sys.modules, loaded)
    module = importlib.import_module(name)
    assert callable(getattr(module, "main", None)) or name in {"goals", "decks"}


@pytest.mark.parametrize(
    ("ours", "ratio", "counted", "target", "mark"),
    [
        ("0.154 s", "1.36× (1.33–1.44)", "1.31× (1.32 G / 1.01 G)", "≤ 1.5×", " ✔"),
        ("0.193 s", "3.94× (3.84–4.13)", "4.90× (1.72 G / 0.35 G)", "≤ 2.5×", " ✘"),
        ("0.048 ms", "1.06× (0.93–1.10)", "0.88× (0.532 M a card / 0.601 M a card)", "≤ 0.9× (instructions)", " ✔"),
        ("0.048 ms", "0.80× (0.75–0.85)", "0.95× (0.57 M a card / 0.6 M a card)", "≤ 0.9× (instructions)", " ✘"),
        ("0.330 s", "1.37× (1.32–1.42)", "", "≥ 1.6×", " ✘"),
        ("0.206 s", "24.24× (23.90–24.59)", "", "≥ 20×", " ✔"),
        ("78 MB", "1.32×", "", "< 400 MB, flat", " ✔"),
        ("1,234 MB", "", "", "< 400 MB", " ✘"),
        ("6.473 s", "0.56× (0.56–0.58)", "", "≤ 0.6× Squib's `save_png` (Squib: not installable here)", ""),
        ("", "not installable here", "", "≥ 10× slower", ""),
        ("0.306 ms", "6.96× (6.71–7.41)", "5.58×", "(what its content costs)", ""),
    ],
)
def test_a_goal_is_marked_met_or_missed_by_the_figure_it_bounds(monkeypatch, ours, ratio, counted, target, mark):
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    from goals import verdict

    assert verdict(ours, ratio, counted, target) == mark


def test_the_table_is_written_between_the_markers_and_nothing_else_changes(monkeypatch, tmp_path):
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    from run import END, START, update

    readme = tmp_path / "README.md"
    readme.write_text(f"# Title\n\nBefore.\n\n{START}\nold table\n{END}\n\nAfter.\n", encoding="utf-8")
    update(readme, ["| goal |", "|---|", "| 1 |"], quick=False)
    text = readme.read_text(encoding="utf-8")
    assert text.startswith("# Title\n\nBefore.\n\n") and text.endswith(f"{END}\n\nAfter.\n")
    assert "old table" not in text and "| goal |\n|---|\n| 1 |\n" + END in text
    assert "benchmarks/run.py` on" in text  # (how it was measured, beside the numbers)
    readme.write_text("no markers", encoding="utf-8")
    with pytest.raises(SystemExit, match="no <!--"):
        update(readme, ["| goal |"], quick=False)
