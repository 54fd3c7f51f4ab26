"""Types of the optional compiled reader (chartkit/_speedups.c)."""

from collections.abc import Sequence
from typing import Any

__all__ = ["N_CLASSES", "exact_dicts", "iso_verdict", "read_columns"]

N_CLASSES: int

def read_columns(
    rows: Sequence[dict[Any, Any]], names: Sequence[Any], absent: object, /
) -> list[tuple[list[Any], tuple[int, ...], bytes | None, bool]]: ...
def exact_dicts(rows: list[Any] | tuple[Any, ...], /) -> bool: ...
def iso_verdict(text: str, /) -> tuple[int, int, bool]: ...
