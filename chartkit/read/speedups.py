"""Whether chartkit reads rows with its compiled reader, said in public.

The compiled reader (``chartkit._speedups``) is built at install where a C compiler is present;
without one the install goes on and rows are read in pure Python, with the same answers.
``CHARTKIT_PURE_PYTHON=1`` switches it off for a process. ``chartkit --version`` says which.
"""

from __future__ import annotations

__all__ = ["speedups_enabled"]


def speedups_enabled() -> bool:
    """True when rows are read by the compiled reader (``chartkit._speedups``).

    False when it was not built (no C compiler at install) or ``CHARTKIT_PURE_PYTHON=1``
    switched it off; the answers are the same, only slower.

    >>> isinstance(speedups_enabled(), bool)
    True
    """
    from chartkit.read.columnar import SPEEDUPS

    return SPEEDUPS is not None
