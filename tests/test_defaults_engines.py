"""The default chart's rules hold on every backend (issue 20: "across the in-memory and engine
backends"): on the results ``test_defaults`` generates, a query engine holding the same rows
draws what memory draws — with ``max_points`` below the rows, so the engine reduces them itself
(``chartkit.backends.pushdown``) instead of handing the rows to pandas.

``test_defaults`` holds each rule on the in-memory answer; here every engine is held to that
answer (``test_backend_views.same_view``: kind, mark, reason, encodings, refusals,
alternatives, offenders, every drawn row and its order, the rows left out, the state), so each
rule holds there too.

Roles (issue 40 item 6: "every backend chooses the same"): on every dataset of the corpus
(``bench/datasets``) and on generated tables roles are made of (categories crossed, a grid that
keys the rows with an entity, a count, a measure, a stray value), each engine opens on memory's
chart — the mark, each channel's column, type and aggregate — and offers memory's alternatives,
at ``view()``'s own ``max_points`` and at the least, where an engine answers the facts itself.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import duckdb
import pandas as pd
import polars as pl
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from test_backend_views import same_view
from test_defaults import _SETTINGS, days_with_a_label, entities_over_time, hourly, results

from chartkit import View, view

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.datasets import DATASETS, dataset  # noqa: E402

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
    stand-in too), iris' do not (colors); each engine draws memory's chart and says so: a
    point per distinct (X, Y) pair when they fit max_points (anscombe's), else a heatmap."""
    from vega_datasets import data

    frame = pl.from_pandas(getattr(data, name)()[list(decl)])
    frame = pl.concat([frame] * (MIN_POINTS // len(frame) + 1))  # past the least max_points
    rows = frame.to_dicts()
    want = view(frame.to_pandas(), decl, max_points=MIN_POINTS)
    x, y = [n for n, t in decl.items() if t == "number"]
    pairs = len({(r[x], r[y]) for r in rows})
    assert (want.kind, want.mark) == ("chart", "point" if pairs <= MIN_POINTS else "rect")
    each_engine_draws_the_in_memory_default(rows, decl, MIN_POINTS)
    scatters = [a.picks() for a in want.alternatives if a.chart == "scatter"]
    if name == "anscombe":  # drawn apart, so the colored scatter is still an alternative
        assert {"x": "X", "y": "Y", "color": "Series"} in scatters


# --- roles: the corpus and generated tables ------------------------------------------------


def chosen(v: View) -> tuple[Any, ...]:
    """What a view opens on and offers: the kind, the mark, each channel's column, type,
    aggregate and measures, and the alternatives (chart, reason, picks)."""
    return (
        v.kind, v.mark,
        {c: (e.column, e.type, e.aggregate, e.measures) for c, e in v.encodings.items()},
        [(a.chart, a.reason, a.picks()) for a in v.alternatives],
    )  # fmt: skip


def each_engine_chooses_as_memory(
    rows: list[dict[str, Any]], decl: dict[str, Any], engine_rows: list[dict[str, Any]] | None
) -> None:
    """Memory's ``view()`` of ``rows`` and each engine's of ``engine_rows`` (the same rows as
    a typed column holds them: a null for a value that offends it) choose the same, at the
    default ``max_points`` and at the least."""
    frame = typed(engine_rows if engine_rows is not None else rows, decl)
    for max_points in dict.fromkeys((5000, MIN_POINTS)):
        want = chosen(view(rows, decl, max_points=max_points))
        for engine in ENGINES:
            got = chosen(view(holder(engine, frame), decl, max_points=max_points))
            assert got == want, (engine, max_points)


@pytest.mark.parametrize("name", DATASETS)
def test_every_engine_chooses_the_corpus_default_and_alternatives_as_memory(name: str) -> None:
    ds = dataset(name)
    each_engine_chooses_as_memory(ds.rows, ds.result_columns, None)


OFFENDERS = ("", "n/a", "12")


@st.composite
def role_tables(
    draw: st.DrawFn,
) -> tuple[list[dict[str, Any]], dict[str, Any], list[dict[str, Any]]]:
    """``(rows, declaration, engine rows)``, one of three tables roles are made of, some rows
    dropped, maybe one key repeated, maybe a null, maybe a stray value in a number column (a
    null in the engine's rows): a panel (entities over evenly spaced years: a line each), a
    contingency table (categories crossed, a count each: summed), two factors and a measure
    (rows repeated per combination: both factors drawn)."""
    r = random.Random(draw(st.integers(0, 2**32 - 1)))
    shape = draw(st.sampled_from(["panel", "contingency", "factors"]))
    firms = [f"f{i}" for i in range(draw(st.integers(2, 12)))]
    sides = ["left", "right", "up", "down"][: draw(st.integers(2, 4))]
    start, step = draw(st.sampled_from([(0, 1), (1950, 5), (1, 7), (2000, 1)]))
    years = [start + step * i for i in range(draw(st.integers(5, 14)))]
    decl: dict[str, Any]
    if shape == "panel":
        decl = {"firm": "string", "year": "number", "value": "number"}
        rows = [{"firm": f, "year": y, "value": r.gauss(50, 20)} for f in firms for y in years]
    elif shape == "contingency":
        decl = {"firm": "string", "side": "string", "kind": "string", "count": "number"}
        kinds = ["a", "b", "c", "d", "e"][: draw(st.integers(2, 5))]
        rows = [{"firm": f, "side": s, "kind": k, "count": r.randint(0, 900)}
                for f in firms for s in sides for k in kinds]  # fmt: skip
    else:
        decl = {"firm": "string", "side": "string", "value": "number"}
        rows = [{"firm": f, "side": s, "value": r.choice([r.gauss(50, 20), -0.0, 3.0])}
                for f in firms[:3] for s in sides for _ in range(r.randint(5, 12))]  # fmt: skip
    rows = [row for row in rows if r.random() < 0.9] or rows
    if draw(st.booleans()):
        rows.append(dict(r.choice(rows)))  # a key repeated: no longer a unique key
    if draw(st.booleans()):
        rows[r.randrange(len(rows))]["firm"] = None
        decl["firm"] = {"type": "string", "nullable": True}
    engine_rows = [dict(row) for row in rows]
    numbers = [c for c, d in decl.items() if d == "number"]
    if draw(st.booleans()):
        i, column = r.randrange(len(rows)), draw(st.sampled_from(numbers))
        rows[i][column] = draw(st.sampled_from(OFFENDERS))
        engine_rows[i][column] = None
    order = draw(st.permutations(list(decl)))
    return rows, {c: decl[c] for c in order}, engine_rows


@settings(_SETTINGS, max_examples=50)
@given(role_tables())
def test_every_engine_chooses_as_memory_over_generated_roles(
    result: tuple[list[dict[str, Any]], dict[str, Any], list[dict[str, Any]]],
) -> None:
    """A panel of entities over years, a contingency table of counts, two factors and a
    measure: each engine opens on memory's chart and offers its alternatives."""
    rows, decl, engine_rows = result
    each_engine_chooses_as_memory(rows, decl, engine_rows)


def test_a_duckdb_decimal_measure_chooses_as_memory_floats() -> None:
    """DuckDB holds ``12.5`` as a DECIMAL: its values are numbers, not whole ones — no count
    over the categories that key the rows (a weight), so the alternatives rank as memory's."""
    import decimal

    import pyarrow as pa

    rows = [
        {"region": f"r{i}", "kind": f"k{j}", "share": (i * 7 + j * 3) % 40 + 0.5}
        for i in range(10)
        for j in range(11)
    ]  # (110 rows: past the least max_points, the engine counts the facts)
    decl = {"region": "string", "kind": "string", "share": "number"}
    table = pa.table({
        "region": [r["region"] for r in rows], "kind": [r["kind"] for r in rows],
        "share": pa.array([decimal.Decimal(str(r["share"])) for r in rows], pa.decimal128(6, 1)),
    })  # fmt: skip
    for max_points in (5000, MIN_POINTS):
        want = chosen(view(rows, decl, max_points=max_points))
        assert chosen(view(duckdb.connect().from_arrow(table), decl, max_points=max_points)) == want
