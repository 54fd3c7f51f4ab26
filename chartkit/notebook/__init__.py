"""The notebook surface: how a View and a CheckOutcome show themselves in Jupyter.

- ``chartkit.notebook._display``: the Vega-Lite mime bundle with its PNG fallback, the words
  (reason, findings, refused axes, notes) as escaped HTML, the table's first rows with offending
  cells highlighted; ``View._repr_mimebundle_`` and ``View._ipython_display_`` call it, and
  ``CheckOutcome``'s notebook HTML is attached from here (``install``), so the check stage
  imports no surface.
- ``chartkit.notebook.widget``: ``ChartWidget``, the anywidget widget whose clicked mark or
  brushed range Python reads back (``pip install 'chartkit[widget]'``).

Importing this package imports neither.
"""

from __future__ import annotations

__all__: list[str] = []
