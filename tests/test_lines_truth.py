"""Lines that tell the truth (issue 40 item 4): a regular series breaks at its missing time
points, a line's measure axis fits values far from zero (``zero=`` forces either), more
measures than ten hues are small multiples, and a clicked mark is emphasised."""

from __future__ import annotations

import re
from typing import Any

import duckdb
import pandas as pd
import polars as pl
import pytest

from chartkit import ChartkitError, view
from chartkit.draw.charts import PALETTE, SELECTED, UNSELECTED_OPACITY
from chartkit.plan.gaps import broken_at_gaps, number_step, regular_step
from chartkit.plan.rules import MAX_FACETS

QUARTERS = [q for q in pd.date_range("2010-01-01", periods=40, freq="QS") if q.year != 2014]
QUARTERLY = [{"q": q.date().isoformat(), "v": 313.0 + i} for i, q in enumerate(QUARTERS)]
Q_DECL = {"q": "date", "v": "number"}


def _paths(svg: str) -> list[str]:
    """The ``d`` of each line the SVG draws (Vega's line marks)."""
    marks = re.findall(r'<g class="mark-line role-mark[^"]*"[^>]*>(.*?)</g>', svg, flags=re.S)
    return [d for body in marks for d in re.findall(r'<path[^>]* d="([^"]+)"', body)]


def _frames(rows: list[dict[str, Any]]) -> dict[str, Any]:
    frame = pl.DataFrame(rows)
    return {"memory": rows, "polars": frame, "duckdb": duckdb.sql("select * from frame")}


@pytest.mark.parametrize("where", ["memory", "polars", "duckdb"])
def test_a_quarterly_series_missing_a_year_breaks_its_line_there(where: str) -> None:
    v = view(_frames(QUARTERLY)[where], Q_DECL, x="q", y="v")
    assert v.mark == "line" and v.marks is not None and v.spec is not None
    missing = v.marks[v.marks["v"].isna()]
    assert [t.date().isoformat() for t in missing["q"]] == ["2014-01-01"]  # one row per gap
    assert len(v.marks) == len(QUARTERLY) + 1
    assert v.spec["mark"]["invalid"] == "break-paths-show-domains"
    (path,) = _paths(v.to_svg())
    assert path.count("M") == 2  # two runs of the line: it is not drawn across 2014


def test_the_gap_rows_are_the_same_in_memory_and_on_every_engine() -> None:
    marks = [view(data, Q_DECL, x="q", y="v").marks for data in _frames(QUARTERLY).values()]
    assert marks[0] is not None
    for other in marks[1:]:
        assert other is not None
        pd.testing.assert_frame_equal(other.reset_index(drop=True),
                                      marks[0].reset_index(drop=True))  # fmt: skip


def test_a_series_without_gaps_or_with_irregular_times_is_drawn_as_it_was() -> None:
    whole = [{"q": q.date().isoformat(), "v": float(i)}
             for i, q in enumerate(pd.date_range("2010-01-01", periods=12, freq="QS"))]  # fmt: skip
    v = view(whole, Q_DECL, x="q", y="v")
    assert v.marks is not None and not v.marks["v"].isna().any()
    seconds = [0, 3, 11, 12, 30, 31, 47, 60, 61, 90]  # events at their own times
    events = [{"q": f"2024-01-01T00:00:{s:02d}" if s < 60 else f"2024-01-01T00:01:{s - 60:02d}",
               "v": float(s)} for s in seconds]  # fmt: skip
    e = view(events, Q_DECL, x="q", y="v")
    assert e.marks is not None and not e.marks["v"].isna().any()
    (path,) = _paths(e.to_svg())
    assert path.count("M") == 1


def test_each_series_breaks_at_its_own_gaps_by_its_own_step() -> None:
    days = pd.date_range("2024-01-01", periods=28, freq="D")
    rows = [{"d": d.date().isoformat(), "k": "daily", "v": float(i % 5)}
            for i, d in enumerate(days) if not 10 <= i <= 13]  # fmt: skip
    rows += [{"d": d.date().isoformat(), "k": "every other day", "v": 9.0 + i % 2}
             for i, d in enumerate(days[::2])]  # fmt: skip
    v = view(rows, {"d": "date", "k": "string", "v": "number"}, x="d", y="v", color="k")
    assert v.mark == "line" and v.marks is not None
    missing = v.marks[v.marks["v"].isna()]
    assert missing["k"].tolist() == ["daily"]  # the other's step is two days: no gap
    assert missing["d"].iloc[0] == pd.Timestamp("2024-01-11")


# a quarterly series as R's frames hold one: the time as fractional years, a value missing
# at three quarters (two of them in a row: one gap)
FRACTIONAL = [
    {"time": 1945 + k / 4, "approval": None if k in (9, 30, 31) else 40.5 + (k * 37 % 23) / 3}
    for k in range(48)
]  # fmt: skip
F_DECL = {"time": "number", "approval": {"type": "number", "nullable": True}}


@pytest.mark.parametrize("where", ["memory", "polars", "duckdb"])
def test_a_series_over_fractional_years_breaks_at_its_missing_quarters(where: str) -> None:
    """Before, the rows of no value were left out and the line drew a ramp across them."""
    v = view(_frames(FRACTIONAL)[where], F_DECL)
    assert v.mark == "line" and v.marks is not None and v.spec is not None
    assert (v.encodings["x"].column, v.encodings["y"].column) == ("time", "approval")
    missing = v.marks[v.marks["approval"].isna()]
    assert missing["time"].tolist() == [1947.25, 1952.5]  # one row per gap
    (path,) = _paths(v.to_svg())
    assert path.count("M") == 3  # three runs of the line


def test_a_panel_over_days_breaks_each_subject_s_line_at_its_own_missing_day() -> None:
    rows = [
        {"subject": f"s{k}", "days": d, "reaction": 250.5 + k * 10 + d * 3.7 + (d * k % 3) / 7}
        for k in range(3) for d in range(10) if not (k == 1 and d in (4, 5))
    ]  # fmt: skip
    v = view(rows, {"subject": "string", "days": "number", "reaction": "number"})
    assert v.mark == "line" and v.marks is not None
    assert v.encodings["color"].column == "subject"
    missing = v.marks[v.marks["reaction"].isna()]
    assert (missing["subject"].tolist(), missing["days"].tolist()) == (["s1"], [4])


def test_numbers_are_a_regular_step_as_times_are_and_a_dose_is_no_series() -> None:
    import numpy as np

    assert number_step(np.array([1945.0, 1945.25, 1945.5, 1946.0, 1946.25])) == 0.25
    assert number_step(np.array([2000.0, 2001.0, 2002.0, 2005.0])) == 1.0
    assert number_step(np.array([1.0, 2.0, 3.5])) is None  # (not a whole number of steps)
    assert number_step(np.array([1.0, 2.0])) is None
    assert number_step(np.array([2000.0, 2000.0833, 2000.1667, 2000.3333])) == pytest.approx(0.0833)
    # a dose's levels are a design, not a series: a level between them is no gap
    doses = [{"dose": d, "len": float(i)} for i, d in enumerate([0.5, 1.0, 2.0] * 4)]
    shown = view(doses, {"dose": "number", "len": "number"}, x="dose", y="len",
                 aggregate="mean")  # fmt: skip
    assert shown.marks is not None and not shown.marks["len"].isna().any()


def test_months_quarters_years_and_month_ends_are_steps() -> None:
    assert regular_step(pd.DatetimeIndex(pd.date_range("2000", periods=5, freq="MS"))) == (
        "month", 1)  # fmt: skip
    assert regular_step(pd.DatetimeIndex(pd.date_range("2000", periods=5, freq="YS"))) == (
        "month", 12)  # fmt: skip
    ends = pd.DatetimeIndex(pd.date_range("2000-01-31", periods=6, freq="ME"))
    assert regular_step(ends) == ("month", 1)
    line = pd.DataFrame({"t": ends.delete(2), "v": [1.0, 2.0, 4.0, 5.0, 6.0]})
    broken = broken_at_gaps(line, "t", "v", [])
    assert broken["t"][broken["v"].isna()].tolist() == [pd.Timestamp("2000-03-31")]


def test_rows_counted_per_time_drop_to_zero_across_a_gap() -> None:
    days = pd.DatetimeIndex(pd.date_range("2024-01-01", periods=10, freq="D")).delete([4, 5, 6])
    counts = pd.DataFrame(
        {"t": days, "count": [3, 1, 2, 5, 4, 2, 1], "rows": [3, 1, 2, 5, 4, 2, 1]}
    )
    out = broken_at_gaps(counts, "t", "count", [], zero=True)
    added = out[out["rows"] == 0]
    assert added["t"].tolist() == [pd.Timestamp("2024-01-05"), pd.Timestamp("2024-01-07")]
    assert added["count"].tolist() == [0.0, 0.0]


# --- the y domain -------------------------------------------------------------------------

CO2: list[dict[str, Any]] = [{"m": m.date().isoformat(), "ppm": 313.0 + i * 0.9}
       for i, m in enumerate(pd.date_range("1959-01-01", periods=60, freq="MS"))]  # fmt: skip
CO2_DECL = {"m": "date", "ppm": "number"}


def test_a_line_far_from_zero_spans_its_values_and_one_reaching_down_keeps_zero() -> None:
    fitted = view(CO2, CO2_DECL, x="m", y="ppm")
    assert fitted.spec is not None and fitted.spec["encoding"]["y"]["scale"] == {"zero": False}
    low = [{**r, "ppm": float(r["ppm"]) - 300.0} for r in CO2]  # 13 to 66: a span near its size
    kept = view(low, CO2_DECL, x="m", y="ppm")
    assert kept.spec is not None and "scale" not in kept.spec["encoding"]["y"]


def test_zero_forces_either_and_is_in_the_payload() -> None:
    forced = view(CO2, CO2_DECL, x="m", y="ppm", zero=True)
    assert forced.spec is not None and "scale" not in forced.spec["encoding"]["y"]
    assert forced.to_dict()["options"]["zero"] is True
    low = [{**r, "ppm": float(r["ppm"]) - 300.0} for r in CO2]
    spanned = view(low, CO2_DECL, x="m", y="ppm", zero=False)
    assert spanned.spec is not None and spanned.spec["encoding"]["y"]["scale"] == {"zero": False}
    assert view(CO2, CO2_DECL, x="m", y="ppm").to_dict()["options"]["zero"] is None


def test_bars_keep_zero_whatever_zero_says_and_say_so() -> None:
    rows = [{"k": f"k{i % 4}", "v": 1000.0 + i} for i in range(40)]
    v = view(rows, {"k": "string", "v": "number"}, x="k", y="v", zero=False)
    assert v.mark == "bar" and v.spec is not None and "scale" not in v.spec["encoding"]["y"]
    assert v.notes[-1] == (
        "zero=False is not applied to this bar chart: a bar's length is its value, so its axis "
        "starts at zero."
    )


def test_zero_takes_a_boolean_or_none() -> None:
    with pytest.raises(ChartkitError, match=r"zero='no' is not allowed; use True \(the measure"):
        view(CO2, CO2_DECL, zero="no")  # type: ignore[arg-type]


# --- like measures together ---------------------------------------------------------------

MONTHS = pd.date_range("2000-01-01", periods=24, freq="MS")
WIDE = [{"t": m.date().isoformat(), **{f"s{j:02d}": 20.0 + j + (i % 6) for j in range(25)}}
        for i, m in enumerate(MONTHS)]  # fmt: skip
WIDE_DECL = {"t": "date", **{f"s{j:02d}": "number" for j in range(25)}}


def test_ten_measures_are_ten_colored_lines() -> None:
    v = view(WIDE, WIDE_DECL, x="t", y=[f"s{j:02d}" for j in range(10)])
    assert v.spec is not None and "facet" not in v.spec
    assert v.spec["encoding"]["color"]["scale"]["range"] == list(PALETTE)


def test_more_measures_than_ten_hues_are_small_multiples() -> None:
    v = view(WIDE, WIDE_DECL, x="t", y=[f"s{j:02d}" for j in range(13)])
    assert v.spec is not None and v.caption == ()
    assert v.spec["facet"]["field"] == "measure" and v.spec["columns"] == 3
    assert v.spec["facet"]["sort"] == [f"s{j:02d}" for j in range(13)]
    assert "color" not in v.spec["spec"]["encoding"]  # the header names each measure


def test_measures_past_the_panels_are_left_out_and_said_on_the_picture() -> None:
    v = view(WIDE, WIDE_DECL, x="t", y=[f"s{j:02d}" for j in range(25)])
    assert v.spec is not None and len(v.spec["facet"]["sort"]) == MAX_FACETS == 20
    line = "20 of 25 measures are drawn; the other 5 are left out."
    assert v.caption == (line,)
    assert v.spec["title"]["subtitle"] == [line]
    assert (
        "25 measures are picked; the first 20 are drawn, a small chart each, and the other 5 "
        "(s20, s21, s22 and 2 more) are left out."
    ) in v.notes
    assert v.drawn["y"] == [f"s{j:02d}" for j in range(20)]


# --- the selected mark ---------------------------------------------------------------------


def test_a_clicked_mark_is_emphasised_and_a_line_has_no_click() -> None:
    rows = [{"k": f"k{i % 4}", "v": float(i)} for i in range(20)]
    bars = view(rows, {"k": "string", "v": "number"}, x="k", y="v")
    assert bars.spec is not None
    [param] = bars.spec["params"]
    assert param["name"] == SELECTED and param["select"]["type"] == "point"
    assert bars.spec["encoding"]["opacity"] == {
        "condition": {"param": SELECTED, "value": 1}, "value": UNSELECTED_OPACITY,
    }  # fmt: skip
    line = view(CO2, CO2_DECL, x="m", y="ppm")
    assert line.spec is not None and "params" not in line.spec
    assert "opacity" not in line.spec["encoding"]


def test_a_faceted_chart_holds_its_selection_in_its_cell() -> None:
    rows = [{"a": float(i), "b": float(i % 7), "k": f"k{i % 3}"} for i in range(50)]
    v = view(rows, {"a": "number", "b": "number", "k": "string"}, x="a", y="b", facet="k")
    assert v.spec is not None and "params" not in v.spec
    assert [p["name"] for p in v.spec["spec"]["params"]] == [SELECTED]
    assert v.to_png(scale=1)[:4] == b"\x89PNG"  # valid Vega-Lite: it renders
