"""What chartkit agrees to read as a rowset, and what it answers with nothing at all."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import pandas as pd
import polars as pl
import pyarrow as pa
import pytest

from chartkit import RowsetReading, read_rowset


def test_a_list_of_dicts_is_read_with_every_column_in_first_seen_order() -> None:
    reading = read_rowset([{"lun": 0}, {"host": "a", "lun": 3}, {"comment": "x"}])
    assert reading is not None
    assert reading.columns == ("lun", "host", "comment")
    assert reading.total == 3


def test_a_tuple_of_dicts_is_a_rowset_too() -> None:
    reading = read_rowset(({"lun": 0}, {"lun": 1}))
    assert reading is not None and reading.total == 2


def test_rows_may_be_dict_subclasses() -> None:
    reading = read_rowset([OrderedDict(lun=0), {"lun": 1}])
    assert reading is not None and reading.columns == ("lun",)


def test_the_reading_keeps_the_rows_object_it_was_given() -> None:
    rows = [{"lun": 0}]
    reading = read_rowset(rows)
    assert reading is not None and reading.rows is rows


def test_a_reading_reads_as_itself() -> None:
    reading = read_rowset([{"lun": 0}])
    assert reading is not None and read_rowset(reading) is reading


@pytest.mark.parametrize(
    "value",
    [
        pytest.param([], id="empty list"),
        pytest.param((), id="empty tuple"),
        pytest.param({"logical_unit_number": 0}, id="a dict"),
        pytest.param("rows", id="a string"),
        pytest.param([{"lun": 0}, "oops"], id="a list holding a non-dict"),
        pytest.param([[0, "vdi-a"]], id="a list of lists"),
        pytest.param(None, id="None"),
        pytest.param(42, id="a number"),
        pytest.param(b"[]", id="bytes"),
        pytest.param(pd.DataFrame({"lun": []}), id="zero-row pandas frame"),
        pytest.param(pd.DataFrame(), id="empty pandas frame"),
        pytest.param(pl.DataFrame({"lun": []}), id="zero-row polars frame"),
        pytest.param(pa.table({"lun": pa.array([], pa.int64())}), id="zero-row arrow table"),
        pytest.param(pd.Series([1, 2]), id="a pandas series"),
    ],
)
def test_anything_else_is_not_a_rowset(value: Any) -> None:
    assert read_rowset(value) is None


def test_a_pandas_frame_is_read_as_is() -> None:
    frame = pd.DataFrame({"lun": [0, 3], "host": ["a", "b"]})
    reading = read_rowset(frame)
    assert reading is not None
    assert reading.frame is frame
    assert (reading.columns, reading.total) == (("lun", "host"), 2)


def test_a_polars_frame_is_read_through_narwhals() -> None:
    reading = read_rowset(pl.DataFrame({"lun": [0, 3, None], "host": ["a", "b", "c"]}))
    assert reading is not None
    assert (reading.columns, reading.total) == (("lun", "host"), 3)
    assert (reading.frame, reading.rows) == (None, None)  # it stays in polars: chartkit.engines


def test_a_pyarrow_table_is_read_through_narwhals() -> None:
    reading = read_rowset(pa.table({"lun": [0, 3], "host": ["a", None]}))
    assert reading is not None
    assert (reading.columns, reading.total) == (("lun", "host"), 2)


def test_a_reading_turns_into_a_frame_holding_the_values_as_returned() -> None:
    reading = read_rowset([{"lun": ""}, {"lun": 3, "host": "a"}])
    assert reading is not None
    frame = reading.to_frame()
    assert list(frame.columns) == ["lun", "host"]
    assert frame["lun"].tolist() == ["", 3]


def test_the_reading_of_a_hand_built_rowset_is_not_marked_plain() -> None:
    reading = RowsetReading(total=1, rows=[{"lun": 0}])
    assert reading.plain is False
    assert reading.columns == ("lun",)
