"""Why a column is not on an axis, as values a plan's ``Placement`` gains: the
refusals of picks (``choose.Refused`` in words, with the ``ColumnViolation`` behind them), the
flagged measures the default stepped around, identifiers noted, the automatic color, and the
reason for a table with no measure.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chartkit.plan import choose
from chartkit.plan.encode import (
    AxisRefusal,
    ColumnProfile,
    describe_offenders,
)
from chartkit.plan.facts import FrameFacts
from chartkit.plan.kit import MAX_PICKED_COLOR_CATEGORIES, _said
from chartkit.plan.placement import Ask, Placement
from chartkit.plan.roles import values_of
from chartkit.plan.rules import MAX_COLOR_CATEGORIES, MAX_FACETS
from chartkit.plan.sentences import (
    facets_for_colors_note,
    identifier_note,
    no_measure_reason,
    not_split_note,
)


def note_unsplit(ask: Ask, placed: Placement, xp: ColumnProfile) -> Placement:
    """A category too wide for colors or small charts is said, never silently merged (a
    picked one is refused instead, and said once, by its refusal)."""
    refused = {r.column for r in placed.refusals}
    q = choose.too_wide(q for q in ask.profiles.values() if q.name not in refused)
    return placed if q is None else placed.said(not_split_note(q, xp.name))


def word(
    ask: Ask,
    placed: Placement,
    r: choose.Refused,
    xp: ColumnProfile | None,
    fp: ColumnProfile | None,
) -> Placement:
    """A pick not drawn as asked (``choose.Refused``), in words: an ``AxisRefusal``, or
    the note of a color drawn as facets."""
    q = ask.profiles[r.column]
    why = r.why
    values = values_of(ask.roles, q)
    if why == "colors-as-facets":
        return placed.said(facets_for_colors_note(q, values))
    x = xp.name if xp is not None else ""
    reason = {
        "not-a-measure": lambda: (
            f"{q.name} is declared {q.declared}" if q.declared
            else f"{q.name} is not declared and Altair infers it as {q.type}"
        ) + "; a measure axis needs a column declared number.",
        "no-values": lambda: (
            f"{q.name} holds no value in any row, so there is nothing to color by; the "
            "chart is drawn without color." if r.channel == "color"
            else f"{q.name} holds no value in any row, so the chart is drawn without facets."
        ),
        "too-many-picked-colors": lambda: (
            f"{q.name} has {q.distinct:,} distinct values; a color can tell apart at most "
            f"{MAX_PICKED_COLOR_CATEGORIES}, so the chart is drawn without color."
        ),
        "facet-not-category": lambda: (
            "facets draw one small chart per value of a column declared string or "
            f"boolean; {_said(q, True)}, so the chart is drawn without facets."
        ),
        "too-many-facets": lambda: (
            f"{q.name} has {q.distinct:,} values; at most {MAX_FACETS} small charts can be "
            "read side by side, so the chart is drawn without facets."
        ),
        "facet-is-x": lambda: (
            f"{q.name} is on x already, and one small chart per {q.name} would each hold "
            "a single category, so the chart is drawn without facets."
        ),
        "same-as-x": lambda: (
            f"{q.name} is on x already, and a number against itself is only a diagonal "
            f"line, so it is not drawn on y; pick another column declared number as y."
        ),
        "one-y-axis": lambda: (
            f"a scatter plot of {x} has one y axis, so {q.name} is not drawn; pick a date "
            "or a category as x to draw several measures."
        ),
        "color-by-measures": lambda: (
            f"several measures are told apart by color, one per measure, so {q.name} is "
            f"not drawn as color; facet={q.name!r} draws one small chart per value instead."
        ),
        "too-many-colors": lambda: (
            f"{q.name} has {values:,} values, more than the {MAX_COLOR_CATEGORIES} "
            f"colors that can be told apart, and the facets are already "
            f"{fp.name if fp else ''}, so the chart is drawn without color."
        ),
        "line-color-not-category": lambda: (
            "a line chart draws one line per value of a column declared string or boolean; "
            f"{_said(q, True)}, so the chart is drawn without color."
        ),
        "bar-color": lambda: (
            f"a bar chart draws one bar per {x}, so it is not split by {q.name}; pick a "
            "date or a number as x to color by it."
        ),
        "bar-color-not-factor": lambda: (
            f"bars of a measure are colored only by a factor of at most "
            f"{MAX_COLOR_CATEGORIES} values (a category, or a number of few repeated levels), "
            f"side by side; {q.name} is not one, so the chart is drawn without color."
        ),
        "unusable": lambda: unusable_reason(ask, q),
    }[why]()
    return placed.refuse(
        AxisRefusal(q.name, r.channel, reason, q.violation if why == "unusable" else None)
    )


def table_reason(
    ask: Ask, placed: Placement, choice: choose.Choice, xp: ColumnProfile | None
) -> str:
    """Why the picks draw a table (``choose.Choice`` of kind ``table``), after their
    refusals (``placed``)."""
    if choice.no_measure:
        assert xp is not None
        return (
            f"{xp.name} is on x, but no column is declared number to measure over it: "
            f"{type_list(ask)}."
        )
    last = choice.table_refusal
    said = [r for r in placed.refusals if r.channel == "y"]
    if last is not None and last.channel == "x":
        return f"The x axis you picked cannot be drawn: {placed.refusals[-1].reason}"
    if len(choice.ys) == 1:
        return f"The y axis you picked cannot be drawn: {said[-1].reason}"
    return "None of the measures you picked can be drawn: " + " ".join(r.reason for r in said)


def unusable_reason(ask: Ask, q: ColumnProfile) -> str:
    """Why a column the check flagged in every row, or missing, is on no axis."""
    v = q.violation
    if q.held_as is not None:
        return (
            f"{q.name} is declared {q.declared}, but the engine holds it as {q.held_as}: "
            "its values are judged one by one only when the rows leave the engine. Cast "
            "it to its declared type in the engine, or filter the frame to at most "
            "max_points rows first."
        )
    if v is None or v.kind == "missing-column" or not q.present:
        return (
            f"{q.name} is declared {q.declared}, but no row has it (missing-column): the "
            "query never selected it."
        )
    text = f"{q.name} is declared {q.declared}, but all {v.total:,} rows {describe_offenders(v)}"
    if q.declared == "number" and all_quoted(ask, q.name):
        return (
            f"{text} — every one a number in quotes: the tool quotes its numbers. chartkit "
            "converts nothing; fix the tool to return numbers, or declare the column string."
        )
    return f"{text}. chartkit converts nothing; fix the tool, or change the declaration."


def all_quoted(ask: Ask, name: str) -> bool:
    """Whether every value of a column is a number in quotes: asked once per column (it
    reads every value), however many sentences say it."""
    quoted = ask.memo.quoted
    if name not in quoted:  # (the facts of every row: a backend's, if it holds them)
        facts = ask.whole.facts or FrameFacts(ask.frame)
        quoted[name] = facts.all_quoted(name)
    return quoted[name]


def no_measure(ask: Ask) -> str:
    """The reason for a table when no usable column is declared number."""
    return no_measure_reason(ask.profiles.values(), lambda name: all_quoted(ask, name))


def type_list(ask: Ask) -> str:
    return ", ".join(q.describe_type() for q in ask.profiles.values())


def note_id_like(ask: Ask, placed: Placement) -> Placement:
    """Each usable column too distinct to be a category is said: the default leaves it off
    the axes."""
    for q in ask.profiles.values():
        if q.usable and q.id_like:
            placed = placed.said(identifier_note(q))
    return placed


def auto_color(ask: Ask, exclude: set[str | None]) -> ColumnProfile | None:
    """The color the automatic chart draws, when none is picked (``choose.auto_color``)."""
    return choose.auto_color(ask.profiles.values(), exclude=exclude)


def stepped_around(
    profiles: Mapping[str, ColumnProfile], drawn: Mapping[str, Any], picked: set[str]
) -> list[AxisRefusal]:
    """The flagged measures declared before the one the default draws: it stepped around
    them (a measure with no finding is tried first), so each is refused, with why and how
    to chart it, and ``View.state`` is not ``ok``. ``drawn`` holds the picks of the chart
    drawn; the engine path asks it with the profiles of all the declared columns."""
    y = drawn.get("y")
    names = [drawn.get("x"), *((y,) if isinstance(y, str) else (y or ()))]
    drawn_measures = [
        n for n in names if n is not None and n in profiles and profiles[n].type == "quantitative"
    ]
    if not drawn_measures:
        return []
    order = list(profiles)
    first = min(order.index(n) for n in drawn_measures)
    out = []
    for q in [profiles[n] for n in order[:first]]:
        v = q.violation
        if q.is_measure and v is not None and q.name not in picked and q.name not in drawn_measures:
            out.append(AxisRefusal(q.name, "y", (
                f"{q.name} is declared number, but {v.affected:,} of {v.total:,} rows "
                f"{describe_offenders(v)}, so the chart opens on {drawn_measures[0]}, which has "
                f"no finding; pick y={q.name!r} to chart {q.name} with those rows left out."
            ), v))  # fmt: skip
    return out
