"""A line over time, a stage of a plan (an ``Ask`` and a ``Placement`` in, a ``Plan`` out):
``line`` from the rows it cleans in memory (their codes, for speed), ``grouped_line`` from
the facts and groups a backend answers (``Whole.grouped``) — the same bucket, series and
label rules (``chartkit.plan.choose``), the same drawing and words (``_drawn``). ``line_label``
tells a label of single rows from a series by the coverage of its values.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from chartkit.plan import choose, cleaning, points, refusing, writing
from chartkit.plan.encode import (
    Channel,
    ColumnProfile,
)
from chartkit.plan.facts import coverage, coverage_of_codes, coverage_of_pairs
from chartkit.plan.gaps import broken_at_gaps
from chartkit.plan.groups import BarGroups
from chartkit.plan.kit import (
    _HEAD,
    MEASURE,
    VALUE,
    Plan,
    _laid_out,
    _said,
    _show_sort,
    _varies,
    _y_pick,
)
from chartkit.plan.placement import Ask, NothingToDraw, Placement, of_rows
from chartkit.plan.reduce import (
    ROWS,
    KeyGroups,
    bucket_codes,
    distinct_rows,
    floor_to_unit,
    key_groups,
    reduce_by_one_key,
    reduce_frame,
    span_bucket_seconds,
    time_bounds,
    unit_codes,
)
from chartkit.plan.roles import indexes_series, levels_over, panel_over, values_of
from chartkit.plan.rules import MAX_FACETS
from chartkit.plan.sentences import (
    _join,
    bucketed_note,
    bucketed_why,
    measures_kept_note,
    nothing_held,
    option_ignored_note,
    panel_note,
    points_per_bucket,
    shared_note,
    sort_ignored,
    stacked_counts,
)


def line(
    ask: Ask,
    placed: Placement,
    xp: ColumnProfile,
    yps: list[ColumnProfile],
    cp: ColumnProfile | None,
    fp: ColumnProfile | None,
    *,
    auto_color: bool,
) -> Plan:
    """A line of each measure (or the rows counted) over the time ``xp``: its buckets, its
    series, and whether a color is an entity over time (``choose.is_entity``) — from the
    rows in memory (their codes, for speed), or the groups of a backend (``grouped_line``)."""
    if cp is None and auto_color:
        cp = refusing.auto_color(ask, {xp.name, fp.name if fp else None, *(m.name for m in yps)})
    how, unit = ask.opts.aggregate, ask.opts.time_unit
    if len(yps) > MAX_FACETS:  # a panel each (charts.py) past ten: at most MAX_FACETS
        yps, placed = _measures_kept(placed, yps)
    if ask.whole.grouped is not None:  # the rows stay in a backend: its groups
        return grouped_line(ask, placed, xp, yps, cp, fp)
    picks = {"x": xp.name, "y": _y_pick(yps), "color": cp.name if cp else None,
             "facet": fp.name if fp else None, "aggregate": how}  # fmt: skip
    if ask.probe and _head_varies(ask, xp, yps, cp, fp):
        return writing.proven("line", picks)
    data, placed = cleaning.used(ask, placed, ("x", xp), yps, "y", cp, fp)
    multi = len(yps) > 1
    if multi:
        data = cleaning.melt(placed, data, yps)
    fields = placed.fields
    fx = fields[xp.name]
    fy, what = writing.measure(placed, yps)
    series = [fields[cp.name]] if cp is not None else []
    series += [MEASURE] if multi else []
    series += [fields[fp.name]] if fp is not None else []
    keys = [fx, *series]
    if ask.probe and _line_varies(ask, data, fx, series, faceted=fp is not None):
        return writing.proven("line", picks)
    period = unit or xp.name
    aggregate: str | None = None
    drawn_ys = yps  # the picks drawn (``drawn``), whatever the chart counts
    if unit is not None:
        data = data.assign(**{fx: floor_to_unit(data[fx], unit)})
    faceted = fp is not None
    width = choose.FACET_WIDTH if faceted else choose.CHART_WIDTH
    over = len(data) > ask.max_points  # bucketed anyway: no time points to count
    over_width = unit is None and not over and len(data) > width and data[fx].nunique() > width
    # (a number on x is a grid of few values: its points are its values, never time buckets)
    line_bucketed = unit is None and xp.type != "quantitative" and (over or over_width)
    # a line splits by a category only when each value is an entity: found at most of the
    # line's time points, as drawn (each bucket, when the line is bucketed)
    # (an aggregate picked other than count is drawn per series, as asked)
    label: tuple[int, int] | None = None  # (fewest points of a value, the points)
    coded: tuple[int, Any, int, Any] | None = None  # the line's codes, made once
    groups: KeyGroups | None = None  # its rows grouped by bucket and label, made once
    if cp is not None and not multi and how in (None, "count"):
        times, fc = data[fx], fields[cp.name]
        if line_bucketed:
            series_n, known = distinct_rows(data, series)
            bounds = time_bounds(times)  # (read once: the bucket's size and its codes)
            positions = choose.line_positions(
                max_points=ask.max_points, series=series_n, faceted=faceted
            )
            at = span_bucket_seconds(times, positions, bounds=bounds)
            found = bucket_codes(times, at, floor=True, bounds=bounds)
            if found is not None and fc in known:  # the buckets' and labels' codes
                coded = (series_n, known, at, found)
                if fp is None:  # the line's own groups: its reduction reuses them
                    groups = key_groups((fx, fc), [found, known[fc]])
                if groups is not None:
                    label = _label_of(*coverage_of_pairs(groups.at, max(1, len(known[fc][1]))))
                else:
                    label = _label_of(*coverage_of_codes(found[0], known[fc][0]))
            else:
                times = pd.Series(found[0]) if found is not None else times.dt.floor(f"{at}s")
        if coded is None:
            label = line_label(times, data[fc])
        if ask.roles.role(cp.name) == "entity":  # its values key the rows with the time
            label = None  # (a stray value's single row does not unmake the series)
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
    if counted or not bucketed:  # (counted per bar over buckets of their own, or not at all)
        groups = None
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
                    max_points=ask.max_points, series=series_n, faceted=faceted
                )
            bounds = time_bounds(data[fx])
            seconds = span_bucket_seconds(data[fx], target, bounds=bounds)
            found = bucket_codes(data[fx], seconds, floor=True, bounds=bounds)
        del coded
        rows = len(data)
        aggregate = "count" if counted else how or "mean"
        # each date's bucket counted by integer arithmetic, the dates themselves not floored
        buckets, found = found, None  # (one name holds them: handed over below)
        given = dict(known) if buckets is None else {**known, fx: buckets}
        del known, buckets  # handed over: the reduction lets each key's codes go when used
        reduced = (
            reduce_by_one_key(data, keys, fy, aggregate, given, groups) if fx in given else None
        )
        groups = None
        if reduced is None:  # dates the arithmetic does not floor: pandas floors them
            data = data.assign(**{fx: data[fx].dt.floor(f"{seconds}s")})
            given.pop(fx, None)  # the floored dates get codes of their own
            reduced = reduce_frame(data, keys, fy, aggregate, given)  # codes still held: reused
        data = reduced
        period = f"{choose.bucket_name(seconds)} bucket"
        why = bucketed_why(
            counted=counted, over=ask.max_points if rows > ask.max_points else None, width=width
        )
        marks = len(data)
        if counted and cp is not None:  # the bars, each a stack of the label's counts
            marks = data[fx].nunique()
            drawn_as = stacked_counts(marks, period, cp.name)
        else:
            series_name = cp.name if cp else None
            drawn_as = points_per_bucket(marks, aggregate, what, seconds, series_name)
        placed = replace(placed, reduction={"bucket_seconds": seconds, "aggregate": aggregate})
        placed = placed.said(bucketed_note(xp.name, rows, marks, seconds, drawn_as, why,
                                           bars=counted and cp is not None))  # fmt: skip
        if not counted:
            placed = _entities_said(ask, placed, xp, cp, fp, what, aggregate, multi=multi)
    elif counted:
        aggregate = "count"
        data = reduce_frame(data, keys, fy, aggregate, codes)
    elif shared:
        aggregate = how or "mean"
        placed = _shared_said(ask, placed, xp, cp, fp, what, aggregate, multi=multi)
        data = reduce_frame(data, keys, fy, aggregate, codes)  # the same rows: codes reused
    else:
        if not data[fx].is_monotonic_increasing:  # already in order: a stable sort keeps it
            data = data.sort_values(fx, kind="stable")
        data = data.reset_index(drop=True)
    return _drawn(
        ask, placed, _Line(xp, yps, drawn_ys, cp, fp, fy, what, aggregate, period, label,
                           counted=counted, multi=multi), data,
    )  # fmt: skip


def _entity(
    ask: Ask, xp: ColumnProfile, cp: ColumnProfile | None, fp: ColumnProfile | None, *, multi: bool
) -> str | None:
    """The entity of more series than lines whose mean (or other aggregate) each point of
    the line is (``roles.panel_over``), or None."""
    if multi:
        return None
    return panel_over(ask.roles, xp.name, [q.name if q else None for q in (cp, fp)])


def _entities_said(
    ask: Ask,
    placed: Placement,
    xp: ColumnProfile,
    cp: ColumnProfile | None,
    fp: ColumnProfile | None,
    what: str,
    aggregate: str,
    *,
    multi: bool,
) -> Placement:
    """The note that each point aggregates the series of an entity of more values than
    lines, when it does: how many, over which factor, never silently."""
    entity = _entity(ask, xp, cp, fp, multi=multi)
    if entity is None:
        return placed
    series = cp.name if cp is not None else fp.name if fp is not None else None
    return placed.said(
        panel_note(entity, ask.roles[entity].distinct, xp.name, series, what, aggregate)
    )


def _shared_said(
    ask: Ask,
    placed: Placement,
    xp: ColumnProfile,
    cp: ColumnProfile | None,
    fp: ColumnProfile | None,
    what: str,
    aggregate: str,
    *,
    multi: bool,
) -> Placement:
    """What the line says of rows sharing a point: the entities it averages (a panel of
    more series than lines), or that rows share a point when no aggregate was picked, and
    a category too wide to split the line by."""
    if _entity(ask, xp, cp, fp, multi=multi) is not None:
        return _entities_said(ask, placed, xp, cp, fp, what, aggregate, multi=multi)
    how, unit = ask.opts.aggregate, ask.opts.time_unit
    if how is None:
        share = f"{unit} of {xp.name}" if unit else xp.name
        placed = placed.said(shared_note(xp.name, share, cp.name if cp else None, what))
    if cp is None and fp is None and not multi:
        placed = refusing.note_unsplit(ask, placed, xp)
    return placed


def _measures_kept(
    placed: Placement, yps: list[ColumnProfile]
) -> tuple[list[ColumnProfile], Placement]:
    """The first ``MAX_FACETS`` measures of a line per measure, the others left out and
    said (a ``top`` note of no column: the caption says it on the picture)."""
    out = [m.name for m in yps[MAX_FACETS:]]
    return yps[:MAX_FACETS], placed.said(measures_kept_note(len(yps), MAX_FACETS, out))


@dataclass(frozen=True)
class _Line:
    """What a line draws, from the rows or a backend's groups alike: its columns (``yps``
    drawn, ``drawn_ys`` picked), the value field and what it is called, the aggregate and the
    period it is taken over, and whether the color is a label of single rows."""

    xp: ColumnProfile
    yps: list[ColumnProfile]
    drawn_ys: list[ColumnProfile]
    cp: ColumnProfile | None
    fp: ColumnProfile | None
    fy: str
    what: str
    aggregate: str | None
    period: str
    label: tuple[int, int] | None
    counted: bool
    multi: bool


def _drawn(ask: Ask, placed: Placement, ln: _Line, data: pd.DataFrame) -> Plan:
    """The line's encodings, reason and title, from its data (the rows, or their groups)."""
    xp, yps, cp, fp, aggregate, what = ln.xp, ln.yps, ln.cp, ln.fp, ln.aggregate, ln.what
    how = ask.opts.aggregate
    fx = placed.fields[xp.name]
    if ask.opts.sort is not None:
        placed = placed.said(option_ignored_note(sort_ignored(_show_sort(ask.opts.sort))))
    one_date = data[fx].nunique() == 1
    yt = "rows" if not yps else (f"{aggregate} of {what}" if aggregate else what)
    enc = {
        "x": writing.enc(placed, "x", xp),
        "y": writing.y_enc(placed, "y", yps, xp, aggregate),
    }
    if cp is not None:
        # (a number's few levels — diets 1 to 4 — are told apart, not read as a gradient)
        enc["color"] = replace(writing.enc(placed, "color", cp), type="nominal")
    elif ln.multi:
        enc["color"] = writing.series_enc(yps)
    if fp is not None:
        enc["facet"] = writing.enc(placed, "facet", fp)
    placed = replace(placed, drawn={"x": xp.name, "y": _y_pick(ln.drawn_ys),
                                    "color": cp.name if cp else None,
                                    "facet": fp.name if fp else None,
                                    "aggregate": how})  # fmt: skip
    title = f"{yt} over {xp.name}"
    what_drawn = "bars for its one date" if one_date else "a line over time"
    if aggregate == "count":
        what_drawn = f"{what_drawn} of the rows counted per {ln.period}"
    elif aggregate is not None:
        what_drawn = f"{what_drawn} of the {aggregate} per {ln.period}"
    mark = "bar" if one_date else "line"
    if ln.multi:
        said = f"{_join([m.name for m in yps])} are declared number"
        one = "bars" if one_date else "one line"
        reason = f"{_said(xp, True)} and {said}: {what_drawn}, {one} per measure."
    elif ln.label is not None and cp is not None:
        mark = "bar" if ln.counted else "point"
        reason = _label_reason(xp, ln.drawn_ys, cp, ln.label, counted=ln.counted,
                               period=ln.period)  # fmt: skip
    elif aggregate is not None and (entity := _entity(ask, xp, cp, fp, multi=False)):
        reason = _entities_reason(ask, xp, yps[0], cp, fp, entity, aggregate)
        # the picture says it too: how many series each point stands for
        title = f"{title} ({ask.roles[entity].distinct:,} values of {entity})"
    elif aggregate is not None and yps and levels_over(ask.roles, xp.name):
        reason = _levels_reason(ask, xp, yps[0], cp, aggregate)
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
    placed = points.log_check(ask, placed, data, ln.fy, what)
    # a regular series' missing times: the line breaks (or drops to 0); over a number, only
    # one a series runs along (a dose's levels are a design: a level no row holds is no gap)
    if mark == "line" and (xp.type != "quantitative" or indexes_series(ask.roles, xp.name)):
        series = [placed.fields[q.name] for q in (cp, fp) if q is not None]
        counted_zero = aggregate == "count" and not placed.log_refused and (
            ask.opts.scale != "log"
        )  # fmt: skip
        data = broken_at_gaps(data, fx, ln.fy, [*series, *([MEASURE] if ln.multi else [])],
                              zero=counted_zero)  # fmt: skip
    return writing.chart(ask, placed, mark, reason, enc, data, title=title)


def _levels_reason(
    ask: Ask, xp: ColumnProfile, yp: ColumnProfile, cp: ColumnProfile | None, aggregate: str
) -> str:
    """Why a line is drawn of the aggregate per level of a dose (``roles.levels_over``): few
    ordered values and the rows that hold them (two a level or more on average), split by the
    factor colored."""
    how = {"mean": "mean", "sum": "total (sum)"}.get(aggregate, aggregate)
    grid = ask.roles[xp.name]
    n, rows = grid.distinct, grid.numbers.values
    per = ""
    if cp is not None:
        per = f", one per {cp.name} ({_said(cp)}, {values_of(ask.roles, cp)} values)"
    return (
        f"{_said(xp, True)} and {_said(yp, True)}; {xp.name} holds {n} ordered levels over "
        f"{rows:,} rows: a line of the {how} of {yp.name} per level{per}."
    )


def _entities_reason(
    ask: Ask,
    xp: ColumnProfile,
    yp: ColumnProfile,
    cp: ColumnProfile | None,
    fp: ColumnProfile | None,
    entity: str,
    aggregate: str,
) -> str:
    """Why a line is drawn of the aggregate of an entity's series: more of them than lines a
    chart tells apart (``roles.panel_over``), split by the factor holding each in one value."""
    how = {"mean": "mean", "sum": "total (sum)"}.get(aggregate, aggregate)
    n = ask.roles[entity].distinct
    split = cp or fp
    per = ""
    if split is not None:
        values = values_of(ask.roles, split)  # (a number's, as its role counts them)
        per = f", one per {split.name} ({_said(split)}, {values} values, each {entity} "
        per += "in one of them)"
    return (
        f"{_said(xp, True)} and {_said(yp, True)}; {xp.name} keys the rows with {entity}, whose "
        f"{n:,} values are each a series over it, more than the {MAX_FACETS} lines a chart can "
        f"tell apart: a line of the {how} of {yp.name} per {xp.name}{per}."
    )


def _head_varies(
    ask: Ask,
    xp: ColumnProfile,
    yps: list[ColumnProfile],
    cp: ColumnProfile | None,
    fp: ColumnProfile | None,
) -> bool:
    """True when the first rows alone, cleaned as ``line`` cleans every row, hold two
    series: rows are kept or left out one by one, so the whole line holds them too.

    Lets a probe skip preparing every row. False when that cannot be told so (several
    measures: their rows are dropped after melting; no series; one series in the head).
    """
    if len(ask.frame) <= _HEAD or len(yps) > 1 or (cp is None and fp is None):
        return False
    head = Ask(ask.frame.iloc[:_HEAD], ask.profiles, ask.max_points, ask.opts, ask.cands)
    try:
        data, placed = cleaning.used(head, Placement(), ("x", xp), yps, "y", cp, fp)
    except NothingToDraw:
        return False
    return any(_varies(data[placed.fields[q.name]]) for q in (cp, fp) if q is not None)


def _line_varies(
    ask: Ask, data: pd.DataFrame, fx: str, series: list[str], *, faceted: bool
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
    if ask.opts.time_unit is not None:
        ends = floor_to_unit(ends, ask.opts.time_unit)
    elif len(data) > ask.max_points or (len(data) > width and x.nunique() > width):
        # one series (or none): the bucket line picks
        positions = choose.line_positions(max_points=ask.max_points, series=1,
                                          faceted=faceted)  # fmt: skip
        ends = ends.dt.floor(f"{span_bucket_seconds(x, positions)}s")
    return bool(ends.iloc[0] != ends.iloc[1])


def grouped_line(
    ask: Ask,
    placed: Placement,
    xp: ColumnProfile,
    yps: list[ColumnProfile],
    cp: ColumnProfile | None,
    fp: ColumnProfile | None,
) -> Plan:
    """A line from the groups of the backend that holds its rows (``Whole.grouped``): the
    bucket, the series and whether the color is a label are chosen by the rules ``line``
    follows over rows in memory (``choose``), from the facts and groups the backend counts
    (``chartkit.plan.groups.Grouped``); the encodings, reason and title are ``line``'s."""
    grouped = ask.whole.grouped
    assert grouped is not None
    how, unit = ask.opts.aggregate, ask.opts.time_unit
    multi, faceted = len(yps) > 1, fp is not None
    ms = [m.name for m in yps]
    split = [q.name for q in (cp, fp) if q is not None]
    given = (placed, yps)
    placed = placed.with_fields(xp, *yps, cp, fp)
    placed = cleaning.said_by_backend(
        ask, placed, [xp.name, *ms, *split], [(xp.name, "x"), *((m, "y") for m in ms)],
        ms if multi else (),
    )  # fmt: skip
    facts = grouped.line_facts(xp.name, ms, split)
    rows = sum(facts.values) if multi else facts.rows  # the points the rows make
    if not facts.rows:
        cleaning.nothing(placed, nothing_held(xp.name))
    span = (pd.Timestamp(facts.hi) - pd.Timestamp(facts.lo)).total_seconds()
    width = choose.FACET_WIDTH if faceted else choose.CHART_WIDTH
    over = rows > ask.max_points
    if cp is not None and not multi and how in (None, "count") and not over and ask.whole.rows:
        # a color that may be a label of single rows, whose rows fit max_points: they are
        # fetched and planned as memory plans them (a label's rows are points there)
        sub, subplaced = of_rows(ask, placed, ask.whole.rows.line(xp.name, ms, split))
        own = sub.profiles
        return line(
            sub, subplaced, own[xp.name], [own[m.name] for m in yps], own[cp.name],
            own[fp.name] if fp is not None else None, auto_color=False,
        )  # fmt: skip
    over_width = (
        unit is None and not over and rows > width
        and grouped.distinct_times(xp.name, ms, split) > width
    )  # fmt: skip
    line_bucketed = unit is None and xp.type != "quantitative" and (over or over_width)
    n_series = (len(yps) if multi else 1) * max(1, facts.series)
    line_at = choose.bucket_seconds(span, choose.line_positions(
        max_points=ask.max_points, series=n_series, faceted=faceted))  # fmt: skip
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
        if ask.roles.role(cp.name) == "entity":  # its values key the rows with the time
            label = None  # (a stray value's single row does not unmake the series)
    counted = label is not None  # (a label's rows as points fit max_points: fetched above)
    drawn_ys = yps
    fy, what = writing.measure(placed, yps)
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
    if grouped.line_facts(xp.name, ms, split) != facts:
        # the facts were every row's, and the line's groups hold its own (rows leave it out):
        # planned again from them (a group asked again only where its bucket moved)
        return grouped_line(ask, given[0], xp, given[1], cp, fp)
    data, placed = _grouped_data(ask, placed, xp, yps, cp, fp, got)
    shared = counted or how is not None or (ROWS in data.columns and bool((data[ROWS] > 1).any()))
    period = unit or xp.name
    f = placed.fields
    if bucketed:
        period = f"{choose.bucket_name(seconds)} bucket"
        why = bucketed_why(counted=counted, over=ask.max_points if over else None, width=width)
        marks = len(data)
        if counted and cp is not None:  # the bars, each a stack of the label's counts
            marks = data[f[xp.name]].nunique()
            drawn_as = stacked_counts(marks, period, cp.name)
        else:
            drawn_as = points_per_bucket(marks, asked, what, seconds,
                                         cp.name if cp else None)  # fmt: skip
        placed = replace(placed, reduction={"bucket_seconds": seconds, "aggregate": aggregate})
        placed = placed.said(bucketed_note(xp.name, rows, marks, seconds, drawn_as, why,
                                           bars=counted and cp is not None))  # fmt: skip
        if not counted and aggregate is not None:
            placed = _entities_said(ask, placed, xp, cp, fp, what, aggregate, multi=multi)
    elif not counted and shared:
        placed = _shared_said(ask, placed, xp, cp, fp, what, aggregate or "mean", multi=multi)
    elif not counted:
        aggregate = None  # each point one row's value: nothing aggregated, none named
    if yps:
        order = [f[xp.name]] + ([f[cp.name]] if cp is not None else [])
        order += [MEASURE] if multi else []
        order += [f[fp.name]] if fp is not None else []
        data = _laid_out(data, f[xp.name], fy, aggregate is not None, order)
    return _drawn(
        ask, placed, _Line(xp, yps, drawn_ys, cp, fp, fy, what, aggregate, period, label,
                           counted=counted, multi=multi), data,
    )  # fmt: skip


def _grouped_data(
    ask: Ask,
    placed: Placement,
    xp: ColumnProfile,
    yps: list[ColumnProfile],
    cp: ColumnProfile | None,
    fp: ColumnProfile | None,
    got: BarGroups,
) -> tuple[pd.DataFrame, Placement]:
    """The backend's groups laid out as ``line`` lays out the rows it reduced: the time
    and series in their fields (prepared as the rows' are), then the aggregate in the
    measure's field (``VALUE`` beside ``MEASURE`` for several) and the rows behind it in
    ``ROWS``; or the rows counted, ``count``; in the order of the keys."""
    f = placed.fields
    frame = got.frame
    keys: dict[str, Any] = {}
    used: tuple[tuple[Channel, ColumnProfile | None], ...] = (
        ("x", xp), ("color", cp), ("facet", fp),
    )  # fmt: skip
    for channel, q in used:
        if q is not None:
            prepared, _, placed = cleaning.values(ask, placed, channel, q, frame[q.name])
            keys[f[q.name]] = prepared.to_numpy()
    order = [f[xp.name]] + ([f[cp.name]] if cp is not None else [])
    order += [MEASURE] if len(yps) > 1 else []
    order += [f[fp.name]] if fp is not None else []
    if not yps:
        counted = {**keys, "count": np.asarray(got.rows[0], dtype=np.int64)}
        return pd.DataFrame(counted), placed
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
    return data.reset_index(drop=True), placed


def _label_reason(
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
