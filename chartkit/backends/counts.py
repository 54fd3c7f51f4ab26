"""The counts and groups a plan asks of a backend: the rows stay where they live.

``BackendCounts`` answers ``chartkit.plan.bins.Counted`` — what the plan asks to draw a
histogram, count bars or a heatmap — by the backend contract alone: the span is
``Backend.facts(where=…)``, the rows per value and per bin are ``Backend.reduce`` of a
``Grouping`` (``bins`` on the plan's own edges), each over the rows the chart places (the
``where`` terms, ``chartkit.backends.clauses.where`` of its ``Placed`` clauses). Only counts
leave the engine, and each question is asked once. ``PlacedGroups`` answers
``chartkit.plan.groups.Grouped`` — the groups bars draw — the same way, by ``Backend.reduce``.

>>> from chartkit.backends import Condition, backend_for
>>> b = backend_for([{"v": 1.0}, {"v": 2.0}, {"v": 2.0}, {"v": None}])
>>> counted = BackendCounts(b, (Condition("v", "finite"),), ("v",))
>>> counted.span("v", enough=15)
Span(rows=3, lo=1.0, hi=2.0, distinct=2)
>>> [a.tolist() for a in counted.per_value("v")]
[[1.0, 2.0], [1, 2]]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from chartkit._safe import name_list
from chartkit.backends._contract import Backend, ColumnFacts, Grouping, Groups, Term
from chartkit.errors import ChartkitError
from chartkit.plan.bins import Span
from chartkit.plan.groups import BarGroups, LineFacts

__all__ = ["BackendCounts", "PlacedCounts", "PlacedGroups", "PlacedRows"]


class BackendCounts:
    """``Counted`` of the rows of ``backend`` that every term of ``where`` keeps, for the
    columns ``names`` (their facts are counted together, in one pass)."""

    def __init__(self, backend: Backend, where: Sequence[Term], names: Sequence[str]) -> None:
        self.backend = backend
        self.where = tuple(where)
        self.names = tuple(dict.fromkeys(names))
        self._facts: dict[str, ColumnFacts] = {}
        self._binned: dict[tuple[Any, ...], tuple[tuple[Any, ...], Any]] = {}
        self._values: dict[str, tuple[Any, Any]] = {}

    def span(self, name: str, *, enough: int) -> Span:
        got = self.held(name, enough=enough)
        if got is None:
            raise ChartkitError(
                f"no row the chart places holds a value of {name_list([name])} to count"
            )
        return got

    def held(self, name: str, *, enough: int) -> Span | None:
        """``span``, or None when no row the chart places holds a value of ``name``."""
        f = self._facts.get(name)
        if f is None or (enough > 0 and f.distinct is None):
            distinct = list(self.names) if enough > 0 else []
            self._facts = dict(self.backend.facts(self.names, distinct=distinct, where=self.where))
            f = self._facts[name]
        if not f.values or f.lo is None or f.hi is None:
            return None
        return Span(f.values, float(f.lo), float(f.hi), int(f.distinct or 0))

    def per_value(self, name: str) -> tuple[Any, Any]:
        if name not in self._values:
            groups = self.backend.reduce(Grouping((name,), (), "count", where=self.where))
            values = groups.frame[name].to_numpy(dtype=float)
            order = np.argsort(values, kind="stable")
            self._values[name] = values[order], np.asarray(groups.rows[0], dtype=int)[order]
        return self._values[name]

    def per_pair(self, x: str, y: str) -> tuple[tuple[Any, Any], Any]:
        groups = self.backend.reduce(Grouping((x, y), (), "count", where=self.where))
        xs, ys = (groups.frame[n].to_numpy(dtype=float) for n in (x, y))
        order = np.lexsort((ys, xs))  # by x, then y
        return (xs[order], ys[order]), np.asarray(groups.rows[0], dtype=int)[order]

    def per_bin(
        self, names: Sequence[str], edges: Sequence[Any]
    ) -> tuple[tuple[Any, ...], Any]:
        bins = tuple((n, tuple(float(e) for e in es)) for n, es in zip(names, edges, strict=True))
        if bins not in self._binned:
            groups = self.backend.reduce(
                Grouping(tuple(names), (), "count", bins=bins, where=self.where)
            )
            if groups.outside:  # the plan's edges are made from the span of these very rows
                raise ChartkitError(
                    f"{groups.outside:,} rows fall outside the bins made from their own span; "
                    "please report this with the frame's schema"
                )
            at = [groups.frame[n].to_numpy(dtype=np.intp) for n in names]
            order = np.lexsort(at[::-1])  # by the first key's bin, then the next
            rows = np.asarray(groups.rows[0], dtype=int)[order]
            self._binned[bins] = tuple(a[order] for a in at), rows
        return self._binned[bins]


class PlacedCounts:
    """``chartkit.plan.bins.Counts`` of a backend: the ``BackendCounts`` of the rows a chart
    of the given numbers (and the color and facet beside them) places (``placing(names,
    beside)``: its ``where`` terms), made once per question, so a question the engine path
    asked is answered again from memory when the plan asks it."""

    def __init__(
        self,
        backend: Backend,
        placing: Callable[[tuple[str, ...], tuple[str, ...]], Sequence[Term]],
    ) -> None:
        self.backend = backend
        self.placing = placing
        self._made: dict[tuple[tuple[str, ...], tuple[str, ...]], BackendCounts] = {}

    def __call__(self, names: tuple[str, ...], beside: tuple[str, ...] = ()) -> BackendCounts:
        key = tuple(dict.fromkeys(names))
        aside = tuple(n for n in dict.fromkeys(beside) if n not in key)
        if (key, aside) not in self._made:
            self._made[key, aside] = BackendCounts(self.backend, self.placing(key, aside), key)
        return self._made[key, aside]


class PlacedGroups:
    """``chartkit.plan.groups.Grouped`` of a backend: the groups of the rows bars of the given
    keys and measures place (``placing(keys, measures)``: their ``where`` terms), each asked
    once; the groups of one key (a single measure's, or the rows counted) are cut to the
    ``top`` highest in the engine (only they leave it)."""

    def __init__(
        self,
        backend: Backend,
        placing: Callable[[tuple[str, ...], tuple[str, ...]], Sequence[Term]],
        *,
        top: int | None = None,
        zones: Mapping[str, Any] | None = None,
        known: Callable[[str, Sequence[str], Sequence[str]], LineFacts | None] | None = None,
        near: Callable[[str, Sequence[str], Sequence[str]], LineFacts | None] | None = None,
        spanned: Callable[[Grouping], tuple[Groups, Any, Any]] | None = None,
    ) -> None:
        self.backend = backend
        self.placing = placing
        self.top = top
        self.zones = dict(zones or {})  # an aware date column's time zone, by name
        # a line's facts when they are known without asking the engine (from the facts of
        # every row, when those show no row is left out), else None
        self.known = known
        # else the facts of every row (``near``: the line's bucket is planned from them), set
        # right from the line's own groups (``spanned``: they hold its rows' span) once asked
        self.near = near if spanned is not None else None
        self.spanned = spanned
        self._near: set[tuple[Any, ...]] = set()
        self._made: dict[tuple[Any, ...], Groups] = {}
        self._lines: dict[tuple[Any, ...], Any] = {}
        self.last: Any = None  # the groups answered last: those the plan drew

    @property
    def drawn(self) -> Any:
        """The frame of the groups answered last (the plan's; None before any), under the
        columns' own names: the rows that left the engine for the chart."""
        return None if self.last is None else self.last.frame

    def groups(self, keys: Sequence[str], measures: Sequence[str], aggregate: str) -> Groups:
        """The contract's ``Groups`` of these bars, their frame in the order
        ``groupby(keys, sort=True, dropna=False)`` gives (a missing key last)."""
        asked = (tuple(keys), tuple(measures), aggregate)
        if asked not in self._made:
            one = len(asked[0]) == 1 and len(asked[1]) <= 1  # (one measure, or rows counted)
            where = tuple(self.placing(asked[0], asked[1]))
            top = self.top if one else None
            got = self.backend.reduce(Grouping(asked[0], asked[1], aggregate, top=top, where=where))
            frame, rows = _in_key_order(got.frame.reset_index(drop=True), got.rows, asked[0])
            self._made[asked] = replace(got, frame=frame, rows=rows)
        return self._made[asked]

    def bars(self, keys: Sequence[str], measures: Sequence[str], aggregate: str) -> BarGroups:
        got = self.last = self.groups(keys, measures, aggregate)
        cut = got.categories is not None and got.categories > len(got.frame)
        return BarGroups(got.frame, got.rows, got.categories if cut else None)

    def line_facts(self, x: str, measures: Sequence[str], series: Sequence[str]) -> LineFacts:
        """The line's facts (``Grouped.line_facts``); those of every row until a ``line`` of
        these columns is grouped, when ``near`` holds them (they then differ only where rows
        are left out, and its groups set them right: the plan asks again)."""
        asked = ("facts", x, tuple(measures), tuple(series))
        for told, near in ((self.known, False), (self.near, True)):
            if asked in self._lines or told is None:
                continue
            seen = told(x, measures, series)
            if seen is not None:
                self._lines[asked] = seen
                if near:
                    self._near.add(asked)
        if asked not in self._lines:
            where = tuple(self.placing((x, *series), tuple(measures)))
            names = list(dict.fromkeys([x, *measures, *series]))
            one = list(series) if len(series) == 1 else []
            f = self.backend.facts(names, distinct=one, where=where)
            if one:  # (a missing value is a series of its own, as the groups keep it)
                s = f[one[0]]
                n_series = (s.distinct or 0) + (s.values < s.rows)
            elif series:  # each pair of the series' values the rows hold
                n_series = len(self.backend.reduce(Grouping(tuple(series), where=where)).frame)
            else:
                n_series = 1
            self._lines[asked] = LineFacts(
                f[x].rows, tuple(f[m].values for m in measures), f[x].lo, f[x].hi, n_series
            )
        facts: LineFacts = self._lines[asked]
        return facts

    def distinct_times(self, x: str, measures: Sequence[str], series: Sequence[str]) -> int:
        asked = ("times", x, tuple(measures), tuple(series))
        if asked not in self._lines:
            where = tuple(self.placing((x, *series), tuple(measures)))
            self._lines[asked] = self.backend.facts([x], distinct=[x], where=where)[x].distinct
        return int(self._lines[asked] or 0)

    def line(
        self,
        x: str,
        measures: Sequence[str],
        series: Sequence[str],
        aggregate: str,
        seconds: int,
        unit: str | None,
    ) -> BarGroups:
        asked = ("line", x, tuple(measures), tuple(series), aggregate, seconds, unit)
        if asked not in self._lines:
            keys = (x, *series)
            grouping = Grouping(
                keys, tuple(measures), aggregate,
                bucket_seconds=seconds if unit is None and seconds else None,
                time_unit=unit, dates=(x,),  # type: ignore[arg-type]
                where=tuple(self.placing(keys, tuple(measures))),
            )  # fmt: skip
            facts = ("facts", x, tuple(measures), tuple(series))
            if facts in self._near and self.spanned is not None and len(measures) <= 1:
                got, lo, hi = self.spanned(grouping)
                self._near.discard(facts)
                del self._lines[facts]  # (every row's: the line's own replace them)
                kept = _kept_line(got, lo, hi, measures, series, aggregate)
                if kept is not None:
                    self._lines[facts] = kept
            else:
                got = self.backend.reduce(grouping)
            frame = got.frame.reset_index(drop=True)
            zone = self.zones.get(x)
            if zone is not None and frame[x].dt.tz is None:  # the backend's UTC wall clock:
                # a unit's stays in UTC
                at = frame[x].dt.tz_localize("UTC")
                frame[x] = at if unit is not None else at.dt.tz_convert(zone)
            self._lines[asked] = BarGroups(*_in_key_order(frame, got.rows, keys))
        facts = ("facts", x, tuple(measures), tuple(series))
        if facts in self._near:  # (grouped otherwise: the line's own facts are asked)
            self._near.discard(facts)
            del self._lines[facts]
        groups: BarGroups = self._lines[asked]
        self.last = groups
        return groups


class PlacedRows:
    """``chartkit.plan.groups.Fetched`` of a backend: the rows a scatter places (``counts``'
    placing of its two numbers) or a line places (``groups``' placing of its keys and
    measures), fetched by ``fetch(names, where)`` (a bounded query: the plan asks only rows
    that fit ``max_points``), each question once (a plan that draws them says so:
    ``decide.Plan.fetched``)."""

    def __init__(
        self,
        counts: PlacedCounts,
        groups: PlacedGroups,
        fetch: Callable[[Sequence[str], Sequence[Term]], Any],
    ) -> None:
        self.counts = counts
        self.groups = groups
        self.fetch = fetch
        self._made: dict[tuple[Any, ...], Any] = {}

    def points(self, x: str, y: str, beside: Sequence[str]) -> Any:
        names = list(dict.fromkeys([x, y, *beside]))
        aside = tuple(n for n in names if n not in (x, y))
        return self._rows(("points", tuple(names)), names, self.counts.placing((x, y), aside))

    def line(self, x: str, measures: Sequence[str], series: Sequence[str]) -> Any:
        names = list(dict.fromkeys([x, *measures, *series]))
        where = self.groups.placing((x, *series), tuple(measures))
        return self._rows(("line", x, tuple(measures), tuple(series)), names, where)

    def _rows(self, asked: tuple[Any, ...], names: list[str], where: Sequence[Term]) -> Any:
        if asked not in self._made:
            self._made[asked] = self.fetch(names, tuple(where))
        return self._made[asked]


def _kept_line(
    got: Groups,
    lo: Any,
    hi: Any,
    measures: Sequence[str],
    series: Sequence[str],
    aggregate: str,
) -> LineFacts | None:
    """A line's facts read from its own groups (``lo`` and ``hi`` the span of their rows):
    the rows they hold, each measure's values, the span and the series (a missing value is
    one, as the groups keep it); None when a row was left out by the grouping itself (its
    terms keep every row it groups otherwise), or several measures' rows are counted as one."""
    if got.left_out or got.no_value or got.outside:
        return None
    rows = got.grouped
    if aggregate == "count" or not measures:
        if len(measures) > 1:
            return None
        values = (rows,) * len(measures)
    else:
        values = tuple(sum(r) for r in got.rows)
    frame = got.frame
    n_series = len(frame[list(series)].drop_duplicates()) if series else 1
    if not rows:
        lo = hi = None
    return LineFacts(rows, values, lo, hi, n_series)


def _in_key_order(
    frame: Any, rows: tuple[tuple[int, ...], ...], keys: Sequence[str]
) -> tuple[Any, tuple[tuple[int, ...], ...]]:
    """A backend's groups in the order ``groupby(keys, sort=True, dropna=False)`` gives (a
    missing key last), their rows in step."""
    order = frame.sort_values(list(keys), kind="stable", na_position="last").index.to_numpy()
    moved = tuple(tuple(int(r[i]) for i in order) for r in rows)
    return frame.take(order).reset_index(drop=True), moved
