"""``chartkit.streamlit.show``: a View inside any Streamlit app, e.g. an agent's chat message."""

from __future__ import annotations

import importlib
import json
import sys
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from chartkit import COLUMN_TYPE_CEILING, ColumnViolation, MissingExtraError
from chartkit._literal import markdown_literal as md
from chartkit.streamlit import violation_line

LUN_ROWS = [
    {"logical_unit_number": "", "host_group": "vdi-a"},
    {"logical_unit_number": 3, "host_group": "vdi-a"},
    {"logical_unit_number": 1, "host_group": "vdi-b"},
]
LUN_DECLARATION = {"logical_unit_number": "number", "host_group": "string"}
LUN_FINDING = (
    "'host_group_mappings' declares column 'logical_unit_number' as number, and 1 of 3 rows hold "
    'something else — the first is "" (string). '
    f"{COLUMN_TYPE_CEILING} Call id call-1. Nothing here blocked the call, changed the result, "
    "or retried anything — the model reads the rows exactly as the tool returned them."
)


def agent_chat(mode: str = "warn", check: bool = True) -> None:
    """An agent chat page that shows a tool result inside the assistant's message."""
    import streamlit as st

    from chartkit import ToolResult
    from chartkit.streamlit import show

    result = ToolResult(
        "host_group_mappings",
        [
            {"logical_unit_number": "", "host_group": "vdi-a"},
            {"logical_unit_number": 3, "host_group": "vdi-a"},
            {"logical_unit_number": 1, "host_group": "vdi-b"},
        ],
        result_columns={"logical_unit_number": "number", "host_group": "string"},
        call_id="call-1",
    )
    with st.chat_message("user"):
        st.write("what are the mappings?")
    with st.chat_message("assistant"):
        shown = show(result, mode=mode, check=check)  # type: ignore[arg-type]
        st.session_state["kind"] = shown.kind


def run(script: Any, **kwargs: Any) -> AppTest:
    at = AppTest.from_function(script, kwargs=kwargs, default_timeout=60).run()
    assert [e.value for e in at.exception] == []
    return at


def assistant(at: AppTest) -> Any:
    return at.chat_message[1]


def test_show_renders_the_finding_the_chart_and_where_each_type_came_from() -> None:
    at = run(agent_chat)
    message = assistant(at)
    assert [w.value for w in message.warning] == [
        f"**column-type-mismatch** · {md('logical_unit_number')}\n\n{md(LUN_FINDING)}"
        + "\n\n**Offending values** · " + md('"" ×1')
    ]
    [chart] = message.get("vega_lite_chart")
    spec = json.loads(chart.proto.spec)
    assert spec["encoding"]["y"]["field"] == "logical_unit_number"
    assert spec["encoding"]["y"]["type"] == "quantitative"
    assert spec["usermeta"] == {"embedOptions": {"renderer": "svg"}}
    assert [m.value for m in message.markdown] == [
        f"- **x** · {md('host_group')} — declared string → nominal\n"
        f"- **y** · {md('logical_unit_number')} — declared number → quantitative"
    ]
    assert [c.value for c in message.caption] == [
        md(
            "1 of 3 rows is left out of the y axis: logical_unit_number is declared number and "
            'they hold string (first: ""). Nothing was converted.'
        )
    ]
    assert at.session_state["kind"] == "chart"


def test_show_under_enforce_shows_the_refusal_and_no_chart() -> None:
    at = run(agent_chat, mode="enforce")
    message = assistant(at)
    refusal = (
        "Result rejected: host_group_mappings returned rows that disagree with the columns it "
        "declares — 'logical_unit_number' is declared number and 1 of 3 rows hold string "
        '(first: ""). Fix the tool so the column holds what it declares, or change the '
        "declaration. No data was returned."
    )
    assert [e.value for e in message.error] == [md(refusal)]
    assert message.get("vega_lite_chart") == []
    assert [w.value for w in message.warning] == [
        f"**column-type-mismatch** · {md('logical_unit_number')}\n\n"
        + md(f"{refusal} {COLUMN_TYPE_CEILING}")
        + "\n\n**Offending values** · " + md('"" ×1')
    ]
    assert at.session_state["kind"] == "refused"


def test_show_without_the_check_leaves_the_findings_to_the_page() -> None:
    message = assistant(run(agent_chat, check=False))
    assert message.warning == []
    assert len(message.get("vega_lite_chart")) == 1


def test_a_clean_result_says_the_check_judges_type_not_meaning() -> None:
    def page() -> None:
        from chartkit.streamlit import show

        show([{"size_gb": 0.0, "pool": "a"}, {"size_gb": 8.0, "pool": "b"}],
             {"size_gb": "number", "pool": "string"}, tool="capacity_view")  # fmt: skip

    at = run(page)
    assert [s.value for s in at.success] == [
        "No findings: every declared column holds its declared type in every row."
    ]
    assert [i.value for i in at.info] == [f"That is all the check can say. {COLUMN_TYPE_CEILING}"]


def test_a_table_view_shows_its_reason_and_the_rows() -> None:
    def page() -> None:
        from chartkit.streamlit import show

        rows = [{"hostname": f"h{i}", "in_maintenance": i % 2 == 0} for i in range(30)]
        show(rows, {"hostname": "string", "in_maintenance": "boolean"}, tool="inventory",
             max_table_rows=10)  # fmt: skip

    at = run(page)
    assert [i.value for i in at.info] == [
        f"That is all the check can say. {COLUMN_TYPE_CEILING}",
        md("No column is declared number: hostname is string, in_maintenance is boolean."),
    ]
    assert [c.value for c in at.caption] == ["The first 10 of 30 rows."]
    assert len(at.dataframe[0].value) == 10


def test_a_refused_axis_is_shown_with_its_column_violation() -> None:
    def page() -> None:
        from chartkit.streamlit import show

        rows = [{"volume": f"v{i}", "read_iops": str(100 + i)} for i in range(4)]
        show(rows, {"volume": "string", "read_iops": "number"}, tool="volume_io_stats",
             check=False)  # fmt: skip

    at = run(page)
    [refused] = [w.value for w in at.warning]
    assert refused.startswith(f"**y** refused {md('read_iops')}: {md('read_iops is declared')}")
    assert refused.endswith(
        md(
            'Column \'read_iops\' · declared number · first offender "100" (string) · '
            "4 of 4 rows affected"
        )
        + " · offending values: "
        + md('"100" ×1, "101" ×1, "102" ×1, "103" ×1')
    )


HOSTILE = "![x](http://127.0.0.1:9/beacon.png) **b** $x^2$ `c` <b>h</b> :red[r] www.e.test\x1b"


def test_data_is_text_never_markdown_html_or_latex() -> None:
    def page(name: str) -> None:
        from chartkit.streamlit import show

        rows = [{name: "", "n": 1.0}, {name: "b", "n": 2.0}]
        show(rows, {name: "number", "n": "number"}, tool=name, mode="warn")

    at = run(page, name=HOSTILE)
    shown = [e.value for kind in ("warning", "caption", "markdown", "info", "error")
             for e in getattr(at, kind)]  # fmt: skip
    assert shown
    for text in shown:
        assert "![x](" not in text and "**b**" not in text and "$x^2$" not in text
        assert "<b>" not in text and "`c`" not in text and "\x1b" not in text
    literal = md(HOSTILE)
    assert literal.startswith("\\!\\[x\\]\\(http\\:\u2060\\/\\/")  # no link can form
    assert literal.endswith("www\u2060\\.e\\.test\\\\x1b")  # ESC shown as the text \x1b
    assert any(literal in text for text in shown)


def test_undeclared_columns_are_labelled_inferred() -> None:
    def page() -> None:
        from chartkit.streamlit import show

        show([{"region": "eu", "p95": 3.5}, {"region": "us", "p95": 4.0}], tool="latency",
             renderer=None)  # fmt: skip

    at = run(page)
    assert [m.value for m in at.markdown] == [
        f"- **x** · {md('region')} — inferred nominal — not declared\n"
        f"- **y** · {md('p95')} — inferred quantitative — not declared"
    ]
    spec = json.loads(at.get("vega_lite_chart")[0].proto.spec)
    assert "usermeta" not in spec


def test_a_view_is_shown_as_it_is() -> None:
    def page() -> None:
        import streamlit as st

        from chartkit.streamlit import show
        from chartkit.views import view

        made = view([{"day": "2024-01-01", "n": 1}, {"day": "2024-01-02", "n": 2}],
                    {"day": "date", "n": "number"}, tool="daily")  # fmt: skip
        st.session_state["same"] = show(made, mode="enforce") is made

    at = run(page)
    assert at.session_state["same"] is True
    spec = json.loads(at.get("vega_lite_chart")[0].proto.spec)
    assert spec["encoding"]["x"]["type"] == "temporal"


def test_violation_lines_name_column_declared_type_first_offender_and_counts() -> None:
    absent = ColumnViolation(
        "column-type-mismatch", "comment", "string", False, None, "null", 2, 5, 2, ("null",)
    )
    assert violation_line(absent) == (
        "Column 'comment' · declared string · first offender nothing (null) · 2 of 5 rows affected"
    )
    nullable = ColumnViolation(
        "column-type-mismatch", "n", "number", True, "x", "string", 1, 1_000_000
    )
    missing = ColumnViolation("missing-column", "lun", "number", False, None, "absent", 40, 40)
    assert violation_line(missing) == "Column 'lun' · declared number · in none of the 40 rows"
    assert violation_line(nullable) == (
        "Column 'n' · declared number, nullable · first offender \"x\" (string) · "
        "1 of 1,000,000 rows affected"
    )


def test_importing_without_streamlit_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "streamlit", None)  # as if it were not installed
    monkeypatch.delitem(sys.modules, "chartkit.streamlit")
    with pytest.raises(MissingExtraError) as raised:
        importlib.import_module("chartkit.streamlit")
    assert str(raised.value) == (
        "chartkit.streamlit needs Streamlit, which is not installed; install it with "
        "pip install 'chartkit[app]'"
    )
    assert isinstance(raised.value, ImportError)
