"""``chartkit mcp``: a ready MCP server (stdio) that charts the data an agent holds.

Two tools for the model, both drawn inline by hosts that render MCP Apps
(``ui://chartkit/view.html``), with a text answer for those that do not:

- ``chart_rows``: rows the agent holds (a JSON array of objects), their optional
  ``resultColumns`` declaration, optional ``x`` / ``y`` / ``color`` picks and the dial
  (``mode``: off, warn or enforce).
- ``chart_file``: a file under the roots the user granted — ``.json`` (rows, a tool result or
  a run of them), ``.jsonl`` (rows or tool results, one a line), ``.csv`` (read by the
  declaration exactly as ``chartkit.read_csv`` reads it: undeclared cells stay text) or
  ``.parquet``. The roots are the ``--root`` directories; without one, the roots the client
  offers; without those, the working directory (never ``/``). ``chartkit.mcp._served`` holds the
  rules and the caps: ``MAX_FILE_BYTES`` read, ``MAX_DECODED_BYTES`` decoded, ``MAX_ROWS`` rows.
  A Parquet file without ``resultColumns`` is declared by its own schema, and a large table
  (``chartkit.read.table_files.large_table``: a Parquet of more than ``ENGINE_ROWS`` rows) is
  checked and charted where it lies in DuckDB when it is installed, its memory capped at
  ``MAX_DECODED_BYTES``; the answer says both, as ``chartkit check`` does.

A third, ``chartkit_rows_behind``, is the page's alone (app-only: hosts keep it out of the
model's tools): the rows behind a mark the user clicked, in chunks (``chartkit.mcp.apps``). It is
listed and answered only to clients that negotiated MCP Apps, each chart only to the session it
was drawn for. An ``enforce`` refusal is a tool error (``isError``); ``serverInfo.version`` is
chartkit's; a line of stdin that is not a readable JSON-RPC message is answered with a JSON-RPC
error (``-32700``/``-32600``) rather than dropped.

At most ``MAX_CONCURRENT_CALLS`` calls read or chart at once; the others wait their turn.
Everything renders offline: nothing is sent anywhere. Bad input (an unknown argument, a bad
``mode``, a malformed declaration, rows that are not rows, a file outside the roots, an
unreadable or oversized file) is a tool error saying what was wrong and how to fix it, and
every answer is made serializable (a lone surrogate is written as its escape, ``\\ud800``), so
the server keeps serving. A desktop host starts it with ``{"command": "chartkit", "args":
["mcp"]}``.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib.util
import inspect
import json
import logging
import os
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Annotated, Any, Final, Literal

from chartkit._safe import cap_text, name_list, visible
from chartkit._version import __version__
from chartkit.errors import ChartkitError, MissingExtraError
from chartkit.mcp._served import (
    FILE_SUFFIXES,
    MAX_DECODED_BYTES,
    MAX_FILE_BYTES,
    MAX_ROWS,
    NotServed,
    Roots,
    check_parquet,
    check_rows,
    csv_cost,
    json_cost,
    locate,
    read_bounded,
    refuse_over,
    shown_path,
)
from chartkit.mcp.apps import (
    ROWS_BEHIND_TOOL,
    VIEW_URI,
    KeptViews,
    add_rows_behind_tool,
    app_tools_for_apps_clients,
    session_of,
    tool_result,
)
from chartkit.read.schemas import ARGUMENT_OVER_FILE_SCHEMA, FILE_SCHEMA, declared_by_text
from chartkit.read.table_files import (
    large_table,
    open_declared,
    over_own_declaration,
    with_own_declaration,
)
from chartkit.result import RUN_KEYS, ToolResult, read_results
from chartkit.views import View, view
from chartkit.words import needs_extra

try:
    import anyio
    import anyio.to_thread
    import mcp.types as mcp_types
    from mcp.server.apps import Apps, client_supports_apps
    from mcp.server.mcpserver import Context, ListRoots, MCPServer, Resolve
    from mcp.server.mcpserver.exceptions import ToolError
    from mcp.server.stdio import stdio_server
    from mcp.shared.message import SessionMessage
    from pydantic import Field, ValidationError
    from pydantic_core import PydanticSerializationError
except ImportError as _exc:  # pragma: no cover - only without the mcp extra
    raise MissingExtraError(
        needs_extra("chartkit mcp", "the MCP SDK 2.3 or newer", "mcp", failed=_exc)
    ) from None

__all__ = [
    "DEFAULT_TOOL",
    "FILE_SUFFIXES",
    "MAX_CONCURRENT_CALLS",
    "MAX_DECODED_BYTES",
    "MAX_FILE_BYTES",
    "MAX_ROWS",
    "SERVER_NAME",
    "build_server",
    "serve",
]

SERVER_NAME: Final = "chartkit"
MAX_CONCURRENT_CALLS: Final = 2
"""Calls that read or chart at once; the others wait (the work is CPU- and memory-bound)."""
DEFAULT_TOOL: Final = "unnamed_tool"
"""The tool ``chart_rows`` names when the agent does not say: "Result rejected: unnamed_tool
returned rows that disagree …" reads as the spec's sentences do, with a tool as their subject."""

Mode = Literal["off", "warn", "enforce"]
_MODES: Final = ("off", "warn", "enforce")
_ROWS_SCHEMA = {"type": "array", "items": {"type": "object"}}
_DECLARATION_SCHEMA = {"type": "object", "additionalProperties": {}}

logger = logging.getLogger("chartkit.mcp.server")

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

# chart_rows reads only the rows it is given and draws them locally.
_ROWS_ONLY = mcp_types.ToolAnnotations(
    read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)
# chart_file changes nothing, but it reads files from this machine's disk: beyond what the
# call carries, so a host should ask before running it.
_READS_FILES = mcp_types.ToolAnnotations(
    read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=True
)

_INSTRUCTIONS = (
    "chartkit charts data offline from declared column types. Call chart_rows with rows you "
    "hold (and their resultColumns when you know the types), or chart_file with the path of a "
    "file under the roots the user granted. Each answer says what was drawn and why, every "
    "finding against the declaration, and every axis chartkit refused."
)


def _client_roots(ctx: Context[Any]) -> Any:
    """Ask for the client's roots when it offers them (the SDK sends ``roots/list``)."""
    capabilities = ctx.client_capabilities
    return ListRoots() if capabilities is not None and capabilities.roots is not None else None


OfferedRoots = Annotated[mcp_types.ListRootsResult | None, Resolve(_client_roots)]


def build_server(
    *, name: str = SERVER_NAME, roots: Iterable[str | os.PathLike[str]] | None = None
) -> MCPServer[Any]:
    """The chart server: ``chart_rows`` and ``chart_file``, with ``ui://chartkit/view.html``.

    ``roots`` are the directories ``chart_file`` serves (``--root``); without them it serves
    the roots the client offers, or else the working directory. A root that is not a directory
    raises ``ChartkitError``.
    """
    granted = Roots.granted(roots) if roots is not None else None
    gate = anyio.Semaphore(MAX_CONCURRENT_CALLS)
    apps = Apps()
    kept = add_rows_behind_tool(apps)

    @apps.tool(
        resource_uri=VIEW_URI,
        name="chart_rows",
        title="Chart rows",
        annotations=_ROWS_ONLY,
        description=(
            "Chart rows you hold, checked against their declared column types. Answers what "
            f"was drawn and why, every finding, and every refused axis. At most {MAX_ROWS:,} "
            "rows."
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
        tool: Annotated[
            str,
            Field(
                description="The name of the tool the rows came from (e.g. "
                f"host_group_mappings); every sentence names it. Default: {DEFAULT_TOOL}."
            ),
        ] = DEFAULT_TOOL,
    ) -> mcp_types.CallToolResult:
        checked = _rows_or_error(rows)
        result = _result(tool, checked, resultColumns)
        async with gate:
            shown = await anyio.to_thread.run_sync(
                functools.partial(_view, result, mode=mode, x=x, y=y, color=color)
            )
        return _answer(ctx, "chart_rows", shown, result.rows, kept)

    @apps.tool(
        resource_uri=VIEW_URI,
        name="chart_file",
        title="Chart a file",
        annotations=_READS_FILES,
        description=(
            "Chart a data file: .json (rows, or chartkit tool results), .jsonl, .csv or "
            f".parquet, up to {MAX_FILE_BYTES // 2**20} MiB on disk, {MAX_DECODED_BYTES // 2**20}"
            f" MiB decoded and {MAX_ROWS:,} rows (a larger Parquet is charted in DuckDB when it "
            "is installed). Pass resultColumns to check the columns against their declared "
            "types (a CSV's cells are read by it); a Parquet file without them is checked by "
            "its own schema. Serves only "
            f"{_served_words(granted)}; never a dot-file, never through a link out of a root."
        ),
    )
    async def chart_file(
        ctx: Context[Any],
        path: Annotated[
            str,
            Field(description="The file's path: absolute, or relative to the first root."),
        ],
        resultColumns: DeclarationArg = None,  # the wire name
        x: PickArg = None,
        y: PickArg = None,
        color: PickArg = None,
        mode: ModeArg = "warn",
        index: Annotated[
            int | None,
            Field(description="Which result of a file holding several tool results (1 = first)."),
        ] = None,
        offered: OfferedRoots = None,
    ) -> mcp_types.CallToolResult:
        served = granted or _roots_of(offered)
        if resultColumns is not None and not isinstance(resultColumns, dict):
            _result("file", [], resultColumns)  # the same error as chart_rows gives
        async with gate:
            result, shown, said = await anyio.to_thread.run_sync(
                functools.partial(
                    _chart_file,
                    path,
                    served,
                    resultColumns,
                    index=index,
                    mode=mode,
                    x=x,
                    y=y,
                    color=color,
                )
            )
        return _answer(ctx, "chart_file", shown, result.rows, kept, said=said)

    accepted = {
        "chart_rows": _arguments(chart_rows),
        "chart_file": _arguments(chart_file),
        ROWS_BEHIND_TOOL: ("chart", "selection", "offset"),
    }
    server = _ChartServer(
        name,
        accepted=accepted,
        version=__version__,
        instructions=_INSTRUCTIONS,
        extensions=[apps],
        log_level="WARNING",
    )
    server.middleware.append(app_tools_for_apps_clients)
    return server


def serve(*, roots: Iterable[str | os.PathLike[str]] | None = None) -> None:
    """Run the chart server over stdio until the client closes it.

    The process's own log (stderr, which hosts keep) gets a count of the findings and the
    columns they name, never the quoted values: ``chartkit.integrity``'s finding records,
    which quote the offending sample, are not written there.
    """
    server = build_server(roots=roots)
    logging.getLogger("chartkit.integrity").addFilter(_no_samples)
    server.run("stdio")


def _no_samples(record: logging.LogRecord) -> bool:
    """Keep a finding's record (it quotes a value from the data) out of the server's log."""
    return not hasattr(record, "chartkit_finding")


# ---------------------------------------------------------------------------- the server


class _ChartServer(MCPServer[Any]):
    """An ``MCPServer`` that refuses unknown arguments, words argument errors plainly and
    makes every answer serializable."""

    def __init__(self, name: str, *, accepted: Mapping[str, tuple[str, ...]], **kw: Any) -> None:
        super().__init__(name, **kw)
        self._accepted = dict(accepted)

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> Any:
        accepted = self._accepted.get(name)
        if accepted is not None:
            unknown = [key for key in arguments if key not in accepted]
            if unknown:
                raise ToolError(
                    _tool_error(
                        name,
                        f"unknown argument(s) {name_list(map(visible, unknown))}; {name} accepts "
                        f"{', '.join(accepted)}. Check the spelling (resultColumns is one word, "
                        "camelCase) and leave out the others.",
                    )
                )
        try:
            answer = await super().call_tool(name, arguments, context)
        except ToolError as exc:
            cause = exc.__cause__
            if isinstance(cause, ValidationError):
                raise ToolError(_tool_error(name, _invalid(cause))) from cause
            text = _writable(str(exc))
            if text == str(exc):
                raise
            raise type(exc)(text) from cause
        if isinstance(answer, mcp_types.CallToolResult):
            return _serializable(answer)
        return answer

    async def run_stdio_async(self) -> None:
        """Serve over stdio as the SDK does, answering each line it cannot read (``_Answering``)."""
        async with stdio_server() as (read_stream, write_stream):
            # MCPServer.run_stdio_async's own body, with the read stream guarded.
            lowlevel = self._lowlevel_server
            await lowlevel.run(
                _Answering(read_stream, write_stream),  # type: ignore[arg-type]
                write_stream,
                lowlevel.create_initialization_options(),
            )


class _Answering:
    """The stdio read stream, answering each line the SDK could not read as a JSON-RPC message.

    The SDK's stdio reader hands such a line on as an exception, which its dispatcher drops: the
    client waits for ever. A line that JSON-RPC can still place (its ``id``) is answered with an
    error saying why it was not read: a lone surrogate (``\\ud800``, which is not Unicode
    text), malformed JSON, or not a JSON-RPC message. A notification is never answered.
    """

    def __init__(self, inner: Any, write: Any) -> None:
        self._inner = inner
        self._write = write

    @property
    def last_context(self) -> Any:
        return getattr(self._inner, "last_context", None)

    async def receive(self) -> Any:
        while True:
            item = await self._inner.receive()
            if not isinstance(item, Exception):
                return item
            reply = _unreadable_reply(item)
            if reply is not None:
                await self._write.send(SessionMessage(reply))

    def __aiter__(self) -> _Answering:
        return self

    async def __anext__(self) -> Any:
        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None

    def close(self) -> None:
        self._inner.close()

    async def aclose(self) -> None:
        await self._inner.aclose()


def _unreadable_reply(exc: Exception) -> mcp_types.JSONRPCError | None:
    """The JSON-RPC error answering a line the SDK could not read, or None (a notification)."""
    line = None
    if isinstance(exc, ValidationError):
        errors = exc.errors(include_url=False)
        # a member missing from the message holds the message itself; a wrong member, its value
        whole = [e["input"] for e in errors if e["type"] == "missing" and len(e["loc"]) == 2]
        line = whole[0] if whole else errors[0].get("input") if errors else None
    try:  # a line that is not JSON to the SDK is quoted whole; JSON it parsed, as parsed
        message = json.loads(line) if isinstance(line, str | bytes) else line
    except (ValueError, RecursionError):
        message = None
    if message is None:
        return _rpc_error(
            None,
            mcp_types.PARSE_ERROR,
            "Parse error: the message is not JSON; send one JSON-RPC message a line",
        )
    request_id = message.get("id") if isinstance(message, dict) else None
    if not isinstance(request_id, str | int) or isinstance(request_id, bool):
        if isinstance(message, dict) and "method" in message and "id" not in message:
            return None  # a notification: JSON-RPC never answers one
        request_id = None
    if isinstance(request_id, str) and _SURROGATE.search(request_id):
        request_id = None  # no UTF-8 can carry it back (the writer would die): JSON-RPC's null
    if _SURROGATE.search(json.dumps(message, ensure_ascii=False)):
        return _rpc_error(
            request_id,
            mcp_types.PARSE_ERROR,
            "Parse error: the message holds a lone UTF-16 surrogate (such as \\ud800), which "
            "is not Unicode text, so it was not read; send each character as UTF-8 or as a "
            "surrogate pair",
        )
    return _rpc_error(
        request_id,
        mcp_types.INVALID_REQUEST,
        "Invalid Request: the message is JSON but not a JSON-RPC 2.0 request, notification or "
        'response; send jsonrpc "2.0", a method and an id',
    )


def _rpc_error(request_id: str | int | None, code: int, message: str) -> mcp_types.JSONRPCError:
    return mcp_types.JSONRPCError(
        jsonrpc="2.0", id=request_id, error=mcp_types.ErrorData(code=code, message=message)
    )


def _arguments(tool: Any) -> tuple[str, ...]:
    """The argument names a tool function takes from the caller (not the context or roots)."""
    return tuple(p for p in inspect.signature(tool).parameters if p not in ("ctx", "offered"))


def _invalid(error: ValidationError) -> str:
    """Pydantic's validation errors as sentences naming the argument, what it takes, and the
    value sent (no URL, no model name)."""
    clauses: list[str] = []
    for item in error.errors(include_url=False)[:8]:
        where = ".".join(str(part) for part in item["loc"]) or "the arguments"
        got = _kind(item.get("input"))
        if item["type"] == "missing":
            clauses.append(f"argument {where!r} is required")
        elif item["loc"] and item["loc"][0] == "mode":
            clauses.append(f"mode must be one of {'|'.join(_MODES)}, got {got}")
        else:
            clauses.append(f"argument {where!r}: {item['msg']}, got {got}")
    return "; ".join(clauses) + "."


_SURROGATE: Final = re.compile("[\ud800-\udfff]")


def _writable(text: str) -> str:
    """``text`` with each lone surrogate written as its escape (``\\ud800``): JSON-RPC is UTF-8."""
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _serializable(answer: mcp_types.CallToolResult) -> mcp_types.CallToolResult:
    """``answer``, or a copy whose every string (keys too) is text the SDK's writer can send."""
    try:
        answer.model_dump_json(by_alias=True, exclude_unset=True)
        return answer
    except PydanticSerializationError:
        pass
    try:
        fixed = _deep_writable(answer.model_dump(by_alias=True, exclude_unset=True))
        return mcp_types.CallToolResult.model_validate(fixed)
    except (RecursionError, ValueError):
        return mcp_types.CallToolResult(
            content=[
                mcp_types.TextContent(
                    type="text",
                    text="chartkit could not write this answer as JSON text; please report it.",
                )
            ],
            is_error=True,
        )


def _deep_writable(value: Any) -> Any:
    if isinstance(value, str):
        return _writable(value)
    if isinstance(value, dict):
        return {_deep_writable(k): _deep_writable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_deep_writable(v) for v in value]
    return value


# ------------------------------------------------------------------------------- the tools


def _view(
    result: ToolResult, *, mode: Mode, x: str | None, y: str | None, color: str | None
) -> View:
    try:
        return view(result, mode=mode, x=x, y=y, color=color)
    except ChartkitError as exc:
        raise ToolError(str(exc)) from None


def _chart_file(
    path: str,
    roots: Roots,
    declaration: Any,
    *,
    index: int | None,
    mode: Mode,
    x: str | None,
    y: str | None,
    color: str | None,
) -> tuple[ToolResult, View, list[str]]:
    """Read, check and chart one file: the whole of one call's work, under the gate; the
    sentences that say how it was read (``_read_file``) go with the answer."""
    said: list[str] = []
    result = _read_file(path, roots, declaration, index=index, said=said)
    source = declared_by_text(result.declared_by)
    if result.declared_by == FILE_SCHEMA:
        said.append(
            f"{visible(result.tool)}'s columns are {source}, which states every column's "
            "type; pass resultColumns to check them against another declaration."
        )
    elif result.declared_by == ARGUMENT_OVER_FILE_SCHEMA:
        said.append(f"{visible(result.tool)}'s columns are {source}.")
    return result, _view(result, mode=mode, x=x, y=y, color=color), said


def _answer(
    ctx: Context[Any],
    tool: str,
    shown: View,
    rows: Any,
    kept: KeptViews,
    *,
    said: Iterable[str] = (),
) -> mcp_types.CallToolResult:
    findings = shown.check.findings
    if findings:
        # The log says how many and where; the quoted values stay in the answer alone.
        columns = dict.fromkeys(visible(f.column) for f in findings if f.column is not None)
        logger.warning(
            "%s: %s finding(s) against the declaration of %r in column(s) %s",
            tool,
            f"{len(findings):,}",
            cap_text(visible(shown.result.tool), 200),
            name_list(columns),
        )
    # The agent holds (or did not ask for) the rows: the text says what was drawn, not the rows.
    answer = tool_result(
        shown,
        rows=rows,
        include_rows=False,
        for_app=client_supports_apps(ctx),
        kept=kept,
        session=session_of(ctx),
    )
    lines = list(said)
    first = answer.content[0] if answer.content else None
    if lines and isinstance(first, mcp_types.TextContent):
        first.text = "\n".join([first.text, *lines])
    return answer


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
                _not_rows(f"got a string that is not JSON ({_kind(rows)}). {_ROWS_EXAMPLE}")
            ) from None
    if not isinstance(rows, list):
        raise ToolError(_not_rows(f"got {_kind(rows)}. {_ROWS_EXAMPLE}"))
    if len(rows) > MAX_ROWS:
        raise ToolError(
            f"rows holds {len(rows):,} rows, over the {MAX_ROWS:,} chart_rows charts; send a "
            "smaller extract (filter or aggregate it first)"
        )
    for number, row in enumerate(rows, start=1):
        if not isinstance(row, dict):
            raise ToolError(
                _not_rows(
                    f"row {number:,} of {len(rows):,} is {_kind(row)}. Send each row as an "
                    "object of column: value."
                )
            )
    return rows


_ROWS_EXAMPLE: Final = (
    'Pass the rows themselves, e.g. [{"region": "eu", "p95": 12.5}, {"region": "us", "p95": 9.1}]'
)


def _not_rows(found: str) -> str:
    """The refusal of a ``rows`` argument that is not rows, with what was ``found``."""
    return f"rows must be a JSON array of objects, one per row; {found}"


def _tool_error(name: str, said: str) -> str:
    """A call of tool ``name`` refused before it ran, in the SDK's own opening words."""
    return f"Error executing tool {name}: {said}"


def _kind(value: Any) -> str:
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean"}
    name = names.get(type(value)) or ("null" if value is None else f"a {type(value).__name__}")
    if isinstance(value, str | int | float) and not isinstance(value, bool):
        shown = json.dumps(value)
        return f"{name} {shown if len(shown) <= 40 else shown[:37] + '...'}"
    return name


# --------------------------------------------------------------------------- the roots


def _served_words(granted: Roots | None) -> str:
    if granted is not None:
        return granted.describe()
    here = Roots.working_directory()
    fallback = (
        f"the working directory ({visible(str(here.dirs[0]))})"
        if here.dirs
        else "no files (the working directory is the whole machine; start with --root DIR)"
    )
    return f"files under the roots the client offers, or else {fallback}"


def _roots_of(offered: mcp_types.ListRootsResult | None) -> Roots:
    if offered is None:
        return Roots.working_directory()
    return Roots.offered([str(root.uri) for root in offered.roots])


# --------------------------------------------------------------------------- reading files


def _read_file(
    path: str,
    roots: Roots,
    declaration: Any = None,
    *,
    index: int | None = None,
    said: list[str] | None = None,
) -> ToolResult:
    """Read ``path`` as one tool result: rows, a result, or one result of a run (``index``).

    A large table (``large_table``) is opened where it lies in DuckDB (``_in_place``), and a
    sentence saying so is added to ``said``; any other file is read into memory, bounded.
    """
    shown = shown_path(path)
    suffix = Path(path).suffix.lower()
    if suffix not in FILE_SUFFIXES:
        raise ToolError(
            f"cannot chart {shown}: its suffix {cap_text(visible(suffix), 40) or '(none)'!r} "
            f"is not one of {', '.join(FILE_SUFFIXES)}; save the data as JSON, JSONL, CSV or "
            "Parquet"
        )
    try:
        file = locate(path, roots)
        why = _engine_reason(file, shown)
        if why is not None:
            result = _in_place(file, Path(path).stem, declaration)
            if said is not None:
                said.append(
                    f"{why}, so it was checked and charted where it lies with DuckDB: only "
                    "counts and aggregated rows were read from it."
                )
            return result
        data = read_bounded(file, path, roots)
        if suffix in (".csv", ".parquet"):
            result = _table(data, Path(path).name, shown, declaration)
        else:
            result = _json_result(data, Path(path).name, shown, index=index)
            if declaration is not None:
                result = _result(result.tool, result.rows, declaration, like=result)
        if isinstance(result.rows, list):
            check_rows(shown, len(result.rows))
        return result
    except ToolError:
        raise
    except NotServed as exc:
        raise ToolError(str(exc)) from None
    except ChartkitError as exc:
        raise ToolError(f"cannot chart {shown}: {exc}") from None
    except UnicodeDecodeError as exc:
        raise ToolError(
            f"cannot read {shown}: it is not UTF-8 text (byte {exc.object[exc.start]:#04x} at "
            f"position {exc.start}); save it as UTF-8"
        ) from None
    except (OSError, ValueError, RecursionError) as exc:
        raise ToolError(
            f"cannot read {shown} as {suffix[1:].upper()}: {_short(exc)}; check that the file "
            "is what its suffix says"
        ) from None


def _table(data: bytes, name: str, shown: str, declaration: Any) -> ToolResult:
    """A ``.csv`` or ``.parquet`` read as the CLI reads it (``chartkit.read.tables.read_table``)."""
    from chartkit.read.tables import read_table

    if name.lower().endswith(".csv"):
        refuse_over(shown, csv_cost(data))
    else:
        if importlib.util.find_spec("pyarrow") is None:
            raise ToolError(
                "reading Parquet needs pyarrow, which is not installed where the server runs; "
                "install it with: pip install pyarrow (or send the rows to chart_rows)"
            )
        check_parquet(data, shown)
        if declaration is None:
            return with_own_declaration(read_table(data, name), data)
        result = read_table(data, name, declaration)
        by = over_own_declaration(data, result.declared_by, ARGUMENT_OVER_FILE_SCHEMA)
        return dataclasses.replace(result, declared_by=by)
    return read_table(data, name, declaration)


_GLOB: Final = re.compile(r"[*?\[\]{}]")
"""Characters DuckDB reads in a file path as a pattern, which could name files beside it."""


def _engine_reason(file: Path, shown: str) -> str | None:
    """Why the located ``file`` is charted in DuckDB (``large_table``), or None to read it into
    memory: not a large table, DuckDB not installed, or a path DuckDB would read as a pattern."""
    if _GLOB.search(str(file)):
        return None
    return large_table(file, shown)


def _in_place(file: Path, tool: str, declaration: Any) -> ToolResult:
    """The table file opened where it lies (``open_declared``), on a DuckDB connection whose
    memory is capped at ``MAX_DECODED_BYTES`` and that writes nothing to disk."""
    import duckdb

    connection = duckdb.connect(
        config={"memory_limit": f"{MAX_DECODED_BYTES // 2**20}MiB", "temp_directory": ""}
    )
    by = None
    if declaration is not None:
        by = over_own_declaration(file, None, ARGUMENT_OVER_FILE_SCHEMA)
    return open_declared(file, declaration, by, tool=tool or "table", connection=connection)


def _json_result(data: bytes, name: str, shown: str, *, index: int | None) -> ToolResult:
    """A ``.json`` or ``.jsonl`` file named ``name`` (as the caller named it) as one result."""
    file = Path(name)
    lines = file.suffix.lower() in (".jsonl", ".ndjson")
    refuse_over(shown, json_cost(data, lines=lines))
    text = data.decode("utf-8")
    if lines and not _is_run(text):
        rows = [json.loads(line) for line in text.splitlines() if line.strip()]
        return ToolResult(tool=file.stem, rows=rows)
    results = read_results(text, name=file.name)
    if index is None:
        if len(results) == 1:
            return results[0]
        raise ToolError(
            f"{visible(file.name)} holds {len(results):,} tool results; pass index (1 to "
            f"{len(results):,}) to pick the one to chart"
        )
    if not 1 <= index <= len(results):
        raise ToolError(
            f"{visible(file.name)} holds {len(results):,} tool result(s); index {index} is out of "
            f"range, pass 1 to {len(results):,}"
        )
    return results[index - 1]


def _is_run(text: str) -> bool:
    for line in text.splitlines():
        if line.strip():
            first = json.loads(line)
            return isinstance(first, dict) and any(k in first for k in RUN_KEYS)
    return False


def _short(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return cap_text(visible(text), 200)
