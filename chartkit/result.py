"""``ToolResult``: a tool's rows with their declaration, and the wire form they travel in.

Wire form (JSON files, ``.jsonl`` runs, MCP): an object with keys ``tool``, ``rows``,
``resultColumns``, ``callId`` and ``description``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Any, Final

from chartkit._safe import NAME_MAX_CHARS, cap_text, sample_text, visible
from chartkit.columns import ResultColumns, assert_result_columns
from chartkit.errors import ResultColumnsError, ToolResultError

__all__ = [
    "CALL_ID_MAX_CHARS",
    "KEYS_LISTED_MAX",
    "RUN_KEYS",
    "WIRE_KEYS",
    "ToolResult",
    "read_results",
]

WIRE_KEYS = ("tool", "rows", "resultColumns", "callId", "description")

CALL_ID_MAX_CHARS: Final = NAME_MAX_CHARS
"""Characters of a call id kept at the door; a longer one is cut with ``… (N characters)``."""

KEYS_LISTED_MAX: Final = 10
"""Keys of a JSON object an error lists by name; the rest are counted."""


@dataclass(frozen=True, eq=False)
class ToolResult:
    """A tool's result as it came back: the raw ``rows`` (anything), and what it declared.

    ``result_columns`` is normalized (and asserted, naming the tool) at construction.
    ``one_row_ambiguous`` marks rows that came over a wire which cannot tell a one-row list
    from a single object (an MCP answer of one JSON text block holding an object): ``rows`` is
    then the object exactly as sent, and only an armed check reads it as one row
    (``rows_to_check``). ``declared_by`` says where the declaration came from when it was not
    written on the result itself — for an MCP tool, ``"_meta.resultColumns"`` or
    ``"outputSchema"`` (``chartkit.mcp``); it is not part of the wire form.

    ``call_id`` is data too: it is cut at ``CALL_ID_MAX_CHARS`` and its unsafe characters
    (newlines, controls, …) are written as escapes here, once, so no finding, event, log line
    or answer that quotes it can be forged or blown up by it.

    >>> r = ToolResult("host_group_mappings", [{"logical_unit_number": 0}],
    ...                result_columns={"logical_unit_number": "number"}, call_id="call-1")
    >>> r.result_columns["logical_unit_number"].type
    'number'
    """

    tool: str
    rows: Any
    result_columns: ResultColumns | None = None
    call_id: str | None = None
    description: str | None = None
    one_row_ambiguous: bool = False
    declared_by: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.tool, str) or not self.tool:
            raise ToolResultError(
                f"tool must be a non-empty string naming the tool, got {_got(self.tool)}"
            )
        for name in ("call_id", "description", "declared_by"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, str):
                raise ToolResultError(f"{name} must be a string or None, got {_got(value)}")
        if self.call_id is not None:
            object.__setattr__(self, "call_id", visible(cap_text(self.call_id, CALL_ID_MAX_CHARS)))
        if self.result_columns is not None:
            object.__setattr__(
                self, "result_columns", assert_result_columns(self.tool, self.result_columns)
            )

    def rows_to_check(self) -> Any:
        """The rows an armed check reads: ``[rows]`` for an ambiguous lone object, else ``rows``.

        >>> ToolResult("t", {"lun": ""}, one_row_ambiguous=True).rows_to_check()
        [{'lun': ''}]
        """
        if self.one_row_ambiguous and isinstance(self.rows, Mapping):
            return [self.rows]
        return self.rows

    @classmethod
    def from_wire(cls, payload: object) -> ToolResult:
        """Read the wire form; a payload of the wrong shape raises ``ToolResultError``.

        A malformed declaration raises ``ResultColumnsError`` (naming tool and column).
        """
        if not isinstance(payload, Mapping):
            raise ToolResultError(
                f"a tool result must be a JSON object with keys {', '.join(WIRE_KEYS)}; "
                f"got {cap_text(type(payload).__name__, NAME_MAX_CHARS)}"
            )
        if "tool" not in payload or "rows" not in payload:
            missing = [k for k in ("tool", "rows") if k not in payload]
            raise ToolResultError(
                f"a tool result needs the key(s) {', '.join(map(repr, missing))}; it has "
                f"{_keys(payload, len(payload)) or 'no keys'}"
            )
        unknown = [k for k in payload if k not in WIRE_KEYS]
        if unknown:
            raise ToolResultError(
                f"unknown key(s) {_keys(unknown, len(unknown))} in a tool result; the wire "
                f"form has {', '.join(WIRE_KEYS)} (note the spelling resultColumns, callId)"
            )
        return cls(
            tool=payload["tool"],
            rows=payload["rows"],
            result_columns=payload.get("resultColumns"),
            call_id=payload.get("callId"),
            description=payload.get("description"),
        )

    def to_wire(self) -> dict[str, Any]:
        """The wire form, declarations in the normalized object form."""
        out: dict[str, Any] = {"tool": self.tool, "rows": self.rows}
        if self.result_columns is not None:
            out["resultColumns"] = {k: d.to_wire() for k, d in self.result_columns.items()}
        if self.call_id is not None:
            out["callId"] = self.call_id
        if self.description is not None:
            out["description"] = self.description
        return out


def _got(value: object) -> str:
    """A wrong-typed field as an error quotes it: repr-like, and bounded whatever it holds."""
    if value is None or isinstance(value, str | bool | int | float):
        return visible(cap_text(repr(value), NAME_MAX_CHARS))
    return sample_text(value)


def _keys(keys: Iterable[Any], count: int) -> str:
    """At most ``KEYS_LISTED_MAX`` keys, each quoted and cut as a name is, then how many more."""
    shown = [repr(cap_text(str(k), NAME_MAX_CHARS)) for k in islice(keys, KEYS_LISTED_MAX)]
    more = count - len(shown)
    return ", ".join(shown) + (f" and {more:,} more" if more > 0 else "")


RUN_KEYS = ("tool", "rows", "resultColumns", "callId")
"""The wire keys that make a JSON list a run of tool results: a list with any item (an object)
carrying one of them is read as results, never as rows. ``description`` is left out — a row
with a description column is an ordinary row."""


def read_results(source: str | Path | bytes, *, name: str = "input") -> list[ToolResult]:
    """Parse a ``.json`` result, a JSON list of results, or ``.jsonl`` (one result a line).

    ``source`` is a path or the file's bytes/text (``name`` then names it in messages). A bare
    JSON array of rows is read as one undeclared result of a tool named after the file. A JSON
    list is a run of results as soon as any item is an object with a key of ``RUN_KEYS``;
    then every item must be a result, and one that is not raises (``ToolResultError``, or
    ``ResultColumnsError`` for a malformed declaration) naming its place — "result 2 of
    run.json: …", "run.jsonl line 2: …" — so a run with one malformed entry is never read as
    undeclared rows, unchecked.

    >>> read_results('[{"tool": "u", "rows": []}, {"tool": "u", "Rows": []}]', name="run.json")
    Traceback (most recent call last):
    ...
    chartkit.errors.ToolResultError: result 2 of run.json: a tool result needs the key(s) \
'rows'; it has 'tool', 'Rows'. A JSON list whose items carry the key tool, rows, resultColumns \
or callId is read as a run of tool results; if these are rows, wrap them in one result: \
{"tool": "<name>", "rows": [...]}
    """
    if isinstance(source, Path):
        name, text = source.name, source.read_text(encoding="utf-8")
    elif isinstance(source, bytes):
        try:
            text = source.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ToolResultError(
                f"{name} is not UTF-8 text ({exc.reason}); save it as UTF-8 JSON"
            ) from None
    else:
        text = source
    if not text.strip():
        raise ToolResultError(f"{name} is empty; expected a JSON tool result or .jsonl run")
    try:
        payload = json.loads(text)
    except json.JSONDecodeError as first_error:
        return [
            _from_wire(p, f"{name} line {n}", hint=False)
            for n, p in _jsonl(text, name, first_error)
        ]
    if isinstance(payload, list):
        if any(isinstance(p, Mapping) and any(k in p for k in RUN_KEYS) for p in payload):
            return [
                _from_wire(p, f"result {i} of {name}", hint=True) for i, p in enumerate(payload, 1)
            ]
        stem = Path(name).stem or "rows"
        return [ToolResult(tool=stem, rows=payload)]  # a bare array of rows: undeclared
    return [ToolResult.from_wire(payload)]


def _from_wire(payload: object, where: str, *, hint: bool) -> ToolResult:
    """``ToolResult.from_wire`` for one entry of a run; an error names the entry's place."""
    try:
        return ToolResult.from_wire(payload)
    except ResultColumnsError as exc:
        raise ResultColumnsError(f"{where}: {exc}") from None
    except ToolResultError as exc:
        why = (
            ". A JSON list whose items carry the key tool, rows, resultColumns or callId is "
            "read as a run of tool results; if these are rows, wrap them in one result: "
            '{"tool": "<name>", "rows": [...]}'
            if hint and isinstance(payload, Mapping) and "rows" not in payload
            else ""
        )
        raise ToolResultError(f"{where}: {exc}{why}") from None


def _jsonl(text: str, name: str, first_error: json.JSONDecodeError) -> Iterator[tuple[int, Any]]:
    lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    if len(lines) < 2:
        raise ToolResultError(
            f"{name} is not valid JSON: {first_error.msg} at line {first_error.lineno} column "
            f"{first_error.colno}"
        ) from None
    for n, line in lines:
        try:
            yield n, json.loads(line)
        except json.JSONDecodeError as exc:
            raise ToolResultError(
                f"{name} line {n} is not valid JSON ({exc.msg} at column {exc.colno}); a .jsonl "
                "run holds one JSON tool result per line"
            ) from None
