"""The groups bars draw, asked of wherever the rows they place live.

Bars need one thing of the rows the chart places: per group of their keys (the category, then
the facet), each measure's aggregate and the rows behind it, or the rows counted. In memory
``decide.py`` groups the rows it cleaned (``chartkit.plan.reduce``: its numpy fast paths);
when the rows stay in an engine it asks the backend (``decide.Whole.grouped``: ``Grouped``,
answered by ``chartkit.backends.counts.PlacedGroups`` through the contract's
``Backend.reduce``), and draws, ranks, cuts to the top and words the bars the same way from
either answer. Nothing here touches a frame of rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["BarGroups", "Grouped"]


@dataclass(frozen=True)
class BarGroups:
    """A backend's groups for bars, by column name: ``frame`` holds one row per group (the
    keys, then each measure's aggregate), in the order ``groupby(keys, sort=True,
    dropna=False)`` gives (a missing key last); ``rows`` the rows behind each group, one
    tuple per measure (one tuple of rows counted when there is none); ``categories`` the
    first key's values over every row when only the top groups are here (None: all are)."""

    frame: pd.DataFrame = field(repr=False)
    rows: tuple[tuple[int, ...], ...]
    categories: int | None = None


class Grouped(Protocol):
    """The groups of the rows bars place, by column name, where they live."""

    def bars(self, keys: Sequence[str], measures: Sequence[str], aggregate: str) -> BarGroups:
        """The groups of ``keys`` (the category first) holding the ``aggregate`` of each of
        ``measures`` (``count``, and no measure: the rows counted), over the rows the bars
        place; a backend may keep only the top groups of a single measure by one key (then
        ``BarGroups.categories`` says how many there are)."""
        ...
