"""The ``resultColumns`` declaration: its vocabulary, its two spellings, and its assertion.

A tool declares what its result contains: each column ``number``, ``string``, ``boolean`` or
``date``, optionally nullable. A value may be spelled as a bare type (``"number"``) or in the
object form (``{"type": "string", "nullable": True}``); both are normalized here, once, so
nothing downstream learns there were two spellings.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Literal, get_args

from chartkit._safe import cap_text, sample_text
from chartkit.errors import ResultColumnsError

__all__ = [
    "COLUMN_TYPES",
    "ColumnDeclaration",
    "ColumnType",
    "ResultColumns",
    "assert_result_columns",
    "normalize_result_columns",
]

ColumnType = Literal["number", "string", "boolean", "date"]
"""The closed vocabulary of declared column types."""

COLUMN_TYPES: tuple[ColumnType, ...] = get_args(ColumnType)
"""``("number", "string", "boolean", "date")`` — the same vocabulary as data."""

_OBJECT_KEYS = frozenset({"type", "nullable"})
_ALLOWED = ", ".join(COLUMN_TYPES)


@dataclass(frozen=True, slots=True)
class ColumnDeclaration:
    """One declared column: its type, and whether a row may carry nothing in it.

    >>> ColumnDeclaration("number")
    ColumnDeclaration(type='number', nullable=False)
    """

    type: ColumnType
    nullable: bool = False

    def __post_init__(self) -> None:
        if self.type not in COLUMN_TYPES:
            raise ResultColumnsError(
                f"column type {self.type!r} is not one of {_ALLOWED}; use one of those, "
                "or leave the column undeclared"
            )
        if not isinstance(self.nullable, bool):
            raise ResultColumnsError(f"nullable must be true or false, not {self.nullable!r}")

    def to_wire(self) -> dict[str, Any]:
        """The object form, as it travels in JSON and MCP ``_meta``."""
        return {"type": self.type, "nullable": self.nullable}


ResultColumns = Mapping[str, ColumnDeclaration]
"""A normalized declaration: column name → ColumnDeclaration, in declaration order."""


def normalize_result_columns(bag: object) -> ResultColumns:
    """Normalize a declaration to ``{column: ColumnDeclaration}``, keeping its column order.

    Raises ``ResultColumnsError`` for a declaration that cannot be honoured; use
    ``assert_result_columns`` to have the tool named in that message.

    >>> normalize_result_columns({"lun": "number", "comment": {"type": "string", "nullable": True}})
    mappingproxy({'lun': ColumnDeclaration(type='number', nullable=False), \
'comment': ColumnDeclaration(type='string', nullable=True)})
    """
    return _normalize(bag, tool=None)


def assert_result_columns(tool: str, bag: object) -> ResultColumns:
    """Normalize ``tool``'s declaration, refusing one chartkit cannot honour.

    The ``ResultColumnsError`` names the tool, the column and the fix.

    >>> assert_result_columns("host_group_mappings", {"lun": "integer"})
    Traceback (most recent call last):
    ...
    chartkit.errors.ResultColumnsError: tool 'host_group_mappings' declares column 'lun' as \
"integer"; use one of number, string, boolean, date (or leave the column undeclared)
    """
    return _normalize(bag, tool=tool)


def _normalize(bag: object, *, tool: str | None) -> ResultColumns:
    if (
        isinstance(bag, Mapping)
        and bag
        and all(type(v) is ColumnDeclaration and type(k) is str and k for k, v in bag.items())
    ):
        return MappingProxyType(dict(bag))  # already normalized: nothing to look at again
    who = f"tool {_name(tool)}" if tool is not None else "the declaration"
    if not isinstance(bag, Mapping):
        raise ResultColumnsError(
            f"{who} has resultColumns of type {type(bag).__name__}, expected an object "
            'mapping each column name to a type, e.g. {"logical_unit_number": "number"}'
        )
    out: dict[str, ColumnDeclaration] = {}
    for name, value in bag.items():
        if not isinstance(name, str) or not name:
            raise ResultColumnsError(
                f"{who} declares a column named {_show(name)}; a column name must be a "
                "non-empty string"
            )
        out[name] = _declaration(who, name, value)
    return MappingProxyType(out)


def _declaration(who: str, name: str, value: object) -> ColumnDeclaration:
    if isinstance(value, ColumnDeclaration):
        return value
    if isinstance(value, str):
        if value not in COLUMN_TYPES:
            raise ResultColumnsError(
                f"{who} declares column {_name(name)} as {_show(value)}; use one of {_ALLOWED} "
                "(or leave the column undeclared)"
            )
        return ColumnDeclaration(value)
    if isinstance(value, Mapping):
        unknown = [k for k in value if k not in _OBJECT_KEYS]
        if unknown:
            raise ResultColumnsError(
                f"{who} declares column {_name(name)} with unknown key(s) "
                f"{', '.join(_show(k) for k in unknown)}; the object form takes only "
                '"type" and "nullable"'
            )
        if "type" not in value:
            raise ResultColumnsError(
                f'{who} declares column {_name(name)} without a type; add "type": one of {_ALLOWED}'
            )
        nullable = value.get("nullable", False)
        if not isinstance(nullable, bool):
            raise ResultColumnsError(
                f"{who} declares column {_name(name)} with nullable {_show(nullable)}; "
                "nullable must be true or false"
            )
        declared = (
            _declaration(who, name, value["type"]) if isinstance(value["type"], str) else None
        )
        if declared is None:
            raise ResultColumnsError(
                f"{who} declares column {_name(name)} with type {_show(value['type'])}; use one of "
                f"{_ALLOWED}"
            )
        return ColumnDeclaration(declared.type, nullable)
    raise ResultColumnsError(
        f"{who} declares column {_name(name)} as {_show(value)}; use a type name ({_ALLOWED}) "
        'or an object like {"type": "string", "nullable": true}'
    )


def _name(name: str) -> str:
    """A tool or column name in a message: repr-quoted, cut past 200 characters."""
    return repr(cap_text(name, 200))


def _show(value: object) -> str:
    """What the declaration actually held, as bounded JSON-ish text (``chartkit._safe``)."""
    return sample_text(value)
