"""The benchmark of real data: the datasets two packages ship offline, as a tool returns them.

The 17 datasets of ``vega_datasets.local_data`` and the 28 tables of ``statsmodels.datasets``
(``"source": "statsmodels"``). Each ``bench/datasets/NAME.json`` holds what a tool author
writes for one dataset — the tool's name, its description and its ``resultColumns`` — and what
the galleries draw for the same data: the Vega-Lite or Altair gallery's spec file
(``gallery.repo``, ``gallery.spec``) and, in words, what it shows (``gallery.draws``); for a
dataset no gallery charts, ``analyst`` says the chart an analyst would draw first instead.
``years`` names the number columns that hold years: a tool returns a year as the integer it is
(``1871``), so its author declares it ``number`` (a ``date`` is ISO 8601 text, which these rows
do not hold); a series whose rows carry a timestamp (``co2``, ``danish_data``) declares it
``date``. ``index`` names the column a statsmodels table keeps in its index (a city, a state,
a date): the tool returns it as the row's first value.

``load(name)`` gives the rows as a tool would return them: JSON values, dates as ISO 8601
strings, a missing value as ``None``; statsmodels' loaders turn every column into floats, so a
column whose values are all whole numbers is given back as the integers its file holds. Rows
are read from the installed package, never copied here. What makes a default acceptable is
code, in ``bench/datasets/criteria.py``, read by ``bench/gallery.py``, ``docs/gallery.py`` and
``tests/test_gallery_datasets.py``.
"""

from __future__ import annotations

import json
import math
import warnings
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bench.datasets.criteria import Facts, Verdict
    from chartkit import View

__all__ = ["DATASETS", "Dataset", "dataset", "default_view", "facts", "judged", "load"]

HERE = Path(__file__).resolve().parent
DATASETS: tuple[str, ...] = tuple(sorted(p.stem for p in HERE.glob("*.json")))
"""The benchmark's datasets: one ``NAME.json`` each, named as its package names it."""
SOURCES = ("vega_datasets", "statsmodels")
"""The packages the rows are read from (a held-out set comes from other packages)."""


@dataclass(frozen=True)
class Dataset:
    """One dataset of the benchmark: the declaration, the gallery's chart, and the rows."""

    name: str
    source: str
    tool: str
    description: str
    result_columns: dict[str, Any]
    gallery: dict[str, str] | None
    analyst: str | None = None
    years: tuple[str, ...] = ()
    rows: list[dict[str, Any]] = field(default_factory=list, repr=False)

    @property
    def shows(self) -> str:
        """What the gallery draws for this data (or, with no gallery chart, an analyst)."""
        if self.gallery is not None:
            return f"{self.gallery['draws']} ({self.gallery['repo']}: {self.gallery['spec']})"
        return f"{self.analyst} (no gallery chart)"


@cache
def dataset(name: str) -> Dataset:
    """The dataset ``name`` with its rows (read once per process)."""
    if name not in DATASETS:
        raise ValueError(f"no dataset {name!r} in bench/datasets; use one of {', '.join(DATASETS)}")
    spec = json.loads((HERE / f"{name}.json").read_text(encoding="utf-8"))
    source = spec.get("source", "vega_datasets")
    if source not in SOURCES:
        raise ValueError(f"{name}.json: source {source!r} is not one of {', '.join(SOURCES)}")
    return Dataset(
        name=name,
        source=source,
        tool=spec["tool"],
        description=spec["description"],
        result_columns=spec["resultColumns"],
        gallery=spec["gallery"],
        analyst=spec.get("analyst"),
        years=tuple(spec.get("years", ())),
        rows=load(name, spec["resultColumns"], source=source, index=spec.get("index")),
    )


def load(
    name: str, result_columns: dict[str, Any], *, source: str = "vega_datasets",
    index: str | None = None,
) -> list[dict[str, Any]]:  # fmt: skip
    """The rows of ``name`` in ``source``'s package as JSON values, keys in file order.

    A date becomes ISO 8601 text (``1970-01-01``, or with its time when it has one), a missing
    value ``None``; a number stays a number (statsmodels' whole-number floats the integers
    they are). ``index`` is the name of a statsmodels table's index, given first in each row.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the packages' own deprecation warnings
        frame = _statsmodels(name, index) if source == "statsmodels" else _vega(name)
    dates = {c for c, d in result_columns.items() if _type(d) == "date"}
    rows: list[dict[str, Any]] = []
    for record in frame.to_dict(orient="records"):
        rows.append({str(k): _json_value(v, str(k) in dates) for k, v in record.items()})
    return rows


def _vega(name: str) -> Any:
    from vega_datasets import local_data

    return getattr(local_data, name.replace("-", "_"))()


def _statsmodels(name: str, index: str | None) -> Any:
    """A statsmodels table as its file holds it: the index as a column, whole numbers as ints."""
    import importlib

    frame = importlib.import_module(f"statsmodels.datasets.{name}").load_pandas().data
    if index is not None:
        frame = frame.rename_axis(index).reset_index()
    for column in frame.columns:
        values = frame[column]
        if values.dtype.kind == "f" and values.notna().all() and (values % 1 == 0).all():
            frame[column] = values.astype("int64")
    return frame


def _type(declaration: Any) -> str:
    return str(declaration if isinstance(declaration, str) else declaration["type"])


def _json_value(value: Any, is_date: bool) -> Any:
    if value is None:
        return None
    if isinstance(value, float) and math.isnan(value):
        return None
    if hasattr(value, "isoformat"):  # a pandas Timestamp
        if value != value:  # NaT
            return None
        text: str = value.isoformat()
        return text[:10] if text.endswith("T00:00:00") else text
    if hasattr(value, "item"):  # a numpy scalar
        return value.item()
    if is_date and isinstance(value, str):
        return value
    return value


def default_view(name: str, *, reverse_keys: bool = False, **picks: Any) -> View:
    """``view()`` of the dataset as its tool returns it (``reverse_keys``: each row's keys in
    reverse order — the same rows, the same declaration); ``picks`` are passed to ``view()``."""
    from chartkit import view

    ds = dataset(name)
    rows = [dict(reversed(list(r.items()))) for r in ds.rows] if reverse_keys else ds.rows
    return view(rows, ds.result_columns, tool=ds.tool, **picks)


def facts(name: str) -> Facts:
    """What the criteria count on the dataset's rows."""
    from bench.datasets.criteria import Facts

    ds = dataset(name)
    return Facts.of(ds.rows, ds.result_columns, ds.years)


def judged(name: str) -> tuple[View, Verdict]:
    """The dataset's default View and the verdict of every property on it (key order too)."""
    from bench.datasets.criteria import judge

    shown = default_view(name)
    return shown, judge(shown, facts(name), default_view(name, reverse_keys=True))
