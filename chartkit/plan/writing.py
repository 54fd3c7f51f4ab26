"""The encodings and the ``Plan`` of a chart or a table, written for the planner
(``chartkit.plan.decide._Planner``): each channel's field, type, title and format, the
reduction behind the marks, and the plan's notes as values.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from chartkit.plan.encode import (
    Channel,
    ColumnProfile,
    Encoding,
)
from chartkit.plan.kit import HISTOGRAM_BINS, MEASURE, VALUE, Plan, _count, _facts, _Part
from chartkit.plan.sentences import _join
from chartkit.plan.spec import Reduction


class _Writing(_Part):
    """The encodings and the ``Plan`` made of them: a channel's ``Encoding``, the measure's,
    the reduction as ``Plan.spec`` reads it, and a chart or table plan of the planner ``p``."""

    def _enc(self, channel: Channel, q: ColumnProfile, **kw: Any) -> Encoding:
        mixed = any(n.kind == "mixed-zones" and n.column == q.name for n in self.p.notes)
        utc = f"{q.name} (UTC; times without a zone as given)" if mixed else f"{q.name} (UTC)"
        title = kw.pop("title", None) or (utc if q.name in self.p.utc else q.name)
        return Encoding(
            q.name,
            q.type,
            q.source,
            field=self.p.fields.get(q.name, ""),
            title=title,
            declared=q.declared,
            **kw,
        )

    def _measure(self, yps: list[ColumnProfile]) -> tuple[str, str]:
        """(value field, what it is called) of one or several measures."""
        if not yps:
            return "count", "rows"
        if len(yps) > 1:
            return VALUE, _join([m.name for m in yps])
        return self.p.fields[yps[0].name], yps[0].name

    def _y_enc(
        self, channel: Channel, yps: list[ColumnProfile], xp: ColumnProfile, aggregate: str | None
    ) -> Encoding:
        if not yps:
            return _count(xp)
        _, what = self._measure(yps)
        title = f"{aggregate} of {what}" if aggregate else what
        if len(yps) > 1:
            q = yps[0]
            return Encoding(
                q.name, q.type, q.source, aggregate=aggregate, field=VALUE, title=title,
                declared=q.declared, measures=tuple(m.name for m in yps),
            )  # fmt: skip
        return self._enc(channel, yps[0], aggregate=aggregate, title=title)

    def _series_enc(self, yps: list[ColumnProfile]) -> Encoding:
        q = yps[0]
        return Encoding(
            MEASURE, "nominal", q.source, field=MEASURE, title=MEASURE, declared=None,
            measures=tuple(m.name for m in yps),
        )  # fmt: skip

    def _chart(
        self,
        mark: str,
        reason: str,
        enc: Mapping[str, Encoding],
        data: pd.DataFrame,
        *,
        horizontal: bool = False,
        title: str | None = None,
        order: tuple[Any, ...] | None = None,
    ) -> Plan:
        return Plan(
            kind="chart",
            reason=reason,
            mark=mark,
            encodings=dict(enc),
            data=data,
            refusals=tuple(self.p.refusals),
            notes=tuple(dict.fromkeys(n.sentence for n in self.p.notes)),
            facts=_facts(self.p.notes),
            horizontal=horizontal,
            title=title,
            order=order,
            left_out=self.p.left_out,
            scale="log"
            if self.p.log_axes
            else "linear"
            if self.p.log_refused
            else self.p.opts.scale,
            log_axes=tuple(self.p.log_axes),
            format=self.p.opts.format,
            time_unit=self.p.opts.time_unit,
            reduction=self._reduction(mark, enc),
            fetched=self.p.fetched,
        )

    def _reduction(self, mark: str, enc: Mapping[str, Encoding]) -> Reduction:
        """What the rows were reduced to: the keys of an aggregated chart, its aggregate, the
        bucket or unit, the bins, the top-N kept."""
        measure = [e for e in enc.values() if e.aggregate is not None]
        binned = tuple(HISTOGRAM_BINS for e in enc.values() if e.bin) if mark == "bar" else ()
        # an aggregated chart is grouped by every other channel's column (the measures' names,
        # when several are drawn, are a key too)
        keys = tuple(
            dict.fromkeys(
                "measure" if e.column == MEASURE and e.measures else e.column
                for e in enc.values()
                if e.aggregate is None and not e.bin
            )
        ) if measure else ()  # fmt: skip
        y = measure[0].aggregate if measure else None
        got = dict(self.p.reduction)
        return Reduction(
            keys=keys,
            aggregate=got.get("aggregate", y),
            bucket_seconds=got.get("bucket_seconds"),
            time_unit=self.p.opts.time_unit,
            bins=got.get("bins", binned),
            top=got.get("top"),
        )

    def _proven(self, mark: str) -> Plan:
        """A probe's answer: a chart proven to hold more than one mark, its data not built.

        Never returned by ``plan_view``: only its ``drawn`` picks (the alternatives) are used.
        """
        return Plan(kind="chart", reason="", mark=mark, data=pd.DataFrame(index=range(2)))

    def _table(self, reason: str) -> Plan:
        return Plan(
            kind="table",
            reason=reason,
            refusals=tuple(self.p.refusals),
            notes=tuple(dict.fromkeys(n.sentence for n in self.p.notes)),
            facts=_facts(self.p.notes),
        )
