"""The dial applied to one tool return: what every agent-framework adapter shares.

An adapter hands each tool's return to ``ToolDial.apply`` before the model sees it; the dial
wraps it as a ``ToolResult``, runs ``check_result`` (which files the findings, logs them, and
publishes both events on ``chartkit.events``), and adds the disposition rows to the dial's
``DispositionLedger`` — and to the ledger of the run, when the framework names its runs.
What the model then reads is the adapter's business, in its framework's own terms: the return
untouched (``off``, ``warn``, clean ``enforce``), or ``outcome.refusal`` as a failed call.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from chartkit.check.events import IntegrityEvent, subscribe
from chartkit.check.integrity import DispositionLedger, check_result
from chartkit.check.outcome import CHECK_MODES, CheckMode, CheckOutcome
from chartkit.columns import ResultColumns, assert_result_columns
from chartkit.errors import ChartkitError
from chartkit.messages import unknown_mode
from chartkit.result import ToolResult

__all__ = ["RUNS_KEPT", "Judgement", "ToolDial", "trace_attributes"]

RUNS_KEPT = 1000
"""Runs whose ledgers a dial keeps by run id; the oldest is forgotten past that."""


@dataclass(frozen=True, eq=False)
class Judgement:
    """One judged return: the outcome, and the events ``chartkit.events`` published for it."""

    outcome: CheckOutcome
    events: tuple[IntegrityEvent, ...]


@dataclass(eq=False)
class ToolDial:
    """The dial ``mode`` and the declarations by tool name, applied to one return at a time.

    ``result_columns`` maps a tool's name to its declaration (any form ``chartkit.columns``
    normalizes), asserted now, naming the tool. ``ledger`` adds up every result the dial
    judged; ``ledger_for(run_id)`` the results of one run. One dial may judge returns from many
    threads at once (parallel tool calls, concurrent runs): the counts stay exact.

    >>> dial = ToolDial("enforce", {"host_group_mappings": {"logical_unit_number": "number"}})
    >>> judged = dial.apply("host_group_mappings", [{"logical_unit_number": ""}],
    ...                     call_id="call-1")
    >>> judged.outcome.status, [e.name for e in judged.events]
    ('invalid', ['integrity.context_error', 'integrity.disposition'])
    >>> [(r.check, r.checked, r.findings) for r in dial.ledger.rows()]
    [('column-type-mismatch', 1, 1), ('missing-column', 1, 0)]
    """

    mode: CheckMode = "off"
    result_columns: Mapping[str, object] = field(default_factory=dict)
    ledger: DispositionLedger = field(default_factory=DispositionLedger, init=False)
    _declared: dict[str, ResultColumns] = field(default_factory=dict, init=False, repr=False)
    _runs: OrderedDict[str, DispositionLedger] = field(
        default_factory=OrderedDict, init=False, repr=False
    )
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)

    def __post_init__(self) -> None:
        if self.mode not in CHECK_MODES:
            raise ChartkitError(unknown_mode(self.mode, CHECK_MODES))
        if not isinstance(self.result_columns, Mapping):
            raise ChartkitError(
                "result_columns maps each tool's name to its declaration, e.g. "
                '{"host_group_mappings": {"logical_unit_number": "number"}}; got '
                f"{type(self.result_columns).__name__}"
            )
        self._declared = {
            tool: assert_result_columns(tool, bag) for tool, bag in self.result_columns.items()
        }

    def declare(self, tool: str, result_columns: object) -> ResultColumns:
        """Declare ``tool``'s columns on the dial (asserted now, naming the tool)."""
        declared = assert_result_columns(tool, result_columns)
        self._declared[tool] = declared
        return declared

    def declaration(self, tool: str, found: object = None) -> ResultColumns | None:
        """``tool``'s declaration: the one given to the dial, else ``found`` on the tool itself.

        ``found`` is what the framework carries for the tool (its metadata), asserted here.
        """
        if tool in self._declared:
            return self._declared[tool]
        return None if found is None else assert_result_columns(tool, found)

    def apply(
        self,
        tool: str,
        returned: Any,
        *,
        call_id: str | None = None,
        result_columns: ResultColumns | None = None,
        run_id: str | None = None,
    ) -> Judgement:
        """Judge one return under the dial; the outcome says what the model is to read.

        ``result_columns`` defaults to ``declaration(tool)``. ``outcome.delivered`` is
        ``returned`` itself unless ``enforce`` refused it (then ``outcome.refusal``). The
        events are the ones ``check_result`` published about this very outcome, for the
        adapter to forward to its framework's own channels.
        """
        declared = result_columns if result_columns is not None else self.declaration(tool)
        result = ToolResult(tool, returned, result_columns=declared, call_id=call_id)
        heard: list[IntegrityEvent] = []
        with subscribe(heard.append):
            outcome = check_result(result, mode=self.mode)
        mine = tuple(  # other threads may publish meanwhile: keep this outcome's own events
            e
            for e in heard
            if e.disposition is outcome.disposition or any(e.finding is f for f in outcome.findings)
        )
        with self._lock:  # tools may run in parallel: one run's ledger, counted exactly
            self.ledger.add(outcome)
            if run_id is not None:
                run = self._runs.get(run_id)
                if run is None:
                    run = self._runs[run_id] = DispositionLedger()
                    while len(self._runs) > RUNS_KEPT:  # the oldest run is forgotten first
                        self._runs.popitem(last=False)
                else:
                    self._runs.move_to_end(run_id)  # the newest last
                run.add(outcome)
        return Judgement(outcome, mine)

    def ledger_for(self, run_id: str) -> DispositionLedger:
        """The disposition rows of one run (an empty ledger for a run the dial never saw)."""
        with self._lock:
            run = self._runs.get(run_id)
        return DispositionLedger() if run is None else run


def trace_attributes(outcome: CheckOutcome) -> dict[str, str | int | bool]:
    """What a tracing span carries about one judged return: flat, OpenTelemetry-ready values.

    >>> out = ToolDial("warn").apply("t", [{"a": 1}]).outcome
    >>> trace_attributes(out)["chartkit.check.status"]
    'ok'
    """
    return {
        "chartkit.check.mode": outcome.mode,
        "chartkit.check.status": outcome.status,
        "chartkit.check.armed": outcome.armed,
        "chartkit.check.findings": len(outcome.findings),
        "chartkit.check.disposition": json.dumps(
            [row.to_dict() for row in outcome.disposition], separators=(",", ":")
        ),
    }
