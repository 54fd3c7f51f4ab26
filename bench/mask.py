"""How fast is view() when some rows break the declaration? Against what a user writes instead.

The spec's own case at scale: ``bench/view.py``'s 1,000,000-row time series — ``ts`` (ISO
strings), ``latency_ms`` (number), ``region`` (5 strings) — with 0.1% of ``latency_ms`` holding
``''``. ``view()`` checks the rows, leaves the offending rows out of the chart (saying how many
and why) and draws the mean per bucket per region. A user without chartkit coerces them away
and draws the same chart:

- chartkit: ``view(rows, declaration)``.
- pandas + VegaFusion: ``pd.DataFrame(rows)``, ``pd.to_numeric(errors="coerce")`` (the ``''``
  become NaN, silently), ``pd.to_datetime``, then Altair with the ``vegafusion`` data
  transformer at the same bucket (``bench/view.py``'s ``vegafusion_chart``) — no check.

Then the same rows as the frame pandas makes of them (``ts`` parsed; ``latency_ms`` an object
column, floats beside the ``''``; a fresh frame for every call): ``view(frame)`` against
``pd.to_numeric(errors="coerce")`` then the same VegaFusion chart.

Each table interleaves its contenders round by round and prints the median CPU time of this
process, the median within-round ratio to chartkit, and the points each sends (they must
agree: the same rows drawn). The load average is printed before and after.

Run: ``.venv/bin/python bench/mask.py [--rows N] [--repeat K] [--share S]``.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

import numpy as np
import pandas as pd

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from view import (  # bench/view.py: the series, its peers and the race
    chartkit_bucket,
    chartkit_view,
    print_table,
    race,
    series_frame,
    series_rows,
    vegafusion_chart,
)


def rows_with_offenders(n: int, share: float) -> list[dict[str, Any]]:
    """The series as a tool returns it, ``share`` of its ``latency_ms`` values ``''``."""
    rows = series_rows(series_frame(n))
    rng = np.random.default_rng(11)
    for i in rng.choice(n, int(n * share), replace=False):
        rows[i]["latency_ms"] = ""
    return rows


def coerce_vegafusion(rows: list[dict[str, Any]], bucket_ms: int) -> tuple[int, int]:
    frame = pd.DataFrame(rows)
    frame["latency_ms"] = pd.to_numeric(frame["latency_ms"], errors="coerce")
    frame["ts"] = pd.to_datetime(frame["ts"], format="ISO8601")
    return vegafusion_chart(frame, bucket_ms)


def coerce_frame_vegafusion(frame: pd.DataFrame, bucket_ms: int) -> tuple[int, int]:
    frame = frame.assign(latency_ms=pd.to_numeric(frame["latency_ms"], errors="coerce"))
    return vegafusion_chart(frame, bucket_ms)


def pandas_frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    """What pandas makes of the rows, dates parsed: the object column stays as given."""
    frame = pd.DataFrame(rows)
    frame["ts"] = pd.to_datetime(frame["ts"], format="ISO8601")
    return frame


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--share", type=float, default=0.001)
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    rows = rows_with_offenders(args.rows, args.share)
    ms = chartkit_bucket(series_frame(args.rows))
    offenders = int(args.rows * args.share)
    print(f"({args.rows:,} rows, {offenders:,} of them '' in latency_ms; every contender buckets")
    print(f"at {ms / 60_000:g} minutes, as view() does)")
    print_table(
        "A list of dicts with ISO-string dates, 0.1% of a number column ''",
        race(
            [
                ("chartkit view(rows)", chartkit_view),
                ("DataFrame + to_numeric(coerce) + VegaFusion", lambda r: coerce_vegafusion(r, ms)),
            ],
            args.repeat,
            lambda: rows,  # the same list: each view() reads it anew, and keeps nothing of it
        ),
        "chartkit",
    )
    print_table(
        "pandas' frame of those rows (latency_ms objects; a fresh frame for every call)",
        race(
            [
                ("chartkit view(frame)", chartkit_view),
                ("to_numeric(coerce) + VegaFusion", lambda f: coerce_frame_vegafusion(f, ms)),
            ],
            args.repeat,
            lambda: pandas_frame(rows),
        ),
        "chartkit",
    )
    print(f"\nload average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
