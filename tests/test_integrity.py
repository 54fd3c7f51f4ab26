"""The dial off | warn | enforce: findings, what is delivered, the disposition rows, the log."""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Callable
from typing import Any

import pandas as pd
import pytest

from chartkit import (
    CHECK_MODES,
    COLUMN_TYPE_CEILING,
    ChartkitError,
    CheckOutcome,
    DispositionLedger,
    DispositionRow,
    ToolResult,
    check_result,
    subscribe,
    view,
)

Make = Callable[..., ToolResult]

# The spec's worked example, its finding copied word for word from the spec.
SPEC_FINDING = (
    "'host_group_mappings' declares column 'logical_unit_number' as number, and 1 of 2 rows hold "
    'something else — the first is "" (string). This judges TYPE, never MEANING — it can see '
    "that a column declared number holds a string, and it can never see that the string should "
    "have been 0, or that a 0.0 should have been an 8; a column whose every value has its "
    "declared type passes here and can still be wrong. Call id call-1. Nothing here blocked the "
    "call, changed the result, or retried anything — the model reads the rows exactly as the "
    "tool returned them."
)
SPEC_REFUSAL = (
    "Result rejected: host_group_mappings returned rows that disagree with the columns it "
    "declares — 'logical_unit_number' is declared number and 2 of 2 rows hold string "
    '(first: ""). Fix the tool so the column holds what it declares, or change the declaration. '
    "No data was returned."
)
NOT_APPLICABLE = (
    DispositionRow("column-type-mismatch", "write", 0, 0, 1, None),
    DispositionRow("missing-column", "write", 0, 0, 1, None),
)
CLEAN = (
    DispositionRow("column-type-mismatch", "write", 1, 0, 0, None),
    DispositionRow("missing-column", "write", 1, 0, 0, None),
)


def both_broken() -> list[dict[str, Any]]:
    """LUN 0 as '' in both rows: the refusal's example."""
    return [{"logical_unit_number": "", "host_group": "vdi-a"}] * 2


# --- warn ----------------------------------------------------------------------------------


def test_warn_files_the_specs_finding_and_delivers_the_rows_untouched(
    mappings: Make, spec_rows: list[dict[str, Any]]
) -> None:
    result = mappings(spec_rows)
    outcome = check_result(result, mode="warn")
    (finding,) = outcome.findings
    assert finding.message == SPEC_FINDING
    assert (finding.kind, finding.tool, finding.column, finding.call_id) == (
        "column-type-mismatch",
        "host_group_mappings",
        "logical_unit_number",
        "call-1",
    )
    assert finding.violation.sample == ""
    assert outcome.delivered is result.rows
    assert outcome.status == "ok"
    assert not outcome.refused


def test_lun_zero_fires_nothing_at_all(mappings: Make) -> None:
    rows = [{"logical_unit_number": 0, "host_group": "vdi-a"}]
    outcome = check_result(mappings(rows), mode="warn")
    assert outcome.findings == ()
    assert outcome.disposition == CLEAN


def test_every_finding_quotes_the_ceiling_verbatim(mappings: Make) -> None:
    rows = [{"logical_unit_number": None, "host_group": 1}]
    declared = {"logical_unit_number": "number", "host_group": "string", "gone": "date"}
    for mode in ("warn", "enforce"):
        outcome = check_result(mappings(rows, declared), mode=mode)
        assert len(outcome.findings) == 3
        assert all(COLUMN_TYPE_CEILING in f.message for f in outcome.findings)


# --- enforce -------------------------------------------------------------------------------


def test_enforce_delivers_the_refusal_sentence_and_nothing_else(mappings: Make) -> None:
    outcome = check_result(mappings(both_broken()), mode="enforce")
    assert outcome.delivered == SPEC_REFUSAL
    assert outcome.refusal == SPEC_REFUSAL
    assert outcome.status == "invalid"
    assert outcome.refused
    assert "vdi-a" not in outcome.delivered  # no row data


def test_under_enforce_each_findings_message_is_the_refusal_then_the_ceiling(
    mappings: Make,
) -> None:
    rows = [{"host_group": 7}, {"host_group": "vdi-a"}]
    outcome = check_result(mappings(rows), mode="enforce")
    assert [f.kind for f in outcome.findings] == ["missing-column", "column-type-mismatch"]
    for finding in outcome.findings:
        assert finding.message == f"{outcome.delivered} {COLUMN_TYPE_CEILING}"


def test_enforce_delivers_clean_rows_as_warn_does(mappings: Make) -> None:
    result = mappings([{"logical_unit_number": 0, "host_group": "vdi-a"}])
    outcome = check_result(result, mode="enforce")
    assert outcome.delivered is result.rows
    assert (outcome.status, outcome.findings, outcome.refusal) == ("ok", (), None)
    assert outcome.disposition == CLEAN


def test_a_missing_column_is_refused_too(mappings: Make) -> None:
    outcome = check_result(mappings([{"host_group": "vdi-a"}]), mode="enforce")
    assert outcome.status == "invalid"
    assert outcome.delivered == (
        "Result rejected: host_group_mappings returned rows that disagree with the columns it "
        "declares — 'logical_unit_number' is declared number and no row has it (the query never "
        "selected it). Fix the query so it selects every declared column, or change the "
        "declaration. No data was returned."
    )


# --- absences, missing columns, two kinds at once ------------------------------------------


@pytest.mark.parametrize("mode", ["warn", "enforce"])
@pytest.mark.parametrize(
    "row",
    [
        {"logical_unit_number": None},
        {"logical_unit_number": float("nan")},
        {"logical_unit_number": pd.NA},
        {"logical_unit_number": pd.NaT},
        {},
    ],
    ids=["None", "NaN", "pd.NA", "NaT", "key not set"],
)
def test_every_finding_about_an_absence_names_nullable(
    mappings: Make, row: dict[str, Any], mode: str
) -> None:
    rows = [{**row, "host_group": "vdi-a"}, {"logical_unit_number": 1, "host_group": "vdi-b"}]
    (finding,) = check_result(mappings(rows), mode=mode).findings
    assert finding.kind == "column-type-mismatch"
    assert "nullable" in finding.message


def test_nullable_lets_a_row_carry_nothing(mappings: Make) -> None:
    declared = {"logical_unit_number": {"type": "number", "nullable": True}}
    rows = [{"logical_unit_number": None}, {"logical_unit_number": 3}, {}]
    assert check_result(mappings(rows, declared), mode="enforce").findings == ()


@pytest.mark.parametrize("nullable", [False, True])
def test_a_declared_column_no_row_has_is_a_missing_column_finding(
    mappings: Make, nullable: bool
) -> None:
    declared = {
        "host_group": "string",
        "logical_unit_number": {"type": "number", "nullable": nullable},
    }
    outcome = check_result(mappings([{"host_group": "vdi-a"}], declared), mode="warn")
    (finding,) = outcome.findings
    assert finding.kind == "missing-column"
    assert finding.message == (
        "'host_group_mappings' declares column 'logical_unit_number' as number, and the 1 row "
        "does not have that column — it was never delivered, so look at the query that selects it, "
        "not the code that maps its values. "
        f"{COLUMN_TYPE_CEILING} Call id call-1. Nothing here blocked the call, changed the "
        "result, or retried anything — the model reads the rows exactly as the tool returned them."
    )


def test_one_result_can_file_both_kinds_about_different_columns(mappings: Make) -> None:
    declared = {"logical_unit_number": "number", "host_group": "string", "seen_at": "date"}
    outcome = check_result(mappings(both_broken(), declared), mode="warn")
    assert [(f.kind, f.column) for f in outcome.findings] == [
        ("column-type-mismatch", "logical_unit_number"),
        ("missing-column", "seen_at"),
    ]
    wrong_value, never_delivered = (f.message for f in outcome.findings)
    assert "hold something else" in wrong_value and "query" not in wrong_value
    assert "look at the query" in never_delivered
    assert [(r.check, r.checked, r.findings) for r in outcome.disposition] == [
        ("column-type-mismatch", 1, 1),
        ("missing-column", 1, 1),
    ]


def test_an_undeclared_column_is_never_judged(mappings: Make) -> None:
    rows = [{"logical_unit_number": 0, "host_group": "a", "added_by_backend": ""}]
    assert check_result(mappings(rows), mode="enforce").findings == ()


# --- off, no declaration, not a rowset: nothing measured -----------------------------------


def test_off_measures_nothing_and_delivers_the_very_same_rows(mappings: Make) -> None:
    result = mappings(both_broken())
    outcome = check_result(result)  # off is the default
    assert outcome.mode == "off"
    assert outcome.delivered is result.rows
    assert (outcome.status, outcome.findings, outcome.violations) == ("ok", (), ())
    assert outcome.disposition == NOT_APPLICABLE
    assert not outcome.armed


@pytest.mark.parametrize("mode", ["warn", "enforce"])
def test_without_a_declaration_any_mode_is_the_same_as_off(mode: Any) -> None:
    result = ToolResult("host_group_mappings", both_broken(), call_id="call-1")
    outcome = check_result(result, mode=mode)
    assert outcome.delivered is result.rows
    assert (outcome.status, outcome.findings) == ("ok", ())
    assert outcome.disposition == NOT_APPLICABLE


@pytest.mark.parametrize("mode", ["warn", "enforce"])
@pytest.mark.parametrize(
    "rows",
    [[], {"logical_unit_number": ""}, "LUN 0", [{"logical_unit_number": ""}, None], pd.DataFrame()],
    ids=["empty list", "dict", "string", "list holding a non-dict", "zero-row frame"],
)
def test_what_is_not_a_rowset_files_not_applicable_and_no_finding(
    mappings: Make, rows: Any, mode: Any
) -> None:
    result = mappings(rows)
    outcome = check_result(result, mode=mode)
    assert outcome.findings == ()
    assert outcome.disposition == NOT_APPLICABLE
    if mode == "warn" or len(rows) == 0:  # warn hands it on; an empty answer is never refused
        assert (outcome.delivered, outcome.status, outcome.refused) == (result.rows, "ok", False)
    else:  # enforce refuses what it could not read (tests/test_integrity.py: the sentences)
        assert (outcome.delivered, outcome.status) == (outcome.refusal, "invalid")


NOT_ROWS = (
    "Result rejected: host_group_mappings declares the columns of its rows but returned {} — "
    "not rows (a list of objects, or a dataframe, with at least one row), so nothing could be "
    "checked. Fix the tool so it returns one object per row, or remove the declaration. No data "
    "was returned."
)


@pytest.mark.parametrize(
    ("rows", "what"),
    [
        ([{"logical_unit_number": "SECRET"}, None],
         "a list of 2 items whose item 2 is null, not an object"),
        ({"logical_unit_number": ["SECRET", 3]}, "one object with the key 'logical_unit_number'"),
        ({"rows": [{"logical_unit_number": "SECRET"}]}, "one object with the key 'rows'"),
        ({f"k{i}": "SECRET" for i in range(5)},
         "one object with the keys 'k0', 'k1', 'k2' and 2 more"),
        ("SECRET", "text of 6 characters"),
        (["SECRET"], "a list of 1 item whose item 1 is a string, not an object"),
        (7, "a number"),
    ],
)  # fmt: skip
def test_enforce_refuses_a_declared_answer_it_cannot_read_as_rows(
    mappings: Make, rows: Any, what: str
) -> None:
    seen: list[Any] = []
    with subscribe(seen.append):
        outcome = check_result(mappings(rows), mode="enforce")
    assert outcome.delivered == outcome.refusal == NOT_ROWS.format(what)
    assert "SECRET" not in outcome.delivered
    assert (outcome.status, outcome.findings, outcome.violations) == ("invalid", (), ())
    assert outcome.disposition == NOT_APPLICABLE  # nothing was checked: no finding is filed
    assert [e.name for e in seen] == ["integrity.disposition"]
    for mode in ("off", "warn"):
        kept = check_result(mappings(rows), mode=mode)
        assert (kept.delivered, kept.status, kept.refused) == (rows, "ok", False)


def test_enforce_refuses_what_cannot_be_read_on_every_channel() -> None:
    pytest.importorskip("mcp")
    from chartkit.mcp.apps import tool_result

    rows = [{"logical_unit_number": "SECRET"}, None]
    shown = view(rows, {"logical_unit_number": "number"}, tool="host_group_mappings",
                 mode="enforce")  # fmt: skip
    what = "a list of 2 items whose item 2 is null, not an object"
    assert (shown.kind, shown.reason) == ("refused", NOT_ROWS.format(what))
    answer = tool_result(shown, rows=rows)
    assert [block.text for block in answer.content] == [NOT_ROWS.format(what)]  # type: ignore[union-attr]
    assert "SECRET" not in answer.model_dump_json()


# --- disposition and the ledger ------------------------------------------------------------


def test_a_finding_stamps_its_disposition_row_with_when_it_fired(
    mappings: Make, spec_rows: list[dict[str, Any]]
) -> None:
    before = time.time()
    outcome = check_result(mappings(spec_rows), mode="warn")
    after = time.time()
    fired, missing = outcome.disposition
    assert (fired.check, fired.seam, fired.checked, fired.findings, fired.not_applicable) == (
        "column-type-mismatch",
        "write",
        1,
        1,
        0,
    )
    assert fired.last_fired_at is not None and before <= fired.last_fired_at <= after
    assert missing == DispositionRow("missing-column", "write", 1, 0, 0, None)


def test_disposition_rows_are_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        NOT_APPLICABLE[0].checked = 1  # type: ignore[misc]


def test_the_ledger_adds_up_a_runs_outcomes(
    mappings: Make, spec_rows: list[dict[str, Any]]
) -> None:
    ledger = DispositionLedger()
    outcomes = [
        check_result(mappings(spec_rows)),  # off
        check_result(mappings([]), mode="warn"),  # not a rowset
        check_result(mappings([{"logical_unit_number": 1, "host_group": "a"}]), mode="warn"),
        check_result(mappings(spec_rows), mode="warn"),
        check_result(mappings([{"host_group": "a"}]), mode="enforce"),
    ]
    for outcome in outcomes:
        ledger.add(outcome)
    mismatch, missing = ledger.rows()
    assert (mismatch.check, mismatch.checked, mismatch.findings, mismatch.not_applicable) == (
        "column-type-mismatch",
        3,
        1,
        2,
    )
    assert (missing.check, missing.checked, missing.findings, missing.not_applicable) == (
        "missing-column",
        3,
        1,
        2,
    )
    assert mismatch.last_fired_at == outcomes[3].disposition[0].last_fired_at
    assert missing.last_fired_at == outcomes[4].disposition[1].last_fired_at


def test_an_empty_ledger_has_a_zero_row_per_check() -> None:
    assert DispositionLedger().rows() == (
        DispositionRow("column-type-mismatch"),
        DispositionRow("missing-column"),
    )


# --- the log -------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["warn", "enforce"])
def test_each_finding_is_logged_once_as_a_warning(
    mappings: Make, caplog: pytest.LogCaptureFixture, mode: Any
) -> None:
    caplog.set_level(logging.DEBUG, logger="chartkit.integrity")
    declared = {"logical_unit_number": "number", "host_group": "string", "gone": "date"}
    outcome = check_result(mappings(both_broken(), declared), mode=mode)
    records = [r for r in caplog.records if r.name == "chartkit.integrity"]
    assert [(r.levelno, r.getMessage()) for r in records] == [
        (logging.WARNING, f.message) for f in outcome.findings
    ]
    assert len(records) == 2


def test_nothing_is_logged_when_nothing_is_measured(
    mappings: Make, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="chartkit.integrity")
    check_result(mappings(both_broken()))
    check_result(mappings([{"logical_unit_number": 0, "host_group": "a"}]), mode="warn")
    assert [r for r in caplog.records if r.name == "chartkit.integrity"] == []


# --- the dial's own door -------------------------------------------------------------------


def test_the_dial_has_three_words() -> None:
    assert CHECK_MODES == ("off", "warn", "enforce")


def test_an_unknown_mode_is_refused_naming_the_words(mappings: Make) -> None:
    with pytest.raises(ChartkitError, match="mode 'strict' is not one of off, warn, enforce"):
        check_result(mappings([]), mode="strict")  # type: ignore[arg-type]


def test_check_result_takes_a_tool_result(spec_rows: list[dict[str, Any]]) -> None:
    with pytest.raises(ChartkitError, match=r"check_result takes a ToolResult, got list"):
        check_result(spec_rows, mode="warn")  # type: ignore[arg-type]


def test_a_dataframe_result_is_checked_and_delivered_as_the_same_frame(mappings: Make) -> None:
    frame = pd.DataFrame({"logical_unit_number": [0.0, float("nan")], "host_group": ["a", "b"]})
    outcome = check_result(mappings(frame), mode="warn")
    assert isinstance(outcome, CheckOutcome)
    assert outcome.delivered is frame
    (finding,) = outcome.findings
    assert (finding.violation.affected, finding.violation.absent) == (1, 1)
    assert "nullable" in finding.message
