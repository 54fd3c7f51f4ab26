"""The sentences chartkit says about a check, in one voice, in one place.

The ceiling, the warn finding and the enforce refusal are fixed word for word by the
specification (``shared/spec/column-types.md``); the sentences for absences, missing columns
and several broken columns are written in the same voice.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from chartkit.check import ColumnViolation

__all__ = [
    "COLUMN_TYPE_CEILING",
    "NOTHING_CHANGED",
    "finding_message",
    "refusal_sentence",
    "render_sample",
]

COLUMN_TYPE_CEILING = (
    "This judges TYPE, never MEANING — it can see that a column declared number holds a "
    "string, and it can never see that the string should have been 0, or that a 0.0 should "
    "have been an 8; a column whose every value has its declared type passes here and can "
    "still be wrong."
)
"""The bound of the check, quoted verbatim into every finding it files."""

NOTHING_CHANGED = (
    "Nothing here blocked the call, changed the result, or retried anything — the model reads "
    "the rows exactly as the tool returned them."
)


def render_sample(value: Any) -> str:
    """A sample as JSON (``""``, ``"1240"``, ``17``, ``true``); repr-like text otherwise.

    >>> render_sample(""), render_sample(3), render_sample(None)
    ('""', '3', 'null')
    """
    if isinstance(value, Decimal) and value.is_finite():
        return str(value)  # a number, so unquoted, with the digits the tool returned
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError):
        item = getattr(value, "item", None)  # numpy scalars
        if callable(item):
            try:
                return json.dumps(item(), ensure_ascii=False, allow_nan=False)
            except (TypeError, ValueError):
                pass
        if hasattr(value, "isoformat"):
            return json.dumps(value.isoformat())
        return json.dumps(str(value), ensure_ascii=False)


def _first(v: ColumnViolation) -> str:
    if v.sample_type == "absent":
        return "a row without the key (absent)"
    if v.sample_type == "null":
        return "null (null)"
    return f"{render_sample(v.sample)} ({v.sample_type})"


def _nullable_hint(v: ColumnViolation) -> str:
    verb = "holds" if v.absent == 1 else "hold"
    return (
        f" {v.absent} of those rows {verb} nothing (null or a key not set); if a row may "
        f"legitimately carry nothing, declare the column nullable."
    )


def finding_message(v: ColumnViolation, *, tool: str, call_id: str | None) -> str:
    """The warn-mode finding for one violation, ceiling and call id included.

    >>> from chartkit.check import ColumnViolation
    >>> v = ColumnViolation("column-type-mismatch", "lun", "number", False, "", "string", 1, 2)
    >>> print(finding_message(v, tool="t", call_id="call-1"))  # doctest: +NORMALIZE_WHITESPACE
    't' declares column 'lun' as number, and 1 of 2 rows hold something else — the first is ""
    (string). This judges TYPE, never MEANING — it can see that a column declared number holds
    a string, and it can never see that the string should have been 0, or that a 0.0 should
    have been an 8; a column whose every value has its declared type passes here and can still
    be wrong. Call id call-1. Nothing here blocked the call, changed the result, or retried
    anything — the model reads the rows exactly as the tool returned them.
    """
    call = f" Call id {call_id}." if call_id else ""
    if v.kind == "missing-column":
        head = (
            f"{tool!r} declares column {v.column!r} as {v.declared}, and none of the "
            f"{v.total} rows has that column — it was never delivered, so look at the query "
            f"that selects it, not the code that maps its values."
        )
    else:
        head = (
            f"{tool!r} declares column {v.column!r} as {v.declared}, and {v.affected} of "
            f"{v.total} rows hold something else — the first is {_first(v)}."
        )
        if v.about_absence:
            head += _nullable_hint(v)
    return f"{head} {COLUMN_TYPE_CEILING}{call} {NOTHING_CHANGED}"


def _clause(v: ColumnViolation) -> str:
    if v.kind == "missing-column":
        return (
            f"{v.column!r} is declared {v.declared} and no row has it (the query never selected it)"
        )
    held = " or ".join(
        dict.fromkeys("nothing" if t in ("null", "absent") else t for t in v.offending_types)
    )
    held = held or v.sample_type
    first = "null" if v.sample_type in ("null", "absent") else render_sample(v.sample)
    clause = (
        f"{v.column!r} is declared {v.declared} and {v.affected} of {v.total} rows hold "
        f"{held} (first: {first})"
    )
    if v.about_absence:
        clause += " (declare it nullable if a row may carry nothing)"
    return clause


def refusal_sentence(tool: str, violations: Sequence[ColumnViolation]) -> str:
    """The enforce-mode refusal: the whole payload the model reads instead of the rows.

    >>> from chartkit.check import ColumnViolation
    >>> v = ColumnViolation("column-type-mismatch", "lun", "number", False, "", "string", 2, 2)
    >>> print(refusal_sentence("t", [v]))  # doctest: +NORMALIZE_WHITESPACE
    Result rejected: t returned rows that disagree with the columns it declares — 'lun' is
    declared number and 2 of 2 rows hold string (first: ""). Fix the tool so the column holds
    what it declares, or change the declaration. No data was returned.
    """
    if not violations:
        raise ValueError("a refusal needs at least one violation")
    clauses = "; ".join(_clause(v) for v in violations)
    if all(v.kind == "missing-column" for v in violations):
        fix = "Fix the query so it selects every declared column, or change the declaration."
    elif any(v.kind == "missing-column" for v in violations):
        fix = (
            "Fix the tool so each column holds what it declares and the query selects every "
            "declared column, or change the declaration."
        )
    elif len(violations) == 1:
        fix = "Fix the tool so the column holds what it declares, or change the declaration."
    else:
        fix = "Fix the tool so each column holds what it declares, or change the declaration."
    return (
        f"Result rejected: {tool} returned rows that disagree with the columns it declares — "
        f"{clauses}. {fix} No data was returned."
    )
