"""A View as a notebook widget: tooltips, a clicked mark or a brushed range read back in Python.

``ChartWidget(view)`` is an anywidget widget — it runs wherever anywidget does (JupyterLab,
Notebook 7, VS Code, Colab, marimo) — drawing the chart with the same pinned Vega, Vega-Lite
and vega-embed as chartkit's view page (``chartkit/web/widget.js``, built by ``make web``),
offline: nothing is loaded from the network. The chart is the exported one
(``View.exported_spec()``): the rows it leaves out are said on it, as the title's subtitle.
Hovering a mark shows its tooltip; clicking a mark or brushing the x axis (when the View's
``drill`` names it brushable: a line, a scatter, a histogram) sends the selection to the
kernel, where ``widget.selection`` is the
``chartkit.selection.Selection`` it stands for and ``widget.rows()`` the rows behind it,
offenders marked.

A viewer without widgets (GitHub, nbviewer, a static export) shows the plain mime bundle the
widget carries beside itself: the View's own (``View._repr_mimebundle_``).

>>> from chartkit import view
>>> v = view([{"team": "a", "n": 1}, {"team": "b", "n": 2}], {"team": "string", "n": "number"})
>>> w = ChartWidget(v)                                     # doctest: +SKIP
>>> w.selected = {"kind": "mark", "datum": {"team": "a"}}  # doctest: +SKIP (the browser sets it)
>>> w.selection.describe(), w.rows().total                 # doctest: +SKIP
('team = "a"', 1)
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from chartkit.errors import ChartkitError, MissingExtraError

if TYPE_CHECKING:
    from chartkit.selection import RowsPage, Selection
    from chartkit.views import View

__all__ = ["WIDGET_JS", "ChartWidget"]

WIDGET_JS: Final = Path(__file__).resolve().parent.parent / "web" / "widget.js"
"""The widget's ES module: Vega, Vega-Lite and vega-embed bundled (``make web``)."""

try:
    import anywidget
    import traitlets
except ModuleNotFoundError as exc:  # pragma: no cover - the extra is installed in dev
    raise MissingExtraError(
        "chartkit.notebook.widget needs anywidget: pip install 'chartkit[widget]'"
    ) from exc


class ChartWidget(anywidget.AnyWidget):
    """A chart in a notebook whose selection Python reads (``selection``, ``rows()``)."""

    _esm = WIDGET_JS
    spec = traitlets.Dict().tag(sync=True)
    drill = traitlets.Dict().tag(sync=True)
    """The View's ``drill`` (``View.to_dict()["drill"]``): the browser offers a click when it
    names marks and keys, and a brush along x when ``brushable`` names the x field."""
    selected = traitlets.Dict().tag(sync=True)
    """What the browser last sent: ``{"kind": "mark", "datum": {...}}``, ``{"kind":
    "interval", "interval": {field: [low, high]}}``, or ``{}`` (nothing selected)."""

    def __init__(self, view: View, **kwargs: Any) -> None:
        from chartkit.views import View

        if not isinstance(view, View):
            raise ChartkitError(f"ChartWidget shows a chartkit View; got {type(view).__name__}")
        if view.kind != "chart" or view.spec is None:
            raise ChartkitError(f"this view has no chart to show in a widget: {view.reason}")
        from chartkit.selection import drill_payload

        super().__init__(  # the caption on the picture; what can be selected, as every host
            spec=view.exported_spec(), drill=drill_payload(view) or {}, **kwargs
        )
        self._view = view

    @property
    def view(self) -> View:
        return self._view

    @property
    def selection(self) -> Selection | None:
        """The selection the browser sent, as a typed predicate; None when nothing is selected.

        Raises ``ChartkitError`` when what was sent names no mark or axis of this chart.
        """
        from chartkit.selection import Selection

        sent = dict(self.selected or {})
        kind = sent.get("kind")
        if not sent or kind is None:
            return None
        if kind == "mark":
            return Selection.from_datum(self._view, sent.get("datum") or {})
        if kind == "interval":
            return Selection.from_interval(self._view, sent.get("interval") or {})
        raise ChartkitError(
            f"the widget sent a selection of kind {kind!r}; expected mark or interval"
        )

    def rows(self, *, page: int = 0, page_size: int = 50) -> RowsPage | None:
        """One page of the rows behind the current selection (None when nothing is selected)."""
        selection = self.selection
        if selection is None:
            return None
        return self._view.rows_behind(selection, page=page, page_size=page_size)

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        """The widget, with the View's plain bundle beside it for viewers without widgets."""
        bundle = super()._repr_mimebundle_(**kwargs)
        if bundle is None:
            return None
        data, metadata = bundle if isinstance(bundle, tuple) else (bundle, {})
        plain = self._view._repr_mimebundle_()
        return {**plain, **data}, metadata
