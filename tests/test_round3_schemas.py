"""Hostile JSON Schemas (issue 38, items 3 and 4): ``result_columns_from`` reads each ``$ref``
once within a bounded budget, and a keyword of the wrong JSON type refuses its column.

A tool's ``outputSchema`` is the server's to write, and ``chartkit.mcp.list_tools`` reads every
one. These say that no schema makes the reading exponential, and that whatever JSON value sits
in whatever keyword, the answer is a declaration or ``SchemaColumnsError`` — never another
exception that would keep the rest of the server's tools from being listed.
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock

import anyio
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chartkit import ColumnDeclaration, SchemaColumnsError, result_columns_from
from chartkit.read import schemas
from chartkit.read.schemas import SCHEMA_MAX_NODES, rows_property

TAIL = (
    ". A declared column is one of number, string, boolean, date, optionally nullable; leave "
    'these columns out (unmappable="leave" leaves them undeclared), or write the declaration '
    "by hand."
)
TOO_LARGE = (
    "the JSON Schema is too large to read: chartkit visits at most {:,} of a schema's nodes "
    "(each subschema, each $ref followed, each entry of a list; a $ref's target is read once "
    "however often it is referred to) (it went past that reading column {!r}). Publish a "
    "smaller schema, or write the declaration by hand."
)


def rows(columns: dict[str, Any], **root: Any) -> dict[str, Any]:
    """An array of rows whose every column is required; ``root`` adds keywords (``$defs``)."""
    row = {"type": "object", "properties": columns, "required": list(columns)}
    return {"type": "array", "items": row, **root}


def ladder(levels: int, branches: int = 8) -> dict[str, Any]:
    """Issue 38's schema: each level ``anyOf`` ``branches`` refs to the next, a date at the
    bottom and a null beside each level's refs — naively ``branches ** levels`` readings."""
    defs: dict[str, Any] = {f"L{levels}": {"type": "string", "format": "date"}}
    for i in range(levels - 1, -1, -1):
        refs = [{"$ref": f"#/$defs/L{i + 1}"} for _ in range(branches)]
        defs[f"L{i}"] = {"anyOf": [*refs, {"type": "null"}]}
    return rows({"when": {"$ref": "#/$defs/L0"}, "lun": {"type": "integer"}}, **{"$defs": defs})


@contextmanager
def counting_readings() -> Iterator[list[int]]:
    """How often a (sub)schema is read as a column type: one count per ``_json_type`` call."""
    calls = [0]
    real = schemas._json_type

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        return real(*args, **kwargs)

    with mock.patch.object(schemas, "_json_type", counted):
        yield calls


def reason(schema: dict[str, Any], column: str = "bad") -> str:
    with pytest.raises(SchemaColumnsError) as caught:
        result_columns_from(schema)
    return dict(caught.value.refused)[column]


# -------------------------------------------------------------- item 3: anyOf behind $ref


@pytest.mark.parametrize("levels", [6, 8])
def test_anyof_behind_ref_reads_each_definition_once(levels: int) -> None:
    """8 branches a level: 8**levels readings before; now one per definition and branch."""
    with counting_readings() as calls:
        declared = result_columns_from(ladder(levels))
    assert dict(declared) == {
        "when": ColumnDeclaration("date", nullable=True),
        "lun": ColumnDeclaration("number"),
    }
    assert calls[0] <= 2 + levels * 8 + 1  # the two columns, then each level's eight refs


def test_a_definition_shared_by_every_column_is_read_once() -> None:
    columns = {f"c{i}": {"$ref": "#/$defs/L0"} for i in range(50)}
    schema = rows(columns, **{"$defs": ladder(8)["$defs"]})
    with counting_readings() as calls:
        declared = result_columns_from(schema)
    assert set(declared.values()) == {ColumnDeclaration("date", nullable=True)}
    assert calls[0] <= 50 + 8 * 8 + 1


def test_a_recursive_schema_is_refused_and_read_a_bounded_number_of_times() -> None:
    defs = {
        "A": {"anyOf": [{"$ref": "#/$defs/B"}] * 8},
        "B": {"anyOf": [{"type": "null"}, *[{"$ref": "#/$defs/A"}] * 8]},
    }
    columns = {f"c{i}": {"$ref": "#/$defs/A"} for i in range(100)}
    with counting_readings() as calls, pytest.raises(SchemaColumnsError) as caught:
        result_columns_from(rows(columns, **{"$defs": defs}))
    assert set(caught.value.refused) == {
        (f"c{i}", "nests anyOf/allOf too deep to follow") for i in range(100)
    }
    assert calls[0] <= 100 + 40


def test_a_reading_past_the_node_budget_stops_naming_the_limit_and_the_column() -> None:
    """One type list of 50,000 names, referred to by 100 columns: 5,000,000 nodes to visit.

    A type list is paid for each time it is read, so the reading stops at the budget, naming
    it, whatever ``unmappable`` says: a partial reading would declare an arbitrary subset.
    """
    columns = {f"c{i}": {"anyOf": [{"$ref": "#/$defs/S"}]} for i in range(100)}
    schema = rows(columns, **{"$defs": {"S": {"type": ["string"] * 50_000}}})
    for unmappable in ("refuse", "leave"):
        with pytest.raises(SchemaColumnsError) as caught:
            result_columns_from(schema, unmappable=unmappable)  # type: ignore[arg-type]
        stopped_at = caught.value.refused[0][0]
        assert str(caught.value) == TOO_LARGE.format(SCHEMA_MAX_NODES, stopped_at)
        assert caught.value.refused == (
            (stopped_at, "is not read: the schema has more than 1,000,000 nodes to visit"),
        )
        assert int(stopped_at[1:]) < 100  # it stopped, not after the last column


def test_the_budget_bounds_finding_the_rows_too() -> None:
    props = {f"p{i}": {"$ref": "#/$defs/S"} for i in range(100)}
    schema = {"type": "object", "properties": props, "$defs": {"S": {"type": ["x"] * 50_000}}}
    for read in (rows_property, result_columns_from):
        with pytest.raises(SchemaColumnsError, match="too large to read: chartkit visits at most"):
            read(schema)


def test_the_budget_is_the_modules_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """``SCHEMA_MAX_NODES`` is what the reading spends: 40 one-type columns fit 100 nodes and
    60 do not."""
    monkeypatch.setattr(schemas, "SCHEMA_MAX_NODES", 100)
    assert len(result_columns_from(rows({f"c{i}": {"type": "string"} for i in range(40)}))) == 40
    with pytest.raises(SchemaColumnsError) as caught:
        result_columns_from(rows({f"c{i}": {"type": "string"} for i in range(60)}))
    assert str(caught.value).startswith(
        "the JSON Schema is too large to read: chartkit visits at most 100 of a schema's nodes"
    )


def test_a_long_ref_referred_to_by_every_column_is_resolved_once() -> None:
    """Resolving ``#/a/a/…/a`` walks its parts; each $ref string is walked once per reading."""
    depth = 5_000
    nested: dict[str, Any] = {"type": "boolean"}
    for _ in range(depth):
        nested = {"a": nested}
    target = "#/" + "/".join(["a"] * depth)
    schema = rows({f"c{i}": {"$ref": "#/$defs/X"} for i in range(300)}, a=nested["a"])
    schema["$defs"] = {"X": {"$ref": target}}
    walked = [0]
    real = schemas._resolve

    def counted(ref: str, root: Any) -> Any:
        walked[0] += 1
        return real(ref, root)

    with mock.patch.object(schemas, "_resolve", counted):
        declared = result_columns_from(schema)
    assert set(declared.values()) == {ColumnDeclaration("boolean")}
    assert walked[0] == 2  # '#/$defs/X' and the long one


# ------------------------------------------- item 3: generated anyOf/$ref families, checked

_LEAVES: dict[str, tuple[str, bool] | None] = {
    "string": ("string", False),
    "integer": ("number", False),
    "number": ("number", False),
    "boolean": ("boolean", False),
    "date": ("date", False),
    "null": None,
}


def _leaf(name: str) -> dict[str, Any]:
    return {"type": "string", "format": "date"} if name == "date" else {"type": name}


@st.composite
def ref_families(draw: Any) -> tuple[dict[str, Any], dict[str, list[Any]]]:
    """Definitions ``L0``…``Ln`` each ``anyOf`` 1–8 branches: a ref to a later definition (or,
    in a cyclic family, to any — a cycle), a leaf type, or an inline ``anyOf`` of those.

    Returns the schema and each definition's branches in the oracle's terms:
    ``("ref", j)``, ``("leaf", name)`` or ``("inline", [...])``.
    """
    n = draw(st.integers(1, 7))
    cyclic = draw(st.sampled_from([False, False, False, True]))
    # mostly one kind of leaf (and null), so most families read as a column and every branch
    # is read; of mixed kinds, the first refused member ends the reading of its union
    palette = draw(
        st.sampled_from(
            [("string", "null"), ("integer", "number", "null"), ("date",), tuple(_LEAVES)]
        )
    )
    targets = st.integers(0, n - 1) if cyclic else None

    def branch(i: int, inline: bool) -> Any:
        later = st.integers(i + 1, n - 1) if i + 1 < n else st.nothing()
        refs = st.builds(lambda j: ("ref", j), targets if targets is not None else later)
        leaves = st.builds(lambda name: ("leaf", name), st.sampled_from(palette))
        options = [refs, leaves]
        if inline:
            options.append(
                st.builds(
                    lambda bs: ("inline", bs), st.lists(branch(i, False), min_size=1, max_size=4)
                )
            )
        return st.one_of(*options)

    plan = {f"L{i}": draw(st.lists(branch(i, True), min_size=1, max_size=8)) for i in range(n)}

    def written(b: Any) -> dict[str, Any]:
        kind, arg = b
        if kind == "ref":
            return {"$ref": f"#/$defs/L{arg}"}
        if kind == "leaf":
            return _leaf(arg)
        return {"anyOf": [written(x) for x in arg]}

    defs = {name: {"anyOf": [written(b) for b in bs]} for name, bs in plan.items()}
    return rows({"a": {"$ref": "#/$defs/L0"}}, **{"$defs": defs}), plan


def oracle(plan: dict[str, list[Any]]) -> tuple[str, bool] | None:
    """Column ``a``'s declaration (None: refused), by the rules of a union, read naively."""

    def union(branches: list[Any], seen: frozenset[str]) -> tuple[str, bool] | None:
        kinds, nullable = set(), False
        for kind, arg in branches:
            if kind == "leaf" and _LEAVES[arg] is None:
                nullable = True
                continue
            if kind == "leaf":
                member = _LEAVES[arg]
            elif kind == "inline":
                member = union(arg, seen)
            elif f"L{arg}" in seen:
                return None  # a definition inside itself: no finite reading
            else:
                member = read(f"L{arg}", seen)
            if member is None:
                return None
            kinds.add(member[0])
            nullable = nullable or member[1]
        return (kinds.pop(), nullable) if len(kinds) == 1 else None

    @functools.cache
    def read(name: str, seen: frozenset[str]) -> tuple[str, bool] | None:
        return union(plan[name], seen | {name})

    return read("L0", frozenset())


def refs_in(branches: list[Any]) -> Iterator[int]:
    """The definitions a plan's branches refer to, inline ones included."""
    for kind, arg in branches:
        if kind == "ref":
            yield arg
        elif kind == "inline":
            yield from refs_in(arg)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(family=ref_families())
def test_generated_anyof_ref_families_read_as_a_union_reads_and_each_node_once(
    family: tuple[dict[str, Any], dict[str, list[Any]]],
) -> None:
    schema, plan = family
    expected = oracle(plan)
    slots = sum(len(bs) + sum(len(a) for k, a in bs if k == "inline") for bs in plan.values())
    with counting_readings() as calls:
        try:
            got = result_columns_from(schema)["a"]
        except SchemaColumnsError as exc:
            assert [name for name, _ in exc.refused] == ["a"]
            assert expected is None, (expected, exc.refused)
        else:
            assert expected is not None and got == ColumnDeclaration(*expected)
    if all(j > int(name[1:]) for name, bs in plan.items() for j in refs_in(bs)):
        assert calls[0] <= 1 + slots  # no cycle: each node read once, each branch once


# ------------------------------------------------ item 4: a keyword of the wrong JSON type


@pytest.mark.parametrize(
    ("column", "why"),
    [
        (
            {"type": "string", "format": ["date"]},
            'has the format ["date"], which is not a string (a format is a name, such as "date")',
        ),
        (
            {"type": "string", "format": {"date": 1}},
            'has the format {"date": 1}, which is not a string (a format is a name, such as '
            '"date")',
        ),
        (
            {"type": "integer", "format": None},
            'has the format null, which is not a string (a format is a name, such as "date")',
        ),
        (
            {"type": ["string", ["null"]]},
            'has the type ["string", ["null"]], which is neither a JSON type name nor a list of '
            "them",
        ),
        ({"type": 7}, "has the type 7, which is neither a JSON type name nor a list of them"),
        (
            {"anyOf": [{"type": "string", "format": ["date"]}, {"type": "null"}]},
            'has the format ["date"], which is not a string (a format is a name, such as "date")',
        ),
        ({"$ref": ["#/$defs/x"]}, 'has a $ref that is not a string (["#/$defs/x"])'),
        ({"$ref": "#x"}, "refers to '#x', which the schema does not have"),
        (7, "is 7, which is not a schema"),
        ("\x1b[31mstring", 'is "\\u001b[31mstring", which is not a schema'),
    ],
)
def test_a_keyword_of_the_wrong_json_type_refuses_its_column_alone(column: Any, why: str) -> None:
    schema = rows({"lun": {"type": "integer"}, "bad": column})
    with pytest.raises(SchemaColumnsError) as caught:
        result_columns_from(schema)
    assert str(caught.value) == (
        f"the JSON Schema has 1 column chartkit cannot declare: 'bad' {why}{TAIL}"
    )
    assert caught.value.refused == (("bad", why),)
    assert dict(result_columns_from(schema, unmappable="leave")) == {
        "lun": ColumnDeclaration("number")
    }


def test_a_non_string_format_beside_a_date_union_names_each_member_once() -> None:
    column = {"anyOf": [{"type": "string", "format": "date"}] * 30 + [{"type": "integer"}] * 30}
    assert reason(rows({"bad": column})) == (
        "is a union of string (date) and integer (number or date)"
    )


_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=6)
    | st.sampled_from(["date", "date-time", "string", "null", "object", "array", "#", "#/$defs/x"]),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=8,
)
_COLUMN_KEYWORDS = [
    "type", "format", "enum", "const", "anyOf", "oneOf", "allOf", "not", "$ref", "nullable",
    "items", "properties", "required", "additionalProperties", "title",
]  # fmt: skip
_PLACES = ["column", "branch", "definition", "row", "items", "root"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(place=st.sampled_from(_PLACES), keyword=st.sampled_from(_COLUMN_KEYWORDS), value=_JSON)
def test_any_json_value_in_any_keyword_is_a_declaration_or_the_documented_error(
    place: str, keyword: str, value: Any
) -> None:
    """Column ``bad`` — itself, a branch of its ``anyOf``, or the definition it refers to —
    or the row, its array or the root gets ``keyword: value``. The column's own keyword can
    only cost that column: the others stay declared."""
    bad: dict[str, Any] = {"type": "string"}
    definition: dict[str, Any] = {"type": "string", "format": "date"}
    row: dict[str, Any] = {
        "type": "object",
        "properties": {
            "lun": {"type": "integer"},
            "bad": bad,
            "via": {"anyOf": [{"$ref": "#/$defs/x"}, {"type": "null"}]},
        },
        "required": ["lun", "bad", "via"],
    }
    array: dict[str, Any] = {"type": "array", "items": row}
    root: dict[str, Any] = {
        "type": "object",
        "properties": {"rows": array},
        "$defs": {"x": definition},
    }
    target = {"column": bad, "branch": bad, "definition": definition, "row": row}.get(place)
    if place == "branch":
        row["properties"]["bad"] = {"anyOf": [{"type": "null"}, bad]}
    target = {"items": array, "root": root}.get(place, target)
    assert target is not None
    target[keyword] = value
    for unmappable in ("refuse", "leave"):
        try:
            declared = result_columns_from(root, unmappable=unmappable)  # type: ignore[arg-type]
        except SchemaColumnsError as exc:
            refused = {name for name, _ in exc.refused}
            if place in ("column", "branch"):
                assert refused <= {"bad"}
                assert not (unmappable == "leave" and refused), "leave never raises over 'bad'"
            elif place == "definition":
                assert refused <= {"via"}
            continue
        assert all(isinstance(d, ColumnDeclaration) for d in declared.values())
        if place in ("column", "branch"):
            assert declared["lun"] == ColumnDeclaration("number")
            assert declared["via"] == ColumnDeclaration("date", nullable=True)
    try:
        rows_property(root)
    except SchemaColumnsError:
        pass


# ------------------------------------------------------------ through a real MCP client


def test_list_tools_reads_a_hostile_servers_schemas_and_names_what_it_drops() -> None:
    """One server: the issue's ladder is read (fast), a list format is dropped with the usual
    warning, and a schema past the budget is dropped with a warning naming tool and limit."""
    from mcp.server.mcpserver import MCPServer

    from chartkit.mcp import DeclarationDroppedWarning, list_tools, open_server

    name = f"hostile-{uuid.uuid4().hex[:8]}"
    server: MCPServer[Any] = MCPServer(name)
    huge = {f"c{i}": {"anyOf": [{"$ref": "#/$defs/S"}]} for i in range(100)}
    published = {
        "ladder": ladder(8),
        "listed_format": rows(
            {"lun": {"type": "integer"}, "when": {"type": "string", "format": ["date"]}}
        ),
        "huge": rows(huge, **{"$defs": {"S": {"type": ["string"] * 50_000}}}),
    }

    def tool() -> dict[str, Any]:
        return {"result": []}

    for tool_name, schema in published.items():
        server.add_tool(tool, name=tool_name, structured_output=True)
        defs = schema.pop("$defs", {})  # a $ref is read from the root of the outputSchema
        wrapped = {"type": "object", "properties": {"result": schema}, "required": ["result"]}
        server._tool_manager.get_tool(tool_name).fn_metadata.output_schema = {
            **wrapped,
            "$defs": defs,
        }

    async def listed() -> Any:
        async with open_server(server) as client:
            return await list_tools(client)

    with pytest.warns(DeclarationDroppedWarning) as record:
        tools = {t.name: t for t in anyio.run(listed)}
    assert set(tools) == set(published)
    assert tools["ladder"].result_columns == {
        "when": ColumnDeclaration("date", nullable=True),
        "lun": ColumnDeclaration("number"),
    }
    assert tools["listed_format"].result_columns == {"lun": ColumnDeclaration("number")}
    assert tools["huge"].result_columns is None
    said = sorted(str(w.message) for w in record)
    assert len(said) == 2
    lead = f"MCP server {name!r} lists tool {{!r}} with no resultColumns in its _meta and an "
    lead += "outputSchema chartkit cannot read as a declaration: "
    assert said[0].startswith(lead.format("huge") + "the JSON Schema is too large to read: ")
    assert "at most 1,000,000 of a schema's nodes" in said[0]
    assert said[1].startswith(
        lead.format("listed_format")
        + "the JSON Schema has 1 column chartkit cannot declare: 'when' has the format "
        '["date"], which is not a string'
    )
