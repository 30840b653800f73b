"""The layers of the house (issue 22): commands -> pipelines -> jobs -> crawler -> store -> extractor.

Every module of these packages is parsed (ast, nothing imported) and each import of a project
package must point down the stack, never up or sideways into farm/ (the test blog farm, which
itself imports none of them); the graph of top-level packages must have no cycle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[1]
# Lower number = lower layer; a module may import its own package and any lower one.
# jobs/ (extraction jobs, re-extraction, WARC import) sits below pipelines/: Scrapy's item pipelines
# submit its jobs, and the jobs run without Scrapy's item flow (reextract, import-warc, Dask workers).
LAYERS = {"extractor": 0, "store": 1, "crawler": 2, "jobs": 3, "pipelines": 4, "commands": 5}
SIDE = {"farm"}  # beside the stack: imports none of it, and nothing in it imports farm
PACKAGES = {*LAYERS, *SIDE}


def imported_packages(source: str, package: str, module: str) -> list[tuple[int, str]]:
    """(line, top-level project package) for every import in `source`, function-level ones included.

    imported_packages("from store import query", "crawler", "crawler.x") == [(1, "store")]
    """
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolved inside the module's own package
                names = [".".join(module.split(".")[: -node.level] + ([node.module] if node.module else []))]
            elif node.module:
                names = [node.module]
        for name in names:
            top = name.split(".", 1)[0] or package
            if top in PACKAGES:
                found.append((node.lineno, top))
    return found


def violations(package: str, module: str, source: str) -> list[str]:
    """Imports of `module` (in `package`) that go up a layer, or into or out of farm/."""
    out = []
    for line, target in imported_packages(source, package, module):
        if target == package:
            continue
        if package in SIDE or target in SIDE or LAYERS[target] > LAYERS[package]:
            out.append(f"{module}:{line} imports {target} ({package} may import only {below(package)})")
    return out


def below(package: str) -> str:
    if package in SIDE:
        return "itself"
    return ", ".join(p for p, n in sorted(LAYERS.items(), key=lambda kv: kv[1]) if n < LAYERS[package]) or "nothing"


def modules() -> list[tuple[str, str, Path]]:
    found = []
    for package in sorted(PACKAGES):
        for path in sorted((PROJECT / package).rglob("*.py")):
            rel = path.relative_to(PROJECT).with_suffix("")
            parts = list(rel.parts[:-1]) if rel.name == "__init__" else list(rel.parts)
            found.append((package, ".".join(parts), path))
    return found


def package_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {p: set() for p in PACKAGES}
    for package, module, path in modules():
        for _line, target in imported_packages(path.read_text(encoding="utf-8"), package, module):
            if target != package:
                graph[package].add(target)
    return graph


def cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the graph as a path (first node repeated at the end), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(node: str, path: list[str]) -> list[str] | None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt] if nxt in path else [*path, nxt]
            if nxt not in state and (found := visit(nxt, [*path, nxt])):
                return found
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state and (found := visit(start, [start])):
            return found
    return None


def test_every_layered_package_is_found() -> None:
    found = {package for package, _m, _p in modules()}
    assert found == PACKAGES
    assert len(modules()) > 60  # the whole tree, not an empty glob


def test_no_module_imports_up_a_layer() -> None:
    bad = [v for package, module, path in modules() for v in violations(package, module, path.read_text("utf-8"))]
    assert not bad, "\n".join(bad)


def test_no_cycle_between_top_level_packages() -> None:
    graph = package_graph()
    assert cycle(graph) is None, " -> ".join(cycle(graph) or [])
    assert graph["store"] <= {"extractor"} and graph["extractor"] == set()


@pytest.mark.parametrize(
    ("package", "module", "source", "expected"),
    [
        ("store", "store.query", "from crawler.urls import normalize_url", ["store.query:1 imports crawler"]),
        ("crawler", "crawler.x", "def f():\n    from pipelines import extract", ["crawler.x:2 imports pipelines"]),
        ("jobs", "jobs.x", "from pipelines.extract import ExtractPipeline", ["jobs.x:1 imports pipelines"]),
        ("crawler", "crawler.x", "from jobs import extraction", ["crawler.x:1 imports jobs"]),
        ("pipelines", "pipelines.x", "import commands.crawl", ["pipelines.x:1 imports commands"]),
        ("store", "store.x", "import farm", ["store.x:1 imports farm"]),
        ("farm", "farm.x", "from store import clock", ["farm.x:1 imports store"]),
        ("commands", "commands.x", "from jobs import extraction\nfrom store import query\nimport scrapy", []),
        ("store", "store.a.b", "from ..clock import to_iso\nfrom . import c", []),
    ],
)
def test_the_checker_sees_upward_imports(package: str, module: str, source: str, expected: list[str]) -> None:
    assert [v.split(" (", 1)[0] for v in violations(package, module, source)] == expected


def test_the_checker_finds_a_cycle() -> None:
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None


# Inside extractor/ the rooms are layered too: the shared words (core) under the seam that chooses
# compiled passes (speedups) under the comment wing (comments) under the method (separation), with
# the commands, evaluation, report and archives on top. docs/house.md maps them.
EXTRACTOR_ROOMS = {"core": 0, "speedups": 1, "comments": 2, "separation": 3, "outer": 4}


def extractor_room(module: str) -> str:
    """The room of a dotted name inside extractor (a module, or a name imported from one)."""
    parts = module.split(".")
    if len(parts) > 1 and parts[1] in ("core", "comments", "separation"):
        return parts[1]
    if len(parts) > 1 and (parts[1] in ("speedups", "_compiled") or parts[1].startswith("_c")):
        return "speedups"
    return "outer"


def extractor_violations(module: str, source: str, is_package: bool = False) -> list[str]:
    """Imports of an extractor module that go up from its room (``from ..separation import x`` in comments)."""
    package = module.split(".") if is_package else module.split(".")[:-1]
    room = extractor_room(module)
    out = []
    for node in ast.walk(ast.parse(source)):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            start = ".".join(base + ([node.module] if node.module else []))
            targets = [f"{start}.{alias.name}" for alias in node.names]
        for target in targets:
            if target.split(".")[0] != "extractor":
                continue
            if EXTRACTOR_ROOMS[extractor_room(target)] > EXTRACTOR_ROOMS[room]:
                out.append(f"{module}:{node.lineno} imports {target} ({room} is below {extractor_room(target)})")
    return out


def test_extractor_rooms_import_one_way() -> None:
    found = [(m, p) for package, m, p in modules() if package == "extractor"]
    assert {extractor_room(m) for m, _p in found} == set(EXTRACTOR_ROOMS)
    bad = [v for m, p in found for v in extractor_violations(m, p.read_text("utf-8"), p.name == "__init__.py")]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize(
    ("module", "source", "expected"),
    [
        ("extractor.comments.units", "from ..separation.method import Page", ["extractor.comments.units:1"]),
        ("extractor.core.blocks", "from .. import speedups", ["extractor.core.blocks:1"]),
        ("extractor.core.blocks", "def f():\n    from extractor.comments import units", ["extractor.core.blocks:2"]),
        ("extractor.comments.units", "from .. import speedups\nfrom ..core.blocks import Block\nfrom . import x", []),
        ("extractor.separation.steps", "from ..comments.evidence import SET\nimport lxml", []),
        ("extractor.speedups", "from .core import blocks\nfrom . import _cblock", []),
    ],
)
def test_the_checker_sees_imports_up_between_extractor_rooms(module: str, source: str, expected: list[str]) -> None:
    assert [v.split(" imports", 1)[0] for v in extractor_violations(module, source)] == expected
