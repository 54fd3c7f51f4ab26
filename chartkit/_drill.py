"""The rows behind a selection, read in the engine that holds them (DuckDB, polars, pyarrow,
Ibis, Spark): the selection's clauses as narwhals expressions over the frame's columns named by
position (``chartkit.backends._native``), so no column name of a tool's reaches the engine as
text. Only the count, the offenders per column and one page of rows leave the engine.

The backends' ``Condition`` list (``Backend.count`` / ``page``) says a category, a bin or a
bucket; a selection also says what the chart placed (a value of its declared type, a finite
number), the categories a top-N chart cut, and the rows left out — a negation — so it is
evaluated here, on the same positional frame the query backend reads.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from chartkit.errors import ChartkitError

if TYPE_CHECKING:
    from chartkit.columns import ColumnDeclaration
    from chartkit.read.engines import EngineReading
    from chartkit.selection import Clause, RowsPage, Selection
    from chartkit.view import View

__all__ = ["engine_rows_behind"]


def engine_rows_behind(
    view: View, reading: EngineReading, selection: Selection, *, page: int, page_size: int
) -> RowsPage:
    """``chartkit.selection.rows_behind`` for rows that stayed in their engine."""
    import narwhals as nw

    from chartkit.backends._native import aliases, collect, positional
    from chartkit.read.engines import query_errors
    from chartkit.selection import RowsPage, _Cells

    if reading.csv_text:
        raise ChartkitError(
            f"the rows behind a mark of this {reading.engine} text table are not read in the "
            "engine yet (its cells are text parsed by the declaration); open it typed "
            "(Parquet, or a typed relation)"
        )
    schema = dict(reading.schema)
    alias = aliases(reading)
    declaration = view.result.result_columns or {}
    judged = {n: d for n, d in declaration.items() if n in schema}
    ev = _Exprs(schema, alias)
    where = ev.selection(selection)
    with query_errors(reading, "select the rows behind a mark"):
        chosen = positional(reading).filter(where)
        counts = [nw.len().alias("n")] + [
            ev.offends(n, d).cast(nw.Int64).sum().alias(f"o{i}")
            for i, (n, d) in enumerate(judged.items())
        ]
        got = collect(reading, list(judged), "count", chosen.select(*counts)).iloc[0]
        total = int(got["n"] or 0)
        offenders = {n: int(got[f"o{i}"] or 0) for i, n in enumerate(judged)}
        lo = page * page_size
        rows = collect(reading, list(reading.columns), "page", chosen.head(lo + page_size))
    rows = rows.iloc[lo:].reset_index(drop=True)
    cells = _Cells(rows)
    bad = {n: cells.offends(n, d) for n, d in judged.items() if n in rows.columns}
    offending = tuple(
        tuple(n for n, b in bad.items() if b[i]) for i in range(len(rows))
    )  # fmt: skip
    at = tuple(range(lo, lo + len(rows)))  # places among the rows behind: no row order here
    return RowsPage(selection, rows, at, offending, offenders, total, page, page_size)


class _Exprs:
    """A selection's clauses as narwhals expressions over the positional frame."""

    def __init__(self, schema: Mapping[str, Any], alias: Mapping[str, str]) -> None:
        self.schema = schema
        self.alias = alias

    def col(self, name: str) -> Any:
        import narwhals as nw

        if name not in self.alias:
            raise ChartkitError(f"the selection names {name!r}, which is no column of these rows")
        return nw.col(self.alias[name])

    def selection(self, s: Selection) -> Any:
        import narwhals as nw

        from chartkit.selection import Placed

        placed = nw.lit(True)
        rest = nw.lit(True)
        for c in s.clauses:
            if isinstance(c, Placed):
                placed = placed & self.placed(c)
            else:
                rest = rest & self.holds(c)
        return ~placed if s.kind == "left-out" else placed & rest

    def offends(self, name: str, decl: ColumnDeclaration) -> Any:
        """The check's verdict on each cell, from the column's dtype (``chartkit._verdicts``)."""
        import narwhals as nw

        from chartkit._frame_check import value_type
        from chartkit._verdicts import OK, string_verdict, verdict

        dtype = self.schema[name]
        col = self.col(name)
        missing = _missing(col, dtype)
        type_name = value_type(dtype)
        settled = (
            string_verdict(decl.type) if type_name == "string"
            else verdict(decl.type, type_name) if type_name is not None
            else None
        )  # fmt: skip
        if settled is None:
            raise ChartkitError(
                f"{name!r} is declared {decl.type} and its {dtype} cells are judged value by "
                "value; the rows behind a mark of it are not read in the engine yet"
            )
        # a column's own expression even where the verdict is constant: an engine sums it
        if settled == OK:
            return missing & nw.lit(False) if decl.nullable else missing
        return ~missing if decl.nullable else missing | nw.lit(True)

    def placed(self, c: Any) -> Any:
        import narwhals as nw

        dtype = self.schema[c.column]
        col = self.col(c.column)
        decl = c.declaration
        ok = ~self.offends(c.column, decl) if decl is not None else nw.lit(True)
        if c.type == "quantitative":
            if dtype.is_float():
                finite = col.is_finite().fill_null(False)
                if c.optional:
                    return ok & (finite | col.is_nan().fill_null(False) | col.is_null())
                return ok & finite
            if not dtype.is_numeric():
                return nw.lit(False)
            return ok if c.optional else ok & ~col.is_null()
        if c.type == "temporal":
            return ok & ~col.is_null()
        return ok

    def holds(self, c: Clause) -> Any:
        import narwhals as nw

        from chartkit.selection import Equals, NoneOf, Range

        dtype = self.schema[c.column]
        col = self.col(c.column)
        if isinstance(c, Equals):
            if c.value is None:
                return _missing(col, dtype)
            # never negated (``placed & rest``): a null test filters its row out, as False
            # would, and leaves the engine free to prune by the column's statistics
            if c.type == "quantitative":
                return (
                    col.cast(nw.Float64) == float(c.value)
                    if not dtype.is_float()
                    else col == float(c.value)
                )
            if c.type == "temporal":
                return self.time(col, dtype) == self.moment(c.value, dtype)
            return col == c.value
        if isinstance(c, NoneOf):
            shown = [v for v in c.values if v is not None]
            among = col.is_in(shown).fill_null(False) if shown else nw.lit(False)
            if None in c.values:
                return ~among & ~col.is_null()
            return ~among
        if not isinstance(c, Range):
            raise ChartkitError(f"a {type(c).__name__} clause is not a test of one row's value")
        if c.type == "temporal":
            x, lo, hi = (
                self.time(col, dtype),
                self.moment(c.start, dtype),
                self.moment(c.end, dtype),
            )
        else:
            x, lo, hi = (
                (col if dtype.is_float() else col.cast(nw.Float64)),
                float(c.start),
                float(c.end),
            )
        upper = x <= hi if c.closed == "both" else x < hi
        return (x >= lo) & upper

    def time(self, col: Any, dtype: Any) -> Any:
        import narwhals as nw

        if dtype == nw.Date:
            return col.cast(nw.Datetime("us"))
        return col

    def moment(self, value: Any, dtype: Any) -> Any:
        """A selection's naive date as the column compares it: in UTC for a zoned column."""
        import narwhals as nw

        if not isinstance(value, dt.datetime):
            raise ChartkitError(f"a date clause holds a datetime, got {type(value).__name__}")
        if isinstance(dtype, nw.Datetime) and dtype.time_zone:  # the instant, in the column's zone
            from zoneinfo import ZoneInfo

            zone = dtype.time_zone
            moment = value.replace(tzinfo=dt.UTC).astimezone(ZoneInfo(zone))
            return nw.lit(moment, nw.Datetime("us", zone))
        return nw.lit(value, nw.Datetime("us"))


def _missing(col: Any, dtype: Any) -> Any:
    if dtype.is_float():
        return col.is_null() | col.is_nan().fill_null(False)
    return col.is_null()
