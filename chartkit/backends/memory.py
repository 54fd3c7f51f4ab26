"""The in-memory backend: a pandas frame (rows, or a frame a tool returned), counted in numpy.

Grouping reuses the planner's fast paths (``chartkit.decide``: keys factorized once in sorted
order and combined into one integer per row; dates bucketed by integer arithmetic rather than
floored and hashed), so a reduction here costs what the chart's own costs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from chartkit.backends._contract import (
    MAX_PAGE,
    MAX_SAMPLE,
    ColumnFacts,
    Condition,
    Grouping,
    Groups,
    bounded,
    check_names,
    cut_to_top,
)
from chartkit.check import ColumnViolation, check_columns, offending_mask
from chartkit.columns import ColumnDeclaration, normalize_result_columns
from chartkit.encode import ColumnProfile, profile_columns, wall_clock

__all__ = ["MemoryBackend"]

_UNIT_SECONDS = {"minute": 60, "hour": 3600, "day": 86400}


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
        self, names: Sequence[str], *, distinct: Sequence[str] | None = None
    ) -> dict[str, ColumnFacts]:
        check_names(names, self.columns)
        counted = set(names if distinct is None else distinct)
        from chartkit.encode import _distinct

        out: dict[str, ColumnFacts] = {}
        for name in dict.fromkeys(names):
            s = self._series(name)
            values = int(s.notna().sum())
            lo = hi = None
            api = pd.api.types
            ordered = api.is_datetime64_any_dtype(s.dtype) or (
                api.is_numeric_dtype(s.dtype) and not api.is_bool_dtype(s.dtype)
            )
            if ordered and values:
                lo, hi = _plain(s.min()), _plain(s.max())
            n = _distinct(s.dropna()) if name in counted else None
            out[name] = ColumnFacts(name, self.rows, values, n, lo, hi)
        return out

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
        from chartkit.decide import _as_floats, _bucket_codes, _reduce, _reduce_by_one_key

        g = grouping
        used = list(dict.fromkeys([*g.keys, *g.measures]))
        check_names(used, self.columns)
        declared = normalize_result_columns(declaration) if declaration else {}
        keep = np.ones(self.rows, dtype=bool)
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
        # the columns positionally named, so no data name meets a helper's
        short = {name: f"c{i}" for i, name in enumerate(used)}
        cols: dict[str, pd.Series] = {}
        for name in used:
            s = self._series(name)
            s = s if every else s[keep]
            if name in g.measures:
                s = _as_floats(s)
                s = s.where(np.isfinite(s.to_numpy(dtype=float)), np.nan)
            elif name in g.dates:
                s = wall_clock(s)[0]
            cols[short[name]] = s.reset_index(drop=True)
        data = pd.DataFrame(cols, copy=False)
        placed = [short[n] for n in g.dates]
        if len(g.measures) == 1:
            placed.append(short[g.measures[0]])
        empty = np.zeros(len(data), dtype=bool)
        for c in placed:
            empty |= data[c].isna().to_numpy()
        no_value = int(empty.sum())
        if no_value:
            data = data[~empty].reset_index(drop=True)
        keys = [short[k] for k in g.keys]
        known: dict[str, Any] = {}
        if data.empty:
            frame = pd.DataFrame({k: [] for k in (*g.keys, *g.values)})
            nothing = tuple(() for _ in range(len(g.values) or 1))
            return Groups(frame, nothing, tuple(left_out), no_value)
        step = g.bucket_seconds or _UNIT_SECONDS.get(g.time_unit or "")
        if step:
            fx = keys[0]
            codes = _bucket_codes(data[fx], step, floor=True)
            if codes is None:
                data[fx] = data[fx].dt.floor(f"{step}s")
            else:
                known[fx] = codes
        rows: list[tuple[int, ...]] = []
        if g.counted:
            out = _reduce(data, keys, "", "count", known)
            rows.append(tuple(int(n) for n in out["count"]))
            out = out.drop(columns="count")
        elif len(g.measures) == 1:
            fy = short[g.measures[0]]
            by_one = _reduce_by_one_key(data, keys, fy, g.aggregate, known) if known else None
            out = _reduce(data, keys, fy, g.aggregate) if by_one is None else by_one
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
        return Groups(frame, tuple(rows), tuple(left_out), no_value, categories)

    # -- rows -----------------------------------------------------------------------------

    def sample(self, n: int) -> pd.DataFrame:
        return self.frame.head(bounded(n, MAX_SAMPLE, "n")).reset_index(drop=True)

    def offenders(self, declaration: Mapping[str, Any]) -> tuple[ColumnViolation, ...]:
        return check_columns(self.frame, declaration)

    def count(self, where: Sequence[Condition]) -> int:
        return int(self._mask(where).sum())

    def page(self, where: Sequence[Condition], offset: int = 0, limit: int = 100) -> pd.DataFrame:
        start = bounded(offset, self.rows, "offset")
        size = bounded(limit, MAX_PAGE, "limit")
        at = np.flatnonzero(self._mask(where))[start : start + size]
        return self.frame.iloc[at].reset_index(drop=True)

    def _mask(self, where: Sequence[Condition]) -> np.ndarray[Any, np.dtype[np.bool_]]:
        check_names([c.column for c in where], self.columns)
        mask = np.ones(self.rows, dtype=bool)
        for c in where:
            s = self._series(c.column)
            if c.op == "null":
                mask &= s.isna().to_numpy()
                continue
            values = list(c.value) if c.op == "in" else [c.value]
            if any(
                isinstance(v, pd.Timestamp | np.datetime64) or hasattr(v, "isoformat")
                for v in values
            ) and not pd.api.types.is_datetime64_any_dtype(s.dtype):
                s = wall_clock(s)[0]  # fmt: skip
            with np.errstate(invalid="ignore"):
                try:
                    hit = _compare(s, c.op, c.value, values)
                except TypeError:  # values of another type than the condition's: none hit
                    hit = pd.Series(False, index=s.index)
            mask &= hit.fillna(False).to_numpy(dtype=bool)
        return mask

    def _series(self, name: str) -> pd.Series:
        s = self.frame[name]
        if isinstance(s, pd.DataFrame):  # a duplicated label: its first column
            s = s.iloc[:, 0]
        return s


def _compare(s: pd.Series, op: str, value: Any, values: list[Any]) -> Any:
    if op == "in":
        return s.isin(values)
    if op == "eq":
        return s == value
    if op == "ge":
        return s >= value
    if op == "gt":
        return s > value
    if op == "lt":
        return s < value
    return s <= value


def _plain(value: Any) -> Any:
    """A numpy scalar as a Python value (a timestamp stays a ``pd.Timestamp``)."""
    return value.item() if isinstance(value, np.generic) else value
