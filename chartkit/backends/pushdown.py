"""The rows of a ``view()`` that stay in a query engine (``EngineSource``): only aggregated rows
leave it.

``view()`` runs one pipeline for every source (``chartkit.views``); an engine frame of at most
``max_points`` rows is collected as it is and planned in memory (``collected_rows``). A larger
one is ``EngineSource``'s, reduced where it lives, through
narwhals' lazy API (the engine's own only where narwhals lacks an operation, said in place), to
what the chart draws; ``decide.py`` plans the chart, as it plans every chart, from the
engine's own facts, groups, counts and notes, which it asks of the backend itself
(``Whole.grouped``, ``Whole.counted``, ``Whole.rows``, ``Whole.said``: the frame it is handed
holds every declared column and no row) — which chart, the bucket, the series, whether a
color is a label, the ranking and top, the bins:

- lines over time: the aggregate (``aggregate=``, the mean by default, or the rows counted)
  per time bucket — ``time_unit=``, or the bucket ``decide.py`` picks for the span,
  ``max_points`` and the series — per color, measure (``y=[…]``) and facet;
- bars per category: the aggregate per category, measure and facet, or the rows counted
  (``decide.py`` ranks them and keeps its top 30 from the groups); ``sort=`` as in pandas;
- one number alone: count bars of its values (fewer than 15), else a histogram of 10 bins;
- two numbers: a heatmap of counts, binned on ``decide.py``'s very edges (a value on an edge
  opens the next bin, as numpy places it);
- ``choose=N``: the Nth alternative of the same call, planned with its picks by the pipeline.

This module chooses nothing: ``decide.py``'s one pass chooses the chart (the automatic
chart's candidates, what the picks draw: ``chartkit.plan.choose``), so the chart, its rows,
reason, alternatives, refusals and tables equal those of the same rows in pandas
(tests/test_engines.py and tests/test_backend_views.py hold each kind to that). Here are only
the engine's refusals (``_refused``: what it cannot compute), the answers decide.py asks for
(``_whole``), and, after the plan, what left the engine and the note saying so (``_told``,
``_left_engine``, read from ``Plan.drawn`` and the questions the plan asked). A histogram or
heatmap leaves no row: ``decide.py`` asks its counts of the engine (``Whole.counted``: the
span, the rows per value and per bin of the rows the chart places,
``chartkit.backends.counts``), so it bins on its own edges and the counts are the engine's.
Rows that cannot be placed are left out in the engine, and the notes say how many (``_Said``:
the offenders from the ``ColumnViolation``, the rows holding no value or an infinite number).

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
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

import numpy as np
import pandas as pd

from chartkit._safe import NAME_MAX_CHARS, cap_text, visible, workable_frame
from chartkit.backends._contract import AnyOf, Condition, Planning, Term, Told
from chartkit.backends._native import aliases as _aliases
from chartkit.backends._native import collect as _collect
from chartkit.backends._native import positional as _frame
from chartkit.backends.clauses import Placed, where
from chartkit.backends.counts import PlacedCounts, PlacedGroups, PlacedRows
from chartkit.backends.memory import MemorySource
from chartkit.backends.query import QueryBackend
from chartkit.check.judge import ColumnViolation
from chartkit.check.verdicts import dtype_value_type
from chartkit.columns import ColumnDeclaration
from chartkit.errors import ChartkitError
from chartkit.plan import choose
from chartkit.plan.decide import (
    ChartOptions,
    Plan,
    Whole,
    no_value_note,
    unplaced_note,
)
from chartkit.plan.encode import (
    ColumnProfile,
    VegaLiteType,
    describe_offenders,
)
from chartkit.plan.groups import LineFacts
from chartkit.plan.kit import COUNT_BARS_UNDER, HISTOGRAM_BINS
from chartkit.plan.roles import KEY_VALUES
from chartkit.plan.spec import Note
from chartkit.read.csvread import parse_cell
from chartkit.read.dialects import at_position, count_true, uncast_dates
from chartkit.read.engines import EngineReading, held_text, parsed_cells, parsed_kinds

__all__ = ["EngineSource", "collected_rows", "profiling_pass"]


class EngineSource:
    """The rows of one ``view()`` that stay in a query engine (``chartkit.backends.Source``):
    an engine frame over ``max_points`` rows, answered by one ``QueryBackend`` made here.

    Built at the door, before the check: the profiling pass of every column the chart may
    read is counted first (``profiling_pass``), so the check reads its null and NaN counts
    from this source's ``reading`` (``EngineReading.counted``) and costs no query of its own.
    A CSV's text, and a DuckDB text column declared date, are parsed by the declaration in
    the engine first (``typed``: the typed reading is profiled instead, after the check).
    """

    plans_choose = False

    def __init__(
        self,
        reading: EngineReading,
        declaration: Mapping[str, ColumnDeclaration] | None,
        max_points: int,
    ) -> None:
        self._reading = reading
        self.declaration = dict(declaration or {})
        self.max_points = max_points
        if self.declaration and _profiled_first(reading, self.declaration):
            try:
                profiling_pass(self.backend, self.declaration)
            except ChartkitError:
                pass  # the check counts on its own, and the chart's own query says what failed

    def __repr__(self) -> str:
        return f"EngineSource(engine={self._reading.engine!r}, rows={self._reading.total})"

    @property
    def reading(self) -> EngineReading:
        return self._reading

    @cached_property
    def typed(self) -> EngineReading | str:
        """The reading with its text cells parsed by the declaration in the engine (the
        reading itself when there is nothing to parse), or the reason they cannot be."""
        return _typed(self._reading, self.declaration, self.max_points)

    @cached_property
    def backend(self) -> QueryBackend:
        """The one backend of this ``view()``: every question the chart asks is asked of it,
        and each is counted once (its facts are the typed reading's)."""
        typed = self.typed
        return QueryBackend(self._reading if isinstance(typed, str) else typed)

    def profiles(
        self,
        declaration: Mapping[str, ColumnDeclaration] | None,
        violations: tuple[ColumnViolation, ...],
    ) -> dict[str, ColumnProfile]:
        if isinstance(self.typed, str):
            return {}  # (the refusal says why)
        broken = {v.column: v for v in violations}
        return _chart_profiles(self.backend, self.declaration, broken)

    def refusal(
        self,
        declaration: Mapping[str, ColumnDeclaration] | None,
        violations: tuple[ColumnViolation, ...],
        profiles: Mapping[str, ColumnProfile],
        picks: Mapping[str, Any],
        chart_args: Mapping[str, Any],
    ) -> str | None:
        if isinstance(self.typed, str):
            return self.typed
        broken = {v.column: v for v in violations}
        x, y, color = picks.get("x"), picks.get("y"), picks.get("color")
        x, y, color = picks.get("x"), picks.get("y"), picks.get("color")
        return _refused(self.backend, self.declaration, broken, profiles, x, y, color,
                        self.max_points, chart_args)  # fmt: skip

    @cached_property
    def _in_memory(self) -> MemorySource | None:
        reading = self._reading
        if reading.lazy:
            return None
        return MemorySource(reading, collected_rows(reading, self.declaration), planned_with=False)

    def collected(self) -> MemorySource | None:
        """An eager frame (in memory already) drawn in a way the engine does not aggregate:
        pandas reads it, and the plan reduces it as usual. None for a lazy one."""
        return self._in_memory

    def planning(
        self,
        declaration: Mapping[str, ColumnDeclaration] | None,
        violations: tuple[ColumnViolation, ...],
        profiles: Mapping[str, ColumnProfile],
    ) -> Planning:
        """Every declared column and no row, and what the plan asks of the engine (the
        counts, groups, rows and notes of the rows the chart places: ``_whole``); once
        planned, what left the engine (``_told``)."""
        backend, decl = self.backend, self.declaration
        broken = {v.column: v for v in violations}
        every = _columns_only([n for n, q in profiles.items() if q.type == "quantitative"],
                              list(profiles))  # fmt: skip
        whole = _whole(backend, decl, broken, self.max_points)
        return Planning(
            every, whole, lambda plan, options: _told(backend, decl, plan, whole, every,
                                                      profiles, options)
        )  # fmt: skip


def collected_rows(
    reading: EngineReading, declaration: Mapping[str, ColumnDeclaration] | None
) -> Callable[[], pd.DataFrame]:
    """How the rows of an engine frame leave it whole (at most ``max_points`` of them, or an
    eager frame in memory already): collected, a CSV's declared cells parsed as
    ``chartkit.read.csvread`` parses them (a cell that does not parse stays its text)."""

    def rows() -> pd.DataFrame:
        frame = _collect(reading, reading.columns, "collect")
        return _parsed_cells(frame, declaration) if reading.csv_text and declaration else frame

    return rows


def _profiled_first(reading: EngineReading, declaration: Mapping[str, ColumnDeclaration]) -> bool:
    """Whether the profiling pass is counted before the check: not for text the engine
    parses first (a CSV's, or a DuckDB text column declared date: ``_typed``), whose typed
    reading is counted instead."""
    if reading.csv_text:
        return False
    if reading.dialect.sql_helpers and reading.lazy:  # a DuckDB relation: see _typed
        native_types = reading.dialect.native_types(reading.native)
        return not any(d.type == "date" and native_types.get(n) == "VARCHAR"
                       for n, d in declaration.items())  # fmt: skip
    return True


def _told(
    backend: QueryBackend,
    declaration: Mapping[str, ColumnDeclaration],
    plan: Plan,
    whole: _Whole,
    every: pd.DataFrame,
    profiles: Mapping[str, ColumnProfile],
    options: ChartOptions | None,
) -> Told:
    """What the engine adds to the plan of rows that stay in it: what it computed and what
    left it (``_left_engine``), the rows the chart places, of how many."""
    reading = backend.reading
    if plan.kind != "chart":
        return Told(every, total=reading.total)
    how = (options or ChartOptions()).aggregate
    frame, placed, said = _left_engine(backend, declaration, plan, whole, how)
    noted = any(n.kind == "no-value" for n in plan.facts)  # (only then read)
    return Told(
        every if frame is None else frame, notes=(said,) if said else (),
        left_out=reading.total - placed, total=reading.total,
        empty=_empty(backend, plan, profiles) if noted else None,
    )  # fmt: skip


def _empty(
    backend: QueryBackend, plan: Plan, profiles: Mapping[str, ColumnProfile]
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
    facts = backend.facts(list(dict.fromkeys(drawn)), distinct=[])
    return tuple(c for c in dict.fromkeys(drawn) if facts[c].values < facts[c].rows)


def _chart_profiles(
    backend: QueryBackend,
    declaration: Mapping[str, ColumnDeclaration],
    broken: Mapping[str, ColumnViolation],
) -> dict[str, ColumnProfile]:
    """Every declared column's profile (``_profiles``), present when the engine holds it as
    its declared type: what decide.py chooses and plans an engine's chart from (a column the
    engine holds as another type is judged value by value only when the rows leave it) — or
    when every row of it offends (it is drawn nowhere, and the reasons say what it holds)."""
    reading = backend.reading
    schema = dict(reading.schema)

    def held(q: ColumnProfile) -> bool:
        if not q.present:  # (a missing column: its profile says so)
            return True
        v = q.violation
        whole = v is not None and v.affected == v.total
        return whole or dtype_value_type(schema[q.name]) == declaration[q.name].type

    return {
        n: q if held(q) else replace(q, present=False, held_as=_engine_type(schema[n]))
        for n, q in _profiles(backend, declaration, broken).items()
    }


def _engine_type(dtype: Any) -> str:
    """An engine type as a sentence quotes it: its unsafe characters shown, cut at
    ``NAME_MAX_CHARS`` (a struct's field names are a tool's, of any length)."""
    return cap_text(visible(str(dtype)), NAME_MAX_CHARS)


def _profiles(
    backend: QueryBackend,
    declaration: Mapping[str, ColumnDeclaration],
    broken: Mapping[str, ColumnViolation],
) -> dict[str, ColumnProfile]:
    """Every declared column's profile, as the backend contract counts it
    (``Backend.profiles``: its declared type, the check's finding, whether the engine holds
    it, a category's distinct values), in the declaration's order. The counts are the one
    pass of this ``view()`` (``profiling_pass``), made first if it was not."""
    profiling_pass(backend, declaration)
    got = backend.profiles(declaration, tuple(broken.values()))
    return {n: got[n] for n in declaration}


def _parsed_cells(
    frame: pd.DataFrame, declaration: Mapping[str, ColumnDeclaration]
) -> pd.DataFrame:
    """A CSV's declared columns parsed by ``chartkit.read.csvread``, as the check judged them
    in the engine (a cell that does not parse stays its text; an empty cell, which DuckDB
    reads as NULL and pandas then holds as NaN, is missing)."""

    out = frame.copy()
    for name, decl in declaration.items():
        if name in out.columns:
            cells = out[name].tolist()
            out[name] = pd.Series(
                [parse_cell(c, decl.type) if isinstance(c, str) else None for c in cells],
                index=out.index,
                dtype=object,
            )
    return out


def _typed(
    reading: EngineReading, declaration: Mapping[str, ColumnDeclaration], max_points: int
) -> EngineReading | str:
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
    types = {name: decl.type for name, decl in declaration.items()}
    kinds = parsed_kinds(reading, types)  # (DuckDB's relations only)
    if not kinds:
        return reading
    import narwhals as nw

    dialect = reading.dialect
    dates = [n for n, kind in kinds.items() if kind == "date"]
    try:
        # parsed once and held by the engine (the check read its offenders from the same
        # rows): each later query (the odd dates' count, the profiling pass, the reduction)
        # reads the parsed values instead of matching every cell again
        held = held_text(reading, types)
        if held is not None:
            source = held.native
            counted = [count_true(at_position(held.flag_at(n))).alias(f"n{k}")
                       for k, n in enumerate(dates)]  # fmt: skip
            values = [at_position(i).alias(name) for i, name in enumerate(reading.columns)]
            native = dialect.project(source, values)
        else:
            source = reading.native
            at = {name: i for i, name in enumerate(reading.columns)}
            counted = [uncast_dates(at_position(at[n])).alias(f"n{k}")
                       for k, n in enumerate(dates)]  # fmt: skip
            native = dialect.project(source, parsed_cells(reading, kinds))
        odd: list[tuple[str, int]] = []
        if dates:
            (other,) = dialect.project(source, counted).fetchall()
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
            return reason
        schema_out = tuple(nw.from_native(native).collect_schema().items())
    except Exception as exc:  # duckdb's own errors
        raise ChartkitError(
            f"duckdb could not run the chart's parse query (the text cells read by the "
            f"declaration): {str(exc)[:400]}"
        ) from exc
    return replace(reading, native=native, schema=schema_out, csv_text=False)


@dataclass(frozen=True)
class _Whole(Whole):
    """``decide.Whole`` of rows that stay in the engine, its counts and groups typed as the
    engine answers them (``_told`` reads back the very questions the plan asked)."""

    placed_counts: PlacedCounts | None = None
    placed_groups: PlacedGroups | None = None


def _whole(
    backend: QueryBackend,
    declaration: Mapping[str, ColumnDeclaration],
    broken: Mapping[str, ColumnViolation],
    max_points: int,
) -> _Whole:
    """What the plan asks of the engine when the rows stay there: the counts, groups and rows
    of the rows the chart places, each asked of the engine once, and the notes of those rows
    (``_Said``). decide.py chooses, plans and words the chart from these alone, as it plans
    rows in memory: the engine path never chooses."""
    schema = dict(backend.reading.schema)
    # the counts of the rows a histogram or heatmap of some numbers places, asked once each
    # (a color beside them is a category, or a number or date placed as an axis is)
    counts = PlacedCounts(
        backend,
        lambda names, beside: _placing(declaration, [*names, *beside], [
            c for c in beside if declaration[c].type in ("string", "boolean")
        ]),
    )  # fmt: skip
    # … the facts and groups of the rows a line or bars place, each asked once
    zones = {n: z for n in schema if (z := getattr(schema[n], "time_zone", None)) is not None}
    groups = PlacedGroups(
        backend, lambda keys, ms: _grouped_placing(declaration, keys, ms),
        top=max_points, zones=zones,
        known=lambda at, ms, series: _clean_facts(
            backend, declaration, at, list(ms), list(series)
        ),
        near=lambda at, ms, series: _every_row_facts(
            backend, declaration, at, list(ms), list(series), max_points
        ),
        spanned=backend.reduce_spanned,
    )  # fmt: skip
    # … the rows a chart that draws each row places, when they fit max_points
    rows = PlacedRows(counts, groups, lambda names, terms: _fetch(backend, names, terms))
    return _Whole(counted=counts, grouped=groups, facts=backend, rows=rows,
                  said=_Said(backend, declaration, broken), placed_counts=counts,
                  placed_groups=groups)  # fmt: skip


def _fetch(backend: QueryBackend, names: Sequence[str], terms: Sequence[Term]) -> pd.DataFrame:
    """The rows ``terms`` keep, of the columns ``names``: a plan asks them only when their
    count fits ``max_points``."""
    reading = backend.reading
    alias = _aliases(reading)
    frame = _frame(reading).select(*(alias[c] for c in names))
    keep = backend.keeps(terms)
    if keep is not None:
        frame = frame.filter(keep)
    return workable_frame(_collect(reading, list(names), "rows", frame))


def _refused(
    backend: QueryBackend,
    declaration: Mapping[str, ColumnDeclaration],
    broken: Mapping[str, ColumnViolation],
    profiles: Mapping[str, ColumnProfile],
    x: str | None,
    y: Any,
    color: str | None,
    max_points: int,
    chart_args: Mapping[str, Any],
) -> str | None:
    """The reason the engine cannot answer the chart (a table), or None: decide.py plans it.

    Only what the engine itself cannot do: read a picked column that is not declared (its
    type would be inferred from values that stay in the engine), a column the engine holds
    as another type than its declared one (judged value by value only when the rows leave
    it), an exact median on pyarrow, or the table of no measure where an undeclared column
    may be one. Every other table — a pick that cannot be drawn, every row left out — is
    decide.py's, with the ``ColumnViolation`` behind it, as in memory."""
    reading = backend.reading
    schema = dict(reading.schema)
    opts = chart_args.get("options") or ChartOptions()
    facet = chart_args.get("facet")
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
        if name is None or name not in declaration or name not in schema:
            continue
        decl, v = declaration[name], broken.get(name)
        if dtype_value_type(schema[name]) != decl.type and (v is None or v.affected < v.total):
            return (
                f"{over} from columns whose engine type holds their declared type; "
                f"{name} is declared {decl.type} but the engine holds it as "
                f"{_engine_type(schema[name])}, and it is judged value by value only when the "
                "rows leave the engine. Filter the frame to at most max_points rows first, or cast "
                f"{name} in {reading.engine}."
            )
    if opts.aggregate == "median" and not reading.dialect.exact_median:
        # narwhals' pyarrow median is an approximate one (a t-digest): pandas' is exact
        return f"{over} except an exact median, which pyarrow does not compute."
    if x is None and y is None and opts.aggregate != "count":
        present = [q for q in profiles.values() if q.present]
        loose = [n for n in schema if n not in declaration]
        if loose and not choose.measures(present):
            # no rule opens without a measure, and decide.py would infer an undeclared
            # column's type (a measure, say) from values that stay in the engine
            return _undeclared(over, loose[0], dtype_value_type(schema[loose[0]]) or "string")
    return None


class _Said:
    """``chartkit.plan.groups.Said`` of an engine frame: the notes of the rows a chart places,
    counted in the engine, in its words (``_left_out``, ``_unplaced``, ``_no_value``), each
    question asked once however many candidates decide.py plans."""

    def __init__(
        self,
        backend: QueryBackend,
        declaration: Mapping[str, ColumnDeclaration],
        broken: Mapping[str, ColumnViolation],
    ) -> None:
        self.backend, self.declaration, self.broken = backend, declaration, broken
        self._said: dict[tuple[Any, ...], tuple[Note, ...]] = {}

    def __call__(
        self, used: Sequence[str], axes: Sequence[tuple[str, str]], together: Sequence[str]
    ) -> tuple[Note, ...]:
        asked = (tuple(used), tuple(axes), tuple(together))
        if asked not in self._said:
            self._said[asked] = self._notes(list(dict.fromkeys(used)), dict(axes), list(together))
        return self._said[asked]

    def _notes(
        self, used: list[str], axes: dict[str, str], together: list[str]
    ) -> tuple[Note, ...]:
        backend, declaration, broken = self.backend, self.declaration, self.broken
        # the rows with no value on a time or measure axis (one of several keeps its row);
        # the categories beside them place the rows too
        placing = [c for c in axes if c not in together]
        beside = [c for c in used if c not in axes and c not in together]
        notes = _left_out(backend.reading, declaration, broken, used)
        notes += _unplaced(backend, declaration, used, axes)
        empty = (
            _no_value(backend, declaration, broken, placing, together, beside=beside)
            if placing or together
            else None
        )
        return (*notes, *([empty] if empty is not None else []))


def _left_engine(
    backend: QueryBackend,
    declaration: Mapping[str, ColumnDeclaration],
    plan: Plan,
    whole: _Whole,
    how: str | None,
) -> tuple[pd.DataFrame | None, int, str | None]:
    """What left the engine for the chart ``plan`` draws (the rows it fetched, the counts, or
    the groups), the rows the chart places, and the engine's note saying what it computed:
    read from the plan's picks (``Plan.drawn``) and the very questions the plan asked."""
    reading = backend.reading
    counts, groups = whole.placed_counts, whole.placed_groups
    assert counts is not None and groups is not None
    if plan.fetched is not None:  # the rows themselves: decide.py cleaned them too
        return plan.fetched, len(plan.fetched) - plan.left_out, None
    engine, data = reading.engine, plan.data
    drawn = plan.drawn
    x: str = drawn["x"]
    y = drawn.get("y")
    ys = [y] if isinstance(y, str) else list(y or [])
    kind = declaration[x].type
    if kind == "number" and not ys:  # a histogram, or count bars of a number's values
        span = counts((x,)).held(x, enough=COUNT_BARS_UNDER)
        assert span is not None  # (else decide.py's plan is a table)
        if span.distinct < COUNT_BARS_UNDER:
            said = (
                f"{span.rows:,} rows are drawn as {span.distinct:,} bars, computed in {engine}: "
                f"the rows counted per value of {x}; only these counts left the engine."
            )
        else:
            said = (
                f"{span.rows:,} rows are drawn as a histogram of {HISTOGRAM_BINS} bins, "
                f"computed in {engine}; only the counts left the engine."
            )
        return data, span.rows, said
    if kind == "number":  # a heatmap of counts, or the one point the rows are
        beside = [c for c in (drawn.get("color"), drawn.get("facet"))
                  if isinstance(c, str) and c not in (x, *ys)]  # fmt: skip
        counted = counts((x, ys[0]), tuple(dict.fromkeys(beside)))
        n = getattr(counted.held(x, enough=0), "rows", 0)
        if plan.mark != "rect":
            return data, n, None
        cells = len(data) if data is not None else 0
        return data, n, (
            f"{n:,} rows are binned in {engine}; only the {cells:,} cells that hold rows "
            "left the engine."
        )  # fmt: skip
    if kind == "date":  # lines over time (or stacked bars of a label's counts)
        color = drawn.get("color")
        series = [c for c in (color, drawn.get("facet")) if c is not None]
        rows = groups.line_facts(x, ys, series).rows
        fx = plan.encodings["x"].field if "x" in plan.encodings else None
        bars = data[fx].nunique() if data is not None and fx in data.columns else 0
        if plan.mark == "bar" and color is not None and "color" in plan.encodings and bars > 1:
            said = (
                f"{rows:,} rows are counted in {bars:,} stacked bars, computed in {engine}; "
                f"only the {len(data) if data is not None else 0:,} counts left the engine."
            )
        else:
            said = (
                f"{rows:,} rows are drawn as {len(data) if data is not None else 0:,} points, "
                f"computed in {engine}; only these points left the engine."
            )
        return groups.drawn, rows, said  # (the groups the plan drew last)
    # bars per category (and facet): the aggregate, or the rows counted
    keys = [x, *(drawn[c] for c in ("color", "facet") if drawn.get(c) is not None)]
    got = groups.groups(keys, ys, (how or "mean") if ys else "count")  # (asked: kept)
    cut = got.categories is not None and got.categories > len(got.frame)
    # the categories past the top are not left out: they are the rows a top-N puts aside, as
    # decide.py counts them, so the rows placed are counted over every group
    rows = got.grouped if cut else sum(got.rows[0])
    if len(ys) > 1:
        # a row stands behind one bar per measure it holds: the rows the chart places are
        # those holding one of them at least, as decide.py counts them
        terms = _grouped_placing(declaration, keys, ys)
        rows = backend.count(terms)
    what = "rows counted" if not ys else f"{how or 'mean'} of {_names(ys)}"
    if cut:  # the engine's top groups left it; the chart shows its own top of them
        said = (
            f"{rows:,} rows are reduced to the {what} per {_names(keys)} in {engine}; only "
            f"the {len(got.frame):,} highest left the engine."
        )
    else:
        bars = len(data) if data is not None else len(got.frame)
        said = (
            f"{rows:,} rows are drawn as {bars:,} bars, computed in {engine}: the {what} per "
            f"{_names(keys)}; only these rows left the engine."
        )
    return got.frame, rows, said


def _undeclared(over: str, name: str, kind: str) -> str:
    """The reason for a table when a column the chart would read is not declared."""
    return (
        f"{over} from declared columns; {name} is not declared, and its type would be "
        "inferred from values that stay in the engine. Declare it in result_columns "
        f"({name!r}: {kind!r}, say) to chart it, or filter the frame to at most max_points "
        "rows first."
    )


def profiling_pass(backend: QueryBackend, declaration: Mapping[str, ColumnDeclaration]) -> None:
    """The one profiling pass of an engine frame the chart reduces in place, one query: every
    column that can be a category (its values, distinct values), the span and values of every
    date and number (what a line's bucket needs), and each declared number's ``NumberFacts``
    (the roles' question). The check reads its null and NaN counts from it
    (``chartkit.check._frame_check``), the profiles, roles and a line's facts after it, so
    later questions cost nothing; nothing when counted already."""
    if backend.remembered():
        return
    reading = backend.reading
    schema = dict(reading.schema)
    kinds = {c: dtype_value_type(schema[c]) for c in reading.columns}
    categories = [c for c in reading.columns if kinds[c] in ("string", "boolean")]
    spans = [c for c in reading.columns if kinds[c] in ("date", "number")]
    numbers = [c for c, d in declaration.items() if d.type == "number" and kinds.get(c) == "number"]
    # whether a time keys the rows is asked of at most KEY_VALUES rows: its distinct values
    keys = [c for c in spans if kinds[c] == "date"] if reading.total <= KEY_VALUES else []
    # (a line's own facts, where rows are left out, are read from its groups: ``_every_row_facts``)
    read = [*categories, *spans]
    backend.facts(read, distinct=[*categories, *keys], numbers=numbers)


def _clean_facts(
    backend: QueryBackend,
    declaration: Mapping[str, ColumnDeclaration],
    x: str,
    ys: list[str],
    series: list[str],
) -> LineFacts | None:
    """The line's facts from the facts this ``view()`` already counted, when they hold them:
    every column it uses counted, none holding a missing value (so no row is left out) nor an
    infinite number; None otherwise (they are then every row's, ``_every_row_facts``, or
    counted over the rows kept)."""
    reading = backend.reading
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


def _every_row_facts(
    backend: QueryBackend,
    declaration: Mapping[str, ColumnDeclaration],
    x: str,
    ys: list[str],
    series: list[str],
    max_points: int,
) -> LineFacts | None:
    """A line's facts from the facts of every row (the profiling pass's), when some row it
    would read misses a value: its rows at most (those holding the time and the measure), the
    time's span and the series over every row. The line's bucket is planned from them, and its
    own groups then tell its rows, span and series (``PlacedGroups.line``): the plan asks again
    where they differ. None when they cannot stand for it: several measures or series, a series
    not counted, or rows at most so few the line may draw each (that plan reads no groups)."""
    known = backend.remembered()
    used = list(dict.fromkeys([x, *ys, *series]))
    if len(ys) > 1 or len(series) > 1 or not set(used) <= set(known):
        return None
    if series and known[series[0]].distinct is None:
        return None
    rows = min(known[c].values for c in [x, *ys])
    if rows <= max_points:
        return None
    n_series = 1
    if series:
        s, d = known[series[0]], declaration.get(series[0])
        n_series = int(s.distinct or 0) + (s.values < s.rows and (d is None or d.nullable))
    return LineFacts(rows, (rows,) * len(ys), known[x].lo, known[x].hi, n_series)


def _columns_only(numbers: list[str], others: list[str]) -> pd.DataFrame:
    """A frame of every declared column and no row, the ``numbers`` as floats: the rows stay
    in the engine, and decide.py's plan reads their counts, groups and rows from it
    (``Whole``)."""
    return pd.DataFrame(
        {**{c: pd.Series([], dtype=float) for c in numbers},
         **{c: pd.Series([], dtype=object) for c in others if c not in numbers}}
    )  # fmt: skip


def _left_out(
    reading: EngineReading,
    declaration: Mapping[str, ColumnDeclaration],
    broken: Mapping[str, ColumnViolation],
    used: list[str],
) -> list[Note]:
    """The offenders each used column leaves out, as values (kind, column, counts): the
    in-memory plan's ``left-out`` notes, said in the engine's words."""
    return [
        Note(
            "left-out",
            f"{broken[c].affected:,} of {reading.total:,} rows "
            f"{'is' if broken[c].affected == 1 else 'are'} left out of the chart in "
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
    backend: QueryBackend,
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
    reading = backend.reading
    schema = dict(reading.schema)
    may_miss = [c for c in used if (d := declaration.get(c)) is None or d.nullable]
    together = several = list(together)
    # a row one used column's offenders leave out is counted there, not here (as memory
    # leaves the offenders out first)
    valid: list[Term] = [
        Condition(c, "valid", declaration[c])
        for c in dict.fromkeys([*used, *several]) if c in broken and c in declaration
    ]  # fmt: skip
    if any((d := declaration.get(c)) is not None and not d.nullable for c in together):
        together = []  # one of them misses no value but as an offender: some row holds it
    if not (may_miss or together) or any(c in broken for c in [*may_miss, *together]):
        return None

    def holds(c: str) -> Condition:  # a value the chart places (a finite one for numbers)
        numeric = schema[c].is_numeric() and dtype_value_type(schema[c]) == "number"
        return Condition(c, "finite") if numeric else Condition(c, "null", negate=True)

    placed: list[Term] = [  # each column places its value, or (one that may miss it) holds none
        # (of several measures a missing one leaves only that measure out, an infinite one
        # the row)
        AnyOf((Condition(c, "null"), holds(c))) if c in may_miss or c in several else holds(c)
        for c in dict.fromkeys([*used, *several])
    ]
    aside = [c for c in dict.fromkeys(beside) if c in declaration and c not in used]
    placed += _placing(declaration, aside, aside) + valid
    holes: list[Term] = [Condition(c, "null") for c in may_miss]
    if together:  # (in the order decide.py names them: after the axis that may miss one)
        holes.append(AnyOf(tuple(Condition(c, "null", negate=True) for c in together),
                           negate=True))  # fmt: skip
    counted = _holes_known(backend, may_miss, [*used, *aside], together, valid)
    if counted is None:
        tests: dict[str, list[Term]] = {"n": [AnyOf(tuple(holes))]}
        tests.update({f"g{i}": [h] for i, h in enumerate(holes)})
        counted = backend.tally(placed, tests)
    if not counted["n"]:
        return None
    gaps = [c for i, c in enumerate(may_miss) if counted[f"g{i}"]]
    if together and counted[f"g{len(may_miss)}"]:
        gaps += together
    return no_value_note(counted["n"], gaps)


def _holes_known(
    backend: QueryBackend,
    may_miss: Sequence[str],
    used: Sequence[str],
    together: Sequence[str],
    valid: Sequence[Term],
) -> dict[str, int] | None:
    """``_no_value``'s tally read from the profiling pass, when it holds the answer: one
    column may miss a value, no used column has offenders, every other used column holds a
    value in every row and no used number an infinite one — so the rows holding no value
    there are the rows less its values. None otherwise (the tally is asked)."""
    if len(may_miss) != 1 or together or valid:
        return None
    known = backend.remembered()
    if not set(used) <= set(known):
        return None
    schema = dict(backend.reading.schema)
    for c in used:
        f = known[c]
        if c not in may_miss and f.values != f.rows:
            return None
        if (
            schema[c].is_float()
            and f.values
            and not (f.lo is not None and np.isfinite(float(f.lo)) and np.isfinite(float(f.hi)))
        ):
            return None
    gap = known[may_miss[0]]
    n = gap.rows - gap.values
    return {"n": n, "g0": n}


def _unplaced(
    backend: QueryBackend,
    declaration: Mapping[str, ColumnDeclaration],
    used: Sequence[str],
    channels: Mapping[str, str],
) -> list[Note]:
    """decide.py's ``unplaced`` notes, counted in the engine: per measure (``channels``: its
    axis), the rows holding an infinite number — among the rows no used column's declaration
    leaves out, as decide.py counts them — and the first of them. One counting pass for all
    the measures; none when the facts this ``view()`` counted already hold their span, and it
    is finite (the common case: no query at all)."""
    reading = backend.reading
    schema, known = dict(reading.schema), backend.remembered()
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
    ``measures`` place (``_placing``): a date x is the time, a number (a factor of few levels
    coloring bars) holds a value as an axis does, every other key a category; of several
    measures a missing one leaves only that measure out."""
    x, rest = keys[0], list(keys[1:])
    nominal = rest if declaration[x].type == "date" else [x, *rest]
    nominal = [k for k in nominal if declaration[k].type != "number"]
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
