"""OpenAI Agents SDK: a tool output guardrail that applies the dial to each declared tool.

``ColumnCheck(mode=..., result_columns={tool: {...}})`` is set once, on the agent's tools:
``Agent(tools=check.tools([host_group_mappings]))``, or ``check.tool(tool, result_columns=...)``
for one tool, declaring its columns where it is added. Each returns a copy of the
``FunctionTool`` with the check appended to its ``tool_output_guardrails`` — the SDK's own seam
for judging what a tool returned before the model reads it:

- ``off`` and ``warn`` allow the output untouched (``warn`` files the findings);
- ``enforce`` with violations answers ``reject_content`` with the refusal sentence: the model
  reads that sentence alone, the SDK sends it as an error output of the call, and the run keeps
  the rejection in ``result.tool_output_guardrail_results``.

Each judged return is also a custom span (``chartkit.column_check``) of the run's trace,
carrying the outcome, the findings and the disposition rows for any trace processor.
``ledger`` adds up every result the check judged.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import Any

from chartkit.agents._dial import ToolDial, trace_attributes
from chartkit.check.integrity import DispositionLedger
from chartkit.check.outcome import CheckMode
from chartkit.errors import ChartkitError, MissingExtraError
from chartkit.words import needs_extra

try:
    from agents import (
        FunctionTool,
        ToolGuardrailFunctionOutput,
        ToolOutputGuardrail,
        ToolOutputGuardrailData,
        custom_span,
    )
except ImportError as _exc:  # pragma: no cover - exercised in a subprocess by the tests
    raise MissingExtraError(
        needs_extra(
            "chartkit.agents.openai_agents", "the OpenAI Agents SDK", "openai-agents", failed=_exc
        )
    ) from None

__all__ = ["GUARDRAIL_NAME", "SPAN_NAME", "ColumnCheck"]

GUARDRAIL_NAME = "chartkit column check"
SPAN_NAME = "chartkit.column_check"


class ColumnCheck:
    """The dial for an agent's tools: ``check.tools([...])`` arms each one with the check.

    ``result_columns`` maps tool names to declarations (any form ``chartkit.columns``
    normalizes), asserted now, naming the tool.
    """

    def __init__(
        self, mode: CheckMode = "off", result_columns: Mapping[str, object] | None = None
    ) -> None:
        self.dial = ToolDial(mode, dict(result_columns or {}))
        self.guardrail: ToolOutputGuardrail[Any] = ToolOutputGuardrail(
            guardrail_function=self._judge, name=GUARDRAIL_NAME
        )

    @property
    def mode(self) -> CheckMode:
        return self.dial.mode

    @property
    def ledger(self) -> DispositionLedger:
        """The disposition rows of every result this check judged, added up."""
        return self.dial.ledger

    def tool(self, tool: FunctionTool, *, result_columns: object = None) -> FunctionTool:
        """A copy of ``tool`` whose output passes the dial; ``result_columns`` declares it here."""
        if not isinstance(tool, FunctionTool):
            raise ChartkitError(
                f"ColumnCheck.tool takes a FunctionTool (from @function_tool), got "
                f"{type(tool).__name__}; only function tools have outputs to check"
            )
        if result_columns is not None:
            self.dial.declare(tool.name, result_columns)
        guardrails = [g for g in tool.tool_output_guardrails or () if g is not self.guardrail]
        return dataclasses.replace(tool, tool_output_guardrails=[*guardrails, self.guardrail])

    def tools(self, tools: Iterable[FunctionTool]) -> list[FunctionTool]:
        """Each of ``tools`` armed with the check (declared through ``result_columns``)."""
        return [self.tool(t) for t in tools]

    def _judge(self, data: ToolOutputGuardrailData) -> ToolGuardrailFunctionOutput:
        context = data.context
        judged = self.dial.apply(context.tool_name, data.output, call_id=context.tool_call_id)
        outcome = judged.outcome
        with custom_span(
            SPAN_NAME,
            data={
                **trace_attributes(outcome),
                "tool": context.tool_name,
                "callId": context.tool_call_id,
                "events": [e.to_dict() for e in judged.events],
            },
        ):
            pass
        if outcome.refusal is not None:
            return ToolGuardrailFunctionOutput.reject_content(outcome.refusal, output_info=outcome)
        return ToolGuardrailFunctionOutput.allow(output_info=outcome)
