"""Wide results and long names: the check, the view and the payload stay linear in width.

3 rows × N declared columns (every step must be linear in N), and one column named with L
characters exported to SVG; with --parquet-widths (and pyarrow), ``chart_file``'s Parquet guard
on a file of 3 rows × N columns. Prints the seconds each took; with --budget SECONDS, exits 1
when the widest case or the longest name takes longer (``make soak`` runs it that way).
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from chartkit import ToolResult, check_result, view


def wide(n: int) -> dict[str, float]:
    names = [f"column_{i}" for i in range(n)]
    rows = [{name: (i if k % 2 else str(i)) for k, name in enumerate(names)} for i in range(3)]
    declared = {name: "number" for name in names}
    out: dict[str, float] = {}
    t = time.perf_counter()
    check_result(ToolResult("wide", rows, result_columns=declared), mode="warn")
    out["check"] = time.perf_counter() - t
    t = time.perf_counter()
    shown = view(rows, declared, tool="wide")
    out["view"] = time.perf_counter() - t
    t = time.perf_counter()
    json.dumps(shown.to_dict())
    out["payload"] = time.perf_counter() - t
    return out


def long_name(length: int) -> float:
    name = "n" * length
    rows = [{name: i, "g": f"g{i % 3}"} for i in range(6)]
    t = time.perf_counter()
    view(rows, {name: "number", "g": "string"}, tool="t").to_svg()
    return time.perf_counter() - t


def parquet_guard(n: int) -> float:
    """Seconds ``check_parquet`` takes on a Parquet file of 3 rows × ``n`` text columns."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from chartkit.mcp._served import check_parquet

    column = pa.array(["eu", "us", "ap"])
    sink = pa.BufferOutputStream()
    table = pa.Table.from_arrays([column] * n, [f"column_{i}" for i in range(n)])
    pq.write_table(table, sink, write_statistics=False)
    data = sink.getvalue().to_pybytes()
    t = time.perf_counter()
    check_parquet(data, "'wide.parquet'")
    return time.perf_counter() - t


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--widths", default="1000,10000,100000")
    parser.add_argument("--lengths", default="1000,60000,1000000")
    parser.add_argument("--parquet-widths", default="", help="e.g. 10000,50000 (needs pyarrow)")
    parser.add_argument("--budget", type=float, default=None)
    args = parser.parse_args()
    worst = 0.0
    for n in map(int, args.widths.split(",")):
        took = wide(n)
        worst = max(worst, sum(took.values()))
        print(f"3 rows x {n:>7,} columns: " + ", ".join(f"{k} {v:.2f}s" for k, v in took.items()))
    for length in map(int, args.lengths.split(",")):
        took_s = long_name(length)
        worst = max(worst, took_s)
        print(f"a {length:>9,}-character column name, view + SVG: {took_s:.2f}s")
    for n in map(int, filter(None, args.parquet_widths.split(","))):
        took_s = parquet_guard(n)
        worst = max(worst, took_s)
        print(f"a Parquet file of 3 rows x {n:>7,} columns, chart_file's guard: {took_s:.2f}s")
    if args.budget is not None:
        verdict = "within" if worst <= args.budget else "OVER"
        print(f"slowest case {worst:.2f}s: {verdict} the budget of {args.budget:.0f}s")
        return 0 if worst <= args.budget else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
