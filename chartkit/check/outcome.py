"""What one check of a result is: its findings, disposition rows and outcome, as values.

``check_result`` (``chartkit.check.integrity``) makes them; events publish them; every surface
reads them. An outcome shows itself as escaped HTML wherever it is displayed
(``CheckOutcome._repr_html_`` is ``outcome_html``), and a View's words say their findings with
``findings_html``, the same sentences. Every string is escaped.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, get_args

from chartkit.check.judge import ColumnViolation, ViolationKind
from chartkit.messages import COLUMN_TYPE_CEILING, NOTHING_CHANGED, finding_head

__all__ = [
    "CHECK_MODES",
    "CheckMode",
    "CheckOutcome",
    "DispositionRow",
    "Finding",
    "findings_html",
    "outcome_html",
]

CheckMode = Literal["off", "warn", "enforce"]
CHECK_MODES: tuple[CheckMode, ...] = get_args(CheckMode)


@dataclass(frozen=True, slots=True)
class Finding:
    """One filed finding: what kind, about which tool, column and call, and the full message."""

    kind: ViolationKind
    tool: str
    column: str
    call_id: str | None
    message: str
    violation: ColumnViolation

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, camelCase like the wire form."""
        return {
            "kind": self.kind,
            "tool": self.tool,
            "column": self.column,
            "callId": self.call_id,
            "message": self.message,
            "violation": self.violation.to_dict(),
        }


@dataclass(frozen=True, slots=True)
class DispositionRow:
    """One check's record for a result (or, added up, for a run)."""

    check: ViolationKind
    seam: Literal["write"] = "write"
    checked: int = 0
    findings: int = 0
    not_applicable: int = 0
    last_fired_at: float | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, camelCase like the wire form."""
        return {
            "check": self.check,
            "seam": self.seam,
            "checked": self.checked,
            "findings": self.findings,
            "notApplicable": self.not_applicable,
            "lastFiredAt": self.last_fired_at,
        }


@dataclass(frozen=True, eq=False)
class CheckOutcome:
    """What the dial did to one result.

    ``delivered`` is what the model reads: the very rows object (``off``, ``warn``, clean
    ``enforce``) or the refusal sentence (``enforce`` with violations).
    """

    mode: CheckMode
    status: Literal["ok", "invalid"]
    delivered: Any
    findings: tuple[Finding, ...]
    disposition: tuple[DispositionRow, ...]
    violations: tuple[ColumnViolation, ...] = ()
    armed: bool = False
    refusal: str | None = None

    def __repr__(self) -> str:
        """A short line (never the rows): what the dial did, the counts.

        In a notebook an outcome shows as HTML (``_repr_html_``)."""
        return (
            f"CheckOutcome(mode={self.mode!r}, status={self.status!r}, armed={self.armed}, "
            f"findings={len(self.findings)}, refused={self.refused})"
        )

    def _repr_html_(self) -> str:
        """The outcome as escaped HTML, for a notebook (``outcome_html``)."""
        return outcome_html(self)

    @property
    def refused(self) -> bool:
        """True when enforce refused the rows (``delivered`` is the refusal sentence)."""
        return self.refusal is not None


_DISPOSITION_HEAD = (
    ("check", "the check"),
    ("seam", "where it is checked (write: as the tool's result is written into the run)"),
    ("checked", "results read against their declaration"),
    ("findings", "findings filed"),
    ("not applicable", "results it could not look at (dial off, nothing declared, not rows)"),
)


def findings_html(findings: Sequence[Finding], said: str | None) -> list[str]:
    """Each finding's own part as a paragraph, then the sentences every finding ends with, once.

    A finding that begins with what was already ``said`` (the refusal) is not said again.
    """
    lines: list[str] = []
    for f in findings:
        own = finding_head(f.message)
        if said is None or not own.startswith(said):
            lines.append(f"<p>⚠ {html.escape(own)}</p>")
    ends = [
        s for s in (COLUMN_TYPE_CEILING, NOTHING_CHANGED) if any(s in f.message for f in findings)
    ]
    if ends:
        lines.append(f"<p><i>Every finding: {html.escape(' '.join(ends))}</i></p>")
    return lines


def outcome_html(outcome: CheckOutcome) -> str:
    """The verdict, the refusal, each finding's own part, the ceiling once, and the disposition
    with its words explained."""
    found = len(outcome.findings)
    if outcome.refused:
        verdict = f"refused under {outcome.mode}"
    elif found:
        verdict = f"{found} finding{'' if found == 1 else 's'} under {outcome.mode}"
    elif outcome.armed:
        verdict = f"clean under {outcome.mode}: each declared column holds its declared type"
    else:
        verdict = "not checked: the dial is off, nothing is declared, or the result is not rows"
    lines = [f"<p><b>{html.escape(verdict)}</b></p>"]
    if outcome.refusal is not None:
        lines.append(f"<p>{html.escape(outcome.refusal)}</p>")
    lines += findings_html(outcome.findings, outcome.refusal)
    head = "".join(
        f'<th title="{html.escape(gloss)}">{html.escape(name)}</th>'
        for name, gloss in _DISPOSITION_HEAD
    )
    body = "".join(
        f"<tr><td>{html.escape(d.check)}</td><td>{html.escape(d.seam)}</td>"
        f"<td>{d.checked}</td><td>{d.findings}</td><td>{d.not_applicable}</td></tr>"
        for d in outcome.disposition
    )
    glossary = "; ".join(f"{name}: {gloss}" for name, gloss in _DISPOSITION_HEAD[1:])
    lines.append(
        f"<table><tr>{head}</tr>{body}</table><p><small>{html.escape(glossary)}</small></p>"
    )
    return "".join(lines)
