"""``View.spec`` and ``View.chart`` — what hosts embed — carry the caption the exports carry
(issue 40 item 5): the rows left out and the flagged columns, as the title's subtitle, as
plain text."""

from __future__ import annotations

import datetime as dt
import html
import re

import duckdb
import polars as pl

from chartkit import view
from chartkit.draw.caption import CAPTION_COLOR

ROWS = [{"g": "a", "n": 1}, {"g": "a", "n": "x"}, {"g": "b", "n": 3}, {"g": "c", "n": 4}]
DECL = {"g": "string", "n": "number"}
LINE = '1 of 4 rows is left out: n holds string (first: "x")'


def _svg_texts(svg: str) -> list[str]:
    lines = []
    for body in re.findall(r"<text[^>]*>(.*?)</text>", svg, flags=re.S):
        spans = re.findall(r"<tspan[^>]*>([^<]*)</tspan>", body)
        lines.extend(spans if spans else [body])
    return [html.unescape(t) for t in lines]


def test_the_spec_and_the_chart_a_host_embeds_carry_the_caption() -> None:
    v = view(ROWS, DECL, x="g", y="n")
    assert v.caption == (LINE,) and v.spec is not None and v.chart is not None
    title = v.spec["title"]
    assert title["subtitle"] == [LINE] and title["subtitleColor"] == CAPTION_COLOR
    assert title["text"].endswith("n by g")
    assert v.chart.to_dict()["title"]["subtitle"] == [LINE]  # the Altair chart itself
    assert v.to_dict()["spec"] == v.exported_spec() == v.spec
    assert LINE in _svg_texts(v.to_svg())
    clean = view([{"g": "a", "n": 1}, {"g": "b", "n": 2}], DECL, x="g", y="n")
    assert clean.caption == () and clean.spec is not None
    assert clean.spec["title"] == title["text"]  # nothing to say: the plain title


def test_a_flagged_column_not_drawn_is_said_on_the_spec() -> None:
    rows = [{"g": "a", "n": 1, "lun": ""}, {"g": "b", "n": 2, "lun": 3}]
    v = view(rows, {**DECL, "lun": "number"}, x="g", y="n")
    assert v.spec is not None
    assert v.spec["title"]["subtitle"] == ["The check also flagged lun, not drawn."]


def test_an_engine_views_spec_carries_the_same_caption() -> None:
    n = 6_000
    frame = pl.DataFrame(
        {
            "at": [dt.datetime(2024, 1, 1) + dt.timedelta(minutes=i) for i in range(n)],
            "gb": [None if i % 97 == 0 else float(i % 50) for i in range(n)],
        }
    )
    declared = {"at": "date", "gb": "number"}
    line = "62 of 6,000 rows are left out: gb holds nothing (first: null)"
    relation = duckdb.sql("select * from frame")
    for data in (frame.to_dicts(), frame, relation):
        v = view(data, declared)
        assert v.spec is not None and v.spec["title"]["subtitle"] == [line]


def test_names_from_data_are_text_on_the_spec_never_markup_or_an_expression() -> None:
    name = "<img src=x onerror=alert(1)>${datum.n}\x07"
    rows = [{name: "", "g": "a"}, {name: 3, "g": "a"}, {name: 5, "g": "b"}]
    v = view(rows, {name: "number", "g": "string"}, x="g", y=name)
    assert v.spec is not None
    title = v.spec["title"]
    assert all(isinstance(t, str) for t in title["subtitle"])  # strings, never {"signal": …}
    shown = " ".join(title["subtitle"])
    assert "<img src=x onerror=alert(1)>${datum.n}\\x… (42 characters)" in shown  # cut, shown
    svg = v.to_svg()
    assert "<img" not in svg and "\x07" not in svg
    assert any("<img src=x onerror=alert(1)>${datum.n}" in t for t in _svg_texts(svg))
