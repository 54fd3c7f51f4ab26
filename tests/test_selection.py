"""chartkit.selection: a clicked mark or a brush as a typed predicate, and the rows behind it."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pandas as pd
import pytest

from chartkit import ChartkitError, RowsPage, Selection, view
from chartkit.selection import MAX_PAGE_SIZE, Equals, NoneOf, Placed, Range
from chartkit.views import View

SPEC_ROWS = [
    {"logical_unit_number": "", "host_group": "vdi-a"},
    {"logical_unit_number": 3, "host_group": "vdi-a"},
    {"logical_unit_number": 5, "host_group": "vdi-b"},
]
SPEC = {"logical_unit_number": "number", "host_group": "string"}


def _records(v: Any) -> list[dict[str, Any]]:
    spec = v.spec
    return list(spec["datasets"][spec["data"]["name"]])


def test_a_clicked_bar_is_its_category_and_the_placement_of_every_used_column() -> None:
    v = view(SPEC_ROWS, SPEC, mode="off")
    record = next(r for r in _records(v) if r["host_group"] == "vdi-a")
    s = Selection.from_datum(v, record)
    assert s.kind == "mark"
    assert s.clauses == (
        Placed("host_group", "nominal", "string"),
        Placed("logical_unit_number", "quantitative", "number"),
        Equals("host_group", "nominal", "vdi-a"),
    )
    assert s.describe() == 'host_group = "vdi-a"'
    page = v.rows_behind(s)
    assert page.total == 1 and page.index == (1,)
    assert page.rows.to_dict(orient="records") == [SPEC_ROWS[1]]


def test_the_rows_left_out_are_reachable_with_their_offending_cells_marked_and_counted() -> None:
    v = view(SPEC_ROWS, SPEC, mode="off")
    page = v.rows_behind(Selection.left_out(v))
    assert v.left_out == 1
    assert page.total == 1 and page.index == (0,)
    assert page.offending == (("logical_unit_number",),)
    assert page.offenders == {"logical_unit_number": 1, "host_group": 0}
    assert Selection.left_out(v).describe() == "the rows left out of the chart"


def test_offenders_are_counted_over_every_row_behind_the_selection_not_one_page() -> None:
    rows = [{"g": "a", "m": i if i % 3 else "x", "note": i if i % 4 else None} for i in range(30)]
    v = view(rows, {"g": "string", "m": "number", "note": "number"}, x="g", y="m", mode="off")
    left = Selection.left_out(v)
    first = v.rows_behind(left, page_size=4)
    assert first.total == 10 and first.pages == 3 and len(first.rows) == 4
    assert first.offenders == {"g": 0, "m": 10, "note": 3}  # rows 0, 12 and 24 of the 10
    assert all("m" in o for o in first.offending)
    last = v.rows_behind(left, page=2, page_size=4)
    assert last.index == (24, 27) and last.offenders == first.offenders


def test_a_missing_category_is_a_mark_of_its_own() -> None:
    rows = [{"g": None, "m": 1}, {"g": "a", "m": 2}, {"g": None, "m": 4}]
    v = view(rows, {"g": {"type": "string", "nullable": True}, "m": "number"}, x="g", y="m",
             mode="off")  # fmt: skip
    missing = [Selection.of_mark(v, i) for i in range(len(v.marks))]
    behind = {s.describe(): v.rows_behind(s).index for s in missing}
    assert behind == {"g is missing": (0, 2), 'g = "a"': (1,)}


def test_booleans_and_text_stay_apart() -> None:
    rows = [{"g": True, "m": 1}, {"g": False, "m": 2}, {"g": True, "m": 3}]
    v = view(rows, {"g": "boolean", "m": "number"}, mode="off")
    s = Selection.from_datum(v, {"g": True})
    assert v.rows_behind(s).index == (0, 2)
    assert v.rows_behind(Selection((*s.clauses[:2], Equals("g", "nominal", "True")))).total == 0


def test_top_n_bars_keep_the_other_categories_reachable() -> None:
    rows = [{"k": f"k{i % 40:02d}", "m": i % 40} for i in range(400)]
    v = view(rows, {"k": "string", "m": "number"}, mode="off")
    assert v.reduction.top == 30 and len(v.marks) == 30
    others = Selection.others(v)
    assert isinstance(others.clauses[-1], NoneOf) and len(others.clauses[-1].values) == 30
    assert others.describe() == "k is none of the 30 categories shown"
    page = v.rows_behind(others)
    assert page.total == 100  # 10 categories, 10 rows each, cut from the chart
    assert set(page.rows["m"]) == set(range(10))  # the lowest means were cut


def test_a_histogram_bin_is_half_open_and_its_last_bin_closed() -> None:
    v = view([{"m": float(i)} for i in range(100)], {"m": "number"}, mode="off")
    first, last = Selection.of_mark(v, 0), Selection.of_mark(v, 9)
    assert first.clauses[-1] == Range("m", "quantitative", 0.0, 9.9, "left")
    assert last.clauses[-1].closed == "both" and last.clauses[-1].end == 99.0
    assert v.rows_behind(first).total == 10 and v.rows_behind(last).total == 10
    assert 99 in v.rows_behind(last).rows["m"].tolist()


def test_a_datum_the_spec_rounded_still_finds_its_exact_mark() -> None:
    values = [1 / 3 + i / 7 for i in range(60)]
    v = view([{"m": x} for x in values], {"m": "number"}, mode="off")
    record = _records(v)[4]
    s = Selection.from_datum(v, record)
    assert s == Selection.of_mark(v, 4)
    assert s.clauses[-1].start == float(v.marks.iloc[4]["m"])  # not the spec's rounded edge
    assert v.rows_behind(s).total == int(v.marks.iloc[4]["count"])


def test_a_bucketed_line_point_is_its_time_bucket() -> None:
    rows = [{"t": f"2024-01-0{1 + i % 5}T{i % 24:02d}:00:00", "m": i} for i in range(300)]
    v = view(rows, {"t": "date", "m": "number"}, x="t", y="m", max_points=100, mode="off")
    seconds = v.reduction.bucket_seconds
    assert seconds is not None
    s = Selection.of_mark(v, 0)
    start = dt.datetime(2024, 1, 1)
    assert s.clauses[-1] == Range("t", "temporal", start, start + dt.timedelta(seconds=seconds),
                                  "left", "wall clock")  # fmt: skip
    assert v.rows_behind(s).total == int(v.marks.iloc[0]["rows"])


def test_zoned_times_are_selected_in_utc_as_the_chart_shows_them() -> None:
    rows = [{"t": "2024-01-01T01:30:00+02:00", "m": 1}, {"t": "2024-01-01T00:30:00+02:00", "m": 2}]
    v = view(rows, {"t": "date", "m": "number"}, x="t", y="m", time_unit="day", mode="off")
    s = Selection.of_mark(v, 0)  # 2023-12-31 22:30 UTC, the first day drawn
    assert s.describe() == "t in [2023-12-31 00:00:00 UTC, 2024-01-01 00:00:00 UTC)"
    assert v.rows_behind(s).index == (0, 1)


def test_a_week_is_monday_to_monday() -> None:
    rows = [{"t": "2024-01-07T23:00:00", "m": 1}, {"t": "2024-01-08T00:00:00", "m": 2},
            {"t": "2024-01-01T00:00:00", "m": 3}]  # fmt: skip
    v = view(rows, {"t": "date", "m": "number"}, x="t", y="m", time_unit="week", mode="off")
    got = {Selection.of_mark(v, i).describe(): v.rows_behind(Selection.of_mark(v, i)).index
           for i in range(len(v.marks))}  # fmt: skip
    assert got == {
        "t in [2024-01-01 00:00:00, 2024-01-08 00:00:00)": (0, 2),
        "t in [2024-01-08 00:00:00, 2024-01-15 00:00:00)": (1,),
    }


def test_a_brushed_time_range_selects_the_buckets_it_covers() -> None:
    rows = [{"t": f"2024-01-{1 + i % 20:02d}T00:00:00", "m": i} for i in range(200)]
    v = view(rows, {"t": "date", "m": "number"}, x="t", y="m", time_unit="day", mode="off")
    s = Selection.from_interval(v, {"t": ["2024-01-02T12:00:00", "2024-01-04T00:00:00"]})
    assert s.kind == "interval"
    assert s.describe() == "t in [2024-01-03 00:00:00, 2024-01-05 00:00:00)"
    assert v.rows_behind(s).total == 20
    # epoch milliseconds, as Vega-Lite's store holds a brushed date (read as UTC)
    lo = pd.Timestamp("2024-01-02T12:00:00").value // 1_000_000
    hi = pd.Timestamp("2024-01-04T00:00:00").value // 1_000_000
    assert Selection.from_interval(v, {"t": [lo, hi]}) == s


def test_a_brushed_scatter_selects_the_points_inside() -> None:
    rows = [{"x": float(i), "y": float(i % 7)} for i in range(50)]
    v = view(rows, {"x": "number", "y": "number"}, x="x", y="y", mode="off")
    s = Selection.from_interval(v, {"x": [10, 19.5], "y": [0, 3]})
    got = v.rows_behind(s, page_size=100).rows.to_dict(orient="records")
    assert got == [r for r in rows if 10 <= r["x"] <= 19.5 and 0 <= r["y"] <= 3]


def test_a_selection_round_trips_through_json() -> None:
    rows = [{"t": f"2024-01-0{1 + i % 5}T00:00:00", "m": i, "g": "ab"[i % 2]} for i in range(20)]
    v = view(rows, {"t": "date", "m": "number", "g": "string"}, x="t", y="m", mode="off")
    for i in range(len(v.marks)):
        s = Selection.of_mark(v, i)
        back = Selection.from_dict(json.loads(json.dumps(s.to_dict())))
        assert back == s
        assert v.rows_behind(back).index == v.rows_behind(s).index


def test_a_page_as_json_caps_what_the_tool_sent() -> None:
    rows = [{"g": "a", "m": 1, "blob": "x" * 100_000}, {"g": "b", "m": 2, "blob": "y"}]
    v = view(rows, {"g": "string", "m": "number"}, mode="off")
    page = v.rows_behind(Selection.from_datum(v, {"g": "a"}))
    assert isinstance(page, RowsPage)
    out = page.to_dict()
    assert len(json.dumps(out)) < 5_000
    assert out["rows"][0]["g"] == "a" and out["total"] == 1 and out["pages"] == 1


def test_bad_input_gets_a_clear_error() -> None:
    v = view(SPEC_ROWS, SPEC, mode="off")
    with pytest.raises(ChartkitError, match=r"mark 7 is not a mark of this chart; it has 2"):
        Selection.of_mark(v, 7)
    with pytest.raises(ChartkitError, match="matches no mark of this chart"):
        Selection.from_datum(v, {"host_group": "vdi-z"})
    with pytest.raises(ChartkitError, match="names none of this chart's fields"):
        Selection.from_datum(v, {"nope": 1})
    with pytest.raises(ChartkitError, match="page_size is at most 10,000 rows"):
        v.rows_behind(Selection.left_out(v), page_size=MAX_PAGE_SIZE + 1)
    with pytest.raises(ChartkitError, match="page must be an integer of at least 0"):
        v.rows_behind(Selection.left_out(v), page=-1)
    with pytest.raises(ChartkitError, match="this chart shows every category"):
        Selection.others(v)
    with pytest.raises(ChartkitError, match="is not a brushable axis"):
        Selection.from_interval(v, {"nope": [0, 1]})


def test_nothing_of_a_refused_result_is_reachable() -> None:
    v = view(SPEC_ROWS, SPEC, mode="enforce")
    assert v.kind == "refused"
    with pytest.raises(ChartkitError, match="this view was refused, so it has no marks"):
        Selection.left_out(v)
    s = Selection((Placed("host_group", "nominal", "string"),), "left-out")
    with pytest.raises(ChartkitError, match="this view was refused, so no row of it is shown"):
        v.rows_behind(s)


def test_a_table_has_no_marks() -> None:
    v = view([{"a": "x"}, {"a": "y"}], {"a": "string"}, mode="off")
    assert v.kind == "table"
    with pytest.raises(ChartkitError, match="this view is a table, so it has no marks"):
        Selection.of_mark(v, 0)


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the evaluations of a selection over a view's rows (``Cells.mask`` calls)."""
    from chartkit.backends.clauses import Cells

    calls: list[int] = []
    real = Cells.mask

    def counted(self: Any, clauses: Any, kind: str = "mark") -> Any:
        calls.append(1)
        return real(self, clauses, kind)

    monkeypatch.setattr(Cells, "mask", counted)
    return calls


def test_a_selection_is_evaluated_once_for_every_page_and_its_positions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from chartkit.selection import positions_behind

    rows = [{"g": "ab"[i % 2], "m": i if i % 7 else "x"} for i in range(120)]
    v = view(rows, {"g": "string", "m": "number"}, mode="off")
    calls = _counting(monkeypatch)
    bar = Selection.of_mark(v, 0)
    pages = [v.rows_behind(bar, page=p, page_size=25) for p in range(3)]
    positions = positions_behind(v, Selection.of_mark(v, 0))  # an equal selection: the same
    assert len(calls) == 1
    mine = [i for i, r in enumerate(rows) if r["g"] == "a" and r["m"] != "x"]
    assert positions.tolist() == mine
    assert [i for p in pages for i in p.index] == mine[:75]
    assert {p.total for p in pages} == {len(mine)}
    with pytest.raises(ValueError):
        positions[0] = 5  # what the view keeps is read-only
    v.rows_behind(Selection.left_out(v))  # another selection: evaluated
    assert len(calls) == 2
    left = positions_behind(v, Selection.left_out(v))
    assert left.tolist() == [i for i, r in enumerate(rows) if r["m"] == "x"]
    assert len(calls) == 2


def test_a_clean_column_is_not_judged_again_and_an_unused_one_only_over_the_rows_behind(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import chartkit.check.judge as judge

    rows = [{"g": "ab"[i % 2], "m": float(i), "note": "" if i % 3 else 4} for i in range(90)]
    v = view(rows, {"g": "string", "m": "number", "note": "string"}, x="g", y="m", mode="off")
    judged: list[int] = []
    real = judge.offending_mask

    def counted(series: pd.Series, decl: Any) -> Any:
        judged.append(len(series))
        return real(series, decl)

    monkeypatch.setattr(judge, "offending_mask", counted)
    page = v.rows_behind(Selection.of_mark(v, 0), page_size=10)
    # g and m are clean (the check found no offender): not judged; note, which the chart does
    # not draw, is judged over the 45 rows behind the bar only
    assert judged == [45]
    assert page.offenders == {"g": 0, "m": 0, "note": 15}
    assert page.offending == tuple(("note",) if i % 3 == 0 else () for i in page.index)


def test_a_brushed_range_charted_again_is_those_rows_checked_and_reduced_anew() -> None:
    from chartkit.selection import positions_behind

    t0 = dt.datetime(2024, 1, 1)
    rows = [  # host, which the line does not draw, holds a stray now and then
        {"at": (t0 + dt.timedelta(minutes=i)).isoformat(), "ms": i % 9,
         "host": 5 if i % 50 == 7 else f"h{i}"}
        for i in range(2000)
    ]  # fmt: skip
    decl = {"at": "date", "ms": "number", "host": "string"}
    v = view(rows, decl, x="at", y="ms", mode="warn", max_points=100)
    assert v.reduction.bucket_seconds and "color" not in v.encodings  # a bucketed line
    brush = Selection.from_interval(v, {"at": ["2024-01-01T02:00:00", "2024-01-01T03:00:00"]})
    at = positions_behind(v, brush).tolist()
    d = v.drill(brush, max_points=100)
    # the rows as the tool sent them, the same declaration and dial
    assert d.result.rows == [rows[i] for i in at]
    assert d.result.result_columns == v.result.result_columns and d.check.mode == "warn"
    assert d.result.tool == v.result.tool
    # reduced again over those rows: finer buckets (or none), the same picks
    assert (d.reduction.bucket_seconds or 0) < v.reduction.bucket_seconds
    assert (d.encodings["x"].column, d.encodings["y"].column) == ("at", "ms")
    assert d.marks is not None
    if d.encodings["y"].aggregate is None:  # a time each: one point per row, none averaged
        assert len(d.marks) == len(at)
    else:
        assert d.encodings["y"].aggregate == v.encodings["y"].aggregate
        assert len(d.marks) > 1
    # checked again: the findings are those rows' own (the strays inside the range)
    [finding] = d.check.findings
    assert finding.violation is not None and finding.violation.column == "host"
    assert finding.violation.affected == sum(rows[i]["host"] == 5 for i in at) > 0
    assert finding.violation.total == len(at) < len(rows)


def test_a_bar_of_an_engine_frame_charted_again_stays_in_the_engine() -> None:
    duckdb = pytest.importorskip("duckdb")
    con = duckdb.connect()
    rel = con.sql(
        "SELECT 'g' || (i % 4)::VARCHAR AS g, (i % 10)::DOUBLE AS m, i % 3 AS k "
        "FROM range(12000) r(i)"
    )
    v = view(rel, {"g": "string", "m": "number", "k": "number"}, x="g", y="m", max_points=100)
    bar = Selection.of_mark(v, 0)
    d = v.drill(bar, max_points=100)
    assert isinstance(d.result.rows, duckdb.DuckDBPyRelation)
    assert d.marks is not None and len(d.marks) == 1
    assert d.marks.iloc[0]["g"] == v.marks.iloc[0]["g"]  # type: ignore[union-attr]
    assert d.marks.iloc[0]["m"] == pytest.approx(v.marks.iloc[0]["m"])  # type: ignore[union-attr]


def test_only_a_chart_is_charted_again() -> None:
    refused = view(SPEC_ROWS, SPEC, mode="enforce")
    with pytest.raises(ChartkitError, match="refused, so it has no marks"):
        refused.drill(Selection(()))
    v = view(SPEC_ROWS, SPEC, mode="off")
    with pytest.raises(ChartkitError, match="drill takes a Selection; got dict"):
        v.drill({"kind": "mark"})  # type: ignore[arg-type]


def _log_channels(v: View) -> set[str]:
    """The channels the view's spec draws on a log scale."""
    assert v.spec is not None
    encoding = v.spec.get("encoding") or v.spec["spec"]["encoding"]
    return {c for c, e in encoding.items()
            if isinstance(e, dict) and (e.get("scale") or {}).get("type") == "log"}  # fmt: skip


def test_a_drilled_chart_keeps_the_log_axes_its_parent_chose() -> None:
    """Issue 20's automatic log scale survives View.drill: a brushed band of a scatter whose
    y spans five powers of ten spans less than the rule's three, yet stays on a log scale as
    its parent drew it — and an axis the parent drew linear stays linear."""
    rows = [{"x": float(i), "y": 10.0 ** (i % 50 / 10)} for i in range(200)]
    v = view(rows, {"x": "number", "y": "number"}, x="x", y="y")
    assert _log_channels(v) == {"y"} and v.options["scale"] == "log"
    d = v.drill(Selection.from_interval(v, {"y": [1, 50]}))
    assert d.mark == "point" and _log_channels(d) == {"y"}
    [kept] = [n for n in d.facts if n.kind == "log-scale"]
    assert kept.column == "y" and kept.sentence == (
        "y is on a log scale, as in the chart these rows were drilled from (1 to 39.8107 here); "
        "scale='linear' draws it linear."
    )
    assert kept.sentence in d.notes
    # an x axis put on a log scale (view(scale="log") would put only the measure's on one)
    wide = [{"x": 10.0 ** (i % 60 / 10), "y": float(i % 7)} for i in range(180)]
    w = view(wide, {"x": "number", "y": "number"}, x="x", y="y")
    assert _log_channels(w) == {"x"}
    d = w.drill(Selection.from_interval(w, {"x": [2, 30]}))
    assert _log_channels(d) == {"x"}
    assert [n.column for n in d.facts if n.kind == "log-scale"] == ["x"]


def test_a_drilled_chart_keeps_its_parents_picked_scale() -> None:
    rows = [{"x": float(i), "y": 10.0 ** (i % 50 / 10)} for i in range(200)]
    linear = view(rows, {"x": "number", "y": "number"}, x="x", y="y", scale="linear")
    assert not _log_channels(linear)
    d = linear.drill(Selection.from_interval(linear, {"x": [0, 120]}))  # still 4.9 powers of ten
    assert not _log_channels(d) and not [n for n in d.facts if n.kind == "log-scale"]
    bars = [{"g": "abc"[i % 3], "m": float(1 + i)} for i in range(30)]
    b = view(bars, {"g": "string", "m": "number"}, x="g", y="m", scale="log")
    assert b.options["scale"] == "log" and _log_channels(b) == {"y"}
    d = b.drill(Selection.from_datum(b, {"g": "a"}))
    assert d.options["scale"] == "log" and _log_channels(d) == {"y"}


@pytest.mark.parametrize("zero", [True, False])
def test_a_drilled_chart_keeps_its_parents_zero(zero: bool) -> None:
    rows = [{"t": f"2024-01-{d:02d}", "v": 100.0 + d} for d in range(1, 29)]
    line = view(rows, {"t": "date", "v": "number"}, zero=zero)
    assert line.options["zero"] is zero
    d = line.drill(Selection.from_interval(line, {"t": ["2024-01-03", "2024-01-20"]}))
    assert d.options["zero"] is zero
    y_scale = d.spec["encoding"]["y"].get("scale", {}) if d.spec else {}
    assert y_scale.get("zero", True) is zero  # (Vega-Lite starts a quantitative axis at 0)


def test_a_drilled_chart_says_why_it_does_not_keep_a_log_axis() -> None:
    """Drilled into more rows than its max_points, the scatter is a heatmap of counts, whose
    bins are linear: the note says the parent's log axis is not kept, and why."""
    rows = [{"x": float(i), "y": 10.0 ** (i % 50 / 10)} for i in range(200)]
    v = view(rows, {"x": "number", "y": "number"}, x="x", y="y")
    d = v.drill(Selection.from_interval(v, {"x": [0, 150]}), max_points=100)
    assert d.mark == "rect" and not _log_channels(d)
    [said] = [n for n in d.facts if n.kind == "option-ignored"]
    assert said.column == "y" and said.sentence == (
        "The chart these rows were drilled from drew y on a log scale; this rect chart does "
        "not: its bins are linear."
    )
    assert said.sentence in d.notes


@pytest.mark.parametrize("name", ["chartkit.selection", "chartkit.backends.clauses"])
def test_the_docstring_examples_run(name: str) -> None:
    import doctest
    import importlib

    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, report=False)
    assert result.attempted > 0 and result.failed == 0


def test_the_rows_behind_a_labels_counted_bar_are_the_rows_it_counted() -> None:
    """A label's rows counted per bucket count the rows holding the measure the chart was
    drawn for (the others are left out, and said so): the rows behind each stacked bar are
    exactly those, and the rows left out hold no measure."""
    n = 150
    frame = pd.DataFrame({
        "g": [None if i % 13 == 0 else f"c{i % 3}" for i in range(n)],
        "m": [None if i % 7 == 0 else float(i % 11) for i in range(n)],
        "t": [dt.datetime(2024, 1, 1) + dt.timedelta(minutes=97 * i) for i in range(n)],
    })  # fmt: skip
    decl = {"g": {"type": "string", "nullable": True}, "m": "number", "t": "date"}
    v = view(frame, decl, max_points=100, x="t", y="m")
    assert (v.mark, v.encodings["y"].field, v.drawn["y"]) == ("bar", "count", "m")
    assert v.marks is not None
    for i in range(len(v.marks)):
        page = v.rows_behind(Selection.of_mark(v, i), page_size=MAX_PAGE_SIZE)
        assert page.total == int(v.marks["count"].iloc[i])
        assert page.rows["m"].notna().all()
    left = v.rows_behind(Selection.left_out(v), page_size=MAX_PAGE_SIZE)
    assert left.total == v.left_out == 22 and left.rows["m"].isna().all()


def test_a_lines_gap_is_no_mark_to_select_and_a_brush_across_it_reads_its_neighbours() -> None:
    rows = [{"day": f"2024-01-{d:02d}", "n": d * 1.5} for d in range(1, 11) if d not in (5, 6)]
    v = view(rows, {"day": "date", "n": "number"}, mode="off")
    assert v.mark == "line" and v.marks is not None
    # the line breaks at the missing days: one row of no value, in the chart's data
    assert v.marks["n"].isna().tolist() == [False] * 4 + [True] + [False] * 4
    refused = "mark 4 is a gap in the line: a missing time point, drawn as a break, with no row"
    with pytest.raises(ChartkitError, match=refused):
        Selection.of_mark(v, 4)
    with pytest.raises(ChartkitError, match=refused):
        Selection.from_datum(v, {"day": "2024-01-05T00:00:00.000"})
    points = [v.rows_behind(Selection.of_mark(v, i)).total for i in range(9) if i != 4]
    assert points == [1] * 8
    across = v.rows_behind(Selection.from_interval(v, {"day": ["2024-01-04", "2024-01-07"]}))
    assert across.rows["day"].tolist() == ["2024-01-04", "2024-01-07"]
