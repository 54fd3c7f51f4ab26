"""``chartkit render`` takes view()'s chart options and lists the alternatives it can draw."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from chartkit import view
from chartkit.cli import main
from chartkit.result import read_results

EXAMPLES = Path(__file__).resolve().parents[1] / "chartkit" / "examples"
LATENCY = EXAMPLES / "latency_by_region.json"
CAPACITY = EXAMPLES / "capacity_view.json"


def test_render_draws_facets(tmp_path: Path, capsys: Any) -> None:
    out = tmp_path / "l.json"
    assert main(["render", str(LATENCY), "-o", str(out), "--facet", "region"]) == 0
    spec = json.loads(out.read_text())
    assert spec["facet"]["field"] == "region"
    assert "  facet: region: declared string → nominal" in capsys.readouterr().out


def test_alternatives_lists_the_charts_and_writes_no_file(tmp_path: Path, capsys: Any) -> None:
    """``--alternatives`` is a question (which charts?), so it answers and writes nothing."""
    out = tmp_path / "l.json"
    args = ["render", str(LATENCY), "-o", str(out), "--facet", "region", "--alternatives"]
    assert main(args) == 0
    assert not out.exists()
    printed = capsys.readouterr().out
    assert "  facet: region: declared string → nominal" in printed
    assert (
        "  alternative 0 (--choose 0): timestamp is declared date and p95_latency_ms number: a "
        "line over time, one per region (4 values), shows how p95_latency_ms moves."
    ) in printed
    assert printed.splitlines()[-1] == (
        f"{out} was not written: --alternatives only lists; to write a chart, run again without "
        "it (--choose N -o OUT draws alternative N)"
    )
    assert main(["render", str(LATENCY), "--alternatives"]) == 0  # no -o needed to ask
    assert "alternative 0 (--choose 0)" in capsys.readouterr().out


def test_render_takes_several_measures_an_aggregate_a_sort_a_scale_and_a_format(
    tmp_path: Path,
) -> None:
    out = tmp_path / "c.json"
    args = ["render", str(CAPACITY), "-o", str(out), "--y", "size_gb", "--y", "used_pct",
            "--aggregate", "sum", "--sort", "x", "--scale", "log", "--format", ",.0f"]  # fmt: skip
    assert main(args) == 0
    spec = json.loads(out.read_text())
    assert spec["encoding"]["y"]["title"] == "sum of size_gb and used_pct"
    assert spec["encoding"]["y"]["scale"]["type"] == "log"
    assert spec["encoding"]["x"]["sort"] == sorted(spec["encoding"]["x"]["sort"])
    assert spec["encoding"]["y"]["axis"]["format"] == ",.0f"


def test_render_choose_draws_an_alternative(tmp_path: Path) -> None:
    """``--choose 0`` writes alternative 0 of the very view ``view()`` makes of the same result,
    not the chart the result opens on (capacity_view opens on its scatter)."""
    [result] = read_results(CAPACITY.read_text(encoding="utf-8"), name=CAPACITY.name)
    opened = view(result.rows, result.result_columns)
    chosen = view(result.rows, result.result_columns, choose=0)
    assert chosen.mark != opened.mark or chosen.spec != opened.spec
    out = tmp_path / "t.json"
    assert main(["render", str(CAPACITY), "-o", str(out), "--choose", "0"]) == 0
    written = json.loads(out.read_text())
    assert written == json.loads(json.dumps(chosen.spec))  # the very chart, written


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--format", "<b>"], "format='<b>' is not a d3-format string"),
        (["--choose", "40"], "choose=40 is not an alternative of this view"),
        (["--facet", "size_gb"], None),  # refused in the view, drawn without facets
    ],
)
def test_a_bad_option_is_said_with_the_parameter_and_value(
    tmp_path: Path, capsys: Any, extra: list[str], message: str | None
) -> None:
    code = main(["render", str(CAPACITY), "-o", str(tmp_path / "x.json"), *extra])
    if message is None:
        assert code == 0
        assert (
            "refused facet axis: facets draw one small chart per value" in capsys.readouterr().out
        )
    else:
        assert code == 2
        assert message in capsys.readouterr().err
