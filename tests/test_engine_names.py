"""A tool's column name is a literal on every engine path: hostile names chart, end to end,
what the in-memory path draws from the same rows, and no helper column takes a data column's
place.

Every engine query names columns by position (``_k<i>``,
``chartkit.backends._native.positional``), and no helper column sits beside a data column in
an answer (the counts and rows behind each group are apart from its frame). Each case renames
the columns of the view contract's wide frame (tests/test_backend_views.py) and holds a few
chart kinds, over ``max_points``, to the in-memory view of the same rows, as values
(``same_view``). The
backends' own answers for generated hostile names (facts, groups, offenders, selected rows)
are the contract's (tests/test_backends.py).

Left to the engines themselves: DuckDB reads an Arrow name only up to a NUL (the column is
another name there, and Ibis's default backend is DuckDB), and polars cannot export a name
holding a NUL over Arrow's C interface; so the NUL case runs on pyarrow.
"""

from __future__ import annotations

import functools
from typing import Any

import duckdb
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest
from test_backend_views import CASES as VIEW_CASES
from test_backend_views import ENGINES, WIDE, drawn, same_view, wide_frame

from chartkit import View, view
from chartkit.read.dialects import quote as _quote

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
    "automatic line, colored", "line per week, summed", "lines of two measures",
    "bars of two measures", "count bars, top 30", "histogram", "heatmap", "line per month",
]  # fmt: skip
LONG_CHARTS = ["automatic line, colored"]  # 64 KB names are slow to draw: one chart (the
# backends' answers for them are the contract's, tests/test_backends.py)
NUL_ENGINES = ("pyarrow",)  # the one engine that holds a NUL in a name (see the doc)


def params() -> list[Any]:
    return [
        pytest.param(case, engine, id=f"{case}-{engine}")
        for case in CASES
        for engine in ENGINES
        if case != "NUL" or engine in NUL_ENGINES
    ]


def native(engine: str, table: pa.Table) -> Any:
    """The engine's frame of an Arrow table (built from pandas: polars cannot hold a NUL)."""
    if engine in ("polars", "polars lazy"):
        df = pl.from_arrow(table)
        assert isinstance(df, pl.DataFrame)
        return df.lazy() if engine == "polars lazy" else df
    if engine == "duckdb":
        return duckdb.connect().from_arrow(table)
    if engine == "ibis":
        return pytest.importorskip("ibis").memtable(table)
    return table


def renamed(picks: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    return {
        k: [names[c] for c in v] if isinstance(v, list) else names.get(v, v)
        if isinstance(v, str) else v
        for k, v in picks.items()
    }  # fmt: skip


@functools.cache
def renamed_frame(case: str) -> tuple[pd.DataFrame, pa.Table]:
    frame = wide_frame().to_pandas().rename(columns=CASES[case])
    return frame, pa.Table.from_pandas(frame, preserve_index=False)  # polars exports no NUL


@functools.cache
def in_memory(case: str, chart: str) -> View:
    names = CASES[case]
    decl = {names[k]: v for k, v in WIDE.items()}
    v = view(renamed_frame(case)[0], decl, max_points=1000, **renamed(VIEW_CASES[chart][1], names))
    assert v.kind == "chart"
    return v


@pytest.mark.parametrize(("case", "engine"), params())
def test_hostile_names_chart_what_memory_charts_on_every_engine(case: str, engine: str) -> None:
    names = CASES[case]
    decl = {names[k]: v for k, v in WIDE.items()}
    for chart in LONG_CHARTS if case == "64 KB names" else CHARTS:
        picks = renamed(VIEW_CASES[chart][1], names)
        want = in_memory(case, chart)
        got = view(native(engine, renamed_frame(case)[1]), decl, max_points=1000, **picks)
        if chart == "bars of two measures":  # its rows left out: a strict xfail in the contract
            assert {**drawn(got), "left_out": 0, "state": 0} == {**drawn(want), "left_out": 0,
                                                                 "state": 0}  # fmt: skip
        else:
            same_view(want, got)
        assert got.frame is not None and len(got.frame) <= 1000, chart  # computed in the engine


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


def test_the_explorer_shows_the_first_rows_whatever_the_names_and_dtypes() -> None:
    """``engines.head`` (the explorer's table of an engine frame): a NUL in a name (which
    polars' own pandas conversion panics on), SQL and regex syntax, and a dtype pandas has no
    twin for (polars Int128) arrive as the engine holds them."""
    from chartkit.read.engines import head, read_engine_frame

    names = ["a\x00b", 'x"y', "a.b", "^lun$", "select"]
    frame = pl.DataFrame([pl.Series(n, [i, i + 1]) for i, n in enumerate(names)])
    frame = frame.with_columns(pl.Series("big", [2**100, -(2**100)], dtype=pl.Int128))
    shown = head(read_engine_frame(frame), 1)
    assert list(shown.columns) == [*names, "big"]
    assert shown.iloc[0].tolist() == [0, 1, 2, 3, 4, 2**100]
    sql = {n: [i, i + 1] for i, n in enumerate(names[1:])}  # DuckDB cuts a name at a NUL
    rel = duckdb.connect().from_arrow(pa.table(sql))
    assert head(read_engine_frame(rel), 2).to_dict("list") == sql


def test_an_engine_type_quoted_in_a_sentence_is_capped_and_shown_escaped() -> None:
    """A struct's field names are the tool's: the engine type a refusal quotes (a column held
    as another type than its declared one) is cut at NAME_MAX_CHARS, its controls shown as
    escapes, never the raw 5,000 characters and an escape sequence."""
    from chartkit._safe import NAME_MAX_CHARS

    name = "evil\n\x1b[31m" + "z" * 5000
    structs = [None if i % 2 else {name: float(i)} for i in range(400)]
    table = pa.table({
        "k": [("a", "b")[i % 2] for i in range(400)],
        "v": [float(i % 7) for i in range(400)],
        "s": pa.array(structs, type=pa.struct([(name, pa.float64())])),
    })  # fmt: skip
    rel = duckdb.connect().from_arrow(table)
    decl = {"k": "string", "v": "number", "s": {"type": "number", "nullable": True}}
    chart = view(rel, decl, max_points=100)
    (refusal,) = [r for r in chart.refusals if r.column == "s"]
    table_view = view(rel, decl, max_points=100, x="k", y="s")
    for said in (refusal.reason, table_view.reason):
        assert "holds it as Struct(" in said
        assert "\x1b" not in said and "\n" not in said and "z" * (NAME_MAX_CHARS + 1) not in said
        assert "characters)" in said and len(said) < 1000
