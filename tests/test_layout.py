"""The house shows its flow: chartkit's imports, read from the source (ast, nothing imported).

Data flows down the stages in ``STAGES`` (issue 19 item 4, docs/architecture.md): a module may
import its own stage and the stages before it, never one after it; no import cycles; nothing
private (a ``_name`` module, or a ``_name`` imported from a module) crosses from one stage into
another; no class passes ``MAX_CLASS_LINES``. Every import counts, at the top of a module or
inside a function (a deferred import is still a dependency; it only hides a cycle from Python).

Today's breaches are in the allow-lists below, each with its reason. The list only shrinks: a
breach that is not listed fails, and so does a listed one that no longer occurs (delete its
entry — the house got better).
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "chartkit"

STAGES: tuple[tuple[str, tuple[str, ...]], ...] = (
    # the vocabulary: the declaration, the sentences, the errors, the options, the shared kit
    (
        "vocabulary",
        (
            "chartkit.columns",
            "chartkit.errors",
            "chartkit.messages",
            "chartkit.options",
            "chartkit.result",
            "chartkit._lazy",
            "chartkit._literal",
            "chartkit._safe",
            "chartkit._progress",
            "chartkit._isodate",
            "chartkit._unreadable",
            "chartkit._version",
            "chartkit.violations",
        ),
    ),
    # the one door: rows, frames, files, schemas, engines → a reading
    (
        "read",
        (
            "chartkit.read",
            "chartkit._speedups",
        ),
    ),
    # one verdict table, the in-memory and in-engine judges, the dial, findings, events
    (
        "check",
        ("chartkit.check",),
    ),
    # profiles → rules → a typed chart spec
    (
        "plan",
        ("chartkit.plan",),
    ),
    # one contract, answered in memory and in each query engine
    (
        "backends",
        ("chartkit.backends",),
    ),
    # spec → Altair → Vega-Lite, and the exports
    (
        "draw",
        ("chartkit.draw",),
    ),
    # the places that show charts, each importing public names
    (
        "surfaces",
        (
            "chartkit.views",
            "chartkit.selection",
            "chartkit.payload",
            "chartkit._highlight",
            "chartkit.staging",
            "chartkit.notebook",
            "chartkit.streamlit",
            "chartkit.explorer",
            "chartkit.mcp",
            "chartkit.page",
            "chartkit.cli",
            "chartkit.__main__",
            "chartkit.agents",
            "chartkit.bundled",
            "chartkit.words",
        ),
    ),
    # the package itself, re-exporting the public names (nothing inside chartkit imports it)
    ("package", ("chartkit",)),
    # the bundled example scripts: users of the package, written as a user writes them
    ("examples", ("chartkit.examples",)),
)
"""The stage order, in one place: a module belongs to the stage of its longest listed prefix
(``chartkit.plan`` holds ``chartkit.plan.rules``); a new module joins its folder's stage."""

MAX_CLASS_LINES = 300

ALLOWED_UPWARD: dict[tuple[str, str], str] = {}
"""(importer, imported) → why it still climbs."""

ALLOWED_PRIVATE: dict[tuple[str, str], str] = {}
"""(importer, imported module or module.name) → why the private thing still crosses stages."""

ALLOWED_CYCLES: dict[frozenset[str], str] = {}
"""The modules of one cycle (a strongly connected component) → why it is still a cycle."""

ALLOWED_LONG_CLASSES: dict[str, str] = {}
"""module.Class → why it is still over MAX_CLASS_LINES lines."""


@dataclass(frozen=True)
class Import:
    """One import of a chartkit module by another: ``names`` are what it takes, if any."""

    importer: str
    imported: str
    names: tuple[str, ...]
    line: int
    type_only: bool  # under ``if TYPE_CHECKING:``: a dependency of the types, not at run time


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@functools.cache
def modules() -> dict[str, Path]:
    """Every chartkit module by name: its source, or the stub of a compiled one (``_speedups``)."""
    found = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}
    for stub in sorted(PACKAGE.rglob("*.pyi")):
        if stub.with_suffix(".c").exists():
            found.setdefault(module_name(stub), stub)
    return found


def sources() -> dict[str, Path]:
    return {n: p for n, p in modules().items() if p.suffix == ".py"}


def resolve(importer: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = importer.split(".") if is_package else importer.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def walk(node: ast.AST, type_only: bool = False) -> Iterator[tuple[ast.AST, bool]]:
    """Every node below ``node``, with whether it sits in an ``if TYPE_CHECKING:`` body."""
    for child in ast.iter_child_nodes(node):
        yield child, type_only
        if isinstance(child, ast.If) and is_type_checking(child):
            for stmt in child.body:
                yield stmt, True
                yield from walk(stmt, True)
            for stmt in child.orelse:
                yield stmt, type_only
                yield from walk(stmt, type_only)
        else:
            yield from walk(child, type_only)


def imports_of(name: str, path: Path, known: set[str]) -> Iterator[Import]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_package = path.name == "__init__.py"
    for node, type_only in walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in known:
                    yield Import(name, alias.name, (), node.lineno, type_only)
        elif isinstance(node, ast.ImportFrom):
            target = resolve(name, is_package, node)
            if target not in known:
                continue
            taken: list[str] = []
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                if sub in known:  # ``from chartkit import view`` names the submodule
                    yield Import(name, sub, (), node.lineno, type_only)
                else:
                    taken.append(alias.name)
            if taken:
                yield Import(name, target, tuple(taken), node.lineno, type_only)


@functools.cache
def all_imports() -> list[Import]:
    known = set(modules())
    return [i for n, p in sources().items() for i in imports_of(n, p, known) if i.imported != n]


def stage_of(module: str) -> int:
    """The index in ``STAGES`` of the longest prefix listed for ``module`` (-1: none)."""
    best, best_len = -1, -1
    for index, (_, prefixes) in enumerate(STAGES):
        for prefix in prefixes:
            within = module.startswith(prefix + ".") and prefix != "chartkit"
            if (module == prefix or within) and len(prefix) > best_len:
                best, best_len = index, len(prefix)
    return best


def stage_name(module: str) -> str:
    return STAGES[stage_of(module)][0]


def is_private(module: str) -> bool:
    return any(part.startswith("_") and not part.startswith("__") for part in module.split("."))


def upward() -> set[tuple[str, str]]:
    return {
        (i.importer, i.imported)
        for i in all_imports()
        if stage_of(i.imported) > stage_of(i.importer)
    }


def private_crossings() -> set[tuple[str, str]]:
    """Private modules and names taken across a stage boundary.

    The vocabulary's own ``_`` modules (``_safe``: the one list of unsafe characters and the
    caps; ``_literal``, ``_lazy``, ``_isodate``: what a date string is, ...) are chartkit's
    shared kit, private to the package, not to a stage: every stage reads them, as it reads
    ``columns`` and ``messages``. A ``_name`` taken from them still counts.
    """
    vocabulary = 0
    found: set[tuple[str, str]] = set()
    for i in all_imports():
        if stage_of(i.importer) == stage_of(i.imported):
            continue
        if is_private(i.imported) and stage_of(i.imported) != vocabulary:
            found.add((i.importer, i.imported))
        found.update(
            (i.importer, f"{i.imported}.{n}")
            for n in i.names
            if n.startswith("_") and not n.startswith("__")
        )
    return found


def cycles() -> set[frozenset[str]]:
    """The import cycles at run time (an import under ``if TYPE_CHECKING:`` never runs)."""
    graph: dict[str, set[str]] = {m: set() for m in modules()}
    for i in all_imports():
        if not i.type_only:
            graph[i.importer].add(i.imported)
    return strongly_connected(graph)


def strongly_connected(graph: dict[str, set[str]]) -> set[frozenset[str]]:
    """The strongly connected components (Tarjan) of more than one node."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: set[frozenset[str]] = set()

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                found.add(frozenset(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def long_classes() -> set[str]:
    found: set[str] = set()
    for name, path in sources().items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and node.end_lineno is not None:
                if node.end_lineno - node.lineno + 1 > MAX_CLASS_LINES:
                    found.add(f"{name}.{node.name}")
    return found


def is_re_export(path: Path) -> bool:
    """A module with only a docstring, imports from chartkit and ``__all__``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    body = tree.body
    if not body or path.name == "__init__.py":
        return False
    for stmt in body:
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
            continue
        if isinstance(stmt, ast.ImportFrom) and (
            stmt.module == "__future__" or (stmt.module or "").startswith("chartkit.")
        ):
            continue
        if isinstance(stmt, ast.Assign | ast.AnnAssign):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            if all(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
                continue
        return False
    return True


def re_exports() -> set[str]:
    return {n for n, p in sources().items() if is_re_export(p)}


def only_listed(found: set[Any], allowed: dict[Any, str], what: str) -> None:
    new = sorted(map(str, found - set(allowed)))
    gone = sorted(map(str, set(allowed) - found))
    assert not new, f"new {what} (follow the stage order in STAGES, or fix the code): {new}"
    assert not gone, f"{what} listed that no longer occur (delete their entries): {gone}"


def test_every_module_has_a_stage() -> None:
    assert [m for m in modules() if stage_of(m) < 0] == []


def test_the_stage_table_names_only_what_exists() -> None:
    known = set(modules())
    listed = [p for _, prefixes in STAGES for p in prefixes]
    assert len(listed) == len(set(listed)), "a module is listed in two stages"
    assert [p for p in listed if p not in known] == []


def test_no_module_imports_a_later_stage() -> None:
    only_listed(upward(), ALLOWED_UPWARD, "upward imports")


def test_nothing_private_crosses_a_stage() -> None:
    only_listed(private_crossings(), ALLOWED_PRIVATE, "private imports across stages")


def test_no_import_cycles() -> None:
    only_listed(cycles(), ALLOWED_CYCLES, "import cycles")


def test_no_class_passes_300_lines() -> None:
    only_listed(long_classes(), ALLOWED_LONG_CLASSES, "classes over 300 lines")


def imported_on_load(tree: ast.Module) -> Iterator[str]:
    """The modules a module's own code imports when it is loaded: not in a function, not
    under ``if TYPE_CHECKING:``."""
    stack: list[ast.stmt] = list(tree.body)
    while stack:
        stmt = stack.pop()
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        if isinstance(stmt, ast.If) and is_type_checking(stmt):
            stack.extend(stmt.orelse)
            continue
        if isinstance(stmt, ast.Import):
            yield from (alias.name for alias in stmt.names)
        elif isinstance(stmt, ast.ImportFrom) and not stmt.level and stmt.module:
            yield stmt.module
        for field in ("body", "orelse", "finalbody", "handlers"):
            stack.extend(getattr(stmt, field, ()))


def test_only_the_draw_stage_imports_altair_when_loaded() -> None:
    """Planning reads profiles, not Altair: a module outside ``chartkit.draw`` imports Altair
    inside the function that uses it, so a check or a plan never loads it."""
    loading = sorted(
        name
        for name, path in sources().items()
        if stage_name(name) != "draw"
        and any(
            m == "altair" or m.startswith("altair.")
            for m in imported_on_load(ast.parse(path.read_text(encoding="utf-8")))
        )
    )
    assert loading == []


def test_no_module_only_re_exports() -> None:
    """A module that holds nothing but imports and ``__all__`` is another module's old path."""
    assert re_exports() == set()


def test_a_stub_types_a_compiled_module_only() -> None:
    """A ``.pyi`` beside the package types a C extension (``_speedups``), never an old path."""
    stubs = sorted(PACKAGE.rglob("*.pyi"))
    assert [str(s.relative_to(ROOT)) for s in stubs if not s.with_suffix(".c").exists()] == []


def test_the_reader_sees_each_kind_of_import(tmp_path: Path) -> None:
    """The graph is read right: absolute, relative, submodule, deferred and type-only imports."""
    source = tmp_path / "m.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "from chartkit import columns\n"
        "from chartkit.check import _x, check_columns\n"
        "from . import errors\n"
        "import chartkit.views\n"
        "if TYPE_CHECKING:\n"
        "    from chartkit.views import View\n"
        "def f():\n"
        "    from .plan import rules\n",
        encoding="utf-8",
    )
    known = {"chartkit.columns", "chartkit.check", "chartkit.errors", "chartkit.views",
             "chartkit.plan", "chartkit.plan.rules", "chartkit"}  # fmt: skip
    seen = [(i.imported, i.names, i.type_only) for i in imports_of("chartkit.m", source, known)]
    assert seen == [
        ("chartkit.columns", (), False),
        ("chartkit.check", ("_x", "check_columns"), False),
        ("chartkit.errors", (), False),
        ("chartkit.views", (), False),
        ("chartkit.views", ("View",), True),
        ("chartkit.plan.rules", (), False),
    ]
    assert stage_name("chartkit.plan.rules") == "plan"
    assert stage_name("chartkit.check") == "check"
    assert stage_name("chartkit") == "package"


def test_the_cycle_finder_finds_cycles_and_only_them() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a", "e"}, "e": {"d"}, "f": {"f"}}
    assert strongly_connected(graph) == {frozenset("abc"), frozenset("de")}
    assert strongly_connected({"a": {"b"}, "b": set()}) == set()


def test_private_means_a_leading_underscore_in_any_part() -> None:
    assert is_private("chartkit.plan._x") and is_private("chartkit._safe")
    assert not is_private("chartkit.plan.__main__") and not is_private("chartkit.views")
