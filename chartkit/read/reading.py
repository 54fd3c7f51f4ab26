"""A ``RowsetReading``: one result's rows as chartkit reads them once — a list of dicts (each
column's values pulled out once, ``chartkit.read.columnar``), a pandas frame, or (its subclass
``chartkit.read.engines.EngineReading``) an engine's frame whose rows stay in the engine.

``chartkit.read.rowset`` decides what is a rowset and re-exports the class; the engine door
subclasses it here, below both, so neither imports the other to know it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property
from itertools import chain
from typing import TYPE_CHECKING, Any, Final

from chartkit._lazy import lazy_module
from chartkit.errors import ChartkitError
from chartkit.read.columnar import (
    ABSENT,
    Census,
    WallClock,
    ascii_text_array,
    read_census,
    read_columns,
    remember_wall_clock,
    same_width,
)

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd
else:  # imported on first use (chartkit._lazy): a check of rows needs neither
    np = lazy_module("numpy")
    pd = lazy_module("pandas")


__all__ = ["RowsetReading", "narwhals_to_pandas"]


@dataclass(frozen=True, eq=False)
class RowsetReading:
    """A result read as rows: either ``rows`` (a list of dicts) or ``frame`` (pandas).

    ``columns`` is every column seen, in first-seen order; ``total`` is the row count.
    ``plain`` says every row is exactly a ``dict`` (no subclass), which the check may read
    faster; ``width``, when known, that each also holds that many keys (``read_rowset`` found
    both in one pass, ``chartkit.read.columnar.dict_width``), so ``columns`` need not ask.

    A list of dicts is read once: ``values`` keeps what it read, so the check and ``to_frame``
    share one pass over the rows. Plain rows are read in C where ``chartkit._speedups`` is
    built, which also keeps each column's ``census`` (for the check) and ``wall_clock`` (its
    ISO dates parsed, for the chart).
    """

    total: int
    rows: Sequence[dict[str, Any]] | None = None
    frame: pd.DataFrame | None = field(default=None, repr=False)
    plain: bool = field(default=False, repr=False)
    width: int | None = field(default=None, repr=False)
    _read: dict[Any, list[Any]] = field(default_factory=dict, init=False, repr=False)
    _gaps: dict[Any, bool] = field(default_factory=dict, init=False, repr=False)
    _census: dict[Any, Census] = field(default_factory=dict, init=False, repr=False)
    _clocks: dict[Any, WallClock] = field(default_factory=dict, init=False, repr=False)

    @cached_property
    def columns(self) -> tuple[str, ...]:
        """Every column seen in any row, first-seen order (computed on first use).

        When every row has as many keys as the first and holds each of the first's keys, the
        answer is the first row's keys — asked in C while those columns are read (which the
        frame needs anyway); rows of other shapes are walked key by key.
        """
        if self.frame is not None:
            return tuple(str(c) for c in self.frame.columns)
        assert self.rows is not None
        first = tuple(self.rows[0])
        width = len(first)
        if self.width == width or same_width(self.rows, width, plain=self.plain):
            self.values(first)
            if not any(self._gaps[name] for name in first):
                return first
        return tuple(dict.fromkeys(chain.from_iterable(self.rows)))

    def values(self, names: Sequence[str]) -> list[list[Any]]:
        """Each named column's values in row order, ``ABSENT`` where a row lacks the key.

        Read once (in C, see ``chartkit.read.columnar``) and kept for the next caller; the lists
        are the reading's own and must not be changed.
        """
        assert self.rows is not None, "values() reads a list of dicts; a frame has columns"
        todo = [name for name in dict.fromkeys(names) if name not in self._read]
        if todo:
            read = read_census(self.rows, todo) if self.plain else None
            if read is None:
                got, gaps = read_columns(self.rows, todo, self.plain)
                self._read.update(zip(todo, got, strict=True))
                self._gaps.update(zip(todo, gaps, strict=True))
            else:
                for name, column in zip(todo, read, strict=True):
                    self._read[name], self._gaps[name] = column.values, column.gap
                    self._census[name] = column.census
                    if column.clock is not None:
                        self._clocks[name] = column.clock
        return [self._read[name] for name in names]

    def census(self, name: Any) -> Census | None:
        """The column's census as the C reader took it (after ``values`` read it), or None
        when it was read in Python."""
        return self._census.get(name)

    def wall_clock(self, name: Any) -> WallClock | None:
        """The column's ISO dates as the C reader parsed them, when every value is one."""
        return self._clocks.get(name)

    def to_frame(self, *, keep_values: bool = True) -> pd.DataFrame:
        """The rows as a pandas DataFrame, values as returned.

        pandas would turn ints beside a missing value into floats (``1`` → ``1.0``), and every
        number beside a complex one into a complex; such a column is kept as objects instead,
        so every value reads as the tool returned it.

        ``keep_values=False`` lets go of each column's list of values as soon as its typed or
        text array is built (a later ``values`` reads that column from the rows again), so a
        caller done with the lists never holds them beside the whole frame: at millions of
        rows, 8 bytes a value a column.
        """
        if self.frame is not None:
            return self.frame
        names = self.columns
        labels = _labels(names)
        read = self.values(names)
        # what ``DataFrame.from_records`` makes of the rows (NaN where a key is not set),
        # built from the columns already read instead of from every key of every row
        data: dict[int, Any] = {
            i: [_NAN if v is ABSENT else v for v in values] if self._gaps[name] else values
            for i, (name, values) in enumerate(zip(names, read, strict=True))
        }
        texts: list[int] = []
        built: set[int] = set()  # columns made arrays from their census: exactly as pandas would
        for i, values in data.items():
            census = self._census.get(names[i])
            if census is not None and census.count("str") != len(values):
                typed = _typed_array(values, census)
                if typed is not None:
                    data[i] = typed
                    built.add(i)
            else:
                text = _text_array(values, all_text=census is not None)
                if text is not None:
                    data[i] = text
                    texts.append(i)
                    built.add(i)
            if i in built and not keep_values:  # the list's last holders let it go
                self._read.pop(names[i], None)
                read[i] = []
        values = []  # nor does the loop's name hold the last one
        try:
            frame = pd.DataFrame(data, copy=False).set_axis(labels, axis=1)
        except UnicodeEncodeError:  # a lone surrogate: pandas' string dtype cannot hold it
            read = self.values(names)  # (the lists let go are read again)
            objects = {i: pd.Series(_given(v), dtype=object) for i, v in enumerate(read)}
            frame = pd.DataFrame(objects).set_axis(labels, axis=1)
            built.clear()
        else:
            for i in texts:  # dates parsed by the reading are handed on with their column
                clock = self._clocks.get(names[i])
                if clock is not None:
                    remember_wall_clock(frame.iloc[:, i].array.__arrow_array__(), clock)
        for i, name in enumerate(frame.columns):
            column = frame[name]
            if i in built:  # one type throughout, as the census counted: nothing to restore
                continue
            if column.dtype.kind == "f" and column.isna().any():
                values = _given(read[i])
                if any(type(v) is not float for v in values if v is not None):
                    frame[name] = pd.Series(values, index=frame.index, dtype=object)
            elif column.dtype.kind == "c":  # pandas would make every number beside one complex
                values = _given(read[i])
                if any(type(v) is not complex for v in values):
                    frame[name] = pd.Series(values, index=frame.index, dtype=object)
        return _string_labels(frame)


_NAN: Final = float("nan")


@cache
def _text_dtype() -> object:
    """The dtype pandas gives a column of strings (``str`` on pyarrow in pandas 3)."""
    return pd.Series(["text"]).dtype


def _text_array(values: list[Any], *, all_text: bool = False) -> Any:
    """A column holding nothing but ``str``, typed as pandas would type it but built by
    pyarrow in one pass in C (pandas looks at each string in Python first); None when the
    column holds anything else, or pandas does not keep strings in pyarrow. ``all_text``: a
    census already counted every value an exact ``str``, so the types are not listed again."""
    dtype = _text_dtype()
    if not (isinstance(dtype, pd.StringDtype) and dtype.storage == "pyarrow"):
        return None
    if not values:
        return None
    if not all_text and (type(values[0]) is not str or set(map(type, values)) != {str}):
        return None
    import pyarrow as pa  # type: ignore[import-untyped]

    try:
        array = ascii_text_array(values)  # buffers sized exactly, in C
        if array is None:
            array = pa.array(values, pa.large_string())
        return pd.arrays.ArrowStringArray(array, dtype=dtype)  # type: ignore[call-arg]
    except (pa.ArrowException, UnicodeError):  # a lone surrogate: pandas' own path decides
        return None


def _typed_array(values: list[Any], census: Census) -> np.ndarray[Any, Any] | None:
    """A column the census says holds only floats, only ints that fit int64, or only bools,
    as the numpy array pandas would make of it — made straight from the list, without the
    object array pandas builds on the way (the peak memory of a large frame). None otherwise.
    """
    n = len(values)
    if census.count("float") + census.count("nan") == n:  # (read as numpy reads a list)
        return np.fromiter(values, dtype=np.float64, count=n)
    if census.count("bool") == n:
        return np.array(values, dtype=np.bool_)
    if census.count("int") == n:
        try:
            return np.array(values, dtype=np.int64)
        except OverflowError:  # pandas' own path decides (uint64, or objects)
            return None
    return None


def _given(values: list[Any]) -> list[Any]:
    """A column's values as ``row.get`` answers them: None where a key is not set."""
    return [None if v is ABSENT else v for v in values]


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
    return frame.set_axis(_labels(labels), axis=1)


def _labels(names: Sequence[str]) -> pd.Index:
    """Column labels as an object index: pandas' string dtype refuses a lone surrogate."""
    return pd.Index(list(names), dtype=object)


def narwhals_to_pandas(frame: Any) -> pd.DataFrame:
    """A narwhals eager frame as pandas, whatever its column names and dtypes.

    The columns cross under positional names (polars panics on a NUL in a name) and get
    their own names back as an object index; a dtype pandas has no twin for (polars
    Int128, …) crosses as Python values in an object column, as returned.
    """
    names = list(frame.columns)
    plain = frame.rename({name: f"c{i}" for i, name in enumerate(names)})
    try:
        native: pd.DataFrame = plain.to_pandas()
    except Exception:  # no pandas twin for a dtype: each column as Python values
        columns = plain.to_dict(as_series=False)
        native = pd.DataFrame({k: pd.Series(v, dtype=object) for k, v in columns.items()})
    return native.set_axis(_labels(names), axis=1)
