"""``View.to_dict()`` is the transport for agent UIs; ``view_payload_schema()`` is its contract.

Every payload here is a real one: the bundled examples under each dial word, user picks,
a refused pick, undeclared rows and a result that is not rows.
"""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from chartkit import CHECK_MODES, ToolResult, read_results, view
from chartkit.payload import view_payload_schema

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "app" / "examples"
SCHEMA_FILE = REPO / "schema" / "view.json"
EXAMPLE_FILES = sorted(EXAMPLES.glob("*.json"))


@pytest.fixture(autouse=True)
def _quiet_findings(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.ERROR, logger="chartkit.integrity")  # findings are logged at WARNING


@pytest.fixture(scope="module")
def validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(view_payload_schema())


def example(name: str) -> ToolResult:
    return ToolResult.from_wire(json.loads((EXAMPLES / name).read_text(encoding="utf-8")))


def strict_json(payload: dict[str, Any]) -> dict[str, Any]:
    """The payload as a browser would receive it: strict JSON (no NaN), parsed back."""
    parsed: dict[str, Any] = json.loads(json.dumps(payload, allow_nan=False))
    return parsed


def assert_valid(validator: jsonschema.Draft202012Validator, payload: dict[str, Any]) -> None:
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(payload)]
    assert errors == []


# -- the schema itself --------------------------------------------------------------------


def test_the_schema_is_a_valid_draft_2020_12_schema() -> None:
    schema = view_payload_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)


def test_the_checked_in_schema_file_is_view_payload_schema() -> None:
    checked_in = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    assert checked_in == view_payload_schema(), (
        "schema/view.json is out of date; regenerate it with "
        "`python -m chartkit.payload > schema/view.json`"
    )


def test_python_dash_m_chartkit_payload_prints_the_schema() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "chartkit.payload"], capture_output=True, check=True, cwd=REPO
    )
    assert json.loads(done.stdout.decode("utf-8")) == view_payload_schema()
    assert done.stdout.decode("utf-8") == SCHEMA_FILE.read_text(encoding="utf-8")


def test_the_schema_names_every_word_of_the_closed_vocabularies() -> None:
    schema = view_payload_schema()
    top, defs = schema["properties"], schema["$defs"]
    assert top["kind"]["enum"] == ["chart", "table", "refused"]
    assert top["mode"]["enum"] == list(CHECK_MODES) == ["off", "warn", "enforce"]
    assert top["status"]["enum"] == ["ok", "invalid"]
    assert top["encodings"]["propertyNames"]["enum"] == ["x", "y", "color", "facet", "size"]
    assert defs["encoding"]["properties"]["type"]["enum"] == ["quantitative", "temporal", "nominal"]
    assert defs["encoding"]["properties"]["source"]["enum"] == ["declared", "inferred"]
    assert defs["refusal"]["properties"]["channel"]["enum"] == ["x", "y", "color", "facet", "size"]
    kinds = ["column-type-mismatch", "missing-column"]
    assert defs["finding"]["properties"]["kind"]["enum"] == kinds
    assert defs["violation"]["properties"]["kind"]["enum"] == kinds
    assert defs["disposition"]["properties"]["check"]["enum"] == kinds
    assert defs["violation"]["properties"]["declared"]["enum"] == [
        "number", "string", "boolean", "date",
    ]  # fmt: skip


def test_every_object_in_the_schema_is_closed_and_requires_all_its_keys() -> None:
    schema = view_payload_schema()
    objects = [schema, *schema["$defs"].values()]
    for obj in objects:
        assert obj["additionalProperties"] is False
        assert obj["required"] == list(obj["properties"])


# -- real payloads ------------------------------------------------------------------------


def bundled_payloads() -> Iterator[Any]:
    for path in EXAMPLE_FILES:
        for mode in CHECK_MODES:
            yield pytest.param(path.name, mode, id=f"{path.stem}-{mode}")


@pytest.mark.parametrize(("name", "mode"), list(bundled_payloads()))
def test_each_bundled_example_under_each_dial_word_is_a_valid_payload(
    validator: jsonschema.Draft202012Validator, name: str, mode: str
) -> None:
    shown = view(example(name), mode=mode)  # type: ignore[arg-type]
    payload = strict_json(shown.to_dict())
    assert_valid(validator, payload)
    assert payload["kind"] == shown.kind
    assert payload["mode"] == mode
    assert (payload["spec"] is None) == (shown.kind != "chart")


def test_the_bundled_examples_cover_chart_table_and_refused() -> None:
    kinds = {view(example(p.name), mode=mode).kind for p in EXAMPLE_FILES for mode in CHECK_MODES}
    assert kinds == {"chart", "table", "refused"}


def test_every_result_of_the_incident_run_is_a_valid_payload_under_warn_and_enforce(
    validator: jsonschema.Draft202012Validator,
) -> None:
    results = read_results(EXAMPLES / "run_incident.jsonl")
    assert len(results) >= 2
    for result in results:
        for mode in ("warn", "enforce"):
            assert_valid(validator, strict_json(view(result, mode=mode).to_dict()))


def test_a_users_picks_give_a_valid_chart_payload_with_those_columns(
    validator: jsonschema.Draft202012Validator,
) -> None:
    payload = strict_json(
        view(example("host_group_mappings.json"), x="volume_name", y="capacity_gb").to_dict()
    )
    assert_valid(validator, payload)
    assert payload["kind"] == "chart"
    assert {ch: e["column"] for ch, e in payload["encodings"].items()} == {
        "x": "volume_name",
        "y": "capacity_gb",
    }
    assert payload["encodings"]["y"]["description"] == (
        "mean of capacity_gb: declared number → quantitative"
    )


def test_a_refused_pick_is_a_valid_table_payload_that_says_why(
    validator: jsonschema.Draft202012Validator,
) -> None:
    payload = strict_json(
        view(example("host_group_mappings.json"), x="host_group", y="initiator_wwn").to_dict()
    )
    assert_valid(validator, payload)
    assert payload["kind"] == "table"
    assert payload["spec"] is None
    assert payload["reason"] == (
        "The y axis you picked cannot be drawn: initiator_wwn is declared string; a measure "
        "axis needs a column declared number."
    )
    assert payload["refusals"] == [
        {
            "column": "initiator_wwn",
            "channel": "y",
            "reason": "initiator_wwn is declared string; a measure axis needs a column declared "
            "number.",
            "violation": None,
        }
    ]


def test_an_axis_refused_by_the_check_carries_its_violation(
    validator: jsonschema.Draft202012Validator,
) -> None:
    payload = strict_json(view(example("volume_io_stats.json"), mode="warn").to_dict())
    assert_valid(validator, payload)
    refused = {r["column"]: r for r in payload["refusals"]}
    assert refused["read_iops"]["violation"] == {
        "kind": "column-type-mismatch",
        "column": "read_iops",
        "declared": "number",
        "nullable": False,
        "sample": "3015",
        "sampleType": "string",
        "affected": 200,
        "total": 200,
        "absent": 0,
        "offendingTypes": ["string"],
        # the most frequent quoted numbers, counted over the 200 rows (ties in text order),
        # and the rows holding rarer ones
        "offenders": [
            {"value": "2356", "type": "string", "count": 2},
            {"value": "2565", "type": "string", "count": 2},
            {"value": "3322", "type": "string", "count": 2},
            {"value": "522", "type": "string", "count": 2},
            {"value": "1136", "type": "string", "count": 1},
            {"value": "1710", "type": "string", "count": 1},
            {"value": "1717", "type": "string", "count": 1},
            {"value": "1718", "type": "string", "count": 1},
        ],
        "offendersUnlisted": 188,
    }


def test_the_offenders_travel_in_the_payload_bounded_and_valid(
    validator: jsonschema.Draft202012Validator,
) -> None:
    """Each finding's violation lists its most frequent offending values: at most 8, each
    string cut as a sample is, and the schema (closed) holds the new keys."""
    rows = [{"lun": v, "g": "a"} for v in [None, "n/a", "N/A", "-", 3.0] * 10]
    rows += [{"lun": "x" * 500, "g": "b"}] * 11 + [{"lun": f"v{i}", "g": "b"} for i in range(9)]
    payload = strict_json(view(rows, {"lun": "number", "g": "string"}, mode="warn").to_dict())
    assert_valid(validator, payload)
    (finding,) = payload["findings"]
    listed = finding["violation"]["offenders"]
    assert listed[:5] == [
        {"value": "x" * 120 + "… (500 characters)", "type": "string", "count": 11},
        {"value": None, "type": "null", "count": 10},
        {"value": "-", "type": "string", "count": 10},
        {"value": "N/A", "type": "string", "count": 10},
        {"value": "n/a", "type": "string", "count": 10},
    ]
    assert [o["value"] for o in listed[5:]] == ["v0", "v1", "v2"]
    assert finding["violation"]["offendersUnlisted"] == 6


def test_undeclared_rows_give_a_valid_payload_with_inferred_types(
    validator: jsonschema.Draft202012Validator,
) -> None:
    rows = [{"severity": s, "count": n} for s, n in [("high", 3), ("low", 9), ("mid", 4)]]
    payload = strict_json(view(rows).to_dict())
    assert_valid(validator, payload)
    assert payload["callId"] is None
    assert {e["source"] for e in payload["encodings"].values()} == {"inferred"}
    assert [d["notApplicable"] for d in payload["disposition"]] == [1, 1]


def test_a_result_that_is_not_rows_gives_a_valid_table_payload(
    validator: jsonschema.Draft202012Validator,
) -> None:
    payload = strict_json(view([], {"lun": "number"}, tool="mappings").to_dict())
    assert_valid(validator, payload)
    assert payload["kind"] == "table"
    assert payload["reason"] == (
        "The result of mappings is not rows (a list of objects, or a dataframe, with at least "
        "one row) — it is an empty list — so there is nothing to chart or check."
    )


# -- what a payload must never carry ------------------------------------------------------


def strings_in(value: Any) -> Iterator[str]:
    """Every key and every string value anywhere in a JSON value."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from strings_in(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings_in(v)


def test_enforce_on_the_lun_example_returns_no_spec_and_no_row_values() -> None:
    result = example("host_group_mappings.json")
    payload = strict_json(view(result, mode="enforce").to_dict())
    assert payload["kind"] == "refused"
    assert payload["spec"] is None
    assert payload["status"] == "invalid"
    text = json.dumps(payload)
    seen = set(strings_in(payload))
    assert not {"rows", "data", "datasets", "values"} & seen
    for column in ("host_group", "initiator_wwn", "volume_name"):
        values = {row[column] for row in result.rows}
        assert values, column
        assert not values & seen, column
        assert not any(v in text for v in values), column
    # The one value quoted is the offending sample the refusal sentence names ("").
    (finding,) = payload["findings"]
    assert finding["violation"]["sample"] == ""
    assert payload["reason"].startswith(
        "Result rejected: host_group_mappings returned rows that disagree with the columns it "
        "declares — 'logical_unit_number' is declared number and 166 of 2,056 rows hold string "
        '(first: ""). Fix the tool so the column holds what it declares, or change the '
        "declaration. No data was returned."
    )


def test_a_chart_payload_carries_its_rows_only_inside_the_spec() -> None:
    result = example("host_group_mappings.json")
    payload = strict_json(view(result, mode="warn").to_dict())
    assert payload["kind"] == "chart"
    outside = {k: v for k, v in payload.items() if k != "spec"}
    wwns = {row["initiator_wwn"] for row in result.rows}
    assert not wwns & set(strings_in(outside))


# -- the schema refuses what is not a payload ---------------------------------------------


@pytest.fixture
def good_payload() -> dict[str, Any]:
    return strict_json(view(example("host_group_mappings.json"), mode="warn").to_dict())


def error_messages(
    validator: jsonschema.Draft202012Validator, payload: dict[str, Any]
) -> list[str]:
    return [e.message for e in validator.iter_errors(payload)]


def test_a_payload_with_a_kind_that_is_not_a_view_kind_fails_validation(
    validator: jsonschema.Draft202012Validator, good_payload: dict[str, Any]
) -> None:
    bad = {**good_payload, "kind": "graph"}
    with pytest.raises(jsonschema.ValidationError):
        validator.validate(bad)
    assert "'graph' is not one of ['chart', 'table', 'refused']" in error_messages(validator, bad)


def test_a_payload_with_a_key_the_schema_does_not_know_fails_validation(
    validator: jsonschema.Draft202012Validator, good_payload: dict[str, Any]
) -> None:
    bad = {**good_payload, "rows": [{"lun": 0}]}
    assert error_messages(validator, bad) == [
        "Additional properties are not allowed ('rows' was unexpected)"
    ]


def test_a_refused_payload_that_carries_a_spec_fails_validation(
    validator: jsonschema.Draft202012Validator, good_payload: dict[str, Any]
) -> None:
    refused = strict_json(view(example("host_group_mappings.json"), mode="enforce").to_dict())
    assert_valid(validator, refused)
    bad = {**refused, "spec": good_payload["spec"]}
    errors = list(validator.iter_errors(bad))
    assert [list(e.absolute_path) for e in errors] == [["spec"]]
    assert errors[0].validator == "type"
    assert errors[0].validator_value == "null"


def test_an_encoding_on_a_channel_chartkit_does_not_draw_fails_validation(
    validator: jsonschema.Draft202012Validator, good_payload: dict[str, Any]
) -> None:
    encodings = dict(good_payload["encodings"])
    encodings["shape"] = encodings["x"]
    bad = {**good_payload, "encodings": encodings}
    assert "'shape' is not one of ['x', 'y', 'color', 'facet', 'size']" in error_messages(
        validator, bad
    )


def test_a_finding_without_its_violation_fails_validation(
    validator: jsonschema.Draft202012Validator, good_payload: dict[str, Any]
) -> None:
    finding = {k: v for k, v in good_payload["findings"][0].items() if k != "violation"}
    bad = {**good_payload, "findings": [finding]}
    assert error_messages(validator, bad) == ["'violation' is a required property"]


# -- the notes as values ------------------------------------------------------------------


def test_the_payload_carries_each_note_as_its_kind_column_counts_and_sentence(
    validator: jsonschema.Draft202012Validator,
) -> None:
    """A UI reads a note's fields, never its English: the LUN incident's rows left out of the
    y axis are a 'left-out' fact about the column, with its counts and the note's sentence."""
    from chartkit.plan.spec import NOTE_KINDS

    assert view_payload_schema()["$defs"]["fact"]["properties"]["kind"]["enum"] == list(
        NOTE_KINDS
    )
    rows = [{"host_group": f"vdi-{'ab'[i % 2]}", "lun": "" if i % 4 == 0 else i}
            for i in range(40)]  # fmt: skip
    v = view(rows, {"host_group": "string", "lun": "number"}, mode="warn")
    payload = strict_json(v.to_dict())
    assert_valid(validator, payload)
    assert payload["facts"] == [n.to_dict() for n in v.facts]
    [left] = [f for f in payload["facts"] if f["kind"] == "left-out"]
    assert left["column"] == "lun" and left["counts"]["rows"] == 10
    assert left["counts"]["of"] == 40 and left["sentence"] in payload["notes"]


def test_an_engine_views_facts_and_a_long_names_are_valid_and_bounded(
    validator: jsonschema.Draft202012Validator,
) -> None:
    duckdb = pytest.importorskip("duckdb")
    rel = duckdb.connect().sql(
        "SELECT 'k' || (i % 40)::VARCHAR AS g, (i % 7)::DOUBLE AS m FROM range(400) r(i)"
    )
    v = view(rel, {"g": "string", "m": "number"}, x="g", aggregate="count", max_points=100)
    payload = strict_json(v.to_dict())
    assert_valid(validator, payload)
    assert [f["kind"] for f in payload["facts"]] == ["top"]
    assert payload["facts"][0]["counts"] == {"values": 40, "shown": 30}
    long = "c" * 5_000
    rows = [{long: f"k{i % 40}", "m": float(i)} for i in range(100)]
    w = view(rows, {long: "string", "m": "number"}, x=long, y="m")
    payload = strict_json(w.to_dict())
    assert_valid(validator, payload)
    [top] = [f for f in payload["facts"] if f["kind"] == "top"]
    assert top["column"] == long  # the name as a value, whole; the sentence bounded
    assert long not in top["sentence"] and top["sentence"] in payload["notes"]


def test_a_fact_of_a_kind_chartkit_does_not_note_fails_validation(
    validator: jsonschema.Draft202012Validator, good_payload: dict[str, Any]
) -> None:
    good_payload["facts"] = [{"kind": "mystery", "column": None, "counts": {}, "sentence": "x"}]
    assert any("mystery" in m for m in error_messages(validator, good_payload))
