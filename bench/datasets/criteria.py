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
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
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
    per_series: dict[Any, set[Any]] = {}
    for record in chart.records:
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
