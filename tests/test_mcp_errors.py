"""MCP failures name the server and the tool on every path, and a hang says where it hung.

Real servers only: in-process ``MCPServer``s, a stdio server whose tool hangs, and commands
that never speak MCP at all. Timeouts are short: the hangs are real, the waits are not long.
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.server.mcpserver import MCPServer

from chartkit.mcp import MCPCallError, call_tool_sync, declare_tool, list_tools_sync

HANGING_TOOL_SERVER = """
import time
from typing import Any
from mcp.server.mcpserver import MCPServer

server = MCPServer("stuck-array", log_level="WARNING")


@server.tool()
def mappings() -> list[dict[str, Any]]:
    time.sleep(60)
    return []


server.run("stdio")
"""


def hanging_in_process() -> MCPServer[Any]:
    server: MCPServer[Any] = MCPServer("slow-array")

    @declare_tool(server, {"lun": "number"})
    async def mappings() -> list[dict[str, Any]]:
        await anyio.sleep(60)
        return []

    return server


def test_a_tool_that_hangs_on_a_healthy_server_is_named_and_the_server_said_up() -> None:
    with pytest.raises(MCPCallError) as raised:
        call_tool_sync(hanging_in_process(), "mappings", timeout=0.5)
    assert str(raised.value) == (
        "MCP tool 'mappings' on server 'slow-array' did not answer within 0.5 s. The server is "
        "up — it answered the handshake and listed its tools — so the tool itself hangs or is "
        "slow; pass a longer timeout, or fix the tool."
    )
    assert (raised.value.server, raised.value.tool) == ("slow-array", "mappings")


def test_a_tool_that_hangs_over_stdio_is_told_apart_from_a_server_that_never_started(
    tmp_path: Path,
) -> None:
    script = tmp_path / "stuck_server.py"
    script.write_text(HANGING_TOOL_SERVER, encoding="utf-8")
    # The timeout covers the server's start too: 20 s lets a loaded 2-core machine (several
    # test runs at once) start Python and the SDK, where 5 s once ran out before the handshake.
    with pytest.raises(MCPCallError) as hung:
        call_tool_sync([sys.executable, str(script)], "mappings", timeout=20)
    assert str(hung.value) == (
        "MCP tool 'mappings' on server 'stuck-array' did not answer within 20 s. The server is "
        "up — it answered the handshake and listed its tools — so the tool itself hangs or is "
        "slow; pass a longer timeout, or fix the tool."
    )
    silent = [sys.executable, "-c", "import time; time.sleep(60)"]
    with pytest.raises(MCPCallError) as never:
        call_tool_sync(silent, "mappings", timeout=1)
    assert str(never.value) == (
        f"MCP server {shlex.join(silent)!r} did not start within 1 s: it never answered the MCP "
        "handshake (initialize), so tool 'mappings' was not called. Check that the command "
        "starts an MCP server over stdio, or pass a longer timeout."
    )
    assert (never.value.server, never.value.tool) == (shlex.join(silent), "mappings")


def test_a_server_that_hangs_listing_its_tools_says_so() -> None:
    server = hanging_in_process()

    async def never() -> list[Any]:
        await anyio.sleep(60)
        return []

    server.list_tools = never  # type: ignore[method-assign]
    with pytest.raises(MCPCallError) as raised:
        call_tool_sync(server, "mappings", timeout=0.5)
    assert str(raised.value) == (
        "MCP server 'slow-array' started but did not list its tools within 0.5 s, so tool "
        "'mappings' was not called; the server hangs in tools/list, or pass a longer timeout."
    )
    with pytest.raises(MCPCallError) as listing:
        list_tools_sync(server, timeout=0.5)
    assert str(listing.value) == (
        "MCP server 'slow-array' started but did not list its tools within 0.5 s; the server "
        "hangs in tools/list, or pass a longer timeout."
    )
    assert listing.value.tool is None  # no tool was asked for


def test_every_failure_before_the_call_names_the_tool_too(tmp_path: Path) -> None:
    missing = str(tmp_path / "no-such-server")
    with pytest.raises(MCPCallError) as cannot:
        call_tool_sync([missing], "mappings", timeout=5)
    assert str(cannot.value) == (
        f"could not start the MCP server {missing!r}: No such file or directory ({missing!r}); "
        "check the command line. The call to tool 'mappings' was not made."
    )
    exits = [sys.executable, "-c", "import sys; sys.exit('no array configured')"]
    with pytest.raises(MCPCallError) as died:
        call_tool_sync(exits, "mappings", timeout=5)
    assert str(died.value) == (
        f"MCP server {shlex.join(exits)!r} closed the connection while starting up — the server "
        "process exited, or wrote something other than MCP messages to its stdout. Run its "
        "command by hand to see why. Its stderr ended with: 'no array configured'. The call to "
        "tool 'mappings' was not made."
    )
    for error in (cannot.value, died.value):
        assert error.tool == "mappings"
    with pytest.raises(MCPCallError) as unknown:
        call_tool_sync(hanging_in_process(), "mapings", timeout=5)
    assert str(unknown.value) == (
        "MCP server 'slow-array' has no tool 'mapings'; it lists 'mappings'. Call one of those."
    )
    assert unknown.value.tool == "mapings"


def test_what_a_failing_tool_says_is_quoted_capped() -> None:
    from mcp.server.mcpserver.exceptions import ToolError

    server: MCPServer[Any] = MCPServer("verbose")

    @declare_tool(server, {"lun": "number"})
    def mappings() -> list[dict[str, Any]]:
        raise ToolError("array offline " + "x" * 100_000)

    with pytest.raises(MCPCallError) as raised:
        call_tool_sync(server, "mappings", timeout=5)
    message = str(raised.value)
    assert message.startswith(
        "MCP tool 'mappings' on server 'verbose' answered with an error: Error executing tool "
        "mappings: array offline xxx"
    )
    assert message.endswith("x…. No rows were read; fix the tool or call it with other arguments.")
    assert len(message) < 500
