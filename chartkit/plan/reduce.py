"""Rows reduced in memory, in numpy: the group-bys behind every aggregated mark.

The planner (``chartkit.plan.decide``) draws a pandas frame with these, and the in-memory
backend (``chartkit.backends.memory``) answers ``Backend.reduce`` with the same ones, so a
chart reduced either way holds the same groups, in the same order, with the same values:

- ``reduce_frame(data, keys, fy, how)``: one row per key, the aggregate of ``fy`` and the rows
  behind it (``ROWS``), as ``groupby(keys, sort=True, dropna=False)`` gives them — through
  ``reduce_by_one_key`` (every key factorized once, in sorted order, combined into one int64
  per row) where the keys allow it;
- ``sorted_codes`` / ``bucket_codes`` / ``unit_codes``: a key's codes in sorted order, made by
  hashing, or for dates on a time bucket by arithmetic; ``distinct_rows`` counts the distinct
  key tuples and hands their codes on to ``reduce_frame``;
- ``span_bucket_seconds``: the bucket a line of times is drawn on (``choose.bucket_seconds``
  of their span); ``floor_to_unit``: dates floored to a calendar unit;
- ``as_floats``: a measure's values as floats, without a call per value where it can.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

import numpy as np
import pandas as pd

from chartkit.plan import choose
from chartkit.plan.encode import as_numbers
from chartkit.read.columnar import text_encoding

__all__ = [
    "ROWS",
    "UNIT_SECONDS",
    "Codes",
    "KeyGroups",
    "as_floats",
    "bucket_codes",
    "combined_codes",
    "compact_codes",
    "distinct_codes",
    "distinct_rows",
    "floor_to_unit",
    "group_codes",
    "key_groups",
    "reduce_by_one_key",
    "reduce_frame",
    "sorted_codes",
    "span_bucket_seconds",
    "time_bounds",
    "unit_codes",
]

ROWS: Final = "rows"  # the count of rows behind an aggregated mark

UNIT_SECONDS: Final[Mapping[str, int]] = {"minute": 60, "hour": 3600, "day": 86400}


_PERIODS: Final[Mapping[str, str]] = {"week": "W-SUN", "month": "M", "quarter": "Q", "year": "Y"}


_FLOORS: Final[Mapping[str, str]] = {"minute": "min", "hour": "h", "day": "D"}


_FLOAT_OR_NONE: Final = frozenset({float, type(None)})


def as_floats(series: pd.Series) -> pd.Series:
    """``as_numbers``, without a call per value when a column of objects holds only floats
    (and None): numpy reads them as they are, None as NaN."""
    if series.dtype == object:
        items = series.tolist()
        if _FLOAT_OR_NONE.issuperset(map(type, items)):
            return pd.Series(np.array(items, dtype="float64"), index=series.index)
    return as_numbers(series)


def time_bounds(times: pd.Series) -> tuple[int, int] | None:
    """The least and greatest integer of a numpy date column (NaT is the least of all), or
    None for any other column or none of its rows: read once by a line that both sizes its
    buckets (``span_bucket_seconds``) and codes them (``bucket_codes``)."""
    values = times.to_numpy()
    if values.dtype.kind != "M" or not len(values):
        return None
    ints = values.view(np.int64)
    return int(ints.min()), int(ints.max())


def span_bucket_seconds(
    times: pd.Series, target: int, *, bounds: tuple[int, int] | None = None
) -> int:
    """The bucket a line of ``times`` is drawn on: ``choose.bucket_seconds`` of their span
    (``bounds``: their ``time_bounds``, when the caller has them)."""
    values = times.to_numpy()
    span: float | None = None
    if values.dtype.kind == "M" and len(values):
        # (the integers' min and max: no NaT test per value)
        lo, hi = np.array(bounds or time_bounds(times), dtype=np.int64).view(values.dtype)
        fits = not (np.isnat(lo) or np.isnat(hi))  # NaT, the least integer: any NaT is lo
        # … and a difference numpy would not wrap
        if fits and int(hi.astype(np.int64)) - int(lo.astype(np.int64)) <= -1 - _NAT:
            span = pd.Timedelta(hi - lo).total_seconds()  # as pandas' own min and max give it
    if span is None:
        first, last = times.min(), times.max()
        try:
            span = (last - first).total_seconds()
        except (OverflowError, pd.errors.OutOfBoundsDatetime):  # past a nanosecond Timedelta
            with warnings.catch_warnings():  # (the nanoseconds dropped matter to no bucket)
                warnings.simplefilter("ignore", UserWarning)
                span = (last.to_pydatetime() - first.to_pydatetime()).total_seconds()
    return choose.bucket_seconds(span, target)


def reduce_frame(
    data: pd.DataFrame, keys: list[str], fy: str, how: str, known: Codes | None = None
) -> pd.DataFrame:
    """One row per key: the aggregate of ``fy`` and the count of rows behind it (``rows``).

    ``known`` holds keys already factorized (``sorted_codes``) over the same rows.
    """
    if len(keys) > 1 or keys[0] in (known or {}):
        combined = reduce_by_one_key(data, keys, fy, how, known)
        if combined is not None:
            return combined
    grouped = data.groupby(keys, sort=True, dropna=False)
    if how == "count":
        return grouped.size().rename("count").reset_index()
    out = grouped[fy].agg([how, "size"]).reset_index()
    return out.rename(columns={how: fy, "size": ROWS})


def reduce_by_one_key(
    data: pd.DataFrame,
    keys: list[str],
    fy: str,
    how: str,
    known: Codes | None = None,
    groups: KeyGroups | None = None,
) -> pd.DataFrame | None:
    """``reduce_frame`` over several keys, grouped by one integer per row instead.

    ``known`` holds codes already made (``Codes``); when it is a ``dict`` the codes are taken
    out of it as they are used, so a caller that hands it over holds no key's codes while the
    rows are grouped (millions of rows: 8 bytes each, per key). ``groups``, when made over
    these ``keys`` (``key_groups``), are the rows' groups already: nothing is coded again.

    Each key is factorized in sorted order (missing last, as ``groupby(sort=True,
    dropna=False)`` orders them) and the codes are combined into one int64, so pandas groups
    one array rather than building codes, ids and an indexer for every key: on millions of
    rows this halves the memory a line's buckets take. The combined codes are then made dense
    (in the same sorted order) and grouped as a categorical, which pandas groups without
    hashing them again. The groups, their order and the values are the same; None when a key
    cannot be sorted or the codes would not fit.
    """
    if data.empty:
        return None
    if groups is None or groups.keys != tuple(keys):
        groups = _grouped(data, keys, known)
        if groups is None:
            return None
    at, dense, sizes = groups.at, groups.dense, groups.sizes
    rows = pd.Series(sizes.astype(np.int64, copy=False))
    if how == "count":
        columns = {"count": rows}
    else:
        # every category holds a row (the codes are dense), so grouping by all of them
        # (observed=False) is grouping by those observed, without pandas looking for which
        by = pd.CategoricalIndex(
            pd.Categorical.from_codes(dense, pd.RangeIndex(len(at)), validate=False)
        )
        values = pd.Series(data[fy].to_numpy(copy=False), copy=False)
        agg = values.groupby(by, sort=True, observed=False).agg(how)
        columns = {fy: agg.reset_index(drop=True), ROWS: rows}
    out: dict[str, Any] = {}
    for k, found in zip(keys[::-1], groups.found[::-1], strict=True):
        size = max(1, len(found))
        taken = found.take(at % size)
        # groupby infers a better dtype for object keys (strings → str); so do we
        out[k] = pd.Series(taken).infer_objects() if taken.dtype == object else taken
        at = at // size
    return pd.DataFrame({**{k: out[k] for k in keys}, **columns})


Codes = Mapping[str, tuple[Any, Any]]
"""Keys already factorized: column → (codes, sorted values), as ``sorted_codes`` gives."""


@dataclass(frozen=True)
class KeyGroups:
    """Rows grouped by several keys together (``key_groups``): each key's sorted values, the
    distinct combined codes in sorted order (``at``: the first key the most significant), each
    row's group among them (``dense``) and the rows of each (``sizes``).

    Made once where a line asks how its series cover its buckets (``facts.coverage_of_pairs``
    reads ``at``), then reduced over the same keys by ``reduce_by_one_key``: the rows are
    coded and counted once for both.
    """

    keys: tuple[str, ...]
    found: tuple[Any, ...]
    at: Any
    dense: Any
    sizes: Any


def key_groups(keys: Sequence[str], factorized: list[tuple[Any, Any]]) -> KeyGroups | None:
    """``KeyGroups`` of rows whose ``keys`` are already factorized (``sorted_codes``, one
    entry per key); None when no row is given or the codes would not fit.

    ``factorized`` is emptied once the keys' codes are combined, so a caller that hands its
    only copy over holds no key's codes while the rows are grouped.

    >>> t, c = (np.array([0, 0, 1]), ["08:00", "08:30"]), (np.array([1, 1, 0]), ["eu", "us"])
    >>> groups = key_groups(["t", "c"], [t, c])
    >>> groups.at.tolist(), groups.dense.tolist(), groups.sizes.tolist(), groups.found[1]
    ([1, 2], [0, 0, 1], [2, 1], ['eu', 'us'])
    """
    code = combined_codes(factorized) if len(factorized[0][0]) else None
    found = tuple(f for _, f in factorized)
    factorized.clear()  # each key's codes: done with
    if code is None:
        return None
    size = int(np.prod([max(1, len(f)) for f in found], dtype=np.int64))  # (< 2**62: it fit)
    at, dense, sizes = group_codes(code, size)  # the groups in order, each row's, their rows
    del code  # (a row's int64 is not held while pandas groups: millions of rows, 8 bytes each)
    return KeyGroups(tuple(keys), found, at, dense, sizes)


def _grouped(data: pd.DataFrame, keys: list[str], known: Codes | None) -> KeyGroups | None:
    """``key_groups`` of ``keys``, each coded from ``known`` (taken out of it when it is a
    ``dict``) or else sorted here; None when a key's values do not sort."""
    factorized: list[tuple[Any, Any]] = []
    for k in keys:
        # a dict handed over is emptied as its codes are taken, so none outlives its use
        got = known.pop(k, None) if isinstance(known, dict) else (known or {}).get(k)
        got = got or sorted_codes(data[k])
        if got is None:  # values that do not sort: let groupby decide
            return None
        factorized.append(got)
    return key_groups(keys, factorized)


def combined_codes(factorized: list[tuple[Any, Any]]) -> Any:
    """Several keys' codes as one int64 per row, the first key the most significant (so the
    combined codes sort as the keys do); None when they would not fit in 62 bits."""
    bound = 1
    for _, found in factorized:
        bound *= max(1, len(found))
    if bound >= 2**62:
        return None
    code: Any = None
    for codes, found in factorized:
        if code is None:
            code = codes.astype(np.int64)  # a copy: it is added to in place
        else:
            code *= max(1, len(found))
            code += codes
    return code


def sorted_codes(values: pd.Series) -> tuple[Any, Any] | None:
    """``pd.factorize`` in sorted order, missing last; None when the values do not sort."""
    text = _text_codes(values)
    if text is not None:
        return text
    try:
        codes, found = pd.factorize(values, sort=True, use_na_sentinel=False)
    except (TypeError, ValueError):
        return None
    return codes, found


def _text_codes(values: pd.Series) -> tuple[Any, Any] | None:
    """``sorted_codes`` of a column of text held by pyarrow, none of it missing: pyarrow's
    dictionary encoding (one hash per row, in C; ``chartkit.read.columnar.text_encoding``, which
    the profile's count of distinct values already made), then its few distinct values sorted
    as pandas sorts them and the codes renumbered. pandas' own ``factorize`` would encode again,
    then copy, widen and renumber the codes in more passes. None for any other column."""
    array = values.array
    if not isinstance(array, pd.arrays.ArrowStringArray):
        return None
    import pyarrow.compute as pc  # type: ignore[import-untyped]

    chunked = array.__arrow_array__()
    if chunked.null_count:
        return None
    encoded = text_encoding(chunked)  # made once per column: the profile counted from it
    order = pc.array_sort_indices(encoded.dictionary).to_numpy()
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    codes = np.take(compact_codes(rank, len(order)), encoded.indices.to_numpy(zero_copy_only=False))
    found = pd.Index(pd.array(encoded.dictionary.take(order), dtype=values.dtype))
    return codes, found


_NAT: Final = int(np.iinfo(np.int64).min)  # the integer numpy reads as NaT


_PER_SECOND: Final[Mapping[str, int]] = {"s": 1, "ms": 10**3, "us": 10**6, "ns": 10**9}


def bucket_codes(
    times: pd.Series,
    seconds: int,
    *,
    floor: bool = False,
    bounds: tuple[int, int] | None = None,
) -> tuple[Any, Any] | None:
    """``sorted_codes`` of naive dates floored to ``seconds``, by arithmetic rather than a hash:
    each date's bucket counted from the first. Every bucket in the span is a value, so codes
    may skip some; None when the dates are not such (zoned, missing, or off the buckets).

    With ``floor``, dates off the buckets are floored here, on their integer ticks, as
    ``times.dt.floor(f"{seconds}s")`` floors them (towards the past, from 1970-01-01), so
    the caller need not floor the column first. ``bounds``: the dates' ``time_bounds``, when
    the caller has them.
    """
    values = times.to_numpy()
    if values.dtype.kind != "M" or not len(values):
        return None
    unit, count = np.datetime_data(values.dtype)
    if unit not in _PER_SECOND or count != 1:
        return None
    ints, step = values.view(np.int64), seconds * _PER_SECOND[unit]
    lo, hi = bounds or (int(ints.min()), int(ints.max()))
    if lo == _NAT:  # NaT is the least integer: any NaT is the min (no test per value)
        return None
    if floor:
        lo = lo // step * step  # the first date's bucket
        if lo <= _NAT:  # before the first date numpy holds: pandas decides
            return None
    span = (hi - lo) // step + 1
    if span > 4 * len(values) + 1024:
        return None
    if floor:  # (the buckets counted from the first written straight in their compact type)
        codes = np.subtract(
            np.floor_divide(ints, step), lo // step,
            out=np.empty(len(ints), dtype=_compact_type(span)), casting="unsafe",
        )  # fmt: skip
    else:
        codes = ints - lo
        for at in range(0, len(codes), 1 << 20):  # off the buckets? (a block at a time: memory)
            if np.remainder(codes[at : at + (1 << 20)], step).any():
                return None
        np.floor_divide(codes, step, out=codes)
    found = pd.DatetimeIndex((lo + step * np.arange(span, dtype=np.int64)).view(values.dtype))
    return compact_codes(codes, span), found


def compact_codes(codes: Any, size: int) -> Any:
    """Codes below ``size`` in the smallest signed integer type that holds them (memory)."""
    dtype = _compact_type(size)
    return codes if dtype is np.int64 else codes.astype(dtype, copy=False)


def _compact_type(size: int) -> Any:
    """The smallest signed integer type holding every code below ``size`` (int8 to int32;
    int64 past them)."""
    for dtype in (np.int8, np.int16, np.int32):
        if size <= np.iinfo(dtype).max:
            return dtype
    return np.int64


def group_codes(code: Any, size: int | None = None) -> tuple[Any, Any, Any]:
    """The distinct codes in sorted order, each code's index among them, and how many rows
    hold each. ``size``: a bound the codes are below (their keys' sizes multiplied), when the
    caller knows it, so their max is not read first (``bincount`` reads it anyway)."""
    span = int(code.max()) + 1 if size is None else size
    if span > 4 * len(code) + 1024:  # sparse: a sort
        at, dense, sizes = np.unique(code, return_inverse=True, return_counts=True)
        return at, compact_codes(dense.reshape(-1), len(at)), sizes
    counts = np.bincount(code, minlength=span)
    present = counts > 0
    at = np.flatnonzero(present)
    held = int(at[-1]) + 1 if len(at) else 0  # the codes' max, plus one
    if len(at) == held:  # every code is held: each is its own index
        return at, compact_codes(code, held), counts[:held]
    return at, compact_codes(np.cumsum(present) - 1, len(at))[code], counts[at]


def distinct_codes(code: Any) -> int:
    """How many distinct codes there are (``len(group_codes(code)[0])``, without the inverse)."""
    span = int(code.max()) + 1
    if span > 4 * len(code) + 1024:
        return len(np.unique(code))
    return int(np.count_nonzero(np.bincount(code, minlength=span)))


def distinct_rows(
    data: pd.DataFrame, keys: list[str], given: Codes | None = None
) -> tuple[int, Codes]:
    """``len(data.drop_duplicates(keys))``, and the keys' codes for ``reduce_frame`` to reuse.

    From each key's codes where its dtype holds one kind of missing value (``drop_duplicates``
    keeps None and NaN apart in an object column, ``factorize`` does not): no codes there.
    ``given`` holds codes already made for some keys (``bucket_codes``, which may skip values).
    """
    known: dict[str, tuple[Any, Any]] = dict(given or {})
    for k in keys:
        if k in known:
            continue
        dtype = data[k].dtype
        factorized = (
            None
            if pd.api.types.is_object_dtype(dtype) or isinstance(dtype, pd.CategoricalDtype)
            else sorted_codes(data[k])
        )
        if factorized is None:
            return len(data.drop_duplicates(keys)), {}
        known[k] = (compact_codes(factorized[0], len(factorized[1])), factorized[1])
    if len(keys) == 1 and not given:  # one key: every value factorize found is held by a row
        return len(known[keys[0]][1]), known
    code = combined_codes([known[k] for k in keys])
    if code is None:
        return len(data.drop_duplicates(keys)), known
    return (distinct_codes(code) if len(code) else 0), known


def unit_codes(data: pd.DataFrame, fx: str, unit: str | None) -> Codes | None:
    """The codes of dates already floored to a minute, hour or day, counted by arithmetic
    rather than hashed; None for other units (or dates the arithmetic does not count)."""
    steps = UNIT_SECONDS.get(unit or "")
    buckets = bucket_codes(data[fx], steps) if steps else None
    return {fx: buckets} if buckets is not None else None


def floor_to_unit(times: pd.Series, unit: str) -> pd.Series:
    """Dates floored to the start of their ``unit`` (weeks start on Monday)."""
    floored: pd.Series = (
        times.dt.floor(_FLOORS[unit])
        if unit in _FLOORS
        else times.dt.to_period(_PERIODS[unit]).dt.start_time
    )
    return floored
