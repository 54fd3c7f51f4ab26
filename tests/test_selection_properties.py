"""Property tests of the rows behind a mark: on generated rows, for every chart kind chartkit
draws, the rows behind each mark re-aggregate to exactly that mark's value, and every row
belongs to exactly one mark — plus the rows left out, and a top-N chart's other categories,
each counted apart. In memory here; the engines are held to the same rows by
tests/test_selection_engines.py.
"""

from __future__ import annotations

import datetime as dt
import math
import os
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from chartkit import ChartkitError, view
from chartkit.selection import MAX_PAGE_SIZE, Selection
from chartkit.views import View

EXAMPLES = 400 if os.environ.get("CHARTKIT_HYPOTHESIS_PROFILE") == "soak" else 40
SETTINGS = settings(
    max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
    suppress_health_check=list(HealthCheck),
    phases=[Phase.explicit, Phase.generate],  # a failure is reported as drawn (shrinking a
)  # fmt: skip                                  # frame of 200 rows takes minutes)

CATEGORIES = ["a", "b", "c", "d", "e", "f", "g"]
STRAYS = [None, 7, "", "n/a", True, 1.5]


@st.composite
def cells(draw: st.DrawFn, kind: str, n: int, nullable: bool) -> list[Any]:
    """A column of one declared kind, with strays that break the declaration now and then."""
    base = {
        "string": st.sampled_from(CATEGORIES[: draw(st.integers(2, 7))]),
        "many": st.sampled_from([f"k{i}" for i in range(40)]),
        "number": st.integers(-50, 50) | st.floats(-1e3, 1e3, allow_nan=False),
        "date": st.datetimes(
            min_value=dt.datetime(2024, 1, 1), max_value=dt.datetime(2024, 3, 1)
        ).map(lambda d: d.replace(microsecond=0).isoformat()),
        "zoned": st.datetimes(
            min_value=dt.datetime(2024, 1, 1), max_value=dt.datetime(2024, 3, 1)
        ).map(lambda d: d.replace(microsecond=0).isoformat() + "+02:00"),
        "boolean": st.booleans(),
    }[kind]
    stray_rate = draw(st.sampled_from([0.0, 0.1, 0.3]))
    out = []
    for _ in range(n):
        if draw(st.floats(0, 1)) < stray_rate:
            stray = draw(st.sampled_from(STRAYS + ([float("inf")] if kind == "number" else [])))
            out.append(stray)
        else:
            out.append(draw(base))
    if nullable and n:
        out[draw(st.integers(0, n - 1))] = None
    return out


SHAPES = [
    # (columns: name → kind, view options)
    ({"g": "string", "m": "number"}, {"x": "g", "y": "m"}),
    ({"g": "string", "m": "number"}, {"x": "g", "y": "m", "aggregate": "sum"}),
    ({"g": "string", "m": "number"}, {"x": "g", "aggregate": "count"}),
    ({"g": "many", "m": "number"}, {"x": "g", "y": "m"}),  # top 30 of 40, the others apart
    ({"g": "boolean", "m": "number"}, {"x": "g", "y": "m"}),
    ({"t": "date", "m": "number"}, {"x": "t", "y": "m"}),
    ({"t": "date", "m": "number", "g": "string"}, {"x": "t", "y": "m", "color": "g"}),
    ({"t": "date", "m": "number"}, {"x": "t", "y": "m", "max_points": 100}),  # bucketed
    ({"t": "zoned", "m": "number"}, {"x": "t", "y": "m", "max_points": 100}),  # UTC buckets
    ({"t": "date", "m": "number"}, {"x": "t", "y": "m", "time_unit": "week"}),
    ({"t": "date", "m": "number"}, {"x": "t", "y": "m", "time_unit": "day"}),
    ({"t": "date", "m": "number", "g": "string"}, {"x": "t", "y": "m", "facet": "g"}),
    ({"m": "number"}, {"x": "m"}),  # histogram, or count bars
    ({"m": "number", "k": "number"}, {"x": "m", "y": "k"}),  # scatter
    ({"m": "number", "k": "number"}, {"x": "m", "y": "k", "max_points": 100}),  # heatmap
]
HIDDEN = [
    # a heatmap reduces by the color or facet it does not show: their offenders are left out
    ({"m": "number", "k": "number", "g": "string"}, {"x": "m", "y": "k", "color": "g",
                                                    "max_points": 100}),
    ({"m": "number", "k": "number", "g": "string"}, {"x": "m", "y": "k", "facet": "g",
                                                    "max_points": 100}),
    ({"m": "number", "k": "number", "t": "date"}, {"x": "m", "y": "k", "color": "t",
                                                  "max_points": 100}),
]  # fmt: skip


@st.composite
def charts(draw: st.DrawFn) -> tuple[list[dict[str, Any]], dict[str, Any], dict[str, Any]]:
    columns, options = draw(st.sampled_from(SHAPES))
    n = draw(st.integers(2, 40) | st.integers(101, 180))
    declared: dict[str, Any] = {}
    data: dict[str, list[Any]] = {}
    for name, kind in columns.items():
        nullable = draw(st.booleans())
        type_ = {"many": "string", "zoned": "date"}.get(kind, kind)
        declared[name] = {"type": type_, "nullable": nullable}
        data[name] = draw(cells(kind, n, nullable))
    rows = [{c: data[c][i] for c in columns} for i in range(n)]
    return rows, declared, options


def _measure(v: View) -> tuple[str | None, str | None, str | None]:
    """(the measure's column, its field in the marks, the aggregate) of a chart."""
    for e in v.encodings.values():
        if e.aggregate is not None:
            return (None if e.aggregate == "count" else e.column), e.field, e.aggregate
    return None, None, None


def _all_rows(v: View, s: Selection) -> tuple[set[int], Any]:
    got = v.rows_behind(s, page_size=MAX_PAGE_SIZE)
    assert got.pages == 1
    return set(got.index), got


def _reaggregate(values: list[float], how: str) -> float:
    if how == "sum":
        return math.fsum(values)
    if how == "mean":
        return math.fsum(values) / len(values)
    if how == "median":
        return float(np.median(values))
    if how == "min":
        return min(values)
    assert how == "max"
    return max(values)


def gap_refused(v: View, i: int) -> bool:
    """Whether the ``i``-th mark is a line's gap: the row of no value at a missing time point,
    which breaks the line; no row is behind it, and selecting it is refused."""
    assert v.marks is not None
    y = v.encodings.get("y")
    if v.mark != "line" or y is None or not pd.isna(v.marks.iloc[i][y.field]):
        return False
    with pytest.raises(ChartkitError, match=f"mark {i} is a gap in the line: a missing time"):
        Selection.of_mark(v, i)
    return True


def check_partition(v: View, rows: list[dict[str, Any]]) -> None:
    """Each mark's rows re-aggregate to its value; marks, left out and others partition."""
    assert v.marks is not None
    column, fy, how = _measure(v)
    seen: dict[int, Selection] = {}
    by_key: dict[Selection, list[int]] = {}
    for i in range(len(v.marks)):
        if gap_refused(v, i):
            continue
        by_key.setdefault(Selection.of_mark(v, i), []).append(i)
    for s, marks in by_key.items():
        copies = len(marks)
        behind, page = _all_rows(v, s)
        mark = v.marks.iloc[marks[0]]
        if how == "count" and int(mark[fy]) == 0:  # a histogram's empty bin
            assert not behind, s.describe()
            continue
        assert behind, f"a mark with no row behind it: {s.describe()}"
        for r in behind:
            assert r not in seen, f"row {r} is behind {seen[r].describe()} and {s.describe()}"
            seen[r] = s
        if how is None:  # one row per mark: as many marks as rows share its values
            assert copies == len(behind)
            continue
        assert copies == 1
        if "rows" in mark.index:
            assert int(mark["rows"]) == len(behind)
        if how == "count":
            assert int(mark[fy]) == len(behind)
        else:
            assert column is not None
            values = [float(page.rows[column].iloc[j]) for j in range(len(behind))]
            expected = float(mark[fy])
            got = _reaggregate(values, how)
            assert math.isclose(got, expected, rel_tol=1e-9, abs_tol=1e-9), (got, expected)
    left, page = _all_rows(v, Selection.left_out(v))
    assert not left & set(seen)
    assert len(left) == v.left_out
    others: set[int] = set()
    if v.reduction.top is not None:
        others, behind_others = _all_rows(v, Selection.others(v))
        assert others and not others & set(seen) and not others & left
        check_others(v, behind_others, column, fy, how)
    assert set(seen) | left | others == set(range(len(rows)))
    for brush in brushes(v):
        check_brush(v, brush, by_key, left | others)
    # every row left out has an offending cell or no placeable value; offenders are counted
    declared = v.result.result_columns or {}
    for name, count in page.offenders.items():
        assert count == sum(name in o for o in page.offending)
        assert name in declared


def check_others(
    v: View, page: Any, column: str | None, fy: str | None, how: str | None
) -> None:
    """The rows of a top-N chart's other categories: as many categories as its note says were
    not shown, none of them a shown bar's, each re-aggregating to no more than the lowest
    bar (the chart keeps the highest)."""
    assert v.marks is not None and fy is not None
    note = next(n for n in v.facts if n.kind == "top")
    x = next(e for c, e in v.encodings.items() if e.type == "nominal" and c != "facet")
    labels = [None if pd.isna(g) else str(g) for g in page.rows[x.column]]
    shown = {None if pd.isna(g) else str(g) for g in v.marks[x.field]}
    assert not set(labels) & shown
    assert len(set(labels)) == (note.count("values") or 0) - (note.count("shown") or 0)
    lowest = float(v.marks[fy].min())
    for label in set(labels):
        at = [i for i, g in enumerate(labels) if g == label]
        if how == "count":
            value = float(len(at))
        else:
            assert column is not None and how is not None
            values = [float(page.rows[column].iloc[i]) for i in at]
            value = _reaggregate(values, how)
        assert value <= lowest or math.isclose(value, lowest, rel_tol=1e-9), (label, value)


def _position(value: Any) -> float:
    """A mark's drawn position on an axis as a number: epoch ms for a date."""
    if isinstance(value, str | dt.datetime | pd.Timestamp | np.datetime64):
        return float(pd.Timestamp(value).value // 1_000_000)
    return float(value)


def brushes(v: View) -> list[dict[str, list[Any]]]:
    """Brushes over the middle half of the marks' positions: along each brushable axis (a
    measure's, a bin's, a date's) alone, and along x and y at once where both are."""
    from chartkit.selection import drill_payload

    assert v.marks is not None
    drill = drill_payload(v)
    assert drill is not None
    out: list[dict[str, list[Any]]] = []
    spans: dict[str, list[Any]] = {}
    for f in drill["brushable"]:
        at = sorted(_position(p) for p in v.marks[f] if not pd.isna(p))
        if len(at) < 2:
            continue
        spans[f] = [at[len(at) // 4], at[(3 * len(at)) // 4]]
        out.append({f: spans[f]})
    if len(spans) == 2:
        out.append(dict(spans))
    return out


def check_brush(
    v: View, brush: dict[str, list[Any]], by_key: dict[Selection, list[int]], apart: set[int]
) -> None:
    """The rows behind a brush are exactly the rows behind the marks it covers (a mark whose
    drawn position lies in the interval on every brushed axis): they re-aggregate to those
    marks, none is read twice, and none is a row left out or of another category."""
    assert v.marks is not None
    s = Selection.from_interval(v, brush)
    page = v.rows_behind(s, page_size=MAX_PAGE_SIZE)
    assert page.pages == 1 and len(set(page.index)) == len(page.index) == page.total
    covered: set[int] = set()
    counted = 0  # the covered marks' counts (a histogram's, a heatmap's)
    _, fy, how = _measure(v)
    for key, marks in by_key.items():
        inside = [all(_inside(v, i, brush)) for i in marks]
        if any(inside) and not all(inside):
            return  # marks of one key the brush parts (a line's rows at one time): no oracle
        if all(inside):
            covered |= set(v.rows_behind(key, page_size=MAX_PAGE_SIZE).index)
            if how == "count" and fy is not None:
                counted += sum(int(v.marks.iloc[i][fy]) for i in marks)
    assert set(page.index) == covered, (brush, s.describe())
    assert not covered & apart
    if how == "count":
        assert page.total == counted, (brush, s.describe())


def _inside(v: View, i: int, brush: dict[str, list[Any]]) -> list[bool]:
    assert v.marks is not None
    return [
        not pd.isna(v.marks.iloc[i][f]) and lo <= _position(v.marks.iloc[i][f]) <= hi
        for f, (lo, hi) in brush.items()
    ]


@SETTINGS
@given(charts())
def test_rows_behind_each_mark_reaggregate_to_it_and_partition_the_rows(
    chart: tuple[list[dict[str, Any]], dict[str, Any], dict[str, Any]],
) -> None:
    rows, declared, options = chart
    v = view(rows, declared, mode="off", **options)
    if v.kind != "chart":
        return
    check_partition(v, rows)


@st.composite
def hidden_heatmaps(
    draw: st.DrawFn,
) -> tuple[list[dict[str, Any]], dict[str, Any], dict[str, Any]]:
    """A colored or faceted scatter over ``max_points`` rows whose strays are in the column a
    heatmap does not show (strays on its axes would leave too few rows for a heatmap)."""
    columns, options = draw(st.sampled_from(HIDDEN))
    n = draw(st.integers(130, 200))
    hidden = options.get("color") or options["facet"]
    declared: dict[str, Any] = {}
    data: dict[str, list[Any]] = {}
    for name, kind in columns.items():
        nullable = draw(st.booleans())
        declared[name] = {"type": kind, "nullable": nullable}
        if name == hidden:  # 1 to 25 strays: more than 100 rows stay, a heatmap's
            values = (
                st.sampled_from(["a", "b", "c"])
                if kind == "string"
                else st.datetimes(
                    min_value=dt.datetime(2024, 1, 1), max_value=dt.datetime(2024, 3, 1)
                ).map(lambda d: d.replace(microsecond=0).isoformat())
            )
            column = draw(st.lists(values, min_size=n, max_size=n))
            for i in draw(st.sets(st.integers(0, n - 1), min_size=1, max_size=25)):
                column[i] = draw(st.sampled_from([7, True, 1.5]))  # offend string and date
            data[name] = column
        else:  # distinct values: more pairs than max_points, so no point per pair
            data[name] = draw(st.lists(st.floats(-1e3, 1e3, allow_nan=False), min_size=n,
                                       max_size=n, unique=True))  # fmt: skip
    rows = [{c: data[c][i] for c in columns} for i in range(n)]
    return rows, declared, options


@SETTINGS
@given(hidden_heatmaps())
def test_a_heatmap_places_the_color_or_facet_it_does_not_show(
    chart: tuple[list[dict[str, Any]], dict[str, Any], dict[str, Any]],
) -> None:
    """Over max_points rows a colored or faceted scatter is a heatmap of counts that shows
    neither, yet leaves out the rows offending them: its marks' rows and the rows left out
    are exactly what it counted."""
    rows, declared, options = chart
    v = view(rows, declared, mode="off", **options)
    assert v.mark == "rect" and v.left_out, v.notes
    check_partition(v, rows)


@SETTINGS
@given(charts())
def test_a_frame_gives_the_rows_a_list_gives(
    chart: tuple[list[dict[str, Any]], dict[str, Any], dict[str, Any]],
) -> None:
    rows, declared, options = chart
    from_list = view(rows, declared, mode="off", **options)
    from_frame = view(pd.DataFrame(rows), declared, mode="off", **options)
    if from_list.kind != "chart" or from_frame.kind != "chart":
        return
    assert from_frame.marks is not None
    check_partition(from_frame, rows)
