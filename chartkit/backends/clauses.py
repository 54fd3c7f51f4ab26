"""A selection's clauses: typed tests of one row's value, evaluated by the backend holding
the rows.

A clause says, in the declared types, which rows a chart drew at a mark: ``Equals`` a category
(``None``: the missing one), a point's date or number; ``Range`` a half-open bin or time
bucket ``[start, end)`` (the last bin closed) in the chart's zone; ``NoneOf`` the categories a
top-N chart cut; ``Placed`` the placement every drawn row meets (its declared type, a finite
number, a present date). ``chartkit.selection.Selection`` holds clauses built from a
``View``'s marks; this module knows nothing of views.

- ``Cells(frame).mask(clauses, kind)``: the rows of a pandas frame the clauses select, each
  column made once as the chart takes it (the in-memory evaluation);
- ``where(clauses, kind)``: the clauses as the backend contract's ``Condition`` / ``AnyOf``
  terms (a ``Placed`` clause the tests every drawn row passes, an ``Equals`` a category or
  date, a ``Range`` ``ge`` + ``lt``, the last bin ``le``, a ``NoneOf`` a negated ``in``, the
  rows left out the negation of the placement), which every backend — in memory, DuckDB,
  polars, pyarrow, Ibis, Spark — evaluates through ``count`` / ``tally`` / ``page``; the query
  backend reads them as narwhals expressions over columns named by position, so no column
  name of a tool's reaches an engine as text;
- ``clause_from_dict`` / ``describe_clause``: a clause read back from its JSON
  (``Clause.to_dict``), and said in a line (values capped and made visible).
"""

from __future__ import annotations

import datetime as dt
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd

from chartkit.backends._contract import AnyOf, Condition, Term, negated
from chartkit.columns import ColumnDeclaration, ColumnType
from chartkit.errors import ChartkitError
from chartkit.plan.encode import VegaLiteType

__all__ = [
    "Cells",
    "Clause",
    "Equals",
    "NoneOf",
    "Placed",
    "Range",
    "Zone",
    "clause_from_dict",
    "describe_clause",
    "is_number",
    "number_value",
    "plain_value",
    "short_json",
    "timestamp_value",
    "where",
]

Zone = Literal["UTC", "wall clock"]
"""Where a date axis's times are read: ``UTC`` when the column holds zoned times (the chart
shows them in UTC), ``wall clock`` when they carry no zone (shown as written)."""


@dataclass(frozen=True, slots=True)
class Placed:
    """The row's value of ``column`` is of its declared type and has a place on the axis: a
    finite number, a present date, any category (missing is a category of its own).
    ``optional``: one of several measures, whose missing value leaves only that measure out."""

    column: str
    type: VegaLiteType
    declared: ColumnType | None = None
    nullable: bool = False
    optional: bool = False

    @property
    def declaration(self) -> ColumnDeclaration | None:
        return ColumnDeclaration(self.declared, self.nullable) if self.declared else None

    def to_dict(self) -> dict[str, Any]:
        return {"op": "placed", "column": self.column, "type": self.type,
                "declared": self.declared, "nullable": self.nullable,
                "optional": self.optional}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Equals:
    """The row's value of ``column``, as the chart took it, is ``value`` (None: missing)."""

    column: str
    type: VegaLiteType
    value: Any
    zone: Zone | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"op": "equals", "column": self.column, "type": self.type,
                "value": _wire(self.value), "zone": self.zone}  # fmt: skip


@dataclass(frozen=True, slots=True)
class NoneOf:
    """The row's category is none of ``values`` (the categories a top-N chart shows)."""

    column: str
    type: VegaLiteType
    values: tuple[Any, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"op": "none-of", "column": self.column, "type": self.type,
                "values": [_wire(v) for v in self.values]}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Range:
    """``start <= value < end`` (``closed="both"``: ``<= end``) on a number or a date axis;
    dates are naive ``datetime`` values read in ``zone``."""

    column: str
    type: VegaLiteType
    start: Any
    end: Any
    closed: Literal["left", "both"] = "left"
    zone: Zone | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"op": "range", "column": self.column, "type": self.type,
                "start": _wire(self.start), "end": _wire(self.end), "closed": self.closed,
                "zone": self.zone}  # fmt: skip


Clause = Placed | Equals | NoneOf | Range


class Cells:
    """A frame's columns as the chart takes them, each made once (a view keeps one for every
    selection of it: ``chartkit.selection``). ``clean``: the declared columns the check found
    no offender in, whose cells are not judged again."""

    def __init__(self, frame: pd.DataFrame, clean: frozenset[str] = frozenset()) -> None:
        self.frame = frame
        self.clean = clean
        self._offends: dict[tuple[str, ColumnDeclaration], Any] = {}
        self._numbers: dict[str, Any] = {}
        self._times: dict[tuple[str, ColumnDeclaration | None], Any] = {}
        self._labels: dict[tuple[str, tuple[Any, ...]], Any] = {}

    def judged(self, name: str, decl: ColumnDeclaration) -> bool:
        """Whether the cells of ``name`` need no judging over a subset: a clean column, or one
        already judged whole against ``decl``."""
        return name in self.clean or (name, decl) in self._offends

    def column(self, name: str) -> pd.Series:
        if name not in self.frame.columns:
            raise ChartkitError(f"the selection names {name!r}, which is no column of these rows")
        return self.frame[name]

    def offends(self, name: str, decl: ColumnDeclaration) -> np.ndarray[Any, np.dtype[np.bool_]]:
        key = (name, decl)
        if key not in self._offends:
            from chartkit.check.judge import offending_mask

            if name in self.clean and name in self.frame.columns:
                self._offends[key] = np.zeros(len(self.frame), dtype=bool)
            else:
                self._offends[key] = offending_mask(self.column(name), decl)
        got: np.ndarray[Any, np.dtype[np.bool_]] = self._offends[key]
        return got

    def numbers(self, name: str) -> np.ndarray[Any, np.dtype[np.float64]]:
        """The column as floats (NaN: missing, or not a number)."""
        if name not in self._numbers:
            from chartkit.plan.encode import as_numbers

            series = self.column(name)
            if isinstance(series.dtype, np.dtype) and series.dtype.kind in "fiu":
                values = series.to_numpy(dtype=float)
            else:
                ok = np.fromiter((is_number(v) for v in series.tolist()), bool, len(series))
                values = np.full(len(series), np.nan)
                if ok.any():
                    values[ok] = as_numbers(series[ok]).to_numpy(dtype=float)
            self._numbers[name] = values
        got: np.ndarray[Any, np.dtype[np.float64]] = self._numbers[name]
        return got

    def times(self, name: str, placed: Placed | None = None) -> np.ndarray[Any, Any]:
        """The column as naive datetime64 (NaT: missing, or no date), zoned ones in UTC — read
        from the rows not offending the declaration, as the chart reads them."""
        decl = placed.declaration if placed is not None else None
        key = (name, decl)
        if key not in self._times:
            from chartkit.plan.encode import wall_clock

            series = self.column(name)
            keep = ~self.offends(name, decl) if decl is not None else None
            if keep is not None and not keep.all():
                got, _ = wall_clock(series, keep)
                values = np.full(len(series), np.datetime64("NaT"), dtype="datetime64[ns]")
                values[keep] = pd.to_datetime(got).to_numpy(dtype="datetime64[ns]")
            else:
                got, _ = wall_clock(series)
                values = pd.to_datetime(got).to_numpy(dtype="datetime64[ns]")
            self._times[key] = values
        return self._times[key]  # type: ignore[no-any-return]

    def labels(self, name: str, keep: _Keep) -> np.ndarray[Any, Any]:
        """The column's categories as the chart labels them (None: missing), made from the rows
        ``keep`` holds, as the chart made them (a boolean beside text reads as text)."""
        key = (name, keep.placed)
        if key not in self._labels:
            items = self.column(name).tolist()
            kept = [v for v, k in zip(items, keep.rows, strict=True) if k]
            labels = [None if _missing(v) else v if isinstance(v, str | bool) else str(v)
                      for v in kept]  # fmt: skip
            if len({type(v) for v in labels if v is not None}) > 1:
                labels = [None if v is None else str(v) for v in labels]
            out = np.empty(len(items), dtype=object)
            out[:] = None
            out[keep.rows] = labels
            self._labels[key] = out
        return self._labels[key]  # type: ignore[no-any-return]

    def categories(
        self, name: str, placed: Placed | None, values: tuple[Any, ...]
    ) -> np.ndarray[Any, np.dtype[np.bool_]] | None:
        """Whether each row's category is one of ``values``, by vectorized comparison where
        the chart's label is the value itself: a typed text or boolean column, or one whose
        declaration leaves every other kind of value out (those rows are not placed). None
        where only the labels can tell (an undeclared column of mixed values)."""
        series = self.column(name)
        api = pd.api.types
        dtype = series.dtype
        typed = (api.is_string_dtype(dtype) and not api.is_object_dtype(dtype)) or (
            api.is_bool_dtype(dtype)
        )
        declared = placed is not None and placed.declared in ("string", "boolean")
        if not (typed or declared):
            return None
        wanted = [v for v in values if v is not None]
        kind = str if api.is_string_dtype(dtype) and typed else bool if typed else None
        if kind is not None:
            wanted = [v for v in wanted if type(v) is kind]
        if declared and not typed:  # an object column: keep True apart from 1, "1" from 1
            want = str if placed is not None and placed.declared == "string" else bool
            wanted = [v for v in wanted if type(v) is want]
        out = np.zeros(len(series), dtype=bool)
        if wanted:
            out |= series.isin(wanted).to_numpy(dtype=bool, na_value=False)
        if None in values:
            out |= series.isna().to_numpy(dtype=bool)
        return out

    def mask(
        self, clauses: Sequence[Clause], kind: str = "mark"
    ) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """Which rows every clause holds of (``kind`` ``left-out``: some ``Placed`` fails)."""
        n = len(self.frame)
        # the rows no used column's declaration leaves out: those the chart prepared values of
        judged = tuple(
            (c.column, c.declaration)
            for c in clauses
            if isinstance(c, Placed) and c.declaration is not None
        )
        rows = np.ones(n, dtype=bool)
        for name, decl in judged:
            rows &= ~self.offends(name, decl)
        keep = _Keep(rows, judged)
        placed = np.ones(n, dtype=bool)
        rest = np.ones(n, dtype=bool)
        placements = {c.column: c for c in clauses if isinstance(c, Placed)}
        for c in clauses:
            if isinstance(c, Placed):
                placed &= self.placed(c)
            else:
                rest &= self.holds(c, placements.get(c.column), keep)
        if kind == "left-out":
            return ~placed
        return placed & rest

    def placed(self, c: Placed) -> np.ndarray[Any, np.dtype[np.bool_]]:
        decl = c.declaration
        ok = ~self.offends(c.column, decl) if decl is not None else np.ones(len(self.frame), bool)
        if c.type == "quantitative":
            values = self.numbers(c.column)
            if c.optional:  # one of several measures: no value leaves only it out
                ok = ok & ~np.isinf(values)
                if decl is None:  # undeclared: a value that is not a number has no place
                    ok &= ~(self.column(c.column).notna().to_numpy() & np.isnan(values))
            else:
                ok = ok & np.isfinite(values)
        elif c.type == "temporal":
            ok = ok & ~np.isnat(self.times(c.column, c))
        return ok

    def holds(
        self, c: Clause, placed: Placed | None, keep: _Keep
    ) -> np.ndarray[Any, np.dtype[np.bool_]]:
        if isinstance(c, Equals):
            if c.type == "nominal":
                fast = self.categories(c.column, placed, (c.value,))
                if fast is not None:
                    return fast
                labels = self.labels(c.column, keep)
                if c.value is None:
                    return np.fromiter((v is None for v in labels), bool, len(labels))
                return _same_labels(labels, c.value)
            if c.type == "quantitative":
                values = self.numbers(c.column)
                equal: np.ndarray[Any, np.dtype[np.bool_]] = (
                    np.isnan(values) if c.value is None else values == float(c.value)
                )
                return equal
            times = self.times(c.column, placed)
            if c.value is None:
                return np.isnat(times)  # type: ignore[no-any-return]
            same: np.ndarray[Any, np.dtype[np.bool_]] = times == _ns(c.value)
            return same
        if isinstance(c, NoneOf):
            among = self.categories(c.column, placed, c.values)
            if among is not None:
                return ~among
            labels = self.labels(c.column, keep)
            shown = list(c.values)
            return np.fromiter(
                (not any(_same(v, s) for s in shown) for v in labels), bool, len(labels)
            )
        assert isinstance(c, Range)
        if c.type == "temporal":
            times = self.times(c.column, placed)
            lo, hi = _ns(c.start), _ns(c.end)
            upper = times <= hi if c.closed == "both" else times < hi
            inside: np.ndarray[Any, np.dtype[np.bool_]] = (times >= lo) & upper
            return inside
        values = self.numbers(c.column)
        with np.errstate(invalid="ignore"):
            upper = values <= c.end if c.closed == "both" else values < c.end
            return (values >= c.start) & upper  # type: ignore[no-any-return]


@dataclass(frozen=True, slots=True)
class _Keep:
    """The rows no used column's declaration leaves out (those the chart made labels of), and
    the judged columns that say which rows these are (the key of labels made from them)."""

    rows: np.ndarray[Any, np.dtype[np.bool_]]
    placed: tuple[Any, ...]


def _ns(value: Any) -> np.datetime64:
    """A naive date as numpy nanoseconds."""
    got: np.datetime64 = pd.Timestamp(value).as_unit("ns").to_datetime64()
    return got


def _same(a: Any, b: Any) -> bool:
    """Category equality that keeps booleans and text apart (True is not "True", nor 1)."""
    if a is None or b is None:
        return a is None and b is None
    return type(a) is type(b) and bool(a == b)


def _same_labels(labels: np.ndarray[Any, Any], value: Any) -> np.ndarray[Any, np.dtype[np.bool_]]:
    if isinstance(value, str):
        return np.fromiter((type(v) is str and v == value for v in labels), bool, len(labels))
    return np.fromiter((_same(v, value) for v in labels), bool, len(labels))


def _missing(value: Any) -> bool:
    return (
        value is None
        or value is pd.NA
        or value is pd.NaT
        or (isinstance(value, float) and math.isnan(value))
    )


def is_number(value: Any) -> bool:
    return isinstance(value, int | float | np.integer | np.floating) and not isinstance(
        value, bool | np.bool_ | np.timedelta64
    )


def plain_value(value: Any) -> Any:
    """A Python value for a numpy or pandas one; None for any missing value."""
    if isinstance(value, np.generic):
        value = value.item()
    if _missing(value):
        return None
    if isinstance(value, pd.Timestamp):
        return value.to_pydatetime()
    return value


def number_value(value: Any) -> float | None:
    value = plain_value(value)
    return None if value is None else float(value)


def timestamp_value(value: Any) -> pd.Timestamp | None:
    """A naive timestamp from a date value, ISO text or epoch milliseconds; None if missing."""
    value = plain_value(value)
    if value is None:
        return None
    if isinstance(value, int | float) and not isinstance(value, bool):
        return pd.Timestamp(int(value), unit="ms")
    try:
        ts = pd.Timestamp(value)
    except (ValueError, TypeError) as exc:
        raise ChartkitError(f"{short_json(value)} is not a date (ISO text or epoch ms)") from exc
    if ts.tzinfo is not None:
        ts = ts.tz_convert("UTC").tz_localize(None)
    return ts


def _wire(value: Any) -> Any:
    if isinstance(value, dt.datetime):
        return value.isoformat()
    return plain_value(value)


def clause_from_dict(data: Any) -> Clause:
    if not isinstance(data, Mapping):
        raise ChartkitError(f"a clause is an object; got {short_json(data)}")
    op, column, vl = data.get("op"), data.get("column"), data.get("type")
    if not isinstance(column, str) or vl not in ("quantitative", "temporal", "nominal"):
        raise ChartkitError(f"a clause names a column and its type; got {short_json(data)}")

    def value(v: Any) -> Any:
        return timestamp_value(v).to_pydatetime() if vl == "temporal" and v is not None else v  # type: ignore[union-attr]

    if op == "placed":
        return Placed(column, vl, data.get("declared"), bool(data.get("nullable")),
                      bool(data.get("optional")))  # fmt: skip
    if op == "equals":
        return Equals(column, vl, value(data.get("value")), data.get("zone"))
    if op == "none-of":
        return NoneOf(column, vl, tuple(data.get("values") or ()))
    if op == "range":
        closed: Literal["left", "both"] = "both" if data.get("closed") == "both" else "left"
        return Range(column, vl, value(data.get("start")), value(data.get("end")), closed,
                     data.get("zone"))  # fmt: skip
    raise ChartkitError(f"a clause's op is placed, equals, none-of or range; got {op!r}")


def describe_clause(c: Clause) -> str:
    from chartkit._safe import cap_text, visible

    name = cap_text(visible(c.column), 80)
    if isinstance(c, Placed):
        return ""
    if isinstance(c, Equals):
        if c.value is None:
            return f"{name} is missing"
        return f"{name} = {_show(c.value, c.zone)}"
    if isinstance(c, NoneOf):
        return f"{name} is none of the {len(c.values):,} categories shown"
    upper = "]" if c.closed == "both" else ")"
    return f"{name} in [{_show(c.start, c.zone)}, {_show(c.end, c.zone)}{upper}"


def _show(value: Any, zone: Zone | None) -> str:
    from chartkit._safe import cap_text, visible

    if isinstance(value, dt.datetime):
        return value.isoformat(sep=" ") + (" UTC" if zone == "UTC" else "")
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return cap_text(visible(json.dumps(value, ensure_ascii=False, default=str)), 80)


def short_json(value: Any) -> str:
    from chartkit._safe import cap_text, visible

    try:
        text = json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        text = repr(value)
    return cap_text(visible(text), 120)


# -- the backend contract's terms -----------------------------------------------------------


def where(clauses: Sequence[Clause], kind: str = "mark") -> list[Term]:
    """A selection's clauses as a ``where`` list every backend evaluates (``Backend.count`` /
    ``page``); ``kind`` ``left-out`` selects the rows some ``Placed`` clause fails.

    >>> clauses = (Placed("n", "quantitative"), Equals("team", "nominal", None))
    >>> [(c.column, c.op, c.negate) for c in where(clauses)]
    [('n', 'finite', False), ('team', 'null', False)]
    >>> left = where(clauses, "left-out")
    >>> [(c.column, c.op, c.negate) for c in left[0].terms]
    [('n', 'finite', True)]
    """

    placed: list[Term] = []
    rest: list[Term] = []
    for c in clauses:
        if isinstance(c, Placed):
            placed.extend(_placed_terms(c))
        else:
            rest.extend(_holds(c))
    if kind == "left-out":
        return [negated(placed)] if placed else [AnyOf(())]
    return [*placed, *rest]


def _placed_terms(c: Placed) -> list[Term]:
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
