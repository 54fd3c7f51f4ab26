"""Roles: what each column is for in a chart, from its declared type, counts a backend makes
and, where names are the convention, its name.

``ROLES`` is the closed vocabulary, one record per role. ``assign`` gives each usable column
one role, reading its profile (the declared type, its distinct values), the ``NumberFacts`` a
backend counts over the values that hold their type, and whether categories key the rows
(``Facts.unique_key``). Values never change a declared type: a column declared number is a
measure, a grid, a weight, a coordinate or an identifier — never a category — and a stray
value that offends its declaration is left out of every count read here, so it moves no role.

>>> import pandas as pd
>>> from chartkit.columns import normalize_result_columns
>>> from chartkit.plan.encode import profile_columns
>>> from chartkit.plan.facts import FrameFacts
>>> frame = pd.DataFrame({"subject": list("aaabbbccc"), "days": [0, 1, 2] * 3,
...                       "reaction": [250.5, 258.7, 250.8, 222.7, 205.3, 203.0, 199.1, 194.3,
...                                    234.3]})
>>> decl = normalize_result_columns({"subject": "string", "days": "number", "reaction": "number"})
>>> roles = assign(profile_columns(frame, decl, ()), FrameFacts(frame))
>>> [(r.column, r.role) for r in roles.values()]
[('subject', 'entity'), ('days', 'grid'), ('reaction', 'measure')]
"""

from __future__ import annotations

import bisect
import math
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Final, Literal

from chartkit.plan.encode import ColumnProfile
from chartkit.plan.facts import NO_NUMBERS, Facts, NumberFacts

__all__ = [
    "GRID_MAX",
    "LEVELS_LINE_MIN",
    "LEVELS_MAX",
    "MAX_SERIES",
    "NESTS_MAX",
    "ROLES",
    "ColumnRole",
    "Role",
    "RoleRecord",
    "Roles",
    "assign",
    "holds_its_place",
    "indexes_series",
    "is_calendar",
    "is_code",
    "is_factor",
    "levels_over",
    "panel_over",
    "role_table",
    "series_over",
    "values_of",
]

Role = Literal[
    "time", "grid", "factor", "entity", "weight", "measure", "coordinate", "identifier"
]  # fmt: skip


@dataclass(frozen=True, slots=True)
class RoleRecord:
    """One role of the vocabulary: its name, what it is, and where a chart puts it."""

    role: Role
    means: str
    placed: str


ROLES: Final[tuple[RoleRecord, ...]] = (
    RoleRecord("time", "a column declared date", "x of a line"),
    RoleRecord(
        "grid",
        "a number of few ordered values (2 to 12, held by two rows each or more on average: "
        "doses, levels), or of evenly "
        "spaced whole values (years, days) or named a time (time, year, period, date) holding "
        "calendar years, that key the rows alone or with an entity",
        "x (a line per entity over it), never y; of 10 values or fewer that key no series, a "
        "factor too (a color of bars)",
    ),
    RoleRecord(
        "factor",
        "a category (declared string or boolean) of 2 values or more",
        "x of bars, a color or small charts",
    ),
    RoleRecord(
        "entity",
        "a factor (or a number: of fewer levels than the grid, or whole, of many values, "
        "over a grid of 5 levels or more, or whole and named id, of more values than a grid "
        "of levels and 30 at most: a paired design's subjects) each value of which is one "
        "series over the time or the grid (the two key the rows); never a category crossing "
        "a layout (two grids of levels keying the rows together: a Latin square's "
        "treatments)",
        "a line each (a color up to 10, small charts up to 20); past 20, a line of their mean "
        "per value of the time or the grid, one per factor of 10 values or fewer that holds "
        "each entity in one of its values (continents of countries), the entities averaged said",
    ),
    RoleRecord(
        "weight",
        "a whole, non-negative number over categories that key the rows: a count per combination",
        "y, summed (never averaged)",
    ),
    RoleRecord("measure", "any other number", "y; two of them a scatter"),
    RoleRecord(
        "coordinate",
        "a number named latitude or longitude (lat, lon, lng, long) within its range (a "
        "longitude from -180 to 180, or 0 to 360 degrees east)",
        "longitude on x and latitude on y, as on a map",
    ),
    RoleRecord(
        "identifier",
        "a category whose values are mostly distinct, a whole number named id, or whole "
        "numbers 1 to N past 30, each held, each by two rows or more on average (strata, "
        "travellers)",
        "no axis: it names rows (numbered ones may still be a panel's entity)",
    ),
)
"""The closed vocabulary of roles; ``role_table()`` renders it for docs/rules.md."""

GRID_MAX: Final = 12
"""A number of at most this many distinct values, each repeated, is a grid (days, doses)."""
SEQUENCE_MIN: Final = 5
"""An evenly spaced whole number keying the rows is a grid from this many values (a series)."""
SEQUENCE_FILLED: Final = 0.9
"""Such a grid's values fill at least this share of its even step's slots."""
SEQUENCE_STEP: Final = 10
"""The widest even step of such a grid: a year, five, a decade; a day, a week is 7."""
LEVELS_MAX: Final = 10
"""A grid of levels of at most this many values is a factor too: its values group the rows
as a category's do (a dose of three, a year of two), so it can color bars."""
CODE_SPAN: Final = 2
"""Few whole levels are codes when their span holds at most this many whole numbers per
level (0/1; 1 to 4; 4, 6, 8)."""
MAX_SERIES: Final = 20
"""An entity of at most this many values is a line each (small multiples beyond ten); one of
more is drawn as the mean of its values per point of the time or the grid (``panel_over``)."""
NESTS_MAX: Final = 10
"""A factor of at most this many values that holds each value of a wide entity in one of its
values (continents of countries) colors the mean lines of such an entity."""
MAX_KEYS: Final = 6
"""Categories that key the rows are looked for among at most this many columns."""
KEY_VALUES: Final = 100_000
"""Whether a time or a number of more values than this keys the rows is not asked: on an
engine it is a full GROUP BY of its own (2.5 s on 5M timestamps, where the chart's two queries
take 0.6 s). A time over that many rows is taken as a series; the lines planner still tests
each category for an entity (``choose.is_entity``)."""
PANEL: Final = 0.8
"""A grid keys the rows with an entity when the rows hold this share of their pairs or more:
each entity measured over (most of) the grid, as a panel is."""
CROSSED: Final = 0.5
"""Two categories or more key a table of counts when its rows hold this share of their
combinations (one row per category is no table of counts: its mean is its sum)."""
RUNS_MAX: Final = 30
"""A sequence of at most this many values (runs 1 to 20) that keys the rows with a number of
fewer levels (experiments 1 to 5) is the grid, those levels its entity; a longer one
(travellers 1 to 210, each with a row per mode) numbers the rows, not what they follow."""
LIKE_MAGNITUDE: Final = 10.0
"""Measures whose largest values are within this factor of each other are alike (one unit)."""
STRAYS: Final = 0.02
"""The share of rows of a panel of many entities that may repeat a pair of an entity and its
grid or time, or put an entity in a second value of the factor nesting it, and still be read
as a panel: stray values (up to 1% of the rows) move no role."""
STEPS_ASIDE: Final = 0.5
"""A column steps aside from the chart only when more than this share of its rows offend its
declared type; below it, it keeps its place and its offenders are left out and said."""

_LATITUDE = re.compile(r"(?i)^(lat|latitude)$|(^|[_\s])lat(itude)?$")
_LONGITUDE = re.compile(r"(?i)^(lon|lng|long|longitude)$|(^|[_\s])(lon|lng|long|longitude)$")
_IDENTIFIER = re.compile(r"(?i)^id$|(^|[_\s])id$|^.+Id$")
_TIME_UNIT = re.compile(
    r"(?i)(^|[_\s.])(t|time|day|days|week|weeks|month|months|year|years|hour|hours|age)$"
)
"""A number named a unit of time (days 1 to 30) is what rows are measured over, never the
entities measured (chicks 1 to 50), whatever its values."""
CALENDAR: Final = (1000, 3000)
"""The years a number named a time holds to be read as one (1949.0, 1949.083… a month)."""
_TIME_NAME = re.compile(r"(?i)^(t|time|year|period|date)$|(^|[_\s.])(time|year|date)$")
"""A number named a time (``time``, ``year``, ``period``, ``date``; R's series as frames
hold ``time`` as fractional years, a monthly panel its ``date`` so): a series' index when it
keys the rows alone or with an entity, evenly spaced or not."""


@dataclass(frozen=True, slots=True)
class ColumnRole:
    """One column's role, the sentence that says why, and the facts it was read from."""

    column: str
    role: Role
    why: str
    numbers: NumberFacts = NO_NUMBERS
    distinct: int = 0  # the distinct values a category or a number holds
    axis: Literal["x", "y"] | None = None  # a coordinate's axis on a map
    # a grid or a time that keys the rows: alone (()), or with the entity named; None else
    keys_with: tuple[str, ...] | None = None
    empty: bool = False  # a number counted to hold no finite value in any row
    # an entity of more than MAX_SERIES values: the factors each value of it is in one of
    within: tuple[str, ...] = ()


class Roles(Mapping[str, ColumnRole]):
    """Each usable column's role, in the profiles' order (the declaration's), the categories
    that key the rows (``key``: empty when none do), and the categories that name each of a
    few rows (``named``: a value each, at most ``MAX_SERIES`` rows: nations of a medal table),
    and the grids of levels whose pairs key the rows while a category crosses them
    (``layout``: a field's rows and columns, where its treatments were placed)."""

    def __init__(
        self,
        roles: Sequence[ColumnRole],
        key: tuple[str, ...] = (),
        named: tuple[str, ...] = (),
        layout: tuple[str, ...] = (),
    ) -> None:
        self._roles = {r.column: r for r in roles}
        self.key = key
        self.named = named
        self.layout = layout
        self._like: tuple[str, ...] | None = None

    def __getitem__(self, name: str) -> ColumnRole:
        return self._roles[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._roles)

    def __len__(self) -> int:
        return len(self._roles)

    def of(self, *roles: Role) -> tuple[str, ...]:
        """The columns holding any of ``roles``, in order."""
        return tuple(n for n, r in self._roles.items() if r.role in roles)

    def role(self, name: str | None) -> Role | None:
        """The role of ``name``, or None (no column, or one that steps aside)."""
        got = self._roles.get(name) if name is not None else None
        return got.role if got is not None else None

    @property
    def like(self) -> tuple[str, ...]:
        """The largest set of measures alike in magnitude (largest values within
        ``LIKE_MAGNITUDE`` of each other) whose spans each overlap another's (one scale holds
        them: not employment, population and output that each sit apart), when there are three
        or more, in the declaration's order: one unit, drawn together. Counted once (every
        candidate's criteria read it)."""
        if self._like is None:
            self._like = _like_measures(self)
        return self._like


def _like_measures(roles: Roles) -> tuple[str, ...]:
    """``Roles.like``: each measure's largest value opens a group of those within
    ``LIKE_MAGNITUDE`` of it; the first group largest once its members that overlap no other
    member's span are left out wins. A group is a window of the measures sorted by their
    largest value, found by bisection, and one no larger than the best so far is skipped, so a
    result of many like columns costs a sort, not a comparison of every pair."""
    spans = [
        (n, abs(f.high) or 1.0, f.low, f.high)
        for n in roles.of("measure", "weight")
        if (f := roles[n].numbers).low is not None and f.high is not None  # (values held)
    ]
    order = sorted(range(len(spans)), key=lambda i: spans[i][1])
    tops = [spans[i][1] for i in order]
    best: list[int] = []
    seen: set[tuple[int, int]] = set()
    for _, top, _, _ in spans:
        lo = bisect.bisect_left(tops, top)
        hi = bisect.bisect_right(tops, top * LIKE_MAGNITUDE)
        if hi - lo <= len(best) or (lo, hi) in seen:
            continue  # it cannot hold more than the best (nor differ from a window seen)
        seen.add((lo, hi))
        kept = _overlapping(sorted(order[lo:hi], key=lambda i: spans[i][2]), spans)
        if len(kept) > len(best):
            best = kept
    return tuple(spans[i][0] for i in sorted(best)) if len(best) >= 3 else ()


def _overlapping(placed: list[int], spans: list[tuple[str, float, float, float]]) -> list[int]:
    """The spans (lowest to highest value) of ``placed``, sorted by their lowest value, that
    overlap another's: an earlier one when the highest value before reaches it, or the next
    one when that starts within it."""
    kept: list[int] = []
    reach = -math.inf  # the highest value of the spans before
    for k, i in enumerate(placed):
        low, high = spans[i][2], spans[i][3]
        if reach >= low or (k + 1 < len(placed) and spans[placed[k + 1]][2] <= high):
            kept.append(i)
        reach = max(reach, high)
    return kept


def holds_its_place(q: ColumnProfile) -> bool:
    """Whether a column keeps its place in a chart: it is there, and most of its rows hold
    their declared type (a few offenders are left out and said, never a reason to move)."""
    if not q.usable:
        return False
    v = q.violation
    return v is None or v.affected <= STEPS_ASIDE * v.total


def assign(profiles: Mapping[str, ColumnProfile], facts: Facts | None) -> Roles:
    """Each usable column's role (see the module's docstring); ``facts`` answers the counts
    (None: the profiles only, and every number is a measure)."""
    usable = [q for q in profiles.values() if q.usable]
    numbers_asked = [q.name for q in usable if q.type == "quantitative" and q.source == "declared"]
    counted: Mapping[str, NumberFacts] = (
        facts.numbers(numbers_asked) if facts is not None and numbers_asked else {}
    )
    first: dict[str, ColumnRole] = {q.name: _first_role(q, counted.get(q.name)) for q in usable}
    if facts is None:
        return Roles(list(first.values()))
    # the factors an entity is looked for among: those of a line each first, then wider ones
    # (countries, subjects: their mean is drawn, ``panel_over``)
    factors = sorted(
        (n for n, r in first.items() if r.role == "factor"),
        key=lambda n: first[n].distinct > MAX_SERIES,
    )
    times = [n for n, r in first.items() if r.role == "time"]
    rows = max((q.rows for q in usable), default=0)
    # a whole, evenly spaced number (years, days, weeks) that keys the rows, alone or with a
    # factor whose values are each one series over it: a grid, and that factor an entity
    entities: dict[str, str] = {}
    layout: set[str] = set()  # grids whose pairs key the rows, a category over them
    # the finest first: of two numbers that key the rows together (runs 1 to 20 of
    # experiments 1 to 5), the one of more values is what the rows are measured over
    for n, r in sorted(first.items(), key=lambda item: -item[1].distinct):
        indexes = _sequence(r.numbers) or _named_time(n, r.numbers)
        if times or not (r.role == "grid" or (r.role == "measure" and indexes)):
            continue  # (rows over time are series over their time, not over a number)
        if n in entities:
            continue  # (an entity already: its values are the series, not what they follow)
        if _IDENTIFIER.search(n):
            continue  # (subjects numbered 1 to 10 name the rows: no grid to measure over)
        if r.numbers.distinct > KEY_VALUES:
            continue  # (a key over that many values is a scan of its own: not asked)
        if facts.unique_key([n]):
            first[n] = _grid(n, r, ())
            continue
        # a number of fewer levels than a grid of levels (trees 1 to 5 over 7 ages) may be
        # its entity too, after the categories: the finer grid is what the rows are measured
        # over (a long sequence, travellers 1 to 210, is measured over no number's levels)
        # — and, over a grid of a series' points (five or more), a whole number of many
        # values keying the rows with it (chicks 1 to 50, subjects 308 to 372 over days)
        # — and a short sequence past a grid's levels (runs 1 to 20, ``RUNS_MAX``) over fewer
        # levels not named a unit of time (experiments 1 to 5; not months of days 1 to 30)
        # — and, over a grid of levels, whole numbers named id of more values, at most
        # ``RUNS_MAX``, each measured at every level (subjects 1 to 10 of a paired design,
        # under both drugs)
        levels = [
            m for m, g in first.items()
            if m != n and m not in entities and (
                (r.role == "grid" and _levels_of(g) and g.distinct < r.distinct)
                or (r.role == "grid" and r.distinct >= SEQUENCE_MIN and _numbered(g)
                    and not _TIME_UNIT.search(m))
                or (r.role == "measure" and r.distinct <= RUNS_MAX and _levels_of(g)
                    and not _TIME_UNIT.search(m))
                or (_levels_of(r) and g.role == "identifier" and g.numbers.whole
                    and _IDENTIFIER.search(m) is not None
                    and r.distinct < g.distinct <= RUNS_MAX)
            )
        ]  # fmt: skip
        for f in [*factors, *levels]:
            # each covers it: the rows holding a value of the grid hold most of the pairs
            panel = r.numbers.values >= PANEL * first[f].distinct * r.numbers.distinct
            if f in entities or not panel or not _keys_with(facts, n, f, first, r.numbers.values):
                continue
            other = _layout(facts, n, f, levels, first) if f in factors else None
            if other is not None:  # (a treatment spread over a layout's rows and columns)
                layout.update((n, other))
                continue
            first[n] = _grid(n, r, (f,))
            entities[f] = n
            break
    for t in times:  # a time keys the rows alone (one series), or with its entity
        if rows > KEY_VALUES:  # (a key over that many times is a scan of its own: a series
            first[t] = replace(first[t], keys_with=())  # assumed; lines test each entity)
            continue
        if facts.unique_key([t]):
            first[t] = replace(first[t], keys_with=())
            continue
        for f in factors:
            # (a wide category keys rows of events with their times too: an entity only
            # when its values each cover the times, as a panel's do)
            wide = first[f].distinct > MAX_SERIES
            if wide and rows < PANEL * first[f].distinct * profiles[t].distinct:
                continue
            if f not in entities and _keys_with(facts, t, f, first, profiles[t].rows):
                entities[f] = t
                first[t] = replace(first[t], keys_with=(f,))
                break
    # categories crossed as a contingency table is: one row per combination, most present
    keys = [n for n, r in first.items() if r.role == "factor" and r.distinct >= 2]
    crossed = math.prod(max(1, first[n].distinct) for n in keys)
    key: tuple[str, ...] = ()
    crossing = 2 <= len(keys) <= MAX_KEYS and rows >= CROSSED * crossed
    if crossing and facts.unique_key(keys):
        key = tuple(keys)
    # a category holding its own value in each of a few rows names them (a profile's count)
    named = tuple(
        q.name for q in usable
        if first[q.name].role == "factor" and 2 <= q.rows <= MAX_SERIES and q.distinct == q.rows
    )  # fmt: skip
    out: list[ColumnRole] = []
    for q in usable:
        r = first[q.name]
        if q.name in entities and r.keys_with is not None:  # (a grid of its own, and keyed)
            entities.pop(q.name)
        if q.name in entities:
            within: tuple[str, ...] = ()
            if r.distinct > MAX_SERIES:
                within = _nesting(
                    q.name, [n for n in first if n not in entities], first, facts, rows
                )
            r = ColumnRole(
                q.name, "entity",
                f"each value of {q.name} is one series over {entities[q.name]}",
                distinct=r.distinct, within=within,
            )  # fmt: skip
        elif key and r.role in ("measure", "grid") and r.keys_with is None and _counts(r.numbers):
            # (a count of few values is a weight too: a grid only when it keys no table)
            r = ColumnRole(
                q.name, "weight",
                f"{q.name} holds whole, non-negative numbers over {_join(key)}, which key the "
                "rows: a count per combination",
                r.numbers, r.distinct,
            )  # fmt: skip
        out.append(r)
    return Roles(out, key, named, tuple(n for n in first if n in layout))


def is_factor(roles: Roles, name: str | None) -> bool:
    """Whether ``name``'s values group the rows as a factor's do: a factor or an entity, or a
    grid of levels (few repeated values that key no series: doses, a year of two) of at most
    ``LEVELS_MAX`` values — a number of few values is a factor by its role, never by a
    change of its declared type."""
    r = roles.get(name or "")
    if r is None:
        return False
    return r.role in ("factor", "entity") or _levels_of(r)


def values_of(roles: Roles, q: ColumnProfile) -> int:
    """The distinct values of ``q``: a number's as its role counts them (a profile counts a
    category's only)."""
    r = roles.get(q.name)
    return r.distinct if r is not None and q.type == "quantitative" else q.distinct


def is_code(roles: Roles, name: str | None) -> bool:
    """Whether ``name`` is a number whose few levels are codes (``is_factor``, whole, and
    filling at least half the whole numbers of their span: 0/1, classes 1 to 4, cylinders
    4/6/8), so it labels points as a category would; a measure that happens to hold few
    values (an air flow of 50 to 80, a count of 0 to 37) labels nothing."""
    r = roles.get(name or "")
    if r is None or not is_factor(roles, name) or r.role != "grid":
        return False
    n = r.numbers
    if not n.whole or n.low is None or n.high is None:
        return False
    return n.high - n.low + 1 <= CODE_SPAN * n.distinct


def is_calendar(roles: Roles, name: str | None) -> bool:
    """Whether ``name`` is a number named a time holding calendar years (``_named_time``:
    1945.0, 1945.25 …), whatever its role: its values read as years."""
    r = roles.get(name or "")
    return r is not None and _named_time(r.column, r.numbers)


def indexes_series(roles: Roles, x: str | None) -> bool:
    """Whether ``x`` is a number a series runs along, a point at each step: evenly spaced
    whole values (years, days) or a number named a time holding calendar years (quarters as
    fractional years). A missing step is a gap in such a series; a dose's or a
    concentration's levels are a design, and a level no row holds is no gap."""
    r = roles.get(x or "")
    return r is not None and r.role == "grid" and (
        _sequence(r.numbers) or _named_time(r.column, r.numbers)
    )  # fmt: skip


def series_over(roles: Roles, x: str | None, splits: Sequence[str | None]) -> bool:
    """Whether points over ``x`` are a series to draw as a line: ``x`` is an evenly spaced
    grid that keys the rows alone, or a grid (evenly spaced or not: ages, concentrations)
    that keys them with the one column that splits the chart, whose values are each a
    series over it (an entity)."""
    r = roles.get(x or "")
    if r is None or r.role != "grid" or r.keys_with is None:
        return False
    split = [s for s in splits if s is not None]
    return tuple(split) == r.keys_with and (
        bool(r.keys_with) or _sequence(r.numbers) or _named_time(r.column, r.numbers)
    )


LEVELS_LINE_MIN: Final = 3
"""A grid of levels of at least this many values (doses of 0.5, 1 and 2) is an ordered x a
line of means may follow; two levels are a comparison, drawn as bars or a series' ends."""


def levels_over(roles: Roles, x: str | None) -> bool:
    """Whether ``x`` is a grid of ordered levels that keys nothing (``LEVELS_LINE_MIN`` to
    ``LEVELS_MAX`` values, two rows a level or more on average: doses, concentrations) and
    no codes (``is_code``: groups 1 to 4 name groups, in no order a line may follow) — an x
    over which the mean of a measure per level, one line per factor, reads as a
    dose-response."""
    r = roles.get(x or "")
    return (
        r is not None and _levels_of(r) and r.distinct >= LEVELS_LINE_MIN
        and not is_code(roles, x)
    )  # fmt: skip


def panel_over(roles: Roles, x: str | None, splits: Sequence[str | None]) -> str | None:
    """The entity of more than ``MAX_SERIES`` values whose series ``x`` indexes (a grid or a
    time that keys the rows with it), when the chart splits by nothing or by one factor
    that holds each of its values in one of its own (``ColumnRole.within``): too many lines
    to tell apart, so their mean is drawn per value of ``x``, one line per that factor's
    value. None otherwise."""
    r = roles.get(x or "")
    if r is None or r.role not in ("grid", "time") or not r.keys_with:
        return None
    entity = roles.get(r.keys_with[0])
    if entity is None or entity.role != "entity" or entity.distinct <= MAX_SERIES:
        return None
    split = [s for s in splits if s is not None]
    if len(split) > 1 or (split and split[0] not in entity.within):
        return None
    return entity.column


def _nesting(
    entity: str, others: Sequence[str], first: Mapping[str, ColumnRole], facts: Facts, rows: int
) -> tuple[str, ...]:
    """The factors of 2 to ``NESTS_MAX`` values — categories, or numbers of few levels (diets
    1 to 4) — that hold each value of ``entity`` in one of theirs (a country in one
    continent): the distinct values of the factor counted per value of the entity
    (``Facts.positions``) are one each, but for ``STRAYS`` of the rows."""
    out = []
    for n in others:
        r = first[n]
        if not (r.role == "factor" or _levels_of(r)) or not 2 <= r.distinct <= NESTS_MAX:
            continue
        per_entity, _ = facts.positions(n, entity)
        beyond = sum(per_entity) - len(per_entity)  # the pairs past one per entity: strays'
        if per_entity and beyond <= STRAYS * rows:
            out.append(n)
    return tuple(out)


def _keys_with(
    facts: Facts, x: str, f: str, first: Mapping[str, ColumnRole], rows: int
) -> bool:
    """Whether ``x`` (a grid or a time) keys the rows with the factor ``f``: no two rows share
    a pair (``Facts.unique_key``) — or, for a factor of more than ``MAX_SERIES`` values, whose
    many rows a few stray values would make repeat a pair, the rows holding ``x`` hold
    distinct pairs but for ``STRAYS`` of them (the pairs counted per value of ``f``:
    ``Facts.positions``)."""
    if first[f].distinct <= MAX_SERIES:
        return facts.unique_key([f, x])
    per_value, _ = facts.positions(x, f)
    return bool(per_value) and sum(per_value) >= (1 - STRAYS) * rows


def _layout(
    facts: Facts, n: str, f: str, levels: Sequence[str], first: Mapping[str, ColumnRole]
) -> str | None:
    """The other grid of levels, no candidate entity of ``n`` (``levels``), with which the
    grid ``n`` keys the rows while the category ``f``, which keys them with ``n``, keys them
    with it too (None: none does): the rows are the cells of a layout (rows and columns of a
    field, a Latin square) and ``f`` a treatment crossing both, not one series over either.
    Asked only of a category about to be an entity, and only of grids of as many levels as
    it holds values (a Latin square's), so a table of many grids asks few pairs."""
    size = first[f].distinct
    return next(
        (m for m, g in first.items()
         if m != n and m not in levels and _levels_of(g) and g.distinct == size
         and facts.unique_key([n, m]) and facts.unique_key([m, f])),
        None,
    )  # fmt: skip


def _grid(name: str, r: ColumnRole, keys_with: tuple[str, ...]) -> ColumnRole:
    keyed = f"keys the rows with {keys_with[0]}" if keys_with else "keys the rows"
    n = r.numbers
    held = (
        "evenly spaced whole values" if _sequence(n)
        else "values, named as a time," if not keys_with and _named_time(name, n)
        else "ordered values"
    )  # fmt: skip
    return ColumnRole(
        name, "grid", f"{name} holds {n.distinct:,} {held} and {keyed}", n, r.distinct,
        keys_with=keys_with,
    )  # fmt: skip


def _levels_of(r: ColumnRole) -> bool:
    """A number of few repeated levels (``GRID_MAX``'s grid, at most ``LEVELS_MAX``) that
    keys nothing yet: a factor's values, which may each be a series over a finer grid."""
    return r.role == "grid" and r.keys_with is None and 2 <= r.distinct <= LEVELS_MAX


def _numbered(r: ColumnRole) -> bool:
    """A whole number of more values than a grid's levels, each repeated, that no role ties
    to an axis yet (a measure, or a repeated number named id): what numbers a panel's
    entities (chick 1 to 50), if it keys the rows with a grid."""
    n = r.numbers
    return (
        r.role in ("measure", "identifier") and n.whole and n.distinct > GRID_MAX
        and n.values > n.distinct and not r.empty
    )  # fmt: skip


def _named_time(name: str, n: NumberFacts) -> bool:
    """A number named a time (``_TIME_NAME``) of ``SEQUENCE_MIN`` values or more, all
    calendar years (``CALENDAR``; fractions of one for months and quarters)."""
    lo, hi = CALENDAR
    return (
        n.distinct >= SEQUENCE_MIN and n.low is not None and n.high is not None
        and lo <= n.low and n.high <= hi and _TIME_NAME.search(name) is not None
    )  # fmt: skip


def _sequence(n: NumberFacts) -> bool:
    """Whole numbers, five or more, that fill most slots of an even step over their span
    (years, days; a few missing ones do not unmake a series)."""
    if not (n.whole and n.distinct >= SEQUENCE_MIN and n.low is not None and n.high is not None):
        return False
    if not math.isfinite(n.high - n.low):
        return False  # (whole values near a float's limits span no countable grid)
    for step in range(1, SEQUENCE_STEP + 1):
        slots = (n.high - n.low) / step + 1
        if slots == int(slots) and n.distinct <= slots <= n.distinct / SEQUENCE_FILLED:
            return True
    return False


def _first_role(q: ColumnProfile, nf: NumberFacts | None) -> ColumnRole:
    """The role a column's own profile and facts give it, before the rows' keys are read."""
    if q.type == "temporal":
        return ColumnRole(q.name, "time", f"{q.name} is declared date")
    if q.type == "nominal":
        if q.id_like:
            return ColumnRole(
                q.name, "identifier", f"{q.name} holds mostly distinct values: it names rows",
                distinct=q.distinct,
            )  # fmt: skip
        return ColumnRole(q.name, "factor", f"{q.name} is a category", distinct=q.distinct)
    n = nf or NO_NUMBERS
    if nf is None:  # nothing counted: a number is a measure
        return ColumnRole(q.name, "measure", f"{q.name} is declared number", n)
    if not n.values:
        return ColumnRole(
            q.name, "measure", f"{q.name} holds no number in any row", n, 0, empty=True
        )
    if n.values and n.low is not None and n.high is not None:
        if _LATITUDE.search(q.name) and -90 <= n.low and n.high <= 90:
            return ColumnRole(q.name, "coordinate", f"{q.name} is a latitude", n, n.distinct, "y")
        if _LONGITUDE.search(q.name) and -180 <= n.low and n.high <= 360:  # (0–360 east too)
            return ColumnRole(q.name, "coordinate", f"{q.name} is a longitude", n, n.distinct, "x")
    if _IDENTIFIER.search(q.name) and n.whole and n.values > 1 and n.distinct > 1:
        own = "each row holds its own" if n.distinct == n.values else "its values name rows"
        return ColumnRole(
            q.name, "identifier", f"{q.name} is named an id: {own}", n, n.distinct
        )  # fmt: skip
    if _numbering(n):
        return ColumnRole(
            q.name, "identifier",
            f"{q.name} numbers its {n.distinct:,} groups of rows 1 to {n.distinct:,}",
            n, n.distinct,
        )  # fmt: skip
    if 2 <= n.distinct <= GRID_MAX and n.values >= 2 * n.distinct:
        # (two rows a level or more: one value repeated among a few rows of a small table
        # makes no grid of its counts)
        return ColumnRole(
            q.name, "grid",
            f"{q.name} holds {n.distinct} ordered values, each repeated: a grid the rows are "
            "measured over",
            n, n.distinct,
        )  # fmt: skip
    return ColumnRole(q.name, "measure", f"{q.name} is declared number", n, n.distinct)


def _numbering(n: NumberFacts) -> bool:
    """Whole numbers 1 to N, every one of them held, each by two rows or more on average, N
    past ``RUNS_MAX``: what numbers groups of rows (strata 1 to 83, travellers 1 to 210),
    never an axis. A count starts at 0 and skips values; a short run (1 to 20) may be a grid."""
    return (
        n.whole and n.low == 1 and n.high == n.distinct and n.distinct > RUNS_MAX
        and n.values >= 2 * n.distinct
    )  # fmt: skip


def _counts(n: NumberFacts) -> bool:
    return n.values > 0 and n.whole and n.nonnegative


def _join(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def role_table() -> str:
    """The role vocabulary as Markdown, made from ``ROLES``: what docs/rules.md holds."""
    lines = ["| role | what it is | where a chart puts it |", "|---|---|---|"]
    lines += [f"| {r.role} | {r.means} | {r.placed} |" for r in ROLES]
    return "\n".join(lines) + "\n"
