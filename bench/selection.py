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
- **DuckDB, a brushed range charted again**: ``View.drill`` of the brush — the brushed rows
  alone (``chartkit.selection.selected_frame``: the filtered relation, checked against the same
  declaration and reduced in DuckDB), against the hand-written GROUP BY of the same buckets
  over the same ``WHERE``. Goal: under 1 s.
- Beside each DuckDB case, the first page alone (``QueryBackend.page`` of the compiled terms:
  the filter and the LIMIT in one query, no count) and the full ``rows_behind`` (that page,
  then one counting pass for the total and the offenders per column).
- **In memory, a clicked bar**: ``--memory-rows`` rows as a pandas frame; ``rows_behind`` of one
  bar on a fresh View (nothing kept), of another bar of the same View, and that bar's next page,
  against ``frame[(frame.g == v) & frame.m.notna()]`` (its first page and its length) and a
  floor (one comparison over ``g``). Goal: under 100 ms at 1M rows.
- **In memory, a brushed hour**: the same number of rows as a list of dicts with ISO times (the
  explorer's case), drawn as a line; an hour brushed on a fresh View, against the pandas filter
  on ``pd.DataFrame(rows)`` with its times parsed, and a floor over times already parsed. Then
  that hour charted again (``View.drill``) against the filter, 30 s buckets and a mean by hand.
  Goals: under 100 ms; under 1 s.

Both sides must find the same number of rows, or the script exits with an error. Times are the
median wall clock of ``--rounds`` rounds, interleaved; run ``uptime`` beside it to read the load.
"""

from __future__ import annotations

import argparse
import datetime as dt
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import duckdb
import numpy as np
import pandas as pd

from chartkit import Selection, view
from chartkit.backends import backend_for
from chartkit.backends.clauses import where
from chartkit.backends.query import QueryBackend


def timed(fn: Callable[[], Any], rounds: int) -> tuple[float, Any]:
    times, out = [], None
    for _ in range(rounds):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out


def say(what: str, ours: float, theirs: float, goal: float) -> None:
    verdict = "meets" if ours < goal else "misses"
    print(f"  {what:<46} chartkit {ours * 1000:8.1f} ms   by hand {theirs * 1000:8.1f} ms   "
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
    say(f"clicked bar ({ours[0]:,} rows), with count", a, b, 0.5)
    backend = backend_for(con.table("t"))
    assert isinstance(backend, QueryBackend)
    first_page(con, backend, mark, rounds, "g = $v AND m IS NOT NULL AND isfinite(m)", {"v": value})

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
    say(f"brushed range ({ours[0]:,} rows), with count", a, b, 0.5)
    where_brush = "ts >= $lo AND ts < $hi AND m IS NOT NULL AND isfinite(m)"
    args = {"lo": span.start, "hi": span.end}  # type: ignore[union-attr]
    first_page(con, backend, brush, rounds, where_brush, args)

    def ours_again() -> int:
        again = line.drill(brush)
        assert again.kind == "chart" and again.marks is not None, again.reason
        step = again.reduction.bucket_seconds
        assert step, "the brushed range is drawn bucketed"
        ours_again.step = step  # type: ignore[attr-defined]
        return int(again.marks["rows"].sum()) if "rows" in again.marks else len(again.marks)

    def theirs_again() -> int:
        step = ours_again.step  # type: ignore[attr-defined]
        got = con.execute(
            f"SELECT epoch_ms(ts) // {step * 1000} AS b, avg(m), count(m) FROM t "
            f"WHERE {where_brush} GROUP BY b", args,
        ).df()  # fmt: skip
        return int(got["count(m)"].sum())

    ours_rows = ours_again()
    if ours_rows != theirs_again():
        sys.exit(f"the range charted again: chartkit drew {ours_rows}, the query {theirs_again()}")
    a, _ = timed(ours_again, rounds)
    b, _ = timed(theirs_again, rounds)
    say(f"brushed range charted again ({ours_rows:,} rows)", a, b, 1.0)


def first_page(
    con: Any, backend: QueryBackend, selection: Selection, rounds: int, sql: str,
    args: dict[str, Any],
) -> None:  # fmt: skip
    """The first page alone: the compiled terms' ``page`` against the same LIMIT by hand."""

    def ours() -> int:
        return len(backend.page(where(selection.clauses, selection.kind), 0, 50))

    def theirs() -> int:
        return len(con.execute(f"SELECT * FROM t WHERE {sql} LIMIT 50", args).df())

    if ours() != theirs():
        sys.exit(f"the first page: chartkit found {ours()} rows, the query {theirs()}")
    a, _ = timed(ours, rounds)
    b, _ = timed(theirs, rounds)
    say("  its first page alone", a, b, 0.5)


def floor_say(what: str, ours: float, theirs: float, floor: float, goal: float) -> None:
    verdict = "meets" if ours < goal else "misses"
    print(f"  {what:<40} chartkit {ours * 1000:7.1f} ms   pandas {theirs * 1000:7.1f} ms   "
          f"floor {floor * 1000:6.1f} ms   ({verdict} the {goal * 1000:.0f} ms goal)")  # fmt: skip


def cold(make: Callable[[], Any], fn: Callable[[Any], Any], rounds: int) -> tuple[float, Any]:
    """The median of ``fn(make())`` timed alone: each round on a fresh view (nothing kept)."""
    times, out = [], None
    for _ in range(rounds):
        fresh = make()
        t0 = time.perf_counter()
        out = fn(fresh)
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out


def memory_bench(rows: int, rounds: int) -> None:
    """A clicked bar of a pandas frame, an hour brushed on a list of dicts with ISO times (the
    explorer's case), and the brushed hour charted again; each against pandas and a floor."""
    i = np.arange(rows)
    frame = pd.DataFrame(
        {"g": pd.Series([f"g{k}" for k in range(40)])[i % 40].to_numpy(),
         "m": np.where(i % 97 == 0, np.nan, (i % 1000).astype(float))}
    )  # fmt: skip
    decl = {"g": "string", "m": "number"}
    t0 = time.perf_counter()
    v = view(frame, decl, x="g", y="m", mode="off")
    print(f"In memory, {rows:,} rows: view {time.perf_counter() - t0:.2f} s")
    value = Selection.of_mark(v, 0).clauses[-1].value  # type: ignore[union-attr]

    def ours(w: Any) -> tuple[int, int]:
        page = w.rows_behind(Selection.of_mark(w, 0), page_size=50)
        return page.total, len(page.rows)

    def theirs() -> tuple[int, int]:
        chosen = frame[(frame["g"] == value) & frame["m"].notna()]
        return len(chosen), len(chosen.head(50))

    def floor() -> int:  # one comparison over the key column, nothing placed or judged
        return len(frame.iloc[np.flatnonzero((frame["g"] == value).to_numpy())[:50]])

    if ours(v) != theirs():
        sys.exit(f"in memory: chartkit found {ours(v)}, pandas {theirs()}")
    a, _ = cold(lambda: view(frame, decl, x="g", y="m", mode="off"), ours, rounds)
    b, _ = timed(theirs, rounds)
    f, _ = timed(floor, rounds)
    floor_say(f"clicked bar, first ({ours(v)[0]:,} rows)", a, b, f, 0.1)
    other = Selection.of_mark(v, 1)
    a, _ = timed(lambda: v.rows_behind(other, page=1, page_size=50), 1)  # columns kept
    floor_say("another bar of the same view", a, b, f, 0.1)
    a, _ = timed(lambda: v.rows_behind(other, page=2, page_size=50), rounds)
    floor_say("its next page (evaluated once)", a, b, f, 0.1)

    t0 = dt.datetime(2024, 1, 1, tzinfo=dt.UTC)
    regions = ["eu-west-1", "us-east-1", "us-west-2", "ap-south-1", "sa-east-1"]
    listed = [
        {"ts": (t0 + dt.timedelta(seconds=k)).isoformat(),
         "latency_ms": round(20 + (k * 7919 % 1000) / 10, 1), "region": regions[k % 5]}
        for k in range(rows)
    ]  # fmt: skip
    ldecl = {"ts": "date", "latency_ms": "number", "region": "string"}
    t1 = time.perf_counter()
    line = view(listed, ldecl, mode="off")
    took = time.perf_counter() - t1
    print(f"In memory, {rows:,} rows as a list of dicts (ISO times): view {took:.2f} s")
    hour = ["2024-01-01T00:00:00", "2024-01-01T01:00:00"]
    brush = Selection.from_interval(line, {"ts": hour})
    span = brush.clauses[-1]
    lo, hi = pd.Timestamp(span.start, tz="UTC"), pd.Timestamp(span.end, tz="UTC")  # type: ignore[union-attr]
    plain = pd.DataFrame(listed)

    def ours_brush(w: Any) -> tuple[int, int]:
        page = w.rows_behind(Selection.from_interval(w, {"ts": hour}), page_size=50)
        return page.total, len(page.rows)

    def theirs_brush() -> tuple[int, int]:  # the frame a user has, its times parsed here
        ts = pd.to_datetime(plain["ts"], utc=True, format="ISO8601")
        chosen = plain[(ts >= lo) & (ts < hi) & plain["latency_ms"].notna()]
        return len(chosen), len(chosen.head(50))

    parsed = pd.to_datetime(plain["ts"], utc=True, format="ISO8601").dt.tz_convert(None).to_numpy()

    def floor_brush() -> int:  # the times already parsed: two comparisons
        lo64, hi64 = lo.tz_convert(None).to_datetime64(), hi.tz_convert(None).to_datetime64()
        return len(plain.iloc[np.flatnonzero((parsed >= lo64) & (parsed < hi64))[:50]])

    if ours_brush(line) != theirs_brush():
        sys.exit(f"the brush in memory: chartkit found {ours_brush(line)}, pandas "
                 f"{theirs_brush()}")  # fmt: skip
    a, _ = cold(lambda: view(listed, ldecl, mode="off"), ours_brush, rounds)
    b, _ = timed(theirs_brush, rounds)
    f, _ = timed(floor_brush, rounds)
    floor_say(f"brushed hour, first ({ours_brush(line)[0]:,} rows)", a, b, f, 0.1)

    def drilled(w: Any) -> int:
        return len(w.drill(Selection.from_interval(w, {"ts": hour})).marks)

    def theirs_drill() -> int:  # the same chart by hand: 30 s buckets, a mean per region
        ts = pd.to_datetime(plain["ts"], utc=True, format="ISO8601")
        chosen = plain[(ts >= lo) & (ts < hi) & plain["latency_ms"].notna()]
        bucket = ts[chosen.index].dt.floor("30s")
        return len(chosen.groupby([bucket, chosen["region"]])["latency_ms"].mean())

    if hasattr(line, "drill"):
        a, marks = cold(lambda: view(listed, ldecl, mode="off"), drilled, rounds)
        b, _ = timed(theirs_drill, rounds)
        say(f"brushed hour charted again ({marks} marks)", a, b, 1.0)


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
