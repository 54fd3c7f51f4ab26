"""charts.py: a Plan becomes an Altair chart; exports render offline."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import pandas as pd
import pytest

from chartkit import ChartkitError, view
from chartkit.charts import build_chart, spec_to_png, spec_to_svg
from chartkit.decide import Plan
from chartkit.encode import Encoding


def _plan(rows: int) -> Plan:
    data = pd.DataFrame({"k": [f"k{i}" for i in range(rows)], "v": [float(i) for i in range(rows)]})
    return Plan(
        kind="chart", reason="r", mark="bar", data=data,
        encodings={
            "x": Encoding("k", "nominal", "declared", field="k", title="k", declared="string"),
            "y": Encoding("v", "quantitative", "declared", field="v", title="v",
                          declared="number"),
        },
    )  # fmt: skip


def test_a_plan_becomes_a_chart_whose_dict_carries_the_declared_types() -> None:
    spec = build_chart(_plan(3)).to_dict()
    assert spec["mark"]["type"] == "bar"
    assert spec["encoding"]["x"]["type"] == "nominal"
    assert spec["encoding"]["y"]["type"] == "quantitative"
    (values,) = spec["datasets"].values()
    assert [r["v"] for r in values] == [0.0, 1.0, 2.0]


def test_more_rows_than_altairs_limit_never_raise_max_rows() -> None:
    spec = build_chart(_plan(6_000)).to_dict()  # the plan decides the size, not Altair
    (values,) = spec["datasets"].values()
    assert len(values) == 6_000


def test_a_table_plan_has_no_chart() -> None:
    with pytest.raises(ChartkitError, match="there is no chart to build: no measure"):
        build_chart(Plan(kind="table", reason="no measure"))


def test_static_exports_render_offline() -> None:
    spec = build_chart(_plan(3)).to_dict()
    assert spec_to_png(spec)[:4] == b"\x89PNG"
    assert "<svg" in spec_to_svg(spec)


def test_a_saved_svg_is_an_image_named_by_its_title_and_described_by_the_reason(
    tmp_path: Any,
) -> None:
    rows = [{"k<script>": "a", "v": 1.0}, {"k<script>": "b", "v": 2.0}]
    v = view(rows, {"k<script>": "string", "v": "number"})
    root = ET.fromstring(v.save(tmp_path / "c.svg").read_text())  # still well-formed XML
    ns = "{http://www.w3.org/2000/svg}"
    assert root.get("role") == "img"
    assert root.get("aria-label") == v.reason
    title, desc = root.find(f"{ns}title"), root.find(f"{ns}desc")
    assert title is not None and title.text == "v by k<script>"
    assert desc is not None and desc.text == v.reason
