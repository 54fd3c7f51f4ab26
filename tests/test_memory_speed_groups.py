"""A bucketed line's rows are grouped once: the groups that say whether its color is a label
(``facts.coverage_of_pairs``) are the groups its reduction takes (``reduce.key_groups``), and
each gives what the values give."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import chartkit.plan.lines as plan_lines
import chartkit.plan.reduce as plan_reduce
from chartkit import view
from chartkit.plan.facts import coverage, coverage_of_pairs
from chartkit.plan.reduce import key_groups, reduce_by_one_key, reduce_frame, sorted_codes

_SETTINGS = settings(
    max_examples=60, deadline=None, database=None, derandomize=True,
    suppress_health_check=list(HealthCheck),
)  # fmt: skip


@_SETTINGS
@given(st.lists(st.tuples(st.integers(0, 60), st.integers(0, 4)), min_size=1, max_size=300),
       st.sampled_from([1, 1000]))  # fmt: skip
def test_the_coverage_of_the_groups_is_the_coverage_of_the_values(
    pairs: list[tuple[int, int]], spread: int
) -> None:
    """Dense or sparse, the distinct pairs ``key_groups`` finds count the coverage the rows'
    values give."""
    times = pd.Series([t * spread for t, _ in pairs])
    labels = pd.Series([f"g{g}" for _, g in pairs])
    t, g = sorted_codes(times), sorted_codes(labels)
    assert t is not None and g is not None
    groups = key_groups(["t", "g"], [t, g])
    assert groups is not None
    assert coverage_of_pairs(groups.at, len(g[1])) == coverage(times, labels)


@_SETTINGS
@given(st.lists(st.tuples(st.integers(0, 40), st.sampled_from(["a", "b", None]),
                          st.floats(-1e6, 1e6)), min_size=1, max_size=200),
       st.sampled_from(["mean", "sum", "max", "count"]))  # fmt: skip
def test_rows_reduced_over_groups_made_first_are_the_group_by(
    rows: list[tuple[int, str | None, float]], how: str
) -> None:
    """Handed the groups made for the label question, the reduction gives the frame pandas'
    group-by gives; groups made over other keys are not taken."""
    data = pd.DataFrame(rows, columns=["t", "g", "y"])
    t, g = sorted_codes(data["t"]), sorted_codes(data["g"])
    assert t is not None and g is not None
    groups = key_groups(["t", "g"], [t, g])
    expected = reduce_frame(data, ["t", "g"], "y", how)
    got = reduce_by_one_key(data, ["t", "g"], "y", how, None, groups)
    assert got is not None
    pd.testing.assert_frame_equal(got, expected, check_dtype=False)
    other = reduce_by_one_key(data, ["g", "t"], "y", how, None, groups)  # not these keys
    assert other is not None
    pd.testing.assert_frame_equal(other, reduce_frame(data, ["g", "t"], "y", how),
                                  check_dtype=False)  # fmt: skip


def test_a_bucketed_line_colored_by_its_series_combines_its_rows_codes_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The coverage of a line's series and the line's means read one combination of each
    row's bucket and series: one int64 a row, counted once, not twice."""
    n = 20_000
    frame = pd.DataFrame(
        {
            "ts": pd.date_range("2024-01-01", periods=n, freq="s", tz="UTC"),
            "latency_ms": np.random.default_rng(7).gamma(4.0, 10.0, size=n),
            "region": np.tile(["eu", "us", "ap"], n // 3 + 1)[:n],
        }
    )
    decl = {"ts": "date", "latency_ms": "number", "region": "string"}
    calls: list[int] = []
    combined = plan_reduce.combined_codes

    def counted(factorized: list[tuple[object, object]]) -> object:
        calls.append(len(factorized))
        return combined(factorized)

    def rows_coded_again(times: object, labels: object) -> tuple[int, int]:
        raise AssertionError("the coverage coded the rows' pairs a second time")

    monkeypatch.setattr(plan_reduce, "combined_codes", counted)
    monkeypatch.setattr(plan_lines, "coverage_of_codes", rows_coded_again)
    v = view(frame, decl)
    assert v.mark == "line" and v.encodings["color"].column == "region"
    assert v.reduction is not None and v.reduction.aggregate == "mean"
    assert calls == [2]  # bucket and region, once


@_SETTINGS
@given(st.lists(st.one_of(st.none(), st.floats(allow_nan=True)), max_size=50),
       st.sampled_from(["float64", "float32", "datetime", "zoned", "text", "Float64"]))  # fmt: skip
def test_a_column_is_surely_complete_exactly_when_no_value_is_missing(
    values: list[float | None], kind: str
) -> None:
    """Told from a column's least value or Arrow's null count, never a mask of its rows:
    complete when ``isna`` finds nothing, for every dtype it answers (a masked one is left
    to ``isna``); the check and the chart's gap test read it so."""
    from chartkit.check.judge import surely_complete

    finite = [None if v is None or v != v or abs(v) > 1e15 else v for v in values]
    series = {
        "float64": lambda: pd.Series(values, dtype="float64"),
        "float32": lambda: pd.Series(finite, dtype="float32"),
        "datetime": lambda: pd.Series(pd.to_datetime(finite, unit="s")),
        "zoned": lambda: pd.Series(pd.to_datetime(finite, unit="s", utc=True)),
        "text": lambda: pd.Series([None if v is None else str(v) for v in finite], dtype="str"),
        "Float64": lambda: pd.Series(finite, dtype="Float64"),
    }[kind]()
    complete = not bool(series.isna().any())
    if kind == "Float64":
        assert not surely_complete(series) or complete
    else:
        assert surely_complete(series) == complete


def test_a_typed_frame_missing_one_value_is_flagged_wherever_it_is() -> None:
    """The check of a non-nullable typed column finds its one NaN, NaT or null (first,
    last, or between), and passes a nullable one without a look."""
    from chartkit import check_columns

    for at in (0, 500, 999):
        frame = pd.DataFrame(
            {
                "ts": pd.date_range("2024-01-01", periods=1000, freq="s", tz="UTC"),
                "v": np.arange(1000, dtype=float),
                "r": pd.Series(["a", "b"] * 500, dtype="str"),
            }
        )
        frame.loc[at, ["ts", "v", "r"]] = [pd.NaT, np.nan, None]
        found = check_columns(frame, {"ts": "date", "v": "number", "r": "string"})
        assert [(v.column, v.affected, v.sample_type) for v in found] == [
            ("ts", 1, "null"), ("v", 1, "null"), ("r", 1, "null")
        ]  # fmt: skip
        nullable = {"type": "number", "nullable": True}
        assert check_columns(frame, {"v": nullable}) == ()


def test_zones_are_counted_among_the_present_dates_of_text_held_by_arrow_or_python() -> None:
    """A date column of text counts its present values from Arrow's nulls (no mask), as an
    object column counts them from ``notna``: the same naive and zoned counts."""
    from chartkit.plan.facts import zone_counts

    texts = ["2024-05-13T02:00:00+02:00", "2024-05-13T01:00", None, "2024-05-13T03:00Z", None]
    assert zone_counts(pd.Series(texts, dtype="str")) == (1, 2)
    assert zone_counts(pd.Series(texts, dtype=object)) == (1, 2)


@_SETTINGS
@given(st.lists(st.integers(0, 99), min_size=1, max_size=300), st.integers(0, 5000))
def test_groups_of_codes_below_a_known_bound_are_the_groups_of_their_max(
    codes: list[int], extra: int
) -> None:
    """Told a bound the codes are below (their keys' sizes multiplied), ``group_codes`` finds
    the groups, their rows and each row's group that it finds from the codes' own max."""
    from chartkit.plan.reduce import group_codes

    code = np.array(codes, dtype=np.int64)
    bound = int(code.max()) + 1 + extra
    for got, want in zip(group_codes(code, bound), group_codes(code), strict=True):
        assert got.tolist() == want.tolist()
