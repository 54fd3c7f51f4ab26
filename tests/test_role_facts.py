"""The facts roles read, answered alike by every backend (issue 40 items 1 and 6).

``chartkit.plan.roles.assign`` reads ``Facts.numbers`` (each number column's finite values:
how many, distinct, span, whole, sign) and ``Facts.unique_key`` (whether columns key the
rows). Memory answers them over a pandas frame (``FrameFacts``, ``MemoryBackend``), an engine
with one query each (``QueryBackend``): here hypothesis holds DuckDB and polars to memory's
answers on generated results — NaN, infinities, nulls, -0.0, whole and fractional, negative
and huge integers, categories with nulls and repeated keys — and the roles ``assign`` gives
from each backend's own profiles and facts equal. A stray value that offends its number
column is in memory's rows only: an engine's typed column holds a null in its place, and
that is where the two are compared (the facts leave both out). Roles are compared on the rows
an engine holds (a null for each offender): whether columns key the rows is asked by name
only, and memory holds an offender as a key value of its own where an engine holds a null.
Last, the engine asks each question once per ``view()``, every number column in one query.
"""

from __future__ import annotations

import decimal
import math
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pandas as pd
import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chartkit import view
from chartkit.backends import query as query_module
from chartkit.backends.memory import MemoryBackend
from chartkit.backends.query import QueryBackend
from chartkit.check.judge import check_columns
from chartkit.columns import normalize_result_columns
from chartkit.plan import choose
from chartkit.plan.encode import profile_columns
from chartkit.plan.facts import FrameFacts, NumberFacts, number_facts
from chartkit.plan.roles import Roles, assign
from chartkit.read.engines import read_engine_frame
from chartkit.read.rowset import read_rowset

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.datasets import DATASETS, dataset  # noqa: E402

_SETTINGS = settings(
    max_examples=80, deadline=None, database=None, derandomize=True,
    suppress_health_check=list(HealthCheck),
)  # fmt: skip

ENGINES = ("duckdb", "polars")
OFFENDERS = ("", "n/a", "12", True)
"""Values a number column may hold in memory that no typed engine column can: an engine holds
a null in their place."""
_INT64 = (-(2**63), 2**63 - 1)


# --- the results ------------------------------------------------------------------------------


def _ints() -> st.SearchStrategy[int]:
    return st.one_of(
        st.integers(-3, 12),
        st.sampled_from([1990, 1995, 2000, 2005, 2010]),
        st.integers(*_INT64),
        st.sampled_from([2**62, 2**62 + 1, 2**53 + 1, -(2**63), 2**63 - 1]),
    )


def _floats() -> st.SearchStrategy[float]:
    return st.one_of(
        st.floats(allow_nan=True, allow_infinity=True),
        st.sampled_from([-0.0, 0.0, 1.0, 2.0, 2.5, -1.5, math.nan, math.inf, -math.inf, 1e308]),
        st.integers(-5, 5).map(float),
    )


@st.composite
def number_column(draw: st.DrawFn, n: int) -> tuple[str, list[Any], list[Any]]:
    """``(kind, engine values, memory values)``: integers or floats with nulls, and in memory
    a few offenders where the engine holds a null."""
    kind = draw(st.sampled_from(["int", "float"]))
    values: list[Any] = draw(
        st.lists(st.none() | (_ints() if kind == "int" else _floats()), min_size=n, max_size=n)
    )
    memory = list(values)
    if draw(st.booleans()):
        for i in draw(st.lists(st.integers(0, n - 1), max_size=max(1, n // 4), unique=True)):
            values[i] = None
            memory[i] = draw(st.sampled_from(OFFENDERS))
    return kind, values, memory


@st.composite
def category_column(draw: st.DrawFn, n: int) -> list[str | None]:
    levels = draw(st.lists(st.sampled_from(["a", "b", "c", "None", "nan", "", "é"]),
                           min_size=1, max_size=5, unique=True))  # fmt: skip
    return draw(st.lists(st.none() | st.sampled_from(levels), min_size=n, max_size=n))


@st.composite
def random_results(draw: st.DrawFn) -> tuple[dict[str, tuple[str, list[Any], list[Any]]], int]:
    """Columns of numbers and categories, every value drawn on its own."""
    n = draw(st.integers(1, 30))
    columns: dict[str, tuple[str, list[Any], list[Any]]] = {}
    for i in range(draw(st.integers(1, 3))):
        columns[f"n{i}"] = draw(number_column(n))
    for i in range(draw(st.integers(0, 3))):
        values = draw(category_column(n))
        columns[f"c{i}"] = ("string", values, values)
    return columns, n


@st.composite
def crossed_results(draw: st.DrawFn) -> tuple[dict[str, tuple[str, list[Any], list[Any]]], int]:
    """A table roles are made of: categories crossed (a contingency table, a panel of
    entities), an evenly spaced whole number (years, days), a count and a measure — rows
    dropped or repeated, maybe a null, maybe an offender."""
    firms = [f"f{i}" for i in range(draw(st.integers(1, 5)))]
    sides = ["l", "r"][: draw(st.integers(1, 2))]
    start, step = draw(st.sampled_from([(0, 1), (1990, 5), (1, 7), (2000, 1)]))
    grid = [start + step * i for i in range(draw(st.integers(2, 9)))]
    rows = [(f, s, g) for f in firms for s in sides for g in grid]
    keep = draw(st.lists(st.booleans(), min_size=len(rows), max_size=len(rows)))
    rows = [r for r, k in zip(rows, keep, strict=True) if k] or rows[:1]
    rows += draw(st.lists(st.sampled_from(rows), max_size=2))  # a repeated key, maybe
    n = len(rows)
    counts = draw(st.lists(st.integers(0, 900), min_size=n, max_size=n))
    measure = draw(st.lists(_floats(), min_size=n, max_size=n))
    firm: list[Any] = [r[0] for r in rows]
    year: list[Any] = [r[2] for r in rows]
    if draw(st.booleans()):
        firm[draw(st.integers(0, n - 1))] = None
    year_memory = list(year)
    if draw(st.booleans()):
        i = draw(st.integers(0, n - 1))
        year[i], year_memory[i] = None, draw(st.sampled_from(OFFENDERS))
    columns: dict[str, tuple[str, list[Any], list[Any]]] = {
        "firm": ("string", firm, firm),
        "side": ("string", [r[1] for r in rows], [r[1] for r in rows]),
        "year": ("int", year, year_memory),
        "count": ("int", list(counts), list(counts)),
        "value": ("float", measure, measure),
    }
    return columns, n


RESULTS = st.one_of(random_results(), crossed_results())

_POLARS = {"int": pl.Int64, "float": pl.Float64, "string": pl.String}
_DECLARED = {"int": "number", "float": "number", "string": "string"}


def engine_frame(columns: dict[str, tuple[str, list[Any], list[Any]]]) -> pl.DataFrame:
    """The engine's rows: each column typed (no offender: a null in its place)."""
    return pl.DataFrame(
        [pl.Series(name, values, dtype=_POLARS[kind]) for name, (kind, values, _) in
         columns.items()]
    )  # fmt: skip


def memory_frame(columns: dict[str, tuple[str, list[Any], list[Any]]], n: int) -> pd.DataFrame:
    """The rows a tool returned, offenders and all, read as ``view()`` reads them."""
    rows = [{name: memory[i] for name, (_, _, memory) in columns.items()} for i in range(n)]
    reading = read_rowset(rows)
    assert reading is not None
    return reading.to_frame()


def declaration(columns: dict[str, tuple[str, list[Any], list[Any]]]) -> dict[str, Any]:
    """Each column's declared type; nullable where no offender stands for a null, so the
    engine's nulls and memory's offenders are the same rows flagged."""
    return {
        name: {"type": _DECLARED[kind], "nullable": values == memory}
        for name, (kind, values, memory) in columns.items()
    }


def engines(frame: pl.DataFrame) -> Iterator[tuple[str, QueryBackend]]:
    for engine in ENGINES:
        native = duckdb.connect().from_arrow(frame.to_arrow()) if engine == "duckdb" else frame
        reading = read_engine_frame(native)
        assert reading is not None
        yield engine, QueryBackend(reading)


def every_backend(
    columns: dict[str, tuple[str, list[Any], list[Any]]], n: int
) -> Iterator[tuple[str, Any]]:
    """Each backend of the same result: memory's two (offenders and all), then the engines."""
    memory = memory_frame(columns, n)
    yield "FrameFacts", FrameFacts(memory)
    yield "MemoryBackend", MemoryBackend(memory)
    yield from engines(engine_frame(columns))


# --- numbers() and unique_key() ---------------------------------------------------------------


@_SETTINGS
@given(RESULTS)
def test_every_backend_counts_the_same_numbers(
    result: tuple[dict[str, tuple[str, list[Any], list[Any]]], int],
) -> None:
    """Finite values only, each distinct once (-0.0 is 0.0, an integer counted as itself);
    offenders, nulls, NaN and infinities left out."""
    columns, n = result
    numbers = [name for name, (kind, _, _) in columns.items() if kind != "string"]
    answers = {b: dict(f.numbers(numbers)) for b, f in every_backend(columns, n)}
    want = answers["FrameFacts"]
    for name, (_, values, _) in columns.items():  # what the facts say, by hand
        if name not in numbers:
            continue
        kept = [v for v in values if v is not None and math.isfinite(v)]
        assert want[name].values == len(kept)
        assert want[name].distinct == len(set(kept))  # (an int as itself; -0.0 == 0.0)
    for backend, got in answers.items():
        assert got == want, backend


@_SETTINGS
@given(RESULTS, st.data())
def test_every_backend_finds_the_same_keys(
    result: tuple[dict[str, tuple[str, list[Any], list[Any]]], int], data: st.DataObject
) -> None:
    """Whether the columns key the rows: a missing value (null, NaN) a key of its own, one
    for all of them; compared over columns that hold no offender (an engine holds none)."""
    columns, n = result
    clean = [name for name, (_, values, memory) in columns.items() if values == memory]
    if not clean:
        return
    names = data.draw(st.lists(st.sampled_from(clean), min_size=1, max_size=3, unique=True))
    rows = list(zip(*(_keyed(columns[c][1]) for c in names), strict=True))
    want = len(set(rows)) == len(rows)
    for backend, facts in every_backend(columns, n):
        assert facts.unique_key(names) is want, (backend, names)


def _keyed(values: list[Any]) -> list[Any]:
    """A column's values as a key compares them: every missing value one."""
    return [None if v is None or (isinstance(v, float) and math.isnan(v)) else v for v in values]


@pytest.mark.parametrize(
    ("values", "engine_values", "want"),
    [
        # an integer past 2**53 is itself: two ids one float would hold are two values
        (
            [2**62, 2**62 + 1, None],
            [2**62, 2**62 + 1, None],
            NumberFacts(2, 2, 2.0**62, 2.0**62, True, True),
        ),
        # offenders and nulls left out; -0.0 and 0.0 one value
        (
            ["", -0.0, 0.0, "n/a", 1.5],
            [None, -0.0, 0.0, None, 1.5],
            NumberFacts(3, 2, 0.0, 1.5, False, True),
        ),
    ],
)
def test_numbers_left_out_and_counted_as_every_engine_counts_them(
    values: list[Any], engine_values: list[Any], want: NumberFacts
) -> None:
    memory = pd.Series(values, dtype=object)
    assert number_facts(memory) == want
    kind = pl.Int64 if all(isinstance(v, int) for v in engine_values if v is not None) else None
    frame = pl.DataFrame([pl.Series("x", engine_values, dtype=kind or pl.Float64)])
    for engine, backend in engines(frame):
        assert backend.numbers(["x"]) == {"x": want}, engine


def test_a_decimal_column_is_counted_as_numbers_in_memory_and_in_duckdb() -> None:
    """DuckDB reads ``1.5`` as a DECIMAL: its values are numbers, and not whole."""
    relation = duckdb.connect().sql("select * from (values (1.5), (2.5), (3.0)) t(x)")
    reading = read_engine_frame(relation)
    assert reading is not None
    want = NumberFacts(3, 3, 1.5, 3.0, False, True)
    assert QueryBackend(reading).numbers(["x"]) == {"x": want}
    decimals = [decimal.Decimal("1.5"), decimal.Decimal("2.5"), decimal.Decimal("3.0")]
    assert number_facts(pd.Series(decimals, dtype=object)) == want


def test_a_null_and_a_nan_are_one_missing_key_on_every_backend() -> None:
    frame = pl.DataFrame({"x": [math.nan, None, 1.0]}, schema={"x": pl.Float64})
    memory = pd.DataFrame({"x": pd.Series([math.nan, None, 1.0], dtype=object)})
    assert FrameFacts(memory).unique_key(["x"]) is False
    assert MemoryBackend(memory).unique_key(["x"]) is False
    for engine, backend in engines(frame):
        assert backend.unique_key(["x"]) is False, engine
    texts = pd.DataFrame({"s": pd.Series(["None", None, "nan", math.nan], dtype=object)})
    assert FrameFacts(texts).unique_key(["s"]) is False  # None and NaN: one missing key
    assert FrameFacts(texts.iloc[:3]).unique_key(["s"]) is True  # "None" is no null


# --- roles ------------------------------------------------------------------------------------


def roles_of(facts: Any, frame: Any, decl: dict[str, Any]) -> Roles:
    """The roles ``assign`` gives from a backend's own profiles and facts, as ``view()``'s
    planner reads them."""
    declared = normalize_result_columns(decl)
    if isinstance(facts, QueryBackend):
        violations = check_columns(facts.reading, decl)
        profiles = facts.profiles(declared, violations)
    else:
        violations = check_columns(frame, decl)
        profiles = profile_columns(frame, declared, violations)
    return assign(profiles, facts)


def _described(roles: Roles) -> tuple[Any, ...]:
    return tuple(roles.values()), roles.key


@_SETTINGS
@given(RESULTS)
def test_every_backend_gives_the_same_roles(
    result: tuple[dict[str, tuple[str, list[Any], list[Any]]], int],
) -> None:
    columns, n = result
    decl = declaration(columns)
    # memory's rows hold a null where the engine does: an offender is a key of its own in
    # memory (unique_key reads no declaration), and so no engine's (see the module's doc)
    memory = memory_frame({c: (k, v, v) for c, (k, v, _) in columns.items()}, n)
    want = _described(roles_of(FrameFacts(memory), memory, decl))
    assert _described(roles_of(MemoryBackend(memory), memory, decl)) == want
    for engine, backend in engines(engine_frame(columns)):
        assert _described(roles_of(backend, None, decl)) == want, engine


def _corpus_frame(name: str) -> tuple[pd.DataFrame, pl.DataFrame, dict[str, Any]]:
    from test_defaults_engines import typed

    ds = dataset(name)
    reading = read_rowset(ds.rows)
    assert reading is not None
    return reading.to_frame(), typed(ds.rows, ds.result_columns), ds.result_columns


@pytest.mark.parametrize("name", DATASETS)
def test_every_backend_gives_the_corpus_the_same_roles(name: str) -> None:
    memory, frame, decl = _corpus_frame(name)
    want = _described(roles_of(FrameFacts(memory), memory, decl))
    for engine, backend in engines(frame):
        assert _described(roles_of(backend, None, decl)) == want, engine


# --- the engine's questions -------------------------------------------------------------------


@pytest.mark.parametrize("engine", ENGINES)
def test_each_role_question_is_one_query_asked_once_per_view(
    engine: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every number column's facts counted in the profiling pass (no query of their own),
    each key asked at most once, however often the plan reads them (the grunfeld panel: a
    firm per year, 220 rows past max_points)."""
    asked: Counter[tuple[str, tuple[str, ...]]] = Counter()
    collect = query_module.collect

    def counted(reading: Any, columns: Any, step: str, *args: Any, **kwargs: Any) -> Any:
        asked[(step, tuple(columns))] += 1
        return collect(reading, columns, step, *args, **kwargs)

    monkeypatch.setattr(query_module, "collect", counted)
    memory, frame, decl = _corpus_frame("grunfeld")
    native = duckdb.connect().from_arrow(frame.to_arrow()) if engine == "duckdb" else frame
    got = view(native, decl, max_points=100)
    numbers = [n for n, d in decl.items() if d == "number"]
    assert not [k for k in asked if k[0] == "number facts"]
    passes = [k for k in asked if k[0] == "facts" and set(numbers) <= set(k[1])]
    assert len(passes) == 1 and asked[passes[0]] == 1, asked
    keys = {k: v for k, v in asked.items() if k[0] == "unique key"}
    assert set(keys.values()) <= {1}, keys
    want = view(memory, decl, max_points=100)
    assert (got.mark, got.encodings) == (want.mark, want.encodings)


def test_over_key_values_rows_a_mostly_distinct_measure_is_not_counted_exactly(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """200,000 rows in DuckDB: the distinct values of a measure holding one per row are a lower
    bound counted over the first rows (no exact count over every row, the pass's dearest
    aggregate), while a number of 12 levels and a whole number named id are counted exactly —
    a grid and an identifier, as memory finds them."""
    exact: list[str] = []
    facts, numbers = query_module._facts, query_module._numbers

    def spied_facts(*args: Any, **kwargs: Any) -> Any:
        if kwargs.get("distinct", True) and len(args) > 4:
            exact.extend(args[4])
        return facts(*args, **kwargs)

    def spied_numbers(reading: Any, names: Any, schema: Any, **kwargs: Any) -> Any:
        if kwargs.get("distinct", True) and kwargs.get("rows") is None:
            exact.extend(names)
        return numbers(reading, names, schema, **kwargs)

    monkeypatch.setattr(query_module, "_facts", spied_facts)
    monkeypatch.setattr(query_module, "_numbers", spied_numbers)
    n = 200_000
    relation = duckdb.connect().sql(
        f"SELECT range * 0.37 + 0.001 AS latency, range % 12 AS dose, range AS id FROM range({n})"
    )
    decl = {"latency": "number", "dose": "number", "id": "number"}
    backend = QueryBackend(read_engine_frame(relation))  # type: ignore[arg-type]
    roles = roles_of(backend, None, decl)
    assert "latency" not in exact and {"dose", "id"} <= set(exact), exact
    assert backend.numbers(["latency"])["latency"].distinct > choose.DISTINCT_DECIDES
    assert [(r.column, r.role) for r in roles.values()] == [
        ("latency", "measure"), ("dose", "grid"), ("id", "identifier")
    ]  # fmt: skip
    memory = relation.df()
    want = roles_of(FrameFacts(memory), memory, decl)
    assert [(r.column, r.role, r.why) for r in roles.values()] == [
        (r.column, r.role, r.why) for r in want.values()
    ]
    # memory counts as the engine does: the latencies' bound among the first rows, the rest
    # exactly, and the same roles as every value counted
    settled = FrameFacts(memory, settling=choose.SETTLING)
    got = settled.numbers(["latency", "dose", "id"])
    assert choose.DISTINCT_DECIDES < got["latency"].distinct <= choose.PROBE_ROWS
    assert (got["dose"].distinct, got["id"].distinct) == (12, n)
    again = roles_of(settled, memory, decl)
    assert [(r.column, r.role, r.why) for r in again.values()] == [
        (r.column, r.role, r.why) for r in want.values()
    ]
