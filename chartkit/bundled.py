"""The examples shipped in the package (``chartkit/examples``), by name, from anywhere.

The tool results are what the README and the explorer use, and the notebook walks the LUN
incident: ``example_path("host_group_mappings")`` is the installed file, and
``chartkit examples`` lists them all or copies them into a folder, so the notebook reaches a
wheel's user as well as a checkout's.
"""

from __future__ import annotations

from pathlib import Path

from chartkit.errors import ChartkitError

__all__ = ["EXAMPLES_DIR", "example_names", "example_path"]

EXAMPLES_DIR = Path(__file__).resolve().parent / "examples"
"""Where the bundled examples are installed."""

_SUFFIXES = (".json", ".jsonl", ".ipynb")
"""The results (``.json``, a run ``.jsonl``) and the notebook (``.ipynb``)."""


def example_names() -> tuple[str, ...]:
    """The bundled examples' names (file stems), sorted: the results and the notebook.

    >>> "host_group_mappings" in example_names(), "notebook" in example_names()
    (True, True)
    """
    return tuple(sorted(p.stem for p in EXAMPLES_DIR.iterdir() if p.suffix in _SUFFIXES))


def example_path(name: str) -> Path:
    """The installed file of the bundled example ``name`` (with or without its suffix).

    >>> example_path("run_incident").name, example_path("notebook").name
    ('run_incident.jsonl', 'notebook.ipynb')
    """
    stem = next((name.removesuffix(s) for s in _SUFFIXES if name.endswith(s)), name)
    for suffix in _SUFFIXES:
        path = EXAMPLES_DIR / f"{stem}{suffix}"
        if path.is_file() and path.parent == EXAMPLES_DIR:
            return path
    raise ChartkitError(
        f"there is no bundled example named {name[:120]!r}; the examples are "
        f"{', '.join(example_names())} (chartkit examples lists them)"
    )
