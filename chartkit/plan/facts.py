"""Countable facts about a column's values that the chart rules read, in memory.

Each is a count any backend can make (an engine with one aggregate query); the in-memory
versions are here, with the signature an engine backend implements.

- ``zone_counts(values)``: how many present date values carry a time zone, and how many do not.
- ``coverage(times, labels)``: the distinct time points of a line, and how many of them the
  value of a category found at the fewest holds (``choose.is_entity`` reads the two).
- ``positions(xs, groups)``: each group's distinct x values, and x's
  (``choose.shares_positions`` reads them).
- ``unique_pairs(a, b)``: whether no two rows hold the same pair of values
  (``choose.breakdown_key`` reads it).
- ``all_quoted(name)``: whether every row of a column holds a number in quotes (``"1240"``;
  the reason for a table with no measure says the tool quotes its numbers).
- ``numbers(names)``: each number column's ``NumberFacts`` (its values that hold the type:
  how many, distinct, span, whole, sign), what ``chartkit.plan.roles`` reads.
- ``unique_key(names)``: whether no two rows share the values of all ``names`` (categories
  that key the rows: a count over them is a weight).

``Facts`` is what choosing asks of a result's rows by column name, wherever they live: every
backend of ``chartkit.backends`` answers it (over an engine's rows, in the engine), and
``FrameFacts`` answers it over a pandas frame. The planner asks the one it is given
(``decide.Whole.facts``), never the frame it was handed, which may be a backend's answer.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any, Final, Protocol

import numpy as np
import pandas as pd

from chartkit.plan.encode import (  # what a zone is: encode's
    _OFFSET,
    _RE2_OFFSET,
    _parsed_zones,
    numeric_strings_only,
)

__all__ = [
    "NO_NUMBERS",
    "Facts",
    "FrameFacts",
    "NumberFacts",
    "Settling",
    "coverage",
    "coverage_of_codes",
    "coverage_of_pairs",
    "number_facts",
    "positions",
    "unique_key",
    "unique_pairs",
    "zone_counts",
]

_ZONED = re.compile(_OFFSET)


def zone_counts(values: pd.Series, whole: pd.Series | None = None) -> tuple[int, int]:
    """``(naive, zoned)``: the present date values without a time zone, and those with one.

    A date string is zoned when it ends in ``Z`` or an offset (``encode.any_aware``'s rule); a
    datetime when it has a ``tzinfo``; a typed datetime column is all one or the other. An
    engine counts the same with one ``COUNT(*) FILTER (WHERE <offset pattern>)``. ``whole``
    is the column ``values`` were kept from, when they are some of its rows: where a reading
    parsed that column and found its values all zoned or all naive, so are these, and no text
    is searched (the search is most of a million-row ``view()`` otherwise).

    >>> zone_counts(pd.Series(["2024-05-13T02:00:00+02:00", "2024-05-13T01:00", None]))
    (1, 1)
    """
    array = values.array
    if isinstance(array, pd.arrays.ArrowStringArray):  # Arrow counts its nulls: no mask
        present = len(array) - int(array.__arrow_array__().null_count)
    else:
        present = int(values.notna().sum())
    known = _parsed_zones(values if whole is None else whole)
    if known is not None and 0 in known:
        return (0, present) if known[0] == 0 else (present, 0)
    if pd.api.types.is_datetime64_any_dtype(values.dtype):
        zoned = getattr(values.dt, "tz", None) is not None
        return (0, present) if zoned else (present, 0)
    if isinstance(array, pd.arrays.ArrowStringArray):
        import pyarrow.compute as pc  # type: ignore[import-untyped]

        found = pc.match_substring_regex(array.__arrow_array__(), _RE2_OFFSET)
        zoned_n = int(pc.sum(found).as_py() or 0)
        return present - zoned_n, zoned_n
    zoned_n = sum(map(_zoned, values.tolist()))
    return present - zoned_n, zoned_n


def _zoned(value: Any) -> bool:
    if isinstance(value, str):
        return _ZONED.search(value.strip()) is not None
    if isinstance(value, dt.datetime):  # pd.Timestamp too
        return value.tzinfo is not None
    return False


def positions(xs: pd.Series, groups: pd.Series) -> tuple[list[int], int]:
    """``(per_group, distinct)`` for ``choose.shares_positions``: among the rows holding both
    an x and a group (a NaN is no x), each group's count of distinct x values, smallest
    first (``choose.shares_positions`` reads them as a multiset), and x's distinct values
    over those rows. An engine counts the
    same with one ``GROUP BY group`` of ``COUNT(DISTINCT x)`` and one ``COUNT(DISTINCT x)``.

    >>> positions(pd.Series([1.0, 2.0, 1.0, 2.0, None]), pd.Series(["a", "a", "b", "b", "c"]))
    ([2, 2], 2)
    """
    if len(xs) != len(groups):
        raise ValueError(f"positions needs one group per x, got {len(xs)} and {len(groups)}")
    both = pd.DataFrame({"x": xs.to_numpy(), "g": groups.to_numpy()}).dropna()
    if both.empty:
        return [], 0
    per_group = both.groupby("g", sort=False)["x"].nunique()
    return sorted(int(n) for n in per_group.tolist()), int(both["x"].nunique())


def unique_pairs(a: pd.Series, b: pd.Series) -> bool:
    """Whether no two rows hold the same pair of values of ``a`` and ``b`` (a missing value
    is a value of its own, as a category's): rows that are already a breakdown by the two. An
    engine counts the same with one ``GROUP BY a, b`` and the largest group's rows.

    >>> unique_pairs(pd.Series(["us", "us", "fr"]), pd.Series(["gold", "silver", "gold"]))
    True
    >>> unique_pairs(pd.Series(["us", "us", None, None]), pd.Series(["gold", "gold", "x", "x"]))
    False
    """
    if len(a) != len(b):
        raise ValueError(f"unique_pairs needs one b per a, got {len(a)} and {len(b)}")
    both = pd.DataFrame({"a": a.to_numpy(), "b": b.to_numpy()})
    return not both.duplicated().any()


def coverage(times: pd.Series, labels: pd.Series) -> tuple[int, int]:
    """``(fewest, points)``: the distinct time points among the rows holding a time, and the
    points held by the value of ``labels`` found at the fewest of them (a missing label is a
    value too, as a line's series). An engine counts the same with one ``GROUP BY label`` of
    ``COUNT(DISTINCT time)`` and one ``COUNT(DISTINCT time)``.

    >>> days = pd.Series(pd.to_datetime(["2024-01-01", "2024-01-02", "2024-01-03", None]))
    >>> coverage(days, pd.Series(["sun", "rain", "sun", "snow"]))
    (1, 3)
    >>> coverage(days, pd.Series(["a", "a", "a", "b"]))  # b holds no time: not on the line
    (3, 3)
    """
    if len(times) != len(labels):
        raise ValueError(f"coverage needs one label per time, got {len(times)} and {len(labels)}")
    time_codes, points = pd.factorize(times)  # a missing time is -1
    held = time_codes >= 0
    if not held.any():
        return 0, 0
    label_codes, values = pd.factorize(labels, use_na_sentinel=False)
    width = max(1, len(values))
    pairs = np.unique(time_codes[held].astype(np.int64) * width + label_codes[held])
    per_label = np.bincount(pairs % width, minlength=width)
    return int(per_label[per_label > 0].min()), len(points)


def coverage_of_codes(times: Any, labels: Any) -> tuple[int, int]:
    """``coverage`` of rows already coded: each row's time point and label as integers of at
    least 0 (a bucket's code, a label's; a missing label has a code of its own), counted in one
    pass where the pairs are few (a line's buckets times its labels), else sorted.

    >>> import numpy as np
    >>> coverage_of_codes(np.array([0, 1, 2, 0, 1, 2]), np.array([0, 0, 0, 1, 1, 1]))
    (3, 3)
    >>> coverage_of_codes(np.array([0, 1, 2, 3]), np.array([0, 1, 0, 0]))
    (1, 4)
    """
    if not len(times):
        return 0, 0
    labels = np.asarray(labels)  # (kept in its own small integer type: no copy of the rows)
    width = int(labels.max()) + 1
    pairs = np.multiply(times, width, dtype=np.int64)  # the one array of the rows made here
    pairs += labels
    span = (int(np.max(times)) + 1) * width
    if span <= 4 * len(pairs) + 1024:  # dense: one bincount of the pairs
        pairs = np.flatnonzero(np.bincount(pairs, minlength=span))
    else:
        pairs = np.unique(pairs)
    return coverage_of_pairs(pairs, width)


def coverage_of_pairs(pairs: Any, width: int) -> tuple[int, int]:
    """``coverage`` of rows already grouped by time point and label: their distinct pairs as
    the codes ``time * width + label`` (each label's code below ``width``), in sorted order —
    the groups ``chartkit.plan.reduce.key_groups`` finds, counted without the rows.

    >>> import numpy as np
    >>> coverage_of_pairs(np.array([0, 1, 2, 3, 4, 5]), 2)  # 3 times, each with both labels
    (3, 3)
    >>> coverage_of_pairs(np.array([0, 2, 3, 4]), 2)  # label 1 at time 1 only
    (1, 3)
    """
    if not len(pairs):
        return 0, 0
    pairs = np.asarray(pairs)
    per_label = np.bincount(pairs % width, minlength=width)
    times = pairs // width  # sorted, as the pairs are: a new time wherever it steps
    points = 1 + int(np.count_nonzero(times[1:] != times[:-1]))
    return int(per_label[per_label > 0].min()), points


@dataclass(frozen=True, slots=True)
class NumberFacts:
    """What a number column's values that hold their type say (offenders, nulls, NaN and
    infinities left out), so a stray value changes these facts by one row at most.

    ``distinct`` is exact when it can matter, in memory and on every engine alike
    (``chartkit.plan.choose.SETTLING``): exact for at most ``roles.KEY_VALUES`` rows. Over
    that, the distinct values are counted among the first rows and that lower bound is kept
    only where it decides every role and chart as the exact count would: more distinct values
    than any threshold they are compared with (a grid's 12, a series' width), and, for whole
    numbers, a value seen twice (no id, no key) with no evenly spaced sequence possible; else
    they are counted exactly. A count over every row of mostly distinct values is a sort or a
    hash of them all: the dearest fact of the profiling pass, in memory as in an engine.
    """

    values: int  # rows holding a finite number
    distinct: int  # distinct finite numbers (exact when it can matter: see above)
    low: float | None  # None when values == 0
    high: float | None
    whole: bool  # every finite value is a whole number (True when values == 0)
    nonnegative: bool  # every finite value is >= 0 (True when values == 0)


NO_NUMBERS = NumberFacts(0, 0, None, None, True, True)
"""The facts of a column holding no finite number."""


@dataclass(frozen=True)
class Settling:
    """When a number's distinct values may be a lower bound: over ``rows_over`` rows, the
    count among the first ``probe_rows`` rows, kept where ``decides(whole, probe)`` says it
    decides every role and chart as the exact count would (``chartkit.plan.choose.SETTLING``,
    which memory and every engine read alike)."""

    rows_over: int
    probe_rows: int
    decides: Callable[[NumberFacts, NumberFacts], bool]


def number_facts(series: pd.Series, *, settling: Settling | None = None) -> NumberFacts:
    """``NumberFacts`` of a column's values: numbers only (a string, a bool, a date is an
    offender or not a number, and left out), finite only.

    Whole numbers are counted as the integers they are (two ids past 2**53 that one float
    would hold are two values), as an engine counts an integer column; any other number as
    a float (a ``Decimal`` too), as an engine counts a float or decimal column.

    >>> number_facts(pd.Series([1, 2, 2, "", None, float("inf"), True], dtype=object))
    NumberFacts(values=3, distinct=2, low=1.0, high=2.0, whole=True, nonnegative=True)
    >>> number_facts(pd.Series([2**62, 2**62 + 1, None], dtype=object)).distinct
    2

    With ``settling``, a column of more than ``settling.rows_over`` rows counts its distinct
    values among its first rows where that bound decides as the exact count would.
    """
    if settling is not None and len(series) > settling.rows_over:
        probe = _number_facts(series.iloc[: settling.probe_rows], count=True)
        whole = _number_facts(series, count=False)
        if settling.decides(whole, probe):
            return replace(whole, distinct=probe.distinct)
    return _number_facts(series, count=True)


def _number_facts(series: pd.Series, *, count: bool) -> NumberFacts:
    """``number_facts`` of every row, its distinct values counted (else 0) when ``count``."""
    kind = series.dtype.kind
    if kind in "bmM":  # booleans, durations and dates hold no number
        return NO_NUMBERS
    if kind in "iu":
        return _integer_facts(series.dropna().to_numpy())
    if kind == "f":
        values = series.to_numpy(dtype=float, na_value=np.nan)
    else:
        kept = [v for v in series.tolist() if _is_number(v)]
        if all(isinstance(v, int | np.integer) for v in kept):
            return _integer_facts(np.asarray(kept, dtype=object))
        values = np.asarray([_clip(v) for v in kept], dtype=float)
    if not len(values):
        return NO_NUMBERS
    least, most = values.min(), values.max()  # (read once: the test below, and the bounds)
    if not (np.isfinite(least) and np.isfinite(most)):  # (NaN poisons both)
        values = values[np.isfinite(values)]  # the rare column holding a NaN or an infinity
        if not len(values):
            return NO_NUMBERS
        least, most = values.min(), values.max()
    if count:
        ordered = np.sort(values)  # one copy: the distinct values are where the sorted ones step
        distinct = 1 + int(np.count_nonzero(ordered[1:] != ordered[:-1]))
        low, high = float(ordered[0]), float(ordered[-1])
        del ordered
    else:
        distinct, low, high = 0, float(least), float(most)
    return NumberFacts(
        values=len(values),
        distinct=distinct,
        low=low,
        high=high,
        whole=_whole(values),
        nonnegative=low >= 0,
    )


_BLOCK: Final = 1 << 20
"""Values tested at a time for being whole, so the test holds one block's temporaries."""


_FIRST_BLOCK: Final = 1 << 12
"""Values tested first: a measure's first few thousand values hold a fraction, and then one
small block has answered (one value not whole decides)."""


def _whole(values: np.ndarray[Any, Any]) -> bool:
    """Whether every (finite) value is a whole number, a block at a time."""
    starts = [0, *range(_FIRST_BLOCK, len(values), _BLOCK)]
    ends = [*starts[1:], len(values)]
    return all(
        bool(np.all(np.floor(block) == block))
        for block in (values[i:j] for i, j in zip(starts, ends, strict=True))
    )


def _is_number(v: Any) -> bool:
    """A value a number column holds as a number (a bool is no number)."""
    return isinstance(v, int | float | np.integer | np.floating | Decimal) and not isinstance(
        v,
        bool | np.bool_ | np.timedelta64,  # (numpy counts a duration among its integers)
    )


def _integer_facts(values: np.ndarray[Any, Any]) -> NumberFacts:
    """``NumberFacts`` of whole numbers counted exactly (an integer array, or Python ints)."""
    if not len(values):
        return NO_NUMBERS
    if values.dtype.kind in "iu":
        distinct = len(np.unique(values))
    else:  # Python ints, past int64 too
        distinct = len({int(v) for v in values.tolist()})
    low, high = min(values.tolist()), max(values.tolist())
    return NumberFacts(
        values=len(values),
        distinct=distinct,
        low=_clip(low),
        high=_clip(high),
        whole=True,
        nonnegative=bool(low >= 0),
    )


def _column(frame: pd.DataFrame, name: str) -> pd.Series:
    """The column ``name`` of ``frame`` (the first, where the label is duplicated)."""
    s = frame[name]
    return s.iloc[:, 0] if isinstance(s, pd.DataFrame) else s


def _clip(v: Any) -> float:
    """``v`` as a float: an integer past a float's range as the largest float of its sign, a
    ``Decimal`` that is no number (``sNaN``) as NaN."""
    try:
        return float(v)
    except OverflowError:
        return float(np.finfo(float).max) * (1 if v > 0 else -1)
    except ValueError:
        return float("nan")


def unique_key(frame: pd.DataFrame, names: list[str]) -> bool:
    """Whether no two rows of ``frame`` share the values of all ``names`` (a missing value is
    a value of its own): the columns key the rows.

    >>> frame = pd.DataFrame({"a": ["x", "x", "y"], "b": [1, 2, 1]})
    >>> unique_key(frame, ["a", "b"]), unique_key(frame, ["a"])
    (True, False)
    """
    if not names:
        return len(frame) <= 1
    picked = pd.DataFrame({str(i): _keyed(_column(frame, n)) for i, n in enumerate(names)})
    return not picked.duplicated().any()


def _keyed(series: pd.Series) -> pd.Series:
    """A column's values as a key compares them: every missing value one (None, NaN, NA), as
    an engine's ``GROUP BY`` holds a null; values Python cannot hash by their text."""
    if series.dtype != object:
        return series
    kept = series.where(series.notna(), None)
    try:
        hash(tuple(kept.tolist()))
    except TypeError:  # a list or a dict: compared by its text
        return kept.map(lambda v: v if v is None else str(v))
    return kept


class Facts(Protocol):
    """The counts choosing a chart asks of every row of a result, by column name."""

    def positions(self, x: str, by: str) -> tuple[list[int], int]:
        """``positions`` of the column ``x`` grouped by the column ``by``."""
        ...

    def unique_pairs(self, a: str, b: str) -> bool:
        """``unique_pairs`` of the columns ``a`` and ``b``."""
        ...

    def all_quoted(self, name: str) -> bool:
        """Whether every row of the column ``name`` holds a number in quotes (``"1240"``)."""
        ...

    def numbers(self, names: Sequence[str]) -> Mapping[str, NumberFacts]:
        """``NumberFacts`` of each named column declared number, asked together; a column the
        backend cannot count (an engine holding it as text) is left out of the answer."""
        ...

    def unique_key(self, names: Sequence[str]) -> bool:
        """Whether no two rows share the values of all ``names``."""
        ...


@dataclass(frozen=True)
class FrameFacts:
    """``Facts`` over a pandas frame's rows.

    >>> frame = pd.DataFrame({"x": [1.0, 2.0, 1.0, 2.0], "g": ["a", "a", "b", "b"]})
    >>> FrameFacts(frame).positions("x", "g")
    ([2, 2], 2)
    """

    frame: pd.DataFrame
    settling: Settling | None = None  # (None: every count of distinct values exact)

    def positions(self, x: str, by: str) -> tuple[list[int], int]:
        try:
            return positions(self.frame[x], self.frame[by])
        except (TypeError, ValueError):
            # an undeclared column pandas cannot group (lists or dicts are unhashable; a name
            # holding a lone surrogate cannot become an Arrow string): no positions to compare
            return [], 0

    def unique_pairs(self, a: str, b: str) -> bool:
        try:
            return unique_pairs(self.frame[a], self.frame[b])
        except (TypeError, ValueError):  # values pandas cannot hash: not a breakdown
            return False

    def all_quoted(self, name: str) -> bool:
        series = self.frame[name]
        return numeric_strings_only(series, np.ones(len(series), dtype=bool))

    def numbers(self, names: Sequence[str]) -> Mapping[str, NumberFacts]:
        return {
            n: number_facts(_column(self.frame, n), settling=self.settling)
            for n in dict.fromkeys(names)
        }

    def unique_key(self, names: Sequence[str]) -> bool:
        frame = pd.DataFrame({str(i): _column(self.frame, n) for i, n in enumerate(names)})
        try:
            return unique_key(frame, list(frame.columns))
        except (TypeError, ValueError):  # values pandas cannot hash: no key
            return False
