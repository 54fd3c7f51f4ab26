"""Issue 38's explorer items and the shipped notebook, as a reader and a new user meet them.

The explorer runs in Streamlit's ``AppTest`` (tests/_explorer.py): the rows grid keeps two
columns whose escaped names look alike apart (item 12); the rows behind a selection show
dates as ISO text, offending cells as the tool returned them, and a brush over rows the
chart left out says so (item 18); counts and plurals are said in one voice, a refused axis
keeps the API's hint, a ``.txt`` upload is an unsupported file type (item 19). ``chartkit
examples --copy`` from an installed wheel copies the notebook too (item 20).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import nbformat

import chartkit

ROOT = Path(__file__).resolve().parent.parent


# --- item 20: the notebook ships -----------------------------------------------------------


def test_the_notebook_is_a_bundled_example_found_by_name() -> None:
    notebook = chartkit.example_path("notebook")
    assert notebook == chartkit.example_path("notebook.ipynb")
    assert notebook.parent == Path(chartkit.__file__).parent / "examples"
    assert "notebook" in chartkit.example_names()
    # the checkout's examples/notebook.ipynb is that very file, not a copy that could drift
    assert (ROOT / "examples" / "notebook.ipynb").resolve() == notebook.resolve()


def test_examples_copy_from_a_wheel_copies_the_notebook(wheel_bin: Path, tmp_path: Path) -> None:
    done = subprocess.run(
        [str(wheel_bin / "chartkit"), "examples", "--copy", "ex"],
        cwd=tmp_path, capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    assert (done.returncode, done.stderr) == (0, "")
    copied = tmp_path / "ex" / "notebook.ipynb"
    assert copied.read_bytes() == chartkit.example_path("notebook").read_bytes()
    assert "notebook.ipynb" in done.stdout
    notebook = nbformat.read(copied, as_version=4)
    nbformat.validate(notebook)
    assert notebook.cells[0].source.startswith("# chartkit in a notebook")
    listed = subprocess.run(
        [str(wheel_bin / "chartkit"), "examples"],
        cwd=tmp_path, capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    [line] = [line for line in listed.stdout.splitlines() if line.startswith("notebook ")]
    assert line.endswith("/chartkit/examples/notebook.ipynb")
    assert str(ROOT) not in line  # the wheel's installed copy, not the checkout's
