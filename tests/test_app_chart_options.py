"""The explorer's chart options and alternatives, driven through AppTest like a person would."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

import chartkit.explorer._logic as ex

APP = Path(__file__).resolve().parent.parent / "app" / "explorer.py"


@pytest.fixture
def capacity(monkeypatch: pytest.MonkeyPatch) -> AppTest:
    """The explorer opened on the capacity example."""
    monkeypatch.delenv(ex.ENV_FILE, raising=False)
    monkeypatch.delenv("CHARTKIT_EXPLORE_MAX_MB", raising=False)
    at = AppTest.from_file(str(APP), default_timeout=120).run()
    at.selectbox(key="example").set_value("capacity_view")
    return ok(at.run())


RKEY = "example:capacity_view#0"


def ok(at: AppTest) -> AppTest:
    assert [e.value for e in at.exception] == []
    return at


def chart(at: AppTest) -> dict[str, Any]:
    [spec] = [json.loads(c.proto.spec) for c in at.get("vega_lite_chart")]
    return spec  # type: ignore[no-any-return]


def pick(at: AppTest, name: str, value: Any) -> AppTest:
    at.selectbox(key=f"chart-{name}:{RKEY}").set_value(value)
    return ok(at.run())


def axis(at: AppTest, channel: str, column: str) -> AppTest:
    at.selectbox(key=f"axis-{channel}:{RKEY}").set_value(column)
    return ok(at.run())


def test_aggregate_sort_scale_format_and_more_measures_redraw_the_chart(capacity: AppTest) -> None:
    assert chart(capacity)["mark"]["type"] == "point"  # two measures: a scatter opens
    at = axis(axis(capacity, "x", "pool"), "y", "size_gb")
    assert chart(at)["encoding"]["y"]["title"] == "mean of size_gb"
    at = pick(at, "aggregate", "sum")
    assert chart(at)["encoding"]["y"]["title"] == "sum of size_gb"
    at = pick(at, "sort", "x")
    order = chart(at)["encoding"]["x"]["sort"]
    assert order == sorted(order)
    at = pick(at, "scale", "log")
    assert chart(at)["encoding"]["y"]["scale"]["type"] == "log"
    at.text_input(key=f"chart-format:{RKEY}").set_value(",.1f")
    at = ok(at.run())
    assert chart(at)["encoding"]["y"]["axis"]["format"] == ",.1f"
    at.multiselect(key=f"chart-more_y:{RKEY}").set_value(["size_gb", "used_pct"])
    at = ok(at.run())
    spec = chart(at)  # one bar per measure, side by side, the legend naming them
    assert spec["encoding"]["color"]["field"] == "measure"
    assert spec["encoding"]["xOffset"]["sort"] == ["size_gb", "used_pct"]


def test_the_measure_axis_picker_starts_a_line_at_zero_or_spans_its_values(
    capacity: AppTest,
) -> None:
    capacity.selectbox(key="example").set_value("latency_by_region")
    at = ok(capacity.run())
    rkey = "example:latency_by_region#0"
    for choice, zero in (("starts at zero", True), ("spans the values", False)):
        at.selectbox(key=f"chart-zero:{rkey}").set_value(choice)
        at = ok(at.run())
        spec = chart(at)
        encoding = spec.get("encoding") or spec["spec"]["encoding"]
        assert encoding["y"].get("scale", {}).get("zero", True) is zero


def test_facet_draws_small_multiples_and_a_time_unit_buckets_dates(capacity: AppTest) -> None:
    at = pick(capacity, "facet", "thin")
    assert chart(at)["facet"]["field"] == "thin"
    at.selectbox(key="example").set_value("latency_by_region")
    at = ok(at.run())
    at.selectbox(key="chart-time_unit:example:latency_by_region#0").set_value("day")
    at = ok(at.run())
    axis = chart(at)["encoding"]["x"]["axis"]
    assert axis == {"format": "%Y-%m-%d", "tickCount": {"interval": "day", "step": 1}}


def test_the_alternatives_are_labelled_choices_and_one_click_draws_one(capacity: AppTest) -> None:
    """Each alternative is named by its chart and columns, so no two read alike (tiny
    thumbnails of two histograms could not be told apart, nor read)."""
    buttons = [b for b in capacity.button if b.key and b.key.startswith("alternative-")]
    labels = [b.label.replace("\\", "") for b in buttons]
    assert labels == [
        "colored bars of pool × used_pct, by size_gb, per thin",
        "colored bars of thin × used_pct, by size_gb, per pool",
        "colored bars of pool × size_gb, by thin",
        "grouped bars of pool × size_gb, per thin", "grouped bars of pool × used_pct, per thin",
        "grouped bars of thin × size_gb, per pool", "bars of pool × size_gb",
        "bars of pool × used_pct",
    ]  # fmt: skip
    assert len(set(labels)) == len(labels)
    assert len(capacity.get("image")) == 0
    capacity.button(key=f"alternative-5:{RKEY}").click()  # thin's bars, per pool
    at = ok(capacity.run())
    assert at.selectbox(key=f"chart-facet:{RKEY}").value == "pool"
    spec = chart(at)
    assert spec["facet"]["field"] == "pool"
    assert (spec["spec"]["encoding"]["x"]["field"], spec["spec"]["encoding"]["y"]["title"]) == (
        "thin",
        "mean of size_gb",
    )
    others = [b for b in at.button if (b.key or "").startswith("alternative-")]
    scatter = next(b for b in others if b.label.replace("\\", "").startswith("scatter"))
    scatter.click()  # the scatter, now one of the others
    at = ok(at.run())
    assert chart(at)["mark"]["type"] == "point"
    assert at.selectbox(key=f"axis-x:{RKEY}").value == "size_gb"
