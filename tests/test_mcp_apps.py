"""chartkit as an MCP App (``chartkit.apps``) and the ready chart server (``chartkit mcp``).

Real MCP servers and clients: in process for the dial rules and bad input, over stdio for
``chartkit mcp``. The browser side is ``test_browser_mcp_app.py``.
"""

from __future__ import annotations

import hashlib
import html.parser
import importlib.util
import json
import logging
import sys
from pathlib import Path
from typing import Any

import anyio
import mcp
import pytest
from mcp.client.extension import advertise
from mcp.client.stdio import stdio_client
from mcp.server.apps import APP_MIME_TYPE, EXTENSION_ID, Apps
from mcp.server.mcpserver import Context, MCPServer

import chartkit.mcp._served as served
import chartkit.mcp.server as chart_server
from chartkit import ResultColumnsError
from chartkit.mcp.apps import ROWS_BEHIND_TOOL, VIEW_URI, chart_tool, view_html

REPO = Path(__file__).resolve().parent.parent
WEB = REPO / "web"
APPS = [advertise(EXTENSION_ID, {"mimeTypes": [APP_MIME_TYPE]})]

MAPPINGS = [
    {"logical_unit_number": "", "host_group": "Orinoco-7"},
    {"logical_unit_number": 3, "host_group": "Orinoco-7"},
    {"logical_unit_number": 1, "host_group": "Kestrel-12"},
]
DECLARED = {"logical_unit_number": "number", "host_group": "string"}
REFUSAL = (
    "Result rejected: host_group_mappings returned rows that disagree with the columns it "
    "declares — 'logical_unit_number' is declared number and 1 of 3 rows hold string (first: "
    '""). Fix the tool so the column holds what it declares, or change the declaration. No '
    "data was returned."
)
# Values a tool may return that JSON carries exactly: off must hand every one back unchanged.
ODD_ROWS = [
    {"host_group": "naïve ☃ \u2028 </script>", "logical_unit_number": 2**63 + 1},
    {"host_group": "x", "logical_unit_number": 0.1, "extra": {"nested": [1, None, True]}},
    {"host_group": None, "logical_unit_number": "NaN"},
]


@pytest.fixture(autouse=True)
def _quiet_findings(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.ERROR, logger="chartkit")


def storage(mode: str, rows: list[dict[str, Any]]) -> MCPServer[Any]:
    apps = Apps()

    @chart_tool(apps, DECLARED, mode=mode, description="The LUN mappings of a host group.")  # type: ignore[arg-type]
    def host_group_mappings(limit: int | None = None) -> list[dict[str, Any]]:
        return rows if limit is None else rows[:limit]

    return MCPServer("storage", extensions=[apps])


def call(server: MCPServer[Any], tool: str, arguments: dict[str, Any], *, apps: bool = True) -> Any:
    async def go() -> Any:
        async with mcp.Client(server, extensions=APPS if apps else None) as client:
            return await client.call_tool(tool, arguments)

    return anyio.run(go)


def listing(server: MCPServer[Any]) -> tuple[Any, Any, Any]:
    async def go() -> tuple[Any, Any, Any]:
        async with mcp.Client(server, extensions=APPS) as client:
            tools = (await client.list_tools()).tools
            resources = (await client.list_resources()).resources
            (page,) = (await client.read_resource(VIEW_URI)).contents
            return tools, resources, page

    return anyio.run(go)


def dumped(result: Any) -> str:
    return json.dumps(result.model_dump(by_alias=True, mode="json"), ensure_ascii=False)


# -- attaching the UI to a declared tool ---------------------------------------------------


def test_one_call_attaches_the_page_and_the_declaration_rides_beside_it() -> None:
    tools, resources, page = listing(storage("warn", MAPPINGS))
    # The tool, and beside it the page's own app-only tool (the rows behind a mark).
    assert sorted(t.name for t in tools) == [ROWS_BEHIND_TOOL, "host_group_mappings"]
    (tool,) = [t for t in tools if t.name == "host_group_mappings"]
    assert tool.description == "The LUN mappings of a host group."
    assert tool.meta == {
        "resultColumns": {
            "logical_unit_number": {"type": "number", "nullable": False},
            "host_group": {"type": "string", "nullable": False},
        },
        "ui": {"resourceUri": "ui://chartkit/view.html"},
    }
    assert set(tool.input_schema["properties"]) == {"limit"}  # the tool's own parameters only
    assert [(r.uri, r.mime_type) for r in resources] == [(VIEW_URI, APP_MIME_TYPE)]
    assert page.text == view_html()


def test_an_async_tool_keeps_its_own_parameters_and_context() -> None:
    apps = Apps()
    seen: list[str] = []

    @chart_tool(apps, DECLARED, name="mappings", x="host_group", y="logical_unit_number")
    async def host_group_mappings(group: str, ctx: Context[Any], *, limit: int = 10) -> Any:
        seen.append(type(ctx).__name__)
        return [r for r in MAPPINGS if r["host_group"] == group][:limit]

    server = MCPServer("storage", extensions=[apps])
    tools, _, _ = listing(server)
    (tool,) = [t for t in tools if t.name != ROWS_BEHIND_TOOL]
    assert tool.name == "mappings"
    assert set(tool.input_schema["properties"]) == {"group", "limit"}
    assert tool.input_schema["required"] == ["group"]
    answer = call(server, "mappings", {"group": "Orinoco-7"})
    assert seen == ["Context"]
    assert json.loads(answer.content[1].text) == MAPPINGS[:2]
    assert answer.structured_content["encodings"]["x"]["column"] == "host_group"


def test_a_malformed_declaration_is_refused_when_the_tool_is_defined() -> None:
    apps = Apps()
    with pytest.raises(ResultColumnsError, match=r"declares column 'lun' as \"integer\""):

        @chart_tool(apps, {"lun": "integer"})
        def broken() -> list[dict[str, Any]]:
            return []

    assert apps.tools() == []


def test_warn_answers_the_view_for_the_page_and_the_finding_and_rows_for_the_model() -> None:
    answer = call(storage("warn", MAPPINGS), "host_group_mappings", {})
    payload = answer.structured_content
    assert payload["kind"] == "chart" and payload["tool"] == "host_group_mappings"
    (finding,) = payload["findings"]
    summary, rows = (block.text for block in answer.content)
    assert summary.splitlines()[0] == (
        f"chartkit drew a bar chart of host_group_mappings (3 rows) — {payload['reason']}"
    )
    assert f"Finding: {finding['message']}" in summary.splitlines()
    assert json.loads(rows) == MAPPINGS  # the model reads the rows exactly as returned


def test_off_delivers_the_rows_exactly_as_the_tool_returned_them() -> None:
    answer = call(storage("off", ODD_ROWS), "host_group_mappings", {})
    assert answer.is_error is False
    assert answer.structured_content["findings"] == []
    assert json.loads(answer.content[1].text) == ODD_ROWS
    assert json.loads(answer.content[1].text)[0]["logical_unit_number"] == 2**63 + 1


def test_enforce_refuses_with_the_sentence_and_no_row_anywhere() -> None:
    answer = call(storage("enforce", MAPPINGS), "host_group_mappings", {})
    assert [block.text for block in answer.content] == [REFUSAL]
    assert answer.structured_content["kind"] == "refused"
    assert answer.structured_content["reason"] == REFUSAL
    assert answer.structured_content["spec"] is None
    text = dumped(answer)
    assert "Orinoco-7" not in text and "Kestrel-12" not in text


def test_a_client_without_the_apps_extension_gets_the_text_alone() -> None:
    with_ui = call(storage("warn", MAPPINGS), "host_group_mappings", {"limit": 2})
    fallback = call(storage("warn", MAPPINGS), "host_group_mappings", {"limit": 2}, apps=False)
    assert with_ui.structured_content is not None
    assert fallback.structured_content is None
    assert [b.text for b in fallback.content] == [b.text for b in with_ui.content]
    assert json.loads(fallback.content[1].text) == MAPPINGS[:2]


def test_a_table_hands_its_first_rows_to_the_page_only() -> None:
    apps = Apps()
    rows: list[dict[str, Any]] = [{"host_group": f"group-{i}", "owner": "ann"} for i in range(250)]
    rows[1] = {"host_group": "x" * 5000, "owner": {"nested": ["y" * 2000]}}

    @chart_tool(apps, {"host_group": "string", "owner": "string"})
    def owners() -> list[dict[str, Any]]:
        return rows

    server = MCPServer("storage", extensions=[apps])
    answer = call(server, "owners", {})
    assert answer.structured_content["kind"] == "table"
    shown = answer.meta["chartkit/rows"]
    assert shown["total"] == 250 and len(shown["rows"]) == 200
    assert shown["rows"][0] == rows[0] and shown["rows"][2:] == rows[2:200]
    assert shown["rows"][1] == {
        "host_group": "x" * 999 + "… (5,000 characters)",
        "owner": '{"nested": ["' + "y" * 986 + "… (2,016 characters)",
    }
    assert json.loads(answer.content[1].text) == rows  # the model's text: every row, uncut
    assert "chartkit/rows" not in (call(server, "owners", {}, apps=False).meta or {})


# -- the ready server: chart_rows and chart_file ---------------------------------------------


@pytest.fixture(scope="module")
def server() -> MCPServer[Any]:
    return chart_server.build_server()


def test_chart_rows_draws_rows_the_agent_holds_with_their_declaration(
    server: MCPServer[Any],
) -> None:
    answer = call(
        server,
        "chart_rows",
        {"rows": MAPPINGS, "resultColumns": DECLARED, "tool": "host_group_mappings"},
    )
    payload = answer.structured_content
    assert payload["kind"] == "chart" and payload["mode"] == "warn"
    assert len(payload["findings"]) == 1
    # The agent holds the rows: the text says what was drawn and what broke, not the rows.
    (summary,) = answer.content
    assert "Orinoco-7" not in summary.text
    assert summary.text.startswith("chartkit drew a bar chart of host_group_mappings (3 rows)")
    arguments = {"rows": MAPPINGS, "resultColumns": DECLARED, "tool": "host_group_mappings"}
    fallback = call(server, "chart_rows", arguments, apps=False)
    assert fallback.structured_content is None
    assert [b.text for b in fallback.content] == [summary.text]

    refused = call(
        server,
        "chart_rows",
        {
            "rows": MAPPINGS,
            "resultColumns": DECLARED,
            "tool": "host_group_mappings",
            "mode": "enforce",
        },
    )
    assert [b.text for b in refused.content] == [REFUSAL]


def test_chart_file_reads_csv_jsonl_parquet_and_tool_result_files(tmp_path: Path) -> None:
    import pandas as pd

    server = chart_server.build_server(roots=[tmp_path, REPO / "app" / "examples"])

    frame = pd.DataFrame({"region": ["eu", "us", "ap"], "p95": [12.5, 9.25, 30.0]})
    frame.to_csv(tmp_path / "p95.csv", index=False)
    frame.to_parquet(tmp_path / "p95.parquet")
    (tmp_path / "p95.jsonl").write_text(
        "\n".join(json.dumps(r) for r in frame.to_dict("records")), encoding="utf-8"
    )
    declared = {"region": "string", "p95": "number"}
    for name in ("p95.csv", "p95.parquet", "p95.jsonl"):
        answer = call(
            server, "chart_file", {"path": str(tmp_path / name), "resultColumns": declared}
        )
        payload = answer.structured_content
        assert (payload["kind"], payload["status"], payload["tool"]) == ("chart", "ok", "p95"), name
        assert [e["source"] for e in payload["encodings"].values()] == ["declared", "declared"]

    example = REPO / "app" / "examples" / "host_group_mappings.json"
    answer = call(server, "chart_file", {"path": str(example), "mode": "enforce"})
    assert answer.structured_content["kind"] == "refused"
    assert answer.content[0].text.endswith("No data was returned.")


def error_of(server: MCPServer[Any], tool: str, arguments: dict[str, Any]) -> str:
    answer = call(server, tool, arguments)
    assert answer.is_error is True, arguments
    (block,) = answer.content
    text: str = block.text
    assert text.startswith(f"Error executing tool {tool}: ")
    return text.removeprefix(f"Error executing tool {tool}: ")


def test_bad_input_is_a_tool_error_that_says_what_and_how_and_the_server_keeps_serving(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = chart_server.build_server(roots=[tmp_path])
    good = {
        "rows": [{"k": "a", "v": 1}, {"k": "b", "v": 2}],
        "resultColumns": {"k": "string", "v": "number"},
    }
    example = 'e.g. [{"region": "eu", "p95": 12.5}, {"region": "us", "p95": 9.1}]'
    assert error_of(server, "chart_rows", {"rows": {"k": "a"}}) == (
        "rows must be a JSON array of objects, one per row; got an object. Pass the rows "
        f"themselves, {example}"
    )
    assert error_of(server, "chart_rows", {"rows": "region,p95"}) == (
        "rows must be a JSON array of objects, one per row; got a string that is not JSON "
        f'(a string "region,p95"). Pass the rows themselves, {example}'
    )
    assert error_of(server, "chart_rows", {"rows": [{"k": "a"}, 7]}) == (
        "rows must be a JSON array of objects, one per row; row 2 of 2 is a int 7. Send each "
        "row as an object of column: value."
    )
    assert error_of(server, "chart_rows", {**good, "resultColumns": {"v": "integer"}}) == (
        "tool 'unnamed_tool' declares column 'v' as \"integer\"; use one of number, string, "
        "boolean, date (or leave the column undeclared)"
    )
    assert error_of(server, "chart_rows", {**good, "resultColumns": ["k", "v"]}).startswith(
        "resultColumns must be an object mapping column names to types, got an array; pass e.g. "
    )

    missing = tmp_path / "nowhere.csv"
    assert error_of(server, "chart_file", {"path": str(missing)}) == (
        f"cannot read {str(missing)!r}: No such file or directory; give the path of an existing "
        "file (absolute, or relative to the first root); chart_file serves files under "
        f"{tmp_path.resolve()} (granted with --root)"
    )
    broken = tmp_path / "broken.json"
    broken.write_text('{"tool": "t", "rows": [', encoding="utf-8")
    assert "broken.json" in error_of(server, "chart_file", {"path": str(broken)})
    latin = tmp_path / "latin.jsonl"
    latin.write_bytes(b'{"city": "M\xfcnchen"}\n')
    assert error_of(server, "chart_file", {"path": str(latin)}) == (
        f"cannot read {str(latin)!r}: it is not UTF-8 text (byte 0xfc at position 11); save it "
        "as UTF-8"
    )
    assert error_of(server, "chart_file", {"path": str(tmp_path / "data.xlsx")}).startswith(
        f"cannot chart {str(tmp_path / 'data.xlsx')!r}: its suffix '.xlsx' is not one of .json, "
    )
    big = tmp_path / "big.csv"
    big.write_text("k,v\n" + "a,1\n" * 400, encoding="utf-8")
    monkeypatch.setattr(served, "MAX_FILE_BYTES", 1024)
    assert error_of(server, "chart_file", {"path": str(big)}) == (
        f"{str(big)!r} is 1.6 KiB, over the 1.0 KiB chart_file reads; chart a smaller extract "
        "(filter or aggregate it first), or pass the rows to chart_rows"
    )
    run = tmp_path / "run.jsonl"
    run.write_text('{"tool": "a", "rows": []}\n{"tool": "b", "rows": []}\n', encoding="utf-8")
    assert error_of(server, "chart_file", {"path": str(run)}) == (
        "run.jsonl holds 2 tool results; pass index (1 to 2) to pick the one to chart"
    )
    # After all of that, the same server still answers a good call.
    assert call(server, "chart_rows", good).structured_content["kind"] == "chart"


def test_chartkit_mcp_serves_over_stdio_and_survives_a_bad_call() -> None:
    async def go() -> tuple[Any, Any, Any]:
        params = mcp.StdioServerParameters(command=sys.executable, args=["-m", "chartkit", "mcp"])
        async with mcp.Client(stdio_client(params), extensions=APPS) as client:
            bad = await client.call_tool("chart_rows", {"rows": 42})
            good = await client.call_tool(
                "chart_rows", {"rows": MAPPINGS, "resultColumns": DECLARED}
            )
            return client.server_info, bad, good

    info, bad, good = anyio.run(go)
    assert info.name == "chartkit"
    assert bad.is_error is True
    assert "rows must be a JSON array of objects, one per row; got a int 42" in bad.content[0].text
    assert good.structured_content["kind"] == "chart"


# -- the page: built from the lock, self-contained ---------------------------------------------


class _Tags(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def test_the_shipped_page_is_the_build_of_the_locked_versions() -> None:
    page = view_html()
    parser = _Tags()
    parser.feed(page)
    (build,) = [a for t, a in parser.tags if t == "meta" and a.get("name") == "chartkit-build"]
    built = json.loads(build["content"] or "")
    lock_bytes = (WEB / "package-lock.json").read_bytes()
    assert built["lockSha256"] == hashlib.sha256(lock_bytes).hexdigest(), (
        "chartkit/web/view.html was not built from web/package-lock.json; run `make web`"
    )
    sources = hashlib.sha256()
    for source in sorted((WEB / "src").iterdir()):
        sources.update(source.name.encode())
        sources.update(source.read_bytes())
    assert built["sourceSha256"] == sources.hexdigest(), (
        "chartkit/web/view.html was not built from web/src as it is; run `make web`"
    )
    locked = json.loads(lock_bytes)["packages"]
    wanted = json.loads((WEB / "package.json").read_text(encoding="utf-8"))["dependencies"]
    assert {name: built["packages"][name] for name in wanted} == wanted  # the pins, exactly
    for name, version in built["packages"].items():
        assert locked[f"node_modules/{name}"]["version"] == version, name
    licences = (REPO / "chartkit" / "web" / "THIRD_PARTY_LICENSES.txt").read_text(encoding="utf-8")
    for name, version in built["packages"].items():
        assert f"\n{name} {version}\n" in licences, name


def test_the_page_loads_nothing_and_allows_no_eval() -> None:
    page = view_html()
    parser = _Tags()
    parser.feed(page)
    assert [a for t, a in parser.tags if t == "script" and "src" in a] == []
    assert [t for t, _ in parser.tags if t in ("link", "img", "iframe", "object", "embed")] == []
    (csp,) = [
        a["content"] for t, a in parser.tags if a.get("http-equiv") == "Content-Security-Policy"
    ]
    assert csp is not None and "connect-src 'none'" in csp and "unsafe-eval" not in csp
    assert "http://" not in csp and "https://" not in csp


def test_the_example_server_attaches_the_page_to_each_declared_tool_with_ui() -> None:
    spec = importlib.util.spec_from_file_location("mcp_server", REPO / "examples" / "mcp_server.py")
    assert spec is not None and spec.loader is not None
    examples = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(examples)
    listed, _, _ = listing(examples.build_server(ui=True))
    by_name = {t.name: t for t in listed}
    assert by_name[ROWS_BEHIND_TOOL].meta["ui"]["visibility"] == ["app"]  # the page's own
    tools = [t for t in listed if t.name != ROWS_BEHIND_TOOL]
    assert by_name["host_group_mappings"].meta["ui"] == {"resourceUri": VIEW_URI}
    assert "resultColumns" in by_name["host_group_mappings"].meta
    assert [t.name for t in tools if t.meta is None or "ui" not in t.meta] == [
        t.name for t in tools if t.meta is None or "resultColumns" not in t.meta
    ]  # only the undeclared example goes without the page
    answer = call(examples.build_server(ui=True), "host_group_mappings", {"limit": 40})
    assert answer.structured_content["kind"] == "chart"
    assert len(answer.structured_content["findings"]) == 1


def test_chartkit_mcp_without_the_sdk_exits_2_naming_the_extra() -> None:
    import subprocess

    code = (
        "import sys; sys.modules['mcp'] = None\n"
        "from chartkit.cli import main\n"
        "sys.exit(main(['mcp']))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO)
    assert done.returncode == 2
    assert done.stderr.startswith("chartkit mcp: chartkit.mcp needs the MCP SDK 2.3 or newer")
    assert done.stderr.rstrip().endswith("install it with: pip install 'chartkit[mcp]'")
