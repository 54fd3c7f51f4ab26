"""The default chart on real data: every dataset of bench/datasets/ against the analyst's criteria.

``test_the_default_is_acceptable`` runs every property of ``bench/datasets/criteria.py`` on the
default View of each dataset (the data ``vega_datasets`` and ``statsmodels`` ship offline, as a
tool returns it, with its author's declaration). A dataset whose default is not acceptable yet
is listed in ``OPEN`` with why: its entry is ``xfail(strict=True)``, so when a rule makes that
default acceptable the test XPASSes, fails, and the entry is removed. The other tests hold the
criteria themselves to what they say: each property fails on a chart that breaks it and holds
on one that keeps it. The last ones hold the same properties on generated results
(hypothesis): two measures and no date, one row a day with a per-row label, entities over time,
the rows' key order — those not held yet are ``xfail(strict=True)`` too, with why.
"""

from __future__ import annotations

import datetime as dt
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.datasets import DATASETS, dataset, default_view, facts, judged  # noqa: E402
from bench.datasets.criteria import (  # noqa: E402
    PROPERTIES,
    Chart,
    Facts,
    Verdict,
    both_factors_drawn,
    few_values_not_continuous,
    grid_is_x,
    judge,
    like_measures_together,
    lines_break_at_gaps,
    log_scale_points,
    map_orientation,
    one_unit_per_axis,
    panel_lines,
    scatter_for_measures,
    scatter_not_from_zero,
    weights_summed,
    y_domain_fits,
    years_axis,
)
from chartkit import view  # noqa: E402

OPEN: dict[str, str] = {}
"""Each dataset whose default is not acceptable today, with the properties it fails."""


def _cases() -> list[Any]:
    return [
        pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=OPEN[n])) if n in OPEN else n
        for n in DATASETS
    ]


@pytest.mark.parametrize("name", _cases())
def test_the_default_is_acceptable(name: str) -> None:
    _, verdict = judged(name)
    assert verdict.acceptable, verdict.why_not


def test_the_benchmark_holds_the_datasets_vega_datasets_and_statsmodels_ship_offline() -> None:
    import statsmodels.datasets
    from vega_datasets import local_data

    by_source: dict[str, set[str]] = {}
    for name in DATASETS:
        by_source.setdefault(dataset(name).source, set()).add(name)
    assert set(by_source) == {"vega_datasets", "statsmodels"}  # no held-out package's data
    assert by_source["vega_datasets"] == set(local_data.list_datasets())
    shipped = {
        n for n in dir(statsmodels.datasets)
        if hasattr(getattr(statsmodels.datasets, n), "load_pandas")
    }  # fmt: skip
    assert by_source["statsmodels"] == shipped
    assert len(DATASETS) >= 45
    assert set(OPEN) <= set(DATASETS)


@pytest.mark.parametrize("name", DATASETS)
def test_each_declaration_is_what_its_rows_hold(name: str) -> None:
    """The declaration is the author's truth: on these rows the check files no finding, so the
    benchmark measures the chart, not a broken tool."""
    shown = default_view(name)
    assert shown.check.findings == ()
    ds = dataset(name)
    assert list(ds.result_columns) == list(ds.rows[0])
    assert ds.gallery is not None or ds.analyst


def _verdict(name: str, **picks: Any) -> Verdict:
    return judge(default_view(name, **picks), facts(name))


def _why(verdict: Verdict, prop: str) -> str:
    outcome = next(o for o in verdict.outcomes if o.name == prop)
    assert outcome.applies, f"{prop} does not apply"
    return outcome.why


def test_a_bar_of_a_mean_where_two_measures_call_for_a_scatter_fails() -> None:
    verdict = _verdict("anscombe", x="Series", y="X")
    assert not verdict.acceptable
    assert _why(verdict, "scatter for two measures") == (
        "X, Y are measures and no column is a date, but the chart is a bar of x=Series, "
        "y=mean(X), not a scatter of two measures"
    )


def test_a_scatter_of_anscombe_must_be_split_by_series() -> None:
    per_series = _verdict("anscombe", x="X", y="Y", facet="Series")
    assert _why(per_series, "scatter for two measures") == ""
    chart = Chart.of(default_view("anscombe", x="X", y="Y", facet="Series"))
    alone = replace(chart, columns={"x": "X", "y": "Y"})  # the same scatter, not split
    assert scatter_for_measures(alone, facts("anscombe")) == (
        "the scatter is not colored or faceted by a category of few values (Series)"
    )
    colored = replace(chart, columns={"x": "X", "y": "Y", "color": "Series"})
    assert scatter_for_measures(colored, facts("anscombe")) == (
        "3 of the 4 groups of Series each hold 80% or more of X's 12 positions: one panel per "
        "Series, not colors drawn over each other"
    )
    iris = Chart.of(default_view("iris", x="sepalLength", y="sepalWidth", color="species"))
    assert scatter_for_measures(iris, facts("iris")) == ""  # 15, 21, 21 of 35: colors


def test_a_line_per_label_that_varies_row_by_row_fails_and_per_entity_holds() -> None:
    drawn = default_view("seattle-weather", x="date", y="temp_max", color="weather")
    assert drawn.mark == "bar"  # chartkit stacks the days counted: the line is drawn by hand
    weather = judge(replace(drawn, mark="line"), facts("seattle-weather"))
    assert weather.outcomes[2].name == "a line splits by an entity"
    assert _why(weather, "a line splits by an entity") == (
        "one line per weather, but weather is a label that varies row by row: snow is present "
        "at 23 of 1,461 time points"
    )
    stocks = _verdict("stocks", x="date", y="price", color="symbol")
    assert _why(stocks, "a line splits by an entity") == ""


def _undrawn(chart: Chart, **channels: dict[str, Any]) -> Chart:
    """The same chart with some channels' spec replaced: a drawing that breaks a property."""
    encoding = {**chart.unit["encoding"], **channels}
    return replace(chart, unit={**chart.unit, "encoding": encoding})


def test_years_read_as_years_and_do_not_start_at_zero() -> None:
    verdict = _verdict("wheat", x="year", y="wheat")
    assert _why(verdict, "a years axis reads as years") == ""
    # a scatter of the years (two rows a year are no series: points)
    rows = [r for r in dataset("wheat").rows for _ in range(2)]
    chart = Chart.of(view(rows, dataset("wheat").result_columns, x="year", y="wheat"))
    assert chart.mark == "point"
    x, y = chart.channel("x"), chart.channel("y")
    drawn = _undrawn(chart, x={**x, "axis": {}, "scale": {}}, y={**y, "scale": {}})
    assert years_axis(drawn, facts("wheat")) == (
        "year holds years but its axis prints them with a thousands separator (format None)"
    )
    assert scatter_not_from_zero(drawn, facts("wheat")) == (
        "the axis of year (1565–1820), wheat (26–99) starts at zero"
    )
    from_zero = _undrawn(chart, x={**x, "scale": {}})
    assert years_axis(from_zero, facts("wheat")) == "the axis of year (years) starts at zero"


def test_values_over_orders_of_magnitude_need_a_log_scale_and_a_log_scale_points() -> None:
    linear = _verdict("burtin", x="Bacteria", y="Penicillin")
    assert _why(linear, "values over orders of magnitude are on a log scale") == (
        "Penicillin spans 0.001 to 870 (5.9 powers of ten) on a linear axis: the small values "
        "are invisible"
    )
    logged = _verdict("burtin", x="Bacteria", y="Penicillin", scale="log")
    assert _why(logged, "values over orders of magnitude are on a log scale") == ""
    assert _why(logged, "a log scale is drawn with points") == ""
    as_bars = replace(Chart.of(default_view("burtin", x="Bacteria", y="Penicillin", scale="log")),
                      mark="bar")  # fmt: skip
    assert log_scale_points(as_bars, facts("burtin")) == (
        "bars on a log scale (Penicillin): a log axis has no zero for a bar to start from"
    )


def test_an_identifier_as_categories_fails() -> None:
    verdict = _verdict("airports", x="city", y="latitude")
    assert _why(verdict, "an identifier is not a category") == (
        "city is the x categories, but 2,674 of its 3,364 values are distinct: an identifier"
    )
    by_country = _verdict("airports", x="country", y="latitude")
    assert _why(by_country, "an identifier is not a category") == ""


def test_more_time_positions_than_pixels_fails() -> None:
    verdict = _verdict("seattle-temps", x="date", y="temp", time_unit="hour")  # every hour
    assert _why(verdict, "the time axis fits the chart's width") == (
        "8,759 time positions on a 560-pixel axis (more than one per pixel: a solid band)"
    )
    assert _why(_verdict("seattle-temps"), "the time axis fits the chart's width") == ""
    few = _verdict("seattle-temps", x="date", y="temp", time_unit="day")
    assert _why(few, "the time axis fits the chart's width") == ""


def test_measures_of_different_magnitude_on_one_axis_fail() -> None:
    verdict = _verdict("cars", x="Year", y=["Weight_in_lbs", "Cylinders"])
    assert _why(verdict, "measures of different magnitude get an axis each") == ""
    chart = Chart.of(default_view("cars", x="Year", y=["Weight_in_lbs", "Cylinders"]))
    shared = replace(chart, independent=frozenset())  # the same lines on one shared axis
    assert one_unit_per_axis(shared, facts("cars")) == (
        "Weight_in_lbs (up to 5,140) and Cylinders (up to 8) share one axis"
    )


def test_an_aggregate_of_years_fails() -> None:
    verdict = _verdict("driving", x="side", y="year")
    assert _why(verdict, "an aggregate is of a measure") == (
        "the y axis is the mean of year, a column of years"
    )


def test_a_breakdown_drawn_as_means_fails_and_as_totals_holds() -> None:
    """Medal counts: one row per nation and medal — a breakdown, whose bars are totals."""
    rows = [
        {"nation": n, "medal": m, "count": c}
        for n, counts in {"NOR": (16, 8, 13), "GER": (12, 10, 5), "CAN": (4, 8, 14)}.items()
        for m, c in zip(("gold", "silver", "bronze"), counts, strict=True)
    ]
    declared = {"nation": "string", "medal": "string", "count": "number"}
    known = Facts.of(rows, declared)
    means = judge(view(rows, declared, x="nation", y="count"), known)
    assert _why(means, "a breakdown is drawn as totals") == (
        "one row per nation and medal: a breakdown, drawn as the mean per nation instead of "
        "the total"
    )
    totals = judge(view(rows, declared, x="nation", y="count", aggregate="sum"), known)
    assert _why(totals, "a breakdown is drawn as totals") == ""


def test_a_default_that_follows_the_rows_key_order_fails() -> None:
    shown = default_view("crimea")
    assert default_view("crimea", reverse_keys=True).reason == shown.reason  # the rule holds
    # a default that did follow the keys' order (as chartkit's did before issue 20's rule)
    followed = default_view("crimea", x="date", y="disease")
    verdict = judge(shown, facts("crimea"), followed)
    assert _why(verdict, "the default does not depend on the order of keys") == (
        "with each row's keys reversed the default is line of x=date, y=disease, not line of "
        "x=date, y=wounds, color=measure"
    )
    same = judge(shown, facts("crimea"), shown)
    assert _why(same, "the default does not depend on the order of keys") == ""


def test_a_table_is_not_an_acceptable_default() -> None:
    rows = dataset("anscombe").rows[:1]
    verdict = judge(view(rows, dataset("anscombe").result_columns), facts("anscombe"))
    assert not verdict.acceptable
    assert verdict.why_not.startswith("a chart is drawn: the view is a table")


def test_a_line_over_years_is_a_series_not_a_missing_scatter() -> None:
    """nile: volume over 100 years; copper: consumption over TIME = 1..25 (a count of years)."""
    for name, x, y in (("nile", "year", "volume"), ("copper", "TIME", "WORLDCONSUMPTION")):
        drawn = replace(Chart.of(default_view(name, x=x, y=y)), mark="line")
        assert scatter_for_measures(drawn, facts(name)) is None
        points = replace(drawn, mark="bar", aggregates={"y": "mean"})
        assert scatter_for_measures(points, facts(name)).endswith("not a scatter of two measures")


def _as(chart: Chart, mark: str, **channels: str) -> Chart:
    """The chart drawn as ``mark`` with only these channels, each a plain field (no aggregate,
    no fold): a drawing that keeps or breaks a property, whatever today's chooser draws."""
    return replace(
        chart, mark=mark, columns=channels, aggregates={}, measures={},
        unit={**chart.unit, "encoding": {
            ch: {"field": c, "type": "quantitative" if ch in ("x", "y") else "nominal"}
            for ch, c in channels.items()
        }},
    )  # fmt: skip


def test_latitude_on_x_fails_and_a_map_holds() -> None:
    chart = Chart.of(default_view("airports", x="longitude", y="latitude"))
    transposed = _as(chart, "point", x="latitude", y="longitude")
    assert map_orientation(transposed, facts("airports")) == (
        "latitude and longitude are coordinates: a map draws longitude on x and latitude on y, "
        "but the chart is a point of x=latitude, y=longitude"
    )
    mapped = _as(chart, "point", x="longitude", y="latitude")
    assert map_orientation(mapped, facts("airports")) == ""


def test_a_two_value_year_as_a_continuous_axis_fails() -> None:
    chart = Chart.of(default_view("barley", x="yield", y="year"))
    continuous = _as(chart, "point", x="yield", y="year")
    assert few_values_not_continuous(continuous, facts("barley")) == (
        "year holds 2 distinct values (1931, 1932) and is the continuous y axis: a factor, "
        "drawn as categories, color or panels"
    )
    as_color = _as(chart, "point", x="yield", color="year")
    assert few_values_not_continuous(as_color, facts("barley")) == ""  # yield: many values
    iris = _as(Chart.of(default_view("iris")), "point", x="sepalLength", y="sepalWidth")
    assert few_values_not_continuous(iris, facts("iris")) == ""


def test_one_of_three_like_measures_alone_fails_and_the_three_together_hold() -> None:
    alone = Chart.of(default_view("crimea", x="date", y="wounds"))
    assert like_measures_together(alone, facts("crimea")) == (
        "wounds is drawn alone, but wounds, other, disease are 3 like measures over date "
        "(within 10x of each other): drawn together"
    )
    together = _verdict("crimea", x="date", y=["wounds", "other", "disease"])
    assert _why(together, "like measures are drawn together") == ""
    two = replace(Chart.of(default_view("crimea", x="date", y=["wounds", "other"])), said=())
    assert like_measures_together(two, facts("crimea")) == (
        "2 of the 3 like measures over date are drawn, and the picture does not say how many "
        "are left out (1)"
    )
    said = replace(two, said=("1 more like measure (disease) is left out.",))
    assert like_measures_together(said, facts("crimea")) == ""


def test_a_grid_on_y_or_without_the_response_fails() -> None:
    """fair: the marriage rating and the age bracket are grids; affairs is the response."""
    chart = Chart.of(default_view("fair", x="rate_marriage", y="affairs"))
    on_y = _as(chart, "rect", x="rate_marriage", y="age")
    assert grid_is_x(on_y, facts("fair")) == (
        "age is a grid (6 ordered values, each repeated) drawn on y: a grid indexes the rows "
        "and is x, the response (affairs) is y"
    )
    counted = replace(_as(chart, "bar", x="rate_marriage", y="affairs"), aggregates={"y": "count"})
    assert grid_is_x(counted, facts("fair")) == (
        "rate_marriage (a grid) is x but y is count(affairs), not a measure: the response "
        "(affairs) is y"
    )
    response = replace(counted, aggregates={"y": "mean"})
    assert grid_is_x(response, facts("fair")) == ""


def test_an_entity_over_a_grid_drawn_as_points_fails() -> None:
    chart = Chart.of(default_view("grunfeld", x="year", y="invest", color="firm"))
    points = _as(chart, "point", x="invest", y="value")
    assert panel_lines(points, facts("grunfeld")) == (
        "each of the 11 values of firm has a row at 80% or more of year's 20 values: a line "
        "per firm over year, but the chart is a point of x=invest, y=value"
    )
    lines = _as(chart, "line", x="year", y="invest", color="firm")
    assert panel_lines(lines, facts("grunfeld")) == ""


def _medals() -> tuple[list[dict[str, Any]], dict[str, str]]:
    rows = [
        {"nation": n, "medal": m, "count": c}
        for n, counts in {"NOR": (16, 8, 13), "GER": (12, 10, 5), "CAN": (4, 8, 14)}.items()
        for m, c in zip(("gold", "silver", "bronze"), counts, strict=True)
    ]
    return rows, {"nation": "string", "medal": "string", "count": "number"}


def test_a_count_over_a_unique_key_averaged_fails_and_summed_holds() -> None:
    rows, declared = _medals()
    known = Facts.of(rows, declared)
    sums = Chart.of(view(rows, declared, x="nation", y="count", aggregate="sum"))
    assert weights_summed(sums, known) == ""
    means = replace(sums, aggregates={"x": None, "y": "mean"})
    assert weights_summed(means, known) == (
        "count is a count over a unique key of nation, medal (one row per combination, whole "
        "numbers, none negative): drawn as its mean, not its sum"
    )


def test_two_factors_and_a_measure_drawn_per_one_factor_fail() -> None:
    """A dose of three values and a supplement of two: the mean length per supplement alone."""
    rows = [
        {"supp": s, "dose": d, "len": round(5 + 3 * d + (2 if s == "OJ" else 0) + 0.1 * i, 1)}
        for s in ("OJ", "VC") for d in (0.5, 1.0, 2.0) for i in range(10)
    ]  # fmt: skip
    declared = {"supp": "string", "dose": "number", "len": "number"}
    known = Facts.of(rows, declared)
    chart = Chart.of(view(rows, declared, x="supp", y="len", aggregate="mean"))
    bars = replace(chart, mark="bar", columns={"x": "supp", "y": "len"}, aggregates={"y": "mean"})
    assert both_factors_drawn(bars, known) == (
        "len is drawn per supp alone, but dose is a factor too: both factors are drawn (x and "
        "color or panels)"
    )
    colored = replace(bars, columns={**bars.columns, "color": "dose"})
    assert both_factors_drawn(colored, known) == ""


def _quarters(missing: set[int]) -> tuple[list[dict[str, Any]], dict[str, str]]:
    rows = [
        {"quarter": f"{2000 + q // 4}-{3 * (q % 4) + 1:02d}-01", "rate": 4.0 + 0.1 * q}
        for q in range(24) if q not in missing
    ]  # fmt: skip
    return rows, {"quarter": "date", "rate": "number"}


def test_a_line_across_missing_quarters_fails_and_a_broken_one_holds() -> None:
    rows, declared = _quarters({9, 10, 17})
    known = Facts.of(rows, declared)
    chart = Chart.of(view(rows, declared, x="quarter", y="rate"))
    x, y = chart.channel("x")["field"], chart.channel("y")["field"]
    points = [r for r in chart.records if r.get(y) is not None]
    straight = replace(chart, mark="line", unit={**chart.unit, "mark": {"type": "line"}},
                       records=points)  # fmt: skip
    assert lines_break_at_gaps(straight, known) == (
        "the line of rate is drawn straight across 2 missing time points (the first after "
        "2002-01-01): it breaks there"
    )
    holes = [{x: "2002-04-01", y: None}, {x: "2004-04-01", y: None}]
    broken = replace(straight, unit={**chart.unit, "mark": {"type": "line", "invalid": None}},
                     records=[*points, *holes])  # fmt: skip
    assert lines_break_at_gaps(broken, known) == ""
    whole_rows, whole = _quarters(set())
    every = replace(Chart.of(view(whole_rows, whole, x="quarter", y="rate")), mark="line")
    assert lines_break_at_gaps(every, Facts.of(whole_rows, whole)) == ""


def test_a_line_far_from_zero_drawn_from_zero_fails_and_bars_keep_zero() -> None:
    rows = [{"week": f"2001-01-{d:02d}", "ppm": 360.0 + d % 7} for d in range(1, 29)]
    declared = {"week": "date", "ppm": "number"}
    known = Facts.of(rows, declared)
    chart = Chart.of(view(rows, declared, x="week", y="ppm"))
    y = {**chart.channel("y"), "scale": {}}
    from_zero = replace(_undrawn(chart, y=y), mark="line")
    assert y_domain_fits(from_zero, known) == (
        "ppm spans 360 to 366, a span small next to its distance from zero, and its axis "
        "starts at zero: the lines fill 2% of the height"
    )
    fitted = replace(_undrawn(chart, y={**y, "scale": {"zero": False}}), mark="line")
    assert y_domain_fits(fitted, known) == ""
    assert y_domain_fits(replace(fitted, mark="bar"), known) == "bars of ppm do not start at zero"
    assert y_domain_fits(replace(from_zero, mark="bar"), known) == ""


def test_every_property_is_named_once() -> None:
    names = [p.name for p in PROPERTIES]
    assert len(names) == len(set(names)) == 20


def _md(text: str) -> str:
    out = text.replace("\\", "\\\\")
    for ch in "`*_[]<>|#":
        out = out.replace(ch, f"\\{ch}")
    return out


def test_the_gallery_page_shows_each_dataset_with_its_verdict_as_the_code_says_it() -> None:
    """docs/gallery.md is what ``make gallery`` writes: each dataset's default, picture, verdict."""
    text = (REPO / "docs" / "gallery.md").read_text(encoding="utf-8")
    verdicts = {name: judged(name) for name in DATASETS}
    good = sum(v.acceptable for _, v in verdicts.values())
    assert f"**{good} of {len(DATASETS)} defaults are acceptable.**" in text, "run make gallery"
    for name, (shown, verdict) in verdicts.items():
        assert f"### data-{name}\n" in text
        said = "acceptable" if verdict.acceptable else f"not acceptable — {verdict.why_not}"
        assert f"**Verdict**: {_md(said)}\n" in text, f"run make gallery ({name})"
        assert f"**chartkit's default** ({shown.kind}): {_md(shown.reason)}" in text
        if shown.spec is not None:
            picture = REPO / "docs" / "gallery" / f"data-{name}.png"
            assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
            assert f"](gallery/data-{name}.png)" in text


# --- the same properties on generated results (hypothesis) -------------------------------------

_GENERATED = settings(
    max_examples=20, deadline=None, database=None, derandomize=True,
    suppress_health_check=list(HealthCheck),
    phases=(Phase.explicit, Phase.generate),  # an open entry fails fast: no shrinking
)  # fmt: skip
_MEASURES = ("height", "weight", "price", "load")
_LABELS = ("north", "south", "east", "west", "centre")


@st.composite
def _measures_and_a_category(draw: st.DrawFn) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """Two to four measures (each with many distinct values), a category of 2 to 5 values, no
    date; the declaration (and each row's keys) in a drawn order."""
    import numpy as np

    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    rows_n = draw(st.integers(30, 200))
    measures = list(_MEASURES[: draw(st.integers(2, 4))])
    labels = _LABELS[: draw(st.integers(2, 5))]
    declared = {**{m: "number" for m in measures}, "group": "string"}
    order = draw(st.permutations(list(declared)))
    rows = []
    for i in range(rows_n):
        values = {
            m: round(float(rng.normal(50 + 10 * k, 5 + k)), 3) for k, m in enumerate(measures)
        }
        row = {**values, "group": labels[i % len(labels)]}
        rows.append({c: row[c] for c in order})
    return rows, {c: declared[c] for c in order}


@st.composite
def _days_with_a_label(draw: st.DrawFn) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """One row a day with a measure and a label that varies row by row (the day's weather)."""
    import numpy as np

    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    days = draw(st.integers(60, 400))
    labels = _LABELS[: draw(st.integers(3, 5))]
    start = dt.date(2020, 1, 1)
    rows = [
        {
            "day": (start + dt.timedelta(days=i)).isoformat(),
            "rain": round(float(rng.gamma(2.0, 3.0)), 2),
            "weather": labels[int(rng.integers(len(labels)))],
        }
        for i in range(days)
    ]
    return rows, {"day": "date", "rain": "number", "weather": "string"}


@st.composite
def _entities_over_time(draw: st.DrawFn) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """A panel: 2 to 5 entities, each with a value at every one of 20 to 80 months."""
    import numpy as np

    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    months = draw(st.integers(20, 80))
    entities = [f"stock-{k}" for k in range(draw(st.integers(2, 5)))]
    rows = [
        {
            "month": f"{2000 + i // 12}-{i % 12 + 1:02d}-01",
            "symbol": entity,
            "price": round(float(10 * (k + 1) + rng.normal(0, 1) + i), 2),
        }
        for i in range(months)
        for k, entity in enumerate(entities)
    ]
    return rows, {"month": "date", "symbol": "string", "price": "number"}


def _judged(rows: list[dict[str, Any]], declared: dict[str, str]) -> Verdict:
    return judge(view(rows, declared), Facts.of(rows, declared))


@_GENERATED
@given(_measures_and_a_category())
def test_generated_two_measures_and_no_date_draw_a_scatter_split_by_the_category(
    result: tuple[list[dict[str, Any]], dict[str, str]],
) -> None:
    verdict = _judged(*result)
    assert _why(verdict, "scatter for two measures") == ""


@_GENERATED
@given(_days_with_a_label())
def test_generated_days_with_a_per_row_label_are_not_a_line_per_label(
    result: tuple[list[dict[str, Any]], dict[str, str]],
) -> None:
    outcome = next(o for o in _judged(*result).outcomes if o.name == "a line splits by an entity")
    assert outcome.holds, outcome.why


@_GENERATED
@given(_entities_over_time())
def test_generated_entities_over_time_are_a_line_each(
    result: tuple[list[dict[str, Any]], dict[str, str]],
) -> None:
    rows, declared = result
    shown = view(rows, declared)
    assert (shown.mark, shown.encodings["color"].column) == ("line", "symbol")
    assert _why(judge(shown, Facts.of(rows, declared)), "a line splits by an entity") == ""


@_GENERATED
@given(_measures_and_a_category())
def test_generated_defaults_do_not_depend_on_the_rows_key_order(
    result: tuple[list[dict[str, Any]], dict[str, str]],
) -> None:
    rows, declared = result
    reversed_rows = [dict(reversed(list(r.items()))) for r in rows]
    verdict = judge(view(rows, declared), Facts.of(rows, declared), view(reversed_rows, declared))
    assert _why(verdict, "the default does not depend on the order of keys") == ""
