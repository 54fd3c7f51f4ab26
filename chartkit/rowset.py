"""What chartkit agrees to read as a rowset: a non-empty list of plain dicts, or a dataframe.

Anything else — an empty list, a dict, a string, a list holding a non-dict — is not a rowset:
``read_rowset`` answers ``None`` and the check files a not-applicable disposition, never a
finding ("nothing was wrong" and "I could not look" stay different states).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import chain
from typing import Any, cast

import pandas as pd

from chartkit.errors import ChartkitError

__all__ = ["RowsetReading", "read_rowset"]


@dataclass(frozen=True, eq=False)
class RowsetReading:
    """A result read as rows: either ``rows`` (a list of dicts) or ``frame`` (pandas).

    ``columns`` is every column seen, in first-seen order; ``total`` is the row count.
    ``plain`` says every row is exactly a ``dict`` (no subclass), which the check may read
    faster.
    """

    total: int
    rows: Sequence[dict[str, Any]] | None = None
    frame: pd.DataFrame | None = field(default=None, repr=False)
    plain: bool = field(default=False, repr=False)

    @cached_property
    def columns(self) -> tuple[str, ...]:
        """Every column seen in any row, first-seen order (computed on first use)."""
        if self.frame is not None:
            return tuple(str(c) for c in self.frame.columns)
        assert self.rows is not None
        return tuple(dict.fromkeys(chain.from_iterable(self.rows)))

    def to_frame(self) -> pd.DataFrame:
        """The rows as a pandas DataFrame, values as returned.

        pandas would turn ints beside a missing value into floats (``1`` → ``1.0``); such a
        column is kept as objects instead, so every value reads as the tool returned it.
        """
        if self.frame is not None:
            return self.frame
        rows = list(self.rows or ())
        frame = pd.DataFrame.from_records(rows, columns=list(self.columns))
        for name in frame.columns:
            column = frame[name]
            if column.dtype.kind == "f" and column.isna().any():
                values = [r.get(name) for r in rows]
                if any(type(v) is not float for v in values if v is not None):
                    frame[name] = pd.Series(values, index=frame.index, dtype=object)
        return _string_labels(frame)


def read_rowset(value: object) -> RowsetReading | None:
    """Read ``value`` as a rowset, or answer ``None`` when it is not one.

    >>> read_rowset([{"lun": 0}, {"lun": 3, "host": "a"}]).columns
    ('lun', 'host')
    >>> read_rowset([]) is None, read_rowset({"lun": 0}) is None, read_rowset("rows") is None
    (True, True, True)
    """
    if isinstance(value, RowsetReading):
        return value
    if isinstance(value, list | tuple):
        if not value:
            return None
        kinds = set(map(type, value))
        if kinds != {dict} and not all(isinstance(r, dict) for r in value):
            return None
        return RowsetReading(total=len(value), rows=value, plain=kinds == {dict})
    from chartkit.engines import read_engine_frame  # polars, arrow, DuckDB, Spark, Ibis

    native = read_engine_frame(value)  # they stay in their engine: chartkit.engines
    if native is not None:
        return native if native.total else None
    frame = _as_pandas(value)
    if frame is None or len(frame) == 0:
        return None
    return RowsetReading(total=len(frame), frame=_string_labels(frame))


def _string_labels(frame: pd.DataFrame) -> pd.DataFrame:
    """Column labels as the strings a declaration names them by; duplicates are refused."""
    labels = [str(c) for c in frame.columns]
    if len(set(labels)) != len(labels):
        twice = sorted(c for c, n in Counter(labels).items() if n > 1)
        raise ChartkitError(
            f"the dataframe has more than one column labelled {', '.join(map(repr, twice))}; "
            "give each column its own name so each can be judged and charted"
        )
    if all(type(c) is str for c in frame.columns):
        return frame
    return frame.set_axis(labels, axis=1)


def _as_pandas(value: object) -> pd.DataFrame | None:
    """A pandas frame as is; a polars or pyarrow table through narwhals; anything else None."""
    if isinstance(value, pd.DataFrame):
        return value
    module = type(value).__module__.split(".", 1)[0]
    if module not in {"polars", "pyarrow", "modin", "cudf"}:
        return None  # not a dataframe library narwhals reads: not a rowset
    import narwhals as nw

    try:
        frame = nw.from_native(cast(Any, value), eager_only=True)
    except TypeError:
        return None
    native: pd.DataFrame = frame.to_pandas()
    return native
