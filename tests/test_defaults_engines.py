"""The default chart's rules hold on every backend (issue 20: "across the in-memory and engine
backends"): on the results ``test_defaults`` generates, a query engine holding the same rows
draws what memory draws — with ``max_points`` below the rows, so the engine reduces them itself
(``chartkit.backends.pushdown``) instead of handing the rows to pandas.

``test_defaults`` holds each rule on the in-memory answer; here every engine is held to that
answer (``test_backend_views.same_view``: kind, mark, reason, encodings, refusals,
alternatives, offenders, every drawn row and its order, the rows left out, the state), so each
rule holds there too.
"""

from __future__ import annotations

from typing import Any

import duckdb
import pandas as pd
import polars as pl
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from test_backend_views import same_view
from test_defaults import _SETTINGS, days_with_a_label, entities_over_time, hourly, results

from chartkit import view

ENGINES = ("duckdb", "polars")
MIN_POINTS = 100  # the least max_points view() takes: the rows are generated past it


def typed(rows: list[dict[str, Any]], decl: dict[str, Any]) -> pl.DataFrame:
    """The rows as an engine holds them: typed columns (dates as timestamps, whole numbers as
    integers, other numbers as floats), declared order."""
    columns: dict[str, Any] = {}
    for name, declared in decl.items():
        kind = declared if isinstance(declared, str) else declared["type"]
        values = [r.get(name) for r in rows]
        if kind == "date":
            stamps = pd.to_datetime(pd.Series(values, dtype=object), format="ISO8601")
            columns[name] = pl.Series(name, stamps.dt.to_pydatetime().tolist(),
                                      dtype=pl.Datetime("us"))  # fmt: skip
        elif kind == "number":
            ints = all(type(v) is int for v in values if v is not None)
            columns[name] = pl.Series(name, values, dtype=pl.Int64 if ints else pl.Float64)
        else:
            columns[name] = pl.Series(name, values, dtype=pl.String)
    return pl.DataFrame(columns)


def holder(engine: str, df: pl.DataFrame) -> Any:
    if engine == "duckdb":
        return duckdb.connect().from_arrow(df.to_arrow())
    return df


def each_engine_draws_the_in_memory_default(
    rows: list[dict[str, Any]], decl: dict[str, str], max_points: int
) -> None:
    df = typed(rows, decl)
    want = view(df.to_pandas(), decl, max_points=max_points)
    for engine in ENGINES:
        got = view(holder(engine, df), decl, max_points=max_points)
        if want.kind != "chart":
            assert (got.kind, got.reason) == (want.kind, want.reason), engine
            continue
        same_view(want, got)


@settings(_SETTINGS, max_examples=10)
@given(days_with_a_label(), st.integers(MIN_POINTS, 1000))
def test_a_label_over_time_is_drawn_by_every_engine_as_in_memory(
    result: tuple[list[dict[str, Any]], dict[str, str]], max_points: int
) -> None:
    rows, decl = result
    assume(len(rows) > MIN_POINTS)
    each_engine_draws_the_in_memory_default(rows, decl, min(max_points, len(rows) - 1))


@settings(_SETTINGS, max_examples=10)
@given(entities_over_time(), st.integers(MIN_POINTS, 1000))
def test_entities_over_time_are_drawn_by_every_engine_as_in_memory(
    result: tuple[list[dict[str, Any]], dict[str, str]], max_points: int
) -> None:
    rows, decl = result
    assume(len(rows) > MIN_POINTS)
    each_engine_draws_the_in_memory_default(rows, decl, min(max_points, len(rows) - 1))


@settings(_SETTINGS, max_examples=8)
@given(hourly())
def test_the_time_bucket_is_sized_to_the_width_by_every_engine(
    result: tuple[list[dict[str, Any]], dict[str, str]],
) -> None:
    rows, decl = result
    assume(len(rows) > MIN_POINTS)
    each_engine_draws_the_in_memory_default(rows, decl, max(MIN_POINTS, len(rows) // 4))


@settings(_SETTINGS, max_examples=60)
@given(results(dates=False))
def test_results_without_a_date_open_on_the_rule_tables_chart_on_every_engine(
    result: tuple[list[dict[str, Any]], dict[str, str]],
) -> None:
    """Two measures open on their scatter (binned into a heatmap past max_points, one panel
    per group where the groups share x positions); a chart of a single mark is passed over
    for the next; no measure is a table, in decide.py's words — counted in the engine."""
    rows, decl = result
    rows = rows * (MIN_POINTS // len(rows) + 1)  # each row repeated: past the least max_points
    each_engine_draws_the_in_memory_default(rows, decl, MIN_POINTS)


@pytest.mark.parametrize(
    ("name", "decl"),
    [
        ("anscombe", {"Series": "string", "X": "number", "Y": "number"}),
        ("iris", {"sepalLength": "number", "sepalWidth": "number", "species": "string"}),
    ],
)
def test_anscombe_and_iris_open_as_in_memory_on_every_engine(
    name: str, decl: dict[str, str]
) -> None:
    """The gallery's two scatters past max_points: anscombe's groups share x (panels in the
    stand-in too), iris' do not (colors); each engine draws memory's heatmap and says so."""
    from vega_datasets import data

    frame = pl.from_pandas(getattr(data, name)()[list(decl)])
    frame = pl.concat([frame] * (MIN_POINTS // len(frame) + 1))  # past the least max_points
    rows = frame.to_dicts()
    want = view(frame.to_pandas(), decl, max_points=MIN_POINTS)
    assert (want.kind, want.mark) == ("chart", "rect")
    each_engine_draws_the_in_memory_default(rows, decl, MIN_POINTS)
    scatters = [a.picks() for a in want.alternatives if a.chart == "scatter"]
    if name == "anscombe":  # drawn apart, so the colored scatter is still an alternative
        assert {"x": "X", "y": "Y", "color": "Series"} in scatters
