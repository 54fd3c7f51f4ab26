"""The explorer (``chartkit.explorer``, run by ``app/explorer.py``) through AppTest, and its logic.

Each test reads as what a person sees: the sources, every bundled example, the dial, the axis
pickers, the declaration editor, and each kind of bad input getting a clear message while the
rest of the page keeps working.
"""

from __future__ import annotations

import json
import re
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

import chartkit.explorer._logic as ex
import chartkit.explorer.page as ep
from chartkit import COLUMN_TYPE_CEILING, ToolResult, check_result
from chartkit._literal import markdown_literal as md
from chartkit.views import view

APP = Path(__file__).resolve().parent.parent / "app" / "explorer.py"

LUN_FINDING = (
    "'host_group_mappings' declares column 'logical_unit_number' as number, and 166 of 2,056 "
    'rows hold something else — the first is "" (string). This judges TYPE, never MEANING — it '
    "can see that a column declared number holds a string, and it can never see that the string "
    "should have been 0, or that a 0.0 should have been an 8; a column whose every value has its "
    "declared type passes here and can still be wrong. Call id call-1. Nothing here blocked the "
    "call, changed the result, or retried anything — the model reads the rows exactly as the tool "
    "returned them."
)
LUN_REFUSAL = (
    "Result rejected: host_group_mappings returned rows that disagree with the columns it "
    "declares — 'logical_unit_number' is declared number and 166 of 2,056 rows hold string "
    '(first: ""). Fix the tool so the column holds what it declares, or change the declaration. '
    "No data was returned."
)
LUN_COLUMNS = [
    "host_group",
    "initiator_wwn",
    "logical_unit_number",
    "volume_name",
    "capacity_gb",
    "comment",
]


@pytest.fixture
def explorer(monkeypatch: pytest.MonkeyPatch) -> AppTest:
    """The explorer as a fresh browser session opens it (no file given on the command line)."""
    monkeypatch.delenv(ex.ENV_FILE, raising=False)
    monkeypatch.delenv("CHARTKIT_EXPLORE_MAX_MB", raising=False)
    return AppTest.from_file(str(APP), default_timeout=120).run()


def example(name: str) -> ToolResult:
    loaded = ex.load_path(ex.EXAMPLES_DIR / f"{name}.json")
    assert loaded.error is None
    return loaded.results[0]


def ok(at: AppTest) -> AppTest:
    """The page ran without an exception; answer it for chaining."""
    assert [e.value for e in at.exception] == []
    return at


def charts(at: AppTest) -> list[dict[str, Any]]:
    return [json.loads(c.proto.spec) for c in at.get("vega_lite_chart")]


def seen(markdown: str) -> str:
    """What a reader sees of Markdown the explorer escaped: the escapes undone."""
    unescaped = re.sub(r"\\([!-/:-@\[-`{-~\n])", r"\1", markdown)
    return unescaped.replace("\u2060", "")  # the word joiner that keeps addresses unlinked


def texts(at: AppTest, kind: str, where: str = "main") -> list[str]:
    """What one kind of element says, in page order, in the main area (or the sidebar)."""
    return [seen(e.value) for e in getattr(getattr(at, where), kind)]


def table(at: AppTest, *columns: str) -> Any:
    """The one dataframe on the page that has these columns."""
    found = [d.value for d in at.dataframe if set(columns) <= set(d.value.columns)]
    assert len(found) == 1, [list(d.value.columns) for d in at.dataframe]
    return found[0]


def disposition(at: AppTest, which: int = 0) -> list[dict[str, Any]]:
    """A disposition table: the result's (0) or, on a run, the run ledger's (1)."""
    frames = [t.value for t in at.table if "notApplicable" in t.value.columns]
    return frames[which][["check", "checked", "findings", "notApplicable"]].to_dict("records")


def highlighted_cells(at: AppTest) -> list[tuple[int, int]]:
    """(row, column) positions the rows table styles as offending."""
    styled = [d for d in at.dataframe if d.proto.arrow_data.styler.styles]
    assert len(styled) == 1
    css = styled[0].proto.arrow_data.styler.styles
    cells = set()
    for block in css.split("}"):
        if "background-color" in block:
            cells |= {(int(r), int(c)) for r, c in re.findall(r"_row(\d+)_col(\d+)", block)}
    return sorted(cells)


VERDICT = re.compile(r"^(Passes|Not measured|Refused under enforce|\d+ findings?)\b")


def verdict(at: AppTest) -> str:
    """The one-line verdict at the top of the page."""
    alerts = [t for kind in ("success", "warning", "error", "info") for t in texts(at, kind)]
    [line] = [t for t in alerts if VERDICT.match(t)]
    return line


def blocks(at: AppTest) -> dict[str, str]:
    """The check's per-column blocks (finding, refused axis, notes), by column."""
    out = {}
    for text in texts(at, "markdown"):
        found = re.match(r"^\*\*Column '(.*?)'\*\*\n\n", text)
        if found:
            out[found.group(1)] = text[found.end() :]
    return out


def the_chart(at: AppTest) -> dict[str, Any]:
    """The one chart on the page: its mark and encodings (Streamlit moves the data aside)."""
    [spec] = charts(at)
    return {k: spec[k] for k in ("mark", "encoding")}


def the_view(name: str, **picks: Any) -> dict[str, Any]:
    spec = view(example(name), **picks).spec
    assert spec is not None
    return {k: spec[k] for k in ("mark", "encoding")}


def select(at: AppTest, key: str, value: Any) -> AppTest:
    at.selectbox(key=key).set_value(value)
    return ok(at.run())


# --- the bundled examples -------------------------------------------------------------------


def test_the_explorer_opens_on_the_lun_incident_under_warn(explorer: AppTest) -> None:
    at = ok(explorer)
    assert at.radio(key="source").value == "Bundled example"
    assert at.selectbox(key="example").value == "host_group_mappings"
    assert at.radio(key="mode").value == "warn"
    assert at.radio(key="mode").options == ["off", "warn", "enforce"]
    assert texts(at, "title", "sidebar") == ["chartkit explorer"]
    assert texts(at, "title") == ["host_group_mappings"]
    assert "callId call-1 · 2,056 rows" in texts(at, "caption")[0]


def test_the_lun_finding_is_said_once_with_its_column_and_the_ceiling_once_per_page(
    explorer: AppTest,
) -> None:
    at = explorer
    assert verdict(at) == (
        "1 finding under warn on 'logical_unit_number' — the rows pass as returned; details "
        "below the chart."
    )
    assert blocks(at)["logical_unit_number"].startswith(
        "**column-type-mismatch** — "
        + LUN_FINDING.replace(COLUMN_TYPE_CEILING, ep.CEILING_REFERENCE)
    )
    assert COLUMN_TYPE_CEILING in LUN_FINDING  # the sentence as delivered holds the ceiling
    page = [t for kind in ("markdown", "caption", "warning", "info", "success", "error")
            for t in texts(at, kind) + texts(at, kind, "sidebar")]  # fmt: skip
    assert sum(t.count(COLUMN_TYPE_CEILING) for t in page) == 1  # said in full once
    assert f"What the check can see: {COLUMN_TYPE_CEILING}" in texts(at, "caption")
    assert disposition(at) == [
        {"check": "column-type-mismatch", "checked": 1, "findings": 1, "notApplicable": 0},
        {"check": "missing-column", "checked": 1, "findings": 0, "notApplicable": 0},
    ]


def test_the_lun_chart_is_the_views_own_with_where_each_type_came_from(explorer: AppTest) -> None:
    [spec] = charts(explorer)
    assert spec["usermeta"] == {"embedOptions": {"renderer": "svg"}}
    assert the_chart(explorer) == the_view("host_group_mappings")
    shown = view(example("host_group_mappings"))
    assert all(e.source == "declared" for e in shown.encodings.values())
    from chartkit.streamlit import encoding_lines

    lines = "\n".join(f"- {line}" for line in encoding_lines(shown))
    assert seen(lines) in texts(explorer, "markdown")
    notes = " ".join(blocks(explorer).values()) + " ".join(texts(explorer, "caption"))
    for note in shown.notes:
        assert note in notes


def test_the_rows_are_shown_as_returned_with_the_empty_strings_highlighted(
    explorer: AppTest,
) -> None:
    rows = table(explorer, *LUN_COLUMNS)
    assert len(rows) == 2056
    assert list(rows.columns) == LUN_COLUMNS
    assert rows["logical_unit_number"].iloc[0] == '""'  # the LUN 0 that became ''
    assert rows["logical_unit_number"].iloc[1] == "1"
    cells = highlighted_cells(explorer)
    assert len(cells) == 166
    assert {column for _, column in cells} == {LUN_COLUMNS.index("logical_unit_number")}
    rows_with_empty = [
        i for i, r in enumerate(example("host_group_mappings").rows)
        if r["logical_unit_number"] == ""
    ]  # fmt: skip
    assert [row for row, _ in cells] == rows_with_empty
    config = json.loads(
        next(d for d in explorer.dataframe if "initiator_wwn" in d.value.columns).proto.columns
    )
    assert seen(config["logical_unit_number"]["help"]) == (
        "Column 'logical_unit_number' · declared number · first offender \"\" (string) · "
        '166 of 2,056 rows affected · offending values: "" ×166'
    )
    assert config["capacity_gb"]["type_config"]["type"] == "number"
    assert config["host_group"]["type_config"]["type"] == "text"


def test_only_offending_rows_can_be_shown(explorer: AppTest) -> None:
    at = explorer
    at.toggle(key="only-bad:example:host_group_mappings#0").set_value(True)
    rows = table(ok(at.run()), *LUN_COLUMNS)
    assert len(rows) == 166
    assert set(rows["logical_unit_number"]) == {'""'}


def test_every_bundled_example_is_listed_the_lun_incident_first(explorer: AppTest) -> None:
    assert explorer.selectbox(key="example").options == [
        "host_group_mappings",
        "capacity_view",
        "volume_io_stats",
        "latency_by_region",
        "missing_column",
        "host_inventory",
        "undeclared_result",
        "run_incident",
    ]


def test_capacity_view_passes_and_the_explorer_says_the_check_judges_type_not_meaning(
    explorer: AppTest,
) -> None:
    at = select(explorer, "example", "capacity_view")
    assert verdict(at) == (
        "Passes: each of the 5 declared columns holds its declared type in every row — which "
        "is all the check can say (below)."
    )
    assert f"What the check can see: {COLUMN_TYPE_CEILING}" in texts(at, "caption")
    assert "8 MiB disks show size_gb 0.0" in texts(at, "caption")[1]
    assert the_chart(at) == the_view("capacity_view")


def test_quoted_numbers_are_found_and_each_column_is_one_block_with_its_refused_axis(
    explorer: AppTest,
) -> None:
    at = select(explorer, "example", "volume_io_stats")
    assert verdict(at) == (
        "3 findings under warn on 'read_iops', 'write_iops', 'latency_ms' — the rows pass as "
        "returned; details below the chart."
    )
    found = blocks(at)
    assert list(found) == ["read_iops", "write_iops", "latency_ms"]
    shown = view(example("volume_io_stats"))
    assert charts(at) == []
    assert shown.reason in texts(at, "info")
    assert "The rows are in the table below." in texts(at, "caption")
    shared = next(c for c in texts(at, "caption") if c.startswith("Each of the above also"))
    for refused in shown.refusals:  # each column's fact said once: its finding; the refused
        line = f"**{refused.channel} axis refused** — not drawn, for the finding above."
        assert found[refused.column].endswith(line)  # axis refers to it, the banner sums up
        assert found[refused.column].count("(string)") == 1
        assert "rows hold string" not in found[refused.column]
    assert "every row holds a number in quotes" in shown.reason  # said once, in the banner
    assert all("number in quotes" not in text for text in found.values())
    # what every block would repeat is said once, under them
    assert shared.count("Nothing here blocked the call") == 1
    assert all("Nothing here blocked the call" not in text for text in found.values())
    assert found["read_iops"].startswith("**column-type-mismatch** — 'volume_io_stats' declares")
    assert texts(at, "warning") == [verdict(at)]  # no other box repeats a problem
    cells = highlighted_cells(at)
    assert len(cells) == 3 * 200


def test_a_healthy_time_series_is_a_multi_line_chart(explorer: AppTest) -> None:
    at = select(explorer, "example", "latency_by_region")
    [spec] = charts(at)
    assert spec["mark"]["type"] == "line"
    assert spec["encoding"]["x"]["type"] == "temporal"
    assert spec["encoding"]["color"]["field"] == "region"
    lines = next(m for m in texts(at, "markdown") if m.startswith("- **"))
    assert "- **x** · timestamp — declared date → temporal" in lines
    assert verdict(at).startswith("Passes: each of the 3 declared columns")


def test_a_missing_column_is_its_own_finding_and_its_axis_is_refused(explorer: AppTest) -> None:
    at = select(explorer, "example", "missing_column")
    block = blocks(at)["logical_unit_number"]
    assert block.startswith("**missing-column** — ")
    assert "it was never delivered, so look at the query" in block
    assert disposition(at) == [
        {"check": "column-type-mismatch", "checked": 1, "findings": 0, "notApplicable": 0},
        {"check": "missing-column", "checked": 1, "findings": 1, "notApplicable": 0},
    ]


def test_strings_and_booleans_only_make_a_table_and_say_why(explorer: AppTest) -> None:
    at = select(explorer, "example", "host_inventory")
    assert charts(at) == []
    assert view(example("host_inventory")).reason in texts(at, "info")
    config = json.loads(
        next(d for d in at.dataframe if "hostname" in d.value.columns).proto.columns
    )
    assert config["multipath_enabled"]["type_config"]["type"] == "checkbox"


def test_an_undeclared_result_is_labelled_as_inferred(explorer: AppTest) -> None:
    at = select(explorer, "example", "undeclared_result")
    assert (
        "Not measured: the check needs both the dial and a declaration, and rows it can read "
        "(a non-empty list of objects); both checks are on the record as not applicable."
    ) in texts(at, "caption")
    lines = next(m for m in texts(at, "markdown") if m.startswith("- **"))
    assert "- **x** · severity — inferred nominal — not declared" in lines
    assert "mean of count — inferred quantitative — not declared" in lines
    assert disposition(at) == [
        {"check": "column-type-mismatch", "checked": 0, "findings": 0, "notApplicable": 1},
        {"check": "missing-column", "checked": 0, "findings": 0, "notApplicable": 1},
    ]
    editor = [s for s in at.selectbox if s.key and s.key.startswith("decl-type:")]
    assert editor and {s.value for s in editor} == {"(undeclared)"}


def test_a_run_gets_a_result_picker_and_a_ledger_over_all_results(explorer: AppTest) -> None:
    at = select(explorer, "example", "run_incident")
    picker = at.selectbox(key="result:example:run_incident")
    assert len(picker.options) == 5
    assert picker.options[0] == "1. host_group_mappings (call-1) — 2,056 rows"
    assert "Run ledger — 5 results under warn" in texts(at, "subheader")
    assert disposition(at, 1) == [
        {"check": "column-type-mismatch", "checked": 5, "findings": 2, "notApplicable": 0},
        {"check": "missing-column", "checked": 5, "findings": 1, "notApplicable": 0},
    ]
    [lines] = [t.value for t in at.table if "status" in t.value.columns]  # cells wrap
    assert list(lines["status"]) == ["findings", "clean", "findings", "clean", "findings"]
    assert lines["findings"].iloc[4] == "missing-column (logical_unit_number)"
    picker.set_value(3)
    at = ok(at.run())
    assert texts(at, "title")[-1] == "latency_by_region"
    assert charts(at)[0]["mark"]["type"] == "line"


# --- the dial -------------------------------------------------------------------------------


def test_enforce_refuses_the_lun_rows_and_off_measures_nothing(explorer: AppTest) -> None:
    at = explorer
    at.radio(key="mode").set_value("enforce")
    at = ok(at.run())
    assert verdict(at) == (
        "Refused under enforce — 1 finding on 'logical_unit_number': the model gets the "
        "refusal sentence, not the rows."
    )
    errors = [e for e in texts(at, "error") if e != verdict(at)]
    assert errors == [LUN_REFUSAL]  # once, where the chart would be
    page = " ".join(t for kind in ("markdown", "caption", "error", "warning", "info")
                    for t in texts(at, kind))  # fmt: skip
    assert page.count(LUN_REFUSAL) == 1
    assert charts(at) == []
    assert (
        "No chart: under enforce the rows are refused. Turn the dial to warn or off to see them "
        "charted."
    ) in texts(at, "caption")
    assert (
        "Under enforce the model never sees these rows; they are shown here so you can see "
        "what was refused."
    ) in texts(at, "caption")
    assert blocks(at)["logical_unit_number"] == (
        "**column-type-mismatch** — Column 'logical_unit_number' · declared number · first "
        'offender "" (string) · 166 of 2,056 rows affected\n\n'
        '**Offending values** — "" ×166'
    )
    assert disposition(at)[0]["findings"] == 1

    at.radio(key="mode").set_value("off")
    at = ok(at.run())
    assert texts(at, "error") == []
    assert texts(at, "warning") == []
    assert verdict(at) == "Not measured: the dial is off."
    assert (
        "The dial is off: nothing measured, nothing filed — both checks are on the record as "
        "not applicable."
    ) in texts(at, "caption")
    assert disposition(at) == [
        {"check": "column-type-mismatch", "checked": 0, "findings": 0, "notApplicable": 1},
        {"check": "missing-column", "checked": 0, "findings": 0, "notApplicable": 1},
    ]
    assert len(charts(at)) == 1  # off changes nothing about the rows
    assert len(highlighted_cells(at)) == 166  # the highlight follows the declaration

    at.radio(key="mode").set_value("warn")
    at = ok(at.run())
    assert blocks(at)["logical_unit_number"].startswith("**column-type-mismatch** — 'host_")


# --- the axis pickers -----------------------------------------------------------------------


def test_the_axis_pickers_list_every_column(explorer: AppTest) -> None:
    for channel in ("x", "y", "color"):
        picker = explorer.selectbox(key=f"axis-{channel}:example:host_group_mappings#0")
        assert picker.options == ["(automatic)", *LUN_COLUMNS]
        assert picker.value == "(automatic)"


def test_picking_axes_redraws_the_chart(explorer: AppTest) -> None:
    at = select(explorer, "axis-x:example:host_group_mappings#0", "initiator_wwn")
    at = select(at, "axis-y:example:host_group_mappings#0", "capacity_gb")
    [spec] = charts(at)
    assert spec["encoding"]["x"]["field"] == "initiator_wwn"
    assert spec["encoding"]["y"]["field"] == "capacity_gb"


def test_a_pick_that_cannot_serve_shows_the_refusal_not_an_empty_chart(explorer: AppTest) -> None:
    at = select(explorer, "axis-y:example:host_group_mappings#0", "comment")
    assert charts(at) == []
    shown = view(example("host_group_mappings"), y="comment")
    assert shown.reason in texts(at, "info")
    [refused] = [r for r in shown.refusals if r.column == "comment"]
    assert f"**y axis refused** — {refused.reason}" in blocks(at)["comment"]


def test_a_color_with_too_many_values_is_refused_and_the_chart_drawn_without_it(
    explorer: AppTest,
) -> None:
    at = select(explorer, "axis-color:example:host_group_mappings#0", "volume_name")
    [spec] = charts(at)
    assert "color" not in spec["encoding"]
    assert blocks(at)["volume_name"] == (
        "**color axis refused** — volume_name has 100 distinct values; a color can tell apart "
        "at most 20, so the chart is drawn without color."
    )


# --- the declaration editor -----------------------------------------------------------------


def lun_editor(at: AppTest, column: str, what: str = "type") -> Any:
    key = f"decl-{what}:example:host_group_mappings#0:{column}"
    return at.selectbox(key=key) if what == "type" else at.toggle(key=key)


def test_the_editor_starts_from_the_declaration(explorer: AppTest) -> None:
    assert [lun_editor(explorer, c).value for c in LUN_COLUMNS] == [
        "string", "string", "number", "string", "number", "string",
    ]  # fmt: skip
    assert [lun_editor(explorer, c, "null").value for c in LUN_COLUMNS] == [
        False, False, False, False, False, True,
    ]  # fmt: skip
    assert lun_editor(explorer, "host_group").options == [
        "(undeclared)", "number", "string", "boolean", "date",
    ]  # fmt: skip
    assert json.loads(explorer.code[0].value) == {
        **dict.fromkeys(["host_group", "initiator_wwn", "volume_name"], "string"),
        "logical_unit_number": "number",
        "capacity_gb": "number",
        "comment": {"type": "string", "nullable": True},
    }


def test_an_edit_reruns_the_check_and_the_view_at_once(explorer: AppTest) -> None:
    at = explorer
    lun_editor(at, "logical_unit_number").set_value("string")
    at = ok(at.run())
    assert blocks(at)["logical_unit_number"].startswith(
        "**column-type-mismatch** — 'host_group_mappings' declares column "
        "'logical_unit_number' as string, and 1,890 of 2,056 rows hold something else — "
        "the first is 1 (number)."
    )
    assert json.loads(at.code[0].value)["logical_unit_number"] == "string"

    lun_editor(at, "logical_unit_number").set_value("(undeclared)")
    at = ok(at.run())
    assert texts(at, "warning") == []
    assert verdict(at).startswith("Passes: each of the 5 declared columns")
    assert "logical_unit_number" not in json.loads(at.code[0].value)


def test_the_nullable_toggle_is_the_one_word_fix_for_an_absence(explorer: AppTest) -> None:
    at = explorer
    lun_editor(at, "comment", "null").set_value(False)
    at = ok(at.run())
    assert "declare the column nullable" in blocks(at)["comment"]
    assert json.loads(at.code[0].value)["comment"] == "string"


def test_reset_returns_to_the_results_declaration(explorer: AppTest) -> None:
    at = explorer
    lun_editor(at, "logical_unit_number").set_value("(undeclared)")
    at = ok(at.run())
    assert "logical_unit_number" not in json.loads(at.code[0].value)
    at.button(key="decl-reset:example:host_group_mappings#0").click()
    at = ok(at.run())
    assert lun_editor(at, "logical_unit_number").value == "number"
    assert verdict(at).startswith("1 finding under warn on 'logical_unit_number'")


def test_a_declaration_is_written_for_an_undeclared_result(explorer: AppTest) -> None:
    at = select(explorer, "example", "undeclared_result")
    at.selectbox(key="decl-type:example:undeclared_result#0:count").set_value("number")
    at.selectbox(key="decl-type:example:undeclared_result#0:severity").set_value("string")
    at = ok(at.run())
    assert json.loads(at.code[0].value) == {"count": "number", "severity": "string"}
    assert disposition(at)[0]["checked"] == 1
    lines = next(m for m in texts(at, "markdown") if m.startswith("- **"))
    assert "severity — declared string → nominal" in lines
    assert "Download JSON" in [b.proto.label for b in at.get("download_button")]
    assert at.expander[0].label == (  # the title follows the edits
        "Declaration editor — resultColumns: 2 of 4 columns declared"
    )


def test_declaration_helpers_write_the_bare_form_unless_nullable() -> None:
    choices = {"lun": ("number", False), "note": ("string", True), "x": ("(undeclared)", True)}
    declaration = ex.declaration_from_choices(choices)
    assert declaration == {
        "lun": {"type": "number", "nullable": False},
        "note": {"type": "string", "nullable": True},
    }
    assert json.loads(ex.declaration_json(declaration)) == {
        "lun": "number",
        "note": {"type": "string", "nullable": True},
    }
    assert ex.declaration_from_choices({"x": ("(undeclared)", False)}) is None


# --- uploads, pasted JSON, the command line file --------------------------------------------


def upload(at: AppTest, name: str, data: bytes) -> AppTest:
    at.radio(key="source").set_value("Upload a file")
    at = ok(at.run())
    at.file_uploader(key="upload").set_value((name, data, "application/json"))
    return ok(at.run())


def test_an_uploaded_result_is_shown_like_any_other(explorer: AppTest) -> None:
    data = (ex.EXAMPLES_DIR / "host_group_mappings.json").read_bytes()
    at = upload(explorer, "mine.json", data)
    assert texts(at, "title")[-1] == "host_group_mappings"
    assert blocks(at)["logical_unit_number"].startswith(
        "**column-type-mismatch** — "
        + LUN_FINDING.replace(COLUMN_TYPE_CEILING, ep.CEILING_REFERENCE)
    )
    assert "from mine.json (322.2 KB)" in texts(at, "caption")[0]


def test_an_uploaded_run_gets_the_picker_and_the_ledger(explorer: AppTest) -> None:
    data = (ex.EXAMPLES_DIR / "run_incident.jsonl").read_bytes()
    at = upload(explorer, "run.jsonl", data)
    assert any(s.label == "Result (5 in this run)" for s in at.selectbox)
    assert "Run ledger — 5 results under warn" in texts(at, "subheader")


def test_an_uploaded_json_list_of_results_is_a_run(explorer: AppTest) -> None:
    lines = (ex.EXAMPLES_DIR / "run_incident.jsonl").read_text().splitlines()
    data = ("[" + ",".join(lines[:2]) + "]").encode()
    at = upload(explorer, "two.json", data)
    assert any(s.label == "Result (2 in this run)" for s in at.selectbox)


def test_a_bare_array_of_rows_is_an_undeclared_result_named_after_the_file(
    explorer: AppTest,
) -> None:
    at = upload(explorer, "mappings.json", b'[{"lun": "", "host": "a"}, {"lun": 3, "host": "b"}]')
    assert texts(at, "title")[-1] == "mappings"
    assert disposition(at)[0]["notApplicable"] == 1
    assert at.selectbox(key="decl-type:upload:" + upload_key(at) + "#0:lun").value == (
        "(undeclared)"
    )


def test_a_rejected_upload_says_why_in_words_and_the_next_clears_it(explorer: AppTest) -> None:
    at = upload(explorer, "broken.json", b"{not json")
    assert texts(at, "error")[0].startswith("broken.json is not valid JSON")
    at = upload(at, "chart.png", b"\x89PNG\r\n\x1a\n")
    assert texts(at, "error") == [
        "chart.png is not a file the explorer reads (its name ends '.png'); upload a .json tool "
        "result, a .jsonl run, a JSON array of rows, or a .csv table"
    ]  # the previous file's error is gone
    at = upload(at, "table.parquet", b"PAR1")
    assert texts(at, "error") == [
        "table.parquet is a Parquet file; an upload is read as JSON or CSV. Open a Parquet file "
        "from the command line instead: chartkit explore FILE.parquet"
    ]
    at = upload(at, "lun.csv", b"lun,host\n,vdi-a\n3,vdi-b\n")
    assert texts(at, "error") == []
    assert texts(at, "title") == ["lun"]
    assert table(at, "lun", "host")["host"].tolist() == ["vdi-a", "vdi-b"]


BAD_CSV = (
    b"logical_unit_number,host_group,capacity_gb\n"
    b"0,vdi-a,100\n,vdi-a,200\n3,vdi-b,50\nn/a,vdi-b,70\n5,vdi-c,20\n6,vdi-c,30\n7,vdi-d,40\n"
)


def test_an_uploaded_csv_is_read_again_by_the_declaration_written_in_the_editor(
    explorer: AppTest,
) -> None:
    """docs/csv.md: after a declaration is edited the cells are parsed by the new types, as
    ``chartkit explore bad.csv`` and ``chartkit check --columns`` read them — not the text
    they were read as checked again (which flagged all 7 rows, the first ``"0"``)."""
    at = upload(explorer, "bad.csv", BAD_CSV)
    assert verdict(at).startswith("Not measured")
    assert any(t.startswith("The result declares nothing") for t in texts(at, "caption"))
    key = f"decl-type:upload:{upload_key(at)}#0:"
    for column, kind in (("logical_unit_number", "number"), ("host_group", "string"),
                         ("capacity_gb", "number")):  # fmt: skip
        at.selectbox(key=key + column).set_value(kind)
    at = ok(at.run())
    assert verdict(at) == (
        "1 finding under warn on 'logical_unit_number' — the rows pass as returned; details "
        "below the chart."
    )
    assert blocks(at)["logical_unit_number"].startswith(
        "**column-type-mismatch** — 'bad' declares column 'logical_unit_number' as number, "
        "and 2 of 7 rows hold something else — the first is null. 1 of those rows "
        "holds nothing"
    )
    assert "capacity_gb" not in blocks(at)
    assert highlighted_cells(at) == [(1, 0), (3, 0)]  # the empty cell and "n/a", nothing else
    assert table(at, "logical_unit_number", "capacity_gb")["capacity_gb"].tolist() == [
        100, 200, 50, 70, 20, 30, 40,
    ]  # fmt: skip
    assert the_chart(at)["encoding"]["y"]["field"] == "capacity_gb"
    shown = " ".join(texts(at, "caption") + texts(at, "markdown") + texts(at, "info"))
    assert "The result declares nothing" not in shown
    assert "undeclared, inferred" not in shown and "(undeclared" not in shown
    assert (
        "The result came without a declaration; this one is written here. Every edit reads "
        "the file's cells again by it, then re-runs the check and the view at once."
    ) in texts(at, "caption")


def test_a_csv_is_read_again_by_each_declaration_the_way_the_command_line_reads_it() -> None:
    from chartkit.read.csvread import read_csv

    loaded = ex.load_bytes(BAD_CSV, "bad.csv")
    declared = {"logical_unit_number": "number", "capacity_gb": "number"}
    again = loaded.redeclared(0, declared)
    expected = read_csv(BAD_CSV, declared, name="bad.csv")
    assert (again.tool, again.rows, again.result_columns) == (
        expected.tool, expected.rows, expected.result_columns,
    )  # fmt: skip
    assert loaded.redeclared(0, None).rows == loaded.results[0].rows
    json_loaded = ex.load_bytes(b'[{"lun": "0"}]', "rows.json")
    assert json_loaded.redeclared(0, {"lun": "number"}).rows == [{"lun": "0"}]  # as returned


def test_an_absent_key_reads_differently_from_a_null(explorer: AppTest) -> None:
    rows = [{"a": 1.0, "b": None}, {"a": 2.0}, {"a": 3.0, "b": "x"}]
    at = explorer
    at.radio(key="source").set_value("Paste JSON")
    at = ok(at.run())
    at.text_area(key="paste").input(json.dumps(rows))
    at = ok(at.run())
    assert table(at, "a", "b")["b"].tolist() == ["null", ex.ABSENT_TEXT, '"x"']
    assert (
        f"`null` is a key that holds null; `{ex.ABSENT_TEXT}` is a row without the key. The "
        "check reads both as absent."
    ) in texts(at, "caption")


def upload_key(at: AppTest) -> str:
    key = next(s.key for s in at.selectbox if s.key and s.key.startswith("decl-type:upload:"))
    return key.split(":")[2].split("#")[0]


def test_no_other_chart_is_listed_when_the_view_says_none_exists(explorer: AppTest) -> None:
    """Two rows of one date: the view says every chart its types allow holds a single mark,
    so the page lists no "Other charts" (it once offered lines and a histogram of one bar)."""
    result = {
        "tool": "p95_today",
        "rows": [{"ts": "2024-05-13T00:00:00Z", "p95": 3.0}] * 2,
        "resultColumns": {"ts": "date", "p95": "number"},
    }
    at = explorer
    at.radio(key="source").set_value("Paste JSON")
    at = ok(at.run())
    at.text_area(key="paste").input(json.dumps(result))
    at = ok(at.run())
    assert charts(at) == []
    assert any("and so would every other chart its declared types allow" in t
               for t in texts(at, "info") + texts(at, "caption"))  # fmt: skip
    assert "**Other charts these declared types allow**" not in [m.value for m in at.markdown]
    assert [b.key for b in at.button if (b.key or "").startswith("alternative-")] == []


def test_pasted_json_rows_are_read_as_undeclared(explorer: AppTest) -> None:
    at = explorer
    at.radio(key="source").set_value("Paste JSON")
    at = ok(at.run())
    at.text_area(key="paste").input('[{"region": "eu", "p95": 3.5}, {"region": "us", "p95": 4}]')
    at = ok(at.run())
    assert texts(at, "title")[-1] == "pasted"
    [spec] = charts(at)
    assert spec["encoding"]["x"]["field"] == "region"


def test_a_pasted_run_with_a_malformed_entry_is_refused_not_shown_as_undeclared_rows(
    explorer: AppTest,
) -> None:
    at = explorer
    at.radio(key="source").set_value("Paste JSON")
    at = ok(at.run())
    run = [
        {"tool": "u", "rows": [{"lun": ""}], "resultColumns": {"lun": "number"}},
        {"tool": "u", "Rows": []},
    ]
    at.text_area(key="paste").input(json.dumps(run))
    at = ok(at.run())
    assert texts(at, "error") == [RUN_ENTRY_ERROR.replace("run.json", "pasted.json")]
    assert texts(at, "title") == ["chartkit explorer"]  # no result, declared or not
    assert at.dataframe.len == 0


def test_a_run_with_a_malformed_declaration_and_a_malformed_entry_names_the_entry() -> None:
    run = [
        {"tool": "t", "rows": [{"lun": 1}], "resultColumns": {"lun": "integer"}},
        {"tool": "u", "Rows": []},
    ]
    loaded = ex.load_bytes(json.dumps(run), "run.json")
    assert loaded.results == ()
    assert loaded.error == RUN_ENTRY_ERROR
    lines = "\n".join(json.dumps(entry) for entry in [run[0], {}, run[1]]).replace("{}", "")
    jsonl = ex.load_bytes(lines, "run.jsonl")
    assert jsonl.results == ()
    assert jsonl.error == (
        "run.jsonl line 3: a tool result needs the key(s) 'rows'; it has 'tool', 'Rows'"
    )


def test_a_run_with_a_malformed_declaration_sets_it_aside_and_keeps_the_other_results() -> None:
    run = [
        {"tool": "t", "rows": [{"lun": 1}], "resultColumns": {"lun": "integer"}},
        {"tool": "u", "rows": [{"lun": 2}], "resultColumns": {"lun": "number"}},
    ]
    loaded = ex.load_bytes(json.dumps(run), "run.json")
    assert [(r.tool, r.result_columns is None) for r in loaded.results] == [
        ("t", True),
        ("u", False),
    ]
    assert loaded.error == (
        "result 1 of run.json: tool 't' declares column 'lun' as \"integer\"; use one of "
        "number, string, boolean, date (or leave the column undeclared)"
    )
    assert loaded.warning == (
        "The declaration of t was set aside, so its rows are shown undeclared; write a "
        "declaration for them in the editor below."
    )


ODD_ROWS = {
    "nested values": [{"a": {"x": 1}, "b": [1, 2], "c": 3}],
    "only nulls": [{"a": None, "b": None}, {"a": None, "b": None}],
    "names with dots and brackets": [{"a.b": 1, "c[0]": "x"}, {"a.b": 2, "c[0]": "y"}],
    "mixed types in a column": [{"a": 1}, {"a": "x"}, {"a": True}, {"a": None}, {"b": 1}],
    "an integer wider than 64 bits": [{"a": 10**30, "b": "x"}, {"a": 1, "b": "y"}],
}


@pytest.mark.parametrize("case", ODD_ROWS, ids=list(ODD_ROWS))
def test_odd_rows_are_shown_under_every_dial_setting(explorer: AppTest, case: str) -> None:
    at = explorer
    at.radio(key="source").set_value("Paste JSON")
    at = ok(at.run())
    at.text_area(key="paste").input(json.dumps(ODD_ROWS[case]))
    for mode in ("warn", "enforce", "off"):
        at.radio(key="mode").set_value(mode)
        at = ok(at.run())
        assert texts(at, "error") == []
        assert texts(at, "title") == ["pasted"]
        assert len(table(at, *ODD_ROWS[case][0])) == len(ODD_ROWS[case])
    if case == "an integer wider than 64 bits":
        assert table(at, "a", "b")["a"].tolist() == [str(10**30), "1"]


RUN_ENTRY_ERROR = (
    "result 2 of run.json: a tool result needs the key(s) 'rows'; it has 'tool', 'Rows'. A JSON "
    "list whose items carry the key tool, rows, resultColumns or callId is read as a run of "
    'tool results; if these are rows, wrap them in one result: {"tool": "<name>", "rows": [...]}'
)

BAD_INPUTS = {
    "not JSON": (
        "broken.json",
        b"{not json",
        "broken.json is not valid JSON: Expecting property name enclosed in double quotes at "
        "line 1 column 2",
    ),
    "wrong shape": (
        "shape.json",
        b'{"rows": [{"a": 1}]}',
        "a tool result needs the key(s) 'tool'; it has 'rows'",
    ),
    "an array of non-rows": (
        "numbers.json",
        b"[1, 2, 3]",
        "numbers.json is a JSON array, but not of rows: item 1 is 1; expected a tool result "
        '{"tool", "rows", "resultColumns", …}, a .jsonl run, or an array of row objects like '
        '[{"column": value}, …]',
    ),
    "malformed declaration": (
        "decl.json",
        b'{"tool": "t", "rows": [{"lun": 1}], "resultColumns": {"lun": "integer"}}',
        "tool 't' declares column 'lun' as \"integer\"; use one of number, string, boolean, "
        "date (or leave the column undeclared)",
    ),
    "empty file": (
        "empty.json",
        b"",
        "empty.json is empty; expected a JSON tool result or .jsonl run",
    ),
    "bad jsonl line": (
        "run.jsonl",
        b'{"tool": "t", "rows": []}\n{"tool": \n',
        "run.jsonl line 2 is not valid JSON (Expecting value at column 10); a .jsonl run holds "
        "one JSON tool result per line",
    ),
    "a run with a malformed entry": (
        "run.json",
        b'[{"tool": "u", "rows": [{"lun": ""}], "resultColumns": {"lun": "number"}}, '
        b'{"tool": "u", "Rows": []}]',
        RUN_ENTRY_ERROR,
    ),
    "JSON nested 100,000 deep": (
        "deep.json",
        b"[" * 100_000 + b"]" * 100_000,
        "deep.json nests JSON deeper than can be read; a tool result is a few levels deep (a "
        "result, its rows, their values) — check that this is the file you meant",
    ),
    "an integer of 5,000 digits": (
        "big.json",
        b'{"tool": "t", "rows": [{"a": ' + b"9" * 5000 + b"}]}",
        "big.json holds an integer literal too long to read (over 4300 digits); a tool should "
        "send such a value as a string",
    ),
    "latin-1 bytes": (
        "latin.json",
        '{"tool": "café", "rows": [{"a": 1}]}'.encode("latin-1"),
        "latin.json is not UTF-8 text (invalid continuation byte); save it as UTF-8 JSON",
    ),
    "a jsonl run with a malformed entry": (
        "run.jsonl",
        b'{"tool": "u", "rows": [{"lun": ""}], "resultColumns": {"lun": "number"}}\n'
        b'{"tool": "u", "Rows": []}\n',
        "run.jsonl line 2: a tool result needs the key(s) 'rows'; it has 'tool', 'Rows'",
    ),
}


@pytest.mark.parametrize("case", BAD_INPUTS, ids=list(BAD_INPUTS))
def test_bad_input_gets_a_clear_message_and_the_rest_keeps_working(
    explorer: AppTest, case: str
) -> None:
    name, data, message = BAD_INPUTS[case]
    at = upload(explorer, name, data)
    assert texts(at, "error") == [message]
    assert ex.load_bytes(data, name).error == message  # the same sentence, testable directly
    at.radio(key="source").set_value("Bundled example")
    at = ok(at.run())
    assert texts(at, "error") == []
    assert texts(at, "title")[-1] == "host_group_mappings"


HOSTILE = "![x](http://127.0.0.1:9/beacon.png) **b** $x^2$ `c` <b>h</b> \x1b[31m \u202e \ud800"


def test_hostile_names_and_values_are_shown_literally_and_the_page_keeps_working(
    explorer: AppTest,
) -> None:
    run = [
        {
            "tool": HOSTILE,
            "callId": HOSTILE,
            "description": HOSTILE + "\n    indented",
            "rows": [{HOSTILE: "", "n": 1.0, "s": HOSTILE}, {HOSTILE: 2, "n": 2.0, "s": "x"}],
            "resultColumns": {HOSTILE: "number", "n": "number"},
        },
        {"tool": "second", "rows": [{"a": 1}]},
    ]
    at = explorer
    at.radio(key="source").set_value("Paste JSON")
    at = ok(at.run())
    at.text_area(key="paste").input(json.dumps(run))
    visible = HOSTILE.replace("\x1b", "\\x1b").replace("\u202e", "\\u202e")
    visible = visible.replace("\ud800", "\\ud800")
    for mode in ("warn", "enforce", "off"):
        at.radio(key="mode").set_value(mode)
        at = ok(at.run())
        assert [e for e in texts(at, "error") if "could not be shown" in e] == []
        assert texts(at, "title") == [visible]
        markdown = [
            e.value
            for kind in ("title", "caption", "markdown", "warning", "error", "info", "success")
            for e in getattr(at.main, kind)
        ]
        for text in markdown:  # nothing from the data can form markup
            assert "![x](" not in text and "**b**" not in text and "$x^2$" not in text
            assert "<b>" not in text and "`c`" not in text
            assert not any(0xD800 <= ord(c) <= 0xDFFF or c in "\x1b\u202e" for c in text)
        assert any(md(HOSTILE) in text for text in markdown)
    rows = table(at, "n", "s")
    assert rows["s"].tolist() == [visible, "x"]
    assert (
        visible in at.selectbox(key=next(s.key for s in at.selectbox if "axis-x" in s.key)).options
    )
    at.radio(key="source").set_value("Bundled example")
    assert texts(ok(at.run()), "title")[-1] == "host_group_mappings"


def test_a_malformed_declaration_leaves_the_rows_to_declare_in_the_editor(
    explorer: AppTest,
) -> None:
    name, data, _ = BAD_INPUTS["malformed declaration"]
    at = upload(explorer, name, data)
    assert texts(at, "warning")[0] == (
        "The declaration of t was set aside, so its rows are shown undeclared; write a "
        "declaration for them in the editor below."
    )
    assert texts(at, "title")[-1] == "t"
    assert at.selectbox(key=f"decl-type:upload:{upload_key(at)}#0:lun").value == "(undeclared)"


def test_a_file_over_the_limit_is_refused_and_the_limit_stated(
    explorer: AppTest, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CHARTKIT_EXPLORE_MAX_MB", "0.25")
    data = (ex.EXAMPLES_DIR / "host_group_mappings.json").read_bytes()
    at = upload(explorer, "big.json", data)
    assert texts(at, "error") == [
        "big.json is 322.2 KB; the explorer reads files up to 256.0 KB. Split the run into "
        "smaller files, or check it on the command line with `chartkit check FILE`."
    ]
    assert ex.MAX_FILE_MB == 200
    assert ex.max_file_bytes() == 256 * 1024


def test_the_upload_limit_matches_the_server_config() -> None:
    config = (APP.parent.parent / ".streamlit" / "config.toml").read_text()
    assert f"maxUploadSize = {ex.MAX_FILE_MB}" in config


def test_a_file_named_on_the_command_line_opens_first(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "latency.json"
    path.write_bytes((ex.EXAMPLES_DIR / "latency_by_region.json").read_bytes())
    monkeypatch.setenv(ex.ENV_FILE, str(path))
    at = ok(AppTest.from_file(str(APP), default_timeout=120).run())
    assert at.radio(key="source").value == "File from the command line"
    assert texts(at, "title")[-1] == "latency_by_region"
    assert charts(at)[0]["mark"]["type"] == "line"


def test_a_missing_command_line_file_is_a_message_not_a_crash(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(ex.ENV_FILE, str(tmp_path / "nope.json"))
    at = ok(AppTest.from_file(str(APP), default_timeout=120).run())
    assert texts(at, "error") == [
        f"cannot open {str(tmp_path / 'nope.json')!r} (No such file or directory); give the "
        "path of a .json or .jsonl file"
    ]
    at.radio(key="source").set_value("Bundled example")
    assert texts(ok(at.run()), "title")[-1] == "host_group_mappings"


# --- the MCP server source -----------------------------------------------------------------

MALFORMED_SERVER = """
from mcp.server.mcpserver import MCPServer

server = MCPServer("odd-catalogue", log_level="WARNING")


def mappings() -> list[dict]:
    return [{"lun": "", "host": "a"}, {"lun": 3, "host": "b"}]


server.add_tool(mappings, name="mappings", meta={"resultColumns": {"lun": "integer"}})
server.run()
"""


EXAMPLE_SERVER = shlex.join([sys.executable, str(ex.MCP_EXAMPLE_SERVER)])


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Set the address Streamlit serves on (``server.address``) and the MCP servers allowed
    at launch, as ``chartkit explore --address A --mcp-server CMD`` would; restored after."""
    from streamlit import config

    before = config.get_option("server.address")

    def serve(address: str | None, *servers: str) -> None:
        config.set_option("server.address", address)
        if servers:
            monkeypatch.setenv(ex.MCP_SERVERS_ENV, json.dumps(list(servers)))
        else:
            monkeypatch.delenv(ex.MCP_SERVERS_ENV, raising=False)

    yield serve
    config.set_option("server.address", before)


def list_mcp_tools(at: AppTest, served: Any, command: str = EXAMPLE_SERVER) -> AppTest:
    served("127.0.0.1", EXAMPLE_SERVER, *([command] if command != EXAMPLE_SERVER else []))
    at = ok(at.run())
    at.radio(key="source").set_value("MCP server")
    at = ok(at.run())
    at.selectbox(key="mcp-command").set_value(command)
    at = ok(at.run())
    at.button(key="mcp-list").click()
    return ok(at.run())


def test_the_mcp_source_is_off_unless_servers_are_named_at_launch(
    explorer: AppTest, served: Any
) -> None:
    """The page never takes a command line: without --mcp-server it offers no MCP source."""
    served("127.0.0.1")
    at = ok(explorer.run())
    assert "MCP server" not in at.radio(key="source").options
    assert [t.key for t in at.sidebar.text_input] == []
    assert texts(at, "caption", "sidebar")[-1] == (
        "Served on 127.0.0.1: this machine only. The MCP server source is off; to offer one, "
        'start the explorer with `chartkit explore --mcp-server "COMMAND"`.'
    )
    served("127.0.0.1", EXAMPLE_SERVER)
    at = ok(at.run())
    assert "MCP server" in at.radio(key="source").options
    at.radio(key="source").set_value("MCP server")
    at = ok(at.run())
    assert at.selectbox(key="mcp-command").options == [EXAMPLE_SERVER]  # a choice, not text
    assert [t.key for t in at.sidebar.text_input] == []  # nowhere to type a command line
    assert texts(at, "caption", "sidebar")[-1] == (
        "Served on 127.0.0.1: this machine only. The MCP server source starts only the 1 "
        "server named at launch."
    )


@pytest.mark.parametrize("address", [None, "0.0.0.0", "192.168.1.20", "::"])
def test_the_mcp_source_is_refused_off_loopback_and_the_page_says_so(
    explorer: AppTest, served: Any, address: str | None
) -> None:
    served(address, EXAMPLE_SERVER)
    at = ok(explorer.run())
    assert "MCP server" not in at.radio(key="source").options
    where = f"on {address!r}" if address else "on every network interface (Streamlit's default)"
    shown = address if address else "every network interface"
    assert texts(at, "warning", "sidebar") == [
        f"This page is served on {shown}: other machines can load it. The MCP server source "
        f"is off: this page is served {where}, so other machines can load it, and the source "
        "starts commands on this one. Serve it on 127.0.0.1 (chartkit explore --address "
        "127.0.0.1, the default) to use it."
    ]


def test_a_command_not_named_at_launch_is_never_started(tmp_path: Path) -> None:
    import chartkit.mcp as mcp

    marker = tmp_path / "ran"
    command = shlex.join([sys.executable, "-c", f"open({str(marker)!r}, 'w')"])
    listed = ex.mcp_list_tools(mcp, command, allowed=[EXAMPLE_SERVER])
    assert listed.error == (
        f"the MCP server {command!r} was not allowed at launch; start the explorer with "
        f"chartkit explore --mcp-server {shlex.quote(command)} to offer it"
    )
    _, called = ex.mcp_call_tool(mcp, command, "t", "{}", allowed=[])
    assert called.error == listed.error
    assert not marker.exists()
    assert ex.mcp_servers('["a", 3]') == () and ex.mcp_servers("[") == ()


def test_chartkit_explore_names_the_allowed_servers_and_refuses_them_off_loopback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from chartkit import cli

    launched: list[dict[str, str]] = []
    monkeypatch.setattr(cli, "_launch", lambda command, env, cwd: launched.append(env) or 0)
    monkeypatch.setenv(ex.MCP_SERVERS_ENV, json.dumps(["sh -c 'anything'"]))  # not this launch's
    assert cli.main(["explore"]) == 0
    assert ex.MCP_SERVERS_ENV not in launched[-1]
    command = "python examples/mcp_server.py"
    assert cli.main(["explore", "--mcp-server", command, "--mcp-server", "chartkit mcp"]) == 0
    assert json.loads(launched[-1][ex.MCP_SERVERS_ENV]) == [command, "chartkit mcp"]
    assert cli.main(["explore", "--address", "0.0.0.0", "--mcp-server", command]) == 2
    assert capsys.readouterr().err == (
        "chartkit explore: --mcp-server is refused with --address '0.0.0.0': other machines "
        "could load the page, and its MCP source starts commands on this one; serve it on "
        "127.0.0.1 (the default) or drop --mcp-server\n"
    )
    assert len(launched) == 2


def test_make_explore_serves_this_machine_only() -> None:
    makefile = (APP.parent.parent / "Makefile").read_text()
    target = makefile.split("\nexplore:", 1)[1].split("\n\n", 1)[0]
    assert "streamlit run app/explorer.py --server.address 127.0.0.1" in target


def test_a_tool_called_over_mcp_gives_the_same_findings_as_locally(
    explorer: AppTest, served: Any
) -> None:
    at = list_mcp_tools(explorer, served)
    tools = at.selectbox(key="mcp-tool")
    assert tools.value == "host_group_mappings"
    assert "undeclared_result — undeclared" in tools.options
    assert "host_group_mappings — declares 6 columns" in tools.options
    at.button(key="mcp-call").click()
    at = ok(at.run())
    assert texts(at, "title") == ["host_group_mappings"]
    call_id = at.session_state["mcp-called"][1].results[0].call_id
    assert call_id.startswith("mcp-")
    assert blocks(at)["logical_unit_number"].startswith(
        "**column-type-mismatch** — "
        + LUN_FINDING.replace("Call id call-1.", f"Call id {call_id}.").replace(
            COLUMN_TYPE_CEILING, ep.CEILING_REFERENCE
        )
    )
    assert the_chart(at) == the_view("host_group_mappings")


def test_the_default_server_works_without_a_checkout(tmp_path: Path) -> None:
    """From a wheel there is no examples/mcp_server.py: the default is ``python -m chartkit
    mcp``, and it lists chartkit's own tools."""
    import chartkit.mcp as mcp

    assert ex.mcp_default_command()[0].endswith("examples/mcp_server.py")  # in the checkout
    command, serves = ex.mcp_default_command(tmp_path / "missing.py")
    assert shlex.split(command)[1:] == ["-m", "chartkit", "mcp"]
    assert serves == "chartkit's own tools (chart_rows, chart_file)"
    listed = ex.mcp_list_tools(mcp, command, allowed=[command])
    assert listed.error is None, listed.error
    # not the MCP Apps page's app-only chartkit_rows_behind: a host keeps it from the model, and
    # the explorer, a host for a person, lists only what a model would be offered
    assert {t.name for t in listed.tools} == {"chart_rows", "chart_file"}


def test_a_malformed_declaration_from_a_server_is_warned_about_and_dropped(
    explorer: AppTest, tmp_path: Path, served: Any
) -> None:
    script = tmp_path / "odd_server.py"
    script.write_text(MALFORMED_SERVER)
    at = list_mcp_tools(explorer, served, f"{sys.executable} {script}")
    assert at.selectbox(key="mcp-tool").options == ["mappings — declaration dropped"]
    [warning] = texts(at, "warning", "sidebar")
    assert "'mappings'" in warning and '"integer"' in warning
    at.button(key="mcp-call").click()
    at = ok(at.run())
    assert texts(at, "title") == ["mappings"]
    assert disposition(at)[0]["notApplicable"] == 1  # undeclared now: nothing to check against


def test_a_server_that_cannot_start_is_a_message_not_a_crash(
    explorer: AppTest, served: Any
) -> None:
    at = list_mcp_tools(explorer, served, "no-such-mcp-server --stdio")
    assert texts(at, "error", "sidebar") == [
        "could not start the MCP server 'no-such-mcp-server --stdio': No such file or directory "
        "('no-such-mcp-server'); check the command line."
    ]
    at.radio(key="source").set_value("Bundled example")
    assert texts(ok(at.run()), "title") == ["host_group_mappings"]


# --- large results --------------------------------------------------------------------------


def test_a_million_rows_load_check_and_chart(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    groups = [f"hg-{i:02d}" for i in range(40)]
    rows = [
        {"host_group": groups[i % 40], "logical_unit_number": "" if i % 97 == 0 else i % 250}
        for i in range(1_000_000)
    ]
    path = tmp_path / "big.json"
    path.write_text(
        json.dumps(
            {
                "tool": "host_group_mappings",
                "callId": "call-big",
                "resultColumns": {"host_group": "string", "logical_unit_number": "number"},
                "rows": rows,
            }
        )
    )
    monkeypatch.setenv(ex.ENV_FILE, str(path))
    at = ok(AppTest.from_file(str(APP), default_timeout=300).run())
    assert "callId call-big · 1,000,000 rows" in texts(at, "caption")[0]
    assert "and 10,310 of 1,000,000 rows hold something else" in blocks(at)["logical_unit_number"]
    [chart] = at.get("vega_lite_chart")
    spec = json.loads(chart.proto.spec)
    assert spec["encoding"]["y"]["field"] == "host_group"
    shown = table(at, "host_group", "logical_unit_number")
    assert len(shown) == ex.STYLED_ROWS
    assert (
        "Rows 1–5,000 of 1,000,000: the table shows a window of at most 5,000 rows, so "
        "highlighting stays fast; move the window to see others."
    ) in texts(at, "caption")


# --- the logic, directly --------------------------------------------------------------------


def test_run_ledger_adds_up_every_result_of_the_run() -> None:
    loaded = ex.load_path(ex.EXAMPLES_DIR / "run_incident.jsonl")
    ledger = ex.run_ledger(loaded.results, "enforce")
    assert [r.status for r in ledger.results] == [
        "refused", "clean", "refused", "clean", "refused",
    ]  # fmt: skip
    assert [(r["check"], r["findings"]) for r in ex.disposition_table(ledger.disposition)] == [
        ("column-type-mismatch", 2),
        ("missing-column", 1),
    ]


def test_offending_cells_agree_with_the_check() -> None:
    result = example("host_group_mappings")
    marks = ex.offending_cells(result.rows, result.result_columns, LUN_COLUMNS)
    outcome = check_result(result, mode="warn")
    for column, flags in marks.items():
        found = [v.affected for v in outcome.violations if v.column == column]
        assert sum(flags) == (found[0] if found else 0), column
    rows = [{"a": None}, {}, {"a": "2024-01-01"}, {"a": "yesterday"}]
    assert ex.offending_cells(rows, {"a": "date"}, ["a"]) == {"a": [True, True, False, True]}
    nullable = {"a": {"type": "date", "nullable": True}}
    assert ex.offending_cells(rows, nullable, ["a"]) == {"a": [False, False, False, True]}
