"""The compiled reader (``chartkit._speedups``) and the pure-Python path give the same answers.

Every test here that compares runs the same input twice — once with the C reader, once with
``chartkit.read.columnar.SPEEDUPS`` set to None (what ``CHARTKIT_PURE_PYTHON=1`` or a machine
without a compiler gets) — and asserts identical violations, values and frames. Without the
extension they skip, unless ``CHARTKIT_SPEEDUPS=required`` (CI), where they fail.
"""

from __future__ import annotations

import datetime as dt
import gc
import os
import subprocess
import sys
import tracemalloc
from collections import OrderedDict
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_isodate import EDGE_CASES, corpus

import chartkit
import chartkit.read.columnar as columnar
from chartkit import check_columns, read_rowset, view
from chartkit._isodate import is_iso, parse_iso
from chartkit.plan.encode import any_aware, as_wall_clock, wall_clock
from chartkit.read.columnar import ABSENT, CENSUS_CLASSES

REQUIRED = os.environ.get("CHARTKIT_SPEEDUPS") == "required"
SPEEDUPS = columnar.SPEEDUPS


def test_the_extension_is_built_where_it_is_required() -> None:
    """CI sets ``CHARTKIT_SPEEDUPS=required``: there a missing build is a failure."""
    if SPEEDUPS is None:
        if REQUIRED:
            pytest.fail("chartkit._speedups is not built, and CHARTKIT_SPEEDUPS=required")
        pytest.skip("chartkit._speedups is not built: the pure-Python path is in use")
    assert SPEEDUPS.N_CLASSES == len(CENSUS_CLASSES)


def test_the_type_stub_names_what_the_module_defines(speedups: Any) -> None:
    """mypy reads chartkit/_speedups.pyi: it must list every name the C module exports."""
    import ast
    from pathlib import Path

    stub = ast.parse((Path(chartkit.__file__).parent / "_speedups.pyi").read_text("utf-8"))
    functions = {node.name for node in stub.body if isinstance(node, ast.FunctionDef)}
    constants = {
        node.target.id
        for node in stub.body
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
    }
    declared = functions | constants
    [listed] = [n.value for n in stub.body if isinstance(n, ast.Assign)]
    assert sorted(ast.literal_eval(listed)) == sorted(speedups.__all__) == sorted(declared)


@pytest.fixture
def speedups() -> Any:
    if SPEEDUPS is None:
        if REQUIRED:
            pytest.fail("chartkit._speedups is not built, and CHARTKIT_SPEEDUPS=required")
        pytest.skip("chartkit._speedups is not built")
    return SPEEDUPS


def both(fn: Any, *args: Any) -> tuple[Any, Any]:
    """``fn(*args)`` with the C reader, then in pure Python (a fresh reading each time)."""
    assert columnar.SPEEDUPS is not None
    compiled = fn(*args)
    saved, columnar.SPEEDUPS = columnar.SPEEDUPS, None
    try:
        pure = fn(*args)
    finally:
        columnar.SPEEDUPS = saved
    return compiled, pure


def micros(when: dt.datetime) -> int:
    """Wall-clock microseconds since 1970: aware values in UTC, naive ones as given."""
    offset = when.utcoffset() or dt.timedelta(0)
    since = when.replace(tzinfo=None) - dt.datetime(1970, 1, 1) - offset  # no overflow at year 1
    return since // dt.timedelta(microseconds=1)


# --- the date validator ----------------------------------------------------------------------

NEAR_MISSES = [
    "2024-02-30", "2024-1-05", "24:00", "2024-01-05T24:00", "2024-01-05T10:00+25:00",
    "2024-01-05T10:00+24:00", "2024-01-05T10:60", "2024-01-05T10:00:60", "0000-01-01",
    "２０２４-01-01", "2024-０1-01", "2024-01-05T1０:00", "20240105", "2024-W01-1", "2024W01",
    "2024-01-05T10:00:00.1234567", "2024-01-05T10:00:00,5", "2024-01-05x10:00", "2024-01-05T",
    "2024-01-05T10:00Z ", "2024-01-05T10:00+01:30:15", "2024-01-05T10:00+0130",
    "2024-01-05T10:00+01:75", "\ud800", "2024-01-05\ud800", "2024-01-05T10:00\x00",
    "9999-12-31T23:59:59.999999", "0001-01-01T00:00:00-01:00", "2024-02-29", "2023-02-29",
    "1900-02-29", "2000-02-29", "2024-01-05T10", "2024-01-05T10Z", "2024-01-05 10:00-00:00",
]  # fmt: skip


def test_the_validator_agrees_with_the_grammar(speedups: Any) -> None:
    """The C validator writes ``chartkit._isodate``'s grammar by hand: the same verdict, and
    the moment ``parse_iso`` reads, on every string."""
    for text in EDGE_CASES + NEAR_MISSES + corpus(3, 20_000):
        verdict, wall, aware = speedups.iso_verdict(text)
        parsed = parse_iso(text)
        assert verdict == (0 if is_iso(text) else 1), text
        if parsed is not None:
            assert wall == micros(parsed), text
            assert aware == (parsed.tzinfo is not None), text


@settings(
    max_examples=3000,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
@given(
    st.tuples(
        st.integers(0, 10_000), st.integers(0, 13), st.integers(0, 32), st.sampled_from("T t"),
        st.integers(0, 25), st.integers(0, 61), st.integers(0, 61), st.integers(0, 9_999_999),
        st.sampled_from(["", "Z", "+", "-"]), st.integers(0, 25), st.integers(0, 61),
    ),
    st.integers(0, 6),
)  # fmt: skip
def test_generated_date_times_are_judged_as_the_grammar_judges_them(
    parts: tuple[Any, ...], cut: int
) -> None:
    assert columnar.SPEEDUPS is not None or not REQUIRED
    if columnar.SPEEDUPS is None:
        return
    y, m, d, sep, hh, mm, ss, frac, sign, oh, om = parts
    pieces = [f"{y:04d}-{m:02d}-{d:02d}", f"{sep}{hh:02d}", f":{mm:02d}", f":{ss:02d}"]
    pieces.append(f".{frac}")
    text = "".join(pieces[: max(1, cut)])
    if sign:
        text += sign if sign == "Z" else f"{sign}{oh:02d}:{om:02d}"
    verdict, wall, _ = columnar.SPEEDUPS.iso_verdict(text)
    parsed = parse_iso(text)
    assert verdict == (0 if is_iso(text) else 1), text
    if parsed is not None:
        assert wall == micros(parsed), text


# --- the reader ------------------------------------------------------------------------------

POOL: list[Any] = [
    0, 1, -3, 2**70, -(2**64), 1.5, -0.0, float("nan"), float("inf"), -float("inf"), True,
    False, None, "", "a", "vdi-a", "2024-01-01", "2024-01-01T00:00:00+02:00",
    "2024-01-05T10:30:00.5Z", "2024-02-30", "20240105", "2024-W01-1", "２０２４-01-01",
    "\ud800", dt.date(2024, 1, 1), dt.datetime(2024, 1, 1), Decimal("1.5"), np.int64(3),
    np.float64(np.nan), np.bool_(True), pd.NA, [1], {"a": 1}, ABSENT,
]  # fmt: skip


class Text(str):
    """A str subclass: the census does not know it, so its column is judged in Python."""


POOL.append(Text("2024-01-01"))


def rows_from(columns: dict[str, list[Any]]) -> list[dict[str, Any]]:
    n = max(map(len, columns.values()))
    return [
        {k: v[i % len(v)] for k, v in columns.items() if v[i % len(v)] is not ABSENT}
        for i in range(n)
    ]


values_st = st.one_of(
    st.sampled_from(POOL),
    st.integers(),
    st.floats(),
    st.text(max_size=12),
    st.sampled_from(NEAR_MISSES + EDGE_CASES),
)
declaration_st = st.fixed_dictionaries(
    {},
    optional={
        name: st.sampled_from(["number", "string", "boolean", "date"]).flatmap(
            lambda t: st.sampled_from([t, {"type": t, "nullable": True}])
        )
        for name in ("a", "b", "c", "d")
    },
).filter(bool)


@settings(
    max_examples=1500,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
@given(
    st.dictionaries(
        st.sampled_from(["a", "b", "c", "d"]),
        st.lists(values_st, min_size=1, max_size=8),
        min_size=1,
    ),
    declaration_st,
)
def test_both_paths_find_the_same_violations(
    columns: dict[str, list[Any]], declared: dict[str, Any]
) -> None:
    assert columnar.SPEEDUPS is not None or not REQUIRED
    if columnar.SPEEDUPS is None:
        return
    rows = rows_from(columns)
    if not any(rows):
        return

    def check(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [v.to_dict() | {"raw": v.sample} for v in check_columns(rows, declared)]

    compiled, pure = both(check, rows)
    assert repr(compiled) == repr(pure)

    def frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
        reading = read_rowset(rows)
        assert reading is not None
        return reading.to_frame()

    got, expected = both(frame, rows)
    pd.testing.assert_frame_equal(got, expected)


def test_the_spec_example_at_scale(speedups: Any) -> None:
    rows = [
        {"lun": "" if i % 997 == 5 else i % 256, "host": f"vdi-{i % 5}", "mapped": i % 3 == 0,
         "seen": f"2024-01-{i % 28 + 1:02d}"}
        for i in range(20_000)
    ]  # fmt: skip
    declared = {"lun": "number", "host": "string", "mapped": "boolean", "seen": "date"}
    compiled, pure = both(check_columns, rows, declared)
    assert compiled == pure and compiled[0].affected == 21 and compiled[0].sample == ""
    rows[7_000]["seen"] = "2024-02-30"
    rows[9_000]["seen"] = "20240105"  # fromisoformat's basic form: no date string here
    compiled, pure = both(check_columns, rows, declared)
    assert compiled == pure and compiled[1].sample == "2024-02-30" and compiled[1].affected == 2


def test_the_census_counts_each_class_and_finds_the_first(speedups: Any) -> None:
    values = [1, 1.5, float("nan"), "x", True, None, ABSENT, np.int64(1), "2024-01-01",
              "2024-02-30", "20240101"]  # fmt: skip
    rows = [{} if v is ABSENT else {"a": v} for v in values]
    (read,) = columnar.read_census(rows, ["a"]) or []
    counts = dict(zip(CENSUS_CLASSES, read.census.counts, strict=True))
    firsts = dict(zip(CENSUS_CLASSES, read.census.firsts, strict=True))
    assert counts == {
        "int": 1, "float": 1, "nan": 1, "str": 4, "bool": 1, "none": 1, "absent": 1, "other": 1,
        "iso": 1, "not_iso": 3,
    }  # fmt: skip
    assert firsts == {
        "int": 0, "float": 1, "nan": 2, "str": 3, "bool": 4, "none": 5, "absent": 6, "other": 7,
        "iso": 8, "not_iso": 3,
    }  # fmt: skip
    assert read.values[6] is ABSENT and read.gap and read.clock is None


def test_a_raising_key_comparison_raises_as_in_python(speedups: Any) -> None:
    class Key(str):
        __slots__ = ()

        def __hash__(self) -> int:
            return hash("lun")

        def __eq__(self, other: object) -> bool:
            raise ArithmeticError("no comparing this key")

    rows = [{"lun": 1}, {Key("nul"): 2}]
    for pure in (False, True):
        saved = columnar.SPEEDUPS
        columnar.SPEEDUPS = None if pure else saved
        try:
            with pytest.raises(ArithmeticError, match="no comparing"):
                check_columns(rows, {"lun": "number"})
        finally:
            columnar.SPEEDUPS = saved


def test_rows_emptied_while_being_read_raise_and_do_not_crash(speedups: Any) -> None:
    rows: list[dict[Any, Any]] = []

    class Key(str):
        __slots__ = ()

        def __hash__(self) -> int:
            return hash("lun")

        def __eq__(self, other: object) -> bool:
            rows.clear()
            gc.collect()
            return False

    rows.extend([{Key("nul"): 1, "b": 2}] + [{"lun": i, "b": i} for i in range(100)])
    with pytest.raises(RuntimeError, match="changed size"):
        speedups.read_columns(rows, ["lun", "b"], ABSENT)


def test_a_row_that_is_not_a_dict_is_refused(speedups: Any) -> None:
    with pytest.raises(TypeError, match="row 1 is a list"):
        speedups.read_columns([{"a": 1}, [1]], ["a"], ABSENT)


def test_reading_leaks_nothing(speedups: Any) -> None:
    value = object()
    rows = [{"a": value, "b": f"2024-01-{i % 28 + 1:02d}", "c": i} for i in range(5_000)]
    before = sys.getrefcount(value)
    for _ in range(3):
        speedups.read_columns(rows, ["a", "b", "c", "d"], ABSENT)
    assert sys.getrefcount(value) == before
    tracemalloc.start()
    try:
        speedups.read_columns(rows, ["a", "b", "c", "d"], ABSENT)
        gc.collect()
        first = tracemalloc.get_traced_memory()[0]
        for _ in range(30):
            speedups.read_columns(rows, ["a", "b", "c", "d"], ABSENT)
        gc.collect()
        assert tracemalloc.get_traced_memory()[0] - first < 10_000
    finally:
        tracemalloc.stop()


# --- dates parsed once ------------------------------------------------------------------------

DATE_COLUMNS = {
    "dates": ["2024-01-01", "2024-03-02"],
    "naive": ["2024-01-01T10:00:00", "2024-01-01 11:30:00.5", "2024-01-01T12:00"],
    "one zone": ["2024-01-01T10:00:00+02:00", "2024-01-02T10:00:00+02:00"],
    "Z and +00": ["2024-01-01T10:00:00Z", "2024-01-01T10:00:00+00:00"],
    "two zones": ["2024-01-01T10:00:00+02:00", "2024-01-01T10:00:00-05:00"],
    "zone beside naive": ["2024-01-01T10:00:00+02:00", "2024-01-01T10:00:00.000001"],
    "far": ["0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59.999999"],
}


@pytest.mark.parametrize("texts", DATE_COLUMNS.values(), ids=DATE_COLUMNS.keys())
def test_dates_parsed_by_the_reading_are_what_the_chart_would_parse(
    speedups: Any, texts: list[str]
) -> None:
    reading = read_rowset([{"when": t} for t in texts])
    assert reading is not None
    frame = reading.to_frame()
    assert reading.wall_clock("when") is not None
    got, aware = wall_clock(frame["when"])
    plain = pd.Series(texts, name="when", dtype=object)
    if texts[0].startswith("0001"):  # beyond pandas' own parse: the values themselves
        assert got.tolist() == [pd.Timestamp(micros(parse_iso(t)), unit="us") for t in texts]  # type: ignore[arg-type]
    else:
        pd.testing.assert_series_equal(got, as_wall_clock(plain))
    assert aware == any_aware(plain)


def test_a_changed_column_is_parsed_again(speedups: Any) -> None:
    reading = read_rowset([{"when": "2024-01-01T10:00Z"}, {"when": "2024-01-02T10:00Z"}])
    assert reading is not None
    column = reading.to_frame()["when"]
    got, _ = wall_clock(column.iloc[::-1])
    assert got.tolist() == [pd.Timestamp("2024-01-02T10:00"), pd.Timestamp("2024-01-01T10:00")]


def test_view_of_rows_with_dates_is_the_same_on_both_paths(speedups: Any) -> None:
    start = dt.datetime(2024, 1, 1, tzinfo=dt.UTC)
    rows = [
        {"ts": (start + dt.timedelta(minutes=7 * i)).isoformat(), "ms": i % 17, "r": f"r{i % 3}"}
        for i in range(3_000)
    ]
    declared = {"ts": "date", "ms": "number", "r": "string"}
    compiled, pure = both(lambda: view(rows, declared).to_dict())
    assert compiled == pure


@pytest.mark.parametrize("zoned", ["every row", "only rows left out", "no row"])
def test_view_leaving_rows_out_filters_the_parsed_dates_as_parsing_the_kept_ones_would(
    speedups: Any, zoned: str
) -> None:
    """Rows whose number is ``''`` are left out; the kept rows' dates are taken from the ones
    the reading parsed (filtered, not parsed again), zone flag included: a zone held only by
    left-out rows does not make the axis UTC."""
    start = dt.datetime(2024, 1, 1)
    rows = []
    for i in range(3_000):
        bad = i % 10 == 3
        when = start + dt.timedelta(minutes=7 * i)
        aware = zoned == "every row" or (zoned == "only rows left out" and bad)
        text = when.replace(tzinfo=dt.timezone(dt.timedelta(hours=2))) if aware else when
        rows.append({"ts": text.isoformat(), "ms": "" if bad else i % 17, "r": f"r{i % 3}"})
    declared = {"ts": "date", "ms": "number", "r": "string"}
    compiled, pure = both(lambda: view(rows, declared).to_dict())
    for payload in (compiled, pure):  # the call id and the check's time differ by call
        del payload["callId"], payload["disposition"], payload["findings"]
    assert compiled == pure
    assert "300 of 3,000 rows are left out" in " ".join(compiled["notes"])
    assert (compiled["encodings"]["x"]["title"] == "ts (UTC)") is (zoned == "every row")


def test_pure_python_is_chosen_by_the_environment() -> None:
    code = "import chartkit.read.columnar as c; print(c.SPEEDUPS is None)"
    env = os.environ | {"CHARTKIT_PURE_PYTHON": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.stdout.strip() == "True"


@pytest.fixture(autouse=True)
def _restore() -> Iterator[None]:
    saved = columnar.SPEEDUPS
    yield
    columnar.SPEEDUPS = saved


@pytest.mark.parametrize(
    "rows",
    [[{}, {"a": 1}], ({"a": 1},), [{}, OrderedDict()], [{}, 1], [1], [{}, None]],
    ids=["dicts", "tuple", "a dict subclass", "an int", "only an int", "None"],
)
def test_plain_rows_are_told_the_same_way_on_both_paths(speedups: Any, rows: Any) -> None:
    compiled, pure = both(columnar.exact_dicts, rows)
    assert compiled == pure == (set(map(type, rows)) == {dict})
    assert speedups.exact_dicts(rows) == compiled


def test_dates_finer_than_a_microsecond_are_checked_in_c_but_parsed_by_pandas(
    speedups: Any,
) -> None:
    texts = ["2024-01-05T10:30:00.123456789Z", "2024-01-05T10:30:00.5Z"]
    reading = read_rowset([{"when": t} for t in texts])
    assert reading is not None
    assert check_columns(reading, {"when": "date"}) == ()
    census = reading.census("when")
    assert census is not None and census.count("iso") == 2 and census.count("not_iso") == 0
    assert reading.wall_clock("when") is None  # pandas keeps the nanoseconds: it parses them
    got, aware = wall_clock(reading.to_frame()["when"])
    assert aware and got.iloc[0] == pd.Timestamp("2024-01-05T10:30:00.123456789")


class _Real(float):
    pass


def test_type_codes_code_each_value_by_its_exact_type_with_nan_floats_apart(
    speedups: Any,
) -> None:
    nan = float("nan")
    values = [1.0, nan, "x", -nan, 1.0, np.float64("nan"), _Real(nan), None, True, 1, "y", ABSENT]
    codes, types = speedups.type_codes(values)
    assert types == (float, str, np.float64, _Real, type(None), bool, int, type(ABSENT))
    assert list(codes) == [0, 255, 1, 255, 0, 2, 3, 4, 5, 6, 1, 7]
    assert speedups.type_codes([]) == (b"", ())
    assert speedups.type_codes([nan, nan]) == (b"\xff\xff", ())  # no float that is not NaN


def test_type_codes_give_up_past_255_types(speedups: Any) -> None:
    kinds = [type(f"K{i}", (), {}) for i in range(256)]
    assert len(speedups.type_codes([k() for k in kinds[:255]])[1]) == 255
    assert speedups.type_codes([k() for k in kinds]) is None
    with pytest.raises(TypeError, match="type_codes takes a list, not tuple"):
        speedups.type_codes((1, 2))


class _Text(str):
    pass


@pytest.mark.parametrize(
    "values",
    [["2024-01-02", "", "eu-west-1"], [], [""], ["a\x00b", "\x7f"], ["x" * 100_000, "y"]],
    ids=["some", "none", "one empty", "control characters", "a long one"],
)
def test_ascii_text_lays_out_what_pyarrow_builds(speedups: Any, values: list[str]) -> None:
    import pyarrow as pa

    built = columnar.ascii_text_array(values)
    assert built is not None and built.type == pa.large_string()
    built.validate(full=True)
    assert built.equals(pa.array(values, pa.large_string()))
    assert built.to_pylist() == values


@pytest.mark.parametrize(
    "values",
    [["a", "é"], ["a", 1], ["a", None], ["a", _Text("b")], ["\ud800"], ("a", "b")],
    ids=["not ascii", "an int", "None", "a str subclass", "a lone surrogate", "a tuple"],
)
def test_ascii_text_leaves_anything_else_to_pyarrow(speedups: Any, values: Any) -> None:
    if isinstance(values, tuple):
        with pytest.raises(TypeError, match="ascii_text takes a list, not tuple"):
            speedups.ascii_text(values)
    else:
        assert speedups.ascii_text(values) is None
        assert columnar.ascii_text_array(values) is None


def test_a_frame_of_ascii_and_other_text_is_the_same_on_both_paths(speedups: Any) -> None:
    rows = [
        {"a": f"2024-01-{i % 28 + 1:02d}", "b": "é" if i % 7 else "e", "c": "x"} for i in range(50)
    ]
    compiled, pure = both(lambda r: read_rowset(r).to_frame(), rows)  # type: ignore[union-attr]
    pd.testing.assert_frame_equal(compiled, pure)
    pd.testing.assert_frame_equal(
        compiled, pd.DataFrame(rows).set_axis(pd.Index(list("abc"), dtype=object), axis=1)
    )


@settings(max_examples=500, deadline=None, database=None, derandomize=True)
@given(st.lists(st.text(st.characters(max_codepoint=0x7F), max_size=12), max_size=40))
def test_generated_ascii_text_is_laid_out_as_pyarrow_builds_it(values: list[str]) -> None:
    import pyarrow as pa

    if columnar.SPEEDUPS is None:
        assert not REQUIRED
        return
    built = columnar.ascii_text_array(values)
    assert built is not None
    built.validate(full=True)
    assert built.equals(pa.array(values, pa.large_string()))


def test_dates_a_reading_parsed_are_handed_on_without_a_copy(speedups: Any) -> None:
    """The chart's times are a read-only view of the bytes the reader parsed into."""
    texts = ["2024-01-05T10:30:00Z", "2024-01-05T11:30:00+01:00", "2024-01-06T00:00:00Z"]
    reading = read_rowset([{"when": t} for t in texts])
    assert reading is not None and check_columns(reading, {"when": "date"}) == ()
    clock = reading.wall_clock("when")
    assert clock is not None
    times, aware = wall_clock(reading.to_frame()["when"])
    assert aware and times.tolist() == [pd.Timestamp("2024-01-05T10:30:00")] * 2 + [
        pd.Timestamp("2024-01-06")
    ]
    assert np.shares_memory(times.to_numpy(), clock.times())


@pytest.mark.parametrize(
    ("rows", "width"),
    [
        ([{"a": 1}, {"b": 2}], 1),
        ([{"a": 1}, {"a": 1, "b": 2}], 1),
        ([{}, {}], 0),
        (({"a": 1},), 1),
        ([{"a": 1}, OrderedDict(a=1)], 1),
    ],
    ids=["same", "one wider", "empty", "tuple", "a dict subclass"],
)
def test_rows_of_one_width_are_told_the_same_way_on_both_paths(
    speedups: Any, rows: Any, width: int
) -> None:
    plain = columnar.exact_dicts(rows)
    compiled, pure = both(lambda r: columnar.same_width(r, width, plain=plain), rows)
    assert compiled == pure == all(len(r) == width for r in rows)
    assert speedups.same_width(rows, width) == (plain and compiled)
    assert not speedups.same_width([{"a": 1}, 1], 1)  # not a dict: not a plain row


@pytest.mark.parametrize(
    "rows",
    [[{"a": 1}, {"b": 2}], [{"a": 1}, {"a": 1, "b": 2}], [{}, {}], ({"a": 1},),
     [{"a": 1}, OrderedDict(a=1)], [OrderedDict(a=1)], [{"a": 1}, 1], []],
    ids=["same", "one wider", "empty", "tuple", "a dict subclass", "only a subclass", "an int",
         "none"],
)  # fmt: skip
def test_a_row_width_is_told_only_of_plain_rows_of_one_width(speedups: Any, rows: Any) -> None:
    """``dict_width`` answers what ``exact_dicts`` and ``same_width`` answer together."""
    plain = bool(rows) and columnar.exact_dicts(rows)
    one = plain and columnar.same_width(rows, len(rows[0]), plain=True)
    assert columnar.dict_width(rows) == (len(rows[0]) if one else None)
    assert both(columnar.dict_width, rows)[1] is None  # pure Python: not known here


def test_rows_of_one_shape_are_walked_once_for_their_shape(
    speedups: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reading rows of one shape asks C once whether each is a plain dict of the first's width
    (not once for plain, again for the width); rows of two widths are asked both."""
    asked: list[str] = []

    class Counted:
        def __getattr__(self, name: str) -> Any:
            asked.append(name)
            return getattr(speedups, name)

    monkeypatch.setattr(columnar, "SPEEDUPS", Counted())
    assert read_rowset([{"a": 1, "b": 2}, {"b": 3, "a": 4}]).columns == ("a", "b")
    assert asked.count("exact_dicts") + asked.count("same_width") == 1
    asked.clear()
    assert read_rowset([{"a": 1}, {"b": 2, "a": 3}]).columns == ("a", "b")
    assert asked.count("exact_dicts") == 1 and asked.count("same_width") == 2
