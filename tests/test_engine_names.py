"""A tool's column name is a literal on every engine path: generated hostile names chart the
same rows as pandas draws from them, and no helper column takes a data column's place.

Every engine query names columns by position (``_k<i>``,
``chartkit.backends._native.positional``); a helper column in an answer beside data columns is
named apart from every data column (``_fresh``). Each case renames the columns of
tests/test_engines.py's wide frame and holds each chart kind, over ``max_points``, to pandas'
chart of the same rows (``same_view``).

Left to the engines themselves: DuckDB reads an Arrow name only up to a NUL (the column is
another name there), and polars cannot export a name holding a NUL over Arrow's C interface;
so the NUL case runs on pyarrow.
"""

from __future__ import annotations

from typing import Any

import duckdb
import polars as pl
import pyarrow as pa
import pytest
from test_engines import KINDS, WIDE, same_view, wide_frame

from chartkit import view
from chartkit._pushdown import _fresh, _quote

CASES: dict[str, dict[str, str]] = {
    "helper-like": {
        "at": "__bucket", "gb": "__rows0", "iops": "__ms", "host": "__count", "site": "_k0",
        "few": "_k1", "zone": "__rows1",
    },
    "sql, quotes, dots, backticks": {
        "at": "select", "gb": "from", "iops": 'a"b', "host": "host.name", "site": "it's",
        "few": "group by", "zone": "a`b",
    },
    "64 KB names": {
        "at": "t" * 65536, "gb": "g" * 65536, "iops": "i" * 65535 + ".", "host": "h" * 65536,
        "site": "s", "few": "f", "zone": "z",
    },
    "regex syntax and *": {
        "at": "(t)", "gb": "^gb$", "iops": "*", "host": "[h]", "site": "s|t", "few": ".*",
        "zone": "z+",
    },
    "NUL": {
        "at": "t\x00", "gb": "g\x00\x00", "iops": "i\x00o", "host": "h", "site": "s",
        "few": "f", "zone": "z",
    },
}  # fmt: skip

CHARTS = [
    "automatic line, colored",
    "line per week, summed",
    "lines of two measures",
    "bars of two measures",
    "count bars, top 30",
    "histogram",
    "heatmap",
    "line per month",
]

ENGINES = ["duckdb", "polars", "pyarrow"]


def params() -> list[Any]:
    out = []
    for case in CASES:
        for engine in ENGINES:
            if case == "NUL" and engine != "pyarrow":
                continue  # the engine itself cannot hold such a name (see the module's doc)
            out.append(pytest.param(case, engine, id=f"{case}-{engine}"))
    return out


def renamed(picks: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    return {
        k: [names[c] for c in v] if isinstance(v, list) else names.get(v, v)
        if isinstance(v, str) else v
        for k, v in picks.items()
    }  # fmt: skip


@pytest.mark.parametrize(("case", "engine"), params())
def test_hostile_names_chart_the_same_rows_as_pandas_on_every_engine(
    case: str, engine: str
) -> None:
    names = CASES[case]
    frame = wide_frame(3000).to_pandas().rename(columns=names)
    table = pa.Table.from_pandas(frame, preserve_index=False)
    decl = {names[k]: v for k, v in WIDE.items()}
    for kind in CHARTS:
        picks = renamed(KINDS[kind], names)
        expected = view(frame, decl, max_points=1000, **picks)
        assert expected.kind == "chart"
        if engine == "duckdb":
            native: Any = duckdb.connect().from_arrow(table)
        elif engine == "polars":
            native = pl.from_arrow(table).lazy()  # type: ignore[union-attr]
        else:
            native = table
        got = view(native, decl, max_points=1000, **picks)
        same_view(expected, got)
        assert any("left the engine" in n for n in got.notes), kind


def test_a_data_column_named_like_the_bucket_is_drawn_not_replaced() -> None:
    """``__bucket`` as the measure, ``__ms`` as the series: the line is of their values."""
    base = wide_frame(3000).to_pandas()[["at", "gb", "site"]]
    frame = base.rename(columns={"gb": "__bucket", "site": "__ms"})
    decl = {"at": "date", "__bucket": "number", "__ms": "string"}
    got = view(duckdb.connect().from_arrow(pa.Table.from_pandas(frame)), decl, max_points=1000)
    plain = view(base, {"at": "date", "gb": "number", "site": "string"}, max_points=1000)
    (rows,) = got.spec["datasets"].values()
    (want,) = plain.spec["datasets"].values()
    field = got.encodings["y"].field
    assert [r[field] for r in rows] == [r[plain.encodings["y"].field] for r in want]
    assert got.encodings["y"].column == "__bucket" and got.encodings["color"].column == "__ms"


@pytest.mark.parametrize(
    "name",
    ['a"b', '""', "select", "host.name", "a`b", "*", "^x$", "x" * 65536, "é ü", "'", "__ms"],
)
def test_the_one_quoting_function_reads_back_the_very_name_in_duckdb(name: str) -> None:
    rel = duckdb.connect().from_arrow(pa.table({"v": [1, 2]}))
    out = rel.project(f"v AS {_quote(name)}")
    assert out.columns == [name]
    assert out.project(_quote(name)).fetchall() == [(1,), (2,)]


def test_the_quoting_function_refuses_a_nul() -> None:
    with pytest.raises(Exception, match="NUL"):
        _quote("a\x00b")


def test_a_helper_name_is_fresh_against_every_data_column() -> None:
    assert _fresh("__bucket", ["at", "gb"]) == "__bucket"
    assert _fresh("__bucket", ["__bucket", "__bucket_"]) == "__bucket__"
