"""The chart rules as data: which charts the declared types allow, ranked, each with its reason.

``RULES`` is the one table. Each rule names the chart, the declared types it needs, whether it
may be the chart a result opens on (``opens``), and the sentence that says why it fits. The
rules are read in rank order; ``candidates()`` binds each to the columns of a result — by their
DECLARED types (Altair's inference only for a column the declaration leaves out), never by
looking at values — and ``decide.py`` draws the first candidate that opens and holds more than
one mark, and offers the rest as ``View.alternatives``.

=====================  ============================================  =====  =================
chart                  needs                                         opens  drawn as
=====================  ============================================  =====  =================
lines                  date × number (+ string ≤ 10 values: series;  yes    line per series
                       11–20 values: small multiples)
faceted lines          date × number × string (2–20 values)          no     small multiples
lines per measure      date × two or more numbers                    no     line per measure
bars                   string or boolean × number                    yes    mean per category
total bars             string or boolean × number                    no     sum per category
scatter                number × number (+ string ≤ 10: color)        yes    point per row
histogram              number                                        yes    10 bins
count bars             string or boolean                             no     rows per value
=====================  ============================================  =====  =================
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Final

from chartkit.encode import ColumnProfile

__all__ = [
    "MAX_COLOR_CATEGORIES",
    "MAX_FACETS",
    "RULES",
    "Alternative",
    "Rule",
    "candidates",
]

MAX_COLOR_CATEGORIES = 10  # one palette hue family per series; more become facets or a top 10
MAX_FACETS = 20  # small multiples beyond this are too small to read
MAX_MEASURES = 5  # lines per measure draws at most this many
MAX_CANDIDATES = 9  # the automatic chart and eight alternatives at most


@dataclass(frozen=True, slots=True)
class Rule:
    """One row of the rule table: a chart, what it needs, and why it fits."""

    chart: str
    needs: str
    opens: bool
    reason: str


RULES: Final[tuple[Rule, ...]] = (
    Rule(
        "lines",
        "date × number",
        True,
        "{x} is declared date and {y} number: a line over time{series} shows how {y} moves.",
    ),
    Rule(
        "faceted lines",
        "date × number × string",
        False,
        "One small line chart of {y} per {facet} ({n} values), so series that cross in one "
        "chart sit apart.",
    ),
    Rule(
        "lines per measure",
        "date × two or more numbers",
        False,
        "{ys} are all declared number and share {x}: one line per measure compares them.",
    ),
    Rule(
        "bars",
        "string or boolean × number",
        True,
        "{x} is declared {xt} and {y} number: bars of the mean of {y} per {x}; a mean does "
        "not change with how many rows the result holds.",
    ),
    Rule(
        "total bars",
        "string or boolean × number",
        False,
        "Bars of the total (sum) of {y} per {x}: what each {x} adds up to.",
    ),
    Rule(
        "scatter",
        "number × number",
        True,
        "{x} and {y} are both declared number: a scatter plot shows how they move together"
        "{series}.",
    ),
    Rule(
        "histogram",
        "number",
        True,
        "{x} is declared number: a histogram shows how its values are spread.",
    ),
    Rule(
        "count bars",
        "string or boolean",
        False,
        "{x} is declared {xt}: bars counting the rows of each value.",
    ),
)
"""The rule table, in rank order."""

_BY_CHART: Final[Mapping[str, Rule]] = {r.chart: r for r in RULES}


@dataclass(frozen=True, slots=True)
class Alternative:
    """A chart the declared types allow for this result, the reason it fits, and its picks.

    ``picks()`` are the ``view()`` keywords that draw it; ``view(..., choose=N)`` draws the
    Nth alternative of the view.
    """

    chart: str
    reason: str
    x: str | None = None
    y: str | tuple[str, ...] | None = None
    color: str | None = None
    facet: str | None = None
    aggregate: str | None = None

    @property
    def opens(self) -> bool:
        """Whether this chart may be the one a result opens on."""
        return _BY_CHART[self.chart].opens

    def picks(self) -> dict[str, Any]:
        """The ``view()`` keywords that draw this chart."""
        out: dict[str, Any] = {
            "x": self.x,
            "y": list(self.y) if isinstance(self.y, tuple) else self.y,
            "color": self.color,
            "facet": self.facet,
            "aggregate": self.aggregate,
        }
        return {k: v for k, v in out.items() if v is not None}

    def to_dict(self) -> dict[str, Any]:
        """The payload form: chart, reason and the picks that draw it."""
        return {"chart": self.chart, "reason": self.reason, "picks": self.picks()}


@dataclass(frozen=True, slots=True)
class _Columns:
    measures: tuple[ColumnProfile, ...]
    dates: tuple[ColumnProfile, ...]
    categories: tuple[ColumnProfile, ...]


def _columns(profiles: Mapping[str, ColumnProfile]) -> _Columns:
    usable = [q for q in profiles.values() if q.usable]
    measures = [q for q in usable if q.type == "quantitative"]
    # a measure the check found nothing wrong with comes first (declared order otherwise)
    measures.sort(key=lambda q: q.violation is not None)
    return _Columns(
        measures=tuple(measures),
        dates=tuple(q for q in usable if q.type == "temporal"),
        categories=tuple(
            q for q in usable if q.type == "nominal" and q.distinct >= 2 and not q.id_like
        ),
    )


def _said(q: ColumnProfile) -> str:
    return q.declared if q.declared is not None else f"(undeclared, inferred {q.type})"


def _text(chart: str, **words: Any) -> str:
    return _BY_CHART[chart].reason.format(**words)  # a column name is never recapitalized


def candidates(profiles: Mapping[str, ColumnProfile]) -> tuple[Alternative, ...]:
    """The charts the rule table allows for these columns: one of each chart first, in the
    table's order, then the next of each; at most ``MAX_CANDIDATES``.

    >>> from chartkit.encode import profile_columns
    >>> import pandas as pd
    >>> from chartkit.columns import normalize_result_columns
    >>> frame = pd.DataFrame({"k": ["a", "b"], "v": [1.0, 2.0]})
    >>> decl = normalize_result_columns({"k": "string", "v": "number"})
    >>> [a.chart for a in candidates(profile_columns(frame, decl, ()))]
    ['bars', 'total bars', 'histogram', 'count bars']
    """
    rank = {r.chart: i for i, r in enumerate(RULES)}
    seen: dict[str, int] = {}
    keyed = []
    for a in _generate(_columns(profiles)):
        seen[a.chart] = seen.get(a.chart, 0) + 1
        keyed.append(((seen[a.chart], rank[a.chart]), a))  # one of each chart first
    keyed.sort(key=lambda pair: pair[0])
    return tuple(a for _, a in keyed[:MAX_CANDIDATES])


def _generate(c: _Columns) -> Iterator[Alternative]:
    series = [q for q in c.categories if q.distinct <= MAX_COLOR_CATEGORIES]
    facets = [q for q in c.categories if q.distinct <= MAX_FACETS]
    if c.dates and c.measures:
        t, m = c.dates[0], c.measures[0]
        s = series[0] if series else None
        # past ten values a series is told apart by small charts, not by colors
        wide = facets[0] if s is None and facets else None
        said = f", one per {s.name} ({s.distinct} values)," if s else ""
        if wide is not None:
            said = (
                f", one small chart per {wide.name} ({wide.distinct} values: more than ten colors),"
            )
        yield Alternative(
            "lines",
            _text("lines", x=t.name, y=m.name, series=said),
            x=t.name,
            y=m.name,
            color=s.name if s else None,
            facet=wide.name if wide else None,
        )
        if facets and wide is None:
            f = facets[0]
            yield Alternative(
                "faceted lines",
                _text("faceted lines", y=m.name, facet=f.name, n=f.distinct),
                x=t.name,
                y=m.name,
                facet=f.name,
            )
        if len(c.measures) > 1:
            ms = tuple(q.name for q in c.measures[:MAX_MEASURES])
            yield Alternative(
                "lines per measure",
                _text("lines per measure", ys=_join(ms), x=t.name),
                x=t.name,
                y=ms,
            )
    for k in c.categories[:2]:
        for m in c.measures[:2]:
            yield Alternative(
                "bars", _text("bars", x=k.name, xt=_said(k), y=m.name), x=k.name, y=m.name
            )
            yield Alternative(
                "total bars",
                _text("total bars", x=k.name, y=m.name),
                x=k.name,
                y=m.name,
                aggregate="sum",
            )
    if len(c.measures) > 1:
        a, b = c.measures[0], c.measures[1]
        s = series[0] if series else None
        yield Alternative(
            "scatter",
            _text("scatter", x=a.name, y=b.name, series=f", colored by {s.name}" if s else ""),
            x=a.name,
            y=b.name,
            color=s.name if s else None,
        )
    for m in c.measures[:2]:
        yield Alternative("histogram", _text("histogram", x=m.name), x=m.name)
    repeated = [k for k in c.categories if k.distinct < k.rows]  # a count of 1 each says nothing
    for k in repeated[:2]:
        yield Alternative(
            "count bars",
            _text("count bars", x=k.name, xt=_said(k)),
            x=k.name,
            aggregate="count",
        )


def _join(names: tuple[str, ...]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
