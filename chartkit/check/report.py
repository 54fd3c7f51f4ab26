"""A check's outcome and its findings as escaped HTML: what a notebook shows for them.

``CheckOutcome._repr_html_`` is this module's ``outcome_html``, so an outcome shows itself
wherever it is displayed, with no surface attaching it; a View's words (the notebook surface)
say their findings with ``findings_html``, the same sentences. Every string is escaped.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import TYPE_CHECKING

from chartkit.messages import COLUMN_TYPE_CEILING, NOTHING_CHANGED, finding_head

if TYPE_CHECKING:
    from chartkit.check.integrity import CheckOutcome, Finding

__all__ = ["findings_html", "outcome_html"]

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
