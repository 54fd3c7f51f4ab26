"""The explorer end to end: a real ``streamlit run`` server and headless Chromium.

Loads the LUN example, downloads the chart, its spec and the View payload, switches the dial
to enforce and back, picks an axis, and checks that Vega drew the chart's marks as SVG
elements on the page. Skips politely without Chromium or
Playwright, unless ``CHARTKIT_BROWSER_TESTS=required`` (CI), where it fails instead.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from _browser import browser_page, require_browser, settle, streamlit_server

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One explorer server for the module (no file given on the command line)."""
    require_browser()
    log = tmp_path_factory.mktemp("streamlit") / "streamlit.log"
    env = {"CHARTKIT_EXPLORE_FILE": "", "CHARTKIT_EXPLORE_MAX_MB": ""}
    with streamlit_server(env=env, log=log) as url:
        yield url


@pytest.fixture(scope="module")
def page(server: str) -> Iterator[Any]:
    """One browser page for the module, logging every request it makes."""
    with browser_page(width=1400, height=1000) as page:
        page.requests_seen = []
        page.on("request", lambda request: page.requests_seen.append(request.url))
        yield page


WAIT_MS = 60_000
BARS = ".vega-embed svg g.mark-rect path"
REFUSAL = (
    "Result rejected: host_group_mappings returned rows that disagree with the columns it "
    "declares — 'logical_unit_number' is declared number and 166 of 2056 rows hold string"
)


def sidebar_radio(page: Any, label: str, option: str) -> None:
    settle(page)
    group = page.locator('[data-testid="stSidebar"] [data-testid="stRadio"]').filter(has_text=label)
    group.get_by_text(option, exact=True).click()


def select(page: Any, label: str, option: str) -> None:
    settle(page)
    box = page.get_by_role("combobox", name=label, exact=True)
    box.click()
    box.press("ArrowDown")  # opens the list of options
    page.locator('[role="option"]').filter(has_text=re.compile(f"^{re.escape(option)}$")).click()


def download(page: Any, label: str, folder: Path) -> Path:
    """Click a download button and answer the saved file (named as the page suggests)."""
    settle(page)
    with page.expect_download(timeout=WAIT_MS) as info:
        page.get_by_role("button", name=label, exact=True).click()
    target = folder / info.value.suggested_filename
    info.value.save_as(target)
    return target


def test_the_lun_example_in_a_real_browser(server: str, page: Any, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    url = server
    if True:  # one server and one page for the module
        page.goto(url)
        expect(page.get_by_role("heading", name="host_group_mappings")).to_be_visible(
            timeout=WAIT_MS
        )
        page.wait_for_selector(BARS, timeout=WAIT_MS)
        bars = page.locator(BARS).count()
        assert bars == 8  # one bar per host group: the mean capacity of each (never a mean LUN)
        assert page.locator(".vega-embed canvas").count() == 0  # drawn as SVG elements
        expect(page.get_by_text("column-type-mismatch", exact=True).first).to_be_visible()

        png = download(page, "PNG", tmp_path)
        assert png.name == "host_group_mappings.png"
        assert png.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
        payload = json.loads(download(page, "View payload", tmp_path).read_text())
        assert payload["kind"] == "chart"
        assert payload["findings"][0]["column"] == "logical_unit_number"
        spec = json.loads(download(page, "Vega-Lite spec", tmp_path).read_text())
        assert spec["encoding"]["x"]["field"] == "capacity_gb"  # the measure the check found clean

        sidebar_radio(page, "The dial", "enforce")
        expect(page.get_by_text(REFUSAL).first).to_be_visible(timeout=WAIT_MS)
        expect(page.locator(".vega-embed")).to_have_count(0, timeout=WAIT_MS)
        page.screenshot(path=tmp_path / "enforce.png")

        sidebar_radio(page, "The dial", "warn")
        page.wait_for_selector(BARS, timeout=WAIT_MS)
        expect(page.get_by_text(REFUSAL)).to_have_count(0)

        select(page, "x", "initiator_wwn")
        axis_titles = page.locator(".vega-embed svg g.role-axis-title text")
        expect(axis_titles.filter(has_text="initiator_wwn")).to_have_count(1, timeout=WAIT_MS)
        page.wait_for_selector(BARS, timeout=WAIT_MS)
        assert page.locator(BARS).count() == 30  # the 30 initiators with the highest mean LUN
        box = page.locator(".vega-embed svg").first.bounding_box()
        assert box is not None and box["width"] > 300 and box["height"] > 150
        page.screenshot(path=tmp_path / "explorer.png", full_page=True)
    assert (tmp_path / "explorer.png").stat().st_size > 10_000


HOSTILE = "![x](http://beacon.invalid/t.png) **b** $x^2$ `c` <img src=http://beacon.invalid/i>"


def test_hostile_names_are_text_and_the_page_fetches_nothing_outside(
    server: str, page: Any
) -> None:
    from playwright.sync_api import expect

    rows = [{HOSTILE: "", "n": 1.0}, {HOSTILE: 2, "n": 2.0}]
    result = {
        "tool": HOSTILE,
        "description": HOSTILE,
        "rows": rows,
        "resultColumns": {HOSTILE: "number", "n": "number"},
    }
    page.goto(server)
    settle(page)
    page.requests_seen.clear()
    sidebar_radio(page, "Source", "Paste JSON")
    settle(page)
    box = page.locator('[data-testid="stSidebar"] textarea')
    box.fill(json.dumps(result))
    box.press("Control+Enter")
    settle(page)
    heading = page.locator("h1").filter(has_text="beacon.invalid")
    expect(heading).to_have_text(HOSTILE, timeout=WAIT_MS)  # shown as typed, every character
    expect(page.get_by_text("$x^2$").first).to_be_visible()
    page.wait_for_timeout(500)
    assert page.locator(".katex, img[src*='beacon'], strong:text-is('b')").count() == 0
    outside = [u for u in page.requests_seen if not u.startswith((server, "data:", "blob:"))]
    assert outside == []
