"""The declaration: its closed vocabulary, its two spellings, and refusing what it cannot honour."""

from __future__ import annotations

import dataclasses
import re
from typing import Any, get_args

import pytest

from chartkit import (
    COLUMN_TYPES,
    ChartkitError,
    ColumnDeclaration,
    ColumnType,
    ResultColumnsError,
    ToolResult,
    assert_result_columns,
    normalize_result_columns,
)

ALLOWED = "number, string, boolean, date"


def test_the_vocabulary_is_the_four_words_in_order() -> None:
    assert COLUMN_TYPES == ("number", "string", "boolean", "date")
    assert get_args(ColumnType) == COLUMN_TYPES


def test_a_declaration_is_frozen_and_not_nullable_by_default() -> None:
    decl = ColumnDeclaration("number")
    assert (decl.type, decl.nullable) == ("number", False)
    with pytest.raises(dataclasses.FrozenInstanceError):
        decl.nullable = True  # type: ignore[misc]


def test_a_declaration_refuses_a_type_outside_the_vocabulary() -> None:
    with pytest.raises(ResultColumnsError, match=re.escape(f"is not one of {ALLOWED}")):
        ColumnDeclaration("integer")  # type: ignore[arg-type]


def test_a_declaration_refuses_a_nullable_that_is_not_a_bool() -> None:
    with pytest.raises(ResultColumnsError, match="nullable must be true or false, not 'yes'"):
        ColumnDeclaration("string", "yes")  # type: ignore[arg-type]


def test_the_errors_mix_with_the_builtin_they_resemble() -> None:
    assert issubclass(ResultColumnsError, ValueError)
    assert issubclass(ResultColumnsError, ChartkitError)


@pytest.mark.parametrize("spelling", ["number", {"type": "number"}, ColumnDeclaration("number")])
def test_every_spelling_of_a_column_normalizes_to_the_same_declaration(spelling: Any) -> None:
    assert normalize_result_columns({"lun": spelling}) == {"lun": ColumnDeclaration("number")}


def test_the_object_form_carries_nullable() -> None:
    assert normalize_result_columns({"comment": {"type": "string", "nullable": True}}) == {
        "comment": ColumnDeclaration("string", nullable=True)
    }


def test_both_spellings_of_a_whole_declaration_give_equal_results() -> None:
    bare = {"logical_unit_number": "number", "host_group": "string", "seen": "date"}
    objects = {name: {"type": t, "nullable": False} for name, t in bare.items()}
    assert normalize_result_columns(bare) == normalize_result_columns(objects)


def test_normalizing_keeps_the_declarations_column_order() -> None:
    names = ["zeta", "alpha", "mu", "beta", "omega"]
    bag = {name: ("number" if i % 2 else {"type": "date"}) for i, name in enumerate(names)}
    assert list(normalize_result_columns(bag)) == names


def test_normalizing_a_normalized_declaration_changes_nothing() -> None:
    once = normalize_result_columns({"b": "boolean", "a": {"type": "string", "nullable": True}})
    twice = normalize_result_columns(once)
    assert twice == once
    assert list(twice) == ["b", "a"]


def test_a_normalized_declaration_is_read_only() -> None:
    declared = normalize_result_columns({"lun": "number"})
    with pytest.raises(TypeError):
        declared["lun"] = ColumnDeclaration("string")  # type: ignore[index]


def test_an_empty_declaration_declares_nothing() -> None:
    assert normalize_result_columns({}) == {}


# --- assert_result_columns: a declaration chartkit cannot honour ---------------------------

T = "tool 'host_group_mappings'"

MALFORMED: list[tuple[str, Any, str]] = [
    (
        "bag is a list",
        ["logical_unit_number"],
        f"{T} has resultColumns of type list, expected an object mapping each column name to "
        'a type, e.g. {"logical_unit_number": "number"}',
    ),
    (
        "bag is a string",
        "number",
        f"{T} has resultColumns of type str, expected an object mapping each column name to "
        'a type, e.g. {"logical_unit_number": "number"}',
    ),
    (
        "bag is None",
        None,
        f"{T} has resultColumns of type NoneType, expected an object",
    ),
    (
        "column name is a number",
        {3: "number"},
        f"{T} declares a column named 3; a column name must be a non-empty string",
    ),
    (
        "column name is empty",
        {"": "number"},
        f'{T} declares a column named ""; a column name must be a non-empty string',
    ),
    (
        "type integer",
        {"lun": "integer"},
        f"{T} declares column 'lun' as \"integer\"; use one of {ALLOWED} "
        "(or leave the column undeclared)",
    ),
    (
        "type unknown, the word a declaration has no use for",
        {"lun": "unknown"},
        f"{T} declares column 'lun' as \"unknown\"; use one of {ALLOWED} "
        "(or leave the column undeclared)",
    ),
    (
        "object form with type integer",
        {"lun": {"type": "integer"}},
        f"{T} declares column 'lun' as \"integer\"; use one of {ALLOWED}",
    ),
    (
        "object form with a type that is not a string",
        {"lun": {"type": 3}},
        f"{T} declares column 'lun' with type 3; use one of {ALLOWED}",
    ),
    (
        "object form without type",
        {"lun": {"nullable": True}},
        f"{T} declares column 'lun' without a type; add \"type\": one of {ALLOWED}",
    ),
    (
        "object form with an unknown key",
        {"lun": {"type": "number", "format": "int32"}},
        f"{T} declares column 'lun' with unknown key(s) \"format\"; the object form takes "
        'only "type" and "nullable"',
    ),
    (
        "object form with a string nullable",
        {"lun": {"type": "number", "nullable": "yes"}},
        f"{T} declares column 'lun' with nullable \"yes\"; nullable must be true or false",
    ),
    (
        "object form with nullable 1",
        {"lun": {"type": "number", "nullable": 1}},
        f"{T} declares column 'lun' with nullable 1; nullable must be true or false",
    ),
    (
        "a value that is neither a type name nor an object",
        {"lun": 5},
        f"{T} declares column 'lun' as 5; use a type name ({ALLOWED}) or an object like "
        '{"type": "string", "nullable": true}',
    ),
]


@pytest.mark.parametrize(
    ("bag", "message"), [(bag, msg) for _, bag, msg in MALFORMED], ids=[c for c, _, _ in MALFORMED]
)
def test_a_malformed_declaration_is_refused_naming_tool_column_and_fix(
    bag: Any, message: str
) -> None:
    with pytest.raises(ResultColumnsError, match=re.escape(message)):
        assert_result_columns("host_group_mappings", bag)


@pytest.mark.parametrize("bag", [bag for _, bag, _ in MALFORMED], ids=[c for c, _, _ in MALFORMED])
def test_normalize_refuses_the_same_declarations_without_a_tool_to_name(bag: Any) -> None:
    with pytest.raises(ResultColumnsError, match=r"^the declaration "):
        normalize_result_columns(bag)


def test_the_refusal_names_the_offending_column_not_its_neighbours() -> None:
    bag = {"host_group": "string", "logical_unit_number": "integer", "comment": "string"}
    with pytest.raises(ResultColumnsError) as caught:
        assert_result_columns("host_group_mappings", bag)
    assert "'logical_unit_number'" in str(caught.value)
    assert "'host_group'" not in str(caught.value)


def test_a_tool_result_asserts_its_declaration_when_it_is_made() -> None:
    with pytest.raises(ResultColumnsError, match=re.escape(f"{T} declares column 'lun' as")):
        ToolResult("host_group_mappings", [], result_columns={"lun": "integer"})


def test_assert_result_columns_answers_the_normalized_declaration() -> None:
    assert assert_result_columns(
        "host_group_mappings",
        {"logical_unit_number": "number", "comment": {"type": "string", "nullable": True}},
    ) == {
        "logical_unit_number": ColumnDeclaration("number"),
        "comment": ColumnDeclaration("string", nullable=True),
    }


def test_a_hostile_declaration_is_refused_in_a_bounded_message() -> None:
    deep: list[object] = []
    cur = deep
    for _ in range(100_000):
        nxt: list[object] = []
        cur.append(nxt)
        cur = nxt
    for bad in ({"v": "x" * 5_000_000}, {"v": deep}, {"v": {"type": deep}}, {"c" * 5000: 7}):
        with pytest.raises(ResultColumnsError) as caught:
            assert_result_columns("t", bad)
        assert len(str(caught.value)) < 700
    nested = re.escape("""declares column 'v' as [[["[… 1 item]"]]]""")
    with pytest.raises(ResultColumnsError, match=nested):
        assert_result_columns("t", {"v": deep})
