"""The one error base, and the errors mixed with the builtin each resembles."""

from __future__ import annotations

__all__ = [
    "ChartkitError",
    "MissingExtraError",
    "ResultColumnsError",
    "SchemaColumnsError",
    "ToolResultError",
]


class ChartkitError(Exception):
    """Base of every error chartkit raises on purpose."""


class ResultColumnsError(ChartkitError, ValueError):
    """A ``resultColumns`` declaration chartkit cannot honour.

    The message names the tool (when known), the column and the fix.
    """


class SchemaColumnsError(ResultColumnsError):
    """A schema ``result_columns_from`` cannot turn into a declaration.

    ``refused`` holds a ``(column, reason)`` pair for every column whose type maps to none of
    the four column types; it is empty when the schema as a whole does not describe rows.
    """

    def __init__(self, message: str, *, refused: tuple[tuple[str, str], ...] = ()) -> None:
        super().__init__(message)
        self.refused = refused


class ToolResultError(ChartkitError, ValueError):
    """A tool result that is not of the wire form (``tool``, ``rows``, ``resultColumns`` …)."""


class MissingExtraError(ChartkitError, ImportError):
    """An optional part was used without its extra installed; the message has the install line."""
