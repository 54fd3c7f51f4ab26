"""The explorer never lists an alternative chart the view has just said does not exist
(issue 20 item 7): each one it offers draws more than one mark."""

from __future__ import annotations

from _explorer import paste
from streamlit.testing.v1 import AppTest

import chartkit.explorer._logic as ex
from chartkit import view

# the specification's own example: the report as it shipped, LUN 0 became ''
SPEC_EXAMPLE = {
    "tool": "host_group_mappings",
    "rows": [
        {"logical_unit_number": "", "host_group": "vdi-a"},
        {"logical_unit_number": 3, "host_group": "vdi-a"},
    ],
    "resultColumns": {"logical_unit_number": "number", "host_group": "string"},
}


def offered(at: AppTest) -> list[str]:
    return [b.key for b in at.button if (b.key or "").startswith("alternative-")]


def test_the_specs_two_rows_are_a_table_and_no_other_chart_is_offered(explorer: AppTest) -> None:
    shown = view(SPEC_EXAMPLE["rows"], SPEC_EXAMPLE["resultColumns"], tool="host_group_mappings")
    assert shown.kind == "table"
    assert "and so would every other chart its declared types allow" in shown.reason
    assert shown.alternatives  # the declared types allow a histogram: of one bar here
    at = paste(explorer, SPEC_EXAMPLE)
    assert at.get("vega_lite_chart") == []
    assert offered(at) == []
    assert "**Other charts these declared types allow**" not in [m.value for m in at.markdown]


def test_every_alternative_offered_draws_more_than_one_mark(explorer: AppTest) -> None:
    result = ex.load_path(ex.EXAMPLES_DIR / "host_group_mappings.json").results[0]
    shown = view(result)
    keys = offered(explorer)
    assert keys
    for key in keys:
        i = int(key.split("-")[1].split(":")[0])
        drawn = view(result, **shown.alternatives[i].picks())
        assert drawn.kind == "chart" and drawn.spec is not None
        assert sum(len(d) for d in drawn.spec["datasets"].values()) > 1
