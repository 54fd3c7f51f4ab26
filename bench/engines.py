"""The check and the chart where the data lives: DuckDB, polars lazy and Spark against pandas.

    .venv/bin/python bench/engines.py [--rows 100_000_000] [--small 10_000_000] [--skip-spark]

A Parquet table is generated inside DuckDB (never in Python): ``at`` (one timestamp a second),
``gb`` (a double, null on every 97th row — the finding), ``host`` (three strings) and ``lun``
(a bigint). Every contender runs in its own process, so its peak RSS is its own (``wait4``):

- **chartkit on DuckDB**: ``check_columns`` and ``view`` (a line of ``gb`` over ``at``, one
  series per ``host``) on ``duckdb.read_parquet(...)`` — the check's counts and first offender
  and at most ``max_points`` aggregated rows leave DuckDB.
- **chartkit on polars lazy**: the same on ``pl.scan_parquet(...)``.
- **chartkit on Spark local**: the same on ``spark.read.parquet(...)`` (``local[2]``); the time
  excludes the JVM's start, the RSS is the Python process's (the JVM's peak is printed apart)
  and its CPU column counts the Python process only.
- **pandas first**: ``pd.read_parquet`` (pyarrow), then ``check_columns`` and ``view`` on the
  pandas frame — what a user does without an engine path. At the large size it is run only
  when the machine's memory allows; otherwise its measured 10M-row RSS is scaled by rows and
  labelled as such.

At the small size each contender then draws the other chart kinds (``CHARTS``: bars of a sum,
a line per day, a histogram, a heatmap — each computed in the engine for the engines), timed
after its peak RSS above was read; their table gives the peak RSS with them.

Then the peer a user writes by hand (issue 19, item 5): a 20,000,000-row DuckDB table (``ts``,
one timestamp a second; ``latency``, a double; ``region``, 4 strings), drawn by ``view()`` as a
line of the mean latency per time bucket per region, against **the two queries that draw the
same chart by hand**: one profile query (the rows, each column's non-null count, the span and
the regions) and one ``GROUP BY`` of the bucket ``view()`` picks for that span and
``max_points`` (fetched as a pandas frame). Rounds interleaved in this process, median wall and
CPU time, and ``view()``'s ratio to the peer (goal: within 1.3x), printed three ways: the
median of each round's wall-clock ratio, the ratio of the median walls, and the ratio of CPU.
Both must draw the same number of points or the script exits with an error. ``--peer-rows N``
sets the size, ``--peer-only`` runs it alone.

First, in this process: ``check_columns`` on 1,000,000 × 4 typed cells held by a polars
DataFrame, a pyarrow Table and a polars LazyFrame (decided from the dtypes and null counts),
against converting the polars frame to pandas first (the old path).

Times are wall clock, with the process's CPU time (all its threads) in parentheses: on a
shared machine the wall time says how loaded it was, the CPU time what the work cost. The load
average is printed after each set. Every contender must report the same finding (column,
affected, total) or the script exits with an error. Figures in README.md / bench/README.md
come from this script's output.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DECL = {"at": "date", "gb": "number", "host": "string", "lun": "number"}
# the other chart kinds, each computed in the engine over max_points (bench at the small size)
CHARTS = {
    "bars of the sum per host": {"x": "host", "aggregate": "sum"},
    "line per day": {"x": "at", "time_unit": "day"},
    "histogram of gb": {"x": "gb"},
    "heatmap of gb × lun": {"x": "gb", "y": "lun"},
}

CHILD = r"""
import json, os, resource, sys, time
kind, path, rows = sys.argv[1], sys.argv[2], int(sys.argv[3])
decl, charts = json.loads(sys.argv[4]), json.loads(sys.argv[5])
from chartkit import check_columns, view
t0 = time.perf_counter()
extra = {}
if kind == "duckdb":
    import duckdb
    data = duckdb.connect().read_parquet(path)
elif kind == "polars lazy":
    import polars as pl
    data = pl.scan_parquet(path)
elif kind == "spark":
    from pyspark.sql import SparkSession
    spark = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
             .config("spark.sql.session.timeZone", "UTC").config("spark.driver.memory", "2g")
             .getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    data = spark.read.parquet(path)
    extra["jvm_start_s"] = time.perf_counter() - t0
elif kind == "pandas":
    import pandas as pd
    data = pd.read_parquet(path)
    extra["load_s"] = time.perf_counter() - t0
t1, c1 = time.perf_counter(), time.process_time()
found = check_columns(data, decl)
t2, c2 = time.perf_counter(), time.process_time()
v = view(data, decl, mode="off")
t3, c3 = time.perf_counter(), time.process_time()
extra.update(check_cpu=c2 - c1, view_cpu=c3 - c2)
(values,) = v.spec["datasets"].values()
if kind == "spark":
    me, jvm = str(os.getpid()), 0  # the JVM is a child process: its peak RSS (VmHWM)
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            status = dict(
                line.split(":", 1) for line in open(f"/proc/{pid}/status") if ":" in line
            )
        except OSError:
            continue
        if status.get("PPid", "").strip() == me and "java" in status.get("Name", ""):
            jvm = max(jvm, int(status["VmHWM"].split()[0]) * 1024)
    extra["jvm_rss"] = jvm
self_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
kids_rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
others = {}  # the other chart kinds, after the peak RSS above was read
for name, picks in charts.items():
    a, b = time.perf_counter(), time.process_time()
    w = view(data, decl, mode="off", **picks)
    others[name] = [time.perf_counter() - a, time.process_time() - b, w.mark]
if others:
    extra["others"] = others
    extra["others_rss"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
if kind == "spark":
    spark.stop()
print(json.dumps({
    "check_s": t2 - t1, "view_s": t3 - t2, "mark": v.mark, "points": len(values),
    "found": [(f.column, f.affected, f.total) for f in found], "self_rss": self_rss,
    "children_rss": kids_rss, **extra,
}))
"""


def eager(rows: int = 1_000_000, repeat: int = 15) -> None:
    """The check on typed in-memory frames, native (null counts) against a pandas copy first."""
    import datetime as dt
    import statistics

    import numpy as np
    import polars as pl

    from chartkit import check_columns

    rng = np.random.default_rng(0)
    start = dt.datetime(2024, 1, 1)
    frame = pl.DataFrame(
        {
            "gb": rng.normal(size=rows),
            "host": rng.choice(["vdi-a", "vdi-b"], rows),
            "mapped": rng.random(rows) < 0.5,
            "at": pl.datetime_range(
                start, start + dt.timedelta(seconds=rows - 1), "1s", eager=True
            ),
        }
    )
    declared = {"gb": "number", "host": "string", "mapped": "boolean", "at": "date"}
    contenders = {
        "polars DataFrame": lambda: check_columns(frame, declared),
        "pyarrow Table": lambda: check_columns(table, declared),
        "polars LazyFrame": lambda: check_columns(lazy, declared),
        "peer: to_pandas() first": lambda: check_columns(frame.to_pandas(), declared),
    }
    table, lazy = frame.to_arrow(), frame.lazy()
    times: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(repeat):  # rounds interleaved
        for name, call in contenders.items():
            t = time.process_time()
            found = call()
            times[name].append(time.process_time() - t)
            assert found == (), found
    print(f"\ncheck_columns on {rows:,} rows x 4 typed columns (median CPU time of {repeat})\n")
    print("| contender | median |")
    print("|---|---:|")
    for name, ts in times.items():
        print(f"| {name} | {statistics.median(ts) * 1000:.1f} ms |")


PEER_DECL = {"ts": "date", "latency": "number", "region": "string"}
# the automatic bucket ladder (seconds) and the chart's width in pixels: the hand-written peer
# picks its bucket as view() does — the finest that draws the span in one position per pixel
PEER_BUCKETS = (
    1, 5, 15, 30, 60, 300, 900, 1800, 3600, 3 * 3600, 6 * 3600, 12 * 3600,
    86400, 7 * 86400, 30 * 86400, 91 * 86400, 365 * 86400,
)  # fmt: skip
PEER_WIDTH = 560


def by_hand(con: object, max_points: int = 5000) -> int:
    """The two queries that draw the chart by hand: the profile, then one GROUP BY."""
    n, n_ts, n_lat, n_reg, lo, hi, regions = con.execute(  # type: ignore[attr-defined]
        "SELECT count(*), count(ts), count(latency), count(region), min(ts), max(ts), "
        "count(DISTINCT region) FROM m"
    ).fetchone()
    assert n == n_ts == n_lat == n_reg, (n, n_ts, n_lat, n_reg)
    span = (hi - lo).total_seconds()
    per = max(1, min(PEER_WIDTH, max_points // max(1, regions)))
    seconds = next((s for s in PEER_BUCKETS if span / s + 1 <= per), PEER_BUCKETS[-1])
    frame = con.execute(  # type: ignore[attr-defined]
        f"SELECT time_bucket(INTERVAL '{seconds} seconds', ts, TIMESTAMP '1970-01-01') AS ts, "
        "region, avg(latency) AS latency, count(*) AS rows FROM m "
        "WHERE ts IS NOT NULL AND latency IS NOT NULL GROUP BY ALL ORDER BY ALL"
    ).df()
    return len(frame)


def peer(rows: int = 20_000_000, repeat: int = 5) -> None:
    """view() of a DuckDB table against the two queries that draw the same chart by hand."""
    import statistics

    import duckdb

    from chartkit import view

    con = duckdb.connect()
    t = time.perf_counter()
    con.execute(
        f"""
        CREATE TABLE m AS
        SELECT TIMESTAMP '2024-01-01' + to_seconds(range) AS ts,
               (range % 1000) * 0.5 + (range % 7) AS latency,
               ['eu-west', 'eu-north', 'us-east', 'ap-south'][(range % 4) + 1] AS region
        FROM range({rows})
        """
    )
    print(f"\ngenerated a {rows:,}-row DuckDB table in {time.perf_counter() - t:.1f} s")

    def chartkit() -> int:
        v = view(con.table("m"), PEER_DECL, mode="off")
        assert v.mark == "line", v.mark
        (values,) = v.spec["datasets"].values()
        return len(values)

    contenders = {
        "chartkit view(table)": chartkit,
        "peer: profile query + GROUP BY": lambda: by_hand(con),
    }
    wall: dict[str, list[float]] = {name: [] for name in contenders}
    cpu: dict[str, list[float]] = {name: [] for name in contenders}
    ratio: list[float] = []
    points: dict[str, set[int]] = {name: set() for name in contenders}
    for _ in range(repeat):  # rounds interleaved
        for name, call in contenders.items():
            a, b = time.perf_counter(), time.process_time()
            points[name].add(call())
            wall[name].append(time.perf_counter() - a)
            cpu[name].append(time.process_time() - b)
        ratio.append(wall["chartkit view(table)"][-1] / wall["peer: profile query + GROUP BY"][-1])
    if len({frozenset(p) for p in points.values()}) != 1:
        raise SystemExit(f"view() and the peer draw different numbers of points: {points}")
    print(
        f"\nview() of a {rows:,}-row DuckDB table (time x measure x 4 regions) against the "
        f"two queries that draw it by hand (median of {repeat} interleaved rounds)\n"
    )
    print(f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores after this set)\n")
    print("| contender | wall | CPU | points |")
    print("|---|---:|---:|---:|")
    for name in contenders:
        print(
            f"| {name} | {statistics.median(wall[name]):.2f} s | "
            f"{statistics.median(cpu[name]):.2f} s | {min(points[name]):,} |"
        )
    me, them = "chartkit view(table)", "peer: profile query + GROUP BY"
    walls = statistics.median(wall[me]) / statistics.median(wall[them])
    cpus = statistics.median(cpu[me]) / statistics.median(cpu[them])
    print(
        f"\nview() ÷ the peer (goal: within 1.3x): {statistics.median(ratio):.2f}x as the median "
        f"of each round's wall-clock ratio; {walls:.2f}x as the ratio of the median walls; "
        f"{cpus:.2f}x in CPU time"
    )


def generate(path: Path, rows: int) -> float:
    import duckdb

    t = time.perf_counter()
    duckdb.connect().execute(
        f"""
        COPY (
          SELECT TIMESTAMP '2024-01-01' + to_seconds(range) AS at,
                 CASE WHEN range % 97 = 0 THEN NULL ELSE (range % 1000) * 0.5 END AS gb,
                 ['vdi-a', 'vdi-b', 'vdi-c'][(range % 3) + 1] AS host,
                 range AS lun
          FROM range({rows})
        ) TO '{path}' (FORMAT parquet, ROW_GROUP_SIZE 1000000)
        """
    )
    return time.perf_counter() - t


def run(kind: str, path: Path, rows: int, charts: bool = False) -> dict[str, object]:
    picks = json.dumps(CHARTS if charts else {})
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, kind, str(path), str(rows), json.dumps(DECL), picks],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    wall = time.perf_counter()
    out, err = proc.communicate()
    wall = time.perf_counter() - wall
    if proc.returncode != 0:
        raise SystemExit(f"{kind} at {rows:,} rows failed:\n{err[-3000:]}")
    result: dict[str, object] = json.loads(out.strip().splitlines()[-1])
    result["wall_s"] = wall
    return result


def gib(n: object) -> str:
    return f"{float(n) / 2**30:.2f} GiB"  # type: ignore[arg-type]


def table(title: str, results: dict[str, dict[str, object]]) -> None:
    print(f"\n{title}\n")
    print(f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores after this set)\n")
    head = ("contender", "check wall (CPU)", "view wall (CPU)", "peak RSS", "chart", "note")
    print("| " + " | ".join(head) + " |")
    print("|" + "|".join(["---", "---:", "---:", "---", "---", "---"]) + "|")
    for kind, r in results.items():
        note = []
        if "load_s" in r:
            note.append(f"read_parquet {float(r['load_s']):.1f} s")  # type: ignore[arg-type]
        if "jvm_start_s" in r:
            note.append(
                f"JVM start {float(r['jvm_start_s']):.1f} s, JVM peak RSS {gib(r['jvm_rss'])}"  # type: ignore[arg-type]
            )
        if r.get("scaled"):
            note.append(str(r["scaled"]))
        check = (
            f"{float(r['check_s']):.2f} s ({float(r['check_cpu']):.2f} s)"  # type: ignore[arg-type]
            if "check_s" in r
            else "—"
        )
        view = (
            f"{float(r['view_s']):.2f} s ({float(r['view_cpu']):.2f} s)"  # type: ignore[arg-type]
            if "view_s" in r
            else "—"
        )
        chart = f"{r.get('mark')}, {r.get('points')} pts" if "mark" in r else "—"
        print(
            f"| {kind:<20} | {check:>17} | {view:>18} | {gib(r['self_rss']):<9} | {chart:<14} | "
            f"{'; '.join(note)} |"
        )


def others(title: str, results: dict[str, dict[str, object]]) -> None:
    """The other chart kinds' view() times, wall (CPU), per contender."""
    print(f"\n{title}\n")
    print("| contender | " + " | ".join(CHARTS) + " | peak RSS with them |")
    print("|---|" + "---:|" * len(CHARTS) + "---|")
    for kind, r in results.items():
        times = r.get("others")
        if not isinstance(times, dict):
            continue
        cells = [f"{w:.2f} s ({c:.2f} s), {mark}" for w, c, mark in times.values()]
        print(f"| {kind} | " + " | ".join(cells) + f" | {gib(r['others_rss'])} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=100_000_000)
    parser.add_argument("--small", type=int, default=10_000_000)
    parser.add_argument("--skip-spark", action="store_true")
    parser.add_argument("--pandas-large", action="store_true", help="pull the large table too")
    parser.add_argument("--large-only", action="store_true", help="only the --rows table")
    parser.add_argument("--peer-rows", type=int, default=20_000_000)
    parser.add_argument("--peer-only", action="store_true", help="only view() against by hand")
    args = parser.parse_args()
    import duckdb
    import pandas
    import polars

    print(
        f"{os.cpu_count()} cores, Python {sys.version.split()[0]}, duckdb {duckdb.__version__}, "
        f"polars {polars.__version__}, pandas {pandas.__version__}"
    )
    if args.peer_only:
        peer(args.peer_rows)
        return
    eager()
    peer(args.peer_rows)
    with tempfile.TemporaryDirectory(prefix="chartkit-bench-") as tmp:
        small, large = Path(tmp) / "small.parquet", Path(tmp) / "large.parquet"
        results: dict[str, dict[str, object]] = {}
        if not args.large_only:
            print(f"generated {args.small:,} rows in DuckDB in {generate(small, args.small):.1f} s")
            kinds = ["duckdb", "polars lazy"] + ([] if args.skip_spark else ["spark"]) + ["pandas"]
            results = {k: run(k, small, args.small, charts=True) for k in kinds}
            findings = {json.dumps(r["found"]) for r in results.values()}
            if len(findings) != 1:
                raise SystemExit(f"contenders disagree on the findings: {findings}")
            table(f"{args.small:,} rows, same table, each contender in its own process", results)
            print(f"\nfinding everywhere: {results['duckdb']['found']}")
            others(f"{args.small:,} rows: view() of the other chart kinds", results)

        print(f"\ngenerated {args.rows:,} rows in DuckDB in {generate(large, args.rows):.1f} s")
        big = {"duckdb": run("duckdb", large, args.rows)}
        if args.pandas_large:
            big["pandas"] = run("pandas", large, args.rows)
        elif results:
            scale = args.rows / args.small
            measured = results["pandas"]
            big["pandas (scaled)"] = {
                "self_rss": float(measured["self_rss"]) * scale,  # type: ignore[arg-type]
                "scaled": f"not run: its {args.small:,}-row peak RSS x {scale:g}",
            }
        table(f"{args.rows:,} rows", big)
        print(f"\nfinding: {big['duckdb']['found']}")


if __name__ == "__main__":
    main()
