"""One verdict table: every path of the check agrees with ``chartkit.check.verdicts`` on generated
values.

The table says what a value of each type means in a column of each declared type (ok, absent,
offends); ``value_type`` names a value's row. The reference here is the table read one value at
a time. The paths held to it: ``offending_mask`` (per exact type, with the compiled type codes
and without), ``check_columns`` on a list of dicts (judged from the C reader's census, and in
pure Python from the values), on typed pandas frames (by dtype), and on engine frames (polars,
pyarrow, DuckDB: by the column's dtype, in the engine); and the C reader's census classes,
whose value types (``CENSUS_VALUE_TYPES``) must be what ``value_type`` says of each value.
"""

from __future__ import annotations

import datetime as dt
import itertools
from typing import Any

import duckdb
import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_offending_mask import anything, columns
from test_properties import _COMMON, CHECKS

import chartkit.read.columnar as columnar
from chartkit import check_columns
from chartkit._safe import sample_text
from chartkit.check.judge import offending_mask
from chartkit.check.verdicts import (
    ABSENCE_TYPE_NAMES,
    VALUE_TYPES,
    VERDICTS,
    offends,
    reported,
    string_verdict,
    value_type,
    verdict,
)
from chartkit.columns import COLUMN_TYPES, ColumnDeclaration
from chartkit.read.columnar import ABSENT, CENSUS_CLASSES, CENSUS_VALUE_TYPES
from chartkit.violations import OffendingValue, most_frequent

declarations = st.builds(
    lambda t, n: ColumnDeclaration(t, nullable=n), st.sampled_from(COLUMN_TYPES), st.booleans()
)


def expected(values: list[Any], decl: ColumnDeclaration) -> list[bool]:
    """The table read one value at a time: which values offend."""
    return [offends(verdict(decl.type, value_type(v)), nullable=decl.nullable) for v in values]


def assert_the_violation_is_the_tables(
    found: tuple[Any, ...], values: list[Any], decl: ColumnDeclaration
) -> None:
    """``check_columns``' answer for one column ``c`` is what the table says of its values."""
    mask = expected(values, decl)
    offenders = [v for v, bad in zip(values, mask, strict=True) if bad]
    if not offenders:
        assert found == ()
        return
    (v,) = found
    if all(x is ABSENT for x in values):
        assert (v.kind, v.affected) == ("missing-column", len(values))
        return
    kinds = [reported(value_type(x)) for x in offenders]
    assert v.kind == "column-type-mismatch"
    assert (v.affected, v.total) == (len(offenders), len(values))
    assert v.absent == sum(k in ABSENCE_TYPE_NAMES for k in kinds)
    assert v.sample_type == kinds[0]
    assert v.offending_types == tuple(dict.fromkeys(kinds))[:4]
    assert v.offenders == most_frequent(tally(offenders))
    assert v.unlisted == v.affected - sum(o.count for o in v.offenders) >= 0


def tally(offenders: list[Any]) -> list[OffendingValue]:
    """The offending values counted one at a time: every spelling of nothing is one entry,
    equal values of one type name one entry (unhashable ones told apart by their text)."""
    counts: dict[tuple[str, Any], list[Any]] = {}
    for x in offenders:
        kind = reported(value_type(x))
        if kind in ABSENCE_TYPE_NAMES:
            key, x = None, None
        else:
            try:
                hash(x)
            except TypeError:
                key = sample_text(x)
            else:
                key = x
        counts.setdefault((kind, key), [x, kind, 0])[2] += 1
    return [OffendingValue(x, kind, n) for x, kind, n in counts.values()]


def without_speedups() -> Any:
    class Off:
        def __enter__(self) -> None:
            self.saved, columnar.SPEEDUPS = columnar.SPEEDUPS, None

        def __exit__(self, *_: object) -> None:
            columnar.SPEEDUPS = self.saved

    return Off()


def test_the_table_holds_every_declared_type_and_value_type() -> None:
    """Each declared type takes its own values; a date string is a string too; nothing is an
    absence everywhere; any other type offends every column."""
    assert set(VERDICTS) == set(itertools.product(COLUMN_TYPES, VALUE_TYPES))
    for declared in COLUMN_TYPES:
        ok = {t for t in VALUE_TYPES if verdict(declared, t) == "ok"}
        assert ok == ({declared, "date string"} if declared in ("string", "date") else {declared})
        assert {t for t in VALUE_TYPES if verdict(declared, t) == "absent"} == {"null", "absent"}
        for other in ("object", "array", "timedelta", "complex", "bytes", "time"):
            assert verdict(declared, other) == "offends"
    assert ABSENCE_TYPE_NAMES == {"null", "absent"}
    assert [string_verdict(d) for d in COLUMN_TYPES] == ["offends", "ok", "offends", None]


@settings(max_examples=CHECKS // 2, **_COMMON)
@given(values=columns(), decl=declarations)
def test_offending_mask_and_the_check_of_rows_agree_with_the_table(
    values: list[Any], decl: ColumnDeclaration
) -> None:
    """Per exact type (C type codes, or Python), from the C census, and from the values."""
    mask = expected(values, decl)
    present = [v for v in values if v is not ABSENT]
    series = pd.Series(present, dtype=object)
    want = [m for v, m in zip(values, mask, strict=True) if v is not ABSENT]
    assert offending_mask(series, decl).tolist() == want
    rows = [{} if v is ABSENT else {"c": v} for v in values]
    declared = {"c": decl.to_wire()}
    assert_the_violation_is_the_tables(check_columns(rows, declared), values, decl)
    with without_speedups():
        assert offending_mask(series, decl).tolist() == want
        assert_the_violation_is_the_tables(check_columns(rows, declared), values, decl)


# --- typed frames -------------------------------------------------------------------------

_NAT = np.datetime64("NaT")
_TYPED = {
    "int64": (st.integers(-(2**40), 2**40), "int64"),
    "float64": (st.floats(allow_nan=True) | st.none(), "float64"),
    "bool": (st.booleans(), "bool"),
    "datetime64": (
        st.datetimes(dt.datetime(1990, 1, 1), dt.datetime(2100, 1, 1)) | st.none(),
        "datetime64[ns]",
    ),
    "str": (
        st.sampled_from(["2024-01-02", "n/a", "", "2024-01-02T03:04Z"])
        | st.text(max_size=4)
        | st.none(),
        "str",
    ),
    "timedelta64": (
        st.integers(0, 10**6).map(lambda s: dt.timedelta(seconds=s)) | st.none(),
        "timedelta64[ns]",
    ),
    "complex": (st.complex_numbers(allow_nan=False, allow_infinity=False), "complex128"),
}


@st.composite
def typed_series(draw: st.DrawFn) -> pd.Series:
    values, dtype = _TYPED[draw(st.sampled_from(sorted(_TYPED)))]
    return pd.Series(draw(st.lists(values, min_size=1, max_size=12)), dtype=dtype)


@settings(max_examples=CHECKS // 2, **_COMMON)
@given(series=typed_series(), decl=declarations)
def test_a_typed_frame_is_judged_by_dtype_as_the_table_says(
    series: pd.Series, decl: ColumnDeclaration
) -> None:
    """The dtype shortcut gives the verdicts the table gives each value the frame holds."""
    values = series.astype(object).tolist()
    assert offending_mask(series, decl).tolist() == expected(values, decl)
    found = check_columns(pd.DataFrame({"c": series}), {"c": decl.to_wire()})
    assert_the_violation_is_the_tables(found, values, decl)


_ENGINE_VALUES = {
    "int": st.integers(-(2**40), 2**40) | st.none(),
    "float": st.floats(allow_nan=True, allow_infinity=False) | st.none(),
    "str": st.sampled_from(["2024-01-02", "n/a", "", "2024-01-02 03:04:05"]) | st.none(),
    "bool": st.booleans() | st.none(),
    "date": st.datetimes(dt.datetime(1990, 1, 1), dt.datetime(2100, 1, 1)) | st.none(),
}
_ARROW = {
    "int": pa.int64(),
    "float": pa.float64(),
    "str": pa.string(),
    "bool": pa.bool_(),
    "date": pa.timestamp("us"),
}


@settings(max_examples=CHECKS // 5, **_COMMON)
@given(data=st.data(), decl=declarations)
def test_each_engine_judges_a_column_by_its_dtype_as_the_table_says(
    data: st.DataObject, decl: ColumnDeclaration
) -> None:
    """polars, pyarrow and DuckDB: the count the engine makes is the table's on the values."""
    kind = data.draw(st.sampled_from(sorted(_ENGINE_VALUES)))
    values = data.draw(st.lists(_ENGINE_VALUES[kind], min_size=1, max_size=10))
    table = pa.table({"c": pa.array(values, _ARROW[kind])})
    held = table.column("c").to_pylist()  # what the engine holds: NaN stays NaN, None null
    declared = {"c": decl.to_wire()}
    for native in (
        pl.from_arrow(table),
        pl.from_arrow(table).lazy(),
        table,
        duckdb.from_arrow(table),
    ):
        assert_the_violation_is_the_tables(check_columns(native, declared), held, decl)


# --- the compiled reader ------------------------------------------------------------------


@settings(max_examples=CHECKS // 4, **_COMMON)
@given(values=st.lists(anything, min_size=1, max_size=20))
def test_the_census_classes_are_the_tables_value_types(values: list[Any]) -> None:
    """Each value the C reader counts in a class has the value type ``CENSUS_VALUE_TYPES``
    gives the class (a str's form, iso or not_iso, as ``value_type`` tells it)."""
    if columnar.SPEEDUPS is None:
        pytest.skip("chartkit._speedups is not built")
    rows = [{} if v is ABSENT else {"c": v} for v in values]
    for i, v in enumerate(values):
        (read,) = columnar.read_census(rows[i : i + 1], ["c"])
        counted = [c for c, n in zip(CENSUS_CLASSES, read.census.counts, strict=True) if n]
        if "other" in counted:  # judged in Python from the value: not an exact census type
            assert counted == ["other"] and type(v) not in (int, float, str, bool, type(None))
            continue
        if "str" in counted:
            assert type(v) is str and counted[0] == "str" and len(counted) == 2
            assert CENSUS_VALUE_TYPES[counted[1]] == value_type(v)
            assert reported(CENSUS_VALUE_TYPES["str"]) == reported(value_type(v))
            continue
        (cls,) = counted
        assert CENSUS_VALUE_TYPES[cls] == value_type(v), (cls, v)
