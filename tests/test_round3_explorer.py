"""Issue 38's explorer items and the shipped notebook, as a reader and a new user meet them.

The explorer runs in Streamlit's ``AppTest`` (tests/_explorer.py): the rows grid keeps two
columns whose escaped names look alike apart (item 12); the rows behind a selection show
dates as ISO text, offending cells as the tool returned them, and a brush over rows the
chart left out says so (item 18); counts and plurals are said in one voice, a refused axis
keeps the API's hint, a ``.txt`` upload is an unsupported file type (item 19). ``chartkit
examples --copy`` from an installed wheel copies the notebook too (item 20).
"""

from __future__ import annotations

import datetime as dt
import json
import re
import subprocess
from pathlib import Path
from typing import Any

import nbformat
import pytest
from _explorer import APP, blocks, ok, paste, texts
from streamlit.proto.WidgetStates_pb2 import WidgetStates
from streamlit.testing.v1 import AppTest

import chartkit
import chartkit.explorer._logic as ex
import chartkit.explorer.page as ep
from chartkit import ToolResult, check_columns, view
from chartkit.plan.encode import AxisRefusal
from chartkit.selection import Selection
from chartkit.streamlit import BRUSH

ROOT = Path(__file__).resolve().parent.parent


# --- item 20: the notebook ships -----------------------------------------------------------


def test_the_notebook_is_a_bundled_example_found_by_name() -> None:
    notebook = chartkit.example_path("notebook")
    assert notebook == chartkit.example_path("notebook.ipynb")
    assert notebook.parent == Path(chartkit.__file__).parent / "examples"
    assert "notebook" in chartkit.example_names()
    # the checkout's examples/notebook.ipynb is that very file, not a copy that could drift
    assert (ROOT / "examples" / "notebook.ipynb").resolve() == notebook.resolve()


def test_examples_copy_from_a_wheel_copies_the_notebook(wheel_bin: Path, tmp_path: Path) -> None:
    done = subprocess.run(
        [str(wheel_bin / "chartkit"), "examples", "--copy", "ex"],
        cwd=tmp_path, capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    assert (done.returncode, done.stderr) == (0, "")
    copied = tmp_path / "ex" / "notebook.ipynb"
    assert copied.read_bytes() == chartkit.example_path("notebook").read_bytes()
    assert "notebook.ipynb" in done.stdout
    notebook = nbformat.read(copied, as_version=4)
    nbformat.validate(notebook)
    assert notebook.cells[0].source.startswith("# chartkit in a notebook")
    listed = subprocess.run(
        [str(wheel_bin / "chartkit"), "examples"],
        cwd=tmp_path, capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    [line] = [line for line in listed.stdout.splitlines() if line.startswith("notebook ")]
    assert line.endswith("/chartkit/examples/notebook.ipynb")
    assert str(ROOT) not in line  # the wheel's installed copy, not the checkout's


# --- the explorer, in AppTest ----------------------------------------------------------------


def upload(at: AppTest, name: str, data: bytes) -> AppTest:
    at.radio(key="source").set_value("Upload a file")
    at = ok(at.run())
    at.file_uploader(key="upload").set_value((name, data, "text/csv"))
    return ok(at.run())


def declare(at: AppTest, **types: str) -> AppTest:
    """Pick each column's type in the declaration editor."""
    for column, kind in types.items():
        [box] = [s for s in at.selectbox if (s.key or "").endswith(f":{column}")
                 and (s.key or "").startswith("decl-type:")]  # fmt: skip
        box.set_value(kind)
    return ok(at.run())


def pick(at: AppTest, channel: str, column: str) -> AppTest:
    [box] = [s for s in at.selectbox if (s.key or "").startswith(f"axis-{channel}:")]
    box.set_value(column)
    return ok(at.run())


def select_on_chart(at: AppTest, selection: dict[str, Any]) -> AppTest:
    """Rerun the page as a browser does after a brush or a click on its chart (the chart's
    state holds the selection; tests/test_explorer_selection.py does the same)."""
    [chart] = at.get("vega_lite_chart")
    states: WidgetStates = at._tree.get_widget_states()
    state = states.widgets.add()
    state.id = chart.proto.id
    state.string_value = json.dumps({"selection": selection})
    return ok(at._run(states))


def toggle(at: AppTest, prefix: str) -> Any:
    [found] = [t for t in at.toggle if (t.key or "").startswith(prefix)]
    return found


def rows_grid(at: AppTest) -> Any:
    """The rows as returned: the last table on the page."""
    return list(at.dataframe)[-1]


def behind_grid(at: AppTest) -> Any:
    """The rows behind the selection: the table under the chart, above the rows as returned."""
    behind, _returned = list(at.dataframe)
    return behind


def highlighted_cells(table: Any) -> list[tuple[int, int]]:
    css = table.proto.arrow_data.styler.styles
    cells = set()
    for block in css.split("}"):
        if "background-color" in block:
            cells |= {(int(r), int(c)) for r, c in re.findall(r"_row(\d+)_col(\d+)", block)}
    return sorted(cells)


def ms(day: str) -> int:
    return int(dt.datetime.fromisoformat(day).replace(tzinfo=dt.UTC).timestamp() * 1000)


# item 12: two names that read alike are two columns


ALIKE = {
    "tool": "luns",
    "rows": [
        {"lun\x00": "" if i % 4 == 0 else i, "lun\\x00": 100 + i, "host": f"h{i % 3}"}
        for i in range(12)
    ],
    "resultColumns": {"lun\x00": "number", "lun\\x00": "number", "host": "string"},
}


def test_a_nul_name_and_its_written_escape_are_two_columns_of_the_rows_grid(
    explorer: AppTest,
) -> None:
    at = paste(explorer, ALIKE)
    grid = rows_grid(at)
    labels = ex.column_labels(["lun\x00", "lun\\x00", "host"])
    assert labels == ["'lun\\x00'", "'lun\\\\x00'", "host"]
    assert list(grid.value.columns) == labels
    rows = ALIKE["rows"]
    assert grid.value[labels[0]].tolist() == [json.dumps(r["lun\x00"]) for r in rows]
    assert grid.value[labels[1]].tolist() == [r["lun\\x00"] for r in rows]
    # the offending cells are the NUL column's: the empty strings, and nothing else
    assert highlighted_cells(grid) == [(i, 0) for i in range(12) if i % 4 == 0]


def test_labels_stay_apart_whatever_the_names() -> None:
    names = ["a\x00", "a\\x00", "'a\\x00'", "b"]
    labels = ex.column_labels(names)
    assert len(set(labels)) == len(names)
    assert labels == ["'a\\x00'", "'a\\\\x00'", "'a\\x00' (column 3)", "b"]


# item 18: what the rows behind a selection show


DAYS = [f"2024-03-{d:02d}" for d in range(1, 21)]
LATENCY_CSV = ("day,latency\n" + "".join(
    f"{day},{'n/a' if i == 7 else 10 + i}\n" for i, day in enumerate(DAYS)
)).encode()  # fmt: skip


def test_an_uploaded_csv_shows_its_dates_as_the_file_wrote_them(explorer: AppTest) -> None:
    at = declare(upload(explorer, "lat.csv", LATENCY_CSV), day="date", latency="number")
    assert rows_grid(at).value["day"].tolist() == DAYS  # not epoch milliseconds
    at = select_on_chart(at, {BRUSH: {"day": [ms(DAYS[2]), ms(DAYS[5])]}})
    behind = behind_grid(at).value
    assert list(behind.index) == [3, 4, 5, 6]
    assert behind["day"].tolist() == DAYS[2:6]
    assert behind["latency"].tolist() == [12, 13, 14, 15]


def test_an_engine_page_shows_offending_cells_as_the_tool_returned_them(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "lat.csv"
    path.write_bytes(LATENCY_CSV.replace(b",27\n", b",0x11\n"))  # a second offender
    monkeypatch.setenv(ex.ENV_FILE, str(path))
    at = ok(AppTest.from_file(str(APP), default_timeout=120).run())
    at = declare(at, day="date", latency="number")
    left = toggle(at, "left-out:")
    assert left.label == "Show the 2 rows left out of the chart"
    at = ok(left.set_value(True).run())
    behind = behind_grid(at).value
    assert behind["latency"].tolist() == ['"n/a"', '"0x11"']  # quoted: text, as returned
    # the dates the engine parsed are ISO text (Arrow would show epoch milliseconds)
    assert [dt.datetime.fromisoformat(d) for d in behind["day"]] == [
        dt.datetime.fromisoformat(DAYS[7]), dt.datetime.fromisoformat(DAYS[17])
    ]  # fmt: skip
    assert json.loads(behind_grid(at).proto.columns)["latency"]["label"] == "⚠ latency"


GAPS = {
    "tool": "latency",
    "rows": [{"day": day, "ms": None if i % 6 == 0 else 10.0 + i} for i, day in enumerate(DAYS)],
    "resultColumns": {"day": "date", "ms": {"type": "number", "nullable": True}},
}


def test_a_brush_over_rows_the_chart_left_out_says_so_and_why(explorer: AppTest) -> None:
    at = paste(explorer, GAPS)
    at = select_on_chart(at, {BRUSH: {"day": [ms(DAYS[0]), ms(DAYS[13])]}})
    inside = [i for i in range(14) if i % 6 != 0]
    assert list(behind_grid(at).value.index) == [i + 1 for i in inside]
    shown = view(GAPS["rows"], GAPS["resultColumns"])
    [why] = [n.sentence for n in shown.facts if n.kind == "no-value"]
    assert why == "4 rows hold no value in ms and are not drawn."
    assert texts(at, "info") == [
        f"3 rows in this range are left out of the chart, so not among the rows above: {why}"
    ]
    # the range holds no offending cell; that is said of the rows listed, beside the truth
    assert "No cell of these rows breaks the declaration." in texts(at, "caption")


def test_a_click_on_a_bar_whose_rows_were_partly_left_out_says_how_many() -> None:
    rows = [{"k": "ab"[i % 2], "v": "x" if i in (0, 2) else float(i)} for i in range(10)]
    shown = view(rows, {"k": "string", "v": "number"}, x="k", y="v")
    left = ep._left_out_within("r", "d", "s", "c", shown, Selection.from_datum(shown, {"k": "a"}))
    assert left.rows == 2
    assert left.why == tuple(n.sentence for n in shown.facts if n.kind == "left-out")
    other = ep._left_out_within("r", "d", "s", "o", shown, Selection.from_datum(shown, {"k": "b"}))
    assert other == ep.LeftOutWithin()


# item 19: one number format, plurals, the refused axis's hint, the .txt upload


ONE_LEFT_OUT = {
    "tool": "latency",
    "rows": [{"day": day, "ms": "n/a" if i == 3 else 10.0 + i} for i, day in enumerate(DAYS)],
    "resultColumns": {"day": "date", "ms": "number"},
}


def test_one_row_left_out_is_said_in_the_singular(explorer: AppTest) -> None:
    at = paste(explorer, ONE_LEFT_OUT)
    assert toggle(at, "left-out:").label == "Show the 1 row left out of the chart"
    assert blocks(at)["ms"].endswith(
        "Note — 1 of 20 rows is left out of the y axis: ms is declared number and they hold "
        'string (first: "n/a"). Nothing was converted.'
    )
    at = ok(toggle(at, "left-out:").set_value(True).run())
    assert "**The rows left out of the chart** — 1 row" in texts(at, "markdown")
    assert "Offending cells are highlighted: 1 of the 1 row shown holds one." in texts(
        at, "caption"
    )


def test_counts_are_said_with_separators_and_their_plural(explorer: AppTest) -> None:
    one = ToolResult("t", [{"a": 1}], result_columns={"a": "number"})
    many = ToolResult("t", [{"a": i} for i in range(2056)], result_columns={"a": "number"})
    assert ex.result_label(0, one) == "1. t — 1 row"
    assert ex.result_label(1, many) == "2. t — 2,056 rows"


SAME = {
    "tool": "luns",
    "rows": [{"lun": "" if i % 10 == 0 else i % 7, "gb": float(i * 3 % 17)} for i in range(40)],
    "resultColumns": {"lun": "number", "gb": "number"},
}


def test_a_column_drawn_on_x_keeps_the_reason_and_hint_its_y_was_refused_for(
    explorer: AppTest,
) -> None:
    at = pick(pick(paste(explorer, SAME), "x", "lun"), "y", "lun")
    shown = view(SAME["rows"], SAME["resultColumns"], x="lun", y="lun")
    [refused] = shown.refusals
    assert shown.encodings["x"].column == "lun" and refused.violation is None
    assert refused.reason.endswith("; pick another column declared number as y.")
    assert f"**y axis refused** — {refused.reason}" in blocks(at)["lun"].split("\n\n")


STEPPED = (
    'lun is declared number, but 5 of 20 rows hold string (first: ""), so the chart opens on gb, '
    "which has no finding; pick y='lun' to chart lun with those rows left out."
)


def test_a_measure_the_default_stepped_around_is_offered_not_refused() -> None:
    (v,) = check_columns([{"lun": ""}, {"lun": 1}], {"lun": "number"})
    stepped = AxisRefusal("lun", "y", STEPPED, v)
    assert ex.refused_axis(stepped, found=True, drawn={"k": "x", "gb": "y"}) == (
        "not drawn on y by default",
        "for the finding above, the chart opens on gb; pick y='lun' to chart lun with those "
        "rows left out.",
    )
    quoted = AxisRefusal("n", "y", "n is declared number, but all 3 rows hold string (first: "
                         '"1") — every one a number in quotes.', v)  # fmt: skip
    assert ex.refused_axis(quoted, found=True, drawn={}) == (
        "y axis refused",
        "not drawn, for the finding above.",
    )
    assert ex.refused_axis(quoted, found=True, drawn={"n": "x"}) == (
        "y axis refused",
        "not drawn on y (it is drawn on x), for the finding above.",
    )
    assert ex.refused_axis(stepped, found=False, drawn={}) == ("y axis refused", STEPPED)


def test_a_txt_upload_is_a_file_type_the_explorer_does_not_read(explorer: AppTest) -> None:
    at = upload(explorer, "notes.txt", b"lun,host\n3,vdi-a\n")
    assert texts(at, "error") == [
        "notes.txt is not a file the explorer reads (its name ends '.txt'); upload a .json tool "
        "result, a .jsonl run, a JSON array of rows, or a .csv table"
    ]
    at = upload(at, "rows.txt", b'[{"lun": 3}]')  # a .txt holding JSON is read as JSON
    assert texts(at, "error") == [] and texts(at, "title") == ["rows"]
