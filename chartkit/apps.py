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
  ``TABLE_ROWS`` rows for the page to show, each cell cut at ``CELL_CHARS`` characters.

The page is one self-contained HTML document (Vega, Vega-Lite, vega-embed and
vega-interpreter bundled; no network, no eval) built from ``web/`` by ``make web`` and shipped
as package data; ``view_html()`` reads it.
"""

from __future__ import annotations

import functools
import inspect
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar
from weakref import WeakSet

from chartkit._page import view_html
from chartkit.columns import assert_result_columns
from chartkit.errors import ChartkitError, MissingExtraError
from chartkit.integrity import CheckMode
from chartkit.result import ToolResult
from chartkit.view import View, view

try:
    import anyio.to_thread
    import mcp.types as mcp_types
    import pydantic_core
    from mcp.server.apps import APP_MIME_TYPE, EXTENSION_ID, Apps, client_supports_apps
    from mcp.server.mcpserver import Context
    from mcp.server.mcpserver.exceptions import ToolError
    from mcp.server.mcpserver.utilities.context_injection import find_context_parameter
except ImportError as _exc:  # pragma: no cover - only without the mcp extra
    raise MissingExtraError(
        f"chartkit.apps needs the MCP SDK 2.3 or newer, and importing it failed ({_exc}); "
        "install it with: pip install 'chartkit[mcp]'"
    ) from None

__all__ = [
    "APP_MIME_TYPE",
    "CELL_CHARS",
    "EXTENSION_ID",
    "ROWS_META_KEY",
    "TABLE_ROWS",
    "VIEW_URI",
    "add_view_resource",
    "chart_tool",
    "rows_json",
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

_F = TypeVar("_F", bound=Callable[..., Any])
_CONTEXT = "chartkit_context"  # the Context parameter chart_tool adds when the tool has none
_served: WeakSet[Apps] = WeakSet()


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


def tool_result(
    shown: View, *, rows: object = None, include_rows: bool = True, for_app: bool = True
) -> mcp_types.CallToolResult:
    """The ``CallToolResult`` for a View: its payload for the page, text for the model.

    ``rows`` are the rows as the tool returned them, written after the summary when
    ``include_rows`` and the result was not refused. ``for_app=False`` (a client without MCP
    Apps) leaves ``structuredContent`` out: the text is the whole answer. When the View is a
    table, the page also gets the first ``TABLE_ROWS`` rows under ``_meta["chartkit/rows"]``
    (kept out of the model's context, like the payload), so a host shows the table itself.
    """
    blocks = [mcp_types.TextContent(type="text", text=summary(shown))]
    if include_rows and shown.kind != "refused":
        blocks.append(mcp_types.TextContent(type="text", text=rows_json(rows)))
    meta = None
    if for_app and shown.kind == "table" and rows is not None:
        meta = {ROWS_META_KEY: _table_rows(rows)}
    return mcp_types.CallToolResult(
        content=list(blocks),
        structured_content=shown.to_dict() if for_app else None,
        _meta=meta,
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
        what = f"a {shown.mark} chart" if shown.mark else "a chart"
        head = f"chartkit drew {what} of {shown.result.tool}{rows}"
    else:
        head = f"chartkit shows {shown.result.tool}{rows} as a table, not a chart"
    lines = [f"{head} — {shown.reason}"]
    lines += [f"Finding: {f.message}" for f in shown.check.findings]
    lines += [f"Refused {r.channel} axis: {r.reason}" for r in shown.refusals]
    lines += [f"Note: {n}" for n in shown.notes]
    return "\n".join(lines)


def _count(rows: object) -> str:
    if isinstance(rows, str | bytes | dict):
        return ""
    try:
        n = len(rows)  # type: ignore[arg-type]
    except TypeError:
        return ""
    return f" ({n:,} row{'' if n == 1 else 's'})"


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
    ``ui.resourceUri``; ``ui://chartkit/view.html`` is added to ``apps``. The function returns
    its rows (a list of dicts or a dataframe); each call is checked under ``mode`` and viewed
    (``x``, ``y``, ``color`` pick columns), and answered by ``tool_result``.

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
        add_view_resource(apps)
        wrapper = _answering_views(fn, tool, declared, mode=mode, x=x, y=y, color=color)
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
        return tool_result(shown, rows=rows, for_app=client_supports_apps(context))

    answer.__signature__ = signature.replace(  # type: ignore[attr-defined]
        parameters=parameters, return_annotation=mcp_types.CallToolResult
    )
    answer.__annotations__ = {
        p.name: p.annotation for p in parameters if p.annotation is not inspect.Parameter.empty
    } | {"return": mcp_types.CallToolResult}
    return answer
