"""Points, drawn for the planner (``chartkit.plan.decide._Planner``): a scatter plot (a binned
heatmap over ``max_points`` rows, or the rows a backend fetched when they fit), a histogram
or count bars of a lone number, and the log scales a scatter's axes may take — from the rows
cleaned in memory or a backend's counts (``Whole.counted``, ``Whole.rows``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from chartkit.errors import ChartkitError
from chartkit.plan import choose
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
from chartkit.plan.kit import (
    COUNT_BARS_UNDER,
    HISTOGRAM_BINS,
    Plan,
    _count,
    _Part,
    _safe_field,
    _said,
)
from chartkit.plan.roles import series_over
from chartkit.plan.sentences import _join, _short


class _Points(_Part):
    """Points: a scatter plot (a binned heatmap over ``max_points`` rows), a histogram, and
    the log scales a scatter's axes may take, drawn for the planner ``p``."""

    def _log_check(self, data: pd.DataFrame, fy: str, what: str) -> pd.DataFrame:
        """Refuse a log scale, with the reason, when a drawn value is zero or negative."""
        if self.p.opts.scale != "log" or fy not in data.columns:
            return data
        values = data[fy].to_numpy(dtype=float)
        bad = values <= 0
        if bad.any():
            self.p.log_refused = True
            self.p._say(
                "log-refused",
                f"scale='log' is refused: {int(bad.sum()):,} of the {len(values):,} values drawn "
                f"for {what} are zero or negative (first: {_short(values[bad][0])}), which a log "
                "scale cannot place; the axis stays linear.",
                None, values=int(bad.sum()), of=len(values),
            )  # fmt: skip
        return data

    def _log_axes(self, data: pd.DataFrame, axes: Sequence[tuple[str, ColumnProfile, str]]) -> None:
        """Put a scatter's axis on a log scale when ``scale`` was not picked and its values,
        all positive, span ``LOG_ORDERS`` powers of ten or more (from their counted span) — or
        when the chart these rows were drilled from did (``log_columns``) and they allow it."""
        if self.p.opts.scale_picked or data.empty:
            return
        for channel, q, f in axes:
            values = data[f].to_numpy(dtype=float)
            lo, hi = float(np.nanmin(values)), float(np.nanmax(values))
            orders = choose.log_axis(lo, hi)
            if orders is None and q.name in self.p.opts.log_columns and lo > 0:
                self.p.log_axes.append(channel)  # (a drilled chart's values are the parent's)
                self.p._say(
                    "log-scale",
                    f"{q.name} is on a log scale, as in the chart these rows were drilled from "
                    f"({lo:,g} to {hi:,g} here); scale='linear' draws it linear.",
                    q.name, values=len(values),
                )  # fmt: skip
            if orders is None:
                continue
            self.p.log_axes.append(channel)
            self.p._say(
                "log-scale",
                f"{q.name} spans {lo:,g} to {hi:,g} ({orders:g} powers of ten, every "
                "value above zero): its axis is on a log scale, so the small values do not sit "
                "at zero; scale='linear' draws it linear.",
                q.name, values=len(values),
            )  # fmt: skip

    def _scatter(
        self,
        xp: ColumnProfile,
        yp: ColumnProfile,
        cp: ColumnProfile | None,
        fp: ColumnProfile | None,
        *,
        auto_color: bool,
    ) -> Plan:
        if cp is None and auto_color:
            cp = self.p.refusing._auto_color({xp.name, yp.name, fp.name if fp else None})
        data: pd.DataFrame | None = None
        if self.p.whole.counted is None:
            data = self.p.cleaning._used(("x", xp), [yp], "y", cp, fp)
        counted = self._counted_points(xp, yp, cp, fp, data)
        fetch = self.p.whole.rows
        if data is None and fetch is not None:  # a backend's rows: fetched when they fit
            sx, sy = counted.held(xp.name, enough=0), counted.held(yp.name, enough=0)
            rows = sx.rows if sx is not None and sy is not None else 0
            if self.p.probe and 1 < rows <= self.p.max_points:
                return self.p.writing._proven("point")  # each row a point
            if 0 < rows <= self.p.max_points:
                beside = [q.name for q in (cp, fp) if q is not None]
                fetched = fetch.points(xp.name, yp.name, beside)
                return self.p._of_rows(fetched, lambda sub: sub.points._scatter(
                    sub.profiles[xp.name], sub.profiles[yp.name], sub._own(cp), sub._own(fp),
                    auto_color=False,
                ))  # fmt: skip
        fx, fy = self.p.fields[xp.name], self.p.fields[yp.name]
        said = f"{_said(xp, True)} and {_said(yp, True)}"
        if self.p.opts.aggregate is not None:
            self.p._say(
                "option-ignored",
                f"aggregate={self.p.opts.aggregate!r} is not applied: a scatter plot draws one "
                "point per row.",
            )
        self.p.drawn = {"x": xp.name, "y": yp.name, "color": cp.name if cp else None,
                      "facet": fp.name if fp else None}  # fmt: skip
        sx, sy = counted.held(xp.name, enough=0), counted.held(yp.name, enough=0)
        if sx is None or sy is None:  # (a backend's rows: in memory, _used said so)
            self.p.cleaning._nothing(f"No row holds a value of both {xp.name} and {yp.name}.")
        rows = sx.rows  # the rows the points stand for
        if data is None and rows == 1:  # a backend's one point: where both spans are
            data = pd.DataFrame({fx: [sx.lo], fy: [sy.lo]})
            for q in (cp, fp):
                if q is not None:
                    data[self.p.fields[q.name]] = None
        if self.p.probe and rows > self.p.max_points and (sx.lo != sx.hi or sy.lo != sy.hi):
            # the lowest and the highest fall in different bins
            return self.p.writing._proven("rect")
        if rows > self.p.max_points:
            bins = cells_per_axis(self.p.max_points)
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
            self.p.reduction = {"bins": (bins, bins), "aggregate": "count"}
            self.p._say(
                "heatmap",
                f"{rows:,} rows are drawn as a {bins}×{bins} heatmap of counts (over "
                f"max_points={self.p.max_points:,} rows)"
                + (f"; {_join(lost)} is not shown in a heatmap." if lost else "."),
                None, rows=rows, bins=bins,
            )  # fmt: skip
            enc = {
                "x": self.p.writing._enc("x", xp, bin=True),
                "y": self.p.writing._enc("y", yp, bin=True),
                "color": _count(xp),
            }
            return self.p.writing._chart(
                "rect",
                f"{said}: a binned heatmap, as there are {rows:,} rows.",
                enc,
                data,
                title=f"{yp.name} against {xp.name}",
            )
        if data is None:
            raise ChartkitError(
                f"the backend's counts stand for {rows:,} rows, but a scatter of at most "
                f"max_points={self.p.max_points:,} draws the rows themselves; please report this"
            )
        enc = {"x": self.p.writing._enc("x", xp), "y": self.p.writing._enc("y", yp)}
        if cp is not None:
            enc["color"] = self.p.writing._enc("color", cp)
        if fp is not None:
            enc["facet"] = self.p.writing._enc("facet", fp)
        colored = f"; {cp.name} ({_said(cp)}) as color" if cp is not None else ""
        faceted = f"; one small chart per {fp.name}" if fp is not None else ""
        data = self._log_check(data, fy, yp.name)
        self._log_axes(data, (("x", xp, fx), ("y", yp, fy)))
        if series_over(self.p.roles, xp.name, [q.name for q in (cp, fp) if q is not None]):
            grid = self.p.roles[xp.name]
            per = f", one per {cp.name}" if cp is not None else ""
            per += f", one small chart per {fp.name}" if fp is not None else ""
            return self.p.writing._chart(
                "line",
                f"{said}: {grid.why}, so {yp.name} is a series over it: a line{per}.",
                enc,
                data.sort_values(fx, kind="stable"),
                title=f"{yp.name} over {xp.name}",
            )
        return self.p.writing._chart(
            "point",
            f"{said}: a scatter plot{colored}{faceted}.",
            enc,
            data,
            title=f"{yp.name} against {xp.name}",
        )

    def _histogram(self, q: ColumnProfile) -> Plan:
        counted = self._counted(q)
        f = self.p.fields[q.name]
        self.p.drawn = {"x": q.name}
        span = counted.held(q.name, enough=COUNT_BARS_UNDER)
        if span is None:  # (a backend's rows: in memory, _clean said so)
            self.p.cleaning._nothing(f"No row holds a value of {q.name}.")
        if self.p.probe and span.lo != span.hi:
            return self.p.writing._proven("bar")  # two values: two count bars, or ten bins
        if self.p.opts.scale == "log":
            self.p._say(
                "option-ignored", "scale='log' is not applied: a histogram's bins are linear."
            )
        only = " and is the only measure" if self._only_measure(q) else ""
        if span.distinct < COUNT_BARS_UNDER:
            values, rows = counted.per_value(q.name)
            data = pd.DataFrame({f: np.asarray(values, dtype=float),
                                 "count": np.asarray(rows, dtype=int)})  # fmt: skip
            enc = {"x": self.p.writing._enc("x", q), "y": _count(q)}
            reason = (
                f"{_said(q, True)}{only}, with {span.distinct} distinct "
                f"{'value' if span.distinct == 1 else 'values'}: a bar "
                "counting the rows of each."
            )
            return self.p.writing._chart("bar", reason, enc, data, title=f"rows by {q.name}")
        edges = histogram_edges(span.lo, span.hi, HISTOGRAM_BINS)
        (at,), rows = counted.per_bin((q.name,), (edges,))
        binned = np.zeros(len(edges) - 1, dtype=int)
        binned[np.asarray(at, dtype=np.intp)] = rows
        data = pd.DataFrame({f: edges[:-1], f"{f}_end": edges[1:], "count": binned})
        enc = {
            "x": self.p.writing._enc("x", q, bin=True),
            "y": _count(q),
        }
        reason = f"{_said(q, True)}{only}: a histogram of its values in {HISTOGRAM_BINS} bins."

        return self.p.writing._chart("bar", reason, enc, data, title=f"distribution of {q.name}")

    def _counted(self, q: ColumnProfile) -> Counted:
        """The counts of the rows a histogram places: the backend's, when the rows stay
        there (``Whole.counted``: the frame holds none of them), else of the rows cleaned here."""
        if self.p.whole.counted is not None:
            return self._backend_counted([q, None])
        data = self.p.cleaning._clean([("x", q)])
        return ArrayCounts({q.name: data[self.p.fields[q.name]].to_numpy(dtype=float)})

    def _counted_points(
        self,
        xp: ColumnProfile,
        yp: ColumnProfile,
        cp: ColumnProfile | None,
        fp: ColumnProfile | None,
        data: pd.DataFrame | None,
    ) -> Counted:
        """A scatter's counts (``_counted``): of ``data``, the rows it cleaned, if any."""
        if data is None:
            return self._backend_counted([xp, yp, cp, fp])
        f = self.p.fields
        return ArrayCounts({q.name: data[f[q.name]].to_numpy(dtype=float) for q in (xp, yp)})

    def _backend_counted(self, used: list[ColumnProfile | None]) -> Counted:
        """``Whole.counted`` of the numbers the chart places (the first two of ``used``; a
        color or facet beside them places the rows too, as in memory), the used columns given
        their fields (the backend places the rows, and said what it left out)."""
        assert self.p.whole.counted is not None
        for q in used:
            if q is not None and q.name not in self.p.fields:
                self.p.fields[q.name] = _safe_field(q.name, set(self.p.fields.values()))
        numbers = tuple(q.name for q in used[:2] if q is not None)
        beside = tuple(q.name for q in used[2:] if q is not None)
        # a color that is a number or a date places its rows as an axis does (a row holding
        # no value, or an infinite number, has no color to be drawn in), as memory cleans it
        axes = list(zip(numbers, ("x", "y"), strict=False)) + [
            (q.name, channel)
            for q, channel in zip(used[2:], ("color", "facet"), strict=False)
            if q is not None and q.type != "nominal"
        ]  # fmt: skip
        self.p.cleaning._said([*numbers, *beside], axes)
        return self.p.whole.counted(numbers, beside)

    def _only_measure(self, q: ColumnProfile) -> bool:
        return all(p is q or not p.is_measure for p in self.p.profiles.values())
