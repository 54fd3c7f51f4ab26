"""A line over time, drawn for the planner (``chartkit.plan.decide._Planner``): ``_Lines`` from
the rows it cleaned in memory (its codes, for speed), ``_GroupedLines`` from the facts and
groups a backend answers (``Whole.grouped``) — the same bucket, series and label rules
(``chartkit.plan.choose``), the same drawing and words (``_Lines._drawn``). ``line_label``
tells a label of single rows from a series by the coverage of its values.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
import pandas as pd

from chartkit.plan import choose
from chartkit.plan.encode import (
    Channel,
    ColumnProfile,
)
from chartkit.plan.facts import coverage, coverage_of_codes
from chartkit.plan.groups import BarGroups
from chartkit.plan.kit import (
    _HEAD,
    MEASURE,
    VALUE,
    Plan,
    _laid_out,
    _NothingToDraw,
    _Part,
    _safe_field,
    _said,
    _show_sort,
    _varies,
    _y_pick,
)
from chartkit.plan.reduce import (
    ROWS,
    bucket_codes,
    distinct_rows,
    floor_to_unit,
    reduce_by_one_key,
    reduce_frame,
    span_bucket_seconds,
    unit_codes,
)
from chartkit.plan.rules import MAX_FACETS
from chartkit.plan.sentences import (
    _join,
    bucketed_note,
    over_max_points,
    points_per_bucket,
    shared_note,
    stacked_counts,
)


class _Lines(_Part):
    """A line: its time buckets, its series, and whether a color is an entity over time
    (``choose.is_entity``), drawn for the planner ``p``, whose state it reads and writes."""

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
        if len(yps) > MAX_FACETS:  # a panel each (charts.py) past ten: at most MAX_FACETS
            yps = self._measures_kept(yps)
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
            if self.p.roles.role(cp.name) == "entity":  # its values key the rows with the time
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

    def _measures_kept(self, yps: list[ColumnProfile]) -> list[ColumnProfile]:
        """The first ``MAX_FACETS`` measures of a line per measure, the others left out and
        said (a ``top`` note of no column: the caption says it on the picture)."""
        kept, out = yps[:MAX_FACETS], [m.name for m in yps[MAX_FACETS:]]
        named = _join([*out[:3], f"{len(out) - 3:,} more"] if len(out) > 3 else out)
        self.p._say(
            "top",
            f"{len(yps):,} measures are picked; the first {MAX_FACETS} are drawn, a small chart "
            f"each, and the other {len(out):,} ({named}) are left out.",
            None, values=len(yps), shown=MAX_FACETS,
        )  # fmt: skip
        return kept

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
            reason = _label_reason(xp, drawn_ys, cp, label, counted=counted, period=period)
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
        if mark == "line":  # a regular series' missing times: the line breaks (or drops to 0)
            series = [self.p.fields[q.name] for q in (cp, fp) if q is not None]
            counted_zero = aggregate == "count" and not self.p.log_refused and (
                self.p.opts.scale != "log"
            )  # fmt: skip
            data = broken_at_gaps(data, fx, fy, [*series, *([MEASURE] if multi else [])],
                                  zero=counted_zero)  # fmt: skip
        return self.p.writing._chart(mark, reason, enc, data, title=f"{yt} over {xp.name}")

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
        planner = type(self.p)  # (a planner of the head rows, made as this one was)
        head = planner(self.p.frame.iloc[:_HEAD], self.p.profiles, self.p.max_points, self.p.opts,
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


class _GroupedLines(_Part):
    """A line from the groups of the backend that holds its rows (``Whole.grouped``), drawn
    for the planner ``p``: the bucket, the series and whether the color is a label are
    chosen by the rules ``_Lines`` follows over rows in memory (``choose``), from the facts
    and groups the backend counts (``chartkit.plan.groups.Grouped``); the encodings, reason
    and title are ``_Lines._drawn``'s."""

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
            if p.roles.role(cp.name) == "entity":  # its values key the rows with the time
                label = None  # (a stray value's single row does not unmake the series)
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
        shared = (
            counted or how is not None or (ROWS in data.columns and bool((data[ROWS] > 1).any()))
        )
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
    if data[fx].dtype.kind != "M":
        return data
    groups = data.groupby(series, sort=False, dropna=False) if series else [((), data)]
    added: list[dict[str, Any]] = []
    for key, rows in groups:
        times = pd.DatetimeIndex(rows[fx].dropna().unique()).sort_values()
        step = regular_step(times)
        if step is None:
            continue
        unit, size = step
        ordinal = _ordinals(times, unit)
        keys = dict(zip(series, key if isinstance(key, tuple) else (key,), strict=True))
        for i in map(int, np.flatnonzero(np.diff(ordinal) > size)):
            ends = [_stepped(times[i], unit, size)]
            if zero and ordinal[i + 1] - ordinal[i] > 2 * size:
                ends.append(_stepped(times[i + 1], unit, -size))
            added.extend({fx: at, fy: 0.0 if zero else np.nan, **keys} for at in ends)
    if not added:
        return data
    gaps = pd.DataFrame(added)
    if ROWS in data.columns:
        gaps[ROWS] = 0  # no row behind a missing time point
    gaps = gaps.astype({c: data[c].dtype for c in gaps.columns if c != fy and c in data.columns})
    out = pd.concat([data, gaps], ignore_index=True)
    return out.sort_values(fx, kind="stable").reset_index(drop=True)


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
    steps = np.diff(_ordinals(times, unit))
    sizes, counts = np.unique(steps, return_counts=True)
    size = int(sizes[counts.argmax()])  # (the smallest of equally common steps)
    if size <= 0 or counts.max() < GAP_STEP_SHARE * len(steps) or bool((steps % size).any()):
        return None
    return unit, size


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
