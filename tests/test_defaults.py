"""The default chart an analyst would sign, as properties of generated results (issue 20).

Each property is a rule of ``chartkit.plan.rules`` held on rowsets hypothesis generates — never
one hand-picked answer: the default does not depend on the order of the keys in the rows (only
on the declaration's); two measures and no date open on a scatter before any bar of a mean.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chartkit import view
from chartkit.plan import choose

_SETTINGS = settings(
    max_examples=60, deadline=None, database=None, derandomize=True,
    suppress_health_check=list(HealthCheck),
)  # fmt: skip

_NAMES = st.sampled_from(["a", "b", "c", "d", "e", "f", "g", "h"])


@st.composite
def results(draw: st.DrawFn, *, dates: bool | None = None) -> tuple[list[dict[str, Any]], dict]:
    """Rows and their declaration: a few categories of few values, measures, maybe a date."""
    n = draw(st.integers(3, 40))
    names = draw(st.lists(_NAMES, min_size=1, max_size=6, unique=True))
    kinds = draw(
        st.lists(st.sampled_from(["string", "number", "date"]), min_size=len(names),
                 max_size=len(names))
    )  # fmt: skip
    if dates is False:
        kinds = ["number" if k == "date" else k for k in kinds]
    columns: dict[str, list[Any]] = {}
    for name, kind in zip(names, kinds, strict=True):
        if kind == "string":
            width = draw(st.integers(1, 6))
            columns[name] = [f"{name}{draw(st.integers(0, width))}" for _ in range(n)]
        elif kind == "number":
            columns[name] = [
                draw(st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False)) for _ in range(n)
            ]
        else:
            columns[name] = [f"2024-01-{draw(st.integers(1, 28)):02d}" for _ in range(n)]
    rows = [{name: columns[name][i] for name in names} for i in range(n)]
    return rows, dict(zip(names, kinds, strict=True))


def _default(v: Any) -> tuple[Any, ...]:
    return (
        v.kind, v.mark, v.reason,
        {c: (e.column, e.aggregate, e.measures) for c, e in v.encodings.items()},
        v.notes, [a.to_dict() for a in v.alternatives], v.state,
    )  # fmt: skip


@_SETTINGS
@given(results(), st.randoms(use_true_random=False))
def test_the_order_of_the_keys_in_the_rows_never_changes_the_default(
    result: tuple[list[dict[str, Any]], dict[str, str]], rnd: random.Random
) -> None:
    rows, decl = result
    keys = list(rows[0])
    rnd.shuffle(keys)
    reordered = [{k: row[k] for k in keys} for row in rows]
    each = [dict(rnd.sample(list(row.items()), len(row))) for row in rows]  # row by row, too
    first = _default(view(rows, decl))
    assert _default(view(reordered, decl)) == first
    assert _default(view(each, decl)) == first


@_SETTINGS
@given(results(dates=False))
def test_two_measures_and_no_date_open_on_a_scatter_before_any_bar_of_a_mean(
    result: tuple[list[dict[str, Any]], dict[str, str]],
) -> None:
    rows, decl = result
    # a measure: a number of ten values or more (fewer are levels: a grid, never y)
    measures = [
        n for n, t in decl.items() if t == "number" and len({r[n] for r in rows}) >= 10
    ]
    v = view(rows, decl)
    if len(measures) >= 2:
        assert (v.kind, v.mark) == ("chart", "point")
        assert {v.encodings["x"].column, v.encodings["y"].column} <= set(measures)
        assert v.encodings["x"].aggregate is None and v.encodings["y"].aggregate is None
    if v.mark == "bar" and any(e.aggregate == "mean" for e in v.encodings.values()):
        assert len(measures) < 2  # a mean per category only when no scatter can be drawn


# --- notes name only the columns they are about; a stepped-around measure is said -------------


def test_the_no_value_note_names_only_the_column_that_holds_no_value() -> None:
    rows = [
        {"Year": f"19{70 + i % 10}-01-01", "mpg": None if i % 5 == 0 else float(i), "o": "a"}
        for i in range(40)
    ]
    v = view(rows, {"Year": "date", "mpg": {"type": "number", "nullable": True}, "o": "string"})
    assert "8 rows hold no value in mpg and are not drawn." in v.notes
    assert not any("Year" in n for n in v.notes if "no value" in n)


def test_a_flagged_measure_that_mostly_holds_numbers_keeps_its_place() -> None:
    rows = [
        {"k": "ab"[i % 2], "lun": "" if i % 4 == 0 else i * 1.5, "gb": 10.0 * i + 0.5}
        for i in range(20)
    ]
    v = view(rows, {"k": "string", "lun": "number", "gb": "number"})
    assert "lun" in {e.column for e in v.encodings.values()}
    assert v.refusals == () and (v.state, v.left_out) == ("rows left out", 5)
    assert (
        '5 of 20 rows are left out of the x axis: lun is declared number and they hold string '
        '(first: ""). Nothing was converted.'
    ) in v.notes
    # declared in the other order, the same two columns are drawn
    after = view(rows, {"k": "string", "gb": "number", "lun": "number"})
    assert {e.column for e in after.encodings.values()} == {e.column for e in v.encodings.values()}


def test_a_default_steps_around_a_measure_most_rows_of_which_offend_and_says_so() -> None:
    rows = [
        {"k": "ab"[i % 2], "lun": i * 1.5 if i % 4 == 0 else "", "gb": 10.0 * i + 0.5}
        for i in range(20)
    ]
    v = view(rows, {"k": "string", "lun": "number", "gb": "number"})
    assert v.encodings["y"].column == "gb"
    assert [(r.column, r.channel) for r in v.refusals] == [("lun", "y")]
    assert v.refusals[0].reason == (
        'lun is declared number, but 15 of 20 rows hold string (first: ""), so the chart opens '
        "on gb, which has no finding; pick y='lun' to chart lun with those rows left out."
    )
    assert v.state == "refused axes"


def test_a_date_column_mixing_zoned_and_naive_times_says_both_counts_and_how_each_is_drawn() -> (
    None
):
    rows = [
        {"ts": "2024-05-13T02:00:00+02:00", "v": 1.0},
        {"ts": "2024-05-13T01:00:00", "v": 2.0},
        {"ts": "2024-05-14T03:00:00Z", "v": 3.0},
    ]
    v = view(rows, {"ts": "date", "v": "number"})
    assert v.notes == (
        "ts mixes 2 times with a time zone and 1 without one: those with a zone are drawn in UTC, "
        "those without as given (their zone is unknown, so they are not converted); the axis "
        "says so.",
    )
    assert v.encodings["x"].title == "ts (UTC; times without a zone as given)"
    zoned = view([rows[0], rows[2]], {"ts": "date", "v": "number"})
    assert zoned.notes == () and zoned.encodings["x"].title == "ts (UTC)"
    # rows left out (v broken): the zones of the rows kept are counted, not the column's
    kept = view([rows[0], {**rows[1], "v": "n/a"}, rows[2]], {"ts": "date", "v": "number"})
    assert not any("mixes" in n for n in kept.notes), kept.notes
    assert kept.encodings["x"].title == "ts (UTC)"
    both = view([*rows, {**rows[1], "v": "n/a"}], {"ts": "date", "v": "number"})
    assert any(n.startswith("ts mixes 2 times with a time zone and 1 without") for n in both.notes)


# --- a line splits by an entity; the time bucket follows the chart's width ---------------------

_LABELS = ("sun", "rain", "fog", "snow", "drizzle")


@st.composite
def days_with_a_label(draw: st.DrawFn) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """One row a day (some days missing), a measure, and a label drawn row by row."""
    rnd = random.Random(draw(st.integers(0, 2**32 - 1)))
    days = draw(st.integers(20, 1200))
    labels = _LABELS[: draw(st.integers(3, 5))]
    start = dt.date(2012, 1, 1)
    rows = [
        {
            "day": (start + dt.timedelta(days=i)).isoformat(),
            "rain": round(rnd.gammavariate(2.0, 3.0), 2),
            "weather": rnd.choice(labels),
        }
        for i in range(days)
        if rnd.random() < 0.9
    ]
    return rows, {"day": "date", "rain": "number", "weather": "string"}


@st.composite
def entities_over_time(draw: st.DrawFn) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """A panel: 2 to 5 entities, each with a value at most of 10 to 300 days."""
    rnd = random.Random(draw(st.integers(0, 2**32 - 1)))
    days = draw(st.integers(10, 300))
    symbols = [f"s{k}" for k in range(draw(st.integers(2, 5)))]
    start = dt.date(2020, 1, 1)
    rows = [
        {"day": (start + dt.timedelta(days=i)).isoformat(), "symbol": s, "price": i + k * 10.0}
        for i in range(days)
        for k, s in enumerate(symbols)
        if i == 0 or rnd.random() < 0.8  # each entity at about 80% of the days
    ]
    return rows, {"day": "date", "symbol": "string", "price": "number"}


def _positions_per_series(v: Any) -> int:
    """The most time positions one series of the chart draws (its marks, at full precision)."""
    marks = v.marks
    x = v.encodings["x"].field
    split = [e.field for c, e in v.encodings.items() if c in ("color", "facet")]
    return int(marks.groupby(split)[x].nunique().max() if split else marks[x].nunique())


@_SETTINGS
@given(days_with_a_label())
def test_a_line_splits_by_a_label_only_where_each_value_is_at_most_of_its_points(
    result: tuple[list[dict[str, Any]], dict[str, str]],
) -> None:
    """Days fitting the chart's width: every row a point colored by the label (a line per label
    would join days far apart). More days than pixels: the line's points are buckets, and it
    splits by the label only when each value is found in half of them or more; else the rows
    are counted per bucket, stacked by the label."""
    rows, decl = result
    v = view(rows, decl)
    days = len({r["day"] for r in rows})
    assert v.encodings["color"].column == "weather"
    marks, x = v.marks, v.encodings["x"].field
    if days <= 560:
        y = v.encodings["y"]
        assert (v.mark, y.column, y.aggregate) == ("point", "rain", None)
        assert len(marks) == len(rows)
        assert "is a label of single rows, not a series" in v.reason
        assert v.reason.endswith("Each row is a point, colored by weather.")
    elif v.mark == "line":
        assert v.reduction.bucket_seconds is not None and _positions_per_series(v) <= 560
        per_value = marks.groupby(v.encodings["color"].field)[x].nunique()
        assert per_value.min() >= choose.ENTITY_COVERAGE * marks[x].nunique()
    else:
        assert (v.mark, v.encodings["y"].aggregate) == ("bar", "count")
        assert int(marks["count"].sum()) == len(rows)
        assert marks[x].nunique() <= 560 // 10
        assert v.reason.endswith("stacked by weather.")


def test_a_rare_label_over_more_days_than_pixels_stacks_the_days_counted() -> None:
    start = dt.date(2012, 1, 1)
    rows = [
        {"day": (start + dt.timedelta(days=i)).isoformat(), "rain": float(i % 17),
         "weather": "snow" if i % 50 == 0 else ("rain" if i % 3 else "sun")}
        for i in range(1400)
    ]  # fmt: skip
    v = view(rows, {"day": "date", "rain": "number", "weather": "string"})
    assert (v.mark, v.encodings["y"].aggregate, v.encodings["color"].column) == (
        "bar", "count", "weather",
    )  # fmt: skip
    assert v.reason == (
        "day is declared date; weather (declared string, 3 values) is a label of single rows, "
        "not a series: one of its values is found at 28 of the 201 points of day, so a line per "
        "weather would join points far apart. The rows are counted per 30-day bucket, stacked "
        "by weather."
    )
    assert v.notes == (
        "1,400 rows are counted in 47 bars: the rows per 30-day bucket, stacked by weather (at "
        "most one bar per 10 pixels of the chart's width).",
    )
    assert int(v.marks["count"].sum()) == 1400


def _seasonal_rows(n: int = 6000) -> list[dict[str, Any]]:
    """Hourly rows whose weather is snow only in January and February."""
    rnd = random.Random(1)
    start = dt.datetime(2024, 1, 1)
    out = []
    for i in range(n):
        t = start + dt.timedelta(hours=i)
        snow = t.month < 3 and rnd.random() < 0.3
        out.append({"at": t.isoformat(), "temp": rnd.gauss(10, 5),
                    "weather": "snow" if snow else rnd.choice(["sun", "rain"])})  # fmt: skip
    return out


SEASONAL = {"at": "date", "temp": "number", "weather": "string"}


def test_past_max_points_a_label_is_still_no_series_and_its_rows_are_counted() -> None:
    """The line's points past max_points are buckets; a color found at too few of them is a
    label, as it is under max_points: its rows are counted per bucket, stacked by it."""
    v = view(_seasonal_rows(), SEASONAL, max_points=1000)
    assert (v.mark, v.encodings["y"].aggregate, v.encodings["color"].column) == (
        "bar", "count", "weather",
    )  # fmt: skip
    assert v.reason == (
        "at is declared date; weather (declared string, 3 values) is a label of single rows, "
        "not a series: one of its values is found at 60 of the 250 points of at, so a line per "
        "weather would join points far apart. The rows are counted per 7-day bucket, stacked "
        "by weather."
    )
    assert v.notes == (
        "6,000 rows are counted in 37 bars: the rows per 7-day bucket, stacked by weather (at "
        "most one bar per 10 pixels of the chart's width).",
    )
    assert int(v.marks["count"].sum()) == 6000
    assert v.reduction.bucket_seconds == 7 * 86400
    assert [(n.kind, n.counts) for n in v.facts] == [
        ("bucketed", (("rows", 6000), ("bars", 37), ("seconds", 7 * 86400))),
    ]
    # a picked aggregate other than count is drawn as asked: a line of it per weather
    v = view(_seasonal_rows(), SEASONAL, x="at", aggregate="max", max_points=1000)
    assert (v.mark, v.encodings["y"].aggregate, v.encodings["color"].column) == (
        "line", "max", "weather",
    )  # fmt: skip


def test_a_picked_color_of_rows_counted_over_time_is_drawn_not_dropped() -> None:
    """aggregate='count' over a date keeps a picked color (a label's rows stacked by it, a
    series' rows a line each); over a category, bars refuse it and say why."""
    rows = _seasonal_rows(600)
    for row, i in zip(rows, range(600), strict=True):
        row["site"] = "n" if i % 2 else "s"
    decl = {**SEASONAL, "site": "string"}
    v = view(rows, decl, x="at", color="site", aggregate="count")
    assert (v.mark, v.encodings["color"].column, v.drawn["color"]) == ("line", "site", "site")
    assert v.reason.endswith("site (declared string, 2 values) colors one line per series.")
    v = view(rows, decl, x="weather", color="site", aggregate="count")
    assert (v.mark, "color" in v.encodings) == ("bar", False)
    assert [(r.column, r.channel, r.reason) for r in v.refusals] == [
        ("site", "color", "a bar chart draws one bar per weather, so it is not split by site; "
         "pick a date or a number as x to color by it."),
    ]  # fmt: skip


def test_rows_counted_over_time_get_no_color_of_their_own_even_with_a_y_picked() -> None:
    """aggregate='count' drops the measure; a color the chart chose would split the rows by
    a column nobody asked for, with or without a y picked (choose.chart, every backend)."""
    rows = _seasonal_rows(600)
    for row, i in zip(rows, range(600), strict=True):
        row["site"] = "n" if i % 2 else "s"
    decl = {**SEASONAL, "site": "string"}
    plain = view(rows, decl, x="at", aggregate="count")
    with_y = view(rows, decl, x="at", y="temp", aggregate="count")
    for v in (plain, with_y):
        assert (v.mark, "color" in v.encodings, v.encodings["y"].aggregate) == (
            "line", False, "count",
        )  # fmt: skip
    assert with_y.spec["datasets"] == plain.spec["datasets"]


def test_rows_counted_with_no_category_are_counted_over_a_date_else_per_bin() -> None:
    """aggregate='count' and no category to count per: the rows counted over the first date,
    else per bin of the first number (a histogram counts rows), never a table saying no
    column is a number beside columns declared number."""
    rows = [{"at": f"2024-01-{1 + i % 28:02d}T10:00", "a": float(i), "b": float(i % 7)}
            for i in range(300)]  # fmt: skip
    v = view([{"at": r["at"]} for r in rows], {"at": "date"}, aggregate="count")
    assert (v.kind, v.mark, v.encodings["y"].aggregate) == ("chart", "line", "count")
    numbers = [{"a": r["a"], "b": r["b"]} for r in rows]
    v = view(numbers, {"a": "number", "b": "number"}, aggregate="count")
    assert (v.kind, v.mark, v.reason) == (
        "chart", "bar", "a is declared number: a histogram of its values in 10 bins.",
    )  # fmt: skip
    assert sum(r["count"] for r in v.spec["datasets"][next(iter(v.spec["datasets"]))]) == 300
    # a y picked and counted (it crashed: a scatter of no measure): its rows per value or bin
    v = view(numbers, {"a": "number", "b": "number"}, y="b", aggregate="count")
    assert (v.kind, v.mark, v.reason) == (
        "chart", "bar", "b is declared number, with 7 distinct values: a bar counting the rows "
        "of each.",
    )  # fmt: skip
    v = view(numbers, {"a": "number", "b": "number"}, x="a", y="b", aggregate="count")
    assert (v.kind, v.mark, v.drawn["x"]) == ("chart", "bar", "a")


def test_choose_chart_is_the_one_rule_of_what_picks_draw() -> None:
    """choose.chart, from profiles alone: the kind, what is drawn, and each pick refused, as a
    value (the planner words it; a backend reads the columns)."""
    from chartkit.plan.encode import ColumnProfile

    def q(name: str, vl: Any, distinct: int = 0) -> ColumnProfile:
        return ColumnProfile(name, vl, "declared", None, None, True, distinct, 1000)

    cols = {c.name: c for c in [
        q("t", "temporal"), q("site", "nominal", 4), q("wide", "nominal", 15),
        q("gb", "quantitative"), q("ms", "quantitative"),
    ]}  # fmt: skip
    c = choose.chart(cols, "t", None, None, None, count=False, auto_color=True)
    assert (c.kind, c.x, c.ys, c.color, c.auto_color, c.refused) == (
        "line", "t", ("gb",), None, True, (),
    )  # fmt: skip
    c = choose.chart(cols, "t", ["gb"], "wide", None, count=False, auto_color=False)
    assert (c.kind, c.color, c.facet) == ("line", None, "wide")
    assert c.refused == (choose.Refused("color", "wide", "colors-as-facets"),)
    c = choose.chart(cols, "t", ["gb"], "wide", "site", count=False, auto_color=False)
    assert (c.color, c.facet, c.refused) == (
        None, "site", (choose.Refused("color", "wide", "too-many-colors"),),
    )  # fmt: skip
    c = choose.chart(cols, "t", ["gb", "ms"], "site", None, count=False, auto_color=False)
    assert (c.ys, c.color, c.refused) == (
        ("gb", "ms"), None, (choose.Refused("color", "site", "color-by-measures"),),
    )  # fmt: skip
    c = choose.chart(cols, "site", None, "wide", None, count=True, auto_color=False)
    assert (c.kind, c.ys, c.counted, c.refused) == (
        "bars", (), True, (choose.Refused("color", "wide", "bar-color"),),
    )  # fmt: skip
    c = choose.chart(cols, "t", ["site"], None, None, count=False, auto_color=True)
    assert (c.kind, c.refused) == ("table", (choose.Refused("y", "site", "not-a-measure"),))
    c = choose.chart({"t": cols["t"], "site": cols["site"]}, "t", None, None, None,
                     count=False, auto_color=True)  # fmt: skip
    assert (c.kind, c.no_measure) == ("table", True)
    c = choose.chart(cols, "gb", None, None, None, count=False, auto_color=True)
    assert (c.kind, c.x) == ("histogram", "gb")


def test_like_measures_over_a_whole_evenly_spaced_number_keying_the_rows_are_a_line_each() -> None:
    """A year of one row each and like measures (the same scale: a reading per season) draw a
    line per measure over the year, as over a date; past ``max_points`` points, or over a
    number that is no series, one measure (a scatter has one y axis)."""
    rng = random.Random(7)
    seasons = ("winter", "spring", "summer", "autumn")
    rows = [
        {"year": 1950 + i, **{s: round(20 + 4 * rng.random() + k, 2) for k, s in
                              enumerate(seasons)}}
        for i in range(40)
    ]  # fmt: skip
    decl = {"year": "number", **dict.fromkeys(seasons, "number")}
    shown = view(rows, decl)
    assert (shown.mark, shown.encodings["x"].column) == ("line", "year")
    assert shown.encodings["y"].measures == seasons
    assert shown.refusals == ()
    tight = view(rows, decl, max_points=100)  # 160 points: one measure, the others refused
    assert tight.encodings["y"].measures == ()
    assert {r.column for r in tight.refusals} == set(seasons[1:])
    shuffled = [{**r, "year": r["year"] * 1.37 % 7} for r in rows]  # no series: a scatter
    picked = view(shuffled, decl, x="year", y=list(seasons))
    assert (picked.mark, picked.encodings["y"].column) == ("point", "winter")


@_SETTINGS
@given(entities_over_time())
def test_entities_over_time_are_a_line_each(
    result: tuple[list[dict[str, Any]], dict[str, str]],
) -> None:
    rows, decl = result
    v = view(rows, decl)
    assert (v.mark, v.encodings["color"].column) == ("line", "symbol")
    assert "colors one line per series" in v.reason


@st.composite
def hourly(draw: st.DrawFn) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """One measure an hour, for 100 to 4,000 hours (at most max_points rows)."""
    hours = draw(st.integers(100, 4000))
    start = dt.datetime(2010, 1, 1)
    rows = [
        {"at": (start + dt.timedelta(hours=h)).isoformat(), "temp": float(h % 24 + h // 500)}
        for h in range(hours)
    ]
    return rows, {"at": "date", "temp": "number"}


@settings(_SETTINGS, max_examples=25)
@given(hourly())
def test_the_automatic_time_bucket_follows_the_charts_width_not_max_points(
    result: tuple[list[dict[str, Any]], dict[str, str]],
) -> None:
    rows, decl = result
    v = view(rows, decl)
    assert v.mark == "line" and _positions_per_series(v) <= 560
    if len(rows) <= 560:  # a pixel each: every row drawn as it is
        assert len(v.marks) == len(rows) and v.reduction.bucket_seconds is None
    else:
        seconds = v.reduction.bucket_seconds
        assert seconds is not None and v.encodings["y"].aggregate == "mean"
        # the finest bucket that fits: the next finer one would draw more points than pixels
        finer = [s for s in choose.BUCKETS_SECONDS if s < seconds]
        span = (len(rows) - 1) * 3600
        assert not finer or span / finer[-1] + 1 > 560
        assert v.notes[-1].endswith("(more time points than the chart's 560 pixels).")
    bigger = view(rows, decl, max_points=100_000)  # max_points does not set the bucket
    assert bigger.reduction == v.reduction and len(bigger.marks) == len(v.marks)


def test_the_facts_docstring_examples_run() -> None:
    """plan.facts: the counts choosing reads (coverage, of values or of codes; positions)."""
    import doctest

    import chartkit.plan.facts as facts

    result = doctest.testmod(facts, report=False)
    assert result.failed == 0 and result.attempted >= 5


@_SETTINGS
@given(st.lists(st.tuples(st.integers(0, 60), st.integers(0, 4)), min_size=1, max_size=300),
       st.sampled_from([1, 1000]))  # fmt: skip
def test_the_coverage_of_codes_is_the_coverage_of_the_values(
    pairs: list[tuple[int, int]], spread: int
) -> None:
    """Counted from codes (dense, or sparse codes sorted), a line's coverage is the one its
    values give; the planner asks it of the codes its buckets and labels already have."""
    import numpy as np
    import pandas as pd

    from chartkit.plan.facts import coverage, coverage_of_codes

    times = np.array([t * spread for t, _ in pairs])
    labels = np.array([g for _, g in pairs])
    assert coverage_of_codes(times, labels) == coverage(pd.Series(times), pd.Series(labels))
