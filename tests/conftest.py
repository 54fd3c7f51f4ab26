"""Shared fixtures: the spec's worked example, and a way to make a declared tool result."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from chartkit import ToolResult

SPEC_TOOL = "host_group_mappings"
SPEC_COLUMNS = {"logical_unit_number": "number", "host_group": "string"}


@pytest.fixture
def spec_rows() -> list[dict[str, Any]]:
    """The report as it shipped: LUN 0 became ''."""
    return [
        {"logical_unit_number": "", "host_group": "vdi-a"},
        {"logical_unit_number": 3, "host_group": "vdi-a"},
    ]


@pytest.fixture
def mappings() -> Callable[..., ToolResult]:
    """``mappings(rows, **columns)``: a ``host_group_mappings`` result, call id ``call-1``.

    Without keyword arguments the declaration is the spec's (LUN number, host group string).
    """

    def make(rows: Any, result_columns: Any = None, call_id: str | None = "call-1") -> ToolResult:
        return ToolResult(
            SPEC_TOOL,
            rows,
            result_columns=SPEC_COLUMNS if result_columns is None else result_columns,
            call_id=call_id,
        )

    return make
