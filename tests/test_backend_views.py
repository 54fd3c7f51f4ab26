"""The view contract: one result and declaration, every engine, the same chart as values.

Each case is a result (a seeded frame), its declaration and the ``view()`` picks, over
``max_points`` so the chart is computed where the rows live. Every engine family that holds the
rows — DuckDB, polars eager and lazy, pyarrow, Ibis — must answer it as the in-memory backend
(pandas) does, field by field: the kind, mark and reason; the encodings; the refusals
(column, channel, reason, the violation behind it); the alternatives; the check's violations
(counts and offenders); the marks (every drawn row, and their order along the axis); the rows
left out and the state a UI shows; the reduction (keys, bucket, bins, top-N); and the notes as
``Note`` values (kind, column, counts). A sentence is never compared by substring.

A comparison an engine does not pass yet is a strict xfail, listed in ``DRAWN_NOT_YET`` or
``NOTES_NOT_YET`` with why, that turns into a pass — and must then be unlisted — when it
lands. Both lists are empty: every engine answers every case as memory does, its notes as
values included (decide.py chooses and plans each chart from the counts and groups the
engine answers through the backend contract, ``backends.pushdown``).

Spark's view goes through the same engine path and is held in tests/test_spark.py (a Spark
session is slow to start); its backend answers are in tests/test_backends.py.
"""

from __future__ import annotations

import datetime as dt
import functools
import random
from collections.abc import Callable
from typing import Any

import duckdb
import numpy as np
import pandas as pd
import polars as pl
import pytest

from chartkit import View, view

ENGINES = ("duckdb", "polars", "polars lazy", "pyarrow", "ibis")


def holder(engine: str, df: pl.DataFrame) -> Any:
    """The engine's own frame of ``df``'s rows."""
    if engine == "duckdb":
        return duckdb.connect().from_arrow(df.to_arrow())
    if engine == "polars":
        return df
    if engine == "polars lazy":
        return df.lazy()
    if engine == "pyarrow":
        return df.to_arrow()
    ibis = pytest.importorskip("ibis")
    return ibis.memtable(df.to_arrow())


# --- the results --------------------------------------------------------------------------


def wide_frame(n: int = 3000) -> pl.DataFrame:
    """Every kind of column the rules read: two measures (one with nulls), a few-valued
    number, a date every 7 minutes, a nullable category, a small one and a 41-valued one."""
    rng = random.Random(5)
    start = dt.datetime(2024, 1, 1)
    return pl.DataFrame(
        {
            "at": [start + dt.timedelta(minutes=i * 7) for i in range(n)],
            "gb": [rng.gauss(100, 10) if i % 97 else None for i in range(n)],
            "iops": [rng.randint(0, 500) for _ in range(n)],
            "host": [rng.choice(["vdi-a", "vdi-b", "vdi-c", None]) for _ in range(n)],
            "site": [rng.choice(["n", "s"]) for _ in range(n)],
            "few": [rng.choice([1.0, 2.0, 3.5]) for _ in range(n)],
            "zone": [f"z{rng.randint(0, 40)}" for _ in range(n)],
        }
    )


WIDE = {
    "at": "date", "gb": "number", "iops": "number", "few": "number", "site": "string",
    "host": {"type": "string", "nullable": True}, "zone": "string",
}  # fmt: skip


def odd_frame(n: int = 3000) -> pl.DataFrame:
    """Columns that test the rules' edges: a Date, an aware time, a nullable boolean, an id, a
    15-valued and a 25-valued category, a nullable measure and a number with 9 values."""
    rng = random.Random(3)
    start = dt.datetime(2024, 1, 1)
    times = [start + dt.timedelta(minutes=i * 13) for i in range(n)]
    return pl.DataFrame(
        {
            "day": [(start + dt.timedelta(hours=i * 5)).date() for i in range(n)],
            "tz": pl.Series(times).dt.replace_time_zone("Europe/Paris"),
            "ok": [rng.choice([True, False, None]) for _ in range(n)],
            "gb": [rng.gauss(100, 10) for _ in range(n)],
            "v2": [None if i % 5 == 0 else float(i % 17) for i in range(n)],
            "id": [f"id{i}" for i in range(n)],
            "wide": [f"w{i % 15}" for i in range(n)],
            "huge": [f"h{i % 25}" for i in range(n)],
            "cnt": [i % 9 for i in range(n)],
        }
    )


ODD = {
    "day": "date", "tz": "date", "ok": {"type": "boolean", "nullable": True}, "gb": "number",
    "v2": {"type": "number", "nullable": True}, "id": "string", "wide": "string",
    "huge": "string", "cnt": "number",
}  # fmt: skip


def edge_frame(seed: int) -> pl.DataFrame:
    """Numbers on the very edges of their bins (numpy's rule: an edge opens the next bin, the
    highest closes the last), with the span's ends held by two rows."""
    rng = random.Random(seed)
    lo, hi = rng.uniform(-1e3, 0), rng.uniform(1, 1e3)
    edges = [*np.linspace(lo, hi, 11), *np.linspace(lo, hi, 32 if seed else 11)]
    a = [rng.choice(edges) if rng.random() < 0.5 else rng.uniform(lo, hi) for _ in range(3000)]
    b = [rng.choice(edges) if rng.random() < 0.5 else rng.uniform(lo, hi) for _ in range(3000)]
    return pl.DataFrame({"a": [lo, hi, *a], "b": [hi, lo, *b]})


EDGES = {"a": "number", "b": "number"}


def span_frame(n: int = 300) -> pl.DataFrame:
    """Two measures, one spanning six powers of ten (all above zero), under max_points: a
    scatter drawn from every row, its wide axis on a log scale."""
    rng = random.Random(9)
    return pl.DataFrame(
        {
            "dose": [10 ** rng.uniform(-3, 3) for _ in range(n)],
            "gb": [rng.gauss(100, 10) for _ in range(n)],
        }
    )


def label_frame(n: int = 6000) -> pl.DataFrame:
    """An hourly temperature (none every 37th hour) and the hour's weather, snow only in
    January and February: a label of single rows, found at too few of the line's points even
    per bucket."""
    rng = random.Random(1)
    start = dt.datetime(2024, 1, 1)
    at = [start + dt.timedelta(hours=i) for i in range(n)]
    return pl.DataFrame(
        {
            "at": at,
            "temp": [rng.gauss(10, 5) if i % 37 else None for i in range(n)],
            "weather": [
                "snow" if t.month < 3 and rng.random() < 0.3 else rng.choice(["sun", "rain"])
                for t in at
            ],
            "site": [rng.choice(["n", "s"]) for _ in range(n)],
        }
    )


LABELS = {
    "at": "date", "temp": {"type": "number", "nullable": True}, "weather": "string",
    "site": "string",
}  # fmt: skip


RESULTS: dict[str, tuple[Callable[[], pl.DataFrame], dict[str, Any], int]] = {
    "wide": (wide_frame, WIDE, 1000),
    "odd": (odd_frame, ODD, 500),
    "edges 0": (lambda: edge_frame(0), EDGES, 100),
    "edges 1": (lambda: edge_frame(1), EDGES, 961),
    "edges 2": (lambda: edge_frame(2), EDGES, 961),
    "spans": (span_frame, {"dose": "number", "gb": "number"}, 1000),
    "labels": (label_frame, LABELS, 1000),
    # the automatic chart's opening (choose.opening): a line faceted by a 15-valued category;
    # rows counted with no measure; two measures with an aggregate picked
    "15 facets": (lambda: odd_frame().select("tz", "gb", "wide"),
                  {"tz": "date", "gb": "number", "wide": "string"}, 500),
    "no measure": (lambda: wide_frame().select("at", "site"),
                   {"at": "date", "site": "string"}, 1000),
    "a date alone": (lambda: wide_frame().select("at"), {"at": "date"}, 1000),
    "numbers alone": (lambda: wide_frame().select("iops", "gb"),
                      {"iops": "number", "gb": {"type": "number", "nullable": True}}, 1000),
    "two measures": (lambda: wide_frame().select("gb", "iops", "site"),
                     {"gb": "number", "iops": "number", "site": "string"}, 1000),
    "sparse labels": (lambda: label_frame().with_columns(
        pl.when(pl.int_range(pl.len()) % 7 == 0).then(pl.col("temp")).alias("temp")
    ), LABELS, 1000),
    # two categories, but only one holds a value of the measure: its bars would be one bar
    "one bar holds a value": (lambda: pl.DataFrame({
        "k": ["a"] * 1500 + ["b"] * 1500,
        "v": [float(i % 97) for i in range(1500)] + [None] * 1500,
    }), {"k": "string", "v": {"type": "number", "nullable": True}}, 1000),
    # an identifier beside two numbers: the default heatmap notes it is not put on an axis
    "ids and numbers": (lambda: pl.DataFrame({
        "id": [f"host-{i:05d}" for i in range(3000)],
        "a": [float((i * 37) % 101) for i in range(3000)],
        "b": [float((i * 53) % 89) for i in range(3000)],
    }), {"id": "string", "a": "number", "b": "number"}, 1000),
    # two measures, each missing a value in its own rows: bars of both leave out the rows
    # holding neither, and the caption names both
    "two nullable measures": (lambda: pl.DataFrame({
        "k": [("n", "s", "e")[i % 3] for i in range(3000)],
        "a": [None if i % 5 == 0 else float(i % 17) for i in range(3000)],
        "b": [None if i % 7 == 0 else float(i % 23) for i in range(3000)],
    }), {"k": "string", "a": {"type": "number", "nullable": True},
         "b": {"type": "number", "nullable": True}}, 1000),
    # a category of one row each, its values tied in sevens, in shuffled row order: the top
    # 30 bars and their order are the same wherever the rows live (ties in category order)
    "tied bars": (lambda: pl.DataFrame({
        "k": (cats := random.Random(3).sample([f"c{i:03d}" for i in range(150)], 150)),
        "v": [float(int(c[1:]) % 7) for c in cats],
    }), {"k": "string", "v": "number"}, 100),
    # a color declared not nullable that holds nulls (offenders), beside a nullable measure:
    # its offenders are left out first, then the rows holding no value, wherever rows live
    "a color with offenders": (lambda: pl.DataFrame({
        "a": [float((i * 37) % 101) if i % 4 == 0 else None for i in range(400)],
        "a8": [float((i * 37) % 101) if i % 8 else None for i in range(400)],
        "b": [float((i * 53) % 89) for i in range(400)],
        "c": [None if i % 5 == 0 else ("x", "y")[i % 2] for i in range(400)],
        "at": [dt.datetime(2024, 1, 1) + dt.timedelta(hours=i) for i in range(400)],
        "t": [float(i % 13) if i % 5 == 2 else None for i in range(400)],
    }), {"a": {"type": "number", "nullable": True}, "a8": {"type": "number", "nullable": True},
         "b": "number", "c": "string", "at": "date",
         "t": {"type": "number", "nullable": True}}, 100),
    # only one row holds both numbers: the automatic scatter is one point, passed over for
    # the bars of the category (the rows the scatter fetched are not what the chart draws)
    "one shared point": (lambda: pl.DataFrame({
        "a": [float(i % 11) if i <= 150 else None for i in range(300)],
        "b": [float(i % 7) if i >= 150 else None for i in range(300)],
        "k": [("x", "y", "z")[i % 3] for i in range(300)],
    }), {"a": {"type": "number", "nullable": True}, "b": {"type": "number", "nullable": True},
         "k": "string"}, 100),
    # offenders, gaps and infinities in every kind of column, for the rows a chart places:
    # a number or date as a scatter's color, a column on two channels, several measures
    "mixed": (lambda: pl.DataFrame({
        "t": [None if i % 13 == 0 else dt.datetime(2024, 1, 1) + dt.timedelta(hours=i)
              for i in range(400)],
        "a": [None if i % 7 == 0 else float("inf") if i % 31 == 0 else float(i % 23)
              for i in range(400)],
        "b": [None if i % 5 == 0 else float((i * 7) % 41) for i in range(400)],
        "c": [None if i % 11 == 0 else float((i * 3) % 17) for i in range(400)],
        "n": [None if i % 9 == 0 else float("inf") if i % 29 == 0 else float(i % 5)
              for i in range(400)],
    }), {"t": {"type": "date", "nullable": True}, "a": "number",
         "b": {"type": "number", "nullable": True}, "c": "number",
         "n": {"type": "number", "nullable": True}}, 100),
}

# every chart kind and option the planner draws, and the rules' edges: (result, picks)
CASES: dict[str, tuple[str, dict[str, Any]]] = {
    "automatic line, colored": ("wide", {}),
    "line of the max": ("wide", {"x": "at", "aggregate": "max"}),
    "line per week, summed": ("wide", {"x": "at", "time_unit": "week", "aggregate": "sum"}),
    "line per month": ("wide", {"x": "at", "time_unit": "month"}),
    "line per day, colored": ("wide", {"x": "at", "time_unit": "day", "color": "site"}),
    "line counting rows": ("wide", {"x": "at", "aggregate": "count"}),
    "rows counted over a picked y": ("wide", {"x": "at", "y": "gb", "aggregate": "count"}),
    "a measure alone, over the first date": ("wide", {"y": "iops"}),
    "a color that is the facet too": ("wide", {"x": "at", "color": "site", "facet": "site"}),
    "lines of two measures": ("wide", {"x": "at", "y": ["gb", "iops"]}),
    "faceted lines": ("wide", {"x": "at", "facet": "site"}),
    "bars of the mean": ("wide", {"x": "host"}),
    "bars of the median, top 30": ("wide", {"x": "zone", "aggregate": "median"}),
    "bars sorted by category": ("wide", {"x": "zone", "sort": "x"}),
    "count bars, top 30": ("wide", {"x": "zone", "aggregate": "count"}),
    "count bars, ascending": ("wide", {"x": "zone", "aggregate": "count", "sort": "y"}),
    "faceted count bars": ("wide", {"x": "host", "facet": "site", "aggregate": "count"}),
    "bars of two measures": ("wide", {"x": "host", "y": ["gb", "iops"], "aggregate": "min"}),
    "histogram": ("wide", {"x": "gb"}),
    "count bars of a number": ("wide", {"x": "few"}),
    "heatmap": ("wide", {"x": "gb", "y": "iops"}),
    "an alternative": ("wide", {"choose": 2}),
    "bars per boolean": ("odd", {"x": "ok"}),
    "bars per identifier": ("odd", {"x": "id"}),
    "15 colors become facets": ("odd", {"x": "tz", "color": "wide"}),
    "25 colors are refused": ("odd", {"x": "tz", "color": "huge"}),
    "25 facets are refused": ("odd", {"x": "tz", "facet": "huge"}),
    "a number as color is refused": ("odd", {"x": "tz", "color": "cnt"}),
    "a Date per week": ("odd", {"x": "day", "time_unit": "week"}),
    "an aware time per day": ("odd", {"x": "tz", "time_unit": "day"}),
    "an aware time per month": ("odd", {"x": "tz", "time_unit": "month"}),
    "a nullable measure beside another": ("odd", {"x": "day", "y": ["gb", "v2"],
                                                  "aggregate": "sum"}),
    "a scatter refuses a second y": ("odd", {"x": "gb", "y": ["v2", "cnt"]}),
    "rows counted, automatic": ("odd", {"aggregate": "count"}),
    "a listed sort": ("odd", {"x": "wide", "sort": ["w3", "w1", "zz"]}),
    "a log scale refused": ("odd", {"x": "wide", "scale": "log", "aggregate": "min"}),
    "a facet of a nullable boolean": ("odd", {"x": "wide", "facet": "ok"}),
    "a far alternative": ("odd", {"choose": 5}),
    "a heatmap on bin edges": ("edges 0", {"x": "a", "y": "b"}),
    "a histogram on bin edges": ("edges 0", {"x": "a"}),
    "a heatmap of 31 bins on bin edges": ("edges 1", {"x": "a", "y": "b"}),
    "a histogram of many bins on bin edges": ("edges 1", {"x": "a"}),
    "a heatmap of 31 bins on other edges": ("edges 2", {"x": "a", "y": "b"}),
    "a histogram on other edges": ("edges 2", {"x": "a"}),
    "a scatter on a log scale": ("spans", {"x": "dose", "y": "gb"}),
    "a label's rows counted per bucket": ("labels", {}),
    "a label's rows counted per day": ("labels", {"x": "at", "time_unit": "day"}),
    "a label's rows counted, faceted": ("labels", {"x": "at", "color": "weather",
                                                   "facet": "site"}),
    "a label's rows, counted as asked": ("labels", {"x": "at", "color": "weather",
                                                    "aggregate": "count"}),
    "a series, not a label": ("labels", {"x": "at", "color": "site"}),
    "an automatic line, faceted": ("15 facets", {}),
    "rows counted, no measure": ("no measure", {"aggregate": "count"}),
    "rows counted over a date alone": ("a date alone", {"aggregate": "count"}),
    "rows counted over numbers alone": ("numbers alone", {"aggregate": "count"}),
    "rows counted over a y alone": ("numbers alone", {"y": "gb", "aggregate": "count"}),
    "a y alone over another number": ("numbers alone", {"y": "gb"}),
    "rows counted over a number x": ("numbers alone", {"x": "iops", "y": "gb",
                                                       "aggregate": "count"}),
    "two measures summed, automatic": ("two measures", {"aggregate": "sum"}),
    "a label of the rows that fit": ("sparse labels", {}),
    "a label of the rows that fit, counted": ("sparse labels", {"x": "at",
                                                               "aggregate": "count",
                                                               "color": "weather"}),
    "a series of the rows that fit": ("sparse labels", {"x": "at", "color": "site"}),
    # the automatic chart passes over a chart of a single mark, counted where the rows live
    "a single bar passed over": ("one bar holds a value", {}),
    "a heatmap beside an identifier": ("ids and numbers", {}),
    "bars of two nullable measures": ("two nullable measures", {"x": "k", "y": ["a", "b"]}),
    "tied bars, top 30": ("tied bars", {"x": "k"}),
    "points beside a color's offenders": ("a color with offenders", {"x": "a", "y": "b",
                                                                     "color": "c"}),
    "a heatmap beside a color's offenders": ("a color with offenders", {"x": "a8", "y": "b",
                                                                        "color": "c"}),
    "a label's points beside its offenders": ("a color with offenders", {"x": "at", "y": "t",
                                                                         "color": "c"}),
    "a single point passed over": ("one shared point", {}),
    "tied bars, ascending": ("tied bars", {"x": "k", "sort": "y"}),
    # a number picked as both x and y: its histogram (an engine failed: "binned twice")
    "y is x: its histogram": ("wide", {"x": "gb", "y": "gb"}),
    "y is x, beside another y": ("wide", {"x": "gb", "y": ["gb", "iops"]}),
    # a color that is a number or a date places its rows as an axis does (its gaps and
    # infinities left out first, as memory cleans them)
    "a number as a scatter's color": ("mixed", {"x": "b", "y": "c", "color": "n"}),
    "a date as a scatter's color": ("mixed", {"x": "b", "y": "n", "color": "t"}),
    # a column on x and as color: its offenders said once
    "x as color, with offenders": ("mixed", {"x": "c", "y": "b", "color": "c"}),
    # several measures: the rows holding no time are counted among those no measure's
    # offenders or infinities left out first
    "several measures beside offenders": ("mixed", {"x": "t", "y": ["b", "c", "a"]}),
    # the category on x picked as facet too: refused (an engine failed on the duplicate key)
    "a facet that is x": ("wide", {"x": "host", "facet": "host"}),
}  # fmt: skip


@functools.cache
def frame_of(result: str) -> pl.DataFrame:
    return RESULTS[result][0]()


@functools.cache
def in_memory(case: str) -> View:
    """The in-memory answer to a case: the view of the same rows as a pandas frame."""
    result, picks = CASES[case]
    _, decl, max_points = RESULTS[result]
    v = view(frame_of(result).to_pandas(), decl, max_points=max_points, **picks)
    assert v.kind == "chart", case
    return v


@functools.cache
def in_engine(case: str, engine: str) -> View:
    result, picks = CASES[case]
    _, decl, max_points = RESULTS[result]
    return view(holder(engine, frame_of(result)), decl, max_points=max_points, **picks)


# --- the answers, as values ---------------------------------------------------------------


def chart_rows(v: View, fields: tuple[str, ...]) -> list[tuple[Any, ...]]:
    """The chart's data rows as (field, …) tuples, numbers rounded, in a stable order."""
    assert v.spec is not None
    (values,) = v.spec["datasets"].values()
    out = [
        tuple(float(f"{r[f]:.12g}") if isinstance(r[f], float) else r[f] for f in fields)
        for r in values
    ]
    return sorted(out, key=repr)


def drawn(v: View) -> dict[str, Any]:
    """What a view draws, as values: every field a UI, an export or a test reads."""
    assert v.spec is not None
    (rows,) = v.spec["datasets"].values()
    fields = tuple(sorted(rows[0]))
    axis = next(e.field for c, e in v.encodings.items() if c in ("x", "y") and e.aggregate is None)
    return {
        "kind": v.kind,
        "mark": v.mark,
        "reason": v.reason,
        "encodings": dict(v.encodings),
        "refusals": [(r.column, r.channel, r.reason, r.violation) for r in v.refusals],
        "alternatives": [a.to_dict() for a in v.alternatives],
        "violations": [x.to_dict() for x in v.check.violations],
        "state": v.state,
        "left_out": v.left_out,
        "fields": fields,
        "rows": chart_rows(v, fields),
        "order": list(dict.fromkeys(r[axis] for r in rows)),  # categories, bins, times
    }


def same_view(want: View, got: View) -> None:
    """``got`` draws what ``want`` draws (``drawn``), and says every sentence ``want`` says of
    its chart, but for the rows left out and the rows holding no value (said in an engine's
    words; their counts are values, in ``drawn`` and ``noted``)."""
    assert drawn(got) == drawn(want)
    engine_words = {n.sentence for n in want.facts if n.kind in ("left-out", "no-value")}
    assert set(want.notes) - engine_words <= set(got.notes)


def noted(v: View) -> dict[str, Any]:
    """What a view says of its rows, as values: each note's kind, column and counts, and the
    reduction behind the marks."""
    return {
        "facts": [(n.kind, n.column, n.counts) for n in v.facts],
        "reduction": v.reduction,
    }


# Bugs these contracts find in the engine view (backends.pushdown), (case, engine) → why.
# Each is a strict xfail: when it passes, remove it here.
DRAWN_NOT_YET: dict[tuple[str, str], str] = {}

# Cases whose notes as values (View.facts: kind, column, counts) are not yet the in-memory
# path's on every engine; each a strict xfail, removed when it passes.
NOTES_NOT_YET: frozenset[str] = frozenset()


def xfail(reason: str | None) -> list[Any]:
    return [pytest.mark.xfail(strict=True, reason=reason)] if reason else []


def pairs() -> list[Any]:
    return [
        pytest.param(
            case, engine, id=f"{case}-{engine}", marks=xfail(DRAWN_NOT_YET.get((case, engine)))
        )
        for case in CASES
        for engine in ENGINES
    ]

NOTES_REASON = "the engine view does not note these rows as memory does (NOTES_NOT_YET)"


@pytest.mark.parametrize(("case", "engine"), pairs())
def test_every_engine_draws_the_in_memory_chart(case: str, engine: str) -> None:
    """Kind, mark, reason, encodings, refusals, alternatives, the check's offenders, every
    drawn row and its order, the rows left out and the state: the in-memory answer's."""
    want, got = in_memory(case), in_engine(case, engine)
    same_view(want, got)
    assert got.frame is not None
    if engine == "pyarrow" and CASES[case][1].get("aggregate") == "median":
        # pyarrow computes no exact median (narwhals' is approximate): its rows are drawn in
        # memory, and the chart is still the in-memory one
        assert len(got.frame) == len(frame_of(CASES[case][0]))
    else:
        assert len(got.frame) <= 1000  # only the answer (or a stand-in of it) left the engine


@pytest.mark.parametrize(
    "case",
    [pytest.param(c, marks=xfail(NOTES_REASON if c in NOTES_NOT_YET else None)) for c in CASES],
)
def test_every_engine_notes_the_rows_as_memory_does(case: str) -> None:
    """The notes as values (kind, column, counts) and the reduction: the in-memory answer's,
    on every engine; and so the caption an export carries on its image (the rows left out, of
    how many, and why; the categories a top-N leaves out)."""
    memory = in_memory(case)
    want = noted(memory)
    for engine in ENGINES:
        got = in_engine(case, engine)
        assert noted(got) == want, engine
        assert got.caption == memory.caption, engine
        said = [n.sentence for n in got.facts]  # the notes say the facts, in the facts' order
        assert [s for s in got.notes if s in said] == said, engine


@pytest.mark.parametrize(
    ("lo", "hi"), [(0.0, 5e-324), (-5e-324, 2.2250738585e-311), (0.0, 2.2250738585e-311)]
)
def test_a_heatmap_of_a_subnormal_span_is_memory_s_on_every_engine(lo: float, hi: float) -> None:
    """Measures a few subnormal floats apart, past max_points: numpy's histogram2d keeps its 10
    bins where np.histogram refuses them (0 to 5e-324 cannot space them apart), and every
    engine bins as it does (it raised 'Too many bins for data range' before). Their four
    distinct pairs fit max_points: a point each, sized by its rows, counted alike."""
    n = 600
    frame = pl.DataFrame(
        {"x": [lo if i % 7 else hi for i in range(n)], "y": [hi if i % 5 else lo for i in range(n)]}
    )
    decl = {"x": "number", "y": "number"}
    want = view(frame.to_pandas(), decl, max_points=100, x="x", y="y")
    assert (want.kind, want.mark) == ("chart", "point")
    for engine in ENGINES:
        same_view(want, view(holder(engine, frame), decl, max_points=100, x="x", y="y"))


def gappy_frame(n: int = 3000, *, nan: bool = False) -> pl.DataFrame:
    """A nullable measure holding no value in every tenth row (with ``nan``, NaN in every
    seventh too), a nullable date in every 13th."""
    start = dt.datetime(2024, 1, 1)

    def v(i: int) -> float | None:
        return None if i % 10 == 0 else float("nan") if nan and i % 7 == 0 else float(i % 17)

    return pl.DataFrame(
        {
            "t": [None if i % 13 == 0 else start + dt.timedelta(minutes=i) for i in range(n)],
            "g": [f"g{i % 3}" for i in range(n)],
            "v": [v(i) for i in range(n)],
            "w": [None if i % 4 == 0 else float(i % 7) for i in range(n)],
        }
    )


GAPPY = {
    "t": {"type": "date", "nullable": True}, "g": "string",
    "v": {"type": "number", "nullable": True}, "w": {"type": "number", "nullable": True},
}  # fmt: skip


@pytest.mark.parametrize(
    "picks",
    [{}, {"x": "g", "y": "v"}, {"x": "g", "y": "v", "aggregate": "sum"}, {"x": "v"},
     {"x": "t", "aggregate": "count"}, {"x": "g", "aggregate": "count"},
     {"x": "t", "y": ["v", "w"]}, {"x": "g", "y": ["v", "w"]}],
    ids=["line", "bars", "bars of the sum", "histogram", "rows counted over time",
         "count bars", "lines of two measures, some rows holding neither",
         "bars of two measures, some rows holding one"],
)  # fmt: skip
def test_the_rows_holding_no_value_are_said_on_every_engine_as_in_memory(
    picks: dict[str, Any],
) -> None:
    """A line, bars and a histogram over a nullable measure (and a nullable date), and lines
    of two nullable measures (a row holding neither has no point): every engine says the rows
    holding no value on an axis, counted as memory counts them, and leaves out as many (they
    were dropped with no word before, but for the heatmap; in memory too, for two measures)."""
    frame = gappy_frame()
    want = view(frame.to_pandas(), GAPPY, max_points=100, **picks)
    assert want.kind == "chart"
    for engine in ENGINES:
        got = view(holder(engine, frame), GAPPY, max_points=100, **picks)
        assert noted(got) == noted(want), engine
        assert (got.left_out, got.state) == (want.left_out, want.state), engine


@pytest.mark.parametrize("picks", [{"x": "t", "y": "v"}, {"x": "g", "y": "v"}, {"x": "v"}],
                         ids=["line", "bars", "histogram"])  # fmt: skip
def test_a_nan_is_no_value_on_every_engine_as_in_memory(picks: dict[str, Any]) -> None:
    """NaN in a nullable measure is no value, as a null is: said and counted alike on every
    engine (engines counted only the nulls before, and said 300 rows where memory said 686)."""
    frame = gappy_frame(nan=True)
    want = view(frame.to_pandas(), GAPPY, max_points=100, **picks)
    v = frame["v"]
    gone = int((v.is_null() | v.is_nan().fill_null(False)).sum())
    sentence = f"{gone:,} rows hold no value in v and are not drawn."
    if "t" in picks.values():
        both = int(((v.is_null() | v.is_nan().fill_null(False)) | frame["t"].is_null()).sum())
        sentence = f"{both:,} rows hold no value in t and v and are not drawn."
    assert sentence in want.notes
    for engine in ENGINES:
        got = view(holder(engine, frame), GAPPY, max_points=100, **picks)
        assert sentence in got.notes, engine
        assert noted(got) == noted(want), engine
        assert (got.left_out, got.state) == (want.left_out, want.state), engine


def test_bars_of_more_categories_than_max_points_are_cut_in_the_engine_as_memory_draws() -> None:
    """More categories than ``max_points``: the engine keeps the highest (cut where the rows
    live, through ``Backend.reduce``'s top) and the chart shows memory's top bars of them,
    with the categories and rows every group holds."""
    rng = random.Random(5)
    frame = pl.DataFrame({
        "tag": [f"t{rng.randrange(400):03d}" for _ in range(3000)],
        "gb": [None if i % 9 == 0 else float(rng.randrange(1000)) for i in range(3000)],
    })  # fmt: skip
    decl = {"tag": "string", "gb": {"type": "number", "nullable": True}}
    want = view(frame.to_pandas(), decl, max_points=100, x="tag", y="gb", aggregate="sum")
    assert want.mark == "bar"
    for engine in ENGINES:
        got = view(holder(engine, frame), decl, max_points=100, x="tag", y="gb", aggregate="sum")
        same_view(want, got)
        assert noted(got) == noted(want), engine
        assert (got.left_out, got.state) == (want.left_out, want.state), engine
        assert "only the 100 highest left the engine" in " ".join(got.notes), engine


def test_bars_of_two_measures_are_counted_as_drawn_on_every_engine() -> None:
    """Three categories and two measures are six bars, as the chart draws them (engines
    said three: one per category)."""
    frame = gappy_frame()
    want = view(frame.to_pandas(), GAPPY, max_points=100, x="g", y=["v", "w"])
    (values,) = want.spec["datasets"].values() if want.spec else ({},)
    assert len(values) == 6
    for engine in ENGINES:
        got = view(holder(engine, frame), GAPPY, max_points=100, x="g", y=["v", "w"])
        assert (
            f"rows are drawn as 6 bars, computed in {engine.split()[0]}: the mean of v and w per g"
        ) in " ".join(got.notes), (engine, got.notes)


def test_a_label_counted_over_time_is_said_as_stacked_bars_on_every_engine() -> None:
    """The rows of a label counted per bucket are stacked bars, and the engine's note says
    so (it said they were drawn as points: one per bucket and label)."""
    want = in_memory("a label's rows counted per day")
    assert want.mark == "bar" and want.spec is not None
    bars = len({r[want.encodings["x"].field] for r in next(iter(want.spec["datasets"].values()))})
    for engine in ENGINES:
        got = in_engine("a label's rows counted per day", engine)
        said = [n for n in got.notes if f"computed in {engine.split()[0]}" in n]
        assert len(said) == 1 and f"rows are counted in {bars:,} stacked bars" in said[0], said
        assert "points" not in said[0], said


def test_a_row_holding_none_of_a_lines_measures_is_said_and_left_out() -> None:
    """Lines of two nullable measures draw a point for each measure a row holds; a row holding
    neither is drawn nowhere, said (it was left out with no word in memory) and counted as
    left out — as every engine says it (above)."""
    frame = gappy_frame().to_pandas()
    v = view(frame, GAPPY, max_points=100, x="t", y=["v", "w"])
    neither = int((frame["t"].notna() & frame["v"].isna() & frame["w"].isna()).sum())
    assert neither == 138  # (and 231 rows hold no time)
    no_value = [n for n in v.facts if n.kind == "no-value"]
    assert [(n.column, n.counts) for n in no_value] == [("t", (("rows", 231 + neither),))]
    assert no_value[0].sentence == "369 rows hold no value in t, v and w and are not drawn."
    assert v.left_out == 369


def infinite_frame(n: int = 3000) -> pl.DataFrame:
    """Two measures holding infinities (the first one negative) beside a date and a category."""
    inf = float("inf")
    start = dt.datetime(2024, 1, 1)
    return pl.DataFrame(
        {
            "t": [start + dt.timedelta(minutes=i) for i in range(n)],
            "g": [f"g{i % 9}" for i in range(n)],
            "v": [
                (-inf if i % 50 == 3 else inf) if i % 25 == 3 else float(i % 17) for i in range(n)
            ],
            "w": [inf if i % 40 == 1 else float(i % 5) for i in range(n)],
        }
    )


@pytest.mark.parametrize(
    "picks",
    [{}, {"x": "g", "y": "v"}, {"x": "v"}, {"x": "t", "y": ["v", "w"]}, {"x": "v", "y": "w"}],
    ids=["line", "bars", "histogram", "two measures", "heatmap"],
)
def test_infinite_numbers_are_said_on_every_engine_as_in_memory(picks: dict[str, Any]) -> None:
    """An infinite number has no place on an axis: every engine leaves its rows out and says
    so as memory does — how many, the first one, which axis — instead of dropping them with
    no word; the sentences are memory's, word for word."""
    frame = infinite_frame()
    decl = {"t": "date", "g": "string", "v": "number", "w": "number"}
    want = view(frame.to_pandas(), decl, max_points=100, **picks)
    said = [n.sentence for n in want.facts if n.kind == "unplaced"]
    assert said[0] == (
        "120 rows hold a number no chart can place (infinite or too large) in v (first: -inf) "
        "and are left out of the " + ("x" if picks.get("x") == "v" else "y") + " axis. Nothing "
        "was converted."
    )
    for engine in ENGINES:
        got = view(holder(engine, frame), decl, max_points=100, **picks)
        assert noted(got) == noted(want), engine
        assert [n.sentence for n in got.facts if n.kind == "unplaced"] == said, engine
        assert (got.left_out, got.state) == (want.left_out, want.state), engine


@pytest.mark.parametrize("values", [3, 16, 25])
def test_a_heatmap_s_picked_color_is_judged_by_its_own_values_on_every_engine(
    values: int,
) -> None:
    """A heatmap past max_points with a picked color of 3, 16 (past ten: small charts instead)
    or 25 values (refused): every engine says what memory says of it, judged by the color's
    values counted in the engine — not by the two made-up groups of the stand-in the engine
    path plans (which said nothing of 16 colors before)."""
    frame = pl.DataFrame(
        {
            "g": [f"g{i % values}" for i in range(400)],
            "x": [float(i % 13) for i in range(400)],
            "y": [float(i * 7 % 11) for i in range(400)],
        }
    )
    decl = {"g": "string", "x": "number", "y": "number"}
    want = view(frame.to_pandas(), decl, max_points=100, x="x", y="y", color="g")
    assert want.mark == "rect"
    for engine in ENGINES:
        got = view(holder(engine, frame), decl, max_points=100, x="x", y="y", color="g")
        assert (got.reason, noted(got)) == (want.reason, noted(want)), engine
        assert [r.reason for r in got.refusals] == [r.reason for r in want.refusals], engine


@pytest.mark.parametrize("engine", ENGINES)
def test_what_left_the_engine_is_what_the_chart_drew_not_a_chart_passed_over(
    engine: str,
) -> None:
    """The automatic scatter holds one point (fetched to be planned) and is passed over for
    bars: the View's frame is the bars' groups that left the engine, and the engine says how
    many rows they stand for — not the one row of the chart passed over."""
    v = in_engine("a single point passed over", engine)
    assert v.mark == "bar" and v.frame is not None
    assert (list(v.frame.columns), len(v.frame)) == (["k", "a"], 3)
    named = engine.removesuffix(" lazy")  # (the engine names itself polars, lazy or not)
    assert v.notes[-1] == (
        f"151 rows are drawn as 3 bars, computed in {named}: the mean of a per k; only these "
        "rows left the engine."
    )


# --- results no chart can draw: the same table, for the same reason ----------------------

_N = 300
_KEYS = [f"k{i % 7}" for i in range(_N)]
_HOURS = pd.date_range("2024-01-01", periods=_N, freq="h", tz="UTC")
TABLES: dict[str, tuple[pd.DataFrame, dict[str, str]]] = {
    "categories only": (
        pd.DataFrame({"a": _KEYS, "b": [f"z{i % 3}" for i in range(_N)]}),
        {"a": "string", "b": "string"},
    ),
    "a date alone": (pd.DataFrame({"t": _HOURS}), {"t": "date"}),
    "a measure the check refused": (
        pd.DataFrame({"a": _KEYS, "v": ["n/a"] * _N}), {"a": "string", "v": "number"}
    ),
    "a refused measure beside a date": (
        pd.DataFrame({"t": _HOURS, "v": ["n/a"] * _N}), {"t": "date", "v": "number"}
    ),
    "numbers in quotes": (
        pd.DataFrame({"a": _KEYS, "v": [str(i) for i in range(_N)]}),
        {"a": "string", "v": "number"},
    ),
}  # fmt: skip


@pytest.mark.parametrize("case", TABLES)
def test_a_result_with_no_usable_measure_is_the_same_table_on_every_engine(case: str) -> None:
    """No measure, or none the check lets through: every engine answers decide.py's table and
    its reason (the refused measures and why, then the other columns' types)."""
    frame, decl = TABLES[case]
    want = view(frame, decl, max_points=100)
    assert want.kind == "table"
    for engine in ENGINES:
        got = view(holder(engine, pl.from_pandas(frame)), decl, max_points=100)
        assert (got.kind, got.reason) == ("table", want.reason), engine


@pytest.mark.parametrize("extra", [{}, {"g": "string"}])
def test_a_result_of_a_single_mark_is_the_same_table_on_every_engine(
    extra: dict[str, str],
) -> None:
    """Two constant measures past max_points (and a category of one value): every chart would
    hold a single mark, so every engine answers memory's table, whose reason names the chart
    memory tried first — the cheapest, bars counting the rows of a's one value."""
    frame = pd.DataFrame({"a": [1.0] * _N, "b": [2.0] * _N, "g": ["x"] * _N})[["a", "b", *extra]]
    decl = {"a": "number", "b": "number", **extra}
    want = view(frame, decl, max_points=100)
    assert (want.kind, want.reason) == (
        "table",
        "a is declared number, with 1 distinct value: a bar counting the rows of each — but "
        "that chart would hold a single mark, and so would every other chart its declared types "
        "allow; a single mark is not a chart, so the rows are shown as a table.",
    )
    for engine in ENGINES:
        got = view(holder(engine, pl.from_pandas(frame)), decl, max_points=100)
        assert (got.kind, got.reason) == ("table", want.reason), engine


@pytest.mark.parametrize("aggregate", ["sum", "median"])
def test_an_aggregate_picked_with_no_measure_is_memory_s_table_on_every_engine(
    aggregate: str,
) -> None:
    """No measure, and an aggregate other than count picked: no rule opens (choose.opening),
    so every engine answers memory's table, not bars counting the rows."""
    frame, decl = TABLES["categories only"]
    want = view(frame, decl, max_points=100, aggregate=aggregate)
    assert (want.kind, want.reason) == (
        "table", "No column is declared number: a is string, b is string.",
    )  # fmt: skip
    for engine in ENGINES:
        got = view(holder(engine, pl.from_pandas(frame)), decl, max_points=100,
                   aggregate=aggregate)  # fmt: skip
        assert (got.kind, got.reason) == ("table", want.reason), engine


def test_the_no_measure_reasons_in_full() -> None:
    said = {
        case: view(holder("duckdb", pl.from_pandas(frame)), decl, max_points=100).reason
        for case, (frame, decl) in TABLES.items()
    }
    assert said == {
        "categories only": "No column is declared number: a is string, b is string.",
        "a date alone": "No column is declared number: t is date.",
        "a measure the check refused": "No usable column is declared number: v is declared "
        "number but no row can be drawn (see the refusals); a is string.",
        "a refused measure beside a date": "No usable column is declared number: v is declared "
        "number but no row can be drawn (see the refusals); t is date.",
        "numbers in quotes": "No usable column is declared number: v is declared number but "
        "every row holds a number in quotes (the tool quotes its numbers); a is string.",
    }


@pytest.mark.parametrize(
    ("sort", "domain"),
    [(None, [None, "a", "b", "c"]), ("y", ["c", "b", "a", None]), ("x", ["a", "b", "c", None])],
)
def test_the_missing_category_is_ranked_by_its_rows_on_every_engine(
    sort: str | None, domain: list[Any]
) -> None:
    """A nullable category whose missing value holds the most rows: its bar is drawn where its
    count ranks it (first, by default), not last — a sort array holds no null, so the order is
    the band scale's domain — and last by category; in memory and on every engine."""
    frame = pd.DataFrame({"city": [None] * 150 + ["a"] * 90 + ["b"] * 30 + ["c"] * 15})
    decl = {"city": {"type": "string", "nullable": True}}
    picks = {"aggregate": "count", **({"sort": sort} if sort else {})}
    for holds in ["pandas", *ENGINES]:
        rows = frame if holds == "pandas" else holder(holds, pl.from_pandas(frame))
        v = view(rows, decl, max_points=100, **picks)
        assert v.spec is not None, holds
        x = v.spec["encoding"]["x"]
        assert "sort" not in x and x["scale"]["domain"] == domain, holds
        assert v.marks is not None
        assert [None if pd.isna(c) else c for c in v.marks.iloc[:, 0]] == domain, holds


def test_a_number_against_itself_is_its_histogram_and_the_y_is_refused_saying_why() -> None:
    v = in_memory("y is x: its histogram")
    assert (v.mark, v.reason) == (
        "bar", "gb is declared number: a histogram of its values in 10 bins."
    )  # fmt: skip
    assert [(r.column, r.channel, r.reason) for r in v.refusals] == [(
        "gb", "y",
        "gb is on x already, and a number against itself is only a diagonal line, so it is not "
        "drawn on y; pick another column declared number as y.",
    )]  # fmt: skip


def test_a_facet_that_is_x_is_refused_saying_why() -> None:
    v = in_memory("a facet that is x")
    assert "facet" not in v.encodings and v.drawn.get("facet") is None
    assert [(r.column, r.channel, r.reason) for r in v.refusals if r.channel == "facet"] == [(
        "host", "facet",
        "host is on x already, and one small chart per host would each hold a single "
        "category, so the chart is drawn without facets.",
    )]  # fmt: skip


def refused_frame(n: int = 400) -> pd.DataFrame:
    """A result whose picks make tables: a measure every row of which offends (``bad``), one
    holding no value at all (``none``), a category declared not nullable whose every other row
    is null (``c``: offenders an engine holds as nulls)."""
    return pd.DataFrame({
        "t": pd.date_range("2024-01-01", periods=n, freq="h"),
        "k": [("a", "b", "c")[i % 3] for i in range(n)],
        "c": [None if i % 2 else ("x", "y")[i % 4 // 2] for i in range(n)],
        "v": [float((i * 37) % 101) for i in range(n)],
        "bad": ["n/a"] * n,
        "none": [None if i % 2 else np.nan for i in range(n)],
    })  # fmt: skip


REFUSED = {
    "t": "date", "k": "string", "c": "string", "v": "number", "bad": "number",
    "none": {"type": "number", "nullable": True},
}  # fmt: skip


@pytest.mark.parametrize(
    "picks",
    [
        {"x": "bad"}, {"y": "bad"}, {"x": "k", "y": "bad"}, {"x": "t", "y": "bad"},
        {"x": "t", "y": "none"}, {"x": "none"}, {"x": "v", "y": "none"}, {"x": "k", "y": "none"},
        {"x": "c", "y": "none"}, {"x": "v", "y": "none", "color": "c"},
        {"x": "t", "y": "none", "color": "c"}, {"x": "none", "facet": "c"},
    ],
    ids=repr,
)  # fmt: skip
def test_a_pick_the_rows_cannot_draw_is_memory_s_table_on_every_engine(
    picks: dict[str, Any],
) -> None:
    """A picked axis every row of which offends is refused with the ``ColumnViolation``
    behind it, and a chart whose every row is left out is a table saying why — decide.py's
    table, its refusals and its notes as values, wherever the rows live (an engine said
    only "no row of bad holds a value of its declared type to draw", with no refusal). The
    table's reason says the notes, the rows left out in the engine's words."""
    from chartkit.plan.decide import nothing_to_draw

    frame = refused_frame()
    want = view(frame, REFUSED, max_points=100, **picks)
    assert want.kind == "table"
    for engine in ENGINES:
        got = view(holder(engine, pl.from_pandas(frame)), REFUSED, max_points=100, **picks)
        assert got.kind == "table", engine
        assert [(r.column, r.channel, r.reason, r.violation) for r in got.refusals] == [
            (r.column, r.channel, r.reason, r.violation) for r in want.refusals
        ], engine
        assert [(n.kind, n.column, n.counts) for n in got.facts] == [
            (n.kind, n.column, n.counts) for n in want.facts
        ], engine
        if want.reason.startswith("Every row is left out"):
            assert got.reason == nothing_to_draw([n.sentence for n in got.facts]), engine
        else:
            assert got.reason == want.reason, engine


def test_a_table_of_every_row_left_out_says_why_in_full_on_an_engine() -> None:
    rel = holder("duckdb", pl.from_pandas(refused_frame()))
    got = view(rel, REFUSED, max_points=100, x="c", y="none")
    assert got.reason == (
        "Every row is left out of the chart, so there is nothing to draw: 200 of 400 rows are "
        "left out of the chart in duckdb: c is declared string and they hold nothing (first: "
        "null). Nothing was converted. 200 rows hold no value in none and are not drawn."
    )
    bad = view(rel, REFUSED, max_points=100, x="bad")
    assert bad.reason == (
        "The x axis you picked cannot be drawn: bad is declared number, but all 400 rows hold "
        'string (first: "n/a"). chartkit converts nothing; fix the tool, or change the '
        "declaration."
    )
    assert [(r.column, r.channel, r.violation and r.violation.affected) for r in bad.refusals]\
        == [("bad", "x", 400)]


def test_a_measure_an_engine_holds_as_text_is_refused_saying_so() -> None:
    """A column declared nullable number that the engine holds as text (its values text or
    null), half of its rows offending:
    the engine cannot judge it value by value without the rows leaving it, so it is not on
    the chart, and its refusal says why and what to do (it said "no row has it
    (missing-column)", which was not so)."""
    n = 400
    frame = pd.DataFrame({
        "k": [("a", "b", "c")[i % 3] for i in range(n)],
        "v": [float(i % 17) for i in range(n)],
        "txt": ["n/a" if i % 2 else None for i in range(n)],
    })  # fmt: skip
    decl = {"k": "string", "v": "number", "txt": {"type": "number", "nullable": True}}
    got = view(holder("duckdb", pl.from_pandas(frame)), decl, max_points=100)
    assert got.kind == "chart"
    assert [(r.column, r.channel, r.reason) for r in got.refusals] == [(
        "txt", "y",
        "txt is declared number, but the engine holds it as String: its values are judged one "
        "by one only when the rows leave the engine. Cast it to its declared type in the "
        "engine, or filter the frame to at most max_points rows first.",
    )]  # fmt: skip


def test_an_undeclared_column_with_no_declared_measure_is_asked_to_be_declared() -> None:
    """In memory an undeclared number is inferred a measure from its values; those stay in a
    lazy engine, so the engine's table says which column to declare, and how."""
    frame = pd.DataFrame({"a": _KEYS, "v": np.arange(_N, dtype=float)})
    for engine in ("duckdb", "polars lazy", "ibis"):
        got = view(holder(engine, pl.from_pandas(frame)), {"a": "string"}, max_points=100)
        name = "polars" if engine == "polars lazy" else engine
        assert (got.kind, got.reason) == (
            "table",
            f"The {name} frame has 300 rows, over max_points=100, so chartkit aggregates it in "
            f"{name} from declared columns; v is not declared, and its type would be inferred "
            "from values that stay in the engine. Declare it in result_columns ('v': 'number', "
            "say) to chart it, or filter the frame to at most max_points rows first.",
        ), engine


@pytest.mark.parametrize(
    ("joint", "picks", "mark"),
    [(0, {"x": "x", "y": "y"}, None), (1, {"x": "x", "y": "y"}, "point"), (1, {}, "bar")],
)
def test_two_measures_no_row_holds_together_chart_as_memory_on_every_engine(
    joint: int, picks: dict[str, str], mark: str | None
) -> None:
    """Two nullable measures that (almost) never share a row, past max_points: their scatter,
    picked, places no row — memory's table, with its reason — or one point (a pick is drawn);
    the default, the histogram of the first, is bars; every engine answers the same (it
    raised, asking its counts of a scatter it had not binned)."""
    i = np.arange(1500, dtype=float)
    x = np.where(i % 2 == 0, i, np.nan)
    y = np.where(i % 2 == 1, i, np.nan)
    if joint:
        y[0] = 5.0
    frame = pd.DataFrame({"x": x, "y": y})
    decl = {"x": {"type": "number", "nullable": True}, "y": {"type": "number", "nullable": True}}
    kw: dict[str, Any] = dict(picks)
    want = view(frame, decl, max_points=100, **kw)
    if joint:
        assert want.kind == "chart" and want.mark == mark
    else:
        assert (want.kind, want.reason) == (
            "table",
            "Every row is left out of the chart, so there is nothing to draw: 1,500 rows hold "
            "no value in x and y and are not drawn.",
        )
    for engine in ENGINES:
        got = view(holder(engine, pl.from_pandas(frame)), decl, max_points=100, **kw)
        assert (got.kind, got.reason) == (want.kind, want.reason), engine
        if joint:
            assert drawn(got)["rows"] == drawn(want)["rows"], engine


def test_a_line_of_more_times_than_pixels_is_bucketed_as_memory_on_every_engine() -> None:
    """A line whose placed rows fit max_points but hold more distinct times than the chart's
    pixels: memory buckets it (15-minute buckets); every engine draws the same points (it said
    "the engine's groups do not match the chart's marks", a bug, once half the rows held no
    value)."""
    n = 8000
    frame = pd.DataFrame({
        "t": pd.date_range("2024-01-01", periods=n, freq="min"),
        "v": np.where(np.arange(n) % 2 == 0, np.arange(n) * 1.0, np.nan),
    })  # fmt: skip
    decl = {"t": "date", "v": {"type": "number", "nullable": True}}
    want = view(frame, decl)
    assert want.reason == (
        "t is declared date and v is declared number: a line over time of the mean per "
        "15-minute bucket."
    )
    for engine in ENGINES:
        got = view(holder(engine, pl.from_pandas(frame)), decl)
        same_view(want, got)
        assert len(got.frame) == 534, engine  # only the points left the engine


def test_the_marks_behind_a_column_named_rows_are_counted_on_every_engine() -> None:
    """A declared column named ``rows`` (the tally's own key for the rows selected): the rows
    behind a mark are counted, and its offenders with them, as in memory (every engine said
    0 rows behind the bar, and lost the column's offenders)."""
    from chartkit.selection import Selection

    rng = np.random.default_rng(9)
    frame = pd.DataFrame({"rows": rng.choice(list("abc"), 400), "v": 1.0})
    decl = {"rows": "string", "v": "number"}
    want = view(frame, decl, x="rows", aggregate="count", max_points=100)
    expected = want.rows_behind(Selection.of_mark(want, 0))
    assert expected.total in frame["rows"].value_counts().tolist()  # (one category's rows)
    for engine in ENGINES:
        got = view(holder(engine, pl.from_pandas(frame)), decl, x="rows", aggregate="count",
                   max_points=100)  # fmt: skip
        page = got.rows_behind(Selection.of_mark(got, 0))
        got_counts = (page.total, dict(page.offenders))
        assert got_counts == (expected.total, dict(expected.offenders)), engine


@pytest.mark.parametrize(
    "picks",
    [
        {"x": "host", "y": ["gb", "iops"], "facet": "site"},
        {"x": "host", "y": "gb", "facet": "site", "aggregate": "max"},
        {"x": "at", "y": ["gb", "iops"], "color": "site"},
    ],
    ids=["bars of two measures per facet", "bars per facet", "lines of two measures"],
)
def test_an_engine_chart_s_data_is_laid_out_as_memory_s(picks: dict[str, Any]) -> None:
    """The columns of the chart's data in memory's order (the dataset's name, and the marks a
    selection reads, are made from them): the engines laid a facet before the measures."""
    frame = wide_frame()
    want = view(frame.to_pandas(), WIDE, max_points=100, **picks)
    for engine in ENGINES:
        got = view(holder(engine, frame), WIDE, max_points=100, **picks)
        assert list(got.marks.columns) == list(want.marks.columns), engine
        assert got.spec["data"] == want.spec["data"], engine
