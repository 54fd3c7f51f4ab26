"""Declarations from schemas, never from values: ``result_columns_from`` and ``output_schema``.

A declaration is often already written down, in a form the ecosystem uses every day: an MCP
tool's ``outputSchema`` (JSON Schema), the pydantic model, TypedDict or dataclass that types a
tool's rows, an Arrow (Parquet) schema, a DuckDB table's ``DESCRIBE``. ``result_columns_from``
reads such a schema — the types it states, never a value — into a ``resultColumns``
declaration, mapping exactly what maps:

- number: JSON ``number``/``integer``; Python ``int``, ``float``, ``Decimal``; Arrow and DuckDB
  integers, floats and decimals. ``bool`` is never a number, though Python's ``bool``
  subclasses ``int``.
- string: JSON ``string``; ``str``; Arrow/DuckDB strings; an enum whose values are all strings.
- boolean: JSON ``boolean``; ``bool``; Arrow/DuckDB booleans.
- date: JSON ``string`` with ``format`` ``date`` or ``date-time``; ``datetime.date`` and
  ``datetime.datetime``; Arrow dates and timestamps; DuckDB ``DATE`` and ``TIMESTAMP``.
- nullable: ``null`` among a JSON Schema's types (``["string", "null"]``, ``anyOf`` with
  ``{"type": "null"}``), ``Optional[X]`` / ``X | None``, a nullable Arrow field, a DuckDB
  column whose ``null`` is ``YES``.

Everything else is refused, naming the column and the reason — a nested object, an array, a
union of two types the vocabulary cannot tell apart, an enum of mixed types, ``Any``, a
schema with no type, or a keyword whose value is of the wrong JSON type (``"format":
["date"]``) — with one ``SchemaColumnsError`` that names every refused column.
``unmappable="leave"`` leaves those columns undeclared instead (a declaration is open, so an
undeclared column is allowed and never judged).

A JSON Schema property that is not ``required`` — and a TypedDict key that is ``NotRequired``
— is left undeclared. A declared column promises to be there: a column no row carries is a
``missing-column`` finding, nullable or not, and the way to say "this column may or may not be
there" is to leave it undeclared. A pydantic model's or a dataclass's fields are always present
in what it serializes, so all of them are declared.

``output_schema`` goes the other way: the ``outputSchema`` a declared MCP tool publishes. It
states each declared column's JSON type, and lets every row through validation (see its
docstring), so an SDK validating structured content never turns ``warn`` into an exception.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import enum
import re
import types
import typing
from collections.abc import Iterable, Iterator, Mapping
from decimal import Decimal
from types import MappingProxyType
from typing import Any, Final, Literal, TypeAlias

from chartkit._safe import NAME_MAX_CHARS, NAMES_MAX_LISTED, cap_text, sample_text
from chartkit.columns import COLUMN_TYPES, ColumnDeclaration, ColumnType, ResultColumns
from chartkit.columns import assert_result_columns as _assert
from chartkit.errors import SchemaColumnsError

__all__ = [
    "ARGUMENT_OVER_FILE_SCHEMA",
    "COLUMNS_OVER_FILE_SCHEMA",
    "DECLARATION_SOURCES",
    "FILE_SCHEMA",
    "ROWS_PROPERTY",
    "SCHEMA_MAX_NODES",
    "Unmappable",
    "declared_by_text",
    "looks_like_json_schema",
    "output_schema",
    "result_columns_from",
    "rows_property",
]

ROWS_PROPERTY = "result"
"""The property of a tool's structured result that holds the rows by default: the MCP SDK
wraps a returned list as ``{"result": rows}``."""

Unmappable: TypeAlias = Literal["refuse", "leave"]
"""What ``result_columns_from`` does with a column whose type maps to no column type:
``"refuse"`` (raise ``SchemaColumnsError``) or ``"leave"`` (leave it undeclared)."""

FILE_SCHEMA: Final = "the file's schema"
"""``ToolResult.declared_by`` of a typed file (Parquet) checked by its own schema."""
COLUMNS_OVER_FILE_SCHEMA: Final = "--columns over the file's schema"
"""``ToolResult.declared_by`` of a typed file checked by ``chartkit check --columns``."""
ARGUMENT_OVER_FILE_SCHEMA: Final = "resultColumns over the file's schema"
"""``ToolResult.declared_by`` of a typed file ``chart_file`` checked by its ``resultColumns``."""

DECLARATION_SOURCES: Mapping[str, str] = MappingProxyType(
    {
        "_meta.resultColumns": "the tool's _meta.resultColumns",
        "outputSchema": "the tool's outputSchema",
        "JSON Schema": "a JSON Schema",
        FILE_SCHEMA: "the file's schema",
        COLUMNS_OVER_FILE_SCHEMA: "--columns, in place of the file's schema",
        ARGUMENT_OVER_FILE_SCHEMA: "the resultColumns passed, in place of the file's schema",
    }
)
"""Each ``ToolResult.declared_by`` value and the words that name it in a sentence: every
surface (the command line, ``chart_file``, the explorer) says where a declaration came from
in these words, through ``declared_by_text``."""

_ALLOWED = ", ".join(COLUMN_TYPES)
_TOO_DEEP: Final = "nests anyOf/allOf too deep to follow"
_UNTYPED: Final = "has no type (it accepts any value)"


def _unmapped(what: str) -> str:
    """Why a column's type declares none of chartkit's (``what``: "is bytes", "has the Arrow
    type …")."""
    return f"{what}, which maps to none of {_ALLOWED}"


def _missing_ref(ref: str) -> str:
    return f"refers to {cap_text(ref, 80)!r}, which the schema does not have"


def _unreadable_rows(exc: object) -> str:
    return f"the JSON Schema's rows cannot be read: it {exc}"
_DATE_FORMATS = frozenset({"date", "date-time"})
_MAX_DEPTH = 32  # $ref chains and nested anyOf deeper than this are refused, never followed

SCHEMA_MAX_NODES: Final = 1_000_000
"""Nodes one reading of a JSON Schema visits at most: each subschema entered, each ``$ref``
followed, each entry of a list read. A ``$ref``'s target is read once however often it is
referred to, so a schema costs about as many nodes as it holds; past this many it is refused
as too large to read (``SchemaColumnsError``), whatever ``unmappable`` says."""


class _Refused(Exception):
    """One column's type maps to none of the four column types; ``args[0]`` says why."""


_Mapped: TypeAlias = tuple[ColumnType, bool]  # (type, nullable)


# ------------------------------------------------------------------------------- the door


def result_columns_from(source: object, *, unmappable: Unmappable = "refuse") -> ResultColumns:
    """The ``resultColumns`` declaration a schema states, read from its types, never a value.

    ``source`` is a JSON Schema (a mapping: an array of objects, or an object with one property
    holding that array — an MCP tool's ``outputSchema``), a pydantic model class, a TypedDict,
    a dataclass, a ``pyarrow.Schema`` (``pyarrow.parquet.read_schema(path)`` for a Parquet
    file) or a DuckDB relation of ``DESCRIBE`` output. A column whose type maps to no column
    type raises ``SchemaColumnsError`` naming every such column and why (``unmappable="leave"``
    leaves them undeclared instead); so does a schema that declares no column at all, and a
    JSON Schema whose reading visits more than ``SCHEMA_MAX_NODES`` nodes (each ``$ref`` is
    read once, so only a schema that large, or one repeating long lists, gets there).

    >>> from typing import TypedDict
    >>> class Mapping(TypedDict):
    ...     logical_unit_number: int
    ...     host_group: str
    ...     comment: str | None
    >>> declared = result_columns_from(Mapping)
    >>> {k: d.to_wire() for k, d in declared.items()}  # doctest: +NORMALIZE_WHITESPACE
    {'logical_unit_number': {'type': 'number', 'nullable': False},
     'host_group': {'type': 'string', 'nullable': False},
     'comment': {'type': 'string', 'nullable': True}}
    >>> result_columns_from({"type": "array", "items": {"type": "object",
    ...     "properties": {"tags": {"type": "array"}}, "required": ["tags"]}})
    Traceback (most recent call last):
    ...
    chartkit.errors.SchemaColumnsError: the JSON Schema has 1 column chartkit cannot declare: \
'tags' is an array. A declared column is one of number, string, boolean, date, optionally \
nullable; leave these columns out (unmappable="leave" leaves them undeclared), or write the \
declaration by hand.
    """
    if unmappable not in ("refuse", "leave"):
        raise ValueError(f'unmappable must be "refuse" or "leave", not {unmappable!r}')
    what, columns = _read(source)
    declared: dict[str, ColumnDeclaration] = {}
    refused: list[tuple[str, str]] = []
    for name, mapped in columns:
        if isinstance(mapped, str):
            refused.append((name, mapped))
        else:
            declared[name] = ColumnDeclaration(*mapped)
    if refused and unmappable == "refuse":
        raise SchemaColumnsError(_refusal(what, refused), refused=tuple(refused))
    if not declared:
        left = f" ({len(refused):,} left undeclared as unmappable)" if refused else ""
        raise SchemaColumnsError(
            f"{what} declares no column every row carries{left}; nothing to check the rows "
            "against. A column is declared when the schema states its type and that every row "
            'has it (JSON Schema: list it in "required").',
            refused=tuple(refused),
        )
    return MappingProxyType(declared)


def _refusal(what: str, refused: list[tuple[str, str]]) -> str:
    shown = [
        f"{cap_text(name, NAME_MAX_CHARS)!r} {reason}"
        for name, reason in refused[:NAMES_MAX_LISTED]
    ]
    more = len(refused) - len(shown)
    listed = "; ".join(shown) + (f"; and {more:,} more" if more else "")
    count = f"{len(refused):,} column{'s' if len(refused) != 1 else ''}"
    return (
        f"{what} has {count} chartkit cannot declare: {listed}. A declared column is one of "
        f"{_ALLOWED}, optionally nullable; leave these columns out "
        '(unmappable="leave" leaves them undeclared), or write the declaration by hand.'
    )


def _read(source: object) -> tuple[str, list[tuple[str, _Mapped | str]]]:
    """What ``source`` is (for messages) and each column it states: mapped, or why not."""
    if isinstance(source, Mapping):
        return "the JSON Schema", list(_json_columns(source))
    if isinstance(source, type):
        label = cap_text(source.__qualname__, NAME_MAX_CHARS)
        if typing.is_typeddict(source):
            return f"the TypedDict {label!r}", list(_typeddict_columns(source))
        if dataclasses.is_dataclass(source):
            return f"the dataclass {label!r}", list(_dataclass_columns(source))
        pydantic_model = _pydantic_base()
        if pydantic_model is not None and issubclass(source, pydantic_model):
            return f"the pydantic model {label!r}", list(_pydantic_columns(source))
    module = type(source).__module__
    if module.startswith("pyarrow"):
        import pyarrow as pa  # type: ignore[import-untyped]

        if isinstance(source, pa.Schema):
            return "the Arrow schema", [(f.name, _arrow(f.type, f.nullable)) for f in source]
    if module.startswith("duckdb"):
        return "the DuckDB DESCRIBE", list(_duckdb_columns(source))
    if dataclasses.is_dataclass(source):
        raise SchemaColumnsError(
            f"result_columns_from got an instance of the dataclass {type(source).__name__!r}; "
            "pass the class itself — a declaration is read from types, never from values"
        )
    raise SchemaColumnsError(
        f"result_columns_from cannot read a {type(source).__name__}; pass a JSON Schema "
        "(a dict, e.g. an MCP tool's outputSchema), a pydantic model, TypedDict or dataclass "
        "class, a pyarrow.Schema, or a DuckDB relation of DESCRIBE output"
    )


def declared_by_text(declared_by: str | None) -> str | None:
    """What every surface says of a result whose declaration a schema gave, or None.

    A declaration written on the result, or carried in ``_meta.resultColumns``, is the
    ordinary case and is not remarked on. A typed file's own schema is said, and so is a
    declaration passed in its place.

    >>> declared_by_text("outputSchema")
    "declared by the tool's outputSchema"
    >>> declared_by_text(FILE_SCHEMA)
    "declared by the file's schema"
    >>> declared_by_text(COLUMNS_OVER_FILE_SCHEMA)
    "declared by --columns, in place of the file's schema"
    """
    if declared_by is None or declared_by == "_meta.resultColumns":
        return None
    return f"declared by {DECLARATION_SOURCES.get(declared_by, repr(cap_text(declared_by, 80)))}"


def looks_like_json_schema(value: object) -> bool:
    """Whether a JSON object is a JSON Schema of rows rather than a ``resultColumns`` bag."""
    return isinstance(value, Mapping) and (
        "$schema" in value
        or (
            value.get("type") in ("array", "object") and ("items" in value or "properties" in value)
        )
    )


# ------------------------------------------------------------------------------ JSON Schema


def rows_property(schema: Mapping[str, Any]) -> str | None:
    """The property of a result-object schema that holds the rows; None for a bare array.

    MCP structured content must be an object, so a tool returning rows publishes them under
    one property (``{"result": rows}`` from the Python SDK). The property is the one whose
    schema is an array of objects; a schema with none, or with several, does not say where the
    rows are and raises ``SchemaColumnsError``.

    >>> rows_property({"type": "object", "properties": {"rows": {"type": "array",
    ...     "items": {"type": "object", "properties": {}}}, "total": {"type": "integer"}}})
    'rows'
    """
    walk = _Walk(schema)
    try:
        return _rows_of(walk)[0]
    except _Refused as exc:
        raise SchemaColumnsError(_unreadable_rows(exc)) from None
    except _TooLarge:
        raise SchemaColumnsError(_too_large(None)) from None


class _TooDeep(_Refused):
    """A column's schema nests (through ``$ref``, ``anyOf``, ``allOf``) past ``_MAX_DEPTH``."""


class _TooLarge(Exception):
    """Reading the schema visited more than ``SCHEMA_MAX_NODES`` nodes."""


@dataclasses.dataclass(frozen=True)
class _Known:
    """What one schema node was read as, and from how deep, so it is read once."""

    node: Mapping[str, Any]  # held, so its id() names it for as long as the reading lasts
    depth: int  # the depth it was read at
    height: int  # how much deeper than ``depth`` reading it went
    outcome: _Mapped | _Refused


_UNRESOLVED: Any = object()


class _Walk:
    """One reading of a JSON Schema: what each ``$ref`` and each node turned out to be, and the
    nodes left to visit.

    A ``$ref`` is resolved once and a node read once however often it is referred to, so a
    schema whose ``anyOf`` branches refer to the same definitions level after level is read in
    time linear in its size, not exponential in its depth. ``spend`` bounds what is left: past
    ``SCHEMA_MAX_NODES`` the reading stops with ``_TooLarge``.
    """

    __slots__ = ("deepest", "known", "left", "root", "targets")

    def __init__(self, root: Mapping[str, Any]) -> None:
        self.root = root
        self.left = SCHEMA_MAX_NODES
        self.targets: dict[str, Any] = {}  # $ref → its target, or the _Refused that says why not
        self.known: dict[int, _Known] = {}
        self.deepest = 0

    def spend(self, nodes: int = 1) -> None:
        self.left -= nodes
        if self.left < 0:
            raise _TooLarge

    def deref(self, s: Any, depth: int) -> Any:
        """``s`` with a local ``$ref`` (``#/$defs/Row``, ``#/definitions/Row``) followed."""
        while isinstance(s, Mapping) and "$ref" in s:
            self.spend()
            if depth > _MAX_DEPTH:
                raise _TooDeep("refers through a $ref chain too deep to follow")
            ref = s["$ref"]
            if not isinstance(ref, str):
                raise _Refused(f"has a $ref that is not a string ({sample_text(ref)})")
            target = self.targets.get(ref, _UNRESOLVED)
            if target is _UNRESOLVED:
                target = self.targets[ref] = _resolve(ref, self.root)
            if isinstance(target, _Refused):
                raise _Refused(*target.args)
            s = target
            depth += 1
        return s

    def schema(self, s: Any, depth: int) -> Mapping[str, Any]:
        """``s`` followed through its ``$ref``s, as a mapping (``true``, or no schema: ``{}``)."""
        s = self.deref(s, depth)
        if s is False:
            return _NOTHING
        return s if isinstance(s, Mapping) else _ANYTHING

    def types(self, s: Mapping[str, Any]) -> set[str]:
        """The JSON type names ``s`` states (its ``type``, a name or a list of them)."""
        t = s.get("type")
        if isinstance(t, str):
            return {t}
        if isinstance(t, list):
            self.spend(len(t))
            return {x for x in t if isinstance(x, str)}
        return set()

    def reach(self, depth: int) -> None:
        self.deepest = max(self.deepest, depth)


_ANYTHING: Mapping[str, Any] = MappingProxyType({})
_NOTHING: Mapping[str, Any] = MappingProxyType({"not": _ANYTHING})


def _resolve(ref: str, root: Mapping[str, Any]) -> Any:
    """What a local ``$ref`` points to in ``root``, or the ``_Refused`` that says why not."""
    if not ref.startswith("#"):
        return _Refused(f"refers to {cap_text(ref, 80)!r}, outside the schema")
    if ref != "#" and not ref.startswith("#/"):
        return _Refused(_missing_ref(ref))
    target: Any = root
    for part in ref[2:].split("/") if ref != "#" else []:
        part = part.replace("~1", "/").replace("~0", "~")
        if not isinstance(target, Mapping) or part not in target:
            return _Refused(_missing_ref(ref))
        target = target[part]
    return target


def _too_large(column: str | None) -> str:
    where = "" if column is None else f" (it went past that reading column {_quoted(column)})"
    return (
        f"the JSON Schema is too large to read: chartkit visits at most {SCHEMA_MAX_NODES:,} "
        "of a schema's nodes (each subschema, each $ref followed, each entry of a list; a "
        f"$ref's target is read once however often it is referred to){where}. Publish a "
        "smaller schema, or write the declaration by hand."
    )


def _quoted(name: str) -> str:
    return repr(cap_text(name, NAME_MAX_CHARS))


def _rows_of(walk: _Walk) -> tuple[str | None, Mapping[str, Any]]:
    """Where the rows are (a property, or None for the array itself) and their row schema."""
    root = walk.schema(walk.root, 0)
    row = _array_items(root, walk)
    if row is not None:
        return None, row
    if walk.types(root) == {"object"} or "properties" in root:
        props = root.get("properties")
        found = []
        if isinstance(props, Mapping):
            for key, sub in props.items():
                walk.spend()
                items = _array_items(walk.schema(sub, 0), walk) if _is_schema(sub) else None
                if items is not None:
                    found.append((str(key), items))
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            names = ", ".join(_quoted(k) for k, _ in found[:8])
            raise SchemaColumnsError(
                f"the JSON Schema is an object with {len(found):,} properties that are arrays of "
                f"objects ({names}); chartkit cannot tell which holds the rows. Publish the "
                "rows under one property."
            )
    raise SchemaColumnsError(
        "the JSON Schema does not describe rows: it is neither an array of objects nor an "
        "object with one property holding an array of objects. The schema of one row goes "
        'inside an array: {"type": "array", "items": <the row\'s schema>}'
    )


def _is_schema(value: object) -> bool:
    return isinstance(value, Mapping) or isinstance(value, bool)


def _array_items(s: Mapping[str, Any], walk: _Walk) -> Mapping[str, Any] | None:
    """The row schema of an array of objects (with ``output_schema``'s open branch read
    through), or None when ``s`` is not one."""
    if walk.types(s) != {"array"}:
        return None
    items = s.get("items")
    if not isinstance(items, Mapping):
        return None
    items = walk.schema(items, 0)
    declared = _declared_branch(items, walk)
    if declared is not None:
        return declared
    return items if walk.types(items) == {"object"} or "properties" in items else None


def _declared_branch(items: Mapping[str, Any], walk: _Walk) -> Mapping[str, Any] | None:
    """The declared row of ``anyOf: [<declared row>, <any object>]`` — the form
    ``output_schema`` publishes — or None."""
    branches = items.get("anyOf")
    if not isinstance(branches, list) or len(branches) != 2:
        return None
    resolved = [walk.schema(b, 0) if isinstance(b, Mapping) else _ANYTHING for b in branches]
    open_ = [i for i, b in enumerate(resolved) if _is_open_object(b, walk)]
    if len(open_) != 1:
        return None
    declared = resolved[1 - open_[0]]
    return declared if "properties" in declared else None


def _is_open_object(s: Mapping[str, Any], walk: _Walk) -> bool:
    rest = set(s) - {"type", "title", "description", "additionalProperties"}
    return (
        walk.types(s) == {"object"}
        and not rest
        and s.get("additionalProperties", True) is True
        and isinstance(s.get("type"), str)
    )


def _json_columns(schema: Mapping[str, Any]) -> Iterator[tuple[str, _Mapped | str]]:
    walk = _Walk(schema)
    try:
        _, row = _rows_of(walk)
    except _Refused as exc:
        raise SchemaColumnsError(_unreadable_rows(exc)) from None
    except _TooLarge:
        raise SchemaColumnsError(_too_large(None)) from None
    props = row.get("properties")
    required = row.get("required")
    needed: set[str] = set()
    if isinstance(required, list):
        walk.spend(len(required))
        needed = {r for r in required if isinstance(r, str)}
    if not isinstance(props, Mapping):
        return
    for name, sub in props.items():
        if not isinstance(name, str) or name not in needed:
            continue  # may be absent from a row: a column to leave undeclared
        try:
            yield name, _json_type(sub, walk, 0)
        except _Refused as exc:
            yield name, str(exc)
        except _TooLarge:
            raise SchemaColumnsError(
                _too_large(name), refused=((name, _NOT_READ.format(SCHEMA_MAX_NODES)),)
            ) from None


_NOT_READ = "is not read: the schema has more than {:,} nodes to visit"


def _json_type(s: Any, walk: _Walk, depth: int) -> _Mapped:
    """The column type the schema ``s`` states; each node is read once in a reading.

    A node read before is answered from ``walk.known`` — unless that reading was cut short by
    the depth limit further down than here, when it is read again from here.
    """
    walk.spend()
    walk.reach(depth)
    if depth > _MAX_DEPTH:
        raise _TooDeep(_TOO_DEEP)
    node = walk.deref(s, depth)
    if node is False:
        raise _Refused("accepts no value at all (the schema false)")
    if node is True:
        raise _Refused(_UNTYPED)
    if not isinstance(node, Mapping):
        raise _Refused(f"is {sample_text(node)}, which is not a schema")
    known = walk.known.get(id(node))
    if known is None or (isinstance(known.outcome, _TooDeep) and depth < known.depth):
        known = _read_node(node, walk, depth)
    walk.reach(depth + known.height)
    if isinstance(known.outcome, _TooDeep) or depth + known.height <= _MAX_DEPTH:
        if isinstance(known.outcome, _Refused):  # raised afresh: a stored one would grow its trace
            raise type(known.outcome)(*known.outcome.args)
        return known.outcome
    raise _TooDeep(_TOO_DEEP)


def _read_node(node: Mapping[str, Any], walk: _Walk, depth: int) -> _Known:
    """Read ``node`` at ``depth`` into ``walk.known``: its outcome, and how deep it went."""
    outer = walk.deepest
    walk.deepest = depth
    outcome: _Mapped | _Refused
    try:
        outcome = _node_type(node, walk, depth)
    except _Refused as exc:
        outcome = exc
    known = _Known(node, depth, walk.deepest - depth, outcome)
    walk.deepest = max(outer, walk.deepest)
    walk.known[id(node)] = known
    return known


def _node_type(s: Mapping[str, Any], walk: _Walk, depth: int) -> _Mapped:
    if "enum" in s or "const" in s:
        values = s["enum"] if "enum" in s else [s["const"]]
        if not isinstance(values, list) or not values:
            raise _Refused("has an enum with no values")
        walk.spend(len(values))
        return _enum_type(values, what="an enum")
    if "type" in s and not _is_type_names(s["type"]):
        raise _Refused(
            f"has the type {sample_text(s['type'])}, which is neither a JSON type name nor a "
            "list of them"
        )
    all_of = s.get("allOf")
    if isinstance(all_of, list):
        if len(all_of) == 1 and not (walk.types(s) or "anyOf" in s or "oneOf" in s):
            return _json_type(all_of[0], walk, depth + 1)
        raise _Refused("combines schemas with allOf, which a column type cannot say")
    for key in ("anyOf", "oneOf"):
        branches = s.get(key)
        if isinstance(branches, list) and branches:
            if walk.types(s):
                raise _Refused(f"has both a type and {key}, which a column type cannot say")
            members = [
                _NULL if _is_null(b, walk) else _json_type(b, walk, depth + 1) for b in branches
            ]
            return _union(members, _branch_names(branches, walk))
    names = walk.types(s)
    if not names:
        if "not" in s:
            raise _Refused("is defined by not, which a column type cannot say")
        raise _Refused(_UNTYPED)
    fmt = s.get("format")
    if "format" in s and not isinstance(fmt, str):
        raise _Refused(
            f"has the format {sample_text(fmt)}, which is not a string (a format is a name, "
            'such as "date")'
        )
    mapped: list[_Mapped] = []
    for name in sorted(names):
        if name == "null":
            mapped.append(_NULL)
        elif name in ("integer", "number"):
            mapped.append(("number", False))
        elif name == "string":
            mapped.append(("date" if fmt in _DATE_FORMATS else "string", False))
        elif name == "boolean":
            mapped.append(("boolean", False))
        elif name == "object":
            raise _Refused("is a nested object")
        elif name == "array":
            raise _Refused("is an array")
        else:
            raise _Refused(f"has the unknown JSON type {cap_text(name, 40)!r}")
    return _union(mapped, sorted(names - {"null"}))


def _is_type_names(value: object) -> bool:
    """A JSON Schema ``type``: one name, or a list of names."""
    return isinstance(value, str) or (
        isinstance(value, list) and all(isinstance(x, str) for x in value)
    )


_NULL: Any = ("null", True)  # a member that holds only null: it makes a union nullable


def _is_null(branch: Any, walk: _Walk) -> bool:
    """A union member that holds only null (``{"type": "null"}``, ``{"const": null}``)."""
    s = walk.schema(branch, 0)
    if "const" in s:
        return s["const"] is None
    if "enum" in s:
        return bool(s["enum"] == [None])
    return walk.types(s) == {"null"} and not any(k in s for k in ("anyOf", "oneOf", "allOf"))


def _branch_names(branches: list[Any], walk: _Walk) -> list[str]:
    """The JSON types of a union's members, each named once, for a sentence."""
    out: dict[str, None] = {}
    for b in branches:
        try:
            s = walk.schema(b, 0)
        except _Refused:
            out["a $ref"] = None
            continue
        t = sorted(walk.types(s) - {"null"})
        fmt = s.get("format")
        if t == ["string"] and isinstance(fmt, str) and fmt in _DATE_FORMATS:
            t = [f"string ({fmt})"]
        if t:
            out["/".join(t)] = None
    return list(out)


def _union(mapped: list[_Mapped], names: list[str]) -> _Mapped:
    """One column type from the members of a union: null members make it nullable; the
    others must all be the same column type (``int | float`` is a number)."""
    nullable = any(m is _NULL or m[1] for m in mapped)
    kinds = sorted({m[0] for m in mapped if m is not _NULL}, key=COLUMN_TYPES.index)
    if not kinds:
        raise _Refused("holds only null")
    if len(kinds) > 1:
        shown = " and ".join(names) if len(names) > 1 else " and ".join(kinds)
        raise _Refused(f"is a union of {shown} ({' or '.join(kinds)})")
    return kinds[0], nullable


def _enum_type(values: list[Any], *, what: str) -> _Mapped:
    kinds: set[ColumnType] = set()
    nullable = False
    for v in values:
        if v is None:
            nullable = True
        elif isinstance(v, bool):
            kinds.add("boolean")
        elif isinstance(v, int | float | Decimal):
            kinds.add("number")
        elif isinstance(v, str):
            kinds.add("string")
        else:
            raise _Refused(f"is {what} with a value that is a {type(v).__name__}")
    if not kinds:
        raise _Refused(f"is {what} whose only value is null")
    if len(kinds) > 1:
        ordered = sorted(kinds, key=COLUMN_TYPES.index)
        raise _Refused(f"is {what} of mixed types ({', '.join(ordered)})")
    (kind,) = kinds
    return kind, nullable


# --------------------------------------------------------------------------- Python types


def _pydantic_base() -> type | None:
    try:
        from pydantic import BaseModel
    except ImportError:  # pragma: no cover - pydantic is a dependency
        return None
    return BaseModel


def _hints(cls: type) -> dict[str, Any]:
    try:
        return typing.get_type_hints(cls, include_extras=True)
    except Exception as exc:  # a forward reference that does not resolve, …
        raise SchemaColumnsError(
            f"the annotations of {cls.__qualname__!r} cannot be resolved "
            f"({type(exc).__name__}: {cap_text(str(exc), 200)}); define the types they name "
            "before reading the declaration"
        ) from None


def _typeddict_columns(cls: type) -> Iterator[tuple[str, _Mapped | str]]:
    required: frozenset[str] = getattr(cls, "__required_keys__", frozenset())
    for name, tp in _hints(cls).items():
        marked = typing.get_origin(tp)  # a string annotation can hide the mark from the class
        if marked is typing.NotRequired or (name not in required and marked is not typing.Required):
            continue  # a key that may be absent: a column to leave undeclared
        yield name, _mapped(tp)


def _dataclass_columns(cls: type) -> Iterator[tuple[str, _Mapped | str]]:
    hints = _hints(cls)
    for f in dataclasses.fields(cls):
        yield f.name, _mapped(hints.get(f.name, f.type))


def _pydantic_columns(cls: Any) -> Iterator[tuple[str, _Mapped | str]]:
    # The wire name: a field's serialization alias, as the model's JSON Schema and MCP use it.
    for name, info in cls.model_fields.items():
        wire = info.serialization_alias or info.alias or name
        yield wire, _mapped(info.annotation)
    for name, info in cls.model_computed_fields.items():
        yield (info.alias or name), _mapped(info.return_type)


def _mapped(tp: Any) -> _Mapped | str:
    try:
        return _py_type(tp, 0)
    except _Refused as exc:
        return str(exc)


_WRAPPERS = tuple(
    w
    for w in (
        getattr(typing, "Required", None),
        getattr(typing, "NotRequired", None),
        getattr(typing, "ReadOnly", None),
        getattr(typing, "Final", None),
    )
    if w is not None
)


def _py_type(tp: Any, depth: int) -> _Mapped:
    if depth > _MAX_DEPTH:
        raise _Refused("nests type aliases too deep to follow")
    origin = typing.get_origin(tp)
    if origin is typing.Annotated or origin in _WRAPPERS:
        return _py_type(typing.get_args(tp)[0], depth + 1)
    if isinstance(tp, typing.TypeAliasType if hasattr(typing, "TypeAliasType") else ()):
        return _py_type(tp.__value__, depth + 1)
    supertype = getattr(tp, "__supertype__", None)  # typing.NewType
    if supertype is not None:
        return _py_type(supertype, depth + 1)
    if origin is typing.Union or origin is types.UnionType:
        args = typing.get_args(tp)
        members = [_NULL if a is type(None) else _py_type(a, depth + 1) for a in args]
        return _union(members, [_type_name(a) for a in args if a is not type(None)])
    if origin is Literal:
        return _enum_type(list(typing.get_args(tp)), what="a Literal")
    if tp is Any:
        raise _Refused("is Any")
    if tp is object:
        raise _Refused("is object (any value)")
    if tp is None or tp is type(None):
        raise _Refused("holds only None")
    if isinstance(tp, str | typing.ForwardRef):
        raise _Refused(f"is the unresolved annotation {cap_text(str(tp), 80)!r}")
    if isinstance(tp, typing.TypeVar):
        raise _Refused(f"is the type variable {tp.__name__!r}")
    if origin is not None:
        return _refuse_container(origin, tp)
    if not isinstance(tp, type):
        raise _Refused(f"is {cap_text(repr(tp), 80)}, which is not a type")
    if issubclass(tp, enum.Enum):
        return _enum_type([m.value for m in tp], what=f"the enum {tp.__qualname__!r}")
    if issubclass(tp, bool):  # before int: bool subclasses int, and True is not a number
        return "boolean", False
    if issubclass(tp, int | float | Decimal):
        return "number", False
    if issubclass(tp, str):
        return "string", False
    if issubclass(tp, dt.date):  # datetime.datetime subclasses datetime.date
        return "date", False
    return _refuse_container(tp, tp)


def _refuse_container(cls: Any, tp: Any) -> _Mapped:
    name = _type_name(tp)
    if isinstance(cls, type):
        pydantic_model = _pydantic_base()
        if (
            issubclass(cls, Mapping | dict)
            or typing.is_typeddict(cls)
            or dataclasses.is_dataclass(cls)
            or (pydantic_model is not None and issubclass(cls, pydantic_model))
        ):
            raise _Refused(f"is a nested object ({name})")
        if issubclass(cls, str | bytes | bytearray):
            raise _Refused(_unmapped(f"is {name}"))
        if issubclass(cls, Iterable):
            raise _Refused(f"is an array ({name})")
    raise _Refused(_unmapped(f"is {name}"))


def _type_name(tp: Any) -> str:
    if isinstance(tp, type) and typing.get_origin(tp) is None:
        name = tp.__qualname__
    else:
        name = repr(tp).replace("typing.", "")
    return cap_text(re.sub(r"\b(?:datetime|decimal)\.", "", name), 80)


# -------------------------------------------------------------------------- Arrow, DuckDB


def _arrow(tp: Any, nullable: bool) -> _Mapped | str:
    import pyarrow as pa

    t = pa.types
    if t.is_dictionary(tp):
        return _arrow(tp.value_type, nullable)
    if t.is_boolean(tp):
        return "boolean", nullable
    if t.is_integer(tp) or t.is_floating(tp) or t.is_decimal(tp):
        return "number", nullable
    if t.is_string(tp) or t.is_large_string(tp) or _is(t, "is_string_view", tp):
        return "string", nullable
    if t.is_date(tp) or t.is_timestamp(tp):
        return "date", nullable
    shown = cap_text(str(tp), 80)
    if t.is_null(tp):
        return "holds only nulls (Arrow type null)"
    if (
        t.is_list(tp)
        or t.is_large_list(tp)
        or t.is_fixed_size_list(tp)
        or _is(t, "is_list_view", tp)
        or _is(t, "is_large_list_view", tp)
    ):
        return f"is an array (Arrow type {shown})"
    if t.is_struct(tp) or t.is_map(tp):
        return f"is a nested object (Arrow type {shown})"
    if t.is_union(tp):
        return f"is a union (Arrow type {shown})"
    return _unmapped(f"has the Arrow type {shown}")


def _is(t: Any, predicate: str, tp: Any) -> bool:
    fn = getattr(t, predicate, None)
    return bool(fn(tp)) if fn is not None else False


_DUCKDB_NUMBER = re.compile(
    r"(?:U?(?:TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT)|INT[1248]?|FLOAT[48]?|REAL|DOUBLE"
    r"|DECIMAL(?:\(\d+,\s*\d+\))?|NUMERIC(?:\(\d+,\s*\d+\))?|VARINT|BIGNUM)"
)
_DUCKDB_STRING = re.compile(r"VARCHAR(?:\(\d+\))?|TEXT|STRING|ENUM\(.*\)")
_DUCKDB_DATE = re.compile(r"DATE|TIMESTAMP(?:_S|_MS|_NS|TZ| WITH TIME ZONE)?|DATETIME")


def _duckdb_type(text: str, nullable: bool) -> _Mapped | str:
    upper = text.strip().upper()
    shown = cap_text(text, 80)
    if upper == "BOOLEAN" or upper == "BOOL":
        return "boolean", nullable
    if _DUCKDB_NUMBER.fullmatch(upper):
        return "number", nullable
    if _DUCKDB_STRING.fullmatch(upper):
        return "string", nullable  # a DuckDB ENUM's values are always strings
    if _DUCKDB_DATE.fullmatch(upper):
        return "date", nullable
    if upper.endswith("]"):
        return f"is an array (DuckDB type {shown})"
    if upper.startswith(("STRUCT", "MAP")):
        return f"is a nested object (DuckDB type {shown})"
    if upper.startswith("UNION"):
        return f"is a union (DuckDB type {shown})"
    return _unmapped(f"has the DuckDB type {shown}")


def _duckdb_columns(relation: Any) -> Iterator[tuple[str, _Mapped | str]]:
    columns = [c.lower() for c in getattr(relation, "columns", ())]
    if columns[:3] != ["column_name", "column_type", "null"]:
        raise SchemaColumnsError(
            "result_columns_from reads a DuckDB relation of DESCRIBE output (columns "
            "column_name, column_type, null, …); pass con.sql('DESCRIBE <table or query>')"
        )
    for name, column_type, null, *_ in relation.fetchall():
        yield str(name), _duckdb_type(str(column_type), str(null).upper() == "YES")


# ------------------------------------------------------------------ declaration → schema


def _column_schema(decl: ColumnDeclaration) -> dict[str, Any]:
    if decl.type == "date":
        branches: list[dict[str, Any]] = [
            {"type": "string", "format": "date"},
            {"type": "string", "format": "date-time"},
        ]
        if decl.nullable:
            branches.append({"type": "null"})
        return {"anyOf": branches}
    if decl.nullable:
        return {"type": [decl.type, "null"]}
    return {"type": decl.type}


def output_schema(
    result_columns: object, *, rows_property: str | None = ROWS_PROPERTY
) -> dict[str, Any]:
    """The JSON Schema (an MCP ``outputSchema``) that states a declaration.

    The rows sit under ``rows_property`` of an object (MCP structured content must be an
    object; the Python SDK wraps a returned list as ``{"result": rows}``), or are the array
    itself when ``rows_property`` is None. Each row is ``anyOf`` two branches: first the
    declared row — every declared column ``required``, with its JSON type — then any object.
    So the schema states the declaration for a reader (and ``result_columns_from`` reads it
    back exactly), while a validator accepts every row: an SDK that validates structured
    content against ``outputSchema`` cannot turn a row that breaks the declaration into an
    exception under ``warn``. The declaration is judged once, by the check and its dial.

    >>> output_schema({"lun": "number"}, rows_property=None)  # doctest: +NORMALIZE_WHITESPACE
    {'type': 'array', 'items': {'anyOf': [{'type': 'object',
      'properties': {'lun': {'type': 'number'}}, 'required': ['lun']}, {'type': 'object'}],
      'description': 'Each row as declared (the first branch); any object is accepted, so the
      declared types are judged by the column check and its dial, not by schema validation.'}}
    """
    declared = _assert("(output schema)", result_columns)
    row: dict[str, Any] = {
        "type": "object",
        "properties": {name: _column_schema(d) for name, d in declared.items()},
        "required": list(declared),
    }
    array = {
        "type": "array",
        "items": {
            "anyOf": [row, {"type": "object"}],
            "description": (
                "Each row as declared (the first branch); any object is accepted, so the "
                "declared types are judged by the column check and its dial, not by schema "
                "validation."
            ),
        },
    }
    if rows_property is None:
        return array
    return {"type": "object", "properties": {rows_property: array}, "required": [rows_property]}
