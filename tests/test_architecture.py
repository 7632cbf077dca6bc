"""The house's rules, read from the source with ``ast`` (every import, at the top of a module or
inside a function): no import circles anywhere in kkprint/, and the layers of ARCHITECTURE.md —
the print engine knows no game, deck or door; scoring never reaches the engine or a door; the
command line and the web pages never import each other; the ground floor imports nothing above it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "kkprint"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in PACKAGE.rglob("*.py")}


def _target(importer: str, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = importer.split(".")
    if MODULES[importer].name != "__init__.py":
        base = base[:-1]
    base = base[: len(base) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def _known(name: str) -> str | None:
    """The kkprint module ``name`` is, or lies in (``kkprint.base.i18n.Msg`` → ``kkprint.base.i18n``)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def imports(importer: str) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(MODULES[importer].read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _target(importer, node)
            names = [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        found.update(m for m in map(_known, names) if m and m.startswith("kkprint") and m != importer)
    return found


GRAPH = {module: imports(module) for module in MODULES}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each an import circle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1 or node in graph.get(node, ()):
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def reach(start: str) -> set[str]:
    """Every module ``start`` may load, directly or through others."""
    seen, todo = set(), [start]
    while todo:
        for nxt in GRAPH[todo.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def inside(module: str, *packages: str) -> bool:
    return any(module == p or module.startswith(p + ".") for p in packages)


def test_the_graph_is_read_from_the_source():
    """The reader itself: it sees a relative import, an import inside a function, a name
    imported from a package, and it finds a circle planted in a small graph."""
    assert "kkprint.base.i18n" in GRAPH["kkprint.base.errors"]
    assert "kkprint.web.pad.serve" in GRAPH["kkprint.__main__"]  # imported inside a function
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_circles():
    assert cycles(GRAPH) == []


# (layer, what it must never import)
RULES = [
    (
        "kkprint.base",
        ("kkprint.engine", "kkprint.games", "kkprint.deck", "kkprint.scoring", "kkprint.cli", "kkprint.web"),
    ),
    ("kkprint.engine", ("kkprint.games", "kkprint.deck", "kkprint.scoring", "kkprint.cli", "kkprint.web")),
    ("kkprint.scoring", ("kkprint.engine", "kkprint.deck", "kkprint.cli", "kkprint.web")),
    ("kkprint.deck", ("kkprint.games", "kkprint.scoring", "kkprint.cli", "kkprint.web")),
    ("kkprint.games", ("kkprint.cli", "kkprint.web")),
    ("kkprint.cli", ("kkprint.web",)),
    ("kkprint.web", ("kkprint.cli",)),
]


@pytest.mark.parametrize("layer, forbidden", RULES, ids=[rule[0] for rule in RULES])
def test_each_layer_imports_only_what_lies_below_it(layer, forbidden):
    wrong = sorted(
        f"{module} -> {target}"
        for module in GRAPH
        if inside(module, layer)
        for target in GRAPH[module]
        if inside(target, *forbidden)
    )
    assert wrong == []


SCORING = sorted({"kkprint.scoring.scorers"} | reach("kkprint.scoring.scorers"))


def test_scoring_never_reaches_the_engine_or_a_door():
    """What the scorers' door can load, however deep — the games' rules, tallies and reports
    included — holds no PDF engine, deck, terminal or web page: a score is pure."""
    assert any(inside(m, "kkprint.games") for m in SCORING)  # it does reach the games' rules
    wrong = [m for m in SCORING if inside(m, "kkprint.engine", "kkprint.deck", "kkprint.cli", "kkprint.web")]
    assert wrong == []


def test_the_doors_meet_only_at_the_entry():
    """kkprint.__main__ is the one module that knows both the command line and the web pages."""
    both = [
        m
        for m, targets in GRAPH.items()
        if any(inside(t, "kkprint.cli") for t in targets) and any(inside(t, "kkprint.web") for t in targets)
    ]
    assert both == ["kkprint.__main__"]


def test_the_top_of_the_package_is_packages_and_the_entry():
    loose = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert loose == ["__init__.py", "__main__.py"]
