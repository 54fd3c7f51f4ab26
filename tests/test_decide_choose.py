"""The chooser (chartkit.plan.choose): the columns a chart draws, from profiles alone.

The in-memory planner and the engine path both choose through it, so these rules are what
either draws: the automatic x is the first date, else the first category that holds a value
and is no identifier, else a number not already drawn; the automatic color is the first usable
category of 2 to 10 values not already drawn; numbers with no finding come first.
"""

from __future__ import annotations

import doctest

import duckdb
import pandas as pd
import pytest

import chartkit.plan.choose as choose
from chartkit import ColumnViolation, view
from chartkit.columns import ColumnDeclaration
from chartkit.plan.encode import ColumnProfile


def q(
    name: str,
    vl: str,
    distinct: int = 0,
    *,
    rows: int = 100,
    usable: bool = True,
    broken: bool = False,
) -> ColumnProfile:
    decl = ColumnDeclaration({"quantitative": "number", "temporal": "date"}.get(vl, "string"))
    violation = None
    if broken or not usable:
        affected = rows if not usable else 1
        violation = ColumnViolation(
            "column-type-mismatch", name, decl.type, decl.nullable, None, "null", affected, rows,
            affected, ("null",),
        )  # fmt: skip
    return ColumnProfile(name, vl, "declared", decl, violation, True, distinct, rows)  # type: ignore[arg-type]


def test_the_doctests_hold() -> None:
    result = doctest.testmod(choose, report=False)
    assert result.attempted > 0 and result.failed == 0


def test_the_automatic_x_is_a_date_then_a_category_then_a_number() -> None:
    gb, lun = q("gb", "quantitative"), q("lun", "quantitative")
    host, at = q("host", "nominal", 4), q("at", "temporal")
    assert choose.automatic_x([gb, host, at], [gb]) is at
    assert choose.automatic_x([gb, host], [gb]) is host
    assert choose.automatic_x([gb, lun], [gb]) is lun
    assert choose.automatic_x([gb], [gb]) is None  # a lone measure: a histogram
    # an identifier (over 80% distinct of over 50 rows), an empty category, an unusable date
    ident, empty = q("id", "nominal", 90), q("none", "nominal", 0)
    gone = q("at", "temporal", usable=False)
    assert choose.automatic_x([gone, ident, empty, gb, lun], [gb]) is lun
    assert choose.categories([ident, empty, host]) == [host]


def test_numbers_with_no_finding_come_first_in_their_order() -> None:
    a, b = q("a", "quantitative", broken=True), q("b", "quantitative")
    c, d = q("c", "quantitative"), q("d", "quantitative", usable=False)
    assert choose.measures([a, b, c, d]) == [b, c, a]


@pytest.mark.parametrize(
    ("distinct", "colored"), [(0, False), (1, False), (2, True), (10, True), (11, False)]
)
def test_the_automatic_color_tells_two_to_ten_values_apart(distinct: int, colored: bool) -> None:
    site = q("site", "nominal", distinct)
    found = choose.auto_color([q("gb", "quantitative"), site], exclude=set())
    assert (found is site) is colored
    assert choose.auto_color([site], exclude={"site"}) is None
    assert choose.auto_color([q("site", "nominal", 3, usable=False)], exclude=set()) is None


def test_a_category_too_wide_to_split_by_is_found_unless_an_identifier() -> None:
    wide = q("city", "nominal", 21, rows=1000)
    ident = q("id", "nominal", 990, rows=1000)
    assert choose.too_wide([ident, q("site", "nominal", 20), wide]) is wide
    assert choose.too_wide([ident]) is None


def test_pandas_and_duckdb_choose_the_same_columns_over_max_points() -> None:
    """The automatic chart of a frame with a date, two categories (one an identifier-like
    column of unique values) and two measures: the same x, y and color on both paths."""
    n = 6000
    frame = pd.DataFrame(
        {
            "ticket": [f"t{i}" for i in range(n)],
            # every minute holds a row of each site: an entity, a line each
            "at": pd.date_range("2024-01-01", periods=n // 3, freq="min").repeat(3),
            "gb": [float(i % 97) for i in range(n)],
            "lun": [i % 13 for i in range(n)],
            "site": ["north", "south", "east"] * (n // 3),
        }
    )
    decl = {"ticket": "string", "at": "date", "gb": "number", "lun": "number", "site": "string"}
    con = duckdb.connect()
    con.register("f", frame)
    mine = view(frame, decl)
    theirs = view(con.sql("SELECT * FROM f"), decl)
    for v in (mine, theirs):
        assert v.mark == "line"
        assert (v.encodings["x"].column, v.encodings["y"].column) == ("at", "gb")
        assert v.encodings["color"].column == "site"
    assert [a.picks() for a in mine.alternatives] == [a.picks() for a in theirs.alternatives]
