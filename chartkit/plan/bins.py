"""The counts a histogram and a heatmap draw, wherever the rows they place live.

A histogram or a heatmap needs three things of the rows the chart places, and nothing else:
the span of each number (``Counted.span``: rows, lowest, highest, distinct values), the rows
per value (``Counted.per_value``: count bars of a number with few values), and the rows per
bin of given edges (``Counted.per_bin``: one key, a histogram; two, a heatmap's cells).
The edges are the plan's, made from the span alone (``histogram_edges``, ``cell_edges``), so
every backend bins on the very same edges and places a value where ``numpy.histogram``
counts it (a value on an inner edge opens the next bin; of equal edges the last one counts;
the highest edge closes the last bin).

``decide.py`` asks a ``Counted``: ``ArrayCounts`` over the rows it cleaned in memory, or the
one a backend hands it (``decide.Whole.counted``) when the rows stay in an engine (``chartkit
.backends.BackendCounts``: the contract's ``facts`` and ``reduce`` of the rows the chart
places). Nothing here touches a frame.

>>> counted = ArrayCounts({"x": np.array([1.0, 2.0, 2.0, 4.0])})
>>> counted.span("x", enough=15)
Span(rows=4, lo=1.0, hi=4.0, distinct=3)
>>> [v.tolist() for v in counted.per_value("x")]
[[1.0, 2.0, 4.0], [1, 2, 1]]
>>> (bins,), counts = counted.per_bin(("x",), (histogram_edges(1.0, 4.0, 3),))
>>> bins.tolist(), counts.tolist()
([0, 1, 2], [1, 2, 1])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol

import numpy as np
import pandas as pd

from chartkit.plan import choose

__all__ = [
    "HEATMAP_BINS",
    "ArrayCounts",
    "Counted",
    "Counts",
    "Span",
    "cell_edges",
    "cells_per_axis",
    "histogram_edges",
    "place",
]

HEATMAP_BINS: Final = 40  # a heatmap's cells per axis at most

_HEAD: Final = 1024  # values ``ArrayCounts.span`` looks at before counting all distinct ones


@dataclass(frozen=True, slots=True)
class Span:
    """What the chart places of one number: ``rows`` placed (each holds a value), the lowest
    and highest value, and the ``distinct`` values — exact below the ``enough`` asked, else
    at least ``enough`` (a backend may count them all)."""

    rows: int
    lo: float
    hi: float
    distinct: int


class Counted(Protocol):
    """The counts of the rows a chart places, by column name, where they live."""

    def span(self, name: str, *, enough: int) -> Span:
        """The span of ``name`` over the rows placed (at least one row is placed)."""
        ...

    def held(self, name: str, *, enough: int) -> Span | None:
        """``span``, or None when no row is placed."""
        ...

    def per_value(self, name: str) -> tuple[Any, Any]:
        """``(values, rows)``: each value of ``name``, in increasing order, and its rows."""
        ...

    def per_bin(
        self, names: Sequence[str], edges: Sequence[Any]
    ) -> tuple[tuple[Any, ...], Any]:
        """``(bins, rows)``: the cells of ``names`` binned on ``edges`` (one array each) that
        hold a row, in order of the first key's bin, then the next: each key's bin index per
        cell, and the cell's rows."""
        ...

    def per_pair(self, x: str, y: str) -> tuple[tuple[Any, Any], Any]:
        """``((xs, ys), rows)``: each distinct pair of values of ``x`` and ``y`` the rows
        hold, in increasing order of x, then y, and its rows (a scatter whose pairs fit
        ``max_points``: a point each)."""
        ...


class Counts(Protocol):
    """The ``Counted`` of the rows a histogram (one number) or a heatmap (two) of ``names``
    places, wherever the rows live: a backend makes one per chart it is asked to count.
    ``beside`` are the color and facet the chart reads beside them: a row whose value of one
    offends its declaration (a null where it is not nullable, say) is not placed either, as
    memory leaves it out."""

    def __call__(self, names: tuple[str, ...], beside: tuple[str, ...] = ()) -> Counted: ...


def cells_per_axis(max_points: int) -> int:
    """A heatmap's bins per axis: as many as keep its cells within ``max_points``, from 2 to
    ``HEATMAP_BINS``.

    >>> cells_per_axis(100), cells_per_axis(5000)
    (10, 40)
    """
    return max(2, min(HEATMAP_BINS, int(np.sqrt(max_points))))


def histogram_edges(lo: float, hi: float, bins: int) -> Any:
    """A histogram's edges for values from ``lo`` to ``hi``: ``numpy.histogram``'s, from the
    range alone (``choose.bin_edges``: numpy's own unless the range overflows a float).

    >>> histogram_edges(0.0, 1.0, 4).tolist()
    [0.0, 0.25, 0.5, 0.75, 1.0]
    >>> histogram_edges(3.0, 3.0, 2).tolist()  # one value: numpy's half a unit either side
    [2.5, 3.0, 3.5]
    """
    return np.histogram_bin_edges(np.array([lo, hi]), bins=choose.bin_edges(lo, hi, bins))


def cell_edges(lo: float, hi: float, bins: int) -> Any:
    """A heatmap's edges for values from ``lo`` to ``hi``: ``numpy.histogram2d``'s, which
    (unlike ``numpy.histogram``) keep ``bins`` even when a subnormal range cannot space them
    apart (0 to 5e-324: most edges equal, and a value lands past the last that is not above
    it).

    >>> cell_edges(0.0, 2.0, 2).tolist(), cell_edges(1.0, 1.0, 2).tolist()
    ([0.0, 1.0, 2.0], [0.5, 1.0, 1.5])
    """
    wanted = choose.bin_edges(lo, hi, bins)
    if not isinstance(wanted, int):
        return np.asarray(wanted, dtype=float)
    if lo == hi:
        lo, hi = lo - 0.5, hi + 0.5
    return np.linspace(lo, hi, wanted + 1)


def place(values: Any, edges: Any) -> Any:
    """Each value's bin among rising ``edges``, where ``numpy.histogram`` counts it: the last
    ``i`` with ``edges[i] <= v``, the highest edge in the last bin. Guessed by arithmetic on
    evenly spaced edges and corrected against the edges themselves; numpy's binary search when
    a few corrections do not settle it.

    >>> place(np.array([0.0, 0.5, 1.0, 2.0]), np.array([0.0, 1.0, 2.0])).tolist()
    [0, 0, 1, 1]
    """
    values = np.asarray(values, dtype=float)
    edges = np.asarray(edges, dtype=float)
    n = len(edges) - 1
    guessed = _guessed(values, edges, n)
    if guessed is not None:
        return guessed
    return np.minimum(np.searchsorted(edges, values, side="right") - 1, n - 1).clip(0)


def _guessed(values: Any, edges: Any, n: int) -> Any:
    # divided by the span first: n / span overflows for a span of subnormal numbers (2e-311);
    # a span past the largest float (edges from -1.7e308 to 1.7e308) is no guess
    with np.errstate(over="ignore", invalid="ignore"):
        span = float(edges[-1] - edges[0])
        if not (np.isfinite(span) and span > 0):
            return None
        guess = (values - edges[0]) / span * n
    if not np.isfinite(guess).all():
        return None
    at = np.clip(guess, 0, n - 1).astype(np.intp)
    for _ in range(4):
        below = values < edges[at]
        above = (values >= edges[at + 1]) & (at < n - 1)
        if not (below.any() or above.any()):
            return at
        at -= below
        at += above
    return None


def _even(edges: Any) -> bool:
    """Whether ``edges`` are exactly the evenly spaced ones numpy makes from their ends (then
    ``numpy.histogram`` given the count and the range bins on these very edges)."""
    lo, hi = float(edges[0]), float(edges[-1])
    with np.errstate(over="ignore", invalid="ignore"):  # (a span past the largest float)
        return bool(np.array_equal(edges, np.linspace(lo, hi, len(edges))))


@dataclass(frozen=True)
class ArrayCounts:
    """``Counted`` over numpy arrays: each column's placed values, by name (floats, none
    missing; the rows ``decide.py`` cleaned)."""

    columns: Mapping[str, Any]

    def held(self, name: str, *, enough: int) -> Span | None:
        return self.span(name, enough=enough) if len(self.columns[name]) else None

    def span(self, name: str, *, enough: int) -> Span:
        values = self.columns[name]
        if enough <= 0:  # (none asked: none counted)
            return Span(len(values), float(values.min()), float(values.max()), 0)
        distinct = len(np.unique(values[:_HEAD]))  # enough distinct values there: no more
        if distinct < enough:
            distinct = len(np.unique(values))
        return Span(len(values), float(values.min()), float(values.max()), distinct)

    def per_value(self, name: str) -> tuple[Any, Any]:
        counts = pd.Series(self.columns[name]).value_counts().sort_index()
        return counts.index.to_numpy(), counts.to_numpy()

    def per_pair(self, x: str, y: str) -> tuple[tuple[Any, Any], Any]:
        pairs, rows = np.unique(
            np.column_stack([self.columns[x], self.columns[y]]), axis=0, return_counts=True
        )  # (sorted by x, then y)
        return (pairs[:, 0], pairs[:, 1]), rows

    def per_bin(
        self, names: Sequence[str], edges: Sequence[Any]
    ) -> tuple[tuple[Any, ...], Any]:
        widths = [len(e) - 1 for e in edges]
        if len(names) == 1 and _even(edges[0]):  # numpy's own pass over even edges: its fastest
            rows, _ = np.histogram(
                self.columns[names[0]], bins=widths[0], range=(edges[0][0], edges[0][-1])
            )
            held = np.flatnonzero(rows)
            return (held,), rows[held]
        code = np.zeros(len(self.columns[names[0]]), dtype=np.intp)
        for name, e, w in zip(names, edges, widths, strict=True):
            code *= w
            code += place(self.columns[name], e)
        rows = np.bincount(code, minlength=int(np.prod(widths)))
        held = np.flatnonzero(rows)
        return np.unravel_index(held, widths), rows[held]
