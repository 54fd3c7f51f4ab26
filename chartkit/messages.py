"""The sentences chartkit says about a check, in one voice, in one place.

The ceiling, the warn finding and the enforce refusal are fixed word for word by the user's
specification of the check (``docs/check.md`` quotes them as this module says them); the
sentences for absences, missing columns and several broken columns are written in the same
voice. Every count is written with thousands separators (``166 of 2,056 rows``), as the
specification writes its own counts ("on 2,094 mappings") and as every other surface of
chartkit writes them; the fixed sentences keep their words, and a count under 1,000 reads as
the specification's examples do.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from chartkit._isodate import DATE_FORM
from chartkit._safe import NAME_MAX_CHARS, cap_text, sample_text, visible
from chartkit.violations import ColumnViolation

__all__ = [
    "COLUMN_TYPE_CEILING",
    "NAME_MAX_CHARS",
    "NOTHING_CHANGED",
    "REFUSAL_MAX_CLAUSES",
    "finding_head",
    "finding_message",
    "not_checked_reason",
    "not_rows_sentence",
    "offenders_text",
    "refusal_sentence",
    "render_sample",
    "unarmed_sentence",
    "unknown_mode",
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

REFUSAL_MAX_CLAUSES: Final = 20
"""Broken columns a refusal describes one by one; the rest are counted in one clause."""


def render_sample(value: Any) -> str:
    """A sample as JSON (``""``, ``"1240"``, ``17``, ``true``); repr-like text otherwise.

    Bounded: a long string, a big list or object, or a deep nesting is cut with a visible
    ``…`` saying how much there was (at most 120 characters of a string, 8 items or keys,
    3 levels, about 400 characters in all; see ``chartkit._safe``), and control characters
    are shown as escapes — so a sentence quoting it stays short and stays text.

    >>> render_sample(""), render_sample(3), render_sample(None)
    ('""', '3', 'null')
    >>> render_sample("x" * 5_000_000)[-28:]
    'xxx… (5,000,000 characters)"'
    """
    return sample_text(value)


def _name(name: str) -> str:
    """A tool or column name as quoted in a sentence: cut when very long, repr-quoted."""
    return repr(cap_text(name, NAME_MAX_CHARS))


def _bare(name: str) -> str:
    """A tool name as written unquoted in the refusal: cut when very long, escapes shown."""
    return visible(cap_text(name, NAME_MAX_CHARS))


def _first(v: ColumnViolation) -> str:
    if v.sample_type == "absent":
        return "a row without the key (absent)"
    if v.sample_type == "null":
        return "null"
    return f"{render_sample(v.sample)} ({v.sample_type})"


def _nullable_hint(v: ColumnViolation) -> str:
    verb = "holds" if v.absent == 1 else "hold"
    return (
        f" {v.absent:,} of those rows {verb} nothing (null or a key not set); if a row may "
        f"legitimately carry nothing, declare the column nullable."
    )


def finding_message(v: ColumnViolation, *, tool: str, call_id: str | None, more: int = 0) -> str:
    """The warn-mode finding for one violation, ceiling and call id included.

    >>> from chartkit.violations import ColumnViolation
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
        rows = "the 1 row does not have" if v.total == 1 else f"none of the {v.total:,} rows has"
        head = (
            f"{_name(tool)} declares column {_name(v.column)} as {v.declared}, and {rows} that "
            "column — it was never delivered, so look at the query that selects it, not the code "
            "that maps its values."
        )
    else:
        head = (
            f"{_name(tool)} declares column {_name(v.column)} as {v.declared}, and "
            f"{v.affected:,} of {v.total:,} rows hold something else — the first is {_first(v)}."
        )
        if _wrong_date_text(v):
            head += f" A string in a date column must read {DATE_FORM}."
        if v.about_absence:
            head += _nullable_hint(v)
    if more:
        head += _more_columns(more)
    return f"{head} {COLUMN_TYPE_CEILING}{call} {NOTHING_CHANGED}"


def _wrong_date_text(v: ColumnViolation) -> bool:
    """Whether some offenders are strings of a date column: text that is no date string."""
    return (
        v.kind == "column-type-mismatch"
        and v.declared == "date"
        and "string" in (v.offending_types or (v.sample_type,))
    )


def finding_head(message: str) -> str:
    """A finding's own part: its message without the ceiling and the sentence after it.

    A surface that shows several findings shows ``COLUMN_TYPE_CEILING`` (and
    ``NOTHING_CHANGED``) once, beside each finding's own part; the message itself keeps both,
    word for word.

    >>> from chartkit.violations import ColumnViolation
    >>> v = ColumnViolation("column-type-mismatch", "lun", "number", False, "", "string", 1, 2)
    >>> print(finding_head(finding_message(v, tool="t", call_id="c-1")))
    ... # doctest: +NORMALIZE_WHITESPACE
    't' declares column 'lun' as number, and 1 of 2 rows hold something else — the first is ""
    (string). Call id c-1.
    """
    return message.replace(f" {COLUMN_TYPE_CEILING}", "", 1).replace(f" {NOTHING_CHANGED}", "")


def _more_columns(more: int) -> str:
    """What the last filed finding says when more columns broke than are filed one by one."""
    if more == 1:
        return (
            " 1 more column of this result disagrees with its declaration too and is not "
            "filed as a finding of its own."
        )
    return (
        f" {more:,} more columns of this result disagree with their declarations too and are "
        "not each filed as a finding of their own."
    )


def _clause(v: ColumnViolation) -> str:
    if v.kind == "missing-column":
        return (
            f"{_name(v.column)} is declared {v.declared} and no row has it (the query never "
            "selected it)"
        )
    held = " or ".join(
        dict.fromkeys("nothing" if t in ("null", "absent") else t for t in v.offending_types)
    )
    held = held or v.sample_type
    first = "null" if v.sample_type in ("null", "absent") else render_sample(v.sample)
    clause = (
        f"{_name(v.column)} is declared {v.declared} and {v.affected:,} of {v.total:,} rows hold "
        f"{held} (first: {first})"
    )
    if _wrong_date_text(v):
        clause += f" (a date string reads {DATE_FORM})"
    if v.about_absence:
        clause += " (declare it nullable if a row may carry nothing)"
    return clause


_SHOWN_BY_JSON: Final = frozenset({"string", "number", "boolean", "object", "array"})


def offenders_text(v: ColumnViolation) -> str:
    """The most frequent offending values of a violation with their counts, for a surface to
    show beside the finding (the finding's own sentence is the spec's, word for word).

    Each value is quoted as the sample is (``render_sample``: bounded, escapes shown), its type
    named where JSON does not show it; rows holding rarer values are counted at the end.
    Empty when there is nothing to list (a missing column).

    >>> from chartkit import check_columns
    >>> (v,) = check_columns([{"lun": x} for x in [None, "n/a", "N/A", "-", 3.0] * 10],
    ...                      {"lun": "number"})
    >>> print(offenders_text(v))
    null ×10, "-" ×10, "N/A" ×10, "n/a" ×10
    """
    parts = []
    for o in v.offenders:
        if o.value_type in ("null", "absent"):
            shown = "null" if o.value_type == "null" else "absent (no such key)"
        else:
            shown = render_sample(o.value)
            if o.value_type not in _SHOWN_BY_JSON:
                shown += f" ({visible(cap_text(o.value_type, NAME_MAX_CHARS))})"
        parts.append(f"{shown} ×{o.count:,}")
    if parts and v.unlisted:
        rows = "row holds" if v.unlisted == 1 else "rows hold"
        parts.append(f"and {v.unlisted:,} more {rows} other values")
    return ", ".join(parts)


def not_rows_sentence(tool: str, what: str) -> str:
    """The enforce-mode refusal of a declared tool's answer that is not rows: ``what`` it was.

    Nothing could be checked, so nothing is filed; but the answer is not handed on unchecked.

    >>> print(not_rows_sentence("t", "one object with the key 'rows'"))
    ... # doctest: +NORMALIZE_WHITESPACE
    Result rejected: t declares the columns of its rows but returned one object with the key
    'rows' — not rows (a list of objects, or a dataframe, with at least one row), so nothing
    could be checked. Fix the tool so it returns one object per row, or remove the
    declaration. No data was returned.
    """
    return (
        f"Result rejected: {_bare(tool)} declares the columns of its rows but returned {what} — "
        "not rows (a list of objects, or a dataframe, with at least one row), so nothing could "
        "be checked. Fix the tool so it returns one object per row, or remove the declaration. "
        "No data was returned."
    )


def refusal_sentence(tool: str, violations: Sequence[ColumnViolation]) -> str:
    """The enforce-mode refusal: the whole payload the model reads instead of the rows.

    >>> from chartkit.violations import ColumnViolation
    >>> v = ColumnViolation("column-type-mismatch", "lun", "number", False, "", "string", 2, 2)
    >>> print(refusal_sentence("t", [v]))  # doctest: +NORMALIZE_WHITESPACE
    Result rejected: t returned rows that disagree with the columns it declares — 'lun' is
    declared number and 2 of 2 rows hold string (first: ""). Fix the tool so the column holds
    what it declares, or change the declaration. No data was returned.
    """
    if not violations:
        raise ValueError("a refusal needs at least one violation")
    clauses = "; ".join(_clause(v) for v in violations[:REFUSAL_MAX_CLAUSES])
    if len(violations) > REFUSAL_MAX_CLAUSES:
        more = len(violations) - REFUSAL_MAX_CLAUSES
        clauses += (
            "; and 1 more column disagrees with its declaration"
            if more == 1
            else f"; and {more:,} more columns disagree with their declarations"
        ) + " (not each described here)"
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
        f"Result rejected: {_bare(tool)} returned rows that disagree with the columns it "
        f"declares — {clauses}. {fix} No data was returned."
    )


def unknown_mode(mode: object, modes: Sequence[str]) -> str:
    """The error of a dial set to a word that is not one of ``modes``.

    >>> unknown_mode("strict", ("off", "warn", "enforce"))
    "mode 'strict' is not one of off, warn, enforce; pick one of those words"
    """
    return f"mode {mode!r} is not one of {', '.join(modes)}; pick one of those words"


def not_checked_reason(mode: str, *, declared: bool) -> str:
    """Why a result was not checked (its disposition rows are not applicable): the dial is
    off, nothing is declared, or what came back is not rows — never "nothing was wrong".

    >>> not_checked_reason("off", declared=True)
    'the dial is off'
    >>> not_checked_reason("warn", declared=False)
    'the result declares no resultColumns'
    >>> not_checked_reason("warn", declared=True)
    'the result is not rows (a list of objects, or a dataframe, with at least one row)'
    """
    if mode == "off":
        return "the dial is off"
    if not declared:
        return "the result declares no resultColumns"
    return "the result is not rows (a list of objects, or a dataframe, with at least one row)"


def unarmed_sentence(mode: str) -> str:
    """What a result's disposition says when the check did not run: both checks are filed as
    not applicable, and why.

    >>> print(unarmed_sentence("off"))  # doctest: +NORMALIZE_WHITESPACE
    The dial is off: nothing measured, nothing filed — both checks are on the record as not
    applicable.
    """
    if mode == "off":
        return (
            "The dial is off: nothing measured, nothing filed — both checks are on the record "
            "as not applicable."
        )
    return (
        "Not measured: the check needs both the dial and a declaration, and rows it can read "
        "(a non-empty list of objects); both checks are on the record as not applicable."
    )
