"""The JSON Schema of ``View.to_dict()``: the payload agent UIs and other front ends read.

``view_payload_schema()`` builds it from the same vocabularies the code uses (view kinds,
channels, Vega-Lite types, dial words, violation kinds, column types), so the schema cannot
name a word the payload never carries. ``schema/view.json`` is this function's output, checked
in; regenerate it with ``python -m chartkit.payload > schema/view.json``.

The Vega-Lite spec inside the payload is described only as an object (or null): Vega-Lite
publishes its own schema, named by the spec's ``$schema``.
"""

from __future__ import annotations

import json
import sys
from typing import Any, get_args, get_type_hints

from chartkit.check.judge import OFFENDERS_LISTED, VIOLATION_KINDS
from chartkit.check.outcome import CHECK_MODES, CheckOutcome, DispositionRow
from chartkit.columns import COLUMN_TYPES
from chartkit.plan.decide import AGGREGATES, SCALES, SORTS, TIME_UNITS
from chartkit.plan.encode import VEGALITE_TYPES, Channel, Encoding
from chartkit.plan.rules import RULES
from chartkit.plan.spec import NOTE_KINDS
from chartkit.views import PAYLOAD_VERSION, ViewKind, ViewState

__all__ = ["view_payload_schema"]


def _words(*words: object) -> list[Any]:
    """One enum list from a vocabulary, first spelling first, without repeats."""
    return list(dict.fromkeys(words))


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    return {"anyOf": [schema, {"type": "null"}]}


def _counts() -> dict[str, Any]:
    return {"type": "integer", "minimum": 0}


def _closed(description: str, properties: dict[str, Any], **rest: Any) -> dict[str, Any]:
    """An object whose every listed key is required and which allows no other key."""
    return {
        "type": "object",
        "description": description,
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
        **rest,
    }


def _drill_schema() -> dict[str, Any]:
    """``View.to_dict()["drill"]``: how a front end asks for the rows behind a mark (added by
    the selection work, issue 21: chartkit.selection.drill_payload)."""
    text = {"type": "string"}
    vl = {"enum": list(dict.fromkeys(VEGALITE_TYPES.values()))}
    placed = _closed(
        "A column every drawn row places: of its declared type, a finite number, a date.",
        {
            "op": {"const": "placed"},
            "column": text,
            "type": vl,
            "declared": _nullable({"enum": list(COLUMN_TYPES)}),
            "nullable": {"type": "boolean"},
            "optional": {"type": "boolean"},
        },
    )
    key = _closed(
        "A field of the chart's records that tells its marks apart.",
        {
            "field": text,
            "column": _nullable(text),
            "type": vl,
            "bin": {"type": "boolean"},
            "zone": _nullable({"enum": ["UTC", "wall clock"]}),
        },
    )
    return _closed(
        "How to ask for the rows behind a mark: send a clicked mark's datum, a brush "
        "({field: [low, high]} over 'brushable'), or a selection (chartkit.selection) back; "
        "null when there is no chart.",
        {
            "marks": _counts(),
            "keys": {"type": "array", "items": key},
            "placed": {"type": "array", "items": placed},
            "bucketSeconds": _nullable({"type": "integer", "minimum": 1}),
            "timeUnit": _nullable({"enum": list(TIME_UNITS)}),
            "bins": {"type": "array", "items": _counts()},
            "top": _nullable(_counts()),
            "brushable": {"type": "array", "items": text},
        },
    )


def view_payload_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of ``View.to_dict()``.

    Closed at every level (``additionalProperties: false``), so a payload key the schema does
    not know is a drift, caught by validating real payloads. The rules between fields are
    stated too: a refused view carries no spec, no encodings and at least one finding.

    >>> schema = view_payload_schema()
    >>> schema["properties"]["kind"]["enum"]
    ['chart', 'table', 'refused']
    >>> schema["$defs"]["encoding"]["properties"]["type"]["enum"]
    ['quantitative', 'temporal', 'nominal']
    """
    channels = list(get_args(Channel))
    statuses = list(get_args(get_type_hints(CheckOutcome)["status"]))
    sources = list(get_args(get_type_hints(Encoding)["source"]))
    seams = list(get_args(get_type_hints(DispositionRow)["seam"]))
    text = {"type": "string"}
    violation = _closed(
        (
            "A ColumnViolation: one declared column whose rows break the declaration. "
            "'sample' is the first offending value as the tool returned it (null for an "
            "absence); 'affected' of 'total' rows offend, 'absent' of them by holding nothing."
        ),
        {
            "kind": {"enum": list(VIOLATION_KINDS)},
            "column": text,
            "declared": {"enum": list(COLUMN_TYPES)},
            "nullable": {"type": "boolean"},
            "sample": {"description": "Any JSON value, or null."},
            "sampleType": {
                "type": "string",
                "description": "The JSON-ish name of the sample's type: string, number, "
                "boolean, null, absent, date, object, array, or a Python type name.",
            },
            "affected": _counts(),
            "total": _counts(),
            "absent": _counts(),
            "offendingTypes": {"type": "array", "items": text},
            "offenders": {
                "type": "array",
                "maxItems": OFFENDERS_LISTED,
                "description": "The most frequent distinct offending values, the most "
                "frequent first (equal counts: absent, null, then by type and value); null "
                "and absent each stand for every row holding nothing that way.",
                "items": _closed(
                    "One distinct offending value and how many rows hold it.",
                    {
                        "value": {
                            "description": "The value, bounded as the sample is (null for "
                            "an absence)."
                        },
                        "type": {
                            "type": "string",
                            "description": "Its type's name, as 'sampleType' names one.",
                        },
                        "count": {"type": "integer", "minimum": 1},
                    },
                ),
            },
            "offendersUnlisted": {
                **_counts(),
                "description": "Offending rows whose (rarer) values 'offenders' does not list.",
            },
        },
    )
    encoding = _closed(
        "One channel of the chart: which column, drawn as which Vega-Lite type, "
        "and where that type came from (the declaration, or Altair's inference).",
        {
            "column": text,
            "type": {"enum": _words(*VEGALITE_TYPES.values())},
            "source": {"enum": sources},
            "aggregate": _nullable(text),
            "bin": {"type": "boolean"},
            "field": {
                "type": "string",
                "description": "The column's name in the spec's data.",
            },
            "title": text,
            "description": {
                "type": "string",
                "description": "One line for people, e.g. 'lun: declared number → quantitative'.",
            },
        },
    )
    refusal = _closed(
        "An axis chartkit would not draw, and why; 'violation' is set when the "
        "column check is why.",
        {
            "column": text,
            "channel": {"enum": channels},
            "reason": text,
            "violation": _nullable({"$ref": "#/$defs/violation"}),
        },
    )
    finding = _closed(
        "One filed finding, with its full message (which quotes the ceiling).",
        {
            "kind": {"enum": list(VIOLATION_KINDS)},
            "tool": text,
            "column": text,
            "callId": _nullable(text),
            "message": text,
            "violation": {"$ref": "#/$defs/violation"},
        },
    )
    disposition = _closed(
        "One check's disposition row: checked, fired, or not applicable.",
        {
            "check": {"enum": list(VIOLATION_KINDS)},
            "seam": {"enum": seams},
            "checked": _counts(),
            "findings": _counts(),
            "notApplicable": _counts(),
            "lastFiredAt": _nullable({"type": "number"}),
        },
    )
    alternative = _closed(
        "Another chart the declared types allow: its rule, the sentence saying why it fits, "
        "and the view() keywords that draw it.",
        {
            "chart": {"enum": [r.chart for r in RULES]},
            "reason": text,
            "picks": {
                "type": "object",
                "properties": {
                    "x": text,
                    "y": {"anyOf": [text, {"type": "array", "items": text}]},
                    "color": text,
                    "facet": text,
                    "aggregate": {"enum": list(AGGREGATES)},
                },
                "additionalProperties": False,
            },
        },
    )
    fact = _closed(
        "One note as values (chartkit.plan.spec.Note): what kind of thing the chart does not "
        "show as-is, the column it is about (null: the whole chart), its counts by name "
        "('rows', 'of', 'values', 'shown'…) and the sentence made from them — the same "
        "sentence 'notes' holds. A UI reads these fields, never the English.",
        {
            "kind": {"enum": list(NOTE_KINDS)},
            "column": _nullable(text),
            "counts": {"type": "object", "additionalProperties": {"type": "integer"}},
            "sentence": {"type": "string", "minLength": 1},
        },
    )
    no_chart = {  # a table or a refusal: nothing drawn
        "mark": {"type": "null"},
        "spec": {"type": "null"},
        "encodings": {"maxProperties": 0},
    }
    payload = _closed(
        "View.to_dict(): a tool result as chartkit shows it — chart, table or refused — with "
        "the reason, the encodings and where each type came from, the refused axes with the "
        "violation behind each, notes, and the check's findings and disposition. It carries "
        "no rows of its own: a chart's data lives only inside 'spec', and a refused view has "
        "no spec.",
        {
            "version": {"const": PAYLOAD_VERSION},
            "kind": {"enum": list(get_args(ViewKind))},
            "reason": {"type": "string", "minLength": 1},
            "tool": text,
            "callId": _nullable(text),
            "mode": {"enum": list(CHECK_MODES)},
            "status": {"enum": statuses},
            "mark": _nullable({"type": "string", "minLength": 1}),
            "encodings": {
                "type": "object",
                "propertyNames": {"enum": channels},
                "additionalProperties": {"$ref": "#/$defs/encoding"},
            },
            "refusals": {"type": "array", "items": {"$ref": "#/$defs/refusal"}},
            "notes": {"type": "array", "items": text},
            "facts": {
                "type": "array",
                "description": "The plan's notes as values; 'notes' may hold more sentences "
                "(an engine's, an overflowing aggregate's) than these.",
                "items": {"$ref": "#/$defs/fact"},
            },
            "findings": {"type": "array", "items": {"$ref": "#/$defs/finding"}},
            "disposition": {"type": "array", "items": {"$ref": "#/$defs/disposition"}},
            "spec": {
                "type": ["object", "null"],
                "description": "The Vega-Lite spec (data inline), or null when there is no "
                "chart: View.spec, whose title's subtitle says on the picture what the chart "
                "leaves out (rows, categories, measures) and the flagged columns it reads. "
                "Its own schema is the URL in its '$schema'.",
            },
            "options": {
                "type": "object",
                "description": "How the chart was drawn (empty when there is no chart): the "
                "measure's d3 format, its scale, the date bucket, the sort asked for, and "
                "whether its measure axis was asked to start at zero (null: chartkit decides).",
                "properties": {
                    "format": text,
                    "scale": {"enum": list(SCALES)},
                    "timeUnit": _nullable({"enum": list(TIME_UNITS)}),
                    "sort": {
                        "anyOf": [
                            {"enum": list(SORTS)},
                            {"type": "array"},
                            {"type": "null"},
                        ]
                    },
                    "zero": {"type": ["boolean", "null"]},
                },
                "additionalProperties": False,
            },
            "state": {
                "enum": list(get_args(ViewState)),
                "description": "What a UI says about the view: 'refused' under enforce, "
                "'refused axes' when an axis was refused, 'rows left out' when the chart does "
                "not place every row (see 'leftOut' and the notes), else 'ok'.",
            },
            "leftOut": {**_counts(), "description": "Rows the chart does not place."},
            "drill": _nullable(_drill_schema()),
            "alternatives": {
                "type": "array",
                "description": "The other charts the declared types allow, ranked; "
                "view(..., choose=N) draws the Nth.",
                "items": {"$ref": "#/$defs/alternative"},
            },
        },
        allOf=[
            {
                "if": {"properties": {"kind": {"const": "chart"}}},
                "then": {
                    "properties": {
                        "status": {"const": "ok"},
                        "mark": {"type": "string"},
                        "spec": {"type": "object"},
                        "encodings": {"minProperties": 1},
                    }
                },
            },
            {
                "if": {"properties": {"kind": {"const": "table"}}},
                "then": {"properties": {**no_chart, "status": {"const": "ok"}}},
            },
            {
                "if": {"properties": {"kind": {"const": "refused"}}},
                "then": {
                    "properties": {
                        **no_chart,
                        "status": {"const": "invalid"},
                        "mode": {"const": "enforce"},
                        "refusals": {"maxItems": 0},
                        "notes": {"maxItems": 0},
                        "facts": {"maxItems": 0},
                        "findings": {"minItems": 1},
                    }
                },
            },
        ],
    )
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "chartkit View payload",
        **payload,
        "$defs": {
            "encoding": encoding,
            "refusal": refusal,
            "finding": finding,
            "violation": violation,
            "disposition": disposition,
            "alternative": alternative,
            "fact": fact,
        },
    }


def _main() -> None:
    """Write the schema as JSON to standard output (``python -m chartkit.payload``)."""
    text = json.dumps(view_payload_schema(), indent=2, ensure_ascii=False) + "\n"
    sys.stdout.buffer.write(text.encode("utf-8"))  # UTF-8 whatever the terminal's locale


if __name__ == "__main__":
    _main()
