"""chartkit: charts from declared column types.

A tool declares what its result contains (``resultColumns``); chartkit checks the rows against
that declaration first, then charts them from the declared types — never by sniffing values.
"""

from __future__ import annotations

import importlib
import logging
from typing import TYPE_CHECKING, Any

from chartkit._version import __version__ as __version__
from chartkit.bundled import example_names, example_path
from chartkit.check.events import IntegrityEvent, Subscription, subscribe
from chartkit.check.integrity import DispositionLedger, check_result
from chartkit.check.judge import check_columns
from chartkit.check.outcome import CHECK_MODES, CheckMode, CheckOutcome, DispositionRow, Finding
from chartkit.columns import (
    COLUMN_TYPES,
    ColumnDeclaration,
    ColumnType,
    assert_result_columns,
    normalize_result_columns,
)
from chartkit.errors import (
    ChartkitError,
    MissingExtraError,
    ResultColumnsError,
    SchemaColumnsError,
    ToolResultError,
)
from chartkit.messages import COLUMN_TYPE_CEILING
from chartkit.read.csvread import read_csv
from chartkit.read.reading import RowsetReading
from chartkit.read.rowset import read_rowset
from chartkit.read.schemas import output_schema, result_columns_from
from chartkit.read.speedups import speedups_enabled
from chartkit.result import ToolResult, read_results
from chartkit.violations import ColumnViolation

if TYPE_CHECKING:  # imported on first use (``__getattr__``): drawing needs Altair, a check not
    from chartkit.payload import view_payload_schema
    from chartkit.plan.encode import VEGALITE_TYPES, AxisRefusal, Encoding, vegalite_type
    from chartkit.plan.rules import Alternative
    from chartkit.selection import RowsPage, Selection
    from chartkit.staging import Staged, StagedColumn, stage
    from chartkit.views import View, ViewState, view

_LAZY: dict[str, str] = {
    "VEGALITE_TYPES": "chartkit.plan.encode",
    "AxisRefusal": "chartkit.plan.encode",
    "Encoding": "chartkit.plan.encode",
    "vegalite_type": "chartkit.plan.encode",
    "Alternative": "chartkit.plan.rules",
    "RowsPage": "chartkit.selection",
    "Selection": "chartkit.selection",
    "Staged": "chartkit.staging",
    "StagedColumn": "chartkit.staging",
    "stage": "chartkit.staging",
    "View": "chartkit.views",
    "ViewState": "chartkit.views",
    "view": "chartkit.views",
    "view_payload_schema": "chartkit.payload",
}
"""The public names whose modules draw (Altair and what it pulls in), by module: imported on
first use, so ``import chartkit`` and a check never import Altair or an engine."""

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
    "RowsPage",
    "RowsetReading",
    "SchemaColumnsError",
    "Selection",
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
    """A drawing name (``_LAZY``) imported on first use, then kept as the package's own.

    So importing chartkit never imports Altair, and never ``chartkit.payload`` (``python -m
    chartkit.payload``, which writes the schema, runs without runpy's RuntimeWarning about a
    module imported twice).
    """
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'chartkit' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


# A library logs and lets the application decide where logs go: without this, Python's
# last-resort handler would print every finding to stderr a second time.
logging.getLogger("chartkit").addHandler(logging.NullHandler())
