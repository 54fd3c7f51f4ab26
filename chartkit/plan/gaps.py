"""Missing points of a line: where a regular series skips a time (or a year, a day of a
grid), its line breaks instead of drawing a straight ramp across the gap (issue 40's lines that
tell the truth). A stage's helper, used by the lines over time (``plan.lines``) and the series
over a number (``plan.points``) alike, over the rows in memory or a backend's groups.
"""

from __future__ import annotations

import math
from typing import Any, Final

import numpy as np
import pandas as pd

from chartkit.plan.reduce import ROWS

__all__ = ["GAP_STEP_SHARE", "STEP_SLACK", "broken_at_gaps", "number_step", "regular_step"]


GAP_STEP_SHARE: Final = 0.5
"""A series is regular when its commonest step between consecutive times (a day, a month, a
quarter, a bucket…) is at least this share of its steps and every step is a whole number of
it: a longer step is then missing time points, where its line breaks."""


def broken_at_gaps(
    data: pd.DataFrame, fx: str, fy: str, series: list[str], *, zero: bool = False
) -> pd.DataFrame:
    """The line's rows with the missing time points of each regular series marked: a row of
    no value (null ``fy``) at the first missing time of each gap, so the line breaks there
    rather than drawing a straight ramp across it; with ``zero`` (rows counted per time) a 0
    at both ends of the gap instead, as no row was counted there.

    A series is regular by ``regular_step``; an irregular one (events at their own times) is
    left as it is. One row per gap, whatever its length, so a decade missing adds one row.
    A backend's groups and rows in memory are marked alike: both are the plan's data here.

    >>> days = pd.to_datetime(["2024-01-01", "2024-01-02", "2024-01-03", "2024-01-06"])
    >>> line = pd.DataFrame({"t": days, "v": [1.0, 2.0, 3.0, 4.0]})
    >>> broken_at_gaps(line, "t", "v", [])["v"].tolist()
    [1.0, 2.0, 3.0, nan, 4.0]
    """
    if fx not in data.columns or fy not in data.columns or len(data) < 3:
        return data
    if data[fx].dtype.kind not in "Mifu":
        return data
    # each series' times as integers (one group number per row: no frame sliced per series)
    group: np.ndarray[Any, Any]
    if len(series) == 1:
        group = pd.factorize(data[series[0]], use_na_sentinel=False)[0]
    elif series:
        group = data.groupby(series, sort=False, dropna=False).ngroup().to_numpy()
    else:
        group = np.zeros(len(data), dtype=np.intp)
    if data[fx].dtype.kind != "M":
        return _numbers_broken(data, fx, fy, series, group, zero=zero)
    at = pd.DatetimeIndex(data[fx]).as_unit("ns")
    ints, present = at.asi8, ~np.asarray(at.isna(), dtype=bool)
    added: list[dict[str, Any]] = []
    for g in np.unique(group):
        mine = group == g
        held = np.unique(ints[mine & present])  # sorted, distinct
        if len(held) > 2 and bool((np.diff(held) == held[1] - held[0]).all()):
            continue  # one length between every two times: no time point is missing
        times = pd.DatetimeIndex(held.view("M8[ns]"))
        step = regular_step(times)
        if step is None:
            continue
        unit, size = step
        ordinal = _ordinals(times, unit)
        first = int(np.argmax(mine))
        keys = {s: data[s].iloc[first] for s in series}
        for i in map(int, np.flatnonzero(np.diff(ordinal) > size)):
            ends = [_stepped(times[i], unit, size)]
            if zero and ordinal[i + 1] - ordinal[i] > 2 * size:
                ends.append(_stepped(times[i + 1], unit, -size))
            added.extend({fx: at, fy: 0.0 if zero else np.nan, **keys} for at in ends)
    return _with_gaps(data, added, fx, fy)


def _numbers_broken(
    data: pd.DataFrame, fx: str, fy: str, series: list[str], group: Any, *, zero: bool
) -> pd.DataFrame:
    """``broken_at_gaps`` over a number (a series over years, days, quarters as fractional
    years): each series' distinct values, when regular (``number_step``), marked at the first
    missing value of each gap."""
    values = data[fx].to_numpy(dtype=float, na_value=np.nan)
    added: list[dict[str, Any]] = []
    for g in np.unique(group):
        mine = group == g
        held = np.unique(values[mine & np.isfinite(values)])  # sorted, distinct
        step = number_step(held)
        if step is None:
            continue
        first = int(np.argmax(mine))
        keys = {s: data[s].iloc[first] for s in series}
        taken = np.rint(np.diff(held) / step)
        for i in map(int, np.flatnonzero(taken > 1)):
            ends = [held[i] + step]
            if zero and taken[i] > 2:
                ends.append(held[i + 1] - step)
            added.extend({fx: at, fy: 0.0 if zero else np.nan, **keys} for at in ends)
    return _with_gaps(data, added, fx, fy)


def _with_gaps(data: pd.DataFrame, added: list[dict[str, Any]], fx: str, fy: str) -> pd.DataFrame:
    """``data`` and the gap rows ``added`` (each of no value, or 0 counted), in ``fx``'s order."""
    if not added:
        return data
    gaps = pd.DataFrame(added)
    if ROWS in data.columns:
        gaps[ROWS] = 0  # no row behind a missing point
    gaps = gaps.astype({c: data[c].dtype for c in gaps.columns if c != fy and c in data.columns})
    out = pd.concat([data, gaps], ignore_index=True)
    return out.sort_values(fx, kind="stable").reset_index(drop=True)


STEP_SLACK: Final = 0.05
"""How far from a whole number of steps a distance between two numbers may fall and still be
one: months as fractional years rounded to four decimals (2000.0833) are still months."""


def number_step(held: Any) -> float | None:
    """The step of sorted distinct numbers when they are regular, as ``regular_step`` tells
    times: the most common distance between neighbours (the smallest of equally common
    ones), taken by ``GAP_STEP_SHARE`` of them or more, every distance a whole number of it
    (within ``STEP_SLACK``). None for fewer than three values or irregular ones. Asked only
    of a number a series runs along (``roles.indexes_series``): a dose's levels are no gaps.

    >>> number_step(np.array([1945.0, 1945.25, 1945.5, 1946.0, 1946.25]))
    0.25
    >>> number_step(np.array([1.0, 2.0, 3.5])) is None
    True
    """
    if len(held) < 3:
        return None
    steps = np.diff(held)
    least = float(steps.min())
    if not (least > 0 and math.isfinite(least) and math.isfinite(float(steps.max()))):
        return None
    ratios = steps / least
    whole = np.rint(ratios)
    if not bool(np.allclose(ratios, whole, rtol=0, atol=STEP_SLACK)):
        return None
    size = _commonest_step(whole)
    return None if size is None else least * float(size)


def regular_step(times: pd.DatetimeIndex) -> tuple[str, int] | None:
    """``(unit, size)`` of the step of sorted distinct ``times`` when they are regular (see
    ``GAP_STEP_SHARE``): ``("month", 3)`` for quarters, ``("month", 12)`` for years, both on a
    fixed day of the month (or its last); else ``("ns", n)`` for a fixed length (a day, a
    week, an hour, a time bucket). None for fewer than three times or irregular ones.

    >>> regular_step(pd.to_datetime(["2020-01-01", "2020-04-01", "2020-10-01", "2021-01-01"]))
    ('month', 3)
    >>> regular_step(pd.to_datetime(["2020-01-01 00:00:01", "2020-01-01 00:00:04",
    ...                              "2020-01-01 00:00:11"])) is None
    True
    """
    if len(times) < 3:
        return None
    tod = times - times.normalize()
    monthly = tod.nunique() == 1 and (times.day.nunique() == 1 or bool(times.is_month_end.all()))
    unit = "month" if monthly else "ns"
    size = _commonest_step(np.diff(_ordinals(times, unit)))
    return None if size is None else (unit, int(size))


def _commonest_step(steps: Any) -> Any:
    """The commonest of whole ``steps`` (the smallest of equally common ones) when it is
    positive, taken by ``GAP_STEP_SHARE`` of them or more and dividing each; else None."""
    sizes, counts = np.unique(steps, return_counts=True)
    size = sizes[counts.argmax()]
    if size <= 0 or counts.max() < GAP_STEP_SHARE * len(steps) or bool((steps % size).any()):
        return None
    return size


def _ordinals(times: pd.DatetimeIndex, unit: str) -> Any:
    if unit == "month":
        return np.asarray(times.year, dtype=np.int64) * 12 + np.asarray(times.month) - 1
    return times.as_unit("ns").asi8


def _stepped(at: pd.Timestamp, unit: str, size: int) -> pd.Timestamp:
    """``at`` moved by ``size`` steps: calendar months (to the month's end when ``at`` is one),
    or nanoseconds."""
    if unit != "month":
        return at + pd.Timedelta(size, "ns")
    moved = at + pd.DateOffset(months=size)
    return moved + pd.offsets.MonthEnd(0) if at.is_month_end else moved
