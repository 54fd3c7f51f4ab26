"""How fast is the explorer? Against a plain Streamlit app showing the same example.

Three measurements, each printed as a table:

1. **First chart in a real browser.** The explorer (``app/explorer.py``) and a plain Streamlit
   app each run under ``streamlit run`` on 127.0.0.1; headless Chromium (Debian's, through
   Playwright) opens each in a fresh browser context — nothing cached, a new session — and the
   clock stops when the chart's marks are drawn (SVG marks, or a canvas with painted pixels).
   The plain app is what a user writes without chartkit: ``json.load`` the example,
   ``pd.DataFrame(rows)``, one ``st.altair_chart`` with the mark and encodings the explorer
   draws for it (the aggregate left to Vega, as Altair does). Rounds alternate which app goes
   first; the table shows the median of N loads and the median within-round ratio.
2. **Switching example, server time.** Streamlit's ``AppTest`` runs the explorer's script in
   this process; each bundled example is picked once (its first visit) and the script run is
   timed — what the server spends before the browser receives anything.
3. **A 1,000,000-row upload to its first chart.** A tool result of 1M rows (an ISO timestamp,
   a number, a 5-value string; declared) is uploaded through the sidebar in the browser; the
   clock runs from the upload to the drawn chart.
4. **A click to the rows behind it.** In the browser, each bar of the LUN incident is clicked
   in turn and the clock stops when the rows behind it are shown under the chart (the page's
   rerun, ``View.rows_behind``, the check of those rows, the highlighted table drawn). Then,
   server time only (``AppTest``), the same 1M-row result opened from the command line and an
   hour of it brushed: the script run that answers the selection.

Run: ``make bench`` or ``.venv/bin/python bench/explorer.py [--loads N] [--upload-rows N]``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import logging
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

from _browser import CHROMIUM, CHROMIUM_ARGS, settle, streamlit_server  # noqa: E402

EXAMPLES = REPO / "chartkit" / "examples"
DEFAULT = "host_group_mappings"

PLAIN_APP = '''
"""A plain Streamlit app: the example's rows as a frame, one Altair chart."""
import json, os
import altair as alt
import pandas as pd
import streamlit as st

st.set_page_config(page_title="plain app", layout="wide")
data = json.loads(open(os.environ["BENCH_EXAMPLE"], encoding="utf-8").read())
frame = pd.DataFrame(data["rows"])
st.title(data["tool"])
enc = json.loads(os.environ["BENCH_ENCODING"])
mark = os.environ["BENCH_MARK"]
chart = getattr(alt.Chart(frame), "mark_" + mark)().encode(**enc)
st.altair_chart(chart, use_container_width=True)
'''

# the chart's marks are on screen: SVG mark elements, or a canvas with painted pixels
DRAWN = """() => {
  const box = document.querySelector('.vega-embed');
  if (!box) return false;
  if (box.querySelector('svg .role-mark path, svg .role-mark rect, svg .role-mark line'))
    return true;
  const c = box.querySelector('canvas');
  if (!c || !c.width || !c.height) return false;
  const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  for (let i = 3; i < px.length; i += 4 * 97) if (px[i] !== 0) return true;
  return false;
}"""


def plain_encoding(example: Path) -> tuple[str, dict[str, str]]:
    """The mark and encodings the explorer draws for the example, written as plain Altair."""
    from chartkit import ToolResult, view

    shown = view(ToolResult.from_wire(json.loads(example.read_text(encoding="utf-8"))))
    short = {"quantitative": "Q", "temporal": "T", "nominal": "N"}
    enc = {}
    for channel, e in shown.encodings.items():
        field = f"{e.aggregate}({e.column})" if e.aggregate and e.aggregate != "count" else e.column
        enc[channel] = f"{field}:{short[e.type]}"
    assert shown.mark is not None, shown.reason
    return shown.mark, enc


def first_chart(browser: Any, url: str, timeout_ms: float = 120_000) -> float:
    """Seconds from navigation to the chart drawn, in a fresh context (nothing cached)."""
    context = browser.new_context(viewport={"width": 1500, "height": 1100})
    try:
        page = context.new_page()
        start = time.perf_counter()
        page.goto(url)
        page.wait_for_function(DRAWN, timeout=timeout_ms, polling=50)
        return time.perf_counter() - start
    finally:
        context.close()


def race_first_chart(loads: int) -> None:
    from playwright.sync_api import sync_playwright

    example = EXAMPLES / f"{DEFAULT}.json"
    mark, enc = plain_encoding(example)
    with tempfile.TemporaryDirectory() as tmp:
        plain = Path(tmp) / "plain_app.py"
        plain.write_text(PLAIN_APP, encoding="utf-8")
        env = {"BENCH_EXAMPLE": str(example), "BENCH_ENCODING": json.dumps(enc), "BENCH_MARK": mark}
        with (
            streamlit_server(REPO / "app" / "explorer.py") as explorer_url,
            streamlit_server(plain, env=env) as plain_url,
            sync_playwright() as pw,
        ):
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                apps = {
                    "explorer (app/explorer.py)": explorer_url,
                    "plain st.altair_chart app": plain_url,
                }
                for url in apps.values():  # the first run of each script compiles and caches
                    first_chart(browser, url)
                times: dict[str, list[float]] = {name: [] for name in apps}
                for round_ in range(loads):
                    order = list(apps) if round_ % 2 == 0 else list(reversed(apps))
                    for name in order:
                        times[name].append(first_chart(browser, apps[name]))
            finally:
                browser.close()
    names = list(times)
    ratios = [e / p for e, p in zip(times[names[0]], times[names[1]], strict=True)]
    print(f"\nFirst chart in headless Chromium, {DEFAULT} ({loads} loads each, alternating)\n")
    print(f"| {'app':<28} | {'median':>8} | {'min':>8} | {'max':>8} |")
    print(f"|{'-' * 30}|{'-' * 9}:|{'-' * 9}:|{'-' * 9}:|")
    for name in names:
        t = times[name]
        print(f"| {name:<28} | {statistics.median(t):6.2f} s | {min(t):6.2f} s | {max(t):6.2f} s |")
    print(
        f"\nexplorer ÷ plain app, median of within-round ratios: {statistics.median(ratios):.2f}x"
    )
    print(f"(the plain app draws {mark} with {enc})")


def switching(repeat: int) -> None:
    """Server time of the explorer's script run when an example is first picked."""
    from streamlit.testing.v1 import AppTest

    from chartkit.explorer import _logic as ex

    logging.disable(logging.WARNING)  # AppTest's "missing ScriptRunContext" notices
    at = AppTest.from_file(str(REPO / "app" / "explorer.py"), default_timeout=120)
    start = time.perf_counter()
    at.run()
    cold = time.perf_counter() - start
    names = [e.name for e in ex.examples()]
    rows: list[tuple[str, float, float]] = []
    for name in [n for n in names if n != DEFAULT] + [DEFAULT]:
        box = next(s for s in at.sidebar.selectbox if s.label == "Bundled example")
        start = time.perf_counter()
        box.set_value(name).run()
        first = time.perf_counter() - start
        again = []
        for _ in range(repeat):
            start = time.perf_counter()
            at.run()
            again.append(time.perf_counter() - start)
        rows.append((name, first, statistics.median(again)))
        assert not at.exception, at.exception
    print("\nSwitching example: the explorer's script run on the server (AppTest, wall time)\n")
    print(f"first page ({DEFAULT}), fresh process: {cold:.2f} s\n")
    print(f"| {'example picked':<24} | {'first visit':>11} | {'rerun':>8} |")
    print(f"|{'-' * 26}|{'-' * 12}:|{'-' * 9}:|")
    for name, first, again_ in rows:
        print(f"| {name:<24} | {first:9.2f} s | {again_:6.2f} s |")


def big_result(path: Path, n: int) -> int:
    """A declared tool result of ``n`` rows written as JSON; answers its size in bytes."""
    t0 = dt.datetime(2024, 1, 1, tzinfo=dt.UTC)
    regions = ["eu-west-1", "us-east-1", "us-west-2", "ap-south-1", "sa-east-1"]
    rows = [
        {
            "ts": (t0 + dt.timedelta(seconds=i)).isoformat(),
            "latency_ms": round(20 + (i * 7919 % 1000) / 10, 1),
            "region": regions[i % 5],
        }
        for i in range(n)
    ]
    result = {
        "tool": "latency_samples",
        "resultColumns": {"ts": "date", "latency_ms": "number", "region": "string"},
        "rows": rows,
    }
    path.write_text(json.dumps(result), encoding="utf-8")
    return path.stat().st_size


def upload(n: int) -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "latency_samples.json"
        size = big_result(path, n)
        with streamlit_server(REPO / "app" / "explorer.py") as url, sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                page = browser.new_context(viewport={"width": 1500, "height": 1100}).new_page()
                page.goto(url)
                page.wait_for_function(DRAWN, timeout=120_000, polling=100)
                page.get_by_text("Upload a file").click()
                chooser = page.locator('[data-testid="stFileUploaderDropzoneInput"]')
                chooser.wait_for(state="attached", timeout=60_000)
                page.evaluate("document.querySelector('.vega-embed')?.remove()")
                start = time.perf_counter()
                chooser.set_input_files(str(path))
                page.get_by_text("latency_samples", exact=False).first.wait_for(timeout=600_000)
                page.wait_for_function(DRAWN, timeout=600_000, polling=100)
                took = time.perf_counter() - start
            finally:
                browser.close()
    print(f"\nA {n:,}-row upload ({size / 1e6:,.0f} MB of JSON) to its first chart: {took:.1f} s")


def drill_browser() -> float:
    """Median seconds from a click on a bar of the LUN chart to the rows behind it shown."""
    from playwright.sync_api import sync_playwright

    bars = ".vega-embed svg g.mark-rect path"
    took = []
    env = {"CHARTKIT_EXPLORE_FILE": "", "CHARTKIT_EXPLORE_MAX_MB": ""}
    with streamlit_server(REPO / "app" / "explorer.py", env=env) as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_context(viewport={"width": 1500, "height": 1100}).new_page()
            page.goto(f"{url}/?example={DEFAULT}")
            page.wait_for_selector(bars, timeout=120_000)
            settle(page, timeout_ms=120_000)
            for i in range(page.locator(bars).count()):
                bar = page.locator(bars).nth(i)
                label = bar.get_attribute("aria-label") or ""
                group = label.split("host_group: ", 1)[1].split(";", 1)[0]
                start = time.perf_counter()
                bar.click()
                page.get_by_text(f'The rows behind host_group = "{group}"').wait_for(
                    timeout=120_000
                )
                settle(page, timeout_ms=120_000)
                took.append(time.perf_counter() - start)
        finally:
            browser.close()
    return statistics.median(took)


def drill_server(n: int) -> tuple[float, int]:
    """Server seconds of the script run that answers an hour brushed on an ``n``-row result."""
    from streamlit.proto.WidgetStates_pb2 import WidgetStates
    from streamlit.testing.v1 import AppTest

    logging.disable(logging.WARNING)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "latency_samples.json"
        big_result(path, n)
        os.environ["CHARTKIT_EXPLORE_FILE"] = str(path)
        os.environ["CHARTKIT_EXPLORE_MAX_MB"] = "2000"
        try:
            at = AppTest.from_file(str(REPO / "app" / "explorer.py"), default_timeout=900).run()
            [chart] = at.get("vega_lite_chart")
            t0 = dt.datetime(2024, 1, 1, tzinfo=dt.UTC)
            ms = [int(t.timestamp() * 1000) for t in (t0, t0 + dt.timedelta(hours=1))]
            states: WidgetStates = at._tree.get_widget_states()
            state = states.widgets.add()
            state.id = chart.proto.id
            state.string_value = json.dumps({"selection": {"chartkit_brush": {"ts": ms}}})
            start = time.perf_counter()
            at._run(states)
            took = time.perf_counter() - start
            assert not at.exception, at.exception
            heading = next(m.value for m in at.markdown if m.value.startswith("**The rows "))
        finally:
            os.environ.pop("CHARTKIT_EXPLORE_FILE", None)
            os.environ.pop("CHARTKIT_EXPLORE_MAX_MB", None)
    rows = int(heading.rsplit("— ", 1)[1].split(" ")[0].replace(",", ""))
    return took, rows


def drill(n: int) -> None:
    click = drill_browser()
    print(f"\nA click on a bar of {DEFAULT} to the rows behind it shown (median): {click:.2f} s")
    took, rows = drill_server(n)
    print(f"An hour brushed on a {n:,}-row result: the rerun that shows its {rows:,} rows: "
          f"{took:.2f} s on the server")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=7, help="browser loads per app")
    parser.add_argument("--upload-rows", type=int, default=1_000_000)
    parser.add_argument(
        "--skip", nargs="*", default=[], choices=["browser", "switch", "upload", "drill"]
    )
    args = parser.parse_args()
    os.environ.setdefault("PYTHONWARNINGS", "ignore")
    print(f"{os.cpu_count()} cores, Chromium {CHROMIUM}, {dt.date.today().isoformat()}")
    if "browser" not in args.skip:
        race_first_chart(args.loads)
    if "switch" not in args.skip:
        switching(repeat=3)
    if "upload" not in args.skip:
        upload(args.upload_rows)
    if "drill" not in args.skip:
        drill(args.upload_rows)


if __name__ == "__main__":
    main()
