"""The rows behind a mark over MCP: the app-only ``chartkit_rows_behind`` tool, for real.

A real ``MCPServer`` (``chartkit mcp``'s and one built with ``chart_tool``) and a real
``mcp.Client`` that negotiated MCP Apps: a chart's answer carries its handle, the page's tool
answers the rows behind a clicked mark in chunks capped by bytes and by count, offending
cells marked, and under ``enforce`` no row of a refused result is reachable. The browser side
(click → tool → rows shown, model context) is ``test_browser_mcp_app.py``.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import anyio
import mcp
import pytest
from mcp.client.extension import advertise
from mcp.server.apps import APP_MIME_TYPE, EXTENSION_ID, Apps
from mcp.server.mcpserver import MCPServer

import chartkit.mcp.server as chart_server
from chartkit.mcp._app_rows import (
    CHUNK_BYTES,
    CHUNK_COLUMNS,
    CHUNK_ROWS,
    KEPT_VIEWS,
    MODEL_CONTEXT_CHARS,
    REQUEST_BYTES,
)
from chartkit.mcp.apps import DRILL_META_KEY, ROWS_BEHIND_TOOL, VIEW_URI, chart_tool

APPS = [advertise(EXTENSION_ID, {"mimeTypes": [APP_MIME_TYPE]})]
DECLARED = {"region": "string", "p95_ms": "number", "owner": "string"}
LATENCY = [
    {"region": "eu", "p95_ms": 41.5, "owner": "Ann-Ovid"},
    {"region": "eu", "p95_ms": 12.5, "owner": 7},  # owner breaks the declaration
    {"region": "us", "p95_ms": 77.25, "owner": "<b>bob</b>"},
    {"region": "us", "p95_ms": "n/a", "owner": "Cy-Rune"},  # left out of the chart
    {"region": "ap", "p95_ms": 9.0, "owner": "Dee-Quill"},
]
EU = {"region": "eu", "p95_ms": 27.0}  # the eu bar's datum (the mean), as Vega hands it


@pytest.fixture(autouse=True)
def _quiet_findings(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.ERROR, logger="chartkit")


class Session:
    """One MCP Apps client on one server, for a test's whole conversation."""

    def __init__(self, client: mcp.Client) -> None:
        self.client = client

    async def chart(self, rows: list[dict[str, Any]], **arguments: Any) -> Any:
        """Chart ``rows`` as a bar per region (picked: the default chart may be another)."""
        arguments = {"rows": rows, "resultColumns": DECLARED, "tool": "p95", "x": "region",
                     "y": "p95_ms", **arguments}  # fmt: skip
        return await self.client.call_tool("chart_rows", arguments)

    async def behind(self, chart: str, selection: Any, offset: int | None = None) -> Any:
        arguments: dict[str, Any] = {"chart": chart, "selection": selection}
        if offset is not None:
            arguments["offset"] = offset
        return await self.client.call_tool(ROWS_BEHIND_TOOL, arguments)


def talk(server: MCPServer[Any], conversation: Any, *, apps: bool = True) -> Any:
    async def go() -> Any:
        async with mcp.Client(server, extensions=APPS if apps else None) as client:
            return await conversation(Session(client))

    return anyio.run(go)


def handle_of(answer: Any) -> str:
    drill = answer.meta[DRILL_META_KEY]
    assert drill["tool"] == ROWS_BEHIND_TOOL
    handle: str = drill["chart"]
    return handle


def wire_bytes(answer: Any) -> int:
    """What the answer weighs on the wire, as the SDK writes it."""
    return len(answer.model_dump_json(by_alias=True, exclude_none=True).encode("utf-8"))


def test_the_tool_is_the_pages_alone_hidden_from_the_model_and_reads_only_what_it_drew() -> None:
    async def conversation(s: Session) -> Any:
        return (await s.client.list_tools()).tools

    tools = {t.name: t for t in talk(chart_server.build_server(), conversation)}
    tool = tools[ROWS_BEHIND_TOOL]
    # visibility ["app"]: a host lists it for the page and keeps it out of the model's tools.
    assert tool.meta == {"ui": {"resourceUri": VIEW_URI, "visibility": ["app"]}}
    for name in ("chart_rows", "chart_file"):  # the model's tools stay visible to the model
        assert "visibility" not in tools[name].meta["ui"]
    assert tool.annotations.read_only_hint is True
    assert tool.annotations.open_world_hint is False
    assert set(tool.input_schema["properties"]) == {"chart", "selection", "offset"}
    assert sorted(tool.input_schema["required"]) == ["chart", "selection"]


def test_a_clicked_bar_answers_its_rows_with_the_offending_cells_marked() -> None:
    async def conversation(s: Session) -> Any:
        drawn = await s.chart(LATENCY)
        return drawn, await s.behind(handle_of(drawn), {"datum": EU})

    drawn, answer = talk(chart_server.build_server(), conversation)
    assert drawn.structured_content["kind"] == "chart"
    assert answer.is_error is False
    chunk = answer.structured_content
    assert chunk["selection"] == 'region = "eu"'
    assert chunk["kind"] == "mark"
    assert (chunk["total"], chunk["offset"], chunk["next"]) == (2, 0, None)
    assert chunk["columns"] == [
        {"name": "region", "declared": "string", "nullable": False, "offending": 0},
        {"name": "p95_ms", "declared": "number", "nullable": False, "offending": 0},
        {"name": "owner", "declared": "string", "nullable": False, "offending": 1},
    ]
    assert chunk["rows"] == [
        {"index": 0, "cells": ["eu", 41.5, "Ann-Ovid"], "offending": []},
        {"index": 1, "cells": ["eu", 12.5, 7], "offending": [2]},  # owner holds a number
    ]
    assert [b.text for b in answer.content] == [
        'The rows behind region = "eu" in the chart of p95: rows 1–2 of 2; cells that break '
        "the declaration: owner 1."
    ]
    reason = drawn.structured_content["reason"].rstrip(".")
    assert chunk["offendingValues"] == [{"column": "owner", "values": "7 ×1"}]
    assert chunk["modelContext"] == (
        f'The user selected region = "eu" in the chart of p95 ({reason}). 2 rows behind it; '
        "cells that break the declaration: owner 1. Offending values among them: owner: 7 ×1.\n"
        "The first rows, as the tool returned them (JSON, one a line):\n"
        '{"region": "eu", "p95_ms": 41.5, "owner": "Ann-Ovid"}\n'
        '{"region": "eu", "p95_ms": 12.5, "owner": 7}'
    )


def test_a_selection_lists_its_own_most_frequent_offending_values_not_the_results() -> None:
    rows = [
        {"region": "eu", "p95_ms": 1.0, "owner": 7},
        {"region": "eu", "p95_ms": 2.0, "owner": "<i>x</i>\u202e"},
        {"region": "eu", "p95_ms": 3.0, "owner": 7},
        {"region": "eu", "p95_ms": 4.0, "owner": None},
        {"region": "eu", "p95_ms": 5.0, "owner": "Ann"},
        {"region": "us", "p95_ms": 6.0, "owner": True},  # the result's, not the eu bar's
        {"region": "us", "p95_ms": 7.0, "owner": True},
        {"region": "us", "p95_ms": 8.0, "owner": True},
    ]

    async def conversation(s: Session) -> Any:
        drawn = await s.chart(rows)
        handle = handle_of(drawn)
        return (
            drawn,
            await s.behind(handle, {"datum": {"region": "eu"}}),
            await s.behind(handle, {"datum": {"region": "eu"}}, 1),
        )

    drawn, eu, later = talk(chart_server.build_server(), conversation)
    (finding,) = drawn.structured_content["findings"]
    assert [o["value"] for o in finding["violation"]["offenders"]] == [True, 7, None]  # all rows
    chunk = eu.structured_content
    assert chunk["offendingValues"] == [{"column": "owner", "values": "7 ×2, null ×1"}]
    assert [c["offending"] for c in chunk["columns"]] == [0, 0, 3]
    assert " Offending values among them: owner: 7 ×2, null ×1.\n" in chunk["modelContext"]
    assert "true" not in chunk["modelContext"].split("(JSON")[0]
    assert later.structured_content["offendingValues"] is None  # listed once, in the first chunk


def test_the_rows_left_out_of_the_chart_are_reachable_too() -> None:
    async def conversation(s: Session) -> Any:
        drawn = await s.chart(LATENCY)
        return drawn, await s.behind(handle_of(drawn), {"leftOut": True})

    drawn, answer = talk(chart_server.build_server(), conversation)
    assert drawn.structured_content["leftOut"] == 1
    chunk = answer.structured_content
    assert chunk["kind"] == "left-out"
    assert chunk["rows"] == [{"index": 3, "cells": ["us", "n/a", "Cy-Rune"], "offending": [1]}]
    assert [b.text for b in answer.content] == [
        "The rows left out of the chart of p95: row 1 of 1; cells that break the declaration: "
        "p95_ms 1."
    ]
    assert chunk["modelContext"].startswith(
        "The user selected the rows left out of the chart of p95 ("
    )


def test_many_rows_come_in_chunks_under_the_byte_cap_and_page_through_each_row_once() -> None:
    rows = [
        {"region": "eu", "p95_ms": float(i), "owner": f"owner-{i:04d}-" + "é" * 400}
        for i in range(1200)
    ]
    rows += [{"region": "us", "p95_ms": 1.0, "owner": "x"}]

    async def conversation(s: Session) -> list[Any]:
        drawn = await s.chart(rows)
        handle = handle_of(drawn)
        datum = {"region": "eu", "p95_ms": sum(range(1200)) / 1200}
        answers = [await s.behind(handle, {"datum": datum})]
        while answers[-1].structured_content["next"] is not None:
            answers.append(
                await s.behind(handle, {"datum": datum}, answers[-1].structured_content["next"])
            )
        return answers

    answers = talk(chart_server.build_server(), conversation)
    assert len(answers) > 1200 // CHUNK_ROWS  # the bytes cut chunks shorter than the count
    for answer in answers:
        assert wire_bytes(answer) <= CHUNK_BYTES
        assert answer.structured_content["total"] == 1200
        assert len(answer.structured_content["modelContext"]) <= MODEL_CONTEXT_CHARS
    seen = [row["index"] for a in answers for row in a.structured_content["rows"]]
    assert seen == list(range(1200))  # every row behind the bar once, in order, and no other
    offsets = [a.structured_content["offset"] for a in answers]
    assert offsets == [0] + [a.structured_content["next"] for a in answers[:-1]]
    # Every cell arrives capped, as every quoted value is: a long text is cut with its length.
    first = answers[0].structured_content["rows"][0]["cells"][2]
    assert first.startswith("owner-0000-éé") and first.endswith("… (411 characters)")


def test_small_rows_are_capped_by_count() -> None:
    rows = [{"region": "eu", "p95_ms": 1.0, "owner": "a"} for _ in range(CHUNK_ROWS + 10)]
    rows.append({"region": "us", "p95_ms": 2.0, "owner": "b"})

    async def conversation(s: Session) -> list[Any]:
        handle = handle_of(await s.chart(rows))
        first = await s.behind(handle, {"datum": {"region": "eu", "p95_ms": 1.0}})
        rest = await s.behind(handle, {"datum": {"region": "eu", "p95_ms": 1.0}}, CHUNK_ROWS)
        return [first, rest]

    first, rest = (a.structured_content for a in talk(chart_server.build_server(), conversation))
    assert (len(first["rows"]), first["next"]) == (CHUNK_ROWS, CHUNK_ROWS)
    assert (len(rest["rows"]), rest["next"]) == (10, None)


def test_a_hostile_wide_row_still_fits_one_chunk_its_columns_and_cells_capped() -> None:
    wide = {"region": "eu", "p95_ms": 1.0, "owner": "a"}
    wide |= {f"col-{j}-" + "\u202e" * 300: "\u2028" + "z" * 20_000 for j in range(2000)}
    rows = [wide, {"region": "us", "p95_ms": 2.0, "owner": "b"}]

    async def conversation(s: Session) -> Any:
        return await s.behind(handle_of(await s.chart(rows)), {"datum": {"region": "eu"}})

    answer = talk(chart_server.build_server(), conversation)
    chunk = answer.structured_content
    assert wire_bytes(answer) <= CHUNK_BYTES
    assert len(chunk["columns"]) == CHUNK_COLUMNS
    assert chunk["columnsLeftOut"] == 2003 - CHUNK_COLUMNS
    # The chart's and the declared columns come first; names and cells are escaped, capped.
    assert [c["name"] for c in chunk["columns"][:3]] == ["region", "p95_ms", "owner"]
    name = chunk["columns"][3]["name"]
    assert name.startswith("col-0-\\u202e") and "\u202e" not in name
    (row,) = chunk["rows"]
    assert row["cells"][3].startswith("\\u2028zzz") and row["cells"][3].endswith(
        "… (20,001 characters)"
    )


def test_under_enforce_a_refused_result_is_never_kept_so_none_of_its_rows_is_reachable() -> None:
    server = chart_server.build_server()

    async def conversation(s: Session) -> Any:
        refused = await s.chart(LATENCY, mode="enforce")
        # A chart of the same server that was kept: its handle reaches its own rows only.
        kept = await s.chart(
            [
                {"region": "eu", "p95_ms": 1.0, "owner": "a"},
                {"region": "us", "p95_ms": 2.0, "owner": "b"},
            ],
            mode="enforce",
        )
        other = await s.behind(handle_of(kept), {"datum": EU})
        handle = handle_of(kept)
        near = handle[:-1] + ("B" if handle.endswith("A") else "A")  # one character off
        guesses = [
            await s.behind(guess, {"leftOut": True}) for guess in ("", "p95", "0", near, "../" * 20)
        ]
        return refused, other, guesses

    refused, other, guesses = talk(server, conversation)
    assert refused.structured_content["kind"] == "refused"
    assert DRILL_META_KEY not in (refused.meta or {})  # no handle: nothing to ask with
    text = json.dumps(refused.model_dump(by_alias=True, mode="json"))
    assert [v for v in ("Ann-Ovid", "Cy-Rune", "Dee-Quill", "bob", "77.25") if v in text] == []
    assert other.is_error is True  # the eu datum is no mark of the other chart
    for guess in guesses:
        assert guess.is_error is True
        assert guess.content[0].text == (
            f"Error executing tool {ROWS_BEHIND_TOOL}: no chart is kept under this handle: the "
            f"server keeps the last {KEPT_VIEWS} charts it drew for MCP Apps pages, and never a "
            "refused result; draw the chart again (call its tool) and select on the new one"
        )


def test_a_chart_tool_under_enforce_keeps_what_passes_and_never_what_it_refused() -> None:
    apps = Apps()
    answers = {"rows": LATENCY}

    @chart_tool(apps, DECLARED, mode="enforce")
    def latency() -> list[dict[str, Any]]:
        return answers["rows"]

    server = MCPServer("latency", extensions=[apps])

    async def conversation(s: Session) -> Any:
        refused = await s.client.call_tool("latency", {})
        answers["rows"] = [LATENCY[0], LATENCY[2], LATENCY[4]]
        passed = await s.client.call_tool("latency", {})
        return refused, passed, await s.behind(handle_of(passed), {"datum": {"region": "us"}})

    refused, passed, behind = talk(server, conversation)
    assert refused.structured_content["kind"] == "refused"
    assert DRILL_META_KEY not in (refused.meta or {})
    assert passed.structured_content["kind"] == "chart"
    assert behind.structured_content["rows"] == [
        {"index": 1, "cells": ["us", 77.25, "<b>bob</b>"], "offending": []}
    ]


def test_a_client_without_mcp_apps_gets_no_handle() -> None:
    async def conversation(s: Session) -> Any:
        return await s.chart(LATENCY)

    answer = talk(chart_server.build_server(), conversation, apps=False)
    assert answer.structured_content is None
    assert DRILL_META_KEY not in (answer.meta or {})


def test_the_oldest_chart_is_dropped_past_the_kept_count() -> None:
    async def conversation(s: Session) -> Any:
        handles = [handle_of(await s.chart(LATENCY)) for _ in range(KEPT_VIEWS + 1)]
        return [await s.behind(h, {"datum": EU}) for h in (handles[0], handles[1], handles[-1])]

    oldest, second, newest = talk(chart_server.build_server(), conversation)
    assert (
        oldest.is_error is True and "no chart is kept under this handle" in oldest.content[0].text
    )
    assert second.is_error is False and newest.is_error is False


@pytest.mark.parametrize(
    ("selection", "offset", "message"),
    [
        (
            {"datum": EU, "leftOut": True},
            0,
            "selection names exactly one of datum, interval, leftOut, others; it has 'datum', "
            '\'leftOut\'. Send {"datum": {…}} for a clicked mark, {"interval": {"field": '
            '[low, high]}} for a brush, {"leftOut": true} or {"others": true}',
        ),
        (
            {"leftOut": "yes"},
            0,
            'selection leftOut takes true; got str "yes"',
        ),
        (
            {"datum": {"region": "nowhere"}},
            0,
            'the datum {"region": "nowhere"} matches no mark of this chart; a datum of one of '
            "its marks matches exactly one",
        ),
        (
            {"datum": {"x" * 100: "y" * REQUEST_BYTES}},
            0,
            f"selection weighs {REQUEST_BYTES + 119:,} bytes, over the {REQUEST_BYTES:,} a "
            "selection may; send the clicked mark's own fields",
        ),
        (
            {"datum": EU},
            2,
            "offset 2 is past the 2 rows behind this selection; start again at 0",
        ),
    ],
)
def test_a_bad_request_is_a_tool_error_saying_what_and_how(
    selection: dict[str, Any], offset: int, message: str
) -> None:
    async def conversation(s: Session) -> Any:
        handle = handle_of(await s.chart(LATENCY))
        return await s.behind(handle, selection, offset)

    answer = talk(chart_server.build_server(), conversation)
    assert answer.is_error is True
    assert answer.content[0].text == f"Error executing tool {ROWS_BEHIND_TOOL}: {message}"


def test_a_chart_tool_answering_an_engine_frame_drills_into_it_too() -> None:
    pl = pytest.importorskip("polars")
    apps = Apps()

    @chart_tool(apps, {"region": "string", "p95_ms": "number"})
    def latency() -> Any:
        return pl.DataFrame({"region": ["eu", "eu", "us"], "p95_ms": [41.5, 12.5, 77.25]})

    server = MCPServer("latency", extensions=[apps])

    async def conversation(s: Session) -> Any:
        drawn = await s.client.call_tool("latency", {})
        return await s.behind(handle_of(drawn), {"datum": EU})

    chunk = talk(server, conversation).structured_content
    assert (chunk["total"], chunk["next"]) == (2, None)
    assert chunk["rows"] == [
        {"index": 0, "cells": ["eu", 41.5], "offending": []},
        {"index": 1, "cells": ["eu", 12.5], "offending": []},
    ]


def test_chartkit_mcp_lists_the_model_its_tools_and_never_the_pages() -> None:
    from chartkit.mcp import list_tools

    async def conversation(s: Session) -> Any:
        return await list_tools(s.client)

    listed = talk(chart_server.build_server(), conversation)
    assert [t.name for t in listed] == ["chart_rows", "chart_file"]


def test_a_bar_over_a_duckdb_relation_is_drilled_in_the_engine_in_chunks() -> None:
    duckdb = pytest.importorskip("duckdb")
    con = duckdb.connect()
    apps = Apps()

    @chart_tool(apps, {"region": "string", "p95_ms": "number"})
    def latency() -> Any:
        return con.sql(
            "select case when i % 3 = 0 then 'eu' else 'us' end as region, "
            "(i % 100)::double as p95_ms from range(200000) t(i)"
        )

    server = MCPServer("latency", extensions=[apps])

    async def conversation(s: Session) -> Any:
        drawn = await s.client.call_tool("latency", {})
        handle = handle_of(drawn)
        first = await s.behind(handle, {"datum": {"region": "eu"}})
        second = await s.behind(
            handle, {"datum": {"region": "eu"}}, first.structured_content["next"]
        )
        return drawn, first, second

    drawn, first, second = talk(server, conversation)
    assert "computed in duckdb" in drawn.content[0].text  # the chart was reduced in the engine
    for answer in (first, second):
        chunk = answer.structured_content
        assert chunk["total"] == 66_667 and wire_bytes(answer) <= CHUNK_BYTES
        assert len(chunk["rows"]) == CHUNK_ROWS
        assert all(r["cells"][0] == "eu" for r in chunk["rows"])
    assert second.structured_content["offset"] == first.structured_content["next"] == CHUNK_ROWS
    # rows an engine holds are counted per column, not listed by value
    assert first.structured_content["offendingValues"] is None
