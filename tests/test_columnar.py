"""One reading of a list of dicts: columns read once, the frame built from them.

The frame must be exactly what ``DataFrame.from_records`` makes of the rows (then the
ints-beside-missing rule), and ``columns`` exactly every key in first-seen order, whatever the
rows hold — so both are compared with those references on generated rows.
"""

from __future__ import annotations

import datetime as dt
import random
from collections import OrderedDict
from decimal import Decimal
from itertools import chain
from typing import Any

import numpy as np
import pandas as pd
import pytest

import chartkit.read.columnar as columnar
from chartkit import check_columns, read_rowset
from chartkit.read.columnar import ABSENT, read_columns, text_encoding

POOL: list[Any] = [
    0, 1, -3, 2**70, 1.5, float("nan"), float("inf"), True, False, None, "", "a",
    "2024-01-01", "2024-01-01T00:00:00+02:00", dt.date(2024, 1, 1), dt.datetime(2024, 1, 1),
    dt.datetime(2024, 1, 1, tzinfo=dt.UTC), Decimal("1.5"), np.int64(3), np.float64(2.5),
    np.datetime64("2024-01-01"), np.datetime64("NaT"), pd.NaT, pd.NA,
    pd.Timestamp("2024-01-01"), [1, 2], (1, 2), {"a": 1}, b"x", dt.timedelta(1),
    np.bool_(True), ABSENT,
]  # fmt: skip


def reference_frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    """What ``to_frame`` promises: from_records, ints beside a missing value kept as given."""
    labels = pd.Index(list(dict.fromkeys(chain.from_iterable(rows))), dtype=object)
    frame = pd.DataFrame.from_records(rows, columns=labels)
    for name in frame.columns:
        column = frame[name]
        if column.dtype.kind == "f" and column.isna().any():
            values = [r.get(name) for r in rows]
            if any(type(v) is not float for v in values if v is not None):
                frame[name] = pd.Series(values, index=frame.index, dtype=object)
    return frame


def generated_rows(rng: random.Random) -> list[dict[str, Any]]:
    names = rng.sample(["a", "b", "c", 7], rng.randint(1, 3))
    kinds = {name: rng.sample(POOL, rng.randint(1, 3)) for name in names}
    rows = []
    for _ in range(rng.randint(1, 6)):
        row = {name: rng.choice(kinds[name]) for name in rng.sample(names, len(names))}
        rows.append({k: v for k, v in row.items() if v is not ABSENT})
    return rows


@pytest.mark.parametrize("seed", range(4))
def test_the_frame_is_what_from_records_makes_of_the_rows(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(300):
        rows = generated_rows(rng)
        reading = read_rowset(rows)
        assert reading is not None
        labels = [str(c) for c in dict.fromkeys(chain.from_iterable(rows))]
        expected = reference_frame(rows).set_axis(pd.Index(labels, dtype=object), axis=1)
        got = reading.to_frame()
        pd.testing.assert_frame_equal(got, expected, check_column_type=False)  # labels: rowset
        for name in got.columns:  # same Python types in object columns, not just equal
            assert list(map(type, got[name].tolist())) == list(map(type, expected[name].tolist()))


@pytest.mark.parametrize("seed", range(2))
def test_a_frame_that_lets_the_lists_go_is_the_same_frame(seed: int) -> None:
    """``to_frame(keep_values=False)`` (what view() asks for) makes the same frame; a list it
    let go is read again from the rows when asked for, equal to what was read before."""
    rng = random.Random(seed)
    for _ in range(200):
        rows = generated_rows(rng)
        kept, released = read_rowset(rows), read_rowset(rows)
        assert kept is not None and released is not None
        expected = kept.to_frame()
        got = released.to_frame(keep_values=False)
        pd.testing.assert_frame_equal(got, expected)
        for name in got.columns:
            assert list(map(type, got[name].tolist())) == list(map(type, expected[name].tolist()))
        names = list(kept.columns)
        again = released.values(names)
        for before, after in zip(kept.values(names), again, strict=True):
            assert list(map(type, after)) == list(map(type, before))
            assert [repr(v) for v in after] == [repr(v) for v in before]


def test_letting_the_lists_go_drops_those_of_columns_made_arrays() -> None:
    rows = [{"n": float(i), "s": f"s{i}", "o": [i]} for i in range(5)]
    reading = read_rowset(rows)
    assert reading is not None
    frame = reading.to_frame(keep_values=False)
    assert frame["o"].tolist() == [[i] for i in range(5)]
    # still held: the lists kept as Python objects (the floats too, without the C census)
    held = {"o"} if columnar.SPEEDUPS is not None else {"n", "o"}
    assert set(reading._read) == held
    assert reading.values(["n", "s"]) == [[float(i) for i in range(5)], [f"s{i}" for i in range(5)]]


def test_a_lone_surrogate_frame_is_built_from_every_list_even_those_let_go() -> None:
    rows = [{"n": float(i), "s": f"s{i}", "t": "\ud800" if i else "a"} for i in range(5)]
    expected = read_rowset(rows).to_frame()  # type: ignore[union-attr]
    got = read_rowset(rows).to_frame(keep_values=False)  # type: ignore[union-attr]
    pd.testing.assert_frame_equal(got, expected)
    assert got["t"].tolist() == ["a", "\ud800", "\ud800", "\ud800", "\ud800"]


@pytest.mark.parametrize("seed", range(2))
def test_columns_are_every_key_in_first_seen_order(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(300):
        rows = generated_rows(rng)
        reading = read_rowset(rows)
        assert reading is not None
        assert reading.columns == tuple(dict.fromkeys(chain.from_iterable(rows)))


def test_rows_with_as_many_keys_but_other_ones_are_walked_key_by_key() -> None:
    reading = read_rowset([{"a": 1, "b": 2}, {"a": 1, "c": 3}])
    assert reading is not None and reading.columns == ("a", "b", "c")
    assert reading.to_frame()["c"].isna().tolist() == [True, False]


def test_each_column_is_read_once_and_shared() -> None:
    rows = [{"lun": i, "host": "vdi-a"} for i in range(3000)] + [{"lun": ""}]
    reading = read_rowset(rows)
    assert reading is not None
    (lun,) = reading.values(["lun"])
    check_columns(reading, {"lun": "number", "host": "string"})
    assert reading.values(["lun"])[0] is lun  # the check used the same list
    assert reading.to_frame()["host"].isna().sum() == 1


def test_a_dict_subclass_is_read_with_get_and_never_gains_a_key() -> None:
    class Defaulting(dict[str, Any]):
        def __missing__(self, key: str) -> str:
            self[key] = "invented"
            return "invented"

    rows = [Defaulting(lun=0), Defaulting(host="a")]
    values, gaps = read_columns(rows, ["lun", "host"], plain=False)
    assert values == [[0, ABSENT], [ABSENT, "a"]] and gaps == [True, True]
    assert rows == [{"lun": 0}, {"host": "a"}]
    assert read_rowset([OrderedDict(lun=0), {"lun": 1}]) is not None


def test_a_key_missing_after_the_first_block_is_a_gap_from_there_on() -> None:
    rows: list[dict[str, Any]] = [{"lun": i} for i in range(2500)]
    rows[2100] = {}
    (values,), (gap,) = read_columns(rows, ["lun"], plain=True)
    assert gap and values[2100] is ABSENT and values[2099] == 2099 and values[2101] == 2101
    assert len(values) == 2500


DATE_TEXTS: dict[str, list[Any]] = {
    "dates": ["2024-01-01", "2024-03-02"],
    "naive": ["2024-01-01T10:00:00", None, "2024-01-01T11:30:00.5"],
    "one zone": ["2024-01-01T10:00:00+02:00", "2024-01-02T10:00:00+02:00"],
    "Z and +00": ["2024-01-01T10:00:00Z", "2024-01-01T10:00:00+00:00"],
    "two zones": ["2024-01-01T10:00:00+02:00", "2024-01-01T10:00:00-05:00"],
    "zone beside naive": ["2024-01-01T10:00:00+02:00", "2024-01-01T10:00:00"],
    "nothing": [None, None],
}
DATE_OBJECTS: dict[str, list[Any]] = {
    "aware objects": [dt.datetime(2024, 1, 1, 3, tzinfo=dt.UTC), None],
    "naive objects": [dt.datetime(2024, 1, 1, 3), dt.date(2024, 1, 2)],
    "mixed objects": [dt.datetime(2024, 1, 1, 3, tzinfo=dt.UTC), dt.datetime(2024, 1, 1)],
}


@pytest.mark.parametrize(
    ("values", "dtype"),
    [pytest.param(v, object, id=f"{k}, object") for k, v in DATE_TEXTS.items()]
    + [pytest.param(v, "str", id=f"{k}, str") for k, v in DATE_TEXTS.items()]
    + [pytest.param(v, object, id=k) for k, v in DATE_OBJECTS.items()],
)
def test_one_date_parse_agrees_with_the_two_steps(values: list[Any], dtype: Any) -> None:
    from chartkit.plan.encode import any_aware, as_wall_clock, wall_clock

    series = pd.Series(values, dtype=dtype, index=range(10, 10 + len(values)))
    got, aware = wall_clock(series)
    pd.testing.assert_series_equal(got, as_wall_clock(series))
    assert aware == any_aware(series)


def test_a_datetime_column_keeps_its_zone_through_one_parse() -> None:
    from chartkit.plan.encode import wall_clock

    series = pd.Series(pd.date_range("2024-01-01", periods=3, freq="h", tz="Europe/Paris"))
    got, aware = wall_clock(series)
    assert aware and got.dt.tz is None and got.iloc[0] == pd.Timestamp("2023-12-31T23:00")


@pytest.mark.skipif(columnar.SPEEDUPS is None, reason="the compiled reader is not built")
def test_the_compiled_reader_counts_the_dates_that_carry_a_zone() -> None:
    """How many of a date column's values carried a zone, counted while they were parsed: the
    plan reads it (``encode._parsed_zones``) instead of searching the text again."""
    from chartkit.plan.encode import _parsed_zones

    days = ["2024-05-13T02:00:00+02:00", "2024-05-13T01:00:00", "2024-05-14T03:00:00Z"]
    (mixed, zoned, naive, broken) = columnar.read_census(
        [{"a": d, "b": days[0], "c": days[1], "d": d if i else 1} for i, d in enumerate(days)],
        ["a", "b", "c", "d"],
    ) or ()
    assert mixed.clock is not None and (mixed.clock.zoned, mixed.clock.aware) == (2, True)
    assert zoned.clock is not None and zoned.clock.every_zoned
    assert naive.clock is not None and (naive.clock.zoned, naive.clock.aware) == (0, False)
    assert broken.clock is None  # not every value a date: no clock, nothing counted
    frame = read_rowset([{"ts": d} for d in days]).to_frame()
    assert _parsed_zones(frame["ts"]) == (1, 2)
    assert _parsed_zones(frame["ts"].iloc[:2]) is None  # some rows: not what the reading parsed


@pytest.mark.parametrize(
    "values",
    [
        [1, -(2**63), 2**63 - 1],
        [1, 2**63],  # past int64: pandas makes it uint64
        [1, 2**70, -1],  # past both: objects
        [1.5, -0.0, float("nan"), float("inf")],
        [True, False, True],
        [1, 1.5],
        [1, True],
    ],
    ids=["int64", "uint64", "huge", "floats", "bools", "int and float", "int and bool"],
)
def test_a_column_of_one_type_is_typed_as_from_records_types_it(values: list[Any]) -> None:
    rows = [{"a": v, "b": "x"} for v in values]
    reading = read_rowset(rows)
    assert reading is not None
    got = reading.to_frame()
    expected = reference_frame(rows).set_axis(pd.Index(["a", "b"], dtype=object), axis=1)
    pd.testing.assert_frame_equal(got, expected, check_column_type=False)
    assert list(map(type, got["a"].tolist())) == list(map(type, expected["a"].tolist()))


def test_a_text_column_is_dictionary_encoded_once_while_it_lives() -> None:
    """One encoding per Arrow array, shared by whoever asks; the entry goes with the array."""
    import gc

    import pyarrow as pa

    from chartkit.read import columnar

    column = pa.chunked_array([["b", "a", None], [], ["", "b"]], pa.large_string())
    encoded = text_encoding(column)
    assert text_encoding(column) is encoded
    assert encoded.dictionary.to_pylist() == ["b", "a", ""]  # first seen first; no null
    assert encoded.indices.to_pylist() == [0, 1, None, 2, 0]
    equal = pa.chunked_array([["b", "a", None], ["", "b"]], pa.large_string())
    assert text_encoding(equal) is not encoded  # another array: its own encoding
    gc.collect()  # (the arrays earlier tests left behind go first, not while measuring)
    before = len(columnar._ENCODINGS)
    del column, equal
    gc.collect()
    assert len(columnar._ENCODINGS) == before - 2


def test_only_the_last_few_text_encodings_are_kept() -> None:
    """A long-lived frame does not keep every encoding ever made of its columns."""
    import pyarrow as pa

    from chartkit.read import columnar

    columns = [pa.chunked_array([[f"v{i}"]]) for i in range(columnar.ENCODINGS_KEPT + 3)]
    encoded = [text_encoding(c) for c in columns]
    assert len(columnar._ENCODINGS) <= columnar.ENCODINGS_KEPT
    assert text_encoding(columns[-1]) is encoded[-1]  # the newest are kept
    again = text_encoding(columns[0])  # the oldest was let go: encoded anew, the same values
    assert again is not encoded[0] and again.equals(encoded[0])
