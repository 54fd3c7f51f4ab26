"""charts.py: a Plan becomes an Altair chart; exports render offline."""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chartkit import ChartkitError, view
from chartkit.draw.charts import build_chart, spec_to_png, spec_to_svg
from chartkit.plan.decide import Plan
from chartkit.plan.encode import Encoding

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.datasets import default_view, facts
from bench.datasets.criteria import Facts, Verdict, judge


def _why(verdict: Verdict, prop: str) -> str:
    outcome = next(o for o in verdict.outcomes if o.name == prop)
    assert outcome.applies, f"{prop} does not apply"
    return outcome.why


def _plan(rows: int) -> Plan:
    data = pd.DataFrame({"k": [f"k{i}" for i in range(rows)], "v": [float(i) for i in range(rows)]})
    return Plan(
        kind="chart", reason="r", mark="bar", data=data,
        encodings={
            "x": Encoding("k", "nominal", "declared", field="k", title="k", declared="string"),
            "y": Encoding("v", "quantitative", "declared", field="v", title="v",
                          declared="number"),
        },
    )  # fmt: skip


def test_a_plan_becomes_a_chart_whose_dict_carries_the_declared_types() -> None:
    spec = build_chart(_plan(3)).to_dict()
    assert spec["mark"]["type"] == "bar"
    assert spec["encoding"]["x"]["type"] == "nominal"
    assert spec["encoding"]["y"]["type"] == "quantitative"
    (values,) = spec["datasets"].values()
    assert [r["v"] for r in values] == [0.0, 1.0, 2.0]


def test_more_rows_than_altairs_limit_never_raise_max_rows() -> None:
    spec = build_chart(_plan(6_000)).to_dict()  # the plan decides the size, not Altair
    (values,) = spec["datasets"].values()
    assert len(values) == 6_000


@pytest.mark.parametrize("facet", [None, "region"])
def test_a_views_spec_is_altairs_own_spec_of_its_chart_and_valid_vega_lite(
    facet: str | None,
) -> None:
    """chart_spec names the rows instead of letting Altair walk and validate each one: the
    spec it writes is still Altair's (the same rows, one dataset), valid Vega-Lite, and the
    chart the user holds keeps its rows."""
    import altair as alt
    from altair.utils.schemapi import validate_jsonschema

    rows = [{"ts": f"2024-01-{d:02d}T00:00:00Z", "v": float(d * r), "region": f"r{r}"}
            for d in range(1, 29) for r in range(3)]  # fmt: skip
    v = view(rows, {"ts": "date", "v": "number", "region": "string"}, facet=facet)
    assert v.chart is not None and v.spec is not None
    ours, altairs = dict(v.spec), v.chart.to_dict()
    (name,) = ours.pop("datasets")
    (their_name,) = altairs["datasets"]
    assert v.spec["datasets"][name] == altairs.pop("datasets")[their_name]
    assert ours.pop("data") == {"name": name} and altairs.pop("data") == {"name": their_name}
    altairs.pop("config")  # Altair writes the active theme's; chartkit pins the default's
    ours.pop("config")
    assert ours == altairs
    validate_jsonschema(v.spec, alt.vegalite.v6.schema.core.load_schema())
    assert len(v.chart.data["values"]) == len(v.spec["datasets"][name])  # the chart keeps them


def test_a_table_plan_has_no_chart() -> None:
    with pytest.raises(ChartkitError, match="there is no chart to build: no measure"):
        build_chart(Plan(kind="table", reason="no measure"))


def test_static_exports_render_offline() -> None:
    spec = build_chart(_plan(3)).to_dict()
    assert spec_to_png(spec)[:4] == b"\x89PNG"
    assert "<svg" in spec_to_svg(spec)


def test_a_saved_svg_is_an_image_named_by_its_title_and_described_by_the_reason(
    tmp_path: Any,
) -> None:
    rows = [{"k<script>": "a", "v": 1.0}, {"k<script>": "b", "v": 2.0}]
    v = view(rows, {"k<script>": "string", "v": "number"})
    root = ET.fromstring(v.save(tmp_path / "c.svg").read_text())  # still well-formed XML
    ns = "{http://www.w3.org/2000/svg}"
    assert root.get("role") == "img"
    assert root.get("aria-label") == v.reason
    title, desc = root.find(f"{ns}title"), root.find(f"{ns}desc")
    assert title is not None and title.text == "v by k<script>"
    assert desc is not None and desc.text == v.reason


# --- drawing rules (issue 20 item 2): zero, number format, log dots, a panel per magnitude ------


def _spec_of(shown: Any) -> dict[str, Any]:
    spec: dict[str, Any] = shown.spec
    return spec


@settings(max_examples=10, deadline=None, database=None, derandomize=True)
@given(
    low=st.integers(1000, 5000), span=st.integers(20, 400), offset=st.floats(20.0, 500.0),
    n=st.integers(12, 60),
)  # fmt: skip
def test_a_scatter_of_years_spans_its_values_printed_as_digits(
    low: int, span: int, offset: float, n: int
) -> None:
    rows = [  # two rows a year: the years do not key the rows, so they are no series
        {"year": low + (i // 2 * span) // n, "level": offset + 0.25 + (i * 7919) % 97}
        for i in range(2 * n)
    ]
    shown = view(rows, {"year": "number", "level": "number"}, x="year", y="level")
    spec = _spec_of(shown)
    assert (shown.mark, spec["mark"]["type"]) == ("point", "point")
    x, y = spec["encoding"]["x"], spec["encoding"]["y"]
    assert x["scale"] == {"zero": False} and y["scale"] == {"zero": False}
    assert x["axis"]["format"] == "~f"  # whole and below 10,000: 1565, not 1,565
    assert y["axis"]["format"] == ",~f"  # not whole: separators and the ticks' precision
    (year_tip,) = [t for t in spec["encoding"]["tooltip"] if t["field"] == x["field"]]
    assert year_tip["format"] == "d"


@settings(max_examples=10, deadline=None, database=None, derandomize=True)
@given(big=st.integers(10_000, 10**7), n=st.integers(12, 40))
def test_whole_values_reaching_ten_thousand_keep_their_separators(big: int, n: int) -> None:
    rows = [{"a": big - i, "b": float(i) + 0.5} for i in range(n)]
    spec = _spec_of(view(rows, {"a": "number", "b": "number"}, x="a", y="b"))
    assert spec["encoding"]["x"]["axis"]["format"] == ",~f"
    assert spec["encoding"]["x"]["scale"] == {"zero": False}


def test_a_bar_keeps_zero_on_its_length_axis() -> None:
    rows = [{"k": f"k{i % 4}", "v": 1000.0 + i} for i in range(40)]
    spec = _spec_of(view(rows, {"k": "string", "v": "number"}))
    assert spec["mark"]["type"] == "bar"
    assert "scale" not in spec["encoding"]["y"]


@settings(max_examples=10, deadline=None, database=None, derandomize=True)
@given(
    values=st.lists(st.floats(0.001, 1000.0), min_size=3, max_size=12),
    horizontal=st.booleans(),
)
def test_a_log_scale_draws_dots_not_bars(values: list[float], horizontal: bool) -> None:
    rows = [{"k": f"category {i}", "v": v} for i, v in enumerate(values)]
    shown = view(rows, {"k": "string", "v": "number"}, x="k", y="v", scale="log")
    spec = _spec_of(shown)
    assert shown.mark == "point" and spec["mark"]["type"] == "point"
    measure = "x" if shown.encodings["x"].type == "quantitative" else "y"
    assert spec["encoding"][measure]["scale"] == {"type": "log"}
    assert {"x2", "y2"}.isdisjoint(spec["encoding"])  # no bar length from a made-up base
    assert not _why(judge(shown, Facts.of(rows, {"k": "string", "v": "number"})),
                    "a log scale is drawn with points")  # fmt: skip


@st.composite
def _two_measures_over_months(draw: st.DrawFn) -> tuple[list[dict[str, Any]], float]:
    ratio = draw(st.sampled_from([1.5, 4.0, 9.0, 11.0, 40.0, 500.0]))
    months = draw(st.integers(12, 36))
    rows = [
        {"month": f"{2000 + i // 12}-{i % 12 + 1:02d}-01", "big": ratio * (5 + i % 3),
         "small": 5.0 + i % 3}
        for i in range(months)
    ]  # fmt: skip
    return rows, ratio


@settings(max_examples=10, deadline=None, database=None, derandomize=True)
@given(_two_measures_over_months())
def test_measures_of_different_magnitude_get_a_panel_and_a_scale_each(
    case: tuple[list[dict[str, Any]], float],
) -> None:
    rows, ratio = case
    declared = {"month": "date", "big": "number", "small": "number"}
    shown = view(rows, declared, x="month", y=["big", "small"])
    spec = _spec_of(shown)
    outcome = _why(judge(shown, Facts.of(rows, declared)),
                   "measures of different magnitude get an axis each")  # fmt: skip
    if ratio > 10:
        assert spec["resolve"] == {"scale": {"y": "independent"}}
        assert spec["facet"]["field"] == "measure" and spec["columns"] == 1
        assert spec["facet"]["sort"] == ["big", "small"]
        assert spec["spec"]["mark"]["type"] == "line"
        assert outcome == ""
    else:
        assert "resolve" not in spec and "facet" not in spec
        assert spec["mark"]["type"] == "line"


def test_wheat_years_cars_magnitudes_and_burtin_on_a_log_scale_are_drawn_to_fit() -> None:
    wheat = default_view("wheat", x="year", y="wheat")
    x = _spec_of(wheat)["encoding"]["x"]
    assert (x["axis"]["format"], x["scale"]) == ("~f", {"zero": False})
    verdict = judge(wheat, facts("wheat"))
    assert wheat.mark == "line"  # a year a row, evenly spaced: a series over the years
    assert _why(verdict, "a years axis reads as years") == ""
    assert x["scale"] == {"zero": False}  # the years span their values
    burtin = judge(default_view("burtin", x="Bacteria", y="Penicillin", scale="log"),
                   facts("burtin"))  # fmt: skip
    assert _why(burtin, "a log scale is drawn with points") == ""
    cars = judge(default_view("cars", x="Year", y=["Weight_in_lbs", "Cylinders"]), facts("cars"))
    assert _why(cars, "measures of different magnitude get an axis each") == ""


def test_measures_of_different_magnitude_on_a_log_scale_share_it_as_dots() -> None:
    rows = [{"pool": f"p{i}", "size_gb": 1000.0 * (i + 1), "used_pct": 5.0 + i} for i in range(6)]
    declared = {"pool": "string", "size_gb": "number", "used_pct": "number"}
    shown = view(rows, declared, y=["size_gb", "used_pct"], aggregate="sum", scale="log")
    spec = _spec_of(shown)
    assert "facet" not in spec and spec["mark"]["type"] == "point" and shown.mark == "point"
    assert spec["encoding"]["y"]["scale"] == {"type": "log"}
    assert spec["encoding"]["xOffset"]["field"] == "measure"  # the dots side by side, as bars were


def test_an_axis_of_few_whole_values_ticks_each_and_none_between() -> None:
    """Subjects measured in group 1 and group 2: before, the x axis ticked 1.1, 1.2 … 1.9
    (and Vega's own tickMinStep still ticks 1.5 between two values)."""
    rows = [{"extra": round(0.3 * i - g, 1), "group": g, "ID": i}
            for g in (1, 2) for i in range(1, 11)]  # fmt: skip
    shown = view(rows, {"extra": "number", "group": "number", "ID": "number"})
    x = _spec_of(shown)["encoding"]["x"]
    assert (x["field"], x["axis"]["values"], x["axis"]["tickMinStep"]) == ("group", [1, 2], 1)


def test_lengths_and_many_whole_values_keep_their_ticks() -> None:
    """Bars' lengths are no positions to tick; past 12 whole values Vega's ticks stand, with
    no step under 1."""
    bars = [{"k": f"k{i}", "n": [12, 340, 55, 7, 90, 1000][i]} for i in range(6)]
    spec = _spec_of(view(bars, {"k": "string", "n": "number"}, aggregate="sum"))
    length = spec["encoding"]["x" if spec["encoding"]["x"]["type"] == "quantitative" else "y"]
    assert "values" not in length["axis"]
    years = [{"year": 1950 + i, "v": float(i * 13 % 37) + 0.5} for i in range(40)]
    x = _spec_of(view(years, {"year": "number", "v": "number"}))["encoding"]["x"]
    assert "values" not in x["axis"] and x["axis"]["tickMinStep"] == 1


def test_quarters_as_fractional_years_tick_as_years() -> None:
    rows = [{"time": 1945 + k / 4, "approval": 40.5 + (k * 37 % 23) / 3} for k in range(48)]
    shown = view(rows, {"time": "number", "approval": "number"})
    assert shown.encodings["x"].calendar
    spec = _spec_of(shown)
    x = spec["encoding"]["x"]
    assert x["axis"]["format"] == "~f" and "tickMinStep" not in x["axis"]  # 1948, not 1,948
    (tip,) = [t for t in spec["encoding"]["tooltip"] if t["field"] == x["field"]]
    assert tip["format"] == "~f"  # 1947.25, not 1,947.25
