"""The rows behind a mark, against the hand-written query for the same rows. (Not named
select.py: run as a script, that name would shadow the standard library's select module.)

    .venv/bin/python bench/selection.py [--rows 20_000_000] [--memory-rows 1_000_000] [--rounds 5]

- **DuckDB, a clicked bar**: a ``--rows`` table made inside DuckDB (``g``, 40 strings; ``m``, a
  double, null on every 97th row; ``ts``, one timestamp a second), drawn by ``view()`` as bars of
  the mean ``m`` per ``g`` (reduced in DuckDB). Timed: ``Selection.of_mark`` +
  ``View.rows_behind(page_size=50)`` — the rows behind one bar, their count and the offenders
  per column — against the hand-written SQL for the same page and count
  (``WHERE g = ? AND m IS NOT NULL AND isfinite(m)``). Goal: the first page under 0.5 s.
- **DuckDB, a brushed time range**: the line of the mean ``m`` over ``ts`` (bucketed in DuckDB),
  brushed over a tenth of its span (``Selection.from_interval``), against ``WHERE ts >= ? AND
  ts < ?`` (the covered buckets' span) with the same placement tests.
- **In memory, a clicked bar**: ``--memory-rows`` rows as a pandas frame; ``rows_behind`` of one
  bar against ``frame[(frame.g == v) & frame.m.notna()]`` (its first page and its length).
  Goal: under 100 ms at 1M rows.

Both sides must find the same number of rows, or the script exits with an error. Times are the
median wall clock of ``--rounds`` rounds, interleaved; run ``uptime`` beside it to read the load.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import duckdb
import numpy as np
import pandas as pd

from chartkit import Selection, view


def timed(fn: Callable[[], Any], rounds: int) -> tuple[float, Any]:
    times, out = [], None
    for _ in range(rounds):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out


def say(what: str, ours: float, theirs: float, goal: float) -> None:
    verdict = "meets" if ours < goal else "misses"
    print(f"  {what:<34} chartkit {ours * 1000:8.1f} ms   by hand {theirs * 1000:8.1f} ms   "
          f"({ours / theirs:5.1f}x; {verdict} the {goal * 1000:.0f} ms goal)")  # fmt: skip


def duckdb_bench(rows: int, rounds: int) -> None:
    con = duckdb.connect()
    t0 = time.perf_counter()
    con.execute(
        f"""CREATE TABLE t AS SELECT 'g' || (i % 40)::VARCHAR AS g,
            CASE WHEN i % 97 = 0 THEN NULL ELSE (i % 1000)::DOUBLE END AS m,
            TIMESTAMP '2024-01-01' + to_seconds(i) AS ts FROM range({rows}) r(i)"""
    )
    print(f"DuckDB table of {rows:,} rows made in {time.perf_counter() - t0:.1f} s")
    decl = {"g": "string", "m": "number", "ts": "date"}
    t0 = time.perf_counter()
    bars = view(con.table("t"), decl, x="g", y="m", mode="off")
    print(f"  view (bars, reduced in DuckDB)     {time.perf_counter() - t0:.2f} s")
    mark = Selection.of_mark(bars, 0)
    value = mark.clauses[-1].value  # type: ignore[union-attr]

    def ours_bar() -> tuple[int, int]:
        page = bars.rows_behind(Selection.of_mark(bars, 0), page_size=50)
        return page.total, len(page.rows)

    def theirs_bar() -> tuple[int, int]:
        where = "g = $v AND m IS NOT NULL AND isfinite(m)"
        n = con.execute(f"SELECT count(*) FROM t WHERE {where}", {"v": value}).fetchone()
        got = con.execute(f"SELECT * FROM t WHERE {where} LIMIT 50", {"v": value}).df()
        return int(n[0]) if n else 0, len(got)

    for _ in range(rounds):
        a, ours = timed(ours_bar, 1)
        b, theirs = timed(theirs_bar, 1)
        if ours != theirs:
            sys.exit(f"the clicked bar: chartkit found {ours}, the query {theirs}")
    a, _ = timed(ours_bar, rounds)
    b, _ = timed(theirs_bar, rounds)
    say(f"clicked bar ({ours[0]:,} rows)", a, b, 0.5)

    t0 = time.perf_counter()
    line = view(con.table("t"), decl, x="ts", y="m", mode="off")
    print(f"  view (line, bucketed in DuckDB)    {time.perf_counter() - t0:.2f} s")
    assert line.marks is not None
    drawn = pd.to_datetime(line.marks[next(e.field for c, e in line.encodings.items()
                                           if c == "x")])  # fmt: skip
    lo, hi = drawn.min(), drawn.min() + (drawn.max() - drawn.min()) / 10
    brush = Selection.from_interval(line, {"ts": [lo.isoformat(), hi.isoformat()]})
    span = brush.clauses[-1]

    def ours_brush() -> tuple[int, int]:
        page = line.rows_behind(brush, page_size=50)
        return page.total, len(page.rows)

    def theirs_brush() -> tuple[int, int]:
        where = "ts >= $lo AND ts < $hi AND m IS NOT NULL AND isfinite(m)"
        args = {"lo": span.start, "hi": span.end}  # type: ignore[union-attr]
        n = con.execute(f"SELECT count(*) FROM t WHERE {where}", args).fetchone()
        got = con.execute(f"SELECT * FROM t WHERE {where} LIMIT 50", args).df()
        return int(n[0]) if n else 0, len(got)

    ours = ours_brush()
    theirs = theirs_brush()
    if ours != theirs:
        sys.exit(f"the brushed range: chartkit found {ours}, the query {theirs}")
    a, _ = timed(ours_brush, rounds)
    b, _ = timed(theirs_brush, rounds)
    say(f"brushed range ({ours[0]:,} rows)", a, b, 0.5)


def memory_bench(rows: int, rounds: int) -> None:
    i = np.arange(rows)
    frame = pd.DataFrame(
        {"g": pd.Series([f"g{k}" for k in range(40)])[i % 40].to_numpy(),
         "m": np.where(i % 97 == 0, np.nan, (i % 1000).astype(float))}
    )  # fmt: skip
    t0 = time.perf_counter()
    v = view(frame, {"g": "string", "m": "number"}, x="g", y="m", mode="off")
    print(f"In memory, {rows:,} rows: view {time.perf_counter() - t0:.2f} s")
    value = Selection.of_mark(v, 0).clauses[-1].value  # type: ignore[union-attr]

    def ours() -> tuple[int, int]:
        page = v.rows_behind(Selection.of_mark(v, 0), page_size=50)
        return page.total, len(page.rows)

    def theirs() -> tuple[int, int]:
        chosen = frame[(frame["g"] == value) & frame["m"].notna()]
        return len(chosen), len(chosen.head(50))

    if ours() != theirs():
        sys.exit(f"in memory: chartkit found {ours()}, pandas {theirs()}")
    a, _ = timed(ours, rounds)
    b, _ = timed(theirs, rounds)
    say(f"clicked bar ({ours()[0]:,} rows)", a, b, 0.1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=lambda s: int(s.replace("_", "")), default=20_000_000)
    parser.add_argument("--memory-rows", type=lambda s: int(s.replace("_", "")),
                        default=1_000_000)  # fmt: skip
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    memory_bench(args.memory_rows, args.rounds)
    duckdb_bench(args.rows, args.rounds)


if __name__ == "__main__":
    main()
