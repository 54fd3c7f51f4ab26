"""What chartkit agrees to read as a rowset: a non-empty list of plain dicts, or a dataframe.

Anything else — an empty list, a dict, a string, a list holding a non-dict — is not a rowset:
``read_rowset`` answers ``None`` and the check files a not-applicable disposition, never a
finding ("nothing was wrong" and "I could not look" stay different states).
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from itertools import islice
from typing import TYPE_CHECKING, Any, cast

from chartkit._lazy import lazy_module
from chartkit._safe import NAME_MAX_CHARS, cap_text
from chartkit.read.columnar import (
    exact_dicts,
)
from chartkit.read.reading import RowsetReading as RowsetReading
from chartkit.read.reading import _string_labels
from chartkit.read.reading import narwhals_to_pandas as narwhals_to_pandas

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd
else:  # imported on first use (chartkit._lazy): a check of rows needs neither
    np = lazy_module("numpy")
    pd = lazy_module("pandas")

__all__ = ["RowsetReading", "describe_unread", "narwhals_to_pandas", "read_rowset"]


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
        plain = exact_dicts(value)
        if not plain and not all(isinstance(r, dict) for r in value):
            return None
        return RowsetReading(total=len(value), rows=value, plain=plain)
    from chartkit.read.engines import read_engine_frame  # polars, arrow, DuckDB, Spark, Ibis

    native = read_engine_frame(value)  # they stay in their engine: chartkit.read.engines
    if native is not None:
        return native if native.total else None
    frame = _as_pandas(value)
    if frame is None or len(frame) == 0:
        return None
    return RowsetReading(total=len(frame), frame=_string_labels(frame))


def describe_unread(value: object) -> str | None:
    """What ``value`` is, in a few words, when ``read_rowset`` answers None for it and it holds
    something; None when it is empty (nothing, an empty list, object or text, no rows).

    Only types, counts and at most three keys (each cut as a name in a sentence is) are said,
    never a value: the answer may hold anything.

    >>> describe_unread([{"lun": "SECRET"}, None])
    'a list of 2 items whose item 2 is null, not an object'
    >>> describe_unread({"rows": [{"lun": 0}]})
    "one object with the key 'rows'"
    >>> describe_unread([]) is None, describe_unread({}) is None, describe_unread(None) is None
    (True, True, True)
    """
    if value is None:
        return None
    if isinstance(value, list | tuple):
        if not value:
            return None
        at, odd = next((i, v) for i, v in enumerate(value) if not isinstance(v, dict))
        items = f"{len(value):,} item{'s' if len(value) > 1 else ''}"
        return f"a list of {items} whose item {at + 1:,} is {_kind(odd)}, not an object"
    if isinstance(value, Mapping):
        if not value:
            return None
        keys = ", ".join(repr(cap_text(str(k), NAME_MAX_CHARS)) for k in islice(value, 3))
        more = f" and {len(value) - 3:,} more" if len(value) > 3 else ""
        return f"one object with the key{'s' if len(value) > 1 else ''} {keys}{more}"
    if isinstance(value, str | bytes):
        return f"text of {len(value):,} characters" if value else None
    if isinstance(value, bool | int | float | Decimal):
        return _kind(value)
    from chartkit.read.engines import read_engine_frame

    if read_engine_frame(value) is not None:
        return None  # an engine frame read_rowset refused has no rows
    frame = _as_pandas(value)
    if frame is not None and len(frame) == 0:
        return None
    return f"a {cap_text(type(value).__name__, NAME_MAX_CHARS)} object"


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float | Decimal):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, Mapping):
        return f"a {cap_text(type(value).__name__, NAME_MAX_CHARS)} (not a dict)"
    return f"a {cap_text(type(value).__name__, NAME_MAX_CHARS)}"


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
    return narwhals_to_pandas(frame)
