"""view() of an engine frame against the queries a person writes by hand, on several table shapes.

    .venv/bin/python bench/engines.py [--table-rows N] [--rows N] [--repeat K] [--trace]
    .venv/bin/python bench/engines.py --contenders [--small N] [--large N] [--skip-spark]

The issue's goal is ``view()`` within 1.3x of the hand-written queries on every shape and size,
so each shape is one DuckDB table generated inside DuckDB (never in Python) — ``ts`` one
timestamp a second, ``latency`` the measure, ``region`` 4 strings — drawn by ``view()`` as a
line of the mean latency per time bucket per region, against the two queries a person writes
with DuckDB's Python API: one profile query (the rows, each column's values, the span, the
regions) and one ``GROUP BY`` of the bucket ``view()`` picks for that span and ``max_points``,
fetched as a pandas frame. The shapes (``SHAPES``): a nullable DOUBLE (a null every 100,000
rows), a DECIMAL with no nulls, a number held as VARCHAR with a few non-numbers (the
offenders), and TIMESTAMPTZ times. ``--rows N`` adds the scale run: the nullable-DOUBLE shape
written to Parquet and read by ``con.read_parquet``.

Rounds interleave the two contenders; the ratio is the median of each round's wall ratio (a
busy neighbour slows a round's contenders alike), with the ratio of CPU times beside it. Both
must draw the same number of points or the script exits with an error. Before the rounds, one
untimed call of each is counted: its queries from DuckDB's own query log, its scans from
``EXPLAIN`` of each logged query (its table and Parquet scan operators; ``+ k held`` counts the
queries over rows DuckDB holds, a parse ``materialize``d, which ``EXPLAIN`` cannot re-run).
``--trace`` prints, per chartkit query, the chartkit functions that asked it (caught at
``duckdb._seam.submit``), the seconds it took and its first characters, so the stage asking
each extra question can be named.

``--contenders`` runs the older, slow comparison instead (not in ``make bench``): the check on
typed in-memory frames, then ``check_columns`` and ``view`` on a Parquet file through DuckDB,
polars lazy, Spark local and pandas, each in its own process for its peak RSS.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

# the automatic bucket ladder (seconds) and the chart's width in pixels: the hand-written peer
# picks its bucket as view() does — the finest that draws the span in one position per pixel
PEER_BUCKETS = (
    1, 5, 15, 30, 60, 300, 900, 1800, 3600, 3 * 3600, 6 * 3600, 12 * 3600,
    86400, 7 * 86400, 30 * 86400, 91 * 86400, 365 * 86400,
)  # fmt: skip
PEER_WIDTH = 560
MAX_POINTS = 5000
REGIONS = "['eu-west', 'eu-north', 'us-east', 'ap-south'][(range % 4) + 1] AS region"
VALUE = "(range % 1000) * 0.5 + (range % 7)"  # a DECIMAL in DuckDB


@dataclasses.dataclass(frozen=True)
class Shape:
    """One table shape: its columns (SQL over ``range``), its declaration, the hand's measure."""

    name: str
    columns: str
    declared: dict[str, Any]
    measure: str = "latency"  # how the person writing by hand reads the measure as a number
    time: str = "ts"  # and the time
    bucket_origin: str = "TIMESTAMP '1970-01-01'"
    text: bool = False  # every column VARCHAR, read as a CSV's text is (``TextTable``)


SHAPES = (
    Shape(
        "nullable DOUBLE (null every 100,000 rows)",
        "TIMESTAMP '2024-01-01' + to_seconds(range) AS ts, "
        f"CASE WHEN range % 100000 = 0 THEN NULL ELSE ({VALUE})::DOUBLE END AS latency, {REGIONS}",
        {"ts": "date", "latency": {"type": "number", "nullable": True}, "region": "string"},
    ),
    Shape(
        "DECIMAL, no nulls",
        f"TIMESTAMP '2024-01-01' + to_seconds(range) AS ts, {VALUE} AS latency, {REGIONS}",
        {"ts": "date", "latency": "number", "region": "string"},
    ),
    Shape(
        "text (as a CSV's), 'n/a' every 1,000,000 rows",
        "strftime(TIMESTAMP '2024-01-01' + to_seconds(range), '%Y-%m-%d %H:%M:%S') AS ts, "
        f"CASE WHEN range % 1000000 = 7 THEN 'n/a' ELSE ({VALUE})::VARCHAR END AS latency, "
        f"{REGIONS}",
        {"ts": "date", "latency": "number", "region": "string"},
        measure="TRY_CAST(latency AS DOUBLE)",
        time="TRY_CAST(ts AS TIMESTAMP)",
        text=True,
    ),
    Shape(
        "TIMESTAMPTZ, DOUBLE",
        "TIMESTAMPTZ '2024-01-01 00:00:00+00' + to_seconds(range) AS ts, "
        f"({VALUE})::DOUBLE AS latency, {REGIONS}",
        {"ts": "date", "latency": "number", "region": "string"},
        bucket_origin="TIMESTAMPTZ '1970-01-01 00:00:00+00'",
    ),
)


def by_hand(con: Any, source: str, shape: Shape) -> int:
    """The two queries that draw the chart by hand: the profile, then one GROUP BY."""
    m, ts = shape.measure, shape.time
    n, n_ts, n_text, n_num, n_reg, span, regions = con.execute(
        f"SELECT count(*), count({ts}), count(latency), count({m}), count(region), "
        f"epoch(max({ts})) - epoch(min({ts})), count(DISTINCT region) FROM {source}"
    ).fetchone()
    assert n == n_ts == n_reg, (n, n_ts, n_reg)  # the rows a person would stop at
    assert n - n_num < n // 1000 + 2, (n, n_text, n_num)  # a few holes or offenders at most
    per = max(1, min(PEER_WIDTH, MAX_POINTS // max(1, regions)))
    seconds = next((s for s in PEER_BUCKETS if span / s + 1 <= per), PEER_BUCKETS[-1])
    frame = con.execute(
        f"SELECT time_bucket(INTERVAL '{seconds} seconds', {ts}, {shape.bucket_origin}) AS ts, "
        f"region, avg({m}) AS latency, count(*) AS rows FROM {source} "
        f"WHERE {ts} IS NOT NULL AND {m} IS NOT NULL GROUP BY ALL ORDER BY ALL"
    ).df()
    return len(frame)


def chartkit(relation: Any, shape: Shape) -> int:
    """``view()`` of the relation as a line; the number of points it draws."""
    from chartkit import view

    v = view(relation, shape.declared, mode="off", max_points=MAX_POINTS)
    if v.mark != "line":
        raise SystemExit(f"{shape.name}: view() drew a {v.mark!r}, not the line measured here")
    (values,) = v.spec["datasets"].values()
    return len(values)


# a plan's operators that read a table or a file (DuckDB 2's box headers, and the older names);
# a count(*) answered from metadata is a "Column Data Scan" and reads neither
SCAN = re.compile(
    r"─ (?:Seq Scan|Table Scan|Read Parquet|Parquet Scan) |\b(?:SEQ_SCAN|TABLE_SCAN)\b"
)


def counted(con: Any, call: Callable[[], int]) -> tuple[int, str, list[tuple[str, float, str]]]:
    """One untimed call: the queries DuckDB logged, their table scans, and who asked each.

    The queries come from DuckDB's own query log; the scans from ``EXPLAIN`` of each (``+ k
    held``: the queries over rows a relation holds, which cannot be explained again); who
    asked, from the chartkit frames on the stack whenever a statement reaches
    ``duckdb._seam.submit`` (DuckDB's one way in for a relation's query), with the seconds it
    took to return.
    """
    import duckdb

    submit = getattr(getattr(duckdb, "_seam", None), "submit", None)
    code = getattr(submit, "__code__", None)
    asked: list[tuple[str, float, str]] = []
    started: dict[int, tuple[str, float, str]] = {}

    def hook(frame: Any, event: str, arg: object) -> None:
        if frame.f_code is not code:
            return
        if event == "call":
            stack, f = [], frame.f_back
            while f is not None:
                if f"{os.sep}chartkit{os.sep}" in f.f_code.co_filename:
                    where = f.f_code.co_filename.split(f"{os.sep}chartkit{os.sep}")[-1]
                    stack.append(f"{where.removesuffix('.py')}.{f.f_code.co_name}")
                f = f.f_back
            who = " < ".join(stack[:7]) or "(not chartkit)"
            started[id(frame)] = (who, time.perf_counter(), str(frame.f_locals["sql"]))
        elif event == "return" and id(frame) in started:
            who, t, sql = started.pop(id(frame))
            asked.append((who, time.perf_counter() - t, sql))

    con.execute("CALL truncate_duckdb_logs()")
    con.execute("CALL enable_logging('QueryLog')")
    sys.setprofile(hook)
    try:
        call()
    finally:
        sys.setprofile(None)
        con.execute("CALL disable_logging()")
    logged = [
        sql
        for (sql,) in con.execute(
            "SELECT message FROM duckdb_logs WHERE type = 'QueryLog' ORDER BY timestamp"
        ).fetchall()
        if not sql.startswith("CALL ")
    ]
    scans, held = 0, 0
    for sql in logged:
        try:
            plan = "\n".join(r[1] for r in con.execute(f"EXPLAIN {sql}").fetchall())
        except duckdb.Error:  # a query over rows a relation holds (materialize): not re-run
            held += 1
            continue
        scans += len(SCAN.findall(plan))
    asked = [a for a in asked if not a[2].lstrip().upper().startswith("CALL ")]
    return len(logged), f"{scans} + {held} held" if held else str(scans), asked


def race(
    con: Any, relation: Any, source: str, shape: Shape, rows: int, repeat: int, trace: bool
) -> dict[str, Any]:
    """Interleaved rounds of view() and the hand queries on one table; the row of the table."""
    contenders = {
        "view": lambda: chartkit(relation, shape),
        "hand": lambda: by_hand(con, source, shape),
    }
    counts = {name: counted(con, call) for name, call in contenders.items()}
    if trace:
        print(f"\n{shape.name}, {rows:,} rows: the queries view() ran, and who asked each\n")
        for i, (who, seconds, sql) in enumerate(counts["view"][2], 1):
            print(f"{i}. {seconds:.2f} s: {who}\n   {' '.join(sql.split())[:160]}")
    wall: dict[str, list[float]] = {name: [] for name in contenders}
    cpu: dict[str, list[float]] = {name: [] for name in contenders}
    points: dict[str, set[int]] = {name: set() for name in contenders}
    ratio: list[float] = []
    for _ in range(repeat):
        for name, call in contenders.items():
            a, b = time.perf_counter(), time.process_time()
            points[name].add(call())
            wall[name].append(time.perf_counter() - a)
            cpu[name].append(time.process_time() - b)
        ratio.append(wall["view"][-1] / wall["hand"][-1])
    if points["view"] != points["hand"] or len(points["view"]) != 1:
        raise SystemExit(f"{shape.name}: view() and the hand queries draw {points} points")

    def med(xs: list[float]) -> float:
        return statistics.median(xs)

    return {
        "shape": shape.name,
        "rows": rows,
        "view": (med(wall["view"]), med(cpu["view"])),
        "hand": (med(wall["hand"]), med(cpu["hand"])),
        "ratio": med(ratio),
        "cpu ratio": med(cpu["view"]) / med(cpu["hand"]),
        "queries": (counts["view"][0], counts["hand"][0]),
        "scans": (counts["view"][1], counts["hand"][1]),
        "points": points["view"].pop(),
    }


COLUMNS = (
    "shape", "rows", "view wall (CPU)", "by hand wall (CPU)", "ratio", "CPU ratio",
    "queries view / hand", "scans view / hand", "points",
)  # fmt: skip


def machine() -> str:
    """Cores, CPU model, memory and versions: what the seconds were measured on."""
    import duckdb

    model, mem = platform.processor() or "?", "?"
    try:
        with open("/proc/cpuinfo") as f:
            model = next(ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name"))
        with open("/proc/meminfo") as f:
            kib = int(next(ln.split()[1] for ln in f if ln.startswith("MemTotal")))
        mem = f"{kib / 2**20:.0f} GiB"
    except (OSError, StopIteration, ValueError):
        pass
    return (
        f"{os.cpu_count()} cores ({model}), {mem}, {platform.system()} {platform.release()}, "
        f"Python {sys.version.split()[0]}, duckdb {duckdb.__version__}"
    )


def load() -> str:
    """The load averages as ``uptime`` prints them."""
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def print_table(results: list[dict[str, Any]]) -> None:
    def fmt(pair: tuple[float, float]) -> str:
        return f"{pair[0]:.2f} s ({pair[1]:.2f} s)"

    def slash(pair: tuple[object, object]) -> str:
        return " / ".join("?" if x is None else str(x) for x in pair)

    print("| " + " | ".join(COLUMNS) + " |")
    print("|---|" + "---:|" * (len(COLUMNS) - 1))
    for r in results:
        cells = (
            r["shape"], f"{r['rows']:,}", fmt(r["view"]), fmt(r["hand"]), f"{r['ratio']:.2f}x",
            f"{r['cpu ratio']:.2f}x", slash(r["queries"]), slash(r["scans"]), f"{r['points']:,}",
        )  # fmt: skip
        print("| " + " | ".join(cells) + " |")


def shapes(table_rows: int, rows: int | None, repeat: int, trace: bool) -> None:
    """Every shape as a DuckDB table, then the scale run on Parquet; one table of the results."""
    import duckdb

    from chartkit.read.engines import TextTable

    started = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    print(f"{started}, load average {load()} (1, 5, 15 min)\n{machine()}")
    results = []
    for shape in SHAPES:
        con = duckdb.connect()
        con.execute("SET TimeZone = 'UTC'")
        t = time.perf_counter()
        con.execute(f"CREATE TABLE m AS SELECT {shape.columns} FROM range({table_rows})")
        print(f"generated {shape.name}: {table_rows:,} rows in {time.perf_counter() - t:.1f} s")
        relation = TextTable(con.table("m")) if shape.text else con.table("m")
        results.append(race(con, relation, "m", shape, table_rows, repeat, trace))
        con.close()
    if rows:
        with tempfile.TemporaryDirectory(prefix="chartkit-bench-") as tmp:
            path = Path(tmp) / "scale.parquet"
            con = duckdb.connect()
            con.execute("SET TimeZone = 'UTC'")
            t = time.perf_counter()
            shape = SHAPES[0]
            con.execute(
                f"COPY (SELECT {shape.columns} FROM range({rows})) TO '{path}' "
                "(FORMAT parquet, ROW_GROUP_SIZE 1000000)"
            )
            print(f"wrote {rows:,} rows of Parquet in {time.perf_counter() - t:.1f} s")
            scale = dataclasses.replace(shape, name=f"Parquet: {shape.name}")
            source = "read_parquet('" + str(path).replace("'", "''") + "')"
            relation = con.read_parquet(str(path))
            results.append(race(con, relation, source, scale, rows, repeat, trace))
            con.close()
    print(
        f"\nview() against the two queries by hand (median of {repeat} interleaved rounds; "
        f"goal: within 1.3x), started {started}, load average {load()} at the end\n"
    )
    print_table(results)


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


def contenders(small: int, large: int, skip_spark: bool, pandas_large: bool) -> None:
    """The check and view() on one Parquet file in DuckDB, polars lazy, Spark and pandas."""
    import duckdb
    import pandas
    import polars

    print(
        f"{os.cpu_count()} cores, Python {sys.version.split()[0]}, duckdb {duckdb.__version__}, "
        f"polars {polars.__version__}, pandas {pandas.__version__}, load average {load()}"
    )
    eager()
    with tempfile.TemporaryDirectory(prefix="chartkit-bench-") as tmp:
        small_path, large_path = Path(tmp) / "small.parquet", Path(tmp) / "large.parquet"
        print(f"generated {small:,} rows in DuckDB in {generate(small_path, small):.1f} s")
        kinds = ["duckdb", "polars lazy"] + ([] if skip_spark else ["spark"]) + ["pandas"]
        results = {k: run(k, small_path, small, charts=True) for k in kinds}
        findings = {json.dumps(r["found"]) for r in results.values()}
        if len(findings) != 1:
            raise SystemExit(f"contenders disagree on the findings: {findings}")
        table(f"{small:,} rows, same table, each contender in its own process", results)
        print(f"\nfinding everywhere: {results['duckdb']['found']}")
        others(f"{small:,} rows: view() of the other chart kinds", results)
        if not large:
            return
        print(f"\ngenerated {large:,} rows in DuckDB in {generate(large_path, large):.1f} s")
        big = {"duckdb": run("duckdb", large_path, large)}
        if pandas_large:
            big["pandas"] = run("pandas", large_path, large)
        else:
            scale = large / small
            big["pandas (scaled)"] = {
                "self_rss": float(results["pandas"]["self_rss"]) * scale,  # type: ignore[arg-type]
                "scaled": f"not run: its {small:,}-row peak RSS x {scale:g}",
            }
        table(f"{large:,} rows", big)
        print(f"\nfinding: {big['duckdb']['found']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--table-rows", type=int, default=5_000_000, help="rows of each shape")
    parser.add_argument(
        "--rows", type=int, default=10_000_000, help="rows of the Parquet scale run (0: none)"
    )
    parser.add_argument("--repeat", type=int, default=3, help="interleaved rounds per shape")
    parser.add_argument("--trace", action="store_true", help="print who asked each query")
    parser.add_argument("--contenders", action="store_true", help="the slow engine comparison")
    parser.add_argument("--small", type=int, default=10_000_000, help="with --contenders")
    parser.add_argument("--large", type=int, default=100_000_000, help="with --contenders")
    parser.add_argument("--skip-spark", action="store_true", help="with --contenders")
    parser.add_argument("--pandas-large", action="store_true", help="with --contenders")
    args = parser.parse_args()
    for flag in ("table_rows", "repeat"):
        if getattr(args, flag) < 1:
            parser.error(f"--{flag.replace('_', '-')} must be at least 1")
    if args.rows < 0:
        parser.error("--rows must be 0 (no scale run) or more")
    if args.contenders:
        contenders(args.small, args.large, args.skip_spark, args.pandas_large)
    else:
        shapes(args.table_rows, args.rows or None, args.repeat, args.trace)


if __name__ == "__main__":
    main()
