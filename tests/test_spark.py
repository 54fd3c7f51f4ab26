"""Spark for real, in both of its modes: what DuckDB and the rows find, Spark finds.

Each test runs twice, through the ``spark_session`` fixture (tests/conftest.py): ``[classic]``,
PySpark in local mode, and ``[connect]``, a real Spark Connect server on loopback reached by
its gRPC client (``pyspark.sql.connect.dataframe.DataFrame``), the way a cluster is reached.
One session per mode (each JVM start takes 10-20 s) and few queries: the check over a handful
of columns and declarations, the chart's rows, and the date rule's regex in Java.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import duckdb
import pytest
from test_dataframes import assert_same

from chartkit import check_columns

pytest.importorskip("pyspark")  # in CI the fixture refuses to skip (.ci/run installs Spark)

ROWS: list[dict[str, Any]] = [
    {"lun": 0, "capacity_gb": 8.5, "host_group": "vdi-a", "seen": "2024-01-05", "at": None},
    {"lun": None, "capacity_gb": float("nan"), "host_group": "", "seen": "05/01/2024",
     "at": dt.datetime(2024, 1, 5, 10, 30)},
    {"lun": 3, "capacity_gb": None, "host_group": "1240", "seen": None,
     "at": dt.datetime(2024, 1, 6)},
    {"lun": 7, "capacity_gb": 1.0, "host_group": None, "seen": "2024-02-30",
     "at": dt.datetime(2024, 1, 7)},
]  # fmt: skip
SCHEMA = "lun long, capacity_gb double, host_group string, seen string, at timestamp_ntz"
DECLARED = [
    {"lun": "number", "capacity_gb": "number", "host_group": "string", "seen": "date"},
    {"lun": "string", "capacity_gb": {"type": "number", "nullable": True}, "host_group": "number",
     "seen": {"type": "date", "nullable": True}, "at": "date"},
    {"lun": "date", "capacity_gb": "boolean", "host_group": "date", "seen": "string",
     "at": "number", "gone": "number"},
]  # fmt: skip


def test_spark_finds_what_duckdb_and_the_rows_find(spark_session: Any) -> None:
    frame = spark_session.createDataFrame([tuple(r.values()) for r in ROWS], SCHEMA)
    import polars as pl

    table = pl.DataFrame(ROWS, schema={"lun": pl.Int64, "capacity_gb": pl.Float64,
                         "host_group": pl.String, "seen": pl.String, "at": pl.Datetime("us")},
                         strict=False).to_arrow()  # fmt: skip
    con = duckdb.connect()
    con.register("t", table)
    rel = con.sql("SELECT * FROM t")
    for declared in DECLARED:
        in_spark = check_columns(frame, declared)
        assert_same(in_spark, check_columns(rel, declared))
        assert_same(in_spark, check_columns(ROWS, declared))
        assert in_spark  # every declaration here breaks something


def test_spark_draws_the_chart_rows_duckdb_draws(spark_session: Any) -> None:
    """Over max_points, both engines bucket the line themselves; the points that leave agree."""
    import polars as pl

    from chartkit import view

    start = dt.datetime(2024, 1, 1)
    rows = [
        (start + dt.timedelta(minutes=i), None if i % 97 == 0 else float(i % 50), f"vdi-{i % 3}")
        for i in range(3000)
    ]
    frame = spark_session.createDataFrame(rows, "at timestamp_ntz, gb double, host string")
    table = pl.DataFrame(rows, schema=["at", "gb", "host"], orient="row").to_arrow()
    con = duckdb.connect()
    con.register("t", table)
    declared = {"at": "date", "gb": "number", "host": "string"}
    in_spark = view(frame, declared, max_points=500)
    in_duckdb = view(con.sql("SELECT * FROM t"), declared, max_points=500)
    assert (in_spark.kind, in_spark.mark) == ("chart", "line")
    assert in_spark.spec == in_duckdb.spec
    assert [n.replace("pyspark", "E") for n in in_spark.notes] == [
        n.replace("duckdb", "E") for n in in_duckdb.notes
    ]


def test_spark_computes_the_chart_options_pandas_computes(spark_session: Any) -> None:
    """Bars of a sum per category with facets, and a histogram: the rows pandas draws."""
    import pandas as pd
    from test_engines import same_view

    from chartkit import view

    rows = [
        (float(i % 50) if i % 97 else None, f"vdi-{i % 3}", "ns"[i % 2], (i * 7) % 101)
        for i in range(3000)
    ]
    frame = spark_session.createDataFrame(rows, "gb double, host string, site string, n long")
    pandas = pd.DataFrame(rows, columns=["gb", "host", "site", "n"])
    declared = {"gb": "number", "host": "string", "site": "string", "n": "number"}
    for picks in ({"x": "host", "facet": "site", "aggregate": "sum"}, {"x": "n"}):
        expected = view(pandas, declared, max_points=500, **picks)
        in_spark = view(frame, declared, max_points=500, **picks)
        same_view(expected, in_spark)
        assert any("computed in pyspark" in n for n in in_spark.notes)


def test_spark_notes_what_it_leaves_out_as_pandas_does(spark_session: Any) -> None:
    """A heatmap of two measures, one nullable and holding no value in some rows: the notes as
    values and the caption are pandas'; a measure the check refuses, or one whose every row is
    a number in quotes, gives pandas' table and its reason."""
    import pandas as pd

    from chartkit import view

    rows = [(float(i % 37), None if i % 11 == 0 else float((i * 7) % 53)) for i in range(1200)]
    frame = spark_session.createDataFrame(rows, "x double, y double")
    declared = {"x": "number", "y": {"type": "number", "nullable": True}}
    expected = view(pd.DataFrame(rows, columns=["x", "y"]), declared, max_points=100, x="x",
                    y="y")  # fmt: skip
    in_spark = view(frame, declared, max_points=100, x="x", y="y")
    facts = [(n.kind, n.column, n.counts) for n in in_spark.facts]
    assert facts == [(n.kind, n.column, n.counts) for n in expected.facts]
    assert ("no-value", "y", (("rows", 110),)) in facts
    caption = ("110 of 1,200 rows are left out: no value in y",)
    assert in_spark.caption == expected.caption == caption
    for values in (["n/a"] * 300, [str(i) for i in range(300)]):
        keys = [f"k{i % 7}" for i in range(300)]
        pandas = pd.DataFrame({"a": keys, "v": values})
        declared = {"a": "string", "v": "number"}
        want = view(pandas, declared, max_points=100)
        got = view(spark_session.createDataFrame(pandas), declared, max_points=100)
        assert (got.kind, got.reason) == ("table", want.reason)


def test_java_regex_judges_date_strings_as_python_does(spark_session: Any) -> None:
    """Spark matches the date pattern with java.util.regex: the same verdicts, string by string."""
    from pyspark.sql import functions as F
    from test_isodate import EDGE_CASES, corpus

    from chartkit._isodate import engine_pattern, is_iso

    texts = [s for s in EDGE_CASES + corpus(23, 3_000) if s.isascii() or s.isprintable()]
    texts = [s for s in texts if not any(0xD800 <= ord(c) < 0xE000 for c in s)]
    frame = spark_session.createDataFrame([(i, s) for i, s in enumerate(texts)], "i long, s string")
    got = frame.select("i", F.col("s").rlike(engine_pattern()).alias("ok")).collect()
    verdicts = [ok for _, ok in sorted((r["i"], r["ok"]) for r in got)]
    assert verdicts == [is_iso(s) for s in texts]


def test_each_mode_is_the_spark_it_names(
    spark_session: Any, request: pytest.FixtureRequest
) -> None:
    """[connect] is a Spark Connect DataFrame through chartkit's door, not classic in disguise."""
    from chartkit import read_rowset

    mode = request.node.callspec.params["spark_session"]
    frame = spark_session.createDataFrame([(0, "vdi-a"), (3, "vdi-b")], "lun long, host string")
    assert type(frame).__module__ == f"pyspark.sql.{mode}.dataframe"
    reading = read_rowset(frame)
    assert (reading.engine, reading.total, reading.columns) == ("pyspark", 2, ("lun", "host"))
