"""``chartkit render --zero``: the measure axis starts at zero, or spans its values, as asked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chartkit.cli import main


def _co2_like(tmp_path: Path) -> Path:
    rows = [{"month": f"2020-{m:02d}-01", "ppm": 410.0 + m * 0.5} for m in range(1, 13)]
    path = tmp_path / "co2.json"
    path.write_text(json.dumps({"tool": "co2", "rows": rows,
                                "resultColumns": {"month": "date", "ppm": "number"}}))  # fmt: skip
    return path


@pytest.mark.parametrize(("flag", "zero"), [([], False), (["--zero", "true"], True)])
def test_render_zero_decides_where_the_lines_axis_starts(
    tmp_path: Path, flag: list[str], zero: bool
) -> None:
    out = tmp_path / "c.json"
    assert main(["render", str(_co2_like(tmp_path)), "-o", str(out), *flag]) == 0
    spec = json.loads(out.read_text())
    assert spec["mark"]["type"] == "line"
    assert spec["encoding"]["y"].get("scale", {}).get("zero", True) is zero


def test_render_zero_takes_only_true_or_false(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["render", str(_co2_like(tmp_path)), "-o", str(tmp_path / "c.json"),
                 "--zero", "no"])  # fmt: skip
    assert code == 2
    assert "invalid choice: 'no' (choose from 'true', 'false')" in capsys.readouterr().err
