"""The groups bars and lines draw, asked of wherever the rows they place live.

Bars need one thing of the rows the chart places: per group of their keys (the category, then
the facet), each measure's aggregate and the rows behind it, or the rows counted. A line needs
the facts that choose its time bucket (``LineFacts``: the rows, the span, the series, the
distinct times), then the same groups per time (floored to a unit or a bucket) and series.
In memory ``decide.py`` groups the rows it cleaned (``chartkit.plan.reduce``: its numpy fast
paths); when the rows stay in an engine it asks the backend (``decide.Whole.grouped``:
``Grouped``, answered by ``chartkit.backends.counts.PlacedGroups`` through the contract's
``Backend.facts`` and ``Backend.reduce``), and chooses, draws, ranks, cuts to the top and
words the chart the same way from either answer. Nothing here touches a frame of rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import pandas as pd

    from chartkit.plan.spec import Note

__all__ = ["BarGroups", "Fetched", "Grouped", "LineFacts", "Said"]


@dataclass(frozen=True)
class BarGroups:
    """A backend's groups for bars, by column name: ``frame`` holds one row per group (the
    keys, then each measure's aggregate), in the order ``groupby(keys, sort=True,
    dropna=False)`` gives (a missing key last); ``rows`` the rows behind each group, one
    tuple per measure (one tuple of rows counted when there is none); ``categories`` the
    first key's values over every row when only the top groups are here (None: all are)."""

    frame: pd.DataFrame = field(repr=False)
    rows: tuple[tuple[int, ...], ...]
    categories: int | None = None


@dataclass(frozen=True)
class LineFacts:
    """What a line's rows are, before they are grouped: the ``rows`` it places, the ``values``
    each measure holds among them (a row holding one of several measures is placed), the
    span of the time (``lo`` to ``hi``, as timestamps) and the ``series``: the distinct
    values of its color and facet together (a missing value is one), 1 for none."""

    rows: int
    values: tuple[int, ...]
    lo: Any
    hi: Any
    series: int


class Grouped(Protocol):
    """The groups of the rows bars place, by column name, where they live."""

    def bars(self, keys: Sequence[str], measures: Sequence[str], aggregate: str) -> BarGroups:
        """The groups of ``keys`` (the category first) holding the ``aggregate`` of each of
        ``measures`` (``count``, and no measure: the rows counted), over the rows the bars
        place; a backend may keep only the top groups of a single measure by one key (then
        ``BarGroups.categories`` says how many there are)."""
        ...

    def line_facts(self, x: str, measures: Sequence[str], series: Sequence[str]) -> LineFacts:
        """The facts of the rows a line of ``measures`` over the time ``x`` places, split by
        ``series`` (its color, then its facet)."""
        ...

    def distinct_times(self, x: str, measures: Sequence[str], series: Sequence[str]) -> int:
        """The distinct times of ``x`` among those rows (asked only of a line that fits
        ``max_points`` rows: whether its times outnumber the chart's pixels)."""
        ...

    def line(
        self,
        x: str,
        measures: Sequence[str],
        series: Sequence[str],
        aggregate: str,
        seconds: int,
        unit: str | None,
    ) -> BarGroups:
        """The groups of those rows per time and series (``frame``: ``x``, then ``series``,
        then each measure's ``aggregate``; or the rows counted, ``count``): the time floored
        to ``unit``, or to buckets of ``seconds`` from the epoch (0: each time its own),
        as timestamps in the column's own zone (a unit's in UTC, as decide.py floors it)."""
        ...


class Fetched(Protocol):
    """The rows a chart places, fetched from where they live: asked only when they fit
    ``max_points`` (a scatter's points, a label's points), so a chart that draws each row
    is planned from the rows themselves, as in memory. Each frame holds the named columns
    under their own names, the rows in the order the backend holds them."""

    def points(self, x: str, y: str, beside: Sequence[str]) -> pd.DataFrame:
        """The rows holding a value of both ``x`` and ``y`` (a finite one, of the declared
        type), with the columns ``beside`` (a color, a facet): the rows a scatter places
        (``Counts`` of the same columns counts them)."""
        ...

    def line(self, x: str, measures: Sequence[str], series: Sequence[str]) -> pd.DataFrame:
        """The rows a line of ``measures`` over the time ``x``, split by ``series``, places
        (those ``Grouped.line_facts`` counts)."""
        ...


class Said(Protocol):
    """What a backend says of the rows a chart places, counted where they live: the notes
    memory writes as it cleans its rows (``left-out``: each used column's offenders;
    ``unplaced``: a measure's infinite numbers; ``no-value``: rows holding no value on an
    axis), in that order, as ``Note`` values in the backend's words."""

    def __call__(
        self, used: Sequence[str], axes: Sequence[tuple[str, str]], together: Sequence[str]
    ) -> Sequence[Note]:
        """The notes of the rows placed by ``used`` (every column of the chart, the axes
        first): ``axes`` are the (column, channel) pairs on a time or measure axis (a row
        holding no value there has no place); ``together`` the several measures of which a
        row holds one at least (a missing one leaves only that measure out); every other
        used column is a category, color or facet (a missing value is its own category
        where it is declared nullable)."""
        ...
