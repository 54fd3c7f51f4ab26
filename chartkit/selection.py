"""A selection: which rows a mark stands for, as a typed predicate, and the rows behind it.

Clicking a mark or brushing an interval of a chartkit chart gives a ``Selection``: clauses that
say, in the declared types, which rows the chart drew there — a category (``None`` is the
"missing" category), a half-open bin ``[start, end)`` (the last bin closed, as numpy bins), a
time bucket ``[start, end)`` on the wall clock or in UTC (the zone the chart showed), a facet,
one measure of several — and the ``Placed`` clauses every drawn row meets: each used column of
its declared type, a number finite, a date present. ``Selection.left_out(view)`` is the rows the
chart did not place ("the 2,094 rows left out"), ``Selection.others(view)`` the categories a
top-N bar chart cut.

``rows_behind(view, selection)`` (``View.rows_behind``) evaluates it where the rows are — in
memory, or in the engine that holds them (``engine_rows_behind``, through its backend) — and
returns a ``RowsPage``: the rows of one page as the tool sent them, each row's offending cells,
and the offenders per column among all the rows behind the selection. The clauses themselves,
and their evaluation in memory and as the backend contract's terms, are
``chartkit.backends.clauses``'s.

>>> from chartkit import view
>>> v = view([{"team": "a", "n": 1}, {"team": "a", "n": 3}, {"team": "b", "n": "x"},
...           {"team": "b", "n": 2}], {"team": "string", "n": "number"})
>>> s = Selection.from_datum(v, {"team": "a", "n": 2.0, "rows": 2})
>>> s.describe()
'team = "a"'
>>> page = v.rows_behind(s)
>>> page.total, page.rows["n"].tolist()
(2, [1, 3])
>>> left = v.rows_behind(Selection.left_out(v))
>>> left.total, left.offending, left.offenders
(1, (('n',),), {'team': 0, 'n': 1})
"""

from __future__ import annotations

import datetime as dt
import math
import threading
import weakref
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Literal

import numpy as np
import pandas as pd

from chartkit.backends import MAX_PAGE, Condition, Term
from chartkit.backends.clauses import (
    Cells,
    Clause,
    Equals,
    NoneOf,
    Placed,
    Range,
    Zone,
    clause_from_dict,
    describe_clause,
    is_number,
    number_value,
    plain_value,
    short_json,
    timestamp_value,
    where,
)
from chartkit.errors import ChartkitError
from chartkit.plan.encode import VegaLiteType

if TYPE_CHECKING:
    from chartkit.read.engines import EngineReading
    from chartkit.views import View

__all__ = [
    "DEFAULT_PAGE_SIZE",
    "MAX_PAGE_SIZE",
    "Clause",
    "Equals",
    "NoneOf",
    "Placed",
    "Range",
    "RowsPage",
    "Selection",
    "SelectionKind",
    "Zone",
    "drill",
    "drill_inputs",
    "drill_payload",
    "engine_rows_behind",
    "positions_behind",
    "rows_behind",
    "selected_frame",
]

DEFAULT_PAGE_SIZE: Final = 50
MAX_PAGE_SIZE: Final = 10_000
"""Rows one page may hold: a page is what a UI shows at once, never the whole result."""
SelectionKind = Literal["mark", "interval", "left-out", "others"]
_MEASURE: Final = "measure"  # plan.decide.MEASURE: the field naming one of several measures
_VALUE: Final = "value"  # chartkit.plan.decide.VALUE: the field holding their values
_PERIODS: Final[Mapping[str, str]] = {"week": "W-SUN", "month": "M", "quarter": "Q", "year": "Y"}
_FIXED: Final[Mapping[str, int]] = {"minute": 60, "hour": 3600, "day": 86400}


@dataclass(frozen=True)
class Selection:
    """Which rows a mark, a brushed interval, the rows left out or a top-N's other categories
    stand for: every clause holds of such a row (``left-out``: some ``Placed`` clause fails).

    Build one from a view: ``of_mark``, ``from_datum`` (a clicked mark's datum, as Vega hands
    it), ``from_interval`` (a brush: Vega-Lite's selection store, Altair's param value),
    ``left_out``, ``others``; or from Python with the clauses themselves.
    """

    clauses: tuple[Clause, ...]
    kind: SelectionKind = "mark"

    def __post_init__(self) -> None:
        if self.kind not in ("mark", "interval", "left-out", "others"):
            raise ChartkitError(
                f"a selection's kind is one of mark, interval, left-out, others; got {self.kind!r}"
            )
        for c in self.clauses:
            if not isinstance(c, Placed | Equals | NoneOf | Range):
                raise ChartkitError(
                    f"a selection's clauses are Placed, Equals, NoneOf or Range values; got "
                    f"{type(c).__name__}"
                )

    # -- built from a view --------------------------------------------------------------

    @classmethod
    def of_mark(cls, view: View, index: int) -> Selection:
        """The rows behind the ``index``-th mark of the view's chart (its data's row)."""
        marks = _marks(view)
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(marks):
            raise ChartkitError(
                f"mark {index!r} is not a mark of this chart; it has {len(marks):,} (0 to "
                f"{len(marks) - 1})"
            )
        if _gaps(view, marks)[index]:
            raise ChartkitError(
                f"mark {index} is a gap in the line: a missing time point, drawn as a break, "
                "with no row behind it; select one of the line's points, or brush its time axis"
            )
        row = marks.iloc[index]
        return cls((*_placed(view, row), *_keys(view, row, marks)), "mark")

    @classmethod
    def from_datum(cls, view: View, datum: Mapping[str, Any]) -> Selection:
        """The rows behind the mark whose datum (the mark's record, as Vega hands it on a
        click: the chart's own fields and values) is ``datum``.

        The mark is found among the chart's records by every field the datum shares with them,
        so the values the spec rounded still find the exact mark they were drawn from; a date
        may be an ISO wall-clock string (as the spec holds it) or epoch milliseconds.
        """
        if not isinstance(datum, Mapping):
            raise ChartkitError(f"a datum is an object of field values; got {_kind(datum)}")
        marks = _marks(view)
        records = _records(view.spec or {})
        fields = [f for f in _key_fields(view) if f in datum]
        if not fields:
            raise ChartkitError(
                f"the datum names none of this chart's fields ({', '.join(_key_fields(view))}); "
                f"it has {', '.join(map(repr, list(datum)[:10])) or 'none'}"
            )
        wanted = {f: _comparable(datum[f]) for f in fields}
        found = [
            i
            for i, rec in enumerate(records)
            if all(_comparable(rec.get(f)) == wanted[f] for f in fields)
        ]
        if len(found) != 1 or len(records) != len(marks):
            what = "no mark" if not found else f"{len(found):,} marks"
            raise ChartkitError(
                f"the datum {short_json(dict(datum))} matches {what} of this chart; a datum of "
                "one of its marks matches exactly one"
            )
        return cls.of_mark(view, found[0])

    @classmethod
    def from_interval(cls, view: View, interval: Mapping[str, Sequence[Any]]) -> Selection:
        """The rows behind the marks a brush covers: ``{field: [low, high]}`` per brushed
        channel (Vega-Lite's interval store, Altair's param value; a field or a column name).

        A mark is covered when its drawn position lies in ``[low, high]``; a binned or
        bucketed axis selects the whole bins or buckets it covers, so the rows are exactly
        those of the covered marks.
        """
        if not isinstance(interval, Mapping) or not interval:
            raise ChartkitError(
                f"an interval is an object {{field: [low, high]}}; got {short_json(interval)}"
            )
        marks = _marks(view)
        encs = {e.field: e for e in view.encodings.values() if e.field}
        by_column = {e.column: e for e in view.encodings.values() if e.field}
        clauses: list[Clause] = list(_placed(view, None))
        for name, bounds in interval.items():
            enc = encs.get(name) or by_column.get(name)
            if enc is None or enc.aggregate is not None or enc.measures:
                raise ChartkitError(
                    f"{name!r} is not a brushable axis of this chart; brush one of "
                    f"{', '.join(repr(f) for f, e in encs.items() if _brushable(e)) or 'none'}"
                )
            if enc.type == "nominal":
                values = tuple(_label_value(v) for v in _sequence(bounds, name))
                clauses.append(_one_of(enc.column, values))
                continue
            lo, hi = _bounds(bounds, name, enc.type)
            clauses.append(_covered(view, enc, marks, lo, hi))
        return cls(tuple(clauses), "interval")

    @classmethod
    def left_out(cls, view: View) -> Selection:
        """The rows the chart does not place: an offender of the declaration on an axis, a
        number no chart can place, no value on a measure or time axis."""
        _marks(view)
        return cls(tuple(p for p in _placed(view, None) if not p.optional), "left-out")

    @classmethod
    def others(cls, view: View) -> Selection:
        """The rows of the categories a top-N bar chart does not show (its note says how many)."""
        marks = _marks(view)
        if view.reduction.top is None:
            raise ChartkitError("this chart shows every category: it has no other categories")
        enc = next(e for c, e in view.encodings.items() if e.type == "nominal" and c != "facet")
        shown = tuple(dict.fromkeys(plain_value(v) for v in marks[enc.field]))
        return cls((*_placed(view, None), NoneOf(enc.column, "nominal", shown)), "others")

    # -- reading ------------------------------------------------------------------------

    def describe(self) -> str:
        """The selection in one line: its clauses other than the placement every row meets."""
        if self.kind == "left-out":
            return "the rows left out of the chart"
        parts = [
            describe_clause(c) for c in self.clauses if not isinstance(c, Placed) or not c.optional
        ]
        parts = [p for p in parts if p]
        return " and ".join(parts) or "every row the chart draws"

    def to_dict(self) -> dict[str, Any]:
        """The selection as JSON: its kind and clauses (dates as ISO text)."""
        return {"kind": self.kind, "clauses": [c.to_dict() for c in self.clauses],
                "description": self.describe()}  # fmt: skip

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Selection:
        """The selection ``to_dict`` wrote (a front end may send it back)."""
        if not isinstance(data, Mapping) or not isinstance(data.get("clauses"), list):
            raise ChartkitError(
                f"a selection is an object with 'kind' and 'clauses'; got {short_json(data)}"
            )
        return cls(tuple(clause_from_dict(c) for c in data["clauses"]), data.get("kind", "mark"))

    def mask(self, frame: pd.DataFrame) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """Which rows of ``frame`` (the view's rows, as the tool sent them) are selected."""
        return Cells(frame).mask(self.clauses, self.kind)


@dataclass(frozen=True, eq=False)
class RowsPage:
    """One page of the rows behind a selection, with each row's offending cells.

    ``rows`` holds the page's rows as the tool sent them (every column); ``index`` their
    positions in the result (for rows read in an engine, which keeps no row order, their
    places among the rows behind the selection);
    ``offending`` per row the columns whose cell breaks the
    declaration; ``offenders`` per declared column the offending cells among all ``total``
    rows behind the selection (not just this page).
    """

    selection: Selection
    rows: pd.DataFrame = field(repr=False)
    index: tuple[int, ...]
    offending: tuple[tuple[str, ...], ...]
    offenders: Mapping[str, int]
    total: int
    page: int
    page_size: int

    @property
    def pages(self) -> int:
        """How many pages the rows behind the selection take (at least one)."""
        return max(1, math.ceil(self.total / self.page_size))

    def to_dict(self) -> dict[str, Any]:
        """The page as JSON for a front end: rows as objects (values capped, dates as ISO
        text), each row's offending columns, the counts."""
        from chartkit._safe import cap_sample

        rows = [
            {str(k): cap_sample(plain_value(v)) for k, v in rec.items()}
            for rec in self.rows.to_dict(orient="records")
        ]
        return {
            "selection": self.selection.to_dict(),
            "rows": rows,
            "index": list(self.index),
            "offending": [list(o) for o in self.offending],
            "offenders": dict(self.offenders),
            "total": self.total,
            "page": self.page,
            "pageSize": self.page_size,
            "pages": self.pages,
        }


def rows_behind(
    view: View, selection: Selection, *, page: int = 0, page_size: int = DEFAULT_PAGE_SIZE
) -> RowsPage:
    """The rows behind ``selection`` in ``view``, one page of them, offenders marked.

    Evaluated where the rows are: the view's own frame in memory, or pushed down into the
    engine that holds them (DuckDB, polars, pyarrow, Ibis, Spark).
    """
    for name, n, low in (("page", page, 0), ("page_size", page_size, 1)):
        if not isinstance(n, int) or isinstance(n, bool) or n < low:
            raise ChartkitError(f"{name} must be an integer of at least {low}, got {n!r}")
    if page_size > MAX_PAGE_SIZE:
        raise ChartkitError(f"page_size is at most {MAX_PAGE_SIZE:,} rows, got {page_size:,}")
    reading = _engine_held(view, selection, "rows_behind")
    assert view.frame is not None
    if reading is not None:
        return engine_rows_behind(view, reading, selection, page=page, page_size=page_size)
    # the rows in memory (an engine frame collected whole: the same rows)
    behind = _behind(view, selection)
    chosen, bad = behind.positions, behind.bad
    lo = page * page_size
    at = chosen[lo : lo + page_size]
    offending = tuple(tuple(n for n, b in bad.items() if b[lo + i]) for i in range(len(at)))
    return RowsPage(
        selection, view.frame.iloc[at].reset_index(drop=True), tuple(int(i) for i in at),
        offending, behind.offenders, len(chosen), page, page_size,
    )  # fmt: skip


def _refused(view: View) -> str:
    """Why a refused view shows no row (its rows behind a mark, or drilled into)."""
    return f"this view was refused, so no row of it is shown: {view.reason}"


def _engine_held(view: View, selection: Selection, what: str) -> EngineReading | None:
    """The engine reading when the view's rows stayed in their engine (None: in memory), once
    ``selection`` is a Selection and the view holds rows to select from."""
    if not isinstance(selection, Selection):
        raise ChartkitError(f"{what} takes a Selection; got {type(selection).__name__}")
    if view.kind == "refused":
        raise ChartkitError(_refused(view))
    if view.frame is None:
        raise ChartkitError(f"this view holds no rows to select from: {view.reason}")
    from chartkit.read.engines import EngineReading, read_engine_frame

    reading = read_engine_frame(view.result.rows)
    if isinstance(reading, EngineReading) and reading.total > len(view.frame):
        return reading
    return None


def positions_behind(view: View, selection: Selection) -> np.ndarray[Any, np.dtype[np.intp]]:
    """The positions in the result of every row behind ``selection``, in memory (read-only).

    Evaluated once per view and selection: ``rows_behind`` of any page of it, and this, read
    the same evaluation (a view keeps the last few), so a UI that shows a page and checks
    every row behind it evaluates the selection once.

    >>> from chartkit import view
    >>> v = view([{"team": "a", "n": 1}, {"team": "b", "n": 2}, {"team": "a", "n": 3}],
    ...          {"team": "string", "n": "number"})
    >>> positions_behind(v, Selection.of_mark(v, 0)).tolist()
    [0, 2]
    """
    reading = _engine_held(view, selection, "positions_behind")
    if reading is not None:
        raise ChartkitError(
            f"the rows of this view stayed in {reading.engine}, which keeps no row order, so "
            "they have no positions; page them with View.rows_behind, or chart them with "
            "View.drill"
        )
    return _behind(view, selection).positions


# -- the rows behind, in their engine -------------------------------------------------------


def engine_rows_behind(
    view: View, reading: EngineReading, selection: Selection, *, page: int, page_size: int
) -> RowsPage:
    """``rows_behind`` for rows that stayed in their engine: the page first (the filter and
    the limit go to the engine together, so it stops once the page is full), then one counting
    pass over the selected rows (their number and the offenders per column); the offending
    cells of a row are judged on the page's rows alone."""
    from chartkit.backends.query import QueryBackend

    if reading.csv_text:
        raise ChartkitError(
            f"the rows behind a mark of this {reading.engine} text table are not read in the "
            "engine yet (its cells are text parsed by the declaration); open it typed "
            "(Parquet, or a typed relation)"
        )
    backend = QueryBackend(reading)
    terms = where(selection.clauses, selection.kind)
    declaration = view.result.result_columns or {}
    judged = {n: d for n, d in declaration.items() if n in backend.columns}
    # (keyed by place: a column may be named "rows", the tally's own key for the total)
    offends = {f"t{i}": [Condition(n, "valid", d, negate=True)]
               for i, (n, d) in enumerate(judged.items())}  # fmt: skip
    lo = page * page_size
    rows = _pages(backend, terms, lo, page_size)
    tallied = backend.tally(terms, offends)
    total = tallied["rows"]
    counted = {n: tallied[f"t{i}"] for i, n in enumerate(judged)}
    cells = Cells(rows)
    bad = {n: cells.offends(n, d) for n, d in judged.items() if n in rows.columns}
    offending = tuple(
        tuple(n for n, b in bad.items() if b[i]) for i in range(len(rows))
    )  # fmt: skip
    at = tuple(range(lo, lo + len(rows)))  # places among the rows behind: no row order here
    return RowsPage(selection, rows, at, offending, counted, total, page, page_size)


def _pages(backend: Any, terms: list[Term], offset: int, size: int) -> Any:
    """``size`` rows from the ``offset``-th, a contract page (``MAX_PAGE`` rows) at a time."""
    parts = []
    while size > 0:
        step = min(size, MAX_PAGE)
        part = backend.page(terms, offset, step)
        parts.append(part)
        if len(part) < step:
            break
        offset, size = offset + step, size - step
    return parts[0] if len(parts) == 1 else pd.concat(parts, ignore_index=True)


def selected_frame(view: View, selection: Selection) -> Any:
    """The rows behind ``selection`` as a frame of the engine that holds the view's rows, under
    the columns' own names and lazy where the engine is — ``view(selected_frame(v, s),
    declaration)`` charts them alone, checked against the same declaration, in the engine."""
    from chartkit.backends.query import QueryBackend
    from chartkit.read.engines import EngineReading, read_engine_frame

    if view.kind == "refused":
        raise ChartkitError(_refused(view))
    reading = read_engine_frame(view.result.rows)
    if not isinstance(reading, EngineReading):
        raise ChartkitError(
            "this view's rows are in memory, not in an engine; select them with "
            "Selection.mask(view.frame)"
        )
    return QueryBackend(reading).selected(where(selection.clauses, selection.kind))


def drill(view: View, selection: Selection, *, max_points: int = 5000) -> View:
    """A view of just the rows behind ``selection``, drawn as ``view`` was: the same tool,
    declaration and dial (so those rows are checked again, their findings their own) and the
    same picks — x, y, color, facet, the aggregate, the time unit, the sort, the format and
    the scale (an axis the parent put on a log scale stays on one) — reduced again over those
    rows: a brushed hour of a day's line is bucketed anew.

    In memory the rows are the tool's own (a list of dicts stays one); rows an engine holds
    stay in it (``selected_frame``), and the new chart is reduced there.

    >>> from chartkit import view
    >>> v = view([{"day": f"2024-01-{d:02d}", "n": d} for d in range(1, 11)],
    ...          {"day": "date", "n": "number"})
    >>> d = drill(v, Selection.from_interval(v, {"day": ["2024-01-03", "2024-01-05"]}))
    >>> d.mark, d.result.rows[0], d.marks["n"].tolist()
    ('line', {'day': '2024-01-03', 'n': 3}, [3.0, 4.0, 5.0])
    """
    return view.drill(selection, max_points=max_points)


def drill_inputs(
    view: View, selection: Selection
) -> tuple[Any, dict[str, Any], dict[str, Any], tuple[str, ...]]:
    """What ``View.drill`` draws again: the rows behind ``selection`` (the tool's own in
    memory, a frame of the engine that holds them), the picks (x, y, color, facet), the chart
    options as ``view()`` takes them, and the columns whose axis the parent put on a log scale
    by the rule (``ChartOptions.log_columns``: kept there)."""
    from chartkit.read.engines import EngineReading, read_engine_frame

    _marks(view)  # a chart: a table or a refused result has no selection to drill into
    if not isinstance(selection, Selection):
        raise ChartkitError(f"drill takes a Selection; got {type(selection).__name__}")
    assert view.frame is not None
    rows: Any = view.result.rows
    reading = read_engine_frame(rows)
    if isinstance(reading, EngineReading) and reading.total > len(view.frame):
        data: Any = selected_frame(view, selection)  # the rows stay in their engine
    else:
        at = positions_behind(view, selection)
        if isinstance(rows, list) and len(rows) == len(view.frame):
            data = [rows[int(i)] for i in at]
        elif isinstance(rows, pd.DataFrame) and len(rows) == len(view.frame):
            data = rows.iloc[at].reset_index(drop=True)
        else:
            data = view.frame.iloc[at].reset_index(drop=True)
    if isinstance(data, list | pd.DataFrame) and not len(data):
        raise ChartkitError(f"no row is behind {selection.describe()}: nothing to chart")
    picks: dict[str, Any] = {k: view.drawn.get(k) for k in ("x", "y", "color", "facet")}
    if isinstance(picks["y"], tuple):
        picks["y"] = list(picks["y"])
    logged = tuple(dict.fromkeys(
        n.column for n in view.facts if n.kind == "log-scale" and n.column is not None
    ))  # fmt: skip
    options = view.options
    chart = {
        "aggregate": view.drawn.get("aggregate"), "time_unit": options.get("timeUnit"),
        "sort": options.get("sort"), "format": options.get("format"),
        "scale": _drilled_scale(view, logged), "zero": options.get("zero"),
    }  # fmt: skip
    return data, picks, chart, logged


def _drilled_scale(view: View, logged: tuple[str, ...]) -> str | None:
    """The scale a drilled chart is asked for: none where the parent put axes on a log scale by
    the rule (``ChartOptions.log_columns`` keeps them), the parent's pick where a log scale was
    refused (judged again over the drilled rows), else the scale the parent drew — so the rows
    of a linear chart are not put on a log scale the parent did not choose."""
    if logged:
        return None
    if any(n.kind == "log-refused" for n in view.facts):
        return "log"
    scale = view.options.get("scale")
    return scale if isinstance(scale, str) else None


_KEPT: Final = 8
"""How many selections' rows a view keeps evaluated (the last ones asked for)."""


@dataclass(frozen=True, eq=False)
class _Evaluated:
    """The rows behind one selection: their positions, and per declared column which of them
    offend (judged over those rows only, when the chart did not judge the column already)."""

    positions: np.ndarray[Any, np.dtype[np.intp]]
    bad: Mapping[str, np.ndarray[Any, np.dtype[np.bool_]]]
    offenders: Mapping[str, int]


class _Memo:
    """What a view keeps for its selections: its columns as the chart takes them, and the
    last ``_KEPT`` selections evaluated."""

    def __init__(self, view: View) -> None:
        frame = view.frame
        assert frame is not None
        declaration = view.result.result_columns or {}
        clean: frozenset[str] = frozenset()
        if view.violations is not None:  # the verdicts the chart was planned with
            flagged = {v.column for v in view.violations}
            clean = frozenset(n for n in declaration if n not in flagged)
        self.cells = Cells(frame, clean)
        self.evaluated: OrderedDict[str, _Evaluated] = OrderedDict()
        self.lock = threading.Lock()


_MEMOS: weakref.WeakKeyDictionary[View, _Memo] = weakref.WeakKeyDictionary()
_MEMOS_LOCK: Final = threading.Lock()


def _memo(view: View) -> _Memo:
    with _MEMOS_LOCK:
        memo = _MEMOS.get(view)
        if memo is None:
            memo = _MEMOS[view] = _Memo(view)
        return memo


def _behind(view: View, selection: Selection) -> _Evaluated:
    """The rows behind ``selection`` in the view's frame, evaluated once (then kept)."""
    memo = _memo(view)
    key = repr(selection)  # the clauses' values with their types: True is not 1, nor "True"
    with memo.lock:
        got = memo.evaluated.get(key)
        if got is not None:
            memo.evaluated.move_to_end(key)
            return got
    frame, cells = memo.cells.frame, memo.cells
    chosen = np.flatnonzero(cells.mask(selection.clauses, selection.kind))
    chosen.flags.writeable = False
    bad: dict[str, np.ndarray[Any, np.dtype[np.bool_]]] = {}
    for name, decl in (view.result.result_columns or {}).items():
        if name not in frame.columns:
            continue
        if cells.judged(name, decl):
            bad[name] = cells.offends(name, decl)[chosen]
        else:  # a column the chart does not judge: only the rows behind are
            from chartkit.check.judge import offending_mask

            bad[name] = offending_mask(frame[name].iloc[chosen], decl)
    got = _Evaluated(chosen, bad, {n: int(b.sum()) for n, b in bad.items()})
    with memo.lock:
        memo.evaluated[key] = got
        while len(memo.evaluated) > _KEPT:
            memo.evaluated.popitem(last=False)
    return got


def drill_payload(view: View) -> dict[str, Any] | None:
    """What a front end needs to ask for the rows behind a mark (``View.to_dict()["drill"]``):
    the fields that tell marks apart and the column, type and zone behind each; the placement
    every drawn row meets; the time bucket or unit, the bins, the top-N; the brushable fields.
    None when there is no chart. Send a clicked mark's datum, a brush's ``{field: [low,
    high]}`` or a ``Selection.to_dict()`` back to Python (``Selection.from_datum`` …)."""
    if view.kind != "chart" or view.marks is None:
        return None
    keys = []
    for e in view.encodings.values():
        if not e.field or e.aggregate is not None:
            continue
        measured = bool(e.measures) and e.field != _MEASURE
        keys.append({
            "field": e.field,
            "column": e.column if not measured else None,
            "type": e.type,
            "bin": e.bin,
            "zone": _zone(view, e.column) if e.type == "temporal" else None,
        })  # fmt: skip
    r = view.reduction
    return {
        "marks": len(view.marks),
        "keys": keys,
        "placed": [p.to_dict() for p in _placed(view, None)],
        "bucketSeconds": r.bucket_seconds,
        "timeUnit": r.time_unit,
        "bins": list(r.bins),
        "top": r.top,
        "brushable": [
            e.field for e in view.encodings.values() if _brushable(e) and e.type != "nominal"
        ],
    }


def _marks(view: View) -> pd.DataFrame:
    if view.kind != "chart" or view.marks is None:
        what = "was refused" if view.kind == "refused" else "is a table"
        raise ChartkitError(f"this view {what}, so it has no marks to select: {view.reason}")
    return view.marks


def _gaps(view: View, marks: pd.DataFrame) -> np.ndarray[Any, np.dtype[np.bool_]]:
    """Which of the marks are a line's gaps: the row of no value its plan adds at a missing
    time point (``chartkit.plan.gaps.broken_at_gaps``) so the line breaks there.

    Such a row is in the chart's data, as Vega-Lite needs it, but stands for no row of the
    result, so it is no mark to select. Every other mark holds its measure: a row of no value
    on a measure is left out of the chart, never drawn.
    """
    measured = [
        e.field for e in view.encodings.values()
        if e.field in marks.columns and not e.bin
        and (e.aggregate is not None or e.type == "quantitative")
    ]  # fmt: skip
    if not measured:
        return np.zeros(len(marks), dtype=bool)
    return np.asarray(marks[measured].isna().any(axis=1), dtype=bool)


def _records(spec: Mapping[str, Any]) -> list[Any]:
    """The chart's records as the spec holds them (inline, or a named dataset)."""
    data = spec.get("data") or {}
    if "values" in data:
        return list(data["values"])
    return list((spec.get("datasets") or {}).get(data.get("name"), []))


def _key_fields(view: View) -> list[str]:
    out: list[str] = []
    for e in view.encodings.values():
        if not e.field or e.aggregate is not None:
            continue
        out.append(e.field)
        if e.bin:
            out.append(f"{e.field}_end")
    return list(dict.fromkeys(out))


def _brushable(e: Any) -> bool:
    return bool(e.field) and e.aggregate is None and not e.measures


def _used(view: View) -> list[tuple[str, VegaLiteType, bool]]:
    """The columns the chart placed: (column, type, one of several measures) — with a color or
    facet the chart reduced by but does not show (a heatmap's), whose rows it placed too."""
    out: dict[str, tuple[str, VegaLiteType, bool]] = {}
    for e in view.encodings.values():
        if e.measures and e.field == _MEASURE:
            continue  # the series of measures: no column of the tool's
        if e.measures:
            for m in e.measures:
                out.setdefault(m, (m, "quantitative", len(e.measures) > 1))
            continue
        out.setdefault(e.column, (e.column, e.type, False))
    for channel in ("color", "facet"):
        name = view.drawn.get(channel)
        if isinstance(name, str) and name not in out:
            out[name] = (name, _hidden_type(view, name), False)
    # rows counted that had to hold the measure drawn (a label's rows, counted per bucket)
    y, counted = view.drawn.get("y"), view.encodings.get("y")
    if isinstance(y, str) and y not in out and counted is not None and counted.field == "count":
        out[y] = (y, "quantitative", False)
    return list(out.values())


def _hidden_type(view: View, name: str) -> VegaLiteType:
    """The type a column the chart reduced by but does not show was planned with: its
    declared type's, else what the profile of an undeclared column says."""
    from chartkit.plan.encode import profile_columns, vegalite_type

    d = (view.result.result_columns or {}).get(name)
    if d is not None:
        return vegalite_type(d.type)
    if view.frame is None or name not in view.frame.columns:
        return "nominal"
    return profile_columns(view.frame[[name]], None, ())[name].type


def _placed(view: View, row: pd.Series | None) -> list[Placed]:
    declaration = view.result.result_columns or {}
    picked = str(row[_MEASURE]) if row is not None and _MEASURE in row.index else None
    out = []
    for name, vl, optional in _used(view):
        d = declaration.get(name)
        out.append(
            Placed(name, vl, d.type if d else None, bool(d and d.nullable),
                   optional and name != picked)
        )  # fmt: skip
    return out


def _zone(view: View, column: str) -> Zone:
    e = next((e for e in view.encodings.values() if e.column == column), None)
    return "UTC" if e is not None and e.title.endswith(" (UTC)") else "wall clock"


def _keys(view: View, row: pd.Series, marks: pd.DataFrame) -> list[Clause]:
    """The clauses that tell this mark's rows from the other marks' rows."""
    out: list[Clause] = []
    # a measure drawn as it is (no aggregate) tells marks apart only when no category, date or
    # bin does: a scatter's points; a bar or a line's point is its category or date
    keyed = any(
        c in ("x", "y") and e.aggregate is None and (e.type != "quantitative" or e.bin)
        for c, e in view.encodings.items()
    )
    for e in view.encodings.values():
        if not e.field or e.aggregate is not None or (e.measures and e.field == _MEASURE):
            continue
        if keyed and e.type == "quantitative" and not e.bin:
            continue
        value = row[e.field]
        column = str(row[_MEASURE]) if e.measures else e.column
        if e.bin:
            end = row[f"{e.field}_end"]
            last = bool(end == marks[f"{e.field}_end"].max())
            out.append(Range(column, e.type, float(value), float(end), "both" if last else "left"))
        elif e.type == "temporal":
            start = timestamp_value(value)
            zone = _zone(view, e.column)
            if start is None:
                out.append(Equals(column, e.type, None, zone))
                continue
            end = _bucket_end(view, start)
            if end is None:
                out.append(Equals(column, e.type, start.to_pydatetime(), zone))
            else:
                out.append(Range(column, e.type, start.to_pydatetime(), end, "left", zone))
        elif e.type == "quantitative":
            out.append(Equals(column, e.type, number_value(value)))
        else:
            out.append(Equals(column, e.type, plain_value(value)))
    return out


def _bucket_end(view: View, start: pd.Timestamp) -> dt.datetime | None:
    """The end of the time bucket or unit that starts at ``start``; None when unbucketed."""
    seconds = view.reduction.bucket_seconds
    unit = view.reduction.time_unit or ""
    if seconds:
        end: pd.Timestamp = start + pd.Timedelta(seconds=seconds)
    elif unit in _FIXED:
        end = start + pd.Timedelta(seconds=_FIXED[unit])
    elif unit in _PERIODS:
        end = (start.to_period(_PERIODS[unit]) + 1).start_time
    else:
        return None
    got: dt.datetime = end.to_pydatetime()
    return got


def _covered(view: View, enc: Any, marks: pd.DataFrame, lo: Any, hi: Any) -> Clause:
    """The rows of the marks whose drawn position on ``enc``'s axis lies in ``[lo, hi]``."""
    zone = _zone(view, enc.column) if enc.type == "temporal" else None
    if enc.type == "temporal":
        drawn = pd.to_datetime(marks[enc.field][~_gaps(view, marks)])
        starts = drawn[(drawn >= lo) & (drawn <= hi)]
        if not enc.bin and _bucket_end(view, pd.Timestamp("2000-01-01")) is None:
            return Range(enc.column, "temporal", lo.to_pydatetime(), hi.to_pydatetime(), "both",
                         zone)  # fmt: skip
        if starts.empty:
            return Range(enc.column, "temporal", lo.to_pydatetime(), lo.to_pydatetime(), "left",
                         zone)  # fmt: skip
        first, last = starts.min(), starts.max()
        end = _bucket_end(view, last)
        return Range(enc.column, "temporal", first.to_pydatetime(), end, "left", zone)
    if not enc.bin:
        return Range(enc.column, enc.type, float(lo), float(hi), "both")
    starts = marks[enc.field].astype(float)
    inside = marks[(starts >= lo) & (starts <= hi)]
    if inside.empty:
        return Range(enc.column, enc.type, float(lo), float(lo), "left")
    top = float(inside[f"{enc.field}_end"].max())
    last = top == float(marks[f"{enc.field}_end"].max())
    return Range(enc.column, enc.type, float(inside[enc.field].min()), top,
                 "both" if last else "left")  # fmt: skip


def _one_of(column: str, values: tuple[Any, ...]) -> Clause:
    if len(values) == 1:
        return Equals(column, "nominal", values[0])
    raise ChartkitError(
        f"a brush on the categories of {column} selects one category at a time; got {len(values):,}"
    )


def _comparable(value: Any) -> Any:
    """A record's value as it compares with a datum's: dates as epoch ms, numbers as floats."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str) and len(value) >= 10 and value[4:5] == "-" and value[7:8] == "-":
        try:
            ts = timestamp_value(value)
        except ChartkitError:
            return value
        return None if ts is None else float(ts.value // 1_000_000)
    return value


def _label_value(value: Any) -> Any:
    if value is None or isinstance(value, str | bool):
        return value
    raise ChartkitError(f"a category is text, true, false or null; got {short_json(value)}")


def _sequence(bounds: Any, name: str) -> list[Any]:
    if isinstance(bounds, str | bytes) or not isinstance(bounds, Sequence):
        raise ChartkitError(
            f"the interval of {name!r} is a list of values; got {short_json(bounds)}"
        )
    return list(bounds)


def _bounds(bounds: Any, name: str, vl: str) -> tuple[Any, Any]:
    lo: Any
    hi: Any
    items = _sequence(bounds, name)
    if len(items) != 2:
        raise ChartkitError(f"the interval of {name!r} is [low, high]; got {len(items):,} values")
    if vl == "temporal":
        lo, hi = (timestamp_value(v) for v in items)
        if lo is None or hi is None:
            raise ChartkitError(f"the interval of {name!r} needs two dates; got null")
    else:
        if not all(is_number(v) and math.isfinite(float(v)) for v in items):
            raise ChartkitError(
                f"the interval of {name!r} needs two finite numbers; got {short_json(items)}"
            )
        lo, hi = (float(v) for v in items)
    return (lo, hi) if lo <= hi else (hi, lo)


def _kind(value: Any) -> str:
    return f"a {type(value).__name__}"
