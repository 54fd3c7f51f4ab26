"""Review of the chart commits 86039f7 … cd93a53 (dataset digest, no per-call schema check,
whole-valued axes, calendar years): each test here failed on a defect found, a strict xfail
until its fix landed, and now keeps it fixed."""

from __future__ import annotations

from typing import Any

from chartkit import view


def _encoding(spec: dict[str, Any]) -> dict[str, Any]:
    enc: dict[str, Any] = spec["encoding"] if "encoding" in spec else spec["spec"]["encoding"]
    return enc


def test_a_sum_of_years_is_no_year_and_keeps_its_thousands_separators() -> None:
    rows = [{"g": f"g{i % 3}", "year": 1990 + i % 20} for i in range(90)]
    shown = view(rows, {"g": "string", "year": "number"}, x="g", y="year", aggregate="sum")
    assert shown.spec is not None, shown.reason
    y = _encoding(shown.spec)["y"]
    (values,) = shown.spec["datasets"].values()
    assert min(r["year"] for r in values) >= 10_000  # sums of years: 59,965 and up
    assert not shown.encodings["y"].calendar
    assert y["axis"]["format"] == ",~f"  # 59,975, as any other number past PLAIN_BELOW
    (tip,) = [t for t in _encoding(shown.spec)["tooltip"] if t["field"] == y["field"]]
    assert tip["format"] != "~f"


def test_the_count_of_a_histogram_of_years_is_no_year() -> None:
    rows = [{"year": 1990 if i % 3 else 1990 + i % 20} for i in range(30_000)]
    shown = view(rows, {"year": "number"}, x="year")
    assert shown.spec is not None and shown.mark == "bar", shown.reason
    enc = _encoding(shown.spec)
    assert shown.encodings["x"].calendar  # the binned years are years: as meant
    (values,) = shown.spec["datasets"].values()
    count = shown.encodings["y"]
    assert max(r[count.field] for r in values) >= 10_000
    assert not count.calendar
    assert enc["y"]["axis"]["format"] == ",~f"  # 20,000 rows, not 20000
    (tip,) = [t for t in enc["tooltip"] if t["field"] == count.field]
    assert tip["format"] in (",", ",~f")


def test_a_calendar_x_tooltip_prints_a_year_when_a_measure_format_is_asked() -> None:
    rows = [{"time": 1945 + k / 4, "approval": 40.5 + (k * 37 % 23) / 3} for k in range(48)]
    shown = view(rows, {"time": "number", "approval": "number"}, format=",.1f")
    assert shown.spec is not None and shown.encodings["x"].calendar, shown.reason
    enc = _encoding(shown.spec)
    assert enc["x"]["axis"]["format"] == "~f"  # the axis: 1948
    assert enc["y"]["axis"]["format"] == ",.1f"  # the measure takes the asked format
    (tip,) = [t for t in enc["tooltip"] if t["field"] == enc["x"]["field"]]
    assert tip["format"] == "~f"  # 1947.25, as the axis reads it; not 1,947.3
