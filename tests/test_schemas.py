"""chartkit.schemas: declarations read from schemas (never from values), and back to a schema."""

from __future__ import annotations

import dataclasses
import datetime as dt
import enum
from decimal import Decimal
from typing import Any, Literal, NotRequired, Optional, TypedDict

import pytest
from pydantic import BaseModel, Field

from chartkit import (
    ColumnDeclaration,
    ResultColumnsError,
    SchemaColumnsError,
    normalize_result_columns,
    output_schema,
    result_columns_from,
)
from chartkit.read.schemas import rows_property

LUN = {
    "logical_unit_number": "number",
    "host_group": "string",
    "comment": {"type": "string", "nullable": True},
}
TAIL = (
    ". A declared column is one of number, string, boolean, date, optionally nullable; leave "
    'these columns out (unmappable="leave" leaves them undeclared), or write the declaration '
    "by hand."
)


def wire(declared: Any) -> dict[str, Any]:
    return {name: d.to_wire() for name, d in declared.items()}


def rows_schema(**columns: Any) -> dict[str, Any]:
    """An MCP-shaped outputSchema: rows under "rows", every column required."""
    row = {"type": "object", "properties": columns, "required": list(columns)}
    return {
        "type": "object",
        "properties": {"rows": {"type": "array", "items": row}},
        "required": ["rows"],
    }


def refused(source: object) -> str:
    with pytest.raises(SchemaColumnsError) as caught:
        result_columns_from(source)
    return str(caught.value)


# ----------------------------------------------------------------- declaration round trip


@pytest.mark.parametrize(
    "declaration",
    [
        LUN,
        {"when": "date", "seen": {"type": "date", "nullable": True}},
        {"ok": "boolean", "maybe": {"type": "boolean", "nullable": True}},
        {"n": {"type": "number", "nullable": True}, "s": "string"},
    ],
)
def test_declaration_to_output_schema_and_back_is_the_identity(declaration: Any) -> None:
    expected = normalize_result_columns(declaration)
    assert dict(result_columns_from(output_schema(declaration))) == dict(expected)
    bare = output_schema(declaration, rows_property=None)
    assert dict(result_columns_from(bare)) == dict(expected)
    assert list(result_columns_from(output_schema(declaration))) == list(expected)  # order


def test_output_schema_states_the_declared_json_types_and_lets_every_row_through() -> None:
    import jsonschema

    schema = output_schema(LUN)
    assert schema["required"] == ["result"]
    declared_row, any_row = schema["properties"]["result"]["items"]["anyOf"]
    assert declared_row == {
        "type": "object",
        "properties": {
            "logical_unit_number": {"type": "number"},
            "host_group": {"type": "string"},
            "comment": {"type": ["string", "null"]},
        },
        "required": ["logical_unit_number", "host_group", "comment"],
    }
    assert any_row == {"type": "object"}
    # The LUN bug itself validates: the check and its dial judge the types, not the validator.
    jsonschema.validate({"result": [{"logical_unit_number": "", "host_group": 1}]}, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"result": "not rows"}, schema)
    assert rows_property(schema) == "result"


def test_output_schema_refuses_a_malformed_declaration() -> None:
    with pytest.raises(ResultColumnsError, match="declares column 'lun' as \"integer\""):
        output_schema({"lun": "integer"})


# ------------------------------------------------------------------------- JSON Schema


def test_an_mcp_output_schema_with_rows_under_one_property() -> None:
    schema = rows_schema(
        lun={"type": "integer"},
        size={"type": "number"},
        name={"type": "string"},
        day={"type": "string", "format": "date"},
        at={"type": ["string", "null"], "format": "date-time"},
        ok={"type": "boolean"},
        note={"anyOf": [{"type": "string"}, {"type": "null"}]},
        kind={"enum": ["a", "b", None]},
        email={"type": "string", "format": "email"},
    )
    schema["properties"]["total"] = {"type": "integer"}
    assert rows_property(schema) == "rows"
    assert wire(result_columns_from(schema)) == {
        "lun": {"type": "number", "nullable": False},
        "size": {"type": "number", "nullable": False},
        "name": {"type": "string", "nullable": False},
        "day": {"type": "date", "nullable": False},
        "at": {"type": "date", "nullable": True},
        "ok": {"type": "boolean", "nullable": False},
        "note": {"type": "string", "nullable": True},
        "kind": {"type": "string", "nullable": True},
        "email": {"type": "string", "nullable": False},
    }


def test_a_property_not_required_is_left_undeclared() -> None:
    schema = rows_schema(lun={"type": "integer"})
    schema["properties"]["rows"]["items"]["properties"]["comment"] = {"type": "string"}
    assert wire(result_columns_from(schema)) == {"lun": {"type": "number", "nullable": False}}


def test_a_schema_with_no_required_column_declares_nothing_and_says_so() -> None:
    schema = {
        "type": "array",
        "items": {"type": "object", "properties": {"a": {"type": "integer"}}},
    }
    assert refused(schema) == (
        "the JSON Schema declares no column every row carries; nothing to check the rows "
        "against. A column is declared when the schema states its type and that every row has "
        'it (JSON Schema: list it in "required").'
    )


def test_the_schema_pydantic_writes_for_a_list_of_models_is_read_through_its_refs() -> None:
    from pydantic import TypeAdapter

    class Mapping(BaseModel):
        logical_unit_number: int
        host_group: str

    class Answer(BaseModel):
        rows: list[Mapping]

    schema = TypeAdapter(Answer).json_schema()
    assert "$defs" in schema
    assert wire(result_columns_from(schema)) == {
        "logical_unit_number": {"type": "number", "nullable": False},
        "host_group": {"type": "string", "nullable": False},
    }


def test_a_schema_that_is_not_rows_is_refused_with_the_fix() -> None:
    assert refused({"type": "object", "properties": {"celsius": {"type": "number"}}}) == (
        "the JSON Schema does not describe rows: it is neither an array of objects nor an "
        "object with one property holding an array of objects. The schema of one row goes "
        'inside an array: {"type": "array", "items": <the row\'s schema>}'
    )


def test_two_properties_holding_rows_are_refused_as_ambiguous() -> None:
    rows = {"type": "array", "items": {"type": "object", "properties": {}}}
    assert refused({"type": "object", "properties": {"a": rows, "b": rows}}) == (
        "the JSON Schema is an object with 2 properties that are arrays of objects ('a', 'b'); "
        "chartkit cannot tell which holds the rows. Publish the rows under one property."
    )


@pytest.mark.parametrize(
    ("column", "reason"),
    [
        ({"type": "object", "properties": {"x": {"type": "integer"}}}, "is a nested object"),
        ({"type": "array", "items": {"type": "string"}}, "is an array"),
        ({"type": ["string", "integer"]}, "is a union of integer and string (number or string)"),
        (
            {"anyOf": [{"type": "string"}, {"type": "number"}, {"type": "null"}]},
            "is a union of string and number (number or string)",
        ),
        ({"enum": ["a", 1]}, "is an enum of mixed types (number, string)"),
        ({}, "has no type (it accepts any value)"),
        ({"type": "null"}, "holds only null"),
        (
            {"allOf": [{"type": "string"}, {"minLength": 1}]},
            "combines schemas with allOf, which a column type cannot say",
        ),
        (
            {"$ref": "https://example.com/row.json"},
            "refers to 'https://example.com/row.json', outside the schema",
        ),
    ],
)
def test_each_unmappable_json_column_is_refused_with_its_reason(
    column: dict[str, Any], reason: str
) -> None:
    message = refused(rows_schema(bad=column))
    assert message == f"the JSON Schema has 1 column chartkit cannot declare: 'bad' {reason}{TAIL}"


def test_every_refused_column_is_named_and_the_rest_can_be_left_undeclared() -> None:
    schema = rows_schema(lun={"type": "integer"}, tags={"type": "array"}, owner={"type": "object"})
    with pytest.raises(SchemaColumnsError) as caught:
        result_columns_from(schema)
    assert str(caught.value) == (
        "the JSON Schema has 2 columns chartkit cannot declare: 'tags' is an array; 'owner' is "
        f"a nested object{TAIL}"
    )
    assert caught.value.refused == (("tags", "is an array"), ("owner", "is a nested object"))
    assert isinstance(caught.value, ResultColumnsError)
    left = result_columns_from(schema, unmappable="leave")
    assert wire(left) == {"lun": {"type": "number", "nullable": False}}


def test_a_hostile_column_name_is_quoted_capped_and_escaped_and_the_list_is_capped() -> None:
    long = "x" * 5000
    columns = {long: {"type": "array"}, "a\x1b[31m\u202e": {"type": "object"}}
    columns.update({f"c{i}": {"type": "array"} for i in range(30)})
    message = refused(rows_schema(**columns))
    assert message.startswith(
        "the JSON Schema has 32 columns chartkit cannot declare: '"
        + "x" * 200
        + "… (5,000 characters)' is an array; 'a\\x1b[31m\\u202e' is a nested object; 'c0' is"
    )
    assert "x" * 201 not in message and "\x1b" not in message and "\u202e" not in message
    assert message.endswith(f"'c17' is an array; and 12 more{TAIL}")


# ------------------------------------------------------------------------- Python types


class Mode(enum.Enum):
    READ = "read"
    WRITE = "write"


class Mixed(enum.Enum):
    ONE = 1
    NAME = "name"


@dataclasses.dataclass(frozen=True)
class Host:
    name: str


def test_a_pydantic_model_gives_its_declaration() -> None:
    class Mapping(BaseModel):
        logical_unit_number: int
        group: str = Field(alias="host_group")
        comment: Optional[str] = None  # noqa: UP045 - the spelling under test
        size_gib: float | None
        thin: bool
        created: dt.datetime
        day: dt.date
        price: Decimal
        mode: Mode
        tier: Literal["gold", "silver"]

    assert wire(result_columns_from(Mapping)) == {
        "logical_unit_number": {"type": "number", "nullable": False},
        "host_group": {"type": "string", "nullable": False},
        "comment": {"type": "string", "nullable": True},
        "size_gib": {"type": "number", "nullable": True},
        "thin": {"type": "boolean", "nullable": False},
        "created": {"type": "date", "nullable": False},
        "day": {"type": "date", "nullable": False},
        "price": {"type": "number", "nullable": False},
        "mode": {"type": "string", "nullable": False},
        "tier": {"type": "string", "nullable": False},
    }


def test_bool_is_boolean_never_number() -> None:
    class Flags(TypedDict):
        on: bool
        count: int

    declared = result_columns_from(Flags)
    assert declared["on"] == ColumnDeclaration("boolean")
    assert declared["count"] == ColumnDeclaration("number")


def test_a_typeddict_declares_its_required_keys_only() -> None:
    class Mapping(TypedDict):
        logical_unit_number: int
        host_group: str
        comment: str | None
        seen: NotRequired[dt.date]

    assert wire(result_columns_from(Mapping)) == {
        "logical_unit_number": {"type": "number", "nullable": False},
        "host_group": {"type": "string", "nullable": False},
        "comment": {"type": "string", "nullable": True},
    }


def test_a_dataclass_gives_its_declaration() -> None:
    @dataclasses.dataclass
    class Mapping:
        logical_unit_number: int
        host_group: str
        comment: Optional[str] = None  # noqa: UP045 - the spelling under test

    assert wire(result_columns_from(Mapping)) == {
        "logical_unit_number": {"type": "number", "nullable": False},
        "host_group": {"type": "string", "nullable": False},
        "comment": {"type": "string", "nullable": True},
    }
    with pytest.raises(SchemaColumnsError) as caught:
        result_columns_from(Mapping(0, "vdi-a"))
    assert str(caught.value) == (
        "result_columns_from got an instance of the dataclass 'Mapping'; pass the class "
        "itself — a declaration is read from types, never from values"
    )


@pytest.mark.parametrize(
    ("annotation", "reason"),
    [
        (list[int], "is an array (list[int])"),
        (dict[str, int], "is a nested object (dict[str, int])"),
        (Host, "is a nested object (Host)"),
        (int | str, "is a union of int and str (number or string)"),
        (Any, "is Any"),
        (Mixed, "is the enum 'Mixed' of mixed types (number, string)"),
        (Literal["a", 1], "is a Literal of mixed types (number, string)"),
        (dt.time, "is time, which maps to none of number, string, boolean, date"),
        (bytes, "is bytes, which maps to none of number, string, boolean, date"),
    ],
)
def test_each_unmappable_python_type_is_refused_with_its_reason(
    annotation: Any, reason: str
) -> None:
    Row = TypedDict("Row", {"bad": annotation})  # type: ignore[misc]  # noqa: UP013
    assert (
        refused(Row)
        == f"the TypedDict 'Row' has 1 column chartkit cannot declare: 'bad' {reason}{TAIL}"
    )


def test_int_or_float_is_a_number_and_a_date_or_datetime_a_date() -> None:
    class Row(TypedDict):
        n: int | float
        d: dt.date | dt.datetime | None

    assert wire(result_columns_from(Row)) == {
        "n": {"type": "number", "nullable": False},
        "d": {"type": "date", "nullable": True},
    }


# ------------------------------------------------------------------------ Arrow, DuckDB


def test_an_arrow_schema_gives_its_declaration_with_arrow_nullability() -> None:
    pa = pytest.importorskip("pyarrow")
    schema = pa.schema(
        [
            pa.field("logical_unit_number", pa.int64(), nullable=False),
            pa.field("host_group", pa.dictionary(pa.int32(), pa.string()), nullable=False),
            pa.field("comment", pa.large_string()),
            pa.field("size", pa.decimal128(12, 3)),
            pa.field("thin", pa.bool_()),
            pa.field("seen", pa.timestamp("us", tz="UTC")),
            pa.field("day", pa.date32()),
        ]
    )
    assert wire(result_columns_from(schema)) == {
        "logical_unit_number": {"type": "number", "nullable": False},
        "host_group": {"type": "string", "nullable": False},
        "comment": {"type": "string", "nullable": True},
        "size": {"type": "number", "nullable": True},
        "thin": {"type": "boolean", "nullable": True},
        "seen": {"type": "date", "nullable": True},
        "day": {"type": "date", "nullable": True},
    }


def test_a_parquet_files_schema_and_the_arrow_refusals(tmp_path: Any) -> None:
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    table = pa.table({"lun": pa.array([0], pa.int32()), "tags": pa.array([["a"]])})
    pq.write_table(table, tmp_path / "m.parquet")
    schema = pq.read_schema(tmp_path / "m.parquet")
    assert refused(schema) == (
        "the Arrow schema has 1 column chartkit cannot declare: 'tags' is an array (Arrow type "
        f"list<element: string>){TAIL}"
    )
    left = result_columns_from(schema, unmappable="leave")
    assert wire(left) == {"lun": {"type": "number", "nullable": True}}
    nested = pa.schema([pa.field("s", pa.struct([("x", pa.int8())])), ("t", pa.time64("us"))])
    assert refused(nested) == (
        "the Arrow schema has 2 columns chartkit cannot declare: 's' is a nested object (Arrow "
        "type struct<x: int8>); 't' has the Arrow type time64[us], which maps to none of "
        f"number, string, boolean, date{TAIL}"
    )


def test_duckdb_describe_gives_its_declaration() -> None:
    duckdb = pytest.importorskip("duckdb")
    con = duckdb.connect()
    con.sql(
        "CREATE TABLE mappings (logical_unit_number BIGINT NOT NULL, host_group VARCHAR NOT "
        "NULL, comment VARCHAR, size DECIMAL(12,3), thin BOOLEAN, seen TIMESTAMP WITH TIME "
        "ZONE, day DATE, mode ENUM('read', 'write'))"
    )
    assert wire(result_columns_from(con.sql("DESCRIBE mappings"))) == {
        "logical_unit_number": {"type": "number", "nullable": False},
        "host_group": {"type": "string", "nullable": False},
        "comment": {"type": "string", "nullable": True},
        "size": {"type": "number", "nullable": True},
        "thin": {"type": "boolean", "nullable": True},
        "seen": {"type": "date", "nullable": True},
        "day": {"type": "date", "nullable": True},
        "mode": {"type": "string", "nullable": True},
    }
    con.sql("CREATE TABLE odd (tags INTEGER[], owner STRUCT(name VARCHAR), opened TIME)")
    assert refused(con.sql("DESCRIBE odd")) == (
        "the DuckDB DESCRIBE has 3 columns chartkit cannot declare: 'tags' is an array (DuckDB "
        "type INTEGER[]); 'owner' is a nested object (DuckDB type STRUCT(\"name\" VARCHAR)); "
        "'opened' has the DuckDB type TIME, which maps to none of number, string, boolean, "
        f"date{TAIL}"
    )
    assert refused(con.sql("SELECT 1 AS x")) == (
        "result_columns_from reads a DuckDB relation of DESCRIBE output (columns column_name, "
        "column_type, null, …); pass con.sql('DESCRIBE <table or query>')"
    )


def test_something_that_is_no_schema_is_refused_with_what_it_takes() -> None:
    assert refused([{"lun": 0}]) == (
        "result_columns_from cannot read a list; pass a JSON Schema (a dict, e.g. an MCP tool's "
        "outputSchema), a pydantic model, TypedDict or dataclass class, a pyarrow.Schema, or a "
        "DuckDB relation of DESCRIBE output"
    )


# ------------------------------------------------- the CLI and the explorer say where it came from


def test_the_cli_reads_a_json_schema_as_columns_and_says_it_declared_them(
    tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from chartkit.cli import main

    (tmp_path / "m.csv").write_text("logical_unit_number,host_group\n0,vdi-a\n7,vdi-b\n")
    schema = rows_schema(logical_unit_number={"type": "integer"}, host_group={"type": "string"})
    (tmp_path / "schema.json").write_text(json.dumps(schema))
    code = main(["check", str(tmp_path / "m.csv"), "--columns", str(tmp_path / "schema.json")])
    assert code == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first == (
        "m (2 rows, declared by a JSON Schema): clean under warn — each of the 2 declared "
        "columns holds its declared type"
    )


def test_the_explorer_labels_say_a_declaration_came_from_the_tools_output_schema() -> None:
    from chartkit import ToolResult
    from chartkit.explorer._logic import mcp_tool_label, result_label
    from chartkit.mcp import ListedTool

    declared = {"lun": ColumnDeclaration("number")}
    by_schema = ToolResult("mappings", [{"lun": 0}], declared, declared_by="outputSchema")
    by_meta = ToolResult("mappings", [{"lun": 0}], declared, declared_by="_meta.resultColumns")
    assert result_label(0, by_schema) == (
        "1. mappings — 1 row, declared by the tool's outputSchema"
    )
    assert result_label(0, by_meta) == "1. mappings — 1 row"
    listed = ListedTool("mappings", "storage", result_columns=declared, declared_by="outputSchema")
    assert mcp_tool_label(listed) == (
        "mappings — declares 1 column, declared by the tool's outputSchema"
    )
