"""The encodings and the ``Plan`` of a chart or a table, written from what a drawing placed
(``chartkit.plan.placement.Placement``): each channel's field, type, title and format, the
reduction behind the marks, and the plan's notes as values.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Final

import pandas as pd

from chartkit.plan.encode import (
    Channel,
    ColumnProfile,
    Encoding,
)
from chartkit.plan.kit import HISTOGRAM_BINS, MEASURE, VALUE, Plan, _count, _facts
from chartkit.plan.placement import Ask, Placement
from chartkit.plan.roles import is_calendar
from chartkit.plan.sentences import _join
from chartkit.plan.spec import Reduction


def enc(placed: Placement, channel: Channel, q: ColumnProfile, **kw: Any) -> Encoding:
    """The ``Encoding`` of ``q`` on ``channel``: its field, and its title (in UTC when its
    times are shown so)."""
    mixed = any(n.kind == "mixed-zones" and n.column == q.name for n in placed.notes)
    utc = f"{q.name} (UTC; times without a zone as given)" if mixed else f"{q.name} (UTC)"
    title = kw.pop("title", None) or (utc if q.name in placed.utc else q.name)
    return Encoding(
        q.name,
        q.type,
        q.source,
        field=placed.fields.get(q.name, ""),
        title=title,
        declared=q.declared,
        **kw,
    )


def measure(placed: Placement, yps: list[ColumnProfile]) -> tuple[str, str]:
    """(value field, what it is called) of one or several measures."""
    if not yps:
        return "count", "rows"
    if len(yps) > 1:
        return VALUE, _join([m.name for m in yps])
    return placed.fields[yps[0].name], yps[0].name


AXIS_TITLE_MAX: Final = 40
"""Several measures' names joined past this many characters would overrun their axis: the
axis says "value of each measure", and the legend names them."""


def y_enc(
    placed: Placement,
    channel: Channel,
    yps: list[ColumnProfile],
    xp: ColumnProfile,
    aggregate: str | None,
) -> Encoding:
    """The value channel's ``Encoding``: the rows counted, one measure, or several."""
    if not yps:
        return _count(xp)
    _, what = measure(placed, yps)
    if len(yps) > 1 and len(what) > AXIS_TITLE_MAX:  # (the legend names each measure)
        what = "each measure" if aggregate else "value of each measure"
    title = f"{aggregate} of {what}" if aggregate else what
    if len(yps) > 1:
        q = yps[0]
        return Encoding(
            q.name, q.type, q.source, aggregate=aggregate, field=VALUE, title=title,
            declared=q.declared, measures=tuple(m.name for m in yps),
        )  # fmt: skip
    return enc(placed, channel, yps[0], aggregate=aggregate, title=title)


def series_enc(yps: list[ColumnProfile]) -> Encoding:
    """The color of several measures: one per measure (``MEASURE``)."""
    q = yps[0]
    return Encoding(
        MEASURE, "nominal", q.source, field=MEASURE, title=MEASURE, declared=None,
        measures=tuple(m.name for m in yps),
    )  # fmt: skip


_STILL_A_YEAR: Final = frozenset({None, "mean", "median", "min", "max"})
"""What a column of calendar years stays a year under (a sum or a count of years is none)."""


def chart(
    ask: Ask,
    placed: Placement,
    mark: str,
    reason: str,
    encodings: Mapping[str, Encoding],
    data: pd.DataFrame,
    *,
    horizontal: bool = False,
    title: str | None = None,
    order: tuple[Any, ...] | None = None,
) -> Plan:
    """The ``Plan`` of a chart: its mark, encodings and data, and what was placed (a number
    holding calendar years marked so, ``Encoding.calendar``)."""
    encodings = {
        c: replace(e, calendar=True)
        if e.type == "quantitative" and not e.measures and e.aggregate in _STILL_A_YEAR
        and is_calendar(ask.roles, e.column)
        else e
        for c, e in encodings.items()
    }  # fmt: skip
    return Plan(
        kind="chart",
        reason=reason,
        mark=mark,
        encodings=dict(encodings),
        data=data,
        refusals=placed.refusals,
        notes=tuple(dict.fromkeys(n.sentence for n in placed.notes)),
        facts=_facts(list(placed.notes)),
        horizontal=horizontal,
        title=title,
        order=order,
        left_out=placed.left_out,
        scale="log" if placed.log_axes else "linear" if placed.log_refused else ask.opts.scale,
        log_axes=placed.log_axes,
        format=ask.opts.format,
        time_unit=ask.opts.time_unit,
        reduction=reduction(ask, placed, mark, encodings),
        drawn=placed.drawn,
        fetched=placed.fetched,
    )


def reduction(
    ask: Ask, placed: Placement, mark: str, encodings: Mapping[str, Encoding]
) -> Reduction:
    """What the rows were reduced to: the keys of an aggregated chart, its aggregate, the
    bucket or unit, the bins, the top-N kept."""
    measured = [e for e in encodings.values() if e.aggregate is not None]
    binned = tuple(HISTOGRAM_BINS for e in encodings.values() if e.bin) if mark == "bar" else ()
    # an aggregated chart is grouped by every other channel's column (the measures' names,
    # when several are drawn, are a key too)
    keys = tuple(
        dict.fromkeys(
            "measure" if e.column == MEASURE and e.measures else e.column
            for e in encodings.values()
            if e.aggregate is None and not e.bin
        )
    ) if measured else ()  # fmt: skip
    y = measured[0].aggregate if measured else None
    got = placed.reduction
    return Reduction(
        keys=keys,
        aggregate=got.get("aggregate", y),
        bucket_seconds=got.get("bucket_seconds"),
        time_unit=ask.opts.time_unit,
        bins=got.get("bins", binned),
        top=got.get("top"),
    )


def proven(mark: str, drawn: Mapping[str, Any]) -> Plan:
    """A probe's answer: a chart proven to hold more than one mark, its data not built, and
    the picks it would draw.

    Never returned by ``plan_view``: only its ``drawn`` picks (the alternatives) are used.
    """
    return Plan(
        kind="chart", reason="", mark=mark, data=pd.DataFrame(index=range(2)), drawn=drawn
    )


def table(placed: Placement, reason: str) -> Plan:
    """The ``Plan`` of a table: why, and what was placed before the chart was given up."""
    return Plan(
        kind="table",
        reason=reason,
        refusals=placed.refusals,
        notes=tuple(dict.fromkeys(n.sentence for n in placed.notes)),
        facts=_facts(list(placed.notes)),
        drawn=placed.drawn,
    )
