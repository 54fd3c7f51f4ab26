"""How fast is typed staging? ``stage()`` against the ways a code runner writes Parquet today.

N rows x 5 declared columns as a list of dicts (number as int, string, date as ``datetime``,
boolean, number as float), clean, so every contender writes the same values:

- pyarrow: ``pa.Table.from_pylist(rows)`` then ``pq.write_table`` — Arrow infers the types,
  checks nothing.
- pandas: ``pd.DataFrame(rows).to_parquet(...)`` — pandas infers the types, checks nothing.
- stage (off): ``chartkit.stage(result, dir, mode="off")`` — nothing measured, Arrow's inference.
- stage (warn): the check, then each column with the Arrow type its declaration names, the
  record in the metadata and the JSON sidecar.

Each contender runs ``--repeat`` times, interleaved; the median is printed, with the ratio to
pyarrow. The Parquet files' schemas are printed too: only ``stage (warn)`` is sure to write the
declared types (pandas, for one, would write a number column holding a null as float64).

Run: ``.venv/bin/python bench/stage.py [--rows N] [--repeat K]``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import platform
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from chartkit import ToolResult, stage

DECLARED = {
    "logical_unit_number": "number",
    "host_group": "string",
    "mapped_at": "date",
    "online": "boolean",
    "capacity_gb": "number",
}


def make_rows(n: int) -> list[dict[str, Any]]:
    t0 = dt.datetime(2024, 1, 1)
    return [
        {
            "logical_unit_number": i % 256,
            "host_group": f"vdi-{i % 500}",
            "mapped_at": t0 + dt.timedelta(seconds=i),
            "online": i % 3 != 0,
            "capacity_gb": (i % 4096) * 0.5,
        }
        for i in range(n)
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    rows = make_rows(args.rows)
    result = ToolResult("host_group_mappings", rows, result_columns=DECLARED)
    out = Path(tempfile.mkdtemp(prefix="chartkit-bench-stage-"))

    def pyarrow_write() -> Path:
        path = out / "pyarrow.parquet"
        pq.write_table(pa.Table.from_pylist(rows), path)
        return path

    def pandas_write() -> Path:
        path = out / "pandas.parquet"
        pd.DataFrame(rows).to_parquet(path)
        return path

    def stage_off() -> Path:
        staged = stage(result, out / "off", mode="off")
        assert staged.parquet is not None
        return staged.parquet

    def stage_warn() -> Path:
        staged = stage(result, out / "warn", mode="warn")
        assert staged.parquet is not None
        return staged.parquet

    contenders: dict[str, Callable[[], Path]] = {
        "pyarrow from_pylist + write_table": pyarrow_write,
        "pandas DataFrame + to_parquet": pandas_write,
        "chartkit stage (off)": stage_off,
        "chartkit stage (warn)": stage_warn,
    }
    times: dict[str, list[float]] = {name: [] for name in contenders}
    paths: dict[str, Path] = {}
    for _ in range(args.repeat):
        for name, run in contenders.items():
            start = time.perf_counter()
            paths[name] = run()
            times[name].append(time.perf_counter() - start)
    floor = statistics.median(times["pyarrow from_pylist + write_table"])
    versions = (
        f"Python {platform.python_version()}, pyarrow {pa.__version__}, pandas {pd.__version__}"
    )
    print(f"{args.rows:,} rows x {len(DECLARED)} columns; median of {args.repeat}; {versions}")
    print(f"| {'contender':<36} | {'seconds':>8} | {'x pyarrow':>9} |")
    print(f"|{'-' * 38}|{'-' * 10}|{'-' * 11}|")
    for name in contenders:
        median = statistics.median(times[name])
        print(f"| {name:<36} | {median:>8.3f} | {median / floor:>9.2f} |")
    print()
    for name, path in paths.items():
        types = ", ".join(str(f.type) for f in pq.read_schema(path) if not f.name.startswith("__"))
        print(f"{name}: {types}")


if __name__ == "__main__":
    main()
