"""pydantic-ai: a toolset wrapper that applies the dial to each declared tool's return.

``ColumnCheckToolset(toolset, mode=...)`` wraps any pydantic-ai toolset. A tool declares its
columns in its ``metadata`` (``metadata=result_columns({...})``; pydantic-ai never sends
metadata to the model) or through the wrapper's ``result_columns={tool: {...}}``, which wins.
Before the model sees a declared tool's return:

- ``off`` and ``warn`` hand it on untouched (``warn`` files the findings);
- ``enforce`` with violations raises ``ToolFailed`` with the refusal sentence — pydantic-ai's
  terminal failed tool call: the model reads that sentence alone, as a tool return whose
  outcome is ``'failed'``, with no retry prompt and no retry budget spent.

Each judged return also reaches pydantic-ai's own channels: an ``IntegrityCheckEvent`` on the
run's event stream (``event_stream_handler``, ``run_stream_events``) per event
``chartkit.events`` publishes, and the outcome's attributes on the current OpenTelemetry span
(the ``execute_tool`` span when the agent is instrumented), each finding a span event.
``ledger`` adds up every result judged; ``ledger_for(result.run_id)`` one run's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from chartkit.agents._dial import Judgement, ToolDial, trace_attributes
from chartkit.check.events import CONTEXT_ERROR, EventName
from chartkit.check.integrity import DispositionLedger
from chartkit.check.outcome import CheckMode
from chartkit.columns import normalize_result_columns
from chartkit.errors import MissingExtraError
from chartkit.words import needs_extra

try:
    from opentelemetry import trace
    from pydantic_ai import CustomEvent, RunContext, ToolFailed
    from pydantic_ai.exceptions import UserError
    from pydantic_ai.toolsets import WrapperToolset
    from pydantic_ai.toolsets.abstract import ToolsetTool
    from pydantic_core import to_jsonable_python
except ImportError as _exc:  # pragma: no cover - exercised in a subprocess by the tests
    raise MissingExtraError(
        needs_extra("chartkit.agents.pydantic_ai", "pydantic-ai", "pydantic-ai", failed=_exc)
    ) from None

__all__ = ["META_KEY", "ColumnCheckToolset", "IntegrityCheckEvent", "result_columns"]

META_KEY = "resultColumns"
"""The key of a tool's ``metadata`` that carries its declaration (as over MCP ``_meta``)."""


def result_columns(
    declaration: object, metadata: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """Tool ``metadata`` carrying ``declaration``, normalized now (a bad one raises here).

    >>> result_columns({"logical_unit_number": "number"})
    {'resultColumns': {'logical_unit_number': {'type': 'number', 'nullable': False}}}
    """
    declared = normalize_result_columns(declaration)
    return {**(metadata or {}), META_KEY: {k: d.to_wire() for k, d in declared.items()}}


@dataclass(kw_only=True)
class IntegrityCheckEvent(CustomEvent, name="chartkit.integrity", ui=False):
    """One ``chartkit.events`` event on the run's event stream: its name and JSON payload."""

    event: EventName
    payload: dict[str, Any]


@dataclass
class ColumnCheckToolset(WrapperToolset[Any]):
    """Wrap ``wrapped`` so each declared tool's return passes the dial before the model reads it.

    ``mode`` is ``off`` (the default), ``warn`` or ``enforce``; ``result_columns`` maps tool
    names to declarations, asserted now, and wins over a declaration in a tool's metadata.
    """

    mode: CheckMode = "off"
    result_columns: Mapping[str, object] = field(default_factory=dict)
    dial: ToolDial = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.dial = ToolDial(self.mode, self.result_columns)

    @property
    def ledger(self) -> DispositionLedger:
        """The disposition rows of every result this toolset judged, added up."""
        return self.dial.ledger

    def ledger_for(self, run_id: str) -> DispositionLedger:
        """The disposition rows of one run: ``toolset.ledger_for(result.run_id)``."""
        return self.dial.ledger_for(run_id)

    async def call_tool(
        self, name: str, tool_args: dict[str, Any], ctx: RunContext[Any], tool: ToolsetTool[Any]
    ) -> Any:
        returned = await super().call_tool(name, tool_args, ctx, tool)
        declared = self.dial.declaration(name, (tool.tool_def.metadata or {}).get(META_KEY))
        rows = returned if declared is None else _as_model_reads(returned)
        judged = self.dial.apply(
            name, rows, call_id=ctx.tool_call_id, result_columns=declared, run_id=ctx.run_id
        )
        await _report(ctx, judged)
        if judged.outcome.refusal is not None:
            raise ToolFailed(judged.outcome.refusal)
        return returned  # the very object the tool returned: off and warn change nothing


def _as_model_reads(returned: Any) -> Any:
    """Rows of pydantic models or dataclasses as the JSON objects the model reads; else as is."""
    if isinstance(returned, Sequence) and not isinstance(returned, str | bytes):
        if any(not isinstance(row, Mapping) for row in returned):
            try:
                return to_jsonable_python(returned)
            except ValueError:  # pydantic_core.PydanticSerializationError
                return returned
    return returned


async def _report(ctx: RunContext[Any], judged: Judgement) -> None:
    """The outcome on pydantic-ai's own channels: the current span and the run's event stream."""
    span = trace.get_current_span()
    span.set_attributes(trace_attributes(judged.outcome))
    for finding in judged.outcome.findings:
        span.add_event(
            CONTEXT_ERROR,
            {"kind": finding.kind, "column": finding.column, "message": finding.message},
        )
    for event in judged.events:
        try:
            await ctx.emit(IntegrityCheckEvent(event=event.name, payload=event.payload))
        except UserError:  # called outside an agent run: no event stream to emit into
            return
