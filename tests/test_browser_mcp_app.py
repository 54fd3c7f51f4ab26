"""chartkit as an MCP App, end to end: a real ``chartkit mcp`` server, a real MCP client, a host
page built from the official ``AppBridge`` + ``PostMessageTransport``, and headless Chromium.

The client (advertising MCP Apps) reads ``ui://chartkit/view.html`` and calls the tools over
stdio; the host page (``tests/mcp_host/host.js``, built by ``make web``) loads that HTML into
``<iframe sandbox="allow-scripts">`` under the CSP a host applies to a resource that asks for
none, and sends tool-input and tool-result. For the rows behind a mark the host proxies the
page's ``tools/call`` to a live ``chartkit mcp`` (a real client kept open in a thread) and keeps
each ``ui/update-model-context``. Skips without Chromium or Playwright unless
``CHARTKIT_BROWSER_TESTS=required``.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import anyio
import anyio.from_thread
import mcp
import pytest
from _browser import REPO, browser_page, require_browser
from mcp.client.extension import advertise
from mcp.client.stdio import stdio_client
from mcp.server.apps import APP_MIME_TYPE, EXTENSION_ID

from chartkit.mcp.apps import DRILL_META_KEY, ROWS_BEHIND_TOOL, VIEW_URI

pytestmark = pytest.mark.browser

HOST_JS = REPO / "tests" / "mcp_host" / "host.js"
DEFAULT_CSP = (
    "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'none'"
)

# Each value is distinctive, so "no row value in the DOM" is a substring search.
LATENCY = [
    {"region": "Zanzibar-North", "p95_ms": 41.5},
    {"region": "Quixote-West", "p95_ms": 77.25},
    {"region": "Umbrage-East", "p95_ms": "n/a"},
    {"region": "Vellichor-South", "p95_ms": 12.125},
]
DECLARED = {"region": "string", "p95_ms": "number"}
OWNERS = [
    {"region": "eu", "owner": "<b>ann</b>"},
    {"region": "us", "owner": None},
    {"region": "ap"},
]
ROW_VALUES = ["Zanzibar-North", "Quixote-West", "Umbrage-East", "Vellichor-South", "41.5", "77.25"]


def _dump(result: Any) -> dict[str, Any]:
    out: dict[str, Any] = result.model_dump(by_alias=True, mode="json", exclude_none=True)
    return out


async def _session() -> dict[str, Any]:
    """Talk to a real ``chartkit mcp`` over stdio, as a host that renders MCP Apps would."""
    params = mcp.StdioServerParameters(command=sys.executable, args=["-m", "chartkit", "mcp"])
    apps = advertise(EXTENSION_ID, {"mimeTypes": [APP_MIME_TYPE]})
    async with mcp.Client(stdio_client(params), extensions=[apps]) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        (page,) = (await client.read_resource(VIEW_URI)).contents
        calls = {}
        for name, mode in (("warn", "warn"), ("enforce", "enforce")):
            arguments = {"rows": LATENCY, "resultColumns": DECLARED, "mode": mode, "tool": "p95"}
            calls[name] = (arguments, _dump(await client.call_tool("chart_rows", arguments)))
        arguments = {"rows": OWNERS, "resultColumns": {"region": "string", "owner": "string"}}
        calls["table"] = (arguments, _dump(await client.call_tool("chart_rows", arguments)))
        arguments = {"rows": 42}
        calls["bad"] = (arguments, _dump(await client.call_tool("chart_rows", arguments)))
    return {"tools": tools, "page": page, "calls": calls}


@pytest.fixture(scope="module")
def session() -> dict[str, Any]:
    require_browser()
    return anyio.run(_session)


class Host:
    """The host page in Chromium, with every request and console error it saw."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.requests: list[str] = []
        self.errors: list[str] = []

    @property
    def frame(self) -> Any:
        (frame,) = [f for f in self.page.frames if f != self.page.main_frame]
        return frame

    def load(self, html: str, theme: str = "light", *, server_tools: bool = True) -> None:
        self.page.evaluate(
            "([html, theme, csp, serverTools]) => "
            "window.testHost.load(html, {theme, csp, serverTools})",
            [html, theme, DEFAULT_CSP, server_tools],
        )

    @property
    def tool_calls(self) -> list[dict[str, Any]]:
        calls: list[dict[str, Any]] = self.page.evaluate("window.testHost.toolCalls")
        return calls

    @property
    def model_context(self) -> list[dict[str, Any]]:
        updates: list[dict[str, Any]] = self.page.evaluate("window.testHost.modelContext")
        return updates

    def show(self, arguments: dict[str, Any], result: dict[str, Any]) -> None:
        self.page.evaluate("(args) => window.testHost.toolInput(args)", arguments)
        self.page.evaluate("(result) => window.testHost.toolResult(result)", result)
        self.frame.wait_for_function("() => document.body.dataset.state === 'done'")
        article = self.frame.locator("article.message")
        if article.count():
            self.frame.wait_for_function(
                "() => ['drawn', 'table', 'no-chart', 'error'].includes("
                "document.querySelector('article.message').dataset.state)"
            )


@pytest.fixture(scope="module")
def browser(session: dict[str, Any]) -> Iterator[Any]:
    with browser_page(width=900, height=1000) as page:
        yield page.context


@pytest.fixture
def host(tmp_path: Path, browser: Any) -> Iterator[Host]:
    page_file = tmp_path / "host.html"
    page_file.write_text(
        '<!doctype html><html><head><meta charset="utf-8"><title>test host</title></head>'
        f'<body style="margin:0"><div id="apps"></div><script src="{HOST_JS.as_uri()}"></script>'
        "</body></html>",
        encoding="utf-8",
    )
    page = browser.new_page()
    seen = Host(page)
    page.on("request", lambda request: seen.requests.append(request.url))
    page.on("pageerror", lambda error: seen.errors.append(str(error)))
    page.on(
        "console",
        lambda message: seen.errors.append(message.text) if message.type == "error" else None,
    )
    try:
        page.goto(page_file.as_uri())
        page.wait_for_function("() => window.testHost !== undefined")
        yield seen
    finally:
        page.close()
    # Only the host page and its script were ever requested: the view fetched nothing.
    assert seen.requests == [page_file.as_uri(), HOST_JS.as_uri()]
    assert seen.errors == []


def test_the_server_links_its_tools_to_the_page_and_serves_it_as_an_mcp_app(
    session: dict[str, Any],
) -> None:
    tools, page = session["tools"], session["page"]
    assert set(tools) == {"chart_rows", "chart_file", ROWS_BEHIND_TOOL}
    for tool in tools.values():
        assert tool.meta["ui"]["resourceUri"] == VIEW_URI
        assert tool.annotations.read_only_hint is True
    # The page's own tool is hidden from the model (app-only); the model's two are not.
    assert tools[ROWS_BEHIND_TOOL].meta["ui"]["visibility"] == ["app"]
    assert "visibility" not in tools["chart_rows"].meta["ui"]
    # chart_rows reads only the rows it is given; chart_file reads the disk (issue 18, item 14).
    assert tools["chart_rows"].annotations.open_world_hint is False
    assert tools["chart_file"].annotations.open_world_hint is True
    assert page.mime_type == APP_MIME_TYPE
    assert page.text.startswith("<!doctype html>")
    assert "unsafe-eval" not in page.text


def picture(host: Host, name: str) -> None:
    """With ``CHARTKIT_SCREENSHOT_DIR`` set, the app's iframe saved there as ``name``, in a
    viewport tall enough that Chromium paints all of it (a screenshot of the iframe element
    taller than the viewport comes out blank)."""
    if not (shots := os.environ.get("CHARTKIT_SCREENSHOT_DIR")):
        return
    size = host.page.viewport_size
    host.page.set_viewport_size({"width": 900, "height": 1800})
    box = host.page.locator("#apps iframe").bounding_box()
    host.page.screenshot(path=str(Path(shots) / name), clip=box)
    host.page.set_viewport_size(size)
    from PIL import Image

    with Image.open(Path(shots) / name) as taken:  # a page drawn, not one blank colour
        assert taken.convert("RGB").getcolors(16) is None, name


def test_a_chart_with_a_finding_draws_its_marks_says_the_finding_and_follows_the_theme(
    host: Host, session: dict[str, Any]
) -> None:
    arguments, result = session["calls"]["warn"]
    payload = result["structuredContent"]
    assert payload["kind"] == "chart" and payload["mark"] == "bar"
    host.load(session["page"].text)
    host.show(arguments, result)
    frame = host.frame

    assert frame.locator("article.message").get_attribute("data-state") == "drawn"
    assert not frame.locator("#open").is_visible()  # a host's page has no file picker
    # Vega drew one bar per row that holds a number; the "n/a" row is left out (and noted).
    bars = frame.locator(".chart svg .mark-rect.role-mark path")
    assert bars.count() == 3
    labels = set(frame.locator(".chart svg .role-axis-label text").all_text_contents())
    assert {"Zanzibar-North", "Quixote-West", "Vellichor-South"} <= labels
    # Vega labels the chart for screen readers with the spec's description: the reason.
    chart = frame.locator(".chart [role=graphics-document], .chart[role=graphics-document]")
    assert chart.get_attribute("aria-roledescription") == "visualization"
    assert chart.get_attribute("aria-label") == payload["reason"]

    (finding,) = payload["findings"]
    assert finding["message"].startswith(
        "'p95' declares column 'p95_ms' as number, and 1 of 4 rows hold something else — the "
        'first is "n/a" (string).'
    )
    assert frame.locator(".finding-message").inner_text() == finding["message"]
    assert frame.locator(".verdict").inner_text() == "1 finding — shown as a chart."
    assert frame.locator("section.notes li").all_inner_texts() == payload["notes"]
    # The page reported its size to the host, which sized the iframe by it.
    sizes = host.page.evaluate("window.testHost.sizes")
    assert sizes and sizes[-1]["height"] > 400

    assert frame.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(255, 255, 255)"
    picture(host, "mcp-app.png")  # the README's picture
    host.page.evaluate("window.testHost.setTheme('dark')")
    frame.wait_for_function("() => document.documentElement.dataset.theme === 'dark'")
    assert frame.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(13, 17, 23)"
    frame.wait_for_function(  # the chart is drawn again in Vega's dark theme: light axis labels
        "() => { const t = document.querySelector('.chart svg .role-axis-label text');"
        " return t && getComputedStyle(t).fill !== 'rgb(0, 0, 0)'; }"
    )
    assert frame.locator(".chart svg .mark-rect.role-mark path").count() == 3
    picture(host, "mcp-app-dark.png")  # the README's, in the dark theme


def test_an_enforce_refusal_shows_the_sentence_and_no_row_value_anywhere(
    host: Host, session: dict[str, Any]
) -> None:
    arguments, result = session["calls"]["enforce"]
    refusal = (
        "Result rejected: p95 returned rows that disagree with the columns it declares — "
        "'p95_ms' is declared number and 1 of 4 rows hold string (first: \"n/a\"). Fix the tool "
        "so the column holds what it declares, or change the declaration. No data was returned."
    )
    assert result["content"] == [{"type": "text", "text": refusal}]
    assert result["structuredContent"]["kind"] == "refused"
    host.load(session["page"].text, theme="dark")
    host.show(arguments, result)  # the tool input holds every row; the page shows none
    frame = host.frame
    assert frame.evaluate("document.documentElement.dataset.theme") == "dark"
    assert frame.locator(".reason").inner_text() == refusal
    assert frame.locator(".verdict").inner_text() == "Refused: no data was returned."
    assert frame.locator(".no-chart").inner_text() == (
        "No chart: the result was refused, and no data was returned."
    )
    dom = frame.evaluate("document.documentElement.outerHTML")
    assert [value for value in ROW_VALUES if value in dom] == []
    assert frame.locator("svg").count() == 0


def test_a_table_shows_the_rows_the_host_handed_over_as_text(
    host: Host, session: dict[str, Any]
) -> None:
    arguments, result = session["calls"]["table"]
    assert result["structuredContent"]["kind"] == "table"
    assert result["_meta"]["chartkit/rows"] == {"rows": OWNERS, "total": 3}
    host.load(session["page"].text)
    host.show(arguments, result)
    frame = host.frame
    assert frame.locator("article").get_attribute("data-state") == "table"
    assert frame.locator(".rows caption").inner_text() == "3 rows, as returned"
    assert frame.locator(".rows th").all_inner_texts() == ["region", "owner"]
    cells = frame.locator(".rows td").all_inner_texts()
    assert cells == ["eu", "<b>ann</b>", "us", "null", "ap", "(absent)"]
    assert frame.locator(".rows b").count() == 0

    # A tool error: its text at the top, in words, and nothing of the previous result.
    _, bad = session["calls"]["bad"]
    assert bad["isError"] is True
    host.page.evaluate("(result) => window.testHost.toolResult(result)", bad)
    frame.locator("#errors .error").wait_for()
    assert frame.locator("#errors .error").inner_text() == bad["content"][0]["text"]
    assert (
        frame.locator("#errors .error")
        .inner_text()
        .startswith(
            "Error executing tool chart_rows: rows must be a JSON array of objects, one per row"
        )
    )
    assert frame.locator("article").count() == 0


# -- the rows behind a mark: click → the app-only tool → rows shown → the model told ---------

OWNED = [
    {"region": "Zanzibar-North", "p95_ms": 41.5, "owner": "<b>ann</b>"},
    {"region": "Zanzibar-North", "p95_ms": 12.5, "owner": 7},  # owner breaks the declaration
    {"region": "Quixote-West", "p95_ms": 77.25, "owner": "Cy-Rune"},
    {"region": "Quixote-West", "p95_ms": "n/a", "owner": "Dee-Quill"},  # left out of the chart
]
OWNED_DECLARED = {"region": "string", "p95_ms": "number", "owner": "string"}


class Live:
    """A real client on a live ``chartkit mcp`` (stdio), open in a thread for the whole module:
    the host page's proxied tool calls reach the server that drew the chart."""

    def __init__(self, portal: Any, client: mcp.Client) -> None:
        self.portal = portal
        self.client = client

    def call(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        return _dump(self.portal.call(self.client.call_tool, name, arguments))


@contextlib.asynccontextmanager
async def _live_client() -> AsyncIterator[mcp.Client]:
    params = mcp.StdioServerParameters(command=sys.executable, args=["-m", "chartkit", "mcp"])
    apps = advertise(EXTENSION_ID, {"mimeTypes": [APP_MIME_TYPE]})
    async with mcp.Client(stdio_client(params), extensions=[apps]) as client:
        yield client


@pytest.fixture(scope="module")
def live(session: dict[str, Any]) -> Iterator[Live]:
    with anyio.from_thread.start_blocking_portal() as portal:
        with portal.wrap_async_context_manager(_live_client()) as client:
            yield Live(portal, client)


@pytest.fixture
def drill(host: Host, live: Live) -> Host:
    """The host, proxying the page's tools/call to the live server (as a real host does)."""
    host.page.expose_function(
        "callServerTool", lambda params: live.call(params["name"], params.get("arguments") or {})
    )
    return host


def _chart(live: Live, rows: list[dict[str, Any]], **extra: Any) -> tuple[dict[str, Any], Any]:
    arguments = {"rows": rows, "resultColumns": OWNED_DECLARED, "tool": "p95", **extra}
    return arguments, live.call("chart_rows", arguments)


def _bar(frame: Any, region: str) -> Any:
    return frame.locator(f'.chart svg .mark-rect.role-mark path[aria-label*="region: {region};"]')


def test_clicking_a_bar_asks_the_app_only_tool_shows_its_rows_and_tells_the_model(
    drill: Host, live: Live, session: dict[str, Any]
) -> None:
    # (bars of p95 per region, picked: these rows open on bars split by owner, issue 40)
    arguments, result = _chart(live, OWNED, x="region", y="p95_ms")
    handle = result["_meta"][DRILL_META_KEY]["chart"]
    drill.load(session["page"].text)
    drill.show(arguments, result)
    frame = drill.frame
    assert frame.locator(".drill-hint").inner_text() == "Click a mark to see the rows behind it."
    assert drill.tool_calls == []

    _bar(frame, "Zanzibar-North").click()
    frame.wait_for_function(
        "() => document.querySelector('section.behind')?.dataset.state === 'shown'"
    )
    ((call),) = drill.tool_calls
    assert call["name"] == ROWS_BEHIND_TOOL
    assert (call["arguments"]["chart"], call["arguments"]["offset"]) == (handle, 0)
    datum = call["arguments"]["selection"]["datum"]
    assert datum["region"] == "Zanzibar-North" and datum["p95_ms"] == 27

    panel = frame.locator("section.behind")
    assert panel.locator("h3").inner_text() == 'Rows behind region = "Zanzibar-North"'
    assert panel.locator(".behind-summary").inner_text() == (
        "2 rows behind this selection; cells that break the declaration: owner 1."
    )
    # the most frequent offending values among just these rows, as text
    offenders = panel.locator(".behind-offenders")
    assert offenders.locator("p").inner_text() == (
        "Offending values among these rows, the most frequent first:"
    )
    assert offenders.locator("li").all_inner_texts() == ["owner: 7 ×1"]
    assert panel.locator("th").all_inner_texts() == ["row", "region", "p95_ms", "owner"]
    assert panel.locator("td").all_inner_texts() == [
        "#1", "Zanzibar-North", "41.5", "<b>ann</b>",
        "#2", "Zanzibar-North", "12.5", "7",
    ]  # fmt: skip
    assert panel.locator("b").count() == 0  # a value is text, never markup
    offending = panel.locator("td.offends")
    assert offending.all_inner_texts() == ["7"]
    assert offending.get_attribute("title") == "breaks the declaration: declared string"

    # The model is told what the user selected, in the server's words, with the rows.
    expected = live.call(ROWS_BEHIND_TOOL, call["arguments"])["structuredContent"]
    frame.locator(".behind-context").wait_for()
    assert frame.locator(".behind-context").inner_text() == "The model was told what you selected."
    children = "[...document.querySelector('section.behind').children].map(e => e.className)"
    assert frame.evaluate(children) == [
        "behind-title", "behind-summary", "behind-offenders", "rows", "behind-context",
    ]  # fmt: skip
    if shots := os.environ.get("CHARTKIT_SCREENSHOT_DIR"):  # docs/drill-down.md's picture
        drill.page.set_viewport_size({"width": 900, "height": 1800})  # the whole iframe painted
        top = drill.page.locator("#apps iframe").bounding_box()
        end = frame.locator("section.behind").bounding_box()
        clip = {**top, "height": end["y"] + end["height"] + 16 - top["y"]}  # chart to rows
        drill.page.screenshot(path=str(Path(shots) / "mcp-app-drill.png"), clip=clip)
    assert drill.model_context == [
        {
            "content": [{"type": "text", "text": expected["modelContext"]}],
            "structuredContent": {
                "tool": "p95",
                "selection": 'region = "Zanzibar-North"',
                "total": 2,
                "offenders": {"owner": 1},
            },
        }
    ]
    assert expected["modelContext"].startswith(
        'The user selected region = "Zanzibar-North" in the chart of p95 ('
    )
    assert expected["modelContext"].endswith(
        '{"region": "Zanzibar-North", "p95_ms": 41.5, "owner": "<b>ann</b>"}\n'
        '{"region": "Zanzibar-North", "p95_ms": 12.5, "owner": 7}'
    )

    # The rows the chart left out are a button away: the n/a row, its p95_ms cell offending.
    button = frame.locator("button.left-out")
    assert button.inner_text() == "Show the 1 row left out of the chart"
    button.click()
    frame.wait_for_function(
        "() => document.querySelector('section.behind h3')?.textContent === "
        "'Rows behind the rows left out of the chart'"
    )
    frame.wait_for_function(
        "() => document.querySelector('section.behind').dataset.state === 'shown'"
    )
    assert drill.tool_calls[-1]["arguments"]["selection"] == {"leftOut": True}
    assert panel.locator("td").all_inner_texts() == ["#4", "Quixote-West", "n/a", "Dee-Quill"]
    assert panel.locator("td.offends").all_inner_texts() == ["n/a"]
    assert panel.locator(".behind-offenders li").all_inner_texts() == ['p95_ms: "n/a" ×1']
    assert len(drill.model_context) == 2  # each selection replaces what the model was told


def test_many_rows_behind_a_bar_arrive_chunk_by_chunk(
    drill: Host, live: Live, session: dict[str, Any]
) -> None:
    rows = [
        {"region": "Zanzibar-North", "p95_ms": float(i), "owner": f"o-{i:03d}-" + "é" * 300}
        for i in range(300)
    ]
    rows.append({"region": "Quixote-West", "p95_ms": 1.0, "owner": "x"})
    arguments, result = _chart(live, rows)
    drill.load(session["page"].text)
    drill.show(arguments, result)
    frame = drill.frame
    _bar(frame, "Zanzibar-North").click()
    frame.wait_for_function(
        "() => document.querySelector('section.behind')?.dataset.state === 'shown'"
    )
    first = frame.locator("table.behind-rows tr").count() - 1
    assert 0 < first < 300  # the byte cap cut the first chunk short of every row
    while frame.locator("section.behind button.more").count():
        before = len(drill.tool_calls)
        frame.locator("section.behind button.more").click()  # the panel says "loading" at once
        drill.page.wait_for_function(f"() => window.testHost.toolCalls.length > {before}")
        frame.wait_for_function(
            "() => document.querySelector('section.behind').dataset.state === 'shown'"
        )
    offsets = [c["arguments"]["offset"] for c in drill.tool_calls]
    assert offsets[0] == 0 and offsets == sorted(offsets) and len(offsets) > 1
    indexes = frame.locator("table.behind-rows td.index").all_inner_texts()
    assert indexes == [f"#{i + 1}" for i in range(300)]  # every row once, in order
    assert frame.locator("table.behind-rows caption").inner_text() == (
        "300 rows, as the tool returned them"
    )
    assert len(drill.model_context) == 1  # the model is told once per selection


def test_under_enforce_nothing_of_a_refused_result_is_reachable_from_the_page(
    drill: Host, live: Live, session: dict[str, Any]
) -> None:
    arguments, result = _chart(live, OWNED, mode="enforce")
    assert result["structuredContent"]["kind"] == "refused"
    assert DRILL_META_KEY not in result.get("_meta", {})  # no handle reaches the page
    drill.load(session["page"].text)
    drill.show(arguments, result)
    frame = drill.frame
    assert frame.locator(".drill-hint, section.behind, button.left-out").count() == 0
    frame.locator("article.message").click()
    dom = frame.evaluate("document.documentElement.outerHTML")
    assert [v for v in ("Zanzibar-North", "<b>ann</b>", "Cy-Rune", "Dee-Quill") if v in dom] == []
    assert drill.tool_calls == [] and drill.model_context == []


def test_a_host_that_proxies_no_tool_calls_gets_the_chart_without_drilling(
    drill: Host, live: Live, session: dict[str, Any]
) -> None:
    arguments, result = _chart(live, OWNED, x="region", y="p95_ms")  # bars of p95 per region
    drill.load(session["page"].text, server_tools=False)
    drill.show(arguments, result)
    frame = drill.frame
    assert frame.locator("article.message").get_attribute("data-state") == "drawn"
    assert frame.locator(".drill-hint, section.behind, button.left-out").count() == 0
    _bar(frame, "Zanzibar-North").click()
    assert drill.tool_calls == [] and drill.model_context == []


def test_a_histogram_bar_answers_exactly_the_rows_of_its_bin(
    drill: Host, live: Live, session: dict[str, Any]
) -> None:
    rows: list[dict[str, Any]] = [{"v": float(i % 17)} for i in range(50)]
    arguments = {"rows": rows, "resultColumns": {"v": "number"}, "tool": "spread"}
    result = live.call("chart_rows", arguments)
    (bins,) = result["structuredContent"]["spec"]["datasets"].values()
    first = bins[0]  # {"v": 0.0, "v_end": 1.6, "count": 6}
    drill.load(session["page"].text)
    drill.show(arguments, result)
    frame = drill.frame
    # the bins are clicked (the drill names v brushable too: the brush's rectangle is apart)
    assert frame.locator(".drill-hint").inner_text() == (
        "Click a mark, or drag across the chart, to see the rows behind it."
    )
    frame.locator(".chart svg .mark-rect.role-mark path[aria-label]").first.click()
    frame.wait_for_function(
        "() => document.querySelector('section.behind')?.dataset.state === 'shown'"
    )
    assert frame.locator("section.behind h3").inner_text() == (
        f"Rows behind v in [{first['v']:g}, {first['v_end']:g})"
    )
    cells = frame.locator("table.behind-rows td:not(.index)").all_inner_texts()
    assert len(cells) == first["count"]
    assert all(first["v"] <= float(c) < first["v_end"] for c in cells)


def test_a_line_is_brushed_not_clicked_and_offers_its_rows_left_out(
    drill: Host, live: Live, session: dict[str, Any]
) -> None:
    rows: list[dict[str, Any]] = [
        {"t": f"2024-01-{d:02d}T00:00:00Z", "v": float(d)} for d in range(1, 21)
    ]
    rows[4]["v"] = "late"
    arguments = {"rows": rows, "resultColumns": {"t": "date", "v": "number"}, "tool": "trend"}
    result = live.call("chart_rows", arguments)
    assert result["structuredContent"]["mark"] == "line"
    drill.load(session["page"].text)
    drill.show(arguments, result)
    frame = drill.frame
    # A line is one path over many marks: a click on it names none; a brush names a range.
    assert frame.locator(".drill-hint").inner_text() == (
        "Drag across the chart to see the rows behind a range."
    )
    line = frame.locator(".chart svg .mark-line.role-mark path").first
    line.click()
    assert drill.tool_calls == []
    box = line.bounding_box()
    y = box["y"] + box["height"] / 2
    drill.page.mouse.move(box["x"] + box["width"] * 0.3, y)
    drill.page.mouse.down()
    drill.page.mouse.move(box["x"] + box["width"] * 0.6, y, steps=8)
    drill.page.mouse.up()
    drill.page.wait_for_function("() => window.testHost.toolCalls.length > 0")
    frame.wait_for_function(
        "() => document.querySelector('section.behind')?.dataset.state === 'shown'"
    )
    ((call),) = drill.tool_calls
    low, high = call["arguments"]["selection"]["interval"]["t"]
    assert low < high and low.startswith("2024-01-") and high.startswith("2024-01-")
    # The rows shown are the server's answer: every placed row whose time lies in the range.
    answer = live.call(ROWS_BEHIND_TOOL, call["arguments"])["structuredContent"]
    inside = [i for i, r in enumerate(rows) if r["v"] != "late" and low <= r["t"][:19] <= high[:19]]
    assert [r["index"] for r in answer["rows"]] == inside and len(inside) >= 3
    shown = frame.locator("table.behind-rows td.index").all_inner_texts()
    assert shown == [f"#{i + 1}" for i in inside]
    assert len(drill.model_context) == 1

    frame.locator("button.left-out").click()
    frame.wait_for_function(
        "() => document.querySelector('section.behind h3')?.textContent === "
        "'Rows behind the rows left out of the chart'"
    )
    frame.wait_for_function(
        "() => document.querySelector('section.behind').dataset.state === 'shown'"
    )
    assert drill.tool_calls[-1]["arguments"]["selection"] == {"leftOut": True}
    assert frame.locator("section.behind td").all_inner_texts() == [
        "#5",
        "2024-01-05T00:00:00Z",
        "late",
    ]


def test_what_the_page_offers_to_select_is_the_payloads_drill(
    drill: Host, live: Live, session: dict[str, Any]
) -> None:
    """The page reads ``drill`` (``View.to_dict()["drill"]``): a scatter whose x the drill names
    brushable is clicked and brushed; the same chart whose drill names nothing brushable is
    only clicked; a payload without a drill offers nothing, whatever its handle."""
    # (a off the whole numbers: a whole, evenly spaced a keying the rows is a grid, drawn as
    # a line)
    rows: list[dict[str, Any]] = [
        {"a": float(i) + 0.5, "b": float((i * 7) % 13)} for i in range(30)
    ]
    arguments = {"rows": rows, "resultColumns": {"a": "number", "b": "number"}, "tool": "pairs"}
    result = live.call("chart_rows", arguments)
    payload = result["structuredContent"]
    assert payload["mark"] == "point" and payload["drill"]["brushable"] == ["a", "b"]
    drill.load(session["page"].text)
    drill.show(arguments, result)
    frame = drill.frame
    assert frame.locator(".drill-hint").inner_text() == (
        "Click a mark, or drag across the chart, to see the rows behind it."
    )
    area = frame.locator(".chart svg path.background").first.bounding_box()
    y = area["y"] + area["height"] / 2
    drill.page.mouse.move(area["x"] + area["width"] * 0.2, y)
    drill.page.mouse.down()
    drill.page.mouse.move(area["x"] + area["width"] * 0.5, y, steps=8)
    drill.page.mouse.up()
    drill.page.wait_for_function("() => window.testHost.toolCalls.length > 0")
    frame.wait_for_function(
        "() => document.querySelector('section.behind')?.dataset.state === 'shown'"
    )
    ((call),) = drill.tool_calls
    low, high = call["arguments"]["selection"]["interval"]["a"]
    assert 0 < low < high < 29
    inside = [f"#{i + 1}" for i, r in enumerate(rows) if low <= r["a"] <= high]
    assert frame.locator("table.behind-rows td.index").all_inner_texts() == inside
    assert frame.locator("section.behind h3").inner_text().startswith("Rows behind a in [")

    # the same chart, its drill naming no brushable field: marks are clicked, never brushed
    clicked = {**result, "structuredContent": {**payload, "drill": {**payload["drill"],
                                                                    "brushable": []}}}  # fmt: skip
    drill.show(arguments, clicked)
    assert frame.locator(".drill-hint").inner_text() == "Click a mark to see the rows behind it."
    spec = frame.evaluate("window.chartkit.views[window.chartkit.views.length - 1].getState()")
    assert "chartkit_brush" not in str(spec["signals"])
    point = frame.locator(".chart svg .mark-symbol.role-mark path").first
    point.click(force=True)
    drill.page.wait_for_function("() => window.testHost.toolCalls.length > 1")
    assert "datum" in drill.tool_calls[-1]["arguments"]["selection"]

    # no drill in the payload: no hint, no panel, no call — the handle alone offers nothing
    bare = {**result, "structuredContent": {**payload, "drill": None}}
    before = len(drill.tool_calls)
    drill.show(arguments, bare)
    assert frame.locator("article.message").get_attribute("data-state") == "drawn"
    assert frame.locator(".drill-hint, section.behind, button.left-out").count() == 0
    frame.locator(".chart svg .mark-symbol.role-mark path").first.click(force=True)
    drill.page.wait_for_timeout(500)
    assert len(drill.tool_calls) == before
