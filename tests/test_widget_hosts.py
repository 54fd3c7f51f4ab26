"""The notebook widget in two more hosts, for real, driven by headless Chromium: a Notebook 7
server (``jupyter notebook``) and a marimo app (``marimo run``, the widget through
``mo.ui.anywidget``). In each, the chart is drawn by the bundled Vega with its caption on it,
a hovered bar shows its tooltip, and a clicked bar is read back in Python
(``widget.selection``, ``widget.rows()``); a plain View in Notebook 7 shows its PNG.
JupyterLab is ``test_widget_browser.py``."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import nbformat
import pytest

from tests._browser import browser_page, free_port, require_browser, served
from tests.test_widget_browser import jupyter_server, run_cell, wait_for_kernel

pytestmark = pytest.mark.browser

ROWS = """[{"g": "a", "n": 1}, {"g": "a", "n": 3}, {"g": "b", "n": 2}, {"g": "b", "n": "x"}]"""
CAPTION = '1 of 4 rows is left out: n holds string (first: "x")'
CLICKED = 'g = "a" | 2 | [1, 3]'

MARIMO_APP = f'''\
import marimo

app = marimo.App()


@app.cell
def _():
    import marimo as mo

    from chartkit import view
    from chartkit.notebook.widget import ChartWidget

    rows = {ROWS}
    bars = mo.ui.anywidget(ChartWidget(view(rows, {{"g": "string", "n": "number"}}, mode="off")))
    bars
    return ChartWidget, bars, mo, view


@app.cell
def _(bars, mo):
    picked = bars.widget.selection  # re-run by marimo whenever the browser sends a selection
    page = bars.widget.rows()
    said = "NOTHING YET" if picked is None else (
        f"CLICKED {{picked.describe()}} | {{page.total}} | {{page.rows['n'].tolist()}}"
    )
    mo.plain_text(said)
    return


@app.cell
def _(ChartWidget, mo, view):
    spread = mo.ui.anywidget(ChartWidget(view([{{"v": float(i % 17)}} for i in range(50)],
                                              {{"v": "number"}})))
    spread
    return (spread,)


@app.cell
def _(mo, spread):
    ranged = spread.widget.selection
    mo.plain_text("NO RANGE YET" if ranged is None else (
        f"BRUSHED {{ranged.kind}} | {{ranged.describe()}} | {{spread.widget.rows().total}}"
    ))
    return
'''


@contextlib.contextmanager
def marimo_run(app: Path, log: Path) -> Iterator[str]:
    """``marimo run APP`` headless on a free loopback port; yields its URL."""
    port = free_port()
    command = [
        sys.executable, "-m", "marimo", "run", str(app), "--headless",
        "--host", "127.0.0.1", "--port", str(port), "--no-token",
    ]  # fmt: skip
    url = f"http://127.0.0.1:{port}/"
    with served(command, url, name="marimo run", cwd=app.parent, log=log, timeout=90):
        yield url


def click_bar(page: Any, chart: Any, label: str) -> None:
    """Hover each bar until the tooltip names ``label``, then click that bar."""
    bars = chart.locator("g.mark-rect path")
    bars.first.wait_for(timeout=30_000)
    for i in range(bars.count()):
        bars.nth(i).hover(force=True)
        tip = page.locator("#vg-tooltip-element")
        tip.wait_for(state="visible", timeout=10_000)
        if label in tip.inner_text().split():
            assert "mean of n" in tip.inner_text()  # the tooltip of the bar, drawn by vega-tooltip
            bars.nth(i).click(force=True)
            return
    raise AssertionError(f"no bar's tooltip names {label!r}")


def test_in_notebook_7_the_widget_draws_its_caption_and_hands_a_click_to_the_kernel(
    tmp_path: Path,
) -> None:
    require_browser()
    pytest.importorskip("notebook")
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell(
            "from chartkit import view\nfrom chartkit.notebook.widget import ChartWidget\n"
            f'b = ChartWidget(view({ROWS}, {{"g": "string", "n": "number"}}, mode="off"))\nb'
        ),
        nbformat.v4.new_code_cell(
            'p = b.rows()\nprint("CLICKED", b.selection.describe(), "|", p.total, "|", '
            'p.rows["n"].tolist())'
        ),
        nbformat.v4.new_code_cell(f'view({ROWS}, {{"g": "string", "n": "number"}}, mode="off")'),
    ]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}  # fmt: skip
    nbformat.write(nb, tmp_path / "drill.ipynb")
    with jupyter_server("notebook", tmp_path, tmp_path / "nb.log") as url, browser_page() as page:
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(url)
        wait_for_kernel(page)
        assert page.evaluate("window.jupyterapp.name") == "Jupyter Notebook"  # not JupyterLab
        run_cell(page, 0)
        chart = page.locator(".jp-Notebook .jp-Cell").nth(0).locator(".chartkit-widget svg")
        chart.wait_for(timeout=60_000)
        chart.locator("g.mark-rect path").first.wait_for(timeout=30_000)
        assert CAPTION in chart.locator("text").all_text_contents()  # the caption on the picture
        click_bar(page, chart, "a")
        page.wait_for_timeout(1500)  # the selection reaches the kernel through the comm
        run_cell(page, 1)
        out = page.locator(".jp-Notebook .jp-Cell").nth(1).locator(".jp-OutputArea-output")
        out.filter(has_text="CLICKED").first.wait_for(timeout=60_000)
        assert out.first.inner_text().split("CLICKED", 1)[1].strip() == CLICKED
        # a plain View: Notebook 7 renders no Vega-Lite v6, so it shows the PNG (captioned)
        run_cell(page, 2)
        plain = page.locator(".jp-Notebook .jp-Cell").nth(2).locator(".jp-OutputArea-output")
        image = plain.locator('img[src^="data:image/png"]')
        image.first.wait_for(timeout=60_000)
        assert plain.locator(".vega-embed, svg.marks").count() == 0
        assert not [e for e in errors if "chartkit" in e], errors


def test_in_marimo_the_widget_draws_its_caption_and_a_click_reruns_the_cell_reading_it(
    tmp_path: Path,
) -> None:
    require_browser()
    pytest.importorskip("marimo")
    app = tmp_path / "drill.py"
    app.write_text(MARIMO_APP, encoding="utf-8")
    with marimo_run(app, tmp_path / "marimo.log") as url, browser_page() as page:
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(url)
        page.get_by_text("NOTHING YET").wait_for(timeout=90_000)
        chart = page.locator(".chartkit-widget svg").first
        chart.wait_for(timeout=60_000)
        chart.locator("g.mark-rect path").first.wait_for(timeout=30_000)
        assert CAPTION in chart.locator("text").all_text_contents()
        click_bar(page, chart, "a")
        said = page.get_by_text("CLICKED")
        said.wait_for(timeout=60_000)  # marimo re-ran the cell that reads the selection
        assert said.inner_text().split("CLICKED", 1)[1].strip() == CLICKED
        # a histogram, whose drill names its binned x brushable: a drag reads back as a range
        page.get_by_text("NO RANGE YET").wait_for(timeout=60_000)
        hist = page.locator(".chartkit-widget svg").nth(1)
        hist.locator("g.mark-rect path[aria-label]").first.wait_for(timeout=30_000)
        area = hist.locator("path.background").first.bounding_box()
        assert area is not None
        y = area["y"] + area["height"] / 2
        page.mouse.move(area["x"] + area["width"] * 0.25, y)
        page.mouse.down()
        page.mouse.move(area["x"] + area["width"] * 0.6, y, steps=8)
        page.mouse.up()
        brushed = page.get_by_text("BRUSHED")
        brushed.wait_for(timeout=60_000)
        kind, described, total = (
            p.strip() for p in brushed.inner_text().split("BRUSHED", 1)[1].split("|")
        )
        assert kind == "interval" and described.startswith("v in [")
        low, high = (float(x) for x in described[len("v in ["):-1].split(", "))
        rows = [float(i % 17) for i in range(50)]
        assert int(total) == sum(low <= r < high for r in rows) > 0  # whole bins, half-open
        assert not [e for e in errors if "chartkit" in e], errors
