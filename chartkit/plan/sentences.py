"""The sentences a plan says, each made from its counts in one place, for the rows in memory
and the rows a backend holds alike: the rows left out or holding no value, a number no chart
can place, a column inferred, times of mixed zones, a line bucketed, points that share a time,
the top categories or measures kept, a category too wide to split by, a color drawn as
facets, an identifier, an option ignored, a log scale refused or chosen, a heatmap, a sort
naming absent values, every row left out, no measure. Each returns a ``Note`` (kind, column,
counts, sentence) or the text of a table's reason; their examples are their doctests.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final

from chartkit.messages import render_sample
from chartkit.plan import choose
from chartkit.plan.encode import (
    ID_LIKE_SHARE,
    ID_LIKE_WIDE_ROWS,
    ID_LIKE_WIDE_SHARE,
    ColumnProfile,
)
from chartkit.plan.rules import MAX_COLOR_CATEGORIES, MAX_FACETS
from chartkit.plan.spec import Note


def _id_share(q: ColumnProfile) -> str:
    """How distinct an identifier is, in the words of the rule it passes."""
    if q.distinct > ID_LIKE_SHARE * q.rows:
        return f"over {ID_LIKE_SHARE:.0%}"
    return f"over {ID_LIKE_WIDE_SHARE:.0%}, on a column of {ID_LIKE_WIDE_ROWS} rows or more"


def _short(value: Any) -> str:
    """A value for a note: JSON where it can be (``repr`` for inf), cut to 40 characters."""
    text = repr(float(value)) if isinstance(value, float) else render_sample(value)
    return text if len(text) <= 40 else f"{text[:39]}…"


def _be(n: int) -> str:
    return "is" if n == 1 else "are"


def no_measure_reason(profiles: Iterable[ColumnProfile], quoted: Callable[[str], bool]) -> str:
    """The reason for a table when no usable column is declared number: the measures the
    check refused and why — every row holds a number in quotes (``quoted(name)``, asked only
    of a present column the check flagged), or no row can be drawn — then the other columns'
    types; or, with no measure declared at all, every column's type.

    >>> import pandas as pd
    >>> from chartkit.columns import normalize_result_columns
    >>> from chartkit.plan.encode import profile_columns
    >>> declared = normalize_result_columns({"host": "string", "seen": "date"})
    >>> profiles = profile_columns(pd.DataFrame({"host": ["a"], "seen": ["2024-01-05"]}),
    ...                            declared, ()).values()
    >>> no_measure_reason(profiles, lambda name: False)
    'No column is declared number: host is string, seen is date.'
    """
    profiles = list(profiles)
    refused = [q for q in profiles if q.type == "quantitative" and not q.usable]
    if not refused:
        return f"No column is declared number: {', '.join(q.describe_type() for q in profiles)}."
    names = _join([q.name for q in refused])
    verb = "is" if len(refused) == 1 else "are"
    every_quoted = all(
        q.present
        and q.violation is not None
        and q.violation.kind != "missing-column"
        and quoted(q.name)
        for q in refused
    )
    why = (
        "every row holds a number in quotes (the tool quotes its numbers)"
        if every_quoted
        else "no row can be drawn (see the refusals)"
    )
    rest = [q.describe_type() for q in profiles if q.usable]
    tail = f"; {', '.join(rest)}" if rest else ""
    return f"No usable column is declared number: {names} {verb} declared number but {why}{tail}."


def stacked_counts(bars: int, period: str, label: str) -> str:
    """How a bucketed line of a label's rows is drawn, for its ``bucketed_note``.

    >>> stacked_counts(48, "1-day bucket", "weather")
    'counted in 48 bars: the rows per 1-day bucket, stacked by weather'
    """
    return f"counted in {bars:,} bars: the rows per {period}, stacked by {label}"


def nothing_to_draw(sentences: Sequence[str]) -> str:
    """The reason for a table when the rows a chart would place are all left out, with the
    notes that say why (each once, in order)."""
    return "Every row is left out of the chart, so there is nothing to draw: " + " ".join(
        dict.fromkeys(sentences)
    )


def no_value_note(rows: int, gaps: list[str]) -> Note:
    """The note of ``rows`` rows left out for holding no value on a measure or time axis:
    ``gaps`` are the columns some of them hold no value in, in the order they are drawn (the
    note's column is the first; its sentence names them all).

    >>> no_value_note(8, ["Miles_per_Gallon"]).sentence
    '8 rows hold no value in Miles_per_Gallon and are not drawn.'
    """
    return Note(
        "no-value",
        f"{_rows_hold(rows)} no value in {_join(gaps)} and {_be(rows)} not drawn.",
        gaps[0],
        (("rows", rows),),
    )


UNPLACEABLE_NUMBER: Final = "a number no chart can place (infinite or too large)"


def unplaced_note(
    channel: str, column: str, rows: int, first: Any, what: str = UNPLACEABLE_NUMBER
) -> Note:
    """The note of ``rows`` rows whose value of ``column`` no chart can place (``what``: an
    infinite number, or something other than a number in an undeclared column), ``first``
    the first of them, left out of the ``channel`` axis.

    >>> held, left = unplaced_note("y", "v", 120, float("-inf")).sentence.split(" and ")
    >>> held
    '120 rows hold a number no chart can place (infinite or too large) in v (first: -inf)'
    >>> left
    'are left out of the y axis. Nothing was converted.'
    """
    return Note(
        "unplaced",
        f"{_rows_hold(rows)} {what} in {column} (first: {_short(first)}) and {_be(rows)} left "
        f"out of the {channel} axis. Nothing was converted.",
        column,
        (("rows", rows),),
    )


def bucketed_note(
    column: str,
    rows: int,
    points: int,
    seconds: int,
    drawn_as: str,
    why: str,
    *,
    bars: bool = False,
) -> Note:
    """The note of a line's ``rows`` drawn per time bucket of ``seconds``: ``drawn_as`` says
    how (``points_per_bucket``, or bars counted: ``stacked_counts``, when ``points`` counts
    ``bars``), ``why`` the reason it is bucketed.

    >>> note = bucketed_note("ts", 9000, 500, 60, points_per_bucket(500, "mean", "v", 60),
    ...                      over_max_points(5000))
    >>> said, how = note.sentence.split(": ")
    >>> said
    '9,000 rows are drawn as 500 points'
    >>> how
    'the mean of v per minute bucket (over max_points=5,000 rows).'
    >>> note.counts
    (('rows', 9000), ('points', 500), ('seconds', 60))
    """
    return Note(
        "bucketed",
        f"{rows:,} rows are {drawn_as} ({why}).",
        column,
        (("rows", rows), ("bars" if bars else "points", points), ("seconds", seconds)),
    )


def points_per_bucket(
    points: int, aggregate: str, what: str, seconds: int, series: str | None = None
) -> str:
    """How a bucketed line draws its rows: ``points`` points, the ``aggregate`` of ``what``
    per bucket of ``seconds`` (for each value of ``series``)."""
    split = f" for each {series}" if series else ""
    period = f"{choose.bucket_name(seconds)} bucket"
    return f"drawn as {points:,} points: the {aggregate} of {what} per {period}{split}"


def over_max_points(max_points: int) -> str:
    """Why a chart reduced its rows: there are more than ``max_points``."""
    return f"over max_points={max_points:,} rows"


def bucketed_why(*, counted: bool, over: int | None, width: int) -> str:
    """Why a line's times were bucketed: bars of counted rows are at least ``BAR_PIXELS``
    wide; else the rows are over ``max_points`` (``over``: it), or the times more than the
    chart's ``width`` in pixels.

    >>> bucketed_why(counted=False, over=None, width=640)
    "more time points than the chart's 640 pixels"
    """
    if counted:
        return f"at most one bar per {choose.BAR_PIXELS} pixels of the chart's width"
    if over is not None:
        return over_max_points(over)
    return f"more time points than the chart's {width} pixels"


def nothing_held(names: str, *, both: bool = False, to_draw: bool = False) -> str:
    """The table's reason when no row holds a value of the column(s) a chart needs.

    >>> nothing_held("gb")
    'No row holds a value of gb.'
    """
    said = f"both {names}" if both else names
    return f"No row holds a value of {said}{' to draw' if to_draw else ''}."


def shared_note(column: str, share: str, series: str | None, what: str) -> Note:
    """The note of rows sharing a point (a ``share``: the x value, or its unit) and a value of
    ``series``: the chart draws the mean of ``what`` for each."""
    by_series = f" and {series}" if series else ""
    return Note(
        "shared",
        f"Several rows share a {share}{by_series}; the chart draws the mean of {what} for each.",
        column,
    )


def panel_note(
    entity: str, values: int, x: str, series: str | None, what: str, aggregate: str
) -> Note:
    """The note of a line drawn as the ``aggregate`` of the series of ``entity`` (``values``
    of them, more than lines a chart tells apart) per value of ``x``: over those of each
    value of ``series`` (a factor holding each entity in one of its values), or all of them.

    >>> panel_note("chick", 50, "day", "diet", "weight", "mean").sentence
    'chick has 50 values, each a series over day: more than the 20 lines a chart can tell \
apart, so each line is the mean of weight over the chick values in one diet (each is in one), \
per day.'
    """
    how = {"mean": "mean", "sum": "total (sum)"}.get(aggregate, aggregate)
    if series is not None:
        drawn = f"each line is the {how} of {what} over the {entity} values in one {series} "
        drawn += "(each is in one)"
    else:
        drawn = f"the line is the {how} of {what} over all {values:,} of them"
    return Note(
        "shared",
        f"{entity} has {values:,} values, each a series over {x}: more than the {MAX_FACETS} "
        f"lines a chart can tell apart, so {drawn}, per {x}.",
        entity,
        (("values", values),),
    )


def top_note(column: str, values: int, shown: int, ranked: str) -> Note:
    """The note of bars cut to the top ``shown`` of a category's ``values``, ``ranked`` naming
    the order (``most frequent``, ``with the highest mean of y``…).

    >>> top_note("host", 40, 30, "most frequent").sentence
    'host has 40 values; the 30 most frequent are shown, the other 10 are left out.'
    """
    return Note(
        "top",
        f"{column} has {values:,} values; the {shown} {ranked} are shown, the other "
        f"{values - shown:,} are left out.",
        column,
        (("values", values), ("shown", shown)),
    )


def _rows_hold(n: int) -> str:
    return "1 row holds" if n == 1 else f"{n:,} rows hold"


def _join(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def left_out_note(
    channel: str,
    column: str,
    declared: str | None,
    rows: int,
    of: int,
    offenders: str,
    *,
    quoted: bool = False,
) -> Note:
    """The note of ``rows`` of ``of`` rows left out of the ``channel`` axis because their
    value of ``column`` offends its declared type (``offenders`` says how, as
    ``describe_offenders`` does; ``quoted``: each a number in quotes).

    >>> left_out_note("y", "lun", "number", 1, 40, "hold text (first: '')").sentence
    "1 of 40 rows is left out of the y axis: lun is declared number and they hold text (first: ''). Nothing was converted."
    """  # noqa: E501
    tail = " — numbers in quotes: the tool quotes its numbers" if quoted else ""
    return Note(
        "left-out",
        f"{rows:,} of {of:,} rows {_be(rows)} left out of the {channel} axis: {column} is "
        f"declared {declared} and they {offenders}{tail}. Nothing was converted.",
        column,
        (("rows", rows), ("of", of)),
    )


def inferred_note(column: str, inferred: str) -> Note:
    """The note of a column not declared, whose type Altair inferred from its values."""
    return Note(
        "inferred",
        f"{column} is not declared: Altair inferred it as {inferred} from its values. "
        "Declaring it in resultColumns would make its type exact.",
        column,
    )


def mixed_zones_note(column: str, zoned: int, naive: int) -> Note:
    """The note of a date column mixing ``zoned`` times with a zone and ``naive`` without:
    both counted, each said how drawn."""
    return Note(
        "mixed-zones",
        f"{column} mixes {zoned:,} times with a time zone and {naive:,} without one: those "
        "with a zone are drawn in UTC, those without as given (their zone is unknown, so they "
        "are not converted); the axis says so.",
        column,
        (("zoned", zoned), ("naive", naive)),
    )


def not_split_note(q: ColumnProfile, over: str) -> Note:
    """The note of a category too wide for colors or small charts: the line over ``over``
    is not split by it."""
    return Note(
        "not-split",
        f"{q.name} has {q.distinct:,} values, more than {MAX_COLOR_CATEGORIES} colors "
        f"or {MAX_FACETS} small charts can tell apart, so the line over {over} is not "
        f"split by it; pick it as x for bars per {q.name}.",
        q.name,
        (("values", q.distinct),),
    )


def facets_for_colors_note(q: ColumnProfile, distinct: int | None = None) -> Note:
    """The note of a color of more values than colors can tell apart, drawn as facets
    (``distinct``: a number's values, as its role counts them; else the profile's)."""
    n = q.distinct if distinct is None else distinct
    return Note(
        "facets-for-colors",
        f"{q.name} has {n:,} values, more than the {MAX_COLOR_CATEGORIES} "
        f"colors that can be told apart: one small chart per {q.name} instead.",
        q.name,
        (("values", n),),
    )


def identifier_note(q: ColumnProfile) -> Note:
    """The note of a column too distinct to be a category: no axis by default."""
    return Note(
        "identifier",
        f"{q.name} is not put on an axis by default: {q.distinct:,} of its {q.rows:,} values "
        f"are distinct ({_id_share(q)}), so it reads as an identifier, not a category. Pick "
        "it as x to chart it anyway.",
        q.name,
        (("distinct", q.distinct), ("rows", q.rows)),
    )


def measures_kept_note(picked: int, kept: int, out: list[str]) -> Note:
    """The note of a line per measure of ``picked`` measures, the first ``kept`` drawn and
    ``out`` left out (a ``top`` note of no column: the caption says it on the picture).

    >>> measures_kept_note(12, 10, ["nov", "dec"]).sentence
    '12 measures are picked; the first 10 are drawn, a small chart each, and the other 2 (nov and dec) are left out.'
    """  # noqa: E501
    named = _join([*out[:3], f"{len(out) - 3:,} more"] if len(out) > 3 else out)
    return Note(
        "top",
        f"{picked:,} measures are picked; the first {kept} are drawn, a small chart each, and "
        f"the other {len(out):,} ({named}) are left out.",
        None,
        (("values", picked), ("shown", kept)),
    )


def option_ignored_note(sentence: str) -> Note:
    """The note of an option that does not apply to the chart drawn: ``sentence`` says which
    and why (``sort_ignored``, ``aggregate_ignored``, ``LOG_BINS_IGNORED``)."""
    return Note("option-ignored", sentence)


LOG_BINS_IGNORED: Final = "scale='log' is not applied: a histogram's bins are linear."


def sort_ignored(sort: str) -> str:
    """Why ``sort`` (as written) does not apply to a line."""
    return f"sort={sort} orders categories; a line over time is ordered by its dates."


def aggregate_ignored(aggregate: str) -> str:
    """Why ``aggregate`` does not apply to a scatter plot."""
    return f"aggregate={aggregate!r} is not applied: a scatter plot draws one point per row."


def log_refused_note(bad: int, of: int, what: str, first: float) -> Note:
    """The note of a log scale refused: ``bad`` of the ``of`` values drawn for ``what`` are
    zero or negative (``first`` the first)."""
    return Note(
        "log-refused",
        f"scale='log' is refused: {bad:,} of the {of:,} values drawn for {what} are zero or "
        f"negative (first: {_short(first)}), which a log scale cannot place; the axis stays "
        "linear.",
        None,
        (("values", bad), ("of", of)),
    )


def log_scale_note(column: str, lo: float, hi: float, values: int, orders: float | None) -> Note:
    """The note of an axis put on a log scale: its values span ``orders`` powers of ten, or
    (None) the chart these rows were drilled from drew it so.

    >>> log_scale_note("bytes", 2.0, 9e6, 40, 6.65).sentence
    "bytes spans 2 to 9e+06 (6.65 powers of ten, every value above zero): its axis is on a log scale, so the small values do not sit at zero; scale='linear' draws it linear."
    """  # noqa: E501
    if orders is None:
        sentence = (
            f"{column} is on a log scale, as in the chart these rows were drilled from "
            f"({lo:,g} to {hi:,g} here); scale='linear' draws it linear."
        )
    else:
        sentence = (
            f"{column} spans {lo:,g} to {hi:,g} ({orders:g} powers of ten, every value above "
            "zero): its axis is on a log scale, so the small values do not sit at zero; "
            "scale='linear' draws it linear."
        )
    return Note("log-scale", sentence, column, (("values", values),))


def pairs_note(rows: int, pairs: int, x: str, y: str, max_points: int, lost: list[str]) -> Note:
    """The note of a scatter of ``rows`` rows (over ``max_points``) drawn as one point per
    distinct pair of ``x`` and ``y`` (``pairs`` of them), sized by its rows; ``lost`` are the
    color and facet it does not show."""
    return Note(
        "pairs",
        f"{rows:,} rows (over max_points={max_points:,}) hold {pairs:,} distinct pairs of "
        f"{x} and {y}: one point per pair, its size the rows it stands for"
        + (f"; {_join(lost)} is not shown." if lost else "."),
        None,
        (("rows", rows), ("pairs", pairs)),
    )


def heatmap_note(rows: int, bins: int, max_points: int, lost: list[str]) -> Note:
    """The note of a scatter of ``rows`` rows drawn as a ``bins``×``bins`` heatmap of counts;
    ``lost`` are the color and facet a heatmap does not show."""
    return Note(
        "heatmap",
        f"{rows:,} rows are drawn as a {bins}×{bins} heatmap of counts (over "
        f"max_points={max_points:,} rows)"
        + (f"; {_join(lost)} is not shown in a heatmap." if lost else "."),
        None,
        (("rows", rows), ("bins", bins)),
    )


def sort_absent_note(column: str, absent: list[Any]) -> Note:
    """The note of a listed ``sort`` naming values no bar of ``column`` holds."""
    return Note(
        "sort-absent",
        f"sort lists {_join([_short(v) for v in absent[:5]])}, which no bar of {column} holds.",
        column,
        (("values", len(absent)),),
    )


def zero_not_applied_note(mark: str | None) -> str:
    """The note of ``zero=False`` asked of bars (or an area): their axis starts at zero."""
    return (
        f"zero=False is not applied to this {mark} chart: a bar's length is its value, so its "
        "axis starts at zero."
    )


def overflow_note(aggregate: str, column: str, n: int, marks: int) -> str:
    """The note of an aggregate past the largest float for ``n`` of ``marks`` marks (Vega-Lite
    would get null there and silently draw nothing)."""
    those = "that mark is" if n == 1 else "those marks are"
    return (
        f"The {aggregate} of {column} is beyond the largest number a chart can hold (about "
        f"±1.8e308) for {n:,} of {marks:,} marks; {those} not drawn."
    )


def log_not_kept_note(column: str, mark: str | None, why: str) -> Note:
    """The note of a drilled chart that does not keep the log scale its parent drew
    ``column`` on, and ``why``."""
    return Note(
        "option-ignored",
        f"The chart these rows were drilled from drew {column} on a log scale; this {mark} "
        f"chart does not: {why}.",
        column,
    )


def not_rows_reason(tool: str, described: str) -> str:
    """The reason of a table when a result is not rows (``described``: what it is)."""
    return (
        f"The result of {tool} is not rows (a list of objects, or a dataframe, with at least "
        f"one row) — it is {described} — so there is nothing to chart or check."
    )
