"""The in-memory backend: a pandas frame (rows, or a frame a tool returned), counted in numpy.

Grouping reuses the planner's fast paths (``chartkit.plan.reduce``: keys factorized once in sorted
order and combined into one integer per row; dates bucketed by integer arithmetic rather than
floored and hashed), so a reduction here costs what the chart's own costs.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from chartkit._safe import cap_names, visible, workable_frame
from chartkit.backends._contract import (
    MAX_PAGE,
    MAX_SAMPLE,
    AnyOf,
    ColumnFacts,
    Condition,
    Grouping,
    Groups,
    Planning,
    Term,
    Told,
    bounded,
    check_names,
    cut_to_top,
    terms_columns,
)
from chartkit.backends._contract import (
    own_keys as _own_keys,
)
from chartkit.check.judge import ColumnViolation, check_columns, offending_mask
from chartkit.columns import ColumnDeclaration, normalize_result_columns
from chartkit.errors import ChartkitError
from chartkit.plan.encode import ColumnProfile, numeric_strings_only, profile_columns, wall_clock
from chartkit.plan.facts import NumberFacts
from chartkit.plan.reduce import (
    UNIT_SECONDS,
    as_floats,
    bucket_codes,
    floor_to_unit,
    reduce_by_one_key,
    reduce_frame,
)

if TYPE_CHECKING:
    from chartkit.read.rowset import RowsetReading

__all__ = ["MemoryBackend", "MemorySource"]


class MemorySource:
    """The rows of one ``view()`` in memory (``chartkit.backends.Source``): a pandas frame the
    plan reads row by row, made from the reading once the check has judged it.

    ``rows`` makes the frame when the reading is not the rows themselves (an engine frame of
    at most ``max_points`` rows, collected); ``planned_with`` says the View keeps the
    violations the chart was planned with (rows a tool returned: every column was judged
    here).
    """

    plans_choose = True

    def __init__(
        self,
        reading: RowsetReading,
        rows: Callable[[], pd.DataFrame] | None = None,
        *,
        planned_with: bool = True,
    ) -> None:
        self._reading: RowsetReading | None = reading
        self._rows = rows
        self._frame: pd.DataFrame | None = None
        self.planned_with = planned_with

    def __repr__(self) -> str:
        return f"MemorySource(frame={'made' if self._frame is not None else 'not made'})"

    @property
    def reading(self) -> RowsetReading:
        """The reading the check judges; let go once the frame is made from it."""
        if self._reading is None:
            raise ChartkitError("this source's reading was let go once its frame was made")
        return self._reading

    @property
    def frame(self) -> pd.DataFrame:
        """The rows as a frame of values pandas can handle, made once.

        A reading keeps each column it read as a list (a million entries at 1M rows): the
        frame lets each go once its array is built, and the reading is let go before the
        chart allocates (a young list that long would be walked by every garbage collection
        those allocations trigger, ~50 ms each at 1M rows).
        """
        if self._frame is None:
            if self._rows is not None:
                made = self._rows()
            else:
                made = self.reading.to_frame(keep_values=False)
            self._frame = workable_frame(made)
            self._reading = None
        return self._frame

    def profiles(
        self,
        declaration: Mapping[str, ColumnDeclaration] | None,
        violations: tuple[ColumnViolation, ...],
    ) -> dict[str, ColumnProfile]:
        return profile_columns(self.frame, declaration, violations)

    def refusal(
        self,
        declaration: Mapping[str, ColumnDeclaration] | None,
        violations: tuple[ColumnViolation, ...],
        profiles: Mapping[str, ColumnProfile],
        picks: Mapping[str, Any],
        chart_args: Mapping[str, Any],
    ) -> str | None:
        """None: every chart of rows in memory is planned."""
        return None

    def collected(self) -> MemorySource:
        return self

    def planning(
        self,
        declaration: Mapping[str, ColumnDeclaration] | None,
        violations: tuple[ColumnViolation, ...],
        profiles: Mapping[str, ColumnProfile],
    ) -> Planning:
        frame = self.frame
        kept = violations if self.planned_with else None
        return Planning(frame, None, lambda plan, options: Told(frame, violations=kept))


class MemoryBackend:
    """A pandas frame's rows, answered in memory (see ``chartkit.backends``)."""

    engine = "pandas"

    def __init__(self, frame: pd.DataFrame) -> None:
        if not isinstance(frame, pd.DataFrame):
            raise TypeError(f"MemoryBackend holds a pandas DataFrame, got {type(frame).__name__}")
        self.frame = frame
        self.rows = len(frame)
        self.columns = tuple(str(c) for c in frame.columns)

    def __repr__(self) -> str:
        return f"MemoryBackend(rows={self.rows}, columns={len(self.columns)})"

    # -- facts ----------------------------------------------------------------------------

    def facts(
        self,
        names: Sequence[str],
        *,
        distinct: Sequence[str] | None = None,
        where: Sequence[Term] = (),
    ) -> dict[str, ColumnFacts]:
        check_names(names, self.columns)
        counted = set(names if distinct is None else distinct)
        from chartkit.plan.encode import distinct_values

        kept = self._mask(where) if where else None
        rows = self.rows if kept is None else int(kept.sum())
        out: dict[str, ColumnFacts] = {}
        for name in dict.fromkeys(names):
            s = self._series(name)
            if kept is not None:
                s = s[kept]
            values = int(s.notna().sum())
            lo = hi = None
            api = pd.api.types
            ordered = api.is_datetime64_any_dtype(s.dtype) or (
                api.is_numeric_dtype(s.dtype) and not api.is_bool_dtype(s.dtype)
            )
            if ordered and values:
                lo, hi = _plain(s.min()), _plain(s.max())
            n = distinct_values(s.dropna()) if name in counted else None
            out[name] = ColumnFacts(name, rows, values, n, lo, hi)
        return out

    def coverage(self, time: str, by: str) -> tuple[int, int]:
        """``(fewest, times)`` of ``chartkit.plan.facts.coverage``: the distinct times among the
        rows holding one, and those the value of ``by`` found at the fewest holds."""
        from chartkit.plan.facts import coverage

        check_names([time, by], self.columns)
        return coverage(self._series(time), self._series(by))

    def positions(self, x: str, by: str) -> tuple[list[int], int]:
        """``(per_group, distinct)`` of ``chartkit.plan.facts.positions``: each group's
        distinct x values (smallest first), and x's, among the rows holding both."""
        from chartkit.plan.facts import positions

        check_names([x, by], self.columns)
        return positions(self._series(x), self._series(by))

    def unique_pairs(self, a: str, b: str) -> bool:
        """Whether no two rows hold the same pair of values (``chartkit.plan.facts``)."""
        from chartkit.plan.facts import unique_pairs

        check_names([a, b], self.columns)
        return unique_pairs(self._series(a), self._series(b))

    def numbers(self, names: Sequence[str]) -> Mapping[str, NumberFacts]:
        """``NumberFacts`` of each named column (``chartkit.plan.facts.number_facts``), their
        distinct values counted as every backend counts them (``chartkit.plan.choose.SETTLING``)."""
        from chartkit.plan.choose import SETTLING
        from chartkit.plan.facts import number_facts

        check_names(list(names), self.columns)
        return {n: number_facts(self._series(n), settling=SETTLING) for n in dict.fromkeys(names)}

    def unique_key(self, names: Sequence[str]) -> bool:
        """Whether no two rows share the values of all ``names`` (``chartkit.plan.facts``)."""
        from chartkit.plan.facts import unique_key

        keys = list(dict.fromkeys(names))
        check_names(keys, self.columns)
        frame = pd.DataFrame({str(i): self._series(n) for i, n in enumerate(keys)})
        try:
            return unique_key(frame, list(frame.columns))
        except (TypeError, ValueError):  # values pandas cannot hash: no key
            return False

    def all_quoted(self, name: str) -> bool:
        """Whether every row of ``name`` holds a number in quotes
        (``chartkit.plan.facts.FrameFacts.all_quoted``)."""
        check_names([name], self.columns)
        series = self._series(name)
        return numeric_strings_only(series, np.ones(len(series), dtype=bool))

    def profiles(
        self,
        declaration: Mapping[str, ColumnDeclaration] | None,
        violations: tuple[ColumnViolation, ...],
    ) -> dict[str, ColumnProfile]:
        return profile_columns(self.frame, declaration, violations)

    # -- reduce ---------------------------------------------------------------------------

    def reduce(
        self, grouping: Grouping, declaration: Mapping[str, ColumnDeclaration] | None = None
    ) -> Groups:
        g = grouping
        used = list(dict.fromkeys([*g.keys, *g.measures]))
        check_names(used, self.columns)
        declared = normalize_result_columns(declaration) if declaration else {}
        check_names(terms_columns(g.where), self.columns)
        keep = self._mask(g.where) if g.where else np.ones(self.rows, dtype=bool)
        left_out: list[tuple[str, int]] = []
        for name in used:
            decl = declared.get(name)
            if decl is None:
                continue
            bad = offending_mask(self._series(name), decl) & keep
            if bad.any():
                left_out.append((name, int(bad.sum())))
                keep &= ~bad
        every = bool(keep.all())
        edges = g.edges
        # the columns positionally named, so no data name meets a helper's
        short = {name: f"c{i}" for i, name in enumerate(used)}
        cols: dict[str, pd.Series] = {}
        for name in used:
            s = self._series(name)
            s = s if every else s[keep]
            if name in edges:
                try:
                    s = as_floats(s)
                except (TypeError, ValueError):  # (the value itself is the data's: not quoted)
                    raise ChartkitError(visible(cap_names(
                        f"{name} is binned but it holds {s.dtype} values that are not numbers",
                        [name],
                    ))) from None  # fmt: skip
            if name in g.measures or name in edges:
                s = s if name in edges else as_floats(s)
                s = s.where(np.isfinite(s.to_numpy(dtype=float)), np.nan)
            elif name in g.dates:
                s = wall_clock(s)[0]
            cols[short[name]] = s.reset_index(drop=True)
        data = pd.DataFrame(cols, copy=False)
        placed = [short[n] for n in (*g.dates, *edges)]
        if len(g.measures) == 1:
            placed.append(short[g.measures[0]])
        empty = np.zeros(len(data), dtype=bool)
        for c in placed:
            empty |= data[c].isna().to_numpy()
        no_value = int(empty.sum())
        if no_value:
            data = data[~empty].reset_index(drop=True)
        outside = 0
        for name, at in edges.items():
            data[short[name]], off = _binned(data[short[name]].to_numpy(dtype=float), at)
            if off.any():
                outside += int(off.sum())
                data = data[~off].reset_index(drop=True)
        keys = [short[k] for k in g.keys]
        known: dict[str, Any] = {}
        if data.empty:
            frame = pd.DataFrame({k: [] for k in (*g.keys, *g.values)})
            nothing = tuple(() for _ in range(len(g.values) or 1))
            return Groups(frame, nothing, tuple(left_out), no_value, outside=outside)
        kept_rows = len(data)
        step = g.bucket_seconds or UNIT_SECONDS.get(g.time_unit or "")
        if g.time_unit is not None and not step:  # a calendar unit: a week, month, quarter, year
            data[keys[0]] = floor_to_unit(data[keys[0]], g.time_unit)
        if step:
            fx = keys[0]
            codes = bucket_codes(data[fx], step, floor=True)
            if codes is None:
                data[fx] = data[fx].dt.floor(f"{step}s")
            else:
                known[fx] = codes
        rows: list[tuple[int, ...]] = []
        if g.counted:
            out = reduce_frame(data, keys, "", "count", known)
            rows.append(tuple(int(n) for n in out["count"]))
            out = out.drop(columns="count")
        elif len(g.measures) == 1:
            fy = short[g.measures[0]]
            by_one = reduce_by_one_key(data, keys, fy, g.aggregate, known) if known else None
            out = reduce_frame(data, keys, fy, g.aggregate) if by_one is None else by_one
            rows.append(tuple(int(n) for n in out["rows"]))
            out = out.drop(columns="rows")
        else:
            if known:
                data[keys[0]] = data[keys[0]].dt.floor(f"{step}s")
            grouped = data.groupby(keys, sort=True, dropna=False)
            ms = [short[m] for m in g.measures]
            out = grouped[ms].agg(g.aggregate).reset_index()
            counts = grouped[ms].count().reset_index(drop=True)
            rows.extend(tuple(int(n) for n in counts[m]) for m in ms)
        out = out.rename(columns={v: k for k, v in short.items()})
        categories: int | None = None
        if g.top is not None:
            out, rows, categories = cut_to_top(out, rows, g)
        frame = out[[*g.keys, *g.values]].reset_index(drop=True)
        return Groups(frame, tuple(rows), tuple(left_out), no_value, categories, outside, kept_rows)

    # -- rows -----------------------------------------------------------------------------

    def sample(self, n: int) -> pd.DataFrame:
        return self.frame.head(bounded(n, MAX_SAMPLE, "n")).reset_index(drop=True)

    def offenders(self, declaration: Mapping[str, Any]) -> tuple[ColumnViolation, ...]:
        return check_columns(self.frame, declaration)

    def count(self, where: Sequence[Term]) -> int:
        return int(self._mask(where).sum())

    def tally(self, where: Sequence[Term], tests: Mapping[str, Sequence[Term]]) -> dict[str, int]:
        """The rows ``where`` selects (``"rows"``), and among them the rows each list of
        ``tests`` selects, by its key (a key of its own: ``"rows"`` is refused)."""
        cells = _Cells(self)
        chosen = cells.all(list(where))
        _own_keys(tests)
        out = {"rows": int(chosen.sum())}
        for key, ts in tests.items():
            out[key] = int((chosen & cells.all(list(ts))).sum())
        return out

    def page(self, where: Sequence[Term], offset: int = 0, limit: int = 100) -> pd.DataFrame:
        start = bounded(offset, self.rows, "offset")
        size = bounded(limit, MAX_PAGE, "limit")
        at = np.flatnonzero(self._mask(where))[start : start + size]
        return self.frame.iloc[at].reset_index(drop=True)

    def _mask(self, where: Sequence[Term]) -> np.ndarray[Any, np.dtype[np.bool_]]:
        return _Cells(self).all(list(where))

    def _series(self, name: str) -> pd.Series:
        s = self.frame[name]
        if isinstance(s, pd.DataFrame):  # a duplicated label: its first column
            s = s.iloc[:, 0]
        return s


Mask = np.ndarray[Any, np.dtype[np.bool_]]


class _Cells:
    """``Condition`` / ``AnyOf`` terms as boolean masks over the frame's rows; each column read
    as numbers or as dates once per evaluation."""

    def __init__(self, backend: MemoryBackend) -> None:
        check = backend._series
        self.series = check
        self.rows = backend.rows
        self.columns = backend.columns
        self._numbers: dict[str, np.ndarray[Any, np.dtype[np.float64]]] = {}
        self._times: dict[str, np.ndarray[Any, Any]] = {}

    def all(self, where: list[Term]) -> Mask:
        check_names(terms_columns(where), self.columns)
        mask = np.ones(self.rows, dtype=bool)
        for t in where:
            mask &= self.term(t)
        return mask

    def term(self, t: Term) -> Mask:
        if isinstance(t, AnyOf):
            hit = np.zeros(self.rows, dtype=bool)
            for u in t.terms:
                hit |= self.term(u)
        else:
            hit = self.condition(t)
        return ~hit if t.negate else hit

    def condition(self, c: Condition) -> Mask:
        s = self.series(c.column)
        if c.op == "null":
            null: Mask = s.isna().to_numpy(dtype=bool)
            return null
        if c.op == "valid":
            valid: Mask = ~offending_mask(s, c.value)
            return valid
        if c.op in ("finite", "infinite"):
            nums = self.numbers(c.column)
            finite: Mask = np.isfinite(nums) if c.op == "finite" else np.isinf(nums)
            return finite
        values = list(c.value) if c.op == "in" else [c.value]
        hit = np.zeros(self.rows, dtype=bool)
        x: Any
        for kind, wanted in _by_kind(values).items():
            if kind == "date":
                x = self.times(c.column)
                wanted = [np.datetime64(_naive(v), "ns") for v in wanted]
            elif kind == "number":
                x = self.numbers(c.column)
            else:
                x = self.labels(s, bool if kind == "boolean" else str)
            with np.errstate(invalid="ignore"):
                if c.op == "in":
                    for v in wanted:
                        hit |= _compare(x, "eq", v)
                else:
                    hit |= _compare(x, c.op, wanted[0])
        return hit

    def numbers(self, name: str) -> np.ndarray[Any, np.dtype[np.float64]]:
        """The column as floats: NaN where it holds no number (a boolean is none)."""
        if name not in self._numbers:
            s = self.series(name)
            api = pd.api.types
            if api.is_numeric_dtype(s.dtype) and not api.is_bool_dtype(s.dtype):
                values = s.to_numpy(dtype=float, na_value=np.nan)
            else:
                values = np.fromiter(
                    (float(v) if _is_number(v) else np.nan for v in s.tolist()), float, len(s)
                )
            self._numbers[name] = values
        return self._numbers[name]

    def times(self, name: str) -> np.ndarray[Any, Any]:
        """The column as naive datetime64 in the chart's zone (zoned times in UTC; NaT where
        it holds no date)."""
        if name not in self._times:
            s = self.series(name)
            try:
                got = wall_clock(s)[0]
                values = pd.to_datetime(got, errors="coerce").to_numpy(dtype="datetime64[ns]")
            except (ValueError, TypeError):  # no column of dates: each value on its own
                values = np.array(
                    [np.datetime64(_naive(v), "ns") if isinstance(v, dt.date) else
                     np.datetime64("NaT") for v in s.tolist()], dtype="datetime64[ns]",
                )  # fmt: skip
            self._times[name] = values
        return self._times[name]

    def labels(self, s: pd.Series, kind: type) -> np.ndarray[Any, Any]:
        """The column's values of ``kind`` (text, or booleans), the others None: True is not
        "True", nor 1."""
        api = pd.api.types
        if (kind is str and api.is_string_dtype(s.dtype) and not api.is_object_dtype(s.dtype)) or (
            kind is bool and api.is_bool_dtype(s.dtype)
        ):
            got: np.ndarray[Any, Any] = np.array(
                [None if v is pd.NA or v is None else v for v in s.tolist()], dtype=object
            )
            return got
        return np.array([v if type(v) is kind or (kind is bool and isinstance(v, np.bool_))
                         else None for v in s.tolist()], dtype=object)  # fmt: skip


def _binned(values: Any, edges: tuple[float, ...]) -> tuple[Any, Any]:
    """Each value's bin as ``numpy.histogram`` over ``edges`` counts it (the count of edges at
    or below it, less one; the highest edge closes the last bin), and which values fall
    outside the edges."""
    at = np.asarray(edges, dtype=float)
    index = np.searchsorted(at, values, side="right") - 1
    index[values == at[-1]] = len(at) - 2
    off = (values < at[0]) | (values > at[-1])
    return pd.Series(np.where(off, 0, index), dtype="int64"), off


def _by_kind(values: list[Any]) -> dict[str, list[Any]]:
    out: dict[str, list[Any]] = {}
    for v in values:
        if isinstance(v, dt.date | pd.Timestamp | np.datetime64):
            out.setdefault("date", []).append(v)
        elif isinstance(v, bool | np.bool_):
            out.setdefault("boolean", []).append(bool(v))
        elif _is_number(v):
            out.setdefault("number", []).append(float(v))
        elif isinstance(v, str):
            out.setdefault("text", []).append(v)
    return out


def _naive(value: Any) -> Any:
    ts = pd.Timestamp(value)
    return ts.tz_convert("UTC").tz_localize(None) if ts.tzinfo is not None else ts


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float | np.integer | np.floating) and not isinstance(
        value, bool | np.bool_
    )


def _compare(x: Any, op: str, value: Any) -> Mask:
    if x.dtype == object:  # labels: None meets nothing
        hits: Mask = np.array(
            [v is not None and bool(_ordered(v, op, value)) for v in x], dtype=bool
        )
        return hits
    return _ordered(x, op, value)  # type: ignore[no-any-return]


def _ordered(x: Any, op: str, value: Any) -> Any:
    if op == "eq":
        return x == value
    if op == "ge":
        return x >= value
    if op == "gt":
        return x > value
    if op == "lt":
        return x < value
    return x <= value


def _plain(value: Any) -> Any:
    """A numpy scalar as a Python value (a timestamp stays a ``pd.Timestamp``)."""
    return value.item() if isinstance(value, np.generic) else value
