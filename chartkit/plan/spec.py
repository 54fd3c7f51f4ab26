"""The chart as values: its mark, channels, the reduction behind it, and its notes.

A ``ChartSpec`` is what the planner decided, in fields a backend, the payload or a UI can read
without parsing English: the mark, one ``ChannelSpec`` per channel (the column, its Vega-Lite
type, aggregate, binning), the ``Reduction`` (group keys, time bucket or unit, bins, aggregate,
top-N) and the ``Note`` values — each a kind, the column it is about, its counts, and the one
sentence made from them. ``chartkit.plan.decide.Plan.spec`` gives it for every plan.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = ["NOTE_KINDS", "ChannelSpec", "ChartSpec", "Note", "NoteKind", "Reduction"]

NoteKind = Literal[
    "left-out",  # offenders of the declaration left out of an axis
    "unplaced",  # values of the declared type no chart can place (infinite, not a number)
    "no-value",  # rows with no value on a measure or time axis
    "mixed-zones",  # a date column mixing times with a zone and without: both counted
    "inferred",  # an undeclared column, its type inferred by Altair
    "identifier",  # a string column too distinct to be a category
    "not-split",  # a category too wide for colors or facets, not split by
    "facets-for-colors",  # a color past ten values drawn as small charts
    "bucketed",  # rows drawn as points per time bucket (over max_points)
    "shared",  # rows sharing a point or bar: the mean drawn
    "top",  # bars cut to the top categories
    "heatmap",  # rows drawn as a binned heatmap (over max_points)
    "pairs",  # rows drawn as a point per distinct (x, y) pair, sized by its rows
    "option-ignored",  # an option that does not apply to this chart (sort, aggregate, log)
    "log-refused",  # a log scale refused: a drawn value is zero or negative
    "log-scale",  # a scatter's axis spanning orders of magnitude drawn on a log scale
    "sort-absent",  # sort lists values no bar holds
]
NOTE_KINDS: tuple[str, ...] = NoteKind.__args__  # type: ignore[attr-defined]


@dataclass(frozen=True, slots=True)
class Note:
    """One thing the chart does not show as-is: what kind, about which column, how many, and
    the sentence that says it (made from these fields, in one place, where it is written)."""

    kind: NoteKind
    sentence: str
    column: str | None = None
    counts: tuple[tuple[str, int], ...] = ()

    def count(self, name: str) -> int | None:
        """The count named ``name`` (``rows``, ``of``, ``values``…), or None."""
        return dict(self.counts).get(name)

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "column": self.column,
            "counts": dict(self.counts),
            "sentence": self.sentence,
        }


@dataclass(frozen=True, slots=True)
class ChannelSpec:
    """One channel of the chart: the column on it and how it is drawn."""

    channel: str
    column: str
    type: str
    aggregate: str | None = None
    bin: bool = False
    measures: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Reduction:
    """What the rows were reduced to before drawing: the keys grouped by, the time bucket
    (seconds) or unit, the bins, the aggregate, and the top-N categories kept."""

    keys: tuple[str, ...] = ()
    aggregate: str | None = None
    bucket_seconds: int | None = None
    time_unit: str | None = None
    bins: tuple[int, ...] = ()
    top: int | None = None


@dataclass(frozen=True, slots=True)
class ChartSpec:
    """The chart decided, as values: ``kind`` chart or table, the mark, channels, reduction,
    notes, and the reason."""

    kind: Literal["chart", "table"]
    reason: str
    mark: str | None = None
    channels: tuple[ChannelSpec, ...] = ()
    reduction: Reduction = field(default_factory=Reduction)
    notes: tuple[Note, ...] = ()
    horizontal: bool = False

    def channel(self, name: str) -> ChannelSpec | None:
        return next((c for c in self.channels if c.channel == name), None)

    def by_kind(self) -> Mapping[str, tuple[Note, ...]]:
        out: dict[str, list[Note]] = {}
        for n in self.notes:
            out.setdefault(n.kind, []).append(n)
        return {k: tuple(v) for k, v in out.items()}
