"""The agent UI: chartkit's one View renderer (``chartkit/web/view.html``) opened on its own.

The same page MCP Apps hosts load as ``ui://chartkit/view.html`` (``test_browser_mcp_app.py``)
is opened here from ``file://``, with payloads of real Views embedded by
``examples/build_agent_ui.py``. Every request is recorded and any that is not the page itself
is aborted: the chart must be drawn from the page alone. Skips without Chromium or Playwright
unless ``CHARTKIT_BROWSER_TESTS=required``.
"""

from __future__ import annotations

import importlib.util
import json
import logging
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from _browser import REPO, browser_page, require_browser

from chartkit import ToolResult, view
from chartkit.page import view_html

pytestmark = pytest.mark.browser

EXAMPLES = REPO / "app" / "examples"


def load_builder() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "build_agent_ui", REPO / "examples" / "build_agent_ui.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


builder = load_builder()


@pytest.fixture(autouse=True)
def _quiet_findings(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.ERROR, logger="chartkit")


def payload(name: str, mode: str = "warn", **picks: str) -> dict[str, Any]:
    result = ToolResult.from_wire(json.loads((EXAMPLES / name).read_text(encoding="utf-8")))
    out: dict[str, Any] = view(result, mode=mode, **picks).to_dict()  # type: ignore[arg-type]
    return out


class Visit:
    """What the page did: every request it made, the ones aborted, and its console errors."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.requests: list[str] = []
        self.blocked: list[str] = []
        self.errors: list[str] = []


@pytest.fixture(scope="module")
def browser_context() -> Iterator[Any]:
    require_browser()
    with browser_page(width=1100, height=1400) as page:
        yield page.context


@pytest.fixture
def open_page(browser_context: Any) -> Iterator[Callable[..., Visit]]:
    pages: list[Any] = []

    def visit(page_file: Path, *, init_script: str | None = None) -> Visit:
        page = browser_context.new_page()
        pages.append(page)
        seen = Visit(page)
        page.on("request", lambda request: seen.requests.append(request.url))
        page.on("pageerror", lambda error: seen.errors.append(str(error)))
        page.on(
            "console",
            lambda message: seen.errors.append(message.text) if message.type == "error" else None,
        )

        def offline(route: Any) -> None:
            if route.request.url == page_file.as_uri():
                route.continue_()
            else:
                seen.blocked.append(route.request.url)
                route.abort()

        page.route("**/*", offline)
        if init_script is not None:
            page.add_init_script(init_script)
        page.goto(page_file.as_uri())
        page.wait_for_function("() => document.body.dataset.state !== undefined")
        page.wait_for_function(
            "() => [...document.querySelectorAll('article.message')]"
            ".every(a => a.dataset.state !== undefined)"
        )
        return seen

    yield visit
    for page in pages:
        page.close()


def build(tmp_path: Path, name: str, payloads: Any) -> Path:
    return builder.build_page(tmp_path / name, payloads)


def assert_offline(seen: Visit, page_file: Path) -> None:
    assert seen.blocked == []
    assert seen.requests == [page_file.as_uri()]


# -- a chart with a finding ---------------------------------------------------------------


def test_the_lun_example_under_warn_draws_its_points_offline_and_shows_the_finding(
    tmp_path: Path, open_page: Callable[..., Visit]
) -> None:
    lun = payload("host_group_mappings.json", "warn")
    page_file = build(tmp_path, "lun.html", lun)
    seen = open_page(page_file)
    page = seen.page
    assert_offline(seen, page_file)
    assert seen.errors == []
    assert page.evaluate("document.body.dataset.state") == "done"
    article = page.locator("article.message")
    assert article.count() == 1
    assert article.get_attribute("data-state") == "drawn"

    (dataset,) = lun["spec"]["datasets"].values()
    # the flagged LUN column keeps its place (issue 40): a point per row holding a LUN
    points = page.locator(".chart svg .mark-symbol.role-mark path")
    assert points.count() == len(dataset) == 2056 - 166
    legend = page.locator(".chart svg .role-legend-label text").all_text_contents()
    assert {row["host_group"] for row in dataset} <= set(legend)
    assert page.evaluate("window.chartkit.views.length") == 1

    assert page.locator(".verdict").inner_text() == "1 finding — shown as a chart."
    assert page.locator(".reason").inner_text() == lun["reason"]
    (finding,) = lun["findings"]
    assert page.locator(".finding-message").inner_text() == finding["message"]
    assert (
        page.locator(".finding-message")
        .inner_text()
        .startswith(
            "'host_group_mappings' declares column 'logical_unit_number' as number, and 166 of "
            '2,056 rows hold something else — the first is "" (string).'
        )
    )
    details = page.locator(".finding dl.violation dd").all_inner_texts()
    assert details[:6] == [
        "logical_unit_number",
        "number (not nullable)",
        "column-type-mismatch",
        "166 of 2,056",
        "0",
        '"" (string)',
    ]
    assert page.locator("section.notes li").all_inner_texts() == lun["notes"]
    assert page.locator("h3").all_inner_texts()[:1] == ["1 FINDING"]
    alternatives = page.locator("details.alternatives li")
    assert alternatives.count() == len(lun.get("alternatives") or [])
    # The file picker stays at the top, with the page rendered below it.
    assert page.locator("#open").is_visible()


# -- a table: the reason and the refused axes ---------------------------------------------


def test_the_volume_io_stats_table_shows_its_reason_and_each_refused_axis(
    tmp_path: Path, open_page: Callable[..., Visit]
) -> None:
    table = payload("volume_io_stats.json", "warn")
    assert table["kind"] == "table" and table["refusals"]
    seen = open_page(build(tmp_path, "table.html", table))
    page = seen.page
    assert seen.errors == []
    article = page.locator("article.message")
    assert article.get_attribute("data-kind") == "table"
    assert article.get_attribute("data-state") == "no-chart"
    assert page.locator("article svg").count() == 0
    assert page.locator(".reason").inner_text() == table["reason"]
    assert page.locator(".no-chart").inner_text() == (
        "No chart: this result is shown as a table (the payload carries no rows)."
    )
    reasons = page.locator(".refusal-reason").all_inner_texts()
    assert reasons == [f"Refused {r['channel']} axis — {r['reason']}" for r in table["refusals"]]
    first = page.locator(".refusal").first.locator("dl.violation dd").all_inner_texts()
    assert first[3:6] == ["200 of 200", "0", '"3015" (string)']
    assert page.locator(".finding").count() == len(table["findings"]) == 3


def test_a_refused_result_shows_the_refusal_and_no_chart(
    tmp_path: Path, open_page: Callable[..., Visit]
) -> None:
    refused = payload("host_group_mappings.json", "enforce")
    seen = open_page(build(tmp_path, "refused.html", refused))
    page = seen.page
    assert page.locator("article").get_attribute("data-kind") == "refused"
    assert page.locator(".verdict").inner_text() == "Refused: no data was returned."
    assert page.locator(".reason").inner_text() == refused["reason"]
    assert page.locator(".reason").inner_text().endswith("No data was returned.")
    assert page.locator(".no-chart").inner_text() == (
        "No chart: the result was refused, and no data was returned."
    )
    assert page.locator(".badge.status-invalid").inner_text() == "invalid"


# -- the other ways in --------------------------------------------------------------------


def test_a_list_of_payloads_renders_one_message_each(
    tmp_path: Path, open_page: Callable[..., Visit]
) -> None:
    payloads = builder.payloads_from_file(EXAMPLES / "run_incident.jsonl", mode="warn")
    page_file = build(tmp_path, "run.html", payloads)
    seen = open_page(page_file)
    page = seen.page
    assert_offline(seen, page_file)
    states = page.locator("article.message").evaluate_all(
        "nodes => nodes.map(n => [n.dataset.kind, n.dataset.state])"
    )
    assert states == [
        [p["kind"], "drawn" if p["kind"] == "chart" else "no-chart"] for p in payloads
    ]
    assert page.locator(".reason").all_inner_texts() == [p["reason"] for p in payloads]


def test_a_host_can_hand_the_payload_over_as_window_chartkit_payload(
    tmp_path: Path, open_page: Callable[..., Visit]
) -> None:
    lun = payload("host_group_mappings.json", "warn")
    plain = build(tmp_path, "plain.html", None)
    assert plain.read_text(encoding="utf-8") == view_html()  # the shipped page, as it is
    seen = open_page(plain, init_script=f"window.CHARTKIT_PAYLOAD = {builder.script_json(lun)};")
    assert seen.page.locator("article").get_attribute("data-state") == "drawn"
    assert seen.page.locator(".finding-message").inner_text() == lun["findings"][0]["message"]


def test_the_bare_page_keeps_its_file_picker_and_says_a_bad_file_at_the_top(
    tmp_path: Path, open_page: Callable[..., Visit]
) -> None:
    seen = open_page(build(tmp_path, "bare.html", None))
    page = seen.page
    assert page.evaluate("document.body.dataset.state") == "empty"
    assert page.locator("#empty").is_visible()

    bad = tmp_path / "notes.json"
    bad.write_text('{"hello": "world"}', encoding="utf-8")
    page.set_input_files("#open", str(bad))
    page.wait_for_selector("#errors .error")
    assert page.locator("#errors .error").inner_text() == (
        "Could not open notes.json: it is not a chartkit View payload (it needs kind chart, "
        "table or refused, and a reason); write one with View.to_json()"
    )
    # The error sits above everything else on the page, where the eye is.
    order = page.evaluate(
        "[...document.querySelector('main').children].filter(e => !e.hidden && "
        "e.getBoundingClientRect().height > 0).map(e => e.id)"
    )
    assert order[:2] == ["bar", "errors"]

    table = payload("volume_io_stats.json", "warn")
    opened = tmp_path / "view.json"
    opened.write_text(json.dumps(table), encoding="utf-8")
    page.set_input_files("#open", str(opened))
    page.wait_for_selector("article.message")
    assert page.locator(".reason").inner_text() == table["reason"]
    assert page.locator("#errors .error").count() == 0  # the previous error is cleared
    assert not page.locator("#empty").is_visible()
    assert page.locator("#open").is_visible()  # and the picker is still there for the next

    lun = payload("host_group_mappings.json", "warn")
    second = tmp_path / "lun.json"
    second.write_text(json.dumps(lun), encoding="utf-8")
    page.set_input_files("#open", str(second))
    page.wait_for_function("() => document.querySelectorAll('article.message').length === 2")


def test_data_is_text_never_markup_and_the_page_fetches_nothing(
    tmp_path: Path, open_page: Callable[..., Visit]
) -> None:
    leaky = payload("capacity_view.json", "warn")
    leaky["spec"].pop("datasets", None)
    leaky["spec"]["data"] = {"url": "https://example.com/rows.json"}
    leaky["reason"] = "<img src='https://example.com/pixel.png'> **bold** $x^2$"
    leaky["tool"] = "<b>tool</b>"
    leaky["notes"] = ["<script>window.pwned = 1</script>"]
    page_file = build(tmp_path, "leaky.html", leaky)
    seen = open_page(page_file)
    page = seen.page
    assert page.locator(".reason").inner_text() == leaky["reason"]  # text, not HTML
    assert page.locator("header .tool").inner_text() == "<b>tool</b>"
    assert page.locator("section.notes li").inner_text() == "<script>window.pwned = 1</script>"
    assert page.locator("article img, article b, article script").count() == 0
    assert page.evaluate("window.pwned") is None
    assert page.locator("article").get_attribute("data-state") == "error"
    assert page.locator(".chart-slot .error").inner_text() == (
        "The chart could not be drawn: its spec asks for data from outside the payload "
        "(https://example.com/rows.json), and chartkit's view loads nothing."
    )
    assert_offline(seen, page_file)


def test_the_page_follows_a_dark_colour_scheme(
    tmp_path: Path, open_page: Callable[..., Visit]
) -> None:
    page_file = build(tmp_path, "dark.html", payload("host_group_mappings.json", "warn"))
    seen = open_page(page_file, init_script="")
    page = seen.page
    page.emulate_media(color_scheme="dark")
    page.reload()
    page.wait_for_function("() => document.documentElement.dataset.theme === 'dark'")
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(13, 17, 23)"
    page.wait_for_function("() => document.querySelector('article').dataset.state === 'drawn'")


def test_embedded_payload_text_cannot_close_the_script_element() -> None:
    text = builder.script_json({"reason": "</script><script>alert(1)</script> & more\u2028"})
    assert "<" not in text and ">" not in text and "&" not in text and "\u2028" not in text
    assert json.loads(text) == {"reason": "</script><script>alert(1)</script> & more\u2028"}


def test_a_page_holding_a_payload_renders_it_inside_a_frame_too(
    tmp_path: Path, browser_context: Any
) -> None:
    inner = build(tmp_path, "inner.html", payload("host_group_mappings.json", "warn"))
    outer = tmp_path / "outer.html"
    outer.write_text(f'<iframe src="{inner.name}" width="900" height="900"></iframe>', "utf-8")
    page = browser_context.new_page()
    try:
        page.goto(outer.as_uri())
        frame = page.frame_locator("iframe")
        frame.locator("article.message[data-state=drawn]").wait_for()
        # a point per row holding a LUN (the flagged column keeps its place)
        assert frame.locator(".chart svg .mark-symbol.role-mark path").count() == 2056 - 166
        assert frame.locator("#status").inner_text() == ""  # not waiting for an MCP host
    finally:
        page.close()


def test_a_spec_cannot_change_how_it_is_embedded(
    tmp_path: Path, open_page: Callable[..., Visit]
) -> None:
    lun = payload("host_group_mappings.json", "warn")
    lun["spec"]["usermeta"] = {"embedOptions": {"ast": False, "actions": True}}
    seen = open_page(build(tmp_path, "usermeta.html", lun))
    assert seen.page.locator("article").get_attribute("data-state") == "drawn"
    assert seen.page.locator(".vega-actions").count() == 0  # its options were not taken
    assert seen.errors == []  # and no eval was attempted
