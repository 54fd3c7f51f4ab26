"""``examples/notebook.ipynb`` runs top to bottom in a real IPython kernel, headless.

The kernel is this test's own Python (a kernel spec written for ``sys.executable``, so a user's
or the system's ``python3`` kernel spec cannot stand in), started in a temporary directory
where the notebook saves its PNG. A cell that raises fails the test.
"""

from __future__ import annotations

import base64
import json
import sys
from pathlib import Path
from typing import Any

import nbformat
import pytest
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import AsyncKernelManager
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError
from traitlets import default

REPO = Path(__file__).resolve().parent.parent
NOTEBOOK = REPO / "examples" / "notebook.ipynb"
KERNEL = "chartkit-test-python"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def kernel_manager(tmp_path_factory: pytest.TempPathFactory) -> type[AsyncKernelManager]:
    """A kernel manager that knows one kernel spec: this very interpreter."""
    kernels = tmp_path_factory.mktemp("kernels")
    spec_dir = kernels / KERNEL
    spec_dir.mkdir()
    spec = {
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "chartkit tests",
        "language": "python",
    }
    (spec_dir / "kernel.json").write_text(json.dumps(spec), encoding="utf-8")

    class ThisPythonKernel(AsyncKernelManager):
        @default("kernel_spec_manager")
        def _only_this_python(self) -> KernelSpecManager:
            return KernelSpecManager(kernel_dirs=[str(kernels)])

    spec = ThisPythonKernel(kernel_name=KERNEL).kernel_spec
    assert spec is not None and spec.argv[0] == sys.executable
    return ThisPythonKernel


def run(
    notebook: nbformat.NotebookNode, workdir: Path, kernel_manager: type[AsyncKernelManager]
) -> nbformat.NotebookNode:
    """Execute in a fresh kernel started in ``workdir``; the client shuts it down after."""
    client = NotebookClient(
        notebook,
        kernel_name=KERNEL,
        kernel_manager_class=kernel_manager,
        timeout=180,
        allow_errors=False,
        resources={"metadata": {"path": str(workdir)}},
    )
    client.execute()
    return notebook


@pytest.fixture(scope="module")
def executed(
    tmp_path_factory: pytest.TempPathFactory, kernel_manager: type[AsyncKernelManager]
) -> tuple[nbformat.NotebookNode, Path]:
    workdir = tmp_path_factory.mktemp("notebook")
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    notebook.cells.append(nbformat.v4.new_code_cell("import sys\nprint(sys.prefix)"))
    return run(notebook, workdir, kernel_manager), workdir


def outputs(notebook: nbformat.NotebookNode) -> list[Any]:
    return [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs]


def printed(notebook: nbformat.NotebookNode) -> str:
    return "".join(o.text for o in outputs(notebook) if o.output_type == "stream")


def test_the_committed_notebook_has_its_outputs_cleared() -> None:
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    nbformat.validate(notebook)
    code = [c for c in notebook.cells if c.cell_type == "code"]
    assert code
    assert all(c.outputs == [] and c.execution_count is None for c in code)


def test_the_notebook_runs_in_this_environments_kernel(
    executed: tuple[nbformat.NotebookNode, Path],
) -> None:
    notebook, _ = executed
    assert printed(notebook).rstrip().splitlines()[-1] == sys.prefix
    assert not [o for o in outputs(notebook) if o.output_type == "error"]
    assert not [o for o in outputs(notebook) if o.output_type == "stream" and o.name == "stderr"]


def test_the_notebook_saves_a_png_of_the_chart(
    executed: tuple[nbformat.NotebookNode, Path],
) -> None:
    _, workdir = executed
    png = workdir / "lun_capacity.png"
    assert png.is_file()
    data = png.read_bytes()
    assert data[:8] == PNG_MAGIC
    assert data[12:16] == b"IHDR"
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert width > 100 and height > 100


VEGALITE = "application/vnd.vegalite.v6+json"


def test_displaying_a_view_shows_the_chart_as_vegalite_with_a_png_fallback(
    executed: tuple[nbformat.NotebookNode, Path],
) -> None:
    notebook, _ = executed
    shown = [
        o
        for o in outputs(notebook)
        if o.output_type in ("execute_result", "display_data")
        and o.data.get("text/plain", "").startswith("<chartkit View: ")
    ]
    charts = [o.data for o in shown if o.data["text/plain"].startswith("<chartkit View: chart — ")]
    assert len(charts) == 2
    for data in charts:
        assert set(data) == {VEGALITE, "image/png", "text/plain"}  # no HTML to outrank the chart
        assert data[VEGALITE]["$schema"].startswith("https://vega.github.io/schema/vega-lite/v6.")
        assert any(data[VEGALITE]["datasets"].values())  # the aggregated rows ride the spec
        assert base64.b64decode(data["image/png"])[:8] == PNG_MAGIC
    first = charts[0]
    assert first["text/plain"].startswith(
        "<chartkit View: chart — host_group is declared string and "
    )
    assert " is declared number: bars of the mean per host_group" in first["text/plain"]
    everything = [o.data for o in outputs(notebook) if o.output_type == "display_data"]
    words = everything[everything.index(first) + 1]  # the words follow their chart
    assert words["text/plain"] == first["text/plain"][len("<chartkit View: chart — ") : -1]
    assert words["text/html"].startswith("<p><b>chart</b>: host_group is declared string")
    assert "<p>⚠ &#x27;host_group_mappings&#x27; declares column" in words["text/html"]
    tables = [o.data for o in shown if o.data["text/plain"].startswith("<chartkit View: table — ")]
    assert len(tables) == 1
    assert (
        "Refused y axis: host_group is declared string; a measure axis needs a column "
        "declared number." in tables[0]["text/html"]
    )


def test_a_notebook_with_two_charts_stays_small_and_carries_no_script(
    executed: tuple[nbformat.NotebookNode, Path],
) -> None:
    """Each chart is its spec and a PNG: no copy of Vega (about 1 MB) travels per chart."""
    notebook, _ = executed
    saved = nbformat.writes(notebook)
    charts = [
        o for o in outputs(notebook) if o.output_type == "display_data" and VEGALITE in o.data
    ]
    assert len(charts) == 2
    assert len(saved.encode("utf-8")) < 250_000, len(saved)
    assert "<script" not in saved and "<iframe" not in saved


def test_the_notebook_shows_the_finding_the_refusal_and_the_overridden_axes(
    executed: tuple[nbformat.NotebookNode, Path],
) -> None:
    notebook, _ = executed
    text = printed(notebook)
    assert (
        "column-type-mismatch — 'host_group_mappings' declares column 'logical_unit_number' as "
        'number, and 4 of 23 rows hold something else — the first is "" (string). This judges '
        "TYPE, never MEANING"
    ) in text
    assert (
        "tool 'host_group_mappings' declares column 'logical_unit_number' as \"integer\"; use "
        "one of number, string, boolean, date (or leave the column undeclared)"
    ) in text
    assert (
        "chart — host_group is declared string and capacity_gb is declared number: bars of "
        "the mean per host_group."
    ) in text
    assert "x · host_group: declared string → nominal" in text
    assert (
        "refused invalid\nResult rejected: host_group_mappings returned rows that disagree with "
        "the columns it declares — 'logical_unit_number' is declared number and 4 of 23 rows "
        'hold string (first: ""). Fix the tool so the column holds what it declares, or change '
        "the declaration. No data was returned.\n"
    ) in text


def test_a_cell_that_raises_fails_the_run(
    tmp_path: Path, kernel_manager: type[AsyncKernelManager]
) -> None:
    notebook = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_code_cell("from chartkit import view"),
            nbformat.v4.new_code_cell("view([{'a': 1}], {'a': 'integer'})"),
        ]
    )
    with pytest.raises(CellExecutionError, match="ResultColumnsError"):
        run(notebook, tmp_path, kernel_manager)
