"""Charts a screen reader can name: the reason as the spec's description, Streamlit's alt text."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest


def _page() -> None:
    from chartkit.streamlit import show

    rows = [{"k": "a", "v": 1.0}, {"k": "b", "v": 2.0}, {"k": "b", "v": 4.0}]
    show(rows, {"k": "string", "v": "number"}, check=False)


def test_show_passes_the_reason_as_the_charts_alt_text() -> None:
    at = AppTest.from_function(_page, default_timeout=60).run()
    assert [e.value for e in at.exception] == []
    (chart,) = at.get("vega_lite_chart")
    reason = "k is declared string and v is declared number: bars of the mean per k."
    assert chart.proto.alt == reason
    assert '"description"' not in chart.proto.spec  # said once: Streamlit's alt replaces it
