"""ToolResult: the envelope, its wire form, and reading results from files."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Any

import pytest

from chartkit import (
    ColumnDeclaration,
    ResultColumnsError,
    ToolResult,
    ToolResultError,
    check_result,
    read_results,
)
from chartkit.result import RUN_KEYS, WIRE_KEYS

EXAMPLES = Path(__file__).resolve().parent.parent / "app" / "examples"

WIRE: dict[str, Any] = {
    "tool": "host_group_mappings",
    "rows": [{"logical_unit_number": "", "host_group": "vdi-a"}],
    "resultColumns": {
        "logical_unit_number": "number",
        "comment": {"type": "string", "nullable": True},
    },
    "callId": "call-1",
    "description": "The LUN mappings of a host group.",
}


def test_the_wire_keys_are_the_five_of_the_spec() -> None:
    assert WIRE_KEYS == ("tool", "rows", "resultColumns", "callId", "description")


def test_a_result_is_read_from_the_wire_form() -> None:
    result = ToolResult.from_wire(WIRE)
    assert result.tool == "host_group_mappings"
    assert result.rows is WIRE["rows"]
    assert result.call_id == "call-1"
    assert result.description == "The LUN mappings of a host group."
    assert result.result_columns == {
        "logical_unit_number": ColumnDeclaration("number"),
        "comment": ColumnDeclaration("string", nullable=True),
    }


def test_the_wire_form_round_trips_with_declarations_in_the_object_form() -> None:
    wire = ToolResult.from_wire(WIRE).to_wire()
    assert wire == {
        **WIRE,
        "resultColumns": {
            "logical_unit_number": {"type": "number", "nullable": False},
            "comment": {"type": "string", "nullable": True},
        },
    }
    assert ToolResult.from_wire(json.loads(json.dumps(wire))).to_wire() == wire


def test_the_optional_keys_stay_off_the_wire_when_unset() -> None:
    assert ToolResult("t", [1]).to_wire() == {"tool": "t", "rows": [1]}


def test_rows_may_be_anything_the_tool_returned() -> None:
    for rows in ("text", 3, None, {"a": 1}):
        assert ToolResult("t", rows).rows == rows


def test_a_result_is_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        ToolResult("t", []).tool = "other"  # type: ignore[misc]


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ([WIRE], "a tool result must be a JSON object with keys tool, rows, resultColumns, "),
        ({"rows": []}, "a tool result needs the key(s) 'tool'; it has 'rows'"),
        ({}, "a tool result needs the key(s) 'tool', 'rows'; it has no keys"),
        (
            {"tool": "t", "rows": [], "result_columns": {}},
            "unknown key(s) 'result_columns' in a tool result; the wire form has tool, rows, "
            "resultColumns, callId, description (note the spelling resultColumns, callId)",
        ),
    ],
    ids=["not an object", "no tool", "no keys", "snake_case key"],
)
def test_a_payload_of_the_wrong_shape_is_refused_saying_what_the_shape_is(
    payload: Any, message: str
) -> None:
    with pytest.raises(ToolResultError, match=re.escape(message)):
        ToolResult.from_wire(payload)


def test_a_malformed_declaration_on_the_wire_names_the_tool_and_column() -> None:
    payload = {**WIRE, "resultColumns": {"logical_unit_number": "integer"}}
    with pytest.raises(
        ResultColumnsError,
        match=re.escape("tool 'host_group_mappings' declares column 'logical_unit_number' as"),
    ):
        ToolResult.from_wire(payload)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"tool": ""}, "tool must be a non-empty string naming the tool, got ''"),
        ({"tool": 3}, "tool must be a non-empty string naming the tool, got 3"),
        ({"call_id": 1}, "call_id must be a string or None, got 1"),
        ({"description": ["x"]}, 'description must be a string or None, got ["x"]'),
    ],
)
def test_the_envelope_refuses_fields_of_the_wrong_type(
    kwargs: dict[str, Any], message: str
) -> None:
    with pytest.raises(ToolResultError, match=re.escape(message)):
        ToolResult(**{"tool": "t", "rows": [], **kwargs})


# --- read_results --------------------------------------------------------------------------


def test_a_json_file_holds_one_result(tmp_path: Path) -> None:
    path = tmp_path / "one.json"
    path.write_text(json.dumps(WIRE), encoding="utf-8")
    (result,) = read_results(path)
    assert result.to_wire()["rows"] == WIRE["rows"]


def test_a_json_list_holds_several_results() -> None:
    results = read_results(json.dumps([WIRE, {**WIRE, "callId": "call-2"}]))
    assert [r.call_id for r in results] == ["call-1", "call-2"]


def test_a_jsonl_run_holds_one_result_a_line(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    lines = [json.dumps({**WIRE, "callId": f"call-{i}"}) for i in (1, 2, 3)]
    path.write_text("\n".join(lines) + "\n\n", encoding="utf-8")
    assert [r.call_id for r in read_results(path)] == ["call-1", "call-2", "call-3"]


def test_a_bare_array_of_rows_is_one_undeclared_result_named_after_the_file() -> None:
    (result,) = read_results(b'[{"lun": 0}, {"lun": ""}]', name="host_group_mappings.json")
    assert (result.tool, result.rows, result.result_columns) == (
        "host_group_mappings",
        [{"lun": 0}, {"lun": ""}],
        None,
    )
    assert check_result(result, mode="enforce").findings == ()  # undeclared: nothing armed


RUN_HINT = (
    ". A JSON list whose items carry the key tool, rows, resultColumns or callId is read as a "
    'run of tool results; if these are rows, wrap them in one result: {"tool": "<name>", '
    '"rows": [...]}'
)


def test_the_run_keys_are_the_wire_keys_but_description() -> None:
    assert RUN_KEYS == ("tool", "rows", "resultColumns", "callId")


def test_a_run_with_one_malformed_entry_is_refused_never_read_as_undeclared_rows() -> None:
    run = [WIRE, {"tool": "u", "Rows": []}, {**WIRE, "callId": "call-3"}]
    with pytest.raises(ToolResultError) as raised:
        read_results(json.dumps(run), name="run.json")
    assert str(raised.value) == (
        "result 2 of run.json: a tool result needs the key(s) 'rows'; it has 'tool', 'Rows'"
        + RUN_HINT
    )


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"rows": [{"lun": 0}]}, "a tool result needs the key(s) 'tool'; it has 'rows'"),
        (
            {"resultColumns": {"lun": "number"}, "data": []},
            "a tool result needs the key(s) 'tool', 'rows'; it has 'resultColumns', 'data'"
            + RUN_HINT,
        ),
        (
            {"callId": "call-9", "lun": 0},
            "a tool result needs the key(s) 'tool', 'rows'; it has 'callId', 'lun'" + RUN_HINT,
        ),
        (
            {"tool": "u", "rows": [], "call_id": "x"},
            "unknown key(s) 'call_id' in a tool result; the wire form has tool, rows, "
            "resultColumns, callId, description (note the spelling resultColumns, callId)",
        ),
        (
            {"tool": "", "rows": []},
            "tool must be a non-empty string naming the tool, got ''",
        ),
        (
            ["not", "an", "object"],
            "a tool result must be a JSON object with keys tool, rows, resultColumns, callId, "
            "description; got list",
        ),
    ],
    ids=["rows only", "resultColumns only", "callId only", "snake_case key", "empty tool", "list"],
)
def test_any_entry_carrying_a_wire_key_makes_the_list_a_run_and_a_bad_entry_names_its_place(
    entry: Any, message: str
) -> None:
    with pytest.raises(ToolResultError) as raised:
        read_results(json.dumps([WIRE, WIRE, entry]), name="run.json")
    assert str(raised.value) == f"result 3 of run.json: {message}"


def test_a_malformed_declaration_in_a_run_names_its_place_and_stays_a_declaration_error() -> None:
    run = [WIRE, {**WIRE, "resultColumns": {"lun": "integer"}}]
    with pytest.raises(ResultColumnsError) as raised:
        read_results(json.dumps(run), name="run.json")
    assert str(raised.value) == (
        "result 2 of run.json: tool 'host_group_mappings' declares column 'lun' as \"integer\"; "
        "use one of number, string, boolean, date (or leave the column undeclared)"
    )


def test_rows_that_carry_a_wire_key_as_a_column_must_be_wrapped_and_are_told_how() -> None:
    rows = [{"tool": "grep", "calls": 3}, {"tool": "sed", "calls": 1}]
    with pytest.raises(ToolResultError) as raised:
        read_results(json.dumps(rows), name="tool_calls.json")
    assert str(raised.value) == (
        "result 1 of tool_calls.json: a tool result needs the key(s) 'rows'; it has 'tool', "
        "'calls'" + RUN_HINT
    )
    (wrapped,) = read_results(json.dumps({"tool": "tool_calls", "rows": rows}))
    assert wrapped.rows == rows


def test_rows_with_a_description_column_are_still_rows() -> None:
    rows = [{"lun": 0, "description": "boot"}, {"lun": 1, "description": "data"}]
    (result,) = read_results(json.dumps(rows), name="luns.json")
    assert (result.tool, result.rows, result.result_columns) == ("luns", rows, None)


def test_an_array_of_plain_values_is_not_a_run() -> None:
    (result,) = read_results(b"[1, 2, 3]", name="numbers.json")
    assert (result.tool, result.rows) == ("numbers", [1, 2, 3])


def test_a_jsonl_run_with_a_malformed_entry_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    lines = [json.dumps(WIRE), "", json.dumps({"tool": "u", "Rows": []}), json.dumps(WIRE)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(ToolResultError) as raised:
        read_results(path)
    assert str(raised.value) == (
        "run.jsonl line 3: a tool result needs the key(s) 'rows'; it has 'tool', 'Rows'"
    )


def test_a_jsonl_line_with_a_malformed_declaration_names_its_line() -> None:
    lines = [json.dumps(WIRE), json.dumps({**WIRE, "resultColumns": {"lun": "integer"}})]
    with pytest.raises(ResultColumnsError, match=re.escape("run.jsonl line 2: tool 'host_gr")):
        read_results("\n".join(lines), name="run.jsonl")


@pytest.mark.parametrize(
    ("source", "message"),
    [
        (b"", "upload.json is empty; expected a JSON tool result or .jsonl run"),
        (b"  \n", "upload.json is empty"),
        (b"\xff\xfe{", "upload.json is not UTF-8 text"),
        (b'{"tool": ', "upload.json is not valid JSON: Expecting value at line 1 column 10"),
        (
            b'{"tool": "t", "rows": []}\n{"tool": oops}\n',
            "upload.json line 2 is not valid JSON (Expecting value at column 10); a .jsonl run "
            "holds one JSON tool result per line",
        ),
    ],
    ids=["empty", "blank", "not utf-8", "broken json", "broken jsonl line"],
)
def test_a_file_that_cannot_be_read_says_why(source: bytes, message: str) -> None:
    with pytest.raises(ToolResultError, match=re.escape(message)):
        read_results(source, name="upload.json")


def test_every_bundled_example_reads_and_checks() -> None:
    paths = sorted([*EXAMPLES.glob("*.json"), *EXAMPLES.glob("*.jsonl")])
    if not paths:
        pytest.skip("no bundled examples in app/examples")
    for path in paths:
        for result in read_results(path):
            outcome = check_result(result, mode="warn")
            assert outcome.status == "ok"
            assert outcome.delivered is result.rows
