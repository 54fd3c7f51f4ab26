"""DuckDB's queries are built of DuckDB's expressions, never of SQL text (issue 39 item 3).

``chartkit.read.dialects`` builds them: a column by position (``at_position``), the text cells
read by ``chartkit.read.csvread``'s rules (``reads_as_*`` for the check, ``parsed_*`` for the
chart), a JSON value's kind and text. These tests hold the builders to csvread's own reading
of the same cells, read hostile column names through every changed path, and fail while any
f-string, ``%`` or ``.format`` builds SQL text in ``chartkit/``.
"""

from __future__ import annotations

import datetime as dt
import math
from typing import Any

import duckdb
import pandas as pd
import pytest

from chartkit._isodate import PLAIN_DATE, is_iso
from chartkit.errors import ChartkitError
from chartkit.read import dialects
from chartkit.read.csvread import parse_cell
from chartkit.read.dialects import DuckDB, at_position

# text cells at the edges of csvread's rules: numbers, booleans, dates, and neither
CELLS = [
    "0", "-3", "+7", "2.5", ".5", "5.", "1e-3", "1E+2", "1e999", "-1e999", "1" * 400, "nan",
    "inf", "0x10", " 1", "1 ", "1_000", "true", "True", "TRUE", "tRue", "false", "False",
    "FALSE", "yes", "1", "2024-01-05", "2024-01-05T10:30", "2024-01-05 10:30:00.123456",
    "2024-01-05T10:30:00Z", "2024-01-05T10:30:00+02:00", "2024-01-05T10:30:00.1234567",
    "2024-02-30", "2024-13-01", "20240105", "it's", "a\nb", "#1", "",
]  # fmt: skip


def _cells() -> Any:
    """A DuckDB relation of ``CELLS`` (and a NULL) in one VARCHAR column named hostilely."""
    frame = pd.DataFrame({'c"1\n': pd.Series([*CELLS, None], dtype=object)})
    return duckdb.connect().from_df(frame)


def _read(build: Any) -> list[Any]:
    """Each cell of ``_cells()`` through one builder, in order."""
    out = DuckDB().project(_cells(), [build(at_position(0)).alias("out")])
    return [v for (v,) in out.fetchall()]


def _reads(declared: str, text: str | None) -> bool:
    """Whether csvread reads ``text`` as ``declared`` (an empty cell is NULL in DuckDB)."""
    if not text:
        return False
    return not isinstance(parse_cell(text, declared), str)  # type: ignore[arg-type]


@pytest.mark.parametrize("declared", ["number", "boolean", "date"])
def test_the_check_reads_a_text_cell_as_csvread_reads_it(declared: str) -> None:
    build = getattr(dialects, f"reads_as_{declared}")
    assert _read(build) == [_reads(declared, c) for c in [*CELLS, None]]


def test_the_chart_reads_a_number_cell_as_a_finite_double_or_null() -> None:
    def expected(text: str | None) -> float | None:
        if not _reads("number", text):
            return None
        number = float(text or "")  # csvread's int, as a float
        return number if math.isfinite(number) else None  # (a 400-digit integer: left out)

    got = _read(dialects.parsed_number)
    assert got == [expected(c) for c in [*CELLS, None]]
    assert got[CELLS.index("2.5")] == 2.5 and got[CELLS.index("1e999")] is None


def test_the_chart_reads_a_boolean_cell_by_its_spellings() -> None:
    expected = [parse_cell(c, "boolean") if c and _reads("boolean", c) else None
                for c in [*CELLS, None]]  # fmt: skip
    assert _read(dialects.parsed_boolean) == expected
    assert expected.count(True) == 3 and expected.count(False) == 3


def test_the_chart_casts_only_the_plain_dates_and_counts_the_others() -> None:
    import re

    plain = re.compile(PLAIN_DATE)

    def expected(text: str | None) -> dt.datetime | None:
        if text is None or not is_iso(text) or not plain.fullmatch(text):
            return None
        return dt.datetime.fromisoformat(text)

    got = _read(dialects.parsed_date)
    assert got == [expected(c) for c in [*CELLS, None]]
    assert got[CELLS.index("2024-01-05 10:30:00.123456")] == dt.datetime(2024, 1, 5, 10, 30, 0,
                                                                         123456)  # fmt: skip
    # a zone, Z or ±HH:MM, and a seventh fractional digit: date strings DuckDB does not cast
    # exactly as the check reads them
    counted = DuckDB().aggregate(_cells(), [dialects.uncast_dates(at_position(0)).alias("n")])
    odd = [c for c in CELLS if is_iso(c) and not plain.fullmatch(c)]
    assert odd == [
        "2024-01-05T10:30:00Z", "2024-01-05T10:30:00+02:00", "2024-01-05T10:30:00.1234567",
    ]  # fmt: skip
    assert counted.fetchall() == [(len(odd),)]


def test_a_json_value_gives_its_kind_its_text_and_its_json() -> None:
    rel = duckdb.connect().sql(
        "SELECT * FROM (VALUES ('{\"a\": 1}'::JSON), ('\"it''s\"'::JSON), ('null'::JSON), "
        "(NULL), ('1.5'::JSON)) t(\"#1\")"
    )
    cell = at_position(0)
    got = DuckDB().project(rel, [dialects.json_kind(cell).alias("k"),
                                 dialects.json_text(cell).alias("t"),
                                 dialects.as_text(cell).alias("j")])  # fmt: skip
    assert got.fetchall() == [
        ("OBJECT", '{"a":1}', '{"a": 1}'),  # (the JSON text as it came)
        ("VARCHAR", "it's", '"it\'s"'),
        ("NULL", None, "null"),
        ("NULL", None, None),
        ("DOUBLE", "1.5", "1.5"),
    ]


def test_a_column_by_position_is_its_own_whatever_its_name() -> None:
    # ``a`` and ``A`` in one relation: DuckDB's binder finds ``A`` for the name ``a``
    rel = duckdb.connect().sql('SELECT 1 AS "A", 2 AS "a", 3 AS "#1"')
    assert rel is not None
    assert rel.project(duckdb.ColumnExpression("a")).fetchall() == [(1,)]  # (why by position)
    got = DuckDB().project(rel, [at_position(k).alias(f"c{k}") for k in (2, 1, 0)])
    assert got.columns == ["c2", "c1", "c0"] and got.fetchall() == [(3, 2, 1)]
    for bad in (-1, 1.0, True, "1"):
        with pytest.raises(ChartkitError, match="a column position is a whole number from 0"):
            at_position(bad)  # type: ignore[arg-type]
