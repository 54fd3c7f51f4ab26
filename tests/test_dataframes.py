"""A dataframe result gives the same violations as the equivalent list of dicts.

Checked by dtype where the dtype settles the question (a float64 column declared number only
needs its NaNs counted) and value by value for object columns — and either way it must agree
with the rows. The equivalence is tested on generated data (seeded, so a failure reproduces).
"""

from __future__ import annotations

import datetime as dt
import math
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest

from chartkit import ColumnViolation, check_columns

TYPES = ("number", "string", "boolean", "date")
DECLARATIONS = [{"type": t, "nullable": n} for t in TYPES for n in (False, True)]


def _pick(rng: random.Random, values: list[Any], gaps: list[Any], n: int) -> list[Any]:
    """``n`` values, a few of them gaps, sometimes none, sometimes all."""
    share = rng.choice([0.0, 0.0, 0.05, 0.3, 1.0])
    return [rng.choice(gaps) if rng.random() < share else rng.choice(values) for _ in range(n)]


COLUMN_MAKERS: dict[str, Callable[[random.Random, int], tuple[list[Any], str | None]]] = {
    "object": lambda rng, n: (
        _pick(
            rng,
            rng.sample(
                [0, 3, 2.5, "", "1240", "2024-01-05", True, dt.date(2024, 1, 1), [1], "x"],
                rng.randint(1, 4),
            ),
            [None, float("nan")],
            n,
        ),
        "object",
    ),
    "float with NaN": lambda rng, n: (
        _pick(rng, [0.0, 1.5, -2.25, 1e9], [float("nan")], n),
        "float64",
    ),
    "int64": lambda rng, n: ([rng.randrange(-5, 300) for _ in range(n)], "int64"),
    "nullable Int64": lambda rng, n: (_pick(rng, [0, 1, 256], [pd.NA, None], n), "Int64"),
    "pandas 3 str": lambda rng, n: (
        _pick(rng, ["vdi-a", "", "1240", "2024-03-01", "2024-03-01T10:00"], [None], n),
        "str",
    ),
    "datetime64": lambda rng, n: (
        _pick(rng, [pd.Timestamp("2024-01-01"), pd.Timestamp("2024-06-30 12:00")], [pd.NaT], n),
        "datetime64[ns]",
    ),
    "bool": lambda rng, n: ([rng.random() < 0.5 for _ in range(n)], "bool"),
    "category": lambda rng, n: (_pick(rng, ["a", "b", "2024-01-01"], [None], n), "category"),
}


def generated(seed: int) -> tuple[pd.DataFrame, list[dict[str, Any]]]:
    """A typed frame with one column of each kind, and the rows it was built from."""
    rng = random.Random(seed)
    n = rng.choice([1, 2, 5, 50, 1100])
    columns = {name: make(rng, n) for name, make in COLUMN_MAKERS.items()}
    frame = pd.DataFrame(
        {name: pd.Series(values, dtype=dtype) for name, (values, dtype) in columns.items()}
    )
    rows = [{name: values[i] for name, (values, _) in columns.items()} for i in range(n)]
    return frame, rows


def same_sample(a: Any, b: Any) -> bool:
    if a is None or b is None:
        return a is b
    if isinstance(a, float) and math.isnan(a):
        return isinstance(b, float) and math.isnan(b)
    return bool(a == b)


def assert_same(
    frame_found: tuple[ColumnViolation, ...], rows_found: tuple[ColumnViolation, ...]
) -> None:
    def without_sample(v: ColumnViolation) -> tuple[Any, ...]:
        return (v.kind, v.column, v.declared, v.nullable, v.sample_type, v.affected, v.total,
                v.absent, v.offending_types)  # fmt: skip

    assert [without_sample(v) for v in frame_found] == [without_sample(v) for v in rows_found]
    for f, r in zip(frame_found, rows_found, strict=True):
        assert same_sample(f.sample, r.sample), (f.column, f.sample, r.sample)
        # the most frequent offending values, counted on either path: the same, in one order
        assert [(o.value_type, o.count) for o in f.offenders] == [
            (o.value_type, o.count) for o in r.offenders
        ], (f.column, f.offenders, r.offenders)
        for fo, ro in zip(f.offenders, r.offenders, strict=True):
            assert same_sample(fo.value, ro.value), (f.column, fo, ro)


def test_the_generated_frames_hold_the_dtypes_they_are_meant_to() -> None:
    frame, _ = generated(0)
    assert {name: str(frame[name].dtype) for name in frame.columns} == {
        "object": "object",
        "float with NaN": "float64",
        "int64": "int64",
        "nullable Int64": "Int64",
        "pandas 3 str": "str",
        "datetime64": "datetime64[ns]",
        "bool": "bool",
        "category": "category",
    }


@pytest.mark.parametrize("seed", range(40))
def test_a_frame_gives_the_same_violations_as_its_rows(seed: int) -> None:
    frame, rows = generated(seed)
    for column in frame.columns:
        for decl in DECLARATIONS:
            declared = {column: decl}
            assert_same(check_columns(frame, declared), check_columns(rows, declared))


@pytest.mark.parametrize("seed", range(40, 55))
def test_a_frame_gives_the_same_violations_as_its_records(seed: int) -> None:
    frame, _ = generated(seed)
    records = frame.to_dict("records")
    declared = {str(c): random.Random(seed).choice(DECLARATIONS) for c in frame.columns}
    assert_same(check_columns(frame, declared), check_columns(records, declared))


@pytest.mark.parametrize("seed", range(55, 70))
def test_rows_and_the_frame_pandas_makes_of_them_agree(seed: int) -> None:
    _, rows = generated(seed)
    frame = pd.DataFrame(rows)  # pandas infers the dtypes itself
    rng = random.Random(seed)
    declared = {c: rng.choice(DECLARATIONS) for c in rows[0]}
    assert_same(check_columns(frame, declared), check_columns(rows, declared))


def test_a_float64_column_declared_number_only_has_its_nans_counted() -> None:
    frame = pd.DataFrame({"capacity_gb": [0.0, float("nan"), 8.0, float("nan")]})
    (found,) = check_columns(frame, {"capacity_gb": "number"})
    assert (found.affected, found.absent, found.sample, found.sample_type) == (2, 2, None, "null")
    assert check_columns(frame, {"capacity_gb": {"type": "number", "nullable": True}}) == ()


def test_an_object_column_is_checked_value_by_value() -> None:
    frame = pd.DataFrame({"logical_unit_number": ["", 3, 0, ""]}, dtype=object)
    (found,) = check_columns(frame, {"logical_unit_number": "number"})
    assert (found.affected, found.sample, found.sample_type) == (2, "", "string")


def test_a_str_column_declared_number_is_a_mismatch_on_every_row() -> None:
    frame = pd.DataFrame({"logical_unit_number": ["1240", "7"]})
    assert str(frame["logical_unit_number"].dtype) == "str"
    (found,) = check_columns(frame, {"logical_unit_number": "number"})
    assert (found.affected, found.sample, found.sample_type) == (2, "1240", "string")


def test_a_frame_without_the_declared_column_is_a_missing_column() -> None:
    (found,) = check_columns(pd.DataFrame({"host_group": ["a"]}), {"lun": "number"})
    assert (found.kind, found.affected, found.total) == ("missing-column", 1, 1)


def test_nullable_Int64_holds_numbers_and_nothing() -> None:
    frame = pd.DataFrame({"lun": pd.array([0, None, 3], dtype="Int64")})
    (found,) = check_columns(frame, {"lun": "number"})
    assert (found.affected, found.absent, found.sample_type) == (1, 1, "null")
    assert check_columns(frame, {"lun": {"type": "number", "nullable": True}}) == ()


def test_datetime64_is_a_date_and_nat_is_nothing() -> None:
    frame = pd.DataFrame({"seen": pd.to_datetime(["2024-01-01", None])})
    (found,) = check_columns(frame, {"seen": "date"})
    assert (found.affected, found.absent) == (1, 1)
    (wrong,) = check_columns(frame, {"seen": "number"})
    assert (wrong.affected, wrong.sample, wrong.sample_type) == (
        2,
        pd.Timestamp("2024-01-01"),
        "date",
    )


# --- polars and pyarrow, read through narwhals ---------------------------------------------


def polars_frame(seed: int) -> pl.DataFrame:
    rng = random.Random(seed)
    n = rng.choice([1, 3, 40])

    def gaps(values: list[Any]) -> list[Any]:
        return [None if rng.random() < 0.2 else rng.choice(values) for _ in range(n)]

    return pl.DataFrame(
        {
            "lun": pl.Series(gaps([0, 1, 255]), dtype=pl.Int64),
            "capacity_gb": pl.Series(gaps([0.0, 8.5, float("nan")]), dtype=pl.Float64),
            "host_group": pl.Series(gaps(["vdi-a", "", "1240", "2024-01-01"]), dtype=pl.Utf8),
            "mapped": pl.Series(gaps([True, False]), dtype=pl.Boolean),
            "seen_at": pl.Series(gaps([dt.datetime(2024, 1, 1, 8)]), dtype=pl.Datetime("us")),
        }
    )


@pytest.mark.parametrize("seed", range(12))
def test_a_polars_frame_gives_the_same_violations_as_its_rows(seed: int) -> None:
    frame = polars_frame(seed)
    for column in frame.columns:
        for decl in DECLARATIONS:
            declared = {column: decl}
            assert_same(check_columns(frame, declared), check_columns(frame.to_dicts(), declared))


@pytest.mark.parametrize("seed", range(12))
def test_a_pyarrow_table_gives_the_same_violations_as_its_rows(seed: int) -> None:
    table = polars_frame(seed).to_arrow()
    assert isinstance(table, pa.Table)
    for column in table.column_names:
        for decl in DECLARATIONS:
            declared = {column: decl}
            assert_same(check_columns(table, declared), check_columns(table.to_pylist(), declared))


def test_the_spec_example_as_a_polars_frame() -> None:
    frame = pl.DataFrame({"logical_unit_number": ["", "3"], "host_group": ["vdi-a", "vdi-a"]})
    (found,) = check_columns(frame, {"logical_unit_number": "number", "host_group": "string"})
    assert (found.column, found.affected, found.sample, found.sample_type) == (
        "logical_unit_number",
        2,
        "",
        "string",
    )


def test_numpy_datetimes_in_an_object_column_are_dates() -> None:
    frame = pd.DataFrame(
        {"seen": pd.Series([np.datetime64("2024-01-01"), np.datetime64("NaT")], dtype=object)}
    )
    (found,) = check_columns(frame, {"seen": "date"})
    assert (found.affected, found.absent, found.sample_type) == (1, 1, "null")


# --- every polars dtype, checked in place (chartkit.engines) --------------------------------


def every_dtype() -> pl.DataFrame:
    from decimal import Decimal

    return pl.DataFrame(
        {
            "u8": pl.Series([1, None, 255], dtype=pl.UInt8),
            "f32": pl.Series([1.5, float("nan"), None], dtype=pl.Float32),
            "dec": pl.Series([Decimal("1.5"), None, Decimal("2")], dtype=pl.Decimal(10, 2)),
            "cat": pl.Series(["a", None, "2024-01-01"], dtype=pl.Categorical),
            "day": pl.Series([dt.date(2024, 1, 1), None, dt.date(2024, 1, 2)], dtype=pl.Date),
            "aware": pl.Series(
                [dt.datetime(2024, 1, 1, tzinfo=dt.UTC), None, None],
                dtype=pl.Datetime("us", "UTC"),
            ),
            "took": pl.Series([dt.timedelta(seconds=1), None, None], dtype=pl.Duration("us")),
            "clock": pl.Series([dt.time(8), None, dt.time(9)], dtype=pl.Time),
            "raw": pl.Series([b"x", None, b"y"], dtype=pl.Binary),
            "items": pl.Series([[1], None, [2, 3]], dtype=pl.List(pl.Int64)),
            "obj": pl.Series([{"a": 1}, None, {"a": 2}], dtype=pl.Struct({"a": pl.Int64})),
            "none": pl.Series([None, None, None], dtype=pl.Null),
        }
    )


@pytest.mark.parametrize("column", every_dtype().columns)
def test_every_polars_dtype_is_judged_as_its_rows_are(column: str) -> None:
    frame = every_dtype()
    rows = frame.to_dicts()
    for native in (frame, frame.lazy(), frame.to_arrow()):
        for decl in DECLARATIONS:
            declared = {column: decl}
            assert_same(check_columns(native, declared), check_columns(rows, declared))
