"""CSV read by the declaration: cells parsed by declared type; a cell that does not parse is a
violation whose sample is the raw text; undeclared cells stay strings."""

from __future__ import annotations

import datetime as dt
import itertools
from pathlib import Path

import pytest

from chartkit import ToolResultError, check_result, view
from chartkit._isodate import is_iso, parse_iso
from chartkit.read.csvread import (
    ACCEPT,
    BOOLEAN_FALSE,
    BOOLEAN_TRUE,
    DATE,
    NUMBER,
    parse_cell,
    read_csv,
)
from chartkit.staging import stage

LUN_CSV = b"logical_unit_number,host_group\n3,vdi-a\nn/a,vdi-b\n,vdi-a\n"
DECL = {"logical_unit_number": "number", "host_group": "string"}


def test_a_cell_that_does_not_parse_is_a_violation_whose_sample_is_the_raw_text() -> None:
    result = read_csv(LUN_CSV, DECL, name="host_group_mappings.csv", call_id="call-1")
    assert result.tool == "host_group_mappings"
    assert [r["logical_unit_number"] for r in result.rows] == [3, "n/a", None]
    outcome = check_result(result, mode="warn")
    (violation,) = outcome.violations
    assert (violation.affected, violation.absent, violation.total) == (2, 1, 3)
    assert violation.sample == "n/a" and violation.sample_type == "string"
    assert outcome.findings[0].message.startswith(
        "'host_group_mappings' declares column 'logical_unit_number' as number, and 2 of 3 rows "
        'hold something else — the first is "n/a" (string). 1 of those rows holds nothing (null '
        "or a key not set); if a row may legitimately carry nothing, declare the column nullable."
    )


def test_each_declared_type_reads_its_cells() -> None:
    text = (
        "n,s,b,d\n"
        "0,0,true,2024-01-05\n"
        "-2.5e3,x,FALSE,2024-01-05T10:30:00Z\n"
        "1240,,True,20240105T103000\n"
        '" 3",",",yes,2024-02-30\n'
    )
    declared = {"n": "number", "s": "string", "b": "boolean", "d": "date"}
    rows = read_csv(text=text, result_columns=declared).rows
    assert rows[0] == {"n": 0, "s": "0", "b": True, "d": dt.datetime(2024, 1, 5)}
    assert rows[1] == {
        "n": -2500.0,
        "s": "x",
        "b": False,
        "d": dt.datetime(2024, 1, 5, 10, 30, tzinfo=dt.UTC),
    }
    # fromisoformat's basic form is no date string: kept as the raw text, for the check
    assert rows[2] == {"n": 1240, "s": None, "b": True, "d": "20240105T103000"}
    assert rows[3] == {"n": " 3", "s": ",", "b": "yes", "d": "2024-02-30"}  # raw text kept
    assert type(rows[0]["n"]) is int and type(rows[1]["n"]) is float


def test_without_a_declaration_cells_stay_strings_and_the_chart_says_so() -> None:
    result = read_csv(b"day,latency\n2024-01-01,12.5\n2024-01-02,13\n", name="lat.csv")
    assert result.result_columns is None
    assert result.rows == [
        {"day": "2024-01-01", "latency": "12.5"},
        {"day": "2024-01-02", "latency": "13"},
    ]
    shown = view(result)
    assert shown.kind == "table"
    assert shown.reason == (
        "No column is declared number: day is undeclared (nominal, inferred), latency is "
        "undeclared (nominal, inferred)."
    )
    assert check_result(result, mode="warn").armed is False


def test_a_declared_csv_charts_from_its_declared_types() -> None:
    text = b"day,latency\n2024-01-01,12.5\n2024-01-02,13\n2024-01-03,11\n"
    shown = view(read_csv(text, {"day": "date", "latency": "number"}, name="lat.csv"))
    assert (shown.kind, shown.mark) == ("chart", "line")
    assert shown.encodings["x"].describe() == "day: declared date → temporal"


def test_the_rules_are_regexes_an_engine_can_apply() -> None:
    assert set(ACCEPT) == {"number", "string", "boolean", "date"}
    numbers = ["0", "-3", "+3", "2.5", ".5", "5.", "1e-3", "1E+10", "007"]
    not_numbers = ["", " 3", "3 ", "1,240", "NaN", "inf", "0x10", "1_000", "--1", "e5", "."]
    assert all(NUMBER.fullmatch(t) for t in numbers)
    assert not any(NUMBER.fullmatch(t) for t in not_numbers)
    assert {t for t in BOOLEAN_TRUE | BOOLEAN_FALSE if ACCEPT["boolean"].fullmatch(t)} == (
        BOOLEAN_TRUE | BOOLEAN_FALSE
    )
    assert not any(ACCEPT["boolean"].fullmatch(t) for t in ["1", "0", "yes", "t", "tRuE"])
    assert ACCEPT["string"].fullmatch("any\ntext")


DATES = ["2024-01-05", "20240105", "2024-W01", "2024-W01-2", "2024W012", "2024-02-30",
         "2024-02-29", "2023-02-29", "2024-W53", "2020-W53-7", "2024-13-01",
         "2024-1-05"]  # fmt: skip
TIMES = ["", "10", "1030", "10:30", "103000", "10:30:00", "10:30:00.5", "10:30:00,123456",
         "10:30:00.1234567", "24:00", "10:60", "1030:00", "10:3000", "1"]  # fmt: skip
OFFSETS = ["", "Z", "+01", "+0100", "+01:00", "-01:30", "+01:00:30", "+010030.5", "z", "+1",
           "+01:0", "+25:00", " +01:00"]  # fmt: skip


def test_a_date_cell_is_read_exactly_when_it_is_a_date_string() -> None:
    """RFC 3339 (``chartkit._isodate``): the check's rule, read as ``parse_iso`` reads it."""
    checked = accepted = 0
    for day, time, offset in itertools.product(DATES, TIMES, OFFSETS):
        for text in {day, f"{day}T{time}{offset}", f"{day} {time}{offset}", f"{day}x{time}"}:
            expected: object = parse_iso(text)
            if expected is None:
                expected = text  # kept as the raw text, for the check to file
            assert bool(DATE.fullmatch(text)) == is_iso(text) == (expected != text), text
            assert parse_cell(text, "date") == expected, text
            checked += 1
            accepted += expected != text
    assert checked > 5000 and accepted > 100
    assert parse_cell("2024-01-05T10:30:00.5+05:30", "date") == dt.datetime(
        2024, 1, 5, 10, 30, 0, 500_000, dt.timezone(dt.timedelta(hours=5, minutes=30))
    )
    for refused in ("20230808120000Z", "2024-01-05x10:30", "2024-W01-2", "2024-01-05T10"):
        assert parse_cell(refused, "date") == refused


def test_empty_cells_are_absences_and_nullable_lets_them_pass() -> None:
    text = b"lun,comment\n0,\n,ok\n"
    strict = read_csv(text, {"lun": "number", "comment": "string"})
    assert strict.rows == [{"lun": 0, "comment": None}, {"lun": None, "comment": "ok"}]
    kinds = [(v.column, v.sample_type) for v in check_result(strict, mode="warn").violations]
    assert kinds == [("lun", "null"), ("comment", "null")]
    lenient = read_csv(
        text,
        {
            "lun": {"type": "number", "nullable": True},
            "comment": {"type": "string", "nullable": True},
        },
    )
    assert check_result(lenient, mode="enforce").status == "ok"


def test_a_declared_column_the_header_lacks_is_a_missing_column() -> None:
    result = read_csv(b"a\n1\n", {"a": "number", "b": "string"}, tool="t")
    assert [v.kind for v in check_result(result, mode="warn").violations] == ["missing-column"]


def test_a_staged_csv_keeps_the_declared_types(tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    source = tmp_path / "lat.csv"
    source.write_bytes(b"\xef\xbb\xbfday,latency\n2024-01-01,12.5\n2024-01-02,13\n")
    result = read_csv(source, {"day": "date", "latency": "number"})
    staged = stage(result, tmp_path / "out")
    assert staged.parquet is not None
    assert {f.name: str(f.type) for f in pq.read_schema(staged.parquet)} == {
        "day": "timestamp[us]",
        "latency": "double",
    }


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "input.csv is empty; a CSV result needs a header row naming its columns"),
        (b"a,a\n1,2\n", "input.csv names the column(s) 'a' more than once in its header"),
        (b"a,b\n1,2\n3\n", "input.csv line 3 has 1 cell(s) and the header has 2"),
        (b"a\n\xff\n", "input.csv is not UTF-8 text"),
        (b'a\n"x\n', "input.csv line 2 is not valid CSV"),
    ],
)
def test_a_malformed_file_is_refused_naming_the_line(data: bytes, message: str) -> None:
    with pytest.raises(ToolResultError) as caught:
        read_csv(data)
    assert str(caught.value).startswith(message)
