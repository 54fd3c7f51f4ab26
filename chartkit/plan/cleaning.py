"""The rows a chart can place (the placement stage of a plan): each used column's values
prepared for its axis, the offenders, missing and unplaceable values left out, each said as
a note of the ``Placement`` handed on — or, when the rows stay in a backend, the notes it
counts there (``Whole.said``), said at the same point.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, NoReturn

import numpy as np
import pandas as pd

from chartkit.check.judge import offending_mask, surely_complete
from chartkit.plan.encode import (
    Channel,
    ColumnProfile,
    describe_offenders,
    numeric_strings_only,
    wall_clock,
)
from chartkit.plan.facts import zone_counts
from chartkit.plan.kit import (
    _TEXT_OR_NONE,
    MEASURE,
    VALUE,
    _is_number,
    _label,
    _missing,
    _stacked_names,
)
from chartkit.plan.placement import Ask, NothingToDraw, Placement, Prepared
from chartkit.plan.reduce import (
    as_floats,
)
from chartkit.plan.sentences import (
    UNPLACEABLE_NUMBER,
    inferred_note,
    left_out_note,
    mixed_zones_note,
    no_value_note,
    nothing_to_draw,
    unplaced_note,
)

__all__ = [
    "clean", "melt", "nothing", "prepared", "said_by_backend", "used", "values",
]  # fmt: skip


def said_by_backend(
    ask: Ask,
    placed: Placement,
    used: Sequence[str],
    axes: Sequence[tuple[str, str]],
    together: Sequence[str] = (),
) -> Placement:
    """The notes of the rows a backend places (``Whole.said``: it counts them where they
    live), said where ``clean`` says memory's; a probe's are not asked (its plan is not
    said)."""
    said = ask.whole.said
    if said is None or ask.probe:
        return placed
    new = [n for n in said(used, axes, together) if n not in placed.notes]
    return placed.said(*new)


def nothing(placed: Placement, otherwise: str) -> NoReturn:
    """Every row a backend holds is left out: the table says the notes that say why (or
    ``otherwise``, when no note does), as ``clean`` says memory's."""
    raise NothingToDraw(nothing_to_draw([n.sentence for n in placed.notes] or [otherwise]), placed)


def clean(
    ask: Ask,
    placed: Placement,
    used: list[tuple[Channel, ColumnProfile]],
    *,
    optional: set[str] | None = None,
) -> tuple[pd.DataFrame, Placement]:
    """The used columns, renamed to safe fields; rows that cannot be drawn left out, noted.

    Raises ``NothingToDraw`` when no row is left.
    """
    frame = ask.frame
    keep = np.ones(len(frame), dtype=bool)
    judged: set[str] = set()  # (a column on two channels, x and color say: said once)
    for channel, q in used:
        series = frame[q.name]
        if q.declaration is not None and q.violation is not None and q.name not in judged:
            judged.add(q.name)
            bad = offending_mask(series, q.declaration)
            keep &= ~bad
            v = q.violation
            quoted = q.declared == "number" and numeric_strings_only(series, bad)
            placed = placed.said(left_out_note(
                channel, q.name, q.declared, int(bad.sum()), v.total, describe_offenders(v),
                quoted=quoted,
            ))  # fmt: skip
    out: dict[str, pd.Series] = {}
    dropped = np.zeros(np.count_nonzero(keep), dtype=bool)
    every = bool(keep.all())  # then no column is copied just to keep every row
    for channel, q in used:
        if q.name in placed.fields:
            continue
        series = frame[q.name] if every else frame[q.name][keep]
        placed = placed.with_fields(q)
        got, unplaced, placed = prepared(ask, placed, channel, q, series,
                                         None if every else keep)  # fmt: skip
        out[placed.fields[q.name]] = got
        dropped |= unplaced
    data = pd.DataFrame(out, copy=False)  # copy-on-write: the frame's columns stay as they are
    if dropped.any():
        data = data[~dropped]
    left_out = len(keep) - int(np.count_nonzero(keep)) + int(np.count_nonzero(dropped))
    placed = replace(placed, left_out=placed.left_out + left_out)
    # a row with no value on a measure or time axis has no place to be drawn; on a
    # category or color it is its own category (null), so it stays
    skip = optional or set()
    empty = np.zeros(len(data), dtype=bool)
    gaps: dict[str, None] = {}  # the columns some row holds no value in: only they are named
    for _, q in used:
        if q.type == "nominal" or q.name in skip or q.name in gaps:
            continue
        column = data[placed.fields[q.name]]
        if surely_complete(column):  # (told without a mask of the rows)
            continue
        missing = column.isna().to_numpy()
        if missing.any():
            gaps[q.name] = None
            empty |= missing
    # several measures: a row holding none of them has no point to draw either
    several = [q for _, q in used if q.type == "quantitative" and q.name in skip]
    if len(several) > 1:
        none = np.logical_and.reduce(
            [data[placed.fields[q.name]].isna().to_numpy() for q in several]
        )
        if none.any():
            gaps.update(dict.fromkeys(q.name for q in several))
            empty |= none
    if empty.any():
        n = int(empty.sum())
        placed = replace(placed.said(no_value_note(n, list(gaps))), left_out=placed.left_out + n)
        data = data[~empty]
    if data.empty:
        raise NothingToDraw(nothing_to_draw([n.sentence for n in placed.notes]), placed)
    return data.reset_index(drop=True), placed


def values(
    ask: Ask,
    placed: Placement,
    channel: Channel,
    q: ColumnProfile,
    series: pd.Series,
    keep: np.ndarray[Any, np.dtype[np.bool_]] | None = None,
) -> tuple[pd.Series, np.ndarray[Any, np.dtype[np.bool_]], Placement]:
    """The column's values as the chart takes them, which rows cannot be placed, and the
    notes that say so (and whether its times are shown in UTC).

    ``keep``, when given, says which of the frame's rows ``series`` holds: a date column a
    reading parsed is then filtered from the whole column's times, not parsed again.
    """
    unplaced = np.zeros(len(series), dtype=bool)
    if q.source == "inferred":
        placed = placed.said(inferred_note(q.name, q.type))
    if q.type == "quantitative":
        if isinstance(series.dtype, np.dtype) and series.dtype.kind in "fiu":
            # plain numbers: a value is missing exactly when it is NaN, so the numbers
            # no chart can place are the infinite ones
            huge = np.isinf(series.to_numpy())
            if huge.any():
                placed = _note_unplaced(placed, channel, q, series, huge, UNPLACEABLE_NUMBER)
                return series.astype("float64").where(~huge, np.nan), huge, placed
            return series.astype("float64"), huge, placed
        present = series.notna().to_numpy()
        if q.source == "inferred":
            wrong = present & ~series.map(_is_number).to_numpy(dtype=bool)
            if wrong.any():
                placed = _note_unplaced(placed, channel, q, series, wrong,
                                        "something other than a number")  # fmt: skip
                series = series.where(~wrong, None)
                unplaced |= wrong
        numbers = as_floats(series)
        huge = present & ~unplaced & ~np.isfinite(numbers.to_numpy(dtype=float))
        if huge.any():
            placed = _note_unplaced(placed, channel, q, series, huge, UNPLACEABLE_NUMBER)
            unplaced |= huge
        return (numbers.where(~huge, np.nan) if huge.any() else numbers), unplaced, placed
    if q.type == "temporal":
        if keep is None:
            times, aware = wall_clock(series)  # one parse: the times, and any zone
        else:  # the kept rows' times: == wall_clock(series), the series being frame[keep]
            times, aware = wall_clock(ask.frame[q.name], keep)
        if aware:
            placed = replace(placed, utc=placed.utc | {q.name})
            if pd.api.types.is_datetime64_any_dtype(series.dtype):  # one zone for every value
                return times, unplaced, placed
            naive, zoned = zone_counts(series, None if keep is None else ask.frame[q.name])
            if naive and zoned:  # never merged silently: both counted, each said how drawn
                placed = placed.said(mixed_zones_note(q.name, zoned, naive))
        return times, unplaced, placed
    api = pd.api.types
    if api.is_string_dtype(series.dtype) and not api.is_object_dtype(series.dtype):
        return series, unplaced, placed  # a typed string column: nothing to look at
    if api.is_bool_dtype(series.dtype):
        return series, unplaced, placed
    items = series.tolist()
    if _TEXT_OR_NONE.issuperset(map(type, items)):  # each its own label, all of one type
        return pd.Series(items, index=series.index, dtype=object), unplaced, placed
    labels = [v if _missing(v) else _label(v) for v in items]
    if len({type(v) for v in labels if not _missing(v)}) > 1:  # booleans among text:
        labels = [v if _missing(v) else str(v) for v in labels]  # one type for Vega-Lite
    # (no str inference)
    return pd.Series(labels, index=series.index, dtype=object), unplaced, placed


def prepared(
    ask: Ask,
    placed: Placement,
    channel: Channel,
    q: ColumnProfile,
    series: pd.Series,
    keep: np.ndarray[Any, np.dtype[np.bool_]] | None,
) -> tuple[pd.Series, np.ndarray[Any, np.dtype[np.bool_]], Placement]:
    """``values`` of ``series`` (the frame's column, or its rows ``keep`` holds), kept (with
    the notes it made) by a probe when every row of the column is kept, for the chosen
    chart's plan (``Memo.prepared``; only then: it holds the column)."""
    every = keep is None
    key = (channel, q.name)
    memo = ask.memo.prepared
    if every and key in memo:
        got = memo[key]
        placed = placed.said(*got.notes)
        if got.utc:
            placed = replace(placed, utc=placed.utc | {q.name})
        return got.values, got.unplaced, placed
    before = len(placed.notes)
    got_values, unplaced, after = values(ask, placed, channel, q, series, keep)
    if every and ask.probe:
        memo[key] = Prepared(got_values, unplaced, after.notes[before:], q.name in after.utc)
    return got_values, unplaced, after


def _note_unplaced(
    placed: Placement, channel: Channel, q: ColumnProfile, series: pd.Series, mask: Any, what: str
) -> Placement:
    first = series[mask].iloc[0]
    return placed.said(unplaced_note(channel, q.name, int(mask.sum()), first, what))


def used(
    ask: Ask,
    placed: Placement,
    x: tuple[Channel, ColumnProfile],
    yps: list[ColumnProfile],
    val: Channel,
    cp: ColumnProfile | None,
    fp: ColumnProfile | None,
) -> tuple[pd.DataFrame, Placement]:
    """``clean`` of the columns a chart uses: x, each measure on ``val``, the color and facet
    (a row holding some of several measures stays)."""
    columns: list[tuple[Channel, ColumnProfile]] = [x] + [(val, m) for m in yps]
    if cp is not None:
        columns.append(("color", cp))
    if fp is not None:
        columns.append(("facet", fp))
    optional = {m.name for m in yps} if len(yps) > 1 else set()
    return clean(ask, placed, columns, optional=optional)


def melt(placed: Placement, data: pd.DataFrame, yps: list[ColumnProfile]) -> pd.DataFrame:
    """Several measures as one long frame: ``measure`` names the column, ``value`` holds it."""
    measure_fields = [placed.fields[m.name] for m in yps]
    ids = [c for c in data.columns if c not in set(measure_fields)]
    long = data.melt(id_vars=ids, value_vars=measure_fields, var_name=MEASURE, value_name=VALUE)
    names = {placed.fields[m.name]: m.name for m in yps}
    long[MEASURE] = _stacked_names(long[MEASURE], measure_fields, names, len(data))
    return long[long[VALUE].notna()].reset_index(drop=True)
