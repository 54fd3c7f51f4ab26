"""Scales, breakdowns and identifiers, as properties of generated results (issue 20 item 2).

Each rule is decided from the declared types and facts any backend counts (a span, distinct
values, rows per key), so each property is held on the rows in memory (a pandas frame) and in
DuckDB: the same rows draw the same chart in both.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import duckdb
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chartkit import view
from chartkit.plan.choose import log_axis
from chartkit.plan.roles import GRID_MAX
from chartkit.plan.rules import LOG_ORDERS

_SETTINGS = settings(
    max_examples=25, deadline=None, database=None, derandomize=True,
    suppress_health_check=list(HealthCheck),
)  # fmt: skip


def _in_memory(frame: pd.DataFrame) -> Any:
    return frame


def _in_duckdb(frame: pd.DataFrame) -> Any:
    con = duckdb.connect()
    con.register("df", frame)
    return con.sql("SELECT * FROM df")


BACKENDS: dict[str, Callable[[pd.DataFrame], Any]] = {"pandas": _in_memory, "duckdb": _in_duckdb}


@pytest.fixture(params=list(BACKENDS))
def holder(request: pytest.FixtureRequest) -> Callable[[pd.DataFrame], Any]:
    return BACKENDS[request.param]


def _scales(shown: Any) -> dict[str, str | None]:
    encoding = shown.spec["encoding"]
    return {ch: (encoding[ch].get("scale") or {}).get("type") for ch in ("x", "y")}


# --- the log scale: from the counted span ---------------------------------------------------


@st.composite
def _two_measures(draw: st.DrawFn) -> tuple[pd.DataFrame, dict[str, str], dict[str, float]]:
    """Two measures whose lowest and highest values are drawn, each positive or not."""
    n = draw(st.integers(12, 60))
    spans = {}
    columns = {}
    for name in ("dose", "effect"):
        low = draw(st.sampled_from([-5.0, 0.0, 0.001, 0.02, 1.0, 3.0]))
        high = draw(st.sampled_from([0.5, 9.0, 40.0, 870.0, 25_000.0]))
        step = (high - low) / (n - 1)
        columns[name] = [low + step * i for i in range(n)]
        spans[name] = math.log10(high / low) if low > 0 else -1.0
    frame = pd.DataFrame(columns)
    return frame, {"dose": "number", "effect": "number"}, spans


@_SETTINGS
@given(_two_measures())
def test_a_scatter_axis_spanning_orders_of_magnitude_is_on_a_log_scale(
    holder: Callable[[pd.DataFrame], Any],
    result: tuple[pd.DataFrame, dict[str, str], dict[str, float]],
) -> None:
    frame, declared, spans = result
    shown = view(holder(frame), declared)
    assert shown.mark == "point"
    logged = {ch: scale == "log" for ch, scale in _scales(shown).items()}
    wanted = {"x": spans["dose"] >= LOG_ORDERS, "y": spans["effect"] >= LOG_ORDERS}
    assert logged == wanted
    said = [n for n in shown.facts if n.kind == "log-scale"]
    assert [n.column for n in said] == [c for c, ch in (("dose", "x"), ("effect", "y"))
                                        if wanted[ch]]  # fmt: skip


def test_burtins_penicillin_is_drawn_on_log_axes_with_points_and_said() -> None:
    frame = pd.DataFrame(
        {"Penicillin": [870.0, 1.0, 0.001, 0.005, 100.0], "Neomycin": [1.6, 0.007, 0.1, 2, 40]}
    )
    shown = view(frame, {"Penicillin": "number", "Neomycin": "number"})
    assert shown.mark == "point"
    assert _scales(shown) == {"x": "log", "y": "log"}
    assert shown.notes[0] == (
        "Penicillin spans 0.001 to 870 (5.9 powers of ten, every value above zero): its axis "
        "is on a log scale, so the small values do not sit at zero; scale='linear' draws it "
        "linear."
    )


def test_a_picked_linear_scale_is_kept_and_a_zero_keeps_the_axis_linear() -> None:
    frame = pd.DataFrame({"p": [870.0, 1.0, 0.001, 0.5], "q": [0.0, 1.0, 2.0, 900.0]})
    declared = {"p": "number", "q": "number"}
    assert _scales(view(frame, declared)) == {"x": "log", "y": None}
    linear = view(frame, declared, scale="linear")
    assert _scales(linear) == {"x": None, "y": None}
    assert not [n for n in linear.facts if n.kind == "log-scale"]


def test_log_axis_reads_the_span_only() -> None:
    assert log_axis(0.001, 870) == 5.9
    assert log_axis(1, 10**LOG_ORDERS) == LOG_ORDERS
    assert log_axis(1, 999) is None
    assert log_axis(-1, 870) is None
    assert log_axis(0, 870) is None
    assert log_axis("a", 3) is None
    assert log_axis(float("nan"), 3) is None


# --- identifiers: mostly distinct names on a column of hundreds of values -------------------


@st.composite
def _names_and_a_measure(draw: st.DrawFn) -> tuple[pd.DataFrame, dict[str, str], float]:
    """A string column of 100 to 400 rows, 20% to 95% of its values distinct, a category of
    three values and a measure."""
    rows = draw(st.integers(100, 400))
    share = draw(st.sampled_from([0.2, 0.4, 0.55, 0.7, 0.78, 0.95]))
    distinct = int(rows * share)
    frame = pd.DataFrame(
        {
            "city": [f"city {i % distinct}" for i in range(rows)],
            "region": [("north", "south", "west")[i % 3] for i in range(rows)],
            "load": [float((i * 37) % 101) for i in range(rows)],
        }
    )
    return frame, {"city": "string", "region": "string", "load": "number"}, distinct / rows


@_SETTINGS
@given(_names_and_a_measure())
def test_a_column_over_half_distinct_of_hundreds_of_rows_is_no_category_anywhere(
    holder: Callable[[pd.DataFrame], Any],
    result: tuple[pd.DataFrame, dict[str, str], float],
) -> None:
    frame, declared, share = result
    shown = view(holder(frame), declared)
    offered = [(a.x, a.color, a.facet) for a in shown.alternatives]
    used = {e.column for e in shown.encodings.values()} | {n for o in offered for n in o}
    assert ("city" in used) == (share <= 0.5)
    assert "region" in used


def test_city_names_77_percent_distinct_are_an_identifier_and_said_so() -> None:
    rows = 300
    frame = pd.DataFrame(
        {"city": [f"c{i % 231}" for i in range(rows)], "load": [float(i % 17) for i in range(rows)]}
    )
    shown = view(frame, {"city": "string", "load": "number"})
    assert shown.encodings["x"].column == "load"  # a histogram, not 231 bars
    assert shown.notes[0] == (
        "city is not put on an axis by default: 231 of its 300 values are distinct (over 50%, "
        "on a column of 100 rows or more), so it reads as an identifier, not a category. Pick "
        "it as x to chart it anyway."
    )


# --- a scatter's groups on the same x positions: one panel each ------------------------------


@st.composite
def _groups_of_points(draw: st.DrawFn) -> tuple[pd.DataFrame, dict[str, str], bool]:
    """2 to 6 groups of points; either every group measured at the same x positions (the same
    design repeated) or each group at x positions of its own."""
    groups = draw(st.integers(2, 6))
    positions = draw(st.integers(GRID_MAX + 1, GRID_MAX + 8))
    shared = draw(st.booleans())
    rows = []
    for g in range(groups):
        for i in range(positions):
            # (more positions than a grid's levels, off the whole numbers: a grid, or a whole,
            # evenly spaced x, keying each group's rows is what the groups are series over,
            # drawn as lines — not this test's subject)
            x = float(i) + 0.5 if shared else float(g * positions + i) + 0.5
            y = float((i * 7 + g * 3) % 11) + 0.5 + 0.01 * g  # (a measure, not 11 levels)
            rows.append({"x": x, "y": y, "set": f"set {g}"})
    return pd.DataFrame(rows), {"x": "number", "y": "number", "set": "string"}, shared


@_SETTINGS
@given(_groups_of_points())
def test_groups_on_the_same_positions_get_a_panel_each_and_others_a_color(
    holder: Callable[[pd.DataFrame], Any],
    result: tuple[pd.DataFrame, dict[str, str], bool],
) -> None:
    frame, declared, shared = result
    shown = view(holder(frame), declared)
    assert shown.mark == "point"
    split = "facet" if shared else "color"
    assert {ch: e.column for ch, e in shown.encodings.items()} == {"x": "x", "y": "y", split: "set"}
    if shared:  # the colored scatter is still offered
        assert ("scatter", "set", None) in [(a.chart, a.color, a.facet) for a in shown.alternatives]


# --- a breakdown: one row per pair of keys is summed and stacked ---------------------------


@st.composite
def _a_breakdown(draw: st.DrawFn) -> tuple[pd.DataFrame, dict[str, str], bool]:
    """Counts per nation and medal: one row per pair (a breakdown), or with a pair repeated
    (rows of events, not a breakdown)."""
    nations = [f"N{i}" for i in range(draw(st.integers(2, 12)))]
    medals = ["gold", "silver", "bronze"][: draw(st.integers(2, 3))]
    repeated = draw(st.booleans())
    rows = [
        {"nation": n, "medal": m, "count": float(draw(st.integers(0, 40)))}
        for n in nations
        for m in medals
    ]
    if repeated:
        rows.append(dict(rows[0]))
    return (
        pd.DataFrame(rows),
        {"nation": "string", "medal": "string", "count": "number"},
        (not repeated),
    )


@_SETTINGS
@given(_a_breakdown())
def test_a_breakdown_is_totals_stacked_by_the_other_key(
    holder: Callable[[pd.DataFrame], Any],
    result: tuple[pd.DataFrame, dict[str, str], bool],
) -> None:
    frame, declared, breakdown = result
    shown = view(holder(frame), declared)
    assert shown.mark == "bar"
    drawn = {ch: (e.column, e.aggregate) for ch, e in shown.encodings.items()}
    if not breakdown:  # a pair repeats: rows of events, whose bars are means (side by side
        # per medal when colored: never stacked, a mean is no part of a total)
        assert ("count", "mean") in drawn.values()
        assert "color" not in drawn or "xOffset" in (shown.spec or {}).get("encoding", {})
        return
    assert drawn == {"x": ("nation", None), "y": ("count", "sum"), "color": ("medal", None)}
    # the stacked segments add up to each nation's total, and the bars are ordered by it
    totals = frame.groupby("nation", sort=False)["count"].sum()
    spec = shown.spec
    records = next(iter(spec["datasets"].values()))
    y = spec["encoding"]["y"]["field"]
    stacked: dict[str, float] = {}
    for r in records:
        stacked[r["nation"]] = stacked.get(r["nation"], 0.0) + r[y]
    assert stacked == pytest.approx(totals.to_dict())
    ranked = totals.sort_values(ascending=False, kind="stable").index.tolist()
    assert spec["encoding"]["x"]["sort"] == ranked


def test_medal_counts_are_totals_per_nation_stacked_by_medal() -> None:
    rows = [
        {"nation": n, "medal": m, "count": c}
        for n, counts in {"NOR": (16, 8, 13), "GER": (12, 10, 5), "CAN": (4, 8, 14)}.items()
        for m, c in zip(("gold", "silver", "bronze"), counts, strict=True)
    ]
    shown = view(rows, {"nation": "string", "medal": "string", "count": "number"})
    assert shown.reason == (
        "nation is declared string, medal is declared string and count is declared number, one "
        "row per nation and medal: a breakdown, so bars of the total of count per nation, "
        "stacked by medal."
    )
    assert shown.reduction is not None and shown.reduction.keys == ("nation", "medal")
    assert shown.reduction.aggregate == "sum"


def test_an_undeclared_color_of_lists_keeps_its_color_and_is_no_bug() -> None:
    """The shared-positions count meets whatever an undeclared column holds: a list is not
    hashable, so its groups have no positions to compare and the scatter keeps the color (the
    property suite found 'this is a bug in chartkit' here)."""
    rows = [
        {"lun": [], "host_group": 0, "when": 0, "v": 0},
        {"lun": False, "host_group": 0, "when": 0, "v": 0},
    ]
    shown = view(rows, {}, mode="off")
    assert shown.kind == "chart"
    assert shown.reason == (
        "host_group is undeclared, inferred quantitative and when is undeclared, inferred "
        "quantitative: a scatter plot; lun (undeclared, inferred nominal) as color."
    )
