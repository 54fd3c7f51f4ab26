"""The check of a DuckDB relation's text reads the one parse DuckDB holds (issue 39 item 2).

A CSV's cells (``TextTable``), and a DuckDB text column declared date, are parsed once by the
declaration and held by DuckDB (``chartkit.read.engines.held_text``); the check counts, finds
the first offender and the most frequent ones from those rows instead of matching every cell
in queries of its own. Whatever the cells hold, its findings are the in-memory check's of the
same cells as csvread reads them, and those of the check that matches every cell itself.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import pytest
from test_engine_counting import logged_queries

from chartkit import ToolResult, check_columns, view
from chartkit.check.integrity import check_result
from chartkit.read import engines
from chartkit.read.csvread import parse_cell
from chartkit.read.engines import TextTable

duckdb = pytest.importorskip("duckdb")

# offenders of every kind, each column's several ways at different places and counts (so the
# first offender, the order of the ways and the most frequent ones, ties too, are all asked)
NUMBERS = ["3", "-2.5", "+7", ".5", "5.", "1e-3", "1E+2", "1" * 400, "", "n/a", " 3", "3 ",
           "1 000", "+-1", "1e999", "-1e999", "nan", "inf", "0x10", "1_000", None]  # fmt: skip
DATES = ["2024-01-05", "2024-01-05T10:30", "2024-01-05 10:30:00.123456", "2024-01-05T10:30Z",
         "2024-01-05T10:30:00+02:00", "2024-01-05T10:30:00.1234567", "2024-02-30",
         "2024-13-01", "20240105", "2024-01-05T24:00", "", "n/a", " 2024-01-05",
         None]  # fmt: skip
BOOLEANS = ["true", "True", "TRUE", "false", "FALSE", "tRue", "yes", "1", "", None]
DECLARED: dict[str, Any] = {
    "when": "date",
    "n": "number",
    "flag": {"type": "boolean", "nullable": True},
    "host": "string",
    "gauge": {"type": "number", "nullable": True},
    "seen": {"type": "date", "nullable": True},
}


def _cells(rows: int) -> pd.DataFrame:
    """Every column as text (None a NULL cell): each value list cycled at its own stride."""

    def cycled(values: list[Any], stride: int, skew: int) -> list[Any]:
        return [values[(i * stride + i // skew) % len(values)] for i in range(rows)]

    return pd.DataFrame({
        "host": pd.Series(cycled(["a", "b", None, ""], 1, 7), dtype=object),
        "n": pd.Series(cycled(NUMBERS, 3, 11), dtype=object),
        "when": pd.Series(cycled(DATES, 5, 13), dtype=object),
        "flag": pd.Series(cycled(BOOLEANS, 7, 5), dtype=object),
        "gauge": pd.Series(["1.5"] * (rows - 3) + ["n/a", None, "2"], dtype=object),
        "seen": pd.Series([None, "x", *(["2024-06-01 12:00"] * (rows - 2))], dtype=object),
    })  # fmt: skip


def _in_memory(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """The rows as csvread reads the cells (an empty cell a DuckDB relation holds is text
    that does not parse; a NULL cell is missing)."""
    types = {n: (d if isinstance(d, str) else d["type"]) for n, d in DECLARED.items()}
    return [
        {n: None if c is None else c if c == "" else parse_cell(c, types[n])
         for n, c in row.items()}
        for row in frame.to_dict("records")
    ]  # fmt: skip


@pytest.mark.parametrize("rows", [40, 997])
def test_the_check_of_held_text_is_the_check_in_memory(
    rows: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    frame = _cells(rows)
    con = duckdb.connect()
    con.register("cells_frame", frame)
    con.execute("CREATE TABLE cells AS SELECT * FROM cells_frame")
    held = check_columns(TextTable(con.table("cells")), DECLARED)
    memory = check_columns(_in_memory(frame), DECLARED)
    assert held == memory
    assert {v.column for v in held} == {"n", "when", "flag", "host", "gauge", "seen"}
    assert any(len(v.offenders) == 8 for v in held)  # (the most frequent, cut)
    # the check that matches each cell in its own queries (nothing held) finds the same
    monkeypatch.setattr(engines, "HELD_CELLS", 0)
    assert check_columns(TextTable(con.table("cells")), DECLARED) == memory
    # and the sentences the check writes are the same, word for word
    said = check_result(ToolResult("cells", TextTable(con.table("cells")),
                                   result_columns=DECLARED), mode="warn")  # fmt: skip
    monkeypatch.undo()
    again = check_result(ToolResult("cells", TextTable(con.table("cells")),
                                    result_columns=DECLARED), mode="warn")  # fmt: skip
    assert [f.message for f in said.findings] == [f.message for f in again.findings]
    assert said.findings


def test_a_text_column_declared_date_is_checked_from_the_held_parse() -> None:
    """A DuckDB VARCHAR column declared date (not a CSV's) is judged from the same held rows,
    as the in-memory check judges its strings."""
    frame = _cells(300)[["when", "host"]]
    con = duckdb.connect()
    con.register("cells_frame", frame)
    con.execute("CREATE TABLE cells AS SELECT * FROM cells_frame")
    declared = {"when": "date", "host": "string"}
    rows = [{k: v for k, v in r.items()} for r in frame.to_dict("records")]
    assert check_columns(con.table("cells"), declared) == check_columns(rows, declared)


def test_the_text_is_read_once_by_the_check_and_the_chart() -> None:
    """``view()`` of a CSV's text reads the table twice: the door's row count and the one
    parse DuckDB holds; the check's counts, first offender and most frequent offenders are
    queries over the held rows."""
    con = duckdb.connect()
    con.execute(
        "CREATE TABLE cells AS SELECT strftime(TIMESTAMP '2024-01-01' + to_seconds(range * 60),"
        " '%Y-%m-%d %H:%M:%S') AS ts, CASE WHEN range % 997 = 7 THEN 'n/a' ELSE "
        "(range % 50)::VARCHAR END AS latency, ['a', 'b'][(range % 2) + 1] AS region "
        "FROM range(5000)"
    )
    declared = {"ts": "date", "latency": "number", "region": "string"}
    got: list[Any] = []
    asked = logged_queries(con, lambda: got.append(view(TextTable(con.table("cells")), declared,
                                                 max_points=1000)))  # fmt: skip
    (drawn,) = got
    assert (drawn.kind, drawn.mark) == ("chart", "line")
    assert drawn.check.findings and "n/a" in drawn.check.findings[0].message
    assert len([sql for sql in asked if 'FROM "cells"' in sql]) == 2
