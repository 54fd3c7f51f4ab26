"""The rows behind a mark, for an MCP Apps page: charts kept by handle, answers capped by bytes.

A chart answered to a client that negotiated MCP Apps is kept under an unguessable handle
(``KeptViews``); the page's app-only tool (``chartkit.mcp.apps.ROWS_BEHIND_TOOL``) sends that
handle and what the user picked — a clicked mark's datum, a brushed interval, the rows left
out, a top-N's other categories — and gets back the rows behind it, evaluated by
``View.rows_behind`` where the rows are (in memory or in the engine), in chunks:

- a chunk's JSON is at most ``CHUNK_BYTES`` bytes (the cap is on bytes, whatever the count)
  and holds at most ``CHUNK_ROWS`` rows; ``next`` is the offset of the following chunk;
- at most ``CHUNK_COLUMNS`` columns, the chart's and the declared ones first; each cell capped
  as every quoted value is (``chartkit._safe.cap_sample``), every string escaped
  (``visible``), names cut at ``NAME_CHARS``;
- each row says its position in the result (``index``; null for rows read in an engine, which
  keeps no row order) and which of its cells break the declaration, and the chunk counts the
  offending cells per column among all the rows behind the selection;
- the first chunk (``offset`` 0) of rows held in memory lists, per column with a finding among
  the rows behind the selection (at most ``OFFENDER_COLUMNS``), its most frequent offending
  values with their counts (``offendingValues``: the check of just those rows, in
  ``chartkit.messages.offenders_text``'s words, cut at ``OFFENDERS_CHARS``); null when they
  were not counted (a later chunk; rows an engine holds, whose chunks count cells only);
- ``modelContext`` is what the page hands the model (``ui/update-model-context``): what was
  selected, how many rows and offenders, the offending values, and the first rows, within
  ``MODEL_CONTEXT_CHARS``.

A refused View is never kept, so under ``enforce`` no row of a refused result is reachable
through a handle; ``View.rows_behind`` refuses it too.
"""

from __future__ import annotations

import functools
import json
import secrets
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

import pandas as pd

from chartkit._safe import cap_sample, cap_text, name_list, visible
from chartkit.errors import ChartkitError

if TYPE_CHECKING:
    from chartkit.selection import RowsPage, Selection
    from chartkit.views import View

__all__ = [
    "CHUNK_BYTES",
    "CHUNK_COLUMNS",
    "CHUNK_ROWS",
    "KEPT_BYTES",
    "KEPT_ROWS",
    "KEPT_VIEWS",
    "MODEL_CONTEXT_CHARS",
    "NAME_CHARS",
    "OFFENDERS_CHARS",
    "OFFENDER_COLUMNS",
    "REQUEST_BYTES",
    "KeptViews",
    "chunk_text",
    "model_context",
    "offending_values",
    "rows_chunk",
    "selection_of",
    "weight_of",
]

KEPT_VIEWS: Final = 16
"""Charts kept for their pages at once; the one used longest ago is dropped first."""
KEPT_ROWS: Final = 2_000_000
"""Rows (in memory) the kept charts may hold together; over it, the oldest are dropped."""
KEPT_BYTES: Final = 512 * 2**20
"""Bytes (estimated, ``weight_of``) the kept charts may hold together: 512 MiB, what one file
``chart_file`` serves may decode to. Over it, the oldest are dropped; one chart over it alone is
not kept (its page offers no drill-down)."""
CHUNK_BYTES: Final = 64 * 1024
"""The most one answer of the rows-behind tool weighs, as UTF-8 JSON: 64 KiB, under what hosts
pass to a page or a model in one message (many cut a tool result at 64 KiB or 25,000
characters)."""
CHUNK_ROWS: Final = 200
"""The most rows one chunk holds, however small they are."""
CHUNK_COLUMNS: Final = 64
"""The most columns a chunk shows: the chart's and the declared ones first."""
NAME_CHARS: Final = 120
"""Characters of a column name a chunk quotes before it is cut with ``…``."""
MODEL_CONTEXT_CHARS: Final = 8000
"""The most text the page hands the model about a selection."""
OFFENDER_COLUMNS: Final = 8
"""The most columns whose offending values a chunk lists."""
OFFENDERS_CHARS: Final = 600
"""Characters of one column's offending values (up to 8 values, each capped) before the cut."""
REQUEST_BYTES: Final = 16 * 1024
"""The most a selection request (a datum, an interval) may weigh as JSON."""

_SELECTORS: Final = ("datum", "interval", "leftOut", "others")


class KeptViews:
    """The charts a server drew for MCP Apps pages, each under an unguessable handle and bound
    to the session it was drawn for.

    Capped three ways, the chart used longest ago dropped first: ``KEPT_VIEWS`` charts,
    ``KEPT_ROWS`` rows and ``KEPT_BYTES`` bytes (``weight_of``), so charting a large file over
    and over holds at most one cap's worth. A handle answers only the session it was given to
    (``session``: the caller's connection, or None where the protocol keeps no session); any
    other caller is told, word for word, what an unknown handle is told.
    """

    def __init__(
        self, *, views: int = KEPT_VIEWS, rows: int = KEPT_ROWS, bytes: int | None = None
    ) -> None:
        self._views: OrderedDict[str, _Kept] = OrderedDict()
        self._limit_views = views
        self._limit_rows = rows
        self._limit_bytes = KEPT_BYTES if bytes is None else bytes
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._views)

    def keep(self, shown: View, *, session: object = None) -> str | None:
        """The handle ``shown`` is kept under for ``session``, or None: only a chart has marks to
        select, a refused View is never kept, nor one over a cap on its own."""
        if shown.kind != "chart" or shown.marks is None:
            return None
        rows = len(shown.frame) if shown.frame is not None else 0
        size = weight_of(shown)
        if rows > self._limit_rows or size > self._limit_bytes:
            return None
        handle = secrets.token_urlsafe(18)
        owner = _Owner(session)
        with self._lock:
            self._views[handle] = _Kept(shown, rows, size, owner)
            held_rows = sum(k.rows for k in self._views.values())
            held_bytes = sum(k.size for k in self._views.values())
            while (
                len(self._views) > self._limit_views
                or held_rows > self._limit_rows
                or held_bytes > self._limit_bytes
            ):
                _, dropped = self._views.popitem(last=False)
                held_rows -= dropped.rows
                held_bytes -= dropped.size
        return handle

    def get(self, handle: object, *, session: object = None) -> View:
        """The chart kept under ``handle`` for ``session``; an unknown handle, or one kept for
        another session, is a ``ChartkitError``."""
        with self._lock:
            kept = self._views.get(handle) if isinstance(handle, str) else None
            if kept is not None and not kept.owner.is_(session):
                kept = None
            if kept is not None:
                self._views.move_to_end(handle)  # type: ignore[arg-type]
        if kept is None:
            raise ChartkitError(
                "no chart is kept under this handle: the server keeps the last "
                f"{self._limit_views} charts it drew for MCP Apps pages, and never a refused "
                "result; draw the chart again (call its tool) and select on the new one"
            )
        return kept.view


class _Owner:
    """The session a chart was kept for, held weakly where it can be (a connection that ends
    frees its charts' owner; its charts go with the caps)."""

    __slots__ = ("_ref",)

    def __init__(self, session: object) -> None:
        self._ref: Callable[[], object] | None = None
        if session is not None:
            try:
                self._ref = weakref.ref(session)
            except TypeError:  # not weakly referable: held until the chart is dropped
                self._ref = functools.partial(_itself, session)

    def is_(self, session: object) -> bool:
        """Whether ``session`` is the one this chart was kept for (None only for None)."""
        if self._ref is None:
            return session is None
        held = self._ref()
        return held is not None and held is session


def _itself(value: object) -> object:
    return value


@dataclass(frozen=True)
class _Kept:
    view: View
    rows: int
    size: int
    owner: _Owner


def weight_of(shown: View) -> int:
    """About the bytes a kept chart holds: its frame (measured, text included) and the rows the
    tool returned (a list of objects counted as ``chartkit.mcp._served`` counts decoded JSON).

    Rows an engine holds weigh nothing here: the engine keeps them, not this process.
    """
    from chartkit.mcp._served import ROW_COST, VALUE_COST

    size = 0
    if shown.frame is not None:
        size += int(shown.frame.memory_usage(index=True, deep=True).sum())
    rows = shown.result.rows
    if isinstance(rows, list):
        cells = sum(len(row) for row in rows if isinstance(row, dict))
        size += len(rows) * ROW_COST + cells * VALUE_COST
    elif isinstance(rows, pd.DataFrame) and rows is not shown.frame:
        size += int(rows.memory_usage(index=True, deep=True).sum())
    return size


def selection_of(shown: View, request: Mapping[str, Any]) -> Selection:
    """The ``Selection`` a page's request names: exactly one of ``datum`` (a clicked mark's
    record, as Vega hands it), ``interval`` (``{field: [low, high]}``), ``leftOut: true`` or
    ``others: true``."""
    from chartkit.selection import Selection

    if not isinstance(request, Mapping):
        raise ChartkitError(
            f"selection must be an object naming one of {', '.join(_SELECTORS)}; got "
            f"{_kind(request)}"
        )
    try:
        size = _weight(request)
    except (RecursionError, ValueError):
        size = REQUEST_BYTES + 1
    if size > REQUEST_BYTES:
        raise ChartkitError(
            f"selection weighs {size:,} bytes, over the {REQUEST_BYTES:,} a selection may; "
            "send the clicked mark's own fields"
        )
    named = [key for key in _SELECTORS if key in request]
    unknown = [key for key in request if key not in _SELECTORS]
    if len(named) != 1 or unknown:
        said = name_list(visible(str(k)) for k in request) if request else "nothing"
        raise ChartkitError(
            f"selection names exactly one of {', '.join(_SELECTORS)}; it has {said}. Send "
            '{"datum": {…}} for a clicked mark, {"interval": {"field": [low, high]}} for a '
            'brush, {"leftOut": true} or {"others": true}'
        )
    key = named[0]
    value = request[key]
    if key == "datum":
        return Selection.from_datum(shown, value)
    if key == "interval":
        return Selection.from_interval(shown, value)
    if value is not True:
        raise ChartkitError(f"selection {key} takes true; got {_kind(value)}")
    return Selection.left_out(shown) if key == "leftOut" else Selection.others(shown)


def rows_chunk(shown: View, selection: Selection, offset: int = 0) -> dict[str, Any]:
    """The chunk of the rows behind ``selection`` that starts at row ``offset``: at most
    ``CHUNK_ROWS`` rows and ``CHUNK_BYTES`` bytes of JSON, offending cells marked."""
    if not isinstance(offset, int) or isinstance(offset, bool) or offset < 0:
        raise ChartkitError(f"offset must be an integer of at least 0, got {_kind(offset)}")
    page, skip = divmod(offset, CHUNK_ROWS)
    found: RowsPage = shown.rows_behind(selection, page=page, page_size=CHUNK_ROWS)
    if offset and offset >= found.total:
        raise ChartkitError(
            f"offset {offset:,} is past the {found.total:,} rows behind this selection; "
            "start again at 0"
        )
    names = [str(c) for c in found.rows.columns]
    shown_columns = _columns(shown, names)
    declared = shown.result.result_columns or {}
    columns = [
        {
            "name": cap_text(visible(names[i]), NAME_CHARS),
            "declared": declared[names[i]].type if names[i] in declared else None,
            "nullable": declared[names[i]].nullable if names[i] in declared else None,
            "offending": int(found.offenders.get(names[i], 0)),
        }
        for i in shown_columns
    ]
    chunk: dict[str, Any] = {
        "tool": cap_text(visible(shown.result.tool), NAME_CHARS),
        "selection": cap_text(visible(selection.describe()), 400),
        "kind": selection.kind,
        "total": found.total,
        "offset": offset,
        "next": None,
        "columns": columns,
        "columnsLeftOut": len(names) - len(shown_columns),
        "offenders": sum(int(n) for n in found.offenders.values()),
        "offendingValues": offending_values(shown, selection) if offset == 0 else None,
        "rows": [],
    }
    budget = CHUNK_BYTES - _weight(chunk) - _ENVELOPE
    records = found.rows.to_dict(orient="records") if len(found.rows) else []
    position = {name: j for j, name in enumerate(names[i] for i in shown_columns)}
    for at in range(skip, len(records)):
        record = records[at]
        offends = sorted(position[c] for c in found.offending[at] if c in position)
        row = {
            "index": None if found.index is None else found.index[at],  # None: read in an engine
            "cells": [_cell(record.get(found.rows.columns[i])) for i in shown_columns],
            "offending": offends,
        }
        cost = _weight(row) + 1
        if chunk["rows"] and cost > budget:
            break
        chunk["rows"].append(row)
        budget -= cost
    end = offset + len(chunk["rows"])
    chunk["next"] = end if end < found.total else None
    chunk["modelContext"] = model_context(shown, chunk)
    return chunk


_ENVELOPE: Final = 2048 + MODEL_CONTEXT_CHARS * 4 + 512
"""Room kept for the answer's text block, the model context (UTF-8: up to 4 bytes a
character) and the JSON-RPC envelope around the chunk."""


def offending_values(shown: View, selection: Selection) -> list[dict[str, str]] | None:
    """The most frequent offending values, with their counts, of each column with a finding
    among the rows behind ``selection``: the check of just those rows, as the tool sent them.

    None when the rows are not in memory (an engine holds them: its chunks count offending
    cells per column, ``columns[].offending``, and list no values).
    """
    from chartkit.check.judge import check_columns
    from chartkit.messages import offenders_text

    frame, rows = shown.frame, shown.result.rows
    declared = shown.result.result_columns
    if frame is None or not declared:
        return None
    if isinstance(rows, list) and len(rows) == len(frame):
        picked = selection.mask(frame).nonzero()[0]
        subset: object = [rows[int(i)] for i in picked]
    elif isinstance(rows, pd.DataFrame) and len(rows) == len(frame):
        subset = rows.iloc[selection.mask(frame).nonzero()[0]]
    else:
        return None
    out = []
    for v in check_columns(subset, declared):
        listed = offenders_text(v)
        if not listed:
            continue
        out.append({
            "column": cap_text(visible(v.column), NAME_CHARS),
            "values": cap_text(listed, OFFENDERS_CHARS),
        })  # fmt: skip
        if len(out) == OFFENDER_COLUMNS:
            break
    return out


def chunk_text(chunk: Mapping[str, Any]) -> str:
    """The one-line text of a chunk (the tool result's ``content``)."""
    rows = chunk["rows"]
    first, last = chunk["offset"] + 1, chunk["offset"] + len(rows)
    shown = (
        "no rows" if not rows else f"row {first:,}" if first == last else f"rows {first:,}–{last:,}"
    )
    subject = _subject(chunk)
    if chunk["kind"] != "left-out":
        subject = f"the rows behind {subject}"
    return f"{subject[0].upper()}{subject[1:]}: {shown} of {chunk['total']:,}{_offenders(chunk)}."


def model_context(shown: View, chunk: Mapping[str, Any]) -> str:
    """What the model is told the user selected: the selection, the counts, the first rows."""
    reason = cap_text(visible(shown.reason), 400).rstrip(".")
    head = (
        f"The user selected {_subject(chunk)} ({reason}). {chunk['total']:,} "
        f"row{'' if chunk['total'] == 1 else 's'} behind it{_offenders(chunk)}."
    )
    listed = chunk.get("offendingValues") or []
    if listed:
        head += (
            " Offending values among them: "
            + "; ".join(f"{o['column']}: {o['values']}" for o in listed)
            + "."
        )
    rows = chunk["rows"]
    if not rows:
        return head
    names = [c["name"] for c in chunk["columns"]]
    lines = [head, "The first rows, as the tool returned them (JSON, one a line):"]
    used = sum(len(line) + 1 for line in lines)
    told = 0
    for row in rows:
        line = json.dumps(dict(zip(names, row["cells"], strict=True)), ensure_ascii=False)
        if used + len(line) + 1 > MODEL_CONTEXT_CHARS - 120:
            break
        lines.append(line)
        used += len(line) + 1
        told += 1
    if not told:
        return head
    if told < chunk["total"]:
        more = chunk["total"] - told
        lines.append(
            f"… and {more:,} more row{'' if more == 1 else 's'} the user can page through."
        )
    return "\n".join(lines)


def _subject(chunk: Mapping[str, Any]) -> str:
    if chunk["kind"] == "left-out":
        return f"the rows left out of the chart of {chunk['tool']}"
    return f"{chunk['selection']} in the chart of {chunk['tool']}"


def _offenders(chunk: Mapping[str, Any]) -> str:
    bad = [(c["name"], c["offending"]) for c in chunk["columns"] if c["offending"]]
    if not bad:
        return ""
    said = ", ".join(f"{name} {n:,}" for name, n in bad[:8])
    return f"; cells that break the declaration: {said}"


def _columns(shown: View, names: list[str]) -> list[int]:
    """Which columns a chunk shows (positions, in the result's order): the chart's and the
    declared ones first, then the rest, ``CHUNK_COLUMNS`` at most."""
    declared = shown.result.result_columns or {}
    first = [e.column for e in shown.encodings.values() if e.column is not None]
    first += list(declared)
    where = {name: i for i, name in enumerate(names)}
    chosen = dict.fromkeys(where[n] for n in first if n in where)
    for i in range(len(names)):
        if len(chosen) >= CHUNK_COLUMNS:
            break
        chosen.setdefault(i)
    return sorted(list(chosen)[:CHUNK_COLUMNS])


def _cell(value: Any) -> Any:
    """A cell as the page shows it: a capped JSON value, its strings escaped; a missing value
    (None, NaN, NaT, NA — a frame's hole) is null."""
    try:
        if value is None or bool(pd.isna(value)):
            return None
    except (TypeError, ValueError):  # a list or an odd object: not a missing scalar
        pass
    return _escaped(cap_sample(value))


def _escaped(value: Any) -> Any:
    if isinstance(value, str):
        return visible(value)
    if isinstance(value, list):
        return [_escaped(v) for v in value]
    if isinstance(value, dict):
        return {visible(str(k)): _escaped(v) for k, v in value.items()}
    return value


def _weight(value: Any) -> int:
    return len(json.dumps(value, ensure_ascii=False, default=str).encode("utf-8"))


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    text = cap_text(visible(json.dumps(value, default=str)), 60)
    return f"{type(value).__name__} {text}"
