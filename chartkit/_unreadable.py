"""One sentence for a file JSON cannot read at all: nested too deep, or a number too long.

``read_results`` says what is wrong with JSON it can parse; these two faults stop the parser
itself (Python's recursion limit, its integer digit limit), so the command line and the
explorer turn them into the same sentence here.
"""

from __future__ import annotations

import sys

__all__ = ["unreadable_json"]


def unreadable_json(name: str, exc: RecursionError | ValueError) -> str:
    """What went wrong reading ``name``, what a tool result looks like, and what to do.

    >>> unreadable_json("deep.json", RecursionError("maximum recursion depth exceeded"))
    'deep.json nests JSON deeper than can be read; a tool result is a few levels deep (a \
result, its rows, their values) — check that this is the file you meant'
    """
    if isinstance(exc, RecursionError):
        return (
            f"{name} nests JSON deeper than can be read; a tool result is a few levels deep "
            "(a result, its rows, their values) — check that this is the file you meant"
        )
    said = str(exc).split("\n")[0]
    if "integer string conversion" in said:
        return (
            f"{name} holds an integer literal too long to read (over "
            f"{sys.get_int_max_str_digits()} digits); a tool should send such a value as a "
            "string"
        )
    said = said if len(said) <= 120 else said[:117] + "..."
    return f"{name} could not be read as JSON ({said}); expected a tool result or a .jsonl run"
