"""A selection compiled to the backend contract's terms, and evaluated by the backend that
holds the rows.

``where(selection)`` turns a ``Selection``'s clauses into ``Condition`` / ``AnyOf`` terms
(``chartkit.backends``): a ``Placed`` clause becomes the tests every drawn row passes (of its
declared type, a finite number, a present date), an ``Equals`` a category (``None``: the missing
one) or a point's date, a ``Range`` a half-open bin or time bucket (``ge`` + ``lt``, the last bin
``le``) in the chart's zone, a ``NoneOf`` the categories a top-N chart cut (``in``, negated), and
the rows left out the negation of the placement. Every backend — in memory, DuckDB, polars,
pyarrow, Ibis, Spark — evaluates the same terms through ``count`` / ``tally`` / ``page``; the
query backend turns them into narwhals expressions over columns named by position, so no column
name of a tool's reaches an engine as text.

``engine_rows_behind`` is ``rows_behind`` for rows that stayed in their engine: the page comes
first (the filter and the limit go to the engine together, so it stops once the page is full),
then one counting pass over the selected rows (their number and the offenders per column); the
offending cells of a row are judged on the page's rows alone. ``selected_frame`` is the
selected rows as a frame of the same engine, for a chart of them alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chartkit.backends._contract import AnyOf, Condition, Term, negated
from chartkit.errors import ChartkitError

if TYPE_CHECKING:
    from chartkit.backends.selection import Clause, Placed, RowsPage, Selection
    from chartkit.read.engines import EngineReading
    from chartkit.view import View

__all__ = ["engine_rows_behind", "selected_frame", "where"]


def where(selection: Selection) -> list[Term]:
    """The selection as a ``where`` list every backend evaluates (``Backend.count`` / ``page``).

    >>> from chartkit.backends.selection import Equals, Placed, Selection
    >>> s = Selection((Placed("n", "quantitative"), Equals("team", "nominal", None)))
    >>> [(c.column, c.op, c.negate) for c in where(s)]
    [('n', 'finite', False), ('team', 'null', False)]
    >>> left = where(Selection(s.clauses, "left-out"))
    >>> [(c.column, c.op, c.negate) for c in left[0].terms]
    [('n', 'finite', True)]
    """
    from chartkit.backends.selection import Placed

    placed: list[Term] = []
    rest: list[Term] = []
    for c in selection.clauses:
        if isinstance(c, Placed):
            placed.extend(_placed(c))
        else:
            rest.extend(_holds(c))
    if selection.kind == "left-out":
        return [negated(placed)] if placed else [AnyOf(())]
    return [*placed, *rest]


def _placed(c: Placed) -> list[Term]:
    """The tests a row's value of ``c.column`` passes when the chart places it."""
    out: list[Term] = []
    decl = c.declaration
    if decl is not None:
        out.append(Condition(c.column, "valid", decl))
    if c.type == "quantitative":
        if c.optional:  # one of several measures: no value leaves only it out
            out.append(Condition(c.column, "infinite", negate=True))
            out.append(AnyOf((Condition(c.column, "null"), Condition(c.column, "finite"))))
        else:
            out.append(Condition(c.column, "finite"))
    elif c.type == "temporal":
        out.append(Condition(c.column, "null", negate=True))
    return out


def _holds(c: Clause) -> list[Term]:
    from chartkit.backends.selection import Equals, NoneOf, Range

    if isinstance(c, Equals):
        if c.value is None:
            return [Condition(c.column, "null")]
        value = float(c.value) if c.type == "quantitative" else c.value
        return [Condition(c.column, "eq", value)]
    if isinstance(c, NoneOf):
        shown = tuple(v for v in c.values if v is not None)
        out: list[Term] = []
        if shown:
            out.append(Condition(c.column, "in", shown, negate=True))
        if None in c.values:
            out.append(Condition(c.column, "null", negate=True))
        return out
    if isinstance(c, Range):
        lo, hi = c.start, c.end
        if c.type == "quantitative":
            lo, hi = float(lo), float(hi)
        return [Condition(c.column, "ge", lo),
                Condition(c.column, "le" if c.closed == "both" else "lt", hi)]  # fmt: skip
    raise ChartkitError(f"a {type(c).__name__} clause is not a test of one row's value")


def engine_rows_behind(
    view: View, reading: EngineReading, selection: Selection, *, page: int, page_size: int
) -> RowsPage:
    """``chartkit.backends.selection.rows_behind`` for rows that stayed in their engine."""
    from chartkit.backends.query import QueryBackend
    from chartkit.backends.selection import RowsPage, _Cells

    if reading.csv_text:
        raise ChartkitError(
            f"the rows behind a mark of this {reading.engine} text table are not read in the "
            "engine yet (its cells are text parsed by the declaration); open it typed "
            "(Parquet, or a typed relation)"
        )
    backend = QueryBackend(reading)
    terms = where(selection)
    declaration = view.result.result_columns or {}
    judged = {n: d for n, d in declaration.items() if n in backend.columns}
    offends = {n: [Condition(n, "valid", d, negate=True)] for n, d in judged.items()}
    lo = page * page_size
    rows = _pages(backend, terms, lo, page_size)
    counted = backend.tally(terms, offends)
    cells = _Cells(rows)
    bad = {n: cells.offends(n, d) for n, d in judged.items() if n in rows.columns}
    offending = tuple(
        tuple(n for n, b in bad.items() if b[i]) for i in range(len(rows))
    )  # fmt: skip
    at = tuple(range(lo, lo + len(rows)))  # places among the rows behind: no row order here
    total = counted.pop("rows")
    return RowsPage(selection, rows, at, offending, counted, total, page, page_size)


def _pages(backend: Any, terms: list[Term], offset: int, size: int) -> Any:
    """``size`` rows from the ``offset``-th, a contract page (``MAX_PAGE`` rows) at a time."""
    import pandas as pd

    from chartkit.backends._contract import MAX_PAGE

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
        raise ChartkitError(f"this view was refused, so no row of it is shown: {view.reason}")
    reading = read_engine_frame(view.result.rows)
    if not isinstance(reading, EngineReading):
        raise ChartkitError(
            "this view's rows are in memory, not in an engine; select them with "
            "Selection.mask(view.frame)"
        )
    return QueryBackend(reading).selected(where(selection))
