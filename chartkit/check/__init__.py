"""The check stage: the rows against their declaration, one verdict table, the dial.

- ``chartkit.check.judge``: ``check_columns`` → a ``ColumnViolation`` per broken column, in
  memory (a list of dicts read once, in C where built; a pandas frame by its dtypes), or in the
  engine that holds the rows (``chartkit.check._frame_check``: one count query).
- ``chartkit.check.verdicts``: the one verdict table (declared type × value type → ok |
  absent | offends) every path reads.
- ``chartkit.check.integrity``: the dial ``off | warn | enforce`` → ``CheckOutcome``, findings,
  disposition rows; ``chartkit.check.events``: each of them published to a framework's bus.

``chartkit.check`` itself keeps the names it always had (``check_columns``, ``ColumnViolation``,
...), the judge's.
"""

from __future__ import annotations

from chartkit.check.judge import (
    OFFENDERS_LISTED,
    VIOLATION_KINDS,
    ColumnViolation,
    OffendingValue,
    ViolationKind,
    check_columns,
    most_frequent,
    offending_mask,
    value_type_name,
)

__all__ = [
    "OFFENDERS_LISTED",
    "VIOLATION_KINDS",
    "ColumnViolation",
    "OffendingValue",
    "ViolationKind",
    "check_columns",
    "most_frequent",
    "offending_mask",
    "value_type_name",
]
