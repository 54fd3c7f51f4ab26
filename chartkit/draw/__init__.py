"""The draw stage: a plan → Altair → Vega-Lite, and the exports (PNG, SVG, HTML).

- ``chartkit.draw.charts``: ``Plan`` → ``altair.Chart`` (the only module that imports Altair)
  and the drawing rules read from the plan's data as counted.
- ``chartkit.draw.caption``: what an export says on the image (rows left out, flagged columns).
- ``chartkit.draw.table_export``: a table view exported (SVG, PNG, HTML) under its reason.

Each module is imported on its own: importing this package imports none of them (nor Altair).
"""

from __future__ import annotations

__all__: list[str] = []
