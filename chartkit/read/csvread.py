"""CSV read by the declaration: each declared column's cells parsed by its declared type.

CSV is text, so the text of a cell is the value the tool returned. A cell of a declared column
that its type's rule accepts becomes that type's value; one the rule does not accept is kept
as the raw text — so the check files it as a violation whose sample is exactly what the file
holds, and nothing is converted to stand in for it. Cells of undeclared columns stay strings.

The rules are data (``ACCEPT``: one full-match regex per type, plus the two boolean spelling
sets), so an engine that cannot call Python — a SQL ``regexp_full_match`` — applies the very
same acceptance set:

- **empty cell** (zero characters, quoted or not: the csv module cannot tell them apart) —
  absence, in every declared column whatever its type, exactly as ``null`` in JSON; a column
  not declared nullable files it as a violation that names the nullable fix.
- **number** — a decimal literal: optional sign, digits with an optional fraction (or a bare
  fraction), an optional exponent (``NUMBER``). No spaces, thousands separators, ``NaN`` or
  ``inf``. Integer literals (``INTEGER``) read as ``int``, the others as ``float``; a literal
  too large for a float (``1e999``) is kept as text.
- **boolean** — ``true``, ``True``, ``TRUE`` and ``false``, ``False``, ``FALSE``
  (``BOOLEAN_TRUE``, ``BOOLEAN_FALSE``). Not ``1``/``0``, ``yes``/``no`` or ``t``/``f``.
- **date** — a date string, the very rule the check applies to a string in a date column:
  RFC 3339, ``YYYY-MM-DD`` optionally followed by ``T`` or a space and ``HH:MM[:SS[.fraction]]``,
  then optionally ``Z`` or ``±HH:MM``, every field in its range (``chartkit._isodate``).
  ``DATE`` is that grammar's one regex; a cell it matches is read as a ``datetime`` by
  ``chartkit._isodate.parse_iso`` (aware when it carries ``Z`` or an offset).
- **string** — any text.

No cell has surrounding whitespace trimmed: `` 3`` is not a number. The file is UTF-8 (a
byte-order mark is dropped), comma-separated, with a header row naming the columns.
"""

from __future__ import annotations

import csv
import io
import math
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import IO, Any, Final

from chartkit._isodate import ISO_RE, parse_iso
from chartkit._safe import cap_text
from chartkit.columns import ColumnType, ResultColumns, assert_result_columns
from chartkit.errors import ToolResultError
from chartkit.result import ToolResult

__all__ = [
    "ACCEPT",
    "BOOLEAN",
    "BOOLEAN_FALSE",
    "BOOLEAN_TRUE",
    "DATE",
    "INTEGER",
    "NUMBER",
    "STRING",
    "parse_cell",
    "read_csv",
]

NUMBER: Final = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
"""A decimal literal: ``0``, ``-3``, ``2.5``, ``.5``, ``5.``, ``1e-3``."""
INTEGER: Final = re.compile(r"[+-]?[0-9]+")
"""The number literals read as ``int`` (the rest of ``NUMBER`` reads as ``float``)."""
BOOLEAN_TRUE: Final = frozenset({"true", "True", "TRUE"})
BOOLEAN_FALSE: Final = frozenset({"false", "False", "FALSE"})
BOOLEAN: Final = re.compile(r"true|True|TRUE|false|False|FALSE")
"""Exactly the spellings of ``BOOLEAN_TRUE`` and ``BOOLEAN_FALSE``."""

DATE: Final = ISO_RE
"""A date string (RFC 3339, field ranges included): ``chartkit._isodate``'s one regex."""
STRING: Final = re.compile(r".*", re.DOTALL)

ACCEPT: Final[Mapping[ColumnType, re.Pattern[str]]] = {
    "number": NUMBER,
    "string": STRING,
    "boolean": BOOLEAN,
    "date": DATE,
}
"""Each declared type's acceptance rule, matched against the whole cell (``fullmatch``)."""


def parse_cell(text: str, declared: ColumnType) -> Any:
    """The value a cell holds as ``declared``: typed, ``None`` when empty, else the raw text.

    >>> parse_cell("3", "number"), parse_cell("2.5", "number"), parse_cell("", "number")
    (3, 2.5, None)
    >>> parse_cell("n/a", "number"), parse_cell("TRUE", "boolean"), parse_cell("1", "boolean")
    ('n/a', True, '1')
    >>> parse_cell("2024-01-05T10:30Z", "date")
    datetime.datetime(2024, 1, 5, 10, 30, tzinfo=datetime.timezone.utc)
    >>> parse_cell("2024-02-30", "date")
    '2024-02-30'
    """
    if text == "":
        return None
    if declared == "string":
        return text
    if not ACCEPT[declared].fullmatch(text):
        return text  # not of the declared type: the raw text, for the check to file
    if declared == "number":
        if INTEGER.fullmatch(text):
            return int(text)
        number = float(text)
        return number if math.isfinite(number) else text
    if declared == "boolean":
        return text in BOOLEAN_TRUE
    return parse_iso(text)


def read_csv(
    source: str | os.PathLike[str] | bytes | IO[str] | IO[bytes] | None = None,
    result_columns: object = None,
    *,
    text: str | None = None,
    tool: str | None = None,
    name: str | None = None,
    call_id: str | None = None,
) -> ToolResult:
    """Read a CSV file as one tool result: a path, its bytes, an open stream, or ``text=``.

    A ``str`` (or ``os.PathLike``) is a path, as in pandas; CSV text is ``io.StringIO(text)``
    or ``text=text`` (a path that does not open says so, with that fix when it looks like
    CSV text). ``name`` names the bytes, stream or text in messages (the path names itself).
    ``result_columns`` is the declaration the cells are read by (bare types or the object
    form); without one every cell stays a string and the result is undeclared. ``tool``
    defaults to the file's stem. A file without a header, with a repeated column name, or
    with a row longer or shorter than the header raises ``ToolResultError`` naming the line.

    >>> r = read_csv(text="lun,host\\n,vdi-a\\n3,vdi-a\\n", result_columns={"lun": "number"})
    >>> r.tool, r.rows
    ('input', [{'lun': None, 'host': 'vdi-a'}, {'lun': 3, 'host': 'vdi-a'}])
    """
    one_source = (
        "read_csv reads one source: give a path, the file's bytes or an open file as source, "
        "or the CSV text as text="
    )
    if text is not None:
        if source is not None:
            raise ToolResultError(one_source)
        if not isinstance(text, str):
            raise ToolResultError(
                f"text= is the CSV text (a str), not {type(text).__name__}; give a path or "
                "bytes as source"
            )
        name = name or "input.csv"
        content = text.removeprefix("\ufeff")
    elif source is None:
        raise ToolResultError(one_source)
    elif isinstance(source, (str, os.PathLike)):
        path = Path(source)
        name = path.name
        content = _decode(_read_path(path), name)
    elif isinstance(source, bytes):
        name = name or "input.csv"
        content = _decode(source, name)
    else:
        if not callable(getattr(source, "read", None)):
            raise ToolResultError(
                f"read_csv cannot read a value of type {type(source).__name__}; give a path "
                "(str or Path), the file's bytes, an open file, or the CSV text as text="
            )
        opened = getattr(source, "name", None)  # an open file's path; a StringIO has none
        name = name or (Path(opened).name if isinstance(opened, str) else "input.csv")
        read = source.read()
        content = read.removeprefix("\ufeff") if isinstance(read, str) else _decode(read, name)
    return _read_text(content, result_columns, tool=tool, name=name, call_id=call_id)


def _read_path(path: Path) -> bytes:
    """The file's bytes; a path that does not open says why, and how to give CSV text."""
    try:
        return path.read_bytes()
    except OSError as exc:
        given = str(path)
        looks_like_text = "\n" in given or "," in given
        fix = (
            "a str is a path (as in pandas); to read CSV text, pass io.StringIO(text) or text="
            if looks_like_text
            else "check the path"
        )
        raise ToolResultError(
            f"cannot read the CSV file {cap_text(given)!r} ({exc.strerror or exc}); {fix}"
        ) from None


def _read_text(
    text: str, result_columns: object, *, tool: str | None, name: str, call_id: str | None
) -> ToolResult:
    stem = tool or Path(name).stem or "csv"
    declared: ResultColumns | None = (
        assert_result_columns(stem, result_columns) if result_columns is not None else None
    )
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        header = next(reader, None)
        if header is None or header == []:
            raise ToolResultError(
                f"{name} is empty; a CSV result needs a header row naming its columns"
            )
        repeated = sorted({c for c in header if header.count(c) > 1})
        if repeated:
            raise ToolResultError(
                f"{name} names the column(s) {', '.join(map(repr, repeated))} more than once in "
                "its header; give each column its own name"
            )
        types = [declared[c].type if declared and c in declared else None for c in header]
        rows: list[dict[str, Any]] = []
        for cells in reader:
            if not cells:
                continue  # a blank line holds no row
            if len(cells) != len(header):
                raise ToolResultError(
                    f"{name} line {reader.line_num} has {len(cells):,} cell(s) and the header "
                    f"has {len(header):,}; every row needs one cell per column (quote a cell "
                    "that holds a comma)"
                )
            rows.append(
                {
                    column: cell if kind is None else parse_cell(cell, kind)
                    for column, kind, cell in zip(header, types, cells, strict=True)
                }
            )
    except csv.Error as exc:
        raise ToolResultError(f"{name} line {reader.line_num} is not valid CSV: {exc}") from None
    return ToolResult(tool=stem, rows=rows, result_columns=declared, call_id=call_id)


def _decode(data: bytes, name: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ToolResultError(
            f"{name} is not UTF-8 text ({exc.reason} at byte {exc.start}); save it as UTF-8 CSV"
        ) from None
