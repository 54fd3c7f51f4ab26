"""view()'s chart options, checked through what Vega actually lays out (the scenegraph)."""

from __future__ import annotations

import colorsys
from typing import Any

import pytest
import vl_convert

from chartkit import ChartkitError, View, view
from chartkit.draw.charts import PALETTE

ROWS = [
    {
        "ts": f"2024-{1 + i % 6:02d}-{10 + i % 9:02d}T00:00:00Z",
        "region": ["eu-west", "us-east", "ap-south", "sa-east"][i % 4],
        "p50": float(i % 7 + 1),
        "p95": float(i % 11 + 5),
        "ok": i % 3 == 0,
    }
    for i in range(48)
]
DECL = {"ts": "date", "region": "string", "p50": "number", "p95": "number", "ok": "boolean"}


def scene(v: View) -> list[dict[str, Any]]:
    """Every mark and label group Vega lays out for the view's spec, rendered offline."""
    assert v.spec is not None
    out: list[dict[str, Any]] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if "marktype" in node and "role" in node:
                out.append(node)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(vl_convert.vegalite_to_scenegraph(v.spec))
    return out


def marks(v: View, marktype: str) -> list[dict[str, Any]]:
    return [
        item
        for group in scene(v)
        if group["role"] == "mark" and group["marktype"] == marktype
        for item in group["items"]
    ]


def lines(v: View) -> list[list[dict[str, Any]]]:
    """One list of points per line Vega draws."""
    return [
        g["items"]
        for g in scene(v)
        if g["role"] == "mark" and g["marktype"] == "line" and g["items"]
    ]


def labels(v: View, *, angle: bool = False) -> list[Any]:
    return [
        (item["text"], item.get("angle", 0)) if angle else item["text"]
        for group in scene(v)
        if group["role"] == "axis-label"
        for item in group["items"]
    ]


def texts(v: View, role: str) -> list[Any]:
    return [item.get("text") for g in scene(v) if g["role"] == role for item in g["items"]]


# --- aggregate ---


def test_the_aggregate_is_the_users_and_is_named_on_the_axis_in_the_reason_and_tooltip() -> None:
    v = view(ROWS, DECL, x="region", y="p95", aggregate="sum")
    assert v.encodings["y"].aggregate == "sum"
    assert v.reason == (
        "region is declared string and p95 is declared number: bars of the sum per region."
    )
    bars = marks(v, "rect")
    assert len(bars) == 4
    totals = {r: sum(x["p95"] for x in ROWS if x["region"] == r) for r in DECL and
              ["eu-west", "us-east", "ap-south", "sa-east"]}  # fmt: skip
    top = max(totals, key=lambda r: totals[r])
    assert bars[0]["description"] == f"region: {top}; sum of p95: {totals[top]:,.0f}; rows: 12"
    assert "sum of p95" in texts(v, "axis-title")


def test_the_default_aggregate_is_the_mean_and_none_when_each_category_holds_one_row() -> None:
    assert view(ROWS, DECL, x="region", y="p95").encodings["y"].title == "mean of p95"
    once = [{"k": k, "v": float(i)} for i, k in enumerate("abc")]
    v = view(once, {"k": "string", "v": "number"})
    assert v.encodings["y"].aggregate is None and v.encodings["y"].title == "v"
    assert v.reason == "k is declared string and v is declared number: a bar per k."
    assert marks(v, "rect")[0]["description"] == "k: c; v: 2"  # no rows count


def test_count_counts_rows_also_when_a_measure_exists() -> None:
    v = view(ROWS, DECL, x="region", aggregate="count")
    assert sorted(m["description"] for m in marks(v, "rect")) == [
        f"region: {r}; rows: 12" for r in ("ap-south", "eu-west", "sa-east", "us-east")
    ]
    assert v.reason == (
        "region is declared string and aggregate='count': bars counting the rows of each value."
    )


# --- several measures ---


def test_several_measures_draw_one_line_each_and_the_legend_names_them() -> None:
    v = view(ROWS, DECL, y=["p50", "p95"])
    assert len(lines(v)) == 2
    assert texts(v, "legend-label") == ["p50", "p95"]
    assert v.encodings["color"].measures == ("p50", "p95")


def test_a_measure_that_is_not_a_number_is_refused_and_the_rest_drawn() -> None:
    v = view(ROWS, DECL, x="region", y=["p50", "ok", "p95"])
    assert v.kind == "chart" and v.mark == "bar"
    (refusal,) = v.refusals
    assert (refusal.column, refusal.channel) == ("ok", "y")
    assert refusal.reason == (
        "ok is declared boolean; a measure axis needs a column declared number."
    )
    assert len(marks(v, "rect")) == 8  # 4 regions × 2 measures, grouped


# --- time ---


def test_time_unit_buckets_the_dates_and_orders_them_as_dates() -> None:
    v = view(ROWS, DECL, x="ts", y="p50", time_unit="month", color="region")
    points = marks(v, "symbol")
    assert len(points) == 12  # the rows hold 12 (region, month) pairs
    assert len({p["description"].split(";")[0] for p in points}) == 6  # six months
    assert "Several rows share a month of ts and region" in v.notes[0]
    months = [t for t in labels(v) if t.endswith(" 2024")]
    assert months == ["Jan 2024", "Feb 2024", "Mar 2024", "Apr 2024", "May 2024", "Jun 2024"]


# --- order ---


def test_bars_are_sorted_by_the_measure_by_default_and_by_category_when_asked() -> None:
    by_value = view(ROWS, DECL, x="region", y="p95")
    assert by_value.spec is not None
    values = [m["description"].split("; ")[1] for m in marks(by_value, "rect")]
    assert values == sorted(values, key=lambda t: -float(t.split(": ")[1]))
    by_name = view(ROWS, DECL, x="region", y="p95", sort="x")
    assert labels(by_name)[:4] == ["ap-south", "eu-west", "sa-east", "us-east"]
    listed = view(ROWS, DECL, x="region", y="p95", sort=["us-east", "eu-west"])
    assert labels(listed)[:4][:2] == ["us-east", "eu-west"]


def test_booleans_read_false_then_true() -> None:
    v = view(ROWS, DECL, x="ok", y="p95", sort="x")
    assert labels(v)[:2] == ["false", "true"]


# --- scale and format ---


def test_a_log_scale_is_drawn_and_refused_with_the_reason_when_a_value_is_not_positive() -> None:
    v = view(ROWS, DECL, x="region", y="p95", scale="log")
    assert v.spec is not None and v.spec["encoding"]["y"]["scale"]["type"] == "log"
    assert all(m["height"] > 0 for m in marks(v, "rect"))
    zero = [{"k": "a", "v": 0.0}, {"k": "b", "v": 5.0}]
    refused = view(zero, {"k": "string", "v": "number"}, scale="log")
    assert refused.notes == (
        "scale='log' is refused: 1 of the 2 values drawn for v are zero or negative (first: "
        "0.0), which a log scale cannot place; the axis stays linear.",
    )
    assert refused.spec is not None and "scale" not in refused.spec["encoding"]["y"]


def test_format_applies_to_the_axis_and_tooltips_and_thousands_are_separated_by_default() -> None:
    big = [{"k": k, "v": 1234567.891 * (i + 1)} for i, k in enumerate("ab")]
    v = view(big, {"k": "string", "v": "number"})
    assert marks(v, "rect")[0]["description"] == "k: b; v: 2,469,135.782"
    formatted = view(big, {"k": "string", "v": "number"}, format=".3s")
    assert marks(formatted, "rect")[0]["description"] == "k: b; v: 2.47M"
    assert any(t.endswith("M") for t in labels(formatted))


# --- facets and too many series ---


def test_facet_draws_one_small_chart_per_value() -> None:
    v = view(ROWS, DECL, x="ts", y="p50", facet="region")
    assert v.encodings["facet"].column == "region"
    cells = [c for g in scene(v) if g.get("name") == "cell" for c in g["items"]]
    regions = [{m["description"].rsplit("region: ", 1)[1] for m in _symbols(c)} for c in cells]
    assert sorted(r for (r,) in regions) == ["ap-south", "eu-west", "sa-east", "us-east"]
    assert [len(_symbols(c)) for c in cells] == [12] * 4  # each region's own 12 rows


def _symbols(node: Any) -> list[dict[str, Any]]:
    """The points Vega lays out anywhere under ``node`` (one small chart's group)."""
    if isinstance(node, list):
        return [s for n in node for s in _symbols(n)]
    if not isinstance(node, dict):
        return []
    if node.get("role") == "mark" and node.get("marktype") == "symbol":
        return list(node["items"])
    return [s for n in node.values() for s in _symbols(n)]


def test_a_color_with_more_values_than_the_palette_becomes_facets_with_a_note() -> None:
    rows = [{"t": f"2024-01-{1 + i % 5:02d}", "s": f"s{i % 12}", "v": float(i)} for i in range(60)]
    v = view(rows, {"t": "date", "s": "string", "v": "number"}, color="s")
    assert "color" not in v.encodings and v.encodings["facet"].column == "s"
    assert v.notes[0] == (
        "s has 12 values, more than the 10 colors that can be told apart: one small chart per "
        "s instead."
    )


# --- readable and accessible ---


def _family(color: str) -> str:
    r, g, b = (int(color[i : i + 2], 16) / 255 for i in (1, 3, 5))
    h, s, v = colorsys.rgb_to_hsv(r, g, b)
    hue = h * 360
    if s < 0.15:
        return "grey"
    if hue < 45 and v < 0.6:
        return "brown"
    for name, upto in (("red", 15), ("orange", 45), ("yellow", 70), ("green", 165),
                       ("cyan", 195), ("blue", 255), ("purple", 290), ("pink", 345)):  # fmt: skip
        if hue < upto:
            return name
    return "red"


def test_the_palette_gives_ten_series_ten_hue_families_and_is_set_in_the_spec() -> None:
    assert len({_family(c) for c in PALETTE}) == len(PALETTE) == 10
    v = view(ROWS, DECL, x="ts", y="p50", color="region")
    assert v.spec is not None and v.spec["encoding"]["color"]["scale"]["range"] == list(PALETTE)
    assert {line[0]["stroke"] for line in lines(v)} == set(PALETTE[:4])


def test_labels_are_horizontal_when_they_fit() -> None:
    v = view(ROWS, DECL, x="region", y="p95")
    assert {a for _, a in labels(v, angle=True)[:4]} == {0}


def test_every_chart_describes_itself_with_its_reason() -> None:
    for kw in ({}, {"x": "region"}, {"facet": "region"}, {"x": "p50", "y": "p95"}):
        v = view(ROWS, DECL, **kw)
        assert v.spec is not None and v.spec["description"] == v.reason


# --- bad arguments ---


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        ({"aggregate": "avg"}, "aggregate='avg' is not allowed; use one of 'sum', 'mean'"),
        ({"time_unit": "fortnight"}, "time_unit='fortnight' is not allowed; use one of 'minute'"),
        ({"scale": "sqrt"}, "scale='sqrt' is not allowed; use one of 'linear', 'log'"),
        ({"sort": 3}, "sort=3 is not allowed; use one of '-y', 'y', 'x', '-x'"),
        ({"format": "<script>"}, "format='<script>' is not a d3-format string"),
        ({"y": ["p50", "nope"]}, "y=['p50', 'nope'] names 'nope', which is no column"),
        ({"y": 5}, "y=5 is not allowed; use a column name, or a non-empty list"),
        ({"facet": ["region"]}, r"facet=\['region'\] names no column of this result"),
        ({"choose": 99}, "choose=99 is not an alternative of this view; it has"),
        ({"choose": "1"}, "choose='1' must be an integer"),
    ],
)
def test_a_bad_argument_is_a_chartkit_error_naming_parameter_value_and_what_is_allowed(
    kw: dict[str, Any], message: str
) -> None:
    with pytest.raises(ChartkitError, match=message.replace("[", r"\[").replace("]", r"\]")
                       if "\\" not in message else message):  # fmt: skip
        view(ROWS, DECL, **kw)


def test_long_labels_lie_flat_cut_to_their_slot_and_the_tooltip_has_the_full_text() -> None:
    name = "a very long category name that cannot fit under its bar"
    rows = [{"k": f"{name} {i}", "v": float(i)} for i in range(4)]
    v = view(rows, {"k": "string", "v": "number"})
    flat = [
        (item["text"], item.get("angle", 0), item["limit"])
        for g in scene(v)
        if g["role"] == "axis-label"
        for item in g["items"]
        if item["text"].startswith(name)
    ]
    assert flat == [(f"{name} {i}", 0, 134) for i in (3, 2, 1, 0)]  # 560 px / 4, less a gap
    assert marks(v, "rect")[0]["description"] == f"k: {name} 3; v: 3"


def test_a_series_too_wide_for_colors_opens_as_facets_and_a_wider_one_is_said() -> None:
    decl = {"t": "date", "s": "string", "v": "number"}
    rows = [{"t": f"2024-01-{1 + i % 5:02d}", "s": f"s{i % 14}", "v": float(i)} for i in range(140)]
    v = view(rows, decl)
    assert v.encodings["facet"].column == "s" and "color" not in v.encodings
    assert len(lines(v)) == 14
    wide = [{"t": f"2024-01-{1 + i % 5:02d}", "s": f"s{i % 30}", "v": float(i)} for i in range(300)]
    assert view(wide, decl).notes[-1] == (
        "s has 30 values, more than 10 colors or 20 small charts can tell apart, so the line "
        "over t is not split by it; pick it as x for bars per s."
    )
