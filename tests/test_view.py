"""view(): charts from declared types — the rules of issue 3, read as a specification."""

from __future__ import annotations

import datetime as dt
import html
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
import vl_convert

from chartkit import (
    COLUMN_TYPE_CEILING,
    ChartkitError,
    ToolResult,
    View,
    vegalite_type,
    view,
)
from chartkit.draw.caption import CAPTION_COLOR, captioned
from chartkit.draw.charts import PALETTE, spec_to_png, spec_to_svg

LUN_ROWS = [
    {"logical_unit_number": "", "host_group": "vdi-a"},
    {"logical_unit_number": 3, "host_group": "vdi-a"},
    {"logical_unit_number": 5, "host_group": "vdi-b"},  # two bars: a single mark is not a chart
]
LUN_DECL = {"logical_unit_number": "number", "host_group": "string"}


def plotted(v: View) -> list[dict[str, Any]]:
    """The rows the chart actually embeds (Altair consolidates them into ``datasets``)."""
    assert v.spec is not None
    (values,) = v.spec["datasets"].values()
    return list(values)


def encoding(v: View, channel: str) -> dict[str, Any]:
    assert v.chart is not None
    enc: dict[str, Any] = v.chart.to_dict()["encoding"][channel]
    return enc


def marks_drawn(spec: dict[str, Any]) -> int:
    """How many mark items Vega actually lays out for the spec (rendered offline)."""
    scene = vl_convert.vegalite_to_scenegraph(spec)
    count = 0

    def walk(node: Any) -> None:
        nonlocal count
        if isinstance(node, dict):
            if (
                node.get("marktype") in {"symbol", "rect", "line", "area"}
                and node.get("role") == "mark"
            ):
                count += len(node.get("items", []))
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(scene)
    return count


# --- the one table ---


def test_vegalite_type_is_one_table() -> None:
    assert [vegalite_type(t) for t in ("number", "date", "string", "boolean")] == [
        "quantitative",
        "temporal",
        "nominal",
        "nominal",
    ]


def test_vegalite_type_refuses_a_word_outside_the_vocabulary() -> None:
    with pytest.raises(ChartkitError, match="'integer' is not one of number, string, boolean"):
        vegalite_type("integer")  # type: ignore[arg-type]


# --- the three incidents ---


def test_lun_blank_under_warn_is_a_quantitative_axis_with_one_row_left_out_and_noted() -> None:
    v = view(LUN_ROWS, LUN_DECL, tool="host_group_mappings")
    assert v.kind == "chart"
    assert v.mark == "bar"
    assert encoding(v, "y")["type"] == "quantitative"
    assert encoding(v, "x")["type"] == "nominal"
    assert v.encodings["y"].source == "declared"
    assert v.notes == (
        "1 of 3 rows is left out of the y axis: logical_unit_number is declared number and "
        'they hold string (first: ""). Nothing was converted.',
    )
    assert plotted(v) == [
        {"host_group": "vdi-b", "logical_unit_number": 5.0},
        {"host_group": "vdi-a", "logical_unit_number": 3.0},
    ]
    assert [f.kind for f in v.check.findings] == ["column-type-mismatch"]


def test_lun_blank_under_enforce_is_refused_with_no_rows_anywhere_in_the_payload() -> None:
    v = view(LUN_ROWS, LUN_DECL, tool="host_group_mappings", mode="enforce")
    refusal = (
        "Result rejected: host_group_mappings returned rows that disagree with the columns it "
        "declares — 'logical_unit_number' is declared number and 1 of 3 rows hold string "
        '(first: ""). Fix the tool so the column holds what it declares, or change the '
        "declaration. No data was returned."
    )
    assert v.kind == "refused"
    assert v.reason == refusal
    assert v.chart is None and v.spec is None and v.frame is None
    payload = v.to_dict()
    assert payload["spec"] is None
    assert payload["findings"][0]["message"] == f"{refusal} {COLUMN_TYPE_CEILING}"
    text = json.dumps(payload)
    assert "vdi-a" not in text  # no row data at all
    assert '"logical_unit_number": 3' not in text


def test_quoted_numbers_give_a_table_and_each_axis_is_refused_with_its_violation() -> None:
    rows = [{"volume": f"vol-{i}", "read_iops": str(1240 + i)} for i in range(6)]
    v = view(rows, {"volume": "string", "read_iops": "number"}, tool="volume_io_stats")
    assert v.kind == "table"
    assert v.reason == (
        "No usable column is declared number: read_iops is declared number but every row "
        "holds a number in quotes (the tool quotes its numbers); volume is string."
    )
    (refusal,) = v.refusals
    assert refusal.column == "read_iops"
    assert refusal.violation is not None
    assert refusal.violation.affected == refusal.violation.total == 6
    assert refusal.reason == (
        'read_iops is declared number, but all 6 rows hold string (first: "1240") — every one '
        "a number in quotes: the tool quotes its numbers. chartkit converts nothing; fix the "
        "tool to return numbers, or declare the column string."
    )
    assert v.frame is not None and list(v.frame["read_iops"]) == [str(1240 + i) for i in range(6)]


def test_a_zero_gb_disk_is_a_clean_chart_the_check_judges_type_not_meaning() -> None:
    rows = [{"disk": "d1", "size_gb": 0.0}, {"disk": "d2", "size_gb": 8.0}]
    v = view(rows, {"disk": "string", "size_gb": "number"}, tool="capacity_view")
    assert v.kind == "chart"
    assert v.check.findings == ()
    assert v.notes == ()
    assert {r["size_gb"] for r in plotted(v)} == {0.0, 8.0}


# --- the dial ---


def test_mode_off_files_nothing_but_still_leaves_offenders_out_and_says_so() -> None:
    v = view(LUN_ROWS, LUN_DECL, tool="host_group_mappings", mode="off")
    assert v.check.findings == ()
    assert v.kind == "chart"
    assert v.encodings["y"].type == "quantitative"
    assert v.notes[0].startswith("1 of 3 rows is left out of the y axis")


def test_enforce_with_clean_rows_charts_as_warn_does() -> None:
    rows = [
        {"logical_unit_number": 0, "host_group": "vdi-a"},
        {"logical_unit_number": 1, "host_group": "vdi-b"},
    ]
    v = view(rows, LUN_DECL, mode="enforce")
    assert v.kind == "chart" and v.check.status == "ok"


# --- declared, never sniffed ---


def test_a_declared_column_keeps_its_type_whatever_its_values() -> None:
    rows = [{"code": "10", "n": 1}, {"code": "9", "n": 2}, {"code": "100", "n": 3}]
    v = view(rows, {"code": "string", "n": "number"})
    assert encoding(v, "x") == {
        "field": "code", "type": "nominal", "title": "code", "sort": ["100", "9", "10"],
        "axis": {"labelAngle": 0, "labelLimit": 180},  # by n, largest first; labels flat
    }  # fmt: skip


def test_an_undeclared_column_is_inferred_by_altair_and_labelled() -> None:
    rows = [{"severity": "major", "count": 3}, {"severity": "minor", "count": 5}]
    v = view(rows, {"severity": "string"})
    assert v.encodings["y"].source == "inferred"
    assert v.encodings["y"].type == "quantitative"
    assert v.encodings["x"].source == "declared"
    assert (
        "count is not declared: Altair inferred it as quantitative from its values. Declaring "
        "it in resultColumns would make its type exact."
    ) in v.notes
    assert v.encodings["y"].describe() == "count: inferred quantitative — not declared"
    assert v.encodings["x"].describe() == "severity: declared string → nominal"


def test_an_inferred_number_column_never_draws_a_non_number() -> None:
    rows = [{"k": "a", "v": 1.5}, {"k": "b", "v": "n/a"}, {"k": "c", "v": 3.0}]
    v = view(rows, {"k": "string"})
    # Altair infers [1.5, "n/a", 3.0] as nominal: inference is a labelled fallback, never ours
    assert v.kind == "table"
    assert (
        v.reason
        == "No column is declared number: k is string, v is undeclared (nominal, inferred)."
    )


def test_no_measure_gives_a_table_naming_the_declared_types() -> None:
    rows = [{"host_group": "vdi-a", "comment": "x"}]
    v = view(rows, {"host_group": "string", "comment": "string"})
    assert v.kind == "table"
    assert v.reason == "No column is declared number: host_group is string, comment is string."
    assert v.chart is None and v.spec is None
    assert v.frame is not None and len(v.frame) == 1


def test_a_missing_declared_column_is_refused_with_its_violation() -> None:
    rows = [
        {"host_group": "vdi-a", "capacity_gb": 10.0},
        {"host_group": "vdi-b", "capacity_gb": 5.0},
    ]
    v = view(rows, {"host_group": "string", "logical_unit_number": "number",
                    "capacity_gb": "number"})  # fmt: skip
    assert v.kind == "chart"
    (refusal,) = v.refusals
    assert refusal.violation is not None and refusal.violation.kind == "missing-column"
    assert refusal.reason == (
        "logical_unit_number is declared number, but no row has it (missing-column): the query "
        "never selected it."
    )


# --- the user's picks ---


def test_y_on_a_string_column_is_refused_never_swapped() -> None:
    rows = [{"host_group": "vdi-a", "n": 1}]
    v = view(rows, {"host_group": "string", "n": "number"}, y="host_group")
    assert v.kind == "table"
    assert v.reason == (
        "The y axis you picked cannot be drawn: host_group is declared string; a measure axis "
        "needs a column declared number."
    )
    assert v.refusals[0].channel == "y" and v.refusals[0].violation is None


def test_a_pick_on_a_column_every_row_breaks_is_refused_with_the_violation() -> None:
    rows = [{"v": "1240", "k": "a"}]
    v = view(rows, {"v": "number", "k": "string"}, y="v")
    assert v.kind == "table"
    assert v.refusals[0].violation is not None
    assert v.refusals[0].violation.affected == 1


def test_a_pick_of_no_such_column_names_the_columns() -> None:
    with pytest.raises(ChartkitError, match=r"x='nope' names no column of this result; its "
                       r"columns are 'k', 'v'"):  # fmt: skip
        view([{"k": "a", "v": 1}], {"k": "string", "v": "number"}, x="nope")


def test_picking_x_and_y_gives_that_chart() -> None:
    rows = [{"a": float(i), "b": float(i * i), "k": "s"} for i in range(20)]
    v = view(rows, {"a": "number", "b": "number", "k": "string"}, x="b", y="a")
    assert v.mark == "point"
    assert (v.encodings["x"].column, v.encodings["y"].column) == ("b", "a")


def test_a_color_with_too_many_values_is_refused_and_the_chart_drawn_without_it() -> None:
    rows = [{"a": float(i), "b": float(i), "id": f"h{i}"} for i in range(30)]
    v = view(rows, {"a": "number", "b": "number", "id": "string"}, color="id")
    assert v.kind == "chart" and "color" not in v.encodings
    assert v.refusals[0].channel == "color"
    assert v.refusals[0].reason == (
        "id has 30 distinct values; a color can tell apart at most 20, so the chart is drawn "
        "without color."
    )


def test_picking_a_string_column_alone_asks_for_count_bars() -> None:
    rows = [{"os": o} for o in ["linux", "linux", "windows"]]
    v = view(rows, {"os": "string"}, x="os")
    assert v.kind == "chart" and v.mark == "bar"
    assert v.encodings["y"].aggregate == "count"
    assert {(r["os"], r["count"]) for r in plotted(v)} == {("linux", 2), ("windows", 1)}


# --- the chart table ---


def _series(n: int, regions: int = 1) -> list[dict[str, Any]]:
    start = dt.datetime(2024, 5, 13, tzinfo=dt.UTC)
    return [
        # every region reports every 15 minutes: each a series over the whole span
        {"ts": (start + dt.timedelta(minutes=15 * (i // regions))).isoformat(),
         "region": f"r{i % regions}", "p95": 20.0 + i % 7}
        for i in range(n)
    ]  # fmt: skip


def test_date_by_number_is_a_line_colored_by_a_small_string_column() -> None:
    v = view(_series(40, regions=4), {"ts": "date", "region": "string", "p95": "number"})
    assert v.mark == "line"
    spec = v.chart.to_dict() if v.chart else {}
    assert spec["encoding"]["x"]["type"] == "temporal"
    assert spec["encoding"]["y"]["type"] == "quantitative"
    assert spec["encoding"]["color"] == {
        "field": "region", "type": "nominal", "title": "region",
        "scale": {"range": list(PALETTE)},  # set in the spec: a host theme cannot replace it
    }  # fmt: skip
    assert "colors one line per series" in v.reason


def test_a_date_with_one_distinct_value_gives_bars() -> None:
    rows = [{"ts": "2024-05-13T00:00:00Z", "p95": 3.0, "r": "a"},
            {"ts": "2024-05-13T00:00:00Z", "p95": 4.0, "r": "b"}]  # fmt: skip
    v = view(rows, {"ts": "date", "p95": "number", "r": "string"})
    assert v.mark == "bar"
    assert v.reason == "ts is declared date and p95 is declared number: bars for its one date."


def test_a_chart_of_a_single_mark_is_a_table_that_says_why() -> None:
    v = view([{"ts": "2024-05-13T00:00:00Z", "p95": 3.0}], {"ts": "date", "p95": "number"})
    assert v.kind == "table" and v.spec is None
    assert v.reason == (
        "ts is declared date and p95 is declared number: bars for its one date — but that chart "
        "would hold a single mark, and so would every other chart its declared types allow; a "
        "single mark is not a chart, so the rows are shown as a table."
    )


def test_string_by_number_is_a_bar_of_the_mean_named_in_the_axis() -> None:
    rows = [{"k": k, "v": float(v)} for k, v in [("a", 1), ("a", 3), ("b", 4)]]
    v = view(rows, {"k": "string", "v": "number"})
    assert v.mark == "bar"
    assert encoding(v, "y")["title"] == "mean of v"
    assert v.encodings["y"].aggregate == "mean"
    assert {(r["k"], r["v"]) for r in plotted(v)} == {("a", 2.0), ("b", 4.0)}


def test_boolean_by_number_is_a_bar_too() -> None:
    rows = [{"thin": True, "v": 1.0}, {"thin": False, "v": 2.0}]
    v = view(rows, {"thin": "boolean", "v": "number"})
    assert v.mark == "bar" and encoding(v, "x")["type"] == "nominal"


def test_more_than_five_categories_turn_horizontal_and_sorted() -> None:
    rows = [{"k": f"k{i}", "v": float(i)} for i in range(6)]
    v = view(rows, {"k": "string", "v": "number"})
    assert encoding(v, "y") == {
        "field": "k", "type": "nominal", "title": "k", "axis": {"labelLimit": 160},
        "sort": ["k5", "k4", "k3", "k2", "k1", "k0"],  # by the measure, largest on top
    }  # fmt: skip
    assert encoding(v, "x")["type"] == "quantitative"


def test_more_than_thirty_categories_show_the_top_thirty_and_say_so() -> None:
    rows = [{"k": f"k{i:02}", "v": float(i)} for i in range(40)] * 2
    v = view(rows, {"k": "string", "v": "number"})
    assert len(plotted(v)) == 30
    assert min(r["v"] for r in plotted(v)) == 10.0
    assert (
        "k has 40 values; the 30 with the highest mean of v are shown, the other 10 are left out."
        in v.notes
    )


def test_number_by_number_is_a_scatter_colored_by_a_small_string_column() -> None:
    rows = [{"a": float(i), "b": float(i % 5), "k": f"g{i % 3}"} for i in range(60)]
    v = view(rows, {"a": "number", "b": "number", "k": "string"}, x="a", y="b")
    assert v.mark == "point"
    assert encoding(v, "color")["field"] == "k"
    assert v.reason == (
        "a is declared number and b is declared number: a scatter plot; k (declared string) as "
        "color."
    )
    # with no string column to group by, two measures alone make a scatter too
    two = [{"a": 1.0, "b": 2.0}, {"a": 2.0, "b": 1.0}]
    assert view(two, {"a": "number", "b": "number"}).mark == "point"


def test_a_scatter_over_max_points_becomes_a_binned_heatmap() -> None:
    rng = np.random.default_rng(1)
    frame = pd.DataFrame({"a": rng.normal(size=20_000), "b": rng.normal(size=20_000)})
    v = view(frame, {"a": "number", "b": "number"})
    assert v.mark == "rect"
    assert encoding(v, "x")["bin"] == "binned"
    assert sum(r["count"] for r in plotted(v)) == 20_000
    assert len(plotted(v)) <= 5000
    assert v.notes == (
        "20,000 rows are drawn as a 40×40 heatmap of counts (over max_points=5,000 rows).",
    )


def test_one_number_alone_is_a_histogram_of_ten_bins() -> None:
    rows = [{"v": float(i)} for i in range(100)]
    v = view(rows, {"v": "number"})
    assert v.mark == "bar"
    assert len(plotted(v)) == 10
    assert sum(r["count"] for r in plotted(v)) == 100
    assert encoding(v, "x")["bin"] == "binned"


def test_one_number_with_few_distinct_values_is_count_bars() -> None:
    rows = [{"v": i % 3} for i in range(30)]
    v = view(rows, {"v": "number"})
    assert {(r["v"], r["count"]) for r in plotted(v)} == {(0.0, 10), (1.0, 10), (2.0, 10)}


def test_an_id_like_string_column_is_not_put_on_an_axis_by_default() -> None:
    rows = [{"wwn": f"21:00:{i:04x}", "gb": float(i % 7)} for i in range(60)]
    v = view(rows, {"wwn": "string", "gb": "number"})
    assert "x" in v.encodings and v.encodings["x"].column == "gb"  # a histogram, not 60 bars
    assert v.notes == (
        "wwn is not put on an axis by default: 60 of its 60 values are distinct (over 80%), "
        "so it reads as an identifier, not a category. Pick it as x to chart it anyway.",
    )
    assert view(rows, {"wwn": "string", "gb": "number"}, x="wwn").encodings["y"].column == "gb"


# --- column names are data ---


@pytest.mark.parametrize("name", ["cpu.usage", "load[0]", "a:b", 'quo"te', "it's"])
def test_awkward_column_names_chart_their_data(name: str) -> None:
    rows = [{name: float(i), "y": float(i * 2)} for i in range(12)]
    v = view(rows, {name: "number", "y": "number"})
    assert v.encodings["x"].column == name
    assert encoding(v, "x")["title"] == name
    field = encoding(v, "x")["field"]
    assert all(ch not in field for ch in ".[]:\"'\\")
    assert [r[field] for r in plotted(v)] == [float(i) for i in range(12)]


def test_cpu_usage_renders_points_not_an_empty_chart() -> None:
    rows = [{"cpu.usage": float(i) * 1.5 + 0.3, "mem": float(i % 4) + i / 10} for i in range(25)]
    v = view(rows, {"cpu.usage": "number", "mem": "number"})
    assert v.spec is not None
    assert marks_drawn(v.spec) == 25


# --- large data ---


def test_a_large_time_series_is_bucketed_in_pandas_and_never_raises_max_rows() -> None:
    n = 50_000
    frame = pd.DataFrame({
        "ts": pd.date_range("2024-01-01", periods=n // 5, freq="min").repeat(5),  # 5 series
        "v": np.arange(n, dtype=float),
        "s": np.tile(["a", "b", "c", "d", "e"], n // 5),
    })  # fmt: skip
    v = view(frame, {"ts": "date", "v": "number", "s": "string"})
    assert v.mark == "line"
    assert len(plotted(v)) <= 5000
    assert v.encodings["y"].aggregate == "mean"
    assert v.notes[0].startswith("50,000 rows are drawn as ")
    assert "the mean of v per" in v.notes[0]


def test_max_points_is_honoured_and_checked() -> None:
    rows = [{"a": i * 0.37 + 0.1, "b": (i * 7 % 600) * 0.53} for i in range(600)]  # 600 pairs
    assert view(rows, {"a": "number", "b": "number"}, max_points=500).mark == "rect"
    with pytest.raises(ChartkitError, match="max_points must be an integer of at least 100"):
        view(rows, {"a": "number", "b": "number"}, max_points=5)


def test_a_large_bar_chart_embeds_one_row_per_category() -> None:
    frame = pd.DataFrame({"k": np.tile(["a", "b", "c"], 10_000), "v": np.ones(30_000)})
    v = view(frame, {"k": "string", "v": "number"})
    assert len(plotted(v)) == 3


# --- dates ---


def test_aware_times_are_shown_in_utc_and_naive_ones_as_given() -> None:
    rows = [
        {"ts": "2024-05-13T02:00:00+02:00", "v": 1.0},  # aware string → 00:00 UTC
        {"ts": dt.datetime(2024, 5, 13, 1, 0), "v": 2.0},  # naive datetime → as given
        {"ts": pd.Timestamp("2024-05-13T03:00:00", tz="US/Eastern"), "v": 3.0},  # → 07:00 UTC
        {"ts": dt.date(2024, 5, 14), "v": 4.0},
    ]
    v = view(rows, {"ts": "date", "v": "number"})
    assert v.encodings["x"].type == "temporal"
    assert [r["ts"] for r in plotted(v)] == [
        "2024-05-13T00:00:00.000",
        "2024-05-13T01:00:00.000",
        "2024-05-13T07:00:00.000",
        "2024-05-14T00:00:00.000",
    ]


def test_a_typed_datetime_frame_charts_on_a_temporal_axis() -> None:
    frame = pd.DataFrame({
        "ts": pd.date_range("2024-05-13", periods=3, freq="h", tz="Europe/Paris"),
        "v": [1.0, 2.0, 3.0],
    })  # fmt: skip
    v = view(frame, {"ts": "date", "v": "number"})
    assert plotted(v)[0]["ts"] == "2024-05-12T22:00:00.000"


# --- inputs, exports ---


def test_a_tool_result_is_viewed_with_its_own_declaration_and_call_id() -> None:
    result = ToolResult("host_group_mappings", LUN_ROWS, result_columns=LUN_DECL, call_id="call-1")
    v = view(result)
    assert v.result is result
    assert v.check.findings[0].call_id == "call-1"
    edited = view(result, {"logical_unit_number": "string", "host_group": "string"})
    assert edited.check.findings[0].violation.declared == "string"  # the edited declaration
    assert edited.kind == "table"


def test_not_a_rowset_is_a_table_that_says_so() -> None:
    v = view({"logical_unit_number": 0}, LUN_DECL, tool="t")
    assert v.kind == "table" and v.frame is None
    assert v.reason == (
        "The result of t is not rows (a list of objects, or a dataframe, with at least one row) "
        "— it is a dict — so there is nothing to chart or check."
    )


def test_to_dict_is_json_with_encodings_refusals_notes_and_findings() -> None:
    v = view(LUN_ROWS, LUN_DECL, tool="host_group_mappings")
    payload = json.loads(v.to_json())
    assert payload["kind"] == "chart"
    assert payload["encodings"]["y"]["description"] == (
        "mean of logical_unit_number: declared number → quantitative"
    ) or payload["encodings"]["y"]["description"] == (
        "logical_unit_number: declared number → quantitative"
    )
    assert payload["findings"][0]["violation"]["sample"] == ""
    assert payload["spec"]["mark"]["type"] == "bar"


def test_save_writes_png_svg_offline_html_and_the_spec(tmp_path: Any) -> None:
    v = view(_series(20), {"ts": "date", "region": "string", "p95": "number"})
    assert v.save(tmp_path / "c.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert v.save(tmp_path / "c.svg").read_text().lstrip().startswith("<svg")
    page = v.save(tmp_path / "c.html").read_text()
    assert "vega-embed" in page.lower() or "vegaEmbed" in page
    assert '<script src="http' not in page and "cdn.jsdelivr" not in page
    assert json.loads(v.save(tmp_path / "c.json").read_text()) == v.spec
    with pytest.raises(ChartkitError, match=r"the suffix '.pdf' is not one of .png, .svg"):
        v.save(tmp_path / "c.pdf")


def test_a_table_has_no_spec_to_save_and_says_why(tmp_path: Any) -> None:
    v = view([{"a": "x"}], {"a": "string"})
    with pytest.raises(
        ChartkitError,
        match=r"this view is a table, so there is no spec \(save the table as \.png, \.svg or "
        r"\.html\): No column",
    ):
        v.save(tmp_path / "t.json")
    assert not (tmp_path / "t.json").exists()


def test_the_notebook_bundle_is_vegalite_with_a_png_fallback() -> None:
    shown = view(LUN_ROWS, LUN_DECL)
    bundle = shown._repr_mimebundle_()
    assert set(bundle) == {"application/vnd.vegalite.v6+json", "image/png", "text/plain"}
    # the chart, its caption on it (as on View.spec itself); no script, no iframe
    assert bundle["application/vnd.vegalite.v6+json"] == shown.exported_spec() == shown.spec
    assert shown.spec is not None and shown.spec["title"]["subtitle"] == list(shown.caption)
    table = view([{"a": "x"}], {"a": "string"})._repr_mimebundle_()
    assert "No column is declared number: a is string." in table["text/html"]
    assert "image/png" not in table


def test_a_color_picked_for_bars_is_refused_with_the_reason() -> None:
    rows = [{"k": "a", "v": 1.0, "c": "x"}, {"k": "b", "v": 2.0, "c": "y"}]
    v = view(rows, {"k": "string", "v": "number", "c": "string"}, x="k", color="c",
             aggregate="count")
    assert v.mark == "bar" and "color" not in v.encodings
    assert v.refusals[0].reason == (
        "a bar chart draws one bar per k, so it is not split by c; pick a date or a number as x "
        "to color by it."
    )


def test_a_color_with_no_value_in_any_row_is_refused_and_nulls_keep_their_rows() -> None:
    decl = {"a": "number", "b": "number", "c": {"type": "string", "nullable": True}}
    rows = [{"a": float(i), "b": float(i), "c": None} for i in range(3)]
    v = view(rows, decl, color="c")
    assert v.refusals[0].reason == (
        "c holds no value in any row, so there is nothing to color by; the chart is drawn "
        "without color."
    )
    assert len(plotted(v)) == 3
    some = [{"a": 1.0, "b": 1.0, "c": "x"}, {"a": 2.0, "b": 2.0, "c": None}]
    assert len(plotted(view(some, decl, color="c"))) == 2  # a null color is its own category


def test_a_nullable_measure_leaves_its_empty_rows_out_and_says_so() -> None:
    decl = {"k": "string", "v": {"type": "number", "nullable": True}}
    v = view([{"k": "a", "v": 1.0}, {"k": "b", "v": None}], decl)
    assert v.notes == ("1 row holds no value in v and is not drawn.",)


# --- rows that cannot be drawn ---


def test_a_number_color_on_a_line_is_refused_and_the_series_still_bucketed() -> None:
    n = 20_000
    frame = pd.DataFrame({
        "t": pd.date_range("2024-01-01", periods=n, freq="min"),
        "v": np.arange(n, dtype=float),
        "m": np.arange(n, dtype=float),
    })  # fmt: skip
    v = view(frame, {"t": "date", "v": "number", "m": "number"}, color="m")
    assert v.mark == "line" and "color" not in v.encodings
    assert v.refusals[0].reason == (
        "a line chart draws one line per value of a column declared string or boolean; m is "
        "declared number, so the chart is drawn without color."
    )
    assert len(plotted(v)) <= 5000


def test_when_every_row_is_left_out_the_view_is_a_table_never_an_empty_chart() -> None:
    rows = [{"k": "a", "n": ""}, {"k": "b", "n": ""}, {"k": 1, "n": 1}]
    v = view(rows, {"k": "string", "n": "number"})
    assert v.kind == "table" and v.spec is None
    assert v.reason == (
        "Every row is left out of the chart, so there is nothing to draw: 1 of 3 rows is left "
        "out of the x axis: k is declared string and they hold number (first: 1). Nothing was "
        "converted. 2 of 3 rows are left out of the y axis: n is declared number and they hold "
        'string (first: ""). Nothing was converted.'
    )
    nullable = {"k": "string", "n": {"type": "number", "nullable": True}}
    assert view([{"k": "a", "n": None}], nullable).reason == (
        "Every row is left out of the chart, so there is nothing to draw: 1 row holds no value "
        "in n and is not drawn."
    )


@pytest.mark.parametrize(
    ("bad", "shown"), [(float("inf"), "inf"), (-float("inf"), "-inf"), (10**400, "1000000000")]
)
def test_a_number_no_chart_can_place_is_left_out_and_noted(bad: Any, shown: str) -> None:
    rows = [{"v": bad}] + [{"v": float(i)} for i in range(30)]
    v = view(rows, {"v": "number"})
    assert v.kind == "chart"
    assert sum(r["count"] for r in plotted(v)) == 30
    (note,) = v.notes
    assert note.startswith(
        f"1 row holds a number no chart can place (infinite or too large) in v (first: {shown}"
    )
    assert note.endswith("and is left out of the x axis. Nothing was converted.")


def test_an_undeclared_number_column_says_what_it_left_out() -> None:
    v = view([{"k": "a", "n": True}, {"k": "b", "n": 2}])
    assert (
        "1 row holds something other than a number in n (first: true) and is left out of the y "
        "axis. Nothing was converted."
    ) in v.notes


def test_some_quoted_numbers_are_named_as_such_in_the_note() -> None:
    v = view([{"v": "1240", "k": "a"}, {"v": 3, "k": "b"}], {"v": "number", "k": "string"})
    assert v.notes == (
        "1 of 2 rows is left out of the y axis: v is declared number and they hold string "
        '(first: "1240") — numbers in quotes: the tool quotes its numbers. Nothing was converted.',
    )


def test_the_frame_keeps_values_as_returned() -> None:
    v = view([{"a": 1, "b": "x"}, {"a": None, "b": "y"}], {"b": "string"})
    assert v.frame is not None and v.frame["a"].tolist() == [1, None]


def test_non_string_labels_are_named_as_strings_and_duplicates_refused() -> None:
    frame = pd.DataFrame({0: ["a", "b"], 1: [1.0, 2.0]})
    v = view(frame, {"0": "string", "1": "number"})
    assert v.check.findings == () and v.kind == "chart"
    twice = pd.DataFrame([[1, "x"], [2, "y"]], columns=["a", "a"])
    with pytest.raises(ChartkitError, match="more than one column labelled 'a'; give each"):
        view(twice, {"a": "number"})


def test_a_date_axis_with_aware_times_is_titled_utc_and_a_naive_one_is_not() -> None:
    aware = [{"ts": "2024-05-13T02:00:00+02:00", "v": 1.0}, {"ts": "2024-05-14T00:00Z", "v": 2.0}]
    naive = [{"ts": "2024-05-13T02:00:00", "v": 1.0}, {"ts": "2024-05-14", "v": 2.0}]
    assert encoding(view(aware, {"ts": "date", "v": "number"}), "x")["title"] == "ts (UTC)"
    assert encoding(view(naive, {"ts": "date", "v": "number"}), "x")["title"] == "ts"


# --- the picture tells the truth on its own (issue 20 item 3) ---

LUN_LEFT_OUT = '1 of 3 rows is left out: logical_unit_number holds string (first: "")'


def _svg_texts(svg: str) -> list[str]:
    """The text the SVG draws, line by line (a ``<tspan>`` each in a text of several), unescaped."""
    lines = []
    for body in re.findall(r"<text[^>]*>(.*?)</text>", svg, flags=re.S):
        spans = re.findall(r"<tspan[^>]*>([^<]*)</tspan>", body)
        lines.extend(spans if spans else [body])
    return [html.unescape(t) for t in lines]


def _png_height(png: bytes) -> int:
    return int.from_bytes(png[20:24], "big")


def test_an_export_of_a_chart_that_leaves_rows_out_says_so_on_the_image(tmp_path: Path) -> None:
    v = view(LUN_ROWS, LUN_DECL, tool="host_group_mappings")
    assert v.left_out == 1
    assert v.caption == (LUN_LEFT_OUT,)
    title = v.exported_spec()["title"]
    assert title["subtitle"] == [LUN_LEFT_OUT]
    assert title["subtitleColor"] == CAPTION_COLOR
    assert title["text"].endswith("logical_unit_number by host_group")  # the chart's own stays
    assert LUN_LEFT_OUT in _svg_texts(v.to_svg())
    assert json.dumps(LUN_LEFT_OUT)[1:-1] in v.to_html()  # the page's spec, as JSON text
    assert json.loads(v.save(tmp_path / "c.json").read_text())["title"]["subtitle"] == [
        LUN_LEFT_OUT
    ]
    # the PNG is drawn from the captioned spec: a line taller than the bare chart
    bare = {**v.spec, "title": title["text"]}
    assert _png_height(v.to_png(scale=1)) > _png_height(spec_to_png(bare, scale=1))
    assert v.spec["title"] == title  # View.spec, what hosts embed, carries it too


def test_the_lun_incident_at_scale_names_its_count_on_the_image() -> None:
    rows = [
        {
            "logical_unit_number": "" if i * 7919 % 10_000 < 2_094 else i % 64,
            "host_group": f"vdi-{i % 5}",
        }
        for i in range(10_000)
    ]
    blank = sum(r["logical_unit_number"] == "" for r in rows)
    assert blank == 2_094
    v = view(rows, LUN_DECL, x="host_group", y="logical_unit_number")
    line = '2,094 of 10,000 rows are left out: logical_unit_number holds string (first: "")'
    assert v.caption == (line,)
    assert line in _svg_texts(v.to_svg())


def test_an_engine_that_reduced_the_rows_puts_the_same_caption_on_the_image() -> None:
    import duckdb
    import polars as pl

    n = 6_000  # over max_points: the line is reduced in the engine, the plan sees the answer
    frame = pl.DataFrame(
        {
            "at": [dt.datetime(2024, 1, 1) + dt.timedelta(minutes=i) for i in range(n)],
            "gb": [None if i % 97 == 0 else float(i % 50) for i in range(n)],
            "host": [f"h{i % 3}" for i in range(n)],
        }
    )
    declared = {"at": "date", "gb": "number", "host": "string"}
    line = "62 of 6,000 rows are left out: gb holds nothing (first: null)"
    relation = duckdb.sql("select * from frame")
    for data in (frame, frame.lazy(), relation):
        v = view(data, declared)
        assert (v.mark, v.left_out, v.caption) == ("line", 62, (line,))
    assert line in _svg_texts(v.to_svg())


def test_a_flagged_column_the_chart_does_not_draw_is_said_on_the_image() -> None:
    rows = [{**r, "gb": float(i + 1)} for i, r in enumerate(LUN_ROWS)]
    v = view(rows, {**LUN_DECL, "gb": "number"}, x="host_group", y="gb")
    assert v.left_out == 0
    assert v.caption == ("The check also flagged logical_unit_number, not drawn.",)
    assert v.caption[0] in _svg_texts(v.to_svg())


def test_bars_cut_to_the_top_categories_say_so_on_the_image() -> None:
    rows = [{"host": f"h{i:02d}", "gb": float(i)} for i in range(45)]
    v = view(rows, {"host": "string", "gb": "number"}, x="host", y="gb")
    line = "30 of 45 values of host are shown; the other 15 are left out."
    assert v.caption == (line,)
    assert line in _svg_texts(v.to_svg())


def test_a_chart_that_places_every_row_exports_its_spec_as_is() -> None:
    v = view(_series(20), {"ts": "date", "region": "string", "p95": "number"})
    assert v.caption == ()
    assert v.exported_spec() == v.spec


def test_rows_with_no_value_are_said_for_the_column_that_holds_none() -> None:
    rows = [{"a": 1, "b": 2}, {"a": 2, "b": 5}, {"a": 3, "b": None}]
    v = view(rows, {"a": "number", "b": {"type": "number", "nullable": True}}, x="a", y="b")
    assert v.caption == ("1 of 3 rows is left out: no value in b",)


def test_names_from_data_on_the_image_are_capped_and_shown_as_text() -> None:
    name = "<b>lun\x07</b>" + "x" * 100
    rows = [{name: "", "g": "a"}, {name: 3, "g": "a"}, {name: 5, "g": "b"}]
    v = view(rows, {name: "number", "g": "string"}, x="g", y=name)
    shown_name = "<b>lun\\x07</b>" + "x" * 26 + "… (114 characters)"
    assert v.caption == (
        f"1 of 3 rows is left out: {shown_name} holds string",
        '(first: "")',
    )  # wrapped at 100 characters a line
    svg = v.to_svg()
    assert set(v.caption) <= set(_svg_texts(svg))
    assert "<b>" not in svg and "\x07" not in svg


def test_a_chart_without_a_title_carries_the_caption_as_its_title() -> None:
    v = view(LUN_ROWS, LUN_DECL)
    bare = {k: val for k, val in v.spec.items() if k != "title"}
    title = captioned(bare, v.caption)["title"]
    assert title["text"] == [LUN_LEFT_OUT]
    assert title["fontWeight"] == "normal"
    assert LUN_LEFT_OUT in _svg_texts(spec_to_svg(captioned(bare, v.caption)))


# --- below the chart threshold: a table, with its reason (issue 20 item 7) ---

SPEC_TWO_ROWS = [
    {"logical_unit_number": "", "host_group": "vdi-a"},
    {"logical_unit_number": 3, "host_group": "vdi-a"},
]
SINGLE_MARK = (
    "logical_unit_number is declared number and is the only measure, with 1 distinct value: a "
    "bar counting the rows of each — but that chart would hold a single mark, and so would "
    "every other chart its declared types allow; a single mark is not a chart, so the rows are "
    "shown as a table."
)
TWO_ROWS_FOOTER = "2 rows, 2 columns. In red: 1 value not of the declared type."


def test_a_result_too_small_for_a_chart_exports_as_a_table_with_its_reason(
    tmp_path: Path,
) -> None:
    v = view(SPEC_TWO_ROWS, LUN_DECL, tool="host_group_mappings")
    assert (v.kind, v.reason) == ("table", SINGLE_MARK)
    svg = v.save(tmp_path / "t.svg").read_text(encoding="utf-8")
    texts = _svg_texts(svg)
    assert " ".join(texts[:3]) == SINGLE_MARK  # the reason, wrapped above the rows
    assert texts[3:] == [
        "logical_unit_number", "declared number", "host_group", "declared string",
        '""', "vdi-a", "3", "vdi-a", TWO_ROWS_FOOTER,
    ]  # fmt: skip
    assert '<text x="24" y="133" fill="#b91c1c" font-weight="bold">&quot;&quot;</text>' in svg
    assert f"<title>{html.escape(SINGLE_MARK)}</title>" in svg
    png = v.save(tmp_path / "t.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and _png_height(png) > 300
    page = v.save(tmp_path / "t.html").read_text(encoding="utf-8")
    assert f"<p class='reason'>{html.escape(SINGLE_MARK)}</p>" in page
    assert "<td class='offends'>&quot;&quot;</td><td>vdi-a</td>" in page
    assert f"<p class='footer'>{TWO_ROWS_FOOTER}</p>" in page
    assert "<script" not in page


def test_the_spec_example_rendered_from_the_cli_writes_its_table(tmp_path: Path) -> None:
    source = tmp_path / "mappings.json"
    source.write_text(
        json.dumps({"tool": "host_group_mappings", "rows": SPEC_TWO_ROWS,
                    "resultColumns": LUN_DECL}),
        encoding="utf-8",
    )  # fmt: skip
    for suffix in (".png", ".svg", ".html"):
        out = tmp_path / f"chart{suffix}"
        done = subprocess.run(
            [sys.executable, "-m", "chartkit", "render", str(source), "-o", str(out)],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        assert done.returncode == 1  # not a chart: scripts that need one still see it
        assert done.stdout == ""
        assert done.stderr.splitlines()[0] == (
            f"wrote {out}: a table of host_group_mappings, not a chart. {SINGLE_MARK}"
        )
        assert out.stat().st_size > 500
    assert _svg_texts((tmp_path / "chart.svg").read_text(encoding="utf-8"))[-1] == TWO_ROWS_FOOTER


def test_a_table_export_escapes_and_caps_what_the_tool_returned() -> None:
    name = "<img src=x onerror=alert(1)>\x1b[31m"
    rows = [{name: f"<script>alert({i})</script>" + "y" * 60, "n": "x"} for i in range(40)]
    v = view(rows, {name: "string", "n": "string"})
    assert v.kind == "table"
    page, svg = v.to_html(), v.to_svg()
    for text in (page, svg):
        assert "<script" not in text and "<img" not in text and "\x1b" not in text
    texts = _svg_texts(svg)
    assert "&lt;img src=x onerror=alert(1)&gt;\\x1b[31m" in page
    assert texts[-1] == "40 rows, 2 columns; the first 30 rows shown."
    assert "<script>alert(0)</script>yyyyyyyyyyyyyyy… (85 characters)" in texts


def test_a_wide_table_export_says_which_columns_it_shows() -> None:
    rows = [{f"c{j:02d}": f"v{i}" for j in range(15)} for i in range(3)]
    v = view(rows, {f"c{j:02d}": "string" for j in range(15)})
    texts = _svg_texts(v.to_svg())
    assert texts[-1] == "3 rows, 15 columns; the first 12 columns shown."
    assert "c11" in texts and "c12" not in texts


def test_a_refused_view_has_nothing_to_export(tmp_path: Path) -> None:
    v = view(LUN_ROWS, LUN_DECL, mode="enforce")
    with pytest.raises(ChartkitError, match="this view was refused, so there is no PNG"):
        v.save(tmp_path / "r.png")
    assert not (tmp_path / "r.png").exists()
