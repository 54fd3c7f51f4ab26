"""Every chart kind's spec is valid Vega-Lite. ``draw.charts.chart_spec`` does not ask Altair to
validate each spec against the schema per call (a tenth of a view's time): chartkit writes the
spec from a plan, so the check belongs here, over every bundled example and corpus dataset,
each of their alternatives, and the chart options that change a spec's shape."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import altair as alt
import pytest
from altair.utils.schemapi import validate_jsonschema

from chartkit import view

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.datasets import DATASETS, dataset

EXAMPLES = Path(__file__).resolve().parents[1] / "chartkit" / "examples"
SCHEMA = alt.vegalite.v6.schema.core.load_schema()


def _valid_specs(rows: Any, decl: dict[str, Any] | None, **picks: Any) -> int:
    """Validate the spec of the default and of each alternative; how many were charts."""
    shown = view(rows, decl, **picks)
    specs = [shown.spec] + [view(rows, decl, choose=k).spec
                            for k in range(len(shown.alternatives))]  # fmt: skip
    for spec in specs:
        if spec is not None:
            validate_jsonschema(spec, SCHEMA)
    return sum(spec is not None for spec in specs)


@pytest.mark.parametrize("name", sorted(p.stem for p in EXAMPLES.glob("*.json")))
def test_every_chart_of_each_bundled_example_is_valid_vega_lite(name: str) -> None:
    loaded = json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))
    _valid_specs(loaded["rows"], loaded.get("resultColumns"))  # (one declares nothing)


@pytest.mark.parametrize("name", DATASETS)
def test_every_chart_of_each_corpus_dataset_is_valid_vega_lite(name: str) -> None:
    ds = dataset(name)
    assert _valid_specs(ds.rows, ds.result_columns) >= 1


ROWS = [
    {"ts": f"2024-01-{d:02d}T{h:02d}:00:00Z", "v": float(d * h + r), "n": d % 4 + 1,
     "region": f"r{r}", "ok": d % 2 == 0}
    for d in range(1, 29) for h in (0, 12) for r in range(3)
]  # fmt: skip
DECL = {"ts": "date", "v": "number", "n": "number", "region": "string", "ok": "boolean"}


@pytest.mark.parametrize(
    "picks",
    [
        {},
        {"facet": "region"},
        {"aggregate": "max", "time_unit": "day"},
        {"format": ",.1f", "scale": "log", "zero": False},
        {"x": "region", "y": "v", "sort": "x"},
        {"x": "region", "y": "v", "color": "ok"},
        {"x": "v", "y": "n", "color": "region"},
        {"x": "v"},
        {"x": "region", "aggregate": "count"},
        {"x": "ts", "y": ["v", "n"]},
        {"x": "n", "y": "v", "aggregate": "mean"},
    ],
    ids=lambda picks: ",".join(f"{k}={v}" for k, v in picks.items()) or "default",
)
def test_every_chart_option_writes_valid_vega_lite(picks: dict[str, Any]) -> None:
    shown = view(ROWS, DECL, **picks)
    assert shown.spec is not None, shown.reason
    validate_jsonschema(shown.spec, SCHEMA)
