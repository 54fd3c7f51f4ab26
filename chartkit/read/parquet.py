"""A Parquet file read as one tool result: the door for ``.parquet`` files.

A file ``chartkit.stage`` wrote carries its staging record (the tool, the call id, the
declaration) in its schema metadata under ``METADATA_KEY``; ``read_parquet`` answers it as the
``ToolResult`` that was staged, and any other Parquet file as an undeclared result named after
the file. The writer is ``chartkit.staging`` (a surface, for code runners); both share
``METADATA_KEY`` and ``import_pyarrow`` from here, so the read stage never imports a surface.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any, Final

from chartkit.errors import MissingExtraError, ToolResultError
from chartkit.result import ToolResult

__all__ = ["METADATA_KEY", "import_pyarrow", "read_parquet", "unreadable_parquet"]

METADATA_KEY: Final = "chartkit"
"""The Parquet schema metadata key holding the staging record (JSON)."""


def unreadable_parquet(shown: str, why: object) -> str:
    """Why a file is refused as Parquet (``shown``: how the file is named, ``why``: Arrow's
    words)."""
    return f"{shown} is not a readable Parquet file: {why}"


def import_pyarrow(doing: str) -> Any:
    """pyarrow, with ``pyarrow.parquet`` imported; without it, the error says who needed it
    (``doing``: "staging writes Parquet") and the install line."""
    try:
        pyarrow = importlib.import_module("pyarrow")
        importlib.import_module("pyarrow.parquet")
    except ImportError:
        raise MissingExtraError(
            f"{doing} with pyarrow, which is not installed; install it with: "
            "pip install 'chartkit[stage]'"
        ) from None
    return pyarrow


def read_parquet(source: str | Path | bytes, *, name: str = "input.parquet") -> ToolResult:
    """Read a Parquet file (a path, or its bytes named ``name``) as one tool result.

    A file written by ``stage()`` answers its tool, call id and declaration from its metadata;
    any other Parquet file is an undeclared result of a tool named after the file. Rows are
    the table's rows as Python values (Arrow's types, so nothing is parsed from text).
    """
    pa = import_pyarrow("chartkit reads Parquet")

    label = Path(source).name if isinstance(source, Path | str) else name
    try:
        # Arrow-owned bytes, one thread: a reader over a Python object aborted the process at
        # exit ("terminate called without an active exception"; issue 18, item 3).
        table = pa.parquet.read_table(
            _arrow_owned(pa, source) if isinstance(source, bytes) else source, use_threads=False
        )
    except (pa.ArrowException, OSError) as exc:
        raise ToolResultError(unreadable_parquet(label, exc)) from None
    meta = (table.schema.metadata or {}).get(METADATA_KEY.encode())
    record: dict[str, Any] = {}
    if meta is not None:
        try:
            loaded = json.loads(meta.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            loaded = None
        if not isinstance(loaded, dict):
            raise ToolResultError(
                f"{label} carries {METADATA_KEY!r} metadata that is not a JSON object; it was "
                "not written by chartkit.stage, or it was damaged"
            )
        record = loaded
    tool = record.get("tool") if isinstance(record.get("tool"), str) else None
    call_id = record.get("callId") if isinstance(record.get("callId"), str) else None
    return ToolResult(
        tool=tool or Path(label).stem or "parquet",
        rows=table.to_pylist(),
        result_columns=record.get("resultColumns"),
        call_id=call_id,
    )


def _arrow_owned(pa: Any, data: bytes) -> Any:
    """``data`` copied into a buffer Arrow allocated, opened as a native reader.

    A reader over a Python object (``BytesIO``, or a buffer viewing ``bytes``) lets one of
    Arrow's I/O threads call back into Python to release it; when that happens while the
    interpreter exits, CPython ends the thread in a way C++ cannot unwind and the process
    aborts ("terminate called without an active exception", exit 134) after a clean run.
    """
    buffer = pa.allocate_buffer(len(data))
    memoryview(buffer).cast("B")[:] = data
    return pa.BufferReader(buffer)
