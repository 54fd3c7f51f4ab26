"""``Plan`` → ``altair.Chart``, and the chart's static exports. The only module building Altair.

The plan's data is already aggregated or binned and uses safe field names; it is embedded
inline as JSON records (dates as ISO wall-clock strings), so Altair's row limit never applies
and a spec never carries more than the plan's rows.
"""

from __future__ import annotations

import json
from typing import Any

import altair as alt
import vl_convert

from chartkit.decide import Plan
from chartkit.encode import Encoding
from chartkit.errors import ChartkitError

__all__ = [
    "CHART_HEIGHT",
    "CHART_WIDTH",
    "LABEL_LIMIT",
    "build_chart",
    "spec_to_html",
    "spec_to_png",
    "spec_to_svg",
]

CHART_WIDTH = 560
CHART_HEIGHT = 320
LABEL_LIMIT = 160  # pixels a category label may take before it is cut with an ellipsis

_CHANNELS: dict[str, Any] = {"x": alt.X, "y": alt.Y, "color": alt.Color}
_SECOND: dict[str, Any] = {"x": alt.X2, "y": alt.Y2}


def build_chart(plan: Plan) -> alt.Chart:
    """The Altair chart for a plan of kind ``"chart"``."""
    if plan.kind != "chart" or plan.data is None or plan.mark is None:
        raise ChartkitError(f"there is no chart to build: {plan.reason}")
    records = json.loads(plan.data.to_json(orient="records", date_format="iso"))
    chart = alt.Chart({"values": records})  # a plain dict: no per-row validation, no row limit
    mark_options: dict[str, Any] = {"tooltip": True}
    if plan.mark == "line":
        mark_options["point"] = len(records) <= 200
    chart = getattr(chart, f"mark_{plan.mark}")(**mark_options)
    channels: dict[str, Any] = {}
    for channel, enc in plan.encodings.items():
        channels[channel] = _channel(channel, enc, plan)
        if enc.bin and channel in _SECOND:
            channels[f"{channel}2"] = _SECOND[channel](field=f"{enc.field}_end")
    chart = chart.encode(**channels)
    properties: dict[str, Any] = {"width": CHART_WIDTH}
    if not plan.horizontal:
        properties["height"] = CHART_HEIGHT  # fixed, so long category labels cannot squash it
    if plan.title:
        properties["title"] = plan.title
    built: alt.Chart = chart.properties(**properties)
    return built


def _channel(channel: str, enc: Encoding, plan: Plan) -> Any:
    options: dict[str, Any] = {"field": enc.field, "type": enc.type, "title": enc.title}
    if enc.bin:
        options["bin"] = "binned"
    if enc.type == "nominal" and channel in ("x", "y"):
        options["axis"] = alt.Axis(labelLimit=LABEL_LIMIT)
    if plan.horizontal and channel == "y" and enc.type == "nominal":
        options["sort"] = "-x"  # the longest bar on top
    elif plan.mark == "bar" and enc.type == "nominal":
        options["sort"] = None  # keep the plan's order
    if channel == "color" and enc.aggregate == "count":
        options["scale"] = alt.Scale(scheme="blues")
    return _CHANNELS[channel](**options)


def _vl_version() -> str:
    major, minor = alt.SCHEMA_VERSION.lstrip("v").split(".")[:2]
    return f"{major}.{minor}"


def spec_to_png(spec: dict[str, Any], *, scale: float = 2.0) -> bytes:
    """A PNG of the spec, rendered offline by vl-convert."""
    png: bytes = vl_convert.vegalite_to_png(spec, vl_version=_vl_version(), scale=scale)
    return png


def spec_to_svg(spec: dict[str, Any]) -> str:
    """An SVG of the spec, rendered offline by vl-convert."""
    svg: str = vl_convert.vegalite_to_svg(spec, vl_version=_vl_version())
    return svg


def spec_to_html(spec: dict[str, Any]) -> str:
    """A self-contained HTML page for the spec: Vega, Vega-Lite and vega-embed inlined."""
    html: str = vl_convert.vegalite_to_html(spec, vl_version=_vl_version(), bundle=True)
    return html
