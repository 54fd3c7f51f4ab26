"""The column check: what counts as each type, what counts as nothing, and what gets reported."""

from __future__ import annotations

import copy
import dataclasses
import datetime as dt
import math
import random
from collections import OrderedDict, defaultdict
from decimal import Decimal
from typing import Any

import numpy as np
import pandas as pd
import pytest

from chartkit import ChartkitError, ColumnViolation, check_columns, read_rowset
from chartkit.check.judge import value_type_name
from chartkit.violations import OFFENDERS_LISTED, OffendingValue


def one(value: Any, declared: Any) -> tuple[ColumnViolation, ...]:
    """The check of a one-row, one-column result holding ``value`` in column ``c``."""
    return check_columns([{"c": value}], {"c": declared})


# --- the worked example --------------------------------------------------------------------


def test_the_field_bug_is_caught_lun_zero_stored_as_empty_string(
    spec_rows: list[dict[str, Any]],
) -> None:
    found = check_columns(spec_rows, {"logical_unit_number": "number", "host_group": "string"})
    assert found == (
        ColumnViolation(
            kind="column-type-mismatch",
            column="logical_unit_number",
            declared="number",
            nullable=False,
            sample="",
            sample_type="string",
            affected=1,
            total=2,
            offending_types=("string",),
            offenders=(OffendingValue("", "string", 1),),
        ),
    )


# --- the offenders summarized ---------------------------------------------------------------

_SPELLINGS = [None, "n/a", "N/A", "-", 3.0] * 10


def _paths(values: list[Any]) -> dict[str, Any]:
    """The same column as a list of dicts and as each frame kind chartkit reads."""
    import duckdb
    import polars as pl
    import pyarrow as pa

    texts = pa.table({"lun": pa.array([None if v is None else str(v) for v in values])})
    return {
        "rows": [{"lun": v} for v in values],
        "pandas": pd.DataFrame({"lun": pd.Series(values, dtype=object)}),
        "polars": pl.from_arrow(texts),
        "polars lazy": pl.from_arrow(texts).lazy(),  # type: ignore[union-attr]
        "pyarrow": texts,
        "duckdb": duckdb.from_arrow(texts),
    }


def test_the_distinct_spellings_of_nothing_and_text_are_listed_with_their_counts() -> None:
    """The issue's example: the finding quotes the first offender (the spec's sentence), and the
    violation lists every distinct offending value with its count — null ×10, "-" ×10, …"""
    (v,) = check_columns([{"lun": x} for x in _SPELLINGS], {"lun": "number"})
    assert (v.sample_type, v.affected, v.absent) == ("null", 40, 10)
    assert v.offenders == (
        OffendingValue(None, "null", 10),
        OffendingValue("-", "string", 10),
        OffendingValue("N/A", "string", 10),
        OffendingValue("n/a", "string", 10),
    )
    assert v.unlisted == 0


def test_every_path_lists_the_same_offenders() -> None:
    """In memory (C reader, pure Python, pandas) and in each engine (one GROUP BY)."""
    import chartkit.read.columnar as columnar

    values = [*_SPELLINGS, "n/a", {}, None]  # in the engines, text only: "3.0" then offends
    want = check_columns([{"lun": x} for x in values], {"lun": "number"})[0].offenders
    assert want[:2] == (OffendingValue(None, "null", 11), OffendingValue("n/a", "string", 11))
    saved, columnar.SPEEDUPS = columnar.SPEEDUPS, None
    try:
        assert check_columns([{"lun": x} for x in values], {"lun": "number"})[0].offenders == want
    finally:
        columnar.SPEEDUPS = saved
    for name, data in _paths(_SPELLINGS).items():
        (found,) = check_columns(data, {"lun": "number"})
        counts = {(o.value, o.count) for o in found.offenders}
        if name in ("rows", "pandas"):
            assert counts == {(None, 10), ("-", 10), ("N/A", 10), ("n/a", 10)}, name
        else:  # a text column: "3.0" is text, no number
            assert counts == {(None, 10), ("-", 10), ("N/A", 10), ("n/a", 10), ("3.0", 10)}, name
            assert [o.value for o in found.offenders] == [None, "-", "3.0", "N/A", "n/a"], name


def test_the_offenders_are_capped_and_the_rest_counted() -> None:
    """At most OFFENDERS_LISTED values, the most frequent first, ties in the values' order
    whatever the rows' order; the rows holding rarer values are counted in ``unlisted``."""
    values = [f"v{i:02}" for i in range(30)] + ["top"] * 5 + [None] * 2
    forward = check_columns([{"a": x} for x in values], {"a": "number"})[0]
    backward = check_columns([{"a": x} for x in reversed(values)], {"a": "number"})[0]
    assert len(forward.offenders) == OFFENDERS_LISTED == 8
    assert forward.offenders == backward.offenders
    assert [(o.value, o.count) for o in forward.offenders] == [
        ("top", 5),
        (None, 2),
        *((f"v{i:02}", 1) for i in range(6)),
    ]
    assert forward.unlisted == 24
    assert forward.to_dict()["offendersUnlisted"] == 24


def test_a_typed_frame_counts_its_offenders_by_dtype() -> None:
    """Every present value of a float column declared string offends: counted by pandas."""
    frame = pd.DataFrame({"a": [1.5, None, 2.0, 2.0, float("nan")]})
    (v,) = check_columns(frame, {"a": "string"})
    assert v.offenders == (
        OffendingValue(None, "null", 2),
        OffendingValue(2.0, "number", 2),
        OffendingValue(1.5, "number", 1),
    )


def test_an_offending_value_holds_at_least_one_row_and_a_violation_lists_no_more() -> None:
    with pytest.raises(ChartkitError, match="at least 1 row"):
        OffendingValue("x", "string", 0)
    with pytest.raises(ChartkitError, match="offenders lists at most 8 values"):
        ColumnViolation("column-type-mismatch", "a", "number", False, "x", "string", 1, 2,
                        offenders=(OffendingValue("x", "string", 2),))  # fmt: skip


def test_lun_zero_is_a_number() -> None:
    rows = [{"logical_unit_number": 0, "host_group": "vdi-a"}]
    assert check_columns(rows, {"logical_unit_number": "number", "host_group": "string"}) == ()


def test_numbers_quoted_as_strings_are_caught() -> None:
    (found,) = one("1240", "number")
    assert (found.sample, found.sample_type) == ("1240", "string")


def test_a_disk_of_zero_point_zero_gb_passes_because_the_check_judges_type_never_meaning() -> None:
    assert one(0.0, "number") == ()


# --- what each type accepts ----------------------------------------------------------------

NUMBERS = [
    0,
    -3,
    2**70,
    2.5,
    -0.0,
    math.inf,
    Decimal("1.50"),
    np.int64(7),
    np.int8(-1),
    np.uint16(9),
    np.float32(2.5),
    np.float64(1e-9),
]


@pytest.mark.parametrize("value", NUMBERS, ids=repr)
def test_these_are_numbers(value: Any) -> None:
    assert one(value, "number") == ()


@pytest.mark.parametrize("value", [True, False, np.bool_(True)], ids=repr)
def test_a_boolean_is_not_a_number_even_though_python_says_bool_is_an_int(value: Any) -> None:
    (found,) = one(value, "number")
    assert (found.kind, found.sample, found.sample_type) == (
        "column-type-mismatch",
        value,
        "boolean",
    )


@pytest.mark.parametrize(
    ("value", "sample_type"),
    [
        ("", "string"),
        ("1240", "string"),
        ([1], "array"),
        ({"v": 1}, "object"),
        (dt.date.today(), "date"),
    ],
    ids=repr,
)
def test_these_are_not_numbers(value: Any, sample_type: str) -> None:
    (found,) = one(value, "number")
    assert (found.sample, found.sample_type) == (value, sample_type)


@pytest.mark.parametrize("value", ["", "x", "1240", "2024-01-01"], ids=repr)
def test_any_str_is_a_string_including_the_empty_one(value: str) -> None:
    assert one(value, "string") == ()


@pytest.mark.parametrize(
    ("value", "sample_type"),
    [
        (5, "number"),
        (5.5, "number"),
        (True, "boolean"),
        (b"x", "bytes"),
        (dt.date(2024, 1, 1), "date"),
    ],
    ids=repr,
)
def test_these_are_not_strings(value: Any, sample_type: str) -> None:
    (found,) = one(value, "string")
    assert (found.sample, found.sample_type) == (value, sample_type)


@pytest.mark.parametrize("value", [True, False, np.bool_(False)], ids=repr)
def test_these_are_booleans(value: Any) -> None:
    assert one(value, "boolean") == ()


@pytest.mark.parametrize(
    ("value", "sample_type"),
    [(1, "number"), (0, "number"), ("true", "string"), (1.0, "number")],
    ids=repr,
)
def test_these_are_not_booleans(value: Any, sample_type: str) -> None:
    (found,) = one(value, "boolean")
    assert (found.sample, found.sample_type) == (value, sample_type)


DATES = [
    dt.date(2024, 3, 1),
    dt.datetime(2024, 3, 1, 12, 30),
    dt.datetime(2024, 3, 1, tzinfo=dt.UTC),
    pd.Timestamp("2024-03-01T12:00"),
    np.datetime64("2024-03-01"),
    np.datetime64("2024-03-01T12:00:00.123"),
    "2024-03-01",
    "2024-03-01T12:30:00",
    "2024-03-01 12:30",
    "2024-03-01T12:30:00+02:00",
]


@pytest.mark.parametrize("value", DATES, ids=repr)
def test_these_are_dates(value: Any) -> None:
    assert one(value, "date") == ()


@pytest.mark.parametrize(
    ("value", "sample_type"),
    [
        (1_709_251_200, "number"),  # an epoch number is a number, not a date
        (1_709_251_200.5, "number"),
        ("", "string"),
        ("yesterday", "string"),
        ("2024-02-30", "string"),
        ("03/01/2024", "string"),
        (True, "boolean"),
    ],
    ids=repr,
)
def test_these_are_not_dates(value: Any, sample_type: str) -> None:
    (found,) = one(value, "date")
    assert (found.sample, found.sample_type) == (value, sample_type)


# --- absence -------------------------------------------------------------------------------

ABSENCES = [
    pytest.param(None, "null", id="None"),
    pytest.param(float("nan"), "null", id="NaN"),
    pytest.param(np.nan, "null", id="np.nan"),
    pytest.param(np.float32("nan"), "null", id="np.float32 NaN"),
    pytest.param(Decimal("NaN"), "null", id="Decimal NaN"),
    pytest.param(pd.NA, "null", id="pd.NA"),
    pytest.param(pd.NaT, "null", id="NaT"),
    pytest.param(np.datetime64("NaT"), "null", id="np.datetime64 NaT"),
]


@pytest.mark.parametrize("declared", ["number", "string", "boolean", "date"])
@pytest.mark.parametrize(("nothing", "sample_type"), ABSENCES)
def test_each_spelling_of_nothing_is_a_violation_by_default(
    nothing: Any, sample_type: str, declared: str
) -> None:
    rows = [{"c": nothing}, {"c": _a_good(declared)}]
    (found,) = check_columns(rows, {"c": declared})
    assert (found.kind, found.sample, found.sample_type) == ("column-type-mismatch", None, "null")
    assert (found.affected, found.absent, found.total) == (1, 1, 2)
    assert found.about_absence


@pytest.mark.parametrize("declared", ["number", "string", "boolean", "date"])
def test_a_key_not_set_on_a_row_is_nothing_too(declared: str) -> None:
    rows = [{"c": _a_good(declared)}, {"other": 1}]
    (found,) = check_columns(rows, {"c": declared})
    assert (found.kind, found.sample, found.sample_type) == (
        "column-type-mismatch",
        None,
        "absent",
    )
    assert (found.affected, found.absent, found.total) == (1, 1, 2)


@pytest.mark.parametrize("declared", ["number", "string", "boolean", "date"])
@pytest.mark.parametrize(("nothing", "sample_type"), ABSENCES)
def test_nullable_allows_every_spelling_of_nothing(
    nothing: Any, sample_type: str, declared: str
) -> None:
    rows = [{"c": nothing}, {"c": _a_good(declared)}, {}]
    assert check_columns(rows, {"c": {"type": declared, "nullable": True}}) == ()


def test_nullable_allows_nothing_but_not_the_wrong_type() -> None:
    rows = [{"lun": None}, {"lun": ""}, {"lun": 3}, {}]
    (found,) = check_columns(rows, {"lun": {"type": "number", "nullable": True}})
    assert (found.sample, found.sample_type, found.affected, found.absent) == ("", "string", 1, 0)
    assert not found.about_absence


def test_absences_and_wrong_types_are_counted_together_and_told_apart() -> None:
    rows = [{"lun": None}, {"lun": ""}, {"lun": 3}, {}, {"lun": float("nan")}, {"lun": "7"}]
    (found,) = check_columns(rows, {"lun": "number"})
    assert (found.affected, found.absent, found.total) == (5, 3, 6)
    assert (found.sample, found.sample_type) == (None, "null")
    assert found.offending_types == ("null", "string", "absent")


# --- missing columns, undeclared columns ---------------------------------------------------


@pytest.mark.parametrize("nullable", [False, True])
def test_a_declared_column_in_no_row_is_a_missing_column_nullable_or_not(nullable: bool) -> None:
    rows = [{"host_group": "vdi-a"}, {"host_group": "vdi-b"}]
    (found,) = check_columns(
        rows, {"host_group": "string", "lun": {"type": "number", "nullable": nullable}}
    )
    assert found == ColumnViolation(
        kind="missing-column",
        column="lun",
        declared="number",
        nullable=nullable,
        sample=None,
        sample_type="absent",
        affected=2,
        total=2,
        absent=2,
        offending_types=("absent",),
    )
    assert not found.about_absence  # nullable is not the fix for a column never delivered


def test_a_column_present_in_one_row_is_not_missing_its_other_rows_hold_nothing() -> None:
    (found,) = check_columns([{"lun": 1}, {}, {}], {"lun": "number"})
    assert (found.kind, found.affected, found.absent) == ("column-type-mismatch", 2, 2)


def test_a_column_holding_only_nulls_was_delivered_so_it_is_not_missing() -> None:
    (found,) = check_columns([{"lun": None}, {"lun": None}], {"lun": "number"})
    assert found.kind == "column-type-mismatch"


def test_an_undeclared_column_is_never_judged() -> None:
    rows = [{"lun": 0, "surprise": object(), "junk": None}, {"lun": 1, "new_backend_column": ""}]
    assert check_columns(rows, {"lun": "number"}) == ()


def test_both_kinds_on_one_result_in_declaration_order_one_per_column() -> None:
    rows = [{"lun": "", "host": 1}, {"lun": "", "host": "a"}]
    found = check_columns(rows, {"gone": "date", "host": "string", "lun": "number"})
    assert [(v.kind, v.column) for v in found] == [
        ("missing-column", "gone"),
        ("column-type-mismatch", "host"),
        ("column-type-mismatch", "lun"),
    ]


# --- the violation as a record -------------------------------------------------------------


def test_the_sample_is_the_first_offending_value_as_the_tool_returned_it() -> None:
    first, second = {"v": 1}, {"v": 2}
    rows = [{"c": "ok"}, {"c": first}, {"c": "ok"}, {"c": second}]
    (found,) = check_columns(rows, {"c": "string"})
    assert found.sample is first
    assert (found.affected, found.total) == (2, 4)


def test_sample_type_is_a_json_ish_name_or_the_python_type_name() -> None:
    assert [
        value_type_name(v)
        for v in ("", 0, 1.5, True, None, float("nan"), {}, [], (), dt.date(2024, 1, 1), b"", {1})
    ] == [
        "string",
        "number",
        "number",
        "boolean",
        "null",
        "null",
        "object",
        "array",
        "array",
        "date",
        "bytes",
        "set",
    ]


def test_offending_types_are_listed_first_seen_first() -> None:
    rows = [{"c": 1}, {"c": True}, {"c": "x"}, {"c": None}, {"c": [1]}, {"c": {}}, {"c": 2}]
    (found,) = check_columns(rows, {"c": "number"})
    assert found.offending_types == ("boolean", "string", "null", "array")
    assert (found.sample, found.affected) == (True, 5)


def test_a_violation_is_frozen() -> None:
    (found,) = one("", "number")
    with pytest.raises(dataclasses.FrozenInstanceError):
        found.affected = 0  # type: ignore[misc]


def test_a_violation_refuses_counts_that_cannot_be() -> None:
    with pytest.raises(ChartkitError, match="0 <= absent <= affected <= total"):
        ColumnViolation("column-type-mismatch", "c", "number", False, "", "string", 3, 2)
    with pytest.raises(ChartkitError, match="kind 'wrong-kind' is not one of"):
        ColumnViolation("wrong-kind", "c", "number", False, "", "string", 1, 2)  # type: ignore[arg-type]


# --- not a rowset, purity ------------------------------------------------------------------


@pytest.mark.parametrize(
    "value",
    [[], {"lun": ""}, "rows", [{"lun": ""}, 7], pd.DataFrame({"lun": pd.Series([], dtype=object)})],
    ids=["empty list", "dict", "string", "list holding a non-dict", "zero-row frame"],
)
def test_what_is_not_a_rowset_yields_no_violation(value: Any) -> None:
    assert check_columns(value, {"lun": "number"}) == ()


def test_a_reading_can_be_checked_directly() -> None:
    reading = read_rowset([{"lun": ""}])
    assert reading is not None
    assert [v.column for v in check_columns(reading, {"lun": "number"})] == ["lun"]


def test_the_check_changes_nothing_in_the_rows() -> None:
    rows: list[Any] = [{"lun": "", "x": [1]}, {"lun": 3}, OrderedDict(lun=None)]
    before = copy.deepcopy(rows)
    check_columns(rows, {"lun": "number", "x": "string", "gone": "date"})
    assert rows == before


def test_reading_a_defaultdict_row_never_adds_the_missing_key() -> None:
    row: defaultdict[str, Any] = defaultdict(lambda: "invented", lun=1)
    (found,) = check_columns([row, {"lun": 2, "host": "a"}], {"host": "string"})
    assert "host" not in row
    assert (found.sample_type, found.affected) == ("absent", 1)


# --- the check agrees with a value-by-value reading of the spec, on generated data ----------

POOL: list[Any] = [
    0, 3, -1, 2.5, 0.0, float("nan"), np.int64(4), np.float64(1.5), np.float64("nan"), Decimal("2"),
    Decimal("NaN"), True, False, np.bool_(True), "", "x", "1240", "2024-05-01", "2024-05-01T10:00",
    "2024-13-01", None, pd.NA, pd.NaT, dt.date(2024, 1, 1), dt.datetime(2024, 1, 1, 8),
    pd.Timestamp("2024-01-01"), np.datetime64("2024-01-01"), np.datetime64("NaT"), [1], {"k": 1},
    b"raw",
]  # fmt: skip
MISSING = object()
TYPES = ["number", "string", "boolean", "date"]


def spec_judgement(value: Any, declared: str) -> str:
    """'ok', 'nothing' or 'wrong', read straight off the spec, one value at a time."""
    if value is MISSING or value is None or value is pd.NA or value is pd.NaT:
        return "nothing"
    if isinstance(value, Decimal) and value.is_nan():
        return "nothing"
    if isinstance(value, float | np.floating) and math.isnan(value):
        return "nothing"
    if isinstance(value, np.datetime64) and np.isnat(value):
        return "nothing"
    is_bool = isinstance(value, bool | np.bool_)
    if declared == "number":
        ok = not is_bool and isinstance(value, int | float | Decimal | np.integer | np.floating)
    elif declared == "string":
        ok = isinstance(value, str)
    elif declared == "boolean":
        ok = is_bool
    else:
        ok = isinstance(value, dt.date | np.datetime64) or (isinstance(value, str) and _iso(value))
    return "ok" if ok else "wrong"


def _iso(text: str) -> bool:
    try:
        dt.datetime.fromisoformat(text)
    except ValueError:
        return False
    return True


def expected(rows: list[dict[str, Any]], column: str, declared: str, nullable: bool) -> Any:
    values = [r.get(column, MISSING) for r in rows]
    if all(v is MISSING for v in values):
        return ("missing-column", len(rows), len(rows), None, "absent")
    verdicts = [spec_judgement(v, declared) for v in values]
    offending = [
        i for i, j in enumerate(verdicts) if j == "wrong" or (j == "nothing" and not nullable)
    ]
    if not offending:
        return None
    first = values[offending[0]]
    nothing = sum(1 for i in offending if verdicts[i] == "nothing")
    name = "absent" if first is MISSING else value_type_name(first)
    sample = None if verdicts[offending[0]] == "nothing" else first
    return ("column-type-mismatch", len(offending), nothing, sample, name)


def _same_sample(a: Any, b: Any) -> bool:
    return a is b or bool(a == b)


@pytest.mark.parametrize("seed", range(6))
def test_the_check_agrees_with_the_spec_read_value_by_value(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(60):
        n = rng.choice([1, 2, 7, 40, 1500, 2600])  # past 1024: rows are read in blocks
        columns = {c: rng.sample(POOL, rng.randint(1, 4)) for c in "abcd"}
        rows = []
        for _ in range(n):
            row: dict[str, Any] = {"id": 1}
            for c, pool in columns.items():
                if rng.random() < 0.97 or n < 40:
                    value = rng.choice([*pool, MISSING] if rng.random() < 0.1 else pool)
                    if value is not MISSING:
                        row[c] = value
            rows.append(row)
        if rng.random() < 0.2:
            rows[rng.randrange(n)] = OrderedDict(rows[0])  # not every row a plain dict
        declaration = {
            c: {"type": rng.choice(TYPES), "nullable": rng.random() < 0.4} for c in "abcdz"
        }
        by_column = {v.column: v for v in check_columns(rows, declaration)}
        for c, decl in declaration.items():
            want = expected(rows, c, decl["type"], decl["nullable"])
            got = by_column.get(c)
            if want is None:
                assert got is None, (c, decl, got)
                continue
            assert got is not None, (c, decl, want)
            kind, affected, absent, sample, sample_type = want
            assert (got.kind, got.affected, got.absent, got.sample_type, got.total) == (
                kind,
                affected,
                absent,
                sample_type,
                n,
            ), (c, decl)
            assert _same_sample(got.sample, sample), (got.sample, sample)


def _a_good(declared: str) -> Any:
    return {"number": 1, "string": "s", "boolean": True, "date": "2024-01-01"}[declared]


@pytest.mark.parametrize("where", [0, 1500, 2999])
def test_every_string_of_a_date_column_is_parsed_even_when_nearly_all_differ(where: int) -> None:
    start = dt.datetime(2024, 1, 1)
    rows = [{"at": (start + dt.timedelta(seconds=7 * i)).isoformat()} for i in range(3000)]
    rows[where]["at"] = "2024-02-30T00:00:00"
    rows[-2]["at"] = rows[-2]["at"] + "Z"  # fromisoformat takes a Z: still a date
    (found,) = check_columns(rows, {"at": "date"})
    assert (found.affected, found.sample, found.sample_type) == (1, "2024-02-30T00:00:00", "string")


def test_the_payload_sample_is_bounded_json_and_keeps_numbers_numbers() -> None:
    def sample(value: object) -> object:
        (v,) = check_columns([{"v": value}], {"v": "boolean"})
        return v.to_dict()["sample"]

    assert sample(Decimal("1.50")) == 1.5
    assert sample(Decimal("1e999")) == "1E+999"  # no float holds it: its text, never Infinity
    assert sample(float("inf")) == "inf"
    assert sample("x" * 1000) == "x" * 120 + "… (1,000 characters)"
    assert sample({"k": list(range(20))}) == {"k": [0, 1, 2, 3, 4, 5, 6, 7, "… (20 items)"]}


def test_a_date_string_is_rfc_3339_and_the_finding_names_the_form() -> None:
    """CPython's fromisoformat takes both (the first plotted at 20:00 UTC, CPython bug
    107779); the date rule takes neither, and the finding says which form is expected."""
    from chartkit.messages import COLUMN_TYPE_CEILING, NOTHING_CHANGED, finding_message

    rows = [{"t": "20230808120000Z"}, {"t": "2024-01-05x10:30"}, {"t": "2024-01-05T10:30Z"}]
    (v,) = check_columns(rows, {"t": "date"})
    assert (v.affected, v.total, v.sample, v.sample_type) == (2, 3, "20230808120000Z", "string")
    assert finding_message(v, tool="t", call_id=None) == (
        "'t' declares column 't' as date, and 2 of 3 rows hold something else — the first is "
        '"20230808120000Z" (string). A string in a date column must read YYYY-MM-DD, '
        "optionally followed by T or a space and HH:MM[:SS[.fraction]], then optionally Z or "
        f"±HH:MM (RFC 3339). {COLUMN_TYPE_CEILING} {NOTHING_CHANGED}"
    )


def test_import_and_a_check_leave_altair_streamlit_and_the_engines_unimported() -> None:
    """Only drawing imports Altair (``chartkit.__getattr__``); a check in a fresh process
    imports none of it, and the drawing names still import from the package."""
    import subprocess
    import sys

    code = (
        "import sys, chartkit\n"
        "rows = [{'lun': i % 7, 'host': 'vdi-a', 'at': '2024-01-05T10:30Z'} for i in range(1000)]\n"
        "rows[3]['lun'] = ''\n"
        "found = chartkit.check_columns(rows, {'lun': 'number', 'host': 'string', 'at': 'date'})\n"
        "assert [(v.column, v.affected) for v in found] == [('lun', 1)], found\n"
        "heavy = ['altair', 'streamlit', 'duckdb', 'polars', 'pyspark', 'ibis', 'vl_convert']\n"
        "print(sorted(m for m in heavy if m in sys.modules))\n"
        "import chartkit.views\n"
        "from chartkit import View, view\n"
        "print(chartkit.view is view, callable(view), 'altair' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    ).stdout
    assert out.splitlines() == ["[]", "True True True"]
