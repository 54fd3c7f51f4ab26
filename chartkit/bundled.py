"""The example results shipped in the package (``chartkit/examples``), by name, from anywhere.

They are what the README and the explorer use: ``example_path("host_group_mappings")`` is the
installed file, and ``chartkit examples`` lists them or copies them into a folder.
"""

from __future__ import annotations

from pathlib import Path

from chartkit.errors import ChartkitError

__all__ = ["EXAMPLES_DIR", "example_names", "example_path"]

EXAMPLES_DIR = Path(__file__).resolve().parent / "examples"
"""Where the bundled example results are installed."""

_SUFFIXES = (".json", ".jsonl")


def example_names() -> tuple[str, ...]:
    """The bundled examples' names (file stems), sorted.

    >>> "host_group_mappings" in example_names()
    True
    """
    return tuple(sorted(p.stem for p in EXAMPLES_DIR.iterdir() if p.suffix in _SUFFIXES))


def example_path(name: str) -> Path:
    """The installed file of the bundled example ``name`` (with or without its suffix).

    >>> example_path("run_incident").name
    'run_incident.jsonl'
    """
    stem = name.removesuffix(".jsonl").removesuffix(".json")
    for suffix in _SUFFIXES:
        path = EXAMPLES_DIR / f"{stem}{suffix}"
        if path.is_file() and path.parent == EXAMPLES_DIR:
            return path
    raise ChartkitError(
        f"there is no bundled example named {name[:120]!r}; the examples are "
        f"{', '.join(example_names())} (chartkit examples lists them)"
    )
