"""The plan as values: mark, channels, the reduction behind it, and structured notes whose
fields say what their sentence says (no English to parse)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from chartkit.columns import normalize_result_columns
from chartkit.plan.decide import ChartOptions, plan_view
from chartkit.plan.encode import profile_columns
from chartkit.plan.spec import NOTE_KINDS, Note, Reduction


def plan(frame: pd.DataFrame, decl: dict[str, str], **kw: object):  # type: ignore[no-untyped-def]
    from chartkit import check_columns

    d = normalize_result_columns(decl)
    found = check_columns(frame, d)
    return plan_view(frame, profile_columns(frame, d, found), **kw)  # type: ignore[arg-type]


def series(n: int) -> pd.DataFrame:
    rng = np.random.default_rng(0)
    return pd.DataFrame(
        {
            "ts": pd.date_range("2024-01-01", periods=n, freq="min", tz="UTC"),
            "ms": rng.normal(100, 10, n),
            "region": rng.choice(["eu", "us", "ap"], n),
        }
    )


def test_a_bucketed_line_says_so_in_fields_and_in_its_reduction() -> None:
    every_minute = series(20_000).assign(region=["eu", "us", "ap", "sa"] * 5000)
    every_minute["ts"] = every_minute["ts"].iloc[::4].repeat(4).to_numpy()  # each region's
    p = plan(every_minute, {"ts": "date", "ms": "number", "region": "string"}, max_points=1000)
    spec = p.spec
    assert (spec.kind, spec.mark) == ("chart", "line")
    assert [(c.channel, c.column) for c in spec.channels] == [
        ("x", "ts"), ("y", "ms"), ("color", "region"),
    ]  # fmt: skip
    (bucketed,) = spec.by_kind()["bucketed"]
    assert bucketed.column == "ts"
    assert bucketed.count("rows") == 20_000
    seconds = bucketed.count("seconds")
    assert seconds is not None and spec.reduction.bucket_seconds == seconds
    assert bucketed.count("points") == len(p.data)  # type: ignore[arg-type]
    assert f"{bucketed.count('rows'):,} rows are drawn as {bucketed.count('points'):,} points" in (
        bucketed.sentence
    )
    assert spec.reduction == Reduction(
        keys=("ts", "region"), aggregate="mean", bucket_seconds=seconds
    )
    assert [n.sentence for n in spec.notes] == list(p.notes)


def test_offenders_left_out_are_a_note_with_their_counts() -> None:
    frame = pd.DataFrame({"k": ["a", "b", "a", "b"], "v": [1.0, "x", 3.0, 4.0]})
    p = plan(frame, {"k": "string", "v": "number"})
    (left,) = p.spec.by_kind()["left-out"]
    assert (left.column, left.count("rows"), left.count("of")) == ("v", 1, 4)
    assert left.sentence.startswith("1 of 4 rows is left out of the ")
    assert left.to_dict() == {
        "kind": "left-out", "column": "v", "counts": {"rows": 1, "of": 4},
        "sentence": left.sentence,
    }  # fmt: skip


def test_bars_cut_to_the_top_thirty_name_the_count_and_the_cut() -> None:
    frame = pd.DataFrame({"k": [f"k{i}" for i in range(40)] * 2, "v": np.arange(80.0)})
    p = plan(frame, {"k": "string", "v": "number"})
    (top,) = p.spec.by_kind()["top"]
    assert (top.column, top.count("values"), top.count("shown")) == ("k", 40, 30)
    assert p.spec.reduction.top == 30
    assert p.spec.reduction.keys == ("k",) and p.spec.reduction.aggregate == "mean"


def test_a_heatmap_and_a_histogram_carry_their_bins() -> None:
    rng = np.random.default_rng(1)
    frame = pd.DataFrame({"a": rng.normal(size=20_000), "b": rng.normal(size=20_000)})
    p = plan(frame, {"a": "number", "b": "number"}, max_points=1000)
    assert p.mark == "rect" and p.spec.reduction.bins == (31, 31)
    (heat,) = p.spec.by_kind()["heatmap"]
    assert (heat.count("rows"), heat.count("bins")) == (20_000, 31)
    h = plan(frame[["a"]], {"a": "number"})
    assert h.spec.reduction.bins == (10,)


def test_every_note_kind_is_one_of_the_named_kinds() -> None:
    frame = pd.DataFrame({"k": ["a", "b", "a", None], "v": [1.0, np.inf, 3.0, None]})
    p = plan(frame, {"k": "string", "v": "number", "w": "number"}, options=ChartOptions(sort="x"))
    assert p.facts and all(isinstance(n, Note) and n.kind in NOTE_KINDS for n in p.facts)
    assert [n.sentence for n in p.facts] == list(p.notes)
