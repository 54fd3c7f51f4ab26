"""How fast is view()? Against what a user writes without chartkit, measured in the same run.

1,000,000 rows of a time series — ``ts`` (UTC), ``latency_ms`` (number), ``region`` (5
strings) — drawn as a line of the mean per 30-minute bucket per region (2,780 points), which is
what ``view()`` picks for it. Each table interleaves its contenders round by round and prints
the median CPU time of this process and the median ratio to the first row, taken within each
round; the load average is printed before and after the races (other work on the cores shows
in the CPU times too, so compare ratios from one run).

Rows as a tool returns them (a list of dicts, ``ts`` as ISO strings):

- chartkit: ``view(rows, declaration)`` — the check, then the chart.
- pandas + VegaFusion: ``pd.DataFrame(rows)``, ``pd.to_datetime``, then Altair with the
  ``vegafusion`` data transformer bucketing at 30 minutes (``to_dict(format="vega")``) —
  no check at all.

A typed frame (datetime64[UTC], float64, str), made afresh for every timed call (the same
values in new arrays), so each view() is a first view of its frame:

- chartkit: ``view(frame, declaration)``.
- VegaFusion: the same Altair chart on the frame.
- ``st.line_chart(frame, x=, y=, color=)``: Streamlit's own call, run in bare mode — it builds
  its Altair chart and serializes the frame to Arrow IPC for the browser (every row is sent;
  the browser draws them).
- pandas group-by, then Altair: ``groupby([ts.dt.floor("30min"), region]).mean()`` and a plain
  ``alt.Chart(...).to_dict()`` of the 2,780 points.

Then view()'s chart options on the typed frame, each raced against plain ``view(frame)``:
an aggregate with a time unit, a format with a log scale and a sort, facets, an alternative
drawn from its picks, and ``choose=0`` (which draws that same alternative, after probing
which chart the view opens on: its alternatives depend on it).

Then peak memory: ``view()`` on 5,000,000 rows (a typed frame, and a list of dicts), each in
its own process: the resident size the call adds at its peak (the kernel's ``VmHWM``, reset
through ``/proc/self/clear_refs`` just before the call, less the resident size then — so
Python's objects, numpy's arrays and pyarrow's buffers all count, and the input does not),
against the size of the pandas frame of the same data (``memory_usage(deep=True)``): the
typed frame itself, and ``pd.DataFrame(rows)`` for the rows (their timestamps stay text).
Beside it, measured the same way, the peak of the VegaFusion peer for that input (``Altair +
VegaFusion`` on the frame; ``pd.DataFrame`` + ``to_datetime`` + VegaFusion on the rows).
Linux only (``/proc/self/status``).

Run: ``make bench`` or ``.venv/bin/python bench/view.py [--rows N] [--repeat K] [--memory-rows N]``.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

import altair as alt
import numpy as np
import pandas as pd

from chartkit import view

DECL = {"ts": "date", "latency_ms": "number", "region": "string"}
REGIONS = ["eu-west-1", "us-east-1", "us-west-2", "ap-south-1", "sa-east-1"]


def series_frame(n: int) -> pd.DataFrame:
    rng = np.random.default_rng(7)
    return pd.DataFrame(
        {
            "ts": pd.date_range("2024-01-01", periods=n, freq="s", tz="UTC"),
            "latency_ms": rng.gamma(4.0, 10.0, size=n),
            "region": np.tile(REGIONS, n // 5 + 1)[:n],
        }
    )


def series_rows(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """The frame as a tool returns it: a list of dicts, ``ts`` as ISO 8601 strings."""
    iso = frame["ts"].dt.strftime("%Y-%m-%dT%H:%M:%S+00:00")
    return frame.assign(ts=iso).to_dict("records")


# --- contenders: each answers how many points (or rows) it sends, and how many bytes ---------


def chartkit_view(data: Any, **options: Any) -> tuple[int, int]:
    v = view(data, DECL, **options)
    assert v.spec is not None and v.frame is not None, v.reason
    points = len(v.spec["datasets"][v.spec["data"]["name"]])
    return points, len(json.dumps(v.spec))


def vegafusion_chart(frame: pd.DataFrame, bucket_ms: int) -> tuple[int, int]:
    chart = (
        alt.Chart(frame)
        .mark_line()
        .transform_calculate(bucket=f"floor(datum.ts / {bucket_ms}) * {bucket_ms}")
        .encode(x="bucket:T", y="mean(latency_ms):Q", color="region:N")
    )
    with alt.data_transformers.enable("vegafusion"):  # restored on leaving the block
        spec = chart.to_dict(format="vega")
    return len(spec["data"][0]["values"]), len(json.dumps(spec))


def pandas_vegafusion(rows: list[dict[str, Any]], bucket_ms: int) -> tuple[int, int]:
    frame = pd.DataFrame(rows)
    frame["ts"] = pd.to_datetime(frame["ts"], format="ISO8601")
    return vegafusion_chart(frame, bucket_ms)


def line_chart(frame: pd.DataFrame) -> tuple[int, int]:
    import streamlit as st

    logging.disable(logging.WARNING)  # bare mode's "missing ScriptRunContext" notices
    try:
        st.line_chart(frame, x="ts", y="latency_ms", color="region")
    finally:
        logging.disable(logging.NOTSET)
    return len(frame), _line_chart_bytes(frame)


_SENT: dict[int, int] = {}


def _line_chart_bytes(frame: pd.DataFrame) -> int:
    """What ``st.line_chart`` hands the browser (its Arrow datasets), through the same private
    functions it calls; measured once per size of frame (``series_frame`` makes the same values
    each time), so only the first, warming call pays for it."""
    if len(frame) not in _SENT:
        try:
            from streamlit.elements.lib.built_in_chart_utils import ChartType, generate_chart
            from streamlit.elements.vega_charts import (
                _convert_altair_to_vega_lite_spec,
                _marshall_chart_data,
            )
            from streamlit.proto.VegaLiteChart_pb2 import VegaLiteChart
        except ImportError:  # private names moved in this Streamlit: size unknown
            return 0
        chart = generate_chart(
            chart_type=ChartType.LINE, data=frame, x_from_user="ts",
            y_from_user="latency_ms", color_from_user="region", size_from_user=None,
        )  # fmt: skip
        proto = VegaLiteChart()
        _marshall_chart_data(proto, _convert_altair_to_vega_lite_spec(chart))
        _SENT[len(frame)] = proto.ByteSize()
    return _SENT[len(frame)]


def pandas_groupby_altair(frame: pd.DataFrame, bucket_ms: int) -> tuple[int, int]:
    grouped = (
        frame.groupby([frame["ts"].dt.floor(f"{bucket_ms}ms"), "region"])["latency_ms"]
        .mean()
        .reset_index()
    )
    chart = alt.Chart(grouped).mark_line().encode(x="ts:T", y="latency_ms:Q", color="region:N")
    return len(grouped), len(json.dumps(chart.to_dict()))


# --- running -----------------------------------------------------------------------------

Row = tuple[str, float, float, int, int]


Contender = tuple[str, Callable[[Any], tuple[int, int]]]


def race(contenders: list[Contender], repeat: int, make: Callable[[], Any]) -> list[Row]:
    """Interleaved rounds; median CPU time, and the median within-round ratio of the first
    contender (chartkit) to this one: below 1 chartkit is faster.

    Every timed call gets the data ``make()`` gives, made outside the timing: a fresh frame
    for the typed races, so nothing a contender remembers with a column (chartkit keeps a text
    column's dictionary encoding with its Arrow array) serves a later call — each is a first
    view of that frame.
    """
    times: dict[str, list[float]] = {label: [] for label, _ in contenders}
    sent: dict[str, tuple[int, int]] = {}
    for _, fn in contenders:
        fn(make())  # warm imports outside the timing
    for _ in range(repeat):
        for label, fn in contenders:
            data = make()
            start = time.process_time()
            sent[label] = fn(data)
            times[label].append(time.process_time() - start)
    base = times[contenders[0][0]]
    return [
        (
            label,
            statistics.median(times[label]),
            statistics.median(b / t for t, b in zip(times[label], base, strict=True)),
            *sent[label],
        )
        for label, _ in contenders
    ]


def print_table(title: str, rows: list[Row], first: str) -> None:
    print(f"\n{title}\n")
    print(f"| {'contender':<44} | {'median':>9} | {first + ' ÷ it':>13} | {'sends':>16} |")
    print(f"|{'-' * 46}|{'-' * 10}:|{'-' * 14}:|{'-' * 17}:|")
    for label, seconds, ratio, points, size in rows:
        sends = f"{points:,} · {size / 1e6:,.1f} MB" if size else f"{points:,} rows"
        print(f"| {label:<44} | {seconds:7.3f} s | {ratio:12.2f}x | {sends:>16} |")


MEMORY_PROBE = """
import ctypes, gc, json, sys
import pyarrow as pa
sys.path.insert(0, {bench!r})
from view import DECL, series_frame, series_rows
from chartkit import view
import pandas as pd


def status(field):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    raise SystemExit(f"no {{field}} in /proc/self/status: this probe needs Linux")


def peak_of(work):
    gc.collect()
    ctypes.CDLL("libc.so.6").malloc_trim(0)  # freed heap back to the kernel, so reusing it
    pa.default_memory_pool().release_unused()  # later counts as growth, as fresh memory does
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")  # the kernel forgets the peak resident size: VmHWM counts from here
    before = status("VmRSS")
    out = work()
    return out, status("VmHWM") - before


frame = series_frame({n})
data = series_rows(frame) if {kind!r} == "rows" else frame
if {kind!r} == "rows":
    del frame
if {what!r} == "peer":  # the peer a user would take, at the bucket view() picks
    from view import chartkit_bucket, pandas_vegafusion, vegafusion_chart
    ms = chartkit_bucket(series_frame({n}))
    if {kind!r} == "rows":
        _, peak = peak_of(lambda: pandas_vegafusion(data, ms))
    else:
        _, peak = peak_of(lambda: vegafusion_chart(data, ms))
else:
    view(data.__class__(data[:1000]) if {kind!r} == "rows" else data.head(1000), DECL)  # warm
    v, peak = peak_of(lambda: view(data, DECL))
    del v
frame = pd.DataFrame(data) if {kind!r} == "rows" else data  # the rows' ts stays text
print(json.dumps({{"peak": peak, "frame": int(frame.memory_usage(deep=True).sum())}}))
"""


def memory(n: int, kind: str, what: str = "view") -> dict[str, Any]:
    """Peak resident memory ``what`` (``view`` or ``peer``: the VegaFusion path a user would
    write for that input) adds on ``n`` rows, in a fresh interpreter, and the size of the
    pandas frame of the same data."""
    code = MEMORY_PROBE.format(
        bench=os.path.dirname(os.path.abspath(__file__)), n=n, kind=kind, what=what
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    answer: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return answer


def chartkit_bucket(frame: pd.DataFrame) -> int:
    """The bucket ``view()`` picks for this many rows, in ms, so every peer draws the same."""
    v = view(frame, DECL)
    assert v.spec is not None
    field = v.encodings["x"].field
    ts = pd.to_datetime(pd.Series([r[field] for r in v.spec["datasets"][v.spec["data"]["name"]]]))
    steps = np.diff(np.unique(ts.to_numpy()))
    return int(steps.min() / np.timedelta64(1, "ms")) if len(steps) else 1


def speed(n: int, repeat: int) -> None:
    frame = series_frame(n)
    rows = series_rows(frame)
    ms = chartkit_bucket(frame)
    print(f"(every contender buckets at {ms / 60_000:g} minutes, as view() does for {n:,} rows)")
    print_table(
        "A list of dicts with ISO-string dates (the form tool results arrive in)",
        race(
            [
                ("chartkit view(rows)", chartkit_view),
                ("pd.DataFrame + to_datetime + VegaFusion", lambda r: pandas_vegafusion(r, ms)),
            ],
            repeat,
            lambda: rows,  # the same list: each view() reads it anew, and keeps nothing of it
        ),
        "chartkit",
    )

    def fresh() -> pd.DataFrame:
        return series_frame(n)  # the same values, in new arrays every call

    print_table(
        "A typed frame (a fresh one for every call)",
        race(
            [
                ("chartkit view(frame)", chartkit_view),
                ("Altair + VegaFusion", lambda f: vegafusion_chart(f, ms)),
                ("st.line_chart (Arrow of every row)", line_chart),
                ("pandas group-by, then Altair", lambda f: pandas_groupby_altair(f, ms)),
            ],
            repeat,
            fresh,
        ),
        "chartkit",
    )
    print_table(
        "The chart options on the typed frame (each against plain view(), same round)",
        race(
            [(label, lambda f, o=o: chartkit_view(f, **o)) for label, o in OPTIONS], repeat, fresh
        ),
        "view()",
    )


FACETED = {"x": "ts", "y": "latency_ms", "facet": "region"}
OPTIONS: list[tuple[str, dict[str, Any]]] = [
    ("view(frame)", {}),
    ("aggregate='max', time_unit='hour'", {"aggregate": "max", "time_unit": "hour"}),
    ("format=',.1f', scale='log', sort='x'", {"format": ",.1f", "scale": "log", "sort": "x"}),
    ("facet='region'", {"facet": "region"}),
    ("**alternatives[0].picks() (faceted lines)", FACETED),
    ("choose=0 (probes the opening chart)", {"choose": 0}),
]
"""view()'s chart options, each timed against plain ``view(frame)`` in the same rounds."""


def _load() -> str:
    """The 1-, 5- and 15-minute load averages: how busy the machine's cores were."""
    return " ".join(f"{n:.2f}" for n in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--memory-rows", type=int, default=5_000_000, help="0: no peak-memory table"
    )
    args = parser.parse_args()
    if args.rows < 1 or args.repeat < 1 or args.memory_rows < 0:
        parser.error("--rows and --repeat take at least 1, --memory-rows at least 0")

    print(
        f"{args.rows:,} rows, median CPU time of {args.repeat} interleaved rounds — Python "
        f"{platform.python_version()}, pandas {pd.__version__}, altair {alt.__version__}, "
        f"{os.cpu_count()} cores, load average {_load()}"
    )
    speed(args.rows, args.repeat)
    print(f"\n(load average after the races: {_load()}; the other cores' work shows in it)")
    if not args.memory_rows:
        return
    print(
        f"\nPeak memory on {args.memory_rows:,} rows: the resident size a call adds at its peak "
        "(Python, numpy and Arrow alike), each in its own process\n"
    )
    print(
        f"| {'input':<14} | {'view() peak':>11} | {'the pandas frame of it':>26} | {'ratio':>6} "
        f"| {'its VegaFusion peer peak':>24} |"
    )
    print(f"|{'-' * 16}|{'-' * 12}:|{'-' * 27}:|{'-' * 7}:|{'-' * 25}:|")
    for kind, frame in (("typed frame", "frame"), ("list of dicts", "pd.DataFrame(rows)")):
        m = memory(args.memory_rows, "frame" if kind == "typed frame" else "rows")
        peer = memory(args.memory_rows, "frame" if kind == "typed frame" else "rows", "peer")
        held, ratio = f"{frame} {m['frame'] / 1e6:,.0f} MB", m["peak"] / m["frame"]
        theirs = f"{peer['peak'] / 1e6:,.0f} MB ({peer['peak'] / m['frame']:.2f}x)"
        print(
            f"| {kind:<14} | {m['peak'] / 1e6:8,.0f} MB | {held:>26} | {ratio:5.2f}x "
            f"| {theirs:>24} |"
        )


if __name__ == "__main__":
    main()
