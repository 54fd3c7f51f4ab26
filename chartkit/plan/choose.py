"""Choosing the columns a chart draws, from their profiles alone: one set of rules for every
backend.

Both the in-memory planner (``chartkit.decide``) and the engine path (``chartkit._pushdown``)
pick through these functions, so the automatic x, the measure drawn over it and the automatic
color are the same whatever holds the rows. They read ``ColumnProfile`` values (declared type,
whether the column is usable, its distinct values, its rows — facts a backend counts), never
a frame.

>>> from chartkit.encode import ColumnProfile
>>> def q(name, vl, distinct=0):
...     return ColumnProfile(name, vl, "declared", None, None, True, distinct, 100)
>>> cols = [q("host", "nominal", 4), q("id", "nominal", 95), q("gb", "quantitative")]
>>> [p.name for p in x_candidates(cols)], automatic_x(cols, ()).name
(['host'], 'host')
>>> auto_color(cols, exclude={"host"}) is None, auto_color(cols, exclude=set()).name
(True, 'host')
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence

from chartkit.encode import ColumnProfile
from chartkit.plan.rules import MAX_COLOR_CATEGORIES, MAX_FACETS

__all__ = [
    "auto_color",
    "automatic_x",
    "categories",
    "dates",
    "measures",
    "too_wide",
    "x_candidates",
]


def measures(profiles: Iterable[ColumnProfile]) -> list[ColumnProfile]:
    """The usable columns drawn as numbers, in their order, those with no finding first."""
    return sorted(
        (q for q in profiles if q.usable and q.type == "quantitative"),
        key=lambda q: q.violation is not None,
    )


def dates(profiles: Iterable[ColumnProfile]) -> list[ColumnProfile]:
    """The usable columns drawn as times, in their order."""
    return [q for q in profiles if q.usable and q.type == "temporal"]


def categories(profiles: Iterable[ColumnProfile]) -> list[ColumnProfile]:
    """The usable categories a chart may put on an axis: holding a value, not identifiers."""
    return [
        q for q in profiles if q.usable and q.type == "nominal" and q.distinct and not q.id_like
    ]


def x_candidates(profiles: Iterable[ColumnProfile]) -> list[ColumnProfile]:
    """What x is chosen from when no x is picked: the dates, else the categories, else the
    numbers."""
    listed = list(profiles)
    return dates(listed) or categories(listed) or measures(listed)


def automatic_x(
    profiles: Iterable[ColumnProfile], drawn: Sequence[ColumnProfile]
) -> ColumnProfile | None:
    """The first candidate for x that is not already drawn as a measure; None when none is
    (a lone measure is then a histogram)."""
    return next((q for q in x_candidates(profiles) if q not in drawn), None)


def auto_color(
    profiles: Iterable[ColumnProfile], *, exclude: Collection[str | None]
) -> ColumnProfile | None:
    """The automatic color: the first usable category, not already drawn, of 2 to
    ``MAX_COLOR_CATEGORIES`` values (one value tells nothing apart; more are not colors)."""
    for q in profiles:
        if (
            q.usable
            and q.type == "nominal"
            and q.name not in exclude
            and 1 < q.distinct <= MAX_COLOR_CATEGORIES
        ):
            return q
    return None


def too_wide(profiles: Iterable[ColumnProfile]) -> ColumnProfile | None:
    """The first usable category too wide to split a chart by (more values than
    ``MAX_FACETS`` small charts), not an identifier: a note says so."""
    return next(
        (
            q
            for q in profiles
            if q.usable and q.type == "nominal" and not q.id_like and q.distinct > MAX_FACETS
        ),
        None,
    )
