"""``view()`` and ``View``: the one public entry from a tool result to a chart or a table.

A View is what the explorer, notebooks, the CLI and agent UIs read: the kind (chart, table or
refused), one sentence saying why, the encodings with where each type came from, the refused
axes with the ``ColumnViolation`` behind each, notes on what the chart does not show as-is,
and the check's outcome under the dial.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import pandas as pd

from chartkit._safe import NAME_MAX_CHARS, cap_names, cap_text, visible
from chartkit.backends import Source, source_for
from chartkit.check.integrity import check_result
from chartkit.check.judge import ColumnViolation, check_columns
from chartkit.check.outcome import CheckMode, CheckOutcome
from chartkit.draw.caption import caption_lines
from chartkit.draw.charts import (
    build_chart,
    chart_spec,
    drawn_mark,
    spec_to_html,
    spec_to_png,
    spec_to_svg,
)
from chartkit.draw.table_export import Table, table_html, table_of, table_png, table_svg
from chartkit.errors import ChartkitError
from chartkit.messages import render_sample
from chartkit.plan.decide import ChartOptions, Plan, check_choose, chosen_alternative, plan_view
from chartkit.plan.encode import AxisRefusal, Encoding
from chartkit.plan.rules import Alternative
from chartkit.plan.sentences import (
    log_not_kept_note,
    not_rows_reason,
    overflow_note,
    zero_not_applied_note,
)
from chartkit.plan.spec import Note, Reduction
from chartkit.read.rowset import read_rowset
from chartkit.result import ToolResult

if TYPE_CHECKING:
    import altair as alt

    from chartkit.selection import RowsPage, Selection

DEFAULT_PAGE_SIZE = 50  # chartkit.selection.DEFAULT_PAGE_SIZE

__all__ = ["SAVE_FORMATS", "View", "ViewKind", "ViewState", "view"]

ViewKind = Literal["chart", "table", "refused"]
ViewState = Literal["ok", "rows left out", "refused axes", "refused"]
"""What a UI says about a view, in one word: follows the refusals and the rows left out."""
SAVE_FORMATS = (".png", ".svg", ".html", ".json")
PAYLOAD_VERSION = 1


@dataclass(frozen=True, eq=False)
class View:
    """A tool result as chartkit shows it. Build one with ``view()``."""

    kind: ViewKind
    reason: str
    result: ToolResult
    check: CheckOutcome
    mark: str | None = None
    encodings: Mapping[str, Encoding] = field(default_factory=dict)
    refusals: tuple[AxisRefusal, ...] = ()
    notes: tuple[str, ...] = ()
    chart: alt.Chart | alt.FacetChart | None = field(default=None, repr=False)
    spec: dict[str, Any] | None = field(default=None, repr=False)
    """The chart's Vega-Lite spec, as every host and export draws it: the ``caption`` is on
    it (the title's subtitle), and its marks are selected by a click (``SELECTED``)."""
    frame: pd.DataFrame | None = field(default=None, repr=False)
    alternatives: tuple[Alternative, ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)
    left_out: int = 0
    facts: tuple[Note, ...] = ()
    """The plan's notes as values (kind, column, counts, sentence): what a UI reads to place
    a note beside its column, instead of searching the English of ``notes``."""
    marks: pd.DataFrame | None = field(default=None, repr=False)
    """The chart's marks at full precision, one row each (the spec's records round numbers)."""
    reduction: Reduction = field(default_factory=Reduction)
    """What the rows were reduced to before drawing: the time bucket, the bins, the top-N."""
    drawn: Mapping[str, Any] = field(default_factory=dict)
    """The columns the chart was drawn from, by channel (x, y, color, facet) — including one it
    reduced by but does not show (a heatmap's color or facet), so a selection places them too."""
    violations: tuple[ColumnViolation, ...] | None = field(default=None, repr=False)
    """The check's violations the chart was planned with, every declared column judged (None
    when not known here: rows an engine reduced); a column with none offends in no row."""
    caption: tuple[str, ...] = ()
    """What the chart says on itself (the title's subtitle, in ``chart`` and ``spec`` and so in
    every export and host): the rows the chart leaves out and why, the categories or measures
    it leaves out, and the flagged columns it reads or does not draw; empty when it places
    every row and the check flagged nothing."""

    @property
    def state(self) -> ViewState:
        """``refused`` (under enforce), ``refused axes`` (an axis was refused), ``rows left
        out`` (the chart does not place every row), or ``ok`` — the status a UI shows."""
        if self.kind == "refused":
            return "refused"
        if self.refusals:
            return "refused axes"
        if self.kind == "chart" and self.left_out:
            return "rows left out"
        return "ok"

    # -- exports ------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serializable payload for agent UIs; no row data when refused.

        Its ``spec`` is ``exported_spec()``: the caption (rows left out, flagged columns) is on
        the chart every host draws from it, as on ``spec`` itself. ``facts`` carries the plan's
        notes as values (kind, column, counts, sentence), so a UI places a note by its fields,
        never by its English.
        Its JSON Schema is ``chartkit.view_payload_schema()``.
        """
        long = _long_names(self)
        return {
            "version": PAYLOAD_VERSION,
            "kind": self.kind,
            "reason": self.reason,
            "tool": self.result.tool,
            "callId": self.result.call_id,
            "mode": self.check.mode,
            "status": self.check.status,
            "mark": self.mark,
            "encodings": {
                ch: {
                    "column": e.column,
                    "type": e.type,
                    "source": e.source,
                    "aggregate": e.aggregate,
                    "bin": e.bin,
                    "field": e.field,
                    "title": e.title,
                    "description": cap_names(e.describe(), long),
                }
                for ch, e in self.encodings.items()
            },
            "refusals": [
                {
                    "column": r.column,
                    "channel": r.channel,
                    "reason": r.reason,
                    "violation": r.violation.to_dict() if r.violation else None,
                }
                for r in self.refusals
            ],
            "notes": list(self.notes),
            "facts": [n.to_dict() for n in self.facts],
            "findings": [f.to_dict() for f in self.check.findings],
            "disposition": [d.to_dict() for d in self.check.disposition],
            "spec": self.exported_spec() if self.spec is not None else None,
            "options": dict(self.options),
            "alternatives": [a.to_dict() for a in self.alternatives],
            "state": self.state,
            "leftOut": self.left_out,
            "drill": _drill(self),
        }

    def to_json(self, **kwargs: Any) -> str:
        """``to_dict()`` as JSON text."""
        return json.dumps(self.to_dict(), ensure_ascii=False, **kwargs)

    def _need_spec(self, what: str) -> dict[str, Any]:
        if self.spec is None:
            state = "was refused" if self.kind == "refused" else "is a table"
            hint = " (save the table as .png, .svg or .html)" if self.kind == "table" else ""
            raise ChartkitError(f"this view {state}, so there is no {what}{hint}: {self.reason}")
        return self.spec

    def _table(self) -> Table:
        return table_of(self.reason, self.frame, self.result.result_columns)

    def exported_spec(self) -> dict[str, Any]:
        """The Vega-Lite spec as every export writes it: a copy of ``spec``, the ``caption`` on it.

        An exported file travels without the notes, so what the chart leaves out is said on
        the image itself (the title's subtitle), not only in ``notes``.
        """
        return copy.deepcopy(self._need_spec("spec"))

    def to_png(self, *, scale: float = 2.0) -> bytes:
        """The chart as PNG bytes, rendered offline (the caption on it); a table view's rows as
        a table under its reason."""
        if self.kind == "table":
            return table_png(self._table(), scale=scale)
        return spec_to_png(self._need_spec("PNG"), scale=scale)

    def to_svg(self) -> str:
        """The chart as SVG text, rendered offline (the caption on it); a table view's rows as
        a table under its reason."""
        if self.kind == "table":
            return table_svg(self._table())
        return spec_to_svg(self._need_spec("SVG"))

    def to_html(self) -> str:
        """The chart as a self-contained HTML page that works offline (the caption on it); a
        table view's rows as an HTML table under its reason."""
        if self.kind == "table":
            return table_html(self._table(), f"{self.result.tool}: a table, not a chart")
        return spec_to_html(self._need_spec("HTML page"))

    def save(self, path: str | Path) -> Path:
        """Save the chart by suffix: ``.png``, ``.svg``, ``.html`` (offline) or ``.json`` (spec).

        A table view saves its rows as a table (``.png``, ``.svg``, ``.html``) under its reason;
        it has no Vega-Lite spec, so ``.json`` raises. A refused view has nothing to save.
        """
        target = Path(path)
        suffix = target.suffix.lower()
        if suffix not in SAVE_FORMATS:
            raise ChartkitError(
                f"cannot save {target.name!r}: the suffix {suffix or '(none)'!r} is not one of "
                f"{', '.join(SAVE_FORMATS)}"
            )
        if suffix == ".png":
            target.write_bytes(self.to_png())
        elif suffix == ".svg":
            target.write_text(self.to_svg(), encoding="utf-8")
        elif suffix == ".html":
            target.write_text(self.to_html(), encoding="utf-8")
        else:
            target.write_text(json.dumps(self.exported_spec(), indent=2), encoding="utf-8")
        return target

    def rows_behind(
        self, selection: Selection, *, page: int = 0, page_size: int = DEFAULT_PAGE_SIZE
    ) -> RowsPage:
        """One page of the rows behind a mark, a brush or the rows left out, offenders marked
        (``chartkit.selection``); evaluated where the rows are, in memory or in the engine."""
        from chartkit.selection import rows_behind

        return rows_behind(self, selection, page=page, page_size=page_size)

    def drill(self, selection: Selection, *, max_points: int = 5000) -> View:
        """A view of just the rows behind ``selection``, drawn as this one was (the same
        declaration, dial, picks and scale) and reduced again over those rows: a brushed range
        charted anew (``chartkit.selection.drill``). An axis this chart put on a log scale by
        the rule stays on one, or a note says why not."""
        from chartkit.selection import drill_inputs

        data, picks, chart, logged = drill_inputs(self, selection)

        def options() -> ChartOptions:
            return replace(ChartOptions.make(**chart), log_columns=logged)

        result = replace(self.result, rows=data)
        drilled = _made(result, None, self.result.tool, self.check.mode, picks, max_points,
                        options)  # fmt: skip
        return _log_not_kept(drilled, logged)

    # -- notebooks ----------------------------------------------------------------------

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        """Jupyter: the chart as Vega-Lite (its mime type) with a PNG fallback, or the table."""
        from chartkit.notebook._display import mimebundle

        return mimebundle(self)

    def _ipython_display_(self) -> None:
        """IPython: the chart, then the reason, findings and notes as an output of their own."""
        from chartkit.notebook._display import ipython_display

        ipython_display(self)


def view(
    data: object,
    result_columns: object = None,
    *,
    tool: str | None = None,
    mode: CheckMode = "warn",
    x: str | None = None,
    y: str | list[str] | None = None,
    color: str | None = None,
    facet: str | None = None,
    aggregate: str | None = None,
    time_unit: str | None = None,
    sort: str | list[Any] | None = None,
    scale: str | None = None,
    format: str | None = None,
    zero: bool | None = None,
    choose: int | None = None,
    max_points: int = 5000,
) -> View:
    """Check a tool result, then chart it from its declared types (or say why a table).

    ``data`` is a ``ToolResult``, a list of dicts or a dataframe; ``result_columns``, when
    given, is the declaration to use (it replaces a ToolResult's own). ``x``, ``y`` and
    ``color`` are your picks of columns (``y`` may list several measures); without them
    chartkit chooses. ``facet`` draws one small chart per value of a string or boolean column;
    ``aggregate`` (sum, mean, median, min, max, count), ``time_unit`` (minute … year),
    ``sort`` ("-y", "y", "x", "-x" or a list of values), ``scale`` ("linear", "log"),
    ``format`` (a d3-format string) and ``zero`` (True: the measure axis of a line or a scatter
    starts at zero; False: it spans the values; None: chartkit decides, and bars always start
    at zero) say how; ``choose=N`` draws the view's Nth alternative.

    >>> v = view([{"host_group": "vdi-a", "lun": ""}, {"host_group": "vdi-a", "lun": 3},
    ...           {"host_group": "vdi-b", "lun": 1}],
    ...          {"host_group": "string", "lun": "number"}, tool="mappings")
    >>> v.kind, v.mark, v.encodings["y"].type, v.encodings["y"].source
    ('chart', 'bar', 'quantitative', 'declared')
    >>> v.notes[0]
    '1 of 3 rows are left out of the y axis: lun is declared number and they hold string \
(first: ""). Nothing was converted.'

    Whatever the rows, the declaration or the picks, the only error raised is a
    ``ChartkitError``: a failure chartkit did not foresee is wrapped in one that names it.
    """

    def options() -> ChartOptions:
        return ChartOptions.make(
            aggregate=aggregate, time_unit=time_unit, sort=sort, scale=scale, format=format,
            zero=zero,
        )  # fmt: skip

    picks = {"x": x, "y": y, "color": color, "facet": facet, "choose": choose}
    return _made(data, result_columns, tool, mode, picks, max_points, options)


def _made(
    data: object,
    result_columns: object,
    tool: str | None,
    mode: CheckMode,
    picks: Mapping[str, Any],
    max_points: int,
    options: Callable[[], ChartOptions],
) -> View:
    """``view()`` with its chart options made by ``options()`` (``View.drill`` adds the log
    axes it keeps), under the one guard that makes every error a ``ChartkitError``."""
    try:
        chart_args: dict[str, Any] = {
            "facet": picks.get("facet"), "choose": picks.get("choose"), "options": options()
        }  # fmt: skip
        x, y, color = picks.get("x"), picks.get("y"), picks.get("color")
        return _bounded(
            _view(data, result_columns, tool, mode, x, y, color, max_points, chart_args)
        )
    except ChartkitError:
        raise
    except BaseException as exc:  # the last resort; real causes are fixed upstream
        if not isinstance(exc, Exception) and type(exc).__name__ != "PanicException":
            raise  # KeyboardInterrupt, SystemExit: not ours to turn into an error
        # (a Rust library's panic surfaces as pyo3's PanicException, a BaseException)
        what = cap_text(visible(f"{type(exc).__name__}: {exc}"), 300)
        raise ChartkitError(
            f"chartkit could not build a view of this result ({what}); this is a bug in "
            "chartkit — please report it with the declaration and a few of the rows"
        ) from exc


def _log_not_kept(drilled: View, logged: tuple[str, ...]) -> View:
    """A drilled view that says which of its parent's log axes it does not keep, and why."""
    if drilled.kind != "chart" or not logged:
        return drilled
    kept = {n.column for n in drilled.facts if n.kind == "log-scale"}
    added: list[Note] = []
    for name in logged:
        if name in kept:
            continue
        enc = next((e for e in drilled.encodings.values() if e.column == name), None)
        why = (
            "it is on no axis of it" if enc is None
            else "its bins are linear" if enc.bin
            else "a log scale is chosen for a scatter's axes only" if drilled.mark != "point"
            else "a value drawn is zero or negative"
        )  # fmt: skip
        added.append(log_not_kept_note(name, drilled.mark, why))
    if not added:
        return drilled
    return _bounded(replace(drilled, notes=(*drilled.notes, *(n.sentence for n in added)),
                            facts=(*drilled.facts, *added)))  # fmt: skip


def _drill(v: View) -> dict[str, Any] | None:
    """How a front end asks for the rows behind a mark (``chartkit.selection``)."""
    from chartkit.selection import drill_payload

    return drill_payload(v)


def _bounded(v: View) -> View:
    """The view with every column name its sentences quote cut at ``NAME_MAX_CHARS``.

    Reasons, notes, axis refusals and the alternatives' reasons are written with the names as
    they are; this one pass bounds them (``chartkit._safe.cap_names``), so a name of a few
    characters reads as before and a 5 MB one cannot make a 5 MB sentence.
    """
    names = _long_names(v)
    if not names:
        return v
    return replace(
        v,
        reason=cap_names(v.reason, names),
        notes=tuple(cap_names(n, names) for n in v.notes),
        facts=tuple(replace(n, sentence=cap_names(n.sentence, names)) for n in v.facts),
        refusals=tuple(replace(r, reason=cap_names(r.reason, names)) for r in v.refusals),
        alternatives=tuple(replace(a, reason=cap_names(a.reason, names)) for a in v.alternatives),
    )


def _long_names(v: View) -> set[str]:
    """The column names of the view longer than ``NAME_MAX_CHARS``: those a sentence cuts."""
    names = {
        *map(str, v.result.result_columns or ()),
        *(e.column for e in v.encodings.values()),
        *(r.column for r in v.refusals),
        *(str(c) for c in (v.frame.columns if v.frame is not None else ())),
    }
    return {n for n in names if len(n) > NAME_MAX_CHARS}


def _view(
    data: object,
    result_columns: object,
    tool: str | None,
    mode: CheckMode,
    x: str | None,
    y: str | list[str] | None,
    color: str | None,
    max_points: int,
    chart_args: Mapping[str, Any],
) -> View:
    """The one pipeline of ``view()``, for rows and engine frames alike: the rows read once
    and their ``Source`` picked at the door (``source_for``: in memory, or one query backend),
    then the check of that source's reading, then ``_charted``."""
    result = _as_result(data, result_columns, tool)
    source = source_for(read_rowset(result.rows), result.result_columns, max_points)
    outcome = check_result(result, mode=mode, reading=None if source is None else source.reading)
    if outcome.refused:
        assert outcome.refusal is not None
        return View(kind="refused", reason=outcome.refusal, result=result, check=outcome)
    if source is None:
        return View(
            kind="table",
            result=result,
            check=outcome,
            reason=not_rows_reason(result.tool, _describe(result.rows)),
        )
    declaration = result.result_columns
    if outcome.armed:
        violations = outcome.violations
    elif declaration is not None:
        violations = check_columns(source.reading, declaration)  # dial off: axes still honest
    else:
        violations = ()
    picks = {"x": x, "y": y, "color": color}
    if chart_args.get("choose") is not None and not source.plans_choose:
        # the Nth alternative of the same call, planned with its own picks (a source that
        # refuses by the picks is asked them)
        choose = check_choose(chart_args["choose"])
        args = {**chart_args, "choose": None}
        first = _charted(source, result, outcome, violations, picks, max_points, args)
        alt = chosen_alternative(choose, first.alternatives)
        chosen = alt.picks()
        opts = args.get("options") or ChartOptions()
        args["options"] = replace(opts, aggregate=alt.aggregate or opts.aggregate)
        args["facet"] = chosen.get("facet")
        picks = {"x": chosen.get("x"), "y": chosen.get("y"), "color": chosen.get("color")}
        return _charted(source, result, outcome, violations, picks, max_points, args)
    return _charted(source, result, outcome, violations, picks, max_points, chart_args)


def _charted(
    source: Source,
    result: ToolResult,
    outcome: CheckOutcome,
    violations: tuple[ColumnViolation, ...],
    picks: Mapping[str, Any],
    max_points: int,
    chart_args: Mapping[str, Any],
) -> View:
    """The View of ``source``'s rows: its profiles, what it cannot answer (a table, or the
    same rows in memory), the plan of the frame and ``Whole`` it hands ``plan_view``, and
    what it tells of that plan — each answer handed to the next."""
    declaration = result.result_columns
    profiles = source.profiles(declaration, violations)
    refused = source.refusal(declaration, violations, profiles, picks, chart_args)
    if refused is not None:
        moved = source.collected()
        if moved is None:
            return View(kind="table", reason=refused, result=result, check=outcome)
        source, profiles = moved, moved.profiles(declaration, violations)
    planning = source.planning(declaration, violations, profiles)
    with np.errstate(over="ignore", invalid="ignore"):  # an overflowing aggregate: noted below
        plan = plan_view(
            planning.frame, profiles, x=picks.get("x"), y=picks.get("y"),
            color=picks.get("color"), max_points=max_points, whole=planning.whole, **chart_args,
        )  # fmt: skip
    told = planning.told(plan, chart_args.get("options"))
    return _view_of_plan(
        result, outcome, plan, told.frame, chart_args["options"], notes=told.notes,
        left_out=told.left_out, total=told.total, violations=told.violations, empty=told.empty,
    )  # fmt: skip


def _view_of_plan(
    result: ToolResult,
    outcome: CheckOutcome,
    plan: Plan,
    frame: pd.DataFrame,
    options: ChartOptions,
    *,
    notes: tuple[str, ...] = (),
    left_out: int | None = None,
    total: int | None = None,
    violations: tuple[ColumnViolation, ...] | None = None,
    empty: tuple[str, ...] | None = None,
) -> View:
    """The View of a plan: the one construction the in-memory and the engine paths share.

    ``notes`` are the caller's own words, said after the plan's (an engine says what left
    it; the rows it left out are the plan's notes, counted there); ``left_out`` replaces
    the plan's count when the rows were reduced elsewhere and the plan saw only the answer,
    of ``total`` rows.
    ``violations`` are the ones the chart was planned with (the check's, by default);
    ``empty`` the columns on a measure or time axis missing a value, when the rows were
    reduced elsewhere (else they are read from ``frame``).
    """
    every_fact = plan.facts
    dropped = plan.left_out if left_out is None else left_out
    found = outcome.violations if violations is None else violations
    caption: tuple[str, ...] = ()
    if plan.kind == "chart":
        # every row of the result: the frame's, unless an engine reduced them first
        counted = [v.total for v in found] + [n.count("of") or 0 for n in every_fact]
        if left_out is None:
            total = len(frame)
        else:  # reduced elsewhere: the rows it said it held, else the most any note counted
            total = total or max(counted, default=0) or None
        empty_noted = any(n.kind == "no-value" for n in every_fact)  # only then is it read
        caption = caption_lines(
            left_out=dropped,
            total=total,
            facts=every_fact,
            encodings=plan.encodings,
            violations=found,
            findings=outcome.findings,
            empty=(_empty_columns(frame, plan) if left_out is None else empty)
            if empty_noted
            else None,
        )
    chart = build_chart(plan, zero=options.zero, caption=caption) if plan.kind == "chart" else None
    return View(
        kind=plan.kind,
        reason=plan.reason,
        result=result,
        check=outcome,
        mark=drawn_mark(plan) if plan.kind == "chart" else plan.mark,
        encodings=MappingProxyType(dict(plan.encodings)),
        refusals=plan.refusals,
        # the caller's words last
        notes=(*plan.notes, *_overflow_notes(plan), *_zero_notes(plan, options), *notes),
        chart=chart,
        spec=chart_spec(chart) if chart is not None else None,
        frame=frame,
        alternatives=plan.alternatives,
        left_out=dropped,
        facts=every_fact,
        marks=plan.data if plan.kind == "chart" else None,
        reduction=plan.reduction,
        drawn=MappingProxyType(dict(plan.drawn)),
        violations=violations,
        options=_options(plan, options) if plan.kind == "chart" else {},
        caption=caption,
    )


def _empty_columns(frame: pd.DataFrame, plan: Plan) -> list[str]:
    """The columns the chart places on a measure or time axis that hold a missing value."""
    out = []
    for enc in plan.encodings.values():
        for column in enc.measures or (enc.column,):
            if enc.type != "nominal" and column in frame.columns and frame[column].isna().any():
                out.append(column)
    return out


def _options(plan: Plan, options: ChartOptions) -> dict[str, Any]:
    """How the chart was drawn, for the payload: the measure's format, scale, bucket and order."""
    sort = options.sort if isinstance(options.sort, str | None) else list(options.sort)
    return {
        "format": plan.format,
        "scale": plan.scale,
        "timeUnit": plan.time_unit,
        "sort": sort,
        "zero": options.zero,
    }


def _zero_notes(plan: Plan, options: ChartOptions) -> tuple[str, ...]:
    """A note when ``zero=False`` was asked of bars: their axis starts at zero all the same."""
    if options.zero is not False or plan.kind != "chart" or drawn_mark(plan) not in ("bar", "area"):
        return ()
    return (zero_not_applied_note(drawn_mark(plan)),)


def _overflow_notes(plan: Plan) -> tuple[str, ...]:
    """A note for each aggregate that overflowed: its marks are not drawn, and the chart says so.

    A sum or mean of finite numbers near the float limit can exceed it; Vega-Lite would get
    null and silently draw nothing there.
    """
    if plan.kind != "chart" or plan.data is None:
        return ()
    notes = []
    for enc in plan.encodings.values():
        if enc.type != "quantitative" or not enc.aggregate or enc.field not in plan.data.columns:
            continue
        values = pd.to_numeric(plan.data[enc.field], errors="coerce").to_numpy(dtype=float)
        n = int(np.isinf(values).sum())
        if n:
            notes.append(overflow_note(enc.aggregate, enc.column, n, len(values)))
    return tuple(notes)


def _as_result(data: object, result_columns: object, tool: str | None) -> ToolResult:
    if isinstance(data, ToolResult):
        if result_columns is None and tool is None:
            return data
        return ToolResult(
            tool=tool or data.tool,
            rows=data.rows,
            result_columns=result_columns if result_columns is not None else data.result_columns,  # type: ignore[arg-type]
            call_id=data.call_id,
            description=data.description,
        )
    return ToolResult(tool=tool or "unnamed_tool", rows=data, result_columns=result_columns)  # type: ignore[arg-type]


def _describe(value: object) -> str:
    if isinstance(value, list | tuple):
        if not value:
            return "an empty list"
        odd = next(v for v in value if not isinstance(v, dict))
        return f"a list holding {type(odd).__name__} {render_sample(odd)[:40]}"
    if isinstance(value, pd.DataFrame):
        return "a dataframe with no rows"
    return f"a {type(value).__name__}"
