"""How a View shows itself in Jupyter: the Vega-Lite mime type, a PNG fallback, and its words.

A chart is published as ``application/vnd.vegalite.vN+json`` (N from the spec's own
``$schema``) — no script travels with the output, so a notebook holds each chart's spec (its
data already aggregated to at most ``max_points`` rows) and one PNG, not a copy of Vega per
chart. A frontend that renders that version draws the spec; one that does not (JupyterLab 4.6
and Notebook 7.6 register Vega-Lite v3–v5 only, so chartkit's v6 is not theirs; a viewer such
as GitHub) shows the PNG, rendered offline by vl-convert. Both are the exported chart
(``View.exported_spec()``): a chart that leaves rows out says so on the picture, as the title's
subtitle. Nothing needs the network. For tooltips and selections read back in Python,
``chartkit.notebook.widget.ChartWidget`` draws the chart with the Vega bundled in chartkit.

The words — the reason, the findings, the refused axes, the notes — are their own HTML output
after the chart: a bundle holding ``text/html`` beside the Vega-Lite type would make the
frontends show the HTML and never the chart. Every string is escaped.
"""

from __future__ import annotations

import base64
import html
import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Sequence

    from chartkit.check.integrity import CheckOutcome, Finding
    from chartkit.views import View

__all__ = [
    "VEGALITE_MIME_FALLBACK",
    "chart_bundle",
    "ipython_display",
    "mimebundle",
    "outcome_html",
    "vegalite_mime",
    "words",
]

VEGALITE_MIME_FALLBACK = "application/vnd.vegalite.v6+json"
"""The mime type used when a spec's ``$schema`` does not name a Vega-Lite major version."""
_SCHEMA_MAJOR = re.compile(r"/vega-lite/v(\d+)(?:\.[\d.]+)?\.json$")


def vegalite_mime(spec: dict[str, Any]) -> str:
    """``application/vnd.vegalite.v6+json`` for a v6 spec (the major version from ``$schema``).

    >>> vegalite_mime({"$schema": "https://vega.github.io/schema/vega-lite/v5.20.1.json"})
    'application/vnd.vegalite.v5+json'
    """
    found = _SCHEMA_MAJOR.search(str(spec.get("$schema", "")))
    return f"application/vnd.vegalite.v{found.group(1)}+json" if found else VEGALITE_MIME_FALLBACK


def _findings_html(findings: Sequence[Finding], said: str | None) -> list[str]:
    """Each finding's own part (one already ``said`` as the refusal is not said again), then
    the sentences every finding ends with, once."""
    from chartkit.messages import COLUMN_TYPE_CEILING, NOTHING_CHANGED, finding_head

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


def words(view: View) -> str:
    """The reason, findings, refused axes and notes as escaped HTML paragraphs; the refusal
    and the ceiling are said once."""
    lines = [f"<p><b>{html.escape(view.kind)}</b>: {html.escape(view.reason)}</p>"]
    refusal = view.check.refusal if view.kind == "refused" else None
    lines += _findings_html(view.check.findings, refusal)
    lines += [f"<p>Refused {r.channel} axis: {html.escape(r.reason)}</p>" for r in view.refusals]
    lines += [f"<p>Note: {html.escape(n)}</p>" for n in view.notes]
    return "".join(lines)


_DISPOSITION_HEAD = (
    ("check", "the check"),
    ("seam", "where it is checked (write: as the tool's result is written into the run)"),
    ("checked", "results read against their declaration"),
    ("findings", "findings filed"),
    ("not applicable", "results it could not look at (dial off, nothing declared, not rows)"),
)


def outcome_html(outcome: CheckOutcome) -> str:
    """A ``CheckOutcome`` in a notebook (its ``_repr_html_``, ``chartkit.notebook.install``):
    the verdict, the refusal, each finding's own part, the ceiling once, the disposition with
    its words explained; every string escaped."""
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
    lines += _findings_html(outcome.findings, outcome.refusal)
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
    lines.append(f"<table><tr>{head}</tr>{body}</table><p><small>{html.escape(glossary)}</small></p>")
    return "".join(lines)


def _text(view: View) -> str:
    return f"<chartkit View: {view.kind} — {view.reason}>"


def chart_bundle(view: View) -> dict[str, Any]:
    """The chart alone: the Vega-Lite spec under its mime type, a PNG, and a text line.

    Both pictures carry the export caption (``View.exported_spec()``): a chart that leaves rows
    out says so on itself, whichever of the two a frontend shows.
    """
    assert view.spec is not None
    spec = view.exported_spec()
    png = base64.b64encode(view.to_png(scale=1.0)).decode("ascii")
    return {vegalite_mime(spec): spec, "image/png": png, "text/plain": _text(view)}


def mimebundle(view: View) -> dict[str, Any]:
    """One bundle: the chart (for a chart), or the words and the table's first rows."""
    if view.spec is not None:
        return chart_bundle(view)
    body = words(view)
    if view.frame is not None:
        body += _table_html(view)
    return {"text/html": body, "text/plain": _text(view)}


def _table_html(view: View, *, rows: int = 50, columns: int = 30) -> str:
    """The table's first rows as HTML, every cell escaped; a cell whose value the check
    rejects for its declared column is highlighted (``chartkit._highlight``, as in the
    explorer)."""
    from chartkit._highlight import frame_offending_cells, highlighted

    assert view.frame is not None
    frame = view.frame.iloc[:rows, :columns]
    marks = frame_offending_cells(frame, view.result.result_columns)
    styled = (
        highlighted(frame, marks)
        .format(escape="html")
        .format_index(escape="html", axis=0)
        .format_index(escape="html", axis=1)
    )
    return str(styled.to_html())


def ipython_display(view: View) -> None:
    """In IPython: the chart as its own output, then the words as HTML after it."""
    import importlib

    display = importlib.import_module("IPython.display").display  # IPython is not typed

    if view.spec is None:
        display(mimebundle(view), raw=True)
        return
    display(chart_bundle(view), raw=True)
    display({"text/html": words(view), "text/plain": view.reason}, raw=True)
