"""A real MCP server (stdio) serving chartkit's bundled example tools with their declarations.

Run it as an MCP server:          python -m chartkit.examples.mcp_server
With chartkit's UI on each tool:  python -m chartkit.examples.mcp_server --ui
(in a checkout, ``python examples/mcp_server.py`` is the same file). Call one of its tools:

    from chartkit import check_result
    from chartkit.mcp import call_tool_sync

    result = call_tool_sync("python -m chartkit.examples.mcp_server", "host_group_mappings")
    check_result(result, mode="warn").findings

Each bundled ``<stem>.json`` (``chartkit.example_names()``) becomes one tool named ``<stem>``
(the file stem, because two examples — ``host_group_mappings.json`` and ``missing_column.json``
— come from the same tool, ``host_group_mappings``; the example's own tool name opens the
description). A tool returns the example's rows exactly as recorded (``limit`` keeps the first
N), and its ``resultColumns`` ride the tool's ``_meta`` through ``chartkit.mcp.declare_tool``;
the undeclared example is served without one.

With ``--ui`` each declared tool is attached to chartkit's MCP App page instead
(``chartkit.mcp.apps.chart_tool``): a host that renders MCP Apps draws the checked chart inline,
and the model reads the verdict and the rows as text.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from mcp.server.apps import Apps
from mcp.server.mcpserver import MCPServer

from chartkit.bundled import EXAMPLES_DIR
from chartkit.mcp import declare_tool
from chartkit.mcp.apps import chart_tool

__all__ = ["EXAMPLES", "SERVER_NAME", "build_server", "main"]

EXAMPLES = EXAMPLES_DIR
"""The bundled example results, wherever chartkit is installed."""
SERVER_NAME = "chartkit-examples"


def _tool(rows: list[dict[str, Any]]) -> Any:
    def tool(limit: int | None = None) -> list[dict[str, Any]]:
        """Return the example's rows as recorded; ``limit`` keeps only the first N."""
        return rows if limit is None else rows[: max(limit, 0)]

    return tool


def build_server(examples: Path = EXAMPLES, *, ui: bool = False) -> MCPServer[Any]:
    """An MCPServer with one tool per example file, named after the file's stem.

    ``ui=True`` attaches chartkit's page to each declared tool (``chart_tool``).
    """
    apps = Apps()
    plain: list[tuple[Any, str, str]] = []
    declared_tools: list[tuple[Any, str, str, Any]] = []
    for path in sorted(examples.glob("*.json")):
        example = json.loads(path.read_text(encoding="utf-8"))
        fn = _tool(example["rows"])
        description = f"{example['tool']}: {example.get('description', '')}".strip()
        declared = example.get("resultColumns")
        if declared is None:
            plain.append((fn, path.stem, description))
        elif ui:
            chart_tool(apps, declared, name=path.stem, description=description)(fn)
        else:
            declared_tools.append((fn, path.stem, description, declared))
    # The SDK reads an Apps' tools when the server is built: every chart_tool comes first.
    server: MCPServer[Any] = MCPServer(
        SERVER_NAME,
        instructions="chartkit's bundled example tool results, each served as a tool.",
        log_level="WARNING",
        extensions=[apps] if ui else None,
    )
    for fn, name, description in plain:
        server.add_tool(fn, name=name, description=description)
    for fn, name, description, declared in declared_tools:
        declare_tool(server, declared, name=name, description=description)(fn)
    return server


def main(argv: list[str] | None = None) -> None:
    """Serve the bundled examples over stdio (``--ui``: each declared tool with the page)."""
    args = sys.argv[1:] if argv is None else argv
    unknown = [a for a in args if a != "--ui"]
    if unknown:
        sys.exit(f"mcp_server: unknown argument {unknown[0][:80]!r}; the only option is --ui")
    build_server(ui="--ui" in args).run("stdio")


if __name__ == "__main__":
    main()
