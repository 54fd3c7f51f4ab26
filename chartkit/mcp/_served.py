"""The files ``chartkit mcp`` serves: only under the roots the user granted, read bounded.

Two rules, each in one place here:

- **Only granted roots** (``Roots``, ``locate``). The directories given with ``--root``; without
  one, the roots the MCP client offers (the folders it shares with the server); without those,
  the working directory — unless that is ``/``, the whole machine. A path is resolved (every
  symlink followed, ``..`` applied, no ``~`` expansion) and must then lie inside one of them, so
  a link never leads out of a root; a dot-file or a dot-directory (``.env``, ``.ssh/…``) is never
  served, however it is named. The file is opened without following a final symlink, and only
  a regular file is read.
- **Bounded decoding** (``read_bounded``, ``json_cost``, ``csv_cost``, ``check_parquet``). At most
  ``MAX_FILE_BYTES`` are read from disk; what they decode to is estimated *before* decoding —
  about ``ROW_COST`` bytes per row or container and ``VALUE_COST`` per value, plus the text —
  and refused over ``MAX_DECODED_BYTES``; a result holds at most ``MAX_ROWS`` rows. Parquet is
  judged by its metadata first, every leaf column by its position, then its text columns are
  read in batches of ``PARQUET_BATCH_ROWS`` rows as dictionaries (their decoded length counted,
  never decoded), single-threaded, from memory.

Every refusal is a ``NotServed`` error whose message says what was wrong, which roots are
served or which cap was passed, and what to do instead.
"""

from __future__ import annotations

import os
import stat
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final
from urllib.parse import unquote, urlparse
from urllib.request import url2pathname

from chartkit._safe import cap_text, visible
from chartkit.errors import ChartkitError
from chartkit.read.parquet import unreadable_parquet

__all__ = [
    "FILE_SUFFIXES",
    "MAX_DECODED_BYTES",
    "MAX_FILE_BYTES",
    "MAX_ROWS",
    "PARQUET_BATCH_ROWS",
    "ROW_COST",
    "VALUE_COST",
    "NotServed",
    "Roots",
    "check_parquet",
    "check_rows",
    "csv_cost",
    "json_cost",
    "locate",
    "read_bounded",
    "refuse_over",
    "shown_path",
    "size_text",
]

FILE_SUFFIXES: Final = (".json", ".jsonl", ".ndjson", ".csv", ".parquet")
MAX_FILE_BYTES: Final = 50 * 2**20
"""The largest file read from disk: 50 MiB."""
MAX_DECODED_BYTES: Final = 512 * 2**20
"""The most a file may decode to in memory (estimated before decoding): 512 MiB."""
MAX_ROWS: Final = 1_000_000
"""The most rows one result may hold."""
ROW_COST: Final = 200
"""Bytes a row (a Python dict), or any JSON object or array, is counted at."""
VALUE_COST: Final = 64
"""Bytes any other value (a cell, a JSON scalar or key) is counted at."""
PARQUET_BATCH_ROWS: Final = 4096
"""Rows of a Parquet file decoded at a time while it is measured."""


class NotServed(ChartkitError, ValueError):
    """A file ``chart_file`` does not serve: outside the roots, hidden, not regular, too big."""


def shown_path(path: str) -> str:
    """A path from a caller as it is quoted back: escaped, capped, repr-quoted."""
    return repr(cap_text(visible(path), 200))


def size_text(n: int) -> str:
    """``n`` bytes in words: ``1.6 KiB``, ``50.0 MiB``, ``19.0 GiB``."""
    if n >= 2**30:
        return f"{n / 2**30:.1f} GiB"
    return f"{n / 2**20:.1f} MiB" if n >= 2**20 else f"{n / 2**10:.1f} KiB"


# ------------------------------------------------------------------------------------ roots


@dataclass(frozen=True)
class Roots:
    """The directories served (resolved), and where the grant came from, in words."""

    dirs: tuple[Path, ...]
    origin: str
    """``"--root"``, ``"the client's roots"`` or ``"the working directory"``."""
    refused: str | None = None
    """Why nothing is served, when ``dirs`` is empty."""

    @classmethod
    def granted(cls, dirs: Iterable[str | os.PathLike[str]]) -> Roots:
        """The ``--root`` directories; one that is not a directory raises ``NotServed``."""
        resolved: list[Path] = []
        for given in dirs:
            path = Path(os.path.realpath(os.fspath(given)))
            if not path.is_dir():
                raise NotServed(
                    f"--root {shown_path(os.fspath(given))} is not a directory; give a "
                    "directory that holds the files to chart"
                )
            if path not in resolved:
                resolved.append(path)
        return cls(tuple(resolved), "--root", refused=None if resolved else "no root was given")

    @classmethod
    def working_directory(cls) -> Roots:
        """The working directory, unless it is the filesystem's root."""
        here = Path(os.path.realpath(os.getcwd()))
        if here == Path(here.anchor):
            return cls(
                (),
                "the working directory",
                refused=f"the server runs in {visible(str(here))}, the whole machine, so it "
                "serves no files by default",
            )
        return cls((here,), "the working directory")

    @classmethod
    def offered(cls, uris: Sequence[str]) -> Roots:
        """The client's ``file://`` roots that are directories here (the others are skipped)."""
        dirs: list[Path] = []
        for uri in uris:
            parsed = urlparse(uri)
            if parsed.scheme != "file" or parsed.netloc not in ("", "localhost"):
                continue
            path = Path(os.path.realpath(url2pathname(unquote(parsed.path))))
            if path.is_dir() and path not in dirs:
                dirs.append(path)
        refused = None
        if not dirs:
            refused = (
                f"the client offers {len(uris):,} root(s) and none is a local directory"
                if uris
                else "the client offers no roots"
            )
        return cls(tuple(dirs), "the client's roots", refused=refused)

    def describe(self) -> str:
        """The served roots in words, for the tool description and every refusal."""
        if not self.dirs:
            return f"no files ({self.refused})"
        listed = ", ".join(visible(str(d)) for d in self.dirs[:8])
        if len(self.dirs) > 8:
            listed += f" and {len(self.dirs) - 8:,} more"
        granted = "granted with --root" if self.origin == "--root" else self.origin
        return f"files under {listed} ({granted})"


def locate(path: str, roots: Roots) -> Path:
    """``path`` resolved, when it is a file ``roots`` serve; else ``NotServed`` saying why."""
    shown = shown_path(path)
    fix = (
        "start the server with --root DIR for the directory that holds it"
        if roots.origin != "--root" or not roots.dirs
        else "move the file under one of them, or add its directory with another --root DIR"
    )
    if not roots.dirs:
        raise NotServed(
            f"cannot chart {shown}: chart_file serves {roots.describe()}; {fix}, or pass the "
            "rows to chart_rows"
        )
    given = Path(path)
    if any(part.startswith(".") and part not in (".", "..") for part in given.parts):
        raise NotServed(
            f"cannot chart {shown}: chart_file never serves a dot-file or a file in a "
            "dot-directory; copy the data to a visible file"
        )
    try:
        resolved = Path(os.path.realpath(roots.dirs[0] / given))
    except (ValueError, OSError) as exc:  # an embedded NUL, a loop of links
        raise NotServed(f"cannot chart {shown}: it is not a usable path ({exc})") from None
    for root in roots.dirs:
        if resolved == root or not resolved.is_relative_to(root):
            continue
        if any(part.startswith(".") for part in resolved.relative_to(root).parts):
            raise NotServed(
                f"cannot chart {shown}: it leads to a dot-file or into a dot-directory, which "
                "chart_file never serves; copy the data to a visible file"
            )
        return resolved
    raise NotServed(
        f"cannot chart {shown}: it is not under a served root (a link is followed and must "
        f"stay inside one); chart_file serves {roots.describe()}; {fix}"
    )


def read_bounded(file: Path, path: str, roots: Roots) -> bytes:
    """The bytes of ``file``: a regular file, not a final symlink, at most ``MAX_FILE_BYTES``."""
    shown = shown_path(path)
    flags = os.O_RDONLY
    for name in ("O_NOFOLLOW", "O_NONBLOCK", "O_CLOEXEC", "O_BINARY"):
        flags |= getattr(os, name, 0)
    try:
        fd = os.open(file, flags)
    except OSError as exc:
        raise NotServed(
            f"cannot read {shown}: {exc.strerror or exc}; give the path of an existing file "
            f"(absolute, or relative to the first root); chart_file serves {roots.describe()}"
        ) from None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise NotServed(
                f"cannot read {shown}: it is not a regular file; give the path of a data file"
            )
        data = handle.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise NotServed(
            f"{shown} is {size_text(max(info.st_size, len(data)))}, over the "
            f"{size_text(MAX_FILE_BYTES)} chart_file reads; chart a smaller extract (filter or "
            "aggregate it first), or pass the rows to chart_rows"
        )
    return data


# ----------------------------------------------------------------------------------- caps


def _too_large(shown: str, cost: int) -> NotServed:
    return NotServed(
        f"{shown} would decode to about {size_text(cost)} in memory, over the "
        f"{size_text(MAX_DECODED_BYTES)} chart_file decodes; chart a smaller extract (fewer "
        "rows or columns), or pass the rows to chart_rows"
    )


def _too_many(shown: str, rows: int) -> NotServed:
    return NotServed(
        f"{shown} holds {rows:,} rows, over the {MAX_ROWS:,} chart_file charts; chart a "
        "smaller extract (filter or aggregate it first)"
    )


def check_rows(shown: str, rows: int) -> None:
    """Refuse a result of more than ``MAX_ROWS`` rows."""
    if rows > MAX_ROWS:
        raise _too_many(shown, rows)


_CHUNK: Final = 2**18


def _outside_quotes(data: bytes, stand_in: bytes) -> bytes:
    """``data`` with each quoted stretch (``"…"``) replaced by ``stand_in``, a chunk at a time.

    Quotes toggle between outside and inside; pieces at alternate places of a split are the
    outside ones. (A JSON text has its escapes removed first; a CSV's ``""`` toggles twice.)
    """
    out: list[bytes] = []
    inside = False
    for start in range(0, len(data), _CHUNK):
        pieces = data[start : start + _CHUNK].split(b'"')
        if inside and len(pieces) > 1:
            out.append(stand_in)  # the string that began in an earlier chunk ends here
        out.append(stand_in.join(pieces[1::2] if inside else pieces[0::2]))
        inside ^= (len(pieces) - 1) % 2 == 1
    return b"".join(out)


def json_cost(data: bytes, *, lines: bool = False) -> int:
    """About the bytes ``data`` (JSON, or JSON lines) decodes to, counted without decoding it.

    Every ``[``, ``{``, ``,`` and ``:`` is followed by one value or key, except an empty array
    or object. Counted over the whole text first (an overestimate when strings hold such
    characters, and fast); only a text that this puts over the cap is counted again with its
    strings set aside, so that only real structure counts.

    >>> json_cost(b'[{}, {}]') == 3 * ROW_COST + 8
    True
    """
    cost = _json_structure(data, len(data), lines=lines)
    if cost <= MAX_DECODED_BYTES:
        return cost
    unescaped = data.replace(b"\\\\", b"").replace(b'\\"', b"")
    return _json_structure(_outside_quotes(unescaped, b"0"), len(data), lines=lines)


def _json_structure(data: bytes, size: int, *, lines: bool) -> int:
    top = data.count(b"\n") + 1 if lines else 1
    bare = data.translate(None, b" \t\r\n")
    containers = bare.count(b"{") + bare.count(b"[")
    empties = bare.count(b"{}") + bare.count(b"[]")
    tokens = containers - empties + bare.count(b",") + bare.count(b":") + top
    return containers * ROW_COST + max(tokens - containers, 0) * VALUE_COST + size


def csv_cost(data: bytes) -> int:
    """About the bytes a CSV file decodes to: its rows and cells (``,`` and line ends).

    Counted over the whole text first; only a text that this puts over the cap is counted
    again outside its quoted cells.

    >>> csv_cost(b"a,b\\n1,2\\n") == 3 * ROW_COST + 5 * VALUE_COST + 8
    True
    """
    cost = _csv_structure(data, len(data))
    if cost <= MAX_DECODED_BYTES:
        return cost
    return _csv_structure(_outside_quotes(data, b""), len(data))


def _csv_structure(data: bytes, size: int) -> int:
    rows = data.count(b"\n") + 1
    return rows * ROW_COST + (data.count(b",") + rows) * VALUE_COST + size


def refuse_over(shown: str, cost: int) -> None:
    """Refuse a decoding estimated at more than ``MAX_DECODED_BYTES``."""
    if cost > MAX_DECODED_BYTES:
        raise _too_large(shown, cost)


def check_parquet(data: bytes, shown: str) -> None:
    """Refuse a Parquet file whose rows or decoded size pass the caps, without decoding it whole.

    Every leaf column is judged by its position in the Parquet schema (a field inside a struct,
    a list or a map, and each of two columns named alike, apart): first from the metadata alone
    (rows, values, uncompressed sizes, fixed widths); two columns of one level named alike
    are refused (no reader can tell them apart by name); then the text leaves are read
    ``PARQUET_BATCH_ROWS`` rows at a time as dictionaries, each cell's length counted as if
    decoded but never decoded, so a few bytes that repeat one long string are refused before
    it is repeated. A text leaf Arrow cannot read as a dictionary (``DELTA_BYTE_ARRAY``, whose
    each value extends the one before it) is read in batches small enough that one batch cannot
    pass the cap.
    """
    import pyarrow as pa  # type: ignore[import-untyped]
    import pyarrow.parquet as pq  # type: ignore[import-untyped]

    try:
        probe = pq.ParquetFile(pa.BufferReader(data))
        meta = probe.metadata
        groups = [meta.row_group(g) for g in range(meta.num_row_groups)]
        rows = max(meta.num_rows, sum(group.num_rows for group in groups))
        check_rows(shown, rows)
        leaves = _parquet_leaves(meta.schema, groups)
    except (pa.ArrowException, OSError) as exc:
        raise NotServed(_unreadable_parquet(shown, exc)) from None
    base = rows * ROW_COST + sum(leaf.cost for leaf in leaves)
    if base > MAX_DECODED_BYTES:
        widest = max(leaves, key=lambda leaf: leaf.cost)
        raise _column_too_large(shown, base, widest, widest.cost, len(leaves))
    _refuse_names_alike(shown, probe.schema_arrow)
    texts = [leaf for leaf in leaves if leaf.text]
    if not texts:
        return
    batch_rows = _batch_rows(shown, base, texts, len(leaves))
    indices = [leaf.index for leaf in texts]
    dictionaries = [leaf.index for leaf in texts if leaf.dictionary]
    reader = pq.ParquetFile(pa.BufferReader(data), read_dictionary=dictionaries).reader
    seen = 0
    total = base
    try:
        batches = reader.iter_batches(batch_rows, list(range(len(groups))), indices, False)
        for batch in batches:
            seen += batch.num_rows
            check_rows(shown, seen)
            arrays = [array for column in batch.columns for array in _leaf_arrays(column)]
            for leaf, array in zip(texts, arrays, strict=True):
                part = _decoded_bytes(array)
                leaf.decoded += part
                total += part
            if total > MAX_DECODED_BYTES:
                widest = max(texts, key=lambda leaf: leaf.decoded)
                raise _column_too_large(shown, total, widest, widest.decoded, len(leaves))
    except NotServed:
        raise
    except (pa.ArrowException, OSError, ValueError) as exc:
        raise NotServed(_unreadable_parquet(shown, exc)) from None


def _unreadable_parquet(shown: str, exc: BaseException) -> str:
    """Why a served file is refused as Parquet: Arrow's own first line."""
    return unreadable_parquet(shown, _first_line(exc))


_TEXT_LOGICAL: Final = frozenset({"NONE", "STRING", "JSON", "BSON", "ENUM"})
"""Logical types of a ``BYTE_ARRAY`` leaf that Arrow reads as text or bytes."""
_DICTIONARY_READ: Final = frozenset(
    {"PLAIN", "PLAIN_DICTIONARY", "RLE_DICTIONARY", "RLE", "BIT_PACKED"}
)
"""Encodings of a text column chunk that Arrow can read as a dictionary."""
_PLAIN_BATCH_BYTES: Final = 8 * 2**20
"""The most one batch of text leaves not read as dictionaries may decode to."""


@dataclass
class _Leaf:
    """One leaf column of a Parquet schema, by position, and what it is counted at so far."""

    index: int
    path: str
    text: bool
    """A ``BYTE_ARRAY`` of text or bytes: its decoded size is counted batch by batch."""
    repeated: bool
    width: int
    """Bytes each value decodes to beside ``VALUE_COST``: a ``FIXED_LEN_BYTE_ARRAY``'s length."""
    dictionary: bool = True
    """Read as a dictionary: a text leaf whose every chunk Arrow can read so."""
    cost: int = 0
    """The metadata's estimate: values, uncompressed bytes and fixed widths, every row group."""
    reach: int = 0
    """The most one row of it can decode to: a value is never longer than its chunk's bytes."""
    decoded: int = 0
    """Bytes its text cells decode to, counted from the batches read so far."""


def _parquet_leaves(schema: Any, groups: Sequence[Any]) -> list[_Leaf]:
    """Every leaf column of ``schema``, counted from the metadata of each row group in ``groups``.

    Once per leaf and per column chunk (linear in the columns): a file is judged column by
    column whatever its width, and no column is looked up by its name.
    """
    leaves = []
    for index in range(len(schema)):
        column = schema.column(index)
        kind = column.physical_type
        leaves.append(
            _Leaf(
                index=index,
                path=column.path,
                text=kind == "BYTE_ARRAY" and column.logical_type.type in _TEXT_LOGICAL,
                repeated=column.max_repetition_level > 0,
                width=max(column.length, 0) if kind == "FIXED_LEN_BYTE_ARRAY" else 0,
            )
        )
    for group in groups:
        if group.num_columns != len(leaves):
            raise OSError(f"a row group holds {group.num_columns:,} of {len(leaves):,} columns")
        for leaf in leaves:
            chunk = group.column(leaf.index)
            values = max(chunk.num_values, 0)
            size = max(chunk.total_uncompressed_size, 0)
            leaf.cost += values * (VALUE_COST + leaf.width) + size
            if leaf.text:
                # A value's bytes, or its dictionary entry, or the suffixes that extend the value
                # before it (DELTA_BYTE_ARRAY), lie in its chunk.
                leaf.reach = max(leaf.reach, size * (values if leaf.repeated else 1))
                leaf.dictionary &= _DICTIONARY_READ.issuperset(chunk.encodings)
    return leaves


def _refuse_names_alike(shown: str, schema: Any) -> None:
    """Refuse a file two of whose columns, or two fields of one struct, share a name.

    Tables, rows and charts name a column by its name, so such a file cannot be charted; and
    Arrow's reader looks columns up by name in time that grows with the square of their count.
    Each level is counted once (``Counter``), so this is linear in the columns.
    """
    import pyarrow as pa

    levels: list[tuple[str, list[Any]]] = [("", list(schema))]
    while levels:
        where, fields = levels.pop()
        for name, count in Counter(field.name for field in fields).items():
            if count > 1:
                raise NotServed(
                    f"{shown} holds {count:,} columns named {shown_path(where + name)}; a "
                    "column is read by its name, so give each column a name of its own"
                )
        for field in fields:
            kinds = [field.type]
            while kinds:
                kind = kinds.pop()
                if pa.types.is_struct(kind):
                    inner = [kind.field(i) for i in range(kind.num_fields)]
                    levels.append((f"{where}{field.name}.", inner))
                elif pa.types.is_map(kind):
                    kinds += [kind.key_type, kind.item_type]
                elif hasattr(kind, "value_type") and not pa.types.is_dictionary(kind):
                    kinds.append(kind.value_type)


def _batch_rows(shown: str, base: int, texts: Sequence[_Leaf], width: int) -> int:
    """Rows read at a time: ``PARQUET_BATCH_ROWS``, fewer when a leaf not read as a dictionary
    could decode one batch to more than ``_PLAIN_BATCH_BYTES``; such a leaf one row of which
    could pass the cap is refused.

    Arrow holds a few times a batch while it decodes one, and the allocator keeps what it
    freed, so a batch is kept small beside the cap it is judged against.
    """
    plain = [leaf for leaf in texts if not leaf.dictionary]
    if not plain:
        return PARQUET_BATCH_ROWS
    reach = max(plain, key=lambda leaf: leaf.reach)
    room = MAX_DECODED_BYTES - base
    if reach.reach > room:
        raise _column_too_large(shown, base + reach.reach, reach, reach.reach, width)
    return max(1, min(PARQUET_BATCH_ROWS, _PLAIN_BATCH_BYTES // reach.reach))


def _leaf_arrays(array: Any) -> Iterable[Any]:
    """The leaf arrays of ``array`` in the order of the Parquet schema's leaf columns."""
    import pyarrow as pa

    if isinstance(array, pa.ExtensionArray):
        array = array.storage
    kind = array.type
    if pa.types.is_struct(kind):
        for i in range(kind.num_fields):
            yield from _leaf_arrays(array.field(i))
    elif isinstance(array, pa.ListArray | pa.LargeListArray | pa.FixedSizeListArray):
        yield from _leaf_arrays(array.values)  # a map's values are its key-value struct
    else:
        yield array


def _decoded_bytes(column: Any) -> int:
    """The bytes ``column`` holds once decoded: a dictionary's cells counted one by one."""
    import pyarrow as pa
    import pyarrow.compute as pc  # type: ignore[import-untyped]

    if isinstance(column, pa.DictionaryArray):
        lengths = pc.binary_length(column.dictionary)
        total = pc.sum(pc.take(lengths, column.indices)).as_py() or 0
        return int(total) + int(column.indices.nbytes)
    return int(column.nbytes)


def _column_too_large(shown: str, cost: int, leaf: _Leaf, part: int, width: int) -> NotServed:
    return NotServed(
        f"{shown} would decode to about {size_text(cost)} in memory, over the "
        f"{size_text(MAX_DECODED_BYTES)} chart_file decodes ({size_text(part)} of it in column "
        f"{shown_path(leaf.path)}, column {leaf.index + 1:,} of {width:,} in its Parquet "
        "schema); chart a smaller extract (fewer rows or columns), or pass the rows to chart_rows"
    )


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return cap_text(visible(text), 200)
