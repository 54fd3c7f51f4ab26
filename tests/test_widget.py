"""chartkit.widget in the kernel: what the browser sends becomes a Selection and its rows; the
bundled module is the pinned Vega of web/package-lock.json; viewers without widgets keep the
plain bundle. (tests/test_widget_browser.py drives the same widget in a real JupyterLab.)"""

from __future__ import annotations

import json
import re

import pytest

from chartkit import ChartkitError, view
from chartkit.notebook.widget import WIDGET_JS, ChartWidget
from tests._browser import REPO

ROWS = [{"g": "a", "n": 1}, {"g": "a", "n": 3}, {"g": "b", "n": 2}, {"g": "b", "n": "x"}]
DECL = {"g": "string", "n": "number"}


def test_a_clicked_mark_sent_by_the_browser_is_read_as_a_selection_and_its_rows() -> None:
    w = ChartWidget(view(ROWS, DECL, mode="off"))
    assert w.selection is None and w.rows() is None
    w.selected = {"kind": "mark", "datum": {"g": "a", "n": 2, "rows": 2}}
    assert w.selection is not None and w.selection.describe() == 'g = "a"'
    page = w.rows()
    assert page is not None and page.total == 2 and page.rows["n"].tolist() == [1, 3]
    w.selected = {}
    assert w.selection is None


def test_a_brushed_range_sent_as_wall_clock_text_is_read_as_an_interval() -> None:
    rows = [{"t": f"2024-01-{1 + i // 24:02d}T{i % 24:02d}:00:00", "m": i} for i in range(96)]
    w = ChartWidget(view(rows, {"t": "date", "m": "number"}, x="t", y="m", mode="off"))
    w.selected = {
        "kind": "interval",
        "interval": {"t": ["2024-01-02T00:00:00.000", "2024-01-02T05:30:00.000"]},
    }
    s = w.selection
    assert s is not None and s.kind == "interval"
    assert s.describe() == "t in [2024-01-02 00:00:00, 2024-01-02 05:30:00]"
    page = w.rows()
    assert page is not None and page.rows["m"].tolist() == [24, 25, 26, 27, 28, 29]


def test_what_names_no_mark_is_a_clear_error() -> None:
    w = ChartWidget(view(ROWS, DECL, mode="off"))
    w.selected = {"kind": "mark", "datum": {"g": "zzz"}}
    with pytest.raises(ChartkitError, match="matches no mark of this chart"):
        _ = w.selection
    w.selected = {"kind": "lasso"}
    with pytest.raises(ChartkitError, match="expected mark or interval"):
        _ = w.selection


def test_only_a_chart_is_a_widget() -> None:
    with pytest.raises(ChartkitError, match="this view has no chart to show in a widget"):
        ChartWidget(view([{"a": "x"}, {"a": "y"}], {"a": "string"}))
    with pytest.raises(ChartkitError, match="ChartWidget shows a chartkit View; got dict"):
        ChartWidget({})  # type: ignore[arg-type]


def test_viewers_without_widgets_keep_the_plain_bundle() -> None:
    v = view(ROWS, DECL, mode="off")
    bundle = ChartWidget(v)._repr_mimebundle_()
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    assert "application/vnd.jupyter.widget-view+json" in data
    assert data["image/png"] == v._repr_mimebundle_()["image/png"]
    assert "application/vnd.vegalite.v6+json" in data


def test_the_bundled_module_is_the_pinned_vega_and_loads_nothing() -> None:
    text = WIDGET_JS.read_text(encoding="utf-8")
    found = re.search(r"^// chartkit-widget-packages: (\{.*\})$", text, re.M)
    assert found is not None
    packages = json.loads(found.group(1))
    lock = json.loads((REPO / "web" / "package-lock.json").read_text(encoding="utf-8"))
    for name in ("vega", "vega-lite", "vega-embed", "vega-tooltip", "vega-interpreter"):
        assert packages[name] == lock["packages"][f"node_modules/{name}"]["version"], name
    assert "export default" in text or "export{" in text.replace(" ", "")
    assert "loads nothing from outside the chart" in text


CAPTION = '1 of 4 rows is left out: n holds string (first: "x")'


def test_every_host_draws_the_caption_of_rows_left_out() -> None:
    """The widget, the notebook's Vega-Lite output and the payload's spec are the exported
    chart: the row the chart leaves out is said on the picture, not only in ``notes``."""
    from chartkit.notebook._display import chart_bundle

    v = view(ROWS, DECL, mode="off")
    assert v.caption == (CAPTION,)
    assert v.spec is not None
    exported = v.exported_spec()
    assert exported == v.spec  # View.spec, what a host embeds, carries the caption itself
    assert exported["title"] == {
        "text": "mean of n by g",
        "subtitle": [CAPTION],
        "subtitleColor": "#8a4b00",
        "subtitleFontSize": 11,
        "anchor": "start",
    }
    assert ChartWidget(v).spec == exported
    assert chart_bundle(v)["application/vnd.vegalite.v6+json"] == exported
    bundle = ChartWidget(v)._repr_mimebundle_()
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    assert data["application/vnd.vegalite.v6+json"] == exported
    assert v.to_dict()["spec"] == exported


def test_a_chart_that_places_every_row_carries_no_caption() -> None:
    v = view([{"g": "a", "n": 1}, {"g": "b", "n": 2}], DECL)
    assert v.caption == ()
    assert ChartWidget(v).spec == v.spec and v.to_dict()["spec"] == v.spec
    assert v.to_dict()["spec"]["title"] == "n by g"


def test_the_widget_offers_what_the_views_drill_names() -> None:
    """The browser reads ``drill`` to know what can be clicked and brushed, as the MCP Apps
    page does: the View's own ``to_dict()["drill"]``."""
    bars = view(ROWS, DECL, mode="off")
    assert ChartWidget(bars).drill == bars.to_dict()["drill"]
    assert bars.to_dict()["drill"]["brushable"] == []  # bars of categories: clicked only
    spread = view([{"v": float(i % 17)} for i in range(50)], {"v": "number"})
    assert ChartWidget(spread).drill["brushable"] == ["v"]  # a histogram: its bins brushed too
