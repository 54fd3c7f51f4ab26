"""The chart-kind rules and the table-versus-chart decision, from declared types → ``Plan``.

The rules themselves are data: ``chartkit.plan.rules.RULES`` lists, in rank order, every chart the
declared types allow, and which may open a result. With no pick, the result opens on the first
candidate that may open and holds more than one mark (a single bar or point is not a chart);
the other candidates become the plan's ``alternatives``, each with its reason.

The table is docs/rules.md, generated from ``RULES`` (never copied). What this module adds to
a rule, as it draws it: a string color past 10 values becomes one small chart per value (past
20, a note says the line is not split by it); bars are horizontal past ``HORIZONTAL_OVER``
categories, sorted by the measure (``sort=``), cut to the top ``MAX_BAR_CATEGORIES`` with a
note; a line splits by its color only when each value is an entity over the time points
(``choose.is_entity``; else a point per row colored by it, or the rows counted per bucket,
stacked), and is bucketed when it has more time points than the chart's width in pixels
(``choose.line_positions``); a scatter over ``max_points`` rows is a binned heatmap; a lone
number with fewer than ``COUNT_BARS_UNDER`` distinct values is count bars, else a histogram;
no number is a table; a chart of a single mark is a table.

Every aggregation, bucketing and binning is done here, in pandas, before a spec exists, so a
chart never embeds more than ``max_points`` rows; an aggregated mark keeps the count of rows
behind it (``rows``) for its tooltip. Offending values are left out of the axis they would sit
on — never coerced — and a note built from the ``ColumnViolation`` says so.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final, Literal, NoReturn

import numpy as np
import pandas as pd

from chartkit._safe import name_list
from chartkit.check.judge import offending_mask
from chartkit.errors import ChartkitError
from chartkit.messages import render_sample
from chartkit.options import (
    AGGREGATES,
    DEFAULT_FORMAT,
    SCALES,
    SORTS,
    TIME_UNITS,
    ChartOptions,
)
from chartkit.plan import choose
from chartkit.plan.bins import (
    ArrayCounts,
    Counted,
    Counts,
    cell_edges,
    cells_per_axis,
    histogram_edges,
)
from chartkit.plan.encode import (
    ID_LIKE_SHARE,
    ID_LIKE_WIDE_ROWS,
    ID_LIKE_WIDE_SHARE,
    AxisRefusal,
    Channel,
    ColumnProfile,
    Encoding,
    describe_offenders,
    numeric_strings_only,
    wall_clock,
)
from chartkit.plan.facts import Facts, FrameFacts, coverage, coverage_of_codes, zone_counts
from chartkit.plan.groups import BarGroups, Fetched, Grouped, Said
from chartkit.plan.reduce import (
    ROWS,
    as_floats,
    bucket_codes,
    distinct_rows,
    floor_to_unit,
    reduce_by_one_key,
    reduce_frame,
    span_bucket_seconds,
    unit_codes,
)
from chartkit.plan.rules import MAX_COLOR_CATEGORIES, MAX_FACETS, Alternative, candidates
from chartkit.plan.spec import ChannelSpec, ChartSpec, Note, NoteKind, Reduction

__all__ = [
    "AGGREGATES",
    "DEFAULT_FORMAT",
    "MAX_BAR_CATEGORIES",
    "MAX_COLOR_CATEGORIES",
    "ROWS",
    "SCALES",
    "SORTS",
    "TIME_UNITS",
    "ChartOptions",
    "Plan",
    "Whole",
    "bucketed_note",
    "check_choose",
    "chosen_alternative",
    "line_label",
    "no_measure_reason",
    "no_value_note",
    "nothing_to_draw",
    "over_max_points",
    "plan_view",
    "points_per_bucket",
    "shared_note",
    "stacked_counts",
    "top_note",
    "unplaced_note",
]

MAX_PICKED_COLOR_CATEGORIES = choose.MAX_PICKED_COLOR_CATEGORIES
MAX_BAR_CATEGORIES = 30  # bars beyond this are cut to the top ones, with a note
HORIZONTAL_OVER = 5  # bars turn horizontal past this many categories
HISTOGRAM_BINS = 10
COUNT_BARS_UNDER = 15  # a lone measure with fewer distinct values gets count bars
MEASURE: Final = "measure"  # the field naming the measure when several are drawn
VALUE: Final = "value"  # … and the field holding their values
_RESERVED = {"count", MEASURE, VALUE, ROWS}

_BUCKETS_S = choose.BUCKETS_SECONDS  # the engine path reads them here


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


def plan_view(
    frame: pd.DataFrame,
    profiles: Mapping[str, ColumnProfile],
    *,
    x: str | None = None,
    y: str | Sequence[str] | None = None,
    color: str | None = None,
    facet: str | None = None,
    options: ChartOptions | None = None,
    choose: int | None = None,
    max_points: int = 5000,
    whole: Whole | None = None,
) -> Plan:
    """Decide chart or table, the chart kind and its encodings, from the columns' profiles.

    ``choose=N`` draws the Nth of the alternatives the same call would offer. ``whole`` is
    what ``frame`` stands for when the rows stay in a backend (``Whole``): the plan asks the
    backend the counts and groups it draws, and words those rows, not the frame's.
    """
    if not isinstance(max_points, int) or isinstance(max_points, bool) or max_points < 100:
        raise ChartkitError(f"max_points must be an integer of at least 100, got {max_points!r}")
    ys = _measure_names(y, profiles)
    for channel, name in (("x", x), ("color", color), ("facet", facet)):
        if name is not None and (not isinstance(name, str) or name not in profiles):
            raise ChartkitError(
                f"{channel}={name!r} names no column of this result; its columns are "
                f"{name_list(profiles)}"
            )
    if choose is not None:
        check_choose(choose)
    opts = options or ChartOptions()
    cands = candidates(profiles)
    # with a pick, the opening chart is only probed: which candidate it is, not its data
    planner = _Planner(frame, profiles, max_points, opts, cands, probe=choose is not None)
    planner.whole = whole or Whole()
    plan = planner.plan(x, ys, color, facet)
    if choose is None:
        return plan
    alt = chosen_alternative(choose, plan.alternatives)
    picks = alt.picks()
    opts = replace(opts, aggregate=alt.aggregate or opts.aggregate)
    chosen = _Planner(frame, profiles, max_points, opts, cands, prepared=planner.prepared)
    chosen.whole = planner.whole
    return chosen.plan(
        picks.get("x"), _measure_names(picks.get("y"), profiles), picks.get("color"),
        picks.get("facet"),
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


def _measure_names(
    y: str | Sequence[str] | None, profiles: Mapping[str, ColumnProfile]
) -> tuple[str, ...] | None:
    if y is None:
        return None
    names = (y,) if isinstance(y, str) else y
    if not isinstance(names, list | tuple) or not names:
        raise ChartkitError(
            f"y={y!r} is not allowed; use a column name, or a non-empty list of column names "
            "declared number"
        )
    for name in names:
        if not isinstance(name, str) or name not in profiles:
            raise ChartkitError(
                f"y={y!r} names {name!r}, which is no column of this result; its columns are "
                f"{name_list(profiles)}"
            )
    return tuple(dict.fromkeys(names))


@dataclass(frozen=True)
class _Prepared:
    """A column as ``_values`` prepared it for one axis, and the notes it made doing so."""

    values: pd.Series
    unplaced: Any
    notes: tuple[Note, ...]
    utc: bool


class _Planner:
    """One plan of one frame: the chart chosen (``plan``: the automatic candidate, or the
    picks drawn), with the state every part of planning reads and writes — the notes, the
    refusals, the fields, the reduction, the picks drawn, the rows left out.

    Each part is an object holding this planner as ``p``: ``lines``, ``bars`` and ``points``
    draw their chart kinds, ``cleaning`` prepares the rows a chart can place, ``refusing``
    says why a column is not on an axis, and ``writing`` makes the encodings and the ``Plan``.
    """

    def __init__(
        self,
        frame: pd.DataFrame,
        profiles: Mapping[str, ColumnProfile],
        max_points: int,
        opts: ChartOptions,
        cands: tuple[Alternative, ...],
        *,
        probe: bool = False,
        prepared: dict[tuple[str, str], _Prepared] | None = None,
    ) -> None:
        self.frame = frame
        self.profiles = profiles
        self.max_points = max_points
        self.opts = opts
        self.cands = cands
        # a probe stops as soon as a chart surely holds more than one mark: it learns what
        # would be drawn (``drawn``, hence the alternatives) without aggregating the rows
        self.probe = probe
        # a column a probe prepared for an axis (every row kept), for the chosen chart's plan
        self.prepared: dict[tuple[str, str], _Prepared] = {} if prepared is None else prepared
        self._quoted: dict[str, bool] = {}  # column → every value a number in quotes
        self.whole = Whole()  # what the frame stands for, when a backend reduced the rows
        self.lines = _Lines(self)
        self.grouped_lines = _GroupedLines(self)
        self.bars = _Bars(self)
        self.points = _Points(self)
        self.cleaning = _Cleaning(self)
        self.refusing = _Refusing(self)
        self.writing = _Writing(self)
        self._reset()

    def _reset(self) -> None:
        self.notes: list[Note] = []
        self.reduction: dict[str, Any] = {}  # what the rows were reduced to, for Plan.spec
        self.refusals: list[AxisRefusal] = []
        self.fields: dict[str, str] = {}
        self.utc: set[str] = set()  # date columns holding aware times, shown in UTC
        self.drawn: dict[str, Any] = {}  # the picks of the chart drawn
        self.log_refused = False
        self.log_axes: list[str] = []  # a scatter's axes put on a log scale (choose.log_axis)
        self.left_out = 0  # rows the chart does not place (offenders, no value, unplaceable)
        self.fetched: pd.DataFrame | None = None  # the rows a backend fetched for this chart

    def _of_rows(self, rows: pd.DataFrame, draw: Callable[[_Planner], Plan]) -> Plan:
        """``draw`` of the rows a backend fetched (``Whole.rows``: they fit ``max_points``),
        planned as memory plans its rows, by a planner sharing this one's state (its notes,
        refusals, reduction, picks drawn and rows left out; the fields are its own to give).
        The backend left out the offenders of the columns the rows are placed by, and noted
        them."""
        profiles = {n: replace(q, violation=None) for n, q in self.profiles.items()}
        sub = _Planner(rows, profiles, self.max_points, self.opts, self.cands)
        sub.whole = Whole(facts=self.whole.facts)
        self.fetched = rows
        for name in _STATE:
            setattr(sub, name, getattr(self, name))
        sub.fields = {}  # (the rows' fields are the sub-planner's to give: it cleans them)
        plan = draw(sub)
        for name in _STATE:
            setattr(self, name, getattr(sub, name))
        return plan

    def _own(self, q: ColumnProfile | None) -> ColumnProfile | None:
        """This planner's profile of the column ``q`` profiles (a planner of fetched rows holds
        its own: their offenders were left out where the rows live)."""
        return self.profiles[q.name] if q is not None else None

    def _say(self, kind: NoteKind, sentence: str, column: str | None = None, **counts: int) -> None:
        """A note: its kind, column and counts, and the sentence made from them."""
        self.notes.append(Note(kind, sentence, column, tuple(counts.items())))

    # -- choosing columns ---------------------------------------------------------------

    def plan(
        self, x: str | None, ys: tuple[str, ...] | None, color: str | None, facet: str | None
    ) -> Plan:
        if x is None and ys is None:
            return self._automatic(color, facet)
        try:
            plan = self._draw(x, ys, color, facet, auto_x=x is None, auto_color=color is None)
        except _NothingToDraw as nothing:
            plan = self.writing._table(str(nothing))
        picked = {n for n in (x, color, facet, *(ys or ())) if n is not None}
        return self._finish(plan, picked_x=x is not None, picked_y=ys is not None, picked=picked)

    def _automatic(self, color: str | None, facet: str | None) -> Plan:
        """The first candidate that may open and holds more than one mark."""
        count = self.opts.aggregate == "count"
        picked = {n for n in (color, facet) if n is not None}
        single: Plan | None = None
        for cand in choose.opening(self.cands, count=count):
            self._reset()
            self.refusing._note_id_like(
                skip_if=any(q.type == "temporal" for q in self.profiles.values())
            )
            x, ys, auto, split = choose.opening_picks(cand, color, facet, count=count)
            if cand.chart == "scatter" and color is None and facet is None and cand.x:
                if cand.color is not None and self.bars._shares_positions(cand.x, cand.color):
                    auto, split = None, cand.color  # one panel per group, not colors over colors
            kp = self.bars._breakdown_of(cand.chart, x, ys, color, facet)
            try:
                if kp is not None and x is not None and ys:
                    plan = self.bars._breakdown(self.profiles[x], self.profiles[ys[0]], kp)
                else:
                    plan = self._draw(x, ys, auto, split, auto_x=True, auto_color=False)
            except _NothingToDraw as nothing:
                plan = self.writing._table(str(nothing))
            if plan.kind == "chart" and plan.data is not None and len(plan.data) <= 1:
                single = single or plan
                continue
            return self._finish(plan, picked_x=False, picked_y=False, picked=picked)
        if single is not None:
            reason = (
                f"{single.reason[:-1]} — but that chart would hold a single mark, and so would "
                "every other chart its declared types allow; a single mark is not a chart, so "
                "the rows are shown as a table."
            )
            self.drawn = {}
            table = replace(single, kind="table", reason=reason, mark=None, encodings={},
                            data=None, horizontal=False, title=None, order=None,
                            reduction=Reduction())  # fmt: skip
            return self._finish(table, picked_x=False, picked_y=False, picked=picked)
        self._reset()
        over = choose.dates(self.profiles.values()) or choose.measures(self.profiles.values())
        if count and over:  # rows counted and no rule opens (no category, or no measure):
            # the rows counted over the first date, else per bin of the first number (a
            # histogram), as a picked x draws them
            try:
                plan = self._draw(over[0].name, None, color, facet, auto_x=True,
                                  auto_color=False)  # fmt: skip
            except _NothingToDraw as nothing:
                plan = self.writing._table(str(nothing))
            return self._finish(plan, picked_x=False, picked_y=False, picked=picked)
        reason = self.refusing._no_measure_reason()
        return self._finish(
            self.writing._table(reason), picked_x=False, picked_y=False, picked=picked
        )

    def _finish(self, plan: Plan, *, picked_x: bool, picked_y: bool, picked: set[str]) -> Plan:
        """Refuse the unusable columns the chart would have placed; offer the alternatives."""
        drawn_x = self.drawn.get("x")
        x_type = self.profiles[drawn_x].type if drawn_x is not None else None
        unplaced: list[AxisRefusal] = []
        for q in self.profiles.values():
            if q.name in picked or q.usable or q.violation is None:
                continue
            if q.type == "quantitative":
                placed = not picked_y
            elif q.type == "temporal":
                placed = not picked_x and x_type != "temporal"
            else:
                placed = not picked_x and plan.kind == "chart" and x_type == "quantitative"
            if placed:
                channel: Channel = "y" if q.type == "quantitative" else "x"
                unplaced.append(
                    AxisRefusal(q.name, channel, self.refusing._unusable_reason(q), q.violation)
                )
        if plan.kind == "chart" and not picked_y:
            unplaced += self.refusing._stepped_around(picked)
        drawn = {
            k: list(v) if isinstance(v, tuple) else v
            for k, v in self.drawn.items()
            if v is not None
        }
        alternatives = tuple(a for a in self.cands if a.picks() != drawn)
        return replace(
            plan, refusals=(*unplaced, *plan.refusals), alternatives=alternatives, drawn=drawn
        )

    def _draw(
        self,
        x: str | None,
        ys: tuple[str, ...] | None,
        color: str | None,
        facet: str | None,
        *,
        auto_x: bool,
        auto_color: bool,
    ) -> Plan:
        """The chart the picks draw (``choose.chart``, every backend's rule), each pick not
        drawn as asked refused in words, and the chart planned."""
        p = self.profiles
        count = self.opts.aggregate == "count"
        choice = choose.chart(p, x, ys, color, facet, count=count, auto_color=auto_color)
        xp = p[choice.x] if choice.x is not None else None
        for r in choice.refused:
            self.refusing._word(r, xp, p.get(choice.facet) if choice.facet else None)
        if choice.kind == "table":
            return self.writing._table(self.refusing._table_reason(choice, xp))
        cp = p[choice.color] if choice.color is not None else None
        fp = p[choice.facet] if choice.facet is not None else None
        yps = [p[m] for m in choice.ys]
        assert xp is not None
        if choice.kind == "histogram":
            return self.points._histogram(xp)
        if choice.kind == "line":
            return self.lines._line(xp, yps, cp, fp, auto_color=choice.auto_color)
        if choice.kind == "bars":
            return self.bars._bars(xp, yps, fp, horizontal_ok=choice.counted or auto_x)
        return self.points._scatter(xp, yps[0], cp, fp, auto_color=choice.auto_color)


class _Lines:
    """A line: its time buckets, its series, and whether a color is an entity over time
    (``choose.is_entity``), drawn for the planner ``p``, whose state it reads and writes."""

    def __init__(self, planner: _Planner) -> None:
        self.p = planner

    def _line(
        self,
        xp: ColumnProfile,
        yps: list[ColumnProfile],
        cp: ColumnProfile | None,
        fp: ColumnProfile | None,
        *,
        auto_color: bool,
    ) -> Plan:
        if cp is None and auto_color:
            cp = self.p.refusing._auto_color(
                {xp.name, fp.name if fp else None, *(m.name for m in yps)}
            )
        how, unit = self.p.opts.aggregate, self.p.opts.time_unit
        if self.p.whole.grouped is not None:  # the rows stay in a backend: its groups
            return self.p.grouped_lines._line(xp, yps, cp, fp)
        if self.p.probe and self._head_varies(xp, yps, cp, fp):
            self.p.drawn = {"x": xp.name, "y": _y_pick(yps), "color": cp.name if cp else None,
                          "facet": fp.name if fp else None, "aggregate": how}  # fmt: skip
            return self.p.writing._proven("line")
        data = self.p.cleaning._used(("x", xp), yps, "y", cp, fp)
        multi = len(yps) > 1
        if multi:
            data = self.p.cleaning._melt(data, yps)
        fx = self.p.fields[xp.name]
        fy, what = self.p.writing._measure(yps)
        series = [self.p.fields[cp.name]] if cp is not None else []
        series += [MEASURE] if multi else []
        series += [self.p.fields[fp.name]] if fp is not None else []
        keys = [fx, *series]
        if self.p.probe and self._line_varies(data, fx, series, faceted=fp is not None):
            self.p.drawn = {"x": xp.name, "y": _y_pick(yps), "color": cp.name if cp else None,
                          "facet": fp.name if fp else None, "aggregate": how}  # fmt: skip
            return self.p.writing._proven("line")
        period = unit or xp.name
        aggregate: str | None = None
        drawn_ys = yps  # the picks drawn (``drawn``), whatever the chart counts
        if unit is not None:
            data = data.assign(**{fx: floor_to_unit(data[fx], unit)})
        faceted = fp is not None
        width = choose.FACET_WIDTH if faceted else choose.CHART_WIDTH
        over = len(data) > self.p.max_points  # bucketed anyway: no time points to count
        over_width = unit is None and not over and len(data) > width and data[fx].nunique() > width
        line_bucketed = unit is None and (over or over_width)
        # a line splits by a category only when each value is an entity: found at most of the
        # line's time points, as drawn (each bucket, when the line is bucketed)
        # (an aggregate picked other than count is drawn per series, as asked)
        label: tuple[int, int] | None = None  # (fewest points of a value, the points)
        coded: tuple[int, Any, int, Any] | None = None  # the line's codes, made once
        if cp is not None and not multi and how in (None, "count"):
            times, fc = data[fx], self.p.fields[cp.name]
            if line_bucketed:
                series_n, known = distinct_rows(data, series)
                at = span_bucket_seconds(times, choose.line_positions(
                    max_points=self.p.max_points, series=series_n, faceted=faceted))  # fmt: skip
                found = bucket_codes(times, at, floor=True)
                if found is not None and fc in known:  # the buckets' and labels' codes
                    coded = (series_n, known, at, found)
                    label = _label_of(*coverage_of_codes(found[0], known[fc][0]))
                else:
                    times = pd.Series(found[0]) if found is not None else times.dt.floor(f"{at}s")
            if coded is None:
                label = line_label(times, data[fc])
        # a label's rows are points while each has a pixel and they fit max_points; else the
        # rows counted per bucket (as a backend that reduced them counted them)
        counted = label is not None and (not yps or line_bucketed or over)
        if counted:
            fy, what, yps = "count", "rows", []
            bars = choose.bar_positions(faceted=faceted)
            bucketed = unit is None and (line_bucketed or data[fx].nunique() > bars)
        elif label is not None:
            bucketed = False  # every row a point: no more than max_points, each at a pixel
        else:
            bucketed = line_bucketed
        shared, codes = True, unit_codes(data, fx, unit)  # do rows share a point? their codes
        if label is not None and not counted:
            shared = False
        elif not bucketed and how is None and not counted:
            distinct, codes = distinct_rows(data, keys, codes)
            shared = distinct < len(data)
        if bucketed:
            if coded is not None and not counted:  # the codes the label was asked with
                series_n, known, seconds, found = coded
            else:
                series_n, known = distinct_rows(data, series) if series else (1, {})
                if counted:
                    target = choose.bar_positions(faceted=faceted)
                else:
                    target = choose.line_positions(
                        max_points=self.p.max_points, series=series_n, faceted=faceted
                    )
                seconds = span_bucket_seconds(data[fx], target)
                found = bucket_codes(data[fx], seconds, floor=True)
            del coded
            rows = len(data)
            aggregate = "count" if counted else how or "mean"
            # each date's bucket counted by integer arithmetic, the dates themselves not floored
            buckets, found = found, None  # (one name holds them: handed over below)
            given = dict(known) if buckets is None else {**known, fx: buckets}
            del known, buckets  # handed over: the reduction lets each key's codes go when used
            reduced = reduce_by_one_key(data, keys, fy, aggregate, given) if fx in given else None
            if reduced is None:  # dates the arithmetic does not floor: pandas floors them
                data = data.assign(**{fx: data[fx].dt.floor(f"{seconds}s")})
                given.pop(fx, None)  # the floored dates get codes of their own
                reduced = reduce_frame(data, keys, fy, aggregate, given)  # codes still held: reused
            data = reduced
            period = f"{choose.bucket_name(seconds)} bucket"
            self.p.reduction = {"bucket_seconds": seconds, "aggregate": aggregate}
            if counted:
                why = f"at most one bar per {choose.BAR_PIXELS} pixels of the chart's width"
            elif rows > self.p.max_points:
                why = over_max_points(self.p.max_points)
            else:
                why = f"more time points than the chart's {width} pixels"
            points = len(data)
            if counted and cp is not None:  # the bars, each a stack of the label's counts
                points = data[fx].nunique()
                drawn_as = stacked_counts(points, period, cp.name)
            else:
                series_name = cp.name if cp else None
                drawn_as = points_per_bucket(points, aggregate, what, seconds, series_name)
            self.p.notes.append(bucketed_note(xp.name, rows, points, seconds, drawn_as, why,
                                              bars=counted and cp is not None))  # fmt: skip
        elif counted:
            aggregate = "count"
            data = reduce_frame(data, keys, fy, aggregate, codes)
        elif shared:
            aggregate = how or "mean"
            if how is None:
                share = f"{unit} of {xp.name}" if unit else xp.name
                self.p.notes.append(shared_note(xp.name, share, cp.name if cp else None, what))
            if cp is None and fp is None and not multi:
                self.p.refusing._note_unsplit(xp)
            data = reduce_frame(data, keys, fy, aggregate, codes)  # the same rows: codes reused
        else:
            if not data[fx].is_monotonic_increasing:  # already in order: a stable sort keeps it
                data = data.sort_values(fx, kind="stable")
            data = data.reset_index(drop=True)
        return self._drawn(xp, yps, drawn_ys, cp, fp, data, fy, what, aggregate, period,
                           label, counted=counted, multi=multi)  # fmt: skip

    def _drawn(
        self,
        xp: ColumnProfile,
        yps: list[ColumnProfile],
        drawn_ys: list[ColumnProfile],
        cp: ColumnProfile | None,
        fp: ColumnProfile | None,
        data: pd.DataFrame,
        fy: str,
        what: str,
        aggregate: str | None,
        period: str,
        label: tuple[int, int] | None,
        *,
        counted: bool,
        multi: bool,
    ) -> Plan:
        """The line's encodings, reason and title, from its data (the rows, or their groups)."""
        how = self.p.opts.aggregate
        fx = self.p.fields[xp.name]
        if self.p.opts.sort is not None:
            self.p._say(
                "option-ignored",
                f"sort={_show_sort(self.p.opts.sort)} orders categories; a line over time is "
                "ordered by its dates.",
            )
        one_date = data[fx].nunique() == 1
        yt = "rows" if not yps else (f"{aggregate} of {what}" if aggregate else what)
        enc = {
            "x": self.p.writing._enc("x", xp),
            "y": self.p.writing._y_enc("y", yps, xp, aggregate),
        }
        if cp is not None:
            enc["color"] = self.p.writing._enc("color", cp)
        elif multi:
            enc["color"] = self.p.writing._series_enc(yps)
        if fp is not None:
            enc["facet"] = self.p.writing._enc("facet", fp)
        self.p.drawn = {"x": xp.name, "y": _y_pick(drawn_ys), "color": cp.name if cp else None,
                      "facet": fp.name if fp else None, "aggregate": how}  # fmt: skip
        what_drawn = "bars for its one date" if one_date else "a line over time"
        if aggregate == "count":
            what_drawn = f"{what_drawn} of the rows counted per {period}"
        elif aggregate is not None:
            what_drawn = f"{what_drawn} of the {aggregate} per {period}"
        mark = "bar" if one_date else "line"
        if multi:
            said = f"{_join([m.name for m in yps])} are declared number"
            line = "bars" if one_date else "one line"
            reason = f"{_said(xp, True)} and {said}: {what_drawn}, {line} per measure."
        elif label is not None and cp is not None:
            mark = "bar" if counted else "point"
            reason = self._label_reason(xp, drawn_ys, cp, label, counted=counted, period=period)
        else:
            series_text = (
                f"; {cp.name} ({_said(cp)}, {cp.distinct} values) colors one line per series"
                if cp is not None and not one_date
                else ""
            )
            ysaid = f" and {_said(yps[0], True)}" if yps else ""
            reason = f"{_said(xp, True)}{ysaid}: {what_drawn}{series_text}."
        if fp is not None:
            reason = f"{reason[:-1]}; one small chart per {fp.name}."
        data = self.p.points._log_check(data, fy, what)
        return self.p.writing._chart(mark, reason, enc, data, title=f"{yt} over {xp.name}")

    def _label_reason(
        self,
        xp: ColumnProfile,
        yps: list[ColumnProfile],
        cp: ColumnProfile,
        label: tuple[int, int],
        *,
        counted: bool,
        period: str,
    ) -> str:
        """Why a category that is not an entity colors points, or stacks counted rows, rather
        than drawing a line per value."""
        covered, points = label
        not_entity = (
            f"{cp.name} ({_said(cp)}, {cp.distinct} values) is a label of single rows, not "
            f"a series: one of its values is found at {covered:,} of the {points:,} points of "
            f"{xp.name}, so a line per {cp.name} would join points far apart"
        )
        if counted:
            return (
                f"{_said(xp, True)}; {not_entity}. The rows are counted per {period}, "
                f"stacked by {cp.name}."
            )
        return (
            f"{_said(xp, True)} and {_said(yps[0], True)}; {not_entity}. Each row is "
            f"a point, colored by {cp.name}."
        )

    def _head_varies(
        self,
        xp: ColumnProfile,
        yps: list[ColumnProfile],
        cp: ColumnProfile | None,
        fp: ColumnProfile | None,
    ) -> bool:
        """True when the first rows alone, cleaned as ``_line`` cleans every row, hold two
        series: rows are kept or left out one by one, so the whole line holds them too.

        Lets a probe skip preparing every row. False when that cannot be told so (several
        measures: their rows are dropped after melting; no series; one series in the head).
        """
        if len(self.p.frame) <= _HEAD or len(yps) > 1 or (cp is None and fp is None):
            return False
        head = _Planner(self.p.frame.iloc[:_HEAD], self.p.profiles, self.p.max_points, self.p.opts,
                        self.p.cands)  # fmt: skip
        try:
            data = head.cleaning._used(("x", xp), yps, "y", cp, fp)
        except _NothingToDraw:
            return False
        return any(_varies(data[head.fields[q.name]]) for q in (cp, fp) if q is not None)

    def _line_varies(
        self, data: pd.DataFrame, fx: str, series: list[str], *, faceted: bool
    ) -> bool:
        """True when the line surely draws more than one point (its rows are not aggregated).

        Two series, or a first and a last date in different buckets, are two points. False
        when that cannot be told this cheaply; the probe then plans the chart in full.
        """
        varies = [_varies(data[k]) for k in series]
        if any(varies):
            return True
        if None in varies:  # unsure how many series: the bucket depends on it
            return False
        x = data[fx]
        ends = pd.Series([x.min(), x.max()], dtype=x.dtype)
        width = choose.FACET_WIDTH if faceted else choose.CHART_WIDTH
        if self.p.opts.time_unit is not None:
            ends = floor_to_unit(ends, self.p.opts.time_unit)
        elif len(data) > self.p.max_points or (len(data) > width and x.nunique() > width):
            # one series (or none): the bucket _line picks
            positions = choose.line_positions(max_points=self.p.max_points, series=1,
                                              faceted=faceted)  # fmt: skip
            ends = ends.dt.floor(f"{span_bucket_seconds(x, positions)}s")
        return bool(ends.iloc[0] != ends.iloc[1])


class _GroupedLines:
    """A line from the groups of the backend that holds its rows (``Whole.grouped``), drawn
    for the planner ``p``: the bucket, the series and whether the color is a label are
    chosen by the rules ``_Lines`` follows over rows in memory (``choose``), from the facts
    and groups the backend counts (``chartkit.plan.groups.Grouped``); the encodings, reason
    and title are ``_Lines._drawn``'s."""

    def __init__(self, planner: _Planner) -> None:
        self.p = planner

    def _line(
        self,
        xp: ColumnProfile,
        yps: list[ColumnProfile],
        cp: ColumnProfile | None,
        fp: ColumnProfile | None,
    ) -> Plan:
        p = self.p
        grouped = p.whole.grouped
        assert grouped is not None
        how, unit = p.opts.aggregate, p.opts.time_unit
        multi, faceted = len(yps) > 1, fp is not None
        ms = [m.name for m in yps]
        split = [q.name for q in (cp, fp) if q is not None]
        for q in (xp, *yps, cp, fp):
            if q is not None and q.name not in p.fields:
                p.fields[q.name] = _safe_field(q.name, set(p.fields.values()))
        p.cleaning._said([xp.name, *ms, *split], [(xp.name, "x"), *((m, "y") for m in ms)],
                         ms if multi else ())  # fmt: skip
        facts = grouped.line_facts(xp.name, ms, split)
        rows = sum(facts.values) if multi else facts.rows  # the points the rows make
        if not facts.rows:
            p.cleaning._nothing(f"No row holds a value of {xp.name}.")
        span = (pd.Timestamp(facts.hi) - pd.Timestamp(facts.lo)).total_seconds()
        width = choose.FACET_WIDTH if faceted else choose.CHART_WIDTH
        over = rows > p.max_points
        if cp is not None and not multi and how in (None, "count") and not over and p.whole.rows:
            # a color that may be a label of single rows, whose rows fit max_points: they are
            # fetched and planned as memory plans them (a label's rows are points there)
            fetched = p.whole.rows.line(xp.name, ms, split)
            return p._of_rows(fetched, lambda sub: sub.lines._line(
                sub.profiles[xp.name], [sub.profiles[m.name] for m in yps], sub._own(cp),
                sub._own(fp), auto_color=False,
            ))  # fmt: skip
        over_width = (
            unit is None and not over and rows > width
            and grouped.distinct_times(xp.name, ms, split) > width
        )  # fmt: skip
        line_bucketed = unit is None and (over or over_width)
        n_series = (len(yps) if multi else 1) * max(1, facts.series)
        line_at = choose.bucket_seconds(span, choose.line_positions(
            max_points=p.max_points, series=n_series, faceted=faceted))  # fmt: skip
        asked = "count" if not yps else how or "mean"
        aggregate: str | None = asked
        label: tuple[int, int] | None = None
        if cp is not None and not multi and how in (None, "count"):
            # a label of single rows, not a series: found at too few of the line's points (each
            # bucket, when the line is bucketed), counted over the pairs of time and color
            at = line_at if line_bucketed else 0
            pairs = grouped.line(xp.name, ms, split, asked, at, unit)
            valued = pairs.frame[np.asarray(pairs.rows[0]) > 0]  # (groups of rows placed)
            label = line_label(valued[xp.name], valued[cp.name])
        counted = label is not None  # (a label's rows as points fit max_points: fetched above)
        drawn_ys = yps
        fy, what = p.writing._measure(yps)
        if counted:
            fy, what, yps, asked = "count", "rows", [], "count"
            aggregate = asked
            bars = choose.bar_positions(faceted=faceted)
            bucketed = unit is None and (
                line_bucketed or grouped.distinct_times(xp.name, ms, split) > bars
            )
            seconds = choose.bucket_seconds(span, bars) if bucketed else 0
        else:
            bucketed = line_bucketed
            seconds = line_at if bucketed else 0
        # (a label's rows counted are those a line of its measure places: asked with it)
        got = grouped.line(xp.name, ms if counted else [m.name for m in yps], split, asked,
                           seconds, unit)  # fmt: skip
        data = self._data(xp, yps, cp, fp, got)
        shared = counted or how is not None or (ROWS in data.columns and bool(
            (data[ROWS] > 1).any()
        ))
        period = unit or xp.name
        if bucketed:
            period = f"{choose.bucket_name(seconds)} bucket"
            p.reduction = {"bucket_seconds": seconds, "aggregate": aggregate}
            if counted:
                why = f"at most one bar per {choose.BAR_PIXELS} pixels of the chart's width"
            elif over:
                why = over_max_points(p.max_points)
            else:
                why = f"more time points than the chart's {width} pixels"
            points = len(data)
            if counted and cp is not None:  # the bars, each a stack of the label's counts
                points = data[p.fields[xp.name]].nunique()
                drawn_as = stacked_counts(points, period, cp.name)
            else:
                drawn_as = points_per_bucket(points, asked, what, seconds,
                                             cp.name if cp else None)  # fmt: skip
            p.notes.append(bucketed_note(xp.name, rows, points, seconds, drawn_as, why,
                                         bars=counted and cp is not None))  # fmt: skip
        elif not counted and shared:
            if how is None:
                share = f"{unit} of {xp.name}" if unit else xp.name
                p.notes.append(shared_note(xp.name, share, cp.name if cp else None, what))
            if cp is None and fp is None and not multi:
                p.refusing._note_unsplit(xp)
        elif not counted:
            aggregate = None  # each point one row's value: nothing aggregated, none named
        if yps:
            order = [p.fields[xp.name]] + ([p.fields[cp.name]] if cp is not None else [])
            order += [MEASURE] if multi else []
            order += [p.fields[fp.name]] if fp is not None else []
            data = _laid_out(data, p.fields[xp.name], fy, aggregate is not None, order)
        return p.lines._drawn(xp, yps, drawn_ys, cp, fp, data, fy, what, aggregate, period,
                              label, counted=counted, multi=multi)  # fmt: skip

    def _data(
        self,
        xp: ColumnProfile,
        yps: list[ColumnProfile],
        cp: ColumnProfile | None,
        fp: ColumnProfile | None,
        got: BarGroups,
    ) -> pd.DataFrame:
        """The backend's groups laid out as ``_Lines`` lays out the rows it reduced: the time
        and series in their fields (prepared as the rows' are), then the aggregate in the
        measure's field (``VALUE`` beside ``MEASURE`` for several) and the rows behind it in
        ``ROWS``; or the rows counted, ``count``; in the order of the keys."""
        f = self.p.fields
        frame = got.frame
        keys: dict[str, Any] = {}
        used: tuple[tuple[Channel, ColumnProfile | None], ...] = (
            ("x", xp), ("color", cp), ("facet", fp),
        )  # fmt: skip
        for channel, q in used:
            if q is not None:
                keys[f[q.name]] = self.p.cleaning._values(channel, q, frame[q.name])[0].to_numpy()
        order = [f[xp.name]] + ([f[cp.name]] if cp is not None else [])
        order += [MEASURE] if len(yps) > 1 else []
        order += [f[fp.name]] if fp is not None else []
        if not yps:
            counted = {**keys, "count": np.asarray(got.rows[0], dtype=np.int64)}
            return pd.DataFrame(counted)
        parts = []
        for i, m in enumerate(yps):
            held = np.asarray(got.rows[i], dtype=np.int64)
            kept = held > 0  # (a group holding none of this measure has no point of it)
            part: dict[str, Any] = {k: v[kept] for k, v in keys.items()}
            if len(yps) > 1:
                part[MEASURE] = pd.Series([m.name] * int(kept.sum()), dtype="str")
            name = VALUE if len(yps) > 1 else f[m.name]
            part[name] = frame[m.name].to_numpy(dtype=float)[kept]
            part[ROWS] = held[kept]
            parts.append(pd.DataFrame(part))
        data = pd.concat(parts, ignore_index=True) if len(parts) > 1 else parts[0]
        if len(parts) > 1:
            data = data.sort_values(order, kind="stable", na_position="last")
        return data.reset_index(drop=True)


class _Bars:
    """Bars: a measure per category, a breakdown stacked by a second category, count bars,
    cut to the top categories and ordered, drawn for the planner ``p``."""

    def __init__(self, planner: _Planner) -> None:
        self.p = planner

    def _breakdown_of(
        self,
        chart: str,
        x: str | None,
        ys: tuple[str, ...] | None,
        color: str | None,
        facet: str | None,
    ) -> ColumnProfile | None:
        """The other key when the default bars are of a breakdown (``choose.breakdown_key``),
        counted on the rows: none picked, one measure, at most ``max_points`` rows."""
        if chart != "bars" or x is None or not ys or len(ys) != 1 or color or facet:
            return None
        if self.p.opts.aggregate is not None or len(self.p.frame) > self.p.max_points:
            return None
        if self.p.whole.grouped is not None:  # (the rows stayed in a backend: over max_points)
            return None
        xp = self.p.profiles[x]
        if self.p.profiles[ys[0]].violation is not None:
            return None

        facts = self.p.whole.facts or FrameFacts(self.p.frame)  # every row's, not the frame's
        return choose.breakdown_key(
            xp, self.p.profiles.values(), lambda name: facts.unique_pairs(x, name)
        )

    def _breakdown(self, xp: ColumnProfile, yp: ColumnProfile, kp: ColumnProfile) -> Plan:
        """Bars of the total of ``yp`` per ``xp``, stacked by ``kp``: rows that are a
        breakdown (one row per ``xp`` and ``kp``) are summed, not averaged."""
        data = self.p.cleaning._used(("x", xp), [yp], "y", kp, None)
        fx, fy = self.p.fields[xp.name], self.p.fields[yp.name]
        self.p.drawn = {"x": xp.name, "y": yp.name, "color": kp.name, "aggregate": "sum"}
        ranking = data.groupby(fx, sort=False, dropna=False)[fy].sum()
        ranking = ranking.sort_values(ascending=False, kind="stable")
        data, order = self._top_bars(data, xp, ranking, f"with the highest sum of {yp.name}")
        enc = {
            "x": self.p.writing._enc("x", xp),
            "y": self.p.writing._y_enc("y", [yp], xp, "sum"),
            "color": self.p.writing._enc("color", kp),
        }
        reason = (
            f"{_said(xp, True)}, {_said(kp, True)} and {_said(yp, True)}, one "
            f"row per {xp.name} and {kp.name}: a breakdown, so bars of the total of {yp.name} "
            f"per {xp.name}, stacked by {kp.name}."
        )
        data = self.p.points._log_check(data, fy, yp.name)
        return self.p.writing._chart(
            "bar", reason, enc, data, title=f"sum of {yp.name} by {xp.name}", order=tuple(order)
        )

    def _top_bars(
        self,
        data: pd.DataFrame,
        xp: ColumnProfile,
        ranking: pd.Series,
        ranked: str,
        categories: int = 0,
    ) -> tuple[pd.DataFrame, list[Any]]:
        """The bars' rows cut to the ``MAX_BAR_CATEGORIES`` first of ``ranking`` (said as a
        ``top`` note, ``ranked`` naming the order), sorted in the bars' order, and that order;
        ``categories`` are x's over every row when only the top groups were counted."""
        fx = self.p.fields[xp.name]
        categories = max(len(ranking), categories)
        if categories > MAX_BAR_CATEGORIES:
            self.p.reduction = {"top": MAX_BAR_CATEGORIES}
            self.p.notes.append(top_note(xp.name, categories, MAX_BAR_CATEGORIES, ranked))
            ranking = ranking.head(MAX_BAR_CATEGORIES)
            data = data[data[fx].isin(ranking.index)]
        order = self._order(xp, list(ranking.index))
        position = {v: i for i, v in enumerate(order)}
        data = data.sort_values(
            fx,
            key=lambda c: c.map(lambda v: position.get(None if _missing(v) else v, len(position))),
            kind="stable",
        ).reset_index(drop=True)
        return data, order

    def _shares_positions(self, x: str, group: str) -> bool:
        """Whether the groups of ``group`` sit on the same x positions (``choose``'s rule, on
        the counts of distinct x values per group and over all the rows: asked of the
        backend that holds them, ``Whole.facts``, or of the frame when it is all of them)."""
        facts = self.p.whole.facts or FrameFacts(self.p.frame)
        return choose.shares_positions(*facts.positions(x, group))

    def _bars(
        self,
        xp: ColumnProfile,
        yps: list[ColumnProfile],
        fp: ColumnProfile | None,
        *,
        horizontal_ok: bool,
    ) -> Plan:
        multi = len(yps) > 1
        horizontal = horizontal_ok and not multi and fp is None and xp.distinct > HORIZONTAL_OVER
        cat, val = _axes(horizontal)
        how = self.p.opts.aggregate
        categories = 0  # x's categories over every row, when a backend kept the top groups
        aggregate: str | None
        if self.p.whole.grouped is not None:
            data, aggregate, categories = self._backend_bars(xp, yps, fp, val)
            fx = self.p.fields[xp.name]
            fy, what = self.p.writing._measure(yps)
        else:
            data = self.p.cleaning._used((cat, xp), yps, val, None, fp)
            if multi:
                data = self.p.cleaning._melt(data, yps)
            fx = self.p.fields[xp.name]
            fy, what = self.p.writing._measure(yps)
            keys = [fx] + ([MEASURE] if multi else []) + ([self.p.fields[fp.name]] if fp else [])
            if self.p.probe and any(_varies(data[k]) for k in keys):  # a bar per key, two or more
                self.p.drawn = {"x": xp.name, "y": _y_pick(yps),
                                "facet": fp.name if fp else None, "aggregate": how}  # fmt: skip
                return self.p.writing._proven("bar")
            shared, codes = True, None  # do rows share a bar? the keys' codes, once counted
            if yps and how is None:
                distinct, codes = distinct_rows(data, keys)
                shared = distinct < len(data)
            if not yps:
                aggregate = "count"
                data = reduce_frame(data, keys, fy, "count")
            elif not shared:
                aggregate = None  # each category holds one row: nothing to aggregate, none named
            else:
                aggregate = how or "mean"
                data = reduce_frame(data, keys, fy, aggregate, codes)  # same rows: codes reused
        ranking = data.groupby(fx, sort=False, dropna=False)[fy].sum()
        if ranking.duplicated().any():  # ties ranked by category, as a backend groups them
            with contextlib.suppress(TypeError):  # (categories of mixed types: as they come)
                ranking = ranking.sort_index(kind="stable", na_position="last")
        ranking = ranking.sort_values(ascending=False, kind="stable")
        ranked = (
            "most frequent"
            if not yps
            else f"with the highest {f'{aggregate} of ' if aggregate else ''}{what}"
        )
        data, order = self._top_bars(data, xp, ranking, ranked, categories)
        yt = "rows" if not yps else (f"{aggregate} of {what}" if aggregate else what)
        enc: dict[str, Encoding] = {
            cat: self.p.writing._enc(cat, xp),
            val: self.p.writing._y_enc(val, yps, xp, aggregate),
        }
        if multi:
            enc["color"] = self.p.writing._series_enc(yps)
        if fp is not None:
            enc["facet"] = self.p.writing._enc("facet", fp)
        self.p.drawn = {"x": xp.name, "y": _y_pick(yps), "facet": fp.name if fp else None,
                      "aggregate": how}  # fmt: skip
        shape = ", horizontal and sorted" if horizontal else ""
        if not yps:
            if any(q.is_measure for q in self.p.profiles.values()) or how == "count":
                reason = (
                    f"{_said(xp, True)} and aggregate='count': bars counting the rows of "
                    f"each value{shape}."
                )
            else:
                reason = (
                    f"No column is declared number, and you picked {xp.name} "
                    f"({_said(xp)}): bars counting the rows of each value."
                )
        elif multi:
            how_text = f"the {aggregate}" if aggregate else "the value"
            reason = (
                f"{_said(xp, True)} and {_join([m.name for m in yps])} are declared "
                f"number: {how_text} of each measure per {xp.name}, one bar per measure."
            )
        else:
            how_text = (
                f"bars of the {aggregate} per {xp.name}" if aggregate else f"a bar per {xp.name}"
            )
            reason = f"{_said(xp, True)} and {_said(yps[0], True)}: {how_text}{shape}."
        if fp is not None:
            reason = f"{reason[:-1]}; one small chart per {fp.name}."
        data = self.p.points._log_check(data, fy, what)
        title = f"{yt} by {xp.name}"
        return self.p.writing._chart(
            "bar", reason, enc, data, horizontal=horizontal, title=title, order=tuple(order)
        )

    def _backend_bars(
        self, xp: ColumnProfile, yps: list[ColumnProfile], fp: ColumnProfile | None, val: Channel
    ) -> tuple[pd.DataFrame, str | None, int]:
        """The bars' data from the groups of the backend that holds the rows
        (``Whole.grouped``), laid out as the rows cleaned here give it — one row per key (and
        measure, ``MEASURE``), the aggregate in the measure's field, the rows behind it in
        ``ROWS`` when they share a bar — with the aggregate named (None: every bar is one
        row's value) and x's categories over every row (0: every group is here)."""
        assert self.p.whole.grouped is not None
        f = self.p.fields
        for q in (xp, *yps, fp):
            if q is not None and q.name not in f:
                f[q.name] = _safe_field(q.name, set(f.values()))
        names = [xp.name] + ([fp.name] if fp is not None else [])
        ms = [m.name for m in yps]
        self.p.cleaning._said([xp.name, *ms, *names[1:]], [(m, val) for m in ms],
                              ms if len(ms) > 1 else ())  # fmt: skip
        how = self.p.opts.aggregate
        asked = "count" if not yps else how or "mean"
        got = self.p.whole.grouped.bars(names, ms, asked)
        if got.frame.empty:
            self.p.cleaning._nothing(f"No row holds a value of {name_list(names)} to draw.")
        keys = {f[n]: got.frame[n].to_numpy() for n in names}
        categories = got.categories or 0
        if not yps:
            counted = pd.DataFrame({**keys, "count": np.asarray(got.rows[0], dtype=np.int64)})
            return counted, asked, categories
        # do rows share a bar? (an aggregate picked is named whatever the rows)
        shared = how is not None or any(n > 1 for rows in got.rows for n in rows)
        aggregate = asked if shared else None
        if len(yps) == 1:
            m = yps[0]
            data = pd.DataFrame({**keys, f[m.name]: got.frame[m.name].to_numpy(dtype=float)})
            if shared:
                data[ROWS] = np.asarray(got.rows[0], dtype=np.int64)
            return _laid_out(data, f[xp.name], f[m.name], shared), aggregate, categories
        parts = []  # one row per key and measure held (a key holding none of it has no bar)
        for i, m in enumerate(yps):
            rows = np.asarray(got.rows[i], dtype=np.int64)
            held = rows > 0
            part: dict[str, Any] = {k: v[held] for k, v in keys.items()}
            # (a Series of text, as melted: numpy's text arrays cut a name's trailing NULs)
            part[MEASURE] = pd.Series([m.name] * int(held.sum()), dtype="str")
            part[VALUE] = got.frame[m.name].to_numpy(dtype=float)[held]
            part[ROWS] = rows[held]
            parts.append(pd.DataFrame(part))
        data = pd.concat(parts, ignore_index=True)
        ordered = [f[xp.name], MEASURE] + ([f[fp.name]] if fp is not None else [])
        if shared:  # in the order the groups of the rows cleaned here take
            data = data.sort_values(ordered, kind="stable", na_position="last")
        data = _laid_out(data, f[xp.name], VALUE, shared, ordered)
        return data.reset_index(drop=True), aggregate, categories

    def _order(self, xp: ColumnProfile, by_value: list[Any]) -> list[Any]:
        """The category order: by the measure (``-y``, the default), by category, or listed.

        The missing category (a nullable category's nulls) is ``None`` where it ranks by the
        measure, and last by category or in a listed order (it has no name to sort or list).
        """
        sort = self.p.opts.sort
        ranked = [  # Python values: Vega-Lite takes JSON, never numpy's bool_
            None if _missing(v) else v.item() if isinstance(v, np.generic) else v
            for v in by_value
        ]
        present = [v for v in ranked if v is not None]
        gap = [None] if len(present) < len(ranked) else []
        if sort is None or sort == "-y":
            return ranked
        if sort == "y":
            return ranked[::-1]
        if sort in ("x", "-x"):
            ordered = sorted(present, key=_category_key)
            return (ordered[::-1] if sort == "-x" else ordered) + gap
        assert isinstance(sort, tuple)
        listed = [v for v in sort if v in set(present)]
        absent = [v for v in sort if v not in set(present)]
        if absent:
            self.p._say(
                "sort-absent",
                f"sort lists {_join([_short(v) for v in absent[:5]])}, which no bar of "
                f"{xp.name} holds.",
                xp.name, values=len(absent),
            )  # fmt: skip
        return listed + [v for v in present if v not in set(listed)] + gap


class _Points:
    """Points: a scatter plot (a binned heatmap over ``max_points`` rows), a histogram, and
    the log scales a scatter's axes may take, drawn for the planner ``p``."""

    def __init__(self, planner: _Planner) -> None:
        self.p = planner

    def _log_check(self, data: pd.DataFrame, fy: str, what: str) -> pd.DataFrame:
        """Refuse a log scale, with the reason, when a drawn value is zero or negative."""
        if self.p.opts.scale != "log" or fy not in data.columns:
            return data
        values = data[fy].to_numpy(dtype=float)
        bad = values <= 0
        if bad.any():
            self.p.log_refused = True
            self.p._say(
                "log-refused",
                f"scale='log' is refused: {int(bad.sum()):,} of the {len(values):,} values drawn "
                f"for {what} are zero or negative (first: {_short(values[bad][0])}), which a log "
                "scale cannot place; the axis stays linear.",
                None, values=int(bad.sum()), of=len(values),
            )  # fmt: skip
        return data

    def _log_axes(self, data: pd.DataFrame, axes: Sequence[tuple[str, ColumnProfile, str]]) -> None:
        """Put a scatter's axis on a log scale when ``scale`` was not picked and its values,
        all positive, span ``LOG_ORDERS`` powers of ten or more (from their counted span) — or
        when the chart these rows were drilled from did (``log_columns``) and they allow it."""
        if self.p.opts.scale_picked or data.empty:
            return
        for channel, q, f in axes:
            values = data[f].to_numpy(dtype=float)
            lo, hi = float(np.nanmin(values)), float(np.nanmax(values))
            orders = choose.log_axis(lo, hi)
            if orders is None and q.name in self.p.opts.log_columns and lo > 0:
                self.p.log_axes.append(channel)  # (a drilled chart's values are the parent's)
                self.p._say(
                    "log-scale",
                    f"{q.name} is on a log scale, as in the chart these rows were drilled from "
                    f"({lo:,g} to {hi:,g} here); scale='linear' draws it linear.",
                    q.name, values=len(values),
                )  # fmt: skip
            if orders is None:
                continue
            self.p.log_axes.append(channel)
            self.p._say(
                "log-scale",
                f"{q.name} spans {lo:,g} to {hi:,g} ({orders:g} powers of ten, every "
                "value above zero): its axis is on a log scale, so the small values do not sit "
                "at zero; scale='linear' draws it linear.",
                q.name, values=len(values),
            )  # fmt: skip

    def _scatter(
        self,
        xp: ColumnProfile,
        yp: ColumnProfile,
        cp: ColumnProfile | None,
        fp: ColumnProfile | None,
        *,
        auto_color: bool,
    ) -> Plan:
        if cp is None and auto_color:
            cp = self.p.refusing._auto_color({xp.name, yp.name, fp.name if fp else None})
        data: pd.DataFrame | None = None
        if self.p.whole.counted is None:
            data = self.p.cleaning._used(("x", xp), [yp], "y", cp, fp)
        counted = self._counted_points(xp, yp, cp, fp, data)
        fetch = self.p.whole.rows
        if data is None and fetch is not None:  # a backend's rows: fetched when they fit
            sx, sy = counted.held(xp.name, enough=0), counted.held(yp.name, enough=0)
            rows = sx.rows if sx is not None and sy is not None else 0
            if self.p.probe and 1 < rows <= self.p.max_points:
                return self.p.writing._proven("point")  # each row a point
            if 0 < rows <= self.p.max_points:
                beside = [q.name for q in (cp, fp) if q is not None]
                fetched = fetch.points(xp.name, yp.name, beside)
                return self.p._of_rows(fetched, lambda sub: sub.points._scatter(
                    sub.profiles[xp.name], sub.profiles[yp.name], sub._own(cp), sub._own(fp),
                    auto_color=False,
                ))  # fmt: skip
        fx, fy = self.p.fields[xp.name], self.p.fields[yp.name]
        said = f"{_said(xp, True)} and {_said(yp, True)}"
        if self.p.opts.aggregate is not None:
            self.p._say(
                "option-ignored",
                f"aggregate={self.p.opts.aggregate!r} is not applied: a scatter plot draws one "
                "point per row.",
            )
        self.p.drawn = {"x": xp.name, "y": yp.name, "color": cp.name if cp else None,
                      "facet": fp.name if fp else None}  # fmt: skip
        sx, sy = counted.held(xp.name, enough=0), counted.held(yp.name, enough=0)
        if sx is None or sy is None:  # (a backend's rows: in memory, _used said so)
            self.p.cleaning._nothing(f"No row holds a value of both {xp.name} and {yp.name}.")
        rows = sx.rows  # the rows the points stand for
        if data is None and rows == 1:  # a backend's one point: where both spans are
            data = pd.DataFrame({fx: [sx.lo], fy: [sy.lo]})
            for q in (cp, fp):
                if q is not None:
                    data[self.p.fields[q.name]] = None
        if self.p.probe and rows > self.p.max_points and (sx.lo != sx.hi or sy.lo != sy.hi):
            # the lowest and the highest fall in different bins
            return self.p.writing._proven("rect")
        if rows > self.p.max_points:
            bins = cells_per_axis(self.p.max_points)
            xe, ye = cell_edges(sx.lo, sx.hi, bins), cell_edges(sy.lo, sy.hi, bins)
            (ix, iy), held = counted.per_bin((xp.name, yp.name), (xe, ye))
            ix, iy = np.asarray(ix, dtype=np.intp), np.asarray(iy, dtype=np.intp)
            data = pd.DataFrame(
                {
                    fx: xe[ix],
                    f"{fx}_end": xe[ix + 1],
                    fy: ye[iy],
                    f"{fy}_end": ye[iy + 1],
                    "count": np.asarray(held, dtype=int),
                }
            )
            lost = [q.name for q in (cp, fp) if q is not None]
            self.p.reduction = {"bins": (bins, bins), "aggregate": "count"}
            self.p._say(
                "heatmap",
                f"{rows:,} rows are drawn as a {bins}×{bins} heatmap of counts (over "
                f"max_points={self.p.max_points:,} rows)"
                + (f"; {_join(lost)} is not shown in a heatmap." if lost else "."),
                None, rows=rows, bins=bins,
            )  # fmt: skip
            enc = {
                "x": self.p.writing._enc("x", xp, bin=True),
                "y": self.p.writing._enc("y", yp, bin=True),
                "color": _count(xp),
            }
            return self.p.writing._chart(
                "rect",
                f"{said}: a binned heatmap, as there are {rows:,} rows.",
                enc,
                data,
                title=f"{yp.name} against {xp.name}",
            )
        if data is None:
            raise ChartkitError(
                f"the backend's counts stand for {rows:,} rows, but a scatter of at most "
                f"max_points={self.p.max_points:,} draws the rows themselves; please report this"
            )
        enc = {"x": self.p.writing._enc("x", xp), "y": self.p.writing._enc("y", yp)}
        if cp is not None:
            enc["color"] = self.p.writing._enc("color", cp)
        if fp is not None:
            enc["facet"] = self.p.writing._enc("facet", fp)
        colored = f"; {cp.name} ({_said(cp)}) as color" if cp is not None else ""
        faceted = f"; one small chart per {fp.name}" if fp is not None else ""
        data = self._log_check(data, fy, yp.name)
        self._log_axes(data, (("x", xp, fx), ("y", yp, fy)))
        return self.p.writing._chart(
            "point",
            f"{said}: a scatter plot{colored}{faceted}.",
            enc,
            data,
            title=f"{yp.name} against {xp.name}",
        )

    def _histogram(self, q: ColumnProfile) -> Plan:
        counted = self._counted(q)
        f = self.p.fields[q.name]
        self.p.drawn = {"x": q.name}
        span = counted.held(q.name, enough=COUNT_BARS_UNDER)
        if span is None:  # (a backend's rows: in memory, _clean said so)
            self.p.cleaning._nothing(f"No row holds a value of {q.name}.")
        if self.p.probe and span.lo != span.hi:
            return self.p.writing._proven("bar")  # two values: two count bars, or ten bins
        if self.p.opts.scale == "log":
            self.p._say(
                "option-ignored", "scale='log' is not applied: a histogram's bins are linear."
            )
        only = " and is the only measure" if self._only_measure(q) else ""
        if span.distinct < COUNT_BARS_UNDER:
            values, rows = counted.per_value(q.name)
            data = pd.DataFrame({f: np.asarray(values, dtype=float),
                                 "count": np.asarray(rows, dtype=int)})  # fmt: skip
            enc = {"x": self.p.writing._enc("x", q), "y": _count(q)}
            reason = (
                f"{_said(q, True)}{only}, with {span.distinct} distinct "
                f"{'value' if span.distinct == 1 else 'values'}: a bar "
                "counting the rows of each."
            )
            return self.p.writing._chart("bar", reason, enc, data, title=f"rows by {q.name}")
        edges = histogram_edges(span.lo, span.hi, HISTOGRAM_BINS)
        (at,), rows = counted.per_bin((q.name,), (edges,))
        binned = np.zeros(len(edges) - 1, dtype=int)
        binned[np.asarray(at, dtype=np.intp)] = rows
        data = pd.DataFrame({f: edges[:-1], f"{f}_end": edges[1:], "count": binned})
        enc = {
            "x": self.p.writing._enc("x", q, bin=True),
            "y": _count(q),
        }
        reason = f"{_said(q, True)}{only}: a histogram of its values in {HISTOGRAM_BINS} bins."

        return self.p.writing._chart("bar", reason, enc, data, title=f"distribution of {q.name}")

    def _counted(self, q: ColumnProfile) -> Counted:
        """The counts of the rows a histogram places: the backend's, when the rows stay
        there (``Whole.counted``: the frame holds none of them), else of the rows cleaned here."""
        if self.p.whole.counted is not None:
            return self._backend_counted([q, None])
        data = self.p.cleaning._clean([("x", q)])
        return ArrayCounts({q.name: data[self.p.fields[q.name]].to_numpy(dtype=float)})

    def _counted_points(
        self,
        xp: ColumnProfile,
        yp: ColumnProfile,
        cp: ColumnProfile | None,
        fp: ColumnProfile | None,
        data: pd.DataFrame | None,
    ) -> Counted:
        """A scatter's counts (``_counted``): of ``data``, the rows it cleaned, if any."""
        if data is None:
            return self._backend_counted([xp, yp, cp, fp])
        f = self.p.fields
        return ArrayCounts({q.name: data[f[q.name]].to_numpy(dtype=float) for q in (xp, yp)})

    def _backend_counted(self, used: list[ColumnProfile | None]) -> Counted:
        """``Whole.counted`` of the numbers the chart places (the first two of ``used``; a
        color or facet beside them places the rows too, as in memory), the used columns given
        their fields (the backend places the rows, and said what it left out)."""
        assert self.p.whole.counted is not None
        for q in used:
            if q is not None and q.name not in self.p.fields:
                self.p.fields[q.name] = _safe_field(q.name, set(self.p.fields.values()))
        numbers = tuple(q.name for q in used[:2] if q is not None)
        beside = tuple(q.name for q in used[2:] if q is not None)
        self.p.cleaning._said([*numbers, *beside], list(zip(numbers, ("x", "y"), strict=False)))
        return self.p.whole.counted(numbers, beside)

    def _only_measure(self, q: ColumnProfile) -> bool:
        return all(p is q or not p.is_measure for p in self.p.profiles.values())


class _Cleaning:
    """The rows a chart can place: each used column's values prepared for its axis, the
    offenders, missing and unplaceable values left out, and each left-out count said as a
    note of the planner ``p``."""

    def __init__(self, planner: _Planner) -> None:
        self.p = planner

    def _said(
        self, used: Sequence[str], axes: Sequence[tuple[str, str]], together: Sequence[str] = ()
    ) -> None:
        """The notes of the rows a backend places (``Whole.said``: it counts them where they
        live), said where ``_clean`` says memory's; a probe's are not asked (its plan is not
        said)."""
        said = self.p.whole.said
        if said is None or self.p.probe:
            return
        self.p.notes.extend(n for n in said(used, axes, together) if n not in self.p.notes)

    def _nothing(self, otherwise: str) -> NoReturn:
        """Every row a backend holds is left out: the table says the notes that say why (or
        ``otherwise``, when no note does), as ``_clean`` says memory's."""
        raise _NothingToDraw(nothing_to_draw([n.sentence for n in self.p.notes] or [otherwise]))

    def _clean(
        self, used: list[tuple[Channel, ColumnProfile]], *, optional: set[str] | None = None
    ) -> pd.DataFrame:
        """The used columns, renamed to safe fields; rows that cannot be drawn left out, noted.

        Raises ``_NothingToDraw`` when no row is left.
        """
        keep = np.ones(len(self.p.frame), dtype=bool)
        for channel, q in used:
            series = self.p.frame[q.name]
            if q.declaration is not None and q.violation is not None:
                bad = offending_mask(series, q.declaration)
                keep &= ~bad
                v = q.violation
                quoted = (
                    " — numbers in quotes: the tool quotes its numbers"
                    if q.declared == "number" and numeric_strings_only(series, bad)
                    else ""
                )
                self.p._say(
                    "left-out",
                    f"{int(bad.sum()):,} of {v.total:,} rows are left out of the {channel} axis: "
                    f"{q.name} is declared {q.declared} and they {describe_offenders(v)}"
                    f"{quoted}. Nothing was converted.",
                    q.name, rows=int(bad.sum()), of=v.total,
                )  # fmt: skip
        out: dict[str, pd.Series] = {}
        dropped = np.zeros(np.count_nonzero(keep), dtype=bool)
        every = bool(keep.all())  # then no column is copied just to keep every row
        for channel, q in used:
            if q.name in self.p.fields:
                continue
            series = self.p.frame[q.name] if every else self.p.frame[q.name][keep]
            self.p.fields[q.name] = _safe_field(q.name, set(self.p.fields.values()))
            values, unplaced = self._prepared(channel, q, series, None if every else keep)
            out[self.p.fields[q.name]] = values
            dropped |= unplaced
        data = pd.DataFrame(out, copy=False)  # copy-on-write: the frame's columns stay as they are
        if dropped.any():
            data = data[~dropped]
        self.p.left_out += len(keep) - int(np.count_nonzero(keep)) + int(np.count_nonzero(dropped))
        # a row with no value on a measure or time axis has no place to be drawn; on a
        # category or color it is its own category (null), so it stays
        skip = optional or set()
        empty = np.zeros(len(data), dtype=bool)
        gaps: dict[str, None] = {}  # the columns some row holds no value in: only they are named
        for _, q in used:
            if q.type == "nominal" or q.name in skip or q.name in gaps:
                continue
            missing = data[self.p.fields[q.name]].isna().to_numpy()
            if missing.any():
                gaps[q.name] = None
                empty |= missing
        # several measures: a row holding none of them has no point to draw either
        several = [q for _, q in used if q.type == "quantitative" and q.name in skip]
        if len(several) > 1:
            none = np.logical_and.reduce(
                [data[self.p.fields[q.name]].isna().to_numpy() for q in several]
            )
            if none.any():
                gaps.update(dict.fromkeys(q.name for q in several))
                empty |= none
        if empty.any():
            n = int(empty.sum())
            self.p.notes.append(no_value_note(n, list(gaps)))
            data = data[~empty]
            self.p.left_out += n
        if data.empty:
            raise _NothingToDraw(nothing_to_draw([n.sentence for n in self.p.notes]))
        return data.reset_index(drop=True)

    def _values(
        self,
        channel: Channel,
        q: ColumnProfile,
        series: pd.Series,
        keep: np.ndarray[Any, np.dtype[np.bool_]] | None = None,
    ) -> tuple[pd.Series, np.ndarray[Any, np.dtype[np.bool_]]]:
        """The column's values as the chart takes them, and which rows cannot be placed.

        ``keep``, when given, says which of the frame's rows ``series`` holds: a date column a
        reading parsed is then filtered from the whole column's times, not parsed again.
        """
        unplaced = np.zeros(len(series), dtype=bool)
        if q.source == "inferred":
            self.p._say(
                "inferred",
                f"{q.name} is not declared: Altair inferred it as {q.type} from its values. "
                "Declaring it in resultColumns would make its type exact.",
                q.name,
            )
        if q.type == "quantitative":
            if isinstance(series.dtype, np.dtype) and series.dtype.kind in "fiu":
                # plain numbers: a value is missing exactly when it is NaN, so the numbers
                # no chart can place are the infinite ones
                huge = np.isinf(series.to_numpy())
                if huge.any():
                    self._note_unplaced(channel, q, series, huge, UNPLACEABLE_NUMBER)
                    return series.astype("float64").where(~huge, np.nan), huge
                return series.astype("float64"), huge
            present = series.notna().to_numpy()
            if q.source == "inferred":
                wrong = present & ~series.map(_is_number).to_numpy(dtype=bool)
                if wrong.any():
                    self._note_unplaced(channel, q, series, wrong, "something other than a number")
                    series = series.where(~wrong, None)
                    unplaced |= wrong
            numbers = as_floats(series)
            huge = present & ~unplaced & ~np.isfinite(numbers.to_numpy(dtype=float))
            if huge.any():
                self._note_unplaced(channel, q, series, huge, UNPLACEABLE_NUMBER)
                unplaced |= huge
            return (numbers.where(~huge, np.nan) if huge.any() else numbers), unplaced
        if q.type == "temporal":
            if keep is None:
                values, aware = wall_clock(series)  # one parse: the times, and any zone
            else:  # the kept rows' times: == wall_clock(series), the series being frame[keep]
                values, aware = wall_clock(self.p.frame[q.name], keep)
            if aware:
                self.p.utc.add(q.name)
                naive, zoned = zone_counts(series, None if keep is None else self.p.frame[q.name])
                if naive and zoned:  # never merged silently: both counted, each said how drawn
                    self.p._say(
                        "mixed-zones",
                        f"{q.name} mixes {zoned:,} times with a time zone and {naive:,} without "
                        "one: those with a zone are drawn in UTC, those without as given (their "
                        "zone is unknown, so they are not converted); the axis says so.",
                        q.name, zoned=zoned, naive=naive,
                    )  # fmt: skip
            return values, unplaced
        api = pd.api.types
        if api.is_string_dtype(series.dtype) and not api.is_object_dtype(series.dtype):
            return series, unplaced  # a typed string column: nothing to look at
        if api.is_bool_dtype(series.dtype):
            return series, unplaced
        items = series.tolist()
        if _TEXT_OR_NONE.issuperset(map(type, items)):  # each its own label, all of one type
            return pd.Series(items, index=series.index, dtype=object), unplaced
        labels = [v if _missing(v) else _label(v) for v in items]
        if len({type(v) for v in labels if not _missing(v)}) > 1:  # booleans among text:
            labels = [v if _missing(v) else str(v) for v in labels]  # one type for Vega-Lite
        return pd.Series(labels, index=series.index, dtype=object), unplaced  # no str inference

    def _prepared(
        self,
        channel: Channel,
        q: ColumnProfile,
        series: pd.Series,
        keep: np.ndarray[Any, np.dtype[np.bool_]] | None,
    ) -> tuple[pd.Series, np.ndarray[Any, np.dtype[np.bool_]]]:
        """``_values`` of ``series`` (the frame's column, or its rows ``keep`` holds), remembered
        (with the notes it made) by a probe when every row of the column is kept, for the
        chosen chart's plan (only then: it holds the column)."""
        every = keep is None
        key = (channel, q.name)
        if every and key in self.p.prepared:
            got = self.p.prepared[key]
            self.p.notes.extend(got.notes)
            if got.utc:
                self.p.utc.add(q.name)
            return got.values, got.unplaced
        before = len(self.p.notes)
        values, unplaced = self._values(channel, q, series, keep)
        if every and self.p.probe:
            notes = tuple(self.p.notes[before:])
            self.p.prepared[key] = _Prepared(values, unplaced, notes, q.name in self.p.utc)
        return values, unplaced

    def _note_unplaced(
        self, channel: Channel, q: ColumnProfile, series: pd.Series, mask: Any, what: str
    ) -> None:
        first = series[mask].iloc[0]
        self.p.notes.append(unplaced_note(channel, q.name, int(mask.sum()), first, what))

    def _used(
        self,
        x: tuple[Channel, ColumnProfile],
        yps: list[ColumnProfile],
        val: Channel,
        cp: ColumnProfile | None,
        fp: ColumnProfile | None,
    ) -> pd.DataFrame:
        used: list[tuple[Channel, ColumnProfile]] = [x] + [(val, m) for m in yps]
        if cp is not None:
            used.append(("color", cp))
        if fp is not None:
            used.append(("facet", fp))
        optional = {m.name for m in yps} if len(yps) > 1 else set()
        return self._clean(used, optional=optional)

    def _melt(self, data: pd.DataFrame, yps: list[ColumnProfile]) -> pd.DataFrame:
        """Several measures as one long frame: ``measure`` names the column, ``value`` holds it."""
        measure_fields = [self.p.fields[m.name] for m in yps]
        ids = [c for c in data.columns if c not in set(measure_fields)]
        long = data.melt(id_vars=ids, value_vars=measure_fields, var_name=MEASURE, value_name=VALUE)
        names = {self.p.fields[m.name]: m.name for m in yps}
        long[MEASURE] = _stacked_names(long[MEASURE], measure_fields, names, len(data))
        return long[long[VALUE].notna()].reset_index(drop=True)


class _Refusing:
    """Why a column is not on an axis: a picked column refused, a color or facet too wide, an
    id-like column, no usable measure — each an ``AxisRefusal`` or a note of the planner
    ``p``."""

    def __init__(self, planner: _Planner) -> None:
        self.p = planner

    def _stepped_around(self, picked: set[str]) -> list[AxisRefusal]:
        """The flagged measures the default stepped around (``stepped_around``)."""
        return stepped_around(self.p.profiles, self.p.drawn, picked)

    def _note_unsplit(self, xp: ColumnProfile) -> None:
        """A category too wide for colors or small charts is said, never silently merged (a
        picked one is refused instead, and said once, by its refusal)."""
        refused = {r.column for r in self.p.refusals}
        q = choose.too_wide(q for q in self.p.profiles.values() if q.name not in refused)
        if q is not None:
            self.p._say(
                "not-split",
                f"{q.name} has {q.distinct:,} values, more than {MAX_COLOR_CATEGORIES} colors "
                f"or {MAX_FACETS} small charts can tell apart, so the line over {xp.name} is "
                f"not split by it; pick it as x for bars per {q.name}.",
                q.name, values=q.distinct,
            )  # fmt: skip

    def _word(
        self, r: choose.Refused, xp: ColumnProfile | None, fp: ColumnProfile | None
    ) -> None:
        """A pick not drawn as asked (``choose.Refused``), in words: an ``AxisRefusal``, or
        the note of a color drawn as facets."""
        q = self.p.profiles[r.column]
        why = r.why
        if why == "colors-as-facets":
            self.p._say(
                "facets-for-colors",
                f"{q.name} has {q.distinct} values, more than the {MAX_COLOR_CATEGORIES} "
                f"colors that can be told apart: one small chart per {q.name} instead.",
                q.name, values=q.distinct,
            )  # fmt: skip
            return
        x = xp.name if xp is not None else ""
        reason = {
            "not-a-measure": lambda: (
                f"{q.name} is declared {q.declared}" if q.declared
                else f"{q.name} is not declared and Altair infers it as {q.type}"
            ) + "; a measure axis needs a column declared number.",
            "no-values": lambda: (
                f"{q.name} holds no value in any row, so there is nothing to color by; the "
                "chart is drawn without color." if r.channel == "color"
                else f"{q.name} holds no value in any row, so the chart is drawn without facets."
            ),
            "too-many-picked-colors": lambda: (
                f"{q.name} has {q.distinct:,} distinct values; a color can tell apart at most "
                f"{MAX_PICKED_COLOR_CATEGORIES}, so the chart is drawn without color."
            ),
            "facet-not-category": lambda: (
                "facets draw one small chart per value of a column declared string or "
                f"boolean; {_said(q, True)}, so the chart is drawn without facets."
            ),
            "too-many-facets": lambda: (
                f"{q.name} has {q.distinct:,} values; at most {MAX_FACETS} small charts can be "
                "read side by side, so the chart is drawn without facets."
            ),
            "one-y-axis": lambda: (
                f"a scatter plot of {x} has one y axis, so {q.name} is not drawn; pick a date "
                "or a category as x to draw several measures."
            ),
            "color-by-measures": lambda: (
                f"several measures are told apart by color, one per measure, so {q.name} is "
                f"not drawn as color; facet={q.name!r} draws one small chart per value instead."
            ),
            "too-many-colors": lambda: (
                f"{q.name} has {q.distinct} values, more than the {MAX_COLOR_CATEGORIES} "
                f"colors that can be told apart, and the facets are already "
                f"{fp.name if fp else ''}, so the chart is drawn without color."
            ),
            "line-color-not-category": lambda: (
                "a line chart draws one line per value of a column declared string or boolean; "
                f"{_said(q, True)}, so the chart is drawn without color."
            ),
            "bar-color": lambda: (
                f"a bar chart draws one bar per {x}, so it is not split by {q.name}; pick a "
                "date or a number as x to color by it."
            ),
            "unusable": lambda: self._unusable_reason(q),
        }[why]()
        self.p.refusals.append(
            AxisRefusal(q.name, r.channel, reason, q.violation if why == "unusable" else None)
        )

    def _table_reason(self, choice: choose.Choice, xp: ColumnProfile | None) -> str:
        """Why the picks draw a table (``choose.Choice`` of kind ``table``)."""
        if choice.no_measure:
            assert xp is not None
            return (
                f"{xp.name} is on x, but no column is declared number to measure over it: "
                f"{self._type_list()}."
            )
        last = choice.table_refusal
        said = [r for r in self.p.refusals if r.channel == "y"]
        if last is not None and last.channel == "x":
            return f"The x axis you picked cannot be drawn: {self.p.refusals[-1].reason}"
        if len(choice.ys) == 1:
            return f"The y axis you picked cannot be drawn: {said[-1].reason}"
        return "None of the measures you picked can be drawn: " + " ".join(
            r.reason for r in said
        )

    def _unusable_reason(self, q: ColumnProfile) -> str:
        v = q.violation
        if q.held_as is not None:
            return (
                f"{q.name} is declared {q.declared}, but the engine holds it as {q.held_as}: "
                "its values are judged one by one only when the rows leave the engine. Cast "
                "it to its declared type in the engine, or filter the frame to at most "
                "max_points rows first."
            )
        if v is None or v.kind == "missing-column" or not q.present:
            return (
                f"{q.name} is declared {q.declared}, but no row has it (missing-column): the "
                "query never selected it."
            )
        text = (
            f"{q.name} is declared {q.declared}, but all {v.total:,} rows {describe_offenders(v)}"
        )
        if q.declared == "number" and self._all_quoted(q.name):
            return (
                f"{text} — every one a number in quotes: the tool quotes its numbers. chartkit "
                "converts nothing; fix the tool to return numbers, or declare the column string."
            )
        return f"{text}. chartkit converts nothing; fix the tool, or change the declaration."

    def _all_quoted(self, name: str) -> bool:
        """Whether every value of a column is a number in quotes: asked once per column (it
        reads every value), however many sentences say it."""
        if name not in self.p._quoted:  # (the facts of every row: a backend's, if it holds them)
            facts = self.p.whole.facts or FrameFacts(self.p.frame)
            self.p._quoted[name] = facts.all_quoted(name)
        return self.p._quoted[name]

    def _no_measure_reason(self) -> str:
        return no_measure_reason(self.p.profiles.values(), self._all_quoted)

    def _type_list(self) -> str:
        return ", ".join(q.describe_type() for q in self.p.profiles.values())

    def _note_id_like(self, *, skip_if: bool) -> None:
        if skip_if:
            return
        for q in self.p.profiles.values():
            if q.usable and q.id_like:
                self.p._say(
                    "identifier",
                    f"{q.name} is not put on an axis by default: {q.distinct:,} of its "
                    f"{q.rows:,} values are distinct ({_id_share(q)}), so it reads as an "
                    "identifier, "
                    "not a category. Pick it as x to chart it anyway.",
                    q.name, distinct=q.distinct, rows=q.rows,
                )  # fmt: skip

    def _auto_color(self, exclude: set[str | None]) -> ColumnProfile | None:
        return choose.auto_color(self.p.profiles.values(), exclude=exclude)


class _Writing:
    """The encodings and the ``Plan`` made of them: a channel's ``Encoding``, the measure's,
    the reduction as ``Plan.spec`` reads it, and a chart or table plan of the planner ``p``."""

    def __init__(self, planner: _Planner) -> None:
        self.p = planner

    def _enc(self, channel: Channel, q: ColumnProfile, **kw: Any) -> Encoding:
        mixed = any(n.kind == "mixed-zones" and n.column == q.name for n in self.p.notes)
        utc = f"{q.name} (UTC; times without a zone as given)" if mixed else f"{q.name} (UTC)"
        title = kw.pop("title", None) or (utc if q.name in self.p.utc else q.name)
        return Encoding(
            q.name,
            q.type,
            q.source,
            field=self.p.fields.get(q.name, ""),
            title=title,
            declared=q.declared,
            **kw,
        )

    def _measure(self, yps: list[ColumnProfile]) -> tuple[str, str]:
        """(value field, what it is called) of one or several measures."""
        if not yps:
            return "count", "rows"
        if len(yps) > 1:
            return VALUE, _join([m.name for m in yps])
        return self.p.fields[yps[0].name], yps[0].name

    def _y_enc(
        self, channel: Channel, yps: list[ColumnProfile], xp: ColumnProfile, aggregate: str | None
    ) -> Encoding:
        if not yps:
            return _count(xp)
        _, what = self._measure(yps)
        title = f"{aggregate} of {what}" if aggregate else what
        if len(yps) > 1:
            q = yps[0]
            return Encoding(
                q.name, q.type, q.source, aggregate=aggregate, field=VALUE, title=title,
                declared=q.declared, measures=tuple(m.name for m in yps),
            )  # fmt: skip
        return self._enc(channel, yps[0], aggregate=aggregate, title=title)

    def _series_enc(self, yps: list[ColumnProfile]) -> Encoding:
        q = yps[0]
        return Encoding(
            MEASURE, "nominal", q.source, field=MEASURE, title=MEASURE, declared=None,
            measures=tuple(m.name for m in yps),
        )  # fmt: skip

    def _chart(
        self,
        mark: str,
        reason: str,
        enc: Mapping[str, Encoding],
        data: pd.DataFrame,
        *,
        horizontal: bool = False,
        title: str | None = None,
        order: tuple[Any, ...] | None = None,
    ) -> Plan:
        return Plan(
            kind="chart",
            reason=reason,
            mark=mark,
            encodings=dict(enc),
            data=data,
            refusals=tuple(self.p.refusals),
            notes=tuple(dict.fromkeys(n.sentence for n in self.p.notes)),
            facts=_facts(self.p.notes),
            horizontal=horizontal,
            title=title,
            order=order,
            left_out=self.p.left_out,
            scale="log"
            if self.p.log_axes
            else "linear"
            if self.p.log_refused
            else self.p.opts.scale,
            log_axes=tuple(self.p.log_axes),
            format=self.p.opts.format,
            time_unit=self.p.opts.time_unit,
            reduction=self._reduction(mark, enc),
            fetched=self.p.fetched,
        )

    def _reduction(self, mark: str, enc: Mapping[str, Encoding]) -> Reduction:
        """What the rows were reduced to: the keys of an aggregated chart, its aggregate, the
        bucket or unit, the bins, the top-N kept."""
        measure = [e for e in enc.values() if e.aggregate is not None]
        binned = tuple(HISTOGRAM_BINS for e in enc.values() if e.bin) if mark == "bar" else ()
        # an aggregated chart is grouped by every other channel's column (the measures' names,
        # when several are drawn, are a key too)
        keys = tuple(
            dict.fromkeys(
                "measure" if e.column == MEASURE and e.measures else e.column
                for e in enc.values()
                if e.aggregate is None and not e.bin
            )
        ) if measure else ()  # fmt: skip
        y = measure[0].aggregate if measure else None
        got = dict(self.p.reduction)
        return Reduction(
            keys=keys,
            aggregate=got.get("aggregate", y),
            bucket_seconds=got.get("bucket_seconds"),
            time_unit=self.p.opts.time_unit,
            bins=got.get("bins", binned),
            top=got.get("top"),
        )

    def _proven(self, mark: str) -> Plan:
        """A probe's answer: a chart proven to hold more than one mark, its data not built.

        Never returned by ``plan_view``: only its ``drawn`` picks (the alternatives) are used.
        """
        return Plan(kind="chart", reason="", mark=mark, data=pd.DataFrame(index=range(2)))

    def _table(self, reason: str) -> Plan:
        return Plan(
            kind="table",
            reason=reason,
            refusals=tuple(self.p.refusals),
            notes=tuple(dict.fromkeys(n.sentence for n in self.p.notes)),
            facts=_facts(self.p.notes),
        )


def stepped_around(
    profiles: Mapping[str, ColumnProfile], drawn: Mapping[str, Any], picked: set[str]
) -> list[AxisRefusal]:
    """The flagged measures declared before the one the default draws: it stepped around
    them (a measure with no finding is tried first), so each is refused, with why and how
    to chart it, and ``View.state`` is not ``ok``. ``drawn`` holds the picks of the chart
    drawn; the engine path asks it with the profiles of all the declared columns."""
    y = drawn.get("y")
    names = [drawn.get("x"), *((y,) if isinstance(y, str) else (y or ()))]
    drawn_measures = [
        n for n in names if n is not None and n in profiles and profiles[n].type == "quantitative"
    ]
    if not drawn_measures:
        return []
    order = list(profiles)
    first = min(order.index(n) for n in drawn_measures)
    out = []
    for q in [profiles[n] for n in order[:first]]:
        v = q.violation
        if q.is_measure and v is not None and q.name not in picked and q.name not in drawn_measures:
            out.append(AxisRefusal(q.name, "y", (
                f"{q.name} is declared number, but {v.affected:,} of {v.total:,} rows "
                f"{describe_offenders(v)}, so the chart opens on {drawn_measures[0]}, which has "
                f"no finding; pick y={q.name!r} to chart {q.name} with those rows left out."
            ), v))  # fmt: skip
    return out


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


class _NothingToDraw(Exception):
    """No row is left once offending, empty and unplaceable rows are left out."""


def _id_share(q: ColumnProfile) -> str:
    """How distinct an identifier is, in the words of the rule it passes."""
    if q.distinct > ID_LIKE_SHARE * q.rows:
        return f"over {ID_LIKE_SHARE:.0%}"
    return f"over {ID_LIKE_WIDE_SHARE:.0%}, on a column of {ID_LIKE_WIDE_ROWS} rows or more"


def _short(value: Any) -> str:
    """A value for a note: JSON where it can be (``repr`` for inf), cut to 40 characters."""
    text = repr(float(value)) if isinstance(value, float) else render_sample(value)
    return text if len(text) <= 40 else f"{text[:39]}…"


def _be(n: int) -> str:
    return "is" if n == 1 else "are"


def no_measure_reason(profiles: Iterable[ColumnProfile], quoted: Callable[[str], bool]) -> str:
    """The reason for a table when no usable column is declared number: the measures the
    check refused and why — every row holds a number in quotes (``quoted(name)``, asked only
    of a present column the check flagged), or no row can be drawn — then the other columns'
    types; or, with no measure declared at all, every column's type.

    >>> import pandas as pd
    >>> from chartkit.columns import normalize_result_columns
    >>> from chartkit.plan.encode import profile_columns
    >>> declared = normalize_result_columns({"host": "string", "seen": "date"})
    >>> profiles = profile_columns(pd.DataFrame({"host": ["a"], "seen": ["2024-01-05"]}),
    ...                            declared, ()).values()
    >>> no_measure_reason(profiles, lambda name: False)
    'No column is declared number: host is string, seen is date.'
    """
    profiles = list(profiles)
    refused = [q for q in profiles if q.type == "quantitative" and not q.usable]
    if not refused:
        return f"No column is declared number: {', '.join(q.describe_type() for q in profiles)}."
    names = _join([q.name for q in refused])
    verb = "is" if len(refused) == 1 else "are"
    every_quoted = all(
        q.present
        and q.violation is not None
        and q.violation.kind != "missing-column"
        and quoted(q.name)
        for q in refused
    )
    why = (
        "every row holds a number in quotes (the tool quotes its numbers)"
        if every_quoted
        else "no row can be drawn (see the refusals)"
    )
    rest = [q.describe_type() for q in profiles if q.usable]
    tail = f"; {', '.join(rest)}" if rest else ""
    return f"No usable column is declared number: {names} {verb} declared number but {why}{tail}."


def line_label(times: pd.Series, labels: pd.Series) -> tuple[int, int] | None:
    """``(fewest, points)`` when ``labels`` is a label of single rows, not a series of the line
    over ``times`` (as drawn: each bucket's start when bucketed), by ``choose.is_entity``; None
    when each value is an entity. A frame of the line's groups answers as its rows do (the same
    pairs of time and label), so a backend asks it of the groups it made.

    >>> days = pd.Series(pd.to_datetime(["2024-01-01", "2024-01-02", "2024-01-03"] * 2))
    >>> line_label(days, pd.Series(["a", "a", "a", "b", "b", "b"])) is None
    True
    >>> line_label(days, pd.Series(["sun", "sun", "sun", "sun", "rain", "sun"]))
    (1, 3)
    """
    return _label_of(*coverage(times, labels))


def _label_of(covered: int, points: int) -> tuple[int, int] | None:
    return None if choose.is_entity(covered, points) else (covered, points)


def stacked_counts(bars: int, period: str, label: str) -> str:
    """How a bucketed line of a label's rows is drawn, for its ``bucketed_note``.

    >>> stacked_counts(48, "1-day bucket", "weather")
    'counted in 48 bars: the rows per 1-day bucket, stacked by weather'
    """
    return f"counted in {bars:,} bars: the rows per {period}, stacked by {label}"


def nothing_to_draw(sentences: Sequence[str]) -> str:
    """The reason for a table when the rows a chart would place are all left out, with the
    notes that say why (each once, in order)."""
    return "Every row is left out of the chart, so there is nothing to draw: " + " ".join(
        dict.fromkeys(sentences)
    )


def no_value_note(rows: int, gaps: list[str]) -> Note:
    """The note of ``rows`` rows left out for holding no value on a measure or time axis:
    ``gaps`` are the columns some of them hold no value in, in the order they are drawn (the
    note's column is the first; its sentence names them all).

    >>> no_value_note(8, ["Miles_per_Gallon"]).sentence
    '8 rows hold no value in Miles_per_Gallon and are not drawn.'
    """
    return Note(
        "no-value",
        f"{_rows_hold(rows)} no value in {_join(gaps)} and {_be(rows)} not drawn.",
        gaps[0],
        (("rows", rows),),
    )


UNPLACEABLE_NUMBER: Final = "a number no chart can place (infinite or too large)"


def unplaced_note(
    channel: str, column: str, rows: int, first: Any, what: str = UNPLACEABLE_NUMBER
) -> Note:
    """The note of ``rows`` rows whose value of ``column`` no chart can place (``what``: an
    infinite number, or something other than a number in an undeclared column), ``first``
    the first of them, left out of the ``channel`` axis.

    >>> held, left = unplaced_note("y", "v", 120, float("-inf")).sentence.split(" and ")
    >>> held
    '120 rows hold a number no chart can place (infinite or too large) in v (first: -inf)'
    >>> left
    'are left out of the y axis. Nothing was converted.'
    """
    return Note(
        "unplaced",
        f"{_rows_hold(rows)} {what} in {column} (first: {_short(first)}) and {_be(rows)} left "
        f"out of the {channel} axis. Nothing was converted.",
        column,
        (("rows", rows),),
    )


def bucketed_note(
    column: str, rows: int, points: int, seconds: int, drawn_as: str, why: str,
    *, bars: bool = False,
) -> Note:
    """The note of a line's ``rows`` drawn per time bucket of ``seconds``: ``drawn_as`` says
    how (``points_per_bucket``, or bars counted: ``stacked_counts``, when ``points`` counts
    ``bars``), ``why`` the reason it is bucketed.

    >>> note = bucketed_note("ts", 9000, 500, 60, points_per_bucket(500, "mean", "v", 60),
    ...                      over_max_points(5000))
    >>> said, how = note.sentence.split(": ")
    >>> said
    '9,000 rows are drawn as 500 points'
    >>> how
    'the mean of v per minute bucket (over max_points=5,000 rows).'
    >>> note.counts
    (('rows', 9000), ('points', 500), ('seconds', 60))
    """
    return Note(
        "bucketed",
        f"{rows:,} rows are {drawn_as} ({why}).",
        column,
        (("rows", rows), ("bars" if bars else "points", points), ("seconds", seconds)),
    )


def points_per_bucket(
    points: int, aggregate: str, what: str, seconds: int, series: str | None = None
) -> str:
    """How a bucketed line draws its rows: ``points`` points, the ``aggregate`` of ``what``
    per bucket of ``seconds`` (for each value of ``series``)."""
    split = f" for each {series}" if series else ""
    period = f"{choose.bucket_name(seconds)} bucket"
    return f"drawn as {points:,} points: the {aggregate} of {what} per {period}{split}"


def over_max_points(max_points: int) -> str:
    """Why a chart reduced its rows: there are more than ``max_points``."""
    return f"over max_points={max_points:,} rows"


def shared_note(column: str, share: str, series: str | None, what: str) -> Note:
    """The note of rows sharing a point (a ``share``: the x value, or its unit) and a value of
    ``series``: the chart draws the mean of ``what`` for each."""
    by_series = f" and {series}" if series else ""
    return Note(
        "shared",
        f"Several rows share a {share}{by_series}; the chart draws the mean of {what} for each.",
        column,
    )


def top_note(column: str, values: int, shown: int, ranked: str) -> Note:
    """The note of bars cut to the top ``shown`` of a category's ``values``, ``ranked`` naming
    the order (``most frequent``, ``with the highest mean of y``…).

    >>> top_note("host", 40, 30, "most frequent").sentence
    'host has 40 values; the 30 most frequent are shown, the other 10 are left out.'
    """
    return Note(
        "top",
        f"{column} has {values:,} values; the {shown} {ranked} are shown, the other "
        f"{values - shown:,} are left out.",
        column,
        (("values", values), ("shown", shown)),
    )


def check_choose(choose: Any) -> int:
    """``choose=N`` as an index, or the error that says it must be one."""
    if not isinstance(choose, int) or isinstance(choose, bool):
        raise ChartkitError(f"choose={choose!r} must be an integer: the index of an alternative")
    return choose


def chosen_alternative(choose: Any, alternatives: Sequence[Alternative]) -> Alternative:
    """The alternative ``choose=N`` picks among a view's ``alternatives``, or the error that
    says which indexes there are."""
    index = check_choose(choose)
    if not 0 <= index < len(alternatives):
        allowed = f"0 to {len(alternatives) - 1}" if alternatives else "none"
        raise ChartkitError(
            f"choose={index!r} is not an alternative of this view; it has "
            f"{len(alternatives)} ({allowed})"
        )
    return alternatives[index]


def _rows_hold(n: int) -> str:
    return "1 row holds" if n == 1 else f"{n:,} rows hold"


def _join(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


_PLAIN: Final = (str, int, float, bool)
_TEXT_OR_NONE: Final = frozenset({str, type(None)})
# the state one plan reads and writes (``_Planner._reset``), shared with a planner of the rows
# a backend fetched (``_Planner._of_rows``)
_STATE: Final = ("notes", "reduction", "refusals", "fields", "utc", "drawn", "log_refused",
                 "log_axes", "left_out", "fetched")  # fmt: skip
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
