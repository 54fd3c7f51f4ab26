"""``read_csv`` reads a ``str`` as a path, as pandas does; CSV text comes as a stream or
``text=`` (issue 38, item 16: ``read_csv("latency.csv", decl)`` once read the name as CSV text
and answered no rows)."""

from __future__ import annotations

import datetime as dt
import io
from pathlib import Path

import pytest

from chartkit import ToolResultError, read_csv

LATENCY = "day,latency\n2024-03-14,12.5\n2024-03-15,13\n"
DECL = {"day": "date", "latency": "number"}
ROWS = [
    {"day": dt.datetime(2024, 3, 14), "latency": 12.5},
    {"day": dt.datetime(2024, 3, 15), "latency": 13},
]


def test_a_str_is_a_path_read_relative_to_the_working_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "latency.csv").write_text(LATENCY, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = read_csv("latency.csv", DECL)
    assert (result.tool, result.rows) == ("latency", ROWS)


def test_a_path_like_and_an_open_file_are_read_as_the_file(tmp_path: Path) -> None:
    path = tmp_path / "latency.csv"
    path.write_bytes(b"\xef\xbb\xbf" + LATENCY.encode())
    assert read_csv(path, DECL).rows == ROWS
    with path.open(encoding="utf-8") as text_file:
        opened = read_csv(text_file, DECL)
    assert (opened.tool, opened.rows) == ("latency", ROWS)
    with path.open("rb") as binary_file:
        assert read_csv(binary_file, DECL).rows == ROWS


def test_csv_text_is_a_string_io_or_the_text_keyword() -> None:
    by_stream = read_csv(io.StringIO(LATENCY), DECL, name="lat.csv")
    by_keyword = read_csv(text=LATENCY, result_columns=DECL, name="lat.csv")
    assert by_stream.rows == by_keyword.rows == ROWS
    assert by_stream.tool == by_keyword.tool == "lat"
    assert read_csv(text=LATENCY).tool == "input"


def test_csv_text_given_as_a_path_is_refused_with_the_fix() -> None:
    with pytest.raises(ToolResultError) as caught:
        read_csv(LATENCY, DECL)
    assert str(caught.value) == (
        "cannot read the CSV file 'day,latency\\n2024-03-14,12.5\\n2024-03-15,13\\n' (No such "
        "file or directory); a str is a path (as in pandas); to read CSV text, pass "
        "io.StringIO(text) or text="
    )


def test_a_missing_file_is_named_and_a_long_str_is_cut(tmp_path: Path) -> None:
    with pytest.raises(ToolResultError, match=r"^cannot read the CSV file '.*nope\.csv' \(No "):
        read_csv(tmp_path / "nope.csv")
    with pytest.raises(ToolResultError) as caught:
        read_csv("a,b\n" + "1,2\n" * 10_000)
    assert "… (40,004 characters)" in str(caught.value)
    assert len(str(caught.value)) < 400


@pytest.mark.parametrize(
    ("source", "text", "message"),
    [
        (None, None, "read_csv reads one source: give a path, the file's bytes or an open file"),
        (b"a\n1\n", "a\n1\n", "read_csv reads one source: give a path, the file's bytes or an "),
        (5, None, "read_csv cannot read a value of type int; give a path (str or Path), the "),
        (None, b"a\n1\n", "text= is the CSV text (a str), not bytes; give a path or bytes as "),
    ],
)
def test_one_source_of_a_kind_it_reads(source: object, text: object, message: str) -> None:
    with pytest.raises(ToolResultError) as caught:
        read_csv(source, text=text)  # type: ignore[arg-type]
    assert str(caught.value).startswith(message)
