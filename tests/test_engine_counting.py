"""One counting pass per ``view()`` of an engine frame: the check reads its null and NaN counts
from the chart's facts (the profiling pass ``chartkit.backends.source_for`` counts at the
door), and answers exactly what the check alone answers; an engine's error quotes column names
capped."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

import duckdb
import polars as pl
import pyarrow as pa
import pytest

import chartkit.check._frame_check as frame_check
from chartkit import check_columns, view
from chartkit.errors import ChartkitError
from chartkit.read.engines import query_errors, read_engine_frame

DECLARED = {
    "at": "date",
    "gb": "number",
    "lun": {"type": "number", "nullable": True},
    "host": "string",
    "ok": "boolean",
}


def table(seed: int) -> pa.Table:
    """Over 100 rows (the max_points below) of typed columns, with nulls and NaNs at random."""
    rng = random.Random(seed)
    n = rng.randint(101, 400)

    def maybe(value: Any, p: float) -> Any:
        return None if rng.random() < p else value

    p = rng.choice([0.0, 0.05, 0.3])
    start = dt.datetime(2024, 1, 1)
    return pa.table(
        {
            "at": pa.array(
                [maybe(start + dt.timedelta(minutes=7 * i), p) for i in range(n)],
                pa.timestamp("us"),
            ),
            "gb": pa.array(
                [maybe(rng.choice([1.5, 2.0, float("nan"), -3.0]), p) for _ in range(n)],
                pa.float64(),
            ),
            "lun": pa.array([maybe(rng.randint(0, 9), p) for _ in range(n)], pa.int64()),
            "host": pa.array([maybe(rng.choice(["a", "b", "c"]), p) for _ in range(n)]),
            "ok": pa.array([maybe(rng.random() < 0.5, p) for _ in range(n)]),
        }
    )


def engines(data: pa.Table) -> list[Any]:
    return [duckdb.connect().from_arrow(data), pl.from_arrow(data).lazy()]


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("mode", ["warn", "off"])
def test_the_check_inside_view_counts_nothing_of_its_own_and_says_what_it_says_alone(
    seed: int, mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    steps: list[str] = []
    real = frame_check._run

    def spy(reading: Any, query: Any, exprs: Any, step: str, names: str) -> Any:
        steps.append(step)
        return real(reading, query, exprs, step, names)

    for frame in engines(table(seed)):
        steps.clear()
        monkeypatch.setattr(frame_check, "_run", spy)
        got = view(frame, DECLARED, mode=mode, max_points=100)  # type: ignore[arg-type]
        assert "count" not in steps  # the chart's counting pass counted the nulls and NaNs
        # the same view as when the check runs its own count query
        monkeypatch.setattr(frame_check, "_counted_before", lambda reading, plans: None)
        own = view(frame, DECLARED, mode=mode, max_points=100)  # type: ignore[arg-type]
        monkeypatch.undo()
        assert "count" in steps
        alone = check_columns(frame, DECLARED)
        if mode == "warn":
            assert [v.to_dict() for v in got.check.violations] == [v.to_dict() for v in alone]
        assert (got.kind, got.reason, got.notes, got.left_out) == (
            own.kind, own.reason, own.notes, own.left_out,
        )  # fmt: skip
        assert [v.to_dict() for v in got.check.violations] == [
            v.to_dict() for v in own.check.violations
        ]
        assert list(got.spec["datasets"].values()) == list(own.spec["datasets"].values())


def test_only_a_declared_frame_over_max_points_is_counted_at_the_door_before_its_check() -> None:
    from chartkit.backends import source_for

    reading = read_engine_frame(duckdb.connect().from_arrow(table(1)))
    assert reading is not None
    source_for(reading, {}, 100)
    assert reading.counted == {}  # nothing declared: nothing to count for the check
    source_for(reading, {"gb": _decl("gb")}, 10_000)
    assert reading.counted == {}  # small enough to leave the engine whole
    source = source_for(reading, {"gb": _decl("gb")}, 100)
    assert source is not None and source.reading is reading  # the reading the check judges
    facts = reading.counted["gb"]
    nothing = sum(1 for v in table(1).column("gb").to_pylist() if v is None or v != v)
    assert (facts.rows, facts.rows - facts.values) == (reading.total, nothing)


def _decl(name: str) -> Any:
    from chartkit.columns import normalize_result_columns

    return normalize_result_columns({name: DECLARED[name]})[name]


def test_an_engine_error_quotes_a_long_column_name_cut() -> None:
    name = "x" * 65_536
    reading = read_engine_frame(pl.DataFrame({name: [1.0, 2.0]}).lazy())
    assert reading is not None
    with pytest.raises(ChartkitError) as caught:
        with query_errors(reading, f"run the chart's facts query over column(s) {name!r}"):
            raise RuntimeError(f"no such column {name}")
    said = str(caught.value)
    assert len(said) < 1_000
    assert said.startswith("polars could not run the chart's facts query over column(s) 'xxx")
    assert "… (65,536 characters)'" in said


def _text_dates(names: tuple[str, str]) -> Any:
    """A DuckDB relation of 300 rows whose first column holds dates as text (parsed in DuckDB
    by the declaration), its columns named ``names``."""
    text = [f"2024-01-01T{(i // 60) % 24:02d}:{i % 60:02d}:00" for i in range(300)]
    data = pa.table({"t": text, "v": [float(i % 7) for i in range(300)]})
    rel = duckdb.connect().from_arrow(data)
    return rel.project(f"#1 AS {_sql(names[0])}, #2 AS {_sql(names[1])}")


def _sql(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


@pytest.mark.parametrize("names", [("t,'x\"", "v.w"), ("*", "select"), ("#1", "__ms")])
def test_text_dates_parsed_in_duckdb_read_each_column_by_position_whatever_its_name(
    names: tuple[str, str],
) -> None:
    decl = {names[0]: "date", names[1]: "number"}
    got = view(_text_dates(names), decl, max_points=100)
    plain = view(_text_dates(("t", "v")), {"t": "date", "v": "number"}, max_points=100)
    assert (got.kind, got.mark) == ("chart", "line")
    (rows,) = got.spec["datasets"].values()
    (want,) = plain.spec["datasets"].values()
    fx, fy = got.encodings["x"].field, got.encodings["y"].field
    px, py = plain.encodings["x"].field, plain.encodings["y"].field
    assert [(r[fx], r[fy], r["rows"]) for r in rows] == [(r[px], r[py], r["rows"]) for r in want]
    assert got.encodings["x"].column == names[0] and got.encodings["y"].column == names[1]


def test_a_nul_in_the_name_of_a_frame_whose_text_duckdb_parses_is_charted_as_in_memory() -> None:
    """The parsed column is named by DuckDB's expression API, not SQL text: a name holding a
    NUL (which no SQL identifier holds: a table saying so, before) is its own alias."""
    import pandas as pd

    frame = pd.DataFrame({"a\x00b": ["2024-01-01"] * 150 + ["2024-01-02"] * 150, "v": [1.0] * 300})
    decl = {"a\x00b": "date", "v": "number"}
    got = view(duckdb.connect().from_df(frame), decl, max_points=100)
    want = view(frame, decl, max_points=100)
    assert (got.kind, got.mark, got.reason) == ("chart", "line", want.reason)
    assert got.encodings == want.encodings
    assert got.spec["datasets"] == want.spec["datasets"]


def logged_queries(con: Any, call: Any) -> list[str]:
    """The statements DuckDB ran during ``call()`` (its own query log)."""
    con.execute("CALL truncate_duckdb_logs()")
    con.execute("CALL enable_logging('QueryLog')")
    try:
        call()
    finally:
        con.execute("CALL disable_logging()")
    return [
        sql
        for (sql,) in con.execute(
            "SELECT message FROM duckdb_logs WHERE type = 'QueryLog' ORDER BY timestamp"
        ).fetchall()
        if not sql.startswith("CALL ")
    ]


GAPS = {
    "none": "range * 0.5",
    "every 97th": "CASE WHEN range % 97 = 0 THEN NULL ELSE range * 0.5 END",
    # the first and last rows, and every row of one region: the rows kept span less time
    # than the table and hold one region fewer
    "ends and a region": "CASE WHEN range < 5 OR range > 2990 OR range % 4 = 3 THEN NULL "
    "ELSE range * 0.5 END",
}


@pytest.mark.parametrize("gaps", list(GAPS))
def test_a_line_in_duckdb_asks_one_profiling_pass_and_one_reduction(gaps: str) -> None:
    """The roles' number facts are counted in the profiling pass, and so are the rows holding
    no value and, when a used column may miss one, the line's facts over the rows it keeps (the
    rows holding a value in every column): a line asks the row count at the door, the
    profiling pass and the reduction, gaps or not — and the chart is the one pandas draws of
    the same rows."""
    con = duckdb.connect()
    con.execute(
        "CREATE TABLE m AS SELECT TIMESTAMP '2024-01-01' + to_seconds(range * 60) AS ts, "
        f"({GAPS[gaps]})::DOUBLE AS latency, "
        "['a', 'b', 'c', 'd'][(range % 4) + 1] AS region FROM range(3000)"
    )
    decl = {"ts": "date", "latency": {"type": "number", "nullable": True}, "region": "string"}
    got: list[Any] = []
    queries = logged_queries(con, lambda: got.append(view(con.table("m"), decl, max_points=1000)))
    (v,) = got
    assert (v.kind, v.mark) == ("chart", "line")
    assert len(queries) == 3, queries
    own = view(con.table("m").df(), decl, max_points=1000)
    assert list(v.spec["datasets"].values()) == list(own.spec["datasets"].values())
    assert [n for n in v.notes if "computed in duckdb" not in n] == list(own.notes)


def test_text_duckdb_parses_for_a_line_is_parsed_once_and_held() -> None:
    """A DuckDB text column declared date (and a CSV's text alike) is parsed by the
    declaration once, and DuckDB holds the parsed rows: the count of date strings it cannot
    cast, the profiling pass, the line's facts and the reduction read them, none parses a cell
    again — and the chart is the one pandas draws of the same rows."""
    from chartkit._isodate import PLAIN_DATE

    con = duckdb.connect()
    con.execute(
        "CREATE TABLE m AS SELECT strftime(TIMESTAMP '2024-01-01' + to_seconds(range * 60), "
        "'%Y-%m-%d %H:%M:%S') AS ts, (range % 13) * 0.5 AS v, ['a', 'b'][(range % 2) + 1] AS r "
        "FROM range(3000)"
    )
    decl = {"ts": "date", "v": "number", "r": "string"}
    got: list[Any] = []
    queries = logged_queries(con, lambda: got.append(view(con.table("m"), decl, max_points=1000)))
    (v,) = got
    assert (v.kind, v.mark) == ("chart", "line")
    assert sum(PLAIN_DATE in q for q in queries) == 1, queries
    own = view(con.table("m").df(), decl, max_points=1000)
    assert list(v.spec["datasets"].values()) == list(own.spec["datasets"].values())
