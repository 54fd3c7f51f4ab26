"""The backend contract: every backend gives the same answers to the same questions.

One typed frame (numbers with nulls and NaNs, text with nulls, booleans, timestamps) is held by
each backend — pandas in memory, and DuckDB, polars (eager and lazy), pyarrow and Ibis by
queries — and each is asked the same things: the facts choosing needs, the profiles, the
reductions a chart spec names (including the spec the planner made for the same rows), a
bounded sample, the check's offenders, and the rows a condition selects. Hostile column names
(helper-like, regex syntax, SQL words, quotes, dots) get the same answers too.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import duckdb
import numpy as np
import pandas as pd
import polars as pl
import pytest
from test_dataframes import DECLARATIONS, assert_same

from chartkit import ChartkitError, ColumnViolation, check_columns
from chartkit.backends import (
    MAX_PAGE,
    MAX_SAMPLE,
    Backend,
    Condition,
    Grouping,
    backend_for,
)
from chartkit.backends._contract import AnyOf
from chartkit.backends.counts import PlacedCounts
from chartkit.backends.memory import MemoryBackend
from chartkit.backends.query import QueryBackend
from chartkit.columns import ColumnDeclaration, normalize_result_columns
from chartkit.plan import choose
from chartkit.plan.bins import ArrayCounts, cell_edges, histogram_edges
from chartkit.plan.decide import ChartOptions, plan_view
from chartkit.plan.encode import profile_columns

N = 400
START = dt.datetime(2024, 1, 1)


def polars_frame(seed: int = 0, names: dict[str, str] | None = None) -> pl.DataFrame:
    rng = random.Random(seed)

    def gap(value: Any, share: float = 0.1) -> Any:
        return None if rng.random() < share else value

    def number() -> float | None:
        value = round(rng.uniform(-5, 50), 2)
        return gap(rng.choice([float("nan"), value]), 0.05) if rng.random() < 0.1 else value

    df = pl.DataFrame(
        {
            "at": pl.Series(
                [START + dt.timedelta(minutes=17 * i + rng.randrange(5)) for i in range(N)],
                dtype=pl.Datetime("us"),
            ),
            "gb": pl.Series([number() for _ in range(N)], dtype=pl.Float64),
            "lun": pl.Series([gap(rng.randrange(0, 9)) for _ in range(N)], dtype=pl.Int64),
            "host": pl.Series(
                [gap(rng.choice(["vdi-a", "vdi-b", "db", "web", "ops"])) for _ in range(N)],
                dtype=pl.String,
            ),
            "site": pl.Series([rng.choice(["north", "south"]) for _ in range(N)], dtype=pl.String),
            "mapped": pl.Series([gap(rng.random() < 0.3) for _ in range(N)], dtype=pl.Boolean),
        }
    )
    return df.rename(names) if names else df


def holders(df: pl.DataFrame) -> dict[str, Callable[[], object]]:
    """Each backend's native holder of the same rows (made on demand: Ibis is optional)."""

    def duck() -> object:
        con = duckdb.connect()
        con.register("df", df.to_arrow())
        return con.sql("SELECT * FROM df")

    def ibis_table() -> object:
        ibis = pytest.importorskip("ibis")
        return ibis.memtable(df.to_arrow())

    return {
        "pandas": lambda: df.to_pandas(),
        "duckdb": duck,
        "polars": lambda: df,
        "polars lazy": lambda: df.lazy(),
        "pyarrow": lambda: df.to_arrow(),
        "ibis": ibis_table,
    }


BACKENDS = list(holders(polars_frame()))


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> Backend:
    return backend_for(holders(polars_frame())[request.param]())


@pytest.fixture
def memory() -> MemoryBackend:
    b = backend_for(polars_frame().to_pandas())
    assert isinstance(b, MemoryBackend)
    return b


def same(a: pd.DataFrame, b: pd.DataFrame) -> None:
    """Two answers hold the same columns and values (floats to 1e-9, missing alike)."""
    assert list(a.columns) == list(b.columns)
    assert len(a) == len(b)
    for c in a.columns:
        x, y = a[c].tolist(), b[c].tolist()
        for u, v in zip(x, y, strict=True):
            if _gone(u) or _gone(v):
                assert _gone(u) and _gone(v), (c, u, v)
            elif isinstance(u, float) or isinstance(v, float):
                assert u == pytest.approx(v, rel=1e-9, abs=1e-9), (c, u, v)
            else:
                assert _plain(u) == _plain(v), (c, u, v)


def _gone(v: Any) -> bool:
    return v is None or v is pd.NaT or v is pd.NA or (isinstance(v, float) and np.isnan(v))


def _plain(v: Any) -> Any:
    return pd.Timestamp(v).to_pydatetime() if isinstance(v, dt.datetime | np.datetime64) else v


def test_the_backend_is_picked_once_by_what_holds_the_rows() -> None:
    df = polars_frame()
    for name, make in holders(df).items():
        b = backend_for(make())
        assert isinstance(b, Backend)
        assert isinstance(b, MemoryBackend if name == "pandas" else QueryBackend)
        assert b.engine == ("pandas" if name == "pandas" else name.split()[0])
        assert (b.rows, b.columns) == (N, tuple(df.columns))
    rows = backend_for([{"a": 1}, {"a": 2}])
    assert (rows.engine, rows.rows, rows.columns) == ("pandas", 2, ("a",))
    with pytest.raises(ChartkitError, match="a int is not rows"):
        backend_for(3)


def test_every_backend_counts_the_same_facts(backend: Backend, memory: MemoryBackend) -> None:
    names = list(memory.columns)
    assert backend.facts(names) == memory.facts(names)
    host = memory.facts(["host"])["host"]
    df = polars_frame()
    assert host.distinct == df["host"].drop_nulls().n_unique()
    assert host.values == N - df["host"].null_count()
    gb = memory.facts(["gb"])["gb"]
    finite = df["gb"].drop_nulls().drop_nans()
    assert (gb.lo, gb.hi, gb.values) == (finite.min(), finite.max(), len(finite))
    assert memory.facts(["at"])["at"].lo == df["at"].min() >= START


def test_every_backend_counts_the_facts_of_the_rows_its_terms_keep(
    backend: Backend, memory: MemoryBackend
) -> None:
    names = list(memory.columns)
    got = backend.facts(names, where=PLACED)
    df = polars_frame().to_pandas()
    kept = df[np.isfinite(df["gb"].to_numpy(dtype=float)) & (df["host"].isna() | df["host"].isin(
        ["db", "web"]))].reset_index(drop=True)  # fmt: skip
    assert got == memory.facts(names, where=PLACED) == MemoryBackend(kept).facts(names)
    assert got["gb"].rows == got["gb"].values == len(kept) < N
    assert got["host"].distinct == 2
    assert backend.facts(names) == memory.facts(names)  # (the remembered facts: every row's)


def test_every_backend_counts_the_same_coverage_of_the_times(
    backend: Backend, memory: MemoryBackend
) -> None:
    for by in ("host", "site", "mapped"):
        assert backend.coverage("at", by) == memory.coverage("at", by)
    df = polars_frame().to_pandas()
    held = df[df["at"].notna()]
    for by in ("host", "site"):  # by hand: a missing host is a value of its own
        per_value = held.drop_duplicates(["at", by]).groupby(by, dropna=False).size()
        assert memory.coverage("at", by) == (per_value.min(), held["at"].nunique())
    with pytest.raises(ChartkitError, match="'nope' names no column of this result"):
        backend.coverage("at", "nope")


def test_every_backend_counts_the_same_x_positions_per_group(
    backend: Backend, memory: MemoryBackend
) -> None:
    for x, by in (("gb", "host"), ("gb", "site"), ("at", "mapped")):
        assert backend.positions(x, by) == memory.positions(x, by)
    df = polars_frame().to_pandas()
    both = df[["gb", "host"]].dropna()  # by hand: the rows holding an x (not NaN) and a host
    per_group = sorted(both.groupby("host")["gb"].nunique().tolist())
    assert memory.positions("gb", "host") == (per_group, both["gb"].nunique())
    with pytest.raises(ChartkitError, match="'nope' names no column of this result"):
        backend.positions("gb", "nope")


@pytest.mark.parametrize("holder", BACKENDS)
def test_every_backend_tells_a_breakdown_by_its_unique_pairs(holder: str) -> None:
    """unique_pairs, the fact choose.breakdown_key reads: medal counts (one row per nation and
    medal) are a breakdown, events (a pair repeated) are not; a missing value is a key of its
    own, so two rows missing the same key repeat it."""
    medals = pl.DataFrame({
        "nation": ["us", "us", "us", "fr", "fr", None, None],
        "medal": ["gold", "silver", "bronze", "gold", "silver", "gold", None],
        "n": [3.0, 2.0, 1.0, 1.0, 4.0, 2.0, 1.0],
    })  # fmt: skip
    events = medals.vstack(medals.head(1))
    gaps = medals.vstack(medals.tail(1))
    for frame, pairs in ((medals, True), (events, False), (gaps, False)):
        b = backend_for(holders(frame)[holder]())
        assert b.unique_pairs("nation", "medal") is pairs, (holder, len(frame))
        assert b.unique_pairs("medal", "nation") is pairs
        assert b.unique_pairs("nation", "nation") is False  # a nation repeats
    with pytest.raises(ChartkitError, match="'nope' names no column of this result"):
        backend_for(holders(medals)[holder]()).unique_pairs("nation", "nope")


@pytest.mark.parametrize("holder", BACKENDS)
def test_every_backend_tells_the_anscombe_panels_from_iris_colors(holder: str) -> None:
    from vega_datasets import data

    for name, x, by, shared in (("anscombe", "X", "Series", True), ("iris", "petalLength",
                                                                   "species", False)):  # fmt: skip
        frame = pl.from_pandas(getattr(data, name)())
        counted = backend_for(holders(frame)[holder]()).positions(x, by)
        assert choose.shares_positions(*counted) is shared, (name, counted)


@pytest.mark.parametrize("holder", BACKENDS)
def test_every_backend_tells_an_entity_over_time_from_a_label_of_single_rows(
    holder: str,
) -> None:
    days = [START + dt.timedelta(days=i) for i in range(60)]
    panel = pl.DataFrame(  # two symbols priced every day, one missing a week: entities
        {
            "day": [d for d in days for _ in ("a", "b")],
            "symbol": [s for _ in days for s in ("a", "b")],
        }
    ).filter(~((pl.col("symbol") == "b") & (pl.col("day") < START + dt.timedelta(days=7))))
    weather = pl.DataFrame(  # one label a day, snow on 3 of them: a label of single rows
        {"day": days, "weather": ["snow" if i % 20 == 0 else "sun" for i in range(60)]}
    )
    entity = backend_for(holders(panel)[holder]()).coverage("day", "symbol")
    label = backend_for(holders(weather)[holder]()).coverage("day", "weather")
    assert (entity, label) == ((53, 60), (3, 60))
    assert choose.is_entity(*entity) and not choose.is_entity(*label)


def test_every_backend_profiles_the_columns_alike(backend: Backend, memory: MemoryBackend) -> None:
    decl = normalize_result_columns(
        {"at": "date", "gb": "number", "host": "string", "mapped": "boolean", "gone": "number"}
    )
    violations = memory.offenders(decl)
    assert backend.offenders(decl) == violations
    got = backend.profiles(decl, violations)
    want = memory.profiles(decl, violations)
    # the declaration's order, then the undeclared columns in the frame's (issue 20)
    undeclared = [c for c in polars_frame().columns if c not in decl]
    assert list(got) == list(want) == [*decl, *undeclared]
    for name, q in want.items():
        p = got[name]
        assert (p.type, p.source, p.present, p.distinct, p.rows, p.violation) == (
            q.type, q.source, q.present, q.distinct, q.rows, q.violation,
        ), name  # fmt: skip
    assert got["lun"].source == "inferred" and got["lun"].type == "quantitative"
    assert got["site"].distinct == 2 and got["gone"].present is False


TEN_BINS = tuple(float(e) for e in np.linspace(0.0, 40.0, 11))  # gb spans -5 to 50

GROUPINGS = {
    "mean per category": Grouping(("host",), ("gb",), "mean"),
    "sum per two keys": Grouping(("site", "host"), ("lun",), "sum"),
    "max per boolean": Grouping(("mapped",), ("gb",), "max"),
    "rows counted": Grouping(("host", "site"), (), "count"),
    "median per site": Grouping(("site",), ("lun",), "median"),
    "top 3 by sum": Grouping(("host",), ("gb",), "sum", top=3),
    "top 2 counted": Grouping(("host",), (), "count", top=2),
    "hourly mean": Grouping(("at",), ("gb",), "mean", bucket_seconds=3600, dates=("at",)),
    "daily sum per site": Grouping(("at", "site"), ("lun",), "sum", time_unit="day", dates=("at",)),
    "two measures per host": Grouping(("host",), ("gb", "lun"), "mean"),
    "rows per 6 hours": Grouping(("at",), (), "count", bucket_seconds=21600, dates=("at",)),
    # bins: a histogram's (some values outside), a measure per bin and category, a heatmap's
    "a histogram": Grouping(("gb",), (), "count", bins=(("gb", TEN_BINS),)),
    "mean per bin and site": Grouping(
        ("lun", "site"), ("gb",), "mean", bins=(("lun", (0.0, 2.5, 2.5, 5.0, 8.0)),)
    ),
    "heatmap cells": Grouping(
        ("gb", "lun"), (), "count", bins=(("gb", TEN_BINS), ("lun", (0.0, 4.0, 8.0)))
    ),
}


@pytest.mark.parametrize("case", list(GROUPINGS))
def test_every_backend_reduces_a_grouping_to_the_same_groups(
    backend: Backend, memory: MemoryBackend, case: str
) -> None:
    g = GROUPINGS[case]
    if backend.engine == "pyarrow" and g.aggregate == "median":
        with pytest.raises(ChartkitError, match="pyarrow computes no exact median"):
            backend.reduce(g)
        return
    got, want = backend.reduce(g), memory.reduce(g)
    same(got.frame, want.frame)
    assert (got.rows, got.left_out, got.no_value, got.categories, got.outside, got.grouped) == (
        want.rows, want.left_out, want.no_value, want.categories, want.outside, want.grouped,
    )  # fmt: skip


def test_the_in_memory_groups_are_the_rows_reduced_by_hand(memory: MemoryBackend) -> None:
    df = polars_frame().to_pandas()
    got = memory.reduce(GROUPINGS["mean per category"])
    kept = df[df["gb"].notna()]
    want = kept.groupby("host", dropna=False, sort=True)["gb"].agg(["mean", "size"])
    assert got.frame["gb"].tolist() == pytest.approx(want["mean"].tolist())
    assert got.rows == (tuple(want["size"]),)
    assert got.no_value == int(df["gb"].isna().sum())  # NaN and null alike: no value
    top = memory.reduce(GROUPINGS["top 2 counted"])
    counts = df["host"].value_counts(dropna=False)
    assert top.categories == len(counts)
    assert sorted(top.rows[0], reverse=True) == sorted(counts.head(2).tolist(), reverse=True)
    hourly = memory.reduce(GROUPINGS["hourly mean"])
    assert (hourly.frame["at"].dt.minute == 0).all()
    assert sum(hourly.rows[0]) == len(kept)


def test_binned_groups_are_numpys_histogram(memory: MemoryBackend) -> None:
    df = polars_frame().to_pandas()
    gb = df["gb"].to_numpy(dtype=float)
    gb = gb[np.isfinite(gb)]
    got = memory.reduce(GROUPINGS["a histogram"])
    counts, _ = np.histogram(gb, bins=np.array(TEN_BINS))
    assert got.frame["gb"].tolist() == [i for i in range(10) if counts[i]]
    assert list(got.rows[0]) == [int(c) for c in counts if c]
    assert got.outside == int(((gb < 0) | (gb > 40)).sum()) > 0
    assert got.no_value == int(df["gb"].isna().sum())
    # on an edge: the next bin, the highest the last; equal edges: the last of them counts
    on = pd.DataFrame({"v": [0.0, 1.0, 2.0, 2.0, 3.0, 4.0, np.inf, None]})
    g = Grouping(("v",), (), "count", bins=(("v", (0.0, 2.0, 2.0, 4.0)),))
    for b in (MemoryBackend(on), backend_for(pl.from_pandas(on).lazy())):
        got = b.reduce(g)
        assert got.frame["v"].tolist() == [0, 2] and got.rows == ((2, 4),), b.engine
        assert (got.no_value, got.outside) == (2, 0)
    assert np.histogram([0.0, 1.0, 2.0, 2.0, 3.0, 4.0], bins=[0.0, 2.0, 2.0, 4.0])[0].tolist() == [
        2, 0, 4,
    ]  # fmt: skip


def finite_rows(names: tuple[str, ...], beside: tuple[str, ...] = ()) -> list[Any]:
    """The rows a histogram or heatmap of ``names`` places, as terms: each holds a finite
    number in every one of them (and a value of each column ``beside``)."""
    return [Condition(n, "finite") for n in names] + [
        Condition(n, "null", negate=True) for n in beside
    ]


def test_every_backend_counts_a_histogram_and_a_heatmap_as_numpy_does(backend: Backend) -> None:
    """What a plan asks to draw a histogram, count bars or a heatmap (``Counted``), asked of
    every backend over the rows the chart places (``PlacedCounts``): the span, the rows per
    value and per bin of the plan's own edges are numpy's over the same rows."""
    df = polars_frame().to_pandas()
    gb, lun = df["gb"].to_numpy(dtype=float), df["lun"].to_numpy(dtype=float)
    both = np.isfinite(gb) & np.isfinite(lun)
    one = ArrayCounts({"gb": gb[np.isfinite(gb)], "lun": lun[np.isfinite(lun)]})
    two = ArrayCounts({"gb": gb[both], "lun": lun[both]})
    counts = PlacedCounts(backend, finite_rows)
    for name in ("gb", "lun"):
        got, want = counts((name,)).span(name, enough=15), one.span(name, enough=15)
        assert (got.rows, got.lo, got.hi) == (want.rows, want.lo, want.hi)
        assert min(got.distinct, 15) == min(want.distinct, 15)  # (exact below 15)
    values, rows = counts(("lun",)).per_value("lun")
    want_values, want_rows = one.per_value("lun")
    assert values.tolist() == want_values.tolist() and rows.tolist() == want_rows.tolist()
    span = one.span("gb", enough=0)
    edges = histogram_edges(span.lo, span.hi, 10)
    (at,), rows = counts(("gb",)).per_bin(("gb",), (edges,))
    (want_at,), want_rows = one.per_bin(("gb",), (edges,))
    assert at.tolist() == want_at.tolist() and rows.tolist() == want_rows.tolist()
    assert rows.sum() == np.isfinite(gb).sum()
    sx, sy = two.span("gb", enough=0), two.span("lun", enough=0)
    cells = (cell_edges(sx.lo, sx.hi, 7), cell_edges(sy.lo, sy.hi, 7))
    assert counts(("gb", "lun")).span("lun", enough=0) == sy
    (ix, iy), rows = counts(("gb", "lun")).per_bin(("gb", "lun"), cells)
    (wx, wy), want_rows = two.per_bin(("gb", "lun"), cells)
    assert (ix.tolist(), iy.tolist(), rows.tolist()) == (
        wx.tolist(), wy.tolist(), want_rows.tolist(),
    )  # fmt: skip
    assert counts(("gb", "lun")) is counts(("gb", "lun"))  # (asked once, answered from memory)


def test_counts_of_no_placed_value_are_said_by_name() -> None:
    b = backend_for(pl.DataFrame({"v\nx": [None, float("nan")]}, schema={"v\nx": pl.Float64}))
    counted = PlacedCounts(b, finite_rows)(("v\nx",))
    assert counted.held("v\nx", enough=0) is None
    with pytest.raises(ChartkitError) as e:
        counted.span("v\nx", enough=0)
    assert str(e.value) == "no row the chart places holds a value of 'v\\nx' to count"


def test_values_outside_the_edges_are_counted_whatever_the_backend_remembers(
    backend: Backend, memory: MemoryBackend
) -> None:
    """An engine looks for values outside the edges unless the facts it already counted of
    every row put the column's span inside them: either way, the answer is memory's."""
    g = GROUPINGS["a histogram"]  # edges 0 to 40; gb spans -5 to 50
    backend.facts(["gb"])  # (remembered by an engine: its span is not inside the edges)
    got, want = backend.reduce(g), memory.reduce(g)
    assert got.outside == want.outside > 0 and got.rows == want.rows
    wide = Grouping(("gb",), (), "count", bins=(("gb", (-10.0, 0.0, 60.0)),))
    got, want = backend.reduce(wide), memory.reduce(wide)  # (inside: not looked for)
    assert got.outside == want.outside == 0 and got.rows == want.rows
    assert sum(got.rows[0]) == got.grouped == N - got.no_value


@pytest.mark.parametrize(
    ("bins", "error"),
    [
        ((("gb", (1.0,)),), "the bins of 'gb' need a tuple of two edges or more"),
        ((("gb", (1.0, 0.0)),), "the edges of 'gb' must rise from the first to the last"),
        ((("gb", (0.0, 0.0)),), "the edges of 'gb' must rise from the first to the last"),
        ((("gb", (0.0, float("inf"))),), "the edges of 'gb' are finite floats, got inf"),
        ((("gb", (0, 1)),), "the edges of 'gb' are finite floats, got 0"),
        ((("site", (0.0, 1.0)),), "the binned column 'site' must be a key, and not a date"),
        ((("at", (0.0, 1.0)),), "the binned column 'at' must be a key, and not a date"),
        ((("gb", (0.0, 1.0)), ("gb", (0.0, 2.0))), "'gb' is binned twice"),
    ],
)
def test_bins_are_checked_when_the_grouping_is_made(bins: Any, error: str) -> None:
    with pytest.raises(ChartkitError, match=re.escape(error)):
        Grouping(("gb", "at"), (), "count", dates=("at",), bins=bins)


def test_a_column_that_holds_no_numbers_is_not_binned(backend: Backend) -> None:
    g = Grouping(("host",), (), "count", bins=(("host", (0.0, 1.0)),))
    with pytest.raises(ChartkitError, match=r"host is binned but .*not numbers"):
        backend.reduce(g)


PLACED = (
    Condition("gb", "finite"),
    AnyOf((Condition("host", "null"), Condition("host", "in", ["db", "web"]))),
)


@pytest.mark.parametrize(
    "case",
    ["mean per category", "hourly mean", "a histogram", "two measures per host", "top 2 counted",
     "top 3 by sum"],
)  # fmt: skip
def test_a_grouping_groups_only_the_rows_its_terms_keep(
    backend: Backend, memory: MemoryBackend, case: str
) -> None:
    g = replace(GROUPINGS[case], where=PLACED)
    got = backend.reduce(g, {"host": {"type": "string", "nullable": True}})
    df = polars_frame().to_pandas()
    kept = df[np.isfinite(df["gb"].to_numpy(dtype=float)) & (df["host"].isna() | df["host"].isin(
        ["db", "web"]))].reset_index(drop=True)  # fmt: skip
    want = MemoryBackend(kept).reduce(replace(g, where=()), {"host": {"type": "string",
                                                                      "nullable": True}})
    assert 0 < len(kept) < len(df)
    same(got.frame, want.frame)
    assert (got.rows, got.left_out, got.no_value, got.categories, got.outside, got.grouped) == (
        want.rows, want.left_out, want.no_value, want.categories, want.outside, want.grouped,
    )  # fmt: skip
    assert memory.reduce(g, {"host": {"type": "string", "nullable": True}}).rows == want.rows


def test_a_value_the_terms_keep_but_no_chart_places_is_still_counted() -> None:
    """Terms that keep only finite values leave nothing to count as no value; terms that keep
    every non-null value leave an infinite one to count, on every backend."""
    df = pl.DataFrame({"k": ["a", "a", "b", "b", "b"], "v": [1.0, float("inf"), None, 2.0, 3.0]})
    for where, no_value, rows in [
        ((Condition("v", "null", negate=True),), 1, ((1, 2),)),
        ((Condition("v", "finite"),), 0, ((1, 2),)),
        ((), 2, ((1, 2),)),
    ]:
        g = Grouping(("k",), ("v",), "sum", where=where)
        for make in holders(df).values():
            got = backend_for(make()).reduce(g)
            assert (got.no_value, got.rows, got.frame["v"].tolist()) == (no_value, rows,
                                                                         [1.0, 5.0]), where


def test_the_top_groups_are_memory_s_when_the_engine_cuts_them() -> None:
    """One key and nothing left out to count: the engine sorts and cuts the groups itself
    (only the top leave it); the groups, the categories and the rows of every group are
    memory's, ties in key order and a missing value ranked as 0."""
    rng = random.Random(3)
    n = 2000
    df = pl.DataFrame({
        "k": [None if i % 97 == 0 else f"k{rng.randrange(300):03d}" for i in range(n)],
        "v": [float(rng.choice([-2, 0, 1, 1, 5])) if i % 13 else float("nan") for i in range(n)],
    })  # fmt: skip
    kept = (Condition("v", "finite"),)  # (a NaN is no value: kept out, none left to count)
    for g in [
        Grouping(("k",), (), "count", top=40),
        Grouping(("k",), ("v",), "sum", top=40, where=kept),
        Grouping(("k",), ("v",), "max", top=5000, where=kept),
        Grouping(("k",), (), "count", top=1, where=(Condition("k", "in", ["k001"]),)),
    ]:
        want = backend_for(df.to_pandas()).reduce(g)
        for engine, make in holders(df).items():
            got = backend_for(make()).reduce(g)
            same(got.frame, want.frame)
            assert (got.rows, got.categories, got.grouped, got.no_value) == (
                want.rows, want.categories, want.grouped, want.no_value,
            ), (engine, g)  # fmt: skip
    assert want.categories == 1 and want.grouped == want.rows[0][0] > 0


def test_a_group_of_left_out_rows_alone_changes_no_key_s_type() -> None:
    """A row left out (no value) whose key is missing makes no group, and no missing key turns
    an integer key to floats (2**53 + 1 kept exact) or a week's start to epoch numbers."""
    big = 2**53 + 1
    ints = pl.DataFrame({"k": [big, big, None], "v": [1.0, 2.0, float("nan")]})
    weeks = pl.DataFrame({
        "t": [dt.datetime(2024, 3, 5), dt.datetime(2024, 3, 12), None], "v": [1.0, 1.0, 1.0],
    })  # fmt: skip
    for df, g, key in [
        (ints, Grouping(("k",), ("v",), "sum"), [big]),
        (weeks, Grouping(("t",), ("v",), "sum", time_unit="week", dates=("t",)),
         [pd.Timestamp("2024-03-04"), pd.Timestamp("2024-03-11")]),
    ]:  # fmt: skip
        for engine, make in holders(df).items():
            if engine == "pandas" and df is ints:
                continue  # (polars' to_pandas holds that column as floats already)
            got = backend_for(make()).reduce(g)
            assert got.frame[g.keys[0]].tolist() == key, engine
            assert got.no_value == 1, engine


@pytest.mark.parametrize("unit", [None, "week", "month", "quarter", "year"])
def test_a_date_key_is_a_time_at_midnight_in_every_backend(unit: str | None) -> None:
    """A column of dates (no time) groups as memory reads it: times at midnight, floored to a
    calendar unit (Ibis raised on a quarter of dates; pyarrow and Ibis answered dates)."""
    days = [dt.date(2024, 1, 3), dt.date(2024, 2, 29), dt.date(2024, 5, 5), None,
            dt.date(2023, 12, 31)]  # fmt: skip
    df = pl.DataFrame({"d": days, "v": [1.0, 2.0, 3.0, 4.0, 5.0]})
    g = Grouping(("d",), ("v",), "sum", time_unit=unit, dates=("d",))  # type: ignore[arg-type]
    want = backend_for(df.to_pandas()).reduce(g)
    assert all(isinstance(t, pd.Timestamp) for t in want.frame["d"])
    for engine, make in holders(df).items():
        got = backend_for(make()).reduce(g)
        same(got.frame, want.frame)
        assert (got.rows, got.no_value) == (want.rows, want.no_value) == (got.rows, 1), engine


def test_a_nan_key_and_a_missing_one_are_one_group_in_every_backend() -> None:
    df = pl.DataFrame({"k": [1.0, float("nan"), None, 2.0, float("nan")], "v": [1.0] * 5})
    g = Grouping(("k",), ("v",), "sum")
    want = backend_for(df.to_pandas()).reduce(g)
    assert want.rows == ((1, 1, 3),)
    for engine, make in holders(df).items():
        got = backend_for(make()).reduce(g)
        same(got.frame, want.frame)
        assert got.rows == want.rows, engine


def test_the_facts_of_no_row_are_zeros_in_every_backend() -> None:
    df = pl.DataFrame({"x": [float("nan"), None, float("nan")], "s": ["a", None, "b"]})
    for engine, make in holders(df).items():
        got = backend_for(make()).facts(["x", "s"], where=[Condition("x", "finite")])
        assert [(f.rows, f.values, f.distinct, f.lo) for f in got.values()] == [
            (0, 0, 0, None), (0, 0, 0, None),
        ], engine  # fmt: skip


def test_a_groupings_time_unit_is_checked() -> None:
    with pytest.raises(ChartkitError, match="time_unit='fortnight' is not one of minute, hour"):
        Grouping(("at",), time_unit="fortnight", dates=("at",))  # type: ignore[arg-type]
    with pytest.raises(ChartkitError, match="bucket_seconds or time_unit, not both"):
        Grouping(("at",), bucket_seconds=60, time_unit="day", dates=("at",))


def test_terms_of_no_condition_keep_every_row_or_none_in_every_backend() -> None:
    df = polars_frame()
    for where, rows in [((AnyOf((), negate=True),), N), ((AnyOf(()),), 0)]:
        g = Grouping(("site",), where=where)
        for engine, make in holders(df).items():
            b = backend_for(make())
            assert sum(b.reduce(g).rows[0]) == rows, engine
            assert b.facts(["gb"], where=where)["gb"].rows == rows, engine


def test_a_groupings_terms_are_checked() -> None:
    with pytest.raises(ChartkitError, match="a where list holds Condition and AnyOf terms"):
        Grouping(("host",), where=("host",))  # type: ignore[arg-type]
    with pytest.raises(ChartkitError, match="where is a tuple of terms, got list"):
        Grouping(("host",), where=[Condition("host", "null")])  # type: ignore[arg-type]
    b = backend_for(polars_frame().lazy())
    with pytest.raises(ChartkitError, match="'nope' names no column of this result"):
        b.reduce(Grouping(("host",), where=(Condition("nope", "null"),)))


def test_a_hostile_name_binned_is_said_cut_and_visible_in_every_backend() -> None:
    name = "a\nb" + "x" * 5000
    df = pl.DataFrame({name: ["p", "q"], "v": [1.0, 2.0]})
    g = Grouping((name,), (), "count", bins=((name, (0.0, 1.0)),))
    for engine, make in holders(df).items():
        with pytest.raises(ChartkitError) as caught:
            backend_for(make()).reduce(g)
        message = str(caught.value)
        assert "is binned but" in message and "\n" not in message, engine
        assert len(message) < 400 and "(5,003 characters)" in message, engine


def test_offending_rows_are_left_out_and_counted_in_every_backend(
    backend: Backend, memory: MemoryBackend
) -> None:
    decl = {"gb": "number", "host": "string"}  # neither nullable: a null offends
    g = Grouping(("host",), ("gb",), "sum")
    got, want = backend.reduce(g, decl), memory.reduce(g, decl)
    same(got.frame, want.frame)
    df = polars_frame()
    gb_gone = df["gb"].is_null() | df["gb"].is_nan().fill_null(False)
    host_bad = int(df["host"].is_null().sum())  # the keys first: a row counts once, there
    gb_bad = int((gb_gone & df["host"].is_not_null()).sum())
    assert want.left_out == got.left_out == (("host", host_bad), ("gb", gb_bad))
    assert want.no_value == got.no_value == 0
    assert None not in want.frame["host"].tolist()
    nullable = backend.reduce(g, {"gb": {"type": "number", "nullable": True}})
    assert nullable.left_out == () and nullable.no_value == int(gb_gone.sum())


def test_a_column_the_engine_holds_as_another_type_is_refused_by_name(backend: Backend) -> None:
    g = Grouping(("site",), ("host",), "sum")
    if backend.engine == "pandas":
        got = backend.reduce(g, {"host": "number"})  # every text offends: nothing is drawn
        assert got.frame.empty and got.left_out == (("host", N),)
        return
    with pytest.raises(ChartkitError, match=f"host is declared number but {backend.engine} "
                       "holds it as String; cast it"):  # fmt: skip
        backend.reduce(g, {"host": "number"})


def test_every_backend_reduces_the_spec_the_planner_made(backend: Backend) -> None:
    """The chart spec of pandas' own plan, reduced by each backend, is that plan's data."""
    df = polars_frame().to_pandas()
    decl = {"host": "string", "gb": {"type": "number", "nullable": True}, "site": "string"}
    frame = df[["host", "gb", "site"]]
    declared = normalize_result_columns(decl)
    profiles = profile_columns(frame, declared, check_columns(frame, declared))
    plan = plan_view(frame, profiles, x="host", y="gb", options=ChartOptions.make(aggregate="sum"))
    spec = plan.spec
    assert spec.mark == "bar" and spec.reduction.keys == ("host",)
    g = Grouping.of_spec(spec)
    assert g == Grouping(("host",), ("gb",), "sum")
    got = backend.reduce(g, decl)
    assert plan.data is not None
    fx, fy = plan.encodings["x"].field, plan.encodings["y"].field
    drawn = dict(zip(plan.data[fx], plan.data[fy], strict=True))
    assert dict(zip(got.frame["host"], got.frame["gb"], strict=True)) == pytest.approx(drawn)
    assert dict(zip(got.frame["host"], got.rows[0], strict=True)) == dict(
        zip(plan.data[fx], plan.data["rows"], strict=True)
    )


def test_a_sample_and_a_page_are_bounded(backend: Backend, memory: MemoryBackend) -> None:
    assert len(backend.sample(7)) == 7
    assert list(backend.sample(0).columns) == list(memory.columns)
    assert len(backend.sample(10**9)) == min(N, MAX_SAMPLE)
    with pytest.raises(ChartkitError, match="n must be a non-negative integer, got -1"):
        backend.sample(-1)
    where = [Condition("host", "eq", "db")]
    assert backend.count(where) == memory.count(where) > 0
    assert len(backend.page(where, 0, 10**6)) == min(memory.count(where), MAX_PAGE)
    with pytest.raises(ChartkitError, match="limit must be a non-negative integer"):
        backend.page(where, 0, "10")  # type: ignore[arg-type]


CONDITIONS = {
    "a category": [Condition("host", "eq", "vdi-a")],
    "the missing category": [Condition("host", "null")],
    "a half-open bin": [Condition("gb", "ge", 10.0), Condition("gb", "lt", 20.0)],
    "an open-ended bin": [Condition("gb", "ge", 40.0)],  # NaN is no number above it
    "a bucket and a category": [
        Condition("at", "ge", START + dt.timedelta(hours=12)),
        Condition("at", "lt", START + dt.timedelta(hours=36)),
        Condition("site", "in", ["north"]),
    ],
    "a boolean": [Condition("mapped", "eq", True)],
    "every other category, the missing one too": [
        Condition("host", "in", ["vdi-a", "db"], negate=True)
    ],
    "a finite number": [Condition("gb", "finite")],
    "no value, null or NaN": [Condition("gb", "null")],
    "of its declared type": [Condition("gb", "valid", ColumnDeclaration("number"))],
    "an offender of its declaration": [
        Condition("host", "valid", ColumnDeclaration("string"), negate=True)
    ],
    "any of two tests": [AnyOf((Condition("host", "eq", "db"), Condition("gb", "ge", 40.0)))],
    "none of two tests": [
        AnyOf((Condition("site", "eq", "north"), Condition("lun", "lt", 3)), negate=True)
    ],
}


@pytest.mark.parametrize("case", list(CONDITIONS))
def test_every_backend_selects_the_same_rows(
    backend: Backend, memory: MemoryBackend, case: str
) -> None:
    where = CONDITIONS[case]
    n = memory.count(where)
    assert backend.count(where) == n > 0
    rows = backend.page(where, 0, MAX_PAGE)
    assert len(rows) == n and list(rows.columns) == list(memory.columns)
    mine = memory.page(where, 0, MAX_PAGE)
    key = ["at"]  # engines keep no row order: compare the rows sorted by their time
    same(
        rows.sort_values(key).reset_index(drop=True)[["at", "host", "site"]],
        mine.sort_values(key).reset_index(drop=True)[["at", "host", "site"]],
    )
    assert len(backend.page(where, n - 1, 5)) == 1


def test_a_condition_names_a_column_of_the_result() -> None:
    b = backend_for(polars_frame().lazy())
    with pytest.raises(ChartkitError, match="'nope' names no column of this result"):
        b.count([Condition("nope", "eq", 1)])
    with pytest.raises(ChartkitError, match="a condition's op is one of eq, in, null"):
        Condition("host", "like", "%")  # type: ignore[arg-type]
    with pytest.raises(ChartkitError, match="'host' cannot be both a key and a measure"):
        Grouping(("host",), ("host",))
    with pytest.raises(ChartkitError, match="the bucketed key 'host' must be one of the dates"):
        Grouping(("host",), (), "count", bucket_seconds=60)


HOSTILE = {
    "at": "__bucket", "gb": "__n0", "lun": "__ms", "host": "_k0", "site": "c1",
    "mapped": "__n1",
}  # fmt: skip
HOSTILE_TOO = {
    "at": "select", "gb": "^gb$", "lun": "*", "host": "host.name", "site": 'it\'s "q"',
    "mapped": "a`b",
}  # fmt: skip


@pytest.mark.parametrize("names", [HOSTILE, HOSTILE_TOO], ids=["helper-like", "syntax"])
def test_hostile_names_are_literals_in_every_backend(names: dict[str, str]) -> None:
    df = polars_frame(3, names)
    at, gb, lun, host, site = (names[k] for k in ("at", "gb", "lun", "host", "site"))
    groupings = [
        Grouping((host, site), (gb, lun), "sum"),
        Grouping((at, host), (gb,), "mean", bucket_seconds=3600, dates=(at,)),
        Grouping((host,), (), "count", top=2),
    ]
    memory = backend_for(df.to_pandas())
    for name, make in holders(df).items():
        b = backend_for(make())
        assert b.facts(list(df.columns)) == memory.facts(list(df.columns)), name
        for g in groupings:
            got, want = b.reduce(g), memory.reduce(g)
            same(got.frame, want.frame)
            assert got.rows == want.rows, (name, g)
        assert b.count([Condition(host, "eq", "db")]) == memory.count([Condition(host, "eq", "db")])
        for pair in ((host, site), (at, gb), (lun, host)):
            assert b.unique_pairs(*pair) is memory.unique_pairs(*pair), (name, pair)
        assert b.positions(gb, site) == memory.positions(gb, site), name
        assert b.coverage(at, host) == memory.coverage(at, host), name


def test_a_spark_frame_answers_as_memory_does(spark_session: Any) -> None:
    """Spark through the same contract — classic local mode and a real Spark Connect session
    (the fixture runs it in both): the facts, the groups and the selected rows."""
    from pyspark.sql import types as T

    df = polars_frame(5, HOSTILE_TOO)
    memory = backend_for(df.to_pandas())
    spark_types = {
        pl.Datetime("us"): T.TimestampNTZType(), pl.Float64: T.DoubleType(),
        pl.Int64: T.LongType(), pl.String: T.StringType(), pl.Boolean: T.BooleanType(),
    }  # fmt: skip
    schema = T.StructType([T.StructField(n, spark_types[t], True) for n, t in df.schema.items()])
    b = backend_for(spark_session.createDataFrame(df.rows(), schema))  # no name parsed as DDL
    assert isinstance(b, QueryBackend) and b.engine == "pyspark"
    names = list(df.columns)
    assert b.facts(names) == memory.facts(names)
    at, gb, host, site = (HOSTILE_TOO[k] for k in ("at", "gb", "host", "site"))
    for g in [
        Grouping((host, site), (gb,), "sum"),
        Grouping((at,), (gb,), "mean", bucket_seconds=3600, dates=(at,)),
        Grouping((host,), (), "count", top=2),
        Grouping((gb, site), (), "count", bins=((gb, TEN_BINS),)),
        Grouping((at, site), (gb,), "sum", time_unit="week", dates=(at,)),
        Grouping((at,), (), "count", time_unit="month", dates=(at,), where=(
            Condition(host, "in", ["db", "web"]),)),
    ]:
        got, want = b.reduce(g), memory.reduce(g)
        same(got.frame, want.frame)
        assert (got.rows, got.no_value, got.categories, got.outside) == (
            want.rows, want.no_value, want.categories, want.outside,
        )  # fmt: skip
    counts, local = PlacedCounts(b, finite_rows), PlacedCounts(memory, finite_rows)
    assert counts((gb,)).span(gb, enough=15) == local((gb,)).span(gb, enough=15)
    span = local((gb,)).span(gb, enough=0)
    edges = (histogram_edges(span.lo, span.hi, 10),)
    got_bins, want_bins = counts((gb,)).per_bin((gb,), edges), local((gb,)).per_bin((gb,), edges)
    assert [a.tolist() for a in got_bins[0]] == [a.tolist() for a in want_bins[0]]
    assert got_bins[1].tolist() == want_bins[1].tolist()
    where = [Condition(host, "eq", "db"), Condition(gb, "ge", 10.0)]
    assert b.count(where) == memory.count(where) > 0
    assert b.facts(names, where=where) == memory.facts(names, where=where)
    assert b.positions(gb, host) == memory.positions(gb, host)
    for pair in ((host, site), (at, host), (gb, site)):
        assert b.unique_pairs(*pair) is memory.unique_pairs(*pair)
    assert b.unique_pairs(at, gb) is memory.unique_pairs(at, gb) is True  # (times are unique)
    # the check: the offenders of hostile-named columns, and date strings by RFC 3339
    declared = {gb: "number", host: "string", at: "date", HOSTILE_TOO["mapped"]: "boolean"}
    assert_same(b.offenders(declared), rows_check(df, declared))
    texts = date_texts("duckdb")  # no NUL: Spark's text holds one, its Arrow bridge does not
    dates = spark_session.createDataFrame([(s,) for s in texts], "t string")
    for nullable in (False, True):
        decl = {"t": {"type": "date", "nullable": nullable}}
        assert_same(
            backend_for(dates).offenders(decl), check_columns([{"t": s} for s in texts], decl)
        )


# --- the check: every backend files the violations the rows' own check files ---------------

DATES = ["2024-01-05", "2024-01-05T10:30", "20240105", "2024-02-30", "05/01/2024", "", "x"]


def check_frame(seed: int) -> pl.DataFrame:
    """Seeded columns of every engine type the check judges, with a share of gaps (none,
    some, half, all) in 1, 3, 40 or 300 rows: numbers with NaNs, text that is and is not a
    date, booleans, timestamps and dates."""
    rng = random.Random(seed)
    n = rng.choice([1, 3, 40, 300])
    share = rng.choice([0.0, 0.1, 0.5, 1.0])

    def gaps(values: list[Any]) -> list[Any]:
        return [None if rng.random() < share else rng.choice(values) for _ in range(n)]

    return pl.DataFrame(
        {
            "lun": pl.Series(gaps([0, 1, 255]), dtype=pl.Int64),
            "capacity_gb": pl.Series(gaps([0.0, 8.5, float("nan")]), dtype=pl.Float64),
            "host_group": pl.Series(gaps(["vdi-a", "", "1240", *DATES]), dtype=pl.String),
            "mapped": pl.Series(gaps([True, False]), dtype=pl.Boolean),
            "seen_at": pl.Series(gaps([dt.datetime(2024, 1, 1, 8)]), dtype=pl.Datetime("us")),
            "day": pl.Series(gaps([dt.date(2024, 1, 1)]), dtype=pl.Date),
        }
    )


def rows_check(
    df: pl.DataFrame, declared: dict[str, Any], engine: str = "polars"
) -> tuple[ColumnViolation, ...]:
    """The answer every backend is held to: the check of the rows it would hand back, as a
    list of dicts (pandas holds a polars Date as a Timestamp: its own rows)."""
    rows = df.to_pandas().to_dict("records") if engine == "pandas" else df.to_dicts()
    return check_columns(rows, declared)


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("engine", BACKENDS)
def test_every_backend_files_the_violations_the_rows_file(engine: str, seed: int) -> None:
    """Each column under every declaration (each type, nullable or not): the kind, counts,
    offending types, first offender and the most frequent offenders of the rows' check."""
    df = check_frame(seed)
    b = backend_for(holders(df)[engine]())
    for column in df.columns:
        for decl in DECLARATIONS[:: 3 if engine == "ibis" else 1]:  # Ibis: slow to compile
            declared = {column: decl}
            assert_same(b.offenders(declared), rows_check(df, declared, engine))


# --- what a date string is: RFC 3339, the same offenders in every backend ------------------


def date_texts(engine: str) -> list[str]:
    """The listed and generated strings an engine's text column can hold: no lone surrogate
    anywhere, and no NUL in DuckDB's text (nor Ibis', whose default backend is DuckDB)."""
    from test_isodate import EDGE_CASES, corpus

    texts = [
        s for s in EDGE_CASES + corpus(11, 600) if not any(0xD800 <= ord(c) < 0xE000 for c in s)
    ]
    if engine in ("duckdb", "ibis"):
        texts = [s for s in texts if "\x00" not in s]
    return texts


@pytest.mark.parametrize("engine", BACKENDS)
def test_every_backend_judges_a_date_string_by_rfc_3339(engine: str) -> None:
    """A text column declared date: its offenders are exactly the strings outside RFC 3339
    (``chartkit._isodate.is_iso``), counted and quoted as the rows' own check does."""
    from chartkit._isodate import is_iso

    texts = date_texts(engine)
    df = pl.DataFrame({"t": pl.Series(texts, dtype=pl.String), "i": range(len(texts))})
    b = backend_for(holders(df)[engine]())
    for declared in ({"t": "date"}, {"t": {"type": "date", "nullable": True}}):
        (found,) = b.offenders(declared)
        assert_same((found,), rows_check(df, declared, engine))
        assert found.affected == sum(not is_iso(s) for s in texts)
        refused = [s for s in texts if not is_iso(s)]
        assert found.sample == refused[0]  # the first offender, in the rows' order
    # the strings it accepts are dates: none offends
    accepted = df.filter(pl.Series([is_iso(s) for s in texts]))
    assert backend_for(holders(accepted)[engine]()).offenders({"t": "date"}) == ()


# --- generated column names: literals in every backend ---------------------------------------

NAME_PIECES = (
    '"', "'", "`", ".", "*", "^", "$", "(", ")", "[", "]", "|", "+", "?", "\\", "{", "}", " ",
    ";", "--", "/*", "%", "select", "from", "group by", "null", "order", "__chartkit_ok0",
    "__chartkit_ok1", "__ms", "__bucket", "__rows0", "__n0", "__count", "_k0", "_k1", "é", "ü",
)  # fmt: skip


def generated_names(seed: int) -> dict[str, str]:
    """Six distinct column names joined from hostile pieces (quotes, regex syntax, SQL words,
    helper-like names, dots, backticks, ``*``); the first seed's longest is 64 KB."""
    rng = random.Random(seed)
    out: list[str] = []
    while len(out) < 6:
        name = "".join(rng.choice(NAME_PIECES) for _ in range(rng.randint(1, 3)))
        if seed == 0 and not out:
            name = name + "n" * 65536
        if name not in out:
            out.append(name)
    return dict(zip(polars_frame().columns, out, strict=True))


def ask_everything(b: Backend, names: dict[str, str]) -> list[Any]:
    """The contract's questions, about the renamed columns."""
    at, gb, lun, host, site, mapped = (names[k] for k in polars_frame().columns)
    groupings = [
        Grouping((host, site), (gb, lun), "sum"),
        Grouping((at, host), (gb,), "mean", bucket_seconds=3600, dates=(at,)),
        Grouping((mapped,), (), "count", top=2),
        Grouping((lun, gb), (), "count", bins=((lun, (0.0, 3.0, 9.0)), (gb, TEN_BINS))),
    ]
    declared = {gb: "number", host: "string", at: "date", mapped: "boolean", lun: "string"}
    answers: list[Any] = [b.facts(list(names.values())), b.offenders(declared)]
    for g in groupings:
        got = b.reduce(g, {gb: "number"})
        answers.append(
            (got.frame, got.rows, got.left_out, got.no_value, got.categories, got.outside)
        )
    answers.append(b.count([Condition(host, "eq", "db"), Condition(gb, "ge", 10.0)]))
    return answers


def same_answers(got: list[Any], want: list[Any]) -> None:
    assert got[0] == want[0]  # the facts
    assert_same(got[1], want[1])  # the offenders
    for g, w in zip(got[2:-1], want[2:-1], strict=True):
        same(g[0], w[0])
        assert g[1:] == w[1:]
    assert got[-1] == want[-1]


@pytest.mark.parametrize("seed", range(4))
def test_generated_names_get_the_same_answers_in_every_backend(seed: int) -> None:
    names = generated_names(seed)
    df = polars_frame(seed, names)
    want = ask_everything(backend_for(df.to_pandas()), names)
    assert want[1]  # the declaration is broken: the offenders are asked, not only "ok"
    for engine, make in holders(df).items():
        if engine != "pandas":
            same_answers(ask_everything(backend_for(make()), names), want)


def test_a_nul_in_a_name_gets_the_same_answers_where_the_engine_holds_it() -> None:
    """pyarrow holds a NUL in a column name (DuckDB reads a name only up to it, and polars
    cannot export it over Arrow's C interface, so those engines never see such a name)."""
    import pyarrow as pa

    nul = ["a\x00t", "\x00", "g\x00\x00", "h\x00o", "s", "m"]
    names = dict(zip(polars_frame().columns, nul, strict=True))
    frame = polars_frame(1).to_pandas().rename(columns=names)
    want = ask_everything(backend_for(frame), names)
    got = ask_everything(backend_for(pa.Table.from_pandas(frame, preserve_index=False)), names)
    same_answers(got, want)


# --- time buckets where clocks are odd: every backend floors them as memory does ------------


def clock_series(n: int, start: str, freq: str, tz: str | None) -> pl.DataFrame:
    rng = np.random.default_rng(0)
    at = pd.date_range(start, periods=n, freq=freq, tz=tz)
    return pl.from_pandas(
        pd.DataFrame({"ts": at, "v": rng.gamma(2.0, 5.0, n), "r": [f"r{i % 3}" for i in range(n)]})
    )


CLOCKS = {
    "paris across DST": lambda: clock_series(900, "2024-03-31 00:30", "20s", "Europe/Paris"),
    "new york, fall back": lambda: clock_series(900, "2024-11-03 05:00", "37s", "America/New_York"),
    "before 1970": lambda: clock_series(900, "1969-12-31 23:00", "37s", None),
    "before 1970, below a millisecond": lambda: clock_series(
        900, "1969-12-28 23:59:59.95", "123us", None
    ),
    "on bucket boundaries": lambda: clock_series(900, "2024-01-01", "60s", "UTC"),
    "milliseconds apart": lambda: clock_series(900, "2024-03-30", "7ms", None),
    "paris over a year": lambda: clock_series(900, "2023-12-20", "11h", "Europe/Paris"),
    "a naive year and more": lambda: clock_series(900, "2023-11-30 23:00", "13h", None),
}  # fmt: skip


@pytest.mark.parametrize("clock", list(CLOCKS))
def test_every_backend_buckets_odd_clocks_as_memory_does(clock: str) -> None:
    """Buckets of seconds from the epoch (in UTC) and the start of an hour, a day, a week
    (from Monday), a month, a quarter or a year (in UTC), across a change of clocks, before
    1970, on the buckets' own edges, below a second and over a year."""
    df = CLOCKS[clock]()
    memory = backend_for(df.to_pandas())
    groupings = [
        Grouping(("ts", "r"), ("v",), "mean", bucket_seconds=600, dates=("ts",)),
        Grouping(("ts",), (), "count", bucket_seconds=1, dates=("ts",)),
        Grouping(("ts",), ("v",), "sum", time_unit="hour", dates=("ts",)),
        Grouping(("ts", "r"), ("v",), "max", time_unit="day", dates=("ts",)),
        Grouping(("ts",), ("v",), "sum", time_unit="week", dates=("ts",)),
        Grouping(("ts", "r"), (), "count", time_unit="month", dates=("ts",)),
        Grouping(("ts",), ("v",), "mean", time_unit="quarter", dates=("ts",)),
        Grouping(("ts",), ("v",), "min", time_unit="year", dates=("ts",)),
    ]
    for engine, make in holders(df).items():
        b = backend_for(make())
        for g in groupings:
            got, want = b.reduce(g), memory.reduce(g)
            same(got.frame, want.frame)
            assert got.rows == want.rows, (engine, g)
    weekly = memory.reduce(groupings[4]).frame["ts"]
    assert (weekly.dt.day_of_week == 0).all() and (weekly.dt.hour == 0).all()
    assert (memory.reduce(groupings[6]).frame["ts"].dt.month % 3 == 1).all()


def test_the_package_doctest_holds() -> None:
    import doctest

    import chartkit.backends as package

    result = doctest.testmod(package, report=False)
    assert result.attempted >= 6 and result.failed == 0


def test_the_two_zeros_are_one_value_in_every_backend() -> None:
    """-0.0 and 0.0 are one value, as memory counts and groups them (pyarrow counted two
    distinct values and drew two bars at 0)."""
    df = pl.DataFrame({"v": [-0.0] * 5 + [0.0] * 7 + [1.0, 2.0, None, float("nan")]})
    memory = backend_for(df.to_pandas())
    g = Grouping(("v",), (), "count")
    want = memory.reduce(g)
    assert memory.facts(["v"])["v"].distinct == 3 and want.rows == ((12, 1, 1, 2),)
    for name, make in holders(df).items():
        b = backend_for(make())
        assert b.facts(["v"])["v"] == memory.facts(["v"])["v"], name
        got = b.reduce(g)
        assert got.rows == want.rows, name
        same(got.frame, want.frame)


def test_a_tally_s_tests_are_keyed_apart_from_its_total(backend: Backend) -> None:
    with pytest.raises(ChartkitError) as e:
        backend.tally([], {"rows": [Condition("gb", "null")]})
    assert str(e.value) == (
        "a tally's tests cannot be keyed \"rows\" (the key of the rows selected); key them by "
        "place (t0, t1, …) and map the counts back"
    )
