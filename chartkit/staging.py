"""Typed staging for code runners: a tool result as Parquet whose schema is its declaration.

A code runner hands rows to a sandbox where code (pandas, polars, DuckDB) works on them. Staged
as JSON or CSV, that code sniffs every column's type again; staged by ``stage()``, each
declared column arrives with an Arrow type taken from the declaration:

=========  ======================================================================
declared   Arrow type in the Parquet file
=========  ======================================================================
number     ``int64`` when every value is an integer that fits in 64 bits, else
           ``float64``
string     ``string`` (UTF-8)
boolean    ``bool``
date       ``timestamp[us]`` when every value is naive (wall-clock time as given),
           ``timestamp[us, tz=UTC]`` when every value is aware (the same instants,
           in UTC); a date without a time is midnight
=========  ======================================================================

Nothing is coerced:

- **warn** — a column whose offenders are values of another type (``''`` or ``"n/a"`` in a
  number column) is staged as **text**: strings as they are, other values as their JSON text
  (``3`` → ``"3"``), absences as null. It is never given its declared type by inventing
  values (``''`` is not 0, and not null); its violation is in the metadata. A column whose
  only offenders are absences keeps its declared type, the absences as nulls. A declared
  column no row has is left out (a ``missing-column`` finding, not a column of nulls).
- **enforce** — a refused result stages its refusal sentence (in the sidecar) and no rows: no
  Parquet file is written, and one left in the directory by an earlier staging of the same
  name is removed, so old rows cannot be read as the answer.
- **off** — nothing is measured: the rows as returned, typed by Arrow's own inference from the
  values, as if nothing were declared (the declaration is recorded, not applied).

Columns not declared are typed by Arrow's inference from their values; a column Arrow cannot
type (mixed values) is staged as text. A value a column's Arrow type cannot hold exactly (an
integer past 2**53 among floats, naive and aware times together, nanoseconds) makes that
column text too, and its entry in the metadata says why.

Both the Parquet file's schema metadata (key ``chartkit``) and a JSON sidecar beside it carry
the declaration, the findings, the disposition and each column's staging.

``read_parquet`` reads a Parquet file back as a ``ToolResult``, with the declaration staging
left in its metadata (it is the read stage's, ``chartkit.read.parquet``, kept here by name).
"""

from __future__ import annotations

import datetime as dt
import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from operator import attrgetter
from pathlib import Path
from typing import Any, Final, Literal

import numpy as np
import pandas as pd

from chartkit._isodate import parse_iso
from chartkit.check.integrity import check_result
from chartkit.check.judge import ColumnViolation
from chartkit.check.outcome import CheckMode, CheckOutcome
from chartkit.columns import ColumnDeclaration
from chartkit.errors import ChartkitError
from chartkit.messages import render_sample
from chartkit.read.parquet import METADATA_KEY, import_pyarrow, read_parquet
from chartkit.read.rowset import RowsetReading, read_rowset
from chartkit.result import ToolResult

__all__ = [
    "METADATA_KEY",
    "STAGE_VERSION",
    "Staged",
    "StagedColumn",
    "read_parquet",
    "stage",
]

STAGE_VERSION: Final = 1

StagedAs = Literal["declared", "text", "inferred"]
_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1
_SAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")


@dataclass(frozen=True, slots=True)
class StagedColumn:
    """How one column was staged: its Arrow type, and why when it is not the declared one."""

    name: str
    arrow: str
    staged_as: StagedAs
    declared: str | None = None
    reason: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, camelCase like the wire form."""
        return {
            "name": self.name,
            "declared": self.declared,
            "arrow": self.arrow,
            "stagedAs": self.staged_as,
            "reason": self.reason,
        }


@dataclass(frozen=True, eq=False)
class Staged:
    """What ``stage()`` wrote: the Parquet file (None when refused), the sidecar, the record."""

    parquet: Path | None
    sidecar: Path
    outcome: CheckOutcome
    columns: tuple[StagedColumn, ...]
    rows: int | None
    record: dict[str, Any]


def stage(
    result: ToolResult,
    directory: str | Path,
    *,
    mode: CheckMode = "warn",
    name: str | None = None,
) -> Staged:
    """Check ``result`` under the dial and write it to ``directory`` as typed Parquet + JSON.

    Writes ``NAME.parquet`` (unless refused under enforce) and ``NAME.json``, the sidecar;
    ``name`` defaults to the tool's name, made safe for a file name. The directory is created
    when missing. The result's rows must be a list of objects or a dataframe (an empty one
    stages zero rows, with the declared columns); an MCP answer that may be one row
    (``one_row_ambiguous``) is staged as that row when the check is armed.

    >>> import tempfile, pyarrow.parquet as pq
    >>> r = ToolResult("host_group_mappings", [{"logical_unit_number": 0, "host_group": "a"}],
    ...                result_columns={"logical_unit_number": "number", "host_group": "string"})
    >>> with tempfile.TemporaryDirectory() as directory:
    ...     pq.read_schema(stage(r, directory).parquet).types
    [DataType(int64), DataType(string)]
    """
    pa = import_pyarrow("staging writes Parquet")
    if not isinstance(result, ToolResult):
        raise ChartkitError(
            f"stage takes a ToolResult, got {type(result).__name__}; wrap rows as "
            "ToolResult(tool, rows, result_columns=...)"
        )
    armed = mode != "off" and result.result_columns is not None
    rows = result.rows_to_check() if armed else result.rows  # a lone MCP object: one row
    reading = read_rowset(rows)
    empty = isinstance(rows, list | tuple | pd.DataFrame) and len(rows) == 0
    if reading is None and not empty:
        raise ChartkitError(
            f"the result of {result.tool} is not rows (a list of objects or a dataframe) — it "
            f"is a {type(result.rows).__name__} — so there is nothing to stage as a table"
        )
    outcome = check_result(result, mode=mode)
    target = Path(directory)
    target.mkdir(parents=True, exist_ok=True)
    stem = name if name is not None else _SAFE_NAME.sub("_", result.tool).strip("._") or "result"
    if "/" in stem or "\\" in stem or stem in ("", ".", ".."):
        raise ChartkitError(f"name {stem!r} is not a plain file name; pass a name like 'mappings'")
    parquet, sidecar = target / f"{stem}.parquet", target / f"{stem}.json"

    columns: list[StagedColumn] = []
    table = None
    if outcome.refused:
        parquet.unlink(missing_ok=True)  # never leave older rows where the answer is read
    else:
        arrays: dict[str, Any] = {}
        for column, array, how in _columns(pa, result, reading, outcome):
            arrays[column] = array
            columns.append(how)
        table = pa.table(arrays) if arrays else pa.table({})
    record = {
        "version": STAGE_VERSION,
        "tool": result.tool,
        "callId": result.call_id,
        "mode": outcome.mode,
        "status": outcome.status,
        "armed": outcome.armed,
        "refusal": outcome.refusal,
        "rows": None if table is None else table.num_rows,
        "parquet": None if table is None else parquet.name,
        "resultColumns": (
            {k: d.to_wire() for k, d in result.result_columns.items()}
            if result.result_columns is not None
            else None
        ),
        "columns": [c.to_dict() for c in columns],
        "findings": [f.to_dict() for f in outcome.findings],
        "disposition": [d.to_dict() for d in outcome.disposition],
    }
    text = json.dumps(record, ensure_ascii=False, indent=2, allow_nan=False)
    if table is not None:
        meta = dict(table.schema.metadata or {})
        meta[METADATA_KEY.encode()] = json.dumps(record, ensure_ascii=False).encode("utf-8")
        pa.parquet.write_table(table.replace_schema_metadata(meta), parquet)
    sidecar.write_text(text + "\n", encoding="utf-8")
    return Staged(
        parquet=None if table is None else parquet,
        sidecar=sidecar,
        outcome=outcome,
        columns=tuple(columns),
        rows=None if table is None else table.num_rows,
        record=record,
    )


# ------------------------------------------------------------------------------ the columns


_ABSENT: Final = object()


def _values(reading: RowsetReading | None, column: str) -> list[Any]:
    if reading is None:
        return []
    if reading.frame is not None:
        values: list[Any] = reading.frame[column].astype(object).tolist()
        return values
    assert reading.rows is not None
    return [row.get(column, _ABSENT) for row in reading.rows]


def _columns(
    pa: Any, result: ToolResult, reading: RowsetReading | None, outcome: CheckOutcome
) -> list[tuple[str, Any, StagedColumn]]:
    declared = result.result_columns if outcome.mode != "off" else None
    violations = {v.column: v for v in outcome.violations}
    names = list(reading.columns) if reading is not None else []
    if declared is not None and reading is None:  # no rows: the declared schema, empty
        names = list(declared)
    out: list[tuple[str, Any, StagedColumn]] = []
    for column in names:
        values = _values(reading, column)
        decl = declared.get(column) if declared is not None else None
        if decl is None:
            out.append(_inferred(pa, column, values))
            continue
        violation = violations.get(column)
        if violation is not None and violation.kind == "missing-column":
            continue
        out.append(_declared(pa, column, values, decl, violation))
    return out


def _is_absent(value: Any) -> bool:
    if value is None or value is _ABSENT or value is pd.NA or value is pd.NaT:
        return True
    if isinstance(value, float | np.floating | Decimal):
        return bool(value != value)
    if isinstance(value, np.datetime64):
        return bool(np.isnat(value))
    return False


_NEVER_ABSENT: Final = frozenset({int, str, bool, dt.datetime, dt.date})
_NAN_SAFE: Final = _NEVER_ABSENT | {float, type(None), type(_ABSENT)}  # ``v != v`` is NaN only


def _present(values: list[Any]) -> list[Any]:
    """The values with every absence (None, NaN, NaT, a key not set) as None.

    Looked at value by value only when a column holds a type that can be an absence.
    """
    types = set(map(type, values))
    if types <= _NEVER_ABSENT:
        return values
    if types <= _NAN_SAFE:
        return [None if v is None or v is _ABSENT or v != v else v for v in values]
    return [None if _is_absent(v) else v for v in values]


def _text(value: Any) -> str | None:
    """A value as text in a text column: strings as they are, others as their JSON text."""
    if _is_absent(value):
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, dt.date | pd.Timestamp):
        return value.isoformat()
    if isinstance(value, np.datetime64):
        return str(pd.Timestamp(value).isoformat())
    return render_sample(value)


def _as_text(
    pa: Any, column: str, values: Sequence[Any], how: StagedColumn
) -> tuple[str, Any, StagedColumn]:
    return (column, pa.array([_text(v) for v in values], type=pa.string()), how)


def _inferred(pa: Any, column: str, values: list[Any]) -> tuple[str, Any, StagedColumn]:
    cleaned = _present(values)
    try:
        array = pa.array(cleaned)
    except (pa.ArrowException, TypeError, ValueError, OverflowError):
        how = StagedColumn(
            column,
            "string",
            "text",
            reason="its values are of several types, so it is staged as text",
        )
        return _as_text(pa, column, values, how)
    if pa.types.is_null(array.type):
        array = pa.array(cleaned, type=pa.string())
    return column, array, StagedColumn(column, str(array.type), "inferred")


def _declared(
    pa: Any,
    column: str,
    values: list[Any],
    decl: ColumnDeclaration,
    violation: ColumnViolation | None,
) -> tuple[str, Any, StagedColumn]:
    if violation is not None and violation.affected > violation.absent:
        held = " or ".join(t for t in violation.offending_types if t not in ("null", "absent"))
        how = StagedColumn(
            column,
            "string",
            "text",
            declared=decl.type,
            reason=(
                f"{violation.affected - violation.absent:,} of {violation.total:,} rows hold "
                f"{held} (first: {render_sample(violation.sample)[:80]}), not {decl.type}; the "
                "column is kept as text, nothing converted"
            ),
        )
        return _as_text(pa, column, values, how)
    present = _present(values)
    try:
        if decl.type == "number":
            array = _numbers(pa, present)
        elif decl.type == "string":
            array = pa.array(present, type=pa.string())
        elif decl.type == "boolean":
            array = pa.array([None if v is None else bool(v) for v in present], type=pa.bool_())
        else:
            array = _dates(pa, present)
    except _Inexact as exc:
        how = StagedColumn(column, "string", "text", declared=decl.type, reason=str(exc))
        return _as_text(pa, column, values, how)
    return column, array, StagedColumn(column, str(array.type), "declared", declared=decl.type)


class _Inexact(Exception):
    """A column's Arrow type cannot hold one of its values exactly."""


def _numbers(pa: Any, values: list[Any]) -> Any:
    plain = values
    types = set(map(type, plain))
    if any(issubclass(t, np.generic) for t in types):
        plain = [v.item() if isinstance(v, np.generic) else v for v in values]
        types = set(map(type, plain))
    nulls = type(None) in types
    types.discard(type(None))
    if types <= {int}:
        ints = [v for v in plain if v is not None] if nulls else plain
        if not ints or (min(ints) >= _INT64_MIN and max(ints) <= _INT64_MAX):
            return pa.array(plain, type=pa.int64())
    if types <= {float}:
        return pa.array(plain, type=pa.float64())
    floats: list[float | None] = []
    for v in plain:
        if v is None or type(v) is float:
            floats.append(v)
            continue
        f = float(v)
        exact = (
            math.isfinite(f) and int(f) == v
            if isinstance(v, int)
            else Decimal(repr(f)) == v
            if isinstance(v, Decimal)
            else True
        )
        if not exact:
            raise _Inexact(
                f"{render_sample(v)[:80]} cannot be held exactly by float64, so the column is "
                "kept as text, nothing converted"
            )
        floats.append(f)
    return pa.array(floats, type=pa.float64())


def _moment(value: Any) -> dt.datetime:
    if isinstance(value, str):
        parsed = parse_iso(value)
        if parsed is None:  # the check filed it; never reached for a conforming column
            raise _Inexact(f"{render_sample(value)[:80]} is no date string")
        return parsed
    if isinstance(value, np.datetime64):
        value = pd.Timestamp(value)
    if isinstance(value, pd.Timestamp):
        if value.nanosecond:
            raise _Inexact(
                f"{value.isoformat()} has nanoseconds, which timestamp[us] cannot hold, so the "
                "column is kept as text, nothing converted"
            )
        moment: dt.datetime = value.to_pydatetime()
        return moment
    if isinstance(value, dt.datetime):
        return value
    assert isinstance(value, dt.date)
    return dt.datetime.combine(value, dt.time())


def _dates(pa: Any, values: list[Any]) -> Any:
    if set(map(type, values)) <= {dt.datetime, type(None)}:
        moments = values
    else:
        moments = [None if v is None else _moment(v) for v in values]
    zones = set(map(attrgetter("tzinfo"), filter(None, moments)))
    aware = {zone is not None for zone in zones}
    if aware == {True, False}:
        raise _Inexact(
            "it holds times with a UTC offset and times without one, and one timestamp type "
            "cannot hold both, so the column is kept as text, nothing converted"
        )
    if aware == {True}:
        utc = [None if m is None else m.astimezone(dt.UTC) for m in moments]
        return pa.array(utc, type=pa.timestamp("us", tz="UTC"))
    return pa.array(moments, type=pa.timestamp("us"))
