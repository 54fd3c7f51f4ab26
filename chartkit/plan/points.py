"""Points, a stage of a plan (an ``Ask`` and a ``Placement`` in, a ``Plan`` out): a scatter
plot (a binned heatmap over ``max_points`` rows, or the rows a backend fetched when they fit), a
histogram or count bars of a lone number, and the log scales a scatter's axes may take — from
the rows cleaned in memory or a backend's counts (``Whole.counted``, ``Whole.rows``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np
import pandas as pd

from chartkit.errors import ChartkitError
from chartkit.plan import choose, cleaning, refusing, writing
from chartkit.plan.bins import (
    ArrayCounts,
    Counted,
    cell_edges,
    cells_per_axis,
    histogram_edges,
)
from chartkit.plan.encode import (
    ColumnProfile,
)
from chartkit.plan.gaps import broken_at_gaps
from chartkit.plan.kit import (
    COUNT_BARS_UNDER,
    HISTOGRAM_BINS,
    Plan,
    _count,
    _said,
)
from chartkit.plan.placement import Ask, Placement, of_rows
from chartkit.plan.roles import indexes_series, is_factor, series_over
from chartkit.plan.rules import PAIRS_ASKED
from chartkit.plan.sentences import (
    LOG_BINS_IGNORED,
    aggregate_ignored,
    heatmap_note,
    log_refused_note,
    log_scale_note,
    nothing_held,
    option_ignored_note,
    pairs_note,
)

__all__ = ["histogram", "log_axes", "log_check", "scatter"]


def log_check(ask: Ask, placed: Placement, data: pd.DataFrame, fy: str, what: str) -> Placement:
    """Refuse a log scale, with the reason, when a drawn value is zero or negative."""
    if ask.opts.scale != "log" or fy not in data.columns:
        return placed
    values = data[fy].to_numpy(dtype=float)
    bad = values <= 0
    if not bad.any():
        return placed
    return replace(placed, log_refused=True).said(
        log_refused_note(int(bad.sum()), len(values), what, values[bad][0])
    )


def log_axes(
    ask: Ask,
    placed: Placement,
    data: pd.DataFrame,
    axes: Sequence[tuple[str, ColumnProfile, str]],
) -> Placement:
    """Put a scatter's axis on a log scale when ``scale`` was not picked and its values,
    all positive, span ``LOG_ORDERS`` powers of ten or more (from their counted span) — or
    when the chart these rows were drilled from did (``log_columns``) and they allow it."""
    if ask.opts.scale_picked or data.empty:
        return placed
    for channel, q, f in axes:
        values = data[f].to_numpy(dtype=float)
        lo, hi = float(np.nanmin(values)), float(np.nanmax(values))
        orders = choose.log_axis(lo, hi)
        if orders is None and q.name in ask.opts.log_columns and lo > 0:
            # (a drilled chart's values are the parent's)
            placed = replace(placed, log_axes=(*placed.log_axes, channel)).said(
                log_scale_note(q.name, lo, hi, len(values), None)
            )
        if orders is None:
            continue
        placed = replace(placed, log_axes=(*placed.log_axes, channel)).said(
            log_scale_note(q.name, lo, hi, len(values), orders)
        )
    return placed


def scatter(
    ask: Ask,
    placed: Placement,
    xp: ColumnProfile,
    yp: ColumnProfile,
    cp: ColumnProfile | None,
    fp: ColumnProfile | None,
    *,
    auto_color: bool,
) -> Plan:
    """A scatter plot of ``yp`` against ``xp`` (a binned heatmap over ``max_points`` rows; a
    line when x is a grid each series indexes)."""
    if cp is None and auto_color:
        cp = refusing.auto_color(ask, {xp.name, yp.name, fp.name if fp else None})
    data: pd.DataFrame | None = None
    if ask.whole.counted is None:
        data, placed = cleaning.used(ask, placed, ("x", xp), [yp], "y", cp, fp)
        counted: Counted = ArrayCounts(
            {q.name: data[placed.fields[q.name]].to_numpy(dtype=float) for q in (xp, yp)}
        )
    else:
        counted, placed = _backend_counted(ask, placed, [xp, yp, cp, fp])
    fetch = ask.whole.rows
    if data is None and fetch is not None:  # a backend's rows: fetched when they fit
        sx, sy = counted.held(xp.name, enough=0), counted.held(yp.name, enough=0)
        rows = sx.rows if sx is not None and sy is not None else 0
        if ask.probe and 1 < rows <= ask.max_points:
            return writing.proven("point", placed.drawn)  # each row a point
        if 0 < rows <= ask.max_points:
            beside = [q.name for q in (cp, fp) if q is not None]
            sub, subplaced = of_rows(ask, placed, fetch.points(xp.name, yp.name, beside))
            own = sub.profiles
            return scatter(
                sub, subplaced, own[xp.name], own[yp.name],
                own[cp.name] if cp is not None else None,
                own[fp.name] if fp is not None else None, auto_color=False,
            )  # fmt: skip
    fx, fy = placed.fields[xp.name], placed.fields[yp.name]
    said = f"{_said(xp, True)} and {_said(yp, True)}"
    if ask.opts.aggregate is not None:
        placed = placed.said(option_ignored_note(aggregate_ignored(ask.opts.aggregate)))
    placed = replace(placed, drawn={"x": xp.name, "y": yp.name, "color": cp.name if cp else None,
                                    "facet": fp.name if fp else None})  # fmt: skip
    sx, sy = counted.held(xp.name, enough=0), counted.held(yp.name, enough=0)
    if sx is None or sy is None:  # (a backend's rows: in memory, used said so)
        cleaning.nothing(placed, nothing_held(f"{xp.name} and {yp.name}", both=True))
    rows = sx.rows  # the rows the points stand for
    if data is None and rows == 1:  # a backend's one point: where both spans are
        data = pd.DataFrame({fx: [sx.lo], fy: [sy.lo]})
        for q in (cp, fp):
            if q is not None:
                data[placed.fields[q.name]] = None
    if ask.probe and rows > ask.max_points and (sx.lo != sx.hi or sy.lo != sy.hi):
        # the lowest and the highest fall in different bins
        return writing.proven("rect", placed.drawn)
    if rows > ask.max_points:
        pairs = _pairs(ask, placed, xp, yp, cp, fp, counted, rows)
        return pairs or _heatmap(ask, placed, xp, yp, cp, fp, counted, rows)
    if data is None:
        raise ChartkitError(
            f"the backend's counts stand for {rows:,} rows, but a scatter of at most "
            f"max_points={ask.max_points:,} draws the rows themselves; please report this"
        )
    enc = {"x": writing.enc(placed, "x", xp), "y": writing.enc(placed, "y", yp)}
    if cp is not None:
        enc["color"] = writing.enc(placed, "color", cp)
        if cp.type == "quantitative" and is_factor(ask.roles, cp.name):  # few levels: told
            enc["color"] = replace(enc["color"], type="nominal")  # apart, not a gradient
    if fp is not None:
        enc["facet"] = writing.enc(placed, "facet", fp)
    colored = f"; {cp.name} ({_said(cp)}) as color" if cp is not None else ""
    faceted = f"; one small chart per {fp.name}" if fp is not None else ""
    placed = log_check(ask, placed, data, fy, yp.name)
    placed = log_axes(ask, placed, data, (("x", xp, fx), ("y", yp, fy)))
    if series_over(ask.roles, xp.name, [q.name for q in (cp, fp) if q is not None]):
        grid = ask.roles[xp.name]
        per = f", one per {cp.name}" if cp is not None else ""
        per += f", one small chart per {fp.name}" if fp is not None else ""
        split = [placed.fields[q.name] for q in (cp, fp) if q is not None]
        return writing.chart(
            ask,
            placed,
            "line",
            f"{said}: {grid.why}, so {yp.name} is a series over it: a line{per}.",
            enc,
            # (a regular series' missing points: the line breaks there; a design's levels,
            # concentrations of 0 to 50, miss none)
            broken_at_gaps(data.sort_values(fx, kind="stable"), fx, fy, split)
            if indexes_series(ask.roles, xp.name)
            else data.sort_values(fx, kind="stable"),
            title=f"{yp.name} over {xp.name}",
        )
    return writing.chart(
        ask,
        placed,
        "point",
        f"{said}: a scatter plot{colored}{faceted}.",
        enc,
        data,
        title=f"{yp.name} against {xp.name}",
    )


def _pairs(
    ask: Ask,
    placed: Placement,
    xp: ColumnProfile,
    yp: ColumnProfile,
    cp: ColumnProfile | None,
    fp: ColumnProfile | None,
    counted: Counted,
    rows: int,
) -> Plan | None:
    """A scatter of more than ``max_points`` rows whose distinct (x, y) pairs fit
    ``max_points``: one point per pair, sized by the rows it stands for — nothing binned, the
    overplotting made visible (None when the pairs do not fit: a heatmap). The pairs are
    counted only when they cannot outnumber ``PAIRS_ASKED`` times ``max_points``."""
    enough = ask.max_points + 1  # (distinct values counted exactly up to max_points)
    sx, sy = counted.span(xp.name, enough=enough), counted.span(yp.name, enough=enough)
    if max(sx.distinct, sy.distinct) > ask.max_points:
        return None  # (each value of x, or of y, is a pair at least)
    if min(rows, sx.distinct * sy.distinct) > PAIRS_ASKED * ask.max_points:
        return None
    (xs, ys), held = counted.per_pair(xp.name, yp.name)
    if len(held) > ask.max_points:
        return None
    fx, fy = placed.fields[xp.name], placed.fields[yp.name]
    data = pd.DataFrame({fx: np.asarray(xs, dtype=float), fy: np.asarray(ys, dtype=float),
                         "count": np.asarray(held, dtype=int)})  # fmt: skip
    lost = [q.name for q in (cp, fp) if q is not None]
    placed = replace(placed, reduction={"aggregate": "count"}).said(
        pairs_note(rows, len(held), xp.name, yp.name, ask.max_points, lost)
    )
    placed = log_axes(ask, placed, data, (("x", xp, fx), ("y", yp, fy)))
    enc = {
        "x": writing.enc(placed, "x", xp),
        "y": writing.enc(placed, "y", yp),
        "size": _count(xp),
    }
    said = f"{_said(xp, True)} and {_said(yp, True)}"
    return writing.chart(
        ask,
        placed,
        "point",
        f"{said}: a scatter plot of their {len(held):,} distinct pairs, each a point sized by "
        f"its rows, as there are {rows:,} rows.",
        enc,
        data,
        title=f"{yp.name} against {xp.name}",
    )


def _heatmap(
    ask: Ask,
    placed: Placement,
    xp: ColumnProfile,
    yp: ColumnProfile,
    cp: ColumnProfile | None,
    fp: ColumnProfile | None,
    counted: Counted,
    rows: int,
) -> Plan:
    """A scatter of more than ``max_points`` rows: a binned heatmap of their counts."""
    fx, fy = placed.fields[xp.name], placed.fields[yp.name]
    sx, sy = counted.held(xp.name, enough=0), counted.held(yp.name, enough=0)
    assert sx is not None and sy is not None
    bins = cells_per_axis(ask.max_points)
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
    placed = replace(placed, reduction={"bins": (bins, bins), "aggregate": "count"}).said(
        heatmap_note(rows, bins, ask.max_points, lost)
    )
    enc = {
        "x": writing.enc(placed, "x", xp, bin=True),
        "y": writing.enc(placed, "y", yp, bin=True),
        "color": _count(xp),
    }
    said = f"{_said(xp, True)} and {_said(yp, True)}"
    return writing.chart(
        ask,
        placed,
        "rect",
        f"{said}: a binned heatmap, as there are {rows:,} rows.",
        enc,
        data,
        title=f"{yp.name} against {xp.name}",
    )


def histogram(ask: Ask, placed: Placement, q: ColumnProfile) -> Plan:
    """A lone number: count bars of its values (fewer than ``COUNT_BARS_UNDER``), or a
    histogram of ``HISTOGRAM_BINS`` bins."""
    if ask.whole.counted is not None:
        counted, placed = _backend_counted(ask, placed, [q, None])
    else:
        data, placed = cleaning.clean(ask, placed, [("x", q)])
        counted = ArrayCounts({q.name: data[placed.fields[q.name]].to_numpy(dtype=float)})
    f = placed.fields[q.name]
    placed = replace(placed, drawn={"x": q.name})
    span = counted.held(q.name, enough=COUNT_BARS_UNDER)
    if span is None:  # (a backend's rows: in memory, clean said so)
        cleaning.nothing(placed, nothing_held(q.name))
    if ask.probe and span.lo != span.hi:
        return writing.proven("bar", placed.drawn)  # two values: two count bars, or ten bins
    if ask.opts.scale == "log":
        placed = placed.said(option_ignored_note(LOG_BINS_IGNORED))
    only = (
        " and is the only measure"
        if all(p is q or not p.is_measure for p in ask.profiles.values())
        else ""
    )
    if span.distinct < COUNT_BARS_UNDER:
        values, rows = counted.per_value(q.name)
        data = pd.DataFrame({f: np.asarray(values, dtype=float),
                             "count": np.asarray(rows, dtype=int)})  # fmt: skip
        enc = {"x": writing.enc(placed, "x", q), "y": _count(q)}
        reason = (
            f"{_said(q, True)}{only}, with {span.distinct:,} distinct "
            f"{'value' if span.distinct == 1 else 'values'}: a bar "
            "counting the rows of each."
        )
        return writing.chart(ask, placed, "bar", reason, enc, data, title=f"rows by {q.name}")
    edges = histogram_edges(span.lo, span.hi, HISTOGRAM_BINS)
    (at,), rows = counted.per_bin((q.name,), (edges,))
    binned = np.zeros(len(edges) - 1, dtype=int)
    binned[np.asarray(at, dtype=np.intp)] = rows
    data = pd.DataFrame({f: edges[:-1], f"{f}_end": edges[1:], "count": binned})
    enc = {
        "x": writing.enc(placed, "x", q, bin=True),
        "y": _count(q),
    }
    reason = f"{_said(q, True)}{only}: a histogram of its values in {HISTOGRAM_BINS} bins."
    return writing.chart(ask, placed, "bar", reason, enc, data,
                         title=f"distribution of {q.name}")  # fmt: skip


def _backend_counted(
    ask: Ask, placed: Placement, used: list[ColumnProfile | None]
) -> tuple[Counted, Placement]:
    """``Whole.counted`` of the numbers the chart places (the first two of ``used``; a
    color or facet beside them places the rows too, as in memory), the used columns given
    their fields (the backend places the rows, and said what it left out)."""
    assert ask.whole.counted is not None
    placed = placed.with_fields(*used)
    numbers = tuple(q.name for q in used[:2] if q is not None)
    beside = tuple(q.name for q in used[2:] if q is not None)
    # a color that is a number or a date places its rows as an axis does (a row holding
    # no value, or an infinite number, has no color to be drawn in), as memory cleans it
    axes = list(zip(numbers, ("x", "y"), strict=False)) + [
        (q.name, channel)
        for q, channel in zip(used[2:], ("color", "facet"), strict=False)
        if q is not None and q.type != "nominal"
    ]  # fmt: skip
    placed = cleaning.said_by_backend(ask, placed, [*numbers, *beside], axes)
    return ask.whole.counted(numbers, beside), placed
