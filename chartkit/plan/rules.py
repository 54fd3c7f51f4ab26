"""The chart rules as data the code executes: which charts the declared types allow, ranked.

``RULES`` is the one table. Each rule names the chart, the mark it is drawn with, what it needs
— a tuple of ``Need``, one per channel, each naming the kind of column it takes (``date``,
``number``, ``category``: a column declared string or boolean), how many, and the bounds on its
distinct values — whether it may be the chart a result opens on (``opens``), and the sentence
that says why it fits (``reason``). ``candidates()`` binds each rule's needs to the columns'
profiles, in rank order — by their DECLARED types (Altair's inference only for a column the
declaration leaves out), never by looking at values — and the planner draws the first
candidate that opens and holds more than one mark, and offers the rest as the alternatives.
The automatic chart and the alternatives come from this one pass.

``rule_table()`` renders the table as Markdown from the same data; docs/rules.md holds it, and
a test keeps the two equal.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final, Literal

from chartkit.plan.criteria import (
    KIND_COST,
    cost,
    criteria_table,
    deciding,
    is_response,
    said,
)
from chartkit.plan.encode import ColumnProfile
from chartkit.plan.roles import (
    Roles,
    assign,
    holds_its_place,
    is_code,
    is_factor,
    role_table,
    series_over,
)

__all__ = [
    "LOG_ORDERS",
    "MAX_CANDIDATES",
    "MAX_COLOR_CATEGORIES",
    "MAX_FACETS",
    "MAX_MEASURES",
    "PAIRS_ASKED",
    "PER_CHART",
    "RULES",
    "SHARED_POSITIONS",
    "Alternative",
    "Kind",
    "Need",
    "Rule",
    "candidates",
    "documented",
    "rule_table",
]

MAX_COLOR_CATEGORIES: Final = 10  # one palette hue family per series; more: facets or a top 10
MAX_FACETS: Final = 20  # small multiples beyond this are too small to read
MAX_MEASURES: Final = 10  # lines per measure draws at most this many (one hue each)
MAX_CANDIDATES: Final = 9  # the automatic chart and eight alternatives at most
PER_CHART: Final = 3  # of one chart, the three cheapest bindings at most
SHARED_POSITIONS: Final = 0.8  # a scatter's groups that each hold this share of x's distinct
# values or more (half the groups at least) are the same positions measured again: one panel
# each, as colors would be drawn over each other (Anscombe's four sets)
PAIRS_ASKED: Final = 20  # a scatter over max_points rows is counted per distinct (x, y) pair
# (a point each, sized by its rows, when the pairs fit max_points) only when they cannot
# outnumber this many times max_points (the rows, or x's distinct values times y's): a
# group-by no larger than that; past it, or when the pairs do not fit, a binned heatmap
LOG_ORDERS: Final = 3  # a scatter's axis whose values, all positive, span this many powers of
# ten or more is drawn on a log scale (below, the small values sit in one pixel at zero)

Kind = Literal["date", "number", "category", "factor", "label"]
"""What a need takes: a column drawn temporal, quantitative, or nominal (string or boolean);
a ``factor`` is a category or a number whose role is a factor's (``roles.is_factor``: a grid
of few levels), one whose values group the rows; a ``label`` is a category, or a number whose
few levels are codes (``roles.is_code``: 0/1, classes 1 to 4), the categories tried first."""
Slot = Literal["x", "y", "color", "facet", "series"]
_GROUPS: Final = frozenset({"factor", "label"})  # (which numbers are in them is their role's)

_KIND_OF_TYPE: Final[Mapping[str, Kind]] = {
    "temporal": "date",
    "quantitative": "number",
    "nominal": "category",
}
_KIND_WORDS: Final[Mapping[Kind, str]] = {
    "date": "date",
    "number": "number",
    "category": "string or boolean",
    "factor": "factor (a string or boolean, or a number of few levels)",
    "label": "label (a string or boolean, or a number of few levels that are codes)",
}


@dataclass(frozen=True, slots=True)
class Need:
    """What one channel of a rule takes from the result's columns.

    ``tries``: how many columns of the kind are tried, one candidate each (bars per the first
    two categories × the first two measures). ``many``/``at_least``: a channel holding several
    columns at once (lines per measure: two to five numbers). ``optional``: drawn when a column
    fits, the chart drawn without it otherwise. ``without``: bound only when that channel was
    not (a facet instead of colors). ``max_distinct``: a category of at most that many values;
    ``repeated``: a category some value of which repeats (a count of 1 each says nothing).
    A need on ``series`` binds no channel: the rule is offered only when such a column exists.
    A candidate binding a column more than half of whose rows offend its declared type
    (``roles.holds_its_place``) is offered as an alternative, never opened on.
    """

    slot: Slot
    kind: Kind
    tries: int = 1
    many: int = 1
    at_least: int = 1
    optional: bool = False
    without: Slot | None = None
    max_distinct: int | None = None
    repeated: bool = False

    def admits(self, q: ColumnProfile) -> bool:
        """Whether the profiled column can fill this need (its kind, its distinct values)."""
        if _kind(q) != self.kind and not (self.kind in _GROUPS and _kind(q) != "date"):
            return False  # (which numbers are factors is their role's: _Columns.ordered)
        if self.max_distinct is not None and q.distinct > self.max_distinct:
            return False
        return not (self.repeated and q.distinct >= q.rows)

    def describe(self) -> str:
        """The need in words, for the rule table."""
        what = _KIND_WORDS[self.kind]
        if self.many > 1:
            what = f"{self.at_least} to {self.many} {what}s"
        bounds = []
        if self.max_distinct is not None:
            bounds.append(f"≤ {self.max_distinct} values")
        if self.repeated:
            bounds.append("repeated values")
        if bounds:
            what = f"{what} ({', '.join(bounds)})"
        if self.tries > 1:
            what = f"{what}, first {self.tries}"
        if self.slot == "series":
            return f"only when a {what} exists"
        said = f"{self.slot}: {what}"
        if self.without is not None:
            said = f"{said}, without {self.without}"
        return f"[{said}]" if self.optional else said


@dataclass(frozen=True, slots=True)
class Rule:
    """One row of the rule table: a chart, what it needs, and why it fits.

    ``reason`` is the sentence (``str.format`` fields: ``x``, ``y``, ``ys``, ``xt`` how x is
    typed, "declared string" or "not declared (Altair infers nominal)", ``facet``, ``n`` the
    facet's distinct values, ``series`` the phrase of the optional color or facet, from
    ``color_phrase`` / ``facet_phrase``).
    """

    chart: str
    mark: str
    needs: tuple[Need, ...]
    opens: bool
    reason: str
    drawn: str
    aggregate: str | None = None
    color_phrase: str = ""
    facet_phrase: str = ""

    def bind(self, columns: _Columns) -> Iterator[Alternative]:
        """Every binding of this rule's needs to the columns, in the order they are tried."""
        for need in self.needs:
            if need.slot == "series" and not any(map(need.admits, columns.ordered(need.kind))):
                return  # offered only when such a column exists
        required = [n for n in self.needs if not n.optional and n.slot != "series"]
        for bare in _bindings(required, columns, {}):
            fitted = [dict(bare)]
            for need in self.needs:
                if not need.optional:
                    continue
                grown = []
                for bound in fitted:
                    if need.without is not None and need.without in bound:
                        grown.append(bound)
                        continue
                    taken = {name for names in bound.values() for name in names}
                    fits = [q.name for q in columns.ordered(need.kind)
                            if need.admits(q) and q.name not in taken][: need.tries]  # fmt: skip
                    grown += [{**bound, need.slot: (fit,)} for fit in fits] or [bound]
                fitted = grown
            for bound in fitted:
                yield self._alternative(bound, columns)
            if fitted != [bare]:  # and without the optional channels: the criteria rank both
                yield self._alternative(bare, columns)

    def _alternative(self, bound: Mapping[str, tuple[str, ...]], c: _Columns) -> Alternative:
        x = bound["x"][0]
        ys = bound.get("y")
        color = bound["color"][0] if "color" in bound else None
        facet = bound["facet"][0] if "facet" in bound else None
        series = ""
        if color is not None and self.color_phrase:
            series = self.color_phrase.format(color=color, n=c.by_name[color].distinct)
        elif facet is not None and self.facet_phrase:
            series = self.facet_phrase.format(facet=facet, n=c.by_name[facet].distinct)
        words: dict[str, Any] = {
            "x": x,
            "xt": _said(c.by_name[x]),
            "y": ys[0] if ys else None,
            "ys": _join(ys) if ys else None,
            "facet": facet,
            "color": color,
            "n": c.by_name[facet].distinct if facet is not None else None,
            "series": series,
        }
        y: str | tuple[str, ...] | None = None
        if ys is not None:
            many = any(n.slot == "y" and n.many > 1 for n in self.needs)
            y = ys if many else ys[0]
        flagged = any(
            not holds_its_place(c.by_name[name]) for names in bound.values() for name in names
        )
        return Alternative(
            self.chart,
            self.reason.format(**words),  # a column name is never recapitalized
            x=x,
            y=y,
            color=color,
            facet=facet,
            aggregate=self.aggregate,
            may_open=not flagged,
        )

    def describe_needs(self) -> str:
        """The needs in words, for the rule table."""
        return "; ".join(n.describe() for n in self.needs)


def _bindings(
    needs: Sequence[Need], columns: _Columns, bound: dict[str, tuple[str, ...]]
) -> Iterator[dict[str, tuple[str, ...]]]:
    """The bindings of the required needs, in order: each need tries its first ``tries``
    fitting columns that no earlier need holds (a scatter's y is the next number after x)."""
    if not needs:
        yield dict(bound)
        return
    need, rest = needs[0], needs[1:]
    taken = {name for names in bound.values() for name in names}
    fits = [q.name for q in columns.ordered(need.kind) if need.admits(q) and q.name not in taken]
    if need.many > 1:
        options = [tuple(fits[: need.many])] if len(fits) >= need.at_least else []
    else:
        options = [(name,) for name in fits[: need.tries]]
    for names in options:
        yield from _bindings(rest, columns, {**bound, need.slot: names})


_SERIES = Need("color", "label", optional=True, max_distinct=MAX_COLOR_CATEGORIES)
_TRIES: Final = 16  # the columns of a kind a need tries: the criteria rank the bindings

_PER_CATEGORY: Final = (Need("x", "category", tries=_TRIES), Need("y", "number", tries=_TRIES))
"""What bars take: a category on x, a number on y (grouped bars add the other category)."""

RULES: Final[tuple[Rule, ...]] = (
    Rule(
        "lines",
        "line",
        (
            Need("x", "date"),
            Need("y", "number", tries=_TRIES),
            _SERIES,
            Need("facet", "category", optional=True, without="color", max_distinct=MAX_FACETS),
        ),
        True,
        "{x} is declared date and {y} number: a line over time{series} shows how {y} moves.",
        "line per series (or one small chart per value)",
        color_phrase=", one per {color} ({n} values),",
        facet_phrase=", one small chart per {facet} ({n} values: more than ten colors),",
    ),
    Rule(
        "faceted lines",
        "line",
        (
            Need("x", "date"),
            Need("y", "number"),
            Need("facet", "category", max_distinct=MAX_FACETS),
            Need("series", "category", max_distinct=MAX_COLOR_CATEGORIES),
        ),
        False,
        "One small line chart of {y} per {facet} ({n} values), so series that cross in one "
        "chart sit apart.",
        "small multiples",
    ),
    Rule(
        "lines per measure",
        "line",
        (Need("x", "date"), Need("y", "number", many=MAX_MEASURES, at_least=2)),
        True,
        "{ys} are all declared number and share {x}: one line per measure compares them.",
        "line per measure",
    ),
    Rule(
        "scatter",
        "point",
        (
            Need("x", "number", tries=_TRIES),
            Need("y", "number", tries=_TRIES),
            _SERIES,
        ),
        True,
        "{x} and {y} are both declared number: a scatter plot shows how they move together"
        "{series}.",
        "point per row",
        color_phrase=", colored by {color}",
    ),
    Rule(
        "series lines",
        "line",
        (
            Need("x", "number", tries=_TRIES),
            Need("y", "number", tries=_TRIES),
            Need("color", "factor", tries=_TRIES, max_distinct=MAX_FACETS),
        ),
        True,
        "{x} and {y} are declared number and each {color} is one series over {x}: a line "
        "of {y} per {color}.",
        "line per entity (small charts past ten)",
    ),
    Rule(
        "mean lines",
        "line",
        (
            Need("x", "number", tries=_TRIES),
            Need("y", "number", tries=_TRIES),
            Need(
                "color", "factor", tries=_TRIES, optional=True, max_distinct=MAX_COLOR_CATEGORIES
            ),
        ),
        True,
        "Rows share the values of {x} (the series of more entities than a chart can draw a "
        "line each, or a dose's few levels): a line of the mean of {y} per {x}{series}.",
        "mean per x (and color) of the entities, or of a dose's levels",
        aggregate="mean",
        color_phrase=", one per {color} ({n} values)",
    ),
    Rule(
        "bars",
        "bar",
        _PER_CATEGORY,
        True,
        "{x} is {xt} and {y} number: bars of the mean of {y} per {x}; a mean does "
        "not change with how many rows the result holds.",
        "mean per category",
    ),
    Rule(
        "total bars",
        "bar",
        _PER_CATEGORY,
        True,
        "Bars of the total (sum) of {y} per {x}: what each {x} adds up to.",
        "sum per category",
        aggregate="sum",
    ),
    Rule(
        "grouped bars",
        "bar",
        (
            *_PER_CATEGORY,
            Need("facet", "category", tries=_TRIES, max_distinct=MAX_COLOR_CATEGORIES),
        ),
        True,
        "{x} and {facet} are both categories and {y} a number: bars of the mean of {y} per "
        "{x}, one small chart per {facet} ({n} values), so both are drawn.",
        "mean per category, small charts per the other",
    ),
    Rule(
        "grouped total bars",
        "bar",
        (
            *_PER_CATEGORY,
            Need("facet", "category", tries=_TRIES, max_distinct=MAX_COLOR_CATEGORIES),
        ),
        True,
        "Bars of the total (sum) of {y} per {x}, one small chart per {facet} ({n} values): "
        "what each pair adds up to.",
        "sum per category, small charts per the other",
        aggregate="sum",
    ),
    Rule(
        "colored bars",
        "bar",
        (
            *_PER_CATEGORY,
            Need("color", "factor", tries=_TRIES, max_distinct=MAX_COLOR_CATEGORIES),
            Need("facet", "category", optional=True, max_distinct=MAX_COLOR_CATEGORIES),
        ),
        True,
        "{x} and {color} are factors and {y} a number: bars of the mean of {y} per {x}, one "
        "per {color} side by side{series}, so both are drawn.",
        "mean per category and color, side by side (small charts per a third)",
        facet_phrase=", one small chart per {facet} ({n} values)",
    ),
    Rule(
        "histogram",
        "bar",
        (Need("x", "number", tries=2),),
        True,
        "{x} is declared number: a histogram shows how its values are spread.",
        "10 bins",
    ),
    Rule(
        "count bars",
        "bar",
        (Need("x", "category", tries=2, repeated=True),),
        False,
        "{x} is {xt}: bars counting the rows of each value.",
        "rows per value",
        aggregate="count",
    ),
)
"""The rule table, in rank order."""

_BY_CHART: Final[Mapping[str, Rule]] = {r.chart: r for r in RULES}
_SIDE_BY_SIDE: Final = replace(
    _BY_CHART["bars"],
    needs=(_PER_CATEGORY[0], Need("y", "number", many=MAX_MEASURES, at_least=2)),
    reason="{ys} are declared number and alike, over a few rows each named by {x}: the value "
    "of each per {x}, side by side.",
    drawn="value of each like measure per named row",
)
"""Bars of like measures side by side per the category naming each of a few rows (a medal
table): offered by ``candidates`` only where ``Roles.named`` and ``Roles.like`` hold."""


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
    may_open: bool = field(default=True, compare=False)
    # the criteria that ranked it above the candidates listed before it, in words
    why: str = field(default="", compare=False)

    @property
    def opens(self) -> bool:
        """Whether this chart may be the one a result opens on: its rule opens, and every
        column it binds holds its declared type in most rows."""
        return _BY_CHART[self.chart].opens and self.may_open

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
    """The usable columns by kind, in the order needs try them."""

    by_kind: Mapping[Kind, tuple[ColumnProfile, ...]]
    by_name: Mapping[str, ColumnProfile] = field(default_factory=dict)

    def ordered(self, kind: Kind) -> tuple[ColumnProfile, ...]:
        return self.by_kind.get(kind, ())


def _kind(q: ColumnProfile) -> Kind:
    return _KIND_OF_TYPE.get(q.type, "category")


def _columns(profiles: Mapping[str, ColumnProfile], roles: Roles) -> _Columns:
    usable = [q for q in profiles.values() if q.usable]
    # in the declaration's order: a few offenders move no column (the criteria rank them);
    # a number that names rows is no axis
    measures = [
        q for q in usable
        if q.type == "quantitative" and roles.role(q.name) not in ("identifier", "entity")
    ]  # fmt: skip (an entity numbered 1 to 50 names series, as an identifier names rows)
    # a category with one value splits nothing; an identifier is not a category
    categories = [q for q in usable if q.type == "nominal" and q.distinct >= 2 and not q.id_like]
    # a factor: a category, or a number whose role is a factor's (a grid of few levels)
    # (a number's values are counted by its role, not its profile: past MAX_FACETS no need
    # takes it, as a category's max_distinct would say)
    factors = [
        q for q in usable
        if q in categories or (
            q.type == "quantitative" and is_factor(roles, q.name)
            and roles[q.name].distinct <= MAX_FACETS
        )
    ]  # fmt: skip
    # codes of fewest levels first (a 0/1 flag, then classes): a number's levels are its
    # counts', and one stray value moves a larger one in or out of being a code — but a
    # code named what a model predicts (a class called target) first of all
    codes = sorted(
        (q for q in usable if q.type == "quantitative" and is_code(roles, q.name)),
        key=lambda q: (not is_response(q.name), roles[q.name].distinct),
    )
    return _Columns(
        by_kind={
            "number": tuple(measures),
            "date": tuple(q for q in usable if q.type == "temporal"),
            "category": tuple(categories),
            "factor": tuple(factors),
            "label": (*categories, *codes),
        },
        by_name={q.name: q for q in usable},
    )


def _said(q: ColumnProfile) -> str:
    """How ``q`` is typed, to follow "is": its declaration, or that Altair infers it."""
    if q.declared is not None:
        return f"declared {q.declared}"
    return f"not declared (Altair infers {q.type})"


def _join(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def candidates(
    profiles: Mapping[str, ColumnProfile], roles: Roles | None = None
) -> tuple[Alternative, ...]:
    """The charts the rule table allows for these columns, ranked by their cost under the
    criteria (``chartkit.plan.criteria``) over the columns' roles (``chartkit.plan.roles``,
    read from the counts a backend answers; None: from the profiles alone): the cheapest
    first, at most ``PER_CHART`` of one chart, at most ``MAX_CANDIDATES`` in all. The rule
    table's order, then the declaration's, breaks ties only.

    >>> from chartkit.plan.encode import profile_columns
    >>> import pandas as pd
    >>> from chartkit.columns import normalize_result_columns
    >>> frame = pd.DataFrame({"k": ["a", "b"], "v": [1.0, 2.0]})
    >>> decl = normalize_result_columns({"k": "string", "v": "number"})
    >>> [a.chart for a in candidates(profile_columns(frame, decl, ()))]
    ['bars', 'histogram', 'total bars']
    """
    roles = roles if roles is not None else assign(profiles, None)
    columns = _columns(profiles, roles)
    listed = [alt for rule in RULES for alt in rule.bind(columns)]
    like = roles.like
    if like:  # like measures drawn together: the lines of those, not of the first ten
        alike = [columns.by_name[n] for n in like if n in columns.by_name]
        only = _Columns({**columns.by_kind, "number": tuple(alike)}, columns.by_name)
        rule = _BY_CHART["lines per measure"]  # (past ten lines: a small chart each, to 20)
        wide = replace(rule, needs=tuple(
            replace(n, many=MAX_FACETS) if n.many > 1 else n for n in rule.needs
        ))  # fmt: skip
        listed += [a for a in wide.bind(only) if a not in listed]
        # and over a grid that keys the rows alone (years, a row each): a series as a date is
        ys = tuple(q.name for q in alike[:MAX_FACETS])
        for grid in roles.of("grid"):
            if len(ys) >= 2 and grid in columns.by_name and series_over(roles, grid, []):
                listed.append(wide._alternative({"x": (grid,), "y": ys}, columns))
        # and per a category naming each of a few rows (nations): their bars side by side
        for name in roles.named:
            if name in columns.by_name and len(ys) >= 2:
                bound = {"x": (name,), "y": ys[:MAX_MEASURES]}
                listed.append(_SIDE_BY_SIDE._alternative(bound, columns))
    scored = [cost(a, roles) for a in listed]  # each candidate scored once
    costs = [total for total, _ in scored]
    broken = [{name for name, _ in b} for _, b in scored]
    order = sorted(range(len(listed)), key=lambda i: (round(costs[i], 6), i))
    out: list[Alternative] = []
    per_chart: dict[str, int] = {}
    for i in order:
        a = listed[i]
        if per_chart.get(a.chart, 0) >= PER_CHART:
            continue
        if a.color is None and any(
            (k.chart, k.x, k.y, k.facet) == (a.chart, a.x, a.y, a.facet) and k.color for k in out
        ):  # the same chart colored ranks first: drawn from its picks it would be colored too
            continue
        per_chart[a.chart] = per_chart.get(a.chart, 0) + 1
        # the candidates listed first that this one passes over, though their chart alone
        # costs no more: the criteria, not the kind of chart, decided
        kind = KIND_COST.get(a.chart, 1.0)
        passed = [
            broken[j] for j in range(i)
            if costs[j] > costs[i] and KIND_COST.get(listed[j].chart, 1.0) <= kind
        ]  # fmt: skip
        why = said(deciding(a.chart, broken[i], passed), a) if passed else ""
        out.append(replace(a, why=why) if why else a)
        if len(out) == MAX_CANDIDATES:
            break
    return tuple(out)


def rule_table() -> str:
    """The rule table as Markdown, made from ``RULES``: what docs/rules.md holds."""
    lines = [
        "| rank | chart | needs | opens | mark | aggregate | drawn as | reason |",
        "|---:|---|---|---|---|---|---|---|",
    ]
    for i, r in enumerate(RULES):
        reason = r.reason.replace("|", "\\|")
        lines.append(
            f"| {i} | {r.chart} | {r.describe_needs()} | {'yes' if r.opens else 'no'} | "
            f"{r.mark} | {r.aggregate or '—'} | {r.drawn} | {reason} |"
        )
    return "\n".join(lines) + "\n"


_TABLES: Final[tuple[tuple[str, Any], ...]] = (
    ("role table: generated by chartkit.plan.roles.role_table()", role_table),
    ("criteria table: generated by chartkit.plan.criteria.criteria_table()", criteria_table),
    ("rule table: generated by chartkit.plan.rules.rule_table()", rule_table),
)


def documented(text: str) -> str:
    """``text`` (docs/rules.md) with its role, criteria and rule tables replaced by the ones
    made from ``ROLES``, ``CRITERIA`` and ``RULES``."""
    for marker, table in _TABLES:
        start_mark, end_mark = f"<!-- {marker} -->\n", f"<!-- end of {marker.split(':')[0]} -->"
        start = text.index(start_mark) + len(start_mark)
        text = text[:start] + table() + text[text.index(end_mark, start) :]
    return text
