"""The notebook surface: how a View and a CheckOutcome show themselves in Jupyter.

- ``chartkit.notebook._display``: the Vega-Lite mime bundle with its PNG fallback, the words
  (reason, findings, refused axes, notes) as escaped HTML, the table's first rows with offending
  cells highlighted; ``View._repr_mimebundle_`` and ``View._ipython_display_`` call it, and
  ``CheckOutcome``'s notebook HTML is attached from here (``install``), so the check stage
  imports no surface.
- ``chartkit.notebook.widget``: ``ChartWidget``, the anywidget widget whose clicked mark or
  brushed range Python reads back (``pip install 'chartkit[widget]'``; also importable as
  ``chartkit.widget``).

Importing this package imports neither.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from chartkit.check.integrity import CheckOutcome

__all__ = ["install"]


def _outcome_html(outcome: CheckOutcome) -> str:
    from chartkit.notebook._display import outcome_html

    return outcome_html(outcome)


def install() -> None:
    """Give ``CheckOutcome`` its notebook HTML, ``_repr_html_`` (chartkit's ``__init__`` calls
    it): the check stage sits below the surfaces and imports none, and an outcome still shows
    itself in a notebook. The HTML is written on first display, not at import."""
    from chartkit.check.integrity import CheckOutcome

    setattr(CheckOutcome, "_repr_html_", _outcome_html)  # noqa: B010  # a class, not a name
