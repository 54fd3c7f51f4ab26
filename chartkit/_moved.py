"""The public modules that moved into a stage's folder, still importable at their old paths.

``import chartkit.rowset`` is ``chartkit.read.rowset`` — the very module object, not a copy, so
its names, its private helpers and a test's ``monkeypatch`` all reach the one module. ``MOVED``
is the table (old path → new path); ``_Finder`` answers an import of an old path with the module
at the new one, imported then (never before: an old path costs nothing until it is used).
Each old path also has a stub beside the package (``chartkit/rowset.pyi``) for type checkers.
Code inside chartkit imports the new paths (tests/test_layout.py holds it to that).
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from collections.abc import Sequence
from types import ModuleType

__all__ = ["MOVED", "install"]

MOVED: dict[str, str] = {
    "chartkit.rowset": "chartkit.read.rowset",
    "chartkit.csvread": "chartkit.read.csvread",
    "chartkit.schemas": "chartkit.read.schemas",
    "chartkit.engines": "chartkit.read.engines",
    "chartkit.tables": "chartkit.read.tables",
    "chartkit.speedups": "chartkit.read.speedups",
    "chartkit.integrity": "chartkit.check.integrity",
    "chartkit.events": "chartkit.check.events",
    "chartkit.charts": "chartkit.draw.charts",
    "chartkit.widget": "chartkit.notebook.widget",
    "chartkit.mcp_server": "chartkit.mcp.server",
    "chartkit.apps": "chartkit.mcp.apps",
    "chartkit.encode": "chartkit.plan.encode",
    "chartkit.decide": "chartkit.plan.decide",
    "chartkit.backends.selection": "chartkit.selection",
}
"""Old import path → the module's path now."""


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds an old path (``MOVED``) and loads it as the module at its new path."""

    def __init__(self) -> None:
        self._specs: dict[str, importlib.machinery.ModuleSpec | None] = {}

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MOVED:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        module = importlib.import_module(MOVED[spec.name])
        self._specs[spec.name] = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        # the import machinery stamped the old path's spec on the module: give back its own
        stamped = module.__spec__
        if stamped is not None and stamped.name in self._specs:
            module.__spec__ = self._specs.pop(stamped.name)


def install() -> None:
    """Put the finder on ``sys.meta_path`` once (chartkit's ``__init__`` calls it)."""
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.append(_Finder())
