"""view()'s fast paths give the View the paths they replace give: the same spec, notes, reason
and rows left out, on the edge cases where they could part (``chartkit.decide`` and
``chartkit.plan.reduce``: buckets, codes, numbers and labels; ``chartkit._safe``: a chart's
rows made renderable, a frame made workable)."""

from __future__ import annotations

import copy
from collections import Counter
from decimal import Decimal
from typing import Any

import numpy as np
import pandas as pd
import pytest

import chartkit.backends.memory as memory
import chartkit.plan.bins as plan_bins
import chartkit.plan.choose as plan_choose
import chartkit.plan.cleaning as plan_cleaning
import chartkit.plan.kit as plan_kit
import chartkit.plan.lines as plan_lines
import chartkit.plan.reduce as plan_reduce
from chartkit import View, _safe, view
from chartkit._safe import renderable, visible, workable_frame
from chartkit.plan.reduce import bucket_codes, reduce_by_one_key, reduce_frame


def same_view(a: View, b: View) -> None:
    assert (a.kind, a.reason, a.mark) == (b.kind, b.reason, b.mark)
    assert a.notes == b.notes and a.left_out == b.left_out and a.refusals == b.refusals
    assert a.facts == b.facts and a.reduction == b.reduction  # the notes and reduction as values
    assert dict(a.encodings) == dict(b.encodings) and dict(a.options) == dict(b.options)
    assert a.spec == b.spec


def slow_view(monkeypatch: pytest.MonkeyPatch, data: Any, decl: Any, **kw: Any) -> View:
    """The view as the replaced path makes it: dates floored by pandas, then grouped."""
    with monkeypatch.context() as m:
        m.setattr(plan_lines, "bucket_codes", lambda *a, **k: None)
        m.setattr(memory, "bucket_codes", lambda *a, **k: None)
        return view(data, decl, **kw)


def series(n: int, *, start: str = "2024-03-30", freq: str = "37s", tz: str | None = "UTC",
           regions: int = 3, seed: int = 0) -> pd.DataFrame:  # fmt: skip
    rng = np.random.default_rng(seed)
    return pd.DataFrame(
        {
            "ts": pd.date_range(start, periods=n, freq=freq, tz=tz),
            "v": rng.gamma(2.0, 5.0, n),
            "r": [f"r{i % regions}" for i in range(n)],
        }
    )


DECL = {"ts": "date", "v": "number", "r": "string"}


def with_gaps(frame: pd.DataFrame) -> pd.DataFrame:
    out = frame.copy()
    out.loc[::7, "ts"] = pd.NaT
    out.loc[::5, "v"] = np.nan
    out.loc[::11, "r"] = None
    return out


CASES = {
    "utc": series(900),
    "naive": series(900, tz=None),
    "paris across DST": series(900, start="2024-03-31 00:30", freq="20s", tz="Europe/Paris"),
    "new york, fall back": series(900, start="2024-11-03 05:00", tz="America/New_York"),
    "before 1970": series(900, start="1969-12-31 23:00", tz=None),
    "NaT, NaN and no region": with_gaps(series(900)),
    "one series": series(900, regions=1),
    "many series (facets)": series(900, regions=14),
    "one row per region": series(900, regions=900),
    "one date": series(900).assign(ts=pd.Timestamp("2024-05-01", tz="UTC")),
    "on bucket boundaries": series(900, start="2024-01-01", freq="60s"),
    "nanoseconds apart": series(900, freq="1ns"),
    "milliseconds unit": series(900).astype({"ts": "datetime64[ms, UTC]"}),
}


@pytest.mark.parametrize("name", CASES)
def test_a_bucketed_line_is_the_view_pandas_floor_and_groupby_give(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    frame = CASES[name]
    for kw in ({}, {"aggregate": "max"}, {"aggregate": "count"}, {"facet": "r"}, {"y": "v"}):
        fast = view(frame, DECL, max_points=100, **kw)
        same_view(fast, slow_view(monkeypatch, frame, DECL, max_points=100, **kw))


@pytest.mark.parametrize("name", CASES)
def test_a_line_per_time_unit_is_the_view_pandas_floor_and_groupby_give(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    frame = CASES[name]
    for kw in (
        {"time_unit": "minute"},
        {"time_unit": "hour"},
        {"time_unit": "hour", "aggregate": "median"},
        {"time_unit": "day", "aggregate": "count"},
        {"time_unit": "hour", "color": "r", "x": "ts", "y": "v"},
        {"time_unit": "minute", "facet": "r"},
        {"time_unit": "month"},
    ):
        fast = view(frame, DECL, **kw)
        same_view(fast, slow_view(monkeypatch, frame, DECL, **kw))


def test_a_bucketed_line_from_rows_with_iso_dates_is_the_same_view(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    frame = series(600, start="2024-10-27 00:00", freq="23s", tz="Europe/Berlin")
    rows = frame.assign(ts=frame["ts"].map(lambda t: t.isoformat())).to_dict("records")
    rows[3]["ts"] = None
    rows[8]["v"] = "n/a"  # an offender, left out and noted
    fast = view(rows, DECL, max_points=100)
    assert fast.kind == "chart" and fast.left_out == 2
    same_view(fast, slow_view(monkeypatch, rows, DECL, max_points=100))


def test_one_row_and_an_all_null_series_are_the_same_view(monkeypatch: pytest.MonkeyPatch) -> None:
    one = series(1)
    same_view(view(one, DECL, max_points=100), slow_view(monkeypatch, one, DECL, max_points=100))
    empty = series(400).assign(r=None)
    same_view(
        view(empty, DECL, max_points=100), slow_view(monkeypatch, empty, DECL, max_points=100)
    )


def reference(data: pd.DataFrame, keys: list[str], fy: str, how: str) -> pd.DataFrame:
    grouped = data.groupby(keys, sort=True, dropna=False)
    if how == "count":
        return grouped.size().rename("count").reset_index()
    return grouped[fy].agg([how, "size"]).reset_index().rename(columns={how: fy, "size": "rows"})


@pytest.mark.parametrize("unit", ["s", "ms", "us", "ns"])
@pytest.mark.parametrize("seconds", [1, 60, 1800, 86400])
def test_floored_bucket_codes_are_the_factorization_of_pandas_floor(
    unit: str, seconds: int
) -> None:
    rng = np.random.default_rng(seconds)
    offsets = pd.to_timedelta(rng.integers(-1500 * seconds, 1500 * seconds, 500), "s")
    times = pd.Series(pd.Timestamp("1970-01-01 00:00:00.5") + offsets).astype(f"datetime64[{unit}]")
    times[:3] = times[0].floor(f"{seconds}s")  # dates on a boundary, and just past it
    times[3] = times[0].floor(f"{seconds}s") - pd.Timedelta(1, unit)
    got = bucket_codes(times, seconds, floor=True)
    assert got is not None
    codes, found = got
    floored = times.dt.floor(f"{seconds}s")
    assert found.dtype == times.dtype and found.is_monotonic_increasing
    assert (found.take(codes) == pd.DatetimeIndex(floored)).all()
    data = pd.DataFrame({"t": times, "r": rng.choice(["a", "b"], 500), "y": rng.random(500)})
    for keys in (["t", "r"], ["t"]):
        for how in ("mean", "sum", "median", "min", "max", "count"):
            pd.testing.assert_frame_equal(
                reduce_by_one_key(data, keys, "y", how, {"t": got}),
                reference(data.assign(t=floored), keys, "y", how),
            )


def test_floored_bucket_codes_refuse_what_the_arithmetic_cannot_floor() -> None:
    times = pd.Series(pd.to_datetime(["2024-01-01 00:00", "2024-01-01 00:10"]))
    assert bucket_codes(times, 3600, floor=True) is not None  # floored, not refused
    assert bucket_codes(pd.Series([times[0], pd.NaT]), 60, floor=True) is None
    assert bucket_codes(times.dt.tz_localize("UTC"), 60, floor=True) is None
    apart = pd.Series(pd.to_datetime(["2024-01-01", "2024-01-11"]))
    assert bucket_codes(apart, 1, floor=True) is None


def test_a_reduction_of_one_value_or_one_row_groups_as_groupby_does() -> None:
    for data in (
        pd.DataFrame({"t": pd.to_datetime(["2024-01-01"] * 4), "r": ["a"] * 4, "y": [1.0] * 4}),
        pd.DataFrame({"t": pd.to_datetime(["2024-01-01"]), "r": ["a"], "y": [np.nan]}),
    ):
        for how in ("mean", "sum", "count"):
            pd.testing.assert_frame_equal(
                reduce_frame(data, ["t", "r"], "y", how), reference(data, ["t", "r"], "y", how)
            )


TEXTS = {
    "regions": ["eu-west-1", "us-east-1", "ap-south-1"] * 40,
    "one value": ["only"] * 50,
    "one row": ["x"],
    "case, accents, emoji, empty": ["b", "B", "é", "e", "", "😀", "ä", "Z", "a"] * 7,
    "many": [f"v{i:04d}" for i in range(3000)][::-1],
}


@pytest.mark.parametrize("dtype", ["str", "string[pyarrow]"])
@pytest.mark.parametrize("name", TEXTS)
def test_text_held_by_pyarrow_is_coded_as_pandas_factorize_codes_it(name: str, dtype: str) -> None:
    values = pd.Series(TEXTS[name], dtype=dtype)
    if not isinstance(values.array, pd.arrays.ArrowStringArray):
        pytest.skip("pandas keeps this dtype out of pyarrow")
    chunked = pd.concat([values.iloc[: len(values) // 2], values.iloc[len(values) // 2 :]])
    for column in (values, chunked.reset_index(drop=True)):
        got = plan_reduce._text_codes(column)
        assert got is not None
        codes, found = pd.factorize(column, sort=True, use_na_sentinel=False)
        pd.testing.assert_index_equal(got[1], found, exact=True)
        assert got[0].tolist() == codes.tolist()


def test_text_with_a_missing_value_is_left_to_pandas_factorize() -> None:
    assert plan_reduce._text_codes(pd.Series(["a", None, "b"], dtype="str")) is None
    assert plan_reduce._text_codes(pd.Series(["a", "b"], dtype=object)) is None


def walked(value: Any) -> Any:
    """``renderable``'s walk as it was, string by string (the reference)."""
    if isinstance(value, str):
        return visible(value)
    if isinstance(value, dict):
        return {visible(k) if isinstance(k, str) else k: walked(v) for k, v in value.items()}
    if isinstance(value, list):
        return [walked(v) for v in value]
    return value


class Text(str):
    pass


ODD_ROWS = {
    "plain": {},
    "a control character in a value": {"r": "a\x05b"},
    "a line separator in a key": {"k\u2028": 1},
    "a lone surrogate": {"r": "\ud800"},
    "a bidi override": {"r": "\u202eevil"},
    "nested list": {"r": ["a\x01"]},
    "nested dict": {"r": {"x\n": 1}},
    "a tuple": {"r": ("a\x01",)},
    "a text subclass": {"r": Text("x\x02")},
    "a number key": {3: "a"},
    "numpy scalar": {"v": np.float64(2.5)},
    "booleans and null": {"r": True, "v": None},
}


@pytest.mark.parametrize("odd", ODD_ROWS)
@pytest.mark.parametrize("n", [3, 15, 16, 500])
def test_a_chart_s_rows_are_made_renderable_as_the_walk_makes_them(odd: str, n: int) -> None:
    rows: list[Any] = [
        {"ts": f"2024-01-01T00:{i % 60:02d}:00.000", "r": f"r{i % 3}", "v": i / 7, "rows": i}
        for i in range(n)
    ]
    rows[n // 2] = {**rows[n // 2], **ODD_ROWS[odd]}
    spec = {"datasets": {"data-1": rows}, "encoding": {"x": {"field": "ts", "title": "t\\s"}}}
    before = copy.deepcopy(spec)
    got = renderable(spec)
    assert got["datasets"] == walked(spec["datasets"])
    assert got["datasets"]["data-1"] is not rows and got["datasets"]["data-1"][0] is not rows[0]
    assert spec == before  # the spec given is not changed


def test_a_list_of_dict_subclasses_is_walked() -> None:
    from collections import OrderedDict

    rows = [OrderedDict(r=f"x{i}\x03") for i in range(20)]
    assert renderable({"v": rows})["v"] == walked(rows)


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "uint8"])
def test_plain_numbers_are_placed_as_the_value_by_value_path_places_them(dtype: str) -> None:
    frame = series(400)
    v = frame["v"].to_numpy().copy()
    if dtype.startswith("float"):
        v[[3, 50, 77]] = [np.inf, -np.inf, np.nan]
    frame = frame.assign(v=v.astype(dtype) if dtype.startswith("float") else (v * 3).astype(dtype))
    scalars = pd.Series(list(frame["v"].to_numpy()), dtype=object)  # numpy's own scalars
    objects = frame.assign(v=scalars)  # each value judged on its own
    for kw in ({}, {"x": "r"}, {"y": "v", "x": "v"}):
        for max_points in (100, 5000):
            same_view(
                view(frame, DECL, max_points=max_points, **kw),
                view(objects, DECL, max_points=max_points, **kw),
            )


@pytest.mark.parametrize("unit", ["s", "ms", "us", "ns"])
def test_the_bucket_is_picked_from_the_span_pandas_measures(unit: str) -> None:
    rng = np.random.default_rng(3)
    reach = 2**40 if unit != "ns" else 2**62
    for _ in range(200):
        times = pd.Series(np.sort(rng.integers(-reach, reach, 5)).astype(f"datetime64[{unit}]"))
        span = (times.max() - times.min()).total_seconds()
        for target in (1, 100, 5000):
            buckets = plan_choose.BUCKETS_SECONDS
            expected = next((s for s in buckets if span / s + 1 <= target), buckets[-1])
            assert plan_reduce.span_bucket_seconds(times, target) == expected
    gap = pd.Series(pd.to_datetime(["2024-01-01", None, "2024-01-03"]))
    assert (
        plan_reduce.span_bucket_seconds(gap, 3) == 86400
    )  # NaT skipped, as pandas' min and max do
    zoned = gap.dt.tz_localize("Europe/Paris")
    assert plan_reduce.span_bucket_seconds(zoned, 3) == 86400


def test_codes_that_are_all_held_are_their_own_dense_codes() -> None:
    for code in (np.array([1, 0, 2, 1, 2]), np.array([0]), np.arange(70_000)[::-1] // 2):
        at, dense, sizes = plan_reduce.group_codes(code)
        held = Counter(code.tolist())
        assert list(at) == sorted(held) and list(at[dense]) == list(code)
        assert list(sizes) == [held[c] for c in at.tolist()]


@pytest.mark.parametrize("seconds", [60, 3600, 86400])
def test_rows_are_counted_as_drop_duplicates_counts_them_with_bucket_codes_given(
    seconds: int,
) -> None:
    rng = np.random.default_rng(seconds)
    ticks = rng.integers(0, 40 * seconds, 300)
    times = pd.Series(pd.Timestamp("2024-03-01") + pd.to_timedelta(ticks, "s"))
    data = pd.DataFrame(
        {
            "t": times.dt.floor(f"{seconds}s"),
            "r": pd.Series(rng.choice(["a", "b", "c"], 300), dtype="str"),
            "o": pd.Series(rng.choice(["x", None], 300), dtype=object),
        }
    )
    given = {"t": bucket_codes(data["t"], seconds)}
    assert given["t"] is not None
    for keys in (["t"], ["t", "r"], ["t", "o"], ["t", "r", "o"]):
        n, known = plan_reduce.distinct_rows(data, keys, given)
        assert n == len(data.drop_duplicates(keys))
        if known:
            pd.testing.assert_frame_equal(
                reduce_frame(data.assign(y=1.0), keys, "y", "sum", known),
                reference(data.assign(y=1.0), keys, "y", "sum"),
            )


def objects(values: list[Any], n: int = 300) -> pd.Series:
    column = np.empty(n, dtype=object)
    column[:] = [values[i % len(values)] for i in range(n)]
    return pd.Series(column, dtype=object)


OBJECT_COLUMNS = {
    "ascii text": ["eu-west-1", "us-east-1"],
    "text and None": ["eu", None, "us"],
    "accents": ["é", "ü", "a"],
    "a lone surrogate": ["a", "b\ud800c", None],
    "text and numbers": ["a", 7, 2.5, True, None],
    "text and NaN": ["a", np.nan],
    "a str subclass with a surrogate": ["a", Text("x\udc00")],
    "a signalling Decimal NaN": [Decimal("sNaN"), Decimal("1.5")],
    "plain Decimals": [Decimal("1.5"), "a"],
}


@pytest.mark.parametrize("name", OBJECT_COLUMNS)
def test_a_frame_is_made_workable_as_the_value_by_value_path_makes_it(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    frame = pd.DataFrame({"c": objects(OBJECT_COLUMNS[name]), "n": np.arange(300.0)})
    fast = workable_frame(frame)
    with monkeypatch.context() as m:
        m.setattr(_safe, "_plainly_workable", lambda values: False)
        slow = workable_frame(frame)
    assert (fast is frame) == (slow is frame)
    assert fast["c"].tolist() == slow["c"].tolist() or name == "a signalling Decimal NaN"
    assert list(map(repr, fast["c"])) == list(map(repr, slow["c"]))


@pytest.mark.parametrize("name", ["ascii text", "text and None", "accents", "text and numbers"])
def test_labels_of_text_held_as_objects_are_the_value_by_value_labels(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    frame = series(900).assign(r=objects(OBJECT_COLUMNS[name], 900))
    decl = {**DECL, "r": "string"} if name != "text and numbers" else {"ts": "date", "v": "number"}
    for kw in ({}, {"x": "r"}, {"color": "r"}, {"max_points": 100}):
        fast = view(frame, decl, **kw)
        with monkeypatch.context() as m:
            m.setattr(plan_cleaning, "_TEXT_OR_NONE", frozenset())
            slow = view(frame, decl, **kw)
        same_view(fast, slow)


@pytest.mark.parametrize(
    "extra",
    [
        [],
        [None],
        [np.nan, None],
        [np.inf, -np.inf, 1.7976931348623157e308],
        [3, 2**80],  # ints: judged value by value
        ["n/a", "12"],  # offenders, left out first
    ],
)
def test_numbers_held_as_objects_are_the_numbers_the_value_by_value_path_reads(
    extra: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    frame = series(900)
    column = frame["v"].to_numpy(dtype=object)
    for i, value in enumerate(extra):
        column[7 + 13 * i] = value
    frame = frame.assign(v=pd.Series(column, dtype=object))
    for kw in ({}, {"x": "r"}, {"max_points": 100}, {"x": "v", "y": "v"}):
        fast = view(frame, DECL, **kw)
        with monkeypatch.context() as m:
            m.setattr(plan_reduce, "_FLOAT_OR_NONE", frozenset())
            slow = view(frame, DECL, **kw)
        same_view(fast, slow)


def test_dates_whose_bucket_starts_before_numpy_s_first_date_are_left_to_pandas() -> None:
    times = pd.Series(np.array([-(2**63) + 5, -(2**63) + 10**12]).view("M8[ns]"))
    assert bucket_codes(times, 1800, floor=True) is None


def test_a_span_too_long_for_a_timedelta_is_measured_on_python_datetimes() -> None:
    times = pd.Series(pd.to_datetime(["1680-01-01", "2260-01-01"])).astype("datetime64[ns]")
    assert (
        plan_reduce.span_bucket_seconds(times, 100) == 365 * 86400
    )  # not pandas' OutOfBoundsDatetime
    assert plan_reduce.span_bucket_seconds(times.astype("datetime64[us]"), 100) == 365 * 86400


@pytest.mark.parametrize("how", ["mean", "sum", "median", "min", "max", "count"])
def test_one_key_with_its_codes_counted_groups_as_groupby_does(how: str) -> None:
    rng = np.random.default_rng(11)
    n = 400
    region = pd.Series(rng.choice(["b", "a", "é", "c"], n), dtype="str")
    gappy = region.copy()
    gappy[rng.random(n) < 0.1] = None
    y = pd.Series(rng.gamma(2.0, 3.0, n))
    y[rng.random(n) < 0.05] = np.nan
    data = pd.DataFrame(
        {
            "r": region,
            "g": gappy,
            "flag": rng.random(n) < 0.5,
            "f": rng.choice([1.5, np.nan, -2.0], n),
            "i": rng.integers(0, 9, n),
            "t": pd.Timestamp("2024-01-01") + pd.to_timedelta(rng.integers(0, 30, n), "h"),
            "y": y,
        }
    )
    data["z"] = data["t"].dt.tz_localize("Europe/Paris")
    for key in ("r", "g", "flag", "f", "i", "t", "z"):
        _, known = plan_reduce.distinct_rows(data, [key])
        assert key in known
        pd.testing.assert_frame_equal(
            reduce_frame(data, [key], "y", how, known), reference(data, [key], "y", how)
        )


@pytest.mark.parametrize("shuffled", [False, True])
def test_a_line_of_distinct_dates_is_ordered_by_its_dates_whether_given_in_order_or_not(
    shuffled: bool,
) -> None:
    frame = series(300, regions=1)
    if shuffled:
        frame = frame.sample(frac=1, random_state=1)
    v = view(frame, DECL)
    assert v.spec is not None
    plotted = v.spec["datasets"][v.spec["data"]["name"]]
    assert [r["ts"] for r in plotted] == sorted(r["ts"] for r in plotted)
    assert v.spec == view(series(300, regions=1), DECL).spec


def lone_measure(values: np.ndarray[Any, Any]) -> pd.DataFrame:
    return pd.DataFrame({"v": values})


MEASURES = {
    "continuous": np.random.default_rng(5).normal(size=3000),
    "14 values": np.tile(np.arange(14.0), 220),
    "15 values, the head holding 3": np.r_[np.tile([1.0, 2.0, 3.0], 400), np.arange(15.0)],
    "15 values in the head": np.r_[np.arange(15.0), np.zeros(3000)],
    "-0.0 beside 0.0": np.r_[np.zeros(1500), -np.zeros(1500), np.arange(13.0)],
}


@pytest.mark.parametrize("name", MEASURES)
def test_a_lone_measure_is_binned_or_counted_as_all_its_distinct_values_say(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    frame = lone_measure(MEASURES[name])
    fast = view(frame, {"v": "number"})
    with monkeypatch.context() as m:
        m.setattr(plan_bins, "_HEAD", 10**9)  # every row looked at, from the first
        same_view(fast, view(frame, {"v": "number"}))


def pairs() -> dict[str, tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]]:
    rng = np.random.default_rng(17)
    n = 5000
    tiny = 1.0 + np.arange(n) % 3 * 1e-15  # edges that repeat: linspace cannot split them
    return {
        "normal and gamma": (rng.normal(size=n), rng.gamma(2.0, 3.0, n)),
        "integers on the edges": (rng.integers(0, 40, n) * 1.0, rng.integers(-80, 0, n) * 2.0),
        "one value": (np.full(n, 3.0), rng.normal(size=n)),
        "two rows": (np.array([0.0, 1.0]), np.array([5.0, -5.0])),
        "tiny span": (tiny, tiny[::-1].copy()),
        "huge magnitudes": (rng.normal(size=n) * 1e300, rng.normal(size=n) * 1e-300),
        "thirds": (np.arange(n) / 3.0, np.arange(n)[::-1] / 7.0),
        "heavy tail": (rng.pareto(0.5, n), rng.standard_cauchy(n)),
        # a span of subnormal numbers: bins / span overflows to infinity (found by
        # test_defaults_engines: 0.0 and 2.2e-311 in one column raised an IndexError)
        "subnormal span": (np.where(np.arange(n) % 9, 0.0, 2.2250738585e-311), rng.normal(size=n)),
    }


def cells_of(counts: Any) -> Any:
    """A heatmap's cells that hold rows, as ``ArrayCounts.per_bin`` gives them, from numpy's
    full matrix of counts."""
    ix, iy = np.nonzero(counts)
    return (ix, iy), counts[ix, iy].astype(int)


@pytest.mark.parametrize("name", list(pairs()))
@pytest.mark.parametrize("bins", [2, 7, 40])
def test_a_heatmap_counts_each_cell_as_numpy_s_histogram2d_does(name: str, bins: int) -> None:
    x, y = pairs()[name]
    xe = plan_bins.cell_edges(float(x.min()), float(x.max()), bins)
    ye = plan_bins.cell_edges(float(y.min()), float(y.max()), bins)
    counts, nx, ny = np.histogram2d(x, y, bins=[bins, bins])  # numpy's edges, from the values
    np.testing.assert_array_equal(xe, nx)
    np.testing.assert_array_equal(ye, ny)
    (gx, gy), got = plan_bins.ArrayCounts({"x": x, "y": y}).per_bin(("x", "y"), (xe, ye))
    (wx, wy), want = cells_of(counts)
    for a, b in ((gx, wx), (gy, wy), (got, want)):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("name", list(pairs()))
@pytest.mark.parametrize("bins", [2, 10])
def test_a_histogram_counts_each_bin_as_numpy_s_histogram_does(name: str, bins: int) -> None:
    for values in pairs()[name]:
        lo, hi = float(values.min()), float(values.max())
        try:
            want, numpy_edges = np.histogram(values, bins=plan_choose.bin_edges(lo, hi, bins))
        except ValueError:  # too many bins for a span of a few floats: numpy's error, as numpy
            with pytest.raises(ValueError, match="Too many bins"):
                plan_bins.histogram_edges(lo, hi, bins)
            continue
        edges = plan_bins.histogram_edges(lo, hi, bins)
        np.testing.assert_array_equal(edges, numpy_edges)
        (at,), held = plan_bins.ArrayCounts({"v": values}).per_bin(("v",), (edges,))
        got = np.zeros(len(edges) - 1, dtype=int)
        got[at] = held
        np.testing.assert_array_equal(got, want)


def test_a_heatmap_over_edges_numpy_cannot_space_evenly_is_numpy_s_own() -> None:
    x = np.array([-1.7e308, 0.0, 1.7e308])
    edges = plan_bins.cell_edges(-1.7e308, 1.7e308, 4)  # the span overflows: weighted edges
    assert np.isfinite(edges).all()
    (gx, gy), got = plan_bins.ArrayCounts({"x": x}).per_bin(("x", "x"), (edges, edges))
    (wx, wy), want = cells_of(np.histogram2d(x, x, bins=[edges, edges])[0])
    for a, b in ((gx, wx), (gy, wy), (got, want)):
        np.testing.assert_array_equal(a, b)


def test_a_heatmap_view_is_the_view_numpy_s_binary_search_gives(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    x, y = pairs()["integers on the edges"]
    frame = pd.DataFrame({"a": x, "b": y, "r": [f"r{i % 3}" for i in range(len(x))]})
    decl = {"a": "number", "b": "number", "r": "string"}
    fast = view(frame, decl, x="a", y="b", max_points=400)
    assert fast.mark == "rect"
    with monkeypatch.context() as m:
        m.setattr(plan_bins, "_guessed", lambda values, edges, n: None)  # searchsorted alone
        same_view(fast, view(frame, decl, x="a", y="b", max_points=400))


@pytest.mark.parametrize("n", [1, 2, 500])
@pytest.mark.parametrize("fields", [["a"], ["a", "b"], ["b_2", "a", "c"]])
def test_measure_names_are_the_names_melt_s_column_maps_to(n: int, fields: list[str]) -> None:
    rng = np.random.default_rng(n)
    wide = pd.DataFrame({"t": np.arange(n), **{f: rng.normal(size=n) for f in fields}})
    long = wide.melt(id_vars=["t"], value_vars=fields, var_name="measure", value_name="value")
    names = {f: f"{f}.name é" for f in fields}
    got = plan_kit._stacked_names(long["measure"], fields, names, n)
    pd.testing.assert_series_equal(got, long["measure"].map(names))
    shuffled = long["measure"].sample(frac=1, random_state=n)  # not stacked: mapped row by row
    pd.testing.assert_series_equal(
        plan_kit._stacked_names(shuffled, fields, names, n), shuffled.map(names)
    )


def test_several_measures_are_drawn_with_their_own_names(monkeypatch: pytest.MonkeyPatch) -> None:
    frame = series(900).assign(**{"w.x": lambda f: f["v"] * 2, "n y": np.nan})
    frame.loc[::3, "w.x"] = np.nan
    decl = {**DECL, "w.x": "number", "n y": "number"}
    for kw in ({"y": ["v", "w.x"]}, {"y": ["w.x", "v"], "x": "r"}, {"y": ["v", "n y"]}):
        for max_points in (100, 5000):
            fast = view(frame, decl, max_points=max_points, **kw)
            with monkeypatch.context() as m:
                m.setattr(plan_cleaning, "_stacked_names", lambda f, s, names, n: f.map(names))
                same_view(fast, view(frame, decl, max_points=max_points, **kw))


@pytest.mark.parametrize("tz", [None, "UTC", "Europe/Paris"])
def test_dates_spanning_more_than_a_nanosecond_timedelta_get_their_buckets(tz: str | None) -> None:
    """Nanosecond dates 550 years apart: their span does not fit a pandas Timedelta (292
    years), so the bucket is measured on Python datetimes — a chart, not an error."""
    times = pd.to_datetime(["1700-01-01", "2000-01-01", "2250-01-01"]).as_unit("ns")
    if tz is not None:
        times = times.tz_localize(tz)
    frame = pd.DataFrame({"t": np.resize(times.array, 9000), "v": np.tile([1.0, 2.0, 3.0], 3000)})
    v = view(frame, {"t": "date", "v": "number"})
    assert v.kind == "chart"
    # 550 years on a 560-pixel chart: 365-day buckets counted from the epoch
    assert v.reason.endswith("a line over time of the mean per 365-day bucket.")
    assert v.spec is not None
    points = v.spec["datasets"][v.spec["data"]["name"]]
    assert [(p["t"][:10], p["v"], p["rows"]) for p in points] == [
        ("1699-03-07", 1.0, 3000),
        ("1999-12-25", 2.0, 3000),
        ("2249-10-25", 3.0, 3000),
    ]
