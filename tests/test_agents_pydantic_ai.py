"""chartkit.agents.pydantic_ai: the dial inside a real pydantic-ai agent loop, offline.

A ``FunctionModel`` calls the declared tool, then answers; what it is handed on its second
turn is exactly what the model reads after the tool call.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

pytest.importorskip("pydantic_ai")

from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import (
    InMemorySpanExporter,
)
from opentelemetry.trace import StatusCode
from pydantic import BaseModel
from pydantic_ai import Agent, FunctionToolset
from pydantic_ai.capabilities import Instrumentation
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.models.instrumented import InstrumentationSettings
from pydantic_ai.models.test import TestModel

from chartkit.agents.pydantic_ai import (
    ColumnCheckToolset,
    IntegrityCheckEvent,
    result_columns,
)
from chartkit.check import events
from chartkit.errors import ResultColumnsError
from chartkit.messages import COLUMN_TYPE_CEILING

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
FINDING = (
    "'host_group_mappings' declares column 'logical_unit_number' as number, and 1 of 2 rows "
    'hold something else — the first is "" (string). This judges TYPE, never MEANING — it can '
    "see that a column declared number holds a string, and it can never see that the string "
    "should have been 0, or that a 0.0 should have been an 8; a column whose every value has "
    "its declared type passes here and can still be wrong. Call id call-1. Nothing here "
    "blocked the call, changed the result, or retried anything — the model reads the rows "
    "exactly as the tool returned them."
)


def toolset(rows: Any, *, declare: bool = True) -> FunctionToolset[Any]:
    tools: FunctionToolset[Any] = FunctionToolset()

    @tools.tool_plain(metadata=result_columns(DECLARED) if declare else None)
    def host_group_mappings() -> Any:
        """The LUN mappings of a host group."""
        return rows

    return tools


class Loop:
    """A FunctionModel that calls the tool once, then answers; it keeps what it was handed."""

    def __init__(self) -> None:
        self.turns: list[list[ModelMessage]] = []

    def __call__(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        self.turns.append(list(messages))
        if len(self.turns) == 1:
            call = ToolCallPart("host_group_mappings", {}, tool_call_id="call-1")
            return ModelResponse(parts=[call])
        return ModelResponse(parts=[TextPart("done")])

    def tool_return(self) -> ToolReturnPart:
        """The tool's part of the model's next message (its second turn)."""
        request = self.turns[1][-1]
        assert isinstance(request, ModelRequest)
        (part,) = request.parts
        assert isinstance(part, ToolReturnPart)
        return part


def run(tools: Any, **kw: Any) -> tuple[Loop, Any]:
    loop = Loop()
    agent = Agent(FunctionModel(loop), toolsets=[tools], **kw)
    result = asyncio.run(agent.run("what are the vdi-a mappings?"))  # run_sync keeps a loop open
    return loop, result


def test_warn_the_model_reads_the_rows_as_returned_and_the_finding_is_filed() -> None:
    checked = ColumnCheckToolset(toolset(FIELD_BUG), mode="warn")
    with events.subscribe() as sub:
        loop, result = run(checked)
    part = loop.tool_return()
    assert part.outcome == "success"
    assert part.content is FIELD_BUG  # the very rows object, untouched
    assert part.model_response_str() == (
        '[{"logical_unit_number":"","host_group":"vdi-a"},'
        '{"logical_unit_number":3,"host_group":"vdi-a"}]'
    )
    published = sub.drain()
    assert [e.name for e in published] == ["integrity.context_error", "integrity.disposition"]
    assert published[0].payload["message"] == FINDING
    rows = [(r.check, r.checked, r.findings) for r in checked.ledger_for(result.run_id).rows()]
    assert rows == [("column-type-mismatch", 1, 1), ("missing-column", 1, 0)]


def test_enforce_the_model_reads_the_refusal_as_a_failed_call_and_no_row_value() -> None:
    checked = ColumnCheckToolset(toolset(FIELD_BUG), mode="enforce")
    loop, result = run(checked)
    part = loop.tool_return()
    assert part.outcome == "failed"  # pydantic-ai's own failed tool call (ToolFailed)
    assert part.content == REFUSAL
    sent = part.model_response_str()
    assert REFUSAL.replace('"', '\\"') in sent and "vdi-a" not in sent
    assert "try again" not in sent  # a terminal failure: no retry prompt
    assert result.output == "done"
    rows = [(r.check, r.findings) for r in checked.ledger_for(result.run_id).rows()]
    assert rows == [("column-type-mismatch", 1), ("missing-column", 0)]


def test_off_changes_nothing_byte_for_byte() -> None:
    bare, _ = run(toolset(FIELD_BUG))
    checked, result = run(ColumnCheckToolset(toolset(FIELD_BUG), mode="off"))
    assert checked.tool_return().content is FIELD_BUG
    assert checked.tool_return().model_response_str() == bare.tool_return().model_response_str()
    assert [type(p) for m in checked.turns[1] for p in m.parts] == [
        type(p) for m in bare.turns[1] for p in m.parts
    ]
    assert result.output == "done"


def test_off_still_files_the_two_not_applicable_rows() -> None:
    checked = ColumnCheckToolset(toolset(FIELD_BUG), mode="off")
    _, result = run(checked)
    rows = [
        (r.check, r.checked, r.not_applicable) for r in checked.ledger_for(result.run_id).rows()
    ]
    assert rows == [("column-type-mismatch", 0, 1), ("missing-column", 0, 1)]


def test_enforce_delivers_clean_rows_untouched() -> None:
    clean = [{"logical_unit_number": 0, "host_group": "vdi-a"}]  # 0 is a number
    checked = ColumnCheckToolset(toolset(clean), mode="enforce")
    loop, _ = run(checked)
    assert loop.tool_return().content is clean
    assert [(r.checked, r.findings) for r in checked.ledger.rows()] == [(1, 0), (1, 0)]


def test_an_undeclared_tool_is_never_judged() -> None:
    checked = ColumnCheckToolset(toolset(FIELD_BUG, declare=False), mode="enforce")
    loop, _ = run(checked)
    assert loop.tool_return().content is FIELD_BUG
    assert [r.not_applicable for r in checked.ledger.rows()] == [1, 1]


def test_the_wrappers_result_columns_declare_a_tool_and_win_over_its_metadata() -> None:
    checked = ColumnCheckToolset(
        toolset(FIELD_BUG, declare=False),
        mode="enforce",
        result_columns={"host_group_mappings": DECLARED},
    )
    loop, _ = run(checked)
    assert loop.tool_return().content == REFUSAL


class Mapping_(BaseModel):
    logical_unit_number: int | str
    host_group: str


def test_rows_of_pydantic_models_are_judged_as_the_json_the_model_reads() -> None:
    rows = [
        Mapping_(logical_unit_number="", host_group="vdi-a"),
        Mapping_(logical_unit_number=3, host_group="vdi-a"),
    ]
    loop, _ = run(ColumnCheckToolset(toolset(rows), mode="enforce"))
    assert loop.tool_return().content == REFUSAL


def test_the_events_reach_the_runs_own_event_stream() -> None:
    checked = ColumnCheckToolset(toolset(FIELD_BUG), mode="warn")
    seen: list[IntegrityCheckEvent] = []

    async def handler(ctx: Any, stream: Any) -> None:
        async for event in stream:
            if isinstance(event, IntegrityCheckEvent):
                seen.append(event)

    async def go() -> None:  # TestModel streams, as an event_stream_handler needs
        await Agent(TestModel(), toolsets=[checked]).run(
            "what are the vdi-a mappings?", event_stream_handler=handler
        )

    asyncio.run(go())
    call_id = seen[0].payload["callId"]
    assert [(e.event, e.tool_call_id, e.tool_name) for e in seen] == [
        ("integrity.context_error", call_id, "host_group_mappings"),
        ("integrity.disposition", call_id, "host_group_mappings"),
    ]
    assert seen[0].payload["message"] == FINDING.replace("call-1", call_id)
    assert seen[1].payload["rows"][0] == {
        "check": "column-type-mismatch",
        "seam": "write",
        "checked": 1,
        "findings": 1,
        "notApplicable": 0,
        "lastFiredAt": seen[1].payload["rows"][0]["lastFiredAt"],
    }


def test_the_outcome_is_on_the_execute_tool_span() -> None:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    instrumentation = Instrumentation(InstrumentationSettings(tracer_provider=provider))
    checked = ColumnCheckToolset(toolset(FIELD_BUG), mode="enforce")
    run(checked, capabilities=[instrumentation])
    (span,) = [s for s in exporter.get_finished_spans() if "chartkit.check.mode" in s.attributes]
    assert "host_group_mappings" in span.name
    assert span.attributes["chartkit.check.status"] == "invalid"
    assert span.attributes["chartkit.check.findings"] == 1
    assert span.status.status_code is StatusCode.ERROR  # the failed call, in pydantic-ai's terms
    (event,) = [e for e in span.events if e.name == "integrity.context_error"]
    assert event.attributes["message"] == f"{REFUSAL} {COLUMN_TYPE_CEILING}"


def test_a_malformed_declaration_is_refused_where_it_is_written() -> None:
    with pytest.raises(ResultColumnsError, match="'lun' as \"integer\""):
        result_columns({"lun": "integer"})
    with pytest.raises(ResultColumnsError, match="tool 'host_group_mappings' declares"):
        ColumnCheckToolset(toolset([]), result_columns={"host_group_mappings": {"lun": "int"}})
