"""One reading of a list of dicts: each column's values pulled out once, in C.

The check, the frame and the date parse all start from a column's values. Reading them is
most of the cost of a list of dicts, so a ``RowsetReading`` reads each column once with
``read_columns`` and keeps the lists; everything downstream shares them.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import repeat
from operator import itemgetter
from typing import Any, Final

__all__ = ["ABSENT", "Absent", "read_columns"]

COLUMNS_AT_ONCE: Final = 8  # columns read in one pass over the rows (memory: one list each)
ROWS_AT_ONCE: Final = 1024  # rows read per column before the next column (they stay in cache)


class Absent:
    """The type of the one value standing for "this row has no such key"."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "ABSENT"


ABSENT: Final = Absent()


def read_columns(
    rows: Sequence[dict[str, Any]], names: Sequence[str], plain: bool
) -> tuple[list[list[Any]], list[bool]]:
    """Each named column's values (``ABSENT`` where a row lacks the key), and whether it has
    such a gap.

    Rows that are exactly ``dict`` are read by item in C, a block of rows at a time for up to
    eight columns, so each row is fetched from memory once rather than once per column. (A
    ``dict`` subclass is read with ``.get``: it might define ``__missing__``, and reading must
    never add a key to the tool's rows.)

    >>> read_columns([{"a": 1, "b": 2}, {"a": 3}], ["a", "b"], True)
    ([[1, 3], [2, ABSENT]], [False, True])
    """
    values: list[list[Any]] = []
    gaps: list[bool] = []
    for at in range(0, len(names), COLUMNS_AT_ONCE):
        batch = list(names[at : at + COLUMNS_AT_ONCE])
        if plain:
            got, holes = _read_plain(rows, batch)
        else:
            got = [[r.get(name, ABSENT) for r in rows] for name in batch]
            holes = [ABSENT in v for v in got]
        values += got
        gaps += holes
    return values, gaps


def _read_plain(
    rows: Sequence[dict[str, Any]], names: list[str]
) -> tuple[list[list[Any]], list[bool]]:
    out: list[list[Any]] = [[] for _ in names]
    getters = [itemgetter(name) for name in names]
    gaps = [False] * len(names)  # True once a row without the key was met
    for start in range(0, len(rows), ROWS_AT_ONCE):
        block = rows[start : start + ROWS_AT_ONCE]
        for i, values in enumerate(out):
            if not gaps[i]:
                try:
                    values.extend(map(getters[i], block))
                    continue
                except KeyError:
                    gaps[i] = True
                    del values[start:]  # drop what the failed pass appended
            values.extend(map(dict.get, block, repeat(names[i]), repeat(ABSENT)))
    return out, gaps
