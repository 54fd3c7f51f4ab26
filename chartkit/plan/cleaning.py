"""The rows a chart can place, for the planner (``chartkit.plan.decide._Planner``): each used
column's values prepared for its axis, the offenders, missing and unplaceable values left out,
each said as a note — or, when the rows stay in a backend, the notes it counts there
(``Whole.said``), said at the same point.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NoReturn

import numpy as np
import pandas as pd

from chartkit.check.judge import offending_mask
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
    _NothingToDraw,
    _Part,
    _Prepared,
    _safe_field,
    _stacked_names,
)
from chartkit.plan.reduce import (
    as_floats,
)
from chartkit.plan.sentences import (
    UNPLACEABLE_NUMBER,
    no_value_note,
    nothing_to_draw,
    unplaced_note,
)


class _Cleaning(_Part):
    """The rows a chart can place: each used column's values prepared for its axis, the
    offenders, missing and unplaceable values left out, and each left-out count said as a
    note of the planner ``p``."""

    def _said(
        self, used: Sequence[str], axes: Sequence[tuple[str, str]], together: Sequence[str] = ()
    ) -> None:
        """The notes of the rows a backend places (``Whole.said``: it counts them where they
        live), said where ``_clean`` says memory's; a probe's are not asked (its plan is not
        said)."""
        said = self.p.whole.said
        if said is None or self.p.probe:
            return
        self.p.notes.extend(n for n in said(used, axes, together) if n not in self.p.notes)

    def _nothing(self, otherwise: str) -> NoReturn:
        """Every row a backend holds is left out: the table says the notes that say why (or
        ``otherwise``, when no note does), as ``_clean`` says memory's."""
        raise _NothingToDraw(nothing_to_draw([n.sentence for n in self.p.notes] or [otherwise]))

    def _clean(
        self, used: list[tuple[Channel, ColumnProfile]], *, optional: set[str] | None = None
    ) -> pd.DataFrame:
        """The used columns, renamed to safe fields; rows that cannot be drawn left out, noted.

        Raises ``_NothingToDraw`` when no row is left.
        """
        keep = np.ones(len(self.p.frame), dtype=bool)
        judged: set[str] = set()  # (a column on two channels, x and color say: said once)
        for channel, q in used:
            series = self.p.frame[q.name]
            if q.declaration is not None and q.violation is not None and q.name not in judged:
                judged.add(q.name)
                bad = offending_mask(series, q.declaration)
                keep &= ~bad
                v = q.violation
                quoted = (
                    " — numbers in quotes: the tool quotes its numbers"
                    if q.declared == "number" and numeric_strings_only(series, bad)
                    else ""
                )
                self.p._say(
                    "left-out",
                    f"{int(bad.sum()):,} of {v.total:,} rows {'is' if bad.sum() == 1 else 'are'} "
                    f"left out of the {channel} axis: "
                    f"{q.name} is declared {q.declared} and they {describe_offenders(v)}"
                    f"{quoted}. Nothing was converted.",
                    q.name, rows=int(bad.sum()), of=v.total,
                )  # fmt: skip
        out: dict[str, pd.Series] = {}
        dropped = np.zeros(np.count_nonzero(keep), dtype=bool)
        every = bool(keep.all())  # then no column is copied just to keep every row
        for channel, q in used:
            if q.name in self.p.fields:
                continue
            series = self.p.frame[q.name] if every else self.p.frame[q.name][keep]
            self.p.fields[q.name] = _safe_field(q.name, set(self.p.fields.values()))
            values, unplaced = self._prepared(channel, q, series, None if every else keep)
            out[self.p.fields[q.name]] = values
            dropped |= unplaced
        data = pd.DataFrame(out, copy=False)  # copy-on-write: the frame's columns stay as they are
        if dropped.any():
            data = data[~dropped]
        self.p.left_out += len(keep) - int(np.count_nonzero(keep)) + int(np.count_nonzero(dropped))
        # a row with no value on a measure or time axis has no place to be drawn; on a
        # category or color it is its own category (null), so it stays
        skip = optional or set()
        empty = np.zeros(len(data), dtype=bool)
        gaps: dict[str, None] = {}  # the columns some row holds no value in: only they are named
        for _, q in used:
            if q.type == "nominal" or q.name in skip or q.name in gaps:
                continue
            missing = data[self.p.fields[q.name]].isna().to_numpy()
            if missing.any():
                gaps[q.name] = None
                empty |= missing
        # several measures: a row holding none of them has no point to draw either
        several = [q for _, q in used if q.type == "quantitative" and q.name in skip]
        if len(several) > 1:
            none = np.logical_and.reduce(
                [data[self.p.fields[q.name]].isna().to_numpy() for q in several]
            )
            if none.any():
                gaps.update(dict.fromkeys(q.name for q in several))
                empty |= none
        if empty.any():
            n = int(empty.sum())
            self.p.notes.append(no_value_note(n, list(gaps)))
            data = data[~empty]
            self.p.left_out += n
        if data.empty:
            raise _NothingToDraw(nothing_to_draw([n.sentence for n in self.p.notes]))
        return data.reset_index(drop=True)

    def _values(
        self,
        channel: Channel,
        q: ColumnProfile,
        series: pd.Series,
        keep: np.ndarray[Any, np.dtype[np.bool_]] | None = None,
    ) -> tuple[pd.Series, np.ndarray[Any, np.dtype[np.bool_]]]:
        """The column's values as the chart takes them, and which rows cannot be placed.

        ``keep``, when given, says which of the frame's rows ``series`` holds: a date column a
        reading parsed is then filtered from the whole column's times, not parsed again.
        """
        unplaced = np.zeros(len(series), dtype=bool)
        if q.source == "inferred":
            self.p._say(
                "inferred",
                f"{q.name} is not declared: Altair inferred it as {q.type} from its values. "
                "Declaring it in resultColumns would make its type exact.",
                q.name,
            )
        if q.type == "quantitative":
            if isinstance(series.dtype, np.dtype) and series.dtype.kind in "fiu":
                # plain numbers: a value is missing exactly when it is NaN, so the numbers
                # no chart can place are the infinite ones
                huge = np.isinf(series.to_numpy())
                if huge.any():
                    self._note_unplaced(channel, q, series, huge, UNPLACEABLE_NUMBER)
                    return series.astype("float64").where(~huge, np.nan), huge
                return series.astype("float64"), huge
            present = series.notna().to_numpy()
            if q.source == "inferred":
                wrong = present & ~series.map(_is_number).to_numpy(dtype=bool)
                if wrong.any():
                    self._note_unplaced(channel, q, series, wrong, "something other than a number")
                    series = series.where(~wrong, None)
                    unplaced |= wrong
            numbers = as_floats(series)
            huge = present & ~unplaced & ~np.isfinite(numbers.to_numpy(dtype=float))
            if huge.any():
                self._note_unplaced(channel, q, series, huge, UNPLACEABLE_NUMBER)
                unplaced |= huge
            return (numbers.where(~huge, np.nan) if huge.any() else numbers), unplaced
        if q.type == "temporal":
            if keep is None:
                values, aware = wall_clock(series)  # one parse: the times, and any zone
            else:  # the kept rows' times: == wall_clock(series), the series being frame[keep]
                values, aware = wall_clock(self.p.frame[q.name], keep)
            if aware:
                self.p.utc.add(q.name)
                naive, zoned = zone_counts(series, None if keep is None else self.p.frame[q.name])
                if naive and zoned:  # never merged silently: both counted, each said how drawn
                    self.p._say(
                        "mixed-zones",
                        f"{q.name} mixes {zoned:,} times with a time zone and {naive:,} without "
                        "one: those with a zone are drawn in UTC, those without as given (their "
                        "zone is unknown, so they are not converted); the axis says so.",
                        q.name, zoned=zoned, naive=naive,
                    )  # fmt: skip
            return values, unplaced
        api = pd.api.types
        if api.is_string_dtype(series.dtype) and not api.is_object_dtype(series.dtype):
            return series, unplaced  # a typed string column: nothing to look at
        if api.is_bool_dtype(series.dtype):
            return series, unplaced
        items = series.tolist()
        if _TEXT_OR_NONE.issuperset(map(type, items)):  # each its own label, all of one type
            return pd.Series(items, index=series.index, dtype=object), unplaced
        labels = [v if _missing(v) else _label(v) for v in items]
        if len({type(v) for v in labels if not _missing(v)}) > 1:  # booleans among text:
            labels = [v if _missing(v) else str(v) for v in labels]  # one type for Vega-Lite
        return pd.Series(labels, index=series.index, dtype=object), unplaced  # no str inference

    def _prepared(
        self,
        channel: Channel,
        q: ColumnProfile,
        series: pd.Series,
        keep: np.ndarray[Any, np.dtype[np.bool_]] | None,
    ) -> tuple[pd.Series, np.ndarray[Any, np.dtype[np.bool_]]]:
        """``_values`` of ``series`` (the frame's column, or its rows ``keep`` holds), remembered
        (with the notes it made) by a probe when every row of the column is kept, for the
        chosen chart's plan (only then: it holds the column)."""
        every = keep is None
        key = (channel, q.name)
        if every and key in self.p.prepared:
            got = self.p.prepared[key]
            self.p.notes.extend(got.notes)
            if got.utc:
                self.p.utc.add(q.name)
            return got.values, got.unplaced
        before = len(self.p.notes)
        values, unplaced = self._values(channel, q, series, keep)
        if every and self.p.probe:
            notes = tuple(self.p.notes[before:])
            self.p.prepared[key] = _Prepared(values, unplaced, notes, q.name in self.p.utc)
        return values, unplaced

    def _note_unplaced(
        self, channel: Channel, q: ColumnProfile, series: pd.Series, mask: Any, what: str
    ) -> None:
        first = series[mask].iloc[0]
        self.p.notes.append(unplaced_note(channel, q.name, int(mask.sum()), first, what))

    def _used(
        self,
        x: tuple[Channel, ColumnProfile],
        yps: list[ColumnProfile],
        val: Channel,
        cp: ColumnProfile | None,
        fp: ColumnProfile | None,
    ) -> pd.DataFrame:
        used: list[tuple[Channel, ColumnProfile]] = [x] + [(val, m) for m in yps]
        if cp is not None:
            used.append(("color", cp))
        if fp is not None:
            used.append(("facet", fp))
        optional = {m.name for m in yps} if len(yps) > 1 else set()
        return self._clean(used, optional=optional)

    def _melt(self, data: pd.DataFrame, yps: list[ColumnProfile]) -> pd.DataFrame:
        """Several measures as one long frame: ``measure`` names the column, ``value`` holds it."""
        measure_fields = [self.p.fields[m.name] for m in yps]
        ids = [c for c in data.columns if c not in set(measure_fields)]
        long = data.melt(id_vars=ids, value_vars=measure_fields, var_name=MEASURE, value_name=VALUE)
        names = {self.p.fields[m.name]: m.name for m in yps}
        long[MEASURE] = _stacked_names(long[MEASURE], measure_fields, names, len(data))
        return long[long[VALUE].notna()].reset_index(drop=True)
