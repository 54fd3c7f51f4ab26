"""chartkit.agents.langchain: the dial inside a real LangChain agent loop, offline.

``langchain.agents.create_agent`` (a LangGraph loop) runs a fake chat model that calls the
declared tool, then answers; what the model is handed on its second call is exactly what it
reads after the tool call.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

pytest.importorskip("langchain_core")
pytest.importorskip("langchain.agents")

from langchain.agents import create_agent
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
from langchain_core.outputs import ChatResult
from langchain_core.tools import BaseTool, tool
from pydantic import Field

from chartkit.agents.langchain import ColumnCheck, ColumnCheckedTool
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


class Model(GenericFakeChatModel):
    """A fake chat model that calls the tool, then answers, and keeps what it was handed."""

    seen: list[list[BaseMessage]] = Field(default_factory=list)

    def bind_tools(self, tools: Any, **kwargs: Any) -> Model:
        return self

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> ChatResult:
        self.seen.append(list(messages))
        return super()._generate(messages, *args, **kwargs)


def mappings(rows: Any) -> BaseTool:
    @tool
    def host_group_mappings() -> list[dict[str, Any]]:
        """The LUN mappings of a host group."""
        return rows  # type: ignore[no-any-return]

    return host_group_mappings


def model() -> Model:
    call = {"name": "host_group_mappings", "args": {}, "id": "call-1", "type": "tool_call"}
    return Model(messages=iter([AIMessage("", tool_calls=[call]), AIMessage("done")]))


def run(tools: list[BaseTool], **config: Any) -> ToolMessage:
    """Run the loop; answer the tool's message as the model read it on its second call."""
    llm = model()
    agent = create_agent(llm, tools=tools)
    agent.invoke({"messages": [("user", "what are the vdi-a mappings?")]}, config or None)
    reply = llm.seen[1][-1]
    assert isinstance(reply, ToolMessage)
    return reply


def test_warn_the_model_reads_the_rows_as_returned_and_the_finding_is_filed() -> None:
    check = ColumnCheck("warn", {"host_group_mappings": DECLARED})
    with events.subscribe() as sub:
        reply = run(check.tools([mappings(FIELD_BUG)]))
    assert reply.status == "success" and reply.tool_call_id == "call-1"
    assert reply.content == (
        '[{"logical_unit_number": "", "host_group": "vdi-a"}, '
        '{"logical_unit_number": 3, "host_group": "vdi-a"}]'
    )
    published = sub.drain()
    assert [e.name for e in published] == ["integrity.context_error", "integrity.disposition"]
    assert "Call id call-1." in published[0].payload["message"]
    rows = [(r.check, r.checked, r.findings) for r in check.ledger.rows()]
    assert rows == [("column-type-mismatch", 1, 1), ("missing-column", 1, 0)]


def test_enforce_the_model_reads_the_refusal_as_an_error_tool_message_and_no_row_value() -> None:
    check = ColumnCheck("enforce", {"host_group_mappings": DECLARED})
    reply = run(check.tools([mappings(FIELD_BUG)]))
    assert reply.status == "error"
    assert reply.content == REFUSAL
    assert "vdi-a" not in reply.content


def test_off_changes_nothing_byte_for_byte() -> None:
    check = ColumnCheck("off", {"host_group_mappings": DECLARED})
    reply, bare = run(check.tools([mappings(FIELD_BUG)])), run([mappings(FIELD_BUG)])
    assert reply.content == bare.content
    assert (reply.status, reply.name, reply.tool_call_id) == (bare.status, bare.name, "call-1")
    assert [(r.checked, r.not_applicable) for r in check.ledger.rows()] == [(0, 1), (0, 1)]


def test_the_async_loop_refuses_the_same() -> None:
    check = ColumnCheck("enforce", {"host_group_mappings": DECLARED})
    llm = model()
    agent = create_agent(llm, tools=check.tools([mappings(FIELD_BUG)]))
    asyncio.run(agent.ainvoke({"messages": [("user", "what are the vdi-a mappings?")]}))
    reply = llm.seen[1][-1]
    assert isinstance(reply, ToolMessage)
    assert (reply.status, reply.content) == ("error", REFUSAL)


class Recorder(BaseCallbackHandler):
    def __init__(self) -> None:
        self.events: list[tuple[str, Any]] = []

    def on_custom_event(self, name: str, data: Any, **kwargs: Any) -> None:
        self.events.append((name, data))


def test_the_events_reach_the_runs_callbacks() -> None:
    recorder = Recorder()
    check = ColumnCheck("warn", {"host_group_mappings": DECLARED})
    run(check.tools([mappings(FIELD_BUG)]), callbacks=[recorder])
    assert [name for name, _ in recorder.events] == [
        "chartkit.integrity.context_error",
        "chartkit.integrity.disposition",
    ]
    assert recorder.events[0][1]["callId"] == "call-1"
    assert recorder.events[1][1]["rows"][0]["findings"] == 1


def test_a_tool_declares_its_columns_where_it_is_added_and_undeclared_ones_pass() -> None:
    check = ColumnCheck("enforce")
    assert run([check.tool(mappings(FIELD_BUG), result_columns=DECLARED)]).content == REFUSAL
    other = ColumnCheck("enforce")
    assert run(other.tools([mappings(FIELD_BUG)])).content == run([mappings(FIELD_BUG)]).content
    assert [r.not_applicable for r in other.ledger.rows()] == [1, 1]
    wrapped = check.tool(mappings([]))
    assert isinstance(wrapped, ColumnCheckedTool)
    assert (
        wrapped.tool_call_schema.model_json_schema()
        == mappings([]).tool_call_schema.model_json_schema()
    )
    with pytest.raises(ResultColumnsError, match="tool 'host_group_mappings' declares"):
        check.tool(mappings([]), result_columns={"lun": "integer"})
    with pytest.raises(ChartkitError, match="takes a LangChain tool"):
        check.tool(len)  # type: ignore[arg-type]


def test_a_tool_call_invoked_directly_answers_the_tool_message_a_tool_node_sends() -> None:
    check = ColumnCheck("enforce", {"host_group_mappings": DECLARED})
    (wrapped,) = check.tools([mappings(FIELD_BUG)])
    call = {"name": "host_group_mappings", "args": {}, "id": "call-7", "type": "tool_call"}
    message = wrapped.invoke(call)
    assert isinstance(message, ToolMessage)
    assert (message.status, message.tool_call_id, message.content) == ("error", "call-7", REFUSAL)
