"""chartkit as an MCP App: a declared tool answers its View, drawn inline by the agent's host.

MCP Apps (extension ``io.modelcontextprotocol/ui``) lets a tool link a ``ui://`` HTML resource
that hosts (Claude, ChatGPT, VS Code, Goose, the MCP Inspector) render in a sandboxed iframe.
``chart_tool`` attaches chartkit's page, ``ui://chartkit/view.html``, to a declared tool in
one call::

    apps = Apps()

    @chart_tool(apps, {"logical_unit_number": "number", "host_group": "string"})
    def host_group_mappings() -> list[dict[str, Any]]:
        return fetch_mappings()

    server = MCPServer("storage", extensions=[apps])   # after every chart_tool

The tool's ``_meta`` carries ``resultColumns`` beside ``ui.resourceUri``. Each call checks
the rows under the dial and answers:

- ``structuredContent``: the View payload (``View.to_dict()``) the page draws — for clients
  that negotiated MCP Apps only; hosts keep it out of the model's context;
- ``content``: text the model reads — the verdict, the reason, findings, refused axes and
  notes, then the rows as JSON. Under ``enforce`` a refused result is the refusal sentence
  alone: no row anywhere. Under ``off`` and ``warn`` the rows are the tool's, as returned;
- ``_meta["chartkit/rows"]``: for a table View only (and MCP Apps clients only), its first
  ``TABLE_ROWS`` rows for the page to show, each cell cut at ``CELL_CHARS`` characters;
- ``_meta["chartkit/drill"]``: for a chart (MCP Apps clients only), the handle the chart is
  kept under and the name of the app-only tool that answers the rows behind a mark.

The rows behind a mark: ``chartkit_rows_behind`` (``ROWS_BEHIND_TOOL``), registered once per
``Apps`` beside the page, is visible to the app only (``_meta.ui.visibility: ["app"]``: hosts
keep it out of the model's tool list). The page sends the chart's handle and what the user
clicked or brushed; the tool answers the rows behind it (``View.rows_behind``) in chunks of at
most ``CHUNK_BYTES`` bytes, offending cells marked, and the text the page hands the model
(``ui/update-model-context``). A refused result is never kept, so under ``enforce`` none of its
rows is reachable this way (``chartkit.mcp._app_rows``).

The page is one self-contained HTML document (Vega, Vega-Lite, vega-embed and
vega-interpreter bundled; no network, no eval) built from ``web/`` by ``make web`` and shipped
as package data; ``view_html()`` reads it.
"""

from __future__ import annotations

import functools
import inspect
import json
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Annotated, Any, TypeAlias, TypeVar
from weakref import WeakKeyDictionary, WeakSet

from chartkit._safe import cap_text, name_list, visible
from chartkit.check.outcome import CheckMode
from chartkit.columns import assert_result_columns
from chartkit.errors import ChartkitError, MissingExtraError
from chartkit.mcp._app_rows import CHUNK_BYTES, KeptViews, chunk_text, rows_chunk, selection_of
from chartkit.messages import offenders_text
from chartkit.page import view_html
from chartkit.result import ToolResult
from chartkit.views import View, view
from chartkit.words import (
    capitalized,
    chart_of,
    counted,
    needs_extra,
    offending_values,
    refused_axis,
)

try:
    import anyio
    import anyio.to_thread
    import mcp.types as mcp_types
    import pydantic_core
    from mcp.server.apps import APP_MIME_TYPE, EXTENSION_ID, Apps, client_supports_apps
    from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
    from mcp.server.mcpserver import Context
    from mcp.server.mcpserver.exceptions import ToolError
    from mcp.server.mcpserver.utilities.context_injection import find_context_parameter
    from pydantic import Field
except ImportError as _exc:  # pragma: no cover - only without the mcp extra
    raise MissingExtraError(
        needs_extra("chartkit.mcp.apps", "the MCP SDK 2.3 or newer", "mcp", failed=_exc)
    ) from None

__all__ = [
    "APP_MIME_TYPE",
    "CELL_CHARS",
    "CHUNK_BYTES",
    "DRILL_META_KEY",
    "EXTENSION_ID",
    "ROWS_BEHIND_TOOL",
    "ROWS_META_KEY",
    "TABLE_ROWS",
    "VIEW_URI",
    "KeptViews",
    "add_rows_behind_tool",
    "add_view_resource",
    "app_tools_for_apps_clients",
    "chart_tool",
    "rows_json",
    "session_of",
    "summary",
    "tool_result",
    "view_html",
]

VIEW_URI = "ui://chartkit/view.html"
"""The ``ui://`` resource that draws chartkit View payloads."""
ROWS_META_KEY = "chartkit/rows"
"""The result ``_meta`` key under which a table View's first rows reach the page."""
TABLE_ROWS = 200
"""At most this many rows of a table View reach the page."""
CELL_CHARS = 1000
"""A cell longer than this (as text) reaches the page's table cut, with an ellipsis."""

ROWS_BEHIND_TOOL = "chartkit_rows_behind"
"""The app-only tool that answers the rows behind a mark of a chart the page shows."""
DRILL_META_KEY = "chartkit/drill"
"""The result ``_meta`` key under which a chart's handle and ``ROWS_BEHIND_TOOL`` reach the page."""
ROWS_BEHIND_CALLS = 2
"""Rows-behind calls evaluated at once per ``Apps``; the others wait their turn."""

_F = TypeVar("_F", bound=Callable[..., Any])
_CONTEXT = "chartkit_context"  # the Context parameter chart_tool adds when the tool has none
_served: WeakSet[Apps] = WeakSet()
_kept: WeakKeyDictionary[Apps, KeptViews] = WeakKeyDictionary()


def add_view_resource(apps: Apps) -> None:
    """Serve chartkit's page as ``ui://chartkit/view.html`` from ``apps`` (once per ``Apps``).

    The page asks for no CSP domains: the host's default policy (no network, no eval) is
    all it needs.
    """
    if apps in _served or any(b.resource.uri == VIEW_URI for b in apps.resources()):
        _served.add(apps)
        return
    apps.add_html_resource(
        VIEW_URI,
        view_html(),
        name="chartkit view",
        title="chartkit chart",
        description=(
            "Draws a chartkit View: the chart or table of a tool result, checked against "
            "its declared resultColumns, with every finding and refused axis explained."
        ),
    )
    _served.add(apps)


_READS_KEPT = mcp_types.ToolAnnotations(
    read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)
ChartArg = Annotated[
    str,
    Field(
        description="The chart's handle: _meta['chartkit/drill'].chart of the chart's result.",
        max_length=200,
    ),
]
SelectionArg = Annotated[
    dict[str, Any],
    Field(
        description=(
            "What the user picked, exactly one of: datum (the clicked mark's record, as Vega "
            "hands it), interval ({field: [low, high]}, a brush), leftOut (true: the rows the "
            "chart left out), others (true: the categories a top-N chart cut)."
        )
    ),
]
OffsetArg = Annotated[
    int,
    Field(description="Where the chunk starts: 0, or the previous chunk's next.", ge=0),
]


def _context_of_any() -> Any:
    """``Context[Any, Any]``, parametrized inside a function.

    pydantic files a generic model parametrized at a module's top level into that module's
    namespace, as the public name 'Context[Any, Any]'; the SDK's ``typing.get_type_hints``
    evaluates a tool's annotations there. Made here and named privately, the annotation is a
    name to look up, and pydantic's cache answers any later ``Context[Any]`` with this class.
    """
    return Context[Any, Any]


if TYPE_CHECKING:
    _AnyContext: TypeAlias = Context[Any, Any]
else:
    _AnyContext = _context_of_any()


def add_rows_behind_tool(apps: Apps) -> KeptViews:
    """Register ``ROWS_BEHIND_TOOL`` on ``apps`` (once) and answer the charts it keeps.

    The tool is app-only (``_meta.ui.visibility: ["app"]``): a host lists it for the page and
    keeps it out of the model's tools. Its answer is a chunk of the rows behind the selection
    (``chartkit.mcp._app_rows.rows_chunk``) as ``structuredContent``, with one line of text.
    """
    kept = _kept.get(apps)
    if kept is not None:
        return kept
    kept = _kept[apps] = KeptViews()
    add_view_resource(apps)
    gate = anyio.Semaphore(ROWS_BEHIND_CALLS)

    @apps.tool(
        resource_uri=VIEW_URI,
        visibility=["app"],
        name=ROWS_BEHIND_TOOL,
        title="The rows behind a mark",
        annotations=_READS_KEPT,
        description=(
            "For chartkit's page only: the rows behind a clicked mark or a brushed interval of "
            "a chart it shows, in chunks of at most "
            f"{CHUNK_BYTES // 1024} KiB, each row's cells that break the declaration marked."
        ),
    )
    async def chartkit_rows_behind(
        ctx: _AnyContext, chart: ChartArg, selection: SelectionArg, offset: OffsetArg = 0
    ) -> mcp_types.CallToolResult:
        if not client_supports_apps(ctx):
            raise ToolError(
                f"{ROWS_BEHIND_TOOL} answers MCP Apps pages only, and this client did not "
                f"negotiate MCP Apps (extension {EXTENSION_ID} with mimeTypes [{APP_MIME_TYPE!r}]"
                "); the rows a chart was drawn from are for the page that shows it"
            )
        try:
            shown = kept.get(chart, session=session_of(ctx))
            async with gate:
                chunk = await anyio.to_thread.run_sync(
                    functools.partial(_chunk_of, shown, selection, offset)
                )
        except ChartkitError as exc:
            raise ToolError(str(exc)) from None
        return mcp_types.CallToolResult(
            content=[mcp_types.TextContent(type="text", text=chunk_text(chunk))],
            structured_content=chunk,
        )

    return kept


def _chunk_of(shown: View, request: dict[str, Any], offset: int) -> dict[str, Any]:
    """The chunk a page asked for; a selection no row can be compared with is a
    ``ChartkitError`` saying so (a date past what a timestamp holds, a number past a float)."""
    try:
        return rows_chunk(shown, selection_of(shown, request), offset)
    except ChartkitError:
        raise
    except (ArithmeticError, ValueError, TypeError) as exc:
        said = cap_text(visible(str(exc).strip().splitlines()[0] if str(exc).strip() else ""), 200)
        raise ChartkitError(
            f"the selection {cap_text(visible(_json_text(request)), 200)} cannot be compared with "
            f"this chart's values ({type(exc).__name__}: {said or 'no detail'}); a datum or a "
            "brush must hold values of the chart's own range: dates from 1677-09-22 to "
            "2262-04-11, numbers within a 64-bit float. Brush inside the axis, or click a mark"
        ) from None


def _json_text(value: object) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, default=str)
    except (ValueError, RecursionError):  # an integer past Python's digit limit, a deep nest
        return f"(a {type(value).__name__} too large to quote)"


def session_of(ctx: Context[Any]) -> object | None:
    """The session a request belongs to: its connection's channel to the client (one per
    handshake session, one per stdio stream), or None where the protocol keeps none (a
    2026-07-28 request over an in-process or single-exchange HTTP entry: each request stands
    alone, and a chart's unguessable handle is all that names it).

    The SDK hands a tool its request's connection only through ``ServerSession``; read here, in
    one place.
    """
    try:
        connection = getattr(ctx.request_context.session, "_connection", None)
    except ValueError:  # a Context outside a request (a direct server.call_tool)
        return None
    if connection is None or not getattr(connection, "has_standalone_channel", False):
        return None
    outbound: object = connection.outbound
    return outbound


async def app_tools_for_apps_clients(
    ctx: ServerRequestContext[Any, Any], call_next: CallNext
) -> HandlerResult:
    """Server middleware: ``tools/list`` leaves out app-only tools (``_meta.ui.visibility`` of
    ``["app"]``) for a client that did not negotiate MCP Apps: no page of it can call them.

    ``chartkit mcp`` installs it; a server built with ``chart_tool`` adds it with
    ``server.middleware.append(app_tools_for_apps_clients)``. The tools refuse such a client's
    calls either way.
    """
    result = await call_next(ctx)
    if ctx.method != "tools/list" or not isinstance(result, dict) or client_supports_apps(ctx):
        return result
    tools = result.get("tools")
    if isinstance(tools, list):
        result = {**result, "tools": [t for t in tools if not _app_only(t)]}
    return result


def _app_only(tool: object) -> bool:
    meta = tool.get("_meta") if isinstance(tool, dict) else None
    ui = meta.get("ui") if isinstance(meta, dict) else None
    return isinstance(ui, dict) and ui.get("visibility") == ["app"]


def tool_result(
    shown: View,
    *,
    rows: object = None,
    include_rows: bool = True,
    for_app: bool = True,
    kept: KeptViews | None = None,
    session: object = None,
) -> mcp_types.CallToolResult:
    """The ``CallToolResult`` for a View: its payload for the page, text for the model.

    ``rows`` are the rows as the tool returned them, written after the summary when
    ``include_rows`` and the result was not refused. ``for_app=False`` (a client without MCP
    Apps) leaves ``structuredContent`` out: the text is the whole answer. When the View is a
    table, the page also gets the first ``TABLE_ROWS`` rows under ``_meta["chartkit/rows"]``
    (kept out of the model's context, like the payload), so a host shows the table itself.
    A chart answered to an MCP Apps client is kept in ``kept`` for ``session``
    (``session_of``; never a refused View), and its handle goes to the page under
    ``_meta["chartkit/drill"]`` for ``ROWS_BEHIND_TOOL``. A refused View is a tool error
    (``isError``): the call failed, and the text says why.
    """
    blocks = [mcp_types.TextContent(type="text", text=summary(shown))]
    if include_rows and shown.kind != "refused":
        blocks.append(mcp_types.TextContent(type="text", text=rows_json(rows)))
    meta: dict[str, Any] | None = None
    if for_app and shown.kind == "table" and rows is not None:
        meta = {ROWS_META_KEY: _table_rows(rows)}
    handle = kept.keep(shown, session=session) if for_app and kept is not None else None
    if handle is not None:
        meta = {DRILL_META_KEY: {"chart": handle, "tool": ROWS_BEHIND_TOOL}}
    return mcp_types.CallToolResult(
        content=list(blocks),
        structured_content=shown.to_dict() if for_app else None,
        _meta=meta,
        is_error=shown.kind == "refused",
    )


def _table_rows(rows: object) -> dict[str, Any]:
    """The first ``TABLE_ROWS`` rows as JSON values, and how many there are in all."""
    try:
        total = len(rows)  # type: ignore[arg-type]
    except TypeError:
        total = None
    head: object
    if isinstance(rows, list | tuple):
        head = list(rows[:TABLE_ROWS])
    elif callable(getattr(rows, "head", None)):
        head = rows.head(TABLE_ROWS)  # type: ignore[attr-defined]
    else:
        head = rows
    records = json.loads(rows_json(head))
    if isinstance(records, list):
        records = [_capped(r) if isinstance(r, dict) else r for r in records]
    return {"rows": records, "total": total}


def _capped(row: dict[str, Any]) -> dict[str, Any]:
    """A row for display: a cell longer than ``CELL_CHARS`` (as text) cut, with an ellipsis."""
    out: dict[str, Any] = {}
    for key, value in row.items():
        shown = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        if len(shown) > CELL_CHARS:
            value = f"{shown[: CELL_CHARS - 1]}… ({len(shown):,} characters)"
        out[key] = value
    return out


def summary(shown: View) -> str:
    """What the model reads about a View: the refusal alone, or the verdict and every detail.

    >>> print(summary(view([{"k": "a", "v": 1.0}, {"k": "b", "v": 2.0}],
    ...                    {"k": "string", "v": "number"}, tool="t")))  # doctest: +ELLIPSIS
    chartkit drew a bar chart of t (2 rows) — ...
    """
    if shown.kind == "refused":
        return shown.reason  # the refusal sentence, and nothing of the rows
    rows = _count(shown.result.rows)
    if shown.kind == "chart":
        head = f"chartkit drew {chart_of(shown.mark)} of {shown.result.tool}{rows}"
    else:
        head = f"chartkit shows {shown.result.tool}{rows} as a table, not a chart"
    lines = [f"{head} — {shown.reason}"]
    for f in shown.check.findings:
        lines.append(f"Finding: {f.message}")
        listed = offenders_text(f.violation)  # the values a person needs to fix the tool
        if listed:
            lines.append(capitalized(offending_values(listed, name_list([f.column]))))
    lines += [capitalized(refused_axis(r.channel, r.reason)) for r in shown.refusals]
    lines += [f"Note: {n}" for n in shown.notes]
    return "\n".join(lines)


def _count(rows: object) -> str:
    if isinstance(rows, str | bytes | dict):
        return ""
    try:
        n = len(rows)  # type: ignore[arg-type]
    except TypeError:
        return ""
    return f" ({counted(n, 'row')})"


def rows_json(rows: object) -> str:
    """The rows as JSON text, as returned: lists as they are, a dataframe as its records."""
    if isinstance(rows, list | tuple | dict) or rows is None:
        text: str = pydantic_core.to_json(rows, fallback=str).decode("utf-8")
        return text
    to_json = getattr(rows, "to_json", None)
    if callable(to_json) and getattr(rows, "columns", None) is not None:
        try:  # pandas
            return str(to_json(orient="records", date_format="iso"))
        except TypeError:
            pass
    try:
        import narwhals as nw

        native: Any = rows
        records = nw.from_native(native, eager_only=True).rows(named=True)
    except TypeError:
        return json.dumps(str(rows))
    return pydantic_core.to_json(records, fallback=str).decode("utf-8")


def chart_tool(
    apps: Apps,
    result_columns: object,
    *,
    mode: CheckMode = "warn",
    name: str | None = None,
    title: str | None = None,
    description: str | None = None,
    meta: Mapping[str, Any] | None = None,
    visibility: Sequence[str] | None = None,
    x: str | None = None,
    y: str | None = None,
    color: str | None = None,
) -> Callable[[_F], _F]:
    """Register the decorated function as a tool of ``apps`` that answers its chartkit View.

    The declaration is checked now (a malformed one raises ``ResultColumnsError`` and no tool
    is registered) and rides the tool's ``_meta`` as ``resultColumns`` beside
    ``ui.resourceUri``; ``ui://chartkit/view.html`` and the app-only ``ROWS_BEHIND_TOOL`` are
    added to ``apps``. The function returns its rows (a list of dicts or a dataframe); each
    call is checked under ``mode`` and viewed (``x``, ``y``, ``color`` pick columns), and
    answered by ``tool_result``.

    Build the ``MCPServer(..., extensions=[apps])`` after every ``chart_tool``: the SDK reads
    an ``Apps``'s tools when the server is built.

    >>> apps = Apps()
    >>> @chart_tool(apps, {"lun": "integer"})
    ... def broken() -> list[dict[str, Any]]:
    ...     return []
    Traceback (most recent call last):
    ...
    chartkit.errors.ResultColumnsError: tool 'broken' declares column 'lun' as "integer"; \
use one of number, string, boolean, date (or leave the column undeclared)
    """

    def register(fn: _F) -> _F:
        tool = name or fn.__name__
        declared = assert_result_columns(tool, result_columns)
        bag = dict(meta or {})
        bag["resultColumns"] = {column: d.to_wire() for column, d in declared.items()}
        kept = add_rows_behind_tool(apps)
        wrapper = _answering_views(fn, tool, declared, kept=kept, mode=mode, x=x, y=y, color=color)
        apps.tool(
            resource_uri=VIEW_URI,
            visibility=list(visibility) if visibility is not None else None,  # type: ignore[arg-type]
            meta=bag,
            name=tool,
            title=title,
            description=description or inspect.getdoc(fn),
        )(wrapper)
        return fn

    return register


def _answering_views(
    fn: Callable[..., Any],
    tool: str,
    declared: object,
    *,
    kept: KeptViews,
    mode: CheckMode,
    x: str | None,
    y: str | None,
    color: str | None,
) -> Callable[..., Any]:
    """``fn`` with the same parameters, answering a ``CallToolResult`` built from its rows."""
    signature = inspect.signature(fn, eval_str=True)
    own_context = find_context_parameter(fn)
    parameters = list(signature.parameters.values())
    context_name = own_context or _CONTEXT
    if own_context is None:
        extra = inspect.Parameter(_CONTEXT, inspect.Parameter.KEYWORD_ONLY, annotation=Context)
        at = next(
            (i for i, p in enumerate(parameters) if p.kind is inspect.Parameter.VAR_KEYWORD),
            len(parameters),
        )
        parameters.insert(at, extra)
    is_async = inspect.iscoroutinefunction(fn)

    @functools.wraps(fn)
    async def answer(**kwargs: Any) -> mcp_types.CallToolResult:
        context = kwargs[context_name] if own_context else kwargs.pop(context_name)
        if is_async:
            rows = await fn(**kwargs)
        else:
            rows = await anyio.to_thread.run_sync(functools.partial(fn, **kwargs))
        result = ToolResult(tool=tool, rows=rows, result_columns=declared)  # type: ignore[arg-type]
        try:
            shown = await anyio.to_thread.run_sync(
                functools.partial(view, result, mode=mode, x=x, y=y, color=color)
            )
        except ChartkitError as exc:
            raise ToolError(str(exc)) from None
        return tool_result(
            shown,
            rows=rows,
            for_app=client_supports_apps(context),
            kept=kept,
            session=session_of(context),
        )

    answer.__signature__ = signature.replace(  # type: ignore[attr-defined]
        parameters=parameters, return_annotation=mcp_types.CallToolResult
    )
    answer.__annotations__ = {
        p.name: p.annotation for p in parameters if p.annotation is not inspect.Parameter.empty
    } | {"return": mcp_types.CallToolResult}
    return answer
