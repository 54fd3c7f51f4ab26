"""Each finding shows its offenders summarized — the most frequent distinct offending values
with their counts (``ColumnViolation.offenders``, said by ``messages.offenders_text``) — in the
check's block, in the rows behind a selection, on the rows table's column, and in
``chartkit.streamlit.show`` (issue 20 item 5). The spec's own sentence stays word for word."""

from __future__ import annotations

import json

from _explorer import blocks, paste, seen
from streamlit.testing.v1 import AppTest

from chartkit import check_columns, check_result, view
from chartkit.messages import offenders_text
from chartkit.result import ToolResult

# the issue's own column: four spellings of nothing in a number column, and real numbers —
# more of them than offenders, so the chart keeps lun and leaves the offenders out
SPELLINGS = [None, "n/a", "N/A", "-", 3.0, 5.0, 8.0, 13.0, 21.0, 34.0] * 10
RESULT = {
    "tool": "luns",
    "rows": [{"host": f"h{i % 4}", "lun": v} for i, v in enumerate(SPELLINGS)],
    "resultColumns": {"host": "string", "lun": "number"},
}
LISTED = 'null ×10, "-" ×10, "N/A" ×10, "n/a" ×10'


def test_the_summary_is_the_violations_own() -> None:
    (v,) = check_columns(RESULT["rows"], RESULT["resultColumns"])
    assert offenders_text(v) == LISTED


def test_a_findings_block_lists_its_offending_values_with_counts(explorer: AppTest) -> None:
    at = paste(explorer, RESULT)
    block = blocks(at)["lun"]
    outcome = check_result(ToolResult("luns", RESULT["rows"], RESULT["resultColumns"]), mode="warn")
    [finding] = outcome.findings
    assert "— the first is null." in finding.message  # the spec's sentence, unchanged
    lines = block.split("\n\n")
    assert lines[0].startswith("**column-type-mismatch** — 'luns' declares column 'lun'")
    assert lines[1] == f"**Offending values** — {LISTED}"
    config = json.loads(next(d for d in at.dataframe if "lun" in d.value.columns).proto.columns)
    assert seen(config["lun"]["help"]).endswith(f" · offending values: {LISTED}")


def test_the_rows_left_out_list_their_own_offending_values(explorer: AppTest) -> None:
    """The 40 rows the chart leaves out are exactly the offenders: their finding lists the
    same four spellings."""
    at = paste(explorer, RESULT)
    [toggle] = [t for t in at.toggle if (t.key or "").startswith("left-out:")]
    assert toggle.label == "Show the 40 rows left out of the chart"
    at = toggle.set_value(True).run()
    assert [e.value for e in at.exception] == []
    warnings = [seen(w.value) for w in at.warning if seen(w.value).startswith("For these rows")]
    assert len(warnings) == 1
    assert warnings[0].endswith(f"· 40 of 40 rows affected\n\nOffending values: {LISTED}")


def test_show_lists_the_offending_values_under_each_finding() -> None:
    from streamlit.testing.v1 import AppTest as Run

    script = (
        "import json, sys\n"
        "from chartkit.streamlit import show\n"
        f"result = json.loads({json.dumps(json.dumps(RESULT))})\n"
        "show(result['rows'], result['resultColumns'], tool='luns')\n"
    )
    at = Run.from_string(script, default_timeout=60).run()
    assert [e.value for e in at.exception] == []
    [warning] = [seen(w.value) for w in at.warning if "Offending values" in seen(w.value)]
    assert warning.endswith(f"\n\n**Offending values** · {LISTED}")
    assert view(RESULT["rows"], RESULT["resultColumns"]).check.findings
