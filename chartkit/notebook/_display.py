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

from chartkit.check.outcome import findings_html

if TYPE_CHECKING:
    from chartkit.views import View

__all__ = [
    "VEGALITE_MIME_FALLBACK",
    "chart_bundle",
    "ipython_display",
    "mimebundle",
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


def words(view: View) -> str:
    """The reason, findings, refused axes and notes as escaped HTML paragraphs; the refusal
    and the ceiling are said once."""
    lines = [f"<p><b>{html.escape(view.kind)}</b>: {html.escape(view.reason)}</p>"]
    refusal = view.check.refusal if view.kind == "refused" else None
    lines += findings_html(view.check.findings, refusal)
    lines += [f"<p>Refused {r.channel} axis: {html.escape(r.reason)}</p>" for r in view.refusals]
    lines += [f"<p>Note: {html.escape(n)}</p>" for n in view.notes]
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
