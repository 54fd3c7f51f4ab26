"""The notebook's table fallback: offending cells highlighted, every name and value escaped."""

from __future__ import annotations

import re

from chartkit import view


def test_the_table_fallback_highlights_offending_cells_and_escapes_everything() -> None:
    name = "<img src=x onerror=alert(1)>"
    rows = [
        {"host": "<b>a</b>", "up": "yes", name: "n"},
        {"host": "b", "up": True, name: "m"},
        {"host": "c", "up": None, name: "o"},
    ]
    shown = view(rows, {"host": "string", "up": "boolean", name: "string"}, tool="inventory")
    assert shown.kind == "table"
    html = shown._repr_mimebundle_()["text/html"]
    assert "<b>a</b>" not in html and "&lt;b&gt;a&lt;/b&gt;" in html
    assert "<img" not in html and "&lt;img src=x onerror=alert(1)&gt;" in html
    blocks = re.findall(r"([^{}]*)\{\s*background-color: #ffd5d5", html)
    styled = {cell for block in blocks for cell in re.findall(r"#(T_\w+_row\d+_col\d+)", block)}
    ids = {cell: text for cell, text in re.findall(r'<td id="(T_\w+)" [^>]*>([^<]*)</td>', html)}
    assert sorted(ids[cell] for cell in styled) == ["None", "yes"]  # "yes", and a null
