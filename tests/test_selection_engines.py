"""The rows behind each mark, evaluated by every backend through the contract: a selection
compiled to ``Condition`` / ``AnyOf`` terms (``chartkit.backends.clauses.where``) and read with
``count`` / ``tally`` / ``page`` — in memory (pandas), and in DuckDB, polars eager and lazy,
pyarrow, Ibis and Spark (classic and Connect). On generated typed frames, over ``max_points``
rows so the chart is reduced in the engine, each mark's rows re-aggregate to that mark's value
and every row belongs to exactly one mark, or to the rows left out (counted apart). Each row
carries an ``id`` so the rows read back can be told apart.
"""

from __future__ import annotations

import datetime as dt
import math
import os
from collections.abc import Callable
from typing import Any

import duckdb
import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from test_selection_properties import gap_refused

from chartkit import ChartkitError, view
from chartkit.backends import (
    MAX_PAGE,
    AnyOf,
    Backend,
    Condition,
    backend_for,
    negated,
)
from chartkit.backends.clauses import where
from chartkit.backends.memory import MemoryBackend
from chartkit.columns import ColumnDeclaration
from chartkit.selection import MAX_PAGE_SIZE, Selection
from chartkit.views import View

EXAMPLES = 200 if os.environ.get("CHARTKIT_HYPOTHESIS_PROFILE") == "soak" else 15
SETTINGS = settings(
    max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
    suppress_health_check=list(HealthCheck),
    phases=[Phase.explicit, Phase.generate],  # a failure is reported as drawn (shrinking a
)  # fmt: skip                                  # frame of 200 rows takes minutes)
ENGINES = ["duckdb", "polars lazy", "polars", "pyarrow", "ibis"]

SHAPES = [
    ({"g": "string", "m": "number"}, {"x": "g", "y": "m"}),
    ({"g": "string", "m": "number"}, {"x": "g", "y": "m", "aggregate": "sum"}),
    ({"g": "string", "m": "number"}, {"x": "g", "aggregate": "count"}),
    ({"t": "date", "m": "number"}, {"x": "t", "y": "m"}),  # bucketed in the engine
    ({"t": "zoned", "m": "number"}, {"x": "t", "y": "m"}),
    ({"t": "date", "m": "number", "g": "string"}, {"x": "t", "y": "m", "color": "g"}),
    ({"t": "date", "m": "number"}, {"x": "t", "y": "m", "time_unit": "day"}),
    ({"g": "many", "m": "number"}, {"x": "g", "y": "m"}),  # the top 30 of 40, others apart
    ({"g": "many", "m": "number"}, {"x": "g", "aggregate": "count"}),
    ({"m": "number", "k": "number"}, {"x": "m", "y": "k"}),  # a heatmap binned in the engine
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
        if kind in ("string", "many"):
            k = draw(st.integers(2, 6)) if kind == "string" else 39
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
        series = pd.Series(values, dtype={"number": "float64"}.get(kind, object))
        if kind in ("date", "zoned"):
            series = pd.to_datetime(series)
            if kind == "zoned":
                series = series.dt.tz_localize("Europe/Paris", ambiguous="NaT",
                                               nonexistent="NaT")  # fmt: skip
        data[name] = series
        declared[name] = {"type": {"zoned": "date", "many": "string"}.get(kind, kind),
                          "nullable": nullable}  # fmt: skip
    return pd.DataFrame(data), declared, options


def _native(frame: pd.DataFrame, engine: str) -> Any:
    if engine == "duckdb":
        con = duckdb.connect()
        return con.from_df(frame)
    if engine == "polars lazy":
        return pl.from_pandas(frame).lazy()
    if engine == "polars":
        return pl.from_pandas(frame)
    table = pa.Table.from_pandas(frame, preserve_index=False)
    if engine == "pyarrow":
        return table
    ibis = pytest.importorskip("ibis")
    return ibis.memtable(table)


def _reaggregate(values: list[float], how: str) -> float:
    return {"sum": math.fsum, "mean": lambda v: math.fsum(v) / len(v)}[how](values)


Rows = Callable[[Selection], tuple[pd.DataFrame, int]]


def _through_view(v: View) -> Rows:
    """The rows behind a selection as ``View.rows_behind`` reads them, and their count."""

    def rows(s: Selection) -> tuple[pd.DataFrame, int]:
        page = v.rows_behind(s, page_size=MAX_PAGE_SIZE)
        for name, count in page.offenders.items():
            assert count == sum(name in o for o in page.offending), s.describe()
        return page.rows, page.total

    return rows


def _through_backend(backend: Backend) -> Rows:
    """The rows behind a selection as a backend reads its compiled terms, and their count."""

    def rows(s: Selection) -> tuple[pd.DataFrame, int]:
        terms = where(s.clauses, s.kind)
        return backend.page(terms, 0, MAX_PAGE), backend.count(terms)

    return rows


def _check(v: View, n: int, rows_of: Rows | None = None) -> None:
    assert v.marks is not None
    rows_of = rows_of or _through_view(v)
    measure = next(e for e in v.encodings.values() if e.aggregate is not None)
    seen: set[int] = set()
    behind: dict[int, set[int]] = {}  # each mark's rows, read once (Spark answers slowly)
    for i in range(len(v.marks)):
        if gap_refused(v, i):
            continue
        s = Selection.of_mark(v, i)
        rows, total = rows_of(s)
        mark = v.marks.iloc[i]
        ids = behind[i] = set(rows["id"])
        assert len(ids) == total == len(rows)
        assert not ids & seen, f"rows behind two marks: {s.describe()}"
        seen |= ids
        if "rows" in mark.index:
            assert int(mark["rows"]) == total, s.describe()
        if measure.aggregate == "count":
            assert int(mark[measure.field]) == total, s.describe()
        else:
            got = _reaggregate([float(x) for x in rows[measure.column]], measure.aggregate)
            want = float(mark[measure.field])
            assert math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-9), (s.describe(), got, want)
    left, total = rows_of(Selection.left_out(v))
    left_ids = set(left["id"])
    assert total == v.left_out == len(left_ids)
    assert not left_ids & seen
    other_ids: set[int] = set()
    if v.reduction.top is not None:
        other_ids = _check_others(v, measure, rows_of)
        assert not other_ids & seen and not other_ids & left_ids
    assert seen | left_ids | other_ids == set(range(n))
    for brush in _brushes(v):
        _check_brush(v, brush, rows_of, behind, left_ids | other_ids)


def _check_others(v: View, measure: Any, rows_of: Rows) -> set[int]:
    """The rows of a top-N chart's other categories: the categories its note says it did not
    show, none a shown bar's, each re-aggregating to no more than the lowest bar."""
    assert v.marks is not None
    rows, total = rows_of(Selection.others(v))
    ids = set(rows["id"])
    assert ids and len(ids) == total == len(rows)
    note = next(n for n in v.facts if n.kind == "top")
    x = next(e for c, e in v.encodings.items() if e.type == "nominal" and c != "facet")
    labels = [None if pd.isna(g) else str(g) for g in rows[x.column]]
    shown = {None if pd.isna(g) else str(g) for g in v.marks[x.field]}
    assert not set(labels) & shown
    assert len(set(labels)) == (note.count("values") or 0) - (note.count("shown") or 0)
    lowest = float(v.marks[measure.field].min())
    for label in set(labels):
        at = [i for i, g in enumerate(labels) if g == label]
        if measure.aggregate == "count":
            value = float(len(at))
        else:
            value = _reaggregate([float(rows[measure.column].iloc[i]) for i in at],
                                 measure.aggregate)  # fmt: skip
        assert value <= lowest or math.isclose(value, lowest, rel_tol=1e-9), (label, value)
    return ids


def _brushes(v: View) -> list[dict[str, list[float]]]:
    """Brushes over the middle half of the marks' positions on each brushable number axis (a
    heatmap's bins: along x, along y), and along x and y at once."""
    from chartkit.selection import drill_payload

    assert v.marks is not None
    drill = drill_payload(v)
    assert drill is not None
    spans: dict[str, list[float]] = {}
    for f in drill["brushable"]:
        if next(e for e in v.encodings.values() if e.field == f).type != "quantitative":
            continue  # a date axis is brushed by tests/test_selection.py
        at = sorted(float(p) for p in v.marks[f])
        spans[f] = [at[len(at) // 4], at[(3 * len(at)) // 4]]
    out = [{f: span} for f, span in spans.items()]
    return out + ([spans] if len(spans) == 2 else [])


def _check_brush(
    v: View, brush: dict[str, list[float]], rows_of: Rows, behind: dict[int, set[int]],
    apart: set[int],
) -> None:
    """The rows behind a brush are those of the marks it covers (whose drawn position lies in
    the interval on every brushed axis; `behind` holds each mark's rows as read through the
    view): their counts add up, none is read twice, none is a row left out."""
    assert v.marks is not None
    rows, total = rows_of(Selection.from_interval(v, brush))
    ids = set(rows["id"])
    assert len(ids) == total == len(rows)
    covered: set[int] = set()
    counted = 0
    count = next((e.field for e in v.encodings.values() if e.aggregate == "count"), None)
    for i in range(len(v.marks)):
        mark = v.marks.iloc[i]
        if gap_refused(v, i):
            continue
        if all(lo <= float(mark[f]) <= hi for f, (lo, hi) in brush.items()):
            covered |= behind[i]
            counted += int(mark[count]) if count is not None else 1
    assert ids == covered and total == counted, brush
    assert not ids & apart


@pytest.mark.parametrize("engine", ENGINES)
@SETTINGS
@given(chart=frames())
def test_engine_rows_behind_each_mark_reaggregate_to_it_and_partition_the_rows(
    engine: str, chart: tuple[pd.DataFrame, dict[str, Any], dict[str, Any]]
) -> None:
    frame, declared, options = chart
    v = view(_native(frame, engine), declared, mode="off", max_points=100, **options)
    if v.kind != "chart" or all(e.aggregate is None for e in v.encodings.values()):
        return  # a table, or a line of every row (a few per series): no mark to re-aggregate
    assert v.frame is not None and len(v.frame) < len(frame)  # reduced in the engine
    _check(v, len(frame))


@SETTINGS
@given(chart=frames())
def test_the_memory_backend_reads_each_marks_terms_as_the_view_drew_it(
    chart: tuple[pd.DataFrame, dict[str, Any], dict[str, Any]],
) -> None:
    frame, declared, options = chart
    v = view(frame, declared, mode="off", max_points=100, **options)
    if v.kind != "chart" or all(e.aggregate is None for e in v.encodings.values()):
        return
    memory = backend_for(frame)
    assert isinstance(memory, MemoryBackend)
    _check(v, len(frame), _through_backend(memory))
    assert v.marks is not None
    for i in range(len(v.marks)):  # the same rows as the view's own evaluation
        if gap_refused(v, i):
            continue
        s = Selection.of_mark(v, i)
        assert list(memory.page(where(s.clauses, s.kind), 0, MAX_PAGE)["id"]) == list(
            frame["id"].iloc[np.flatnonzero(s.mask(frame))]
        ), s.describe()


@pytest.mark.parametrize("engine", ENGINES)
def test_every_engine_reads_the_terms_as_memory_does(engine: str) -> None:
    """Each term kind on one frame: a negated ``in`` keeps the missing category, ``finite``
    leaves NaN, infinity and null out, ``valid`` is the check's verdict, a negated ``AnyOf`` is
    the rows left out, and a zoned time is compared in UTC."""
    n = 120
    start = dt.datetime(2024, 3, 30, 22)
    frame = pd.DataFrame({
        "id": range(n),
        "g": [None if i % 11 == 0 else f"c{i % 4}" for i in range(n)],
        "m": [[np.nan, np.inf, -np.inf, None][i % 4] if i % 5 == 0 else float(i % 9)
              for i in range(n)],
        "t": pd.to_datetime([start + dt.timedelta(hours=i) for i in range(n)]).tz_localize(
            "Europe/Paris", ambiguous="NaT", nonexistent="NaT"),
    })  # fmt: skip
    memory = backend_for(frame)
    engine_backend = backend_for(_native(frame, engine))
    decl = ColumnDeclaration("number", False)
    cases: list[list[Any]] = [
        [Condition("g", "in", ("c0", "c1"), negate=True)],
        [Condition("g", "null")],
        [Condition("m", "finite")],
        [Condition("m", "infinite")],
        [Condition("m", "finite", negate=True), Condition("g", "eq", "c2")],
        [Condition("m", "valid", decl, negate=True)],
        [negated([Condition("m", "finite"), Condition("g", "null", negate=True)])],
        [AnyOf((Condition("g", "eq", "c3"), Condition("m", "ge", 7.0)), negate=True)],
        [Condition("m", "ge", 2.0), Condition("m", "lt", 5.0)],
        [Condition("t", "ge", dt.datetime(2024, 3, 31, 0)),
         Condition("t", "lt", dt.datetime(2024, 3, 31, 6))],
        [Condition("t", "null", negate=True), Condition("g", "eq", 3.0)],  # text is no number
    ]  # fmt: skip
    for terms in cases:
        want = sorted(memory.page(terms, 0, MAX_PAGE)["id"])
        assert sorted(engine_backend.page(terms, 0, MAX_PAGE)["id"]) == want, terms
        tests = {"no m": [Condition("m", "finite", negate=True)]}
        assert engine_backend.tally(terms, tests) == memory.tally(terms, tests), terms
    # the zoned hours [00:00, 06:00) UTC of 31 March are 01:00 to 07:00 in Paris (DST at 02:00)
    six = memory.page(cases[9], 0, MAX_PAGE)["t"]
    assert [t.isoformat() for t in six.iloc[[0, -1]]] == [
        "2024-03-31T01:00:00+01:00", "2024-03-31T07:00:00+02:00"
    ] and len(six) == 6


def test_spark_rows_behind_each_mark_reaggregate_to_it(spark_session: Any) -> None:
    """Fixed charts on Spark (classic and Connect; Spark answers each mark's rows in about a
    second here, so the charts hold few marks): bars of a sum per category, a line bucketed
    by week, bars of the top 30 of 40 categories (their mean, and their rows counted: the
    others apart) and a heatmap whose points lie near its diagonal (19 of 100 cells), brushed
    along y and in two dimensions — each mark's rows its value, the rows partitioned."""
    from pyspark.sql import types as T

    n = 150
    frame = pd.DataFrame({
        "id": range(n),
        "g": [None if i % 13 == 0 else f"c{i % 3}" for i in range(n)],
        "m": [np.nan if i % 7 == 0 else float(i % 11) for i in range(n)],
        "t": pd.to_datetime([dt.datetime(2024, 1, 1) + dt.timedelta(minutes=97 * i)
                             for i in range(n)]),
        "many": [None if i % 17 == 0 else f"k{(i * 7) % 40}" for i in range(n)],
        "k": [(i % 11) * 3 + ((i * 13) % 29) / 10 for i in range(n)],
    })  # fmt: skip
    schema = T.StructType([
        T.StructField("id", T.LongType()), T.StructField("g", T.StringType()),
        T.StructField("m", T.DoubleType()), T.StructField("t", T.TimestampNTZType()),
        T.StructField("many", T.StringType()), T.StructField("k", T.DoubleType()),
    ])  # fmt: skip
    rows = [(int(r.id), r.g, None if pd.isna(r.m) else float(r.m), r.t.to_pydatetime(), r.many,
             r.k) for r in frame.itertuples()]  # fmt: skip
    native = spark_session.createDataFrame(rows, schema)
    declared = {"g": {"type": "string", "nullable": True}, "m": "number", "t": "date",
                "many": "string", "k": "number"}  # fmt: skip
    for options in (
        {"x": "g", "y": "m", "aggregate": "sum"},
        {"x": "t", "y": "m", "time_unit": "week"},
        {"x": "many", "y": "k"},
        {"x": "many", "aggregate": "count"},
        {"x": "m", "y": "k"},
    ):
        v = view(native, declared, mode="off", max_points=100, **options)
        assert v.kind == "chart", v.reason
        assert v.frame is not None and len(v.frame) < n
        if options["x"] == "many":
            assert v.reduction.top == 30, v.notes
        if options["x"] == "m":
            assert v.mark == "rect" and _brushes(v), v.notes
        _check(v, n)


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


def test_a_condition_says_what_it_takes() -> None:
    with pytest.raises(ChartkitError, match="op 'eq' compares with a value, got None; the "
                       "missing category is op 'null'"):  # fmt: skip
        Condition("g", "eq", None)
    with pytest.raises(ChartkitError, match="op 'valid' takes the column's ColumnDeclaration, "
                       "got 'number'"):  # fmt: skip
        Condition("m", "valid", "number")
    with pytest.raises(ChartkitError, match="an AnyOf holds Condition and AnyOf terms, got str"):
        AnyOf(("g",))  # type: ignore[arg-type]
    with pytest.raises(ChartkitError, match="names no column of this result"):
        backend_for(pd.DataFrame({"g": ["a"]})).count([AnyOf((Condition("nope", "null"),))])


def test_no_term_selects_every_row_and_an_empty_any_of_none() -> None:
    frame = pd.DataFrame({"id": range(5), "g": ["a", None, "b", "a", None]})
    for engine in ["pandas", *ENGINES]:
        b = backend_for(frame if engine == "pandas" else _native(frame, engine))
        assert b.count([]) == 5 and b.count([AnyOf(())]) == 0, engine
        assert b.count([AnyOf((), negate=True)]) == 5, engine
        assert b.tally([Condition("g", "eq", "a", negate=True)],
                       {"missing": [Condition("g", "null")]}) == {"rows": 3, "missing": 2}
