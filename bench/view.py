"""How fast is view()? Against plain Altair and Streamlit's st.line_chart preparation.

Prints one table: view() on 1,000 rows (a frame and a list of dicts); on 1,000,000 rows of a
time series (date × number × a 5-series string); plain Altair on the same frame (its row limit
disabled, as it raises MaxRowsError otherwise); and st.line_chart's data preparation
(``streamlit.elements.lib.built_in_chart_utils.generate_chart``, a private function: skipped if
it moved). Goals: 1M rows under 1.5 s with a spec under 500 KB; 1,000 rows under 50 ms.

Run: ``make bench`` or ``.venv/bin/python bench/view.py``.
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable
from typing import Any

import altair as alt
import numpy as np
import pandas as pd

from chartkit import view

DECL = {"ts": "date", "latency_ms": "number", "region": "string"}


def series_frame(n: int) -> pd.DataFrame:
    rng = np.random.default_rng(7)
    return pd.DataFrame(
        {
            "ts": pd.date_range("2024-01-01", periods=n, freq="s", tz="UTC"),
            "latency_ms": rng.gamma(4.0, 10.0, size=n),
            "region": np.tile(["eu-west-1", "us-east-1", "us-west-2", "ap-south-1", "sa-east-1"],
                              n // 5 + 1)[:n],
        }
    )  # fmt: skip


def timed(fn: Callable[[], Any], runs: int) -> tuple[float, Any]:
    times, out = [], None
    for _ in range(runs):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), out


def spec_bytes(spec: dict[str, Any]) -> int:
    return len(json.dumps(spec).encode())


def plain_altair(frame: pd.DataFrame) -> dict[str, Any]:
    with alt.data_transformers.disable_max_rows():
        chart = alt.Chart(frame).mark_line().encode(x="ts:T", y="latency_ms:Q", color="region:N")
        spec: dict[str, Any] = chart.to_dict()
    return spec


def streamlit_prep(frame: pd.DataFrame) -> dict[str, Any] | None:
    try:
        from streamlit.elements.lib.built_in_chart_utils import ChartType, generate_chart
    except ImportError:
        return None
    with alt.data_transformers.disable_max_rows():
        chart = generate_chart(ChartType.LINE, frame, "ts", "latency_ms", color_from_user="region")
        spec: dict[str, Any] = chart.to_dict()
    return spec


def main() -> None:
    rows: list[tuple[str, float, int | None]] = []
    small = series_frame(1_000)
    small_dicts = small.assign(ts=small["ts"].map(lambda t: t.isoformat())).to_dict("records")
    view(small, DECL)  # warm imports
    t, v = timed(lambda: view(small, DECL), 30)
    rows.append(("chartkit view(), 1,000 rows (frame)", t, spec_bytes(v.spec)))
    t, v = timed(lambda: view(small_dicts, DECL), 30)
    rows.append(("chartkit view(), 1,000 rows (list of dicts, ISO strings)", t, spec_bytes(v.spec)))

    big = series_frame(1_000_000)
    t, v = timed(lambda: view(big, DECL), 3)
    rows.append(("chartkit view(), 1,000,000 rows (frame)", t, spec_bytes(v.spec)))
    t, spec = timed(lambda: plain_altair(big), 1)
    rows.append(("plain Altair, 1,000,000 rows (max rows disabled)", t, spec_bytes(spec)))
    t, spec = timed(lambda: streamlit_prep(big), 1)
    if spec is not None:
        rows.append(("st.line_chart preparation, 1,000,000 rows", t, spec_bytes(spec)))
    else:
        rows.append(
            ("st.line_chart preparation: not reachable in this Streamlit", float("nan"), None)
        )

    width = max(len(r[0]) for r in rows)
    print(f"{'what':<{width}}  {'median':>10}  {'spec size':>12}")
    for name, seconds, size in rows:
        size_text = f"{size / 1024:,.0f} KB" if size is not None else "-"
        print(f"{name:<{width}}  {seconds * 1000:>8,.0f}ms  {size_text:>12}")


if __name__ == "__main__":
    main()
