"""What an exported chart says on itself: the rows it leaves out and the columns with findings.

A PNG, SVG, HTML page or spec file travels without ``View.notes``; a chart that leaves rows out
or reads a column the check flagged carries that on the image, as the title's subtitle:
``"2,094 of 10,000 rows left out: logical_unit_number holds string (first: "")"``. Every
column name and sample in it comes from the tool, so each is shown visible (control characters
as escapes) and cut at ``CAPTION_NAME_CHARS``; the whole is at most ``CAPTION_MAX_LINES`` lines
of ``CAPTION_LINE_CHARS``. ``captioned`` puts the lines on a copy of the spec.
"""

from __future__ import annotations

import copy
import textwrap
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from chartkit._safe import cap_text, visible
from chartkit.check.judge import ColumnViolation
from chartkit.check.outcome import Finding
from chartkit.plan.encode import Encoding, describe_offenders
from chartkit.plan.spec import Note

__all__ = [
    "CAPTION_COLOR",
    "CAPTION_LINE_CHARS",
    "CAPTION_MAX_LINES",
    "CAPTION_NAME_CHARS",
    "caption_lines",
    "caption_title",
    "captioned",
]

CAPTION_NAME_CHARS: Final = 40
"""Characters of a column name on the image before it is cut (``… (N characters)``)."""
CAPTION_LINE_CHARS: Final = 100
"""Characters of one caption line: about the width of a 560-pixel chart at the subtitle's size."""
CAPTION_MAX_LINES: Final = 4
CAPTION_COLOR: Final = "#8a4b00"
"""The subtitle's color: dark amber, readable on white (contrast 6.4:1), unlike a gray."""


def _name(column: str) -> str:
    return cap_text(visible(column), CAPTION_NAME_CHARS)


def caption_lines(
    *,
    left_out: int,
    total: int | None,
    facts: Sequence[Note],
    encodings: Mapping[str, Encoding],
    violations: Iterable[ColumnViolation],
    findings: Iterable[Finding],
    empty: Iterable[str] | None = None,
) -> tuple[str, ...]:
    """The caption of a chart: the rows it leaves out and why, the categories a top-N cut
    leaves out, then the flagged columns it reads or does not draw. Empty when the chart shows
    every row and no column has a finding.

    ``empty``, when known, names the columns read that hold a missing value: a ``no-value``
    note names them (its own column is only the first placed).

    >>> from chartkit.plan.spec import Note
    >>> caption_lines(left_out=2, total=10, facts=[Note("no-value", "…", "gb", (("rows", 2),))],
    ...               encodings={}, violations=(), findings=())
    ('2 of 10 rows left out: no value in gb',)
    """
    by_column = {v.column: v for v in violations}
    read = _columns_read(encodings)
    text: list[str] = []
    named: set[str] = set()
    if left_out:
        parts: list[str] = []
        for note in facts:
            if note.column is None or note.kind not in ("left-out", "no-value", "unplaced"):
                continue
            if note.kind == "no-value" and empty is not None:
                missing = [c for c in read if c in set(empty)] or [note.column]
                named.update(missing)
                parts.append(f"no value in {_join(missing)}")
                continue
            named.add(note.column)
            parts.append(_why(note, by_column.get(note.column)))
        if not parts:  # the rows were reduced elsewhere (an engine): name the flagged columns
            for column in read:
                if column in by_column:
                    named.add(column)
                    parts.append(_held(by_column[column]))
        counted = f"{left_out:,} of {total:,} rows" if total else f"{left_out:,} rows"
        what = f"{counted} {'is' if left_out == 1 else 'are'} left out"
        text.append(f"{what}: {'; '.join(dict.fromkeys(parts))}" if parts else what)
    for note in facts:  # bars cut to the top categories, measures past the panels a line
        values, shown = note.count("values"), note.count("shown")  # draws: not on the image
        if note.kind != "top" or not values or not shown:
            continue
        if note.column is None:
            text.append(
                f"{shown:,} of {values:,} measures are drawn; the other {values - shown:,} are "
                "left out."
            )
        else:
            text.append(
                f"{shown:,} of {values:,} values of {_name(note.column)} are shown; the other "
                f"{values - shown:,} are left out."
            )
    flagged = list(dict.fromkeys(f.column for f in findings))
    drawn = [c for c in flagged if c in read and c not in named]
    if drawn:
        text.append(f"The check flagged {_join(drawn)}, drawn here.")
    elsewhere = [c for c in flagged if c not in read]
    if elsewhere:
        text.append(f"The check also flagged {_join(elsewhere)}, not drawn.")
    return _wrapped(text)


def _columns_read(encodings: Mapping[str, Encoding]) -> list[str]:
    columns: list[str] = []
    for enc in encodings.values():
        columns.extend(enc.measures if enc.measures else (enc.column,))
    return list(dict.fromkeys(columns))


def _why(note: Note, violation: ColumnViolation | None) -> str:
    column = _name(note.column or "")
    if note.kind == "left-out":
        return _held(violation) if violation is not None else f"{column} breaks its declared type"
    if note.kind == "no-value":
        return f"no value in {column}"
    return f"{column} holds numbers no chart can place"


def _held(violation: ColumnViolation) -> str:
    offenders = describe_offenders(violation).removeprefix("hold ")
    return f"{_name(violation.column)} holds {offenders}"


def _join(columns: Sequence[str]) -> str:
    names = [_name(c) for c in columns[:3]]
    more = len(columns) - len(names)
    return ", ".join(names) + (f" and {more:,} more" if more else "")


def _wrapped(text: Sequence[str]) -> tuple[str, ...]:
    lines: list[str] = []
    for paragraph in text:
        lines.extend(textwrap.wrap(paragraph, CAPTION_LINE_CHARS, break_on_hyphens=False))
    if len(lines) > CAPTION_MAX_LINES:
        lines = lines[:CAPTION_MAX_LINES]
        lines[-1] += " …"
    return tuple(lines)


def caption_title(title: object, lines: Sequence[str]) -> Any:
    """A chart's title carrying ``lines`` as its subtitle (the title's text kept), as plain
    text: Vega-Lite draws a title's strings as they are, never as markup or an expression.
    ``title`` itself when there is nothing to say.

    >>> caption_title("gb by host", ["1 of 3 rows is left out: no value in gb"])["subtitle"]
    ['1 of 3 rows is left out: no value in gb']
    """
    if not lines:
        return title
    text = title.get("text") if isinstance(title, dict) else title
    if isinstance(text, str | list) and text:
        head = dict(title) if isinstance(title, dict) else {"text": text}
        head.update(subtitle=list(lines), subtitleColor=CAPTION_COLOR, subtitleFontSize=11)
    else:  # no title to hang a subtitle on (Vega draws none under an empty one): the lines are it
        head = {"text": list(lines), "color": CAPTION_COLOR, "fontSize": 11, "fontWeight": "normal"}
    head["anchor"] = "start"
    return head


def captioned(spec: Mapping[str, Any], lines: Sequence[str]) -> dict[str, Any]:
    """A copy of the spec whose title carries ``lines`` as its subtitle (``caption_title``);
    the spec itself when there is nothing to say, or when its title already carries them (a
    ``View``'s chart is drawn with its caption)."""
    out = copy.deepcopy(dict(spec))
    title = out.get("title")
    if not lines or (isinstance(title, dict) and title.get("subtitle") == list(lines)):
        return out
    if isinstance(title, dict) and title.get("text") == list(lines):
        return out
    out["title"] = caption_title(title, lines)
    return out
