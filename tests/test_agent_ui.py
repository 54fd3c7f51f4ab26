"""``examples/agent_ui.html`` renders View payloads offline, in headless Chromium.

The page is opened from ``file://`` with the payload of a real View embedded, and every request
that is not a local file is aborted and recorded: the chart must be drawn from the local
vega-embed bundle alone. Skips without Chromium or Playwright unless
``CHARTKIT_BROWSER_TESTS=required``.
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
    caplog.set_level(logging.ERROR, logger="chartkit.integrity")


def payload(name: str, mode: str = "warn", **picks: str) -> dict[str, Any]:
    result = ToolResult.from_wire(json.loads((EXAMPLES / name).read_text(encoding="utf-8")))
    out: dict[str, Any] = view(result, mode=mode, **picks).to_dict()  # type: ignore[arg-type]
    return out


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory holding the generated vendor/vega-bundle.js, where the test pages go."""
    require_browser()
    directory = tmp_path_factory.mktemp("agent_ui")
    bundle = builder.write_bundle(directory)
    assert bundle == directory / "vendor" / "vega-bundle.js"
    assert "window.vegaEmbed" in bundle.read_text(encoding="utf-8")
    return directory


class Visit:
    """What the page did: every request it made, the ones aborted, and its console errors."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.requests: list[str] = []
        self.blocked: list[str] = []
        self.errors: list[str] = []


@pytest.fixture(scope="module")
def browser_context(site: Path) -> Iterator[Any]:
    with browser_page(width=1100, height=1400) as page:
        yield page.context


@pytest.fixture
def open_page(browser_context: Any, site: Path) -> Iterator[Callable[..., Visit]]:
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
            if route.request.url.startswith("file:"):
                route.continue_()
            else:
                seen.blocked.append(route.request.url)
                route.abort()

        page.route("**/*", offline)
        if init_script is not None:
            page.add_init_script(init_script)
        page.goto(page_file.as_uri())
        page.wait_for_function("document.body.dataset.state !== undefined")
        return seen

    yield visit
    for page in pages:
        page.close()


def build(site: Path, name: str, payloads: Any) -> Path:
    target = site / name
    target.write_text(builder.page_with_payloads(payloads), encoding="utf-8")
    return target


def assert_offline(seen: Visit) -> None:
    assert seen.blocked == []
    assert all(url.startswith("file://") for url in seen.requests), seen.requests
    assert any(url.endswith("/vendor/vega-bundle.js") for url in seen.requests)


# -- a chart with a finding ---------------------------------------------------------------


def test_the_lun_example_under_warn_draws_its_bars_offline_and_shows_the_finding(
    site: Path, open_page: Callable[..., Visit]
) -> None:
    lun = payload("host_group_mappings.json", "warn")
    seen = open_page(build(site, "lun.html", lun))
    page = seen.page
    assert_offline(seen)
    assert seen.errors == []
    assert page.evaluate("document.body.dataset.state") == "done"
    article = page.locator("article.message")
    assert article.count() == 1
    assert article.get_attribute("data-state") == "drawn"

    (dataset,) = lun["spec"]["datasets"].values()
    bars = page.locator(".chart svg .mark-rect.role-mark path")
    assert bars.count() == len(dataset) == 8
    axis_labels = page.locator(".chart svg .role-axis-label text").all_text_contents()
    assert {row["host_group"] for row in dataset} <= set(axis_labels)
    assert page.evaluate("window.chartkit.views.length") == 1

    assert page.locator(".reason").inner_text() == lun["reason"]
    (finding,) = lun["findings"]
    assert page.locator(".finding-message").inner_text() == finding["message"]
    assert (
        page.locator(".finding-message")
        .inner_text()
        .startswith(
            "'host_group_mappings' declares column 'logical_unit_number' as number, and 166 of "
            '2056 rows hold something else — the first is "" (string).'
        )
    )
    details = page.locator(".finding dl.violation dd").all_inner_texts()
    assert details == [
        "logical_unit_number",
        "number (not nullable)",
        "column-type-mismatch",
        "166 of 2056",
        "0",
        '"" (string)',
        "string",
    ]
    assert page.locator(".notes li").all_inner_texts() == lun["notes"]
    assert page.locator("h3").all_inner_texts()[:1] == ["1 FINDING"]


# -- a table: the reason and the refused axes ---------------------------------------------


def test_the_volume_io_stats_table_shows_its_reason_and_each_refused_axis(
    site: Path, open_page: Callable[..., Visit]
) -> None:
    table = payload("volume_io_stats.json", "warn")
    assert table["kind"] == "table"
    seen = open_page(build(site, "table.html", table))
    page = seen.page
    assert_offline(seen)
    assert seen.errors == []
    article = page.locator("article.message")
    assert article.get_attribute("data-kind") == "table"
    assert article.get_attribute("data-state") == "no-chart"
    assert page.locator("article svg").count() == 0
    assert page.locator(".reason").inner_text() == (
        "No usable column is declared number: read_iops, write_iops and latency_ms are declared "
        "number but every row holds a number in quotes (the tool quotes its numbers); volume is "
        "string, array is string."
    )
    assert page.locator(".no-chart").inner_text() == (
        "No chart: this result is shown as a table (the payload carries no rows)."
    )
    reasons = page.locator(".refusal-reason").all_inner_texts()
    assert reasons == [f"Refused y axis — {r['reason']}" for r in table["refusals"]]
    assert reasons[0] == (
        "Refused y axis — read_iops is declared number, but all 200 rows hold string (first: "
        '"3015") — every one a number in quotes: the tool quotes its numbers. chartkit converts '
        "nothing; fix the tool to return numbers, or declare the column string."
    )
    first = page.locator(".refusal").first.locator("dl.violation dd").all_inner_texts()
    assert first[3:6] == ["200 of 200", "0", '"3015" (string)']
    assert page.locator(".finding").count() == 3


def test_a_refused_result_shows_the_refusal_and_no_chart(
    site: Path, open_page: Callable[..., Visit]
) -> None:
    refused = payload("host_group_mappings.json", "enforce")
    seen = open_page(build(site, "refused.html", refused))
    page = seen.page
    assert_offline(seen)
    assert page.locator("article").get_attribute("data-kind") == "refused"
    assert page.locator(".reason").inner_text() == refused["reason"]
    assert page.locator(".reason").inner_text().endswith("No data was returned.")
    assert page.locator(".no-chart").inner_text() == (
        "No chart: the result was refused, and no data was returned."
    )
    assert page.locator(".badge.status-invalid").inner_text() == "invalid"


# -- the other ways in --------------------------------------------------------------------


def test_a_list_of_payloads_renders_one_message_each(
    site: Path, open_page: Callable[..., Visit]
) -> None:
    payloads = builder.payloads_from_file(EXAMPLES / "run_incident.jsonl", mode="warn")
    seen = open_page(build(site, "run.html", payloads))
    page = seen.page
    assert_offline(seen)
    states = page.locator("article.message").evaluate_all(
        "nodes => nodes.map(n => [n.dataset.kind, n.dataset.state])"
    )
    assert states == [
        [p["kind"], "drawn" if p["kind"] == "chart" else "no-chart"] for p in payloads
    ]
    assert page.locator(".reason").all_inner_texts() == [p["reason"] for p in payloads]


def test_a_host_can_hand_the_payload_over_as_window_chartkit_payload(
    site: Path, open_page: Callable[..., Visit]
) -> None:
    lun = payload("host_group_mappings.json", "warn")
    plain = site / "plain.html"
    plain.write_text(builder.PAGE.read_text(encoding="utf-8"), encoding="utf-8")
    seen = open_page(plain, init_script=f"window.CHARTKIT_PAYLOAD = {builder.script_json(lun)};")
    assert_offline(seen)
    assert seen.page.locator("article").get_attribute("data-state") == "drawn"
    assert seen.page.locator(".finding-message").inner_text() == lun["findings"][0]["message"]


def test_the_bare_page_asks_for_a_payload_file_and_renders_the_one_opened(
    site: Path, open_page: Callable[..., Visit], tmp_path: Path
) -> None:
    plain = site / "plain.html"
    plain.write_text(builder.PAGE.read_text(encoding="utf-8"), encoding="utf-8")
    seen = open_page(plain)
    page = seen.page
    assert page.evaluate("document.body.dataset.state") == "empty"
    assert page.locator("#empty").is_visible()
    table = payload("volume_io_stats.json", "warn")
    opened = tmp_path / "view.json"
    opened.write_text(json.dumps(table), encoding="utf-8")
    page.set_input_files("#open", str(opened))
    page.wait_for_selector("article.message")
    assert page.locator(".reason").inner_text() == table["reason"]
    assert not page.locator("#empty").is_visible()


def test_a_payload_cannot_make_the_page_fetch_anything(
    site: Path, open_page: Callable[..., Visit]
) -> None:
    leaky = payload("capacity_view.json", "warn")
    leaky["spec"].pop("datasets")
    leaky["spec"]["data"] = {"url": "https://example.com/rows.json"}
    leaky["reason"] = "<img src='https://example.com/pixel.png'>"
    seen = open_page(build(site, "leaky.html", leaky))
    assert seen.page.locator(".reason").inner_text() == leaky["reason"]  # text, not HTML
    assert seen.page.locator("article img").count() == 0
    assert seen.blocked == []
    assert [u for u in seen.requests if not u.startswith("file://")] == []
    assert any("connect-src 'none'" in e for e in seen.errors), seen.errors


def test_without_the_bundle_the_page_says_how_to_build_it(
    open_page: Callable[..., Visit], tmp_path: Path
) -> None:
    lonely = tmp_path / "lonely.html"
    lonely.write_text(
        builder.page_with_payloads(payload("capacity_view.json", "warn")), encoding="utf-8"
    )
    seen = open_page(lonely)
    assert seen.page.locator("article").get_attribute("data-state") == "no-bundle"
    assert seen.page.locator(".chart-slot .error").inner_text() == (
        "The chart needs vendor/vega-bundle.js next to this page; build it with "
        "`python examples/build_agent_ui.py`."
    )


def test_embedded_payload_text_cannot_close_the_script_element() -> None:
    text = builder.script_json({"reason": "</script><script>alert(1)</script> & more"})
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text) == {"reason": "</script><script>alert(1)</script> & more"}
