"""``check.offending_mask`` takes its verdicts per type, and gives the value-by-value answers.

The mask says which rows of a column a chart leaves out. It is worked out per exact type (one
``_classify`` per distinct type, the types coded in C by ``_speedups.type_codes`` with NaN
floats apart, or listed in Python where the extension is not used; a date column's strings
parsed once per distinct string); these tests hold both ways to the reference they replaced —
``_classify`` then ``_look``, one value at a time — and to ``check_columns``' own counts on
the same values, on generated columns of every value kind.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_properties import _COMMON, CHECKS, scalars

import chartkit.read.columnar as columnar
from chartkit import check_columns
from chartkit.check.judge import (
    _BAD,
    _LOOK,
    _NOTHING,
    ABSENCE_TYPE_NAMES,
    _classify,
    _look,
    offending_mask,
    value_type_name,
)
from chartkit.columns import COLUMN_TYPES, ColumnDeclaration
from chartkit.read.columnar import ABSENT


def reference(values: list[Any], decl: ColumnDeclaration) -> list[bool]:
    """The mask value by value: what the type says, then a look where the type does not say."""
    out = []
    for value in values:
        verdict = _classify(decl.type, type(value))
        if verdict == _LOOK:
            verdict = _look(decl.type, value)
        out.append(verdict == _BAD or (verdict == _NOTHING and not decl.nullable))
    return out


def masks(series: pd.Series, decl: ColumnDeclaration) -> list[list[bool]]:
    """``offending_mask`` with the compiled type codes (when built) and without them."""
    got = [offending_mask(series, decl).tolist()]
    speedups, columnar.SPEEDUPS = columnar.SPEEDUPS, None
    try:
        got.append(offending_mask(series, decl).tolist())
    finally:
        columnar.SPEEDUPS = speedups
    return got


class Text(str):
    """A str subclass: judged as a string, but not through the exact-type shortcuts."""


class Real(float):
    """A float subclass: a number (NaN if it is one), not through the exact-type shortcuts."""


NAN = float("nan")
MASK_EDGES = st.sampled_from(
    [
        NAN, -NAN, -0.0, 0.0, float("inf"), float("-inf"), 1e308, 5e-324,
        np.float64("nan"), np.float32("nan"), np.float16("nan"), np.float32(1.5),
        np.float16(-0.0), np.float64("inf"), np.longdouble("nan"), np.longdouble(2),
        np.int64(3), np.uint64(2**64 - 1), np.int8(-1), np.bool_(False), np.bool_(True),
        np.datetime64("NaT"), np.datetime64("2024-01-02"), np.datetime64(1, "ns"),
        np.timedelta64("NaT"), np.timedelta64(3, "s"),
        pd.NA, pd.NaT, None, ABSENT, True, False, 0, 1, -1, 2**63, -(2**63) - 1, 10**400,
        Decimal("NaN"), Decimal("sNaN"), Decimal("-0"), Decimal("1e999"), Decimal("Infinity"),
        "", "0", "40.1", "n/a", "2024-01-02", "2024-01-02T03:04:05+02:00", "2024-13-01",
        "2024-01-02T03:04:05.123456789Z", "20240102", "2024-W01-1", " 2024-01-02", "\ud800",
        Text("2024-01-02"), Text("nope"), Real(NAN), Real(2.5),
        dt.date(2024, 1, 2), dt.datetime(2024, 1, 2, 3), dt.datetime(2024, 1, 2, tzinfo=dt.UTC),
        pd.Timestamp("2024-01-02"), dt.timedelta(1), 1 + 2j, b"x", [1], {"a": 1}, (),
    ]
)  # fmt: skip
anything = st.one_of(MASK_EDGES, scalars)
TYPICAL = {
    "number": st.floats(allow_nan=True, allow_infinity=True) | st.integers(-(2**70), 2**70),
    "string": st.text(max_size=6),
    "date": st.sampled_from(["2024-01-02", "2024-01-03T04:05:06", "2024-02-01T00:00:00Z"])
    | st.dates().map(str)
    | st.text(max_size=12),
    "boolean": st.booleans(),
}


@st.composite
def columns(draw: st.DrawFn) -> list[Any]:
    """A column of one typical kind with strays of every kind, or of anything at all."""
    style = draw(st.sampled_from(["anything", *TYPICAL]))
    cell = anything if style == "anything" else st.one_of(*[TYPICAL[style]] * 4, anything)
    return draw(st.lists(cell, min_size=1, max_size=30))


def _decl(declared: str, nullable: bool) -> ColumnDeclaration:
    return ColumnDeclaration(declared, nullable=nullable)  # type: ignore[arg-type]


@settings(max_examples=CHECKS, **_COMMON)
@given(columns(), st.sampled_from(COLUMN_TYPES), st.booleans())
def test_the_mask_is_the_value_by_value_verdict(
    values: list[Any], declared: str, nullable: bool
) -> None:
    decl = _decl(declared, nullable)
    got = offending_mask(pd.Series(values, dtype=object), decl)
    assert got.dtype == np.bool_ and got.shape == (len(values),)
    assert masks(pd.Series(values, dtype=object), decl) == [reference(values, decl)] * 2


@settings(max_examples=CHECKS, **_COMMON)
@given(columns(), st.sampled_from(COLUMN_TYPES), st.booleans())
def test_the_mask_counts_what_the_check_counts(
    values: list[Any], declared: str, nullable: bool
) -> None:
    """The rows left out are the rows the check counts, the first of them its sample's row."""
    decl = _decl(declared, nullable)
    rows = [{} if v is ABSENT else {"c": v} for v in values]
    mask = offending_mask(pd.Series(values, dtype=object), decl)
    found = check_columns(rows, {"c": {"type": declared, "nullable": nullable}})
    assert int(mask.sum()) == (found[0].affected if found else 0)
    if found and found[0].kind == "column-type-mismatch":
        first = values[int(mask.argmax())]
        assert found[0].sample_type == value_type_name(first)
        if found[0].sample_type not in ABSENCE_TYPE_NAMES:
            assert found[0].sample is first


@pytest.mark.parametrize("declared", COLUMN_TYPES)
@pytest.mark.parametrize("nullable", [False, True])
@pytest.mark.parametrize(
    "series",
    [
        pd.Series([1.5, np.nan, -0.0, np.inf]),
        pd.Series([1, None, 3], dtype="Int64"),
        pd.Series([True, False]),
        pd.Series(["2024-01-02", None, "x", "2024-01-02T03:04:05Z"], dtype="str"),
        pd.Series(["2024-01-02", None, "x"], dtype="category"),
        pd.Series(pd.to_datetime(["2024-01-02", None])),
        pd.Series(pd.to_datetime(["2024-01-02", None]).tz_localize("UTC")),
        pd.Series([dt.timedelta(1), None]),
    ],
    ids=["float", "Int64", "bool", "str", "category", "datetime", "datetime-utc", "td"],
)
def test_typed_columns_agree_with_their_values_read_one_by_one(
    series: pd.Series, declared: str, nullable: bool
) -> None:
    decl = _decl(declared, nullable)
    values = series.astype(object).tolist()
    assert masks(series, decl) == [reference(values, decl)] * 2


@pytest.mark.parametrize("nullable", [False, True])
@pytest.mark.parametrize("distinct", [3, 5_000])
def test_a_long_date_column_of_strings_is_judged_per_distinct_string(
    nullable: bool, distinct: int
) -> None:
    """Thousands of strings, few or nearly all different (both ways ``_not_iso`` takes), with
    invalid ones, floats and None among them."""
    base = dt.datetime(2024, 1, 1)
    values: list[Any] = [
        (base + dt.timedelta(minutes=i % distinct)).isoformat() for i in range(6_000)
    ]
    for at, stray in [(17, "2024-02-30"), (900, ""), (901, None), (2_500, NAN), (5_999, 3.5)]:
        values[at] = stray
    decl = ColumnDeclaration("date", nullable=nullable)
    got = offending_mask(pd.Series(values, dtype=object), decl)
    assert masks(pd.Series(values, dtype=object), decl) == [reference(values, decl)] * 2
    assert set(np.flatnonzero(got)) == {17, 900, 5_999} | (set() if nullable else {901, 2_500})


def test_a_number_column_with_a_few_quoted_values_leaves_out_just_those() -> None:
    """The spec's own case (a ``''`` in a number column), many rows long."""
    values: list[Any] = np.linspace(0, 1, 10_000).tolist()
    for at in (0, 4_321, 9_999):
        values[at] = ""
    values[50] = NAN
    for nullable in (False, True):
        got = offending_mask(
            pd.Series(values, dtype=object), ColumnDeclaration("number", nullable=nullable)
        )
        assert set(np.flatnonzero(got)) == {0, 4_321, 9_999} | (set() if nullable else {50})


@pytest.mark.parametrize("declared", COLUMN_TYPES)
def test_a_column_of_hundreds_of_types_is_judged_too(declared: str) -> None:
    """More distinct types than the compiled codes hold (255): listed in Python instead."""
    kinds = [type(f"Kind{i}", (float if i % 2 else str,), {}) for i in range(300)]
    values: list[Any] = [kind(i) for i, kind in enumerate(kinds)]
    values += [NAN, "2024-01-02", None, 1.5, 7]
    for nullable in (False, True):
        decl = _decl(declared, nullable)
        assert masks(pd.Series(values, dtype=object), decl) == [reference(values, decl)] * 2


def _said(found: tuple[Any, ...]) -> list[tuple[Any, ...]]:
    return [
        (v.kind, v.sample_type, v.affected, v.total, v.absent, v.offending_types, id(v.sample))
        for v in found
    ]


@settings(max_examples=CHECKS, **_COMMON)
@given(columns(), st.sampled_from(COLUMN_TYPES), st.booleans())
def test_an_object_column_is_checked_as_the_same_values_in_rows_are(
    values: list[Any], declared: str, nullable: bool
) -> None:
    """The frame's object column is judged from its values' type codes (C, or Python without
    the extension); the rows mostly from the reader's census: the same violation."""
    rows = [{} if v is ABSENT else {"c": v} for v in values]
    frame = pd.DataFrame({"c": pd.Series(values, dtype=object)})
    decl = {"c": {"type": declared, "nullable": nullable}}
    expected = _said(check_columns(rows, decl))
    assert _said(check_columns(frame, decl)) == expected
    speedups, columnar.SPEEDUPS = columnar.SPEEDUPS, None
    try:
        assert _said(check_columns(frame, decl)) == expected
        assert _said(check_columns(rows, decl)) == expected
    finally:
        columnar.SPEEDUPS = speedups
