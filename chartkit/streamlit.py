"""Show a View inside any Streamlit app — an agent's chat message, a dashboard, the explorer.

``show(result)`` renders what chartkit made of a tool result: the check's findings (each with
its full message, the ceiling included) or the refusal, the chart with a line per encoding
saying where its type came from, or the table with the reason, then the notes and the refused
axes with the ``ColumnViolation`` behind each. The explorer uses this same function, so there
is one rendering.

Everything that comes from the tool — names, values, descriptions, the sentences that quote
them — is shown as text: it passes through ``markdown_literal`` before it reaches Streamlit's
Markdown, so no link, image, HTML, KaTeX or emphasis in the data can form.

Needs the ``app`` extra: ``pip install 'chartkit[app]'``.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal

from chartkit.errors import MissingExtraError

try:
    import streamlit as st
except ImportError as exc:  # pragma: no cover - exercised by a test that hides streamlit
    raise MissingExtraError(
        "chartkit.streamlit needs Streamlit, which is not installed; install it with "
        "pip install 'chartkit[app]'"
    ) from exc

from chartkit._literal import markdown_literal as md
from chartkit._literal import visible_frame
from chartkit.check.judge import ColumnViolation
from chartkit.check.outcome import CheckMode, CheckOutcome
from chartkit.messages import COLUMN_TYPE_CEILING, offenders_text, render_sample, unarmed_sentence
from chartkit.result import ToolResult
from chartkit.views import View, view

if TYPE_CHECKING:
    from chartkit.selection import Selection

__all__ = [
    "BRUSH",
    "MARK",
    "encoding_lines",
    "refusal_lines",
    "selectable_spec",
    "selection_of",
    "show",
    "show_check",
    "violation_line",
]

MARK = "chartkit_mark"
"""The chart's point selection: a click on a mark (its fields, as the chart's records hold them)."""
BRUSH = "chartkit_brush"
"""The chart's interval selection: a drag across a continuous x (or x and y) axis."""

Renderer = Literal["svg", "canvas"]


def show(
    view_or_result: View | ToolResult | Any,
    result_columns: Mapping[str, Any] | None = None,
    *,
    tool: str | None = None,
    mode: CheckMode = "warn",
    x: str | None = None,
    y: str | None = None,
    color: str | None = None,
    check: bool = True,
    table: bool = True,
    details: bool = True,
    max_table_rows: int = 1000,
    renderer: Renderer | None = "svg",
    key: str | None = None,
    on_select: bool = False,
) -> View:
    """Render a View in the current Streamlit container and return it.

    ``view_or_result`` is a ``View``, or a ``ToolResult`` / rows (list of dicts or a
    dataframe), which are first made into one with ``chartkit.view`` (``result_columns``,
    ``tool``, ``mode``, ``x``, ``y`` and ``color`` are passed on; they are ignored for a
    View). ``check=False`` leaves the findings out (for a page that shows them elsewhere);
    ``table=False`` leaves out the rows of a table view (its reason is always shown), and
    ``max_table_rows`` caps them; ``details=False`` leaves out the notes and refused axes
    (for a page that shows them with the findings, column by column); ``renderer`` asks
    vega-embed for SVG (the default, so marks are elements on the page) or canvas.
    ``on_select=True`` makes the chart's marks clickable and its continuous axes brushable
    (``selectable_spec``) and reruns the app on a selection; read it with
    ``selection_of(view, st.session_state[key])`` (a ``key`` is then required).

    Inside an agent chat::

        with st.chat_message("assistant"):
            chartkit.streamlit.show(tool_result, mode="warn")
    """
    if isinstance(view_or_result, View):
        shown = view_or_result
    else:
        shown = view(view_or_result, result_columns, tool=tool, mode=mode, x=x, y=y, color=color)
    if check:
        show_check(shown.check, refusal=False)
    if shown.kind == "refused":
        st.error(md(shown.reason))
    elif shown.kind == "chart" and shown.spec is not None:
        spec = _with_renderer(selectable_spec(shown) if on_select else shown.spec, renderer)
        spec = {k: v for k, v in spec.items() if k != "description"}  # said once, as alt:
        if on_select and _selections(spec):
            if key is None:
                raise ValueError("show(..., on_select=True) needs a key to read the selection by")
            st.vega_lite_chart(
                spec=spec, key=key, width="stretch", alt=shown.reason, on_select="rerun",
                selection_mode=_selections(spec),
            )  # fmt: skip
        else:
            st.vega_lite_chart(spec=spec, key=key, width="stretch", alt=shown.reason)
        lines = encoding_lines(shown)
        if lines:
            st.markdown("\n".join(f"- {line}" for line in lines))
    else:
        st.info(md(shown.reason))
        if table and shown.frame is not None:
            frame = shown.frame
            if len(frame) > max_table_rows:
                st.caption(f"The first {max_table_rows:,} of {len(frame):,} rows.")
                frame = frame.head(max_table_rows)
            st.dataframe(
                visible_frame(frame), hide_index=True, key=None if key is None else f"{key}-table"
            )
    if details:
        for note in shown.notes:
            st.caption(md(note))
        for line in refusal_lines(shown):
            st.warning(line)
    return shown


def show_check(outcome: CheckOutcome, *, refusal: bool = True) -> None:
    """Render what the dial did: each finding with its kind, column and full message.

    With no findings on an armed check, say so — and say the ceiling, because a clean check
    is exactly where a reader is tempted to believe more than the check can see. With
    ``refusal`` the enforce refusal sentence is shown as an error first.
    """
    if refusal and outcome.refusal is not None:
        st.error(md(outcome.refusal))
    if not outcome.armed:
        st.caption(unarmed_sentence(outcome.mode))
        return
    if not outcome.findings:
        st.success("No findings: every declared column holds its declared type in every row.")
        st.info(f"That is all the check can say. {COLUMN_TYPE_CEILING}")
        return
    for finding in outcome.findings:
        listed = offenders_text(finding.violation)
        st.warning(
            f"**{finding.kind}** · {md(finding.column)}\n\n{md(finding.message)}"
            + (f"\n\n**Offending values** · {md(listed)}" if listed else "")
        )


def encoding_lines(shown: View) -> list[str]:
    """One line per encoding: its channel, column, and where its type came from.

    ``x · timestamp — declared date → temporal``, ``color · region — inferred nominal — not
    declared``. Markdown: the column name is escaped, the channel bold.
    """
    declared = shown.result.result_columns or {}
    out: list[str] = []
    for channel, enc in shown.encodings.items():
        what = f"{enc.aggregate} of {enc.column}" if enc.aggregate else enc.column
        if enc.bin:
            what += " (binned)"
        decl = declared.get(enc.column)
        if enc.source == "declared" and decl is not None:
            where = f"declared {decl.type} → {enc.type}"
        elif enc.source == "declared":
            where = f"declared → {enc.type}"
        else:
            where = f"inferred {enc.type} — not declared"
        out.append(f"**{channel}** · {md(what)} — {where}")
    return out


def refusal_lines(shown: View) -> list[str]:
    """One line per refused axis: channel, column, reason, and the violation behind it.

    Markdown: everything from the data is escaped, the channel bold.
    """
    out: list[str] = []
    for refused in shown.refusals:
        line = f"**{refused.channel}** refused {md(refused.column)}: {md(refused.reason)}"
        if refused.violation is not None:
            line += f"\n\n{md(violation_line(refused.violation))}"
            if listed := offenders_text(refused.violation):
                line += f" · offending values: {md(listed)}"
        out.append(line)
    return out


def violation_line(v: ColumnViolation) -> str:
    """A ColumnViolation for people: column, declared type, first offender, affected/total.

    Plain text (escape it before it reaches Markdown).

    >>> from chartkit.violations import ColumnViolation
    >>> print(violation_line(ColumnViolation("column-type-mismatch", "lun", "number", False, "",
    ...                                      "string", 166, 2056)))
    Column 'lun' · declared number · first offender "" (string) · 166 of 2,056 rows affected
    """
    declared = f"{v.declared}, nullable" if v.nullable else v.declared
    if v.kind == "missing-column":
        return f"Column {v.column!r} · declared {declared} · in none of the {v.total:,} rows"
    if v.sample_type in ("null", "absent"):
        first = f"nothing ({v.sample_type})"
    else:
        first = f"{render_sample(v.sample)} ({v.sample_type})"
    return (
        f"Column {v.column!r} · declared {declared} · first offender {first} · "
        f"{v.affected:,} of {v.total:,} rows affected"
    )


def selectable_spec(shown: View) -> dict[str, Any]:
    """The view's spec with the selections a front end reports.

    ``MARK``: a click on a bar, a point or a cell, projected on every field of the chart's
    records, so the datum names its mark exactly (a line is one path per series, so a line
    chart has none: brush it). ``BRUSH``: a drag across the continuous, unaggregated x axis —
    and y too when x is a number (a scatter, a heatmap) — never across a bar chart's
    categories. A faceted chart gets them in its cell. The fields are the spec's own (``View``
    renames every tool column to a safe field), so no name from the data is written.
    """
    if shown.spec is None:
        raise ValueError(f"a {shown.kind} view has no chart to select on")
    out = copy.deepcopy(shown.spec)
    unit = out["spec"] if isinstance(out.get("spec"), dict) else out
    params: list[dict[str, Any]] = []
    if shown.mark != "line":
        records = _records(out)
        fields = list(dict.fromkeys(str(k) for rec in records[:1] for k in rec))
        params.append({"name": MARK, "select": {"type": "point", "fields": fields}})

    def continuous(channel: str) -> bool:
        enc = shown.encodings.get(channel)
        return (
            enc is not None
            and bool(enc.field)
            and enc.aggregate is None
            and not enc.measures
            and enc.type in ("quantitative", "temporal")
        )

    brushed = ["x"] if continuous("x") else []
    if brushed and shown.encodings["x"].type == "quantitative" and continuous("y"):
        brushed.append("y")
    if brushed:
        params.append({"name": BRUSH, "select": {"type": "interval", "encodings": brushed}})
    have = {p.get("name") for p in unit.get("params", [])}  # the chart's own MARK (charts.SELECTED)
    unit["params"] = [*unit.get("params", []), *(p for p in params if p["name"] not in have)]
    return out


def selection_of(shown: View, state: Any) -> Selection | None:
    """The ``Selection`` a chart shown with ``on_select=True`` reports (its Streamlit state,
    ``st.session_state[key]``): the brushed interval when there is one, else the clicked mark,
    else None. A datum or an interval that names no mark of ``shown`` raises ``ChartkitError``.
    """
    from chartkit.selection import Selection

    selection = _get(state, "selection") or {}
    brush = _get(selection, BRUSH) or {}
    if isinstance(brush, Mapping) and brush:
        return Selection.from_interval(shown, {str(k): v for k, v in brush.items()})
    points = _get(selection, MARK) or []
    if isinstance(points, list) and points and isinstance(points[0], Mapping):
        return Selection.from_datum(shown, dict(points[0]))
    return None


def _get(state: Any, name: str) -> Any:
    """A field of Streamlit's selection state (a read-only dict that also reads as attributes)."""
    if isinstance(state, Mapping):
        return state.get(name)
    return getattr(state, name, None)


def _records(spec: Mapping[str, Any]) -> list[Any]:
    data = spec.get("data") or {}
    if isinstance(data, Mapping) and "values" in data:
        return list(data["values"])
    name = data.get("name") if isinstance(data, Mapping) else None
    return list((spec.get("datasets") or {}).get(name, []))


def _selections(spec: Mapping[str, Any]) -> list[str]:
    unit = spec["spec"] if isinstance(spec.get("spec"), dict) else spec
    return [p["name"] for p in unit.get("params", []) if p.get("name") in (MARK, BRUSH)]


def _with_renderer(spec: Mapping[str, Any], renderer: Renderer | None) -> dict[str, Any]:
    """The spec with ``usermeta.embedOptions.renderer`` set (vega-embed reads it)."""
    out = dict(spec)
    if renderer is None:
        return out
    usermeta = copy.deepcopy(dict(out.get("usermeta") or {}))
    embed = dict(usermeta.get("embedOptions") or {})
    embed.setdefault("renderer", renderer)
    usermeta["embedOptions"] = embed
    out["usermeta"] = usermeta
    return out
