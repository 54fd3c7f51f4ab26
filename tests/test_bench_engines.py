"""``bench/engines.py`` at a tiny size: one row per table shape and the Parquet run, its columns,
and the queries it counts (the hand peer's two, so the counting itself is checked); no times."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "bench" / "engines.py"
COLUMNS = [
    "shape",
    "rows",
    "view wall (CPU)",
    "by hand wall (CPU)",
    "ratio",
    "CPU ratio",
    "queries view / hand",
    "scans view / hand",
    "points",
]


def test_the_table_has_a_row_per_shape_with_the_queries_and_scans_each_side_ran() -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--table-rows", "3000", "--rows", "3000", "--repeat", "1"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    assert re.match(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC, load average [\d.]+, [\d.]+, [\d.]+", lines[0])
    assert re.match(r"\d+ cores \(.+\), .*duckdb \d", lines[1])
    table = [ln for ln in lines if ln.startswith("|")]
    assert [c.strip() for c in table[0].strip("|").split("|")] == COLUMNS
    cells = [[c.strip() for c in ln.strip("|").split("|")] for ln in table[2:]]
    rows = [dict(zip(COLUMNS, row, strict=True)) for row in cells]
    assert [r["shape"] for r in rows] == [
        "nullable DOUBLE (null every 100,000 rows)",
        "DECIMAL, no nulls",
        "text (as a CSV's), 'n/a' every 1,000,000 rows",
        "TIMESTAMPTZ, DOUBLE",
        "Parquet: nullable DOUBLE (null every 100,000 rows)",
    ]
    for r in rows:
        assert r["rows"] == "3,000"
        view_queries, hand_queries = r["queries view / hand"].split(" / ")
        view_scans, hand_scans = r["scans view / hand"].split(" / ")
        assert hand_queries == hand_scans == "2"  # one profile query and one GROUP BY
        assert int(view_queries) >= 1 and int(view_scans.split(" + ")[0]) >= 1  # (+ k held)
        assert re.fullmatch(r"\d+\.\d\dx", r["ratio"]), r
        assert re.fullmatch(r"\d+\.\d\dx", r["CPU ratio"]), r
        assert int(r["points"].replace(",", "")) > 0
