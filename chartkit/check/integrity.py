"""The dial ``off | warn | enforce``: findings, the delivered payload, and the disposition rows.

``check_result`` arms the check only when both halves are present — a dial other than ``off``
and a declaration. Unarmed, or not a rowset, each check files a not-applicable disposition row
("I could not look"), never a finding ("something was wrong"). Under ``enforce`` a declared
tool's answer that holds something but cannot be read as rows (a stray non-object in the list,
a columnar dict, rows wrapped in ``{"rows": [...]}``, a row with a key that is no string or two
keys JSON writes alike) is refused all the same: the model reads a sentence saying what the
answer was instead, never rows nobody could check. An empty answer is not refused.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field

from chartkit.check.events import publish
from chartkit.check.judge import VIOLATION_KINDS, check_columns
from chartkit.check.outcome import CHECK_MODES, CheckMode, CheckOutcome, DispositionRow, Finding
from chartkit.errors import ChartkitError
from chartkit.messages import (
    COLUMN_TYPE_CEILING,
    finding_message,
    not_rows_sentence,
    refusal_sentence,
    unknown_mode,
)
from chartkit.read.rowset import RowsetReading, describe_keys, describe_unread, read_rowset
from chartkit.result import ToolResult

__all__ = [
    "FINDINGS_MAX",
    "DispositionLedger",
    "check_result",
]

FINDINGS_MAX = 20
"""Findings one check files at most; the last one filed counts the broken columns left."""

logger = logging.getLogger("chartkit.integrity")


def check_result(
    result: ToolResult, *, mode: CheckMode = "off", reading: RowsetReading | None = None
) -> CheckOutcome:
    """Check a tool result under the dial.

    ``reading``, when given, is ``read_rowset(result.rows)`` already made: ``view()`` passes
    its own so the rows are read once for the check and the chart.

    >>> r = ToolResult("host_group_mappings",
    ...     [{"logical_unit_number": "", "host_group": "vdi-a"},
    ...      {"logical_unit_number": 3, "host_group": "vdi-a"}],
    ...     result_columns={"logical_unit_number": "number", "host_group": "string"},
    ...     call_id="call-1")
    >>> out = check_result(r, mode="warn")
    >>> out.status, [f.kind for f in out.findings], out.delivered is r.rows
    ('ok', ['column-type-mismatch'], True)
    """
    if mode not in CHECK_MODES:
        raise ChartkitError(unknown_mode(mode, CHECK_MODES))
    if not isinstance(result, ToolResult):
        raise ChartkitError(
            f"check_result takes a ToolResult, got {type(result).__name__}; wrap rows as "
            "ToolResult(tool, rows, result_columns=...) or read the wire form with "
            "ToolResult.from_wire(payload)"
        )
    given, reading, rows, keys = reading, None, result.rows, None
    if mode != "off" and result.result_columns is not None:
        rows = result.rows_to_check()  # a lone MCP object is one row here
        reading = given if given is not None and rows is result.rows else read_rowset(rows)
        keys = None if reading is None else describe_keys(reading)
        if keys is not None:  # a key no JSON object holds: the model reads other rows
            reading = None
    if reading is None:  # unarmed, or not a rowset: nothing measured
        what = (
            keys or describe_unread(rows)
            if mode == "enforce" and result.result_columns is not None
            else None
        )
        refused = not_rows_sentence(result.tool, what) if what is not None else None
        outcome = CheckOutcome(
            mode=mode,
            status="ok" if refused is None else "invalid",
            delivered=result.rows if refused is None else refused,
            findings=(),
            disposition=tuple(DispositionRow(k, not_applicable=1) for k in VIOLATION_KINDS),
            refusal=refused,
        )
        return publish(result, outcome)  # the two events (chartkit.events)
    assert result.result_columns is not None
    violations = check_columns(reading, result.result_columns)
    now = time.time()
    refusal = (
        refusal_sentence(result.tool, violations) if mode == "enforce" and violations else None
    )
    filed = violations[:FINDINGS_MAX]  # bounded: the rest are counted in the last one
    more = len(violations) - len(filed)
    findings = tuple(
        Finding(
            kind=v.kind,
            tool=result.tool,
            column=v.column,
            call_id=result.call_id,
            message=(
                f"{refusal} {COLUMN_TYPE_CEILING}"
                if refusal is not None
                else finding_message(
                    v,
                    tool=result.tool,
                    call_id=result.call_id,
                    more=more if i == len(filed) - 1 else 0,
                )
            ),
            violation=v,
        )
        for i, v in enumerate(filed)
    )
    for f in findings:
        logger.warning(f.message, extra={"chartkit_finding": f.kind, "chartkit_column": f.column})
    fired = {f.kind for f in findings}
    disposition = tuple(
        DispositionRow(
            k, checked=1, findings=int(k in fired), last_fired_at=now if k in fired else None
        )
        for k in VIOLATION_KINDS
    )
    outcome = CheckOutcome(
        mode=mode,
        status="invalid" if refusal is not None else "ok",
        delivered=refusal if refusal is not None else result.rows,
        findings=findings,
        disposition=disposition,
        violations=violations,
        armed=True,
        refusal=refusal,
    )
    return publish(result, outcome)


@dataclass
class DispositionLedger:
    """Adds up the disposition rows of many outcomes, for a run.

    Safe to share between threads: each ``add`` counts under the ledger's lock, so an agent
    running its tools in parallel gets exact totals.

    >>> ledger = DispositionLedger()
    >>> ledger.add(check_result(ToolResult("t", [{"a": 1}], result_columns={"a": "number"}),
    ...                         mode="warn"))
    >>> [(r.check, r.checked, r.findings) for r in ledger.rows()]
    [('column-type-mismatch', 1, 0), ('missing-column', 1, 0)]
    """

    _totals: dict[str, DispositionRow] = field(default_factory=dict)
    _lock: threading.Lock = field(
        default_factory=threading.Lock, init=False, repr=False, compare=False
    )

    def add(self, outcome: CheckOutcome) -> None:
        """Add one result's disposition rows."""
        with self._lock:
            for row in outcome.disposition:
                had = self._totals.get(row.check, DispositionRow(row.check))
                fired = [t for t in (had.last_fired_at, row.last_fired_at) if t is not None]
                self._totals[row.check] = DispositionRow(
                    row.check,
                    seam=row.seam,
                    checked=had.checked + row.checked,
                    findings=had.findings + row.findings,
                    not_applicable=had.not_applicable + row.not_applicable,
                    last_fired_at=max(fired) if fired else None,
                )

    def rows(self) -> tuple[DispositionRow, ...]:
        """One summed row per check, in the checks' fixed order."""
        with self._lock:
            return tuple(self._totals.get(k, DispositionRow(k)) for k in VIOLATION_KINDS)
