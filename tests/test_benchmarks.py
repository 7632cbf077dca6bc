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
