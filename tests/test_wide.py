"""Wide results stay linear in their width: counted, never timed (issue 18 item 18).

3 rows × 100,000 declared columns once took longer than 7 minutes: ``encode.profile_columns``
built the set of the column names once per declared column. A column name here is a ``str``
that counts how often it is hashed (its ``str()`` is itself, so it survives ``str(c)``): every
set or dict the check, the view and the payload build over the names hashes each name a fixed
number of times, so doubling the width doubles the count; a set built per column squares it.
``bench/wide.py`` (run by ``make soak``) times the same cases at full width.

The check refuses to read rows keyed by a ``str`` whose hash is its own (JSON might write it
unlike its text: ``chartkit.read.rowset``), so the test lets this one name type through that
door — its hash is ``str``'s, only counted; everything past the door is what is measured.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import chartkit.read.rowset
from chartkit import ToolResult, check_result, view
from chartkit.check.integrity import FINDINGS_MAX


class CountedName(str):
    """A column name that counts its hashes (Python caches a plain str's hash; this one not)."""

    hashed = 0

    def __str__(self) -> str:
        return self

    def __hash__(self) -> int:
        CountedName.hashed += 1
        return str.__hash__(self)


def hashes_of_a_wide_result(width: int) -> int:
    """How many times the names are hashed by check, view and payload of 3 rows × ``width``."""
    names = [CountedName(f"column_{i}") for i in range(width)]
    rows: list[dict[str, Any]] = [
        {name: (i if k % 2 else str(i)) for k, name in enumerate(names)} for i in range(3)
    ]  # every other column offends: each makes a finding, a note and a refused axis
    declared = {name: "number" for name in names}
    CountedName.hashed = 0
    outcome = check_result(ToolResult("wide", rows, result_columns=declared), mode="warn")
    shown = view(rows, declared, tool="wide")
    json.dumps(shown.to_dict())
    assert len(outcome.findings) == FINDINGS_MAX  # the rest are counted in the last one
    assert len(shown.refusals) == width // 2  # every offending column judged, one by one
    return CountedName.hashed


@pytest.fixture
def counted_names_are_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """The rowset door takes a ``CountedName`` key as the plain string it spells."""
    plain = chartkit.read.rowset._plain_key
    monkeypatch.setattr(
        chartkit.read.rowset, "_plain_key", lambda key: type(key) is CountedName or plain(key)
    )


@pytest.mark.usefixtures("counted_names_are_read")
def test_the_names_are_hashed_a_number_of_times_linear_in_the_width() -> None:
    narrow, wide = hashes_of_a_wide_result(100), hashes_of_a_wide_result(400)
    assert narrow > 100  # the names are hashed at all: the count measures something
    # 4× the columns: 4× the hashes (and some slack). A set of the names built once per
    # column, as before the fix, made this 10.7×.
    assert wide <= 4.4 * narrow, (narrow, wide)


def test_a_counted_name_is_still_the_name_it_spells() -> None:
    name = CountedName("lun")
    assert (str(name), name == "lun", {name: 1}["lun"]) == ("lun", True, 1)
