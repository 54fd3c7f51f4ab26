"""Drill into the explorer's chart: click a mark or brush a range, see the rows behind it.

AppTest cannot click a chart, so a test hands the page the selection state a browser would
send for the chart's own selection parameters (``chartkit.streamlit.MARK`` / ``BRUSH``); the
real click in Chromium is tests/test_browser_explorer.py. What the page shows is held to
``View.rows_behind`` and to the check of just those rows.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from typing import Any

import pytest
from _explorer import example, ok, paste, seen, texts
from streamlit.proto.WidgetStates_pb2 import WidgetStates
from streamlit.testing.v1 import AppTest

import chartkit.explorer.page as ep
from chartkit import check_columns, view
from chartkit.messages import offenders_text
from chartkit.selection import Selection
from chartkit.streamlit import BRUSH, MARK, selectable_spec, selection_of, violation_line

LUN = "logical_unit_number"


def chart_spec(at: AppTest) -> dict[str, Any]:
    [chart] = at.get("vega_lite_chart")
    spec: dict[str, Any] = json.loads(chart.proto.spec)
    return spec


def select_on_chart(at: AppTest, selection: dict[str, Any]) -> AppTest:
    """Rerun the page as a browser does after a click or a brush on its chart: the chart's
    state holds the selection (what Vega-Lite's parameters hold, as Streamlit sends it)."""
    [chart] = at.get("vega_lite_chart")
    assert list(chart.proto.selection_mode) == sorted(selection)
    states: WidgetStates = at._tree.get_widget_states()
    state = states.widgets.add()
    state.id = chart.proto.id
    state.string_value = json.dumps({"selection": selection})
    return ok(at._run(states))


def heading(at: AppTest) -> str:
    [line] = [t for t in texts(at, "markdown") if t.startswith("**The rows ")]
    return line


def behind_table(at: AppTest) -> Any:
    """The rows behind the selection: the table under the chart, above the rows as returned."""
    behind, _returned = list(at.dataframe)
    return behind


def rkey(at: AppTest) -> str:
    key = next(s.key for s in at.selectbox if (s.key or "").startswith("axis-x:"))
    return key.split(":", 1)[1]


def bars(at: AppTest) -> AppTest:
    """The LUN example drawn as bars of capacity per host group (its default is a scatter of
    the LUNs over the capacities since issue 40: the flagged column keeps its place)."""
    key = rkey(at)
    at.selectbox(key=f"axis-x:{key}").set_value("host_group")
    return ok(at.selectbox(key=f"axis-y:{key}").set_value("capacity_gb").run())


def highlighted_cells(table: Any) -> list[tuple[int, int]]:
    css = table.proto.arrow_data.styler.styles
    cells = set()
    for block in css.split("}"):
        if "background-color" in block:
            cells |= {(int(r), int(c)) for r, c in re.findall(r"_row(\d+)_col(\d+)", block)}
    return sorted(cells)


def for_these_rows(finding: Any) -> str:
    """The finding for just the selected rows, as the page says it: the violation's line and
    its offending values counted."""
    listed = offenders_text(finding)
    return f"For these rows: {violation_line(finding)}\n\nOffending values: {listed}"


def test_clicking_a_bar_shows_its_rows_offenders_highlighted_and_their_finding(
    explorer: AppTest,
) -> None:
    result = example("host_group_mappings")
    explorer = bars(explorer)
    spec = chart_spec(explorer)
    [mark] = [p for p in spec["params"] if p["name"] == MARK]
    assert mark["select"]["type"] == "point"
    assert "Click a mark to see the rows behind it" in " ".join(texts(explorer, "caption"))
    at = select_on_chart(explorer, {MARK: [{"host_group": "vdi-a"}]})
    mine = [i for i, r in enumerate(result.rows) if r["host_group"] == "vdi-a"]
    assert heading(at) == f'**The rows behind host_group = "vdi-a"** — {len(mine):,} rows'
    # the finding for just these rows: the check of exactly them
    [finding] = check_columns([result.rows[i] for i in mine], result.result_columns)
    assert finding.affected == sum(result.rows[i][LUN] == "" for i in mine) > 0
    assert for_these_rows(finding) in texts(at, "warning")
    table = behind_table(at)
    shown = mine[: ep.SELECTED_ROWS]
    assert list(table.value.index) == [i + 1 for i in shown]  # the rows' own numbers
    column = list(table.value.columns).index(LUN)
    assert highlighted_cells(table) == [
        (n, column) for n, i in enumerate(shown) if result.rows[i][LUN] == ""
    ]
    bad = sum(result.rows[i][LUN] == "" for i in shown)
    assert (
        f"Offending cells are highlighted: {bad:,} of the {len(shown):,} rows shown hold one."
        in texts(at, "caption")
    )
    # the same rows View.rows_behind gives
    v = view(result, x="host_group", y="capacity_gb")
    page = v.rows_behind(Selection.from_datum(v, {"host_group": "vdi-a"}), page_size=200)
    assert page.total == len(mine) and list(page.index) == shown


def test_a_click_evaluates_its_selection_once(
    explorer: AppTest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page of rows and the findings for just those rows read one evaluation."""
    import streamlit as st

    from chartkit.backends.clauses import Cells

    st.cache_resource.clear()  # a click an earlier test made would be answered from the cache
    calls: list[int] = []
    real = Cells.mask

    def counted(self: Any, clauses: Any, kind: str = "mark") -> Any:
        calls.append(1)
        return real(self, clauses, kind)

    explorer = bars(explorer)
    monkeypatch.setattr(Cells, "mask", counted)
    at = select_on_chart(explorer, {MARK: [{"host_group": "vdi-b"}]})
    assert heading(at).startswith('**The rows behind host_group = "vdi-b"**')
    assert any(t.startswith("For these rows: ") for t in texts(at, "warning"))
    assert len(calls) == 1


def test_the_rows_behind_a_big_bar_come_in_pages(explorer: AppTest) -> None:
    result = example("host_group_mappings")
    at = select_on_chart(bars(explorer), {MARK: [{"host_group": "vdi-a"}]})
    mine = [i for i, r in enumerate(result.rows) if r["host_group"] == "vdi-a"]
    assert len(mine) > ep.SELECTED_ROWS
    [pager] = [n for n in at.number_input if (n.key or "").startswith("behind-page:")]
    pager.set_value(2)
    at = ok(at.run())
    table = behind_table(at)
    assert list(table.value.index) == [i + 1 for i in mine[ep.SELECTED_ROWS :]]
    assert (
        f"Rows {ep.SELECTED_ROWS + 1:,}–{len(mine):,} of the {len(mine):,} behind the "
        "selection." in texts(at, "caption")
    )


def test_brushing_a_time_range_shows_the_rows_in_it(explorer: AppTest) -> None:
    at = ok(explorer.selectbox(key="example").set_value("latency_by_region").run())
    spec = chart_spec(at)
    assert [p["name"] for p in spec["params"]] == [BRUSH]  # a line: brushed, not clicked
    assert "Drag across the chart to see the rows behind that range" in " ".join(
        texts(at, "caption")
    )
    lo = dt.datetime(2024, 5, 13, tzinfo=dt.UTC)
    hi = lo + dt.timedelta(hours=1)
    ms = [int(t.timestamp() * 1000) for t in (lo, hi)]
    at = select_on_chart(at, {BRUSH: {"timestamp": ms}})
    result = example("latency_by_region")
    inside = [
        i
        for i, r in enumerate(result.rows)
        if lo <= dt.datetime.fromisoformat(r["timestamp"].replace("Z", "+00:00")) <= hi
    ]
    assert inside
    assert heading(at).endswith(f"— {len(inside):,} rows")
    assert list(behind_table(at).value.index) == [i + 1 for i in inside]
    assert "No cell of these rows breaks the declaration." in texts(at, "caption")


def test_a_brushed_range_is_charted_again_when_asked(explorer: AppTest) -> None:
    at = ok(explorer.selectbox(key="example").set_value("latency_by_region").run())
    lo = dt.datetime(2024, 5, 13, tzinfo=dt.UTC)
    ms = [int(t.timestamp() * 1000) for t in (lo, lo + dt.timedelta(hours=6))]
    at = select_on_chart(at, {BRUSH: {"timestamp": ms}})
    assert len(at.get("vega_lite_chart")) == 1  # not until asked
    [toggle] = [t for t in at.toggle if (t.key or "").startswith("drill:")]
    assert toggle.label == "Chart these rows"
    at = ok(toggle.set_value(True).run())
    _brushed, again = at.get("vega_lite_chart")
    v = view(example("latency_by_region"))
    expected = v.drill(Selection.from_interval(v, {"timestamp": ms}))
    assert expected.marks is not None
    assert expected.spec is not None and v.marks is not None
    assert len(expected.marks) < len(v.marks)
    drawn = json.loads(again.proto.spec)
    assert drawn["title"] == expected.spec["title"]
    assert drawn["encoding"] == expected.spec["encoding"]
    assert seen(ep.md(expected.reason)) in texts(at, "caption")


LEFT_OUT = {
    "tool": "latency",
    "rows": [
        {"host": f"h{i % 5}", "ms": "n/a" if i % 7 == 0 else float(i)} for i in range(60)
    ],
    "resultColumns": {"host": "string", "ms": "number"},
}


def test_the_rows_left_out_of_the_chart_are_reachable(explorer: AppTest) -> None:
    at = paste(explorer, LEFT_OUT)
    left = [i for i, r in enumerate(LEFT_OUT["rows"]) if r["ms"] == "n/a"]
    toggle = at.toggle(key=f"left-out:{rkey(at)}")
    assert toggle.label == f"Show the {len(left)} rows left out of the chart"
    at = ok(toggle.set_value(True).run())
    assert heading(at) == f"**The rows left out of the chart** — {len(left)} rows"
    table = behind_table(at)
    assert list(table.value.index) == [i + 1 for i in left]
    column = list(table.value.columns).index("ms")
    assert highlighted_cells(table) == [(n, column) for n in range(len(left))]
    [finding] = check_columns([LEFT_OUT["rows"][i] for i in left], LEFT_OUT["resultColumns"])
    assert (finding.affected, finding.total) == (len(left), len(left))
    assert for_these_rows(finding) in texts(at, "warning")


def test_a_selection_that_names_no_mark_of_the_chart_is_said_and_dropped(
    explorer: AppTest,
) -> None:
    at = select_on_chart(bars(explorer), {MARK: [{"host_group": "not-a-group"}]})
    assert [t for t in texts(at, "markdown") if t.startswith("**The rows ")] == []
    assert any(
        t.startswith("The selection names no mark of the chart as it is now; select again.")
        for t in texts(at, "caption")
    )


def test_under_enforce_no_row_is_reachable_from_the_chart(explorer: AppTest) -> None:
    at = ok(explorer.radio(key="mode").set_value("enforce").run())
    assert at.get("vega_lite_chart") == []
    assert [t for t in texts(at, "markdown") if t.startswith("**The rows ")] == []


# --- the selections a chart offers ---------------------------------------------------------


def records(spec: dict[str, Any]) -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = spec["datasets"][spec["data"]["name"]]
    return data


def test_every_bar_clicked_names_the_rows_it_was_drawn_from() -> None:
    """Each bar's datum, as the click sends it, selects exactly the rows the bar counts;
    together they are every row the chart placed."""
    v = view(example("host_group_mappings"), x="host_group", y="capacity_gb")
    spec = selectable_spec(v)
    [mark] = spec["params"]
    assert mark == {"name": MARK, "select": {"type": "point", "fields": list(records(spec)[0])}}
    totals = []
    for record in records(spec):
        datum = {f: record[f] for f in mark["select"]["fields"]}
        picked = selection_of(v, {"selection": {MARK: [datum]}})
        assert picked is not None
        page = v.rows_behind(picked)
        assert page.total == record["rows"]
        totals.append(page.total)
    assert sum(totals) == len(example("host_group_mappings").rows) - v.left_out


def test_a_scatter_is_clicked_and_brushed_on_both_axes_and_a_facet_in_its_cell() -> None:
    rows = [{"a": float(i), "b": float(i % 7), "k": f"k{i % 3}"} for i in range(50)]
    scatter = view(rows, {"a": "number", "b": "number"}, x="a", y="b")
    assert scatter.mark == "point"
    names = [(p["name"], p["select"]) for p in selectable_spec(scatter)["params"]]
    assert names[1] == (BRUSH, {"type": "interval", "encodings": ["x", "y"]})
    picked = selection_of(scatter, {"selection": {BRUSH: {"a": [10, 19.5]}, MARK: []}})
    assert picked is not None and picked.kind == "interval"
    assert scatter.rows_behind(picked).total == 10
    assert selection_of(scatter, {"selection": {BRUSH: {}, MARK: []}}) is None
    faceted = view(rows, {"a": "number", "b": "number", "k": "string"}, x="a", y="b", facet="k")
    spec = selectable_spec(faceted)
    assert "params" not in spec and [p["name"] for p in spec["spec"]["params"]] == [MARK, BRUSH]
    assert faceted.spec is not None  # a copy: the chart's own MARK only, no brush added
    assert [p["name"] for p in faceted.spec["spec"]["params"]] == [MARK]


def test_a_selectable_chart_needs_a_key_and_a_table_has_no_chart_to_select_on() -> None:
    from chartkit.streamlit import show

    v = view(example("host_group_mappings"))
    with pytest.raises(ValueError, match="needs a key to read the selection by"):
        show(v, on_select=True)
    table = view(example("host_inventory"))
    with pytest.raises(ValueError, match="a table view has no chart to select on"):
        selectable_spec(table)
