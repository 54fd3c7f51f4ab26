"""chartkit: charts from declared column types.

A tool declares what its result contains (``resultColumns``); chartkit checks the rows against
that declaration first, then charts them from the declared types — never by sniffing values.
"""

from __future__ import annotations

import logging
from typing import Any

from chartkit.bundled import example_names, example_path
from chartkit.check import ColumnViolation, check_columns
from chartkit.columns import (
    COLUMN_TYPES,
    ColumnDeclaration,
    ColumnType,
    assert_result_columns,
    normalize_result_columns,
)
from chartkit.csvread import read_csv
from chartkit.encode import VEGALITE_TYPES, AxisRefusal, Encoding, vegalite_type
from chartkit.errors import (
    ChartkitError,
    MissingExtraError,
    ResultColumnsError,
    SchemaColumnsError,
    ToolResultError,
)
from chartkit.events import IntegrityEvent, Subscription, subscribe
from chartkit.integrity import (
    CHECK_MODES,
    CheckMode,
    CheckOutcome,
    DispositionLedger,
    DispositionRow,
    Finding,
    check_result,
)
from chartkit.messages import COLUMN_TYPE_CEILING
from chartkit.result import ToolResult, read_results
from chartkit.rowset import RowsetReading, read_rowset
from chartkit.rules import Alternative
from chartkit.schemas import output_schema, result_columns_from
from chartkit.speedups import speedups_enabled
from chartkit.staging import Staged, StagedColumn, stage
from chartkit.view import View, ViewState, view

__all__ = [
    "CHECK_MODES",
    "COLUMN_TYPES",
    "COLUMN_TYPE_CEILING",
    "VEGALITE_TYPES",
    "Alternative",
    "AxisRefusal",
    "ChartkitError",
    "CheckMode",
    "CheckOutcome",
    "ColumnDeclaration",
    "ColumnType",
    "ColumnViolation",
    "DispositionLedger",
    "DispositionRow",
    "Encoding",
    "Finding",
    "IntegrityEvent",
    "MissingExtraError",
    "ResultColumnsError",
    "RowsetReading",
    "SchemaColumnsError",
    "Staged",
    "StagedColumn",
    "Subscription",
    "ToolResult",
    "ToolResultError",
    "View",
    "ViewState",
    "assert_result_columns",
    "check_columns",
    "check_result",
    "example_names",
    "example_path",
    "normalize_result_columns",
    "output_schema",
    "read_csv",
    "read_results",
    "read_rowset",
    "result_columns_from",
    "speedups_enabled",
    "stage",
    "subscribe",
    "vegalite_type",
    "view",
    "view_payload_schema",
]


def __getattr__(name: str) -> Any:
    """``view_payload_schema`` is imported on first use, from ``chartkit.payload``.

    So importing chartkit never imports ``chartkit.payload``, and ``python -m chartkit.payload``
    (which writes the schema) runs without runpy's RuntimeWarning about a module imported twice.
    """
    if name == "view_payload_schema":
        from chartkit.payload import view_payload_schema

        return view_payload_schema
    raise AttributeError(f"module 'chartkit' has no attribute {name!r}")


__version__ = "0.1.0"

# A library logs and lets the application decide where logs go: without this, Python's
# last-resort handler would print every finding to stderr a second time.
logging.getLogger("chartkit").addHandler(logging.NullHandler())
