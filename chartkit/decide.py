"""The chart-kind rules and the table-versus-chart decision, from declared types → ``Plan``.

After Show Me / Draco / Graphic Walker practice:

============================  ==========================================================
columns                       chart
============================  ==========================================================
date × number                 line (bar for one distinct date); a string column with
                              <= 10 values as color → one line per series
string or boolean × number    bar of the mean per category; horizontal and sorted when
                              > 5 categories; more than 30 → the top 30 and a note
number × number               scatter; a string column with <= 10 values as color;
                              over ``max_points`` rows → a binned heatmap
one number alone              histogram (10 bins), or count bars when < 15 distinct values
string alone (no measure)     table (count bars only when the user picks the column)
============================  ==========================================================

Every aggregation and binning is done here, in pandas, before a spec exists, so a chart
never embeds more than ``max_points`` rows. Offending values are left out of the axis they
would sit on — never coerced — and a note built from the ``ColumnViolation`` says so.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import pandas as pd

from chartkit.check import offending_mask
from chartkit.encode import (
    AxisRefusal,
    Channel,
    ColumnProfile,
    Encoding,
    any_aware,
    as_numbers,
    as_wall_clock,
    describe_offenders,
    numeric_strings_only,
)
from chartkit.errors import ChartkitError
from chartkit.messages import render_sample

__all__ = ["MAX_BAR_CATEGORIES", "MAX_COLOR_CATEGORIES", "Plan", "plan_view"]

MAX_COLOR_CATEGORIES = 10  # a string column colors the chart when it has at most this many values
MAX_PICKED_COLOR_CATEGORIES = 20  # a color the user picks may have up to this many
MAX_BAR_CATEGORIES = 30  # bars beyond this are cut to the top ones, with a note
HORIZONTAL_OVER = 5  # bars turn horizontal (and sorted) past this many categories
HISTOGRAM_BINS = 10
COUNT_BARS_UNDER = 15  # a lone measure with fewer distinct values gets count bars
HEATMAP_BINS = 40

_BUCKETS_S = (
    1,
    5,
    15,
    30,
    60,
    300,
    900,
    1800,
    3600,
    3 * 3600,
    6 * 3600,
    12 * 3600,
    86400,
    7 * 86400,
    30 * 86400,
    91 * 86400,
    365 * 86400,
)


@dataclass(frozen=True)
class Plan:
    """What to draw, from what data, and why — everything ``charts.py`` needs, and nothing UI.

    ``data`` is the chart's own frame (renamed fields, offenders left out, aggregated or binned
    as the encodings say); None for a table.
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


def plan_view(
    frame: pd.DataFrame,
    profiles: Mapping[str, ColumnProfile],
    *,
    x: str | None = None,
    y: str | None = None,
    color: str | None = None,
    max_points: int = 5000,
) -> Plan:
    """Decide chart or table, the chart kind and its encodings, from the columns' profiles."""
    if not isinstance(max_points, int) or isinstance(max_points, bool) or max_points < 100:
        raise ChartkitError(f"max_points must be an integer of at least 100, got {max_points!r}")
    for channel, name in (("x", x), ("y", y), ("color", color)):
        if name is not None and name not in profiles:
            raise ChartkitError(
                f"{channel}={name!r} names no column of this result; its columns are "
                f"{', '.join(map(repr, profiles))}"
            )
    return _Planner(frame, profiles, max_points).plan(x, y, color)


class _Planner:
    def __init__(
        self, frame: pd.DataFrame, profiles: Mapping[str, ColumnProfile], max_points: int
    ) -> None:
        self.frame = frame
        self.profiles = profiles
        self.max_points = max_points
        self.notes: list[str] = []
        self.refusals: list[AxisRefusal] = []
        self.fields: dict[str, str] = {}
        self.utc: set[str] = set()  # date columns holding aware times, shown in UTC

    # -- choosing columns ---------------------------------------------------------------

    def plan(self, x: str | None, y: str | None, color: str | None) -> Plan:
        try:
            return self._plan(x, y, color)
        except _NothingToDraw as nothing:
            return self._table(str(nothing))

    def _plan(self, x: str | None, y: str | None, color: str | None) -> Plan:
        p = self.profiles
        picks: tuple[tuple[Channel, str | None], ...] = (("x", x), ("y", y))
        for channel, name in picks:
            if name is not None:
                refusal = self._pick_refusal(channel, p[name])
                if refusal is not None:
                    return self._table(
                        f"The {channel} axis you picked cannot be drawn: {refusal.reason}"
                    )
        color_p = p[color] if color is not None else None
        if color_p is not None:
            refusal = self._pick_refusal("color", color_p)
            if refusal is not None:
                color_p = None
        self._refuse_unusable(exclude={x, y, color})
        usable = [q for q in p.values() if q.usable]
        measures = [q for q in usable if q.type == "quantitative"]
        temporals = [q for q in usable if q.type == "temporal"]
        nominals = [q for q in usable if q.type == "nominal" and q.distinct and not q.id_like]
        xp = p[x] if x is not None else None
        yp = p[y] if y is not None else None

        if xp is None and yp is None:
            if not measures:
                return self._table(self._no_measure_reason())
            self._note_id_like(skip_if=bool(temporals))
            yp = measures[0]
            if temporals or nominals:
                xp = temporals[0] if temporals else nominals[0]
            elif len(measures) > 1:
                xp, yp = measures[0], measures[1]  # a scatter reads in column order
            else:
                return self._histogram(yp)
            auto_x = True
        elif yp is None:
            assert xp is not None
            auto_x = False
            if xp.type == "quantitative":
                return self._histogram(xp)
            others = [m for m in measures if m is not xp]
            if not others:
                if xp.type == "nominal":
                    return self._count_bars(xp)
                return self._table(
                    f"{xp.name} is on x, but no column is declared number to measure over it: "
                    f"{self._type_list()}."
                )
            yp = others[0]
        elif xp is None:
            auto_x = True
            rest = [q for q in (temporals or nominals or measures) if q is not yp]
            if not rest:
                return self._histogram(yp)
            xp = rest[0]
        else:
            auto_x = False

        if xp.type == "temporal":
            if color_p is not None and color_p.type != "nominal":
                self.refusals.append(
                    AxisRefusal(
                        color_p.name, "color",
                        "a line chart draws one line per value of a column declared string "
                        f"or boolean; {self._said(color_p, True)}, so the chart is drawn "
                        "without color.",
                    )
                )  # fmt: skip
                color_p = None
            return self._line(xp, yp, color_p, auto_color=color is None)
        if xp.type == "nominal":
            if color_p is not None:
                self.refusals.append(
                    AxisRefusal(
                        color_p.name, "color",
                        f"a bar chart draws one bar per {xp.name}, so it is not split by "
                        f"{color_p.name}; pick a date or a number as x to color by it.",
                    )
                )  # fmt: skip
            return self._bars(xp, yp, horizontal_ok=auto_x)
        return self._scatter(xp, yp, color_p, auto_color=color is None)

    def _pick_refusal(self, channel: Channel, q: ColumnProfile) -> AxisRefusal | None:
        refusal: AxisRefusal | None = None
        if not q.usable:
            refusal = AxisRefusal(q.name, channel, self._unusable_reason(q), q.violation)
        elif channel == "y" and q.type != "quantitative":
            what = (
                f"{q.name} is declared {q.declared}"
                if q.declared
                else f"{q.name} is not declared and Altair infers it as {q.type}"
            )
            refusal = AxisRefusal(
                q.name, channel, f"{what}; a measure axis needs a column declared number."
            )
        elif channel == "color" and q.type == "nominal" and q.distinct == 0:
            refusal = AxisRefusal(
                q.name, channel, f"{q.name} holds no value in any row, so there is nothing to "
                "color by; the chart is drawn without color.",
            )  # fmt: skip
        elif (
            channel == "color" and q.type == "nominal" and q.distinct > MAX_PICKED_COLOR_CATEGORIES
        ):
            refusal = AxisRefusal(
                q.name,
                channel,
                f"{q.name} has {q.distinct:,} distinct values; a color can tell apart at most "
                f"{MAX_PICKED_COLOR_CATEGORIES}, so the chart is drawn without color.",
            )
        if refusal is not None:
            self.refusals.append(refusal)
        return refusal

    def _refuse_unusable(self, exclude: set[str | None]) -> None:
        """Every unusable declared column, refused as the measure (y) axis it would have been."""
        for q in self.profiles.values():
            if q.name not in exclude and not q.usable and q.violation is not None:
                channel: Channel = "y" if q.type == "quantitative" else "x"
                self.refusals.append(
                    AxisRefusal(q.name, channel, self._unusable_reason(q), q.violation)
                )

    def _unusable_reason(self, q: ColumnProfile) -> str:
        v = q.violation
        if v is None or v.kind == "missing-column" or not q.present:
            return (
                f"{q.name} is declared {q.declared}, but no row has it (missing-column): the "
                "query never selected it."
            )
        text = (
            f"{q.name} is declared {q.declared}, but all {v.total:,} rows {describe_offenders(v)}"
        )
        series = self.frame[q.name]
        if q.declared == "number" and numeric_strings_only(series, np.ones(len(series), bool)):
            return (
                f"{text} — every one a number in quotes: the tool quotes its numbers. chartkit "
                "converts nothing; fix the tool to return numbers, or declare the column string."
            )
        return f"{text}. chartkit converts nothing; fix the tool, or change the declaration."

    def _no_measure_reason(self) -> str:
        refused = [q for q in self.profiles.values() if q.type == "quantitative" and not q.usable]
        if refused:
            names = _join([q.name for q in refused])
            verb = "is" if len(refused) == 1 else "are"
            quoted = all(
                q.present
                and q.violation is not None
                and q.violation.kind != "missing-column"
                and numeric_strings_only(self.frame[q.name], np.ones(len(self.frame), bool))
                for q in refused
            )
            why = (
                "every row holds a number in quotes (the tool quotes its numbers)"
                if quoted
                else "no row can be drawn (see the refusals)"
            )
            rest = [q.describe_type() for q in self.profiles.values() if q.usable]
            tail = f"; {', '.join(rest)}" if rest else ""
            return (
                f"No usable column is declared number: {names} {verb} declared number but "
                f"{why}{tail}."
            )
        return f"No column is declared number: {self._type_list()}."

    def _type_list(self) -> str:
        return ", ".join(q.describe_type() for q in self.profiles.values())

    def _note_id_like(self, *, skip_if: bool) -> None:
        if skip_if:
            return
        for q in self.profiles.values():
            if q.usable and q.id_like:
                self.notes.append(
                    f"{q.name} is not put on an axis by default: {q.distinct:,} of its "
                    f"{q.rows:,} values are distinct (over 80%), so it reads as an identifier, "
                    "not a category. Pick it as x to chart it anyway."
                )

    # -- preparing values ---------------------------------------------------------------

    def _clean(self, used: list[tuple[Channel, ColumnProfile]]) -> pd.DataFrame:
        """The used columns, renamed to safe fields; rows that cannot be drawn left out, noted.

        Raises ``_NothingToDraw`` when no row is left.
        """
        keep = np.ones(len(self.frame), dtype=bool)
        for channel, q in used:
            series = self.frame[q.name]
            if q.declaration is not None and q.violation is not None:
                bad = offending_mask(series, q.declaration)
                keep &= ~bad
                v = q.violation
                quoted = (
                    " — numbers in quotes: the tool quotes its numbers"
                    if q.declared == "number" and numeric_strings_only(series, bad)
                    else ""
                )
                self.notes.append(
                    f"{int(bad.sum()):,} of {v.total:,} rows are left out of the {channel} axis: "
                    f"{q.name} is declared {q.declared} and they {describe_offenders(v)}"
                    f"{quoted}. Nothing was converted."
                )
        out: dict[str, pd.Series] = {}
        dropped = np.zeros(int(keep.sum()), dtype=bool)
        for channel, q in used:
            if q.name in self.fields:
                continue
            series = self.frame[q.name][keep]
            self.fields[q.name] = _safe_field(q.name, set(self.fields.values()))
            values, unplaced = self._values(channel, q, series)
            out[self.fields[q.name]] = values
            dropped |= unplaced
        data = pd.DataFrame(out)[~dropped]
        # a row with no value on a measure or time axis has no place to be drawn; on a
        # category or color it is its own category (null), so it stays
        placed = [self.fields[q.name] for _, q in used if q.type != "nominal"]
        empty = data[placed].isna().any(axis=1).to_numpy()
        if empty.any():
            names = _join(list(dict.fromkeys(q.name for _, q in used if q.type != "nominal")))
            n = int(empty.sum())
            self.notes.append(f"{_rows_hold(n)} no value in {names} and {_be(n)} not drawn.")
            data = data[~empty]
        if data.empty:
            raise _NothingToDraw(
                "Every row is left out of the chart, so there is nothing to draw: "
                + " ".join(dict.fromkeys(self.notes))
            )
        return data.reset_index(drop=True)

    def _values(
        self, channel: Channel, q: ColumnProfile, series: pd.Series
    ) -> tuple[pd.Series, np.ndarray[Any, np.dtype[np.bool_]]]:
        """The column's values as the chart takes them, and which rows cannot be placed."""
        unplaced = np.zeros(len(series), dtype=bool)
        if q.source == "inferred":
            self.notes.append(
                f"{q.name} is not declared: Altair inferred it as {q.type} from its values. "
                "Declaring it in resultColumns would make its type exact."
            )
        if q.type == "quantitative":
            present = series.notna().to_numpy()
            if q.source == "inferred":
                wrong = present & ~series.map(_is_number).to_numpy(dtype=bool)
                if wrong.any():
                    self._note_unplaced(channel, q, series, wrong, "something other than a number")
                    series = series.where(~wrong, None)
                    unplaced |= wrong
            numbers = as_numbers(series)
            huge = present & ~unplaced & ~np.isfinite(numbers.to_numpy(dtype=float))
            if huge.any():
                self._note_unplaced(
                    channel, q, series, huge, "a number no chart can place (infinite or too large)"
                )
                unplaced |= huge
            return numbers.where(~huge, np.nan), unplaced
        if q.type == "temporal":
            if any_aware(series):
                self.utc.add(q.name)
            return as_wall_clock(series), unplaced
        api = pd.api.types
        if api.is_string_dtype(series.dtype) and not api.is_object_dtype(series.dtype):
            return series, unplaced  # a typed string column: nothing to look at
        if api.is_bool_dtype(series.dtype):
            return series, unplaced
        return series.map(_label, na_action="ignore").astype(object), unplaced

    def _note_unplaced(
        self, channel: Channel, q: ColumnProfile, series: pd.Series, mask: Any, what: str
    ) -> None:
        n = int(mask.sum())
        first = _short(series[mask].iloc[0])
        self.notes.append(
            f"{_rows_hold(n)} {what} in {q.name} (first: {first}) and {_be(n)} left out of the "
            f"{channel} axis. Nothing was converted."
        )

    def _enc(self, channel: Channel, q: ColumnProfile, **kw: Any) -> Encoding:
        title = kw.pop("title", None) or (f"{q.name} (UTC)" if q.name in self.utc else q.name)
        return Encoding(
            q.name,
            q.type,
            q.source,
            field=self.fields.get(q.name, ""),
            title=title,
            declared=q.declared,
            **kw,
        )

    # -- the kinds ----------------------------------------------------------------------

    def _auto_color(self, exclude: set[str]) -> ColumnProfile | None:
        for q in self.profiles.values():
            if (
                q.usable
                and q.type == "nominal"
                and q.name not in exclude
                and 1 < q.distinct <= MAX_COLOR_CATEGORIES
            ):
                return q
        return None

    def _clean_with_color(
        self, xp: ColumnProfile, yp: ColumnProfile, cp: ColumnProfile | None, *, auto_color: bool
    ) -> tuple[ColumnProfile | None, pd.DataFrame]:
        """x, y and the color (the picked one, or a small string column when none was picked)."""
        if cp is None and auto_color:
            cp = self._auto_color({xp.name, yp.name})
        used: list[tuple[Channel, ColumnProfile]] = [("x", xp), ("y", yp)]
        if cp is not None:
            used.append(("color", cp))
        return cp, self._clean(used)

    def _line(
        self, xp: ColumnProfile, yp: ColumnProfile, cp: ColumnProfile | None, *, auto_color: bool
    ) -> Plan:
        cp, data = self._clean_with_color(xp, yp, cp, auto_color=auto_color)
        fx, fy = self.fields[xp.name], self.fields[yp.name]
        keys = [fx] + ([self.fields[cp.name]] if cp is not None else [])
        aggregate = None
        if len(data) > self.max_points:
            series_n = max(1, data[keys[1]].nunique()) if len(keys) > 1 else 1
            seconds = _bucket_seconds(data[fx], self.max_points // series_n)
            rows = len(data)
            data = data.assign(**{fx: data[fx].dt.floor(f"{seconds}s")})
            data = data.groupby(keys, sort=True, dropna=False)[fy].mean().reset_index()
            aggregate = "mean"
            self.notes.append(
                f"{rows:,} rows are drawn as {len(data):,} points: the mean of {yp.name} per "
                f"{_duration(seconds)} bucket{' for each ' + cp.name if cp else ''} "
                f"(over max_points={self.max_points:,} rows)."
            )
        elif data.duplicated(keys).any():
            data = data.groupby(keys, sort=True, dropna=False)[fy].mean().reset_index()
            aggregate = "mean"
            self.notes.append(
                f"Several rows share a {xp.name}{' and ' + cp.name if cp else ''}; "
                f"the chart draws the mean of {yp.name} for each."
            )
        else:
            data = data.sort_values(fx, kind="stable")
        one_date = data[fx].nunique() == 1
        yt = f"{aggregate} of {yp.name}" if aggregate else yp.name
        enc = {"x": self._enc("x", xp), "y": self._enc("y", yp, aggregate=aggregate, title=yt)}
        if cp is not None:
            enc["color"] = self._enc("color", cp)
        what = "bars for its one date" if one_date else "a line over time"
        series = (
            f"; {cp.name} ({self._said(cp)}, {cp.distinct} values) colors one line per series"
            if cp is not None and not one_date
            else ""
        )
        reason = f"{self._said(xp, True)} and {self._said(yp, True)}: {what}{series}."
        return self._chart(
            "bar" if one_date else "line", reason, enc, data, title=f"{yt} over {xp.name}"
        )

    def _bars(self, xp: ColumnProfile, yp: ColumnProfile, *, horizontal_ok: bool) -> Plan:
        horizontal = horizontal_ok and xp.distinct > HORIZONTAL_OVER
        cat, val = _axes(horizontal)
        data = self._clean([(cat, xp), (val, yp)])
        fx, fy = self.fields[xp.name], self.fields[yp.name]
        grouped = data.groupby(fx, sort=False, dropna=False)[fy]
        once = bool((grouped.size() == 1).all())
        aggregate = None if once else "mean"
        data = (grouped.first() if once else grouped.mean()).reset_index()
        data = data.sort_values(fy, ascending=False, kind="stable").reset_index(drop=True)
        categories = len(data)
        if categories > MAX_BAR_CATEGORIES:
            self.notes.append(
                f"{xp.name} has {categories:,} values; the {MAX_BAR_CATEGORIES} with the highest "
                f"{aggregate + ' of ' if aggregate else ''}{yp.name} are shown, the other "
                f"{categories - MAX_BAR_CATEGORIES:,} are left out."
            )
            data = data.head(MAX_BAR_CATEGORIES)
        yt = f"{aggregate} of {yp.name}" if aggregate else yp.name
        enc: dict[str, Encoding] = {
            cat: self._enc(cat, xp),
            val: self._enc(val, yp, aggregate=aggregate, title=yt),
        }
        how = f"bars of the {aggregate} per {xp.name}" if aggregate else f"a bar per {xp.name}"
        shape = ", horizontal and sorted" if horizontal else ""
        reason = f"{self._said(xp, True)} and {self._said(yp, True)}: {how}{shape}."
        return self._chart(
            "bar", reason, enc, data, horizontal=horizontal, title=f"{yt} by {xp.name}"
        )

    def _scatter(
        self, xp: ColumnProfile, yp: ColumnProfile, cp: ColumnProfile | None, *, auto_color: bool
    ) -> Plan:
        cp, data = self._clean_with_color(xp, yp, cp, auto_color=auto_color)
        fx, fy = self.fields[xp.name], self.fields[yp.name]
        said = f"{self._said(xp, True)} and {self._said(yp, True)}"
        if len(data) > self.max_points:
            bins = max(2, min(HEATMAP_BINS, int(np.sqrt(self.max_points))))
            counts, xe, ye = np.histogram2d(data[fx], data[fy], bins=bins)
            ix, iy = np.nonzero(counts)
            rows = len(data)
            data = pd.DataFrame(
                {
                    fx: xe[ix],
                    f"{fx}_end": xe[ix + 1],
                    fy: ye[iy],
                    f"{fy}_end": ye[iy + 1],
                    "count": counts[ix, iy].astype(int),
                }
            )
            self.notes.append(
                f"{rows:,} rows are drawn as a {bins}×{bins} heatmap of counts (over "
                f"max_points={self.max_points:,} rows)"
                + (f"; {cp.name} is not shown as color in a heatmap." if cp else ".")
            )
            enc = {
                "x": self._enc("x", xp, bin=True),
                "y": self._enc("y", yp, bin=True),
                "color": _count(xp),
            }
            return self._chart(
                "rect",
                f"{said}: a binned heatmap, as there are {rows:,} rows.",
                enc,
                data,
                title=f"{yp.name} against {xp.name}",
            )
        enc = {"x": self._enc("x", xp), "y": self._enc("y", yp)}
        if cp is not None:
            enc["color"] = self._enc("color", cp)
        colored = f"; {cp.name} ({self._said(cp)}) as color" if cp is not None else ""
        return self._chart(
            "point",
            f"{said}: a scatter plot{colored}.",
            enc,
            data,
            title=f"{yp.name} against {xp.name}",
        )

    def _histogram(self, q: ColumnProfile) -> Plan:
        data = self._clean([("x", q)])
        f = self.fields[q.name]
        values = data[f].to_numpy(dtype=float)
        distinct = np.unique(values)
        if len(distinct) < COUNT_BARS_UNDER:
            counts = pd.Series(values).value_counts().sort_index()
            data = pd.DataFrame({f: counts.index.to_numpy(), "count": counts.to_numpy()})
            enc = {"x": self._enc("x", q), "y": _count(q)}
            reason = (
                f"{self._said(q, True)} and is the only measure, with {len(distinct)} "
                "distinct values: a bar counting the rows of each."
            )
            return self._chart("bar", reason, enc, data, title=f"rows by {q.name}")
        binned, edges = np.histogram(values, bins=HISTOGRAM_BINS)
        data = pd.DataFrame({f: edges[:-1], f"{f}_end": edges[1:], "count": binned})
        enc = {
            "x": self._enc("x", q, bin=True),
            "y": _count(q),
        }
        reason = (
            f"{self._said(q, True)} and is the only measure: a histogram of its values "
            f"in {HISTOGRAM_BINS} bins."
        )
        return self._chart("bar", reason, enc, data, title=f"distribution of {q.name}")

    def _count_bars(self, q: ColumnProfile) -> Plan:
        data = self._clean([("x", q)])
        f = self.fields[q.name]
        counts = data[f].value_counts(dropna=False)
        total = len(counts)
        counts = counts.head(MAX_BAR_CATEGORIES)
        if total > MAX_BAR_CATEGORIES:
            self.notes.append(
                f"{q.name} has {total:,} values; the {MAX_BAR_CATEGORIES} most frequent are "
                f"shown, the other {total - MAX_BAR_CATEGORIES:,} are left out."
            )
        data = pd.DataFrame({f: counts.index.to_numpy(), "count": counts.to_numpy()})
        horizontal = len(data) > HORIZONTAL_OVER
        cat, val = _axes(horizontal)
        enc: dict[str, Encoding] = {
            cat: self._enc(cat, q),
            val: _count(q),
        }
        reason = (
            f"No column is declared number, and you picked {q.name} "
            f"({self._said(q)}): bars counting the rows of each value."
        )
        return self._chart(
            "bar", reason, enc, data, horizontal=horizontal, title=f"rows by {q.name}"
        )

    # -- the plan -------------------------------------------------------------------------

    def _said(self, q: ColumnProfile, full: bool = False) -> str:
        word = f"declared {q.declared}" if q.declared else f"undeclared, inferred {q.type}"
        return f"{q.name} is {word}" if full else word

    def _chart(
        self,
        mark: str,
        reason: str,
        enc: Mapping[str, Encoding],
        data: pd.DataFrame,
        *,
        horizontal: bool = False,
        title: str | None = None,
    ) -> Plan:
        return Plan(
            kind="chart",
            reason=reason,
            mark=mark,
            encodings=dict(enc),
            data=data,
            refusals=tuple(self.refusals),
            notes=tuple(dict.fromkeys(self.notes)),
            horizontal=horizontal,
            title=title,
        )

    def _table(self, reason: str) -> Plan:
        return Plan(
            kind="table",
            reason=reason,
            refusals=tuple(self.refusals),
            notes=tuple(dict.fromkeys(self.notes)),
        )


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
    while out in taken or out == "count" or out.endswith("_end"):
        n += 1
        out = f"{base}_{n}"
    return out


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float | np.integer | np.floating) and not isinstance(
        value, bool | np.bool_
    )


def _label(value: Any) -> Any:
    return value if isinstance(value, str | bool) else str(value)


class _NothingToDraw(Exception):
    """No row is left once offending, empty and unplaceable rows are left out."""


def _short(value: Any) -> str:
    """A value for a note: JSON where it can be (``repr`` for inf), cut to 40 characters."""
    text = repr(float(value)) if isinstance(value, float) else render_sample(value)
    return text if len(text) <= 40 else f"{text[:39]}…"


def _be(n: int) -> str:
    return "is" if n == 1 else "are"


def _rows_hold(n: int) -> str:
    return "1 row holds" if n == 1 else f"{n:,} rows hold"


def _join(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _bucket_seconds(times: pd.Series, target: int) -> int:
    span = (times.max() - times.min()).total_seconds()
    for seconds in _BUCKETS_S:
        if span / seconds + 1 <= max(1, target):
            return seconds
    return _BUCKETS_S[-1]


def _duration(seconds: int) -> str:
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds % size == 0:
            n = seconds // size
            return f"{n}-{unit}" if n > 1 else unit
    return f"{seconds}-second"
