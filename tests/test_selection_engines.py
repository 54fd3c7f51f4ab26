"""The rows behind each mark, read in the engine that holds them (DuckDB, polars): on generated
typed frames, over ``max_points`` rows so the chart is reduced in the engine, each mark's rows
re-aggregate to that mark's value and every row belongs to exactly one mark, or to the rows
left out (counted apart). Each row carries an ``id`` so the rows read back can be told apart.
"""

from __future__ import annotations

import datetime as dt
import math
import os
from typing import Any

import duckdb
import numpy as np
import pandas as pd
import polars as pl
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from chartkit import ChartkitError, view
from chartkit.selection import MAX_PAGE_SIZE, Selection
from chartkit.view import View

EXAMPLES = 200 if os.environ.get("CHARTKIT_HYPOTHESIS_PROFILE") == "soak" else 15
SETTINGS = settings(
    max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
    suppress_health_check=list(HealthCheck),
    phases=[Phase.explicit, Phase.generate],  # a failure is reported as drawn (shrinking a
)  # fmt: skip                                  # frame of 200 rows takes minutes)
ENGINES = ["duckdb", "polars"]

SHAPES = [
    ({"g": "string", "m": "number"}, {"x": "g", "y": "m"}),
    ({"g": "string", "m": "number"}, {"x": "g", "y": "m", "aggregate": "sum"}),
    ({"g": "string", "m": "number"}, {"x": "g", "aggregate": "count"}),
    ({"t": "date", "m": "number"}, {"x": "t", "y": "m"}),  # bucketed in the engine
    ({"t": "zoned", "m": "number"}, {"x": "t", "y": "m"}),
    ({"t": "date", "m": "number", "g": "string"}, {"x": "t", "y": "m", "color": "g"}),
    ({"t": "date", "m": "number"}, {"x": "t", "y": "m", "time_unit": "day"}),
]


@st.composite
def frames(draw: st.DrawFn) -> tuple[pd.DataFrame, dict[str, Any], dict[str, Any]]:
    columns, options = draw(st.sampled_from(SHAPES))
    n = draw(st.integers(101, 240))
    data: dict[str, Any] = {"id": list(range(n))}
    declared: dict[str, Any] = {}
    for name, kind in columns.items():
        nullable = draw(st.booleans())
        holes = draw(st.sampled_from([0, 0, 3, 10]))
        if kind == "string":
            k = draw(st.integers(2, 6))
            values: list[Any] = [f"c{draw(st.integers(0, k))}" for _ in range(n)]
        elif kind == "number":
            values = [float(draw(st.integers(-50, 50))) for _ in range(n)]
            for _ in range(draw(st.sampled_from([0, 0, 2]))):
                values[draw(st.integers(0, n - 1))] = draw(st.sampled_from([np.inf, np.nan]))
        else:
            start = dt.datetime(2024, 1, 1)
            values = [start + dt.timedelta(minutes=draw(st.integers(0, 60 * 24 * 40)))
                      for _ in range(n)]  # fmt: skip
        for _ in range(holes):
            values[draw(st.integers(0, n - 1))] = None
        series = pd.Series(values, dtype={"string": object, "number": "float64"}.get(kind))
        if kind in ("date", "zoned"):
            series = pd.to_datetime(series)
            if kind == "zoned":
                series = series.dt.tz_localize("Europe/Paris", ambiguous="NaT",
                                               nonexistent="NaT")  # fmt: skip
        data[name] = series
        declared[name] = {"type": "date" if kind == "zoned" else kind, "nullable": nullable}
    return pd.DataFrame(data), declared, options


def _native(frame: pd.DataFrame, engine: str) -> Any:
    if engine == "duckdb":
        con = duckdb.connect()
        return con.from_df(frame)
    return pl.from_pandas(frame).lazy()


def _reaggregate(values: list[float], how: str) -> float:
    return {"sum": math.fsum, "mean": lambda v: math.fsum(v) / len(v)}[how](values)


def _check(v: View, n: int) -> None:
    assert v.marks is not None
    measure = next(e for e in v.encodings.values() if e.aggregate is not None)
    seen: set[int] = set()
    for i in range(len(v.marks)):
        s = Selection.of_mark(v, i)
        page = v.rows_behind(s, page_size=MAX_PAGE_SIZE)
        mark = v.marks.iloc[i]
        ids = set(page.rows["id"])
        assert len(ids) == page.total == len(page.rows)
        assert not ids & seen, f"rows behind two marks: {s.describe()}"
        seen |= ids
        if "rows" in mark.index:
            assert int(mark["rows"]) == page.total, s.describe()
        if measure.aggregate == "count":
            assert int(mark[measure.field]) == page.total, s.describe()
        else:
            got = _reaggregate([float(x) for x in page.rows[measure.column]], measure.aggregate)
            want = float(mark[measure.field])
            assert math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-9), (s.describe(), got, want)
    left = v.rows_behind(Selection.left_out(v), page_size=MAX_PAGE_SIZE)
    left_ids = set(left.rows["id"])
    assert left.total == v.left_out == len(left_ids)
    assert not left_ids & seen
    assert seen | left_ids == set(range(n))
    for name, count in left.offenders.items():
        assert count == sum(name in o for o in left.offending)


@pytest.mark.parametrize("engine", ENGINES)
@SETTINGS
@given(chart=frames())
def test_engine_rows_behind_each_mark_reaggregate_to_it_and_partition_the_rows(
    engine: str, chart: tuple[pd.DataFrame, dict[str, Any], dict[str, Any]]
) -> None:
    frame, declared, options = chart
    v = view(_native(frame, engine), declared, mode="off", max_points=100, **options)
    if v.kind != "chart":
        return
    assert v.frame is not None and len(v.frame) < len(frame)  # reduced in the engine
    _check(v, len(frame))


@pytest.mark.parametrize("engine", ENGINES)
def test_an_engine_page_marks_the_offending_cells_of_its_rows(engine: str) -> None:
    frame = pd.DataFrame(
        {"g": [f"c{i % 3}" for i in range(300)],
         "m": [None if i % 10 == 0 else float(i) for i in range(300)]}
    )  # fmt: skip
    v = view(_native(frame, engine), {"g": "string", "m": "number"}, mode="off", max_points=100)
    left = v.rows_behind(Selection.left_out(v), page_size=7)
    assert left.total == 30 and left.pages == 5 and len(left.rows) == 7
    assert left.index == tuple(range(7))  # an engine keeps no row order: places in the selection
    assert left.offending == (("m",),) * 7 and left.offenders == {"g": 0, "m": 30}
    mark = Selection.from_datum(v, {"g": "c0"})
    page = v.rows_behind(mark, page_size=5, page=1)
    assert page.total == 90 and len(page.rows) == 5 and set(page.rows["g"]) == {"c0"}


def test_an_engine_text_column_judged_value_by_value_says_so() -> None:
    con = duckdb.connect()
    rel = con.sql(
        "select 'c' || (i % 3)::varchar as g, (i % 50)::varchar as when from range(300) r(i)"
    )
    v = view(rel, {"g": "string", "when": "date"}, mode="off", max_points=100, x="g")
    if v.kind != "chart":
        pytest.skip(f"no chart of text dates: {v.reason}")
    with pytest.raises(ChartkitError, match="judged value by value"):
        v.rows_behind(Selection.of_mark(v, 0))
