"""The explorer places each note and refused axis by its fields (``Note.column``,
``AxisRefusal.column``), never by searching the English of a sentence for a column name; and it
highlights offending cells with the one highlighter the notebook uses too."""

from __future__ import annotations

import re

import pandas as pd
from _explorer import blocks, paste, seen
from streamlit.testing.v1 import AppTest

from chartkit import view
from chartkit._highlight import (
    HIGHLIGHT,
    frame_offending_cells,
    highlighted,
    offender_counts,
    offending_cells,
)

# ms holds the string "latency_ms" in 9 rows: the left-out note about ms quotes it, so a
# search of the sentence for the longest column name it mentions finds latency_ms instead
ROWS = [
    {
        "host": f"h{i % 5}",
        "ms": "latency_ms" if i % 7 == 0 else float(i),
        "latency_ms": "" if i % 11 == 0 else float(i),
    }
    for i in range(60)
]
RESULT = {
    "tool": "latency",
    "rows": ROWS,
    "resultColumns": {"host": "string", "ms": "number", "latency_ms": "number"},
}


def test_a_note_sits_in_the_block_of_its_column_even_when_its_sentence_names_another(
    explorer: AppTest,
) -> None:
    shown = view(RESULT["rows"], RESULT["resultColumns"], tool="latency")
    left, other = shown.facts  # both columns are drawn, each leaving its offenders out
    assert [(f.kind, f.column) for f in (left, other)] == [
        ("left-out", "ms"),
        ("left-out", "latency_ms"),
    ]
    assert (left.count("rows"), left.count("of")) == (9, 60)
    assert '"latency_ms"' in left.sentence  # the sentence names the other column's name
    found = blocks(paste(explorer, RESULT))
    assert list(found) == ["ms", "latency_ms"]
    assert found["ms"].endswith(f"Note — {left.sentence}")
    assert left.sentence not in found["latency_ms"]
    assert found["latency_ms"].endswith(f"Note — {other.sentence}")


def test_a_note_about_a_column_without_a_block_is_said_under_the_blocks(
    explorer: AppTest,
) -> None:
    rows = [{"k": f"k{i % 40}", "v": float(i), "bad": "x" if i == 3 else 1.0} for i in range(80)]
    result = {"tool": "t", "rows": rows, "resultColumns": {"k": "string", "v": "number",
                                                           "bad": "number"}}  # fmt: skip
    shown = view(rows, result["resultColumns"], tool="t", x="k", y="v")
    (top,) = [n for n in shown.facts if n.kind == "top"]
    assert top.column == "k"
    at = paste(explorer, result)
    at.selectbox(key=next(s.key for s in at.selectbox if (s.key or "").startswith("axis-x:"))
                 ).set_value("k")  # fmt: skip
    at.selectbox(key=next(s.key for s in at.selectbox if (s.key or "").startswith("axis-y:"))
                 ).set_value("v")  # fmt: skip
    at = at.run()
    found = blocks(at)
    assert list(found) == ["bad"]  # k has no finding: its note is not put in another's block
    assert top.sentence not in found["bad"]
    assert top.sentence in [seen(c.value) for c in at.caption]


def test_one_finding_per_block_and_what_every_finding_ends_with_said_once(
    explorer: AppTest,
) -> None:
    from chartkit.messages import NOTHING_CHANGED

    at = paste(explorer, RESULT)
    found = blocks(at)
    assert len(found) == 2 and all(NOTHING_CHANGED not in text for text in found.values())
    captions = [seen(c.value) for c in at.caption]
    assert captions.count(f"Each of the above also says: {NOTHING_CHANGED}") == 1


# --- the one highlighter ------------------------------------------------------------------------


def test_offending_cells_are_the_checks_verdicts_absent_keys_included() -> None:
    rows = [{"lun": ""}, {"lun": 3}, {}, {"lun": None}, {"lun": "7"}]
    assert offending_cells(rows, {"lun": "number"}, ["lun", "other"]) == {
        "lun": [True, False, True, True, True]
    }
    nullable = {"lun": {"type": "number", "nullable": True}}
    assert offending_cells(rows, nullable, ["lun"]) == {"lun": [True, False, False, False, True]}
    assert offending_cells(rows, None, ["lun"]) == {}
    assert offender_counts(offending_cells(rows, nullable, ["lun"])) == {"lun": 2}


def test_a_frame_is_judged_per_declared_column() -> None:
    frame = pd.DataFrame({"lun": ["", 3, None], "h": ["a", 1, "c"], "free": [1, "x", None]})
    marks = frame_offending_cells(frame, {"lun": "number", "h": "string"})
    assert marks == {"lun": [True, False, True], "h": [False, True, False]}


def styled_cells(css: str) -> dict[tuple[int, int], list[str]]:
    """(row, column) → the CSS properties a Styler's rules give that cell."""
    out: dict[tuple[int, int], list[str]] = {}
    for selectors, body in re.findall(r"([^{}]*)\{([^}]*)\}", css):
        props = [p.strip() for p in body.split(";") if p.strip()]
        for r, c in re.findall(r"_row(\d+)_col(\d+)", selectors):
            out.setdefault((int(r), int(c)), []).extend(props)
    return out


def highlight_props() -> list[str]:
    return [p.strip() for p in HIGHLIGHT.split(";")]


def test_highlighted_styles_exactly_the_marked_cells_with_the_one_style() -> None:
    frame = pd.DataFrame({"a": [1, 2, 3], "b": ["x", "y", "z"]})
    html = highlighted(frame, {"b": [False, True, False], "gone": [True]}).to_html()
    assert styled_cells(html) == {(1, 1): highlight_props()}


def test_the_notebook_and_the_explorer_mark_the_same_cells_the_same_way(explorer: AppTest) -> None:
    """A table view: the notebook's table fallback and the explorer's rows table highlight the
    same cells (the boolean column's "yes" and its null), with the one style."""
    rows = [{"host": "a", "up": "yes"}, {"host": "b", "up": True}, {"host": "c", "up": None}]
    declared = {"host": "string", "up": "boolean"}
    shown = view(rows, declared, tool="inventory")
    assert shown.kind == "table"
    notebook = styled_cells(shown._repr_mimebundle_()["text/html"])
    expected = {(0, 1): highlight_props(), (2, 1): highlight_props()}
    assert notebook == expected
    at = paste(explorer, {"tool": "inventory", "rows": rows, "resultColumns": declared})
    [rows_table] = [d for d in at.dataframe if d.proto.arrow_data.styler.styles]
    assert styled_cells(rows_table.proto.arrow_data.styler.styles) == expected
