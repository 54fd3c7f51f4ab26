"""chartkit.agents.openai_agents: the dial inside a real Agents SDK run, offline.

The SDK's own ``ScriptedModel`` calls the declared tool, then answers; the input of its second
call is exactly what the model reads after the tool call.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("agents")

from agents import Agent, FunctionTool, Runner, function_tool, set_tracing_disabled
from agents.testing import ScriptedModel, assistant_message, function_call
from agents.tracing import Span, Trace, TracingProcessor, set_trace_processors
from agents.tracing.processors import default_processor

from chartkit.agents.openai_agents import GUARDRAIL_NAME, SPAN_NAME, ColumnCheck
from chartkit.check import events
from chartkit.errors import ChartkitError, ResultColumnsError

DECLARED = {"logical_unit_number": "number", "host_group": "string"}
FIELD_BUG = [  # the report as it shipped: LUN 0 became ''
    {"logical_unit_number": "", "host_group": "vdi-a"},
    {"logical_unit_number": 3, "host_group": "vdi-a"},
]
REFUSAL = (
    "Result rejected: host_group_mappings returned rows that disagree with the columns it "
    "declares — 'logical_unit_number' is declared number and 1 of 2 rows hold string (first: "
    '""). Fix the tool so the column holds what it declares, or change the declaration. No '
    "data was returned."
)


def mappings(rows: Any) -> FunctionTool:
    @function_tool
    def host_group_mappings() -> list[dict[str, Any]]:
        """The LUN mappings of a host group."""
        return rows  # type: ignore[no-any-return]

    return host_group_mappings


def run(tools: list[FunctionTool]) -> tuple[Any, Any]:
    """Run the loop; answer what the model read after the tool call, and the run's result."""
    model = ScriptedModel(
        [[function_call("host_group_mappings", {}, call_id="call-1")], [assistant_message("ok")]]
    )
    agent = Agent(name="storage", model=model, tools=list(tools))
    result = asyncio.run(Runner.run(agent, "what are the vdi-a mappings?"))
    model.assert_complete()
    (reply,) = [i for i in model.calls[1].input if i.get("type") == "function_call_output"]
    return reply, result


@pytest.fixture(autouse=True)
def offline_tracing() -> Iterator[None]:
    set_tracing_disabled(True)
    yield
    set_tracing_disabled(False)


def test_warn_the_model_reads_the_rows_as_returned_and_the_finding_is_filed() -> None:
    check = ColumnCheck("warn", {"host_group_mappings": DECLARED})
    with events.subscribe() as sub:
        reply, result = run(check.tools([mappings(FIELD_BUG)]))
    bare, _ = run([mappings(FIELD_BUG)])
    assert reply == bare  # the rows, as the SDK hands any return on
    assert "'logical_unit_number': ''" in reply["output"] and "vdi-a" in reply["output"]
    assert [e.name for e in sub.drain()] == ["integrity.context_error", "integrity.disposition"]
    rows = [(r.check, r.checked, r.findings) for r in check.ledger.rows()]
    assert rows == [("column-type-mismatch", 1, 1), ("missing-column", 1, 0)]
    (guarded,) = result.tool_output_guardrail_results
    assert guarded.output.behavior == {"type": "allow"}


def test_enforce_the_model_reads_the_refusal_as_a_rejected_output_and_no_row_value() -> None:
    check = ColumnCheck("enforce", {"host_group_mappings": DECLARED})
    reply, result = run(check.tools([mappings(FIELD_BUG)]))
    assert reply["output"] == REFUSAL
    assert "vdi-a" not in str(reply)
    (guarded,) = result.tool_output_guardrail_results
    assert guarded.guardrail.get_name() == GUARDRAIL_NAME
    assert guarded.output.behavior == {"type": "reject_content", "message": REFUSAL}
    assert guarded.output.output_info.status == "invalid"
    assert result.final_output == "ok"


def test_off_changes_nothing_byte_for_byte() -> None:
    check = ColumnCheck("off", {"host_group_mappings": DECLARED})
    reply, _ = run(check.tools([mappings(FIELD_BUG)]))
    bare, _ = run([mappings(FIELD_BUG)])
    assert reply == bare
    assert [(r.checked, r.not_applicable) for r in check.ledger.rows()] == [(0, 1), (0, 1)]


def test_a_tool_declares_its_columns_where_it_is_added() -> None:
    check = ColumnCheck("enforce")
    reply, _ = run([check.tool(mappings(FIELD_BUG), result_columns=DECLARED)])
    assert reply["output"] == REFUSAL
    with pytest.raises(ResultColumnsError, match="tool 'host_group_mappings' declares"):
        check.tool(mappings([]), result_columns={"lun": "integer"})
    with pytest.raises(ChartkitError, match="takes a FunctionTool"):
        check.tool("host_group_mappings")  # type: ignore[arg-type]


def test_enforce_delivers_clean_rows_and_undeclared_tools_untouched() -> None:
    clean = [{"logical_unit_number": 0, "host_group": "vdi-a"}]  # 0 is a number
    check = ColumnCheck("enforce", {"host_group_mappings": DECLARED})
    reply, _ = run(check.tools([mappings(clean)]))
    assert reply == run([mappings(clean)])[0]
    undeclared = ColumnCheck("enforce")
    reply, _ = run(undeclared.tools([mappings(FIELD_BUG)]))
    assert reply == run([mappings(FIELD_BUG)])[0]
    assert [r.not_applicable for r in undeclared.ledger.rows()] == [1, 1]


class Recorder(TracingProcessor):
    def __init__(self) -> None:
        self.spans: list[Span[Any]] = []

    def on_trace_start(self, trace: Trace) -> None: ...
    def on_trace_end(self, trace: Trace) -> None: ...
    def on_span_start(self, span: Span[Any]) -> None: ...

    def on_span_end(self, span: Span[Any]) -> None:
        self.spans.append(span)

    def shutdown(self) -> None: ...
    def force_flush(self) -> None: ...


def test_the_outcome_is_a_custom_span_of_the_runs_trace() -> None:
    recorder = Recorder()
    set_tracing_disabled(False)
    set_trace_processors([recorder])
    try:
        check = ColumnCheck("enforce", {"host_group_mappings": DECLARED})
        run(check.tools([mappings(FIELD_BUG)]))
    finally:
        set_trace_processors([default_processor()])
    (span,) = [s for s in recorder.spans if s.span_data.export().get("name") == SPAN_NAME]
    data = span.span_data.export()["data"]
    assert data["chartkit.check.status"] == "invalid" and data["callId"] == "call-1"
    assert [e["name"] for e in data["events"]] == [
        "integrity.context_error",
        "integrity.disposition",
    ]
    assert data["events"][0]["payload"]["message"].startswith(REFUSAL)
    assert span.parent_id is not None  # under the tool's function span
