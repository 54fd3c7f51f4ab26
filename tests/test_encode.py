"""encode.py: the declared → Vega-Lite table, Encoding's description, column profiles."""

from __future__ import annotations

import datetime as dt

import pandas as pd
import pytest

from chartkit import COLUMN_TYPES, VEGALITE_TYPES, ColumnDeclaration, Encoding, check_columns
from chartkit.encode import as_numbers, as_wall_clock, numeric_strings_only, profile_columns


def test_every_declared_type_has_exactly_one_vegalite_type() -> None:
    assert sorted(VEGALITE_TYPES) == sorted(COLUMN_TYPES)


@pytest.mark.parametrize(
    ("encoding", "line"),
    [
        (Encoding("lun", "quantitative", "declared", declared="number"),
         "lun: declared number → quantitative"),
        (Encoding("lun", "quantitative", "declared", aggregate="mean", declared="number"),
         "mean of lun: declared number → quantitative"),
        (Encoding("v", "quantitative", "declared", bin=True, declared="number"),
         "v (binned): declared number → quantitative"),
        (Encoding("region", "nominal", "inferred"), "region: inferred nominal — not declared"),
        (Encoding("v", "quantitative", "declared", aggregate="count", declared="number"),
         "rows counted per v value → quantitative"),
    ],
)  # fmt: skip
def test_an_encoding_says_where_its_type_came_from(encoding: Encoding, line: str) -> None:
    assert encoding.describe() == line


def test_profiles_follow_the_declaration_and_infer_only_the_rest() -> None:
    frame = pd.DataFrame({"code": ["10", "9"], "n": [1, 2], "t": pd.to_datetime(["2024", "2025"])})
    profiles = profile_columns(frame, {"code": ColumnDeclaration("string")}, ())
    assert [(p.name, p.type, p.source) for p in profiles.values()] == [
        ("code", "nominal", "declared"),
        ("n", "quantitative", "inferred"),
        ("t", "temporal", "inferred"),
    ]


def test_a_declared_column_missing_from_the_frame_is_profiled_as_unusable() -> None:
    rows = [{"a": 1}]
    decl = {"a": ColumnDeclaration("number"), "b": ColumnDeclaration("date")}
    profiles = profile_columns(pd.DataFrame(rows), decl, check_columns(rows, decl))
    assert not profiles["b"].present and not profiles["b"].usable
    assert profiles["b"].violation is not None
    assert profiles["b"].violation.kind == "missing-column"


def test_an_id_like_column_is_nearly_all_distinct_over_fifty_rows() -> None:
    frame = pd.DataFrame({"id": [f"h{i}" for i in range(51)], "g": ["a", "b", "c"] * 17})
    profiles = profile_columns(frame, {"id": ColumnDeclaration("string")}, ())
    assert profiles["id"].id_like and not profiles["g"].id_like
    assert not profile_columns(frame.head(50), None, ())["id"].id_like  # 50 rows: not over 50


def test_wall_clock_shows_aware_times_in_utc_and_naive_ones_as_given() -> None:
    values = pd.Series(
        ["2024-05-13T02:00:00+02:00", "2024-05-13T01:00:00", dt.datetime(2024, 5, 13, 3, 0)],
        dtype=object,
    )
    assert as_wall_clock(values).dt.strftime("%H:%M").tolist() == ["00:00", "01:00", "03:00"]


def test_numbers_are_read_never_coerced_from_text() -> None:
    assert as_numbers(pd.Series([1, None, 2.5], dtype=object)).tolist()[::2] == [1.0, 2.5]
    quoted = pd.Series(["1240", "3.7", " -1e3 "])
    assert numeric_strings_only(quoted, (quoted == quoted).to_numpy())
    assert not numeric_strings_only(pd.Series(["n/a"]), pd.Series([True]).to_numpy())


def test_several_measures_describe_themselves_and_the_series_that_tells_them_apart() -> None:
    from chartkit.encode import Encoding

    y = Encoding("p50", "quantitative", "declared", aggregate="mean", field="value",
                 declared="number", measures=("p50", "p95"))  # fmt: skip
    color = Encoding("measure", "nominal", "declared", field="measure", measures=("p50", "p95"))
    assert y.describe() == "mean of p50, p95: declared number → quantitative"
    assert color.describe() == "one series per measure: p50, p95 → nominal"
