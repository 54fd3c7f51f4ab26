"""A line's buckets grouped by one combined key: the same groups, order and values as
``groupby`` over every key (``chartkit.plan.reduce.reduce_frame``)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from chartkit.plan.reduce import reduce_by_one_key, reduce_frame


def reference(data: pd.DataFrame, keys: list[str], fy: str, how: str) -> pd.DataFrame:
    grouped = data.groupby(keys, sort=True, dropna=False)
    if how == "count":
        return grouped.size().rename("count").reset_index()
    return grouped[fy].agg([how, "size"]).reset_index().rename(columns={how: fy, "size": "rows"})


def frame(seed: int, n: int = 400) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    ts = pd.Series(pd.to_datetime("2024-01-01") + pd.to_timedelta(rng.integers(0, 40, n), "h"))
    ts[rng.random(n) < 0.05] = pd.NaT
    region = pd.Series(rng.choice(["b", "a", "c", "é"], n), dtype="str")
    region[rng.random(n) < 0.05] = None
    labels = pd.Series(rng.choice(["x", "y"], n), dtype=object)
    labels[rng.random(n) < 0.1] = None
    y = pd.Series(rng.gamma(2.0, 3.0, n))
    y[rng.random(n) < 0.05] = np.nan
    return pd.DataFrame({"t": ts, "r": region, "o": labels, "flag": rng.random(n) < 0.5, "y": y})


@pytest.mark.parametrize("how", ["mean", "sum", "median", "min", "max", "count"])
@pytest.mark.parametrize("keys", [["t", "r"], ["t", "o"], ["r", "flag"], ["t", "r", "o"]])
@pytest.mark.parametrize("seed", range(3))
def test_one_combined_key_groups_as_groupby_does(how: str, keys: list[str], seed: int) -> None:
    data = frame(seed)
    got = reduce_by_one_key(data, keys, "y", how)
    assert got is not None
    pd.testing.assert_frame_equal(got, reference(data, keys, "y", how))
    pd.testing.assert_frame_equal(reduce_frame(data, keys, "y", how), got)


@pytest.mark.parametrize("how", ["mean", "count"])
def test_keys_of_mixed_types_group_as_groupby_does(how: str) -> None:
    data = pd.DataFrame(
        {"a": [1, "x", 1, "x", None], "b": ["p", "q", "p", "q", "p"], "y": [1.0, 2, 3, 4, 5]}
    )
    pd.testing.assert_frame_equal(
        reduce_frame(data, ["a", "b"], "y", how), reference(data, ["a", "b"], "y", how)
    )
