"""The check's two events reach a subscriber: each finding, then each result's disposition."""

from __future__ import annotations

import json
import logging
import threading
from typing import Any

import pytest

from chartkit import ChartkitError, ToolResult, check_result, view
from chartkit.check.events import (
    CONTEXT_ERROR,
    DISPOSITION,
    EVENT_NAMES,
    IntegrityEvent,
    subscribe,
)
from chartkit.messages import finding_message

DECL = {"logical_unit_number": "number", "host_group": "string"}
LUN_BUG = [
    {"logical_unit_number": "", "host_group": "vdi-a"},
    {"logical_unit_number": 3, "host_group": "vdi-a"},
]


def lun(rows: Any = LUN_BUG, decl: Any = DECL) -> ToolResult:
    return ToolResult("host_group_mappings", rows, result_columns=decl, call_id="call-1")


class Recorder:
    """A subscriber as an agent framework would write one: it forwards to its own bus."""

    def __init__(self) -> None:
        self.bus: list[dict[str, Any]] = []
        self.events: list[IntegrityEvent] = []

    def __call__(self, event: IntegrityEvent) -> None:
        self.events.append(event)
        self.bus.append(json.loads(json.dumps(event.to_dict())))  # what a JSON bus carries


def test_the_field_case_under_warn_files_one_finding_then_the_disposition() -> None:
    recorder = Recorder()
    with subscribe(recorder):
        outcome = check_result(lun(), mode="warn")
    assert [e.name for e in recorder.events] == [CONTEXT_ERROR, DISPOSITION]
    finding = recorder.bus[0]["payload"]
    assert finding["kind"] == "column-type-mismatch"
    assert finding["column"] == "logical_unit_number"
    assert finding["callId"] == "call-1"
    assert finding["message"] == outcome.findings[0].message
    assert finding["message"] == finding_message(
        outcome.violations[0], tool="host_group_mappings", call_id="call-1"
    )
    assert recorder.events[0].finding is outcome.findings[0]
    disposition = recorder.bus[1]["payload"]
    assert disposition["tool"] == "host_group_mappings"
    assert (disposition["mode"], disposition["status"]) == ("warn", "ok")
    rows = {r["check"]: r for r in disposition["rows"]}
    assert rows["column-type-mismatch"]["checked"] == 1
    assert rows["column-type-mismatch"]["findings"] == 1
    assert rows["column-type-mismatch"]["lastFiredAt"] is not None
    assert rows["missing-column"] == {
        "check": "missing-column", "seam": "write", "checked": 1, "findings": 0,
        "notApplicable": 0, "lastFiredAt": None,
    }  # fmt: skip
    assert recorder.events[1].disposition == outcome.disposition


def test_dial_off_fires_no_finding_and_one_not_applicable_disposition() -> None:
    recorder = Recorder()
    with subscribe(recorder):
        check_result(lun(), mode="off")
    assert [e.name for e in recorder.events] == [DISPOSITION]
    rows = recorder.bus[0]["payload"]["rows"]
    assert [(r["check"], r["checked"], r["findings"], r["notApplicable"]) for r in rows] == [
        ("column-type-mismatch", 0, 0, 1),
        ("missing-column", 0, 0, 1),
    ]


def test_clean_rows_fire_only_the_disposition_checked_with_no_finding() -> None:
    recorder = Recorder()
    with subscribe(recorder):
        check_result(lun([{"logical_unit_number": 0, "host_group": "vdi-a"}]), mode="warn")
    assert [e.name for e in recorder.events] == [DISPOSITION]
    assert [(r["checked"], r["findings"]) for r in recorder.bus[0]["payload"]["rows"]] == [
        (1, 0),
        (1, 0),
    ]


def test_enforce_files_the_refusal_as_the_finding_and_an_invalid_disposition() -> None:
    recorder = Recorder()
    with subscribe(recorder):
        outcome = check_result(lun(LUN_BUG, {**DECL, "comment": "string"}), mode="enforce")
    assert [(e.name, e.payload.get("kind")) for e in recorder.events] == [
        (CONTEXT_ERROR, "column-type-mismatch"),
        (CONTEXT_ERROR, "missing-column"),
        (DISPOSITION, None),
    ]
    assert outcome.refusal is not None
    assert recorder.events[0].payload["message"].startswith(outcome.refusal)
    assert recorder.bus[2]["payload"]["status"] == "invalid"


def test_one_name_only_and_a_view_publishes_its_check() -> None:
    recorder = Recorder()
    with subscribe(recorder, events=[DISPOSITION]):
        view(lun())
    assert [e.name for e in recorder.events] == [DISPOSITION]


def test_without_a_callback_events_wait_to_be_drained_or_iterated() -> None:
    with subscribe() as sub:
        check_result(lun(), mode="warn")
        check_result(lun(), mode="off")
        assert [e.name for e in sub] == [CONTEXT_ERROR, DISPOSITION, DISPOSITION]
        assert sub.drain() == []
    check_result(lun(), mode="warn")
    assert sub.closed and sub.drain() == []  # closed: nothing more arrives


def test_a_full_buffer_drops_the_oldest_and_counts_them() -> None:
    with subscribe(events=[DISPOSITION], buffer=2) as sub:
        for call in ("a", "b", "c"):
            check_result(ToolResult("t", [{"a": 1}], call_id=call))
    assert [e.call_id for e in sub.drain()] == ["b", "c"]
    assert sub.dropped == 1


def test_logging_stays_beside_the_events(caplog: pytest.LogCaptureFixture) -> None:
    recorder = Recorder()
    with caplog.at_level(logging.WARNING, logger="chartkit.integrity"), subscribe(recorder):
        outcome = check_result(lun(), mode="warn")
    assert [r.getMessage() for r in caplog.records] == [outcome.findings[0].message]
    assert len(recorder.events) == 2


def test_a_subscriber_that_raises_is_logged_and_changes_nothing(
    caplog: pytest.LogCaptureFixture,
) -> None:
    def broken(event: IntegrityEvent) -> None:
        raise RuntimeError("the bus is down")

    recorder = Recorder()
    with caplog.at_level(logging.ERROR, logger="chartkit.events"):
        with subscribe(broken), subscribe(recorder):
            outcome = check_result(lun(), mode="warn")
    assert outcome.delivered is LUN_BUG and len(outcome.findings) == 1
    assert len(recorder.events) == 2  # the other subscriber still heard both
    errors = [r for r in caplog.records if r.name == "chartkit.events"]
    assert len(errors) == 2
    assert "a subscriber to integrity.context_error raised" in errors[0].getMessage()


def test_events_from_other_threads_reach_the_subscriber() -> None:
    recorder = Recorder()
    with subscribe(recorder, events=[DISPOSITION]):
        threads = [
            threading.Thread(target=check_result, args=(lun(),), kwargs={"mode": "warn"})
            for _ in range(4)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert len(recorder.events) == 4


def test_bad_subscriptions_are_refused_naming_the_fix() -> None:
    with pytest.raises(ChartkitError, match=r"event 'finding' is not one of "):
        subscribe(events=["finding"])  # type: ignore[list-item]
    with pytest.raises(ChartkitError, match="callback must be callable"):
        subscribe("print")  # type: ignore[arg-type]
    with pytest.raises(ChartkitError, match="buffer must be a positive int"):
        subscribe(buffer=0)
    assert EVENT_NAMES == ("integrity.context_error", "integrity.disposition")
