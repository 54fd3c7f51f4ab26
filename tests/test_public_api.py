"""The public surface: every module's ``__all__`` is true, each public name has one path.

A name is exported (in ``__all__``) by the module that defines it — or, for a name a stage
package's private module defines, by that package — and the package's own names by
``chartkit`` too. No other path imports: no old module path, no re-export.
"""

from __future__ import annotations

import ast
import doctest
import importlib
import inspect
import pkgutil
import sys
from pathlib import Path
from types import ModuleType

import pytest

import chartkit
from chartkit.errors import MissingExtraError

PACKAGE = Path(chartkit.__file__).resolve().parent

STAGE_PACKAGES = (
    "chartkit.read",
    "chartkit.check",
    "chartkit.draw",
    "chartkit.notebook",
    "chartkit.mcp",
)
"""The stages' and surfaces' folders (docs/architecture.md): their modules are held to the
same rules."""
MODULES = sorted(
    [f"chartkit.{m.name}" for m in pkgutil.iter_modules(chartkit.__path__) if m.name != "__main__"]
    + [
        f"{package}.{m.name}"
        for package in STAGE_PACKAGES
        for m in pkgutil.iter_modules(importlib.import_module(package).__path__)
    ]
)
FOUNDATION = [
    "chartkit.columns",
    "chartkit.read.rowset",
    "chartkit.check.judge",
    "chartkit.messages",
    "chartkit.check.integrity",
    "chartkit.result",
    "chartkit.errors",
]


def load(name: str) -> ModuleType:
    """Import a chartkit module; one needing an extra that is not installed is skipped."""
    try:
        return importlib.import_module(name)
    except (MissingExtraError, ModuleNotFoundError) as exc:
        missing = getattr(exc, "name", None) or ""
        if isinstance(exc, ModuleNotFoundError) and missing.startswith("chartkit"):
            raise  # chartkit itself broken: that is a failure, not a missing extra
        pytest.skip(f"{name} needs an optional extra that is not installed: {exc}")


def test_the_foundation_modules_are_all_there() -> None:
    assert set(FOUNDATION) <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_every_module_declares_its_public_names(name: str) -> None:
    module = load(name)
    assert isinstance(getattr(module, "__all__", None), list | tuple), f"{name} has no __all__"
    assert len(set(module.__all__)) == len(module.__all__), f"{name}.__all__ repeats a name"


@pytest.mark.parametrize("name", MODULES)
def test_every_name_in_all_exists(name: str) -> None:
    module = load(name)
    missing = [n for n in getattr(module, "__all__", ()) if not hasattr(module, n)]
    assert missing == [], f"{name}.__all__ names what the module does not have: {missing}"


@pytest.mark.parametrize("name", MODULES)
def test_every_public_function_and_class_a_module_defines_is_in_its_all(name: str) -> None:
    module = load(name)
    defined = [
        n
        for n, obj in vars(module).items()
        if not n.startswith("_")
        and (inspect.isfunction(obj) or inspect.isclass(obj))
        and obj.__module__ == name
    ]
    undeclared = [n for n in defined if n not in getattr(module, "__all__", ())]
    assert undeclared == [], (
        f"{name} defines public {undeclared} outside __all__: add them to __all__, or make "
        "them private with a leading underscore"
    )


def test_every_name_the_package_exports_is_importable_from_it() -> None:
    for n in chartkit.__all__:
        namespace: dict[str, object] = {}
        exec(f"from chartkit import {n}", namespace)
        assert namespace[n] is getattr(chartkit, n)


def test_the_package_exports_the_foundations_fixed_names() -> None:
    fixed = {
        "COLUMN_TYPES",
        "ColumnType",
        "ColumnDeclaration",
        "normalize_result_columns",
        "assert_result_columns",
        "ResultColumnsError",
        "COLUMN_TYPE_CEILING",
        "read_rowset",
        "RowsetReading",
        "ColumnViolation",
        "check_columns",
        "ToolResult",
        "check_result",
        "CheckMode",
        "CheckOutcome",
        "Finding",
        "DispositionRow",
        "DispositionLedger",
    }
    assert fixed <= set(chartkit.__all__)


def test_a_re_export_is_the_very_object_its_module_defines() -> None:
    for n in chartkit.__all__:
        obj = getattr(chartkit, n)
        home = getattr(obj, "__module__", None)
        if inspect.isclass(obj) or inspect.isfunction(obj):
            assert home is not None and home.startswith("chartkit.")
            assert getattr(importlib.import_module(home), n) is obj


@pytest.mark.parametrize("name", FOUNDATION)
def test_the_foundation_docstring_examples_run(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(
        module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, report=False
    )
    assert result.failed == 0, f"{result.failed} of {result.attempted} doctests failed in {name}"
    if name != "chartkit.errors":  # errors are classes with prose, not examples
        assert result.attempted > 0, f"{name} has no docstring example"


def test_the_version_is_the_one_pyproject_declares() -> None:
    import tomllib
    from pathlib import Path

    pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"
    declared = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["version"]
    assert chartkit.__version__ == declared


OLD_PATHS = (
    "chartkit.apps",
    "chartkit.backends.selection",
    "chartkit.charts",
    "chartkit.csvread",
    "chartkit.decide",
    "chartkit.encode",
    "chartkit.engines",
    "chartkit.events",
    "chartkit.integrity",
    "chartkit.mcp_server",
    "chartkit.rowset",
    "chartkit.rules",
    "chartkit.schemas",
    "chartkit.speedups",
    "chartkit.tables",
    "chartkit.view",
    "chartkit.widget",
)
"""Module paths that are not chartkit's: the flat paths from before the stage folders, and
``chartkit.view`` (the function; its module is ``chartkit.views``)."""


@pytest.mark.parametrize("old", OLD_PATHS)
def test_an_old_module_path_does_not_import(old: str) -> None:
    with pytest.raises(ModuleNotFoundError, match=old.replace(".", r"\.")):
        importlib.import_module(old)
    assert not (PACKAGE.parent / (old.replace(".", "/") + ".pyi")).exists(), f"a stub for {old}"


def test_importing_chartkit_installs_no_import_hook_and_keeps_a_plain_module() -> None:
    assert [f for f in sys.meta_path if type(f).__module__.startswith("chartkit")] == []
    assert type(chartkit) is ModuleType
    views = importlib.import_module("chartkit.views")  # binds chartkit.views, not chartkit.view
    assert chartkit.view is views.view and callable(chartkit.view)


def test_a_check_outcome_shows_itself_as_html_by_its_own_method() -> None:
    from chartkit.check.outcome import CheckOutcome

    own = CheckOutcome.__dict__["_repr_html_"]
    assert own.__qualname__ == "CheckOutcome._repr_html_"
    outcome = chartkit.check_result(
        chartkit.ToolResult("t", [{"lun": "<b>"}], {"lun": "number"}), mode="warn"
    )
    assert outcome._repr_html_().startswith("<p><b>1 finding under warn</b></p>")
    assert "<b>" not in outcome._repr_html_().split("</b></p>", 1)[1]


def all_of(path: Path) -> tuple[list[str], dict[str, str]]:
    """A module's ``__all__`` and where each name it imports comes from, read from its source."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    listed: list[str] = []
    imported: dict[str, str] = {}
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
                listed = list(ast.literal_eval(node.value))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            imported.update({a.asname or a.name: node.module for a in node.names})
    return listed, imported


def module_of(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


SOURCES = {module_of(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def re_exports() -> dict[str, set[str]]:
    """Per module, the names its ``__all__`` lists that it imports from elsewhere.

    A package's ``__init__`` exporting what its own private modules define
    (``chartkit.backends._contract``) is their one public path, not a re-export; ``chartkit``
    re-exports by design and is left out.
    """
    found: dict[str, set[str]] = {}
    for name, path in SOURCES.items():
        if name == "chartkit":
            continue
        listed, imported = all_of(path)
        own_private = f"{name}._" if path.name == "__init__.py" else None
        names = {
            n
            for n in listed
            if n in imported and not (own_private and imported[n].startswith(own_private))
        }
        if names:
            found[name] = names
    return found


ALLOWED_RE_EXPORTS: dict[str, tuple[tuple[str, ...], str]] = {
    "chartkit.backends._native": (("quote",), "its one quoting function, from read.dialects"),
    "chartkit.check.judge": (
        ("OFFENDERS_LISTED", "VIOLATION_KINDS", "ColumnViolation", "OffendingValue",
         "ViolationKind", "most_frequent"),
        "the violation values, defined in chartkit.violations",
    ),
    "chartkit.draw.charts": (("CHART_WIDTH",), "the plot width, defined in plan.choose"),
    "chartkit.examples.build_agent_ui": (
        ("page_with_payloads", "script_json"), "the page helpers, defined in chartkit.page"
    ),
    "chartkit.explorer._logic": (
        ("offending_cells", "offending_rows"), "the highlights, defined in chartkit._highlight"
    ),
    "chartkit.mcp.apps": (
        ("APP_MIME_TYPE", "CHUNK_BYTES", "EXTENSION_ID", "KeptViews", "view_html"),
        "the SDK's Apps constants, _app_rows' chunks and chartkit.page's page",
    ),
    "chartkit.mcp.server": (
        ("FILE_SUFFIXES", "MAX_DECODED_BYTES", "MAX_FILE_BYTES", "MAX_ROWS"),
        "the file rules and caps, defined in mcp._served",
    ),
    "chartkit.messages": (("NAME_MAX_CHARS",), "the name cap, defined in chartkit._safe"),
    "chartkit.plan.decide": (
        ("AGGREGATES", "DEFAULT_FORMAT", "MAX_BAR_CATEGORIES", "MAX_COLOR_CATEGORIES", "ROWS",
         "SCALES", "SORTS", "TIME_UNITS", "ChartOptions", "Plan", "Whole", "bucketed_note",
         "line_label", "no_measure_reason", "no_value_note", "nothing_to_draw",
         "over_max_points", "points_per_bucket", "shared_note", "stacked_counts", "top_note",
         "unplaced_note"),
        "the names decide held before its parts moved to options, kit, lines, sentences",
    ),
    "chartkit.read.rowset": (
        ("RowsetReading", "narwhals_to_pandas"), "the reading, defined in read.reading"
    ),
    "chartkit.selection": (
        ("Clause", "Equals", "NoneOf", "Placed", "Range", "Zone"),
        "the clauses, defined in backends.clauses",
    ),
    "chartkit.staging": (
        ("METADATA_KEY", "read_parquet"), "the typed Parquet reader, defined in read.parquet"
    ),
}  # fmt: skip
"""Module → the names its ``__all__`` still re-exports, and from where. The list only shrinks:
a new re-export fails, and so does a listed one that is gone (delete it: the house got
better)."""


def test_no_module_re_exports_a_name_beyond_the_shrinking_list() -> None:
    found = re_exports()
    allowed = {module: set(names) for module, (names, _) in ALLOWED_RE_EXPORTS.items()}
    new = {m: sorted(n - allowed.get(m, set())) for m, n in found.items()}
    gone = {m: sorted(n - found.get(m, set())) for m, n in allowed.items()}
    assert {m: n for m, n in new.items() if n} == {}, "export each name from its own module"
    assert {m: n for m, n in gone.items() if n} == {}, "delete these entries: they are gone"


def test_each_name_the_package_exports_has_one_home_module() -> None:
    """Exactly one module defines and exports it (re-exports: the test above), and the package's
    name is that module's very object."""
    homes: dict[str, list[str]] = {n: [] for n in chartkit.__all__}
    for name, path in SOURCES.items():
        listed, imported = all_of(path)
        for n in listed:
            if n in homes and n not in imported:
                homes[n].append(name)
    assert {n: m for n, m in homes.items() if len(m) != 1} == {}
    for n, (module,) in homes.items():
        assert getattr(importlib.import_module(module), n) is getattr(chartkit, n), n


STAGE_PACKAGES_ALL = (
    "chartkit.agents",
    "chartkit.backends",
    "chartkit.check",
    "chartkit.draw",
    "chartkit.examples",
    "chartkit.explorer",
    "chartkit.mcp",
    "chartkit.notebook",
    "chartkit.plan",
    "chartkit.read",
)


@pytest.mark.parametrize("name", STAGE_PACKAGES_ALL)
def test_a_stage_package_holds_only_its_own_names(name: str) -> None:
    """A class or function on a stage package is defined there or in its private modules: a
    name from one of its public modules is imported from that module, never the package."""
    package = load(name)
    foreign = sorted(
        n
        for n, obj in vars(package).items()
        if not n.startswith("_")
        and (inspect.isclass(obj) or inspect.isfunction(obj))
        and obj.__module__.startswith(f"{name}.")
        and not obj.__module__.startswith(f"{name}._")
    )
    assert foreign == [], f"{name} holds {foreign}: import them from the module defining them"
