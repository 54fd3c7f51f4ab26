"""What the check finds, as values: a ``ColumnViolation`` per broken column, the
``OffendingValue`` s it lists (the most frequent first), and the finding kinds.

The vocabulary every stage speaks of a broken column — the judges make them
(``chartkit.check``), the sentences format them (``chartkit.messages``), the plan refuses an
axis with one, every surface shows them — so it sits below all of them and imports none.
``chartkit.check`` and ``chartkit.check.judge`` re-export each name (their public paths).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Final, Literal

from chartkit._lazy import lazy_module
from chartkit._safe import SAMPLE_MAX_ITEMS, cap_sample, sample_text
from chartkit.columns import COLUMN_TYPES, ColumnDeclaration, ColumnType
from chartkit.errors import ChartkitError

if TYPE_CHECKING:
    import numpy as np
else:  # imported on first use (chartkit._lazy)
    np = lazy_module("numpy")

__all__ = [
    "OFFENDERS_LISTED",
    "VIOLATION_KINDS",
    "ColumnViolation",
    "OffendingValue",
    "ViolationKind",
    "most_frequent",
]

ViolationKind = Literal["column-type-mismatch", "missing-column"]
VIOLATION_KINDS: tuple[ViolationKind, ...] = ("column-type-mismatch", "missing-column")

OFFENDERS_LISTED: Final = SAMPLE_MAX_ITEMS
"""Distinct offending values a violation lists with their counts (the most frequent first)."""


@dataclass(frozen=True, slots=True)
class OffendingValue:
    """One distinct offending value of a column and how many rows hold it.

    ``value`` is the value as the tool returned it (None for an absence: ``value_type`` is then
    ``null`` or ``absent``, every spelling of nothing counted as one); ``to_dict`` quotes it
    bounded (``chartkit._safe.cap_sample``), as the sample is.
    """

    value: Any
    value_type: str
    count: int

    def __post_init__(self) -> None:
        if self.count < 1:
            raise ChartkitError(f"an offending value is held by at least 1 row, got {self.count}")

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the value bounded, its type name, its count."""
        return {"value": cap_sample(self.value), "type": self.value_type, "count": self.count}


@dataclass(frozen=True, slots=True)
class ColumnViolation:
    """One declared column whose rows break the declaration.

    ``sample`` is the first offending value as the tool returned it (None for an absence;
    ``to_dict`` and every sentence quote it bounded, see ``chartkit._safe.cap_sample``),
    ``sample_type`` its JSON-ish name; ``affected`` of ``total`` rows offend, ``absent`` of them
    by holding nothing (null, NaN, NaT or a key not set); ``offending_types`` names what the
    offenders hold, first seen first.
    """

    kind: ViolationKind
    column: str
    declared: ColumnType
    nullable: bool
    sample: Any
    sample_type: str
    affected: int
    total: int
    absent: int = 0
    offending_types: tuple[str, ...] = ()
    offenders: tuple[OffendingValue, ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in VIOLATION_KINDS:
            raise ChartkitError(f"kind {self.kind!r} is not one of {', '.join(VIOLATION_KINDS)}")
        if self.declared not in COLUMN_TYPES:
            raise ChartkitError(f"declared {self.declared!r} is not one of {COLUMN_TYPES}")
        if not 0 <= self.absent <= self.affected <= self.total:
            raise ChartkitError(
                f"counts must satisfy 0 <= absent <= affected <= total, got absent={self.absent}, "
                f"affected={self.affected}, total={self.total}"
            )
        if len(self.offenders) > OFFENDERS_LISTED or self.unlisted < 0:
            raise ChartkitError(
                f"offenders lists at most {OFFENDERS_LISTED} values held by at most the "
                f"{self.affected} affected rows, got {len(self.offenders)} values held by "
                f"{self.affected - self.unlisted} rows"
            )

    @classmethod
    def missing(cls, column: str, declaration: ColumnDeclaration, total: int) -> ColumnViolation:
        """The ``missing-column`` violation: a declared column that no row has."""
        return cls(
            "missing-column", column, declaration.type, declaration.nullable, None, "absent",
            total, total, total, ("absent",),
        )  # fmt: skip

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, camelCase like the wire form; the sample as JSON can hold it."""
        return {
            "kind": self.kind,
            "column": self.column,
            "declared": self.declared,
            "nullable": self.nullable,
            "sample": cap_sample(self.sample),  # a bounded JSON value (chartkit._safe)
            "sampleType": self.sample_type,
            "affected": self.affected,
            "total": self.total,
            "absent": self.absent,
            "offendingTypes": list(self.offending_types),
            "offenders": [o.to_dict() for o in self.offenders],
            "offendersUnlisted": self.unlisted,
        }

    @property
    def unlisted(self) -> int:
        """Offending rows whose values ``offenders`` does not list (rarer values than these)."""
        return self.affected - sum(o.count for o in self.offenders)

    @property
    def about_absence(self) -> bool:
        """True when some offending rows hold nothing (so ``nullable`` is a possible fix)."""
        return self.kind == "column-type-mismatch" and self.absent > 0


_ABSENCE_FIRST: Final = {"absent": 0, "null": 1}


def most_frequent(found: Iterable[OffendingValue]) -> tuple[OffendingValue, ...]:
    """At most ``OFFENDERS_LISTED`` of the offending values, the most frequent first; equal
    counts in one order whatever the rows' order: absent, null, then by type name and value
    (values that cannot be compared, by their bounded text).

    >>> most_frequent([OffendingValue("n/a", "string", 2), OffendingValue(None, "null", 2),
    ...                OffendingValue("-", "string", 3)])  # doctest: +NORMALIZE_WHITESPACE
    (OffendingValue(value='-', value_type='string', count=3),
     OffendingValue(value=None, value_type='null', count=2),
     OffendingValue(value='n/a', value_type='string', count=2))
    """
    listed = list(found)
    if len(listed) > OFFENDERS_LISTED:  # only the values tied at the cut need an order
        cut = heapq.nlargest(OFFENDERS_LISTED, (o.count for o in listed))[-1]
        above = [o for o in listed if o.count > cut]
        tied = [o for o in listed if o.count == cut]
        listed = above + _in_order(tied, OFFENDERS_LISTED - len(above))
    return tuple(_in_order(listed, len(listed)))


def _in_order(found: list[OffendingValue], limit: int) -> list[OffendingValue]:
    def rank(o: OffendingValue) -> tuple[int, int, str]:
        return (-o.count, _ABSENCE_FIRST.get(o.value_type, 2), o.value_type)

    try:
        return heapq.nsmallest(limit, found, key=lambda o: (*rank(o), _order_value(o)))
    except Exception:  # a value whose own comparison breaks: the text alone decides
        return heapq.nsmallest(limit, found, key=lambda o: (*rank(o), sample_text(o.value)))


def _order_value(o: OffendingValue) -> Any:
    """What orders values of one type name: numbers and booleans as numbers (numpy's as
    Python's, so a Decimal and an int64 compare), strings as themselves, anything else
    (dates of mixed kinds or zones, lists, objects) by its bounded text."""
    value = o.value
    if o.value_type in ("number", "boolean", "string"):
        item = getattr(value, "item", None)
        if isinstance(value, np.generic) and callable(item):
            value = item()
        if isinstance(value, str | int | float | Decimal):
            return (0, value)
    return (1, sample_text(o.value))  # never compared with the values above
