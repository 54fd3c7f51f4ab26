"""``resultColumns`` over MCP, both directions: serve a declared tool, read declarations, call.

The declaration rides the tool's ``_meta`` bag under the key ``resultColumns``, in the
normalized object form (``{"lun": {"type": "number", "nullable": false}}``), so a rowset tool
served from a remote catalogue arms the check exactly as a locally defined one does.

- Serving: ``declare_tool(server, result_columns)`` registers a function as a tool of an
  ``MCPServer`` with its declaration attached; ``result_columns_meta`` builds the bag. A
  malformed declaration is refused at definition time by ``assert_result_columns``.
- Serving publishes an ``outputSchema`` too (``chartkit.output_schema``): it states the
  declared JSON types and lets every row through validation, so an SDK client that validates
  structured content never turns ``warn`` into an exception.
- Ingest: ``list_tools`` / ``read_declarations`` read ``tools/list``. A malformed declaration
  from a server this process does not control is asserted by the very same function, warned
  about once per (server, tool) with ``DeclarationDroppedWarning``, and dropped: the tool is
  still listed, without it. A tool with no ``_meta.resultColumns`` is declared by its
  ``outputSchema`` when that describes rows (``chartkit.result_columns_from``); ``declared_by``
  says which of the two was used. When both are present and disagree, chartkit follows
  ``_meta`` and says so once (``DeclarationConflictWarning``).
- Calling: ``call_tool`` answers a ``ToolResult`` (rows, the declaration, a call id), ready for
  ``check_result`` and ``view``. A tool error, a non-JSON answer or a server that dies raises
  ``MCPCallError`` naming the server and the tool.

``open_server`` starts a stdio server from a command line (or connects an in-process
``MCPServer``); ``list_tools_sync`` and ``call_tool_sync`` do the whole round trip for scripts
and Streamlit, where no event loop is running.

The package is chartkit's MCP surface: this module (declared tools, the client), and beside it
``chartkit.mcp.server`` (``chartkit mcp``, the ready server), ``chartkit.mcp.apps`` (MCP Apps:
``chart_tool`` and the page) with
``chartkit.mcp._app_rows`` (the rows behind a mark, in chunks) and ``chartkit.mcp._served``
(the server's file rules and caps).
"""

from __future__ import annotations

import asyncio
import json
import shlex
import tempfile
import threading
import uuid
import warnings
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Final, Literal, TypeAlias, TypeVar

from chartkit._safe import NAME_MAX_CHARS, cap_text
from chartkit.columns import ResultColumns, assert_result_columns
from chartkit.errors import ChartkitError, MissingExtraError, ResultColumnsError, SchemaColumnsError
from chartkit.read.schemas import output_schema, result_columns_from, rows_property
from chartkit.result import ToolResult
from chartkit.words import needs_extra

try:
    import anyio
    import mcp
    import mcp.types as mcp_types
    from mcp.client.stdio import stdio_client
    from mcp.server.mcpserver import MCPServer
    from pydantic import ValidationError
except ImportError as _exc:  # pragma: no cover - exercised in a subprocess by the tests
    raise MissingExtraError(
        needs_extra("chartkit.mcp", "the MCP SDK 2.3 or newer", "mcp", failed=_exc)
    ) from None

__all__ = [
    "DECLARED_BY_META",
    "DECLARED_BY_SCHEMA",
    "META_KEY",
    "DeclarationConflictWarning",
    "DeclarationDroppedWarning",
    "DeclaredBy",
    "ListedTool",
    "MCPCallError",
    "ServerSpec",
    "call_tool",
    "call_tool_sync",
    "declare_tool",
    "list_tools",
    "list_tools_sync",
    "open_server",
    "read_declarations",
    "result_columns_meta",
]

META_KEY = "resultColumns"
"""The key of the tool ``_meta`` bag that carries the declaration."""

DeclaredBy: TypeAlias = Literal["_meta.resultColumns", "outputSchema"]
"""Where a listed tool's declaration came from: its ``_meta`` bag, or its ``outputSchema``."""
DECLARED_BY_META: Final = "_meta.resultColumns"
DECLARED_BY_SCHEMA: Final = "outputSchema"

ServerSpec: TypeAlias = str | Sequence[str] | MCPServer[Any]
"""A command line that starts a stdio MCP server (a string, split like a shell does, or an
argument list), or an in-process ``MCPServer``."""

_F = TypeVar("_F", bound=Callable[..., Any])
_T = TypeVar("_T")

_MAX_PAGES = 1000  # a tools/list paginator that never ends cannot hang a read


class DeclarationDroppedWarning(UserWarning):
    """A server listed a tool whose ``resultColumns`` chartkit cannot honour; it was dropped."""


class DeclarationConflictWarning(UserWarning):
    """A server listed a tool whose ``_meta.resultColumns`` and ``outputSchema`` disagree."""


class MCPCallError(ChartkitError, RuntimeError):
    """An MCP server or tool failed: a tool error, a non-JSON answer, a server that died.

    ``server`` names the server (its self-reported name, or the command line), ``tool`` the
    tool when one was being called.
    """

    def __init__(self, message: str, *, server: str, tool: str | None = None) -> None:
        super().__init__(message)
        self.server = server
        self.tool = tool


# ---------------------------------------------------------------------------------- serving


def result_columns_meta(
    tool: str, result_columns: object, meta: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The ``_meta`` bag carrying ``tool``'s checked declaration, in the normalized object form.

    A declaration chartkit cannot honour raises ``ResultColumnsError`` (naming the tool and the
    column) — the same ``assert_result_columns`` every other door uses. Other keys of ``meta``
    are kept.

    >>> result_columns_meta("host_group_mappings", {"logical_unit_number": "number"})
    {'resultColumns': {'logical_unit_number': {'type': 'number', 'nullable': False}}}
    """
    declared = assert_result_columns(tool, result_columns)
    bag = dict(meta or {})
    if META_KEY in bag:
        raise ResultColumnsError(
            f"tool {tool!r} passes meta that already has {META_KEY!r}; pass the declaration "
            "once, as result_columns, and leave it out of meta"
        )
    bag[META_KEY] = {name: d.to_wire() for name, d in declared.items()}
    return bag


def declare_tool(
    server: MCPServer[Any],
    result_columns: object,
    *,
    name: str | None = None,
    title: str | None = None,
    description: str | None = None,
    meta: Mapping[str, Any] | None = None,
    structured_output: bool | None = None,
) -> Callable[[_F], _F]:
    """Register the decorated function as a tool of ``server``, its declaration in ``_meta``.

    Takes the options of ``MCPServer.tool`` (the tool is named after the function unless
    ``name`` is given). The declaration is checked now, at definition time: a malformed one
    raises ``ResultColumnsError`` and no tool is registered. Return ``list[dict[str, Any]]``
    from the tool so clients get ``structured_content == {"result": rows}``.

    A tool with structured output also publishes the ``outputSchema`` of its declaration
    (``chartkit.output_schema``) in place of the SDK's, under the property the SDK's schema
    puts the rows in (``result`` for a returned list). It states each column's JSON type and
    accepts every row, so the SDK's own validation of structured content — which every client
    runs — never refuses a row that breaks the declaration: under ``warn`` the rows arrive as
    the tool returned them, and the check and its dial are the one judge of the types.

    >>> server = MCPServer("storage")
    >>> @declare_tool(server, {"logical_unit_number": "number", "host_group": "string"},
    ...               description="The LUN mappings of a host group.")
    ... def host_group_mappings() -> list[dict[str, Any]]:
    ...     return [{"logical_unit_number": 0, "host_group": "vdi-a"}]
    >>> @declare_tool(server, {"lun": "integer"})
    ... def broken() -> list[dict[str, Any]]:
    ...     return []
    Traceback (most recent call last):
    ...
    chartkit.errors.ResultColumnsError: tool 'broken' declares column 'lun' as "integer"; \
use one of number, string, boolean, date (or leave the column undeclared)
    """
    bag = result_columns_meta(name, result_columns, meta) if name is not None else None

    def register(fn: _F) -> _F:
        tool_meta = (
            bag if bag is not None else result_columns_meta(fn.__name__, result_columns, meta)
        )
        server.add_tool(
            fn,
            name=name,
            title=title,
            description=description,
            meta=tool_meta,
            structured_output=structured_output,
        )
        _publish_output_schema(server, name or fn.__name__, tool_meta[META_KEY])
        return fn

    return register


def _publish_output_schema(server: MCPServer[Any], tool: str, declared: object) -> None:
    """Replace the SDK's ``outputSchema`` of ``tool`` by the one its declaration states.

    The SDK derives a tool's ``outputSchema`` from its return annotation and reads it live
    from the tool's ``fn_metadata`` (its server-side validation uses the annotation, not the
    published schema). A tool without structured output publishes no schema, and keeps none.
    """
    manager = getattr(server, "_tool_manager", None)
    registered = manager.get_tool(tool) if manager is not None else None
    metadata = getattr(registered, "fn_metadata", None)
    published = getattr(metadata, "output_schema", None)
    if metadata is None or not isinstance(published, Mapping):
        return
    try:
        at = rows_property(published)  # "result" for a returned list the SDK wraps
    except SchemaColumnsError:
        return  # the tool returns no rows the schema could describe (a string, an object …)
    if at is not None:
        replaced = dict(published)
        replaced["properties"] = {
            **published["properties"],
            at: output_schema(declared, rows_property=None),
        }
        metadata.output_schema = replaced


# ----------------------------------------------------------------------------------- ingest


@dataclass(frozen=True, slots=True)
class ListedTool:
    """One tool as a server lists it, with its declaration read (or dropped) at the door.

    ``result_columns`` is None when the tool declares nothing, or when its declaration was
    malformed — then ``declaration_error`` says why it was dropped. ``declared_by`` says where
    the declaration came from: ``"_meta.resultColumns"``, or ``"outputSchema"`` for a tool
    without ``_meta.resultColumns`` whose ``outputSchema`` describes rows.
    ``rows_property`` is the property of the structured content that holds the rows, when the
    ``outputSchema`` names one.
    """

    name: str
    server: str
    description: str | None = None
    title: str | None = None
    result_columns: ResultColumns | None = None
    declaration_error: str | None = None
    input_schema: Mapping[str, Any] = field(default_factory=dict)
    declared_by: DeclaredBy | None = None
    rows_property: str | None = None


_warned: set[tuple[str, str, str]] = set()
_warned_lock = threading.Lock()


def _warn_once(
    server: str,
    tool: str,
    message: str,
    category: type[UserWarning] = DeclarationDroppedWarning,
    *,
    about: str = META_KEY,
) -> None:
    with _warned_lock:
        if (server, tool, about) in _warned:
            return
        _warned.add((server, tool, about))
    warnings.warn(message, category, stacklevel=4)


def _ingest(tool: mcp_types.Tool, server: str) -> ListedTool:
    meta = tool.meta if isinstance(tool.meta, Mapping) else {}
    bag = meta.get(META_KEY)
    columns: ResultColumns | None = None
    error: str | None = None
    if bag is not None:
        try:
            columns = assert_result_columns(tool.name, bag)
        except ResultColumnsError as exc:
            error = str(exc)
            _warn_once(
                server,
                tool.name,
                f"MCP server {server!r} lists tool {tool.name!r} with a resultColumns declaration "
                f"chartkit cannot honour: {error}. The declaration is dropped and the tool is "
                "listed without it, so its rows are not checked and any chart of them uses "
                "inferred types; fix the declaration on the server.",
            )
    at, from_schema = _from_output_schema(tool, server, warn=bag is None)
    declared_by: DeclaredBy | None = None
    if columns is not None:
        declared_by = DECLARED_BY_META
        if from_schema is not None and dict(from_schema) != dict(columns):
            _warn_once(
                server,
                tool.name,
                f"MCP server {server!r} lists tool {_q(tool.name)} with a resultColumns "
                f"declaration and an outputSchema that disagree: "
                f"{_disagreement(columns, from_schema)}. chartkit follows _meta.resultColumns; "
                "make the two agree on the server.",
                DeclarationConflictWarning,
                about="conflict",
            )
    elif bag is None and from_schema is not None:
        columns, declared_by = from_schema, DECLARED_BY_SCHEMA
    return ListedTool(
        name=tool.name,
        server=server,
        description=tool.description,
        title=tool.title,
        result_columns=columns,
        declaration_error=error,
        input_schema=dict(tool.input_schema or {}),
        declared_by=declared_by,
        rows_property=at,
    )


def _from_output_schema(
    tool: mcp_types.Tool, server: str, *, warn: bool
) -> tuple[str | None, ResultColumns | None]:
    """Where the tool's ``outputSchema`` puts the rows, and the declaration it states.

    A schema that does not describe rows, or declares no column every row carries (the SDK's
    own schema for ``list[dict[str, Any]]``), states no declaration and is passed over in
    silence. A column no column type can say is left undeclared, the others declared (none,
    when it leaves no column), and — when the tool has no ``_meta.resultColumns`` that would
    be followed anyway — warned about once.
    """
    schema = tool.output_schema
    if not isinstance(schema, Mapping):
        return None, None
    try:
        at = rows_property(schema)
    except SchemaColumnsError:
        return None, None
    try:
        return at, result_columns_from(schema)
    except SchemaColumnsError as exc:
        if not (exc.refused and warn):
            return at, None
        try:  # the columns chartkit can declare are still checked: those it cannot are left out
            kept: ResultColumns | None = result_columns_from(schema, unmappable="leave")
        except SchemaColumnsError:
            kept = None  # no column is left to declare
        listed = (
            "The tool is listed undeclared, so its rows are not checked"
            if kept is None
            else f"{_count(len(exc.refused), 'column')} left undeclared (not checked); the "
            "others are declared by the outputSchema"
        )
        _warn_once(
            server,
            tool.name,
            f"MCP server {server!r} lists tool {_q(tool.name)} with no resultColumns in its "
            f"_meta and an outputSchema chartkit cannot read as a declaration: {exc} {listed}; "
            "declare resultColumns in the tool's _meta on the server.",
            about="outputSchema",
        )
        return at, kept


def _count(n: int, noun: str) -> str:
    """``1 column is`` / ``3 columns are``: a count, its noun and its verb agreed."""
    return f"{n:,} {noun} is" if n == 1 else f"{n:,} {noun}s are"


def _q(name: str) -> str:
    """A tool or column name from a server, repr-quoted and capped (it is untrusted)."""
    return repr(cap_text(name, NAME_MAX_CHARS))


def _disagreement(meta: ResultColumns, schema: ResultColumns) -> str:
    """How the two declarations differ, column by column (at most five, then a count)."""
    said = []
    for name in [*meta, *(n for n in schema if n not in meta)]:
        a, b = meta.get(name), schema.get(name)
        if a == b:
            continue
        if b is None:
            said.append(f"{_q(name)} is declared in _meta only")
        elif a is None:
            said.append(f"{_q(name)} is declared in the outputSchema only")
        else:
            said.append(f"{_q(name)} is {_spell(a)} in _meta and {_spell(b)} in the outputSchema")
    more = len(said) - 5
    return "; ".join(said[:5]) + (f"; and {more} more" if more > 0 else "")


def _spell(d: Any) -> str:
    return f"{'nullable ' if d.nullable else ''}{d.type}"


def _server_name(client: mcp.Client, server: str | None) -> str:
    if server is not None:
        return server
    try:
        info = client.server_info
    except RuntimeError:
        return "(not connected)"
    return info.name if info is not None and info.name else "(unnamed MCP server)"


async def list_tools(client: mcp.Client, *, server: str | None = None) -> tuple[ListedTool, ...]:
    """Read the server's ``tools/list`` (every page) and each tool's declaration.

    ``client`` is a connected ``mcp.Client``; ``server`` names the server in messages and in the
    warn-once memory (default: the name the server reports). A malformed declaration is warned
    about once per (server, tool), however often the list is read, and dropped. A tool for an
    MCP Apps page alone (``_meta.ui.visibility`` without ``"model"``, such as
    ``chartkit_rows_behind``) is left out, as a host leaves it out of the model's tools.
    """
    label = _server_name(client, server)
    tools: list[mcp_types.Tool] = []
    cursor: str | None = None
    try:
        for _ in range(_MAX_PAGES):
            page = await client.list_tools(cursor=cursor)
            tools.extend(page.tools)
            cursor = page.next_cursor
            if cursor is None:
                break
    except (mcp.MCPError, ValidationError, RuntimeError) as exc:
        raise _failure(exc, server=label, tool=None, doing="listing its tools") from None
    return tuple(_ingest(t, label) for t in tools if _for_the_model(t))


def _for_the_model(tool: mcp_types.Tool) -> bool:
    """Whether a model may see ``tool``: not an app-only tool (MCP Apps visibility)."""
    ui = (tool.meta or {}).get("ui")
    visibility = ui.get("visibility") if isinstance(ui, dict) else None
    return not isinstance(visibility, list) or "model" in visibility


async def read_declarations(
    client: mcp.Client, *, server: str | None = None
) -> dict[str, ResultColumns | None]:
    """Each listed tool's declaration by tool name (None: undeclared, or dropped as malformed)."""
    return {t.name: t.result_columns for t in await list_tools(client, server=server)}


# ---------------------------------------------------------------------------------- calling


async def call_tool(
    client: mcp.Client,
    tool: str,
    arguments: Mapping[str, Any] | None = None,
    *,
    server: str | None = None,
    call_id: str | None = None,
    tools: Sequence[ListedTool] | None = None,
) -> ToolResult:
    """Call ``tool`` and answer its rows as a ``ToolResult`` with the tool's declaration.

    Rows come from ``structured_content`` (``{"result": rows}`` for a tool returning a list,
    or the property the tool's ``outputSchema`` holds them under) or, without it, from the
    JSON text blocks — one block per row. A lone block holding an
    object is answered as that object, declared or not, so under the dial ``off`` the caller
    gets the answer exactly as sent; the result is marked ``one_row_ambiguous`` (the wire form
    of a one-row list and of a single object is the same), and an armed check reads it as
    one row, so ``enforce`` refuses a bad row as it does locally. The declaration comes from
    ``tools`` (a listing already read) or a fresh ``tools/list``; ``call_id`` defaults to a new
    ``mcp-…`` id; ``declared_by`` on the result says whether the declaration came from the
    tool's ``_meta.resultColumns`` or its ``outputSchema``. A tool error, a non-JSON answer or
    a connection that closes raises ``MCPCallError``.
    """
    label = _server_name(client, server)
    listing = tuple(tools) if tools is not None else await list_tools(client, server=label)
    listed = next((t for t in listing if t.name == tool), None)
    if listed is None:
        names = ", ".join(repr(t.name) for t in listing) or "no tools at all"
        raise MCPCallError(
            f"MCP server {label!r} has no tool {tool!r}; it lists {names}. Call one of those.",
            server=label,
            tool=tool,
        )
    try:
        answer = await client.call_tool(tool, dict(arguments or {}))
    except (mcp.MCPError, ValidationError, RuntimeError) as exc:
        raise _failure(exc, server=label, tool=tool, doing=f"calling tool {tool!r}") from None
    rows, ambiguous = _rows(answer, tool=tool, server=label, at=listed.rows_property)
    return ToolResult(
        tool=tool,
        rows=rows,
        result_columns=listed.result_columns,
        call_id=call_id if call_id is not None else f"mcp-{uuid.uuid4().hex[:12]}",
        description=listed.description,
        one_row_ambiguous=ambiguous,
        declared_by=listed.declared_by,
    )


def _rows(
    answer: mcp_types.CallToolResult, *, tool: str, server: str, at: str | None = None
) -> tuple[Any, bool]:
    """The rows of a tool's answer (structured content first, else its JSON text blocks), and
    whether they are a lone object that may have been a one-row list.

    Without structured content (a tool with no ``-> list[dict[str, Any]]`` annotation, or
    ``structured_output=False``) the SDK writes each item of a returned list as a text block of
    its own — an empty list as no block, two rows as two blocks — but a one-row list and a
    single returned object both as ONE block holding a JSON object: the wire cannot tell them
    apart. Several blocks are always a list. One block holding an object is answered as the
    object, as sent, and flagged ambiguous: the check reads it as one row only when armed
    (a dial and a declaration), so the dial ``off`` delivers the answer byte for byte, and a
    one-row result that breaks its declaration still fails ``enforce``. A tool that annotates
    its return gets structured content, which is read as sent — from the property ``at`` when
    the tool's ``outputSchema`` puts the rows under one and the content has it.
    """
    texts = [b.text for b in answer.content if isinstance(b, mcp_types.TextContent)]
    if answer.is_error:
        said = _capped(" ".join(t.strip() for t in texts if t.strip()) or "no message")
        raise MCPCallError(
            f"MCP tool {tool!r} on server {server!r} answered with an error: {said}. No rows "
            "were read; fix the tool or call it with other arguments.",
            server=server,
            tool=tool,
        )
    payload: Any
    ambiguous = False
    content = answer.structured_content
    if content is not None:
        if at is not None and isinstance(content, Mapping) and at in content:
            payload = content[at]
        else:
            payload = content["result"] if set(content) == {"result"} else content
    else:
        others = sorted({b.type for b in answer.content if b.type != "text"})
        if others:
            raise MCPCallError(
                f"MCP tool {tool!r} on server {server!r} answered {', '.join(others)} content; "
                "chartkit reads rows from structured content or JSON text, so make the tool "
                "return a list of objects.",
                server=server,
                tool=tool,
            )
        parsed = [_json(t, tool=tool, server=server) for t in texts]
        if len(parsed) != 1:
            payload = parsed  # the SDK writes each item of a returned list as a block
        else:
            payload = parsed[0]  # a lone object, or a one-row list: the wire cannot say
            ambiguous = isinstance(payload, dict)
    if isinstance(payload, str):
        payload = _json(payload, tool=tool, server=server)
    return payload, ambiguous


def _json(text: str, *, tool: str, server: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        shown = text if len(text) <= 80 else text[:77] + "..."
        raise MCPCallError(
            f"MCP tool {tool!r} on server {server!r} answered text that is not JSON "
            f"({shown!r}: {exc.msg} at line {exc.lineno} column {exc.colno}); chartkit reads "
            "rows from structured content or JSON text, so make the tool return a list of "
            "objects.",
            server=server,
            tool=tool,
        ) from None


def _failure(exc: BaseException, *, server: str, tool: str | None, doing: str) -> MCPCallError:
    """Turn what the SDK raised into one sentence naming the server, the tool and what failed."""
    if isinstance(exc, mcp.MCPError) and exc.code == mcp_types.CONNECTION_CLOSED:
        message = (
            f"MCP server {server!r} closed the connection while {doing} — the server process "
            "exited, or wrote something other than MCP messages to its stdout. Run its command "
            "by hand to see why."
        )
    elif isinstance(exc, mcp.MCPError) and exc.code == mcp_types.REQUEST_TIMEOUT:
        message = (
            f"MCP server {server!r} did not answer in time while {doing} ({_capped(exc.message)})."
        )
    elif isinstance(exc, mcp.MCPError):
        message = (
            f"MCP server {server!r} answered an error while {doing}: {_capped(exc.message)} "
            f"(code {exc.code})."
        )
    elif isinstance(exc, ValidationError):
        message = (
            f"MCP server {server!r} answered something that is not a valid MCP result while "
            f"{doing} ({exc.error_count()} validation error(s), first: "
            f"{exc.errors()[0]['msg']})."
        )
    else:
        message = f"MCP server {server!r} failed while {doing}: {_capped(str(exc))}."
    return MCPCallError(message, server=server, tool=tool)


_QUOTE_CAP = 300


def _capped(text: str) -> str:
    """What a server said, quoted at most ``_QUOTE_CAP`` characters (it is untrusted)."""
    return text if len(text) <= _QUOTE_CAP else text[: _QUOTE_CAP - 1] + "…"


# ------------------------------------------------------------------- connecting and sync use


def _argv(server: str | Sequence[str]) -> list[str]:
    argv = shlex.split(server) if isinstance(server, str) else [str(a) for a in server]
    if not argv:
        raise MCPCallError(
            "the MCP server command line is empty; give the command that starts the server, "
            "e.g. 'python examples/mcp_server.py'",
            server="",
        )
    return argv


@asynccontextmanager
async def open_server(
    server: ServerSpec,
    *,
    env: Mapping[str, str] | None = None,
    cwd: str | Path | None = None,
) -> AsyncIterator[mcp.Client]:
    """Connect to an MCP server: start a command line over stdio, or an in-process server.

    Yields the connected ``mcp.Client``; the server process is stopped on exit. ``env`` is
    merged over the few variables the SDK passes on (``PATH``, ``HOME`` …). Failures — a
    command that cannot start, a server that exits or dies mid-call — leave as one
    ``MCPCallError`` that quotes the last line the server wrote to its stderr, not as an
    exception group from the transport.

    >>> async def mappings():  # doctest: +SKIP
    ...     async with open_server("python examples/mcp_server.py") as client:
    ...         return await call_tool(client, "host_group_mappings")
    """
    errlog: IO[str] | None = None
    if isinstance(server, MCPServer):
        client = mcp.Client(server)
        label = server.name
    else:
        argv = _argv(server)
        label = shlex.join(argv)
        errlog = tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace")
        params = mcp.StdioServerParameters(
            command=argv[0], args=argv[1:], env=dict(env) if env else None, cwd=cwd
        )
        client = mcp.Client(stdio_client(params, errlog=errlog))
    try:
        async with client:
            yield client
    except BaseException as exc:
        leaf = _sole_leaf(exc)
        if leaf is None:
            raise
        raise _explain(leaf, label, _last_line(errlog)) from None
    finally:
        if errlog is not None:
            errlog.close()


def _sole_leaf(exc: BaseException) -> Exception | None:
    """The one exception inside (nested) exception groups, or None when there is not one."""
    while isinstance(exc, BaseExceptionGroup):
        if len(exc.exceptions) != 1:
            return None
        exc = exc.exceptions[0]
    return exc if isinstance(exc, Exception) else None


def _explain(leaf: Exception, command: str, stderr_tail: str | None) -> Exception:
    said = f" Its stderr ended with: {stderr_tail!r}." if stderr_tail else ""
    if isinstance(leaf, MCPCallError):
        closed = "closed the connection" in str(leaf)
        return MCPCallError(
            f"{leaf}{said}" if closed else str(leaf), server=leaf.server, tool=leaf.tool
        )
    if isinstance(leaf, ChartkitError):
        return leaf
    if isinstance(leaf, OSError):
        reason = leaf.strerror or str(leaf)
        return MCPCallError(
            f"could not start the MCP server {command!r}: {reason}"
            f"{f' ({leaf.filename!r})' if leaf.filename else ''}; check the command line.",
            server=command,
        )
    if isinstance(leaf, mcp.MCPError | ValidationError | RuntimeError):
        failure = _failure(leaf, server=command, tool=None, doing="starting up")
        return MCPCallError(f"{failure}{said}", server=command)
    return leaf  # not ours to explain: the caller's own exception, unwrapped from the group


def _last_line(errlog: IO[str] | None) -> str | None:
    if errlog is None:
        return None
    try:
        errlog.seek(0)
        lines = [line.strip() for line in errlog.read().splitlines() if line.strip()]
    except (OSError, ValueError):
        return None
    if not lines:
        return None
    return lines[-1] if len(lines[-1]) <= 300 else lines[-1][:297] + "..."


def _label(server: ServerSpec) -> str:
    if isinstance(server, MCPServer):
        return server.name
    return shlex.join(_argv(server))


_STARTING, _LISTING, _CALLING = "starting", "listing", "calling"


@dataclass
class _Progress:
    """How far a sync round trip got, and the name the server gave once it answered."""

    stage: str = _STARTING
    server: str | None = None

    def started(self, client: mcp.Client) -> None:
        self.stage = _LISTING
        self.server = _server_name(client, None)


def _run_sync(
    work: Callable[[_Progress], Awaitable[_T]],
    *,
    server: ServerSpec,
    timeout: float | None,
    what: str,
    tool: str | None = None,
) -> _T:
    """Run ``work`` in a fresh event loop under ``timeout``; every failure names ``tool``.

    ``work`` records how far it got (starting, listing, calling), so a timeout says whether the
    server never started, never listed its tools, or is up while the tool hangs.
    """
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        pass
    else:
        raise ChartkitError(
            f"{what} cannot run inside a running event loop (a notebook, an async app); there, "
            "use the async functions: async with open_server(...) as client: await ..."
        )
    progress = _Progress()

    async def bounded() -> _T:
        with anyio.fail_after(timeout):
            return await work(progress)

    try:
        return anyio.run(bounded)
    except TimeoutError:
        label = progress.server or _label(server)
        raise _timed_out(label, tool, progress.stage, timeout) from None
    except MCPCallError as exc:
        if tool is None or exc.tool is not None:
            raise
        raise MCPCallError(
            f"{exc} The call to tool {tool!r} was not made.", server=exc.server, tool=tool
        ) from None


def _timed_out(server: str, tool: str | None, stage: str, timeout: float | None) -> MCPCallError:
    seconds = f"{timeout:g} s"
    not_called = f", so tool {tool!r} was not called" if tool is not None else ""
    if stage == _CALLING and tool is not None:
        message = (
            f"MCP tool {tool!r} on server {server!r} did not answer within {seconds}. The server "
            "is up — it answered the handshake and listed its tools — so the tool itself hangs "
            "or is slow; pass a longer timeout, or fix the tool."
        )
    elif stage == _LISTING:
        message = (
            f"MCP server {server!r} started but did not list its tools within {seconds}"
            f"{not_called}; the server hangs in tools/list, or pass a longer timeout."
        )
    else:
        message = (
            f"MCP server {server!r} did not start within {seconds}: it never answered the MCP "
            f"handshake (initialize){not_called}. Check that the command starts an MCP server "
            "over stdio, or pass a longer timeout."
        )
    return MCPCallError(message, server=server, tool=tool)


def list_tools_sync(
    server: ServerSpec,
    *,
    env: Mapping[str, str] | None = None,
    cwd: str | Path | None = None,
    timeout: float | None = 30.0,
) -> tuple[ListedTool, ...]:
    """Start the server, read its tools and their declarations, and stop it.

    For scripts and Streamlit (no running event loop); see ``open_server`` for ``server``.
    A timeout says whether the server never started or never listed its tools.
    """

    async def work(progress: _Progress) -> tuple[ListedTool, ...]:
        async with open_server(server, env=env, cwd=cwd) as client:
            progress.started(client)
            return await list_tools(client)

    return _run_sync(work, server=server, timeout=timeout, what="list_tools_sync")


def call_tool_sync(
    server: ServerSpec,
    tool: str,
    arguments: Mapping[str, Any] | None = None,
    *,
    call_id: str | None = None,
    env: Mapping[str, str] | None = None,
    cwd: str | Path | None = None,
    timeout: float | None = 30.0,
) -> ToolResult:
    """Start the server, list its tools, call ``tool``, stop it, and answer the ``ToolResult``.

    Every ``MCPCallError`` names the server and ``tool``; a timeout says whether the server
    never started, never listed its tools, or is up while the tool hangs.

    >>> result = call_tool_sync("python examples/mcp_server.py", "host_group_mappings")
    ... # doctest: +SKIP
    >>> check_result(result, mode="warn").findings  # doctest: +SKIP
    """

    async def work(progress: _Progress) -> ToolResult:
        async with open_server(server, env=env, cwd=cwd) as client:
            progress.started(client)
            tools = await list_tools(client)
            progress.stage = _CALLING
            return await call_tool(client, tool, arguments, call_id=call_id, tools=tools)

    return _run_sync(work, server=server, timeout=timeout, what="call_tool_sync", tool=tool)
