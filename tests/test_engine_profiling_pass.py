"""The profiling pass of a DuckDB frame reads each float's plain bounds (issue 39 item 2).

DuckDB orders NaN above +inf, so a float whose least and greatest values are finite holds
neither a NaN nor an infinity: the pass then counts, bounds and tests whole-ness with no value
tested for finiteness, and tells the distinct categories of the rows a line keeps from the
few rows it leaves out. Whatever the floats hold, its answers are those of the query that
tests every value (``_facts_query(plain=False)``), and ``view()`` draws what pandas draws.
"""

from __future__ import annotations

from typing import Any

import duckdb
import pytest
from test_engine_counting import logged_queries

from chartkit import view
from chartkit.backends import query as query_module
from chartkit.backends.query import QueryBackend
from chartkit.read.engines import read_engine_frame

MEASURES = {
    "finite": "(range % 1000) * 0.5",
    "null every 97th": "CASE WHEN range % 97 = 0 THEN NULL ELSE (range % 1000) * 0.5 END",
    "a NaN": "CASE WHEN range = 7 THEN 'nan'::DOUBLE ELSE range * 0.5 END",
    "an infinity": "CASE WHEN range = 7 THEN '-inf'::DOUBLE ELSE range * 0.5 END",
    "-0.0 and whole": "CASE WHEN range % 3 = 0 THEN -0.0 ELSE (range % 50)::DOUBLE END",
    "only NaN and null": "CASE WHEN range % 2 = 0 THEN 'nan'::DOUBLE END",
    "a decimal": "((range % 1000) * 0.25)::DECIMAL(18, 2)",
    "a whole decimal": "(range % 1000)::DECIMAL(18, 2)",
    # the rows missing a value are the first and last and all of region 'd': the rows kept
    # span less time and hold one region fewer
    "ends and a region": "CASE WHEN range < 5 OR range > 2990 OR range % 4 = 3 THEN NULL "
    "ELSE range * 0.5 END",
}


def _table(measure: str, rows: int, *, null_regions: bool = True) -> Any:
    """``ts`` a minute apart, ``latency`` the measure, ``region`` 4 strings (a null on every
    11th row, ``null_regions``)."""
    con = duckdb.connect()
    holes = "range % 11 = 5" if null_regions else "FALSE"
    con.execute(
        "CREATE TABLE m AS SELECT TIMESTAMP '2024-01-01' + to_seconds(range * 60) AS ts, "
        f"({MEASURES[measure]}) AS latency, "
        f"CASE WHEN {holes} THEN NULL ELSE ['a', 'b', 'c', 'd'][(range % 4) + 1] END "
        f"AS region FROM range({rows})"
    )
    return con


@pytest.mark.parametrize("few", [True, False], ids=["few rows", "past KEY_VALUES"])
@pytest.mark.parametrize("measure", list(MEASURES))
def test_the_plain_facts_are_those_of_every_value_tested(
    measure: str, few: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every row's facts and the numbers' facts are the same whether the floats' bounds let
    the pass test no value or not, and are asked in one query (past ``KEY_VALUES`` rows, set
    low here, after the probe of the first rows): no other question rides on the pass."""
    if not few:
        monkeypatch.setattr(query_module, "KEY_VALUES", 100)
    con = _table(measure, 3000)
    reading = read_engine_frame(con.table("m"))
    assert reading is not None
    read = ["region", "ts", "latency"]
    plain = QueryBackend(reading)
    plain._counted = {}  # (a reading's facts are shared: counted afresh here)
    asked = logged_queries(con, lambda: plain.facts(read, distinct=["region"], numbers=["latency"]))
    tested = QueryBackend(reading)
    tested._counted = {}
    want, numbers = query_module._facts_query(
        tested, read, {"region"}, (), ["latency"], distinct=True
    )
    assert plain.remembered() == want
    got = plain.numbers(["latency"])
    if numbers["latency"].values:
        assert got["latency"] == numbers["latency"]
    # the pass, asked again when a float's bounds are not finite; the probe past KEY_VALUES;
    # past KEY_VALUES a number whose first rows do not settle its distinct values is counted
    finite = measure not in {"a NaN", "an infinity", "only NaN and null"}
    assert len(asked) >= (1 if finite else 2) + (0 if few else 1)
    assert len(asked) <= (1 if finite else 2) + (0 if few else 2)


@pytest.mark.parametrize("measure", ["null every 97th", "ends and a region", "a NaN"])
def test_a_line_past_key_values_rows_is_the_line_pandas_draws(measure: str) -> None:
    """Past ``KEY_VALUES`` rows (the probe reads the first rows only), whether the rows a line
    keeps are told by the plain pass, by the first rows or counted, the chart and its notes
    are those of the same rows in pandas."""
    con = _table(measure, 120_000)
    decl = {"ts": "date", "latency": {"type": "number", "nullable": True}, "region":
            {"type": "string", "nullable": True}}  # fmt: skip
    got = view(con.table("m"), decl, max_points=1000)
    own = view(con.table("m").df(), decl, max_points=1000)
    assert (got.kind, got.mark) == ("chart", "line")
    assert list(got.spec["datasets"].values()) == list(own.spec["datasets"].values())
    assert [n for n in got.notes if "computed in duckdb" not in n] == list(own.notes)


def test_the_profiling_pass_tests_no_value_when_every_float_is_finite() -> None:
    """A nullable DOUBLE whose bounds are finite: the pass over every row tests no value for
    NaN or finiteness (the count, the bounds and the rows kept are read plainly), and counts
    no category again over the rows a line keeps; the reduction counts no measure of its own
    where every row it keeps holds one."""
    con = _table("null every 97th", 120_000, null_regions=False)
    decl = {"ts": "date", "latency": {"type": "number", "nullable": True}, "region": "string"}
    queries = logged_queries(con, lambda: view(con.table("m"), decl, max_points=1000))
    # the count at the door, the first rows, the pass, the reduction
    assert len(queries) == 4, queries
    every_row = queries[2]
    assert "isfinite" not in every_row and "isnan" not in every_row, every_row
    # the regions of every row only
    assert every_row.lower().count("count(distinct") == 1, every_row
    # every row the reduction keeps holds a latency: its rows kept are each point's tally
    assert 'count("_k' not in queries[-1], queries[-1]


def test_the_pass_counts_no_rows_kept_when_the_reduction_tells_them() -> None:
    """A line whose measure misses values: the pass counts every row only (no count, span or
    series of the rows holding each column), the reduction tells the line's own rows, span
    and series (the least and greatest time of each group), and the line is pandas'."""
    con = _table("ends and a region", 120_000)
    decl = {"ts": "date", "latency": {"type": "number", "nullable": True}, "region":
            {"type": "string", "nullable": True}}  # fmt: skip
    queries = logged_queries(con, lambda: view(con.table("m"), decl, max_points=1000))
    # the count at the door, the first rows, the pass, the rows with no value (two columns
    # may miss one), the reduction, and again with the bucket of the rows it keeps (they hold
    # one region fewer: fewer series, a finer bucket)
    assert len(queries) == 6, queries
    every_row, reductions = queries[2], queries[4:]
    # no aggregate over the rows kept: no FILTER, no helper flagging them, no second count
    assert "filter" not in every_row.lower() and "__ok" not in every_row, every_row
    assert every_row.lower().count("count()") == 1, every_row
    assert 'min("_k0") AS "__lo"' in reductions[0] and 'max("_k0") AS "__hi"' in reductions[0]
    assert "__lo" not in reductions[1]  # (the facts of its rows are known by then)
    got = view(con.table("m"), decl, max_points=1000)
    own = view(con.table("m").df(), decl, max_points=1000)
    assert list(got.spec["datasets"].values()) == list(own.spec["datasets"].values())
    assert [n for n in got.notes if "computed in duckdb" not in n] == list(own.notes)


def _ends(rows: int, cut: int, step: int, *, regions: bool) -> Any:
    """``ts`` ``step`` seconds apart, ``latency`` null on the first and last ``cut`` rows (and
    on every 7th row), ``region`` 3 strings (a null on every 13th row), when ``regions``; a
    negative ``cut``: ``latency`` null on the first -``cut`` rows, ``ts`` on the last."""
    con = duckdb.connect()
    region = "CASE WHEN range % 13 = 4 THEN NULL ELSE ['a', 'b', 'c'][(range % 3) + 1] END"
    first, last = abs(cut), rows - abs(cut)
    con.execute(
        "CREATE TABLE m AS SELECT CASE WHEN $late AND range >= $last THEN NULL ELSE "
        "TIMESTAMP '2024-01-01' + to_seconds(range * $step) END AS ts, "
        "CASE WHEN range < $first OR (NOT $late AND range >= $last) OR range % 7 = 3 THEN NULL "
        "ELSE (range % 100) * 0.5 END AS latency"
        + (f", {region} AS region" if regions else "")
        + " FROM range($rows)",
        {"step": step, "first": first, "last": last, "late": cut < 0, "rows": rows},
    )
    return con


ENDS = {
    # every row spans 999.5 minutes (5-minute buckets for 500 positions), the rows kept
    # 497.5 (1-minute buckets), and 854 of them are kept: the line is bucketed again
    "the bucket moves": (2000, 502, 30, False, 500, ["300", "60"]),
    # three regions and a missing one: 125 positions; every row spans 1999 hours (a day's
    # buckets), the rows kept 1499 (12 hours': 1499 / 12 + 1 <= 125)
    "the bucket moves, in series": (2000, 260, 3600, True, 500, ["86400", "43200"]),
    # 1400 times and 1029 latencies, but only the 686 rows kept hold both: under max_points,
    # bucketed for the chart's width only (of their span: 1-minute buckets)
    "the rows kept fit": (2000, -600, 30, False, 1000, ["300", "60"]),
    # the rows missing a value move the span less than a bucket: asked once
    "the bucket stays": (2000, 3, 30, False, 500, ["300"]),
}


@pytest.mark.parametrize("case", list(ENDS))
def test_rows_missing_values_at_the_ends_move_the_bucket_as_memory_moves_it(case: str) -> None:
    """A line planned from every row's span is planned again from its own rows' span (the
    reduction tells it) when the rows missing a value at the ends move it across a bucket:
    asked again with the bucket memory chooses, and drawn and said as pandas draws it."""
    rows, cut, step, regions, max_points, widths = ENDS[case]
    con = _ends(rows, cut, step, regions=regions)
    decl: dict[str, Any] = {"ts": {"type": "date", "nullable": cut < 0},
                            "latency": {"type": "number", "nullable": True}}  # fmt: skip
    if regions:
        decl["region"] = {"type": "string", "nullable": True}
    queries = logged_queries(con, lambda: view(con.table("m"), decl, max_points=max_points))
    grouped = [q for q in queries if "GROUP BY" in q and "__kept" in q]
    asked = [q.split("time_bucket(to_seconds(")[1].split(")")[0] if "time_bucket" in q
             else None for q in grouped]  # fmt: skip
    assert asked == widths, grouped
    assert '"__lo"' in grouped[0]  # (the first reduction tells the span of the rows it keeps)
    got = view(con.table("m"), decl, max_points=max_points)
    own = view(con.table("m").df(), decl, max_points=max_points)
    assert (got.kind, got.mark) == (own.kind, own.mark) == ("chart", "line")
    assert got.spec["encoding"] == own.spec["encoding"] if "encoding" in own.spec else True
    assert list(got.spec["datasets"].values()) == list(own.spec["datasets"].values())
    assert [n for n in got.notes if "computed in duckdb" not in n] == list(own.notes)
