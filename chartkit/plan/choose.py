"""Choosing the columns a chart draws, from their profiles alone: one set of rules for every
backend.

Both the in-memory planner (``plan.decide``) and the engine path (``backends.pushdown``)
pick through these functions, so the automatic x, the measure drawn over it and the automatic
color are the same whatever holds the rows. They read ``ColumnProfile`` values (declared type,
whether the column is usable, its distinct values, its rows — facts a backend counts), never
a frame.

>>> from chartkit.plan.encode import ColumnProfile
>>> def q(name, vl, distinct=0):
...     return ColumnProfile(name, vl, "declared", None, None, True, distinct, 100)
>>> cols = [q("host", "nominal", 4), q("id", "nominal", 95), q("gb", "quantitative")]
>>> [p.name for p in x_candidates(cols)], automatic_x(cols, ()).name
(['host'], 'host')
>>> auto_color(cols, exclude={"host"}) is None, auto_color(cols, exclude=set()).name
(True, 'host')
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final, Literal

from chartkit.plan.encode import ColumnProfile
from chartkit.plan.facts import NumberFacts, Settling
from chartkit.plan.roles import (
    GRID_MAX,
    KEY_VALUES,
    MAX_SERIES,
    SEQUENCE_FILLED,
    SEQUENCE_MIN,
    SEQUENCE_STEP,
    Roles,
    is_factor,
    levels_over,
    panel_over,
    series_over,
    values_of,
)
from chartkit.plan.rules import (
    LOG_ORDERS,
    MAX_COLOR_CATEGORIES,
    MAX_FACETS,
    RULES,
    SHARED_POSITIONS,
    Alternative,
)

__all__ = [
    "BAR_PIXELS",
    "BUCKETS_SECONDS",
    "CHART_WIDTH",
    "ENTITY_COVERAGE",
    "FACET_WIDTH",
    "MAX_PICKED_COLOR_CATEGORIES",
    "Choice",
    "Refused",
    "auto_color",
    "automatic_x",
    "bar_positions",
    "bin_edges",
    "breakdown_key",
    "bucket_name",
    "bucket_seconds",
    "categories",
    "chart",
    "colors_bars",
    "dates",
    "is_entity",
    "line_positions",
    "log_axis",
    "measures",
    "opening",
    "opening_picks",
    "shares_positions",
    "too_wide",
    "x_candidates",
]

_BY_CHART_OPENS: Final = {r.chart: r.opens for r in RULES}

CHART_WIDTH: Final = 560
"""The width of a chart's plot, in pixels (``chartkit.draw.charts`` draws it so)."""
FACET_WIDTH: Final = 220
"""The width of one small chart of a faceted chart, in pixels."""
BAR_PIXELS: Final = 10
"""Pixels of the chart's width one bar of counted rows per time bucket takes at least."""
BUCKETS_SECONDS: Final = (
    1, 5, 15, 30, 60, 300, 900, 1800, 3600, 3 * 3600, 6 * 3600, 12 * 3600,
    86400, 7 * 86400, 30 * 86400, 91 * 86400, 365 * 86400,
)  # fmt: skip
"""The automatic time buckets, finest first: a second to a year."""
ENTITY_COVERAGE: Final = 0.5
"""A line splits by a category only when each of its values holds a row at this share of the
line's time points or more: an entity with a series of its own, not a label of single rows."""
MAX_PICKED_COLOR_CATEGORIES: Final = MAX_FACETS
"""A picked color past ``MAX_COLOR_CATEGORIES`` values becomes facets, up to this many."""


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


def log_axis(lo: Any, hi: Any) -> float | None:
    """The powers of ten a number axis spans when it is drawn on a log scale, else None.

    From the counted span alone (the lowest and highest value drawn, a backend's
    ``ColumnFacts.lo``/``hi``): every value above zero, and the highest at least
    10 ** ``LOG_ORDERS`` times the lowest. On a linear axis the small values would sit in one
    pixel at zero; on a log axis each power of ten has the same room.

    >>> log_axis(0.001, 870), log_axis(1, 999), log_axis(0, 870), log_axis(None, None)
    (5.9, None, None, None)
    """
    try:
        low, high = float(lo), float(hi)
    except (TypeError, ValueError):
        return None
    if not (math.isfinite(low) and math.isfinite(high)) or low <= 0 or high <= low:
        return None
    orders = math.log10(high / low)
    return round(orders, 1) if orders >= LOG_ORDERS else None


def line_positions(*, max_points: int, series: int, faceted: bool) -> int:
    """How many time positions one line may draw: one per pixel of the chart's width (a small
    chart's when faceted), and no more than ``max_points`` shared among its ``series``.

    >>> line_positions(max_points=5000, series=1, faceted=False)
    560
    >>> line_positions(max_points=5000, series=20, faceted=True), line_positions(
    ...     max_points=5000, series=40, faceted=False)
    (220, 125)
    """
    width = FACET_WIDTH if faceted else CHART_WIDTH
    return max(1, min(width, max_points // max(1, series)))


def bar_positions(*, faceted: bool) -> int:
    """How many bars over time a chart draws at most: one per ``BAR_PIXELS`` of its width.

    >>> bar_positions(faceted=False), bar_positions(faceted=True)
    (56, 22)
    """
    return (FACET_WIDTH if faceted else CHART_WIDTH) // BAR_PIXELS


def bucket_seconds(span_seconds: float, positions: int) -> int:
    """The finest automatic bucket (``BUCKETS_SECONDS``) that draws a time span in at most
    ``positions`` buckets; a year when none does.

    >>> bucket_seconds(365 * 86400, 560), bucket_seconds(365 * 86400, 5000 // 1)
    (86400, 10800)
    """
    for seconds in BUCKETS_SECONDS:
        if span_seconds / seconds + 1 <= max(1, positions):
            return seconds
    return BUCKETS_SECONDS[-1]


def bucket_name(seconds: int) -> str:
    """A bucket's length as a note and a title say it: the largest whole unit it counts.

    >>> bucket_name(86400), bucket_name(3 * 3600), bucket_name(90), bucket_name(1800)
    ('day', '3-hour', '90-second', '30-minute')
    """
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds % size == 0:
            n = seconds // size
            return f"{n}-{unit}" if n > 1 else unit
    return f"{seconds}-second"


def bin_edges(lo: float, hi: float, bins: int) -> int | list[float]:
    """``bins`` equal bins over ``lo``..``hi`` as numpy's ``histogram`` takes them: the count
    itself (numpy's own edges) unless the range overflows a float (values near ±1.8e308,
    where numpy's edges would be infinite); then the edges, weighted between the ends.

    >>> bin_edges(0.0, 1.0, 10), bin_edges(-1.7e308, 1.7e308, 2)
    (10, [-1.7e+308, 0.0, 1.7e+308])
    """
    if lo == hi or math.isfinite(hi - lo):
        return bins
    return [lo * (1 - k / bins) + hi * (k / bins) for k in range(bins + 1)]


def is_entity(times_covered: int, times: int) -> bool:
    """Whether a category splits a line: the value of it found at the fewest time points
    (``times_covered``, a count a backend makes: ``Backend.coverage``) is there at
    ``ENTITY_COVERAGE`` of the line's ``times`` or more.

    A stock's symbol has a price every day: a line each. The day's weather is one label a day:
    a line per weather would join days far apart and say nothing of how each moves.

    >>> is_entity(120, 123), is_entity(23, 1461), is_entity(0, 0)
    (True, False, True)
    """
    return times == 0 or times_covered >= ENTITY_COVERAGE * times


def shares_positions(per_group: Sequence[int], distinct: int) -> bool:
    """Whether a scatter's groups sit on the same x positions: from counts alone.

    ``per_group`` is each group's count of distinct x values, ``distinct`` x's distinct values
    over all the rows. When half the groups or more each hold ``SHARED_POSITIONS`` of x's
    values (x has five or more), the groups are the same positions measured again —
    Anscombe's four sets: 11, 11, 11 and 2 of 12 — and colored points would be drawn over
    each other, so each group gets a panel. Iris' species hold 15, 21 and 21 of 35: colors.

    >>> shares_positions([2, 11, 11, 11], 12), shares_positions([15, 21, 21], 35)
    (True, False)
    """
    if distinct < 5 or len(per_group) < 2:
        return False
    full = sum(1 for n in per_group if n >= SHARED_POSITIONS * distinct)
    return 2 * full >= len(per_group)


def breakdown_key(
    x: ColumnProfile, others: Iterable[ColumnProfile], unique_pairs: Callable[[str], bool]
) -> ColumnProfile | None:
    """The other key of a breakdown drawn as bars per ``x``, or None.

    Rows that are already a breakdown — one row per pair of keys, like medal counts per nation
    and medal — hold totals: bars of their sum per ``x``, stacked by the other key, not
    means. The other key is the first category (declared order) of 2 to
    ``MAX_COLOR_CATEGORIES`` values, not ``x``, with which ``x`` is a unique key:
    ``unique_pairs(name)`` is that counted fact (no two rows share a pair). ``x`` must repeat
    (a unique ``x`` is one bar per row already).

    >>> from chartkit.plan.encode import ColumnProfile
    >>> def q(name, distinct, rows=9):
    ...     return ColumnProfile(name, "nominal", "declared", None, None, True, distinct, rows)
    >>> breakdown_key(q("nation", 3), [q("medal", 3)], lambda name: True).name
    'medal'
    >>> breakdown_key(q("nation", 3), [q("medal", 3)], lambda name: False) is None
    True
    """
    if not (x.usable and x.type == "nominal" and x.distinct < x.rows):
        return None
    for q in others:
        if (
            q.name != x.name
            and q.usable
            and q.type == "nominal"
            and not q.id_like
            and 1 < q.distinct <= MAX_COLOR_CATEGORIES
            and unique_pairs(q.name)
        ):
            return q
    return None


Why = Literal[
    "unusable",  # the column is missing, or every row offends its declared type
    "not-a-measure",  # y: not declared number
    "no-values",  # color or facet: the category holds no value in any row
    "too-many-picked-colors",  # color: more than MAX_PICKED_COLOR_CATEGORIES values
    "facet-not-category",  # facet: not declared string or boolean
    "too-many-facets",  # facet: more than MAX_FACETS values
    "facet-is-x",  # facet: the category on x (each small chart would hold one bar)
    "one-y-axis",  # y: a scatter has one y axis, the first measure's
    "same-as-x",  # y: the number on x (against itself, a diagonal line): its histogram instead
    "color-by-measures",  # color: several measures are told apart by color already
    "colors-as-facets",  # color: past MAX_COLOR_CATEGORIES, one small chart per value instead
    "too-many-colors",  # color: past MAX_COLOR_CATEGORIES and the facets are taken
    "line-color-not-category",  # color: a line splits only by a string or boolean
    "bar-color",  # color: bars counting rows, or of several measures, draw one bar per category
    "bar-color-not-factor",  # color: bars of one measure split only by a factor of ten values
]


@dataclass(frozen=True, slots=True)
class Refused:
    """A column of the picks that a chart does not draw where it was asked to, and why (a
    value: the planner words it, a backend only reads which column went where).
    ``colors-as-facets`` is not a refusal but a move: the color is drawn as facets."""

    channel: Literal["x", "y", "color", "facet"]
    column: str
    why: Why


@dataclass(frozen=True, slots=True)
class Choice:
    """What a set of picks draws, from the columns' profiles alone (``chart``).

    ``kind``: ``line`` (a date on x), ``bars`` (a category on x; no ``ys`` counts its rows),
    ``scatter`` (a number on x, one measure), ``histogram`` (of ``x``), or ``table``: the
    picks draw nothing (``refused`` ends with the reason, or ``no-measure``: x holds no
    measure to draw over it). ``color`` and ``facet`` are the ones drawn; ``auto_color``
    whether the chart may add a color of its own (``auto_color``); ``refused`` each pick not
    drawn as asked, in the order the planner says them; ``counted``: bars counting the rows
    because no measure is drawn over x (they may lie horizontal whoever chose x)."""

    kind: Literal["line", "bars", "scatter", "histogram", "table"]
    x: str | None = None
    ys: tuple[str, ...] = ()
    color: str | None = None
    facet: str | None = None
    auto_color: bool = False
    refused: tuple[Refused, ...] = ()
    no_measure: bool = False
    counted: bool = False  # bars of rows counted because no measure was drawn over x

    @property
    def table_refusal(self) -> Refused | None:
        """The refusal that made the picks a table (a picked x, or the picked measures)."""
        return self.refused[-1] if self.kind == "table" and self.refused else None


def chart(
    profiles: Mapping[str, ColumnProfile],
    x: str | None,
    ys: Sequence[str] | None,
    color: str | None,
    facet: str | None,
    *,
    count: bool,
    auto_color: bool,
    roles: Roles | None = None,
    max_points: int | None = None,
    aggregate: str | None = None,
) -> Choice:
    """The chart a set of picks draws, from profiles alone: one rule for every backend.

    ``x``, ``ys``, ``color``, ``facet`` are picked (or chosen by the rule table) column names
    of ``profiles``; ``count`` is ``aggregate='count'``; ``auto_color`` whether the chart may
    color by a category of its own choosing when no color is picked; ``roles`` the columns'
    roles and ``max_points`` the points a chart may draw (a series over a number, below).

    A date on x draws a line, a category bars, a number a scatter (one measure) or a histogram
    (none); a pick that cannot be drawn where it was asked is ``refused``. Several measures
    over a number that is a series (``roles.series_over``: a grid keying the rows alone, as
    years do) draw a line each, as over a date, when every point fits: one per pixel of the
    chart's width at most, ``max_points`` in all (a series over a number is not bucketed).
    One measure over a number that indexes the series of more entities than lines
    (``roles.panel_over``: countries over years), with an ``aggregate`` picked (not
    ``count``), is a line of that aggregate per value of x, one per the factor that holds
    each entity in one of its values, when those points fit as the series' do; over a
    grid of few ordered levels that are no codes (``roles.levels_over``: doses of 0.5, 1 and
    2), a line of that aggregate per level, one per the color.

    >>> from chartkit.plan.encode import ColumnProfile
    >>> def q(name, vl, distinct=0):
    ...     return ColumnProfile(name, vl, "declared", None, None, True, distinct, 100)
    >>> cols = {c.name: c for c in [q("t", "temporal"), q("host", "nominal", 40),
    ...                             q("gb", "quantitative"), q("ms", "quantitative")]}
    >>> c = chart(cols, "t", ["gb"], "host", None, count=False, auto_color=False)
    >>> c.kind, c.color, c.facet, [r.why for r in c.refused]
    ('line', None, None, ['too-many-picked-colors'])
    >>> c = chart(cols, "t", ["ms", "gb"], None, None, count=False, auto_color=True)
    >>> c.kind, c.ys, [(r.column, r.why) for r in c.refused]
    ('line', ('ms', 'gb'), [])
    >>> c = chart(cols, "gb", ["ms", "gb"], None, None, count=False, auto_color=True)
    >>> c.kind, c.ys, [(r.column, r.why) for r in c.refused]
    ('scatter', ('ms',), [('gb', 'same-as-x')])
    >>> c = chart(cols, "gb", ["gb"], None, None, count=False, auto_color=True)
    >>> c.kind, c.x, [(r.column, r.why) for r in c.refused]
    ('histogram', 'gb', [('gb', 'same-as-x')])
    """
    refused: list[Refused] = []

    def table(**kw: Any) -> Choice:
        return Choice("table", x, tuple(ys or ()), refused=tuple(refused), **kw)

    if x is not None:
        why = _pick_refusal("x", profiles[x])
        if why is not None:
            refused.append(Refused("x", x, why))
            return table()
    drawn: list[ColumnProfile] = []
    for name in ys or ():
        why = _pick_refusal("y", profiles[name])
        if why is None and name == x and profiles[name].type == "quantitative":
            refused.append(Refused("y", name, "same-as-x"))  # (x drawn alone: its histogram)
            continue
        if why is None:
            drawn.append(profiles[name])
            continue
        refused.append(Refused("y", name, why))
        if len(ys or ()) == 1:
            return table()
    if ys is not None and not drawn and any(r.why != "same-as-x" for r in refused):
        return table()
    cp = profiles[color] if color is not None else None
    if cp is not None:
        why = _pick_refusal("color", cp)
        if why is not None:
            refused.append(Refused("color", cp.name, why))
            cp = None
    fp = profiles[facet] if facet is not None else None
    if fp is not None:
        why = _facet_refusal(fp)
        if why is not None:
            refused.append(Refused("facet", fp.name, why))
            fp = None
    if fp is not None and cp is fp:
        cp = None  # one small chart per value already tells them apart
    xp = profiles[x] if x is not None else None
    numbers = measures(profiles.values())

    if fp is not None and xp is fp:  # one small chart per x value: a bar each
        refused.append(Refused("facet", fp.name, "facet-is-x"))
        fp = None

    def made(kind: Any, xq: ColumnProfile, auto: bool = auto_color) -> Choice:
        return Choice(
            kind, xq.name, tuple(m.name for m in drawn), cp.name if cp else None,
            fp.name if fp else None, auto, tuple(refused),
        )  # fmt: skip

    if xp is None:
        xp = automatic_x(profiles.values(), drawn)
        if xp is None or (count and xp.type == "quantitative"):
            # a lone measure, or rows counted with no date or category to count over: the
            # rows counted per bin of the measure picked
            return Choice("histogram", drawn[0].name, refused=tuple(refused))
    elif not drawn:
        if xp.type == "quantitative":
            return Choice("histogram", xp.name, refused=tuple(refused))
        others = [m for m in numbers if m is not xp]
        if count or not others:
            if xp.type == "nominal":
                if cp is not None:
                    refused.append(Refused("color", cp.name, "bar-color"))
                    cp = None
                return replace(made("bars", xp), counted=True)
            if not count:
                return table(no_measure=True)
        else:
            drawn = [others[0]]
    if count:  # rows counted (over time: split only by a picked color)
        drawn, auto_color = [], False
        if xp.type == "quantitative":  # per bin of the number on x
            return Choice("histogram", xp.name, refused=tuple(refused))
    series = (
        len(drawn) > 1 and xp.type == "quantitative" and roles is not None
        and max_points is not None and series_over(roles, xp.name, [])
        and roles[xp.name].numbers.distinct <= CHART_WIDTH
        and roles[xp.name].numbers.values * len(drawn) <= max_points
    )  # fmt: skip
    panel = (
        len(drawn) == 1 and xp.type == "quantitative" and aggregate not in (None, "count")
        and roles is not None and max_points is not None
        and panel_over(roles, xp.name, [cp.name if cp else None, fp.name if fp else None])
        is not None
        and roles[xp.name].numbers.distinct <= CHART_WIDTH
        and roles[xp.name].numbers.distinct * (cp.distinct if cp else 1) <= max_points
    )  # fmt: skip
    # (a mean per level of a dose, one line per factor: asked by an aggregate picked)
    levels = (
        len(drawn) == 1 and xp.type == "quantitative" and aggregate not in (None, "count")
        and roles is not None and levels_over(roles, xp.name)
    )  # fmt: skip
    series = series or panel or levels
    if len(drawn) > 1 and xp.type == "quantitative" and not series:
        refused += [Refused("y", m.name, "one-y-axis") for m in drawn[1:]]
        drawn = drawn[:1]
    if len(drawn) > 1 and cp is not None:
        refused.append(Refused("color", cp.name, "color-by-measures"))
        cp = None
    # (a number's values, a factor's by its role, are counted by the role)
    numbered = (
        cp is not None and roles is not None and cp.type == "quantitative"
        and is_factor(roles, cp.name)
    )  # fmt: skip
    if cp is not None and (cp.type == "nominal" or numbered) and xp.type != "nominal":
        colors = values_of(roles, cp) if roles is not None else cp.distinct
        if colors > MAX_COLOR_CATEGORIES:
            refused.append(
                Refused("color", cp.name, "too-many-colors" if fp else "colors-as-facets")
            )
            cp, fp = None, (fp or cp)
    if xp.type == "temporal" or series:
        # (a number of few levels holding each entity in one — diets 1 to 4 of 50 chicks —
        # colors their mean lines as a category would: ``panel`` holds only for such a color;
        # and a numbered factor — supplements 1 and 2 — colors the mean lines over a dose)
        nests = (panel or levels) and numbered
        if cp is not None and cp.type != "nominal" and not nests:
            refused.append(Refused("color", cp.name, "line-color-not-category"))
            cp = None
        return made("line", xp, auto_color and len(drawn) <= 1)
    if xp.type == "nominal":
        if cp is not None and not colors_bars(cp, xp, len(drawn), roles):
            one = len(drawn) == 1 and cp.name != xp.name
            refused.append(Refused("color", cp.name, "bar-color-not-factor" if one else
                                   "bar-color"))  # fmt: skip
            cp = None
        return made("bars", xp)
    return made("scatter", xp)


def colors_bars(cp: ColumnProfile, xp: ColumnProfile, measures: int, roles: Roles | None) -> bool:
    """Whether ``cp`` colors bars of one measure per ``xp``, side by side: a factor of at
    most ``MAX_COLOR_CATEGORIES`` values other than x — a category, or a number whose role is
    a factor's (``roles.is_factor``: a grid of few levels, a year of two)."""
    if measures != 1 or cp.name == xp.name:
        return False
    if cp.type == "nominal":
        return 2 <= cp.distinct <= MAX_COLOR_CATEGORIES
    return roles is not None and is_factor(roles, cp.name) and (
        roles[cp.name].distinct <= MAX_COLOR_CATEGORIES
    )  # fmt: skip


def _pick_refusal(channel: str, q: ColumnProfile) -> Why | None:
    """Why a picked column is not drawn on ``channel`` (x, y or color), or None."""
    if not q.usable:
        return "unusable"
    if channel == "y" and q.type != "quantitative":
        return "not-a-measure"
    if channel == "color" and q.type == "nominal" and q.distinct == 0:
        return "no-values"
    if channel == "color" and q.type == "nominal" and q.distinct > MAX_PICKED_COLOR_CATEGORIES:
        return "too-many-picked-colors"
    return None


def _facet_refusal(q: ColumnProfile) -> Why | None:
    """Why a picked facet is not drawn, or None."""
    if not q.usable:
        return "unusable"
    if q.type != "nominal":
        return "facet-not-category"
    if q.distinct == 0:
        return "no-values"
    if q.distinct > MAX_FACETS:
        return "too-many-facets"
    return None


def opening(cands: Iterable[Alternative], *, count: bool) -> list[Alternative]:
    """The candidates a result with no x and no y picked may open on, in their ranked
    order (every backend tries them so, passing over a chart of a single mark): those whose
    rule opens (those binding a column most of whose rows offend last); with
    ``aggregate='count'`` (``count``), the count bars and the lines among them, count bars
    opening too.

    >>> from chartkit.plan.encode import ColumnProfile
    >>> from chartkit.plan.rules import candidates
    >>> def q(name, vl, distinct=0):
    ...     return ColumnProfile(name, vl, "declared", None, None, True, distinct, 100)
    >>> cols = {c.name: c for c in [q("host", "nominal", 4), q("gb", "quantitative")]}
    >>> [a.chart for a in opening(candidates(cols), count=False)]
    ['bars', 'histogram', 'total bars']
    >>> [a.chart for a in opening(candidates(cols), count=True)]
    ['count bars']
    """
    out = [a for a in cands if a.opens or (count and a.chart == "count bars")]
    # last, the charts of a column most of whose rows offend: drawn (offenders left out and
    # said) only when nothing else can be, as a column that can make a chart is never skipped
    out += [a for a in cands if not a.may_open and _BY_CHART_OPENS.get(a.chart, False)]
    return [a for a in out if a.chart in ("count bars", "lines")] if count else out


def opening_picks(
    cand: Alternative, color: str | None, facet: str | None, *, count: bool
) -> tuple[str | None, tuple[str, ...] | None, str | None, str | None]:
    """The x, measures, color and facet an opening candidate draws, beside a picked ``color``
    and ``facet``: the candidate's color unless one is picked (rows counted are split only
    by a picked one), its facet unless one is picked or it is the picked color; no measure
    when the rows are counted."""
    ys = (cand.y,) if isinstance(cand.y, str) else cand.y
    split = cand.facet if cand.facet != color else None
    auto = cand.color if color is None and not count else color
    return cand.x, None if count else ys, auto, facet or split


PROBE_ROWS: Final = 20_000
"""Over ``KEY_VALUES`` rows, a number's distinct values are first counted among this many of
its rows (a ``LIMIT``, read in milliseconds): a lower bound of the exact count."""
DISTINCT_DECIDES: Final = max(CHART_WIDTH, GRID_MAX, MAX_SERIES)
"""The largest count of a number's distinct values a role or a chart compares it with, below
``KEY_VALUES`` (a series of at most ``CHART_WIDTH`` whole values): past it, the exact count
decides nothing but the identifier, key and sequence tests of whole numbers."""


def _distinct_decides(whole: NumberFacts, seen: NumberFacts) -> bool:
    """Whether ``seen``'s distinct values (of some of the rows ``whole`` counts) tell every
    role and chart what the exact count would: more than ``DISTINCT_DECIDES`` of them, and for
    whole numbers a value seen twice (so not every row holds its own: no id, no key) and no
    count of distinct values between it and the most the span and rows allow that makes an
    evenly spaced sequence (``chartkit.plan.roles``' sequence test), unless over
    ``KEY_VALUES`` (the key is then not asked)."""
    low = seen.distinct
    if low <= DISTINCT_DECIDES:
        return False
    if not whole.whole:
        return True
    if low >= seen.values:
        return False  # (no value seen twice: it may be an id or a key)
    if low > KEY_VALUES or whole.low is None or whole.high is None:
        return True
    span = whole.high - whole.low
    if not math.isfinite(span):
        return True  # (whole values near a float's limits span no countable grid)
    most = min(whole.values, int(span) + 1)
    for step in range(1, SEQUENCE_STEP + 1):
        slots = span / step + 1
        # a count d of distinct values is a sequence when d <= slots <= d / SEQUENCE_FILLED
        if slots == int(slots) and max(low, SEQUENCE_MIN, SEQUENCE_FILLED * slots) <= min(
            most, slots
        ):
            return False
    return True


SETTLING: Final = Settling(KEY_VALUES, PROBE_ROWS, _distinct_decides)
"""How every backend counts a number's distinct values over ``KEY_VALUES`` rows: the count
among the first ``PROBE_ROWS`` rows where it decides as the exact count would, else exactly
(``chartkit.plan.facts.NumberFacts``)."""
