"""The notebook widget in a real JupyterLab server, driven by headless Chromium: the chart is
drawn offline by the bundled Vega, a hovered mark shows its tooltip, and a brushed time range
and a clicked mark are read back in the kernel (``widget.selection``, ``widget.rows()``)."""

from __future__ import annotations

import contextlib
import json
import secrets
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import nbformat
import pytest

from tests._browser import browser_page, free_port, require_browser, served

pytestmark = pytest.mark.browser

SETUP = """\
from chartkit import view
from chartkit.notebook.widget import ChartWidget
rows = [{"t": f"2024-01-{1 + i // 24:02d}T{i % 24:02d}:00:00", "m": (i * 7) % 50,
         "host": "h1"} for i in range(120)]
rows[5]["m"] = "n/a"
v = view(rows, {"t": "date", "m": "number", "host": "string"}, x="t", y="m", mode="off")
w = ChartWidget(v)
w"""
READ = """\
s = w.selection
page = w.rows(page_size=500)
print("SELECTED", s.kind, "|", s.describe(), "|", page.total, "|",
      sorted({r["t"][:10] for r in page.rows.to_dict("records")}))"""
BARS = """\
b = ChartWidget(view([{"g": "a", "n": 1}, {"g": "a", "n": 3}, {"g": "b", "n": 2},
                      {"g": "b", "n": "x"}], {"g": "string", "n": "number"}, mode="off"))
b"""
READ_BARS = """\
p = b.rows()
print("CLICKED", b.selection.describe(), "|", p.total, "|", p.rows["n"].tolist())"""


@contextlib.contextmanager
def jupyter_server(app: str, root: Path, log: Path) -> Iterator[str]:
    """``jupyter lab`` or ``jupyter notebook`` (Notebook 7) on a free loopback port, serving
    ``root``; yields the URL of ``drill.ipynb`` with the token. Both expose the application as
    ``window.jupyterapp``."""
    port, token = free_port(), secrets.token_hex(16)
    config = {"lab": "LabApp", "notebook": "JupyterNotebookApp"}[app]
    command = [
        sys.executable, "-m", {"lab": "jupyterlab", "notebook": "notebook"}[app], "--no-browser",
        f"--ServerApp.port={port}", "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.token={token}", f"--ServerApp.root_dir={root}",
        f"--{config}.expose_app_in_browser=True",
        "--ServerApp.open_browser=False", "--allow-root",
    ]  # fmt: skip
    if app == "lab":  # JupyterLab's own news, update check and extension manager: all off
        command += [
            "--LabApp.news_url=None",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
            "--LabApp.extension_manager=readonly",
        ]
    env = {"JUPYTER_CONFIG_DIR": str(root / ".cfg"), "JUPYTER_DATA_DIR": str(root / ".data"),
           "JUPYTER_RUNTIME_DIR": str(root / ".run")}  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    with served(command, f"{url}/api/status?token={token}", name=f"jupyter {app}", cwd=root,
                env=env, log=log, timeout=90):  # fmt: skip
        where = {"lab": "lab/tree", "notebook": "notebooks"}[app]
        yield f"{url}/{where}/drill.ipynb?token={token}"


def wait_for_kernel(page: Any) -> None:
    """Until the open notebook's kernel is idle."""
    page.wait_for_function(
        "() => window.jupyterapp && window.jupyterapp.shell.currentWidget"
        " && window.jupyterapp.shell.currentWidget.sessionContext"
        " && window.jupyterapp.shell.currentWidget.sessionContext.session"
        " && window.jupyterapp.shell.currentWidget.sessionContext.session.kernel"
        " && window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.status"
        " === 'idle'",
        timeout=90_000,
    )


def run_cell(page: Any, index: int) -> None:
    page.evaluate(
        """(i) => { const nb = window.jupyterapp.shell.currentWidget.content;
                    nb.activeCellIndex = i;
                    return window.jupyterapp.commands.execute('notebook:run-cell'); }""",
        index,
    )


def _output(page: Any, index: int, marker: str, timeout: float = 60) -> str:
    cell = page.locator(".jp-Notebook .jp-Cell").nth(index)
    out = cell.locator(".jp-OutputArea-output").filter(has_text=marker)
    out.first.wait_for(timeout=timeout * 1000)
    text: str = out.first.inner_text()
    return text


def test_the_widget_shows_tooltips_and_hands_a_brush_and_a_click_to_the_kernel(
    tmp_path: Path,
) -> None:
    require_browser()
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(c) for c in (SETUP, READ, BARS, READ_BARS)]
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nbformat.write(nb, tmp_path / "drill.ipynb")
    with jupyter_server("lab", tmp_path, tmp_path / "lab.log") as url, browser_page() as page:
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(url)
        wait_for_kernel(page)
        run_cell(page, 0)
        chart = page.locator(".jp-Notebook .jp-Cell").nth(0).locator(".chartkit-widget svg")
        chart.wait_for(timeout=60_000)
        # the tooltip of a point of the line (the bundled vega-tooltip)
        marks = chart.locator("g.mark-symbol path, g.mark-line path")
        marks.first.wait_for(timeout=30_000)
        point = chart.locator("g.mark-symbol path").first
        if point.count():
            point.hover(force=True)
        else:
            marks.first.hover(force=True)
        tip = page.locator("#vg-tooltip-element")
        tip.wait_for(state="visible", timeout=10_000)
        shown = tip.inner_text()
        assert "2024" in shown and "m" in shown.split(), shown  # the point's date and measure
        # brush the left part of the x axis: the first days
        box = chart.bounding_box()
        assert box is not None
        background = chart.locator("path.background").first.bounding_box() or box
        y = background["y"] + background["height"] / 2
        x0 = background["x"] + 5
        x1 = background["x"] + background["width"] * 0.3
        page.mouse.move(x0, y)
        page.mouse.down()
        page.mouse.move((x0 + x1) / 2, y, steps=5)
        page.mouse.move(x1, y, steps=5)
        page.mouse.up()
        page.wait_for_timeout(1500)  # the selection reaches the kernel through the comm
        run_cell(page, 1)
        text = _output(page, 1, "SELECTED")
        kind, described, total, days = (p.strip() for p in text.split("SELECTED", 1)[1].split("|"))
        assert kind == "interval" and described.startswith("t in [2024-01-01")
        assert int(total) > 0
        assert json.loads(days.replace("'", '"'))[0] == "2024-01-01"
        # a clicked bar: its rows, the offender left out of it
        run_cell(page, 2)
        bars = page.locator(".jp-Notebook .jp-Cell").nth(2).locator(".chartkit-widget svg")
        bars.wait_for(timeout=60_000)
        bar = bars.locator("g.mark-rect path")
        bar.first.wait_for(timeout=30_000)
        clicked = None
        for i in range(bar.count()):
            bar.nth(i).hover(force=True)
            if "a" in page.locator("#vg-tooltip-element").inner_text().split():
                bar.nth(i).click(force=True)
                clicked = i
                break
        assert clicked is not None
        page.wait_for_timeout(1500)
        run_cell(page, 3)
        text = _output(page, 3, "CLICKED")
        assert text.split("CLICKED", 1)[1].strip() == 'g = "a" | 2 | [1, 3]'
        assert not [e for e in errors if "chartkit" in e], errors
