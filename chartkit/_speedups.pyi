"""Types of the optional compiled reader (chartkit/_speedups.c)."""

from collections.abc import Sequence
from typing import Any

__all__ = [
    "N_CLASSES",
    "ascii_text",
    "exact_dicts",
    "iso_verdict",
    "read_columns",
    "same_width",
    "type_codes",
]

N_CLASSES: int

def read_columns(
    rows: Sequence[dict[Any, Any]], names: Sequence[Any], absent: object, /
) -> list[tuple[list[Any], tuple[int, ...], bytes | None, int]]: ...
def exact_dicts(rows: list[Any] | tuple[Any, ...], /) -> bool: ...
def iso_verdict(text: str, /) -> tuple[int, int, bool]: ...
def type_codes(values: list[Any], /) -> tuple[bytes, tuple[type, ...]] | None: ...
def ascii_text(values: list[Any], /) -> tuple[bytes, bytes] | None: ...
def same_width(rows: list[Any] | tuple[Any, ...], width: int, /) -> bool: ...
