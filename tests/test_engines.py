"""Engine frames where they live: the door, files opened in place, the check's and the
chart's edges that only an engine reading has, and a few end-to-end views per engine family.

What every engine must answer alike — the check's violations, the facts, the groups, the
chart of every kind as values — is the backend contract (tests/test_backends.py and
tests/test_backend_views.py); here are the engine readings' own questions: reading in place,
an empty or a missing column, a number never cast, JSON lines, JSON arrays, CSV as text and
parsed in DuckDB by csvread's rules, Parquet, DuckDB's own types, query errors, install lines,
the command line and the explorer opening a table file, and the tables a view refuses with.
"""

from __future__ import annotations

import datetime as dt
import json
import random
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import pytest
from test_backend_views import same_view
from test_backends import check_frame
from test_dataframes import DECLARATIONS, assert_same

from chartkit import ChartkitError, check_columns, read_rowset
from chartkit.columns import ColumnDeclaration, ColumnType
from chartkit.read.csvread import read_csv
from chartkit.read.engines import EngineReading, TextTable, open_table


def test_an_engine_frame_is_read_in_place_not_converted() -> None:
    reading = read_rowset(pl.DataFrame({"lun": [0, 3]}).lazy())
    assert isinstance(reading, EngineReading)
    assert (reading.engine, reading.lazy, reading.total, reading.rows, reading.frame) == (
        "polars", True, 2, None, None,
    )  # fmt: skip
    with pytest.raises(ChartkitError, match="stay in polars"):
        reading.to_frame()


def test_an_empty_engine_frame_is_not_a_rowset() -> None:
    assert read_rowset(duckdb.sql("SELECT 1 AS lun WHERE false")) is None
    assert check_columns(pl.DataFrame({"lun": []}).lazy(), {"lun": "number"}) == ()


def test_a_declared_column_the_engine_lacks_is_missing() -> None:
    (found,) = check_columns(duckdb.sql("SELECT 1 AS lun"), {"host_group": "string"})
    assert (found.kind, found.affected, found.total) == ("missing-column", 1, 1)


def test_the_spec_example_in_duckdb() -> None:
    rel = duckdb.sql(
        "SELECT * FROM (VALUES ('', 'vdi-a'), ('3', 'vdi-a')) t(logical_unit_number, host_group)"
    )
    (found,) = check_columns(rel, {"logical_unit_number": "number", "host_group": "string"})
    assert (found.column, found.affected, found.sample, found.sample_type) == (
        "logical_unit_number", 2, "", "string",
    )  # fmt: skip


def test_a_number_in_quotes_is_never_cast(tmp_path: Path) -> None:
    """DuckDB's TRY_CAST reads ' 12 ' and '0x1F' as numbers; the check never asks it."""
    rel = duckdb.sql("SELECT * FROM (VALUES (' 12 '), ('0x1F'), (NULL)) t(lun)")
    (found,) = check_columns(rel, {"lun": {"type": "number", "nullable": True}})
    assert (found.affected, found.sample, found.offending_types) == (2, " 12 ", ("string",))


def jsonl_rows(seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    mixed: list[Any] = [0, 3, 2.5, "", "1240", "2024-01-05", True, None, [1], {"a": 1}]
    pick = rng.sample(mixed, rng.randint(1, 5))
    return [{"v": rng.choice(pick), "n": rng.choice([1, None])} for _ in range(rng.choice([2, 30]))]


@pytest.mark.parametrize("seed", range(12))
def test_a_json_lines_file_is_judged_per_value_type(tmp_path: Path, seed: int) -> None:
    rows = jsonl_rows(seed)
    path = tmp_path / "r.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    rel = open_table(path)
    for column in ("v", "n"):
        for decl in DECLARATIONS:
            declared = {column: decl}
            assert_same(check_columns(rel, declared), check_columns(rows, declared))


CSV = (
    "lun,capacity_gb,mapped,seen_at,host\n"
    "0,8.5,true,2024-01-05,vdi-a\n"
    ",1e999,1,2024-02-30,\n"
    '" 3",NaN,TRUE,2024-01-05 10:30,""\n'
    "12,-.5,False,2024-01-05T10:30:00Z,1240\n"
    "0x1F,5.,yes,05/01/2024,x\n"
)


def test_a_csv_file_is_text_judged_by_the_declared_type(tmp_path: Path) -> None:
    path = tmp_path / "mappings.csv"
    path.write_text(CSV, encoding="utf-8")
    table = open_table(path)
    assert isinstance(table, TextTable)
    for column in ("lun", "capacity_gb", "mapped", "seen_at", "host"):
        for decl in DECLARATIONS:
            declared = {column: decl}
            rows = read_csv(path, declared).rows
            assert_same(check_columns(table, declared), check_columns(rows, declared))


def test_a_path_that_is_no_table_is_refused_by_name(tmp_path: Path) -> None:
    with pytest.raises(ChartkitError, match="does not exist"):
        open_table(tmp_path / "nope.parquet")
    with pytest.raises(ChartkitError, match="is not a file"):
        open_table(tmp_path)
    (tmp_path / "notes.txt").write_text("hi", encoding="utf-8")
    with pytest.raises(ChartkitError, match=r"suffix '\.txt' is not one of"):
        open_table(tmp_path / "notes.txt")
    (tmp_path / "broken.parquet").write_bytes(b"not parquet")
    with pytest.raises(ChartkitError, match=r"DuckDB could not read 'broken\.parquet'"):
        check_columns(open_table(tmp_path / "broken.parquet"), {"a": "number"})


def test_a_query_error_names_the_engine_the_columns_and_the_step() -> None:
    rel = duckdb.sql("SELECT * FROM (VALUES ('1'), ('x')) t(lun)").project(
        "CAST(lun AS INTEGER) AS lun"
    )  # the cast fails only when the query runs
    with pytest.raises(ChartkitError, match=r"duckdb could not .*'lun'|door query"):
        check_columns(rel, {"lun": "number"})


def test_a_parquet_file_is_checked_without_loading_it(tmp_path: Path) -> None:
    df = check_frame(3)
    path = tmp_path / "t.parquet"
    df.write_parquet(path)
    rel = open_table(path)
    assert type(rel).__module__.startswith("duckdb")
    for column in df.columns:
        declared = {column: "number"}
        assert_same(check_columns(rel, declared), check_columns(df.to_dicts(), declared))


# --- view(): the chart's rows computed in the engine ----------------------------------------


def chart_rows(v: Any, fields: tuple[str, ...]) -> list[tuple[Any, ...]]:
    """The chart's data rows as (field, …) tuples, numbers rounded, in a stable order."""
    (values,) = v.spec["datasets"].values()
    out = [
        tuple(round(r[f], 9) if isinstance(r[f], float) else r[f] for f in fields) for r in values
    ]
    return sorted(out, key=repr)


def big_frame(n: int = 20_000) -> pl.DataFrame:
    rng = random.Random(5)
    start = dt.datetime(2024, 1, 1)
    return pl.DataFrame(
        {
            "at": [start + dt.timedelta(minutes=i) for i in range(n)],
            "gb": [rng.gauss(100, 10) if i % 97 else None for i in range(n)],
            "host": [rng.choice(["vdi-a", "vdi-b", "vdi-c"]) for _ in range(n)],
        }
    )


DECL = {"at": "date", "gb": "number", "host": "string"}


def test_a_line_over_max_points_is_bucketed_in_the_engine_to_the_same_points() -> None:
    from chartkit import view

    df = big_frame()
    con = duckdb.connect()
    con.register("t", df.to_arrow())
    expected = chart_rows(view(df.to_pandas(), DECL, max_points=1000), ("at", "host", "gb"))
    ibis = pytest.importorskip("ibis")
    natives = (
        df,
        df.lazy(),
        df.to_arrow(),
        con.sql("SELECT * FROM t"),
        ibis.memtable(df.to_arrow()),
    )
    for native in natives:
        v = view(native, DECL, max_points=1000)
        assert (v.kind, v.mark) == ("chart", "line")
        assert chart_rows(v, ("at", "host", "gb")) == expected
        assert len(v.frame) == len(expected) <= 1000  # only the points left the engine
        assert "computed in" in v.notes[-1] and "only these points left the engine" in v.notes[-1]
        assert any("rows are left out of the chart" in n and "hold nothing" in n for n in v.notes)


def test_a_small_engine_frame_is_charted_exactly_as_pandas_would() -> None:
    from chartkit import view

    df = big_frame(300)
    a, b = view(df.to_pandas(), DECL), view(duckdb.sql("SELECT * FROM df"), DECL)
    assert (a.kind, a.mark, a.reason, a.notes) == (b.kind, b.mark, b.reason, b.notes)
    assert a.spec == b.spec


def test_a_text_column_declared_date_over_max_points_is_a_table_saying_to_cast_it() -> None:
    from chartkit import view

    df = big_frame().with_columns(pl.col("at").dt.strftime("%Y-%m-%dT%H:%M"))
    # picked, or left for the automatic chart (whose x decide.py would make it): not bars instead
    for picks in ({"x": "at"}, {}, {"y": "gb"}):
        v = view(df.lazy(), DECL, max_points=1000, **picks)
        assert v.kind == "table"
        assert v.reason == (
            "The polars frame has 20,000 rows, over max_points=1,000, so chartkit aggregates it "
            "in polars from columns whose engine type holds their declared type; at is declared "
            "date but the engine holds it as String, and it is judged value by value only when "
            "the rows leave the engine. Filter the frame to at most max_points rows first, or "
            "cast at in polars."
        )
    assert view(df.to_pandas(), DECL, max_points=1000).mark == "line"


def test_an_eager_engine_frame_is_aggregated_in_its_engine_too() -> None:
    from chartkit import view

    df = big_frame().select("gb")
    a, b = (
        view(df.to_pandas(), {"gb": "number"}, max_points=1000),
        view(df, {"gb": "number"}, max_points=1000),
    )
    assert (b.kind, b.mark) == ("chart", "bar")  # a histogram
    assert (a.reason, a.spec) == (b.reason, b.spec)
    assert b.notes[-1] == (
        "19,793 rows are drawn as a histogram of 10 bins, computed in polars; only the counts "
        "left the engine."
    )


# --- the command line: a table file opened where it lies -----------------------------------


def test_chartkit_check_and_render_open_a_parquet_file_in_duckdb(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from chartkit.cli import main

    path = tmp_path / "mappings.parquet"
    big_frame().write_parquet(path)
    columns = json.dumps(DECL)
    assert main(["check", str(path), "--engine", "duckdb", "--columns", columns, "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    (finding,) = payload["results"][0]["findings"] if "results" in payload else payload["findings"]
    assert finding["violation"]["column"] == "gb"
    assert finding["violation"]["affected"] == 207  # every 97th row of 20,000 holds nothing
    out = tmp_path / "chart.json"
    assert (
        main(["render", str(path), "--engine", "duckdb", "--columns", columns, "-o", str(out)]) == 0
    )
    spec = json.loads(out.read_text(encoding="utf-8"))
    (values,) = spec["datasets"].values()
    assert 0 < len(values) <= 5000
    assert "computed in duckdb" in capsys.readouterr().out


def test_chartkit_check_counts_the_rows_of_a_table_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from chartkit.cli import main

    path = tmp_path / "mappings.parquet"
    big_frame().write_parquet(path)
    main(["check", str(path), "--engine", "duckdb", "--columns", json.dumps(DECL)])
    out = capsys.readouterr().out
    assert "(20,000 rows" in out
    assert "rows of type" not in out


def test_chartkit_check_refuses_a_path_that_is_no_table_with_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from chartkit.cli import main

    assert main(["check", str(tmp_path / "gone.parquet"), "--engine", "duckdb"]) == 2
    assert "does not exist" in capsys.readouterr().err
    (tmp_path / "bad.parquet").write_bytes(b"PAR1 not really")
    assert main(["check", str(tmp_path / "bad.parquet"), "--engine", "duckdb"]) == 2
    assert "DuckDB could not read 'bad.parquet'" in capsys.readouterr().err


# --- the explorer: a table file opened where it lies ---------------------------------------


def test_the_explorer_opens_a_parquet_file_from_the_command_line_in_duckdb(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from streamlit.testing.v1 import AppTest

    import chartkit.explorer._logic as ex

    path = tmp_path / "latency.parquet"
    big_frame(300).write_parquet(path)
    monkeypatch.setenv(ex.ENV_FILE, str(path))
    monkeypatch.delenv("CHARTKIT_EXPLORE_MAX_MB", raising=False)
    app = Path(__file__).resolve().parent.parent / "app" / "explorer.py"
    at = AppTest.from_file(str(app), default_timeout=120).run()
    assert [e.value for e in at.exception] == []
    assert "latency" in [t.value for t in at.title]
    assert any("300 rows stay in duckdb" in c.value for c in at.caption)
    assert at.get("vega_lite_chart")  # charted from what left the engine


def test_the_explorer_says_why_a_table_path_cannot_be_opened(tmp_path: Path) -> None:
    import chartkit.explorer._logic as ex

    assert ex.load_path(tmp_path / "gone.parquet").error == (
        f"{str(tmp_path / 'gone.parquet')!r} does not exist; give the path of a table file"
    )
    (tmp_path / "bad.csv").write_bytes(b'a,b\n1,"2\n')
    error = ex.load_path(tmp_path / "bad.csv").error
    assert error is not None and "bad.csv" in error


def test_an_aware_time_axis_is_bucketed_in_utc_as_pandas_buckets_it() -> None:
    from chartkit import view

    df = big_frame().with_columns(pl.col("at").dt.replace_time_zone("Europe/Berlin"))
    con = duckdb.connect()
    con.register("t", df.to_arrow())
    expected = view(df.to_pandas(), DECL, max_points=1000)
    for native in (df.lazy(), con.sql("SELECT * FROM t")):
        v = view(native, DECL, max_points=1000)
        assert chart_rows(v, ("at", "host", "gb")) == chart_rows(expected, ("at", "host", "gb"))
        assert v.encodings["x"].title == expected.encodings["x"].title == "at (UTC)"


def test_a_small_csv_in_duckdb_is_charted_as_csvread_reads_it(tmp_path: Path) -> None:
    from chartkit import view

    lines = ["at,gb,host"] + [
        # both hosts at each hour: each a series (a line each), as the in-memory rows draw it
        f"2024-01-0{1 + i // 2 % 5}T{i // 2 % 24:02d}:00,{'n/a' if i % 7 == 0 else i * 1.5},"
        f"vdi-{i % 2}"
        for i in range(60)
    ]
    path = tmp_path / "capacity.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    in_memory = view(read_csv(path, DECL), DECL)
    in_duckdb = view(open_table(path), DECL, tool="capacity")
    assert (in_duckdb.kind, in_duckdb.mark) == ("chart", "line")
    assert (in_duckdb.spec, in_duckdb.notes) == (in_memory.spec, in_memory.notes)


def test_a_query_error_names_the_failing_column() -> None:
    rel = duckdb.sql("SELECT * FROM (VALUES ('1', 'a'), ('x', 'b')) t(lun, host)").project(
        "CAST(lun AS INTEGER) AS lun, host"
    )  # the cast fails only when a query reads lun
    with pytest.raises(
        ChartkitError,
        match=r"^duckdb could not run the check's count query for column\(s\) 'lun': ",
    ):
        check_columns(rel, {"host": "string", "lun": "number"})


def test_an_engine_that_is_not_installed_gets_its_install_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from chartkit import MissingExtraError

    (tmp_path / "t.parquet").write_bytes(b"PAR1")
    monkeypatch.setitem(__import__("sys").modules, "duckdb", None)  # import duckdb fails
    with pytest.raises(MissingExtraError, match=r"pip install 'chartkit\[duckdb\]'"):
        open_table(tmp_path / "t.parquet")


def test_a_json_array_file_opens_too(tmp_path: Path) -> None:
    rows = [{"lun": 0, "host": "vdi-a"}, {"lun": "", "host": "vdi-b"}]
    path = tmp_path / "mappings.json"
    path.write_text(json.dumps(rows), encoding="utf-8")
    declared = {"lun": "number", "host": "string"}
    assert_same(check_columns(open_table(path), declared), check_columns(rows, declared))


def test_a_module_the_answers_need_gets_its_install_line(monkeypatch: pytest.MonkeyPatch) -> None:
    from chartkit import MissingExtraError
    from chartkit.read.engines import missing_extra

    error = missing_extra(
        "pyspark", ModuleNotFoundError("No module named 'pyarrow'", name="pyarrow")
    )
    assert isinstance(error, MissingExtraError)
    assert str(error) == (
        "reading pyspark's answers needs the module 'pyarrow', which is not installed: "
        "pip install 'chartkit[spark]'"
    )


def test_every_duckdb_type_is_judged_as_the_rows_duckdb_returns() -> None:
    """HUGEINT, DECIMAL, DATE, TIME, BLOB, LIST, STRUCT, ENUM, TIMESTAMPTZ, UTINYINT, BOOLEAN,
    VARCHAR. (An INTERVAL is judged alike, but its sample comes back as Arrow's MonthDayNano.)"""
    rel = duckdb.sql(
        "SELECT * FROM (VALUES (1::HUGEINT, 1.5::DECIMAL(10,2), DATE '2024-01-01', TIME '08:00', "
        "'x'::BLOB, [1, 2], {'a': 1}, 'a'::ENUM('a', 'b'), TIMESTAMPTZ '2024-01-01 00:00+00', "
        "3::UTINYINT, true, '2024-01-05'), (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, "
        "NULL, NULL, NULL)) t(h, d, day, clock, raw, items, obj, e, ts, u, b, s)"
    )
    rows = [dict(zip(rel.columns, r, strict=True)) for r in rel.fetchall()]
    for column in rel.columns:
        for decl in DECLARATIONS:
            declared = {column: decl}
            assert_same(check_columns(rel, declared), check_columns(rows, declared))


def test_chartkit_explore_hands_a_table_file_over_without_reading_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import chartkit.cli as cli

    launched: list[dict[str, str]] = []
    monkeypatch.setattr(cli, "_launch", lambda command, env, cwd: launched.append(env) or 0)
    path = tmp_path / "big.parquet"
    big_frame(300).write_parquet(path)
    assert cli.main(["explore", str(path), "--headless"]) == 0
    assert launched[0][cli.EXPLORE_FILE_ENV] == str(path.resolve())
    assert cli.main(["explore", str(tmp_path / "gone.parquet"), "--headless"]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert len(launched) == 1


# A CSV over max_points: its text cells parsed in DuckDB by csvread's rules, then aggregated there
CSV_DECL: dict[str, Any] = {
    "at": "date",
    "gb": "number",
    "host": "string",
    "up": "boolean",
    "n": {"type": "number", "nullable": True},
}
CSV_PICKS: dict[str, dict[str, Any]] = {
    "automatic line": {},
    "bars of the mean": {"x": "host"},
    "histogram": {"x": "gb"},
    "count bars of a boolean": {"x": "up", "aggregate": "count"},
    "heatmap": {"x": "gb", "y": "n"},
    "lines of two measures": {"x": "at", "y": ["gb", "n"]},
    "bars of the max": {"x": "host", "y": "n", "aggregate": "max"},
    "an alternative": {"choose": 1},
}


def csv_file(tmp_path: Path, extra: str = "") -> Path:
    """1,200 rows: numbers as integers, fractions and exponents, offenders csvread keeps as
    text (`n/a`, ` 3`, `1e999`, `0x1F`, `1_5`), booleans in every spelling and some not,
    ISO dates with and without a time and a day no calendar has, empty cells."""
    bad = ["n/a", " 3", "1e999", "0x1F", "1_5"]
    lines = ["at,gb,host,up,n"]
    for i in range(1200):
        gb = bad[i % 5] if i % 11 == 0 else (f"{i * 1.25}" if i % 3 else f"{i}")
        time = "" if i % 4 == 0 else f"T{i % 24:02d}:{i % 60:02d}"
        if i % 4 and i % 2 == 0:
            time += f":{i % 60:02d}.{i % 1000:03d}"
        at = "2024-02-30" if i % 13 == 0 else f"2024-0{1 + i % 3}-{1 + i % 28:02d}{time}"
        up = ["true", "FALSE", "yes", "True", "", "false", "TRUE", "1"][i % 8]
        n = "" if i % 6 == 0 else f".{i}e1"
        lines.append(f"{at},{gb},vdi-{i % 4},{up},{n}")
    if extra:
        lines[5] = extra
    path = tmp_path / "capacity.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("kind", CSV_PICKS)
def test_a_csv_over_max_points_is_parsed_and_charted_in_duckdb_as_csvread_reads_it(
    tmp_path: Path, kind: str
) -> None:
    from chartkit import view

    path = csv_file(tmp_path)
    picks = CSV_PICKS[kind]
    expected = view(read_csv(path, CSV_DECL), CSV_DECL, max_points=100, **picks)
    v = view(open_table(path), CSV_DECL, max_points=100, tool="capacity", **picks)
    assert v.kind == "chart"
    same_view(expected, v)
    assert any("computed in duckdb" in n or "binned in duckdb" in n for n in v.notes)
    # the offenders left out: the same counts and first offenders as pandas' notes say
    left_out = [n for n in v.notes if "left out of the chart in duckdb" in n]
    said = [n for n in expected.notes if "left out of the" in n and " is declared " in n]
    for axis in ("x axis", "y axis", "color axis", "facet axis"):
        said = [n.replace(f"out of the {axis}", "out of the chart in duckdb") for n in said]
    assert sorted(left_out) == sorted(said)
    assert kind in ("bars of the mean", "bars of the max") or left_out


def test_a_text_date_over_max_points_is_parsed_in_duckdb_as_fromisoformat_reads_it() -> None:
    from chartkit import view

    n = 1200
    df = pl.DataFrame(
        {
            "at": [
                f"2024-0{1 + i % 3}-{1 + i % 28:02d}"
                + ("" if i % 3 == 0 else f" {i % 24:02d}:{i % 60:02d}:0{i % 10}.{i:06d}")
                for i in range(n)
            ],
            "gb": [i * 0.5 for i in range(n)],
            "host": [f"vdi-{i % 3}" for i in range(n)],
        }
    )
    con = duckdb.connect()
    con.register("t", df.to_arrow())
    for picks in ({}, {"x": "at", "aggregate": "max"}, {"x": "at", "time_unit": "day"}):
        expected = view(df.to_pandas(), DECL, max_points=100, **picks)
        v = view(con.sql("SELECT * FROM t"), DECL, max_points=100, **picks)
        # vdi-0's dates are all in January: a label found at a third of the line's points,
        # whose rows are counted per bucket, stacked by host (a picked max: a line per host)
        mark = "line" if picks.get("aggregate") else "bar"
        assert (v.kind, v.mark, expected.mark) == ("chart", mark, mark)
        same_view(expected, v)


def test_an_iso_date_duckdb_would_not_read_exactly_leaves_the_chart_a_table_saying_so(
    tmp_path: Path,
) -> None:
    from chartkit import view

    path = csv_file(tmp_path, extra="2024-01-05T10:30+01:00,3,vdi-0,true,1")
    v = view(open_table(path), CSV_DECL, max_points=100, tool="capacity")
    assert v.kind == "table"
    assert v.reason == (
        "The duckdb frame has 1,200 rows, over max_points=100, so chartkit aggregates it in "
        "duckdb; at is declared date and 1 of its values are date strings with a zone (Z or "
        "±HH:MM) or more than six fractional digits, which DuckDB does not cast to TIMESTAMP "
        "exactly as the check reads them (here DuckDB reads only YYYY-MM-DD with an optional "
        "time to the microsecond). Filter the frame to at most max_points rows first, or cast "
        "at to TIMESTAMP in DuckDB."
    )
    # a column that is not picked and not drawn does not stop the chart
    v = view(open_table(path), {"gb": "number", "host": "string"}, max_points=100, x="host")
    assert (v.kind, v.mark) == ("chart", "bar")


def test_an_undeclared_column_picked_over_max_points_is_a_table_saying_to_declare_it() -> None:
    from chartkit import view

    df = big_frame().with_columns(zone=pl.col("host"))
    for picks in ({"x": "zone"}, {"x": "at", "color": "zone"}, {"x": "host", "y": "zone"}):
        v = view(df.lazy(), DECL, max_points=1000, **picks)
        assert v.kind == "table"
        assert v.reason == (
            f"The polars frame has {len(df):,} rows, over max_points=1,000, so chartkit "
            "aggregates it in polars from declared columns; zone is not declared, and its type "
            "would be inferred from values that stay in the engine. Declare it in "
            "result_columns ('zone': 'string', say) to chart it, or filter the frame to at "
            "most max_points rows first."
        )
    # declared as the reason says, it is charted in the engine as pandas charts it
    decl = {**DECL, "zone": "string"}
    same_view(
        view(df.to_pandas(), decl, max_points=1000, x="zone"),
        view(df.lazy(), decl, max_points=1000, x="zone"),
    )


def test_duckdb_parses_a_csvs_cells_to_the_values_csvread_gives(tmp_path: Path) -> None:
    """Cell by cell, the typed relation the chart aggregates holds csvread's value, or nothing
    where csvread keeps the text (an offender): numbers read as Python's float reads them,
    plain ISO dates as fromisoformat, booleans by the six spellings."""
    from chartkit.backends.pushdown import _typed
    from chartkit.read.csvread import parse_cell

    rng = random.Random(7)

    def number() -> str:
        sign = rng.choice(["", "-", "+"])
        whole = str(rng.randint(0, 10 ** rng.randint(0, 25)))
        frac = str(rng.randint(0, 10 ** rng.randint(0, 25)))
        return rng.choice(
            [f"{sign}{whole}", f"{sign}{whole}.{frac}e{rng.randint(-330, 310)}", f"{sign}.{frac}",
             f"{sign}{whole}.", " 12", "0x1F", "1_000", "nan", "inf", "1e999", "", "1,5"]
        )  # fmt: skip

    def date() -> str:
        d = f"{rng.randint(1, 9999):04d}-{rng.randint(1, 13):02d}-{rng.randint(1, 31):02d}"
        t = f"{rng.randint(0, 24):02d}:{rng.randint(0, 59):02d}"
        return rng.choice(
            [d, f"{d}T{t}", f"{d} {t}:{rng.randint(0, 60):02d}",
             f"{d}T{t}:0{rng.randint(0, 9)}.{rng.randint(0, 10**6 - 1):0{rng.randint(1, 6)}d}",
             "2024-02-29", "2023-02-29", "yesterday", ""]
        )  # fmt: skip

    flags = ["true", "True", "TRUE", "false", "False", "FALSE", "1", "yes", "t", ""]
    rows = [(number(), date(), rng.choice(flags)) for _ in range(3000)]
    path = tmp_path / "cells.csv"
    path.write_text(
        "gb,at,up\n" + "".join(f'"{g}",{a},{u}\n' for g, a, u in rows), encoding="utf-8"
    )
    kinds: tuple[ColumnType, ...] = ("number", "date", "boolean")
    reading = read_rowset(open_table(path))
    assert isinstance(reading, EngineReading) and reading.csv_text
    decl = {n: ColumnDeclaration(k) for n, k in zip(("gb", "at", "up"), kinds, strict=True)}
    typed = _typed(reading, decl, 100)
    assert isinstance(typed, EngineReading) and not typed.csv_text
    got = typed.native.fetchall()
    assert len(got) == len(rows)
    for cells, values in zip(rows, got, strict=True):
        for cell, kind, value in zip(cells, kinds, values, strict=True):
            parsed = parse_cell(cell, kind)
            wanted = None if isinstance(parsed, str) else parsed
            if type(wanted) is int:  # an integer literal: the chart's float of it
                wanted = float(wanted)
            assert (value, type(value)) == (wanted, type(wanted)), (cell, kind)


def test_a_json_column_declared_date_over_max_points_is_not_parsed_as_text(tmp_path: Path) -> None:
    """A JSON-lines column mixing ISO strings and numbers is DuckDB JSON (quoted values), not
    text: it is not cast, and the chart is the table saying to cast it."""
    from chartkit import view

    rows = [
        {"at": f"2024-01-{1 + i % 28:02d}" if i % 50 else 5, "gb": i * 0.5, "host": f"h{i % 3}"}
        for i in range(1200)
    ]
    path = tmp_path / "mixed.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    v = view(open_table(path), DECL, max_points=100)
    assert v.kind == "table"
    assert v.reason == (
        "The duckdb frame has 1,200 rows, over max_points=100, so chartkit aggregates it in "
        "duckdb from columns whose engine type holds their declared type; at is declared date "
        "but the engine holds it as String, and it is judged value by value only when the rows "
        "leave the engine. Filter the frame to at most max_points rows first, or cast at in "
        "duckdb."
    )


@pytest.mark.parametrize(
    "picks",
    [{"x": "g", "y": "v"}, {"x": "t", "y": "v"}, {"x": "v"}, {"x": "i", "y": "v"}],
    ids=["bars", "line", "histogram", "heatmap"],
)
def test_rows_left_out_in_the_engine_set_the_state_a_ui_shows_as_pandas_does(
    picks: dict[str, str],
) -> None:
    from chartkit import view

    con = duckdb.connect()
    rel = con.sql(
        "select range as i, 'g' || (range % 7)::varchar as g, "
        "timestamp '2024-01-01' + to_seconds(range) as t, "
        "case when range % 100 = 0 then null else range::double end as v from range(20000)"
    )
    declaration = {"g": "string", "v": "number", "i": "number", "t": "date"}
    engine = view(rel, declaration, max_points=1000, **picks)
    pandas = view(rel.df(), declaration, max_points=1000, **picks)
    assert engine.mark == pandas.mark
    assert (engine.state, engine.left_out) == (pandas.state, pandas.left_out)
    assert (engine.state, engine.left_out) == ("rows left out", 200)
    assert engine.to_dict()["state"] == "rows left out"


def test_a_decimal_measure_over_max_points_is_drawn_as_in_memory() -> None:
    """DuckDB types ``x * 0.5`` DECIMAL: its span is ``Decimal`` values, which the engine's
    question whether a measure holds an infinite number read as floats (a 'bug in chartkit'
    before, on every DuckDB decimal measure past max_points: the 20M-row bench's own table)."""
    from chartkit import view

    con = duckdb.connect()
    con.execute(
        "CREATE TABLE m AS SELECT TIMESTAMP '2024-01-01' + to_seconds(range) AS ts, "
        "(range % 1000) * 0.5 + (range % 7) AS latency, "
        "['a', 'b', 'c', 'd'][(range % 4) + 1] AS region FROM range(6000)"
    )
    assert str(con.table("m").types[1]).startswith("DECIMAL")
    decl = {"ts": "date", "latency": "number", "region": "string"}
    for picks in ({}, {"x": "region"}, {"x": "latency"}):
        v = view(con.table("m"), decl, **picks)
        assert v.kind == "chart", v.reason
        expected = view(con.table("m").df(), decl, **picks)
        assert (v.mark, v.reason) == (expected.mark, expected.reason)
