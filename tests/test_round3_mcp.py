"""``chartkit mcp`` and ``chart_tool`` by MCP's conventions: issue 38, items 8, 10, 11, 13, 14.

Real servers and the SDK's own client: ``chartkit mcp`` as a subprocess over stdio, and
in-process servers driven by ``mcp.Client`` (two clients on one server for the sessions).
"""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from typing import Any

import anyio
import mcp
import mcp.types as mcp_types
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp.client.extension import advertise
from mcp.client.stdio import stdio_client
from mcp.server.apps import APP_MIME_TYPE, EXTENSION_ID, Apps
from mcp.server.mcpserver import MCPServer

import chartkit.mcp._app_rows as app_rows
import chartkit.mcp.server as chart_server
from chartkit import view
from chartkit._version import __version__
from chartkit.mcp.apps import (
    DRILL_META_KEY,
    ROWS_BEHIND_TOOL,
    app_tools_for_apps_clients,
    chart_tool,
)

APPS = [advertise(EXTENSION_ID, {"mimeTypes": [APP_MIME_TYPE]})]
DECLARED = {"region": "string", "p95_ms": "number"}
ROWS = [
    {"region": "eu", "p95_ms": 41.5},
    {"region": "eu", "p95_ms": 12.5},
    {"region": "us", "p95_ms": 77.25},
]
BROKEN = [*ROWS, {"region": "ap", "p95_ms": "n/a"}]
UNKNOWN_HANDLE = (
    f"Error executing tool {ROWS_BEHIND_TOOL}: no chart is kept under this handle: the server "
    f"keeps the last {app_rows.KEPT_VIEWS} charts it drew for MCP Apps pages, and never a "
    "refused result; draw the chart again (call its tool) and select on the new one"
)
APPS_ONLY = (
    f"Error executing tool {ROWS_BEHIND_TOOL}: {ROWS_BEHIND_TOOL} answers MCP Apps pages only, "
    f"and this client did not negotiate MCP Apps (extension {EXTENSION_ID} with mimeTypes "
    f"['{APP_MIME_TYPE}']); the rows a chart was drawn from are for the page that shows it"
)


@pytest.fixture(autouse=True)
def _quiet_findings(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.ERROR, logger="chartkit")


def over_stdio(conversation: Any, *, apps: bool = True) -> Any:
    """Run ``conversation(client)`` against a real ``chartkit mcp`` subprocess."""

    async def go() -> Any:
        params = mcp.StdioServerParameters(command=sys.executable, args=["-m", "chartkit", "mcp"])
        transport = stdio_client(params, errlog=sys.stderr)  # type: ignore[arg-type]
        async with mcp.Client(transport, extensions=APPS if apps else None) as client:
            return await conversation(client)

    return anyio.run(go)


def in_process(server: MCPServer[Any], conversation: Any, *, apps: bool = True) -> Any:
    async def go() -> Any:
        async with mcp.Client(server, extensions=APPS if apps else None) as client:
            return await conversation(client)

    return anyio.run(go)


def handle_of(answer: mcp_types.CallToolResult) -> str:
    assert answer.meta is not None
    handle: str = answer.meta[DRILL_META_KEY]["chart"]
    return handle


# -- item 14: MCP's conventions ----------------------------------------------------------------


def test_the_server_says_chartkits_version_and_hides_the_pages_tool_from_a_plain_client() -> None:
    async def conversation(client: mcp.Client) -> Any:
        return client.server_info, [t.name for t in (await client.list_tools()).tools]

    (info, plain), (_, with_apps) = over_stdio(conversation, apps=False), over_stdio(conversation)
    assert (info.name, info.version) == ("chartkit", __version__)
    assert plain == ["chart_rows", "chart_file"]  # no page of this client can call it
    assert sorted(with_apps) == sorted(["chart_rows", "chart_file", ROWS_BEHIND_TOOL])


def test_an_enforce_refusal_is_a_tool_error_from_chart_rows() -> None:
    async def conversation(client: mcp.Client) -> Any:
        arguments = {"rows": BROKEN, "resultColumns": DECLARED, "mode": "enforce", "tool": "p95"}
        return await client.call_tool("chart_rows", arguments)

    for apps in (False, True):
        refused = over_stdio(conversation, apps=apps)
        assert refused.is_error is True
        (block,) = refused.content
        assert isinstance(block, mcp_types.TextContent)
        assert block.text.startswith("Result rejected: p95 returned rows that disagree")


def test_an_enforce_refusal_is_a_tool_error_from_a_chart_tool_and_a_pass_is_not() -> None:
    apps = Apps()
    answers = {"rows": BROKEN}

    @chart_tool(apps, DECLARED, mode="enforce")
    def latency() -> list[dict[str, Any]]:
        return answers["rows"]

    server = MCPServer("latency", extensions=[apps])

    async def conversation(client: mcp.Client) -> Any:
        refused = await client.call_tool("latency", {})
        answers["rows"] = ROWS
        return refused, await client.call_tool("latency", {})

    refused, passed = in_process(server, conversation)
    assert refused.is_error is True
    assert refused.structured_content["kind"] == "refused"
    assert passed.is_error is False and passed.structured_content["kind"] == "chart"


def test_a_chart_tool_server_hides_the_pages_tool_with_the_middleware() -> None:
    apps = Apps()

    @chart_tool(apps, DECLARED)
    def latency() -> list[dict[str, Any]]:
        return ROWS

    server = MCPServer("latency", extensions=[apps])
    server.middleware.append(app_tools_for_apps_clients)

    async def conversation(client: mcp.Client) -> list[str]:
        return [t.name for t in (await client.list_tools()).tools]

    assert in_process(server, conversation, apps=False) == ["latency"]
    assert sorted(in_process(server, conversation)) == sorted(["latency", ROWS_BEHIND_TOOL])


# -- item 10: a handle answers its own session, and MCP Apps clients only ----------------------


def test_a_handle_answers_only_the_session_it_was_drawn_for() -> None:
    """Two handshake sessions on one server: each reaches its own chart, never the other's."""
    server = chart_server.build_server()

    async def go() -> Any:
        async with (
            mcp.Client(server, extensions=APPS, mode="legacy") as first,
            mcp.Client(server, extensions=APPS, mode="legacy") as second,
            mcp.Client(server, mode="legacy") as plain,
        ):
            arguments = {"rows": ROWS, "resultColumns": DECLARED}
            handle = handle_of(await first.call_tool("chart_rows", arguments))
            asked = {"chart": handle, "selection": {"datum": {"region": "eu"}}}
            own = await first.call_tool(ROWS_BEHIND_TOOL, asked)
            other = await second.call_tool(ROWS_BEHIND_TOOL, asked)
            without_apps = await plain.call_tool(ROWS_BEHIND_TOOL, asked)
            still = await first.call_tool(ROWS_BEHIND_TOOL, asked)
            return own, other, without_apps, still

    own, other, without_apps, still = anyio.run(go)
    assert own.is_error is False and own.structured_content["total"] == 2
    assert (other.is_error, other.content[0].text) == (True, UNKNOWN_HANDLE)
    assert (without_apps.is_error, without_apps.content[0].text) == (True, APPS_ONLY)
    assert "41.5" not in json.dumps(other.model_dump(mode="json"))
    assert "41.5" not in json.dumps(without_apps.model_dump(mode="json"))
    assert still.is_error is False  # a stranger's try does not drop the chart


def test_a_plain_client_calling_the_pages_tool_by_name_over_stdio_is_refused() -> None:
    async def conversation(client: mcp.Client) -> Any:
        return await client.call_tool(
            ROWS_BEHIND_TOOL, {"chart": "x" * 24, "selection": {"leftOut": True}}
        )

    refused = over_stdio(conversation, apps=False)
    assert (refused.is_error, refused.content[0].text) == (True, APPS_ONLY)


# -- item 8: the kept charts are capped by bytes -----------------------------------------------


def wide_rows(n: int, tag: str) -> list[dict[str, Any]]:
    return [{"region": f"{tag}{i % 5}", "p95_ms": float(i), "owner": "x" * 200} for i in range(n)]


def test_the_kept_charts_are_capped_by_their_bytes_oldest_dropped_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    one = app_rows.weight_of(view(wide_rows(2000, "a"), DECLARED, tool="p95"))
    assert one > 2000 * 200  # the text the rows hold is counted, not just their number
    monkeypatch.setattr(app_rows, "KEPT_BYTES", int(one * 2.5))  # two charts fit, not three
    server = chart_server.build_server()

    async def conversation(client: mcp.Client) -> Any:
        handles = []
        for tag in ("a", "b", "c"):
            drawn = await client.call_tool(
                "chart_rows", {"rows": wide_rows(2000, tag), "resultColumns": DECLARED}
            )
            handles.append(handle_of(drawn))
        return [
            await client.call_tool(
                ROWS_BEHIND_TOOL, {"chart": h, "selection": {"datum": {"region": f"{tag}0"}}}
            )
            for h, tag in zip(handles, "abc", strict=True)
        ]

    oldest, second, newest = in_process(server, conversation)
    assert (oldest.is_error, oldest.content[0].text) == (True, UNKNOWN_HANDLE)
    assert second.is_error is False and second.structured_content["total"] == 400
    assert newest.is_error is False and newest.structured_content["total"] == 400


def test_a_chart_heavier_than_the_byte_cap_alone_is_drawn_but_not_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(app_rows, "KEPT_BYTES", 10_000)
    server = chart_server.build_server()

    async def conversation(client: mcp.Client) -> Any:
        return await client.call_tool(
            "chart_rows", {"rows": wide_rows(500, "a"), "resultColumns": DECLARED}
        )

    drawn = in_process(server, conversation)
    assert drawn.is_error is False and drawn.structured_content["kind"] == "chart"
    assert DRILL_META_KEY not in (drawn.meta or {})


# -- item 11: extreme selections are answered, or refused saying why ---------------------------

DATED = [
    {"day": "2024-03-01", "p95_ms": 1.0},
    {"day": "2024-03-02", "p95_ms": 2.0},
    {"day": "2024-03-05", "p95_ms": 3.0},
]
EXTREME_DATES = st.sampled_from(
    ["1000-01-01", "0001-01-01", "9999-12-31", "1677-09-21", "2262-04-12", "2024-03-02"]
)
EXTREME_NUMBERS = st.one_of(
    st.sampled_from([0, 1e300, -1e300, 1.7976931348623157e308, 10**400, -(10**400), 10**30]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.integers(min_value=-(10**500), max_value=10**500),
)
SELECTIONS = st.one_of(
    st.builds(lambda a, b: {"interval": {"day": [a, b]}}, EXTREME_DATES, EXTREME_DATES),
    st.builds(lambda a, b: {"interval": {"day": [a, b]}}, EXTREME_NUMBERS, EXTREME_NUMBERS),
    st.builds(lambda a, b: {"interval": {"p95_ms": [a, b]}}, EXTREME_NUMBERS, EXTREME_NUMBERS),
    st.builds(lambda n: {"datum": {"day": "2024-03-01", "p95_ms": n}}, EXTREME_NUMBERS),
    st.builds(lambda n: {"datum": {"day": n}}, EXTREME_NUMBERS),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(selection=SELECTIONS)
def test_an_extreme_selection_is_answered_or_refused_saying_why(
    selection: dict[str, Any],
) -> None:
    server = chart_server.build_server()

    async def conversation(client: mcp.Client) -> Any:
        drawn = await client.call_tool(
            "chart_rows", {"rows": DATED, "resultColumns": {"day": "date", "p95_ms": "number"}}
        )
        return await client.call_tool(
            ROWS_BEHIND_TOOL, {"chart": handle_of(drawn), "selection": selection}
        )

    answer = in_process(server, conversation)
    (block,) = answer.content
    assert isinstance(block, mcp_types.TextContent)
    if answer.is_error:
        prefix = f"Error executing tool {ROWS_BEHIND_TOOL}: "
        assert block.text.startswith(prefix) and len(block.text) > len(prefix) + 20
        assert len(block.text) < 2000  # what the selection held is quoted capped
    else:
        assert 0 <= answer.structured_content["total"] <= len(DATED)


def test_the_brush_of_issue_38_says_why_it_is_refused() -> None:
    server = chart_server.build_server()

    async def conversation(client: mcp.Client) -> Any:
        drawn = await client.call_tool(
            "chart_rows", {"rows": DATED, "resultColumns": {"day": "date", "p95_ms": "number"}}
        )
        selection = {"interval": {"day": ["1000-01-01", "9999-12-31"]}}
        return await client.call_tool(
            ROWS_BEHIND_TOOL, {"chart": handle_of(drawn), "selection": selection}
        )

    answer = in_process(server, conversation)
    assert answer.is_error is True
    assert answer.content[0].text.startswith(
        f"Error executing tool {ROWS_BEHIND_TOOL}: the selection "
        '{"interval": {"day": ["1000-01-01", "9999-12-31"]}} cannot be compared with this '
        "chart's values (OutOfBoundsDatetime: "
    )
    assert answer.content[0].text.endswith(
        "a datum or a brush must hold values of the chart's own range: dates from 1677-09-22 "
        "to 2262-04-11, numbers within a 64-bit float. Brush inside the axis, or click a mark"
    )


# -- item 13: a line the SDK cannot read is answered ------------------------------------------


def test_a_request_holding_a_lone_surrogate_gets_a_json_rpc_error_over_stdio() -> None:
    lines = [
        '{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"_meta":{"x":"\\ud800"}}}',
        "not json at all",
        '{"jsonrpc":"2.0","method":"notifications/x","params":{"x":"\\udfff"}}',  # no answer
        '{"jsonrpc":"2.0","id":"eight"}',
    ]
    done = subprocess.run(
        [sys.executable, "-m", "chartkit", "mcp"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    replies = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    assert replies == [
        {
            "jsonrpc": "2.0",
            "id": 7,
            "error": {
                "code": -32700,
                "message": "Parse error: the message holds a lone UTF-16 surrogate (such as "
                "\\ud800), which is not Unicode text, so it was not read; send each character "
                "as UTF-8 or as a surrogate pair",
            },
        },
        {
            "jsonrpc": "2.0",
            "id": None,
            "error": {
                "code": -32700,
                "message": "Parse error: the message is not JSON; send one JSON-RPC message a line",
            },
        },
        {
            "jsonrpc": "2.0",
            "id": "eight",
            "error": {
                "code": -32600,
                "message": "Invalid Request: the message is JSON but not a JSON-RPC 2.0 request, "
                'notification or response; send jsonrpc "2.0", a method and an id',
            },
        },
    ]
