"""LangChain: a tool wrapper that applies the dial to each declared tool's return.

``ColumnCheck(mode=..., result_columns={tool: {...}})`` wraps an agent's tools:
``check.tools([host_group_mappings])`` (or ``check.tool(tool, result_columns=...)``, declaring
the columns where the tool is added) answers ``ColumnCheckedTool``\\ s — ordinary LangChain
tools, for ``bind_tools``, a LangGraph ``ToolNode`` or ``create_react_agent``. Each calls the
wrapped tool, then, before the model reads the return:

- ``off`` and ``warn`` hand it on untouched (``warn`` files the findings), so the
  ``ToolMessage`` is the one the wrapped tool would have made;
- ``enforce`` with violations raises ``ToolException`` with the refusal sentence, which the
  tool handles as LangChain does a failed call: a ``ToolMessage`` with ``status="error"``
  whose content is that sentence alone.

Each event ``chartkit.events`` publishes for a judged return is also dispatched as a LangChain
custom event (``on_custom_event`` of the run's callbacks, ``astream_events``), named
``chartkit.integrity.context_error`` / ``chartkit.integrity.disposition``.
``ledger`` adds up every result the check judged.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from chartkit.agents._dial import Judgement, ToolDial
from chartkit.check.integrity import DispositionLedger
from chartkit.check.outcome import CheckMode
from chartkit.errors import ChartkitError, MissingExtraError
from chartkit.words import needs_extra

try:
    from langchain_core.callbacks import adispatch_custom_event, dispatch_custom_event
    from langchain_core.tools import BaseTool, ToolException
    from pydantic import ConfigDict
except ImportError as _exc:  # pragma: no cover - exercised in a subprocess by the tests
    raise MissingExtraError(
        needs_extra("chartkit.agents.langchain", "langchain-core", "langchain", failed=_exc)
    ) from None

__all__ = ["EVENT_PREFIX", "ColumnCheck", "ColumnCheckedTool"]

EVENT_PREFIX = "chartkit."
"""LangChain custom events are named this, then the ``chartkit.events`` name."""


class ColumnCheck:
    """The dial for an agent's tools: ``check.tools([...])`` wraps each one with the check.

    ``result_columns`` maps tool names to declarations (any form ``chartkit.columns``
    normalizes), asserted now, naming the tool.
    """

    def __init__(
        self, mode: CheckMode = "off", result_columns: Mapping[str, object] | None = None
    ) -> None:
        self.dial = ToolDial(mode, dict(result_columns or {}))

    @property
    def mode(self) -> CheckMode:
        return self.dial.mode

    @property
    def ledger(self) -> DispositionLedger:
        """The disposition rows of every result this check judged, added up."""
        return self.dial.ledger

    def tool(self, tool: BaseTool, *, result_columns: object = None) -> ColumnCheckedTool:
        """``tool`` wrapped so its return passes the dial; ``result_columns`` declares it here."""
        if isinstance(tool, ColumnCheckedTool):
            tool = tool.wrapped
        if not isinstance(tool, BaseTool):
            raise ChartkitError(
                f"ColumnCheck.tool takes a LangChain tool (a BaseTool, e.g. from @tool), got "
                f"{type(tool).__name__}"
            )
        if tool.response_format != "content":
            raise ChartkitError(
                f"tool {tool.name!r} answers (content, artifact); ColumnCheck checks tools that "
                "answer their rows as content — return the rows, or check the artifact yourself "
                "with chartkit.check_result"
            )
        if result_columns is not None:
            self.dial.declare(tool.name, result_columns)
        return ColumnCheckedTool(
            name=tool.name,
            description=tool.description,
            args_schema=tool.args_schema,
            return_direct=tool.return_direct,
            wrapped=tool,
            check=self,
        )

    def tools(self, tools: Iterable[BaseTool]) -> list[ColumnCheckedTool]:
        """Each of ``tools`` wrapped with the check (declared through ``result_columns``)."""
        return [self.tool(t) for t in tools]


class ColumnCheckedTool(BaseTool):
    """A LangChain tool that calls ``wrapped`` and puts its return through ``check``'s dial."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    wrapped: BaseTool
    check: ColumnCheck
    handle_tool_error: bool = True  # a refusal is a ToolMessage(status="error"), not a crash

    def _to_args_and_kwargs(
        self, tool_input: str | dict[str, Any], tool_call_id: str | None
    ) -> tuple[tuple[str, ...], dict[str, Any]]:
        # the wrapped tool parses its own input; this one keeps the call id for the finding
        return (), {"tool_input": tool_input, "tool_call_id": tool_call_id}

    def _run(self, tool_input: str | dict[str, Any], tool_call_id: str | None) -> Any:
        returned = self.wrapped.invoke(tool_input)  # a child run of this one (context config)
        judged = self.check.dial.apply(self.name, returned, call_id=tool_call_id)
        for event in judged.events:
            dispatch_custom_event(EVENT_PREFIX + event.name, event.to_dict()["payload"])
        return _deliver(judged, returned)

    async def _arun(self, tool_input: str | dict[str, Any], tool_call_id: str | None) -> Any:
        returned = await self.wrapped.ainvoke(tool_input)
        judged = self.check.dial.apply(self.name, returned, call_id=tool_call_id)
        for event in judged.events:
            await adispatch_custom_event(EVENT_PREFIX + event.name, event.to_dict()["payload"])
        return _deliver(judged, returned)


def _deliver(judged: Judgement, returned: Any) -> Any:
    if judged.outcome.refusal is not None:
        raise ToolException(judged.outcome.refusal)
    return returned  # the very object the tool returned: off and warn change nothing
