"""The sentences: the spec's, word for word, and the ones written in the same voice."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import numpy as np
import pytest

from chartkit import COLUMN_TYPE_CEILING, ColumnViolation, check_columns
from chartkit.messages import (
    NOTHING_CHANGED,
    finding_message,
    offenders_text,
    refusal_sentence,
    render_sample,
)
from chartkit.violations import OffendingValue

# Copied from the user's specification ("The ceiling"); the one literal copy.
SPEC_CEILING = (
    "This judges TYPE, never MEANING — it can see that a column declared number holds a string, "
    "and it can never see that the string should have been 0, or that a 0.0 should have been an "
    "8; a column whose every value has its declared type passes here and can still be wrong."
)


def test_the_ceiling_is_the_specs_sentence_word_for_word() -> None:
    assert COLUMN_TYPE_CEILING == SPEC_CEILING


def test_the_warn_finding_is_the_specs_sentence_word_for_word() -> None:
    rows = [
        {"logical_unit_number": "", "host_group": "vdi-a"},
        {"logical_unit_number": 3, "host_group": "vdi-a"},
    ]
    (violation,) = check_columns(rows, {"logical_unit_number": "number", "host_group": "string"})
    assert finding_message(violation, tool="host_group_mappings", call_id="call-1") == (
        "'host_group_mappings' declares column 'logical_unit_number' as number, and 1 of 2 rows "
        'hold something else — the first is "" (string). This judges TYPE, never MEANING — it '
        "can see that a column declared number holds a string, and it can never see that the "
        "string should have been 0, or that a 0.0 should have been an 8; a column whose every "
        "value has its declared type passes here and can still be wrong. Call id call-1. Nothing "
        "here blocked the call, changed the result, or retried anything — the model reads the "
        "rows exactly as the tool returned them."
    )


def test_the_enforce_refusal_is_the_specs_sentence_word_for_word() -> None:
    rows = [{"logical_unit_number": "", "host_group": "vdi-a"}] * 2
    violations = check_columns(rows, {"logical_unit_number": "number", "host_group": "string"})
    assert refusal_sentence("host_group_mappings", violations) == (
        "Result rejected: host_group_mappings returned rows that disagree with the columns it "
        "declares — 'logical_unit_number' is declared number and 2 of 2 rows hold string "
        '(first: ""). Fix the tool so the column holds what it declares, or change the '
        "declaration. No data was returned."
    )


def test_a_finding_about_nothing_names_the_one_word_fix() -> None:
    (violation,) = check_columns([{"lun": None}, {"lun": 3}, {}], {"lun": "number"})
    assert finding_message(violation, tool="host_group_mappings", call_id="call-1") == (
        "'host_group_mappings' declares column 'lun' as number, and 2 of 3 rows hold something "
        "else — the first is null. 2 of those rows hold nothing (null or a key not set); "
        "if a row may legitimately carry nothing, declare the column nullable. "
        f"{SPEC_CEILING} Call id call-1. {NOTHING_CHANGED}"
    )


def test_a_finding_about_a_key_not_set_says_so() -> None:
    (violation,) = check_columns([{"host": "a"}, {"lun": 3}], {"lun": "number"})
    message = finding_message(violation, tool="t", call_id=None)
    assert message.startswith(
        "'t' declares column 'lun' as number, and 1 of 2 rows hold something else — the first "
        "is a row without the key (absent). 1 of those rows holds nothing (null or a key not "
        "set); if a row may legitimately carry nothing, declare the column nullable."
    )


def test_the_missing_column_sentence_sends_the_reader_to_the_query() -> None:
    (violation,) = check_columns([{"host_group": "vdi-a"}], {"logical_unit_number": "number"})
    assert finding_message(violation, tool="host_group_mappings", call_id="call-1") == (
        "'host_group_mappings' declares column 'logical_unit_number' as number, and the 1 row "
        "does not have that column — it was never delivered, so look at the query that selects it, "
        f"not the code that maps its values. {SPEC_CEILING} Call id call-1. {NOTHING_CHANGED}"
    )


def test_without_a_call_id_the_finding_says_nothing_about_one() -> None:
    (violation,) = check_columns([{"lun": ""}], {"lun": "number"})
    message = finding_message(violation, tool="t", call_id=None)
    assert "Call id" not in message
    assert message.endswith(f"{SPEC_CEILING} {NOTHING_CHANGED}")


def test_a_refusal_names_every_broken_column_in_one_sentence() -> None:
    rows = [{"lun": None, "host": "a"}, {"host": 3}, {"lun": "x", "host": "b"}]
    violations = check_columns(rows, {"lun": "number", "host": "string", "seen": "date"})
    assert refusal_sentence("host_group_mappings", violations) == (
        "Result rejected: host_group_mappings returned rows that disagree with the columns it "
        "declares — 'lun' is declared number and 3 of 3 rows hold nothing or string "
        "(first: null) (declare it nullable if a row may carry nothing); 'host' is declared "
        "string and 1 of 3 rows hold number (first: 3); 'seen' is declared date and no row has "
        "it (the query never selected it). Fix the tool so each column holds what it declares "
        "and the query selects every declared column, or change the declaration. No data was "
        "returned."
    )


def test_a_refusal_for_missing_columns_only_sends_the_reader_to_the_query() -> None:
    violations = check_columns([{"host": "a"}], {"lun": "number", "seen": "date"})
    assert refusal_sentence("host_group_mappings", violations) == (
        "Result rejected: host_group_mappings returned rows that disagree with the columns it "
        "declares — 'lun' is declared number and no row has it (the query never selected it); "
        "'seen' is declared date and no row has it (the query never selected it). Fix the query "
        "so it selects every declared column, or change the declaration. No data was returned."
    )


def test_a_refusal_needs_something_to_refuse() -> None:
    with pytest.raises(ValueError, match="a refusal needs at least one violation"):
        refusal_sentence("t", [])


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ("", '""'),
        ("1240", '"1240"'),
        (3, "3"),
        (2.5, "2.5"),
        (True, "true"),
        (None, "null"),
        ([1, "a"], '[1, "a"]'),
        ({"v": 1}, '{"v": 1}'),
        (np.int64(7), "7"),
        (np.float32(0.5), "0.5"),
        (np.bool_(False), "false"),
        (Decimal("1.50"), "1.50"),
        (dt.date(2024, 3, 1), '"2024-03-01"'),
        (dt.datetime(2024, 3, 1, 12, 30), '"2024-03-01T12:30:00"'),
        ("vdi‑ä", '"vdi‑ä"'),
    ],
    ids=repr,
)
def test_a_sample_is_rendered_as_json(value: object, shown: str) -> None:
    assert render_sample(value) == shown


def test_a_decimal_sample_reads_as_a_number_in_the_finding() -> None:
    violation = ColumnViolation(
        "column-type-mismatch", "host", "string", False, Decimal("1.5"), "number", 1, 1
    )
    assert "the first is 1.5 (number)." in finding_message(violation, tool="t", call_id=None)


def test_a_very_long_column_name_is_cut_in_the_sentences() -> None:
    name = "c" * 10_000
    violation = ColumnViolation("missing-column", name, "number", False, None, "absent", 2, 2, 2)
    message = finding_message(violation, tool="t", call_id=None)
    assert message.startswith(
        f"'t' declares column '{'c' * 200}… (10,000 characters)' as number, and none of the 2 "
        "rows has that column"
    )
    refusal = refusal_sentence("t", [violation])
    assert f"'{'c' * 200}… (10,000 characters)' is declared number" in refusal
    assert len(refusal) < 600


def test_a_tool_name_with_control_characters_is_shown_escaped_in_the_refusal() -> None:
    violation = ColumnViolation("column-type-mismatch", "v", "number", False, "", "string", 1, 1)
    refusal = refusal_sentence("evil\x1b[2J\ntool", [violation])
    assert refusal.startswith("Result rejected: evil\\x1b[2J\\ntool returned rows that disagree")
    assert "\x1b" not in refusal and "\n" not in refusal


def test_a_sample_with_control_characters_is_quoted_with_escapes() -> None:
    assert render_sample("a\x05\u2028b") == '"a\\u0005\\u2028b"'
    assert render_sample("lone \ud800") == '"lone \\ud800"'


def test_the_offenders_are_said_apart_from_the_specs_sentences() -> None:
    """The list of offending values is its own text; the finding stays the spec's sentence."""
    rows = [{"lun": v} for v in [None, "n/a", "N/A", "-", 3.0] * 10]
    (v,) = check_columns(rows, {"lun": "number"})
    assert offenders_text(v) == 'null ×10, "-" ×10, "N/A" ×10, "n/a" ×10'
    assert "×" not in finding_message(v, tool="t", call_id=None)
    assert "×" not in refusal_sentence("t", [v])


def test_the_offenders_text_is_bounded_escaped_and_counts_the_rest() -> None:
    listed = (
        OffendingValue("\u202e\x1b" + "y" * 500, "string", 3),
        OffendingValue(dt.date(2024, 1, 2), "date", 2),
        OffendingValue(None, "absent", 1),
    )
    v = ColumnViolation("column-type-mismatch", "a", "number", False, "x", "string", 9, 9, 1,
                        ("string",), listed)  # fmt: skip
    text = offenders_text(v)
    assert text == (
        '"\\u202e\\u001b' + "y" * 118 + '… (502 characters)" ×3, "2024-01-02" (date) ×2, '
        "absent (no such key) ×1, and 3 more rows hold other values"
    )
    assert offenders_text(ColumnViolation.missing("a", v_decl(), 4)) == ""


def v_decl() -> Any:
    from chartkit.columns import ColumnDeclaration

    return ColumnDeclaration("number")
