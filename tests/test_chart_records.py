"""A chart's inline records (``chartkit.draw.charts.json_records``) are the rows pandas' JSON
writer writes, read back — column by column, over every dtype a plan's data can hold.

The reference is the one round trip of the whole frame: ``to_json(orient="records",
date_format="iso")`` then ``json.loads(..., parse_float=_finite_float)``. Its quirks are the
specification: ten decimals (``1e16 + 2`` → ``1e16``, ``5e-324`` → ``4.940656458e-324``),
``-0.0`` → ``0.0``, NaN, infinity, NaT and None → null, a number rounded past the float limit
kept at the limit, dates as ISO text in milliseconds (zoned ones in UTC with ``Z``).
"""

from __future__ import annotations

import json
import math
import os
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chartkit.draw.charts import _finite_float, json_records

_EXAMPLES = 1500 if os.environ.get("CHARTKIT_HYPOTHESIS_PROFILE") == "soak" else 300
_SETTINGS = settings(
    max_examples=_EXAMPLES, deadline=None, database=None, derandomize=True,
    suppress_health_check=list(HealthCheck),
)  # fmt: skip


def round_trip(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """The records as the whole frame's JSON text reads back."""
    text = frame.to_json(orient="records", date_format="iso")
    records: list[dict[str, Any]] = json.loads(text, parse_float=_finite_float)
    return records


def same(a: Any, b: Any) -> bool:
    """Equal, and of the same type all the way down: ``1``, ``1.0`` and ``True`` differ, and so
    do ``0.0`` and ``-0.0``."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float):
        return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)
    return bool(a == b)


# --- values of every kind the plan's data holds ----------------------------------------------

EDGE_FLOATS = [
    0.0, -0.0, math.nan, math.inf, -math.inf, 1e16 + 2, 1e16 - 1, 9999999999999998.0, 5e-324,
    -5e-324, 1e-15, 9.99e-16, 1.7976931348623157e308, -1.7976931348623157e308, 0.5, 2.5,
    0.15, 1.00000000005, 0.99999999995, 123456.78901234567, 2.0**53, 1e300,
]  # fmt: skip
floats = st.one_of(st.sampled_from(EDGE_FLOATS), st.floats(allow_nan=True, allow_infinity=True))
ints = st.integers(min_value=-(2**63), max_value=2**63 - 1)
texts = st.text(
    st.characters(codec="utf-8") | st.sampled_from(["\x00", "\x1f", "\x7f", "\u2028", '"', "\\"]),
    max_size=12,
)  # fmt: skip
any_texts = st.text(st.characters(codec="utf-8") | st.characters(categories=["Cs"]), max_size=4)
"""Text a pandas object column may hold and its writer refuses: lone surrogates too."""
times = st.integers(min_value=-(2**62), max_value=2**62).map(lambda n: np.datetime64(n, "ns"))
micros = st.datetimes(
    min_value=pd.Timestamp("1000-01-01").to_pydatetime(),
    max_value=pd.Timestamp("9999-12-31").to_pydatetime(),
).map(lambda d: np.datetime64(d, "us"))  # fmt: skip
mixed = st.one_of(
    st.none(), st.booleans(), ints, floats, texts,
    st.lists(st.one_of(st.none(), floats, ints, texts), max_size=3),
)  # fmt: skip


@st.composite
def columns(draw: st.DrawFn, rows: int) -> pd.Series:
    """One column of ``rows`` values, of one of the dtypes a plan's data holds."""
    kind = draw(
        st.sampled_from(
            ["float", "float32", "int", "int8", "bool", "str", "str-null", "object-str", "ns",
             "us", "s", "utc", "zoned", "category", "object", "nullable-int"]
        )
    )  # fmt: skip
    if kind == "float":
        return pd.Series(draw(st.lists(floats, min_size=rows, max_size=rows)), dtype="float64")
    if kind == "float32":
        values = draw(st.lists(st.floats(width=32), min_size=rows, max_size=rows))
        return pd.Series(values, dtype="float32")
    if kind in ("int", "int8"):
        low, high = (-(2**63), 2**63 - 1) if kind == "int" else (-128, 127)
        values = draw(st.lists(st.integers(low, high), min_size=rows, max_size=rows))
        return pd.Series(np.array(values, dtype="int64" if kind == "int" else "int8"))
    if kind == "bool":
        return pd.Series(draw(st.lists(st.booleans(), min_size=rows, max_size=rows)), dtype=bool)
    if kind in ("str", "str-null", "object-str"):
        some = st.one_of(st.none(), texts) if kind == "str-null" else texts
        some = any_texts if kind == "object-str" else some
        values = draw(st.lists(some, min_size=rows, max_size=rows))
        return pd.Series(values, dtype=object if kind == "object-str" else "str")
    if kind in ("ns", "us", "s"):
        some = st.one_of(st.just(np.datetime64("NaT", "ns")), times, micros)
        values = draw(st.lists(some, min_size=rows, max_size=rows))
        try:
            return pd.Series(pd.to_datetime(np.array(values, dtype="datetime64[ns]"))).astype(
                f"datetime64[{kind}]"
            )
        except (OverflowError, pd.errors.OutOfBoundsDatetime):
            return pd.Series(np.array(values, dtype="datetime64[us]"))
    if kind in ("utc", "zoned"):
        values = draw(st.lists(st.one_of(st.none(), micros), min_size=rows, max_size=rows))
        stamps = pd.Series(pd.to_datetime(values, utc=True)).dt.as_unit("us")
        return stamps if kind == "utc" else stamps.dt.tz_convert("America/St_Johns")
    if kind == "category":
        values = draw(st.lists(st.one_of(st.none(), texts), min_size=rows, max_size=rows))
        return pd.Series(values, dtype="category")
    if kind == "nullable-int":
        values = draw(st.lists(st.one_of(st.none(), ints), min_size=rows, max_size=rows))
        return pd.Series(values, dtype="Int64")
    return pd.Series(draw(st.lists(mixed, min_size=rows, max_size=rows)), dtype=object)


@st.composite
def typed_frames(draw: st.DrawFn) -> pd.DataFrame:
    """A frame whose columns keep the dtypes ``columns`` drew."""
    rows = draw(st.integers(min_value=0, max_value=6))
    names = draw(st.lists(texts | any_texts, min_size=1, max_size=5, unique=True))
    drawn = {name: draw(columns(rows)) for name in names}
    return pd.concat(drawn, axis=1) if drawn else pd.DataFrame()


# --- the properties --------------------------------------------------------------------------


@_SETTINGS
@given(typed_frames())
def test_the_records_are_the_round_trip_of_the_whole_frame(frame: pd.DataFrame) -> None:
    """Every value is the one the frame's JSON text reads back, of the same type; a frame
    pandas' writer refuses raises the same error either way."""
    try:
        expected = round_trip(frame)
    except Exception as exc:
        with pytest.raises(type(exc)):
            json_records(frame)
        return
    got, _ = json_records(frame)
    assert same(got, expected), (got, expected)


@_SETTINGS
@given(typed_frames())
def test_the_digest_names_the_content(frame: pd.DataFrame) -> None:
    """The same rows in new arrays get the same digest; a row more gets another."""
    try:
        _, digest = json_records(frame)
    except Exception:  # refused by pandas' writer: no digest to name
        return
    assert json_records(frame.copy(deep=True))[1] == digest
    assert len(digest) == 64 and int(digest, 16) >= 0
    longer = pd.concat([frame, frame.head(1)], ignore_index=True) if len(frame) else None
    if longer is not None:
        assert json_records(longer)[1] != digest


def test_the_quirks_of_pandas_json_writer_are_kept() -> None:
    """The cases the round trip is known to change, each as it reads back."""
    frame = pd.DataFrame(
        {
            "x": [1e16 + 2, 5e-324, -0.0, math.nan, math.inf, 1.7976931348623157e308],
            "t": pd.to_datetime(["2024-05-13 08:30:00.123456", None, "1960-01-01 00:00:00.9999",
                                 "2024-01-01", "2024-01-01", "2024-01-01"], format="ISO8601"),
            "z": pd.to_datetime(["2024-05-13 10:30"] * 6).tz_localize("Europe/Paris"),
            "s": ["a\x00b", "é", "\u2028", "😀", None, "<b>"],
            "n": [1, 2, 3, 4, 5, 2**62],
        }
    )  # fmt: skip
    records, _ = json_records(frame)
    assert [r["x"] for r in records] == [
        1e16, 4.940656458e-324, 0.0, None, None, 1.7976931348623157e308,
    ]  # fmt: skip
    assert math.copysign(1.0, records[2]["x"]) == 1.0
    assert [r["t"] for r in records[:3]] == [
        "2024-05-13T08:30:00.123", None, "1960-01-01T00:00:00.999",
    ]  # fmt: skip
    assert records[0]["z"] == "2024-05-13T08:30:00.000Z"
    assert [r["s"] for r in records] == ["a\x00b", "é", "\u2028", "😀", None, "<b>"]
    assert records[5]["n"] == 2**62 and type(records[5]["n"]) is int
    assert same(records, round_trip(frame))


def test_a_lone_surrogate_is_refused_as_pandas_refuses_it() -> None:
    """pandas' writer cannot write a lone surrogate: the error is its own, as before."""
    frame = pd.DataFrame({"k": pd.Series(["ok", "c\ud800"], dtype=object), "v": [1.5, 2.5]})
    with pytest.raises(UnicodeEncodeError, match="surrogates not allowed"):
        json_records(frame)


def test_labels_that_are_not_distinct_strings_are_written_as_pandas_writes_them() -> None:
    """A label that is no string is written as its text; two alike are refused, as before."""
    frame = pd.DataFrame([[1.5, "a", 3]], columns=pd.Index([0, "0", "x"], dtype=object))
    records, _ = json_records(frame.iloc[:, [0, 2]])
    assert same(records, [{"0": 1.5, "x": 3}])
    assert same(records, round_trip(frame.iloc[:, [0, 2]]))
    with pytest.raises(ValueError, match="columns must be unique"):
        json_records(pd.DataFrame([[1.5, 2.5]], columns=["a", "a"]))


def test_each_chart_holds_its_own_axis_and_scale_objects() -> None:
    """The axes and scales made once and copied (``charts._made``) are each chart's own: a
    change to one chart's never shows in the next chart's spec."""
    from chartkit import view

    rows = [{"t": f"2024-01-0{d}", "v": d * 1.5, "k": "ab"[d % 2]} for d in range(1, 9)]
    decl = {"t": "date", "v": "number", "k": "string"}
    first = view(rows, decl)
    assert first.chart is not None and first.spec is not None
    encoding: Any = first.chart.encoding
    encoding.y["axis"]["format"] = "changed"  # the objects the chart holds, changed in place
    encoding.color["scale"]["range"] = ["#000000"]
    assert first.chart.to_dict()["encoding"]["y"]["axis"]["format"] == "changed"
    again = view(rows, decl)
    assert again.spec is not None
    assert again.spec["encoding"]["y"]["axis"] == first.spec["encoding"]["y"]["axis"]
    assert again.spec["encoding"]["color"]["scale"] == first.spec["encoding"]["color"]["scale"]
    assert again.spec["encoding"]["color"]["scale"]["range"][0] == "#1f77b4"


def test_equal_rows_held_apart_name_one_dataset() -> None:
    """The same strings as Arrow text (a list of dicts read in memory) and as an object
    column (an engine's answer), beside the same numbers: one dataset name, so a view of the
    rows and of their engine frame write the same spec."""
    texts = ["vdi-0", "vdi-1", None, "é \u2028 </script>"]
    gb = [1.5, 2.0, 3.0, 4.0]
    arrow = pd.DataFrame({"host": pd.array(texts, dtype="string[pyarrow]"), "gb": gb})
    plain = pd.DataFrame({"host": pd.Series(texts, dtype=object), "gb": gb})
    (a, a_name), (b, b_name) = json_records(arrow), json_records(plain)
    assert a == b
    assert a_name == b_name
    plain.loc[0, "host"] = "vdi-9"
    assert json_records(plain)[1] != a_name
