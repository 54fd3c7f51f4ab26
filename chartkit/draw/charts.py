"""``Plan`` → ``altair.Chart``, and the chart's static exports. The only module building Altair.

The plan's data is already aggregated or binned and uses safe field names; it is embedded
inline as JSON records (dates as ISO wall-clock strings), so Altair's row limit never applies
and a spec never carries more than the plan's rows.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import html
import json
import math
import operator
import pickle
import sys
from collections import deque
from collections.abc import Sequence
from functools import cache, lru_cache
from itertools import repeat
from typing import Any, Final, TypeVar

import altair as alt
import numpy as np
import pandas as pd
import vl_convert

from chartkit._safe import cap_text, renderable, script_json, visible
from chartkit.draw.caption import caption_title
from chartkit.errors import ChartkitError
from chartkit.options import DEFAULT_FORMAT
from chartkit.plan.choose import CHART_WIDTH, FACET_WIDTH  # the widths the plan buckets for
from chartkit.plan.decide import MEASURE, ROWS, Plan
from chartkit.plan.encode import Encoding

__all__ = [
    "CHART_HEIGHT",
    "CHART_WIDTH",
    "DESCRIPTION_MAX_CHARS",
    "FIT_SPAN",
    "LABEL_LIMIT",
    "PALETTE",
    "SELECTED",
    "TITLE_MAX_CHARS",
    "TOOLTIP_TITLE_MAX_CHARS",
    "UNSELECTED_OPACITY",
    "build_chart",
    "chart_spec",
    "drawn_mark",
    "json_records",
    "spec_to_html",
    "spec_to_png",
    "spec_to_svg",
]

CHART_HEIGHT = 320
LABEL_LIMIT = 160  # pixels a category label may take before it is cut with an ellipsis
TITLE_MAX_CHARS: Final = 120
"""Characters of an axis, legend, header or chart title before it is cut with ``…``: a title is
laid out as one text (Vega's renderer is quadratic in its length); the full column name stays
in the data (each row's field), as a literal."""
TOOLTIP_TITLE_MAX_CHARS: Final = 1000
"""Characters of a tooltip's title: longer than an axis's, as a tooltip is where a long name is
read, but bounded, as each mark's accessible label repeats it."""
DESCRIPTION_MAX_CHARS: Final = 1000
"""Characters of the chart's description (the plan's reason) written into the spec."""
AXIS_VALUES_AT_MOST: Final = 12
"""A number's x axis of points or lines at most this many whole values (groups 1 and 2, years
1999 and 2008) ticks each value, and none between (never a length: bars keep their ticks)."""
MIN_LABEL_SLOT = 60  # pixels per category under which x labels turn 45° (when too long)
CHAR_WIDTH = 7  # pixels a label character takes, roughly, at Vega's default 10px font
FACET_HEIGHT = 140
FACET_COLUMNS = 3
FACET_STACKED = 4  # small charts of at most this many panels stand two by two (a phone)
FACET_FEW_COLUMNS = 2
FACET_FEW_WIDTH = 120
FACET_FEW_HEIGHT = 80
PANEL_HEIGHT = 120  # pixels of each measure's panel when measures get an axis each
MAGNITUDE_RATIO: Final = 10.0
"""Measures whose largest drawn values differ by more than this factor get a panel each, with
its own y scale: on one shared axis the smaller measure is a flat line at zero."""
PLAIN_BELOW: Final = 10_000
"""Whole numbers all below this in magnitude (years 1565–1821, counts of cylinders) are printed
as digits without a thousands separator; any other values get one (12,000; 1,234.5)."""
_LENGTH_MARKS: Final = frozenset({"bar", "area"})
"""Marks whose measure is a length from zero: their measure axis keeps zero."""
FIT_SPAN: Final = 0.5
"""A line's measure axis spans its values instead of starting at zero when they are all of one
sign and their span is under this share of their largest magnitude (CO2 at 313–366 ppm: from
zero the line would fill a seventh of the chart's height and look flat)."""
SELECTED: Final = "chartkit_mark"
"""The chart's point selection: a click on a mark selects it (by every field of its record, so
the datum names the mark exactly), and the marks not selected fade to ``UNSELECTED_OPACITY``.
Every host that draws the spec (the explorer, the widget, the MCP Apps page) shows it."""
UNSELECTED_OPACITY: Final = 0.3
_BREAK_AT_MISSING: Final = "break-paths-show-domains"
"""A line's ``invalid`` mode: its path breaks at a row of no value (the plan marks a regular
series' missing times so, ``chartkit.plan.gaps.broken_at_gaps``) instead of joining the valid
points across the gap, whatever a host's Vega-Lite takes as its default."""
PALETTE: Final = (
    "#1f77b4",  # blue
    "#ff7f0e",  # orange
    "#2ca02c",  # green
    "#d62728",  # red
    "#9467bd",  # purple
    "#8c564b",  # brown
    "#e377c2",  # pink
    "#7f7f7f",  # grey
    "#bcbd22",  # olive
    "#17becf",  # cyan
)
"""The categorical palette (d3's category10): ten series, ten hue families, set in every spec."""
_TIME_FORMATS: Final = {
    "year": "%Y",
    "quarter": "%b %Y",
    "month": "%b %Y",
    "week": "%Y-%m-%d",
    "day": "%Y-%m-%d",
}

_Made = TypeVar("_Made", alt.Axis, alt.Scale)

_CHANNELS: dict[str, Any] = {"x": alt.X, "y": alt.Y, "color": alt.Color, "size": alt.Size}
_SECOND: dict[str, Any] = {"x": alt.X2, "y": alt.Y2}


def build_chart(
    plan: Plan, *, zero: bool | None = None, caption: Sequence[str] = ()
) -> alt.Chart | alt.FacetChart:
    """The Altair chart for a plan of kind ``"chart"``.

    Every mark has a tooltip (each encoded column, formatted; on an aggregated mark also the
    count of rows behind it); categorical colors come from ``PALETTE``, written into the spec so
    a host theme cannot replace them; the spec's ``description`` is the plan's reason. A mark
    other than a line is selected by a click (``SELECTED``), the others faded.

    ``zero`` forces the measure axis of a line or a scatter to start at zero (True) or to span
    its values (False); None decides by the values (``FIT_SPAN``). Bars keep zero whatever it
    says: a bar's length is its value. ``caption`` (``chartkit.draw.caption.caption_lines``)
    is drawn as the title's subtitle, so every host of the spec shows it.
    """
    if plan.kind != "chart" or plan.data is None or plan.mark is None:
        raise ChartkitError(f"there is no chart to build: {plan.reason}")
    records, digest = json_records(plan.data)
    # a dict: no per-row validation, no row limit; named by its digest, for chart_spec
    chart = alt.Chart(_Rows(values=records, digest=digest))
    mark_options: dict[str, Any] = {}
    colored = "color" in plan.encodings
    if not colored:
        mark_options["color"] = PALETTE[0]  # set, so a host theme's own color is not used
    mark = drawn_mark(plan)
    if mark == "line":
        mark_options["point"] = len(records) <= 200
        mark_options["invalid"] = _BREAK_AT_MISSING
    if mark != plan.mark:
        mark_options["filled"] = True  # dots in place of bars on a log scale
    chart = getattr(chart, f"mark_{mark}")(**mark_options)
    channels: dict[str, Any] = {}
    facet: Encoding | None = None
    panels = _panel_per_measure(plan)
    for channel, enc in plan.encodings.items():
        if channel == "facet":
            facet = enc
            continue
        if panels is not None and _over_palette(panels):  # a panel each, named by its header:
            if channel == "color":  # (ten hues cannot tell more apart)
                continue
            if channel == _measure_channel(plan):  # (its title lists every measure: left out)
                enc = dataclasses.replace(enc, title="")
        channels[channel] = _channel(channel, enc, plan, zero)
        if enc.bin and channel in _SECOND:
            channels[f"{channel}2"] = _SECOND[channel](field=f"{enc.field}_end")
        if channel == "color" and plan.mark == "bar" and _side_by_side(plan, enc):
            offset = alt.YOffset if plan.horizontal else alt.XOffset  # dots too, on a log
            channels["yOffset" if plan.horizontal else "xOffset"] = offset(
                field=enc.field, type="nominal",
                sort=_color_order(enc, plan),  # (the legend's order)
            )  # fmt: skip
    channels["tooltip"] = _tooltips(plan, set(plan.data.columns))
    if mark != "line":  # (a line is one path per series: it is brushed, not clicked)
        selected = alt.selection_point(name=SELECTED, fields=list(plan.data.columns))
        channels["opacity"] = alt.condition(selected, alt.value(1), alt.value(UNSELECTED_OPACITY))
        chart = chart.add_params(selected)
    chart = chart.encode(**channels)
    titled = _titled(plan, caption)
    if panels is not None and facet is None:
        return _panelled(chart, panels, plan, titled)
    if facet is not None:
        # a few small charts stand two by two, smaller: they fit a phone's width and its first
        # screen
        few = plan.data is not None and facet.field in plan.data.columns and (
            plan.data[facet.field].nunique(dropna=False) <= FACET_STACKED
        )  # fmt: skip
        cell = chart.properties(
            width=FACET_FEW_WIDTH if few else FACET_WIDTH,
            height=FACET_FEW_HEIGHT if few else FACET_HEIGHT,
        )
        faceted: alt.FacetChart = cell.facet(
            facet=alt.Facet(field=facet.field, type="nominal", title=_title(facet.title)),
            columns=FACET_FEW_COLUMNS if few else FACET_COLUMNS,
        ).properties(description=_described(plan.reason), **titled)
        return faceted
    properties: dict[str, Any] = {"width": CHART_WIDTH, "description": _described(plan.reason)}
    if not plan.horizontal:
        properties["height"] = CHART_HEIGHT  # fixed, so long category labels cannot squash it
    built: alt.Chart = chart.properties(**properties, **titled)
    return built


def _titled(plan: Plan, caption: Sequence[str]) -> dict[str, Any]:
    """The chart's ``title`` property: the plan's title, the caption as its subtitle."""
    title = caption_title(_title(plan.title) if plan.title else None, caption)
    return {"title": title} if title else {}


def _side_by_side(plan: Plan, color: Encoding) -> bool:
    """Whether bars colored by ``color`` stand side by side (an offset per color, as
    Vega-Lite 5 groups bars): several measures, or a mean (or one row's value) per factor —
    values that add up to nothing. Totals and counts stack: a stack's height is their sum."""
    if color.measures:
        return True
    measured = plan.encodings.get("x" if plan.horizontal else "y")
    return measured is None or measured.aggregate not in ("sum", "count")


def drawn_mark(plan: Plan) -> str | None:
    """The mark drawn for a plan: its own, except that bars (or areas) on a log scale are dots.

    A log axis has no zero for a length to start from: a bar would start at an arbitrary power
    of ten, and the smallest bars would have (almost) no length. A dot sits at its value.
    """
    if plan.scale == "log" and plan.mark in _LENGTH_MARKS:
        return "point"
    return plan.mark


def _over_palette(series: Encoding) -> bool:
    """More measures than ``PALETTE`` has hues: each is drawn in a panel of its own."""
    return series.field == MEASURE and len(series.measures) > len(PALETTE)


def _panel_per_measure(plan: Plan) -> Encoding | None:
    """The series-per-measure encoding when its measures' magnitudes differ over
    ``MAGNITUDE_RATIO`` (largest drawn absolute value of each), or when there are more of
    them than ``PALETTE`` has hues: then each gets a panel. On a log scale measures of one
    palette share the axis: there each power of ten has the same room."""
    series = plan.encodings.get("color")
    if series is None or len(series.measures) < 2 or plan.data is None:
        return None
    if _over_palette(series) or _magnitudes_differ(plan, series):
        return series
    return None


def _magnitudes_differ(plan: Plan, series: Encoding) -> bool:
    """Whether the measures' largest drawn absolute values differ over ``MAGNITUDE_RATIO``
    (never on a log scale, where each power of ten has the same room)."""
    value = plan.encodings.get(_measure_channel(plan))
    if value is None or plan.data is None or plan.scale == "log":
        return False
    if series.field not in plan.data.columns or value.field not in plan.data.columns:
        return False
    largest = plan.data[value.field].abs().groupby(plan.data[series.field]).max()
    sizes = [float(v) for v in largest if math.isfinite(v) and v > 0]
    return len(sizes) >= 2 and max(sizes) > MAGNITUDE_RATIO * min(sizes)


def _panelled(
    chart: alt.Chart, series: Encoding, plan: Plan, titled: dict[str, Any]
) -> alt.FacetChart:
    """One panel per measure, each with its own measure scale when their magnitudes differ:
    one above the other, or small multiples of ``FACET_COLUMNS`` when there are more measures
    than ``PALETTE`` has hues (their y shared unless their magnitudes differ)."""
    many = _over_palette(series)
    size = {"width": FACET_WIDTH, "height": FACET_HEIGHT} if many else {
        "width": CHART_WIDTH, "height": PANEL_HEIGHT
    }  # fmt: skip
    faceted = chart.properties(**size).facet(
        facet=alt.Facet(field=series.field, type="nominal", title=None, sort=list(series.measures)),
        columns=FACET_COLUMNS if many else 1,
    )
    if not many or _magnitudes_differ(plan, series):
        faceted = faceted.resolve_scale(x="independent") if plan.horizontal else (
            faceted.resolve_scale(y="independent")
        )  # fmt: skip
    panelled: alt.FacetChart = faceted.properties(description=_described(plan.reason), **titled)
    return panelled


def _axis_format(channel: str, enc: Encoding, plan: Plan) -> str:
    """A number axis's d3 format: on the measure axis the one asked for; else the ticks' own
    precision (never 7e+3), with thousands separators unless the values are whole and all
    below ``PLAIN_BELOW``, or calendar years (``~f``: years print 1565, and quarters as
    fractional years tick 1948, not 1,948; else ``,~f``: 12,000, 0.5)."""
    asked = plan.format != DEFAULT_FORMAT and enc.aggregate != "count"
    if asked and channel == _measure_channel(plan) and not enc.bin:
        return plan.format
    return "~f" if enc.calendar or _plain_digits(enc, plan) else ",~f"


def _plain_digits(enc: Encoding, plan: Plan) -> bool:
    """Whether every drawn value of the encoding (both bin edges) is whole and below
    ``PLAIN_BELOW`` in magnitude, as counted on the plan's data."""
    if plan.data is None:
        return False
    fields = [f for f in (enc.field, f"{enc.field}_end" if enc.bin else "") if f]
    seen = False
    for name in fields:
        if name not in plan.data.columns:
            continue
        numbers = _finite_numbers(plan.data[name])
        if not len(numbers):
            continue
        if (np.abs(numbers) >= PLAIN_BELOW).any() or (np.mod(numbers, 1) != 0).any():
            return False
        seen = True
    return seen


def _whole_values(enc: Encoding, plan: Plan) -> list[int] | None:
    """The distinct values of the encoding, sorted, when every drawn value is whole and there
    are at most ``AXIS_VALUES_AT_MOST`` of them (the values themselves are not needed past
    that: an empty list), else None: its axis (a linear one) ticks nothing between two whole
    values."""
    if plan.data is None or enc.bin or enc.field not in plan.data.columns:
        return None
    numbers = _finite_numbers(plan.data[enc.field])
    if not len(numbers) or bool((np.mod(numbers, 1) != 0).any()):
        return None
    if numbers.max() > 2**53 or numbers.min() < -(2**53):
        return None  # (past a float's whole numbers every value is whole: no ticks to set)
    distinct = np.unique(numbers)
    if len(distinct) > AXIS_VALUES_AT_MOST:
        return []
    return [int(v) for v in distinct]


def _finite_numbers(column: pd.Series) -> Any:
    """A column's finite numbers as a numpy array: a numpy number column as it is (in numpy,
    as pandas' own ops compute it), any other through ``pd.to_numeric`` (what is no number
    left out)."""
    kind = column.dtype.kind if isinstance(column.dtype, np.dtype) else None
    if kind in ("i", "u"):
        return column.to_numpy()
    if kind == "f":
        numbers = column.to_numpy()
        return numbers[np.isfinite(numbers)]
    values = pd.to_numeric(column, errors="coerce").dropna().to_numpy(dtype=float)
    return values[np.isfinite(values)]


def _measure_channel(plan: Plan) -> str:
    return "x" if plan.horizontal else "y"


def _time_format(plan: Plan) -> str:
    return _TIME_FORMATS.get(plan.time_unit or "", "%Y-%m-%d %H:%M")


def _tooltips(plan: Plan, columns: set[str]) -> list[alt.Tooltip]:
    """Every encoded column of the mark, formatted; an aggregated mark adds its row count."""
    tips: list[alt.Tooltip] = []
    for enc in plan.encodings.values():
        title = _title(enc.title, TOOLTIP_TITLE_MAX_CHARS)
        options: dict[str, Any] = {"field": enc.field, "type": enc.type, "title": title}
        if enc.type == "quantitative":
            options["format"] = "," if enc.aggregate == "count" else plan.format
            if options["format"] == DEFAULT_FORMAT and _plain_digits(enc, plan):
                options["format"] = "d"  # whole and below PLAIN_BELOW: 1565, not 1,565
            elif enc.calendar and not enc.bin:  # (a format asked is the measure's, not a year's)
                options["format"] = "~f"  # a quarter as a fractional year: 1947.25
        elif enc.type == "temporal":
            options["format"] = _time_format(plan)
        if enc.bin:
            options["title"] = f"{title} from"
            tips.append(alt.Tooltip(**options))
            options = {**options, "field": f"{enc.field}_end", "title": f"{title} to"}
        tips.append(alt.Tooltip(**options))
    if ROWS in columns:
        tips.append(alt.Tooltip(field=ROWS, type="quantitative", title="rows", format=","))
    return tips


def _title(text: str, limit: int = TITLE_MAX_CHARS) -> str:
    """A title cut at ``limit`` characters with ``…`` (see ``TITLE_MAX_CHARS``)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _described(text: str) -> str:
    """The chart's description (its accessible name's long form), cut at
    ``DESCRIPTION_MAX_CHARS`` with ``…``: it is laid out as text too."""
    if len(text) <= DESCRIPTION_MAX_CHARS:
        return text
    return text[: DESCRIPTION_MAX_CHARS - 1] + "…"


def _channel(channel: str, enc: Encoding, plan: Plan, zero: bool | None = None) -> Any:
    options: dict[str, Any] = {"field": enc.field, "type": enc.type, "title": _title(enc.title)}
    if enc.bin:
        options["bin"] = "binned"
    category = enc.type == "nominal" and channel in ("x", "y")
    if category:
        options["axis"] = _category_axis(channel, plan)
    if category and plan.order is not None and None in plan.order:
        # the plan's order holding the missing category where it ranks: a sort array holds
        # no null, a scale's domain does
        options["scale"] = alt.Scale(domain=list(plan.order))
    elif category and plan.order is not None:
        options["sort"] = list(plan.order)  # the plan's order: by the measure, or as asked
    elif plan.horizontal and channel == "y" and enc.type == "nominal":
        options["sort"] = "-x"  # the longest bar on top
    elif plan.mark == "bar" and enc.type == "nominal":
        options["sort"] = None  # keep the plan's order
    if enc.type == "temporal" and plan.time_unit is not None:
        interval = plan.time_unit if plan.time_unit != "quarter" else "month"
        ticks = {"interval": interval, "step": 3 if plan.time_unit == "quarter" else 1}
        options["axis"] = alt.Axis(format=_time_format(plan), tickCount=ticks)
    if enc.type == "quantitative" and channel in ("x", "y"):
        logged = (channel in plan.log_axes) if plan.log_axes else (
            plan.scale == "log" and channel == _measure_channel(plan) and not enc.bin
        )  # fmt: skip
        axis: dict[str, str | int] = {"format": _axis_format(channel, enc, plan)}
        whole = None if logged else _whole_values(enc, plan)
        if whole is not None:
            axis["tickMinStep"] = 1  # (counts, years: no tick between two whole values)
        options["axis"] = _made(alt.Axis, **axis)
        placed_at = channel == "x" and enc.aggregate is None and plan.mark != "bar"
        if whole is not None and placed_at and 2 <= len(whole) <= AXIS_VALUES_AT_MOST:
            # (groups 1 and 2, cylinders 4, 6 and 8: a tick at each, Vega's own min step
            # still ticks 1.5 between two)
            options["axis"] = options["axis"].copy(deep=False)
            options["axis"].values = whole
        if logged:
            options["scale"] = _made(alt.Scale, type="log")
        elif not enc.bin and not _keeps_zero(channel, plan, zero):
            options["scale"] = _made(alt.Scale, zero=False)
    if channel == "color" and enc.aggregate == "count":
        options["scale"] = _made(alt.Scale, scheme="blues")
    elif channel == "color" and enc.type == "nominal":
        options["scale"] = _palette_scale().copy(deep=True)
        order = _color_order(enc, plan)
        if order is not alt.Undefined:
            options["sort"] = order
    return _CHANNELS[channel](**options)


def _made(kind: type[_Made], **options: str | int) -> _Made:
    """``kind(**options)``, an Altair axis or scale of text or whole-number options: a copy of
    the one made (and so validated by Altair) the first time these options were asked. Altair
    validates each such object as it is made (a tenth of a millisecond; a copy, a fortieth).
    A long text (a caller's format) is not kept: that object is made afresh."""
    if any(isinstance(v, str) and len(v) > _KEPT_TEXT for v in options.values()):
        fresh: _Made = getattr(alt, kind.__name__)(**options)
        return fresh
    key = tuple((k, type(v), v) for k, v in sorted(options.items()))
    made: _Made = _first_made(kind.__name__, key)
    copied: _Made = made.copy(deep=True)
    return copied


_KEPT_TEXT: Final = 100  # characters of an option text ``_made`` keeps its object for


@lru_cache(maxsize=256)
def _first_made(kind: str, options: tuple[tuple[str, type, str | int], ...]) -> Any:
    return getattr(alt, kind)(**{name: value for name, _, value in options})


@cache
def _palette_scale() -> alt.Scale:
    """The nominal color scale of ``PALETTE``, made once; each chart takes a copy."""
    return alt.Scale(range=list(PALETTE))


def _color_order(enc: Encoding, plan: Plan) -> Any:
    """The order of a nominal color's values: the measures as listed, a number's few levels
    ascending, bars' in the plan's data order, else Vega-Lite's own."""
    if enc.measures:
        return list(enc.measures)
    if enc.declared == "number":
        return "ascending"
    return None if plan.mark == "bar" else alt.Undefined


def _keeps_zero(channel: str, plan: Plan, zero: bool | None) -> bool:
    """Whether a number axis starts at zero. Only a measure axis may: always a bar's or an
    area's (a length); a line's or a scatter's as ``zero`` forces it; else a line's unless its
    values fit (``_fits``), never a scatter's. A line's number x (years) spans its values."""
    mark = drawn_mark(plan)
    if channel != _measure_channel(plan):
        return False
    if mark in _LENGTH_MARKS:
        return True
    if zero is not None:
        return zero
    if mark == "line":
        return not _fits(plan)
    return mark not in ("point", "circle", "square")


def _fits(plan: Plan) -> bool:
    """Whether a line's drawn values, all of one sign, span less than ``FIT_SPAN`` of their
    largest magnitude: then its axis spans them, as from zero the line would look flat."""
    enc = plan.encodings.get(_measure_channel(plan))
    if enc is None or plan.data is None or enc.field not in plan.data.columns:
        return False
    values = pd.to_numeric(plan.data[enc.field], errors="coerce").to_numpy(dtype=float)
    values = values[np.isfinite(values)]
    if not len(values):
        return False
    lo, hi = float(values.min()), float(values.max())
    largest = max(abs(lo), abs(hi))
    return (lo > 0 or hi < 0) and hi - lo < FIT_SPAN * largest


def _category_axis(channel: str, plan: Plan) -> alt.Axis:
    """Horizontal labels when they fit (cut with an ellipsis, full text in the tooltip)."""
    if channel == "y" or plan.data is None:
        return _made(alt.Axis, labelLimit=LABEL_LIMIT)
    enc = plan.encodings[channel]
    labels = plan.order if plan.order is not None else tuple(plan.data[enc.field].unique())
    n = max(1, len(labels))
    slot = CHART_WIDTH // n
    longest = max((len(str(v)) for v in labels), default=1)
    if slot >= MIN_LABEL_SLOT or longest * CHAR_WIDTH <= slot:
        return _made(alt.Axis, labelAngle=0, labelLimit=max(20, slot - 6))
    return _made(alt.Axis, labelAngle=-45, labelLimit=LABEL_LIMIT)


def _vl_version() -> str:
    major, minor = alt.SCHEMA_VERSION.lstrip("v").split(".")[:2]
    return f"{major}.{minor}"


def json_records(data: pd.DataFrame) -> tuple[list[dict[str, Any]], str]:
    """The rows of ``data`` as JSON records, and a sha256 digest (hex) of their content.

    The records are what ``data.to_json(orient="records", date_format="iso")`` read back
    gives (numbers to pandas' ten decimals, dates as ISO text in milliseconds, missing values
    null; ``_finite_float`` keeps a number rounded past the float limit at the limit), made a
    column at a time: booleans, integers and Arrow text are read as they are, every other
    column through pandas' own JSON writer (the same text it writes of that column within the
    records), so no record is written and parsed whole. The digest covers each column's name
    and values as the records hold them (pickled: a fixed protocol writes the same bytes of
    the same values, 1.5 apart from 1 and true): equal rows get one name wherever they were
    held (Arrow text or an object column, in memory or from an engine), others another.
    """
    names = list(data.columns)
    if not names or len(set(names)) != len(names):
        return _records_by_text(data)
    if not all(type(n) is str and "\0" not in n for n in names):
        return _records_by_text(data)  # (pandas' writer cuts a key at a NUL)
    try:
        digest = hashlib.sha256(str(len(data)).encode())
        columns = []
        for at, name in enumerate(names):
            values = _column_values(data.iloc[:, at])
            columns.append(values)
            # (the values as the records hold them, whatever held them: Arrow text and an
            # object column of the same strings, from memory or an engine, name one dataset)
            for piece in (name.encode(), pickle.dumps(values, protocol=_PICKLED)):
                digest.update(b"%d:" % len(piece) + piece)
    except (UnicodeError, ValueError, OverflowError, TypeError):
        return _records_by_text(data)  # (pandas' writer decides, and says what it refuses)
    records = [{names[0]: v} for v in columns[0]]
    for name, values in zip(names[1:], columns[1:], strict=True):  # each key set in C
        deque(map(operator.setitem, records, repeat(name), values), maxlen=0)
    return records, digest.hexdigest()


_PICKLED: Final = 5
"""The pickle protocol the dataset's digest reads values in: fixed, so a name never moves."""


def _column_values(column: pd.Series) -> list[Any]:
    """One column's values as the JSON records hold them."""
    dtype = column.dtype
    if isinstance(dtype, np.dtype) and dtype.kind in "bi":
        values: list[Any] = column.to_numpy().tolist()
        return values
    array = column.array
    if isinstance(array, pd.arrays.ArrowStringArray):  # (Arrow holds no lone surrogate)
        texts: list[Any] = array.__arrow_array__().to_pylist()
        return texts
    text = column.to_json(orient="records", date_format="iso")  # (a list of the values)
    if isinstance(dtype, np.dtype) and dtype.kind == "f":  # numbers and nulls, nothing nested
        numbers: list[Any] = json.loads(text)
        if math.inf in numbers or -math.inf in numbers:
            numbers = [_finite(v) for v in numbers]
        return numbers
    parsed: list[Any] = json.loads(text, parse_float=_finite_float)
    return parsed


def _records_by_text(data: pd.DataFrame) -> tuple[list[dict[str, Any]], str]:
    """``json_records`` through one JSON text of every record: labels that are not distinct
    strings free of NUL, or a value pandas' writer refuses (its error is the one raised)."""
    text = data.to_json(orient="records", date_format="iso")
    records = json.loads(text, parse_float=_finite_float)
    return records, hashlib.sha256(text.encode()).hexdigest()


def _finite(value: Any) -> Any:
    """``_finite_float`` of a number already read: an infinity kept at the float limit."""
    if isinstance(value, float) and math.isinf(value):
        return math.copysign(sys.float_info.max, value)
    return value


def _finite_float(text: str) -> float:
    """A number pandas wrote: it writes inf and NaN as null, so an infinity read back can only
    be a finite value near the float limit rounded up in the text; it is kept at the limit."""
    value = float(text)
    if math.isinf(value):
        return math.copysign(sys.float_info.max, value)
    return value


_PINNED_CONFIG: dict[str, Any] = {"view": {"continuousWidth": 300, "continuousHeight": 300}}
"""Altair's default theme, written into every spec, so the caller's active theme never is."""


def chart_spec(chart: alt.TopLevelMixin) -> dict[str, Any]:
    """The Vega-Lite spec of a chart, the same whatever the caller's global Altair state.

    ``chart.to_dict()`` reads process-wide settings: the active data transformer (it raises
    once a caller enabled ``vegafusion``), the active theme (merged into the spec) and whether
    datasets are consolidated. Here the chart is serialized below the top level, where none
    of those apply, and the top level is written by chartkit: ``$schema``, Altair's default
    theme, the inline rows as one named dataset. Nothing global is read or changed. The spec
    comes back ``renderable`` (every string safe to draw, every title safe in an expression).
    """
    datasets: dict[str, Any] = {}
    own = chart if isinstance(chart, alt.Chart | alt.FacetChart) else None
    data = own.data if own is not None else None
    if own is not None and isinstance(data, dict) and data.keys() == {"values"}:
        # inline rows (build_chart's): serialized with the rows' name in their place, so Altair
        # neither walks nor validates each row;
        # the rows join the spec as one named dataset, named by the digest of their content
        digest = data.digest if isinstance(data, _Rows) else None
        name = f"data-{digest[:32]}" if digest else _dataset_name(data["values"])
        datasets[name] = data["values"]
        chart = own = own.copy(deep=False)
        own.data = {"name": name}
    # not validated against Vega-Lite's schema per call (a tenth of a view's time): chartkit
    # writes the spec from a plan, and tests/test_spec_schema.py validates every chart kind's
    body = chart.to_dict(
        validate=False,
        context={"top_level": False, "pre_transform": False, "datasets": datasets},
    )
    _params_in_cell(body)
    data = body.get("data")
    if isinstance(data, dict) and isinstance(data.get("values"), list):
        name = _dataset_name(data["values"])  # the caller turned consolidation off: do it here
        datasets[name] = data["values"]
        body["data"] = {"name": name}
    spec: dict[str, Any] = {"config": copy.deepcopy(_PINNED_CONFIG), **body}
    spec["$schema"] = alt.SCHEMA_URL
    if datasets:
        spec["datasets"] = datasets
    safe: dict[str, Any] = renderable(spec)
    return safe


def _params_in_cell(body: dict[str, Any]) -> None:
    """A faceted chart's cell selection put back in its cell, where Vega-Lite reads a unit's
    params: Altair lifts them to the top level, naming the cell (a hash of it) as their view,
    and a host that adds its own selections to the cell (``chartkit.streamlit``) would then
    hold the same name twice."""
    cell = body.get("spec")
    if "facet" not in body or not isinstance(cell, dict) or "params" not in body:
        return
    name = cell.get("name")
    if not all(p.get("views") == [name] for p in body["params"]):
        return
    cell["params"] = [{k: v for k, v in p.items() if k != "views"} for p in body.pop("params")]
    cell.pop("name", None)


class _Rows(dict[str, Any]):
    """A chart's inline rows (``{"values": [...]}``, as Altair reads a dict) with the digest
    ``json_records`` took of their content: the dataset's name in the spec without serializing
    the rows again. A copy Altair makes is a plain dict, named by ``_dataset_name`` instead."""

    def __init__(self, *, values: list[Any], digest: str) -> None:
        super().__init__(values=values)
        self.digest = digest


def _dataset_name(rows: list[Any]) -> str:
    """``data-`` and a hash of the rows, as Altair names a consolidated dataset."""
    text = json.dumps(rows, sort_keys=True, default=str)
    return f"data-{hashlib.sha256(text.encode()).hexdigest()[:32]}"


def _render(what: str, convert: Any, spec: dict[str, Any], **options: Any) -> Any:
    """Run one vl-convert export on a renderable copy of the spec; a failure is a ChartkitError.

    ``renderable`` is what keeps the process alive: vl-convert aborts (an uncatchable panic)
    on a control character in any string it draws, so none reaches it.
    """
    try:
        return convert(renderable(spec), vl_version=_vl_version(), **options)
    except Exception as exc:  # vl-convert raises ValueError and friends
        raise ChartkitError(
            f"the chart could not be rendered as {what}: {cap_text(visible(str(exc)), 300)}"
        ) from None


def spec_to_png(spec: dict[str, Any], *, scale: float = 2.0) -> bytes:
    """A PNG of the spec, rendered offline by vl-convert (control characters shown escaped)."""
    png: bytes = _render("PNG", vl_convert.vegalite_to_png, spec, scale=scale)
    return png


def spec_to_svg(spec: dict[str, Any]) -> str:
    """An SVG of the spec, rendered offline by vl-convert (control characters shown).

    The SVG is an image with a name: ``role="img"``, and its ``<title>`` (and ``<desc>``)
    are the spec's ``description``, so a screen reader says why this chart was drawn.
    """
    svg: str = _render("SVG", vl_convert.vegalite_to_svg, spec)
    return _accessible_svg(svg, spec)


def _accessible_svg(svg: str, spec: dict[str, Any]) -> str:
    """``role="img"``, ``<title>`` and ``<desc>`` on the root element, as escaped text."""
    description = spec.get("description")
    title = spec.get("title")
    name = title.get("text") if isinstance(title, dict) else title
    said = description if isinstance(description, str) and description else name
    if not isinstance(said, str) or not svg.startswith("<svg "):
        return svg
    label = html.escape(visible(cap_text(said, 1000)), quote=True)
    head, rest = svg.split(">", 1)
    short = html.escape(visible(name), quote=True) if isinstance(name, str) and name else label
    return (
        f'{head} role="img" aria-label="{label}"><title>{short}</title><desc>{label}</desc>{rest}'
    )


_SPEC_SLOT = {"$chartkit": "spec"}


def spec_to_html(spec: dict[str, Any]) -> str:
    """A self-contained HTML page for the spec: Vega, Vega-Lite and vega-embed inlined.

    vl-convert writes the page around a stand-in; the spec then goes in as ``script_json``
    (``<``, ``>`` and ``&`` escaped), so no value can close the ``<script>`` and run as code.
    """
    page: str = _render("an HTML page", _html_page, spec)
    return page


def _html_page(spec: dict[str, Any], *, vl_version: str) -> str:
    page: str = vl_convert.vegalite_to_html(_SPEC_SLOT, vl_version=vl_version, bundle=True)
    slot = json.dumps(_SPEC_SLOT, separators=(",", ":"))
    if page.count(slot) != 1:
        raise ValueError("vl-convert's page does not hold the spec where chartkit expects it")
    return page.replace(slot, script_json(spec))
