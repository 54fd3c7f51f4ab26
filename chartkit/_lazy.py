"""A module imported on first use: ``import chartkit`` and a check of rows need no numpy/pandas.

``np = lazy_module("numpy")`` stands for numpy and imports it the first time one of its names
is read. A list of dicts is checked without reading any: a value can only be a numpy or pandas
object once that library is imported, and the check asks ``loaded("pandas")`` before it looks.
"""

from __future__ import annotations

import importlib
import sys
from types import ModuleType
from typing import Any

__all__ = ["lazy_module", "loaded"]


class _LazyModule(ModuleType):
    """Stands for the module named ``__name__``; the first name read imports it."""

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("__"):
            raise AttributeError(attr)
        return getattr(importlib.import_module(self.__name__), attr)


def lazy_module(name: str) -> Any:
    """A stand-in for the module ``name`` that imports it on first use.

    >>> lazy_module("json").dumps([1])
    '[1]'
    """
    return _LazyModule(name)


def loaded(name: str) -> bool:
    """Whether the module ``name`` is imported already (its values can exist only then).

    >>> loaded("sys")
    True
    """
    return name in sys.modules
