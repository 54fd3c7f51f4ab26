"""chartkit.mcp: resultColumns ride the tool's _meta over a real MCP SDK, in both directions.

In-process (``mcp.Client(server)``) and over stdio with ``examples/mcp_server.py``.
"""

from __future__ import annotations

import json
import re
import runpy
import shlex
import subprocess
import sys
import uuid
import warnings
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import anyio
import pytest
from mcp import Client
from mcp.server.mcpserver import MCPServer

from chartkit import (
    ChartkitError,
    ColumnDeclaration,
    ResultColumnsError,
    ToolResult,
    assert_result_columns,
    check_result,
    output_schema,
    result_columns_from,
)
from chartkit.mcp import (
    META_KEY,
    DeclarationConflictWarning,
    DeclarationDroppedWarning,
    ListedTool,
    MCPCallError,
    call_tool,
    call_tool_sync,
    declare_tool,
    list_tools,
    list_tools_sync,
    open_server,
    read_declarations,
    result_columns_meta,
)

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "app" / "examples"
SERVER_SCRIPT = ROOT / "examples" / "mcp_server.py"
STDIO = [sys.executable, str(SERVER_SCRIPT)]

T = TypeVar("T")

LUN_COLUMNS = {
    "logical_unit_number": "number",
    "host_group": "string",
    "comment": {"type": "string", "nullable": True},
}
LUN_ROWS = [
    {"logical_unit_number": "", "host_group": "vdi-a", "comment": None},
    {"logical_unit_number": 3, "host_group": "vdi-a", "comment": "boot"},
]


def run(fn: Callable[[], Awaitable[T]]) -> T:
    return anyio.run(fn)


def unique_server_name() -> str:
    """The warn-once memory is per (server, tool): each test speaks to a server of its own."""
    return f"foreign-{uuid.uuid4().hex[:8]}"


def example(stem: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((EXAMPLES / f"{stem}.json").read_text(encoding="utf-8"))
    return loaded


def example_server() -> MCPServer[Any]:
    built: MCPServer[Any] = runpy.run_path(str(SERVER_SCRIPT))["build_server"]()
    return built


def lun_server(name: str = "storage") -> MCPServer[Any]:
    server: MCPServer[Any] = MCPServer(name)

    @declare_tool(server, LUN_COLUMNS, description="The LUN mappings of a host group.")
    def host_group_mappings() -> list[dict[str, Any]]:
        return LUN_ROWS

    return server


# ------------------------------------------------------------------------------ serving


def test_declare_tool_puts_the_normalized_declaration_in_the_tools_meta() -> None:
    async def listed() -> Any:
        async with Client(lun_server()) as client:
            return (await client.list_tools()).tools

    (tool,) = run(listed)
    assert tool.name == "host_group_mappings"
    assert tool.description == "The LUN mappings of a host group."
    assert tool.meta == {
        "resultColumns": {
            "logical_unit_number": {"type": "number", "nullable": False},
            "host_group": {"type": "string", "nullable": False},
            "comment": {"type": "string", "nullable": True},
        }
    }


def test_declare_tool_refuses_a_malformed_declaration_at_definition_time() -> None:
    server: MCPServer[Any] = MCPServer("storage")
    expected = (
        "tool 'lun_report' declares column 'lun' as \"integer\"; use one of number, string, "
        "boolean, date (or leave the column undeclared)"
    )
    with pytest.raises(ResultColumnsError) as raised:

        @declare_tool(server, {"lun": "integer"})
        def lun_report() -> list[dict[str, Any]]:
            return []

    assert str(raised.value) == expected
    with pytest.raises(ResultColumnsError) as same:  # the very same function, the same words
        assert_result_columns("lun_report", {"lun": "integer"})
    assert str(same.value) == expected
    assert run(server.list_tools) == []  # nothing was registered


def test_declare_tool_with_a_name_checks_before_any_function_is_given() -> None:
    server: MCPServer[Any] = MCPServer("storage")
    with pytest.raises(ResultColumnsError) as raised:
        declare_tool(server, {"lun": {"type": "number", "nulable": True}}, name="lun_report")
    assert str(raised.value) == (
        "tool 'lun_report' declares column 'lun' with unknown key(s) \"nulable\"; the object "
        'form takes only "type" and "nullable"'
    )


def test_result_columns_meta_keeps_other_meta_and_refuses_a_second_declaration() -> None:
    assert result_columns_meta("t", {"lun": "number"}, {"owner": "storage-team"}) == {
        "owner": "storage-team",
        "resultColumns": {"lun": {"type": "number", "nullable": False}},
    }
    with pytest.raises(ResultColumnsError) as raised:
        result_columns_meta("t", {"lun": "number"}, {"resultColumns": {"lun": "number"}})
    assert str(raised.value) == (
        "tool 't' passes meta that already has 'resultColumns'; pass the declaration once, as "
        "result_columns, and leave it out of meta"
    )


# ------------------------------------------------------------------------------- ingest


def expected_declarations() -> dict[str, Any]:
    """What each example tool declares, normalized, by the tool name the example server uses."""
    out: dict[str, Any] = {}
    for path in sorted(EXAMPLES.glob("*.json")):
        wire = json.loads(path.read_text(encoding="utf-8"))
        declared = wire.get("resultColumns")
        out[path.stem] = (
            None if declared is None else dict(assert_result_columns(wire["tool"], declared))
        )
    return out


def test_the_declaration_round_trips_unchanged_in_process() -> None:
    async def read() -> dict[str, Any]:
        async with open_server(example_server()) as client:
            return await read_declarations(client)

    got = {name: None if cols is None else dict(cols) for name, cols in run(read).items()}
    assert got == expected_declarations()
    assert got["undeclared_result"] is None
    assert got["host_group_mappings"]["comment"] == ColumnDeclaration("string", nullable=True)


def test_the_declaration_round_trips_unchanged_over_stdio() -> None:
    tools = list_tools_sync(STDIO)
    got = {t.name: None if t.result_columns is None else dict(t.result_columns) for t in tools}
    assert got == expected_declarations()
    by_name = {t.name: t for t in tools}
    assert all(t.server == "chartkit-examples" for t in tools)
    # two examples come from the same tool; the server names them by file and says whose they are
    assert by_name["missing_column"].description is not None
    assert by_name["missing_column"].description.startswith("host_group_mappings: ")
    assert by_name["host_group_mappings"].declaration_error is None


def foreign_server(name: str) -> MCPServer[Any]:
    """A server this process does not control: it writes _meta by hand, malformed for one tool."""
    server: MCPServer[Any] = MCPServer(name)

    def lun_report() -> list[dict[str, Any]]:
        return [{"lun": 0}, {"lun": ""}]

    def volumes() -> list[dict[str, Any]]:
        return [{"volume": "vol-1", "size_gb": 8}]

    server.add_tool(lun_report, meta={"resultColumns": {"lun": "integer"}, "owner": "storage"})
    server.add_tool(volumes, meta={"resultColumns": {"volume": "string", "size_gb": "number"}})
    return server


def test_a_malformed_foreign_declaration_is_warned_about_once_and_dropped() -> None:
    name = unique_server_name()
    server = foreign_server(name)

    async def read_three_times() -> list[tuple[ListedTool, ...]]:
        async with open_server(server) as client:
            return [await list_tools(client) for _ in range(3)]

    with pytest.warns(DeclarationDroppedWarning) as record:
        readings = run(read_three_times)
    assert len(record) == 1
    assert str(record[0].message) == (
        f"MCP server {name!r} lists tool 'lun_report' with a resultColumns declaration chartkit "
        "cannot honour: tool 'lun_report' declares column 'lun' as \"integer\"; use one of "
        "number, string, boolean, date (or leave the column undeclared). The declaration is "
        "dropped and the tool is listed without it, so its rows are not checked and any chart "
        "of them uses inferred types; fix the declaration on the server."
    )
    for tools in readings:  # the tool still registers, without that one declaration
        by_name = {t.name: t for t in tools}
        assert set(by_name) == {"lun_report", "volumes"}
        assert by_name["lun_report"].result_columns is None
        assert by_name["lun_report"].declaration_error == (
            "tool 'lun_report' declares column 'lun' as \"integer\"; use one of number, string, "
            "boolean, date (or leave the column undeclared)"
        )
        assert by_name["volumes"].result_columns is not None

    with warnings.catch_warnings():  # a fresh connection to the same server: still not again
        warnings.simplefilter("error")
        declarations = run(read_declarations_of(server))
    assert declarations["lun_report"] is None
    assert declarations["volumes"] == {
        "volume": ColumnDeclaration("string"),
        "size_gb": ColumnDeclaration("number"),
    }


def read_declarations_of(server: MCPServer[Any]) -> Callable[[], Awaitable[dict[str, Any]]]:
    async def read() -> dict[str, Any]:
        async with open_server(server) as client:
            return await read_declarations(client)

    return read


def test_the_once_is_per_server_and_tool() -> None:
    with pytest.warns(DeclarationDroppedWarning) as record:
        run(read_declarations_of(foreign_server(unique_server_name())))
        run(read_declarations_of(foreign_server(unique_server_name())))
    assert len(record) == 2


def test_a_tool_whose_declaration_was_dropped_is_called_undeclared_and_not_checked() -> None:
    server = foreign_server(unique_server_name())

    async def call() -> ToolResult:
        async with open_server(server) as client:
            return await call_tool(client, "lun_report")

    with pytest.warns(DeclarationDroppedWarning):
        result = run(call)
    assert result.rows == [{"lun": 0}, {"lun": ""}]
    assert result.result_columns is None
    outcome = check_result(result, mode="warn")
    assert outcome.findings == ()
    assert [(r.check, r.not_applicable) for r in outcome.disposition] == [
        ("column-type-mismatch", 1),
        ("missing-column", 1),
    ]


# ------------------------------------------------------------------------------ calling


def findings(result: ToolResult, mode: Any = "warn") -> list[tuple[str, str, str]]:
    return [(f.kind, f.column, f.message) for f in check_result(result, mode=mode).findings]


def test_the_lun_tool_called_over_stdio_gives_the_same_findings_as_locally() -> None:
    local = ToolResult.from_wire(example("host_group_mappings"))
    remote = call_tool_sync(STDIO, "host_group_mappings", call_id=local.call_id)
    assert remote.rows == local.rows
    assert remote.result_columns == local.result_columns
    assert remote.call_id == "call-1"
    assert findings(remote) == findings(local)
    assert findings(remote, "enforce") == findings(local, "enforce")
    (kind, column, message) = findings(remote)[0]
    assert (kind, column) == ("column-type-mismatch", "logical_unit_number")
    assert message.startswith(
        "'host_group_mappings' declares column 'logical_unit_number' as number, and 166 of "
        '2,056 rows hold something else — the first is "" (string). This judges TYPE, never '
        "MEANING"
    )
    assert (
        check_result(remote, mode="enforce").refusal == check_result(local, mode="enforce").refusal
    )


def test_the_lun_tool_called_in_process_gives_the_same_findings_as_locally() -> None:
    async def call() -> ToolResult:
        async with open_server(lun_server()) as client:
            return await call_tool(client, "host_group_mappings", call_id="call-1")

    remote = run(call)
    local = ToolResult(
        "host_group_mappings", LUN_ROWS, result_columns=LUN_COLUMNS, call_id="call-1"
    )
    assert remote.rows == LUN_ROWS
    assert findings(remote) == findings(local)
    assert findings(remote)[0][2].startswith(
        "'host_group_mappings' declares column 'logical_unit_number' as number, and 1 of 2 rows "
        'hold something else — the first is "" (string).'
    )


def test_a_call_carries_the_declaration_description_and_a_fresh_call_id() -> None:
    result = call_tool_sync(example_server(), "missing_column", {"limit": 2})
    assert result.tool == "missing_column"
    assert result.rows == example("missing_column")["rows"][:2]
    assert result.description == (
        "host_group_mappings: " + example("missing_column")["description"]
    )
    assert result.result_columns == assert_result_columns(
        "missing_column", example("missing_column")["resultColumns"]
    )
    assert result.call_id is not None
    assert re.fullmatch(r"mcp-[0-9a-f]{12}", result.call_id)
    assert [f.kind for f in check_result(result, mode="warn").findings] == ["missing-column"]


def test_rows_are_read_from_json_text_when_there_is_no_structured_content() -> None:
    server: MCPServer[Any] = MCPServer("texts")

    @declare_tool(server, {"lun": "number"}, structured_output=False)
    def as_text_blocks() -> list[dict[str, Any]]:
        return [{"lun": 0}, {"lun": 7}]

    @declare_tool(server, {"lun": "number"})
    def as_json_string() -> str:
        return json.dumps([{"lun": 0}, {"lun": "7"}])

    async def call(tool: str) -> ToolResult:
        async with open_server(server) as client:
            return await call_tool(client, tool)

    assert run(lambda: call("as_text_blocks")).rows == [{"lun": 0}, {"lun": 7}]
    as_string = run(lambda: call("as_json_string"))
    assert as_string.rows == [{"lun": 0}, {"lun": "7"}]
    assert [f.column for f in check_result(as_string, mode="warn").findings] == ["lun"]


ONE_ROW_SERVER = """
from typing import Any
from mcp.server.mcpserver import MCPServer
from chartkit.mcp import declare_tool

server = MCPServer("one-row")
ROW = {"logical_unit_number": "", "host_group": "vdi-a"}
COLUMNS = {"logical_unit_number": "number", "host_group": "string"}


def lun_unannotated():
    return [ROW]


def lun_two_unannotated():
    return [ROW, {"logical_unit_number": 3, "host_group": "vdi-a"}]


def lun_none_unannotated():
    return []


def summary_unannotated():
    return {"host_group": "vdi-a", "luns": 2}


def summary_annotated() -> dict[str, Any]:
    return {"host_group": "vdi-a", "luns": 2}


def summary_declared_unannotated():
    return {"host_group": "vdi-a", "luns": 2}


declare_tool(server, COLUMNS)(lun_unannotated)
declare_tool(server, COLUMNS)(lun_two_unannotated)
declare_tool(server, COLUMNS)(lun_none_unannotated)
server.add_tool(summary_unannotated)
declare_tool(server, {"host_group": "string", "luns": "number"})(summary_annotated)
declare_tool(server, {"host_group": "string", "luns": "number"})(summary_declared_unannotated)

if __name__ == "__main__":
    server.run("stdio")
"""

ONE_LUN_ROW = {"logical_unit_number": "", "host_group": "vdi-a"}
ONE_ROW_COLUMNS = {"logical_unit_number": "number", "host_group": "string"}


def one_row_script(tmp_path: Path) -> Path:
    script = tmp_path / "one_row_server.py"
    script.write_text(ONE_ROW_SERVER, encoding="utf-8")
    return script


def one_row_server(tmp_path: Path, transport: str = "in-process") -> Any:
    """The server in-process (an ``MCPServer``), or the command line that runs it over stdio."""
    script = one_row_script(tmp_path)
    if transport == "stdio":
        return [sys.executable, str(script)]
    built: MCPServer[Any] = runpy.run_path(str(script))["server"]
    return built


def test_a_one_row_list_without_an_annotation_reaches_the_sdk_as_one_bare_object(
    tmp_path: Path,
) -> None:
    """The reason for the rule below: the wire cannot tell a one-row list from a lone object."""

    async def answers() -> tuple[Any, Any]:
        async with Client(one_row_server(tmp_path)) as client:
            one_row = await client.call_tool("lun_unannotated", {})
            lone = await client.call_tool("summary_unannotated", {})
            return one_row, lone

    one_row, lone = run(answers)
    assert one_row.structured_content is None and lone.structured_content is None
    assert [json.loads(b.text) for b in one_row.content] == [ONE_LUN_ROW]
    assert [json.loads(b.text) for b in lone.content] == [{"host_group": "vdi-a", "luns": 2}]


@pytest.mark.parametrize("transport", ["in-process", "stdio"])
def test_a_one_row_list_from_a_declared_tool_is_delivered_as_sent_and_refused_when_armed(
    transport: str, tmp_path: Path
) -> None:
    server = one_row_server(tmp_path, transport)
    remote = call_tool_sync(server, "lun_unannotated", call_id="call-1")
    local = ToolResult(
        "lun_unannotated", [ONE_LUN_ROW], result_columns=ONE_ROW_COLUMNS, call_id="call-1"
    )
    assert remote.rows == ONE_LUN_ROW and remote.one_row_ambiguous  # the object, as sent
    assert check_result(remote, mode="off").delivered is remote.rows
    assert findings(remote, "warn") == findings(local, "warn")
    assert findings(remote, "enforce") == findings(local, "enforce")
    remote_outcome = check_result(remote, mode="enforce")
    assert remote_outcome.status == "invalid"
    assert remote_outcome.refusal == check_result(local, mode="enforce").refusal
    assert remote_outcome.refusal == (
        "Result rejected: lun_unannotated returned rows that disagree with the columns it "
        "declares — 'logical_unit_number' is declared number and 1 of 1 rows hold string "
        '(first: ""). Fix the tool so the column holds what it declares, or change the '
        "declaration. No data was returned."
    )
    assert remote_outcome.delivered == remote_outcome.refusal  # the rows never pass


def call_both(server: Any, first: str, second: str) -> tuple[ToolResult, ToolResult]:
    """Call two tools of one server over one connection."""

    async def calls() -> tuple[ToolResult, ToolResult]:
        async with open_server(server) as client:
            listing = await list_tools(client)
            a = await call_tool(client, first, tools=listing)
            b = await call_tool(client, second, tools=listing)
            return a, b

    return run(calls)


@pytest.mark.parametrize("transport", ["in-process", "stdio"])
def test_text_blocks_give_a_list_of_as_many_rows_as_the_tool_returned(
    transport: str, tmp_path: Path
) -> None:
    two, none = call_both(
        one_row_server(tmp_path, transport), "lun_two_unannotated", "lun_none_unannotated"
    )
    assert two.rows == [ONE_LUN_ROW, {"logical_unit_number": 3, "host_group": "vdi-a"}]
    assert none.rows == []


@pytest.mark.parametrize("transport", ["in-process", "stdio"])
def test_a_tool_returning_a_single_object_still_gives_the_object(
    transport: str, tmp_path: Path
) -> None:
    undeclared, annotated = call_both(
        one_row_server(tmp_path, transport), "summary_unannotated", "summary_annotated"
    )
    assert undeclared.result_columns is None
    assert undeclared.rows == {"host_group": "vdi-a", "luns": 2}
    assert annotated.result_columns is not None  # declared, and its structured content is exact
    assert annotated.rows == {"host_group": "vdi-a", "luns": 2}


def erring_server() -> MCPServer[Any]:
    server: MCPServer[Any] = MCPServer("erring")

    @declare_tool(server, {"lun": "number"})
    def boom() -> list[dict[str, Any]]:
        raise ValueError("the array did not answer")

    @declare_tool(server, {"lun": "number"})
    def prose() -> str:
        return "LUN 0 is mapped to vdi-a"

    return server


def call_erring(tool: str) -> ToolResult:
    async def call() -> ToolResult:
        async with open_server(erring_server()) as client:
            return await call_tool(client, tool)

    return run(call)


def test_a_tool_error_is_a_chartkit_error_naming_the_tool_and_server() -> None:
    with pytest.raises(MCPCallError) as raised:
        call_erring("boom")
    assert isinstance(raised.value, ChartkitError)
    assert str(raised.value) == (
        "MCP tool 'boom' on server 'erring' answered with an error: Error executing tool boom. "
        "No rows were read; fix the tool or call it with other arguments."
    )
    assert (raised.value.server, raised.value.tool) == ("erring", "boom")


def test_a_non_json_answer_is_a_chartkit_error() -> None:
    with pytest.raises(MCPCallError) as raised:
        call_erring("prose")
    assert str(raised.value) == (
        "MCP tool 'prose' on server 'erring' answered text that is not JSON ('LUN 0 is mapped "
        "to vdi-a': Expecting value at line 1 column 1); chartkit reads rows from structured "
        "content or JSON text, so make the tool return a list of objects."
    )


def test_an_unknown_tool_is_a_chartkit_error_listing_the_tools() -> None:
    with pytest.raises(MCPCallError) as raised:
        call_erring("prose_v2")
    assert str(raised.value) == (
        "MCP server 'erring' has no tool 'prose_v2'; it lists 'boom', 'prose'. Call one of those."
    )


DYING_SERVER = """
import os, sys
from typing import Any
from mcp.server.mcpserver import MCPServer
server = MCPServer("dying")

@server.tool()
def die() -> list[dict[str, Any]]:
    print("the array driver crashed", file=sys.stderr, flush=True)
    os._exit(7)

server.run("stdio")
"""


def test_a_server_that_dies_during_a_call_is_a_chartkit_error(tmp_path: Path) -> None:
    script = tmp_path / "dying_server.py"
    script.write_text(DYING_SERVER, encoding="utf-8")
    with pytest.raises(MCPCallError) as raised:
        call_tool_sync([sys.executable, str(script)], "die")
    assert str(raised.value) == (
        "MCP server 'dying' closed the connection while calling tool 'die' — the server process "
        "exited, or wrote something other than MCP messages to its stdout. Run its command by "
        "hand to see why. Its stderr ended with: 'the array driver crashed'."
    )
    assert raised.value.__cause__ is None
    assert raised.value.__suppress_context__


def test_a_server_that_exits_at_once_is_a_chartkit_error(tmp_path: Path) -> None:
    command = [sys.executable, "-c", "import sys; sys.exit('no array configured')"]
    with pytest.raises(MCPCallError) as raised:
        list_tools_sync(command)
    assert str(raised.value) == (
        f"MCP server {shlex.join(command)!r} closed the connection while starting up — the "
        "server process exited, or wrote something other than MCP messages to its stdout. Run "
        "its command by hand to see why. Its stderr ended with: 'no array configured'."
    )


def test_a_command_that_cannot_start_is_a_chartkit_error(tmp_path: Path) -> None:
    missing = str(tmp_path / "no-such-server")
    with pytest.raises(MCPCallError) as raised:
        call_tool_sync(f"{missing} --stdio", "host_group_mappings")
    assert str(raised.value) == (
        f"could not start the MCP server {f'{missing} --stdio'!r}: No such file or directory "
        f"({missing!r}); check the command line. The call to tool 'host_group_mappings' was "
        "not made."
    )


def test_an_empty_command_line_is_refused() -> None:
    with pytest.raises(MCPCallError) as raised:
        list_tools_sync("   ")
    assert str(raised.value) == (
        "the MCP server command line is empty; give the command that starts the server, e.g. "
        "'python examples/mcp_server.py'"
    )


def test_the_sync_wrappers_refuse_a_running_event_loop() -> None:
    async def inside_a_loop() -> None:
        call_tool_sync(STDIO, "host_group_mappings")

    with pytest.raises(ChartkitError) as raised:
        run(inside_a_loop)
    assert str(raised.value) == (
        "call_tool_sync cannot run inside a running event loop (a notebook, an async app); "
        "there, use the async functions: async with open_server(...) as client: await ..."
    )


def test_the_meta_key_is_the_specs_word() -> None:
    assert META_KEY == "resultColumns"


def test_importing_chartkit_mcp_without_the_sdk_names_the_extra() -> None:
    code = (
        "import sys; sys.modules['mcp'] = None\n"
        "try:\n"
        "    import chartkit.mcp\n"
        "except ImportError as exc:\n"
        "    print(type(exc).__name__, exc)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert done.stdout.startswith("MissingExtraError chartkit.mcp needs the MCP SDK 2.3 or newer")
    assert done.stdout.rstrip().endswith("install it with: pip install 'chartkit[mcp]'")


@pytest.mark.parametrize("transport", ["in-process", "stdio"])
def test_a_declared_tool_without_an_annotation_has_its_lone_object_read_as_one_row(
    transport: str, tmp_path: Path
) -> None:
    """The wire form is the one-row list's: an armed check reads it as one row, and checks it."""
    result = call_tool_sync(one_row_server(tmp_path, transport), "summary_declared_unannotated")
    assert result.rows == {"host_group": "vdi-a", "luns": 2}
    outcome = check_result(result, mode="enforce")
    assert (outcome.status, outcome.armed, outcome.delivered) == ("ok", True, result.rows)
    assert [r.checked for r in outcome.disposition] == [1, 1]


@pytest.mark.parametrize("transport", ["in-process", "stdio"])
def test_under_off_a_declaration_alone_never_changes_what_is_delivered(
    transport: str, tmp_path: Path
) -> None:
    """The same answer from a declared and an undeclared tool: byte for byte the same."""
    declared, undeclared = call_both(
        one_row_server(tmp_path, transport), "summary_declared_unannotated", "summary_unannotated"
    )
    assert declared.result_columns is not None and undeclared.result_columns is None
    off = [check_result(r, mode="off").delivered for r in (declared, undeclared)]
    assert off[0] is declared.rows and off[1] is undeclared.rows
    assert json.dumps(off[0]) == json.dumps(off[1]) == '{"host_group": "vdi-a", "luns": 2}'
    warned = check_result(declared, mode="warn")
    assert warned.delivered is declared.rows  # warn delivers the answer as sent, too


# ------------------------------------------------------------- outputSchema, both directions


def publish(server: MCPServer[Any], tool: str, schema: dict[str, Any]) -> None:
    """Publish a hand-written outputSchema, as a foreign server would (the SDK reads it live)."""
    server._tool_manager.get_tool(tool).fn_metadata.output_schema = schema


def rows_under(prop: str, row: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {prop: {"type": "array", "items": row}},
        "required": [prop],
    }


def test_declare_tool_publishes_the_output_schema_of_its_declaration() -> None:
    async def listed() -> Any:
        async with Client(lun_server()) as client:
            return (await client.list_tools()).tools

    (tool,) = run(listed)
    # The SDK's schema for the returned list, with the declared rows in place of its own.
    assert tool.output_schema == {
        **output_schema(LUN_COLUMNS),
        "title": "host_group_mappingsOutput",
    }
    assert dict(result_columns_from(tool.output_schema)) == dict(
        assert_result_columns("host_group_mappings", LUN_COLUMNS)
    )


def test_the_sdk_client_validates_the_published_schema_and_a_broken_row_still_arrives() -> None:
    """The real SDK client validates structured content against outputSchema; the LUN bug ('')
    in a number column must still arrive, so that ``warn`` delivers it as returned."""

    async def raw() -> Any:
        async with Client(lun_server()) as client:
            await client.list_tools()
            return await client.call_tool("host_group_mappings", {})

    answer = run(raw)
    assert answer.is_error is False
    assert answer.structured_content == {"result": LUN_ROWS}

    async def through_chartkit() -> ToolResult:
        async with open_server(lun_server()) as client:
            return await call_tool(client, "host_group_mappings", call_id="call-1")

    result = run(through_chartkit)
    assert result.declared_by == "_meta.resultColumns"
    warned = check_result(result, mode="warn")
    assert warned.delivered is LUN_ROWS or warned.delivered == LUN_ROWS
    assert [f.column for f in warned.findings] == ["logical_unit_number"]
    assert check_result(result, mode="enforce").status == "invalid"


def mappings_server(row_schema: dict[str, Any]) -> MCPServer[Any]:
    """A foreign tool returning its rows under "rows", with a hand-written outputSchema."""
    server: MCPServer[Any] = MCPServer(unique_server_name())

    def mappings() -> dict[str, Any]:
        return {"rows": [{"lun": 0, "seen": "2026-12-01"}, {"lun": "", "seen": None}], "n": 2}

    server.add_tool(mappings, structured_output=True)
    publish(server, "mappings", rows_under("rows", row_schema))
    return server


LAX_ROW = {
    "type": "object",
    "properties": {
        "lun": {"anyOf": [{"type": "integer"}, {"type": "string"}, {}]},
        "seen": {"type": ["string", "null"], "format": "date"},
        "id": {"type": "integer"},
    },
}


def test_a_tool_without_meta_is_declared_by_its_output_schema_and_rows_read_from_there() -> None:
    async def called(server: MCPServer[Any]) -> tuple[ListedTool, ToolResult]:
        async with open_server(server) as client:
            tools = await list_tools(client)
            return tools[0], await call_tool(client, "mappings", tools=tools, call_id="c")

    server = mappings_server({**LAX_ROW, "required": ["seen"]})
    tool, result = run(lambda: called(server))
    assert tool.declared_by == "outputSchema"
    assert tool.rows_property == "rows"
    assert tool.result_columns == {"seen": ColumnDeclaration("date", nullable=True)}
    assert result.declared_by == "outputSchema"
    assert result.rows == [{"lun": 0, "seen": "2026-12-01"}, {"lun": "", "seen": None}]
    assert check_result(result, mode="warn").findings == ()

    # Nothing required: the schema declares no column, and the tool is listed undeclared, in
    # silence (an unlisted column is allowed and never judged).
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tool, result = run(lambda: called(mappings_server(LAX_ROW)))
    assert (tool.result_columns, tool.declared_by, tool.rows_property) == (None, None, "rows")
    assert result.rows == [{"lun": 0, "seen": "2026-12-01"}, {"lun": "", "seen": None}]


def test_meta_and_output_schema_that_disagree_are_said_once_and_meta_is_followed() -> None:
    name = unique_server_name()
    server: MCPServer[Any] = MCPServer(name)

    @declare_tool(server, {"lun": "number", "host_group": "string"})
    def mappings() -> list[dict[str, Any]]:
        return [{"lun": 0, "host_group": "vdi-a"}]

    publish(
        server,
        "mappings",
        output_schema({"lun": "string", "host_group": "string", "comment": "string"}),
    )

    async def listed_twice() -> list[tuple[ListedTool, ...]]:
        async with open_server(server) as client:
            return [await list_tools(client), await list_tools(client)]

    with pytest.warns(DeclarationConflictWarning) as record:
        readings = run(listed_twice)
    assert len(record) == 1
    assert str(record[0].message) == (
        f"MCP server {name!r} lists tool 'mappings' with a resultColumns declaration and an "
        "outputSchema that disagree: 'lun' is number in _meta and string in the outputSchema; "
        "'comment' is declared in the outputSchema only. chartkit follows _meta.resultColumns; "
        "make the two agree on the server."
    )
    for (tool,) in readings:
        assert tool.declared_by == "_meta.resultColumns"
        assert tool.result_columns == {
            "lun": ColumnDeclaration("number"),
            "host_group": ColumnDeclaration("string"),
        }


def test_an_output_schema_column_chartkit_cannot_map_is_warned_about_once_and_left_out() -> None:
    name = unique_server_name()
    server: MCPServer[Any] = MCPServer(name)

    def hosts() -> dict[str, Any]:
        return {"result": [{"name": "vdi-a", "tags": ["a"]}]}

    server.add_tool(hosts, structured_output=True)
    row = {
        "type": "object",
        "properties": {"name": {"type": "string"}, "tags": {"type": "array"}},
        "required": ["name", "tags"],
    }
    publish(server, "hosts", rows_under("result", row))

    async def called() -> ToolResult:
        async with open_server(server) as client:
            await list_tools(client)
            return await call_tool(client, "hosts")

    with pytest.warns(DeclarationDroppedWarning) as record:
        result = run(called)
    assert len(record) == 1
    assert str(record[0].message) == (
        f"MCP server {name!r} lists tool 'hosts' with no resultColumns in its _meta and an "
        "outputSchema chartkit cannot read as a declaration: the JSON Schema has 1 column "
        "chartkit cannot declare: 'tags' is an array. A declared column is one of number, "
        'string, boolean, date, optionally nullable; leave these columns out (unmappable="leave" '
        "leaves them undeclared), or write the declaration by hand. 1 column is left "
        "undeclared (not checked); the others are declared by the outputSchema; declare "
        "resultColumns in the tool's _meta on the server."
    )
    assert result.result_columns == {"name": ColumnDeclaration("string")}
    assert result.declared_by == "outputSchema"
    assert result.rows == [{"name": "vdi-a", "tags": ["a"]}]


def test_the_sdks_own_schema_for_a_list_of_dicts_declares_nothing_and_says_nothing() -> None:
    server: MCPServer[Any] = MCPServer(unique_server_name())

    @server.tool()
    def plain() -> list[dict[str, Any]]:
        return [{"lun": ""}]

    async def listed() -> tuple[ListedTool, ...]:
        async with open_server(server) as client:
            return await list_tools(client)

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        (tool,) = run(listed)
    assert (tool.result_columns, tool.declared_by, tool.rows_property) == (None, None, "result")


def test_a_foreign_strict_output_schema_is_enforced_by_the_sdk_before_chartkit_reads() -> None:
    """A server that publishes a strict schema has its rows refused by the SDK itself: that is
    the server's choice, and chartkit says so rather than softening it."""
    name = unique_server_name()
    server: MCPServer[Any] = MCPServer(name)

    def strict() -> dict[str, Any]:
        return {"result": [{"lun": ""}]}

    server.add_tool(strict, structured_output=True)
    row = {"type": "object", "properties": {"lun": {"type": "number"}}, "required": ["lun"]}
    publish(server, "strict", rows_under("result", row))

    async def called() -> ToolResult:
        async with open_server(server) as client:
            return await call_tool(client, "strict")

    with pytest.raises(MCPCallError) as caught:
        run(called)
    assert str(caught.value).startswith(
        f"MCP server {name!r} failed while calling tool 'strict': Invalid structured content "
        "returned by tool strict: '' is not of type 'number'"
    )
