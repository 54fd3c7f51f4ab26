"""The chart's work done in the engine: only aggregated rows leave it.

An engine frame of at most ``max_points`` rows is collected as it is (that many rows may leave)
and charted exactly as a pandas frame would be. A larger one is reduced where it lives, through
narwhals' lazy API (the engine's own only where narwhals lacks an operation, said in place), to
what the chart draws; ``decide.py`` then plans the chart, as it plans every chart, from the
engine's own facts, groups and counts, which it asks of the backend itself
(``Whole.grouped``, ``Whole.counted``: the frame it is handed holds the chart's columns and no
row) — the bucket, the series, whether a color is a label, the ranking and top, the bins:

- lines over time: the aggregate (``aggregate=``, the mean by default, or the rows counted)
  per time bucket — ``time_unit=``, or the bucket ``decide.py`` picks for the span,
  ``max_points`` and the series — per color, measure (``y=[…]``) and facet;
- bars per category: the aggregate per category, measure and facet, or the rows counted
  (``decide.py`` ranks them and keeps its top 30 from the groups); ``sort=`` as in pandas;
- one number alone: count bars of its values (fewer than 15), else a histogram of 10 bins;
- two numbers: a heatmap of counts, binned on ``decide.py``'s very edges (a value on an edge
  opens the next bin, as numpy places it);
- ``choose=N``: the Nth alternative of the same call, drawn by the rules above.

The shape is chosen by the rules ``decide.py`` reads (``chartkit.plan.choose``: the automatic
chart's candidates, what the picks draw), so the chart, its rows, reason and alternatives
equal those of the same rows in pandas (tests/test_engines.py and tests/test_backend_views.py
hold each kind to that). A histogram or heatmap leaves no row: ``decide.py`` plans it from
a frame of its columns alone and asks its counts of the engine (``Whole.counted``: the span,
the rows per value and per bin of the rows the chart places, ``chartkit.backends.counts``), so
it bins on its own edges and the counts are the engine's. Rows that cannot be placed are
left out in the engine, and a note says how many offend (from the ``ColumnViolation``).

Text read by the declaration in DuckDB first (``_typed``): a CSV's declared number, boolean
and date cells, and a DuckDB text column declared date, are parsed there by
``chartkit.read.csvread``'s acceptance rules (a cell that does not parse is left out, as pandas
leaves it out, with the same note), then aggregated as above.

Not computed in the engine: a column whose engine type is not its declared type elsewhere (a
text column declared date in polars, Spark or Ibis, say), a date column holding a date string
DuckDB does not cast exactly as the check reads it (a zone, a fraction past microseconds), and
a picked column that is not declared (its type is inferred from values). An eager frame falls
back to pandas there (it is in memory already); a lazy one is a table saying what to do.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import numpy as np
import pandas as pd

from chartkit._isodate import PLAIN_DATE, engine_pattern
from chartkit._safe import workable_frame
from chartkit.backends._contract import AnyOf, Condition, Term
from chartkit.backends._native import aliases as _aliases
from chartkit.backends._native import collect as _collect
from chartkit.backends._native import positional as _frame
from chartkit.backends.clauses import Placed, where
from chartkit.backends.counts import PlacedCounts, PlacedGroups, PlacedRows
from chartkit.backends.query import QueryBackend
from chartkit.check.integrity import CheckOutcome
from chartkit.check.judge import ColumnViolation, check_columns
from chartkit.check.verdicts import dtype_value_type
from chartkit.columns import ColumnDeclaration
from chartkit.errors import ChartkitError
from chartkit.plan import choose
from chartkit.plan.bins import cell_edges, cells_per_axis
from chartkit.plan.decide import (
    COUNT_BARS_UNDER,
    HISTOGRAM_BINS,
    ChartOptions,
    Plan,
    Whole,
    automatic_candidate,
    check_choose,
    chosen_alternative,
    no_measure_reason,
    no_value_note,
    nothing_to_draw,
    plan_view,
    unplaced_note,
)
from chartkit.plan.encode import (
    ASCII_NUMBER_TEXT,
    ColumnProfile,
    VegaLiteType,
    describe_offenders,
    profile_columns,
)
from chartkit.plan.groups import LineFacts
from chartkit.plan.rules import Alternative
from chartkit.plan.spec import Note
from chartkit.read.csvread import BOOLEAN_FALSE, BOOLEAN_TRUE, NUMBER, parse_cell
from chartkit.read.engines import EngineReading
from chartkit.read.rowset import RowsetReading
from chartkit.result import ToolResult

__all__ = ["EngineAnswer", "count_facts", "engine_view"]


@dataclass(frozen=True)
class EngineAnswer:
    """What the engine path answers ``view()``: the plan of the frame that left the engine,
    or the reason there is no chart (a table). ``view()`` makes the View of it, as it makes
    every View of a plan, so the engine path never imports the surface above it.

    ``notes`` are the engine's own sentences (how many offending rows it left out, what it
    computed); ``facts`` the Note values among them (kind, column, counts: the in-memory
    plan's, in the engine's words); ``left_out`` replaces the plan's count when the engine
    reduced the rows and the plan saw the answer.
    """

    reason: str | None = None
    plan: Plan | None = None
    frame: pd.DataFrame | None = None
    notes: tuple[str, ...] = ()
    facts: tuple[Note, ...] = ()
    left_out: int | None = None
    total: int | None = None  # the result's rows, when the engine reduced them
    empty: tuple[str, ...] | None = None  # the drawn measures and times missing a value

    @property
    def alternatives(self) -> tuple[Alternative, ...]:
        """The plan's alternatives (none for a table the engine path answered itself)."""
        return tuple(self.plan.alternatives) if self.plan is not None else ()


def engine_view(
    result: ToolResult,
    reading: RowsetReading,
    outcome: CheckOutcome,
    *,
    x: str | None,
    y: Any,
    color: str | None,
    max_points: int,
    chart_args: Mapping[str, Any],
) -> EngineAnswer:
    """``view()``'s plan for an engine frame: a bounded frame leaves the engine, then it is
    planned as usual (``view()`` makes the View of the answer)."""
    if not isinstance(reading, EngineReading):
        raise ChartkitError("engine_view reads an EngineReading (chartkit.read.engines)")
    try:
        return _engine_view(
            result, reading, outcome, x=x, y=y, color=color, max_points=max_points,
            chart_args=chart_args,
        )  # fmt: skip
    finally:
        _TYPED.pop(id(reading), None)


def _engine_view(
    result: ToolResult,
    reading: EngineReading,
    outcome: CheckOutcome,
    *,
    x: str | None,
    y: Any,
    color: str | None,
    max_points: int,
    chart_args: Mapping[str, Any],
) -> EngineAnswer:
    declaration = result.result_columns
    if outcome.armed:
        violations = outcome.violations
    elif declaration is not None:
        violations = check_columns(reading, declaration)
    else:
        violations = ()
    reduced: _Reduced | str | None = None
    if reading.total > max_points:
        if chart_args.get("choose") is not None:
            return _chosen(result, reading, outcome, x, y, color, max_points, chart_args)
        # text cells parsed in DuckDB by the declaration, then aggregated there too
        typed = _typed(reading, declaration or {}, max_points)
        if isinstance(typed, str):
            reduced = typed
        else:
            reading = typed
            reduced = _reduce(
                reading, declaration or {}, violations, x, y, color, max_points, chart_args
            )
    if reduced is None or (isinstance(reduced, str) and not reading.lazy):
        # At most max_points rows; or an eager frame (already in memory) drawn in a way the
        # engine does not aggregate: pandas reads it, and decide.py reduces it as usual.
        frame = _collect(reading, reading.columns, "collect")
        if reading.csv_text and declaration:
            frame = _parsed_cells(frame, declaration)
    elif isinstance(reduced, str):
        return EngineAnswer(reason=reduced)
    else:
        return _answer(reading, reduced, x, y, color, max_points, chart_args)
    frame = workable_frame(frame)
    profiles = profile_columns(frame, declaration, violations)
    plan = plan_view(frame, profiles, x=x, y=y, color=color, max_points=max_points, **chart_args)
    return EngineAnswer(plan=plan, frame=frame, total=reading.total)


def _answer(
    reading: EngineReading,
    reduced: _Reduced,
    x: str | None,
    y: Any,
    color: str | None,
    max_points: int,
    chart_args: Mapping[str, Any],
) -> EngineAnswer:
    """decide.py's plan of rows that stay in the engine: from every declared column's profile
    (``_chart_profiles``) and a frame of those columns and no row, asking the counts, groups
    and rows the engine answers (``reduced.whole``), so the chart, its words, alternatives
    and refusals are its one pass, as over the rows in memory. The engine's notes say what
    it left out and what left it."""

    opts = chart_args.get("options") or ChartOptions()
    profiles = reduced.profiles
    every = _columns_only([n for n, q in profiles.items() if q.type == "quantitative"],
                          list(profiles))  # fmt: skip
    if x is None and opts.aggregate == "count" and reduced.x is not None:
        x = reduced.x  # the rows counted over the x the engine placed them on
    plan = plan_view(every, profiles, x=x, y=y, color=color, max_points=max_points,
                     **{**chart_args, "whole": reduced.whole})  # fmt: skip
    fetched = plan.fetched is not None  # the plan drew the rows it fetched
    notes = tuple(n.sentence if isinstance(n, Note) else n for n in reduced.notes)
    facts = tuple(n for n in reduced.notes if isinstance(n, Note))
    frame = reduced.frame
    if plan.kind == "chart":  # what left the engine: the rows, the counts, or the groups
        if plan.fetched is not None:
            frame = plan.fetched
        elif reduced.kind == "bins" and plan.data is not None:
            frame = plan.data
        elif reduced.grouped is not None:
            frame = reduced.grouped.drawn
        if reduced.late is not None and not fetched:
            notes = (*notes, reduced.late(plan))
    # the rows the chart does not place, so View.state says "rows left out" as in pandas
    placed = reduced.placed
    if fetched or placed is None:  # rows that left the engine: decide.py cleaned them too
        placed = (reduced.drawn if placed is None else placed) - plan.left_out
    noted = any(n.kind == "no-value" for n in (*facts, *plan.facts))  # (only then read)
    return EngineAnswer(
        plan=plan, frame=frame, notes=notes, facts=facts, left_out=reading.total - placed,
        total=reading.total, empty=_empty(reading, plan, profiles) if noted else None,
    )  # fmt: skip


def _empty(
    reading: EngineReading, plan: Plan, profiles: Mapping[str, ColumnProfile]
) -> tuple[str, ...]:
    """The columns a chart places on a measure or time axis that hold a missing value (null
    or NaN) in some row, counted by the backend (the facts of this ``view()``, mostly asked
    already): what the caption names beside a ``no-value`` note, as memory names them."""
    drawn = [
        c
        for e in plan.encodings.values()
        if e.type != "nominal"
        for c in (e.measures or (e.column,))
        if c in profiles and profiles[c].present
    ]
    if not drawn:
        return ()
    facts = _backend(reading).facts(list(dict.fromkeys(drawn)), distinct=[])
    return tuple(c for c in dict.fromkeys(drawn) if facts[c].values < facts[c].rows)


def _chart_profiles(
    reading: EngineReading,
    declaration: Mapping[str, ColumnDeclaration],
    broken: Mapping[str, ColumnViolation],
) -> dict[str, ColumnProfile]:
    """Every declared column's profile (``_profiles``), present when the engine holds it as
    its declared type: what decide.py chooses and plans an engine's chart from (a column the
    engine holds as another type is judged value by value only when the rows leave it)."""
    schema = dict(reading.schema)
    return {
        n: replace(q, present=q.present and dtype_value_type(schema[n]) == declaration[n].type)
        for n, q in _profiles(reading, declaration, broken).items()
    }


def _profiles(
    reading: EngineReading,
    declaration: Mapping[str, ColumnDeclaration],
    broken: Mapping[str, ColumnViolation],
) -> dict[str, ColumnProfile]:
    """Every declared column's profile, as the backend contract counts it
    (``Backend.profiles``: its declared type, the check's finding, whether the engine holds
    it, a category's distinct values), in the declaration's order. The counts are the one
    pass of this ``view()`` (``_distinct``), made first if it was not."""
    _distinct(reading, [])
    got = _backend(reading).profiles(declaration, tuple(broken.values()))
    return {n: got[n] for n in declaration}


def _parsed_cells(
    frame: pd.DataFrame, declaration: Mapping[str, ColumnDeclaration]
) -> pd.DataFrame:
    """A CSV's declared columns parsed by ``chartkit.read.csvread``, as the check judged them
    in the engine (a cell that does not parse stays its text)."""

    out = frame.copy()
    for name, decl in declaration.items():
        if name in out.columns:
            cells = out[name].tolist()
            out[name] = pd.Series(
                [None if c is None else parse_cell(c, decl.type) for c in cells],
                index=out.index,
                dtype=object,
            )
    return out


_TYPED: dict[int, tuple[EngineReading, EngineReading | str]] = {}
"""The typed reading (or the reason there is none) of a text reading during one ``view()``, by
the text reading's id (the reading is kept, so the id stays its own)."""


def _typed(
    reading: EngineReading, declaration: Mapping[str, ColumnDeclaration], max_points: int
) -> Any:
    """``reading`` with its text cells parsed by the declaration inside DuckDB, or the reason
    they cannot be; the reading itself when there is nothing to parse.

    A CSV's declared number, boolean and date columns, and a DuckDB text column declared date,
    become typed columns by the acceptance rules of ``chartkit.read.csvread`` (the check's rules):
    a number cell the ``NUMBER`` regex accepts (and a float holds) is cast to DOUBLE, exact
    once the regex matched; a boolean cell by its spellings; a date cell that both the ISO
    pattern and ``PLAIN_DATE`` accept is cast to TIMESTAMP. Any other cell is missing from the
    chart (the check filed it; the note says how many). A date column holding a date string
    ``PLAIN_DATE`` leaves out (a zone, ``Z`` or ``±HH:MM``, or a fraction past microseconds) is
    not cast: the reason says so, and the chart is a table.
    """
    if not reading.dialect.sql_helpers or not reading.lazy:  # DuckDB's relations only
        return reading
    known = _TYPED.get(id(reading))
    if known is not None and known[0] is reading:
        return known[1]

    def lit(text: str) -> str:
        return "'" + text.replace("'", "''") + "'"

    # DuckDB's own types: a JSON column is text to narwhals, but its values are JSON (judged by
    # json_type in the check), so only VARCHAR is parsed here
    native = reading.native
    native_types = dict(zip(native.columns, map(str, native.types), strict=True))
    exprs: list[tuple[str, str]] = []  # (SQL over positions and literals, the output's name)
    dates: list[str] = []
    changed = False
    at = {name: f"#{i + 1}" for i, name in enumerate(reading.columns)}  # by position
    for name in reading.columns:
        # the cell read by position; the column's name only ever its own output alias, quoted
        # by the one quoting function (a NUL: DuckDB's expression API), read.dialects.DuckDB
        q = at[name]
        decl = declaration.get(name)
        kind = decl.type if decl is not None else None
        text = native_types.get(name) == "VARCHAR"
        if kind == "date" and text:
            dates.append(name)
            exprs.append((
                f"CASE WHEN regexp_matches({q}, {lit(engine_pattern())}) AND "
                f"regexp_full_match({q}, {lit(PLAIN_DATE)}) THEN CAST({q} AS TIMESTAMP) END",
                name,
            ))  # fmt: skip
        elif reading.csv_text and kind == "number":
            # the regex alone says the text is a decimal literal; the cast then reads it exactly
            # (csvread's float()), and a literal no float holds (1e999) is left out as csvread
            # leaves it text
            exprs.append((
                f"CASE WHEN regexp_full_match({q}, {lit(NUMBER.pattern)}) THEN (CASE WHEN "
                f"isfinite(CAST({q} AS DOUBLE)) THEN CAST({q} AS DOUBLE) END) END",
                name,
            ))  # fmt: skip
        elif reading.csv_text and kind == "boolean":
            yes = ", ".join(map(lit, sorted(BOOLEAN_TRUE)))
            no = ", ".join(map(lit, sorted(BOOLEAN_FALSE)))
            exprs.append(
                (f"CASE WHEN {q} IN ({yes}) THEN true WHEN {q} IN ({no}) THEN false END", name)
            )
        else:
            exprs.append((q, name))
            continue
        changed = True
    if not changed:
        _TYPED[id(reading)] = (reading, reading)
        return reading
    import narwhals as nw

    try:
        if dates:
            counts = ", ".join(
                f"count_if(regexp_matches({q}, {lit(engine_pattern())}) AND NOT "
                f"regexp_full_match({q}, {lit(PLAIN_DATE)}))"
                for q in (at[n] for n in dates)
            )
            (other,) = reading.native.aggregate(counts).fetchall()
            odd = [(n, int(c)) for n, c in zip(dates, other, strict=True) if c]
            if odd:
                name, count = odd[0]
                reason = (
                    f"The {reading.engine} frame has {reading.total:,} rows, over max_points="
                    f"{max_points:,}, so chartkit aggregates it in {reading.engine}; {name} is "
                    "declared date and "
                    f"{count:,} of its values are date strings with a zone (Z or ±HH:MM) or "
                    "more than six fractional digits, which DuckDB does not cast to TIMESTAMP "
                    "exactly as the check reads them (here DuckDB reads only YYYY-MM-DD with an "
                    "optional time to the microsecond). Filter the frame to at most max_points "
                    f"rows first, or cast {name} to TIMESTAMP in DuckDB."
                )
                _TYPED[id(reading)] = (reading, reason)
                return reason
        native = reading.dialect.project(reading.native, exprs)
        schema_out = tuple(nw.from_native(native).collect_schema().items())
    except Exception as exc:  # duckdb's own errors
        raise ChartkitError(
            f"duckdb could not run the chart's parse query (the text cells read by the "
            f"declaration): {str(exc)[:400]}"
        ) from exc
    typed = replace(reading, native=native, schema=schema_out, csv_text=False)
    _TYPED[id(reading)] = (reading, typed)
    return typed


def _chosen(
    result: ToolResult,
    reading: EngineReading,
    outcome: CheckOutcome,
    x: str | None,
    y: Any,
    color: str | None,
    max_points: int,
    chart_args: Mapping[str, Any],
) -> EngineAnswer:
    """``choose=N``: the Nth alternative of the same call, drawn with its own picks."""

    choose = check_choose(chart_args["choose"])
    args = {**chart_args, "choose": None}
    first = _engine_view(
        result, reading, outcome, x=x, y=y, color=color, max_points=max_points, chart_args=args
    )
    alt = chosen_alternative(choose, first.alternatives)
    picks = alt.picks()
    opts = args.get("options") or ChartOptions()
    args["options"] = replace(opts, aggregate=alt.aggregate or opts.aggregate)
    args["facet"] = picks.get("facet")
    return _engine_view(
        result, reading, outcome, x=picks.get("x"), y=picks.get("y"), color=picks.get("color"),
        max_points=max_points, chart_args=args,
    )  # fmt: skip


@dataclass(frozen=True)
class _Reduced:
    """What the engine path hands decide.py when the rows stay in the engine: the chart's
    columns and no row (``frame``), the engine's notes, and what the plan asks (``whole``:
    the counts, groups and rows of the rows the chart places, each asked of the engine once;
    ``profiles``: every declared column's, counted there).

    ``kind`` "bins": a histogram's or heatmap's counts (``counted``), or a scatter's points,
    fetched when the ``drawn`` rows fit ``max_points``. "grouped": a line's or bars' facts
    and groups (``grouped``); the View holds the groups that left the engine
    (``PlacedGroups.drawn``), or the rows a label's points are (``Plan.fetched``), and the
    engine's note counting the groups the plan drew is written from the plan (``late``).
    What the frame stands for is told to decide.py as a ``Whole``, so its plan words those
    rows: no sentence is rewritten.
    """

    frame: pd.DataFrame
    notes: tuple[str | Note, ...]  # the engine's sentences; a Note where it is one
    kind: Literal["bins", "grouped"]
    counted: PlacedCounts | None = None  # histograms' and heatmaps' counts, in the engine
    grouped: PlacedGroups | None = None  # lines' and bars' facts and groups, in the engine
    late: Callable[[Plan], str] | None = None  # the engine's note counting what the plan drew
    drawn: int = 0
    placed: int | None = None  # the rows the chart places: the rest are the View's left_out
    x: str | None = None  # the x the engine placed (decide.py is told it for counted rows)
    whole: Whole | None = None  # what the plan asks of the engine (``_reduce`` sets it)
    profiles: Mapping[str, ColumnProfile] = field(default_factory=dict)  # every declared one


def _reduce(
    reading: EngineReading,
    declaration: Mapping[str, ColumnDeclaration],
    violations: tuple[ColumnViolation, ...],
    x: str | None,
    y: Any,
    color: str | None,
    max_points: int,
    chart_args: Mapping[str, Any],
) -> _Reduced | str:
    """The engine's answer for the chart decide.py would draw, or the reason for a table.

    The automatic chart's candidate is decide.py's own choice (``automatic_candidate``: its
    one pass over the rule table's openers, each asked of the engine's counts and groups);
    what the picks draw (``choose.chart``: the kind, x, measures, color, facet) is the rule
    decide.py reads, asked of the engine's profiles. This function reduces the columns they
    name (aggregate, bucket: decide.py asks the engine's facts and groups itself,
    ``PlacedGroups``, the very ones the choosing asked).
    """

    schema = dict(reading.schema)
    # the counts of the rows a histogram or heatmap of some numbers places, asked once each
    # (by the choosing and the engine's notes here, then by decide.py's plan: Whole.counted)
    counts = PlacedCounts(
        _backend(reading),
        lambda names, beside: _placing(declaration, [*names, *beside], list(beside)),
    )
    # … and the facts and groups of the rows a line or bars place, each asked once (by the
    # automatic chart's choosing, then by decide.py's plan: Whole.grouped)
    zones = {n: z for n in schema if (z := getattr(schema[n], "time_zone", None)) is not None}
    groups = PlacedGroups(
        _backend(reading), lambda keys, ms: _grouped_placing(declaration, keys, ms),
        top=max_points, zones=zones,
        known=lambda at, ms, series: _clean_facts(reading, at, list(ms), list(series)),
    )  # fmt: skip
    # … and the rows a chart that draws each row places, when they fit max_points
    rows = PlacedRows(counts, groups, lambda names, terms: _fetch(reading, names, terms))
    out = _reduced(reading, declaration, violations, x, y, color, max_points, chart_args,
                   counts, groups, rows)  # fmt: skip
    if isinstance(out, _Reduced):  # what the plan asks its counts, groups and rows of
        # (the facts choosing reads asked of the one backend the choosing asked: remembered)
        whole = Whole(counted=counts, grouped=out.grouped or groups, facts=counts.backend,
                      rows=rows)  # fmt: skip
        broken = {v.column: v for v in violations}
        out = replace(out, whole=whole, profiles=_chart_profiles(reading, declaration, broken))
    return out


def _fetch(reading: EngineReading, names: Sequence[str], terms: Sequence[Term]) -> pd.DataFrame:
    """The rows ``terms`` keep, of the columns ``names``: a plan asks them only when their
    count fits ``max_points``."""
    alias = _aliases(reading)
    frame = _frame(reading).select(*(alias[c] for c in names))
    keep = _backend(reading).keeps(terms)
    if keep is not None:
        frame = frame.filter(keep)
    return workable_frame(_collect(reading, list(names), "rows", frame))


def _reduced(
    reading: EngineReading,
    declaration: Mapping[str, ColumnDeclaration],
    violations: tuple[ColumnViolation, ...],
    x: str | None,
    y: Any,
    color: str | None,
    max_points: int,
    chart_args: Mapping[str, Any],
    counts: PlacedCounts,
    groups: PlacedGroups,
    rows: PlacedRows,
) -> _Reduced | str:
    """``_reduce``'s answer, asking ``counts``, ``groups`` and ``rows`` (each question once)."""
    broken = {v.column: v for v in violations}
    schema = dict(reading.schema)
    opts = chart_args.get("options") or ChartOptions()
    facet = chart_args.get("facet")

    def usable(name: str | None) -> bool:
        """Present, not wholly offending, and of its declared type in the engine's schema."""
        if name is None:
            return False
        v = broken.get(name)
        decl = declaration.get(name)
        return (
            name in schema
            and (v is None or v.affected < v.total)
            and decl is not None
            and dtype_value_type(schema[name]) == decl.type
        )

    known: list[dict[str, ColumnProfile]] = []  # every declared column's, once asked

    def declared() -> list[ColumnProfile]:
        """Every declared column's profile (``_profiles``), present when the engine holds it:
        what decide.py words a table's reason from."""
        if not known:
            known.append(_profiles(reading, declaration, broken))
        return list(known[0].values())

    def drawable(*, every: bool = False) -> list[ColumnProfile]:
        """The profiles of the columns the engine can draw, for the chooser
        (``chartkit.plan.choose``, decide.py's own); ``every``: every declared column of the
        frame, those the engine cannot draw as not ``present``."""
        listed = [replace(q, present=usable(q.name)) for q in declared() if q.name in schema]
        return listed if every else [q for q in listed if q.present]

    over = (
        f"The {reading.engine} frame has {reading.total:,} rows, over max_points="
        f"{max_points:,}, so chartkit aggregates it in {reading.engine}"
    )
    picks = [x, color, facet, *([y] if isinstance(y, str) else list(y or []))]
    undeclared = [n for n in dict.fromkeys(picks) if n in schema and n not in declaration]
    if undeclared:
        # decide.py infers an undeclared column's type from its values: those stay in the engine
        name = undeclared[0]
        return _undeclared(over, name, dtype_value_type(schema[name]) or "string")
    # with no x picked, decide.py puts the first date column on x: one the engine holds as text
    # is in play too (left unread, the engine would draw another chart than pandas)
    firsts = [n for n in declaration if x is None and n in schema and declaration[n].type
              == "date"]  # fmt: skip
    for name in [*picks, *firsts]:
        if name is not None and name in declaration and name in schema and not usable(name):
            decl = declaration[name]
            if dtype_value_type(schema[name]) != decl.type and (
                broken.get(name) is None or broken[name].affected < broken[name].total
            ):
                return (
                    f"{over} from columns whose engine type holds their declared type; "
                    f"{name} is declared {decl.type} but the engine holds it as "
                    f"{schema[name]}, and it is judged value by value only when the rows leave "
                    "the engine. Filter the frame to at most max_points rows first, or cast "
                    f"{name} in {reading.engine}."
                )
    if opts.aggregate == "median" and not reading.dialect.exact_median:
        # narwhals' pyarrow median is an approximate one (a t-digest): pandas' is exact
        return f"{over} except an exact median, which pyarrow does not compute."
    measures = [q.name for q in choose.measures(drawable())]  # decide.py's order
    ys = [y] if isinstance(y, str) else list(y) if y is not None else None
    how = opts.aggregate
    if x is None and ys is None and how != "count" and not measures:
        # no rule opens without a measure: decide.py's table, in its words
        loose = [n for n in schema if n not in declaration]
        if loose:  # decide.py would infer it a type (a measure, say) from values in the engine
            name = loose[0]
            return _undeclared(over, name, dtype_value_type(schema[name]) or "string")
        return no_measure_reason(
            declared(),
            lambda name: _all_quoted(reading, name),
        )
    opened = False  # the automatic chart is the rule table's
    auto_color = color is None
    if x is None and ys is None and (measures or how == "count"):
        # the automatic chart's candidate, chosen by decide.py's one pass over every declared
        # column the engine holds (a chart of a single mark passed over for the next), from
        # the counts and groups the engine answers; then reduced here as its picks draw it
        count = how == "count"
        profiles = {q.name: q for q in drawable(every=True)}
        cand = automatic_candidate(
            _columns_only([n for n in profiles if declaration[n].type == "number"],
                          list(profiles)),
            profiles, color=color, facet=facet, options=opts, max_points=max_points,
            whole=Whole(counted=counts, grouped=groups, facts=counts.backend, rows=rows),
        )  # fmt: skip
        if cand is not None:
            cx, cys, ccolor, cfacet = choose.opening_picks(cand, color, facet, count=count)
            if cand.chart == "scatter" and cx is not None and cys:
                # two measures: decide.py's heatmap of counts, binned here, as for a picked
                # x and y (every row as a point when the placeable rows fit max_points); whether
                # its groups share x positions decide.py asks the engine (Whole.facts)
                return _heatmap(
                    reading, declaration, broken, cx, cys[0], color or cand.color, facet,
                    max_points, over, lambda: None, counts,
                )  # fmt: skip
            if cand.chart == "histogram" and cx is not None:
                ys, opened = [cx], True
            else:
                x, ys, color, facet = cx, list(cys) if cys else None, ccolor, cfacet
                opened, auto_color = True, False
    if x is None and ys is None and not opened:
        # rows counted that no rule opens on (no category, or no measure): over the first
        # date, else per bin of the first number, as decide.py counts them; with none, its table
        cols = drawable()
        over_x = choose.dates(cols) or choose.measures(cols)
        if not over_x:
            return no_measure_reason(
                declared(),
                lambda name: _all_quoted(reading, name),
            )
        x = over_x[0].name
    if x is not None and not usable(x):
        return _cannot(over, x)
    x_type = declaration[x].type if x is not None else None
    if ys is not None:
        picked = ys
        ys = [m for m in dict.fromkeys(ys) if m in measures and m != x]
        if picked and not ys:
            return (
                f"{over}, and y={y!r} names no usable column declared number: "
                f"{_names(picked)} cannot be drawn as a measure."
            )
    if x is None and not ys:
        return f"{over}; pick a column declared number to draw."
    if x is None and opened:  # the automatic histogram of a number alone
        assert ys
        others = [m for m in measures if m != ys[0]]
        return _histogram(reading, declaration, broken, ys[0], others, over, counts)
    # what the picks draw: the one rule every backend reads (choose.chart), from the engine's
    # profiles (the categories' values counted in the engine's one pass, which the
    # alternatives read in any case)
    profiles = {q.name: q for q in drawable(every=True)}
    if facet is not None and (facet not in profiles or facet == x):
        facet = None
    if color is not None and color not in profiles:
        color = None
    # (a y alone: x is the rule's, over a date, a category, or another measure)
    choice = choose.chart(
        profiles, x, ys, color, facet, count=how == "count", auto_color=auto_color
    )
    x = choice.x
    assert x is not None  # (every chart of a picked measure has an x; a table has the picked)
    x_type = declaration[x].type
    if choice.kind == "histogram":
        lone = choice.x
        assert lone is not None
        others = [m for m in measures if m != lone]
        return _histogram(reading, declaration, broken, lone, others, over, counts)
    if choice.kind == "scatter":
        # two numbers: a scatter, binned into a heatmap of counts past max_points

        def first_color() -> str | None:  # decide.py's: the first small category
            found = choose.auto_color(drawable(), exclude={facet})
            return found.name if found is not None else None

        return _heatmap(
            reading, declaration, broken, x, choice.ys[0], color, facet, max_points, over,
            first_color, counts,
        )  # fmt: skip
    if choice.kind == "table":
        if choice.no_measure:
            return (
                f"{over}; {x} is on x, but no usable column is declared number to measure over "
                "it. Pick y, or aggregate='count' to count the rows."
            )
        return _cannot(over, x)
    ys = list(choice.ys)
    multi = len(ys) > 1
    facets = [choice.facet] if choice.facet is not None else []
    colors = [choice.color] if choice.color is not None else []
    if choice.kind == "line" and not colors and choice.auto_color:
        # the automatic color: a small category (a line's label question is asked below)
        auto = choose.auto_color(drawable(), exclude={x, *ys, *facets})
        colors = [auto.name] if auto is not None else []
    used = [x, *ys, *colors, *facets]
    # the rows with no value on the time axis or the measure (one of several keeps its row)
    placing = ([x] if x_type == "date" else []) + ([] if multi else ys)
    together = ys if multi else []  # a point or bar holds one of them
    beside = [c for c in used if c not in placing and c not in together]
    empty = (
        _no_value(reading, declaration, broken, placing, together, beside=beside)
        if placing or together
        else None
    )
    nominal = [*colors, *facets] + ([x] if x_type != "date" else [])
    terms = _placing(declaration, used, nominal, optional=ys if multi else [])
    notes = _left_out(reading, declaration, broken, used)
    notes += _unplaced(reading, declaration, used, {m: "y" for m in ys})
    if empty is not None:
        notes.append(empty)
    if x_type == "date":
        out = _lines(reading, groups, x, ys, colors, facets, notes, over)
    else:
        # the bars' groups are those the choosing asked, unless a color filters their rows too
        bars = groups if not colors else PlacedGroups(
            _backend(reading), lambda _k, _m: terms, top=max_points
        )  # fmt: skip
        out = _bars(reading, bars, terms, x, ys, facets, how, max_points, notes)
    return replace(out, x=x) if isinstance(out, _Reduced) else out


def _undeclared(over: str, name: str, kind: str) -> str:
    """The reason for a table when a column the chart would read is not declared."""
    return (
        f"{over} from declared columns; {name} is not declared, and its type would be "
        "inferred from values that stay in the engine. Declare it in result_columns "
        f"({name!r}: {kind!r}, say) to chart it, or filter the frame to at most max_points "
        "rows first."
    )


def _all_quoted(reading: EngineReading, name: str) -> bool:
    """Whether every row of a text column holds a number in quotes (``"1240"``), matched in the
    engine by ``ASCII_NUMBER_TEXT`` (ASCII digits and spaces; decide.py's pattern also takes
    other scripts' digits)."""
    import narwhals as nw

    if dtype_value_type(dict(reading.schema)[name]) != "string":
        return False
    col = nw.col(_aliases(reading)[name])
    quoted = (~col.is_null()) & col.str.contains(ASCII_NUMBER_TEXT)
    got = _collect(
        reading, [name], "numbers in quotes",
        _frame(reading).select((~quoted).cast(nw.Int64).sum().alias("n")),
    ).iloc[0]  # fmt: skip
    return int(got["n"] or 0) == 0


def _cannot(over: str, name: str) -> str:
    return f"{over}, but no row of {name} holds a value of its declared type to draw."


def _backend(reading: EngineReading) -> QueryBackend:
    """The reading's query backend: its facts are the reading's (``EngineReading.counted``),
    so each is counted once per ``view()``, whoever asks."""
    return QueryBackend(reading)


def count_facts(
    reading: RowsetReading, declaration: Mapping[str, ColumnDeclaration] | None, max_points: int
) -> None:
    """Before the check of an engine frame the chart reduces in place: the one counting pass
    of every column the chart may read (rows, values, categories' distinct values, spans),
    which the check then reads its null and NaN counts from (``chartkit._frame_check``), so
    the check costs no count query of its own. Nothing for a reading that is not an engine
    frame over ``max_points`` rows, or whose text cells DuckDB parses first (``_typed``: the
    typed reading is counted instead)."""
    if not isinstance(reading, EngineReading) or not declaration:
        return
    if not isinstance(max_points, int) or reading.total <= max_points:
        return  # (a max_points that is no integer is plan_view's to refuse)
    if reading.csv_text:
        return
    if reading.dialect.sql_helpers and reading.lazy:  # a DuckDB relation: see _typed
        native_types = dict(zip(reading.native.columns, map(str, reading.native.types),
                                strict=True))  # fmt: skip
        if any(d.type == "date" and native_types.get(n) == "VARCHAR"
               for n, d in declaration.items()):  # fmt: skip
            return
    try:
        _distinct(reading, [])
    except ChartkitError:
        return  # the check counts on its own, and the chart's own query says what failed


def _distinct(reading: EngineReading, names: list[str]) -> dict[str, int]:
    """The distinct values of each column, without nulls (as pandas counts them). The first
    question counts, in one pass, every column that can be a category, and the span and
    values of every date and number (what a line's bucket needs), so later questions cost
    nothing."""

    backend = _backend(reading)
    wanted = list(dict.fromkeys(names))
    if not backend.remembered():
        schema = dict(reading.schema)
        kinds = {c: dtype_value_type(schema[c]) for c in reading.columns}
        categories = [c for c in reading.columns if kinds[c] in ("string", "boolean")]
        spans = [c for c in reading.columns if kinds[c] in ("date", "number")]
        backend.facts([*wanted, *categories, *spans], distinct=[*wanted, *categories])
    got = backend.facts(wanted) if wanted else {}
    return {n: got[n].distinct or 0 for n in wanted}


def _lines(
    reading: EngineReading,
    grouped: PlacedGroups,
    x: str,
    ys: list[str],
    colors: list[str],
    facets: list[str],
    notes: list[str | Note],
    over: str,
) -> _Reduced | str:
    """Lines over time: decide.py chooses the bucket, the series and whether the color is a
    label from the facts and groups it asks of the backend (``PlacedGroups``: the aggregate per
    time bucket or unit and series, of the rows the chart places), and draws the line; the
    rows themselves when they fit ``max_points`` and the color may be a label (``PlacedRows``:
    a label's rows are points, as in memory)."""

    series = [*colors, *facets]
    used = [x, *ys, *series]
    # (the facts of the rows placed, counted once: none when the facts of every row hold them)
    facts = grouped.line_facts(x, ys, series)
    count = facts.rows
    if not count:
        return f"{over}, and no row holds a value of its declared type in {_names(used)}."

    def drawn_note(plan: Plan) -> str:
        """The engine's note, counting the points (or stacked bars) the plan draws."""
        data = plan.data if plan.data is not None else pd.DataFrame()
        fx = plan.encodings["x"].field if "x" in plan.encodings else None
        bars = data[fx].nunique() if fx in data.columns else 0
        if plan.mark == "bar" and colors and "color" in plan.encodings and bars > 1:
            return (
                f"{count:,} rows are counted in {bars:,} stacked bars, computed in "
                f"{reading.engine}; only the {len(data):,} counts left the engine."
            )
        return (
            f"{count:,} rows are drawn as {len(data):,} points, computed in {reading.engine}; "
            "only these points left the engine."
        )

    return _Reduced(
        _columns_only(ys, [x, *series]), tuple(notes), kind="grouped", grouped=grouped,
        placed=count, late=drawn_note,
    )  # fmt: skip


def _clean_facts(
    reading: EngineReading, x: str, ys: list[str], series: list[str]
) -> LineFacts | None:
    """The line's facts from the facts this ``view()`` already counted, when they hold them:
    every column it uses counted, none holding a missing value (so no row is left out) nor an
    infinite number; None otherwise (they are then counted over the rows kept)."""
    backend = _backend(reading)
    used = list(dict.fromkeys([x, *ys, *series]))
    known = backend.remembered()
    if not set(used) <= set(known) or (len(series) == 1 and known[series[0]].distinct is None):
        return None
    facts = {n: known[n] for n in used}
    if any(f.values != reading.total for f in facts.values()):
        return None
    schema = dict(reading.schema)
    for m in ys:
        f = facts[m]
        if schema[m].is_float() and not (
            f.lo is not None and np.isfinite(f.lo) and np.isfinite(f.hi)
        ):
            return None
    if len(series) > 1:
        return None  # (the pairs of the series' values are the backend's to count)
    n_series = int(facts[series[0]].distinct or 0) if series else 1
    return LineFacts(reading.total, (reading.total,) * len(ys), facts[x].lo, facts[x].hi,
                     n_series)  # fmt: skip


def _bars(
    reading: EngineReading,
    grouped: PlacedGroups,
    terms: list[Term],
    x: str,
    ys: list[str],
    facets: list[str],
    how: str | None,
    max_points: int,
    notes: list[str | Note],
) -> _Reduced | str:
    """Bars per category: the aggregate per (category, facet), or the rows counted — the
    backend's groups of the rows the chart places (``PlacedGroups``), which decide.py draws,
    ranks and cuts to its top from (``Whole.grouped``); the groups of a category alone (a
    single measure's, or the rows counted) are cut to the top ``max_points`` in the engine
    (only they leave it)."""

    keys = [x, *facets]
    used = [x, *ys, *facets]
    aggregate = (how or "mean") if ys else "count"
    groups = grouped.groups(keys, ys, aggregate)
    if groups.frame.empty:
        return f"The {reading.engine} frame holds no row to draw in {_names(used)}."
    cut = groups.categories is not None and groups.categories > len(groups.frame)
    # the categories past the top are not left out: they are the rows a top-N puts aside, as
    # decide.py counts them, so the rows placed are counted over every group
    n_rows = groups.grouped if cut else sum(groups.rows[0])
    if len(ys) > 1:
        # a row stands behind one bar per measure it holds: the rows the chart places are
        # those holding one of them at least, as decide.py counts them (the sum over
        # measures counted a row once per measure, and the View said a negative number of
        # rows left out; counting the rows holding every measure said too many)
        n_rows = _backend(reading).count(terms)
    what = "rows counted" if not ys else f"{how or 'mean'} of {_names(ys)}"
    left = len(groups.frame)

    def drawn(plan: Plan) -> str:
        """The engine's note, counting the bars the plan draws of these groups."""
        if cut:  # the engine's top groups left it; the chart shows its own top of them
            return (
                f"{n_rows:,} rows are reduced to the {what} per {_names(keys)} in "
                f"{reading.engine}; only the {left:,} highest left the engine."
            )
        bars = len(plan.data) if plan.data is not None else left
        return (
            f"{n_rows:,} rows are drawn as {bars:,} bars, computed in {reading.engine}: "
            f"the {what} per {_names(keys)}; only these rows left the engine."
        )

    return _Reduced(
        _columns_only(ys, keys), tuple(notes), kind="grouped", grouped=grouped, placed=n_rows,
        late=drawn,
    )  # fmt: skip


def _histogram(
    reading: EngineReading,
    declaration: Mapping[str, ColumnDeclaration],
    broken: Mapping[str, ColumnViolation],
    name: str,
    others: list[str],
    over: str,
    counts: PlacedCounts,
) -> _Reduced | str:
    """One number alone: count bars of its values (fewer than 15), else 10 equal bins, with
    decide.py's very edges; only the counts leave the engine. The facts and the groups are
    the backend contract's, of the rows the chart places."""
    empty = _no_value(reading, declaration, broken, [name])
    counted = counts((name,))
    span = counted.held(name, enough=COUNT_BARS_UNDER)
    if span is None:
        return _cannot(over, name)
    n = span.rows  # (the rows the chart places: each holds a value)
    notes = _left_out(reading, declaration, broken, [name])
    notes += _unplaced(reading, declaration, [name], {name: "x"})
    if empty is not None:
        notes.append(empty)
    if span.distinct < COUNT_BARS_UNDER:
        notes.append(
            f"{n:,} rows are drawn as {span.distinct} bars, computed in {reading.engine}: the "
            f"rows counted per value of {name}; only these counts left the engine."
        )
    else:
        notes.append(
            f"{n:,} rows are drawn as a histogram of {HISTOGRAM_BINS} bins, computed in "
            f"{reading.engine}; only the counts left the engine."
        )
    # decide.py plans the histogram from these counts: the frame holds the columns, no row
    return _Reduced(
        _columns_only([name, *others], []), tuple(notes), kind="bins", counted=counts,
        placed=n,
    )  # fmt: skip


def _heatmap(
    reading: EngineReading,
    declaration: Mapping[str, ColumnDeclaration],
    broken: Mapping[str, ColumnViolation],
    x: str,
    y: str,
    color: str | None,
    facet: str | None,
    max_points: int,
    over: str,
    auto_color: Callable[[], str | None],
    counts: PlacedCounts,
) -> _Reduced | str:
    """Two numbers over ``max_points`` rows: decide.py's heatmap of counts, binned in the
    engine on the same edges; at most ``max_points`` placeable rows are fetched (decide.py
    asks them, ``Whole.rows``) and drawn as points."""

    if color is None:  # decide.py's automatic color (not drawn in a heatmap, but named)
        color = auto_color()
    # a color and facet beside the numbers place the rows too (their offenders left out, as
    # memory leaves them out), drawn or not
    extras = list(dict.fromkeys(c for c in (color, facet) if c is not None and c not in (x, y)))
    empty = _no_value(reading, declaration, broken, [x, y], beside=extras)
    counted = counts((x, y), tuple(extras))
    sx, sy = counted.held(x, enough=0), counted.held(y, enough=0)
    n = sx.rows if sx is not None and sy is not None else 0  # (the rows the chart places)
    notes = _left_out(reading, declaration, broken, [x, y, *extras])
    notes += _unplaced(reading, declaration, [x, y, *extras], {x: "x", y: "y"})
    if empty is not None:
        notes.append(empty)
    if not n:  # decide.py's table: every row left out, and why
        said = [m.sentence if isinstance(m, Note) else m for m in notes]
        return nothing_to_draw(said or [f"No row holds a value of both {x} and {y}."])
    assert sx is not None and sy is not None
    if n <= max_points:
        # decide.py draws these points one by one, colored: it fetches them with their color
        # and facet (Whole.rows), and cleans and notes those as it does in memory
        return _Reduced(
            _columns_only([x, y], extras), tuple(notes), kind="bins", counted=counts, drawn=n
        )
    # decide.py plans the heatmap from these counts, on its own edges (the same function's of
    # the same span: the one query below is the one it asks again, answered from memory)
    bins = cells_per_axis(max_points)
    edges = (cell_edges(sx.lo, sx.hi, bins), cell_edges(sy.lo, sy.hi, bins))
    _, held = counted.per_bin((x, y), edges)
    notes.append(
        f"{n:,} rows are binned in {reading.engine}; only the {len(held):,} cells that hold "
        "rows left the engine."
    )
    return _Reduced(
        _columns_only([x, y], extras), tuple(notes), kind="bins", counted=counts, drawn=n,
        placed=n,
    )  # fmt: skip


def _columns_only(numbers: list[str], others: list[str]) -> pd.DataFrame:
    """A frame of the columns decide.py plans a histogram, heatmap or bars of, and no row: the
    rows stay in the engine, and the plan reads their counts or groups (``Whole.counted``,
    ``Whole.grouped``). ``others`` are bars' category and facet, a heatmap's color and facet
    (named, not drawn); a histogram's other measures are among ``numbers``, there so decide.py
    words it as it would with them ("the only measure" or not)."""
    return pd.DataFrame(
        {**{c: pd.Series([], dtype=float) for c in numbers},
         **{c: pd.Series([], dtype=object) for c in others if c not in numbers}}
    )  # fmt: skip


def _left_out(
    reading: EngineReading,
    declaration: Mapping[str, ColumnDeclaration],
    broken: Mapping[str, ColumnViolation],
    used: list[str],
) -> list[str | Note]:
    """The offenders each used column leaves out, as values (kind, column, counts): the
    in-memory plan's ``left-out`` notes, said in the engine's words."""
    return [
        Note(
            "left-out",
            f"{broken[c].affected:,} of {reading.total:,} rows are left out of the chart in "
            f"{reading.engine}: {c} is declared {declaration[c].type} and they "
            f"{describe_offenders(broken[c])}. Nothing was converted.",
            c,
            (("rows", broken[c].affected), ("of", reading.total)),
        )
        for c in dict.fromkeys(used)
        if c in broken
    ]


def _names(names: Sequence[str]) -> str:
    names = list(dict.fromkeys(names))
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _no_value(
    reading: EngineReading,
    declaration: Mapping[str, ColumnDeclaration],
    broken: Mapping[str, ColumnViolation],
    used: list[str],
    together: Sequence[str] = (),
    *,
    beside: Sequence[str] = (),
) -> Note | None:
    """decide.py's ``no-value`` note, counted by the backend (``tally``, one pass): the rows
    that hold no value (null, or NaN) in a column that may miss one (declared nullable, or
    undeclared) while every other used column places theirs — or no value in any of
    ``together`` (a line's several measures: a row holding one of them is drawn). A null where
    the declaration forbids one is an offender (the ``left-out`` note counts it). None when no
    row is such, or when a column that may miss a value has offenders too (its nulls are then
    both, and only the left-out count is said). The categories ``beside`` them (a color, a
    facet, bars' x) place the rows too: a row one of them leaves out is counted there, not
    here, as memory counts it."""
    schema = dict(reading.schema)
    may_miss = [c for c in used if (d := declaration.get(c)) is None or d.nullable]
    together = list(together)
    if any((d := declaration.get(c)) is not None and not d.nullable for c in together):
        together = []  # one of them misses no value but as an offender: some row holds it
    if not (may_miss or together) or any(c in broken for c in [*may_miss, *together]):
        return None

    def holds(c: str) -> Condition:  # a value the chart places (a finite one for numbers)
        numeric = schema[c].is_numeric() and dtype_value_type(schema[c]) == "number"
        return Condition(c, "finite") if numeric else Condition(c, "null", negate=True)

    placed: list[Term] = [  # each column places its value, or (one that may miss it) holds none
        AnyOf((Condition(c, "null"), holds(c))) if c in may_miss or c in together else holds(c)
        for c in dict.fromkeys([*used, *together])
    ]
    aside = [c for c in dict.fromkeys(beside) if c in declaration and c not in used]
    placed += _placing(declaration, aside, aside)
    holes: list[Term] = [Condition(c, "null") for c in may_miss]
    if together:  # (in the order decide.py names them: after the axis that may miss one)
        holes.append(AnyOf(tuple(Condition(c, "null", negate=True) for c in together),
                           negate=True))  # fmt: skip
    tests: dict[str, list[Term]] = {"n": [AnyOf(tuple(holes))]}
    tests.update({f"g{i}": [h] for i, h in enumerate(holes)})
    counted = _backend(reading).tally(placed, tests)
    if not counted["n"]:
        return None
    gaps = [c for i, c in enumerate(may_miss) if counted[f"g{i}"]]
    if together and counted[f"g{len(may_miss)}"]:
        gaps += together
    return no_value_note(counted["n"], gaps)


def _unplaced(
    reading: EngineReading,
    declaration: Mapping[str, ColumnDeclaration],
    used: Sequence[str],
    channels: Mapping[str, str],
) -> list[Note]:
    """decide.py's ``unplaced`` notes, counted in the engine: per measure (``channels``: its
    axis), the rows holding an infinite number — among the rows no used column's declaration
    leaves out, as decide.py counts them — and the first of them. One counting pass for all
    the measures; none when the facts this ``view()`` counted already hold their span, and it
    is finite (the common case: no query at all)."""
    schema, known = dict(reading.schema), _backend(reading).remembered()
    maybe = []
    for c in channels:
        if not schema[c].is_float():
            continue  # an integer or a decimal holds no infinity
        f = known.get(c)
        finite = f is not None and (
            f.values == 0
            or (f.lo is not None and np.isfinite(float(f.lo)) and np.isfinite(float(f.hi)))
        )
        if not finite:
            maybe.append(c)
    if not maybe:
        return []
    backend = _backend(reading)
    valid = [Condition(c, "valid", declaration[c]) for c in dict.fromkeys(used) if c in declaration]
    # (keyed by place: a column may be named "rows", the tally's own key for the total)
    tests = {f"t{i}": [Condition(c, "infinite")] for i, c in enumerate(maybe)}
    tallied = backend.tally(valid, tests)
    counted = {c: tallied[f"t{i}"] for i, c in enumerate(maybe)}
    out = []
    for c in maybe:
        if counted[c]:
            first = backend.page([*valid, Condition(c, "infinite")], 0, 1)[c].iloc[0]
            out.append(unplaced_note(channels[c], c, counted[c], first))
    return out


def _grouped_placing(
    declaration: Mapping[str, ColumnDeclaration], keys: Sequence[str], measures: Sequence[str]
) -> list[Term]:
    """The rows a line or bars of ``keys`` (the x first, then the color and facet) and
    ``measures`` place (``_placing``): a date x is the time, every other key a category; of
    several measures a missing one leaves only that measure out."""
    x, rest = keys[0], list(keys[1:])
    nominal = rest if declaration[x].type == "date" else [x, *rest]
    multi = len(measures) > 1
    return _placing(declaration, [x, *measures, *rest], nominal,
                    optional=list(measures) if multi else [])  # fmt: skip


def _placing(
    declaration: Mapping[str, ColumnDeclaration],
    used: Sequence[str],
    nominal: Sequence[str],
    *,
    optional: Sequence[str] = (),
) -> list[Term]:
    """The rows the chart can place, as decide.py keeps them, in the terms a selection of its
    marks reads back (``clauses.where`` of each used column's ``Placed``): each value of its
    declared type; x and y hold a value (a finite one for numbers); a category, color or facet
    holds one unless it is declared nullable (a null category keeps its rows); of several
    measures (``optional``) a missing value leaves only that measure out, an infinite one the
    row, and a row holding none of them has no place."""
    placed = []
    for name in dict.fromkeys(used):
        decl = declaration[name]
        kind: VegaLiteType = (
            "nominal" if name in nominal
            else "temporal" if decl.type == "date"
            else "quantitative"
        )  # fmt: skip
        placed.append(Placed(name, kind, decl.type, decl.nullable, optional=name in optional))
    held = [AnyOf(tuple(Condition(m, "null", negate=True) for m in optional))] if optional else []
    return [*where(placed), *held]
