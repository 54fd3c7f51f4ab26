"""A View that is a table, exported: its rows as an SVG, a PNG or an HTML page, with its reason.

A result too small for a chart (one mark), or with nothing to measure, is still worth a
picture: the reason chartkit gives, then the first ``TABLE_MAX_ROWS`` rows and
``TABLE_MAX_COLUMNS`` columns under their declared types, each value not of its column's
declared type marked. Every string in it is the tool's: cells and names are shown visible
(control characters as escapes), cut at ``CELL_MAX_CHARS``, and escaped for the markup they
land in — nothing a tool returns becomes a tag.
"""

from __future__ import annotations

import html
import math
import textwrap
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

import pandas as pd

from chartkit._safe import cap_text, visible
from chartkit.check.judge import offending_mask
from chartkit.columns import ColumnDeclaration
from chartkit.messages import render_sample

__all__ = [
    "CELL_MAX_CHARS",
    "TABLE_MAX_COLUMNS",
    "TABLE_MAX_ROWS",
    "Table",
    "table_html",
    "table_of",
    "table_png",
    "table_svg",
]

TABLE_MAX_ROWS: Final = 30
TABLE_MAX_COLUMNS: Final = 12
CELL_MAX_CHARS: Final = 40
_REASON_CHARS = 96  # characters of a reason line
_CHAR = 7  # pixels a character takes at 12px, roughly
_ROW = 22
_PAD = 12
_OFFENDER = "#b91c1c"  # a value not of its declared type: dark red (contrast 6.5:1 on white)
_MUTED = "#6b7280"


@dataclass(frozen=True)
class Table:
    """What a table export shows: the reason, the header, the cells, which cells offend, and a
    last line counting what is shown."""

    reason: str
    header: tuple[tuple[str, str], ...]  # (column name, "declared number" / "not declared")
    cells: tuple[tuple[str, ...], ...]
    offending: frozenset[tuple[int, int]]  # (row, column) of a value not of its declared type
    missing: frozenset[tuple[int, int]]  # (row, column) of a cell holding nothing
    footer: str


def table_of(
    reason: str, frame: pd.DataFrame | None, declaration: Mapping[str, ColumnDeclaration] | None
) -> Table:
    """The table a View shows: its frame's first rows and columns, declared columns first."""
    if frame is None or frame.empty:
        return Table(_shown(reason, 2000), (), (), frozenset(), frozenset(), "No rows to show.")
    declared = dict(declaration or {})
    names = [c for c in declared if c in frame.columns]
    names += [c for c in frame.columns if c not in declared]
    shown_names = names[:TABLE_MAX_COLUMNS]
    head = frame.head(TABLE_MAX_ROWS)
    header = tuple(
        (_shown(str(c)), f"declared {declared[c].type}" if c in declared else "not declared")
        for c in shown_names
    )
    cells: list[list[str]] = [[] for _ in range(len(head))]
    offending: set[tuple[int, int]] = set()
    missing: set[tuple[int, int]] = set()
    for j, name in enumerate(shown_names):
        series = head[name]
        bad = offending_mask(series, declared[name]) if name in declared else None
        for i, value in enumerate(series.tolist()):
            text, empty = _cell(value)
            cells[i].append(text)
            if bad is not None and bool(bad[i]):
                offending.add((i, j))
            elif empty:
                missing.add((i, j))
    rows, columns = len(frame), len(names)
    footer = f"{rows:,} {'row' if rows == 1 else 'rows'}, {columns:,} " + (
        "column" if columns == 1 else "columns"
    )
    cut = [f"{len(head):,} rows"] if rows > len(head) else []
    cut += [f"{len(shown_names):,} columns"] if columns > len(shown_names) else []
    if cut:
        footer += f"; the first {' and '.join(cut)} shown"
    if offending:
        n = len(offending)
        footer += f". In red: {n:,} {'value' if n == 1 else 'values'} not of the declared type"
    return Table(
        _shown(reason, 2000), header, tuple(tuple(r) for r in cells), frozenset(offending),
        frozenset(missing), footer + ".",
    )  # fmt: skip


def _shown(text: str, limit: int = CELL_MAX_CHARS) -> str:
    return cap_text(visible(text), limit)


def _cell(value: Any) -> tuple[str, bool]:
    """A value as the table prints it (JSON-like, bounded), and whether it holds nothing."""
    if hasattr(value, "item") and not isinstance(value, str | bytes):
        try:
            value = value.item()  # a numpy scalar
        except (TypeError, ValueError):
            pass
    if value is None or value is pd.NA or value is pd.NaT:
        return "null", True
    if isinstance(value, float) and math.isnan(value):
        return "NaN", True
    if isinstance(value, str):
        return (_shown(value) if value else '""'), False
    if isinstance(value, pd.Timestamp):
        return _shown(value.isoformat()), False
    return _shown(render_sample(value)), False


def _lines(text: str) -> list[str]:
    return textwrap.wrap(text, _REASON_CHARS, break_on_hyphens=False) or [""]


def _widths(table: Table) -> list[int]:
    widths = []
    for j, (name, kind) in enumerate(table.header):
        longest = max([len(name), len(kind), *(len(r[j]) for r in table.cells)])
        widths.append(longest * _CHAR + 2 * _PAD)
    return widths


def table_svg(table: Table) -> str:
    """The table as an SVG image: the reason above, the footer below, text escaped."""
    esc = html.escape
    reason = _lines(table.reason)
    widths = _widths(table)
    width = max(sum(widths), min(len(max(reason, key=len)), _REASON_CHARS) * _CHAR) + 2 * _PAD
    top = _PAD + len(reason) * 18 + 8
    rows = len(table.cells) + (2 if table.header else 0)
    height = top + rows * _ROW + 34
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-label="{esc(table.reason)}">',
        f"<title>{esc(table.reason)}</title>",
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
        '<g font-family="sans-serif" font-size="12px" fill="#111827">',
    ]
    for i, line in enumerate(reason):
        out.append(f'<text x="{_PAD}" y="{_PAD + 13 + i * 18}">{esc(line)}</text>')
    y = top
    if table.header:
        out.append(
            f'<rect x="{_PAD}" y="{y}" width="{sum(widths)}" height="{2 * _ROW}" fill="#f3f4f6"/>'
        )
        x = _PAD
        for (name, kind), w in zip(table.header, widths, strict=True):
            out.append(f'<text x="{x + _PAD}" y="{y + 15}" font-weight="bold">{esc(name)}</text>')
            out.append(
                f'<text x="{x + _PAD}" y="{y + _ROW + 15}" fill="{_MUTED}">{esc(kind)}</text>'
            )
            x += w
        y += 2 * _ROW
    for i, row in enumerate(table.cells):
        x = _PAD
        for j, (text, w) in enumerate(zip(row, widths, strict=True)):
            fill = (
                f' fill="{_OFFENDER}" font-weight="bold"' if (i, j) in table.offending
                else f' fill="{_MUTED}"' if (i, j) in table.missing else ""
            )  # fmt: skip
            out.append(f'<text x="{x + _PAD}" y="{y + 15}"{fill}>{esc(text)}</text>')
            x += w
        out.append(
            f'<line x1="{_PAD}" x2="{_PAD + sum(widths)}" y1="{y + _ROW}" y2="{y + _ROW}" '
            'stroke="#e5e7eb"/>'
        )
        y += _ROW
    out.append(f'<text x="{_PAD}" y="{y + 22}" fill="{_MUTED}">{esc(table.footer)}</text>')
    out.append("</g></svg>")
    return "\n".join(out)


def table_png(table: Table, *, scale: float = 2.0) -> bytes:
    """The table's SVG rendered to PNG, offline (vl-convert's SVG renderer)."""
    import vl_convert

    png: bytes = vl_convert.svg_to_png(table_svg(table), scale=scale)
    return png


def table_html(table: Table, title: str) -> str:
    """The table as a self-contained HTML page (no script, nothing fetched), text escaped."""
    esc = html.escape
    head = "".join(
        f"<th scope='col'>{esc(name)}<br><span class='kind'>{esc(kind)}</span></th>"
        for name, kind in table.header
    )
    body = []
    for i, row in enumerate(table.cells):
        cells = []
        for j, text in enumerate(row):
            css = (
                " class='offends'" if (i, j) in table.offending
                else " class='missing'" if (i, j) in table.missing else ""
            )  # fmt: skip
            cells.append(f"<td{css}>{esc(text)}</td>")
        body.append(f"<tr>{''.join(cells)}</tr>")
    rows = "\n".join(body)
    table_markup = (
        f"<table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n{rows}\n</tbody>\n</table>"
        if table.header
        else ""
    )
    return (
        "<!DOCTYPE html>\n<html lang='en'>\n<head>\n<meta charset='utf-8'>\n"
        f"<title>{esc(title)}</title>\n<style>\n"
        "body{font-family:sans-serif;font-size:14px;color:#111827;margin:1.5em}\n"
        "table{border-collapse:collapse}th,td{padding:.3em .8em;text-align:left;"
        "border-bottom:1px solid #e5e7eb}th{background:#f3f4f6}\n"
        f".kind,.missing,.footer{{color:{_MUTED};font-weight:normal}}"
        f".offends{{color:{_OFFENDER};font-weight:bold}}\n"
        "</style>\n</head>\n<body>\n"
        f"<p class='reason'>{esc(table.reason)}</p>\n{table_markup}\n"
        f"<p class='footer'>{esc(table.footer)}</p>\n</body>\n</html>\n"
    )
