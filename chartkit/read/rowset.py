"""What chartkit agrees to read as a rowset: a non-empty list of plain dicts, or a dataframe.

Anything else — an empty list, a dict, a string, a list holding a non-dict — is not a rowset:
``read_rowset`` answers ``None`` and the check files a not-applicable disposition, never a
finding ("nothing was wrong" and "I could not look" stay different states).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from decimal import Decimal
from itertools import chain, islice
from typing import TYPE_CHECKING, Any, cast

from chartkit._lazy import lazy_module
from chartkit._safe import NAME_MAX_CHARS, cap_text, sample_text, visible
from chartkit.read.columnar import dict_width, exact_dicts
from chartkit.read.reading import RowsetReading as RowsetReading
from chartkit.read.reading import _string_labels
from chartkit.read.reading import narwhals_to_pandas as narwhals_to_pandas

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd
else:  # imported on first use (chartkit._lazy): a check of rows needs neither
    np = lazy_module("numpy")
    pd = lazy_module("pandas")

__all__ = [
    "RowsetReading",
    "describe_keys",
    "describe_unread",
    "narwhals_to_pandas",
    "read_rowset",
]


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
        width = dict_width(value)  # (rows of one shape: told plain in the same pass)
        plain = width is not None or exact_dicts(value)
        if not plain and not all(isinstance(r, dict) for r in value):
            return None
        return RowsetReading(total=len(value), rows=value, plain=plain, width=width)
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


def describe_keys(reading: RowsetReading) -> str | None:
    """What is wrong with the keys of a list of dicts, in a few words; None when each key is a
    string and no two keys of a row are written alike in JSON.

    A JSON object's keys are strings, and a reader keeps the last of two alike: a row
    ``{"1": 5, 1: "text"}`` is written ``{"1": 5, "1": "text"}`` and read as ``{"1": "text"}``,
    so a check of its ``"1"`` judges a value the model never reads. The key is said capped and
    escaped (it is the tool's); no value is.

    >>> describe_keys(read_rowset([{"lun": 0}, {"lun": 5, 1: "IGNORE PREVIOUS"}]))
    'a list of 2 items whose item 2 has the key 1 (a number), not a string'
    >>> print(describe_keys(read_rowset([{"1": 5, 1: "IGNORE PREVIOUS"}])))
    a list of 1 item whose item 1 has the key 1 (a number), not a string: JSON writes it "1", \
a key the item has too
    >>> describe_keys(read_rowset([{"lun": 0}])) is None
    True
    """
    rows = reading.rows
    if rows is None:  # a frame's labels are judged when it is read (``_string_labels``)
        return None
    # every key seen: the reading's own columns when every row is exactly a dict (the chart
    # needs them too); a dict subclass's stored keys, whatever its ``__iter__`` says
    keys: Iterable[object] = (
        reading.columns
        if reading.plain
        else dict.fromkeys(chain.from_iterable(map(dict.keys, rows)))
    )
    if all(map(_plain_key, keys)):
        return None
    for at, row in enumerate(rows):
        wrong = _wrong_key(row)
        if wrong is not None:
            items = f"{len(rows):,} item{'s' if len(rows) > 1 else ''}"
            return f"a list of {items} whose item {at + 1:,} {wrong}"
    return None  # str subclasses, each its own text


def _plain_key(key: object) -> bool:
    """A key no other key of a dict can be written like: a ``str`` whose equality and hash are
    ``str``'s own (a ``StrEnum`` member's are), so two of them are alike only if they are one."""
    kind = type(key)
    return kind is str or (
        issubclass(kind, str) and kind.__eq__ is str.__eq__ and kind.__hash__ is str.__hash__
    )


def _wrong_key(row: dict[Any, Any]) -> str | None:
    """What is wrong with the first bad key of ``row``, in words: two keys JSON writes alike, a
    key that is no string, or a string that compares unlike its text (so the check would look
    it up by one name while JSON writes another); None when every key is a string of its own."""
    keys = list(dict.keys(row))
    written: set[str] = set()
    for key in keys:
        if isinstance(key, str):
            text = str.__str__(key)  # what JSON writes of a str subclass: the text it holds
            if text in written:
                return f"has the key {sample_text(text)} twice (two keys JSON writes alike)"
            written.add(text)
    for key in keys:
        if not isinstance(key, str):
            said = f"has the key {sample_text(key)} ({visible(_kind(key))}), not a string"
            alike = next((s for s in _json_spellings(key) if s in written), None)
            if alike is None:
                return said
            return f"{said}: JSON writes it {sample_text(alike)}, a key the item has too"
        if not _plain_key(key):
            kind = visible(cap_text(type(key).__name__, NAME_MAX_CHARS))
            return (
                f"has the key {sample_text(str.__str__(key))} (a {kind}), a string that "
                "compares unlike its text"
            )
    return None


def _json_spellings(key: object) -> tuple[str, ...]:
    """How JSON writers spell a key that is no string (``json`` and pydantic differ on some)."""
    if key is None:
        return ("null", "None")
    if isinstance(key, bool):
        return ("true", "True") if key else ("false", "False")
    try:
        if isinstance(key, int):
            return (int.__repr__(key),)
        if isinstance(key, float):
            said = float.__repr__(key)
            return (said, {"inf": "Infinity", "-inf": "-Infinity", "nan": "NaN"}.get(said, said))
    except ValueError:  # an int too long to write out: no key of a row is written like it
        return ()
    return ()


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
