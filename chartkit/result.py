"""``ToolResult``: a tool's rows with their declaration, and the wire form they travel in.

Wire form (JSON files, ``.jsonl`` runs, MCP): an object with keys ``tool``, ``rows``,
``resultColumns``, ``callId`` and ``description``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from chartkit.columns import ResultColumns, assert_result_columns
from chartkit.errors import ToolResultError

__all__ = ["WIRE_KEYS", "ToolResult", "read_results"]

WIRE_KEYS = ("tool", "rows", "resultColumns", "callId", "description")


@dataclass(frozen=True, eq=False)
class ToolResult:
    """A tool's result as it came back: the raw ``rows`` (anything), and what it declared.

    ``result_columns`` is normalized (and asserted, naming the tool) at construction.

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

    def __post_init__(self) -> None:
        if not isinstance(self.tool, str) or not self.tool:
            raise ToolResultError(
                f"tool must be a non-empty string naming the tool, got {self.tool!r}"
            )
        for name in ("call_id", "description"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, str):
                raise ToolResultError(f"{name} must be a string or None, got {value!r}")
        if self.result_columns is not None:
            object.__setattr__(
                self, "result_columns", assert_result_columns(self.tool, self.result_columns)
            )

    @classmethod
    def from_wire(cls, payload: object) -> ToolResult:
        """Read the wire form; a payload of the wrong shape raises ``ToolResultError``.

        A malformed declaration raises ``ResultColumnsError`` (naming tool and column).
        """
        if not isinstance(payload, Mapping):
            raise ToolResultError(
                f"a tool result must be a JSON object with keys {', '.join(WIRE_KEYS)}; "
                f"got {type(payload).__name__}"
            )
        if "tool" not in payload or "rows" not in payload:
            missing = [k for k in ("tool", "rows") if k not in payload]
            raise ToolResultError(
                f"a tool result needs the key(s) {', '.join(map(repr, missing))}; it has "
                f"{', '.join(map(repr, payload)) or 'no keys'}"
            )
        unknown = [k for k in payload if k not in WIRE_KEYS]
        if unknown:
            raise ToolResultError(
                f"unknown key(s) {', '.join(map(repr, unknown))} in a tool result; the wire "
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


def read_results(source: str | Path | bytes, *, name: str = "input") -> list[ToolResult]:
    """Parse a ``.json`` result, a JSON list of results, or ``.jsonl`` (one result a line).

    ``source`` is a path or the file's bytes/text (``name`` then names it in messages). A bare
    JSON array of rows is read as one undeclared result of a tool named after the file.
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
        payload = list(_jsonl(text, name, first_error))
        return [ToolResult.from_wire(p) for p in payload]
    if isinstance(payload, list):
        if payload and all(isinstance(p, Mapping) and "tool" in p and "rows" in p for p in payload):
            return [ToolResult.from_wire(p) for p in payload]
        stem = Path(name).stem or "rows"
        return [ToolResult(tool=stem, rows=payload)]  # a bare array of rows: undeclared
    return [ToolResult.from_wire(payload)]


def _jsonl(text: str, name: str, first_error: json.JSONDecodeError) -> Iterator[Any]:
    lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    if len(lines) < 2:
        raise ToolResultError(
            f"{name} is not valid JSON: {first_error.msg} at line {first_error.lineno} column "
            f"{first_error.colno}"
        ) from None
    for n, line in lines:
        try:
            yield json.loads(line)
        except json.JSONDecodeError as exc:
            raise ToolResultError(
                f"{name} line {n} is not valid JSON ({exc.msg} at column {exc.colno}); a .jsonl "
                "run holds one JSON tool result per line"
            ) from None
