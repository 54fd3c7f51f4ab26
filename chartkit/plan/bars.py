"""Bars, a stage of a plan (an ``Ask`` and a ``Placement`` in, a ``Plan`` out): a measure per
category, a breakdown stacked by a second category, count bars; from the rows in memory or a
backend's groups (``Whole.grouped``); cut to the top categories, ranked and ordered (``sort=``;
the missing category where it ranks).
"""

from __future__ import annotations

import contextlib
from dataclasses import replace
from typing import Any

import numpy as np
import pandas as pd

from chartkit._safe import name_list
from chartkit.plan import choose, cleaning, points, writing
from chartkit.plan.encode import (
    Channel,
    ColumnProfile,
    Encoding,
)
from chartkit.plan.facts import FrameFacts
from chartkit.plan.kit import (
    HORIZONTAL_OVER,
    MAX_BAR_CATEGORIES,
    MEASURE,
    VALUE,
    Plan,
    _axes,
    _category_key,
    _laid_out,
    _missing,
    _said,
    _varies,
    _y_pick,
)
from chartkit.plan.placement import Ask, Placement
from chartkit.plan.reduce import (
    ROWS,
    distinct_rows,
    reduce_frame,
)
from chartkit.plan.sentences import _join, nothing_held, sort_absent_note, top_note

__all__ = ["bars", "breakdown", "breakdown_of", "shares_positions"]


def breakdown_of(
    ask: Ask,
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
    if ask.opts.aggregate is not None or len(ask.frame) > ask.max_points:
        return None
    if ask.whole.grouped is not None:  # (the rows stayed in a backend: over max_points)
        return None
    xp = ask.profiles[x]
    if ask.profiles[ys[0]].violation is not None:
        return None
    facts = ask.whole.facts or FrameFacts(ask.frame)  # every row's, not the frame's
    return choose.breakdown_key(
        xp, ask.profiles.values(), lambda name: facts.unique_pairs(x, name)
    )


def breakdown(
    ask: Ask, placed: Placement, xp: ColumnProfile, yp: ColumnProfile, kp: ColumnProfile
) -> Plan:
    """Bars of the total of ``yp`` per ``xp``, stacked by ``kp``: rows that are a
    breakdown (one row per ``xp`` and ``kp``) are summed, not averaged."""
    data, placed = cleaning.used(ask, placed, ("x", xp), [yp], "y", kp, None)
    fx, fy = placed.fields[xp.name], placed.fields[yp.name]
    placed = replace(placed, drawn={"x": xp.name, "y": yp.name, "color": kp.name,
                                    "aggregate": "sum"})  # fmt: skip
    ranking = data.groupby(fx, sort=False, dropna=False)[fy].sum()
    ranking = ranking.sort_values(ascending=False, kind="stable")
    data, order, placed = _top_bars(ask, placed, data, xp, ranking,
                                    f"with the highest sum of {yp.name}")  # fmt: skip
    enc = {
        "x": writing.enc(placed, "x", xp),
        "y": writing.y_enc(placed, "y", [yp], xp, "sum"),
        "color": writing.enc(placed, "color", kp),
    }
    reason = (
        f"{_said(xp, True)}, {_said(kp, True)} and {_said(yp, True)}, one "
        f"row per {xp.name} and {kp.name}: a breakdown, so bars of the total of {yp.name} "
        f"per {xp.name}, stacked by {kp.name}."
    )
    placed = points.log_check(ask, placed, data, fy, yp.name)
    return writing.chart(ask, placed, "bar", reason, enc, data,
                         title=f"sum of {yp.name} by {xp.name}", order=tuple(order))  # fmt: skip


def _top_bars(
    ask: Ask,
    placed: Placement,
    data: pd.DataFrame,
    xp: ColumnProfile,
    ranking: pd.Series,
    ranked: str,
    categories: int = 0,
) -> tuple[pd.DataFrame, list[Any], Placement]:
    """The bars' rows cut to the ``MAX_BAR_CATEGORIES`` first of ``ranking`` (said as a
    ``top`` note, ``ranked`` naming the order), sorted in the bars' order, and that order;
    ``categories`` are x's over every row when only the top groups were counted."""
    fx = placed.fields[xp.name]
    categories = max(len(ranking), categories)
    if categories > MAX_BAR_CATEGORIES:
        placed = replace(placed, reduction={"top": MAX_BAR_CATEGORIES}).said(
            top_note(xp.name, categories, MAX_BAR_CATEGORIES, ranked)
        )
        ranking = ranking.head(MAX_BAR_CATEGORIES)
        data = data[data[fx].isin(ranking.index)]
    order, placed = _order(ask, placed, xp, list(ranking.index))
    position = {v: i for i, v in enumerate(order)}
    data = data.sort_values(
        fx,
        key=lambda c: c.map(lambda v: position.get(None if _missing(v) else v, len(position))),
        kind="stable",
    ).reset_index(drop=True)
    return data, order, placed


def shares_positions(ask: Ask, x: str, group: str) -> bool:
    """Whether the groups of ``group`` sit on the same x positions (``choose``'s rule, on
    the counts of distinct x values per group and over all the rows: asked of the
    backend that holds them, ``Whole.facts``, or of the frame when it is all of them)."""
    facts = ask.whole.facts or FrameFacts(ask.frame)
    return choose.shares_positions(*facts.positions(x, group))


def bars(
    ask: Ask,
    placed: Placement,
    xp: ColumnProfile,
    yps: list[ColumnProfile],
    fp: ColumnProfile | None,
    *,
    horizontal_ok: bool,
    cp: ColumnProfile | None = None,
) -> Plan:
    """Bars of each measure (or the rows counted) per category of ``xp`` — of one measure per
    ``xp`` and factor ``cp`` too, side by side (``choose.colors_bars``) — ranked, cut to the
    top ``MAX_BAR_CATEGORIES`` and ordered; horizontal past ``HORIZONTAL_OVER``."""
    multi = len(yps) > 1
    horizontal = (
        horizontal_ok and not multi and fp is None and cp is None and xp.distinct > HORIZONTAL_OVER
    )
    cat, val = _axes(horizontal)
    how = ask.opts.aggregate
    categories = 0  # x's categories over every row, when a backend kept the top groups
    aggregate: str | None
    if ask.whole.grouped is not None:
        data, aggregate, categories, placed = _backend_bars(ask, placed, xp, yps, fp, val, cp)
        fx = placed.fields[xp.name]
        fy, what = writing.measure(placed, yps)
    else:
        data, placed = cleaning.used(ask, placed, (cat, xp), yps, val, cp, fp)
        if multi:
            data = cleaning.melt(placed, data, yps)
        fx = placed.fields[xp.name]
        fy, what = writing.measure(placed, yps)
        keys = [fx] + ([MEASURE] if multi else [])
        keys += [placed.fields[q.name] for q in (cp, fp) if q is not None]
        if ask.probe and any(_varies(data[k]) for k in keys):  # a bar per key, two or more
            return writing.proven("bar", {"x": xp.name, "y": _y_pick(yps),
                                          "color": cp.name if cp else None,
                                          "facet": fp.name if fp else None,
                                          "aggregate": how})  # fmt: skip
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
    data, order, placed = _top_bars(ask, placed, data, xp, ranking, ranked, categories)
    yt = "rows" if not yps else (f"{aggregate} of {what}" if aggregate else what)
    enc: dict[str, Encoding] = {
        cat: writing.enc(placed, cat, xp),
        val: writing.y_enc(placed, val, yps, xp, aggregate),
    }
    if multi:
        enc["color"] = writing.series_enc(yps)
    if cp is not None:  # a factor's values, told apart (a number of few levels too)
        enc["color"] = replace(writing.enc(placed, "color", cp), type="nominal")
    if fp is not None:
        enc["facet"] = writing.enc(placed, "facet", fp)
    placed = replace(placed, drawn={"x": xp.name, "y": _y_pick(yps),
                                    "color": cp.name if cp else None,
                                    "facet": fp.name if fp else None,
                                    "aggregate": how})  # fmt: skip
    shape = ", horizontal and sorted" if horizontal else ""
    if not yps:
        if any(q.is_measure for q in ask.profiles.values()) or how == "count":
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
    if cp is not None:
        reason = f"{reason[:-1]}, one per {cp.name} ({_said(cp)}) side by side."
    if fp is not None:
        reason = f"{reason[:-1]}; one small chart per {fp.name}."
    placed = points.log_check(ask, placed, data, fy, what)
    title = f"{yt} by {xp.name}"
    return writing.chart(ask, placed, "bar", reason, enc, data, horizontal=horizontal,
                         title=title, order=tuple(order))  # fmt: skip


def _backend_bars(
    ask: Ask,
    placed: Placement,
    xp: ColumnProfile,
    yps: list[ColumnProfile],
    fp: ColumnProfile | None,
    val: Channel,
    cp: ColumnProfile | None = None,
) -> tuple[pd.DataFrame, str | None, int, Placement]:
    """The bars' data from the groups of the backend that holds the rows
    (``Whole.grouped``), laid out as the rows cleaned here give it — one row per key (and
    measure, ``MEASURE``), the aggregate in the measure's field, the rows behind it in
    ``ROWS`` when they share a bar — with the aggregate named (None: every bar is one
    row's value) and x's categories over every row (0: every group is here)."""
    grouped = ask.whole.grouped
    assert grouped is not None
    placed = placed.with_fields(xp, *yps, cp, fp)
    f = placed.fields
    names = [xp.name] + [q.name for q in (cp, fp) if q is not None]
    ms = [m.name for m in yps]
    # a color that is a number places its rows as an axis does (a row of no value has no
    # color to be drawn in), as memory cleans it
    axes = [(m, val) for m in ms] + ([(cp.name, "color")] if cp and cp.type != "nominal" else [])
    placed = cleaning.said_by_backend(
        ask, placed, [xp.name, *ms, *names[1:]], axes, ms if len(ms) > 1 else ()
    )
    how = ask.opts.aggregate
    asked = "count" if not yps else how or "mean"
    got = grouped.bars(names, ms, asked)
    if got.frame.empty:
        cleaning.nothing(placed, nothing_held(name_list(names), to_draw=True))
    keys = {f[n]: got.frame[n].to_numpy() for n in names}
    categories = got.categories or 0
    if not yps:
        counted = pd.DataFrame({**keys, "count": np.asarray(got.rows[0], dtype=np.int64)})
        return counted, asked, categories, placed
    # do rows share a bar? (an aggregate picked is named whatever the rows)
    shared = how is not None or any(n > 1 for rows in got.rows for n in rows)
    aggregate = asked if shared else None
    if len(yps) == 1:
        m = yps[0]
        data = pd.DataFrame({**keys, f[m.name]: got.frame[m.name].to_numpy(dtype=float)})
        if shared:
            data[ROWS] = np.asarray(got.rows[0], dtype=np.int64)
        return _laid_out(data, f[xp.name], f[m.name], shared), aggregate, categories, placed
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
    return data.reset_index(drop=True), aggregate, categories, placed


def _order(
    ask: Ask, placed: Placement, xp: ColumnProfile, by_value: list[Any]
) -> tuple[list[Any], Placement]:
    """The category order: by the measure (``-y``, the default), by category, or listed.

    The missing category (a nullable category's nulls) is ``None`` where it ranks by the
    measure, and last by category or in a listed order (it has no name to sort or list).
    """
    sort = ask.opts.sort
    ranked = [  # Python values: Vega-Lite takes JSON, never numpy's bool_
        None if _missing(v) else v.item() if isinstance(v, np.generic) else v
        for v in by_value
    ]
    present = [v for v in ranked if v is not None]
    gap = [None] if len(present) < len(ranked) else []
    if sort is None or sort == "-y":
        return ranked, placed
    if sort == "y":
        return ranked[::-1], placed
    if sort in ("x", "-x"):
        ordered = sorted(present, key=_category_key)
        return (ordered[::-1] if sort == "-x" else ordered) + gap, placed
    assert isinstance(sort, tuple)
    listed = [v for v in sort if v in set(present)]
    absent = [v for v in sort if v not in set(present)]
    if absent:
        placed = placed.said(sort_absent_note(xp.name, absent))
    return listed + [v for v in present if v not in set(listed)] + gap, placed
