"""Frames that stay in their engine: the door they come in by, and tables opened from files.

A polars DataFrame or LazyFrame, a pyarrow Table, a DuckDB relation, a PySpark DataFrame
(classic, or a Spark Connect client's) or an Ibis table is read as an ``EngineReading``: its
schema and row count, never its rows. The check (``chartkit._frame_check``) and the chart's
aggregation (``chartkit.backends.pushdown``) run as queries on it through narwhals, so only counts,
first offenders and at most ``max_points`` aggregated rows leave the engine. pandas frames
keep their own path (they are in memory already).

``open_table(path)`` opens a Parquet, CSV or JSON-lines file as a DuckDB relation — embedded
DuckDB, no server — without reading it into Python.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, cast

from chartkit.errors import ChartkitError, MissingExtraError
from chartkit.read.dialects import (
    Dialect,
    DuckDB,
    at_position,
    dialect_of,
    json_kind,
    parsed_boolean,
    parsed_date,
    parsed_number,
    uncast_date,
    unparsed_text,
)
from chartkit.read.reading import RowsetReading, narwhals_to_pandas

if TYPE_CHECKING:
    from duckdb import Expression

__all__ = [
    "ENGINE_EXTRAS",
    "HELD_CELLS",
    "TABLE_SUFFIXES",
    "EngineReading",
    "HeldText",
    "TableFile",
    "TextTable",
    "head",
    "held_text",
    "missing_extra",
    "native_frame",
    "open_table",
    "parsed_cells",
    "parsed_kinds",
    "query_errors",
    "read_engine_frame",
]

ENGINE_EXTRAS: Final = {
    "duckdb": "pip install 'chartkit[duckdb]'",
    "polars": "pip install 'chartkit[polars]'",
    "pyarrow": "pip install 'chartkit[polars]'",
    "pyspark": "pip install 'chartkit[spark]'",
    "ibis": "pip install 'chartkit[ibis]'",
}
"""The install line for each engine chartkit reads natively."""

TABLE_SUFFIXES: Final = (".parquet", ".csv", ".jsonl", ".ndjson", ".json")
"""The file suffixes ``open_table`` reads."""

HELD_CELLS: Final = 150_000_000
"""A DuckDB relation's text read by the declaration is parsed once and held by the engine
(``held_text``) when its rows times its held columns are at most this many: the check and
every later query read the parsed values. Above it, each query parses the cells it reads
again. Held cells cost about 11 bytes each (20,000,000 rows of a time, a number and a
category as text: 120,000,000 cells, 1.3 GB more peak memory, and that view() 3.5 s where
parsing again per query takes 14.4 s), so at most about 1.6 GB is held."""


@dataclass(frozen=True, eq=False)
class EngineReading(RowsetReading):
    """A frame read where it lives: ``total`` rows, ``schema``, and ``native`` (the frame).

    ``engine`` names the library (``duckdb``, ``polars``, ``pyarrow``, ``pyspark``,
    ``ibis``); ``lazy`` says the frame is a query (only its answers are ever collected).
    ``csv_text`` marks a CSV read as text, whose declared columns are parsed by type.
    """

    native: Any = field(default=None, repr=False)
    engine: str = ""
    lazy: bool = False
    schema: tuple[tuple[str, Any], ...] = field(default=(), repr=False)
    csv_text: bool = False

    @cached_property
    def columns(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.schema)

    @cached_property
    def counted(self) -> dict[str, Any]:
        """The facts counted of this reading's columns so far (``ColumnFacts`` by name): the
        query backend fills it, and the check and the chart of one ``view()`` read it, so
        the rows, values, distinct values and span of a column are counted once, in one pass
        (a reading is one look at a frame; ``dataclasses.replace`` starts a new one empty)."""
        return {}

    @cached_property
    def held(self) -> dict[tuple[tuple[str, str], ...], HeldText]:
        """The text parses held for this reading (``held_text``), by what each parses: the
        check and the chart of one ``view()`` read the same one, parsed once."""
        return {}

    @cached_property
    def dialect(self) -> Dialect:
        """The engine's own ways where narwhals has none (``chartkit.read.dialects``), picked
        once, here at the door: no other module branches on ``engine``."""
        return dialect_of(self.engine)

    def to_frame(self, *, keep_values: bool = True) -> Any:
        """Refused: an engine frame is never pulled into pandas (``view()`` charts it in place)."""
        raise ChartkitError(
            f"the rows of this {self.engine} frame stay in {self.engine}; chartkit checks and "
            "charts them there (check_columns, view) and never loads them into pandas"
        )

    def narwhals(self) -> Any:
        """The frame as a narwhals DataFrame (eager engines) or LazyFrame."""
        import narwhals as nw

        return nw.from_native(self.native)


@dataclass(frozen=True, eq=False)
class HeldText:
    """A DuckDB relation's text cells parsed by their declared types once, held by DuckDB.

    ``native`` holds every column of the reading, in its order (a parsed column as its
    typed value, any other as it is), then ``uncast_date``'s flag of each date column, then
    the ``unparsed_text`` of each parsed column: the text of every cell that may offend, so
    the check counts and quotes its offenders from these rows instead of matching every cell.
    """

    native: Any
    kinds: Mapping[str, str]  # each parsed column's declared type (number, boolean, date)
    columns: tuple[str, ...]

    def at(self, name: str) -> int:
        """The position of ``name``'s value (parsed, or as it is)."""
        return self.columns.index(name)

    def flag_at(self, name: str) -> int:
        """The position of a date column's ``uncast_date`` flag."""
        dates = [n for n in self.kinds if self.kinds[n] == "date"]
        return len(self.columns) + dates.index(name)

    def text_at(self, name: str) -> int:
        """The position of a parsed column's ``unparsed_text``."""
        dates = sum(1 for k in self.kinds.values() if k == "date")
        return len(self.columns) + dates + list(self.kinds).index(name)


def parsed_kinds(reading: EngineReading, types: Mapping[str, str]) -> dict[str, str]:
    """The columns of a DuckDB relation parsed by their declared type (``types``: a column's
    type name), in the reading's order: a text column declared date, and a CSV's columns
    declared number or boolean. Empty for any other engine or an eager frame."""
    if not reading.dialect.sql_helpers or not reading.lazy:
        return {}
    # DuckDB's own types: a JSON column is text to narwhals, but its values are JSON (judged
    # by json_type in the check), so only VARCHAR is parsed
    native_types = reading.dialect.native_types(native_frame(reading))
    out = {}
    for name in reading.columns:
        kind = types.get(name)
        text = native_types.get(name) == "VARCHAR"
        if (kind == "date" and text) or (reading.csv_text and kind in ("number", "boolean")):
            out[name] = kind
    return out


def parsed_cells(reading: EngineReading, kinds: Mapping[str, str]) -> list[Expression]:
    """Every column of the reading as a DuckDB expression over positions, aliased its name: a
    column in ``kinds`` parsed by ``chartkit.read.csvread``'s rules (``parsed_*``)."""
    return [_parsed(reading, kinds, i).alias(name) for i, name in enumerate(reading.columns)]


def _parsed(reading: EngineReading, kinds: Mapping[str, str], i: int) -> Expression:
    """The column at position ``i``, parsed when ``kinds`` names it (``parsed_cells``)."""
    parse = {"number": parsed_number, "boolean": parsed_boolean, "date": parsed_date}
    name = reading.columns[i]
    return parse[kinds[name]](at_position(i)) if name in kinds else at_position(i)


def held_text(reading: EngineReading, types: Mapping[str, str]) -> HeldText | None:
    """The reading's text parsed by ``types`` (a column's declared type name) and held by
    DuckDB (``HeldText``), made once per reading and parse; None where nothing is parsed
    (``parsed_kinds``) or the held cells would pass ``HELD_CELLS``. DuckDB's own error, if
    the parse fails, is raised as it is (each caller says what it was doing)."""
    kinds = parsed_kinds(reading, types)
    if not kinds:
        return None
    key = tuple(kinds.items())
    if key in reading.held:
        return reading.held[key]
    dates = [i for i, name in enumerate(reading.columns) if kinds.get(name) == "date"]
    if reading.total * (len(reading.columns) + len(dates) + len(kinds)) > HELD_CELLS:
        return None
    cells = parsed_cells(reading, kinds)
    spare = _spare_names(reading.columns)
    flags = [uncast_date(at_position(i)).alias(next(spare)) for i in dates]
    texts = [
        unparsed_text(at_position(i), _parsed(reading, kinds, i)).alias(next(spare))
        for i, name in enumerate(reading.columns)
        if name in kinds
    ]
    dialect = reading.dialect
    native = dialect.held(dialect.project(native_frame(reading), [*cells, *flags, *texts]))
    held = HeldText(native, kinds, reading.columns)
    reading.held[key] = held
    return held


def _spare_names(columns: Sequence[str]) -> Iterator[str]:
    """Helper columns' names that are none of ``columns`` (read back by position only)."""
    taken = set(columns)
    k = 0
    while True:
        name = f"__held{k}"
        while name in taken:
            name += "_"
        taken.add(name)
        k += 1
        yield name


def _engine_of(value: object) -> str | None:
    if isinstance(value, TextTable | TableFile):
        return "duckdb"
    module = type(value).__module__.split(".", 1)[0]
    if module == "polars":
        return "polars" if type(value).__name__ in {"DataFrame", "LazyFrame"} else None
    if module == "pyarrow":
        return "pyarrow" if type(value).__name__ == "Table" else None
    if module == "duckdb":
        return "duckdb" if "Relation" in type(value).__name__ else None
    if module == "pyspark":  # classic and Spark Connect (pyspark.sql.connect.dataframe) alike
        return "pyspark" if type(value).__name__ == "DataFrame" else None
    if module == "ibis":
        return "ibis" if type(value).__name__ == "Table" else None
    return None


def read_engine_frame(value: object) -> EngineReading | None:
    """``value`` read as an ``EngineReading`` when it is an engine frame, else None.

    An engine frame with no rows is not a rowset either: that is ``read_rowset``'s answer
    (None), which callers get by asking it.

    >>> import polars as pl
    >>> r = read_engine_frame(pl.DataFrame({"lun": [0, 3]}).lazy())
    >>> r.engine, r.lazy, r.total, r.columns
    ('polars', True, 2, ('lun',))
    """
    engine = _engine_of(value)
    if engine is None:
        return None
    import narwhals as nw

    if isinstance(value, TableFile):
        value = value.open()
    csv_text = isinstance(value, TextTable)
    if isinstance(value, TextTable):
        value = value.relation
    try:
        frame = nw.from_native(cast(Any, value))
    except TypeError:
        return None
    lazy = isinstance(frame, nw.LazyFrame)
    try:
        schema = tuple(frame.collect_schema().items())
        if lazy:
            total = int(frame.select(nw.len()).collect().item())
        else:
            total = len(frame)
    except Exception as exc:  # the engine's own error, whatever its class
        raise ChartkitError(
            f"{engine} could not read the frame's schema and row count (the door query): "
            f"{str(exc)[:400]}"
        ) from exc
    names = [name for name, _ in schema]
    if len(set(names)) != len(names):
        from chartkit._safe import name_list

        twice = sorted({n for n in names if names.count(n) > 1})
        raise ChartkitError(
            f"the {engine} frame has more than one column named {name_list(twice)}; "
            "give each column its own name so each can be judged and charted"
        )
    return EngineReading(
        total=total, native=value, engine=engine, lazy=lazy, schema=schema, csv_text=csv_text
    )


def native_frame(reading: EngineReading) -> Any:
    """The engine's own frame the queries run on: a CSV's DuckDB relation, else ``native``.

    Asked by type, never by ``hasattr(native, "relation")``: a Spark Connect DataFrame answers
    every attribute name with a Column.
    """
    native = reading.native
    return native.relation if isinstance(native, TextTable) else native


def missing_extra(engine: str, exc: ModuleNotFoundError) -> MissingExtraError:
    """The error for a module an engine's answers need (pyarrow for Spark, say)."""
    line = ENGINE_EXTRAS.get(engine, "pip install 'chartkit[polars]'")
    return MissingExtraError(
        f"reading {engine}'s answers needs the module {exc.name!r}, which is not installed: {line}"
    )


@contextmanager
def query_errors(reading: EngineReading, what: str) -> Iterator[None]:
    """Inside: an engine's own error becomes a ``ChartkitError`` saying which engine could not
    do ``what`` (the query step and its columns), its text cut at 400 characters; a module the
    answers need becomes the extra's install line."""
    try:
        yield
    except ChartkitError:
        raise
    except ModuleNotFoundError as exc:
        raise missing_extra(reading.engine, exc) from exc
    except Exception as exc:  # the engine's own error, whatever its class
        from chartkit._safe import cap_names

        said = cap_names(what, reading.columns)  # a 64 KB column name is quoted cut
        raise ChartkitError(
            f"{reading.engine} could not {said}: {cap_names(str(exc)[:400], reading.columns)}"
        ) from exc


def _duckdb() -> Any:
    try:
        import duckdb
    except ImportError:
        raise MissingExtraError(
            f"opening a table file needs DuckDB: {ENGINE_EXTRAS['duckdb']}"
        ) from None
    return duckdb


@dataclass(frozen=True)
class TextTable:
    """A DuckDB relation over a CSV file read as text: its declared columns are parsed by type.

    ``relation`` is the DuckDB relation (every column VARCHAR). chartkit's check and chart
    read the cells of a declared column by ``chartkit.read.csvread``'s acceptance rules; a cell
    that does not parse is an offender whose sample is its text.
    """

    relation: Any


def open_table(path: str | Path, *, connection: Any = None) -> Any:
    """A Parquet or JSON-lines file as a DuckDB relation, a CSV file as a ``TextTable``.

    Nothing is read into Python. CSV is read as text (every column VARCHAR, an empty cell as
    NULL): the check then judges each declared column's cells by the declared type, with the
    same acceptance rules as ``chartkit.read.csvread`` (a cell that does not parse is an offender
    whose sample is the raw text). JSON is typed by every value it holds, never by DuckDB's
    sample of the first rows: a column whose values mix JSON types is read as ``JSON`` and
    each value judged by its own type (``_json_lines``). A missing path, a directory, another
    suffix or a file DuckDB cannot read raises ``ChartkitError`` naming the path.
    """
    target = Path(path)
    suffix = target.suffix.lower()
    if not target.exists():
        raise ChartkitError(f"{str(target)!r} does not exist; give the path of a table file")
    if not target.is_file():
        raise ChartkitError(f"{str(target)!r} is not a file; give the path of a table file")
    if suffix not in TABLE_SUFFIXES:
        raise ChartkitError(
            f"{target.name!r} is not a table file chartkit opens: the suffix "
            f"{suffix or '(none)'!r} is not one of {', '.join(TABLE_SUFFIXES)}"
        )
    duckdb = _duckdb()
    con = connection if connection is not None else duckdb.connect()
    try:
        if suffix == ".parquet":
            # the table function itself, as SQL reads it (con.read_parquet would turn hive
            # partitioning off: a column of each key=value folder on the path)
            return con.table_function("read_parquet", [duckdb.ConstantExpression(str(target))])
        if suffix == ".csv":
            # every cell as text; an empty cell, quoted or not, is NULL (as csvread reads it)
            return TextTable(
                con.read_csv(
                    str(target),
                    all_varchar=True,
                    header=True,
                    delimiter=",",
                    quotechar='"',
                    escapechar='"',
                    allow_quoted_nulls=True,
                )
            )
        return _json_lines(con, str(target), "auto" if suffix == ".json" else "newline_delimited")
    except Exception as exc:  # duckdb's own errors
        raise ChartkitError(
            f"DuckDB could not read {target.name!r} as a {suffix[1:]} table: {exc}"
        ) from exc


_JSON_SEEN: Final = ("NULL", "BOOLEAN", "VARCHAR", "BIGINT", "UBIGINT", "HUGEINT", "DOUBLE")
"""The JSON types a JSON-lines column's values are told apart by: ``json_type``'s names, and
``HUGEINT`` for an unsigned integer of 19 digits or more (it may pass BIGINT's range); any
other (an object, an array) is ``OTHER``."""

_JSON_COLUMN_TYPES: Final = (
    (frozenset({"BOOLEAN"}), "BOOLEAN"),
    (frozenset({"VARCHAR"}), "VARCHAR"),
    (frozenset({"BIGINT", "UBIGINT"}), "BIGINT"),
    (frozenset({"BIGINT", "UBIGINT", "HUGEINT"}), "HUGEINT"),
    (frozenset({"BIGINT", "UBIGINT", "HUGEINT", "DOUBLE"}), "DOUBLE"),
)
"""A JSON-lines column's DuckDB type by the JSON types its values hold (``_JSON_SEEN``, ``NULL``
aside): the first row whose set holds them all. A column holding any other mix (a string beside
numbers, an object, an array) or no value at all stays ``JSON``, each value judged by its own
type."""


def _json_lines(con: Any, path: str, form: str) -> Any:
    """JSON lines typed by every value they hold, never by DuckDB's sample.

    DuckDB types a JSON file from its first rows (about 20,000) and then converts every later
    value to that type: ``"7"`` to 7, ``true`` to 1, ``1.5`` to 2, an object to text. So the
    keys and the ``json_type`` of each value are first read from every record (two scans, every
    value read as JSON), and a column takes a type only when all its values are of it
    (``_JSON_COLUMN_TYPES``); any other column is read as ``JSON`` and the check judges each
    of its values by its own JSON type, as it judges the same rows in memory. Text stays text
    (``"2024-01-05"`` is a string in JSON, not a DATE). The keys reach DuckDB as data, never
    as query text. A file whose records are not all objects is read as DuckDB reads it.
    """
    import duckdb

    dialect = DuckDB()
    # every record as one JSON value (an object, or whatever else a line holds)
    records = con.read_json(path, format=form, records="false", columns={"json": "JSON"})
    record = duckdb.ColumnExpression("json")
    is_object = duckdb.FunctionExpression("json_type", record) == duckdb.ConstantExpression(
        "OBJECT"
    )
    # a record that is not an object is seen as a NULL key
    keys = duckdb.CaseExpression(is_object, duckdb.FunctionExpression("json_keys", record))
    numbered = dialect.project(records, [
        keys.otherwise(duckdb.ConstantExpression([None])).alias("keys"),
        duckdb.FunctionExpression("row_number").over().alias("n"),
    ])  # fmt: skip
    listed = duckdb.ColumnExpression("keys")
    each = dialect.project(numbered, [
        duckdb.FunctionExpression("unnest", listed).alias("k"),
        duckdb.FunctionExpression("generate_subscripts", listed, 1).alias("i"),
        duckdb.ColumnExpression("n"),
    ])  # fmt: skip
    k, i, n = (duckdb.ColumnExpression(c) for c in ("k", "i", "n"))
    first = each.aggregate(
        [k, n.min().alias("n"), duckdb.FunctionExpression("arg_min", i, n).alias("i")], k
    ).fetchall()
    # the keys in the order first seen (by record, then by place in it)
    seen = [key for key, _, _ in sorted(first, key=lambda row: (row[1], row[2]))]
    if None in seen or not seen:
        return con.read_json(path, format=form)
    raw = con.read_json(path, format=form, columns=dict.fromkeys(seen, "JSON"))
    bits = [_seen_bits(at_position(c)).alias(f"b{c}") for c in range(len(seen))]
    (held_bits,) = dialect.aggregate(raw, bits).fetchall()
    types = {}
    for key, held in zip(seen, held_bits, strict=True):
        held_types = frozenset(t for b, t in enumerate(_JSON_SEEN) if held & (1 << b)) - {"NULL"}
        big = held >> len(_JSON_SEEN)  # OTHER: an object, an array
        typed = (
            t for within, t in _JSON_COLUMN_TYPES if held_types and not big and held_types <= within
        )
        types[key] = next(typed, "JSON")
    return con.read_json(path, format=form, columns=types)


def _seen_bits(cell: Expression) -> Expression:
    """The bits of ``_JSON_SEEN`` (one past them for any other type) that the values of a JSON
    column hold, OR-ed over the rows (a missing key is NULL): a DuckDB expression."""
    import duckdb
    from duckdb.sqltypes import VARCHAR

    at = {name: 1 << b for b, name in enumerate(_JSON_SEEN)}
    digits = duckdb.FunctionExpression("strlen", cell.cast(VARCHAR))
    wide = duckdb.CaseExpression(digits < 19, at["UBIGINT"]).otherwise(at["HUGEINT"])
    kind = json_kind(cell)
    named = [(name, wide if name == "UBIGINT" else bit) for name, bit in at.items()
             if name != "HUGEINT"]  # fmt: skip
    case = duckdb.CaseExpression(kind == duckdb.ConstantExpression(named[0][0]), named[0][1])
    for name, bit in named[1:]:
        case = case.when(kind == duckdb.ConstantExpression(name), bit)
    return duckdb.FunctionExpression("bit_or", case.otherwise(1 << len(_JSON_SEEN)))


@dataclass(frozen=True)
class TableFile:
    """A table file by its path, opened with embedded DuckDB whenever it is read.

    Unlike a relation it can be pickled, so an app's cache can hold it; ``view`` and
    ``check_columns`` take it like the relation ``open_table`` gives.
    """

    path: str

    def open(self) -> Any:
        """``open_table(self.path)``."""
        return open_table(self.path)


def head(reading: EngineReading, n: int) -> Any:
    """The first ``n`` rows as a pandas frame: one bounded query, for showing, never judging."""
    import narwhals as nw

    native = reading.native.relation if isinstance(reading.native, TextTable) else reading.native
    with query_errors(reading, f"fetch the first {n:,} rows"):
        frame = nw.from_native(native).head(n)
        if isinstance(frame, nw.LazyFrame):
            frame = frame.collect()
        return narwhals_to_pandas(frame)  # any names (a NUL), any dtypes (Int128, …)
