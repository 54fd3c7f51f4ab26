"""What every part of a plan shares: the ``Plan`` it answers, the ``Whole`` a backend's rows
stand for, the limits the rules draw by (``MAX_BAR_CATEGORIES``, ``HISTOGRAM_BINS``,
``COUNT_BARS_UNDER``…), the chart's own fields (``MEASURE``, ``VALUE``, a column's safe field)
and the small readings of values the parts make (missing, a category's sort key). Nothing here
plans: ``chartkit.plan.decide`` does, with the stages it hands ``plan.placement``'s values to.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal

import numpy as np
import pandas as pd

from chartkit.options import (
    DEFAULT_FORMAT,
)
from chartkit.plan import choose
from chartkit.plan.bins import (
    Counts,
)
from chartkit.plan.encode import (
    AxisRefusal,
    Channel,
    ColumnProfile,
    Encoding,
)
from chartkit.plan.facts import Facts
from chartkit.plan.groups import Fetched, Grouped, Said
from chartkit.plan.reduce import (
    ROWS,
)
from chartkit.plan.rules import Alternative
from chartkit.plan.spec import ChannelSpec, ChartSpec, Note, Reduction

MAX_PICKED_COLOR_CATEGORIES = choose.MAX_PICKED_COLOR_CATEGORIES
MAX_BAR_CATEGORIES = 30  # bars beyond this are cut to the top ones, with a note
HORIZONTAL_OVER = 5  # bars turn horizontal past this many categories
HISTOGRAM_BINS = 10
COUNT_BARS_UNDER = 15  # a lone measure with fewer distinct values gets count bars
MEASURE: Final = "measure"  # the field naming the measure when several are drawn
VALUE: Final = "value"  # … and the field holding their values
_RESERVED = {"count", MEASURE, VALUE, ROWS}


@dataclass(frozen=True)
class Plan:
    """What to draw, from what data, and why — everything ``charts.py`` needs, and nothing UI.

    ``data`` is the chart's own frame (renamed fields, offenders left out, aggregated or binned
    as the encodings say); None for a table. ``order`` is the category axis's order (the
    ``sort`` the plan applied); ``alternatives`` are the other charts the declared types allow.
    """

    kind: Literal["chart", "table"]
    reason: str
    mark: str | None = None
    encodings: Mapping[str, Encoding] = field(default_factory=dict)
    data: pd.DataFrame | None = field(default=None, repr=False)
    refusals: tuple[AxisRefusal, ...] = ()
    notes: tuple[str, ...] = ()
    horizontal: bool = False
    title: str | None = None
    order: tuple[Any, ...] | None = None
    scale: str = "linear"
    log_axes: tuple[str, ...] = ()  # the channels drawn on a log scale ("x", "y"), when chosen
    format: str = DEFAULT_FORMAT
    time_unit: str | None = None
    alternatives: tuple[Alternative, ...] = ()
    left_out: int = 0
    facts: tuple[Note, ...] = ()
    reduction: Reduction = field(default_factory=Reduction)
    drawn: Mapping[str, Any] = field(default_factory=dict)  # the picks of the chart drawn
    # the rows a backend fetched that the chart draws (``Whole.rows``), under the columns'
    # own names; None when it drew counts or groups, or rows it held itself
    fetched: pd.DataFrame | None = field(default=None, repr=False)

    @property
    def spec(self) -> ChartSpec:
        """The plan as values: mark, channels, the reduction and the structured notes."""
        channels = tuple(
            ChannelSpec(c, e.column, e.type, e.aggregate, e.bin, e.measures)
            for c, e in self.encodings.items()
        )
        return ChartSpec(
            self.kind, self.reason, self.mark, channels, self.reduction, self.facts,
            self.horizontal,
        )  # fmt: skip


@dataclass(frozen=True, slots=True)
class Whole:
    """What a frame handed to ``plan_view`` stands for when the rows stay in a backend (the
    engine path: only counts and groups leave the engine):

    - ``counted``: the counts of the rows a histogram or a heatmap of the numbers it is
      given places, where they live (``chartkit.plan.bins.Counts``): the frame holds none
      of those rows (it has the columns only), and the plan's bins, cells and count bars are
      the backend's counts;
    - ``grouped``: the facts and groups of the rows a line or bars place, where they live
      (``chartkit.plan.groups.Grouped``): the frame holds none of those rows, and the line's
      bucket, series and label, the bars' ranking and top, every aggregate and the rows
      behind each mark are the backend's counts, read by the rules memory's rows follow;
    - ``facts``: the backend that holds every row (``plan.facts.Facts``), asked the counts
      choosing reads (a scatter's groups' x positions) instead of the frame;
    - ``rows``: the rows a chart that draws each row places (a scatter's points, a label's
      points), fetched from the backend when its counts show they fit ``max_points``
      (``chartkit.plan.groups.Fetched``): they are planned as memory plans its rows;
    - ``said``: the notes of the rows a chart places, counted by the backend
      (``chartkit.plan.groups.Said``: each used column's offenders left out, a measure's
      infinite numbers, the rows holding no value), where memory notes them as it cleans
      its rows: the plan says them, and its table says them when every row is left out.

    The plan says these counts, so no sentence of it is rewritten afterwards."""

    counted: Counts | None = None
    grouped: Grouped | None = None
    facts: Facts | None = None
    rows: Fetched | None = None
    said: Said | None = None


def _said(q: ColumnProfile, full: bool = False) -> str:
    """How a column's type is known: ``declared number``, or ``undeclared, inferred …``
    (``full``: after the column's name)."""
    word = f"declared {q.declared}" if q.declared else f"undeclared, inferred {q.type}"
    return f"{q.name} is {word}" if full else word


def _count(q: ColumnProfile) -> Encoding:
    """The rows counted per value (or bin) of ``q``: drawn quantitative, computed in pandas."""
    return Encoding(
        q.name,
        "quantitative",
        q.source,
        aggregate="count",
        field="count",
        title="rows",
        declared=q.declared,
    )


def _axes(horizontal: bool) -> tuple[Channel, Channel]:
    """(category channel, value channel) of a bar chart."""
    return ("y", "x") if horizontal else ("x", "y")


def _safe_field(name: str, taken: set[str]) -> str:
    """A field name Vega-Lite reads literally: no ``.``, ``[``, ``]``, ``:``, quotes or ``\\``."""
    base = re.sub(r"[^0-9A-Za-z_]+", "_", name).strip("_") or "column"
    out, n = base, 1
    while out in taken or out in _RESERVED or out.endswith("_end"):
        n += 1
        out = f"{base}_{n}"
    return out


def _stacked_names(
    fields: pd.Series, stacked: list[str], names: Mapping[str, str], n: int
) -> pd.Series:
    """``fields.map(names)`` for the measure column ``melt`` made: it stacks the ``stacked``
    columns one after another, ``n`` rows each, so each name is mapped once and repeated rather
    than looked up row by row (the row-by-row map when the column is not laid out so)."""
    if n and len(fields) == n * len(stacked) and fields.iloc[::n].tolist() == stacked:
        named = pd.Series(stacked, name=fields.name).map(names).repeat(n)
        return named.set_axis(fields.index)
    return fields.map(names)


def _laid_out(
    data: pd.DataFrame, fx: str, fy: str, aggregated: bool, keys: Sequence[str] = ()
) -> pd.DataFrame:
    """A backend's groups in the columns' order of the rows reduced in memory: aggregated,
    the keys then the value and ``ROWS`` (``reduce_frame``'s); not, the rows as cleaned —
    one measure beside x, before the series; several melted, ``MEASURE`` and ``VALUE`` last
    — and no ``ROWS`` (each mark is one row)."""
    if aggregated:
        if MEASURE in data.columns:
            return data[[*keys, VALUE, ROWS]]
        return data
    data = data.drop(columns=[ROWS], errors="ignore")
    if MEASURE in data.columns:
        return data[[c for c in data.columns if c not in (MEASURE, VALUE)] + [MEASURE, VALUE]]
    return data[[fx, fy, *(c for c in data.columns if c not in (fx, fy))]]


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float | np.integer | np.floating) and not isinstance(
        value,
        bool | np.bool_ | np.timedelta64,  # numpy calls a timedelta an integer
    )


def _label(value: Any) -> Any:
    return value if isinstance(value, str | bool) else str(value)


_PLAIN: Final = (str, int, float, bool)
_TEXT_OR_NONE: Final = frozenset({str, type(None)})


_HEAD: Final = 1024  # rows _varies looks at before the whole column


def _varies(series: pd.Series) -> bool | None:
    """Whether ``groupby(dropna=False)`` surely finds two groups in a column (True), surely
    one (False), or a quick look cannot tell (None: objects other than text and numbers)."""
    if len(series) > _HEAD and not pd.api.types.is_object_dtype(series.dtype):
        head = series.iloc[:_HEAD]  # two values in the first rows already make two groups
        if not head.isna().any():
            try:
                if bool(head.ne(head.iloc[0]).to_numpy(dtype=bool).any()):
                    return True
            except (TypeError, ValueError):
                pass
    missing = series.isna().to_numpy()
    if missing.all():
        return False
    if missing.any():
        return True  # no value is a group of its own, beside the values
    first = series.iloc[0]
    try:
        differs = series.ne(first).to_numpy(dtype=bool)
    except (TypeError, ValueError):
        return None
    if not pd.api.types.is_object_dtype(series.dtype):
        return bool(differs.any())
    if not differs.any():
        return None  # equal objects of different types: let groupby decide
    other = series.iloc[int(differs.argmax())]
    return True if type(first) in _PLAIN and type(other) in _PLAIN else None


def _y_pick(yps: list[ColumnProfile]) -> str | tuple[str, ...] | None:
    if not yps:
        return None
    return yps[0].name if len(yps) == 1 else tuple(m.name for m in yps)


def _show_sort(sort: str | tuple[Any, ...]) -> str:
    return repr(sort) if isinstance(sort, str) else repr(list(sort))


def _missing(value: Any) -> bool:
    return (
        value is None
        or value is pd.NA  # a nullable dtype's gap (boolean, Int64, string)
        or value is pd.NaT
        or (isinstance(value, float) and np.isnan(value))
    )


def _category_key(value: Any) -> tuple[int, Any]:
    """Booleans read false, true; numbers by size; text as written."""
    if isinstance(value, bool | np.bool_):
        return (0, bool(value))
    if isinstance(value, int | float | np.integer | np.floating):
        return (1, float(value))
    return (2, str(value))


def _facts(notes: list[Note]) -> tuple[Note, ...]:
    """The notes, each sentence once (the first note that says it)."""
    seen: set[str] = set()
    out = []
    for n in notes:
        if n.sentence not in seen:
            seen.add(n.sentence)
            out.append(n)
    return tuple(out)
