"""What makes a default chart acceptable: properties an analyst would sign, as code.

Each ``Property`` says when it applies (from the declaration and facts anyone can count on the
rows: distinct values, rows per key, spans, magnitudes — never a hand-picked answer per
dataset) and whether the drawn chart holds it, read from the View: its mark, its encodings and
its Vega-Lite spec (scales, axis formats, the data it embeds). ``judge`` runs them all; a
default is acceptable when every property that applies holds.

The properties follow issue 20 ("The default chart an analyst would sign"):

- two or more measures and no date: a scatter of two measures, split (color or facet) by a
  category of few values when there is one — not a bar of a mean; one panel per value when
  the groups sit on the same x positions (half the groups or more each hold 80% of x's
  distinct values: Anscombe's sets), as colors there are drawn over each other;
- an aggregated axis is a measure: never the mean of years or of a number of few values;
- a line splits by a column only when each value is an entity with a series over the time
  span, not a label that varies row by row;
- a scatter's axes, and an axis of years, are not forced to start at zero; years are printed
  without a thousands separator;
- log scales are drawn with points, not bars; values spanning three orders of magnitude or
  more are drawn on a log scale;
- the automatic bucket fits the chart's width: at most one time position per pixel;
- measures of different magnitude (over 10x) do not share one axis (panels, or an independent
  scale per panel);
- the default does not depend on the order of keys in the rows;
- an identifier (half its values distinct, on a column of 100 rows or more) is not a category
  axis, color or facet;
- rows that are a breakdown (one row per pair of keys) are totals per key, not means.

And those of issue 40 ("Charts chosen by the roles of their columns"):

- a grid (a number of few ordered values, each repeated: days, doses, weeks) is x, not y, and
  the y drawn over it is a measure (the response);
- latitude and longitude (by name) are drawn as a map: longitude on x, latitude on y;
- a number of three distinct values or fewer is never a continuous position axis;
- a weight (a non-negative whole number over a unique key of categories: a count in a
  contingency table) is summed, never averaged;
- two factors and a measure: both factors are drawn, not one;
- like measures (three or more numbers over the chart's time or grid x, within 10x of each
  other) are drawn together, and the picture says how many were left out;
- an entity x grid panel (each entity's rows cover the grid) is a line per entity;
- a line over time breaks at its missing time points; the y axis of lines and points is not
  forced to zero when the data's span is small next to its distance from zero; bars keep zero.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

__all__ = ["PROPERTIES", "Chart", "Facts", "Outcome", "Property", "Verdict", "judge"]

MEASURE_MIN_DISTINCT = 10
"""A number column with fewer distinct values is a code or a level, not a measure."""
FEW_VALUES = 10
"""A category with at most this many values can color or facet a chart."""
ENTITY_COVERAGE = 0.5
"""A line's series is an entity when it has a row at this share of the time points or more."""
IDENTIFIER_SHARE = 0.5
"""A string column of ``IDENTIFIER_MIN_ROWS`` rows or more this distinct is an identifier."""
IDENTIFIER_MIN_ROWS = 100
ORDERS_FOR_LOG = 3
"""Positive values spanning this many powers of ten or more call for a log scale."""
SHARED_POSITIONS = 0.8
"""A group holding this share of x's distinct values sits on the same positions as the rest."""
MAGNITUDE_RATIO = 10.0
"""Measures whose largest values differ by more than this factor need an axis each."""
SCATTER_MARKS = frozenset({"point", "circle", "square"})
GRID_MAX = 20
"""A number of at most this many distinct values, each repeated, is a grid (days, doses)."""
GRID_REPEATS = 3
"""A grid's column holds at least this many rows per distinct value on average."""
FEW_NUMBER_VALUES = 3
"""A number of this many distinct values or fewer is a factor, never a continuous axis."""
PANEL_COVERAGE = 0.8
"""An entity whose rows hold this share of the grid's values or more forms a series over it."""
PANEL_ENTITIES = 20
"""At most this many entities are drawn as a line each (colors, then small multiples)."""
LIKE_MEASURES = 3
"""This many numbers or more over one time or grid x, within ``MAGNITUDE_RATIO``, are alike."""
GAP_STEPS = 1.5
"""Consecutive points further apart than this many regular steps have a time point missing."""
LATITUDE = frozenset({"lat", "latitude"})
LONGITUDE = frozenset({"lon", "lng", "long", "longitude"})
"""Coordinate columns are named by convention: the name, lower-cased, is one of these."""
LINE_MARKS = frozenset({"line", "trail"})
BREAKS = frozenset({"break-paths-show-domains", "break-paths-filter-domains"})
"""Vega-Lite's ``mark.invalid`` values that break a line at a missing value (or null)."""


@dataclass(frozen=True)
class Facts:
    """What can be counted on the rows, per declared column: its type, values, distinct count."""

    frame: pd.DataFrame
    types: Mapping[str, str]
    years: tuple[str, ...] = ()

    @classmethod
    def of(
        cls, rows: Sequence[Mapping[str, Any]], result_columns: Mapping[str, Any],
        years: Sequence[str] = (),
    ) -> Facts:  # fmt: skip
        types = {
            str(c): (d if isinstance(d, str) else str(d["type"])) for c, d in result_columns.items()
        }
        frame = pd.DataFrame(list(rows))
        for column, kind in types.items():
            if column not in frame.columns:
                continue
            if kind == "number":
                frame[column] = pd.to_numeric(frame[column], errors="coerce")
            elif kind == "date":
                frame[column] = pd.to_datetime(frame[column], errors="coerce", utc=True)
        return cls(frame, types, tuple(years))

    def distinct(self, column: str) -> int:
        return int(self.frame[column].nunique()) if column in self.frame.columns else 0

    def of_type(self, kind: str) -> list[str]:
        return [c for c, t in self.types.items() if t == kind and c in self.frame.columns]

    def measures(self) -> list[str]:
        """Number columns with enough distinct values to be measured, not coded."""
        return [c for c in self.of_type("number") if self.distinct(c) >= MEASURE_MIN_DISTINCT]

    def categories(self) -> list[str]:
        """String columns of 2 to ``FEW_VALUES`` values: what can color or facet a chart."""
        return [c for c in self.of_type("string") if 2 <= self.distinct(c) <= FEW_VALUES]

    def shared_positions(self, x: str, category: str) -> tuple[int, int, int] | None:
        """``(groups holding most x positions, groups, x's distinct values)`` when half the
        groups of ``category`` or more each hold ``SHARED_POSITIONS`` of x's distinct values
        (five or more): the groups are the same positions measured again; else None."""
        if x not in self.frame.columns or category not in self.frame.columns:
            return None
        both = self.frame[[x, category]].dropna()
        distinct = int(both[x].nunique())
        per_group = both.groupby(category)[x].nunique()
        full = int((per_group >= SHARED_POSITIONS * distinct).sum())
        if distinct < 5 or len(per_group) < 2 or 2 * full < len(per_group):
            return None
        return full, len(per_group), distinct

    def numbers(self) -> list[str]:
        """Number columns holding at least one value."""
        return [c for c in self.of_type("number") if self.frame[c].notna().any()]

    def grid(self, column: str) -> bool:
        """A number of 4 to ``GRID_MAX`` ordered values, each repeated and set by a design (two
        decimals at most: days, doses, weeks — not a measure that happens to repeat)."""
        if self.types.get(column) != "number" or column not in self.frame.columns:
            return False
        values = self.frame[column].dropna()
        distinct = int(values.nunique())
        if not FEW_NUMBER_VALUES < distinct <= GRID_MAX or len(values) < GRID_REPEATS * distinct:
            return False
        return bool(((values * 100).round(6) % 1 == 0).all())

    def few_valued(self, column: str) -> bool:
        """A number of 2 to ``FEW_NUMBER_VALUES`` distinct values: a factor (a code, a dose)."""
        return self.types.get(column) == "number" and 2 <= self.distinct(column) <= (
            FEW_NUMBER_VALUES
        )

    def response_measures(self) -> list[str]:
        """Measures that are neither years nor a grid: what a chart's y can be the response of."""
        return [c for c in self.measures() if c not in self.years and not self.grid(c)]

    def factors(self) -> list[str]:
        """Categories of few values and numbers of few values: what splits a measure."""
        strings = [c for c in self.categories() if not self.identifier(c)]
        return strings + [c for c in self.of_type("number") if self.few_valued(c)]

    def sequence(self, column: str) -> bool:
        """A number counting time: years, or whole numbers each held by one row, a constant
        step apart (``TIME`` = 1, 2, …, 25), ``MEASURE_MIN_DISTINCT`` of them or more."""
        if column in self.years:
            return True
        if self.types.get(column) != "number" or column not in self.frame.columns:
            return False
        values = self.frame[column].dropna()
        if len(values) < MEASURE_MIN_DISTINCT or values.duplicated().any():
            return False
        steps = values.sort_values().diff().dropna()
        return bool((values % 1 == 0).all() and steps.nunique() == 1)

    def time_like(self, column: str) -> bool:
        """A date, a sequence (years) or a grid: an x that a series runs over."""
        return self.types.get(column) == "date" or self.sequence(column) or self.grid(column)

    def coordinates(self) -> tuple[str, str] | None:
        """``(latitude, longitude)`` when two number columns are named so by convention."""
        numbers = self.of_type("number")
        lat = next((c for c in numbers if c.lower() in LATITUDE), None)
        lon = next((c for c in numbers if c.lower() in LONGITUDE), None)
        return (lat, lon) if lat is not None and lon is not None else None

    def unique_key(self) -> list[str] | None:
        """Two or more categories (no identifier) whose values together name each row once."""
        keys = [
            c for c in self.of_type("string")
            if not self.identifier(c) and self.distinct(c) < len(self.frame)
        ]  # fmt: skip
        if len(keys) < 2 or self.frame.duplicated(keys).any():
            return None
        return keys

    def weights(self) -> list[str]:
        """Non-negative whole numbers over a unique key of categories: counts, to be summed."""
        if self.unique_key() is None:
            return []
        out = []
        for column in self.numbers():
            values = self.frame[column].dropna()
            if (values >= 0).all() and (values % 1 == 0).all():
                out.append(column)
        return out

    def like_measures(self, x: str) -> list[str]:
        """The largest group of ``LIKE_MEASURES`` or more measures within ``MAGNITUDE_RATIO``
        of each other (by largest and by median absolute value) whose ranges overlap (one
        scale), in declared order, when x names each row (one row per time point); else none."""
        if x not in self.frame.columns or self.frame[x].duplicated().mean() > 0.1:
            return []
        sizes, typical = {}, {}
        for column in self.numbers():
            if column == x or column in self.years or self.grid(column) or self.few_valued(column):
                continue
            values = self.frame[column].abs()
            if pd.notna(values.max()) and values.median() > 0:
                sizes[column], typical[column] = float(values.max()), float(values.median())
        ordered = sorted(sizes, key=sizes.__getitem__)
        best: list[str] = []
        for i, low in enumerate(ordered):
            group = [c for c in ordered[i:] if sizes[c] <= MAGNITUDE_RATIO * sizes[low]]
            small = min(typical[c] for c in group)
            group = [c for c in group if typical[c] <= MAGNITUDE_RATIO * small]
            if len(group) > len(best):
                best = group
        spans = {c: (self.frame[c].min(), self.frame[c].max()) for c in best}
        shared = [
            c for c in best
            if any(o != c and spans[o][0] <= spans[c][1] and spans[c][0] <= spans[o][1]
                   for o in best)
        ]  # fmt: skip
        if len(shared) < LIKE_MEASURES:
            return []
        return [c for c in sizes if c in shared]

    def panels(self) -> list[tuple[str, str]]:
        """``(entity, x)`` pairs: a category of 2 to ``PANEL_ENTITIES`` values whose every
        value has about one row at ``PANEL_COVERAGE`` or more of a time or grid x's values."""
        out = []
        for entity in self.of_type("string"):
            if not 2 <= self.distinct(entity) <= PANEL_ENTITIES:
                continue
            for x in self.frame.columns:
                if x == entity or not self.time_like(str(x)):
                    continue
                both = self.frame[[entity, x]].dropna()
                points = int(both[x].nunique())
                if points < 3 or both.duplicated().mean() > 0.1:
                    continue
                coverage = both.groupby(entity)[x].nunique() / points
                if coverage.min() >= PANEL_COVERAGE:
                    out.append((entity, str(x)))
        return out

    def identifier(self, column: str) -> bool:
        rows = int(self.frame[column].notna().sum()) if column in self.frame.columns else 0
        return (
            self.types.get(column) == "string"
            and rows >= IDENTIFIER_MIN_ROWS
            and self.distinct(column) >= IDENTIFIER_SHARE * rows
        )


@dataclass(frozen=True)
class Outcome:
    """One property on one chart: whether it applies, whether it holds, and why not."""

    name: str
    applies: bool
    holds: bool = True
    why: str = ""


@dataclass(frozen=True)
class Verdict:
    """Every property's outcome on one chart; acceptable when each that applies holds."""

    outcomes: tuple[Outcome, ...]

    @property
    def acceptable(self) -> bool:
        return all(o.holds for o in self.outcomes if o.applies)

    @property
    def failures(self) -> tuple[Outcome, ...]:
        return tuple(o for o in self.outcomes if o.applies and not o.holds)

    @property
    def why_not(self) -> str:
        """The failed properties, each with its reason, in one line ("" when acceptable)."""
        return "; ".join(f"{o.name}: {o.why}" for o in self.failures)


@dataclass(frozen=True)
class Chart:
    """What a View draws, read from its mark, encodings and Vega-Lite spec."""

    kind: str
    mark: str | None
    columns: Mapping[str, str]  # channel → the tool's column name
    aggregates: Mapping[str, str | None]
    measures: Mapping[str, tuple[str, ...]]  # channel → folded measures
    unit: Mapping[str, Any]  # the spec holding the mark and its encoding
    records: list[dict[str, Any]]
    width: int | None
    independent: frozenset[str] = frozenset()  # channels whose scale each panel resolves alone
    said: tuple[str, ...] = ()  # the notes and the spec's titles: what the picture says
    fields: Mapping[str, str] = field(default_factory=dict)  # channel → its field in the data

    @classmethod
    def of(cls, view: Any) -> Chart:
        spec: dict[str, Any] = view.spec or {}
        unit = _unit(spec)
        datasets = spec.get("datasets") or {}
        records = next(iter(datasets.values()), []) if isinstance(datasets, dict) else []
        width = unit.get("width") if isinstance(unit.get("width"), int) else spec.get("width")
        return cls(
            kind=view.kind,
            mark=view.mark,
            columns={ch: e.column for ch, e in view.encodings.items()},
            aggregates={ch: e.aggregate for ch, e in view.encodings.items()},
            measures={ch: tuple(e.measures) for ch, e in view.encodings.items()},
            unit=unit,
            records=list(records),
            width=width if isinstance(width, int) else None,
            independent=_independent(spec),
            said=(*view.notes, *_titles(spec)),
            fields={ch: e.field or e.column for ch, e in view.encodings.items()},
        )

    def channel(self, name: str) -> dict[str, Any]:
        encoding = self.unit.get("encoding") or {}
        found = encoding.get(name)
        return found if isinstance(found, dict) else {}

    def values(self, channel: str) -> list[float]:
        """The finite numbers the spec's data holds on a channel's field."""
        field = self.channel(channel).get("field")
        out = []
        for record in self.records:
            value = record.get(field) if isinstance(field, str) else None
            if isinstance(value, int | float) and not isinstance(value, bool):
                if math.isfinite(value):
                    out.append(float(value))
        return out

    def split_by(self) -> set[str]:
        return {self.columns[ch] for ch in ("color", "facet") if ch in self.columns}


def _titles(spec: Mapping[str, Any]) -> list[str]:
    """Every title, subtitle and caption text in a spec (the words drawn on the picture)."""
    out: list[str] = []
    for key, value in spec.items():
        if key in ("title", "subtitle", "text", "description") and isinstance(value, str):
            out.append(value)
        elif key in ("title", "subtitle", "text") and isinstance(value, list):
            out.extend(str(v) for v in value)
        elif isinstance(value, dict) and key != "datasets":
            out.extend(_titles(value))
        elif isinstance(value, list) and key in ("layer", "concat", "vconcat", "hconcat"):
            for part in value:
                if isinstance(part, dict):
                    out.extend(_titles(part))
    return out


def _independent(spec: Mapping[str, Any]) -> frozenset[str]:
    """The channels a faceted spec gives an independent scale in each panel."""
    resolve = spec.get("resolve")
    scales = resolve.get("scale") if isinstance(resolve, dict) else None
    if not isinstance(scales, dict) or not isinstance(spec.get("spec"), dict):
        return frozenset()
    return frozenset(ch for ch, how in scales.items() if how == "independent")


def _unit(spec: Mapping[str, Any]) -> Mapping[str, Any]:
    if "encoding" in spec:
        return spec
    inner = spec.get("spec")
    if isinstance(inner, dict):
        return _unit(inner)
    for layer in spec.get("layer", ()):
        if isinstance(layer, dict) and "encoding" in layer:
            return layer
    return spec


def _scale(chart: Chart, channel: str) -> dict[str, Any]:
    scale = chart.channel(channel).get("scale")
    return scale if isinstance(scale, dict) else {}


def _zero_forced(chart: Chart, channel: str) -> bool:
    scale = _scale(chart, channel)
    if scale.get("type") == "log" or "domain" in scale or "domainMin" in scale:
        return False
    return scale.get("zero", True) is not False


def _names(columns: Sequence[str]) -> str:
    return ", ".join(columns)


# -- the properties --------------------------------------------------------------------------


def scatter_for_measures(chart: Chart, facts: Facts) -> str | None:
    measures = facts.measures()
    if facts.of_type("date") or len(measures) < 2:
        return None
    x = chart.columns.get("x")
    if chart.mark in LINE_MARKS and isinstance(x, str) and facts.sequence(x):
        return None  # a line over years (or another count of time) is a series, not a pair
    x, y = chart.columns.get("x"), chart.columns.get("y")
    scatter = (
        chart.mark in SCATTER_MARKS
        and x in measures and y in measures and x != y
        and not chart.aggregates.get("x") and not chart.aggregates.get("y")
    )  # fmt: skip
    if not scatter:
        drawn = f"{chart.mark} of {_describe(chart)}"
        return (
            f"{_names(measures)} are measures and no column is a date, but the chart is a "
            f"{drawn}, not a scatter of two measures"
        )
    few = facts.categories()
    if few and not (chart.split_by() & set(few)):
        return f"the scatter is not colored or faceted by a category of few values ({_names(few)})"
    for category in few:
        shared = facts.shared_positions(x, category) if isinstance(x, str) else None
        if shared is not None and chart.columns.get("facet") != category:
            full, groups, distinct = shared
            return (
                f"{full} of the {groups} groups of {category} each hold {SHARED_POSITIONS:.0%} "
                f"or more of {x}'s {distinct} positions: one panel per {category}, not colors "
                "drawn over each other"
            )
    return ""


def aggregate_of_a_measure(chart: Chart, facts: Facts) -> str | None:
    aggregated = [
        (ch, chart.columns[ch]) for ch, agg in chart.aggregates.items()
        if agg in ("mean", "sum", "median") and ch in chart.columns
    ]  # fmt: skip
    if not aggregated:
        return None
    for ch, column in aggregated:
        if column in facts.years:
            return f"the {ch} axis is the {chart.aggregates[ch]} of {column}, a column of years"
        if facts.types.get(column) == "number" and column not in facts.measures():
            return (
                f"the {ch} axis is the {chart.aggregates[ch]} of {column}, which holds only "
                f"{facts.distinct(column)} distinct values"
            )
    return ""


def line_split_by_entity(chart: Chart, facts: Facts) -> str | None:
    color, x = chart.columns.get("color"), chart.columns.get("x")
    if chart.mark != "line" or color is None or chart.measures.get("color") or x is None:
        return None
    frame = facts.frame
    if color not in frame.columns or x not in frame.columns:
        return None
    points = frame[x].nunique()
    if not points:
        return None
    coverage = frame.groupby(color, dropna=False)[x].nunique() / points
    worst = coverage.idxmin()
    if coverage.min() < ENTITY_COVERAGE:
        present = int(frame.loc[frame[color] == worst, x].nunique())
        return (
            f"one line per {color}, but {color} is a label that varies row by row: "
            f"{worst!s} is present at {present:,} of {points:,} time points"
        )
    return ""


def scatter_not_from_zero(chart: Chart, facts: Facts) -> str | None:
    if chart.mark not in SCATTER_MARKS:
        return None
    forced = []
    for ch in ("x", "y"):
        spec = chart.channel(ch)
        if spec.get("type") != "quantitative" or spec.get("bin"):
            continue
        values = chart.values(ch)
        if values and (min(values) > 0 or max(values) < 0) and _zero_forced(chart, ch):
            forced.append(f"{chart.columns.get(ch, ch)} ({min(values):g}–{max(values):g})")
    if forced:
        return f"the axis of {_names(forced)} starts at zero"
    return ""


def years_axis(chart: Chart, facts: Facts) -> str | None:
    on = [
        ch for ch in ("x", "y") if chart.columns.get(ch) in facts.years
        and chart.channel(ch).get("type") == "quantitative" and not chart.aggregates.get(ch)
    ]  # fmt: skip
    if not on:
        return None
    for ch in on:
        column = chart.columns[ch]
        axis = chart.channel(ch).get("axis") or {}
        fmt = axis.get("format") if isinstance(axis, dict) else None
        if not isinstance(fmt, str) or "," in fmt:
            return (
                f"{column} holds years but its axis prints them with a thousands separator "
                f"(format {fmt!r})"
            )
        if _zero_forced(chart, ch) and not chart.channel(ch).get("bin"):
            return f"the axis of {column} (years) starts at zero"
    return ""


def log_scale_points(chart: Chart, facts: Facts) -> str | None:
    logged = [ch for ch in ("x", "y") if _scale(chart, ch).get("type") == "log"]
    if not logged:
        return None
    if chart.mark in ("bar", "area", "rect"):
        return (
            f"{chart.mark}s on a log scale ({chart.columns.get(logged[0], logged[0])}): a log "
            "axis has no zero for a bar to start from"
        )
    return ""


def wide_range_on_log(chart: Chart, facts: Facts) -> str | None:
    wide = []
    for ch in ("x", "y"):
        if chart.channel(ch).get("type") != "quantitative":
            continue
        positive = [v for v in chart.values(ch) if v > 0]
        if len(positive) < 2 or min(positive) != min(chart.values(ch)):
            continue
        orders = math.log10(max(positive) / min(positive))
        if orders >= ORDERS_FOR_LOG:
            wide.append((ch, orders, min(positive), max(positive)))
    if not wide:
        return None
    for ch, orders, low, high in wide:
        if (chart.channel(ch).get("scale") or {}).get("type") != "log":
            return (
                f"{chart.columns.get(ch, ch)} spans {low:,g} to {high:,g} ({orders:.1f} powers "
                "of ten) on a linear axis: the small values are invisible"
            )
    return ""


def bucket_fits_width(chart: Chart, facts: Facts) -> str | None:
    x = chart.channel("x")
    if x.get("type") != "temporal" or chart.width is None:
        return None
    field = x.get("field")
    split = [chart.channel(ch).get("field") for ch in ("color", "detail")]
    y = chart.channel("y").get("field")
    per_series: dict[Any, set[Any]] = {}
    for record in chart.records:
        if isinstance(y, str) and y in record and record[y] is None:
            continue  # a gap's marker breaks the line; it draws no position
        key = tuple(record.get(f) for f in split if isinstance(f, str))
        per_series.setdefault(key, set()).add(record.get(field) if isinstance(field, str) else None)
    positions = max((len(v) for v in per_series.values()), default=0)
    if positions > chart.width:
        return (
            f"{positions:,} time positions on a {chart.width}-pixel axis (more than one per "
            "pixel: a solid band)"
        )
    return ""


def one_unit_per_axis(chart: Chart, facts: Facts) -> str | None:
    folded = next((m for m in chart.measures.values() if len(m) > 1), ())
    if not folded:
        return None
    sizes = {}
    for column in folded:
        if column in facts.frame.columns:
            largest = facts.frame[column].abs().max()
            if pd.notna(largest) and largest > 0:
                sizes[column] = float(largest)
    if len(sizes) < 2:
        return ""
    big, small = max(sizes, key=sizes.__getitem__), min(sizes, key=sizes.__getitem__)
    own_axis = "facet" in chart.columns or {"x", "y"} & chart.independent
    if sizes[big] / sizes[small] > MAGNITUDE_RATIO and not own_axis:
        return f"{big} (up to {sizes[big]:,g}) and {small} (up to {sizes[small]:,g}) share one axis"
    return ""


def no_identifier_category(chart: Chart, facts: Facts) -> str | None:
    used = [
        (ch, chart.columns[ch]) for ch in ("x", "y", "color", "facet")
        if ch in chart.columns and chart.channel(ch).get("type") in ("nominal", "ordinal", None)
        and facts.types.get(chart.columns[ch]) == "string"
    ]  # fmt: skip
    if not used:
        return None
    for ch, column in used:
        if facts.identifier(column):
            rows = int(facts.frame[column].notna().sum())
            return (
                f"{column} is the {ch} categories, but {facts.distinct(column):,} of its "
                f"{rows:,} values are distinct: an identifier"
            )
    return ""


def breakdown_totals(chart: Chart, facts: Facts) -> str | None:
    if chart.mark != "bar":
        return None
    by = next(
        (chart.columns[ch] for ch in ("x", "y") if chart.aggregates.get(_other(ch))
         and ch in chart.columns), None,
    )  # fmt: skip
    measure_channel = next((ch for ch, a in chart.aggregates.items() if a), None)
    if by is None or measure_channel is None or by not in facts.frame.columns:
        return None
    frame = facts.frame
    if frame[by].nunique() >= len(frame):
        return None
    keys = [
        c
        for c in (*facts.of_type("string"), *facts.of_type("date"))
        if c != by and not facts.identifier(c) and facts.distinct(c) < 0.5 * len(frame)
    ]
    pair = next((k for k in keys if not frame.duplicated([by, k]).any()), None)
    if pair is None:
        return None
    aggregate = chart.aggregates[measure_channel]
    if aggregate not in ("sum", "count"):
        return (
            f"one row per {by} and {pair}: a breakdown, drawn as the {aggregate} per {by} "
            "instead of the total"
        )
    return ""


def grid_is_x(chart: Chart, facts: Facts) -> str | None:
    placed = {ch: chart.columns.get(ch) for ch in ("x", "y")}
    grids = [
        (ch, c) for ch, c in placed.items()
        if isinstance(c, str) and facts.grid(c) and not chart.aggregates.get(ch)
    ]  # fmt: skip
    responses = facts.response_measures()
    if not grids or not responses:
        return None
    for ch, column in grids:
        if ch == "y":
            return (
                f"{column} is a grid ({facts.distinct(column)} ordered values, each repeated) "
                f"drawn on y: a grid indexes the rows and is x, the response ({_names(responses)}) "
                "is y"
            )
    y = placed.get("y")
    drawn = chart.measures.get("y") or ((y,) if isinstance(y, str) else ())
    if chart.aggregates.get("y") == "count" or not drawn or any(m not in responses for m in drawn):
        what = f"{chart.aggregates.get('y')}({y})" if chart.aggregates.get("y") else str(y)
        return (
            f"{grids[0][1]} (a grid) is x but y is {what}, not a measure: the response "
            f"({_names(responses)}) is y"
        )
    return ""


def map_orientation(chart: Chart, facts: Facts) -> str | None:
    coordinates = facts.coordinates()
    if coordinates is None:
        return None
    latitude, longitude = coordinates
    x, y = chart.columns.get("x"), chart.columns.get("y")
    aggregated = chart.aggregates.get("x") or chart.aggregates.get("y")
    if x == longitude and y == latitude and not aggregated:
        return ""
    return (
        f"{latitude} and {longitude} are coordinates: a map draws {longitude} on x and "
        f"{latitude} on y, but the chart is a {chart.mark} of {_describe(chart)}"
    )


def few_values_not_continuous(chart: Chart, facts: Facts) -> str | None:
    continuous = [
        (ch, chart.columns[ch]) for ch in ("x", "y")
        if ch in chart.columns and chart.channel(ch).get("type") == "quantitative"
        and not chart.channel(ch).get("bin") and not chart.aggregates.get(ch)
        and not chart.measures.get(ch)
    ]  # fmt: skip
    if not continuous:
        return None
    for ch, column in continuous:
        if facts.types.get(column) == "number" and facts.distinct(column) <= FEW_NUMBER_VALUES:
            values = sorted(facts.frame[column].dropna().unique().tolist())
            shown = ", ".join(f"{v:g}" for v in values)
            return (
                f"{column} holds {len(values)} distinct values ({shown}) and is the continuous "
                f"{ch} axis: a factor, drawn as categories, color or panels"
            )
    return ""


def weights_summed(chart: Chart, facts: Facts) -> str | None:
    aggregated = [
        (ch, column, agg) for ch, agg in chart.aggregates.items()
        if agg in ("mean", "median", "sum") and isinstance(column := chart.columns.get(ch), str)
    ]  # fmt: skip
    if not aggregated:
        return None
    weights = facts.weights()
    applies = False
    for ch, column, agg in aggregated:
        for measure in chart.measures.get(ch) or (column,):
            if measure not in weights:
                continue
            applies = True
            if agg != "sum":
                key = facts.unique_key() or []
                return (
                    f"{measure} is a count over a unique key of {_names(key)} (one row per "
                    f"combination, whole numbers, none negative): drawn as its {agg}, not its sum"
                )
    return "" if applies else None


def both_factors_drawn(chart: Chart, facts: Facts) -> str | None:
    by = next(
        (chart.columns[ch] for ch in ("x", "y")
         if ch in chart.columns and chart.aggregates.get(_other(ch)) in ("mean", "sum", "median")),
        None,
    )  # fmt: skip
    factors = facts.factors()
    if by is None or by not in factors or len(factors) < 2:
        return None
    drawn = set(chart.columns.values())
    left = [f for f in factors if f not in drawn]
    if left:
        measure = next(chart.columns[ch] for ch in ("x", "y") if chart.columns.get(ch) != by)
        return (
            f"{measure} is drawn per {by} alone, but {_names(left)} "
            f"{'is' if len(left) == 1 else 'are'} a factor too: both factors are drawn "
            "(x and color or panels)"
        )
    return ""


def like_measures_together(chart: Chart, facts: Facts) -> str | None:
    x = chart.columns.get("x")
    if not isinstance(x, str) or not facts.time_like(x):
        return None
    group = facts.like_measures(x)
    y = chart.columns.get("y")
    drawn = [m for m in (chart.measures.get("y") or (y,)) if m in group]
    if not group or not drawn:
        return None
    if len(drawn) == 1:
        return (
            f"{drawn[0]} is drawn alone, but {_names(group)} are {len(group)} like measures "
            f"over {x} (within {MAGNITUDE_RATIO:g}x of each other): drawn together"
        )
    left = len(group) - len(drawn)
    if left and not _says_left_out(chart, left):
        return (
            f"{len(drawn)} of the {len(group)} like measures over {x} are drawn, and the "
            f"picture does not say how many are left out ({left})"
        )
    return ""


def _says_left_out(chart: Chart, left: int) -> bool:
    words = ("left out", "not drawn", "more", "other")
    for text in chart.said:
        for sentence in re.split(r"(?<=[.;:])\s", text):
            if re.search(rf"\b{left}\b", sentence) and any(w in sentence for w in words):
                return True
    return False


def panel_lines(chart: Chart, facts: Facts) -> str | None:
    panels = facts.panels()
    if not panels:
        return None
    split = {chart.columns.get(ch) for ch in ("color", "detail", "facet", "row", "column")}
    for entity, x in panels:
        if chart.mark in LINE_MARKS and chart.columns.get("x") == x and entity in split:
            return ""
    entity, x = panels[0]
    return (
        f"each of the {facts.distinct(entity)} values of {entity} has a row at "
        f"{PANEL_COVERAGE:.0%} or more of {x}'s {facts.distinct(x)} values: a line per "
        f"{entity} over {x}, but the chart is a {chart.mark} of {_describe(chart)}"
    )


def lines_break_at_gaps(chart: Chart, facts: Facts) -> str | None:
    x = chart.channel("x")
    field, y_field = x.get("field"), chart.channel("y").get("field")
    if chart.mark not in LINE_MARKS or x.get("type") not in ("temporal", "quantitative"):
        return None
    if not isinstance(field, str) or not isinstance(y_field, str):
        return None
    series = [
        chart.fields.get(ch) or chart.channel(ch).get("field")
        for ch in ("color", "detail", "facet", "row", "column")
    ]
    frame = pd.DataFrame(chart.records)
    if frame.empty or field not in frame.columns or y_field not in frame.columns:
        return None
    if x.get("type") == "temporal":
        at = pd.to_datetime(frame[field], utc=True, errors="coerce", format="ISO8601")
    else:
        at = pd.to_numeric(frame[field], errors="coerce")
    frame = frame.assign(_at=at)
    keys = [k for k in series if isinstance(k, str) and k in frame.columns]
    groups = frame.groupby(keys, dropna=False) if keys else [((), frame)]
    gaps = 0
    first: Any = None
    for _, rows in groups:
        drawn = rows[rows[y_field].notna()].sort_values("_at")
        steps = drawn["_at"].diff().dropna()
        if len(steps) < 3:
            continue
        step = steps.median()
        if not step > step * 0:  # several rows at one time point: no regular step to read
            continue
        regular = ((steps - step).abs() <= 0.1 * step).mean() >= 0.5
        wide = steps[steps > GAP_STEPS * step]
        if not regular or wide.empty:
            continue
        for index in wide.index:
            after = drawn["_at"].loc[:index].iloc[-2]
            between = rows[(rows["_at"] > after) & (rows["_at"] < drawn["_at"].loc[index])]
            if not (_breaks(chart) and between[y_field].isna().any()):
                gaps += 1
                first = after if first is None else first
    if gaps:
        when = first.date().isoformat() if hasattr(first, "date") else f"{first:g}"
        return (
            f"the line of {chart.columns.get('y', y_field)} is drawn straight across {gaps} "
            f"missing time point{'s' if gaps > 1 else ''} (the first after {when}): it breaks "
            "there"
        )
    return ""


def _breaks(chart: Chart) -> bool:
    mark = chart.unit.get("mark")
    if not isinstance(mark, dict) or "invalid" not in mark:
        return False
    return mark["invalid"] is None or mark["invalid"] in BREAKS


def y_domain_fits(chart: Chart, facts: Facts) -> str | None:
    y = chart.channel("y")
    if y.get("type") != "quantitative" or y.get("bin"):
        return None
    values = chart.values("y")
    if not values:
        return None
    low, high = min(values), max(values)
    if chart.mark == "bar":
        scale = _scale(chart, "y")
        if scale.get("zero") is False or (
            isinstance(scale.get("domain"), list) and scale["domain"] and scale["domain"][0] > 0
        ):
            return f"bars of {chart.columns.get('y')} do not start at zero"
        return ""
    if chart.mark not in LINE_MARKS | SCATTER_MARKS:
        return None
    distance = min(abs(low), abs(high)) if low * high > 0 else 0.0
    if distance == 0 or high - low >= distance:
        return None
    if _zero_forced(chart, "y"):
        return (
            f"{chart.columns.get('y')} spans {low:,g} to {high:,g}, a span small next to its "
            f"distance from zero, and its axis starts at zero: the {chart.mark}s fill "
            f"{(high - low) / high if high > 0 else (high - low) / -low:.0%} of the height"
        )
    return ""


def _other(channel: str) -> str:
    return "y" if channel == "x" else "x"


def _describe(chart: Chart) -> str:
    parts = []
    for ch in ("x", "y", "color", "facet"):
        if ch in chart.columns:
            agg = chart.aggregates.get(ch)
            parts.append(f"{ch}={agg}({chart.columns[ch]})" if agg else f"{ch}={chart.columns[ch]}")
    return ", ".join(parts) or "nothing"


@dataclass(frozen=True)
class Property:
    """One property: its name, and the function judging it on a chart — None when it does not
    apply, "" when it holds, else why it does not."""

    name: str
    check: Callable[[Chart, Facts], str | None]

    def on(self, chart: Chart, facts: Facts) -> Outcome:
        why = self.check(chart, facts)
        return Outcome(self.name, why is not None, not why, why or "")


PROPERTIES: tuple[Property, ...] = (
    Property("scatter for two measures", scatter_for_measures),
    Property("an aggregate is of a measure", aggregate_of_a_measure),
    Property("a line splits by an entity", line_split_by_entity),
    Property("a scatter's axes are not forced to zero", scatter_not_from_zero),
    Property("a years axis reads as years", years_axis),
    Property("a log scale is drawn with points", log_scale_points),
    Property("values over orders of magnitude are on a log scale", wide_range_on_log),
    Property("the time axis fits the chart's width", bucket_fits_width),
    Property("measures of different magnitude get an axis each", one_unit_per_axis),
    Property("an identifier is not a category", no_identifier_category),
    Property("a breakdown is drawn as totals", breakdown_totals),
    Property("a grid is x and a measure is y", grid_is_x),
    Property("coordinates are drawn as a map", map_orientation),
    Property("a number of few values is not a continuous axis", few_values_not_continuous),
    Property("a count over a unique key is summed", weights_summed),
    Property("two factors are both drawn", both_factors_drawn),
    Property("like measures are drawn together", like_measures_together),
    Property("an entity over a grid is a line each", panel_lines),
    Property("a line breaks at missing time points", lines_break_at_gaps),
    Property("lines and points fit their y axis, bars keep zero", y_domain_fits),
)
"""Every property, in the order a verdict lists them."""

KEY_ORDER = "the default does not depend on the order of keys"


def judge(view: Any, facts: Facts, reordered: Any | None = None) -> Verdict:
    """Every property on a View's chart; ``reordered`` is the View of the same rows with each
    row's keys reversed (the key-order property applies when it is given)."""
    if view.kind != "chart":
        outcomes = [Outcome("a chart is drawn", True, False, f"the view is a {view.kind}")]
        return Verdict(tuple(outcomes))
    chart = Chart.of(view)
    outcomes = [p.on(chart, facts) for p in PROPERTIES]
    if reordered is not None:
        again = Chart.of(reordered) if reordered.kind == "chart" else None
        same = again is not None and again.mark == chart.mark and again.columns == chart.columns
        why = "" if same else (
            f"with each row's keys reversed the default is "
            f"{again.mark + ' of ' + _describe(again) if again else reordered.kind}, not "
            f"{chart.mark} of {_describe(chart)}"
        )  # fmt: skip
        outcomes.append(Outcome(KEY_ORDER, True, same, why))
    return Verdict(tuple(outcomes))
