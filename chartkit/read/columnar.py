"""One reading of a list of dicts: each column's values pulled out once, in C.

The check, the frame and the date parse all start from a column's values. Reading them is
most of the cost of a list of dicts, so a ``RowsetReading`` reads each column once and keeps
the lists; everything downstream shares them.

Two readers give the same values. ``read_census`` uses the compiled ``chartkit._speedups``
(built at install when a C compiler is there): one pass over the rows reads every column and,
on the way, takes each column's ``Census`` (values per exact type, and the first of each) and
parses its date strings (``chartkit._isodate``'s grammar) into a ``WallClock``, so the check
judges most columns from their census and the chart does not parse the dates again. Without
it (or with ``CHARTKIT_PURE_PYTHON=1`` in the environment at import) ``read_columns`` reads in
Python and the check judges every column from its values: the same verdicts, more slowly.
"""

from __future__ import annotations

import os
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import repeat
from operator import itemgetter
from types import ModuleType
from typing import TYPE_CHECKING, Any, Final

from chartkit._lazy import lazy_module

if TYPE_CHECKING:
    import numpy as np
else:  # imported on first use (chartkit._lazy): a check of rows needs neither
    np = lazy_module("numpy")

__all__ = [
    "ABSENT",
    "CENSUS_CLASSES",
    "CENSUS_VALUE_TYPES",
    "SPEEDUPS",
    "Absent",
    "Census",
    "ColumnRead",
    "WallClock",
    "ascii_text_array",
    "dict_width",
    "exact_dicts",
    "known_wall_clock",
    "read_census",
    "read_columns",
    "remember_wall_clock",
    "same_width",
    "text_encoding",
]


def _load_speedups() -> ModuleType | None:
    """The compiled reader, unless it was not built or ``CHARTKIT_PURE_PYTHON=1`` is set."""
    if os.environ.get("CHARTKIT_PURE_PYTHON") == "1":
        return None
    try:
        from chartkit import _speedups
    except ImportError:
        return None
    return _speedups


SPEEDUPS: ModuleType | None = _load_speedups()
"""``chartkit._speedups`` when it is used, else None (tests set it to None for pure Python)."""

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


# --- the compiled reader ---------------------------------------------------------------------

CENSUS_CLASSES: Final = (
    "int",  # exactly int
    "float",  # exactly float, not NaN
    "nan",  # exactly float, NaN
    "str",  # exactly str (every one, whatever the three below say)
    "bool",  # exactly bool
    "none",  # None
    "absent",  # the row has no such key
    "other",  # any other type: the census does not decide the column
    "iso",  # a str that is a date string (``chartkit._isodate``'s grammar, decided in C)
    "not_iso",  # a str that is no date string (decided in C)
)
"""The census's classes, in the order ``chartkit/_speedups.c`` counts them."""

CENSUS_VALUE_TYPES: Final = {
    "int": "number",
    "float": "number",
    "nan": "null",
    "str": "string",  # its form unknown: where the form decides (a date column), iso/not_iso
    "bool": "boolean",
    "none": "null",
    "absent": "absent",
    "iso": "date string",
    "not_iso": "string",
}
"""The value type (``chartkit.check.verdicts``) of every value of each census class; "other" has
none, and a column holding one is judged from its values."""

_CLASS_AT: Final = {name: i for i, name in enumerate(CENSUS_CLASSES)}


@dataclass(frozen=True, slots=True)
class Census:
    """How many of a column's values fall in each class of ``CENSUS_CLASSES``, and where the
    first of each is (-1 when there is none)."""

    counts: tuple[int, ...]
    firsts: tuple[int, ...]

    def count(self, name: str) -> int:
        return self.counts[_CLASS_AT[name]]

    def first(self, name: str) -> int:
        return self.firsts[_CLASS_AT[name]]


@dataclass(frozen=True, slots=True, eq=False)
class WallClock:
    """A column of date strings parsed once: wall-clock microseconds since 1970 (aware
    values in UTC, naive ones as given — ``chartkit.plan.encode.as_wall_clock``'s reading), and
    how many of them carried a zone (``zoned``; ``aware``: any did, ``any_aware``)."""

    micros: bytes
    zoned: int

    @property
    def aware(self) -> bool:
        """Whether any value carried a zone."""
        return self.zoned > 0

    @property
    def every_zoned(self) -> bool:
        """Whether every value carried a zone (so any part of the column is all zoned)."""
        return self.zoned * 8 == len(self.micros)

    def times(self) -> np.ndarray[Any, np.dtype[np.datetime64]]:
        """The times as a read-only ``datetime64[us]`` array over the parsed bytes."""
        return np.frombuffer(self.micros, dtype="datetime64[us]")


@dataclass(frozen=True, slots=True, eq=False)
class ColumnRead:
    """One column as the compiled reader read it."""

    values: list[Any]
    gap: bool  # some row lacks the key (``ABSENT`` among the values)
    census: Census
    clock: WallClock | None  # every value a date string the C validator parsed


def exact_dicts(rows: list[Any] | tuple[Any, ...]) -> bool:
    """Whether every row is exactly a ``dict`` (what ``read_census`` reads), asked in C when
    the compiled reader is there.

    >>> exact_dicts([{}, {"a": 1}]), exact_dicts([{}, 1])
    (True, False)
    """
    if SPEEDUPS is not None:
        return bool(SPEEDUPS.exact_dicts(rows))
    return set(map(type, rows)) == {dict}


def dict_width(rows: list[Any] | tuple[Any, ...]) -> int | None:
    """How many keys each row holds, when every row is exactly a ``dict`` holding as many as
    the first: one pass in C answers both ``exact_dicts`` and ``same_width`` for rows of one
    shape (the common case), so neither walks them again. None when a row is not so, when
    there is no row, or when the compiled reader is not used.

    >>> dict_width([{"a": 1}, {"b": 2}]) if SPEEDUPS else 1
    1
    >>> dict_width([{"a": 1}, {}]), dict_width([])
    (None, None)
    """
    if SPEEDUPS is None or not rows or type(rows[0]) is not dict:
        return None
    width = len(rows[0])
    return width if SPEEDUPS.same_width(rows, width) else None


def ascii_text_array(values: list[Any]) -> Any:
    """A pyarrow ``large_string`` array of a list of ASCII ``str`` (dates, codes, names),
    its two buffers laid out in C and sized exactly (pyarrow's own builder doubles its buffer
    as it goes and leaves the outgrown ones resident in its pool: at 5M dates, ~140 MB more
    at the peak); None when a value is not an exact ASCII str, or the extension is not used.

    >>> ascii_text_array(["a", "", "bc"]).to_pylist() if SPEEDUPS else ["a", "", "bc"]
    ['a', '', 'bc']
    """
    got = None if SPEEDUPS is None else SPEEDUPS.ascii_text(values)
    if got is None:
        return None
    import pyarrow as pa  # type: ignore[import-untyped]

    offsets, chars = got
    buffers = [None, pa.py_buffer(offsets), pa.py_buffer(chars)]
    return pa.Array.from_buffers(pa.large_string(), len(values), buffers)


def same_width(rows: Sequence[Any], width: int, *, plain: bool) -> bool:
    """Whether every row holds ``width`` keys: asked in C of plain rows (exactly dicts) when
    the compiled reader is there, with ``len`` (which a dict subclass may answer) otherwise.

    >>> same_width([{"a": 1}, {"b": 2}], 1, plain=True), same_width([{}, {"a": 1}], 0, plain=True)
    (True, False)
    """
    if plain and SPEEDUPS is not None and isinstance(rows, list | tuple):
        return bool(SPEEDUPS.same_width(rows, width))
    return all(map(width.__eq__, map(len, rows)))


def read_census(rows: Sequence[dict[str, Any]], names: Sequence[Any]) -> list[ColumnRead] | None:
    """Each named column read in one pass in C, with its census and parsed dates; None when
    the compiled reader is not used. Every row must be exactly a ``dict``.

    Each row is fetched once and every name looked up in it; a key whose ``__eq__`` or
    ``__hash__`` raises during a lookup raises here as it would in Python.
    """
    if SPEEDUPS is None:
        return None
    size = len(CENSUS_CLASSES)
    out: list[ColumnRead] = []
    for values, census, clock, zoned in SPEEDUPS.read_columns(rows, names, ABSENT):
        counted = Census(census[:size], census[size:])
        out.append(
            ColumnRead(
                values,
                counted.count("absent") > 0,
                counted,
                None if clock is None else WallClock(clock, zoned),
            )
        )
    return out


# --- what is known of an Arrow array, remembered with it --------------------------------------


class _ByArray:
    """Values remembered by the identity of a live pyarrow array (immutable data: while it
    lives, what was worked out from it stays true). An entry goes when its array does, or —
    with ``kept`` — when it is the oldest of more than ``kept``."""

    def __init__(self, kept: int | None = None) -> None:
        self._entries: dict[int, tuple[weakref.ref[Any], Any]] = {}
        self._kept = kept

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, arrow: Any) -> Any:
        """The value remembered for exactly this array, or None."""
        got = self._entries.get(id(arrow))
        return got[1] if got is not None and got[0]() is arrow else None

    def put(self, arrow: Any, value: Any) -> None:
        entries, key = self._entries, id(arrow)
        entries.pop(key, None)  # a dead array's entry under a reused id: this one is newer
        entries[key] = (weakref.ref(arrow, lambda _: entries.pop(key, None)), value)
        while self._kept is not None and len(entries) > self._kept:
            del entries[next(iter(entries))]


# The wall clocks of the date columns ``RowsetReading.to_frame`` built, by the Arrow array the
# frame holds.
_CLOCKS: Final = _ByArray()


def remember_wall_clock(arrow: Any, clock: WallClock) -> None:
    """Note that ``arrow`` (a pyarrow array of date strings) reads as ``clock``."""
    _CLOCKS.put(arrow, clock)


def known_wall_clock(arrow: Any) -> WallClock | None:
    """The wall clock remembered for exactly this pyarrow array, if any."""
    clock: WallClock | None = _CLOCKS.get(arrow)
    return clock


# --- one dictionary encoding of a text column -------------------------------------------------

# pyarrow's dictionary encoding of a text column, by the Arrow array it encodes.
# ``encode.profile_columns`` counts the distinct values from it and ``decide`` codes the line's
# series with it, so the column is hashed once. At most ``ENCODINGS_KEPT`` are kept (the
# indices take 4 bytes a row, and a caller's frame may live long).
ENCODINGS_KEPT: Final = 8
_ENCODINGS: Final = _ByArray(kept=ENCODINGS_KEPT)


def text_encoding(arrow: Any) -> Any:
    """``pyarrow.compute.dictionary_encode(arrow).combine_chunks()`` for a pyarrow text
    ``ChunkedArray``: one ``DictionaryArray`` (missing values are null indices, not in the
    dictionary), made once and remembered with the array (the last ``ENCODINGS_KEPT`` of them).

    >>> import pyarrow as pa
    >>> column = pa.chunked_array([["b", "a"], ["b", None]])
    >>> text_encoding(column).dictionary.to_pylist(), text_encoding(column) is text_encoding(column)
    (['b', 'a'], True)
    """
    encoded = _ENCODINGS.get(arrow)
    if encoded is None:
        import pyarrow.compute as pc  # type: ignore[import-untyped]

        if arrow.num_chunks == 1:  # (its one chunk encoded: no copy to combine them)
            encoded = pc.dictionary_encode(arrow.chunk(0))
        else:
            encoded = pc.dictionary_encode(arrow).combine_chunks()
        _ENCODINGS.put(arrow, encoded)
    return encoded
