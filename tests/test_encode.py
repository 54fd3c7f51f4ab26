"""encode.py: the declared → Vega-Lite table, Encoding's description, column profiles."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_properties import _COMMON, CHECKS

from chartkit import (
    COLUMN_TYPES,
    VEGALITE_TYPES,
    ColumnDeclaration,
    Encoding,
    check_columns,
    read_rowset,
)
from chartkit.plan.encode import (
    _NUMERIC_TEXT,
    _OFFSET,
    ASCII_NUMBER_TEXT,
    _any_offset,
    as_numbers,
    as_wall_clock,
    numeric_strings_only,
    profile_columns,
    wall_clock,
)


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
    from chartkit.plan.encode import Encoding

    y = Encoding("p50", "quantitative", "declared", aggregate="mean", field="value",
                 declared="number", measures=("p50", "p95"))  # fmt: skip
    color = Encoding("measure", "nominal", "declared", field="measure", measures=("p50", "p95"))
    assert y.describe() == "mean of p50, p95: declared number → quantitative"
    assert color.describe() == "one series per measure: p50, p95 → nominal"


# --- numbers in quotes: pyarrow's RE2 proves the ASCII ones, Python's re decides the rest -------

NUMERIC_ALPHABET = st.sampled_from(
    [
        *"0123456789+-.eE_ x",
        *"\t\n\v\f\r\x1c\x1f\x85\xa0\u2000\u3000",  # spaces to Python, some only to Python
        *"\u200b\ufeff",  # not spaces
        *"٣１𝟙߀",  # other scripts' digits
        *"²½Ⅻé",  # no digits
    ]
)
numeric_looking = st.text(NUMERIC_ALPHABET, max_size=8) | st.sampled_from(
    ["1240", "3.7", " -1e3 ", ".5", "5.", "1_000", "_1", "1e", "e1", "+.e1", "١٢", "１.５", ""]
)


def _python_answer(values: list[Any]) -> bool:
    """``numeric_strings_only`` as it read every value: one Python regex match each."""
    return bool(values) and all(
        isinstance(v, str) and _NUMERIC_TEXT.fullmatch(v) is not None for v in values
    )


def _arrow_text(chunks: list[list[str | None]]) -> pd.Series:
    """A pandas text column over pyarrow, in the given chunks."""
    chunked = pa.chunked_array([pa.array(c, pa.large_string()) for c in chunks], pa.large_string())
    dtype = pd.Series(["x"]).dtype
    if not isinstance(dtype, pd.StringDtype) or dtype.storage != "pyarrow":
        pytest.skip("pandas keeps text in numpy objects here")
    return pd.Series(pd.arrays.ArrowStringArray(chunked, dtype=dtype))  # type: ignore[call-arg]


@settings(max_examples=CHECKS, **_COMMON)
@given(numeric_looking)
def test_the_ascii_pattern_accepts_only_what_python_accepts(text: str) -> None:
    proven = pc.match_substring_regex(pa.array([text], pa.large_string()), ASCII_NUMBER_TEXT)
    if proven[0].as_py():
        assert _NUMERIC_TEXT.fullmatch(text) is not None
    if text.isascii() and not any("\x1c" <= c <= "\x1f" for c in text):  # \s-only in Python
        assert proven[0].as_py() == (_NUMERIC_TEXT.fullmatch(text) is not None)


@settings(max_examples=CHECKS, **_COMMON)
@given(
    st.lists(st.lists(numeric_looking | st.none(), max_size=6), min_size=1, max_size=3),
    st.data(),
)
def test_numbers_in_quotes_are_found_as_python_finds_them(
    chunks: list[list[str | None]], data: st.DataObject
) -> None:
    """Text held by pyarrow in one chunk or several, with missing values, under any mask: the
    same answer as a Python match of every offender; and the same for the text as objects."""
    series = _arrow_text(chunks)
    mask = np.array(
        data.draw(st.lists(st.booleans(), min_size=len(series), max_size=len(series))), dtype=bool
    )
    expected = _python_answer(series.astype(object)[mask].tolist())
    assert numeric_strings_only(series, mask) is expected
    as_objects = pd.Series([v for c in chunks for v in c], dtype=object)
    assert numeric_strings_only(as_objects, mask) is expected


def test_a_missing_value_or_an_empty_text_is_no_number_in_quotes() -> None:
    series = _arrow_text([["1", "2"], [None, ""]])
    assert numeric_strings_only(series, np.array([True, True, False, False]))
    assert not numeric_strings_only(series, np.array([True, True, True, False]))
    assert not numeric_strings_only(series, np.array([True, False, False, True]))
    assert not numeric_strings_only(series, np.zeros(4, dtype=bool))  # no offender: no claim
    assert numeric_strings_only(_arrow_text([["١٢", " 3\u3000"]]), np.ones(2, dtype=bool))


# --- distinct values: text held by pyarrow counted from its one dictionary encoding -----------

text_cells = st.one_of(
    st.none(), st.sampled_from(["", " ", "a", "A", "é", "e\u0301", "\x00", "None", "nan"]),
    st.text(max_size=3)
)  # fmt: skip


@settings(max_examples=CHECKS // 4, **_COMMON)
@given(st.lists(st.lists(text_cells, max_size=5), min_size=1, max_size=4).filter(
    lambda chunks: any(chunks)
), st.sampled_from(["str", "string[pyarrow]"]))  # fmt: skip
def test_distinct_texts_held_by_pyarrow_are_what_nunique_counts(
    chunks: list[list[str | None]], dtype: str
) -> None:
    """Missing values, empty strings, one chunk or several: the profile counts as ``nunique``."""
    values = [v for c in chunks for v in c]
    if any(v is not None and not _utf8(v) for v in values):  # pyarrow holds UTF-8 only
        return
    chunked = pa.chunked_array([pa.array(c, pa.large_string()) for c in chunks], pa.large_string())
    series = pd.Series(pd.array(chunked.combine_chunks(), dtype=dtype))
    series = pd.Series(type(series.array)(chunked, dtype=series.dtype))  # the chunks as given
    assert series.array.__arrow_array__().num_chunks == len(chunks)
    decl = {"t": ColumnDeclaration("string", nullable=True)}
    profile = profile_columns(pd.DataFrame({"t": series}), decl, ())["t"]
    assert profile.distinct == series.nunique() == pd.Series(values, dtype=object).nunique()


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def test_distinct_texts_with_a_lone_surrogate_are_counted_as_objects() -> None:
    """pyarrow cannot hold a lone surrogate: such a column stays objects, counted by text."""
    rows = [{"t": v} for v in ["\ud800", "a", "\ud800", "", "a"]]
    frame = read_rowset(rows).to_frame()  # type: ignore[union-attr]
    assert frame["t"].dtype == object
    profile = profile_columns(frame, {"t": ColumnDeclaration("string", nullable=True)}, ())["t"]
    assert profile.distinct == frame["t"].nunique() == 3


def test_distinct_texts_read_from_a_list_of_dicts_are_what_nunique_counts() -> None:
    rows = [{"t": v} for v in ["b", "a", "", "b", "a", "c"] * 300]
    frame = read_rowset(rows).to_frame()  # type: ignore[union-attr]
    assert isinstance(frame["t"].array, pd.arrays.ArrowStringArray)
    profile = profile_columns(frame, {"t": ColumnDeclaration("string")}, ())["t"]
    assert profile.distinct == frame["t"].nunique() == 4


# --- dates a reading parsed, filtered rather than parsed again ---------------------------------

OFFSET_ALPHABET = st.sampled_from([*"0123456789TtZz+-:.,x ", *"\t\n\v\f\r\x1c\x1f\x85\xa0"])


@settings(max_examples=CHECKS, **_COMMON)
@given(st.text(OFFSET_ALPHABET, max_size=16))
def test_the_re2_offset_search_is_any_awares(tail: str) -> None:
    """On the text a reading parses (below U+0100, starting with its date), pyarrow's search
    finds a zone exactly where ``any_aware``'s Python search does."""
    text = "2024-01-02" + tail
    arrow = pa.chunked_array([pa.array([text], pa.large_string())])
    expected = re.search(_OFFSET, text.strip()) is not None
    assert _any_offset(arrow, np.array([True])) is expected


ISO_TIMES = st.builds(
    lambda day, hour, sep, zone: f"2024-03-{day:02d}{sep}{hour:02d}:30:00{zone}",
    st.integers(1, 28),
    st.integers(0, 23),
    st.sampled_from(["T", " "]),
    st.sampled_from(["", "", "Z", "+02:00", "-05:30", "+00:00"]),
)


@settings(max_examples=CHECKS // 4, **_COMMON)
@given(st.lists(ISO_TIMES, min_size=1, max_size=20), st.data())
def test_kept_dates_of_a_reading_are_those_a_parse_of_the_kept_rows_gives(
    texts: list[str], data: st.DataObject
) -> None:
    keep = np.array(data.draw(st.lists(st.booleans(), min_size=len(texts), max_size=len(texts))))
    reading = read_rowset([{"when": t} for t in texts])
    assert reading is not None and check_columns(reading, {"when": "date"}) == ()
    column = reading.to_frame()["when"]
    got, aware = wall_clock(column, keep)
    expected, expected_aware = wall_clock(column[keep])
    assert aware is expected_aware
    assert got.index.equals(expected.index) and got.tolist() == expected.tolist()
