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

The plan is made by ``_Planner`` (here: the state every part reads and writes, the automatic
chart, the picks drawn, the alternatives) and its parts, each in its own module of this folder:
``lines`` (a line over time, from rows in memory or a backend's groups), ``bars``, ``points``
(a scatter, a heatmap, a histogram, log scales), ``cleaning`` (the rows a chart can place,
and the notes of those it leaves out), ``refusing`` (why a column is not on an axis) and
``writing`` (the encodings and the ``Plan``); ``kit`` holds what they share (``Plan``,
``Whole``, the fields and limits) and ``sentences`` the sentences both paths say.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

import pandas as pd

from chartkit._safe import name_list
from chartkit.errors import ChartkitError
from chartkit.options import (
    AGGREGATES,
    DEFAULT_FORMAT,
    SCALES,
    SORTS,
    TIME_UNITS,
    ChartOptions,
)
from chartkit.plan import choose
from chartkit.plan.bars import _Bars
from chartkit.plan.cleaning import _Cleaning
from chartkit.plan.encode import (
    AxisRefusal,
    Channel,
    ColumnProfile,
)
from chartkit.plan.facts import FrameFacts
from chartkit.plan.kit import (
    _STATE,
    MAX_BAR_CATEGORIES,  # re-exported
    Plan,
    Whole,
    _NothingToDraw,
    _Prepared,
)

# the names this module held before its parts moved out, importable here as they were
from chartkit.plan.kit import COUNT_BARS_UNDER as COUNT_BARS_UNDER
from chartkit.plan.kit import HISTOGRAM_BINS as HISTOGRAM_BINS
from chartkit.plan.kit import HORIZONTAL_OVER as HORIZONTAL_OVER
from chartkit.plan.kit import MAX_PICKED_COLOR_CATEGORIES as MAX_PICKED_COLOR_CATEGORIES
from chartkit.plan.kit import MEASURE as MEASURE
from chartkit.plan.kit import VALUE as VALUE
from chartkit.plan.lines import (
    _GroupedLines,
    _Lines,
    line_label,  # re-exported
)
from chartkit.plan.points import _Points
from chartkit.plan.reduce import (
    ROWS,
)
from chartkit.plan.refusing import _Refusing
from chartkit.plan.refusing import stepped_around as stepped_around
from chartkit.plan.roles import Roles, assign
from chartkit.plan.rules import MAX_COLOR_CATEGORIES, Alternative, candidates
from chartkit.plan.sentences import UNPLACEABLE_NUMBER as UNPLACEABLE_NUMBER
from chartkit.plan.sentences import (  # re-exported
    bucketed_note,
    no_measure_reason,
    no_value_note,
    nothing_to_draw,
    over_max_points,
    points_per_bucket,
    shared_note,
    stacked_counts,
    top_note,
    unplaced_note,
)
from chartkit.plan.spec import Note, NoteKind, Reduction
from chartkit.plan.writing import _Writing

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
    facts = whole.facts if whole is not None and whole.facts is not None else FrameFacts(frame)
    roles = assign(profiles, facts)
    cands = candidates(profiles, roles)
    # with a pick, the opening chart is only probed: which candidate it is, not its data
    planner = _Planner(frame, profiles, max_points, opts, cands, probe=choose is not None)
    planner.whole = whole or Whole()
    planner.roles = roles
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
        self.roles = Roles(())  # each column's role (plan_view's, read from the whole rows)
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
        sub.roles = self.roles
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
        empty: Plan | None = None
        empty_first = True  # whether the first candidate passed over drew nothing at all
        asked = self.opts
        opening = choose.opening(self.cands, count=count)
        # a column picked as color or facet keeps that channel: charts drawing it on an axis
        # come after the others (stable, so the ranking holds among each)
        opening.sort(key=lambda a: bool(picked & {a.x, *(a.y if isinstance(a.y, tuple) else
                                                         (a.y,))}))  # fmt: skip
        for cand in opening:
            self._reset()
            # a candidate that sums (a weight's totals) is drawn summed unless one was asked
            self.opts = asked if asked.aggregate or not cand.aggregate else replace(
                asked, aggregate=cand.aggregate
            )  # fmt: skip
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
                # every row left out of this candidate: the next may draw (a measure of no
                # value is passed over); the first such table is the answer when none does
                empty = empty or (
                    self._finish(
                        self.writing._table(str(nothing)),
                        picked_x=False,
                        picked_y=False,
                        picked=picked,
                    )
                )
                continue
            if plan.kind == "chart" and plan.data is not None and len(plan.data) <= 1:
                single = single or plan
                empty_first = empty_first and empty is not None
                continue
            if plan.kind == "chart" and cand.why:
                plan = replace(plan, reason=f"{plan.reason} {cand.why}")
            return self._finish(plan, picked_x=False, picked_y=False, picked=picked)
        if empty is not None and (single is None or empty_first):
            return empty
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
        choice = choose.chart(p, x, ys, color, facet, count=count, auto_color=auto_color,
                              roles=self.roles, max_points=self.max_points)  # fmt: skip
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
