"""Each engine's own ways are its dialect's, picked once at the door (issue 19 item 2).

``chartkit.read.dialects`` holds what narwhals cannot say for every engine; a reading carries
its dialect (``EngineReading.dialect``) and no other module branches on the engine's name.
``by_position`` is how every query of the check and the chart reads a tool's column: by
position, renamed to a name chartkit chose, so a generated hostile name reads back as itself.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pytest

from chartkit.errors import ChartkitError
from chartkit.read.dialects import DIALECTS, Dialect, dialect_of, quote
from chartkit.read.engines import read_engine_frame

PACKAGE = Path(__file__).resolve().parent.parent / "chartkit"

# generated names: SQL keywords and quotes, dots and backticks, regex syntax, helper-like
# names, a 64 KB name; every dialect reads them by position and gives them back
NAMES = [
    "select", 'a"b', "it's", "host.name", "a`b", "^lun$", "*", ".*", "(t)", "__ms", "_k0",
    "__bucket", "c0", "row", "g" * 65536,
]  # fmt: skip


def _frame(engine: str, names: list[str]) -> Any:
    table = pa.table({f"v{i}": [i, i + 1] for i in range(len(names))}).rename_columns(names)
    if engine == "pyarrow":
        return table
    if engine in ("polars", "polars lazy"):
        import polars as pl

        df = pl.from_arrow(table)
        assert isinstance(df, pl.DataFrame)
        return df.lazy() if engine == "polars lazy" else df
    if engine == "duckdb":
        return duckdb.from_arrow(table)
    if engine == "ibis":
        import ibis

        return ibis.memtable(table)
    raise AssertionError(engine)


def _values(engine: str, native: Any) -> dict[str, list[Any]]:
    if engine == "duckdb":
        native = native.to_arrow_table()
    elif engine == "polars lazy":
        native = native.collect()
    elif engine == "ibis":
        native = native.to_pyarrow()
    out: dict[str, list[Any]] = (
        native.to_dict(as_series=False) if engine.startswith("polars") else native.to_pydict()
    )
    return out


@pytest.mark.parametrize("engine", ["duckdb", "polars", "polars lazy", "pyarrow", "ibis"])
def test_by_position_reads_every_generated_name_as_a_literal(engine: str) -> None:
    reading = read_engine_frame(_frame(engine, NAMES))
    assert reading is not None
    assert reading.dialect is dialect_of(reading.engine)
    # the columns backwards, renamed to chartkit's own names: each holds its own values
    picks = [(k, f"c{k}") for k in reversed(range(len(NAMES)))]
    got = _values(engine, reading.dialect.by_position(reading.native, reading.columns, picks))
    assert list(got) == [f"c{k}" for k in reversed(range(len(NAMES)))]
    assert got == {f"c{k}": [k, k + 1] for k in reversed(range(len(NAMES)))}
    # and back: chartkit's names renamed to the real ones, whatever they hold
    ours = reading.dialect.by_position(
        reading.native, reading.columns, [(k, f"c{k}") for k in range(len(NAMES))]
    )
    back = reading.dialect.by_position(
        ours, [f"c{k}" for k in range(len(NAMES))], [(k, NAMES[k]) for k in range(len(NAMES))]
    )
    assert _values(engine, back) == {name: [k, k + 1] for k, name in enumerate(NAMES)}


def test_every_engine_the_door_reads_has_its_dialect_and_any_other_gets_narwhals() -> None:
    assert sorted(DIALECTS) == ["duckdb", "ibis", "polars", "pyarrow", "pyspark"]
    assert all(d.engine == e and isinstance(d, Dialect) for e, d in DIALECTS.items())
    assert type(dialect_of("dask")) is Dialect
    assert [e for e, d in DIALECTS.items() if not d.exact_median] == ["pyarrow"]
    assert [e for e, d in DIALECTS.items() if d.sql_helpers] == ["duckdb"]


def test_a_month_in_utc_is_refused_for_any_other_unit() -> None:
    with pytest.raises(ChartkitError, match="month, quarter or year, not 'day'"):
        dialect_of("duckdb").utc_truncated(None, "_k0", "day", "__bucket")


def test_the_quoting_function_is_the_dialects_own() -> None:
    assert quote('a"b') == '"a""b"'
    with pytest.raises(ChartkitError, match="NUL"):
        quote("a\x00b")


def _engine_branches(path: Path) -> list[str]:
    """Every comparison of something named ``engine`` with a string literal, in one module."""
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Compare):
            continue
        left = node.left
        named = (isinstance(left, ast.Name) and left.id == "engine") or (
            isinstance(left, ast.Attribute) and left.attr == "engine"
        )
        literal = any(
            isinstance(c, ast.Constant | ast.Tuple | ast.List | ast.Set) for c in node.comparators
        )
        if named and literal:
            found.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}")
    return found


def test_no_module_of_the_check_or_the_backends_branches_on_the_engines_name() -> None:
    # the dialect is picked once, at the door; the check and the chart ask it, not the name
    stages = [PACKAGE / "check", PACKAGE / "backends", PACKAGE / "plan", PACKAGE / "draw"]
    branches = [b for stage in stages for p in sorted(stage.rglob("*.py"))
                for b in _engine_branches(p)]  # fmt: skip
    assert branches == []


def test_the_dialects_docstring_examples_run() -> None:
    import doctest

    import chartkit.read.dialects as dialects

    result = doctest.testmod(dialects, report=False)
    assert result.failed == 0 and result.attempted > 0


def test_duckdb_names_a_column_holding_a_nul_through_its_expression_api() -> None:
    """No SQL identifier holds a NUL: such a name (DuckDB keeps it from a pandas frame) is read
    and given by the expression API, every other by one SQL text of positional references and
    quoted names (the expression API is quadratic in the columns)."""
    import pandas as pd

    rel = duckdb.connect().from_df(pd.DataFrame({"a\x00b": [1, 2], "select": [3, 4]}))
    reading = read_engine_frame(rel)
    assert reading is not None and reading.columns == ("a\x00b", "select")
    ours = reading.dialect.by_position(rel, reading.columns, [(1, "c0"), (0, "c1")])
    assert ours.columns == ["c0", "c1"] and ours.fetchall() == [(3, 1), (4, 2)]
    back = reading.dialect.by_position(ours, ["c0", "c1"], [(1, "a\x00b"), (0, "select")])
    assert back.columns == ["a\x00b", "select"] and back.fetchall() == [(1, 3), (2, 4)]
    with pytest.raises(ChartkitError, match="takes no SQL text"):
        dialect_of("polars").project(None, [("#1", "c0")])
