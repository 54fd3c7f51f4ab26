"""``chartkit mcp``: a ready MCP server (stdio) that charts the data an agent holds.

Two tools, both drawn inline by hosts that render MCP Apps (``ui://chartkit/view.html``), with
a text answer for those that do not:

- ``chart_rows``: rows the agent holds (a JSON array of objects), their optional
  ``resultColumns`` declaration, optional ``x`` / ``y`` / ``color`` picks and the dial
  (``mode``: off, warn or enforce).
- ``chart_file``: a file on this machine — ``.json`` (rows, a tool result or a run of them),
  ``.jsonl`` (rows or tool results, one a line), ``.csv`` or ``.parquet`` — up to
  ``MAX_FILE_BYTES``; CSV and Parquet columns arrive as pandas reads them.

Everything renders offline: nothing is sent anywhere. Bad input (a malformed declaration,
rows that are not rows, an unreadable or oversized file) is a tool error saying what was
wrong and how to fix it; the server keeps serving. A desktop host starts it with
``{"command": "chartkit", "args": ["mcp"]}``.
"""

from __future__ import annotations

import functools
import importlib.util
import json
from pathlib import Path
from typing import Annotated, Any, Literal

from chartkit.apps import VIEW_URI, add_view_resource, tool_result
from chartkit.errors import ChartkitError, MissingExtraError
from chartkit.result import RUN_KEYS, ToolResult, read_results
from chartkit.view import view

try:
    import anyio.to_thread
    import mcp.types as mcp_types
    from mcp.server.apps import Apps, client_supports_apps
    from mcp.server.mcpserver import Context, MCPServer
    from mcp.server.mcpserver.exceptions import ToolError
    from pydantic import Field
except ImportError as _exc:  # pragma: no cover - only without the mcp extra
    raise MissingExtraError(
        f"chartkit mcp needs the MCP SDK 2.3 or newer, and importing it failed ({_exc}); "
        "install it with: pip install 'chartkit[mcp]'"
    ) from None

__all__ = ["FILE_SUFFIXES", "MAX_FILE_BYTES", "SERVER_NAME", "build_server", "serve"]

SERVER_NAME = "chartkit"
MAX_FILE_BYTES = 50 * 1024 * 1024
"""The largest file ``chart_file`` reads: 50 MiB."""
FILE_SUFFIXES = (".json", ".jsonl", ".ndjson", ".csv", ".parquet")

Mode = Literal["off", "warn", "enforce"]
_ROWS_SCHEMA = {"type": "array", "items": {"type": "object"}}
_DECLARATION_SCHEMA = {"type": "object", "additionalProperties": {}}

RowsArg = Annotated[
    Any,
    Field(
        description="The rows to chart: a JSON array of objects, one object per row.",
        json_schema_extra=_ROWS_SCHEMA,
    ),
]
DeclarationArg = Annotated[
    Any,
    Field(
        description=(
            "Optional declaration of the columns: an object mapping a column name to its "
            "type (number, string, boolean or date), or to {type, nullable}. Declared columns "
            "are checked first and charted by their declared type; undeclared ones are inferred."
        ),
        json_schema_extra=_DECLARATION_SCHEMA,
    ),
]
ModeArg = Annotated[
    Mode,
    Field(
        description=(
            "The dial: off (no check), warn (check and say what breaks the declaration), "
            "enforce (refuse the whole result when any row breaks it)."
        )
    ),
]
PickArg = Annotated[str | None, Field(description="Optional: the column to put on this channel.")]

# Both tools only read what they are given and draw it locally: a host may run them unasked.
_READ_ONLY = mcp_types.ToolAnnotations(
    read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)

_INSTRUCTIONS = (
    "chartkit charts data offline from declared column types. Call chart_rows with rows you "
    "hold (and their resultColumns when you know the types), or chart_file with a path. Each "
    "answer says what was drawn and why, every finding against the declaration, and every "
    "axis chartkit refused."
)


def build_server(*, name: str = SERVER_NAME) -> MCPServer[Any]:
    """The chart server: ``chart_rows`` and ``chart_file``, with ``ui://chartkit/view.html``."""
    apps = Apps()
    add_view_resource(apps)

    @apps.tool(
        resource_uri=VIEW_URI,
        name="chart_rows",
        title="Chart rows",
        annotations=_READ_ONLY,
        description=(
            "Chart rows you hold, checked against their declared column types. Answers what "
            "was drawn and why, every finding, and every refused axis."
        ),
    )
    async def chart_rows(
        ctx: Context[Any],
        rows: RowsArg,
        resultColumns: DeclarationArg = None,  # the wire name
        x: PickArg = None,
        y: PickArg = None,
        color: PickArg = None,
        mode: ModeArg = "warn",
        tool: Annotated[str, Field(description="The tool the rows came from.")] = "rows",
    ) -> mcp_types.CallToolResult:
        checked = _rows_or_error(rows)
        result = _result(tool, checked, resultColumns)
        return await _answer(ctx, result, mode=mode, x=x, y=y, color=color)

    @apps.tool(
        resource_uri=VIEW_URI,
        name="chart_file",
        title="Chart a file",
        annotations=_READ_ONLY,
        description=(
            "Chart a data file on this machine: .json (rows, or chartkit tool results), "
            ".jsonl, .csv or .parquet, up to 50 MiB. Pass resultColumns to check the columns "
            "against their declared types."
        ),
    )
    async def chart_file(
        ctx: Context[Any],
        path: Annotated[str, Field(description="The file's path on this machine.")],
        resultColumns: DeclarationArg = None,  # the wire name
        x: PickArg = None,
        y: PickArg = None,
        color: PickArg = None,
        mode: ModeArg = "warn",
        index: Annotated[
            int | None,
            Field(description="Which result of a file holding several tool results (1 = first)."),
        ] = None,
    ) -> mcp_types.CallToolResult:
        result = await anyio.to_thread.run_sync(functools.partial(_read_file, path, index=index))
        if resultColumns is not None:
            result = _result(result.tool, result.rows, resultColumns, like=result)
        return await _answer(ctx, result, mode=mode, x=x, y=y, color=color)

    return MCPServer(name, instructions=_INSTRUCTIONS, extensions=[apps], log_level="WARNING")


def serve() -> None:
    """Run the chart server over stdio until the client closes it."""
    build_server().run("stdio")


# ------------------------------------------------------------------------------- the tools


async def _answer(
    ctx: Context[Any],
    result: ToolResult,
    *,
    mode: Mode,
    x: str | None,
    y: str | None,
    color: str | None,
) -> mcp_types.CallToolResult:
    try:
        shown = await anyio.to_thread.run_sync(
            functools.partial(view, result, mode=mode, x=x, y=y, color=color)
        )
    except ChartkitError as exc:
        raise ToolError(str(exc)) from None
    # The agent holds (or did not ask for) the rows: the text says what was drawn, not the rows.
    return tool_result(
        shown, rows=result.rows, include_rows=False, for_app=client_supports_apps(ctx)
    )


def _result(tool: str, rows: Any, declaration: Any, like: ToolResult | None = None) -> ToolResult:
    if declaration is not None and not isinstance(declaration, dict):
        raise ToolError(
            f"resultColumns must be an object mapping column names to types, got "
            f'{_kind(declaration)}; pass e.g. {{"region": "string", "p95": "number"}}, '
            "or leave it out to chart undeclared columns"
        )
    try:
        return ToolResult(
            tool=tool,
            rows=rows,
            result_columns=declaration,
            call_id=like.call_id if like else None,
            description=like.description if like else None,
        )
    except ChartkitError as exc:
        raise ToolError(str(exc)) from None


def _rows_or_error(rows: Any) -> list[dict[str, Any]]:
    if isinstance(rows, str):
        try:
            rows = json.loads(rows)  # some agents send the array as JSON text
        except json.JSONDecodeError:
            raise ToolError(
                f"rows must be a JSON array of objects, one per row; got a string that is not "
                f"JSON ({_kind(rows)}). Pass the rows themselves, e.g. "
                '[{"region": "eu", "p95": 12.5}, {"region": "us", "p95": 9.1}]'
            ) from None
    if not isinstance(rows, list):
        raise ToolError(
            f"rows must be a JSON array of objects, one per row; got {_kind(rows)}. Pass the "
            'rows themselves, e.g. [{"region": "eu", "p95": 12.5}, {"region": "us", "p95": 9.1}]'
        )
    for number, row in enumerate(rows, start=1):
        if not isinstance(row, dict):
            raise ToolError(
                f"rows must be a JSON array of objects, one per row; row {number} of "
                f"{len(rows)} is {_kind(row)}. Send each row as an object of column: value."
            )
    return rows


def _kind(value: Any) -> str:
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean"}
    name = names.get(type(value)) or ("null" if value is None else f"a {type(value).__name__}")
    if isinstance(value, str | int | float) and not isinstance(value, bool):
        shown = json.dumps(value)
        return f"{name} {shown if len(shown) <= 40 else shown[:37] + '...'}"
    return name


# --------------------------------------------------------------------------- reading files


def _read_file(path: str, *, index: int | None = None) -> ToolResult:
    """Read ``path`` as one tool result: rows, a result, or one result of a run (``index``)."""
    file = Path(path).expanduser()
    suffix = file.suffix.lower()
    if suffix not in FILE_SUFFIXES:
        raise ToolError(
            f"cannot chart {path!r}: its suffix {suffix or '(none)'!r} is not one of "
            f"{', '.join(FILE_SUFFIXES)}; save the data as JSON, JSONL, CSV or Parquet"
        )
    try:
        size = file.stat().st_size
    except OSError as exc:
        raise ToolError(
            f"cannot read {path!r}: {exc.strerror or exc}; give the path of an existing file "
            "(an absolute path, or one relative to where the server runs)"
        ) from None
    if not file.is_file():
        raise ToolError(f"cannot read {path!r}: it is not a file; give the path of a data file")
    if size > MAX_FILE_BYTES:
        raise ToolError(
            f"{path!r} is {_size(size)}, over the {_size(MAX_FILE_BYTES)} chart_file reads; "
            "chart a smaller extract (filter or aggregate it first), or pass the rows to "
            "chart_rows"
        )
    try:
        if suffix == ".csv":
            return ToolResult(tool=file.stem, rows=_pandas().read_csv(file))
        if suffix == ".parquet":
            return ToolResult(tool=file.stem, rows=_parquet(file))
        return _json_result(file, index=index)
    except ToolError:
        raise
    except ChartkitError as exc:
        raise ToolError(f"cannot chart {path!r}: {exc}") from None
    except UnicodeDecodeError as exc:
        raise ToolError(
            f"cannot read {path!r}: it is not UTF-8 text (byte {exc.object[exc.start]:#04x} at "
            f"position {exc.start}); save it as UTF-8"
        ) from None
    except (OSError, ValueError, RecursionError) as exc:
        raise ToolError(
            f"cannot read {path!r} as {suffix[1:].upper()}: {_short(exc)}; check that the file "
            "is what its suffix says"
        ) from None


def _json_result(file: Path, *, index: int | None) -> ToolResult:
    text = file.read_text(encoding="utf-8")
    if file.suffix.lower() in (".jsonl", ".ndjson") and not _is_run(text):
        rows = [json.loads(line) for line in text.splitlines() if line.strip()]
        return ToolResult(tool=file.stem, rows=rows)
    results = read_results(text, name=file.name)
    if index is None:
        if len(results) == 1:
            return results[0]
        raise ToolError(
            f"{file.name} holds {len(results)} tool results; pass index (1 to {len(results)}) "
            "to pick the one to chart"
        )
    if not 1 <= index <= len(results):
        raise ToolError(
            f"{file.name} holds {len(results)} tool result(s); index {index} is out of range, "
            f"pass 1 to {len(results)}"
        )
    return results[index - 1]


def _is_run(text: str) -> bool:
    for line in text.splitlines():
        if line.strip():
            first = json.loads(line)
            return isinstance(first, dict) and any(k in first for k in RUN_KEYS)
    return False


def _pandas() -> Any:
    import pandas as pd

    return pd


def _parquet(file: Path) -> Any:
    if importlib.util.find_spec("pyarrow") is None:
        raise ToolError(
            "reading Parquet needs pyarrow, which is not installed where the server runs; "
            "install it with: pip install pyarrow (or send the rows to chart_rows)"
        )
    return _pandas().read_parquet(file)


def _size(n: int) -> str:
    return f"{n / 2**20:.1f} MiB" if n >= 2**20 else f"{n / 2**10:.1f} KiB"


def _short(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return text if len(text) <= 200 else text[:197] + "..."
