"""A line's series counted from the keys' codes, and those codes reused by the reduction: the
same count as ``drop_duplicates`` and the same groups as ``groupby`` (``chartkit.plan.reduce``)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from chartkit.plan.reduce import bucket_codes, distinct_rows, group_codes, reduce_frame


def reference(data: pd.DataFrame, keys: list[str], fy: str, how: str) -> pd.DataFrame:
    grouped = data.groupby(keys, sort=True, dropna=False)
    if how == "count":
        return grouped.size().rename("count").reset_index()
    return grouped[fy].agg([how, "size"]).reset_index().rename(columns={how: fy, "size": "rows"})


def frame(seed: int, n: int = 300) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    ts = pd.Series(pd.to_datetime("2024-01-01") + pd.to_timedelta(rng.integers(0, 30, n), "h"))
    region = pd.Series(rng.choice(["b", "a", "c", "é"], n), dtype="str")
    region[rng.random(n) < 0.05] = None
    mixed = pd.Series(rng.choice(["x", "y"], n), dtype=object)  # None and NaN side by side
    mixed[rng.random(n) < 0.1] = None
    mixed[rng.random(n) < 0.1] = np.nan
    wide = pd.Series(rng.integers(0, 60, n))  # three of these make the codes sparse
    y = pd.Series(rng.gamma(2.0, 3.0, n))
    y[rng.random(n) < 0.05] = np.nan
    return pd.DataFrame(
        {
            "t": ts,
            "r": region,
            "o": mixed,
            "flag": rng.random(n) < 0.5,
            "cat": pd.Categorical(rng.choice(["u", "v"], n)),
            "w1": wide,
            "w2": wide.sample(frac=1, random_state=seed).to_numpy(),
            "w3": (wide * 7) % 59,
            "y": y,
        }
    )


KEYS = [["r"], ["o"], ["flag"], ["cat"], ["r", "flag"], ["r", "o"], ["w1", "w2", "w3"]]


@pytest.mark.parametrize("keys", KEYS)
@pytest.mark.parametrize("seed", range(3))
def test_the_series_are_counted_as_drop_duplicates_counts_them(keys: list[str], seed: int) -> None:
    data = frame(seed)
    n, _ = distinct_rows(data, keys)
    assert n == len(data.drop_duplicates(keys))


@pytest.mark.parametrize("how", ["mean", "sum", "median", "min", "max", "count"])
@pytest.mark.parametrize("keys", [["t", "r"], ["t", "r", "flag"], ["t", "w1", "w2", "w3"]])
def test_codes_counted_once_group_as_groupby_does(how: str, keys: list[str]) -> None:
    data = frame(7)
    _, known = distinct_rows(data, keys[1:])
    assert known  # these keys were factorized: the reduction reuses them
    got = reduce_frame(data, keys, "y", how, known)
    pd.testing.assert_frame_equal(got, reference(data, keys, "y", how))


def test_dense_codes_keep_the_sorted_order_whether_the_codes_are_sparse_or_not() -> None:
    for code in (np.array([5, 2, 5, 9, 2]), np.array([10**9, 3, 10**9, 7])):
        at, dense, sizes = group_codes(code)
        assert list(at) == sorted(set(code.tolist()))
        assert list(at[dense]) == list(code)
        assert list(sizes) == [code.tolist().count(c) for c in at]


@pytest.mark.parametrize("unit", ["s", "ms", "us", "ns"])
@pytest.mark.parametrize("seconds", [1, 1800, 86400])
def test_bucket_codes_are_the_sorted_factorization_of_floored_dates(
    unit: str, seconds: int
) -> None:
    rng = np.random.default_rng(seconds)
    raw = pd.Series(
        pd.to_datetime("2024-03-01") + pd.to_timedelta(rng.integers(0, 1500 * seconds, 500), "s")
    )
    times = raw.astype(f"datetime64[{unit}]").dt.floor(f"{seconds}s")
    got = bucket_codes(times, seconds)
    assert got is not None
    codes, found = got
    assert found.dtype == times.dtype and found.is_monotonic_increasing
    assert (found.take(codes) == pd.DatetimeIndex(times)).all()
    data = pd.DataFrame({"t": times, "r": rng.choice(["a", "b"], 500), "y": rng.random(500)})
    pd.testing.assert_frame_equal(
        reduce_frame(data, ["t", "r"], "y", "mean", {"t": got}),
        reference(data, ["t", "r"], "y", "mean"),
    )


def test_dates_off_their_buckets_or_missing_get_no_bucket_codes() -> None:
    times = pd.Series(pd.to_datetime(["2024-01-01 00:00", "2024-01-01 00:10"]))
    assert bucket_codes(times, 3600) is None  # 00:10 is not on an hour
    assert bucket_codes(pd.Series([times[0], pd.NaT]), 60) is None
    assert bucket_codes(times.dt.tz_localize("UTC"), 60) is None
    apart = pd.Series(pd.to_datetime(["2024-01-01", "2024-01-11"]))
    assert bucket_codes(apart, 1) is None  # 864,001 buckets for 2 dates: left to factorize
