"""The explorer end to end: a real ``streamlit run`` server and headless Chromium.

Loads the LUN example, downloads the chart, its spec and the View payload, switches the dial
to enforce and back, picks an axis, and checks that Vega drew the chart's marks as SVG
elements on the page. Clicks a bar and brushes a time range with the mouse: the rows behind
them appear, their offending cells painted in the grid, with the findings for just those rows,
and a brushed range is charted again. Skips politely without Chromium or
Playwright, unless ``CHARTKIT_BROWSER_TESTS=required`` (CI), where it fails instead.
"""

from __future__ import annotations

import datetime as dt
import itertools
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
# the marks' own paths: not a brush's rectangles, nor a legend's symbols
BARS = ".vega-embed svg g.mark-rect.role-mark:not([class*='_brush']) path"
POINTS = ".vega-embed svg g.mark-symbol.role-mark path"


def lun_as_bars(page: Any) -> None:
    """The LUN example drawn as bars of capacity per host group (it opens on its LUNs since
    issue 40: the flagged column keeps its place)."""
    page.wait_for_selector(POINTS, timeout=WAIT_MS)
    select(page, "x", "host_group")
    select(page, "y", "capacity_gb")
    page.wait_for_selector(BARS, timeout=WAIT_MS)


REFUSAL = (
    "Result rejected: host_group_mappings returned rows that disagree with the columns it "
    "declares — 'logical_unit_number' is declared number and 166 of 2,056 rows hold string"
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
        page.wait_for_selector(POINTS, timeout=WAIT_MS)
        # a point per row holding a LUN: the flagged column keeps its place (issue 40)
        assert page.locator(POINTS).count() == 2056 - 166
        assert page.locator(".vega-embed canvas").count() == 0  # drawn as SVG elements
        expect(page.get_by_text("column-type-mismatch", exact=True).first).to_be_visible()

        png = download(page, "PNG", tmp_path)
        assert png.name == "host_group_mappings.png"
        assert png.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
        payload = json.loads(download(page, "View payload", tmp_path).read_text())
        assert payload["kind"] == "chart"
        assert payload["findings"][0]["column"] == "logical_unit_number"
        spec = json.loads(download(page, "Vega-Lite spec", tmp_path).read_text())
        assert spec["encoding"]["x"]["field"] == "capacity_gb"  # five sizes: a grid, on x
        assert spec["encoding"]["y"]["field"] == "logical_unit_number"

        sidebar_radio(page, "The dial", "enforce")
        expect(page.get_by_text(REFUSAL).first).to_be_visible(timeout=WAIT_MS)
        expect(page.locator(".vega-embed")).to_have_count(0, timeout=WAIT_MS)
        page.screenshot(path=tmp_path / "enforce.png")

        sidebar_radio(page, "The dial", "warn")
        page.wait_for_selector(POINTS, timeout=WAIT_MS)
        expect(page.get_by_text(REFUSAL)).to_have_count(0)

        select(page, "x", "initiator_wwn")
        axis_titles = page.locator(".vega-embed svg g.role-axis-title text")
        expect(axis_titles.filter(has_text="initiator_wwn")).to_have_count(1, timeout=WAIT_MS)
        # the 30 initiators with the highest mean capacity (once the scatter drawn before, with
        # its brush, has left the page)
        expect(page.locator(BARS)).to_have_count(30, timeout=WAIT_MS)
        expect(page.locator(".vega-embed")).to_have_count(1, timeout=WAIT_MS)
        box = page.locator(".vega-embed svg").first.bounding_box()
        assert box is not None and box["width"] > 300 and box["height"] > 150
        page.screenshot(path=tmp_path / "explorer.png", full_page=True)
    assert (tmp_path / "explorer.png").stat().st_size > 10_000


HOSTILE = (
    "![x](http://beacon.invalid/t.png) **b** $x^2$ `c` <img src=http://beacon.invalid/i> "
    ":red[r] :smile: www.beacon.invalid"
)


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
    paste(page, result)
    heading = page.locator("h1").filter(has_text="beacon.invalid")
    expect(heading).to_be_visible(timeout=WAIT_MS)
    # shown as typed, every character (a word joiner, invisible, keeps each address unlinked)
    assert heading.inner_text().replace("\u2060", "").strip() == HOSTILE
    expect(page.get_by_text("$x^2$").first).to_be_visible()
    page.wait_for_timeout(500)
    for markup in (".katex", "img[src*='beacon']", "a[href*='beacon']", "strong:text-is('b')",
                   "code:text-is('c')"):  # fmt: skip
        found = page.locator(markup)
        assert found.count() == 0, (
            markup,
            found.evaluate_all(
                "els => els.map(e => [e.closest('[data-testid]')?.getAttribute('data-testid'),"
                " e.closest('[data-testid=stElementContainer]')?.innerText.slice(0, 80)])"
            ),
        )
    outside = [u for u in page.requests_seen if not u.startswith((server, "data:", "blob:"))]
    assert outside == []


# --- screenshots are tests ------------------------------------------------------------------

SIZES = {"desktop": (1400, 1000), "phone": (390, 844)}

LAYOUT_PROBLEMS = """
() => {
  const main = document.querySelector('[data-testid="stMain"]') || document.body;
  const overflowing = [];
  const shown = main.querySelectorAll([
    '[data-testid="stMarkdownContainer"]', '[data-testid="stAlert"]', '[data-testid="stTable"]',
    '[data-testid="stCaptionContainer"]', 'h1', 'h2', 'h3', 'button',
    '[data-testid="stVegaLiteChart"]', '[data-testid="stDataFrame"]', '[data-testid="stExpander"]',
  ].join(', '));
  for (const el of shown) {
    const box = el.getBoundingClientRect();
    if (box.width === 0) continue;
    const holder = el.parentElement.closest('[data-testid="stVerticalBlock"]');
    const room = holder ? holder.getBoundingClientRect() : null;
    const what = (el.getAttribute('data-testid') || el.tagName) + ': '
                 + (el.innerText || '').slice(0, 60);
    if (room && (box.left < room.left - 1 || box.right > room.right + 1)) {
      overflowing.push(`${what} sticks out of its container`);
    }
    if (el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0
        && !el.matches('[data-testid="stDataFrame"]')) {
      overflowing.push(`${what} is cut off (${el.scrollWidth} > ${el.clientWidth})`);
    }
  }
  const page = document.scrollingElement;
  if (page.scrollWidth > window.innerWidth + 1) overflowing.push('the page scrolls sideways');
  const sections = [[]];
  for (const el of main.querySelectorAll('h1, h2, h3, [data-testid="stMarkdownContainer"]')) {
    // a button with help is in the page twice, one copy not displayed: what is not shown is
    // not read (innerText of an undisplayed element is its whole text)
    if (!el.checkVisibility()) continue;
    if (/^H[123]$/.test(el.tagName)) { sections.push([]); continue; }
    if (el.closest('h1, h2, h3')) continue;
    const text = (el.innerText || '').trim();
    if (text) sections[sections.length - 1].push(text);
  }
  const repeated = [];
  for (const texts of sections) {
    const seen = new Map();
    for (const [i, text] of texts.entries()) {
      for (const sentence of text.split(/(?<=[.!?])\\s+/)) {
        if (sentence.length < 60) continue;
        if (seen.has(sentence) && seen.get(sentence) !== i) repeated.push(sentence);
        seen.set(sentence, i);
      }
    }
  }
  return {overflowing, repeated};
}
"""


def chart_box(page: Any) -> dict[str, float] | None:
    charts = page.locator(".vega-embed")
    return charts.first.bounding_box() if charts.count() else None


def check_layout(page: Any, name: str, size: str, kind: str, folder: Path) -> None:
    width, height = SIZES[size]
    page.set_viewport_size({"width": width, "height": height})
    if kind == "chart":
        page.wait_for_selector(".vega-embed svg .mark-group", timeout=WAIT_MS)
    # Streamlit shows an element's hover toolbar (stBaseButton-elementToolbar) over its top edge
    # while the pointer rests on it: the layout is read with the pointer off the page's content.
    page.mouse.move(0, 0)
    page.wait_for_timeout(400)  # the chart re-lays out to the new width
    page.screenshot(path=folder / f"{name}-{size}.png")
    problems = page.evaluate(LAYOUT_PROBLEMS)
    assert problems == {"overflowing": [], "repeated": []}, (name, size)
    box = chart_box(page)
    if kind == "chart":
        assert box is not None, (name, size)
        assert box["y"] >= 0 and box["y"] + box["height"] <= height, (name, size, box)
        assert box["x"] >= 0 and box["x"] + box["width"] <= width + 1, (name, size, box)


def test_the_opening_page_and_every_example_read_at_a_glance(
    server: str, page: Any, tmp_path: Path
) -> None:
    """At 1400×1000 and 390×844: the whole chart in the first screen, nothing overflowing its
    container, no sentence said twice in a section; the tab names the example."""
    from chartkit.explorer._logic import examples, load_path
    from chartkit.views import view

    titles = set()
    for name in ["opening", *(e.name for e in examples())]:
        page.set_viewport_size({"width": SIZES["desktop"][0], "height": SIZES["desktop"][1]})
        page.goto(server if name == "opening" else f"{server}/?example={name}")
        settle(page)
        example = next((e for e in examples() if e.name == name), examples()[0])
        kind = view(load_path(example.path).results[0]).kind
        for size in SIZES:
            check_layout(page, name, size, kind, tmp_path)
        assert page.title().endswith(" — chartkit explorer")
        titles.add(page.title())
    assert len(titles) == len(examples())  # the opening page is the first example


BAD_CSV = (
    b"logical_unit_number,host_group,capacity_gb\n"
    b"0,vdi-a,100\n,vdi-a,200\n3,vdi-b,50\nn/a,vdi-b,70\n5,vdi-c,20\n6,vdi-c,30\n7,vdi-d,40\n"
)


def test_an_uploaded_csv_declared_in_the_editor_is_read_by_that_declaration(
    server: str, page: Any, tmp_path: Path
) -> None:
    """The documented flow: upload a .csv, declare its columns in the editor. The cells are
    read again by the declaration (docs/csv.md), so only the empty cell and "n/a" offend — not
    every row, the first "0" — and the editor's controls carry the column names as plain text
    for a screen reader (never ``logical\\_unit\\_number``)."""
    from playwright.sync_api import expect

    csv = tmp_path / "bad.csv"
    csv.write_bytes(BAD_CSV)
    page.set_viewport_size({"width": SIZES["desktop"][0], "height": SIZES["desktop"][1]})
    page.goto(server)
    sidebar_radio(page, "Source", "Upload a file")
    settle(page)
    page.locator('[data-testid="stSidebar"] input[type="file"]').set_input_files(str(csv))
    expect(page.get_by_role("heading", name="bad")).to_be_visible(timeout=WAIT_MS)
    settle(page)
    names = page.evaluate(
        "() => [...document.querySelectorAll('[data-testid=\"stExpander\"] input')]"
        ".map(e => e.getAttribute('aria-label'))"
    )
    columns = ["logical_unit_number", "host_group", "capacity_gb"]
    assert names == [n for c in columns for n in (c, f"{c} nullable")]
    for column, kind in zip(columns, ["number", "string", "number"], strict=True):
        select(page, column, kind)
        settle(page)
    expect(page.get_by_text("2 of 7 rows hold something else").first).to_be_visible(timeout=WAIT_MS)
    assert page.get_by_text("7 of 7 rows").count() == 0
    assert page.get_by_text("The result declares nothing").count() == 0
    assert page.get_by_text("undeclared, inferred").count() == 0
    page.wait_for_selector(POINTS, timeout=WAIT_MS)
    # the LUNs hold numbers in 5 of 7 rows: they keep their place, a point per row holding one
    assert page.locator(POINTS).count() == 5


def test_clicking_a_bar_shows_the_rows_behind_it_with_the_offenders_highlighted(
    server: str, page: Any
) -> None:
    """The LUN incident: click the bar of one host group; the rows of that group appear under
    the chart, the empty LUNs among them highlighted and counted, with the finding for just
    those rows — the same rows and counts ``View.rows_behind`` gives."""
    from playwright.sync_api import expect

    from chartkit import view
    from chartkit.explorer._logic import EXAMPLES_DIR, load_path
    from chartkit.selection import Selection

    result = load_path(EXAMPLES_DIR / "host_group_mappings.json").results[0]
    shown = view(result, x="host_group", y="capacity_gb")
    page.goto(f"{server}/?example=host_group_mappings")
    lun_as_bars(page)
    settle(page)
    bars = page.locator(BARS)
    assert bars.count() == 8
    bar = bars.nth(2)
    label = bar.get_attribute("aria-label") or ""
    group = re.search(r"host_group: ([^;]+)", label)
    assert group is not None, label
    expected = shown.rows_behind(Selection.from_datum(shown, {"host_group": group.group(1)}),
                                 page_size=200)  # fmt: skip
    bar.click()
    heading = f'The rows behind host_group = "{group.group(1)}" — {expected.total:,} rows'
    expect(page.get_by_text(heading, exact=True)).to_be_visible(timeout=WAIT_MS)
    lun = expected.offenders["logical_unit_number"]
    assert lun > 0
    expect(
        page.get_by_text(
            f"For these rows: Column 'logical_unit_number' · declared number · first offender "
            f'"" (string) · {lun:,} of {expected.total:,} rows affected'
        )
    ).to_be_visible(timeout=WAIT_MS)
    shown_bad = sum(1 for cells in expected.offending if cells)
    expect(
        page.get_by_text(
            f"Offending cells are highlighted: {shown_bad:,} of the {len(expected.index):,} "
            "rows shown hold one."
        )
    ).to_be_visible(timeout=WAIT_MS)
    grid = page.locator('[data-testid="stDataFrame"]').first
    expect(grid).to_be_visible(timeout=WAIT_MS)


# --- a brushed time range -------------------------------------------------------------------

START = dt.datetime(2024, 6, 1, tzinfo=dt.UTC)
QUEUES = {
    "tool": "queue_latency",
    "description": "p95 latency and queue depth per region, hourly over four days.",
    "rows": [
        {
            "timestamp": (START + dt.timedelta(hours=i)).isoformat().replace("+00:00", "Z"),
            "region": region,
            "p95_ms": float(20 + (i * 7 + 13 * (region == "south")) % 40),
            # one north row in three holds "" where a number is declared: never on an axis
            "queue_depth": "" if i % 3 == 0 and region == "north" else (i * 3) % 11,
        }
        for i in range(96)
        for region in ("north", "south")
    ],
    "resultColumns": {
        "timestamp": "date", "region": "string", "p95_ms": "number", "queue_depth": "number",
    },
}  # fmt: skip
BEHIND = re.compile(r"The rows behind timestamp in \[([^\]]+) UTC, ([^\]]+) UTC\] — ([\d,]+) rows?")


def paste(page: Any, result: dict[str, Any]) -> None:
    """Hand the explorer a tool result through the sidebar's Paste JSON box."""
    sidebar_radio(page, "Source", "Paste JSON")
    settle(page)
    box = page.locator('[data-testid="stSidebar"] textarea')
    box.fill(json.dumps(result))
    box.press("Control+Enter")
    settle(page)


def drag_across(page: Any, chart: Any, start: float, end: float) -> None:
    """Press the mouse at ``start`` of the chart's plot area's width, move it to ``end``
    (fractions), and let go: the drag a user makes to brush a range."""
    area = chart.locator("path.background").first.bounding_box()
    assert area is not None
    y = area["y"] + area["height"] / 2
    page.mouse.move(area["x"] + area["width"] * start, y)
    page.mouse.down()
    page.mouse.move(area["x"] + area["width"] * end, y, steps=10)
    page.mouse.up()


def highlighted_rows(png: bytes) -> list[bool]:
    """Per row the data grid shows whole, top down: whether any of its cells is painted in the
    explorer's highlight. Streamlit draws the grid on a canvas, so its picture is read: the
    rows are the bands between the one-pixel lines that rule the index column."""
    import io

    from PIL import Image

    from chartkit._highlight import HIGHLIGHT

    found = re.search(r"background-color: #([0-9a-f]{6})", HIGHLIGHT)
    assert found is not None
    pink = tuple(bytes.fromhex(found.group(1)))
    picture = Image.open(io.BytesIO(png)).convert("RGB")
    width, height = picture.size
    edge = [picture.getpixel((5, y)) for y in range(height)]
    lines = [y for y in range(8, height - 1) if edge[y - 1] != edge[y] != edge[y + 1]]
    bands = list(itertools.pairwise(lines))  # the header sits above the first line
    full = max(b - a for a, b in bands)
    return [
        any(picture.getpixel((x, y)) == pink for y in range(a + 2, b - 1, 4)
            for x in range(0, width, 6))
        for a, b in bands if b - a == full
    ]  # fmt: skip


def test_brushing_a_time_range_shows_its_rows_offenders_findings_and_charts_them_again(
    server: str, page: Any
) -> None:
    """A line over time, brushed with the mouse: the rows whose timestamp lies in the brushed
    range appear with their count, the offending cells among them highlighted and counted, and
    the check of just those rows; "Chart these rows" draws exactly them."""
    from playwright.sync_api import expect

    from chartkit import check_columns, view
    from chartkit.selection import Selection
    from chartkit.streamlit import violation_line

    page.set_viewport_size({"width": SIZES["desktop"][0], "height": SIZES["desktop"][1]})
    page.goto(server)
    paste(page, QUEUES)
    expect(page.get_by_role("heading", name="queue_latency")).to_be_visible(timeout=WAIT_MS)
    chart = page.locator(".vega-embed").first
    chart.locator("g.mark-line path").first.wait_for(timeout=WAIT_MS)
    settle(page)
    drag_across(page, chart, 0.3, 0.55)
    said = page.get_by_text(BEHIND)
    expect(said).to_be_visible(timeout=WAIT_MS)
    settle(page)

    start, end, count = BEHIND.search(said.inner_text()).groups()  # type: ignore[union-attr]
    low, high = (dt.datetime.fromisoformat(t).replace(tzinfo=dt.UTC) for t in (start, end))
    drawn = dt.timedelta(hours=95)  # the four days the chart draws, from START
    # the range the mouse covered: from about 30% to about 55% of the way across
    assert START + drawn * 0.2 < low < high < START + drawn * 0.65
    inside = [
        i for i, r in enumerate(QUEUES["rows"])
        if low <= dt.datetime.fromisoformat(r["timestamp"].replace("Z", "+00:00")) <= high
    ]  # fmt: skip
    assert int(count.replace(",", "")) == len(inside) > 0
    bad = [i for i in inside if QUEUES["rows"][i]["queue_depth"] == ""]
    assert 0 < len(bad) < len(inside)

    shown = view(QUEUES["rows"], QUEUES["resultColumns"], tool=QUEUES["tool"])
    ms = [t.timestamp() * 1000 for t in (low, high)]
    picked = Selection.from_interval(shown, {"timestamp": ms})
    expected = shown.rows_behind(picked, page_size=200)
    assert list(expected.index) == inside
    assert expected.offenders["queue_depth"] == len(bad)
    [finding] = check_columns([QUEUES["rows"][i] for i in inside], QUEUES["resultColumns"])
    assert (finding.column, finding.affected) == ("queue_depth", len(bad))
    expect(page.get_by_text(f"For these rows: {violation_line(finding)}")).to_be_visible()
    expect(page.get_by_text(f'Offending values: "" ×{len(bad)}')).to_be_visible()
    expect(
        page.get_by_text(
            f"Offending cells are highlighted: {len(bad):,} of the {len(inside):,} rows shown "
            "hold one."
        )
    ).to_be_visible()
    # the grid under the chart paints exactly the offending rows, in their order
    grid = page.locator('[data-testid="stDataFrame"]').first
    grid.scroll_into_view_if_needed()
    page.mouse.move(0, 0)  # no hover highlight on a row
    page.wait_for_timeout(300)
    painted = highlighted_rows(grid.screenshot())
    assert len(painted) >= 6  # whole rows in view
    assert painted == [QUEUES["rows"][i]["queue_depth"] == "" for i in inside[: len(painted)]]
    assert any(painted)

    # "Chart these rows": the brushed rows drawn as a chart of their own, every row a point
    again = shown.drill(picked)
    assert again.spec is not None and again.spec["mark"].get("point") is True
    page.get_by_text("Chart these rows", exact=True).click()
    drilled = page.locator(".vega-embed").nth(1)
    drilled.locator("g.mark-symbol.role-mark path").first.wait_for(timeout=WAIT_MS)
    settle(page)
    title = again.spec["title"]  # the caption rides as the title's subtitle
    assert title["subtitle"] == ["The check also flagged queue_depth, not drawn."]
    texts = drilled.locator("g.role-title text").all_text_contents()
    assert texts == [title["text"], *title["subtitle"]]
    labels = drilled.locator("g.mark-symbol.role-mark path").evaluate_all(
        "paths => paths.map(p => p.getAttribute('aria-label'))"
    )
    points = sorted(
        re.search(r"p95_ms: ([^;]+); region: (\w+)", label).groups()  # type: ignore[union-attr]
        for label in labels
    )
    assert points == sorted(
        (f"{QUEUES['rows'][i]['p95_ms']:,.0f}", QUEUES["rows"][i]["region"]) for i in inside
    )
    expect(page.get_by_text(again.reason).last).to_be_visible()


def test_under_enforce_the_bar_clicked_before_reaches_no_row(server: str, page: Any) -> None:
    """A bar clicked under warn shows its rows; turned to enforce, the result is refused: no
    chart to click, and nothing of the rows behind the bar — no heading, no count, no finding
    for them, no page of them — stays on the page."""
    from playwright.sync_api import expect

    page.set_viewport_size({"width": SIZES["desktop"][0], "height": SIZES["desktop"][1]})
    page.goto(f"{server}/?example=host_group_mappings")
    lun_as_bars(page)
    settle(page)
    page.locator(BARS).nth(1).click()
    expect(page.get_by_text(re.compile("^The rows behind host_group = "))).to_be_visible(
        timeout=WAIT_MS
    )
    behind = page.locator('[data-testid="stDataFrame"]').count()
    assert behind >= 2  # the rows behind the bar, and the rows as returned
    sidebar_radio(page, "The dial", "enforce")
    expect(page.get_by_text(REFUSAL).first).to_be_visible(timeout=WAIT_MS)
    settle(page)
    expect(page.locator(".vega-embed")).to_have_count(0)
    assert page.locator(BARS).count() == 0
    main = page.locator('[data-testid="stMain"]').inner_text()
    for gone in ("The rows behind", "For these rows", "Offending cells are highlighted",
                 "Chart these rows", "Page of the rows behind", "Click a mark"):  # fmt: skip
        assert gone not in main, gone
    # only the rows as returned remain, said to be what the model never sees
    assert page.locator('[data-testid="stDataFrame"]').count() == behind - 1
    expect(page.get_by_text("Under enforce the model never sees these rows")).to_be_visible()
