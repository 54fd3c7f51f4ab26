"""The chart's work done in the engine: only aggregated rows leave it.

An engine frame of at most ``max_points`` rows is collected as it is (that many rows may leave)
and charted exactly as a pandas frame would be. A larger one is reduced where it lives, through
narwhals, to what the chart draws — then charted from that small pandas frame:

- a date × number line: the mean of the measure per time bucket (the bucket ``decide.py``
  picks for the same span and ``max_points``), one series per value of a string color column
  with at most ``MAX_COLOR_CATEGORIES`` values;
- a string or boolean × number bar chart: the mean per category (the ``max_points`` categories
  with the highest means, so the bars ``decide.py`` keeps are among them).

Rows whose used x and y hold nothing (and a color column not declared nullable) are left out in
the engine, and a note says how many offend (from the ``ColumnViolation``); the measure's axis
reads ``mean of …``. A CSV read as text is collected only up to ``max_points`` rows, its
declared columns parsed by ``chartkit.csvread``'s rules. Over ``max_points`` rows, other shapes
and chart options (histograms, heatmaps, ``aggregate``, facets …) go to pandas for an eager
frame (already in memory) and answer a table saying what to pick for a lazy one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields, replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import pandas as pd

from chartkit.check import ColumnViolation, check_columns
from chartkit.columns import ColumnDeclaration
from chartkit.engines import EngineReading, missing_extra
from chartkit.errors import ChartkitError
from chartkit.rowset import RowsetReading, narwhals_to_pandas

if TYPE_CHECKING:
    from chartkit.decide import Plan
    from chartkit.integrity import CheckOutcome
    from chartkit.result import ToolResult
    from chartkit.view import View

__all__ = ["engine_view"]


def engine_view(
    result: ToolResult,
    reading: RowsetReading,
    outcome: CheckOutcome,
    *,
    x: str | None,
    y: Any,
    color: str | None,
    max_points: int,
    chart_args: Mapping[str, Any],
) -> View:
    """``view()`` for an engine frame: a bounded frame leaves the engine, then as usual."""
    if not isinstance(reading, EngineReading):
        raise ChartkitError("engine_view reads an EngineReading (chartkit.engines)")
    from chartkit._safe import workable_frame
    from chartkit.charts import build_chart, chart_spec
    from chartkit.decide import plan_view
    from chartkit.encode import profile_columns
    from chartkit.view import View, _options

    declaration = result.result_columns
    if outcome.armed:
        violations = outcome.violations
    elif declaration is not None:
        violations = check_columns(reading, declaration)
    else:
        violations = ()
    notes: tuple[str, ...] = ()
    reduced: tuple[pd.DataFrame, tuple[str, ...]] | str | None = None
    if reading.total > max_points:
        reduced = _unsupported_options(reading, y, chart_args) or _reduce(
            reading, declaration or {}, violations, x, y, color, max_points
        )
    if reduced is None or (isinstance(reduced, str) and not reading.lazy):
        # At most max_points rows; or an eager frame (already in memory) drawn in a way the
        # engine does not aggregate: pandas reads it, and decide.py reduces it as usual.
        frame = _collect(reading, reading.columns, "collect")
        if reading.csv_text and declaration:
            frame = _parsed_cells(frame, declaration)
    elif isinstance(reduced, str):
        return View(kind="table", reason=reduced, result=result, check=outcome)
    else:
        frame, notes = reduced
        declaration = {c: d for c, d in (declaration or {}).items() if c in frame.columns}
        violations = ()  # the offenders stayed in the engine; the notes say how many
    frame = workable_frame(frame)
    profiles = profile_columns(frame, declaration, violations)
    plan = plan_view(frame, profiles, x=x, y=y, color=color, max_points=max_points, **chart_args)
    if reduced is not None and not isinstance(reduced, str) and plan.kind == "chart":
        plan = _drawn_as_means(plan, reduced[0].columns[1])
    chart = build_chart(plan) if plan.kind == "chart" else None
    return View(
        kind=plan.kind,
        reason=plan.reason,
        result=result,
        check=outcome,
        mark=plan.mark,
        encodings=MappingProxyType(dict(plan.encodings)),
        refusals=plan.refusals,
        notes=tuple(plan.notes) + notes,
        chart=chart,
        spec=chart_spec(chart) if chart is not None else None,
        frame=frame,
        alternatives=plan.alternatives,
        options=_options(plan, chart_args["options"]) if plan.kind == "chart" else {},
    )


def _parsed_cells(
    frame: pd.DataFrame, declaration: Mapping[str, ColumnDeclaration]
) -> pd.DataFrame:
    """A CSV's declared columns parsed by ``chartkit.csvread``'s rules, as the check judged them
    in the engine (a cell that does not parse stays its text)."""
    from chartkit.csvread import parse_cell

    out = frame.copy()
    for name, decl in declaration.items():
        if name in out.columns:
            cells = out[name].tolist()
            out[name] = pd.Series(
                [None if c is None else parse_cell(c, decl.type) for c in cells],
                index=out.index,
                dtype=object,
            )
    return out


def _drawn_as_means(plan: Plan, measure: str) -> Plan:
    """The plan of engine-computed means says so: the measure's axis and the title read
    ``mean of …``, as decide.py labels the means it computes itself."""
    what = f"mean of {measure}"
    encodings = {
        channel: replace(e, aggregate="mean", title=what)
        if e.column == measure and e.aggregate is None and channel in ("x", "y")
        else e
        for channel, e in plan.encodings.items()
    }
    title = plan.title
    if title is not None and title.startswith(f"{measure} "):
        title = what + title[len(measure) :]
    return replace(plan, encodings=encodings, title=title)


def _unsupported_options(reading: EngineReading, y: Any, chart_args: Mapping[str, Any]) -> str:
    """Why the engine cannot aggregate with these picks ("" when it can)."""
    from chartkit.decide import ChartOptions

    given = [
        name
        for name, value in (
            ("facet", chart_args.get("facet")),
            ("choose", chart_args.get("choose")),
            ("several measures as y", None if y is None or isinstance(y, str) else y),
        )
        if value is not None
    ]
    options = chart_args.get("options")
    if options is not None and options != ChartOptions():
        given += [
            f.name
            for f in fields(ChartOptions)
            if getattr(options, f.name) != getattr(ChartOptions(), f.name)
        ]
    if not given:
        return ""
    return (
        f"The {reading.engine} frame has {reading.total:,} rows, over max_points, so chartkit "
        f"aggregates it in {reading.engine}, with the automatic chart's defaults; "
        f"{', '.join(given)} {'is' if len(given) == 1 else 'are'} not done there yet. Drop "
        f"{'it' if len(given) == 1 else 'them'}, or filter the frame to at most max_points "
        "rows first."
    )


def _frame(reading: EngineReading) -> Any:
    import narwhals as nw

    native = reading.native.relation if hasattr(reading.native, "relation") else reading.native
    return nw.from_native(native)


def _collect(reading: EngineReading, columns: Any, step: str, query: Any = None) -> pd.DataFrame:
    import narwhals as nw

    try:
        frame = query if query is not None else _frame(reading).select(*columns)
        if isinstance(frame, nw.LazyFrame):
            frame = frame.collect()
        out: pd.DataFrame = narwhals_to_pandas(frame)  # any names, any dtypes (Int128, …)
    except ChartkitError:
        raise
    except ModuleNotFoundError as exc:
        raise missing_extra(reading.engine, exc) from exc
    except Exception as exc:  # the engine's own error, whatever its class
        raise ChartkitError(
            f"{reading.engine} could not run the chart's {step} query over column(s) "
            f"{', '.join(map(repr, columns))}: {str(exc)[:400]}"
        ) from exc
    return out


def _reduce(
    reading: EngineReading,
    declaration: Mapping[str, ColumnDeclaration],
    violations: tuple[ColumnViolation, ...],
    x: str | None,
    y: Any,
    color: str | None,
    max_points: int,
) -> tuple[pd.DataFrame, tuple[str, ...]] | str:
    """The aggregated frame and its notes, or the reason for a table."""
    import narwhals as nw

    from chartkit._frame_check import value_type
    from chartkit.decide import _BUCKETS_S, MAX_COLOR_CATEGORIES, _duration
    from chartkit.encode import describe_offenders

    broken = {v.column: v for v in violations}

    schema = dict(reading.schema)

    def usable(name: str) -> bool:
        """Present, not wholly offending, and of its declared type in the engine's schema."""
        v = broken.get(name)
        decl = declaration.get(name)
        return (
            name in schema
            and (v is None or v.affected < v.total)
            and not reading.csv_text
            and (decl is None or value_type(schema[name]) == decl.type)
        )

    def of(kind: str) -> list[str]:
        return [n for n, d in declaration.items() if d.type == kind and usable(n)]

    over = (
        f"The {reading.engine} frame has {reading.total:,} rows, over max_points="
        f"{max_points:,}, so chartkit aggregates it in {reading.engine}"
    )
    if reading.csv_text:
        return (
            f"{over} for typed columns; a CSV's cells are text, parsed by the declaration only "
            "when they leave the engine. Store the table as Parquet (typed) to chart it in "
            "DuckDB, or filter it to at most max_points rows first."
        )
    measures = of("number")
    ys = y if y is not None else (measures[0] if measures else None)
    xs = x if x is not None else next(iter(of("date") + of("string") + of("boolean")), None)
    if ys is None or xs is None or ys not in measures or not usable(xs):
        return (
            f"{over}, which it does for a date × number line and a string or boolean × number "
            "bar chart; pick x (a column declared date, string or boolean) and y (one declared "
            "number) for one of those."
        )
    x_type = declaration[xs].type if xs in declaration else None
    colors = [
        c for c in [color] if c is not None and c in declaration and usable(c) and c not in (xs, ys)
    ]
    spans: dict[str, tuple[Any, Any, int]] = {}
    if x_type == "date":
        # One scan answers which color and which span: for each candidate color its distinct
        # values (without nulls, as pandas counts them) and the span of the rows it keeps.
        if color is None:  # decide.py's automatic color: a small string column
            colors = [c for c in of("string") + of("boolean") if c not in (xs, ys)]
        fx = nw.col(xs)
        exprs = []
        for i, c in enumerate(["", *colors]):
            kept = [xs, ys, c] if c else [xs, ys]
            keep_c = _clean(None, kept, reading, declaration, [c] if c else [])
            exprs += [
                nw.when(keep_c).then(fx).min().alias(f"lo{i}"),
                nw.when(keep_c).then(fx).max().alias(f"hi{i}"),
                keep_c.cast(nw.Int64).sum().alias(f"n{i}"),
            ]
            if c:
                distinct = nw.col(c).n_unique() - nw.col(c).is_null().any().cast(nw.Int64)
                exprs.append(distinct.alias(f"d{i}"))
        stats = _collect(reading, [xs, ys, *colors], "span", _frame(reading).select(*exprs))
        row = stats.iloc[0]
        distinct_of = {c: int(row[f"d{i}"]) for i, c in enumerate(["", *colors]) if c}
        fits = [c for c in colors if 1 < distinct_of[c] <= MAX_COLOR_CATEGORIES]
        picked = colors[0] if color is not None and colors else (fits[0] if fits else None)
        if picked is not None and distinct_of[picked] > MAX_COLOR_CATEGORIES:
            picked = None
        i = ["", *colors].index(picked or "")
        spans[xs] = (row[f"lo{i}"], row[f"hi{i}"], int(row[f"n{i}"] or 0))
        series = distinct_of[picked] if picked is not None else 1
        colors = [picked] if picked is not None else []
    used = [xs, ys, *colors]
    frame = _frame(reading).select(*used)
    keep = _clean(frame, used, reading, declaration, colors)
    if keep is not None:
        frame = frame.filter(keep)
    notes = [
        f"{broken[c].affected:,} of {reading.total:,} rows are left out of the chart in "
        f"{reading.engine}: {c} is declared {declaration[c].type} and they "
        f"{describe_offenders(broken[c])}. Nothing was converted."
        for c in used
        if c in broken
    ]
    fx, fy = nw.col(xs), nw.col(ys)
    if x_type == "date":
        first, last, count = spans[xs]
        if not count:
            return f"{over}, and no row holds a value of its declared type in {xs} and {ys}."
        lo, hi = pd.Timestamp(first), pd.Timestamp(last)
        seconds = next(
            (
                s
                for s in _BUCKETS_S
                if (hi - lo).total_seconds() / s + 1 <= max(1, max_points // series)
            ),
            _BUCKETS_S[-1],
        )  # decide.py's bucket for this span
        keys = ["__bucket", *colors]
        step = seconds * 1000
        aware = getattr(dict(reading.schema)[xs], "time_zone", None) is not None
        grouped = _with_epoch_ms(frame, xs, reading.engine, aware)
        grouped = grouped.with_columns((nw.col("__ms") // step).alias("__bucket"))
        grouped = grouped.group_by(keys).agg(fy.mean())
        out = _collect(reading, used, "line bucket", grouped).sort_values(keys, kind="stable")
        start = pd.to_datetime(out.pop("__bucket") * seconds, unit="s")
        tz = getattr(lo, "tz", None)
        # epoch milliseconds count from UTC: an aware axis gets its zone back
        out.insert(0, xs, start.dt.tz_localize("UTC").dt.tz_convert(tz) if tz else start)
        out = out[[xs, ys, *colors]].reset_index(drop=True)
        notes.append(
            f"{count:,} rows are drawn as {len(out):,} points, computed in "
            f"{reading.engine}: the mean of {ys} per {_duration(seconds)} bucket"
            f"{' for each ' + colors[0] if colors else ''}; only these points left the engine."
        )
        return out, tuple(notes)
    grouped = frame.group_by(xs).agg(fy.mean(), nw.len().alias("__rows"))
    grouped = grouped.sort(ys, descending=True, nulls_last=True).head(max_points)
    out = _collect(reading, used, "bar group-by", grouped)
    rows = int(out.pop("__rows").sum())
    notes.append(
        f"{rows:,} rows are drawn as {len(out):,} bars, computed in {reading.engine}: the mean "
        f"of {ys} per {xs}; only these rows left the engine."
    )
    return out[[xs, ys]].reset_index(drop=True), tuple(notes)


def _clean(
    frame: Any,
    used: list[str],
    reading: Any,
    declaration: Mapping[str, ColumnDeclaration],
    colors: list[str],
) -> Any:
    """The rows the chart can place: x and y hold a value (a finite one for floats), and a
    color column holds one unless it is declared nullable (null categories keep their rows)."""
    import narwhals as nw

    schema = dict(reading.schema)
    keep = None
    for name in used:
        decl = declaration.get(name)
        if name in colors and decl is not None and decl.nullable:
            continue
        dtype = schema[name]
        col = nw.col(name)
        ok = ~col.is_null()
        if dtype.is_float():
            ok = ok & ~col.is_nan() & col.is_finite()
        keep = ok if keep is None else keep & ok
    return keep


def _with_epoch_ms(frame: Any, name: str, engine: str, aware: bool) -> Any:
    """``frame`` with ``__ms``: ``name``'s milliseconds since the epoch.

    narwhals has no ``dt.timestamp`` for DuckDB, Spark and Ibis, so those use their own function.
    """
    import narwhals as nw

    if engine == "duckdb":
        q = '"' + name.replace('"', '""') + '"'
        return nw.from_native(
            frame.to_native().project(
                f"*, epoch_ms({q if aware else f'CAST({q} AS TIMESTAMP)'}) AS __ms"
            )
        )
    if engine == "pyspark":
        from pyspark.sql import functions as F

        native = frame.to_native()
        return nw.from_native(
            native.withColumn("__ms", F.unix_millis(F.col(name).cast("timestamp")))
        )
    if engine == "ibis":  # epoch seconds are enough: a bucket is at least a second
        native = frame.to_native()
        return nw.from_native(native.mutate(__ms=native[name].epoch_seconds() * 1000))
    return frame.with_columns(nw.col(name).dt.timestamp("ms").alias("__ms"))
