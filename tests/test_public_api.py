"""The public surface: every module's ``__all__`` is true, and the package re-exports work."""

from __future__ import annotations

import doctest
import importlib
import inspect
import pkgutil
from types import ModuleType

import pytest

import chartkit
from chartkit._moved import MOVED
from chartkit.errors import MissingExtraError

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


@pytest.mark.parametrize("old", sorted(MOVED))
def test_a_moved_module_is_imported_at_its_old_path_as_the_very_module(old: str) -> None:
    new = importlib.import_module(MOVED[old])
    namespace: dict[str, object] = {}
    exec(f"import {old} as module", namespace)
    assert namespace["module"] is new
    assert importlib.import_module(old) is new and new.__name__ == MOVED[old]
    assert new.__spec__ is not None and new.__spec__.name == MOVED[old]
    first = new.__all__[0]
    exec(f"from {old} import {first} as name", namespace)
    assert namespace["name"] is getattr(new, first)


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


# what chartkit.decide (chartkit.plan.decide) held before its parts moved into modules of
# their own (plan/kit.py, sentences.py, lines.py, refusing.py …): every name still imports
DECIDE_NAMES = (
    "AGGREGATES", "COUNT_BARS_UNDER", "DEFAULT_FORMAT", "HISTOGRAM_BINS", "HORIZONTAL_OVER",
    "MAX_BAR_CATEGORIES", "MAX_COLOR_CATEGORIES", "MAX_PICKED_COLOR_CATEGORIES", "MEASURE",
    "ROWS", "SCALES", "SORTS", "TIME_UNITS", "UNPLACEABLE_NUMBER", "VALUE", "ChartOptions",
    "Plan", "Whole", "bucketed_note", "check_choose", "chosen_alternative", "line_label",
    "no_measure_reason", "no_value_note", "nothing_to_draw", "over_max_points", "plan_view",
    "points_per_bucket", "shared_note", "stacked_counts", "stepped_around", "top_note",
    "unplaced_note",
)  # fmt: skip


@pytest.mark.parametrize("path", ["chartkit.decide", "chartkit.plan.decide"])
def test_every_name_decide_held_still_imports_from_it(path: str) -> None:
    module = importlib.import_module(path)
    assert [n for n in DECIDE_NAMES if not hasattr(module, n)] == []
