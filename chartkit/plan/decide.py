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

Here: the automatic chart (the candidates tried in turn), the picks drawn, the refusals of
the columns a chart would have placed, and the alternatives. The stages it hands values to,
each a module of functions of an ``Ask`` (what the plan is asked) and a ``Placement`` (what was
placed so far; ``plan.placement``) that return a new ``Placement`` or the ``Plan``:
``cleaning`` (the rows a chart can place, and the notes of those it leaves out), ``lines``
(a line over time, from rows in memory or a backend's groups), ``bars``, ``points`` (a
scatter, a heatmap, a histogram, log scales), ``refusing`` (why a column is not on an axis)
and ``writing`` (the encodings and the ``Plan``); ``kit`` holds ``Plan``, ``Whole``, the
fields and limits, and ``sentences`` the sentences.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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
from chartkit.plan import bars, choose, lines, points, refusing, writing
from chartkit.plan.choose import SETTLING
from chartkit.plan.encode import (
    AxisRefusal,
    Channel,
    ColumnProfile,
)
from chartkit.plan.facts import FrameFacts

# the names this module held before its parts moved out, importable here as they were
from chartkit.plan.kit import COUNT_BARS_UNDER as COUNT_BARS_UNDER
from chartkit.plan.kit import HISTOGRAM_BINS as HISTOGRAM_BINS
from chartkit.plan.kit import HORIZONTAL_OVER as HORIZONTAL_OVER
from chartkit.plan.kit import (
    MAX_BAR_CATEGORIES,  # re-exported
    Plan,
    Whole,
)
from chartkit.plan.kit import MAX_PICKED_COLOR_CATEGORIES as MAX_PICKED_COLOR_CATEGORIES
from chartkit.plan.kit import MEASURE as MEASURE
from chartkit.plan.kit import VALUE as VALUE
from chartkit.plan.lines import (
    line_label,  # re-exported
)
from chartkit.plan.placement import Ask, NothingToDraw, Placement
from chartkit.plan.reduce import (
    ROWS,
)
from chartkit.plan.refusing import stepped_around as stepped_around
from chartkit.plan.roles import assign
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
from chartkit.plan.spec import Reduction

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
    facts = (
        whole.facts
        if whole is not None and whole.facts is not None
        else FrameFacts(frame, settling=SETTLING)  # the rows in memory count as engines do
    )
    roles = assign(profiles, facts)
    cands = candidates(profiles, roles)
    # with a pick, the opening chart is only probed: which candidate it is, not its data
    ask = Ask(frame, profiles, max_points, opts, cands, whole=whole or Whole(), roles=roles,
              probe=choose is not None)  # fmt: skip
    plan = _plan(ask, x, ys, color, facet)
    if choose is None:
        return plan
    alt = chosen_alternative(choose, plan.alternatives)
    picks = alt.picks()
    # the chosen chart is planned in full, from the columns the probe prepared (ask.memo)
    chosen = replace(ask, opts=replace(opts, aggregate=alt.aggregate or opts.aggregate),
                     probe=False)  # fmt: skip
    return _plan(
        chosen, picks.get("x"), _measure_names(picks.get("y"), profiles), picks.get("color"),
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


def _plan(
    ask: Ask, x: str | None, ys: tuple[str, ...] | None, color: str | None, facet: str | None
) -> Plan:
    """The chart the picks draw, or the automatic one when neither x nor y is picked."""
    if x is None and ys is None:
        return _automatic(ask, color, facet)
    try:
        plan = _draw(ask, Placement(), x, ys, color, facet, auto_x=x is None,
                     auto_color=color is None)  # fmt: skip
    except NothingToDraw as nothing:
        plan = writing.table(nothing.placed, str(nothing))
    picked = {n for n in (x, color, facet, *(ys or ())) if n is not None}
    return _finish(ask, plan, picked_x=x is not None, picked_y=ys is not None, picked=picked)


def _automatic(ask: Ask, color: str | None, facet: str | None) -> Plan:
    """The first candidate that may open and holds more than one mark."""
    asked = ask.opts
    count = asked.aggregate == "count"
    picked = {n for n in (color, facet) if n is not None}
    single: Plan | None = None
    empty: Plan | None = None
    empty_first = True  # whether the first candidate passed over drew nothing at all
    opening = choose.opening(ask.cands, count=count)
    # a column picked as color or facet keeps that channel: charts drawing it on an axis
    # come after the others (stable, so the ranking holds among each)
    opening.sort(key=lambda a: bool(picked & {a.x, *(a.y if isinstance(a.y, tuple) else
                                                     (a.y,))}))  # fmt: skip
    identifiers = not any(q.type == "temporal" for q in ask.profiles.values())
    for cand in opening:
        # a candidate that sums (a weight's totals) is drawn summed unless one was asked
        opts = asked if asked.aggregate or not cand.aggregate else replace(
            asked, aggregate=cand.aggregate
        )  # fmt: skip
        tried = replace(ask, opts=opts)
        placed = refusing.note_id_like(tried, Placement()) if identifiers else Placement()
        x, ys, auto, split = choose.opening_picks(cand, color, facet, count=count)
        if cand.chart == "scatter" and color is None and facet is None and cand.x:
            c = cand.color  # (a number's few levels stay colors: small charts are of categories)
            if c is not None and tried.profiles[c].type == "nominal" and bars.shares_positions(
                tried, cand.x, c
            ):
                auto, split = None, cand.color  # one panel per group, not colors over colors
        kp = bars.breakdown_of(tried, cand.chart, x, ys, color, facet)
        try:
            if kp is not None and x is not None and ys:
                plan = bars.breakdown(tried, placed, tried.profiles[x], tried.profiles[ys[0]], kp)
            else:
                plan = _draw(tried, placed, x, ys, auto, split, auto_x=True, auto_color=False)
        except NothingToDraw as nothing:
            # every row left out of this candidate: the next may draw (a measure of no
            # value is passed over); the first such table is the answer when none does
            empty = empty or _finish(
                tried, writing.table(nothing.placed, str(nothing)),
                picked_x=False, picked_y=False, picked=picked,
            )  # fmt: skip
            continue
        if plan.kind == "chart" and plan.data is not None and len(plan.data) <= 1:
            single = single or plan
            empty_first = empty_first and empty is not None
            continue
        if plan.kind == "chart" and cand.why:
            plan = replace(plan, reason=f"{plan.reason} {cand.why}")
        return _finish(tried, plan, picked_x=False, picked_y=False, picked=picked)
    if empty is not None and (single is None or empty_first):
        return empty
    if single is not None:
        reason = (
            f"{single.reason[:-1]} — but that chart would hold a single mark, and so would "
            "every other chart its declared types allow; a single mark is not a chart, so "
            "the rows are shown as a table."
        )
        table = replace(single, kind="table", reason=reason, mark=None, encodings={},
                        data=None, horizontal=False, title=None, order=None,
                        reduction=Reduction(), drawn={})  # fmt: skip
        return _finish(ask, table, picked_x=False, picked_y=False, picked=picked)
    over = choose.dates(ask.profiles.values()) or choose.measures(ask.profiles.values())
    if count and over:  # rows counted and no rule opens (no category, or no measure):
        # the rows counted over the first date, else per bin of the first number (a
        # histogram), as a picked x draws them
        try:
            plan = _draw(ask, Placement(), over[0].name, None, color, facet, auto_x=True,
                         auto_color=False)  # fmt: skip
        except NothingToDraw as nothing:
            plan = writing.table(nothing.placed, str(nothing))
        return _finish(ask, plan, picked_x=False, picked_y=False, picked=picked)
    return _finish(
        ask, writing.table(Placement(), refusing.no_measure(ask)),
        picked_x=False, picked_y=False, picked=picked,
    )  # fmt: skip


def _finish(
    ask: Ask, plan: Plan, *, picked_x: bool, picked_y: bool, picked: set[str]
) -> Plan:
    """Refuse the unusable columns the chart would have placed; offer the alternatives (the
    candidates other than the picks the plan drew)."""
    drawn_x = plan.drawn.get("x")
    x_type = ask.profiles[drawn_x].type if drawn_x is not None else None
    unplaced: list[AxisRefusal] = []
    for q in ask.profiles.values():
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
                AxisRefusal(q.name, channel, refusing.unusable_reason(ask, q), q.violation)
            )
    if plan.kind == "chart" and not picked_y:
        unplaced += stepped_around(ask.profiles, plan.drawn, picked)
    drawn = {
        k: list(v) if isinstance(v, tuple) else v for k, v in plan.drawn.items() if v is not None
    }
    alternatives = tuple(a for a in ask.cands if a.picks() != drawn)
    return replace(
        plan, refusals=(*unplaced, *plan.refusals), alternatives=alternatives, drawn=drawn
    )


def _draw(
    ask: Ask,
    placed: Placement,
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
    p = ask.profiles
    count = ask.opts.aggregate == "count"
    choice = choose.chart(p, x, ys, color, facet, count=count, auto_color=auto_color,
                          roles=ask.roles, max_points=ask.max_points,
                          aggregate=ask.opts.aggregate)  # fmt: skip
    xp = p[choice.x] if choice.x is not None else None
    for r in choice.refused:
        placed = refusing.word(ask, placed, r, xp, p.get(choice.facet) if choice.facet else None)
    if choice.kind == "table":
        return writing.table(placed, refusing.table_reason(ask, placed, choice, xp))
    cp = p[choice.color] if choice.color is not None else None
    fp = p[choice.facet] if choice.facet is not None else None
    yps = [p[m] for m in choice.ys]
    assert xp is not None
    if choice.kind == "histogram":
        return points.histogram(ask, placed, xp)
    if choice.kind == "line":
        return lines.line(ask, placed, xp, yps, cp, fp, auto_color=choice.auto_color)
    if choice.kind == "bars":
        return bars.bars(ask, placed, xp, yps, fp, horizontal_ok=choice.counted or auto_x, cp=cp)
    return points.scatter(ask, placed, xp, yps[0], cp, fp, auto_color=choice.auto_color)


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
