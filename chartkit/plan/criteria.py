"""The criteria a candidate chart is scored by, kept as records: the design knowledge as data.

Each ``Criterion`` is a name, the sentence it adds to the reason when it decided, a weight, and
a test over a candidate and the columns' roles that says how far the candidate breaks it (0:
not at all). A candidate's cost is the weighted sum (``cost``); the default is the cheapest
candidate, the alternatives the ranking, and the declaration's order breaks ties only. This is
Draco 2's shape (``soft.lp`` names each preference, ``weights.lp`` weighs it), over the roles
and counts a backend answers rather than a solver's facts. ``criteria_table()`` renders the
table for docs/rules.md.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol

from chartkit.plan.roles import Roles, is_factor, levels_over, panel_over, series_over

__all__ = [
    "CRITERIA",
    "KIND_COST",
    "Candidate",
    "Criterion",
    "cost",
    "criteria_table",
    "deciding",
    "is_response",
]


class Candidate(Protocol):
    """What a criterion reads of a candidate chart (``rules.Alternative`` is one): its kind and
    the columns on its channels. A protocol, so the criteria need not import the rules that
    rank by them."""

    @property
    def chart(self) -> str: ...
    @property
    def x(self) -> str | None: ...
    @property
    def y(self) -> str | tuple[str, ...] | None: ...
    @property
    def color(self) -> str | None: ...
    @property
    def facet(self) -> str | None: ...


FEW_VALUES: Final = 3
"""A number of at most this many distinct values is no continuous axis (a year of two)."""
PANELS_AT_MOST: Final = 20
"""Like measures are drawn at most this many (ten lines, then a small chart each: lines.py);
past it the picture says how many are left out."""
FACTOR_COLORS: Final = 10
"""A factor of at most this many values can split a chart (a color, small charts)."""

_POINTS: Final = frozenset({"scatter", "series lines"})
_BARS: Final = frozenset(
    {"bars", "total bars", "grouped bars", "grouped total bars", "colored bars"}
)
_LINES: Final = frozenset({"lines", "lines per measure", "faceted lines"})

KIND_COST: Final[Mapping[str, float]] = {
    "lines": 0.0,
    "series lines": 0.1,
    "mean lines": 0.3,
    "lines per measure": 0.2,
    "faceted lines": 0.6,
    "scatter": 0.4,
    "bars": 1.0,
    "grouped bars": 0.9,
    "total bars": 1.3,
    "grouped total bars": 1.2,
    "colored bars": 0.8,
    "histogram": 2.0,
    "count bars": 2.5,
}
"""What each chart costs before any criterion: a line over time first, then a scatter of two
measures, bars, and one column's spread last."""


@dataclass(frozen=True, slots=True)
class Criterion:
    """One preference: ``test(candidate, roles)`` is how far the candidate breaks it (0: it
    holds), ``weight`` what breaking it costs, ``sentence`` what the reason says when it
    decided (``str.format`` fields: ``x``, ``y``, ``color``, ``facet``), said only of a chart
    among ``speaks_of``."""

    name: str
    sentence: str
    weight: float
    test: Callable[[Candidate, Roles], float]
    speaks_of: frozenset[str] | None = None  # the charts its sentence is about (None: all)


def _ys(a: Candidate) -> tuple[str, ...]:
    return (a.y,) if isinstance(a.y, str) else tuple(a.y or ())


def _kind(a: Candidate, roles: Roles) -> float:
    return KIND_COST.get(a.chart, 1.0)


def _measure_on_y(a: Candidate, roles: Roles) -> float:
    """A grid (levels, or the index of series) or an identifier on a scatter's y, or as the
    measure a mean line averages (a year of a monthly panel, the same at each of its months):
    the response belongs there (a line over time or bars may draw a number of few values)."""
    if a.chart not in _POINTS and a.chart != "mean lines":
        return 0.0
    return float(sum(roles.role(y) in ("grid", "identifier") for y in _ys(a)))


_RESPONSE: Final = re.compile(r"(?i)^(target|response|outcome)$")
"""The names a model's frame gives what is predicted (scikit-learn's ``target``): by that
convention, the measure the others are drawn against."""


def is_response(name: str | None) -> bool:
    """Whether ``name`` is what a model's frame calls what it predicts (``_RESPONSE``): as a
    measure the scatter's y, as a code of few levels its color before any other."""
    return name is not None and _RESPONSE.match(name) is not None


def _response_off_y(a: Candidate, roles: Roles) -> float:
    """A measure named the response (``_RESPONSE``) on a scatter's x, or drawn nowhere on a
    scatter of two other measures."""
    if a.chart != "scatter":
        return 0.0
    named = [n for n in roles.of("measure") if is_response(n)]
    return float(bool(named) and not set(named) & set(_ys(a)))


def _levels(roles: Roles, name: str | None) -> bool:
    """A grid of few repeated levels (doses, days of a design), not a series' own index."""
    r = roles.get(name or "")
    return r is not None and r.role == "grid" and r.keys_with is None


def _grid_on_x(a: Candidate, roles: Roles) -> float:
    """A scatter of a measure over a measure while a grid is on neither axis is fine; a grid
    drawn as y of a scatter whose x is a measure is the axes swapped."""
    if a.chart != "scatter":
        return 0.0
    return float(roles.role(a.x) == "measure" and any(_levels(roles, y) for y in _ys(a)))


def _few_values(a: Candidate, roles: Roles) -> float:
    """A number of ``FEW_VALUES`` values or fewer, repeated, on a scatter's axis."""
    if a.chart != "scatter":
        return 0.0
    axes = (a.x, *_ys(a))
    return float(
        sum(
            (r := roles.get(n or "")) is not None and r.numbers.values > r.numbers.distinct
            and r.numbers.distinct <= FEW_VALUES
            for n in axes
        )
    )  # fmt: skip


def _map_orientation(a: Candidate, roles: Roles) -> float:
    """Latitude on x or longitude on y."""
    if a.chart != "scatter":
        return 0.0
    x, ys = roles.get(a.x or ""), [roles.get(y) for y in _ys(a)]
    wrong = x is not None and x.axis == "y"
    return float(wrong or any(y is not None and y.axis == "x" for y in ys))


def _coordinates_apart(a: Candidate, roles: Roles) -> float:
    """A coordinate drawn against anything but the other coordinate."""
    if a.chart != "scatter":
        return 0.0
    axes = [roles.role(n) == "coordinate" for n in (a.x, *_ys(a))]
    return float(any(axes) and not all(axes))


def _map_missed(a: Candidate, roles: Roles) -> float:
    """Both coordinates are there and the candidate is not their map."""
    if len(roles.of("coordinate")) < 2:
        return 0.0
    axes = {a.x, *_ys(a)}
    return float(a.chart != "scatter" or not axes <= set(roles.of("coordinate")))


def _breakdown(a: Candidate, roles: Roles) -> bool:
    """Bars over one of two categories that key the rows: the planner draws each bar as the
    total of its rows, stacked by the other category (``plan.bars``' breakdown)."""
    return (
        a.chart == "bars" and a.color is None and a.facet is None and len(roles.key) == 2
        and a.x in roles.key
        and all(roles.role(k) in ("factor", "entity") for k in roles.key)
        and all(roles[k].distinct <= FACTOR_COLORS for k in roles.key if k != a.x)
    )  # fmt: skip


def _weight_averaged(a: Candidate, roles: Roles) -> float:
    """A weight averaged (a mean of counts reads a tenth of the total)."""
    if a.chart not in ("bars", "grouped bars", "colored bars") or _breakdown(a, roles):
        return 0.0
    return float(any(roles.role(y) == "weight" for y in _ys(a)))


def _measure_summed(a: Candidate, roles: Roles) -> float:
    """A measure that is no count summed: the total of temperatures means nothing."""
    if a.chart not in ("total bars", "grouped total bars"):
        return 0.0
    return float(any(roles.role(y) != "weight" for y in _ys(a)))


def _factor_left_out(a: Candidate, roles: Roles) -> float:
    """Bars over one factor while another factor of few values is drawn nowhere."""
    if a.chart not in _BARS or _breakdown(a, roles):
        return 0.0
    drawn = {a.x, a.color, a.facet}
    return float(
        any(
            n not in drawn and 2 <= roles[n].distinct <= FACTOR_COLORS and is_factor(roles, n)
            and n not in roles.layout  # (where treatments were placed: ``layout-apart``)
            for n in roles
        )
    )


def _layout_drawn(a: Candidate, roles: Roles) -> float:
    """A grid of a layout (``Roles.layout``: the rows and columns of a field, keying its
    cells together while a category crosses them) drawn on any channel: those place the
    treatments, which are what is compared."""
    drawn = (a.x, *_ys(a), a.color, a.facet)
    return float(any(n in roles.layout for n in drawn if n is not None))


def _cells_scattered(a: Candidate, roles: Roles) -> float:
    """A scatter with a weight on an axis while categories key the rows: each point is a
    cell of a contingency table, whose counts are read by their categories (summed per
    one, split by another), not against each other."""
    if a.chart not in _POINTS or not roles.key:
        return 0.0
    return float(any(roles.role(n) == "weight" for n in (a.x, *_ys(a))))


def _x_not_widest(a: Candidate, roles: Roles) -> float:
    """Bars along a factor of fewer values than another factor they split by or leave out:
    the factor of most values is laid out along x, where its labels have room, and the
    fewer-valued ones split the bars (colors, small charts)."""
    if a.chart not in _BARS or a.x is None or roles.get(a.x) is None:
        return 0.0
    along = roles[a.x].distinct
    return float(
        any(
            n != a.x and is_factor(roles, n) and along < roles[n].distinct <= FACTOR_COLORS
            for n in roles
        )
    )


def _colors_not_fewest(a: Candidate, roles: Roles) -> float:
    """Colored bars whose color holds more values than their x or their small charts: the
    factor of fewest values is told apart by color, side by side, and the others laid out
    along x and across the small charts (more colors than bars in a group read poorly)."""
    if a.chart != "colored bars" or a.color is None:
        return 0.0
    colors = roles[a.color].distinct
    return float(any(n is not None and roles[n].distinct < colors for n in (a.x, a.facet)))


def _like_apart(a: Candidate, roles: Roles) -> float:
    """A line over time, or over a grid that keys the rows (a scatter over it is drawn as a
    line), while three or more like measures are not all drawn (one of them alone, or only
    the first ``MAX_MEASURES``: the picture then says how many are left out)."""
    split = [s for s in (a.color, a.facet) if s is not None]
    over_time = a.chart in ("lines", "lines per measure") and roles.role(a.x) == "time"
    over_grid = a.chart in ("scatter", "lines per measure") and series_over(roles, a.x, split)
    if not (over_time or over_grid):
        return 0.0
    like, drawn = set(roles.like), set(_ys(a))
    full = len(drawn) >= PANELS_AT_MOST and drawn <= like  # the first 20, the rest said
    return float(bool(like) and not (like <= drawn or full))


def _named_like_apart(a: Candidate, roles: Roles) -> float:
    """Three or more like measures of a few rows a category names (a medal table: a nation
    a row), and the candidate is not the bars of them all per that category, side by side:
    a scatter of two of them reads a handful of points, bars of one leave the others out."""
    if not roles.named or not roles.like:
        return 0.0
    drawn = set(_ys(a))
    return float(
        not (a.chart == "bars" and a.x in roles.named and set(roles.like) <= drawn)
    )


def _series_missed(a: Candidate, roles: Roles) -> float:
    """A grid that keys the rows (alone, or with an entity) and a measure, and the candidate
    is not that series: each entity's line over the grid."""
    grids = [n for n in roles.of("grid") if roles[n].keys_with is not None]
    if not grids or not roles.of("measure", "weight"):
        return 0.0
    split = [s for s in (a.color, a.facet) if s is not None]
    return float(not _ys(a) or not series_over(roles, a.x, split))


def _entities_not_averaged(a: Candidate, roles: Roles) -> float:
    """A grid that keys the rows with an entity of more values than lines
    (``roles.panel_over``) and a measure, and the candidate is not the line of their mean
    over it (split by nothing, or by a factor holding each entity in one value)."""
    grids = [n for n in roles.of("grid") if panel_over(roles, n, []) is not None]
    if not grids or not roles.of("measure", "weight"):
        return 0.0
    split = [a.color, a.facet]
    return float(a.chart != "mean lines" or panel_over(roles, a.x, split) is None)


def _no_series(a: Candidate, roles: Roles) -> float:
    """Series lines whose x and color are not a series (each value one line over x), or mean
    lines whose x indexes no series of more entities than lines (``roles.panel_over``) nor is
    a dose of ``FEW_VALUES`` levels at most (more levels read as an axis: a scatter's), whose
    color does not hold each entity in one value, or whose measure is such a factor."""
    if a.chart == "mean lines":
        entity = panel_over(roles, a.x, [a.color, a.facet])
        if entity is None:  # (a dose's few levels: the mean per level, a dose-response)
            levels = roles.get(a.x or "")
            few = levels is not None and levels.distinct <= FEW_VALUES  # (more read as an axis)
            return float(not (levels_over(roles, a.x) and few) or a.facet is not None)
        # (a factor each entity sits in — its diet — is the same all along: no measure)
        return float(bool(set(_ys(a)) & set(roles[entity].within)))
    if a.chart != "series lines":
        return 0.0
    return float(not series_over(roles, a.x, [a.color]))


def _means_before_pairs(a: Candidate, roles: Roles) -> float:
    """The mean line of a measure over a dose's few levels (``roles.levels_over``) while two
    measures or more are there to pair in a scatter: a level is one column among several, the
    scatter of two measures reads the rows themselves."""
    if a.chart != "mean lines" or panel_over(roles, a.x, [a.color, a.facet]) is not None:
        return 0.0
    return float(len(roles.of("measure")) >= 2)


def _index_as_measure(a: Candidate, roles: Roles) -> float:
    """Bars whose measure is a grid that keys the rows with an entity (a panel's years or
    days: what each entity is measured over, never a measure to average or sum). A whole
    sequence that keys the rows alone may be either, so it is no breach (a rank, 1 to 6)."""
    if a.chart not in _BARS:
        return 0.0
    return float(
        any((r := roles.get(y)) is not None and r.role == "grid" and bool(r.keys_with)
            for y in _ys(a))
    )  # fmt: skip


def _time_unused(a: Candidate, roles: Roles) -> float:
    """A time that keys the rows (a series) and a measure, and the chart is not over time."""
    series = [t for t in roles.of("time") if roles[t].keys_with is not None]
    if not series or not roles.of("measure", "weight", "grid"):
        return 0.0  # (rows of many per time point are no series to follow)
    return float(roles.role(a.x) != "time")


def _time_unkeyed(a: Candidate, roles: Roles) -> float:
    """A line over a time that keys no row (many rows a time point, no entity to tell them
    apart): a mean per time point, where a scatter of the rows shows them."""
    if a.chart not in _LINES:
        return 0.0
    r = roles.get(a.x or "")
    return float(r is not None and r.role == "time" and r.keys_with is None)


def _measures_unpaired(a: Candidate, roles: Roles) -> float:
    """Two measures or more, and a scatter of which one axis is none (a grid of levels on
    x beside a measure on y is a strip, not how two measures move together)."""
    if a.chart != "scatter" or len(roles.of("measure")) < 2 or roles.of("coordinate"):
        return 0.0
    if series_over(roles, a.x, [s for s in (a.color, a.facet) if s is not None]):
        return 0.0  # a series over its grid, drawn as a line
    return float(any(roles.role(n) != "measure" for n in (a.x, *_ys(a))))


def _no_values(a: Candidate, roles: Roles) -> float:
    """A number bound that holds no finite value in any row: nothing to draw of it."""
    return float(any((r := roles.get(n or "")) is not None and r.empty for n in (a.x, *_ys(a))))


def _one_value(a: Candidate, roles: Roles) -> float:
    """A number bound that holds one value in every row that holds one (a pixel that is
    always 0): its axis, or its bars, show nothing varying."""
    return float(
        sum(
            (r := roles.get(n or "")) is not None and r.numbers.values > 0
            and r.numbers.distinct == 1
            for n in (a.x, *_ys(a))
        )
    )  # fmt: skip


CRITERIA: Final[tuple[Criterion, ...]] = (
    Criterion("kind", "", 1.0, _kind),
    Criterion("holds-values", "a number that holds no value is not drawn", 10.0, _no_values),
    Criterion(
        "varies", "a number that holds one value throughout is not drawn", 3.0, _one_value
    ),
    Criterion("not-a-series", "", 6.0, _no_series),
    Criterion("time-on-x", "a measure over time is drawn over its time", 2.0, _time_unused, _LINES),
    Criterion(
        "time-keys-rows",
        "a line follows a time that keys the rows (alone, or with one series each)",
        1.0,
        _time_unkeyed,
        _POINTS,
    ),
    Criterion(
        "measure-on-y",
        "a measure is y, what it is measured over x",
        3.0,
        _measure_on_y,
        _POINTS,
    ),
    Criterion(
        "grid-on-x", "a grid the rows are measured over is x, not y", 2.0, _grid_on_x, _POINTS
    ),
    Criterion(
        "response-on-y",
        "{y} is named as what a model predicts: it is y",
        1.0,
        _response_off_y,
        _POINTS,
    ),
    Criterion(
        "few-values-no-axis",
        "a number of 3 values or fewer is no continuous axis",
        3.0,
        _few_values,
        _POINTS,
    ),
    Criterion(
        "map-orientation",
        "longitude is x and latitude y, as on a map",
        4.0,
        _map_orientation,
        _POINTS,
    ),
    Criterion(
        "coordinates-together",
        "latitude and longitude are drawn together",
        2.0,
        _coordinates_apart,
        _POINTS,
    ),
    Criterion("map-first", "latitude and longitude are drawn as a map", 2.5, _map_missed, _POINTS),
    Criterion(
        "series-drawn",
        "a series over a grid is drawn as a line, one per entity",
        2.0,
        _series_missed,
        _POINTS,
    ),
    Criterion(
        "entities-averaged",
        "the series of more entities than lines are drawn as the line of their mean over the "
        "grid",
        2.0,
        _entities_not_averaged,
        frozenset({"mean lines"}),
    ),
    Criterion(
        "pairs-before-means",
        "two measures are paired in a scatter before one is averaged per level",
        1.0,
        _means_before_pairs,
        _POINTS,
    ),
    Criterion(
        "index-no-measure",
        "a grid the rows are measured over is no measure of bars",
        3.0,
        _index_as_measure,
        _BARS,
    ),
    Criterion(
        "weights-summed",
        "a count over categories that key the rows is summed, never averaged",
        4.0,
        _weight_averaged,
        _BARS,
    ),
    Criterion(
        "measures-averaged",
        "a measure that is no count is averaged, not summed",
        1.0,
        _measure_summed,
        _BARS,
    ),
    Criterion(
        "scatter-of-measures", "a scatter pairs two measures", 1.5, _measures_unpaired, _POINTS
    ),
    Criterion("factors-drawn", "every factor of few values is drawn", 0.5, _factor_left_out, _BARS),
    Criterion(
        "layout-apart",
        "a layout's rows and columns only place its treatments: the treatments are compared",
        1.5,
        _layout_drawn,
    ),
    Criterion(
        "counts-by-category",
        "counts over categories that key the rows are drawn by those categories",
        2.0,
        _cells_scattered,
        _BARS,
    ),
    Criterion(
        "widest-on-x",
        "the factor of most values is laid out along x",
        0.2,
        _x_not_widest,
        _BARS,
    ),
    Criterion(
        "fewest-colored",
        "the factor of fewest values is the color",
        0.3,
        _colors_not_fewest,
        _BARS,
    ),
    Criterion(
        "like-measures-together", "like measures are drawn together", 2.0, _like_apart, _LINES
    ),
    Criterion(
        "named-rows-side-by-side",
        "like measures of a few rows, each named by {x}, are bars side by side",
        1.5,
        _named_like_apart,
        frozenset({"bars"}),
    ),
)
"""The criteria, one record each; ``cost`` weighs them."""


def cost(a: Candidate, roles: Roles) -> tuple[float, tuple[tuple[str, float], ...]]:
    """The candidate's cost, and each criterion it breaks with what that costs."""
    broken = tuple((c.name, c.weight * got) for c in CRITERIA if (got := c.test(a, roles)))
    return sum(w for _, w in broken), broken


def deciding(
    chart: str, held: Collection[str], others: Iterable[Collection[str]]
) -> tuple[Criterion, ...]:
    """The criteria (those with a sentence, about ``chart``) the ``others`` break — each given
    by the names of the criteria it breaks — and the chosen candidate holds (it breaks only
    ``held``): why it ranks above candidates listed before it."""
    out = {name for broken in others for name in broken if name not in held}
    return tuple(c for c in CRITERIA if c.name in out and c.sentence and _speaks(c, chart))


def _speaks(c: Criterion, chart: str) -> bool:
    return c.speaks_of is None or chart in c.speaks_of


_BY_NAME: Final[Mapping[str, Criterion]] = {c.name: c for c in CRITERIA}


def said(criteria: Sequence[Criterion], a: Candidate) -> str:
    """The deciding criteria's sentences for candidate ``a``, as one sentence ("" if none)."""
    words: dict[str, Any] = {"x": a.x, "y": _ys(a)[0] if _ys(a) else None,
                             "color": a.color, "facet": a.facet}  # fmt: skip
    ranked = sorted(criteria, key=lambda c: -c.weight)[:3]
    parts = [c.sentence.format(**words) for c in ranked]
    if not parts:
        return ""
    text = "; ".join(parts)
    return f"Chosen over the others because {text}."


def criteria_table() -> str:
    """The criteria as Markdown, made from ``CRITERIA``: what docs/rules.md holds."""
    lines = ["| criterion | weight | what the reason says when it decided |", "|---|---:|---|"]
    for c in CRITERIA:
        sentence = c.sentence.replace("|", "\\|") or "— (the chart kinds' own costs, below)"
        lines.append(f"| {c.name} | {c.weight:g} | {sentence} |")
    lines += ["", "| chart | cost |", "|---|---:|"]
    lines += [f"| {k} | {v:g} |" for k, v in KIND_COST.items()]
    return "\n".join(lines) + "\n"
