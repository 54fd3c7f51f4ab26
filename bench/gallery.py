"""The default chart on real data: each dataset of the corpus, acceptable or not, and its time.

For every dataset of ``bench/datasets/`` (what ``vega_datasets`` and ``statsmodels`` ship
offline, the rows as a tool returns them, with the declaration its author would write):
chartkit's default — mark, x, y, color or facet —, whether it is acceptable by the properties of
``bench/datasets/criteria.py`` or which properties fail; then the CPU time of ``view()`` on those
rows (the median of ``--repeat`` calls). The last lines count the acceptable defaults ("N of M
acceptable"), add the times up and say why each failing default fails. What the gallery (or an
analyst) draws for the same data is in each dataset's file and on docs/gallery.md.

Run: ``make bench`` or ``.venv/bin/python bench/gallery.py [--repeat K] [--only NAME ...]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import textwrap
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.datasets import DATASETS, dataset, default_view, judged  # noqa: E402
from bench.datasets.criteria import Verdict  # noqa: E402


def _channel(shown: object, channel: str) -> str:
    enc = shown.encodings.get(channel)  # type: ignore[attr-defined]
    if enc is None:
        return "—"
    return f"{enc.aggregate}({enc.column})" if enc.aggregate else enc.column


def _verdict(verdict: Verdict) -> str:
    """``acceptable``, or the names of the properties that fail."""
    if verdict.acceptable:
        return "acceptable"
    return "fails: " + "; ".join(o.name for o in verdict.failures)


def _cpu_ms(name: str, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        default_view(name)
        times.append(time.process_time() - start)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="view() calls timed per dataset")
    parser.add_argument("--only", nargs="*", choices=DATASETS, help="these datasets only")
    args = parser.parse_args()
    names = args.only or DATASETS
    print(f"load average {os.getloadavg()[0]:.1f}; CPU time of view(), median of {args.repeat}")
    header = (
        f"| {'dataset':16} | {'rows':>5} | {'mark':5} | {'x':24} | {'y':24} | "
        f"{'color / facet':16} | {'view()':>8} | {'acceptable, or the properties that fail':40} |"
    )
    print(header)
    print("|" + "|".join("-" * (len(c)) for c in header.split("|")[1:-1]) + "|")
    why_not: list[tuple[str, str]] = []
    total = 0.0
    acceptable = 0
    for name in names:
        shown, verdict = judged(name)
        ms = _cpu_ms(name, args.repeat)
        total += ms
        acceptable += verdict.acceptable
        split = _channel(shown, "color") if "color" in shown.encodings else _channel(shown, "facet")
        mark = shown.mark if shown.kind == "chart" else shown.kind
        print(
            f"| {name:16} | {len(dataset(name).rows):>5} | {mark or '—':5} | "
            f"{_channel(shown, 'x')[:24]:24} | {_channel(shown, 'y')[:24]:24} | {split[:16]:16} | "
            f"{ms:6.1f}ms | {_verdict(verdict):40} |"
        )
        if not verdict.acceptable:
            why_not.append((name, verdict.why_not))
    print()
    print(f"{acceptable} of {len(names)} acceptable; view() took {total:.0f} ms in all.")
    for name, why in why_not:
        print(textwrap.fill(f"{name}: {why}", width=100, subsequent_indent="    "))


if __name__ == "__main__":
    main()
